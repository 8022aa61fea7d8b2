"""The Tactics test form after an undo of a tactics test (W-1): it holds the undone test's values —
the rating, the modifier, which test (interception, avoiding battle, pursuit, refusing battle) and
the die thrown on the table — as the Battle form holds an undone battle's, so a slip found on the
result is corrected in its row alone; with the device's die the test asked again rolls the die it
showed (undo never re-rolls: firmware/shown.py, docs/fairness.md). It opened on rating 2, +0, no
test, so every row was set again. Through the real App and its keys (hold B, A: undo)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware.screens.sword.home import SwordHome
from firmware.screens.sword.rolls import TacticsResult
from firmware.screens.widgets import DiceEntry, NumberForm
from scripts.presses.harness import Driver

FOUR = "new sword players=romans,gauls,etruscans,greeks seed=4"


@pytest.fixture
def d() -> Iterator[Driver]:
    driver = Driver("en")
    try:
        yield driver
    finally:
        driver.close()


def _home(d: Driver) -> None:
    for _ in range(6):
        if isinstance(d.top, SwordHome) and d.app.message is None and type(d.top).__name__ != "TextScreen":
            return
        d.press("b")
    raise AssertionError(d.screen())


def _form(d: Driver) -> dict[str, int]:
    """Tactics test, from the home (its cursor on Battle): the form's values as it opens."""
    _home(d)
    d.top.cursor = 0
    d.press("down", 1)
    d.press("a")
    assert isinstance(d.top, NumberForm) and d.top.title == "Tactics test", d.screen()
    d.app.render()
    return d.top.values()


def _set(d: Driver, values: dict[str, int]) -> None:
    for i, f in enumerate(d.top.fields):
        if i:
            d.press("down")
        if f.key in values and values[f.key] != f.value:
            want = values[f.key]
            d.press("right" if want > f.value else "left", abs(want - f.value))
            assert f.value == want, (f.key, f.value, want)


def _undo(d: Driver) -> None:
    """Hold B, A (yes, undo), the «Undone: …» notice read: the home again."""
    _home(d)
    d.press("b:hold")
    d.press("a")
    _home(d)


def test_the_form_after_an_undo_holds_the_undone_test_and_rolls_the_same_die(d):  # W-1, undo never re-rolls
    """A failed avoid asked with a slip in the rating: after the undo the form holds rating 3, −1 and
    avoiding battle; the rating corrected alone (one press), A rolls the die it showed."""
    d.run(FOUR)
    d.press("a")
    assert _form(d) == {"rating": 2, "mod": 0, "test": 0, "dice": 0}
    _set(d, {"rating": 3, "mod": -1, "test": 2})
    d.press("a")
    assert isinstance(d.top, TacticsResult), d.screen()
    first, line = d.top.result, d.console.session.lines[-1]
    assert line == "tactics 3 mod=-1 kind=avoid"
    _undo(d)
    assert d.view()["last"] is None and d.view()["actions"] == 0
    assert _form(d) == {"rating": 3, "mod": -1, "test": 2, "dice": 0}, "the form forgot the test just undone"
    before = d.presses
    d.press("right")                                       # the slip: rating 4, not 3
    d.press("a")
    assert d.presses - before == 2
    assert isinstance(d.top, TacticsResult) and d.console.session.lines[-1] == "tactics 4 mod=-1 kind=avoid"
    assert d.top.result["roll"] == first["roll"]           # the die it showed, not a re-roll


def test_the_die_thrown_on_the_table_is_held_too(d):  # W-1
    """Entered from the table: after the undo the form holds the table as the dice and the die
    entry opens on the face entered, read (not a fresh guess); A, A asks the test again."""
    d.run(FOUR)
    d.press("a")
    _form(d)
    _set(d, {"rating": 1, "test": 3, "dice": 1})
    d.press("a")
    assert isinstance(d.top, DiceEntry)
    d.top.faces, d.top.set = [[5]], [[True]]
    d.press("a")
    assert d.console.session.lines[-1] == "tactics 1 mod=0 die=5 kind=pursuit"
    _undo(d)
    assert _form(d) == {"rating": 1, "mod": 0, "test": 3, "dice": 1}
    d.press("a")
    assert isinstance(d.top, DiceEntry) and d.top.faces == [[5]] and d.top.set == [[True]]
    d.press("a")
    assert d.console.session.lines[-1] == "tactics 1 mod=0 die=5 kind=pursuit"


