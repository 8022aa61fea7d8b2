"""For the Glory of Rome: a round's business — the event card, tax (G-4), medals, a random card pick
(G-19)."""
from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from PIL import Image, ImageDraw

from engine.glory import actions as act
from engine.glory.rounds import ARROWS, rotation_of
from engine.glory.tables import double_tax_penalty, fame_floor, hand_limit
from engine.glory.text import medal_term
from engine.glory.views import GloryView
from engine.text import N_
from firmware.i18n import Sentences
from firmware.screens.glory.text import Msg, _, ngettext
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.glory.dials import BoundDial
from firmware.screens.glory.words import GAMES, MEDALS, Follows, FollowsIntrigues, arrows_word, event_label, lap_note, medal_name, run_line, view_of
from firmware.screens.widgets.result import ResultScreen
from firmware.screens.widgets import Field, Intent, Item, ListScreen, NumberForm, Scroll, intent, on_off, scroll_bar

log = logging.getLogger(__name__)

FAME_FLOOR = fame_floor()                     # G-5: the track's lowest space
PENALTY_MOST = 30                            # the console's penalty= (a population dial's red figure)

# -- events, tax, medals, picks --------------------------------------------------------------------
class EventScreen(Follows):
    """This round's event card: who is first, the order of play, the end-of-round turn; as it is
    revealed in the Emperor's solo, the denarii it gives instead of its reward (G-17)."""

    def __init__(self, solo_denarii: int | None = None) -> None:
        self.scroll = Scroll()
        self.rows: list[str] = []
        self.solo_denarii = solo_denarii
        self.given_for: tuple[int, str] | None = None    # (round, card) the denarii were given for

    @property
    def title(self) -> str:
        return _("Event")

    def render(self, ctx: Ctx) -> Image.Image:
        view = view_of(ctx)
        img, draw = base.frame()
        base.title_bar(draw, _("Round {} event").format(view["round"]))
        card = view["event"]
        if card is None:
            self.rows = []
            base.lines(draw, base.wrap(_("No event revealed yet.")))
            return img
        turn = rotation_of(card["arrow"], view["options"]["clockwise"])
        arrow_dir, _steps = ARROWS[card["arrow"]]
        play_dir = _("clockwise") if arrow_dir == "clockwise" else _("counter-clockwise")
        turn_dir = _("clockwise") if turn > 0 else _("counter-clockwise")
        texts = [event_label(card)]
        if self.given_for is None:
            self.given_for = (view["round"], card["id"])
        past = view["events"][-1] if view["events"] else None
        given = past.get("solo_denarii") if past and past.get("round") == view["round"] else None
        if given is None and self.given_for == (view["round"], card["id"]):
            given = self.solo_denarii          # (a game stored before the event kept them: the reveal's reply)
        if given is not None:
            # G-17: 1 denarius per supporter at the reveal, none for a negative card: the round's own
            # figure, after a restart too (it was said only on the screen the card was revealed on)
            n = given
            texts.append(_("{}: a negative card, no reward.").format(view["players"][0]) if card["harsh"] else
                         ngettext("{}: take {} denarius.", "{}: take {} denarii.", n).format(view["players"][0], n))
        # the arrows as the card's (to be told apart from the table's card: the home's Arrows row)
        texts += [_("Arrows: {}").format(arrows_word(card["arrow"])),
                  _("First: {}").format(view["first"]), " → ".join(view["order"] or []),
                  _("Play {}").format(play_dir), _("End: turn {}° {}").format(abs(turn) * 90, turn_dir)]
        self.rows = [r for t in texts for r in base.wrap(t, base.COLS - 1)]
        top = self.scroll.fit(len(self.rows), base.ROWS)
        base.lines(draw, self.rows[top:])
        scroll_bar(draw, top, base.ROWS, len(self.rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        if self.scroll.move(what, len(self.rows), base.ROWS) or self.scroll.go_on(what, len(self.rows), base.ROWS):
            return                                    # A with rows below: the next page (docs/keys.md)
        if what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()


Income = tuple[int, bool, str | None, tuple[str, ...]]
"""A round's income phase as the game records it: the round, whether the game is over, the round's
event card (None: not revealed, no income phase yet, G-1), who has taken income."""


def income_of(view: GloryView) -> Income:
    event = view["event"]
    return view["round"], view["finished"], None if event is None else event["id"], tuple(view["taxed"])


class _FollowsIncome:
    """A tax question goes once the income phase it was asked in has changed (a tax paid or taken
    back over the serial link or by an undo, the round over, the round's event taken back): A on it
    would pay a tax nobody asked for, the same income twice, or income before the event (G-1: it
    was refused with the console's words, «спершу відкрийте подію командою «event»»), as
    play.Asked for the other questions."""

    income: Income

    def stale(self, ctx: Ctx) -> bool:
        view = ctx.view()
        if view is None or view["game"] not in GAMES:
            return True
        return income_of(cast(GloryView, view)) != self.income


class TaxForm(_FollowsIncome, NumberForm):
    """The tax form (:func:`tax_form`), asked in the income phase ``income``."""

    def __init__(self, income: Income, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.income = income


class PenaltyDial(_FollowsIncome, BoundDial):
    """The double tax's fame penalty read on the dial (:func:`tax_form`), asked in ``income``: at
    most what ``player``'s fame can lose (G-4: «игроки не могут применить двойной налог, если … не
    могут переместить свой маркер по шкале славы назад на указанное в штрафе количество ячеек»).
    It went to 30 whatever the fame, «1 → -10», and A brought the refusal."""

    def __init__(self, income: Income, *args: Any, player: str, **kwargs: Any) -> None:
        super().__init__(*args, bounds=self._bounds, limit=self._limit, **kwargs)
        self.income = income
        self.player = player

    def _fame(self, ctx: Ctx) -> int:
        return view_of(ctx)["fame"][self.player]

    def _bounds(self, ctx: Ctx) -> tuple[int, int]:
        return 0, min(PENALTY_MOST, self._fame(ctx) - FAME_FLOOR)

    def _limit(self, ctx: Ctx, more: bool) -> str | None:
        now = self._fame(ctx)
        if not more:
            return None
        if now <= FAME_FLOOR:
            return Msg("{} is on space 1: no double tax with a fame penalty (G-4).", self.player)
        return Msg("{}: fame {}, a penalty of at most {} (the track stops at 1, G-4).", self.player, now, now - FAME_FLOOR)


def due_taxes(view: GloryView) -> list[str]:
    """Who has income due in the round, in its order (G-1: the income phase goes round the table
    from the first player), as the game records it (``taxed``)."""
    return [p for p in view["order"] or view["players"] if p not in view["taxed"]]


def tax_form(ctx: Ctx, who: int = 0, taxed: Callable[[str], None] | None = None, *, chain: bool = False) -> TaxForm:
    """Income (G-4): who (``who``: the index of the player the form opens on), the population of
    the province in front of them (the one its last tax was on: it only grows; the board turns
    every round, so that was another player's tax), plain or double tax; ``taxed`` hears who paid.
    With ``chain`` a tax paid opens the form again on the next player whose income is due (the
    income phase goes round the table, G-1), under the notice of what was paid; after the last
    one, the screen it was opened from. Form and dial go once the income phase changes under them."""
    view = view_of(ctx)
    income = income_of(view)
    players = view["players"]

    def pop_of(i: int) -> int:
        return view["populations"].get(view["facing"][players[i]], 1)

    def apply(c: Ctx, name: str, pop: int, double: bool, penalty: int | None, screens: int) -> None:
        before = view_of(c)["track"][name]
        response = run_line(c, act.tax(name, pop, double, penalty))
        if response is not None:
            if taxed is not None:
                taxed(name)
            for _screen in range(screens):
                c.pop()
            after = view_of(c)
            due = due_taxes(after) if chain and not after["finished"] else []
            if due:                          # the next player's income, under this one's notice
                c.push(tax_form(c, after["players"].index(due[0]), taxed, chain=True))
            n, lost = response["denarii"], response["fame_lost"]
            c.notify(Sentences(Msg("{}: take {} denarius.", name, n, plural="{}: take {} denarii.", n=n),
                               Msg("Fame -{}.", lost) if lost else "",
                               lap_note(name, before, after["track"][name])))

    def go(c: Ctx, v: dict[str, int]) -> None:
        name, pop, double = players[v["who"]], v["pop"], bool(v["double"])
        if double and double_tax_penalty(pop) is None:
            # the dial's red figure is known for a few populations only: ask for it (G-4)
            def note(c2: Ctx, k: int) -> str:
                now = view_of(c2)["fame"][name]
                return f"{now} → {now - k}"
            c.push(PenaltyDial(income, lambda: _("Fame penalty"), 1, 0, PENALTY_MOST, partial(_penalty_go, apply, name, pop),
                               note=note, status=lambda c2, k: _("A: ok"), step=1, player=name))
            return
        apply(c, name, pop, double, None, 1)

    fields = [
        Field("who", N_("Player"), who, 0, len(players) - 1, lambda i: base.clip_name(players[i], 9)),
        Field("pop", N_("Population"), pop_of(who), 1, 16),
        Field("double", N_("Double tax"), 0, 0, 1, on_off),
    ]
    shown = [who]                           # the player whose population the form shows

    def keep(v: dict[str, int]) -> None:
        if v["who"] != shown[0]:            # another player: his own population
            shown[0] = v["who"]
            fields[1].value = pop_of(v["who"])

    form = TaxForm(income, N_("Tax"), fields, go, keep=keep, status=lambda c, v: _("A: ok"))
    # the cursor on the population, the figure a player changes (the form is on the player due):
    # a province that grew took a press down from the Player row first, one a player a round
    form.cursor = 1
    return form


def _penalty_go(apply: Callable[[Ctx, str, int, bool, int | None, int], None], name: str, pop: int,
                ctx: Ctx, penalty: int) -> None:
    """The penalty dial's A: double tax with the figure read on the dial (closes dial and form)."""
    apply(ctx, name, pop, True, penalty, 2)


class MedalScreen(ListScreen):
    """The five medals, each named by its holder as the rulebook names it («Медаль
    священнослужителя»: «Священнослужитель»), and who holds it; select one to give it to a player.
    A row whose medal and holder do not fit side by side takes two rows, the holder's name right on
    the second: neither is cut (the priest's medal beside a name read «Священнослужит…», and a
    name longer than 9 characters was cut too)."""

    title = Said(N_("Medals"), _)
    wrap_rows = True

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        return [Item(medal_name(m), partial(self._give, medal=m), view["medals"][m] or "–") for m in MEDALS]

    @staticmethod
    def _give(ctx: Ctx, medal: str) -> None:
        view = view_of(ctx)
        holder = view["medals"][medal]
        if holder is not None and not view["finished"]:
            ctx.notify(Msg("{1} already holds {0}.", medal_term(medal), holder))
            return
        others = [p for p in view["players"] if p != holder]      # after round 9: a correction moves it
        # titled by the medal's holder word alone: «Медаль: Священнослужитель» does not fit the bar
        ctx.push(remade(lambda: MedalChoice(medal, holder, medal_name(medal), others,
                                            lambda c, p: run_line(c, act.medal(p, medal)) is not None)))


class ChooseScreen(ListScreen):
    """Pick one name; ``act(ctx, name)`` returns True to close the list."""

    def __init__(self, title: str, names: list[str], act: Callable[[Ctx, str], bool]) -> None:
        super().__init__()
        self.title = title
        self.names = names
        self.act = act

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(n, partial(self._pick, name=n)) for n in self.names]

    def _pick(self, ctx: Ctx, name: str) -> None:
        if self.act(ctx, name):
            ctx.pop()


class MedalChoice(ChooseScreen):
    """The players who may take ``medal`` (held by ``holder`` when asked): it goes once the medal
    has changed hands meanwhile (the serial link, an undo)."""

    def __init__(self, medal: str, holder: str | None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.medal = medal
        self.holder = holder

    def stale(self, ctx: Ctx) -> bool:
        view = ctx.view()
        return view is None or view["game"] not in GAMES or cast(GloryView, view)["medals"][self.medal] != self.holder


class PickResult(Follows, ResultScreen):
    """The random pick's position in big letters, taken off by an undo of the pick; under it, the
    side it is counted from (the console's «counting from the left»: «№ 2» alone left the players
    to guess from whose side of the fanned hand, G-19)."""

    def render(self, ctx: Ctx) -> Image.Image:
        img = super().render(ctx)
        said = _("counted from the left")
        base.put(ImageDraw.Draw(img), max(0, (base.W - len(said) * base.CHAR_W) // 2), base.row_y(base.ROWS - 1), said)
        return img


HAND = hand_limit()      # a hand holds at most 5 cards, the anchor card included (G-19)


class PickForm(FollowsIntrigues, NumberForm):
    """The random pick's form (:func:`pick_form`): it goes with the round's event (:class:`FollowsIntrigues`)."""


def pick_form() -> NumberForm:
    """G-19: a random card from a hand of N (Sold!, Customs)."""
    def go(c: Ctx, v: dict[str, int]) -> None:
        response = run_line(c, act.pick(v["hand"]))
        if response is not None:
            hand, position = v["hand"], response["position"]       # the pick shown again, never drawn again
            c.replace(remade(lambda: PickResult(_("Card of {}").format(hand), _("№ {}").format(position))))

    return PickForm(N_("Random pick"), [Field("hand", N_("Cards in hand"), HAND, 1, HAND)], go,
                    status=lambda c, v: _("A: pick"))
