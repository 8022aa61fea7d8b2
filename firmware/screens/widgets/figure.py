"""Figures: a form of bounded numbers (:class:`NumberForm`) and one big figure (:class:`Dial`).

In a form the cursor row shows its figure as ``‹n›``; left/right change it (so left is not "back"
on a figure row: B is), A is the form's main action. A field with a wide range has steps: its
step shows where the figure is (``±5 ‹12›``) and press changes it (±1 → ±5 → ±10); the step is
kept when the cursor moves to another row. The keys come from the one key table. A field may be
*remembered* (``remember``: a device setting): the form opens on the value last used, and keeps the
value when its main action is taken (the table's habits: the dice it throws itself).
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from PIL import Image

from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent
from firmware.screens.widgets.listing import STEPS, Item, WrappedListScreen, figure
from firmware.screens.widgets.share import FairShare

if TYPE_CHECKING:
    from engine.text import Msg

log = logging.getLogger(__name__)

STEPPED = 20        # a field whose range is wider than this has steps (±1, ±5, ±10)


def recalled(ctx: Ctx, key: str, lo: int, hi: int) -> int | None:
    """The value the device setting ``key`` remembers, if it is a figure within ``lo..hi``."""
    raw = str(ctx.settings.get(key) or "")
    try:
        value = int(raw)
    except ValueError:
        if raw:
            log.warning("the remembered %s=%r is not a figure: not used", key, raw)
        return None
    return value if lo <= value <= hi else None


def remember(ctx: Ctx, key: str, value: int) -> None:
    """Keep ``value`` in the device setting ``key`` (a write only when it changes)."""
    if ctx.settings.get(key) == str(value):
        return
    response = ctx.set_setting(key, str(value))
    if not response.get("ok"):
        log.warning("%s=%s was not kept: %s", key, value, response.get("message"))


@dataclass
class Field:
    """One form row: ``label``, ``value`` within ``lo..hi``; ``show`` formats the value."""

    key: str
    label: str
    value: int
    lo: int
    hi: int
    show: Callable[[int], str] = str
    remember: str = ""          # a device setting keeping the value last used ("": none)
    # what a push past the limit says, given the limit (a count's own sentence in the rulebook's
    # words: «For the Glory of Rome takes 1 to 4 players.»); None: :meth:`NumberForm.refuse`'s
    limit: Callable[[int], str] | None = None
    # how that sentence names the field when not by its catalog ``label`` (a name the player typed,
    # a bag's common name with a sentence's capital: «Gold: at most 99.»); None: ``term(label)``
    named: Msg | str | None = None

    @property
    def steps(self) -> bool:
        return self.hi - self.lo > STEPPED


class NumberForm(WrappedListScreen):
    """Rows of numbers (a long label takes two rows): up/down move, left/right change the value
    (the cursor row shows it as ``‹value›``), A (or press on a row without steps) runs ``on_go``
    with the values, B goes back. The title and the field labels are said with ``_()`` when drawn,
    so a caller may pass ``N_("…")`` marked English texts and they follow a language change (or,
    for a title that is no catalog text, a block's name, a function that says it).
    ``keep`` (if given) receives the values after every change; ``status`` (if given) writes the
    title bar's right side from the values. ``fair`` (a new game's form): the fair-draw code and
    the players' share rows after the fields (:mod:`.share`)."""

    def __init__(self, title: str | Callable[[], str], fields: list[Field], on_go: Callable[[Ctx, dict[str, int]], None] | None,
                 keep: Callable[[dict[str, int]], None] | None = None,
                 status: Callable[[Ctx, dict[str, int]], str] | None = None, fair: FairShare | None = None) -> None:
        super().__init__()
        self.form_title = title
        self.fields = fields
        self.on_go = on_go
        self.keep = keep
        self.form_status = status
        self.fair = fair
        self.recalled = False

    @property
    def title(self) -> str:  # type: ignore[override]
        from firmware.i18n import _
        return self.form_title() if callable(self.form_title) else _(self.form_title)

    def recall(self, ctx: Ctx) -> None:
        """Once, before the form is first drawn or used: the remembered fields take their last value."""
        if self.recalled:
            return
        self.recalled = True
        for f in self.fields:
            if f.remember:
                value = recalled(ctx, f.remember, f.lo, f.hi)
                if value is not None:
                    f.value = value

    def render(self, ctx: Ctx) -> Image.Image:
        self.recall(ctx)
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        self.recall(ctx)
        super().key(key, ctx)

    def values(self) -> dict[str, int]:
        return {f.key: f.value for f in self.fields}

    def hint(self, ctx: Ctx) -> str:
        """On a fair-draw row what A does there, else ``status``'s text."""
        hint = self.fair.hint(self.row_ident(ctx)) if self.fair is not None else None
        if hint is not None:
            return hint
        return self.form_status(ctx, self.values()) if self.form_status else ""

    def status(self, ctx: Ctx) -> str:
        """The title bar's right side: :meth:`hint`, when it fits beside the whole title."""
        return base.hint_place(self.title, self.hint(ctx))[0]

    def footer(self, ctx: Ctx) -> str:
        """:meth:`hint` under the rows when it does not fit beside the title (never a cut title)."""
        return base.hint_place(self.title, self.hint(ctx))[1]

    def row_ident(self, ctx: Ctx) -> str:
        """The ident of the row under the cursor ('' on an empty form)."""
        items = self.items(ctx)
        return items[min(self.cursor, len(items) - 1)].key if items else ""

    def field_items(self, rows: list[int] | None = None) -> list[Item]:
        """One figure row per field, the cursor's figure as ``‹value›`` (with its step); ``rows``:
        where each field's row stands in the form's list (other rows between them), default in order."""
        from firmware.i18n import _
        out = []
        for i, f in enumerate(self.fields):
            shown = f.show(f.value)
            if (rows[i] if rows is not None else i) == self.cursor:
                shown = figure(shown, STEPS[self.step] if f.steps else None)
            out.append(Item(_(f.label), None, shown, ident=f"field:{f.key}",
                            adjust=partial(self._change, field=f), steps=f.steps))
        return out

    def fair_items(self, ctx: Ctx) -> list[Item]:
        """In a new game's form (``fair`` given): the fair-draw code and the players' share rows."""
        return self.fair.items(ctx) if self.fair is not None else []

    def items(self, ctx: Ctx) -> list[Item]:
        return self.field_items() + self.fair_items(ctx)

    def _change(self, ctx: Ctx, by: int, field: Field) -> None:
        if change(ctx, field, by) and self.keep is not None:
            self.keep(self.values())

    @staticmethod
    def refuse(ctx: Ctx, field: Field, more: bool) -> None:
        """Say why a push on ``field`` (up: ``more``) changes nothing (:func:`refuse`)."""
        refuse(ctx, field, more)

    def go(self, ctx: Ctx) -> None:
        if self.on_go is not None:
            for f in self.fields:
                if f.remember:
                    remember(ctx, f.remember, f.value)
            self.on_go(ctx, self.values())


