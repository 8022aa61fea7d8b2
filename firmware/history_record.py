"""The draw record of a History game (``export format=draws``: docs/fairness.md, which
scripts/verify_draws.py checks) in two parts, so that the device makes it off its main loop: what it
needs is read on the thread that owns the database (:func:`draws`: its filed record, one row), and
a job makes the record from that alone, on any thread (firmware/worker.py): it replays the whole
game (a Julius Caesar campaign with 300 undos: 0.05 s here, most of a second on a Pi Zero 2 W, a key
waiting for it on the main loop). :class:`OffLoop` is the App's part: it asks the console for the
job once (again only once the card may read differently) and has the worker make it."""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, NamedTuple

from firmware import fairness

if TYPE_CHECKING:
    from firmware.console import Console
    from firmware.worker import Worker

log = logging.getLogger(__name__)
NOT_OFF = object()           # OffLoop.ask: the line is not one it answers


class RecordJob(NamedTuple):
    """The making of a History game's draw record from its filed record as read (decoded from the
    row's bytes for it alone: it touches no storage and nothing another thread holds).
    ``ident``: what it is made of (the game, its session, the row's checksum): the same ident,
    the same record."""

    ident: tuple[int, str, int]
    history_id: int
    filed: dict[str, Any]

    def __call__(self) -> dict[str, Any]:
        """The draw record; raises BadArguments if a stored line no longer replays."""
        from engine.errors import BadArguments, LegatusError
        from firmware.history_text import Msg
        rec = self.filed
        try:
            steps = rec.get("steps")
            out = fairness.draw_record(rec["header"], list(rec["lines"]), steps if isinstance(steps, list) else None)
        except (LegatusError, ValueError, KeyError, TypeError) as e:
            # a sentence of its own in the reader's language (the error's text is English: it read
            # «Игра 1: не удалось составить запись жребия (a stored line no longer replays).»); the
            # detail goes to the log
            said = Msg("Game {}: its draw record could not be made: its stored moves no longer replay.",
                       self.history_id)
            log.exception("the draw record of game %s could not be made (%s)", self.history_id, e,
                          extra={"said": said})
            raise BadArguments(said) from None
        out["history_id"] = self.history_id
        return out


def record_job(db: sqlite3.Connection, entry: dict[str, Any]) -> RecordJob:
    """Read a History entry's filed record now and give back the job that makes its draw record.
    Raises BadArguments (its session has not ended, or its record is missing or damaged) or the
    sqlite3.Error of a card that cannot read it now (never taken for "no record filed": a game
    that has ended was said not to have)."""
    from engine.errors import BadArguments
    from firmware.history_text import Msg
    sid = str(entry.get("sid"))
    got = fairness.filed_one(db, sid) if entry.get("sid") else None
    if got is None:
        aside = _put_aside(db, sid) if entry.get("sid") else None     # (PROTOCOL: no seed before its game's end)
        if aside is not None:
            copy = _ended_copy(db, aside, sid)
            if copy is not None:
                raise BadArguments(Msg("Game {}: a copy of it reopened from Earlier games has ended (game {}), and "
                                       "the seed is in that game's draw record; this session itself was put aside "
                                       "before it ended, so it has no draw record of its own.", entry["id"], copy))
            raise BadArguments(Msg("Game {}: its draws are shown once its session has ended, and another game put "
                                   "that session aside before it ended. To check them, reopen it (Games → Earlier "
                                   "games), end it, and ask again.", entry["id"]))
        raise BadArguments(Msg("Game {}: its draws are shown once its session has ended ('end', or 'reveal' "
                               "after the game's own end).", entry["id"]))
    return RecordJob((int(entry["id"]), sid, got[1]), int(entry["id"]), got[0])


def _put_aside(db: sqlite3.Connection, sid: str) -> dict[str, Any] | None:
    """The header of the stored session ``sid`` if a new game put it aside before it ended (Games
    → Earlier games reopens it; no fair-draw record is filed for it until it ends), else None."""
    for (raw,) in db.execute("SELECT CAST(header AS BLOB) FROM sessions WHERE current=0 AND "
                             "instr(CAST(header AS BLOB), ?) > 0", (json.dumps({"sid": sid})[1:-1].encode(),)):
        try:
            head = json.loads(bytes(raw).decode("utf-8"))
        except (ValueError, RecursionError):
            continue
        if isinstance(head, dict) and head.get("sid") == sid:
            return head
    return None


def _ended_copy(db: sqlite3.Connection, header: dict[str, Any], sid: str) -> int | None:
    """The newest History id of an ended copy of the game ``header`` (reopened from Earlier games:
    the same ``new`` line and seed, another session) whose draw record is filed, else None. (Its
    record holds the seed, not necessarily this session's draws: the copy may have gone another
    way after an undo.)"""
    if not fairness._table(db):
        return None
    sids = [str(r[0]) for r in db.execute("SELECT CAST(sid AS TEXT) FROM fair WHERE sid != ?", (sid,))]
    for other, rec in fairness.filed(db, sids).items():
        head = rec.get("header") or {}
        if head.get("line") == header.get("line") and head.get("seed") == header.get("seed"):
            row = db.execute("SELECT max(id) FROM history WHERE sid=?", (other,)).fetchone()
            if row is not None and row[0] is not None:
                return int(row[0])
    return None


def draws(db: sqlite3.Connection, entry: dict[str, Any]) -> tuple[Hashable, Callable[[], dict[str, Any]]]:
    """``export format=draws`` of a History entry: its record read now (raises as
    :func:`record_job`), and (what the answer is made of, the job making its fields)."""
    job = record_job(db, entry)

    def fields() -> dict[str, Any]:
        record = job()
        return {"format": "draws", "record": record, "text": json.dumps(record, ensure_ascii=False)}
    return ("draws", *job.ident), fields


class OffLoop:
    """The App's answers made by the worker that need no session (``Console.detached``: ``export
    format=draws``): the job of each line asked is made once, from what the main loop read, and
    again only once the card may read differently (History's list is read the same way)."""

    KEEP = 4                   # lines kept (each job holds the record it read)

    def __init__(self, console: Console) -> None:
        self.console = console
        self._made: dict[str, tuple[tuple[int, int, int] | None, Hashable, Callable[[], dict[str, Any]]]] = {}

    def ask(self, line: str, worker: Worker) -> dict[str, Any] | None | object:
        """The response to ``line``: the worker's answer (its fields, or what its job raised) said
        now, or the refusal of the read (the card, a game not ended); None while it is made;
        NOT_OFF for a line that is not one of these."""
        from firmware.storage import unchanged_since
        db = self.console.store.db
        kept = self._made.get(line)
        if kept is None or kept[0] is None or kept[0] != unchanged_since(db):
            made = self.console.detached(line)
            if made is None or isinstance(made, dict):       # (not one; refused as it was read)
                self._made.pop(line, None)
                return NOT_OFF if made is None else made
            self._made.pop(line, None)
            kept = self._made[line] = (unchanged_since(db), made[0], made[1])
            while len(self._made) > self.KEEP:
                del self._made[next(iter(self._made))]
        key = ("off", line, kept[1])
        answer = worker.answer(key)
        if answer is None:
            worker.submit(key, kept[2], group=key)
            return None
        return self.console.response(answer[1])
