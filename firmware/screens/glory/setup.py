"""For the Glory of Rome: the new-game form (players, variants, names typed in the player's language)."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from engine.glory import actions as act
from engine.text import N_
from firmware.i18n import _
from firmware.screens import base, play
from firmware.screens.ctx import Ctx, Screen
from firmware.screens.glory.words import SEAT_NAMES
from firmware.screens.widgets import Field, Item, NumberForm, on_off
from firmware.screens.widgets.share import FairShare


class SetupScreen(NumberForm):
    """New game: player count, variants, then the players' names (by default their colour in the
    current language). left/right change a number; A (or right, or press) on a name types another
    one (the keyboard of the current language, Cyrillic too); A elsewhere starts the game."""

    def __init__(self, home: Callable[[], Screen]) -> None:
        self.home = home                          # the screen that shows the new game
        super().__init__(N_("New game"), [
            Field("players", N_("Players"), 4, 1, 4),
            Field("harsh", N_("Harsh Times"), 0, 0, 1, on_off),
            Field("clockwise", N_("Clockwise"), 0, 0, 1, on_off),
        ], self._start, status=self._status, fair=FairShare())
        self.names: list[str | None] = [None] * len(SEAT_NAMES)   # None: the seat's colour

    def name(self, seat: int) -> str:
        typed = self.names[seat]
        return typed if typed is not None else _(SEAT_NAMES[seat])

    def _count(self) -> int:
        return self.values()["players"]

    def _status(self, ctx: Ctx, values: dict[str, int]) -> str:
        return _("A: type") if self.cursor >= len(self.fields) else _("A: start")

    def items(self, ctx: Ctx) -> list[Item]:
        names = [Item(_("Player {}").format(i + 1), partial(self._type, seat=i), base.clip(self.name(i), 12),
                      ident=f"name:{i}") for i in range(self._count())]
        return self.field_items() + names + self.fair_items(ctx)

    def _type(self, ctx: Ctx, seat: int) -> None:
        from firmware.screens.widgets.keyboard import TypeScreen
        ctx.push(TypeScreen(partial(self._typed, seat=seat)))

    def _typed(self, ctx: Ctx, name: str, seat: int) -> None:
        self.names[seat] = name

    def _start(self, ctx: Ctx, values: dict[str, int]) -> None:
        names = [self.name(i) for i in range(values["players"])]
        if len({n.casefold() for n in names}) < len(names):
            ctx.notify(_("Two players have the same name."))
            return
        play.start_game(ctx, act.new(names, bool(values["harsh"]), bool(values["clockwise"])), self.home, fair=self.fair)
