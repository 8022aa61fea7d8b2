"""For the Glory of Rome: the game's home (the round in the title) and opening the game."""
from __future__ import annotations

from PIL import Image, ImageDraw

from engine.glory import actions as act
from engine.glory.views import GloryView
from firmware.screens.glory.text import Msg, _, ngettext
from firmware.screens import base, play
from firmware.screens.ctx import Ctx, remade
from firmware.screens.glory.objectives import choosing, open_objectives
from firmware.screens.glory.round import EventScreen, MedalScreen, due_taxes, pick_form, tax_form
from firmware.screens.glory.score import open_score
from firmware.screens.glory.setup import SetupScreen
from firmware.screens.glory.track import FameScreen, SenateScreen, UnvoteScreen
from firmware.screens.glory.words import ARROW_CYCLE, GAMES, arrows_word, event_label, run_line, view_of
from firmware.screens.widgets import Item, ListScreen, figure


def open_game(ctx: Ctx) -> None:
    """Continue the current Glory session, or set up a new one."""
    play.continue_or_setup(ctx, ("glory",), GloryHome, lambda: SetupScreen(GloryHome))


def due_row(view: GloryView) -> str:
    """The home row of what the round has due now (G-1): its event card to reveal (the intrigue
    phase), then the income (Tax, G-4: the building and action phases are played on the board),
    then End round; '' once round 9 is over (the score, the home's first row)."""
    if view["finished"] or view.get("ended"):
        return ""
    if view["event"] is None:
        return "reveal"
    order = view["order"] or view["players"]
    return "tax" if any(p not in view["taxed"] for p in order) else "end"


