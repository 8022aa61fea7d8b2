"""The Senate column (G-7): at most 5 votes, listed bottom -> top.

Placing a sixth vote pushes the bottom one back to its owner. Each player owns 5 vote pieces: with
all five in the column there is none to place. Supremacy: placing a vote on top of
two of your own votes that are on top already (checked for every vote placed, never on removal).
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.glory.tables import tables
from engine.glory.text import Msg


@dataclass(frozen=True)
class Placed:
    """One vote placed: ``supremacy`` if it made one, ``pushed_out`` the owner of the bottom vote
    that went back to its board (None if the column had room)."""

    player: str
    supremacy: bool
    pushed_out: str | None


def place_vote(column: list[str], player: str) -> Placed:
    """Put ``player``'s vote on top of ``column`` (changed in place) (G-7).

    Raises ValueError (with a sentence), changing nothing, when all the player's vote pieces are
    in the column already: none is left on their board to place.
    """
    own = int(tables()["votes_per_player"])
    if column.count(player) >= own:
        raise ValueError(Msg("All {} votes of {} are in the Senate column: none is left on the board to place.",
                             own, player))
    supremacy = len(column) >= 2 and column[-1] == player and column[-2] == player
    column.append(player)
    pushed = column.pop(0) if len(column) > int(tables()["senate_size"]) else None
    return Placed(player, supremacy, pushed)


def remove_vote(column: list[str], player: str, position: int | None) -> int:
    """Take one of ``player``'s votes out of ``column`` (an intrigue); returns its 1-based
    position from the bottom. ``position`` picks which vote when the player has several.

    Raises ValueError (with a sentence) if the player has no vote there, or if ``position`` is
    needed but missing, or does not hold one of their votes.
    """
    mine = [i + 1 for i, owner in enumerate(column) if owner == player]
    if not mine:
        raise ValueError(Msg("{} has no vote in the Senate column.", player))
    if position is None:
        if len(mine) > 1:
            where = ", ".join(map(str, mine))
            raise ValueError(Msg("{} has votes at positions {} (1 = bottom); say which with at=N.", player, where))
        position = mine[0]
    if position not in mine:
        raise ValueError(Msg("Position {} does not hold a vote of {} (theirs: {}; 1 = bottom).", position, player, ', '.join(map(str, mine))))
    del column[position - 1]
    return position


def supremacy_fame(politician: bool) -> int:
    """Fame for a supremacy: 2, or 3 with the Politician medal (G-7)."""
    return int(tables()["politician_supremacy_fame" if politician else "supremacy_fame"])
