"""A number or a code is never broken with a hyphen (firmware/screens/base.py ``split_word``, used by
``wrap`` and the lists' ``wrap_label``): Glory's final notice read «Рахунок остаточний. Зерно жеребу:
174850297213279734-» / «32.», the hyphen read as a minus or as a character of the seed the players
check the draws with. A number longer than a row breaks with no mark (never a stop alone on the next
row); one that fits a row goes whole to a row of its own; words still break with a hyphen added."""
from __future__ import annotations

import pytest

from firmware.i18n import say
from firmware.screens import base
from firmware.screens.widgets.listing import wrap_label

SEEDS = [17485029721327973432, 2**64 - 1, 10**19, 4820173]
WIDTHS = [base.COLS, base.COLS - 1, base.COLS - 2, base.COLS - 4]     # a text's, a list's, a notice's


def _check_number(rows: list[str], number: str, width: int) -> None:
    """``number`` read whole from ``rows``: on one row when it fits one, else cut with no mark."""
    where = [k for k, r in enumerate(rows) if number[:4] in r]
    assert where, rows
    k = where[0]
    if len(number) <= width - 1:      # fits with its stop («…432.»): whole on a row
        assert any(number in r for r in rows), (width, rows)
    joined = "".join(rows[k:])
    assert number in joined, (width, rows)        # no hyphen, no space in it
    for row in rows[k:]:
        assert len(row) <= width, (width, rows)
    assert all(any(ch.isdigit() for ch in r) for r in rows[k:k + 2]), (width, rows)   # no stop alone


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("seed", SEEDS)
def test_glory_s_final_notice_breaks_the_seed_with_no_hyphen(lang: str, seed: int):
    from firmware.screens.glory.text import Msg
    text = say(Msg("The score is final. The seed of the draws: {}.", seed), lang)
    assert str(seed) in text, text
    for width in WIDTHS:
        rows = base.wrap(text, width)
        _check_number(rows, str(seed), width)
        assert not any(r.endswith("-") for r in rows), (width, rows)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("seed", SEEDS)
def test_history_s_page_and_the_fair_draw_show_the_seed_with_no_hyphen(lang: str, seed: int):
    """History's page of a game («Seed: …», a list row) and the fair draw's «The seed» page."""
    from firmware.history_text import Msg
    row = say(Msg("Seed: {}", seed), lang)
    assert str(seed) in row and (lang == "en" or not row.startswith("Seed")), row
    for width in WIDTHS:
        rows = wrap_label(row, width)
        assert not any(r.endswith("-") for r in rows), (width, rows)
        assert str(seed) in "".join(rows[1:]) or str(seed) in rows[0], (width, rows)
        if len(str(seed)) <= width:
            assert any(str(seed) in r for r in rows), (width, rows)
        assert base.wrap(str(seed), width) == ([str(seed)] if len(str(seed)) <= width else
                                              [str(seed)[:width], str(seed)[width:]])


def test_codes_break_with_no_mark_and_words_with_a_hyphen():
    """A code of figures and Latin letters (a fair-draw code, a typed share such as «3f9a…») is cut
    with no mark too; a word (no figure in it) still gets its hyphen, a word's own dash is kept."""
    assert base.split_word("3fa9c2e1b07d4e55aa", 10) == ["3fa9c2e1b0", "7d4e55aa"]
    assert base.split_word("(17485029721327973432).", 20) == ["(1748502972132797343", "2)."]
    assert base.split_word("Константинопольский", 10) == ["Константи-", "нопольский"]
    assert base.split_word("Італія–Цизальпійська", 10) == ["Італія–", "Цизальпій-", "ська"]
    assert base.split_word("Предметїєґ03длинный", 10)[0].endswith("-")   # a name with figures: a word


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("share", ["abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq", "Константинопольскийпролив",
                                   "x" * 64, "3-5-6"])
def test_a_players_share_is_shown_as_typed_with_no_hyphen_added(lang: str, share: str):
    """A share (up to 64 characters, a hyphen of its own allowed: «3-5-6») on History's page and on
    the fair draw's «The seed» page: a long one on rows of its own, cut with no mark (it read
    «abcdefghijklmnopqrs-» / «tuvwxyz…», the hyphen taken for one of its characters)."""
    from firmware import i18n
    from firmware.screens.fair_draw import seed_rows
    from firmware.screens.history import share_rows
    from firmware.screens.widgets.scroll import wrapped
    i18n.set_language(lang)
    pages = {"history": [r for row in share_rows(share) for r in wrap_label(row, base.COLS - 1)],
             "fair draw": wrapped(seed_rows({"ok": True, "seed": 17485029721327973432, "share": share,   # type: ignore[typeddict-item]
                                             "commitment": "3fa9c2e1" * 8}))}
    for page, rows in pages.items():
        at = next(k for k, r in enumerate(rows) if share[:6] in r)
        if len(share) <= base.COLS - 1:
            assert share in rows[at], (page, rows)                          # whole, beside «Share:» or under it
        else:
            assert "".join(rows[at:])[:len(share)] == share, (page, rows)   # as typed, no mark added
        assert "17485029721327973432" in rows or page == "history", (page, rows)
