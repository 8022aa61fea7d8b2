"""A finished game's record follows the game's latest finish (firmware/history.py keeps the rows).

A record that a later action followed is sealed: undo never removes it (PROTOCOL.md). When an undo
takes the game back past its finish, the sealed row is marked :data:`REOPENED` — it stays, and says
what it said — and the game's next finish *replaces* it, under the same id: History, the
statistics, both exports and a restart then agree with the game. The result it replaced is kept
in the row (``replaced``: each earlier result with its finish time, answered by ``history``), said
in the session's log and in the program's log, so nothing acknowledged is lost silently. Taking
that new finish back at once (an undo right after it) brings the sealed record back as it was
(``was``); finishing again exactly as before (the same lines up to the finish: its fingerprint,
and the same ``score`` sheet) keeps the sealed record's result and finish time.
"""
from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

log = logging.getLogger(__name__)

__all__ = ["HISTORY_ROW", "REOPENED", "earlier", "replacing", "row_crc", "said", "taken_back", "to_seal", "unchanged"]

# Raw reads of History's rows (firmware/store/, firmware/history.py): text as stored bytes, numbers
# as integers, checked before decoding.
HISTORY_ROW = ("id, CAST(sid AS BLOB), CAST(part AS BLOB), CAST(game AS BLOB), CAST(depth AS INTEGER), "
               "CAST(sealed AS INTEGER), CAST(record AS BLOB), CAST(crc AS INTEGER)")
REOPENED = 2
"""``history.sealed`` of a sealed record whose finish an undo took back: the next finish replaces it."""
TIMES = ("finished", "unsynced", "minutes", "span")
"""A record's times (firmware/history.py) that the same finish asked again keeps."""


def row_crc(rid: Any, sid: Any, part: Any, game: Any, depth: Any, sealed: Any, record: Any) -> int:
    """The checksum of a ``history`` row (every field: they all decide what History shows)."""
    from firmware.storage import crc
    return crc(rid, sid, part, game, depth, sealed, record)


def _read(db: sqlite3.Connection, rid: int) -> tuple[int, dict[str, Any]] | None:
    """The row's depth and record, or None when its checksum fails or it does not parse (logged)."""
    row = db.execute(f"SELECT {HISTORY_ROW} FROM history WHERE id=?", (rid,)).fetchone()
    if row is None or row_crc(*row[:7]) != row[7]:
        log.error("History row %s is damaged; what it held is not kept beside the new finish", rid)
        return None
    try:
        data = json.loads(bytes(row[6]).decode("utf-8"))
    except (ValueError, RecursionError) as e:
        log.error("History row %s does not parse: %s", rid, e)
        return None
    return int(row[4]), data if isinstance(data, dict) else {}


def _write(db: sqlite3.Connection, rid: int, depth: int, sealed: int, data: dict[str, Any]) -> None:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    sid, part, game = db.execute("SELECT sid, part, game FROM history WHERE id=?", (rid,)).fetchone()
    db.execute("UPDATE history SET depth=?, sealed=?, record=?, crc=? WHERE id=?",
               (depth, sealed, text, row_crc(rid, sid, part, game, depth, sealed, text), rid))


def replacing(db: sqlite3.Connection, row: tuple[int, int] | None, fp: str, asked: str = "") -> dict[str, Any] | None:
    """Before a finish (its fingerprint ``fp``; ``asked``: the read-only request it answers, Glory's
    ``score`` sheet) is written over History's ``row`` of its game (id, sealed; None if none): None
    when the row is sealed (it stays as it is), else the fields the new record carries over a
    :data:`REOPENED` row, or over an unsealed one that replaced it: ``was`` (the sealed record, for
    an undo at once), ``replaced`` (the earlier results; the sealed one added when this finish
    differs from it, with ``said``: the log is to say so) — or, when the game finished exactly as
    the sealed record says (the same lines and sheet), that record's own finish time."""
    if row is None:
        return {}
    if row[1] == 1:
        return None
    old = _read(db, row[0])
    if old is None:
        return {}
    depth, data = old
    # an unsealed record written again is the same finish asked again or corrected (Glory's score
    # shown the next day): it keeps its finish time, and whether the clock was set then
    same: dict[str, Any] = {k: data[k] for k in TIMES if k in data and row[1] != REOPENED}
    was = ({"depth": depth, "record": {k: v for k, v in data.items() if k != "was"}} if row[1] == REOPENED
           else data.get("was"))
    if not isinstance(was, dict) or not isinstance(was.get("record"), dict):
        return same                                 # an unsealed record that replaced nothing
    base = was["record"]
    out: dict[str, Any] = {"was": was, "replaced": list(base.get("replaced", []))}
    if base.get("fp") == fp and str(base.get("asked", "")) == asked:
        out.update({k: base[k] for k in TIMES if k in base})
        return out
    out["replaced"].append({"result": base.get("result"), "finished": base.get("finished"),
                            **({"unsynced": True} if "finished" in (base.get("unsynced") or ()) else {})})
    log.info("History row %s: the game finished again after an undo past its recorded finish; "
             "the record now follows the new finish (the earlier result is kept in 'replaced')", row[0])
    return {**out, **same, "said": True}


