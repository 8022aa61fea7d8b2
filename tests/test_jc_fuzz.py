"""Julius Caesar through its console, at random (J-1..J-20): sessions of random command lines —
battles with digital and physical dice, retreats, tied hits, reserves, Cleopatra, Mars (surprise),
navis; the campaign's levy, pool, winter, Vulcan (``lose``), Jupiter (``owner``), disbanding,
cards —, mixed with malformed requests (bad ids, wrong numbers, unknown words, commands out of
phase, huge or negative numbers, unicode) and ``undo``.

After every request: nothing but a protocol error escapes; a refused request leaves the state
byte-identical and says why in a whole sentence in English, Russian and Ukrainian (no English
phrase left in ru/uk), and whatever it tells the player to type instead is taken; an accepted one
is said in ru/uk too; the rules' invariants hold (strengths on their tracks, a block in one place,
eliminated blocks out of the battle, one turn per block and round in the steps' order, J-5/J-6/
J-10; the dice and hits of each fire, each hit on a strongest block, J-1/J-7; trophies, VP, cards,
what winter, lose, gain, disband and owner do, J-2/J-3/J-17..J-20; advice against odds, J-14).
Each die the device rolls is the next of its block's stream, and ``undo`` restores the exact
previous state: the same request asked again gives the same state (undo never re-rolls). At the
end the session's stored lines, replayed, give the same state. Through the console and its store
too: restarts resume exactly, and History files every battle fought (J-13).

The default test runs a few hundred requests (a few seconds); ``JC_FUZZ_SESSIONS`` and the
``slow`` sweep run more."""
from __future__ import annotations

import json
import os
import random
import re
from typing import Any

import pytest

from engine.errors import LegatusError
from engine.jc import cards as K
from engine.jc.advise import SPARE
from engine.jc import mapdata
from engine.jc.order import step_order
from engine.jc.roster import roster
from engine.rng import Draws
from engine.text import Msg
from firmware import i18n
from firmware.session import Session

CYRILLIC = re.compile("[А-Яа-яЁёІіЇїЄєҐґ]")
CODES = {"bad_arguments", "illegal_move", "game_over", "unknown_command", "nothing_to_undo"}
ROSTER = roster()
IDS = sorted(ROSTER)
CITIES = sorted(mapdata.cities())
CARDS = sorted(set(K.deck()))
STATUSES = {"fight", "reserve", "retreated", "eliminated", "killed"}
JUNK_IDS = ["c_leg99", "p_", "blk0", "CLEOPATRA", "c_leg10\u200b", "легион", "🙂", "c_leg-1", "x" * 300, "None",
            "'", "c_caesar,c_leg8", "%s", "{}", "{0}"]
JUNK_NUMBERS = ["-1", "0", "5", "99999999999999999999999", "1e3", "3.0", "", "٣", "0x3", "+2", "NaN", "¾"]
JUNK_OPTIONS = ["x=1", "strength=2 strength=3", "reserve=maybe", "surprise=2", "attacker=gauls", "dice=loaded",
                "blocked=yes", "="]
JUNK_RATINGS = ["Z9", "C0", "C5", "c3", "A", "", "C-1", "С3"]      # (the last one's С is Cyrillic)
JUNK_WORDS = ["frobnicate", "fire!", "Fire", "ataque", "атака", "\u202eevil", "add\u00a0attacker", "undo2", "vpp"]
COMMANDS = ["add", "remove", "start", "fire", "retreat", "pass", "hit", "auto", "fight", "odds", "advise",
            "next-battle", "roster", "levy", "owner", "control", "lose", "gain", "disband", "vp", "supply",
            "winter", "deal", "hand", "discard", "play"]
# console syntax a Russian or Ukrainian sentence quotes as it is typed (commands, sides, roles, values)
SYNTAX = {*COMMANDS, "caesar", "pompey", "vacant", "attacker", "defender", "round", "turn", "digital", "physical",
          "setup", "apart", "new", "jc-battle", "undo", "state", "help", "next-battle", "roll", *CARDS,   # (card ids)
          "strength", "reserve", "navis-reserve", "rating", "leader", "elephant", "ballista", "navis", "name", "dice",
          "surprise", "blocked", "year", "pool", "cleopatra", "rolls", "seed",      # options
          *(w.lower() for c in CITIES for w in c.split())}                           # city ids, as typed
_LATIN = re.compile(r"^[A-Za-z]{3,}$")
SMALL_BATTLE = 18          # odds/advise only while both sides' strengths add up to less (fast, plain Python)


def english_phrase(said: str, line: str) -> str | None:
    """The first two plain Latin words in a row in ``said`` that are neither console syntax nor in
    the request ``line`` (as tests/test_i18n_refusals.py reads an untranslated phrase)."""
    words = [w.strip(".,:;!?()«»'\"<>|") for w in said.split()]
    asked = line.lower()
    for a, b in zip(words, words[1:]):
        if _LATIN.match(a) and _LATIN.match(b) and not {a.lower(), b.lower()} & SYNTAX \
                and f"{a} {b}".lower() not in asked:
            return f"{a} {b}"
    return None


def check_sentence(msg: Any, line: str, what: str) -> None:
    """``msg`` (a refusal's message or an action's log sentence) is a whole sentence in English,
    Russian and Ukrainian: no template field left, no English phrase in ru/uk."""
    en = i18n.SHARED.say(msg, "en")
    assert en and en.strip() == en, (what, line, en)
    assert all(f in line for f in re.findall(r"\{[a-z0-9_]*\}", en)), ("template field left", line, en)
    assert en.rstrip(")»'\"").endswith((".", "!", "?", ":")) or en.endswith("...") or "…" in en, \
        ("not a whole sentence", line, en)
    for lang in ("ru", "uk"):
        said = i18n.SHARED.say(msg, lang)
        assert CYRILLIC.search(said), (what, lang, line, said)
        typed = line in said
        bare = said
        typed_words = line.split() + [w.partition("=")[2] for w in line.split() if "=" in w]
        for word in sorted(filter(None, typed_words), key=len, reverse=True):   # what the request typed, said back
            bare = re.sub(re.escape(word), "x", bare, flags=re.IGNORECASE)      # (an option's value said lower-cased)
        assert typed or said.rstrip(")»'\"").endswith((".", "!", "?", ":", "…")), ("not a whole sentence", lang, line, said)
        marks = re.search(r"  | [.,;:)]|[^.]\.\.[^.]|\.\.$|,,|\(\)", re.sub(r"(\S)  \(", r"\1 (", bare))   # (a usage: "<x>  (…)")
        assert typed or not marks, ("stray spaces or marks", lang, line, said)
        assert not CYRILLIC.match(bare[:1]) or bare[0].isupper(), ("a sentence starting in lower case", lang, line, said)
        left = english_phrase(said, line)
        assert left is None, (what, lang, line, said, left)
        assert all(f in line for f in re.findall(r"\{[a-z0-9_]*\}", said)), ("template field left", lang, line, said)


