"""Opening the database: the file checked (firmware/store/checks.py), or — whatever went wrong —
moved aside as ``legatus.db.damaged-N`` (with its rollback journal) and a new one made holding every
row of the old one, and of its journal, whose checksum holds (read from the pages by
firmware/salvage.py); never a crash loop. A hot journal's two copies are kept until the start is
over: a row a damaged journal damaged as SQLite rolled it back is whole in the other copy."""
from __future__ import annotations

import errno
import logging
import os
import re
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.text import Msg
from firmware import fairness, history, play_time, players
from firmware.storage import crc, fsync_dir, make_private
from firmware.store.checks import Checks, _Found
from firmware.store.schema import _EXPECTED, DB_NAME, FORMAT, KNOWN, StateDirError, _raw, _text, same_key_crc, session_crc
from firmware.store.reasons import ask_card, reason

if TYPE_CHECKING:                  # (the salvage is imported only after damage)
    from firmware import salvage

log = logging.getLogger(__name__)


class Opening(Checks):
    """The database, checked, or rebuilt from the rows of a damaged one."""

    def _open(self) -> tuple[sqlite3.Connection, _Found]:
        """The database, checked, or — whatever went wrong — a new one holding every row of the
        old one whose checksum holds (never a crash loop)."""
        self._salvage_left()
        if not self.db_path.exists():          # a first start: made beside its place, renamed into it
            try:
                os.replace(self._build([], []), self.db_path)
                fsync_dir(self.root)
            except OSError as e:
                log.error("cannot put the new database in place: %s", e)
                raise StateDirError(Msg("Cannot create {}: {}.", str(self.db_path), self._why(e))) from None
        journal, before = self._hot_journal()
        self._hot = (before, journal) if before is not None and journal is not None else None
        self._hot_rows = None
        for attempt in range(1, READ_TRIES + 1):
            db: sqlite3.Connection | None = None
            try:
                self._check_header()
                db = self._connect()
                newer = self._newer(db)
                if newer is not None:
                    return db, newer
                self._verify(db)
                self._check_schema(db)
                self._create(db)
                return db, self._scan(db)
            except StateDirError:
                raise
            except Exception as e:  # noqa: BLE001 - any failure to read the file is damage (or the environment)
                if db is not None:
                    try:
                        db.close()
                    except sqlite3.Error as e2:
                        log.warning("closing the damaged database: %s", e2)
                if attempt < (READ_TRIES if _read_error(e) else 2):   # a card slow to answer, or a read
                    log.warning("reading %s failed (%s); trying again", self.db_path, e)   # error SQLite took
                    time.sleep(0.2 * attempt)                                        # for damage: once more
                    continue
                if isinstance(e, sqlite3.OperationalError) and not self._looks_damaged(e) and not _read_error(e):
                    log.error("cannot open %s: %s", self.db_path, e)
                    raise StateDirError(Msg("Cannot open {}: {}. Check the disk and its permissions.",
                                            str(self.db_path), self._why(e))) from None
                log.error("the database %s cannot be read (%s: %s); salvaging its rows", self.db_path,
                          type(e).__name__, e)
                return self._salvage(e, before, journal)
        raise AssertionError("unreachable")

    def _newer(self, db: sqlite3.Connection) -> _Found | None:
        """If the file was written by a newer Legatus (its format number is ahead of this
        program's and its tables or rows are not all this program's own), what the start found:
        nothing, for nothing of it is this program's to mend, set aside or salvage; every change is
        refused (:meth:`transaction`) and the start says why. None for any other file (a format
        number ahead on a file that is all this program's own is a flipped bit: the start goes on)."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version <= FORMAT:
            return None
        try:
            self._check_schema(db)
            tables = self._tables(db)
            alien = bool(set(tables) - set(KNOWN) - {"sqlite_sequence"}) or any(
                set(cols) - set(_EXPECTED[name]) for name, cols in tables.items() if name in KNOWN)
            found = self._scan(db)
            alien = alien or bool(found.bad or found.flags or found.bad_settings or found.put_back)
        except Exception as e:  # noqa: BLE001 - whatever a newer format holds, it is not set aside
            log.warning("a file of format %s does not read as this program's (%s)", version, e)
            alien = True
        if not alien:
            return None
        log.error("%s is of format %s, written by a newer Legatus (this one knows %s): nothing will be changed",
                  self.db_path, version, FORMAT)
        self._newer_format = version
        self._notes.append(Msg("The games on this card were saved by a newer Legatus (data format {}; this one "
                               "knows {}): nothing can be saved or changed until Legatus is updated. History and "
                               "the last game can still be read.", version, FORMAT))
        return _Found(version, [], [], [], [])

    def _hot_journal(self) -> tuple[bytes | None, bytes | None]:
        """A rollback journal left by an interrupted transaction, and the database as it was
        before SQLite rolls it back: if the journal is damaged, the rollback can damage the
        database, and the salvage needs both as they were."""
        path = self.db_path.with_name(DB_NAME + "-journal")
        try:
            if not path.exists() or path.stat().st_size == 0:
                return None, None
            return path.read_bytes(), self.db_path.read_bytes()
        except OSError as e:
            log.warning("cannot read the rollback journal %s: %s", path, e)
            return None, None

    def _hot_copies(self) -> dict[tuple[Any, ...], tuple[Any, ...]]:
        """After a rollback of a hot journal: the good rows of the database and its journal as
        they were before it ((table, key) -> values). A damaged journal page can damage a row as
        SQLite rolls it back, while the same row is whole in the other copy."""
        if self._hot is None:
            return {}
        if self._hot_rows is None:
            keys = {"sessions": 1, "actions": 2, "checkpoints": 3, "settings": 1, "history": 1, "history_started": 1,
                    "play_time": 1}
            from firmware import salvage      # (only after damage: not at every start)
            carried, _ = _carry(salvage.rows(*self._hot))
            self._hot_rows = {(t, *v[:keys[t]]): v for t, v in carried if t in keys}
        return self._hot_rows

    def _move_aside(self, path: Path) -> Path:
        """Move ``path`` aside as ``<name>.damaged-N``, its rollback journal (and any -wal, -shm)
        first: a power cut in between leaves the pair under the same N."""
        n = 1
        while path.with_name(f"{path.name}.damaged-{n}").exists():
            n += 1
        aside = path.with_name(f"{path.name}.damaged-{n}")
        for extra in ("-journal", "-wal", "-shm"):
            side = path.with_name(path.name + extra)
            if side.exists():
                os.replace(side, aside.with_name(aside.name + extra))
                make_private(aside.with_name(aside.name + extra))
        os.replace(path, aside)
        make_private(aside)             # it holds the secret seed of the game that goes on
        fsync_dir(path.parent)
        return aside

    # -- the salvage ---------------------------------------------------------------------------
    # The new database is made beside the damaged one (legatus.db.new), renamed legatus.db.ready
    # once its rows are committed, and only then put in the damaged one's place (which is moved
    # aside): a full card or a power cut before that leaves the damaged file where it was, to be
    # salvaged again at the next start, and a start that finds legatus.db.ready finishes the swap.
    def _side(self, suffix: str) -> Path:
        return self.db_path.with_name(DB_NAME + suffix)

    def _salvage_left(self) -> None:
        """Finish a salvage a power cut stopped between its two renames; remove the half-made new
        file of one stopped before (its rows are still in the damaged file)."""
        new, ready = self._side(".new"), self._side(".ready")
        _remove(new, new.with_name(new.name + "-journal"))
        back = self._side(".back")            # (the copy of a deleted database being written back:
        if back.exists() and not self.db_path.exists():   # firmware/store/connection.py ``_put_back``)
            log.warning("the power was cut as %s, deleted, was written back; taking %s", self.db_path, back)
            try:
                os.replace(back, self.db_path)
                fsync_dir(self.root)
            except OSError as e:
                raise StateDirError(Msg("Cannot create {}: {}.", str(self.db_path), reason(e))) from None
            self._notes.append(Msg("The saved games were deleted from the card while Legatus ran; they were written "
                                   "back, every game and History as they were."))
        if not ready.exists():
            return
        log.warning("a salvage was cut short before %s took the damaged database's place; finishing it", ready)
        aside = self._swap(ready)
        self._salvaged = True
        self._notes.append(Msg("The database could not be read ({}); it was kept aside as {}, and the {n} record "
                               "whose checksum held was carried into a new one.",
                               Msg("the records are damaged"), aside.name if aside else DB_NAME, n=_rows(self.db_path),
                               plural="The database could not be read ({}); it was kept aside as {}, and the {n} "
                                      "records whose checksums held were carried into a new one."))

    def _build(self, carried: list[tuple[str, tuple[Any, ...]]], damaged: list[tuple[str, bytes]]) -> Path:
        """The new database holding ``carried`` (and ``damaged``, kept for a bug report), made
        and committed as legatus.db.new, then renamed legatus.db.ready. Raises StateDirError
        (the damaged file left in place, the half-made one removed)."""
        new = self._side(".new")
        parts = (new, new.with_name(new.name + "-journal"))
        _remove(*parts)
        try:
            db = self._open_file(new)
            try:
                self._create(db)
                db.execute("BEGIN IMMEDIATE")
                for table, values in carried:
                    marks = ",".join("?" * len(values))
                    db.execute(f"INSERT OR REPLACE INTO {table} VALUES({marks})", values)
                db.executemany("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)",
                               [(what, raw, "salvage") for what, raw in damaged])
                db.execute("COMMIT")
            finally:
                db.close()
            make_private(new, True)
            ready = self._side(".ready")
            os.replace(new, ready)
            fsync_dir(self.root)
            return ready
        except (sqlite3.Error, OSError) as e:
            log.error("cannot make the new database for the salvage: %s", e)
            _remove(*parts)
            raise StateDirError(Msg("Cannot create {}: {}.", str(self.db_path), self._why(e))) from None

    def _in_memory(self, carried: list[tuple[str, tuple[Any, ...]]],
                   damaged: list[tuple[str, bytes]]) -> tuple[sqlite3.Connection, _Found]:
        """The salvage of a damaged database on a card that takes no writes (it cannot be made
        beside the damaged file): made in memory, read as the salvaged file would be, every change
        refused once the start is done (``_memory_only``); the damaged file is left as it was, for
        the salvage of a start that can write."""
        log.error("the card is read-only: the damaged database %s is salvaged in memory, to be read only",
                  self.db_path)
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._create(db)
        db.execute("BEGIN")
        for table, values in carried:
            db.execute(f"INSERT OR REPLACE INTO {table} VALUES({','.join('?' * len(values))})", values)
        db.executemany("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)",
                       [(what, raw, "salvage") for what, raw in damaged])
        db.execute("COMMIT")
        self._salvaged = self._memory = True
        return db, self._scan(db)

    def _swap(self, ready: Path, journal: bytes | None = None) -> Path | None:
        """Put ``ready`` in the damaged database's place, the damaged one (and its journal) moved
        aside first; returns where it went (None if it was gone). Raises StateDirError."""
        try:
            aside = self._move_aside(self.db_path) if self.db_path.exists() else None
            os.replace(ready, self.db_path)
            fsync_dir(self.root)
        except OSError as e:
            log.error("cannot put the salvaged database in place: %s", e)
            raise StateDirError(Msg("The database {} is damaged and cannot be moved aside ({}). Check the disk.",
                                    str(self.db_path), reason(e))) from None
        side = aside.with_name(aside.name + "-journal") if aside is not None else None
        if side is not None and journal and not side.exists():
            try:
                side.write_bytes(journal)            # SQLite had deleted it: kept for a bug report
            except OSError as e:
                log.warning("cannot keep the damaged database's journal beside it: %s", e)
        return aside

    def _salvage(self, error: BaseException, before: bytes | None, journal: bytes | None) -> tuple[sqlite3.Connection, _Found]:
        unread = 0
        if before is not None:
            data = before
        else:
            data, unread = _readable(self.db_path)
        from firmware import salvage
        carried, damaged = _carry(salvage.rows(data, journal))
        kept = sum(1 for t, _ in carried if t != "damaged")
        why = reason(error)                  # (SQLite's own words are in the log)
        if not isinstance(why, Msg):
            why = Msg("the records are damaged")
        try:
            ready = self._build(carried, [*damaged, ("history", HISTORY_AFTER_SALVAGE)])
        except StateDirError:
            refused = ask_card(self.root, DB_NAME + "-probe")
            if refused is None or refused.errno != errno.EROFS:
                raise
            db, found = self._in_memory(carried, [*damaged, ("history", HISTORY_AFTER_SALVAGE)])
            self._notes.append(Msg("The database could not be read ({}) and the card is read-only: the {n} record "
                                   "whose checksum held was read into memory, to be read only; nothing can be saved. "
                                   "Turn Legatus off and on again; if the card is still read-only, replace it.",
                                   why, n=kept,
                                   plural="The database could not be read ({}) and the card is read-only: the {n} "
                                          "records whose checksums held were read into memory, to be read only; "
                                          "nothing can be saved. Turn Legatus off and on again; if the card is "
                                          "still read-only, replace it."))
            return db, found
        aside = self._swap(ready, journal)
        try:
            db = self._connect()
            found = self._scan(db)
        except Exception as e:  # noqa: BLE001 - the new file cannot be read: the disk is at fault
            log.exception("cannot open the new database after the salvage")
            raise StateDirError(Msg("Cannot create {}: {}.", str(self.db_path), self._why(e))) from None
        self._salvaged = True
        self._notes.append(Msg("The database could not be read ({}); it was kept aside as {}, and the {n} record "
                               "whose checksum held was carried into a new one.",
                               why, aside.name if aside else DB_NAME, n=kept,
                               plural="The database could not be read ({}); it was kept aside as {}, and the {n} "
                                      "records whose checksums held were carried into a new one."))
        if unread:
            self._notes.append(Msg("{n} byte of the database could not be read at all (a bad spot on the card): "
                                   "the records that were there are lost.",
                                   plural="{n} bytes of the database could not be read at all (a bad spot on the "
                                          "card): the records that were there are lost.", n=unread))
        if damaged:
            self._notes.append(Msg("{n} damaged record was kept for a bug report.", n=len(damaged),
                                   plural="{n} damaged records were kept for a bug report."))
        return db, found


    code = "step_changed"


# kept in ``damaged`` by a salvage until History has been worked out again from the rows it carried
# (firmware/store/mending.py): a power cut in the middle of that leaves it for the next start
HISTORY_AFTER_SALVAGE = b"(History to be worked out again after the salvage)"
READ_TRIES = 3          # a read error at start is tried again (a card slow to answer) before it is damage;
                        # any other failure once (a transient EIO that SQLite reported as a malformed file)
BLOCK = 4096            # what the salvage reads at a time: a bad spot costs the blocks it covers, not the file


def _read_error(e: BaseException) -> bool:
    """An I/O error reading the card (EIO), from the system or from SQLite."""
    if isinstance(e, OSError):
        return e.errno == errno.EIO
    return isinstance(e, sqlite3.OperationalError) and "disk i/o error" in str(e).lower()


def _remove(*paths: Path) -> None:
    """Remove the files that exist among ``paths`` (a failure logged)."""
    for path in paths:
        try:
            if path.exists():                # (unlink says EROFS on a read-only card even for no file)
                path.unlink()
        except OSError as e:
            log.warning("cannot remove %s: %s", path, e)


def _rows(path: Path) -> int:
    """How many rows of this program's tables (``damaged`` aside) the database ``path`` holds."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = [str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            return sum(int(db.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0]) for n in names
                       if n in KNOWN and n != "damaged")
        finally:
            db.close()
    except sqlite3.Error as e:
        log.warning("cannot count the rows of %s: %s", path, e)
        return 0


