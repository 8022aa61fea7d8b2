"""Sword of Rome screens: golden screens (through the real App) and what the keys do, on a FakeCtx
(W-1, W-2..W-7, W-11, W-12)."""
from __future__ import annotations

import re

import pytest

from firmware.screens.sword.home import SwordHome

from firmware.screens.sword.battle import BattleResult
from firmware.screens.sword.rolls import TacticsResult, result_screen
from tests.fakectx import FakeCtx
from tests.screens import app_with, assert_golden, check_case, undo_by_link, say_yes

NEW = "new sword players=romans,gauls,etruscans,greeks seed=4"
NEW5 = "new sword players=romans,gauls,etruscans,greeks,carthage seed=4"
W7 = "battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5"

CASES = {
    "sword_setup": ([], ["a", "down", "down", "down", "a"]),
    "sword_people": ([], ["a", "down", "down", "down", "a", "a"]),        # 4 players: who plays? (the fair-draw code)
    "sword_people_share": ([], ["a", "down", "down", "down", "a", "a"] + ["down"] * 6),
    "sword_home": ([NEW, "vp greeks =3"], ["a"]),
    "sword_battle_form": ([NEW], ["a", "a", "down", "right", "right", "down", "right", "right", "right"]),
    "sword_battle_result": ([NEW, W7], ["a"] + ["down"] * 8 + ["a"]),
    "sword_tactics_result": ([NEW, "tactics 3 mod=1 die=2"], ["a"] + ["down"] * 8 + ["a"]),
    "sword_odds": ([NEW], ["a"] + ["down"] * 9 + ["a", "up", "up"]),
    "sword_vp": ([NEW, "vp greeks =7", "vp gauls =7", "desperate greeks,gauls"], ["a", "down", "down", "down", "a"]),
    "sword_desperate": ([NEW, "vp romans =4"], ["a"] + ["down"] * 4 + ["a", "press", "down", "down", "down", "press"]),
    # round 5: most VP first, the order of the end of the round (rule 7.4.5), «played» beside who played there
    "sword_desperate_round5": ([NEW, "vp greeks =3", *["advance"] * 4, "desperate greeks end=1"],
                               ["a"] + ["down"] * 4 + ["a", "down", "press"]),
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


@pytest.mark.parametrize("line, effect", [
    ("tactics 3 mod=1 die=2 kind=intercept", "The defender gets +1 in the battle that follows (W-1)"),
    ("tactics 2 die=5 kind=avoid", "The defender gets −1 in the battle (W-1)"),
])
def test_last_roll_says_what_a_tactics_test_does_as_when_it_was_rolled(line, effect):  # W-1
    """The test's effect (a successful interception: the defender +1; a failed avoid: −1) was said
    once, when rolled; Last roll (after a power cut, or back from the battle form to check the
    defender's modifier) showed the bare die and verdict, without which test it was or its effect."""
    ctx = home(NEW, line).press(*["down"] * 8, "a")
    assert isinstance(ctx.top, TacticsResult) and ctx.notes == [effect]
    ctx = home(NEW, "tactics 3 mod=1 die=2").press(*["down"] * 8, "a")        # a bare test: nothing to say
    assert isinstance(ctx.top, TacticsResult) and ctx.notes == []


def test_the_tactics_result_says_its_chance_as_the_form_did():  # W-1
    """The form's title bar says the chance in per cent; the result said it as a fraction, «0/1»
    for a test that cannot succeed (rating 0, +3)."""
    for line, chance in [("tactics 0 mod=3 die=6", "0%"), ("tactics 3 mod=1 die=2", "33%")]:
        ctx = home(NEW, line).press(*["down"] * 8, "a")
        assert isinstance(ctx.top, TacticsResult) and ctx.texts()[:2] == [ctx.top.title, chance]


def test_a_tactics_roll_stored_under_its_tests_kind_by_an_older_version_is_shown():  # W-1
    from engine.sword.session import last_roll
    old = {"kind": "avoid", "rating": 2, "mod": 0, "chance": 1 / 3, "chance_fraction": "1/3", "roll": 5,
           "modified": 5, "success": False, "dice_source": "digital", "effect": "the defender gets -1 in the battle (W-1)"}
    shown = last_roll(old)
    assert shown is not None and shown["kind"] == "tactics" and shown["test"] == "avoid" and shown["roll"] == 5
    assert old["kind"] == "avoid"                                         # the stored state itself is not changed
    assert last_roll({"kind": "naval", "roll": 3}) == {"kind": "naval", "roll": 3} and last_roll(None) is None
    assert isinstance(result_screen(shown), TacticsResult)


def test_a_tactics_roll_keeps_its_facts_and_says_its_effect_when_shown():  # W-1
    """A failed avoid gives the defender −1 (W-1). The record stored its English sentence, so the
    English notice kept the hyphen («-1») of the day it was rolled: the record keeps the facts (which
    test, whether it succeeded) and the sentence is made when shown; a roll stored before with its
    sentence reads as one made now, in every language."""
    from engine.sword.session import last_roll
    from firmware.i18n import domain
    ctx = home(NEW, "tactics 2 die=5 kind=avoid")
    stored = ctx.session.state["last"]
    assert "effect" not in stored and stored["test"] == "avoid" and stored["success"] is False
    assert ctx.view()["last"]["effect"] == "the defender gets −1 in the battle (W-1)"
    old = {**stored, "effect": "the defender gets -1 in the battle (W-1)"}          # as stored before
    shown = last_roll(old)
    assert shown is not None and shown["effect"] == "the defender gets −1 in the battle (W-1)"
    assert domain("sword").say(shown["effect"], "ru") == "защитник получает −1 в битве (W-1)"
    assert domain("sword").say(shown["effect"], "uk") == "захисник отримує −1 у битві (W-1)"
    bare = last_roll({**stored, "test": None, "effect": "x"})      # no test given: nothing to say
    assert bare is not None and "effect" not in bare


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
    # English without a verb that must agree with the power («Gauls plays», «Carthage play»)
    assert ctx.notes and ctx.notes[-1] == "Gauls played the card. Greeks kept theirs."


def test_the_end_of_turn_9_names_the_winner_in_good_english():  # W-11
    ctx = home(NEW, "vp greeks =3", *["advance"] * 44).press("down", "down", "a", "a")      # Next round, yes
    assert ctx.view()["finished"] is True
    assert ctx.notes[-1] == "Game over: Greeks won."


def test_the_last_round_of_turn_9_asks_before_it_ends_the_game():  # W-11, W-12
    """Round 5's Desperate Times (W-12), attrition and turn 9's scoring (W-11) come after round 5
    and nothing is played once the game is over: the last Next round asks first; B keeps playing."""
    ctx = home(NEW, *["advance"] * 43).press("down", "down", "a")          # turn 9, round 4 -> 5: not asked
    assert ctx.view()["round"] == 5 and ctx.lines[-1] == "advance" and isinstance(ctx.top, SwordHome)
    ctx.lines.clear()
    ctx.press("a")
    assert ctx.lines == [] and "Desperate Times" in " ".join(ctx.texts())
    ctx.press("b")
    assert isinstance(ctx.top, SwordHome) and ctx.view()["finished"] is False and ctx.lines == []
    ctx.press("a", "a")
    assert ctx.view()["finished"] is True and ctx.lines == ["advance"]


def test_next_round_is_two_rows_below_battle():  # 9 turns of 5 rounds: 45 times a game
    """Every round ends with Next round; it was the home's last row but one (ten presses from
    Battle, where a battle leaves the cursor): now down, down, A."""
    ctx = home(NEW5, W7, "unrest =3")
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels[:3] == ["Battle", "Tactics test", "Next round"] and labels[-3:] == ["Automatic victory", "Odds", "New game"]
    ctx.press("down", "down", "a")
    assert ctx.lines[-1] == "advance" and ctx.view()["round"] == 2


def test_an_automatic_victory_is_declared_on_the_device():  # W-11
    """The game ends when a power's VP reach the figure printed on the map for the turn; the
    device could only play on to turn 9 (or abandon the game), so History never filed one."""
    ctx = home(NEW5, "vp carthage =9", "unrest =6", "vp greeks =8", *["advance"] * 6)
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press(*["down"] * labels.index("Automatic victory"), "a")
    shown = ctx.texts()
    assert shown[shown.index("Greeks"):][:4] == ["Greeks", "8 VP", "Carthage", "7 VP"]   # as the game counts (W-13)
    ctx.press("a")                                                           # Greeks
    assert "turn 2" in " ".join(ctx.texts())
    ctx.press("b")
    assert ctx.lines == [] and ctx.view()["finished"] is False
    ctx.press("a")
    say_yes(ctx)
    assert ctx.lines == ["victory greeks"] and ctx.view()["finished"] is True
    assert isinstance(ctx.top, SwordHome) and ctx.notes[-1] == "Game over: Greeks won."
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["New game", "VP", "Odds"]
    assert ctx.texts()[2:4] == ["New game", "VP"]          # the list from its top (a page of Odds alone was left)


def test_after_an_automatic_victory_the_home_names_the_winner_not_the_vp_leader():  # W-11
    ctx = home(NEW, "vp gauls =6", "vp greeks =3", "victory greeks")
    vp = next(i for i in ctx.top.items(ctx) if str(i.label) == "VP")
    assert vp.value == "Greeks 3", vp.value                 # it said "Gauls 6", the VP leader


def test_an_automatic_victory_reached_at_scoring_over_the_serial_link_ends_the_game_on_the_device():  # W-11
    """``scoring … auto=T`` reaching T is an automatic victory (History files the game as won by it):
    the home went on offering Battle, Next round and the VP track's changes, as if nothing ended."""
    ctx = home(NEW, "vp greeks =2", "scoring gauls outside=5 auto=4")
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["New game", "VP", "Odds"]
    vp = next(i for i in ctx.top.items(ctx) if str(i.label) == "VP")
    assert vp.value == "Gauls 5", vp.value


def test_after_turn_9_the_home_offers_nothing_to_play():  # W-11: the game ends after turn 9
    ctx = home(NEW5, W7, *["advance"] * 45)
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels == ["New game", "VP", "Odds", "Last roll"]


def test_the_battle_result_offers_no_retreat_losses_after_turn_9():  # W-5, W-11
    ctx = FakeCtx(NEW, W7, *["advance"] * 45).open(SwordHome())
    ctx.open(BattleResult(ctx.view()["last"])).render()
    assert "Hold A" not in _shown_rows(ctx)
    ctx.press("a:hold")
    assert isinstance(ctx.top, BattleResult) and ctx.lines == [] and "over" in ctx.notes[-1]


def test_carthage_s_vp_are_shown_with_the_unrest_penalty_the_standings_count():  # W-13, W-11
    """Carthage 6 VP at unrest 6 counts 4 (−⌊6/3⌋): the Romans' 5 lead; the track says 6−2=4."""
    ctx = home(NEW5, "vp carthage =6", "vp romans =5", "unrest =6")
    assert ctx.view()["standings"][:2] == ["romans", "carthage"]
    ctx.press("down", "down", "down", "a", *["down"] * 4)
    assert ctx.texts()[-2:] == ["Carthage", "<6−2=4 VP>"]
    ctx.press("right")
    assert ctx.view()["vp"]["carthage"] == 7 and ctx.texts()[-1] == "<7−2=5 VP>"
    ctx = home(NEW5, "vp carthage =9", "unrest =6")                    # the home's leader: the counted 7
    assert ctx.texts()[-2:] == ["VP", "Carthage 7"]


def test_carthage_s_penalty_shown_is_the_one_that_applies_when_its_vp_are_fewer():  # W-13, W-11
    """VP stay within 0–12 (W-11): at unrest 6 (−2, W-13) Carthage's 1 VP count 0, and the track said
    «1−2=0 VP», a subtraction that is false; it shows the 1 taken off (and at 0 VP nothing to take)."""
    ctx = home(NEW5, "vp carthage =1", "unrest =6")
    assert ctx.view()["unrest"]["carthage_vp"] == 0
    ctx.press("down", "down", "down", "a", *["down"] * 4)
    assert ctx.texts()[-2:] == ["Carthage", "<1−1=0 VP>"]
    ctx.press("left")
    assert ctx.view()["vp"]["carthage"] == 0 and ctx.texts()[-1] == "<0 VP>"
    ctx.press(*["right"] * 3)
    assert ctx.texts()[-1] == "<3−2=1 VP>"


def test_vp_screen_changes_vp_with_left_right():  # W-11
    ctx = home(NEW).press("down", "down", "down", "a", "down", "right", "right", "left", "right")
    assert ctx.view()["vp"]["gauls"] == 2
    assert ctx.session.lines[-1] == "vp gauls +1"


def test_the_vp_track_stops_at_0_and_12_without_an_empty_undo_step():  # W-11: VP within 0..12
    # left at 0 VP journaled «Romans VP 0 -> 0.» at every press: undo steps that change nothing
    ctx = home(NEW, "vp gauls =12").press("down", "down", "down", "a", "left", "left")
    assert len(ctx.session.lines) == 1 and ctx.view()["vp"]["romans"] == 0
    assert ctx.notes and "0" in ctx.notes[-1] and "12" in ctx.notes[-1]
    ctx.press("down", "right")                                         # Gauls already at 12
    assert len(ctx.session.lines) == 1 and ctx.view()["vp"]["gauls"] == 12
    ctx.press("left")                                                  # a real change still goes
    assert ctx.session.lines[-1] == "vp gauls -1" and ctx.view()["vp"]["gauls"] == 11


def test_battle_with_dice_thrown_on_the_table():  # W-2, W-7: the rulebook battle from physical dice
    from firmware.screens.widgets import DiceEntry
    ctx = home(NEW).press("a")                                                          # the battle form
    ctx.press(*["right"] * 9, "down", "right", "right", "down", "right", "right", "right")   # 12 v 5, +3
    ctx.press(*["down"] * 4, "right", "a")                   # past the flanking units (W-2): Dice: table, A
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


def test_the_dice_thrown_on_the_table_are_remembered_for_every_roll():  # W-1, W-2, W-8, W-9
    """A table that throws its own dice says so once: every roll's form opens on "table" after
    that (a battle, a tactics test, a naval move, a 2d6 roll), until a form says "device" again."""
    from firmware.screens.widgets import DiceEntry
    ctx = home(NEW).press("a", *["down"] * 6, "right", "a")      # Battle: Dice (under the flanking units): table, A
    assert isinstance(ctx.top, DiceEntry)
    ctx.press("a", "b")                                   # the roll entered, back home
    ctx.press("a", "a")                                   # the next battle: A on its first row
    assert isinstance(ctx.top, DiceEntry), "the battle form forgot the dice on the table"
    ctx.press("b", "b")
    ctx.press("down", "a", "a")                           # a tactics test
    assert isinstance(ctx.top, DiceEntry)
    ctx.press("b", "b", "down", "down", "down", "down", "a", "a")   # a naval move
    assert isinstance(ctx.top, DiceEntry)
    ctx.press("b", "down", "down", "left", "a")           # its Dice row: device again, A rolls
    assert not isinstance(ctx.top, DiceEntry)
    assert ctx.session.lines[-1].startswith("naval") and "die=" not in ctx.session.lines[-1]
    ctx.press("b")
    ctx.press("a")                                        # the battle form: device now
    assert [i.value for i in ctx.top.items(ctx) if i.key == "field:dice"] == ["device"]


@pytest.mark.parametrize("test, die, effect", [
    (1, 2, "The defender gets +1 in the battle that follows (W-1)"),     # interception, 2 <= 2
    (2, 5, "The defender gets −1 in the battle (W-1)"),                    # a failed avoid: the minus sign
])
def test_the_tactics_form_names_the_test_and_says_what_it_does(test, die, effect):  # W-1
    """A successful interception gives the defender +1 in the battle, a failed avoid −1: the device
    rolled bare tests only, and left the players to remember which."""
    kind = ["", "intercept", "avoid"][test]
    ctx = home(NEW).press("down", "a", "down", "down", *["right"] * test, "down", "right", "a")     # rating 2, Dice: table
    ctx.press(*["up"] * ((die - ctx.top.faces[0][0]) % 6), "a")
    assert ctx.session.lines[-1] == f"tactics 2 mod=0 die={die} kind={kind}"
    assert isinstance(ctx.top, TacticsResult) and ctx.notes == [effect]
    assert ctx.view()["last"]["test"] == kind


def test_tactics_die_from_the_table():  # W-1
    ctx = home(NEW).press("down", "a", "right", "down", "right", "down", "down", "right", "a", "up", "a")
    assert ctx.session.lines[-1] == "tactics 3 mod=1 die=2"
    assert isinstance(ctx.top, TacticsResult) and ctx.top.result["success"] is True


def test_odds_left_lowers_the_modifier_and_only_b_goes_back():  # issue 9 item 10, W-6
    from firmware.screens.widgets import OddsScreen
    ctx = home(NEW).press(*["down"] * 9, "a", "left", "left", "right")
    assert isinstance(ctx.top, OddsScreen) and "−1" in ctx.texts()        # the minus sign (W-6)
    ctx.press("a", "press")                               # only B leaves
    assert isinstance(ctx.top, OddsScreen)
    ctx.press("b")
    assert not isinstance(ctx.top, OddsScreen)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_odds_screen_shows_the_same_hints_in_every_language(lang):  # W-6
    """The English odds screen said «←→ modifier  B: back»; the Russian and Ukrainian ones dropped
    «B: назад», which did not fit the row: the back hint now stands in the title bar and the
    modifier on the dial's row beside its name, whole in every language."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.rolls import odds_screen
    from firmware.screens.sword.text import _
    ctx = FakeCtx(NEW, lang=lang).open(odds_screen()).press("right", "right")
    try:
        i18n.set_language(lang)
        texts = [t.strip() for t in ctx.texts()]
        assert {_("←→ modifier"), _("B: back"), _("3d6 vs 3d6"), "+2"} <= set(texts), texts
        assert lang == "en" or _("B: back") != "B: back"
        assert all(len(t) <= base.COLS and "…" not in t for t in texts)
    finally:
        i18n.set_language("en")


def test_two_d6_roll_from_the_table():  # W-9
    # Dice (the last row): table; back up to Siege; the dice start on 2 4 -> 2 3
    ctx = home(NEW).press(*["down"] * 6, "a", *["down"] * 4, "a", *["up"] * 4, "a", "right", "down", "a")
    assert ctx.session.lines[-1] == "check siege dice=2,3"


def test_the_2d6_rolls_dice_row_changes_with_left_and_right_as_in_every_form():  # W-9
    """The Dice row is a choice in every roll's form (left/right change it, shown <…>); in the 2d6
    menu left on it left the screen and right ran it."""
    from firmware.screens.sword.rolls import CheckMenu
    ctx = home(NEW).open(CheckMenu())
    rows = ctx.top.items(ctx)
    ctx.press(*["down"] * (len(rows) - 1))                 # the Dice row
    assert ctx.top.items(ctx)[-1].value == "<device>"
    ctx.press("right")
    assert isinstance(ctx.top, CheckMenu) and ctx.top.items(ctx)[-1].value == "<table>"
    ctx.press("left")
    assert isinstance(ctx.top, CheckMenu) and ctx.top.items(ctx)[-1].value == "<device>"


def test_the_gallic_events_roll_is_offered_only_where_nobody_plays_the_gauls():  # W-9
    """W-9: the Gallic events table (2d6) is the 3-player game's, where the Gauls are nobody's; with a
    Gauls player the 2d6 menu offered it all the same."""
    from firmware.screens.sword.rolls import CheckMenu
    from firmware.screens.sword.words import CHECK_NAMES
    gallic = CHECK_NAMES["gallic"]
    with_gauls = home(NEW).open(CheckMenu())
    assert gallic not in [r.label for r in with_gauls.top.items(with_gauls)]
    three = home("new sword players=romans,etruscans,greeks seed=4").open(CheckMenu())
    rows = [r.label for r in three.top.items(three)]
    assert gallic in rows
    three.press(*["down"] * rows.index(gallic), "a")
    assert three.session.lines[-1] == "check gallic"


DISPLACED = "historical leaders displaced until reinforcements, secondary set aside until active (8.4)."


def test_a_battle_that_leaves_a_side_no_units_says_its_leaders_are_displaced():  # W-4, W-5, seed 8.4
    """Seed 8.4: a historically significant leader is displaced when all the units with him are
    eliminated by battle losses and/or retreat losses; a secondary leader is not displaced but set
    aside («Второстепенные лидеры в подобных ситуациях не смещаются, вместо этого они откладываются
    в сторону»). The result said only «Defender loses 2», then «leaders displaced» (every leader)."""
    ctx = home(NEW, "battle att=5 def=2 att-dice=6,6,6 def-dice=1,1,1").press(*["down"] * 8, "a")
    rows = " ".join(ctx.top.rows())
    assert f"Defender eliminated: {DISPLACED}" in rows and "Attacker eliminated" not in rows
    ctx = home(NEW, W7).press(*["down"] * 8, "a")                   # the Romans keep 7 of 12 units
    assert "eliminated" not in " ".join(ctx.top.rows())
    ctx = home(NEW, W7, "retreat losses=7").press(*["down"] * 8, "a")   # and lose the 7 retreating
    rows = " ".join(ctx.top.rows())
    assert f"Attacker eliminated: {DISPLACED}" in rows and "Defender eliminated" not in rows


@pytest.mark.parametrize("lang, said", [
    ("ru", "Защитник уничтожен: исторически-значимые лидеры смещены до Фазы Подкреплений (8.4), "
           "второстепенные отложены, пока он не станет активным."),
    ("uk", "Захисника знищено: історично значущих лідерів зміщено до Фази Підкріплення (8.4), "
           "другорядних відкладено, доки він не стане активним."),
], ids=["ru", "uk"])
def test_an_eliminated_side_s_leaders_are_said_in_the_rulebook_s_words(lang, said):  # W-4, seed 8.2, 8.4
    """Seed 8.2/8.3/8.4 name «исторически-значимые» and «второстепенные» leaders: only the first are
    «смещены» (placed again «в течение следующей Фазы Подкреплений»); the second are «отложены в
    сторону» (placed again «в момент, когда игрок станет активным»)."""
    try:
        ctx = FakeCtx(NEW, "battle att=5 def=2 att-dice=6,6,6 def-dice=1,1,1", lang=lang).open(SwordHome())
        ctx.press(*["down"] * 8, "a")
        text = re.sub(r"(?<=\w[-–—]) (?=\w)", "", " ".join(ctx.top.rows()))   # a row may end after a word's
        assert said in text                                                  # own hyphen («исторически-»)
    finally:
        from firmware import i18n
        i18n.set_language("en")


ARMY_LOST = ("Attacker's army lost, flanking units left: leaders with no unit displaced until reinforcements, "
             "secondary set aside (8.4).")


@pytest.mark.parametrize("line, said", [
    # W-7 with its flanking force: 7 in the army + 5 flanking lose 5: units stay with the leaders
    ("battle att=7 att-flank=5 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5", None),
    # 2 in the army + 3 flanking (size 4, "3+") lose 3: the loser's 1 reads L1, the winner's 6 L2
    ("battle att=2 att-flank=3 def=5 att-dice=1,2,2 def-dice=6,3,3", ARMY_LOST),
    # 1 in the army + 2 flanking lose all 3 (W-4: 1,5,5 against 6,6,6): eliminated
    ("battle att=1 att-flank=2 def=3 att-dice=1,5,5 def-dice=6,6,6", f"Attacker eliminated: {DISPLACED}"),
], ids=["units-left", "army-lost", "all-lost"])
def test_losses_that_take_an_army_but_not_its_flanking_units_say_what_8_4_does(line, said):  # W-2, W-4, seed 8.4
    """Seed 8.4 displaces a historically significant leader when all the units *with him* are
    eliminated. A flanking force's units are besides the army's (W-2): losses reaching the army's
    units but not every flanking unit left said nothing, though the player's removal may leave the
    leaders with none; said now as the condition it is. Every unit lost: eliminated."""
    ctx = home(NEW, line).press(*["down"] * 8, "a")
    rows = " ".join(ctx.top.rows())
    if said == ARMY_LOST:
        assert ctx.top.result["attacker"]["losses"] == 3, rows
    if said is None:
        assert "eliminated" not in rows and "leaders" not in rows
    else:
        assert said in rows and "Defender's army lost" not in rows and "Defender eliminated" not in rows, rows


def test_the_gauls_siege_roll_takes_their_minus_one_on_the_device():  # W-9
    """W-9: the Gauls besieging roll 2d6 with -1. The console has it (check siege gauls=1); the
    device's 2d6 menu had no way to say who besieges, so a Gallic siege showed the bare sum. With a
    Gauls player the menu offers their siege under Siege; without one it does not."""
    from firmware.screens.sword.rolls import CheckMenu
    ctx = home(NEW).open(CheckMenu())
    rows = [str(r.label) for r in ctx.top.items(ctx)]
    assert rows[:2] == ["Siege", "Gauls besiege"]
    ctx.press("down", "a")
    assert ctx.session.lines[-1] == "check siege gauls=1"
    last = ctx.view()["last"]
    assert last["modifier"] == -1 and last["total"] == sum(last["dice"]) - 1
    assert f"{last['dice'][0]}+{last['dice'][1]}−1={last['total']}" in " ".join(ctx.texts())
    three = home("new sword players=romans,etruscans,greeks seed=4").open(CheckMenu())
    assert "Gauls besiege" not in [str(r.label) for r in three.top.items(three)]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_gauls_siege_dice_screen_names_it_uncut(lang, monkeypatch):  # W-9
    """The table's dice for the Gauls' siege (check siege gauls=1): the dice screen's title bar said
    «Siege by the Gau…» in English beside its «1/2»."""
    from firmware import i18n
    from firmware.screens.widgets import DiceEntry
    cut = _cuts_recorded(monkeypatch)
    try:
        ctx = FakeCtx(NEW, lang=lang).open(SwordHome())
        ctx.press(*["down"] * 6, "a", *["down"] * 4, "right", *["up"] * 3, "a")   # table dice, the Gauls' siege
        assert isinstance(ctx.top, DiceEntry)
        ctx.render()
        assert not cut, cut
        ctx.press("a")
        assert ctx.lines[-1].startswith("check siege dice=") and ctx.lines[-1].endswith(" gauls=1")
    finally:
        i18n.set_language("en")


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
    (["a", "a"] + ["down"] * 5 + ["a", "a", "a"], "BattleResult"),          # read on towards its loss table
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
        say_yes(d)                                  # yes, undo
        if d.app.message is not None:
            d.press("b")                              # the short "Undone: …" notice
        while type(d.top).__name__ == "TextScreen" and d.top.title == "Note":
            d.press("b")                              # a long one has its own screen
        assert isinstance(d.top, SwordHome), (type(d.top).__name__, d.screen())
        assert d.view()["last"] is None and d.view()["actions"] == 0
    finally:
        d.close()


FIVE = "new sword players=romans,gauls,etruscans,greeks,carthage seed=4"
FIVE_WITHOUT_GAULS = "new sword players=romans,etruscans,samnites,greeks,carthage seed=4"   # W-9: the Gallic events
# every kind of roll Last roll can show, at its widest: each 2d6 check with a modifier, four dice and
# two-digit modifiers and totals (the console takes -20..+20), each naval result
WIDEST = [f"check {kind} mod=-1 dice=6,5" for kind in ("siege", "subjugation", "attrition", "gallic")] + [
    "battle att=99 def=99 mod=20 defmod=20 sacred-band=def att-dice=6,6,6 def-dice=6,6,6,6",
    "battle att=99 def=99 mod=-20 defmod=-20 sacred-band=att att-dice=6,6,6,6 def-dice=6,6,6",
    "tactics 9 mod=-20 die=6", "naval mod=-3 die=1", "naval die=3", "naval mod=3 die=6"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("line", WIDEST)
def test_every_roll_shown_by_last_roll_fits_the_panel(line, lang, monkeypatch):
    """Nothing a roll's screen writes is cut with '…' (e.g. «Subjugation: 2…» in the title bar)."""
    from firmware import i18n
    cut = _cuts_recorded(monkeypatch)
    try:
        ctx = FakeCtx(FIVE_WITHOUT_GAULS if "gallic" in line else FIVE, line, lang=lang).open(SwordHome())
        ctx.press(*["down"] * 9, "a")                                  # Last roll
        assert type(ctx.top).__name__ in ("BattleResult", "TacticsResult", "RollResult")
        ctx.render()
        for _ in range(6):                                            # every row of a battle
            ctx.press("down").render()
        assert not cut, cut
    finally:
        i18n.set_language("en")


def test_the_desperate_times_screen_says_the_rulebooks_card_in_russian():  # W-12, rulebook 7.4
    ctx = FakeCtx(NEW, "desperate gauls", lang="ru").open(SwordHome())
    try:
        ctx.press(*["down"] * 4, "a")
        shown = ctx.texts()
        assert "Отчаянные Времена" in shown and "2 карты" in shown and "1 карта" in shown, shown
    finally:
        from firmware import i18n
        i18n.set_language("en")


CONSULS_SAID = {
    "ru": {"Valerius": "Валерий", "Camillus": "Каммил", "Papirius": "Папирий", "Fabius": "Фабий", "Decius": "Деций",
           "Manlius": "Манлий"},
    "uk": {"Valerius": "Валерій", "Camillus": "Камілл", "Papirius": "Папірій", "Fabius": "Фабій", "Decius": "Децій",
           "Manlius": "Манлій"},
}
AND = {"ru": "и", "uk": "і"}          # the two consuls in a sentence: the screen said «Валерий & Манлий»


def test_the_consuls_row_draws_once_a_turn_then_shows_them_again():  # W-10, seed 8.2.2
    """The consuls are drawn once in each reinforcement phase: after the draw the row reads
    Consuls and shows this turn's again (no line sent, nothing refused); in the next turn it
    draws again."""
    ctx = FakeCtx(NEW).open(SwordHome())
    assert [str(i.label) for i in ctx.top.items(ctx)][7] == "Draw consuls"
    ctx.press(*["down"] * 7, "a")
    drawn = ctx.view()["consuls"]["drawn"]
    assert ctx.lines[-1] == "consuls" and " and ".join(drawn) in ctx.texts()
    ctx.press("a")                                                       # back home
    sent = len(ctx.lines)
    assert [str(i.label) for i in ctx.top.items(ctx)][7] == "Consuls"
    ctx.press("a")                                                       # the same row: shown again
    assert " and ".join(drawn) in ctx.texts() and len(ctx.lines) == sent and ctx.notes == []
    for _ in range(5):
        ctx.run("advance")
    ctx.press("a")
    assert ctx.view()["turn"] == 2 and [str(i.label) for i in ctx.top.items(ctx)][7] == "Draw consuls"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_consuls_drawn_are_named_as_the_rulebook_names_them(lang):  # W-10, seed 7.3, 8.2.2
    """The Russian rulebook names the Roman leaders in its own letters («атаковал Валерия в Roma»,
    «присоединяясь к Каммилу»); the device showed the consuls drawn from the cup in Latin letters
    (Valerius & Manlius) on a Russian or Ukrainian screen and in the log, and joined them with an
    English «&» («Валерий & Манлий»): «Валерий и Манлий», as the log's sentence says. A name the
    players gave (consuls pool=) is shown as they wrote it."""
    from firmware import i18n
    said = CONSULS_SAID[lang]
    ctx = FakeCtx(NEW, lang=lang).open(SwordHome())
    try:
        ctx.press(*["down"] * 7, "a")                                  # Draw consuls
        first, second = ctx.view()["consuls"]["drawn"]                  # the session keeps the names as given
        assert first in said and second in said
        assert f"{said[first]} {AND[lang]} {said[second]}" in ctx.texts(), ctx.texts()   # a sentence, not «&»
        logged = i18n.say(ctx.session.check_undo())                    # the log's sentence of the draw
        assert said[first] in logged and said[second] in logged and first not in logged, logged
        own = FakeCtx(NEW, "consuls pool=Appius,Gnaeus", lang=lang)
        assert "Appius" in i18n.say(own.session.check_undo())
    finally:
        i18n.set_language("en")


def test_the_loss_table_names_the_attacker_as_every_ukrainian_sentence_does():  # W-4
    # «нападник» in the battle form, the odds and Julius Caesar; the loss table said «Атакувальник»
    ctx = FakeCtx(NEW, W7, lang="uk").open(SwordHome())
    try:
        ctx.press(*["down"] * 8, "a", "a", "a")                     # Last roll, A, A: the loss table's page
        shown = ctx.texts()
        assert "Кубики нападника:" in shown and not any("Атакувальник" in t for t in shown), shown
    finally:
        from firmware import i18n
        i18n.set_language("en")


@pytest.mark.parametrize("lang, name", [("en", "Gallic events"), ("ru", "События галлов"), ("uk", "Події галлів")])
def test_the_gallic_events_roll_is_not_called_the_gauls(lang, name):  # W-9: the Gallic events table (2d6)
    """Nor, in English, a bare «Gallic»: the playbook's table is the Gallic Events Table."""
    ctx = FakeCtx("new sword players=romans,etruscans,greeks seed=4", lang=lang).open(SwordHome())
    try:
        ctx.press(*["down"] * 6, "a")                              # 2d6 roll
        assert name in ctx.texts(), ctx.texts()
    finally:
        from firmware import i18n
        i18n.set_language("en")


def test_the_subjugation_roll_is_named_in_the_rulebook_s_russian_word():  # W-9, seed 7.3
    """The Russian rulebook subjugates a space with «подчинение» (7.3 example: «потратил очко
    поддержки на его подчинение»); the 2d6 menu, its result and the log said «Покорение»."""
    from firmware import i18n
    try:
        ctx = FakeCtx(NEW, lang="ru").open(SwordHome())
        ctx.press(*["down"] * 6, "a")                              # 2d6 roll
        assert "Подчинение" in ctx.texts() and "Покорение" not in ctx.texts(), ctx.texts()
        ctx.press("down", "down", "a")                             # Subjugation (after Siege, Gauls besiege)
        assert ctx.texts()[0] == "Подчинение", ctx.texts()
        assert str(ctx.run("log 1")["log"][-1]).startswith("Подчинение, бросок: "), ctx.run("log 1")
    finally:
        i18n.set_language("en")


# -- retreat losses on the battle's result (W-5) ------------------------------------------------------
def _undo_back_to_the_result(d) -> None:
    """Hold B, A (yes, undo the retreat losses), the "Undone: …" notice closed: the battle's result
    is on top again, drawn."""
    d.press("b:hold")
    d.press("a")
    while d.app.message is not None or type(d.top).__name__ == "TextScreen":
        d.press("b")
    assert isinstance(d.top, BattleResult), d.screen()
    d.app.render()


def _cuts_recorded(monkeypatch) -> list[str]:
    """Every text the screens cut with '…' from now on (base.clip recorded), in order."""
    from firmware.screens import base
    cut: list[str] = []
    clip = base.clip

    def recording(text: str, width: int = base.COLS) -> str:
        out = clip(text, width)
        if out != text:
            cut.append(text)
        return out
    monkeypatch.setattr(base, "clip", recording)
    return cut


def _battle_shown(*lines: str, lang: str = "en") -> FakeCtx:
    """The battle of ``lines`` on its result screen (through Last roll)."""
    ctx = FakeCtx(NEW, *lines, lang=lang).open(SwordHome())
    ctx.press(*["down"] * 8, "a")
    assert isinstance(ctx.top, BattleResult)
    ctx.render()
    return ctx


def _shown_rows(ctx: FakeCtx) -> str:
    assert isinstance(ctx.top, BattleResult)
    return " ".join(ctx.top.rows())


def test_the_battle_result_enters_retreat_losses_and_shows_the_support_again():  # W-5
    from firmware.screens.widgets import NumberForm
    ctx = _battle_shown(W7)                           # the Romans (12) lose 5: 7 left, support 3
    assert "Hold A: retreat loss" in _shown_rows(ctx) and "Support +3 (defender)" in _shown_rows(ctx)
    ctx.press("a:hold")                               # 1 press: the form
    form = ctx.top
    assert isinstance(form, NumberForm) and form.title == "Retreat losses"
    field = form.fields[0]
    assert (field.value, field.lo, field.hi) == (0, 0, 7)         # 0..the loser's units left
    assert "support +3" in ctx.texts()
    ctx.press("right", "right")                       # 2 presses: 2 units lost retreating
    assert "support +4" in ctx.texts()                # ⌈(5 + 2) / 2⌉, before anything is sent
    assert ctx.lines == ["state"] * len(ctx.lines)    # nothing sent yet
    ctx.press("a")                                    # 1 press: sent; 4 presses in all (N + 2)
    assert ctx.session.lines[-1] == "retreat losses=2"
    assert isinstance(ctx.top, BattleResult)
    rows = _shown_rows(ctx)
    assert "Retreat losses 2" in rows and "Support +4 (defender)" in rows, rows
    assert ctx.view()["last"]["support"] == 4 and not ctx.notes


def test_retreat_losses_entered_again_replace_the_first_and_stop_at_the_units_left():  # W-5
    ctx = _battle_shown(W7)
    ctx.press("a:hold", "right", "right", "a")
    ctx.press("a:hold")
    assert ctx.top.fields[0].value == 2               # the form starts at the number kept
    ctx.press(*["right"] * 12, "a")                   # past the 7 units left: stays at 7
    assert ctx.session.lines[-1] == "retreat losses=7"
    assert "Support +6 (defender)" in _shown_rows(ctx)              # ⌈12/2⌉
    sent = len(ctx.session.lines)
    ctx.press("a:hold", "a")                          # the same number: nothing sent, no empty undo step
    assert len(ctx.session.lines) == sent and isinstance(ctx.top, BattleResult)
    ctx.press("a:hold", "b")                          # B leaves the form, nothing sent
    assert len(ctx.session.lines) == sent and isinstance(ctx.top, BattleResult)


def test_a_loser_wiped_out_in_the_battle_is_offered_no_retreat_losses():  # W-4, W-5
    ctx = _battle_shown("battle att=6 def=1 mod=10 att-dice=5,5,2 def-dice=2,2,3")
    assert "retreat" not in _shown_rows(ctx)
    ctx.press("a:hold")
    assert isinstance(ctx.top, BattleResult) and ctx.notes == ["The loser has no units left to lose retreating."]


def test_a_refused_retreat_is_said_and_the_form_stays():  # W-11: the serial link ended turn 9 meanwhile
    ctx = FakeCtx(NEW, W7, *["advance"] * 44).open(SwordHome())
    last = ctx.view()["last"]
    ctx.open(BattleResult(last)).render()
    ctx.press("a:hold")
    assert ctx.run("advance")["ok"]
    ctx.press("right", "a")
    assert ctx.notes and "over" in ctx.notes[-1]
    from firmware.screens.widgets import NumberForm
    assert isinstance(ctx.top, NumberForm) and ctx.view()["last"]["retreat_losses"] == 0


def test_the_result_follows_the_session_s_record_of_its_battle():  # W-5
    """Retreat losses sent over the serial link while the result is shown appear on it."""
    ctx = _battle_shown(W7)
    assert ctx.run("retreat losses=3")["ok"]
    ctx.render()
    assert "Support +4 (defender)" in _shown_rows(ctx) and "Retreat losses 3" in _shown_rows(ctx)


def test_an_undo_of_the_retreat_losses_shows_the_battle_as_rolled():  # W-5, undo
    from scripts.presses.harness import Driver
    d = Driver("en")
    try:
        d.run(NEW)
        d.run(W7)
        for k in ["a"] + ["down"] * 8 + ["a", "a:hold", "right", "a"]:
            d.press(k)
        assert isinstance(d.top, BattleResult) and d.top.result["support"] == 3      # ⌈6/2⌉
        _undo_back_to_the_result(d)
        assert d.top.result["retreat_losses"] == 0 and "Support +3 (defender)" in " ".join(d.top.rows())
        assert d.view()["last"]["retreat_losses"] == 0
    finally:
        d.close()


def test_last_battle_stays_on_screen_through_an_undo_of_the_rolls_after_it():  # W-5, W-8, undo
    """Last battle opened after a naval retreat's roll: hold B took back the naval roll and the
    battle's result went home with it, though the battle still stood (a screen goes when an undo
    takes back what it shows). Now it stays through that undo and the retreat losses' (shown gone),
    and goes with the undo of the battle itself."""
    from scripts.presses.harness import Driver
    d = Driver("en")
    try:
        d.run(NEW)
        d.run(W7)
        d.run("retreat losses=2")
        d.run("naval die=3")
        d.press("a")                                  # the game's home
        d.select("Last battle")
        assert isinstance(d.top, BattleResult) and d.top.result["retreat_losses"] == 2
        shown = d.top
        from firmware.screens import base
        heading = shown.rows().index("Loss table (W-4):")
        while shown.scroll.top + base.ROWS <= heading:      # read on, page by page, to its loss table (W-4)
            d.press("a")
        at = shown.scroll.top
        assert at > 0 and "Loss table (W-4):" in shown.rows()[at:at + 4], shown.rows()
        d.press("b:hold")
        d.press("a")                                  # the naval roll taken back: the table stays
        while d.app.message is not None or type(d.top).__name__ == "TextScreen":
            d.press("b")
        assert d.top is shown and shown.scroll.top == at, d.screen()
        assert d.view()["last"]["kind"] == "battle" and d.top.result["retreat_losses"] == 2
        _undo_back_to_the_result(d)                   # the retreat losses taken back
        assert d.top.result["retreat_losses"] == 0 and "Support +3 (defender)" in " ".join(d.top.rows())
        d.press("b:hold")
        d.press("a")                                  # the battle itself
        while d.app.message is not None or type(d.top).__name__ == "TextScreen":
            d.press("b")
        assert isinstance(d.top, SwordHome) and d.view()["last_battle"] is None
    finally:
        d.close()


def test_an_undo_of_retreat_losses_that_wiped_the_loser_out_shows_the_battle_as_rolled():  # W-5, seed 8.4, undo
    """Retreat losses that take the loser's last units make it ``eliminated`` (seed 8.4): the result
    follows the session's record of the battle through that change and its undo, and takes more
    retreat losses after it (it is the same battle, not «another battle fought since»)."""
    from scripts.presses.harness import Driver
    d = Driver("en")
    try:
        d.run(NEW)
        d.run(W7)                                     # the Romans (12) lose 5: 7 left
        for k in ["a"] + ["down"] * 8 + ["a", "a:hold"] + ["right"] * 7 + ["a"]:
            d.press(k)
        assert isinstance(d.top, BattleResult) and d.top.result["attacker"]["eliminated"]
        assert "Attacker eliminated" in " ".join(d.top.rows())
        _undo_back_to_the_result(d)
        rows = " ".join(d.top.rows())
        assert d.top.result["retreat_losses"] == 0 and "Support +3 (defender)" in rows, rows
        assert "Attacker eliminated" not in rows
        for k in ["a:hold", "right", "a"]:
            d.press(k)
        assert d.view()["last"]["retreat_losses"] == 1 and not d.app.message, d.screen()
        assert "Retreat losses 1" in " ".join(d.top.rows())
    finally:
        d.close()


@pytest.mark.parametrize("lang, words", [
    ("ru", ["Потери отступления", "Потеряно БЕ", "поддержка +4", "Потери отступления: 2", "Поддержка +4"]),
    ("uk", ["Втрати відступу", "Втрачено БО", "підтримка +4", "Втрати відступу: 2", "Підтримка +4"]),
])
def test_retreat_losses_in_the_rulebooks_words(lang, words):  # W-5
    from firmware import i18n
    try:
        ctx = _battle_shown(W7, lang=lang)
        ctx.press("a:hold", "right", "right")
        shown = " ".join(ctx.texts())
        for word in words[:3]:
            assert word in shown, (word, shown)
        ctx.press("a")
        rows = _shown_rows(ctx)
        for word in words[3:]:
            assert word in rows, (word, rows)
    finally:
        i18n.set_language("en")


def test_retreat_losses_are_not_sent_for_a_battle_that_is_no_longer_the_last():  # W-5
    """A battle fought meanwhile (over the serial link) is the one ``retreat`` would amend: the
    older result says so and sends nothing."""
    ctx = _battle_shown(W7)
    ctx.press("a:hold", "right")
    assert ctx.run("battle att=6 def=6 mod=10 att-dice=5,4,2 def-dice=2,2,3")["ok"]
    sent = len(ctx.session.lines)
    ctx.press("a")
    assert len(ctx.session.lines) == sent and isinstance(ctx.top, BattleResult)
    assert ctx.notes[-1].startswith("Another battle has been fought since this one")
    ctx.press("a:hold")
    assert isinstance(ctx.top, BattleResult) and len(ctx.notes) == 2
    assert ctx.view()["last"]["retreat_losses"] == 0 and ctx.view()["last"]["support"] == 2


def test_an_undo_of_retreat_losses_entered_after_another_roll_shows_the_battle_as_rolled():  # W-5, W-8, undo
    """A roll after the battle (a naval retreat's, a siege check) is the session's last roll: the
    battle's retreat losses still go to that battle, and an undo of them (from the console while
    the result is shown) shows the battle as rolled again, as the session keeps it."""
    ctx = _battle_shown(W7)
    assert ctx.run("check siege")["ok"]
    ctx.press("a:hold", "right", "right", "a")        # 2 units lost retreating: support +4
    assert ctx.session.lines[-1] == "retreat losses=2" and "Support +4 (defender)" in _shown_rows(ctx)
    assert ctx.run("undo")["ok"]
    ctx.render()
    assert ctx.view()["last_battle"]["retreat_losses"] == 0
    rows = _shown_rows(ctx)
    assert "Retreat losses" not in rows and "Support +3 (defender)" in rows, rows


@pytest.mark.parametrize("since", ["naval die=3", "check attrition dice=2,5", "tactics 2 die=4"])
def test_a_battle_behind_another_roll_is_reached_from_the_home_for_its_retreat_losses(since):  # W-5, W-8, W-9
    """The loser retreats by sea or through a 2d6 roll, which is then the session's last roll: the
    engine amends its battle (``last_battle``), but the device reached the battle only through Last
    roll, which shows that roll, so its retreat losses (and the support they give) could be entered
    only over the serial link. The home offers Last battle while another roll is the last one."""
    ctx = home(NEW, W7, since)
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels.count("Last battle") == 1 and labels.index("Last battle") == labels.index("Last roll") + 1
    ctx.press(*["down"] * labels.index("Last battle"), "a")
    assert isinstance(ctx.top, BattleResult) and ctx.top.result["attacker"]["units"] == 12
    ctx.press("a:hold", "right", "right", "a")        # 2 Roman units lost retreating: support +4 (W-5)
    assert ctx.session.lines[-1] == "retreat losses=2" and ctx.view()["last_battle"]["support"] == 4
    assert "Support +4 (defender)" in _shown_rows(ctx)
    ctx = home(NEW, W7)                               # the battle is the last roll: Last roll shows it
    assert "Last battle" not in [str(i.label) for i in ctx.top.items(ctx)]


def test_retreat_losses_are_not_sent_for_an_older_battle_behind_another_roll():  # W-5
    """A battle fought meanwhile over the serial link, then another roll: ``retreat`` would amend
    the newer battle, so the older result says so and sends nothing."""
    ctx = _battle_shown(W7)
    assert ctx.run("battle att=6 def=6 mod=10 att-dice=5,4,2 def-dice=2,2,3")["ok"]
    assert ctx.run("check siege")["ok"]
    sent = len(ctx.session.lines)
    ctx.press("a:hold")
    assert len(ctx.session.lines) == sent and isinstance(ctx.top, BattleResult)
    assert ctx.notes[-1].startswith("Another battle has been fought since this one")
    assert ctx.top.result["attacker"]["units"] == 12 and ctx.view()["last_battle"]["retreat_losses"] == 0


@pytest.mark.parametrize("meanwhile", ["retreat losses=3", "undo"])
def test_the_retreat_losses_form_sets_the_number_shown_even_if_it_moved_meanwhile(meanwhile):  # W-5
    """The form opens on the number kept (2); the serial link changes it (another number, or an
    undo back to 0); A on 2 sets 2 again (it sent nothing and left the other number: the form
    took the number it opened on for the number now), and the result shows it."""
    ctx = _battle_shown(W7)
    ctx.press("a:hold", "right", "right", "a")        # 2 units lost retreating
    ctx.press("a:hold")
    assert ctx.top.fields[0].value == 2
    assert ctx.run(meanwhile)["ok"] and ctx.view()["last_battle"]["retreat_losses"] != 2
    ctx.press("a")                                    # A on 2
    assert ctx.view()["last_battle"]["retreat_losses"] == 2 and ctx.session.lines[-1] == "retreat losses=2"
    ctx.render()
    assert isinstance(ctx.top, BattleResult) and "Retreat losses 2" in _shown_rows(ctx)


def test_an_undo_of_the_battle_takes_its_retreat_losses_form_off_too():  # W-5, undo
    """The retreat losses form open over the battle's result; the serial link takes the battle
    back: the form goes with the result (A on it answered with the console's words, "fight one
    first (battle att=… def=…)", and nothing to amend)."""
    from firmware.screens.sword.home import SwordHome
    from tests.screens import app_with
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        app = app_with([NEW, W7], ["a"] + ["down"] * 8 + ["a", "a:hold"], Path(d))
        try:
            assert app.stack[-1].title == "Retreat losses"
            assert '"ok":true' in undo_by_link(app)
            assert isinstance(app.stack[-1], SwordHome), [type(s).__name__ for s in app.stack]
        finally:
            app.console.close()


def test_the_battle_form_s_result_takes_retreat_losses_too():  # W-2, W-5
    ctx = home(NEW).press("a", "a")                   # the form: 3 against 3, the device's dice
    assert isinstance(ctx.top, BattleResult)
    ctx.render()
    r = ctx.top.result
    loser = r["attacker"] if r["loser"] == "attacker" else r["defender"]
    assert loser["units"] - loser["losses"] >= 1          # this seed's loser has units left to lose
    ctx.press("a:hold", "right", "a")
    assert ctx.session.lines[-1] == "retreat losses=1"
    assert ctx.top.result["support"] == -(-(loser["losses"] + 1) // 2)


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


def test_round_5_of_every_turn_asks_before_the_turn_ends_with_the_desperate_times_order():  # W-12, W-11
    """Seed 7.4.5: at the end of round 5 each player, in descending VP order, may play one
    Desperate Times card, then comes the attrition phase (and the turn's scoring, W-11). Next round
    in round 5 of turn 1 went on to turn 2 at once and only then said the order: the plays, the
    attrition and the scoring were entered in turn 2, and an automatic victory in turn 1's scoring
    was asked and filed as turn 2's. It asks first, as in turn 9; the order (Greeks 3 VP, then the
    ties by W-11; Romans have played both cards) is that of the Desperate Times rows in round 5."""
    ctx = home(NEW, "vp greeks =3", "desperate romans", "desperate romans", *["advance"] * 4)
    ctx.lines.clear()
    ctx.press("down", "down", "a")                                          # turn 1, round 5: Next round
    said = " ".join([*ctx.texts()[:1], *getattr(ctx.top, "rows", [])])    # the question, all its rows
    assert ctx.lines == [] and ctx.view()["round"] == 5
    assert said == "End the turn? Desperate Times played, attrition and scoring done?", said
    # the order is read where the cards are played: the Desperate Times rows, most VP first
    assert desperate_rows(ctx) == ["Greeks 2 cards", "Gauls 2 cards", "Etruscans 2 cards", "Romans 0 cards"]
    ctx.press("b")                                                          # not yet: round 5 goes on
    assert isinstance(ctx.top, SwordHome) and ctx.lines == [] and ctx.view()["turn"] == 1
    ctx.press("a", "a")
    assert ctx.lines == ["advance"] and (ctx.view()["turn"], ctx.view()["round"]) == (2, 1)
    assert ctx.notes[-1] == "Turn 2, round 1."
    ctx.lines.clear()
    ctx.press("a")                                                          # rounds 1-4 are not asked
    assert ctx.lines == ["advance"] and ctx.view()["round"] == 2


@pytest.mark.parametrize("keys", [
    ("a", *["down"] * 5, "right", "a"),              # Battle: Dice: table, A
    ("down", "a", *["down"] * 3, "right", "a"),       # Tactics test: it holds the undone test, device: table
    (*["down"] * 5, "a", "a"),                        # Naval move
    (*["down"] * 6, "a", "a"),                        # 2d6: Siege
])
def test_every_dice_entry_refuses_table_dice_where_the_device_has_shown_its_roll(keys):  # W-1, W-2, W-8, W-9
    """The device rolled a tactics test, undo took it back: its die is the next one (undo never
    re-rolls), so dice thrown on the table and entered there are refused alike by every form's
    dice entry — the notice names the roll that stands, nothing is sent, the entry stays open."""
    from firmware.screens.widgets import DiceEntry
    from firmware.screens.widgets.dice import TABLE_DICE
    ctx = home(NEW, "tactics 3", "undo")
    ctx.settings[TABLE_DICE] = "1"                    # this table throws its own dice
    ctx.press(*keys)
    assert isinstance(ctx.top, DiceEntry)
    ctx.press("a")
    assert isinstance(ctx.top, DiceEntry) and list(ctx.session.lines) == []
    assert ctx.notes and "already shown" in ctx.notes[-1] and "Tactics 3 test" in ctx.notes[-1], ctx.notes


def test_the_sacred_band_is_offered_and_taken_only_where_carthage_plays(state_dir):  # W-2
    """W-2: «Carthage 4d6 with the "Sacred Band" event»: the battle form offered the Sacred Band row
    in every game, and the console took ``sacred-band=`` without Carthage (4 dice for a Roman or a
    Gaul). The row is there only with Carthage; elsewhere the line is refused and changes nothing."""
    from firmware.screens.sword.battle import battle_form
    from tests.test_sword_console import _ok, _open, _refused
    assert "band" not in [f.key for f in battle_form(home(NEW)).fields]
    assert "band" in [f.key for f in battle_form(home(NEW5)).fields]
    ctx = home(NEW).press("a", "a")                               # the form without the row: A fights
    assert ctx.session.lines[-1] == "battle att=3 def=3 mod=0 defmod=0"
    ctx = home(NEW5).press("a", *["down"] * 6, "right", "a")      # Sacred Band (under the flanking units): attacker
    assert ctx.session.lines[-1].endswith("sacred-band=att") and len(ctx.top.result["attacker"]["dice"]) == 4
    c = _open(state_dir)
    try:
        _ok(c, NEW)
        assert "Carthage is not in this game" in _refused(c, "battle att=3 def=3 sacred-band=att")
        assert "Carthage is not in this game" in _refused(c, "odds mod=0 sacred-band=def")
        _ok(c, NEW5)
        assert len(_ok(c, "battle att=3 def=3 sacred-band=def")["defender"]["dice"]) == 4
    finally:
        c.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_consuls_row_is_the_roman_player_s(lang):  # W-10, rule 8.2.2
    """The consuls are the Roman player's leaders, drawn by him (W-10, rule 8.2.2): a game without
    the Romans (started over the serial link) showed "Draw consuls" and drew two; its home has no
    consuls row, while a game with the Romans keeps it."""
    from firmware import i18n
    from firmware.screens.sword.text import _
    try:
        with_romans = FakeCtx(NEW, lang=lang).open(SwordHome())
        rows = [str(i.label) for i in with_romans.top.items(with_romans)]
        draw = _("Draw consuls")
        assert rows[7] == draw, rows
        without = FakeCtx("new sword players=gauls,etruscans,greeks seed=4", lang=lang).open(SwordHome())
        assert [str(i.label) for i in without.top.items(without)] == rows[:7] + rows[8:]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("setup, lead", [
    ((NEW,), "Gauls 0"),                                       # every power at 0: the Gauls lead (W-11 ties)
    ((NEW, "vp etruscans =10"), "Etruscans 10"),
    ((NEW5, "vp carthage =12", "unrest =2"), "Carthage 12"),
    ((NEW, "vp greeks =12", *["advance"] * 44), "Greeks 12"),  # turn 9, round 5
])
def test_the_homes_first_screen_shows_the_round_and_the_vp_leader(lang, setup, lead):  # W-11
    """What a player looks for between actions: the battle, the tactics test, the row that ends the
    round with the round now played, and the VP track's row with its leader, on the home's first
    screen (four rows). In Russian «Новый раунд  сейчас 1» was one column too wide: «Новый» stood
    alone on a row and the VP track dropped to the second screen; in English «VP track  Carthage 12»
    (or the Etruscans, the Samnites leading) took two rows, the leader on the second screen."""
    from firmware import i18n
    from firmware.screens.sword.text import _
    from firmware.screens.sword.words import short
    try:
        ctx = FakeCtx(*setup, lang=lang).open(SwordHome())
        view = ctx.view()
        shown = ctx.texts()
        power, vp = lead.split()
        assert _("Next round") in shown and _("now {}").format(view["round"]) in shown, shown
        assert _("VP") in shown and f"{short(power.lower())} {vp}" in shown, shown
    finally:
        i18n.set_language("en")


ROUND_5 = (NEW, "vp gauls =7", "vp greeks =5", *["advance"] * 4)        # turn 1, round 5


def desperate_rows(ctx: FakeCtx) -> list[str]:
    """The Desperate Times screen's rows, opened over ``ctx`` («Gauls 2 cards»), all of them."""
    from firmware.screens.sword.tracks import DesperateScreen
    return [f"{item.label[2:]} {item.value}" for item in DesperateScreen().items(ctx)]
# round 5's Desperate Times rows: most VP first (rule 7.4.5), Gauls 7, Greeks 5, Etruscans, Romans
MARK_GAULS_GREEKS = (*["down"] * 4, "a", "press", "down", "press", "a")


def test_in_round_5_several_powers_marked_are_asked_when_and_the_end_of_the_round_lets_each_play():  # W-12, 7.4.5
    """Rule 7.4.5: «В конце пятого раунда каждый игрок в порядке убывания ПО может сыграть одну
    карточку». The screen applied the fewest-VP rule of an interruption (7.4.2) to the powers marked
    there, so at the end of round 5 «Greeks played the card. Gauls kept theirs.»: the Gauls' play was
    lost. In round 5 A now asks when; the first answer (one more press) is the end of the round."""
    from firmware.screens.sword.tracks import DesperateWhen
    ctx = home(*ROUND_5).press(*MARK_GAULS_GREEKS)
    assert isinstance(ctx.top, DesperateWhen) and ctx.lines == []
    ctx.press("a")
    assert ctx.lines == ["desperate gauls,greeks end=1"]
    assert ctx.view()["desperate"] == {"romans": 2, "gauls": 1, "etruscans": 2, "greeks": 1}
    assert isinstance(ctx.top, SwordHome)
    assert ctx.notes[-1] == "Each played a card, most VP first: Gauls, Greeks."


def test_an_interruption_in_round_5_is_still_the_fewest_vp_rule_on_the_screen():  # W-12, rule 7.4.2
    ctx = home(*ROUND_5).press(*MARK_GAULS_GREEKS, "down", "a")
    assert ctx.lines == ["desperate gauls,greeks end=0"]
    assert ctx.view()["desperate"]["greeks"] == 1 and ctx.view()["desperate"]["gauls"] == 2
    assert isinstance(ctx.top, SwordHome) and ctx.notes[-1] == "Greeks played the card. Gauls kept theirs."


MARK_GAULS = (*["down"] * 4, "a", "press", "a")


def test_one_power_in_round_5_is_asked_when_and_its_card_at_the_end_is_its_one_there():  # W-12, rule 7.4.5
    """Rule 7.4.5: «В конце пятого раунда каждый игрок в порядке убывания ПО может сыграть одну
    карточку». One power marked in round 5 was sent as an interruption (``desperate gauls``) without
    a question: a card the Gauls played alone at the end of round 5 was not their one there, so Next
    round's question still read «order: Gauls, …» and a second card of theirs at the end was taken.
    Now one power marked in round 5 is asked too; the end of the round is the first answer."""
    from firmware.screens.sword.tracks import DesperateWhen
    ctx = home(*ROUND_5).press(*MARK_GAULS)
    assert isinstance(ctx.top, DesperateWhen) and ctx.lines == []
    ctx.press("a")
    assert ctx.lines == ["desperate gauls end=1"] and isinstance(ctx.top, SwordHome)
    assert ctx.view()["desperate_end"] == ["gauls"] and ctx.view()["desperate"]["gauls"] == 1
    assert ctx.notes[-1] == "Gauls played the card."
    ctx.press(*["up"] * 4, *MARK_GAULS, "a")                                # their second card there
    assert ctx.lines[-1] == "desperate gauls end=1" and ctx.view()["desperate"]["gauls"] == 1   # refused
    assert "already played there: Gauls" in ctx.notes[-1]
    ctx.to_root()
    assert desperate_rows(ctx) == ["Gauls played", "Greeks 2 cards", "Etruscans 2 cards", "Romans 2 cards"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_second_card_at_the_end_of_round_5_is_refused_in_three_pages_at_most(lang):   # W-12, rule 7.4.5
    """The Etruscans and Carthage, having played theirs at the end of round 5, marked again: «В конце
    раунда 5 каждая держава играет одну карточку Отчаянных Времён (W-12, правило 7.4.5); в этом ходу
    уже сыграли: Этруски, Карфаген.» took five pages (four in English and Ukrainian)."""
    from firmware import i18n
    from firmware.screens import base
    ctx = FakeCtx(NEW5, *["advance"] * 4, "desperate etruscans,carthage end=1", lang=lang).open(SwordHome())
    try:
        ctx.press(*["down"] * 4, "a", "down", "press", "down", "down", "press", "a", "a")   # Etruscans, Carthage; the end
        assert ctx.lines[-1] == "desperate etruscans,carthage end=1" and ctx.view()["desperate"]["etruscans"] == 1
        said = ctx.notes[-1]
        assert ("Etruscans, Carthage" in said) == (lang == "en") and said.endswith(".")
        assert len(base.wrap(said, base.COLS - 1)) - base.ROWS + 1 <= 3, base.wrap(said, base.COLS - 1)
    finally:
        i18n.set_language("en")


def test_one_power_interrupting_in_round_5_keeps_its_play_at_the_end():  # W-12, rules 7.4.1 / 7.4.5
    """A card one power plays in round 5 before a player becomes active (rule 7.4.1) is not its
    one at the end of the round: it may still play one there (rule 7.4.5)."""
    ctx = home(*ROUND_5).press(*MARK_GAULS)
    assert " ".join(ctx.texts()[1:]) == "End of round 5: each plays one Interrupting a player", ctx.texts()
    ctx.press("down", "a")
    assert ctx.lines == ["desperate gauls end=0"] and "desperate_end" not in ctx.view()
    assert ctx.notes[-1] == "Gauls played the card."
    ctx.press(*["up"] * 4, *MARK_GAULS, "a")                                # the end of round 5
    assert ctx.lines[-1] == "desperate gauls end=1" and ctx.view()["desperate"]["gauls"] == 0


def test_several_powers_in_rounds_1_to_4_are_an_interruption_without_a_question():  # W-12, rule 7.4.2
    """The end of round 5 is in round 5: several powers marked in round 4 are interrupting a player
    (the fewest VP plays), no question, the presses as before."""
    ctx = home(NEW, "vp gauls =7", *["advance"] * 3)                                   # round 4: the card order
    ctx.press(*["down"] * 4, "a", "down", "press", "down", "down", "press", "a")
    assert ctx.lines == ["desperate gauls,greeks"] and ctx.notes[-1] == "Greeks played the card. Gauls kept theirs."


def test_b_on_the_question_goes_back_to_the_marks_and_sends_nothing():  # W-12
    from firmware.screens.sword.tracks import DesperateScreen
    ctx = home(*ROUND_5).press(*MARK_GAULS_GREEKS, "b")
    assert isinstance(ctx.top, DesperateScreen) and ctx.top.marked == {"gauls", "greeks"} and ctx.lines == []
    ctx.press("a", "a")
    assert ctx.lines == ["desperate gauls,greeks end=1"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_question_of_round_5_is_said_whole_in_every_language(lang, monkeypatch):  # W-12
    from firmware import i18n
    from firmware.screens.sword.text import _
    cut = _cuts_recorded(monkeypatch)
    try:
        ctx = FakeCtx(*ROUND_5, lang=lang).open(SwordHome()).press(*MARK_GAULS_GREEKS)
        shown = ctx.texts()
        assert not cut, cut
        assert len(shown) == 5, shown                                   # the title and two rows each
        for english in ("Played when?", "End of round 5: each plays one", "Interrupting: the fewest VP plays"):
            assert (_(english) == english) == (lang == "en"), english
        # the whole of each answer on the panel, in two rows: a longer one (uk «Перериваючи хід: грає
        # той, у кого менше ПО», three rows) loses its end below the panel
        assert [" ".join(r.strip() for r in shown[i:i + 2]) for i in (1, 3)] == [
            _("End of round 5: each plays one"), _("Interrupting: the fewest VP plays")], shown
        ctx.press("a")
        assert ctx.lines == ["desperate gauls,greeks end=1"]
        assert ctx.notes[-1].startswith("Each played") == (lang == "en"), ctx.notes
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_question_of_round_5_for_one_power_is_said_whole_in_every_language(lang, monkeypatch):  # W-12
    from firmware import i18n
    from firmware.screens.sword.text import _
    cut = _cuts_recorded(monkeypatch)
    try:
        ctx = FakeCtx(*ROUND_5, lang=lang).open(SwordHome()).press(*MARK_GAULS)
        shown = ctx.texts()
        assert not cut, cut
        assert _("Interrupting a player") != "Interrupting a player" or lang == "en"
        assert " ".join(r.strip() for r in shown[1:]) == " ".join(
            [_("End of round 5: each plays one"), _("Interrupting a player")]), shown
        ctx.press("down", "a")
        assert ctx.lines == ["desperate gauls end=0"]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("lines, title", [
    ([NEW5, *["advance"] * 4], "End the turn?"), ([NEW5, *["advance"] * 44], "End the game?")], ids=["turn", "game"])
def test_the_end_of_the_turn_is_asked_in_one_page(lang, lines, title):   # W-12, W-11
    """Asked at every turn's round 5: «Round 5 ends; Desperate Times order: Gauls, Etruscans,
    Greeks, Carthage, Romans. Desperate Times played, attrition and scoring done?» took six pages
    (en), seven (ru), eight (uk) with five powers, nine at the game's end; then two pages in ru and
    uk (four rows: «…истощение и подсчёт ПО проведены?»), a second A once a long question reads
    to its end before yes. Now it fits the question's three rows in every language: one A ends the
    turn (three presses from the home)."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.text import _
    try:
        ctx = FakeCtx(*lines, lang=lang).open(SwordHome()).press("down", "down", "a")     # Next round
        rows = ctx.top.rows
        assert ctx.texts()[0] == _(title) and " ".join(rows) == _("Desperate Times played, attrition and scoring done?")
        assert len(rows) <= base.ROWS - 1, rows                   # one page of the question's three rows
        turn = ctx.view()["turn"]
        ctx.press("a")                                            # one A: yes
        assert ctx.lines[-1] == "advance" and (ctx.view()["turn"] > turn or ctx.view()["finished"])
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_end_of_the_turn_with_no_card_left_asks_only_for_attrition_and_scoring(lang):   # W-12
    """Nobody holding a Desperate Times card (each played two), the question said «order: nobody»
    and asked whether they were played: it asks for what is left to do, one page."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.text import _
    spent = [f"desperate {p}" for p in ("romans", "gauls", "etruscans", "greeks") for _twice in (1, 2)]
    try:
        ctx = FakeCtx(NEW, *spent, *["advance"] * 4, lang=lang).open(SwordHome()).press("down", "down", "a")
        assert " ".join(ctx.top.rows) == _("Attrition and scoring done?") and len(ctx.top.rows) <= base.ROWS - 1
        assert (_("Attrition and scoring done?") == "Attrition and scoring done?") == (lang == "en")
    finally:
        i18n.set_language("en")


def test_the_end_of_the_turn_leaves_out_of_the_order_who_played_at_the_end_of_round_5():  # W-12, rule 7.4.5
    """Each power plays one card at the end of round 5: once the Gauls and the Greeks have played
    theirs there, the Desperate Times rows of round 5 say so, the Etruscans and the Romans still to
    choose (Next round's question named them, four to eight pages every turn)."""
    ctx = home(*ROUND_5).press(*MARK_GAULS_GREEKS, "a")
    assert ctx.view()["desperate_end"] == ["gauls", "greeks"]
    assert desperate_rows(ctx) == ["Gauls played", "Greeks played", "Etruscans 2 cards", "Romans 2 cards"]
    ctx.press(*["up"] * 4, "down", "down", "a", "a")                         # Next round, yes
    assert "desperate_end" not in ctx.view()                                 # turn 2: none played yet


@pytest.mark.parametrize("lang, said", [
    ("ru", "Армия атакующего разбита, остались фланговые: лидеры без БЕ смещаются до Фазы Подкреплений, "
           "второстепенные откладываются (8.4)."),
    ("uk", "Армію нападника розбито, флангові лишилися: лідери без БО зміщуються до Фази Підкріплення, "
           "другорядні відкладаються (8.4)."),
], ids=["ru", "uk"])
def test_an_army_lost_with_flanking_units_left_is_said_in_the_rulebook_s_words(lang, said):  # W-2, seed 8.4
    """Seed 8.4 in the present tense of a rule («смещается», «откладываются в сторону»): whether the
    leaders keep a unit is the player's removal, so it is said as what happens if they keep none."""
    try:
        line = "battle att=2 att-flank=3 def=5 att-dice=1,2,2 def-dice=6,3,3"
        ctx = FakeCtx(NEW, line, lang=lang).open(SwordHome())
        ctx.press(*["down"] * 8, "a")
        text = re.sub(r"(?<=\w[-–—]) (?=\w)", "", " ".join(ctx.top.rows()))   # a row may end after a word's
        assert said in text                                                  # own hyphen («исторически-»)
    finally:
        from firmware import i18n
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_battle_s_support_comes_before_what_the_leaders_of_a_lost_army_do(lang):  # W-5, seed 8.4
    """The attacker's army lost (3 flanking units left): what its leaders do (8.4) took eleven to
    thirteen rows between the losses and «Support +2 (defender)», read on the fourth or fifth page;
    the support follows the losses, on the second page, and the rule after it, whole."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.text import _
    try:
        line = "battle att=2 att-flank=3 def=5 att-dice=1,2,2 def-dice=6,3,3"
        ctx = FakeCtx(NEW, line, lang=lang).open(SwordHome()).press(*["down"] * 8, "a")
        rows = ctx.top.rows()
        support = base.wrap(_("Support +{} (defender)").format(2))
        rule = base.wrap(_("Attacker's army lost, flanking units left: leaders with no unit displaced until "
                           "reinforcements, secondary set aside (8.4)."))
        at = rows.index(support[0])
        assert at + len(support) <= 2 * base.ROWS, rows                      # on the first two pages
        after = at + len(support)
        hint = base.wrap(_("Hold A: retreat loss"))
        assert rows[after:after + len(rule)] == rule and rows[after + len(rule):][:len(hint)] == hint, rows
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang, said", [
    ("en", ["Defender's dice:", "  4: winner −1", "  4: winner −1", "  4: winner −1",
            "  1: in the total only, not read (W-4)."]),
    ("ru", ["Кубики защитника:", "  4: победитель −1", "  4: победитель −1", "  4: победитель −1",
            "  1: только в сумме, по таблице не читается (W-4)."]),
    ("uk", ["Кубики захисника:", "  4: переможець −1", "  4: переможець −1", "  4: переможець −1",
            "  1: лише в сумі, за таблицею не читається (W-4)."])])
def test_the_loss_table_says_the_sacred_band_die_it_leaves_out(lang, said):  # W-2, W-4
    """Carthage rolls four dice with the Sacred Band (W-2) and reads three on the loss table (W-4):
    the loss table lists the three read and says which die is not. Which three is Legatus's reading
    (the seed has no battle chapter nor the event, the digest names no three): the result's first
    page says so (test below). The die left out took 11-12 rows of the table's own screen, the
    reading said again there; it is one row under its side's dice now, two or three wrapped."""
    from firmware import i18n
    from firmware.screens import base
    try:
        ctx = FakeCtx("new sword players=romans,gauls,etruscans,greeks,carthage seed=2",
                      "battle att=10 def=10 sacred-band=def att-dice=6,6,6 def-dice=4,1,4,4", lang=lang)
        ctx.open(SwordHome())
        ctx.press(*["down"] * 9, "a")                         # Last roll (past Carthage unrest)
        from firmware.screens.sword.text import _
        rows = ctx.top.rows()
        heading = rows.index(_("Loss table (W-4):"))
        rome = [_("Attacker's dice:")] + ["  6: " + _("loser −{}").format(2)] * 3      # the winner's 6s: L2 (W-4)
        assert rows[heading + 1:] == [r for p in rome + said for r in base.wrap(p)], rows
        assert len(base.wrap(said[-1])) <= 3, base.wrap(said[-1])
    finally:
        i18n.set_language("en")


reading_words = {"en": "winner −1", "ru": "победитель −1", "uk": "переможець −1"}


@pytest.mark.parametrize("lang, said", [
    ("en", "Defence dice on the loss table: 4 5 4 (the Sacred Band's 3 highest: Legatus's reading)."),
    ("ru", "Кубики защиты по таблице потерь: 4 5 4 (3 наибольших у Священного отряда — так читает Legatus)."),
    ("uk", "Кубики захисту за таблицею втрат: 4 5 4 (3 найбільші у Священного загону — так читає Legatus).")])
def test_the_battle_result_says_which_sacred_band_dice_its_losses_read(lang, said):  # W-2, W-4
    """The result showed the Sacred Band's four dice and its losses, without a word that one die was
    left out of the loss table, nor that which one is Legatus's reading (no rule text it holds says):
    a player counting the losses from the four dice on the screen got another figure."""
    from firmware import i18n
    try:
        ctx = FakeCtx("new sword players=romans,gauls,etruscans,greeks,carthage seed=2",
                      "battle att=10 def=10 sacred-band=def att-dice=6,6,6 def-dice=4,1,5,4", lang=lang)
        ctx.open(SwordHome())
        ctx.press(*["down"] * 9, "a")                         # Last roll (past Carthage unrest)
        text = re.sub(r"(?<=\w[-–—]) (?=\w)", "", " ".join(ctx.top.rows()))
        assert said in text, text
        plain = FakeCtx("new sword players=romans,gauls,etruscans,greeks,carthage seed=2",
                        "battle att=10 def=10 att-dice=6,6,6 def-dice=4,1,5", lang=lang).open(SwordHome())
        plain.press(*["down"] * 9, "a")                       # three dice a side: nothing to say
        assert not any("Legatus" in row for row in plain.top.rows())
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_every_figure_taken_away_on_the_sword_s_screens_has_the_minus_sign(lang):  # W-1, W-2, W-6, W-8, W-9, W-13
    """The log writes «Naval move: 3−1 = 2» with the minus sign (engine/sword/requests.py ``signed``);
    the screens wrote the same roll «Море 3-1 = 2» with a hyphen, as they did the tactics result, the
    battle's side rows, the 2d6 roll of a siege by the Gauls (−1), unrest's «рука -2, ПО -1» and its
    notice, and the modifier rows of the Battle, Tactics test and Naval move forms: one sign
    everywhere, in every language (a gain keeps «+»; the rows are as long as they were)."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.battle import battle_form
    from firmware.screens.sword.rolls import naval_form, tactics_form
    from firmware.screens.sword.text import _
    from firmware.screens.sword.tracks import unrest_form
    hyphen = re.compile(r"(?<![A-Za-z])-\d")                        # «W-1», a rule's name, is no figure

    def shown(*lines: str) -> list[str]:
        ctx = FakeCtx("new sword players=romans,gauls,carthage seed=2", *lines, lang=lang)
        screen = result_screen(ctx.view()["last"])
        assert screen is not None
        ctx.open(screen)
        texts = ctx.texts()
        return texts + list(screen.rows()) if isinstance(screen, BattleResult) else texts
    try:
        naval = shown("naval die=3 mod=-1")
        assert _("Naval {}{} = {}").format(3, "−1", 2) in naval, naval
        assert "2+5−1=6" in shown("check siege dice=2,5 gauls=1")            # W-9: the Gauls besieging −1
        assert "4−1 = 3" in shown("tactics 3 mod=-1 die=4")                  # W-1
        rows = " ".join(shown("battle att=3 def=3 mod=-2 defmod=1 att-dice=6,5,4 def-dice=2,1,1"))
        assert f"{_('Attack')} 6 5 4 −2=13" in rows and f"{_('Defence')} 2 1 1 +1=5" in rows, rows   # W-2
        ctx = FakeCtx("new sword players=romans,gauls,carthage seed=2", lang=lang)
        ctx.open(unrest_form(ctx)).press(*["right"] * 4)                     # W-13: unrest 4
        status = _("hand {}, VP {}").format("−2", "−1")
        assert status in ctx.texts(), ctx.texts()
        ctx.press("a")
        assert ctx.notes[-1] == _("Unrest {}: hand size {}, VP {}.").format(4, "−2", "−1"), ctx.notes
        seen = naval + rows.split() + [status, ctx.notes[-1]]
        for form in (battle_form(ctx), tactics_form(), naval_form(ctx)):     # the modifier rows, one below 0
            ctx.open(form)
            ctx.press(*["down"] * (2 if form.fields[0].key == "att" else form.fields[0].key == "rating"), "left")
            texts = ctx.texts()
            assert "<−1>" in texts, texts                                 # the cursor row's figure
            assert all(len(t) <= base.COLS for t in texts), texts
            seen += texts
        assert not [t for t in seen if hyphen.search(t)], seen
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("line, name", [
    ("battle att=5 def=2 att-dice=6,6,6 def-dice=1,1,1", "defender"),                 # eliminated
    ("battle att=1 att-flank=2 def=3 att-dice=1,5,5 def-dice=6,6,6", "attacker"),     # eliminated, flankers too
    ("battle att=2 att-flank=3 def=5 att-dice=1,2,2 def-dice=6,3,3", "attacker"),     # its army lost, flankers left
    ("battle att=5 def=2 def-flank=3 att-dice=5,2,2 def-dice=2,2,2", "defender"),     # the defender's
], ids=["eliminated", "all-lost", "army-lost", "defender-army-lost"])
def test_what_8_4_does_to_a_lost_army_s_leaders_takes_seven_rows_at_most(lang, line, name):  # seed 8.4
    """The sentence on a lost army's leaders took 8-9 rows (a side eliminated) and 11-13 (its army
    lost, flanking units left) of the panel's four a page: three or four presses to read one rule.
    Said in the rulebook's terms in seven rows at most now, in every language, whole on the result:
    a side eliminated took eight in ru/uk, «(8.4).» alone on the last; the rule's number now follows
    the displacement it names, and the seed's «станет активным» stays."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.battle import left_alone
    try:
        ctx = FakeCtx(NEW, line, lang=lang).open(SwordHome()).press(*["down"] * 8, "a")
        result = ctx.top.result
        said = left_alone(name, result[name], 0)
        assert said is not None, result
        rows = base.wrap(said)
        eliminated = result[name]["eliminated"]              # was 8 / 9 / 9 rows; army lost: 11 / 13 / 13
        assert len(rows) <= ({"en": 6}.get(lang, 7) if eliminated else 7), rows
        shown = ctx.top.rows()
        at = shown.index(rows[0])
        assert shown[at:at + len(rows)] == rows
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_battle_result_is_read_with_a_to_its_loss_table_and_closed(lang):  # W-2..W-5, docs/keys.md
    """A on the battle result opened the loss table from any page, the result's second page (the
    support, what 8.4 does to the leaders) unread, and A on the table came back to the result's
    first page: A never closed it. Now A reads on, a page at a time, to the loss table last, under
    the row that names it, and closes the result on the last page, as every text."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.text import _
    try:
        ctx = FakeCtx(NEW, "battle att=5 def=2 att-dice=6,6,6 def-dice=1,1,1", lang=lang)
        ctx.open(SwordHome()).press(*["down"] * 8, "a")
        result = ctx.top
        assert isinstance(result, BattleResult)
        rows = result.rows()
        heading = rows.index(_("Loss table (W-4):"))
        assert heading > base.ROWS and not any(r == "" for r in rows), rows            # after the result, no gap
        seen: list[str] = []
        presses = 0
        while ctx.top is result:
            top = result.scroll.top
            seen += rows[top:top + base.ROWS]
            ctx.press("a")
            presses += 1
        assert isinstance(ctx.top, SwordHome)                                        # closed on the last page
        assert presses == -(-len(rows) // base.ROWS), (presses, rows)                # a press a page
        assert set(rows) <= set(seen), [r for r in rows if r not in seen]            # every row read
        texts = " ".join(rows[heading:])
        assert texts.count(":") >= 6 + 2                                            # each die, each side
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang, said", [
    ("ru", ["Поддержка +3 защите", "Поддержка +12 атаке"]),
    ("uk", ["Підтримка +3 захисту", "Підтримка +12 атаці"])])
def test_the_winner_s_support_is_one_row_in_every_language(lang, said):  # W-5
    """«Поддержка +3 (защитник)»: the winner's word in brackets after a sentence made without it
    took two rows of the panel's four, and a press more to read the result in one battle of four.
    One sentence a side now, one row, up to a two-digit support (W-7's +3; 24 units lost: +12)."""
    from firmware import i18n
    from firmware.screens import base
    try:
        for line, want in zip([W7, "battle att=30 def=24 mod=9 defmod=-9 retreat=20 att-dice=6,6,6 def-dice=1,1,1"],
                              said):
            ctx = FakeCtx(NEW, line, lang=lang).open(SwordHome()).press(*["down"] * 8, "a")
            assert want in ctx.top.rows(), ctx.top.rows()
            assert base.wrap(want) == [want]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang, most", [("en", 1), ("ru", 2), ("uk", 2)])
def test_the_retreat_losses_hint_fits_its_rows(lang, most):  # W-5
    """The result's hint «Hold A: retreat losses» was 22 characters: on the panel's 21 it wrapped,
    «losses» alone on a second row. One row in en now (20 characters), two in ru/uk, none cut, as
    the result shows them."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.text import _
    try:
        ctx = FakeCtx(NEW, W7, lang=lang).open(SwordHome()).press(*["down"] * 8, "a")
        rows = ctx.top.rows()
        hint = base.wrap(_("Hold A: retreat loss"))
        at = rows.index(hint[0])
        assert rows[at:at + len(hint)] == hint and len(hint) <= most, hint
        assert all(len(row) <= 20 for row in hint), hint
    finally:
        i18n.set_language("en")
