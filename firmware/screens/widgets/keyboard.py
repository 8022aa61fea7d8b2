"""Typing a name on the panel: a keyboard grid in the player's language (Cyrillic too), the joystick
over its cells (left/right wrap within a row, so ✓ is one step left of the first letter; up/down
wrap over the rows)."""
from __future__ import annotations

import logging
from collections.abc import Callable

from PIL import Image

from engine.names import check_name
from engine.text import N_
from firmware.i18n import Msg, _, language
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent
from firmware.screens.widgets.scroll import scroll_bar

log = logging.getLogger(__name__)

MAX_TYPED = 16          # a name typed on the device (fits a row with its count)
PERSON = N_("Enter a name")     # the title when the name is a person's («Введіть ім'я»)


# the letters of each language's keyboard (lower case; ↑ switches case)
ALPHABETS = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "uk": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя'",
}


SHIFT, DELETE, DONE = "↑", "←", "✓"


KEYS_PER_ROW = 10       # a grid of short rows: both ways wrap, so no cell is far (21-cell rows took
KEY_W = 12              # about twice the moves); each cell KEY_W pixels wide


def keyboard(lang: str) -> list[list[str]]:
    """Rows of :data:`KEYS_PER_ROW` cells: the language's letters first (the first row ends with
    shift, delete and done, one step left of its first cell), digits, - . and the other script."""
    letters = ALPHABETS.get(lang, ALPHABETS["en"])
    other = ALPHABETS["en"] if lang != "en" else ""
    cells = list(letters) + list("0123456789") + list("-.") + list(other)
    first = KEYS_PER_ROW - 3
    rows = [cells[:first] + [SHIFT, DELETE, DONE]]
    rest = cells[first:]
    while rest:
        rows.append(rest[:KEYS_PER_ROW])
        rest = rest[KEYS_PER_ROW:]
    return rows


class TypeScreen:
    """Type a name with a keyboard grid: the joystick moves (left/right wrap within a row, so ✓
    is one step left of the first letter), A or press types the cell: ↑ switches case, ← deletes,
    ✓ finishes; hold A also finishes. B goes back without a name (asking first when letters
    were typed). ``initial``: the text it opens
    on (a typo is mended, not typed again); ``title``: ``N_`` marked, said when drawn (a person's
    name asks for a name: ``PERSON``; ``capital``: the first letter typed is a capital one, the
    rest lower case, as a person's name is written)."""

    second_action = True           # hold A (KEY3): the name is finished

    def __init__(self, on_done: Callable[[Ctx, str], None], initial: str = "", title: str | None = None,
                 capital: bool = False) -> None:
        self.on_done = on_done
        self.name = initial[:MAX_TYPED]
        self.initial = self.name
        self.row = 0
        self.col = 0
        self.top = 0
        self.capital = capital
        self.upper = capital and not self.name
        if title is not None:
            self.title = title

    title = Said(N_("Type a name"))

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, f"{len(self.name)}/{MAX_TYPED}")
        base.text(draw, 1, base.row_y(0), self.name + "_")
        draw.line((0, base.row_y(1) - 1, base.W - 1, base.row_y(1) - 1), fill=1)
        rows = self._keyboard()
        for i in range(base.ROWS - 1):
            r = self.top + i
            if r >= len(rows):
                break
            y = base.row_y(1 + i)
            for c, cell in enumerate(rows[r]):
                shown = cell.upper() if self.upper and len(cell) == 1 and cell.isalpha() else cell
                x = c * KEY_W + 2
                if (r, c) == (self.row, self.col):
                    draw.rectangle((x, y, x + KEY_W - 2, y + base.LINE - 1), fill=1)
                base.put(draw, x + (KEY_W - base.CHAR_W) // 2, y, shown, fill=0 if (r, c) == (self.row, self.col) else 1)
        scroll_bar(draw, self.top, base.ROWS - 1, len(rows), base.row_y(1), base.H - base.row_y(1))
        return img

    def _keyboard(self) -> list[list[str]]:
        """The keyboard of the language now, the cursor on it (a language set over the serial link
        while a name is typed may give a keyboard of fewer rows: the cursor comes to its last)."""
        rows = keyboard(language())
        self.row = min(self.row, len(rows) - 1)
        self.col = min(self.col, len(rows[self.row]) - 1)
        self.top = min(self.top, self.row)
        return rows

    def key(self, key: str, ctx: Ctx) -> None:
        rows = self._keyboard()
        what = intent("grid", key)
        if what in (Intent.PREV, Intent.NEXT):
            self.row = (self.row + (1 if what is Intent.NEXT else -1)) % len(rows)
            self.col = min(self.col, len(rows[self.row]) - 1)
            if self.row < self.top:
                self.top = self.row
            elif self.row >= self.top + base.ROWS - 1:
                self.top = self.row - base.ROWS + 2
        elif what in (Intent.LEFTWARD, Intent.RIGHTWARD):
            self.col = (self.col + (1 if what is Intent.RIGHTWARD else -1)) % len(rows[self.row])
        elif what is Intent.SELECT:
            self._type(rows[self.row][self.col], ctx)
        elif what is Intent.SECOND:
            self._done(ctx)
        elif what is Intent.BACK:
            self._leave(ctx)

    def _leave(self, ctx: Ctx) -> None:
        """B: back without the name; when letters were typed, only after a question (B sits beside
        A: one slip must not lose a name typed letter by letter)."""
        from firmware.screens.widgets.confirm import leave
        kept = not self.name.strip() or self.name == self.initial
        name = self.name
        leave(ctx, None if kept else lambda: _("“{}” is not kept.").format(name))

    def _type(self, cell: str, ctx: Ctx) -> None:
        if cell == SHIFT:
            self.upper = not self.upper
        elif cell == DELETE:
            self.name = self.name[:-1]
            if self.capital and not self.name:
                self.upper = True                # a person's name typed again from nothing: a capital first
        elif cell == DONE:
            self._done(ctx)
        elif len(self.name) >= MAX_TYPED:
            ctx.notify(Msg("At most {} characters.", MAX_TYPED))
        else:
            self.name += cell.upper() if self.upper else cell
            if self.capital and self.upper and cell.isalpha() and len(self.name) == 1:
                self.upper = False               # the capital comes first, the rest in lower case

    def _done(self, ctx: Ctx) -> None:
        from engine.errors import LegatusError
        from firmware.i18n import say
        try:
            name = check_name(self.name.strip(), MAX_TYPED, spaces=False)
        except LegatusError as e:
            log.info("a typed name refused: %s", e)
            ctx.notify(say(e.message))
            return
        ctx.pop()
        self.on_done(ctx, name)
