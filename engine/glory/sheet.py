"""The final-scoring input (the ``score <json>`` request) parsed and checked into typed records.

Schema (PROTOCOL.md "For the Glory of Rome"), every field checked; unknown keys are refused so
that a misspelt field never silently scores 0. Extra optional fields we accept:
``players[].objectives_done`` and ``players[].enmity`` (for G-17/G-20), ``players[].max_sets``
(a card allowing more than 3 sets), ``battlefields[].name`` and top-level ``senate_values``
(5 numbers bottom -> top, default 1, 2, 3, 5, 6 — G-10).

Inside a session, omitted ``track``/``flipped``, ``medals`` and ``senate`` come from the session,
and players left out of ``players`` score with zeros.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import BadArguments
from engine.glory.tables import tables
from engine.names import named
from engine.glory.text import Msg

PLAYER_KEYS = frozenset({"name", "track", "flipped", "medals", "sets", "merchant_jewelry_jokers",
                         "pantheon", "objectives", "denarii", "objectives_done", "enmity", "max_sets"})
TOP_KEYS = frozenset({"players", "battlefields", "senate", "senate_values"})
BATTLEFIELD_KEYS = frozenset({"name", "shield", "legions"})
MAX_NUMBER = 10_000


@dataclass(frozen=True)
class PlayerSheet:
    """One player's end-of-game figures. ``fame`` is the track total (space + 30 per flip)."""

    name: str
    fame: int
    medals: frozenset[str] = frozenset()
    sets: Mapping[str, int] = field(default_factory=dict)
    jewelry_jokers: int = 0
    pantheon: Mapping[str, int] = field(default_factory=dict)
    objectives: int = 0
    denarii: int = 0
    objectives_done: int | None = None
    enmity: int | None = None


@dataclass(frozen=True)
class Battlefield:
    """A battlefield: ``label`` for people, ``shield`` 2..4, ``legions`` per player (> 0 only)."""

    label: str
    shield: int
    legions: Mapping[str, int]


@dataclass(frozen=True)
class ScoreSheet:
    players: list[PlayerSheet]
    battlefields: list[Battlefield]
    senate: list[str]
    senate_values: list[int]


@dataclass(frozen=True)
class SessionFacts:
    """What a running game already knows: seating order, fame totals, medals, Senate column."""

    players: list[str]
    fame: Mapping[str, int]
    medals: Mapping[str, str | None]   # medal -> holder
    senate: list[str]
    heroes: bool = False               # the Heroes variant: «Удалите из игры все медали»


def _int(value: Any, what: str, lo: int = 0, hi: int = MAX_NUMBER) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadArguments(Msg("{} must be a whole number, not {!r}.", what, value))
    if not lo <= value <= hi:
        raise BadArguments(Msg("{} must be between {} and {}, not {}.", what, lo, hi, value))
    return value


