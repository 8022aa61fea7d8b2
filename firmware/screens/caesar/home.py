"""Caesar!: the game's home — what to do now first (Crassus's turn, your move, a bonus, a draw), the
score at a glance, then the views; opening the game (continue it, or set one up)."""
from __future__ import annotations

from functools import partial

from PIL import Image

from engine.caesar.views import CaesarView
from firmware.screens.caesar.text import _
from firmware.screens import base, play
from firmware.screens.caesar.board import MapScreen
from firmware.screens.caesar.flow import (
    crassus_turn,
    draw_owed,
    go_on,
    open_bonus,
    open_decide,
    open_duel_hand,
    open_hand,
    open_last,
    open_play,
    open_row,
    private,
    show_unread,
)
from firmware.screens.caesar.setup import SetupGuide, setup_form
from firmware.screens.caesar.tiles import TilesScreen
from firmware.screens.caesar.turn import resume, show_final
from firmware.screens.caesar.words import (GAMES, edition_of, me, placed_said, snapshot, tile_letter, view_if_any,
                                           view_of, who)
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import Item, TextScreen, WrappedListScreen


def open_game(ctx: Ctx) -> None:
    """Continue the current Caesar! session — on a turn whose pages were not all read, from its
    first unread page (after a power cut in the middle of his turn: his second play, a closure) —
    or set up a game."""
    play.continue_or_setup(ctx, GAMES, CaesarHome, lambda: setup_form(fresh_home, ctx))
    if view_if_any(ctx) is not None and not resume(ctx, go_on):
        open_pending(ctx)


def open_pending(ctx: Ctx) -> None:
    """On opening the game (after a restart too): the choice of the bonus that waits (a Might:
    C-15, a centurion: C-18) opens at once, as it did after the placement that won it, not the
    home's row that leads to it (in a duel behind the pass-the-device screen)."""
    view = view_of(ctx)
    if view["winner"] or view["ended"] or view["step"] != "bonus" or view["turn"] == "crassus":
        return
    pending = view["human"]["pending"] if view["mode"] == "solo" else view["pending"]
    if pending:
        private(ctx, then=partial(open_bonus, kind=pending[0]))


def fresh_home(ctx: Ctx, lead_on: bool = False) -> None:
    """The home of the new game in place of the top screen; older Caesar! homes below go (Back
    from the new home lands on the menu, not on the game that was replaced). ``lead_on``: then
    on to what the table does first (Auto-Crassus's turn, your move)."""
    ctx.replace(CaesarHome())
    ctx.prune(lambda s: isinstance(s, CaesarHome))
    if lead_on:
        go_on(ctx)


HomeItem = Item          # a home entry names itself (``ident``): the cursor stays on it across phases


