"""The Battle form after an undo of a battle (W-2): it holds the undone battle's values — units,
bonuses, flanking units, the Sacred Band, the dice and the faces thrown on the table — so a typo
found on the result is corrected in its row alone; with the device's dice the battle fought again
rolls the dice it showed (undo never re-rolls: firmware/shown.py, docs/fairness.md). A new battle
(the last one stands) opens on 3 v 3 with no bonuses, as it always did. Through the real App and
its keys (hold B, A: undo)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware.screens.sword.battle import BattleResult
from firmware.screens.sword.home import SwordHome
from firmware.screens.widgets import DiceEntry, NumberForm
from scripts.presses.harness import Driver

FIVE = "new sword players=romans,gauls,etruscans,greeks,carthage seed=4"
FOUR = "new sword players=romans,gauls,etruscans,greeks seed=4"
DEFAULTS = {"att": 3, "def": 3, "mod": 0, "defmod": 0, "att_flank": 0, "def_flank": 0}


@pytest.fixture
def d() -> Iterator[Driver]:
    driver = Driver("en")
    try:
        yield driver
    finally:
        driver.close()


def _open(d: Driver, new: str = FIVE) -> None:
    d.run(new)
    d.press("a")                                      # Continue: the game's home
    assert isinstance(d.top, SwordHome), d.screen()


def _form(d: Driver) -> dict[str, int]:
    """Battle on the home (its cursor on the first row): the form's values as it opens."""
    assert isinstance(d.top, SwordHome) and d.top.cursor == 0, d.screen()
    d.press("a")
    assert isinstance(d.top, NumberForm) and d.top.title == "Battle", d.screen()
    d.app.render()
    return d.top.values()


def _set(d: Driver, values: dict[str, int]) -> None:
    """Set the form on screen to ``values`` row by row from what it shows."""
    for i, f in enumerate(d.top.fields):
        if i:
            d.press("down")
        if f.key in values:
            want = values[f.key]
            d.press("right" if want > f.value else "left", abs(want - f.value))
            assert f.value == want, (f.key, f.value, want)


def _keys(d: Driver, *keys: str) -> None:
    for key in keys:
        d.press(key)


def _undo(d: Driver) -> None:
    """Hold B, A (yes, undo), the «Undone: …» notice read: the home again."""
    d.press("b:hold")
    d.press("a")
    while d.app.message is not None or type(d.top).__name__ == "TextScreen":
        d.press("b")
    assert isinstance(d.top, SwordHome), d.screen()


FLANKED = {"att": 5, "def": 4, "mod": 2, "defmod": -1, "att_flank": 1, "def_flank": 2, "band": 2, "dice": 0}


def test_the_form_after_an_undo_holds_the_undone_battle_and_fights_it_on_the_same_dice(d):  # W-2, undo never re-rolls
    """Every row of the undone battle is there (flanking units and the Sacred Band too), and A
    fights it again with the device's dice: the same dice as shown before, not a re-roll."""
    _open(d)
    assert _form(d) == {**DEFAULTS, "band": 0, "dice": 0}
    _set(d, FLANKED)
    d.press("a")
    assert isinstance(d.top, BattleResult), d.screen()
    first, line = d.top.result, d.console.session.lines[-1]
    assert line == "battle att=5 def=4 att-flank=1 def-flank=2 mod=2 defmod=-1 sacred-band=def"
    assert len(first["defender"]["dice"]) == 4                                  # W-2: the Sacred Band's 4d6
    _undo(d)
    assert d.view()["last_battle"] is None and d.view()["actions"] == 0
    assert _form(d) == FLANKED, "the form forgot the battle just undone"
    d.press("a")                                                                # fought again, one press
    assert isinstance(d.top, BattleResult), d.screen()
    assert d.console.session.lines[-1] == line
    again = d.top.result
    assert (again["attacker"]["dice"], again["defender"]["dice"]) == (first["attacker"]["dice"], first["defender"]["dice"])
    assert again["winner"] == first["winner"] and again["readings"] == first["readings"]