def _object(value: Any, what: str, keys: frozenset[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise BadArguments(Msg("{} must be a JSON object.", what))
    for key in value:
        if key not in keys:
            raise BadArguments(Msg("{} has an unknown field '{}' (fields: {}).", what, key, ', '.join(sorted(keys))))
    return value


class _Names:
    """Lookup of player names in any letter case, е for ё (engine.names.named)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def get(self, raw: Any, where: str) -> str:
        found = named(self.names, raw) if isinstance(raw, str) else None
        if found is None:
            raise BadArguments(Msg("{}: {!r} is not a player (players: {}).", where, raw, ', '.join(self.names)))
        return found


def parse_sheet(data: Any, session: SessionFacts | None = None) -> ScoreSheet:
    """Check and convert a score request; raises BadArguments naming the first bad field."""
    if not isinstance(data, dict):          # the whole sheet: its own sentences (not a JSON path)
        raise BadArguments(Msg("The score must be a JSON object."))
    for key in data:
        if key not in TOP_KEYS:
            raise BadArguments(Msg("The score has an unknown field '{}' (fields: {}).", key,
                                   ", ".join(sorted(TOP_KEYS))))
    top: Mapping[str, Any] = data
    raw_players = top.get("players", [] if session else None)
    if not isinstance(raw_players, list) or (not raw_players and session is None):
        raise BadArguments(Msg('The score needs "players": a list of 1 to 4 player objects.'))
    entries: dict[str, Mapping[str, Any]] = {}
    if session is not None:
        names = _Names(session.players)
        for i, raw in enumerate(raw_players):
            obj = _object(raw, f"players[{i}]", PLAYER_KEYS)
            name = names.get(obj.get("name"), f"players[{i}].name")
            if name in entries:
                raise BadArguments(Msg("players[{}]: {} is listed twice.", i, name))
            entries[name] = obj
        order = list(session.players)
    else:
        if not 1 <= len(raw_players) <= 4:
            raise BadArguments(Msg("The score needs 1 to 4 players, not {}.", len(raw_players)))
        order = []
        for i, raw in enumerate(raw_players):
            obj = _object(raw, f"players[{i}]", PLAYER_KEYS)
            raw_name = obj.get("name")
            if not isinstance(raw_name, str) or not raw_name.strip():
                raise BadArguments(Msg('players[{}] needs a "name".', i))
            name = raw_name
            if name.casefold() in {n.casefold() for n in order}:
                raise BadArguments(Msg("players[{}]: the name {} is used twice.", i, name))
            order.append(name)
            entries[name] = obj
        names = _Names(order)
    medal_holders = _medals(entries, order, session)
    players = [_player(name, entries.get(name, {}), medal_holders, session) for name in order]
    _common_parts(players)
    battlefields = _battlefields(top.get("battlefields", []), names)
    senate = _senate(top, names, session)
    values = _senate_values(top.get("senate_values"))
    return ScoreSheet(players, battlefields, senate, values)


def _medals(entries: Mapping[str, Mapping[str, Any]], order: list[str],
            session: SessionFacts | None) -> dict[str, str]:
    """medal -> holder; each medal belongs to one player at most."""
    known = list(tables()["medals"])
    holders: dict[str, str] = {}
    for name in order:
        obj = entries.get(name, {})
        if "medals" in obj:
            raw = obj["medals"]
            if not isinstance(raw, list):
                raise BadArguments(Msg('{}: "medals" must be a list, e.g. ["warrior"].', name))
            medals = []
            for m in raw:
                if not isinstance(m, str) or m.lower() not in known:
                    raise BadArguments(Msg("{}: unknown medal {!r} (medals: {}).", name, m, ', '.join(known)))
                medals.append(m.lower())
            if medals and session is not None and session.heroes:
                raise BadArguments(Msg("The Heroes variant plays without medals."))
        elif session is not None:
            medals = [m for m, holder in session.medals.items() if holder == name]
        else:
            medals = []
        for m in medals:
            if holders.get(m, name) != name:
                raise BadArguments(Msg("The {} medal is given to both {} and {}; each medal has one holder.", m, holders[m], name))
            holders[m] = name
    return holders


def _player(name: str, obj: Mapping[str, Any], holders: Mapping[str, str],
            session: SessionFacts | None) -> PlayerSheet:
    medals = frozenset(m for m, h in holders.items() if h == name)
    if "track" in obj:
        track = _int(obj["track"], f"{name}: track", 1)
        flipped = obj.get("flipped", False)
        if not isinstance(flipped, bool):
            raise BadArguments(Msg('{}: "flipped" must be true or false.', name))
        length = int(tables()["track_length"])
        if flipped and track > length:
            raise BadArguments(Msg('{}: with "flipped": true, track is the space 1..{} (the total is space + {}).', name, length, length))
        fame = track + length if flipped else track
    elif session is not None:
        if "flipped" in obj:
            raise BadArguments(Msg('{}: "flipped" needs "track" with it.', name))
        fame = int(session.fame[name])
    else:
        raise BadArguments(Msg('{} needs "track": the fame space at the end (1..30, with "flipped" for +30).', name))
    sets = _counts(obj.get("sets", {}), f"{name}: sets", tables()["set_values"])
    max_sets = _int(obj.get("max_sets", tables()["max_sets"]), f"{name}: max_sets", 0, 20)
    if sum(sets.values()) > max_sets:
        raise BadArguments(Msg('{} has {} goods sets; at most {} count (give "max_sets" if a card allows more).', name, sum(sets.values()), max_sets))
    jokers = _int(obj.get("merchant_jewelry_jokers", 0), f"{name}: merchant_jewelry_jokers", 0, 100)
    if jokers and "merchant" not in medals:
        raise BadArguments(Msg("{} used jewelry as jokers but does not hold the merchant medal (G-11).", name))
    cards = 3 * sum(sets.values())
    if jokers > cards:
        raise BadArguments(Msg("{name}: {n} jewelry joker does not fit in the goods sets (sets of 3 cards: {sets}).",
                               plural="{name}: {n} jewelry jokers do not fit in the goods sets (sets of 3 cards: {sets}).",
                               name=name, n=jokers, sets=sum(sets.values())))
    pantheon = _counts(obj.get("pantheon", {}), f"{name}: pantheon", tables()["pantheon_values"])
    limits = tables()["pantheon_limits"]
    if pantheon["own"] > limits["own"]:
        raise BadArguments(Msg("{}: a Pantheon has at most {} parts of the player's own colour.", name, limits['own']))
    common = pantheon["gold"] + pantheon["silver"] + pantheon["bronze"]
    if common > limits["common"]:
        raise BadArguments(Msg("{}: a Pantheon has at most {} common parts (gold/silver/bronze).", name, limits['common']))
    _levels(name, pantheon["own"], common)
    done = obj.get("objectives_done")
    enmity = obj.get("enmity")
    return PlayerSheet(
        name=name, fame=fame, medals=medals, sets=sets, jewelry_jokers=jokers, pantheon=pantheon,
        objectives=_int(obj.get("objectives", 0), f"{name}: objectives"),
        denarii=_int(obj.get("denarii", 0), f"{name}: denarii"),
        objectives_done=None if done is None else _int(done, f"{name}: objectives_done", 0, 23),
        enmity=None if enmity is None else _int(enmity, f"{name}: enmity", 0, 20),
    )


def _levels(name: str, own: int, common: int) -> None:
    """A Pantheon is built level by level (G-12): the player's own parts start a level and one
    common part finishes it — the foundation 2 own + 1, then the temple 3 own + 1 on it."""
    foundation = int(tables()["pantheon_levels"]["foundation_own"])
    if common >= 1 and own < foundation:
        raise BadArguments(Msg("{}: a common Pantheon part finishes the foundation, after its {} parts of the "
                               "player's colour ({} given).", name, foundation, own))
    if common >= 2 and own < int(tables()["pantheon_limits"]["own"]):
        raise BadArguments(Msg("{}: the second common Pantheon part finishes the temple, after all {} parts of the "
                               "player's colour ({} given).", name, int(tables()["pantheon_limits"]["own"]), own))
    if own > own_parts_most(common):
        raise BadArguments(Msg("{}: the temple is built on a finished foundation: {} parts of the player's colour "
                               "need a common part (gold, silver or bronze).", name, own))


def own_parts_most(common: int) -> int:
    """The most parts of the player's colour a Pantheon with ``common`` common parts holds (G-12:
    «Игроки начинают уровень, используя части Пантеона своего цвета, а заканчивают уровень, взяв
    одну часть из общего запаса»): without one only the foundation's 2 — the temple's stand on a
    finished foundation —, with one all 5."""
    if common >= 1:
        return int(tables()["pantheon_limits"]["own"])
    return int(tables()["pantheon_levels"]["foundation_own"])


def common_parts_most(players: int) -> dict[str, int]:
    """The most common Pantheon parts of each kind a table of ``players`` can hold in all (G-12):
    each level's first to finish it takes gold, the second silver (the silver foundation only with
    4 players), the others bronze. :func:`_common_parts` checks the whole sheet against the levels
    finished; the device's score pad holds each row to these as it is typed."""
    silver_foundation = int(players >= int(tables()["pantheon_levels"]["silver_foundation_players"]))
    others = max(players - 1, 0)
    return {"gold": 2 * min(players, 1), "silver": silver_foundation + min(others, 1),
            "bronze": max(others - silver_foundation, 0) + max(others - 1, 0)}


