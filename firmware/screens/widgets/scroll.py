"""Scrolling: the one scroll bar, the one scroll state, and the text screens built on them.

:func:`scroll_bar` is the only scroll mark on the panel (2 px on the right edge, its length the part
shown); :class:`Scroll` is the only scroll handler (up/down by a row, never past either end).
:class:`TextScreen` (wrapped text) and :class:`TableScreen` (left/right columns) use both.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent

BODY_TOP = base.TITLE_H + 1                  # the first pixel under the title bar
BODY_H = base.H - base.TITLE_H - 1           # the pixels under it


def scroll_bar(draw: ImageDraw.ImageDraw, top: int, shown: int, total: int, y0: int = BODY_TOP,
               height: int = BODY_H) -> None:
    """The scroll mark of ``total`` rows of which ``shown`` from ``top`` are on screen, in the
    ``height`` pixels from ``y0`` on the right edge; nothing when everything is shown."""
    if total <= shown:
        return
    h = max(3, height * shown // total)
    y = y0 + (height - h) * min(top, total - shown) // max(1, total - shown)
    draw.rectangle((base.W - 2, y, base.W - 1, y + h - 1), fill=1)


def position(top: int, shown: int, total: int) -> str:
    """The title bar's count of a scrolled text: ``top+1`` of its positions (``1/16`` … ``16/16``
    for 19 rows shown 4 at a time: at the end when its last row shows); "" when all of it shows."""
    return f"{top + 1}/{total - shown + 1}" if total > shown else ""


@dataclass
class Scroll:
    """Which of ``total`` rows is the first of the ``shown`` ones on screen."""

    top: int = 0

    def fit(self, total: int, shown: int) -> int:
        """The first row shown, kept within the rows (call before drawing)."""
        self.top = max(0, min(self.top, total - shown))
        return self.top

    def move(self, what: Intent, total: int, shown: int) -> bool:
        """Scroll one row for PREV/NEXT; True if ``what`` was a scroll (even at an end)."""
        if what is Intent.PREV:
            self.top = max(0, self.top - 1)
        elif what is Intent.NEXT:
            self.top = min(max(0, total - shown), self.top + 1)
        else:
            return False
        return True

    def at_end(self, total: int, shown: int) -> None:
        """Show the last rows (a log opens on its newest entries)."""
        self.top = max(0, total - shown)


def wrapped(body: str | Sequence[str], width: int = base.COLS) -> list[str]:
    """``body`` (a text, or one entry per item) wrapped to the panel, one row per string (the
    scroll bar takes the 2 px a glyph cell leaves blank at the right edge)."""
    return base.wrap(body, width) if isinstance(body, str) else [r for line in body for r in base.wrap(line, width)]


class TextScreen:
    """Read-only wrapped text with scrolling (why screens, logs, about); any other key closes it."""

    def __init__(self, title: str, body: str | Sequence[str]) -> None:
        self.title = title
        self.rows = wrapped(body)
        self.scroll = Scroll()

    @property
    def top(self) -> int:
        return self.scroll.top

    @top.setter
    def top(self, value: int) -> None:
        self.scroll.top = value

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        top = self.scroll.fit(len(self.rows), base.ROWS)
        pos = position(top, base.ROWS, len(self.rows))
        if len(self.title) + len(pos) + 1 > base.COLS:      # the title whole: the scroll bar shows where
            pos = ""
        base.title_bar(draw, self.title, pos)
        base.lines(draw, self.rows[top:top + base.ROWS])
        scroll_bar(draw, top, base.ROWS, len(self.rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        if not self.scroll.move(what, len(self.rows), base.ROWS) and what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()


class TableScreen:
    """Rows of (left, right) text with scrolling and no cursor (forces, score details)."""

    def __init__(self, title: str, rows: Sequence[tuple[str, str]], status: str = "") -> None:
        self.title = title
        self.rows = list(rows)
        self.status = status
        self.scroll = Scroll()

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        top = self.scroll.fit(len(self.rows), base.ROWS)
        pos = self.status or position(top, base.ROWS, len(self.rows))
        if not self.status and len(self.title) + len(pos) + 1 > base.COLS:   # the scroll bar shows where
            pos = ""
        base.title_bar(draw, self.title, pos)
        for i, (left, right) in enumerate(self.rows[top:top + base.ROWS]):
            y = base.row_y(i)
            base.put(draw, 1, y, base.clip(left, base.COLS - len(right) - 1))
            base.put(draw, base.W - len(right) * base.CHAR_W - 3, y, right)
        scroll_bar(draw, top, base.ROWS, len(self.rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        if not self.scroll.move(what, len(self.rows), base.ROWS) and what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
