"""The Sword of Rome: the game's home (turn and round), the presets of a new game, opening the game."""
from __future__ import annotations

from functools import partial

from engine.actions import with_people
from engine.sword import actions as act
from engine.sword.text import consul_named
from engine.sword.tracks import end_of_round5_order, game_length
from engine.text import N_
from firmware.screens.sword.text import Msg, _, say
from firmware.screens import base, play
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.sword.battle import BattleResult, battle_form, resume_battle, resume_draft
from firmware.screens.sword.rolls import (CheckMenu, RollResult, TacticsResult, naval_form, odds_screen, result_screen,
                                         say_effect, tactics_form)
from firmware.screens.sword.tracks import DesperateScreen, VictoryScreen, unrest_form, vp_screen
from firmware.screens.sword.words import GAMES, PRESETS, counted_vp, power_named, run_line, short, view_of
from firmware.screens.widgets import Item, ListScreen, WrappedListScreen
from firmware.screens.widgets.people import Seats
from firmware.screens.widgets.share import FairShare


def open_game(ctx: Ctx) -> None:
    """Continue the current Sword session — and over its home, after a power cut, the battle
    result fought on the device and not closed yet (:func:`resume_battle`), or else the battle
    typed and not fought, its form and dice entry as they were (:func:`resume_draft`) —, or start
    one from a preset."""
    play.continue_or_setup(ctx, ("sword",), SwordHome, SetupScreen)
    view = ctx.view()
    if view is not None and view["game"] in GAMES and not resume_battle(ctx):
        resume_draft(ctx)


class SetupScreen(ListScreen):
    """The number of players (the powers in play, as the rules set them), then who plays them."""

    title = Said(N_("New Sword game"), _)

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(_(label), partial(self._people, powers=powers)) for label, powers in PRESETS]

    @staticmethod
    def _people(ctx: Ctx, powers: str) -> None:
        ctx.push(PeopleForm(powers.split(",")))


class PeopleForm(ListScreen):
    """Start, then who plays each power (the known players first; nobody named: "Player N" in
    exports). A on Start begins the game."""

    title = Said(N_("Who plays?"), _)
    wrap_rows = True                     # «Внесок гравців» beside «немає» takes two rows, never cut

    def __init__(self, powers: list[str]) -> None:
        super().__init__()
        self.powers = powers
        self.seats = Seats([(p, partial(short, p)) for p in powers], lambda i: "—")
        self.fair = FairShare()          # the fair-draw code and the players' share, under the players

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item("▶ " + _("Start"), self._start, ident="start"), *self.seats.items(ctx, None, self._picked),
                *self.fair.items(ctx)]

    def hint(self, ctx: Ctx) -> str:
        """What A does on the row under the cursor, as the other games' new-game forms say it."""
        items = self.items(ctx)
        ident = items[min(self.cursor, len(items) - 1)].key if items else ""
        fair = self.fair.hint(ident)
        if fair is not None:
            return fair
        return _("A: start") if ident == "start" else _("A: choose")

    def status(self, ctx: Ctx) -> str:
        """The hint beside the title when both fit whole, else under the rows (:meth:`footer`)."""
        return base.hint_place(self.title, self.hint(ctx))[0]

    def footer(self, ctx: Ctx) -> str:
        return base.hint_place(self.title, self.hint(ctx))[1]

    def _picked(self, ctx: Ctx, seat: int) -> None:
        self.cursor = self._mark = min(seat + 2, len(self.powers))
        self.current = ""

    def _start(self, ctx: Ctx) -> None:
        play.start_game(ctx, with_people(act.new(self.powers), self.seats.people()), SwordHome, fair=self.fair)
        ctx.prune(lambda s: isinstance(s, SetupScreen))


def _consuls_said(names: list[str]) -> str:
    """The two consuls drawn (W-10) in a sentence of the language: «Валерий и Манлий», not «&»."""
    return _("{} and {}").format(*names) if len(names) == 2 else ", ".join(names)


