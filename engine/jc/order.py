"""Who takes a battle turn when (J-5, J-10, J-2 ballista letters).

A round is a list of *steps* ``(role, letter)``; every block in the fight whose side has that role
and whose initiative letter matches takes its turn in that step (the owner orders a step's blocks).
"""
from __future__ import annotations

from engine.jc.roster import BALLISTA_ATTACKING, BALLISTA_DEFENDING, LETTERS

ROLES = ("attacker", "defender")
LAST_ROUND = 4


def step_order(round_no: int, surprise: bool) -> list[tuple[str, str]]:
    """The steps of round ``round_no``.

    J-5: defending A, attacking A, defending B, ... attacking D. J-10 (Mars/Neptune): in round 1
    of a surprise battle all attacking steps come before all defending steps.
    """
    if surprise and round_no == 1:
        return [("attacker", x) for x in LETTERS] + [("defender", x) for x in LETTERS]
    return [(role, x) for x in LETTERS for role in ("defender", "attacker")]


def ballista_rating(role: str) -> tuple[str, int]:
    """J-2: the ballista is D4 while its side attacks and B4 while it defends."""
    return BALLISTA_ATTACKING if role == "attacker" else BALLISTA_DEFENDING
