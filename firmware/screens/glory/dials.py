"""For the Glory of Rome: a dial whose ends are the rules' (the fame track never below 1, G-5), read
from the game each time it is drawn or turned."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Dial, Intent, intent

Bounds = Callable[[Ctx], tuple[int, int]]
"""The figures the rules allow now: ``(lo, hi)`` from the game as it stands."""
Limit = Callable[[Ctx, bool], str | None]
"""What a push past an end says (``True``: past the top); None: nothing (the end is plain)."""


class BoundDial(Dial):
    """A :class:`Dial` offering only what the rules allow now (``bounds``): a push past an end
    stops there and says why in a short sentence (``limit``). Fame on space 4 lost 9 on the dial,
    «4 → 1», a change the track cannot make; the double tax's penalty went to 11 on space 1,
    «1 → -10», and A brought a refusal of four rows."""

    def __init__(self, *args: Any, bounds: Bounds, limit: Limit, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds = bounds
        self.limit = limit

    def fit(self, ctx: Ctx) -> tuple[int, int]:
        """The ends as the game stands (fame changed over the serial link: the figure comes within)."""
        self.lo, self.hi = self.bounds(ctx)
        self.hi = max(self.lo, self.hi)
        self.value = max(self.lo, min(self.hi, self.value))
        return self.lo, self.hi

    def render(self, ctx: Ctx) -> Image.Image:
        self.fit(ctx)
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        lo, hi = self.fit(ctx)
        what = intent("dial", key)
        by = {Intent.MORE_ONE: 1, Intent.LESS_ONE: -1, Intent.MORE: self.steps[self.step],
              Intent.LESS: -self.steps[self.step]}.get(what)
        if by is not None and not lo <= self.value + by <= hi:
            self.value = max(lo, min(hi, self.value + by))     # as far as the rules go, and why no further
            said = self.limit(ctx, by > 0)
            if said:
                ctx.notify(said)
            return
        super().key(key, ctx)