def check_words(msg: Msg, line: str, what: str) -> None:
    """A term or sentence of a reply's fields is said in ru/uk (no English phrase left)."""
    en = i18n.SHARED.say(msg, "en")
    for lang in ("ru", "uk"):
        said = i18n.SHARED.say(msg, lang)
        if re.search("[A-Za-z]{3,}", en) and not re.fullmatch(r"[\w/-]+", en):
            assert CYRILLIC.search(said), (what, lang, line, said)
        assert english_phrase(said, line) is None, (what, lang, line, said, english_phrase(said, line))


def msgs(obj: Any) -> list[Msg]:
    """Every Msg in a reply's fields."""
    if isinstance(obj, Msg):
        return [obj]
    if isinstance(obj, dict):
        return [m for v in obj.values() for m in msgs(v)]
    if isinstance(obj, (list, tuple)):
        return [m for v in obj for m in msgs(v)]
    return []


class Fuzz:
    """One session of random requests."""

    def __init__(self, seed: int) -> None:
        self.r = r = random.Random(seed)
        self.big = r.random() < 0.2                # battles of up to 12 blocks at full strength (odds on arrays)
        self.legacy = r.random() < 0.15            # a line an older Legatus stored: one dice stream, no pool
        opts = [f"attacker={r.choice(['caesar', 'pompey'])}"]
        if not self.legacy or r.random() < 0.5:
            opts.append(f"cleopatra={r.choice(['round', 'turn'])}")
        if not self.legacy:
            opts.append("rolls=apart")
            opts.append("remove=restore")          # a block removed from a set-up gets its strength back
            opts.append("leaders=last")            # J-7: the device's own tie choice puts a leader last
            if r.random() < 0.8:                   # J-7: a tie asked only at a partial level (a game started
                opts.append("ties=partial")        # now); without it every tie is asked (stored before)
        if r.random() < 0.3:
            opts.append("surprise=1")
        if r.random() < 0.35:
            opts.append("dice=physical")
        if not self.legacy and r.random() < 0.8:
            opts.append("pool=setup")
        if r.random() < 0.3:
            opts.append(f"year={r.randint(1, 5)}")
        self.line = f"new jc-battle {' '.join(opts)} seed={seed}"
        self.seed = seed
        self.session = Session.start(self.line, seed, "fuzz")
        self.stack: list[str] = []                 # the state before each effective action
        self.counts: dict[str, int] = {}           # dice the device drew so far, per stream (effective actions)
        self.counted: list[dict[str, int]] = []    # ``counts`` before each effective action
        self.reference: dict[str, list[int]] = {}  # each stream's dice, drawn apart from the session
        self.said: list[str] = []                  # every request, for the failure's report
        self.stats = {"ok": 0, "refused": 0, "undo": 0, "fire": 0, "battles": 0}

    # -- asking ----------------------------------------------------------------------------
    def ask(self, line: str) -> dict[str, Any] | None:
        """Run ``line`` as the console asks it; None when refused (and every check made)."""
        s = self.session
        self.said.append(line)
        before = s.state_json
        try:
            stored = s.as_asked(line)
            outcome, new = s.run(stored, asked=True)
        except LegatusError as e:
            assert e.code in CODES, (line, e.code, e.message)
            assert s.state_json == before, line
            check_sentence(e.message, line, "refusal")
            self.suggested(e.message, line)
            self.stats["refused"] += 1
            return None
        fields = dict(outcome.fields)
        if new is not None:
            assert not json.loads(before)["campaign"]["over"], ("a change after the campaign's end", line)  # J-17
            s.commit(stored, outcome, new)
            self.setup_strength(json.loads(before), json.loads(new), stored)
            self.stack.append(before)
            self.counted.append(dict(self.counts))
            self.dice(json.loads(before), json.loads(new), stored)
            self.hits(json.loads(before), json.loads(new), stored)
            self.bookkeeping(json.loads(before), json.loads(new), stored)
            check_sentence(s.sentence_of(stored, outcome), line, "log")
        else:
            assert s.state_json == before, ("a read-only command changed the state", line)
        for m in msgs(fields):
            check_words(m, line, "reply")
        if "blocks" in fields and line.split()[0] == "roster":                       # J-2, J-3, J-20
            camp = self.view()["campaign"]
            for blk in fields["blocks"]:
                bid = blk["id"]
                assert blk["strength"] in ROSTER[bid].track, blk
                assert blk["pool"] == (bid in camp["pool"]), blk
                assert not blk["pool"] or blk["strength"] == min(ROSTER[bid].track), blk      # as a levy brings it in
                assert (blk["status"] == "killed") == (bid in camp["killed"]), blk
                assert (blk["status"] == "eliminated") == (bid in camp["eliminated"]), blk
                assert not (blk["pool"] and blk["status"] in ("killed", "eliminated", "waiting")), blk
        if "attacker_wins" in fields:
            odds = [fields[k] for k in ("attacker_wins", "attacker_eliminated", "defender_holds")]
            assert all(-1e-12 <= p <= 1 + 1e-12 for p in odds) and abs(sum(odds) - 1) < 1e-9, (line, odds)  # J-15
        self.stats["ok"] += 1
        self.check()
        return fields

    def setup_strength(self, before: dict[str, Any], after: dict[str, Any], line: str) -> None:
        """The strength a roster block carries through a set-up (J-20): from the levy pool it joins a
        battle at the strength a levy brings it in at; taken out again (a game with ``remove=restore``),
        it carries what it did before its ``add`` (the newest state before it whose set-up lacks it)."""
        words = line.split()
        if words[0] == "add" and len(words) > 2 and words[2] in ROSTER and words[2] in before["campaign"]["pool"]:
            placed = next(b for b in after["battle"]["blocks"] if b["key"] == words[2])
            assert placed["strength"] == min(ROSTER[words[2]].track), (line, placed["strength"])
        if words[0] != "remove" or not before["campaign"].get("remove_restores"):
            return
        gone = next(b for b in before["battle"]["blocks"] if b["key"] == words[1])
        if gone["id"] is None:
            return
        for older in map(json.loads, reversed(self.stack)):
            if older["number"] == before["number"] and older["battle"]["phase"] == "setup" \
                    and not any(b["key"] == gone["key"] for b in older["battle"]["blocks"]):
                was = older["campaign"]["strength"].get(gone["id"])
                assert after["campaign"]["strength"].get(gone["id"]) == was, (line, was)
                return

    @staticmethod
    def bookkeeping(before: dict[str, Any], after: dict[str, Any], line: str) -> None:
        """What a command outside battle does to the campaign, as the rules say (J-2, J-3, J-17..J-20)."""
        words = line.split()
        cb, ca = before["campaign"], after["campaign"]
        if words[0] == "winter":                                                          # J-19
            alex = ca["control"]["Alexandria"]
            assert ca["owner"]["cleopatra"] == alex, (ca["owner"], alex)                  # 8.1
            if ca["over"]:
                assert ca["year"] == cb["year"], line
                return
            assert ca["year"] == cb["year"] + 1 and ca["eliminated"] == [], line
            for bid in cb["eliminated"]:                                                  # J-3: back in the pool
                assert bid in ca["pool"] and ca["strength"][bid] == min(ROSTER[bid].track), bid
            cards = after["cards"]
            assert cards["turn"] == 1 and all(len(h) == K.HAND for h in cards["hands"].values())   # J-18
            assert not cards["reveals"] and not any(cards["discarded"].values()), cards
            return
        if words[0] not in ("lose", "gain", "disband", "owner"):
            return
        bid = words[1]
        spec = ROSTER[bid]
        was = cb["strength"].get(bid, spec.max_strength if spec.setup else min(spec.track))
        now = ca["strength"].get(bid)
        lower = [x for x in spec.track if x < was]
        if words[0] == "lose":                                                            # Vulcan, Jupiter
            if lower:
                assert now == max(lower), (line, was, now)
            elif spec.kind == "leader":
                assert bid in ca["killed"] and now is None, line                          # J-2: a trophy
            else:
                assert bid in ca["eliminated"] and now is None, line                      # J-3
        elif words[0] == "gain":                                                          # J-20
            if bid in cb["pool"]:
                assert now == min(spec.track) and bid not in ca["pool"], (line, now)
            else:
                assert now == min(x for x in spec.track if x > was), (line, was, now)
        elif words[0] == "disband":                                                       # J-19, 8.5
            assert now == min(spec.track) and bid in ca["pool"] and bid not in ca["owner"], (line, now)
        else:                                                                             # Jupiter, Cleopatra
            assert ca["owner"][bid] == words[2].lower() and spec.kind not in ("leader", "navis"), line

    @staticmethod
    def hits(before: dict[str, Any], after: dict[str, Any], line: str) -> None:
        """J-7: each hit a fire or a hit placed applies goes to a strongest enemy block in the fight
        at that instant (reserves are not in round 1; Cleopatra at I goes over at once, J-2)."""
        if line.split()[0] not in ("fire", "hit", "auto") or before["battle"]["phase"] != "fighting":
            return
        old, new = before["battle"]["turns"], after["battle"]["turns"]
        applied = [a for t in new[len(old):] for a in t["applied"]]
        if old:
            applied = new[len(old) - 1]["applied"][len(old[-1]["applied"]):] + applied
        sim = {b["key"]: dict(b) for b in before["battle"]["blocks"]}
        for a in applied:
            target = sim[a["block"]]
            rivals = [b["strength"] for b in sim.values() if b["side"] == target["side"] and b["status"] == "fight"]
            assert target["status"] == "fight" and target["strength"] == a["from"] == max(rivals), (line, a, rivals)
            if a["result"] == "reduced":
                target["strength"] = a["to"]
            elif a["result"].startswith("joins "):
                target["side"], target["strength"] = a["result"].split()[1], 1
            else:
                target["status"] = a["result"]

    def dice(self, before: dict[str, Any], after: dict[str, Any], line: str) -> None:
        """Each die the device rolls is the next of its stream, whatever was undone before: undo
        never re-rolls (PROTOCOL; docs/fairness.md: each block's fire from its own stream)."""
        old = before["battle"]["turns"] if before["number"] == after["number"] else []
        turns = after["battle"]["turns"]
        if old and before["battle"]["phase"] != "over":     # the past stays; a hit placed goes on the last fire
            assert turns[:len(old) - 1] == old[:-1], ("a battle's past turns changed", line)
            last, now = old[-1], turns[len(old) - 1]
            assert {**now, "applied": None, "lost": None} == {**last, "applied": None, "lost": None}, ("a battle's past turns changed", line)
            assert now["applied"][:len(last["applied"])] == last["applied"], ("a hit placed changed", line)
        if "dice=" in line or self.legacy:        # the table's dice: nothing drawn (a legacy game: one
            return                                # generator for the cards and every block's dice)
        for t in turns[len(old):]:
            if t["action"] != "fire":
                continue
            stream = f"battle-dice-{t['block']}"
            ref = self.reference.setdefault(stream, [])
            pos = self.counts.get(stream, 0)
            if len(ref) < pos + len(t["dice"]):
                rng = Draws.keyed(self.seed, "").stream(stream)
                ref[:] = [rng.die(6) for _ in range(pos + len(t["dice"]) + 16)]
            assert t["dice"] == ref[pos:pos + len(t["dice"])], ("a roll that is not its stream's next", line, t)
            self.counts[stream] = pos + len(t["dice"])

    def suggested(self, message: str, line: str) -> None:
        """A refusal that tells the player what to type instead ('owner c_leg10 pompey', 'remove
        c_leg10', 'gain c_leg17', 'deal', 'next-battle', 'fight') tells them something the device takes now."""
        said = str(message)
        for cmd in re.findall(r"'(owner \S+ \S+)'", said) + [f"remove {k}" for k in re.findall(r"\(remove (\S+?)\)", said)] \
                + [f"gain {k}" for k in re.findall(r"gain (\S+?)\)", said)] \
                + ["deal"] * ("'deal' shuffles" in said) + ["next-battle"] * ("Start another with next-battle" in said) \
                + ["fight"] * ("(fight resolves" in said):
            if "{" in cmd or "|" in cmd or "<" in cmd:
                continue
            self.taken(cmd, line, said)
        # a choice among blocks: "hit <a|b>", "fire <a|b>", "one of the strongest … blocks: a, b."
        battle = self.session.state["battle"]
        for verb, keys in re.findall(r"\b(hit|fire|pass|retreat) <([^>]+)>", said):
            if verb == "fire" and battle["dice"] == "physical":
                continue
            for key in keys.split("|"):
                self.taken(f"{verb} {key}", line, said)
        for keys in re.findall(r"one of the strongest \w+ blocks: ([^.]+)\.", said):
            for key in keys.split(", "):
                self.taken(f"hit {key}", line, said)
        for keys in re.findall(r"A battle is being set up \(([^)]*)\)", said):
            for key in keys.split(", "):
                self.taken(f"remove {key}", line, said)
        for block_id, sides in re.findall(r"'owner (\S+) (caesar\|pompey)'", said):
            for side in sides.split("|"):
                self.taken(f"owner {block_id} {side}", line, said)
        for side in re.findall(r"\(discard (caesar|pompey) <card>\)", said):
            held = self.session.state["cards"]["hands"][side]
            self.taken(f"discard {side} {held[0]}", line, said)
        for key in re.findall(r": fire (\S+) dice=a,b", said):
            b = next(x for x in battle["blocks"] if x["key"] == key)
            self.taken(f"fire {key} dice={','.join(['1'] * b['strength'])}", line, said)

    def taken(self, cmd: str, line: str, said: str) -> None:
        """``cmd``, suggested by the refusal of ``line``, is taken now (run, not committed)."""
        try:
            self.session.run(cmd, asked=True)              # (run, not committed: nothing changes)
        except LegatusError as e:
            if "dice=" in cmd and e.message.startswith("The device has already shown this draw"):
                return                                     # the table's dice where the device showed its own
            raise AssertionError(("a refusal suggests a request that is refused", line, said, cmd, e.message)) from None

    def undo(self) -> None:
        s = self.session
        self.said.append("undo")
        if not self.stack:
            with pytest.raises(LegatusError):
                s.undo()
            return
        after = s.state_json
        last = s.lines[-1]
        check_sentence(s.undo(), last, "undone")
        self.stats["undo"] += 1
        assert s.state_json == self.stack.pop(), "undo did not restore the state before"
        self.counts = self.counted.pop()
        self.check()
        # the same request again: the same state (no re-roll). (In a game stored before rolls=apart every
        # fire is the next of one stream: dice typed for a block there may meet a roll the device showed
        # for another after it, which stands: firmware/shown.py.)
        if self.r.random() < 0.5 and not (self.legacy and "dice=" in last):
            self.said.append(f"{last}  (again)")
            before = s.state_json
            outcome, new = s.run(last, asked=True)
            assert new == after, ("asked again after undo, the request did not give the same state", last)
            s.commit(last, outcome, new)
            self.stack.append(before)
            self.counted.append(dict(self.counts))
            self.dice(json.loads(before), json.loads(new), last)

    # -- the requests ----------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        return self.session.view()

    def step(self) -> None:
        r = self.r
        v = self.view()
        x = r.random()
        if x < 0.08:
            self.undo()
        elif x < 0.3:
            self.ask(self.junk(v))
        elif x < 0.45:
            self.ask(self.campaign(v))
        else:
            self.ask(self.battle(v))

    def battle(self, v: dict[str, Any]) -> str:
        r = self.r
        b = v["battle"]
        if b["phase"] == "over":
            self.stats["battles"] += 1
            return r.choice([f"next-battle attacker={r.choice(['caesar', 'pompey'])}"
                             + (" surprise=1" if r.random() < 0.3 else "")
                             + (" dice=physical" if r.random() < 0.3 else ""), "winter", "odds", "fight"])
        if b["phase"] == "setup":
            return self.setup(v)
        d = b["decision"]
        assert d is not None, "a battle being fought with nothing to decide"
        small = sum(x["strength"] for x in b["blocks"]) < SMALL_BATTLE
        if small and r.random() < 0.06:
            self.advice_agrees()
            return r.choice(["odds", "advise"])
        if r.random() < 0.04:
            return "fight"
        physical = b["dice"] == "physical"
        if d["kind"] == "hit":
            return r.choice([f"hit {r.choice(d['choices'])}", "hit", "auto"])
        key = r.choice(d["blocks"])
        blk = next(x for x in b["blocks"] if x["key"] == key)
        action = r.choice(d["actions"])
        if r.random() < 0.05:                       # no block named, or no dice typed: refused, and why
            return r.choice(["fire", "pass", "retreat", f"fire {key}"])
        said = key if len(d["blocks"]) > 1 or r.random() < 0.5 else ""
        if action == "fire":
            self.stats["fire"] += 1
            dice = ",".join(str(r.randint(1, 6)) for _ in range(blk["strength"]))
            if physical or r.random() < 0.2:
                if r.random() < 0.3 and len(d["blocks"]) == 1:
                    return f"auto dice={dice}"
                return f"fire {said} dice={dice}".replace("  ", " ")
            return r.choice([f"fire {said}".strip(), "auto"]) if len(d["blocks"]) == 1 else f"fire {key}"
        if action == "retreat":
            return f"retreat {said}".strip() + (" blocked=1" if r.random() < 0.15 else "")
        return f"pass {said}".strip()

    def advice_agrees(self) -> None:
        """J-14, J-15: ``advise`` marks one option as the policy's, whose odds are ``odds`` from
        now; ``best`` is at least as good as every option for the deciding side (PROTOCOL.md),
        ``advised`` too but for a hit a leader would take for less than a point (a leader spared,
        J-2, J-17: advise.spare_leader)."""
        odds, advice = self.ask("odds"), self.ask("advise")
        assert odds is not None and advice is not None
        keys = ("attacker_wins", "attacker_eliminated", "defender_holds")
        mine = [o for o in advice["options"] if o["policy"]]
        assert len(mine) == 1, advice["options"]
        assert all(abs(mine[0][k] - odds[k]) < 1e-9 for k in keys), (mine[0], odds)
        sign = 1 if advice["for"] == "attacker" else -1
        best, advised = advice["best"], advice["advised"]
        assert all(sign * (o["attacker_wins"] - best["attacker_wins"]) <= 1e-9 for o in advice["options"]), advice
        leaders = {x["key"] for x in self.view()["battle"]["blocks"] if x["kind"] == "leader"}
        spared = advised.get("target") not in leaders
        assert all(sign * (o["attacker_wins"] - advised["attacker_wins"]) <= 1e-9
                   or spared and o.get("target") in leaders and sign * (o["attacker_wins"] - advised["attacker_wins"]) < SPARE
                   for o in advice["options"]), advice

    def setup(self, v: dict[str, Any]) -> str:
        r = self.r
        b = v["battle"]
        roles = {b["attacker"]: "attacker", b["defender"]: "defender"}
        placed = [x["key"] for x in b["blocks"]]
        sides = {role: [x for x in b["blocks"] if x["side"] == b[role]] for role in ("attacker", "defender")}
        if placed and r.random() < 0.08:
            return f"remove {r.choice(placed)}"
        camp = v["campaign"]
        if self.big and len(placed) < 12 and r.random() < 0.9:       # a big battle: blocks that may fight
            out = set(camp["killed"]) | set(camp["eliminated"]) | {x["id"] for x in b["blocks"]}
            free = [i for i in IDS if i not in out and ROSTER[i].kind not in ("leader", "navis")]
            if free:
                bid = r.choice(free)
                own = camp["cleopatra"] if bid == "cleopatra" else camp["owners"].get(bid, ROSTER[bid].side)
                return f"add {roles[own]} {bid} strength={ROSTER[bid].track[0]}" + (" reserve=1" if r.random() < 0.15 else "")
        ready = all(any(not x["reserve"] for x in sides[role]) for role in sides)
        if ready and (r.random() < 0.3 or len(placed) > 7):
            return r.choice(["start", "start", "auto", "fight", "odds"] if len(placed) < 6 else ["start", "fight"])
        owners = camp["owners"]
        if r.random() < 0.12:                       # a block by its rating
            role = r.choice(["attacker", "defender"])
            flag = r.choice(["", " leader=1", " elephant=1", " ballista=1", " navis=1", " reserve=1"])
            rating = f"{r.choice('ABCD')}{r.randint(1, 4)}"
            strength = r.choice([2, 4]) if "elephant" in flag else r.randint(1, 4)
            return f"add {role} rating={rating} strength={strength}{flag}"
        bid = "cleopatra" if r.random() < 0.08 else r.choice(IDS)
        spec = ROSTER[bid]
        side = owners.get(bid, camp["cleopatra"] if bid == "cleopatra" else spec.side)
        role = roles[side] if r.random() < 0.9 else r.choice(["attacker", "defender"])
        extra = ""
        if r.random() < 0.3:
            extra += f" strength={r.choice(spec.track)}"
        if r.random() < 0.15 or (spec.kind == "navis" and role == "attacker" and r.random() < 0.6):
            extra += " reserve=1"
        if role == "attacker" and r.random() < 0.1:
            extra += " navis-reserve=1"
        return f"add {role} {bid}{extra}"

    def campaign(self, v: dict[str, Any]) -> str:
        r = self.r
        bid = r.choice(IDS)
        side = r.choice(["caesar", "pompey"])
        cards = v["cards"]
        kind = r.random()
        if kind < 0.12:
            return f"lose {bid}"                    # Vulcan, Jupiter on a leader or navis
        if kind < 0.24:
            return f"gain {bid}"                    # a levy point
        if kind < 0.32:
            return f"owner {bid} {side}"            # Jupiter, Cleopatra
        if kind < 0.4:
            return f"disband {bid}"
        if kind < 0.45:
            return f"levy {bid} {r.choice(CITIES).replace(' ', '_')}"
        if kind < 0.52:
            return f"control {r.choice(CITIES).replace(' ', '_')} {r.choice(['caesar', 'pompey', 'vacant'])}"
        if kind < 0.6:
            return "winter"
        if kind < 0.64:
            return r.choice(["vp", "supply", "roster", f"roster {side}", f"supply {r.choice(CITIES).replace(' ', '_')}"])
        if cards is None or kind < 0.67:
            return "deal"
        held = self.session.state["cards"]["hands"][side]
        card = r.choice(held) if held and r.random() < 0.9 else r.choice(CARDS)
        if not cards["discarded"][side]:
            return f"discard {side} {card}"
        return r.choice([f"play {side} {card}", f"hand {side}"])

    def junk(self, v: dict[str, Any]) -> str:
        r = self.r
        word = r.choice(COMMANDS)
        kind = r.random()
        if kind < 0.2:
            return f"{word} {r.choice(JUNK_IDS)}"
        if kind < 0.35:
            return f"{word} attacker {r.choice(IDS + JUNK_IDS)} strength={r.choice(JUNK_NUMBERS)}"
        if kind < 0.45:
            return f"{word} dice={','.join(r.choice(JUNK_NUMBERS + ['1', '6']) for _ in range(r.randint(0, 5)))}"
        if kind < 0.55:
            return r.choice(JUNK_WORDS) + (f" {r.choice(IDS)}" if r.random() < 0.5 else "")
        if kind < 0.65:
            return f"{word} {' '.join(r.choice(IDS + CITIES + JUNK_IDS + ['caesar', 'pompey']) for _ in range(r.randint(1, 4)))}"
        if kind < 0.75:
            return f"{word} {r.choice(JUNK_OPTIONS + ['name=' + r.choice(JUNK_IDS)])}"
        if kind < 0.85:
            return (f"add {r.choice(['attacker', 'defender', 'flank'])} rating={r.choice(JUNK_RATINGS)} "
                    f"strength={r.choice(JUNK_NUMBERS + ['2'])}")
        if kind < 0.92:
            return (f"{r.choice(['hand', 'discard', 'play'])} {r.choice(['crassus', 'caesar', 'POMPEY', ''])} "
                    f"{r.choice(CARDS + ['0/0', 'zeus', '2/1/1'])}")
        return f"{r.choice(['lose', 'gain', 'disband', 'owner', 'levy'])} {r.choice(IDS)} {r.choice(['caesar', 'pompey', 'Roma', 'gauls', ''])}"

    # -- the rules' invariants ---------------------------------------------------------------
    def check(self) -> None:
        v = self.view()
        assert json.loads(json.dumps(v)) == v
        b, camp = v["battle"], v["campaign"]
        keys = [x["key"] for x in b["blocks"]]
        assert len(keys) == len(set(keys)), ("a block twice in the battle", keys)
        ids = [x["id"] for x in b["blocks"] if x["id"]]
        assert len(ids) == len(set(ids)), ("a roster block twice in the battle", ids)
        for x in b["blocks"]:
            assert x["status"] in STATUSES, x
            assert 0 <= x["strength"] <= x["max"], x                                      # J-1
            if x["status"] in ("eliminated", "killed"):
                assert x["strength"] == 0, x                                              # J-2, J-3
            else:
                assert x["strength"] >= 1, x
            if x["id"]:
                spec = ROSTER[x["id"]]
                assert x["strength"] in (0, *spec.track), x
                owner = camp["cleopatra"] if x["id"] == "cleopatra" else camp["owners"].get(x["id"], spec.side)
                if x["status"] not in ("eliminated", "killed") and b["phase"] != "over":
                    assert x["side"] == owner, ("a block fights for one side and belongs to the other", x, owner)
                if b["phase"] == "setup":
                    assert x["id"] not in camp["killed"] and x["id"] not in camp["eliminated"], x  # J-2, J-3
                elif x["status"] == "killed":
                    assert x["id"] in camp["killed"], x
        d = b["decision"]
        if b["phase"] == "fighting":
            assert d is not None, "a battle being fought with nothing to decide"
            assert 1 <= b["round"] <= 4, b["round"]                                       # J-4
            gone = {x["key"] for x in b["blocks"] if x["status"] in ("eliminated", "killed", "retreated")}
            if d["kind"] == "turn":
                assert d["blocks"] and not set(d["blocks"]) & gone, d                     # out of the battle
            else:
                assert d["choices"] and not set(d["choices"]) & gone, d
                assert d["left"] >= 1, d
                if "ties=partial" in self.line:                                          # J-7: a partial level
                    assert d["left"] < len(d["choices"]), d
                kinds = {x["key"]: x["kind"] for x in b["blocks"]}                       # the careful pick: no
                assert d["default"] in d["choices"], d                                   # leader while another
                assert kinds[d["default"]] != "leader" or all(kinds[k] == "leader" for k in d["choices"]), d
        else:
            assert d is None
        if b["phase"] == "over":
            assert b["result"] in ("attacker_wins", "attacker_eliminated", "defender_holds"), b["result"]
        roll = b["roll"]
        if roll is not None:
            t = roll["turn"]
            fp = int(t["rating"][1])
            assert len(t["dice"]) == t["strength"], t                                     # J-1: a die a step
            assert t["hit_dice"] == [f <= fp for f in t["dice"]], t
            assert t["hits"] == sum(t["hit_dice"]), t
            assert len(t["applied"]) + t["lost"] <= t["hits"], t
            if not (d and d["kind"] == "hit"):
                assert len(t["applied"]) + t["lost"] == t["hits"], t                      # J-7
        self.check_turns(self.session.state["battle"])
        killed, elim, pool = set(camp["killed"]), set(camp["eliminated"]), set(camp["pool"])
        assert len(killed) == len(camp["killed"]) and len(elim) == len(camp["eliminated"])
        assert not killed & elim and not killed & pool and not elim & pool, (killed, elim, pool)
        assert not (killed | elim) & set(camp["strength"]), camp["strength"]
        assert not killed - {i for i, s in ROSTER.items() if s.kind == "leader"}, killed   # J-2
        for bid, s in camp["strength"].items():
            assert s in ROSTER[bid].track, (bid, s)
        if b["phase"] == "fighting":
            assert not set(ids) & pool, ("a block fighting and in the levy pool", set(ids) & pool)
        trophy_ids = [t["id"] for side in camp["trophies"].values() for t in side if t["id"]]
        assert sorted(trophy_ids) == sorted(killed), (trophy_ids, killed)                 # J-17
        for side, items in camp["trophies"].items():
            assert all(t["id"] is None or ROSTER[t["id"]].side != side for t in items), camp["trophies"]
        assert camp["cleopatra"] in ("caesar", "pompey")
        for s in ("caesar", "pompey"):
            assert v["vp"][s] == sum(mapdata.vp_cities()[c] for c, o in v["control"].items() if o == s) \
                + len(camp["trophies"][s])                                                # J-17
        assert 1 <= camp["year"] <= 6
        cards = v["cards"]
        if cards is not None:
            for s in ("caesar", "pompey"):
                used = cards["discarded"][s] + len(cards["reveals"]) + cards["played"][s]
                assert cards["cards_in_hand"][s] == K.HAND - used, cards                  # J-18
            assert len(cards["reveals"]) <= K.TURNS
        numbers = [h["number"] for h in v["history"]]
        assert numbers == sorted(set(numbers)), numbers

    @staticmethod
    def check_turns(battle: dict[str, Any]) -> None:
        """J-5, J-6, J-10: in each round a block takes one turn at most, in the order of the steps
        (defending A, attacking A … D; a surprise round 1 all attacking steps first); no retreat in
        round 1; in round 4 an attacker only retreats (or, unable to, is eliminated). Cleopatra, who
        may act for her new side at once (J-2, the ``turn`` rule), is out of the order check."""
        kinds = {b["key"]: b["kind"] for b in battle["blocks"]}
        for rnd in range(1, battle["round"] + 1):
            turns = [t for t in battle["turns"] if t["round"] == rnd]
            keys = [t["block"] for t in turns]
            assert len(keys) == len(set(keys)), ("a block took two turns in a round", rnd, keys)   # J-5
            place = {step: i for i, step in enumerate(step_order(rnd, battle["surprise"]))}
            seq = [place[t["role"], t["rating"][0]] for t in turns if kinds[t["block"]] != "cleopatra"]
            assert seq == sorted(seq), ("turns out of the steps' order", rnd, turns)              # J-5, J-10
            for t in turns:
                if rnd == 1:
                    assert t["action"] in ("fire", "pass"), t                                  # J-5
                if rnd == 4 and t["role"] == "attacker":
                    assert t["action"] in ("retreat", "eliminated"), t                         # J-6

    def said_view(self) -> None:
        """Every sentence and term of ``state`` (the battle log, its events, the winter's checklist,
        the verdict) is said in ru/uk."""
        for m in msgs(self.view()):
            check_words(m, "state", "state")

    def replay(self) -> None:
        again = Session.from_header(self.session.header)
        for line in self.session.lines:
            again.apply(line)
        assert again.state_json == self.session.state_json, "the stored lines replay to another state"


