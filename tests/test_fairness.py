"""Fair draws (issue 20 §1; PROTOCOL.md "third round"; docs/fairness.md).

- the commitment commits to the secret alone, before any share; ``commit`` then ``new … share=``,
  or ``share`` before the first draw; the draws come from the documented derivation;
- nothing before the end shows the seed or anything that predicts a draw (every reply, log line
  and export of every game is searched for the seed, the generators' states and seeds, the hidden
  orders of decks and tile stacks);
- ``reveal`` is refused while the game runs; ``end`` ends any session; after it nothing more is
  drawn and undo never reopens it;
- every draw of every game is checked from the exported record alone by the standalone
  scripts/verify_draws.py (which does not import Legatus), and a tampered record is rejected.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.rng import Rng, stream_seed
from firmware.console import Console
from firmware.fairness import commitment, draw_record
from firmware.session import Session
from firmware.store import Store
from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "verify_draws.py"
GOLDEN = ROOT / "tests" / "golden"


def _script_module() -> Any:
    spec = importlib.util.spec_from_file_location("verify_draws", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


VERIFY = _script_module()


def ok(console: Console, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def fails(console: Console, line: str, code: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"] is False and out["error"] == code, (line, out)
    return out


# -- sessions of every game, played through the console ------------------------------------------
def _caesar(console: Console, line: str, seed: int, replies: list[dict[str, Any]]) -> None:
    replies.append(ok(console, line))
    rng = Rng(seed, 11)
    for _ in range(500):
        st = ok(console, "state")["state"]
        replies.append({"state": st})
        if st["winner"]:
            return
        if st.get("turn") == "crassus" and st["mode"] == "solo":
            replies.append(ok(console, "decide"))
            replies.append(ok(console, "crassus"))
        elif st["step"] == "bonus":
            who = st["human"]["pending"][0] if st["mode"] == "solo" else st["pending"][0]
            replies.append(ok(console, f"{who} skip"))
        elif st["step"] == "draw":
            replies.append(ok(console, "draw"))
        else:
            moves = ok(console, "moves")
            pick = rng.choice(moves["moves"] + moves["face_down"])
            if pick.get("face_down"):
                replies.append(ok(console, f"play {pick['space']} {pick['token']} down"))
            else:
                (prov, first), (_, second) = list(pick["toward"].items())
                replies.append(ok(console, f"play {pick['space']} {pick['token'].split(':')[0]}:{first}/{second} {prov}"))
    raise AssertionError("the Caesar! game did not end")


def _lines(*lines: str) -> Callable[[Console, list[dict[str, Any]]], None]:
    def play(console: Console, replies: list[dict[str, Any]]) -> None:
        for line in lines:
            replies.append(ok(console, line))
    return play


def _glory(console: Console, replies: list[dict[str, Any]]) -> None:
    # G-1: round 1 skips the activation of intrigues, the random pick's («Продано!», «Таможенные сборы»)
    _lines("new glory players=Ann,Bob,Cid", "event", "end-round", "event", "pick 5", "deal")(console, replies)
    hand = [c["id"] for c in ok(console, "objectives Ann")["cards"]]
    replies.append(ok(console, f"keep Ann {hand[0]},{hand[1]}"))   # the third goes to the bottom
    _lines("pick 3", "end-round", "roll 2d6", "kit new cards=s*3,t*2")(console, replies)
    card = ok(console, "kit card 2")["cards"][0]
    _lines(f"kit discard {card}", "kit reshuffle")(console, replies)


def _bag(console: Console, replies: list[dict[str, Any]]) -> None:
    _lines("new bag items=gold*3,silver*2,bronze,lead*4 cards=legio*8,senator*4,eagle*2", "draw 2", "roll 3d6+1",
           "reroll 1,3", "card 2", "undo")(console, replies)
    hand = ok(console, "card 3")["cards"]
    replies.append(ok(console, f"put {ok(console, 'state')['state']['bag']['drawn'][0]}"))
    _lines("draw 3", "kit new items=a*2,b*5 cards=x*3,y")(console, replies)
    side = ok(console, "kit draw 2")["drawn"]
    _lines("kit card", "shuffle", "card 1", f"discard {hand[0]}", "reshuffle", "card 2", "roll 2d10-1", "draw 4",
           f"kit put {side[0]}", "kit shuffle")(console, replies)


GAMES: dict[str, Callable[[Console, list[dict[str, Any]]], None]] = {
    "bag": _bag,
    "dice": _lines("new dice", "roll 4d6", "reroll 2,4", "roll d20+3", "undo", "roll d20+3", "roll 10d10",
                   "kit new items=p*2,q", "kit draw"),
    "caesar-solo": lambda c, r: _caesar(c, "new caesar-solo difficulty=hard poison=1 centurions=1 border-control=1", 3, r),
    "caesar-duel": lambda c, r: _caesar(c, "new caesar-duel poison=1 centurions=1 border-control=1", 4, r),
    "jc-battle": _lines("new jc-battle", "add attacker c_leg10", "add attacker c_caesar", "add defender p_pompeius",
                        "fight", "deal", "roll d6", "next-battle attacker=pompey", "add attacker p_leg2",
                        "add defender c_leg12", "start", "auto", "fight"),
    "glory": _glory,
    "sword": _lines("new sword players=romans,gauls,etruscans", "battle att=3 def=2 mod=1", "consuls", "check siege",
                    "naval mod=1", "tactics 3", *["advance"] * 5, "consuls", "battle att=2 def=4 mod=-1", "undo",
                    "battle att=2 def=4 mod=-1"),        # the consuls again in turn 2 (W-10: once per turn)
}
READ_ONLY = ("state", "log 500", "actions 500", "help", "history", "export format=csv", "kit-state", "rolls 200")


def _hidden(state: dict[str, Any]) -> list[list[Any]]:
    """The orders a running game hides: decks' draw piles, tile stacks (each only when longer than
    two and not already in sorted order, which the view may show as a count or sorted list)."""
    out: list[list[Any]] = []
    for holder in (state, state.get("kit") or {}):
        deck = holder.get("deck")
        if isinstance(deck, dict):
            out.append(list(deck["draw"]))
        elif isinstance(deck, list):                             # Glory's event deck
            out.append(list(deck))
    if isinstance(state.get("objectives"), dict):
        out.append(list(state["objectives"]["deck"]))
    if isinstance(state.get("stack"), list):                     # Caesar!'s tile stack
        out.append(list(state["stack"]))
        out.append(["".join(state["stack"])])
    return [h for h in out if len(h) > 2 and h != sorted(h)] + [h for h in out if len(h) == 1 and len(h[0]) > 2
                                                                 and list(h[0]) != sorted(h[0])]


def _secrets(session: Session) -> list[str]:
    """Numbers that must not appear before the end: the seed, every stream's seeding and state."""
    seed = int(session.header["seed"])
    out = [str(seed)]
    data = session.state["rng"]
    streams = data.get("s", {}) if isinstance(data, dict) else {}
    for name, (state, inc) in streams.items():
        out += [str(state), str(inc), *map(str, stream_seed(seed, "", name))]
    return [x for x in out if len(x) >= 10]


