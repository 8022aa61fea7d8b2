"""Julius Caesar: a side's blocks grouped as the rulebook sorts them (J-1, J-2): the leaders, the
legions, the equitatus, the auxilia, the navis, each a row that opens its blocks; a kind the side
has one block of (the ballista, the elephant, Cleopatra, a last leader) is that block's row itself.

A side has about 31 blocks: as one list a block near its end (Cleopatra, Navis 5) was 30 presses
away; grouped, about 8 rows and at most 15 legions (scripts/presses/jc.py measures it)."""
from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import partial

from engine.jc.replies import RosterBlock
from engine.text import N_
from firmware.screens.ctx import Ctx
from firmware.screens.jc.text import _
from firmware.screens.widgets import Item, ListScreen

# the kinds that come several to a side, as the Russian summary counts them (3 блока лидера,
# 14 легионов, 4 отряда кавалерии — «Эквиты» on the blocks —, 4 отряда ауксилии, 5 судов)
KIND_WORDS = {"leader": N_("Leaders"), "legion": N_("Legions"), "equitatus": N_("Equitatus"),
              "auxilia": N_("Auxilia"), "navis": N_("Navis")}


class GroupedBlocks(ListScreen):
    """A list of a side's blocks by kind: subclasses give ``leading`` (rows before the blocks) and
    ``block_rows`` (each block in roster order with its row); a kind's row opens a copy of the
    screen that lists that kind's blocks only (``kind``)."""

    kind = ""                 # "" : every kind, grouped; else the one kind listed ("group": ``group``'s blocks)
    wrap_rows = True          # a long name (a block gone over: "Equitatus 2 (P)  B2 IV") takes two rows

    def leading(self, ctx: Ctx) -> list[Item]:
        return []

    def block_rows(self, ctx: Ctx) -> Sequence[tuple[RosterBlock, Item]]:
        return []

    def empty(self, ctx: Ctx) -> list[Item]:
        return [Item(_("No blocks in play."), lambda c: c.pop())]

    def trailing(self, ctx: Ctx) -> list[Item]:
        """Rows after the blocks (the Add list's "By rating…": seldom wanted, never in the way)."""
        return []

    def group(self, ctx: Ctx) -> set[str]:
        """The blocks of the group ``kind = "group"`` lists (a subclass's: the last battle's)."""
        return set()

    def likeliest(self, ctx: Ctx, rows: Sequence[tuple[RosterBlock, Item]]) -> Sequence[tuple[RosterBlock, Item]]:
        """A kind's (or the group's) rows in the order its list shows them: the roster's, or a
        subclass's likeliest first. The kinds themselves stay in the roster's order."""
        return rows

    @property
    def kind_title(self) -> str:
        return _(KIND_WORDS[self.kind]) if self.kind in KIND_WORDS else ""

    def group_head(self, ctx: Ctx, blocks: Sequence[RosterBlock]) -> list[Item]:
        """Rows above the group's blocks ``blocks`` (a subclass's: the Add list's "Add all")."""
        return []

    def listed(self, ctx: Ctx) -> list[tuple[RosterBlock, Item]]:
        """The blocks (with their rows) a kind's or the group's list shows, in its order; none on
        the list of every kind."""
        rows = self.block_rows(ctx)
        if self.kind == "group":
            chosen = self.group(ctx)
            return [(b, item) for b, item in self.likeliest(ctx, rows) if b["id"] in chosen]
        if self.kind:
            return [(b, item) for b, item in self.likeliest(ctx, rows) if b["kind"] == self.kind]
        return []

    def items(self, ctx: Ctx) -> list[Item]:
        if self.kind:
            listed = self.listed(ctx)
            if not listed:
                return self.empty(ctx)
            head = self.group_head(ctx, [b for b, _item in listed]) if self.kind == "group" else []
            return head + [item for _b, item in listed]
        rows = self.block_rows(ctx)
        kinds: dict[str, list[Item]] = {}
        for b, item in rows:
            kinds.setdefault(b["kind"], []).append(item)
        out = self.leading(ctx)
        for kind, members in kinds.items():
            if len(members) > 1 and kind in KIND_WORDS:
                out.append(Item(_(KIND_WORDS[kind]), partial(self.open_kind, kind=kind),
                                str(len(members)), ident=f"kind:{kind}"))
            else:
                out += members
        return (out + self.trailing(ctx)) or self.empty(ctx)

    def open_kind(self, ctx: Ctx, kind: str) -> None:
        """This screen again, listing the blocks of ``kind`` only."""
        sub = copy.copy(self)
        sub.reset()
        sub.kind = kind
        ctx.push(sub)
