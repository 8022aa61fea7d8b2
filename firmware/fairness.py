"""Fair draws (docs/fairness.md, PROTOCOL.md "third round").

- ``commitment(seed)``: the lowercase hex SHA-256 of the UTF-8 text ``legatus-seed:<seed>`` (the
  seed in decimal), shown before the first draw (``new``, ``commit``, ``state``); it commits to the
  secret alone, before any share is known.
- The draws come from the secret and the players' share by the derivation of engine/rng.py (one
  stream per source of chance).
- When the game has ended (``end``, or its rules ended it and ``reveal`` was asked), the session's
  *record* is filed here: its header and effective action lines, from which :func:`draw_record`
  makes the exported draw record (every draw of every stream with what decided it) that
  scripts/verify_draws.py checks without Legatus.

The ``fair`` table (beside the store's, like History's) holds one row per ended session: ``sid``,
``data`` (JSON: ``header``, ``lines``), ``crc``.
"""
from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import zlib
from typing import Any, NamedTuple

log = logging.getLogger(__name__)

SCHEMA = "CREATE TABLE IF NOT EXISTS fair(sid TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL)"
RECORD_FORMAT = "legatus-draw-record"


def commitment(seed: int) -> str:
    """The public commitment to ``seed`` (64 lowercase hex characters)."""
    return hashlib.sha256(f"legatus-seed:{seed}".encode()).hexdigest()


def finished_by_rules(game: str, view: dict[str, Any], lines: list[str]) -> bool:
    """Whether the game's own rules have ended it (``lines``: its effective actions so far):
    Caesar! C-12, a Julius Caesar campaign's end, Glory after round 9, Sword after turn 9 or an
    automatic victory. Bags and dice never end by themselves."""
    if game in ("caesar-solo", "caesar-duel"):
        return bool(view.get("winner"))
    if game == "jc-battle":
        return bool((view.get("campaign") or {}).get("over"))
    if game == "glory":
        return bool(view.get("finished"))
    if game == "sword":
        if view.get("finished"):
            return True
        from firmware.history import _sword_auto_again
        return bool(lines) and _sword_auto_again(view, lines[-1])[1] is not None
    return False


class FairDraw(NamedTuple):
    """The fair draw of the running session, for screens (``Console.fair_draw``).

    ``commitment``: the code to photograph (None for a session started with ``seed=``);
    ``share``: the players' share (None if none); ``can_share``: ``share <text>`` would be
    accepted now; ``finished``: the game's rules have ended it; ``ended``: None while it runs,
    then ``finished``/``ended``; ``seed``: the seed once the session has ended (else None)."""

    commitment: str | None
    share: str | None
    can_share: bool
    finished: bool
    ended: str | None
    seed: int | None


# -- the records of ended sessions -------------------------------------------------------------------
def _crc(sid: str, data: str) -> int:
    return zlib.crc32(f"{sid}\x1f{data}".encode())


def ensure(db: sqlite3.Connection) -> None:
    db.execute(SCHEMA)


