"""A number read on a row with what it belongs to (firmware/screens/base.py ``wrap``): the name it
numbers, an opening bracket before the name and a stop after the number included («(Легіон 10»,
«Легіон 5,»), and a unit in capitals after it («8 ПО», «10 II→I»), also when it follows a name.
Julius Caesar's battle log wrapped «1 хіт (Легіон» / «10 II→I)», its winter turn «(Цезар 2 ПО,
Помпей 8» / «ПО).»; a reader took «10» and «ПО» for figures of nothing."""
from __future__ import annotations

import pytest

from firmware.i18n import say
from firmware.screens import base

WIDTHS = [base.COLS, base.COLS - 1, base.COLS - 2, base.COLS - 4, base.COLS - 5]


def _parted(rows: list[str], *pairs: tuple[str, str]) -> list[str]:
    """The ``(end, start)`` pairs where a row ends with ``end`` and the next begins with ``start``."""
    return [f"{a!r} / {b!r}" for a, b in zip(rows, rows[1:])
            for end, start in pairs if a.endswith(end) and b.startswith(start)]


@pytest.mark.parametrize("lang, legio, hit", [("en", "Legio", "hit"), ("ru", "Легион", "хит"),
                                              ("uk", "Легіон", "хіт")])
def test_the_battle_log_keeps_the_hit_block_s_name_with_its_number(lang, legio, hit):  # J-7
    """A fire's log line names the block that took the hit in brackets with its steps: «(Легіон 10
    II→I).» is one row (it read «1 хіт (Легіон» / «10 II→I).» on the Log's 21 columns); where it
    does not fit a row, the block's steps go on to the next, its number stays with its name. The
    dice the block rolled stay on one row too: «атакує 1 4» / «6, 1 хіт» read as a six and a hit."""
    from engine.jc.battle import describe_turn
    rec = {"round": 2, "block": "c_leg10", "name": "Legio 10", "rating": "C3", "strength": 3,
           "action": "fire", "dice": [1, 4, 6], "hits": 1, "lost": 0,
           "applied": [{"block": "c_leg10", "name": "Legio 10", "from": 2, "to": 1, "result": "reduced"}]}
    text = say(describe_turn(rec), lang)
    assert f"1 {hit} ({legio} 10 II→I)." in text, text
    for width in WIDTHS:
        rows = base.wrap(text, width)
        whole = f"({legio} 10 II→I)."
        assert whole in rows if len(whole) <= width else any(r.endswith(f"({legio} 10") for r in rows), (width, rows)
        assert not _parted(rows, (legio, "10")), (width, rows)      # (the steps may go on: «(Legio 10» / «II→I).»)
        assert any("1 4 6," in r for r in rows), (width, rows)       # the dice faces: not «атакує 1 4» / «6, 1 хіт»


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("caesar, pompey", [(2, 8), (12, 10), (0, 11)])
def test_the_winter_s_score_keeps_each_side_with_its_vp(lang, caesar, pompey):  # J-19
    """The winter's victory step «No winner yet (Caesar 2 VP, Pompey 8 VP).»: each side's name, its
    figure and «VP» stay on one row at every width a text takes (uk read «(Цезар 2 ПО, Помпей 8» /
    «ПО).», en «No winner yet (Caesar» / «2 VP, Pompey 8 VP).»)."""
    from engine.jc.text import Msg
    text = say(Msg("No winner yet (Caesar {} VP, Pompey {} VP).", caesar, pompey), lang)
    first, second = text[text.index("(") + 1:-len(").")].split(", ")
    assert first.endswith(f"{caesar} {first.split()[-1]}") and second.split()[1] == str(pompey), text
    for width in WIDTHS:
        rows = base.wrap(text, width)
        assert any(f"({first}," in r for r in rows) and any(f"{second})." in r for r in rows), (width, rows)


def test_a_unit_goes_with_its_number_when_the_name_does_not_fit_the_row_too():
    """A long name, its figure and the unit take more than a row: the figure goes on with its unit
    («Максиміліан» / «12 ПО.»), never «Максиміліан 12» / «ПО.»; a name of its own after a name's
    number, a one-letter word or a word in small letters (the sentence going on) are not units."""
    assert base.wrap("Переможець: Максиміліан 12 ПО.", 16) == ["Переможець:", "Максиміліан", "12 ПО."]
    assert base.wrap("Переможець: Максиміліан 12 ПО.", 18) == ["Переможець:", "Максиміліан 12 ПО."]
    # a stop after a name's number keeps it with the name: «атакує Легіон» / «5, 1 хіт» no more
    assert base.wrap("Раунд 1: атакує Легіон 5, 1 хіт.", 16) == ["Раунд 1: атакує", "Легіон 5, 1 хіт."]
    # what is not a unit still may begin the next row, as before
    assert base.wrap("Senate token no. 12 is yours.", 19) == ["Senate token no. 12", "is yours."]
    assert base.wrap("Legio 1 Legio 2 Legio 3 Legio 4", 21) == ["Legio 1 Legio 2", "Legio 3 Legio 4"]
    assert base.wrap("Випадкова карта: № 1 з 1, рахуючи зліва.", 20) == [
        "Випадкова карта: № 1", "з 1, рахуючи зліва."]