def _walk(value: Any) -> list[Any]:
    """Every value inside a reply (dicts, lists, their items)."""
    out, stack = [], [value]
    while stack:
        v = stack.pop()
        out.append(v)
        if isinstance(v, dict):
            stack.extend(v.values())
            out.extend(v.keys())
        elif isinstance(v, list):
            stack.extend(v)
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_nothing_before_the_end_shows_the_seed_or_predicts_a_draw(console: Console, game: str):
    """Every reply is searched, as it was answered, for the seed, every stream's seeding and
    generator state at that moment, and the orders the game hid at that moment."""
    seen: list[tuple[dict[str, Any], list[str], list[list[Any]]]] = []
    real = console.request

    def spy(line: str) -> dict[str, Any]:
        out = real(line)
        session = console.session
        if session is not None:
            seen.append((out, _secrets(session), _hidden(session.state)))
        return out
    console.request = spy                                           # type: ignore[method-assign]
    GAMES[game](console, [])
    session = console.session
    assert session is not None and session.committed and not session.ended
    assert any(hidden for _, _, hidden in seen) or game in ("caesar-duel", "dice", "jc-battle", "sword")
    for line in READ_ONLY:
        console.request(line)
    if not _finished(session):
        fails(console, "reveal", "illegal_move")
    if ok(console, "history")["games"]:
        fails(console, "export format=draws", "bad_arguments")
    console.request("export format=bgstats")
    assert len(seen[0][1][0]) >= 10                                 # the seed, 64 random bits
    for reply, secrets, hidden in seen:
        text = json.dumps(reply, ensure_ascii=False)
        for secret in secrets:
            assert secret not in text, (secret, text[:300])
        values = _walk(reply)
        assert "rng" not in values and "tape" not in values and "secret" not in values
        for order in hidden:
            assert order not in values, (order, text[:300])
    for entry in ok(console, "history")["games"]:
        assert entry["seed"] is None and entry["share"] is None and entry["commitment"] is None


def _finished(session: Session) -> bool:
    from firmware.fairness import finished_by_rules
    return finished_by_rules(session.game.name, session.view(), session.lines)


def _ended_record(console: Console, tmp_path: Path, name: str) -> tuple[dict[str, Any], Path]:
    """End the running session (``reveal`` ends a game its rules ended), export its draws."""
    if not _finished(console.session):                           # type: ignore[arg-type]
        fails(console, "reveal", "illegal_move")
        assert ok(console, "end")["ended"] == "ended"
    out = ok(console, "reveal")
    assert commitment(out["seed"]) == out["commitment"]
    record = ok(console, "export format=draws")
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return record["record"], path


def _verify(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--record", str(path), *extra], capture_output=True,
                          text=True, timeout=120, cwd=path.parent, env={"PATH": "/usr/bin:/bin"})


def _tamper(record: dict[str, Any]) -> dict[str, Any]:
    """The record with one draw's result changed."""
    bad = json.loads(json.dumps(record))
    for entry in bad["draws"]:
        kind, args = entry[1], entry[2:]
        if kind == "die" and args[0] > 1:
            entry[3] = args[1] % args[0] + 1
        elif kind == "below" and args[0] > 1:
            entry[3] = (args[1] + 1) % args[0]
        elif kind == "pick" and any(x != args[1] for x in args[0]):
            entry[3] = next(x for x in args[0] if x != args[1])
        elif kind == "shuffle" and len(set(map(json.dumps, args[1]))) > 1:
            after = args[1]
            j = next(k for k in range(1, len(after)) if after[k] != after[0])
            after[0], after[j] = after[j], after[0]
        elif kind == "draw":
            others = [e[2] for e in bad["draws"] if e[1] == "draw" and e[2] != args[0]]
            if not others:
                continue
            entry[2] = others[0]
        else:
            continue
        return bad
    raise AssertionError("nothing to tamper with")


