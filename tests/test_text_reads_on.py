"""A on a text that goes on below the rows shown (a long notice «Note», a why, a log, a table) shows
the next page and closes only the last one (docs/keys.md): A closed every text at once, so the end
of a two-page notice — Auto-Crassus's turn ending «(ход записан в Журнале).» — was never seen.
B and left still close at once; a key held down never reads a page for the player."""
from __future__ import annotations

import pytest

from firmware.screens import base
from firmware.screens.widgets import TableScreen, TextScreen
from hw.keys import KeyFilter
from tests.screens import app_with

# a notice of three screenfuls, its last sentence on the last rows only
LONG = " ".join(f"Sentence number {i} of the notice." for i in range(1, 8)) + " (The turn is in the Log.)"


def _shown(screen: TextScreen) -> list[str]:
    return screen.rows[screen.top:screen.top + base.ROWS]


def _long_notice(app) -> TextScreen:
    app.notify(LONG)
    note = app.stack[-1]
    assert isinstance(note, TextScreen) and len(note.rows) > 2 * base.ROWS, note.rows
    return note


@pytest.mark.parametrize("key", ["a", "press", "right"])
def test_a_reads_a_long_notice_page_by_page_then_closes_it(state_dir, key):
    app = app_with([], [], state_dir)
    try:
        under = app.stack[-1]
        note = _long_notice(app)
        shown: set[int] = set()                            # the rows on the panel (by number)
        for _ in range(10):
            if app.stack[-1] is not note:
                break
            shown |= set(range(note.top, note.top + base.ROWS))
            app.handle(key)
        assert app.stack[-1] is under                      # closed at last
        assert shown == set(range(len(note.rows)))         # every row was on the panel before it closed
        assert "Log.)" in note.rows[-1]
    finally:
        app.console.close()


@pytest.mark.parametrize("key", ["b", "left"])
def test_b_and_left_close_a_long_notice_at_once(state_dir, key):
    app = app_with([], [], state_dir)
    try:
        under = app.stack[-1]
        _long_notice(app)
        app.handle(key)
        assert app.stack[-1] is under
    finally:
        app.console.close()


def test_a_on_the_last_page_closes_after_scrolling_there(state_dir):
    """Scrolled down to the last rows, A closes at once: nothing is left to show."""
    app = app_with([], [], state_dir)
    try:
        under = app.stack[-1]
        note = _long_notice(app)
        for _ in range(len(note.rows)):
            app.handle("down")
        assert note.top + base.ROWS == len(note.rows)
        app.handle("a")
        assert app.stack[-1] is under
    finally:
        app.console.close()


def test_a_table_that_scrolls_reads_on_too(state_dir):
    app = app_with([], [], state_dir)
    try:
        under = app.stack[-1]
        table = TableScreen("Forces", [(f"row {i}", str(i)) for i in range(9)])
        app.push(table)
        app.handle("a")
        assert app.stack[-1] is table and table.scroll.top == base.ROWS
        app.handle("a")
        assert app.stack[-1] is table and table.scroll.top == 9 - base.ROWS     # the last rows
        app.handle("a")
        assert app.stack[-1] is under
    finally:
        app.console.close()


def test_a_text_that_fits_closes_with_a_at_once(state_dir):
    app = app_with([], [], state_dir)
    try:
        under = app.stack[-1]
        app.push(TextScreen("t", "One row."))
        app.handle("a")
        assert app.stack[-1] is under
    finally:
        app.console.close()


def _hold(app, key: str, seconds: float) -> None:
    """``key`` held down ``seconds`` on the device (firmware.device.Loop over hw/keys.py, its timing:
    a direction repeats as ``<key>:repeat``, A and press give one event, their hold)."""
    from firmware.device import Loop
    clock = [0.0]
    loop = Loop(app, None, KeyFilter(), clock=lambda: clock[0])
    loop.handle(("edge", key, True, 0.0))
    while clock[0] < seconds:
        clock[0] += 0.01
        loop.tick()
    loop.handle(("edge", key, False, seconds))
    clock[0] = seconds + 0.1
    loop.tick()


@pytest.mark.parametrize("key", ["a", "right", "press"])
def test_a_key_held_down_shows_one_page_and_never_closes_a_page_not_seen(state_dir, key):
    """Held 3 s, A (or press) is one event (hold A where the notice has no second action: a slow
    A) and right one press and its repeats, which never read on or close (keys.REPEATING): one page
    on, the notice still up with its last page not read."""
    app = app_with([], [], state_dir)
    try:
        note = _long_notice(app)
        _hold(app, key, 3.0)
        assert app.stack[-1] is note and note.top == base.ROWS, note.top
    finally:
        app.console.close()


def test_down_held_scrolls_to_the_end_and_leaves_the_notice_up(state_dir):
    app = app_with([], [], state_dir)
    try:
        note = _long_notice(app)
        _hold(app, "down", 3.0)
        assert app.stack[-1] is note and note.top + base.ROWS == len(note.rows)
    finally:
        app.console.close()


