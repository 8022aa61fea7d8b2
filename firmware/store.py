"""The state directory: one SQLite database holding sessions, actions, checkpoints and settings.

Layout of ``--state-dir`` (default ``$LEGATUS_STATE_DIR`` or ``~/.local/state/legatus``)::

    legatus.db             the database (Python's sqlite3)
    legatus.db.damaged-N   a database file SQLite could not read, moved aside and reported
    imported-N/            the journal files of an older Legatus, kept after they were imported
    lock                   held (flock) while a Legatus process uses the directory

Each accepted action is one transaction — its row and, every ``CHECKPOINT_EVERY`` actions, a
checkpoint of the state — committed durably before the reply; a failed commit rolls back and the
request is refused with nothing changed (:class:`StorageError`). Starting a new session and
archiving the old one is one transaction. The directories are created durably (each new one and
its parent fsync'd) before anything is answered.

Damage is never silent and never stops a start (issue 20 §2). Every row carries a CRC-32
(:func:`firmware.storage.crc`) over its raw bytes, read with ``CAST(… AS BLOB)`` and checked
*before* anything is decoded; a session row's checksum covers its header, its "current" flag and
its end time, and the settings and the History rows (firmware/history.py) are checked the same
way. At every start:

- SQLite's ``integrity_check`` runs (a damaged index is rebuilt from the tables), the schema is
  compared with the tables this program made, and the small tables (sessions, settings, History)
  are checked row by row: a damaged row is moved to the ``damaged`` table (kept for a bug
  report) and reported; a session row whose only fault is its "current" flag is mended;
- the current session is read from what resuming needs (so a restart costs the same however long
  the session is): its newest checkpoint that still stands and the action rows after it, and the
  newest :data:`MAX_LOG` rows (the log); a damaged action among them ends the session at the last
  good action (the rest kept aside), a damaged checkpoint is skipped (the state replayed from an
  older one). Older actions are read, each checked, the first time something needs them (undo past
  the checkpoint, a page of ``actions``, the draw record at the end: :class:`_Older`); a damaged one
  found then refuses what needed it, changes nothing, and is reported from then on
  (:class:`~firmware.storage.DamagedRecord`, ``recovery``);
- if the file cannot be opened or checked at all — whatever the exception — it is moved aside as
  ``legatus.db.damaged-N`` (with its rollback journal, if any), every row whose checksum holds is
  read from its pages (and from the journal's pages) by :mod:`firmware.salvage` and carried into a
  new database, and what happened is reported.

``recovery`` says what was found (``state`` answers it as ``recovered``; the device shows it).

Format: ``PRAGMA user_version`` is :data:`FORMAT`. Version 0 (before issue 20) had the session
checksum over the id and header only; it is upgraded at the first start (each row whose old
checksum holds is sealed anew). Any code that changes a ``sessions`` row must seal it again with
:meth:`Store.seal_session` in the same transaction.
"""
from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, NamedTuple

from engine.errors import LegatusError
from engine.game import Outcome
from engine.text import Msg, to_data
from firmware import fairness, history, migrate, players, salvage
from firmware.session import MAX_LOG, Entry, Session, Stored, Trail, said, undone_sentence
from firmware.settings import valid_settings
from firmware.storage import DamagedRecord, Recovery, StorageError, crc, fsync_dir, make_dirs

__all__ = ["DB_NAME", "FORMAT", "Recovery", "StateDirError", "StorageError", "Store", "crc", "default_state_dir"]

log = logging.getLogger(__name__)

DB_NAME = "legatus.db"
FORMAT = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL,
                                    ended REAL, crc INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS actions(session INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                                   line TEXT NOT NULL, sentence TEXT NOT NULL, crc INTEGER NOT NULL,
                                   PRIMARY KEY(session, seq));
CREATE TABLE IF NOT EXISTS checkpoints(session INTEGER NOT NULL, depth INTEGER NOT NULL, top INTEGER NOT NULL,
                                       state TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, depth, top));
CREATE TABLE IF NOT EXISTS settings(key TEXT PRIMARY KEY, value TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL);
"""
# The columns each table of this program must have (the schema is checked against them: a damaged
# schema can rename a table, and CREATE TABLE IF NOT EXISTS would then silently start it empty).
CORE = {"sessions": ("id", "header", "current", "ended", "crc"),
        "actions": ("session", "seq", "kind", "line", "sentence", "crc"),
        "checkpoints": ("session", "depth", "top", "state", "crc"),
        "settings": ("key", "value", "crc"),
        "damaged": ("id", "what", "data", "reason")}
KNOWN = {**CORE, **history.COLUMNS, **fairness.COLUMNS, **players.COLUMNS}
# Raw reads: text as the bytes stored, numbers as integers, so that nothing is decoded before its
# checksum holds (a damaged type byte can turn any column into text that is not UTF-8).
SESSION_ROW = "id, CAST(header AS BLOB), CAST(current AS INTEGER), CAST(ended AS INTEGER), CAST(crc AS INTEGER)"
ACTION_ROW = ("CAST(seq AS INTEGER), CAST(kind AS BLOB), CAST(line AS BLOB), CAST(sentence AS BLOB), "
              "CAST(crc AS INTEGER)")
SETTING_ROW = "CAST(key AS BLOB), CAST(value AS BLOB), CAST(crc AS INTEGER)"


def _expected_columns() -> dict[str, dict[str, tuple[Any, ...]]]:
    """The columns of this program's tables as SQLite reports them for a new database."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        history.ensure(db)
        fairness.ensure(db)
        history.ensure_players(db)
        return {n: {str(c[1]): (str(c[2]).upper(), int(c[3]), int(c[5]))
                    for c in db.execute(f'PRAGMA table_info("{n}")').fetchall()} for n in KNOWN}
    finally:
        db.close()


_EXPECTED = _expected_columns()


class StateDirError(Exception):
    """The state directory cannot be used (permissions, another process holds it)."""


def default_state_dir() -> Path:
    env = os.environ.get("LEGATUS_STATE_DIR")
    return Path(env) if env else Path.home() / ".local" / "state" / "legatus"


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def session_crc(sid: int, header: bytes, current: Any, ended: Any) -> int:
    """The checksum of a sessions row (format 2): the header, the "current" flag and the end
    time (whole seconds) all decide what is shown."""
    return crc(sid, header, current, ended)


def _raw(*fields: Any) -> bytes:
    """A damaged row's fields as bytes for the ``damaged`` table (kept for a bug report)."""
    return b"\x1f".join(f if isinstance(f, bytes) else str(f).encode() for f in fields)


def _text(raw: Any) -> str | None:
    """Checked bytes as text (None if they are not UTF-8 after all)."""
    if isinstance(raw, str):
        return raw
    if not isinstance(raw, bytes):
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


class _Found(NamedTuple):
    """What the start-up check of the small tables found (read only; mended afterwards)."""

    version: int
    bad: list[tuple[str, str, bytes, tuple[Any, ...]]]    # (table, what, raw data, row key) to set aside
    reseal: list[int]                                    # session rows to seal anew (upgrade, mended flag)
    flags: list[tuple[int, int]]                         # (session id, current) mended
    bad_settings: list[str]                              # setting names with a value that is not allowed


class _Plan(NamedTuple):
    """Where a resume starts (Store._plan): the rows read (``_actions``' answer) from row ``lo``,
    the checkpoint at ``depth`` effective actions whose action is row ``top`` (``state`` None: the
    session's start), and the damaged checkpoints passed over."""

    rows: tuple[list[tuple[int, str, str, str]], list[tuple[Any, ...]], list[tuple[int, int]], list[tuple[Any, ...]]]
    lo: int
    depth: int
    top: int
    state: str | None
    damaged_cp: list[tuple[str, bytes]]