def _forged(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Records that claim other cards or items than the game's without changing a random draw:
    cards taken from a deck whose ``deck`` entry (or whose shuffle) was left out, and an item put
    back into a bag that was never drawn from it."""
    out: list[dict[str, Any]] = []
    decks = {e[0] for e in record["draws"] if e[1] == "deck"}
    for leave_out in ("deck", "shuffle"):
        for stream in sorted(decks):
            bad = json.loads(json.dumps(record))
            bad["draws"] = [e for e in bad["draws"] if not (e[0] == stream and e[1] == leave_out)]
            cards = [e for e in bad["draws"] if e[0] == stream and e[1] == "card"]
            if cards:
                cards[0][2] = ["forged"] * len(cards[0][2])
                out.append(bad)
    for stream in sorted({e[0] for e in record["draws"] if e[1] == "bag"}):
        bad = json.loads(json.dumps(record))
        bad["draws"].append([stream, "put", "forged"])
        out.append(bad)
    return out


def test_a_side_bag_kept_beside_a_new_side_deck_checks_from_the_record(console: Console, tmp_path: Path):
    """``kit new cards=`` beside a side bag keeps the bag (PROTOCOL.md: one bag and/or deck): its
    draws after the deck was started check from the record as the bag's own (the ``bag`` entry
    of its stream, then its draws and puts), and a forged put back is still caught."""
    ok(console, "new dice")
    for line in ("kit new items=gold*3,silver*2,lead", "kit draw 2", "kit new cards=legio*3,eagle",
                 "kit draw", "kit card 2"):
        ok(console, line)
    drawn = ok(console, "kit-state")["kit"]["bag"]["drawn"]
    assert len(drawn) == 3
    ok(console, f"kit put {drawn[0]}")
    ok(console, "kit draw 2")
    record, path = _ended_record(console, tmp_path, "dice")
    assert [e[1] for e in record["draws"] if e[0] == "kit-bag"].count("draw") == 5
    good = _verify(path)
    assert good.returncode == 0 and "all match" in good.stdout, good.stdout + good.stderr


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_draw_of_every_game_checks_from_the_record_alone(console: Console, tmp_path: Path, game: str):
    replies: list[dict[str, Any]] = []
    GAMES[game](console, replies)
    session = console.session
    assert session is not None
    before_end = session.state["rng"]
    record, path = _ended_record(console, tmp_path, game)
    assert record["game"] == game and record["version"] == 2 and record["share"] is None
    good = _verify(path)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "all match" in good.stdout and "commitment (record) OK" in good.stdout
    # every draw is on the record: following it leaves each stream exactly where the game left it
    checker = VERIFY.Checker(2, record["seed"], "")
    for i, entry in enumerate(record["draws"]):
        checker.check(i, entry)
    assert not checker.problems
    followed = {name: [g.state, g.inc] for name, g in checker.generators.items()}
    assert followed == {name: s for name, s in before_end["s"].items() if name in followed}
    for name, s in before_end["s"].items():           # a stream made but never drawn from is as seeded
        if name not in followed:
            assert s == Rng(*stream_seed(record["seed"], "", name)).to_json(), name
    assert sum(checker.draws.values()) >= 3
    # a changed draw, another share, another seed: rejected
    forged = _forged(record)
    assert forged or game in ("caesar-duel", "dice", "sword")
    for bad in (_tamper(record), {**record, "share": "x"}, {**record, "seed": record["seed"] + 1}, *forged):
        bad_path = tmp_path / "bad.json"
        bad_path.write_text(json.dumps(bad), encoding="utf-8")
        out = _verify(bad_path)
        assert out.returncode == 1 and "MISMATCH" in out.stdout, out.stdout
    # the code photographed at the start (its first 8 characters) is checked too
    assert _verify(path, "--commitment", record["commitment"][:8]).returncode == 0
    assert _verify(path, "--commitment", "00000000").returncode == 1


def test_the_players_share_changes_every_stream_and_the_record_carries_it(console: Console, tmp_path: Path):
    code = ok(console, "commit")["commitment"]
    assert ok(console, "commit")["commitment"] == code             # the same secret until a new uses it
    new = ok(console, "new glory players=Ann,Bob share=3-1-6-6-2")
    assert new["commitment"] == code and new["share"] == "3-1-6-6-2" and new["state"]["share"] == "3-1-6-6-2"
    ok(console, "event")
    record, path = _ended_record(console, tmp_path, "glory")
    assert record["share"] == "3-1-6-6-2" and commitment(record["seed"]) == code
    assert _verify(path).returncode == 0
    # the same secret without the share shuffles otherwise (streams: events, objectives)
    plain = Session.start("new glory players=Ann,Bob", record["seed"], "x", committed=True)
    shared = Session.start("new glory players=Ann,Bob share=3-1-6-6-2", record["seed"], "y", committed=True)
    assert plain.state["deck"] != shared.state["deck"]
    assert ok(console, "history")["games"][0]["share"] == "3-1-6-6-2"


def test_the_derivation_is_the_documented_one():
    seed, share = 16606857429674130743, "ajax"
    text = f"legatus-draws:2:{seed}:dice:{share}".encode()
    digest = hashlib.sha256(text).digest()
    initstate, initseq = int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")
    assert stream_seed(seed, share, "dice") == (initstate, initseq)
    expect = Rng(initstate, initseq)
    session = Session.start(f"new dice share={share}", seed, "x", committed=True)
    rolled = session.apply("roll 5d6").fields["dice"]
    assert rolled == [expect.below(6) + 1 for _ in range(5)]
    assert VERIFY.stream_seed(seed, share, "dice") == (initstate, initseq)   # the script, independently


def test_the_commitment_is_sha256_of_the_secret_alone():
    assert commitment(0) == hashlib.sha256(b"legatus-seed:0").hexdigest()
    assert commitment(18446744073709551615) == hashlib.sha256(b"legatus-seed:18446744073709551615").hexdigest()
    a = Session.start("new dice share=x", 5, "a", committed=True).view()["commitment"]
    b = Session.start("new dice share=y", 5, "b", committed=True).view()["commitment"]
    assert a == b == commitment(5)                   # the share does not enter the commitment


def test_share_before_the_first_draw_only_once_only_with_a_secret_seed(console: Console):
    ok(console, "new dice")
    for bad in ("share", "share two words", "share " + "x" * 65, "share a\tb"):
        fails(console, bad, "bad_arguments")
    assert ok(console, "share " + "я" * 64)["share"] == "я" * 64
    fails(console, "share again", "illegal_move")
    assert ok(console, "state")["state"]["share"] == "я" * 64
    fails(console, "undo", "illegal_move")                         # final: see the test below
    assert ok(console, "state")["state"]["share"] == "я" * 64
    ok(console, "new dice")
    ok(console, "roll d6")
    fails(console, "share late", "illegal_move")                   # something was drawn
    ok(console, "new bag items=a*2 cards=c*3")                     # the deck is shuffled at set-up
    fails(console, "share late", "illegal_move")
    ok(console, "new dice seed=7")
    assert ok(console, "state")["state"]["commitment"] is None
    fails(console, "share x", "illegal_move")                      # a chosen seed takes no share


def test_the_share_is_final_so_undo_cannot_reroll_by_changing_it(state_dir: Path):
    """Undo restores the generators: no re-rolling by undo (PROTOCOL.md). Taking back the share
    after a roll was seen and undone, then giving another, would roll again from the same secret
    (and the same commitment): every share a new chance. So undo never takes back a share, also
    after a restart; what was done after it is undone as usual, and draws the same again."""
    store = Store(state_dir)
    console = Console(store, store.resume())
    ok(console, "new dice")
    ok(console, "share a")
    rolled = ok(console, "roll 3d6")["dice"]
    ok(console, "undo")
    out = fails(console, "undo", "illegal_move")
    assert "share" in out["message"]
    fails(console, "share b", "illegal_move")
    console.close()
    store = Store(state_dir)                                       # after a restart: still final
    console = Console(store, store.resume())
    try:
        fails(console, "undo", "illegal_move")
        assert ok(console, "state")["state"]["share"] == "a"
        assert ok(console, "roll 3d6")["dice"] == rolled
    finally:
        console.close()


def test_a_draw_seen_then_undone_closes_the_share(state_dir: Path):
    """A roll seen, undone, then a share would roll again from the same secret: a free re-roll
    (PROTOCOL.md: no re-rolling by undo). Before: ``roll 1d20`` → 9, ``undo``, ``share abc``,
    ``roll 1d20`` → 15. Once an action that drew was taken back the session takes no share, also
    after a restart (only the stored rows remember it), and the device no longer offers one; an
    undone action that drew nothing leaves the share open."""
    def start() -> Console:
        store = Store(state_dir)
        return Console(store, store.resume())
    console = start()
    ok(console, "new jc-battle")
    ok(console, "add attacker c_leg10")
    ok(console, "undo")                                            # nothing drawn was taken back
    fair = console.fair_draw()
    assert fair is not None and fair.can_share
    ok(console, "add attacker c_leg10")
    ok(console, "add defender p_pompeius")
    ok(console, "fight")                                           # the battle dice were seen
    for _ in range(3):
        ok(console, "undo")
    fair = console.fair_draw()
    assert fair is not None and not fair.can_share
    assert "drawn" in fails(console, "share abc", "illegal_move")["message"]
    console.close()
    console = start()                                              # after a restart: still closed
    fair = console.fair_draw()
    assert fair is not None and not fair.can_share
    fails(console, "share abc", "illegal_move")
    ok(console, "new dice")
    ok(console, "roll 1d20")
    console.close()
    console = start()                                              # rolled before, undone after a restart
    try:
        ok(console, "undo")
        fails(console, "share abc", "illegal_move")
        assert ok(console, "state")["state"]["share"] is None
    finally:
        console.close()


def test_new_with_a_share_needs_a_commitment_shown_first(console: Console):
    fails(console, "new dice share=abc", "bad_arguments")
    code = ok(console, "commit")["commitment"]
    assert ok(console, "new dice")["commitment"] == code           # skipped: the committed secret, no share
    assert ok(console, "state")["state"]["share"] is None
    fails(console, "new dice share=abc", "bad_arguments")          # that commitment is used up
    fails(console, "commit now", "bad_arguments")
    # a replay: the same line with the revealed seed and the share gives the same draws
    code = ok(console, "commit")["commitment"]
    ok(console, "new dice share=k9")
    rolled = ok(console, "roll 6d6")["dice"]
    ok(console, "end")
    seed = ok(console, "reveal")["seed"]
    assert commitment(seed) == code
    ok(console, f"new dice seed={seed} share=k9")
    assert ok(console, "roll 6d6")["dice"] == rolled


def test_end_ends_any_session_and_nothing_more_is_drawn(console: Console, state_dir: Path):
    fails(console, "end", "no_session")
    fails(console, "reveal", "no_session")
    ok(console, "new bag items=a*3,b*3")
    ok(console, "draw")
    fails(console, "reveal", "illegal_move")
    assert "game ends" in console.request("reveal")["message"]
    fails(console, "end now", "bad_arguments")
    assert ok(console, "end")["ended"] == "ended"
    for line in ("draw", "put a", "roll d6", "kit new items=x", "undo", "end", "share x", "kit-state", "rolls"):
        fails(console, line, "game_over")
    for line in ("state", "log", "actions", "history", "export format=csv", "reveal", "help", "version"):
        ok(console, line)
    entry = ok(console, "history")["games"][0]
    assert entry["status"] == "ended" and entry["game"] == "bag" and entry["seed"] == ok(console, "reveal")["seed"]
    console.close()
    again = Store(state_dir)                                       # after a restart: still ended
    c2 = Console(again, again.resume())
    try:
        assert ok(c2, "state")["state"]["ended"] == "ended"
        fails(c2, "undo", "game_over")
        fails(c2, "draw", "game_over")
        ok(c2, "new dice")
    finally:
        c2.close()


def test_a_game_its_rules_ended_can_be_undone_until_the_seed_is_revealed(console: Console):
    replies: list[dict[str, Any]] = []
    _caesar(console, "new caesar-solo difficulty=easy", 8, replies)
    session = console.session
    assert session is not None and _finished(session) and not session.ended
    entry = ok(console, "history")["games"][0]
    assert entry["status"] == "finished" and entry["seed"] is None
    ok(console, "undo")                                            # the finishing action taken back
    assert not _finished(session)
    fails(console, "reveal", "illegal_move")
    # finish it again, then reveal: the game is sealed
    _caesar_finish(console)
    out = ok(console, "reveal")
    assert out["ended"] == "finished" and commitment(out["seed"]) == session.view()["commitment"]
    fails(console, "undo", "game_over")
    entry = ok(console, "history")["games"][0]
    assert entry["status"] == "finished" and entry["seed"] == out["seed"] and entry["commitment"] == out["commitment"]


def test_a_game_its_rules_ended_draws_no_more_and_takes_no_share(console: Console):
    """PROTOCOL.md, third round: "a game whose rules ended it is already ended": afterwards the
    session answers only state, log, reveal, history, export and new (undo reopens it until the
    seed is shown; ``end`` files it). The game's own moves said game_over, but the session's
    common commands did not: after the Sword's automatic victory (W-13) ``share abc`` was taken
    (its draws' record then named a share given after the game), ``roll``/``reroll`` drew and ``kit``
    started a side bag in the finished game. ``state.over`` says the rules ended it."""
    ok(console, "new sword players=romans,gauls")
    assert ok(console, "state")["state"]["over"] is False
    ok(console, "victory romans")
    before = ok(console, "state")["state"]
    assert before["over"] is True and before["ended"] is None
    fair = console.fair_draw()                 # the device's Fair draw offers no share then
    assert fair is not None and fair.finished and not fair.can_share
    for line in ("share abc", "roll 1d6", "reroll 1", "kit new items=a*2", "kit draw", "advance"):
        assert "over" in fails(console, line, "game_over")["message"], line
    assert ok(console, "state")["state"] == before
    names = ok(console, "help")["commands"]
    assert not {"share", "roll", "reroll", "kit"} & set(names) and {"undo", "end", "reveal"} <= set(names)
    ok(console, "undo")                                            # the victory taken back: it goes on
    assert ok(console, "state")["state"]["over"] is False
    ok(console, "roll 1d6")
    ok(console, "victory romans")
    assert ok(console, "end")["ended"] == "finished"
    assert ok(console, "reveal")["share"] is None


def test_an_older_game_that_rolled_after_its_end_reopens_whole(state_dir: Path):
    """Earlier games replays an archived session's lines as stored: a roll an older Legatus took
    after the game's rules had ended it (before those rolls answered game_over) is given again, so
    the copy is the game as it was, not cut short at that roll."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new sword players=romans,gauls", "victory romans"], [], state_dir)
    try:
        first = app.console.session
        assert first is not None and first.over_by_rules()
        assert app.console._run_session(first, "roll 2d6")["dice"]        # as an older Legatus stored it
        rolled = first.state["rolls"]
        assert app.run("new dice seed=4")["ok"]
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "sword"))
        again = app.console.session
        # (the new game ended it first: its rules had ended it, so History shows its seed)
        assert list(again.lines) == ["victory romans", "roll 2d6", "end"], list(again.lines)
        assert again.state["rolls"] == rolled
        assert app.run("roll 1d6")["error"] == "game_over"               # asked now: refused
    finally:
        app.console.close()


