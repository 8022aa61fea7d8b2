"""Finished games remembered: the ``history`` table beside the sessions in the store's database.

A game is recorded when its rules say it is over (PROTOCOL.md, "Added in version 1"):

- Caesar! (solo or duel): C-12, the state has a ``winner``;
- For the Glory of Rome: after round 9 (``finished``) and a ``score`` (read-only: recorded when it
  is asked; a later ``score`` replaces the record while no action followed);
- Julius Caesar (``jc-battle``): every battle that ends (``part`` = ``battle-N``) and the campaign
  when it is over (``part`` = ``campaign``);
- The Sword of Rome: after turn 9 (``finished``) or an automatic victory (``scoring … auto=T``);
- any game replaced by ``new`` before anything of it finished: ``abandoned``;
- any session the players end with ``end`` (:func:`record_ended`): its finished records stay
  (sealed); a game stopped early, a bag or dice session gets one ``ended`` row (``finished`` if
  the game's rules had ended it without a record, e.g. Glory never scored).

Bags and dice are tools, not games: they are recorded only when ended with ``end``.

Each record is one row keyed by the session's ``sid`` and a ``part``, so recording is idempotent: a crash between an
action's commit and its record is reconciled by firmware.history_rebuild.reconcile at the next start or ``state``.
``depth``: the effective actions when the game finished; undoing the finish removes the record *unless another action
followed it* (``sealed``: it stays, and follows the game's next finish: firmware/history_follow.py). Every row carries a
CRC-32 like the storage rows (:func:`firmware.storage.crc` over the raw bytes, checked before decoding), the start times
too; at each start the store reports damaged rows and sets them aside (firmware/history_check.py; never shown, and written again from
their sessions: firmware/history_rebuild.py). Dates: wall-clock UTC ISO dates; a record's ``minutes``: the play time, the
time the game was played summed over the runs of the program it was played in (firmware/play_time.py; None for a session
stored before play time was kept). No record holds a seed or a ``new`` line:
an ended game's seed, share and commitment come from its fair-draw record (firmware/fairness.py, joined by ``sid`` when
History is read).
"""
from __future__ import annotations

