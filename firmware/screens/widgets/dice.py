"""Dice thrown on the table, entered on the device: one widget for every game (Julius Caesar's fire,
the Sword of Rome's battle, tactics, naval and 2d6 rolls).

The dice of a roll are read from the lowest face to the highest, in one or two rows (attack and
defence). up/down turn the die under the cursor, left/right go along the dice (from the last die of
a row to the first of the next; left on the very first die goes back), A or press enters the roll,
B goes back. A die the cursor has not reached yet shows a *guess*: the likeliest face after the die
before it (:mod:`firmware.dice_guess`), drawn with a dashed frame, so A can enter a roll as soon as
the dice still to come already match. A die the cursor has been on is *set* (solid frame): the
player has read it, and no guess for another die ever changes it again.
"""
from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.text import N_
from firmware import dice_guess
from firmware.i18n import _
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent, repeated

SOURCES = (N_("device"), N_("table"))   # where the dice (Julius Caesar, Sword of Rome), the command
                                        # tiles and the bags (Caesar!) come from: one word in every game


def source_word(v: int) -> str:
    """The value of a Dice, Tiles or Bags row: ``device`` (0) or ``table`` (1), the same word in
    every game's screens (they said «real dice», «table» and «physical» for one choice)."""
    return _(SOURCES[v])


TABLE_DICE = "rules.table_dice"   # the device setting: 1 when the table throws its own dice (every
                                  # roll's Dice row opens on it: Julius Caesar's new battle, the Sword's rolls)
DIE = 20          # pixels per die tile (one row of dice)
DIE_SMALL = 18    # pixels per die tile when two rows share the screen


