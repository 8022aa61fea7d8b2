"""For the Glory of Rome: the new-game form (players, variants, names typed in the player's language)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from engine.glory import actions as act
from engine.text import N_
from firmware.screens.glory.text import Msg, _
from firmware.screens import base, play
from firmware.screens.ctx import Ctx, Screen
from firmware.screens.glory.words import SEAT_NAMES
from firmware.screens.widgets import Field, Item, NumberForm, on_off
from firmware.screens.widgets.people import Seats
from firmware.screens.widgets.share import FairShare


class SetupScreen(NumberForm):
    """New game: the player count, the players (the players who played last sit down already, most
    recent first; A on a player opens the list of known players — two presses for a known one —,
    typing a name, or the seat's colour), each player's starting fame (the space their character
    board shows, G-5: left/right), the variants (the rulebook's «Суровые времена», «По ходу часов»,
«Перемирие», «Герои»), then the fair-draw code and the players' share, and
    a Start row. A on a figure row starts the game too. The cursor starts on the first player: who
    plays is what changes from game to game (the same table starts from the count row above it)."""

    def __init__(self, home: Callable[[], Screen]) -> None:
        self.home = home                          # the screen that shows the new game
        super().__init__(N_("New game"), [
            Field("players", N_("Players"), 4, 1, 4),
            *(Field(f"fame{i}", N_("Fame"), 1, 1, MOST_START_FAME) for i in range(len(SEAT_NAMES))),
            Field("harsh", N_("Harsh Times"), 0, 0, 1, on_off),
            Field("clockwise", N_("Clockwise"), 0, 0, 1, on_off),
            Field("truce", N_("Truce"), 0, 0, 1, on_off),
            Field("heroes", N_("Heroes"), 0, 0, 1, on_off),
        ], self._start, status=self._status, fair=FairShare())
        self.seats = Seats([(str(i), partial(_seat_label, i)) for i in range(len(SEAT_NAMES))],
                           lambda i: _(SEAT_NAMES[i]), prefill=True)
        self.cursor = self._mark = 1              # the first player

    def name(self, seat: int) -> str:
        return self.seats.shown(seat)

    def _count(self) -> int:
        return self.values()["players"]

    def _status(self, ctx: Ctx, values: dict[str, int]) -> str:
        return _("A: choose") if 1 <= self.cursor <= self._count() else _("A: start")

    def items(self, ctx: Ctx) -> list[Item]:
        n, seats = self._count(), len(SEAT_NAMES)
        # where each field's row stands: the count, (the players), their fame, the variants
        rows = [0, *(n + 1 + i if i < n else -1 for i in range(seats)), *(2 * n + 1 + i for i in range(4))]
        figures = self.field_items(rows)
        said = _("{}: fame")           # the name cut to leave room for the figure at the cursor (‹3›)
        room = base.COLS - len(said.format("")) - FIGURE_ROOM
        fame = [replace(figures[1 + i], label=said.format(base.clip_name(self.name(i), room))) for i in range(n)]
        return ([figures[0], *self.seats.items(ctx, n, self._picked), *fame, *figures[1 + seats:]]
                + self.fair_items(ctx) + [Item("▶ " + _("Start"), self.go, ident="start")])

    def _picked(self, ctx: Ctx, seat: int) -> None:
        """The next row after a player was picked (the next seat, or the first player's fame)."""
        self.cursor = self._mark = seat + 2
        self.current = ""

    def _start(self, ctx: Ctx, values: dict[str, int]) -> None:
        names = [self.name(i) for i in range(values["players"])]
        if len({n.casefold() for n in names}) < len(names):
            ctx.notify(Msg("Two players have the same name."))
            return
        fame = [values[f"fame{i}"] for i in range(len(names))]
        play.start_game(ctx, act.new(names, bool(values["harsh"]), bool(values["clockwise"]), fame,
                                     truce=bool(values["truce"]), heroes=bool(values["heroes"])),
                        self.home, fair=self.fair)


MOST_START_FAME = 5     # the character boards start the fame marker on 1-3 (G-5); a little room above
FIGURE_ROOM = 5         # a figure at the cursor (‹3›) and the gaps beside it


def _seat_label(i: int) -> str:
    return _("Player {}").format(i + 1)
