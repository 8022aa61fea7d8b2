"""The screen toolkit: frame, fonts, text, lists, big digits, and the Screen protocol.

Screen grammar (DESIGN.md): up/down move in lists, right/A select, left/B back, long B = undo
(with a confirmation naming the step; the app handles ``b:hold`` before a screen sees it).
A screen keeps its own UI state (cursor, page) in attributes; ``render`` reads only those and the
:class:`Ctx` it is given, and returns a fresh image: the same inputs give the same pixels.

Keys a screen receives (hw/keys.py vocabulary): ``up down left right press a b key3`` and
``a:hold press:hold``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

from PIL import Image, ImageDraw, ImageFont

from firmware.screens.ctx import Ctx, Screen

W, H = 128, 64
LINE = 12             # pixels between text rows (the body font's cell height)
CHAR_W = 6            # the body font's advance, pixels (monospace)
COLS = W // CHAR_W    # 21 characters per row
TITLE_H = 11          # the inverted title bar
ROWS = 4              # body rows under the title bar (5 text rows on the panel with the title)

BACK = ("left", "b")
SELECT = ("right", "a", "press")

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
# kind -> (file, pixel size, advance): Terminus Font (assets/fonts/PROVENANCE.md), monospace.
FONTS: dict[str, tuple[str, int, int]] = {
    "body": ("ter-u12n_unicode.pcf.gz", 12, 6),
    "bold": ("ter-u12b_unicode.pcf.gz", 12, 6),
    "large": ("ter-u16b_unicode.pcf.gz", 16, 8),   # the key line of a decision: 16 columns
    "big": ("ter-u24b_unicode.pcf.gz", 24, 12),
    "huge": ("ter-u32b_unicode.pcf.gz", 32, 16),
}
REPLACEMENT = "\ufffd"   # drawn for a character the font lacks


@lru_cache(maxsize=None)
def font(kind: str = "body") -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The shipped bitmap font of ``kind`` (see FONTS), loaded once. If the file cannot be read
    (a damaged install), Pillow's built-in font is used so the device still shows something."""
    name, size, _ = FONTS[kind]
    try:
        return ImageFont.truetype(str(FONT_DIR / name), size)
    except OSError:
        return ImageFont.load_default_imagefont()


def advance(kind: str = "body") -> int:
    """Pixels per character in the font of ``kind``."""
    return FONTS[kind][2]


def cell_height(kind: str = "body") -> int:
    return FONTS[kind][1]


@lru_cache(maxsize=8)
def _missing_mask(kind: str) -> bytes:
    return bytes(font(kind).getmask("\ue000"))      # a private-use point: the font's default glyph


@lru_cache(maxsize=4096)
def has_glyph(ch: str, kind: str = "body") -> bool:
    """Whether the font of ``kind`` draws ``ch`` (a single character) with a glyph of its own.

    A character drawn exactly like the font's default glyph has none, unless it is printable
    ASCII (Terminus's default glyph is its own '?'): those are all in the font. Only the
    characters asked about are rendered (not all of ASCII at the first call: ~14 ms at start)."""
    if ch == " ":
        return True
    if not ch.isprintable():
        return False
    try:
        if bytes(font(kind).getmask(ch)) != _missing_mask(kind):
            return True
    except Exception:  # noqa: BLE001 - any font trouble means: no glyph
        return False
    return 33 <= ord(ch) < 127


def missing(s: str, kind: str = "body") -> set[str]:
    """The characters of ``s`` that the font of ``kind`` cannot draw."""
    return {ch for ch in set(s) if not has_glyph(ch, kind)}


def drawable(s: object, kind: str = "body") -> str:
    """``s`` as text with every character the font lacks replaced by U+FFFD (visible, never an
    exception); tabs and newlines become spaces."""
    text_ = str(s)
    if all(has_glyph(ch, kind) for ch in set(text_)):
        return text_
    return "".join(ch if has_glyph(ch, kind) else (" " if ch in "\t\n\r" else REPLACEMENT) for ch in text_)


# -- drawing -----------------------------------------------------------------------------------
def frame() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("1", (W, H), 0)
    return img, ImageDraw.Draw(img)


