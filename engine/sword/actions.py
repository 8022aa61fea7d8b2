"""The Sword of Rome's typed action builders: the console line of each action
(docs/protocol/sword.md), as the journal keeps it. Screens act through these."""
from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Line, faces, words
from engine.replies import NewReply
from engine.sword.replies import (
    AdvanceReply,
    BattleReply,
    CheckReply,
    ConsulsReply,
    DesperateReply,
    NavalReply,
    TacticsReply,
    UndoneBattleReply,
    UndoneCheckReply,
    UndoneNavalReply,
    UndoneTacticsReply,
    UnrestReply,
    VictoryReply,
    VpReply,
)


def new(powers: Sequence[str]) -> Line[NewReply]:
    return Line(f"new sword players={','.join(powers)}")


def consuls() -> Line[ConsulsReply]:
    return Line("consuls")


def advance() -> Line[AdvanceReply]:
    return Line("advance")


def battle(attackers: int, defenders: int, mod: int, defmod: int, sacred_band: str | None = None,
           attack_dice: Sequence[int] | None = None, defence_dice: Sequence[int] | None = None,
           att_flank: int = 0, def_flank: int = 0) -> Line[BattleReply]:
    """A battle (W-2..W-7); the dice thrown on the table when given (3 or 4 a side); ``att_flank``,
    ``def_flank``: a side's flanking units besides its army (W-2: half of them, rounded up, count in
    its army size, the loss table's column), on the line only when there are some."""
    return words("battle", f"att={attackers}", f"def={defenders}",
                 f"att-flank={att_flank}" if att_flank else "", f"def-flank={def_flank}" if def_flank else "",
                 f"mod={mod}", f"defmod={defmod}",
                 f"sacred-band={sacred_band}" if sacred_band else "",
                 f"att-dice={faces(attack_dice)}" if attack_dice is not None else "",
                 f"def-dice={faces(defence_dice)}" if defence_dice is not None else "")


def undone_battle() -> Line[UndoneBattleReply]:
    """The battle an undo took back where the session stands (its values, W-2), if any: kept by
    the session's undo record, after a restart too (engine/sword/undone.py)."""
    return Line("undone-battle")


def undone_tactics() -> Line[UndoneTacticsReply]:
    """The tactics test an undo took back where the session stands (its values, W-1), if any: kept
    by the session's undo record, after a restart too (engine/sword/undone.py)."""
    return Line("undone-tactics")


def tactics(rating: int, mod: int, die: int | None = None, kind: str | None = None) -> Line[TacticsReply]:
    """A tactics test (W-1); ``kind`` (intercept, avoid, pursuit, refuse) names the test, whose
    result then says what it does (the reply's ``effect``)."""
    return words("tactics", rating, f"mod={mod}", f"die={die}" if die is not None else "",
                 f"kind={kind}" if kind else "")


def undone_naval() -> Line[UndoneNavalReply]:
    """The naval move an undo took back where the session stands (its values, W-8), if any: kept by
    the session's undo record, after a restart too (engine/sword/undone.py)."""
    return Line("undone-naval")


def naval(mod: int, friendly_port: bool, extra_ops: int | None = None, die: int | None = None) -> Line[NavalReply]:
    """A naval move (W-8); ``extra_ops``: Carthage's extra operations, when Carthage plays."""
    return words("naval", f"mod={mod}", f"friendly-port={int(friendly_port)}",
                 f"extra-ops={extra_ops}" if extra_ops is not None else "", f"die={die}" if die is not None else "")


def undone_check() -> Line[UndoneCheckReply]:
    """The 2d6 check an undo took back where the session stands (its values, W-9), if any: kept by
    the session's undo record, after a restart too (engine/sword/undone.py)."""
    return Line("undone-check")


def check(kind: str, dice: Sequence[int] | None = None, gauls: bool = False) -> Line[CheckReply]:
    """A 2d6 check (W-9); ``gauls``: a siege by the Gauls (-1)."""
    return words("check", kind, f"dice={faces(dice)}" if dice is not None else "", "gauls=1" if gauls else "")


def vp(power: str, delta: int) -> Line[VpReply]:
    return Line(f"vp {power} {delta:+d}")


def desperate(powers: Sequence[str], end: bool | None = None) -> Line[DesperateReply]:
    """Who wants to play a Desperate Times card now (W-12); ``end``: whether it is the end of round
    5 (each plays one, rule 7.4.5) or an interruption (the fewest VP plays, rule 7.4.2), which a
    line listing several powers in round 5 says."""
    return words("desperate", ",".join(powers), "" if end is None else f"end={int(end)}")


def unrest(level: int) -> Line[UnrestReply]:
    """Carthaginian unrest set to ``level`` (W-13)."""
    return Line(f"unrest ={level}")


def retreat(losses: int) -> Line[BattleReply]:
    """The loser's retreat losses in the session's most recent battle, known once it has retreated
    (W-5): the battle's fields again, its support gain counting them (a new number replaces the old)."""
    return words("retreat", f"losses={losses}")


def victory(power: str) -> Line[VictoryReply]:
    """An automatic victory (W-11): ``power``'s VP reached the figure printed on the map for this
    turn; the game is over."""
    return Line(f"victory {power}")
