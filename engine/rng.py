"""PCG32 (O'Neill, pcg-random.org, ``pcg32_random_r``): a small PRNG with serialisable state, and
:class:`Draws`, the sources of chance of one session.

We own the generator so that draws stay identical across Python versions and can be stored in
the game state (undo restores it, so undo never re-rolls).

A session's draws come from *streams*, one per source of chance (a bag, a deck, a die pool,
Caesar!'s tiles, ...), each a PCG32 generator seeded from the session's committed secret, the
players' share and the stream's name (docs/fairness.md, "The streams")::

    digest = SHA-256(UTF-8 "legatus-draws:2:<secret>:<stream>:<share>")   (share "" when none)
    stream = PCG32 seeded (initstate = digest[0:8], initseq = digest[8:16]), both big-endian

Sessions stored before version 2 (``Draws.legacy``) drew everything from one generator,
``PCG32(seed, 54)``, in the order the draws happened; they keep doing so, so they replay exactly.

A generator can carry a *tape*: a list to which every draw is appended as
``[stream, kind, ...]`` (the draw record that scripts/verify_draws.py checks). Tapes exist only
while a record is being made (firmware/fairness.py); a session's state never holds one.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, TypeVar

from engine.text import Msg

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005
T = TypeVar("T")
Tape = list[list[Any]]

DRAWS_VERSION = 2          # the derivation of new sessions (header "v")
SHARE_MAX = 64             # the players' share: 1-64 printable characters, no spaces


class Rng:
    """PCG-XSH-RR 64/32. ``to_json()`` gives ``[state, inc]``; ``Rng.from_json`` restores it.

    ``tape``/``label``: when ``tape`` is a list, every draw is appended to it as
    ``[label, kind, ...]`` (see docs/fairness.md for the kinds)."""

    __slots__ = ("state", "inc", "tape", "label")

    def __init__(self, seed: int, stream: int = 54) -> None:
        """Seed as ``pcg32_srandom_r(seed, stream)``; both are taken modulo 2**64."""
        inc = ((stream << 1) | 1) & _MASK64
        self.inc = inc
        self.tape: Tape | None = None
        self.label = ""
        # pcg32_srandom_r: state 0, one step (state = inc), add the seed, one step (next_u32's
        # state update; the two outputs are not used)
        self.state = ((((inc + (seed & _MASK64)) & _MASK64) * _MULT) + inc) & _MASK64

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Rng:
        """Restore from ``[state, inc]``; raises ValueError if malformed."""
        if (not isinstance(data, (list, tuple)) or len(data) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in data) or not data[1] & 1):
            raise ValueError(Msg("bad generator state {}", repr(data)[:80]))
        rng = cls.__new__(cls)
        rng.state, rng.inc = data[0] & _MASK64, data[1] & _MASK64
        rng.tape, rng.label = None, ""
        return rng

    def to_json(self) -> list[int]:
        return [self.state, self.inc]

    def next_u32(self) -> int:
        """The next 32-bit output."""
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def _below(self, n: int) -> int:
        if n < 1:
            raise ValueError(Msg("below() needs n >= 1"))
        if n > _MASK32 + 1:
            raise ValueError(Msg("below() supports n <= 2**32"))
        threshold = ((_MASK32 + 1) - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n

    def note(self, kind: str, *args: Any) -> None:
        """Append ``[label, kind, *args]`` to the tape, if there is one (events that are not
        draws but that a checker must follow, e.g. an item put back into a bag)."""
        if self.tape is not None:
            self.tape.append([self.label, kind, *args])

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias; raises ValueError if n < 1.
        Tape: ``["below", n, k]``."""
        k = self._below(n)
        if self.tape is not None:
            self.tape.append([self.label, "below", n, k])
        return k

    def die(self, sides: int) -> int:
        """One roll of a ``sides``-sided die, 1..sides (``below(sides) + 1``). Tape: ``["die", sides, v]``."""
        v = self._below(sides) + 1
        if self.tape is not None:
            self.tape.append([self.label, "die", sides, v])
        return v

    def choice(self, items: Sequence[T]) -> T:
        """One uniformly chosen element (``items[below(len)]``); raises IndexError on an empty
        sequence. Tape: ``["below", len, k]``."""
        if not items:
            raise IndexError(Msg("choice from an empty sequence"))
        return items[self.below(len(items))]

    def take(self, counts: dict[str, int], walk: Sequence[str] | None = None) -> str:
        """One item from a bag of named ``counts`` (each item equally likely), whose count goes
        down by one: ``k = below(total)``, then walk the names in sorted (code point) order, or in
        the order ``walk`` (every name with a count), subtracting each name's count from ``k``
        until ``k`` falls inside one. Raises IndexError if the bag is empty. Tape:
        ``["draw", name]``, ``["draw", name, walk]`` with a ``walk``."""
        total = sum(counts.values())
        if total < 1:
            raise IndexError(Msg("draw from an empty bag"))
        k = self._below(total)
        for name in sorted(counts) if walk is None else walk:
            c = counts.get(name, 0)
            if k < c:
                counts[name] = c - 1
                if self.tape is not None:
                    self.tape.append([self.label, "draw", name] + ([] if walk is None else [list(walk)]))
                return name
            k -= c
        raise AssertionError("unreachable: k < total")

    def pop(self, items: list[T], shown: Callable[[T], Any] | None = None) -> T:
        """Remove and return a uniformly chosen element: ``items.pop(below(len(items)))``.
        Tape: ``["pick", [shown(x) for x in items], shown(item)]`` (the list before the pick)."""
        if not items:
            raise IndexError(Msg("pop from an empty sequence"))
        before = None if self.tape is None else [shown(x) if shown else x for x in items]
        item = items.pop(self._below(len(items)))
        if self.tape is not None:
            self.tape.append([self.label, "pick", before, shown(item) if shown else item])
        return item

    def shuffle(self, items: MutableSequence[T], shown: Callable[[T], Any] | None = None) -> None:
        """Fisher–Yates shuffle in place: for i from len-1 down to 1, swap i and ``below(i+1)``.
        Tape: ``["shuffle", before, after]``."""
        before = None if self.tape is None else [shown(x) if shown else x for x in items]
        for i in range(len(items) - 1, 0, -1):
            j = self._below(i + 1)
            items[i], items[j] = items[j], items[i]
        if self.tape is not None:
            self.tape.append([self.label, "shuffle", before, [shown(x) if shown else x for x in items]])