def clip(text: str, width: int = COLS) -> str:
    """Cut ``text`` to ``width`` characters, ending with '…' when cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


# When a list, every text drawn is appended as (x, y, text, kind): tests and scripts/bench_presses.py
# read what a screen shows (rows wider than the panel, console syntax, replacement glyphs).
TRACE: list[tuple[int, int, str, str]] | None = None


def put(draw: ImageDraw.ImageDraw, x: int, y: int, s: object, fill: int = 1, kind: str = "body") -> int:
    """Draw ``s`` in the font of ``kind`` with its cell's top-left at (x, y); returns the width.
    Never raises: missing glyphs show as U+FFFD."""
    if TRACE is not None:
        TRACE.append((x, y, str(s), kind))
    t = drawable(s, kind)
    try:
        draw.text((x, y), t, font=font(kind), fill=fill)
    except Exception:  # noqa: BLE001 - a screen must never end the program
        draw.text((x, y), t.encode("ascii", "replace").decode(), font=font(kind), fill=fill)
    return len(t) * advance(kind)


def text(draw: ImageDraw.ImageDraw, x: int, y: int, s: str, invert: bool = False,
         kind: str = "body") -> None:
    """Draw ``s`` with its top-left at (x, y); ``invert`` draws a filled box behind it."""
    if invert:
        draw.rectangle((x - 1, y, x + len(str(s)) * advance(kind), y + cell_height(kind) - 1), fill=1)
    put(draw, x, y, s, fill=0 if invert else 1, kind=kind)


def title_bar(draw: ImageDraw.ImageDraw, title: str, status: str = "") -> None:
    """An inverted bar on top with ``title`` left and ``status`` (whose turn, counts) right."""
    draw.rectangle((0, 0, W - 1, TITLE_H - 1), fill=1)
    status = str(status)
    room = COLS - (len(status) + 1 if status else 0)
    put(draw, 1, -1, clip(str(title), room), fill=0)
    if status:
        put(draw, W - len(status) * CHAR_W - 1, -1, status, fill=0)


def row_y(i: int) -> int:
    """Top pixel of content row ``i`` (0-based, under the title bar)."""
    return TITLE_H + 1 + i * LINE


def lines(draw: ImageDraw.ImageDraw, rows: Sequence[str], start: int = 0) -> None:
    """Plain text rows under the title bar."""
    for i, s in enumerate(rows[: ROWS - start]):
        text(draw, 1, row_y(i + start), clip(str(s)))


def big(img: Image.Image, x: int, y: int, s: str, scale: int = 3) -> int:
    """Draw ``s`` in a large font (scale 1: body 12 px, 2: 24 px, 3+: 32 px; crisp bitmap
    glyphs) with its cell's top-left at (x, y); returns the width drawn."""
    kind = BIG_KINDS.get(scale, "huge")
    return put(ImageDraw.Draw(img), x, y, s, kind=kind)


BIG_KINDS = {1: "body", 2: "big", 3: "huge"}


def big_width(s: str, scale: int = 3) -> int:
    return len(str(s)) * advance(BIG_KINDS.get(scale, "huge"))


def wrap(s: str, width: int = COLS) -> list[str]:
    """Greedy word wrap to ``width`` characters (long words are cut)."""
    out: list[str] = []
    for para in s.split("\n"):
        cur = ""
        for word in para.split():
            while len(word) > width:
                if cur:
                    out.append(cur)
                    cur = ""
                out.append(word[:width])
                word = word[width:]
            if not cur:
                cur = word
            elif len(cur) + 1 + len(word) <= width:
                cur += " " + word
            else:
                out.append(cur)
                cur = word
        out.append(cur)
    return out


# -- helpers for game screens ------------------------------------------------------------------
def run_or_notify(ctx: Ctx, line: str) -> dict[str, Any] | None:
    """Run ``line``; on an error show its message and return None, else the response."""
    response = ctx.run(line)
    if not response["ok"]:
        ctx.notify(response["message"])
        return None
    return response


def game_view(ctx: Ctx, games: tuple[str, ...], label: str) -> dict[str, Any]:
    """The session view if the session is one of ``games``; raises LookupError otherwise."""
    view = ctx.view()
    if view is None or view["game"] not in games:
        raise LookupError(f"no {label} session")
    return view


def continue_or_setup(ctx: Ctx, games: tuple[str, ...], home: Callable[[], Screen],
                      setup: Callable[[], Screen]) -> None:
    """Open a game: its home screen if the session is already one of ``games``, else its setup."""
    view = ctx.view()
    ctx.push(home() if view is not None and view["game"] in games else setup())


