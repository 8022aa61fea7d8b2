"""The one list widget (firmware/screens/widgets/listing.py): rows never cut when it wraps rows
(issue 9 item 9: labels wrap at spaces or after a dash, the value stays on the item's last row),
the list turns a page at a time with the last page full, the cursor stops at the ends (issue 24
§4: no wrap from the last row to the first), stays on its item when rows come and go, and a footer
is never a row."""
from __future__ import annotations

from firmware.screens import base
from firmware.screens.widgets import Item, ListScreen, WrappedListScreen, draw_list, item_rows, page_top, wrap_label, wrapped_top
from tests.fakectx import FakeCtx


def test_labels_wrap_at_spaces_and_after_dashes_never_clipped():
    assert wrap_label("Mauretania–Numidia", 16) == ["Mauretania–", "Numidia"]
    assert wrap_label("marker in Hispania Ulterior", 16) == ["marker in", "Hispania", "Ulterior"]
    assert wrap_label("Цизальпинская Галлия", 20) == ["Цизальпинская Галлия"]
    assert wrap_label("x" * 30, 20) == ["x" * 19 + "-", "x" * 11]      # a long word is split, marked, not cut
    assert wrap_label("Предметїєґ03-длинныйЁ", 20) == ["Предметїєґ03-", "длинныйЁ"]    # after its own hyphen
    # a dash standing between spaces keeps the space after it (History showed a Julius Caesar
    # campaign as «победа —Помпей, ПО 7–4»); a dash inside a word still joins without one
    assert wrap_label("Кампания окончена: победа — Помпей, ПО 7–4.", 20) == [
        "Кампания окончена:", "победа — Помпей, ПО", "7–4."]
    assert wrap_label("Mauretania–Numidia – Africa", 30) == ["Mauretania–Numidia – Africa"]


def test_a_wrapped_label_keeps_a_one_letter_word_and_a_score_whole():
    """History's list showed a bag game as «Мешочек и» / «колода ~27.11» (uk «Торбинка і» /
    «колода»): a one-letter word goes to the next row with the word it belongs to; a score is
    never broken between its figures («ПО 11–» / «2.»); a name after a dash still may be."""
    assert item_rows(Item("Мешочек и колода", None, "~27.11")) == ["Мешочек", "и колода"]
    assert item_rows(Item("Торбинка і колода", None, "~27.11")) == ["Торбинка", "і колода"]
    assert wrap_label("Кампания окончена: победил Цезарь, ПО 11–2.", 21) == [
        "Кампания окончена:", "победил Цезарь, ПО", "11–2."]
    assert wrap_label("Mauretania–Numidia", 16) == ["Mauretania–", "Numidia"]


def test_a_label_keeps_its_own_ties_as_the_text_wrap_does():
    """A label's own no-break space (:data:`base.TIE`, a catalog's «10\u00a0ПО») is not broken at:
    ``base.tied`` split the label at every whitespace, the tie too, so a list row broke where a
    text on any other screen did not."""
    label = "aaaa bbbb" + base.TIE + "cccc"
    assert wrap_label(label, 10) == base.wrap(label, 10) == ["aaaa", "bbbb cccc"]


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
    assert wrapped_top(heights, 0, 2) == 0           # back up to the first item: its page
    assert wrapped_top(heights, 4, 0) == 2           # straight to the last item: the last page full


def test_a_page_starts_at_the_row_the_cursor_went_to_and_the_last_page_is_full():
    # 10 rows, 4 shown: moving inside a page keeps it, leaving it starts the next page at the
    # cursor's row, and a page that would run past the end is moved back to end on the last row
    assert page_top(3, 0, 4, 10) == 0
    assert page_top(4, 0, 4, 10) == 4                # the next page from the row the cursor went to
    assert page_top(8, 4, 4, 10) == 6                # not 8: the last page is full (rows 6-9)
    assert page_top(9, 0, 4, 10) == 6
    assert page_top(5, 6, 4, 10) == 2                # up out of a page: the page that ends at the cursor
    assert page_top(0, 6, 4, 3) == 0                 # a short list never pages
    # a list that lost rows under its page (the bag's own screen after a new bag: 5 rows, then 4)
    # shows them all again: its first row was hidden over a blank last one
    assert page_top(3, 1, 4, 4) == 0
    assert page_top(8, 6, 4, 9) == 5
    assert wrapped_top([1, 2, 1], 2, 1) == 0
    assert wrapped_top([1, 2, 1, 2], 3, 2, 4) == 2   # (a full last page is kept)


def test_the_wrapped_list_draws_every_character_of_every_label():
    img, draw = base.frame()
    items = [Item("Hispania Ulterior", None, "0–0"), Item("Mauretania–Numidia", None, "3/3")]
    base.TRACE = []
    try:
        draw_list(draw, items, 0, 0, wrap=True)
        drawn = list(base.TRACE)
    finally:
        base.TRACE = None
    texts = [t for _x, _y, t, _k in drawn]
    assert texts == ["Hispania", "Ulterior", "0–0", "Mauretania–", "Numidia", "3/3"]
    assert all(x + len(t) * 6 <= base.W for x, _y, t, _k in drawn)


def test_an_item_that_does_not_fit_below_the_last_shows_its_first_rows():
    # Caesar! «Взять центуриона»: three tokens, then «Нет (тянуть как обычно)» on two rows: the
    # fourth row showed nothing (the list seemed to end there) until the cursor went down
    items = [Item("универсальный 3/3"), Item("меч 7/0"), Item("щит/корабль 4/4"), Item("Нет (тянуть как обычно)")]
    img, draw = base.frame()
    base.TRACE = []
    try:
        draw_list(draw, items, 0, 0, wrap=True)
        drawn = list(base.TRACE)
    finally:
        base.TRACE = None
    assert [(y, t) for _x, y, t, _k in drawn][-1] == (base.row_y(3), "Нет (тянуть как")
    assert all(t != "обычно)" for _x, _y, t, _k in drawn)          # the rest on the next page, whole