def _caesar_finish(console: Console) -> None:
    rng = Rng(99, 11)
    for _ in range(200):
        st = ok(console, "state")["state"]
        if st["winner"]:
            return
        if st.get("turn") == "crassus":
            ok(console, "crassus")
        elif st["step"] == "bonus":
            ok(console, f"{st['human']['pending'][0]} skip")
        elif st["step"] == "draw":
            ok(console, "draw")
        else:
            moves = ok(console, "moves")
            pick = rng.choice(moves["moves"] + moves["face_down"])
            (prov, first), (_, second) = list(pick["toward"].items())
            ok(console, f"play {pick['space']} {pick['token'].split(':')[0]}:{first}/{second} {prov}")
    raise AssertionError("not finished")


@pytest.mark.parametrize("damaged", ["end", "draw 3"])
def test_a_damaged_record_never_reopens_a_game_whose_seed_was_shown(state_dir: Path, damaged: str):
    """A damaged action row ends the session at the last good action (docs/protocol.md); when the
    game had ended and its seed had been shown, that reopened it: ``draw`` drew again, and anyone
    who saw the seed knew every later draw. Before: ``end`` row damaged → ``state.ended`` null,
    ``draw 3`` accepted, History still showing the seed. The game's filed fair-draw record holds
    its lines: the session is ended again from it (its draws as they were), and says so."""
    import sqlite3

    from firmware.store import DB_NAME
    store = Store(state_dir)
    console = Console(store, store.resume())
    ok(console, "new bag items=a*5,b*5,c*5")
    ok(console, "draw 2")
    ok(console, "draw 3")
    ended = ok(console, "end")["state"]
    seed = ok(console, "reveal")["seed"]
    console.close()
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE actions SET line=upper(line) WHERE line=?", (damaged,))     # its checksum fails
    db.commit()
    db.close()
    store = Store(state_dir)
    console = Console(store, store.resume())
    try:
        out = ok(console, "state")
        assert out["state"] == ended and "record" in out["recovered"], out
        fails(console, "draw", "game_over")
        assert ok(console, "reveal")["seed"] == seed
        assert ok(console, "export format=draws")["record"]["actions"] == ["draw 2", "draw 3", "end"]
    finally:
        console.close()