class ConsoleFuzz(Fuzz):
    """The same requests through the device's console and its store (SQLite in ``state_dir``):
    every reply is one JSON object, never ``internal_error`` nor ``storage_error``; a refusal changes
    nothing; ``undo`` through the console; now and then the console is closed and started again
    (a restart: the session resumes exactly); History files every battle that ended (J-13)."""

    def __init__(self, seed: int, state_dir: Any) -> None:
        from firmware.console import Console
        from firmware.store import Store
        super().__init__(seed)
        self.dir = state_dir
        self.Console, self.Store = Console, Store
        store = Store(state_dir)
        self.console = Console(store, store.resume())
        reply = self.console.request(self.line)
        assert reply["ok"], reply

    @property                                   # (the console's session: a restart makes another)
    def session(self) -> Session:               # type: ignore[override]
        return self.console.session

    @session.setter
    def session(self, value: Session) -> None:  # (Fuzz.__init__'s own, unused here)
        pass

    def request(self, line: str) -> dict[str, Any]:
        reply = self.console.request(line)
        assert json.loads(json.dumps(reply)) == reply
        assert reply.get("error") not in ("internal_error", "storage_error"), (line, reply)
        return reply

    def ask(self, line: str) -> dict[str, Any] | None:
        self.said.append(line)
        before, actions = self.session.state_json, len(self.session.lines)
        reply = self.request(line)
        if not reply["ok"]:
            assert reply["error"] in CODES, (line, reply)
            assert self.session.state_json == before, line
            self.stats["refused"] += 1
            return None
        if len(self.session.lines) != actions:
            assert len(self.session.lines) == actions + 1, line
            self.stack.append(before)
            self.counted.append(dict(self.counts))
            self.dice(json.loads(before), json.loads(self.session.state_json), self.session.lines[-1])
        self.stats["ok"] += 1
        self.check()
        if self.r.random() < 0.02:
            self.restart()
        return reply

    def undo(self) -> None:
        self.said.append("undo")
        reply = self.request("undo")
        if not self.stack:
            assert reply["error"] == "nothing_to_undo", reply
            return
        assert reply["ok"], reply
        self.stats["undo"] += 1
        assert self.session.state_json == self.stack.pop(), "undo did not restore the state before"
        self.counts = self.counted.pop()
        self.check()

    def restart(self) -> None:
        """The device switched off and on: the session resumes exactly as it was."""
        self.said.append("(restart)")
        state, lines = self.session.state_json, list(self.session.lines)
        self.console.close()
        store = self.Store(self.dir)
        self.console = self.Console(store, store.resume())
        assert self.session.state_json == state and list(self.session.lines) == lines

    def finish(self) -> None:
        """History holds one play per battle that ended (J-13), and the campaign's verdict (J-17)."""
        from firmware import history
        v = self.view()
        games = history.games(self.console.store.db, None)
        battles = [g for g in games if g["game"] == "jc-battle" and g["mode"].get("kind") == "battle"
                   and g["status"] == "finished"]
        fought = [h["number"] for h in v["history"]]
        recorded = [g["mode"]["number"] for g in battles]
        assert len(recorded) == len(set(recorded)), ("a battle filed twice", games)
        # a battle undone after a later action keeps its sealed record (docs/protocol.md, Undo)
        assert set(fought) <= set(recorded) and max(recorded, default=0) <= v["battle"]["number"], (fought, games)
        campaign = [g for g in games if g["mode"].get("kind") == "campaign"]
        assert len(campaign) <= 1 and (campaign or not v["campaign"]["over"]), (v["campaign"]["over"], campaign)
        self.console.close()


