"""An ``undo`` sent over the serial link is said on the device as hold B says it (docs/protocol.md
``undo``): the players at the table look at the device, not at the laptop. The same notice, in the
same words (the game's own undo sentence), and the screens in step with the board."""
from __future__ import annotations

import pytest

from firmware import i18n
from firmware.screens.widgets import TextScreen
from tests.screens import app_with, say_yes

# One undoable step of each game: Caesar! (Auto-Crassus's turn), Julius Caesar (a block added to
# the battle), For the Glory of Rome (fame), the Sword of Rome (the consuls), the kit (dice, bag).
GAMES = {
    "caesar": ["new caesar-solo side=caesar difficulty=normal seed=5", "crassus"],
    "jc": ["new jc-battle seed=4", "add attacker c_leg10"],
    "glory": ["new glory players=Jack,Jill seed=3", "fame Jack +5"],
    "sword": ["new sword players=romans,gauls seed=1", "consuls"],
    "dice": ["new dice seed=3", "roll 2d6"],
    "bag": ["new bag items=a*3,b*2 seed=1", "draw"],
}


def _notice(app) -> str:
    """The notice the device shows now: the one over the screen, or the scrollable one."""
    app.render()
    if app.message:
        return " ".join(app.message)
    top = app.stack[-1]
    return " ".join(top.rows) if isinstance(top, TextScreen) else ""


def _by_device(app) -> str:
    app.render()
    app.handle("b:hold")
    app.render()
    say_yes(app)                       # yes, take it back
    return _notice(app)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_undo_by_the_link_is_said_on_the_device_as_hold_b_says_it(tmp_path, game, lang):
    lines = GAMES[game]
    held = app_with(lines, [], tmp_path / "held", lang=lang)
    try:
        i18n.set_language(lang)
        by_hand = _by_device(held)
    finally:
        held.console.close()
    assert by_hand, "hold B says what it took back"
    app = app_with(lines, [], tmp_path / "link", lang=lang)
    try:
        i18n.set_language(lang)
        app.render()
        shown_before = app.notices
        assert '"ok":true' in app.serve_line(b"undo")
        assert app.notices == shown_before + 1
        assert _notice(app) == by_hand
        assert len(app.console.session.lines) == 0 and app.errors == 0
    finally:
        app.console.close()


def test_a_refused_or_other_line_from_the_link_says_nothing_on_the_device(tmp_path):
    """Only a step taken back is said: a refused ``undo`` (nothing to undo) and a roll answer the
    laptop alone, as before."""
    app = app_with(["new dice seed=3"], [], tmp_path)
    try:
        app.render()
        before = app.notices
        assert '"nothing_to_undo"' in app.serve_line(b"undo")
        assert '"ok":true' in app.serve_line(b"roll 1d6")
        app.render()
        assert app.notices == before and not app.message
    finally:
        app.console.close()


def test_the_link_undo_notice_is_said_again_in_a_new_language(tmp_path):
    """The notice keeps its sentence: a ``settings language=ru`` line that follows says it in
    Russian, as hold B's notice is."""
    app = app_with(["new dice seed=3", "roll 2d6"], [], tmp_path)
    try:
        i18n.set_language("en")
        app.render()
        app.serve_line(b"undo")
        assert _notice(app).startswith("Undone:")
        app.serve_line(b"settings language=ru")
        assert _notice(app).startswith("Отменено:")
    finally:
        i18n.set_language("en")
        app.console.close()