def test_a_game_with_a_chosen_seed_shows_it_at_the_end_with_no_commitment(console: Console):
    new = ok(console, "new dice seed=42")
    assert "commitment" not in new and new["state"]["commitment"] is None and new["state"]["share"] is None
    fails(console, "reveal", "illegal_move")
    ok(console, "roll 2d6")
    ok(console, "end")
    assert ok(console, "reveal") == {"ok": True, "seed": 42, "share": None, "commitment": None, "ended": "ended"}
    entry = ok(console, "history")["games"][0]
    assert (entry["seed"], entry["share"], entry["commitment"]) == (42, None, None)
    csv = ok(console, "export format=csv")["text"].splitlines()
    assert csv[0].endswith("seed,share,commitment,player_id") and csv[1].endswith(",42,,,")   # no player: no id


def test_an_abandoned_game_keeps_its_seed_secret(console: Console):
    ok(console, "new jc-battle")
    ok(console, "add attacker c_leg10")
    seed = str(console.session.header["seed"])                     # type: ignore[union-attr]
    ok(console, "new dice")                                        # the battle is abandoned, not ended
    entry = ok(console, "history")["games"][0]
    assert entry["status"] == "abandoned" and entry["seed"] is None
    assert seed not in json.dumps(ok(console, "export format=bgstats"))
    fails(console, "export format=draws", "bad_arguments")


def _sword_won(console: Console) -> None:
    ok(console, "new sword players=romans,gauls")
    ok(console, "consuls")                                         # a draw (W-10)
    ok(console, "victory romans")                                  # W-13: the game is over


def _glory_scored(console: Console) -> None:
    ok(console, "commit")
    ok(console, "new glory players=Ann,Bob share=3-1-6")           # G-2: the set-up draws
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    ok(console, "score")                                           # G-15: finished and recorded


def _jc_campaign_over(console: Console) -> None:
    ok(console, "new jc-battle")
    ok(console, "share 4-4-2")
    ok(console, "add attacker c_leg10")
    ok(console, "add defender p_pompeius")
    ok(console, "fight")                                           # J-7: battle dice
    ok(console, "next-battle")
    for city in ("Roma", "Alexandria", "Antiochia", "Athenae", "Byzantium", "Ephesus", "Syracusae"):
        ok(console, f"control {city} caesar")
    ok(console, "winter")                                          # J-17/J-19: 10+ VP ends the campaign


RULES_ENDED: dict[str, Callable[[Console], None]] = {
    "sword": _sword_won,
    "glory": _glory_scored,
    "jc-battle": _jc_campaign_over,
    "caesar-solo": lambda c: _caesar(c, "new caesar-solo difficulty=easy", 8, []),    # C-12
}


@pytest.mark.parametrize("game", sorted(RULES_ENDED))
def test_a_game_its_rules_ended_then_replaced_by_new_files_its_seed_share_and_commitment(
        console: Console, tmp_path: Path, game: str):
    """PROTOCOL.md third round: "a game whose rules ended it is already ended" and "each ended
    game's entry carries seed, share, commitment". A game its rules ended (C-12, G-15 after its
    score, a JC campaign's end, the Sword's victory) and then replaced by ``new`` without
    ``reveal`` kept all three null in History and its exports, and ``export format=draws`` refused
    it: nobody could ever check its draws. ``new`` ends it first (as ``reveal`` would)."""
    RULES_ENDED[game](console)
    session = console.session
    assert session is not None and _finished(session) and not session.ended
    seed, code, share = int(session.header["seed"]), session.view()["commitment"], session.view()["share"]
    ok(console, "new dice")
    entry = next(e for e in ok(console, "history 5")["games"] if e["game"] == game)
    assert entry["status"] == "finished"
    assert (entry["seed"], entry["share"], entry["commitment"]) == (seed, share, code) and code == commitment(seed)
    assert ok(console, f"export format=bgstats id={entry['id']}")["fair"] == {
        "seed": seed, "share": share, "commitment": code}
    assert f",{seed},{share or ''},{code}," in ok(console, f"export format=csv id={entry['id']}")["text"]
    reply = ok(console, f"export format=draws id={entry['id']}")
    assert reply["record"]["seed"] == seed and reply["record"]["actions"][-1] == "end"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(reply), encoding="utf-8")
    out = _verify(path, "--commitment", code[:8])
    assert out.returncode == 0 and "all match" in out.stdout, out.stdout + out.stderr
    assert ok(console, "state")["state"]["game"] == "dice"        # the new game runs, its seed secret
    fails(console, "reveal", "illegal_move")


def test_a_game_its_rules_ended_replaced_by_new_reopens_ended_from_earlier_games(state_dir: Path):
    """The copy of such a game in Earlier games is the ended game: reopened, it is ended again
    (nothing drawn anew from its now known seed: undo and every draw refused). Reopening it used
    to give a running game whose finish could be undone and drawn again from the seed History now
    shows."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new sword players=romans,gauls", "consuls", "new dice seed=3"], [], state_dir)
    try:
        older = next(a for a in archived(app.archives()) if a.game == "sword")    # left running: a copy
        assert reopen(app, older)
        assert app.run("victory romans")["ok"]                         # W-13: its rules end it
        first = app.console.session
        seed, drawn = int(first.header["seed"]), first.view()["consuls"]["drawn"]
        assert app.run("new dice")["ok"]
        copies = {len(a.lines): a for a in archived(app.archives()) if a.game == "sword"}
        assert sorted(copies) == [1, 3]                                # ["consuls"]; [..., "end"]
        before = app.console.session
        assert not reopen(app, copies[1])                              # the older copy: its seed is known
        assert app.console.session is before
        assert reopen(app, copies[3])
        again = app.console.session
        assert again.game.name == "sword" and again.ended and int(again.header["seed"]) == seed
        assert list(again.lines) == ["consuls", "victory romans", "end"]
        assert again.view()["consuls"]["drawn"] == drawn
        for line in ("undo", "consuls", "roll 2d6", "advance"):
            assert app.run(line)["error"] == "game_over", line
        assert again.view()["consuls"]["drawn"] == drawn
        assert app.run("reveal")["seed"] == seed
    finally:
        app.console.close()


def test_a_copy_of_a_game_its_rules_ended_is_not_reopened_over_it(state_dir: Path):
    """Reopening an older copy of a game while a copy of it that its rules ended runs would end
    that one (its seed then known) and leave the reopened one drawing from a known seed: refused,
    nothing changed (the running copy can still be undone, or ended)."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new sword players=romans,gauls", "consuls", "new dice seed=3"], [], state_dir)
    try:
        older = next(a for a in archived(app.archives()) if a.game == "sword")
        assert reopen(app, older)
        assert app.run("victory romans")["ok"]
        running = app.console.session
        before = running.state_json
        out = app.reopen(older.header["line"], int(older.header["seed"]), True, int(older.header.get("v", 1)),
                         lines=older.lines)
        assert (out["ok"], out["error"]) == (False, "illegal_move"), out
        assert app.console.session is running and running.state_json == before and not running.ended
        assert all(e["seed"] is None for e in app.run("history")["games"])
        assert app.run("undo")["ok"] and app.run("advance")["ok"]     # it still runs
    finally:
        app.console.close()


