"""History as the statistics read it (``ctx.played``): every recorded game, newest first, light —
no result sentence and no fair draw.

A year of games (4,000) took 35–40 ms here to read (about 0.6 s on a Pi Zero 2 W), nearly all of
it decoding each record; the App reads History again whenever the database may read differently
(:func:`firmware.storage.unchanged_since`: after every action written, too). So a row that reads
exactly as at the last read (every field as SQLite gave it, its checksum column too) keeps the
entry decoded then, unchecked and undecoded again: it passed the same check with the same bytes.
A new or changed row is checked and decoded; one whose checksum fails is left out and logged at
every read, as :func:`firmware.history.games` does.
"""
from __future__ import annotations

import json
import logging
import sqlite3
from typing import TYPE_CHECKING, Any, cast

from firmware.history import HISTORY_ROW, row_crc
from firmware.history_people import with_people

if TYPE_CHECKING:
    from firmware.replies import HistoryPlayer, PlayedEntry

log = logging.getLogger(__name__)

_last: dict[int, tuple[tuple[Any, ...], PlayedEntry]] = {}     # the last read: row id → its raw row that passed, its entry


def played(db: sqlite3.Connection) -> list[PlayedEntry]:
    """Every recorded game as the statistics read it, newest first: ``id``, ``game``, ``status``,
    ``part``, ``sid``, ``finished``, ``mode``, ``players``, ``of`` (a copy's, reopened from Earlier games) (the entries are shared between reads:
    never change them). A row whose checksum fails, or that does not parse, is left out."""
    global _last
    out: list[PlayedEntry] = []
    kept: dict[int, tuple[tuple[Any, ...], PlayedEntry]] = {}
    for row in db.execute(f"SELECT {HISTORY_ROW} FROM history ORDER BY id DESC"):
        last = _last.get(row[0])
        if last is not None and last[0] == row:
            entry = last[1]
        elif (decoded := _decoded(row)) is not None:
            entry = decoded
        else:
            continue
        kept[row[0]] = (row, entry)
        out.append(entry)
    _last = kept
    return out


def _decoded(row: tuple[Any, ...]) -> PlayedEntry | None:
    rid, sid, part, game, depth, sealed, text, check = row
    if row_crc(rid, sid, part, game, depth, sealed, text) != check:
        log.error("History row %s is damaged; left out", rid)
        return None
    try:
        game_s = bytes(game).decode("utf-8")
        data = json.loads(bytes(text).decode("utf-8"))
        entry: PlayedEntry = {
            "id": rid, "game": game_s, "status": data["status"], "part": bytes(part).decode("utf-8"),
            "sid": bytes(sid).decode("utf-8"), "finished": data.get("finished"), "mode": data["mode"],
            "players": cast("list[HistoryPlayer]", with_people(game_s, {}, list(data["players"])))}
        if data.get("of"):                  # (a copy's: firmware/history_joined.py)
            entry["of"] = str(data["of"])
        return entry
    except (ValueError, KeyError, TypeError, RecursionError) as e:
        log.error("History row %s does not parse: %s", rid, e)
        return None