def die_tile(face: int, hit: bool, size: int = DIE, guessed: bool = False) -> Image.Image:
    """A die face: a framed square with the number large; a hit is filled; a guessed die has a
    dashed frame (every other pixel), a set one a solid frame."""
    tile = Image.new("1", (size, size), 0)
    draw = ImageDraw.Draw(tile)
    if hit:
        draw.rectangle((2, 2, size - 3, size - 3), fill=1)
    glyph = Image.new("1", (size, size), 0)
    scale = 2 if size >= DIE else 1
    label = str(face)
    kind = base.BIG_KINDS[scale]
    w = base.big_width(label, scale)
    h = base.cell_height(kind)
    base.big(glyph, (size - w) // 2, (size - h) // 2 - (1 if scale == 2 else 0), label, scale)
    tile.paste(0 if hit else 1, (0, 0), glyph)
    for i in range(size):
        for x, y in ((i, 0), (i, size - 1), (0, i), (size - 1, i)):
            if not guessed or i % 2 == 0:
                tile.putpixel((x, y), 1)
    return tile


class DiceEntry:
    """Enter the dice of one roll: ``rows`` = [(label, number of dice)] (one or two rows; a label
    may be empty); ``on_go(ctx, [[faces of row 1], …])`` when A or press enters them. ``hit``
    (if given) marks the faces that hit (filled); ``status`` writes the title bar's right side
    from the faces (e.g. the hits). ``words`` says the labels when drawn (a game's ``_``: the
    labels given ``N_`` marked follow a language chosen while the dice are entered)."""

    def __init__(self, title: str | Callable[[], str], rows: list[tuple[str, int]],
                 on_go: Callable[[Ctx, list[list[int]]], None],
                 hit: Callable[[int], bool] | None = None,
                 status: Callable[[list[list[int]]], str] | None = None,
                 words: Callable[[str], str] = str) -> None:
        self._title = title
        self.words = words
        self.on_go = on_go
        self.hit = hit
        self.dice_status = status
        self.rows: list[tuple[str, int]] = []
        self.faces: list[list[int]] = []
        self.set: list[list[bool]] = []
        self.cursor = 0
        self.resize(rows)

    @property
    def title(self) -> str:
        return self._title() if callable(self._title) else self._title

    def resize(self, rows: list[tuple[str, int]]) -> None:
        """Start again with ``rows`` of dice (every die a guess), unless they are the same rows."""
        if rows == self.rows:
            return
        self.rows = list(rows)
        self.faces = [dice_guess.chain(n, 0, [dice_guess.start_face(0, n, None)]) for _label, n in rows]
        self.set = [[False] * n for _label, n in rows]
        self.cursor = 0
        if self.set and self.set[0]:
            self.set[0][0] = True                  # the cursor is on it: it is read

    def cells(self) -> list[tuple[int, int]]:
        """(row, die) of every die, in the order the cursor goes through them."""
        return [(r, i) for r, (_label, n) in enumerate(self.rows) for i in range(n)]

    @property
    def at(self) -> tuple[int, int]:
        """(row, die) under the cursor."""
        return self.cells()[self.cursor]

    # -- the guess -------------------------------------------------------------------------------
    def turn(self, by: int) -> None:
        """Turn the die under the cursor by ``by`` faces (1..6, round); the dice after it that are not
        set show the guesses that follow from it."""
        r, i = self.at
        self.faces[r][i] = (self.faces[r][i] - 1 + by) % 6 + 1
        self.guess(r)

    def guess(self, r: int) -> None:
        """Every die of row ``r`` not set shows the likeliest face after the die before it."""
        n = len(self.faces[r])
        for j in range(n):
            if not self.set[r][j]:
                self.faces[r][j] = dice_guess.start_face(j, n, self.faces[r][j - 1] if j else None)

    # -- drawing ---------------------------------------------------------------------------------
    def render(self, ctx: Ctx) -> Image.Image:
        from firmware.i18n import _
        img, draw = base.frame()
        status = self.dice_status(self.faces) if self.dice_status else f"{self.cursor + 1}/{len(self.cells())}"
        base.title_bar(draw, base.clip(self.title, base.COLS - len(status) - 1), status)
        two = len(self.rows) > 1
        size = DIE_SMALL if two else DIE
        labelled = any(label for label, _n in self.rows)
        x0 = 1 + 7 * base.CHAR_W + 3 if labelled else 2      # a 7-letter label («Defence») and a gap, then the dice
        most = max((n for _label, n in self.rows), default=1)   # one gap for both rows: the dice stand in columns,
        gap = max(1, min(4, (base.W - 1 - x0 - most * size) // max(1, most - 1)))   # the last inside the panel
        y = base.TITLE_H + 2
        cur = self.at
        for r, (label, n) in enumerate(self.rows):
            if label:
                base.put(draw, 1, y + (size - base.LINE) // 2, base.clip(self.words(label), 7))
            for i in range(n):
                x = x0 + i * (size + gap)
                face = self.faces[r][i]
                img.paste(die_tile(face, self.hit is not None and self.hit(face), size, not self.set[r][i]), (x, y))
                if (r, i) == cur:                     # the cursor: a bar under the die
                    draw.rectangle((x, y + size + 1, x + size - 1, y + size + 2 if not two else y + size + 1), fill=1)
            y += size + (3 if not two else 2)
        hints = [_("↑↓ face ←→ die A: go"), _("dashed: guess ≥ left")]
        rows_left = (base.H - y) // base.LINE
        for k, hint in enumerate(hints[:rows_left]):
            base.put(draw, 1, base.H - (rows_left - k) * base.LINE, base.clip(hint))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("die", key)
        if what is Intent.MORE_ONE:
            self.turn(1)
        elif what is Intent.LESS_ONE:
            self.turn(-1)
        elif what is Intent.RIGHTWARD:
            if self.cursor + 1 < len(self.cells()):
                self.cursor += 1
                r, i = self.at
                self.set[r][i] = True              # read: no guess for another die changes it now
        elif what is Intent.LEFTWARD:
            if self.cursor == 0:
                if not repeated(key):                  # held left stops at the first die
                    ctx.pop()
            else:
                self.cursor -= 1
        elif what is Intent.GO:
            self.on_go(ctx, [list(f) for f in self.faces])
        elif what is Intent.BACK:
            ctx.pop()
