"""A restart reopens the decision the game waits for (the screens of a game on opening it:
``open_game``): Caesar!'s bonus choice (a Might, C-15) opens at once, as it did after the placement
that won it — the home's «Use Might» row took one more press."""
from __future__ import annotations

from scripts.shots_caesar import HU_MIGHT, NEW
from tests.screens import app_with


def test_a_restart_at_the_mights_choice_reopens_it(state_dir):   # C-15
    app = app_with([NEW, HU_MIGHT], ["a", "a", "press", "a", "a", "a", "a"], state_dir)   # your ship closes HU, pages read
    try:
        app.render()
        assert app.stack[-1].title == "Might: flip what?"
        assert list(app.console.session.lines)[-1] == "play HU-MT ship:3/3 HU"
    finally:
        app.console.close()
    app = app_with([], ["a"], state_dir)             # the device started again: A on «▶ Caesar!»
    try:
        app.render()
        assert app.stack[-1].title == "Might: flip what?"
        assert type(app.stack[-2]).__name__ == "CaesarHome"      # B goes back to the home, as before
        app.handle("b")
        app.render()
        assert type(app.stack[-1]).__name__ == "CaesarHome" and app.stack[-1].items(app)[0].label == "Use Might"
    finally:
        app.console.close()


def test_opening_the_game_at_his_turn_runs_nothing(state_dir):   # S-1: his turn waits for A
    app = app_with([NEW], ["a"], state_dir)
    try:
        app.render()
        assert type(app.stack[-1]).__name__ == "CaesarHome" and list(app.console.session.lines) == []
    finally:
        app.console.close()