def test_a_new_test_opens_as_it_always_did(d):  # W-1
    """A test standing (nothing undone), or another roll made where the test was undone: the form
    opens on rating 2, +0, no test."""
    d.run(FOUR)
    d.run("tactics 3 mod=1 kind=intercept")
    d.press("a")
    assert _form(d) == {"rating": 2, "mod": 0, "test": 0, "dice": 0}
    d.run("undo")
    d.run("naval")                                          # another roll in its place
    assert _form(d) == {"rating": 2, "mod": 0, "test": 0, "dice": 0}


def test_undone_tactics_comes_from_the_sessions_undo_record_after_a_restart(tmp_path):  # W-1, PROTOCOL: undo
    """``undone-tactics``: null before any undo; after an undo of a test its values, read back after a
    restart from the undo row; typed words refused (only the record gives them); asked again with the
    device's die it rolls the same die; once another roll is made in its place, null."""
    from firmware.console import Console
    from firmware.store import Store

    def console() -> Console:
        store = Store(tmp_path)
        return Console(store, store.resume())
    c = console()
    assert c.request(FOUR)["ok"]
    assert c.request("undone-tactics")["test"] is None
    first = c.request("tactics 3 mod=1 kind=intercept")
    assert c.request("undone-tactics")["test"] is None                   # it stands: nothing undone
    assert c.request("undo")["ok"]
    c.close()                                                            # the power goes
    c = console()
    assert c.request("undone-tactics")["test"] == {"rating": 3, "mod": 1, "test": "intercept", "die": None}
    for typed in ("undone-tactics 2", "undone-tactics mod=1"):
        out = c.request(typed)
        assert out["ok"] is False and out["error"] == "bad_arguments", typed
    assert c.request("tactics 3 mod=1")["roll"] == first["roll"]         # the device's die: the same
    assert c.request("undo")["ok"]
    assert c.request("undone-tactics")["test"] == {"rating": 3, "mod": 1, "test": None, "die": None}   # the latest
    assert c.request("check siege")["ok"]                                # another roll in its place
    assert c.request("undone-tactics")["test"] is None
    c.close()


FIVE = "new sword players=romans,gauls,etruscans,greeks,carthage seed=4"


def _naval_form(d: Driver) -> dict[str, int]:
    """Naval move, from the home: the form's values as it opens."""
    _home(d)
    d.top.cursor = 0
    d.press("down", 5)
    d.press("a")
    assert isinstance(d.top, NumberForm) and d.top.title == "Naval move", d.screen()
    d.app.render()
    return d.top.values()


def test_the_naval_form_after_an_undo_holds_the_undone_move_and_rolls_the_same_die(d):  # W-8, undo never re-rolls
    """A naval move into a friendly port with Carthage's extra operations, undone: the form holds its
    modifier, the port and the extra operations (it opened on +0, off, 0), and A rolls the die it
    showed; entered from the table, the die entry opens on the face entered."""
    from firmware.screens.sword.rolls import RollResult
    d.run(FIVE)
    d.press("a")
    assert _naval_form(d) == {"mod": 0, "port": 0, "extra": 0, "dice": 0}
    _set(d, {"mod": 1, "port": 1, "extra": 2})
    d.press("a")
    assert isinstance(d.top, RollResult), d.screen()
    line, roll = d.console.session.lines[-1], d.view()["last"]["roll"]
    assert line == "naval mod=1 friendly-port=1 extra-ops=2"
    _undo(d)
    assert d.view()["last"] is None
    assert _naval_form(d) == {"mod": 1, "port": 1, "extra": 2, "dice": 0}, "the form forgot the move just undone"
    d.press("a")
    assert d.console.session.lines[-1] == line and d.view()["last"]["roll"] == roll
    assert d.run(FIVE.replace("seed=4", "seed=5"))["ok"]         # a new game: a move from the table
    assert d.run("naval mod=-1 die=2")["ok"] and d.run("undo")["ok"]
    assert _naval_form(d) == {"mod": -1, "port": 0, "extra": 0, "dice": 1}
    d.press("a")
    assert isinstance(d.top, DiceEntry) and d.top.faces == [[2]] and d.top.set == [[True]]


