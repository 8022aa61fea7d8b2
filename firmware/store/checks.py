"""The start-up check of an open database: the file header, SQLite's integrity_check (a damaged
index rebuilt), the schema against the one this program made, the missing tables made, and every
row of the small tables (sessions, settings, History, fair draws, players) checked, read only
(firmware/store/mending.py deals with what it found)."""
from __future__ import annotations

import errno
import json
import logging
import re
import sqlite3
import zlib
from typing import Any, NamedTuple

from engine.text import Msg
from firmware import fairness, history, history_check, players
from firmware.settings import valid_settings
from firmware.storage import crc
from firmware.store.connection import Connection
from firmware.store.reasons import reason
from firmware.store.schema import (_EXPECTED, CORE, FORMAT, KNOWN, SCHEMA, SESSION_ROW, SETTING_ROW, StateDirError,
                                   _raw, _text, session_crc)

log = logging.getLogger(__name__)


class _Found(NamedTuple):
    """What the start-up check of the small tables found (read only; mended afterwards)."""

    version: int
    bad: list[tuple[str, str, bytes, tuple[Any, ...]]]    # (table, what, raw data, row key) to set aside
    reseal: list[int]                                    # session rows to seal anew (upgrade, mended flag)
    flags: list[tuple[int, int]]                         # (session id, current) mended
    bad_settings: list[str]                              # setting names with a value that is not allowed
    put_back: tuple[tuple[int, bytes, bytes], ...] = ()  # (session id, damaged header, header whole again)



_ERROR_CODE = re.compile(r"error code=(\d+)")
SQLITE_IOERR = 10


def _io_code(problem: str) -> bool:
    """Whether an integrity_check finding is SQLite's I/O error (its extended code's low byte is
    SQLITE_IOERR: "Page 17: unable to get the page. error code=8458"), not a damaged page."""
    return any(int(code) & 0xFF == SQLITE_IOERR for code in _ERROR_CODE.findall(problem))


