"""A game's play time: the time it was actually played, summed over the runs of the program it was
played in (History's ``minutes``, the exports' ``durationMin`` and ``duration_min``).

Each run of the program times the session it plays by the monotonic clock (the network setting the
wall clock mid-game changes nothing), from a mark: when the session began (``new``) or was resumed
at the run's start. Each acknowledged step (an action or an undo) adds the time since the mark to
the session's stored play time, *in the step's own transaction*, and moves the mark to it; so a
power cut or a kill -9 loses at most the time since the last acknowledged step, and a restart
(the device switched off overnight, the game resumed the next evening) adds the next run's play
to the time stored before it. A gap longer than :data:`IDLE_LIMIT` between two marks (the device
left on at the table overnight, the game left for dinner and more) is no play: it adds nothing.
A finish recorded without a step (Glory's ``score``, a read-only request) counts the time since
the last step too, under the same limit.

Stored in the ``play_time`` table beside History's start times: one row per session (``sid``),
made with the session (``new``: in the same transaction), its milliseconds (``ms``) and a CRC-32
over its raw bytes like every row (checked before it is read, at each start by the store's check:
a damaged row is set aside, kept in ``damaged`` and reported, and that game's play time is then
not known — never a wrong figure). A session with no row (stored by a Legatus before this one, or
its row set aside) has no play time: its records get no ``minutes``, as before.

A game whose session plays several games in turn (Julius Caesar: each battle is a play, J-13;
:attr:`firmware.games.GameRecord.playing`) times each of them too: the time before a step goes to
the part the state before it was playing (``battle-2`` while battle 2 is set up or fought), or to
the part the step enters from none (a battle's first block placed in its set-up: the time spent
choosing it), in its own row keyed ``<sid>/<part>``, made with 0 ms in the step that enters the part,
so a battle's record has the time spent on that battle, not on the campaign around it (the cards
played and the moves made while the device shows the next battle's set-up with no block in it).

A copy reopened from Earlier games goes on from the time of the session it copies (:func:`carry`,
in the transaction that starts it): its play time adds to what that one had.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Mapping
from typing import Any

from firmware.storage import crc

log = logging.getLogger(__name__)

SCHEMA = "CREATE TABLE IF NOT EXISTS play_time(sid TEXT PRIMARY KEY, ms INTEGER NOT NULL, crc INTEGER NOT NULL)"
# the columns of the table (the store checks the schema against them)
COLUMNS = {"play_time": ("sid", "ms", "crc")}
# Raw reads: the stored bytes and integers, checked before anything is decoded.
PLAY_ROW = "CAST(sid AS BLOB), CAST(ms AS INTEGER), CAST(crc AS INTEGER)"

IDLE_LIMIT = 2 * 60 * 60
"""Seconds: a longer gap between two marks (a step, the session's start or resume) is a pause, not
play, and adds nothing (the device left on overnight; a Glory round or a Sword of Rome turn between
two steps stays well under it)."""

_monotonic = time.monotonic
# The sessions timed in this run of the program: sid -> the monotonic time of their last mark.
_marks: dict[str, float] = {}
# The sessions begun in this run: sid -> the monotonic time of their start (:func:`span`).
_begun: dict[str, float] = {}


def play_crc(sid: Any, ms: Any) -> int:
    """The checksum of a ``play_time`` row (tagged: no other row's checksum gives it)."""
    return crc("played", sid, ms)


def ensure(db: sqlite3.Connection) -> None:
    db.execute(SCHEMA)


def now() -> float:
    """The monotonic clock (the seam a test sets)."""
    return _monotonic()


def key(sid: str, part: str | None) -> str:
    """The row of session ``sid``'s play time (``part`` None), or of one of its parts."""
    return sid if part is None else f"{sid}/{part}"


def playing(game: str, state: Mapping[str, Any] | str | None) -> str | None:
    """The part of a session game ``game`` that its (raw or JSON) ``state`` is playing, for a game
    whose session holds several plays timed apart (:attr:`GameRecord.playing`), else None."""
    from firmware.games import record_of
    record = record_of(game)
    if record is None or record.playing is None or state is None:
        return None
    try:
        raw = json.loads(state) if isinstance(state, str) else state
        return record.playing(raw)
    except (ValueError, LookupError, TypeError) as e:      # (never stops a step: that part is then not timed)
        log.warning("the part a %s state plays cannot be told: %s", game, e)
        return None


def _open(db: sqlite3.Connection, sid: str, part: str) -> None:
    """Part ``part`` of session ``sid`` is entered: its row, 0 ms (one it had stays)."""
    k = key(sid, part)
    db.execute("INSERT OR IGNORE INTO play_time(sid, ms, crc) VALUES(?,0,?)", (k, play_crc(k, 0)))


def began(db: sqlite3.Connection, sid: str, part: str | None = None) -> None:
    """In the transaction that starts session ``sid``: its play time, none yet; timed from now.
    ``part``: the part its first state plays (Julius Caesar's battle 1), timed from now too."""
    ensure(db)
    if db.execute("INSERT OR IGNORE INTO play_time(sid, ms, crc) VALUES(?,0,?)", (sid, play_crc(sid, 0))).rowcount:
        _marks[sid] = _begun[sid] = now()
        if part is not None:
            _open(db, sid, part)


def carry(db: sqlite3.Connection, was: str, sid: str) -> None:
    """In the transaction that starts ``sid``, a copy of session ``was`` reopened from Earlier
    games (after :func:`began`): it goes on from ``was``'s play time and its parts' (rows whose
    checksum fails carry nothing: that time is then not known, never a wrong one)."""
    ms = stored(db, was)
    if ms is None:          # the copied game's time is not known: neither is the copy's
        db.execute("DELETE FROM play_time WHERE sid=? OR sid LIKE ?", (sid, _like(sid)))
        return
    db.execute("UPDATE play_time SET ms=?, crc=? WHERE sid=?", (ms, play_crc(sid, ms), sid))
    rows = db.execute("SELECT CAST(sid AS TEXT) FROM play_time WHERE sid LIKE ?", (_like(was),)).fetchall()
    for (old,) in rows:
        part = str(old)[len(was) + 1:]
        got, k = stored(db, str(old)), key(sid, part)
        if got is None:
            db.execute("DELETE FROM play_time WHERE sid=?", (k,))
        else:
            db.execute("INSERT OR REPLACE INTO play_time(sid, ms, crc) VALUES(?,?,?)", (k, got, play_crc(k, got)))


def _like(sid: str) -> str:
    """The LIKE pattern of session ``sid``'s part rows (a sid is hex: nothing to escape)."""
    return sid + "/%"


def resumed(sid: str) -> None:
    """Session ``sid`` is the one this run plays (resumed at its start): timed from now, unless this
    run timed it already."""
    _marks.setdefault(sid, now())


def _since(sid: str, at: float) -> int:
    """The milliseconds from the session's mark to ``at`` (0: no mark in this run, or a pause)."""
    mark = _marks.get(sid)
    if mark is None:
        return 0
    gap = at - mark
    return int(round(gap * 1000)) if 0 <= gap <= IDLE_LIMIT else 0


def stored(db: sqlite3.Connection, sid: str) -> int | None:
    """The session's stored play time in milliseconds; None if it has none (a session from before
    play time was kept) or its row fails its checksum (logged: the start-up check reports it)."""
    try:
        row = db.execute(f"SELECT {PLAY_ROW} FROM play_time WHERE sid=?", (sid,)).fetchone()
    except sqlite3.OperationalError as e:       # (no table yet: a card an older Legatus wrote, read-only)
        log.warning("the play time of session %s cannot be read: %s", sid, e)
        return None
    if row is None:
        return None
    if play_crc(row[0], row[1]) != row[2] or row[1] < 0:
        log.error("the play time of session %s fails its checksum; not known", sid)
        return None
    return int(row[1])


def step(db: sqlite3.Connection, sid: str, at: float, part: str | None = None, entered: str | None = None) -> None:
    """In an acknowledged step's transaction: add the time since the session's mark to its play
    time (nothing for a session that has none, or whose row is damaged), and to the part its state
    was playing before the step (``part``, :func:`playing`); ``entered``: the part the step's state
    plays (its row is made when the step enters it; the time before a step that enters a part from
    none is that part's: Julius Caesar's first block placed in a battle's set-up). :func:`stepped`
    moves the mark once the transaction has committed."""
    ms = stored(db, sid)
    if ms is None:
        return
    if entered is not None and entered != part:
        _open(db, sid, entered)
    add = _since(sid, at)
    if not add:
        return
    part = part if part is not None else entered      # (the time before the step that begins a part: its)
    for k, was in ((sid, ms), (key(sid, part), stored(db, key(sid, part)) if part is not None else None)):
        if was is not None:
            db.execute("UPDATE play_time SET ms=?, crc=? WHERE sid=?", (was + add, play_crc(k, was + add), k))


def stepped(sid: str, at: float) -> None:
    """The step's transaction committed at ``at``: the session is timed from there."""
    _marks[sid] = at


def span(sid: str) -> int | None:
    """The whole minutes (at least 1) from the session's start to now, pauses and all, when it began
    in this run (else None): not its play time, but how long ago it began, which dates a game begun
    before the network set the clock (firmware/export_dates.py ``play_date``)."""
    began = _begun.get(sid)
    return None if began is None else max(1, round((now() - began) / 60))


def minutes(db: sqlite3.Connection, sid: str, *, until_now: bool = True, part: str | None = None) -> int | None:
    """The session's play time in whole minutes (rounded, at least 1), what it stored and
    (``until_now``) the time since its last step in this run; None if it has none. ``part``: that
    part's (:func:`playing`), what its row stored (a finished part is played no more)."""
    ms = stored(db, key(sid, part))
    if ms is None:
        return None
    if until_now and part is None:
        ms += _since(sid, now())
    return max(1, round(ms / 60000))