def test_the_end_of_the_undo_notice_of_his_turn_is_shown_before_it_closes(state_dir):
    """Auto-Crassus's turn taken back (hold B, A) says so in Russian in five rows, a «Note» of two
    pages: A closed it on the first, and «записан в Журнале).» (where to read what to undo on the
    board) was never on the panel. A shows it, then closes."""
    from firmware.screens.caesar.home import CaesarHome
    app = app_with(["new caesar-solo seed=7"], ["a", "a"], state_dir, "ru")     # his turn, first page
    try:
        app.handle("b:hold")
        app.handle("a")                                           # take his turn back: yes
        note = app.stack[-1]
        assert isinstance(note, TextScreen) and len(note.rows) > base.ROWS, note
        assert "Журнале" not in " ".join(_shown(note))
        app.handle("a")
        assert app.stack[-1] is note and "записан в Журнале)." in _shown(note)[-1]
        app.handle("a")
        assert isinstance(app.stack[-1], CaesarHome)
    finally:
        app.console.close()


def test_a_bag_s_history_is_read_page_by_page_with_a(state_dir):
    """Dice & bags → a bag's History (a log read a page at a time, newest first) follows the rule:
    A shows the older entries below, closes on the last page; B closes at once."""
    from firmware.screens.kit.bag import KitHistory, KitScreen
    app = app_with(["new bag items=a*5,b*5 seed=1"] + ["draw"] * 7, ["a"], state_dir)
    try:
        kit = app.stack[-1]
        assert isinstance(kit, KitScreen)
        next(i for i in kit.items(app) if i.label == "History").run(app)
        log = app.stack[-1]
        assert isinstance(log, KitHistory)
        app.render()
        assert len(log.rows) > base.ROWS
        shown = set(range(base.ROWS))                             # the rows on the panel (by number)
        while app.stack[-1] is log:
            app.handle("a")
            app.render()
            if app.stack[-1] is log:
                shown |= set(range(log.scroll.top, log.scroll.top + base.ROWS))
        assert app.stack[-1] is kit and shown == set(range(len(log.rows))), (shown, len(log.rows))
        next(i for i in kit.items(app) if i.label == "History").run(app)
        app.render()
        app.handle("b")
        assert app.stack[-1] is kit
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, words", [("en", "A shows the next page"), ("ru", "A показывает следующую страницу"),
                                         ("uk", "A показує наступну сторінку")])
def test_about_says_how_a_long_text_is_read(state_dir, lang, words):
    """Settings' About names the keys (the device's keys page): it says A reads a long text on and
    B closes it — read itself page by page with A to its last row."""
    from firmware.screens.menu import about_screen
    app = app_with([], [], state_dir, lang)
    try:
        under = app.stack[-1]
        about = about_screen()
        app.push(about)
        assert words in " ".join(" ".join(about.paras).split())
        rows = len(about.rows)
        presses = 0
        while app.stack[-1] is about:
            app.handle("a")
            presses += 1
        assert app.stack[-1] is under and presses == -(-(rows - base.ROWS) // base.ROWS) + 1, (rows, presses)
    finally:
        app.console.close()


def test_english_that_says_new_is_not_taken_for_a_console_line():
    """The random-key walk (scripts/monkey.py) read on to the second page of the notice of an ended
    bag session, «… Dice & bags → Bags & decks starts a new bag or deck.», and took the row
    «starts a new bag or» for the console's ``new bag``; a console line has its arguments after it."""
    from scripts.presses.harness import CONSOLE_SYNTAX
    said = ("This session has ended and is kept in History: nothing more can be drawn in it. Dice & bags "
            "→ Bags & decks starts a new bag or deck.")
    for width in (base.COLS - 1, base.COLS, base.COLS - 2):
        assert not [r for r in base.wrap(said, width) if CONSOLE_SYNTAX.search(r)], width
    for line in ("start one with new bag items=gold*3", "Usage: new dice [seed=N]; then roll NdS.",
                 "new glory players=Jack,Henry", "Start a new one with new caesar-solo.", "gain c_nav4"):
        assert CONSOLE_SYNTAX.search(line), line


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_reads_a_glory_event_card_to_its_end_before_closing_it(state_dir, lang):
    """G-2: the round's event card (its reward, arrows, who is first, the order, the end-of-round
    turn) takes more rows than the panel: A closed it with «End: turn 90°…» unseen."""
    from firmware.screens.glory.round import EventScreen
    app = app_with(["new glory players=Anna,Boris,Vera seed=5", "event"], [], state_dir, lang=lang)
    try:
        under = app.stack[-1]
        card = EventScreen()
        app.push(card)
        app.render()
        assert len(card.rows) > base.ROWS, card.rows
        seen: set[int] = set()
        for _ in range(10):
            if app.stack[-1] is not card:
                break
            seen |= set(range(card.scroll.top, card.scroll.top + base.ROWS))
            app.handle("a")
            app.render()
        assert app.stack[-1] is under and seen >= set(range(len(card.rows)))
    finally:
        app.console.close()
