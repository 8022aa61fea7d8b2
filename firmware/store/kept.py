"""What the database keeps besides the current session: the archived sessions and the settings
(each row checked before it is decoded)."""
from __future__ import annotations

import bisect
import json
import logging
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

from firmware.settings import valid_settings
from engine.text import Msg
from firmware.storage import StorageError, crc
from firmware.store.connection import Connection
from firmware.store.reasons import reason
from firmware.store.schema import SESSION_ROW, SETTING_ROW, _text, effective_lines

log = logging.getLogger(__name__)


class ArchivedLines(Sequence[str]):
    """An archived session's effective lines, read (each checked: :func:`effective_lines`) the first
    time one is needed; until then ``len`` is counted by SQLite (do rows less undo rows), so
    listing the archive costs the same however long its sessions are."""

    def __init__(self, store: Connection, sid: int) -> None:
        self._store = store              # (its connection as it is when read: a failed commit opens a new one)
        self._sid = sid
        self._lines: list[str] | None = None
        self._count: int | None = None

    def _read(self) -> list[str]:
        if self._lines is None:
            lines, damaged = effective_lines(self._store.db, self._sid)
            if damaged is not None:
                log.error("archived session %s: action %s fails its checksum; cut there", self._sid, damaged)
            self._lines = lines
        return self._lines

    def __len__(self) -> int:
        if self._lines is not None:
            return len(self._lines)
        if self._count is None:
            row = self._store.db.execute("SELECT coalesce(sum(kind='do'), 0) - coalesce(sum(kind='undo'), 0) FROM actions "
                                   "WHERE session=?", (self._sid,)).fetchone()
            self._count = max(0, int(row[0])) if row is not None and isinstance(row[0], int) else 0
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._read()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (ArchivedLines, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ArchivedLines(session {self._sid}, {len(self)} lines)"


class Kept(Connection):
    """``archives``, ``load_settings`` and ``save_settings``."""

    # -- archives ------------------------------------------------------------------------------
    def archives(self, limit: int = 40) -> list[dict[str, Any]]:
        """Archived sessions, newest first: ``header``, effective ``lines`` (:class:`ArchivedLines`:
        read when first needed), ``ended`` (epoch s; 0 where not known or before Legatus existed), ``unsynced`` (its time
        uncertain). A session whose row fails its checksum is left
        out; one whose action rows do is cut at its last good action."""
        out: list[dict[str, Any]] = []
        rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=0 ORDER BY id DESC LIMIT ?",
                               (limit,)).fetchall()
        ids: list[int] = []
        for row in rows:
            sid_, ended, text = row[0], row[3], self.session_header(row)
            if text is None:
                log.error("archived session %s fails its checksum; left out", sid_)
                continue
            out.append({"header": json.loads(text), "lines": ArchivedLines(self, int(sid_)), "ended": float(ended or 0)})
            ids.append(int(sid_))
        try:                    # (each marked as History marks its day: left, or else begun, with the clock not set)
            unset = _begun_unsynced(self.db, [str(a["header"].get("sid", "")) for a in out])
            left = self._left_unsynced(ids, [a["ended"] for a in out])
        except sqlite3.Error as e:          # History's table unreadable: the days unmarked, the games listed
            log.error("the start times of the earlier games could not be read (%s)", e)
            unset, left = set(), {}
        from hw.clock import EARLIEST       # (1970, a fresh card's image date: a clock nothing set, no day: 0)
        return [{**a, "ended": a["ended"] if a["ended"] >= EARLIEST.timestamp() else 0.0,
                 "unsynced": left.get(i, str(a["header"].get("sid", "")) in unset)} for i, a in zip(ids, out)]

    def _left_unsynced(self, ids: Sequence[int], ended: Sequence[float]) -> dict[int, bool]:
        """Whether each archived session (row ``ids``, left at ``ended``) was left with the clock not
        set, where that is known: a session is left in the transaction that begins the next one,
        whose start History keeps with that mark (firmware/history.py ``write_started``), so the
        next session's start, taken the same second, says it. Not known (absent) where the next
        session began at another time (one archived at a start because it did not replay, an
        older Legatus's) or its start is not kept. A session begun at a clock that was not set and
        left once the network had set it is left on a sure day; one begun on a set clock and
        left after a restart with no network (the clock back at the last shutdown) is not."""
        if not ids:
            return {}
        sid_of: dict[int, str] = {}      # (the listed ones, and the newer: the current one, any left out)
        for row in self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE id>? ORDER BY id", (min(ids),)).fetchall():
            text = self.session_header(row)
            try:
                sid_of[int(row[0])] = str(json.loads(text)["sid"]) if text is not None else ""
            except (ValueError, KeyError, TypeError):
                sid_of[int(row[0])] = ""
        order = sorted(sid_of)
        nexts = {i: order[k] if (k := bisect.bisect_right(order, i)) < len(order) else None for i in ids}
        starts = _starts(self.db, [sid_of[j] for j in nexts.values() if j is not None and sid_of[j]])
        out: dict[int, bool] = {}
        for i, when in zip(ids, ended):
            j = nexts[i]
            start = starts.get(sid_of[j]) if j is not None else None
            if start is not None and when and abs(start[0] - when) <= 2:      # (the same transaction)
                out[i] = start[1]
        return out

    def archived_header(self, sid: str) -> dict[str, Any] | None:
        """The header of the archived session ``sid`` (its ``sid`` field), or None if none holds it
        or its row fails its checksum."""
        rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=0 AND instr(header, ?) > 0",
                               (json.dumps(sid),)).fetchall()
        for row in rows:
            text = self.session_header(row)
            try:
                header = json.loads(text) if text is not None else None
            except ValueError:
                continue
            if isinstance(header, dict) and header.get("sid") == sid:
                return header
        return None

    def archived_with_seed(self, seed: int) -> bool:
        """Whether an archived session has this seed (the running game is a copy reopened from
        Earlier games, or was reopened since). A row that fails its checksum counts (the safe side)."""
        rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=0 AND instr(header, ?) > 0",
                               (str(int(seed)),)).fetchall()
        for row in rows:
            text = self.session_header(row)
            if text is None:
                log.warning("archived session %s fails its checksum; it counts as a copy of seed's game", row[0])
                return True
            try:
                if int(json.loads(text)["seed"]) == int(seed):
                    return True
            except (ValueError, KeyError, TypeError):
                log.warning("archived session %s has no readable seed; it counts as a copy", row[0])
                return True
        return False

    # -- settings ------------------------------------------------------------------------------
    def load_settings(self, strict: bool = False) -> dict[str, Any]:
        """The stored settings whose checksums hold and whose values are allowed (the start-up
        check reported and set aside the others). If the card cannot read them: none (the
        defaults), or with ``strict`` (what a change starts from) StorageError, never the
        defaults taken for what is stored."""
        try:
            rows = self.db.execute(f"SELECT {SETTING_ROW} FROM settings").fetchall()
        except sqlite3.Error as e:
            log.error("cannot read the settings: %s", e)
            if strict:
                raise StorageError(Msg("The settings cannot be read now ({}); nothing was changed. Check the card.",
                                       reason(e))) from None
            return {}
        return settings_of(rows)

    def save_settings(self, settings: dict[str, Any]) -> None:
        """Replace the stored settings (one transaction); raises StorageError."""
        rows = [(k, v, crc(k, v)) for k, v in ((k, json.dumps(v, ensure_ascii=False)) for k, v in settings.items())]

        def landed(db: sqlite3.Connection) -> bool:
            return sorted(db.execute("SELECT key, value, crc FROM settings").fetchall()) == sorted(rows)
        with self.transaction(landed) as db:
            db.execute("DELETE FROM settings")
            db.executemany("INSERT INTO settings VALUES(?,?,?)", rows)


