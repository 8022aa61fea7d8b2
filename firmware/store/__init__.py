"""The state directory: one SQLite database holding sessions, actions, checkpoints and settings.

Layout of ``--state-dir`` (default ``$LEGATUS_STATE_DIR`` or ``~/.local/state/legatus``)::

    legatus.db             the database (Python's sqlite3)
    legatus.db.damaged-N   a database file SQLite could not read, moved aside and reported
    legatus.db.new/.ready  the database a salvage is making / has made, before it takes the
                           damaged one's place (a start that finds .ready finishes the swap)
    legatus.db.back        the database deleted under a running Legatus, being written back
                           from the open one (a start that finds it alone takes it)
    imported-N/            the journal files of an older Legatus, kept after they were imported
    lock                   held (flock) while a Legatus process uses the directory

Each accepted action is one transaction — its row and, every ``CHECKPOINT_EVERY`` actions, a
checkpoint of the state, and when a key of the device made it right after another of its steps,
the ``same_key`` mark that joins them (one hold of B takes a key's steps back together, in one
transaction too, after a restart as before it) — committed durably before the reply; a failed commit rolls back and the
request is refused with nothing changed (:class:`StorageError`). On a read-only filesystem (a card
the kernel remounted read-only) the store still opens: everything reads, every change is refused,
the start says why, and saving works again once the card is writable (a rollback journal a power
cut left, which the read-only card keeps SQLite from rolling back, is rolled back on a copy in
memory to be read, and on the card once it is writable; a table that a card an older Legatus
wrote lacks, such as the games' play time, is made once the card is writable). Starting a new session and
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
  report) and reported; a session row whose only fault is its "current" flag is mended; a
  damaged History row is written again from its session's rows (replayed), with its old id and
  finish time where they still read;
- the current session is read from what resuming needs (so a restart costs the same however long
  the session is): its newest checkpoint that still stands and the action rows after it, and the
  newest :data:`MAX_LOG` rows (the log); a damaged action among them ends the session at the last
  good action (the rest kept aside), a damaged checkpoint is skipped (the state replayed from an
  older one). Older actions are read, each checked, the first time something needs them (undo past
  the checkpoint, a page of ``actions``, the draw record at the end: :class:`_Older`); a damaged one
  found then refuses what needed it, changes nothing, and is reported from then on
  (:class:`~firmware.storage.DamagedRecord`, ``recovery``);
- if the file cannot be opened or checked at all — whatever the exception, after reading it again
  (three times for a read error, EIO: a card slow to answer; once for anything else) — it is
  moved aside as ``legatus.db.damaged-N`` (with its rollback journal, if any), every row whose
  checksum holds is read from its pages (and from the journal's pages) by :mod:`firmware.salvage`
  and carried into a new database (a block the card cannot read costs only the rows in it), and
  what happened is reported. The new database is made and committed beside the damaged one
  first: a full card or a power cut meanwhile leaves the damaged file in place, salvaged again at
  the next start.

``recovery`` says what was found (``state`` answers it as ``recovered``; the device shows it).

Format: ``PRAGMA user_version`` is :data:`FORMAT`. A file of a newer format whose tables or rows
are not all this program's own was written by a newer Legatus: it is read, never changed (every
change refused, saying why; nothing of it set aside as damage or salvaged). Version 0 (before issue 20) had the session
checksum over the id and header only; it is upgraded at the first start (each row whose old
checksum holds is sealed anew). Any code that changes a ``sessions`` row must seal it again with
:meth:`Store.seal_session` in the same transaction.

The code, by concern (each a class the next builds on; :class:`Store` joins them):
:mod:`~firmware.store.schema` (tables, raw reads, checksums), :mod:`~firmware.store.connection`
(transactions, the lock), :mod:`~firmware.store.checks` (the start-up check),
:mod:`~firmware.store.opening` (opening, the salvage of a damaged file),
:mod:`~firmware.store.mending` (what the check found set aside or mended),
:mod:`~firmware.store.resuming` (the current session from its rows),
:mod:`~firmware.store.actions` (begin, commit, undo), :mod:`~firmware.store.old_files` (the
journal-file era's import), :mod:`~firmware.store.kept` (archives and settings).
"""
from __future__ import annotations