class Checks(Connection):
    """The start-up check (read only)."""

    def _create(self, db: sqlite3.Connection) -> None:
        """The tables that are missing (all of them on a new file), in one transaction: a start
        cut short never leaves half a schema. Nothing is written when they all exist."""
        tables = self._tables(db)
        if set(KNOWN) <= set(tables):
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            for stmt in SCHEMA.split(";"):
                if stmt.strip():
                    db.execute(stmt)
            history.ensure(db)
            fairness.ensure(db)
            history.ensure_players(db)
            if not tables:
                db.execute(f"PRAGMA user_version={FORMAT}")
            db.execute("COMMIT")
        except BaseException as e:
            try:
                if db.in_transaction:       # (a full card: SQLite has rolled it back itself)
                    db.execute("ROLLBACK")
            except sqlite3.Error as e2:
                log.warning("ROLLBACK of the schema failed: %s", e2)
            said = str(e).lower()
            if isinstance(e, sqlite3.OperationalError) and ("readonly" in said or "is full" in said) and set(
                    CORE) <= set(tables):
                # a card an older Legatus wrote, remounted read-only (firmware/store/__init__.py) or full:
                # read as it is (a table it lacks reads as empty: a game's play time, firmware/play_time.py,
                # not known); the tables are made once the card takes writes again (the next start, or the
                # next game). (A full card refused to start at all: no game or History to read.)
                log.warning("the tables %s cannot be made on a %s database (%s); read without them",
                            ", ".join(sorted(set(KNOWN) - set(tables))), "full" if "is full" in said else "read-only", e)
                return
            raise

    @staticmethod
    def _tables(db: sqlite3.Connection) -> dict[str, dict[str, tuple[Any, ...]]]:
        """Each table's columns: name -> (type, not null, primary key position)."""
        names = [str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()]
        return {n: {str(c[1]): (str(c[2]).upper(), int(c[3]), int(c[5]))
                    for c in db.execute(f'PRAGMA table_info("{n}")').fetchall()} for n in names}

    def _check_header(self) -> None:
        """Raise if the file header holds a value SQLite would take in silence but that is not
        one this program writes (a write version above 2 makes the file read-only: nothing
        could be saved, and nothing would say why)."""
        try:
            with open(self.db_path, "rb") as f:
                head = f.read(100)
        except FileNotFoundError:
            return
        except OSError as e:
            if e.errno == errno.EIO:                # a bad spot on the card: tried again, then damage
                raise
            log.error("cannot open %s: %s", self.db_path, e)
            raise StateDirError(Msg("Cannot open {}: {}. Check the disk and its permissions.",
                                    str(self.db_path), reason(e))) from None
        if len(head) < 100:                         # (a new one is made whole beside it, then renamed)
            raise sqlite3.DatabaseError(f"the file is cut short ({len(head)} bytes)")
        if head[18] not in (1, 2) or head[19] not in (1, 2) or head[21:24] != b"\x40\x20\x20":
            raise sqlite3.DatabaseError(f"the file header is damaged ({head[18:24].hex()})")

    def _check_schema(self, db: sqlite3.Connection) -> None:
        """Raise if the schema is not the one this program made (or none at all on a new file):
        a table renamed by damage, a column lost or changed (a rowid alias that is no longer
        one), the schema itself gone."""
        tables = self._tables(db)
        if not tables:
            if int(db.execute("PRAGMA page_count").fetchone()[0]) > 1:
                raise sqlite3.DatabaseError("the schema is gone from a database that holds pages")
            return
        for name, cols in tables.items():
            for known, want in KNOWN.items():
                if name != known and set(want) <= set(cols):
                    raise sqlite3.DatabaseError(f"table {name!r} has the columns of {known!r}")
        for name, want in KNOWN.items():
            if name not in tables:
                continue
            if not set(want) <= set(tables[name]):
                raise sqlite3.DatabaseError(f"table {name!r} lost a column")
            if any(tables[name][c] != _EXPECTED[name][c] for c in want):
                raise sqlite3.DatabaseError(f"a column of table {name!r} changed")
        missing = [n for n in CORE if n not in tables]
        if ("history" in tables) != ("history_started" in tables):
            missing.append("history" if "history" not in tables else "history_started")
        held = [n for n in KNOWN if n in tables and db.execute(f'SELECT 1 FROM "{n}" LIMIT 1').fetchone()]
        if missing and held:         # a schema half made (an older Legatus stopped at its first start) holds nothing
            raise sqlite3.DatabaseError(f"tables missing: {', '.join(missing)}")

    def _verify(self, db: sqlite3.Connection) -> None:
        """SQLite's own check of the whole file; a damaged index alone is rebuilt from the tables."""
        # integrity_check, not quick_check: it also compares each index with its table (a few
        # ms for 20,000 actions). A damaged index alone would make a query silently skip rows
        # (an acknowledged action missing, nothing reported); it is rebuilt from the tables.
        problem = self._integrity(db)
        if problem is None:
            return
        if _io_code(problem):               # a page the card would not give: a read error (tried again)
            raise sqlite3.OperationalError(f"disk I/O error (integrity_check: {problem[:120]})")
        try:
            db.execute("REINDEX")
        except sqlite3.OperationalError:   # cannot write: treat the file as damaged
            raise sqlite3.DatabaseError(f"integrity_check: {problem}") from None
        if self._integrity(db) is not None:
            raise sqlite3.DatabaseError(f"integrity_check: {problem}")
        self._notes.append(Msg("An index of the database was damaged ({}); it was rebuilt from the "
                               "stored rows.", problem[:80]))

    @staticmethod
    def _integrity(db: sqlite3.Connection) -> str | None:
        """None if SQLite's integrity_check finds nothing wrong, else its first finding."""
        row = db.execute("PRAGMA integrity_check(1)").fetchone()
        return None if row is not None and row[0] == "ok" else str(row[0] if row else "no answer")

    @staticmethod
    def _looks_damaged(e: sqlite3.Error) -> bool:
        text = str(e).lower()
        return any(w in text for w in ("malformed", "not a database", "corrupt", "file is not", "disk image",
                                       "decode", "no such", "schema", "syntax", "unsupported file format"))

    # -- the start-up check ----------------------------------------------------------------------
    def _scan(self, db: sqlite3.Connection) -> _Found:
        """Check every row of the small tables (read only; raises if SQLite cannot read them)."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        bad: list[tuple[str, str, bytes, tuple[Any, ...]]] = []
        reseal: list[int] = []
        flags: list[tuple[int, int]] = []
        put_back: list[tuple[int, bytes, bytes]] = []
        for sid_, header, current, ended, check in db.execute(f"SELECT {SESSION_ROW} FROM sessions").fetchall():
            if session_crc(sid_, header, current, ended) == check:
                continue
            if version < FORMAT and crc(sid_, header) == check:
                reseal.append(sid_)                     # the old format: sealed anew
                continue
            mended = [c for c in (0, 1) if c != current and session_crc(sid_, header, c, ended) == check]
            if mended:                                  # only the flag changed: put it back
                flags.append((sid_, mended[0]))
                continue
            if crc(sid_, header) == check:              # sealed in the old way by mistake: the header is whole
                flags.append((sid_, int(current or 0)))
                continue
            whole = (one_byte_back(sid_, header, current, ended, check) or _from_fair(db, sid_, current, ended, check)
                     if version >= FORMAT else None)
            if whole is not None:                       # the header put back exactly (its checksum confirms it)
                put_back.append((sid_, bytes(header), whole))
                continue
            bad.append(("sessions", "session", _raw(sid_, header, current, ended, check), (sid_,)))
        settings_rows = db.execute(f"SELECT {SETTING_ROW} FROM settings").fetchall()
        good: dict[str, Any] = {}
        for key, value, check in settings_rows:
            k, v = _text(key), _text(value)
            if crc(key, value) != check or k is None or v is None:
                bad.append(("settings", "setting", _raw(key, value, check), (key,)))
                continue
            try:
                good[k] = json.loads(v)
            except (ValueError, RecursionError):
                bad.append(("settings", "setting", _raw(key, value, check), (key,)))
        _, wrong = valid_settings(good)
        for table, what, raw, key in history_check.scan(db) + fairness.scan(db) + players.scan(db):
            bad.append((table, what, raw, key))
        return _Found(version, bad, reseal, flags, wrong, tuple(put_back))


def _from_fair(db: sqlite3.Connection, sid_: int, current: Any, ended: Any, check: Any) -> bytes | None:
    """The header of a sessions row whose checksum fails, as the fair-draw record of its ended
    game keeps it (the session's header, written as the row writes it: firmware/store/actions.py),
    where that gives the row's checksum exactly; else None. Read only (a table that cannot be read:
    None)."""
    try:
        rows = db.execute(f"SELECT {fairness.FAIR_ROW} FROM fair").fetchall()
    except sqlite3.Error as e:
        log.info("no fair-draw record to put a damaged session's header back from: %s", e)
        return None
    for row in rows:
        got = fairness._decoded(*row)
        head = got[1].get("header") if got is not None else None
        if isinstance(head, dict):
            whole = json.dumps(head, ensure_ascii=False, sort_keys=True).encode("utf-8")
            if session_crc(sid_, whole, current, ended) == check:
                return whole
    return None


def _crc_table() -> tuple[int, ...]:
    """CRC-32's table (zlib's polynomial, reflected): the register one byte gives from zero."""
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_CRC_TABLE = _crc_table()
_CRC_BYTE = {v: d for d, v in enumerate(_CRC_TABLE) if d}          # register -> the nonzero byte giving it
_CRC_TOP = {v >> 24: d for d, v in enumerate(_CRC_TABLE)}          # each entry's top byte is its own


def _crc_back(r: int) -> int:
    """The register before one zero byte that left ``r`` (a zero byte's step, undone)."""
    d = _CRC_TOP[r >> 24]
    return (((r ^ _CRC_TABLE[d]) << 8) | d) & 0xFFFFFFFF


def one_byte_back(sid_: int, header: Any, current: Any, ended: Any, check: Any) -> bytes | None:
    """The header of a sessions row whose checksum fails, with the one byte that damage changed
    put back, where exactly one header that differs from it in one byte gives the row's checksum
    and reads as a session's header (JSON with its ``sid`` and ``game``); else None (nothing is
    guessed: the damage may be elsewhere, in more than one byte, or not told apart).

    A CRC-32 match of a one-byte change is as sure as the checksum itself; without it, a finished
    game whose History record took a bad byte too could not be worked out again (its actions set
    aside with the session)."""
    if not isinstance(header, bytes) or not isinstance(check, int) or not header or len(header) > 1024:
        return None
    head = str(sid_).encode("utf-8") + b"\x1f"
    tail = b"\x1f" + str(current).encode("utf-8") + b"\x1f" + str(ended).encode("utf-8")
    if not 0 <= check <= 0xFFFFFFFF:
        return None                                 # (no CRC-32 at all: nothing matches)
    # CRC-32 is linear: changing byte i by d (new = old ^ d) changes the checksum by the register
    # that d alone gives from zero (_CRC_TABLE[d]) carried through the n bytes after it as zeros
    # (each a step r -> r >> 8 ^ _CRC_TABLE[r & 0xFF]). So the change needed (the stored checksum
    # against the row's) is carried back one byte at a time from the end, and at each byte of the
    # header one look-up tells the only d that gives it there, if any: the same candidates as
    # trying all 256 values of every byte, in one step a byte instead of 256 checksums.
    need = zlib.crc32(head + header + tail) ^ check
    for _ in range(len(tail)):
        need = _crc_back(need)
    found: list[bytes] = []
    for i in range(len(header) - 1, -1, -1):
        delta = _CRC_BYTE.get(need)
        if delta is not None:
            found.append(header[:i] + bytes((header[i] ^ delta,)) + header[i + 1:])
        need = _crc_back(need)
    return the_one_header(found, sid_, current, ended, check)


def the_one_header(found: list[bytes], sid_: int, current: Any, ended: Any, check: Any) -> bytes | None:
    """The header put back: the only candidate ``found``, if it gives the row's checksum and reads
    as a session's header (JSON with its ``sid`` and ``game``); else None (none, or not told apart)."""
    if len(found) != 1 or session_crc(sid_, found[0], current, ended) != check:
        return None
    try:
        data = json.loads(found[0].decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    return found[0] if isinstance(data, dict) and isinstance(data.get("sid"), str) and isinstance(
        data.get("game"), str) else None
