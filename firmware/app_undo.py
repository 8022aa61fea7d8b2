"""The undo of the device's screens: hold B's question, and what a serial ``undo`` took back as
hold B says it (:class:`firmware.app.App` asks and says them)."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from engine.replies import UndoReply
from engine.text import Msg
from firmware.screens.ctx import Ctx, Step, taken_back
from firmware.screens.widgets import ConfirmScreen

if TYPE_CHECKING:
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
