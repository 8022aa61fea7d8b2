"""The ``state`` of a bag or dice session, and of the side kit beside a game (``kit-state``), as
TypedDicts (engine/kit.py): what a person may see — counts and what is out, never a deck's order."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.views import SessionView


class BagView(TypedDict):
    left: dict[str, int]                     # item -> how many are still in the bag
    size: int
    drawn: list[str]
    history: list[dict[str, Any]]            # the newest events (engine/bag.py HISTORY_KEPT): {"draw": [...]} / {"put": name}
    events: NotRequired[int]                 # how many events in all (``actions`` pages through them)


class DeckView(TypedDict):
    draw_pile: int
    hand: list[str]
    discard: list[str]
    history: list[dict[str, Any]]            # the newest events
    events: NotRequired[int]                 # how many events in all


class HolderView(TypedDict):
    bag: NotRequired[BagView]
    deck: NotRequired[DeckView]


class KitGameView(HolderView):
    rolls: list[dict[str, Any]]              # the last rolls (dice, sides, mod, total …)


class KitView(SessionView, KitGameView):
    """``state`` of a ``bag`` or ``dice`` session."""
