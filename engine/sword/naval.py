"""Naval movement (W-8): 1d6 plus modifiers, read on ``engine/data/sword_naval.json``."""
from __future__ import annotations

from dataclasses import dataclass

from engine.sword.tables import naval_table
from engine.sword.text import Msg


@dataclass(frozen=True)
class NavalRoll:
    die: int
    modifier: int
    modified: int
    result: str


def modifier(mod: int, extra_ops: int, friendly_port: bool) -> int:
    """Net modifier: ``mod`` + 1 per extra Carthaginian operations point, -2 into a friendly port."""
    m = naval_table()["modifiers"]
    return mod + extra_ops * int(m["extra_ops_each"]) + (int(m["friendly_port"]) if friendly_port else 0)


def naval(die: int, net: int) -> NavalRoll:
    """Read ``die + net`` on the naval table: success, return or attrition (W-8)."""
    modified = die + net
    for row in naval_table()["rows"]:
        if row["min"] <= modified <= row["max"]:
            return NavalRoll(die, net, modified, str(row["result"]))
    raise ValueError(Msg("the naval table has no row for {}", modified))