def test_a_typo_corrected_after_an_undo_keeps_the_faces_thrown_on_the_table(d):  # W-2, W-7
    """The rulebook's battle (W-7) entered with 13 attackers instead of 12 and the table's dice: after
    the undo one row is corrected (left once) and the dice entry opens on the faces entered, read;
    A, A fights it. The dice entry's faces are those of the undone battle, not fresh guesses."""
    _open(d, FOUR)
    _form(d)
    _set(d, {"att": 13, "def": 5, "mod": 3, "dice": 1})
    d.press("a")
    assert isinstance(d.top, DiceEntry)
    d.top.faces, d.top.set = [[2, 2, 5], [4, 5, 5]], [[True] * 3, [True] * 3]   # thrown on the table
    d.press("a")
    assert d.console.session.lines[-1] == "battle att=13 def=5 mod=3 defmod=0 att-dice=2,2,5 def-dice=4,5,5"
    _undo(d)
    assert _form(d) == {**DEFAULTS, "att": 13, "def": 5, "mod": 3, "dice": 1}
    before = d.presses
    _keys(d, "left", "a")                              # 12 attackers; A: the dice
    assert isinstance(d.top, DiceEntry) and d.top.faces == [[2, 2, 5], [4, 5, 5]]
    assert all(all(row) for row in d.top.set)         # entered, not guessed: turning one changes no other
    d.press("a")
    assert d.presses - before == 3
    assert d.console.session.lines[-1] == "battle att=12 def=5 mod=3 defmod=0 att-dice=2,2,5 def-dice=4,5,5"
    assert isinstance(d.top, BattleResult) and d.top.result["support"] == 3     # W-7: the defender's +3


def test_a_new_battle_opens_on_three_against_three_without_bonuses(d):  # W-2
    """While the last battle stands the next one is another (other armies): the form opens as it
    always did, the dice excepted (the device remembers the table's: every roll's form)."""
    _open(d)
    _form(d)
    _set(d, FLANKED)
    _keys(d, "a", "b")
    assert _form(d) == {**DEFAULTS, "band": 0, "dice": 0}


def test_the_battle_undone_goes_once_another_is_fought_in_its_place(d):  # W-2
    """Undone, corrected and fought: that one stands, so the next form is a new battle's."""
    _open(d)
    _form(d)
    _set(d, FLANKED)
    _keys(d, "a", "b")
    _undo(d)
    _form(d)
    _keys(d, "left", "a", "b")                         # 4 attackers this time: another battle
    assert d.console.session.lines[-1].startswith("battle att=4 def=4 ")
    assert _form(d) == {**DEFAULTS, "band": 0, "dice": 0}


def test_battles_undone_one_after_the_other_are_offered_oldest_first(d):  # W-2, undo
    """Two battles undone: the form holds the first of them; fought again unchanged (the same dice),
    the next form holds the second."""
    _open(d)
    for values in ({"att": 6}, {"def": 7, "mod": 1}):
        _form(d)
        _set(d, values)
        _keys(d, "a", "b")
    lines = list(d.console.session.lines)
    _undo(d)
    _undo(d)
    assert _form(d) == {**DEFAULTS, "att": 6, "band": 0, "dice": 0}
    _keys(d, "a", "b")
    assert _form(d) == {**DEFAULTS, "def": 7, "mod": 1, "band": 0, "dice": 0}
    _keys(d, "a", "b")
    assert list(d.console.session.lines) == lines


def test_a_battle_fought_and_undone_over_the_serial_link_is_held_too(d):  # W-2: the view, not the keys
    """The form follows the session's view: a battle the serial link fought (the home drew it) and
    an undo sent over the link leave the form holding that battle."""
    _open(d, FOUR)
    assert d.run("battle att=7 def=2 def-flank=3 mod=-2 att-dice=6,6,1 def-dice=3,3,3")["ok"]
    d.app.render()
    assert d.run("undo")["ok"]
    d.app.render()
    assert _form(d) == {"att": 7, "def": 2, "mod": -2, "defmod": 0, "att_flank": 0, "def_flank": 3, "dice": 1}


def test_the_battle_is_held_after_a_restart_once_the_home_has_shown_it(d):  # W-2, kill -9 and resume
    _open(d)
    _form(d)
    _set(d, {"att": 8, "mod": -2})
    _keys(d, "a", "b")
    d.restart()                                       # the power goes and comes back: the main menu
    d.press("a")                                      # Continue: the home shows the battle standing
    assert isinstance(d.top, SwordHome), d.screen()
    _undo(d)
    assert _form(d) == {**DEFAULTS, "att": 8, "mod": -2, "band": 0, "dice": 0}


