"""Finished games remembered: the ``history`` table beside the sessions in the store's database.

A game is recorded when its rules say it is over (PROTOCOL.md, "Added in version 1"):

- Caesar! (solo or duel): C-12, the state has a ``winner``;
- For the Glory of Rome: after round 9 (``finished``) and a ``score`` (read-only: recorded when it
  is asked; a later ``score`` replaces the record while no action followed);
- Julius Caesar (``jc-battle``): every battle that ends (``part`` = ``battle-N``) and the campaign
  when it is over (``part`` = ``campaign``);
- The Sword of Rome: after turn 9 (``finished``) or an automatic victory (``scoring … auto=T``);
- any game replaced by ``new`` before anything of it finished: ``abandoned``.

Bags and dice are tools, not games: they are never recorded.

Each record is one row keyed by the session's ``sid`` and a ``part``, so recording is idempotent:
a crash between an action's commit and its record is reconciled by :func:`reconcile` at the next
start or ``state``. ``depth`` is the number of effective actions when the game finished; an undo
that takes the finishing action back removes the record *unless another action followed it* (the
row is then ``sealed`` and stays for good). Every row carries a CRC-32 like the storage rows; a
damaged row is skipped when read. Dates are wall-clock UTC ISO dates: history is not session state.
No record holds a seed or a ``new`` line.
"""
from __future__ import annotations

import datetime as _dt
import json
import sqlite3
import zlib
from typing import Any

from engine.text import Msg, N_, from_data, to_data
from firmware.games import GameRecord, player, record_of, records

SCHEMA = """
CREATE TABLE IF NOT EXISTS history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE IF NOT EXISTS history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL);
"""
_TITLES = (N_("Caesar! Seize Rome in 20 Minutes"), N_("Julius Caesar"), N_("For the Glory of Rome"),
           N_("The Sword of Rome"))


def crc(*fields: Any) -> int:
    return zlib.crc32("\x1f".join(map(str, fields)).encode())


def ensure(db: sqlite3.Connection) -> None:
    for stmt in SCHEMA.split(";"):
        if stmt.strip():
            db.execute(stmt)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# -- what a finished game looks like: each game's record says (firmware/games.py) --------------------
def _record(game: str) -> GameRecord | None:
    """The record of a game History keeps (None for a tool such as dice or a bag)."""
    record = record_of(game)
    return record if record is not None and record.recorded else None


