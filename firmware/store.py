"""The state directory: one SQLite database holding sessions, actions, checkpoints and settings.

Layout of ``--state-dir`` (default ``$LEGATUS_STATE_DIR`` or ``~/.local/state/legatus``)::

    legatus.db             the database (Python's sqlite3)
    legatus.db.damaged-N   a database file SQLite could not read, moved aside and reported
    imported-N/            the journal files of an older Legatus, kept after they were imported
    lock                   held (flock) while a Legatus process uses the directory

Each accepted action is one transaction — its row and, every ``CHECKPOINT_EVERY`` actions, a
checkpoint of the state — committed durably before the reply; a failed commit rolls back and the
request is refused with nothing changed (:class:`StorageError`). Starting a new session and
archiving the old one is one transaction. Every row carries a CRC-32 of its content, checked when
it is read: a damaged action ends the session at the last good action, a damaged checkpoint is
skipped (the state is replayed from an older one), and the damaged bytes are kept in the
``damaged`` table for a bug report; ``recovery`` says what was found.
"""
from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from engine.errors import LegatusError
from engine.game import Outcome
from engine.text import Msg, to_data
from firmware.storage import fsync_dir as _fsync_dir
from firmware.session import MAX_LOG, Session, Stored, said, undone_sentence

DB_NAME = "legatus.db"
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


class StateDirError(Exception):
    """The state directory cannot be used (permissions, another process holds it)."""


class StorageError(LegatusError):
    """Nothing could be saved (disk full, read-only, I/O error, directory gone): the request is
    refused and nothing changed; reading goes on, and the next change tries again."""

    code = "storage_error"


class Recovery(NamedTuple):
    """What opening the store found wrong and what was done about it."""

    message: Any                       # a Msg for a person

    def sentence(self) -> str:
        from firmware.i18n import say
        return say(self.message)


def crc(*fields: Any) -> int:
    """CRC-32 of a row's fields (with a separator no field contains), so any changed byte of a
    row is detected."""
    return zlib.crc32("\x1f".join(map(str, fields)).encode())


def default_state_dir() -> Path:
    env = os.environ.get("LEGATUS_STATE_DIR")
    return Path(env) if env else Path.home() / ".local" / "state" / "legatus"




def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


