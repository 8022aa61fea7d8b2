"""What the database keeps besides the current session: the archived sessions and the settings
(each row checked before it is decoded)."""
from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from firmware.settings import valid_settings
from firmware.storage import crc
from firmware.store.connection import Connection
from firmware.store.schema import SESSION_ROW, SETTING_ROW, _text, effective_lines

log = logging.getLogger(__name__)


class Kept(Connection):
    """``archives``, ``load_settings`` and ``save_settings``."""

    # -- archives ------------------------------------------------------------------------------
    def archives(self, limit: int = 40) -> list[dict[str, Any]]:
        """Archived sessions, newest first: ``header``, effective ``lines``, ``ended`` (epoch s).
        A session whose rows fail their checksums is left out (or cut at its last good action)."""
        out: list[dict[str, Any]] = []
        rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=0 ORDER BY id DESC LIMIT ?",
                               (limit,)).fetchall()
        for row in rows:
            sid_, ended, text = row[0], row[3], self.session_header(row)
            if text is None:
                log.error("archived session %s fails its checksum; left out", sid_)
                continue
            lines, damaged = effective_lines(self.db, sid_)
            if damaged is not None:
                log.error("archived session %s: action %s fails its checksum; cut there", sid_, damaged)
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
