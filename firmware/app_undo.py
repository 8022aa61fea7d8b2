"""The undo of the device's screens: hold B's question, and what a serial ``undo`` took back as
hold B says it (:class:`firmware.app.App` asks and says them)."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from engine.replies import UndoReply
from engine.text import Msg
from firmware.screens.ctx import Ctx, Step, taken_back
from firmware.screens.widgets import ConfirmScreen

if TYPE_CHECKING:
    from firmware.session import Session


class UndoQuestion(ConfirmScreen):
    """The question hold B asks before an undo (one at a time: hold B on it asks it anew), about
    the newest step of the game as it stood then (``asked``): taken off once the serial link took
    that step back, so it never asks about a step that no longer exists. A step played or an
    ``end`` meanwhile leaves it: A then asks about the newest step, or says the game has ended."""

    asked: Step | None = None

    def stale(self, ctx: Ctx) -> bool:
        return taken_back(ctx, self.asked)


def undo_question(asked: Step, title: str, question: str, on_yes: Callable[[Ctx], None], yes: str,
                  no: str) -> UndoQuestion:
    """Hold B's question about the step ``asked`` (the game's newest step when it was asked)."""
    screen = UndoQuestion(title, question, on_yes, yes, no)
    screen.asked = asked
    return screen


def undone_by_link(session: Session | None, response: str | None, depth: int | None) -> Any:
    """What a serial line just took back, as hold B says it (``Undone: …``, the game's own
    undo sentence: the session's newest log sentence, said again in a new language), or
    None if the line undid nothing: not an ``undo``, refused, or in another session."""
    if response is None or session is None or depth is None or len(session.lines) >= depth:
        return None
    try:
        got = json.loads(response)
    except ValueError:
        return None
    if not isinstance(got, dict):
        return None
    reply = cast(UndoReply, got)             # (if an undo was answered: ok, and the step as a sentence)
    if reply.get("ok") is not True or not isinstance(reply.get("undone"), str):
        return None
    newest = session.log[-1] if session.log else None
    return newest if isinstance(newest, Msg) else reply["undone"]
