"""Golden screens (pixel-exact, through luma's dummy device) and screen behaviour."""
from collections.abc import Iterator
from contextlib import contextmanager
import os
import re

import pytest

from engine import actions as act

from firmware import i18n
from firmware.screens import base
from firmware.screens.widgets import ConfirmScreen
from tests.screens import YES, app_with, assert_golden, drawn, say_yes, undo_by_link

CASES = {
    "menu": ([], []),
    "menu_uk": ([], [], "uk"),
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
    "undo_confirm_ru": (["new dice seed=3", "roll 2d6"], ["b:hold"], "ru"),
    "settings_ru": ([], ["down"] * 3 + ["a", "down"], "ru"),
    "dice_pick_ru": (["new dice seed=3", "roll 4d6"], ["a", "press", "right", "press", "right", "right"], "ru"),
    "dice_many": (["new dice seed=3", "roll 15d6"], ["a", "press", "right"]),
    "bag_presets": ([], ["down", "a", "down", "a"]),
    "bag_side": (["new caesar-solo seed=3", "kit new items=gold*3,silver*2 cards=legio*4", "kit draw"],
                 ["down", "down", "a", "down", "a"]),
    "bag_editor_uk": ([], ["down", "a", "down", "a", "a", "down", "right", "right", "down", "right", "up"], "uk"),
    "bag_type_name_ru": ([], ["down", "a", "down", "a", "a", "a", "right", "a", "down", "a"], "ru"),
    "menu_reopen_ru": (["new dice seed=3", "roll 3d6", "roll 2d6", "new jc-battle seed=1"],
                       ["down", "a"] + ["down"] * 4 + ["a", "a"], "ru"),
    "bag_card_ru": (["new bag cards=Т♠,В♥,Д♦,10♣ seed=3"], ["a", "a"], "ru"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    lines, keys, *lang = CASES[name]
    app = app_with(lines, keys, state_dir, lang=lang[0] if lang else "en")
    try:
        assert_golden(app.render(), name)
    finally:
        app.console.close()
        i18n.set_language("en")


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


def test_the_past_rolls_shown_follow_an_undo_and_the_serial_link(state_dir):
    """Past rolls lists the rolls kept now: after an undo of the last roll, or a roll over the
    serial link, the list shown is not the one of before (the undone roll stayed listed)."""
    app = app_with(["new dice seed=3", "roll 2d6", "roll 3d6"], ["a", "a:hold"], state_dir)
    try:
        assert _texts(app).startswith("Past rolls | 3d6")
        _undo_on_the_device(app)
        assert "3d6" not in _texts(app)
        assert '"ok":true' in app.serve_line(b"roll 1d20")
        assert not _texts(app).startswith("Past rolls") or "1d20" in _texts(app)
    finally:
        app.console.close()


def test_the_log_shown_follows_an_undo_and_the_serial_link(state_dir):
    """Main menu → Log lists the session's log as it is now: after an undo on the device, or a roll
    over the serial link, the list shown before is taken off (it kept the entries it opened with)."""
    from firmware.screens.menu import log_screen
    app = app_with(["new dice seed=3", "roll 2d6", "roll 3d6"], [], state_dir)
    try:
        shown = log_screen(app)
        app.push(shown)
        assert "3d6" in _texts(app)
        _undo_on_the_device(app)
        assert shown not in app.stack
        shown = log_screen(app)
        app.push(shown)
        app.render()
        assert '"ok":true' in app.serve_line(b"roll 1d20")
        app.render()
        assert shown not in app.stack
        app.push(log_screen(app))
        assert "1d20" in _texts(app)
    finally:
        app.console.close()


def test_reroll_from_the_screen_is_logged_as_such(state_dir):
    app = app_with(["new dice seed=1", "roll 3d6"], ["a", "press", "right", "press", "a"], state_dir)
    log = app.console.request("log 1")["log"]
    assert log == [log[0]] and log[0].startswith("Re-rolled die 2 of 3d6")
    app.console.close()


@pytest.mark.parametrize("lang,one,two,hint", [
    ("en", "Re-rolled die 2 of 3d6:", "Re-rolled dice 1, 3 of 3d6:", "Re-rolled die 2"),
    ("ru", "Переброшен кубик 2 из 3d6:", "Переброшены кубики 1, 3 из 3d6:", "Переброс кубика 2"),
    ("uk", "Перекинуто кубик 2 з 3d6:", "Перекинуто кубики 1, 3 з 3d6:", "Перекинуто кубик 2")])
def test_a_re_roll_of_one_die_is_said_in_the_singular(state_dir, lang, one, two, hint):
    """One die re-rolled (the most common re-roll) was said in the plural: «Переброшены кубики 2
    из 3d6», and the dice screen's «Переброшены: 2». Sentences stored before with the old words
    are still said translated (the old msgid stays in the catalog)."""
    from engine.dice import STORED_BEFORE
    from engine.text import Msg
    from firmware.i18n import say
    app = app_with(["new dice seed=1", "roll 3d6"], ["a", "press", "right", "press", "a"], state_dir, lang=lang)
    try:
        assert hint in _texts(app)
        assert app.run(act.reroll([1, 3]))["ok"]
        i18n.set_language(lang)
        said = [say(Msg(e["text"])) for e in app.console.request("actions")["actions"]]
        assert said[1].startswith(one) and said[0].startswith(two), said
        old = Msg(STORED_BEFORE[0], "2", "3d6", "1, 2, 3", 6)
        assert lang == "en" or not say(old).startswith("Re-rolled")
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang,reroll,hint", [
    ("en", "2,4", "Re-rolled dice 2, 4"), ("ru", "2,4", "Переброс кубиков 2, 4"),
    ("uk", "2,4", "Перекинуто кубики 2,4"),          # «…кубики 2, 4» is 22 columns: the list closes up
    ("en", "1,2,3", "Re-rolled dice 1,2,3"),   # «Re-rolled dice 1, 2, 3»: 22
    ("ru", "1", "Переброс кубика 1"), ("uk", "1,2,3,4,5", "Перекинуто 5 кубиків"),   # too many to list
    ("ru", "1,2,3,4,5", "Переброс: 5 кубиков"), ("en", "1,2,3,4,5", "Re-rolled 5 dice")])
def test_the_dice_screen_says_which_dice_were_re_rolled_as_dice(state_dir, lang, reroll, hint):
    """The hint under a re-rolled roll named the dice's places with no noun («Переброшены: 2, 3»:
    two dice? faces 2 and 3?): it says «dice 2, 3», the same words as the log's «Re-rolled dice 2, 3
    of …», in the row's 21 columns (the list closes up when «, » would not fit; a list that does not fit
    even so, cut to «1,…», is said as how many dice)."""
    app = app_with(["new dice seed=3", "roll 5d6", f"reroll {reroll}"], ["a"], state_dir, lang=lang)
    try:
        rows = [t for _x, y, t, _k in drawn(app) if y == base.row_y(3)]
        assert rows == [hint] and all(len(t) <= base.COLS for t in rows)
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang,two,one", [
    ("en", "re-rolled dice 2, 3", "re-rolled die 2"), ("ru", "переброс кубиков 2, 3", "переброс кубика 2"),
    ("uk", "перекинуто кубики 2, 3", "перекинуто кубик 2")])
@pytest.mark.parametrize("places", ["2", "2,3"])
def test_past_rolls_name_the_re_rolled_dice_as_dice(state_dir, lang, two, one, places):
    """Past rolls said «4d6 = 13 (4 4 4 1), переброс 2, 3»: faces or dice? The places re-rolled are
    named as dice, in the number the list has, as the roller's hint and the log say them."""
    app = app_with(["new dice seed=3", "roll 4d6", f"reroll {places}"], ["a", "key3"], state_dir, lang=lang)
    try:
        shown = " ".join(t for _x, y, t, _k in drawn(app) if y > base.TITLE_H)
        assert re.match(r"4d6 = \d+ \((\d ){3}\d\), " + (two if "," in places else one) + r"(?!\S)", shown), shown
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang,no_more", [("en", "No more rolls here."), ("ru", "Бросков больше нет."),
                                           ("uk", "Кидків більше немає.")])
def test_the_roller_resumed_on_an_ended_dice_session_shows_its_rolls(state_dir, lang, no_more):
    """Resume on a dice session the players ended: the roller asked for its rolls, was refused
    (game over) and showed none — «A rolls the dice.» over a session that had rolled, Past rolls
    «No rolls yet.». It shows the last roll kept, says it rolls no more, and Past rolls lists them."""
    from firmware.screens.kit.dice import DiceScreen
    app = app_with(["new dice seed=3", "roll 2d6", "reroll 1", "end"], ["a"], state_dir, lang=lang)
    try:
        dice = app.stack[-1]
        assert isinstance(dice, DiceScreen)
        rolls = app.console.request("state")["state"]["rolls"]
        texts = [t for _x, _y, t, _k in drawn(app)]
        assert no_more in texts and i18n.say("Ended") in texts and i18n.say("A rolls the dice.") not in texts
        assert str(rolls[-1]["total"]) in _texts(app)
        app.handle("press")                                   # no picking of dice it will not roll:
        assert not dice.picking and app.stack[-1] is not dice     # a notice says why
        app.handle("b")
        assert app.stack[-1] is dice
        app.handle("key3")                                    # Past rolls: both, newest first
        shown = " ".join(t for _x, y, t, _k in drawn(app) if y > base.TITLE_H)
        faces = [" ".join(map(str, r["dice"])) for r in reversed(rolls)]
        assert shown.index(f"({faces[0]})") < shown.index(f"({faces[1]})"), shown
    finally:
        app.console.close()
        i18n.set_language("en")


def test_an_undo_while_picking_dice_to_re_roll_ends_the_picking(state_dir):
    """Picking the dice of the last roll to roll again, then an undo (hold B here, or the serial
    link) takes that roll back: the picks were of a roll that is gone, so the screen leaves the
    picking and A rolls the fields' dice, never a re-roll of dice nobody picked."""
    app = app_with(["new dice seed=3", "roll 2d6", "roll 5d6"],
                   ["a", "press", "right", "right", "right", "press"], state_dir)    # die 4 of 5d6 picked
    try:
        screen = app.stack[-1]
        assert screen.picking and screen.chosen == {3}
        for key in ("b:hold", "a", "b"):                 # undo the 5d6, the notice closes
            app.render()
            app.handle(key)
        assert app.console.session.lines == ["roll 2d6"] and app.stack[-1] is screen
        from tests.screens import drawn
        shown = [t for _x, _y, t, _k in drawn(app)]
        assert "Re-roll which?" not in shown and "A: re-roll 1 die" not in shown, shown
        app.handle("a")                                  # A: a roll of the fields, no refused re-roll
        assert app.console.session.lines[-1].startswith("roll ") and app.message is None
        app.handle("press")
        app.handle("press")                              # die 1 of the new roll picked
        assert app.serve_line(b"roll 3d6").startswith('{"ok":true')    # the serial link rolls meanwhile
        app.render()
        assert not screen.picking and not screen.chosen
    finally:
        app.console.close()


