"""The Sword of Rome's ``state`` (docs/protocol/sword.md), as TypedDicts: what ``view()`` answers,
read by the device's screens through these types (mypy-checked)."""
from __future__ import annotations

from typing import NotRequired, TypedDict

from engine.sword.replies import LastBattle, LastRoll
from engine.views import SessionView


class Consuls(TypedDict):
    pool: list[str]
    drawn: list[str]
    turn: int | None        # the turn they were drawn in (W-10: once in each reinforcement phase); null before


class Unrest(TypedDict):
    level: int
    hand_size_modifier: int
    vp_modifier: int
    carthage_vp: int


class SwordGameView(TypedDict):
    factions: list[str]
    turn: int
    round: int
    finished: bool
    vp: dict[str, int]
    standings: list[str]
    desperate: dict[str, int]                 # Desperate Times cards left (W-12)
    consuls: Consuls
    last: LastRoll | None                     # the last roll kept (a battle, tactics, naval, check record)
    last_battle: LastBattle | None            # the most recent battle, whatever rolled since (its retreat losses: W-5)
    unrest: NotRequired[Unrest]               # with Carthage only (W-13)
    automatic: NotRequired[str]               # the power that won by automatic victory (W-11), once one has
    desperate_end: NotRequired[list[str]]     # who played a card at the end of this turn's round 5 (W-12, rule 7.4.5)


class SwordView(SessionView, SwordGameView):
    """``state`` of a ``sword`` session."""
