"""Julius Caesar's typed action builders: the console line of each action (docs/protocol/jc.md), as
the journal keeps it. Screens act through these; engine/jc/console.py parses the lines."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.actions import Line, faces, words
from engine.jc.replies import (
    AddReply,
    AdviseReply,
    CardsReply,
    DisbandReply,
    FightReply,
    GainReply,
    HandReply,
    LoseReply,
    NextBattleReply,
    OddsReply,
    OwnerReply,
    PlayReply,
    RosterReply,
    StartReply,
    TurnReply,
    VpReply,
    WinterReply,
)
from engine.replies import NewReply, Reply

Side = Literal["caesar", "pompey"]
Role = Literal["attacker", "defender"]
Dice = Literal["digital", "physical"]
Cleopatra = Literal["round", "turn"]      # J-2: when she fights for the side she joins


def _battle_opts(attacker: str, surprise: bool, dice: Dice) -> str:
    return f"attacker={attacker} surprise={int(surprise)} dice={dice}"


def new(attacker: str, surprise: bool, dice: Dice, cleopatra: Cleopatra | None = None) -> Line[NewReply]:
    """A new game; ``cleopatra``: the J-2 rule of her turn after she changes side (None: the
    language's, as the console adds it to the stored line)."""
    rule = f" cleopatra={cleopatra}" if cleopatra else ""
    return Line(f"new jc-battle {_battle_opts(attacker, surprise, dice)}{rule}")


def next_battle(attacker: str, surprise: bool, dice: Dice) -> Line[NextBattleReply]:
    return Line(f"next-battle {_battle_opts(attacker, surprise, dice)}")


def roster(side: str) -> Line[RosterReply]:
    return words("roster", side)


def add(role: Role, block: str, strength: int, reserve: bool = False, navis_reserve: bool = False) -> Line[AddReply]:
    """A roster block at ``strength`` (J-8: ``reserve``; ``navis_reserve``: the attacking navis of
    the main force go into the reserve in the same action)."""
    return words("add", role, block, f"strength={strength}", "reserve=1" if reserve else "",
                 "navis-reserve=1" if navis_reserve else "")


def remove(block: str) -> Line[Reply]:
    """A block taken out of the battle being set up (``key``: its id, or a rated block's name)."""
    return words("remove", block)


def add_rated(role: Role, initiative: str, firepower: int, strength: int, leader: bool = False,
              reserve: bool = False, navis_reserve: bool = False) -> Line[AddReply]:
    """A block known only by its rating (``C3``); ``navis_reserve`` as for :func:`add`."""
    return words("add", role, f"rating={initiative}{firepower}", f"strength={strength}",
                 "leader=1" if leader else "", "reserve=1" if reserve else "",
                 "navis-reserve=1" if navis_reserve else "")


def start() -> Line[StartReply]:
    return Line("start")


def fight() -> Line[FightReply]:
    return Line("fight")


def odds() -> Line[OddsReply]:
    return Line("odds")


def advise() -> Line[AdviseReply]:
    return Line("advise")


def fire(block: str | None = None, dice: Sequence[int] | None = None) -> Line[TurnReply]:
    """``block`` fires (the current one when None), with the faces thrown on the table or the device's."""
    return words("fire", block, f"dice={faces(dice)}" if dice is not None else "")


def auto(dice: Sequence[int] | None = None) -> Line[TurnReply]:
    """The next decision by the J-14 policy (a fire with these faces when the dice are physical)."""
    return words("auto", f"dice={faces(dice)}" if dice is not None else "")


def hit(block: str | None = None) -> Line[TurnReply]:
    """The pending hit on ``block`` (J-7), or where J-14 puts it (None)."""
    return words("hit", block)


def pass_turn(block: str) -> Line[TurnReply]:
    return words("pass", block)


def retreat(block: str, blocked: bool = False) -> Line[TurnReply]:
    """``block`` retreats (J-6); ``blocked``: it has no way out."""
    return words("retreat", block, "blocked=1" if blocked else "")


def control(city: str, holder: str | None) -> Line[VpReply]:
    """``city`` (J-17) to ``holder`` (None: vacant)."""
    return words("control", city.replace(" ", "_"), holder or "vacant")


def lose(block: str) -> Line[LoseReply]:
    """One step off ``block`` outside battle (Vulcan, Jupiter on a leader or navis)."""
    return words("lose", block)


def gain(block: str) -> Line[GainReply]:
    """One step added to ``block`` by a levy point outside battle (J-20)."""
    return words("gain", block)


def disband(block: str) -> Line[DisbandReply]:
    """``block`` back to its owner's levy pool, its steps forfeit (winter: rules 8.3-8.5)."""
    return words("disband", block)


def owner(block: str, side: Side) -> Line[OwnerReply]:
    """``block`` fights for ``side`` from now (Cleopatra, a Jupiter defection; never a leader or navis)."""
    return words("owner", block, side)


def deal() -> Line[CardsReply]:
    return Line("deal")


def hand(side: str) -> Line[HandReply]:
    return words("hand", side)


def discard(side: str, card: str) -> Line[CardsReply]:
    return words("discard", side, card)


def play(side: str, card: str) -> Line[PlayReply]:
    return words("play", side, card)


def winter(quiet: bool = False) -> Line[WinterReply]:
    """The winter (J-19); ``quiet``: the year it closes had no battle and no card played."""
    return Line("winter quiet=1" if quiet else "winter")