def test_left_on_the_first_die_picked_goes_back_as_in_every_row_of_dice(state_dir):
    """Picking dice to roll again: left on the first die leaves the picking (as B does), as left on
    the first die goes back in the dice entry (Julius Caesar, the Sword of Rome), the players'
    share dice and the roller's own fields; it did nothing there. Held left stops at the first die."""
    app = app_with(["new dice seed=3", "roll 3d6"], ["a", "press", "right", "press"], state_dir)   # die 2 picked
    try:
        screen = app.stack[-1]
        assert screen.picking and screen.chosen == {1}
        app.handle("left")
        assert screen.picking and screen.pick == 0
        app.handle("left:repeat")                        # held: stops at the first die
        assert screen.picking and screen.pick == 0 and app.stack[-1] is screen
        app.handle("left")
        assert not screen.picking and not screen.chosen and app.stack[-1] is screen
        app.handle("a")                                  # A rolls the fields' dice again, no re-roll
        lines = app.console.session.lines
        assert len(lines) == 2 and lines[-1].startswith("roll 3d6"), lines
    finally:
        app.console.close()


def test_long_b_asks_then_undoes_the_named_step(state_dir):
    app = app_with(["new bag items=a*3 seed=1", "draw"], [], state_dir)
    app.handle("b:hold")
    assert isinstance(app.stack[-1], ConfirmScreen)
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
    app = app_with([], ["down"] * 3 + ["a", "down", "right"], state_dir)   # contrast 3 -> 4
    assert app.settings["contrast"] == "4"
    app.console.close()
    again = app_with([], [], state_dir)
    assert again.settings["contrast"] == "4"
    again.console.close()


def _read_through_and_say_yes(app) -> None:
    """A on the board's question (Buttons, Display) until it says yes: A brings up the rows below
    the ones shown first (tests/test_settings_screen.py)."""
    question = app.stack[-1]
    for _ in range(10):
        app.handle("a")
        if question not in app.stack:
            return
    raise AssertionError("the question never said yes")


@pytest.mark.parametrize("row, name", [(3, "profile"), (4, "driver")])
def test_the_buttons_and_the_display_change_only_after_a_question(state_dir, row, name):
    """A nudge on Settings → Buttons made the next start read the other board's pins and open its
    panel: an Adafruit bonnet set to Waveshare starts with a dark panel and dead keys. Changing the
    board's Buttons or Display asks first (B keeps it)."""
    from firmware.screens.widgets import ConfirmScreen
    app = app_with([], ["down"] * 3 + ["a"] + ["down"] * row, state_dir)   # Settings → the row
    try:
        before = app.settings[name]
        app.handle("right")
        assert isinstance(app.stack[-1], ConfirmScreen) and app.settings[name] == before
        app.handle("b")                                             # keep it
        assert app.settings[name] == before
        app.handle("left")
        _read_through_and_say_yes(app)                              # yes (A reads its rows below first)
        assert app.settings[name] != before and app.message is not None
        again = app.settings[name]
        app.message = None
        app.handle("a")                                             # A on the row asks too
        assert isinstance(app.stack[-1], ConfirmScreen) and app.settings[name] == again
    finally:
        app.console.close()


def test_a_setting_the_card_refuses_is_said_on_the_panel_never_claimed(state_dir, monkeypatch):
    """QA (faults): on a full or read-only card a setting changed on the device was refused in
    silence (the value just sprang back), a language chosen likewise, and a board setting
    confirmed said "Takes effect at the next start." though nothing was kept. Each says why."""
    from engine.text import Msg
    from firmware.storage import StorageError
    from firmware.store import Store
    full = "The storage is full: nothing was changed. Free some space; Legatus goes on by itself."

    def refused(self, *_):
        raise StorageError(Msg(full))

    def shown() -> str:
        return _texts(app).replace(" | ", " ")
    app = app_with([], ["down"] * 3 + ["a", "down"], state_dir)     # Settings → Contrast
    try:
        monkeypatch.setattr(Store, "save_settings", refused)
        app.handle("right")                                           # contrast 3 → 4: refused
        assert app.settings["contrast"] == "3" and "storage is full" in shown()
        app.handle("b")                                               # the notice closes
        app.handle("up")
        app.handle("a")                                               # Language
        app.handle("down")
        app.handle("a")                                               # Русский: refused
        assert app.settings["language"] == "en" and "storage is full" in shown()
        app.handle("b")                                               # the notice closes: Settings
        for _ in range(3):
            app.handle("down")                                        # Buttons
        before = app.settings["profile"]
        app.handle("right")
        assert isinstance(app.stack[-1], ConfirmScreen)
        _read_through_and_say_yes(app)                                # yes: refused
        assert app.settings["profile"] == before
        assert "storage is full" in shown() and "next start" not in shown()
    finally:
        app.console.close()


def test_bad_setting_is_refused_and_changes_nothing(console):
    r = console.request("settings contrast=9")
    assert r["error"] == "bad_arguments" and "contrast takes" in r["message"]
    assert console.request("settings")["settings"]["contrast"] == "3"


def test_text_wraps_within_the_screen_width():
    rows = base.wrap("Place sword 5/1 on Sicilia|Italia, 5 toward Sicilia")
    assert all(len(r) <= base.COLS for r in rows) and " ".join(rows).startswith("Place sword 5/1")


def test_an_indented_paragraph_keeps_its_indent_on_every_row():
    """Statistics and Caesar!'s score page indent a figure under the name it belongs to («Анна» /
    «  1 game»): the wrap dropped the spaces, every row stood flush left and the next name read
    as one more figure. Each row of an indented paragraph keeps the indent, within the width."""
    assert base.wrap("Анна\n  1 партия") == ["Анна", "  1 партия"]
    rows = base.wrap("  осталось жетонов контроля: 12")
    assert rows == ["  осталось жетонов", "  контроля: 12"] and all(len(r) <= base.COLS for r in rows)
    assert base.wrap("  ") == [""] and base.wrap("a\n\n  b") == ["a", "", "  b"]


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


def _texts(app) -> str:
    base.TRACE = []
    try:
        app.render()
        return " | ".join(t for _, _, t, _ in base.TRACE)
    finally:
        base.TRACE = None


def test_settings_language_item_opens_the_list_and_the_menu_follows_the_choice(state_dir):
    app = app_with([], ["down"] * 3 + ["a", "a"], state_dir)       # Settings -> Language
    from firmware.screens.language import LanguageScreen
    assert isinstance(app.stack[-1], LanguageScreen)
    app.handle("down")                                             # Русский
    app.handle("a")
    assert app.settings["language"] == "ru" and i18n.language() == "ru"
    assert "Настройки" in _texts(app) and "Язык" in _texts(app)
    app.handle("b")
    assert "Кубики и мешочки" in _texts(app)
    app.console.close()


def test_the_language_list_opens_on_the_language_in_use(state_dir):
    """A list to choose from opens on the current choice (✓): A there keeps it, never switches a
    Russian or Ukrainian player to English."""
    for lang, name in (("ru", "Русский"), ("uk", "Українська")):
        app = app_with([f"settings language={lang}"], ["down"] * 3 + ["a", "a"], state_dir)   # Settings -> Language
        try:
            screen = app.stack[-1]
            assert screen.items(app)[screen.cursor].label == name
            app.handle("a")
            assert app.settings["language"] == lang
        finally:
            app.console.close()


def test_a_bag_beside_a_running_game_leaves_the_game_going(state_dir):
    app = app_with(["new jc-battle seed=4"], [], state_dir)
    game_state = app.console.session.state
    # Dice & bags -> Bags & decks -> the first preset of metals, then draw once
    for key in ["down", "down", "a", "down", "a", "down", "down", "a", "a"]:
        app.handle(key)
    session = app.console.session
    assert session.game.name == "jc-battle" and session.lines[0].startswith("kit new items=")
    assert session.lines[-1] == "kit draw"
    kit = app.console.request("kit-state")["kit"]
    assert kit["bag"]["size"] == 8 and len(kit["bag"]["drawn"]) == 1
    after = session.state
    # the game's own state is untouched (only the shared generator and the side kit moved)
    assert {k: v for k, v in after.items() if k not in ("kit", "rng")} == \
        {k: v for k, v in game_state.items() if k not in ("kit", "rng")}
    app.handle("a")                       # leave the drawn item's screen
    app.handle("b:hold")                  # undo takes back the draw only
    app.handle("a")
    assert app.console.request("kit-state")["kit"]["bag"]["size"] == 9
    assert app.console.session.game.name == "jc-battle"
    app.console.close()


def _undo_on_the_device(app) -> None:
    app.handle("b:hold")
    app.render()
    app.handle("a")                       # yes, take it back
    app.render()
    app.handle("b")                       # the note closes
    app.render()


def _kit_texts(app) -> str:
    """What the bag's own screen shows (the one under a screen taken off)."""
    from firmware.screens.kit.bag import KitScreen
    return _texts(app) if isinstance(app.stack[-1], KitScreen) else "(not the bag's screen)"


def test_an_undone_draw_takes_the_drawn_item_off_the_screen(state_dir):
    """The item drawn is shown; an undo takes the draw back: its screen goes (it stayed, showing
    an item that is in the bag again), and the same item comes back when drawn again."""
    from firmware.screens.kit.bag import KitScreen
    app = app_with(["new bag items=a*3,b*3 seed=1"], ["a", "a"], state_dir)     # the bag, Draw
    try:
        drawn = app.stack[-1].value
        assert app.console.session.lines == ["draw"]
        _undo_on_the_device(app)
        assert list(app.console.session.lines) == [] and isinstance(app.stack[-1], KitScreen)
        assert "6 in bag" in _texts(app)
        app.handle("a")
        assert app.stack[-1].value == drawn                    # not drawn again: the same item
    finally:
        app.console.close()


