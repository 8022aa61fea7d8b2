"""A game ended with ``end`` (issue 20 §1: nothing more is drawn, undo never reopens it) as the
device meets it: "Continue" still shows it, but a roll or an undo is refused in the player's words,
never with the console's list of the commands it still answers."""
from __future__ import annotations

from pathlib import Path

import pytest

from scripts.presses.harness import CONSOLE_SYNTAX
from tests.screens import app_with, drawn

COMMANDS = ("state", "log", "reveal", "export")


def shown(app) -> str:
    """What the top screen says: a notice's every row (it may be longer than the panel), or the
    texts drawn."""
    rows = getattr(app.stack[-1], "rows", None)
    return " ".join(rows) if isinstance(rows, list) else " ".join(t for _x, _y, t, _k in drawn(app))


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_roll_in_an_ended_dice_session_is_refused_in_words(state_dir: Path, lang: str):
    app = app_with(["new dice", "roll 2d6", "end"], ["a"], state_dir, lang)    # Continue: dice
    try:
        lines = list(app.console.session.lines)
        app.handle("a")                                                        # A: roll
        text = shown(app)
        assert app.console.session.lines == lines                             # nothing rolled
        assert not any(f"{c}," in text or f" {c} " in text for c in COMMANDS), text
        assert not CONSOLE_SYNTAX.search(text), text
        assert "History" in text or "Истори" in text or "Історі" in text       # where the game went
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_undo_after_end_is_refused_before_any_question(state_dir: Path, lang: str):
    app = app_with(["new dice", "roll 2d6", "end"], [], state_dir, lang)
    try:
        lines = list(app.console.session.lines)
        app.handle("b:hold")                                                   # undo
        text = shown(app)
        assert app.console.session.lines == lines
        assert type(app.stack[-1]).__name__ != "ConfirmScreen"                 # no question to refuse later
        assert not any(f"{c}," in text for c in COMMANDS), text
        app.handle("a")                                                        # the notice closes; nothing undone
        assert app.console.session.lines == lines
    finally:
        app.console.close()