def finished_parts(game: str, view: dict[str, Any], *, command: str = "",
                   fields: dict[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The finished games this state holds, as ``(part, record)`` (without dates and ids).
    ``command``/``fields``: the action just run (Glory's ``score``, Sword's automatic victory)."""
    record = _record(game)
    if record is None or record.finished is None:
        return []
    return record.finished(game, view, command, fields or {})


def box_name(game: str) -> str:
    """The game's name as BG Stats and BoardGameGeek know it (kept in English in exports)."""
    record = record_of(game)
    return record.box_name if record is not None and record.box_name else game


def _row(db: sqlite3.Connection, sid: str, part: str) -> tuple[int, int] | None:
    row = db.execute("SELECT id, sealed FROM history WHERE sid=? AND part=?", (sid, part)).fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def fingerprint(header: dict[str, Any], lines: list[str], part: str) -> str:
    """The game itself, whatever session holds it: the ``new`` line's words without ``seed=``,
    the seed, the effective lines up to the finish and the part. An archived game reopened from
    Earlier games (a new session replaying the same lines) is not recorded twice. Kept in the
    database only (it is a hash of the seed: never answered)."""
    import hashlib
    words = sorted(w for w in str(header.get("line", "")).split() if not w.startswith("seed="))
    text = json.dumps([header.get("game"), words, str(header.get("seed")), lines, part])
    return hashlib.sha256(text.encode()).hexdigest()


def _seen(db: sqlite3.Connection, game: str, fp: str, sid: str) -> bool:
    for (text,) in db.execute("SELECT record FROM history WHERE game=? AND sid!=?", (game, sid)):
        if f'"fp": "{fp}"' in text:
            return True
    return False


def _put(db: sqlite3.Connection, header: dict[str, Any], part: str, rec: dict[str, Any], depth: int,
         status: str, lines: list[str] | None = None) -> None:
    """Insert the record, or replace an unsealed one (keeping its first finish time)."""
    sid = str(header["sid"])
    old = _row(db, sid, part)
    if old is not None and old[1]:
        return
    fp = fingerprint(header, list(lines or [])[:depth], part)
    if old is None and _seen(db, str(header["game"]), fp, sid):
        return
    got = db.execute("SELECT started FROM history_started WHERE sid=?", (sid,)).fetchone()
    data = {"game": header["game"], "status": status, "started": got[0] if got else None, "finished": _now(),
            "mode": rec["mode"], "players": rec["players"], "result": to_data(rec["result"]), "fp": fp}
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    if old is None:
        cur = db.execute("INSERT INTO history(sid, part, game, depth, sealed, record, crc) VALUES(?,?,?,?,0,?,0)",
                         (sid, part, header["game"], depth, text))
        rid = int(cur.lastrowid or 0)
    else:
        rid = old[0]
        db.execute("UPDATE history SET depth=?, record=? WHERE id=?", (depth, text, rid))
    db.execute("UPDATE history SET crc=? WHERE id=?", (crc(rid, sid, part, header["game"], depth, 0, text), rid))


def record_state(store: Any, session: Any, *, command: str = "", fields: dict[str, Any] | None = None,
                 replace: bool = False) -> list[str]:
    """Record every finished game the session's current state holds that is not recorded yet
    (``replace``: also rewrite unsealed ones). Returns the parts written."""
    game = session.game.name
    record = _record(game)
    if record is None:
        return []
    view = session.game.view(session.state)
    if record.replayed is not None and not command and session.lines:
        command, fields = record.replayed(view, session.lines[-1])
    parts = finished_parts(game, view, command=command, fields=fields)
    if not parts:
        return []
    sid = str(session.header["sid"])
    written: list[str] = []
    with store.transaction() as db:
        ensure(db)
        for part, rec in parts:
            before = _row(db, sid, part)
            if before is None or (replace and not before[1]):
                _put(db, session.header, part, rec, len(session.lines), "finished", session.lines)
                written.append(part)
        if written:      # a finished game is no longer 'abandoned'
            db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (sid,))
    return written


def after_action(store: Any, session: Any, command: str, fields: dict[str, Any], mutated: bool) -> None:
    """After a committed action (or a read-only one such as Glory's ``score``): seal the records
    this action followed, then record what just finished."""
    if _record(session.game.name) is None:
        return
    sid = str(session.header["sid"])
    if mutated:
        with store.transaction() as db:
            ensure(db)
            for rid, part, game, depth, text in db.execute(
                    "SELECT id, part, game, depth, record FROM history WHERE sid=? AND sealed=0 AND depth<?",
                    (sid, len(session.lines))).fetchall():
                db.execute("UPDATE history SET sealed=1, crc=? WHERE id=?",
                           (crc(rid, sid, part, game, depth, 1, text), rid))
    record_state(store, session, command=command, fields=fields, replace=command == "score")


def after_undo(store: Any, session: Any) -> None:
    """An undo took a finishing action back: drop the records it made (never sealed ones)."""
    if _record(session.game.name) is None:
        return
    with store.transaction() as db:
        ensure(db)
        db.execute("DELETE FROM history WHERE sid=? AND sealed=0 AND part!='abandoned' AND depth>?",
                   (str(session.header["sid"]), len(session.lines)))


def note_started(store: Any, session: Any) -> None:
    """When ``new`` began ``session``: its start time (history is not session state)."""
    if _record(session.game.name) is None:
        return
    with store.transaction() as db:
        ensure(db)
        db.execute("INSERT OR IGNORE INTO history_started VALUES(?,?)", (str(session.header["sid"]), _now()))


def reconcile(store: Any, session: Any) -> None:
    """At start and ``state``: record a finish whose record a crash lost (idempotent)."""
    record_state(store, session)


def record_abandoned(store: Any, session: Any) -> bool:
    """Before ``new`` replaces ``session``: record it as abandoned unless it is a tool or something
    of it was recorded already. Returns whether a row was written."""
    if session is None or _record(session.game.name) is None:
        return False
    record_state(store, session)
    sid = str(session.header["sid"])
    with store.transaction() as db:
        ensure(db)
        if db.execute("SELECT 1 FROM history WHERE sid=?", (sid,)).fetchone():
            return False
        record = _record(session.game.name)
        names = record.players(session.game.name, session.game.view(session.state)) if record and record.players else []
        rec = {"mode": {"kind": "abandoned"}, "players": [player(n, None, False) for n in names],
               "result": Msg("Abandoned after {} actions.", len(session.lines))}
        _put(db, session.header, "abandoned", rec, len(session.lines), "abandoned", session.lines)
    return True


def forget_abandoned(store: Any, session: Any) -> None:
    """Take back :func:`record_abandoned` when the ``new`` that would replace the session failed."""
    with store.transaction() as db:
        db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (str(session.header["sid"]),))


# -- reading ---------------------------------------------------------------------------------------
def games(db: sqlite3.Connection, limit: int | None = 20, game_id: int | None = None) -> list[dict[str, Any]]:
    """Recorded games, newest first (damaged rows skipped). Each: ``id``, ``game``, ``name``,
    ``status``, ``started``, ``finished``, ``mode``, ``players``, ``result`` (a Msg)."""
    try:
        ensure(db)
    except sqlite3.Error:
        pass                      # read-only storage: read what is there
    sql = "SELECT id, sid, part, game, depth, sealed, record, crc FROM history"
    args: tuple[Any, ...] = ()
    if game_id is not None:
        sql += " WHERE id=?"
        args = (game_id,)
    sql += " ORDER BY id DESC"
    if limit is not None:
        sql += " LIMIT ?"
        args += (limit,)
    out = []
    for rid, sid, part, game, depth, sealed, text, check in db.execute(sql, args).fetchall():
        if crc(rid, sid, part, game, depth, sealed, text) != check:
            continue
        try:
            data = json.loads(text)
            result = from_data(data["result"])
        except (ValueError, KeyError, TypeError):
            continue
        out.append({"id": rid, "game": game, "name": box_name(game), "status": data["status"],
                    "started": data.get("started"), "finished": data.get("finished"), "mode": data["mode"],
                    "players": data["players"], "result": result, "part": part})
    return out


def public(entry: dict[str, Any]) -> dict[str, Any]:
    """What ``history`` answers for one game."""
    return {k: entry[k] for k in ("id", "game", "name", "status", "started", "finished", "mode", "players",
                                  "result")}


# -- statistics ------------------------------------------------------------------------------------
def stats(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """What the Statistics screens show, from history entries (newest first): each game's pages
    (firmware/games.py ``Statistic``) by their key — ``crassus`` (your record against
    Auto-Crassus), ``glory`` (scores per player), ``jc`` (battles per side)…"""
    return {s.key: s.compute(entries) for r in records() for s in r.statistics}


def recorded(db: sqlite3.Connection, sid: str) -> bool:
    """Whether the session ``sid`` has a finished game (any part but ``abandoned``) in the history."""
    row = db.execute("SELECT 1 FROM history WHERE sid=? AND part!='abandoned' LIMIT 1", (sid,)).fetchone()
    return row is not None
