"""Read a state directory written by an older Legatus (journal files) for the store to import.

Old layout: ``session.journal`` (+ ``session.snapshot``), ``archive/NNNN.journal``, ``settings.json``.
On the first start with the database, :func:`read_old` reads every journal (a damaged tail is kept
aside as before) and replays each session through the rules; the store (firmware/store/) inserts
them — the current one last — and the settings, in one transaction, then verifies that the
current session rebuilt from the database has the same state as the old journal replayed. Only
then does :func:`keep_aside` move the old files into ``imported-N/``; if anything fails, they stay
where they are and the failure is reported.

These files are input like any other: a record that is not what it should be (a header whose
seed is not a number, a line that is not text, JSON nested ten thousand deep) drops that session
with a note, never the start. This module does not touch the database (no import circle with the
store).
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, NamedTuple

from engine.text import Msg, to_data
from firmware import journal
from firmware.session import Session
from firmware.storage import fsync_dir, make_private

log = logging.getLogger(__name__)

OLD_FILES = ("session.journal", "session.snapshot", "settings.json")
MAX_SETTINGS_BYTES = 64 * 1024


class OldFiles(NamedTuple):
    """What the old files hold, ready to insert."""

    sessions: list[tuple[dict[str, Any], list[tuple[str, str, str]], bool]]   # header, rows, is current
    current_state: str | None        # the current session's state JSON, to verify the import
    settings: dict[Any, Any]         # as stored (the store checks them: firmware.settings.valid_settings)
    notes: list[Msg]                 # what could not be read
    ended_at: dict[str, str] = {}    # an archived session's sid -> when its journal was last written (UTC ISO)


def old_files(root: Path) -> list[Path]:
    files = [root / name for name in OLD_FILES if (root / name).exists()]
    files += sorted((root / "archive").glob("*.journal")) if (root / "archive").is_dir() else []
    return files


def _header(record: dict[str, Any]) -> tuple[str, int, str, bool] | None:
    """The checked fields of a journal's header record: (new line, seed, sid, committed)."""
    line, seed, sid = record.get("line"), record.get("seed"), record.get("sid")
    if not isinstance(line, str) or not line.strip().startswith("new ") or len(line) > 4096:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        return None
    if not isinstance(sid, str) or not 0 < len(sid) <= 64:
        return None
    return line, seed, sid, record.get("committed") is True


def _replay(records: list[dict[str, Any]]) -> tuple[Session, list[tuple[str, str, str]]] | None:
    """The session a journal describes and its rows (kind, line, sentence JSON); None if it
    cannot be replayed (whatever the records hold)."""
    fields = _header(records[0]) if records else None
    if fields is None:
        return None
    try:
        session = Session.start(fields[0], fields[1], fields[2], fields[3], version=1)   # journal era: one generator
        rows: list[tuple[str, str, str]] = []
        for record in records[1:]:
            if record.get("undo"):
                if session.lines:
                    session.undo()
                    rows.append(("undo", "", ""))
                continue
            line = record.get("line")
            if not isinstance(line, str) or len(line) > 4096:
                raise ValueError(f"a record without a line: {str(record)[:80]}")
            outcome, new_json = session.run(line)
            if new_json is None:
                continue
            sentence = json.dumps(to_data(session.sentence_of(line, outcome)), ensure_ascii=False)
            session.commit(line, outcome, new_json)
            rows.append(("do", line.strip(), sentence))
        return session, rows
    except Exception as e:  # noqa: BLE001 - a crafted or damaged journal drops its session, never the start
        log.warning("an old journal does not replay: %s", e)
        return None


def read_old(root: Path) -> OldFiles:
    """Read and replay every old journal of ``root`` and its settings (never raises for what the
    files hold; an OSError of the disk goes to the caller)."""
    sources = sorted((root / "archive").glob("*.journal")) if (root / "archive").is_dir() else []
    sessions: list[tuple[dict[str, Any], list[tuple[str, str, str]], bool]] = []
    notes: list[Msg] = []
    ended_at: dict[str, str] = {}
    current: Session | None = None
    for path in sources + [root / "session.journal"]:
        try:
            records, damage = journal.read(path)
        except OSError as e:
            log.warning("cannot read %s: %s", path, e)
            from firmware.store.reasons import reason
            notes.append(Msg("The old journal {} could not be read ({}).", path.name, reason(e)))
            continue
        if damage is not None:
            notes.append(damage.message)
        if not records:
            continue
        replayed = _replay(records)
        if replayed is None:
            notes.append(Msg("The old journal {} could not be replayed; it was not imported.", path.name))
            continue
        is_current = path.name == "session.journal"
        sessions.append((replayed[0].header, replayed[1], is_current))
        if not is_current:
            ended_at[str(replayed[0].header["sid"])] = _written(path)
        if is_current:
            current = replayed[0]
    settings: dict[Any, Any] = {}
    path = root / "settings.json"
    try:
        raw = path.read_bytes() if path.exists() else b"{}"
        data = json.loads(raw) if len(raw) <= MAX_SETTINGS_BYTES else None
        if isinstance(data, dict):
            settings = data
        else:
            notes.append(Msg("The old settings file could not be read; the defaults are used."))
    except (OSError, ValueError, RecursionError) as e:
        log.warning("cannot read %s: %s", path, e)
        notes.append(Msg("The old settings file could not be read; the defaults are used."))
    return OldFiles(sessions, current.state_json if current is not None else None, settings, notes, ended_at)


def _written(path: Path) -> str:
    """When a journal was last written, as History dates a game (the journals kept no times: an
    archived journal's last line is its game's last action, and moving it kept that time)."""
    import datetime as _dt
    try:
        when = _dt.datetime.fromtimestamp(path.stat().st_mtime, _dt.timezone.utc)
    except (OSError, ValueError, OverflowError):
        when = _dt.datetime.now(_dt.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def effective(rows: list[tuple[str, str, str]]) -> list[str]:
    """The effective lines of replayed rows (each ``do`` less the ``undo`` after it)."""
    lines: list[str] = []
    for kind, line, _sentence in rows:
        if kind == "do":
            lines.append(line)
        elif lines:
            lines.pop()
    return lines


def keep_aside(root: Path) -> Path:
    """Move the old files into a new ``imported-N/`` (durably); returns it. Raises OSError."""
    n = 1
    while (root / f"imported-{n}").exists():
        n += 1
    dest = root / f"imported-{n}"
    dest.mkdir(0o700)               # the owner's only: the journals hold secret seeds (docs/fairness.md §9)
    for path in old_files(root):
        target = dest / (f"archive-{path.name}" if path.parent.name == "archive" else path.name)
        os.replace(path, target)
        make_private(target)
    for extra in root.glob("session.journal.bad-*"):
        os.replace(extra, dest / extra.name)
        make_private(dest / extra.name)
    fsync_dir(dest)
    fsync_dir(root)
    return dest
