"""Julius Caesar for firmware/: its record (firmware/games.py) and what History keeps — every battle
that ends (``part`` = ``battle-N``, J-13) and the campaign when it is over —, the players of an
abandoned session, and the battle statistics. Imports no screen: the console reads it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, cast

from engine.jc.text import N_, Msg, term
from firmware.games import Entry, GameRecord, Part, Statistic, View, player
from firmware.replies import HistoryEntry

if TYPE_CHECKING:                   # (typing only: the console loads every record at start)
    from engine.jc.views import BattleRecord, JcGameView

SIDES = ("caesar", "pompey")
# one sentence per side: ru/uk decline the side's name (engine/jc/terms.py)
CAMPAIGN_WON = {"caesar": N_("Campaign over: Caesar wins, {}–{} VP."),
                "pompey": N_("Campaign over: Pompey wins, {}–{} VP.")}
# a tie after year 5 goes to whoever holds Rome (J-17): the record says so ("wins, 7–7" alone read
# as a win at equal VP)
CAMPAIGN_WON_ROME = {"caesar": N_("Campaign over: VP tied {}–{}; Caesar holds Rome and wins."),
                     "pompey": N_("Campaign over: VP tied {}–{}; Pompey holds Rome and wins.")}


def _battle(view: JcGameView, entry: BattleRecord) -> dict[str, Any]:
    battle = view["battle"]
    steps: dict[str, Any] = {"caesar": None, "pompey": None}
    if battle["number"] == entry["number"]:           # the blocks left standing (steps)
        steps = {"caesar": 0, "pompey": 0}
        for b in battle["blocks"]:
            steps[b["side"]] = steps.get(b["side"], 0) + int(b["strength"])
    winner = entry.get("winner")
    att = str(entry["attacker"])
    players = [player(s.capitalize(), steps.get(s), winner == s, s == att) for s in SIDES]
    mode = {"kind": "battle", "number": entry["number"], "attacker": att, "surprise": bool(entry.get("surprise")),
            "winner_role": None if winner is None else ("attacker" if winner == att else "defender")}
    res = entry.get("result")
    if res == "attacker_wins":
        result = Msg("Battle {}: {} attacked and won.", entry["number"], term(att.capitalize()))
    elif res == "attacker_eliminated":
        result = Msg("Battle {}: {} attacked and was destroyed.", entry["number"], term(att.capitalize()))
    else:
        result = Msg("Battle {}: {} attacked; the defender held.", entry["number"], term(att.capitalize()))
    return {"mode": mode, "players": players, "result": result}


def _campaign(view: JcGameView) -> dict[str, Any]:
    over = view["campaign"]["over"]
    vp = view["vp"]
    winner = over["winner"] if over else None
    players = [player(s.capitalize(), vp.get(s), winner == s, s == "caesar") for s in SIDES]
    if winner in CAMPAIGN_WON:
        won, lost = vp.get(winner, 0), max((v for k, v in vp.items() if k != winner), default=0)
        result = Msg((CAMPAIGN_WON_ROME if won == lost else CAMPAIGN_WON)[winner], won, lost)
    else:
        result = Msg("Campaign over: a draw.")
    return {"mode": {"kind": "campaign", "year": view["campaign"]["year"]}, "players": players, "result": result}


def finished(game: str, view: View, command: str, fields: dict[str, Any]) -> list[Part]:
    jc = cast("JcGameView", view)
    out: list[Part] = [(f"battle-{entry['number']}", _battle(jc, entry)) for entry in jc.get("history", [])]
    if _over(jc):
        out.append(("campaign", _campaign(jc)))
    return out


def players(game: str, view: View) -> list[str]:
    return ["Caesar", "Pompey"]


def short(entry: HistoryEntry) -> str:
    kind = entry["mode"].get("kind")
    return N_("JC campaign") if kind == "campaign" else N_("JC battle {}") if kind == "battle" else N_("Julius Caesar")


def _over(view: JcGameView) -> bool:
    """The campaign's verdict is in (the view of a session without one: not over)."""
    campaign = view.get("campaign")
    return bool(campaign and campaign.get("over"))


def began(part: str) -> bool:
    """Whether a part began when the session began: the campaign and its first battle did; a later
    battle (``battle-2`` …) began when nobody told the device (J-13: each battle is a play)."""
    return not part.startswith("battle-") or part == "battle-1"