def test_glory_over_but_never_scored_is_abandoned_by_new_with_its_seed_secret(state_dir: Path):
    """PROTOCOL.md: Glory is finished "after round 9 **and** `score`"; a ``new`` over one never
    scored records it ``abandoned`` (nothing of it finished), its seed kept secret, so Earlier
    games can reopen it to score it (G-15)."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new glory players=Ann,Bob"] + ["event", "end-round"] * 9, [], state_dir)
    try:
        assert app.console.session.view()["finished"] is True
        assert app.run("new dice")["ok"]
        [entry] = app.run("history")["games"]
        assert entry["status"] == "abandoned" and (entry["seed"], entry["commitment"]) == (None, None)
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "glory"))
        copy = app.console.session
        drawn = copy.state_json
        assert not copy.ended and app.run("undo")["ok"] and app.run("undo")["ok"]    # round 9's event undone
        assert app.run("event")["ok"] and app.run("end-round")["ok"]                # drawn again: the same
        assert copy.state_json == drawn
        assert app.run("score")["ok"]
        assert app.run("history")["games"][0]["status"] == "finished"
    finally:
        app.console.close()


def test_a_battle_filed_by_an_archived_session_shows_its_seed_once_a_reopened_copy_ends(state_dir: Path,
                                                                                       tmp_path: Path):
    """History records a game once however often it is reopened (PROTOCOL.md): a Julius Caesar
    battle (J-13) fought before the session was replaced stays the archived session's entry when a
    copy reopened from Earlier games replays it. Once that copy ended (``end``; its seed shown by
    ``reveal``), the battle's entry still said seed, share and commitment null, and ``export
    format=draws`` refused it ("shown once its session has ended"): an ended game's entry without
    its draws. It carries them now, from the copy's record, which the script checks."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new jc-battle", "share 6-2", "add attacker c_leg10", "add defender p_pompeius", "fight",
                    "new dice seed=1"], [], state_dir)
    try:
        [battle] = app.run("history")["games"]
        assert battle["mode"]["kind"] == "battle" and battle["seed"] is None      # the campaign goes on
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "jc-battle"))
        assert app.run("end")["ok"]
        shown = app.run("reveal")
        games = app.run("history")["games"]                          # the battle recorded once; the copy
        assert [g["mode"]["kind"] for g in games] == ["ended", "battle"]    # ended by the players: its row
        again = games[1]
        assert again["id"] == battle["id"] and games[0]["seed"] == shown["seed"]
        assert (again["seed"], again["share"], again["commitment"]) == (shown["seed"], "6-2", shown["commitment"])
        reply = app.run(f"export format=draws id={battle['id']}")
        assert reply["ok"] and reply["record"]["history_id"] == battle["id"], reply
        path = tmp_path / "battle.json"
        path.write_text(json.dumps(reply), encoding="utf-8")
        out = _verify(path, "--commitment", shown["commitment"][:8])
        assert out.returncode == 0 and "all match" in out.stdout, out.stdout + out.stderr
    finally:
        app.console.close()


@pytest.mark.parametrize("how", ["reveal", "new"])
def test_a_finished_game_an_older_legatus_archived_unended_shows_its_seed_once_a_copy_ends(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch, how: str):
    """An older Legatus archived a game its rules ended (W-13) without ending it. Reopened from
    Earlier games, its copy finishes again and History keeps the game once, under the archived
    session: ending the copy (``reveal``, or the ``new`` that replaces it) must give that entry its
    seed and draws. Before, ``reveal`` left the entry null, and a ``new`` did not even end the copy."""
    from firmware.console_session import SessionCommands
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    with monkeypatch.context() as m:                                 # as an older Legatus did
        m.setattr(SessionCommands, "_ends_when_replaced", lambda self, session: False)
        app = app_with(["new sword players=romans,gauls", "consuls", "victory romans", "new dice seed=1"], [],
                       state_dir)
    try:
        [entry] = app.run("history")["games"]
        assert entry["seed"] is None
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "sword"))
        seed = int(app.console.session.header["seed"])
        assert app.run(how if how == "reveal" else "new dice seed=2")["ok"]
        [again] = app.run("history")["games"]
        assert again["id"] == entry["id"] and again["seed"] == seed and again["commitment"] == commitment(seed)
        assert app.run(f"export format=draws id={entry['id']}")["record"]["actions"] == ["consuls", "victory romans",
                                                                                          "end"]
    finally:
        app.console.close()


def test_actions_pages_through_the_whole_history(console: Console):
    ok(console, "new bag items=a*40 seed=3")
    for _ in range(30):
        ok(console, "draw")
    first = ok(console, "actions 12")
    assert first["total"] == 30 and [a["n"] for a in first["actions"]] == list(range(30, 18, -1))
    assert first["actions"][0]["line"] == "draw" and "Drew a" in first["actions"][0]["text"]
    seen = [a["n"] for a in first["actions"]]
    before = first["before"]
    while before is not None:
        page = ok(console, f"actions 12 before={before}")
        seen += [a["n"] for a in page["actions"]]
        before = page["before"]
    assert seen == list(range(30, 0, -1))
    for bad in ("actions 0", "actions 501", "actions x", "actions before=0", "actions before=32", "actions 1 2"):
        fails(console, bad, "bad_arguments")


def test_a_session_stored_before_the_streams_gives_a_record_the_script_checks(tmp_path: Path):
    """Version 1: one generator for everything; its record is checked the same way."""
    fixture = json.loads((GOLDEN / "v1_sessions.json").read_text(encoding="utf-8"))["sessions"]
    for stored in fixture:
        header = stored["header"]
        lines: list[str] = []
        for kind, line in stored["actions"]:
            if kind == "do":
                lines.append(line)
            elif lines:
                lines.pop()
        record = draw_record(header, lines)
        assert record["version"] == 1
        path = tmp_path / "v1.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        out = _verify(path)
        assert out.returncode == 0, (header["game"], out.stdout[-800:])
        checker = VERIFY.Checker(1, header["seed"], "")
        for i, entry in enumerate(record["draws"]):
            checker.check(i, entry)
        assert [checker.one.state, checker.one.inc] == json.loads(stored["state"])["rng"]