def test_the_bag_contents_shown_follow_an_undo_and_the_serial_link(state_dir):
    """"In the bag" counts what is in it now: after an undo of a draw, or a draw over the serial
    link, the counts shown are not the ones of before (they stayed)."""
    from firmware.screens.kit.bag import KitScreen
    app = app_with(["new bag items=a*3,b*3 seed=1", "draw"], ["a", "down", "down", "a"], state_dir)
    try:
        assert _texts(app) == "In the bag | a ×3 | b ×2"
        _undo_on_the_device(app)
        assert _texts(app) in ("In the bag | a ×3 | b ×3", _kit_texts(app))
        while not isinstance(app.stack[-1], KitScreen):
            app.handle("b")
        while app.stack[-1].items(app)[app.stack[-1].cursor].label != "In the bag":
            app.handle("down")
        app.handle("a")                                        # In the bag, again
        assert _texts(app) == "In the bag | a ×3 | b ×3"
        assert '"ok":true' in app.serve_line(b"draw")
        assert _texts(app) in ("In the bag | a ×2 | b ×3", "In the bag | a ×3 | b ×2", _kit_texts(app))
    finally:
        app.console.close()


def test_your_own_bag_with_a_typed_cyrillic_name_and_counts(state_dir):
    # Dice & bags -> Bags & decks -> Your own bag -> Type a name
    keys = ["down", "a", "down", "a", "a", "a"]       # (the fair-draw code box goes with the first key, which acts)
    app = app_with([], [], state_dir, lang="ru")
    for key in keys:
        app.render()
        app.handle(key)
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.widgets.keyboard import TypeScreen
    assert isinstance(app.stack[-1], TypeScreen)
    for key in ["a", "right", "a", "left", "a"]:
        app.handle(key)
    assert app.stack[-1].name == "аба"
    app.handle("left")                    # wraps to ✓ (done)
    app.handle("a")
    editor = app.stack[-1]
    assert isinstance(editor, BagEditor) and editor.entries == [["аба", 1]]
    app.handle("right")                   # 2 of them
    app.handle("down")                    # золото (the first common name)
    app.handle("right")
    assert editor.entries == [["аба", 2], ["золото", 1]]
    app.handle("a")                       # A on a count: Start
    view = app.console.session.view()
    assert view["game"] == "bag" and view["bag"]["left"] == {"аба": 2, "золото": 1}
    assert "аба" in app.console.session.header["line"]
    app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_your_own_bag_counts_every_common_name_in_place(state_dir, lang):
    """Your own bag is one form of counts: every common name is a row of it (right: one more, left:
    one less), so five names one each are counted without a second list opened at «Type a name…»
    for each of them (a bag of five named items and a draw took 49-79 presses; about 25 now). A on
    a count starts the bag, as A starts every form (it did nothing on a count); a common name typed
    is that name's row, not a second one."""
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.widgets.keyboard import TypeScreen
    app = app_with([], ["down", "a", "down", "a", "a"], state_dir, lang=lang)    # Your own bag
    try:
        editor = app.stack[-1]
        assert isinstance(editor, BagEditor)
        i18n.set_language(lang)
        names = [i18n._(w) for w in ("silver", "white", "red", "blue", "coin")]
        labels = [str(i.label) for i in editor.items(app)]
        assert set(names) <= set(labels), labels
        presses = 0
        for name in names:
            while str(editor.items(app)[editor.cursor].label) != name:
                app.handle("down")
                presses += 1
            app.handle("right")
            presses += 1
        app.render()
        assert editor.entries == [[n, 1] for n in names] and presses <= 5 + len(labels)
        app.handle("right")                           # two coins
        app.handle("left")
        app.handle("left")                            # none: no coin in the bag
        assert [n for n, _c in editor.entries] == names[:4]
        app.handle("up")
        app.handle("up")                              # (a row between: «token» is not counted)
        while editor.cursor:
            app.handle("up")                          # Type a name…
        app.handle("a")
        assert isinstance(app.stack[-1], TypeScreen)
        app.stack[-1].name = names[0]                 # the common name, typed
        app.handle("key3")                            # (hold A: done)
        assert app.stack[-1] is editor and [n for n, _c in editor.entries].count(names[0]) == 1
        assert str(editor.items(app)[editor.cursor].label) == names[0] and dict(editor.entries)[names[0]] == 2
        app.handle("a")                               # A on a count: Start
        view = app.console.session.view()
        assert view["game"] == "bag" and view["bag"]["left"] == {names[0]: 2, **{n: 1 for n in names[1:4]}}
    finally:
        app.console.close()
        i18n.set_language("en")


def _menu_to(app, label: str) -> None:
    """Down the top list to the row ``label``, then A."""
    screen = app.stack[-1]
    row = [str(i.label) for i in screen.items(app)].index(label)
    while screen.cursor < row:
        app.handle("down")
    app.render()
    app.handle("a")
    app.render()


def test_a_deck_started_beside_a_side_bag_on_the_device_keeps_the_bag(state_dir):  # PROTOCOL.md: one bag and/or deck
    """Bag beside the game → New bag or deck → Playing cards, with a token drawn from the side bag:
    the deck replaced the bag (its Draw row gone, the token never to be put back). Both stay."""
    from firmware.screens.kit.bag import KitScreen
    app = app_with(["new jc-battle seed=4", "kit new items=gold*3,silver*2", "kit draw"], [], state_dir)
    try:
        drawn = app.console.request("kit-state")["kit"]["bag"]["drawn"]
        _menu_to(app, "Dice & bags")
        _menu_to(app, "Bags & decks")
        _menu_to(app, "New bag or deck")
        _menu_to(app, "Playing cards")
        screen = app.stack[-1]
        assert isinstance(screen, KitScreen) and screen.side
        rows = [str(i.label) for i in screen.items(app)]
        assert "Draw" in rows and "Put back…" in rows and "Draw a card" in rows, rows
        kit = app.console.request("kit-state")["kit"]
        assert kit["bag"]["drawn"] == drawn and kit["bag"]["size"] == 4 and kit["deck"]["draw_pile"] == 52
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,title", [("en", "Bag beside the dice"), ("ru", "Мешочек при кубиках"),
                                        ("uk", "Торбинка біля кубиків")])
def test_a_bag_chosen_after_the_dice_says_it_is_beside_the_dice_not_a_game(state_dir, lang, title):
    """p16-newuser: opening Dice starts a dice session, so Bags & decks then went beside it and was
    titled «Торбинка біля гри» (a bag beside the game) with no game running. It says the dice,
    on the presets and on the bag once started; beside a game it still says the game."""
    from firmware.screens.kit.bag import KitScreen, PresetScreen
    app = app_with([], [], state_dir, lang=lang)
    try:
        i18n.set_language(lang)
        _menu_to(app, i18n._("Dice & bags"))
        _menu_to(app, i18n._("Dice"))
        assert app.console.session.view()["game"] == "dice"
        app.handle("b")
        app.render()
        _menu_to(app, i18n._("Bags & decks"))
        presets = app.stack[-1]
        assert isinstance(presets, PresetScreen) and presets.side and presets.title == title
        _menu_to(app, i18n._("5 white, 5 black"))
        kit = app.stack[-1]
        assert isinstance(kit, KitScreen) and kit.title == title
        app.render()
        assert app.console.request("new jc-battle seed=4")["ok"]        # a game now: beside the game
        app.render()
        assert kit.title == i18n._("Bag beside the game")
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("tool,there", [("Dice", "DiceScreen"), ("Bags & decks", "PresetScreen")])
@pytest.mark.parametrize("undo", ["serial", "device"])
def test_the_dice_and_bags_question_over_a_finished_game_goes_when_an_undo_reopens_it(state_dir, tool, there, undo):
    """Over a game its rules ended (W-11, the Sword's automatic victory), Dice & bags asks first:
    "The … game ends: …". An undo (``undo`` from the serial link, or hold B) took the victory
    back meanwhile, and the question stayed: A then put a dice or bag session in place of the
    game going on again. The question goes with the game it asked about; Dice & bags then goes
    beside the game, which goes on."""
    from firmware.screens.play import ReplaceQuestion
    app = app_with(["new sword players=romans,gauls", "victory romans"], [], state_dir)
    try:
        _menu_to(app, "Dice & bags")
        menu = app.stack[-1]
        _menu_to(app, tool)
        assert isinstance(app.stack[-1], ReplaceQuestion) and "game ends:" in app.stack[-1].question
        if undo == "serial":
            assert '"ok":true' in undo_by_link(app)
        else:
            _undo_on_the_device(app)
        assert app.stack[-1] is menu and app.errors == 0
        view = app.console.session.view()
        assert view["game"] == "sword" and not view["over"] and not view["ended"]
        _menu_to(app, tool)                           # no question now: beside the game
        assert type(app.stack[-1]).__name__ == there and app.console.session.view()["game"] == "sword"
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,asked", [
    ("en", "The Sword of Rome game ends and goes to the archive. Start the new bag?"),
    ("ru", "Игра (Меч Рима) окончится и уйдёт в архив. Начать новый мешочек?")])
def test_a_bag_chosen_for_a_finished_game_asks_once_an_undo_reopened_it(state_dir, lang, asked):
    """Over a game its rules ended (W-11) the players said yes to Dice & bags' question and came
    to the bags; an undo from the serial link then reopened the game, and the bag chosen put the
    game going on aside without a word (History: abandoned). It asks first now; B keeps the game."""
    from firmware.i18n import say
    from firmware.screens.kit.bag import KitScreen, PresetScreen
    app = app_with(["new sword players=romans,gauls", "victory romans"], [], state_dir, lang=lang)
    try:
        i18n.set_language(lang)
        _menu_to(app, i18n._("Dice & bags"))
        _menu_to(app, i18n._("Bags & decks"))
        say_yes(app)                                    # yes: a bag in place of the finished game
        app.render()
        presets = app.stack[-1]
        assert isinstance(presets, PresetScreen) and not presets.side
        assert '"ok":true' in undo_by_link(app)
        assert app.stack[-1] is presets
        _menu_to(app, i18n._("5 white, 5 black"))
        assert isinstance(app.stack[-1], ConfirmScreen) and say(app.stack[-1].question) == asked
        app.handle("b")                                    # no: the game goes on
        app.render()
        assert app.stack[-1] is presets and app.console.session.view()["game"] == "sword"
        _menu_to(app, i18n._("5 white, 5 black"))
        say_yes(app)                                    # yes
        app.render()
        assert isinstance(app.stack[-1], KitScreen) and app.console.session.view()["game"] == "bag"
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_every_key_of_the_name_keyboard_is_a_few_moves_from_every_other(lang):
    """Your own bag took a median of 47 presses, some 20 of them moving over the keyboard's rows of
    21 cells (up to 11 moves in English, 12 in Russian and Ukrainian, to go from one key to
    another). In rows of 10 (both ways wrap) every key, ✓ too, is at most 9 moves from any other,
    counted with the joystick keys of the typing screen itself."""
    from collections import deque
    from firmware.screens.widgets.keyboard import DONE, TypeScreen, keyboard
    i18n.set_language(lang)
    try:
        rows = keyboard(lang)

        def moved(at, key):
            screen = TypeScreen(lambda _c, _n: None)
            screen.row, screen.col, screen.top = at
            screen.key(key, None)
            return screen.row, screen.col, screen.top

        farthest = 0
        for r, row in enumerate(rows):
            for c in range(len(row)):
                seen, queue = {(r, c): 0}, deque([(r, c, min(r, max(0, len(rows) - base.ROWS + 1)))])
                while queue:
                    at = queue.popleft()
                    for key in ("up", "down", "left", "right"):
                        nxt = moved(at, key)
                        if nxt[:2] not in seen:
                            seen[nxt[:2]] = seen[at[:2]] + 1
                            queue.append(nxt)
                assert len(seen) == sum(map(len, rows))            # every key is reached
                farthest = max(farthest, *seen.values())
        assert farthest <= 9, farthest
        assert rows[0][-1] == DONE                                 # ✓: one step left of the first letter
    finally:
        i18n.set_language("en")


