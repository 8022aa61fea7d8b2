"""Putting back a session header's one bad byte at start-up (firmware/store/checks.py
``one_byte_back``) without trying all 256 values of every byte: CRC-32 is linear, so the one byte
change that gives the stored checksum at each position is looked up, not searched for. The old way
(scripts/bench_one_byte_back.py ``one_byte_back_by_trial``, the reference) took 0.1-0.3 s for a
1 KB header here, seconds on a Pi Zero 2 W at a start after damage. Both must give the same answer
on every damaged row: the header put back, or nothing guessed."""
from __future__ import annotations

import json
import random
import zlib

import pytest

from firmware.store import checks
from firmware.store.checks import one_byte_back
from firmware.store.schema import session_crc
from scripts.bench_one_byte_back import a_header, damaged, one_byte_back_by_trial


def _both(*row: object) -> bytes | None:
    new, old = one_byte_back(*row), one_byte_back_by_trial(*row)      # type: ignore[arg-type]
    assert new == old, row
    return new


def test_one_random_bad_byte_is_put_back_as_the_old_way_did_on_many_headers():
    rng = random.Random(20261128)
    put_back = 0
    for _ in range(60):
        sid_, bad, current, ended, check = damaged(rng, rng.choice([1, 30, 120, 300, 1024]))
        got = _both(sid_, bad, current, ended, check)
        if got is not None:
            put_back += 1
            assert session_crc(sid_, got, current, ended) == check
            assert sum(a != b for a, b in zip(got, bad)) == 1 and len(got) == len(bad)
    assert put_back > 45            # (a byte that breaks the JSON's sid or game is not guessed)


def test_rows_that_are_not_one_bad_byte_of_the_header_give_the_same_nothing():
    rng = random.Random(16)
    for _ in range(20):
        sid_, current, ended = rng.randrange(1, 999), rng.choice([0, 1, "1", None]), rng.choice([0, 17, None])
        header = a_header(rng, rng.choice([10, 60, 150]))
        check = session_crc(sid_, header, current, ended)
        two = bytearray(header)
        for i in rng.sample(range(len(header)), 2):
            two[i] ^= rng.randrange(1, 256)
        cases = [
            (sid_, bytes(two), current, ended, check),                          # two bad bytes
            (sid_, header, current, ended, check),                              # whole: nothing to change
            (sid_, header, 1 - current if isinstance(current, int) else 0, ended, check),   # the flag changed
            (sid_, header, current, ended, rng.getrandbits(32)),                # a checksum of nothing near
            (sid_, header, current, ended, check + (1 << 32)),                  # not a CRC-32 at all
            (sid_, header, current, ended, -check - 1),
            (sid_, header, current, ended, True),
            (sid_, header, current, ended, str(check)),
            (sid_, header.decode("utf-8"), current, ended, check),               # not bytes
            (sid_, b"", current, ended, check),
            (sid_, header * 4, current, ended, check),                          # over 1 KB: not tried
        ]
        for row in cases:
            _both(*row)


def test_a_changed_byte_that_leaves_no_sessions_header_is_not_guessed():
    """One byte back gives the checksum, but the header it gives is not JSON with a sid and game."""
    rng = random.Random(3)
    for text in (b"not json at all", b'{"sid": 1, "game": "jc"}', b'["sid", "game"]', b'{"sid": "a"}'):
        check = session_crc(7, text, 1, 0)
        i = rng.randrange(len(text))
        bad = text[:i] + bytes((text[i] ^ 0x20,)) + text[i + 1:]
        assert _both(7, bad, 1, 0, check) is None
    good = json.dumps({"game": "jc", "sid": "ab"}, sort_keys=True).encode()
    bad = good.replace(b"jc", b"jd")
    assert _both(7, bad, 0, 5, session_crc(7, good, 0, 5)) == good


def test_a_whole_kilobyte_header_is_put_back_without_trying_every_value(monkeypatch: pytest.MonkeyPatch):
    """Not timed (a shared machine): counted. The old way computed 255 CRC-32s per header byte
    (about 260,000 for 1 KB); the look-up needs one for the row and one to confirm."""
    calls = []
    real = zlib.crc32

    def counted(data: bytes, value: int = 0) -> int:
        calls.append(len(data))
        return real(data, value)

    rng = random.Random(5)
    sid_, bad, current, ended, check = damaged(rng, 1024)
    monkeypatch.setattr(checks.zlib, "crc32", counted)
    got = one_byte_back(sid_, bad, current, ended, check)
    monkeypatch.undo()
    assert got is not None and session_crc(sid_, got, current, ended) == check
    assert len(bad) == 1024 and len(calls) <= 4, len(calls)
