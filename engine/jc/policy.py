"""The quick-mode policy of reference J-14, used by ``auto``/``fight`` and by the exact odds.

Every block fires on its turn; nobody retreats voluntarily; attacking blocks retreat on their
round-4 turn. Among equally strong blocks the owner puts a hit on the lowest firepower first,
then a non-leader before a leader, then the block entered first. A battle of a game started now
(``leaders=last``, engine/jc/battle.py ``LEADERS_LAST``) puts a leader last among them instead
(``B.device_choice``): ``auto``/``fight`` place the hits on the owner's behalf, and J-7 leaves the
choice to the owner. :func:`choose_hit` and :func:`tie_key` stay J-14's; the odds and the advice
model the battle's own order (:func:`tie_key`, or ``B.careful_key`` with ``leaders=last``), so that they describe the fight the device makes.
"""
from __future__ import annotations

from typing import Any

from engine.errors import IllegalMove
from engine.jc import battle as B
from engine.rng import Rng
from engine.jc.text import Msg


# J-14's choice among equally strong blocks lives with the battle, which places a full tied level by it
# (J-7, ``ties=partial``): the same functions, under the names the odds and the tools use.
tie_key = B.tie_key
choose_hit = B.choose_hit


def action_for(battle: B.Battle, b: B.Block) -> str:
    """J-14: fire, except that attackers retreat on their round-4 turn (J-6)."""
    return "retreat" if "fire" not in B.actions_for(battle, b) else "fire"


def next_block(battle: B.Battle, d: dict[str, Any]) -> B.Block:
    """The block that takes the turn decision ``d`` by the policy: the one entered first."""
    group = [x for x in battle["blocks"] if x["key"] in d["blocks"]]
    return min(group, key=lambda x: x["seq"])


def auto_step(battle: B.Battle, rng: Rng, dice: list[int] | None = None) -> dict[str, Any]:
    """Take the next decision by the policy (a turn, or a pending hit). Returns the record.

    ``dice`` (physical faces) is used if the decision is a fire. Raises IllegalMove if there is
    nothing to decide.
    """
    if battle["phase"] == "setup":
        B.start(battle)
        if battle["phase"] != "fighting":
            return {}
    d = B.decision(battle)
    if d is None:
        raise IllegalMove(Msg("There is nothing left to decide in this battle."))
    if d["kind"] == "hit":
        return B.assign_hit(battle, None, B.device_choice)
    b = next_block(battle, d)
    if action_for(battle, b) == "retreat":
        return B.retreat(battle, b["key"])
    return B.fire(battle, b["key"], dice, rng, B.device_choice)


def fight(battle: B.Battle, rng: Rng) -> None:
    """Resolve the rest of the battle by the policy with digital dice."""
    if battle["phase"] == "setup":
        B.start(battle)
    while battle["phase"] == "fighting":
        auto_step(battle, rng)
