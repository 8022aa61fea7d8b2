"""A question (yes/no) and a notice (a message over the screen until a key closes it)."""
from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.keys import Intent, intent
from firmware.screens.widgets.listing import draw_footer
from firmware.screens.widgets.scroll import Scroll, Spot, beside, paragraphs, row_at, scroll_bar, spot_of

ROOM = base.ROWS - 1                            # the question's rows on screen (the footer under them)


class ConfirmScreen:
    """A yes/no question: only A confirms and runs ``on_yes`` (a joystick nudge never does);
    B or left cancels at once; up/down scroll a question longer than the screen (never cut) by a
    row. A question longer than its rows reads as every long text (docs/keys.md): A on a page it
    goes on below brings up the next page, the footer saying «A: more» until the last rows show,
    and says yes only there; a question that fits one page says yes to the first A. Before, A said
    yes on the first page of every question but Settings' two: hold B's question after Glory's
    «fame Анна +20» (10 rows) undid with 7 rows unseen, as did JC's winter question and Show the
    seed's."""

    def __init__(self, title: str, question: str, on_yes: Callable[[Ctx], None],
                 yes: str | None = None, no: str | None = None) -> None:
        self.title = title
        self.question = question
        self.on_yes = on_yes
        self.yes = yes
        self.no = no
        self.scroll = Scroll()

    @property
    def top(self) -> int:
        return self.scroll.top

    @property
    def width(self) -> int:
        """The question's rows' width: the panel's when it fits, else one character less — a row
        beside the scroll mark leaves it its column, as every scrolled text's (:func:`beside`)."""
        from firmware.i18n import say
        return beside(say(self.question), ROOM)

    @property
    def rows(self) -> list[str]:
        """The question wrapped to the panel, in the current language."""
        from firmware.i18n import say
        return base.wrap(say(self.question), self.width)

    def reading(self) -> Spot:
        """Where the reader is (made again in another language, the question opens there)."""
        from firmware.i18n import say
        return spot_of(paragraphs(say(self.question)), self.scroll.top, self.width)

    def read_at(self, place: Spot) -> None:
        from firmware.i18n import say
        self.scroll.top = row_at(paragraphs(say(self.question)), place, self.width)

    def render(self, ctx: Ctx) -> Image.Image:
        from firmware.i18n import _, say
        img, draw = base.frame()
        rows = self.rows
        room = ROOM
        top = self.scroll.fit(len(rows), room)
        pos = f"{top + 1}/{len(rows) - room + 1}" if len(rows) > room else ""
        title = say(self.title)
        if len(title) + len(pos) + 1 > base.COLS:          # the title whole: the scroll bar shows where
            pos = ""
        base.title_bar(draw, title, pos)
        base.lines(draw, rows[top:top + room])
        scroll_bar(draw, top, room, len(rows), base.row_y(0), room * base.LINE - 1)
        more = top + room < len(rows)              # A shows the rest first (:meth:`key`): the footer says so
        draw_footer(draw, f"{_('A: more') if more else self.yes or _('A: yes')}  {self.no or _('B: no')}")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("question", key)
        if what is Intent.YES and self.scroll.read_on(len(self.rows), ROOM):
            return                  # the question goes on below the rows shown: A brings up the rest first
        if what is Intent.YES:
            ctx.pop()
            self.on_yes(ctx)
        elif what is Intent.BACK:
            ctx.pop()
        else:
            self.scroll.move(what, len(self.rows), ROOM)


def leave(ctx: Ctx, question: Callable[[], str] | None) -> None:
    """Back from a screen that holds what the player entered and has not kept yet (a typed name, a
    bag being made): ``question`` (says a whole sentence saying what is lost, in the language of
    the moment) asks first; None: nothing
    would be lost, back at once. A leaves, B stays (one slip of B beside A loses nothing)."""
    if question is None:
        ctx.pop()
        return
    from firmware.i18n import _
    from firmware.screens.ctx import remade
    ctx.push(remade(lambda: ConfirmScreen(_("Leave?"), question(), lambda c: c.pop())))


def draw_notice(img: Image.Image, rows: list[str]) -> None:
    """A message in a framed box over the middle of ``img`` (at most :data:`base.ROWS` rows)."""
    draw = ImageDraw.Draw(img)
    rows = rows[: base.ROWS]
    h = len(rows) * base.LINE + 4
    y0 = (base.H - h) // 2
    draw.rectangle((2, y0, base.W - 3, y0 + h), fill=0, outline=1)
    for i, row in enumerate(rows):
        base.text(draw, 6, y0 + 2 + i * base.LINE, row)


def draw_code_box(img: Image.Image, title: str, big_text: str) -> None:
    """A box over the lower half of ``img``: ``title`` and ``big_text`` large (the fair-draw code,
    the seed at the game's end), to photograph."""
    kind = "large" if len(big_text) * base.advance("large") <= base.W - 4 else "body"
    draw = ImageDraw.Draw(img)
    y0 = base.H - 32
    draw.rectangle((0, y0 - 1, base.W - 1, base.H - 1), fill=0, outline=1)
    base.put(draw, 3, y0, base.clip(title, base.COLS - 1))
    base.put(draw, max(2, (base.W - len(big_text) * base.advance(kind)) // 2), y0 + 13, big_text, kind=kind)