def file_record(store: Any, session: Any) -> None:
    """File an ended session's record (idempotent; raises StorageError/sqlite3.Error)."""
    sid = str(session.header["sid"])
    data = json.dumps({"header": session.header, "lines": list(session.lines)}, ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"))
    with store.transaction() as db:
        ensure(db)
        db.execute("INSERT OR IGNORE INTO fair VALUES(?,?,?)", (sid, data, _crc(sid, data)))


def filed(db: sqlite3.Connection, sids: list[str]) -> dict[str, dict[str, Any]]:
    """The filed records of ``sids`` whose checksum holds: sid → ``{"header", "lines"}``."""
    out: dict[str, dict[str, Any]] = {}
    if not sids:
        return out
    try:
        ensure(db)
    except sqlite3.Error:
        log.warning("the fair-draw table cannot be created (read-only storage?)", exc_info=True)
    try:
        for i in range(0, len(sids), 500):
            part = sids[i:i + 500]
            rows = db.execute(f"SELECT sid, data, crc FROM fair WHERE sid IN ({','.join('?' * len(part))})",
                              part).fetchall()
            for sid, data, check in rows:
                if _crc(str(sid), str(data)) != check:
                    log.warning("the fair-draw record of session %s is damaged; it is left out", sid)
                    continue
                try:
                    out[str(sid)] = json.loads(data)
                except ValueError:
                    log.warning("the fair-draw record of session %s does not parse; it is left out", sid)
    except sqlite3.Error:
        log.warning("the fair-draw records cannot be read", exc_info=True)
    return out


def revealed(header: dict[str, Any], share: str | None) -> dict[str, Any]:
    """What an ended game shows of its draws: ``seed``, ``share``, ``commitment`` (``null`` for
    a game started with ``seed=``, which had nothing to commit to)."""
    return {"seed": int(header["seed"]), "share": share,
            "commitment": commitment(int(header["seed"])) if header.get("committed") else None}


def share_in(header: dict[str, Any], lines: list[str]) -> str | None:
    """The players' share of a session: on its ``new`` line (``share=``) or given by ``share``."""
    from firmware.session import parse_line
    share = parse_line(str(header["line"])).opts.get("share")
    for line in lines:
        if line.startswith("share "):
            share = line[len("share "):].strip()
    return share or None


def draw_record(header: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    """Replay a session with a tape and return its draw record (docs/fairness.md, "The record"):
    ``format``, ``version`` (the derivation), ``game``, ``line``, ``seed``, ``share``,
    ``commitment``, ``actions`` (the effective action lines) and ``draws`` (every draw of every
    stream, in the order they happened). Raises LegatusError/ValueError if a line no longer
    replays (it always does: the engine is deterministic)."""
    from firmware.session import Session, parse_line
    session = Session.from_header(header, [])
    state = session.state                   # its draws carry the tape (the set-up's draws are on it)
    for line in lines:
        req = parse_line(line)
        cmd = session.command(req.command)
        if cmd is None or not cmd.mutates:
            raise ValueError(f"stored action {line[:40]!r} is not a change of {session.game.name}")
        cmd.handler(state, req)
        session.lines.append(line)          # what ``end`` looks at, as when it ran
    tape = state["rng"]["tape"]
    share = share_in(header, lines)
    return {"format": RECORD_FORMAT, "version": int(header.get("v", 1)), "game": header["game"],
            "line": header["line"], **revealed(header, share), "actions": list(lines), "draws": tape}


def attach(db: sqlite3.Connection, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add ``seed``, ``share``, ``commitment`` to History entries whose session has ended (its
    record is filed), ``None`` to the others; returns ``entries``."""
    records = filed(db, sorted({str(e.get("sid")) for e in entries if e.get("sid")}))
    for e in entries:
        rec = records.get(str(e.get("sid")))
        if rec is None:
            e.update(seed=None, share=None, commitment=None)
        else:
            e.update(revealed(rec["header"], share_in(rec["header"], list(rec["lines"]))))
    return entries


def record_of(db: sqlite3.Connection, entry: dict[str, Any]) -> dict[str, Any]:
    """The draw record of a History entry's session; raises BadArguments (the session has not
    ended, or its record is missing or damaged)."""
    from engine.errors import BadArguments, LegatusError
    from engine.text import Msg
    rec = filed(db, [str(entry.get("sid"))]).get(str(entry.get("sid")))
    if rec is None:
        raise BadArguments(Msg("Game {}: its draws are shown once its session has ended ('end', or 'reveal' "
                               "after the game's own end).", entry["id"]))
    try:
        out = draw_record(rec["header"], list(rec["lines"]))
    except (LegatusError, ValueError, KeyError, TypeError) as e:
        log.exception("the draw record of game %s could not be made", entry["id"])
        raise BadArguments(Msg("Game {}: its draw record could not be made ({}).", entry["id"], str(e)[:80])) from None
    out["history_id"] = entry["id"]
    return out
