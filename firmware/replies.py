"""What the device's store answers a screen through :class:`firmware.screens.ctx.Ctx`, as
TypedDicts: History entries (firmware/history.py ``games`` with firmware/fairness.py ``attach``)
and archived sessions (firmware/store.py ``archives``). The console's own responses are typed in
engine/replies.py and engine/<game>/replies.py.

This module imports nothing of firmware/ (it sits under the screens and the store alike).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NotRequired, Required, TypedDict, cast

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
    damaged: NotRequired[bool]
    """True: their score was damaged on the card and nothing held it again (firmware/history_rebuild.py:
    ``score`` is None then, and the game's page and exports say why)."""


class HistoryMode(TypedDict, total=False):
    """A History game's own facts, as its game's record (firmware/screens/<game>/record.py
    ``finished``) keeps them; ``kind`` says which: Caesar! ``solo`` (``difficulty``, ``side``,
    ``crassus_side``, ``expansions``, ``edition``) or ``duel`` (``expansions``, ``edition``);
    Julius Caesar ``battle`` (``number``, ``attacker``, ``surprise``, ``winner_role``) or
    ``campaign`` (``year``); Glory ``table`` (``players``, ``expansions``); the Sword of Rome
    ``table`` (``powers``, ``turn``); shown to a person,
    Caesar's ``expansions`` are said as one phrase and its edition goes to ``notes``. A game
    abandoned or ended before its rules ended it: ``kind`` ``abandoned`` or ``ended`` alone."""

    kind: Required[str]
    difficulty: str
    side: str
    crassus_side: str
    expansions: list[str]
    edition: str
    notes: list[str]
    number: int
    attacker: str
    surprise: bool
    winner_role: str | None
    year: int
    players: int
    powers: int
    turn: int | None


class PlayedEntry(TypedDict):
    """One recorded game as the statistics read it (``ctx.played``, firmware/history_played.py ``played``):
    a :class:`HistoryEntry` read light — no result sentence, no fair draw."""

    id: int
    game: str
    status: str
    part: str
    """Which part of the session (a JC battle, the campaign …)."""
    sid: str
    """The session: its parts (a JC campaign's battles and verdict) are one game."""
    finished: str | None
    mode: HistoryMode
    players: list[HistoryPlayer]
    of: NotRequired[str]
    """A copy's record (a game reopened from Earlier games): the session the game was first played in."""


class ReplacedResult(TypedDict):
    """A result History held before the game finished again (``history``'s ``replaced``)."""

    result: Msg
    finished: str | None


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
    mode: HistoryMode
    players: list[HistoryPlayer]
    result: Msg
    part: str
    """Which part of the session (a JC battle, the campaign …)."""
    sid: str
    unsynced: list[str]
    of: NotRequired[str]
    """A copy's record (a game reopened from Earlier games): the session the game was first played in."""
    minutes: NotRequired[int | None]
    """The play's minutes as the device measured them (firmware/history.py; None: not known; absent
    in a record made before it measured them)."""
    replaced: list[ReplacedResult]
    """The results a later finish replaced (an undo past a sealed finish, then another finish:
    firmware/history_follow.py), oldest first; empty for most games."""
    # with its fair draw, public once the session has ended (None before)
    seed: NotRequired[int | None]
    share: NotRequired[str | None]
    commitment: NotRequired[str | None]
    no_share: NotRequired[str | None]
    """Why an ended game with a secret seed has no share (firmware/fairness.py ``NO_SHARE``), else None."""


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
    lines: Sequence[str]
    """Its effective lines (undone ones left out; read from the store when first needed)."""
    ended: float
    """When it was left (epoch seconds; 0 unknown)."""
    unsynced: NotRequired[bool]
    """Its time is uncertain (begun while the clock was not set, or imported from an older
    Legatus's journal files: firmware/history.py ``begun_unsynced``): its day is marked ``~`` as
    History marks a game's."""


def plain(entry: HistoryEntry) -> dict[str, Any]:
    """A History entry as firmware/history.py, firmware/export.py and the games' statistics take it
    (the same object, typed as a plain dict: firmware/games.py ``Entry``)."""
    return cast(dict[str, Any], entry)
