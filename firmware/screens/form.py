"""A small numeric form shared by the game screens: rows of bounded numbers set with the joystick."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from firmware.i18n import _
from firmware.screens import base
from firmware.screens.base import Ctx, Item


@dataclass
class Field:
    """One form row: ``label``, ``value`` within ``lo..hi``; ``show`` formats the value."""

    key: str
    label: str
    value: int
    lo: int
    hi: int
    show: Callable[[int], str] = str


class NumberForm:
    """Rows of numbers: up/down move, left/right change the value (the cursor row shows it as
    ``<value>``, so left is not "back" here), A (or press) runs ``on_go`` with the values, B goes
    back. The title and the field labels are said with ``_()`` when drawn, so a caller may pass
    ``N_("…")`` marked English texts and they follow a language change. ``keep`` (if given)
    receives the values after every change;
    ``status`` (if given) writes the title bar's right side from the values."""

    def __init__(self, title: str, fields: list[Field], on_go: Callable[[Ctx, dict[str, int]], None] | None,
                 keep: Callable[[dict[str, int]], None] | None = None,
                 status: Callable[[Ctx, dict[str, int]], str] | None = None) -> None:
        self.title = title
        self.fields = fields
        self.on_go = on_go
        self.keep = keep
        self.status = status
        self.cursor = 0
        self.top = 0

    def values(self) -> dict[str, int]:
        return {f.key: f.value for f in self.fields}

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, _(self.title), self.status(ctx, self.values()) if self.status else "")
        items = [Item(_(f.label), None, f"<{f.show(f.value)}>" if i == self.cursor else f.show(f.value))
                 for i, f in enumerate(self.fields)]
        self.top = base.wrapped_top([len(base.item_rows(i)) for i in items], self.cursor,
                                    min(self.top, self.cursor))
        base.draw_list_wrapped(draw, items, self.cursor, self.top)   # a long label takes two rows
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(self.fields)
            if self.cursor < self.top:
                self.top = self.cursor
            elif self.cursor >= self.top + base.ROWS:
                self.top = self.cursor - base.ROWS + 1
        elif key in ("left", "right"):
            f = self.fields[self.cursor]
            f.value = max(f.lo, min(f.hi, f.value + (1 if key == "right" else -1)))
            if self.keep is not None:
                self.keep(self.values())
        elif key in ("a", "press") and self.on_go is not None:
            self.on_go(ctx, self.values())
        elif key == "b":
            ctx.pop()


def on_off(v: int) -> str:
    return _("on") if v else _("off")
