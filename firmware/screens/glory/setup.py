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
from firmware.screens.glory.words import GAMES, SEAT_NAMES, view_of
from firmware.screens.widgets import Field, Item, NumberForm, on_off
from firmware.screens.widgets.people import Seats
from firmware.screens.widgets.share import FairShare


class SetupScreen(NumberForm):
    """New game: the player count, the players (the players who played last sit down already, most
    recent first; A on a player opens the list of known players — two presses for a known one —,
    typing a name, or the seat's colour), each player's starting fame (the space their character
    board shows, G-5: left/right), with 3 players the empty seat (between which two of them: Player 1,
the first player, holds the token), the variants (the rulebook's «Суровые времена», «По ходу часов»,
«Перемирие», «Герои»), then the fair-draw code and the players' share, and
    a Start row. A on a figure row starts the game too. The cursor starts on the count row, where A
    starts the game with the players listed under it (the last table already sits down, its count
    too: :meth:`recall`), so the same table starts with one press; another player is one press
    down (A there: "A: choose")."""

    def __init__(self, home: Callable[[], Screen]) -> None:
        self.home = home                          # the screen that shows the new game
        super().__init__(N_("New game"), [
            # a push past the count says the rule (G-1, G-17: the Emperor's solo to four players)
            Field("players", N_("Players"), 4, 1, 4, limit=lambda n: Msg("For the Glory of Rome takes 1 to 4 players.")),
            *(Field(f"fame{i}", N_("Fame"), 1, 1, MOST_START_FAME) for i in range(len(SEAT_NAMES))),
            Field("harsh", N_("Harsh Times"), 0, 0, 1, on_off),
            Field("clockwise", N_("Clockwise"), 0, 0, 1, on_off),
            Field("truce", N_("Truce"), 0, 0, 1, on_off),
            Field("heroes", N_("Heroes"), 0, 0, 1, on_off),
            # 3 players (G-1: one province faces nobody): the empty seat, between two players
            Field("empty", N_("Empty seat"), EMPTY_AFTER_LAST, 0, 2, self._empty_between),
        ], self._start, status=self._status, fair=FairShare())
        self.seats = Seats([(str(i), partial(_seat_label, i)) for i in range(len(SEAT_NAMES))],
                           lambda i: _(SEAT_NAMES[i]), prefill=True)

    def name(self, seat: int) -> str:
        return self.seats.shown(seat)

    def recall(self, ctx: Ctx) -> None:
        """Once, before the form is first drawn: the count is the last Glory table's when its players
        are the ones sitting down (the most recent players): a table of 3 that played last starts
        again with one A, not as 4 with a seat's colour («Зелёный») or another player on the 4th."""
        first = not self.recalled
        super().recall(ctx)
        if first:
            self.seats.fill(ctx)
            table = last_table(ctx)
            if table and {n.casefold() for n in table} == {self.name(i).casefold() for i in range(len(table))}:
                self.fields[0].value = len(table)

    def _count(self) -> int:
        return self.values()["players"]

    def _status(self, ctx: Ctx, values: dict[str, int]) -> str:
        return _("A: choose") if 1 <= self.cursor <= self._count() else _("A: start")

    def items(self, ctx: Ctx) -> list[Item]:
        n, seats = self._count(), len(SEAT_NAMES)
        gap = int(n == 3)              # the empty seat's row, under the players (3 players only)
        # where each field's row stands: the count, (the players), (the empty seat), their fame, the variants
        rows = [0, *(n + 1 + gap + i if i < n else -1 for i in range(seats)),
                *(2 * n + 1 + gap + i for i in range(4)), n + 1 if gap else -1]
        figures = self.field_items(rows)
        said = _("{}: fame")           # the name cut to leave room for the figure at the cursor (‹3›)
        room = base.COLS - len(said.format("")) - FIGURE_ROOM
        fame = [replace(figures[1 + i], label=said.format(base.clip_name(self.name(i), room))) for i in range(n)]
        empty = [figures[-1]] if gap else []
        return ([figures[0], *self.seats.items(ctx, n, self._picked), *empty, *fame, *figures[1 + seats:-1]]
                + self.fair_items(ctx) + [Item("▶ " + _("Start"), self.go, ident="start")])

    def _empty_between(self, k: int) -> str:
        """The empty seat of a 3-player table as its two neighbours, clockwise: Player k+1 and the
        next one («Олесь–Ваня»)."""
        return f"{base.clip_name(self.name(k), 8)}–{base.clip_name(self.name((k + 1) % 3), 8)}"

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
        order = list(range(len(names)))
        if len(names) == 3:
            # Player 1 holds the first-player token (G-2); the game seats the players clockwise
            # from the seat after the empty one (engine/glory/rounds.py: seats 1-3, the 4th empty),
            # so that the province facing nobody and the first player of each round are the table's
            k = values["empty"] + 1
            order = order[k:] + order[:k]
        play.start_game(ctx, act.new([names[i] for i in order], bool(values["harsh"]), bool(values["clockwise"]),
                                     [fame[i] for i in order], truce=bool(values["truce"]),
                                     heroes=bool(values["heroes"]), first=names[0]),
                        self.home, fair=self.fair)


def last_table(ctx: Ctx) -> list[str]:
    """The players of the Glory game played last: the running one's, else History's newest ([]: none)."""
    view = ctx.view()
    if view is not None and view["game"] in GAMES:
        return [str(p) for p in view_of(ctx)["players"]]
    for entry in ctx.played() or []:                 # newest first
        if entry["game"] in GAMES:
            return [str(p["name"]) for p in entry["players"]]
    return []


EMPTY_AFTER_LAST = 2    # the empty seat between Player 3 and Player 1 (the seats 1-3 of the console's game)
MOST_START_FAME = 5     # the character boards start the fame marker on 1-3 (G-5); a little room above
FIGURE_ROOM = 5         # a figure at the cursor (‹3›) and the gaps beside it


def _seat_label(i: int) -> str:
    return _("Player {}").format(i + 1)
