"""Tactics tests (W-1): interception, avoiding battle, pursuit, refusing battle.

Roll 1d6; the test succeeds if the modified roll is at most the commander's Tactics rating
(a force without a leader has Tactics 0).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.sword.text import N_, Msg

KINDS: dict[str, tuple[str, str]] = {
    # kind -> (effect on success, effect on failure): sentences for a person, translated where shown;
    # the defender's -1 written with the minus sign, as every figure the Sword's screens sign
    "intercept": (N_("the defender gets +1 in the battle that follows (W-1)"), N_("no interception")),
    "avoid": (N_("the force avoids battle"), N_("the defender gets −1 in the battle (W-1)")),
    "pursuit": (N_("the pursuit succeeds"), N_("no pursuit")),
    "refuse": (N_("battle is refused"), N_("battle takes place")),
}


def effect(kind: str | None, success: bool) -> Msg | None:
    """What a test of ``kind`` (intercept, avoid, pursuit, refuse) that succeeded or failed does
    (W-1), made from those facts wherever it is shown; None for a bare test or an unknown kind."""
    said = KINDS.get(kind) if isinstance(kind, str) else None
    return Msg(said[0 if success else 1]) if said is not None else None


def chance(rating: int, mod: int) -> Fraction:
    """Probability that ``1d6 + mod <= rating`` (W-1), known before the roll."""
    return Fraction(sum(1 for d in range(1, 7) if d + mod <= rating), 6)


@dataclass(frozen=True)
class TacticsTest:
    """One test: the ``die``, the ``modified`` roll, ``success`` and the ``chance`` it had."""

    rating: int
    mod: int
    die: int
    modified: int
    success: bool
    chance: Fraction


def test(rating: int, mod: int, die: int) -> TacticsTest:
    """Resolve a tactics test with die face ``die`` (1..6)."""
    modified = die + mod
    return TacticsTest(rating, mod, die, modified, modified <= rating, chance(rating, mod))
