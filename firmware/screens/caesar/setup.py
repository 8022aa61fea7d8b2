"""Caesar!: the new-game form (mode, side, difficulty, modules, how tiles and bags are drawn) and
the guide to setting up the physical board."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from engine.actions import Line
from engine.caesar import actions as act
from engine.caesar.terms import BONUS_WORDS, PLAYER_WORDS
from engine.caesar.tokens import TOKENS
from engine.caesar.views import CaesarView
from engine.text import N_
from firmware.i18n import _, ngettext
from firmware.screens import base, play
from firmware.screens.caesar.icons import draw_tokens
from firmware.screens.caesar.pickers import TokenPicker
from firmware.screens.caesar.words import (
    DIFF_WORDS,
    DIFFS,
    GAMES,
    HARDER,
    INPUT,
    INPUT_WORDS,
    SIDES,
    fit,
    pn,
    remembered_tiles,
    tile_letter,
    tok,
    view_of,
)
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Field, Intent, Item, NumberForm, Scroll, intent, scroll_bar
from firmware.screens.widgets.share import FairShare


# -- set-up --------------------------------------------------------------------------------------
class SetupForm(NumberForm):
    """The set-up rows and an explicit Start row at the end (A, right or press on it starts; A on
    any row starts too, as the title says)."""

    def items(self, ctx: Ctx) -> list[Item]:
        return self.field_items() + self.fair_items(ctx) + [Item("▶ " + _("Start"), self.go, ident="start")]

    def status(self, ctx: Ctx) -> str:
        return _("A: start")

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Caesar!")


Home = Callable[[Ctx, bool], None]   # show the new game's home (and, when True, lead on to the first turn)


def setup_form(home: Home | None = None) -> SetupForm:
    """Mode, side, difficulty, expansions and how tiles and bags are drawn; Start."""
    fields = [Field("mode", N_("Players"), 0, 0, 1, lambda v: (_("solo"), _("duel"))[v]),
              Field("side", N_("Your side"), 0, 0, 1, lambda v: _(PLAYER_WORDS[SIDES[v]])),
              Field("diff", N_("Difficulty"), 1, 0, 2, lambda v: _(DIFF_WORDS[v])),
              Field("poison", N_("Poison"), 0, 0, 1, _on_off),
              Field("cent", N_("Centurions"), 0, 0, 1, _on_off),
              Field("bctl", N_("Border control"), 0, 0, 1, _on_off),
              Field("harder", N_("Harder"), 0, 0, 2,      # S-8: a marker goes with a removed bonus
                    lambda v: (_("off"), _("always"), _("on capture"))[v]),
              Field("tiles", N_("Tiles"), 0, 0, 1, lambda v: _(INPUT_WORDS[v])),
              Field("bags", N_("Bags"), 0, 0, 1, lambda v: _(INPUT_WORDS[v]))]

    fair = FairShare()

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        mods = [m for m, f in (("poison", "poison"), ("centurions", "cent"), ("border-control", "bctl")) if v[f]]
        if v["mode"] == 1:
            _start(ctx, act.new_duel(mods, INPUT[v["bags"]]), home, fair)
            return
        tiles = remembered_tiles(ctx)

        def solo(row: list[str] | None = None) -> Line:
            return act.new_solo(SIDES[v["side"]], DIFFS[v["diff"]], mods, HARDER[v["harder"]] if v["harder"] else None,
                                INPUT[v["tiles"]], INPUT[v["bags"]], tiles, row)
        if v["bags"]:
            def with_row(c: Ctx, picked: list[str]) -> None:
                c.pop()
                _start(c, solo(picked), home, fair)
            ctx.push(TokenPicker(_("His 3 tokens"), [t.name for t in TOKENS if not t.centurion], 3, with_row))
        else:
            _start(ctx, solo(), home, fair)

    return SetupForm(_("New Caesar! game"), fields, go, fair=fair)


def _on_off(v: int) -> str:
    return _("on") if v else _("off")


def _start(ctx: Ctx, line: Line, home: Home | None, fair: FairShare | None = None) -> None:
    def guide() -> Any:
        return SetupGuide(home)
    view = ctx.view()
    over = view is not None and view["game"] in GAMES and bool(view.get("winner"))
    play.start_game(ctx, line, guide, quiet=play.tools() + (GAMES if over else ()), title=_("New game?"), fair=fair)


class SetupGuide:
    """The physical set-up, one page at a time: the bonus token of every province (C-5),
    Auto-Crassus's first row (S-2), the tile deck of the difficulty (S-3), your first tokens.
    A/right: next page; left: back a page; B: leave. After a new game (``home`` given) the last
    page leads to its home and on to the first turn, and B to its home."""

    def __init__(self, home: Home | None = None) -> None:
        self.home = home
        self.page = 0
        self.scroll = Scroll()
        self.title = _("Set-up")

    def pages(self, view: CaesarView) -> list[tuple[str, list[str], list[str]]]:
        """(title, text rows, tokens drawn large) per page."""
        pos = view["position"]
        out: list[tuple[str, list[str], list[str]]] = []
        rows: list[str] = []
        for bonus in BONUS_WORDS:
            names = [pn(code) for code, b in pos["bonuses"].items() if b == bonus]
            if names:
                rows.append(f"{_(BONUS_WORDS[bonus])} ×{len(names)}:")
                rows += ["  " + r for r in base.wrap(", ".join(names), base.COLS - 2)]
        out.append((_("Bonus tokens"), base.wrap(_("Face up, one per province:")) + rows, []))
        if view["mode"] == "solo":
            first_row: list[str] = pos["crassus_row"]
            out.append((_("Crassus's row"), [_("From his bag, left to right:")] + [tok(t) for t in first_row],
                        first_row))
            deck = view["tiles"]["deck"]
            counts = " ".join(f"{deck.count(x)}×{tile_letter(x)}" for x in sorted(set(deck)))
            where: str = (_("Shuffle them face down: the device turns them up.")
                     if view["inputs"]["tiles"] == "digital" else _("Shuffle them face down beside the board."))
            out.append((_("Command tiles"), [_("{}: {}").format(_(DIFF_WORDS[DIFFS.index(view['difficulty'])]), counts),
                                             *base.wrap(where)], []))
            hand = view["human"]["hand"]
            if hand:
                out.append((_("Your tokens"), [_("Take from your bag:")] + [tok(t) for t in hand], hand))
            else:
                due = view["human"]["draws_due"]
                out.append((_("Your tokens"), base.wrap(ngettext("Draw {} token from your bag and enter it.",
                                                                 "Draw {} tokens from your bag and enter them.",
                                                                 due).format(due)), []))
        else:
            out.append((_("Your tokens"), base.wrap(_("Each player draws their tokens behind the screen; "
                                                      "the device shows each hand privately.")), []))
        return out

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        pages = self.pages(view_of(ctx))
        self.page = min(self.page, len(pages) - 1)
        title, rows, tokens = pages[self.page]
        count = f"{self.page + 1}/{len(pages)}"
        shorter = {_("Command tiles"): _("Tiles")}.get(title, title)      # uk: "Тайли командування"
        base.title_bar(draw, fit(base.COLS - len(count) - 1, title, shorter), count)
        if tokens:
            head = base.wrap(rows[0])             # the header on one or two rows, never cut
            words = ", ".join(rows[1:])           # the tokens in words, when they fit a row
            if len(head) == 1 and len(words) <= base.COLS:
                head.append(words)
            base.lines(draw, head[:2])
            draw_tokens(draw, 2, base.row_y(2) + 2, tokens)
            return img
        top = self.scroll.fit(len(rows), base.ROWS)
        base.lines(draw, [base.clip(r) for r in rows[top:top + base.ROWS]])
        scroll_bar(draw, top, base.ROWS, len(rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        pages = self.pages(view_of(ctx))
        rows = pages[min(self.page, len(pages) - 1)][1]
        what = intent("pages", key)
        if self.scroll.move(what, len(rows), base.ROWS):
            return
        if what in (Intent.CLOSE, Intent.RIGHTWARD):          # A, press or right: the next page
            if self.page + 1 < len(pages):
                self.page, self.scroll.top = self.page + 1, 0
            elif self.home is not None:
                self.home(ctx, True)
            else:
                ctx.pop()
        elif what is Intent.LEFTWARD and self.page > 0:
            self.page, self.scroll.top = self.page - 1, 0
        elif what in (Intent.BACK, Intent.LEFTWARD):
            if self.home is not None:
                self.home(ctx, False)
            else:
                ctx.pop()
