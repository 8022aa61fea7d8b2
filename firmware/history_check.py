"""The History tables at the store's start (firmware/store/), the sessions' play time with them
(firmware/play_time.py): their damaged rows found by checksum (:func:`scan`) and set aside
(:func:`set_aside`), and the tables of the format before issue 20 brought up to date
(:func:`upgrade`). The rows themselves are firmware/history.py's and firmware/play_time.py's."""
from __future__ import annotations

import sqlite3
from typing import Any

from firmware.history import ensure, started_crc
from firmware.history_follow import HISTORY_ROW, row_crc
from firmware.play_time import PLAY_ROW, play_crc


def scan(db: sqlite3.Connection) -> list[tuple[str, str, bytes, tuple[Any, ...]]]:
    """The damaged rows of the History tables, as (table, what, raw bytes, key) for the store to
    report and set aside. Read only; raises if SQLite cannot read the tables. Damage is a checksum
    that fails: no record is decoded (a start costs a checksum per game); one that does not parse
    (a fault of the program, not of the card) is logged and left out when read (:func:`firmware.history.games`)."""
    out: list[tuple[str, str, bytes, tuple[Any, ...]]] = []
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()}
    if "history" in tables:
        for row in db.execute(f"SELECT {HISTORY_ROW} FROM history"):
            if row_crc(*row[:7]) != row[7]:
                out.append(("history", "history", _raw(*row), (row[0],)))
    if "history_started" in tables and _has_crc(db):
        for sid, started, check in db.execute("SELECT CAST(sid AS BLOB), CAST(started AS BLOB), CAST(crc AS INTEGER) "
                                              "FROM history_started"):
            if started_crc(sid, started) != check:
                out.append(("history_started", "history_started", _raw(sid, started, check), (sid,)))
    if "play_time" in tables:            # (firmware/play_time.py: a session's play time, kept beside its start)
        for sid, ms, check in db.execute(f"SELECT {PLAY_ROW} FROM play_time"):
            if play_crc(sid, ms) != check:
                out.append(("play_time", "play time", _raw(sid, ms, check), (sid,)))
    return out


def set_aside(db: sqlite3.Connection, table: str, key: tuple[Any, ...]) -> None:
    """Delete a damaged row :func:`scan` found (the store keeps its bytes in ``damaged``)."""
    if table == "history":
        db.execute("DELETE FROM history WHERE id=?", key)
    elif table == "history_started":
        db.execute("DELETE FROM history_started WHERE CAST(sid AS BLOB)=?", key)
    elif table == "play_time":           # (that game's play time is then not known: never a wrong one)
        db.execute("DELETE FROM play_time WHERE CAST(sid AS BLOB)=?", key)


def upgrade(db: sqlite3.Connection) -> None:
    """From the format before issue 20: ``history_started`` gets its checksum column, and each of
    its rows is sealed (they had none: taken as they are)."""
    ensure(db)
    if not _has_crc(db):
        db.execute("ALTER TABLE history_started ADD COLUMN crc INTEGER NOT NULL DEFAULT 0")
    for sid, started in db.execute("SELECT CAST(sid AS BLOB), CAST(started AS BLOB) FROM history_started").fetchall():
        db.execute("UPDATE history_started SET crc=? WHERE CAST(sid AS BLOB)=?", (started_crc(sid, started), sid))


def _has_crc(db: sqlite3.Connection) -> bool:
    return any(str(c[1]) == "crc" for c in db.execute("PRAGMA table_info(history_started)").fetchall())


def _raw(*fields: Any) -> bytes:
    return b"\x1f".join(f if isinstance(f, bytes) else str(f).encode() for f in fields)
