"""The undo of the device's screens: hold B's question, and what a serial ``undo`` took back as
hold B says it (:class:`firmware.app.App` asks and says them)."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from engine.dice import roll_asked
from engine.errors import LegatusError
from engine.replies import UndoReply
from engine.text import Msg
from firmware.i18n import Sentences, _, say
from firmware.log_sentences import said
from firmware.screens.ctx import Ctx, Step, remade, taken_back
from firmware.screens.widgets import ConfirmScreen

if TYPE_CHECKING:
    from firmware.app import App
    from firmware.session import Session

log = logging.getLogger(__name__)


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


def ask_undo(app: App) -> None:
    """Hold B's question about the newest step of the game in play and, on yes, its undo: the
    steps one key made (the player's and the device's after it, stored as one key's with them:
    ``Store.key_steps``, after a restart too) go back together in one write, one notice saying what
    to do on the table; nothing to undo, an ended game or a damaged
    record are said instead."""
    session = app.console.session
    if session is None or not session.lines:
        app.notify(Msg("Nothing to undo."))
        return
    if session.ended:                    # `end` (or the seed shown): nothing is taken back
        app.notify(Msg("This game has ended: its moves can no longer be taken back."))
        return
    try:
        step = session.check_undo()
    except LegatusError as e:          # the step's record is damaged (reported from now on)
        log.warning("undo cannot be asked: %s", e)
        app.notify(e.message)
        return
    named = app.console.undo_step()
    # the player's step and those the device made after it at the same key (stored with them: a restart keeps them)
    steps = app.console.store.key_steps() if named is not None else 1
    if steps > 1:
        try:
            step = said(session.sentences[-steps])       # the question names the player's step
        except (LegatusError, LookupError):
            log.warning("the first of the key's steps cannot be read: one step is asked")
            steps = 1

    def yes(ctx: Any) -> None:
        now = app.console.session
        depth = len(now.lines) if now is not None else 0
        # the step the question named and the key's steps under it, in one write (firmware/store/actions.py)
        response = cast(UndoReply, app.console.undo_named(named))
        app._view_stale = True
        if response.get("error") in ("step_changed", "game_over"):     # a serial request came in between (an `end`: said so)
            app.ask_undo()
            return
        now = app.console.session
        done = depth - len(now.lines) if response.get("ok") and now is not None else 0
        if done:
            app._follow_undo()
        app.drop_stale()
        if done > 1 and now is not None:             # what to do on the table: each step's undo, oldest first
            app.notify(Sentences(*reversed(now.log[-done:])))
        else:
            app.notify(response.get("undone") or response.get("message", ""))

    asked = session.game.undo_asked(step) if session.game.undo_asked is not None else None   # (a short one)
    asked = asked if asked is not None else roll_asked(step)       # (a roll, in any game: its total)
    at = Step(session.game.name, len(session.lines))
    question = remade(lambda: undo_question(at, _("Undo?"), say(asked) if asked is not None else
                                            _("Take back: {}").format(say(step)), yes, _("A: undo"), _("B: keep")))
    if isinstance(app.stack[-1], UndoQuestion):       # hold B again: still one question, never two
        app.replace(question)
    else:
        app.push(question)