def test_the_bag_s_screen_after_a_new_bag_shows_every_row_again(state_dir):
    """The bag's own screen had five rows (a draw made: Put back…), its cursor on the last, New bag
    or deck; the new bag (nothing drawn yet) has four: the screen kept its page, Draw was hidden
    above a blank last row. It shows all four."""
    from firmware.screens.kit.bag import KitScreen
    app = app_with(["new bag items=a*3,b*3 seed=1", "draw"], ["a"], state_dir)      # Resume: the bag
    try:
        screen = app.stack[-1]
        assert isinstance(screen, KitScreen) and len(screen.items(app)) == 5
        _menu_to(app, "New bag or deck")
        app.render()
        _menu_to(app, "Numbers 1 to 12")
        assert app.stack[-1] is screen
        assert _texts(app) == "Bag & deck | Draw | 12 in bag | In the bag | History | 0 | New bag or deck"
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, empty, left", [("en", "empty", "1 left"), ("ru", "пусто", "ещё 1"),
                                               ("uk", "порожня", "ще 1")])
def test_an_emptied_bag_and_deck_say_so_beside_their_draw_rows(lang, empty, left, state_dir):
    """The deck drawn to its last card read «Взять карту  ещё 0» («one more: none», uk «ще 0»), the
    bag «Тянуть  0 внутри»: each row now says it is empty (a draw would be refused: shuffle the
    discards back in first); a deck with a card left still counts it."""
    app = app_with(["new bag items=a cards=x*2 seed=1", "card"], ["a"], state_dir, lang=lang)   # Resume: the bag
    try:
        rows = _texts(app).split(" | ")
        assert left in rows and empty not in rows
        assert app.run("card")["ok"] and app.run("draw")["ok"]
        rows = _texts(app).split(" | ")
        assert rows.count(empty) == 2, rows
        assert not any(r.split()[0] in ("0", "ещё", "ще") for r in rows if r.split()), rows
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_bag_item_is_named_as_a_thing_not_as_a_person(state_dir, lang):
    """Your own bag → Type a name: in Russian «Ввести имя…» and the keyboard's title
    «Введите имя», the words for a person's name (a player's keyboard says the same); an item's
    name is «название», as the Ukrainian «Ввести назву…» already said."""
    from firmware.i18n import say
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.widgets.keyboard import PERSON, TypeScreen
    app = app_with([], ["down", "a", "down", "a", "a"], state_dir, lang=lang)    # Your own bag
    try:
        assert isinstance(app.stack[-1], BagEditor)
        typed = str(app.stack[-1].items(app)[0].label)
        app.handle("a")
        app.render()
        assert isinstance(app.stack[-1], TypeScreen)
        title = say(app.stack[-1].title)
        i18n.set_language(lang)
        person = say(i18n._(PERSON))
        assert title != person and "имя" not in typed + title, (typed, title, person)
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang,title,empty", [
    ("en", "Your own deck", "Add at least one card first: right on a name adds one."),
    ("ru", "Своя колода", "Сначала добавьте хотя бы одну карту: вправо на названии — плюс одна."),
    ("uk", "Своя колода", "Спершу додайте хоча б одну карту: вправо на назві — плюс одна.")])
def test_your_own_deck_asks_for_cards_not_items(state_dir, lang, title, empty):
    """Your own deck refused an empty deck with "Add at least one item first.": a deck holds cards.
    A on a name's count with nothing counted says how to count one (right), not only what is missing."""
    from firmware.screens.kit.bag import BagEditor
    app = app_with([], ["down", "a", "down", "a", "down", "a"], state_dir, lang=lang)    # Your own deck
    try:
        editor = app.stack[-1]
        assert isinstance(editor, BagEditor) and editor.kind == "cards"
        app.render()
        assert _texts(app).startswith(title)
        app.handle("down")                                    # the first name's count, none
        app.handle("a")
        assert empty in " ".join(_texts(app).split(" | ")) and app.console.session is None
    finally:
        app.console.close()
        i18n.set_language("en")


def test_b_asks_before_the_bag_being_made_is_lost(state_dir):
    """The bag made item by item (a typed name: ~40 presses) is not lost to one slip of B: B asks
    first; with nothing in it yet, B goes straight back."""
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.widgets import ConfirmScreen
    app = app_with([], ["down", "a", "down", "a", "a"], state_dir)       # Your own bag
    try:
        editor = app.stack[-1]
        assert isinstance(editor, BagEditor)
        app.handle("b")                                                     # empty: back at once
        assert app.stack[-1] is not editor and not isinstance(app.stack[-1], ConfirmScreen)
        app.handle("a")
        editor = app.stack[-1]
        app.handle("down")
        app.handle("right")                                                 # one gold
        assert editor.entries and app.stack[-1] is editor
        app.handle("b")
        assert isinstance(app.stack[-1], ConfirmScreen)
        app.handle("b")                                                     # no: the bag is still there
        assert app.stack[-1] is editor and editor.entries
        app.handle("b")
        app.handle("a")                                                     # yes: leave it
        assert editor not in app.stack
    finally:
        app.console.close()


def test_an_empty_own_bag_is_not_started(state_dir):
    app = app_with([], ["down", "a", "down", "a", "a", "down", "a"], state_dir)   # Start at once
    assert app.console.session is None and app.message
    app.console.close()


def test_the_bag_list_keeps_the_cursor_on_the_same_action_when_rows_appear(state_dir):
    app = app_with(["new bag items=gold*3 cards=legio*4 seed=5"], ["a"], state_dir)
    labels = [i.label for i in app.stack[-1].items(app)]
    app.handle("down")
    app.handle("down")                    # "Draw a card" (no "Put back…" yet)
    assert labels[2] == "Draw a card"
    app.console.request("draw")           # a draw at the table adds "Put back…" above it
    app._view_stale = True
    app.render()
    screen = app.stack[-1]
    assert screen.items(app)[screen.cursor].label == "Draw a card"
    app.console.close()


def test_the_reroll_cursor_is_drawn_on_the_die_it_points_at(state_dir):
    app = app_with(["new dice seed=3", "roll 4d6"], ["a", "press"], state_dir)
    first = app.render()
    app.handle("right")
    second = app.render()
    from PIL import ImageChops
    box = ImageChops.logical_xor(first.convert("1"), second.convert("1")).getbbox()
    # only the dice area changes: the frame left the first die and is on the second
    assert box is not None and box[0] < 20 and box[1] >= base.row_y(1) - 2 and box[3] <= base.row_y(3) + 1
    app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_common_screens_show_no_console_syntax_and_no_cut_rows(state_dir, lang):
    from scripts.presses.harness import CONSOLE_SYNTAX
    app = app_with(["new bag items=gold*3,серебро*2 cards=legio*4 seed=5", "draw", "card"], [], state_dir,
                   lang=lang)
    seen = []
    walks = [["a"], ["a", "down", "a"], ["a", "down", "down", "a"], ["up", "a"], ["up", "up", "a"],
             ["up", "up", "up", "a"], ["down", "down", "a"], ["down", "down", "a", "a"],
             ["down", "down", "a", "down", "a"], ["down", "down", "a", "down", "a", "a", "a"],
             ["down", "down", "a", "down", "a", "down", "a"], ["b:hold"]]
    for walk in walks:
        app.stack = app.stack[:1]
        app.message = None
        for key in walk:
            app.handle(key)
        base.TRACE = []
        try:
            app.render()
            drawn = list(base.TRACE)
        finally:
            base.TRACE = None
        for x, _y, t, kind in drawn:
            seen.append(t)
            assert x + len(t) * base.advance(kind) <= base.W + 1, (walk, t)
            assert not CONSOLE_SYNTAX.search(t), (walk, t)
            assert not base.missing(t, kind), (walk, t)
    assert any("серебро" in t for t in seen) or lang == "en"
    app.console.close()


def test_the_main_menu_cursor_stays_on_its_item_when_a_resume_row_appears(state_dir):
    app = app_with([], ["down", "a", "a", "b", "b"], state_dir)   # Dice & bags -> Dice (starts dice), back
    menu = app.stack[-1]
    assert app.console.session is not None
    assert menu.items(app)[0].key == "resume" and menu.items(app)[0].label == "▶ Dice"
    app.render()
    assert menu.items(app)[menu.cursor].label == "Dice & bags"
    app.console.close()


