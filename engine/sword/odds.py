"""Exact battle odds (W-6): the attacker wins when its dice plus the net modifier beat the
defender's dice (a tie goes to the defender). Computed by enumerating every sum of the dice."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product


@lru_cache(maxsize=None)
def sum_counts(n_dice: int) -> dict[int, int]:
    """How many of the 6**n outcomes of ``n_dice`` d6 give each sum (full enumeration)."""
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=n_dice):
        s = sum(faces)
        counts[s] = counts.get(s, 0) + 1
    return counts


def attacker_wins(net: int, attacker_dice: int = 3, defender_dice: int = 3) -> Fraction:
    """P(attacker's dice + ``net`` > defender's dice), exactly."""
    att, dfd = sum_counts(attacker_dice), sum_counts(defender_dice)
    wins = sum(ca * cd for a, ca in att.items() for d, cd in dfd.items() if a + net > d)
    return Fraction(wins, 6 ** (attacker_dice + defender_dice))