def start_game(ctx: Ctx, line: str, home: Callable[[], Screen],
               quiet: tuple[str, ...] = ("bag", "dice"), title: str | None = None) -> None:
    """Run a ``new …`` line and show ``home`` in place of the setup screen. If that would end
    a session whose game is not in ``quiet``, ask first (A starts, B keeps the old one)."""
    def go(c: Ctx) -> None:
        response = run_or_notify(c, line)
        if response is not None:
            c.replace(home())
            if response.get("commitment"):
                c.show_commitment(response["commitment"])      # the fair-draw code, to photograph (issue 12)

    view = ctx.view()
    if view is not None and view["game"] not in quiet:
        from firmware.i18n import _
        ctx.push(ConfirmScreen(title or _("New game?"),
                               _("This ends the {} game (it stays in the archive).").format(game_label(view["game"])), go))
    else:
        go(ctx)


def game_label(game: str) -> str:
    """A session's game for a person (never the internal id), in the current language."""
    from firmware.games import record_of
    from firmware.i18n import _
    record = record_of(game)
    return _(record.label) if record is not None else _("a game")


# -- reusable screens --------------------------------------------------------------------------
@dataclass
class Item:
    """A list entry: ``label`` left, ``value`` right-aligned, ``run`` on select."""

    label: str
    run: Callable[[Ctx], None] | None = None
    value: str = ""


CURSOR_W = 4      # px: the cursor mark left of a list row's label


