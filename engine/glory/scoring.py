"""Final scoring (G-8..G-16), the Emperor's solo goals (G-17) and achievements (G-20).

Works on a checked :class:`~engine.glory.sheet.ScoreSheet`; every figure is fame points.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.glory.sheet import Battlefield, PlayerSheet, ScoreSheet
from engine.glory.tables import tables

CATEGORIES = ("track", "military", "politics", "trade", "religion", "objectives", "denarii")


@dataclass(frozen=True)
class Place:
    """A player's standing on one battlefield: ``place`` 1.., ``tied`` (scores 0), ``points``."""

    name: str
    legions: int
    place: int
    tied: bool
    points: int


def military_table(n_players: int) -> dict[int, list[int]]:
    """Shield -> points for 1st/2nd/3rd: the 3-4 player table, or the 2-player/solo one (G-9)."""
    raw = tables()["military"]["3-4" if n_players >= 3 else "1-2"]
    return {int(shield): [int(p) for p in points] for shield, points in raw.items()}


def conquered(field: Battlefield) -> bool:
    """A battlefield counts once its legions reach the shield number (G-9)."""
    return sum(field.legions.values()) >= field.shield


def places(field: Battlefield, warrior: str | None, n_players: int) -> list[Place]:
    """Places on a conquered battlefield by legion count (G-9).

    Players with equal legions share a place and score 0 for it; the next count takes the next
    place (places are not skipped). The Warrior medal holder wins a tie: the others tied with
    them take the next place. An unconquered battlefield gives no places.
    """
    if not conquered(field):
        return []
    points = military_table(n_players)[field.shield]
    order = list(field.legions)
    counts = sorted(set(field.legions.values()), reverse=True)
    groups: list[list[str]] = []
    for count in counts:
        group = [n for n in order if field.legions[n] == count]
        if warrior in group and len(group) > 1:
            groups.append([warrior])
            group = [n for n in group if n != warrior]
        groups.append(group)
    out: list[Place] = []
    for place, group in enumerate(groups, start=1):
        tied = len(group) > 1
        value = 0 if tied or place > len(points) else points[place - 1]
        out.extend(Place(n, field.legions[n], place, tied, value) for n in group)
    return out


def _warrior(sheet: ScoreSheet) -> str | None:
    for p in sheet.players:
        if "warrior" in p.medals:
            return p.name
    return None


def trade(player: PlayerSheet) -> int:
    """Goods sets by type: tools 3, weapons 4, clothing 5, jewelry 6 (G-11). Jokers (chests, or
    jewelry with the Merchant medal) add nothing of their own: a set scores its type."""
    values = tables()["set_values"]
    return sum(int(values[kind]) * n for kind, n in player.sets.items())


def religion(player: PlayerSheet) -> int:
    """Pantheon parts: gold 4, silver 3, bronze 2, own colour 1 (G-12)."""
    values = tables()["pantheon_values"]
    return sum(int(values[kind]) * n for kind, n in player.pantheon.items())


def _rate(player: PlayerSheet) -> int:
    return int(tables()["priest_denarii_per_fame" if "priest" in player.medals else "denarii_per_fame"])


def denarii_fame(player: PlayerSheet) -> int:
    """1 fame per 4 denarii, per 3 with the Priest medal, rounded down (G-14)."""
    return player.denarii // _rate(player)


def denarii_left(player: PlayerSheet) -> int:
    """The denarii a player still holds once the score is counted, the tie-break's (G-15): the
    ones exchanged for fame go back to the supply (G-14: «Все денарии, обмененные на очки славы,
    возвращаются в запас денариев»), so 8 coins (2 fame) leave none and 7 (1 fame) leave 3."""
    return player.denarii - denarii_fame(player) * _rate(player)


def politics(sheet: ScoreSheet) -> dict[str, int]:
    """Each vote in the column scores the value of its position, bottom -> top (G-10)."""
    out = {p.name: 0 for p in sheet.players}
    for value, owner in zip(sheet.senate_values, sheet.senate):
        out[owner] += value
    return out


def winners(totals: dict[str, int], denarii: dict[str, int]) -> list[str]:
    """Most fame; a tie goes to the most denarii (``denarii``: those left after the exchange, see
    :func:`denarii_left`); still tied, they share the win (G-15: «В случае ничьей по очкам
    побеждает игрок с наибольшим количеством денариев. В случае ничьей по денариям равноуспешные
    игроки считаются победителями и соправителями»)."""
    best = max(totals.values())
    tied = [n for n, t in totals.items() if t == best]
    most = max(denarii[n] for n in tied)
    return [n for n in tied if denarii[n] == most]