import datetime as _dt
import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from engine.text import from_data, to_data
from firmware.history_text import Msg, N_, abandoned, as_now
from firmware import history_follow, play_time, players
from firmware.history_follow import HISTORY_ROW as HISTORY_ROW, row_crc as row_crc   # (re-exported: the rows' read, checksum)
from firmware.games import GameRecord, player, record_of, records, unfinished_mode
from firmware.history_people import is_seat, sides_people, with_people
from firmware.history_seen import fingerprint, game_key, recorded_elsewhere, whole_game_elsewhere
from firmware.storage import StorageError, crc

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE IF NOT EXISTS history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL, crc INTEGER NOT NULL DEFAULT 0);
""" + play_time.SCHEMA
# the columns of the tables (the store checks the schema against them; the sessions' play time is kept beside their
# start times: firmware/play_time.py)
COLUMNS = {"history": ("id", "sid", "part", "game", "depth", "sealed", "record", "crc"),
           "history_started": ("sid", "started"), **play_time.COLUMNS}
_TITLES = (N_("Caesar! Seize Rome in 20 Minutes"), N_("Julius Caesar"), N_("For the Glory of Rome"),
           N_("The Sword of Rome"))


def started_crc(sid: Any, started: Any) -> int:
    """The checksum of a ``history_started`` row (tagged: its shape is a setting's)."""
    return crc("started", sid, started)


def ensure(db: sqlite3.Connection) -> None:
    for stmt in SCHEMA.split(";"):
        if stmt.strip():
            db.execute(stmt)


def ensure_players(db: sqlite3.Connection) -> None:
    """The players' table (firmware/players.py), made if it is missing; a new one starts with the
    people History already holds (a device updated from before the list existed remembers its
    players)."""
    if not players.ensure(db):
        return
    try:
        entries = games(db, None)
    except sqlite3.Error as e:          # (a storage failure: its words, not a traceback)
        log.warning("History cannot be read to seed the players' list: %s", e)
        return
    players.remember(db, entries)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# A time taken while the clock was not synchronised (hw.clock: no network since boot, no RTC)
# is kept with this mark after it (history_started) or named in the record's ``unsynced`` list.
UNSYNCED = "~"



def _clock_unsynced() -> bool:
    """Whether a time taken now is unsure: the kernel says the clock is not synchronised, or the
    clock says a time before Legatus existed (hw.clock ``EARLIEST``: 1970, a fresh card's image
    date), which no time can be even where the kernel's state cannot be read."""
    from hw.clock import synchronised, wall_plausible
    return synchronised() is False or not wall_plausible()


# -- what a finished game looks like: each game's record says (firmware/games.py) --------------------
def _record(game: str) -> GameRecord | None:
    """The record of a game History keeps (None for a tool such as dice or a bag)."""
    record = record_of(game)
    return record if record is not None and record.recorded else None


def finished_parts(game: str, view: dict[str, Any], *, command: str = "",
                   fields: dict[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The finished games this state holds, as ``(part, record)`` (without dates and ids).
    ``command``/``fields``: the action just run (Glory's ``score``, Sword's automatic victory)."""
    return [] if (record := _record(game)) is None or record.finished is None else record.finished(game, view, command, fields or {})


def is_tool(game: str) -> bool:       # a tool (dice, a bag): History records it only when the players end it
    return _record(game) is None


def box_name(game: str) -> str:
    """The game's name as BG Stats and BoardGameGeek know it (kept in English in exports)."""
    record = record_of(game)
    return record.box_name if record is not None and record.box_name else game


def _players_of(game: str, view: dict[str, Any]) -> list[str]:
    """The players' names of a game that did not finish (none for a tool)."""
    record = record_of(game)
    return record.players(game, view) if record is not None and record.players is not None else []


def _unfinished_players(game: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The players of a game that did not finish: no score, no winner, the one who took the first
    turn marked as its record of a finished game would (:attr:`GameRecord.first`)."""
    record = record_of(game)
    start = record.first(game, view) if record is not None and record.first is not None else None
    return [player(n, None, False, n == start) for n in _players_of(game, view)]


# -- storing ---------------------------------------------------------------------------------------
def _row(db: sqlite3.Connection, sid: str, part: str) -> tuple[int, int] | None:
    row = db.execute("SELECT id, sealed FROM history WHERE sid=? AND part=?", (sid, part)).fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def _started(db: sqlite3.Connection, sid: str) -> str | None:
    """When the session ``sid`` began (None if unknown or its row is damaged)."""
    row = db.execute("SELECT CAST(started AS BLOB), CAST(crc AS INTEGER) FROM history_started WHERE sid=?",
                     (sid,)).fetchone()
    if row is None:
        return None
    if started_crc(sid, row[0]) != row[1]:
        log.error("the start time of session %s fails its checksum; left out", sid)
        return None
    return bytes(row[0]).decode("utf-8", "replace")


def _put(db: sqlite3.Connection, header: dict[str, Any], part: str, rec: dict[str, Any], depth: int,
         status: str, lines: Sequence[str] | None = None, *, finished: tuple[str, bool] | None = None,
         rid: int | None = None, carried: dict[str, Any] | None = None, late: bool = False) -> bool:
    """Insert the record, or replace an unsealed one or a reopened one (firmware/history_follow.py: True). A
    rebuilt record gives ``finished`` (its time, and whether it is approximate), ``rid`` (its old id) and
    ``carried`` (what its damaged row still shows that no replay gives: ``minutes``, ``replaced``, ``was``); a
    ``late`` one (a finish whose record a crash lost) its ``finished`` and the play time stored with its steps."""
    sid = str(header["sid"])
    old = _row(db, sid, part)
    fp = fingerprint(header, (lines or [])[:depth], part) if old is None or old[1] != 1 else ""
    if (follow := history_follow.replacing(db, old, fp, str(rec.get("asked") or ""))) is None:     # sealed: kept
        return False
    if old is None and header.get("reopened") and recorded_elsewhere(db, header, lines or [], depth, part, fp):
        return False
    record = _record(str(header["game"]))
    started = _started(db, sid) if record is None or record.began is None or record.began(part) else None
    when, rough = finished if finished is not None else (_now(), _clock_unsynced())
    unsynced = [name for name, bad in (("started", started is not None and started.endswith(UNSYNCED)),
                                       ("finished", rough)) if bad]
    timed = started is not None and (finished is None or late)     # (a rebuilt record: what its damaged row kept)
    own = record is not None and record.parted is not None and record.parted(part)     # (a JC battle: its own time)
    minutes = play_time.minutes(db, sid, part=part) if own and (finished is None or late) else None
    if minutes is None and timed:      # (a part begun with its session, battle 1, whose own row is not there —
        minutes = play_time.minutes(db, sid, until_now=not late)   # begun on an older Legatus, or set aside —: the session's)
    span = play_time.span(sid) if timed and not late else None     # (how long ago it began: dates it)
    people = with_people(str(header["game"]), sides_people(header), rec["players"])
    data = {"game": header["game"], "status": status, "started": started.rstrip(UNSYNCED) if started else None,
            "finished": when, "mode": rec["mode"], "players": people, "result": to_data(rec["result"]),
            "fp": fp, "gk": game_key(header), "unsynced": unsynced, "minutes": minutes, "span": span,
            **({"of": str(header["copy_of"])} if header.get("copy_of") else {}),     # (a copy: the game's first session)
            **{k: v for k, v in follow.items() if k != "said"}, **(carried or {})}
    if rec.get("asked"):       # the read-only question the record answers (asked again after a correction)
        data["asked"] = str(rec["asked"])
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    if old is not None and history_follow.unchanged(db, old[0], depth, text, row_crc(old[0], sid, part, header["game"], depth, 0, text)):
        return False        # the same record asked again (Glory's score shown again): nothing is written
    try:
        players.note(db, [str(p["name"]) for p in people if not is_seat(p)], add=False)   # (a forgotten one stays so)
    except StorageError as e:       # the people's list cannot be read now: the record goes in all the same
        log.warning("the players of History row %s/%s are not remembered: %s", sid, part, e)
    if old is None:
        cur = db.execute("INSERT INTO history(id, sid, part, game, depth, sealed, record, crc) VALUES(?,?,?,?,?,0,?,0)",
                         (rid, sid, part, header["game"], depth, text))
        rid = int(cur.lastrowid or 0)
    else:
        rid = old[0]
        db.execute("UPDATE history SET depth=?, sealed=0, record=? WHERE id=?", (depth, text, rid))
    db.execute("UPDATE history SET crc=? WHERE id=?", (row_crc(rid, sid, part, header["game"], depth, 0, text), rid))
    return bool(follow.get("said"))


def _seal(db: sqlite3.Connection, sid: str, below: int | None = None) -> None:
    """Seal the session's unsealed History rows (those recorded before action ``below``, or all):
    undo no longer takes them back. A row whose checksum fails is logged and left unsealed,
    never sealed as good."""
    query = f"SELECT {HISTORY_ROW} FROM history WHERE sid=? AND sealed=0"
    args: tuple[str | int, ...] = (sid,)
    if below is not None:
        query, args = query + " AND depth<?", (sid, below)
    for row in db.execute(query, args).fetchall():
        rid, sid_b, part, game, depth, _, text, check = row
        if row_crc(*row[:7]) != check:
            log.error("History row %s is damaged; not sealed", rid)
            continue
        db.execute("UPDATE history SET sealed=1, crc=? WHERE id=?",
                   (row_crc(rid, sid_b, part, game, depth, 1, text), rid))


def _finished_now(session: Any, command: str = "", fields: dict[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The finished games the session's current state holds (:func:`finished_parts`)."""
    game = session.game.name
    record = _record(game)
    if record is None:
        return []
    view = session.game.view(session.state)
    if record.replayed is not None and not command and session.lines:
        command, fields = record.replayed(view, session.lines[-1])
    return finished_parts(game, view, command=command, fields=fields)


def record_state(store: Any, session: Any, *, command: str = "", fields: dict[str, Any] | None = None,
                 replace: bool = False, asked: str = "", late: bool = False) -> list[str]:
    """Record every finished game the session's current state holds that is not recorded yet
    (``replace``: also rewrite unsealed ones; ``asked``: the read-only request line the records
    answer, kept with them; ``late``: not right after the finishing action — its record was lost
    to a crash or a refused write —, so the finish time, now, is marked not known, ``unsynced``).
    Returns the parts written."""
    parts = [(part, {**rec, "asked": asked} if asked else rec) for part, rec in _finished_now(session, command, fields)]
    if not parts or not _to_write(store.db, session, [part for part, _ in parts], replace):
        return []             # nothing finished, or all recorded: no write transaction (a read-only request on a finished game)
    written, sid = [], str(session.header["sid"])
    with store.transaction() as db:
        ensure(db)
        for part, rec in parts:
            if _writes(_row(db, sid, part), replace):
                if _put(db, session.header, part, rec, len(session.lines), "finished", session.lines,
                        finished=(_now(), True) if late else None, late=late):
                    history_follow.said(db, session, part)
                written.append(part)
        if written:      # a finished game is no longer 'abandoned'
            db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (sid,))
    return written


def _writes(before: tuple[int, int] | None, replace: bool) -> bool:   # (id, sealed): none, reopened, or unsealed and replace
    return before is None or before[1] == history_follow.REOPENED or (replace and not before[1])


def _to_write(db: sqlite3.Connection, session: Any, parts: Sequence[str], replace: bool) -> bool:
    """Whether :func:`record_state` has any of ``parts`` to write (not a reopened copy's finish another session recorded:
    :func:`_put`), asked in a read: no write transaction a key press. A failed read (no table yet) says yes."""
    try:
        header, lines, n = session.header, session.lines, len(session.lines)
        return any(_writes(row := _row(db, str(header["sid"]), part), replace) and not (row is None and header.get("reopened") and
                   recorded_elsewhere(db, header, lines, n, part, fingerprint(header, lines[:n], part))) for part in parts)
    except sqlite3.Error as e:
        log.warning("History cannot be read to see whether a record is missing: %s", e)
        return True


def _ended_row(db: sqlite3.Connection, session: Any, status: str, *, finished: tuple[str, bool] | None = None,
               rid: int | None = None, carried: dict[str, Any] | None = None) -> None:
    """The one ``ended`` row of an ended session with no record of the whole game (none if it has one)."""
    sid = str(session.header["sid"])
    if db.execute("SELECT 1 FROM history WHERE sid=? AND part NOT LIKE 'battle-%'", (sid,)).fetchone():
        return
    depth = len(session.lines)
    if session.header.get("reopened") and whole_game_elsewhere(db, session.header, session.lines, depth):
        return                                           # (a copy from Earlier games: the game is there)
    n = max(depth - 1, 0)                                # the actions before ``end``
    result = (Msg("Finished after {n} action.", plural="Finished after {n} actions.", n=n)
              if status == "finished" else
              Msg("Ended by the players after {n} action.", plural="Ended by the players after {n} actions.", n=n))
    rec = {"mode": unfinished_mode(session.game.name, session.game.view(session.state), status),
           "players": _unfinished_players(session.game.name, session.game.view(session.state)), "result": result}
    _put(db, session.header, "ended", rec, depth, status, session.lines, finished=finished, rid=rid, carried=carried)


def after_action(store: Any, session: Any, command: str, fields: dict[str, Any], mutated: bool,
                 line: str = "") -> bool:
    """After a committed action (or a read-only one such as Glory's ``score``, its request
    ``line``): seal the records this action followed (not for a correction of a score that is not
    final yet: the record's ``amends``), then record what just finished. Returns whether the action
    was such a correction (then firmware/history_rebuild.py ``asked_again`` makes the record follow)."""
    record = _record(session.game.name)
    if record is None:
        return False
    sid = str(session.header["sid"])
    amending = record.amends is not None and record.amends(session.game.view(session.state), command)
    if mutated and not amending and history_follow.to_seal(store.db, sid, len(session.lines)):
        with store.transaction() as db:
            ensure(db)
            _seal(db, sid, len(session.lines))
    asked = line if command == "score" and not mutated else ""
    record_state(store, session, command=command, fields=fields, replace=command == "score", asked=asked)
    return mutated and amending


def after_undo(store: Any, session: Any) -> None:
    """An undo took a finishing action back: drop the records it made (never sealed ones)."""
    if _record(session.game.name) is None:
        return
    with store.transaction() as db:
        ensure(db)
        history_follow.taken_back(db, str(session.header["sid"]), len(session.lines))


def note_started(store: Any, session: Any) -> None:
    """When ``new`` began ``session``: its start time (history is not session state)."""
    with store.transaction() as db:
        write_started(db, session)


def write_started(db: sqlite3.Connection, session: Any) -> None:
    """``session``'s start time, now, in the transaction ``db`` is in (``new``: the one that
    stores the session, so the card refusing it refuses the ``new``, and never loses it alone)."""
    ensure(db)
    sid, now = str(session.header["sid"]), _now() + (UNSYNCED if _clock_unsynced() else "")
    db.execute("INSERT OR IGNORE INTO history_started(sid, started, crc) VALUES(?,?,?)", (sid, now, started_crc(sid, now)))
    play_time.began(db, sid, play_time.playing(session.game.name, session.state_json))


def abandoned_row(store: Any, session: Any) -> Callable[[sqlite3.Connection], None] | None:
    """Before ``new`` replaces ``session``: what records it as abandoned, written in the transaction
    that starts the new session (firmware/console_session.py), so that the record and the new
    session are stored together or not at all — written apart, a start that failed after it, with
    the card refusing to take it back too, showed the game still in play as abandoned in History
    until it ended. None for a tool, a game something of which was recorded already, or one that
    was ended (filed by :func:`record_ended`)."""
    if session is None or _record(session.game.name) is None or session.ended:
        return None
    record_state(store, session, late=True)         # (a finish whose record a crash lost)
    if _finished_now(session):        # something of it finished: recorded (here, or by the session it reopened)
        return None
    sid, header, depth, lines = str(session.header["sid"]), session.header, len(session.lines), session.lines
    game, view = session.game.name, session.game.view(session.state)
    rec = {"mode": unfinished_mode(game, view, "abandoned"), "players": _unfinished_players(game, view),
           "result": abandoned(depth)}

    def write(db: sqlite3.Connection) -> None:
        ensure(db)
        if not db.execute("SELECT 1 FROM history WHERE sid=?", (sid,)).fetchone():
            _put(db, header, "abandoned", rec, depth, "abandoned", lines)
    return write


def record_ended(store: Any, session: Any, status: str) -> None:
    """After ``end`` (``status``: ``finished`` if the game's rules had ended it, else ``ended``):
    what finished is recorded and sealed (nothing can be undone any more); a session with no record
    of the whole game (a Julius Caesar battle is a part, not the campaign) gets one ``ended`` row.
    Idempotent."""
    if status == "finished":
        record_state(store, session, late=True)   # a finish whose record a crash lost (nothing for a tool)
    sid = str(session.header["sid"])
    with store.transaction() as db:
        ensure(db)
        db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (sid,))
        _ended_row(db, session, status)
        _seal(db, sid)


def forget_abandoned(store: Any, session: Any) -> None:
    """Take back :func:`record_abandoned` when the ``new`` that would replace the session failed."""
    with store.transaction() as db:
        db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (str(session.header["sid"]),))


# -- reading ---------------------------------------------------------------------------------------
def games(db: sqlite3.Connection, limit: int | None = 20, game_id: int | None = None, skip: int = 0) -> list[dict[str, Any]]:
    """Recorded games, newest first, after the newest ``skip`` rows. Each: ``id``, ``game``, ``name``, ``status``,
    ``started``, ``finished``, ``mode``, ``players``, ``result`` (a Msg). A row whose checksum fails is left
    out (the start-up check, firmware/history_check.py, reports and sets such rows aside). Every
    record as stored, as ``history`` answers them (PROTOCOL.md): a game reopened from Earlier games
    and played on in a copy keeps its first session's ``abandoned`` record beside the copy's; only
    the device's screens show them as one game (firmware/history_joined.py says why)."""
    try:
        ensure(db)
    except sqlite3.Error as e:
        log.warning("cannot create the History tables (read-only storage?): %s", e)
    sql = f"SELECT {HISTORY_ROW} FROM history"
    args: tuple[Any, ...] = ()
    if game_id is not None:
        sql += " WHERE id=?"
        args = (game_id,)
    sql += " ORDER BY id DESC"
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        args += (limit, skip)
    out = []
    for row in db.execute(sql, args).fetchall():
        entry = _entry(row)
        if entry is None:
            log.error("History row %s is damaged; left out", row[0])
            continue
        out.append(entry)
    return out


def _entry(row: tuple[Any, ...]) -> dict[str, Any] | None:
    """One raw ``history`` row as an entry, or None if its checksum fails or it does not parse."""
    rid, sid, part, game, depth, sealed, text, check = row
    if row_crc(rid, sid, part, game, depth, sealed, text) != check:
        return None
    try:
        sid_s, part_s = bytes(sid).decode("utf-8"), bytes(part).decode("utf-8")
        game_s = bytes(game).decode("utf-8")
        data = json.loads(bytes(text).decode("utf-8"))
        result = from_data(data["result"])
        result = as_now(result)
        return {"id": rid, "game": game_s, "name": box_name(game_s), "status": data["status"],
                "started": data.get("started"), "finished": data.get("finished"), "mode": data["mode"],
                "players": with_people(game_s, {}, list(data["players"])), "result": result, "part": part_s, "sid": sid_s,
                "unsynced": list(data.get("unsynced", [])), "replaced": history_follow.earlier(data),
                **{k: data[k] for k in ("minutes", "span", "of") if k in data}}     # (not in a row made before them)
    except (ValueError, KeyError, TypeError, RecursionError) as e:
        log.error("History row %s does not parse: %s", rid, e)
        return None


def public(entry: dict[str, Any], minutes: int | None) -> dict[str, Any]:
    """What ``history`` answers for one game; ``seed``, ``share``, ``commitment`` (null until
    the game's session has ended, firmware/fairness.py ``attach``); ``unsynced``: which of its
    times were taken while the clock was not synchronised; ``minutes``: its play time in whole
    minutes as given, the exports' ``durationMin`` (firmware/export.py ``duration_min``: None when
    not known)."""
    out = {k: entry[k] for k in ("id", "game", "name", "status", "started", "finished", "mode", "players", "result")}
    out["minutes"] = minutes
    out.update({k: entry.get(k) for k in ("seed", "share", "commitment")})
    out["unsynced"] = list(entry.get("unsynced", []))
    out.update({"replaced": list(entry["replaced"])} if entry.get("replaced") else {})   # history_follow.py
    return out


# -- statistics ------------------------------------------------------------------------------------
def stats(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """What the Statistics screens show, from history entries (newest first): each game's pages
    (firmware/games.py ``Statistic``) by their key — ``crassus`` (your record against
    Auto-Crassus), ``glory`` (scores per player), ``jc`` (battles per side)…"""
    return {s.key: s.compute(entries) for r in records() for s in r.statistics}


def kept_record(db: sqlite3.Connection, sids: Sequence[str], part: str) -> dict[str, Any] | None:
    """The newest record of ``part`` History keeps of the sessions ``sids`` (a game, and the
    archived game a reopened copy of it replays), as :func:`games` reads it; None: none, or
    damaged (left out as :func:`games` leaves it)."""
    if not sids:
        return None
    marks = ", ".join("?" * len(sids))
    for row in db.execute(f"SELECT {HISTORY_ROW} FROM history WHERE CAST(sid AS TEXT) IN ({marks}) AND part=? "
                          "ORDER BY id DESC", (*sids, part)).fetchall():
        entry = _entry(row)
        if entry is not None:
            return entry
    return None


def recorded(db: sqlite3.Connection, sid: str) -> bool:
    """Whether the session ``sid`` has a finished game (any part but ``abandoned``) in the history."""
    row = db.execute("SELECT 1 FROM history WHERE sid=? AND part!='abandoned' LIMIT 1", (sid,)).fetchone()
    return row is not None