def playing(state: Mapping[str, Any]) -> str | None:
    """The battle a raw state plays (set up with a block in it, or fought; J-13: each battle is a
    play), None between battles: History's record of a battle has the time spent on it. A set-up
    with no block yet is the campaign's (J-4: a turn's battles come after its cards and all its
    movement): the device opens battle 1's set-up with the game, and the next one's with «Next
    battle» once a battle is over, and the players deal, play and reveal the cards, move and levy
    (J-18, J-20) in it; that time was the battle's (a turn's cards in battle 1's play time). The
    step that places its first block begins it (firmware/play_time.py: the time before it is the
    battle's set-up), so the undo of that block, or its removal, does not stop its clock."""
    raw = cast(_RawState, state)
    battle = raw["battle"]
    if battle["phase"] == "over" or battle["phase"] == "setup" and not battle["blocks"]:
        return None
    return f"battle-{int(raw['number'])}"


class _RawBattle(TypedDict):
    """What :func:`playing` reads of the raw state's battle (engine/jc/battle.py)."""
    phase: str                # setup | fighting | over
    blocks: list[Any]


class _RawState(TypedDict):
    """What :func:`playing` reads of a raw Julius Caesar state (engine/jc/campaign.py): the
    number of the battle it is at and that battle."""
    number: int
    battle: _RawBattle


def parted(part: str) -> bool:
    return part.startswith("battle-")


def seed_waits(view: View) -> str | None:
    """Why ``reveal`` is refused between battles (PROTOCOL.md third round: the seed is shown when the
    game ends): the battle is over and History has it finished (J-13), but the session is the
    campaign, which goes on drawing its next battles' dice and its cards from the seed — shown, it
    would tell them before they are drawn. Said so, with the two ways to the seed (the campaign's
    end, J-17/J-19, or ``end``), not «finish the game» about a battle History calls finished."""
    jc = cast("JcGameView", view)
    battle = jc.get("battle")
    if not battle or _over(jc) or not jc.get("history") or battle["phase"] == "fighting" or (
            battle["phase"] == "setup" and battle["blocks"]):
        return None
    return Msg("Battle {} is over, but the campaign goes on: its next battles' dice and its cards are drawn from "
               "this seed. It is shown when the campaign ends, or after 'end' (no battle follows then).",
               jc["history"][-1]["number"])


def seed_shown(view: View) -> bool:
    """A battle is a part of the campaign: its seed waits for the campaign's end."""
    return _over(cast("JcGameView", view))


class SideBattles(TypedDict):
    """One side's line of History → Statistics → JC battles."""

    attacker_won: int
    attacker_fought: int
    defender_won: int
    defender_fought: int


def battles(entries: Sequence[Entry]) -> dict[str, SideBattles]:
    """Per side: ``attacker_won``/``attacker_fought``, ``defender_won``/``defender_fought``."""
    out: dict[str, SideBattles] = {s: {"attacker_won": 0, "attacker_fought": 0, "defender_won": 0, "defender_fought": 0}
                                   for s in SIDES}
    for e in cast(list[HistoryEntry], entries):        # firmware/history.py hands plain dicts
        mode = e["mode"]
        if e["status"] != "finished" or e["game"] not in RECORD.sessions or mode.get("kind") != "battle":
            continue
        att = str(mode.get("attacker"))
        if att not in out:
            continue
        dfd = "pompey" if att == "caesar" else "caesar"
        out[att]["attacker_fought"] += 1
        out[dfd]["defender_fought"] += 1
        role = mode.get("winner_role")
        if role == "attacker":
            out[att]["attacker_won"] += 1
        elif role == "defender":
            out[dfd]["defender_won"] += 1
    return out


def over(view: View, lines: Sequence[str]) -> bool:
    """The campaign's end (the winter's victory check); a battle alone does not end the game."""
    return _over(cast("JcGameView", view))


RECORD = GameRecord(
    ident="jc", label=N_("Julius Caesar"), sessions=("jc-battle",), screens="firmware.screens.jc.home:open_game",
    domain="jc", box_name="Julius Caesar", short=short, finished=finished, players=players, seed_shown=seed_shown, over=over, began=began,
    playing=playing, parted=parted,
    seed_waits=seed_waits, seats={"caesar": N_("Caesar"), "pompey": N_("Pompey")},
    statistics=(Statistic("jc", N_("JC battles"), battles, "firmware.screens.history_stats:jc_battles"),),
)