def change(ctx: Ctx, field: Field, by: int) -> bool:
    """``field``'s value moved ``by`` within ``lo..hi``: the one limit check of a figure changed by
    a key — a form's field, the kit's dice roller and a bag's or deck's counts. Pushed past its
    limit nothing changes and it is said (:func:`refuse`); True when the value changed."""
    value = max(field.lo, min(field.hi, field.value + by))
    if value == field.value:
        if by:
            refuse(ctx, field, by > 0)
        return False
    field.value = value
    return True


def refuse(ctx: Ctx, field: Field, more: bool) -> None:
    """Say why a push on ``field`` (up: ``more``) changes nothing: its figure is at its limit
    («Players: at most 4.», or the field's own sentence); a choice at its end (‹off›, ‹duel›,
    a die's d100) says nothing: the row shows all it holds."""
    limit = field.hi if more else field.lo
    from engine.text import term
    if field.limit is not None:
        ctx.notify(field.limit(limit))
        return
    shown = field.show(limit)
    if not re.fullmatch(r"[+−-]?\d+", shown):
        return
    named = field.named if field.named is not None else term(field.label)
    say_limit(ctx, named, shown, more)       # (said again in another language, as the row is)


def say_limit(ctx: Ctx, label: Msg | str, shown: str, more: bool) -> None:
    """The one sentence a count pushed past its limit says, changing nothing: «Players: at most 4.»
    (``more``: pushed up), «Fame: at least 1.» — a form's field, the kit's dice and bag counts.
    ``label``: a catalog term (``term(msgid)``, said in the language of the moment) or a name as
    the player typed it."""
    from firmware.i18n import Msg
    ctx.notify(Msg("{}: at most {}.", label, shown) if more else Msg("{}: at least {}.", label, shown))


def on_off(v: int) -> str:
    from firmware.i18n import _
    return _("on") if v else _("off")


class Dial:
    """One big figure: up/down ±1, left/right ± the step (shown under the figure), press changes
    the step, A runs ``on_go`` with the figure, B goes back. ``show`` writes the figure, ``note``
    the line under it (what the figure means now, e.g. ``7 → 11``), ``status`` the title bar's right."""

    def __init__(self, title: str | Callable[[], str], value: int, lo: int, hi: int,
                 on_go: Callable[[Ctx, int], None] | None,
                 show: Callable[[int], str] = str, note: Callable[[Ctx, int], str] | None = None,
                 status: Callable[[Ctx, int], str] | None = None, steps: tuple[int, ...] = STEPS,
                 step: int = 0) -> None:
        self._title = title
        self.value = value
        self.lo, self.hi = lo, hi
        self.on_go = on_go
        self.show = show
        self.note = note
        self.dial_status = status
        self.steps = steps
        self.step = step

    @property
    def title(self) -> str:
        return self._title() if callable(self._title) else self._title

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, base.clip(self.title, 15), self.dial_status(ctx, self.value) if self.dial_status else "")
        from firmware.i18n import _
        hint = _("↑↓ ±1  ←→ ±{}").format(self.steps[self.step])
        note = self.note(ctx, self.value) if self.note else ""
        apart = len(f"{note}  {hint}") > base.COLS     # the note on a row of its own, the figure smaller
        label = self.show(self.value)
        scale = 3 if base.big_width(label, 3) <= base.W - 4 and not apart else 2
        base.big(img, (base.W - base.big_width(label, scale)) // 2, base.TITLE_H + (1 if apart else 2), label, scale)
        if apart:
            base.text(draw, 1, base.row_y(2), base.clip(note))
        base.text(draw, 1, base.row_y(3), base.clip(f"{note}  {hint}" if note and not apart else hint))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("dial", key)
        by = {Intent.MORE_ONE: 1, Intent.LESS_ONE: -1, Intent.MORE: self.steps[self.step],
              Intent.LESS: -self.steps[self.step]}.get(what)
        if by is not None:
            self.value = max(self.lo, min(self.hi, self.value + by))
        elif what is Intent.STEP:
            self.step = (self.step + 1) % len(self.steps)
        elif what is Intent.GO and self.on_go is not None:
            self.on_go(ctx, self.value)
        elif what is Intent.BACK:
            ctx.pop()
