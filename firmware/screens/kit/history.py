"""Dice & bags: the bag's and deck's History page — every draw, put-back, card, discard and
shuffle, newest first, read a page at a time (firmware/screens/kit/bag.py opens it)."""
from __future__ import annotations

from typing import cast

from PIL import Image

from engine import actions as act
from engine.kit_views import BagView, DeckView, HolderView, KitView
from engine.text import N_
from firmware.i18n import _
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.kit.record import BAG
from firmware.screens.widgets import Intent, Scroll, intent, scroll_bar
from firmware.screens.widgets.scroll import BESIDE_MARK, Spot, beside, row_at, spot_of, wrapped


def holder(ctx: Ctx, side: bool) -> HolderView:
    """The bag/deck shown: the side kit's or the bag session's (``bag``/``deck`` keys), read
    through its TypedDict (engine/kit_views.py)."""
    if side:
        return ctx.run(act.kit_state()).get("kit") or {}
    view = ctx.view()
    # another game may have been started meanwhile (e.g. from the console): its "bag" is not ours
    return cast(KitView, view) if view is not None and view["game"] in BAG.sessions else {}


BAG_COMMANDS = frozenset({"draw", "put", "card", "discard", "shuffle", "reshuffle"})
SIDE_COMMAND = "kit"


def of_the_kit(line: str, side: bool) -> bool:
    """Whether the action ``line`` is one of the bag's or deck's (a bag session's own commands, or
    ``kit …`` beside a game)."""
    command = line.split(" ", 1)[0]
    return command == SIDE_COMMAND if side else command in BAG_COMMANDS


def events_of(h: HolderView) -> int:
    """How many draws, put-backs, cards, discards and shuffles the bag and deck have had (their
    views keep only the newest), as History lists them: not a new deck's own first shuffle."""
    parts: list[BagView | DeckView | None] = [h.get("bag"), h.get("deck")]
    opening = 1 if h.get("deck") else 0
    return max(0, sum(int(p.get("events", len(p["history"]))) for p in parts if p) - opening)


class KitHistory:
    """Every draw, put-back, card, discard and shuffle of the bag and deck, newest first, read a
    page at a time through the read-only ``actions [N] [before=K]`` (the state keeps only the
    newest events): up/down scroll (the next older page is read when the last rows come into
    view), any other key closes it."""

    PAGE = 100               # actions asked at a time
    title = Said(N_("History"))

    def __init__(self, side: bool) -> None:
        self.side = side
        self.rows: list[str] = []
        self.entries: list[str] = []          # the sentence of each of the kit's actions read, newest first
        self.refused: list[str] = []          # why the next page could not be read
        self.width = BESIDE_MARK              # the rows' (the panel's once all read fit it)
        self.before: int | None = None        # the next older page starts before this action
        self.done = False                     # the first action has been read
        self.scroll = Scroll()
        self.read_of: tuple[object, object] | None = None     # the bag and deck the rows were read of
        self.place: Spot | None = None        # where to open once read (made again in a new language)

    def reading(self) -> Spot:
        """The entry and sentence the reader is at (made again in another language: read_at)."""
        return spot_of(self.entries, self.scroll.top, self.width)

    def read_at(self, place: Spot) -> None:
        """Open at ``place`` (:meth:`reading` of the history in the language left): the entries are
        read when it is drawn, the row found then."""
        self.place = place

    def _placed(self, ctx: Ctx) -> None:
        if self.place is None:
            return
        while not self.done and len(self.entries) <= self.place[0]:
            self.more(ctx, len(self.rows) + 1)
        self.scroll.top = row_at(self.entries, self.place, self.width)
        self.place = None

    def more(self, ctx: Ctx, wanted: int) -> None:
        """Read older pages until there are ``wanted`` rows or none is left (a refusal ends it);
        from the newest again once the bag or deck has changed since (an undo took a draw back,
        the serial link drew)."""
        h = holder(ctx, self.side)
        now = (h.get("bag"), h.get("deck"))
        if now != self.read_of:
            self.read_of = now
            self.rows, self.entries, self.refused, self.before, self.done = [], [], [], None, False
        while not self.done and len(self.rows) < wanted:
            response = ctx.run(act.actions(self.PAGE, self.before))
            self.entries += [str(e["text"]) for e in response.get("actions", []) if of_the_kit(str(e["line"]), self.side)]
            self.refused = [str(response["message"])] if not response.get("ok") and response.get("message") else []
            before = response.get("before")
            self.done = before is None or not response.get("ok")
            self.before = int(before) if before is not None else None
            self.width = beside(self.entries + self.refused, base.ROWS) if self.done else BESIDE_MARK
            self.rows = wrapped(self.entries + self.refused, self.width)     # (scrolled: the mark keeps its column)

    def render(self, ctx: Ctx) -> Image.Image:
        self._placed(ctx)
        self.more(ctx, self.scroll.top + 2 * base.ROWS)
        img, draw = base.frame()
        rows = self.rows or [_("Nothing yet.")]
        top = self.scroll.fit(len(rows), base.ROWS)
        base.title_bar(draw, self.title, f"{len(self.entries)}{'' if self.done else '+'}")
        base.lines(draw, rows[top:top + base.ROWS])
        scroll_bar(draw, top, base.ROWS, len(rows) + (0 if self.done else base.ROWS))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        self._placed(ctx)
        self.more(ctx, self.scroll.top + 2 * base.ROWS + 1)
        if self.scroll.move(what, len(self.rows), base.ROWS) or self.scroll.go_on(what, len(self.rows), base.ROWS):
            return                                    # A with older entries below: the next page
        if what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
