"""What the device shows when a screen fails: what happened, that the game is safe, and a way on.

The App catches any exception from a screen's ``render`` or ``key`` (firmware/app.py), records it on
stderr and shows this screen. It reads nothing from the session, so it cannot fail the same way.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from PIL import Image

from firmware.i18n import _
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent

log = logging.getLogger(__name__)


class ErrorScreen:
    """A short notice; A or right: go on (back to the menu); KEY3 or down+A on "Start over":
    archive this session and start an empty one (for a session whose screens keep failing)."""

    def __init__(self, what: str, on_go_on: Callable[[Ctx], None],
                 on_start_over: Callable[[Ctx], None]) -> None:
        self.what = what
        self.on_go_on = on_go_on
        self.on_start_over = on_start_over
        self.cursor = 0

    @property
    def title(self) -> str:
        return _("Screen error")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title)
        safe = _("Your game is safe: every step is saved.")
        rows = base.wrap(safe + " " + self.what)
        if len(rows) > base.ROWS - 2:       # no room for what failed: it is on stderr already
            rows = base.wrap(safe)
        base.lines(draw, [base.clip(r) for r in rows[: base.ROWS - 2]])
        choices = [_("Go on"), _("Start over")]
        for i, label in enumerate(choices):
            y = base.row_y(base.ROWS - 2 + i)
            base.text(draw, 1, y, base.clip(("▶ " if i == self.cursor else "  ") + label), invert=i == self.cursor)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("row", key)
        if what in (Intent.PREV, Intent.NEXT):
            self.cursor = 1 if what is Intent.NEXT else 0
        elif what is Intent.SELECT:
            (self.on_go_on if self.cursor == 0 else self.on_start_over)(ctx)
        elif what is Intent.BACK:
            self.on_go_on(ctx)


def fallback_frame(message: str) -> Image.Image:
    """A frame drawn with nothing but the body font: the last resort when even the error
    screen cannot be drawn."""
    img, draw = base.frame()
    try:
        base.lines(draw, base.wrap(message)[: base.ROWS + 1])
    except Exception:  # noqa: BLE001 - an empty frame is still better than an exit
        log.exception("even the fallback frame could not be drawn")
    return img
