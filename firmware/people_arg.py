"""The ``people=`` option of a new game: who plays each side of a game whose players take sides
(Caesar!, Julius Caesar, The Sword of Rome), read and checked before anything is stored."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import BadArguments
from engine.text import Msg


def parse_people(game: str, raw: str, view: Mapping[str, Any] | None, asked: bool = False) -> dict[str, str]:
    """``people=caesar:Anna,pompey:Boris`` → ``{"caesar": "Anna", "pompey": "Boris"}``: the person
    who plays each side of a game whose players take sides (its record's ``seats``); ``view``
    (the new game's) limits the sides to those in play; ``asked`` (not a journal replayed): «Семён»
    and «Семен» are one person (engine.names.folded). Raises BadArguments naming the problem."""
    from engine.names import folded
    from firmware import players
    from firmware.games import record_of
    record = record_of(game)
    if record is None or not record.seats:
        raise BadArguments(Msg("people= names the player of each side; this game names its players otherwise "
                               "(e.g. players=Ann,Bob for For the Glory of Rome)."))
    in_play = set(record.seats)
    if view is not None and record.players is not None:
        in_play &= {n.casefold() for n in record.players(game, dict(view))}
    out: dict[str, str] = {}
    for part in raw.split(","):
        side, colon, name = part.partition(":")
        side = side.strip().lower()
        if not colon or side not in in_play:
            raise BadArguments(Msg("people= gives side:name pairs for the sides in play ({}), e.g. people={}:Anna; not '{}'.",
                                   ", ".join(sorted(in_play)), sorted(in_play)[0] if in_play else "side", part[:40]))
        if side in out:
            raise BadArguments(Msg("people= names the player of {} twice.", side))
        person = players.check(name)
        same = folded if asked else str.casefold           # (a journal replays as it was written)
        if any(same(p) == same(person) for p in out.values()):
            raise BadArguments(Msg("'{}' cannot play two sides.", person))
        out[side] = person
    return out
