"""Julius Caesar screens: golden screens and what the keys do (J-5, J-7, J-14, J-17, J-18, J-19)."""
from __future__ import annotations

import pytest

from firmware.screens import base
from firmware.screens.jc import BattleScreen, DiceResult, HandScreen, OddsScreen
from tests.screens import app_with, assert_golden

NEW = "new jc-battle seed=3"
ARMIES = [NEW, "add attacker c_caesar", "add attacker c_leg10", "add defender p_pompeius",
          "add defender p_leg1"]
TIE = [NEW, "add attacker rating=A4 strength=2 name=a", "add defender p_leg1 strength=3",
       "add defender p_leg3", "add defender p_scipio", "start", "pass p_scipio", "fire a dice=1,2"]
PHYSICAL = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1", "start",
            "fire p_leg1 dice=6,6,6,6"]
HOME = ["a"]                          # main menu: "Resume Julius Caesar"
DOWN = ["down"]

CASES = {
    "jc_setup": ([], ["a", "down", "a", "right", "down", "right"]),
    "jc_home": ([NEW, "add attacker c_caesar"], HOME),
    "jc_add": ([NEW], HOME + DOWN + ["a", "down", "down"]),
    "jc_turn": (ARMIES + ["start"], HOME + ["a"]),
    "jc_hit": (TIE, HOME + ["a", "down"]),
    "jc_dice": (ARMIES + ["start"], HOME + ["a", "a"]),
    "jc_dice_entry": (PHYSICAL, HOME + ["a", "a", "up", "up", "up", "right", "down"]),
    "jc_turn_ru": (ARMIES + ["start"], HOME + ["a"]),
    "jc_turn_uk": (ARMIES + ["start"], HOME + ["a"]),
    "jc_hit_ru": (TIE, HOME + ["a"]),
    "jc_odds_ru": (ARMIES + ["add attacker c_leg8 reserve=1"], HOME + DOWN * 3 + ["a"]),
    "jc_over_uk": ([NEW, "add attacker c_leg10", "add defender p_leg1", "fight"], HOME + ["a", "a"]),
    "jc_home_ru": ([NEW, "add attacker c_caesar"], HOME),
    "jc_odds": (ARMIES + ["add attacker c_leg8 reserve=1"], HOME + DOWN * 3 + ["a"]),
    "jc_forces": (ARMIES + ["add attacker c_leg8 reserve=1", "start", "fire dice=1,5,6"], HOME + DOWN * 3 + ["a"]),
    "jc_over": ([NEW, "add attacker c_leg10", "add defender p_leg1", "fight"], HOME + ["a", "a"]),
    "jc_vp": ([NEW, "control Roma caesar"], HOME + DOWN * 7 + ["a"]),
    "jc_cards": ([NEW, "deal"], HOME + DOWN * 8 + ["a"]),
    "jc_winter": ([NEW, "control Alexandria caesar"], HOME + DOWN * 9 + ["a", "a"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    lang = name.rsplit("_", 1)[1] if name.endswith(("_ru", "_uk")) else "en"
    lines, keys = CASES[name]
    app = app_with(lines, keys, state_dir, lang=lang)
    try:
        assert_golden(app.render(), name)
    finally:
        app.console.close()


def test_setup_form_starts_the_chosen_battle(state_dir):  # J-10 surprise option
    app = app_with([], ["a", "down", "a", "right", "down", "right", "a"], state_dir)
    try:
        battle = app.view()["battle"]
        assert battle["attacker"] == "pompey" and battle["surprise"] and battle["phase"] == "setup"
    finally:
        app.console.close()


def test_adding_a_roster_block_as_a_reserve(state_dir):  # J-8
    app = app_with([NEW], HOME + DOWN + ["a", "down", "a", "down", "right", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "add attacker c_caesar strength=3 reserve=1"
    finally:
        app.console.close()


def test_firing_shows_the_session_dice_with_hits_marked(state_dir):  # J-1, J-5
    app = app_with(ARMIES + ["start"], HOME + ["a", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "fire c_caesar"
        shown = app.stack[-1]
        turn = app.view()["battle"]["log"][-1]
        assert isinstance(shown, DiceResult) and shown.turn["block"] == "c_caesar"
        assert shown.turn["hit_dice"] == [d <= 3 for d in shown.turn["dice"]]
        assert turn.startswith("Round 1 Caesar (A3, III): fires")
    finally:
        app.console.close()


def test_owner_places_a_hit_among_equals(state_dir):  # J-7
    app = app_with(TIE, HOME + ["a", "down", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "hit p_leg3"
        assert isinstance(app.stack[-1], BattleScreen)
    finally:
        app.console.close()


def test_j14_choice_from_the_hit_screen(state_dir):  # J-14
    app = app_with(TIE, HOME + ["a"] + DOWN * 3 + ["a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "hit"
        blocks = {b["key"]: b["strength"] for b in app.view()["battle"]["blocks"]}
        assert blocks["p_leg1"] == 2                      # C2 is the lowest firepower
    finally:
        app.console.close()


def test_physical_dice_are_entered_on_the_device(state_dir):  # J-1
    # up/down turn a die over its faces, right goes to the next die; the three dice start on 2, 3, 5
    # (firmware.dice_guess) and the dice not reached follow the one turned: 1, 2, 4
    keys = HOME + ["a", "a"] + ["down", "right", "right", "down", "a"]
    app = app_with(PHYSICAL, keys, state_dir)
    try:
        assert app.console.session.lines[-1] == "fire c_leg10 dice=1,2,3"
        assert isinstance(app.stack[-1], DiceResult) and app.stack[-1].turn["hits"] == 3
    finally:
        app.console.close()


def test_a_hand_is_shown_only_after_passing_the_device(state_dir):  # J-18
    keys = HOME + DOWN * 8 + ["a", "down", "a"]
    app = app_with([NEW, "deal"], keys, state_dir)
    try:
        assert not isinstance(app.stack[-1], HandScreen)        # a confirmation first
        app.handle("a")
        assert isinstance(app.stack[-1], HandScreen)
        hand = app.console.request("hand caesar")["hand"]
        app.handle("a")
        assert app.console.session.lines[-1] == f"discard caesar {hand[0]}"
    finally:
        app.console.close()


def test_vp_screen_cycles_a_city(state_dir):  # J-17
    app = app_with([NEW], HOME + DOWN * 7 + ["a", "down", "down", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "control Athenae caesar"
        assert app.view()["vp"]["caesar"] == 2
    finally:
        app.console.close()


def test_odds_screen_reads_the_exact_odds(state_dir):  # J-15
    app = app_with(ARMIES, HOME + DOWN * 3 + ["a"], state_dir)
    try:
        assert isinstance(app.stack[-1], OddsScreen)
        assert app.console.session.lines[-1] == "add defender p_leg1"   # odds change nothing
    finally:
        app.console.close()


def test_a_die_is_set_with_up_down_and_dice_not_reached_follow_it(state_dir):  # J-1, issue 9 item 5
    from firmware.dice_guess import chain, start_face
    from firmware.screens.jc import DiceEntry
    app = app_with(PHYSICAL, HOME + ["a", "a"], state_dir)
    try:
        entry = app.stack[-1]
        assert isinstance(entry, DiceEntry)
        app.render()
        first = start_face(0, 3, None)
        assert entry.faces == chain(3, 0, [first])           # each die on the likeliest next face
        assert entry.faces == sorted(entry.faces)
        app.handle("down")                                    # the first die one lower; the rest follow
        low = (first - 2) % 6 + 1
        assert entry.faces == chain(3, 0, [low])
        app.handle("right")
        app.handle("up")
        middle = entry.faces[1]
        assert entry.at == 1 and entry.faces == chain(3, 1, [low, middle])
        app.handle("right")
        last = entry.faces[2]
        app.handle("left")                                    # a die already reached no longer follows
        app.handle("up")
        assert entry.faces == [low, middle % 6 + 1, last]
        assert app.console.session.lines[-1] == PHYSICAL[-1]               # nothing is sent before A
        app.handle("a")
        assert app.console.session.lines[-1] == f"fire c_leg10 dice={low},{middle % 6 + 1},{last}"
    finally:
        app.console.close()


def test_fight_to_the_end_asks_first_then_asks_for_each_physical_roll(state_dir):  # J-14
    from firmware.screens.jc import DiceEntry
    lines = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1"]
    keys = HOME + DOWN * 4 + ["a"]                      # Battle, +attacker, +defender, Odds, Fight
    app = app_with(lines, keys, state_dir)
    try:
        assert isinstance(app.stack[-1], base.ConfirmScreen)
        assert app.view()["battle"]["phase"] == "setup"     # nothing happened yet
        app.handle("a")
        assert isinstance(app.stack[-1], DiceEntry) and app.stack[-1].auto
        app.handle("up")
        app.handle("a")
        assert app.console.session.lines[-1].startswith("auto dice=")
    finally:
        app.console.close()


def test_the_battle_screen_shows_the_odds_without_a_press(state_dir):  # J-15, issue 11
    app = app_with(ARMIES + ["start"], HOME + ["a"], state_dir)
    try:
        odds = app.console.request("odds")
        from tests.screens import on_dummy  # noqa: F401  (the screen is drawn through the toolkit)
        base.TRACE = []
        app.render()
        texts = [t for _x, _y, t, _k in base.TRACE]
        base.TRACE = None
        side = app.view()["battle"]["decision"]["side"]
        win = odds["attacker_wins"] if side == "caesar" else 1 - odds["attacker_wins"]
        assert f"Caesar: win {100 * win:.0f}%" in texts
        assert app.console.session.lines[-1] == "start"     # odds and advice change nothing
    finally:
        base.TRACE = None
        app.console.close()


def test_the_cursor_starts_fresh_at_each_decision(state_dir):  # issue 9 item 5
    app = app_with(ARMIES + ["start"], HOME + ["a", "down"], state_dir)
    try:
        screen = app.stack[-1]
        assert isinstance(screen, BattleScreen) and screen.cursor == 1
        app.handle("up")
        app.handle("a")                                  # fire; the result screen
        app.handle("a")                                  # back on the battle screen: a new decision
        app.render()
        assert app.stack[-1] is screen and screen.cursor == 0
    finally:
        app.console.close()


def test_winter_is_not_offered_in_the_middle_of_a_battle(state_dir):  # J-19
    app = app_with(ARMIES + ["start"], HOME + DOWN * 7 + ["a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "start"
        assert app.message is not None and "after the battle" in " ".join(app.message)
    finally:
        app.console.close()


def test_the_game_ending_winter_is_titled_game_over(state_dir):  # J-17
    lines = [NEW] + [f"control {c} caesar" for c in ("Roma", "Alexandria", "Athenae", "Byzantium",
                                                     "Carthago_Nova", "Ephesus", "Antiochia", "Utica")]
    app = app_with(lines, HOME + DOWN * 9 + ["a", "a"], state_dir)
    try:
        assert app.view()["campaign"]["over"]
        assert app.stack[-1].title == "Game over"
    finally:
        app.console.close()
