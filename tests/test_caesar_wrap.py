"""Caesar!'s rows wrapped by firmware/screens/base.py ``wrap``: a border's name («Галлия–
Цизальпинская Галлия») breaks after its own dash when that saves a row of the 4-row body (a
closure's «+1 marker on the border …» row took four rows in ru and uk, one a press), never inside a
number, a score, a rule ID or a code, and never where breaking saves nothing."""
from __future__ import annotations

import pytest

from engine.caesar.board import SPACES
from firmware import i18n
from firmware.screens import base


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang, space, rows", [
    ("ru", "GA-GC", ["+1 жетон контроля на", "границу Галлия–", "Цизальпинская Галлия"]),
    ("ru", "IT-GC", ["+1 жетон контроля на", "границу Италия–", "Цизальпинская Галлия"]),
    ("uk", "GA-GC", ["+1 маркер контролю на", "кордон Галлія–", "Цизальпійська Галлія"]),
    ("uk", "IT-GC", ["+1 маркер контролю на", "кордон Італія–", "Цизальпійська Галлія"]),
])
def test_a_border_marker_row_breaks_after_the_border_s_dash_to_save_a_row(lang, space, rows):  # C-10
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.words import space_name
    i18n.set_language(lang)
    assert space in SPACES, space
    assert base.wrap(_("+1 marker on the border {}").format(space_name(space))) == rows


def test_every_border_marker_row_takes_at_most_three_rows():  # C-10
    """Every border of the board, in every language, on a closure's page: at most three rows of
    the body's four (the closure's markers row stays on the same screen)."""
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.words import space_name
    long = []
    for lang in ("en", "ru", "uk"):
        i18n.set_language(lang)
        for sp in SPACES:
            rows = base.wrap(_("+1 marker on the border {}").format(space_name(sp)))
            if len(rows) > 3 and sp != "HU-HC":      # (two names of two words each: four rows)
                long.append((lang, rows))
    assert not long, long


def test_a_dash_breaks_only_between_words_and_only_to_save_a_row():
    w = 21
    # a word that fits the next row whole is not broken: breaking saves nothing
    assert base.wrap("на границу Сардиния–Сицилия", w) == ["на границу", "Сардиния–Сицилия"]
    # never inside a score, a number, a rule ID, a province code, or before a particle
    for word in ("11–12", "S-11,", "C-21)", "SC-IT", "кто-то", "по-русски", "2026-11-27"):
        assert base.dash_breaks(word) == [], word
        text = "ааааааааааааааа " + word + " бббббббб"
        assert all(not r.endswith(("-", "–")) for r in base.wrap(text, w)), base.wrap(text, w)
    assert base.dash_breaks("«Галлия—Испания»") == [len("«Галлия—")]
    assert base.dash_breaks("Д'Артаньян-Ґонта") == [len("Д'Артаньян-")]
    # a row saved: «Галлия–» ends the row, the rest goes on; a one-letter tie is kept
    assert base.wrap("провинцией, а Галлия–Цизальпинская — нет", w) == [
        "провинцией, а Галлия–", "Цизальпинская — нет"]
