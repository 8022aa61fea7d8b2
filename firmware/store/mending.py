"""What the start-up check found, dealt with in one transaction: damaged rows moved to the
``damaged`` table (or restored from the copy taken before a hot journal's rollback), a session's
"current" flag mended, settings that are not allowed dropped, the format upgraded; all reported."""
from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from engine.text import Msg
from firmware import fairness, history, history_check, players
from firmware.storage import StorageError
from firmware.store.checks import _Found
from firmware.store.opening import Opening
from firmware.store.schema import FORMAT, SAME_KEY_TABLE, SESSION_ROW, _text, effective_lines, stored_steps

log = logging.getLogger(__name__)

WRITTEN_AGAIN = "; written again"   # added to the reason of a damaged row set aside once it is made again
NOT_RESTORED = "; not restored"     # … once nothing stored can make it again (its session damaged too)


class Mending(Opening):
    """Setting aside and mending what the start-up check found."""

    def _players_lost(self, rows: list[bytes]) -> Msg:
        """The notice of damaged players' rows (their raw bytes, name\x1fdata\x1fcrc: players.scan):
        each named whose name can still be read — a name History's games hold, or the one the row's
        own id confirms (a plain person's id is their name casefolded), so no damaged byte is in
        it —, and what the player can do (their games stay in History; naming them in a new game
        lists them again)."""
        try:
            at_tables = {n for e in history.games(self.db, limit=None) for n in players.people_of(e)}
        except (StorageError, sqlite3.Error, ValueError) as e:
            log.warning("History cannot be read to name the damaged players: %s", e)
            at_tables = set()
        said = []
        for raw in rows:
            name_raw, _, rest = bytes(raw).partition(b"\x1f")
            try:
                name = name_raw.decode("utf-8")
            except UnicodeDecodeError:
                continue
            try:
                record = json.loads(rest.rpartition(b"\x1f")[0].decode("utf-8"))
                pid = record.get("id") if isinstance(record, dict) else None
            except (UnicodeDecodeError, ValueError, RecursionError):
                pid = None
            if name and (name in at_tables or pid == name.casefold()):
                said.append(name)
        n = len(rows)
        if said and len(said) == n:
            return Msg("{n} remembered player was damaged ({names}) and is off the players' list; History keeps "
                       "their games, and naming them in a new game lists them again. The row was kept for a bug "
                       "report.", n=n, names=", ".join(said),
                       plural="{n} remembered players were damaged ({names}) and are off the players' list; History "
                              "keeps their games, and naming them in a new game lists them again. The rows were kept "
                              "for a bug report.")
        if said:
            return Msg("{n} remembered players were damaged (among them {names}) and are off the players' list; "
                       "History keeps their games, and naming them in a new game lists them again. The rows were "
                       "kept for a bug report.", n=n, names=", ".join(said),
                       plural="{n} remembered players were damaged (among them {names}) and are off the players' "
                              "list; History keeps their games, and naming them in a new game lists them again. The "
                              "rows were kept for a bug report.")
        return Msg("{n} remembered player was damaged and is off the players' list; their name cannot be read. "
                   "History keeps their games, and naming them in a new game lists them again. The row was kept "
                   "for a bug report.", n=n,
                   plural="{n} remembered players were damaged and are off the players' list; their names cannot be "
                          "read. History keeps their games, and naming them in a new game lists them again. The rows "
                          "were kept for a bug report.")

    def _mend(self, found: _Found) -> None:
        """Set the damaged rows aside, mend what can be mended and upgrade the format, in one
        transaction; report it all. If nothing can be written, the report still stands."""
        restored: list[str] = []
        back: list[tuple[str, tuple[Any, ...]]] = []     # (table, key) of each row restored
        need = (found.bad or found.reseal or found.flags or found.bad_settings or found.put_back
                or found.version < FORMAT)
        if need:
            try:
                with self.transaction() as db:
                    for table, what, raw, key in found.bad:
                        db.execute("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)", (what, raw, "checksum"))
                        copy = self._hot_copies().get((table, *(_text(k) if isinstance(k, bytes) else k for k in key)))
                        if copy is not None:            # whole in the copy taken before the rollback
                            db.execute(f"INSERT OR REPLACE INTO {table} VALUES({','.join('?' * len(copy))})", copy)
                            restored.append(table)
                            back.append((table, key))
                        elif table == "sessions":
                            self._set_aside_session(db, int(key[0]))
                        elif table == "settings":
                            db.execute("DELETE FROM settings WHERE CAST(key AS BLOB)=?", key)
                        elif table == "fair":
                            fairness.set_aside(db, key)
                        elif table == "players":
                            players.set_aside(db, key)
                        else:
                            history_check.set_aside(db, table, key)
                    for name in found.bad_settings:
                        db.execute("INSERT INTO damaged(what, data, reason) SELECT 'setting', "
                                   "CAST(key AS BLOB) || x'1f' || CAST(value AS BLOB), 'not allowed' "
                                   "FROM settings WHERE key=?", (name,))
                        db.execute("DELETE FROM settings WHERE key=?", (name,))
                    for sid_, current in found.flags:
                        db.execute("UPDATE sessions SET current=? WHERE id=?", (current, sid_))
                    for sid_, raw, whole in found.put_back:       # (the damaged bytes kept for a bug report)
                        db.execute("INSERT INTO damaged(what, data, reason) VALUES('session', ?, 'one byte put back')",
                                   (raw,))
                        db.execute("UPDATE sessions SET header=? WHERE id=?", (whole.decode("utf-8"), sid_))
                    if found.version < FORMAT:
                        history_check.upgrade(db)
                        db.execute(f"PRAGMA user_version={FORMAT}")
                        self._version = FORMAT
                    for sid_ in found.reseal + [s for s, _ in found.flags]:
                        self.seal_session(db, sid_)
            except StorageError as e:
                log.error("cannot set the damaged rows aside: %s", e)
                restored = []
                self._unmended = tuple(sid_ for sid_, current in found.flags if current == 1)   # (resumed as it is)
        lost_sessions = [key[0] for table, _, _, key in found.bad if table == "sessions"][len([t for t in restored if t == "sessions"]):]
        n_settings = sum(1 for t, *_ in found.bad if t == "settings") - restored.count("settings")
        n_history = sum(1 for t, *_ in found.bad if t.startswith("history")) - sum(1 for t in restored if t.startswith("history"))
        if restored:
            self._notes.append(Msg("A damaged record was restored from the copy taken before the last interrupted "
                                   "change was rolled back; nothing was lost."))
        if lost_sessions:
            self._notes.append(Msg("{n} saved session was damaged and could not be read; it was kept for a bug report.",
                                   n=len(lost_sessions),
                                   plural="{n} saved sessions were damaged and could not be read; they were kept "
                                          "for a bug report."))
        if found.flags:
            self._notes.append(Msg("A damaged mark of a saved session was mended."))
        if found.put_back:
            self._notes.append(Msg("{n} saved session had one damaged byte; it was put back exactly (the "
                                   "session's checksum confirms it) and nothing of it was lost.", n=len(found.put_back),
                                   plural="{n} saved sessions had one damaged byte each; each was put back exactly "
                                          "(its checksum confirms it) and nothing of them was lost."))
        if n_settings or found.bad_settings:
            # a damaged row named by its stored key where that is a setting's name (one bad byte
            # cannot make one of those names another: the damage is in its value or checksum)
            from firmware.settings import SETTINGS
            keys = [raw.split(b"\x1f")[0] for table, _, raw, _key in found.bad if table == "settings"]
            damaged = [k.decode("ascii") if k.decode("ascii", "replace") in SETTINGS else "?" for k in keys]
            named = list(dict.fromkeys([*(k for k in damaged if k != "?"), *found.bad_settings]))
            names = ", ".join(named + (["?"] if "?" in damaged else [])) or "?"
            self._notes.append(Msg("A stored setting was damaged or not allowed ({}); its default is used.", names))
        if n_history:
            self._notes.append(Msg("{n} History record was damaged; it was kept for a bug report.", n=n_history,
                                   plural="{n} History records were damaged; they were kept for a bug report."))
        n_play = sum(1 for t, *_ in found.bad if t == "play_time") - restored.count("play_time")
        if n_play:
            self._notes.append(Msg("The play time of {n} game was damaged; it was kept for a bug report, and that "
                                   "game's play time is no longer known.", n=n_play,
                                   plural="The play time of {n} games was damaged; it was kept for a bug report, and "
                                          "those games' play time is no longer known."))
        lost_players = [raw for t, _, raw, key in found.bad if t == "players" and (t, key) not in back]
        if lost_players:
            self._notes.append(self._players_lost(lost_players))
        n_fair = sum(1 for t, *_ in found.bad if t == "fair") - restored.count("fair")
        pending = self._pending("fair-draw record") if self._newer_format is None else []
        if n_fair or pending:
            refiled, refused = self._refile_fair([bytes(key[0]) for t, _, _, key in found.bad if t == "fair"]
                                                 + [raw.split(b"\x1f")[0] for _, raw in pending])
            if not refused:
                self._written_again([i for i, _ in pending])
            if refiled:
                self._notes.append(Msg("{n} fair-draw record of an ended game was damaged and was made again from "
                                       "its saved actions.", n=refiled,
                                       plural="{n} fair-draw records of ended games were damaged and were made "
                                              "again from their saved actions."))
            n_fair = max(0, n_fair - refiled)
            if n_fair and refused:
                self._notes.append(Msg("{n} fair-draw record of an ended game was damaged; it is made again from its "
                                       "saved actions once the card can be written.", n=n_fair,
                                       plural="{n} fair-draw records of ended games were damaged; they are made again "
                                              "from their saved actions once the card can be written."))
                n_fair = 0
        if n_fair:
            self._notes.append(Msg("{n} fair-draw record of an ended game was damaged; it was kept for a bug report, "
                                   "and that game's draws can no longer be checked here.", n=n_fair,
                                   plural="{n} fair-draw records of ended games were damaged; they were kept for a bug "
                                          "report, and those games' draws can no longer be checked here."))

    def _rebuild_history(self, found: _Found) -> None:
        """Write again, from the stored sessions' rows, the History rows the check set aside (a
        finished game never vanishes from History because of one bad byte): the sessions those
        rows name, and any whose rows are all gone (a damaged session id), each replayed from its
        actions. Reported; a failure is logged and reported, never raised. A damaged row whose
        rebuild the disk refused (or a power cut cut short) stays pending in ``damaged`` and is
        rebuilt at a later start; once done, its reason says so (:data:`WRITTEN_AGAIN`)."""
        if self._newer_format is not None:
            return                             # a newer Legatus's file: nothing of it is changed
        pending = self._pending('history')
        if not self._salvaged and not pending and not any(table == "history" for table, *_rest in found.bad):
            return                             # nothing damaged (every start): nothing to import
        import datetime as _dt
        import json
        from firmware import history_rebuild
        from firmware.session import END
        raws = list(dict.fromkeys([raw for table, _, raw, key in found.bad if table == "history"]
                                  + [r for _, r in pending]))
        lost = [history_rebuild.Lost.of(raw) for raw in raws]        # (the salvage's, and any it never found)
        lost = history_rebuild.named(lost, "sid", self._sids()) if lost else lost     # (one bad byte in its session's id)
        of_raw = dict(zip(raws, lost))
        lost = [x for x in lost if x.rid is None or not self.db.execute("SELECT 1 FROM history WHERE id=? AND sid=?",
                                                                        (x.rid, x.sid)).fetchone()]
        if not lost and not self._salvaged:
            self._written_again([i for i, _ in pending])
            return
        named = {x.sid for x in lost}
        unread = self._salvaged or not named <= self._sids()     # a row whose session id is itself damaged
        rebuilt, refused, unscored = 0, False, list[str]()
        for sid_, header, current, ended, check in self.db.execute(f"SELECT {SESSION_ROW} FROM sessions "
                                                                    "ORDER BY id").fetchall():
            text = self.session_header((sid_, header, current, ended, check))
            if text is None:
                continue
            try:
                head = json.loads(text)
                sid = str(head["sid"])
                has_rows = self.db.execute("SELECT 1 FROM history WHERE sid=?", (sid,)).fetchone() is not None
                if sid not in named and (has_rows or not unread):
                    continue
                lines = self._effective_lines(int(sid_))
                if sid not in named and history.is_tool(str(head["game"])) and not (lines and lines[-1] == END):
                    continue
                try:                   # when it was replaced (a clock gone wrong: unknown)
                    when = (_dt.datetime.fromtimestamp(float(ended), _dt.timezone.utc).replace(microsecond=0)
                            .isoformat().replace("+00:00", "Z") if ended else None)
                except (OverflowError, OSError, ValueError):
                    log.warning("session %s: its end time %r is not a date", sid_, ended)
                    when = None
                rebuilt += bool(history_rebuild.rebuild(self, head, lines, not current, lost, when, unscored))
            except (StorageError, sqlite3.Error) as e:
                log.error("cannot write the History rows of session %s again now (%s): at a later start", sid_, e)
                refused = True
            except Exception:  # noqa: BLE001 - one session that does not replay must not stop the others
                log.exception("cannot rebuild the History rows of session %s", sid_)
        gone = [raw for raw, x in of_raw.items() if x in lost and x.part != "abandoned" and not (
            x.sid and self.db.execute("SELECT 1 FROM history WHERE sid=?", (x.sid,)).fetchone())]
        if not refused:
            self._written_again([i for i, raw in pending if raw not in gone])
            self._written_again([i for i, raw in pending if raw in gone], NOT_RESTORED)
        self._say_not_restored(gone)
        if rebuilt:
            self._notes.append(Msg("{n} game was worked out again from its saved actions and is back in History.",
                                   n=rebuilt, plural="{n} games were worked out again from their saved actions and are "
                                                     "back in History."))
        if unscored:
            self._notes.append(Msg("{n} game is back in History with scores missing: its record was damaged, and "
                                   "its saved actions do not hold them.", n=len(unscored),
                                   plural="{n} games are back in History with scores missing: their records were "
                                          "damaged, and their saved actions do not hold them."))

    def _pending(self, what: str) -> list[tuple[int, bytes]]:
        """The damaged rows of a kind (``what``) set aside at a start and not made again yet (id
        in ``damaged``, raw bytes): the card refused it then, or a power cut cut it short."""
        try:
            return [(int(i), bytes(raw)) for i, raw in self.db.execute(
                "SELECT id, CAST(data AS BLOB) FROM damaged WHERE what=? AND reason IN ('checksum', 'salvage')",
                (what,))]
        except sqlite3.Error as e:
            log.error("cannot read the damaged rows (%s): %s", what, e)
            return []

    def _say_not_restored(self, raws: list[bytes]) -> None:
        """Say which finished games damage took from History for good (their record and the saved
        actions that would work them out again both damaged), with what their damaged records
        still tell: the game, the day it finished, its players (nothing made up)."""
        if not raws:
            return
        from firmware.export_dates import local
        from firmware.history_rebuild import known
        self._notes.append(Msg("{n} game could not be restored to History: its record and its saved session were both "
                               "damaged. The damaged records are kept for a bug report.", n=len(raws),
                               plural="{n} games could not be restored to History: their records and their saved "
                                      "sessions were all damaged. The damaged records are kept for a bug report."))
        for raw in raws:
            game, finished, names = known(raw)
            when = local(finished)
            said: list[object] = [game or Msg("a game whose name could not be read"),
                                  when.strftime("%d.%m.%Y") if when is not None else Msg("an unknown day")]
            if names == []:                     # (a dice or bag session: nobody named)
                self._notes.append(Msg("Not restored: {}, finished on {}.", *said))
            else:
                self._notes.append(Msg("Not restored: {}, finished on {}; players: {}.", *said,
                                       ", ".join(names) if names else Msg("not readable")))

    def _written_again(self, ids: list[int], how: str = WRITTEN_AGAIN) -> None:
        """Mark the damaged rows ``ids`` as made again (or ``how``: :data:`NOT_RESTORED`), never tried again."""
        if not ids:
            return
        try:
            with self.transaction() as db:
                db.executemany("UPDATE damaged SET reason = reason || ? WHERE id=?", [(how, i) for i in ids])
        except StorageError as e:
            log.error("cannot mark the damaged rows as made again (tried again at the next start): %s", e)

    def _refile_fair(self, sids: list[bytes]) -> tuple[int, bool]:
        """File again, from each ended session's own rows (its header holds the seed), the
        fair-draw records the check set aside. Returns how many, and whether the card refused
        one (to be tried again at the next start); never raises."""
        import json
        from firmware.session import END
        refiled, refused = 0, False
        for row in self.db.execute(f"SELECT {SESSION_ROW} FROM sessions").fetchall():
            text = self.session_header(row)
            try:
                head = json.loads(text) if text is not None else None
                if head is None or str(head.get("sid")).encode() not in sids:
                    continue
                lines = self._effective_lines(int(row[0]))
                if lines and lines[-1] == END and fairness.filed(self.db, [str(head["sid"])]) == {}:
                    fairness.file_lines(self, head, lines, steps=stored_steps(self.db, int(row[0])))
                    refiled += bool(fairness.filed(self.db, [str(head["sid"])]))   # (not if the damaged row stayed)
            except (StorageError, sqlite3.Error) as e:
                log.error("cannot file again the fair-draw record of session %s now (%s): at a later start", row[0], e)
                refused = True
            except Exception:  # noqa: BLE001 - one record that cannot be filed must not stop the start
                log.exception("cannot file again the fair-draw record of session %s", row[0])
        return refiled, refused

    def _sids(self) -> set[str]:
        """The session ids (``sid``) of the stored sessions whose header holds."""
        import json
        out: set[str] = set()
        for row in self.db.execute(f"SELECT {SESSION_ROW} FROM sessions").fetchall():
            text = self.session_header(row)
            if text is not None:
                out.add(str(json.loads(text).get("sid")))
        return out

    def _effective_lines(self, sid_: int) -> list[str]:
        """The effective action lines of stored session ``sid_`` (cut at its first damaged action)."""
        lines, damaged = effective_lines(self.db, sid_)
        if damaged is not None:
            log.error("session %s: action %s fails its checksum; History is rebuilt up to it", sid_, damaged)
        return lines

    @staticmethod
    def _set_aside_session(db: sqlite3.Connection, sid_: int) -> None:
        """Move a session whose own row is damaged, and its actions and checkpoints, into
        ``damaged`` (a new session must never inherit them by reusing the id)."""
        db.execute("INSERT INTO damaged(what, data, reason) SELECT 'action', CAST(session AS BLOB) || x'1f' || "
                   "CAST(seq AS BLOB) || x'1f' || CAST(kind AS BLOB) || x'1f' || CAST(line AS BLOB) || x'1f' || "
                   "CAST(sentence AS BLOB), 'its session is damaged' FROM actions WHERE session=?", (sid_,))
        db.execute("DELETE FROM actions WHERE session=?", (sid_,))
        db.execute("DELETE FROM checkpoints WHERE session=?", (sid_,))
        db.execute(SAME_KEY_TABLE)
        db.execute("DELETE FROM same_key WHERE session=?", (sid_,))
        db.execute("DELETE FROM sessions WHERE id=?", (sid_,))
