"""The list: rows with a cursor, paging, an optional header above and footer below.

One list for every screen that lists things (menus, game homes, blocks, provinces, forms):

- up/down move the cursor and stop at the ends (no wrap from the last row to the first);
- the list turns a page at a time: a new page starts at the row the cursor went to, the last page
  is full (:func:`page_top`), so moving inside a page redraws only the cursor mark;
- the cursor stays on the same item when the items change (a phase adds or takes rows): items are
  followed by their ``ident`` (or label);
- a long label takes two rows instead of being cut when the list wraps rows (``wrap_rows``);
- a header (bold, above) and a footer (under a rule, never with the cursor) are not rows;
- an item with ``adjust`` holds a figure: left/right change it (by the step when it has steps,
  press changes the step), A is the screen's main action (:meth:`ListScreen.go`).

What the keys mean comes from the one key table (:mod:`firmware.screens.widgets.keys`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent
from firmware.screens.widgets.scroll import scroll_bar

CURSOR_W = 4      # px: the cursor mark left of a list row's label
STEPS = (1, 5, 10)


@dataclass
class Item:
    """A list entry: ``label`` left, ``value`` right-aligned, ``run`` on select.

    ``ident`` names the item across renders (the cursor follows it); the label when empty.
    ``adjust`` makes the row a figure: called with the change (±1, or ± the step when ``steps``)."""

    label: str
    run: Callable[[Ctx], None] | None = None
    value: str = ""
    ident: str = ""
    adjust: Callable[[Ctx, int], None] | None = None
    steps: bool = False

    @property
    def key(self) -> str:
        return self.ident or str(self.label)


def figure(value: object, step: int | None = None) -> str:
    """A figure under the cursor: ``‹12›``, with its step before it when it has steps (``±5 ‹12›``)."""
    shown = f"<{value}>"
    return f"±{step} {shown}" if step is not None else shown


# -- paging ----------------------------------------------------------------------------------------
def page_top(cursor: int, top: int, rows: int, count: int) -> int:
    """The first row shown once the cursor is on row ``cursor``: the list turns a page at a time
    (a new page from the row the cursor went to, the last page full), so moving inside a page
    redraws nothing but the cursor. A list that lost rows (a bag's own screen after a new bag has
    fewer) comes back to a full last page: no row shown blank while one above is hidden."""
    top = min(top, max(0, count - rows))
    if top <= cursor < top + rows:
        return top
    return max(0, min(cursor if cursor > top else cursor - rows + 1, count - rows))


def wrapped_top(heights: Sequence[int], cursor: int, top: int, rows: int = base.ROWS) -> int:
    """As :func:`page_top` for items ``heights`` rows tall: the first item shown once the cursor is
    on item ``cursor`` (a new page from the item the cursor went to, the last page full)."""
    def fits(a: int, b: int) -> bool:
        return sum(heights[a:b + 1]) <= rows
    if not heights:
        return 0
    if top <= cursor and fits(top, cursor):
        while top > 0 and fits(top - 1, len(heights) - 1):     # rows gone below: the last page full
            top -= 1
        return top
    t = cursor
    if cursor < top:                     # up: the page that ends at the cursor
        while t > 0 and fits(t - 1, cursor):
            t -= 1
        return t
    while t > 0 and fits(t - 1, len(heights) - 1):   # down: from the cursor, the last page full
        t -= 1
    return min(cursor, t)


# -- rows that are never cut -----------------------------------------------------------------------
_PART = r"(?:[^ –—]|(?<=\d)[–—](?=\d))"       # a word's part: a dash between figures (a score 11–2) too
_CHUNK = re.compile(rf"{_PART}*(?:(?<!\d)[–—]|[–—](?!\d))|{_PART}+")   # up to a dash to break after, or a word


def wrap_label(s: str, width: int) -> list[str]:
    """Greedy wrap of a list label to ``width`` characters, breaking at spaces or after a dash
    (``Mauretania–`` / ``Numidia``); a word longer than ``width`` is split by :func:`base.split_word`
    (after its own hyphen, else with a hyphen added; never clipped with '…'), never breaking a
    typographer's tie (:func:`base.tied`: «Мешочек и / колода» keeps «и» with «колода») nor a
    score or a range between its figures («ПО 11–» / «2.»)."""
    out: list[str] = []
    cur = ""
    s = base.tied(s, width)
    for m in re.finditer(_CHUNK, s):
        chunk = m.group(0)
        spaced = m.start() > 0 and s[m.start() - 1] == " "     # (after a dash inside a word: none)
        sep = " " if cur and spaced else ""
        if len(cur) + len(sep) + len(chunk) <= width:
            cur += sep + chunk
            continue
        if cur:
            out.append(cur)
        *whole, cur = base.split_word(chunk, width)
        out += whole
    out.append(cur)
    return [row.replace(base.TIE, " ") for row in out]


def apart(value: str, label: str = "") -> int:
    """Columns a row's ``label`` leaves for ``value`` beside it: a value in words after a label
    ending in a word gets two blank columns before it (one reads as a word space, the value as the
    label's next word: «Campaign over Caesar», «Внесок гравців немає»); a figure, a date, a choice
    ‹…›, a rating (C2, IV→III), or a value after a label's own «…» or «:», one."""
    if not value:
        return 0
    return len(value) + (2 if value.split()[0].isalpha() and label[-1:].isalnum() else 1)


def item_rows(item: Item, rows: int = base.ROWS, wrap: bool = True) -> list[str]:
    """The rows a list item takes: its label on one row when it fits beside its value (or when the
    list does not wrap rows: then it is cut with '…'), else wrapped; the value goes right on the
    last row (or a row of its own), never a word space from the label (:func:`apart`)."""
    room = base.COLS - 1
    value = apart(item.value, item.label)
    if not wrap and len(item.label) + value > room:   # a list that does not wrap: the label whole a
        value = min(value, len(item.value) + 1)      # column nearer rather than cut (never cut for a gap)
    if len(item.label) + value <= room or not wrap:
        return [base.clip(item.label, room - value)]
    out = wrap_label(item.label, room - value)        # the value beside the last row
    split = any(len(word) > room - value for word in re.split(r"[\s–—]+", item.label))
    if len(out) > 2 or split:                         # never a word broken to keep the value beside it
        out = wrap_label(item.label, room)
        if item.value and len(out[-1]) + value > room:
            out.append("")
    return out[:rows]


def draw_list(draw: ImageDraw.ImageDraw, items: Sequence[Item], cursor: int, top: int,
              rows: int = base.ROWS, first: int = 0, wrap: bool = False,
              heights: Sequence[int] | None = None) -> None:
    """Rows ``top…`` of ``items`` on body rows ``first…first+rows``: the cursor row marked by a ▶
    at the left edge (a cursor move changes only the mark's few columns on the panel's bus: issue
    13), values right-aligned, and the scroll bar beside those rows (``heights``: each item's rows,
    when the screen knows them already — :meth:`ListScreen._heights` —, else measured here)."""
    y_row = 0
    for k in range(top, len(items)):
        item = items[k]
        parts = item_rows(item, rows, wrap)
        if y_row + len(parts) > rows:     # the rows left show the item's first rows, the rest on the
            for i, part in enumerate(parts[:rows - y_row]):      # next page (a blank row would read as
                base.put(draw, CURSOR_W + 1, base.row_y(first + y_row + i), part)   # the list's end)
            break
        if k == cursor:                   # a solid ▶ in the margin, 4 px wide, 9 px tall
            mid = base.row_y(first + y_row) + base.LINE // 2 - 1
            draw.polygon([(0, mid - 4), (CURSOR_W - 1, mid), (0, mid + 4)], fill=1)
        for i, part in enumerate(parts):
            if part:
                base.put(draw, CURSOR_W + 1, base.row_y(first + y_row + i), part)
        if item.value:
            base.put(draw, base.W - 4 - len(item.value) * base.CHAR_W, base.row_y(first + y_row + len(parts) - 1),
                     item.value)
        y_row += len(parts)
    if heights is None:
        heights = [len(item_rows(i, rows, wrap)) for i in items]
    y0 = base.row_y(first)
    bottom = base.H if first + rows >= base.ROWS else base.row_y(first + rows)       # to the edge, or the footer's rule
    scroll_bar(draw, sum(heights[:top]), rows, sum(heights), y0, bottom - y0)
    more_marks(draw, top > 0, sum(heights[top:]) > rows, y0, bottom)


def more_marks(draw: ImageDraw.ImageDraw, above: bool, below: bool, y0: int, y1: int) -> None:
    """The arrowheads of a list that goes on off screen, on the scroll bar's column and the two
    before it (clear of every row's text): ▴ at the top of the rows when rows are above them, ▾ at
    the bottom when rows are below — a list opened on a row further down (a tied hit's pick on ✓,
    Legio 8, the leader and Legio 10 above) says so, where the 1-pixel bar alone went unseen."""
    x = base.W - 2
    if above:                            # ↑: its tip on the rows' first pixel row, a 3-pixel stem
        draw.line((x - 1, y0 + 1, x + 1, y0 + 1), fill=1)
        draw.line((x, y0, x, y0 + 4), fill=1)
    if below:                            # ↓: its tip on the rows' last pixel row
        draw.line((x - 1, y1 - 2, x + 1, y1 - 2), fill=1)
        draw.line((x, y1 - 5, x, y1 - 1), fill=1)


def draw_footer(draw: ImageDraw.ImageDraw, text: str) -> None:
    """The last body row under a rule across the panel (clear of the row above's descenders):
    never a row the cursor goes to."""
    y = base.row_y(base.ROWS - 1)
    draw.line((0, y, base.W - 1, y), fill=1)
    base.put(draw, 1, y + 1, base.clip(text))


# -- the list screen -------------------------------------------------------------------------------
class ListScreen:
    """A titled list; subclasses build ``items(ctx)`` (and may give ``status``, ``header``,
    ``footer``, ``go`` and ``second``). Select runs the item, back pops."""

    title = ""
    wrap_rows = False             # True: a long label takes two rows instead of being cut

    def __init__(self) -> None:
        self.cursor = 0
        self.top = 0
        self.current = ""         # the ident of the item under the cursor after the last key
        self._mark = 0            # where the cursor was then (a cursor set from outside is kept)
        self.step = 0             # index into STEPS for figure rows with steps
        self.cursor_first = False     # (drawn last:) the cursor's row is the first body row, whole

    # -- what subclasses give ----------------------------------------------------------------------
    def items(self, ctx: Ctx) -> list[Item]:
        return []

    def status(self, ctx: Ctx) -> str:
        return ""

    def header(self, ctx: Ctx) -> str:
        """A bold line above the rows (not a row), or ''."""
        return ""

    def footer(self, ctx: Ctx) -> str:
        """A line under a rule below the rows (never a row), or ''."""
        return ""

    def go(self, ctx: Ctx) -> None:
        """The screen's main action where the cursor is on a figure (A): the row's own by default."""
        self.select(ctx)

    def second(self, ctx: Ctx) -> None:
        """The screen's second action (hold A, KEY3): nothing by default."""

    def back(self, ctx: Ctx) -> None:
        """B (or left on a row): back to the screen before (a screen holding what the player entered
        asks first: :func:`firmware.screens.widgets.confirm.leave`)."""
        ctx.pop()

    # -- state -----------------------------------------------------------------------------------
    def reset(self) -> None:
        """The cursor back on the first row (a new decision)."""
        self.cursor = self.top = self._mark = 0
        self.current = ""

    def follow(self, items: Sequence[Item]) -> None:
        """Keep the cursor on the item it was on when rows come or go."""
        here = items[self.cursor].key if self.cursor < len(items) else None
        if self.current and self.cursor == self._mark and here != self.current:   # (rows came or went:
            keys = [i.key for i in items]                                          # a long list is read
            if self.current in keys:                                               # only then)
                self.cursor = self._mark = keys.index(self.current)
        self.cursor = min(self.cursor, max(0, len(items) - 1))

    def region(self, ctx: Ctx) -> tuple[int, int]:
        """(first body row, rows) the list takes, between the header and the footer."""
        first = 1 if self.header(ctx) else 0
        last = base.ROWS - (1 if self.footer(ctx) else 0)
        return first, last - first

    def visible_rows(self, ctx: Ctx) -> int:
        return self.region(ctx)[1]

    def _heights(self, items: Sequence[Item], rows: int) -> list[int]:
        """Each item's rows on the panel (a screen listing thousands may keep them: History)."""
        return [len(item_rows(i, rows, self.wrap_rows)) for i in items]

    def _page(self, items: Sequence[Item], rows: int) -> None:
        if self.wrap_rows:
            self.top = wrapped_top(self._heights(items, rows), self.cursor, min(self.top, self.cursor), rows)
        else:
            self.top = page_top(self.cursor, min(self.top, self.cursor), rows, len(items))

    # -- drawing and keys ------------------------------------------------------------------------
    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        items = self.items(ctx)
        self.follow(items)                # first: the title bar's hint may name the row under the cursor
        base.title_bar(draw, self.title, self.status(ctx))
        first, rows = self.region(ctx)
        self._page(items, rows)
        head, foot = self.header(ctx), self.footer(ctx)
        if head:
            base.put(draw, 1, base.row_y(0), base.clip(head), kind="bold")
        heights = self._heights(items, rows)
        draw_list(draw, items, self.cursor, self.top, rows, first, self.wrap_rows, heights)
        # the cursor's row drawn whole on the first body row (a box over the lower half leaves it in sight)
        self.cursor_first = bool(items) and first == 0 and self.cursor == self.top and heights[self.cursor] == 1
        if foot:
            draw_footer(draw, foot)
        return img

    def place(self, item: Item | None) -> str:
        """Where the cursor stands, for the key table."""
        if item is None or item.adjust is None:
            return "row"
        return "figure" if item.steps else "choice"

    def key(self, key: str, ctx: Ctx) -> None:
        items = self.items(ctx)
        self.follow(items)
        item = items[self.cursor] if items else None
        what = intent(self.place(item), key)
        if what in (Intent.PREV, Intent.NEXT):
            if items:
                self.cursor = max(0, min(len(items) - 1, self.cursor + (1 if what is Intent.NEXT else -1)))
                self._page(items, self.visible_rows(ctx))
        elif what in (Intent.LESS, Intent.MORE) and item is not None and item.adjust is not None:
            size = STEPS[self.step] if item.steps else 1
            item.adjust(ctx, size if what is Intent.MORE else -size)
        elif what is Intent.STEP:
            self.step = (self.step + 1) % len(STEPS)
        elif what is Intent.SELECT:
            self.select(ctx)
        elif what is Intent.GO:
            self.go(ctx)
        elif what is Intent.SECOND:
            self.second(ctx)
        elif what is Intent.BACK:
            self.back(ctx)
        if items:
            self.current = items[min(self.cursor, len(items) - 1)].key
            self._mark = self.cursor

    def select(self, ctx: Ctx) -> None:
        """Run the item under the cursor (nothing for a row without an action)."""
        items = self.items(ctx)
        if items:
            run = items[min(self.cursor, len(items) - 1)].run
            if run is not None:
                run(ctx)


class WrappedListScreen(ListScreen):
    """A :class:`ListScreen` whose rows are never cut (a long label takes two rows)."""

    wrap_rows = True
