"""Caesar! for firmware/: its record (firmware/games.py) and what History keeps of a finished game
(C-12: the state has a ``winner``), the players of an abandoned one, and the statistics against
Auto-Crassus. Imports no screen: the console reads it."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from engine.caesar.views import CaesarGameView
from engine.text import N_, Msg, term
from firmware.games import Entry, GameRecord, Part, Statistic, View, player

AUTO = "Auto-Crassus"


def _expansions(view: CaesarGameView) -> list[str]:
    mods = view.get("position", {}).get("modules", {})
    out = [k for k in ("poison", "centurions", "border_control") if mods.get(k)]
    if view.get("rules", {}).get("harder") not in (None, "off"):
        out.append("harder")
    return out


def _summary(game: str, view: CaesarGameView) -> dict[str, Any]:
    placed = {who: 12 - int(m["left"]) for who, m in view["markers"].items()}
    winner = view.get("winner")
    if view.get("mode") == "solo":
        side = str(view.get("side", "caesar"))
        you = side.capitalize()
        level = str(view.get("difficulty"))
        players = [player(you, placed.get("human", 0), winner == "human", False),
                   player(AUTO, placed.get("crassus", 0), winner == "crassus", True)]
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
        players = [player(n.capitalize(), placed[n], winner == n, i == 0) for i, n in enumerate(names)]
        mode = {"kind": "duel", "expansions": _expansions(view)}
        loser = next((n for n in names if n != winner), names[-1])
        result = Msg("{} won, {}–{} markers.", term(str(winner).capitalize()), placed.get(str(winner), 0),
                     placed.get(loser, 0))
    return {"mode": mode, "players": players, "result": result}


def finished(game: str, view: View, command: str, fields: dict[str, Any]) -> list[Part]:
    return [("game", _summary(game, cast(CaesarGameView, view)))] if view.get("winner") else []          # C-12


def players(game: str, view: View) -> list[str]:
    if view.get("mode") == "solo":
        return [str(view.get("side", "caesar")).capitalize(), AUTO]
    return [n.capitalize() for n in view.get("markers", {})]


def short(entry: Entry) -> str:
    return N_("Caesar! solo") if entry["mode"].get("kind") == "solo" else N_("Caesar! duel")


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


def against_crassus(entries: list[Entry]) -> dict[str, dict[str, Any]]:
    """Your record against Auto-Crassus per difficulty and expansion set — ``wins``, ``losses``,
    ``streak`` (+n wins / -n losses in a row, newest first)."""
    out: dict[str, dict[str, Any]] = {}
    runs: dict[str, list[bool]] = {}
    for e in entries:
        if e["status"] != "finished" or e["game"] not in RECORD.sessions or e["mode"].get("kind") != "solo":
            continue
        exp = "+".join(e["mode"].get("expansions") or []) or "base"
        key = f"{e['mode'].get('difficulty')}/{exp}"
        won = any(p["winner"] and p["name"] != AUTO for p in e["players"])
        row = out.setdefault(key, {"difficulty": e["mode"].get("difficulty"), "expansions": exp, "wins": 0, "losses": 0})
        row["wins" if won else "losses"] += 1
        runs.setdefault(key, []).append(won)
    for key, row in out.items():
        row["streak"] = streak(runs[key])
    return out


def over(view: View, lines: Sequence[str]) -> bool:
    """C-12: a side placed its last control marker or cannot play."""
    return bool(view.get("winner"))


RECORD = GameRecord(
    ident="caesar", label=N_("Caesar!"), sessions=("caesar-solo", "caesar-duel"),
    screens="firmware.screens.caesar.home:open_game", domain="caesar",
    box_name="Caesar! Seize Rome in 20 Minutes", short=short, finished=finished, players=players, over=over,
    statistics=(Statistic("crassus", N_("vs Auto-Crassus"), against_crassus, "firmware.screens.history:crassus_chart"),),
)