def _starts(db: sqlite3.Connection, sids: Sequence[str]) -> dict[str, tuple[float, bool]]:
    """The start times History keeps of the sessions ``sids`` (those whose row passes its checksum
    and reads as a time): epoch seconds, and whether the clock was not set then."""
    import datetime as _dt

    from firmware.history import UNSYNCED, started_crc
    out: dict[str, tuple[float, bool]] = {}
    for sid, started, check in _started_rows(db, sids):
        if started_crc(sid, started) != check:
            continue
        text = bytes(started).decode("utf-8", "replace")
        try:
            when = _dt.datetime.fromisoformat(text.rstrip(UNSYNCED).replace("Z", "+00:00"))
            stamp = (when if when.tzinfo is not None else when.replace(tzinfo=_dt.timezone.utc)).timestamp()
        except (ValueError, OverflowError, OSError):
            continue
        out[bytes(sid).decode("utf-8", "replace")] = (stamp, text.endswith(UNSYNCED))
    return out


def _started_rows(db: sqlite3.Connection, sids: Sequence[str]) -> list[tuple[Any, Any, Any]]:
    """History's kept start rows (sid, started, crc; raw) of the sessions ``sids``; none when the
    table is not there (nothing was begun on this device)."""
    rows: list[tuple[Any, Any, Any]] = []
    for k in range(0, len(sids), 500):                   # (SQLite's bound parameters: a few hundred at a time)
        part = [str(x) for x in sids[k:k + 500]]
        try:
            rows += db.execute("SELECT CAST(sid AS BLOB), CAST(started AS BLOB), CAST(crc AS INTEGER) FROM "
                               f"history_started WHERE sid IN ({','.join('?' * len(part))})", part).fetchall()
        except sqlite3.OperationalError:
            return []
    return rows


