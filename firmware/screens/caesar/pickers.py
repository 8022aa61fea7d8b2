"""Caesar!: the pickers — one choice out of a list, the tile turned up, and tokens drawn out of what could have been
drawn (in the order drawn)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from PIL import Image

from engine.caesar.tiles import Back
from engine.caesar.tokens import TOKENS
from firmware.screens import base
from firmware.screens.caesar.icons import draw_icon
from firmware.screens.caesar.text import _
from firmware.screens.caesar.words import ACTION_WORDS, Follows, edition_of, icon_of, nums, tile_letter, tok, view_if_any
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Intent, Item, WrappedListScreen, intent


GRID_X = 16          # px: where the token grid's cells start, right of each row's icon
ICON = 10            # px: the icon before each row of the grid


def token_grid(names: set[str]) -> list[list[str]]:
    """The token picker's grid for ``names`` (those it may ever offer): a row per icon, in the
    order of the tokens (C-3: sword, shield, ship, wild; the centurions of C-20 after those of
    their icon, the shield+ship one on a row of its own), each row's tokens in that order (6/0,
    5/1, 4/2, 3/3). With any base token, all 16 are laid out (a token not offered stays a dot in
    its place): the cells keep their places from draw to draw, as the hand learns them."""
    order = list(dict.fromkeys(t.name for t in TOKENS))
    base_names = {t.name for t in TOKENS if not t.centurion}
    names = names | (base_names if names & base_names else set())
    rows: dict[str, list[str]] = {}
    for name in [n for n in order if n in names] + sorted(names - set(order)):
        rows.setdefault(icon_of(name), []).append(name)
    icons = list(dict.fromkeys(t.icon for t in TOKENS))        # sword, shield, ship, wild, shield+ship
    return [rows[i] for i in sorted(rows, key=lambda i: icons.index(i) if i in icons else len(icons))]


# -- pickers -------------------------------------------------------------------------------------
class ChoiceScreen(Follows, WrappedListScreen):
    """A list of (label, value, note); select calls ``on_pick(ctx, value)``; the cursor follows a
    value (the same in every language) when the list is made again; taken off by an undo."""

    def __init__(self, title: str, choices: list[tuple[str, str, str]],
                 on_pick: Callable[[Ctx, str], Any]) -> None:
        super().__init__()
        self.title = title
        self.choices = choices
        self.on_pick = on_pick

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(label, partial(self._pick, value=value), note, ident=value) for label, value, note in self.choices]

    def _pick(self, ctx: Ctx, value: str) -> None:
        self.on_pick(ctx, value)


class TokenPicker(Follows, WrappedListScreen):
    """Pick ``count`` tokens out of ``pool`` (what could have been drawn), in the order drawn, on a
    grid: a row per icon (as the tokens show it), a cell per token of that icon (C-3, C-20); the
    joystick moves over the cells that may be drawn now (wrapping, as the keyboard's grid does), A
    or press takes the token under the cursor; the cursor starts on the likeliest token (the most
    copies left) and stays where the last one was taken. B takes back the last pick; taken off by
    an undo. ``confirm``: the last pick does not act at once: the tokens are listed, in order,
    above Start (A on one of them picks it again). ``back``: tokens a tile puts back in the bag
    between its draws (``tile_takes``), offered from their pick on (S-5); a centurion among them is
    one of ``centurions`` (those still face down). ``series``: this picker asks one token of
    several owed, asked one picker each: (how many were named before it, how many in all), which
    its count says (``1/2``, not ``0/1``, for the second of two)."""

    key_place = "grid"

    def __init__(self, title: Callable[[], str], pool: list[str], count: int,
                 on_done: Callable[[Ctx, list[str]], None], confirm: bool = False,
                 back: Sequence[Back] = (), centurions: Sequence[str] = (),
                 series: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.said = title                 # said when drawn: it follows a change of language
        self.pool = sorted(pool)
        self.count = count
        self.series = series
        self.picked: list[str] = []
        self.on_done = on_done
        self.confirm = confirm            # the last pick shows the tokens and Start (B or A on one: pick again)
        self.put_back = list(back)
        self.centurions = sorted(set(centurions))
        ever = set(self.pool) | {t for _i, t in self.put_back if isinstance(t, str)}
        self.grid = token_grid(ever | (set(self.centurions) if any(t is None for _i, t in self.put_back) else set()))
        self.at: tuple[int, int] | None = None     # the grid's cursor (row, cell); None: not placed yet

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.said()

    def status(self, ctx: Ctx) -> str:
        if self.series is not None:
            done, of = self.series
            return f"{done + len(self.picked)}/{of}"
        return f"{len(self.picked)}/{self.count}"

    def confirming(self) -> bool:
        """The tokens picked are listed above Start (``confirm``, all picked): a list, no grid."""
        return self.confirm and len(self.picked) >= self.count

    def left(self) -> dict[str, int]:
        """What may be drawn now, token → how many: the pool and the tokens put back so far (S-5),
        less those picked."""
        at = len(self.picked)
        back = [t for i, t in self.put_back if i <= at]
        left = sorted(self.pool + [self.picked[t] if isinstance(t, int) else t for t in back if t is not None]
                      + (self.centurions if None in back else []))
        for name in self.picked:
            left.remove(name)
        counts: dict[str, int] = {}
        for name in left:
            counts[name] = counts.get(name, 0) + 1
        return counts

    def items(self, ctx: Ctx) -> list[Item]:
        """The tokens that may be drawn now (or, when confirming, those picked and Start)."""
        if self.confirming():                                    # nothing to take back once it starts
            return ([Item(f"{i + 1}. {tok(n)}", partial(self._again, at=i)) for i, n in enumerate(self.picked)]
                    + [Item("▶ " + _("Start"), lambda c: self.on_done(c, list(self.picked)), ident="start")])
        return [Item(tok(n), partial(self._pick, name=n), f"×{k}" if k > 1 else "") for n, k in self.left().items()]

    # -- the grid ----------------------------------------------------------------------------------
    def cell(self, counts: dict[str, int]) -> tuple[int, int] | None:
        """Where the cursor is among the cells that may be drawn now: where it was, else (the token
        there is gone) the nearest one; at first the likeliest (the most copies), nearest the middle."""
        cells = [(r, c) for r, row in enumerate(self.grid) for c, name in enumerate(row) if name in counts]
        if not cells:
            return None
        if self.at in cells:
            return self.at
        if self.at is None:
            mid_r, mid_c = (len(self.grid) - 1) / 2, (max(len(row) for row in self.grid) - 1) / 2
            return min(cells, key=lambda rc: (-counts[self.grid[rc[0]][rc[1]]],
                                              abs(rc[0] - mid_r) + abs(rc[1] - mid_c), rc))
        r0, c0 = self.at
        return min(cells, key=lambda rc: (abs(rc[0] - r0) + abs(rc[1] - c0), rc))

    def next_cell(self, at: tuple[int, int], way: Intent, counts: dict[str, int]) -> tuple[int, int]:
        """The cell one push ``way`` from ``at`` among those that may be drawn (wrapping round; up
        and down to the nearest column)."""
        r, c = at
        d = 1 if way in (Intent.NEXT, Intent.RIGHTWARD) else -1
        if way in (Intent.LEFTWARD, Intent.RIGHTWARD):
            row = self.grid[r]
            for k in range(1, len(row)):
                if row[(c + d * k) % len(row)] in counts:
                    return r, (c + d * k) % len(row)
            return at
        for k in range(1, len(self.grid)):
            rr = (r + d * k) % len(self.grid)
            cols = [cc for cc, name in enumerate(self.grid[rr]) if name in counts]
            if cols:
                return rr, min(cols, key=lambda cc: (abs(cc - c), cc))
        return at

    def render(self, ctx: Ctx) -> Image.Image:
        if self.confirming():
            return super().render(ctx)
        img, draw = base.frame()
        base.title_bar(draw, self.title, self.status(ctx))
        counts = self.left()
        self.at = self.cell(counts)
        pitch = min(base.LINE, (base.H - base.TITLE_H - 1) // max(1, len(self.grid)))
        width = (base.W - GRID_X) // max(len(row) for row in self.grid) if self.grid else base.W
        for r, row in enumerate(self.grid):
            y = base.TITLE_H + 1 + r * pitch
            draw_icon(draw, 1, y + (pitch - ICON) // 2, icon_of(row[0]), ICON)
            for c, name in enumerate(row):
                x = GRID_X + c * width
                if name not in counts:                           # not in the bag now: a dot, no stop
                    draw.point((x + width // 2 - 1, y + pitch // 2), fill=1)
                    continue
                on = (r, c) == self.at
                if on:
                    draw.rectangle((x, y, x + width - 2, y + pitch - 1), fill=1)
                text = nums(name)
                base.put(draw, x + (width - 1 - len(text) * base.CHAR_W) // 2, y + (pitch - base.LINE) // 2,
                         text, fill=0 if on else 1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if self.confirming():
            if intent("row", key) is Intent.BACK:                # B: the last one picked again
                self.picked.pop()
            else:
                super().key(key, ctx)
            return
        what = intent(self.key_place, key)
        counts = self.left()
        at = self.cell(counts)
        if what in (Intent.PREV, Intent.NEXT, Intent.LEFTWARD, Intent.RIGHTWARD) and at is not None:
            self.at = self.next_cell(at, what, counts)
        elif what is Intent.SELECT and at is not None:
            self.at = at
            self._pick(ctx, self.grid[at[0]][at[1]])
        elif what is Intent.BACK:
            if self.picked:
                self.picked.pop()
            else:
                ctx.pop()

    def _pick(self, ctx: Ctx, name: str) -> None:
        self.picked.append(name)
        if len(self.picked) >= self.count:
            if self.confirm:
                self.cursor, self.top = self.count, 0            # on Start
            else:
                self.on_done(ctx, list(self.picked))

    def _again(self, ctx: Ctx, at: int) -> None:
        """A on a token shown before Start: pick it (and those after it) again."""
        del self.picked[at:]
        self.cursor = self.top = 0


class TilePicker(Follows):
    """Which tile did you turn up? One tile per screen (its letter large, its actions listed);
    up/down change, A picks, B goes back."""

    def __init__(self, letters: list[str], definitions: dict[str, str],
                 on_pick: Callable[[Ctx, str], None]) -> None:
        self.letters = letters
        self.definitions = definitions
        self.on_pick = on_pick
        self.cursor = 0
        self.title = _("Which tile?")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, _("Which tile?"), f"{self.cursor + 1}/{len(self.letters)}")
        letter = self.letters[self.cursor]
        base.put(draw, 4, base.row_y(0) + 4, tile_letter(letter, edition_of(view_if_any(ctx))), kind="huge")
        for i, a in enumerate(self.definitions[letter].split("+")[:4]):
            base.put(draw, 28, base.row_y(i), base.clip(_(ACTION_WORDS.get(a, a)), 16))
        base.put(draw, 4, base.H - 13, "↑↓" if len(self.letters) > 1 else "")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("row", key)
        if what in (Intent.PREV, Intent.NEXT) and self.letters:
            self.cursor = max(0, min(len(self.letters) - 1, self.cursor + (1 if what is Intent.NEXT else -1)))
        elif what is Intent.SELECT:
            self.on_pick(ctx, self.letters[self.cursor])
        elif what is Intent.BACK:
            ctx.pop()