def draw_list(draw: ImageDraw.ImageDraw, items: Sequence[Item], cursor: int, top: int,
              rows: int = ROWS) -> None:
    """Rows ``top..top+rows`` of ``items``, the cursor row marked by a ▶ at the left edge, and a
    scroll mark. A cursor move changes only the mark's few columns on the panel's bus (an
    inverted label costs its whole width on two pages, for both rows: issue 13)."""
    for i in range(rows):
        k = top + i
        if k >= len(items):
            break
        item = items[k]
        room = COLS - 1 - (len(item.value) + 1 if item.value else 0)
        label = clip(item.label, room)
        y = row_y(i)
        selected = k == cursor
        # The cursor inverts the label (and the value) in boxes as wide as their text, not a
        # full-width bar: a cursor move then changes only those columns on the panel's bus.
        if selected:                      # a solid ▶ in the margin, 4 px wide, 9 px tall
            mid = y + LINE // 2 - 1
            draw.polygon([(0, mid - 4), (CURSOR_W - 1, mid), (0, mid + 4)], fill=1)
        put(draw, CURSOR_W + 1, y, label)
        if item.value:
            put(draw, W - 4 - len(item.value) * CHAR_W, y, item.value)
    if len(items) > rows:  # scroll bar on the right edge
        span = H - TITLE_H - 1
        h = max(3, span * rows // len(items))
        y0 = TITLE_H + 1 + (span - h) * top // max(1, len(items) - rows)
        draw.rectangle((W - 2, y0, W - 1, y0 + h - 1), fill=1)


def page_top(cursor: int, top: int, rows: int, count: int) -> int:
    """The first row shown once the cursor is on row ``cursor``: the list turns a page at a time
    (a new page from the row the cursor went to, the last page full), so moving inside a page
    redraws nothing but the cursor."""
    if top <= cursor < top + rows:
        return top
    return max(0, min(cursor if cursor > top else cursor - rows + 1, count - rows))


class ListScreen:
    """A titled list; subclasses build ``items(ctx)``. Select runs the item, back pops."""

    title = ""

    def __init__(self) -> None:
        self.cursor = 0
        self.top = 0

    def items(self, ctx: Ctx) -> list[Item]:
        return []

    def status(self, ctx: Ctx) -> str:
        return ""

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = frame()
        title_bar(draw, self.title, self.status(ctx))
        items = self.items(ctx)
        self.cursor = min(self.cursor, max(0, len(items) - 1))
        draw_list(draw, items, self.cursor, self.top)
        return img

    def visible_rows(self, ctx: Ctx) -> int:
        """How many list rows the screen shows (the cursor scrolls within them)."""
        return ROWS

    def key(self, key: str, ctx: Ctx) -> None:
        items = self.items(ctx)
        rows = self.visible_rows(ctx)
        if key in ("up", "down") and items:
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(items)
            self.top = page_top(self.cursor, self.top, rows, len(items))
        elif key in SELECT and items:
            run = items[self.cursor].run
            if run is not None:
                run(ctx)
        elif key in BACK:
            ctx.pop()


class TextScreen:
    """Read-only wrapped text with scrolling (why screens, logs, about)."""

    def __init__(self, title: str, body: str | Sequence[str]) -> None:
        self.title = title
        self.rows = wrap(body) if isinstance(body, str) else [r for line in body for r in wrap(line)]
        self.top = 0

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = frame()
        pos = f"{self.top + 1}/{len(self.rows)}" if len(self.rows) > ROWS else ""
        title_bar(draw, self.title, pos)
        lines(draw, self.rows[self.top:self.top + ROWS])
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key == "down" and self.top + ROWS < len(self.rows):
            self.top += 1
        elif key == "up" and self.top > 0:
            self.top -= 1
        elif key in BACK or key in ("a", "press", "right"):
            ctx.pop()


class ConfirmScreen:
    """A yes/no question: only A confirms and runs ``on_yes`` (a joystick nudge never does);
    B or left cancels; up/down scroll a question longer than the screen (never cut)."""

    def __init__(self, title: str, question: str, on_yes: Callable[[Ctx], None],
                 yes: str | None = None, no: str | None = None) -> None:
        self.title = title
        self.question = question
        self.on_yes = on_yes
        self.yes = yes
        self.no = no
        self.top = 0

    @property
    def rows(self) -> list[str]:
        """The question wrapped to the panel, in the current language."""
        from firmware.i18n import say
        return wrap(say(self.question))

    def render(self, ctx: Ctx) -> Image.Image:
        from firmware.i18n import _, say
        img, draw = frame()
        rows = self.rows
        room = ROWS - 1
        self.top = max(0, min(self.top, len(rows) - room))
        pos = f"{self.top + 1}/{len(rows) - room + 1}" if len(rows) > room else ""
        title_bar(draw, say(self.title), pos)
        lines(draw, rows[self.top:self.top + room])
        hint = f"{self.yes or _('A: yes')}  {self.no or _('B: no')}"
        text(draw, 1, row_y(ROWS - 1), clip(hint), invert=False)
        draw.line((0, row_y(ROWS - 1) - 1, W - 1, row_y(ROWS - 1) - 1), fill=1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key == "a":
            ctx.pop()
            self.on_yes(ctx)
        elif key == "down":
            self.top += 1
        elif key == "up":
            self.top = max(0, self.top - 1)
        elif key in BACK:
            ctx.pop()


# -- lists whose rows are never cut --------------------------------------------------------------
def wrap_label(s: str, width: int) -> list[str]:
    """Greedy wrap of a list label to ``width`` characters, breaking at spaces or after a dash
    (``Mauretania–`` / ``Numidia``); a word longer than ``width`` is split (never clipped with '…')."""
    import re
    out: list[str] = []
    cur = ""
    for chunk in re.findall(r"[^\s–—]*[–—]|[^\s–—]+", s):
        sep = "" if not cur or cur.endswith(("–", "—")) else " "
        if len(cur) + len(sep) + len(chunk) <= width:
            cur += sep + chunk
            continue
        if cur:
            out.append(cur)
        while len(chunk) > width:
            out.append(chunk[:width])
            chunk = chunk[width:]
        cur = chunk
    out.append(cur)
    return out


def item_rows(item: Item, rows: int = ROWS) -> list[str]:
    """The rows a list item takes in :func:`draw_list_wrapped`: its label on one row when it fits
    beside its value, else wrapped; the value goes right on the last row (or a row of its own)."""
    room = COLS - 1
    value = len(item.value) + 1 if item.value else 0
    if len(item.label) + value <= room:
        return [item.label]
    out = wrap_label(item.label, room - value)        # the value beside the last row
    if len(out) > 2:
        out = wrap_label(item.label, room)
        if item.value and len(out[-1]) + value > room:
            out.append("")
    return out[:rows]


def wrapped_top(heights: Sequence[int], cursor: int, top: int, rows: int = ROWS) -> int:
    """As :func:`page_top` for items ``heights`` rows tall: the first item shown once the cursor is
    on item ``cursor`` (a new page from the item the cursor went to, the last page full)."""
    def fits(a: int, b: int) -> bool:
        return sum(heights[a:b + 1]) <= rows
    if not heights:
        return 0
    if top <= cursor and fits(top, cursor):
        return top
    t = cursor
    if cursor < top:                     # up: the page that ends at the cursor
        while t > 0 and fits(t - 1, cursor):
            t -= 1
        return t
    while t > 0 and fits(t - 1, len(heights) - 1):   # down: from the cursor, the last page full
        t -= 1
    return min(cursor, t)


def draw_list_wrapped(draw: ImageDraw.ImageDraw, items: Sequence[Item], cursor: int, top: int,
                      rows: int = ROWS) -> None:
    """As :func:`draw_list`, but no label is ever cut: an item whose label does not fit beside its
    value takes two rows (see :func:`item_rows`), the ▶ on its first."""
    y_row = 0
    for k in range(top, len(items)):
        item = items[k]
        parts = item_rows(item, rows)
        if y_row + len(parts) > rows:
            break
        if k == cursor:
            mid = row_y(y_row) + LINE // 2 - 1
            draw.polygon([(0, mid - 4), (CURSOR_W - 1, mid), (0, mid + 4)], fill=1)
        for i, part in enumerate(parts):
            if part:
                put(draw, CURSOR_W + 1, row_y(y_row + i), part)
        if item.value:
            put(draw, W - 4 - len(item.value) * CHAR_W, row_y(y_row + len(parts) - 1), item.value)
        y_row += len(parts)
    total = sum(len(item_rows(i, rows)) for i in items)
    if total > rows:                     # scroll bar on the right edge
        span = H - TITLE_H - 1
        before = sum(len(item_rows(i, rows)) for i in items[:top])
        h = max(3, span * rows // total)
        y0 = TITLE_H + 1 + (span - h) * min(before, total - rows) // max(1, total - rows)
        draw.rectangle((W - 2, y0, W - 1, y0 + h - 1), fill=1)


class WrappedListScreen(ListScreen):
    """A :class:`ListScreen` whose rows are never cut (:func:`draw_list_wrapped`)."""

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = frame()
        title_bar(draw, self.title, self.status(ctx))
        items = self.items(ctx)
        self.cursor = min(self.cursor, max(0, len(items) - 1))
        self.top = wrapped_top([len(item_rows(i)) for i in items], self.cursor, min(self.top, self.cursor))
        draw_list_wrapped(draw, items, self.cursor, self.top)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        items = self.items(ctx)
        if key in ("up", "down") and items:
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(items)
            self.top = wrapped_top([len(item_rows(i)) for i in items], self.cursor, self.top)
        else:
            super().key(key, ctx)


# -- titles said when read, lists whose rows come and go ---------------------------------------------
class Said:
    """A screen's title given as English text (marked with ``N_``) and said in the current
    language whenever it is read: ``title = Said(N_("Games"))``. Setting it on an instance
    replaces the text for that instance only."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_said_{name}"

    @overload
    def __get__(self, obj: None, owner: Any = None) -> Said: ...

    @overload
    def __get__(self, obj: object, owner: Any = None) -> str: ...

    def __get__(self, obj: object, owner: Any = None) -> str | Said:
        if obj is None:
            return self
        from firmware.i18n import _
        return _(str(getattr(obj, self.slot, self.text)))

    def __set__(self, obj: object, value: str) -> None:
        setattr(obj, self.slot, value)


class StableListScreen(ListScreen):
    """A list whose rows may come and go between renders (a Resume row appears, a Put back row
    after the first draw): the cursor stays on the same row by its label, not its position."""

    def __init__(self) -> None:
        super().__init__()
        self.current = ""          # the label under the cursor after the last key

    def _follow(self, items: list[Item]) -> None:
        labels = [str(i.label) for i in items]
        if self.current in labels:
            self.cursor = labels.index(self.current)
            if self.cursor < self.top:
                self.top = self.cursor
            elif self.cursor >= self.top + ROWS:
                self.top = self.cursor - ROWS + 1

    def render(self, ctx: Ctx) -> Image.Image:
        self._follow(self.items(ctx))
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        items = self.items(ctx)
        self._follow(items)
        super().key(key, ctx)
        if items:
            self.current = str(items[min(self.cursor, len(items) - 1)].label)
