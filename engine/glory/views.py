"""For the Glory of Rome's ``state`` (docs/protocol/glory.md), as TypedDicts: what ``view()``
answers, read by the device's screens through these types (mypy-checked)."""
from __future__ import annotations

from typing import TypedDict

from engine.views import SessionView


class EventCard(TypedDict):
    id: str
    label: str
    arrow: str                # the event's arrow (cw90, ccw180 …): who plays first and the turn
    harsh: bool


class PastEvent(TypedDict, total=False):
    id: str
    arrow: str
    round: int
    first: str        # who played first that round (not in games stored before issue 24)
    solo_denarii: int  # the Emperor's solo: the denarii the card gave as it was revealed (G-17; not in older games)


class TrackPlace(TypedDict):
    space: int
    flips: int


class GloryGameView(TypedDict):
    players: list[str]
    round: int
    rounds: int
    finished: bool
    options: dict[str, bool]                   # harsh, clockwise, heroes, truce
    event: EventCard | None
    direction: str | None
    first: str | None
    order: list[str] | None
    taxed: list[str]                           # who has taken income this round, in that order (G-4)
    facing: dict[str, str]
    populations: dict[str, int]                # province -> the population its last tax was on (G-4)
    token_province: str
    fame: dict[str, int]
    track: dict[str, TrackPlace]
    supporters: dict[str, int]
    milestones_earned: dict[str, list[int]]
    markers: dict[str, int]                    # "12", "21", "30" -> the milestone marker's space
    senate: list[str]                          # the Senate column, bottom first (G-7)
    medals: dict[str, str | None]              # medal -> holder
    events_left: int
    events: list[PastEvent]
    objectives: dict[str, int]
    sheet: dict[str, dict[str, int]]           # player -> score pad row -> figure (G-9..G-14)


class GloryView(SessionView, GloryGameView):
    """``state`` of a ``glory`` session."""


