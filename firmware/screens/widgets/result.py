"""A result in big letters (a drawn item, a card's position, a roll): only the person holding the device
should look; any key but the joystick's up/down closes it."""
from __future__ import annotations

from PIL import Image

from firmware.i18n import _
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent


class ResultScreen:
    """A drawn item in big letters (only the person holding the device should look)."""

    def __init__(self, label: str, value: str) -> None:
        self.title = label
        self.value = value

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, _("A: ok"))
        for scale in (3, 2):
            w = base.big_width(self.value, scale)
            if w <= base.W - 4:
                base.big(img, (base.W - w) // 2, base.TITLE_H + (6 if scale == 3 else 12), self.value, scale)
                return img
        kind = "large" if len(self.value) * base.advance("large") <= base.W - 4 else "body"
        if kind == "large":
            w = len(self.value) * base.advance("large")
            base.put(draw, (base.W - w) // 2, base.TITLE_H + 16, self.value, kind="large")
        else:
            base.lines(draw, base.wrap(self.value))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("text", key) in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