class _Older:
    """A resumed session's older effective actions, read going back from a row (each checked
    before it is decoded): its :class:`~firmware.session.Trail` asks for them when something first
    needs them. Going back, an ``undo`` row cancels the next ``do`` row met; the others stand."""

    BATCH = 256

    def __init__(self, store: Store, sid_: int, start: int) -> None:
        self.store = store
        self.sid = sid_
        self.next = start            # the next row to read, going back
        self.skip = 0                # undo rows met whose action is not met yet
        self.damage: DamagedRecord | None = None

    def __call__(self, n: int) -> list[Entry]:
        """Up to ``n`` standing actions before those given so far, newest first ([]: none left).
        Raises DamagedRecord (again, at every later call) at a damaged or missing row."""
        if self.damage is not None:
            raise self.damage
        out: list[Entry] = []
        while len(out) < n and self.next >= 1:
            rows = self.store.db.execute(f"SELECT {ACTION_ROW} FROM actions WHERE session=? AND seq<=? AND seq>=1 "
                                         "ORDER BY seq DESC LIMIT ?", (self.sid, self.next, self.BATCH)).fetchall()
            if not rows:
                self.damage = self.store.older_damaged(self.sid, self.next)
                raise self.damage
            for seq, kind, line, sentence, check in rows:
                word, text, said_ = _text(kind), _text(line), _text(sentence)
                if (seq != self.next or crc(self.sid, seq, kind, line, sentence) != check or word not in ("do", "undo")
                        or text is None or said_ is None):
                    self.damage = self.store.older_damaged(self.sid, self.next)
                    raise self.damage
                self.next -= 1
                if word == "undo":
                    self.skip += 1
                elif self.skip:
                    self.skip -= 1
                else:
                    out.append((seq, text, Stored(said_)))
                    if len(out) == n:
                        break
        return out


