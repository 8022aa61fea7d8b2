"""Caesar!'s ``state`` (docs/protocol/caesar.md), as TypedDicts: what ``view()`` answers for a solo
game against Auto-Crassus or a duel, read by the device's screens through these types
(mypy-checked). Fields only one mode has are ``NotRequired``."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.caesar.replies import NewStack, Step
from engine.views import SessionView


class SpaceView(TypedDict):
    by: str                                  # who placed the token (human/crassus, or caesar/pompey)
    token: str                               # ship:4/2 …
    toward: dict[str, int]                   # province -> the number facing it
    face_down: bool


class PositionView(TypedDict):
    bonuses: dict[str, str]                  # province -> its bonus token
    spaces: dict[str, SpaceView]
    control: dict[str, str]                  # closed province -> who controls it ("none": a tie)
    flipped_control: list[str]
    border_markers: dict[str, str]
    markers_left: dict[str, int]
    senate: dict[str, int]
    modules: dict[str, bool]                 # poison, centurions, border_control
    human_side: NotRequired[str]
    crassus_row: NotRequired[list[str]]


class Markers(TypedDict):
    left: int
    on_board: int
    under_senate: int
    removed: int


class HumanView(TypedDict):
    hand: list[str]
    bag: int
    bag_contents: list[str]
    centurions: list[str]
    draws_due: int
    draws_done: int                          # the draws made of those owed now (C-5, C-6, C-14): «1/2»
    pending: list[str]
    extra_turn: bool


class CrassusView(TypedDict):
    row: list[str]
    bag: int
    bag_contents: list[str]
    centurions_face_down: int


class TilesView(TypedDict):
    deck: str
    stack: int
    stack_left: str
    played: list[str]
    last: str | None
    revealed: str | None
    definitions: dict[str, str]              # letter -> actions (tiles= syntax)
    user_defined: list[str]
    unverified: bool
    unverified_letters: list[str]


class TurnPage(TypedDict):
    kind: str                                # tile, play, close, bonus, draw, end … (engine/caesar/turns.py)
    steps: list[int]                         # indexes into the turn's steps


class TurnRecord(TypedDict):
    """A turn as the device shows it, page by page (engine/caesar/turns.py ``turn_view``)."""

    steps: list[Step]                        # the steps (a play, a closure, a bonus, a draw …)
    id: str                                  # the turn's id (a checksum of all its steps)
    read_id: str                             # its name for the pages read (caesar.read): yours by its placement
    pages: list[TurnPage]
    current: bool                            # nothing has happened since this turn


class LastTurn(TurnRecord):
    """Auto-Crassus's last turn."""

    tile: str
    new_stack: NotRequired[NewStack]         # his stack ran out (the box's tiles): a "stack" page


class PlayerTurn(TurnRecord):
    """The player's last turn (solo) or the last player's (duel)."""

    by: str


class DuelPlayer(TypedDict):
    hand: int
    bag: int
    centurions: list[str]
    draws_due: int
    draws_done: int                          # the draws made of those owed now (C-5, C-6, C-14)


class Inputs(TypedDict):
    """Where the chance comes from (``new`` options): ``digital`` (the device draws) or ``physical``."""

    tiles: str
    crassus_bag: str
    human_bag: str


class CaesarGameView(TypedDict):
    mode: str                                # solo | duel
    position: PositionView
    turn: str
    step: str
    next: Any
    winner: str | None
    end: str | None
    turns: int
    rules: dict[str, str]                    # rule -> its value (edition, defend, harder, harder-when …; a duel: edition)
    inputs: Inputs
    markers: dict[str, Markers]
    bonus_pool: NotRequired[int]
    bonus_pool_left: NotRequired[list[str]]
    difficulty: NotRequired[str]
    side: NotRequired[str]
    crassus_side: NotRequired[str]
    human: NotRequired[HumanView]
    crassus: NotRequired[CrassusView]
    tiles: NotRequired[TilesView]
    last_crassus_turn: NotRequired[LastTurn | None]
    last_player_turn: NotRequired[PlayerTurn | None]
    players: NotRequired[dict[str, DuelPlayer]]
    pending: NotRequired[list[str]]
    extra_turn: NotRequired[bool]


class CaesarView(SessionView, CaesarGameView):
    """``state`` of a ``caesar-solo`` or ``caesar-duel`` session."""