def _begun_unsynced(db: sqlite3.Connection, sids: Sequence[str]) -> set[str]:
    """Which of the sessions ``sids`` have an uncertain time, as History marks a game's: begun while
    the clock was not set (their start time is marked :data:`UNSYNCED`: a Pi with no network keeps
    its clock unset all day, so when they were left is as uncertain), or with no start time kept
    (every session begun on this device has one: these came from an older Legatus's journal
    files, dated by when the journal was last written, as History dates their games, or the
    row is damaged). Earlier games marks their day ``~``."""
    from firmware.history import UNSYNCED, started_crc
    sure = set()
    for sid, started, check in _started_rows(db, sids):
        said = bytes(sid).decode("utf-8", "replace")
        if started_crc(said, started) == check and not bytes(started).endswith(UNSYNCED.encode()):
            sure.add(said)
    return {str(x) for x in sids} - sure


def settings_of(rows: Sequence[tuple[Any, Any, Any]]) -> dict[str, Any]:
    """The settings of ``rows`` (``SETTING_ROW``s) whose checksums hold and whose values are allowed;
    the others are logged and left out (their defaults are used)."""
    out: dict[str, Any] = {}
    for key, value, check in rows:
        k, v = _text(key), _text(value)
        if crc(key, value) != check or k is None or v is None:
            log.error("setting %r fails its checksum; its default is used", key[:40])
            continue
        try:
            out[k] = json.loads(v)
        except (ValueError, RecursionError) as e:
            log.error("setting %r does not parse (%s); its default is used", k[:40], e)
    good, wrong = valid_settings(out)
    if wrong:
        log.error("settings not allowed (their defaults are used): %s", wrong)
    return good


def read_settings(path: Path) -> dict[str, Any]:
    """The settings stored in the database at ``path``, read only (``legatus doctor``: a diagnosis
    changes nothing on the card: no salvage, no journal rolled back, no file made), as
    :meth:`Kept.load_settings` gives them; {} when the file is missing. Raises sqlite3.Error or
    OSError when it cannot be read so."""
    if not path.is_file():
        return {}
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
    try:
        return settings_of(db.execute(f"SELECT {SETTING_ROW} FROM settings").fetchall())
    finally:
        db.close()
