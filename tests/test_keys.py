"""The one key grammar (issue 22 item 2): one table says what every key means where the cursor
stands, docs/keys.md shows that table, and no screen reads the keys for itself."""
from __future__ import annotations

import re
from pathlib import Path

from firmware.screens.widgets.keys import GRAMMAR, KEYS, Intent, intent, table_markdown

ROOT = Path(__file__).resolve().parents[1]


def test_key3_is_given_as_hold_a_to_every_screen_but_the_key_test():
    """KEY3, pressed or held, reaches a screen as hold A; hold A reaches a screen without a second
    action of its own as A; the key test (which names every key) gets each key as it came."""
    from firmware.screens.widgets.keys import given
    for place in GRAMMAR:
        if place == "keytest":
            assert [given(k, place, True) for k in ("key3", "key3:hold", "a:hold")] == ["key3", "key3:hold", "a:hold"]
            continue
        for key in ("key3", "key3:hold", "a:hold"):
            assert given(key, place, True) == "a:hold" and given(key, place, False) == "a", (place, key)
        for key in ("a", "b", "press", "press:hold", "b:hold", "up:repeat"):
            assert given(key, place, True) == given(key, place, False) == key, (place, key)


def test_docs_keys_shows_the_table_the_code_uses():
    assert table_markdown() in (ROOT / "docs" / "keys.md").read_text(encoding="utf-8")


def test_the_grammar_holds_in_every_place():
    for place, table in GRAMMAR.items():
        if place == "keytest":                   # the key test names every key; hold A or hold B leaves
            assert {intent(place, k) for k in KEYS if k not in ("a:hold", "b:hold")} == {Intent.NOTHING}
            assert intent(place, "a:hold") is intent(place, "b:hold") is Intent.CLOSE
            continue
        assert table.get("b:hold", Intent.CLOSE) in (Intent.UNDO, Intent.CLOSE), place   # hold B: undo (a notice closes)
        assert table["a:hold"] == table["key3"], place                       # KEY3 is hold A everywhere
        if place not in ("notice", "question"):
            assert table["b"] is Intent.BACK, place                         # B is back everywhere
            assert table["a:hold"] is Intent.SECOND, place
    for place in ("row", "text", "question"):
        assert intent(place, "left") is Intent.BACK                         # left/B back
    assert intent("row", "right") is intent("row", "a") is intent("row", "press") is Intent.SELECT
    assert intent("question", "a") is Intent.YES
    assert {intent("question", k) for k in ("right", "press")} == {Intent.NOTHING}   # a nudge never confirms
    assert {intent("notice", k) for k in KEYS} == {Intent.CLOSE}
    for place in ("figure", "choice", "dial"):                              # a figure: left/right change it
        assert (intent(place, "left"), intent(place, "right")) == (Intent.LESS, Intent.MORE)
        assert intent(place, "a") is Intent.GO
    assert intent("figure", "press") is intent("dial", "press") is Intent.STEP
    assert intent("choice", "press") is Intent.GO


def test_no_screen_reads_a_raw_key_for_itself():
    raw = re.compile(r"""\bkey\s*(==|!=|in)\s*[("'\[]""")
    for path in (ROOT / "firmware" / "screens").rglob("*.py"):
        if path.name == "keys.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not raw.search(line), f"{path.relative_to(ROOT)}:{n}: {line.strip()}"


def test_a_key_held_long_that_has_no_hold_of_its_own_does_what_its_press_does():
    """The joystick's press and KEY3 have no meaning of their own when held (hw/keys.py sends
    ``press:hold`` after 0.8 s): held long they do what they do pressed, never nothing."""
    for place in GRAMMAR:
        for key in ("press", "key3"):
            assert intent(place, f"{key}:hold") is intent(place, key), (place, key)
    assert intent("row", "press:hold") is Intent.SELECT
    assert intent("figure", "press:hold") is Intent.STEP
    assert intent("row", "key3:hold") is Intent.SECOND


def test_the_menu_opens_its_row_on_a_long_press_of_the_joystick():
    from tests.fakectx import FakeCtx
    from firmware.screens.menu import GamesMenu, MainMenu
    ctx = FakeCtx()
    ctx.open(MainMenu())
    ctx.press("press:hold")
    assert isinstance(ctx.stack[-1], GamesMenu)


def test_a_held_direction_repeats_only_moves_and_changes():
    """hw/keys.py repeats a direction held down; the device gives the repeats as ``<key>:repeat``:
    they move a cursor, scroll, turn a die or change a figure again — never choose, go back, close,
    mark or turn past a page (a held right opened screen after screen)."""
    moves = {Intent.PREV, Intent.NEXT, Intent.LEFTWARD, Intent.RIGHTWARD, Intent.LESS, Intent.MORE,
             Intent.LESS_ONE, Intent.MORE_ONE, Intent.SEAT_TOP, Intent.SEAT_RIGHT, Intent.SEAT_BOTTOM,
             Intent.SEAT_LEFT}
    for place in GRAMMAR:
        for key in ("up", "down", "left", "right"):
            once = intent(place, key)
            again = intent(place, f"{key}:repeat")
            if place == "pages" and key in ("left", "right"):
                assert again is Intent.NOTHING, (place, key)
            else:
                assert again is (once if once in moves else Intent.NOTHING), (place, key)
    assert intent("row", "right:repeat") is Intent.NOTHING and intent("row", "down:repeat") is Intent.NEXT
    assert intent("text", "down:repeat") is Intent.NEXT and intent("pages", "down:repeat") is Intent.NEXT