def test_an_archived_session_can_be_reopened_at_its_last_step(state_dir, monkeypatch):
    """Earlier games lists the sessions and counts their steps without reading their actions (a
    long session costs the list nothing); its lines are read, checked, when it is reopened."""
    from firmware.store import kept
    read: list[int] = []
    lines_of = kept.effective_lines
    monkeypatch.setattr(kept, "effective_lines", lambda db, sid: read.append(sid) or lines_of(db, sid))
    app = app_with(["new dice seed=3", "roll 3d6", "roll 2d6", "undo", "roll 4d6",
                    "new bag items=gold*2 seed=1", "draw"], [], state_dir)
    rolls = app.console.request("rolls 5")["rolls"]
    assert rolls == []                                   # the bag session is current
    app.console.request("state")
    for key in ["down", "a"]:                            # Games (after Resume)
        app.handle(key)
    for _ in range(9):
        app.handle("down")                               # Earlier games… (the last item: no wrap)
    app.handle("a")
    from firmware.screens.archive import ArchiveScreen
    screen = app.stack[-1]
    assert isinstance(screen, ArchiveScreen) and screen.items(app)[0].label == "Dice"
    app.handle("a")                                      # the dice session -> asks first
    assert isinstance(app.stack[-1], ConfirmScreen)
    assert "2 steps" in " ".join(app.stack[-1].rows) and "archived" in " ".join(app.stack[-1].rows)
    assert read == []                                    # listed and counted, not read
    say_yes(app)
    assert len(read) == 1                                # read once, to be replayed
    session = app.console.session
    assert session.game.name == "dice" and session.lines == ["roll 3d6", "roll 4d6"]
    reopened = [r["dice"] for r in app.console.request("rolls 5")["rolls"]]
    assert len(reopened) == 2 and len(reopened[0]) == 3 and len(reopened[1]) == 4
    assert len(app.stack) == 1 and app.message                    # back at the menu, told how to go on
    assert app.stack[0].items(app)[0].label == "▶ Dice"
    # the bag session that was running is in the archive now, and can come back the same way
    from firmware.screens.archive import archived
    assert [a.game for a in archived(app.archives())][:2] == ["bag", "dice"]
    app.console.close()


@pytest.mark.parametrize("lang,asked", [
    ("ru", "Вернуть игру «Во славу Рима» (0 шагов)? Текущая игра уйдёт в архив."),
    ("uk", "Повернути гру «На славу Риму» (0 кроків)? Поточна гра піде в архів.")])
def test_the_question_before_reopening_an_earlier_game_names_it_as_a_reader_expects(state_dir, lang, asked):
    """Russian read "Вернуть игру Во славу Рима (0 шагов)? Текущая — в архив.": a title run into
    the sentence (with Цезарь! its "!" before the "?") and a clipped second sentence; a title in a
    sentence stands in «», as the console's messages have it."""
    app = app_with(["new glory players=Ann,Bob seed=2", "new dice seed=1"], ["down", "a"] + ["down"] * 9 + ["a", "a"],
                   state_dir, lang=lang)
    try:
        assert isinstance(app.stack[-1], ConfirmScreen)
        assert " ".join(app.stack[-1].rows) == asked
    finally:
        app.console.close()


def test_an_earlier_game_whose_day_is_not_known_shows_no_day(state_dir, monkeypatch):
    """QA (clock): a session imported from an older Legatus's journal files was kept with no time
    it was left (NULL): Earlier games showed it as left on «01.01» (the epoch, 31.12 west of
    Greenwich), a wrong day given as a sure one. It shows the day its journal was last written (the
    update keeps that as the time it was left), never the epoch's; a session left at a known time
    shows its day in local time."""
    import datetime as dt
    import time

    from firmware import history, journal
    from firmware.screens.archive import ArchiveScreen, archived
    old = [{"v": 1, "game": "dice", "line": "new dice seed=4", "seed": 4, "sid": "older"}, {"line": "roll 2d6"}]
    (state_dir / "archive").mkdir()
    (state_dir / "archive" / "0001.journal").write_bytes(b"".join(journal.encode(r) for r in old))
    written = dt.datetime(2025, 7, 14, 12, 0, tzinfo=dt.timezone.utc).timestamp()
    os.utime(state_dir / "archive" / "0001.journal", (written, written))
    left = dt.datetime(2026, 3, 29, 0, 30, tzinfo=dt.timezone.utc).timestamp()     # 02:30 in Kyiv, a DST night
    monkeypatch.setattr(time, "time", lambda: left)
    monkeypatch.setattr(history, "_clock_unsynced", lambda: False)     # (a clock set: no «~» before the day)
    app = app_with(["new bag items=gold*2 seed=1", "draw", "new dice seed=3"], [], state_dir)
    try:
        items = ArchiveScreen(archived(app.archives())).items(app)
        day = dt.datetime.fromtimestamp(left).strftime("%d.%m")
        # (the imported one's day is its journal's last write, marked «~» as History marks its games)
        assert [(i.label, i.value) for i in items] == [("Bag & deck", day), ("Dice", "~14.07")]
    finally:
        app.console.close()


def test_earlier_games_lists_its_older_sessions_a_page_at_a_time_never_hides_them():
    """QA: Games → Earlier games listed the newest 40 archived sessions and nothing else, with
    nothing to say that more were kept: the 41st session left could no longer be reopened on the
    device. "Older games…" under the list lists 40 more, the cursor on the first of them, as long
    as older ones are kept; one of them reopens as any other."""
    from firmware.screens.archive import MAX_LISTED, ArchiveScreen, open_archive
    from tests.fakectx import FakeCtx, _Root
    kept = [{"header": {"game": "dice", "line": f"new dice seed={n}", "seed": n, "sid": f"s{n}", "v": 2},
             "lines": [], "ended": 0.0} for n in range(MAX_LISTED + 5, 0, -1)]        # newest first
    ctx = FakeCtx()
    ctx.stored_archives = kept
    ctx.open(_Root())                                                           # (the Games menu's place)
    open_archive(ctx)
    screen = ctx.top
    assert isinstance(screen, ArchiveScreen)
    labels = [str(i.label) for i in screen.items(ctx)]
    assert labels == ["Dice"] * MAX_LISTED + ["Older games…"]
    ctx.press(*["down"] * MAX_LISTED, "a")
    ctx.render()
    labels = [str(i.label) for i in screen.items(ctx)]
    assert labels == ["Dice"] * (MAX_LISTED + 5)                                # every one, none twice
    assert screen.cursor == MAX_LISTED and [a.header["seed"] for a in screen.found][MAX_LISTED:] == [5, 4, 3, 2, 1]
    ctx.press(*["down"] * 4, "a")                                               # the oldest: asks, then reopens
    ctx.press("a")
    assert ctx.session is not None and ctx.session.header["seed"] == 1


def test_a_finished_game_reopened_again_and_again_is_recorded_once(state_dir):
    """History keeps a game once however often it is reopened from Earlier games (its fingerprint:
    the same new line, seed and lines); a game played on from there is a game of its own."""
    from firmware import history
    from firmware.screens.archive import archived, reopen
    app = app_with(["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight",
                    "new dice seed=1"], [], state_dir)
    try:
        for _ in range(3):
            jc = next(a for a in archived(app.archives()) if a.game == "jc-battle")
            assert reopen(app, jc) and app.console.session.game.name == "jc-battle"
        assert [e["part"] for e in history.games(app.console.store.db, None)] == ["battle-1"]
        for line in ("next-battle", "add attacker c_leg8", "add defender p_leg1", "fight"):
            assert app.run(line)["ok"], line
        assert [e["part"] for e in history.games(app.console.store.db, None)] == ["battle-2", "battle-1"]
    finally:
        app.console.close()


def test_the_same_draws_come_back_when_an_archived_bag_is_reopened(state_dir):
    app = app_with(["new bag items=a*3,b*3,c*3", "draw 3"], [], state_dir)
    drawn = app.console.session.view()["bag"]["drawn"]
    app.console.request("new dice")
    from firmware.screens.archive import archived, reopen
    assert reopen(app, archived(app.archives())[0])
    assert app.console.session.view()["bag"]["drawn"] == drawn
    app.console.close()


def test_a_new_bag_from_the_bag_screen_comes_back_to_one_bag_screen(state_dir):
    app = app_with(["new bag items=gold*3 seed=5"], ["a"], state_dir)     # Resume: the bag
    for _ in range(12):
        app.handle("down")                 # New bag or deck (the last row: the cursor stops there)
    app.handle("a")
    app.render()
    app.handle("down")
    app.handle("down")                     # the metals preset
    app.handle("a")
    from firmware.screens.kit.bag import KitScreen
    assert [type(s).__name__ for s in app.stack] == ["MainMenu", "KitScreen"]
    assert isinstance(app.stack[-1], KitScreen) and app.console.session.view()["bag"]["size"] == 9
    app.console.close()


def test_a_read_only_request_keeps_the_view_and_a_change_makes_it_again(state_dir, monkeypatch):
    """QA (Pi CPU per key press): every request a screen ran marked the game's view stale, so a
    frame of a Julius Caesar battle's set-up (``roster`` asked for each side) made the whole view
    (the state parsed, the game's view, localized) again on every key. The view is made again when
    the session, its state or its actions change, however they change (the device or the serial link)."""
    from engine.actions import words
    app = app_with(["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight"], ["a"], state_dir)
    try:
        import firmware.app
        made: list[object] = []
        real = firmware.app.localize
        monkeypatch.setattr(firmware.app, "localize", lambda view: made.append(view) or real(view))   # the App's views
        first = app.view()
        for line in ("roster caesar", "roster pompey", "log 5", "state"):
            assert app.run(words(line))["ok"], line
            assert app.view() is first
        assert made == []
        assert app.run(words("next-battle"))["ok"]                           # an action: made again at once
        assert app.view()["battle"]["number"] == 2 and len(made) == 1
        assert app.console.request("undo")["ok"]                            # the serial link's: the same
        assert app.view()["battle"]["number"] == 1 and len(made) == 2
        assert app.console.request("new dice")["ok"]                        # another session
        assert app.view()["game"] == "dice"
    finally:
        app.console.close()


def test_the_bag_screen_survives_another_game_started_from_the_console(state_dir):
    app = app_with(["new bag items=gold*3 seed=5"], ["a"], state_dir)
    assert app.console.request("new caesar-solo seed=2")["ok"]
    app._view_stale = True
    app.render()
    app.handle("down")
    app.render()
    assert app.errors == 0
    app.console.close()


def test_the_dice_screen_opens_on_the_last_expression_rolled(state_dir):
    app = app_with(["new dice seed=3", "roll 3d10+2"], ["a"], state_dir)
    assert app.stack[-1].expr == "3d10+2"
    app.handle("a")
    assert app.console.request("rolls 1")["rolls"][-1]["expr"] == "3d10+2"
    app.console.close()


def test_dice_opened_with_no_session_on_a_card_that_refuses_it_say_why(state_dir, monkeypatch):
    """QA (faults): with no session, Dice starts one; on a full or read-only card that start was
    refused in silence, the dice screen opened anyway and A answered only "no session"."""
    from engine.text import Msg
    from firmware.screens.kit.dice import DiceScreen
    from firmware.storage import StorageError
    from firmware.store import Store

    def refused(self, *_):
        raise StorageError(Msg("The storage is read-only: nothing was changed."))
    app = app_with([], ["down", "a"], state_dir)                       # Dice & bags
    try:
        monkeypatch.setattr(Store, "begin", refused)
        app.handle("a")                                                # Dice
        assert not isinstance(app.stack[-1], DiceScreen)
        assert "read-only" in _texts(app).replace(" | ", " ") and app.console.session is None
    finally:
        app.console.close()


