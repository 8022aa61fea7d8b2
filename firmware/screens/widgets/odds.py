"""Odds: how probabilities are written (one decimal where a whole percent hides a difference, the
figures of one set summing to 100) and the odds screen (a row and a bar per outcome).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent

FINE_BELOW = 0.10        # below 10 % and above 90 % a whole percent hides a difference: one decimal
FINE_ABOVE = 0.90


def _fine(p: float) -> bool:
    return p < FINE_BELOW or p > FINE_ABOVE


def pct(p: float) -> str:
    """One probability as a person reads it: a whole percent from 10 % to 90 %, one decimal below
    and above (``4.2%``, ``97.5%``), and never a certainty it does not have (``<0.1%``, ``>99.9%``,
    while 0 and 1 are ``0%`` and ``100%``)."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.0005:
        return "<0.1%"
    if p > 0.9995:
        return ">99.9%"
    return f"{100 * p:.1f}%" if _fine(p) else f"{100 * p:.0f}%"


def percents(ps: Sequence[float]) -> list[str]:
    """The outcomes of one event (``ps`` sum to 1) written as :func:`pct` does, rounded so that the
    figures shown sum to exactly 100 (largest remainders: never 101 %, never 99 %)."""
    units = [1 if _fine(p) else 10 for p in ps]          # tenths of a percent per figure
    exact = [1000 * p for p in ps]
    shown = [round(e / u) * u for e, u in zip(exact, units)]
    total = round(1000 * sum(ps))
    for _i in range(4 * len(ps) + 20):
        gap = total - sum(shown)
        if gap == 0:
            break
        sign = 1 if gap > 0 else -1
        fits = [k for k in range(len(ps)) if units[k] <= abs(gap) and 0 <= shown[k] + sign * units[k] <= 1000]
        if not fits:
            fits = [k for k in range(len(ps)) if 0 <= shown[k] + sign * units[k] <= 1000]
        if not fits:
            break
        # the figure whose rounding moved it furthest the other way takes the change
        k = max(fits, key=lambda j: sign * (exact[j] - shown[j]))
        shown[k] += sign * units[k]
    out = []
    for p, s, u in zip(ps, shown, units):
        if 0 < p and s == 0:
            out.append("<0.1%" if u == 1 else "<1%")
        elif p < 1 and s == 1000:
            out.append(">99.9%")
        else:
            out.append(f"{s / 10:.1f}%" if u == 1 else f"{s // 10}%")
    return out


class OddsScreen:
    """Outcomes with their chances, a row and a bar each (up to three): ``outcomes(ctx)`` gives
    ``[(label, p)]`` (None while they are computed, ``[]`` when there is nothing to compute yet:
    ``empty`` says why). With ``adjust`` the screen is a dial over a figure (a modifier): left/right
    change it, ``figure(ctx)`` is shown in the title bar and ``hint()`` on the bottom row; only B
    goes back. Without it, any of B, left, A, right or press closes."""

    def __init__(self, title: str | Callable[[Ctx], str], outcomes: Callable[[Ctx], list[tuple[str, float]] | None],
                 empty: str | Callable[[], str] = "", waiting: str | Callable[[], str] = "",
                 adjust: Callable[[Ctx, int], None] | None = None, figure: Callable[[Ctx], str] | None = None,
                 hint: Callable[[], str] | None = None) -> None:
        self._title = title
        self.outcomes = outcomes
        self.empty = empty
        self.waiting = waiting
        self.adjust = adjust
        self.figure = figure
        self.hint = hint
        self.shown_title = ""

    @property
    def title(self) -> str:
        return self.shown_title

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        self.shown_title = self._title(ctx) if callable(self._title) else self._title
        base.title_bar(draw, self.shown_title, self.figure(ctx) if self.figure else "")
        rows = self.outcomes(ctx)
        if not rows:
            text = self.waiting if rows is None else self.empty
            base.lines(draw, base.wrap(text() if callable(text) else text))
            return img
        figures = percents([p for _label, p in rows])
        for i, ((label, p), value) in enumerate(zip(rows[:3], figures)):
            y = base.TITLE_H + 1 + i * 17
            base.put(draw, 1, y, base.clip(label, base.COLS - len(value) - 1))
            base.put(draw, base.W - len(value) * base.CHAR_W - 1, y, value)
            width = round((base.W - 3) * p)
            draw.rectangle((1, y + 12, base.W - 2, y + 15), outline=1, fill=0)
            if width:
                draw.rectangle((1, y + 12, 1 + width, y + 15), fill=1)
        if self.hint is not None and len(rows) < 3:
            base.text(draw, 1, base.row_y(3), base.clip(self.hint()))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if self.adjust is not None:
            what = intent("dial", key)
            by = {Intent.MORE_ONE: 1, Intent.MORE: 1, Intent.LESS_ONE: -1, Intent.LESS: -1}.get(what)
            if by is not None:
                self.adjust(ctx, by)
            elif what is Intent.BACK:
                ctx.pop()
            return
        if intent("text", key) in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