class Store:
    """Owns one state directory for the life of the process (takes an exclusive lock)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.recovery: Recovery | None = None
        self._notes: list[Msg] = []
        try:
            created = make_dirs(self.root)        # each new directory and its parent fsync'd (§4)
            self._lock: IO[bytes] = open(self.root / "lock", "a+b")
        except OSError as e:
            raise StateDirError(Msg("Cannot use the state directory {}: {}. "
                                    "Pick another with --state-dir or LEGATUS_STATE_DIR.",
                                    str(self.root), e.strerror)) from None
        if created:
            log.info("created the state directory %s", self.root)
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            raise StateDirError(Msg("Another Legatus process is using {}; stop it first "
                                    "(systemctl stop legatus) or pick another --state-dir.",
                                    str(self.root))) from None
        self.db_path = self.root / DB_NAME
        self._session_id: int | None = None
        self._salvaged = False             # the database was rebuilt from the rows of a damaged one
        self._seq = 0                      # the last action row's seq of the current session
        self._trail: Trail | None = None  # the current session's effective actions (their rows' seq)
        try:
            self.db, found = self._open()
        except BaseException:
            self._lock.close()
            raise
        self._version = found.version
        self._ids = (_identity(self.root), _identity(self.db_path), _identity(self.root / "lock"))
        try:
            self._mend(found)
        except Exception as e:  # noqa: BLE001 - mending must never stop the start
            log.exception("cannot mend the damaged rows")
            self._notes.append(Msg("Damaged records were found but could not be set aside ({}).", str(e)[:80]))
        try:
            self._import_old()
        except Exception as e:  # noqa: BLE001 - whatever the old files hold, the start goes on
            log.exception("cannot import the old journal files")
            self._notes.append(Msg("The old journal files could not be imported ({}); they were left in place.",
                                   str(e)[:80]))

    # -- opening -----------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.db_path, isolation_level=None, timeout=2.0, check_same_thread=False)
        # Rollback journal (DELETE) with synchronous=EXTRA: each commit writes and fsyncs the
        # journal, then the database, then deletes the journal and fsyncs the directory — the mode
        # SQLite documents as safe against power loss, and at rest everything is in the one
        # database file (no WAL whose frames a damaged SD card could silently cut short). EXTRA,
        # not FULL: in DELETE mode the commit point is the journal's unlink, and FULL does not
        # fsync the directory after it, so a power cut just after the reply could bring the
        # journal back and roll the acknowledged action back. Actions are human-paced, so the
        # extra fsync per commit costs nothing a player notices.
        try:
            db.execute("PRAGMA journal_mode=DELETE")
            db.execute("PRAGMA synchronous=EXTRA")
            db.execute("PRAGMA foreign_keys=OFF")
        except BaseException:
            db.close()
            raise
        return db

    def _create(self, db: sqlite3.Connection) -> None:
        """The tables that are missing (all of them on a new file), in one transaction: a start
        cut short never leaves half a schema. Nothing is written when they all exist."""
        tables = self._tables(db)
        if set(KNOWN) <= set(tables):
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            for stmt in SCHEMA.split(";"):
                if stmt.strip():
                    db.execute(stmt)
            history.ensure(db)
            fairness.ensure(db)
            history.ensure_players(db)
            if not tables:
                db.execute(f"PRAGMA user_version={FORMAT}")
            db.execute("COMMIT")
        except BaseException:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error as e:
                log.warning("ROLLBACK of the schema failed: %s", e)
            raise

    @staticmethod
    def _tables(db: sqlite3.Connection) -> dict[str, dict[str, tuple[Any, ...]]]:
        """Each table's columns: name -> (type, not null, primary key position)."""
        names = [str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()]
        return {n: {str(c[1]): (str(c[2]).upper(), int(c[3]), int(c[5]))
                    for c in db.execute(f'PRAGMA table_info("{n}")').fetchall()} for n in names}

    def _check_header(self) -> None:
        """Raise if the file header holds a value SQLite would take in silence but that is not
        one this program writes (a write version above 2 makes the file read-only: nothing
        could be saved, and nothing would say why)."""
        try:
            with open(self.db_path, "rb") as f:
                head = f.read(100)
        except FileNotFoundError:
            return
        except OSError as e:
            raise StateDirError(Msg("Cannot open {}: {}. Check the disk and its permissions.",
                                    str(self.db_path), e.strerror)) from None
        if len(head) < 100:
            return                                  # new (empty) or cut short: SQLite decides
        if head[18] not in (1, 2) or head[19] not in (1, 2) or head[21:24] != b"\x40\x20\x20":
            raise sqlite3.DatabaseError(f"the file header is damaged ({head[18:24].hex()})")

    def _check_schema(self, db: sqlite3.Connection) -> None:
        """Raise if the schema is not the one this program made (or none at all on a new file):
        a table renamed by damage, a column lost or changed (a rowid alias that is no longer
        one), the schema itself gone."""
        tables = self._tables(db)
        if not tables:
            if int(db.execute("PRAGMA page_count").fetchone()[0]) > 1:
                raise sqlite3.DatabaseError("the schema is gone from a database that holds pages")
            return
        for name, cols in tables.items():
            for known, want in KNOWN.items():
                if name != known and set(want) <= set(cols):
                    raise sqlite3.DatabaseError(f"table {name!r} has the columns of {known!r}")
        for name, want in KNOWN.items():
            if name not in tables:
                continue
            if not set(want) <= set(tables[name]):
                raise sqlite3.DatabaseError(f"table {name!r} lost a column")
            if any(tables[name][c] != _EXPECTED[name][c] for c in want):
                raise sqlite3.DatabaseError(f"a column of table {name!r} changed")
        missing = [n for n in CORE if n not in tables]
        if ("history" in tables) != ("history_started" in tables):
            missing.append("history" if "history" not in tables else "history_started")
        held = [n for n in KNOWN if n in tables and db.execute(f'SELECT 1 FROM "{n}" LIMIT 1').fetchone()]
        if missing and held:         # a schema half made (an older Legatus stopped at its first start) holds nothing
            raise sqlite3.DatabaseError(f"tables missing: {', '.join(missing)}")

    def _verify(self, db: sqlite3.Connection) -> None:
        """SQLite's own check of the whole file; a damaged index alone is rebuilt from the tables."""
        # integrity_check, not quick_check: it also compares each index with its table (a few
        # ms for 20,000 actions). A damaged index alone would make a query silently skip rows
        # (an acknowledged action missing, nothing reported); it is rebuilt from the tables.
        problem = self._integrity(db)
        if problem is None:
            return
        try:
            db.execute("REINDEX")
        except sqlite3.OperationalError:   # cannot write: treat the file as damaged
            raise sqlite3.DatabaseError(f"integrity_check: {problem}") from None
        if self._integrity(db) is not None:
            raise sqlite3.DatabaseError(f"integrity_check: {problem}")
        self._notes.append(Msg("An index of the database was damaged ({}); it was rebuilt from the "
                               "stored rows.", problem[:80]))

    def _open(self) -> tuple[sqlite3.Connection, _Found]:
        """The database, checked, or — whatever went wrong — a new one holding every row of the
        old one whose checksum holds (never a crash loop)."""
        journal, before = self._hot_journal()
        self._hot = (before, journal) if before is not None and journal is not None else None
        self._hot_rows: dict[tuple[Any, ...], tuple[Any, ...]] | None = None
        db: sqlite3.Connection | None = None
        try:
            self._check_header()
            db = self._connect()
            self._verify(db)
            self._check_schema(db)
            self._create(db)
            return db, self._scan(db)
        except StateDirError:
            raise
        except Exception as e:  # noqa: BLE001 - any failure to read the file is damage (or the environment)
            if db is not None:
                try:
                    db.close()
                except sqlite3.Error as e2:
                    log.warning("closing the damaged database: %s", e2)
            if isinstance(e, sqlite3.OperationalError) and not self._looks_damaged(e):
                log.error("cannot open %s: %s", self.db_path, e)
                raise StateDirError(Msg("Cannot open {}: {}. Check the disk and its permissions.",
                                        str(self.db_path), str(e))) from None
            log.error("the database %s cannot be read (%s: %s); salvaging its rows", self.db_path, type(e).__name__, e)
            return self._salvage(e, before, journal)

    def _hot_journal(self) -> tuple[bytes | None, bytes | None]:
        """A rollback journal left by an interrupted transaction, and the database as it was
        before SQLite rolls it back: if the journal is damaged, the rollback can damage the
        database, and the salvage needs both as they were."""
        path = self.db_path.with_name(DB_NAME + "-journal")
        try:
            if not path.exists() or path.stat().st_size == 0:
                return None, None
            return path.read_bytes(), self.db_path.read_bytes()
        except OSError as e:
            log.warning("cannot read the rollback journal %s: %s", path, e)
            return None, None

    def _hot_copies(self) -> dict[tuple[Any, ...], tuple[Any, ...]]:
        """After a rollback of a hot journal: the good rows of the database and its journal as
        they were before it ((table, key) -> values). A damaged journal page can damage a row as
        SQLite rolls it back, while the same row is whole in the other copy."""
        if self._hot is None:
            return {}
        if self._hot_rows is None:
            keys = {"sessions": 1, "actions": 2, "checkpoints": 3, "settings": 1, "history": 1, "history_started": 1}
            carried, _ = _carry(salvage.rows(*self._hot))
            self._hot_rows = {(t, *v[:keys[t]]): v for t, v in carried if t in keys}
        return self._hot_rows

    @staticmethod
    def _integrity(db: sqlite3.Connection) -> str | None:
        """None if SQLite's integrity_check finds nothing wrong, else its first finding."""
        row = db.execute("PRAGMA integrity_check(1)").fetchone()
        return None if row is not None and row[0] == "ok" else str(row[0] if row else "no answer")

    @staticmethod
    def _looks_damaged(e: sqlite3.Error) -> bool:
        text = str(e).lower()
        return any(w in text for w in ("malformed", "not a database", "corrupt", "file is not", "disk image",
                                       "decode", "no such", "schema", "syntax", "unsupported file format"))

    def _move_aside(self, path: Path) -> Path:
        n = 1
        while path.with_name(f"{path.name}.damaged-{n}").exists():
            n += 1
        aside = path.with_name(f"{path.name}.damaged-{n}")
        os.replace(path, aside)
        for extra in ("-journal", "-wal", "-shm"):
            side = path.with_name(path.name + extra)
            if side.exists():
                os.replace(side, aside.with_name(aside.name + extra))
        fsync_dir(path.parent)
        return aside

    # -- the salvage ---------------------------------------------------------------------------
    def _salvage(self, error: BaseException, before: bytes | None, journal: bytes | None) -> tuple[sqlite3.Connection, _Found]:
        try:
            data = before if before is not None else self.db_path.read_bytes()
        except OSError as e:
            log.warning("cannot read %s for the salvage: %s", self.db_path, e)
            data = b""
        try:
            aside = self._move_aside(self.db_path) if self.db_path.exists() else None
            if aside is not None and journal and not aside.with_name(aside.name + "-journal").exists():
                aside.with_name(aside.name + "-journal").write_bytes(journal)   # SQLite had deleted it
        except OSError as e:
            log.error("cannot move the damaged database aside: %s", e)
            raise StateDirError(Msg("The database {} is damaged and cannot be moved aside ({}). Check the disk.",
                                    str(self.db_path), e.strerror)) from None
        carried, damaged = _carry(salvage.rows(data, journal))
        try:
            db = self._connect()
            self._create(db)
            db.execute("BEGIN IMMEDIATE")
            for table, values in carried:
                marks = ",".join("?" * len(values))
                db.execute(f"INSERT OR REPLACE INTO {table} VALUES({marks})", values)
            db.executemany("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)",
                           [(what, raw, "salvage") for what, raw in damaged])
            db.execute("COMMIT")
            found = self._scan(db)
        except Exception as e:  # noqa: BLE001 - the new file cannot be made: the disk is at fault
            log.exception("cannot create a new database after the salvage")
            raise StateDirError(Msg("Cannot create {}: {}.", str(self.db_path), str(e)[:80])) from None
        kept = sum(1 for t, _ in carried if t != "damaged")
        self._salvaged = True
        self._notes.append(Msg("The database could not be read ({}); it was kept aside as {}, and the {n} record "
                               "whose checksum held was carried into a new one.",
                               str(error)[:80] or type(error).__name__, aside.name if aside else DB_NAME, n=kept,
                               plural="The database could not be read ({}); it was kept aside as {}, and the {n} "
                                      "records whose checksums held were carried into a new one."))
        if damaged:
            self._notes.append(Msg("{n} damaged record was kept for a bug report.", n=len(damaged),
                                   plural="{n} damaged records were kept for a bug report."))
        return db, found

    # -- the start-up check ----------------------------------------------------------------------
    def _scan(self, db: sqlite3.Connection) -> _Found:
        """Check every row of the small tables (read only; raises if SQLite cannot read them)."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        bad: list[tuple[str, str, bytes, tuple[Any, ...]]] = []
        reseal: list[int] = []
        flags: list[tuple[int, int]] = []
        for sid_, header, current, ended, check in db.execute(f"SELECT {SESSION_ROW} FROM sessions").fetchall():
            if session_crc(sid_, header, current, ended) == check:
                continue
            if version < FORMAT and crc(sid_, header) == check:
                reseal.append(sid_)                     # the old format: sealed anew
                continue
            mended = [c for c in (0, 1) if c != current and session_crc(sid_, header, c, ended) == check]
            if mended:                                  # only the flag changed: put it back
                flags.append((sid_, mended[0]))
                continue
            if crc(sid_, header) == check:              # sealed in the old way by mistake: the header is whole
                flags.append((sid_, int(current or 0)))
                continue
            bad.append(("sessions", "session", _raw(sid_, header, current, ended, check), (sid_,)))
        settings_rows = db.execute(f"SELECT {SETTING_ROW} FROM settings").fetchall()
        good: dict[str, Any] = {}
        for key, value, check in settings_rows:
            k, v = _text(key), _text(value)
            if crc(key, value) != check or k is None or v is None:
                bad.append(("settings", "setting", _raw(key, value, check), (key,)))
                continue
            try:
                good[k] = json.loads(v)
            except (ValueError, RecursionError):
                bad.append(("settings", "setting", _raw(key, value, check), (key,)))
        _, wrong = valid_settings(good)
        for table, what, raw, key in history.scan(db) + fairness.scan(db) + players.scan(db):
            bad.append((table, what, raw, key))
        return _Found(version, bad, reseal, flags, wrong)

    def _mend(self, found: _Found) -> None:
        """Set the damaged rows aside, mend what can be mended and upgrade the format, in one
        transaction; report it all. If nothing can be written, the report still stands."""
        restored: list[str] = []
        need = found.bad or found.reseal or found.flags or found.bad_settings or found.version < FORMAT
        if need:
            try:
                with self.transaction() as db:
                    for table, what, raw, key in found.bad:
                        db.execute("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)", (what, raw, "checksum"))
                        copy = self._hot_copies().get((table, *(_text(k) if isinstance(k, bytes) else k for k in key)))
                        if copy is not None:            # whole in the copy taken before the rollback
                            db.execute(f"INSERT OR REPLACE INTO {table} VALUES({','.join('?' * len(copy))})", copy)
                            restored.append(table)
                        elif table == "sessions":
                            self._set_aside_session(db, int(key[0]))
                        elif table == "settings":
                            db.execute("DELETE FROM settings WHERE CAST(key AS BLOB)=?", key)
                        elif table == "fair":
                            fairness.set_aside(db, key)
                        elif table == "players":
                            players.set_aside(db, key)
                        else:
                            history.set_aside(db, table, key)
                    for name in found.bad_settings:
                        db.execute("INSERT INTO damaged(what, data, reason) SELECT 'setting', "
                                   "CAST(key AS BLOB) || x'1f' || CAST(value AS BLOB), 'not allowed' "
                                   "FROM settings WHERE key=?", (name,))
                        db.execute("DELETE FROM settings WHERE key=?", (name,))
                    for sid_, current in found.flags:
                        db.execute("UPDATE sessions SET current=? WHERE id=?", (current, sid_))
                    if found.version < FORMAT:
                        history.upgrade(db)
                        db.execute(f"PRAGMA user_version={FORMAT}")
                        self._version = FORMAT
                    for sid_ in found.reseal + [s for s, _ in found.flags]:
                        self.seal_session(db, sid_)
            except StorageError as e:
                log.error("cannot set the damaged rows aside: %s", e)
                restored = []
        lost_sessions = [key[0] for table, _, _, key in found.bad if table == "sessions"][len([t for t in restored if t == "sessions"]):]
        n_settings = sum(1 for t, *_ in found.bad if t == "settings") - restored.count("settings")
        n_history = sum(1 for t, *_ in found.bad if t.startswith("history")) - sum(1 for t in restored if t.startswith("history"))
        if restored:
            self._notes.append(Msg("A damaged record was restored from the copy taken before the last interrupted "
                                   "change was rolled back; nothing was lost."))
        if lost_sessions:
            self._notes.append(Msg("{n} saved session was damaged and could not be read; it was kept for a bug report.",
                                   n=len(lost_sessions),
                                   plural="{n} saved sessions were damaged and could not be read; they were kept "
                                          "for a bug report."))
        if found.flags:
            self._notes.append(Msg("A damaged mark of a saved session was mended."))
        if n_settings or found.bad_settings:
            names = ", ".join(found.bad_settings) if found.bad_settings else "?"
            self._notes.append(Msg("A stored setting was damaged or not allowed ({}); its default is used.", names))
        if n_history:
            self._notes.append(Msg("{n} History record was damaged; it was kept for a bug report.", n=n_history,
                                   plural="{n} History records were damaged; they were kept for a bug report."))
        n_players = sum(1 for t, *_ in found.bad if t == "players") - restored.count("players")
        if n_players:
            self._notes.append(Msg("{n} remembered player was damaged; it was kept for a bug report.", n=n_players,
                                   plural="{n} remembered players were damaged; they were kept for a bug report."))
        n_fair = sum(1 for t, *_ in found.bad if t == "fair") - restored.count("fair")
        if n_fair:
            self._notes.append(Msg("{n} fair-draw record of an ended game was damaged; it was kept for a bug report, "
                                   "and that game's draws can no longer be checked here.", n=n_fair,
                                   plural="{n} fair-draw records of ended games were damaged; they were kept for a bug "
                                          "report, and those games' draws can no longer be checked here."))

    @staticmethod
    def _set_aside_session(db: sqlite3.Connection, sid_: int) -> None:
        """Move a session whose own row is damaged, and its actions and checkpoints, into
        ``damaged`` (a new session must never inherit them by reusing the id)."""
        db.execute("INSERT INTO damaged(what, data, reason) SELECT 'action', CAST(session AS BLOB) || x'1f' || "
                   "CAST(seq AS BLOB) || x'1f' || CAST(kind AS BLOB) || x'1f' || CAST(line AS BLOB) || x'1f' || "
                   "CAST(sentence AS BLOB), 'its session is damaged' FROM actions WHERE session=?", (sid_,))
        db.execute("DELETE FROM actions WHERE session=?", (sid_,))
        db.execute("DELETE FROM checkpoints WHERE session=?", (sid_,))
        db.execute("DELETE FROM sessions WHERE id=?", (sid_,))

    def seal_session(self, db: sqlite3.Connection, sid_: int) -> None:
        """Write the checksum of sessions row ``sid_`` as it now stands (inside a transaction)."""
        row = db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE id=?", (sid_,)).fetchone()
        if row is None:
            return
        value = session_crc(*row[:4]) if self._version >= FORMAT else crc(row[0], row[1])
        db.execute("UPDATE sessions SET crc=? WHERE id=?", (value, sid_))

    def _import_old(self) -> None:
        """Sessions of the journal-file era (firmware/migrate.py), once, into an empty database.
        Whatever those files hold, the start goes on; what went wrong is reported."""
        try:
            if not migrate.old_files(self.root):
                return
            if self.db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]:
                return
            old = migrate.read_old(self.root)
        except Exception as e:  # noqa: BLE001 - crafted old files must never stop a start
            log.exception("cannot read the old journal files")
            self._notes.append(Msg("The old journal files could not be read ({}); they were left in place.",
                                   str(e)[:80]))
            return
        self._notes.extend(old.notes)
        settings, wrong = valid_settings(old.settings)
        if wrong:
            self._notes.append(Msg("A setting of the older Legatus was not valid ({}); its default is used.",
                                   ", ".join(w[:40] for w in wrong[:5])))
        try:
            with self.transaction() as db:
                for header, rows, is_current in old.sessions:
                    text = json.dumps(header, ensure_ascii=False, sort_keys=True)
                    cur = db.execute("INSERT INTO sessions(header, current, crc) VALUES(?, ?, 0)", (text, int(is_current)))
                    sid_ = int(cur.lastrowid or 0)
                    self.seal_session(db, sid_)
                    db.executemany("INSERT INTO actions VALUES(?,?,?,?,?,?)",
                                   [(sid_, i, kind, line, sentence, crc(sid_, i, kind, line, sentence))
                                    for i, (kind, line, sentence) in enumerate(rows, 1)])
                for key, value in settings.items():
                    v = json.dumps(value, ensure_ascii=False)
                    db.execute("INSERT OR REPLACE INTO settings VALUES(?,?,?)", (key, v, crc(key, v)))
        except StorageError as e:
            self._notes.append(Msg("The old journal files could not be imported ({}); they were left in place.",
                                   e.message))
            return
        if old.current_state is not None:      # verify before moving anything
            rebuilt = self._resume([])
            self._session_id, self._seq, self._trail = None, 0, None
            if rebuilt is None or rebuilt.state_json != old.current_state:
                self._notes.append(Msg("The old journal files were imported but did not verify; they were left "
                                       "in place."))
                return
        try:
            dest = migrate.keep_aside(self.root)
        except OSError as e:
            log.error("cannot move the imported journal files aside: %s", e)
            self._notes.append(Msg("The old journal files were imported but could not be moved aside ({})."
                                   , e.strerror))
            return
        self._notes.append(Msg("{} sessions from an older Legatus were imported; the old files are kept in {}.",
                               len(old.sessions), dest.name))

    # -- transactions --------------------------------------------------------------------------
    def _check_dir(self) -> None:
        """Refuse to acknowledge anything if the directory or the database was deleted or
        replaced under us (F6): the rows would go to a file nobody reads again. A lock file
        deleted alone is taken again (unless another process has taken the new one)."""
        try:
            now = (_identity(self.root), _identity(self.db_path))
        except OSError:
            now = None
        if now != self._ids[:2]:
            raise StorageError(Msg("The state directory {} was removed or replaced while Legatus ran; nothing "
                                   "was saved. Restart Legatus.", str(self.root)))
        try:
            lock = _identity(self.root / "lock")
        except OSError:
            lock = None
        if lock != self._ids[2]:
            self._retake_lock()

    def _retake_lock(self) -> None:
        path = self.root / "lock"
        try:
            new = open(path, "a+b")
        except OSError as e:
            raise StorageError(Msg("The lock file {} cannot be made again ({}); nothing was saved.",
                                   str(path), e.strerror)) from None
        try:
            fcntl.flock(new.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            new.close()
            log.error("the lock file %s was replaced and another process holds it", path)
            raise StorageError(Msg("Another Legatus process took {} while this one ran; nothing was saved. "
                                   "Stop one of them.", str(self.root))) from None
        log.warning("the lock file %s was deleted or replaced; it was taken again", path)
        self._lock.close()
        self._lock = new
        self._ids = (self._ids[0], self._ids[1], _identity(path))

    @contextmanager
    def transaction(self, landed: Callable[[sqlite3.Connection], bool] | None = None) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT (durable). Any failure rolls back and raises StorageError:
        nothing of the transaction is stored.

        A COMMIT can fail after its commit point: with synchronous=EXTRA the directory is fsync'd
        after the journal's unlink, and if that fsync fails SQLite reports an I/O error for a
        transaction that is in the file (a restart shows it). ``landed`` (a query of the rows the
        transaction wrote) is then asked on a fresh connection — which sees what a restart would,
        rolling a hot journal back — and if the rows are there the transaction counts as done
        (no error), so a refused request never comes back and memory never differs from disk."""
        self._check_dir()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            log.error("BEGIN failed: %s", e)
            self._reconnect()
            raise StorageError(self._failure(e)) from None
        try:
            yield self.db
        except sqlite3.Error as e:
            log.error("a transaction failed: %s", e)
            self._rollback()
            raise StorageError(self._failure(e)) from None
        except BaseException:
            self._rollback()
            raise
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error as e:
            log.error("COMMIT failed: %s", e)
            self._rollback()
            self._reconnect()
            if landed is not None and self._asks(landed):
                try:
                    fsync_dir(self.root)
                except OSError as e2:
                    log.warning("fsync of %s after a landed commit: %s", self.root, e2)
                return
            raise StorageError(self._failure(e)) from None

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error as e:
            log.warning("ROLLBACK failed (%s); reconnecting", e)
            self._reconnect()

    def _asks(self, landed: Callable[[sqlite3.Connection], bool]) -> bool:
        try:
            return bool(landed(self.db))
        except sqlite3.Error as e:
            log.warning("cannot ask whether a commit landed: %s", e)
            return False

    def _reconnect(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error as e:
            log.warning("closing the database: %s", e)
        try:
            self.db = self._connect()
        except sqlite3.Error as e:
            log.warning("reconnecting failed (the next transaction tries again): %s", e)

    @staticmethod
    def _failure(e: sqlite3.Error) -> Msg:
        text = str(e).lower()
        if "full" in text:
            return Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself.")
        if "readonly" in text or "read-only" in text:
            return Msg("The storage is read-only: nothing was changed.")
        return Msg("Could not save ({}): nothing was changed.", str(e)[:80])

    # -- sessions ----------------------------------------------------------------------------
    def resume(self) -> Session | None:
        """The current session, rebuilt from its rows; None if there is none. Damage is reported
        in ``self.recovery`` (and kept in ``damaged``), never raised."""
        notes = self._notes
        self._notes = []
        session: Session | None = None
        try:
            session = self._resume(notes)
        except Exception as e:  # noqa: BLE001 - a session that cannot be read must never stop the start
            log.exception("the last session could not be read")
            notes.append(Msg("The last session could not be read ({}).", str(e)[:80]))
            self._session_id, self._seq, self._trail = None, 0, None
        self._hot = self._hot_rows = None             # the copies taken before a rollback: no longer needed
        self.recovery = Recovery.of(notes)
        if self.recovery is not None and session is not None:
            session.log.append(self.recovery.message)
        return session

    def _current_row(self) -> tuple[int, dict[str, Any]] | None:
        """The current session's id and header (rows checked at the start; checked again here)."""
        rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=1 ORDER BY id DESC").fetchall()
        for sid_, header, current, ended, check in rows:
            ok = session_crc(sid_, header, current, ended) == check or (self._version < FORMAT and crc(sid_, header) == check)
            text = _text(header)
            if not ok or text is None:
                log.error("session row %s fails its checksum", sid_)
                continue
            return int(sid_), json.loads(text)
        return None

    def _resume(self, notes: list[Msg]) -> Session | None:
        """Rebuild the current session from the rows it needs now (issue 20 §3: a restart costs the
        same however long the session is): its newest checkpoint that still stands, the action rows
        after it and the newest :data:`MAX_LOG` rows (the log), all checked; the older actions are
        read, and checked, when something first needs them (:class:`_Older`)."""
        found = self._current_row()
        if found is None:
            return None
        sid_, header = found
        plan = self._plan(sid_)
        good, lost, mended, refill = plan.rows
        if lost or mended or refill:
            try:
                with self.transaction() as db:
                    db.executemany("INSERT INTO damaged(what, data, reason) VALUES('action', ?, 'checksum')",
                                   [(_raw(sid_, *r[1:]),) for r in lost])
                    db.executemany("DELETE FROM actions WHERE rowid=?", [(r[0],) for r in lost])
                    db.executemany("INSERT OR REPLACE INTO actions VALUES(?,?,?,?,?,?)", refill)
                    for rowid, seq in mended:
                        db.execute("UPDATE actions SET seq=? WHERE rowid=?", (seq, rowid))
            except StorageError as e:
                log.error("cannot set the damaged actions aside: %s", e)
        if mended or refill:
            notes.append(Msg("A damaged action was mended; nothing was lost."))
        lost = [r for r in lost if not any(r[1] == v[1] for v in refill)] if refill else lost
        last = plan.lo - 1 + len(good)             # the last good action row
        if lost:
            log.error("session %s: damaged action row after action %s; %s rows set aside", sid_, last, len(lost))
            notes.append(Msg("A damaged record was found after action {}; {} records were kept aside for a bug "
                             "report and the session resumed at the last good action.", last, len(lost)))
        if plan.damaged_cp:
            log.error("session %s: %s damaged checkpoints skipped", sid_, len(plan.damaged_cp))
            self._damage(plan.damaged_cp, "checksum")
            notes.append(Msg("A damaged checkpoint was skipped; the state was replayed from an older one."))
        # forward over the rows read: the actions they leave standing, and the log of the newest
        older = _Older(self, sid_, plan.lo - 1)
        held: list[Entry] = []
        log_: list[Any] = []
        log_from = max(plan.lo, last - MAX_LOG + 1)
        for seq, kind, line, sentence in good:
            if kind == "do":
                held.append((seq, line, Stored(sentence)))
                if seq >= log_from:
                    log_.append(Stored(sentence))
                continue
            undone: Any = None
            if held:
                undone = held.pop()[2]
            else:                                  # an action from before the rows read
                try:
                    got = older(1)
                except StorageError as e:
                    if isinstance(e.message, Msg):
                        notes.append(e.message)
                    got = [(0, "", Msg("an action whose record is damaged"))]
                if not got:
                    continue
                undone = got[0][2]
            if seq >= log_from:
                log_.append(undone_sentence(undone))
        log_ = [said(x) for x in log_]
        depth = plan.depth + sum(1 if kind == "do" else -1 for seq, kind, _l, _s in good if seq > plan.top)
        first = depth - len(held)
        if first < 0:
            raise ValueError(f"session {sid_}: its checkpoint at action {plan.depth} does not fit its actions")
        self._session_id, self._seq, self._trail = sid_, last, None
        if self._salvaged:          # what was carried over is all there is: say where the session stands
            notes.append(Msg("The current session holds {n} action now.", n=depth,
                             plural="The current session holds {n} actions now."))
        try:
            session = Session.from_header(header)
            session.loader = self._checkpoint_loader(sid_)
            trail = Trail(held, first, older)
            self._trail = trail
            try:
                session.adopt(trail, log_[-MAX_LOG:], {plan.depth: plan.state} if plan.state is not None else {})
            except (ValueError, KeyError, TypeError, AssertionError) as e:
                log.warning("a checkpoint did not replay (%s); replaying from the start", e)
                session.adopt(trail, log_[-MAX_LOG:], {})    # a bad checkpoint: replay all
        except Exception as e:  # noqa: BLE001 - whatever the stored lines do, the start goes on
            log.exception("session %s could not be replayed", sid_)
            with self.transaction() as db:
                db.execute("UPDATE sessions SET current=0, ended=? WHERE id=?", (int(time.time()), sid_))
                self.seal_session(db, sid_)
            notes.append(Msg("The last session could not be replayed ({}); it was archived.", str(e)[:80]))
            self._session_id, self._seq, self._trail = None, 0, None
            return None
        return session

    def _plan(self, sid_: int) -> _Plan:
        """Which rows a resume reads and which checkpoint it starts from: the newest checkpoint that
        still stands (its action not undone since) at or before the last good action row, and
        every row from the one after it — at least the newest :data:`MAX_LOG` (the log's) — checked.
        Reads more rows only when no such checkpoint lies among them (then from before the one that
        does; with none, from the first row)."""
        nth = self.db.execute("SELECT CAST(seq AS INTEGER) FROM actions WHERE session=? ORDER BY seq DESC "
                              "LIMIT 1 OFFSET ?", (sid_, MAX_LOG - 1)).fetchone()
        lo = max(1, int(nth[0])) if nth is not None and isinstance(nth[0], int) else 1
        candidates = [(int(d), int(t)) for d, t in self.db.execute(
            "SELECT CAST(depth AS INTEGER), CAST(top AS INTEGER) FROM checkpoints WHERE session=? "
            "ORDER BY top DESC, depth DESC", (sid_,)).fetchall() if isinstance(d, int) and isinstance(t, int)]
        candidates.append((0, 0))               # the session's start
        damaged_cp: list[tuple[str, bytes]] = []
        while True:
            read = self._actions(sid_, lo)
            good = read[0]
            last = lo - 1 + len(good)
            lower: int | None = None
            for depth, top in list(candidates):
                if top > last:
                    continue
                if top + 1 < lo:
                    lower = top + 1             # its rows are not read yet
                    break
                level, lowest = depth, depth
                for seq, kind, _line, _sentence in good:
                    if seq > top:
                        level += 1 if kind == "do" else -1
                        lowest = min(lowest, level)
                if lowest < depth:
                    continue                    # its action was undone since
                if depth == 0:
                    return _Plan(read, lo, 0, 0, None, damaged_cp)
                state = self._checkpoint_state(sid_, depth, top, damaged_cp)
                if state is None:
                    candidates.remove((depth, top))
                    continue
                return _Plan(read, lo, depth, top, state, damaged_cp)
            if lower is None:                   # (the start always stands)
                raise ValueError(f"session {sid_}: no start to resume from")
            lo = lower

    def _checkpoint_state(self, sid_: int, depth: int, top: int, damaged: list[tuple[str, bytes]]) -> str | None:
        """The state of checkpoint (depth, top) if its checksum holds (else it goes to ``damaged``)."""
        row = self.db.execute("SELECT CAST(state AS BLOB), CAST(crc AS INTEGER) FROM checkpoints "
                              "WHERE session=? AND depth=? AND top=?", (sid_, depth, top)).fetchone()
        if row is None:
            return None
        text = _text(row[0])
        if crc(sid_, depth, top, row[0]) != row[1] or text is None:
            damaged.append(("checkpoint", _raw(sid_, depth, top, row[0])))
            return None
        return text

    def _actions(self, sid_: int, lo: int = 1) -> tuple[list[tuple[int, str, str, str]], list[tuple[Any, ...]],
                                                        list[tuple[int, int]], list[tuple[Any, ...]]]:
        """The session's good action rows from row ``lo`` on, in order (seq, kind, line, sentence
        JSON) — those whose checksums hold, numbered ``lo``, ``lo``+1, … without a gap — the rows
        lost (damaged, or after the first damaged one: (rowid, raw fields…)), rows whose only
        damage was their number (rowid, the number mended), and rows restored from the copies taken
        before a hot journal was rolled back (values to insert). Rows before ``lo`` are not read
        (a row whose number is not a positive whole number is, wherever it belongs)."""
        rows = self.db.execute(f"SELECT rowid, {ACTION_ROW} FROM actions WHERE session=? AND (seq>=? OR seq<1) "
                               "ORDER BY seq", (sid_, lo)).fetchall()
        valid: dict[int, tuple[Any, ...]] = {}     # seq -> (rowid, seq, kind, line, sentence) as text
        bad: list[tuple[Any, ...]] = []

        def decoded(row: tuple[Any, ...], seq: int) -> tuple[Any, ...] | None:
            """The row as text if its checksum holds under the number ``seq``."""
            if crc(sid_, seq, *row[2:5]) != row[5]:
                return None
            texts = (_text(row[2]), _text(row[3]), _text(row[4]))
            if texts[0] not in ("do", "undo") or texts[1] is None or texts[2] is None:
                return None
            return (row[0], seq, *texts)

        for row in rows:
            good_row = (decoded(row, row[1]) if isinstance(row[1], int) and row[1] >= lo and row[1] not in valid
                        else None)
            if good_row is not None:
                valid[row[1]] = good_row
            else:
                bad.append(row)
        mended: list[tuple[int, int]] = []
        while bad:                  # a row whose number alone was damaged fills the first gap
            gap = next(n for n in range(lo, lo + len(valid) + 1) if n not in valid)
            fit = [(r, d) for r in bad if (d := decoded(r, gap)) is not None]
            if not fit:
                break
            bad.remove(fit[0][0])
            valid[gap] = fit[0][1]
            mended.append((int(fit[0][0][0]), gap))
        refill: list[tuple[Any, ...]] = []
        top = max((r[1] for r in rows if isinstance(r[1], int)), default=0)
        while bad and self._hot is not None:    # a row damaged by the rollback of a damaged journal
            gap = next(n for n in range(lo, lo + len(valid) + 1) if n not in valid)
            copy = self._hot_copies().get(("actions", sid_, gap))
            if gap > top or copy is None:
                break
            valid[gap] = (None, gap, *copy[2:5])
            refill.append(copy)
        n = lo - 1
        while n + 1 in valid:
            n += 1
        good = [(seq, *valid[seq][2:5]) for seq in range(lo, n + 1)]
        raw = {r[0]: r for r in rows}
        lost = bad + [raw[valid[seq][0]] for seq in sorted(valid) if seq > n and valid[seq][0] is not None]
        return good, lost, mended, refill

    def _checkpoint_loader(self, session_id: int) -> Callable[[int], str | None]:
        def load(depth: int) -> str | None:
            trail = self._trail
            if trail is None or depth > len(trail) or depth <= 0:
                return None
            top = trail.seq(depth - 1)      # may read older actions (DamagedRecord if one is damaged)
            row = self.db.execute("SELECT CAST(state AS BLOB), CAST(crc AS INTEGER) FROM checkpoints "
                                  "WHERE session=? AND depth=? AND top=?", (session_id, depth, top)).fetchone()
            if row is None or crc(session_id, depth, top, row[0]) != row[1]:
                if row is not None:
                    log.error("checkpoint %s/%s fails its checksum; replaying from an older one", session_id, depth)
                return None
            return _text(row[0])
        return load

    def older_damaged(self, sid_: int, seq: int) -> DamagedRecord:
        """A damaged older action row found when it was first needed: reported from now on
        (``recovery``: ``state`` answers ``recovered``) and in the log; the row stays where it is
        (its bytes, for a bug report); what needed it is refused."""
        note = Msg("The record of an older action (row {}) is damaged: undo cannot go back past it and the "
                   "actions before it cannot be shown. It is kept for a bug report.", seq)
        log.error("session %s: action row %s is damaged (found when it was needed)", sid_, seq)
        if self.recovery is None or note not in self.recovery.message.args:
            self.recovery = Recovery.of(([self.recovery.message] if self.recovery is not None else []) + [note])
        return DamagedRecord(note)

    def _damage(self, items: list[tuple[str, bytes]], reason: str) -> None:
        try:
            with self.transaction() as db:
                db.executemany("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)",
                               [(what, data, reason) for what, data in items])
        except StorageError as e:
            log.error("cannot keep the damaged rows: %s", e)   # reporting damage must not stop the start

    def begin(self, session: Session) -> None:
        """Make ``session`` (fresh from ``Session.start``) the current one: the old one is archived
        in the same transaction. Raises StorageError (nothing changed) if that cannot be saved."""
        header = json.dumps(session.header, ensure_ascii=False, sort_keys=True)
        ids: list[int] = []

        def landed(db: sqlite3.Connection) -> bool:
            return bool(ids) and db.execute("SELECT 1 FROM sessions WHERE id=? AND current=1 AND header=?",
                                            (ids[0], header)).fetchone() is not None
        with self.transaction(landed) as db:
            for (old,) in db.execute("SELECT id FROM sessions WHERE current=1").fetchall():
                db.execute("UPDATE sessions SET current=0, ended=? WHERE id=?", (int(time.time()), old))
                self.seal_session(db, int(old))
            cur = db.execute("INSERT INTO sessions(header, current, crc) VALUES(?, 1, 0)", (header,))
            new_id = int(cur.lastrowid or 0)
            ids.append(new_id)
            self.seal_session(db, new_id)
        self._session_id, self._seq, self._trail = new_id, 0, session.trail
        session.loader = self._checkpoint_loader(new_id)
        self.recovery = None

    def commit(self, session: Session, line: str, outcome: Outcome, new_json: str) -> None:
        """Store an accepted action (and a checkpoint when due) in one durable transaction, then
        make it current in ``session``. Raises StorageError with nothing changed."""
        assert self._session_id is not None, "no current session"
        sid_, seq = self._session_id, self._seq + 1
        line = line.strip()
        sentence = json.dumps(to_data(session.sentence_of(line, outcome)), ensure_ascii=False)
        with self.transaction(self._row_landed(sid_, seq, "do", line)) as db:
            db.execute("INSERT INTO actions VALUES(?,?,?,?,?,?)",
                       (sid_, seq, "do", line, sentence, crc(sid_, seq, "do", line, sentence)))
            if session.checkpoint_due():
                depth = len(session.lines) + 1
                db.execute("INSERT OR REPLACE INTO checkpoints VALUES(?,?,?,?,?)",
                           (sid_, depth, seq, new_json, crc(sid_, depth, seq, new_json)))
        self._seq = seq
        session.commit(line, outcome, new_json, seq)
        self._trail = session.trail

    @staticmethod
    def _row_landed(sid_: int, seq: int, kind: str, line: str) -> Callable[[sqlite3.Connection], bool]:
        def landed(db: sqlite3.Connection) -> bool:
            return db.execute("SELECT 1 FROM actions WHERE session=? AND seq=? AND kind=? AND line=?",
                              (sid_, seq, kind, line)).fetchone() is not None
        return landed

    def step(self) -> tuple[int, int] | None:
        """What names the step ``undo`` would take back now: the session and the row of its
        action (None if nothing can be undone). It changes whenever that step does — another
        action, an undo, a new session — and comes back only if the same step is on top again."""
        if self._session_id is None or self._trail is None or not len(self._trail):
            return None
        try:
            return self._session_id, self._trail.seq(-1)
        except (LegatusError, LookupError) as e:     # a damaged older action: undo says so itself
            log.warning("the step undo would take back cannot be read: %s", e)
            return None

    def undo(self, session: Session, step: tuple[int, int] | None = None) -> Msg:
        """Store an undo and take the step back in ``session``; returns the undone sentence.
        ``step``: undo only if :meth:`step` still names that step (else StepChanged).
        Raises NothingToUndo, StepChanged or StorageError (nothing changed)."""
        session.check_undo()
        assert self._session_id is not None, "no current session"
        if step is not None and self.step() != step:
            raise StepChanged(Msg("The last step changed since undo was asked; nothing was undone."))
        before = session.before_undo()      # read first: nothing is stored if an older action is damaged
        sid_, seq = self._session_id, self._seq + 1
        with self.transaction(self._row_landed(sid_, seq, "undo", "")) as db:
            db.execute("INSERT INTO actions VALUES(?,?,?,?,?,?)", (sid_, seq, "undo", "", "", crc(sid_, seq, "undo", "", "")))
        self._seq = seq
        return session.undo(before)

    # -- archives ------------------------------------------------------------------------------
    def archives(self, limit: int = 40) -> list[dict[str, Any]]:
        """Archived sessions, newest first: ``header``, effective ``lines``, ``ended`` (epoch s).
        A session whose rows fail their checksums is left out (or cut at its last good action)."""
        out: list[dict[str, Any]] = []
        rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=0 ORDER BY id DESC LIMIT ?",
                               (limit,)).fetchall()
        for sid_, header, current, ended, check in rows:
            ok = session_crc(sid_, header, current, ended) == check or (self._version < FORMAT and crc(sid_, header) == check)
            text = _text(header)
            if not ok or text is None:
                log.error("archived session %s fails its checksum; left out", sid_)
                continue
            lines: list[str] = []
            for seq, kind, line, sentence, c in self.db.execute(
                    f"SELECT {ACTION_ROW} FROM actions WHERE session=? ORDER BY seq", (sid_,)):
                word, text_line = _text(kind), _text(line)
                if crc(sid_, seq, kind, line, sentence) != c or word is None or text_line is None:
                    log.error("archived session %s: action %s fails its checksum; cut there", sid_, seq)
                    break
                if word == "do":
                    lines.append(text_line)
                elif lines:
                    lines.pop()
            out.append({"header": json.loads(text), "lines": lines, "ended": float(ended or 0)})
        return out

    # -- settings ------------------------------------------------------------------------------
    def load_settings(self) -> dict[str, Any]:
        """The stored settings whose checksums hold and whose values are allowed (the start-up
        check reported and set aside the others). Never raises."""
        out: dict[str, Any] = {}
        try:
            rows = self.db.execute(f"SELECT {SETTING_ROW} FROM settings").fetchall()
        except sqlite3.Error as e:
            log.error("cannot read the settings: %s", e)
            return out
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

    def save_settings(self, settings: dict[str, Any]) -> None:
        """Replace the stored settings (one transaction); raises StorageError."""
        rows = [(k, v, crc(k, v)) for k, v in ((k, json.dumps(v, ensure_ascii=False)) for k, v in settings.items())]

        def landed(db: sqlite3.Connection) -> bool:
            return sorted(db.execute("SELECT key, value, crc FROM settings").fetchall()) == sorted(rows)
        with self.transaction(landed) as db:
            db.execute("DELETE FROM settings")
            db.executemany("INSERT INTO settings VALUES(?,?,?)", rows)

    # -- compatibility -------------------------------------------------------------------------
    def snapshot(self, session: Session) -> None:
        """Nothing to do: every action is already stored with its checkpoints."""

    def close(self) -> None:
        """Close the database and release the directory lock."""
        try:
            self.db.close()
        except sqlite3.Error as e:
            log.warning("closing the database: %s", e)
        if not self._lock.closed:
            self._lock.close()