class Numbers(ListScreen):
    title = "Numbers"

    def __init__(self, n: int, foot: str = "") -> None:
        super().__init__()
        self.labels = [f"Row {i}" for i in range(n)]
        self.foot = foot

    def items(self, ctx):
        return [Item(label) for label in self.labels]

    def footer(self, ctx):
        return self.foot


def test_the_cursor_stops_at_both_ends():  # issue 24 §4: no wrap from the last item to the first
    screen = Numbers(6)
    ctx = FakeCtx().open(screen)
    ctx.press("up")
    assert screen.cursor == 0
    ctx.press(*["down"] * 9)
    assert screen.cursor == 5 and screen.top == 2          # the last page full
    ctx.press("down")
    assert screen.cursor == 5


def test_the_cursor_stays_on_its_item_when_rows_come_and_go():  # issue 24 §4
    screen = Numbers(5)
    ctx = FakeCtx().open(screen)
    ctx.press("down", "down")                              # on "Row 2"
    screen.labels.insert(0, "Resume")                      # a phase adds a row above it
    ctx.render()
    assert screen.items(ctx)[screen.cursor].label == "Row 2"
    screen.labels.remove("Row 1")                          # and takes one away
    ctx.press("down")
    assert screen.items(ctx)[screen.cursor].label == "Row 3"


def test_a_footer_is_under_a_rule_and_never_a_row():  # issue 24 §4
    screen = Numbers(5, foot="Milestones 12 21 30")
    ctx = FakeCtx().open(screen)
    ctx.press(*["down"] * 10)
    assert screen.cursor == 4                              # the footer is not a place for the cursor
    img = ctx.render()
    y = base.row_y(base.ROWS - 1)
    assert all(img.getpixel((x, y)) for x in range(base.W))   # the rule across the panel
    drawn = ctx.texts()
    assert drawn[-1] == "Milestones 12 21 30" and drawn.count("Row 4") == 1
    assert screen.visible_rows(ctx) == base.ROWS - 1


def test_two_rows_of_the_same_label_can_both_be_reached():
    class Twins(WrappedListScreen):
        def items(self, ctx):
            return [Item("sword 6/0"), Item("sword 6/0"), Item("ship 4/2")]
    screen = Twins()
    ctx = FakeCtx().open(screen)
    ctx.press("down")
    ctx.render()
    assert screen.cursor == 1


def test_a_value_in_words_stands_two_columns_off_and_never_cuts_a_label():
    """A value in words one column from its label read as the label's next word («Campaign over
    Caesar», «Внесок гравців немає»): two columns, the label wrapping when they do not fit. A list
    that does not wrap keeps the label whole a column nearer rather than cut it for the gap (The
    Sword of Rome's «Who plays?» cut «Внесок гравц…»)."""
    assert item_rows(Item("Campaign over", value="Caesar")) == ["Campaign", "over"]    # «Caesar» beside «over»
    assert item_rows(Item("Внесок гравців", value="немає"), wrap=False) == ["Внесок гравців"]
    assert item_rows(Item("Poison", value="off")) == ["Poison"]                   # room: one row
    assert item_rows(Item("Tile A?", value="3 actions")) == ["Tile A?"]
    assert item_rows(Item("Приказ Б?", value="2 действия")) == ["Приказ Б?"]    # a figure: one column


def _arrows(img) -> tuple[bool, bool]:
    """(↑ at the top of the rows, ↓ at their bottom): the stem beside the scroll bar's column."""
    x, top, bottom = base.W - 2, base.row_y(0), base.H - 1
    return (all(img.getpixel((x, y)) for y in range(top, top + 5)),
            all(img.getpixel((x, y)) for y in range(bottom - 4, bottom + 1)))


def test_a_list_marks_rows_above_and_below_the_page_shown():
    """A list opened on a row further down (a tied hit's pick on ✓ Legio 8, with Caesar and Legio 10
    and their odds above, off the page) showed only the 1-pixel scroll bar: the player did not know
    there were choices above. An ↑ marks rows above the page shown, an ↓ rows below, none when all
    fits; the marks keep clear of every row's text (the last character column is left free)."""
    screen = Numbers(6)
    ctx = FakeCtx().open(screen)
    assert _arrows(ctx.render()) == (False, True)             # the first page: rows below only
    ctx.press(*["down"] * 5)
    assert screen.top == 2 and _arrows(ctx.render()) == (True, False)   # the last page: rows above
    screen = Numbers(10)
    ctx = FakeCtx().open(screen)
    ctx.press(*["down"] * 9, *["up"] * 4)
    assert 0 < screen.top < 6 and _arrows(ctx.render()) == (True, True)   # a page in the middle
    screen = Numbers(4)
    assert _arrows(FakeCtx().open(screen).render()) == (False, False)   # all fits: no mark
    screen = Numbers(6, foot="Milestones 12 21 30")                      # above a footer's rule
    ctx = FakeCtx().open(screen)
    img = ctx.render()
    rule = base.row_y(base.ROWS - 1)
    assert all(img.getpixel((base.W - 2, y)) for y in range(rule - 5, rule))
    assert not any(img.getpixel((x, y)) for x in range(base.W - 4, base.W - 1)   # the last text column
                   for y in range(base.row_y(0) + 5, rule - 5))                  # is the marks' alone
