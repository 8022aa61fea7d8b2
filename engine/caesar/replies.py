"""Caesar!'s console responses (docs/protocol/caesar.md), as TypedDicts: what a screen reads from
``ctx.run(caesar_actions.…)``, and the steps of a turn (``crassus``, ``play``, the view's
``last_crassus_turn``/``last_player_turn``). The envelope (``ok``, ``error``, ``message``,
``state``) is engine/replies.py :class:`Reply`; the fields below are there when ``ok`` is true.
Texts (``Msg`` in the engine) arrive as strings in the language chosen."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.replies import Reply


class Step(TypedDict, total=False):
    """One step of a turn (engine/caesar/flow.py, rules.py, turns.py). Its ``action`` says which
    fields it has: ``play`` (``by``, ``space``, ``token``, ``toward``, ``face_down``; Auto-Crassus's
    also ``step``, ``rule``, ``row_index``, ``province``, ``why``; S-19: ``skipped``), ``close``
    (``province``, ``by``, ``totals``, ``winner``, ``markers``, ``border_markers``, ``bonus``),
    ``bonus`` (``bonus``, ``by``), ``draw`` (``tokens``, ``by``, ``private``), ``discard``
    (``tokens``, ``skipped``), ``centurion`` (``token``, ``short``); most have ``text``."""

    action: str
    by: str
    space: str
    token: str | None
    """None: a centurion he could not take (``short``)."""
    tokens: list[str]
    toward: dict[str, int]
    face_down: bool
    province: str
    totals: dict[str, int]
    winner: str
    markers: int
    border_markers: list[str]
    bonus: str | None
    step: str | None
    """Auto-Crassus's priority step (None: S-19, he could not place)."""
    rule: str
    row_index: int
    why: str
    text: str
    short: bool
    skipped: bool
    private: bool


class DecideReply(Reply):
    """``decide``: the play Auto-Crassus would make now (a play step without ``action``: the
    places are None when he cannot place, S-19); with several equally good plays, ``random`` and
    ``plays`` (each with its ``text``)."""

    step: str | None
    rule: str
    space: str | None
    token: str | None
    row_index: NotRequired[int | None]
    toward: dict[str, int] | None
    province: str | None
    why: str
    text: str | None
    random: NotRequired[bool]
    plays: NotRequired[list[Step]]


class PlayReply(Reply):
    play: Step
    closed: list[Step]
    bonuses: list[Step]
    steps: list[Step]
    winner: str | None
    next: Any


class NewStack(TypedDict):
    """S-5 with the box's tiles: his stack ran out in this turn and the table makes it anew."""

    tiles: str                               # the letters of the new stack (sorted)
    aside: str | None                        # the tile kept out of it (reshuffle=keep-last, UA)
    text: Any                                # the sentence saying which tiles to shuffle (the edition's rule)


class CrassusReply(Reply):
    tile: str
    tile_actions: str
    steps: list[Step]
    winner: str | None
    next: Any
    new_stack: NotRequired[NewStack]


class RevealTileReply(Reply):
    tile: str
    tile_actions: str
    draws: int
    centurions: int


class DrawReply(Reply):
    token: str
    side: str
    draws_due: int
    next: Any
    private: bool


class BonusReply(Reply):
    """``might``, ``centurion``: the bonus step taken."""

    bonus: Step
    next: Any


class HandReply(Reply):
    side: str
    hand: list[str]
    drawn: list[str]                         # the last of ``hand``: drawn by the device in the turn just played
    private: bool


class Move(TypedDict, total=False):
    space: str
    token: str
    toward: dict[str, int]
    face_down: bool


class MovesReply(Reply):
    side: str
    moves: list[Move]
    face_down: list[Move]
    count: int


class Closing(TypedDict):
    """A province a placement would close (engine/caesar/preview.py ``Closing``)."""

    province: str
    totals: dict[str, int]
    winner: str
    markers: int
    border_markers: list[str]
    bonus: str | None
    text: str


class PreviewReply(Reply):
    closes: list[Closing]
    senate_markers: int
    ends_game: bool
    winner: str | None
    markers_left: dict[str, int]
    bonus_unknown: bool
    text: str | None


class GuideStep(TypedDict):
    """One thing to do at the table (engine/caesar/guide.py ``GuideStep``)."""

    key: str
    text: str
    tokens: list[str]
    bonuses: dict[str, str]


class GuideReply(Reply):
    steps: list[GuideStep]