def run_console(seed: int, steps: int, state_dir: Any) -> ConsoleFuzz:
    f = ConsoleFuzz(seed, state_dir)
    try:
        for _ in range(steps):
            f.step()
        f.replay()
        f.finish()
    except BaseException as e:
        e.add_note(f"{f.line}\nasked (the last 25):\n" + "\n".join(f.said[-25:])
                   + "\neffective:\n" + "\n".join(f.session.lines))
        raise
    return f


def run(seed: int, steps: int) -> Fuzz:
    f = Fuzz(seed)
    try:
        for i in range(steps):
            f.step()
            if i % 40 == 39:
                f.said_view()
        f.said_view()
        f.replay()
    except BaseException as e:
        e.add_note(f"{f.line}\nasked (the last 25):\n" + "\n".join(f.said[-25:])
                   + "\neffective:\n" + "\n".join(f.session.lines))
        raise
    return f


SESSIONS = int(os.environ.get("JC_FUZZ_SESSIONS", "12"))


@pytest.mark.parametrize("chunk", range(2))
def test_random_sessions_keep_every_invariant(chunk):
    total = {"ok": 0, "refused": 0, "undo": 0, "fire": 0, "battles": 0}
    for seed in range(chunk * SESSIONS // 2, (chunk + 1) * SESSIONS // 2):
        f = run(seed, 120)
        for k in total:
            total[k] += f.stats[k]
    assert min(total.values()) > 0, total


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_random_sessions_sweep(chunk):
    for seed in range(1000 + chunk * 50, 1000 + (chunk + 1) * 50):
        run(seed, 300)


def test_random_sessions_through_the_console_and_its_store(tmp_path):
    for seed in range(2):
        run_console(seed, 90, tmp_path / f"s{seed}")


@pytest.mark.slow
def test_random_sessions_through_the_console_sweep(tmp_path):
    for seed in range(2000, 2020):
        run_console(seed, 250, tmp_path / f"s{seed}")


# -- what the fuzz found -----------------------------------------------------------------------------
def _refusal(line: str, *setup: str) -> LegatusError:
    s = Session.start("new jc-battle seed=1", 1, "fuzz")
    for x in setup:
        s.apply(x)
    with pytest.raises(LegatusError) as e:
        s.apply(line, asked=True)
    return e.value


@pytest.mark.parametrize("lang, rome, tarraco", [("ru", "Рим", "Тарракон"), ("uk", "Рим", "Тарракон")])
def test_a_city_worth_no_vp_is_refused_with_the_vp_cities_in_the_readers_words(lang, rome, tarraco):
    """J-17: 'control' tracks the 11 VP cities only; the refusal lists them, and in Russian and
    Ukrainian it named them in Latin (Roma, Tarraco …) beside the city refused in the reader's words."""
    e = _refusal("control Asturica caesar")
    assert e.code == "bad_arguments"
    said = i18n.SHARED.say(e.message, lang)
    assert rome in said and tarraco in said and "Roma" not in said and "Tarraco" not in said, said
    assert english_phrase(said, "control Asturica caesar") is None, said
    assert "(Alexandria, Antiochia, Athenae," in i18n.SHARED.say(e.message, "en")


@pytest.mark.parametrize("lang, removed, levied", [
    ("en", "Pompey's Equitatus 1 leaves the battle.", "Equitatus 1 (P) is now levied in Roma."),
    ("ru", "Эквиты 1 Помпея: покидает бой.", "Блок «Эквиты 1 (П)» теперь набирается в городе Рим."),
])
def test_a_defector_taken_out_of_the_battle_or_levied_elsewhere_is_named_with_its_first_owner(lang, removed, levied):
    """J-2 (Jupiter): a block gone over to the other side is named with its first owner, as the
    'add', 'owner', 'gain' and 'lose' sentences name it: 'remove' and 'levy' said only
    "Equitatus 1", which Caesar's own Equitatus 1 beside it is called too."""
    s = Session.start("new jc-battle attacker=caesar seed=1", 1, "fuzz")
    for line in ("owner p_eq1 caesar", "add attacker c_eq1", "add attacker p_eq1"):
        s.apply(line, asked=True)
    assert i18n.SHARED.say(s.apply("remove p_eq1", asked=True).log, lang) == removed
    assert i18n.SHARED.say(s.apply("levy p_eq1 Roma", asked=True).log, lang) == levied
    own = s.apply("remove c_eq1", asked=True).log                      # his own: its name alone
    assert i18n.SHARED.say(own, "en") == "Equitatus 1 leaves the battle."


@pytest.mark.parametrize("line", ["add defender c_caesar", "add defender c_nav1", "add attacker p_scipio"])
def test_a_leader_or_navis_of_the_other_side_is_refused_without_an_owner_command_to_try(line):
    """J-2 (Jupiter): leaders and navis never change sides, and 'owner' refuses them; a leader or
    navis added for the other side was told to change its side with 'owner …', which then failed.
    Any other block is still pointed to 'owner' (a Jupiter defection)."""
    e = _refusal(line)
    assert e.code == "illegal_move" and "owner" not in e.message, e.message
    assert "never change sides" in e.message, e.message
    for lang in ("ru", "uk"):
        said = i18n.SHARED.say(e.message, lang)
        assert "owner" not in said and ("никогда не меняют" in said or "ніколи не змінюють" in said), said
    other = _refusal("add defender c_leg10")
    assert "owner c_leg10 pompey" in other.message, other.message
    with pytest.raises(LegatusError) as e2:                     # what it used to suggest is refused
        Session.start("new jc-battle seed=1", 1, "fuzz").apply("owner c_caesar pompey", asked=True)
    assert e2.value.code == "illegal_move"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_block_of_the_other_side_in_the_levy_pool_is_refused_without_an_owner_command_to_try(lang):
    """J-20, J-2: a block in the levy pool is off the map, and Jupiter ('owner') takes a block from
    a city; added for the other side, it was told to change its side with 'owner …', which 'owner'
    refuses for a block in the pool. It is now told it is in the pool (a levy point places it:
    'gain …'); once levied, 'owner' is what it is pointed to, and 'owner' takes it."""
    s = Session.start("new jc-battle attacker=caesar pool=setup seed=1", 1, "fuzz")
    with pytest.raises(LegatusError) as e:
        s.apply("add defender c_leg17", asked=True)
    said = i18n.SHARED.say(e.value.message, lang)
    assert e.value.code == "illegal_move" and "owner" not in said and "gain c_leg17" in said, said
    with pytest.raises(LegatusError):
        s.run("owner c_leg17 pompey", asked=True)                # what it used to suggest
    s.apply("gain c_leg17", asked=True)                           # levied: on the map
    with pytest.raises(LegatusError) as e:
        s.apply("add defender c_leg17", asked=True)
    assert "owner c_leg17 pompey" in e.value.message
    s.apply("owner c_leg17 pompey", asked=True)
    assert s.apply("add defender c_leg17", asked=True).fields["block"]["side"] == "pompey"


@pytest.mark.parametrize("line", ["odds", "advise"])
def test_odds_of_the_last_battle_after_the_campaigns_end_do_not_offer_a_next_battle(line):
    """J-17/J-19: once the winter's victory check has ended the campaign, 'odds' or 'advise' on its
    last battle answered "Battle 1 is over … Start another with next-battle", which 'next-battle'
    then refused (the game is over); they say the game is over, and why."""
    s = Session.start("new jc-battle year=5 seed=1", 1, "fuzz")
    for x in ("add attacker c_leg10", "add defender p_leg1", "fight", "winter"):
        s.apply(x, asked=True)
    with pytest.raises(LegatusError) as e:
        s.apply(line, asked=True)
    assert e.value.code == "game_over" and "next-battle" not in e.value.message, e.value.message
    assert e.value.message.startswith("The game is over: "), e.value.message
    with pytest.raises(LegatusError) as again:
        s.apply("next-battle", asked=True)
    assert again.value.code == "game_over"
    s.undo()                                                      # undo reopens it: the battle is over, and the next one offered
    with pytest.raises(LegatusError) as e:
        s.apply(line, asked=True)
    assert "next-battle" in e.value.message


def test_a_step_of_several_blocks_asked_an_action_none_of_them_may_take_is_told_why():
    """J-5, J-6: 'retreat' without a block in round 1, while several blocks of the step could act,
    answered "say which (retreat <a|b>)", and each 'retreat a' was then refused (no block may
    retreat in round 1); in round 4 'fire' by several attackers the same (they must retreat). The
    refusal says the rule, and in round 4 offers the retreat they must take."""
    s = Session.start("new jc-battle attacker=caesar seed=1", 1, "fuzz")
    for line in ("add attacker c_leg8", "add attacker c_leg9", "add defender rating=A1 strength=4 name=wall",
                 "add defender rating=A1 strength=4 name=wall2", "start"):
        s.apply(line, asked=True)
    while s.view()["battle"]["decision"]["side"] != "caesar":
        s.apply("pass wall" if "wall" in s.view()["battle"]["decision"]["blocks"] else "pass wall2", asked=True)
    with pytest.raises(LegatusError) as e:
        s.apply("retreat", asked=True)
    assert e.value.message == "No block may retreat in round 1 (J-5).", e.value.message
    assert i18n.SHARED.say(e.value.message, "ru") == "В 1 раунде ни один блок не может отступить (J-5)."
    with pytest.raises(LegatusError) as e:
        s.apply("fire", asked=True)                               # a choice open: say which, as before
    assert "fire <c_leg8|c_leg9>" in e.value.message
    for _ in range(200):                                          # to round 4, everyone passing
        d = s.view()["battle"]["decision"]
        if d["round"] == 4 and d["side"] == "caesar":
            break
        s.apply(f"pass {d['blocks'][0]}", asked=True)
    with pytest.raises(LegatusError) as e:
        s.apply("fire", asked=True)
    assert "(J-6)" in e.value.message and "retreat <c_leg8|c_leg9>" in e.value.message, e.value.message
    s.run("retreat c_leg8", asked=True)                           # what it offers is taken