def test_dice_over_an_ended_session_on_a_card_that_refuses_the_new_one_say_why(state_dir, monkeypatch):
    """QA (random faults): over a session that has ended, Dice starts a new dice session; on a
    full or read-only card that start was refused in silence and the ended session's roller opened,
    whose every A answered "This game is over"."""
    from engine.text import Msg
    from firmware.screens.kit.dice import DiceScreen
    from firmware.storage import StorageError
    from firmware.store import Store

    def refused(self, *_):
        raise StorageError(Msg("The storage is read-only: nothing was changed."))
    app = app_with(["new dice seed=1", "roll 2d6", "end"], ["down", "down", "a"], state_dir)   # Dice & bags
    try:
        ended = app.console.session
        monkeypatch.setattr(Store, "begin", refused)
        app.handle("a")                                                # Dice
        assert not isinstance(app.stack[-1], DiceScreen)
        assert "read-only" in _texts(app).replace(" | ", " ") and app.console.session is ended
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("expr", ["20d20+100", "100d100-50", "100d1000-10000"])
def test_the_dice_screen_shows_a_long_expression_rolled_whole(state_dir, lang, expr):
    """A roll from the console the fields cannot show (issue 24 §4 for the dice): «20d20+100» was
    written «20d20+1…» (read as +1), «100d100-50» as «100d100…». It stands whole beside the fields
    when it fits there, else on the hint row."""
    from firmware.screens.kit.dice import DiceScreen
    app = app_with(["new dice seed=3", f"roll {expr}"], ["a"], state_dir, lang=lang)
    try:
        screen = app.stack[-1]
        assert isinstance(screen, DiceScreen)
        for field in (0, 1, 2, 1):                       # the fields at their widest: 20 d100 -20
            screen.field = field
            for _ in range(40):
                app.handle("down" if field == 2 else "up")
            base.TRACE = []
            try:
                app.render()
                shown = [(x, t) for x, _y, t, _k in base.TRACE]
            finally:
                base.TRACE = None
            assert expr in [t for _x, t in shown], shown
            assert all("…" not in t and x + len(t) * base.CHAR_W <= base.W for x, t in shown), shown
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,serial", [("en", "serial link"), ("ru", "последовательный порт"),
                                         ("uk", "послідовний порт")])
def test_the_about_screen_sends_the_player_to_the_devices_serial_link_for_the_console(state_dir, lang, serial):
    """About said "run legatus console on a computer": that starts a console of the computer's own,
    with none of the device's games. The device's console is its serial link (legatus --serial PORT;
    docs/protocol.md, Starting)."""
    app = app_with([f"settings language={lang}"], ["down"] * 4 + ["a"], state_dir)    # main menu -> About
    try:
        text = " ".join(app.stack[-1].rows)
        assert serial in text and "--serial" in text and "legatus console" not in text, text
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,held", [("en", "hold "), ("ru", "удерживайте "), ("uk", "утримуйте ")])
def test_the_about_screen_says_what_every_key_does_where_a_new_owner_meets_it(state_dir, lang, held):
    """About is the only key help on the device. It said "In Settings, left and right change a
    value" (every new-game form's values change so too: left there is not back) and nothing of
    press (a screen's main action) or hold A (its second action). Each key of the grammar's list
    row (docs/keys.md) is named, and left/right on a value is not said to be Settings' alone."""
    from firmware.screens.widgets.keys import GRAMMAR
    app = app_with([f"settings language={lang}"], ["down"] * 4 + ["a"], state_dir)    # main menu -> About
    try:
        text = " ".join(app.stack[-1].paras)
        keys = {"en": ("up", "down", "left", "right", "press", "A", "B"),
                "ru": ("вверх", "вниз", "влево", "вправо", "нажатие", "A", "B"),
                "uk": ("вгору", "вниз", "вліво", "вправо", "натискання", "A", "B")}[lang]
        assert {"a:hold", "b:hold"} <= set(GRAMMAR["row"])
        for key in keys:
            assert re.search(rf"(?<!\w){key}(?!\w)", text), (key, text)
        assert held + "A" in text and held + "B" in text, text
        assert "<" in text and not re.search(r"In Settings, left|В настройках влево|У налаштуваннях вліво", text), text
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,held", [("en", "hold"), ("ru", "удержание"), ("uk", "утримання")])
def test_the_about_screen_names_the_waveshare_hats_own_key_labels(state_dir, lang, held):
    """The Waveshare HAT (one of the two boards, Settings → Buttons) has no key marked A or B: its
    keys are KEY1..KEY3 (hw/profiles.toml), and About, the device's only key help, spoke of A and B
    alone — nor said what KEY3, on the simulator's key line too (k=KEY3), does. Each label is said
    beside the button the profile maps it to, and KEY3 as hold A (docs/keys.md)."""
    from pathlib import Path
    profiles = (Path(__file__).resolve().parents[1] / "hw" / "profiles.toml").read_text(encoding="utf-8")
    labels = dict(re.findall(r"^(a|b|key3) = \d+ +# (KEY\d)$", profiles, re.M))
    assert labels == {"a": "KEY1", "b": "KEY2", "key3": "KEY3"}
    app = app_with([f"settings language={lang}"], ["down"] * 4 + ["a"], state_dir)    # main menu -> About
    try:
        text = " ".join(app.stack[-1].paras)
        for key in ("a", "b"):         # the letter, then its label (a word at most between: is, это, це)
            assert re.search(rf"(?<!\w){key.upper()}\W+(?:\w+\W+)?{labels[key]}(?!\w)", text), (key, text)
        assert re.search(rf"{labels['key3']}\W+(?:\w+\W+)?{held} A(?!\w)", text), text
    finally:
        app.console.close()


@pytest.fixture
def unreadable_fonts(monkeypatch):
    """The shipped font files cannot be read (a bad sector, a damaged install)."""
    from PIL import ImageFont

    def eio(*_a, **_k):
        raise OSError(5, "Input/output error")
    caches = (base.font, base._missing_mask, base.has_glyph, base.reaches_top)
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(ImageFont, "truetype", eio)
    yield
    monkeypatch.undo()
    for cache in caches:
        cache.cache_clear()
    base.UNREADABLE.clear()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_with_the_fonts_unreadable_the_screens_still_read_in_the_built_in_font(state_dir, lang, unreadable_fonts):
    """QA (faults): with a font file unreadable (EIO) the built-in font took over, but every
    character, ASCII too, was taken for one it lacks: the English menu read '?????', and in
    Russian every screen failed (UnicodeEncodeError: the replacement mark is not Latin-1), the
    error screen too. The built-in font draws what it has; what it lacks shows as '?'."""
    app = app_with(["new glory players=Ваня,Маша seed=3"], [], state_dir, lang=lang)
    try:
        for key in ("a", "down", "a", "b", "b", "down", "a", "b"):
            app.handle(key)
            app.render()
        assert app.errors == 0
        assert base.drawable("Legatus 12") == "Legatus 12"
        assert base.drawable("Игры") == "????"
    finally:
        app.console.close()


OVER = ["new sword players=romans,gauls seed=1", "victory romans"]     # its rules ended it (W-11): no `end`


@pytest.mark.parametrize("setup", [["new dice seed=1", "roll 2d6", "end"], ["new glory players=A,B seed=1", "end"], OVER])
def test_the_dice_roll_again_after_the_session_has_ended(state_dir, setup):
    """History → Fair draw → End the game… (to see the seed) left Dice & bags → Dice a roller whose
    every A answered "This game is over", and Dice is not in Games to start another: the tools
    died with the session. An ended session now gives way to a new dice session; so does a game
    its rules ended (PROTOCOL third round: it rolls no more, `roll` answers game_over)."""
    keys = ["down", "down", "a", "a"] + ([YES] if setup is OVER else []) + ["a"]     # (over: A answers the question)
    app = app_with(setup, keys, state_dir)      # Dice & bags -> Dice -> A rolls
    try:
        state = app.console.request("state")["state"]
        assert state["game"] == "dice" and state["ended"] is None and len(state["rolls"]) == 1, state
        games = app.console.request("history")["games"]
        want = ["finished"] if setup is OVER else ["ended"]
        assert [g["status"] for g in games] == want              # the ended one, not also as abandoned
    finally:
        app.console.close()


GLORY_OVER = ["new glory players=Ann,Bob seed=1"] + ["event", "end-round"] * 9     # after round 9 (G-15), unscored


@pytest.mark.parametrize("lang, words", [("en", ("Glory of Rome game's scoring", "Earlier games")),
                                         ("ru", ("Во славу Рима", "подсчёта очков", "«Прошлых играх»")),
                                         ("uk", ("На славу Риму", "Підрахунок очок", "«Минулих іграх»"))])
@pytest.mark.parametrize("tool, game", [("Dice", "dice"), ("Bags & decks", "bag")])
def test_dice_and_bags_over_an_unscored_glory_game_ask_before_leaving_its_final_score(state_dir, tool, game, lang,
                                                                                     words):
    """Glory after round 9 (G-15) is over (it rolls no more) but not finished for History until its
    final score: Dice & bags started its own session at once, so the game was filed `abandoned`
    unscored: a player who only wanted a die at the end of the evening lost his scoring. It asks
    first, in a whole sentence; B keeps the game as it was. The question is 4 rows, as the other
    games' (51a063ff): the sentence whole on its first page (3 rows), «Roll dice?» or «Choose a
    bag?» on row 4; it was 6-7 rows, the first page ending «…ещё не окончательный.»."""
    from firmware.i18n import _
    down = ["down"] if game == "bag" else []
    app = app_with(GLORY_OVER, ["down", "down", "a", *down, "a"], state_dir, lang=lang)   # Dice & bags -> the tool
    try:
        question = app.stack[-1]
        assert isinstance(question, ConfirmScreen), type(question).__name__
        said = " ".join(question.rows)
        assert all(w in said for w in words), said
        rows = question.rows
        asked = _("Roll dice?") if game == "dice" else _("Choose a bag?")
        assert len(rows) == 4 and rows[-1] == asked, rows                  # the question on its own row
        assert rows[2].endswith(words[-1] + "."), rows                      # the sentence ends on page 1
        app.handle("b")                                            # keep it
        assert app.console.request("state")["state"]["game"] == "glory"
        assert app.console.request("history")["games"] == []
        app.handle("a")                                            # asked again; A leaves it for the tool
        say_yes(app)
        if game == "dice":
            assert app.console.request("state")["state"]["game"] == "dice"
            assert [g["status"] for g in app.console.request("history")["games"]] == ["abandoned"]
        else:                                                      # the presets, to start a bag session
            from firmware.screens.kit.bag import PresetScreen
            assert isinstance(app.stack[-1], PresetScreen)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, words", [("en", ("game ends", "can't be undone")),
                                         ("ru", ("окончится", "без отмены последнего хода")),
                                         ("uk", ("скінчиться", "останній хід не скасувати"))])
