"""Golden screens (pixel-exact, through luma's dummy device) and screen behaviour."""
import pytest

from firmware.screens import base
from tests.screens import app_with, assert_golden, check_case

CASES = {
    "menu": ([], []),
    "menu_with_session": (["new dice seed=3"], []),
    "settings": ([], ["down"] * 3 + ["a"]),
    "dice_empty": ([], ["down", "a", "a"]),
    "kit_menu": ([], ["down", "a"]),
    "dice_rolled": (["new dice seed=3", "roll 3d6+1"], ["a"]),
    "dice_pick": (["new dice seed=3", "roll 4d6"], ["a", "press", "right", "press", "right", "right"]),
    "dice_rerolled": (["new dice seed=3", "roll 4d6", "reroll 2,4"], ["a"]),
    "bag_menu": (["new bag items=gold*3,silver*2 cards=legio*4 seed=5", "draw"], ["a"]),
    "bag_drawn": (["new bag items=gold*3,silver*2 seed=5"], ["a", "a"]),
    "undo_confirm": (["new dice seed=3", "roll 2d6"], ["b:hold"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    check_case(CASES, name, state_dir)


def test_render_is_a_function_of_state(state_dir):
    app = app_with(["new dice seed=3", "roll 3d6"], ["a"], state_dir)
    assert app.render().tobytes() == app.render().tobytes()
    app.console.close()


def test_dice_screen_rolls_the_expression_set_with_the_joystick(state_dir):
    app = app_with([], ["down", "a", "a", "up", "right", "up", "up", "right", "up", "up", "a"], state_dir)
    # 3 dice, d10 (two steps up from d6), +2
    roll = app.console.request("rolls 1")["rolls"][-1]
    assert roll["expr"] == "3d10+2" and len(roll["dice"]) == 3
    app.console.close()


def test_reroll_from_the_screen_is_logged_as_such(state_dir):
    app = app_with(["new dice seed=1", "roll 3d6"], ["a", "press", "right", "press", "a"], state_dir)
    log = app.console.request("log 1")["log"]
    assert log == [log[0]] and log[0].startswith("Re-rolled dice 2 of 3d6")
    app.console.close()


def test_long_b_asks_then_undoes_the_named_step(state_dir):
    app = app_with(["new bag items=a*3 seed=1", "draw"], [], state_dir)
    app.handle("b:hold")
    assert isinstance(app.stack[-1], base.ConfirmScreen)
    assert "Drew a from the bag" in " ".join(app.stack[-1].rows)
    app.handle("a")
    assert app.console.session.lines == []
    assert app.message and "Undone" in " ".join(app.message)
    app.console.close()


def test_long_b_cancel_keeps_the_step(state_dir):
    app = app_with(["new bag items=a*3 seed=1", "draw"], ["b:hold", "b"], state_dir)
    assert app.console.session.lines == ["draw"]
    app.console.close()


def test_settings_persist(state_dir):
    app = app_with([], ["down"] * 3 + ["a", "right"], state_dir)   # contrast 3 -> 4
    assert app.settings["contrast"] == "4"
    app.console.close()
    again = app_with([], [], state_dir)
    assert again.settings["contrast"] == "4"
    again.console.close()


def test_bad_setting_is_refused_and_changes_nothing(console):
    r = console.request("settings contrast=9")
    assert r["error"] == "bad_arguments" and "contrast takes" in r["message"]
    assert console.request("settings")["settings"]["contrast"] == "3"


def test_text_wraps_within_the_screen_width():
    rows = base.wrap("Place sword 5/1 on Sicilia|Italia, 5 toward Sicilia")
    assert all(len(r) <= base.COLS for r in rows) and " ".join(rows).startswith("Place sword 5/1")