class CaesarHome(WrappedListScreen):
    """What to do now first (Crassus's turn, your move, a bonus, a draw), the score, then views."""

    def __init__(self) -> None:
        super().__init__()
        self.current = "now"

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Caesar!")

    def status(self, ctx: Ctx) -> str:
        view = view_of(ctx)
        if view["winner"] or view["ended"]:
            return _("over")
        return _("solo") if view["mode"] == "solo" else _("duel")

    def render(self, ctx: Ctx) -> Image.Image:
        ctx.prune(lambda s: isinstance(s, CaesarHome) and s is not self)   # an older home below is stale
        show_unread(ctx)               # (the App draws the turn shown instead: the top changed)
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        if not show_unread(ctx):       # a turn not shown yet comes first: the key shows it
            super().key(key, ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        out: list[Item] = []
        solo = view["mode"] == "solo"
        over = bool(view["winner"] or view["ended"])      # C-12, or the players ended it (``end``)
        if view["winner"]:
            out.append(HomeItem(_("Game over"), lambda c: c.push(remade(lambda: snapshot(
                _("Game over"), [view_of(c)["end"] or "", placed_said(view_of(c))]))), who(view, view["winner"]), ident="now"))
        elif over:
            out.append(HomeItem(_("Game over"), lambda c: c.push(remade(lambda: snapshot(_("Game over"), _("The players ended the game.")))),
                                ident="now"))
        else:
            out += self._now(view)
        out.append(HomeItem(score_line(view), lambda c: c.push(remade(lambda: score_screen(view_of(c)))), ident="score"))
        out.append(HomeItem(_("Map"), lambda c: c.push(MapScreen()), ident="map"))
        if solo and not over:                               # nothing left to predict after the end
            out.append(HomeItem(_("Crassus would…"), open_decide, ident="decide"))
        final = view.get("last_player_turn")
        if view["winner"] and final and final["current"]:   # the game ended in a player's turn (C-12)
            out.append(HomeItem(_("Final turn"), show_final, who(view, final["by"]), ident="final"))
        if solo and view["last_crassus_turn"]:              # his winning turn too, after the end
            out.append(HomeItem(_("Last Crassus turn"), open_last,
                                tile_letter(view["last_crassus_turn"]["tile"], edition_of(view)), ident="last"))
        if solo and not over:
            out.append(HomeItem(_("Your hand"), open_hand, str(len(view["human"]["hand"])), ident="hand"))
            out.append(HomeItem(_("Crassus's row"), open_row, str(len(view["crassus"]["row"])), ident="row"))
        if not solo and not over:
            out.append(HomeItem(_("Hand: {}").format(who(view, view["turn"])),
                                partial(private, then=open_duel_hand), ident="hand"))
        out.append(HomeItem(_("Set-up guide"), lambda c: c.push(SetupGuide()), ident="guide"))
        if solo:
            out.append(HomeItem(_("Command tiles"), lambda c: c.push(TilesScreen()), ident="tiles"))
        out.append(HomeItem(_("New game"), lambda c: c.push(setup_form(fresh_home, c)), ident="new"))
        return out

    @staticmethod
    def _now(view: CaesarView) -> list[Item]:
        solo = view["mode"] == "solo"
        player = me(view)
        due = view["human"]["draws_due"] if solo else view["players"][player]["draws_due"]
        physical_me = view["inputs"]["human_bag"] == "physical"
        out: list[Item] = []
        if solo and view["turn"] == "crassus":
            out.append(HomeItem(_("Crassus's turn"), crassus_turn, ident="now"))
            if due:
                out.append(HomeItem(_("Draw tokens"), draw_owed, _("{} due").format(due), ident="draw"))
            return out
        step = view["step"]
        pending = view["human"]["pending"] if solo else view["pending"]
        if step == "bonus" and pending:
            kind = pending[0]
            out.append(HomeItem(_("Use Might") if kind == "might" else _("Take a centurion"),
                                partial(private, then=partial(open_bonus, kind=kind)), ident="now"))
        elif due:
            label = _("Draw a token") if step == "draw" else _("Draw tokens")
            out.append(HomeItem(label, partial(private, then=draw_owed),
                                _("{} due").format(due) if physical_me or due > 1 else "", ident="now"))
        elif solo:
            out.append(HomeItem(_("Your move"), open_play, ident="now"))
        else:
            out.append(HomeItem(_("{} moves").format(who(view, player)), partial(private, then=open_play),
                                ident="now"))
        return out


def score_line(view: CaesarView) -> str:
    """Markers left of both players, for the home list: ``You 11 · Crassus 12``."""
    m = view["position"]["markers_left"]
    a, b = list(m)
    line = f"{who(view, a)} {m[a]} · {who(view, b)} {m[b]}"
    if len(line) > base.COLS - 1:          # a list row: both counts must stay on screen
        line = f"{who(view, a)} {m[a]}·{who(view, b)} {m[b]}"
    return line


def score_screen(view: CaesarView) -> TextScreen:
    """Markers left, on the board, under Senate tokens, removed; Senate tokens (C-12, C-16)."""
    rows = []
    for p, m in view["markers"].items():
        rows.append(f"{who(view, p)}:")
        rows.append("  " + _("{} markers left").format(m["left"]))
        rows.append("  " + _("{} on the board").format(m["on_board"]))
        rows.append("  " + _("Senate tokens: {}").format(view["position"]["senate"].get(p, 0)))
        rows.append("  " + _("{} under Senate").format(m["under_senate"]))
        if m["removed"]:
            rows.append("  " + _("{} removed (Harder)").format(m["removed"]))
    return snapshot(_("Score"), rows)