def test_hold_a_where_a_screen_has_no_second_action_is_a(state_dir):
    """Hold A is the second action of the screens that have one (the Senate's two votes, the
    roller's past rolls, finishing a typed name, − on the score pad); elsewhere a slow A (held
    0.8 s: ``a:hold``) did nothing at all — it does what A does. KEY3 is hold A (docs/keys.md): it
    did nothing there, silently; it is A there too, and the Senate's two votes where hold A is."""
    from firmware.screens.glory.track import SenateScreen
    from firmware.screens.menu import GamesMenu
    from firmware.screens.widgets import TextScreen
    from tests.screens import app_with
    app = app_with(["new glory players=Jack,Henry seed=3"], [], state_dir)
    try:
        app.stack[1:] = []
        app.handle("down")
        app.handle("a:hold")                                       # Games
        assert isinstance(app.stack[-1], GamesMenu)
        app.push(TextScreen("t", "text"))
        app.handle("a:hold")                                       # closes, as A does
        assert isinstance(app.stack[-1], GamesMenu)
        app.handle("b")
        app.handle("key3")                                         # KEY3 too: Games
        assert isinstance(app.stack[-1], GamesMenu)
        app.push(TextScreen("t", "text"))
        app.handle("key3:hold")                                    # held long: the same
        assert isinstance(app.stack[-1], GamesMenu)
        app.push(SenateScreen())
        app.handle("a:hold")                                       # its own: two votes
        assert app.console.session.lines[-1] == "vote Jack n=2"
        app.handle("key3")                                         # KEY3: the same two votes
        assert list(app.console.session.lines[-2:]) == ["vote Jack n=2"] * 2
    finally:
        app.console.close()


# the screens whose hold A (KEY3) is a second action of their own, as docs/keys.md names them
SECOND_ACTION_WORDS = {"DiceScreen": "the dice roller", "SheetPad": "the score pad", "SenateScreen": "Senate",
                       "KeyTestScreen": "the key test", "TypeScreen": "the name keyboard",
                       "AddScreen": "Julius Caesar's Add", "SideBlocks": "Blocks lists",
                       "BattleResult": "The Sword of Rome's battle result"}


def test_docs_name_every_screen_where_a_slow_a_is_not_a():
    """docs/keys.md lists the screens where hold A is not A (a second action of their own); every
    screen with ``second_action`` is in that list (the Sword's battle result was not: a reader
    expected its slow A to read the dice)."""
    found = {m.group(1) for path in (ROOT / "firmware" / "screens").rglob("*.py")
             for m in re.finditer(r"^class (\w+)\b(?:(?!^class ).)*?^    second_action = True", path.read_text(),
                                  re.M | re.S)}
    assert found == set(SECOND_ACTION_WORDS), found
    doc = " ".join((ROOT / "docs" / "keys.md").read_text().split())
    said = doc[doc.index("So does A where a screen has no second action"):].split("held long it is A")[0]
    assert [w for w in SECOND_ACTION_WORDS.values() if w not in said] == []


def test_docs_say_what_right_does_on_a_turn_s_pages():
    """docs/keys.md said right turns a page at once; on Auto-Crassus's play marked →why it opens
    the why (firmware/screens/caesar/turn.py): the page of keys says so."""
    doc = " ".join((ROOT / "docs" / "keys.md").read_text().split())
    pages = doc[doc.index("**Text in pages**"):].split("- **hold B")[0]
    code = (ROOT / "firmware" / "screens" / "caesar" / "turn.py").read_text()
    assert 'RIGHTWARD and page["kind"] == "play" and page["step"].get("why")' in code
    assert "right turns it at once" in pages and "why" in pages.split("right turns it at once")[1]


def test_docs_keys_writes_a_figure_as_the_cursor_row_draws_it():
    """docs/keys.md said a figure under the cursor is shown `‹n›`, its step `±5 ‹12›`: the screens
    draw `<n>` and `±5 <12>` (widgets.listing.figure), as About says. Its words (the table is the
    code's own, checked above) write the marks the panel shows."""
    from firmware.screens.widgets.listing import figure
    words = (ROOT / "docs" / "keys.md").read_text(encoding="utf-8").replace(table_markdown(), "")
    assert f"`{figure('n')}`" in words and f"`{figure(12, 5)}`" in words
    assert "‹" not in words and "›" not in words
