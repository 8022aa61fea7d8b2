"""The database's layout: its tables and the columns this program made (the start-up check compares
the file's schema with them), the raw reads (stored bytes, checked before they are decoded), the
sessions row checksum, and the state directory's defaults."""
from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

from firmware import fairness, history, players
from firmware.storage import crc

log = logging.getLogger(__name__)

DB_NAME = "legatus.db"
FORMAT = 2
SAME_KEY_TABLE = ("CREATE TABLE IF NOT EXISTS same_key(session INTEGER NOT NULL, seq INTEGER NOT NULL, "
                  "under INTEGER NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, seq))")
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
""" + SAME_KEY_TABLE + ";\n"
# ``same_key``: the action rows (``seq``) made at the same key as the step under them (``under``: a Caesar!
# draw owed after the placement, J-14's hit after the fire): one hold of B takes back the whole key, after a
# restart too. Written in the action's own transaction; a card an older Legatus wrote lacks it (every step
# then goes back alone), so it is not in CORE.
SAME_KEY = {"same_key": ("session", "seq", "under", "crc")}
# The columns each table of this program must have (the schema is checked against them: a damaged
# schema can rename a table, and CREATE TABLE IF NOT EXISTS would then silently start it empty).
CORE = {"sessions": ("id", "header", "current", "ended", "crc"),
        "actions": ("session", "seq", "kind", "line", "sentence", "crc"),
        "checkpoints": ("session", "depth", "top", "state", "crc"),
        "settings": ("key", "value", "crc"),
        "damaged": ("id", "what", "data", "reason")}
KNOWN = {**CORE, **SAME_KEY, **history.COLUMNS, **fairness.COLUMNS, **players.COLUMNS}
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


class StateDirBusy(StateDirError):
    """Another Legatus process holds the state directory (and so the panel: the device must not
    draw on it, nor wait for it)."""



def default_state_dir() -> Path:
    """``$LEGATUS_STATE_DIR``, else ``~/.local/state/legatus`` (hw.config.default_state_dir)."""
    from hw.config import default_state_dir as chosen
    return chosen()



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


def stored_steps(db: sqlite3.Connection, sid: int) -> list[list[str]] | None:
    """Every action and undo of stored session ``sid`` in the order they were made, ``["do",
    line]`` or ``["undo"]`` (its fair-draw record's ``steps``: firmware/fairness.py); None if an
    action row fails its checksum (the steps would not be the session's)."""
    steps: list[list[str]] = []
    for seq, kind, line, sentence, c in db.execute(f"SELECT {ACTION_ROW} FROM actions WHERE session=? ORDER BY seq", (sid,)):
        word, text_line = _text(kind), _text(line)
        if crc(sid, seq, kind, line, sentence) != c or word not in ("do", "undo") or text_line is None:
            return None
        steps.append(["do", text_line] if word == "do" else ["undo"])
    return steps


def effective_lines(db: sqlite3.Connection, sid: int) -> tuple[list[str], int | None]:
    """The effective action lines of stored session ``sid`` (each ``do`` less the ``undo`` after
    it), cut at its first action that fails its checksum: ``(lines, that action's seq or None)``."""
    lines: list[str] = []
    for seq, kind, line, sentence, c in db.execute(f"SELECT {ACTION_ROW} FROM actions WHERE session=? ORDER BY seq", (sid,)):
        word, text_line = _text(kind), _text(line)
        if crc(sid, seq, kind, line, sentence) != c or word is None or text_line is None:
            return lines, int(seq)
        if word == "do":
            lines.append(text_line)
        elif lines:
            lines.pop()
    return lines, None


def same_key_crc(sid: int, seq: int, under: int) -> int:
    """The checksum of a ``same_key`` row (tagged: no other row's checksum gives it)."""
    return crc("same key", sid, seq, under)


def made_at_same_key(db: sqlite3.Connection, sid: int, seq: int, under: int) -> bool:
    """Whether action row ``seq`` of session ``sid`` was made at the same key as row ``under``, the
    step under it (its ``same_key`` row says so and holds; a card without the table, or a damaged
    row: no)."""
    try:
        row = db.execute("SELECT CAST(under AS INTEGER), CAST(crc AS INTEGER) FROM same_key WHERE session=? AND seq=?",
                         (sid, seq)).fetchone()
    except sqlite3.Error as e:
        log.info("no same_key row can be read (%s): the step goes back alone", e)
        return False
    return row is not None and row[0] == under and row[1] == same_key_crc(sid, seq, under)
