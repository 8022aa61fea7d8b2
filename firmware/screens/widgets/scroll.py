"""Scrolling: the one scroll bar, the one scroll state, and the text screens built on them.

:func:`scroll_bar` is the only scroll mark on the panel (the last pixel column, its length the part
shown); :class:`Scroll` is the only scroll handler (up/down by a row, never past either end).
:class:`TextScreen` (wrapped text) and :class:`TableScreen` (left/right columns) use both.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from firmware.screens import base
from firmware.screens.ctx import Ctx, Step, taken_back
from firmware.screens.widgets.keys import Intent, intent

BODY_TOP = base.TITLE_H + 1                  # the first pixel under the title bar
BODY_H = base.H - base.TITLE_H - 1           # the pixels under it


BESIDE_MARK = base.COLS - 1                  # a row beside the scroll mark: the mark keeps a glyph's column


def beside(paras: str | Sequence[str], shown: int) -> int:
    """The width ``paras`` wrap to on ``shown`` rows: the panel's when they all show, else one
    character less — a row beside the scroll mark leaves it its column (a 21st letter ended a
    blank pixel column before the mark and read as touching it: «здійснити», «зайнятої»)."""
    return base.COLS if len(wrapped(paras)) <= shown else BESIDE_MARK


def scroll_bar(draw: ImageDraw.ImageDraw, top: int, shown: int, total: int, y0: int = BODY_TOP,
               height: int = BODY_H) -> None:
    """The scroll mark of ``total`` rows of which ``shown`` from ``top`` are on screen, in the
    ``height`` pixels from ``y0`` on the panel's last column (the rows beside it wrap to
    :func:`beside`'s width: the last character column stays blank); nothing when everything is shown."""
    if total <= shown:
        return
    h = max(3, height * shown // total)
    y = y0 + (height - h) * min(top, total - shown) // max(1, total - shown)
    draw.rectangle((base.W - 1, y, base.W - 1, y + h - 1), fill=1)


def position(top: int, shown: int, total: int) -> str:
    """The title bar's count of a scrolled text: ``top+1`` of its positions (``1/16`` … ``16/16``
    for 19 rows shown 4 at a time: at the end when its last row shows); "" when all of it shows."""
    return f"{top + 1}/{total - shown + 1}" if total > shown else ""


@dataclass
class Scroll:
    """Which of ``total`` rows is the first of the ``shown`` ones on screen."""

    top: int = 0
    said: tuple[tuple[str, ...], int, tuple[object, ...]] | None = field(default=None, repr=False, compare=False)

    def follow(self, paras: Sequence[str], width: int = base.COLS, keys: Sequence[object] = ()) -> list[str]:
        """``paras`` wrapped to ``width``: the rows of a text a screen says each time it is drawn.
        Said otherwise than when last drawn (a new language: the rows wrap otherwise), the first
        row shown moves to the paragraph and sentence the reader was at, not the same row number;
        ``keys`` name the paragraphs when a language may say one more or fewer (a heading that
        fits the title bar in one language only)."""
        now = (tuple(paras), width, tuple(keys))
        if self.said is not None and self.said[:2] != now[:2] and self.said[1] == width:
            at, sentence, share = spot_of(self.said[0], self.top, width)
            old = self.said[2]
            if at < len(old) and old[at] in now[2]:
                at = now[2].index(old[at])
            self.top = row_at(now[0], (at, sentence, share), width)
        self.said = now
        return [r for p in paras for r in base.wrap(p, width)]

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

    def read_on(self, total: int, shown: int) -> bool:
        """A on a page whose text goes on below the rows shown: the rows not yet shown come up (a
        screenful on, the last rows at the end); False when the last row already shows (the page
        may turn: nothing on it was left unread)."""
        if self.top + shown >= total:
            return False
        self.top = min(total - shown, self.top + shown)
        return True

    def go_on(self, what: Intent, total: int, shown: int) -> bool:
        """A (press, right: :data:`Intent.CLOSE` on a ``text``) on a scrolled text or long notice:
        the next page while rows are below the ones shown (True), and False on the last page, which
        the key then closes (docs/keys.md: A reads on, B and left close at once). Only a key of its
        own does it: a held key gives one event (hw/keys.py) and a repeat never closes
        (keys.REPEATING), so a page goes by only when the player asked for it."""
        return what is Intent.CLOSE and self.read_on(total, shown)

    def at_end(self, total: int, shown: int) -> None:
        """Show the last rows (a log opens on its newest entries)."""
        self.top = max(0, total - shown)


def wrapped(body: str | Sequence[str], width: int = base.COLS) -> list[str]:
    """``body`` (a text, or one entry per item) wrapped to ``width``, one row per string (a text
    that scrolls: :func:`beside`'s width, the scroll mark keeps the last character column)."""
    return base.wrap(body, width) if isinstance(body, str) else [r for line in body for r in base.wrap(line, width)]


def paragraphs(body: str | Sequence[str]) -> list[str]:
    """``body``'s paragraphs (its entries, each cut at its line breaks): wrapped one after the
    other, they are the rows of :func:`wrapped`."""
    return [p for text in ([body] if isinstance(body, str) else body) for p in text.split("\n")]


# -- where the reader is, in any language ----------------------------------------------------------
Place = tuple[int, int]
"""Where a reader is in a text: (its paragraph, the sentence of it) — the same in every language,
where the row is not (the rows wrap otherwise)."""

_SENTENCE_END = re.compile(r"[.!?…](?=\s|$)")


def _sentence_starts(para: str) -> list[int]:
    """Where each sentence of ``para`` starts, counted in letters (spaces left out: wrapping keeps
    the letters, not the spaces)."""
    letters = len("".join(para.split()))
    starts = [0]
    for end in _SENTENCE_END.finditer(para):
        n = len("".join(para[:end.end()].split()))
        if n < letters:
            starts.append(n)
    return starts


def place_of(paras: Sequence[str], top: int, width: int = base.COLS) -> Place:
    """The paragraph and sentence that row ``top`` of ``paras`` wrapped to ``width`` shows first
    (the sentence begun above it when the row starts inside one)."""
    row = 0
    for i, para in enumerate(paras):
        rows = base.wrap(para, width)
        if top < row + len(rows):
            before = sum(len(r.replace(" ", "")) for r in rows[:top - row])
            return i, sum(1 for s in _sentence_starts(para) if s <= before) - 1
        row += len(rows)
    return len(paras), 0


def row_of(paras: Sequence[str], place: Place, width: int = base.COLS) -> int:
    """The row of ``paras`` wrapped to ``width`` where the sentence ``place`` begins (its
    paragraph's last sentence if the text has fewer there; the end if fewer paragraphs)."""
    paragraph, sentence = place
    row = 0
    for i, para in enumerate(paras):
        rows = base.wrap(para, width)
        if i == paragraph:
            starts = _sentence_starts(para)
            start, before = starts[min(sentence, len(starts) - 1)], 0
            for r, text in enumerate(rows):
                before += len(text.replace(" ", ""))
                if before > start:
                    return row + r
            return row + len(rows) - 1
        row += len(rows)
    return row


Spot = tuple[int, int, float]
"""Where a reader is in a text, finer than a :data:`Place`: its paragraph, the sentence of it, and
how far into that sentence the first row shown begins (its share of the sentence's letters): a
long sentence is read on at the same part of it in another language, not from its start."""


def spot_of(paras: Sequence[str], top: int, width: int = base.COLS) -> Spot:
    """The :data:`Spot` row ``top`` of ``paras`` wrapped to ``width`` shows first."""
    row = 0
    for i, para in enumerate(paras):
        rows = base.wrap(para, width)
        if top < row + len(rows):
            before = sum(len(r.replace(" ", "")) for r in rows[:top - row])
            starts = _sentence_starts(para) + [len("".join(para.split()))]
            k = sum(1 for s in starts[:-1] if s <= before) - 1
            return i, k, (before - starts[k]) / max(1, starts[k + 1] - starts[k])
        row += len(rows)
    return len(paras), 0, 0.0


def row_at(paras: Sequence[str], spot: Spot, width: int = base.COLS) -> int:
    """The row of ``paras`` wrapped to ``width`` that shows ``spot`` (:func:`spot_of` of the same
    text in another language): the row that begins nearest that share of that sentence's letters
    (at or after the sentence's first row)."""
    paragraph, sentence, share = spot
    if paragraph >= len(paras):
        return row_of(paras, (paragraph, sentence), width)
    para = paras[paragraph]
    starts = _sentence_starts(para) + [len("".join(para.split()))]
    k = min(sentence, len(starts) - 2)
    letter = starts[k] + share * (starts[k + 1] - starts[k])
    first = row_of([para], (0, k), width)                   # the row the sentence begins on
    begins, n = [], 0                                       # each row's first letter
    for text in base.wrap(para, width):
        begins.append(n)
        n += len(text.replace(" ", ""))
    best = min(range(first, len(begins)), key=lambda r: abs(begins[r] - letter), default=first)
    return row_of(paras, (paragraph, 0), width) + best


class TextScreen:
    """Read-only wrapped text with scrolling (why screens, logs, about, a long notice): up/down
    scroll, A (press, right) shows the next page and closes the last, B/left close at once."""

    said_at: Step | None = None
    """The game's step a long notice on a page of its own was said at (firmware/app.py ``notify``):
    taken off once an undo takes that step back (:func:`firmware.screens.ctx.taken_back`)."""

    def __init__(self, title: str, body: str | Sequence[str]) -> None:
        self.title = title
        self.paras = paragraphs(body)
        self.width = beside(body, base.ROWS)       # scrolled: the mark keeps its column
        self.rows = wrapped(body, self.width)
        self.scroll = Scroll()

    def reading(self) -> Spot:
        """Where the reader is (made again in another language, the text opens there: read_at)."""
        return spot_of(self.paras, self.scroll.top, self.width)

    def read_at(self, place: Spot) -> None:
        self.scroll.top = row_at(self.paras, place, self.width)

    def stale(self, ctx: Ctx) -> bool:
        """A text said at a step of the game that an undo has since taken back (``said_at``)."""
        return taken_back(ctx, self.said_at)

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
        if self.scroll.move(what, len(self.rows), base.ROWS) or self.scroll.go_on(what, len(self.rows), base.ROWS):
            return                                 # A on a page with more below: the next page
        if what in (Intent.BACK, Intent.CLOSE):
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
        if self.scroll.move(what, len(self.rows), base.ROWS) or self.scroll.go_on(what, len(self.rows), base.ROWS):
            return                                 # A on a page with more below: the next page
        if what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