def _readable(path: Path) -> tuple[bytes, int]:
    """The bytes of ``path`` that can be read, a block that cannot (EIO: a bad spot) as zeros
    (the salvage finds no row there), and how many bytes were unreadable. A file that cannot be
    opened at all reads as nothing."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as e:
        log.warning("cannot read %s for the salvage: %s", path, e)
        return b"", 0
    out: list[bytes] = []
    unread = 0
    try:
        size = os.fstat(fd).st_size
        for offset in range(0, size, BLOCK):
            n = min(BLOCK, size - offset)
            try:
                block = os.pread(fd, n, offset)
            except OSError as e:
                log.error("%s: bytes %d-%d cannot be read (%s)", path, offset, offset + n - 1, e)
                block, unread = b"\0" * n, unread + n
            out.append(block.ljust(n, b"\0"))
    finally:
        os.close(fd)
    return b"".join(out), unread


# -- carrying rows out of a damaged file ---------------------------------------------------------
_ISO = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def _carry(found: list[salvage.Row]) -> tuple[list[tuple[str, tuple[Any, ...]]], list[tuple[str, bytes]]]:
    """The rows (table, values ready to insert) of this program's tables among ``found`` whose
    checksums hold, one per key (a journal page's version first: it is the committed one), and
    the damaged ones that were recognisable (what, raw bytes) for the ``damaged`` table."""
    best: dict[tuple[Any, ...], tuple[int, str, tuple[Any, ...]]] = {}
    damaged: list[tuple[str, bytes]] = []

    def put(key: tuple[Any, ...], rank: int, table: str, values: tuple[Any, ...]) -> None:
        if key not in best or rank > best[key][0]:
            best[key] = (rank, table, values)

    for row in found:
        v: tuple[Any, ...] = row.values
        j = 10 if row.source == "journal" else 0
        ints = [isinstance(x, int) for x in v]
        texts = [_text(x) if isinstance(x, bytes) else None for x in v]
        if len(v) == 5 and v[0] is None and texts[1] is not None and ints[2] and ints[4]:
            ended = int(v[3]) if isinstance(v[3], (int, float)) and abs(v[3]) < 2**62 else None
            if session_crc(row.rowid, v[1], v[2], ended) == v[4] or crc(row.rowid, v[1]) == v[4]:
                # an archived version beats a current one (archiving never goes back)
                put(("sessions", row.rowid), j + (1 if v[2] == 0 else 0), "sessions", (row.rowid, texts[1], v[2], ended))
            else:
                damaged.append(("session", _raw(row.rowid, *v)))
        elif len(v) == 6 and ints[0] and ints[1] and ints[5] and None not in texts[2:5]:
            if crc(*v[:5]) == v[5]:
                put(("actions", v[0], v[1]), j, "actions", (v[0], v[1], *texts[2:5], v[5]))
            else:
                damaged.append(("action", _raw(*v)))
        elif len(v) == 5 and ints[0] and ints[1] and ints[2] and ints[4] and texts[3] is not None:
            if crc(*v[:4]) == v[4]:
                put(("checkpoints", v[0], v[1], v[2]), j, "checkpoints", (*v[:3], texts[3], v[4]))
            else:
                damaged.append(("checkpoint", _raw(*v)))
        elif len(v) == 3 and texts[0] is not None and texts[1] is not None and ints[2]:
            if crc(v[0], v[1]) == v[2]:
                put(("settings", v[0]), j, "settings", (texts[0], texts[1], v[2]))
            elif history.started_crc(v[0], v[1]) == v[2]:
                put(("history_started", v[0]), j, "history_started", (texts[0], texts[1], v[2]))
            elif fairness.fair_crc(v[0], v[1]) == v[2]:
                put(("fair", v[0]), j, "fair", (texts[0], texts[1], v[2]))
            elif players.player_crc(v[0], v[1]) == v[2]:
                put(("players", v[0]), j, "players", (texts[0], texts[1], v[2]))
            else:
                damaged.append(("setting", _raw(*v)))
        elif len(v) == 3 and texts[0] is not None and ints[1] and ints[2]:       # a session's play time
            if play_time.play_crc(v[0], v[1]) == v[2]:
                put(("play_time", v[0]), j, "play_time", (texts[0], v[1], v[2]))
            else:
                damaged.append(("play time", _raw(*v)))
        elif len(v) == 2 and texts[0] is not None and texts[1] is not None and _ISO.match(v[1]):
            put(("history_started", v[0]), j - 5, "history_started", (texts[0], texts[1], history.started_crc(v[0], v[1])))
        elif len(v) == 8 and v[0] is None and ints[4] and ints[5] and ints[7] and None not in texts[1:4] and texts[6]:
            if history.row_crc(row.rowid, *v[1:7]) == v[7]:
                put(("history", row.rowid), j + v[5], "history", (row.rowid, *texts[1:4], v[4], v[5], texts[6], v[7]))
            else:
                damaged.append(("history", _raw(row.rowid, *v)))
        elif len(v) == 4 and all(ints):                  # a step's mark of its key (firmware/store/actions.py)
            if same_key_crc(*v[:3]) == v[3]:
                put(("same_key", v[0], v[1]), j, "same_key", v)
            else:
                damaged.append(("key mark", _raw(*v)))
        elif len(v) == 4 and v[0] is None and all(isinstance(x, bytes) for x in v[1:]) and texts[1] and texts[3]:
            put(("damaged", row.rowid), j, "damaged", (row.rowid, texts[1], v[2], texts[3]))
    # one current session: the newest (an interrupted 'new' may have left two)
    currents = [v[0] for _, t, v in best.values() if t == "sessions" and v[2] == 1]
    newest = max(currents, default=None)
    order = ("sessions", "actions", "same_key", "checkpoints", "settings", "history", "history_started", "play_time", "fair",
             "players", "damaged")
    out: list[tuple[str, tuple[Any, ...]]] = []
    for _, table, values in sorted(best.values(), key=lambda r: order.index(r[1])):
        if table == "sessions":
            sid_, header, current, ended = values
            current = 1 if current == 1 and sid_ == newest else 0
            values = (sid_, header, current, ended, session_crc(sid_, header.encode(), current, ended))
        out.append((table, values))
    return out, damaged