class StepChanged(LegatusError):
    """``undo`` was asked for a step that is no longer the last one (the device asks again)."""

    code = "step_changed"


# -- carrying rows out of a damaged file ---------------------------------------------------------
_ISO = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def _carry(found: list[salvage.Row]) -> tuple[list[tuple[str, tuple[Any, ...]]], list[tuple[str, bytes]]]:
    """The rows (table, values ready to insert) of this program's tables among ``found`` whose
    checksums hold, one per key (a journal page's version first: it is the committed one), and
    the damaged ones that were recognisable (what, raw bytes) for the ``damaged`` table."""
    best: dict[tuple[Any, ...], tuple[int, str, tuple[Any, ...]]] = {}
    damaged: list[tuple[str, bytes]] = []

    def put(key: tuple[Any, ...], rank: int, table: str, values: tuple[Any, ...]) -> None:
        if key not in best or rank > best[key][0]:
            best[key] = (rank, table, values)

    for row in found:
        v: tuple[Any, ...] = row.values
        j = 10 if row.source == "journal" else 0
        ints = [isinstance(x, int) for x in v]
        texts = [_text(x) if isinstance(x, bytes) else None for x in v]
        if len(v) == 5 and v[0] is None and texts[1] is not None and ints[2] and ints[4]:
            ended = int(v[3]) if isinstance(v[3], (int, float)) and abs(v[3]) < 2**62 else None
            if session_crc(row.rowid, v[1], v[2], ended) == v[4] or crc(row.rowid, v[1]) == v[4]:
                # an archived version beats a current one (archiving never goes back)
                put(("sessions", row.rowid), j + (1 if v[2] == 0 else 0), "sessions", (row.rowid, texts[1], v[2], ended))
            else:
                damaged.append(("session", _raw(row.rowid, *v)))
        elif len(v) == 6 and ints[0] and ints[1] and ints[5] and None not in texts[2:5]:
            if crc(*v[:5]) == v[5]:
                put(("actions", v[0], v[1]), j, "actions", (v[0], v[1], *texts[2:5], v[5]))
            else:
                damaged.append(("action", _raw(*v)))
        elif len(v) == 5 and ints[0] and ints[1] and ints[2] and ints[4] and texts[3] is not None:
            if crc(*v[:4]) == v[4]:
                put(("checkpoints", v[0], v[1], v[2]), j, "checkpoints", (*v[:3], texts[3], v[4]))
            else:
                damaged.append(("checkpoint", _raw(*v)))
        elif len(v) == 3 and texts[0] is not None and texts[1] is not None and ints[2]:
            if crc(v[0], v[1]) == v[2]:
                put(("settings", v[0]), j, "settings", (texts[0], texts[1], v[2]))
            elif history.started_crc(v[0], v[1]) == v[2]:
                put(("history_started", v[0]), j, "history_started", (texts[0], texts[1], v[2]))
            elif fairness.fair_crc(v[0], v[1]) == v[2]:
                put(("fair", v[0]), j, "fair", (texts[0], texts[1], v[2]))
            elif players.player_crc(v[0], v[1]) == v[2]:
                put(("players", v[0]), j, "players", (texts[0], texts[1], v[2]))
            else:
                damaged.append(("setting", _raw(*v)))
        elif len(v) == 2 and texts[0] is not None and texts[1] is not None and _ISO.match(v[1]):
            put(("history_started", v[0]), j - 5, "history_started", (texts[0], texts[1], history.started_crc(v[0], v[1])))
        elif len(v) == 8 and v[0] is None and ints[4] and ints[5] and ints[7] and None not in texts[1:4] and texts[6]:
            if history.row_crc(row.rowid, *v[1:7]) == v[7]:
                put(("history", row.rowid), j + v[5], "history", (row.rowid, *texts[1:4], v[4], v[5], texts[6], v[7]))
            else:
                damaged.append(("history", _raw(row.rowid, *v)))
        elif len(v) == 4 and v[0] is None and all(isinstance(x, bytes) for x in v[1:]) and texts[1] and texts[3]:
            put(("damaged", row.rowid), j, "damaged", (row.rowid, texts[1], v[2], texts[3]))
    # one current session: the newest (an interrupted 'new' may have left two)
    currents = [v[0] for _, t, v in best.values() if t == "sessions" and v[2] == 1]
    newest = max(currents, default=None)
    order = ("sessions", "actions", "checkpoints", "settings", "history", "history_started", "fair", "players", "damaged")
    out: list[tuple[str, tuple[Any, ...]]] = []
    for _, table, values in sorted(best.values(), key=lambda r: order.index(r[1])):
        if table == "sessions":
            sid_, header, current, ended = values
            current = 1 if current == 1 and sid_ == newest else 0
            values = (sid_, header, current, ended, session_crc(sid_, header.encode(), current, ended))
        out.append((table, values))
    return out, damaged
