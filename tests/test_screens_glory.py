"""Glory of Rome screens: golden screens (pixel-exact through luma's dummy device) and what the
keys do (every change goes through a journaled console line)."""
from __future__ import annotations

import json

import pytest

from firmware.i18n import set_language
from firmware.screens.base import COLS, ROWS, wrap
from firmware.screens.glory.home import GloryHome

from firmware.screens.glory.score import SHEET_ROWS, ScoreDetail, ScoreEntry, ScoreResult, SheetPad

from firmware.screens.glory.track import FameScreen, SenateScreen
from scripts.presses.harness import Driver, moves
from firmware.screens.widgets import Dial
from tests.fakectx import FakeCtx
from tests.screens import app_with, assert_golden, check_case, drawn, say_yes
from tests.test_glory_scoring import EXAMPLE

NEW = "new glory players=Jack,Henry,Mary,Ross seed=5"
TABLE = [NEW, "fame Mary +10", "fame Jack +11", "fame Ross +3",
         "vote Mary", "vote Henry", "vote Henry", "vote Henry", "vote Ross"]

CASES = {
    "glory_setup": ([], ["a", "down", "down", "a"]),
    "glory_setup_names": ([], ["a", "down", "down", "a"] + ["down"] * 4),      # (the cursor starts on the count)
    "glory_home": (TABLE, ["a"]),
    "glory_fame": (TABLE, ["a", "up", "up", "a"]),          # (the home opens on Reveal event)
    "glory_fame_adjust": (TABLE, ["a", "up", "up", "a", "down", "a", "up", "up", "right"]),
    "glory_senate": (TABLE, ["a", "up", "a", "down", "down"]),
    "glory_event": (TABLE + ["event arrow=ccw90"], ["a"] + ["up"] * 4 + ["a"]),   # (the home opens on Tax)
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    check_case(CASES, name, state_dir)


RU = "new glory players=Ваня,Маша,Олесь,Їжак seed=5"
RU_TABLE = [RU, "fame Маша +10", "fame Ваня +11", "vote Маша", "vote Олесь", "vote Олесь", "medal Ваня warrior",
            "sheet Ваня denarii 17", "sheet Ваня macedonia 3"]
SCORE = ["a"] + ["down"] * 4 + ["a"]        # home (on Reveal event): Final score (round 1: no intrigue, G-1; after Tax), its list
LANG_CASES = {  # name: (lang, console lines, keys)
    "glory_home_ru": ("ru", RU_TABLE, ["a"]),
    "glory_setup_names_ru": ("ru", [], ["a", "down", "down", "a"] + ["down"] * 10),   # to Clockwise, past the fame rows
    "glory_fame_uk": ("uk", RU_TABLE, ["a", "up", "up", "a"]),
    "glory_senate_ru": ("ru", RU_TABLE, ["a", "up", "a"]),
    "glory_event_uk": ("uk", RU_TABLE + ["event arrow=cw180"], ["a"] + ["up"] * 4 + ["a"]),
    "glory_medals_ru": ("ru", RU_TABLE, ["a", "down", "a"]),              # (the building phase's, under the event, G-1)
    "glory_score_entry_ru": ("ru", RU_TABLE, SCORE),
    "glory_sheet_ru": ("ru", RU_TABLE, SCORE + ["down", "a", "up", "left", "left"]),
    "glory_sheet_uk": ("uk", RU_TABLE, SCORE + ["down"] * 12 + ["a", "press"]),
    "glory_sheet_en": ("en", RU_TABLE, SCORE + ["a"]),
    "glory_score_ru": ("ru", RU_TABLE, SCORE + ["down"] * 13 + ["a"]),
    "glory_score_detail_uk": ("uk", RU_TABLE, SCORE + ["down"] * 13 + ["a", "a", "down", "down"]),
}


@pytest.mark.parametrize("name", sorted(LANG_CASES))
def test_golden_screen_in_each_language(name, state_dir):
    lang, lines, keys = LANG_CASES[name]
    app = app_with(lines, keys, state_dir, lang=lang)
    try:
        assert_golden(app.render(), name)
    finally:
        app.console.close()


def test_golden_final_score_of_the_rulebook_example(state_dir):  # G-16
    app = app_with([NEW], ["a"], state_dir)
    try:
        result = app.run("score " + json.dumps(EXAMPLE))
        app.push(ScoreResult(result))
        assert_golden(app.render(), "glory_score")
        app.handle("a")                       # Henry, the winner, first
        assert isinstance(app.stack[-1], ScoreDetail)
        assert_golden(app.render(), "glory_score_detail")
    finally:
        app.console.close()


def test_fame_adjust_applies_the_change_and_announces_milestones():  # G-6
    ctx = FakeCtx(NEW, "fame Mary +10", "fame Jack +6").open(FameScreen())
    ctx.press("a", "up", "up", "up", "a")        # Jack: +1 -> +4, applied: 7 -> 11
    assert ctx.session.lines[-1] == "fame Jack +4"
    assert ctx.view()["fame"]["Jack"] == 11
    ctx.press("a", "a")                           # Jack +1 -> 12: the 12 marker, then Mary on 11
    assert ctx.view()["markers"]["12"] == 10
    assert ctx.notes and "Mary +1 supporter" in ctx.notes[-1]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_fame_rows_show_every_supporter_and_a_three_digit_fame(lang):  # G-5, G-6
    """16-letter names with 5 supporters and fame past 100 (the fame_100 achievement, G-20): the
    row was cut «Ґалина-Їжа… ***…», the fifth supporter lost. The name gives way, never the stars."""
    from firmware.screens import base
    from firmware.screens.widgets import item_rows
    names = ["Ґалина-Їжакевич", "Олександра.Єрмак", "Ёлкина-Соловьёва", "Д'Артаньян-Ґонта"]
    ctx = FakeCtx("new glory players=" + ",".join(names) + " seed=2", f"fame {names[0]} +140",
                  f"fame {names[1]} +99", f"fame {names[2]} +12", lang=lang).open(FameScreen())
    rows = {item.ident: item for item in ctx.top.items(ctx)}
    assert rows[names[0]].value == "141" and rows[names[1]].value == "100"
    supporters = ctx.view()["supporters"]
    assert supporters[names[0]] == 5
    for name in names[:2]:
        shown = item_rows(rows[name], wrap=False)[0]
        assert shown.endswith(" " + "*" * supporters[name]) and shown.startswith(name[:6]), shown   # every supporter
        assert len(shown) + 1 + len(rows[name].value) <= base.COLS - 1


def test_senate_votes_and_boosted_double_vote():  # G-7
    ctx = FakeCtx(NEW, "vote Henry", "vote Henry").open(GloryHome()).press("up", "a", "down")
    assert isinstance(ctx.top, SenateScreen)
    ctx.press("a:hold")                           # Henry: two votes, two supremacies
    assert ctx.session.lines[-1] == "vote Henry n=2"
    assert ctx.view()["fame"]["Henry"] == 5
    assert ctx.notes and "Supremacy" in ctx.notes[-1]


def test_setup_starts_a_game_with_the_chosen_players(state_dir):
    # the form opens on the count: left (the code box goes with it): 3 players; down past the 3 players,
    # the empty seat and their starting fame to Harsh Times; right: on; A: start
    app = app_with([], ["a", "down", "down", "a", "left"] + ["down"] * 8 + ["right", "a"], state_dir)
    try:
        view = app.view()
        assert view["game"] == "glory" and view["players"] == ["Red", "Yellow", "Blue"]
        assert view["options"]["harsh"] is True
    finally:
        app.console.close()


@pytest.mark.parametrize("empty, line", [
    (2, "new glory players=Mary,Oles,Vanya harsh=0 clockwise=0"),                    # after Player 3: as before
    (1, "new glory players=Vanya,Mary,Oles harsh=0 clockwise=0 first=Mary"),
    (0, "new glory players=Oles,Vanya,Mary harsh=0 clockwise=0 first=Mary"),
])
def test_three_players_say_where_the_empty_seat_is_and_player_1_holds_the_token(empty, line):  # G-1, G-2
    """Three players leave one province facing nobody: whoever faces the first-player token's
    province plays first, the next player in the direction of play when nobody does (G-2). The
    form seated Players 1-3 clockwise with the empty seat always between Player 3 and Player 1,
    and Player 1 held the token: a table whose first player does not sit just after the empty
    seat could not be told, and the device named another first player than the board's in the
    rounds the token faces the empty seat (here Vanya, Mary, Oles clockwise, the seat after Oles
    empty, Mary first: the device said Vanya where the table has Oles)."""
    from firmware.screens.glory.setup import SetupScreen
    ctx = FakeCtx(players=["Mary", "Oles", "Vanya", "Ross"]).open(SetupScreen(GloryHome))
    ctx.press("up", "left")                                      # 3 players: Mary, Oles, Vanya
    rows = [i.key for i in ctx.top.items(ctx)]
    assert rows.index("field:empty") == 4                        # under the players
    ctx.top.cursor = 4
    ctx.press(*["left"] * (2 - empty))
    assert [str(i.value) for i in ctx.top.items(ctx)][4].strip("‹›<>") == ["Mary–Oles", "Oles–Vanya", "Vanya–Mary"][empty]
    ctx.top.cursor = len(rows) - 1                               # the Start row
    ctx.press("a")
    assert ctx.lines[-1] == line
    if empty == 1:                                               # the table of the docstring, round by round
        table = FakeCtx("new glory players=Vanya,Mary,Oles first=Mary seed=1")
        for arrow in ("cw90", "ccw90", "cw180", "ccw180"):
            for c in (ctx, table):
                c.run(f"event arrow={arrow}")
            assert ctx.view()["first"] == table.view()["first"]
            for c in (ctx, table):
                c.run("end-round")
    four = FakeCtx(players=["Jack", "Henry", "Mary", "Ross"]).open(SetupScreen(GloryHome))
    assert "field:empty" not in [i.key for i in four.top.items(four)]       # 4 players: no seat is empty


def test_setup_takes_each_players_starting_fame_and_has_a_start_row():  # G-5: fame from the character boards
    """The form sets each player's starting fame (the marker goes on the space the character board
    shows; it was 1 for all, then ~4 presses each on the Fame screen) and ends with a Start row (the
    title said "A: start" only on rows a new player did not know would start the game)."""
    from firmware.screens.glory.setup import SetupScreen
    ctx = FakeCtx(players=["Jack", "Henry", "Mary", "Ross"]).open(SetupScreen(GloryHome))
    ctx.render()
    rows = [i.key for i in ctx.top.items(ctx)]
    fame = [r for r in rows if r.startswith("field:fame")]
    assert len(fame) == 4 and rows[-1] == "start"
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels[rows.index(fame[0])] == "Jack: fame" and labels[-1].endswith("Start")
    ctx.press(*["down"] * (rows.index(fame[1]) - ctx.top.cursor), "right", "down", "right", "right")
    assert ctx.top.status(ctx) == "A: start"
    ctx.top.cursor = len(rows) - 1                  # the Start row
    ctx.press("a")
    assert ctx.lines[-1].startswith("new glory players=Jack,Henry,Mary,Ross") and "fame=1,2,3,1" in ctx.lines[-1]
    assert ctx.view()["fame"] == {"Jack": 1, "Henry": 2, "Mary": 3, "Ross": 1}
    two = FakeCtx(players=["Jack", "Henry"]).open(SetupScreen(GloryHome))
    two.press("up", "left", "left")                 # 2 players: 2 fame rows
    assert len([i for i in two.top.items(two) if i.key.startswith("field:fame")]) == 2
    two.top.cursor = len(two.top.items(two)) - 1
    two.press("a")
    assert "fame=" not in two.lines[-1]             # all 1: the console's default


def test_setup_offers_the_truce_and_heroes_variants():  # G-19, the rulebook's «Перемирие», «Герои»
    """The rulebook's variants «Перемирие» (no intrigues; the objectives «Разжигание вражды» and
    «Неусыпная вражда» out) and «Герои» (no medals; six objectives out) are set on the form, as
    Harsh Times and Clockwise are: the device could start neither, so a table playing them was dealt
    objectives the variant removes and offered the medals."""
    from firmware.screens.glory.setup import SetupScreen
    ctx = FakeCtx(players=["Анна", "Борис", "Вера"], lang="ru").open(SetupScreen(GloryHome))
    ctx.render()
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "Перемирие" in labels and "Герои" in labels
    for label in ("Перемирие", "Герои"):
        ctx.top.cursor = labels.index(label)
        ctx.press("right")                          # on
    ctx.top.cursor = len(labels) - 1                # the Start row
    ctx.press("a")
    assert ctx.lines[-1].startswith("new glory players=Анна,Борис,Вера") and ctx.view()["options"] == {
        "harsh": False, "clockwise": False, "truce": True, "heroes": True}
    ctx.run("deal")
    dealt = {c["id"] for p in ("Анна", "Борис", "Вера") for c in ctx.run(f"objectives {p}")["cards"]}
    assert not dealt & {"O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8"}
    plain = FakeCtx(players=["Анна", "Борис"]).open(SetupScreen(GloryHome))
    plain.top.cursor = len(plain.top.items(plain)) - 1
    plain.press("a")
    assert plain.view()["options"] == {"harsh": False, "clockwise": False, "truce": False, "heroes": False}


def test_setup_in_russian_names_the_players_by_colour_in_cyrillic(state_dir):
    app = app_with([], ["a", "down", "down", "a", "left", "a"], state_dir, lang="ru")
    try:
        assert app.view()["players"] == ["Красный", "Жёлтый", "Синий"]
    finally:
        app.console.close()


def _sheet_keys(app, keys):
    for k in keys:
        app.handle(k)


def test_score_sheet_is_journaled_as_typed_and_survives_back_and_restart(state_dir):  # G-9, G-14
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    app = app_with([NEW, "fame Jack +9"], ["a"], state_dir)
    try:
        app.push(ScoreEntry(app))
        app.handle("a")                            # the pad's first row: legions in Epirus
        pad = app.stack[-1]
        assert isinstance(pad, SheetPad) and pad.entry == "epirus"
        _sheet_keys(app, ["up", "up"])             # Jack (player 1, the top seat): 2 legions in Epirus
        assert app.console.session.lines[-1] == "sheet Jack epirus 2"
        _sheet_keys(app, ["a"] * 12)               # on to the last row: denarii
        assert pad.entry == "denarii"
        _sheet_keys(app, ["up"] * 8)               # 8 denarii, one push each
        app.handle("b")                            # a B too many: back on the list ...
        app.handle("b")                            # ... and home: nothing is lost
    finally:
        app.console.close()
    store = Store(state_dir)                       # a power cut: a new App on the same state dir
    app = App(Console(store, store.resume()))
    try:
        assert app.view()["sheet"]["Jack"] == {"denarii": 8, "epirus": 2}
        app.push(ScoreEntry(app))
        _sheet_keys(app, ["down"] * 13 + ["a"])    # Show scores (the last row)
        shown = app.stack[-1]
        assert isinstance(shown, ScoreResult)
        jack = shown.result["scores"]["Jack"]
        assert (jack["track"], jack["denarii"], jack["military"], jack["total"]) == (10, 2, 5, 17)
        assert shown.result["winners"] == ["Jack"]
    finally:
        app.console.close()


def test_pad_steps_of_one_five_ten_a_minus_and_no_op_changes_are_not_journaled(state_dir):
    app = app_with([NEW], ["a"], state_dir)
    try:
        app.push(SheetPad(len(SHEET_ROWS) - 1))    # denarii, every player on a seat
        _sheet_keys(app, ["press", "press", "down", "down"])     # +10 twice to player 3 (Mary, the bottom)
        assert app.view()["sheet"]["Mary"]["denarii"] == 20
        _sheet_keys(app, ["a:hold", "press", "down"])            # − and the step back to 1: Mary 19
        assert app.view()["sheet"]["Mary"]["denarii"] == 19
        assert "−1" in [t for _x, _y, t, _k in drawn(app)]      # the step shown in the middle
        _sheet_keys(app, ["a:hold", "press", "right"])           # +5 to player 2 (Henry, the right)
        assert app.view()["sheet"]["Henry"]["denarii"] == 5
        assert "+5" in [t for _x, _y, t, _k in drawn(app)]
        n = len(app.console.session.lines)
        _sheet_keys(app, ["a:hold", "left"])       # −5 from Ross's 0: nothing to journal, nothing shown
        assert len(app.console.session.lines) == n and app.stack[-1].__class__ is SheetPad
        _sheet_keys(app, ["a"])                    # A after the last row: the scores
        assert isinstance(app.stack[-1], ScoreResult)
    finally:
        app.console.close()



def test_cyrillic_names_play_through_the_app_in_russian_and_ukrainian(state_dir):
    for lang in ("ru", "uk"):
        d = Driver(lang)
        try:
            assert d.run("new glory players=Ваня,Маша,Олесь,Їжак")["ok"]
            d.app.stack[:] = d.app.stack[:1]
            from firmware.screens.glory.home import GloryHome
            d.app.push(GloryHome())
            for keys in (["a", "a", "up", "a", "b"], ["down", "a", "a", "down", "a", "b"],
                         ["down", "a", "b", "down", "a", "b"], ["up", "a", "a"] + ["right"] * 3 + ["a"] * 4):
                d.press(keys[0])
                for k in keys[1:]:
                    d.press(k)
            assert d.problems == [], d.problems
        finally:
            d.close()


def test_a_name_the_screen_cannot_draw_is_refused_at_new(state_dir):
    app = app_with([], [], state_dir)
    try:
        response = app.console.request("new glory players=Ваня,Ma☃")
        assert not response["ok"] and "U+2603" in response["message"]
        assert app.view() is None
    finally:
        app.console.close()


def test_fame_adjust_refuses_zero():
    ctx = FakeCtx(NEW).open(FameScreen()).press("a", "down", "a")
    assert isinstance(ctx.top, Dial) and ctx.session.lines == []
    assert ctx.notes


def _type(app, text):
    """Type ``text`` on the keyboard screen with the joystick (down to the row, right to the cell,
    A), shift for capitals, then ✓."""
    from firmware.i18n import language
    from firmware.screens.widgets.keyboard import DONE, SHIFT, TypeScreen, keyboard
    screen = app.stack[-1]
    assert isinstance(screen, TypeScreen)
    rows = keyboard(language())

    def to(cell):
        r = next(i for i, row in enumerate(rows) if cell in row)
        while screen.row != r:
            app.handle("down")
        while rows[screen.row][screen.col] != cell:
            app.handle("right")
        app.handle("a")

    for ch in text:
        if ch.isupper() != screen.upper:
            to(SHIFT)
        to(ch.lower())
    to(DONE)


def test_setup_names_the_players_as_typed_in_cyrillic(state_dir):  # issue 9 item 6: names, not P1-P4
    app = app_with([], ["a", "down", "down", "a", "left", "down"], state_dir, lang="ru")   # 3 players
    try:
        app.handle("a")                            # the first player: nobody known yet
        assert [str(i.label) for i in app.stack[-1].items(app)] == ["Ввести имя…", "Без имени"]
        app.handle("a")                            # type a name
        _type(app, "Ваня")
        screen = app.stack[-1]
        assert screen.cursor == 2                  # on to the second player
        app.handle("press")
        app.handle("a")
        _type(app, "Маша")
        assert [screen.name(i) for i in range(3)] == ["Ваня", "Маша", "Синий"]
        app.handle("up")
        app.handle("a")                            # Маша again: the keyboard opens on her name ...
        app.handle("a")
        assert app.stack[-1].name == "Маша"
        app.handle("b")                            # ... B leaves the keyboard, the name kept
        app.handle("up")
        app.handle("up")                           # Players
        app.handle("a")                            # A on a number row: start
        assert app.view()["players"] == ["Ваня", "Маша", "Синий"]
    finally:
        app.console.close()


def test_setup_refuses_two_players_of_the_same_name(state_dir):
    app = app_with([], ["a", "down", "down", "a", "down", "down", "down", "a", "a"], state_dir)   # (from the count)
    try:
        _type(app, "Yellow")                       # player 3 typed as player 2's colour
        app.handle("up")
        app.handle("up")
        app.handle("up")
        app.handle("up")
        app.handle("a")
        assert app.view() is None and app.message is not None
    finally:
        app.console.close()


def test_known_players_sit_down_and_one_is_picked_in_two_presses():  # issue 24 §1
    from firmware.screens.glory.setup import SetupScreen
    from firmware.screens.widgets.people import PlayerPicker
    ctx = FakeCtx(players=["Анна", "Борис", "Вера", "Гліб", "Дана"]).open(SetupScreen(GloryHome))
    ctx.render()
    assert [ctx.top.name(i) for i in range(4)] == ["Анна", "Борис", "Вера", "Гліб"]   # the last table
    assert ctx.top.cursor == 0                      # the form opens on the count: A starts the last table
    ctx.press("down", "a")                         # Player 1: the list, those not at the table first
    ctx.render()
    assert isinstance(ctx.top, PlayerPicker) and ctx.top.cursor == 1      # under "Enter a name…"
    assert [str(i.label) for i in ctx.top.items(ctx)][1:3] == ["Дана", "Анна"]
    ctx.press("a")                                 # Дана: the seat's A and this A, two presses
    assert [ctx.top.name(i) for i in range(4)] == ["Дана", "Борис", "Вера", "Гліб"]
    assert ctx.top.cursor == 2                      # the form goes on to player 2
    ctx.press("a", "down", "down", "down", "a")    # player 2 takes Гліб: he and Борис change places
    assert [ctx.top.name(i) for i in range(4)] == ["Дана", "Гліб", "Вера", "Борис"]
    ctx.press("down", "down", "a")                 # A on Harsh Times (a figure row): start
    assert ctx.lines[-1].startswith("new glory players=Дана,Гліб,Вера,Борис")


def test_a_push_past_the_most_stops_at_the_most_and_says_so():  # G-12 limits
    own = [k for k, _ in SHEET_ROWS].index("own")
    # (the foundations finished: 5 own parts with no common part are refused, tests/test_glory_pad_pantheon.py)
    ctx = FakeCtx(NEW, "sheet Jack gold 1", "sheet Ross bronze 1").open(SheetPad(own))
    ctx.press("press", "up")                      # +5: Jack's 5 own-colour parts in one push
    assert ctx.view()["sheet"]["Jack"]["own"] == 5 and not ctx.notes
    n = len(ctx.session.lines)
    ctx.press("up")                               # one more: 5 is the most, said, nothing journaled
    assert len(ctx.session.lines) == n and ctx.notes == ["Jack: 5 is the most on this row."]
    ctx.press("press", "left")                    # +10 to Ross: stops at 5 as well
    assert ctx.view()["sheet"]["Ross"]["own"] == 5


def test_each_way_is_a_players_seat_in_the_players_order():  # docs/keys.md "seats"
    ctx = FakeCtx(NEW).open(SheetPad(0))          # Epirus: Jack, Henry, Mary, Ross round the device
    ctx.press("up", "right", "right", "down", "down", "down", "left")
    assert ctx.view()["sheet"] == {"Jack": {"epirus": 1}, "Henry": {"epirus": 2}, "Mary": {"epirus": 3},
                                   "Ross": {"epirus": 1}}
    shown = {t: (x, y) for x, y, t, _k in drawn(ctx)}
    assert shown["▲ Jack "][1] < shown["◀ Ross"][1] < shown["▼ Mary "][1]   # top, side, bottom
    assert shown["◀ Ross"][0] < shown["Henry ▶"][0]                         # left, right


@pytest.mark.parametrize("names, left, right", [("Красный,Жёлтый,Синий,Зелёный", "Зелёный", "Жёлтый ▶"),
                                                ("Червоний,Зелений,Синій,Жовтий", "◀ Жовтий", "Зелений"),
                                                ("Jack,Henrietta,Mary,Alexandra", "Alexan…", "Henrie…")])
def test_a_side_seat_s_colour_is_shown_whole_on_the_score_pad(names: str, left: str, right: str):  # G-1 seating
    """A seat nobody named keeps its colour, the device's word: «Зелёный» at the left seat read
    «◀ Зелен…» (a random-key run). A 7-letter name goes whole beside the arrow, 2 pixels from it
    instead of a space; a longer typed name is cut in the same 8 columns, and the step in the
    middle («+10», x 52-76) is not covered."""
    ctx = FakeCtx(f"new glory players={names} seed=3").open(SheetPad(0))
    shown = {t: (x, y) for x, y, t, _k in drawn(ctx)}
    assert left in shown and right in shown, shown
    assert shown[left][0] + len(left) * 6 <= 52 and shown[right][0] >= 76
    arrows = {t: x for x, y, t, _k in drawn(ctx) if t in ("◀", "▶")}
    for name, arrow in ((left, "◀"), (right, "▶")):
        if arrow in arrows:                                          # apart from the name it points to
            assert abs(arrows[arrow] - shown[name][0]) >= 8 if arrow == "◀" else \
                arrows[arrow] >= shown[name][0] + len(name) * 6 + 2


def test_two_players_sit_opposite_and_the_empty_seats_do_nothing():  # G-1 seating (engine/glory/rounds.py)
    ctx = FakeCtx("new glory players=Ann,Bob seed=3").open(SheetPad(0))
    ctx.press("down", "left", "up", "right", "down")   # Bob sits opposite Ann: at the bottom
    assert ctx.view()["sheet"] == {"Ann": {"epirus": 1}, "Bob": {"epirus": 2}} and not ctx.notes
    shown = {t for _x, _y, t, _k in drawn(ctx)}
    assert {"▲ Ann ", "▼ Bob "} <= shown and not any("▶" in t or "◀" in t for t in shown)


def test_in_the_emperors_solo_every_way_is_the_players():  # G-17
    """One player sits at the top of the pad: the other three ways did nothing, silently, so a
    solo player pushing down or sideways saw the figure stay at 0 with nothing said."""
    ctx = FakeCtx("new glory players=Ann seed=3").open(SheetPad(0))
    ctx.press("down", "left", "right", "up")
    assert ctx.view()["sheet"] == {"Ann": {"epirus": 4}} and not ctx.notes


def _step(ctx: FakeCtx) -> str:
    return ctx.top.shown_step


def test_the_step_is_kept_from_row_to_row_and_the_minus_is_not():  # issue 24 §2
    keys = [k for k, _ in SHEET_ROWS]
    pad = SheetPad(keys.index("own"))
    ctx = FakeCtx(NEW).open(pad)
    assert _step(ctx) == "+1"
    ctx.press("press", "a:hold")                  # −5 on the own-colour row
    assert _step(ctx) == "−5"
    ctx.press("a")                                # the next row (objectives): +5, the step kept
    assert pad.entry == "objectives" and _step(ctx) == "+5"
    ctx.press("right", "right")                   # Henry 10 objective fame
    assert ctx.view()["sheet"]["Henry"]["objectives"] == 10


def test_final_score_opens_the_pad_on_its_first_row_until_a_figure_is_typed(state_dir):  # issue 24 §2
    rounds = ["event", "end-round"] * 9
    app = app_with(["new glory players=Ann,Bob"] + rounds, ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert isinstance(home, GloryHome) and str(home.items(app)[0].label) == "Final score"
        app.handle("a")                               # after round 9, nothing typed: the pad's first row
        pad = app.stack[-1]
        assert isinstance(pad, SheetPad) and pad.entry == SHEET_ROWS[0][0]
        app.handle("up")                              # Ann (player 1, the top seat): 1 legion in Epirus
        app.handle("b")                               # B: the list of the pad's rows behind it, on that row
        entry = app.stack[-1]
        assert isinstance(entry, ScoreEntry) and entry.cursor == 0
        assert app.view()["sheet"] == {"Ann": {"epirus": 1}}
        app.handle("b")
        app.handle("a")                               # a figure is typed: Final score opens the list
        assert isinstance(app.stack[-1], ScoreEntry)
    finally:
        app.console.close()


@pytest.mark.parametrize("after", [[], ["event", "end-round"] * 9 + ["end"]], ids=["playing", "final"])
def test_final_score_during_the_game_or_once_final_opens_the_list_of_rows(after, state_dir):
    app = app_with([NEW] + after, ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert isinstance(home, GloryHome)
        app.render()                                  # (the cursor on what is due: Reveal event, or the score)
        labels = [str(i.label) for i in home.items(app)]
        for _ in range(labels.index("Final score") - home.cursor):
            app.handle("down")
        app.handle("a")
        assert isinstance(app.stack[-1], ScoreEntry)   # the rows and their figures first: nothing to type on
    finally:
        app.console.close()


def test_a_game_ended_before_round_9_offers_no_final_score(state_dir):  # G-15
    """The players ended the game in round 2: there is no final score (G-15: after round 9), and
    every figure typed on the pad was refused (game_over): the home offers what an ended game has."""
    app = app_with([NEW, "event", "end-round", "end"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert isinstance(home, GloryHome)
        labels = [str(i.label) for i in home.items(app)]
        assert "Final score" not in labels and labels[0] == "New game" and "Fame" in labels
    finally:
        app.console.close()


@pytest.mark.parametrize("after", [["event", "end-round", "end"], ["event", "end-round"] * 9 + ["end"]],
                         ids=["ended", "final"])
def test_an_ended_games_fame_is_read_not_changed(after):  # G-5, G-15
    """Once the game has ended, the home's Fame shows everybody's fame; A on a player opened the
    change of fame, whose every A was refused (game_over)."""
    ctx = FakeCtx(NEW, "fame Mary +4", *after).open(FameScreen())
    n = len(ctx.lines)
    ctx.press("down", "down", "a")
    assert isinstance(ctx.top, FameScreen) and len(ctx.lines) == n and not ctx.notes
    assert "5" in ctx.texts()                       # Mary's fame still shown


def test_a_final_score_is_read_not_typed_once_the_game_has_ended(state_dir):  # G-15, G-16
    """After round 9 and "the score is final": the pad's rows show their figures but open no pad
    (every change was refused), and Show scores shows the ranking History keeps (it was refused)."""
    rounds = ["event", "end-round"] * 9
    app = app_with([NEW] + rounds + ["sheet Mary denarii 40", "score sheet", "end"], ["a"], state_dir)
    try:
        labels = [str(i.label) for i in app.stack[-1].items(app)]
        for _ in range(labels.index("Final score")):
            app.handle("down")
        app.handle("a")
        entry = app.stack[-1]
        assert isinstance(entry, ScoreEntry)
        app.handle("a")                               # a row: nothing to type on
        assert app.stack[-1] is entry and app.errors == 0
        for _ in range([str(i.label) for i in entry.items(app)].index("Show scores")):
            app.handle("down")
        app.handle("a")
        ranking = app.stack[-1]
        assert isinstance(ranking, ScoreResult)
        [game] = app.run("history")["games"]
        assert {n: s["total"] for n, s in ranking.result["scores"].items()} == {p["name"]: p["score"] for p in game["players"]}
        assert ranking.result["winners"] == ["Mary"]
        assert "The score is final" not in [str(i.label) for i in ranking.items(app)]
    finally:
        app.console.close()


def test_pad_keeps_to_two_common_pantheon_parts_and_three_goods_sets():  # G-11, G-12
    keys = [k for k, _ in SHEET_ROWS]
    ctx = FakeCtx(NEW, "sheet Jack gold 1", "sheet Jack silver 1", "sheet Jack own 5", "sheet Jack tools 2",
                  "sheet Henry gold 1", "sheet Henry silver 1", "sheet Henry own 5")   # G-12: 2 foundations, 2 temples
    ctx.open(SheetPad(keys.index("bronze")))
    n = len(ctx.session.lines)
    ctx.press("up")                               # Jack has 2 common parts: no room for bronze
    assert len(ctx.session.lines) == n and ctx.notes == ["Jack: at most 2 common Pantheon parts."]
    ctx.top.row = keys.index("gold")
    ctx.press("up")                               # gold 1 is the most beside silver 1: it stays
    assert ctx.view()["sheet"]["Jack"]["gold"] == 1 and len(ctx.session.lines) == n
    ctx.top.row = keys.index("jewelry")
    ctx.press("press", "up")                      # +5, but 2 tools sets leave one jewelry set at most
    assert ctx.view()["sheet"]["Jack"]["jewelry"] == 1
    ctx.press(*["a"] * (len(keys) - keys.index("jewelry")))
    result = ctx.top.result                       # the scores: the engine accepts the sheet
    assert result["scores"]["Jack"]["trade"] == 3 * 2 + 6 and result["scores"]["Jack"]["religion"] == 4 + 3 + 5


def test_pad_keeps_a_players_legions_to_seven_on_the_three_battlefields():  # G-9
    """A player has 7 legions (the player board: «Легионы 7/7»): 4 in Epirus and 3 in Thrace
    leave none for Macedonia (the pad took 7 + 7 + 7 and the score counted 21 legions)."""
    keys = [k for k, _ in SHEET_ROWS]
    ctx = FakeCtx(NEW, "sheet Jack epirus 4", "sheet Jack thrace 3", lang="ru")
    ctx.open(SheetPad(keys.index("macedonia")))
    n = len(ctx.session.lines)
    ctx.press("up")                               # Jack: no legion left for Macedonia
    assert len(ctx.session.lines) == n and "macedonia" not in ctx.view()["sheet"]["Jack"]
    assert ctx.notes == ["Jack: на полях битв всего не больше 7 легионов."]
    ctx.press("right")                            # Henry's legions are his own
    assert ctx.view()["sheet"]["Henry"]["macedonia"] == 1
    ctx.top.row = keys.index("epirus")
    ctx.press("press", "up")                      # +5 from 4 stops at 4: Thrace holds the other 3
    assert ctx.view()["sheet"]["Jack"]["epirus"] == 4


@pytest.mark.parametrize("lang, shown", [("ru", ["100+ славы", "61+ на шкале славы", "Рекорд 113+ славы"]),
                                         ("uk", ["100+ слави", "61+ на шкалі слави", "Рекорд 113+ слави"]),
                                         ("en", ["100+ fame", "61+ on the track", "Record 113+ fame"])])
def test_achievements_say_what_was_reached_at_exactly_the_mark(lang: str, shown: list[str]):  # G-20
    """Exactly 113 fame earns the designers' achievement («Добейтесь лучшего итога создателей игры
    (113 очков славы)»), and the rulebook's marks are «100+» and «61+»: the rows said «Больше 113
    славы» (more than 113) of a player on 113, and «100 славы»."""
    ctx = FakeCtx(NEW, lang=lang)
    result = ctx.run('score {"players": [{"name": "Jack", "track": 61, "objectives": 52}]}')
    assert result["scores"]["Jack"]["total"] == 61 + 52 == 113
    rows = [str(i.value) for i in ScoreDetail(result, 0).rows()]
    assert [r for r in rows if r in shown] == shown
    assert all(len("√ " + r) < COLS for r in shown)           # whole beside the scroll bar


@pytest.mark.parametrize("lang, titles", [("ru", ["Наборы: инструменты", "Наборы: оружие", "Наборы: одеяния", "Наборы: украшения"]),
                                          ("uk", ["Набори: інструменти", "Набори: зброя", "Набори: одяг", "Набори: прикраси"])])
def test_the_pads_goods_rows_are_the_rulebooks_goods(lang: str, titles: list[str]):  # G-11
    """The rulebook's goods: «Инструменты, Оружие, Одежды (Одеяние), Украшения» — the tools row said
    «орудия» (uk «знаряддя»), while the console's sentences say «наборы инструментов»."""
    keys = [k for k, _ in SHEET_ROWS]
    FakeCtx(NEW, lang=lang)                                   # the language the titles are said in
    assert [SheetPad(keys.index(g)).title for g in ("tools", "weapons", "clothing", "jewelry")] == titles
    assert all(len(t) <= COLS for t in titles)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_priest_medal_is_the_rulebooks_medal_in_every_sentence(lang: str):  # G-14
    """«Медаль священнослужителя» (the rulebook); sentences said «Медаль «священник»» beside
    «нет медали священнослужителя»; the Medals list names its holder «Священнослужитель» too."""
    ctx = FakeCtx("new glory players=Jack,Henry seed=5", "medal Jack priest", lang=lang)
    taken, none, usage = ctx.run("medal Henry priest"), ctx.run("offer Henry"), ctx.run("offer")
    for reply in (taken, none, usage):
        assert "священнослужител" in reply["message"] and "священник" not in reply["message"].lower()


MEDALS_SAID = {  # the rulebook's «Медаль воина», «политика», «торговца», «священнослужителя», «земледельца»
    "ru": {"warrior": "медаль воина", "politician": "медаль политика", "merchant": "медаль торговца",
           "priest": "медаль священнослужителя", "farmer": "медаль земледельца"},
    "uk": {"warrior": "медаль воїна", "politician": "медаль політика", "merchant": "медаль торговця",
           "priest": "медаль священнослужителя", "farmer": "медаль хлібороба"},
}


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("medal", ["warrior", "politician", "merchant", "priest", "farmer"])
def test_every_medal_sentence_names_the_medal_as_the_rulebook(lang: str, medal: str):  # G-7, G-9, G-11, G-14
    """The rulebook names each medal by its holder in the genitive («Медаль воина», «Медаль
    священнослужителя»); the sentences said «Анна получает медаль: воин.», «Медаль «воин» уже у
    игрока Анна.», «Исправление: медаль «воин» получает …» and, on the device, «Медаль «Воин» …»."""
    from firmware.screens.glory.round import MedalScreen
    said = MEDALS_SAID[lang][medal]
    ctx = FakeCtx("new glory players=Анна,Борис seed=5", lang=lang)
    assert ctx.run(f"medal Анна {medal}")["ok"]
    texts = [ctx.run("log 1")["log"][0], ctx.run(f"medal Борис {medal}")["message"]]
    ctx.open(MedalScreen())
    ctx.top.cursor = ["warrior", "politician", "merchant", "priest", "farmer"].index(medal)
    ctx.press("a")                                  # held: the device says whose it is
    texts.append(ctx.notes[-1])
    for _ in range(9):
        ctx.run("event")
        ctx.run("end-round")
    assert ctx.run(f"medal Борис {medal}")["ok"]    # after round 9: a correction
    texts.append(ctx.run("log 1")["log"][0])
    for text in texts:
        assert said in text.lower() and "«" not in text, text


@pytest.mark.parametrize("lang, priest", [("ru", "Священнослужитель"), ("uk", "Священнослужитель"),
                                           ("en", "Priest")])
def test_the_medal_rows_are_never_cut_beside_a_holder(lang, priest):  # G-14 (the Priest medal)
    """The rulebook names the priest's medal by its holder, «Медаль священнослужителя»: the row said
    «Священник» (another word), and its full word beside a holder's name was cut
    («Священнослужит…»), as was a holder's name past 9 characters («Святопол…»). Every medal and
    every holder is drawn whole on the 128×64 panel, the list scrolled through."""
    from firmware.screens.glory.round import MedalChoice, MedalScreen
    names = ["Ростислав", "Маша", "Олесь", "Святополк-Окаянн"]        # 16 characters: the longest name
    lines = [f"new glory players={','.join(names)} seed=5", *(f"medal {p} {m}" for p, m in (
        ("Ростислав", "warrior"), ("Маша", "politician"), ("Олесь", "merchant"), ("Святополк-Окаянн", "priest"),
        ("Ростислав", "farmer")))]
    try:
        ctx = FakeCtx(*lines, lang=lang).open(MedalScreen())
        shown: set[str] = set()
        for _ in range(5):
            texts = [t for _x, _y, t, _k in drawn(ctx)]
            assert all(len(t) <= COLS and not t.endswith("…") for t in texts), texts
            shown |= {t.strip() for t in texts}
            ctx.press("down")
        assert {priest, "Святополк-Окаянн", "Ростислав", "Маша", "Олесь"} <= shown, shown
        ctx.top.cursor = 3
        for _ in range(9):                                   # after round 9 the medal may move: its chooser
            ctx.run("event")
            ctx.run("end-round")
        ctx.press("a")
        assert isinstance(ctx.top, MedalChoice)
        assert [t for _x, _y, t, _k in drawn(ctx)][0].strip() == priest    # the title bar: the word whole
    finally:
        set_language("en")


def test_an_intrigue_takes_a_vote_out_of_the_senate_column_on_the_device():  # G-7, G-10
    """«Повторное голосование» and «Недействительное голосование» take an opponent's vote out of
    the column (the console's unvote); the device had no way to, so its column, the supremacies
    and the politics score parted from the table's."""
    ctx = FakeCtx(NEW, "event", "end-round", "vote Jack", "vote Mary", "vote Jack", "event", lang="ru").open(GloryHome())
    ctx.render()                                  # (round 2 once its event is out: intrigues are activated after it, G-1)
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    way, n = moves(ctx.top.cursor, labels.index("Убрать голос"))
    ctx.press(*[way] * n, "a")
    rows = [str(i.label) for i in ctx.top.items(ctx)]
    assert rows == ["3 Jack", "2 Mary", "1 Jack"]             # top first, as on the Senate screen
    ctx.press("down", "a")                                    # Mary's vote
    assert ctx.lines[-1] == "unvote Mary at=2" and ctx.view()["senate"] == ["Jack", "Jack"]
    assert ctx.notes == ["Голос игрока Mary убран из колонны Сената."]
    assert isinstance(ctx.top, GloryHome)
    ctx.press("b")                                            # hold B is undo; B alone goes back
    for setup in ([NEW, "event", "end-round", "event"],      # nothing to take
                  ["new glory players=Jack seed=1", "event", "end-round", "vote Jack", "event"],   # solo: no intrigues (G-17)
                  [NEW, "vote Jack", "event"],                # round 1 (G-1)
                  [NEW, "event", "end-round", "vote Jack"]):  # round 2 before its event (G-1: step 2 after step 1)
        home = FakeCtx(*setup, lang="ru").open(GloryHome())
        assert "Убрать голос" not in [str(i.label) for i in home.top.items(home)]


def test_the_emperors_solo_pad_asks_how_many_objectives_were_done():  # G-17
    """«Завершить не менее 2 заданий» is a solo goal: the pad had no row for it (its Objectives row
    is the fame they give), so the device never counted it and a child of Jupiter (7 goals) was
    shown as an Emperor. The row is the solo's only: a table's pad keeps its rows."""
    ctx = FakeCtx("new glory players=Jack seed=1", *["event", "end-round"] * 9)
    entry = ScoreEntry()
    ctx.open(entry)
    labels = [str(i.label) for i in entry.items(ctx)]
    assert labels[-2:] == ["Objectives done", "Show scores"]
    ctx.press(*["down"] * labels.index("Objectives done"), "a", "up", "up")
    assert ctx.lines[-1] == "sheet Jack done 2"
    ctx.press("a")                                    # the last row: on to the scores
    solo = ctx.top.result["solo"]
    assert solo["goals"]["objectives_2"] is True and solo["unknown"] == [] and solo["done"] == 1
    table = FakeCtx(NEW).open(ScoreEntry())
    assert "Objectives done" not in [str(i.label) for i in table.top.items(table)]


def test_the_emperors_solo_pad_has_no_silver_or_bronze_pantheon_row():  # G-12, G-17
    """The solo is set up as a game of 2 (G-17), whose box keeps a gold and a bronze foundation and
    a gold and a silver temple; the lone player finishes each level first and takes gold (G-12).
    The pad asked for silver and bronze parts anyway, rows that could only hold 0 (a push there
    was refused): 2 presses of A more from the pad's opening to the scores (15, now 13). A game of 2
    keeps both rows (its second player takes them)."""
    from engine.glory.sheet import common_parts_most
    assert common_parts_most(1)["silver"] == common_parts_most(1)["bronze"] == 0
    ctx = FakeCtx("new glory players=Jack seed=1", *["event", "end-round"] * 9)
    entry = ScoreEntry()
    ctx.open(entry)
    labels = [str(i.label) for i in entry.items(ctx)]
    assert "Pantheon: silver" not in labels and "Pantheon: bronze" not in labels
    assert "Pantheon: gold" in labels and "Pantheon: own" in labels
    ctx.press("a")                                    # the pad's first row
    presses = 1
    while not isinstance(ctx.top, ScoreResult):
        ctx.press("a")
        presses += 1
    assert presses == 13 and ctx.top.result["solo"]["done"] == 0      # A to open, A on each of 12 rows
    pair = FakeCtx("new glory players=Jack,Mary seed=1").open(ScoreEntry())
    assert {"Pantheon: silver", "Pantheon: bronze"} <= {str(i.label) for i in pair.top.items(pair)}


def test_back_from_the_pad_lands_on_the_row_it_was_on():
    entry = ScoreEntry()
    ctx = FakeCtx(NEW).open(entry).press("a", "a", "a", "b")   # the first row, on to the third, back
    assert ctx.top is entry and entry.cursor == 2
    ctx.press("a")                                # A opens that row again
    assert ctx.top.entry == SHEET_ROWS[2][0]


def test_after_round_9_the_score_is_corrected_until_the_players_say_it_is_final(state_dir):  # issue 24 §2
    rounds = ["event", "end-round"] * 9
    app = app_with(["new glory players=Ann,Bob"] + rounds + ["sheet Ann denarii 8"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert isinstance(home, GloryHome) and str(home.items(app)[0].label) == "Final score"
        app.handle("a")                               # Final score: the pad's rows
        app.handle("up")                              # (the list starts on its first row: go to Show scores)
        for _ in range(len(SHEET_ROWS)):
            app.handle("down")
        app.handle("a")                               # Show scores: History records this score
        assert isinstance(app.stack[-1], ScoreResult)
        secret = str(app.console.session.header["seed"])
        shown = "".join(t for _, _, t, _ in drawn(app)).replace(" ", "")
        assert app.console.session.ended is False and secret[:6] not in shown   # no seed yet: corrections go on
        app.handle("b")
        app.handle("b")
        assert app.run("fame Bob +9")["ok"]            # a correction after round 9
        app.push(ScoreResult(app.run("score")))
        [game] = app.run("history")["games"]
        assert [p["name"] for p in game["players"] if p["winner"]] == ["Bob"]        # History follows
        labels = [str(i.label) for i in app.stack[-1].items(app)]
        for _ in range(labels.index("The score is final")):
            app.handle("down")
        app.handle("a")
        app.handle("a")                               # yes: the score is final
        seed = str(app.console.session.header["seed"])
        said = " ".join(app.message or []) + " ".join(getattr(app.stack[-1], "rows", []))   # a long note: its own screen
        assert app.console.session.ended is True and seed[:6] in said.replace(" ", "")
        assert not app.run("fame Ann +1")["ok"]
    finally:
        app.console.close()


@pytest.mark.parametrize("line", ["fame Bob +9", "medal Bob priest", "sheet Ann denarii 12", "senate column=Bob",
                                  "undo"])
def test_final_goes_when_the_serial_link_corrects_the_score_meanwhile(line, state_dir):  # G-15, issue 24 §2
    """The ranking is on the panel and "Final?" is asked when a correction comes over the serial link
    (fame, a medal, the pad; or an undo): the question and the ranking go, like the other questions
    (play.Asked): A on it ended the game with the score shown before the correction (History then
    kept a winner the table no longer had)."""
    rounds = ["event", "end-round"] * 9
    app = app_with(["new glory players=Ann,Bob"] + rounds + ["sheet Ann denarii 8"], ["a"], state_dir)
    try:
        app.push(ScoreResult(app.run("score")))
        app.render()
        labels = [str(i.label) for i in app.stack[-1].items(app)]
        for _ in range(labels.index("The score is final")):
            app.handle("down")
        app.render()
        app.handle("a")
        app.render()
        assert app.stack[-1].title == "Final?"
        assert '"ok":true' in app.serve_line(line.encode())
        app.render()
        assert app.stack[-1].title != "Final?" and not isinstance(app.stack[-1], ScoreResult)
        app.handle("a")
        app.render()
        assert app.console.session.ended is False and app.errors == 0
    finally:
        app.console.close()


def test_final_keeps_the_score_shown_whatever_the_serial_link_asked_meanwhile(state_dir):  # G-15, G-16
    """The ranking is on the panel; the serial link asks a read-only ``score`` with other figures
    (it changes no step, so the ranking stays): "Final?" made that answer final in History instead
    of the score on the panel."""
    rounds = ["event", "end-round"] * 9
    app = app_with(["new glory players=Ann,Bob"] + rounds + ["sheet Ann denarii 8"], ["a"], state_dir)
    try:
        app.handle("a")                               # Final score: the pad's rows
        app.handle("up")                              # on to Show scores
        for _ in range(len(SHEET_ROWS)):
            app.handle("down")
        app.handle("a")
        ranking = app.stack[-1]
        assert isinstance(ranking, ScoreResult)
        shown = {n: s["total"] for n, s in ranking.result["scores"].items()}
        app.render()
        asked = app.serve_line(b'score {"players": [{"name": "Bob", "denarii": 400}]}')
        app.render()
        assert '"ok":true' in asked and app.stack[-1] is ranking
        labels = [str(i.label) for i in ranking.items(app)]
        for _ in range(labels.index("The score is final")):
            app.handle("down")
        app.handle("a")
        app.handle("a")                               # yes: the score is final
        assert app.console.session.ended is True
        [game] = app.run("history")["games"]
        assert {p["name"]: p["score"] for p in game["players"]} == shown
        assert [p["name"] for p in game["players"] if p["winner"]] == ["Ann"]
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, military", [("ru", "Военное дело"), ("uk", "Військова справа")])
def test_the_score_detail_names_the_score_pads_categories_whole(lang, military):  # G-9, G-16
    """A player's detail names each category of the score pad as the rulebook does («Подсчет очков
    за военное дело»), whole, the figure beside it on the same row (uk said «Військо», the army,
    «shortened to fit» although the whole term fits)."""
    ctx = FakeCtx(NEW, lang=lang)
    result = ctx.run('score {"players": [{"name": "Jack", "track": 29}], "battlefields": '
                     '[{"shield": 4, "legions": {"Jack": 4}}]}')
    ctx.open(ScoreDetail(result, 0))
    texts = ctx.texts()
    assert military in texts and "10" in texts


@pytest.mark.parametrize("lang, said", [("ru", "Победа: Юлия, 105 очков славы."), ("uk", "Перемога: Юлія, 105 очок слави.")])
def test_historys_result_of_a_glory_game_is_a_whole_sentence(lang, said):  # G-15
    """History's result line names the winners and their fame in whole words (it said
    «Победа: Юлия, 105 очк.», an abbreviation standing in for the plural forms)."""
    from firmware.i18n import say, set_language
    from firmware.screens.glory.record import _summary
    name = "Юлія" if lang == "uk" else "Юлия"
    set_language(lang)
    try:
        scored = {"scores": {name: {"total": 105}}, "winners": [name], "places": {name: 1}}
        view = {"players": [name], "options": {}, "events": []}
        assert say(_summary(view, scored)["result"]) == said
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, fame, said", [
    ("en", 21, "Jack, Mary and Ross share the win with 21 points each."),
    ("ru", 21, "Победители и соправители: Ваня, Маша и Олесь, по 21 очку славы."),
    ("ru", 22, "Победители и соправители: Ваня, Маша и Олесь, по 22 очка славы."),
    ("uk", 25, "Переможці й співправителі: Ваня, Маша і Олесь, по 25 очок слави."),
])
def test_historys_result_of_a_shared_win_names_the_co_rulers_and_each_ones_fame(lang, fame, said):  # G-15
    """Players still tied on the denarii share the win («победителями и соправителями»): History's
    line named them as a bare list with the fame as one more item («Победа: Ваня, Маша, Олесь,
    21 очко славы.»), read as a fourth winner called «21»."""
    from firmware.i18n import say, set_language
    from firmware.screens.glory.record import _summary
    names = ["Jack", "Mary", "Ross"] if lang == "en" else ["Ваня", "Маша", "Олесь"]
    set_language(lang)
    try:
        scored = {"scores": {n: {"total": fame} for n in names + ["Ann"]}, "winners": names,
                  "places": {**{n: 1 for n in names}, "Ann": 4}}
        view = {"players": names + ["Ann"], "options": {}, "events": []}
        assert say(_summary(view, scored)["result"]) == said
    finally:
        set_language("en")


def test_double_tax_asks_the_dials_penalty_when_the_table_does_not_know_it():  # G-4
    """The population dial's red figure is only known for 3, 5 and 6: for another population the
    device asks for it (the console's ``penalty=``) instead of refusing with console syntax."""
    from firmware.screens.glory.round import tax_form
    ctx = FakeCtx(NEW, "fame Jack +10", "event")
    ctx.open(tax_form(ctx))
    ctx.press("right", "right", "right", "down", "right", "a")     # Jack, population 4, double
    assert isinstance(ctx.top, Dial) and not any(line.startswith("tax") for line in ctx.lines)
    assert not any("penalty=" in note for note in ctx.notes)
    ctx.press("up", "up", "a")                                              # the dial shows 3
    assert ctx.session is not None and ctx.session.lines[-1] == "tax Jack pop=4 double=1 penalty=3"
    assert ctx.view()["fame"]["Jack"] == 8 and ctx.depth() == 1              # form and dial closed
    assert ctx.notes and "8 denarii" in ctx.notes[-1] and "-3" in ctx.notes[-1]


def test_the_penalty_dial_is_titled_in_a_language_chosen_while_it_is_open():  # G-4
    """The dial asking the double tax's fame penalty stays open when the language changes (it says
    nothing when made that it could not say again): its title then follows, «Штраф слави»; it kept
    the Russian «Штраф славы» said when it was made."""
    from firmware.i18n import set_language
    from firmware.screens.glory.round import tax_form
    ctx = FakeCtx(NEW, "fame Jack +10", lang="ru")
    try:
        ctx.open(tax_form(ctx))
        ctx.press("right", "right", "right", "down", "right", "a")     # Jack, population 4, double
        dial = ctx.top
        assert isinstance(dial, Dial) and dial.title == "Штраф славы"
        set_language("uk")
        assert dial.title == "Штраф слави"
    finally:
        set_language("en")


def test_double_tax_with_a_known_penalty_needs_no_question():  # G-4: pop 5 -> 4
    from firmware.screens.glory.round import tax_form
    ctx = FakeCtx(NEW, "fame Jack +10", "event")
    ctx.open(tax_form(ctx))
    ctx.press("right", "right", "right", "right", "down", "right", "a")
    assert ctx.session is not None and ctx.session.lines[-1] == "tax Jack pop=5 double=1"
    assert ctx.view()["fame"]["Jack"] == 7 and ctx.depth() == 1


@pytest.mark.parametrize("arrow, said", [("cw90", "90° clockwise"), ("ccw180", "180° counter-clockwise")])
def test_end_of_round_says_which_way_to_turn_the_board_in_words(arrow, said):  # G-2
    """A signed angle (+90°, -180°) does not tell the table which way to turn the board."""
    from firmware.screens.widgets import ConfirmScreen
    ctx = FakeCtx(NEW, f"event arrow={arrow}").open(GloryHome())
    ctx.press("down", "a")                                # (from Tax, due) End round 1 -> the question
    assert isinstance(ctx.top, ConfirmScreen)
    say_yes(ctx)
    assert ctx.view()["round"] == 2
    assert ctx.notes[-1] == f"Turn the board {said}. Round 2."


def test_after_the_end_of_a_round_the_cursor_is_on_the_next_rounds_event():  # G-1: a round opens with its event
    """The rows change when a round ends (the event's row and End round go, Reveal event comes):
    the cursor stayed on the fourth row, Tax, one press from what the table does next."""
    ctx = FakeCtx(NEW, "event").open(GloryHome())
    ctx.press("down", "a")
    say_yes(ctx)                           # (from Tax, due) End round 1, yes
    assert ctx.view()["round"] == 2
    ctx.render()
    items = ctx.top.items(ctx)
    assert str(items[ctx.top.cursor].label) == "Reveal event"


def test_solo_event_says_the_denarii_the_emperors_solo_gives_instead_of_the_reward():  # G-17
    """Solo: each event gives 1 denarius per supporter instead of its reward (none for a negative
    card); the console says it (solo_denarii) and so must the card's screen when it is revealed."""
    from firmware.screens.glory.round import EventScreen
    ctx = FakeCtx("new glory players=Jack seed=3", "fame Jack +5").open(GloryHome())     # 2 supporters
    ctx.press("a")                                        # Reveal event (due: the home opens on it)
    assert isinstance(ctx.top, EventScreen)
    ctx.render()
    assert "Jack: take 2 denarii." in " ".join(ctx.top.rows)
    negative = FakeCtx("new glory players=Jack harsh=1 seed=3", "event card=H1").open(EventScreen(solo_denarii=0))
    negative.render()
    assert "Jack: a negative card, no reward." in " ".join(negative.top.rows)   # (was "take 0 denarii")
    assert "denari" not in " ".join(negative.top.rows)


@pytest.mark.parametrize("lang, said", [("ru", ["Претор: 4 задачи", "без звания: 1 задача", "без звания: 0 задач"]),
                                        ("uk", ["Претор: 4 задачі", "без звання: 1 задача", "без звання: 0 задач"])])
def test_the_solo_footer_counts_the_rulebooks_tasks(lang: str, said: list[str]):  # G-17
    """The Emperor's solo counts «задачи» («Ваша цель — выполнить как можно большее количество
    задач … 4-5 задач: … Претором»), not «цели»; the rank and the count are one sentence, «Претор:
    4 задачи» (it read «Претор 4 задачи», «без звания 1 задача»: two words side by side)."""
    ctx = FakeCtx("new glory players=Jack seed=1", lang=lang)
    shown = []
    for extra in ('"medals": ["warrior", "politician", "merchant"], "sets": {"tools": 2}, "track": 51, '
                  '"pantheon": {"own": 5, "gold": 2}', '"track": 51', '"track": 1'):
        result = ctx.run('score {"players": [{"name": "Jack", ' + extra + '}]}')
        shown.append(ScoreResult(result).footer(ctx))
    assert shown == said


def test_the_solo_denarii_are_said_only_for_the_event_revealed_with_them():  # G-17
    """The card's screen stays open while the serial link ends the round and reveals the next
    event: the denarii of the card revealed on the device are not said under the next card (they
    were: another card, another figure of supporters); the next card's own figure is."""
    from firmware.screens.glory.round import EventScreen
    ctx = FakeCtx("new glory players=Jack seed=3", "fame Jack +5").open(GloryHome())
    ctx.press("a")                                        # Reveal event (due: the home opens on it)
    ctx.render()
    assert isinstance(ctx.top, EventScreen) and "Jack: take 2 denarii." in " ".join(ctx.top.rows)
    assert ctx.run("end-round")["ok"] and ctx.run("fame Jack +9")["ok"] and ctx.run("event")["ok"]
    ctx.render()
    rows = " ".join(ctx.top.rows)
    assert "take 2" not in rows and "Jack: take 3 denarii." in rows      # 3 supporters at this reveal


def test_the_solo_denarii_are_said_again_when_the_card_is_opened_later():  # G-17
    """«получите по одному денарию за каждого завербованного сторонника» as the card is revealed: the
    card's screen opened again from the home (after a restart, a reveal over the serial link, B
    pressed too soon) said no figure, only the screen it was revealed on did; the figure is that of
    the reveal, not of the supporters gained later in the round."""
    from firmware.screens.glory.round import EventScreen
    ctx = FakeCtx("new glory players=Jack seed=3", "fame Jack +5", "event", "fame Jack +9", lang="ru")
    ctx.open(EventScreen())
    ctx.render()
    assert "Jack: возьмите 2 денария." in " ".join(ctx.top.rows)
    assert ctx.run("undo")["ok"] and ctx.run("undo")["ok"]            # the event taken back: no figure
    ctx.render()
    assert not any("денари" in r for r in ctx.top.rows)


def test_the_solo_row_is_not_shown_with_several_players():  # G-17 is the solo rule only
    from firmware.screens.glory.round import EventScreen
    ctx = FakeCtx(NEW).open(GloryHome())
    ctx.press("a")                                        # Reveal event (due)
    ctx.render()
    assert isinstance(ctx.top, EventScreen) and not any("take" in r for r in ctx.top.rows)


def test_a_ranking_an_undo_made_out_of_date_is_taken_off_and_the_final_score_keeps_the_new_one():  # G-14, G-15
    """After the ranking is shown, hold B takes back the last pad figure (Ross's 10 denarii): the
    ranking that counted it is no longer shown, and the score the players then make final (and
    History keeps) is the one without it."""
    import re
    from firmware.i18n import _
    from firmware.screens.glory.score import ScoreEntry
    from scripts.presses import glory as G
    d = Driver("en", seed=1)
    try:
        for line in G.SETUP:
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.select(re.compile("^" + re.escape(_("Final score")) + "$"))
        G._type_pad(d)
        assert isinstance(d.top, ScoreResult) and d.top.result["scores"]["Ross"]["total"] == 58
        d.press("b:hold")
        d.press("a")                                   # undo "sheet Ross denarii 10"
        if d.app.message is not None:
            d.press("b")
        assert not isinstance(d.top, ScoreResult), d.screen()
        assert "denarii" not in d.view()["sheet"]["Ross"]
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.select(re.compile("^" + re.escape(_("Final score")) + "$"))
        assert isinstance(d.top, ScoreEntry)
        d.select(_("Show scores"))
        assert isinstance(d.top, ScoreResult) and d.top.result["scores"]["Ross"]["total"] == 56
        d.select(_("The score is final"))
        d.press("a")
        ross = next(p for p in d.run("history 1")["games"][0]["players"] if p["name"] == "Ross")
        assert ross["score"] == 56
    finally:
        d.close()


@pytest.mark.parametrize("setup, row, keys, shown", [
    ((), "Reveal event", ["a"], "EventScreen"),
    (("event",), "Random card pick", ["a", "a"], "PickResult"),   # (once the event is out: intrigues after it, G-1)
])
def test_an_event_or_pick_taken_back_by_undo_is_no_longer_shown(setup, row, keys, shown):  # G-19: undo never re-draws
    d = Driver("en", seed=1)
    try:
        for line in (NEW, "event", "end-round", *setup):     # round 2: round 1 activates no intrigue (G-1)
            d.run(line)
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        home = d.top
        way, n = moves(home.cursor, [str(i.label) for i in home.items(d.app)].index(row))
        for k in [way] * n + keys:
            d.press(k)
        assert type(d.top).__name__ == shown, d.screen()
        d.press("b:hold")
        say_yes(d)
        if d.app.message is not None:
            d.press("b")                              # the short "Undone: …" notice
        while type(d.top).__name__ == "TextScreen" and d.top.title == "Note":
            d.press("b")                              # a long one has its own screen
        assert isinstance(d.top, GloryHome), (type(d.top).__name__, d.screen())
        assert d.view()["actions"] == 2 + len(setup) and (d.view()["event"] is None) == (not setup)
    finally:
        d.close()


@pytest.mark.parametrize("row, screen", [("pick", "PickForm"), ("unvote", "UnvoteScreen")])
@pytest.mark.parametrize("taken_back", ["b:hold", "serial"])
def test_an_intrigues_screen_goes_when_the_rounds_event_is_taken_back(row, screen, taken_back):  # G-1, G-7, G-19
    """«Активация интриг (Шаг 2)» comes after the event card (step 1): Random card pick and Remove a
    vote are offered once the event is out. An undo of the event with the pick's form or the
    column's list open (hold B is undo on every screen) or over the serial link left it up, and
    its A was refused (no event yet); now it goes with the event, as the tax form goes with its
    income phase."""
    d = Driver("ru", seed=1)
    try:
        for line in (NEW, "event", "end-round", "vote Mary", "vote Jack", "event"):   # round 2, its event out
            d.run(line)
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        home = d.top
        way, n = moves(home.cursor, [i.key for i in home.items(d.app)].index(row))
        d.press(way, n)
        d.press("a")
        assert type(d.top).__name__ == screen
        if taken_back == "b:hold":
            d.press("b:hold")
            d.press("a")
        else:
            assert '"ok":true' in d.app.serve_line(b"undo")
        while d.app.message is not None or type(d.top).__name__ == "TextScreen":
            d.press("b")                                           # the "Undone: …" note
        assert isinstance(d.top, GloryHome) and d.view()["event"] is None, type(d.top).__name__
        assert not any(type(s).__name__ == screen for s in d.app.stack)
        assert d.app.errors == 0
    finally:
        d.close()


def test_the_tax_form_offers_the_next_player_in_this_rounds_order():  # G-1, G-4: income in playing order
    """The income phase goes round the table in the round's order: each tax form opens on the next
    player, so nobody walks the player row (three players: three presses saved per round); a tax
    paid opens the next player's form at once (A on Tax again for each player: 4 presses more a
    round of 4), and the last one comes back to the home."""
    from firmware.screens.glory.round import TaxForm
    ctx = FakeCtx(NEW, "event arrow=ccw90").open(GloryHome())
    order = ctx.view()["order"]
    assert order[0] != "Jack" or order[1] != "Henry"     # not simply the seating order
    ctx.render()                                          # (the home opens on Tax, due)
    ctx.press("a")                                        # the income phase: the first player's form
    for name in order:
        assert isinstance(ctx.top, TaxForm) and ctx.view()["players"][ctx.top.values()["who"]] == name
        ctx.press("a")                                    # A: plain tax, pop 1; the next player's form
    assert isinstance(ctx.top, GloryHome)
    taxed = [line.split()[1] for line in ctx.session.lines if line.startswith("tax ")]
    assert taxed == order
    ctx.render()                                          # everyone has: the cursor on what comes next
    assert ctx.top.items(ctx)[ctx.top.cursor].label == "End round 1"
    ctx.press("up", "a")                                  # Tax again: said, no form to pay twice
    assert ctx.top is not None and not hasattr(ctx.top, "fields")
    assert ctx.notes[-1] == "Everyone has taken income in round 1."


def test_a_player_who_has_taken_income_is_refused_a_second_tax():  # G-4: once in the income phase
    """The form's player row can still be walked to someone who has paid: A is refused in the
    player's words and nothing is paid twice."""
    ctx = FakeCtx(NEW, "event arrow=ccw90", lang="ru").open(GloryHome())
    order = ctx.view()["order"]
    ctx.press("a", "a")                                      # Tax (due): the first player pays
    ctx.press("a")                                           # the form on the second
    form = ctx.top
    players = ctx.view()["players"]
    ctx.press("up")                                          # (the form opens on the population)
    for _ in range(abs(form.values()["who"] - players.index(order[0]))):
        ctx.press("left" if form.values()["who"] > players.index(order[0]) else "right")
    assert players[form.values()["who"]] == order[0]
    paid = list(ctx.session.lines)
    ctx.press("a")
    assert list(ctx.session.lines) == paid and ctx.top is form
    assert ctx.notes[-1] == f"Игрок {order[0]} уже получил доход в раунде 1 (этот налог можно отменить)."


def test_the_tax_form_opens_on_the_population_of_the_province_in_front_of_the_player():  # G-4
    """«1 denarius per population of the province in front of you»: a province's population only
    grows, so the tax form opens on the figure that province's last tax was on (it opened on 1: up
    to 15 presses a player, every round) — the province's, not the player's: the board turns at the
    end of every round (G-2), so in round 2 each player faces a province someone else was taxed on
    (it opened on the player's own last figure, a province he no longer faces); changing the player
    row brings his province's."""
    ctx = FakeCtx(NEW, "event").open(GloryHome())
    ctx.render()                                          # (the home opens on Tax, due)
    order, before = ctx.view()["order"], ctx.view()["facing"]
    pops = {before[name]: 3 + i for i, name in enumerate(order)}           # province -> population
    ctx.press("a")                                        # the income phase: the first player's form
    for name in order:
        ctx.press(*["right"] * (pops[before[name]] - 1), "a")   # population, A: the next player's
    assert [line for line in ctx.session.lines if line.startswith("tax ")] == [
        f"tax {n} pop={pops[before[n]]}" for n in order]
    assert ctx.view()["populations"] == pops
    assert ctx.run("end-round")["ok"] and ctx.run("event")["ok"]
    ctx.render()
    assert ctx.top.items(ctx)[ctx.top.cursor].label == "Tax"    # (round 2's event out: its income is due)
    ctx.press("a")                                             # the tax form, round 2
    form = ctx.top
    first, facing = ctx.view()["order"][0], ctx.view()["facing"]
    assert facing[first] != before[first]                      # the board has turned
    assert {f.key: f.value for f in form.fields}["pop"] == pops[facing[first]]
    ctx.press("up", "right")                                           # the next player: his province's
    who = ctx.view()["players"][{f.key: f.value for f in form.fields}["who"]]
    assert {f.key: f.value for f in form.fields}["pop"] == pops[facing[who]]


def test_the_tax_form_after_an_undone_tax_offers_the_same_player_again():  # G-1, G-4
    """The tax just paid is taken back: the next tax form opens on that player again (it opened on
    the one after, whose turn it was not yet)."""
    ctx = FakeCtx(NEW, "event arrow=ccw90").open(GloryHome())
    order = ctx.view()["order"]
    ctx.render()                                          # (the home opens on Tax, due)
    ctx.press("a", "a")                                   # the first player pays: the next one's form
    assert ctx.run("undo")["ok"] and not any(line.startswith("tax ") for line in ctx.session.lines)
    assert ctx.top.stale(ctx)                             # the income phase it was asked in is gone:
    ctx.pop()                                             # the App takes it off (App.drop_stale)
    ctx.press("a", "a")
    assert [line.split()[1] for line in ctx.session.lines if line.startswith("tax ")] == order[:1]


def _continued_after_a_power_cut(state_dir):
    """A new App on the same state dir (the power came back), the game continued from the main menu."""
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    app = App(Console(store, store.resume()))
    app.render()
    app.handle("a")                                        # the main menu: continue the game
    app.render()
    return app


def _tax_form_on(app) -> str:
    """Press Tax on the Glory home and say whose tax the form opened on ('' if no form opened)."""
    home = app.stack[0] if isinstance(app.stack[0], GloryHome) else next(s for s in app.stack if isinstance(s, GloryHome))
    while app.stack[-1] is not home or app.message is not None:
        app.handle("b")                                # (a notice first: B closes it)
        app.render()
    app.render()                                       # the home as drawn (its cursor on what is due)
    for _ in range(12):
        if home.items(app)[home.cursor].label == "Tax":
            break
        app.handle("down")
        app.render()
    app.handle("a")
    app.render()
    form = app.stack[-1]
    if getattr(form, "form_title", None) != "Tax":
        return ""
    return app.console.session.view()["players"][form.values()["who"]]


def _undo_on_device(app) -> None:
    while app.message is not None:
        app.handle("b")
        app.render()
    app.handle("b:hold")
    app.render()
    say_yes(app)
    app.render()
    if app.message is not None:
        app.handle("b")
        app.render()


@pytest.mark.parametrize("how", ["two undos", "serial tax", "serial undo", "restart"])
def test_the_tax_form_opens_on_the_player_whose_income_is_due(how, state_dir):  # G-1, G-4
    """The income phase goes round the table from the first player (G-1: «Начиная с первого игрока
    и далее в направлении…»): whatever happened since the last tax on the device — two taxes taken
    back in a row, a tax paid or undone over the serial link, the power cut — the tax form opens on
    the first player in the round's order who has not taken income yet (it opened on a later player,
    or on one who had already paid)."""
    app = app_with([NEW, "event arrow=ccw90"], ["a"], state_dir)
    try:
        order = app.console.session.view()["order"]
        for name in order[:2]:                         # two players pay on the device
            assert _tax_form_on(app) == name
            app.handle("a")
            app.render()
        if how == "two undos":
            _undo_on_device(app)
            _undo_on_device(app)
            due = order[0]
        elif how == "serial tax":
            assert '"ok":true' in app.serve_line(f"tax {order[2]} pop=2".encode())
            due = order[3]
        elif how == "serial undo":
            assert '"ok":true' in app.serve_line(b"undo")
            due = order[1]
        else:
            app.console.close()
            app = _continued_after_a_power_cut(state_dir)
            due = order[2]
        paid = {"two undos": [], "serial tax": order[:3], "serial undo": order[:1], "restart": order[:2]}[how]
        assert [line.split()[1] for line in app.console.session.lines if line.startswith("tax ")] == paid
        assert _tax_form_on(app) == due
        assert app.errors == 0
    finally:
        app.console.close()


@pytest.mark.parametrize("how", ["restart", "undo", "serial"])
def test_the_tax_form_opens_on_the_population_of_the_province_s_last_tax_in_the_game(how, state_dir):  # G-4
    """Round 1's taxes paid (populations 3, 4, 5, 6); round 2: the form opens on the population the
    province in front of the player was taxed on last in this game, as the game's own record says:
    after the power cut (it opened on 1: the figures kept while the device ran were gone), after an
    undo of a mistaken tax (it opened on the figure taken back), and when round 1 was paid over the
    serial link (on 1)."""
    app = app_with([NEW, "event arrow=ccw90"], ["a"], state_dir)
    try:
        order = app.console.session.view()["order"]
        pops = {name: 3 + i for i, name in enumerate(order)}      # the tax each player paid in round 1
        faced = app.console.session.view()["facing"]
        for name in order:                                 # round 1
            if how == "serial":
                assert '"ok":true' in app.serve_line(f"tax {name} pop={pops[name]}".encode())
                continue
            assert _tax_form_on(app) == name
            for key in ["right"] * (pops[name] - 1) + ["a"]:
                app.handle(key)
                app.render()
        assert [ln for ln in app.console.session.lines if ln.startswith("tax ")] == [f"tax {n} pop={pops[n]}" for n in order]
        assert '"ok":true' in app.serve_line(b"end-round") and '"ok":true' in app.serve_line(b"event arrow=ccw90")
        first = app.console.session.view()["order"][0]
        if how == "restart":
            app.console.close()
            app = _continued_after_a_power_cut(state_dir)
        elif how == "undo":                                # a mistaken 9 paid on the device, then taken back
            assert _tax_form_on(app) == first
            down_to_1 = ["left"] * (app.stack[-1].values()["pop"] - 1)     # (a push past 1 says so: a key)
            for key in down_to_1 + ["right"] * 8 + ["a"]:
                app.handle(key)
                app.render()
            assert app.console.session.lines[-1] == f"tax {first} pop=9"
            _undo_on_device(app)
        assert _tax_form_on(app) == first
        now = app.console.session.view()["facing"][first]      # round 1's tax on that province
        assert app.stack[-1].values()["pop"] == next(pops[p] for p in order if faced[p] == now)
        assert app.errors == 0
    finally:
        app.console.close()


def test_the_medal_s_list_of_players_goes_once_the_medal_changed_hands_meanwhile(state_dir):  # G-14
    """Medals → Warrior lists who may take it; the serial link gives it to Jack meanwhile: the list
    goes, back on the medals as they are now (A on it offered a medal that was no longer free and
    answered that it belonged to Jack)."""
    from firmware.screens.glory.round import MedalScreen
    app = app_with([NEW, "event"], ["a"], state_dir)
    try:
        app.push(MedalScreen())
        app.render()
        app.handle("a")                                        # Warrior: the players who may take it
        chooser = app.stack[-1]
        assert not isinstance(chooser, MedalScreen)
        assert '"ok":true' in app.serve_line(b"medal Jack warrior")
        assert isinstance(app.stack[-1], MedalScreen), [type(s).__name__ for s in app.stack]
        assert app.errors == 0
    finally:
        app.console.close()


def test_the_tax_form_goes_when_the_serial_link_pays_that_tax(state_dir):  # G-4
    """The form is open on a player when the serial link pays that player's tax: the form goes (A on
    it paid the same income a second time, unasked), like the other questions (play.Asked)."""
    app = app_with([NEW, "event arrow=ccw90"], ["a"], state_dir)
    try:
        order = app.console.session.view()["order"]
        assert _tax_form_on(app) == order[0]
        assert '"ok":true' in app.serve_line(f"tax {order[0]} pop=2".encode())
        app.render()
        app.handle("a")
        app.render()
        assert [line for line in app.console.session.lines if line.startswith("tax ")] == [f"tax {order[0]} pop=2"]
        assert app.errors == 0
    finally:
        app.console.close()


@pytest.mark.parametrize("how", ["hold B", "serial link"])
def test_the_tax_form_goes_when_the_rounds_event_is_taken_back(how, state_dir):  # G-1, G-4
    """The tax form is open when the round's event is undone (hold B there, or 'undo' over the
    serial link): the income phase comes after the event (G-1), so the form goes and the home's
    cursor is on Reveal event. It stayed, and A on it was refused in the console's words («…reveal
    it with 'event' first.»), a command no key on the device types."""
    from firmware.screens.glory.round import TaxForm
    app = app_with([NEW, "event arrow=ccw90"], ["a"], state_dir)
    try:
        assert _tax_form_on(app)
        if how == "hold B":
            app.render()
            app.handle("b:hold")
            app.render()
            app.handle("a")                              # A on the undo question
        else:
            assert '"ok":true' in app.serve_line(b"undo")
        app.render()
        assert app.console.session.view()["event"] is None
        while app.message is not None or type(app.stack[-1]).__name__ == "TextScreen":
            app.handle("b")                              # the undo's notice read
            app.render()
        assert not any(isinstance(s, TaxForm) for s in app.stack), [type(s).__name__ for s in app.stack]
        home = app.stack[-1]
        assert isinstance(home, GloryHome) and home.items(app)[home.cursor].label == "Reveal event"
        app.handle("a")
        app.render()
        assert app.console.session.view()["event"] is not None and app.errors == 0
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, seat", [("uk", "Синій–Червоний"), ("ru", "Синий–Красный"), ("en", "Blue–Red")])
def test_the_empty_seat_of_three_players_names_both_neighbours_whole(lang, seat, state_dir):  # G-1, G-2
    """With 3 players the form asks where the empty seat is, between two players: the seats'
    colours are said whole («Синій–Червоний»); it read «Синій–Черво…», each name cut to 6 letters on
    a row of its own that holds 19. Long names are still cut to fit (8 letters each)."""
    app = app_with([], ["a", "down", "down", "a", "left"] + ["down"] * 4, state_dir, lang)
    try:
        texts = [t for *_xy, t, _kind in drawn(app)]
        assert f"<{seat}>" in texts, texts
        assert all(x + len(t) * 6 <= 128 for x, _y, t, _kind in drawn(app))
    finally:
        app.console.close()


def test_the_farming_income_shown_follows_an_undo_and_the_serial_link(state_dir):  # G-4
    """Farming income is what each player farms now: after the Farmer medal is given over the
    serial link, or taken back by an undo, the figures shown are not the ones of before."""
    app = app_with(["new glory players=Jack,Henry seed=3", "medal Jack farmer"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        while home.items(app)[home.cursor].label != "Farming income":
            app.handle("down")
        app.handle("a")
        shown = [t for *_xy, t, _kind in drawn(app)]
        assert shown[0].startswith("Farming") and "Jack: 3 denarii" in shown
        app.handle("b:hold")
        app.render()
        app.handle("a")                                  # take the medal back
        app.render()
        app.handle("b")
        shown = [t for *_xy, t, _kind in drawn(app)]
        assert not shown[0].startswith("Farming") or "Jack: 1 denarius" in shown
        assert '"ok":true' in app.serve_line(b"medal Henry farmer")
        shown = [t for *_xy, t, _kind in drawn(app)]
        assert not shown[0].startswith("Farming") or "Henry: 3 denarii" in shown
        assert app.errors == 0
    finally:
        app.console.close()


def test_the_end_round_question_goes_when_the_serial_link_ends_the_round(state_dir):  # G-1, G-2
    """"End round? ... start round 2" is open when the serial link ends round 1: the question goes
    (A on it ended round 2 too, which nobody had asked)."""
    app = app_with(["new glory players=Jack,Henry seed=3", "event"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        while not home.items(app)[home.cursor].label.startswith("End round"):
            app.handle("down")                         # (the home opens on Tax, above End round)
            app.render()
        app.handle("a")
        app.render()
        assert app.stack[-1].title == "End round?"
        assert '"ok":true' in app.serve_line(b"end-round")
        app.render()
        assert app.stack[-1].title != "End round?"
        app.handle("a")
        app.render()
        assert app.console.session.view()["round"] == 2 and app.errors == 0
    finally:
        app.console.close()


def _row_under_cursor(app) -> str:
    home = app.stack[-1]
    assert isinstance(home, GloryHome), type(home).__name__
    home.render(app)                                     # as drawn: the cursor where the frame shows it
    return str(home.items(app)[home.cursor].label)


@pytest.mark.parametrize("stage, due", [
    ([], "Reveal event"),                                          # the intrigue phase: its event card
    (["event arrow=ccw90"], "Tax"),                                # building and action on the board; then income
    (["event arrow=ccw90", "tax {0} pop=3", "tax {1} pop=4"], "Tax"),
    (["event arrow=ccw90"] + [f"tax {{{i}}} pop=3" for i in range(4)], "End round 1"),
    (["event arrow=ccw90", "end-round"], "Reveal event"),          # round 2 opens with its event
    (["event", "end-round"] * 9, "Final score"),                   # after round 9: the score
])
def test_the_home_opens_on_what_the_round_has_due_at_the_start_and_after_a_restart(stage, due, state_dir):  # G-1
    """A round (G-1): the event card (intrigue phase), the building and action phases on the board,
    then the income (tax round the table, G-4) and the turn of the board (End round). The home opens
    its cursor on the step due now — the same when the game is opened from the main menu and after
    the power came back (it opened on Fame after a restart, wherever the round stood)."""
    app = app_with([NEW], ["a"], state_dir)
    try:
        for line in stage:                               # (the round's order is known once its event is out)
            line = line.format(*(app.console.session.view()["order"] or []))
            assert app.console.request(line)["ok"], line
        app.console.close()
        for _ in range(2):                               # the power cut, and the next one
            app = _continued_after_a_power_cut(state_dir)
            assert _row_under_cursor(app) == due
            app.console.close()
    finally:
        app.console.close()


def test_a_new_game_opens_on_its_event_card_and_a_round_goes_from_step_to_step():  # G-1, G-4
    """A new game started on the device opens on Reveal event (as a restart does, not on Fame); after
    the card, Tax; after each tax the next player's; after the last, End round, which ends the round
    at once (everyone's income is taken: nothing to ask); then round 2's event:
    a whole round of 4 players is A and B only (one B back from the card)."""
    from firmware.screens.glory.setup import SetupScreen
    ctx = FakeCtx(players=["Jack", "Henry", "Mary", "Ross"]).open(SetupScreen(GloryHome))
    ctx.render()
    ctx.top.cursor = len(ctx.top.items(ctx)) - 1          # the Start row
    ctx.press("a")
    assert ctx.lines[-1].startswith("new glory players=Jack,Henry,Mary,Ross")
    home = ctx.top
    assert isinstance(home, GloryHome) and _row_under_cursor(ctx) == "Reveal event"
    ctx.press("a", "b")                                   # the card, and back
    assert _row_under_cursor(ctx) == "Tax"
    ctx.press("a")                                        # the tax form on the first player due
    for name in ctx.view()["order"]:
        ctx.press("a")                                    # A pays; the next player's form
        assert ctx.lines[-1].startswith(f"tax {name} ")
    assert _row_under_cursor(ctx) == "End round 1"
    ctx.press("a")                                        # End round: everyone's income taken, no question
    assert ctx.view()["round"] == 2 and ctx.view()["event"] is None
    assert _row_under_cursor(ctx) == "Reveal event"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_whole_round_of_4_players_on_the_device_is_13_presses(lang, state_dir):  # G-1, G-4
    """A round as G-1 plays it on the device, from the home opened on Reveal event: A reveals the
    card, B comes back (on Tax), A opens the income phase, then each player's tax is A (pay) and A
    (read what to take: the next player's form is under it), and End round is A and A on the
    board's turn (everyone's income taken: «Income done?» asked what the device knew, 14). 13
    presses and A/B only; each tax was 3 (A on Tax again for every player): 17. The taxes are the
    round's order and round 2 opens on its event."""
    app = app_with([NEW], ["a"], state_dir, lang=lang)
    try:
        keys = ["a", "b", "a"] + ["a", "a"] * 4 + ["a", "a"]
        assert len(keys) == 13
        for key in keys[:3]:
            app.render()
            app.handle(key)
        order = app.console.session.view()["order"]
        for key in keys[3:]:
            app.render()
            app.handle(key)
        app.render()
        view = app.console.session.view()
        lines = [line for line in app.console.session.lines if line.startswith("tax ")]
        assert [line.split()[1] for line in lines] == order
        assert view["round"] == 2 and view["event"] is None and app.message is None and app.errors == 0
        assert _row_under_cursor(app) == _reveal_row(lang)
    finally:
        app.console.close()


def test_a_whole_round_of_3_players_whose_provinces_grew_is_a_press_more_for_each(state_dir):  # G-1, G-4
    """Round 2 of 3 players, each facing a province whose population grew by one since its last
    tax: the tax form opens on the population (the player due is on it already), so a grown
    province is one push right, then A pays; End round ends it at once (everyone's income is
    taken). 11 presses and one a province grown: 14 (it was 18: a press down from the Player row
    to the population for each player, and «Income done?» asked before the board's turn)."""
    app = app_with(["new glory players=Ann,Bob,Cid seed=5", "event", "tax Ann pop=2", "tax Bob pop=3",
                    "tax Cid pop=1", "end-round"], [], state_dir)
    try:
        app.stack[:] = app.stack[:1]
        app.push(GloryHome())
        view = app.console.session.view()
        was = dict(view["populations"])
        keys = ["a", "b", "a"] + ["right", "a", "a"] * 3 + ["a", "a"]
        assert len(keys) == 14
        for key in keys:
            app.render()
            app.handle(key)
        app.render()
        lines = [line for line in app.console.session.lines if line.startswith("tax ")][3:]
        after = app.console.session.view()
        grown = {f"tax {p} pop={was.get(view['facing'][p], 1) + 1}" for p in view["players"]}
        assert len(lines) == 3 and set(lines) == grown, (lines, grown)      # each his province's, one more
        assert after["round"] == 3 and after["event"] is None and app.message is None and app.errors == 0
    finally:
        app.console.close()


def _reveal_row(lang: str) -> str:
    from firmware.screens.glory.text import _ as glory_
    set_language(lang)
    return glory_("Reveal event")


def test_an_undo_in_the_middle_of_a_round_puts_the_home_on_what_is_due_again(state_dir):  # G-1, G-4
    """Round 1's four taxes paid and the round ended on the device; hold B takes the end of the round
    back: the home is on End round 1 again (it stayed on Reveal event, a row that had gone), and a
    second undo (the last tax) puts it on Tax, on the player who has not paid."""
    app = app_with([NEW, "event arrow=ccw90"], ["a"], state_dir)
    try:
        order = app.console.session.view()["order"]
        for name in order:
            assert _tax_form_on(app) == name
            app.handle("a")
            app.render()
        _back_home(app)
        assert _row_under_cursor(app) == "End round 1"
        app.handle("a")
        app.render()
        app.handle("a")
        app.render()
        assert app.console.session.view()["round"] == 2
        _back_home(app)
        assert _row_under_cursor(app) == "Reveal event"
        _undo_on_device(app)
        _back_home(app)
        assert app.console.session.view()["round"] == 1 and _row_under_cursor(app) == "End round 1"
        _undo_on_device(app)
        _back_home(app)
        assert _row_under_cursor(app) == "Tax" and app.console.session.view()["taxed"] == order[:3]
        app.handle("a")
        app.render()
        assert app.stack[-1].values()["who"] == app.console.session.view()["players"].index(order[3])
        assert app.errors == 0
    finally:
        app.console.close()


def _back_home(app) -> None:
    """B until the Glory home is on top (notices and the undo's note closed)."""
    while app.message is not None or not isinstance(app.stack[-1], GloryHome):
        app.handle("b")
        app.render()


@pytest.mark.parametrize("rounds", [0, 9])
def test_the_heroes_variant_has_no_medals_row(rounds):  # G-2 variants: «Герои» — «Удалите из игры все медали»
    """The Heroes variant plays without medals (the rulebook removes them all; the console refuses
    'medal'): the home offered Medals anyway, its list of five medals and of players, and only
    the last A said the variant had none. A game without the variant keeps the row."""
    for heroes, shown in ((" heroes=1", False), ("", True)):
        ctx = FakeCtx(f"new glory players=Jack,Henry{heroes} seed=3", *["event", "end-round"] * rounds,
                      lang="ru").open(GloryHome())
        ctx.render()
        assert ("Медали" in [str(i.label) for i in ctx.top.items(ctx)]) is shown, heroes


@pytest.mark.parametrize("players, rounds, shown", [
    ("players=Jack", 1, False),                     # G-17: «интриги не могут быть размещены»
    ("players=Jack,Henry truce=1", 1, False),       # Truce: «Игроки не размещают и не активируют интриги»
    ("players=Jack,Henry", 1, True),
    ("players=Jack,Henry", 0, False),               # G-1: «Активация интриг … В первом раунде игры пропустите этот шаг»
])
def test_a_random_card_pick_is_offered_only_where_intrigues_are_played(players, rounds, shown):  # G-19, G-17, G-1
    """«Продано!» and «Таможенные сборы» are intrigues that pick a card at random from a rival's
    hand: the home offered Random card pick in the Emperor's solo (no rival, no intrigues), in
    the Truce variant (no intrigues) and in round 1 (which skips their activation; the console
    refuses the pick there), where it hides Remove a vote for the same reason."""
    ctx = FakeCtx(f"new glory {players} seed=3", *["event", "end-round"] * rounds, "vote Jack", "event",
                  lang="ru").open(GloryHome())
    ctx.render()
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert ("Случайная карта" in labels) is shown and ("Убрать голос" in labels) is shown, labels


@pytest.mark.parametrize("lines, due", [
    ([], False), (["event"], True), (["event", "tax Jack pop=2", "end-round"], False),
    (["event", "end-round", "event"], True),
])
def test_the_home_says_tax_comes_after_the_rounds_event(lines, due):  # G-1, G-4
    """«Каждый раунд делится на четыре фазы: Фаза интриг (карта события переворачивается) … Фаза
    дохода»: before the round's event the console refuses a tax, and the home had no Tax row then:
    a player looking for it at the start of a round did not learn why. The row is there in its
    phase's place, under Farming income and above End round, saying «після події» (after the
    event) before it; A there says, in a notice, that the income phase comes after the event, and
    opens no form."""
    ctx = FakeCtx(NEW, *lines, lang="uk").open(GloryHome())
    ctx.render()
    rows = ctx.top.items(ctx)
    keys = [i.key for i in rows]
    tax = rows[keys.index("tax")]
    assert str(tax.label) == "Податок" and keys[keys.index("tax") - 1] == "farming"
    assert tax.value == ("" if due else "після події")
    assert ("end" in keys) is due and keys[keys.index("tax") + 1] == ("end" if due else "final")
    way, n = moves(ctx.top.cursor, keys.index("tax"))
    ctx.press(*[way] * n, "a")
    if due:
        assert getattr(ctx.top, "form_title", None) == "Tax" and not ctx.notes
    else:
        assert isinstance(ctx.top, GloryHome) and not any(line.startswith("tax ") for line in ctx.lines[len(lines) + 1:])
        assert ctx.notes == ["Фаза доходу — після події (G-1): спершу відкрийте її."]
        assert len(wrap(ctx.notes[0], COLS - 2)) <= ROWS       # a notice over the home, not a page to read


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_home_lists_the_rounds_steps_in_the_order_the_round_plays_them(lang):  # G-1
    """«Каждый раунд делится на четыре фазы»: the intrigue phase (the event card, then from round 2
    «Активация интриг»), the building phase (a medal to the first level III building), the action
    phase (farming), the income phase («Игроки получают доход, затем вращают поле»). The home listed
    End round above Tax and the intrigues (Random card pick, Remove a vote) last, under the income;
    now a table reads its rows top to bottom as it plays the round, the cursor on what is due."""
    ctx = FakeCtx(NEW, "event", "end-round", "vote Mary", "event", lang=lang).open(GloryHome())
    ctx.render()
    keys = [i.key for i in ctx.top.items(ctx)]
    steps = ["event", "arrows", "pick", "unvote", "medals", "farming", "tax", "end"]
    assert [k for k in keys if k in steps] == steps, keys
    assert keys[keys.index("event"):keys.index("end") + 1] == steps and keys[-3:] == ["final", "objectives", "new"]
    assert keys[ctx.top.cursor] == "tax"                       # due: the income (G-4)


def test_the_home_takes_the_arrows_printed_on_the_card_revealed_at_the_table():  # G-2
    """The device's event cards carry stand-in arrows (the printed ones are not transcribed), so
    the order of play, the first player and the board's turn it said were the stand-in's whatever
    card the table turned up, and nothing on the device could say otherwise. The home's Arrows
    row, under the event, takes the card's arrows as the rulebook names them (their colour and
    number): left/right, each a journaled step; A opens the card."""
    ctx = FakeCtx("new glory players=Ваня,Маша,Олесь seed=5", "event arrow=cw180", lang="ru").open(GloryHome())
    ctx.render()
    rows = [i.key for i in ctx.top.items(ctx)]
    assert rows[rows.index("event") + 1] == "arrows"
    ctx.top.cursor = rows.index("arrows")
    assert "<2 синие>" in {t for _x, _y, t, _k in drawn(ctx)}
    ctx.press("right")                                          # one orange arrow
    assert ctx.lines[-1] == "arrow ccw90" and ctx.view()["order"] == ["Ваня", "Олесь", "Маша"]
    assert "<1 оранжевая>" in {t for _x, _y, t, _k in drawn(ctx)}
    ctx.press("left", "left")
    assert ctx.lines[-2:] == ["arrow cw180", "arrow cw90"] and ctx.view()["event"]["arrow"] == "cw90"
    ctx.press("a")
    assert type(ctx.top).__name__ == "EventScreen"
    assert "Стрелки: 1 синяя" in {t for _x, _y, t, _k in drawn(ctx)}       # the card's, beside the table's


@pytest.mark.parametrize("arrow, said", [("cw90", "90° за годинниковою"), ("ccw180", "180° проти годинникової")])
def test_the_board_s_turn_in_ukrainian_names_the_clock_not_the_arrow(arrow, said):  # G-2
    """G-2: the card's arrow colour gives the way (blue clockwise, orange counter-clockwise). The
    Ukrainian words were «за стрілкою» / «проти стрілки» («with / against the arrow»): beside a card
    that has arrows of its own, «поверніть поле на 180° проти стрілки» reads as the opposite of its
    arrow. They say the clock («за годинниковою», «проти годинникової»), as ru «по часовой»."""
    from firmware.screens.glory.round import EventScreen
    ctx = FakeCtx(NEW, f"event arrow={arrow}", lang="uk").open(EventScreen())
    ctx.render()
    card = " ".join(ctx.top.rows)
    assert f"поворот на {said}" in card and "стрілк" not in card
    ctx = FakeCtx(NEW, f"event arrow={arrow}", lang="uk").open(GloryHome())
    ctx.press("down", "a")
    say_yes(ctx)                           # (from Tax, due) End round 1, yes
    assert ctx.notes[-1] == f"Поверніть поле на {said}. Раунд 2."


@pytest.mark.parametrize("lang, said", [("en", "Tie broken by denarii"), ("ru", "Ничья: по денариям"),
                                        ("uk", "Нічия: за денаріями")])
def test_a_ranking_whose_equal_fame_the_denarii_split_says_so(lang, said):  # G-15
    """«В случае ничьей по очкам побеждает игрок с наибольшим количеством денариев»: Андрій and
    Богдан both score 22 (20 on the track, 8 and 9 denarii: 2 fame each), Богдан is 1st for his
    one more denarius; the ranking said «1 *Богдан 22 / 2 Андрій 22» and nothing of why. Equal
    fame and equal denarii share the place: nothing to say then (the «tie» title says it)."""
    rounds = [line for _ in range(9) for line in ("event", "end-round")]
    def ranking(denarii: tuple[int, int]) -> FakeCtx:
        ctx = FakeCtx("new glory players=Андрій,Богдан,Віра seed=2", "fame Андрій +19", "fame Богдан +19",
                      "fame Віра +17", *rounds, f"sheet Андрій denarii {denarii[0]}",
                      f"sheet Богдан denarii {denarii[1]}", "sheet Віра denarii 12", lang=lang)
        ctx.open(ScoreResult(ctx.run("score sheet")))
        return ctx
    ctx = ranking((8, 9))
    assert ctx.top.result["places"] == {"Богдан": 1, "Андрій": 2, "Віра": 3}
    assert ctx.top.footer(ctx) == said and said in ctx.texts() and len(said) <= COLS
    ctx = ranking((8, 8))                                    # shared: both 1st, the title says «tie»
    assert ctx.top.result["places"] == {"Андрій": 1, "Богдан": 1, "Віра": 3}
    assert ctx.top.footer(ctx) == "" and said not in ctx.texts()


@pytest.mark.parametrize("lang, said", [("en", "Denarii left"), ("ru", "Денариев осталось"),
                                        ("uk", "Денаріїв лишилося")])
def test_a_tied_total_shows_the_denarii_left_that_told_it(lang, said):  # G-14, G-15
    """«Все денарии, обмененные на очки славы, возвращаются в запас» (G-14), then the tie goes to
    «наибольшим количеством денариев» (G-15): Андрій (20 on the track, 8 denarii: 2 fame, none
    left) and Богдан (21, 7: 1 fame, 3 left) both score 22 and Богдан is 1st; his detail and
    Андрій's show the denarii left (the pad's 8 and 7 alone could not explain it), Віра's, whose
    total nobody shares, does not."""
    rounds = [line for _ in range(9) for line in ("event", "end-round")]
    ctx = FakeCtx("new glory players=Андрій,Богдан,Віра seed=2", "fame Андрій +19", "fame Богдан +20",
                  "fame Віра +17", *rounds, "sheet Андрій denarii 8", "sheet Богдан denarii 7",
                  "sheet Віра denarii 12", lang=lang)
    result = ctx.run("score sheet")
    assert result["places"] == {"Богдан": 1, "Андрій": 2, "Віра": 3}
    left = {name: [(i.label, i.value) for i in ScoreDetail(result, result["ranking"].index(name)).rows()
                   if i.label == said] for name in result["ranking"]}
    assert left == {"Богдан": [(said, "3")], "Андрій": [(said, "0")], "Віра": []}
    assert len(said) + 1 + 2 <= COLS - 1            # beside a two-figure count on the 128-pixel row
    ctx.open(ScoreDetail(result, 0))
    ctx.press("down", "down", "down", "down", "down")
    assert said in ctx.texts()


@pytest.mark.parametrize("lang, said", [("en", "The score is final"), ("ru", "Счёт окончательный"),
                                        ("uk", "Рахунок остаточний")])
def test_the_score_made_final_is_said_in_the_same_words_on_its_row_question_and_notice(lang, said):  # G-15
    """The ranking's last row, its question and the notice after A name one thing: in Russian the
    row said «Счёт окончательный» and the question and the notice «Подсчёт окончательный» (in
    Ukrainian «Рахунок» / «Підрахунок»), as if they were two steps."""
    from firmware.screens.glory.text import _ as glory_
    rounds = [line for _ in range(9) for line in ("event", "end-round")]
    ctx = FakeCtx("new glory players=Андрій,Богдан seed=2", *rounds, "sheet Андрій denarii 8", lang=lang)
    ctx.open(ScoreResult(ctx.run("score sheet")))
    rows = [str(i.label) for i in ctx.top.items(ctx)]
    assert rows[-1] == said
    question = glory_("The score is final: no more corrections, and History keeps it.")
    senate = glory_("The score is final: the Senate column is no longer corrected.")
    ctx.press(*["down"] * (len(rows) - 1), "a")
    say_yes(ctx)          # the row, A; the question, A
    assert ctx.notes[-1].startswith(said + ". ") and question.startswith(said + ": ")
    assert senate.startswith(said + ": ")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_final_question_names_history_as_the_main_menu_does(lang):  # G-15
    """«История сохранит его» in the question that makes the score final is the device's History (the
    main menu's «История», «Історія»), where the record goes: it read «история сохранит его», lower
    case, «history will remember it»."""
    from firmware.i18n import _ as legatus_
    from firmware.screens.glory.text import _ as glory_
    from firmware.i18n import set_language
    set_language(lang)
    try:
        question = glory_("The score is final: no more corrections, and History keeps it.")
        assert legatus_("History") in question, question
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, silver, said", [
    ("en", "The second to finish a level takes its silver part.",
     "With 1-3 players, foundations after the gold one are bronze."),
    ("ru", "Второй закончивший уровень берёт его серебряную часть.",
     "В игре на 1–3 игроков фундаменты после золотого — бронзовые."),
    ("uk", "Другий, хто завершив рівень, бере його срібну частину.",
     "У грі на 1–3 гравців фундаменти після золотого — бронзові.")])
def test_a_pantheon_refused_with_2_or_3_players_says_the_silver_foundation_is_out(lang, silver, said):  # G-12
    """«В партии на 2-х игроков уберите в коробку … один серебряный и один бронзовый фундамент»
    («на 3-х … один серебряный фундамент»): two players each typing a gold foundation are refused
    with the figures 1 gold and 1 bronze, and the sentence said «the first … takes its gold part,
    the second its silver», the very part the figures leave out; it says now that the second
    foundation is bronze with 1-3 players. With 4 players (a silver foundation) the second takes
    silver (the sentence after the kind typed too often says who takes the kind typed too seldom)."""
    rounds = [line for _ in range(9) for line in ("event", "end-round")]
    def refusal(names: str) -> str:
        first, second = names.split(",")[:2]
        ctx = FakeCtx(f"new glory players={names} seed=2", *rounds, *(f"sheet {n} own 2" for n in (first, second)),
                      *(f"sheet {n} gold 1" for n in (first, second)), lang=lang)
        out = ctx.run("score sheet")
        assert out["error"] == "bad_arguments"
        return str(out["message"])
    two = refusal("Андрій,Богдан")
    assert said in two and silver not in two
    four = refusal("Андрій,Богдан,Віра,Галина")
    assert said not in four and silver in four


@pytest.mark.parametrize("lang, said", [("en", "counted from the left"), ("ru", "считая слева"),
                                        ("uk", "рахуючи зліва")])
def test_the_random_pick_says_which_side_of_the_hand_it_counts_from(lang, said):  # G-19
    """«Продано!» / «Таможенные сборы»: «Случайным образом выберите одну карту товара из руки
    соперника»: the device names the card's place, and the console says «counting from the left»;
    the screen said «№ 2» alone (from whose left, the fanned hand's holder or the picker's?)."""
    from firmware.screens.glory.round import pick_form
    ctx = FakeCtx(NEW, "event", "end-round", "event", lang=lang).open(pick_form())   # (round 2's intrigues, G-1)
    ctx.press("a")                                           # a hand of 5: pick
    position = ctx.session.state["picks"][-1]["position"]
    shown = ctx.texts()
    assert said in shown and len(said) <= COLS
    assert any(str(position) in t for t in shown)


def test_each_common_pantheon_row_refuses_a_figure_no_table_can_hold_as_it_is_typed():  # G-12
    """G-12: each level's first to finish it takes gold, the second silver (the silver foundation
    only with 4 players), the others bronze: a table holds 2 gold parts in all. The pad took gold 1
    for every player and refused the mix only at "Show scores", in a message of 12 rows; now the
    push past the table's parts says so in a short notice, journals nothing, and the scores work."""
    keys = [k for k, _ in SHEET_ROWS]
    ctx = FakeCtx(NEW).open(SheetPad(keys.index("gold")))
    ctx.press("up", "right")                        # Jack and Henry: the two gold parts
    n = len(ctx.session.lines)
    ctx.press("down")                               # Mary: no gold part left
    assert len(ctx.session.lines) == n and "gold" not in ctx.view()["sheet"].get("Mary", {})
    assert ctx.notes == ["Mary: at most 0: 2 gold Pantheon parts at the table (G-12)."]
    ctx.press("up")                                 # Jack's second (his temple's): Henry's is his foundation's
    assert len(ctx.session.lines) == n and ctx.view()["sheet"]["Jack"]["gold"] == 1
    assert ctx.notes[-1] == "Jack: at most 1: 2 gold Pantheon parts at the table (G-12)."
    over = FakeCtx(NEW, "sheet Jack gold 1", "sheet Henry gold 1", "sheet Mary gold 1").open(SheetPad(keys.index("gold")))
    n = len(over.session.lines)                     # typed over the serial link: a + push never lowers it
    over.press("down")
    assert len(over.session.lines) == n and over.view()["sheet"]["Mary"]["gold"] == 1 and len(over.notes) == 1
    two = FakeCtx("new glory players=Ann,Bob seed=3", lang="ru").open(SheetPad(keys.index("silver")))
    two.press("up", "up", "down")                   # 2 players: one silver part (the temple's), no foundation's
    assert two.view()["sheet"] == {"Ann": {"silver": 1}} and two.notes == [
        "Ann: не больше 1: за столом всего 1 серебряная часть Пантеона (G-12).",
        "Bob: не больше 0: за столом всего 1 серебряная часть Пантеона (G-12)."]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_table_s_common_pantheon_parts_are_those_its_finished_levels_can_take(players):  # G-12
    """The pad's bounds (engine.glory.sheet.common_parts_most) are the most any table the scoring
    accepts can hold: every way the players can finish levels, checked by the scoring itself."""
    import itertools

    from engine.errors import BadArguments
    from engine.glory.sheet import _common_parts, common_parts_most
    from engine.glory.sheet import PlayerSheet
    most = common_parts_most(players)
    seen = {"gold": 0, "silver": 0, "bronze": 0}
    kinds = [(), ("gold",), ("silver",), ("bronze",)] + list(itertools.combinations_with_replacement(
        ("gold", "silver", "bronze"), 2))
    for table in itertools.product(kinds, repeat=players):
        sheets = [PlayerSheet(name=f"P{i}", fame=0, medals=frozenset(), sets={}, jewelry_jokers=0,
                              pantheon={k: parts.count(k) for k in ("gold", "silver", "bronze")}, objectives=0,
                              denarii=0) for i, parts in enumerate(table)]
        try:
            _common_parts(sheets)
        except BadArguments:
            continue
        for k in seen:
            seen[k] = max(seen[k], sum(parts.count(k) for parts in table))
    assert seen == most


def test_the_last_table_starts_with_one_press_on_the_form(state_dir):
    """The form opens on the count row, the last game's players seated under it; A there starts
    them, the code box going with that A: Resume,
    New game, A (five presses while the box took one of its own and the form opened on Player 1,
    A there opening the list of players). Another first player is one press down."""
    from firmware.screens.glory.setup import SetupScreen
    app = app_with(["new glory players=Jack,Henry,Mary,Ross seed=1", "end"], ["a", "a"], state_dir)
    try:
        form = app.stack[-1]
        assert isinstance(form, SetupScreen)
        texts = [text for _x, _y, text, _kind in drawn(app)]       # its first frame
        assert app.commitment is not None and form.cursor == 0
        assert "A: start" in texts and app.commitment[:8] in texts     # the title bar's hint, above the box
        code = app.commitment
        app.handle("a")
        view = app.view()
        assert view["game"] == "glory" and view["players"] == ["Jack", "Henry", "Mary", "Ross"]
        assert view["round"] == 1 and view["commitment"] == code and app.commitment is None
    finally:
        app.console.close()


@pytest.mark.parametrize("last", [["Ann", "Bob", "Cid"], ["Ann", "Bob"], ["Ann"]])
def test_a_smaller_last_table_starts_again_as_it_was(state_dir, last):   # G-1 (1-4 players)
    """The form seats the last table and opens on the count, where A starts it: after a game of 3
    (or 2, or the solo) the count stayed 4, so that A started the table with a fourth player — the
    one who played before them (Ross) or a seat's colour — and the empty seat of 3 was lost."""
    from firmware.screens.glory.setup import SetupScreen
    app = app_with(["new glory players=Jack,Henry,Mary,Ross seed=1", "end",
                    f"new glory players={','.join(last)} seed=2", "end"], ["a", "a"], state_dir)
    try:
        form = app.stack[-1]
        assert isinstance(form, SetupScreen)
        app.render()
        assert form.values()["players"] == len(last) and form.cursor == 0
        app.handle("a")
        view = app.view()
        assert view["game"] == "glory" and view["round"] == 1 and sorted(view["players"]) == last
    finally:
        app.console.close()


SOLO_EMPEROR = {"epirus": 2, "macedonia": 3, "tools": 1, "weapons": 1, "own": 5, "gold": 2, "done": 2}  # 6 goals


@pytest.mark.parametrize("lang, fame, said, won", [
    ("ru", 50, "Jack — властительный Император: выполнено 6 задач из 7.", True),
    ("uk", 50, "Jack — владний Імператор: виконано 6 задач з 7.", True),
    ("en", 0, "Jack is a Praetor: 5 goals of 7 met.", True),
    ("ru", None, "Jack — без звания: выполнена 1 задача из 7 (Претору нужно 4).", False)])
def test_history_and_the_export_say_the_emperors_solo_title_not_a_win_by_fame(console, lang, fame, said, won):  # G-17
    """The Emperor's solo beats nobody («вы ни с кем не соревнуетесь, вместо этого вам нужно
    выполнять задачи»): its end is the title the goals met give (4-5 a Praetor, 6 an Emperor, 7 a
    child of Jupiter). History, its screen and the export said «Победа: Jack, 83 очка славы» and
    counted a win whatever the goals, a game of 1 goal too; the ranking marked him the winner."""
    try:
        console.request(f"settings language={lang}")
        console.request("new glory players=Jack seed=3")
        for _ in range(9):
            assert console.request("event")["ok"] and console.request("end-round")["ok"]
        sheet = SOLO_EMPEROR if fame is not None else {"done": 2}
        for entry, n in sheet.items():
            assert console.request(f"sheet Jack {entry} {n}")["ok"]
        for medal in ("warrior", "priest", "farmer") if fame is not None else ():
            assert console.request(f"medal Jack {medal}")["ok"]
        if fame:
            assert console.request(f"fame Jack +{fame}")["ok"]
        scored = console.request("score")
        # the console's reply: a winner by the title only, and no place: the solo has no ranking
        assert scored["winners"] == (["Jack"] if won else []) and scored["places"] == {}
        assert console.request("end")["ok"]
        [game] = console.request("history")["games"]
        assert game["result"] == said
        assert [p["winner"] for p in game["players"]] == [won]
        play = console.request("export format=bgstats")["play"]
        assert play["comments"].startswith(said) and [p["winner"] for p in play["players"]] == [won]
        ctx = FakeCtx("new glory players=Jack seed=3", lang=lang)
        shown = ScoreResult(scored).items(ctx)[0].label
        assert shown == "Jack"                  # no «1 *Jack»: no place, no winner's mark; the title below
        assert all("rank" not in p for p in game["players"])           # History keeps no place either
        assert [p.get("rank") for p in play["players"]] == [1 if won else None]   # BG Stats: 1 with the title
    finally:
        set_language("en")                 # (the next test's language)


@pytest.mark.parametrize("lang, said", [("ru", "Победители и соправители: Красный и Жёлтый, по 4 очка славы."),
                                        ("uk", "Переможці й співправителі: Червоний і Жовтий, по 4 очки слави.")])
def test_history_says_the_co_rulers_unnamed_seats_in_the_language_of_the_moment_when_played_in_english(
        state_dir, lang, said):  # G-15
    """A game whose seats nobody named, played in English (or over the console), stores them as
    ``Red``, ``Yellow``: History's page listed «✓Красный: 4» under «Победители и соправители: Red и
    Yellow, по 4 очка славы.», the English colours among Russian words (the export's comments too).
    The result says the seats as the rows do (G-15: the co-rulers)."""
    from firmware.screens.history import detail_rows
    app = app_with(["new glory players=Red,Yellow,Blue seed=5", *["event", "end-round"] * 9,
                    "fame Red +3", "fame Yellow +3", "score", "end"], [], state_dir, "en")
    try:
        assert app.console.request(f"settings language={lang}")["ok"]
        set_language(lang)
        [entry] = app.history() or []
        rows = detail_rows(entry)
        assert rows[1] == said and rows[2].startswith("✓" + said.split(": ")[1].split(" ")[0]), rows
        assert app.console.request("export format=bgstats")["play"]["comments"].startswith(said)
    finally:
        set_language("en")
        app.console.close()


@pytest.mark.parametrize("lang, rows", [
    ("ru", ["✓Слава на шкале 51+", "✓Медали 3+", "✓Завоёвано полей 2+", "·Голоса в Сенате 4+",
            "✓Наборы товаров 2+", "✓Пантеон построен", "✓Заданий выполнено 2+"]),
    ("uk", ["✓Слава на шкалі 51+", "✓Медалі 3+", "✓Завойовано полів 2+", "·Голоси в Сенаті 4+",
            "✓Набори товарів 2+", "✓Пантеон збудовано", "✓Завдань виконано 2+"])])
def test_the_emperors_solo_column_shows_which_goals_are_met(lang, rows):  # G-17
    """The solo's ranking said «Император 6 задач» and the player's column only the score pad's
    categories: which of the 7 goals the rank counted (and which was missed) was nowhere, so the
    table could not check the rank against its own count. The column opens on the goals, ✓ when
    met, in the rulebook's order («Набрать 51 очко славы на шкале славы … Завершить не менее 2
    заданий»)."""
    ctx = FakeCtx("new glory players=Jack seed=3", *["event", "end-round"] * 9, "fame Jack +50",
                  "medal Jack warrior", "medal Jack priest", "medal Jack farmer",
                  *[f"sheet Jack {k} {n}" for k, n in SOLO_EMPEROR.items()], lang=lang)
    try:
        result = ctx.run("score")
        assert result["solo"]["done"] == 6 and result["solo"]["goals"]["senate_4"] is False
        detail = ScoreDetail(result, 0)
        shown = [item.label + item.value for item in detail.rows()[:7]]
        assert shown == rows and all(len(r) <= COLS for r in shown)
        assert str(detail.rows()[7].label) == ("Шкала славы" if lang == "ru" else "Шкала слави")
        from firmware.screens import base as screen_base
        screen_base.TRACE = []
        try:
            detail.render(ctx)
            texts = [t for _, _, t, _ in screen_base.TRACE]
        finally:
            screen_base.TRACE = None
        # its title: the goals met where a table's column says its place (it said «место 1»: G-17,
        # the solo has no ranking)
        assert "6/7" in texts and not [t for t in texts if "мест" in t or "місц" in t], texts
        table = ScoreDetail(FakeCtx(NEW, lang=lang).run("score " + json.dumps(EXAMPLE)), 0)
        assert not [i for i in table.rows() if i.ident == "goal"]      # a table's column has no goals
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, denarii, said", [
    ("ru", (8, 11), "Победа по денариям: Bob, 13 очков славы."),
    ("uk", (8, 11), "Перемога за денаріями: Bob, 13 очок слави."),
    ("en", (8, 11), "Bob won on denarii with 13 points."),
    ("ru", (8, 8), "Победители и соправители: Ann и Bob, по 13 очков славы."),
    ("ru", (0, 0), "Победа: Cid, 15 очков славы.")])
def test_history_says_a_win_the_denarii_gave(console, lang, denarii, said):  # G-15
    """«В случае ничьей по очкам побеждает игрок с наибольшим количеством денариев»: History listed
    «·Ann: 13» and «✓Bob: 13» under «Победа: Bob, 13 очков славы.», nothing saying why one of two
    equal scores won (the device's ranking says «Ничья: по денариям»). A win on denarii says so;
    a shared win and a win on fame read as before."""
    try:
        console.request(f"settings language={lang}")
        console.request("new glory players=Ann,Bob,Cid seed=3")
        for _ in range(9):
            assert console.request("event")["ok"] and console.request("end-round")["ok"]
        assert console.request("fame Ann +10")["ok"] and console.request("fame Bob +10")["ok"]
        if denarii == (0, 0):
            assert console.request("fame Cid +14")["ok"]
        for name, n in zip(("Ann", "Bob"), denarii):
            if n:
                assert console.request(f"sheet {name} denarii {n}")["ok"]
        assert console.request("score")["ok"] and console.request("end")["ok"]
        [game] = console.request("history")["games"]
        assert game["result"] == said
        assert console.request("export format=bgstats")["play"]["comments"].startswith(said)
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, said, final", [
    ("en", "Correct the column as on the table: left/right change whose vote this is.",
     "The score is final: the Senate column is no longer corrected."),
    ("ru", "Исправьте колонну, как на столе: влево/вправо меняют, чей это голос.", "Счёт окончательный: колонну Сената больше не исправляют."),
    ("uk", "Виправте колону, як на столі: вліво/вправо змінюють, чий голос.", "Рахунок остаточний: колону Сенату більше не виправляють.")])
def test_after_round_9_the_senate_column_is_corrected_until_the_score_is_final(lang, said, final):  # G-1, G-10
    """After round 9 no vote is placed (G-1) and the column scores as it stands (G-10): where the
    device's column differed from the table's, the only way was to undo back through round 9's end
    (A on the Senate said no vote is placed), while fame, medals and the pad are corrected then.
    The cursor is on the column: up/down to a position, left/right change whose vote it holds (the
    players in order, then none: the votes above move down; the row over the top vote takes a new
    one), each change one correction at once, no supremacy (G-7: only placing makes one). Once the
    players have ended the game the column is read, and A says so in a whole sentence."""
    try:
        votes = [f"vote {p}" for p in ("Jack", "Mary", "Mary", "Mary", "Ross")]
        ctx = FakeCtx(NEW, *votes, *["event", "end-round"] * 9, lang=lang).open(GloryHome())
        fame = dict(ctx.view()["fame"])
        ctx.press(*["down"] * 3, "a")                     # Final score, Fame, Medals, Senate
        assert isinstance(ctx.top, SenateScreen)
        ctx.press("down", "down", "left")                 # position 3 (the top vote first): Mary -> Henry
        assert ctx.session.lines[-1] == "senate column=Jack,Mary,Henry,Mary,Ross"
        assert ctx.view()["senate"] == ["Jack", "Mary", "Henry", "Mary", "Ross"] and ctx.view()["fame"] == fame
        ctx.press("up", "up", "right")                    # the top vote: Ross -> none, it leaves the column
        assert ctx.view()["senate"] == ["Jack", "Mary", "Henry", "Mary"]
        ctx.press("right")                                # the row over the top vote: a new vote, the first player's
        assert ctx.view()["senate"] == ["Jack", "Mary", "Henry", "Mary", "Jack"] and not ctx.notes
        ctx.press("a")
        assert ctx.notes == [said]
        assert ctx.run("score")["ok"] and ctx.run("end")["ok"]      # the score is final
        before = list(ctx.session.lines)
        ctx.press("a", "a:hold")
        assert ctx.session.lines == before and ctx.notes[-2:] == [final, final]
        playing = FakeCtx(NEW, "vote Henry", lang=lang).open(SenateScreen()).press("a")
        assert playing.session.lines[-1] == "vote Jack"   # in a round A places the vote, as before
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, asked, undone", [
    ("en", "Take back: Jack — 2, 1 again (legions in Epirus).", "Undone: Jack — 1 again (legions in Epirus), not 2."),
    ("uk", "Скасувати: Jack — 2, знову 1 (легіони в Епірі).", "Скасовано: Jack — знову 1 (легіони в Епірі), не 2."),
    ("ru", "Отменить: Jack — 2, снова 1 (легионы в Эпире).", "Отменено: Jack — снова 1 (легионы в Эпире), не 2."),
])
def test_an_undone_pad_figure_names_the_figure_standing_again(lang, asked, undone):  # G-9: the pad's legions
    """Hold B on the score pad after two pushes towards Jack (0 -> 1 -> 2 legions in Epirus): the
    question names the figure taken back and the one that stands again, and the notice after it
    names the figure now on the pad, 1 (it said «Скасовано: Підрахунок очок: Jack — 2 (легіони в
    Епірі)» with 1 on the pad), on one panel each; after a power cut too (the stored sentence)."""
    from firmware.i18n import _
    d = Driver(lang, seed=1)
    try:
        for line in ["new glory players=Jack,Henry,Mary,Ross"] + ["event", "end-round"] * 9:
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.select(_("Final score"))                          # straight onto the pad's first row: Epirus
        assert isinstance(d.top, SheetPad) and d.top.entry == "epirus"
        d.press("up", 2)                                    # Jack sits at the top: 2 legions
        assert d.view()["sheet"]["Jack"]["epirus"] == 2
        d.press("b:hold")
        assert asked in " ".join(d.screen().split()), d.screen()
        assert "1/2" not in d.screen()                      # one page, as before
        d.press("a")
        assert d.view()["sheet"]["Jack"]["epirus"] == 1
        assert d.app.message is not None and " ".join(d.app.message) == undone, d.screen()
        assert d.problems == []
        d.restart()                                         # the power cut: the log says it the same
        log = d.console.request("log")["log"]
        assert log[-1] == undone
    finally:
        d.close()


@pytest.mark.parametrize("lang, taxed, said", [
    ("uk", 1, "Дохід ще не взято: Синій, Червоний."),
    ("en", 3, "Turn the board 90° clockwise. Round 3."),    # everyone's: no question, the round ends
    ("ru", 2, "Доход ещё не взят: Червоний."),
])
def test_the_end_round_question_names_who_has_not_taken_income(lang, taxed, said):  # G-1, G-4
    """Every player takes income in the income phase (G-1, G-4): End round names the players whose
    tax the game has not recorded, in the round's order (it asked «Дохід зібрано?» alike with two
    players' income not taken); once everyone has, it ends the round at once and says the board's
    turn (it asked «Income done?», a press every round for what the device knew). The question
    fits one page, A ends the round at once: «…: Синій, Червоний. Поверніть поле і почніть раунд 3.»
    took four rows (two A once a long question reads to its end), and the board's turn and the
    round are the notice's after yes, as where everyone's income is taken."""
    import re
    from firmware.i18n import _
    from firmware.screens import base
    from firmware.screens.glory.text import _ as said_
    d = Driver(lang, seed=1)
    try:
        players = ["Червоний", "Жовтий", "Синій"]
        for line in [f"new glory players={','.join(players)}", "event arrow=cw90", "end-round", "event arrow=cw90"]:
            assert d.run(line)["ok"], line
        order = d.view()["order"]
        assert order == ["Жовтий", "Синій", "Червоний"]       # round 2: the token's province faces Жовтий (G-2)
        for name in order[:taxed]:
            assert d.run(f"tax {name} pop=2")["ok"]
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()                                        # (the home's cursor goes to what is due)
        d.select(re.compile("^" + re.escape(_("End round {}").format(2)) + "$"))
        if taxed == len(players):
            assert d.view()["round"] == 3 and type(d.top).__name__ != "Asked"
            assert said == " ".join(d.app.message or []), d.app.message        # the board's turn, said
            return
        assert type(d.top).__name__ == "Asked" and d.top.question == said
        assert said.split(".")[0] in " ".join(d.screen().split()), d.screen()    # the names on its first page
        assert len(d.top.rows) <= base.ROWS - 1, d.top.rows                      # one page
        d.press("a")                                          # one A: the round ends, the notice says the turn
        assert d.view()["round"] == 3 and type(d.top).__name__ != "Asked"
        assert " ".join(d.app.message or []) == said_("Turn the board {}° {}. Round {}.").format(90, said_("clockwise"), 3)
        assert d.problems == []
    finally:
        d.close()


@pytest.mark.parametrize("lang, asked, undone", [
    ("en", "Take back: the end of round 9.", "Undone: the end of round 9; round 9 goes on."),
    ("uk", "Скасувати: кінець раунду 9.", "Скасовано: кінець раунду 9; раунд 9 триває."),
])
def test_round_nines_end_taken_back_says_round_9_goes_on(lang, asked, undone):  # G-1
    """Round 9's end (the game goes on to the final scoring, G-1) taken back by hold B: the question
    and the notice say round 9 is played on, one panel each; they said the step's own sentence,
    «Undone: Round 9 ends: the game is over, final scoring ('score <json>')» (the console's command
    on the panel; three pages of the question in Ukrainian)."""
    import re
    from firmware.i18n import _
    d = Driver(lang, seed=1)
    try:
        for line in ["new glory players=Богдана,Ярослав,Олесь"] + ["event", "end-round"] * 8 + ["event"]:
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        d.select(re.compile("^" + re.escape(_("End round {}").format(9)) + "$"))
        say_yes(d)                                          # yes: the game is over
        assert d.view()["finished"] and d.app.message is not None
        d.press("b")
        d.press("b:hold")
        assert asked in " ".join(d.screen().split()) and "1/" not in d.screen(), d.screen()
        d.press("a")
        assert not d.view()["finished"] and d.view()["round"] == 9
        assert d.app.message is not None and " ".join(d.app.message) == undone, d.screen()
        assert d.console.request("log")["log"][-1] == undone
        assert d.problems == []
    finally:
        d.close()


@pytest.mark.parametrize("lang, asked, undone", [
    ("en", "Take back: round 1's arrows as printed.", "Undone: round 1's arrows are 1 blue again."),
    ("uk", "Скасувати: стрілки раунду 1 як на карті.", "Скасовано: стрілки раунду 1 — знову 1 синя."),
])
def test_arrows_taken_back_name_the_arrows_standing_again(lang, asked, undone):  # G-2
    """The home's Arrows row pushed right (1 blue -> 2 blue, the card's arrows as printed, G-2), then
    hold B: the notice names the arrows that stand again, as the row shows them (it said the
    arrows taken back, «Скасовано: Раунд 1: стрілки як на карті події (наприкінці поле повернеться
    на 180°…)», five pages, with 1 blue on the row), and the question fits one panel."""
    from firmware.i18n import _
    d = Driver(lang, seed=1)
    try:
        for line in ["new glory players=Богдана,Ярослав,Олесь", "event arrow=cw90"]:
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        d.select(_("Arrows"), key="right")
        assert d.view()["event"]["arrow"] == "cw180"
        d.press("b:hold")
        assert asked in " ".join(d.screen().split()) and "1/" not in d.screen(), d.screen()
        d.press("a")
        assert d.view()["event"]["arrow"] == "cw90"
        assert d.app.message is not None and " ".join(d.app.message) == undone, d.screen()
        d.restart()                                           # the power cut: the log says it the same
        assert d.console.request("log")["log"][-1] == undone
        assert d.problems == []
    finally:
        d.close()


def test_corrections_after_round_9_taken_back_name_what_stands_again():  # G-10, G-7
    """After round 9 the Senate column and the medals are corrected a push at a time (G-10 scores
    the column as it stands); hold B takes one back and the notice names what stands again: the
    position's owner, the vote back or off, the medal's holder (it said the correction taken back,
    «Скасовано: Виправлення: Сенат, позиція 2: Олесь, а не Ярослав» with Ярослав there again); its
    question fits one panel (it took three pages)."""
    from firmware.i18n import _
    d = Driver("uk", seed=1)
    try:
        for line in (["new glory players=Богдана,Ярослав,Олесь", "vote Богдана", "vote Ярослав", "medal Олесь warrior"]
                     + ["event", "end-round"] * 9):
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        d.select(_("Senate"))

        def undo() -> str:
            d.press("b:hold")                                 # the question on one panel, no «Виправлення»
            assert "1/" not in d.screen() and "Виправлення" not in d.screen(), d.screen()
            d.press("a")
            said = " ".join(d.app.message or [])
            d.press("b")
            return said
        d.press("right")                                      # the top vote (position 2): Олесь's
        assert d.view()["senate"] == ["Богдана", "Олесь"]
        assert undo() == "Скасовано: Сенат, позиція 2: знову Ярослав, а не Олесь."
        d.press("up")
        d.press("right")                                      # a vote added on top (position 3)
        assert d.view()["senate"] == ["Богдана", "Ярослав", "Богдана"]
        assert undo() == "Скасовано: Сенат, позиція 3: голос гравця Богдана знову прибрано."
        d.press("down", 2)
        d.press("left")                                       # the bottom vote out
        assert d.view()["senate"] == ["Ярослав"]
        assert undo() == "Скасовано: Сенат, позиція 1: голос гравця Богдана повернуто."
        assert d.view()["senate"] == ["Богдана", "Ярослав"]
        d.press("b")
        d.select(_("Medals"))
        d.press("a")
        d.press("a")                                          # the Warrior medal to Богдана
        assert d.view()["medals"]["warrior"] == "Богдана"
        assert undo() == "Скасовано: медаль воїна знову отримує Олесь, а не Богдана."
        assert d.view()["medals"]["warrior"] == "Олесь"
        assert d.problems == []
    finally:
        d.close()


def test_a_fame_change_taken_back_names_the_fame_standing_again():  # G-5, G-6
    """Hold B after a fame change on the Fame screen: the notice names the fame the track shows
    again (it said the change taken back, «Скасовано: Ярослав: +3 слави: 12 → 15» with 12 on the
    track), and a change that passed milestones says they are taken back too (G-6: the marker on 11
    goes back to 12, Богдана's supporters with them)."""
    from firmware.i18n import _
    d = Driver("uk", seed=1)
    try:
        for line in ["new glory players=Богдана,Ярослав,Олесь", "fame Ярослав +11"]:   # Ярослав on 12: the marker to 11
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        d.select(_("Fame"))
        d.press("down")
        d.press("a")
        d.press("up", 2)
        d.press("a")                                            # Ярослав +3: 12 -> 15
        assert d.view()["fame"]["Ярослав"] == 15
        d.press("b:hold")
        d.press("a")
        assert " ".join(d.app.message or []) == "Скасовано: слава гравця Ярослав знову 12, а не 15."
        d.press("b")
        d.press("up")
        d.press("a")
        d.press("up", 9)
        d.press("a")                                            # Богдана +10: 1 -> 11, milestones 5 and 12 (on 11)
        while d.app.message is not None or type(d.top).__name__ == "TextScreen":
            d.press("b")
        assert d.view()["markers"]["12"] == 10
        d.press("b:hold")
        say_yes(d)
        said = d.console.request("log")["log"][-1]                 # (a long notice: its own screen, read here)
        assert said.startswith("Скасовано: слава гравця Богдана знову 1, а не 11. Скасовано також: Богдана проходить "
                               "віху 5"), said
        assert d.view()["fame"]["Богдана"] == 1 and d.view()["markers"]["12"] == 11
        assert d.problems == []
    finally:
        d.close()


@pytest.mark.parametrize("lang, asked, undone", [
    ("en", "Take back: Богдана's double tax.", "Undone: Богдана's double tax, 10 denarii; fame 21 again."),
    ("uk", "Скасувати: податок ×2 (Богдана).", "Скасовано: податок ×2 (Богдана), денаріїв: 10; слава знову 21."),
])
def test_a_double_tax_taken_back_names_the_fame_standing_again(lang, asked, undone):  # G-4
    """A double tax (pop 5: 10 denarii, −4 fame, 21 -> 17) taken back by hold B: the notice names the
    fame on the track again, 21 (it said «…−4 слави (21 → 17)», 17, three pages to ask), one panel
    each."""
    from firmware.i18n import _
    d = Driver(lang, seed=1)
    try:
        for line in ["new glory players=Богдана,Ярослав,Олесь", "fame Богдана +20", "event arrow=cw90"]:
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        d.select(_("Tax"))
        d.press("right", 4)                                   # population 5 (the form opens on it)
        d.press("down")
        d.press("right")                                      # double tax
        d.press("a")
        assert d.view()["fame"]["Богдана"] == 17
        d.press("b:hold")                                     # (closes the tax's notice)
        d.press("b:hold")
        assert asked in " ".join(d.screen().split()) and "1/" not in d.screen(), d.screen()
        d.press("a")
        assert d.view()["fame"]["Богдана"] == 21 and d.view()["taxed"] == []
        assert d.app.message is not None and " ".join(d.app.message) == undone, d.screen()
        assert d.problems == []
    finally:
        d.close()


def test_a_vote_removal_taken_back_says_the_vote_is_back():  # G-7
    """An intrigue's removal of a vote (Remove a vote, G-7) taken back by hold B: the notice says the
    vote is back at its position, on one panel (it said the removal again, «Скасовано: Голос гравця
    Богдана з позиції 1 виходить із колони Сенату…», two pages; the question three)."""
    from firmware.i18n import _
    d = Driver("uk", seed=1)
    try:
        for line in ["new glory players=Богдана,Ярослав,Олесь", "vote Богдана", "vote Ярослав", "event", "end-round",
                     "event"]:                            # round 2: intrigues after the event (G-1)
            assert d.run(line)["ok"], line
        d.app.stack[:] = d.app.stack[:1]
        d.app.push(GloryHome())
        d.app.render()
        d.select(_("Remove a vote"))
        d.press("down")                                    # the bottom vote: Богдана's, position 1
        d.press("a")
        assert d.view()["senate"] == ["Ярослав"]
        d.press("b")
        d.press("b:hold")
        assert "Скасувати: Богдана — голос із позиції 1 Сенату." in " ".join(d.screen().split()), d.screen()
        d.press("a")
        assert d.view()["senate"] == ["Богдана", "Ярослав"]
        assert " ".join(d.app.message or []) == "Скасовано: голос гравця Богдана знову на позиції 1 у колоні Сенату."
        assert d.problems == []
    finally:
        d.close()


def test_fame_past_30_tells_the_table_to_turn_the_marker_over():  # G-5
    """«Если ваш маркер славы должен продвигаться дальше, а вы уже дошли до конца шкалы, переверните
    маркер вверх стороной «+30», затем поместите его снова на ячейку 1»: the screens show the total
    (34), the board space 4 on the «+30» side; the notice said only the milestone passed."""
    ctx = FakeCtx(NEW, "fame Jack +27", lang="ru").open(FameScreen())
    ctx.press("a", "right", "a")                  # Jack +6: 28 -> 34
    assert ctx.view()["fame"]["Jack"] == 34
    assert ctx.notes and "Jack: переверните маркер славы на «+30», ячейка 4." in ctx.notes[-1]
    said = len(ctx.notes)
    ctx.press("a", "a")                           # +1 more: 35, on the same lap: nothing to turn
    assert ctx.view()["fame"]["Jack"] == 35 and len(ctx.notes) == said


def test_a_double_tax_back_under_31_turns_the_marker_back():  # G-4, G-5
    from firmware.screens.glory.round import tax_form
    ctx = FakeCtx(NEW, "fame Jack +31", "event", lang="ru")          # 32: space 2 on the «+30» side
    ctx.open(tax_form(ctx))
    ctx.press("right", "right", "right", "right", "down", "right", "a")   # pop 5: -4 fame
    assert ctx.view()["fame"]["Jack"] == 28
    assert "Jack: переверните маркер славы обратно, ячейка 28." in ctx.notes[-1]


def test_a_supremacy_past_30_tells_the_table_to_turn_the_marker_over():  # G-5, G-7
    ctx = FakeCtx(NEW, "fame Henry +28", "vote Henry", "vote Henry").open(GloryHome()).press("up", "a", "down")
    assert isinstance(ctx.top, SenateScreen)
    ctx.press("a")                                # Henry's third vote on top: +2, 29 -> 31
    assert ctx.view()["fame"]["Henry"] == 31
    assert "Henry: turn the fame marker over to «+30», space 1." in ctx.notes[-1]