class GloryHome(ListScreen):
    """The game's home: the round in the title (the game's name once it is over)."""

    wrap_rows = True           # the event's arrows beside their label take two rows where they do not fit

    def __init__(self) -> None:
        super().__init__()
        self.was_finished: int | None = None    # 0 playing, 1 after round 9, 2 ended
        self.due: str | None = None             # the row of what the round had due at the last frame

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Glory of Rome")

    def render(self, ctx: Ctx) -> Image.Image:
        view = view_of(ctx)
        img = super().render(ctx)
        if not view["finished"] and not view.get("ended"):
            draw = ImageDraw.Draw(img)
            base.title_bar(draw, _("Round {} of {}").format(view["round"], view["rounds"]))
        return img

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        over = bool(view["finished"]) + bool(view.get("ended"))
        if self.was_finished is not None and over > self.was_finished:
            self.reset()                      # round 9 / the game has ended: the cursor on the first row
        self.was_finished = over
        due = due_row(view)
        if due != self.due:                   # opened (a new game, Resume after a restart), or a step
            self.due = due                    # done here, by an undo or over the serial link: the
            self.current = due or self.current   # cursor on what the round has due now (G-1)
        leader = max(view["players"], key=lambda p: view["fame"][p])
        final = Item(_("Final score"), open_score, ident="final")
        dealt = [p for p in view["players"] if p in view["objectives"]]
        waiting = choosing(view)     # G-19: the objectives, dealt and looked at in secret (objectives.py)
        objectives = Item(_("Objectives") if dealt else _("Deal objectives"), open_objectives,
                          f"{len(dealt) - len(waiting)}/{len(dealt)}" if waiting else "", ident="objectives")
        new = Item(_("New game"), lambda c: c.push(SetupScreen(GloryHome)), ident="new")
        if view.get("ended"):                 # the score is final: the next game first (a game the
            fame = Item(_("Fame"), lambda c: c.push(FameScreen()),   # players ended before round 9 has none)
                        f"{base.clip_name(leader, 8)} {view['fame'][leader]}")
            shown = [objectives] if dealt else []     # revealed once the game is over (G-13)
            return [new, final, fame, *shown] if view["finished"] else [new, fame, *shown]
        medals = [] if view["options"].get("heroes") else [Item(_("Medals"), lambda c: c.push(MedalScreen()), ident="medals")]
        if view["finished"]:                  # after round 9: the score first; fame and medals may
            return [final,                    # still be corrected until the score is final
                    Item(_("Fame"), lambda c: c.push(FameScreen()), f"{base.clip_name(leader, 8)} {view['fame'][leader]}"),
                    *medals,
                    Item(_("Senate"), lambda c: c.push(SenateScreen()), f"{len(view['senate'])}/5"),
                    *([objectives] if dealt else []),
                    new]
        out = [
            Item(_("Fame"), lambda c: c.push(FameScreen()), f"{base.clip_name(leader, 8)} {view['fame'][leader]}"),
            Item(_("Senate"), lambda c: c.push(SenateScreen()), f"{len(view['senate'])}/5"),
        ]
        # the round's rows in the order G-1 plays it («Каждый раунд делится на четыре фазы»): the
        # intrigue phase (its event card, then from round 2 the intrigues activated), the building
        # phase (a medal goes to the first level III building of its type), the action phase
        # (farming), the income phase (Tax) and the board's turn that ends the round (End round)
        if view["event"] is None:
            out.append(Item(_("Reveal event"), self._reveal, ident="reveal"))
        else:
            # the row is the event card's name ("Event 3", «Суровые времена 3»): it opens the card;
            # a name edited in to match the printed card is the only one cut (base.clip_name)
            out.append(Item(base.clip_name(event_label(view["event"]), base.COLS - 1),
                            lambda c: c.push(EventScreen()), ident="event"))
            # the arrows printed on the card revealed at the table (the data's are stand-ins):
            # left/right set them, and with them the order and the board's turn (G-2); A: the card
            arrows = arrows_word(view["event"]["arrow"])
            out.append(Item(_("Arrows"), lambda c: c.push(EventScreen()),
                            figure(arrows) if self.cursor == len(out) else arrows,
                            ident="arrows", adjust=self._arrows))
        # the intrigues (G-19: «Продано!», «Таможенные сборы» pick a card at random from a rival's
        # hand; G-7: «Повторное голосование», «Недействительное голосование» take a vote out) are
        # activated once the round's event card is out (G-1: step 2 after step 1); none in the
        # Emperor's solo (G-17: «интриги не могут быть размещены») or the Truce variant («Игроки не
        # размещают и не активируют интриги»), nor in round 1, which skips their activation (G-1:
        # «В первом раунде игры пропустите этот шаг»): the console refuses them there too
        intrigues = (len(view["players"]) > 1 and not view["options"].get("truce") and view["round"] > 1
                     and view["event"] is not None)
        if intrigues:
            out.append(Item(_("Random card pick"), lambda c: c.push(pick_form()), ident="pick"))
        if view["senate"] and intrigues:
            out.append(Item(_("Remove a vote"), lambda c: c.push(UnvoteScreen()), ident="unvote"))
        out.extend(medals)                    # none in the Heroes variant: its game has no medals
        out.append(Item(_("Farming income"), self._farming, ident="farming"))
        # the income phase is the round's last, after the event (G-1): before it the row says so
        # (a player looking for Tax at the start of a round sees why it is not due yet)
        out.append(Item(_("Tax"), self._tax, "" if view["event"] is not None else _("after the event"), ident="tax"))
        if view["event"] is not None:         # then the board turns as the card shows: the round ends
            out.append(Item(_("End round {}").format(view["round"]), self._end_round, ident="end"))
        out.append(final)
        out.append(objectives)                # dealt at the set-up, revealed at the final scoring
        out.append(new)
        return out

    def _tax(self, ctx: Ctx) -> None:
        """The tax form on the player whose income is due: the first in the round's order who has
        not taken it yet (G-1: the income phase goes round the table from the first player), as
        the game records it (``taxed``: an undo, the serial link and a restart change it too).
        Once everyone has, it says so (and after the last tax the cursor is on End round); before
        the round's event, that the income phase comes after it."""
        view = view_of(ctx)
        if view["event"] is None:             # the income phase comes after the event (G-1)
            ctx.notify(Msg("The income phase comes after the event (G-1): reveal it first."))   # (a notice's 4 rows)
            return
        due = due_taxes(view)
        if not due:
            ctx.notify(Msg("Everyone has taken income in round {}.", view["round"]))
            return
        # one A opens the income phase: each tax paid opens the next player's (3 presses a player
        # were 2: A to pay, A to read what to take), the last one comes back here on End round
        ctx.push(tax_form(ctx, view["players"].index(due[0]), chain=True))

    @staticmethod
    def _arrows(ctx: Ctx, by: int) -> None:
        """The next (``by`` > 0) or the previous arrows as a card prints them (G-2)."""
        now = view_of(ctx)["event"]
        if now is None:                         # (the round ended meanwhile: the row is gone)
            return
        i = ARROW_CYCLE.index(now["arrow"])
        run_line(ctx, act.arrow(ARROW_CYCLE[(i + (1 if by > 0 else -1)) % len(ARROW_CYCLE)]))

    @staticmethod
    def _reveal(ctx: Ctx) -> None:
        response = run_line(ctx, act.event())
        if response is not None:
            ctx.push(EventScreen(response.get("solo_denarii")))

    def _end_round(self, ctx: Ctx) -> None:
        view = view_of(ctx)

        def go(c: Ctx) -> None:
            response = run_line(c, act.end_round())
            if response is not None:
                turned = response["turned"]          # signed degrees, + = clockwise: said in words (G-2)
                way = Msg("clockwise") if turned > 0 else Msg("counter-clockwise")
                c.notify(Msg("Game over: final scoring.") if response["finished"] else
                         Msg("Turn the board {}° {}. Round {}.", abs(turned), way, response["round"]))

        round_, rounds = view["round"], view["rounds"]
        # G-1, G-4: every player takes income in the income phase; the question names whoever the
        # game has not recorded yet (it asked «Дохід зібрано?» with two players' tax not taken)
        missing = ", ".join(due_taxes(view))
        if not missing and round_ < rounds:
            # everyone's income taken: the round ends at once, its notice saying which way to turn
            # the board (a hold of B takes it back, saying to turn it back); «Income done?» asked
            # what the device knew, a press every round (as The Sword of Rome's next round). Asked
            # still where income is missing, and before round 9's end, which ends the game
            go(ctx)
            return

        def question() -> str:
            if missing:      # (which way to turn the board and the new round: the notice after yes, as without it)
                return (_("Income not yet taken: {}.").format(missing)
                        if round_ < rounds else _("Income not yet taken: {}. This ends the game.").format(missing))
            return (_("Income done? Turn the board and start round {}.").format(round_ + 1) if round_ < rounds
                    else _("Income done? This ends the game."))
        ctx.push(remade(lambda: play.Asked(GAMES, _("End round?"), question(), go)))

    @staticmethod
    def _farming(ctx: Ctx) -> None:
        view = view_of(ctx)
        farms: list[tuple[str, int, bool]] = []
        for p in view["players"]:
            response = run_line(ctx, act.farm(p))
            if response is None:
                return
            farms.append((p, response["denarii"], bool(response["farmer"])))

        def make() -> play.Snapshot:              # read once: said again in a new language, never asked again
            rows = [ngettext("{}: {} denarius", "{}: {} denarii", n).format(p, n) + (" " + _("(Farmer)") if farmer else "")
                    for p, n, farmer in farms]
            return play.Snapshot(GAMES, _("Farming, round {}").format(view["round"]), rows)   # as it is now
        ctx.push(remade(make))
