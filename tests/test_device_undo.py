"""The device's undo question is bound to the step it names (issue 20 §5): a serial request that
arrives between the question and the answer must not be what gets undone."""
from __future__ import annotations

from firmware.screens.widgets import ConfirmScreen
from tests.screens import app_with


def _question(app) -> str:
    assert isinstance(app.stack[-1], ConfirmScreen)
    return " ".join(app.stack[-1].rows)


def test_a_serial_action_between_the_question_and_the_answer_is_not_undone(state_dir):
    app = app_with(["new bag items=a*3,b*3 seed=1", "draw"], [], state_dir)
    try:
        app.handle("b:hold")
        assert "Drew" in _question(app)
        named = list(app.console.session.lines)
        assert app.console.handle_text("roll 1d20") is not None          # the serial link, in between
        app.handle("a")                                                  # "yes" to the question shown
        assert app.console.session.lines == named + ["roll 1d20"]       # nothing was undone ...
        assert "1d20" in _question(app)                                  # ... the device asks again, naming it
        app.handle("a")
        assert app.console.session.lines == named                        # now the step it named is undone
        assert app.message and "Undone" in " ".join(app.message)
    finally:
        app.console.close()


def test_a_serial_undo_between_the_question_and_the_answer_asks_again(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], [], state_dir)
    try:
        app.handle("b:hold")
        assert "3d6" in _question(app)
        app.console.handle_text("undo")                                  # the serial link took it back
        app.handle("a")
        assert app.console.session.lines == ["roll 2d6"]                 # the 2d6 roll was not undone too
        assert "2d6" in _question(app)
        app.handle("b")                                                  # keep it
        assert app.console.session.lines == ["roll 2d6"]
    finally:
        app.console.close()


def test_a_new_game_started_over_serial_meanwhile_is_not_undone(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        app.handle("b:hold")
        app.console.handle_text("new bag items=a*2 seed=3")
        app.handle("a")
        assert app.console.session.game.name == "bag" and app.console.session.lines == []
        assert app.message and "Nothing to undo" in " ".join(app.message)
    finally:
        app.console.close()


def test_with_nothing_in_between_the_named_step_is_undone_at_once(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], ["b:hold", "a"], state_dir)
    try:
        assert app.console.session.lines == ["roll 2d6"]
        assert app.message and "Undone" in " ".join(app.message)
    finally:
        app.console.close()


def test_an_undo_in_the_dice_entry_takes_it_off_with_the_fire_it_waited_for(state_dir):
    """J-5/J-7: Pompey must place a hit; the device's undo on Pompeius's dice entry takes back that
    hit: the dice entry goes (it stayed, and A there was refused with the console's syntax), the
    battle screen asks who takes the hit again."""
    app = app_with(["new jc-battle attacker=caesar dice=physical seed=9", "add attacker c_caesar",
                    "add attacker c_leg10", "add defender p_pompeius", "add defender p_leg1", "start",
                    "fire c_caesar dice=1,2,6"], ["a", "b", "a", "a", "a"], state_dir)   # (b: the roll said again, read)
    try:
        app.render()
        assert type(app.stack[-1]).__name__ == "JcDiceEntry"          # Pompeius's fire
        app.handle("b:hold")
        app.render()
        app.handle("a")                                                 # yes, take back the hit
        assert app.console.session.view()["battle"]["decision"]["kind"] == "hit"
        assert [type(s).__name__ for s in app.stack][:3] == ["MainMenu", "JcHome", "BattleScreen"]
        assert "JcDiceEntry" not in [type(s).__name__ for s in app.stack]
        while type(app.stack[-1]).__name__ != "BattleScreen":
            app.handle("b")                                             # the undo's note closes
        app.render()
        assert app.stack[-1].title.startswith("Pompey")
    finally:
        app.console.close()


def test_hold_b_again_on_the_undo_question_asks_once(state_dir):
    """A second hold B while the undo question is up does not stack a second question under it:
    after "yes" the screen under is never a question naming the step just taken back."""
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], [], state_dir)
    try:
        app.handle("b:hold")
        app.handle("b:hold")
        assert sum(isinstance(s, ConfirmScreen) for s in app.stack) == 1
        assert "3d6" in _question(app)
        app.handle("a")
        assert app.console.session.lines == ["roll 2d6"]
        assert not any(isinstance(s, ConfirmScreen) for s in app.stack)
    finally:
        app.console.close()
