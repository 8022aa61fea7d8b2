"""Sessions of the journal-file era (firmware/migrate.py), imported once into an empty database,
verified by a replay before the old files are moved aside."""
from __future__ import annotations

import calendar
import json
import logging
import time

from engine.text import Msg
from firmware import migrate
from firmware.settings import valid_settings
from firmware.storage import StorageError, crc
from firmware.store.reasons import reason
from firmware.store.resuming import Resuming

log = logging.getLogger(__name__)


def _epoch(when: str) -> int:
    """A UTC ISO time (``2026-11-22T19:30:05Z``) as whole seconds since the epoch."""
    return calendar.timegm(time.strptime(when, "%Y-%m-%dT%H:%M:%SZ"))


class OldFiles(Resuming):
    """The import of an older Legatus's journal files."""

    def _imported_sids(self) -> set[str] | None:
        """The session ids (a header's ``sid``) the database holds, None if it holds none."""
        sids: set[str] = set()
        rows = self.db.execute("SELECT CAST(header AS BLOB) FROM sessions").fetchall()
        for (raw,) in rows:
            try:
                header = json.loads(raw)
            except (ValueError, RecursionError):
                continue
            if isinstance(header, dict):
                sids.add(str(header.get("sid")))
        return sids if rows else None

    def _file_old_games(self, old: migrate.OldFiles) -> None:
        """History rows for the games the old journals finished (the journal era kept no History:
        without them, every game played before the update was missing from History and its
        exports). Each finished part is dated by when its journal was last written (marked as a
        time that may be wrong); the current session's by the replay, as after any start."""
        from firmware import history, history_rebuild
        filed = 0
        for header, rows, is_current in old.sessions:
            if history.is_tool(str(header.get("game"))):      # (filed only when ended: no journal was)
                continue
            try:
                filed += len(history_rebuild.rebuild(self, header, migrate.effective(rows), not is_current, [],
                                                     old.ended_at.get(str(header.get("sid")))))
            except StorageError as e:
                self._notes.append(Msg("The finished games of the old journal files could not be added to "
                                       "History ({}).", e.message))
                return
            except Exception:  # noqa: BLE001 - a game whose History cannot be made keeps its session
                log.exception("cannot file the History of an imported session")
        log.info("%d History rows filed for the imported sessions", filed)

    def _import_old(self) -> None:
        """Sessions of the journal-file era (firmware/migrate.py) the database does not hold yet:
        all of them into an empty database; into one that holds sessions, those an older Legatus
        journaled after the import (run again on this card: a downgrade after an update), which
        were left unread for good before. Whatever those files hold, the start goes on; what went
        wrong is reported."""
        try:
            if not migrate.old_files(self.root):
                return
            known = self._imported_sids()
            old = migrate.read_old(self.root)
        except Exception as e:  # noqa: BLE001 - crafted old files must never stop a start
            log.exception("cannot read the old journal files")
            self._notes.append(Msg("The old journal files could not be read ({}); they were left in place.",
                                   reason(e)))
            return
        if known is not None:
            sessions = [s for s in old.sessions if str(s[0].get("sid")) not in known]
            if not sessions:            # imported before (kept in place when they did not verify)
                return
            current = any(s[2] for s in sessions)
            old = old._replace(sessions=sessions, settings={},          # (this card's settings stay)
                               current_state=old.current_state if current else None)
        self._notes.extend(old.notes)
        settings, wrong = valid_settings(old.settings)
        if wrong:
            self._notes.append(Msg("A setting of the older Legatus was not valid ({}); its default is used.",
                                   ", ".join(w[:40] for w in wrong[:5])))
        try:
            with self.transaction() as db:
                if old.current_state is not None:       # the older Legatus's game was played last
                    for (replaced,) in db.execute("SELECT id FROM sessions WHERE current=1").fetchall():
                        db.execute("UPDATE sessions SET current=0, ended=? WHERE id=?", (int(time.time()), replaced))
                        self.seal_session(db, replaced)
                for header, rows, is_current in old.sessions:
                    text = json.dumps(header, ensure_ascii=False, sort_keys=True)
                    left = old.ended_at.get(str(header.get("sid"))) if not is_current else None
                    cur = db.execute("INSERT INTO sessions(header, current, ended, crc) VALUES(?, ?, ?, 0)",
                                     (text, int(is_current), _epoch(left) if left else None))
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
        self._file_old_games(old)
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
                                   , reason(e)))
            return
        self._notes.append(Msg("{n} session from an older Legatus was imported; the old files are kept in {where}.",
                               plural="{n} sessions from an older Legatus were imported; the old files are kept "
                                      "in {where}.", n=len(old.sessions), where=dest.name))
