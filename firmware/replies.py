"""What the device's store answers a screen through :class:`firmware.screens.ctx.Ctx`, as
TypedDicts: History entries (firmware/history.py ``games`` with firmware/fairness.py ``attach``)
and archived sessions (firmware/store.py ``archives``). The console's own responses are typed in
engine/replies.py and engine/<game>/replies.py.

This module imports nothing of firmware/ (it sits under the screens and the store alike).
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.text import Msg


class HistoryPlayer(TypedDict):
    """One player of a History game (firmware/games.py ``player``; firmware/history.py
    ``with_people`` adds the side's ``role`` to a player named after a side)."""

    name: str
    score: Any
    """Their score (a number; None when the game keeps none)."""
    winner: bool
    startPlayer: bool
    role: NotRequired[str]


class HistoryEntry(TypedDict):
    """One recorded game, newest first in ``ctx.history()`` (docs/protocol.md: ``history``)."""

    id: int
    game: str
    """The session's game id (``jc-battle``, ``caesar-solo`` …)."""
    name: str
    """The box's name (Julius Caesar, Caesar! …)."""
    status: str
    """``finished`` (its rules ended it), ``ended`` or ``abandoned``."""
    started: str | None
    """When it began (ISO date and time; None unknown)."""
    finished: str | None
    mode: dict[str, Any]
    """The game's own facts (``difficulty``, ``expansions``, ``number`` …: its record in
    firmware/screens/<game>/record.py says which)."""
    players: list[HistoryPlayer]
    result: Msg
    part: str
    """Which part of the session (a JC battle, the campaign …)."""
    sid: str
    unsynced: list[str]
    # with its fair draw, public once the session has ended (None before)
    seed: NotRequired[int | None]
    share: NotRequired[str | None]
    commitment: NotRequired[str | None]


class ArchiveHeader(TypedDict):
    """A session's header as stored (firmware/session.py ``Session.start``)."""

    v: NotRequired[int]
    """The draws' derivation (absent: 1)."""
    game: str
    line: str
    """Its ``new`` line."""
    seed: int
    sid: str
    committed: NotRequired[bool]


class ArchivedSession(TypedDict):
    """One archived session, newest first in ``ctx.archives()``."""

    header: ArchiveHeader
    lines: list[str]
    """Its effective lines (undone ones left out)."""
    ended: float
    """When it was left (epoch seconds; 0 unknown)."""