def test_leaving_a_game_its_rules_ended_says_its_last_move_can_no_longer_be_taken_back(state_dir, lang, words):
    """A new session over a game its rules ended and History filed finished (W-11 here) ends it
    first: its seed goes to History and its last move can no longer be undone. The device's New
    game, Earlier games' reopen question and Dice & bags said only "it stays in the archive" (or
    nothing): they say it, in a whole sentence, before it happens. Dice's question is 4 rows, the
    sentence whole on its first page (3 rows) and «Roll dice?» after it: it was 6-9 rows
    («…записана как» ending the first page)."""
    from firmware.i18n import _
    from firmware.screens import play
    from firmware.screens.archive import ArchiveScreen, archived
    app = app_with(["new dice seed=2", "roll 1d6"] + OVER, [], state_dir, lang=lang)
    try:
        play.start_game(app, act.new_dice(), lambda: app.stack[0])     # (a game's form: the same question)
        asked = [" ".join(app.stack[-1].rows)]
        app.handle("b")
        app.push(ArchiveScreen(archived(app.archives())))
        app.handle("a")
        asked.append(" ".join(app.stack[-1].rows))
        app.handle("b")
        app.handle("b")
        app.to_root()
        for key in ["down", "down", "a", "a"]:                     # Dice & bags -> Dice
            app.handle(key)
        asked.append(" ".join(app.stack[-1].rows))
        rows = app.stack[-1].rows
        assert len(rows) <= 4 and rows[-1] == _("Roll dice?"), rows            # the question on its own row
        assert words[-1].split()[-1] in rows[2], rows                           # the sentence ends on page 1
        for said in asked:
            assert all(w in said for w in words), said
        assert app.console.request("state")["state"]["game"] == "sword"          # nothing happened yet
    finally:
        app.console.close()


@pytest.mark.parametrize("where", ["new game", "reopen"])
@pytest.mark.parametrize("undo", ["serial", "device"])
def test_the_new_game_and_reopen_questions_over_a_finished_game_go_when_an_undo_reopens_it(state_dir, where, undo):
    """Over a game its rules ended (W-11), a new game's "New game?" and Earlier games' "Reopen?"
    say it is filed in History as finished and its last move can no longer be taken back. An undo
    (``undo`` from the serial link, or hold B) took the victory back meanwhile and the question
    stayed, still saying so: A then put the other session in place of a game going on again. The
    question goes with the game it asked about (as Dice & bags' does); asked again, it says what
    is true now."""
    from firmware.screens import play
    from firmware.screens.archive import ArchiveScreen, archived
    app = app_with(["new dice seed=2", "roll 1d6"] + OVER, [], state_dir)
    try:
        def ask() -> str:
            if where == "new game":
                play.start_game(app, act.new_dice(), lambda: app.stack[0])
            else:
                app.handle("a")                                  # the dice session archived
            app.render()
            assert isinstance(app.stack[-1], play.ReplaceQuestion)
            return " ".join(app.stack[-1].rows)
        if where == "reopen":
            app.push(ArchiveScreen(archived(app.archives())))
        below = app.stack[-1]
        assert "last move can't be undone" in ask()
        if undo == "serial":
            assert '"ok":true' in undo_by_link(app)
        else:
            _undo_on_the_device(app)
        assert app.stack[-1] is below and app.errors == 0
        view = app.console.session.view()
        assert view["game"] == "sword" and not view["over"] and not view["ended"]
        said = ask()                                             # asked again: the game goes on
        assert "filed in History" not in said and ("goes to the archive" in said or "is archived" in said), said
        app.handle("b")
        assert app.console.session.view()["game"] == "sword"
    finally:
        app.console.close()


def _said(app) -> str:
    """The notice (or the note's screen) shown now, as one line."""
    from firmware.screens.widgets import TextScreen
    if app.message is not None:
        return " ".join(app.message)
    return " ".join(app.stack[-1].rows) if isinstance(app.stack[-1], TextScreen) else ""


@pytest.mark.parametrize("final", ["end", "victory romans"])
@pytest.mark.parametrize("tool", ["Dice", "Bags & decks"])
def test_the_dice_and_a_side_bag_open_when_the_serial_link_ends_the_game_say_how_to_go_on(state_dir, final, tool):
    """The serial link ended the game (``end``, or its rules: W-11) while Dice & bags' dice or the
    bag beside it was open: every roll or draw said "… Start another from Games; History keeps this
    one" — Games has no dice or bag, and Dice & bags → Dice (→ Bags & decks) is what starts one.
    They say so; the side bag offers no draw it would refuse, and nothing is played."""
    from firmware.screens.kit.bag import KitScreen, PickScreen
    app = app_with(["new sword players=romans,gauls seed=1", "kit new items=gold*2,silver*2", "kit draw"], [],
                   state_dir)
    try:
        _menu_to(app, "Dice & bags")
        _menu_to(app, tool)
        if tool == "Bags & decks":
            assert isinstance(app.stack[-1], KitScreen)
            _menu_to(app, "Put back…")
            assert isinstance(app.stack[-1], PickScreen)
        assert '"ok":true' in app.serve_line(final.encode())
        lines = list(app.console.session.lines)
        if isinstance(app.stack[-1], PickScreen):                  # (W-11: the bag is still there to read)
            app.handle("a")
            said = _said(app)
            assert "nothing more can be drawn beside it" in said and "Bags & decks" in said, said
            app.handle("b")
        if tool == "Dice":
            app.handle("a")                                         # roll
            said = _said(app)
            assert "no more dice can be rolled beside it" in said and "Dice & bags → Dice" in said, said
        else:
            kit = app.stack[-1]
            assert isinstance(kit, KitScreen)
            rows = [str(i.label) for i in kit.items(app)]
            assert rows[0] == "Ended" and not {"Draw", "Put back…", "Draw a card"} & set(rows), rows
            for _i in range(len(rows)):
                app.handle("up")
            app.handle("a")                                         # Ended: why
            said = _said(app)
            assert "nothing more can be drawn beside it" in said and "Bags & decks" in said, said
        assert "Start another from Games" not in said
        assert list(app.console.session.lines) == lines and app.errors == 0
    finally:
        app.console.close()


def test_an_ended_bag_resumed_is_read_not_drawn_from(state_dir):
    """An ended bag session still shows Resume; its screen offered Draw, Put back, Draw a card,
    Discard and Shuffle, each refused with "… Start another from Games; History keeps this one"
    (a bag is in neither). Resumed, it says it has ended and offers what can still be done: what is
    in the bag, its history, a new bag or deck (as Dice & bags → Bags & decks: nothing is drawn
    from the ended one, nothing starts unasked)."""
    from firmware.screens.kit.bag import KitScreen, PresetScreen
    app = app_with(["new bag items=gold*3,silver*2 cards=a*2,b*2 seed=7", "draw 1", "card", "end"], [], state_dir)
    try:
        lines = list(app.console.session.lines)
        _menu_to(app, "▶ Bag & deck")
        kit = app.stack[-1]
        assert isinstance(kit, KitScreen)
        rows = [str(i.label) for i in kit.items(app)]
        assert rows == ["Ended", "In the bag", "History", "New bag or deck"], rows
        app.handle("a")
        said = _said(app)
        assert "This session has ended and is kept in History: nothing more can be drawn in it" in said and "Bags & decks" in said, said
        app.handle("b")
        _menu_to(app, "New bag or deck")
        assert isinstance(app.stack[-1], PresetScreen) and not app.stack[-1].side
        assert all(not isinstance(s, KitScreen) for s in app.stack)       # the ended bag's screen gave way
        assert list(app.console.session.lines) == lines and app.errors == 0
    finally:
        app.console.close()


def test_an_unreadable_font_is_said_on_the_panel_in_letters_the_built_in_font_has(state_dir, unreadable_fonts, caplog):
    """QA (faults): a font file that could not be read was only logged: the panel never said why
    its letters looked wrong. It says which file, in English (the built-in font has no Cyrillic)."""
    app = app_with([], [], state_dir, lang="ru")
    try:
        app.render()
        shown = _texts(app).replace(" | ", " ")
        assert "ter-u12n_unicode.pcf.gz" in shown.replace(" ", "") and "cannot be read" in shown, shown
        assert any(r.levelname == "ERROR" and "ter-u12n" in r.getMessage() for r in caplog.records)
        app.handle("b")                                                 # read: it goes, and stays gone
        app.render()
        assert "cannot be read" not in _texts(app)
    finally:
        app.console.close()


def test_a_font_file_that_does_not_inflate_is_said_like_an_unreadable_one(state_dir, tmp_path, monkeypatch, caplog):
    """The fonts are inflated in memory by Legatus (FreeType inflating the .pcf.gz itself did it
    again for every glyph: 4 ms a row of text). A file whose bytes are damaged (zlib's error, not
    an OSError) must still give the built-in font and the notice, never a screen error."""
    for name, _size, _adv in base.FONTS.values():
        (tmp_path / name).write_bytes(b"\x1f\x8b\x08\x00" + bytes(range(256)) * 4)     # a gzip header, then noise
    caches = (base.font, base._missing_mask, base.has_glyph, base.reaches_top)
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(base, "FONT_DIR", tmp_path)
    app = app_with([], [], state_dir, lang="en")
    try:
        app.render()
        shown = _texts(app).replace(" | ", " ")
        assert app.errors == 0 and "cannot be read" in shown, shown
        assert any(r.levelname == "ERROR" and "ter-u12n" in r.getMessage() for r in caplog.records)
    finally:
        app.console.close()
        monkeypatch.undo()
        for cache in caches:
            cache.cache_clear()
        base.UNREADABLE.clear()


def test_the_shipped_fonts_are_read_from_memory_not_inflated_per_glyph():
    """Each font is inflated once (base.font): FreeType given the .pcf.gz path inflates the file
    from its start for every glyph it loads (a frame of 7 rows took 30 ms, half a second on a Pi)."""
    for kind in base.FONTS:
        assert not isinstance(base.font(kind).path, str), kind


