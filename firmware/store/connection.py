"""The open database and its transactions: the connection's settings (rollback journal,
synchronous=EXTRA), durable transactions that roll back and raise StorageError on any failure (and
ask whether a commit that reported an error landed after all), the directory and its lock checked
before anything is acknowledged, and the sessions row's seal."""
from __future__ import annotations

import errno
import fcntl
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import IO, Any

from engine.text import Msg
from firmware.storage import Recovery, StorageError, crc, fsync_dir, make_dirs, make_private
from firmware.store.schema import FORMAT, SESSION_ROW, _identity, _text, session_crc
from firmware.trail import Trail
from firmware.store.reasons import ask_card, reason

log = logging.getLogger(__name__)


class Connection:
    """The state a :class:`~firmware.store.Store` holds (set up by its ``__init__``) and what
    every part of it uses: the connection, transactions, the lock, the seal of a sessions row."""

    root: Path
    db_path: Path
    db: sqlite3.Connection
    recovery: Recovery | None
    _notes: list[Msg]                                    # what the start found, said by resume()
    _lock: IO[bytes]
    _ids: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]   # the directory, database, lock
    _version: int                                        # the file's format (PRAGMA user_version)
    _session_id: int | None
    _salvaged: bool                    # the database was rebuilt from the rows of a damaged one
    _seq: int                          # the last action row's seq of the current session
    _trail: Trail | None               # the current session's effective actions (their rows' seq)
    _hot: tuple[bytes, bytes] | None   # (database, journal) as they were before a hot journal's rollback
    _hot_rows: dict[tuple[Any, ...], tuple[Any, ...]] | None
    _plain: sqlite3.Error | None = None  # why the connection could not be set up (None: it is)
    _newer_format: int | None = None     # the format of a newer Legatus's file: nothing of it is changed
    _unmended: tuple[int, ...] = ()      # current sessions whose damaged "current" mark the card refused to mend
    _memory: bool = False                # a damaged database salvaged in memory (the card read-only at the start)
    _memory_only: bool = False           # ... and the start done: every change is refused
    _written_back: Msg | None = None     # the note of a deleted database written back (said past a ``new``)
    _aside: Callable[[sqlite3.Connection], None] | None = None   # the damaged action rows to set aside,
                                         # which the card refused at start: done in the next action's transaction

    def _connect(self) -> sqlite3.Connection:
        """The connection to the database (see :meth:`_open_file`). On a read-only card holding a
        hot rollback journal (a power cut mid-commit, then the card remounted read-only) SQLite
        cannot roll it back and reads nothing: the database as the rollback makes it is read from
        a copy in memory (:meth:`_rolled_back`), every change is refused as on any read-only card,
        and the next connection after a refusal tries the card again (the real rollback)."""
        try:
            return self._open_file(self.db_path)
        except sqlite3.OperationalError as e:
            if "readonly" not in str(e).lower() or not self._hot_on_read_only():
                raise
            log.warning("%s has a rollback journal that a read-only card keeps from being rolled back (%s); "
                        "reading the rolled-back database from memory", self.db_path, e)
            return self._rolled_back()

    def _hot_on_read_only(self) -> bool:
        """Whether a rollback journal is left on a card that cannot be written: mounted read-only
        (statvfs says so), or made read-only by the kernel after an error without a word to
        statvfs (ext4's "emergency read-only" of recent kernels: the mount still reads rw, every
        write is refused with EROFS), asked by opening the journal to write (nothing is changed)."""
        journal = self.db_path.with_name(self.db_path.name + "-journal")
        try:
            if journal.stat().st_size == 0:
                return False
            if os.statvfs(self.root).f_flag & os.ST_RDONLY:
                return True
            fd = os.open(journal, os.O_WRONLY)
        except OSError as e:
            return e.errno == errno.EROFS
        os.close(fd)
        return False

    def _rolled_back(self) -> sqlite3.Connection:
        """A read-only connection to a copy of the database and its journal, rolled back, in a
        temporary directory in memory (/dev/shm), removed once the copy is open."""
        shm = Path("/dev/shm")
        import shutil                    # (only here: tempfile loads random, shutil bz2 and lzma;
        import tempfile                  # a start without this pays nothing)
        tmp = Path(tempfile.mkdtemp(prefix="legatus-", dir=shm if shm.is_dir() else None))
        try:
            copy = tmp / self.db_path.name
            shutil.copyfile(self.db_path, copy)
            shutil.copyfile(self.db_path.with_name(self.db_path.name + "-journal"),
                            copy.with_name(copy.name + "-journal"))
            first = sqlite3.connect(copy)
            try:
                first.execute("SELECT count(*) FROM sqlite_master").fetchone()     # SQLite rolls it back
            finally:
                first.close()
            db = sqlite3.connect(f"file:{copy}?mode=ro", uri=True, isolation_level=None, timeout=2.0,
                                 check_same_thread=False)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()            # open before it goes
            return db
        except OSError as e:
            raise sqlite3.OperationalError(f"attempt to write a readonly database (no copy to read: {e})") from e
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def _open_file(self, path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None, timeout=2.0, check_same_thread=False)
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

    # -- transactions --------------------------------------------------------------------------
    def _check_dir(self) -> None:
        """Refuse to acknowledge anything if the directory or the database was deleted or
        replaced under us (F6): the rows would go to a file nobody reads again. A lock file
        deleted alone is taken again (unless another process has taken the new one)."""
        try:
            now = (_identity(self.root), _identity(self.db_path))
        except OSError:
            now = None
        if now != self._ids[:2] and not self._put_back():
            raise StorageError(Msg("The state directory {} was removed or replaced while Legatus ran; nothing "
                                   "was saved. Restart Legatus.", str(self.root)))
        try:
            lock = _identity(self.root / "lock")
        except OSError:
            lock = None
        if lock != self._ids[2]:
            self._retake_lock()

    def _deleted(self) -> bool:
        """Whether the database file this connection reads was deleted (no name left for it
        anywhere: not moved, not replaced): one of this process's open files is it, with no link."""
        try:
            fds = os.listdir("/proc/self/fd")
        except OSError:
            return False
        for fd in fds:
            try:
                st = os.stat(f"/proc/self/fd/{fd}")
            except OSError:
                continue
            if (st.st_dev, st.st_ino) == self._ids[1]:
                return st.st_nlink == 0
        return False

    def _put_back(self) -> bool:
        """The state directory, or the database in it, deleted under a running Legatus (someone
        tidying the card): restarting, as the refusal said, lost every game and all History, as
        the only copy was the file still open here. The open database is written again in its
        place (a copy made beside it, synced, renamed in), the directory made again if need be,
        and the change goes on; said from then on (``recovery``). Not when the file was moved
        or another one stands in its place (False: nothing of another's is overwritten); when it
        cannot be written, the change is refused saying so (StorageError)."""
        if os.path.lexists(self.db_path) or not self._deleted():
            return False
        copy = self.db_path.with_name(self.db_path.name + ".back")
        try:
            make_dirs(self.root)
            if os.path.lexists(copy):
                os.unlink(copy)
            dest = sqlite3.connect(copy)
            try:
                self.db.backup(dest)
            finally:
                dest.close()
            make_private(copy, True)
            fd = os.open(copy, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(copy, self.db_path)
            fsync_dir(self.root)
            fresh = self._connect()
        except (OSError, sqlite3.Error) as e:
            log.error("the deleted database %s cannot be written again: %s", self.db_path, e)
            try:
                copy.unlink()
            except OSError:
                pass
            why = self._why(e)      # (not «Restart Legatus»: the games are only in the open file now)
            raise StorageError(Msg("The saved games were deleted from the card while Legatus ran and cannot be "
                                   "written back ({}): nothing was changed. Keep Legatus on and check the card; "
                                   "the next change tries again.", why)) from None
        try:
            self.db.close()
        except sqlite3.Error as e:
            log.warning("closing the deleted database: %s", e)
        self.db, self._plain = fresh, None
        self._ids = (_identity(self.root), _identity(self.db_path), self._ids[2])
        log.warning("the database %s was deleted while Legatus ran; it was written again from the open one",
                    self.db_path)
        note = Msg("The saved games were deleted from the card while Legatus ran; they were written back, "
                   "every game and History as they were.")
        self._written_back = note          # (said on past a ``new`` this change makes: Actions.begin)
        if self.recovery is None or note not in self.recovery.message.args:
            self.recovery = Recovery.of(([self.recovery.message] if self.recovery is not None else []) + [note])
        return True

    def _retake_lock(self) -> None:
        path = self.root / "lock"
        try:
            new = open(path, "a+b")
        except OSError as e:
            log.error("the lock file %s cannot be made again: %s", path, e)
            raise StorageError(Msg("The lock file {} cannot be made again ({}); nothing was saved.",
                                   str(path), reason(e))) from None
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

    watch: Callable[[], AbstractContextManager[None]] | None = None
    """Entered around every transaction, if set: the device's "Saving…" sign while a save takes
    long (firmware.saving_sign.SavingSign; a slow card syncs each commit for seconds)."""

    @contextmanager
    def transaction(self, landed: Callable[[sqlite3.Connection], bool] | None = None) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT (durable), inside :attr:`watch`; see :meth:`_transaction`."""
        with self.watch() if self.watch is not None else nullcontext():
            with self._transaction(landed) as db:
                yield db

    @contextmanager
    def _transaction(self, landed: Callable[[sqlite3.Connection], bool] | None = None) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT (durable). Any failure rolls back and raises StorageError:
        nothing of the transaction is stored.

        A COMMIT can fail after its commit point: with synchronous=EXTRA the directory is fsync'd
        after the journal's unlink, and if that fsync fails SQLite reports an I/O error for a
        transaction that is in the file (a restart shows it). ``landed`` (a query of the rows the
        transaction wrote) is then asked on a fresh connection — which sees what a restart would,
        rolling a hot journal back — and if the rows are there the transaction counts as done
        (no error), so a refused request never comes back and memory never differs from disk.
        Without ``landed``, the database file's change counter is asked instead (:meth:`_moved`).

        A file of a newer Legatus (:meth:`~firmware.store.opening.Opening._newer`) is never
        changed: every transaction is refused, saying why."""
        if self._memory_only:
            raise StorageError(Msg("Nothing was changed: the card was read-only when Legatus started, so the damaged "
                                   "records were read into memory only and nothing can be saved. Turn Legatus off and "
                                   "on again; if the card is still read-only, replace it."))
        if self._newer_format is not None:
            raise StorageError(Msg("The games on this card were saved by a newer Legatus (data format {}): "
                                   "nothing was changed. Update Legatus to go on.", self._newer_format))
        self._check_dir()
        self._ready()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            log.error("BEGIN failed: %s", e)
            self._reconnect()
            raise StorageError(self._failure(self._cause(e))) from None
        if landed is None:
            landed = self._moved(self._change_counter())
        try:
            yield self.db
        except sqlite3.Error as e:
            log.error("a transaction failed: %s", e)
            self._rollback()
            if "readonly" in str(e).lower():     # opened read-only (a read-only card): open again next time
                self._reconnect()
            raise StorageError(self._failure(self._cause(e))) from None
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
            raise StorageError(self._failure(self._cause(e))) from None

    def _change_counter(self) -> bytes | None:
        """The database file's change counter (header bytes 24-27, raised by SQLite at every commit
        in rollback-journal mode; empty for a file with no header yet), or None if unreadable."""
        try:
            with open(self.db_path, "rb") as f:
                return f.read(28)[24:28]
        except OSError as e:
            log.warning("cannot read the change counter of %s: %s", self.db_path, e)
            return None

    def _moved(self, before: bytes | None) -> Callable[[sqlite3.Connection], bool]:
        """Whether a transaction whose COMMIT reported an error is in the file after all (asked on
        the fresh connection): the change counter moved since its BEGIN (``before``, read under
        the write lock) and no rollback journal is left that a restart would roll back."""
        def moved(db: sqlite3.Connection) -> bool:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()     # a hot journal is rolled back first
            journal = self.db_path.with_name(self.db_path.name + "-journal")
            try:
                if journal.exists() and journal.stat().st_size > 0:
                    return False
            except OSError as e:
                log.warning("cannot look at %s: %s", journal, e)
                return False
            now = self._change_counter()
            return before is not None and now is not None and now != before
        return moved

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
        """A fresh connection. If it cannot be set up (the disk refuses the writes a hot journal's
        rollback needs), reads still go to a plain connection (each read tries again and fails
        with SQLite's own error, never "closed database"), and no transaction runs on it: the next
        one sets the connection up first (:meth:`_ready`)."""
        if self._memory:                 # (the records are only in memory: never the damaged file)
            return
        try:
            self.db.close()
        except sqlite3.Error as e:
            log.warning("closing the database: %s", e)
        try:
            self.db = self._connect()
            self._plain = None
        except sqlite3.Error as e:
            log.warning("reconnecting failed (the next transaction tries again): %s", e)
            self._plain = e
            self.db = sqlite3.connect(self.db_path, isolation_level=None, timeout=2.0, check_same_thread=False)

    def _ready(self) -> None:
        """Refuse a transaction (nothing changed) while the connection could not be set up."""
        if self._plain is None:
            return
        self._reconnect()
        if self._plain is not None:
            raise StorageError(self._failure(self._cause(self._plain)))

    def _cause(self, e: sqlite3.Error) -> sqlite3.Error | OSError:
        """``e``, or where SQLite names no cause the card's own state as SQLite would say it: a
        card the kernel made read-only mid-game (an ext4 error), one with no free block or no
        free file left, or a directory Legatus may no longer write in makes SQLite say "unable
        to open database file" (the rollback journal could not be made) or "disk I/O error",
        which tells the player neither what happened nor what to do. Asked as SQLite found it:
        a file made in the directory (and removed), then the file system's free blocks."""
        text = str(e).lower()
        if "full" in text:
            return e
        if "readonly" in text or "read-only" in text:    # the card, or only the file (no right to write it)?
            try:
                os.close(os.open(self.db_path, os.O_WRONLY))
            except OSError as e2:
                return (self._said(e, e2) or e) if e2.errno in (errno.EACCES, errno.EPERM) else e
            return e
        found = ask_card(self.db_path.parent, self.db_path.name + "-probe")
        return e if found is None else (self._said(e, found) or e)

    def _why(self, e: BaseException) -> Msg | str:
        """``e`` as a reason for a sentence (:func:`~firmware.store.reasons.reason`), a SQLite error
        that names no cause said as the card's own state (:meth:`_cause`)."""
        return reason(self._cause(e) if isinstance(e, sqlite3.Error) else e)

    def _said(self, e: sqlite3.Error, found: OSError) -> sqlite3.Error | OSError | None:
        """What the card's own error ``found`` says of the refusal ``e`` (None: nothing more)."""
        if found.errno == errno.EROFS:
            log.error("%s is on a file system that is read-only now (%s)", self.root, e)
            return sqlite3.OperationalError(f"attempt to write a readonly database ({e})")
        if found.errno in (errno.ENOSPC, errno.EDQUOT):
            log.error("%s has no room left (%s: %s)", self.root, e, found)
            return sqlite3.OperationalError(f"database or disk is full ({e})")
        if found.errno in (errno.EACCES, errno.EPERM):
            log.error("%s cannot be written in now (%s: %s)", self.root, e, found)
            return PermissionError(found.errno, f"{found.strerror} ({e})")
        log.warning("a file cannot be made in %s either: %s", self.root, found)
        return None

    @staticmethod
    def _failure(e: sqlite3.Error | OSError) -> Msg:
        text = str(e).lower()
        if isinstance(e, PermissionError):              # (:meth:`_cause` found it: SQLite's words follow)
            return Msg("Legatus may no longer write in its folder: nothing was changed; what was saved is kept. "
                       "Give it the right to write there again; Legatus goes on by itself.")
        if "full" in text:
            return Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself.")
        if "readonly" in text or "read-only" in text:
            return Msg("The storage is read-only: nothing was changed; what was saved is kept. Turn Legatus "
                       "off and on again; if this comes back, replace the card.")
        return Msg("Could not save ({}): nothing was changed. Check the card; Legatus tries again at the next "
                   "change.", reason(e))

    def session_header(self, row: tuple[Any, ...]) -> str | None:
        """The header text of a ``SESSION_ROW`` (id, header, current, ended, crc) whose checksum
        holds (a store of an older format: its older checksum), else None."""
        sid_, header, current, ended, check = row
        ok = session_crc(sid_, header, current, ended) == check or (
            self._version < FORMAT and crc(sid_, header) == check)
        return _text(header) if ok else None

    def seal_session(self, db: sqlite3.Connection, sid_: int) -> None:
        """Write the checksum of sessions row ``sid_`` as it now stands (inside a transaction)."""
        row = db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE id=?", (sid_,)).fetchone()
        if row is None:
            return
        value = session_crc(*row[:4]) if self._version >= FORMAT else crc(row[0], row[1])
        db.execute("UPDATE sessions SET crc=? WHERE id=?", (value, sid_))

    def close(self) -> None:
        """Close the database and release the directory lock."""
        try:
            self.db.close()
        except sqlite3.Error as e:
            log.warning("closing the database: %s", e)
        if not self._lock.closed:
            self._lock.close()