import errno
import fcntl
import logging
from pathlib import Path
from typing import IO

from engine.text import Msg
from firmware.session import Session
from firmware.storage import Recovery, StorageError, crc, make_dirs, make_private, private_leftovers
from firmware.store.actions import Actions, StepChanged
from firmware.store.kept import Kept
from firmware.store.old_files import OldFiles
from firmware.store.reasons import reason
from firmware.store.schema import (ACTION_ROW, CORE, DB_NAME, FORMAT, KNOWN, SCHEMA, SESSION_ROW, SETTING_ROW,
                                   StateDirBusy, StateDirError, _identity, default_state_dir, session_crc)

__all__ = ["ACTION_ROW", "CORE", "DB_NAME", "FORMAT", "KNOWN", "SCHEMA", "SESSION_ROW", "SETTING_ROW", "Recovery",
           "StateDirBusy", "StateDirError", "StepChanged", "StorageError", "Store", "crc", "default_state_dir", "session_crc"]

log = logging.getLogger(__name__)


class Store(OldFiles, Actions, Kept):
    """Owns one state directory for the life of the process (takes an exclusive lock)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.recovery: Recovery | None = None
        self._notes: list[Msg] = []
        try:
            created = make_dirs(self.root)        # each new directory and its parent fsync'd (§4)
            self._lock = self._open_lock()
        except OSError as e:
            # (the system's words, for the log: whoever opens the store says the refusal, and logs it)
            log.info("cannot use the state directory %s: %s", self.root, e)
            raise StateDirError(Msg("Cannot use the state directory {}: {}. "
                                    "Pick another with --state-dir or LEGATUS_STATE_DIR.",
                                    str(self.root), reason(e))) from None
        if created:
            log.info("created the state directory %s", self.root)
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            raise StateDirBusy(Msg("Another Legatus process is using {}; stop it first "
                                    "(systemctl stop legatus) or pick another --state-dir.",
                                    str(self.root))) from None
        self.db_path = self.root / DB_NAME
        self._session_id: int | None = None
        self._salvaged = False             # the database was rebuilt from the rows of a damaged one
        self._seq = 0                      # the last action row's seq of the current session
        self._trail = None                 # the current session's effective actions (their rows' seq)
        try:
            new = not self.db_path.exists()
            self.db, found = self._open()
            make_private(self.db_path, new)     # its rollback journal takes the same mode
            private_leftovers(self.root, DB_NAME)
        except BaseException:
            self._lock.close()
            raise
        self._version = found.version
        self._ids = (_identity(self.root), _identity(self.db_path), _identity(self.root / "lock"))
        try:
            self._mend(found)
        except Exception as e:  # noqa: BLE001 - mending must never stop the start
            log.exception("cannot mend the damaged rows")
            self._notes.append(Msg("Damaged records were found but could not be set aside ({}).", self._why(e)))
        else:
            self._rebuild_history(found)
        try:
            self._import_old()
        except Exception as e:  # noqa: BLE001 - whatever the old files hold, the start goes on
            log.exception("cannot import the old journal files")
            self._notes.append(Msg("The old journal files could not be imported ({}); they were left in place.",
                                   reason(e)))
        self._memory_only = self._memory         # (the start's own mending was in memory too)

    def _open_lock(self) -> IO[bytes]:
        """The lock file, opened to be locked. On a read-only filesystem (a card the kernel
        remounted read-only after an error) it is opened for reading: the games, History and the
        settings can still be read, every change is refused (``storage_error``) and the start says
        why. Raises OSError."""
        path = self.root / "lock"
        try:
            return open(path, "a+b")
        except OSError as e:
            if e.errno != errno.EROFS:
                raise
            log.error("the state directory %s is on a read-only filesystem: nothing can be saved", self.root)
            self._notes.append(Msg("The storage is read-only: nothing can be saved until it is writable again "
                                   "(check the card). History and the last game can still be read."))
            try:
                return open(path, "rb")
            except FileNotFoundError:      # no lock file (nor game) on it yet: say read-only, not "no such file"
                raise e from None

    # -- compatibility -------------------------------------------------------------------------
    def snapshot(self, session: Session) -> None:
        """Nothing to do: every action is already stored with its checkpoints."""
