"""``history [N]`` and ``export format=bgstats|csv|draws [id=…]`` (PROTOCOL.md, "Added in version 1",
"third round").

``bgstats``: one play in the BG Stats push shape — ``sourceName``, ``game`` (``name``, ``bggId``
where known, ``sourceGameId``), ``players`` (``name``, ``score``, ``winner``, ``startPlayer``) and
``playDate`` (``YYYY-MM-DD HH:MM:SS``, UTC). No BoardGameGeek id is guessed: ``bggId`` is left out
until one is verified (``BGG_IDS``). ``csv``: a header line and one row per player per game.
``draws``: the game's draw record (docs/fairness.md), which scripts/verify_draws.py checks.

An ended game's entry carries its ``seed``, ``share`` and ``commitment`` (bgstats: ``fairDraw``;
csv: the last three columns); a game whose session has not ended carries none of them (null, or
empty cells), and its draw record is refused.
"""
from __future__ import annotations

import csv
import io
import json
import sqlite3
from typing import Any

from engine.errors import BadArguments
from engine.game import Request
from engine.text import Msg
from firmware import fairness, history

BGG_IDS: dict[str, int] = {}          # game -> verified BoardGameGeek id (none verified yet)
CSV_FIELDS = ("id", "game", "name", "status", "started", "finished", "mode", "player", "score", "winner",
              "start_player", "result", "seed", "share", "commitment")
FORMATS = ("bgstats", "csv", "draws")


def _play_date(entry: dict[str, Any]) -> str:
    when = entry.get("finished") or entry.get("started") or ""
    return when.replace("T", " ").rstrip("Z")[:19]


def bgstats_play(entry: dict[str, Any]) -> dict[str, Any]:
    """One history entry as a BG Stats play object."""
    from firmware.i18n import say
    game: dict[str, Any] = {"name": entry["name"], "sourceGameId": entry["game"]}
    if entry["game"] in BGG_IDS:
        game["bggId"] = BGG_IDS[entry["game"]]
    players = [{"name": p["name"], "score": p.get("score"), "winner": bool(p.get("winner")),
                "startPlayer": bool(p.get("startPlayer"))} for p in entry["players"]]
    play = {"sourceName": "Legatus", "game": game, "players": players, "playDate": _play_date(entry),
            "ignored": entry["status"] == "abandoned" or history.is_tool(entry["game"]),   # a bag is not a play
            "comments": say(entry["result"]),
            "sourcePlayId": str(entry["id"])}
    if entry.get("seed") is not None:
        play["fairDraw"] = {k: entry.get(k) for k in ("seed", "share", "commitment")}
    return play


def _mode_text(mode: dict[str, Any]) -> str:
    parts = []
    for k, v in mode.items():
        if isinstance(v, list):
            v = "+".join(map(str, v)) or "-"
        if v is None or v is False:
            continue
        parts.append(str(v) if k == "kind" else f"{k}={v}")
    return " ".join(parts)


def csv_text(entries: list[dict[str, Any]]) -> str:
    from firmware.i18n import say
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for e in entries:
        for p in e["players"] or [{"name": ""}]:          # a bag or dice session has no players
            w.writerow([e["id"], e["game"], e["name"], e["status"], e.get("started") or "", e.get("finished") or "",
                        _mode_text(e["mode"]), p["name"], "" if p.get("score") is None else p["score"],
                        int(bool(p.get("winner"))), int(bool(p.get("startPlayer"))), say(e["result"]),
                        *("" if e.get(k) is None else e[k] for k in ("seed", "share", "commitment"))])
    return buf.getvalue()


MAX_ID = 2**63 - 1             # SQLite's largest row id
MAX_LISTED = 100_000           # history N: more than any device holds


def _id(req: Request) -> int | None:
    raw = req.opts.get("id")
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise BadArguments(Msg("id= needs a history id (a whole number), not '{}'.", raw[:24])) from None
    if not 1 <= value <= MAX_ID:
        raise BadArguments(Msg("id= needs a history id from 1 to {}, not {}.", MAX_ID, raw[:24]))
    return value


def command(db: sqlite3.Connection, name: str, req: Request) -> dict[str, Any]:
    """The ``history`` and ``export`` builtins (they need no session)."""
    if name == "history":
        if req.opts or len(req.args) > 1:
            raise BadArguments(Msg("Usage: history [N]."))
        n = 20
        if req.args:
            try:
                n = int(req.args[0])
            except ValueError:
                raise BadArguments(Msg("Usage: history [N]; '{}' is not a number.", req.args[0][:24])) from None
            if n < 1:
                raise BadArguments(Msg("history N needs N ≥ 1."))
            if n > MAX_LISTED:
                raise BadArguments(Msg("history N lists at most {} games, not {}.", MAX_LISTED, req.args[0][:24]))
        return {"games": [history.public(e) for e in fairness.attach(db, history.games(db, n))]}
    unknown = set(req.opts) - {"format", "id"}
    fmt = req.opts.get("format")
    if req.args or unknown or fmt not in FORMATS:
        raise BadArguments(Msg("Usage: export format=bgstats|csv|draws [id=<history id>]."))
    gid = _id(req)
    if gid is not None:
        entries = history.games(db, None, gid)
        if not entries:
            raise BadArguments(Msg("No game {} in the history; 'history' lists them.", gid))
    else:
        entries = history.games(db, None if fmt == "csv" else 1)
        if not entries and fmt != "csv":
            raise BadArguments(Msg("The history is empty: no game has finished yet."))
    entries = fairness.attach(db, entries)
    if fmt == "csv":
        return {"format": "csv", "text": csv_text(entries)}
    if fmt == "draws":
        record = fairness.record_of(db, entries[0])
        return {"format": "draws", "record": record, "text": json.dumps(record, ensure_ascii=False)}
    play = bgstats_play(entries[0])
    return {"format": "bgstats", "play": play, "text": json.dumps(play, ensure_ascii=False)}