class Store:
    """Owns one state directory for the life of the process (takes an exclusive lock)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.recovery: Recovery | None = None
        self._notes: list[Any] = []
        try:
            existed = self.root.exists()
            self.root.mkdir(parents=True, exist_ok=True)
            if not existed:                 # a new directory survives a power cut (F8)
                _fsync_dir(self.root.parent)
            self._lock = open(self.root / "lock", "a+b")
        except OSError as e:
            raise StateDirError(Msg("Cannot use the state directory {}: {}. "
                                    "Pick another with --state-dir or LEGATUS_STATE_DIR.",
                                    str(self.root), e.strerror)) from None
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            raise StateDirError(Msg("Another Legatus process is using {}; stop it first "
                                    "(systemctl stop legatus) or pick another --state-dir.",
                                    str(self.root))) from None
        self.db_path = self.root / DB_NAME
        self.db = self._open()
        self._ids = (_identity(self.root), _identity(self.db_path), _identity(self.root / "lock"))
        self._session_id: int | None = None
        self._seq = 0                      # the last action row's seq of the current session
        self._stack: list[int] = []        # seq of each effective action (checkpoint validity)
        from firmware import migrate
        imported = migrate.import_old_files(self)
        if imported is not None:
            self._notes.append(imported)

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
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("PRAGMA synchronous=EXTRA")
        db.execute("PRAGMA foreign_keys=OFF")
        db.executescript(SCHEMA)
        return db

    def _open(self) -> sqlite3.Connection:
        """The database, or a new one after moving an unreadable file aside (never a crash loop)."""
        try:
            db = self._connect()
            # integrity_check, not quick_check: it also compares each index with its table (a few
            # ms for 20,000 actions). A damaged index alone would make a query silently skip rows
            # (an acknowledged action missing, nothing reported); it is rebuilt from the tables.
            problem = self._integrity(db)
            if problem is not None:
                try:
                    db.execute("REINDEX")
                except sqlite3.OperationalError:   # cannot write: treat the file as damaged
                    raise sqlite3.DatabaseError(f"integrity_check: {problem}") from None
                if self._integrity(db) is not None:
                    raise sqlite3.DatabaseError(f"integrity_check: {problem}")
                self._notes.append(Msg("An index of the database was damaged ({}); it was rebuilt from the "
                                       "stored rows.", problem[:80]))
            return db
        except sqlite3.DatabaseError as e:
            if isinstance(e, sqlite3.OperationalError) and not self._looks_damaged(e):
                raise StateDirError(Msg("Cannot open {}: {}. Check the disk and its permissions.",
                                        str(self.db_path), str(e))) from None
            try:
                db.close()
            except Exception:  # noqa: BLE001
                pass
            aside = self._move_aside(self.db_path)
            self._notes.append(Msg("The database could not be read ({}); it was kept aside as {} and a new one "
                                   "was started.", str(e)[:80], aside.name))
            try:
                return self._connect()
            except sqlite3.Error as e2:
                raise StateDirError(Msg("Cannot create {}: {}.", str(self.db_path), str(e2))) from None

    @staticmethod
    def _integrity(db: sqlite3.Connection) -> str | None:
        """None if SQLite's integrity_check finds nothing wrong, else its first finding."""
        row = db.execute("PRAGMA integrity_check(1)").fetchone()
        return None if row is not None and row[0] == "ok" else str(row[0] if row else "no answer")

    @staticmethod
    def _looks_damaged(e: sqlite3.Error) -> bool:
        text = str(e).lower()
        return any(w in text for w in ("malformed", "not a database", "corrupt", "file is not", "disk image"))

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
        _fsync_dir(path.parent)
        return aside

    # -- transactions --------------------------------------------------------------------------
    def _check_dir(self) -> None:
        """Refuse to acknowledge anything if the directory or the database was deleted or
        replaced under us (F6): the rows would go to a file nobody reads again."""
        try:
            now = (_identity(self.root), _identity(self.db_path), _identity(self.root / "lock"))
        except OSError:
            now = None
        if now != self._ids:
            raise StorageError(Msg("The state directory {} was removed or replaced while Legatus ran; nothing "
                                   "was saved. Restart Legatus.", str(self.root)))

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
            self._reconnect()
            raise StorageError(self._failure(e)) from None
        try:
            yield self.db
        except sqlite3.Error as e:
            self._rollback()
            raise StorageError(self._failure(e)) from None
        except BaseException:
            self._rollback()
            raise
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error as e:
            self._rollback()
            self._reconnect()
            if landed is not None and self._asks(landed):
                try:
                    _fsync_dir(self.root)
                except OSError:
                    pass
                return
            raise StorageError(self._failure(e)) from None

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error:
            self._reconnect()

    def _asks(self, landed: Callable[[sqlite3.Connection], bool]) -> bool:
        try:
            return bool(landed(self.db))
        except sqlite3.Error:
            return False

    def _reconnect(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:
            pass
        try:
            self.db = self._connect()
        except sqlite3.Error:
            pass   # the next transaction tries again

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
        except sqlite3.Error as e:
            notes.append(Msg("The last session could not be read ({}).", str(e)[:80]))
        if notes:
            self.recovery = Recovery(notes[0] if len(notes) == 1 else Msg("{} {}", notes[0], notes[1]))
            if session is not None:
                session.log.append(self.recovery.message)
        return session

    def _resume(self, notes: list[Any]) -> Session | None:
        row = self.db.execute("SELECT id, header, crc FROM sessions WHERE current=1 ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        sid_, header_text, check = row
        if crc(sid_, header_text) != check:
            self._damage([("session", header_text)], "checksum")
            with self.transaction() as db:
                db.execute("UPDATE sessions SET current=0 WHERE id=?", (sid_,))
            notes.append(Msg("The current session's header was damaged; it was kept for a bug report and no "
                             "session was resumed."))
            return None
        header = json.loads(header_text)
        rows = self.db.execute("SELECT seq, kind, line, sentence, crc FROM actions WHERE session=? ORDER BY seq",
                               (sid_,)).fetchall()
        good: list[tuple[int, str, str, str]] = []
        bad_from: int | None = None
        for seq, kind, line, sentence, check in rows:
            if seq != len(good) + 1 or crc(sid_, seq, kind, line, sentence) != check or kind not in ("do", "undo"):
                bad_from = seq
                break
            good.append((seq, kind, line, sentence))
        if bad_from is not None:
            bad = [r for r in rows if r[0] >= bad_from]
            self._damage([("action", json.dumps(r, ensure_ascii=False)) for r in bad], "checksum")
            with self.transaction() as db:
                db.execute("DELETE FROM actions WHERE session=? AND seq>=?", (sid_, bad_from))
            notes.append(Msg("A damaged record was found after action {}; {} records were kept aside for a bug "
                             "report and the session resumed at the last good action.", len(good), len(bad)))
        stack: list[int] = []
        lines: list[str] = []
        sentences: list[Any] = []
        log: list[Any] = []
        log_from = max(0, len(good) - MAX_LOG)
        for i, (seq, kind, line, sentence) in enumerate(good):
            if kind == "do":
                stack.append(seq)
                lines.append(line)
                sentences.append(Stored(sentence))
                if i >= log_from:
                    log.append(Stored(sentence))
            elif stack:
                stack.pop()
                lines.pop()
                undone = sentences.pop()
                if i >= log_from:
                    log.append(undone_sentence(undone))
        log = [said(x) for x in log]
        checkpoints: dict[int, str] = {}
        damaged_cp = []
        for depth, top, state, check in self.db.execute(
                "SELECT depth, top, state, crc FROM checkpoints WHERE session=?", (sid_,)):
            if crc(sid_, depth, top, state) != check:
                damaged_cp.append(("checkpoint", json.dumps([depth, top, state[:2000]])))
                continue
            if 0 < depth <= len(stack) and stack[depth - 1] == top:
                checkpoints[depth] = state
        if damaged_cp:
            self._damage(damaged_cp, "checksum")
            notes.append(Msg("A damaged checkpoint was skipped; the state was replayed from an older one."))
        self._session_id, self._seq, self._stack = sid_, len(good), stack
        try:
            session = Session.from_header(header)
            session.loader = self._checkpoint_loader(sid_)
            try:
                session.rebuild(lines, sentences, log[-MAX_LOG:], checkpoints)
            except (ValueError, KeyError, TypeError, AssertionError):
                session.rebuild(lines, sentences, log[-MAX_LOG:], {})    # a bad checkpoint: replay all
        except (LegatusError, KeyError, TypeError, ValueError, AssertionError) as e:
            with self.transaction() as db:
                db.execute("UPDATE sessions SET current=0, ended=? WHERE id=?", (time.time(), sid_))
            notes.append(Msg("The last session could not be replayed ({}); it was archived.", str(e)[:80]))
            self._session_id, self._seq, self._stack = None, 0, []
            return None
        return session

    def _checkpoint_loader(self, session_id: int) -> Any:
        def load(depth: int) -> str | None:
            if depth > len(self._stack) or depth <= 0:
                return None
            row = self.db.execute("SELECT state, crc FROM checkpoints WHERE session=? AND depth=? AND top=?",
                                  (session_id, depth, self._stack[depth - 1])).fetchone()
            if row is None or crc(session_id, depth, self._stack[depth - 1], row[0]) != row[1]:
                return None
            return str(row[0])
        return load

    def _damage(self, items: list[tuple[str, str]], reason: str) -> None:
        try:
            with self.transaction() as db:
                db.executemany("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)",
                               [(what, data, reason) for what, data in items])
        except StorageError:
            pass   # reporting damage must not stop the start

    def begin(self, session: Session) -> None:
        """Make ``session`` (fresh from ``Session.start``) the current one: the old one is archived
        in the same transaction. Raises StorageError (nothing changed) if that cannot be saved."""
        header = json.dumps(session.header, ensure_ascii=False, sort_keys=True)
        ids: list[int] = []

        def landed(db: sqlite3.Connection) -> bool:
            return bool(ids) and db.execute("SELECT 1 FROM sessions WHERE id=? AND current=1 AND header=?",
                                            (ids[0], header)).fetchone() is not None
        with self.transaction(landed) as db:
            db.execute("UPDATE sessions SET current=0, ended=? WHERE current=1", (time.time(),))
            cur = db.execute("INSERT INTO sessions(header, current, crc) VALUES(?, 1, 0)", (header,))
            new_id = int(cur.lastrowid or 0)
            ids.append(new_id)
            db.execute("UPDATE sessions SET crc=? WHERE id=?", (crc(new_id, header), new_id))
        self._session_id, self._seq, self._stack = new_id, 0, []
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
        self._stack.append(seq)
        session.commit(line, outcome, new_json)

    @staticmethod
    def _row_landed(sid_: int, seq: int, kind: str, line: str) -> Callable[[sqlite3.Connection], bool]:
        def landed(db: sqlite3.Connection) -> bool:
            return db.execute("SELECT 1 FROM actions WHERE session=? AND seq=? AND kind=? AND line=?",
                              (sid_, seq, kind, line)).fetchone() is not None
        return landed

    def undo(self, session: Session) -> Msg:
        """Store an undo and take the step back in ``session``; returns the undone sentence.
        Raises NothingToUndo or StorageError (nothing changed)."""
        session.check_undo()
        assert self._session_id is not None, "no current session"
        sid_, seq = self._session_id, self._seq + 1
        with self.transaction(self._row_landed(sid_, seq, "undo", "")) as db:
            db.execute("INSERT INTO actions VALUES(?,?,?,?,?,?)", (sid_, seq, "undo", "", "", crc(sid_, seq, "undo", "", "")))
        self._seq = seq
        if self._stack:
            self._stack.pop()
        return session.undo()

    # -- archives ------------------------------------------------------------------------------
    def archives(self, limit: int = 40) -> list[dict[str, Any]]:
        """Archived sessions, newest first: ``header``, effective ``lines``, ``ended`` (epoch s)."""
        out: list[dict[str, Any]] = []
        rows = self.db.execute("SELECT id, header, ended, crc FROM sessions WHERE current=0 ORDER BY id DESC LIMIT ?",
                               (limit,)).fetchall()
        for sid_, header_text, ended, check in rows:
            if crc(sid_, header_text) != check:
                continue
            lines: list[str] = []
            for seq, kind, line, sentence, c in self.db.execute(
                    "SELECT seq, kind, line, sentence, crc FROM actions WHERE session=? ORDER BY seq", (sid_,)):
                if crc(sid_, seq, kind, line, sentence) != c:
                    break
                if kind == "do":
                    lines.append(line)
                elif lines:
                    lines.pop()
            out.append({"header": json.loads(header_text), "lines": lines, "ended": ended or 0.0})
        return out

    # -- settings ------------------------------------------------------------------------------
    def load_settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        try:
            rows = self.db.execute("SELECT key, value, crc FROM settings").fetchall()
        except sqlite3.Error:
            return out
        for key, value, check in rows:
            if crc(key, value) == check:
                try:
                    out[key] = json.loads(value)
                except ValueError:
                    pass
        return out

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
        except sqlite3.Error:
            pass
        if not self._lock.closed:
            self._lock.close()


