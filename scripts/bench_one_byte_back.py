"""Benchmark of putting back a session header's one bad byte at start-up
(:func:`firmware.store.checks.one_byte_back`) against the way it was done before: trying all 256
values of every header byte, a whole CRC-32 for each (:func:`one_byte_back_by_trial`, kept here as
the reference that tests/test_store_one_byte_back.py compares it with).

Run ``python scripts/bench_one_byte_back.py [--sizes 100,400,1024] [--rounds N]``. For each header
size a session header (JSON, as the store writes it) takes one random bad byte; both ways are timed
on the same damaged rows (CPU time of this process, best of a few repeats), their answers checked
to be the same, and the ratio old/new printed. A Raspberry Pi Zero 2 W is about 15 times slower
than a desktop, so the old way's time × 15 is what a start-up after damage waited there.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware.store.checks import one_byte_back, the_one_header  # noqa: E402
from firmware.store.schema import session_crc  # noqa: E402


def one_byte_back_by_trial(sid_: int, header: Any, current: Any, ended: Any, check: Any) -> bytes | None:
    """The way :func:`one_byte_back` worked before (256 tries of each header byte), the reference."""
    if not isinstance(header, bytes) or not isinstance(check, int) or not header or len(header) > 1024:
        return None
    head = str(sid_).encode("utf-8") + b"\x1f"
    tail = b"\x1f" + str(current).encode("utf-8") + b"\x1f" + str(ended).encode("utf-8")
    found: list[bytes] = []
    at = zlib.crc32(head)
    for i, old in enumerate(header):
        rest = header[i + 1:] + tail
        for new in range(256):
            if new != old and zlib.crc32(rest, zlib.crc32(bytes((new,)), at)) == check:
                found.append(header[:i] + bytes((new,)) + header[i + 1:])
        at = zlib.crc32(bytes((old,)), at)
    return the_one_header(found, sid_, current, ended, check)


def a_header(rng: random.Random, size: int) -> bytes:
    """A session header of at most ``size`` bytes (at least its sid and game) (JSON with its sid and game, sorted keys)."""
    data: dict[str, Any] = {"game": rng.choice(["caesar", "jc", "glory", "sword"]), "sid": f"{rng.getrandbits(64):016x}",
                            "players": ["Аня", "Bob"], "note": ""}
    base = len(json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    note = ""
    while len(note.encode("utf-8")) < size - base:
        note += rng.choice("abcdefghijklmnopqrstuvwxyzабвгд ")
    data["note"] = note[:-1] if len(note.encode("utf-8")) > size - base else note
    return json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8")


def damaged(rng: random.Random, size: int) -> tuple[int, bytes, int, int, int]:
    """A sessions row (sid, header, current, ended, check) whose header took one random bad byte."""
    sid_, current, ended = rng.randrange(1, 10_000), rng.randrange(2), rng.choice([0, 1_760_000_000 + rng.randrange(10 ** 7)])
    header = a_header(rng, size)
    check = session_crc(sid_, header, current, ended)
    i = rng.randrange(len(header))
    bad = header[:i] + bytes((header[i] ^ rng.randrange(1, 256),)) + header[i + 1:]
    return sid_, bad, current, ended, check


def timed(fn: Any, rows: list[tuple[int, bytes, int, int, int]], repeats: int = 3) -> tuple[float, list[bytes | None]]:
    best, out = float("inf"), []
    for _ in range(repeats):
        t0 = time.process_time()
        out = [fn(*row) for row in rows]
        best = min(best, time.process_time() - t0)
    return best / len(rows), out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100,400,1024", help="header sizes in bytes, comma-separated")
    ap.add_argument("--rounds", type=int, default=5, help="damaged rows per size")
    ap.add_argument("--seed", type=int, default=16)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{'bytes':>6} {'old ms':>9} {'new ms':>9} {'old/new':>9}")
    for size in (int(s) for s in args.sizes.split(",")):
        rows = [damaged(rng, size) for _ in range(args.rounds)]
        old_t, old = timed(one_byte_back_by_trial, rows, repeats=1)
        new_t, new = timed(one_byte_back, rows)
        if old != new:
            print(f"DIFFERENT answers at {size} bytes", file=sys.stderr)
            return 1
        print(f"{size:>6} {old_t * 1000:>9.2f} {new_t * 1000:>9.3f} {old_t / new_t:>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
