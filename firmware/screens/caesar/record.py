"""Caesar! for firmware/: its record (firmware/games.py) and what History keeps of a finished game
(C-12: the state has a ``winner``), the players of an abandoned one, and the statistics against
Auto-Crassus. Imports no screen: the console reads it."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict, cast

from engine.caesar.text import N_, Msg, term
from firmware.games import Entry, GameRecord, Part, Statistic, View, player
from firmware.replies import HistoryEntry

if TYPE_CHECKING:                   # (typing only: the console loads every record at start)
    from engine.caesar.views import CaesarGameView

AUTO = N_("Auto-Crassus")
SOLO, DUEL = "caesar-solo", "caesar-duel"                         # the sessions this record files
SIDE_NAMES = {"caesar": "Caesar", "pompey": "Pompey"}          # as History stores them (BG Stats)
NAME_WORDS = {"Caesar": N_("Caesar"), "Pompey": N_("Pompey"), AUTO: N_("Auto-Crassus")}
# The expansions by the rulebooks' names: RU «Яды» (the bonus is «Яд»), UA «Отрута».
POISON_MODULE = N_("Poison expansion")
MODULE_WORDS = {"poison": POISON_MODULE, "centurions": N_("Centurions"), "border_control": N_("Border control"),
                "harder": N_("Harder")}
# History's result of a finished game: one whole sentence per side and winner (the names declined
# as each language needs), the control markers placed in one order everywhere (you or Caesar first).
WON = {"caesar": N_("Caesar beat Auto-Crassus ({level}); control markers placed: Caesar {a}, Auto-Crassus {b}."),
       "pompey": N_("Pompey beat Auto-Crassus ({level}); control markers placed: Pompey {a}, Auto-Crassus {b}.")}
LOST = {"caesar": N_("Auto-Crassus ({level}) beat Caesar; control markers placed: Caesar {a}, Auto-Crassus {b}."),
        "pompey": N_("Auto-Crassus ({level}) beat Pompey; control markers placed: Pompey {a}, Auto-Crassus {b}.")}
DUEL_WON = {"caesar": N_("Caesar won; control markers placed: Caesar {a}, Pompey {b}."),
            "pompey": N_("Pompey won; control markers placed: Caesar {a}, Pompey {b}.")}
# The sentences History kept before (still said for the records that hold them).
EARLIER = (N_("{} beat Auto-Crassus ({}), {}–{} markers."), N_("Auto-Crassus ({}) beat {}, {}–{} markers."),
           N_("{} won, {}–{} markers."))


def _expansions(view: CaesarGameView) -> list[str]:
    mods = view.get("position", {}).get("modules", {})
    out = [k for k in ("poison", "centurions", "border_control") if mods.get(k)]
    if view.get("rules", {}).get("harder") not in (None, "off"):
        out.append("harder")
    return out


def _result(kind: str, side: str, winner: str, level: str, a: int, b: int) -> Msg:
    """The result sentence (``side``: yours in solo; ``winner``: human/crassus, or caesar/pompey)."""
    if kind == "solo":
        text = (WON if winner == "human" else LOST)[side if side in WON else "caesar"]
        return Msg(text, level=term(level), a=a, b=b)
    return Msg(DUEL_WON[winner if winner in DUEL_WON else "caesar"], a=a, b=b)


def _summary(game: str, view: CaesarGameView) -> dict[str, Any]:
    # C-12: markers on the board and under Senate tokens; not those the harder game removed (S-8)
    placed = {who: 12 - int(m["left"]) - int(m.get("removed", 0)) for who, m in view["markers"].items()}
    winner = str(view.get("winner"))
    edition = view.get("rules", {}).get("edition")
    if view.get("mode") == "solo":
        side = str(view.get("side", "caesar"))
        you = SIDE_NAMES.get(side, side.capitalize())
        level = str(view.get("difficulty"))
        players = [player(you, placed.get("human", 0), winner == "human", False),
                   player(AUTO, placed.get("crassus", 0), winner == "crassus", True)]
        mode = {"kind": "solo", "difficulty": level, "side": side,
                "crassus_side": "pompey" if side == "caesar" else "caesar", "expansions": _expansions(view)}
        result = _result("solo", side, winner, level, placed.get("human", 0), placed.get("crassus", 0))
    else:
        names = list(view["markers"])
        players = [player(SIDE_NAMES.get(n, n.capitalize()), placed[n], winner == n, i == 0)
                   for i, n in enumerate(names)]
        mode = {"kind": "duel", "expansions": _expansions(view)}
        result = _result("duel", "", winner, "", placed.get(names[0], 0), placed.get(names[1], 0))
    if edition:
        mode["edition"] = edition
    return {"mode": mode, "players": players, "result": result}


def expansions_said(keys: list[str] | str) -> str:
    """Modules as the player reads them (``poison+border_control`` → «Яды, Контроль границ»)."""
    from firmware.screens.caesar.text import _
    names = keys.split("+") if isinstance(keys, str) else keys
    return ", ".join(_(MODULE_WORDS[k]) if k in MODULE_WORDS else k for k in names if k)


def shown(entry: HistoryEntry) -> HistoryEntry:
    """A History entry in the player's words: the result said again from what the record holds
    (so that every record, older ones too, reads with the words and cases of today), the players'
    names, the modules and the rules edition (C-12; issue 23 §3)."""
    from firmware.screens.caesar.text import _, say
    out = entry.copy()
    mode = entry["mode"].copy()
    kind = mode.get("kind")
    players = list(entry["players"])
    if kind in ("solo", "duel") and len(players) == 2:
        won = next((i for i, p in enumerate(players) if p.get("winner")), None)     # in the stored order
        score = [int(p.get("score") or 0) for p in players]
        if kind == "solo" and won is not None:
            side = str(mode.get("side", "caesar"))
            crassus_won = players[won].get("name") == AUTO
            out["result"] = _result("solo", side, "crassus" if crassus_won else "human",
                                    str(mode.get("difficulty", "")), score[0], score[1])
        elif won is not None:                                                       # Caesar, then Pompey
            out["result"] = _result("duel", "", ("caesar", "pompey")[won], "", score[0], score[1])
    out["players"] = [{**p, "name": _(NAME_WORDS[p["name"]]) if p.get("name") in NAME_WORDS else p["name"]}
                      for p in players]
    expansions = mode.get("expansions")
    if expansions:
        mode["expansions"] = [expansions_said(list(expansions))]
    from engine.caesar.terms import EDITION_WORDS, edition_name     # (History's screens only)
    edition = mode.get("edition")
    if edition in EDITION_WORDS:
        mode["notes"] = [say(edition_name(str(edition)))]
    out["mode"] = mode
    return out


def finished(game: str, view: View, command: str, fields: dict[str, Any]) -> list[Part]:
    caesar = cast("CaesarGameView", view)
    return [("game", _summary(game, caesar))] if caesar.get("winner") else []          # C-12


def players(game: str, view: View) -> list[str]:
    caesar = cast("CaesarGameView", view)
    if caesar.get("mode") == "solo":
        side = str(caesar.get("side", "caesar"))
        return [SIDE_NAMES.get(side, side.capitalize()), AUTO]
    return [SIDE_NAMES.get(n, n.capitalize()) for n in caesar.get("markers", {})]


def short(entry: HistoryEntry) -> str:
    """A game stopped early (kind ``ended``/``abandoned``) is named by its session's game."""
    kind = entry["mode"].get("kind")
    solo = kind == "solo" or (kind != "duel" and entry["game"] == SOLO)
    return N_("Caesar! solo") if solo else N_("Caesar! duel")


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


