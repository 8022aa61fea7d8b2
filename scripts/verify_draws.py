#!/usr/bin/env python3
"""Check a Legatus game's draws from its exported record alone — independently of Legatus.

Standard library only; it does NOT import Legatus. It implements the commitment, the derivation of
the streams, the generator and the draw procedures exactly as docs/fairness.md documents them:

- commitment = lowercase hex SHA-256 of the UTF-8 text ``legatus-seed:<seed>`` (seed in decimal);
- version 2: each stream (a bag, a deck, a die pool, ...) is its own PCG32 generator, seeded from
  ``SHA-256("legatus-draws:2:<seed>:<stream>:<share>")`` (initstate = bytes 0-7, initseq = bytes
  8-15, big-endian; share empty when there was none);
  version 1 (games stored before the streams): one generator ``PCG32(seed, 54)`` for everything,
  in the order of the record;
- PCG32 = PCG-XSH-RR 64/32 (``pcg32_srandom_r``/``pcg32_random_r``), ``below(n)`` without bias;
- the record's entries ``[stream, kind, ...]``, in the order they happened:
  ``die sides v`` (v = below(sides)+1), ``below n k``, ``pick items got`` (got = items[below(len)]),
  ``shuffle before after`` (Fisher-Yates), ``bag contents``/``draw name``/``put name`` (a bag of
  counts: below(total), names in sorted order), ``deck``/``card names``/``take name``/
  ``bottom names``/``discard name``/``reshuffle`` (what a deck does between its shuffles); ``draw
  name order`` walks the names in that order (a bag made again after a draw was shown and undone),
  ``keep n`` leaves the deck's top ``n`` cards out of its next shuffle (cards shown and undone);
- what was undone: ``undone`` (how many actions), ``setup`` and ``steps`` (every action, with its
  draws, and every undo, as made): the draws undone are checked where they stood in their streams,
  and each is said with what the same place drew next (undo never re-draws).

Usage::

    verify_draws.py --record record.json [--commitment HEX]   # every draw of the game
    verify_draws.py --seed S --commitment HEX                  # just the commitment

``record.json``: what ``export format=draws [id=N]`` answered (the whole reply or its ``record``).
``--commitment``: the code you photographed at the start (64 hex characters, or its first 8).
Exit status 0 when everything matches, 1 otherwise (each difference is printed as MISMATCH).
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import sys
from typing import Any

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
MULT = 6364136223846793005


def commitment(seed: int) -> str:
    return hashlib.sha256(f"legatus-seed:{seed}".encode("utf-8")).hexdigest()


def stream_text(seed: int, share: str, stream: str) -> str:
    return f"legatus-draws:2:{seed}:{stream}:{share}"


def stream_seed(seed: int, share: str, stream: str) -> tuple[int, int]:
    digest = hashlib.sha256(stream_text(seed, share, stream).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")


class Pcg32:
    def __init__(self, initstate: int, initseq: int = 54) -> None:
        self.state = 0
        self.inc = ((initseq << 1) | 1) & MASK64
        self.next()
        self.state = (self.state + (initstate & MASK64)) & MASK64
        self.next()

    def next(self) -> int:
        old = self.state
        self.state = (old * MULT + self.inc) & MASK64
        x = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((x >> rot) | (x << ((-rot) & 31))) & MASK32

    def below(self, n: int) -> int:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MASK32 + 1:
            raise ValueError(f"a choice among {n!r}")      # (a record's number: never 0, never above 2^32)
        threshold = ((MASK32 + 1) - n) % n
        while True:
            r = self.next()
            if r >= threshold:
                return r % n

    def shuffle(self, items: list[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class Checker:
    """Follows the record's entries, stream by stream."""

    def __init__(self, version: int, seed: int, share: str) -> None:
        self.version, self.seed, self.share = version, seed, share
        self.generators: dict[str, Pcg32] = {}
        self.one = Pcg32(seed, 54) if version == 1 else None
        self.bags: dict[str, dict[str, int]] = {}
        self.out: dict[str, dict[str, int]] = {}         # what each bag has given and not taken back
        self.piles: dict[str, list[Any] | None] = {}     # the streams that are decks (a "deck" entry)
        self.discards: dict[str, list[Any]] = {}
        self.reshuffling: set[str] = set()
        self.keeping: dict[str, int] = {}                # the top cards the next shuffle leaves on top
        self.kept = 0                                    # shuffles under cards shown and undone
        self.dealt: dict[str, tuple[int, int]] = {}      # per deck: (its shuffles, cards dealt since the last)
        self.held = 0                                    # bag draws that walked the names in a given order
        self.draws: dict[str, int] = {}
        self.problems: list[str] = []

    def generator(self, stream: str) -> Pcg32:
        if self.one is not None:
            return self.one
        if stream not in self.generators:
            self.generators[stream] = Pcg32(*stream_seed(self.seed, self.share, stream))
        return self.generators[stream]

    at = "draw record entry"                             # where an entry is, said in a MISMATCH line

    def bad(self, i: int, entry: list[Any], why: str) -> None:
        self.problems.append(f"MISMATCH at {self.at} {i}: {json.dumps(entry)[:160]}: {why}")

    def places(self, entry: Any) -> list[tuple[Any, Any]]:
        """Where in its stream ``entry`` draws, with what it drew there: (its generator's state
        before it, the entry); for cards taken from a deck's top, each card's place in the deck
        (how many cards the deck had dealt since it was shuffled: a shuffle that leaves cards shown
        and undone on top keeps their places) with the card. None for an entry that draws nothing."""
        if not isinstance(entry, list) or len(entry) < 3 or not isinstance(entry[0], str):
            return []
        if entry[1] == "card":
            if not isinstance(entry[2], list):
                return []
            shuffles, dealt = self.dealt.get(entry[0], (0, 0))
            return [(("card", entry[0], shuffles, dealt + k), card) for k, card in enumerate(entry[2])]
        if entry[1] not in ("die", "below", "pick", "shuffle", "draw"):
            return []
        g = self.generator(entry[0])
        return [((entry[0] if self.one is None else "", g.state, g.inc), entry)]

    def check(self, i: int, entry: list[Any]) -> None:
        if not isinstance(entry, list) or len(entry) < 2 or not isinstance(entry[0], str):
            self.bad(i, entry, "not a [stream, kind, ...] entry")
            return
        stream, kind, args = entry[0], entry[1], entry[2:]
        g = self.generator(stream)
        random = kind in ("die", "below", "pick", "shuffle", "draw")
        if random:
            self.draws[stream] = self.draws.get(stream, 0) + 1
        try:
            if kind == "die":
                sides, value = args
                if g.below(sides) + 1 != value:
                    self.bad(i, entry, "the generator gives another face")
            elif kind == "below":
                n, k = args
                if g.below(n) != k:
                    self.bad(i, entry, "the generator gives another number")
            elif kind == "pick":
                items, got = args
                if items[g.below(len(items))] != got:
                    self.bad(i, entry, "the generator picks another one")
            elif kind == "shuffle":
                self._shuffle(i, entry, stream, g, args[0], args[1])
            elif kind == "bag":
                self.bags[stream] = {str(k): int(v) for k, v in args[0].items()}
                self.out[stream] = {}
            elif kind == "draw":
                self._draw(i, entry, stream, g, args[0], args[1] if len(args) > 1 else None)
            elif kind == "put":
                out = self.out.get(stream, {})
                if out.get(args[0], 0) < 1:
                    self.bad(i, entry, "no such item was drawn from that bag (and is still out)")
                    return
                out[args[0]] -= 1
                bag = self.bags.setdefault(stream, {})
                bag[args[0]] = bag.get(args[0], 0) + 1
            elif kind == "deck":
                self.dealt[stream] = (self.dealt.get(stream, (0, 0))[0] + 1, 0)
                self.piles[stream] = None
                self.discards[stream] = []
            elif kind in ("card", "take", "bottom"):
                pile = self.piles.get(stream)
                if pile is None:                # every deck is begun ("deck") and shuffled first
                    self.bad(i, entry, "a card of a deck the record has not shuffled")
                elif kind == "card":
                    if pile[:len(args[0])] != args[0]:
                        self.bad(i, entry, f"the top of the deck is {pile[:len(args[0])]}")
                    self.piles[stream] = pile[len(args[0]):]
                    shuffles, dealt = self.dealt.get(stream, (0, 0))
                    self.dealt[stream] = (shuffles, dealt + len(args[0]))
                elif kind == "take":
                    if args[0] not in pile:
                        self.bad(i, entry, "that card is not in the deck")
                    else:
                        pile.remove(args[0])
                else:
                    pile.extend(args[0])
            elif kind == "discard":
                self.discards.setdefault(stream, []).append(args[0])
            elif kind == "reshuffle":
                self.reshuffling.add(stream)
            elif kind == "keep":
                pile = self.piles.get(stream)
                n = args[0]
                if pile is None or isinstance(n, bool) or not isinstance(n, int) or not 0 < n <= len(pile):
                    self.bad(i, entry, "top cards kept of a deck the record has not shuffled, or more than it holds")
                else:
                    self.keeping[stream] = n
                    self.kept += 1
            else:
                self.bad(i, entry, f"unknown kind {kind!r}")
        except (ValueError, TypeError, IndexError, KeyError, AttributeError) as e:
            self.bad(i, entry, f"malformed ({e})")

    def _shuffle(self, i: int, entry: list[Any], stream: str, g: Pcg32, before: list[Any], after: list[Any]) -> None:
        pile = self.piles.get(stream)
        top = self.keeping.pop(stream, 0)      # cards shown and undone stay on top, out of the shuffle
        if pile is not None:                   # a deck's shuffle shuffles the deck as it is
            expect = pile[top:] + (self.discards.get(stream, []) if stream in self.reshuffling else [])
            if before != expect:
                self.bad(i, entry, f"the deck before the shuffle was {expect}")
        if stream in self.reshuffling:
            self.discards[stream] = []
            self.reshuffling.discard(stream)
        if g.shuffle(before) != after:
            self.bad(i, entry, "the generator shuffles into another order")
        if not top:                            # (a shuffle under cards kept on top keeps their places)
            self.dealt[stream] = (self.dealt.get(stream, (0, 0))[0] + 1, 0)
        if stream in self.piles:
            self.piles[stream] = (pile or [])[:top] + list(after)

    def _draw(self, i: int, entry: list[Any], stream: str, g: Pcg32, name: str, walk: Any) -> None:
        bag = self.bags.get(stream)
        if not bag or sum(bag.values()) < 1:
            self.bad(i, entry, "a draw from an empty or unknown bag")
            return
        if walk is not None:             # the names in the order of a bag made again (a draw shown and undone)
            names = set(map(str, walk)) if isinstance(walk, list) else set()
            if (len(names) != len(walk) or not names <= set(bag)
                    or not {n for n, c in bag.items() if c > 0} <= names):
                self.bad(i, entry, "the order given is not the bag's items, each once")
                return
            self.held += 1
        k = g.below(sum(bag.values()))
        for item in sorted(bag) if walk is None else walk:
            if k < bag[item]:
                bag[item] -= 1
                out = self.out.setdefault(stream, {})
                out[item] = out.get(item, 0) + 1
                if item != name:
                    self.bad(i, entry, f"the generator draws {item!r}")
                return
            k -= bag[item]


