"""base.py's lists whose rows are never cut (issue 9 item 9): labels wrap at spaces or after a
dash, the value stays on the item's last row, and the list turns a page at a time."""
from __future__ import annotations

from firmware.screens import base
from firmware.screens.base import Item, item_rows, wrap_label, wrapped_top


def test_labels_wrap_at_spaces_and_after_dashes_never_clipped():
    assert wrap_label("Mauretania–Numidia", 16) == ["Mauretania–", "Numidia"]
    assert wrap_label("marker in Hispania Ulterior", 16) == ["marker in", "Hispania", "Ulterior"]
    assert wrap_label("Цизальпинская Галлия", 20) == ["Цизальпинская Галлия"]
    assert "".join(wrap_label("x" * 30, 20)) == "x" * 30              # a long word is split, not cut


def test_an_item_takes_two_rows_only_when_it_does_not_fit_beside_its_value():
    assert item_rows(Item("Sicilia", None, "3–4")) == ["Sicilia"]
    assert item_rows(Item("Hispania Citerior", None, "3–4")) == ["Hispania", "Citerior"]
    assert item_rows(Item("Mauretania–Numidia", None, "3/3")) == ["Mauretania–", "Numidia"]
    for label in ("Hispania Ulterior–Hispania Citerior", "Gallia–Gallia Cisalpina", "a " * 30):
        rows = item_rows(Item(label, None, "12–10"))
        assert all(len(r) <= base.COLS - 1 for r in rows) and "…" not in "".join(rows)


def test_the_list_turns_a_page_at_a_time_with_rows_of_two():
    heights = [1, 2, 1, 2, 1]
    assert wrapped_top(heights, 1, 0) == 0           # items 0-2 fill 4 rows: no turn
    assert wrapped_top(heights, 3, 0) == 2           # a new page; the last page full (1+2+1)
    assert wrapped_top(heights, 4, 2) == 2
    assert wrapped_top(heights, 0, 2) == 0           # wrapped round to the top
    assert wrapped_top(heights, 4, 0) == 2           # wrapped round to the bottom: the last page full


def test_the_wrapped_list_draws_every_character_of_every_label():
    img, draw = base.frame()
    items = [Item("Hispania Ulterior", None, "0–0"), Item("Mauretania–Numidia", None, "3/3")]
    base.TRACE = []
    try:
        base.draw_list_wrapped(draw, items, 0, 0)
        drawn = list(base.TRACE)
    finally:
        base.TRACE = None
    texts = [t for _x, _y, t, _k in drawn]
    assert texts == ["Hispania", "Ulterior", "0–0", "Mauretania–", "Numidia", "3/3"]
    assert all(x + len(t) * 6 <= base.W for x, _y, t, _k in drawn)