def to_seal(db: sqlite3.Connection, sid: str, below: int) -> bool:
    """Whether the session has unsealed rows recorded before action ``below`` (firmware/history.py
    ``_seal``), asked in a read: an action that follows none opens no second write transaction. A
    failed read says yes (the transaction decides, and reports what fails)."""
    try:
        return db.execute("SELECT 1 FROM history WHERE sid=? AND sealed=0 AND depth<? LIMIT 1",
                          (sid, below)).fetchone() is not None
    except sqlite3.Error as e:
        log.warning("History cannot be read to see whether a record is to be sealed: %s", e)
        return True


def unchanged(db: sqlite3.Connection, rid: int, depth: int, text: str, check: int) -> bool:
    """Whether History's unsealed row ``rid`` holds exactly this record (its depth, text and
    checksum ``check``): writing it again would change nothing but cost the card a durable commit."""
    return db.execute("SELECT 1 FROM history WHERE id=? AND depth=? AND sealed=0 AND record=? AND crc=?",
                      (rid, depth, text, check)).fetchone() is not None


def taken_back(db: sqlite3.Connection, sid: str, depth: int) -> None:
    """An undo took the session back to ``depth`` actions: a record made after that and never
    sealed is taken out — or, if it had replaced a sealed one, that one comes back —, and a sealed
    one made after it is marked :data:`REOPENED` (kept; the next finish replaces it)."""
    rows = db.execute("SELECT id, sealed FROM history WHERE sid=? AND part!='abandoned' AND depth>? AND sealed!=?",
                      (sid, depth, REOPENED)).fetchall()
    for rid, sealed in rows:
        old = _read(db, rid)
        if sealed:
            if old is not None:
                _write(db, rid, old[0], REOPENED, old[1])
            continue
        was = old[1].get("was") if old is not None else None
        if isinstance(was, dict) and isinstance(was.get("record"), dict):
            _write(db, rid, int(was.get("depth", 0)), REOPENED, was["record"])
            log.info("History row %s: the finish that replaced it was undone; its sealed record is back", rid)
        else:
            db.execute("DELETE FROM history WHERE id=?", (rid,))


def said(db: sqlite3.Connection, session: Any, part: str) -> None:
    """The session's log says that History's record of ``part`` now holds the new finish, and what
    it held (the record's ``replaced``, newest last)."""
    from engine.text import from_data
    from firmware.history_text import Msg, as_now
    row = db.execute("SELECT id FROM history WHERE sid=? AND part=?", (str(session.header["sid"]), part)).fetchone()
    found = _read(db, int(row[0])) if row is not None else None
    if found is None or not found[1].get("replaced"):
        return
    data = found[1]
    session.log.append(Msg("History now records this game's new finish: {} It had recorded: {}",
                           as_now(from_data(data["result"])), as_now(from_data(data["replaced"][-1]["result"]))))


def earlier(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A record's ``replaced`` as ``history`` answers it: each earlier result (a sentence in the
    language set) and when that finish was recorded (``unsynced``: true when the clock was not
    set then), oldest first."""
    from engine.text import from_data
    from firmware.history_text import as_now
    return [{"result": as_now(from_data(r["result"])), "finished": r.get("finished"),
             **({"unsynced": True} if r.get("unsynced") is True else {})}
            for r in data.get("replaced", []) if isinstance(r, dict)]
