"""The card's news raised while the device runs, said on the panel (:class:`firmware.app.App`).

The store keeps what it found wrong with the card in ``recovery`` (the console's ``state`` answers
it as ``recovered``): saved games deleted from the card and written back, an older action's record
found damaged when it was needed. At start the device shows it (``device._start_notices``); what
comes later — a change that found the state directory deleted, a ``new`` that wrote back the
games the replaced game's record found gone — was said only to a console player. Each new note is
said once, on a page of its own, in the language chosen now (again in a new one), pushed as the
key or serial line that brought it ends (a notice a key brought waits for a key of its own) and
kept while the panel is asleep; a note the refusal on screen already says (a damaged older
record) is not said twice."""
from __future__ import annotations

import json

from engine.text import Msg
from firmware.i18n import _, again, say
from firmware.screens.widgets import TextScreen
from firmware.storage import Recovery


def refusal(response: str | None) -> str | None:
    """The message of a refusal a serial link's response line says (None if it was done)."""
    try:
        answer = json.loads(response) if response else None
    except ValueError:
        return None
    return str(answer.get("message")) if isinstance(answer, dict) and not answer.get("ok") else None


def notes(recovery: Recovery | None) -> list[Msg]:
    """Each thing ``recovery`` says, on its own (as :meth:`Recovery.sentences` splits them)."""
    if recovery is None:
        return []
    message = recovery.message
    if message.args and message.template == " ".join("{}" for _ in message.args):
        return [note for note in message.args if isinstance(note, Msg)]
    return [message]


class CardNote(TextScreen):
    """A page saying one thing the card's store found while the device ran (never taken off by an
    undo, nor by a game the serial link puts in play: it is the card's news, not a step's)."""

    def __init__(self, text: str) -> None:
        super().__init__(_("Note"), text)


class CardNews:
    """The store's notes said so far, and those still to say."""

    def __init__(self, recovery: Recovery | None) -> None:
        self._said = notes(recovery)          # (said by the start's notices)
        self._waiting: list[Msg] = []

    def heard(self, recovery: Recovery | None, refused: str | None = None) -> None:
        """The store's notes after a request; ``refused``: the refusal it answered, said on screen
        already. A note that goes (a ``new`` clears them) and comes back is news again."""
        now = notes(recovery)
        for note in now:
            if note not in self._said and note not in self._waiting and (refused is None or say(note) != refused):
                self._waiting.append(note)
        self._said = now

    def take(self) -> list[Msg]:
        """The notes to say now (each once)."""
        waiting, self._waiting = self._waiting, []
        return waiting


def card_note(note: Msg) -> CardNote:
    """The card's news ``note`` on its page, said in the language chosen now (App._say_card_news)."""
    return CardNote(again(note))
