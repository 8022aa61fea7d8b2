"""PCG32 (O'Neill, pcg-random.org, ``pcg32_random_r``): a small PRNG with serialisable state.

We own the generator so that draws stay identical across Python versions and can be stored in
the game state (undo restores it, so undo never re-rolls).
"""
from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from engine.text import Msg

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005
T = TypeVar("T")


class Rng:
    """PCG-XSH-RR 64/32. ``to_json()`` gives ``[state, inc]``; ``Rng.from_json`` restores it."""

    __slots__ = ("state", "inc")

    def __init__(self, seed: int, stream: int = 54) -> None:
        """Seed as ``pcg32_srandom_r(seed, stream)``; both are taken modulo 2**64."""
        self.state = 0
        self.inc = ((stream << 1) | 1) & _MASK64
        self.next_u32()
        self.state = (self.state + (seed & _MASK64)) & _MASK64
        self.next_u32()

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Rng:
        """Restore from ``[state, inc]``; raises ValueError if malformed."""
        if len(data) != 2 or not all(isinstance(x, int) for x in data) or not data[1] & 1:
            raise ValueError(Msg("bad generator state {}", repr(data)))
        rng = cls.__new__(cls)
        rng.state, rng.inc = data[0] & _MASK64, data[1] & _MASK64
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

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias; raises ValueError if n < 1."""
        if n < 1:
            raise ValueError(Msg("below() needs n >= 1"))
        if n > _MASK32 + 1:
            raise ValueError(Msg("below() supports n <= 2**32"))
        threshold = ((_MASK32 + 1) - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n

    def die(self, sides: int) -> int:
        """One roll of a ``sides``-sided die, 1..sides."""
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        """One uniformly chosen element; raises IndexError on an empty sequence."""
        if not items:
            raise IndexError(Msg("choice from an empty sequence"))
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
