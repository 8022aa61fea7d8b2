"""Battles (W-2..W-5): totals, the winner, losses read die by die, the winner's support gain.

Each side rolls 3d6 (4d6 for Carthage with the Sacred Band) and adds its modifiers; the higher
total wins and a tie goes to the defender (W-3). Each side then reads each of its own three
unmodified dice on the loss table (``engine/data/sword_losses.json``) in the column for its result
and army size (W-4): ``L1``/``L2`` cost the loser 1/2 units, ``W1`` costs the winner 1 unit. Losses
stop at the units present.

The Sacred Band's fourth die counts in the total (W-2: "Carthage 4d6") but the loss table reads
three dice (W-4: "each of their own three unmodified dice"): the three highest. The seed has no
battle chapter and says nothing of the event; the digest names three dice and not which, and on the
loss table a higher die of a side's own never costs that side more (winner: 4-6 cost the loser;
loser: a 1 costs itself, 4-6 cost the winner), so the three highest are the three its player would
read if the card let him choose. The die left out is kept as the side's ``unread``.

The winner gains support equal to half the loser's actual losses (retreat losses included),
rounded up (W-5).

The army size is the one term the digest uses for the force ratio and the loss table alike (W-2:
the army's units plus half its flanking units, rounded up; W-4: "their army size (1 unit / 2 units
/ 3+ units)"), so the column is read by that size, not by every unit present: an army of 1 unit
with a flanking force of 2 is size 2 and reads the "2" column, though 3 units fight and can be
lost. The Russian fragment (seed) has no battle chapter to say otherwise. A side without flanking
units reads the column of its units, as every battle before flanking forces were entered.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.sword.tables import loss_table, tables

ATTACKER = "attacker"
DEFENDER = "defender"


def size_column(units: int) -> str:
    """The loss-table column for an army of ``units`` (>= 1): ``"1"``, ``"2"`` or ``"3+"``."""
    return "3+" if units >= 3 else str(units)


def army_size(units: int, flank: int = 0) -> int:
    """The army size (W-2) of a side with ``units`` present in all, ``flank`` of them in its flanking
    force: the others plus half the flanking units, rounded up (7 + 5 flanking -> 7 + 3 = 10)."""
    return units - flank + -(-flank // 2)


def read_dice(dice: list[int]) -> tuple[list[int], list[int]]:
    """The dice a side reads on the loss table and those it leaves out, each in the order thrown
    (W-4: three dice; the Sacred Band's four keep their three highest, the lowest left out)."""
    count = int(tables()["battle_dice"])
    if len(dice) <= count:
        return list(dice), []
    order = sorted(range(len(dice)), key=lambda i: (-dice[i], i))      # highest first, ties as thrown
    kept = set(order[:count])
    return [d for i, d in enumerate(dice) if i in kept], [d for i, d in enumerate(dice) if i not in kept]


def reading(die: int, won: bool, size: int) -> str:
    """The loss-table code for one unmodified ``die`` of a side that ``won`` or lost, in the column
    of its army ``size`` (W-4, :func:`army_size`)."""
    return str(loss_table()["winner" if won else "loser"][size_column(size)][die - 1])


@dataclass
class Side:
    """One side of a battle: ``units`` present (its flanking force's among them), its ``dice``, its
    net ``modifier``, ``flank``: the units of its flanking force (W-2)."""

    units: int
    dice: list[int]
    modifier: int
    losses: int = 0
    table_losses: int = 0
    flank: int = 0

    @property
    def total(self) -> int:
        return sum(self.dice) + self.modifier

    @property
    def size(self) -> int:
        """The army size (W-2), whose column the side reads on the loss table (W-4)."""
        return army_size(self.units, self.flank)

    def as_dict(self, retreat: int = 0) -> dict[str, Any]:
        """The side's fields; ``retreat``: its retreat losses when it lost. ``eliminated``: every one
        of its units eliminated by its battle and retreat losses (seed 8.4's word for the units; its
        leaders are displaced or set aside, never eliminated: docs/protocol/sword.md)."""
        flanking = {"flank": self.flank, "size": self.size} if self.flank else {}   # a side with none: as before
        unread = read_dice(self.dice)[1]                  # the Sacred Band's die the loss table leaves out (W-4)
        return {"units": self.units, **flanking, "dice": list(self.dice), **({"unread": unread} if unread else {}),
                "modifier": self.modifier,
                "total": self.total, "losses": self.losses, "table_losses": self.table_losses,
                "eliminated": self.losses + retreat >= self.units}


@dataclass
class Battle:
    """A resolved battle; ``readings`` lists every die read on the loss table, in order."""

    attacker: Side
    defender: Side
    winner: str
    support: int
    retreat: int = 0
    readings: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        retreat = {self.winner: 0, ATTACKER if self.winner == DEFENDER else DEFENDER: self.retreat}
        return {"attacker": self.attacker.as_dict(retreat[ATTACKER]), "defender": self.defender.as_dict(retreat[DEFENDER]),
                "winner": self.winner, "loser": DEFENDER if self.winner == ATTACKER else ATTACKER,
                "support": self.support, "retreat_losses": self.retreat,
                "readings": list(self.readings)}


def support_gain(losses: int, retreat: int) -> int:
    """The winner's support gain (W-5): half the units the loser actually lost (``losses`` read on
    the loss table and ``retreat`` losses while retreating), rounded up: 4 units lost give 2."""
    return -(-(losses + retreat) // 2)


def retreat_room(battle: Mapping[str, Any]) -> int:
    """How many units the loser of ``battle`` (its fields, :meth:`Battle.as_dict`) still has to
    lose while retreating: its units less the battle's losses."""
    loser = battle[battle["loser"]]
    return max(0, int(loser["units"]) - int(loser["losses"]))


def with_retreat(battle: Mapping[str, Any], retreat: int) -> dict[str, Any]:
    """``battle``'s fields with the loser's retreat losses set to ``retreat`` (replacing any given
    before) and the winner's support gain computed again (W-5); ``retreat`` must be within
    0..:func:`retreat_room`."""
    if not 0 <= retreat <= retreat_room(battle):
        raise ValueError(f"retreat losses {retreat} outside 0..{retreat_room(battle)}")
    out = copy.deepcopy(dict(battle))
    out["retreat_losses"] = retreat
    out["support"] = support_gain(int(battle[battle["loser"]]["losses"]), retreat)
    loser = out[battle["loser"]]                       # no units left with it (seed 8.4)
    loser["eliminated"] = int(loser["losses"]) + retreat >= int(loser["units"])
    for side in (ATTACKER, DEFENDER):                  # in the order a battle's reply gives them
        out[side] = _in_order(out[side], SIDE_FIELDS)
    return _in_order(out, BATTLE_FIELDS)


SIDE_FIELDS = ("units", "flank", "size", "dice", "unread", "modifier", "total", "losses", "table_losses", "eliminated")
BATTLE_FIELDS = ("attacker", "defender", "winner", "loser", "support", "retreat_losses", "readings")


def _in_order(fields: dict[str, Any], first: tuple[str, ...]) -> dict[str, Any]:
    """``fields`` with the keys ``first`` first, in that order (a record read back from the
    stored state has its keys sorted)."""
    return {**{k: fields[k] for k in first if k in fields}, **{k: v for k, v in fields.items() if k not in first}}


def resolve(attacker: Side, defender: Side, retreat: int = 0) -> Battle:
    """Decide the winner (ties to the defender), read the losses, compute the support gain.

    ``retreat``: units the loser loses while retreating (added before the support gain, and
    limited to the units the loser has left).
    """
    winner = ATTACKER if attacker.total > defender.total else DEFENDER
    win_side, lose_side = (attacker, defender) if winner == ATTACKER else (defender, attacker)
    readings = []
    for name, side in ((ATTACKER, attacker), (DEFENDER, defender)):
        won = name == winner
        for die in read_dice(side.dice)[0]:              # three dice (W-4), the Sacred Band's highest
            code = reading(die, won, side.size)
            readings.append({"side": name, "die": die, "reads": code})
            if code == "-":
                continue
            hit = win_side if code.startswith("W") else lose_side
            hit.table_losses += int(code[1:])
    for side in (attacker, defender):
        side.losses = min(side.units, side.table_losses)
    retreat = max(0, min(retreat, lose_side.units - lose_side.losses))
    support = support_gain(lose_side.losses, retreat)
    return Battle(attacker, defender, winner, support, retreat, readings)