@pytest.mark.parametrize("setup", [["new bag items=a*3 seed=1", "draw", "end"], ["new glory players=A,B seed=1", "end"], OVER])
def test_a_bag_is_drawn_from_again_after_the_session_has_ended(state_dir, setup):
    """The same for Bags & decks: an ended bag session showed its bag and refused every draw; an
    ended game of another kind took a side bag that refused too. Now the presets start a new bag
    (over a game its rules ended, once A has answered that it ends it)."""
    from firmware.screens.kit.bag import PresetScreen
    keys = ["down", "down", "a", "down", "a"] + ([YES] if setup is OVER else [])
    app = app_with(setup, keys, state_dir)   # Dice & bags -> Bags & decks
    try:
        assert isinstance(app.stack[-1], PresetScreen) and not app.stack[-1].side
    finally:
        app.console.close()


@contextmanager
def _app_with_an_unreadable_catalog(state_dir, monkeypatch, name: str) -> Iterator[object]:
    """A Russian App whose catalog file ``name`` cannot be read (EIO), drawn once; the catalogs
    are read afresh before and after."""
    from pathlib import Path
    real = Path.read_bytes

    def eio(self):
        if self.name == name:
            raise OSError(5, "Input/output error")
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", eio)
    i18n._mo_files.cache_clear()
    i18n._chain.cache_clear()
    try:
        app = app_with([], [], state_dir, lang="ru")
        try:
            app.render()
            yield app
        finally:
            app.console.close()
    finally:
        monkeypatch.undo()
        i18n._mo_files.cache_clear()
        i18n._chain.cache_clear()
        i18n.UNREADABLE.clear()


def test_an_unreadable_translation_is_said_on_the_panel_and_its_texts_shown_in_english(state_dir, monkeypatch, caplog):
    """QA (faults): a catalog file that could not be read (EIO) was skipped without a word, in the
    log or on the panel: the device just spoke English. The panel and the log say which file."""
    with _app_with_an_unreadable_catalog(state_dir, monkeypatch, "legatus.mo") as app:
        shown = _texts(app).replace(" | ", " ")
        assert "legatus.mo" in shown.replace(" ", "") and "cannot be read" in shown, shown
        assert any(r.levelname == "ERROR" and "legatus.mo" in r.getMessage() for r in caplog.records)


def test_an_unreadable_game_catalog_is_said_with_its_reason_in_the_players_language(state_dir, monkeypatch, caplog):
    """jc.mo unreadable (EIO) on a Russian device: the notice is Russian, and the system's reason
    was put in it as the system says it («… не удаётся прочитать (Input/output error) …»). The
    reason is said in Russian; the system's own text is in the log."""
    with _app_with_an_unreadable_catalog(state_dir, monkeypatch, "jc.mo") as app:
        shown = _texts(app).replace(" | ", " ")
        assert "jc.mo" in shown.replace(" ", "") and "карта памяти не ответила" in shown, shown
        assert "Input/output" not in shown, shown
        assert any("jc.mo" in r.getMessage() and "Input/output error" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("lines", [
    ["new bag items=gold*3,silver*2 cards=legio*2,senator seed=5", "draw 2", "card", "put gold", "shuffle"],
    ["new bag cards=legio*2,senator seed=5", "card", "discard senator", "reshuffle", "card"],
    ["new bag items=gold*3 seed=5", "draw", "put gold", "draw"],
    ["new bag cards=legio*2 seed=5"],
])
def test_the_bag_s_history_row_counts_what_its_page_lists(lines, state_dir):
    """Bag & deck → History read «History 5» over a page titled 4 with four entries: the count took
    the new deck's own opening shuffle for one of the players' actions. The row counts what the
    page lists."""
    from firmware.screens.kit.bag import KitHistory, KitScreen
    app = app_with(lines, ["a"], state_dir)                       # Resume: the bag
    try:
        screen = app.stack[-1]
        assert isinstance(screen, KitScreen)
        row = next(i for i in screen.items(app) if str(i.label) == "History")
        _menu_to(app, "History")
        page = app.stack[-1]
        assert isinstance(page, KitHistory) and page.done
        assert row.value == str(len(page.entries)), (row.value, page.entries)
    finally:
        app.console.close()


@pytest.mark.parametrize("environ, lang", [
    ({}, None),                                                   # the systemd unit sets no locale
    ({"LANG": "C.UTF-8"}, None), ({"LANG": "POSIX"}, None), ({"LANG": "de_DE.UTF-8"}, None),
    ({"LANG": "ru_RU.UTF-8"}, "ru"), ({"LANG": "uk_UA.UTF-8"}, "uk"), ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "ru_RU.UTF-8", "LC_ALL": "uk_UA.UTF-8"}, "uk"),     # LC_ALL before LANG
    ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "C"}, None),          # the first set decides, as for gettext
    ({"LANGUAGE": "de:uk:ru", "LANG": "en_US.UTF-8"}, "uk"),      # a list: its first language of ours
    ({"LANGUAGE": "", "LANG": "ru_UA.UTF-8@euro"}, "ru"),
])
def test_the_locale_s_language_is_read_as_gettext_reads_it(environ, lang):
    from firmware.i18n import locale_language
    assert locale_language(environ) == lang


@pytest.mark.parametrize("environ, lang", [({"LANG": "uk_UA.UTF-8"}, "uk"), ({"LC_ALL": "ru_RU.UTF-8"}, "ru"),
                                           ({}, "en"), ({"LANG": "C.UTF-8"}, "en")])
def test_the_first_start_s_language_list_opens_on_the_locale_s_language(state_dir, monkeypatch, environ, lang):
    """The first start's list opened on English whatever the locale: a Ukrainian laptop's simulator
    needed two presses down to Українська. It opens on the locale's language when it is one of ours
    (A keeps it), else — the device under its systemd unit, which sets no locale — on English."""
    from firmware.app import App
    from firmware.console import Console
    from firmware.i18n import LANGUAGE_NAMES, LOCALE_VARIABLES
    from firmware.screens.language import LanguageScreen
    from firmware.store import Store
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    store = Store(state_dir)
    console = Console(store, store.resume())
    try:
        app = App(console)
        screen = app.stack[-1]
        assert isinstance(screen, LanguageScreen) and screen.first_start
        app.render()
        assert str(screen.items(app)[screen.cursor].label) == LANGUAGE_NAMES[lang]
        app.handle("a")                                           # one press: the locale's language kept
        assert not isinstance(app.stack[-1], LanguageScreen)
        assert app.settings["language"] == lang
    finally:
        console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang,says", [("en", "the title bar says what A does"), ("ru", "подсказка в заголовке говорит, что делает A"),
                                       ("uk", "підказка в заголовку каже, що робить A")])
def test_about_says_what_a_does_on_a_form_as_the_forms_do_it(state_dir, lang, says):
    """About said "on a form A starts the game": on Glory's player rows A opens the list of players
    ("A: choose"), on a form's Fair draw row it shows the code large. About now sends the player to
    the title bar's hint, and the hint says what A then does on each of Glory's rows."""
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.setup import SetupScreen
    from firmware.screens.widgets.people import PlayerPicker
    from tests.fakectx import FakeCtx
    app = app_with([f"settings language={lang}"], ["down"] * 4 + ["a"], state_dir)    # main menu -> About
    try:
        text = " ".join(app.stack[-1].paras)
        assert says in text and not re.search(r"on a form A starts|в форме A начинает|у формі A починає", text), text
    finally:
        app.console.close()
    i18n.set_language("en")
    for row in range(6):                                  # the count, the 4 players, the first one's fame
        ctx = FakeCtx().open(SetupScreen(GloryHome))
        ctx.top.cursor = ctx.top._mark = row
        ctx.render()
        hint = ctx.top.hint(ctx)
        ctx.press("a")
        assert hint == ("A: choose" if 1 <= row <= 4 else "A: start")
        assert isinstance(ctx.top, PlayerPicker) if hint == "A: choose" else ctx.lines[-1].startswith("new glory")


@pytest.mark.parametrize("lang, hint", [("en", "A: show"), ("ru", "A: показать"), ("uk", "A: показати")])
@pytest.mark.parametrize("lines", [["new dice seed=3", "roll 2d6", "end"], ["new bag items=a*3 seed=1", "draw 1", "end"],
                                   ["new glory players=Ann,Bob seed=1", "end"]])
def test_the_main_menu_does_not_offer_to_continue_a_session_the_players_ended(state_dir, lang, hint, lines):
    """On an ended dice or bag session the running row's title bar read «A: продолжить» though
    nothing could go on: A shows the session as it ended (the roller's last roll, "Ended" in its
    title), and the title bar says so."""
    app = app_with(lines, [], state_dir, lang=lang)
    try:
        app.render()
        assert app.stack[-1].items(app)[0].key == "resume"
        texts = [t for _x, _y, t, _k in drawn(app)]
        assert hint in texts and not any("продолж" in t or "продовж" in t or "resume" in t for t in texts), texts
        app.handle("a")
        app.render()
        assert app.stack[-1] is not app.stack[0] and app.errors == 0
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("line", ["new jc-battle attacker=caesar seed=4", "new glory players=Ann,Bob seed=1",
                                  "new sword players=romans,gauls seed=2", "new caesar-solo seed=3",
                                  "new bag items=a*3 seed=1", "new dice seed=3", None])
def test_the_main_menu_reads_one_row_an_entry_with_history_on_its_first_frame(state_dir, lang, line):
    """The main menu read «Resume: Julius» / «Caesar» over two rows («Продолжить: Во славу» /
    «Рима»), and History was its last row, two pages down, under a Log that with no game said only
    that there was none. Now every entry takes one row in every language (the running game's is ▶ and
    its name, the title bar saying "A: resume" there), History shows on the first frame, and the Log
    is listed while a session runs."""
    app = app_with([line] if line else [], [], state_dir, lang=lang)
    try:
        menu = app.stack[-1]
        app.render()
        items = menu.items(app)
        assert menu._heights(items, base.ROWS) == [1] * len(items), [str(i.label) for i in items]
        keys = [i.key for i in items]
        assert "history" in keys[:base.ROWS]                       # on the first frame
        assert ("log" in keys) == (line is not None)
        assert (keys[0] == "resume") == (line is not None)
        hint = {"en": "A: resume", "ru": "A: продолжить", "uk": "A: продовжити"}[lang]
        assert (hint in [t for _x, _y, t, _k in drawn(app)]) == (line is not None)
        if line is not None:
            app.handle("down")                                       # the hint is the resume row's alone
            assert hint not in [t for _x, _y, t, _k in drawn(app)]
    finally:
        app.console.close()
