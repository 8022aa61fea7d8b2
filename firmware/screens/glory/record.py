"""For the Glory of Rome for firmware/: its record (firmware/games.py) and what History keeps (after
round 9 and a ``score``: read-only, recorded when it is asked; a later ``score`` replaces the
record, and a correction asks it again: firmware/history_rebuild.py ``asked_again``), the players of an abandoned game, and the players' scores
statistics. Imports no screen: the console reads it."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

from engine.glory.text import N_, Msg
from firmware.games import Entry, GameRecord, Part, Statistic, View, player
from firmware.replies import HistoryEntry

if TYPE_CHECKING:                   # (typing only: the console loads every record at start)
    from engine.glory.replies import Score, SoloGoals
    from engine.glory.views import GloryGameView


S = TypeVar("S", bound="Score")


# The seats' names a game gets when nobody was named (not people: never remembered, firmware/players.py)
SEAT_NAMES = (N_("Red"), N_("Yellow"), N_("Blue"), N_("Green"))


def start_player(view: GloryGameView) -> str | None:
    """Who started the game: the first player of round 1 (G-2), as recorded when its event was
    revealed; a game stored before that was recorded: the first seat (the token's default)."""
    for e in view.get("events", []):
        if e.get("round") == 1 and e.get("first"):
            return str(e["first"])
    return view["players"][0] if view.get("players") else None


def _summary(view: GloryGameView, scored: Score) -> dict[str, Any]:
    scores = scored["scores"]
    winners = [str(w) for w in scored.get("winners", [])]
    solo = scored.get("solo")
    if solo is not None:        # the Emperor's solo: a title won by the goals, not a win by fame (G-17)
        winners = winners if solo_won(solo) else []
    first = start_player(view)
    places = scored.get("places", {})
    players = [{**player(p, int(scores[p]["total"]), p in winners, p == first), "rank": int(places[p])}
               if p in places else player(p, int(scores[p]["total"]), p in winners, p == first)
               for p in view["players"] if p in scores]
    best = max((int(scores[p]["total"]) for p in view["players"] if p in scores), default=0)   # the players' scores
    opts = [k for k, v in view.get("options", {}).items() if v]
    mode = {"kind": "table", "players": len(players), "expansions": opts}
    if solo is not None and len(players) == 1:
        return {"mode": mode, "players": players, "result": solo_result(players[0]["name"], solo)}
    on_denarii = any(int(scores[p]["total"]) == best and p not in winners for p in view["players"] if p in scores)
    return {"mode": mode, "players": players, "result": _result(winners, best, on_denarii)}


def as_kept(now: S, kept: HistoryEntry | None) -> tuple[S, Msg | None]:
    """The score of an ended game as History keeps it: the one acknowledged when it was made
    final, never changed silently. The game's pad scored by the rules now (``now``) may name
    another winner than the record sealed then (a game made final before the tie rule was put
    right: all the coins typed told a tie on fame, where the rulebook's are the denarii left after
    the exchange, G-15 after G-14); then the ranking is the record's (its places, winners and
    points), each player's column the pad's, and a note says whom the rules now name and why.
    ``kept``: History's record of the game (None: none or unreadable: the score now, no note)."""
    score: Score = now                     # (its fields read as the Score it is)
    rows = {str(p["name"]): p for p in kept["players"]} if kept is not None else {}
    names = list(score["ranking"])
    if (len(names) < 2 or set(rows) != set(names) or any(type(rows[n].get("score")) is not int for n in names)
            or score.get("solo") is not None):
        return now, None
    winners = [n for n in names if rows[n].get("winner") is True]
    points = {n: int(rows[n]["score"]) for n in names}
    if set(winners) == set(score["winners"]) and all(points[n] == score["scores"][n]["total"] for n in names):
        return now, None                   # the same result: nothing to say
    kept_ranks = {n: rows[n].get("rank") for n in names}
    ranks = {n: r for n, r in kept_ranks.items() if isinstance(r, int)}
    if len(ranks) < len(names):                               # (a record made before it kept places)
        order = sorted(names, key=lambda n: (-points[n], n not in winners, names.index(n)))
        ranks = {n: 1 + min(i for i, o in enumerate(order) if (points[o], o in winners) == (points[n], n in winners))
                 for n in order}
    ranking = sorted(names, key=lambda n: (ranks[n], names.index(n)))
    scores = {n: {**score["scores"][n], "total": points[n]} for n in names}
    shown = cast(S, {**now, "scores": scores, "winners": winners, "ranking": ranking, "places": ranks})
    said = [Msg("History keeps the score made final: the winner is {}.", _names(winners), n=len(winners),
                plural="History keeps the score made final: the winners are {}.")]
    won, rules = list(score["winners"]), _names(list(score["winners"]))
    if all(points[n] == score["scores"][n]["total"] for n in names):     # only the tie is told otherwise
        said.append(Msg("By the rules now the winner is {}: a tie on fame goes to the denarii left after the "
                        "exchange (G-15).", rules, n=len(won),
                        plural="By the rules now the winners are {}: a tie on fame goes to the denarii left after "
                               "the exchange (G-15)."))
    else:
        said.append(Msg("By the rules now the score is counted otherwise: the winner is {}.", rules, n=len(won),
                        plural="By the rules now the score is counted otherwise: the winners are {}."))
    return shown, Msg("{}\n{}", *said)     # two paragraphs: what History keeps, on the first page


def _names(names: list[str]) -> str | Msg:
    """«Ваня», «Ваня и Маша», «Ваня, Маша и Петя»."""
    return names[0] if len(names) == 1 else Msg("{} and {}", ", ".join(names[:-1]), names[-1])


def solo_won(solo: SoloGoals) -> bool:
    """Whether the Emperor's solo ended with a title (G-17: 4-5 goals a Praetor, 6 an Emperor, 7 a
    child of Jupiter): nobody is beaten in it («вы ни с кем не соревнуетесь, вместо этого вам нужно
    выполнять задачи»), so History and the export count as won (BG Stats' ``winner``) only a game
    that earned one — our reading; fewer goals earn nothing."""
    return bool(solo.get("rank"))


def solo_result(name: str, solo: SoloGoals) -> Msg:
    """History's result line of the Emperor's solo (G-17): the title the goals met give, and how
    many of the 7 (it read «Победа: Jack, 40 очков славы», a win by fame whatever the goals, and
    said neither the goals nor the title)."""
    rank, done = solo.get("rank"), int(solo["done"])
    if rank == "child of Jupiter":
        return Msg("{} is a child of Jupiter: all {n} goal met.", name, n=done,
                   plural="{} is a child of Jupiter: all {n} goals met.")
    if rank == "Emperor":
        return Msg("{} is an Emperor: {n} goal of 7 met.", name, n=done, plural="{} is an Emperor: {n} goals of 7 met.")
    if rank == "Praetor":
        return Msg("{} is a Praetor: {n} goal of 7 met.", name, n=done, plural="{} is a Praetor: {n} goals of 7 met.")
    return Msg("{} earns no title: {n} goal of 7 met (a Praetor needs 4).", name, n=done,
               plural="{} earns no title: {n} goals of 7 met (a Praetor needs 4).")


def _result(winners: list[str], best: int, on_denarii: bool = False) -> Msg:
    """History's result line: the winner and his fame; players still tied on the denarii share the
    win (G-15: «равноуспешные игроки считаются победителями и соправителями»), named as a list
    («Ваня и Маша») and their fame said as each one's (it read «Победа: Ваня, Маша, 45 очков
    славы», the fame one more item of the list). A win the denarii gave (``on_denarii``: another
    player has as much fame, G-15: «В случае ничьей по очкам побеждает игрок с наибольшим
    количеством денариев») says so, as the device's ranking does: History listed two players of
    equal fame, one marked the winner, and nothing said why."""
    if len(winners) < 2:
        if on_denarii and winners:
            return Msg("{} won on denarii with {n} point.", winners[0], n=best,
                       plural="{} won on denarii with {n} points.")
        return Msg("{} won with {n} point.", winners[0] if winners else "—", n=best, plural="{} won with {n} points.")
    names: str | Msg = ", ".join(winners[:-1])
    names = Msg("{} and {}", names, winners[-1])
    return Msg("{} share the win with {n} point each.", names, n=best, plural="{} share the win with {n} points each.")


WON_BEFORE = N_("{} won with {} points.")
"""The result as History entries made before it had plural forms store it (still said as stored)."""


def finished(game: str, view: View, command: str, fields: dict[str, Any]) -> list[Part]:
    glory = cast("GloryGameView", view)
    if glory.get("finished") and command == "score" and "scores" in fields:
        return [("game", _summary(glory, cast("Score", fields)))]      # ``score``'s reply
    return []


def players(game: str, view: View) -> list[str]:
    return [str(p) for p in cast("GloryGameView", view).get("players", [])]


def first(game: str, view: View) -> str | None:
    """Who played first in round 1 (G-2): a game the players stopped early names its start player
    as a finished game's record does (:func:`start_player`)."""
    return start_player(cast("GloryGameView", view))


def short(entry: HistoryEntry) -> str:
    return N_("Glory of Rome")


class GloryRow(TypedDict):
    """One player's line of History → Statistics → Glory scores."""

    games: int
    best: int
    average: float
    """One decimal."""


def scores(entries: Sequence[Entry]) -> dict[str, GloryRow]:
    """Per person: ``games``, ``best``, ``average`` (one decimal). The seats' colours of a game
    started without names (``Red``, «Красный») are nobody: never counted as one person."""
    from firmware.players import is_person
    seen: dict[str, list[int]] = {}
    for e in cast(list[HistoryEntry], entries):        # firmware/history.py hands plain dicts
        if e["status"] != "finished" or e["game"] not in RECORD.sessions:
            continue
        for p in e["players"]:
            if isinstance(p.get("score"), int) and is_person(str(p["name"])):
                seen.setdefault(p["name"], []).append(int(p["score"]))
    return {n: {"games": len(v), "best": max(v), "average": round(sum(v) / len(v), 1)} for n, v in sorted(seen.items())}


def over(view: View, lines: Sequence[str]) -> bool:
    """After round 9 (G-15), scored or not."""
    return bool(cast("GloryGameView", view).get("finished"))


# the variants as the rulebook names them («Варианты»: «Суровые времена», «Перемирие» …)
VARIANT_WORDS = {"harsh": N_("Harsh Times"), "clockwise": N_("Clockwise"), "truce": N_("Truce"), "heroes": N_("Heroes")}


def shown(entry: HistoryEntry) -> HistoryEntry:
    """A History entry in the player's words: the variants played, named as the rulebook names
    them (the record keeps their keys, ``harsh``), instead of a list of modules."""
    from firmware.screens.glory.text import _
    mode = entry["mode"].copy()
    variants = [str(k) for k in mode.pop("expansions", None) or ()]
    if variants:
        words = ", ".join(_(VARIANT_WORDS[k]) if k in VARIANT_WORDS else k for k in variants)
        mode["notes"] = [*mode.get("notes", ()), _("Variants: {}").format(words)]
    return {**entry, "mode": mode}


AMENDING = frozenset({"score", "sheet", "fame", "medal", "senate"})


def amends(view: View, command: str) -> bool:
    """After round 9, the score pad, fame, medals and the Senate column are corrections until the
    score is final (the players end the game): History's record follows the latest ``score``."""
    return bool(cast("GloryGameView", view).get("finished")) and command in AMENDING


def settled(view: View) -> str:
    """``score sheet`` once the game is over (G-15) and its score pad holds a figure (G-9..G-14,
    typed with ``sheet``: stored actions), so that History's lost record of it can be worked out
    again; "" for an empty pad (a score given over the console, ``score <sheet>``, is in no action)."""
    glory = cast("GloryGameView", view)
    typed = any(any(row.values()) for row in glory.get("sheet", {}).values())
    from engine.glory.actions import score_sheet
    return str(score_sheet()) if glory.get("finished") and typed else ""


RECORD = GameRecord(
    ident="glory", label=N_("Glory of Rome"), sessions=("glory",), screens="firmware.screens.glory.home:open_game",
    domain="glory", box_name="For the Glory of Rome", short=short, finished=finished, players=players, first=first,
    over=over, placeholders=SEAT_NAMES, amends=amends, settled=settled, shown=shown,
    statistics=(Statistic("glory", N_("Glory scores"), scores, "firmware.screens.history_stats:glory_scores"),),
)