class SwordHome(WrappedListScreen):
    title = Said(N_("Sword of Rome"), _)
    shown_over = False                     # whether the rows shown are those of a game over

    def status(self, ctx: Ctx) -> str:
        view = view_of(ctx)
        return _("end") if view["finished"] else _("Turn {}").format(view["turn"])

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        over = bool(view["finished"] or view.get("ended"))
        battle = Item(_("Battle"), lambda c: c.push(battle_form(c)))
        tactics = Item(_("Tactics test"), lambda c: c.push(tactics_form(c)))
        odds = Item(_("Odds"), lambda c: c.push(odds_screen()))
        lead = view.get("automatic") or view["standings"][0]      # the winner of an automatic victory (W-11)
        # «VP» beside the leader, as Glory's home has «Fame»: «VP track  Etruscans 10» (or Carthage,
        # the Samnites) took two rows, and the row dropped off the home's first screen
        vp = Item(_("VP"), lambda c: c.push(vp_screen()), f"{base.clip(short(lead), 9)} {counted_vp(view, lead)}")
        last = [Item(_("Last roll"), self._last)] if view["last"] is not None else []
        if view["last_battle"] is not None and (view["last"] is None or view["last"]["kind"] != "battle"):
            # a roll since (a naval retreat's, a 2d6 check) is the last roll: the battle's result, and
            # its retreat losses once the loser has retreated (W-5), are still reached from here
            last.append(Item(_("Last battle"), self._last_battle))
        new = Item(_("New game"), lambda c: c.push(SetupScreen()), ident="new")
        if over != self.shown_over:        # the game ended (here, or over the serial link) or was reopened
            self.shown_over = over
            self.reset()                   # the first row: the list is another one (a page of one row was left)
        if over:               # after turn 9 or an automatic victory (W-11) nothing is played
            return [new, vp, odds, *last]
        out = [
            battle, tactics,
            # every round ends here (45 times a game): two rows down from Battle, not ten; the odds
            # (the Battle form's title bar says them too) go down in its place
            Item(_("Next round"), self._advance, _("now {}").format(view["round"])),
            vp,
            Item(_("Desperate Times"), lambda c: c.push(DesperateScreen())),
            Item(_("Naval move"), lambda c: c.push(naval_form(c))),
            Item(_("2d6 roll"), lambda c: c.push(CheckMenu())),
        ]
        if "romans" in view["factions"]:   # the Roman player's leaders, drawn by him (W-10, rule 8.2.2)
            # drawn once in each reinforcement phase (W-10): then the row shows this turn's again
            out.append(Item(_("Consuls"), self._consuls_drawn) if view["consuls"]["turn"] == view["turn"]
                       else Item(_("Draw consuls"), self._consuls))
        if view.get("unrest") is not None:
            out.append(Item(_("Carthage unrest"), lambda c: c.push(unrest_form(c)), str(view["unrest"]["level"])))
        victory = Item(_("Automatic victory"), lambda c: c.push(VictoryScreen()))
        return [*out, *last, victory, odds, new]

    @staticmethod
    def _consuls(ctx: Ctx) -> None:
        response = run_line(ctx, act.consuls())
        if response is not None:
            SwordHome._show_consuls(ctx, response["drawn"])

    @staticmethod
    def _consuls_drawn(ctx: Ctx) -> None:
        SwordHome._show_consuls(ctx, view_of(ctx)["consuls"]["drawn"])

    @staticmethod
    def _show_consuls(ctx: Ctx, drawn: list[str]) -> None:
        # the consuls shown again, never drawn again
        ctx.push(remade(lambda: RollResult(_("Consuls"), _consuls_said([say(consul_named(n)) for n in drawn]))))

    @staticmethod
    def _last(ctx: Ctx) -> None:
        last = view_of(ctx)["last"]
        screen = result_screen(last) if last is not None else None
        if screen is not None:
            ctx.push(screen)
        if isinstance(screen, TacticsResult):          # which test it was and what it does (W-1)
            say_effect(ctx, screen.result)

    @staticmethod
    def _last_battle(ctx: Ctx) -> None:
        battle = view_of(ctx)["last_battle"]
        if battle is not None:
            ctx.push(BattleResult(battle))

    def _advance(self, ctx: Ctx) -> None:
        """The next round; round 5 ends the turn, so it is asked first (W-12, seed 7.4.5: each
        player, most VP first, may play one Desperate Times card before the attrition phase):
        those plays, attrition and the turn's scoring (W-11, an automatic victory for this turn)
        come before the next turn; the last turn's round 5 ends the game, after which nothing is
        played. Asked every turn, the question is one or two pages: the order of those plays is
        the Desperate Times screen's in round 5 (:class:`DesperateScreen`), where they are played;
        with nobody left to play one, the question leaves them out."""
        view = view_of(ctx)
        turns, rounds = game_length()
        if view["round"] != rounds:
            self._next(ctx)
            return
        played = view.get("desperate_end", [])               # one card each there (rule 7.4.5): those left
        left = [f for f in end_of_round5_order({f: counted_vp(view, f) for f in view["factions"]}, view["desperate"])
                if f not in played]
        done = N_("Desperate Times played, attrition and scoring done?") if left else N_("Attrition and scoring done?")
        title = N_("End the game?") if view["turn"] == turns else N_("End the turn?")
        ctx.push(remade(lambda: play.Asked(GAMES, _(title), _(done), self._next)))   # said in the language of the moment

    @staticmethod
    def _next(ctx: Ctx) -> None:
        response = run_line(ctx, act.advance())
        if response is None:
            return
        if response["finished"]:
            ctx.notify(Msg("Game over: {} won.", power_named(response["winner"])))
            return
        ctx.notify(Msg("Turn {}, round {}.", response["turn"], response["round"]))
