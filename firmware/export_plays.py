"""Which play a History entry is part of (one play per game played: a Julius Caesar session's
battles and verdict, a game reopened from Earlier games and played on in copies) and its
``sourcePlayId``, for :mod:`firmware.export`."""
from __future__ import annotations

import datetime as _dt
import json
import logging
import sqlite3
from collections.abc import Mapping
from typing import Any

from firmware import fairness, history
from firmware.export_dates import utc

log = logging.getLogger(__name__)

def play_id(entry: dict[str, Any]) -> str:
    """The play's ``sourcePlayId``: the game's own id — its session's (64 random bits) and which
    of the session's games it is (``game``, ``battle-2``, ``ended`` …) —, by which BG Stats updates
    the same play at the next push and never takes another card's or device's game for it (the
    History row number starts at 1 on every card). An entry read without its session (no ``sid``:
    test data) has its row number."""
    sid, part = entry.get("sid"), entry.get("part")
    return f"{sid}-{part}" if sid and part else str(entry["id"])


def is_tool(entry: Mapping[str, Any]) -> bool:
    """Whether a History entry is a dice or bag session (a tool History records only when ended):
    no game, so no play for BG Stats — the format needs a board game, and the device does not know
    which game those dice or that bag served; a play named «Dice» with no players would count as a
    game played in the player's statistics. The CSV (History's sheet) lists it."""
    from firmware.games import record_of
    record = record_of(str(entry["game"]))
    return record is not None and not record.recorded


