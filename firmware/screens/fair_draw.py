"""The fair draw of the running game (main menu → History → Fair draw): its commitment, big; the
players' share; "End the game…"; the seed only once the game has ended, when the players ask."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine import actions as act
from engine.replies import RevealReply
from engine.text import N_
from engine.views import SessionView
from firmware.fairness import FairDraw
from firmware.history_text import NO_SHARE_WORDS, Msg, _, no_share_words
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.play import Snapshot, run_or_notify, standing
from firmware.screens.widgets import (ConfirmScreen, Item, ListScreen, TextScreen, draw_list)
from firmware.screens.widgets.listing import apart, wrap_label


# -- the fair draw of the running game --------------------------------------------------------------
def _fair_page(ctx: Ctx, text: Callable[[], str]) -> None:
    """A page of the running game's fair draw (its share, why none can be given): taken off once a
    step is played or taken back (an undo of the first draw lets a share be given again)."""
    view = ctx.view()
    games = (view["game"],) if view is not None else ()
    ctx.push(remade(lambda: Snapshot(games, _("Fair draw"), text())))


def _nothing_in_play(ctx: Ctx) -> None:
    """Fair draw with no session: what shows here, and how to get it."""
    ctx.notify(Msg("Start a game, dice or a bag: its fair draw shows here."))


def _rolls(ctx: Ctx) -> bool:
    """Whether the running session is a dice or bag session (no game: its words say «session»)."""
    from firmware.export_plays import is_tool
    view = ctx.view()
    return view is not None and is_tool(view)


class EndQuestion(ConfirmScreen):
    """End the game? / Show the seed? about the game as it stood when asked (``play.standing``):
    taken off once an undo reopened a game its rules had ended, or a line ended or finished it —
    A would end a game in play, or be refused in the console's words."""

    def __init__(self, view: SessionView | None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.asked = standing(view)

    def stale(self, ctx: Ctx) -> bool:
        return standing(ctx.view()) != self.asked


class FairDrawScreen(ListScreen):
    """The running game's fair draw: the commitment's first 8 hex characters big enough to
    photograph, then rows: the players' share (given, skipped, or "Players' share…" while one
    can still be given), "End the game…" (``end``, after a question that says what it does) and,
    once the game is over, "Show the seed" (``reveal``; on a game its rules finished but nobody
    ended yet, the question first says that this ends it: its last move can no longer be
    undone). The seed is on no screen before the end (issue 20)."""

    title = Said(N_("Fair draw"), _)
    CODE_ROWS = 2            # body rows the big code takes
    wrap_rows = True         # a long row takes two rows (never cut)

    def __init__(self) -> None:
        super().__init__()
        self._seen: tuple[object, FairDraw | None] | None = None

    def fair(self, ctx: Ctx) -> FairDraw | None:
        """The running session's fair draw, asked once per state of the game (a frame asks often:
        the view the Ctx gives is a new object whenever the game changed)."""
        view = ctx.view()
        if self._seen is None or self._seen[0] is not view or view is None:
            self._seen = (view, ctx.fair_draw())
        return self._seen[1]

    def status(self, ctx: Ctx) -> str:
        fair = self.fair(ctx)
        return _("ended") if fair is not None and fair.ended else ""

    def items(self, ctx: Ctx) -> list[Item]:
        fair = self.fair(ctx)
        if fair is None:         # a row that says why, not a status row A did nothing on
            return [Item(_("Nothing in play…"), _nothing_in_play, ident="none")]
        out: list[Item] = []
        if fair.commitment is None:
            out.append(Item(_("No secret draw: the seed was chosen."), ident="seeded"))
        elif fair.share is not None:         # the whole share on its own page when it is longer than the rows
            said = _("Share: {}").format(fair.share)
            fits = len(wrap_label(said, base.COLS - 1)) <= base.ROWS - self.CODE_ROWS
            out.append(Item(said, ident="share") if fits else
                       Item(_("Share given…"), partial(_fair_page, text=lambda: _("Share: {}").format(fair.share)),
                            ident="share"))
        elif fair.can_share:
            label = _("Players' share…")
            out.append(Item(label, self._share, _("none") if len(label) + apart(_("none"), label) <= base.COLS - 1
                            else "—", ident="share"))       # (uk «Внесок гравців… немає» took two rows)
        else:                    # why, in a whole sentence (too long for the two rows under the code)
            out.append(Item(_("No share…"), partial(_fair_page, text=lambda: no_share_words(fair.no_share)),
                            ident="share"))
        if fair.ended is None and not fair.finished:
            out.append(Item(_("End the session…") if _rolls(ctx) else _("End the game…"), self._ask_end, ident="end"))
        elif fair.commitment is not None:
            out.append(Item(_("Show the seed…") if fair.ended is None else _("Show the seed"), self._ask_seed,
                            ident="seed"))
        return out

    def region(self, ctx: Ctx) -> tuple[int, int]:
        return (self.CODE_ROWS, base.ROWS - self.CODE_ROWS) if self._code(ctx) else (0, base.ROWS)

    def _code(self, ctx: Ctx) -> str | None:
        fair = self.fair(ctx)
        return None if fair is None or fair.commitment is None else fair.commitment[:8]

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, self.status(ctx))
        items = self.items(ctx)
        self.follow(items)
        first, rows = self.region(ctx)
        self._page(items, rows)
        code = self._code(ctx)
        if code is not None:
            scale = 2 if base.big_width(code, 2) <= base.W - 2 else 1
            base.big(img, (base.W - base.big_width(code, scale)) // 2, base.TITLE_H, code, scale)
        draw_list(draw, items, self.cursor, self.top, rows, first, self.wrap_rows)
        return img

    # -- the rows' actions ---------------------------------------------------------------------------
    def _share(self, ctx: Ctx) -> None:
        from firmware.screens.widgets.share import ShareMenu

        def take(c: Ctx, text: str | None) -> bool:
            fair = c.fair_draw()       # (a draw from the serial link since it opened: the device's words)
            if text is not None and fair is not None and not fair.can_share:
                c.notify(Msg(NO_SHARE_WORDS.get(fair.no_share or "unknown", NO_SHARE_WORDS["unknown"])))
                return True            # (the share screen closes: Fair draw's row says it too)
            return text is not None and run_or_notify(c, act.share(text)) is not None
        ctx.push(ShareMenu(take))

    def _ask_end(self, ctx: Ctx) -> None:
        view = ctx.view()
        if _rolls(ctx):
            ctx.push(remade(lambda: EndQuestion(
                view, _("End the session?"), _("This ends the session: nothing more is drawn and nothing can be undone; "
                                         "History files it. Then the seed can be shown."), self._end, _("A: end it"),
                _("B: keep"))))
            return
        ctx.push(remade(lambda: EndQuestion(
            view, _("End the game?"), _("This ends the game: nothing more is drawn and nothing can be undone; History "
                                  "files it. Then the seed can be shown."), self._end, _("A: end it"), _("B: keep"))))

    @staticmethod
    def _end(ctx: Ctx) -> None:
        rolls = _rolls(ctx)
        if run_or_notify(ctx, act.end()) is not None:
            ctx.notify(Msg("The session has ended. Show the seed to check the draws.") if rolls else
                       Msg("The game has ended. Show the seed to check the draws."))

    def _ask_seed(self, ctx: Ctx) -> None:
        fair = ctx.fair_draw()          # (not the one remembered: asked now)
        if fair is not None and fair.ended is None:      # finished by its rules: the reveal ends it
            view = ctx.view()
            ctx.push(remade(lambda: EndQuestion(
                view, _("Show the seed?"), _("Showing the seed ends the game: its last move can no longer be undone."),
                self._reveal, _("A: show"), _("B: not yet"))))
        else:
            self._reveal(ctx)

    @staticmethod
    def _reveal(ctx: Ctx) -> None:
        response = run_or_notify(ctx, act.reveal())
        if response is not None:
            ctx.push(remade(lambda: TextScreen(_("The seed"), seed_rows(response))))


def seed_rows(revealed: RevealReply) -> list[str]:
    """The seed of an ended game and how to check it (``reveal``'s reply)."""
    rows = [_("Seed:"), str(revealed["seed"])]
    share = str(revealed.get("share") or "")
    if share:                  # a long share on rows of its own, cut with no hyphen added (it may hold one)
        rows += [_("Share: {}").format(share)] if len(share) <= base.COLS else [_("Share:"), *base.code_rows(share, base.COLS)]
    if revealed.get("commitment"):
        rows.append(_("Code: {}").format(str(revealed["commitment"])[:8]))
    rows.append(_("Check every draw with scripts/verify_draws.py and the draw record (History → Send the draw "
                  "record)."))
    return rows
