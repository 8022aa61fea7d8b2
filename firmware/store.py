"""The state directory: the current session's journal and snapshot, archives, settings, a lock.

Layout of ``--state-dir`` (default ``$LEGATUS_STATE_DIR`` or ``~/.local/state/legatus``)::

    session.journal        the current session (see firmware.journal)
    session.snapshot       the state after the last N journal records (atomic, optional)
    session.journal.bad-N  damaged journal tails kept aside
    archive/NNNN.journal   earlier sessions, kept when a new one starts
    settings.json          device settings (atomic)
    lock                   held while a Legatus process uses the directory
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

from engine.errors import LegatusError
from firmware import journal
from firmware.session import Session
from firmware.storage import atomic_write_json, fsync_dir, read_json

SNAPSHOT_EVERY = 16


class StateDirError(Exception):
    """The state directory cannot be used (permissions, another process holds it)."""


def default_state_dir() -> Path:
    env = os.environ.get("LEGATUS_STATE_DIR")
    return Path(env) if env else Path.home() / ".local" / "state" / "legatus"


class Store:
    """Owns one state directory for the life of the process (takes an exclusive lock)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            self._lock = open(self.root / "lock", "a+b")
        except OSError as e:
            raise StateDirError(f"Cannot use the state directory {self.root}: {e.strerror}. "
                                f"Pick another with --state-dir or LEGATUS_STATE_DIR.") from None
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise StateDirError(f"Another Legatus process is using {self.root}; stop it first "
                                f"(systemctl stop legatus) or pick another --state-dir.") from None
        self.journal_path = self.root / "session.journal"
        self.snapshot_path = self.root / "session.snapshot"
        self._journal: journal.Journal | None = None
        self._records = 0
        self.recovery: journal.Recovery | None = None

    # -- sessions ----------------------------------------------------------------------------
    def resume(self) -> Session | None:
        """The last session, rebuilt from snapshot + journal; None if there is none.

        A damaged tail is moved aside (``self.recovery`` says so); a journal whose header cannot
        be replayed (e.g. written by a newer version) is archived and None returned.
        """
        records, self.recovery = journal.read(self.journal_path)
        if not records:
            return None
        header = records[0]
        try:
            session = Session.from_header(header)
            start = 1
            snap = read_json(self.snapshot_path)
            if (isinstance(snap, dict) and snap.get("sid") == header.get("sid")
                    and isinstance(snap.get("records"), int) and 1 <= snap["records"] <= len(records)):
                session.restore(snap)
                start = snap["records"]
            for record in records[start:]:
                if record.get("undo"):
                    session.undo()
                else:
                    session.apply(record["line"])
        except (LegatusError, KeyError, TypeError, ValueError, AssertionError) as e:
            self._archive()
            self.recovery = journal.Recovery(0, 0, "archive/", f"it could not be replayed: {e}")
            return None
        if self.recovery is not None:
            session.log.append(self.recovery.sentence())
        self._records = len(records)
        self._journal = journal.Journal(self.journal_path)
        return session

    def begin(self, session: Session) -> None:
        """Make ``session`` (fresh from ``Session.start``) the current one, on disk first."""
        self._close_journal()
        self._archive()
        journal.create(self.journal_path, session.header)
        try:
            self.snapshot_path.unlink()
        except FileNotFoundError:
            pass
        self._records = 1
        self._journal = journal.Journal(self.journal_path)
        self.recovery = None

    def record(self, session: Session, line: str) -> None:
        """Journal an accepted action (fsync'd) — call before committing it and replying."""
        self._append({"line": line.strip()})

    def record_undo(self) -> None:
        self._append({"undo": 1})

    def after_commit(self, session: Session) -> None:
        """Snapshot now and then so a restart need not replay the whole journal."""
        if self._records % SNAPSHOT_EVERY == 0:
            self.snapshot(session)

    def snapshot(self, session: Session) -> None:
        atomic_write_json(self.snapshot_path, session.snapshot(self._records))

    def _append(self, record: dict[str, Any]) -> None:
        assert self._journal is not None, "no current session"
        self._journal.append(record)
        self._records += 1

    def _archive(self) -> None:
        """Keep the current journal (if any) as archive/NNNN.journal."""
        if not self.journal_path.exists():
            return
        arch = self.root / "archive"
        arch.mkdir(exist_ok=True)
        n = len(list(arch.glob("*.journal"))) + 1
        while (arch / f"{n:04d}.journal").exists():
            n += 1
        os.replace(self.journal_path, arch / f"{n:04d}.journal")
        fsync_dir(arch)
        fsync_dir(self.root)

    # -- settings ----------------------------------------------------------------------------
    def load_settings(self) -> dict[str, Any]:
        data = read_json(self.root / "settings.json")
        return data if isinstance(data, dict) else {}

    def save_settings(self, settings: dict[str, Any]) -> None:
        atomic_write_json(self.root / "settings.json", settings)

    def _close_journal(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    def close(self) -> None:
        """Close the journal and release the directory lock."""
        self._close_journal()
        if not self._lock.closed:
            self._lock.close()