def _sha256_class() -> Any:
    """SHA-256 from CPython's own module (``_sha256`` in 3.11, ``_sha2`` from 3.12): the same
    digests as ``hashlib.sha256``, without loading OpenSSL's libcrypto, which ``import hashlib``
    does (3.4 to 3.6 MB resident on this machine, a tenth of the device's memory budget);
    hashlib's where the interpreter was built without them."""
    for name in ("_sha256", "_sha2"):
        try:
            return importlib.import_module(name).sha256
        except (ImportError, AttributeError):
            continue
    return importlib.import_module("hashlib").sha256


_SHA256 = _sha256_class()


def sha256_digest(data: bytes) -> bytes:
    """The SHA-256 digest of ``data`` (32 bytes)."""
    return bytes(_SHA256(data).digest())


def sha256_hasher(data: bytes = b"") -> Any:
    """A SHA-256 object fed ``data`` (``update``, ``copy``, ``hexdigest``: a digest over text that
    grows is carried on, not computed again)."""
    return _SHA256(data)


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` as 64 lowercase hex characters."""
    return str(_SHA256(data).hexdigest())


def stream_seed(secret: int, share: str, name: str) -> tuple[int, int]:
    """The PCG32 seeding (initstate, initseq) of stream ``name`` (docs/fairness.md)."""
    digest = sha256_digest(f"legatus-draws:2:{secret}:{name}:{share}".encode())
    return int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")


def commitment(seed: int) -> str:
    """The public commitment to the secret ``seed`` (docs/fairness.md): the lowercase hex SHA-256
    of the UTF-8 text ``legatus-seed:<seed>`` (the seed in decimal), 64 characters, shown before
    the first draw (firmware/fairness.py)."""
    return sha256_hex(f"legatus-seed:{seed}".encode())


def check_share(text: str) -> str | None:
    """None if ``text`` can be the players' share, else what is wrong with it (a Msg)."""
    if not 1 <= len(text) <= SHARE_MAX:
        return Msg("The share is 1 to {} characters, not {}.", SHARE_MAX, len(text))
    if not all(ch.isprintable() and not ch.isspace() for ch in text):
        return Msg("The share is one word of printable characters (no spaces or control characters).")
    return None


class Draws:
    """The sources of chance of one session: one generator per named stream (version 2), or the
    single generator of a session stored before version 2 (``legacy``), which every stream name
    then shares (so old sessions draw exactly as they did).

    JSON: version 2 ``{"v": 2, "secret": S, "share": "...", "s": {stream: [state, inc]}}``
    (streams appear once used); legacy ``[state, inc]``; either may carry ``"tape"`` while a
    draw record is being made (legacy then ``{"v": 1, "g": [state, inc], "tape": [...]}``)."""

    __slots__ = ("secret", "share", "_streams", "_one", "tape")

    def __init__(self) -> None:
        self.secret = 0
        self.share = ""
        self._streams: dict[str, Rng] = {}
        self._one: Rng | None = None
        self.tape: Tape | None = None

    @classmethod
    def legacy(cls, seed: int) -> Draws:
        """Everything from one ``Rng(seed)`` (sessions stored before version 2, tests, tools)."""
        d = cls()
        d.secret = seed
        d._one = Rng(seed)
        return d

    @classmethod
    def keyed(cls, secret: int, share: str = "") -> Draws:
        """Version 2: each stream seeded from (secret, share, stream name)."""
        d = cls()
        d.secret, d.share = secret, share
        return d

    @classmethod
    def coerce(cls, source: Draws | int) -> Draws:
        """A Draws as given, or ``legacy(seed)`` for a plain seed."""
        return source if isinstance(source, Draws) else cls.legacy(source)

    @property
    def is_legacy(self) -> bool:
        return self._one is not None

    def stream(self, name: str) -> Rng:
        """The generator of stream ``name`` (created on first use)."""
        if self._one is not None:
            self._one.label = name
            return self._one
        rng = self._streams.get(name)
        if rng is None:
            rng = Rng(*stream_seed(self.secret, self.share, name))
            self._streams[name] = rng
        rng.tape, rng.label = self.tape, name
        return rng

    def put(self, name: str, rng: Rng) -> None:
        """Make ``rng`` the current generator of stream ``name``."""
        if self._one is not None:
            self._one = rng
        else:
            self._streams[name] = rng

    def drawn(self) -> bool:
        """Whether anything has been drawn yet (a legacy session counts as drawn: it takes no share)."""
        if self._one is not None:
            return True
        return any(rng.state != Rng(*stream_seed(self.secret, self.share, name)).state
                   for name, rng in self._streams.items())

    def record(self, tape: Tape) -> None:
        """Append every draw from now on to ``tape`` (a draw record)."""
        self.tape = tape
        for rng in ([self._one] if self._one is not None else self._streams.values()):
            rng.tape = tape

    def to_json(self) -> Any:
        if self._one is not None:
            if self.tape is None:
                return self._one.to_json()
            return {"v": 1, "g": self._one.to_json(), "tape": self.tape}
        out: dict[str, Any] = {"v": 2, "secret": self.secret, "share": self.share,
                               "s": {k: v.to_json() for k, v in sorted(self._streams.items())}}
        if self.tape is not None:
            out["tape"] = self.tape
        return out

    @classmethod
    def from_json(cls, data: Any) -> Draws:
        """Restore from :meth:`to_json`; raises ValueError if malformed. A tape is kept by
        reference (the record goes on growing)."""
        d = cls()
        if isinstance(data, list):
            d._one = Rng.from_json(data)
            return d
        if not isinstance(data, dict):
            raise ValueError(Msg("bad generator state {}", repr(data)[:80]))
        tape = data.get("tape")
        if tape is not None and not isinstance(tape, list):
            raise ValueError(Msg("bad draw record {}", repr(tape)[:80]))
        d.tape = tape
        if data.get("v") == 1:
            d._one = Rng.from_json(data.get("g", []))
            d._one.tape = tape
            return d
        secret, share, streams = data.get("secret"), data.get("share"), data.get("s")
        if (data.get("v") != 2 or not isinstance(secret, int) or isinstance(secret, bool)
                or not isinstance(share, str) or not isinstance(streams, dict)):
            raise ValueError(Msg("bad generator state {}", repr(data)[:80]))
        d.secret, d.share = secret, share
        for name, value in streams.items():
            rng = Rng.from_json(value)
            rng.tape, rng.label = tape, str(name)
            d._streams[str(name)] = rng
        return d
