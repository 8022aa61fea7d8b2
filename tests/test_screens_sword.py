"""Sword of Rome screens: golden screens (through the real App) and what the keys do, on a FakeCtx
(W-1, W-2..W-7, W-11, W-12)."""
from __future__ import annotations

import pytest

from firmware.screens.sword.home import SwordHome

from firmware.screens.sword.rolls import BattleResult, TacticsResult, result_screen
from tests.fakectx import FakeCtx
from tests.screens import app_with, assert_golden, check_case

NEW = "new sword players=romans,gauls,etruscans,greeks seed=4"
W7 = "battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5"

CASES = {
    "sword_setup": ([], ["a", "down", "down", "down", "a"]),
    "sword_people": ([], ["a", "down", "down", "down", "a", "a"]),        # 4 players: who plays? (the fair-draw code)
    "sword_people_share": ([], ["a", "down", "down", "down", "a", "a", "b"] + ["down"] * 6),
    "sword_home": ([NEW, "vp greeks =3"], ["a"]),
    "sword_battle_form": ([NEW], ["a", "a", "down", "right", "right", "down", "right", "right", "right"]),
    "sword_battle_result": ([NEW, W7], ["a"] + ["down"] * 8 + ["a"]),
    "sword_tactics_result": ([NEW, "tactics 3 mod=1 die=2"], ["a"] + ["down"] * 8 + ["a"]),
    "sword_odds": ([NEW], ["a", "down", "down", "a", "up", "up"]),
    "sword_vp": ([NEW, "vp greeks =7", "vp gauls =7", "desperate greeks,gauls"], ["a", "down", "down", "down", "a"]),
    "sword_desperate": ([NEW, "vp romans =4"], ["a"] + ["down"] * 4 + ["a", "press", "down", "down", "down", "press"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    check_case(CASES, name, state_dir)


def home(*lines: str) -> FakeCtx:
    """The Sword home screen over a session after ``lines`` (no storage)."""
    return FakeCtx(*lines).open(SwordHome())


def test_rulebook_battle_shown_from_the_last_roll():  # W-7
    ctx = home(NEW, W7).press(*["down"] * 8, "a")
    shown = ctx.top
    assert isinstance(shown, BattleResult)
    assert shown.result["winner"] == "defender" and shown.result["support"] == 3


def test_an_interception_is_kept_as_a_tactics_roll_and_last_roll_shows_it():  # W-1
    # the test's kind= (intercept) once overwrote the record's kind: the device's Last roll showed nothing
    ctx = home(NEW, "tactics 3 mod=1 die=2 kind=intercept")
    last = ctx.view()["last"]
    assert last["kind"] == "tactics" and last["test"] == "intercept"
    assert last["success"] is True and "+1" in last["effect"]            # W-1: the defender gets +1
    ctx.press(*["down"] * 8, "a")
    assert isinstance(ctx.top, TacticsResult) and ctx.top.result["roll"] == 2 and ctx.top.result["modified"] == 3


def test_a_tactics_roll_stored_under_its_tests_kind_by_an_older_version_is_shown():  # W-1
    from engine.sword.session import last_roll
    old = {"kind": "avoid", "rating": 2, "mod": 0, "chance": 1 / 3, "chance_fraction": "1/3", "roll": 5,
           "modified": 5, "success": False, "dice_source": "digital", "effect": "the defender gets -1 in the battle (W-1)"}
    shown = last_roll(old)
    assert shown is not None and shown["kind"] == "tactics" and shown["test"] == "avoid" and shown["roll"] == 5
    assert old["kind"] == "avoid"                                         # the stored state itself is not changed
    assert last_roll({"kind": "naval", "roll": 3}) == {"kind": "naval", "roll": 3} and last_roll(None) is None
    assert isinstance(result_screen(shown), TacticsResult)


def test_battle_form_fights_with_the_chosen_units_and_modifiers():  # W-2
    ctx = home(NEW).press("a", "right", "down", "left", "down", "right", "right", "down", "left", "a")
    assert ctx.session.lines[-1] == "battle att=4 def=2 mod=2 defmod=-1"
    result = ctx.top.result
    assert result["attacker"]["total"] == sum(result["attacker"]["dice"]) + 2
    assert result["defender"]["total"] == sum(result["defender"]["dice"]) - 1


def test_tactics_form_rolls_with_the_session():  # W-1
    ctx = home(NEW).press("down", "a", "right", "down", "right", "a")
    assert ctx.session.lines[-1] == "tactics 3 mod=1"
    r = ctx.top.result
    assert isinstance(ctx.top, TacticsResult) and r["success"] == (r["roll"] + 1 <= 3)


def test_desperate_times_screen_asks_the_engine_who_plays():  # W-12
    ctx = home(NEW, "vp greeks =7", "vp gauls =7").press(*["down"] * 4, "a", "down", "press", "down", "down", "press", "a")
    assert ctx.session.lines[-1] == "desperate gauls,greeks"
    assert ctx.view()["desperate"]["gauls"] == 1
    assert ctx.notes and "Gauls plays" in ctx.notes[-1]


def test_vp_screen_changes_vp_with_left_right():  # W-11
    ctx = home(NEW).press("down", "down", "down", "a", "down", "right", "right", "left", "right")
    assert ctx.view()["vp"]["gauls"] == 2
    assert ctx.session.lines[-1] == "vp gauls +1"


def test_battle_with_dice_thrown_on_the_table():  # W-2, W-7: the rulebook battle from physical dice
    from firmware.screens.widgets import DiceEntry
    ctx = home(NEW).press("a")                                                          # the battle form
    ctx.press(*["right"] * 9, "down", "right", "right", "down", "right", "right", "right")   # 12 v 5, +3
    ctx.press("down", "down", "down", "right", "a")                                     # Dice: table, A
    assert isinstance(ctx.top, DiceEntry)
    # attack 5 2 2, defence 4 5 5, each row read from its lowest die: a row starts on 2 3 5
    # (firmware.dice_guess) and the dice not reached follow the one turned
    assert ctx.top.faces == [[2, 3, 5], [2, 3, 5]]
    ctx.press("right", "down", "right", "up",                  # 2 2 5 (the third followed to 4)
              "right", "up", "up", "right", "right", "down", "a")   # 4 5 5 (4 -> 5 6)
    assert ctx.session.lines[-1] == "battle att=12 def=5 mod=3 defmod=0 att-dice=2,2,5 def-dice=4,5,5"
    shown = ctx.top
    assert isinstance(shown, BattleResult) and shown.result["winner"] == "defender"
    assert shown.result["support"] == 3


def test_tactics_die_from_the_table():  # W-1
    ctx = home(NEW).press("down", "a", "right", "down", "right", "down", "right", "a", "up", "a")
    assert ctx.session.lines[-1] == "tactics 3 mod=1 die=2"
    assert isinstance(ctx.top, TacticsResult) and ctx.top.result["success"] is True


def test_odds_left_lowers_the_modifier_and_only_b_goes_back():  # issue 9 item 10, W-6
    from firmware.screens.widgets import OddsScreen
    ctx = home(NEW).press("down", "down", "a", "left", "left", "right")
    assert isinstance(ctx.top, OddsScreen) and "-1" in ctx.texts()
    ctx.press("a", "press")                               # only B leaves
    assert isinstance(ctx.top, OddsScreen)
    ctx.press("b")
    assert not isinstance(ctx.top, OddsScreen)


def test_two_d6_roll_from_the_table():  # W-9
    # Dice (the last row): table; back up to Siege; the dice start on 2 4 -> 2 3
    ctx = home(NEW).press(*["down"] * 6, "a", *["down"] * 4, "a", *["up"] * 4, "a", "right", "down", "a")
    assert ctx.session.lines[-1] == "check siege dice=2,3"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_sword_screens_in_russian_and_ukrainian(lang, state_dir):
    app = app_with([NEW, W7], ["a"], state_dir, lang=lang)
    try:
        assert_golden(app.render(), f"sword_home_{lang}")
        for k in ["down"] * 8 + ["a"]:
            app.handle(k)
        assert_golden(app.render(), f"sword_battle_result_{lang}")
    finally:
        app.console.close()


@pytest.mark.parametrize("keys, shown", [
    (["a", "a"] + ["down"] * 5 + ["a"], "BattleResult"),                    # Battle, device dice
    (["a", "down", "a", "down", "down", "a"], "TacticsResult"),             # Tactics test
    (["a"] + ["down"] * 5 + ["a", "down", "down", "a"], "RollResult"),      # Naval move
    (["a"] + ["down"] * 7 + ["a"], "RollResult"),                           # Draw consuls
    (["a", "a"] + ["down"] * 5 + ["a", "a"], "LossTable"),                  # the battle's loss table
])
def test_a_roll_taken_back_by_undo_is_no_longer_shown(keys, shown):  # undo never re-rolls; the screen follows
    """After hold B takes back the roll on screen, the device shows the game's home, not the roll
    that no longer happened (App.drop_stale: the screen says it is ``stale``)."""
    from scripts.presses.harness import Driver
    d = Driver("en")
    try:
        d.run(NEW)
        for k in keys:
            d.press(k)
        assert type(d.top).__name__ == shown, d.screen()
        d.press("b:hold")
        d.press("a")                                  # yes, undo
        if d.app.message is not None:
            d.press("b")                              # the short "Undone: …" notice
        while type(d.top).__name__ == "TextScreen" and d.top.title == "Note":
            d.press("b")                              # a long one has its own screen
        assert isinstance(d.top, SwordHome), (type(d.top).__name__, d.screen())
        assert d.view()["last"] is None and d.view()["actions"] == 0
    finally:
        d.close()


def test_the_unrest_form_sets_the_level_shown_even_if_it_moved_meanwhile():  # W-13
    """The form opens on unrest 0; the serial link raises it to 2; A on 0 sets 0 again (it said
    nothing and left 2: the form took the level it opened on for the level now)."""
    from firmware.screens.sword.tracks import unrest_form
    ctx = FakeCtx("new sword players=romans,carthage seed=2")
    ctx.open(unrest_form(ctx))
    ctx.render()
    assert ctx.run("unrest +2")["ok"] and ctx.view()["unrest"]["level"] == 2
    ctx.press("a")
    assert ctx.view()["unrest"]["level"] == 0 and ctx.session.lines[-1] == "unrest =0"