def score(sheet: ScoreSheet) -> dict[str, Any]:
    """The whole score pad: ``scores`` (name -> category points and ``total``), ``winners``,
    ``ranking``, ``places`` (shared on equal fame and denarii; none in the solo, G-17), ``battlefields`` (places per
    battlefield), ``achievements`` and, for one player, ``solo`` (G-17)."""
    n = len(sheet.players)
    warrior = _warrior(sheet)
    military = {p.name: 0 for p in sheet.players}
    fields_out = []
    all_places: list[list[Place]] = []
    for field in sheet.battlefields:
        standing = places(field, warrior, n)
        all_places.append(standing)
        for pl in standing:
            military[pl.name] += pl.points
        fields_out.append({
            "name": field.label, "shield": field.shield, "legions": sum(field.legions.values()),
            "conquered": conquered(field),
            "places": [{"name": pl.name, "legions": pl.legions, "place": pl.place,
                        "tied": pl.tied, "points": pl.points} for pl in standing],
        })
    senate = politics(sheet)
    scores: dict[str, dict[str, int]] = {}
    for p in sheet.players:
        row = {"track": p.fame, "military": military[p.name], "politics": senate[p.name],
               "trade": trade(p), "religion": religion(p), "objectives": p.objectives,
               "denarii": denarii_fame(p)}
        row["total"] = sum(row[c] for c in CATEGORIES)
        scores[p.name] = row
    totals = {name: row["total"] for name, row in scores.items()}
    # G-15 after G-14: the tie is told by the denarii still held, the exchanged ones being back in
    # the supply (all the coins typed told it before: 8 coins beat 7 where 7 leave 3 and 8 none)
    coins = {p.name: denarii_left(p) for p in sheet.players}
    ranking = sorted(totals, key=lambda name: (-totals[name], -coins[name]))
    out: dict[str, Any] = {
        "scores": scores,
        "winners": winners(totals, coins),
        "ranking": ranking,
        "places": places_of(ranking, totals, coins),
        "denarii_left": coins,
        "battlefields": fields_out,
        "achievements": {p.name: achievements(p, scores[p.name], sheet, all_places) for p in sheet.players},
    }
    if n == 1:
        # G-17: the Emperor's solo has no ranking («вы ни с кем не соревнуетесь, вместо этого вам
        # нужно выполнять задачи»): no place (it said place 1), and it is won by a title, not by
        # fame (it named the lone player the winner with 1 goal of 7)
        solo = out["solo"] = solo_goals(sheet.players[0], sheet)
        out["winners"] = [sheet.players[0].name] if solo["rank"] else []
        out["places"] = {}
    return out


def places_of(ranking: list[str], totals: dict[str, int], coins: dict[str, int]) -> dict[str, int]:
    """Name -> final place (1 = winner); equal fame and equal denarii share a place (G-15)."""
    out: dict[str, int] = {}
    for i, name in enumerate(ranking):
        prev = ranking[i - 1] if i else None
        same = prev is not None and (totals[prev], coins[prev]) == (totals[name], coins[name])
        out[name] = out[prev] if same and prev is not None else i + 1
    return out


def achievements(player: PlayerSheet, row: dict[str, int], sheet: ScoreSheet,
                 all_places: list[list[Place]]) -> list[str]:
    """Achievement tokens earned (G-20); the ones needing inputs count only when given.

    ``first_on_all_battlefields`` needs at least three battlefields and 1st place on each
    (a tied 1st place is still 1st place: the rulebook says tied players take their place).
    """
    t = tables()["achievements"]
    got = []
    if row["total"] >= t["fame_100"]:
        got.append("fame_100")
    if len(player.medals) == len(tables()["medals"]):
        got.append("all_medals")
    if player.sets.get("jewelry", 0) >= t["jewelry_sets_2"]:
        got.append("jewelry_sets_2")
    if player.fame >= t["track_61"]:
        got.append("track_61")
    if player.sets.get("jewelry", 0) >= t["jewelry_sets_3"]:
        got.append("jewelry_sets_3")
    firsts = [any(pl.name == player.name and pl.place == 1 for pl in standing) for standing in all_places]
    if len(firsts) >= 3 and all(firsts):
        got.append("first_on_all_battlefields")
    if row["politics"] >= t["senate_12"]:
        got.append("senate_12")
    if player.pantheon.get("gold", 0) >= 2:
        got.append("golden_pantheon")
    if player.objectives_done is not None and player.objectives_done >= t["objectives_4"]:
        got.append("objectives_4")
    if player.enmity == 0:
        got.append("no_enmity")
    if row["total"] >= t["designers_113"]:
        got.append("designers_113")
    return got


def solo_goals(player: PlayerSheet, sheet: ScoreSheet) -> dict[str, Any]:
    """The Emperor's solo goals after round 9 and the rank they give (G-17).

    ``objectives_2`` needs ``objectives_done``; without it the goal counts as not met and is
    listed in ``unknown``.
    """
    g = tables()["solo"]
    limits = tables()["pantheon_limits"]
    common = player.pantheon.get("gold", 0) + player.pantheon.get("silver", 0) + player.pantheon.get("bronze", 0)
    goals = {
        "fame_51": player.fame >= g["fame_on_track"],
        "medals_3": len(player.medals) >= g["medals"],
        "battlefields_2": sum(1 for f in sheet.battlefields
                              if conquered(f) and f.legions.get(player.name, 0) > 0) >= g["battlefields"],
        "senate_4": sheet.senate.count(player.name) >= g["senate_votes"],
        "sets_2": sum(player.sets.values()) >= g["sets"],
        "pantheon": player.pantheon.get("own", 0) == limits["own"] and common == limits["common"],
        "objectives_2": player.objectives_done is not None and player.objectives_done >= g["objectives_done"],
    }
    done = sum(goals.values())
    rank = next((name for need, name in g["ranks"] if done >= need), None)
    return {"goals": goals, "done": done, "rank": rank,
            "unknown": [] if player.objectives_done is not None else ["objectives_2"]}
