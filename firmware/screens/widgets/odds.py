"""Odds: how probabilities are written (one decimal where a whole percent hides a difference, the
figures of one set summing to 100) and the odds screen (a row and a bar per outcome).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from firmware.i18n import decimal_mark
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent

FINE_BELOW = 0.10        # below 10 % and above 90 % a whole percent hides a difference: one decimal
FINE_ABOVE = 0.90


def _fine(p: float) -> bool:
    return p < FINE_BELOW or p > FINE_ABOVE


def pct(p: float) -> str:
    """One probability as a person reads it: a whole percent from 10 % to 90 %, one decimal below
    and above (``4.2%``, ``97.5%``; ru/uk ``4,2%``), and never a certainty it does not have
    (``<0.1%``, ``>99.9%``, while 0 and 1 are ``0%`` and ``100%``)."""
    return decimal_mark(_pct(p))


def _pct(p: float) -> str:
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.0005:
        return "<0.1%"
    if p > 0.9995:
        return ">99.9%"
    return f"{100 * p:.1f}%" if _fine(p) else f"{100 * p:.0f}%"


def _hamilton(exact: list[float], total: int, unit: int) -> list[int]:
    """``exact`` (in tenths of a percent) rounded to multiples of ``unit`` summing to ``total``:
    each rounded down, then the units left go to the largest remainders (or come off the smallest)."""
    shown = [int(e // unit) * unit for e in exact]
    order = sorted(range(len(exact)), key=lambda k: exact[k] - shown[k], reverse=True)
    gap = total - sum(shown)
    i = 0
    while gap != 0 and order:
        k = order[i % len(order)] if gap > 0 else order[-1 - i % len(order)]
        step = unit if gap > 0 else -unit
        if 0 <= shown[k] + step <= 1000:
            shown[k] += step
            gap -= step
        i += 1
        if i > 4 * len(order) + 4:
            break
    return shown


def percents(ps: Sequence[float], tenths: bool = False) -> list[str]:
    """The outcomes of one event (``ps`` sum to 1) written as :func:`pct` does, each figure rounded
    on its own by the one rule :func:`pct` follows (40.49 % is never «41%», which it read beside
    the «40.5%» of a line that writes it with a decimal), the figures shown summing to exactly 100
    (never 101 %, never 99 %): where the whole percents rounded so do not sum to 100, every figure
    of the set is written with one decimal (5.6 %, 50.0 %, 44.4 %; 40.5 %, 16.1 %, 43.4 %), and
    only where those do not either is a tenth moved, to the largest remainder. ``tenths``: every
    figure with one decimal (the set beside a line that writes one of them so). The language's
    decimal mark (ru/uk: a comma)."""
    return [decimal_mark(x) for x in _percents(ps, tenths)]


def _tenths_of(p: float, fine: bool) -> int:
    """``p`` rounded as :func:`pct` writes it (one decimal, or a whole percent), in tenths."""
    return round(10 * float(f"{100 * p:.1f}")) if fine else 10 * int(f"{100 * p:.0f}")


def _percents(ps: Sequence[float], tenths: bool = False) -> list[str]:
    fine = [tenths or _fine(p) for p in ps]
    shown = [_tenths_of(p, f) for p, f in zip(ps, fine)]
    if sum(shown) != 1000:                             # 40 + 16 + 43: every figure gets its tenth
        fine = [True] * len(ps)
        shown = [_tenths_of(p, True) for p in ps]
    if sum(shown) != 1000:                             # 33.3 + 33.3 + 33.3: a tenth to the largest remainder
        shown = _hamilton([1000 * p for p in ps], 1000, 1)
    out = []
    for p, v, k in zip(ps, shown, range(len(ps))):
        if p <= 0 or p >= 1:                           # a certainty, as pct writes it
            out.append("0%" if p <= 0 else "100%")
        elif 0 < p and v == 0:
            out.append("<0.1%" if fine[k] else "<1%")
        elif p < 1 and v == 1000:
            out.append(">99.9%")
        else:
            out.append(f"{v / 10:.1f}%" if fine[k] else f"{v // 10}%")
    return out


def share_of(ps: Sequence[float], first: bool, tenths: bool = False) -> str:
    """The chance of ``ps[0]`` (``first``) or of all the others together, written as
    :func:`percents` writes that set (``tenths`` too): a one-figure line (a battle's "win 40.5%")
    says what the odds screen of the same event shows, never 40.5% beside 41%."""
    shown = _percents(ps, tenths)[0]
    if first:
        return decimal_mark(shown)
    flipped = {"<0.1%": ">99.9%", ">99.9%": "<0.1%", "0%": "100%", "100%": "0%"}
    if shown in flipped:
        return decimal_mark(flipped[shown])
    rest = 1000 - round(10 * float(shown[:-1]))
    return decimal_mark(f"{rest / 10:.1f}%" if "." in shown else f"{rest // 10}%")


class OddsScreen:
    """Outcomes with their chances, a row and a bar each (up to three): ``outcomes(ctx)`` gives
    ``[(label, p)]`` (None while they are computed, ``[]`` when there is nothing to compute yet:
    ``empty`` says why). With ``adjust`` the screen is a dial over a figure (a modifier): left/right
    change it; ``figure(ctx)`` is shown in the title bar, or, with ``hint()``, on the bottom row
    right of the hint that names it (the dial's row: «←→ modifier  +2»), the title bar then saying
    ``back()`` («B: back»): every language shows both hints whole; only B goes back. ``tenths(ctx)``:
    every figure with one decimal (as the screen it was opened from writes one of them). Without
    ``adjust``, any of B, left, A, right or press closes."""

    def __init__(self, title: str | Callable[[Ctx], str], outcomes: Callable[[Ctx], list[tuple[str, float]] | None],
                 empty: str | Callable[[], str] = "", waiting: str | Callable[[], str] = "",
                 adjust: Callable[[Ctx, int], None] | None = None, figure: Callable[[Ctx], str] | None = None,
                 hint: Callable[[], str] | None = None, back: Callable[[], str] | None = None,
                 tenths: Callable[[Ctx], bool] | None = None) -> None:
        self._title = title
        self.tenths = tenths
        self.outcomes = outcomes
        self.empty = empty
        self.waiting = waiting
        self.adjust = adjust
        self.figure = figure
        self.hint = hint
        self.back = back
        self.shown_title = ""

    @property
    def title(self) -> str:
        return self.shown_title

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        self.shown_title = self._title(ctx) if callable(self._title) else self._title
        shown = self.figure(ctx) if self.figure else ""
        dial = self.hint is not None and self.back is not None     # the figure on the dial's row
        base.title_bar(draw, self.shown_title, self.back() if dial and self.back else shown)
        rows = self.outcomes(ctx)
        if not rows:
            text = self.waiting if rows is None else self.empty
            base.lines(draw, base.wrap(text() if callable(text) else text))
            return img
        figures = percents([p for _label, p in rows], bool(self.tenths and self.tenths(ctx)))
        for i, ((label, p), value) in enumerate(zip(rows[:3], figures)):
            y = base.TITLE_H + 1 + i * 17
            base.put(draw, 1, y, base.clip(label, base.COLS - len(value) - 1))
            base.put(draw, base.W - len(value) * base.CHAR_W - 1, y, value)
            width = round((base.W - 3) * p)
            draw.rectangle((1, y + 12, base.W - 2, y + 15), outline=1, fill=0)
            if width:
                draw.rectangle((1, y + 12, 1 + width, y + 15), fill=1)
        if self.hint is not None and len(rows) < 3:
            figure = shown if dial else ""
            base.text(draw, 1, base.row_y(3), base.clip(self.hint(), base.COLS - len(figure) - (2 if figure else 0)))
            if figure:
                base.put(draw, base.W - len(figure) * base.CHAR_W - 1, base.row_y(3), figure)
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
