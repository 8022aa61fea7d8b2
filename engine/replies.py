"""The console's responses (PROTOCOL.md: one JSON object per line), as TypedDicts: what a screen
reads from ``ctx.run(line)``. Every typed action builder (engine/actions.py, engine/<game>/actions.py)
returns a ``Line[R]`` whose ``R`` is one of these, so the response a screen reads is typed by the
line it sent. This module holds the envelope (:class:`Reply`) and the session's own commands'
responses; each game's are in ``engine/<game>/replies.py`` (docs/protocol.md, docs/protocol/*.md).

The fields a response adds to :class:`Reply` are there when ``ok`` is true (an error carries
``error`` and ``message`` only): read them after checking ``ok``.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.kit_views import HolderView


class Reply(TypedDict):
    """Every response: ``ok``; on an error its code (``bad_arguments``, ``illegal_move`` …) and the
    message for a person; a mutating line's response also carries the session's ``state``."""

    ok: bool
    error: NotRequired[str]
    message: NotRequired[str]
    state: NotRequired[dict[str, Any]]
    """The session view after the line (engine/views.py ``SessionView`` and the game's fields):
    on every mutating line's response, and ``state``'s."""


# -- the session (PROTOCOL.md) ---------------------------------------------------------------------
class NewReply(Reply):
    """``new <game> …``: the game started; its fair-draw commitment and the players' share when
    the seed is secret."""

    game: str
    commitment: NotRequired[str]
    share: NotRequired[str]


class UndoReply(Reply):
    undone: str
    """The step taken back, as a sentence."""


class StateReply(Reply):
    """``state``: the session view in ``state`` (engine/views.py ``SessionView`` and the game's
    own fields, engine/<game>/views.py; a screen reads it through ``ctx.view()``)."""


class Action(TypedDict):
    n: int
    """The action's number (1 = the first of the session)."""
    line: str
    text: str
    """The action as a sentence."""


class ActionsReply(Reply):
    """``actions n [before=k]``: a page of the session's effective actions, newest first."""

    actions: list[Action]
    total: int
    before: int | None


class LogReply(Reply):
    log: list[str]


class CommitReply(Reply):
    commitment: str


class ShareReply(Reply):
    """``share <text>``: the players' share, taken before anything was drawn."""

    share: str


class EndReply(Reply):
    """``end``: ``finished`` if the game's rules had ended it, else ``ended``."""

    ended: str


class RevealReply(Reply):
    """``reveal``, once the game has ended: the seed, the players' share and the commitment (None
    for a game started with ``seed=``, which had nothing to commit to)."""

    seed: int
    share: str | None
    commitment: str | None
    ended: str | None


class SettingsReply(Reply):
    settings: dict[str, Any]
    """The device settings with their defaults (firmware/settings.py)."""


class ExportReply(Reply):
    format: str
    text: str


# -- dice and bags (engine/common.py, engine/kit.py) ---------------------------------------------------
class RollReply(Reply):
    dice: list[int]
    total: int
    rerolled: NotRequired[list[int]]


class RollRecord(TypedDict):
    """A roll kept in the session (engine/dice.py)."""

    expr: str
    dice: list[int]
    sides: int
    mod: int
    total: int
    rerolled: list[int]
    previous: NotRequired[list[int]]
    """A re-roll: the dice before it."""


class RollsReply(Reply):
    rolls: list[RollRecord]


class KitReply(Reply):
    """``kit new …``, ``kit-state`` (engine/kit.py): the side kit beside the game."""

    kit: HolderView


class BagReply(Reply):
    """A bag or deck command (engine/kit.py): what it drew, put or discarded; ``kit …`` commands
    also carry the side kit."""

    drawn: NotRequired[list[str]]
    """``draw``: the items drawn."""
    cards: NotRequired[list[str]]
    """``card``: the cards drawn."""
    left: NotRequired[int]
    """``put``: the bag's size now."""
    discard: NotRequired[list[str]]
    draw_pile: NotRequired[int]
    """``shuffle``, ``reshuffle``."""
    kept: NotRequired[int]
    """``shuffle``, ``reshuffle``: the top cards left on top, shown and undone (absent: none)."""
    kit: NotRequired[HolderView]


# -- the players this device has seen (firmware/players.py) -----------------------------------------------
class PlayersReply(Reply):
    players: list[str]
    was: NotRequired[dict[str, list[str]]]
    forgotten: NotRequired[str]
    renamed: NotRequired[str]
