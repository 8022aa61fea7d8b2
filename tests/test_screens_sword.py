"""Sword of Rome screens: golden screens and what the keys do (W-1, W-2..W-7, W-11, W-12)."""
from __future__ import annotations

import pytest

from firmware.screens.sword import BattleResult, TacticsResult
from tests.screens import app_with, assert_golden, check_case

NEW = "new sword players=romans,gauls,etruscans,greeks seed=4"
W7 = "battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5"

CASES = {
    "sword_setup": ([], ["a", "down", "down", "down", "a"]),
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


def test_rulebook_battle_shown_from_the_last_roll(state_dir):  # W-7
    app = app_with([NEW, W7], ["a"] + ["down"] * 8 + ["a"], state_dir)
    try:
        shown = app.stack[-1]
        assert isinstance(shown, BattleResult)
        assert shown.result["winner"] == "defender" and shown.result["support"] == 3
    finally:
        app.console.close()


def test_battle_form_fights_with_the_chosen_units_and_modifiers(state_dir):  # W-2
    keys = ["a", "a", "right", "down", "left", "down", "right", "right", "down", "left", "a"]
    app = app_with([NEW], keys, state_dir)
    try:
        assert app.console.session.lines[-1] == "battle att=4 def=2 mod=2 defmod=-1"
        result = app.stack[-1].result
        assert result["attacker"]["total"] == sum(result["attacker"]["dice"]) + 2
        assert result["defender"]["total"] == sum(result["defender"]["dice"]) - 1
    finally:
        app.console.close()


def test_tactics_form_rolls_with_the_session(state_dir):  # W-1
    app = app_with([NEW], ["a", "down", "a", "right", "down", "right", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "tactics 3 mod=1"
        r = app.stack[-1].result
        assert isinstance(app.stack[-1], TacticsResult) and r["success"] == (r["roll"] + 1 <= 3)
    finally:
        app.console.close()


def test_desperate_times_screen_asks_the_engine_who_plays(state_dir):  # W-12
    keys = ["a"] + ["down"] * 4 + ["a", "down", "press", "down", "down", "press", "a"]
    app = app_with([NEW, "vp greeks =7", "vp gauls =7"], keys, state_dir)
    try:
        assert app.console.session.lines[-1] == "desperate gauls,greeks"
        assert app.view()["desperate"]["gauls"] == 1
        assert app.message and "Gauls plays" in " ".join(app.message)
    finally:
        app.console.close()


def test_vp_screen_changes_vp_with_left_right(state_dir):  # W-11
    app = app_with([NEW], ["a", "down", "down", "down", "a", "down", "right", "right", "left", "right"], state_dir)
    try:
        assert app.view()["vp"]["gauls"] == 2
        assert app.console.session.lines[-1] == "vp gauls +1"
    finally:
        app.console.close()


def test_battle_with_dice_thrown_on_the_table(state_dir):  # W-2, W-7: the rulebook battle from physical dice
    from firmware.screens.sword import DiceEntry
    app = app_with([NEW], ["a", "a"], state_dir)           # home -> battle form
    try:
        keys = ["right"] * 9 + ["down", "right", "right", "down", "right", "right", "right"]  # 12 v 5, +3
        keys += ["down", "down", "down", "right", "a"]                                      # Dice: table, A
        for k in keys:
            app.handle(k)
        assert isinstance(app.stack[-1], DiceEntry)
        # attack 5 2 2, defence 4 5 5, each row read from its lowest die: a row starts on 2 3 5
        # (firmware.dice_guess) and the dice not reached follow the one turned
        assert app.stack[-1].faces == [[2, 3, 5], [2, 3, 5]]
        for k in ["right", "down", "right", "up",              # 2 2 5 (the third followed to 4)
                  "right", "up", "up", "right", "right", "down", "a"]:   # 4 5 5 (4 -> 5 6)
            app.handle(k)
        assert app.console.session.lines[-1] == "battle att=12 def=5 mod=3 defmod=0 att-dice=2,2,5 def-dice=4,5,5"
        shown = app.stack[-1]
        assert isinstance(shown, BattleResult) and shown.result["winner"] == "defender"
        assert shown.result["support"] == 3
    finally:
        app.console.close()


def test_tactics_die_from_the_table(state_dir):  # W-1
    app = app_with([NEW], ["a", "down", "a", "right", "down", "right", "down", "right", "a", "up", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "tactics 3 mod=1 die=2"
        assert isinstance(app.stack[-1], TacticsResult) and app.stack[-1].result["success"] is True
    finally:
        app.console.close()


def test_odds_left_lowers_the_modifier_and_only_b_goes_back(state_dir):  # issue 9 item 10, W-6
    from firmware.screens.sword import OddsScreen
    app = app_with([NEW], ["a", "down", "down", "a", "left", "left", "right"], state_dir)
    try:
        assert isinstance(app.stack[-1], OddsScreen) and app.stack[-1].mod == -1
        app.handle("b")
        assert not isinstance(app.stack[-1], OddsScreen)
    finally:
        app.console.close()


def test_two_d6_roll_from_the_table(state_dir):  # W-9
    app = app_with([NEW], ["a"] + ["down"] * 6 + ["a"] + ["up", "a"] + ["down", "a"] + ["right", "down", "a"], state_dir)  # 2 4 -> 2 3
    try:
        assert app.console.session.lines[-1] == "check siege dice=2,3"
    finally:
        app.console.close()


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
