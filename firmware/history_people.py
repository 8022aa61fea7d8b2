"""The people who played the sides of a recorded game (firmware/history.py): side → person as the
session's ``new … people=`` named them, and a record's players with their sides."""
from __future__ import annotations

import logging
from typing import Any

from engine.errors import LegatusError
from firmware.games import record_of

log = logging.getLogger(__name__)

__all__ = ["is_seat", "sides_people", "with_people"]


def sides_people(header: dict[str, Any]) -> dict[str, str]:
    """Side → person, as the session's ``new`` line named them (``people=``, firmware/people_arg.py)."""
    from firmware.people_arg import parse_people
    from firmware.session import parse_line
    raw = parse_line(str(header.get("line", ""))).opts.get("people")
    if raw is None:
        return {}
    try:
        return parse_people(str(header.get("game")), raw, None)
    except LegatusError:
        log.warning("the people= of session %s does not read back", header.get("sid"))
        return {}


def with_people(game: str, people: dict[str, str], recorded: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A record's players with their sides: a player named after a side of the game (``Caesar``,
    ``Romans``) gets ``role`` (the side's id) and, when ``people`` names who played it, that person's
    name. Other players (Glory's people, Auto-Crassus) stay as they are."""
    record = record_of(game)
    seats = record.seats if record is not None else {}
    out = []
    for p in recorded:
        side = str(p.get("role") or p.get("name", "")).casefold()
        if side in seats:
            p = {**p, "role": side}
            if side in people:
                p["name"] = people[side]
        out.append(p)
    return out


def is_seat(p: dict[str, Any]) -> bool:
    """Whether a History player is a side nobody was named for (its name is the side's)."""
    return p.get("role") is not None and str(p.get("name", "")).casefold() == str(p["role"]).casefold()
