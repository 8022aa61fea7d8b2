"""For the Glory of Rome: the secret objective cards (G-19), dealt by the device and looked at one
player at a time. «Перетасуйте карты заданий и раздайте каждому игроку по три карты закрытую …
Игроки решают, какие две карты оставить себе, а невыбранные карты возвращают вниз стопки. Во время
партии игроки должны держать свои карты заданий в тайне друг от друга вплоть до итогового подсчета
очков»; «Игроки раскрывают свои карты заданий» at the final scoring (G-13).

The home's row deals them (``deal``, after a question); then the device goes round the table: a
pass screen names the player whose turn it is to look and shows nothing until A; that player's
cards, where A on a card returns it to the bottom of the deck (``keep`` the other two, after a
question); then the pass screen of the next player. The list of players (the home's Objectives
row) lets a player look at his cards again, through the same pass screen; B hides them. Only the
hand screen shows cards, and only its player's; no notice, no log line names one (the console's
``deal`` reply is never shown). Once the game is over (round 9 ended, or the game ended), the
home's Objectives row shows everyone's kept cards: they are revealed for the final scoring."""
from __future__ import annotations

import logging
import re
from functools import partial

from PIL import Image

from engine.glory import actions as act
from engine.glory.replies import ObjectiveCard
from engine.glory.state import two_player_cards_unknown
from engine.glory.views import GloryView
from engine.text import N_
from firmware.screens import base, play
from firmware.screens.ctx import Ctx, remade
from firmware.screens.glory.text import Msg, _
from firmware.screens.glory.words import GAMES, Follows, run_line, view_of
from firmware.screens.widgets import Item, ListScreen

log = logging.getLogger(__name__)

# The cards' names (engine/data/glory_objectives.json: the rulebook names ten of them; the others
# are "Objective N" until the printed cards are typed in), said in the current language.
OBJECTIVE_NAMES = {
    "Stirring up enmity": N_("Stirring up enmity"),
    "Sleepless enmity": N_("Sleepless enmity"),
    "Offerings": N_("Offerings"),
    "Wild trade": N_("Wild trade"),
    "First in the vote": N_("First in the vote"),
    "Dirty work": N_("Dirty work"),
    "Most decorated": N_("Most decorated"),
    "Last brick in the wall": N_("Last brick in the wall"),
    "First on battlefields (3 per 1st place)": N_("First on battlefields (3 per 1st place)"),
    "Earn the Warrior medal": N_("Earn the Warrior medal"),
}


def objective_name(card: ObjectiveCard) -> str:
    """An objective card's name in the current language (a name edited into the data to match
    the printed card is shown as it is)."""
    label = str(card["label"])
    m = re.fullmatch(r"Objective (\d+)", label)
    if m is not None:
        return _("Objective {}").format(m.group(1))
    return _(OBJECTIVE_NAMES[label]) if label in OBJECTIVE_NAMES else label


def revealed(view: GloryView) -> bool:
    """True once the objectives are no secret: the final scoring (round 9 over) or the game ended."""
    return bool(view["finished"] or view.get("ended"))


def choosing(view: GloryView) -> list[str]:
    """The players, in seating order, who still hold 3 cards (have not chosen the 2 they keep)."""
    return [p for p in view["players"] if view["objectives"].get(p, 0) > 2]


def open_objectives(ctx: Ctx) -> None:
    """The home's row: deal the objectives (after a question) or open the list of players."""
    view = view_of(ctx)
    if view["objectives"] and revealed(view):
        show_revealed(ctx)
        return
    if view["objectives"]:
        ctx.push(ObjectivesScreen())
        return
    if revealed(view):
        ctx.notify(Msg("The objectives were not dealt on the device."))
        return

    def go(c: Ctx) -> None:
        if run_line(c, act.deal()) is None:          # the hands are in the reply: never shown
            return
        c.push(ObjectivesScreen())
        pass_to(c, choosing(view_of(c))[0])

    def question() -> play.Asked:      # 1-2 players: the cards the rulebook takes out are not known
        if two_player_cards_unknown(len(view["players"]), view["options"]):
            return play.Asked(GAMES, _("Deal objectives?"), _(
                "Each player gets 3 secret objective cards and keeps 2. The cards with the 2-player "
                "symbol are left out of this game, but which ones is not known: the device deals them "
                "too."), go)
        # the question fits its three rows (one A): where the third card goes, the next question says
        return play.Asked(GAMES, _("Deal objectives?"), _("Each player gets 3 secret objective cards and keeps 2."), go)
    ctx.push(remade(question))


