"""The Sword of Rome for firmware/: its record (firmware/games.py) and what History keeps (after turn
9, ``finished``, or an automatic victory: ``victory <power>`` or ``scoring … auto=T``), the players of an abandoned game.
Imports no screen: the console reads it."""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict, cast

from engine.sword.text import N_, Msg, term
from firmware.games import GameRecord, Part, View, player
from firmware.replies import HistoryEntry

if TYPE_CHECKING:                   # (typing only: the console loads every record at start)
    from engine.sword.views import SwordGameView

log = logging.getLogger(__name__)


def _summary(view: SwordGameView, auto: str | None) -> dict[str, Any]:
    order = list(view.get("standings") or view["factions"])
    vp = dict(view.get("vp", {}))
    unrest = view.get("unrest")
    if unrest is not None and "carthage" in vp:          # the VP the game counts (W-13), as the standings
        vp["carthage"] = unrest["carthage_vp"]
    winner = auto or order[0]
    # no start player: nobody tells the device who went first
    # each power's place: the winner first, then the standings (W-11: ties by the powers' order)
    places = [winner, *(f for f in order if f != winner)]
    players = [{**player(f.capitalize(), vp.get(f), f == winner), "rank": places.index(f) + 1}
               if f in places else player(f.capitalize(), vp.get(f), f == winner) for f in view["factions"]]
    mode = {"kind": "table", "powers": len(players), "turn": view.get("turn")}
    result = (Msg("{} won by automatic victory in turn {}.", term(winner.capitalize()), view.get("turn"))
              if auto else Msg("{} won on VP after turn 9.", term(winner.capitalize())))
    return {"mode": mode, "players": players, "result": result}


class _Scored(TypedDict, total=False):
    """What :func:`finished` reads of a ``scoring``'s fields (engine/sword/replies.py ``Scoring``,
    or those :func:`replayed` works out again)."""

    power: str
    automatic_victory: bool


def finished(game: str, view: View, command: str, fields: dict[str, Any]) -> list[Part]:
    sword, scored = cast("SwordGameView", view), cast(_Scored, fields)
    if command == "scoring" and scored.get("automatic_victory") and scored.get("power"):
        return [("game", _summary(sword, str(scored["power"])))]
    if sword.get("finished") and sword.get("automatic"):            # victory <power> (W-11)
        return [("game", _summary(sword, str(sword["automatic"])))]
    if sword.get("finished"):
        return [("game", _summary(sword, None))]
    return []


def replayed(view: View, line: str) -> tuple[str, dict[str, Any] | None]:
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
        log.debug("%r: no auto=T to reach, not an automatic victory", line)
        return "", None
    sword = cast("SwordGameView", view)
    vp = dict(sword.get("vp", {}))
    unrest = sword.get("unrest")
    if power == "carthage" and isinstance(unrest, dict):
        vp[power] = unrest.get("carthage_vp", vp.get(power))
    if power in vp and int(vp[power]) >= auto:
        return "scoring", {"automatic_victory": True, "power": power}
    return "", None


def players(game: str, view: View) -> list[str]:
    return [f.capitalize() for f in cast("SwordGameView", view).get("factions", [])]


def short(entry: HistoryEntry) -> str:
    return N_("Sword of Rome")


def over(view: View, lines: Sequence[str]) -> bool:
    """After turn 9 or ``victory <power>``, or an automatic victory reached by the last action
    (``scoring … auto=T``)."""
    return bool(cast("SwordGameView", view).get("finished")) or (bool(lines) and replayed(view, lines[-1])[1] is not None)


RECORD = GameRecord(
    ident="sword", label=N_("Sword of Rome"), sessions=("sword",), screens="firmware.screens.sword.home:open_game",
    domain="sword", box_name="The Sword of Rome", short=short, finished=finished, players=players, replayed=replayed, over=over,
    seats={"romans": N_("Romans"), "gauls": N_("Gauls"), "etruscans": N_("Etruscans"), "samnites": N_("Samnites"),
           "greeks": N_("Greeks"), "carthage": N_("Carthage")},
)
