"""The question Dice & bags asks before a session of its own replaces a game its rules ended (the
players have not): it stands only while that game is as it was asked about."""
from __future__ import annotations

from collections.abc import Callable

from engine.views import SessionView
from firmware.screens import play
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.confirm import ConfirmScreen


class OverQuestion(ConfirmScreen):
    """"This ends the … game … Roll dice?" over ``view``, a game its rules ended
    (:func:`play.replaced_note`). Taken off (``stale``: firmware/app.py ``drop_stale``) once the
    game is no longer that one as it was: an undo (hold B, or ``undo`` from the serial link)
    reopened it, so Dice & bags goes beside it again and nothing ends it; or a line ended it."""

    def __init__(self, title: str, question: str, on_yes: Callable[[Ctx], None], view: SessionView) -> None:
        super().__init__(title, question, on_yes)
        self.game, self.asked_at = view["game"], view["actions"]

    def stale(self, ctx: Ctx) -> bool:
        view = ctx.view()
        return (view is None or view["game"] != self.game or view["actions"] != self.asked_at
                or play.replaced_note(view) is None)