def _common_parts(players: Sequence[PlayerSheet]) -> None:
    """The table's common Pantheon parts (G-12): the first player to finish a foundation (a temple)
    takes its gold part, the second its silver, the others bronze; with 1 to 3 players the silver
    foundation is out of the box. So the finished levels fix how many of each there are."""
    commons = [sum(p.pantheon.get(k, 0) for k in ("gold", "silver", "bronze")) for p in players]
    foundations, temples = sum(c >= 1 for c in commons), sum(c >= 2 for c in commons)
    silver_foundation = len(players) >= int(tables()["pantheon_levels"]["silver_foundation_players"])
    gold = min(foundations, 1) + min(temples, 1)
    silver = min(max(foundations - 1, 0), int(silver_foundation)) + min(max(temples - 1, 0), 1)
    bronze = foundations + temples - gold - silver
    given = {k: sum(p.pantheon.get(k, 0) for p in players) for k in ("gold", "silver", "bronze")}
    fit = {"gold": gold, "silver": silver, "bronze": bronze}
    if given != fit:
        # two short paragraphs, read at the table on the panel: the kind typed too often and who
        # holds it (the first page), then who takes the kind typed too seldom (one of them has it)
        short = next(k for k in ("gold", "silver", "bronze") if given[k] < fit[k])
        raise BadArguments(Msg("{}\n{}", _too_many(players, given, fit), _who_takes(short, silver_foundation, temples)))