def test_undone_naval_comes_from_the_sessions_undo_record_after_a_restart(tmp_path):  # W-8, PROTOCOL: undo
    from firmware.console import Console
    from firmware.store import Store

    def console() -> Console:
        store = Store(tmp_path)
        return Console(store, store.resume())
    c = console()
    assert c.request(FIVE)["ok"]
    assert c.request("undone-naval")["move"] is None
    assert c.request("naval mod=2 friendly-port=1")["ok"] and c.request("undo")["ok"]
    c.close()                                                            # the power goes
    c = console()
    assert c.request("undone-naval")["move"] == {"mod": 2, "friendly_port": True, "extra_ops": 0, "die": None}
    out = c.request("undone-naval mod=1")
    assert out["ok"] is False and out["error"] == "bad_arguments"
    assert c.request("tactics 2")["ok"]                                  # another roll in its place
    assert c.request("undone-naval")["move"] is None
    c.close()


def _check_menu(d: Driver) -> None:
    """2d6 roll, from the home: its menu (Siege, Gauls' siege, Subjugation, Attrition, Dice)."""
    from firmware.screens.sword.rolls import CheckMenu
    _home(d)
    d.top.cursor = 0
    d.press("down", 6)
    d.press("a")
    assert isinstance(d.top, CheckMenu), d.screen()
    d.app.render()


def test_the_dice_entry_after_an_undo_of_a_check_opens_on_the_faces_entered(d):  # W-9, undo never re-rolls
    """A siege roll entered from the table (6 and 2) and undone: the 2d6 menu's dice are the table's
    again and the Siege entry opens on 6 and 2, so a slip in one die is corrected alone (it opened on
    guesses, both dice to enter again); another table's entry opens on guesses as before."""
    from firmware.screens.sword.rolls import RollResult
    d.run(FOUR)
    d.press("a")
    assert d.run("check siege dice=6,2")["ok"] and d.run("undo")["ok"]
    _check_menu(d)
    assert d.top.table is True, d.screen()                 # the undone check's dice: the table's
    d.press("a")                                             # Siege
    assert isinstance(d.top, DiceEntry) and d.top.faces == [[6, 2]] and d.top.set == [[True, True]], d.screen()
    d.press("a")
    assert isinstance(d.top, RollResult), d.screen()
    assert d.console.session.lines[-1] == "check siege dice=6,2"
    assert d.run("undo")["ok"]
    _check_menu(d)
    d.press("down", 2)                                       # Subjugation: not the check undone
    d.press("a")
    assert isinstance(d.top, DiceEntry) and d.top.set != [[True, True]], d.screen()


def test_undone_check_comes_from_the_sessions_undo_record_after_a_restart(tmp_path):  # W-9, PROTOCOL: undo
    from firmware.console import Console
    from firmware.store import Store

    def console() -> Console:
        store = Store(tmp_path)
        return Console(store, store.resume())
    c = console()
    assert c.request(FOUR)["ok"]
    assert c.request("undone-check")["check"] is None
    assert c.request("check siege dice=3,4 gauls=1")["ok"] and c.request("undo")["ok"]
    c.close()                                                            # the power goes
    c = console()
    assert c.request("undone-check")["check"] == {"check": "siege", "mod": 0, "gauls": True, "dice": [3, 4]}
    out = c.request("undone-check dice=1,1")
    assert out["ok"] is False and out["error"] == "bad_arguments"
    assert c.request("tactics 2")["ok"]                                  # another roll in its place
    assert c.request("undone-check")["check"] is None
    c.close()