def show_revealed(ctx: Ctx) -> None:
    """Every player's cards, revealed for the final scoring (G-13): a text, each card on its row."""
    def make() -> play.Snapshot:
        rows: list[str] = []
        for p in view_of(ctx)["players"]:
            response = ctx.run(act.objectives(p))
            if not response["ok"]:
                log.warning("%s's objectives cannot be read: %s", p, response.get("message"))
            elif response["cards"]:
                rows.append(f"{p}:")
                rows.extend(f"· {objective_name(c)}" for c in response["cards"])
        return play.Snapshot(GAMES, _("Objectives"), rows)
    ctx.push(remade(make))


def pass_to(ctx: Ctx, player: str) -> None:
    """The pass screen: it names whose turn it is to look and shows no card until A (in the
    Emperor's solo nobody else is at the table: the cards at once)."""
    if len(view_of(ctx)["players"]) == 1:
        ctx.push(HandScreen(player))
        return
    ctx.push(remade(lambda: play.Asked(GAMES, _("Pass the device"), _(
        "Pass the device to {0}; only {0} looks now.").format(player),
        lambda c: c.push(HandScreen(player)), _("A: show"), _("B: back"))))


class ObjectivesScreen(ListScreen):
    """The players (A: the pass screen, then that player's cards); after the game, every
    player's kept cards, revealed for the final scoring."""

    wrap_rows = True

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Objectives")

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        if revealed(view):               # (round 9 ended while the list was up) everyone's cards
            return [Item(_("Show everyone's cards"), show_revealed, ident="revealed")]
        if not view["objectives"]:            # the deal taken back (an undo): it can be dealt again
            return [Item(_("Deal objectives"), _deal_again, ident="deal")]
        waiting = choosing(view)
        if not self.current and waiting:      # opened: the cursor on the first player still to choose
            self.current = waiting[0]
        return [Item(base.clip_name(p, 12), partial(_look, player=p),
                     _("to choose") if p in waiting else _("2 kept"), ident=p)
                for p in view["players"] if p in view["objectives"]]


def _look(ctx: Ctx, player: str) -> None:
    pass_to(ctx, player)


def _deal_again(ctx: Ctx) -> None:
    ctx.pop()
    open_objectives(ctx)


def _hide(ctx: Ctx) -> None:
    ctx.pop()


class HandScreen(Follows, ListScreen):
    """One player's cards, on the device that player holds: while he has 3, A on a card returns it
    to the bottom of the deck (after a question) and the device goes on to the next player's pass
    screen; then his 2 kept cards, which A or B hides. It goes once a step is played or taken back
    (the App takes it off), so it never stays up for the next one to see."""

    now_only = True
    wrap_rows = True

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player
        self.cards: list[ObjectiveCard] | None = None
        self.kept = False

    title = ""                # said in render: the player's name, and while he has 3 what A does

    def _read(self, ctx: Ctx) -> list[ObjectiveCard]:
        if self.cards is None:
            response = ctx.run(act.objectives(self.player))
            if not response["ok"]:
                log.warning("%s's objectives cannot be read: %s", self.player, response.get("message"))
            self.cards = response["cards"] if response["ok"] else []
            self.kept = bool(response["ok"] and response["kept"])
        return self.cards

    def render(self, ctx: Ctx) -> Image.Image:
        self._read(ctx)
        if self.kept:
            self.title = base.clip_name(self.player, base.COLS)
        else:                     # the 4 body rows for the 3 cards (a long name takes two)
            said = _("{}: return one").format(self.player)
            # the name whole, the hint beside it where it fits (a name cut to its first letters,
            # «Богд…: поверніть одну», could be another player's; the question after A says it)
            self.title = said if len(said) <= base.COLS else base.clip_name(self.player, base.COLS)
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        cards = self._read(ctx)
        if self.kept:
            return [Item(objective_name(card), _hide, ident=card["id"]) for card in cards]
        return [Item(objective_name(card), partial(self._return, card=card), ident=card["id"]) for card in cards]

    def _return(self, ctx: Ctx, card: ObjectiveCard) -> None:
        player, others = self.player, [c["id"] for c in self._read(ctx) if c["id"] != card["id"]]

        def go(c: Ctx) -> None:
            if run_line(c, act.keep(player, others)) is None:
                return
            c.pop()               # the hand (the question was asked over it): hidden before the next player
            left = choosing(view_of(c))
            if left:
                pass_to(c, left[0])
            elif len(view_of(c)["players"]) == 1:
                c.notify(Msg("{} keeps 2 objectives.", player))
            else:
                c.notify(Msg("Every player keeps 2 objectives: keep them secret until the final scoring."))

        # the card A chose, and where it goes, in the question's three rows (one A; the hand's title
        # names the player): «… goes to the bottom of the deck; Henry keeps the other two» took 4
        ctx.push(remade(lambda: play.Asked(GAMES, _("Return the card?"), _(
            "“{}” goes under the deck.").format(objective_name(card)), go)))
