"""The Sword of Rome's console responses (docs/protocol/sword.md), as TypedDicts: what a screen
reads from ``ctx.run(sword_actions.…)``, and the roll the session keeps in its ``last`` (the same
fields with their ``kind``). The envelope (``ok``, ``error``, ``message``, ``state``) is
engine/replies.py :class:`Reply`; the fields below are there when ``ok`` is true."""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from engine.replies import Reply


# -- the rolls (engine/sword/requests.py; kept in ``state.last``) -----------------------------------------
class BattleSide(TypedDict):
    units: int                  # every unit fighting, its flanking force's among them
    flank: NotRequired[int]     # a side with a flanking force: its units (W-2)
    size: NotRequired[int]      # ... and the army size, units + half the flanking ones rounded up (W-2, W-4's column)
    dice: list[int]
    unread: NotRequired[list[int]]  # the Sacred Band's die the loss table leaves out: it reads the three highest (W-4)
    modifier: int
    total: int
    losses: int
    table_losses: int
    eliminated: bool            # every one of its units eliminated (battle + retreat losses); its leaders are not (seed 8.4)


class Reading(TypedDict):
    side: str
    die: int
    reads: str


class BattleFields(TypedDict):
    attacker: BattleSide
    defender: BattleSide
    winner: str
    loser: str
    support: int
    retreat_losses: int
    readings: list[Reading]
    sacred_band: str | None
    dice_source: dict[str, str]


class TacticsFields(TypedDict):
    rating: int
    mod: int
    chance: float
    chance_fraction: str
    roll: int
    modified: int
    success: bool
    dice_source: str
    effect: NotRequired[str]
    """With ``kind=`` (intercept, avoid, pursuit, refuse): what the result does."""


class NavalFields(TypedDict):
    roll: int
    modifier: int
    modified: int
    result: str


class CheckFields(TypedDict):
    check: str
    dice: list[int]
    sum: int
    modifier: int
    total: int
    result: str


class LastBattle(BattleFields):
    kind: Literal["battle"]


class LastTactics(TacticsFields):
    kind: Literal["tactics"]
    test: NotRequired[str]
    """The test's ``kind=`` when given (``intercept|avoid|pursuit|refuse``, W-1)."""


class LastNaval(NavalFields):
    kind: Literal["naval"]


class LastCheck(CheckFields):
    kind: Literal["check"]


LastRoll = LastBattle | LastTactics | LastNaval | LastCheck
"""The session view's ``last``: the last roll kept, with its ``kind``."""


class BattleReply(Reply, BattleFields):
    pass


class UndoneBattle(TypedDict):
    """The values a battle an undo took back was fought with (W-2; engine/sword/undone.py): each
    army's units besides its flanking force, the flanking units, the net bonuses, the Sacred Band's
    side and the dice thrown on the table (null: the device's)."""

    attackers: int
    defenders: int
    att_flank: int
    def_flank: int
    mod: int
    defmod: int
    sacred_band: str | None
    att_dice: list[int] | None
    def_dice: list[int] | None


class UndoneBattleReply(Reply):
    """``undone-battle``: the battle an undo took back where the session stands, or null."""

    battle: UndoneBattle | None


class UndoneTactics(TypedDict):
    """The values a tactics test an undo took back was asked with (W-1; engine/sword/undone.py):
    the rating, the modifier, the test given by ``kind=`` (null: a bare test) and the die thrown on
    the table (null: the device's)."""

    rating: int
    mod: int
    test: str | None
    die: int | None


class UndoneTacticsReply(Reply):
    """``undone-tactics``: the tactics test an undo took back where the session stands, or null."""

    test: UndoneTactics | None


class UndoneNaval(TypedDict):
    """The values a naval move an undo took back was asked with (W-8; engine/sword/undone.py): the
    modifier, a friendly port, Carthage's extra operations and the die thrown on the table (null:
    the device's)."""

    mod: int
    friendly_port: bool
    extra_ops: int
    die: int | None


class UndoneNavalReply(Reply):
    """``undone-naval``: the naval move an undo took back where the session stands, or null."""

    move: UndoneNaval | None


class UndoneCheck(TypedDict):
    """The values a 2d6 check an undo took back was asked with (W-9; engine/sword/undone.py): its
    table, the modifier, a siege by the Gauls and the dice thrown on the table (null: the device's)."""

    check: str
    mod: int
    gauls: bool
    dice: list[int] | None


class UndoneCheckReply(Reply):
    """``undone-check``: the 2d6 check an undo took back where the session stands, or null."""

    check: UndoneCheck | None


class TacticsReply(Reply, TacticsFields):
    kind: NotRequired[str]
    """The test's ``kind=`` when given (``intercept|avoid|pursuit|refuse``); in ``last`` it is
    ``test``, beside the record's own ``kind`` = ``tactics`` (engine/sword/session.py)."""


class NavalReply(Reply, NavalFields):
    pass


class CheckReply(Reply, CheckFields):
    pass


# -- the turn and the tracks (engine/sword/session.py) ---------------------------------------------------
class ConsulsReply(Reply):
    drawn: list[str]


class AdvanceReply(Reply):
    finished: bool
    turn: NotRequired[int]
    round: NotRequired[int]
    winner: NotRequired[str]
    standings: NotRequired[list[str]]
    desperate_order_before: NotRequired[list[str]]
    """After round 5: who could still play a Desperate Times card at its end, most VP first (those
    that had played their one there left out: rule 7.4.5)."""


class VictoryReply(Reply):
    """``victory <power>``: an automatic victory (W-11) ends the game."""

    finished: bool
    winner: str
    automatic: bool
    turn: int
    standings: list[str]


class VpReply(Reply):
    vp: dict[str, int]
    standings: list[str]


class Scoring(TypedDict):
    """``scoring <power> outside=N missing=M [auto=T]`` (W-11)."""

    power: str
    change: int
    vp: dict[str, int]
    standings: list[str]
    automatic_victory: NotRequired[bool]
    """With ``auto=T``: the power's VP reached T."""


class DesperateReply(Reply):
    plays: str
    """The power that plays (W-12); at the end of round 5 (``end``) the first of ``played``."""
    played: list[str]
    """Every power that played a card: the one of ``plays``, or at the end of round 5 each power
    listed, most VP first (rule 7.4.5)."""
    kept: list[str]
    end: bool
    """Whether the cards were played at the end of round 5 (``end=1``)."""
    desperate: dict[str, int]


class UnrestReply(Reply):
    unrest: int
    hand_size_modifier: int
    vp_modifier: int
    carthage_vp: int