def play_of(entry: dict[str, Any], parts: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """The History entry that BG Stats gets as the play ``entry`` is part of, and that play's
    ``sourcePlayId``: one play per game played. A Julius Caesar session keeps each battle that
    ends (J-13) and the campaign's verdict (J-17) as entries of their own, but the players played
    one game: its play is the campaign's record once it is over (its verdict and victory points;
    its play time the whole session's, which holds its battles'), else — a session of one battle
    (ended then or not) — that battle, else the record of the game the players ended early (no
    winner), else (a session of several battles going on, or left for another game) the game so
    far (:func:`_so_far`). Its id is the one its first battle was pushed with (``<sid>-battle-1``),
    so a play pushed while the campaign went on is updated by the campaign's, never counted beside
    it (BG Stats counted each battle as a game of its own, their minutes twice beside the
    campaign's). A game reopened from History's Earlier games and played on in a copy is the same
    game: ``parts`` (every entry of ``entry``'s game, :func:`session_parts`) holds the first
    session's battles and the copy's, and the play keeps the first session's id (the verdict of
    the newest copy that reached one). Any other game reopened and played on: :func:`_whole_game`."""
    from firmware.games import record_of
    record = record_of(str(entry["game"]))
    parted = record.parted if record is not None else None
    fought = sorted((e for e in parts if parted is not None and parted(str(e["part"])) and e["status"] == "finished"),
                    key=lambda e: int(e["id"]))
    if not fought or not entry.get("sid"):
        return _whole_game(entry, parts)
    ident = f"{fought[0]['sid']}-{fought[0]['part']}"        # (a copy's: its first session's battle 1)
    battles = sorted({str(e["part"]): e for e in fought}.values(), key=lambda e: int(e["id"]))  # (a battle two
    #                                                   copies fought on from one point: the newest record of it)
    whole = sorted((e for e in parts if parted is not None and not parted(str(e["part"])) and e["status"] != "abandoned"),
                   key=lambda e: int(e["id"]))      # (not the first session's, left before a battle ended)
    verdict = next((e for e in reversed(whole) if e["status"] == "finished"), None)
    if verdict is not None:
        return _dated_from(verdict, fought[0]), ident
    if len(battles) == 1:
        return battles[0], ident
    if whole:
        return _dated_from(whole[-1], fought[0]), ident
    return _so_far(battles), ident


def _whole_game(entry: dict[str, Any], parts: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """The play of a game whose records are ``parts``: ``entry``'s own, or — a game left for
    another (``abandoned``), reopened from Earlier games and played on in a copy, each session
    with a record of its own — one play: the newest record that finished it (else that the
    players ended, else the newest left), dated from the game's start, under the id of its first
    record (the play pushed first, an abandoned one too, is updated, never counted beside it)."""
    if len(parts) < 2 or not entry.get("sid"):
        return entry, play_id(entry)
    ordered = sorted(parts, key=lambda e: int(e["id"]))
    pick = next((e for e in reversed(ordered) if e["status"] == "finished"), None) or next(
        (e for e in reversed(ordered) if e["status"] == "ended"), None) or ordered[-1]
    return _dated_from(pick, ordered[0]), play_id(ordered[0])


def _begun(first: dict[str, Any]) -> str | None:
    """When a game began, as History dates its first record (a Julius Caesar game's first battle):
    its start, or its finish less its play time (a record with no start)."""
    begun, first_end = first.get("started"), utc(first.get("finished"))
    if begun is None and first_end is not None and isinstance(first.get("minutes"), int):
        begun = (first_end - _dt.timedelta(minutes=first["minutes"])).isoformat()
    return begun


def _dated_from(whole: dict[str, Any], first: dict[str, Any]) -> dict[str, Any]:
    """The record of a whole game (its verdict, or the players' end) dated from the game's first
    record ``first`` (a Julius Caesar game's first battle) when a copy reopened from Earlier games
    made it: the copy's session began
    when it was reopened (another evening), the game when its first session did — the play pushed
    then keeps its day, and its play time holds both sessions' (firmware/play_time.py ``carry``)."""
    if whole.get("sid") == first.get("sid"):
        return whole
    unsure = "started" in (first.get("unsynced") or ())
    return {**whole, "started": _begun(first), "span": None,
            "unsynced": [k for k in whole.get("unsynced") or () if k != "started"] + (["started"] if unsure else [])}


def _so_far(battles: list[dict[str, Any]]) -> dict[str, Any]:
    """A Julius Caesar game of several battles with no record of the whole game (going on, or left
    for another game) as its play so far: its people and sides, no score and no winner (its
    campaign has no verdict), begun with its first battle (dated as History dates it: its start, or
    its finish less its play time), its play time the battles' (the
    campaign between them is in no record: at least that long), ``status`` ``ended`` (no result)."""
    from firmware.history_text import Msg
    first, last = battles[0], battles[-1]
    minutes = [e.get("minutes") for e in battles]
    unsynced = [k for k, e in (("started", first), ("finished", last)) if k in (e.get("unsynced") or ())]
    begun = _begun(first)                           # (battle 1 as History dates it)
    return {**last, "status": "ended", "started": begun, "mode": {"kind": "ended"},
            "players": [{**p, "score": None, "winner": False, "rank": None} for p in first["players"]],
            "result": Msg("{n} battle fought; the game has no result yet.",
                          plural="{n} battles fought; the game has no result yet.", n=len(battles)),
            "minutes": sum(m for m in minutes if isinstance(m, int)) if all(isinstance(m, int) for m in minutes)
            else None, "unsynced": unsynced, "span": None}


def session_parts(db: sqlite3.Connection, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """Every History entry of ``entry``'s game (a Julius Caesar campaign's battles and its
    verdict), with their fair draws; just ``entry`` for a tool's. A game reopened from Earlier
    games goes on in a copy (a new session): the entries of the session it was first played in
    and of every copy of it (their records' ``of``: that session's ``sid``)."""
    from firmware.games import record_of
    record = record_of(str(entry["game"]))
    if record is None or not record.recorded or not entry.get("sid"):
        return [entry]
    first, copies = _copies(db, str(entry["sid"]), entry.get("of"))
    marks = ", ".join("?" * (len(copies) + 2))
    rows = db.execute(f"SELECT {history.HISTORY_ROW} FROM history WHERE game=? AND (CAST(sid AS TEXT) IN ({marks}) OR "
                      "instr(CAST(record AS BLOB), ?) > 0) ORDER BY id",
                      (str(entry["game"]), first, str(entry["sid"]), *copies,
                       json.dumps({"of": first}, ensure_ascii=False)[1:-1].encode())).fetchall()
    return fairness.attach(db, [e for row in rows if (e := history._entry(row)) is not None])


def _copies(db: sqlite3.Connection, sid: str, of: Any) -> tuple[str, list[str]]:
    """The session a game was first played in and the sessions of its copies reopened from Earlier
    games, as their headers say (``copy_of``): History's records of a copy name that session
    (``of``), but not those a Legatus from before that kept. A header whose row fails its checksum
    is left out (its session's records then stay a game of their own)."""
    from firmware.history_joined import headers
    try:
        first = str(of) if of else next((str(h["copy_of"]) for h in headers(db, json.dumps(sid))
                                         if h.get("sid") == sid and h.get("copy_of")), sid)
        copies = [str(h["sid"]) for h in headers(db, json.dumps({"copy_of": first})[1:-1])
                  if h.get("copy_of") == first and h.get("sid")]
    except sqlite3.Error as e:          # (no sessions table: History read alone)
        log.warning("the copies of game %s cannot be read: %s", sid, e)
        return str(of or sid), []
    return first, copies


def copies_dated(db: sqlite3.Connection, entries: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """By History id, each record of a whole game that a copy reopened from Earlier games made
    (its ``of``; a Julius Caesar battle is dated as its own), dated from the game's first record
    as its BG Stats play is (:func:`_dated_from`): the copy's session began when it was reopened,
    and its play time holds both sessions'. (A copy's record written before records named the
    first session, no ``of``: the copy's header says it, as for its play: :func:`_copies`.)"""
    from firmware.games import record_of
    from firmware.history_joined import firsts
    out: dict[int, dict[str, Any]] = {}
    copied = firsts(db) if any(not e.get("of") and e.get("sid") for e in entries) else {}
    for e in entries:
        record = record_of(str(e["game"]))
        if not (e.get("of") or copied.get(str(e.get("sid") or ""))) or record is None or (
                record.parted is not None and record.parted(str(e["part"]))):
            continue
        first = min(session_parts(db, e), key=lambda x: int(x["id"]))
        out[int(e["id"])] = _dated_from(e, first)
    return out


def sure_after(db: sqlite3.Connection, parts: list[dict[str, Any]]) -> str | None:
    """The earliest time Legatus took with its clock set after the game whose records are
    ``parts`` (UTC ISO): the game was played before it. For a play with no date of its own (every
    time of it taken with a clock nothing had set: 1970, a fresh card's image date) BG Stats
    needs one (``playDate`` is required): the first History record newer than every record of
    the game (``parts``: :func:`session_parts`, so of later games) that holds such a time gives it
    (a true time, and the same at every export once there) — not a record written again after
    damage under a new id (:func:`_moved`: its id is newer than its times) —, else the time of the export itself
    when the clock is set now; None when neither is (nothing true to give)."""
    from firmware.export_dates import local
    last = max(int(e["id"]) for e in parts)
    moved = _moved(db)
    for row in db.execute(f"SELECT {history.HISTORY_ROW} FROM history WHERE id > ? ORDER BY id", (last,)):
        if (e := history._entry(row)) is None or (e["sid"], e["part"]) in moved:
            continue
        sure = [t for k in ("started", "finished") if k not in (e.get("unsynced") or ())
                and local(t := e.get(k)) is not None]
        if sure:
            return min(sure, key=lambda t: utc(t) or _dt.datetime.max.replace(tzinfo=_dt.timezone.utc))
    if history._clock_unsynced():
        return None
    return history._now()


def _moved(db: sqlite3.Connection) -> set[tuple[str, str]]:
    """The History records (``sid``, ``part``) that damage took and the start wrote again under
    another id than their own (firmware/history_rebuild.py ``rebuild``: their old id did not read,
    or a game recorded since holds it — the card refused the rebuild at one start, the next did
    it): a new id, newer than the games recorded since, with the old game's times. Their place in
    History's order says nothing of when they were played (a game played before the clock was
    set got «played before» the time of a game it followed). The damaged rows' bytes (``damaged``)
    name them; none when those cannot be read (logged)."""
    from firmware.history_rebuild import Lost, named
    try:
        raws = [bytes(r[0]) for r in db.execute("SELECT CAST(data AS BLOB) FROM damaged WHERE what='history'")]
        if not raws:
            return set()
        ids = {(str(sid), str(part)): int(rid) for rid, sid, part in db.execute(
            "SELECT id, CAST(sid AS TEXT), CAST(part AS TEXT) FROM history")}
    except sqlite3.Error as e:               # (no such table: History read alone)
        log.warning("the History rows written again cannot be read: %s", e)
        return set()
    lost = named(named([Lost.of(raw) for raw in raws], "sid", {s for s, _ in ids}), "part", {p for _, p in ids})
    return {(str(x.sid), str(x.part)) for x in lost
            if (now := ids.get((str(x.sid), str(x.part)))) is not None and now != x.rid}

