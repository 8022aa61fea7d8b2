"""The fame track (G-5) and its milestones (G-6).

Fame is kept as a total (1, 2, ...); the board shows it as a space 1..30 plus one "+30" flip per
lap. Milestones: a personal one at 5 for everybody and three shared markers that start on 12, 21
and 30 and move down one space for every player who earns them.

The state pieces used here (all JSON-friendly):

- ``fame``: player name -> total fame (>= 1);
- ``earned``: player name -> list of milestone ids earned (5, 12, 21, 30; shared ones named by
  their starting space);
- ``markers``: ``"12"``/``"21"``/``"30"`` -> the space the shared marker stands on now.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.glory.tables import tables

Milestone = dict[str, Any]  # {"player": name, "milestone": 12, "space": 11}


def track_position(total: int) -> tuple[int, int]:
    """``(space, flips)`` for a fame total: space 1..30 and how many times 30 was passed (G-5)."""
    length = int(tables()["track_length"])
    return (total - 1) % length + 1, (total - 1) // length


def new_track(players: list[str]) -> dict[str, Any]:
    """The fame pieces of a new game: everybody on 1, one supporter, markers on 12/21/30."""
    return {
        "fame": {p: 1 for p in players},
        "earned": {p: [] for p in players},
        "markers": {str(m): int(m) for m in tables()["shared_milestones"]},
    }


def supporters(state: dict[str, Any], player: str) -> int:
    """Recruited supporters: 1 at the start plus one per milestone earned, at most 5 (G-6)."""
    return min(int(tables()["max_supporters"]), 1 + len(state["earned"][player]))


@dataclass
class FameChange:
    """What one change of fame did: ``total`` after it, ``floored`` when the floor at 1 stopped a
    loss, and the ``milestones`` earned (by anybody, chains included) in the order they happened."""

    player: str
    before: int
    total: int
    floored: bool = False
    milestones: list[Milestone] = field(default_factory=list)


def change_fame(state: dict[str, Any], player: str, delta: int) -> FameChange:
    """Move ``player``'s fame by ``delta`` at once (G-5) and resolve milestones (G-6).

    A loss stops at 1 (``floored``). A gain earns the personal milestone at 5 and every shared
    marker reached for the first time; each such marker then moves down and chains onto players
    standing where it lands. Raises KeyError for an unknown player.
    """
    before = int(state["fame"][player])
    floor = int(tables()["fame_floor"])
    total = max(floor, before + delta)
    state["fame"][player] = total
    change = FameChange(player, before, total, floored=before + delta < floor)
    if delta > 0:
        change.milestones = _reach(state, player)
    return change


def _reach(state: dict[str, Any], player: str) -> list[Milestone]:
    """Milestones ``player`` earns at their (new) total, then the chains they start."""
    total = int(state["fame"][player])
    earned: list[int] = state["earned"][player]
    out: list[Milestone] = []
    personal = int(tables()["personal_milestone"])
    if total >= personal and personal not in earned:
        earned.append(personal)
        out.append({"player": player, "milestone": personal, "space": personal})
    markers: dict[str, int] = state["markers"]
    for key in sorted(markers, key=lambda k: markers[k]):
        mid = int(key)
        if mid in earned or total < markers[key]:
            continue
        earned.append(mid)
        out.append({"player": player, "milestone": mid, "space": markers[key]})
        markers[key] -= 1
        out.extend(_chain(state, key))
    return out


def _chain(state: dict[str, Any], key: str) -> list[Milestone]:
    """The marker ``key`` just moved down: everybody on its new space who lacks it earns it, and
    it moves down one space per new earner, until it lands on nobody new (G-6)."""
    out: list[Milestone] = []
    markers: dict[str, int] = state["markers"]
    mid = int(key)
    while markers[key] >= 1:
        space = markers[key]
        landed = [p for p, total in state["fame"].items()
                  if total == space and mid not in state["earned"][p]]
        if not landed:
            break
        for p in landed:
            state["earned"][p].append(mid)
            out.append({"player": p, "milestone": mid, "space": space})
        markers[key] -= len(landed)
    return out


def gained_supporters(milestones: list[Milestone]) -> dict[str, int]:
    """Supporters gained per player in a list of milestone events (only players who gained)."""
    out: dict[str, int] = {}
    for m in milestones:
        out[m["player"]] = out.get(m["player"], 0) + 1
    return out
