"""The VP track: one row per holder of victory points (a power, a city) with its figure; left/right
change the figure under the cursor (a VP more or less, the next holder of a city), A closes."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from firmware.screens.ctx import Ctx
from firmware.screens.widgets.listing import Item, ListScreen, figure

Row = tuple[str, str, str]          # (ident, label, the figure as shown)


class VPTrack(ListScreen):
    """``rows(ctx)`` gives the track's rows, ``change(ctx, ident, by)`` changes one by ±1 (a console
    line, journaled), ``score(ctx)`` writes the title bar's right side. A long label (Новий Карфаген
    beside «Помпей») takes two rows."""

    wrap_rows = True

    def __init__(self, title: Callable[[], str], rows: Callable[[Ctx], list[Row]],
                 change: Callable[[Ctx, str, int], None], score: Callable[[Ctx], str]) -> None:
        super().__init__()
        self._title = title
        self.rows = rows
        self.change = change
        self.score = score

    @property
    def title(self) -> str:  # type: ignore[override]
        return self._title()

    def status(self, ctx: Ctx) -> str:
        return self.score(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        rows = self.rows(ctx)
        self.cursor = min(self.cursor, max(0, len(rows) - 1))
        return [Item(label, None, figure(value) if i == self.cursor else value, ident=ident,
                     adjust=partial(self._change, ident=ident))
                for i, (ident, label, value) in enumerate(rows)]

    def _change(self, ctx: Ctx, by: int, ident: str) -> None:
        self.change(ctx, ident, by)

    def go(self, ctx: Ctx) -> None:
        ctx.pop()
