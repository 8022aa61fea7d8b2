"""A Glory of Rome session state: creating it from ``new glory ...`` and reading it back.

Options: ``players=Jack,Henry,Mary,Ross`` (1-4, clockwise seating order), ``first=<name>``
(default: the first listed), ``fame=1,2,3,1`` (starting fame from the character boards, default
1 each), ``harsh=1`` (Harsh Times: 6 negative event cards), ``clockwise=1`` (the board always turns
90° clockwise), ``truce=1`` / ``heroes=1`` (variants that remove objective cards; Heroes also
removes the medals), ``provinces=A,B,C,D`` (the provinces facing seats 0..3 at the start), ``seed=N``.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from engine.errors import BadArguments
from engine.game import Request, State, whole_number
from engine.glory import fame as F
from engine.glory import rounds as R
from engine.glory.tables import objective_cards, tables
from engine.glory.views import EventCard, GloryGameView, TrackPlace
from engine.names import check_name, folded, named
from engine.rng import Draws, Rng
from engine.glory.text import Msg

OPTIONS = frozenset({"players", "first", "fame", "harsh", "clockwise", "truce", "heroes",
                     "provinces", "seed"})
NAME = re.compile(r"^[^\s,=#{}\[\]\"]{1,16}$")
VARIANTS = ("harsh", "clockwise", "truce", "heroes")


def parse_players(raw: str | None, asked: bool = False) -> list[str]:
    """``Jack,Henry,Mary`` -> names; raises BadArguments on a count outside 1..4, a bad or
    repeated name. ``asked`` (a request asked now, not a journal replayed): a name made of digits
    alone (``players=3``: a count typed where names are asked) and two names that are one as
    players are named (engine.names.named: «Семён» and «Семен», «Мар'яна» and «Марʼяна») are
    refused too — a journal stored before still replays."""
    if not raw:
        raise BadArguments(Msg("Name the players: new glory players=Jack,Henry,Mary,Ross (1 to 4, in clockwise seating order)."))
    names = raw.split(",")
    if not 1 <= len(names) <= 4:
        raise BadArguments(Msg("For the Glory of Rome takes 1 to 4 players, not {}.", len(names)))
    seen: set[str] = set()
    for name in names:
        if not NAME.match(name):
            raise BadArguments(Msg("'{}' is not a usable player name (1-16 characters, no spaces, commas or quotes).", name))
        check_name(name, 16, spaces=False)
        if asked and name.isdigit():
            raise BadArguments(Msg("'{}' is a number, not a name: players= takes the players' names, "
                                   "new glory players=Jack,Henry,Mary,Ross (1 to 4, in clockwise seating order).", name))
        key = folded(name) if asked else name.casefold()
        if key in seen:
            twin = next((n for n in names if (folded(n) if asked else n.casefold()) == key), name)
            if asked and twin.casefold() != name.casefold():
                raise BadArguments(Msg("'{}' and '{}' are one name as players are named (ё and е, any apostrophe "
                                       "are the same): tell the two apart, e.g. {}-2.", twin, name, name))
            raise BadArguments(Msg("The name '{}' is used twice.", name))
        seen.add(key)
    return names


def new_state(req: Request, seed: Draws | int) -> State:
    """The state of a new game (round 1, no event revealed yet); raises BadArguments."""
    req.check_opts(OPTIONS)
    if req.args:
        raise BadArguments(Msg("Usage: new glory players=Jack,Henry,Mary,Ross [first=Jack] [fame=1,2,3,1] [harsh=1] [clockwise=1] [truce=1] "
                               "[heroes=1] [seed=N]."))
    players = parse_players(req.opts.get("players"), req.asked)
    options = {v: req.opt_flag(v) for v in VARIANTS}
    first = find_player(players, req.opts.get("first", players[0]))
    provinces = _provinces(req.opts.get("provinces"))
    starting = _starting_fame(req.opts.get("fame"), players, req.asked)
    draws = Draws.coerce(seed)
    seats = dict(zip(players, R.seat_layout(len(players))))
    state: State = {
        "rng": [],
        "players": players,
        "seats": seats,
        "options": options,
        **F.new_track(players),
        "senate": [],
        "medals": {m: None for m in tables()["medals"]},
        "provinces": provinces,
        "rotation": 0,
        "token_province": seats[first],
        "round": 1,
        "event": None,
        "taxed": [],                # who has taken income this round, in the order they did (G-4)
        "finished": False,
        "deck": R.event_deck(draws.stream("events"), options["harsh"]),     # stream names: console.EVENTS
        "history": [],
        "objectives": {"deck": _objective_deck(draws.stream("objectives"), len(players), options), "hands": {},
                       "kept": {}},
        "picks": [],
    }
    for name in players:  # a start above 1 counts as a gain: milestones resolve in seating order
        if starting[name] > 1:
            F.change_fame(state, name, starting[name] - 1)
    state["rng"] = draws.to_json()
    return state


def _provinces(raw: str | None) -> list[str]:
    default = list(tables()["provinces"])
    if raw is None:
        return default
    names = raw.split(",")
    if len(names) != 4 or len({n.casefold() for n in names}) != 4 or not all(NAME.match(n) for n in names):
        raise BadArguments(Msg("provinces= lists the 4 provinces facing seats 1-4 at the start, e.g. provinces={}.", ','.join(default)))
    return names


def _starting_fame(raw: str | None, players: list[str], asked: bool = False) -> dict[str, int]:
    if raw is None:
        return {p: 1 for p in players}
    parts = raw.split(",")
    if len(parts) != len(players) or not all(p.isdecimal() and 1 <= int(p) <= 90 for p in parts):
        raise BadArguments(Msg("fame= gives each player's starting fame (1-90), in order, e.g. fame={}.", ','.join('1' for _ in players)))
    return {p: whole_number(v, asked) for p, v in zip(players, parts)}


def _objective_deck(rng: Rng, n_players: int, options: dict[str, bool]) -> list[str]:
    """The shuffled objective deck without the cards the variants (and 2-player games) remove."""
    ids = []
    for c in objective_cards():
        if any(options.get(v) for v in c.get("removed_by", [])):
            continue
        if n_players <= 2 and c.get("two_player") is False:
            continue
        ids.append(c["id"])
    rng.note("deck")
    rng.shuffle(ids)
    return ids


def two_player_cards_unknown(n_players: int, options: Mapping[str, bool]) -> bool:
    """True when a game of 1 or 2 players deals objectives the rulebook may take out: «В партии на
    2-х игроков уберите в коробку карты заданий с символом» (the solo is set up as for 2), and for
    a card left in the deck the data does not say whether it carries the symbol (``two_player``
    null: the rulebook does not list them). The device says so before it deals (G-19)."""
    if n_players > 2:
        return False
    return any(c.get("two_player") is None for c in objective_cards()
               if not any(options.get(v) for v in c.get("removed_by", [])))


def find_player(players: list[str], raw: str) -> str:
    """The player called ``raw`` (any letter case, е for ё: engine.names.named); raises
    BadArguments listing the players."""
    found = named(players, raw)
    if found is not None:
        return found
    raise BadArguments(Msg("No player '{}' (players: {}).", raw, ", ".join(players)))


def objective_label(card_id: str) -> dict[str, Any]:
    """``{"id", "label"}`` of an objective card."""
    for c in objective_cards():
        if c["id"] == card_id:
            return {"id": c["id"], "label": c["label"]}
    return {"id": card_id, "label": card_id}


def _place(fame: int) -> TrackPlace:
    space, flips = F.track_position(fame)
    return {"space": space, "flips": flips}


def view(state: State) -> GloryGameView:
    """What ``state`` shows: round and event, seating, fame, milestones, Senate, medals."""
    players: list[str] = state["players"]
    event = state["event"]
    direction = R.ARROWS[event["arrow"]][0] if event else None
    seat_of_token = R.token_seat(state)
    by_seat = {seat: p for p, seat in state["seats"].items()}
    out: GloryGameView = {
        "players": list(state["players"]),
        "round": state["round"],
        "rounds": int(tables()["rounds"]),
        "finished": state["finished"],
        "options": dict(state["options"]),
        "event": cast(EventCard, dict(event)) if event else None,
        "direction": direction,
        "first": R.turn_order(state, direction)[0] if direction else by_seat.get(seat_of_token),
        "order": R.turn_order(state, direction) if direction else None,
        "taxed": list(state.get("taxed", [])),
        "facing": R.facing(state),
        "populations": dict(state.get("populations", {})),
        "token_province": state["provinces"][state["token_province"]],
        "fame": {p: state["fame"][p] for p in players},
        "track": {p: _place(state["fame"][p]) for p in players},
        "supporters": {p: F.supporters(state, p) for p in players},
        "milestones_earned": {p: sorted(state["earned"][p]) for p in players},
        "markers": dict(state["markers"]),
        "senate": list(state["senate"]),
        "medals": dict(state["medals"]),
        "events_left": len(state["deck"]),
        "events": list(state["history"]),
        "objectives": {p: len(state["objectives"]["hands"][p]) for p in players
                       if p in state["objectives"]["hands"]},
        "sheet": {p: dict(v) for p, v in state.get("sheet", {}).items()},
    }
    return out
