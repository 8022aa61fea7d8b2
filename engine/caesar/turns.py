"""What the screens need to stay in step with the table after a power cut (issue 23 §2).

A turn's results are shown as *pages* (one for Auto-Crassus's tile with the tokens into and out
of his row, one per play, one per closure with its bonus, one per other bonus, one for the end of
the game). The state keeps, besides the game:

- ``last``: Auto-Crassus's last turn (tile, steps) — :mod:`engine.caesar.flow` writes it; here it
  gets an ``id``, stable for that turn;
- ``mine``: the human side's turn in progress or last (its placement, closures, bonus decisions
  and, in solo, the tokens drawn from the bag, which the player must take from the real bag);
- ``latest``: who acted last (``crassus`` or the player's name), so that a turn's pages are shown
  again only while nothing has happened since.

The view (:func:`turn_view`) gives each with ``id``, ``steps``, ``pages`` (each page: ``kind`` and
the indexes of its ``steps``) and ``current``. The device stores how many pages of a turn were
read (setting ``caesar.read`` = ``<id>:<pages read>``, ``+<screens>`` of the next page said on more
than one screen, ``@<rows>`` read on with A, the last four turns separated by commas, durable like
every setting) and, on start, shows a ``current`` turn from its first
unread screen. Acknowledgements are not journaled game
actions: they would become steps of ``undo`` ("take back: page 3 read") and hide the turn that
an undo should take back.
"""
from __future__ import annotations

import json
import zlib
from typing import Any

from engine.caesar.model import Game
from engine.caesar.terms import token
from engine.caesar.tokens import TOKENS
from engine.caesar.text import Msg
from engine.text import to_data

Step = dict[str, Any]


def turn_id(prefix: str, turns: int, steps: list[Any]) -> str:
    """A short id for one turn's record: who, the turn count when it was played, and a checksum
    of its steps (an undone turn played again differently gets another id; the same way, the same
    one: the device then counts its pages unread again). A bonus step's ``from`` (added later, for its
    page) is left out: a turn stored before it keeps its id after an update."""
    said = [{k: v for k, v in s.items() if k != "from"} if isinstance(s, dict) else s for s in steps]
    digest = zlib.crc32(json.dumps(said, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    return f"{prefix}{turns}-{digest:08x}"


def note_crassus(g: Game) -> None:
    """After Auto-Crassus's turn (``g.last`` just written): give it its id; he acted last."""
    if g.last:
        g.last["id"] = turn_id("c", g.turns, g.last["steps"])
    g.latest = "crassus"


def note_player(g: Game, p: int, steps: list[Step], starts: bool = False) -> None:
    """After a command of player ``p`` (a placement when ``starts``, then bonus decisions and
    draws): add its steps to ``g.mine``, the turn's record; ``p`` acted last."""
    name = g.names[p]
    if starts or g.mine.get("by") != name:
        g.mine = {"by": name, "turn": g.turns, "steps": []}
    g.mine["steps"].extend(to_data(steps))
    g.mine["id"] = turn_id("p", g.mine["turn"], g.mine["steps"])    # a stored game replays to the same id
    g.latest = name


def draw_step(g: Game, p: int, tid: int) -> Step:
    """A draw as a step of the turn's record. Solo: the token to take from the real bag (said
    only when the device drew it). A duel keeps the token private."""
    if not g.solo:
        return {"action": "draw", "by": g.names[p], "tokens": [], "private": True}
    step: Step = {"action": "draw", "by": g.names[p], "tokens": [TOKENS[tid].name]}
    if g.inputs["human_bag"] == "digital":
        step["text"] = Msg("Take {} from your bag and put it behind your screen.", token(tid))
    return step


def turn_pages(steps: list[Step], tile: str | None = None, winner: str | None = None,
               mine: bool = False, new_stack: bool = False) -> list[dict[str, Any]]:
    """A turn as pages, each ``{"kind": ..., "steps": [indexes]}``: Auto-Crassus's tile page
    (his draws, centurions and discards), one page per play (not for your own: you made it), one
    per closure with the bonus it gave, one per other bonus, a page for your draws, the tiles of
    his new stack (``new_stack``: the box's stack ran out, S-5; no steps), the end."""
    pages: list[dict[str, Any]] = []
    if tile is not None:
        pages.append({"kind": "tile", "steps": [i for i, s in enumerate(steps)
                                                if s["action"] in ("draw", "centurion", "discard")]})
    draws: list[int] = []
    for i, s in enumerate(steps):
        action = s["action"]
        if action == "play" and not mine:
            pages.append({"kind": "play", "steps": [i]})
        elif action == "close":
            pages.append({"kind": "close", "steps": [i]})
        elif action == "bonus":
            # the page of the closure it came from (two closures can give the same bonus, and
            # the bonuses are used in another order than the closures are said); steps stored
            # before ``from`` match by the bonus's name
            home = next((p for p in pages if p["kind"] == "close" and len(p["steps"]) == 1
                         and (steps[p["steps"][0]]["province"] == s["from"] if "from" in s
                              else steps[p["steps"][0]].get("bonus") == s["bonus"])), None)
            if home is not None:
                home["steps"].append(i)
            else:
                pages.append({"kind": "bonus", "steps": [i]})
        elif action == "draw" and mine:
            draws.append(i)
    if draws:
        pages.append({"kind": "draw", "steps": draws})
    if new_stack:
        pages.append({"kind": "stack", "steps": []})
    if winner:
        pages.append({"kind": "end", "steps": []})
    return pages


def turn_view(g: Game, record: dict[str, Any], steps: list[Step], who: str) -> dict[str, Any]:
    """``id``, ``read_id``, ``pages`` and ``current`` of a turn's record (``who``: who played it).
    ``read_id`` names the turn for the pages read (``caesar.read``): his turn's ``id``; yours is
    named by its placement (its first step), not by what came after, so that an undo of your draw
    or bonus decision leaves the same turn, its pages read still read (a power cut then does not
    show them again); a placement taken back and made otherwise is another turn. ``id`` keeps its
    checksum of all the steps: a game stored by an older version replays to the same state."""
    mine = who != "crassus"
    winner = g.names[g.winner] if g.winner >= 0 else None
    pages = turn_pages(steps, None if mine else record.get("tile"), winner if g.latest == who else None, mine,
                       not mine and "new_stack" in record)
    turn = record.get("id") or turn_id("c" if not mine else "p", 0, record.get("steps", []))
    read_id = turn_id("p", record.get("turn", 0), record.get("steps", [])[:1]) if mine else turn
    return {"id": turn, "read_id": read_id, "pages": pages, "current": g.latest == who}
