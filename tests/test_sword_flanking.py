"""The loss table's column for a side with a flanking force (W-2, W-4): it reads the column of its
army size, the army's units plus half the flanking units rounded up (the term W-2 defines for the
force ratio and W-4 uses for the loss table), while every unit present, the flankers' too, can be
lost. Battles entered without flanking units read and answer exactly as before (stored sessions)."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.sword.battle import army_size, size_column
from firmware.screens.sword.battle import BattleResult, loss_rows
from tests.test_sword_dice import battle

NEW = "new sword players=romans,gauls,etruscans,greeks seed=3"


@pytest.mark.parametrize("units, flank, size", [(7, 5, 10), (1, 2, 2), (1, 1, 2), (1, 3, 3), (2, 1, 3), (4, 0, 4)])
def test_army_size_counts_half_the_flanking_units_rounded_up(units: int, flank: int, size: int):  # W-2, W-7
    assert army_size(units + flank, flank) == size


def test_one_unit_with_two_flankers_reads_the_2_column_not_3_plus():  # W-2, W-4
    """Three units fight, but the army size is 1 + ⌈2/2⌉ = 2: the winner's 4s read nothing in the "2"
    column (the "3+" column's 4 costs the loser 1 each)."""
    flanked = battle("att=1 att-flank=2 def=3 att-dice=4,4,6 def-dice=2,2,3")
    plain = battle("att=3 def=3 att-dice=4,4,6 def-dice=2,2,3")
    assert flanked["winner"] == plain["winner"] == "attacker"
    assert [r["reads"] for r in flanked["readings"] if r["side"] == "attacker"] == ["-", "-", "L2"]
    assert [r["reads"] for r in plain["readings"] if r["side"] == "attacker"] == ["L1", "L1", "L2"]
    assert (flanked["defender"]["losses"], plain["defender"]["losses"]) == (2, 3)
    assert (flanked["attacker"]["units"], flanked["attacker"]["flank"], flanked["attacker"]["size"]) == (3, 2, 2)


def test_the_flankers_can_be_lost_though_they_count_half():  # W-4: losses stop at the units present
    """A 1-unit army with 2 flankers that loses with 1,5,5 against 6,6,6 loses all 3 units (7 read)."""
    r = battle("att=1 att-flank=2 def=3 att-dice=1,5,5 def-dice=6,6,6")
    assert r["loser"] == "attacker" and r["attacker"]["losses"] == 3 and r["attacker"]["eliminated"]


def test_the_defender_s_flanking_force_counts_half_too():  # W-2, W-4
    r = battle("att=3 def=1 def-flank=2 att-dice=1,1,1 def-dice=4,5,6")
    assert r["winner"] == "defender" and r["defender"]["size"] == 2
    assert [x["reads"] for x in r["readings"] if x["side"] == "defender"] == ["-", "L2", "L2"]


def test_the_rulebook_example_entered_with_its_flanking_force():  # W-7: Romans 7 + 5 flanking (size 10)
    r = battle("att=7 att-flank=5 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5")
    assert (r["attacker"]["units"], r["attacker"]["flank"], r["attacker"]["size"]) == (12, 5, 10)
    assert (r["attacker"]["losses"], r["defender"]["losses"], r["support"]) == (5, 1, 3)


def test_a_battle_without_flanking_units_answers_as_before():  # W-4: stored sessions replay exactly
    """A line without ``att-flank=``/``def-flank=`` (every battle stored before) gives the fields it
    gave: no ``flank``/``size`` keys, the column of its units."""
    r = battle("att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5")
    assert list(r["attacker"]) == ["units", "dice", "modifier", "total", "losses", "table_losses", "eliminated"]
    assert "flank" not in r["defender"]


@pytest.mark.parametrize("line", ["att=3 def=3 att-flank=-1", "att=3 def=3 def-flank=x", "att=3 def=3 att-flank=100"])
def test_flanking_units_out_of_range_are_refused(line: str):
    from engine.errors import BadArguments
    with pytest.raises(BadArguments):
        battle(line)


@pytest.mark.parametrize("lang, flank, said", [
    ("en", 2, "Attacker's army size 2 = 1 + 1 (half of 2 flanking units): column 2."),
    ("en", 1, "Attacker's army size 2 = 1 + 1 (half of 1 flanking unit): column 2."),
    ("ru", 2, "Армия атакующего: 2 = 1 + 1 (половина 2 фланговых БЕ), столбец 2."),
    ("ru", 1, "Армия атакующего: 2 = 1 + 1 (половина 1 фланговой БЕ), столбец 2."),
    ("ru", 5, "Армия атакующего: 4 = 1 + 3 (половина 5 фланговых БЕ), столбец 3+."),
    ("uk", 1, "Армія нападника: 2 = 1 + 1 (половина 1 флангової БО), стовпець 2."),
    ("uk", 3, "Армія нападника: 3 = 1 + 2 (половина 3 флангових БО), стовпець 3+."),
])
def test_the_loss_table_screen_says_the_army_size_it_reads(lang: str, flank: int, said: str):  # W-2, W-4
    from firmware import i18n
    i18n.set_language(lang)
    r = battle(f"att=1 att-flank={flank} def=3 att-dice=4,4,6 def-dice=2,2,3")
    rows = loss_rows(r)
    assert rows[0] == said and len(rows) == 1 + 2 + 6            # the size, each side's name and dice


def test_no_army_size_is_said_without_a_flanking_force():  # W-4
    rows = loss_rows(battle("att=3 def=3 att-dice=4,4,6 def-dice=2,2,3"))
    assert len(rows) == 2 + 6 and all("army" not in row for row in rows)


def test_the_battle_form_sends_the_flanking_units_and_the_result_reads_on_to_the_loss_table():  # W-2, W-4
    """Battle form: attacker 1 unit, 2 flanking (the row under the bonuses), A: the line carries
    ``att-flank=2``; the result's A reads on, page by page, to the loss table on its last page(s),
    which says the army size first (it was another screen, A opened it from the first page)."""
    from firmware.screens import base
    from tests.test_screens_sword import home
    ctx = home(NEW).press("a", "left", "left", "down", "down", "down", "down", "right", "right", "a")
    assert ctx.session.lines[-1] == "battle att=1 def=3 att-flank=2 mod=0 defmod=0"
    result = ctx.top
    assert isinstance(result, BattleResult) and result.result["attacker"]["size"] == 2
    rows = result.rows()
    heading = rows.index("Loss table (W-4):")
    while result.scroll.top + base.ROWS <= heading:                  # A, a page at a time, to its row
        ctx.press("a")
    assert ctx.top is result and result.scroll.top > 0
    assert " ".join(rows[heading + 1:]).startswith("Attacker's army size 2 = 1 + 1 (half of 2 flanking units)")


def test_a_flanked_battle_replays_after_a_restart(tmp_path: Path):  # W-4, kill -9 resume
    from tests.test_sword_console import console
    out = console([NEW, "battle att=1 att-flank=2 def=3 att-dice=4,4,6 def-dice=2,2,3"], tmp_path)
    again = console(["state"], tmp_path)
    assert out[-1]["attacker"]["size"] == 2
    assert again[-1]["state"]["last_battle"]["attacker"]["size"] == 2


def test_eliminated_is_said_of_every_unit_and_of_the_winner_too():  # W-2, W-4, seed 8.4
    """``eliminated``: every one of the side's units eliminated (8.4's word for the units, not its
    leaders). Losses that reach the army's units with flanking units left are not (W-2: those are
    besides the army's; which units go is the player's removal); a winner whose last unit the loser's
    ``W1`` readings take is."""
    r = battle("att=2 att-flank=3 def=5 att-dice=1,2,2 def-dice=6,3,3")
    a = r["attacker"]
    assert r["loser"] == "attacker" and a["losses"] == 3 >= a["units"] - a["flank"]
    assert a["eliminated"] is False
    r = battle("att=1 def=3 mod=9 att-dice=3,3,3 def-dice=6,6,5")    # 18 beats 17; the loser's 6, 6, 5: W1 each
    assert r["winner"] == "attacker" and r["attacker"]["losses"] == 1 and r["attacker"]["eliminated"] is True
    assert r["defender"]["losses"] == 0 and r["defender"]["eliminated"] is False


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("side", ["att", "def"])
def test_the_army_size_under_the_loss_table_takes_four_rows(lang: str, side: str):  # W-2, W-4
    """A side's army size with its flanking force (W-2) and the loss table column it reads (W-4):
    six rows in en and eight in ru/uk a flanking side («(half, rounded up)», «Loss table column:»
    on rows of their own), one or two A presses more on every battle with a flanking force; four
    rows now in every language, for any army and flanking force the form takes (1-30, 0-20)."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.sword.battle import army_size_said
    i18n.set_language(lang)
    try:
        for units, flank in [(1, 1), (1, 2), (2, 3), (7, 5), (9, 11), (15, 20), (30, 20), (29, 1)]:
            r = battle(f"att={units} def={units} {side}-flank={flank} att-dice=4,4,6 def-dice=2,2,3")
            name = "attacker" if side == "att" else "defender"
            rows = base.wrap(army_size_said(name, r[name]))
            assert len(rows) <= 4, rows
            assert str(r[name]["size"]) in rows[0] + rows[1] and rows[-1].endswith(f"{size_column(r[name]['size'])}.")
    finally:
        i18n.set_language("en")
