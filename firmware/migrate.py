"""Import a state directory written by an older Legatus (journal files) into the database.

Old layout: ``session.journal`` (+ ``session.snapshot``), ``archive/NNNN.journal``, ``settings.json``.
On the first start with the database, every journal is read (a damaged tail is kept aside as before),
its sessions inserted — the current one last — and the settings copied, in one transaction. The
import is then verified: the current session rebuilt from the database must have the same state as
the old journal replayed. Only then are the old files moved into ``imported-N/``; if anything fails,
they stay where they are and the failure is reported.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import LegatusError
from engine.text import Msg, to_data
from firmware import journal
from firmware.session import Session

if TYPE_CHECKING:
    from firmware.store import Store

OLD_FILES = ("session.journal", "session.snapshot", "settings.json")


def _old_files(root: Path) -> list[Path]:
    files = [root / name for name in OLD_FILES if (root / name).exists()]
    files += sorted((root / "archive").glob("*.journal")) if (root / "archive").is_dir() else []
    return files


def _replay(records: list[dict[str, Any]]) -> tuple[Session, list[tuple[str, str, str]]] | None:
    """The session a journal describes and its rows (kind, line, sentence JSON); None if it
    cannot be replayed."""
    if not records or not isinstance(records[0].get("line"), str):
        return None
    try:
        session = Session.from_header(records[0])
        rows: list[tuple[str, str, str]] = []
        for record in records[1:]:
            if record.get("undo"):
                if session.lines:
                    session.undo()
                    rows.append(("undo", "", ""))
                continue
            outcome, new_json = session.run(record["line"])
            if new_json is None:
                continue
            sentence = json.dumps(to_data(session.sentence_of(record["line"], outcome)), ensure_ascii=False)
            session.commit(record["line"], outcome, new_json)
            rows.append(("do", record["line"].strip(), sentence))
        return session, rows
    except (LegatusError, KeyError, TypeError, ValueError, AssertionError):
        return None


def import_old_files(store: Store) -> Msg | None:
    """Import the old files of ``store.root`` if the database has no session yet; returns a
    sentence for the log when something was imported or went wrong, else None."""
    from firmware.store import StorageError, crc
    root = store.root
    files = _old_files(root)
    if not files:
        return None
    if store.db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]:
        return None
    sources = sorted((root / "archive").glob("*.journal")) if (root / "archive").is_dir() else []
    sessions: list[tuple[dict[str, Any], list[tuple[str, str, str]], bool]] = []
    current: Session | None = None
    for path in sources + [root / "session.journal"]:
        records, _ = journal.read(path)
        replayed = _replay(records)
        if replayed is not None:
            is_current = path.name == "session.journal"
            sessions.append((records[0], replayed[1], is_current))
            if is_current:
                current = replayed[0]
    settings: dict[str, Any] = {}
    try:
        data = json.loads((root / "settings.json").read_bytes())
        settings = data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        pass
    try:
        with store.transaction() as db:
            for header, rows, is_current in sessions:
                text = json.dumps(header, ensure_ascii=False, sort_keys=True)
                cur = db.execute("INSERT INTO sessions(header, current, crc) VALUES(?, ?, 0)", (text, int(is_current)))
                sid = int(cur.lastrowid or 0)
                db.execute("UPDATE sessions SET crc=? WHERE id=?", (crc(sid, text), sid))
                db.executemany("INSERT INTO actions VALUES(?,?,?,?,?,?)",
                               [(sid, i, kind, line, sentence, crc(sid, i, kind, line, sentence))
                                for i, (kind, line, sentence) in enumerate(rows, 1)])
            for key, value in settings.items():
                v = json.dumps(value, ensure_ascii=False)
                db.execute("INSERT OR REPLACE INTO settings VALUES(?,?,?)", (key, v, crc(key, v)))
    except StorageError as e:
        return Msg("The old journal files could not be imported ({}); they were left in place.", e.message)
    # verify before moving anything: the current session must come back with the same state
    if current is not None:
        rebuilt = store._resume([])
        if rebuilt is None or rebuilt.state_json != current.state_json:
            return Msg("The old journal files were imported but did not verify; they were left in place.")
    n = 1
    while (root / f"imported-{n}").exists():
        n += 1
    dest = root / f"imported-{n}"
    dest.mkdir()
    for path in _old_files(root):
        target = dest / (f"archive-{path.name}" if path.parent.name == "archive" else path.name)
        os.replace(path, target)
    for extra in root.glob("session.journal.bad-*"):
        os.replace(extra, dest / extra.name)
    from firmware.store import _fsync_dir
    _fsync_dir(dest)
    _fsync_dir(root)
    return Msg("{} sessions from an older Legatus were imported; the old files are kept in {}.",
               len(sessions), dest.name)