@pytest.mark.parametrize("broken", [
    {"seed": 1, "version": 2, "draws": [["dice", "die", 0, 1]]},
    {"seed": 1, "version": 2, "draws": [["picks", "pick", [], "x"]]},
    {"seed": 1, "version": 2, "draws": [["dice", "below", 10**10, 1]]},           # n above 2^32: no end
    {"seed": 1, "version": 2, "draws": [["deck", "shuffle", 5, [1]]]},
    {"seed": 1, "version": 2, "draws": 5},
    {"seed": 1e400, "version": 2, "draws": []},
    {"seed": -1, "version": 2, "draws": []},
    {"seed": 2**64, "version": 2, "draws": []},
    None, [1, 2], "record", 7,                                                     # not a JSON object
    {"record": None}, {"record": [1]},
])
def test_a_malformed_record_is_a_mismatch_never_a_traceback_or_a_hang(tmp_path: Path, broken: Any):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken).replace("Infinity", "1e400"), encoding="utf-8")
    out = subprocess.run([sys.executable, str(SCRIPT), "--record", str(path)], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 1 and "MISMATCH" in out.stdout and "Traceback" not in out.stderr, out.stdout + out.stderr


def test_the_script_does_not_import_legatus():
    source = SCRIPT.read_text(encoding="utf-8")
    for word in ("from engine", "import engine", "from firmware", "import firmware"):
        assert word not in source


def test_the_script_checks_a_commitment_alone():
    out = subprocess.run([sys.executable, str(SCRIPT), "--seed", "42", "--commitment", commitment(42)[:8]],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "OK" in out.stdout
    out = subprocess.run([sys.executable, str(SCRIPT), "--seed", "43", "--commitment", commitment(42)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "MISMATCH" in out.stdout


def test_the_script_reads_the_record_as_a_player_saved_it(console: Console, tmp_path: Path):
    """The record saved on a laptop: with a UTF-8 byte-order mark and CRLF (Notepad), or as UTF-16
    (Windows PowerShell's ``>`` and ``Out-File``). Before: "not the JSON of 'export format=draws'
    (Unexpected UTF-8 BOM …)", and no check at all."""
    ok(console, "new dice")
    ok(console, "roll 3d6")
    record, path = _ended_record(console, tmp_path, "dice")
    line = path.read_text(encoding="utf-8")
    for name, data in (("bom.json", b"\xef\xbb\xbf" + (line + "\r\n").encode()),
                       ("utf16.json", (line + "\r\n").encode("utf-16")),
                       ("record-only.json", json.dumps(record).encode())):
        saved = tmp_path / name
        saved.write_bytes(data)
        out = _verify(saved, "--commitment", record["commitment"][:8])
        assert out.returncode == 0 and "3 draws checked: all match" in out.stdout, (name, out.stdout + out.stderr)


def test_a_reopened_secret_seed_game_keeps_its_seed_secret_and_its_draws(state_dir: Path):
    """Games → Earlier games reopens an unfinished bag drawn in secret: the same draws come back,
    with the same commitment, and the seed is still on no line, reply or screen until the end (``reveal``)."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3,c*3,d*3", "draw 3"], [], state_dir)
    try:
        first = app.console.session
        seed, drawn = int(first.header["seed"]), first.view()["bag"]["drawn"]
        promise = first.view()["commitment"]
        assert app.run("new dice seed=4")["ok"]
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "bag"))
        again = app.console.session
        assert again.view()["bag"]["drawn"] == drawn and again.view()["commitment"] == promise
        assert again.header.get("committed") is True and "seed=" not in again.header["line"]
        replies = [json.dumps(app.run(x)) for x in ("state", "log 50", "history", "export format=csv", "draw")]
        for text in replies + [again.header["line"], app.console.handle_text("state") or ""]:
            assert str(seed) not in text, text
        assert app.run("reveal")["ok"] is False
        assert app.run("end")["ok"]
        assert app.run("reveal")["seed"] == seed and commitment(seed) == promise
    finally:
        app.console.close()


def test_a_copy_of_a_game_whose_seed_was_revealed_cannot_be_played_on(state_dir: Path):
    """Earlier games keeps the archived copy of a game reopened since: once the reopened copy has
    ended and shown its seed, playing on from the older copy would draw from a known seed (every
    later draw predicted). It is refused and changes nothing; the ended copy still reopens, ended."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3,c*3,d*3", "draw 3", "new dice seed=4"], [], state_dir)
    try:
        older = next(a for a in archived(app.archives()) if a.game == "bag")
        assert reopen(app, older)
        assert app.run("end")["ok"]
        seed = app.run("reveal")["seed"]
        assert app.run("new dice seed=5")["ok"]
        copies = {len(a.lines): a for a in archived(app.archives()) if a.game == "bag"}
        assert sorted(copies) == [1, 2]                               # ["draw 3"], ["draw 3", "end"]
        before = app.console.session
        assert not reopen(app, copies[1])                              # refused: its seed is known
        assert app.console.session is before and app.console.session.game.name == "dice"
        assert reopen(app, copies[2])                                  # the ended copy: ended again
        again = app.console.session
        assert again.ended and int(again.header["seed"]) == seed
        assert app.run("draw")["error"] == "game_over" and app.run("undo")["error"] == "game_over"
        # a game with a chosen seed had nothing secret: its copies reopen as before
        assert app.run("new bag items=a*2 seed=9")["ok"] and app.run("draw")["ok"] and app.run("end")["ok"]
        assert app.run("new dice seed=6")["ok"]
        plain = [a for a in archived(app.archives()) if a.header["line"].endswith("seed=9")]
        assert plain and reopen(app, plain[0])
    finally:
        app.console.close()



def test_a_copy_reopened_from_earlier_games_takes_no_share(state_dir: Path):
    """A game left before its share can be reopened from Earlier games again and again (the same
    secret and commitment): a share given in each copy would roll anew in each, from the one
    commitment. A copy takes no share; the game that was never copied still does."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new dice", "new bag items=a*2 seed=3"], [], state_dir)
    try:
        first = next(a for a in archived(app.archives()) if a.game == "dice")
        assert reopen(app, first)
        out = app.run("share a")
        assert out["ok"] is False and out["error"] == "illegal_move", out
        assert app.console.session.view()["share"] is None
        assert app.run("new dice")["ok"] and app.run("share b")["ok"]      # a game of its own: it may
    finally:
        app.console.close()


def test_a_game_whose_share_was_given_reopens_whole_from_earlier_games(state_dir: Path):
    """The share the players gave (``share <text>``) is one of the archived game's lines: given
    again as stored, it draws what it drew (nothing rolls anew). Replaying it was refused as a new
    share in a copy ("another copy in Earlier games"), so the reopened game stopped at step 0 and
    its draws did not come back."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3,c*3,d*3", "share hello", "draw 3"], [], state_dir)
    try:
        first = app.console.session
        drawn, promise = first.view()["bag"]["drawn"], first.view()["commitment"]
        assert app.run("new dice seed=4")["ok"]
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "bag"))
        again = app.console.session
        assert list(again.lines) == ["share hello", "draw 3"], list(again.lines)
        assert again.view()["bag"]["drawn"] == drawn and again.view()["share"] == "hello"
        assert again.view()["commitment"] == promise
        out = app.run("share other")                          # a new share in the copy: still refused
        assert out["ok"] is False and out["error"] == "illegal_move", out
    finally:
        app.console.close()


