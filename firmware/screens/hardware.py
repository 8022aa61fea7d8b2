"""Settings → Hardware: what ``legatus doctor`` reports, a key test and a panel test pattern.

The checks come from firmware.doctor (the same rows and fixes as the command): on the device with
the facts of the running program (firmware.doctor.live), in the simulator without them. Selecting a
row shows what was found and the fix. The key test names every key event as it arrives (hold A or
hold B to leave: every other key, B and left included, is only named; either hold leaves, so a dead
or broken A, the key one opens the test for, does not keep the player in it); the test pattern fills the panel with
shapes that show a dead pixel, a shifted column or a wrong rotation (any key: the next one; B or
left: back).
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from engine.text import N_
from firmware.i18n import _, say
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import Intent, Item, ListScreen, TextScreen, intent

if TYPE_CHECKING:
    from firmware.doctor import Check

MARKS = {"ok": "✓", "warn": "!", "fail": "×", "info": ""}      # (signs: the same in every language)


def _checks(ctx: Ctx) -> list[Check]:
    return ctx.hardware_checks()


class HardwareScreen(ListScreen):
    """The doctor's rows (label, mark), then Key test and Test pattern."""

    title = Said(N_("Hardware"))

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[Check] | None = None

    def items(self, ctx: Ctx) -> list[Item]:
        if self._rows is None:
            self._rows = _checks(ctx)
        out = [Item(say(c.label), partial(_show, c), MARKS[c.status]) for c in self._rows]
        out.append(Item(_("Key test"), lambda cx: cx.push(KeyTestScreen())))
        out.append(Item(_("Test pattern"), lambda cx: cx.push(PatternScreen())))
        return out


def _show(check: Check, ctx: Ctx) -> None:
    ctx.push(remade(lambda: _detail(check)))


def _detail(check: Check) -> TextScreen:
    rows = [say(check.found)]
    if check.fix is not None:
        rows.append(say(check.fix))
    return TextScreen(say(check.label), rows)


def key_name(key: str) -> str:
    """A key event as the person pressing it would name it."""
    name, _sep, held = key.partition(":")
    names = {"a": "A", "b": "B", "key3": "KEY3", "press": _("press"), "up": _("up"),
             "down": _("down"), "left": _("left"), "right": _("right")}
    shown = names.get(name, name)
    return _("{} (held)").format(shown) if held else shown


class KeyTestScreen:
    """Names each key event; hold A or hold B to leave (no undo here)."""

    second_action = True           # hold A or B: leave (every other key is named)

    title = Said(N_("Key test"))
    key_place = "keytest"          # where it stands in the key table: every key named, hold A or B leaves

    def __init__(self) -> None:
        self.last: str | None = None
        self.seen: list[str] = []

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, str(self.title), str(len(self.seen)))
        rows = [_("Last: {}").format(key_name(self.last)) if self.last else _("Press any key."),
                " ".join(key_name(k) for k in self.seen)]
        base.lines(draw, [r for row in rows for r in base.wrap(row)][:base.ROWS - 1])
        base.text(draw, 0, base.row_y(base.ROWS - 1), base.clip(_("Hold A or B to leave.")))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if intent(self.key_place, key) == Intent.CLOSE:
            ctx.pop()
            return
        self.last = key
        if key not in self.seen:
            self.seen.append(key)


PATTERNS = ("frame", "checker", "on", "off", "stripes")


def pattern(name: str, size: tuple[int, int] = (base.W, base.H)) -> Image.Image:
    """A test image: ``frame`` (border, diagonals, a notch at the top left), ``checker`` (pixels
    alternate), ``on``, ``off``, ``stripes`` (every other page of 8 rows)."""
    w, h = size
    img = Image.new("1", size, 1 if name == "on" else 0)
    draw = ImageDraw.Draw(img)
    if name == "frame":
        draw.rectangle((0, 0, w - 1, h - 1), outline=1)
        draw.line((0, 0, w - 1, h - 1), fill=1)
        draw.line((0, h - 1, w - 1, 0), fill=1)
        draw.rectangle((2, 2, 9, 5), fill=1)            # top left: the rotation is right if it is here
    elif name == "checker":             # rows of 0b1010... and 0b0101... (mode "1" packs MSB first)
        row = (w + 7) // 8
        img = Image.frombytes("1", size, b"".join((b"\xaa" if y % 2 == 0 else b"\x55") * row for y in range(h)))
    elif name == "stripes":
        for page in range(0, h // 8, 2):
            draw.rectangle((0, page * 8, w - 1, page * 8 + 7), fill=1)
    return img


class PatternScreen:
    """The test patterns in turn: any key shows the next, B or left goes back."""

    title = Said(N_("Test pattern"))

    def __init__(self) -> None:
        self.index = 0

    def render(self, ctx: Ctx) -> Image.Image:
        return pattern(PATTERNS[self.index])

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("text", key) == Intent.BACK:
            ctx.pop()
        else:
            self.index = (self.index + 1) % len(PATTERNS)