def check_commitment(seed: int, want: str | None, given: str | None) -> bool:
    got = commitment(seed)
    ok = True
    for what, hexcode in (("record", want), ("given", given)):
        if hexcode is None:
            continue
        code = hexcode.strip().lower()
        match = len(code) >= 8 and got.startswith(code)
        print(f"commitment ({what}) {'OK' if match else 'MISMATCH'}: sha256('legatus-seed:{seed}') = {got}")
        ok &= match
    return ok


def verify(record: Any, given: str | None = None) -> bool:
    if not isinstance(record, dict):
        print("MISMATCH: not a draw record (a JSON object with 'seed', 'version' and 'draws' is expected)")
        return False
    if "record" in record and isinstance(record["record"], dict):
        record = record["record"]
    try:
        seed, version = record["seed"], int(record["version"])
        share = record.get("share") or ""
        entries = record["draws"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise ValueError(f"the seed {str(seed)[:40]} is not a whole number from 0 to 2^64-1")
        if not isinstance(entries, list):
            raise ValueError("'draws' is not a list")
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        print(f"MISMATCH: not a draw record ({e})")
        return False
    if version not in (1, 2):
        print(f"MISMATCH: unknown derivation version {version}")
        return False
    print(f"{record.get('game')}: {record.get('line')}")
    ok = True
    if record.get("commitment") is not None or given is not None:
        ok &= check_commitment(seed, record.get("commitment"), given)
    else:
        print("no commitment: the game was started with a chosen seed")
    if version == 1:
        print("version 1: every draw from PCG32(seed, 54), in order")
    else:
        print(f"version 2: share {share!r}" + ("" if share else " (none: the draws come from the secret alone)"))
    checker = Checker(version, seed, share)
    for i, entry in enumerate(entries):
        checker.check(i, entry)
    for stream in sorted({e[0] for e in entries if isinstance(e, list) and e and isinstance(e[0], str)}):
        if version == 2:
            a, b = stream_seed(seed, share, stream)
            how = f"sha256('{stream_text(seed, share, stream)}') -> initstate {a}, initseq {b}"
        else:
            how = "the session's one generator"
        print(f"  stream {stream}: {checker.draws.get(stream, 0)} draws; {how}")
    if checker.held:
        print(f"  {checker.held} bag draws walked the items in the order the record gives (a bag made again "
              "after a draw was shown and undone: the item that corresponds to the one shown)")
    if checker.kept:
        print(f"  {checker.kept} shuffles left on top cards shown and undone")
    for line in checker.problems:
        print(line)
    total = sum(checker.draws.values())
    ok &= not checker.problems
    if "undone" not in record:
        print("  draws shown and undone: this record does not say (an older Legatus filed it, or its rows were "
              "damaged); only the draws that stand are checked")
    elif not record.get("steps"):
        print("  nothing was undone: every draw shown stands")
    else:
        shown, good = check_undone(record, version, seed, share, entries)
        ok &= good
        total += shown
    print(f"{total} draws checked: {'all match' if ok else 'MISMATCH'}")
    return ok


def _said(entry: Any) -> str:
    return json.dumps(entry, ensure_ascii=False)[:120]


def check_undone(record: dict[str, Any], version: int, seed: int, share: str, entries: list[Any]) -> tuple[int, bool]:
    """Check the draws shown and undone: follow every action and undo as made (``steps``), each
    action's draws from its streams where they stood then (an undo puts them back as they were
    before it), and say for each draw undone what the same place in its stream drew afterwards.
    Returns (how many draws were undone, whether everything matched)."""
    setup, steps = record.get("setup"), record.get("steps")
    if isinstance(setup, bool) or not isinstance(setup, int) or not 0 <= setup <= len(entries) \
            or not isinstance(steps, list):
        print("MISMATCH: the record's 'setup' and 'steps' (what was undone) are not a number of draws and a list")
        return 0, False
    checker = Checker(version, seed, share)
    checker.at = "set-up draw"
    for i, entry in enumerate(entries[:setup]):
        checker.check(i, entry)
    problems = list(checker.problems)
    path: list[Any] = list(entries[:setup])     # the draws standing, step after step
    # per standing action, what undo restores, and each entry with where it drew what (Checker.places)
    done: list[tuple[Checker, int, int, str, list[tuple[Any, list[tuple[Any, Any]]]]]] = []
    undone: list[tuple[int, str, Any, list[tuple[Any, list[Any]]]]] = []   # (step, line, entry, [(what, next)])
    waiting: dict[Any, list[list[Any]]] = {}             # a place undone → the slots its next draw fills
    shown = 0
    for n, step in enumerate(steps, 1):
        if step == ["undo"]:
            if not done:
                problems.append(f"MISMATCH at step {n}: an undo with nothing to undo")
                continue
            checker, cut, at, line, drew = done.pop()
            del path[cut:]
            for entry, places in drew:
                undone.append((at, line, entry, [(what, []) for _, what in places]))
                for (place, _), (_, slot) in zip(places, undone[-1][3]):
                    waiting.setdefault(place, []).append(slot)
            shown += len(drew)
            continue
        if not isinstance(step, list) or len(step) != 3 or step[0] != "do" or not isinstance(step[2], list):
            problems.append(f"MISMATCH at step {n}: {_said(step)}: not [\"do\", line, draws] or [\"undo\"]")
            continue
        line = str(step[1])
        done.append((copy.deepcopy(checker), len(path), n, line, []))
        checker.at = f"step {n} ({line[:40]}), draw"
        checker.problems = []
        for i, entry in enumerate(step[2]):
            places = checker.places(entry)
            if places:
                done[-1][4].append((entry, places))
            for place, what in places:
                for slot in waiting.pop(place, []):
                    slot += [n, line, what, entry]
            checker.check(i, entry)
            path.append(entry)
        problems += checker.problems
    if path != entries:
        problems.append("MISMATCH: the steps (what was done and undone) do not lead to the record's draws")
    actions = sum(1 for step in steps if step == ["undo"])
    if actions != record.get("undone"):
        problems.append(f"MISMATCH: the record says {record.get('undone')} actions were undone; its steps hold "
                        f"{actions} undos")
    print(f"  undone: {actions} actions taken back by undo; {shown} draws shown and undone, each checked where it "
          "stood in its stream:")
    same = other = 0
    for at, line, entry, nexts in undone:
        got = [slot for _, slot in nexts if slot]
        if not got:
            what = "not drawn again"
        elif len(got) == len(nexts) and all(slot[2] == shown_there for shown_there, slot in nexts):
            same += 1
            what = f"drawn again at step {got[0][0]} ({got[0][1][:40]}): the same"
        else:
            other += 1
            what = (f"its place in the stream went to step {got[0][0]} ({got[0][1][:40]}): {_said(got[0][3])}, "
                    "another request, or a bag or deck changed since")
        print(f"    step {at} ({line[:40]}), undone: {_said(entry)}; {what}")
    if same or other:
        print(f"  undo re-drew nothing: {same} drawn again the same" + (
            f", {other} places taken by another request" if other else ""))
    for line in problems:
        print(line)
    return shown, not problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--record", help="the draw record (export format=draws), a JSON file")
    ap.add_argument("--seed", type=int, help="the seed 'reveal' answered (without --record)")
    ap.add_argument("--commitment", help="the commitment shown at the start (64 hex, or its first 8)")
    a = ap.parse_args(argv)
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:     # an output that is not UTF-8 (a C locale; on Windows, a redirect to a file):
        reconfigure(errors="backslashreplace")   # a Cyrillic item is \u-escaped, not a UnicodeEncodeError
    if a.commitment is not None:        # a mistyped code is not a proof of cheating: say what is wrong
        code = a.commitment.strip().lower()
        if not 8 <= len(code) <= 64 or any(c not in "0123456789abcdef" for c in code):
            ap.error(f"--commitment: the code shown at the start is 8 to 64 hex characters (0-9, a-f), "
                     f"not {a.commitment!r}")
    if a.record:
        try:
            with open(a.record, "rb") as f:     # UTF-8, also with a byte-order mark (Notepad), or UTF-16
                record = json.loads(f.read())   # (Windows PowerShell's > and Out-File): json finds which
        except OSError as e:
            ap.error(f"--record {a.record}: cannot be read ({e.strerror or e})")
        except ValueError as e:         # not JSON, or not UTF-8
            ap.error(f"--record {a.record}: not the JSON of 'export format=draws' ({e})")
        if isinstance(record, dict) and record.get("ok") is False:      # the console's refusal, kept by `>`
            ap.error(f"--record {a.record}: no draw record in it: the console refused the export "
                     f"({record.get('error')}: {str(record.get('message'))[:200]}); nothing to check")
        return 0 if verify(record, a.commitment) else 1
    if a.seed is None or not a.commitment:
        ap.error("give --record FILE, or --seed S --commitment HEX")
    return 0 if check_commitment(a.seed, None, a.commitment) else 1


if __name__ == "__main__":
    sys.exit(main())