def test_an_ended_game_with_a_share_reopens_ended_never_playable_with_its_known_seed(state_dir: Path):
    """Earlier games reopens an ended game whose seed was shown only because its lines end it too;
    with a share given by 'share <text>', the replay stopped at that line (refused as a new share
    in a copy) and left a running game drawing from the known seed: every draw predicted."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3,c*3", "share hello", "draw 2", "end"], [], state_dir)
    try:
        assert app.run("reveal")["ok"] and app.run("new dice seed=4")["ok"]
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "bag"))
        again = app.console.session
        assert again.game.name == "bag" and again.ended and list(again.lines) == ["share hello", "draw 2", "end"]
        assert app.run("draw")["error"] == "game_over"
    finally:
        app.console.close()


def test_a_copy_of_a_game_whose_seed_was_shown_stopped_short_is_never_played_on(state_dir: Path):
    """A copy reopened from Earlier games of an ended game whose seed was shown replays to its end;
    a replay stopped short (a refused write, a power cut between its steps) left it running on the
    known seed: every later draw predicted. Asked now, anything but its own next line or ``end`` is
    refused and changes nothing, also after a restart; its own lines still replay as stored."""
    from firmware.console import Console
    from firmware.screens.archive import archived
    from firmware.store import Store
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3,c*3", "draw 2", "draw 1", "end"], [], state_dir)
    try:
        assert app.run("reveal")["ok"] and app.run("new dice seed=4")["ok"]
        a = next(a for a in archived(app.archives()) if a.game == "bag")
        assert app.reopen(a.header["line"], int(a.header["seed"]), True, int(a.header.get("v", 1)), ends=True,
                          lines=a.lines)["ok"]
        assert app.run("draw 2")["ok"]                       # its first line, as stored: replayed
        copy = app.console.session
        before = copy.state_json
        out = app.run("draw 3")                              # not its next line: played on, on a known seed
        assert (out["ok"], out["error"]) == (False, "illegal_move") and "seed was shown" in out["message"], out
        assert copy.state_json == before and list(copy.lines) == ["draw 2"]
    finally:
        app.console.close()
    store = Store(state_dir)
    console = Console(store, store.resume())                 # the power cut: the copy resumes, short
    try:
        assert console.session is not None and not console.session.ended
        assert console.request("draw 1")["error"] == "illegal_move"
        assert console.request("end")["ok"] and console.session.ended
    finally:
        console.close()


def test_reopening_a_session_stored_before_the_streams_keeps_its_draws(state_dir: Path):
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    from tests.test_fairness_v1 import comparable
    shutil.copy(GOLDEN / "v1_sessions.db", state_dir / "legatus.db")
    fixture = json.loads((GOLDEN / "v1_sessions.json").read_text(encoding="utf-8"))["sessions"]
    app = app_with([], [], state_dir)
    try:
        entry = next(a for a in archived(app.archives(100)) if a.game == "bag" and a.header.get("committed"))
        stored = next(s for s in fixture if s["header"]["sid"] == entry.header["sid"])
        assert reopen(app, entry)
        again = app.console.session
        assert again.header["v"] == 1
        assert comparable(again.state_json) == comparable(stored["state"])
    finally:
        app.console.close()


def test_reopening_a_game_with_a_given_seed_reuses_the_line_as_it_was(state_dir: Path):
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3 seed=77", "draw 2", "new dice seed=4"], [], state_dir)
    try:
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "bag"))
        assert app.console.session.header["line"] == "new bag items=a*3,b*3 seed=77"
        assert app.console.session.view()["commitment"] is None
    finally:
        app.console.close()


def test_the_fair_draw_for_screens(console: Console):
    assert console.fair_draw() is None
    code = console.commit_next()
    ok(console, "new dice")
    fair = console.fair_draw()
    assert fair is not None and fair.commitment == code and fair.can_share and fair.seed is None
    ok(console, "share 4-4-1")
    fair = console.fair_draw()
    assert fair is not None and fair.share == "4-4-1" and not fair.can_share and fair.ended is None
    ok(console, "end")
    fair = console.fair_draw()
    assert fair is not None and fair.ended == "ended" and fair.seed == ok(console, "reveal")["seed"]


def test_an_end_whose_records_failed_is_filed_at_the_next_state(console: Console, monkeypatch, caplog):
    from firmware import history
    ok(console, "new dice")
    ok(console, "roll d6")
    real = history.record_ended

    def broken(*args: Any) -> None:
        raise OSError("disk trouble")
    monkeypatch.setattr(history, "record_ended", broken)
    assert ok(console, "end")["ended"] == "ended"                  # the end itself is saved
    assert "could not file the ended game" in caplog.text
    assert ok(console, "history")["games"] == []
    monkeypatch.setattr(history, "record_ended", real)
    ok(console, "state")                                            # reconciled
    entry = ok(console, "history")["games"][0]
    assert entry["status"] == "ended" and entry["seed"] == ok(console, "reveal")["seed"]


def test_an_ended_game_whose_records_a_full_disk_refused_is_not_lost_when_a_new_game_replaces_it(
        console: Console, monkeypatch, caplog):
    """QA (faults): on a nearly full card the small ``end`` row fitted but History's bigger rows did
    not; the log promised "done again at the next start or 'state'", yet a ``new`` right after
    archived the session and the acknowledged game never reached History (35 ends acknowledged,
    22 in History, on a real full tmpfs). A ``new`` first files what the old session's end left
    unfiled; while it cannot, the ``new`` is refused with nothing changed."""
    from engine.text import Msg
    from firmware import history
    from firmware.storage import StorageError
    ok(console, "new dice")
    ok(console, "roll d6")
    real = history.record_ended

    def full(*args: Any) -> None:
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    monkeypatch.setattr(history, "record_ended", full)
    assert ok(console, "end")["ended"] == "ended"                   # acknowledged
    state = ok(console, "state")["state"]
    refused = console.request("new bag items=a*2")
    assert (refused["ok"], refused["error"]) == (False, "storage_error"), refused
    assert "full" in refused["message"]
    assert ok(console, "state")["state"] == state                   # nothing changed
    monkeypatch.setattr(history, "record_ended", real)               # space again
    ok(console, "new bag items=a*2")
    entry = ok(console, "history")["games"][0]
    assert (entry["game"], entry["status"]) == ("dice", "ended")
    assert entry["seed"] is not None


def test_a_game_its_rules_ended_whose_end_the_card_refuses_is_not_replaced(console: Console, monkeypatch):
    """A ``new`` over a game its rules ended first ends it (its ``end`` saved like any action): a
    card that refuses that row refuses the new game, and nothing changed — the game still runs
    (its last move can be undone), its seed still secret."""
    from engine.text import Msg
    from firmware.storage import StorageError
    ok(console, "new sword players=romans,gauls")
    ok(console, "victory romans")
    state, store = ok(console, "state")["state"], console.store
    real = type(store).commit

    def full(*args: Any) -> None:
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    monkeypatch.setattr(type(store), "commit", full)
    refused = console.request("new dice")
    assert (refused["ok"], refused["error"]) == (False, "storage_error"), refused
    monkeypatch.setattr(type(store), "commit", real)
    assert ok(console, "state")["state"] == state and state["ended"] is None
    assert ok(console, "history")["games"][0]["seed"] is None
    ok(console, "undo")                                             # the victory taken back: it goes on
    assert ok(console, "state")["state"]["over"] is False
