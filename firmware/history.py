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

from engine.text import Msg, N_, from_data, term, to_data

SCHEMA = """
CREATE TABLE IF NOT EXISTS history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE IF NOT EXISTS history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL);
"""
AUTO = "Auto-Crassus"
TOOLS = ("bag", "dice")
# The games' names as BG Stats and BoardGameGeek know them (kept in English in exports).
GAME_NAMES = {"caesar-solo": "Caesar! Seize Rome in 20 Minutes", "caesar-duel": "Caesar! Seize Rome in 20 Minutes",
              "jc-battle": "Julius Caesar", "glory": "For the Glory of Rome", "sword": "The Sword of Rome"}
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


# -- what a finished game looks like -------------------------------------------------------------
def _player(name: str, score: Any, winner: bool, start: bool = False) -> dict[str, Any]:
    return {"name": name, "score": score, "winner": bool(winner), "startPlayer": bool(start)}


def _expansions(view: dict[str, Any]) -> list[str]:
    mods = view.get("position", {}).get("modules", {})
    out = [k for k in ("poison", "centurions", "border_control") if mods.get(k)]
    if view.get("rules", {}).get("harder") not in (None, "off"):
        out.append("harder")
    return out


def _caesar(game: str, view: dict[str, Any]) -> dict[str, Any]:
    placed = {who: 12 - int(m["left"]) for who, m in view["markers"].items()}
    winner = view.get("winner")
    if game == "caesar-solo":
        side = str(view.get("side", "caesar"))
        you = side.capitalize()
        level = str(view.get("difficulty"))
        players = [_player(you, placed.get("human", 0), winner == "human", False),
                   _player(AUTO, placed.get("crassus", 0), winner == "crassus", True)]
        mode = {"kind": "solo", "difficulty": level, "side": side,
                "crassus_side": "pompey" if side == "caesar" else "caesar", "expansions": _expansions(view)}
        if winner == "human":
            result = Msg("{} beat Auto-Crassus ({}), {}–{} markers.", term(you), term(level),
                         placed.get("human", 0), placed.get("crassus", 0))
        else:
            result = Msg("Auto-Crassus ({}) beat {}, {}–{} markers.", term(level), term(you),
                         placed.get("crassus", 0), placed.get("human", 0))
    else:
        names = list(view["markers"])
        players = [_player(n.capitalize(), placed[n], winner == n, i == 0) for i, n in enumerate(names)]
        mode = {"kind": "duel", "expansions": _expansions(view)}
        loser = next((n for n in names if n != winner), names[-1])
        result = Msg("{} won, {}–{} markers.", term(str(winner).capitalize()), placed.get(str(winner), 0),
                     placed.get(loser, 0))
    return {"mode": mode, "players": players, "result": result}


