"""Julius Caesar's console responses (docs/protocol/jc.md), as TypedDicts: what a screen reads from
``ctx.run(jc_actions.…)``. The envelope (``ok``, ``error``, ``message``, ``state``) is
engine/replies.py :class:`Reply`; the fields below are there when ``ok`` is true."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.jc.views import BlockView, CardsView, Decision, Reveal, Verdict, WinterStep
from engine.replies import Reply


class TurnRecord(TypedDict):
    """A block's turn (engine/jc/battle.py ``_turn``): what it did, its dice and where the hits went."""

    round: int
    block: str
    name: str
    side: str
    role: str
    rating: str
    strength: int
    action: str                    # fire | pass | retreat | eliminated
    dice: list[int]
    hit_dice: list[bool]
    hits: int
    applied: list[dict[str, Any]]  # AppliedHit records (``from`` is a keyword: kept a plain dict)
    lost: int


class AddReply(Reply):
    block: BlockView
    to_reserve: NotRequired[list[str]]      # navis-reserve=1: the keys of the navis put into the reserve (J-8)
    notes: NotRequired[list[str]]


class StartReply(Reply):
    decision: Decision | None


class TurnReply(Reply):
    """``fire``, ``auto``, ``hit``, ``pass``, ``retreat``: the turn taken (``auto`` with nothing to
    play: ``{}``), the next decision and the battle's result so far."""

    turn: TurnRecord
    decision: Decision | None
    result: str | None


class FightReply(Reply):
    rounds: list[dict[str, Any]]
    result: str | None
    winner: str | None


class Odds(TypedDict):
    """Exact odds of the battle's end (J-15), the original attacker's (summing to 1)."""

    attacker_wins: float
    attacker_eliminated: float
    defender_holds: float


class OddsReply(Reply, Odds):
    policy: str
    # also ``from`` (where the odds are taken from: a keyword here)


class Option(Odds):
    """One choice open now with its odds (engine/jc/advise.py)."""

    action: str                    # fire | pass | retreat | hit
    block: str
    target: NotRequired[str]       # a hit's block
    policy: bool                   # the J-14 policy's own choice


class AdviseReply(Reply):
    decision: Decision
    options: list[Option]
    best: Option                   # the best by the odds (PROTOCOL.md)
    best_index: int
    advised: Option                # ``best`` but for a leader spared (J-2, J-17: advise.spare_leader)
    advised_index: int
    text: str                      # the advised choice in a sentence
    # also ``for`` (attacker | defender: a keyword here) and ``policy``


class NextBattleReply(Reply):
    number: int


class RosterBlock(TypedDict):
    id: str
    name: str
    side: str
    kind: str
    rating: str
    max: int
    strength: int
    levy_city: str | None
    levy_rule: str
    setup: str | None
    status: str                    # available | eliminated | killed | waiting (a third leader, no leader of his side killed: J-2)
    pool: bool                     # in the levy pool, off the map (disbanded, or given back by a winter: J-3, J-19)


class RosterReply(Reply):
    blocks: list[RosterBlock]


class VpReply(Reply):
    vp: dict[str, Any]


class LoseReply(Reply):
    """``lose``: a step lost outside battle (Vulcan, Jupiter): J-2, J-3, J-17."""

    block: str
    to: int
    result: str                    # reduced | killed | eliminated
    vp: dict[str, Any]


class GainReply(Reply):
    """``gain``: one step added by a levy point outside battle (J-20)."""

    block: str
    to: int
    levied: bool                   # true: the block came out of the levy pool onto the map (``from`` 0)


class DisbandReply(Reply):
    """``disband``: a block back to its owner's levy pool, its steps forfeit (J-19, rules 8.3-8.5)."""

    block: str
    to: int                        # its strength when levied again (its lowest: I, the elephant II)
    side: str                      # whose levy pool it is in now


class OwnerReply(Reply):
    """``owner``: a block changing side outside battle (Cleopatra, a Jupiter defection)."""

    block: str
    side: str


class WinterReply(Reply):
    checklist: list[WinterStep]
    verdict: NotRequired[Verdict | None]
    totals: NotRequired[dict[str, Any]]
    supply: dict[str, int]
    year: int


class CardsReply(Reply):
    cards: CardsView | None


class HandReply(Reply):
    side: str
    hand: list[str]
    discarded: str | None
    played: str | None
    turn: int


class PlayReply(CardsReply):
    reveal: Reveal | None