def _who_takes(kind: str, silver_foundation: bool, temples: int) -> Msg:
    """Who takes the common Pantheon part of ``kind`` the sheet has too few of (G-12: «Первый
    игрок, взявший из общего запаса часть фундамента или храма, возьмет золотую часть нужного
    типа, второй — серебряную, а последующие игроки — бронзовые»; with 1-3 players the silver
    foundation is out of the box, «уберите в коробку … один серебряный фундамент»). One short
    sentence: the parts typed are as many as the levels finished, so one of the players holding
    the kind typed too often has this one."""
    if kind == "gold":
        return Msg("The first to finish a level takes its gold part.")
    if kind == "silver":
        if silver_foundation:
            return Msg("The second to finish a level takes its silver part.")
        return Msg("The second to finish the temple takes its silver part.")      # (the foundation has none)
    if silver_foundation:
        return Msg("The third and fourth to finish a level take bronze parts.")
    if temples >= 3:            # (a third temple: its bronze, or a foundation's)
        return Msg("With 1-3 players, foundations after the gold one are bronze, the third temple too.")
    return Msg("With 1-3 players, foundations after the gold one are bronze.")


def _too_many(players: Sequence[PlayerSheet], given: Mapping[str, int], fit: Mapping[str, int]) -> Msg:
    """The first sentence of the refusal of a table's common Pantheon parts (G-12), short enough
    for the first page: the kind typed too often, and the players holding it, one of whom must
    have another kind (the levels finished fix how many of each there are; the parts typed are as
    many as the levels, so one kind is over when another is short)."""
    kind = next(k for k in ("gold", "silver", "bronze") if given[k] > fit[k])
    names = ", ".join(p.name for p in players if p.pantheon.get(kind, 0))
    if kind == "gold":
        return Msg("{}: {} gold Pantheon part, where there should be {} (G-12).", names, given[kind], fit[kind],
                   plural="{}: {} gold Pantheon parts, where there should be {} (G-12).", n=given[kind])
    if kind == "silver":
        return Msg("{}: {} silver Pantheon part, where there should be {} (G-12).", names, given[kind], fit[kind],
                   plural="{}: {} silver Pantheon parts, where there should be {} (G-12).", n=given[kind])
    return Msg("{}: {} bronze Pantheon part, where there should be {} (G-12).", names, given[kind], fit[kind],
               plural="{}: {} bronze Pantheon parts, where there should be {} (G-12).", n=given[kind])


def _counts(raw: Any, what: str, kinds: Mapping[str, Any]) -> dict[str, int]:
    obj = _object(raw, what, frozenset(kinds))
    return {kind: _int(obj.get(kind, 0), f"{what}.{kind}", 0, 100) for kind in kinds}


def _battlefields(raw: Any, names: _Names) -> list[Battlefield]:
    if not isinstance(raw, list):
        raise BadArguments(Msg("\"battlefields\" must be a list of {\"shield\": 2|3|4, \"legions\": {name: count}}."))
    out = []
    for i, item in enumerate(raw):
        obj = _object(item, f"battlefields[{i}]", BATTLEFIELD_KEYS)
        label = obj.get("name", f"battlefield {i + 1}")
        if not isinstance(label, str):
            raise BadArguments(Msg("battlefields[{}].name must be text.", i))
        shields = sorted(int(s) for s in tables()["military"]["3-4"])
        if "shield" not in obj or obj["shield"] not in shields or isinstance(obj["shield"], bool):
            raise BadArguments(Msg('{}: "shield" must be one of {}.', label, ', '.join(map(str, shields))))
        legions_raw = obj.get("legions", {})
        if not isinstance(legions_raw, dict):
            raise BadArguments(Msg('{}: "legions" must be an object {{name: count}}.', label))
        legions: dict[str, int] = {}
        for who, count in legions_raw.items():
            name = names.get(who, f"{label}: legions")
            if name in legions:
                raise BadArguments(Msg("{}: {} is listed twice.", label, name))
            n = _int(count, f"{label}: legions.{name}", 0, 50)        # a JSON path: no English words in ru/uk
            if n:
                legions[name] = n
        out.append(Battlefield(label, int(obj["shield"]), legions))
    return out


def _senate(top: Mapping[str, Any], names: _Names, session: SessionFacts | None) -> list[str]:
    if "senate" not in top:
        return list(session.senate) if session is not None else []
    raw = top["senate"]
    size = int(tables()["senate_size"])
    if not isinstance(raw, list) or len(raw) > size:
        raise BadArguments(Msg('"senate" must list at most {} vote owners, bottom -> top.', size))
    return [names.get(v, f"senate[{i}]") for i, v in enumerate(raw)]


def _senate_values(raw: Any) -> list[int]:
    default = [int(v) for v in tables()["politics_values_bottom_to_top"]]
    if raw is None:
        return default
    if not isinstance(raw, list) or len(raw) != len(default):
        raise BadArguments(Msg('"senate_values" must list {} numbers, bottom -> top (default {}).', len(default), str(default)))
    return [_int(v, "senate_values", 0, 100) for v in raw]
