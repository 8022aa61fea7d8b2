"""Julius Caesar: the campaign's bookkeeping — the VP cities (J-17), the cards shown privately
(J-18) and the winter (J-19)."""
from __future__ import annotations

from functools import partial

from PIL import Image

from engine.jc import actions as act
from engine.jc.views import Reveal
from firmware.screens.jc.text import _, ngettext, say
from firmware.screens.ctx import Ctx
from firmware.screens.jc.words import GAME, SIDES, card_name, run_line, side_name, view_of
from firmware.screens.play import Asked, Snapshot
from firmware.screens.widgets import ConfirmScreen, Item, ListScreen, VPTrack

# -- score, cards, winter ----------------------------------------------------------------------
CYCLE = ("caesar", "pompey", None)          # a city's holders, in the order left/right go through them


def vp_screen() -> VPTrack:
    """The 11 VP cities and who holds them (J-17): left/right give a city to the next holder."""
    def rows(ctx: Ctx) -> list[tuple[str, str, str]]:
        return [(city, _(city), side_name(holder) if holder else "—")
                for city, holder in sorted(view_of(ctx)["control"].items())]

    def change(ctx: Ctx, city: str, by: int) -> None:
        now = view_of(ctx)["control"][city]
        nxt = CYCLE[(CYCLE.index(now) + by) % len(CYCLE)]
        run_line(ctx, act.control(city, nxt))

    def score(ctx: Ctx) -> str:
        vp = view_of(ctx)["vp"]
        return f"{vp['caesar']}:{vp['pompey']}"

    return VPTrack(lambda: _("Victory points"), rows, change, score)


class CardsMenu(ListScreen):
    """Deal the year's cards; each player looks at a hand only after passing the device."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Cards")

    def status(self, ctx: Ctx) -> str:
        cards = view_of(ctx)["cards"]
        return _("turn {}").format(cards["turn"]) if cards else ""

    def items(self, ctx: Ctx) -> list[Item]:
        cards = view_of(ctx)["cards"]
        out = [Item(_("Deal the year"), self._deal)]
        if cards:
            for side in SIDES:
                n = cards["cards_in_hand"][side]
                done = _("played") if cards["played"][side] else ngettext("{} card", "{} cards", n).format(n)
                out.append(Item(side_name(side), partial(self._hand, side=side), done))
            if cards["reveals"]:
                out.append(Item(_("Last reveal"), self._reveal,
                                _("turn {}").format(cards["reveals"][-1]["turn"])))
        return out

    @staticmethod
    def _deal(ctx: Ctx) -> None:
        def go(c: Ctx) -> None:
            run_line(c, act.deal())

        if view_of(ctx)["cards"]:
            ctx.push(Asked((GAME,), _("Deal?"), _("Shuffle all 27 cards and deal 6 to each: the "
                                                   "hands in play are lost."), go))
        else:
            go(ctx)

    @staticmethod
    def _hand(ctx: Ctx, side: str) -> None:
        ctx.push(ConfirmScreen(_("Private"), _("Pass the device to {}.").format(side_name(side)),
                                    lambda c: c.push(HandScreen(side)), _("A: show"), _("B: back")))

    @staticmethod
    def _reveal(ctx: Ctx) -> None:
        cards = view_of(ctx)["cards"]
        if cards and cards["reveals"]:
            ctx.push(Snapshot((GAME,), _("Reveal"), reveal_rows(cards["reveals"][-1])))


def reveal_rows(rec: Reveal) -> list[str]:
    rows = [f"{side_name(s)}: {card_name(rec['played'][s])}" for s in SIDES]
    if rec["cancelled"]:
        return rows + [_("Two events cancel each other.")]
    for side in SIDES:
        if rec["played"][side] == "apollo":
            rows.append(_("Apollo copies: {}").format(card_name(rec["effective"][side])))
    return rows + [_("Player 1: {}").format(side_name(rec["player1"]))]


class HandScreen(ListScreen):
    """One player's cards: select one to discard (once a year) or play face down."""

    def __init__(self, side: str) -> None:
        super().__init__()
        self.side = side
        self.title = ""

    def render(self, ctx: Ctx) -> Image.Image:
        self.title = _("{}'s hand").format(side_name(self.side))
        return super().render(ctx)

    def status(self, ctx: Ctx) -> str:
        cards = view_of(ctx)["cards"]
        return _("discard") if cards and not cards["discarded"][self.side] else _("play")

    def items(self, ctx: Ctx) -> list[Item]:
        hand = ctx.run(act.hand(self.side)).get("hand", [])
        return [Item(card_name(card), partial(self._use, card=card)) for card in hand]

    def _use(self, ctx: Ctx, card: str) -> None:
        cards = view_of(ctx)["cards"]
        if cards is None:
            return
        verb = "discard" if not cards["discarded"][self.side] else "play"
        if verb == "discard":
            run_line(ctx, act.discard(self.side, card))
            return
        response = run_line(ctx, act.play(self.side, card))
        if response is None:
            return
        ctx.pop()
        reveal = response.get("reveal")
        if reveal:
            ctx.push(result(_("Reveal"), reveal_rows(reveal)))


def result(title: str, rows: list[str]) -> Snapshot:
    """What an action did (a reveal, a winter's checklist): it goes when an undo takes it back."""
    screen = Snapshot((GAME,), title, rows)
    screen.now_only = False
    return screen


def ask_winter(ctx: Ctx) -> None:
    """The winter (J-19), asked first; never offered in the middle of a battle."""
    view = view_of(ctx)
    if view["battle"]["phase"] == "fighting":
        ctx.notify(_("Winter comes after the battle: finish it first (or Fight to the end)."))
        return
    if view["battle"]["phase"] == "setup" and view["battle"]["blocks"]:
        ctx.notify(_("Winter comes after the battle being set up: fight it, or take its blocks "
                     "out first."))
        return
    if view["campaign"]["over"]:
        ctx.notify(_("The game is over: {}").format(say(view["campaign"]["over"].get("reason", ""))))
        return

    def go(c: Ctx) -> None:
        response = run_line(c, act.winter())
        if response is None:
            return
        rows = [f"{'✓' if s['done'] else '·'} {s['step']} {s['title']}: {s['text']}" for s in response["checklist"]]
        over = view_of(c)["campaign"]["over"]
        title = _("Game over") if over else _("Winter: year {}").format(response["year"])
        c.push(result(title, rows))

    ctx.push(Asked((GAME,), _("Winter?"), _("End the year: Cleopatra goes home, victory check, "
                                             "eliminated blocks return, new cards."), go))
