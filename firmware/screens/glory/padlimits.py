"""For the Glory of Rome: how far a row of the score pad goes for a player — the rulebook's limits
on what one table can hold (G-9 legions, G-11 goods sets, G-12 Pantheon parts) — and what a push
past it says (firmware/screens/glory/score.py ``SheetPad``)."""
from __future__ import annotations

from engine.glory.console import BATTLEFIELD_ROWS, GOODS, PANTHEON_COMMON, SHEET_LIMITS
from engine.glory.sheet import common_parts_most, own_parts_most
from engine.glory.views import GloryView
from firmware.screens.glory.text import Msg

SHEET_MAX = SHEET_LIMITS       # the engine's limits, read from the data in one place (engine/glory/console.py)


def _figures(view: GloryView, player: str) -> dict[str, int]:
    return view.get("sheet", {}).get(player, {})


def own_most(view: GloryView, entry: str, player: str) -> int:
    """The most ``entry`` can hold beside ``player``'s other rows: a Pantheon has at most 2 common
    parts (gold, silver and bronze together) and, until one finishes its foundation, only the
    foundation's 2 parts of the player's colour (G-12); a player at most 3 goods sets (G-11) and
    7 legions on the three battlefields together (G-9: «Легионы 7/7»)."""
    figures = _figures(view, player)
    limit = SHEET_MAX[entry]
    for group in (PANTHEON_COMMON, GOODS, BATTLEFIELD_ROWS):
        total = SHEET_MAX[group[0]]                    # the group's limit: every row of it has it
        if entry in group:
            limit = min(limit, total - sum(figures.get(k, 0) for k in group if k != entry))
    if entry == "own":
        limit = min(limit, own_parts_most(sum(figures.get(k, 0) for k in PANTHEON_COMMON)))
    return limit


def table_most(view: GloryView, entry: str, player: str) -> int | None:
    """On a common Pantheon row, the most ``player`` can hold of its kind beside the other
    players' (G-12: the table has 2 gold parts in all, one a level; :func:`common_parts_most`),
    else None. A mix no table can hold is refused at the scores, its first page naming the kind
    typed too often and the players holding it (engine/glory/sheet.py ``_too_many``)."""
    if entry not in PANTHEON_COMMON:
        return None
    sheet = view.get("sheet", {})
    others = sum(sheet.get(p, {}).get(entry, 0) for p in view["players"] if p != player)
    return common_parts_most(len(view["players"]))[entry] - others


def most(view: GloryView, entry: str, player: str) -> int:
    """The most ``entry`` can hold for ``player``: :func:`own_most` and :func:`table_most`."""
    table = table_most(view, entry, player)
    own = own_most(view, entry, player)
    return max(0, own if table is None else min(own, table))


def past_most(view: GloryView, entry: str, player: str) -> Msg:
    """What a push past ``player``'s most on ``entry`` says: the rule that stops it."""
    top = most(view, entry, player)
    table = table_most(view, entry, player)
    if table is not None and table < own_most(view, entry, player):   # the others hold the kind's parts
        return _table_parts(entry, player, top, len(view["players"]))
    if entry in PANTHEON_COMMON:
        return Msg("{}: at most {} common Pantheon parts.", player, SHEET_MAX["gold"])
    if entry == "own" and top < SHEET_MAX[entry]:
        # G-12: the temple's parts stand on a finished foundation (5 own parts and no common one
        # were taken here, and refused only at the scores)
        return Msg("{}: at most {} own-colour part without a common part (G-12).",
                   player, top,
                   plural="{}: at most {} own-colour parts without a common part (G-12).", n=top)
    if entry in GOODS:
        return Msg("{}: at most {} goods sets count.", player, SHEET_MAX["tools"])
    if entry in BATTLEFIELD_ROWS and top < SHEET_MAX[entry]:   # the others hold the rest
        legions = SHEET_MAX[BATTLEFIELD_ROWS[0]]
        return Msg("{}: at most {} legion on the battlefields in all.", player, legions,
                   plural="{}: at most {} legions on the battlefields in all.", n=legions)
    return Msg("{}: {} is the most on this row.", player, top)


def _table_parts(kind: str, player: str, top: int, players: int) -> Msg:
    """What a push past the table's common Pantheon parts of ``kind`` says (G-12: each level's gold
    goes to the first to finish it, silver to the second, bronze to the others): the player's most
    there and the table's in all."""
    total = common_parts_most(players)[kind]
    if kind == "gold":
        return Msg("{}: at most {}: {} gold Pantheon part at the table (G-12).", player, top, total,
                   plural="{}: at most {}: {} gold Pantheon parts at the table (G-12).", n=total)
    if kind == "silver":
        return Msg("{}: at most {}: {} silver Pantheon part at the table (G-12).", player, top, total,
                   plural="{}: at most {}: {} silver Pantheon parts at the table (G-12).", n=total)
    return Msg("{}: at most {}: {} bronze Pantheon part at the table (G-12).", player, top, total,
               plural="{}: at most {}: {} bronze Pantheon parts at the table (G-12).", n=total)
