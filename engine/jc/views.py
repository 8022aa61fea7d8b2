"""Julius Caesar's ``state`` (docs/protocol/jc.md), as TypedDicts: what ``view()`` answers, read by
the device's screens through these types (mypy-checked)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from engine.views import SessionView

if TYPE_CHECKING:                      # (engine/jc/replies.py reads this module's views)
    from engine.jc.replies import TurnRecord


class BlockView(TypedDict):
    key: str                  # the block's key in this battle (its id, or a name for a rated block)
    id: str
    name: str
    side: str                 # caesar | pompey
    role: str                 # attacker | defender (now: after a role swap, J-11)
    kind: str
    rating: str               # A3, C2 … (J-1)
    strength: int
    steps: str                # the strength in Roman numerals
    max: int
    status: str               # fight | reserve | retreated | eliminated | killed
    reserve: bool
    acted: bool


class TurnDecision(TypedDict):
    """A step of the battle to play: which block acts and how (J-4..J-6)."""

    kind: Literal["turn"]
    round: int
    side: str
    role: str
    letter: str
    blocks: list[str]
    actions: list[str]        # fire, pass, retreat


class HitDecision(TypedDict):
    """Hits waiting for their owner to choose among equally strong blocks (J-7)."""

    kind: Literal["hit"]
    side: str
    left: int
    choices: list[str]
    strength: int
    default: str | None       # the careful pick (no leader while another may take it), J-7/J-14


Decision = TurnDecision | HitDecision


class SettledHits(TypedDict):
    """The hits of a fire placed at once on a tied level (J-7, ``ties=partial``): each of the tied
    blocks loses a step whatever the order, so nobody was asked for them."""

    side: str                 # the owner of the tied blocks (the side fired at)
    blocks: list[str]         # the tied blocks' keys, in the order they were entered
    first: int                # the first of those hits among the turn's ``applied``
    hits: int                 # how many hits were placed so
    asked: int                # the hits left to the owner after them (0: none)


class LastRoll(TypedDict):
    """The battle's newest turn when it was a fire (J-1, J-7): its dice and where the hits went, and
    what the rules did after it (reserves arriving, a leader killed, the end: J-2, J-8, J-9, J-13) —
    kept in the state, so the device says it again after a power cut until it is read."""

    index: int                # its place among the battle's turns (0: the first)
    turn: TurnRecord          # the turn record
    events: list[str]         # what the rules did since, oldest first
    settled: SettledHits | None   # its hits placed at once on a tied level (J-7), None: none


class BattleView(TypedDict):
    number: int
    attacker: str
    defender: str
    surprise: bool
    dice: str                 # digital | physical
    phase: str                # setup | fighting | over
    round: int
    roles_swapped: bool
    attacker_now: str
    blocks: list[BlockView]
    decision: Decision | None
    result: str | None        # attacker_wins | attacker_eliminated | defender_holds
    winner: str | None
    events: list[str]         # what the rules did by themselves (J-2, J-8, J-9, J-13), oldest first
    log: list[str]            # the newest 40 entries of the battle log: turns and events where they happened
    roll: LastRoll | None     # the newest turn when it was a fire (None: none yet, or a later turn was not)


class BattleRecord(TypedDict):
    """A battle that ended (J-13), kept for the campaign and History."""

    number: int
    attacker: str
    surprise: bool
    result: str | None
    winner: str | None
    rounds: int
    blocks: NotRequired[list[str]]   # the roster blocks that fought in it (none in a state kept before)
    survivors: NotRequired[dict[str, str]]   # those it neither eliminated nor killed, each with its side at its end


class Verdict(TypedDict):
    winner: str | None
    reason: str


class Trophy(TypedDict):
    """A killed enemy leader (J-2): 1 VP for the side that holds it (J-17)."""

    id: str | None            # the roster block (None: a block added by its rating)
    name: str
    battle: int | None        # the battle that killed him (None: outside battle, ``lose``)
    key: str


class CampaignView(TypedDict):
    year: int
    eliminated: list[str]
    killed: list[str]
    trophies: dict[str, list[Trophy]]
    cleopatra: str
    owners: dict[str, str]
    levy: dict[str, Any]
    strength: dict[str, int]
    pool: list[str]           # in the levy pool, off the map: disbanded, or given back by a winter (J-3, J-19)
    over: Verdict | None
    quiet: bool               # the year the last winter began has had no battle, no card played (J-19)


class Reveal(TypedDict):
    """Two cards shown (J-18): who plays first, Apollo's copy, two events cancelling."""

    turn: int
    played: dict[str, str]
    cancelled: bool
    player1: str | None
    effective: dict[str, str]


class CardsView(TypedDict):
    turn: int
    year_done: bool
    cards_in_hand: dict[str, int]
    discarded: dict[str, bool]
    played: dict[str, bool]
    reveals: list[Reveal]


class WinterStep(TypedDict):
    step: str                      # 8.1 … 8.6 (rules v1.1)
    title: str
    done: bool                     # applied by the device
    text: str


class WinterView(TypedDict):
    """The last winter (J-19): the year it ended and its checklist, as ``winter`` answered."""

    year: int
    checklist: list[WinterStep]
    battle: int | None             # the ended battle it came after (its regroup, J-12, is gone); None: none, or not known


class JcRules(TypedDict):
    """The game's rules variants (``new`` options, fixed for the game)."""

    cleopatra: str                 # J-2: round (she fights for her new side next round) | turn
    leaders: NotRequired[str]      # J-7 on the owner's behalf: last (a leader last); none: J-14's order


class JcGameView(TypedDict):
    rules: JcRules
    battle: BattleView
    history: list[BattleRecord]
    campaign: CampaignView
    vp: dict[str, int]
    control: dict[str, str | None]    # VP city -> holder (J-17)
    cards: CardsView | None
    winter: WinterView | None         # the last winter's checklist (None before the first)


class JcView(SessionView, JcGameView):
    """``state`` of a ``jc-battle`` session."""
