"""Julius Caesar: what the battle holds and what it did — the forces table (every block's rating
and strength, or what became of it) and the battle log — as they are now (taken off when the game
changes under them)."""
from __future__ import annotations

from engine.jc.roster import roman
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.jc.text import _
from firmware.screens.jc.words import GAME, STATUS_WORDS, fitted_name, side_name, view_of
from firmware.screens.play import Snapshot, TableSnapshot
from firmware.screens.widgets import TableScreen, TextScreen


def forces_screen(ctx: Ctx) -> TableScreen:
    """Every block with its rating and strength, or what became of it."""
    b = view_of(ctx)["battle"]
    rows: list[tuple[str, str]] = []
    for role in ("attacker", "defender"):
        side = b[role]
        rows.append((side_name(side).upper(), _("attacks") if b["attacker_now"] == side else _("defends")))
        for x in b["blocks"]:
            if x["side"] != side:
                continue
            right = (_(STATUS_WORDS[x["status"]]) if x["status"] in STATUS_WORDS
                     else f"{x['rating']} {roman(x['strength'])}")
            # the name fitted beside it, keeping its number (J-7: «Equitat… 1», not «Equitatus…» twice)
            rows.append((fitted_name(x, base.COLS - len(right) - 1), right))
    return TableSnapshot((GAME,), _("Forces"), rows)


def log_screen(ctx: Ctx) -> TextScreen:
    """Every turn of the battle and what the rules did by themselves, in the order it happened
    (reserves arriving between round 1 and round 2, a leader killed after the fire); opens at the end."""
    b = view_of(ctx)["battle"]
    screen = Snapshot((GAME,), _("Battle log"), list(b["log"]) or [_("Nothing yet.")])
    screen.top = max(0, len(screen.rows) - base.ROWS)
    return screen
