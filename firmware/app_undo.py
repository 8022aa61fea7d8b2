"""The undo of the device's screens: hold B's question, and what a serial ``undo`` took back as
hold B says it (:class:`firmware.app.App` asks and says them)."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

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


class OneKey:
    """The steps one key made, to be taken back by one hold of B: a player's step and the steps
    the device made for them after it at the same press (Caesar!'s draws owed after a placement
    with a digital bag, J-14's hits after the dice of a fire entered) are one thing the player
    did. One rule for every game: :meth:`begin` at a key, :meth:`count` at each line the key ran,
    :meth:`end` after it; :meth:`steps` then says how many steps the undo asked now takes back
    (1 but for the newest key's steps, while they are on top: a serial line, an undo or another
    key in between leave one step at a time). Kept in memory only: after a restart one hold of B
    takes back one step, as before."""

    def __init__(self) -> None:
        self._at: tuple[object, int] | None = None      # (the session, its steps) when the key came
        self._made = 0                                   # the steps the key's lines added, one each
        self._top: tuple[int, int] | None = None         # the newest of the last key's steps (the store's name)
        self._count = 0                                  # ... and how many it made

    def begin(self, session: Session | None) -> None:
        self._at = (session, len(session.lines)) if session is not None else None
        self._made = 0

    def count(self, before: tuple[object, int] | None, session: Session | None) -> None:
        """A line the key ran, ``before`` it the session and its steps: one step more when it added one."""
        if before is not None and session is not None and session is before[0] and len(session.lines) == before[1] + 1:
            self._made += 1

    def end(self, session: Session | None, top: Callable[[], tuple[int, int] | None]) -> None:
        """After the key: its steps, if it made more than one and nothing else changed the game
        (``top`` names the step on top: the store's name of it, asked only then)."""
        at, self._at = self._at, None
        if at is None or session is None or session is not at[0] or len(session.lines) != at[1] + self._made:
            return
        if self._made >= 2:
            try:
                self._top, self._count = top(), self._made
            except Exception:  # noqa: BLE001 - not known: hold B then takes back one step at a time
                log.exception("the steps of the key are not known")
                self._top, self._count = None, 0
        elif self._made == 1:
            self._top, self._count = None, 0

    def steps(self, top: tuple[int, int] | None, session: Session) -> int:
        """How many steps one hold of B takes back now (``top``: the step on top, the store's name)."""
        if top is None or top != self._top or self._count > len(session.lines):
            return 1
        return self._count


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
    steps one key made (the player's and the device's after it, :class:`OneKey`) go back together,
    one notice saying what to do on the table; nothing to undo, an ended game or a damaged
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
    steps = app._one_key.steps(named, session)       # the player's step and those the device made after it
    if steps > 1:
        try:
            step = said(session.sentences[-steps])       # the question names the player's step
        except (LegatusError, LookupError):
            log.warning("the first of the key's steps cannot be read: one step is asked")
            steps = 1

    def yes(ctx: Any) -> None:
        response = cast(UndoReply, app.console.undo_named(named))      # only the step the question named
        app._view_stale = True
        if response.get("error") in ("step_changed", "game_over"):     # a serial request came in between (an `end`: said so)
            app.ask_undo()
            return
        done = 1 if response.get("ok") else 0
        while done and done < steps:                 # then the rest of the key's steps, newest first
            response = cast(UndoReply, app.console.undo_named(app.console.undo_step()))
            if not response.get("ok"):
                break
            done += 1
        if done:
            app._follow_undo()
        app.drop_stale()
        if done > 1:                                 # what to do on the table: each step's undo, oldest first
            log_ = app.console.session.log if app.console.session is not None else []
            app.notify(Sentences(*reversed(log_[-done:]), "" if response.get("ok") else response.get("message", "")))
        else:
            app.notify(response.get("undone") or response.get("message", ""))

    asked = session.game.undo_asked(step) if session.game.undo_asked is not None else None   # (a short one)
    at = Step(session.game.name, len(session.lines))
    question = remade(lambda: undo_question(at, _("Undo?"), say(asked) if asked is not None else
                                            _("Take back: {}").format(say(step)), yes, _("A: undo"), _("B: keep")))
    if isinstance(app.stack[-1], UndoQuestion):       # hold B again: still one question, never two
        app.replace(question)
    else:
        app.push(question)
