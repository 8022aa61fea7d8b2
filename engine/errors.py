"""Typed errors with the stable codes of the console protocol (PROTOCOL.md).

Raise them before changing anything: a request that fails changes nothing.
"""
from __future__ import annotations


class LegatusError(Exception):
    """Base: ``code`` is the protocol error code, ``message`` a sentence for a person: give an
    :class:`engine.text.Msg` so the console and the screens can say it in the chosen language
    (``Msg("No game '{}'.", name)``, never an f-string)."""

    code = "bad_arguments"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownCommand(LegatusError):
    code = "unknown_command"


class BadArguments(LegatusError):
    code = "bad_arguments"


class BadJson(LegatusError):
    code = "bad_json"


class LineTooLong(LegatusError):
    code = "line_too_long"


class NoSession(LegatusError):
    code = "no_session"


class IllegalMove(LegatusError):
    code = "illegal_move"


class NotYourTurn(LegatusError):
    code = "not_your_turn"


class GameOver(LegatusError):
    code = "game_over"


class NothingToUndo(LegatusError):
    code = "nothing_to_undo"


ERROR_CODES = (
    "unknown_command", "bad_arguments", "bad_json", "line_too_long", "no_session",
    "illegal_move", "not_your_turn", "game_over", "nothing_to_undo",
)
