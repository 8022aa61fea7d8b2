#!/usr/bin/env python3
"""Check a Legatus fair-draw commitment and replay a session's draws — independently.

Standard library only; it does NOT import Legatus. It implements the generator and the draw
procedures exactly as docs/fairness.md documents them:

- commitment = lowercase hex SHA-256 of the UTF-8 text ``legatus-seed:<seed>`` (seed in decimal);
- generator  = PCG32 (PCG-XSH-RR 64/32, ``pcg32_srandom_r(seed, 54)``), unbiased ``below(n)``;
- bag draw   = ``k = below(items left)``, then walk the item names in sorted order;
- deck       = the cards in the order of ``cards=``, Fisher–Yates shuffled; draws from the top;
- dice       = ``below(sides) + 1`` per die; ``reroll`` re-rolls the chosen dice, lowest first;
- ``undo``   = takes the last change back, the generator included.

Usage::

    verify_draws.py --seed S --commitment HEX                 # just check the commitment
    verify_draws.py --seed S --requests session.txt [--replies replies.jsonl] [--commitment HEX]

``session.txt`` holds the request lines sent to ``legatus console`` (``new bag …``/``new dice``,
then ``draw``, ``put``, ``card``, ``discard``, ``shuffle``, ``reshuffle``, ``roll``, ``reroll``,
``kit …``, ``undo``; other lines are passed over). ``replies.jsonl`` holds the replies received, one
per answered request; with it, refused requests are skipped and every draw is compared. Exit
status 0 when everything matches, 1 otherwise.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import sys

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
MULT = 6364136223846793005


def commitment(seed: int) -> str:
    return hashlib.sha256(f"legatus-seed:{seed}".encode("utf-8")).hexdigest()


class Pcg32:
    def __init__(self, seed: int, stream: int = 54) -> None:
        self.state = 0
        self.inc = ((stream << 1) | 1) & MASK64
        self.next()
        self.state = (self.state + (seed & MASK64)) & MASK64
        self.next()

    def next(self) -> int:
        old = self.state
        self.state = (old * MULT + self.inc) & MASK64
        x = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((x >> rot) | (x << ((-rot) & 31))) & MASK32

    def below(self, n: int) -> int:
        threshold = ((MASK32 + 1) - n) % n
        while True:
            r = self.next()
            if r >= threshold:
                return r % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def parse_items(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for part in text.split(","):
        name, _, num = part.strip().partition("*")
        counts[name] = counts.get(name, 0) + (int(num) if num else 1)
    return counts


def new_holder(opts: dict[str, str], rng: Pcg32) -> dict:
    holder: dict = {"bag": None, "deck": None}
    if "items" in opts:
        holder["bag"] = parse_items(opts["items"])
    if "cards" in opts:
        counts = parse_items(opts["cards"])
        cards = [name for name in counts for _ in range(counts[name])]
        rng.shuffle(cards)
        holder["deck"] = {"draw": cards, "hand": [], "discard": []}
    return holder


def bag_draw(bag: dict[str, int], n: int, rng: Pcg32) -> list[str]:
    out = []
    for _ in range(n):
        k = rng.below(sum(bag.values()))
        for name in sorted(bag):
            if k < bag[name]:
                bag[name] -= 1
                out.append(name)
                break
            k -= bag[name]
    return out


def words(line: str) -> tuple[str, list[str], dict[str, str]]:
    command, _, rest = line.strip().partition(" ")
    args, opts = [], {}
    for w in rest.split():
        k, eq, v = w.partition("=")
        if eq and k:
            opts[k] = v
        else:
            args.append(w)
    return command, args, opts


class Replay:
    """The draws of one session, step by step."""

    def __init__(self, seed: int, new_line: str) -> None:
        self.rng = Pcg32(seed)
        _, args, opts = words(new_line)
        self.game = args[0] if args else ""
        self.main = new_holder(opts, self.rng) if self.game == "bag" else {"bag": None, "deck": None}
        self.kit: dict = {"bag": None, "deck": None}
        self.last_roll: list[int] = []
        self.sides = 6
        self.undo_stack: list = []

    def _save(self) -> None:
        self.undo_stack.append(copy.deepcopy((self.rng.state, self.rng.inc, self.main, self.kit,
                                              self.last_roll, self.sides)))

    def step(self, line: str) -> dict | None:
        """Apply one accepted request; returns the fields it should have answered (draws only)."""
        command, args, opts = words(line)
        if self.game not in ("bag", "dice"):
            return None       # a game's own draws: replay with Legatus itself (docs/fairness.md)
        if command == "undo":
            if self.undo_stack:
                (self.rng.state, self.rng.inc, self.main, self.kit, self.last_roll,
                 self.sides) = self.undo_stack.pop()
            return None
        holder = self.main
        if command == "kit" and args:
            command, args, holder = args[0], args[1:], self.kit
            if command == "new":
                self._save()
                self.kit = new_holder(opts, self.rng)
                return None
        if self.game != "bag" and holder is self.main and command in ("draw", "put", "card", "discard"):
            return None                     # another game's own command of that name: not replayed here
        if command == "draw":
            self._save()
            return {"drawn": bag_draw(holder["bag"], int(args[0]) if args else 1, self.rng)}
        if command == "put":
            self._save()
            holder["bag"][args[0]] = holder["bag"].get(args[0], 0) + 1
            return None
        if command == "card":
            self._save()
            n = int(args[0]) if args else 1
            deck = holder["deck"]
            out, deck["draw"] = deck["draw"][:n], deck["draw"][n:]
            deck["hand"] += out
            return {"cards": out}
        if command == "discard":
            self._save()
            holder["deck"]["hand"].remove(args[0])
            holder["deck"]["discard"].append(args[0])
            return None
        if command in ("shuffle", "reshuffle"):
            self._save()
            deck = holder["deck"]
            if command == "reshuffle":
                deck["draw"] += deck["discard"]
                deck["discard"] = []
            self.rng.shuffle(deck["draw"])
            return None
        if command == "roll" and args:
            m = re.fullmatch(r"(\d*)d(\d+)([+-]\d+)?", args[0].strip())
            if not m:
                return None
            self._save()
            count, sides, mod = int(m.group(1) or 1), int(m.group(2)), int(m.group(3) or 0)
            self.last_roll = [self.rng.below(sides) + 1 for _ in range(count)]
            self.sides = sides
            return {"dice": list(self.last_roll), "total": sum(self.last_roll) + mod}
        if command == "reroll" and args:
            self._save()
            for p in sorted(int(x) - 1 for x in args[0].split(",")):
                self.last_roll[p] = self.rng.below(self.sides) + 1
            return {"dice": list(self.last_roll)}
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True, help="the seed 'reveal' answered")
    ap.add_argument("--commitment", help="the commitment shown at the start (64 hex, or its first 8)")
    ap.add_argument("--requests", help="the request lines of the session")
    ap.add_argument("--replies", help="the replies received (JSON lines), to compare every draw")
    a = ap.parse_args(argv)
    good = True
    if a.commitment:
        want = a.commitment.strip().lower()
        got = commitment(a.seed)
        match = got.startswith(want) if len(want) >= 8 else False
        print(f"commitment {'OK' if match else 'MISMATCH'}: sha256('legatus-seed:{a.seed}') = {got}")
        good &= match
    if not a.requests:
        return 0 if good else 1
    with open(a.requests, encoding="utf-8") as f:
        lines = [l.rstrip("\r\n") for l in f if l.strip() and not l.lstrip().startswith("#")]
    replies: list[dict] | None = None
    if a.replies:
        with open(a.replies, encoding="utf-8") as f:
            replies = [json.loads(l) for l in f if l.strip()]
    replay: Replay | None = None
    checked = 0
    for i, line in enumerate(lines):
        reply = replies[i] if replies is not None and i < len(replies) else None
        if reply is not None and not reply.get("ok"):
            continue                                    # refused: nothing changed
        if line.startswith("new "):
            replay = Replay(a.seed, line)
            continue
        if replay is None:
            continue
        expected = replay.step(line)
        if expected is None:
            continue
        print(f"{line:<28} -> {json.dumps(expected)}")
        if reply is not None:
            same = all(reply.get(k) == v for k, v in expected.items())
            checked += 1
            if not same:
                print(f"  MISMATCH: the device answered {json.dumps({k: reply.get(k) for k in expected})}")
                good = False
    if replies is not None:
        print(f"{checked} draws compared: {'all match' if good else 'MISMATCH'}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