def _jc_battle(view: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    battle = view["battle"]
    steps: dict[str, Any] = {"caesar": None, "pompey": None}
    if battle["number"] == entry["number"]:           # the blocks left standing (steps)
        steps = {"caesar": 0, "pompey": 0}
        for b in battle["blocks"]:
            steps[b["side"]] = steps.get(b["side"], 0) + int(b["strength"])
    winner = entry.get("winner")
    att = str(entry["attacker"])
    players = [_player(s.capitalize(), steps.get(s), winner == s, s == att) for s in ("caesar", "pompey")]
    mode = {"kind": "battle", "number": entry["number"], "attacker": att, "surprise": bool(entry.get("surprise")),
            "winner_role": None if winner is None else ("attacker" if winner == att else "defender")}
    res = entry.get("result")
    if res == "attacker_wins":
        result = Msg("Battle {}: {} attacked and won.", entry["number"], term(att.capitalize()))
    elif res == "attacker_eliminated":
        result = Msg("Battle {}: {} attacked and was destroyed.", entry["number"], term(att.capitalize()))
    else:
        result = Msg("Battle {}: {} attacked; the defender held.", entry["number"], term(att.capitalize()))
    return {"mode": mode, "players": players, "result": result}


def _jc_campaign(view: dict[str, Any]) -> dict[str, Any]:
    over = view["campaign"]["over"] or {}
    vp = view.get("vp", {})
    winner = over.get("winner") if isinstance(over, dict) else None
    players = [_player(s.capitalize(), vp.get(s), winner == s, s == "caesar") for s in ("caesar", "pompey")]
    result = (Msg("Campaign over: {} wins, {}–{} VP.", term(str(winner).capitalize()), vp.get(winner, 0),
                  max((v for k, v in vp.items() if k != winner), default=0))
              if winner else Msg("Campaign over: a draw."))
    return {"mode": {"kind": "campaign", "year": view["campaign"]["year"]}, "players": players, "result": result}


def _glory(view: dict[str, Any], scored: dict[str, Any]) -> dict[str, Any]:
    scores = scored["scores"]
    winners = [str(w) for w in scored.get("winners", [])]
    first = view.get("first")
    players = [_player(p, int(scores[p]["total"]), p in winners, p == first) for p in view["players"] if p in scores]
    best = max((int(pl["score"]) for pl in players), default=0)
    opts = [k for k, v in view.get("options", {}).items() if v]
    mode = {"kind": "table", "players": len(players), "expansions": opts}
    return {"mode": mode, "players": players,
            "result": Msg("{} won with {} points.", ", ".join(winners) or "—", best)}


def _sword(view: dict[str, Any], auto: str | None) -> dict[str, Any]:
    order = list(view.get("standings") or view["factions"])
    vp = view.get("vp", {})
    winner = auto or order[0]
    players = [_player(f.capitalize(), vp.get(f), f == winner, i == 0) for i, f in enumerate(view["factions"])]
    mode = {"kind": "table", "powers": len(players), "turn": view.get("turn")}
    result = (Msg("{} won by automatic victory in turn {}.", term(winner.capitalize()), view.get("turn"))
              if auto else Msg("{} won on VP after turn 9.", term(winner.capitalize())))
    return {"mode": mode, "players": players, "result": result}


def finished_parts(game: str, view: dict[str, Any], *, command: str = "",
                   fields: dict[str, Any] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The finished games this state holds, as ``(part, record)`` (without dates and ids).
    ``command``/``fields``: the action just run (Glory's ``score``, Sword's automatic victory)."""
    fields = fields or {}
    out: list[tuple[str, dict[str, Any]]] = []
    if game in ("caesar-solo", "caesar-duel"):
        if view.get("winner"):                                                  # C-12
            out.append(("game", _caesar(game, view)))
    elif game == "jc-battle":
        for entry in view.get("history", []):                                  # J-13
            out.append((f"battle-{entry['number']}", _jc_battle(view, entry)))
        if view.get("campaign", {}).get("over"):
            out.append(("campaign", _jc_campaign(view)))
    elif game == "glory":
        if view.get("finished") and command == "score" and "scores" in fields:
            out.append(("game", _glory(view, fields)))
    elif game == "sword":
        if command == "scoring" and fields.get("automatic_victory") and fields.get("power"):
            out.append(("game", _sword(view, str(fields["power"]))))
        elif view.get("finished"):
            out.append(("game", _sword(view, None)))
    return out


def _sword_auto_again(view: dict[str, Any], line: str) -> tuple[str, dict[str, Any] | None]:
    """Reconciling: whether the last action was ``scoring <power> … auto=T`` that reached T
    (the state keeps no mark of an automatic victory, so it is worked out again)."""
    words = line.split()
    if len(words) < 2 or words[0] != "scoring":
        return "", None
    opts = dict(w.split("=", 1) for w in words[2:] if "=" in w)
    power = words[1].lower()
    try:
        auto = int(opts["auto"])
    except (KeyError, ValueError):
        return "", None
    vp = dict(view.get("vp", {}))
    if power == "carthage" and isinstance(view.get("unrest"), dict):
        vp[power] = view["unrest"].get("carthage_vp", vp.get(power))
    if power in vp and int(vp[power]) >= auto:
        return "scoring", {"automatic_victory": True, "power": power}
    return "", None


# -- storing ---------------------------------------------------------------------------------------
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
    if game in TOOLS:
        return []
    view = session.game.view(session.state)
    if game == "sword" and not command and session.lines:
        command, fields = _sword_auto_again(view, session.lines[-1])
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
    if session.game.name in TOOLS:
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
    if session.game.name in TOOLS:
        return
    with store.transaction() as db:
        ensure(db)
        db.execute("DELETE FROM history WHERE sid=? AND sealed=0 AND part!='abandoned' AND depth>?",
                   (str(session.header["sid"]), len(session.lines)))


def note_started(store: Any, session: Any) -> None:
    """When ``new`` began ``session``: its start time (history is not session state)."""
    if session.game.name in TOOLS:
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
    if session is None or session.game.name in TOOLS:
        return False
    record_state(store, session)
    sid = str(session.header["sid"])
    with store.transaction() as db:
        ensure(db)
        if db.execute("SELECT 1 FROM history WHERE sid=?", (sid,)).fetchone():
            return False
        names = _names_of(session.game.name, session.game.view(session.state))
        rec = {"mode": {"kind": "abandoned"}, "players": [_player(n, None, False) for n in names],
               "result": Msg("Abandoned after {} actions.", len(session.lines))}
        _put(db, session.header, "abandoned", rec, len(session.lines), "abandoned", session.lines)
    return True


def forget_abandoned(store: Any, session: Any) -> None:
    """Take back :func:`record_abandoned` when the ``new`` that would replace the session failed."""
    with store.transaction() as db:
        db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (str(session.header["sid"]),))


def _names_of(game: str, view: dict[str, Any]) -> list[str]:
    if game == "caesar-solo":
        return [str(view.get("side", "caesar")).capitalize(), AUTO]
    if game == "caesar-duel":
        return [n.capitalize() for n in view.get("markers", {})]
    if game == "glory":
        return [str(p) for p in view.get("players", [])]
    if game == "sword":
        return [f.capitalize() for f in view.get("factions", [])]
    if game == "jc-battle":
        return ["Caesar", "Pompey"]
    return []


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
        out.append({"id": rid, "game": game, "name": GAME_NAMES.get(game, game), "status": data["status"],
                    "started": data.get("started"), "finished": data.get("finished"), "mode": data["mode"],
                    "players": data["players"], "result": result, "part": part})
    return out


def public(entry: dict[str, Any]) -> dict[str, Any]:
    """What ``history`` answers for one game."""
    return {k: entry[k] for k in ("id", "game", "name", "status", "started", "finished", "mode", "players",
                                  "result")}


# -- statistics ------------------------------------------------------------------------------------
def streak(results: list[bool]) -> int:
    """Newest first: +n for n wins in a row, -n for n losses in a row, 0 if none."""
    if not results:
        return 0
    n = 0
    for r in results:
        if r != results[0]:
            break
        n += 1
    return n if results[0] else -n


def stats(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """What the Statistics screens show, from history entries (newest first):

    - ``crassus``: your record against Auto-Crassus per difficulty and expansion set — ``wins``,
      ``losses``, ``streak`` (+n wins / -n losses in a row, newest first);
    - ``glory``: per player name ``games``, ``best``, ``average`` (one decimal);
    - ``jc``: per side ``attacker_won``/``attacker_fought``, ``defender_won``/``defender_fought``."""
    crassus: dict[str, dict[str, Any]] = {}
    runs: dict[str, list[bool]] = {}
    glory: dict[str, list[int]] = {}
    jc = {s: {"attacker_won": 0, "attacker_fought": 0, "defender_won": 0, "defender_fought": 0}
          for s in ("caesar", "pompey")}
    for e in entries:
        if e["status"] != "finished":
            continue
        if e["game"] == "caesar-solo":
            exp = "+".join(e["mode"].get("expansions") or []) or "base"
            key = f"{e['mode'].get('difficulty')}/{exp}"
            won = any(p["winner"] and p["name"] != AUTO for p in e["players"])
            row = crassus.setdefault(key, {"difficulty": e["mode"].get("difficulty"), "expansions": exp,
                                           "wins": 0, "losses": 0})
            row["wins" if won else "losses"] += 1
            runs.setdefault(key, []).append(won)
        elif e["game"] == "glory":
            for p in e["players"]:
                if isinstance(p.get("score"), int):
                    glory.setdefault(p["name"], []).append(int(p["score"]))
        elif e["game"] == "jc-battle" and e["mode"].get("kind") == "battle":
            att = str(e["mode"].get("attacker"))
            if att not in jc:
                continue
            dfd = "pompey" if att == "caesar" else "caesar"
            jc[att]["attacker_fought"] += 1
            jc[dfd]["defender_fought"] += 1
            role = e["mode"].get("winner_role")
            if role == "attacker":
                jc[att]["attacker_won"] += 1
            elif role == "defender":
                jc[dfd]["defender_won"] += 1
    for key, row in crassus.items():
        row["streak"] = streak(runs[key])
    return {"crassus": crassus,
            "glory": {n: {"games": len(v), "best": max(v), "average": round(sum(v) / len(v), 1)}
                      for n, v in sorted(glory.items())},
            "jc": jc}


def recorded(db: sqlite3.Connection, sid: str) -> bool:
    """Whether the session ``sid`` has a finished game (any part but ``abandoned``) in the history."""
    row = db.execute("SELECT 1 FROM history WHERE sid=? AND part!='abandoned' LIMIT 1", (sid,)).fetchone()
    return row is not None