def test_the_battle_undone_is_held_after_a_power_cut_after_the_undo(d):  # W-2, kill -9 and resume
    """The battle fought and undone, then the power goes before the form is opened: the form holds
    it from the session's undo record (no screen saw the battle since the start), and A fights it
    again on the dice the device showed (undo never re-rolls)."""
    _open(d)
    _form(d)
    _set(d, FLANKED)
    d.press("a")
    first, line = d.top.result, d.console.session.lines[-1]
    d.press("b")
    _undo(d)
    d.restart()                                       # kill -9 after the undo: the main menu
    d.press("a")                                      # Continue
    assert isinstance(d.top, SwordHome), d.screen()
    assert _form(d) == FLANKED, "the form forgot the battle undone before the power cut"
    d.press("a")
    assert d.console.session.lines[-1] == line
    again = d.top.result
    assert (again["attacker"]["dice"], again["defender"]["dice"]) == (first["attacker"]["dice"], first["defender"]["dice"])


def test_a_battle_undone_over_the_serial_link_while_the_device_was_off_is_held(d):  # W-2, restart
    """Fought and undone over the serial link, the device restarted before its home ever showed the
    battle: the form holds it with the faces thrown on the table."""
    _open(d, FOUR)
    d.restart()
    assert d.run("battle att=9 def=3 att-flank=4 mod=1 defmod=2 att-dice=1,2,3 def-dice=6,5,4")["ok"]
    assert d.run("undo")["ok"]
    d.restart()
    d.press("a")
    assert _form(d) == {"att": 9, "def": 3, "mod": 1, "defmod": 2, "att_flank": 4, "def_flank": 0, "dice": 1}
    d.press("a")
    assert isinstance(d.top, DiceEntry) and d.top.faces == [[1, 2, 3], [6, 5, 4]]


def test_undone_battle_comes_from_the_sessions_undo_record_after_a_restart(tmp_path):  # W-2, PROTOCOL: undo
    """``undone-battle``: null before any undo; after an undo of a battle its values, read back
    after a restart from the undo row; typed options refused (only the record gives them); fought
    again with the device's dice it rolls the same dice (undo never re-rolls); once another battle
    is fought in its place, null."""
    from firmware.console import Console
    from firmware.store import Store

    def console() -> Console:
        store = Store(tmp_path)
        return Console(store, store.resume())
    c = console()
    assert c.request(FIVE)["ok"]
    assert c.request("undone-battle")["battle"] is None
    line = "battle att=5 def=4 att-flank=1 def-flank=2 mod=2 defmod=-1 sacred-band=def"
    first = c.request(line)
    assert c.request("undone-battle")["battle"] is None                    # it stands: nothing undone
    assert c.request("undo")["ok"]
    c.close()                                                             # the power goes
    c = console()
    out = c.request("undone-battle")
    assert out["battle"] == {"attackers": 5, "defenders": 4, "att_flank": 1, "def_flank": 2, "mod": 2,
                             "defmod": -1, "sacred_band": "defender", "att_dice": None, "def_dice": None}
    typed = c.request("undone-battle att=7 def=1")
    assert typed["ok"] is False and typed["error"] == "bad_arguments"
    again = c.request(line)                                               # the device's dice: the same
    assert (again["attacker"]["dice"], again["defender"]["dice"]) == (first["attacker"]["dice"], first["defender"]["dice"])
    assert c.request("undo")["ok"]
    assert c.request("battle att=2 def=2")["ok"]                          # another in its place
    assert c.request("undone-battle")["battle"] is None
    assert c.request("undo")["ok"]                                        # the latest undone here: that one
    assert c.request("undone-battle")["battle"]["attackers"] == 2
    assert c.request("battle att=6 def=3 retreat=1")["ok"] and c.request("undo")["ok"]    # retreat= on the line
    assert c.request("undone-battle")["battle"]["attackers"] == 6
    c.close()


def test_an_undone_battle_past_the_form_s_ranges_is_held_whole(d):  # W-2: the undone battle, not a clamped one
    """The serial link takes 99 units a side and bonuses of ±20; the form's rows go to 30 and ±9. A
    battle past them, undone, opened on 30 attackers and +9: A fought another battle than the one
    undone. The rows now reach the undone battle's figures."""
    _open(d, FOUR)
    line = "battle att=40 def=3 att-flank=25 mod=12 defmod=-11"
    assert d.run(line)["ok"] and d.run("undo")["ok"]
    d.app.render()
    assert _form(d) == {"att": 40, "def": 3, "mod": 12, "defmod": -11, "att_flank": 25, "def_flank": 0, "dice": 0}
    d.press("a")
    assert isinstance(d.top, BattleResult), d.screen()
    assert d.console.session.lines[-1] == line