class CrassusRow(TypedDict):
    """One line of History → Statistics → vs Auto-Crassus."""

    difficulty: str | None
    expansions: str
    """The modules played, ``+``-joined (``base``: none)."""
    wins: int
    losses: int
    streak: int
    """+n wins / -n losses in a row, newest first."""


def against_crassus(entries: Sequence[Entry]) -> dict[str, CrassusRow]:
    """Your record against Auto-Crassus per difficulty and expansion set — ``wins``, ``losses``,
    ``streak`` (+n wins / -n losses in a row, newest first)."""
    out: dict[str, CrassusRow] = {}
    runs: dict[str, list[bool]] = {}
    for e in cast(list[HistoryEntry], entries):        # firmware/history.py hands plain dicts
        mode = e["mode"]
        if e["status"] != "finished" or e["game"] not in RECORD.sessions or mode.get("kind") != "solo":
            continue
        exp = "+".join(mode.get("expansions") or []) or "base"
        key = f"{mode.get('difficulty')}/{exp}"
        won = any(p["winner"] and p["name"] != AUTO for p in e["players"])
        row = out.setdefault(key, {"difficulty": mode.get("difficulty"), "expansions": exp, "wins": 0, "losses": 0,
                                   "streak": 0})
        if won:
            row["wins"] += 1
        else:
            row["losses"] += 1
        runs.setdefault(key, []).append(won)
    for key, row in out.items():
        row["streak"] = streak(runs[key])
    return out


def settings(view: View) -> dict[str, Any]:
    """What History keeps of a game ended or abandoned before its end, as of a finished one: the
    level, the sides and the modules of a solo game (the modules of a duel), and the rules edition
    it followed (PROTOCOL.md third round: ``edition`` for Caesar!)."""
    caesar = cast("CaesarGameView", view)
    side = str(caesar.get("side", "caesar"))
    solo = {"difficulty": str(caesar.get("difficulty")), "side": side,
            "crassus_side": "pompey" if side == "caesar" else "caesar"} if caesar.get("mode") == "solo" else {}
    edition = caesar.get("rules", {}).get("edition")
    return {**solo, "expansions": _expansions(caesar), **({"edition": edition} if edition else {})}


def first(game: str, view: View) -> str | None:
    """Who took the first turn, as :func:`players` names them: Auto-Crassus in solo (S-2), Caesar
    in a duel (C-5) — what a finished game's record says too."""
    names = players(game, view)
    return names[-1] if cast("CaesarGameView", view).get("mode") == "solo" else (names[0] if names else None)


def over(view: View, lines: Sequence[str]) -> bool:
    """C-12: a side placed its last control marker or cannot play."""
    return bool(cast("CaesarGameView", view).get("winner"))


RECORD = GameRecord(
    ident="caesar", label=N_("Caesar!"), sessions=(SOLO, DUEL),
    screens="firmware.screens.caesar.home:open_game", domain="caesar",
    box_name="Caesar! Seize Rome in 20 Minutes", short=short, finished=finished, players=players, over=over,
    statistics=(Statistic("crassus", N_("vs Auto-Crassus"), against_crassus, "firmware.screens.history_stats:crassus_chart"),),
    seats={"caesar": N_("Caesar"), "pompey": N_("Pompey")}, placeholders=(AUTO,), shown=shown,
    settings=settings, first=first, undone="firmware.screens.caesar.reading:taken_back",
)
