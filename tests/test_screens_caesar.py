"""Caesar! screens: golden screens (pixel-exact, en and the key ones in ru/uk) and what the keys
send to the console (docs/protocol/caesar.md), driven through the App: Auto-Crassus's turn one
screen per play and per closure with its why one press away (S-8..S-18), your move by province
with the closure previewed (C-3, C-7, C-9), bonuses (C-15, C-18), draws, physical tiles and bags
(S-4, S-5), the set-up guide (C-5, S-2, S-3), the duel with pass-the-device, the tile editor."""
from __future__ import annotations

import itertools
import json
import re

import pytest

from firmware.screens.widgets import ConfirmScreen, NumberForm, TextScreen
from firmware.screens.caesar.home import CaesarHome
from firmware.screens.caesar.move import OptionScreen, ProvincePicker
from firmware.screens.caesar.setup import SetupGuide
from firmware.screens.caesar.tiles import TileEditor
from firmware.screens.caesar.turn import TilePicker, TurnScreen
from scripts.presses.harness import CONSOLE_SYNTAX
from tests.screens import app_with, assert_golden, check_case, drawn

NEW = "new caesar-solo seed=3"
HU_MIGHT = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}},
               "SC-IT": {"by": "crassus", "token": "sword:5/1", "toward": {"SC": 5, "IT": 1}}},
    "bonuses": {"HU": "might"}, "crassus_row": ["sword:6/0", "ship:4/2", "wild:2/2"],
    "turn": "human", "human_hand": ["ship:3/3", "wild:2/2"]})
HU_CENTURION = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}}},
    "bonuses": {"HU": "centurion"}, "modules": {"centurions": True}, "crassus_row": ["sword:6/0"],
    "turn": "human", "human_hand": ["ship:3/3", "wild:2/2"]})
CRASSUS_WINS = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "human", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
    "crassus_row": ["ship:6/0", "ship:5/1"], "markers_left": {"human": 12, "crassus": 1}})
# Crassus closes Syria (S-9) next to Asia, which he controls: a border marker (C-10) and a bonus
CRASSUS_CLOSES = "position " + json.dumps({
    "spaces": {"AG-SY": {"by": "human", "token": "sword:3/3", "toward": {"AG": 3, "SY": 3}}},
    "control": {"AS": "crassus"}, "bonuses": {"SY": "senate"},
    "crassus_row": ["shield:6/0"], "turn": "crassus"})

# a fresh device: "a" = Games, "a" = Caesar! (the set-up form); with a session: "a" = Resume
CASES = {
    "caesar_setup": ([], ["a", "a"]),
    "caesar_guide": ([NEW], ["a"] + ["down"] * 6 + ["a"]),                       # Set-up (3rd from the end)
    "caesar_home": ([NEW], ["a"]),
    "caesar_turn_tile": ([NEW], ["a", "a"]),
    "caesar_turn_play": ([NEW], ["a", "a", "a"]),
    "caesar_why": ([NEW], ["a", "a", "a", "right"]),
    "caesar_where": ([NEW, "crassus"], ["a", "a"]),
    "caesar_option": ([NEW, "crassus"], ["a", "a", "a"]),
    "caesar_option_preview": ([NEW, HU_MIGHT], ["a", "a", "a"]),
    "caesar_closure": ([NEW, HU_MIGHT], ["a", "a", "a", "a"]),
    "caesar_crassus_closure": ([NEW, CRASSUS_CLOSES], ["a", "a", "a", "a"]),
    "caesar_might": ([NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], ["a", "a"]),
    "caesar_map": ([NEW, "crassus"], ["a", "down", "down", "a"]),
    "caesar_board": ([NEW, "crassus"], ["a", "down", "down", "a", "press"]),
    "caesar_score": ([NEW, "crassus"], ["a", "down", "a"]),
    "caesar_tiles": ([NEW, "crassus"], ["a"] + ["down"] * 8 + ["a"]),
    "caesar_tile_picker": (["new caesar-solo difficulty=hard tiles-input=physical seed=2"], ["a", "a"]),
    "caesar_over": ([NEW, CRASSUS_WINS, "crassus"], ["a"]),
    "caesar_duel_pass": (["new caesar-duel seed=4"], ["a", "a"]),
    "caesar_turn_play_ru": ([NEW], ["a", "a", "a"]),
    "caesar_why_ru": ([NEW], ["a", "a", "a", "right"]),
    "caesar_option_preview_ru": ([NEW, HU_MIGHT], ["a", "a", "a"]),
    "caesar_turn_play_uk": ([NEW], ["a", "a", "a"]),
    "caesar_why_uk": ([NEW], ["a", "a", "a", "right"]),
    "caesar_closure_uk": ([NEW, HU_MIGHT], ["a", "a", "a", "a"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    lang = name.rsplit("_", 1)[1] if name.endswith(("_ru", "_uk")) else "en"
    lines, keys = CASES[name]
    app = app_with(lines, keys, state_dir, lang=lang)
    try:
        assert app.errors == 0
        assert_golden(app.render(), name)
    finally:
        app.console.close()


def texts(app) -> list[str]:
    """Every text the current frame draws."""
    from firmware.screens import base
    base.TRACE = []
    try:
        app.render()
        return [t for _, _, t, _ in base.TRACE]
    finally:
        base.TRACE = None


def test_crassus_turn_one_screen_per_play_with_why_one_press_away(state_dir):  # S-5, S-8, S-9..S-15
    app = app_with([NEW], ["a", "a"], state_dir)
    try:
        assert app.console.session.lines == ["crassus"]
        screen = app.stack[-1]
        assert isinstance(screen, TurnScreen) and [p["kind"] for p in screen.pages][0] == "tile"
        play = app.console.session.view()["last_crassus_turn"]["steps"]
        placed = next(s for s in play if s["action"] == "play")
        app.handle("a")                                       # the play: token, both provinces
        shown = texts(app)
        a, b = placed["toward"]
        assert placed["token"].split(":")[1] in shown          # the numbers of the token
        assert f"{placed['toward'][placed['province']]}→" in shown
        assert {"Italia", "Sicilia", "Sardinia", "Achaea", "Creta"} & set(shown) or len(shown) > 3
        app.handle("right")                                   # one press: the why
        why = app.stack[-1]
        assert isinstance(why, TextScreen) and why.title == "Why: Centre" and placed["rule"] not in why.title
        body = " ".join(why.rows).replace(" ", "")
        assert body.startswith(str(placed["why"]).replace(" ", ""))
        assert str(placed["why"]).startswith("6th point of the priority list (centre): ")   # the rulebook's point
        assert app.console.session.lines == ["crassus"]       # reading changes nothing
    finally:
        app.console.close()


def test_crassus_turn_is_acknowledged_in_three_presses_when_nothing_closes(state_dir):
    app = app_with([NEW], ["a", "a"], state_dir)                # home → his turn (1 press)
    try:
        presses = 1
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
            presses += 1
        steps = app.console.session.view()["last_crassus_turn"]["steps"]
        assert not any(s["action"] == "close" for s in steps)
        assert presses <= 3
        assert isinstance(app.stack[-1], ProvincePicker)        # your move opens by itself
    finally:
        app.console.close()


def test_crassus_closure_lists_markers_border_markers_and_bonus(state_dir):  # C-9, C-10, C-16
    app = app_with([NEW, CRASSUS_CLOSES], ["a", "a"], state_dir)
    try:
        screen = app.stack[-1]
        kinds = [p["kind"] for p in screen.pages]
        assert "close" in kinds
        while screen.pages[screen.page]["kind"] != "close":
            app.handle("a")
        rows = screen._rows(screen.pages[screen.page], app.view())
        joined = " ".join(rows)
        assert "Crassus: 1 marker → Syria" in joined          # C-9: the province slot
        assert "+1 marker on the border Asia–Syria" in joined   # C-10: he controls Asia next door
        assert "Senate token no. 1 for Crassus" in joined        # C-16: the bonus and what it does
    finally:
        app.console.close()


def test_your_move_by_province_sends_token_space_and_orientation(state_dir):  # C-3
    app = app_with([NEW, "crassus"], ["a", "a"], state_dir)
    try:
        picker = app.stack[-1]
        assert isinstance(picker, ProvincePicker)
        codes = picker.codes(app)
        app.handle("a")                                        # the first province: closest to closing
        options = app.stack[-1]
        assert isinstance(options, OptionScreen) and options.code == codes[0]
        first = options.options(app)[0]
        assert first.here == max(o.here for o in options.options(app))   # highest toward it first
        app.handle("a")
        icon = first.token.split(":")[0]
        assert app.console.session.lines[1:] == [f"play {first.space} {icon}:{first.here}/{first.there} {codes[0]}",
                                                 "draw", "crassus"]   # your draw, then his turn at once
        assert app.view()["position"]["spaces"][first.space]["toward"][codes[0]] == first.here
        assert app.message and "from your bag" in " ".join(app.message)   # the digital draw, said
        assert isinstance(app.stack[-1], TurnScreen)
    finally:
        app.console.close()


def test_the_province_cursor_is_remembered_between_moves(state_dir):
    app = app_with([NEW, "crassus"], ["a", "a", "down", "down"], state_dir)
    try:
        picker = app.stack[-1]
        chosen = picker.codes(app)[picker.cursor]
        app.handle("a")
        app.handle("a")                                        # placed; Crassus's turn follows
        while app.message is not None or isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
        picker = app.stack[-1]
        assert isinstance(picker, ProvincePicker)
        codes = picker.codes(app)
        app.render()
        if chosen in codes:
            assert codes[picker.cursor] == chosen
    finally:
        app.console.close()


def test_the_closure_is_previewed_before_you_place(state_dir):  # C-7, C-9
    app = app_with([NEW, HU_MIGHT], ["a", "a", "a"], state_dir)
    try:
        screen = app.stack[-1]
        assert isinstance(screen, OptionScreen) and screen.code == "HU"
        rows = screen.preview(app.view(), screen.options(app)[0])
        assert " ".join(rows) == "Closes Hispania Ulterior: You 9–0"
        assert not any(x.startswith("play") for x in app.console.session.lines)   # nothing placed yet
    finally:
        app.console.close()


def test_back_steps_out_of_the_choices(state_dir):
    app = app_with([NEW, "crassus"], ["a", "a", "a"], state_dir)
    try:
        assert isinstance(app.stack[-1], OptionScreen)
        app.handle("left")
        assert isinstance(app.stack[-1], ProvincePicker)
        app.handle("b")
        assert isinstance(app.stack[-1], CaesarHome)
    finally:
        app.console.close()


def test_might_picks_an_opponent_target_named_by_provinces(state_dir):  # C-15
    app = app_with([NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], ["a", "a"], state_dir)
    try:
        shown = texts(app)
        assert any("Sicilia–Italia" in t for t in shown)
        assert not any(CONSOLE_SYNTAX.search(t) or "SC-IT" in t for t in shown)
        app.handle("a")
        assert "might SC-IT" in app.console.session.lines
        assert app.view()["position"]["spaces"]["SC-IT"]["face_down"] is True
        assert app.console.session.lines[-3:] == ["might SC-IT", "draw", "crassus"]   # then his turn
    finally:
        app.console.close()


def test_centurion_taken_instead_of_the_draw(state_dir):  # C-18
    keys = ["a", "a", "down", "a"]                             # Take a centurion -> 2nd: sword 7/0
    app = app_with([NEW, HU_CENTURION, "play HU-MT ship:3/3 HU"], keys, state_dir)
    try:
        line = next(x for x in app.console.session.lines if x.startswith("centurion"))
        assert line != "centurion skip"
        assert "draw" not in app.console.session.lines          # no draw this turn
    finally:
        app.console.close()


def test_physical_tiles_one_tile_per_screen(state_dir):  # S-4, S-5
    app = app_with(["new caesar-solo difficulty=hard tiles-input=physical seed=2"], ["a", "a"], state_dir)
    try:
        picker = app.stack[-1]
        assert isinstance(picker, TilePicker) and picker.letters == ["A", "C"]
        shown = texts(app)
        assert "draw 2" in shown and "play" in shown             # the actions, not over the letter
        app.handle("down")
        app.handle("a")
        assert app.console.session.lines == ["crassus tile=C"]   # hard: A and C; the 2nd is C
        assert app.view()["tiles"]["stack_left"] == "AAAAC"
    finally:
        app.console.close()


def test_physical_bags_ask_what_was_drawn(state_dir):
    new = "new caesar-solo difficulty=easy bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 seed=2"
    app = app_with([new], ["a"], state_dir)
    try:
        home = app.stack[-1]
        labels = [i.label for i in home.items(app)]
        assert labels[:2] == ["Crassus's turn", "Draw tokens"]
        app.handle("down")
        app.handle("a")                                         # pick the first token of your bag
        app.handle("a")
        assert app.console.session.lines == ["draw shield:3/3"]
        app.handle("b")                                         # any key closes the message
        app.handle("up")
        app.handle("a")                                         # Crassus's turn: the tile is turned up
        assert app.console.session.lines[-1] == "reveal-tile"
        tile = app.view()["tiles"]["revealed"]
        draws = 2 if tile == "A" else 1
        for _ in range(draws):
            app.handle("a")                                     # he drew the first tokens listed
        line = app.console.session.lines[-1]
        assert line.startswith("crassus draw=") and len(line.split("=")[1].split(",")) == draws
        assert isinstance(app.stack[-1], TurnScreen)
    finally:
        app.console.close()


def test_setup_has_an_explicit_start_and_guides_the_physical_board(state_dir):  # C-5, S-2, S-3
    app = app_with([], ["a", "a"], state_dir)
    try:
        shown = texts(app)
        for _ in range(20):
            app.handle("down")                                  # the last row: Start (the cursor stops there)
        assert "▶ Start" in texts(app) and "▶ Start" not in shown[:3]
        app.handle("a")
        guide = app.stack[-1]
        assert isinstance(guide, SetupGuide)
        view = app.view()
        titles = [p[0] for p in guide.pages(view)]
        assert titles == ["Bonus tokens", "Crassus's row", "Command tiles", "Your tokens"]
        bonus_rows = " ".join(guide.pages(view)[0][1])
        assert all(name in bonus_rows for name in ("Italia", "Syria", "Hispania Ulterior"))
        assert "3×A 2×B 1×C" in " ".join(guide.pages(view)[2][1])          # S-3 normal deck
        app.handle("a")                                         # the fair-draw code box closes, nothing else
        for _ in titles:
            app.handle("a")
        assert isinstance(app.stack[-1], TurnScreen)            # Auto-Crassus takes the first turn
        assert app.console.session.lines == ["crassus"]
    finally:
        app.console.close()


def test_new_game_over_an_unfinished_one_asks_and_leaves_no_stale_home(state_dir):
    app = app_with([NEW, "crassus"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert isinstance(home, CaesarHome)
        idents = [i.ident for i in home.items(app)]
        for _ in range(idents.index("new")):
            app.handle("down")
        app.handle("a")
        app.render()                                            # the form shows the fair-draw code
        assert app.commitment is not None
        app.handle("a")                                         # the code box closes, nothing else
        assert app.commitment is None and isinstance(app.stack[-1], NumberForm)
        app.handle("a")                                         # Start (A on any row of the form)
        assert isinstance(app.stack[-1], ConfirmScreen)         # the game is not over: ask
        app.handle("a")
        assert isinstance(app.stack[-1], SetupGuide)
        assert app.commitment is None                           # its code was shown with the form
        for _ in range(4):
            app.handle("a")
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("b")
        assert sum(isinstance(s, CaesarHome) for s in app.stack) == 1
        app.handle("b")
        app.render()
        assert not any(isinstance(s, CaesarHome) for s in app.stack)   # back lands on the menu
    finally:
        app.console.close()


def test_duel_passes_the_device_and_keeps_hands_private(state_dir):
    app = app_with(["new caesar-duel seed=4"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert isinstance(home, CaesarHome) and "duel" in texts(app)       # not "solo"
        assert home.items(app)[0].label == "Caesar moves"
        assert not any(":" in t and "/" in t for t in texts(app))          # no hand on the home screen
        app.handle("a")
        assert isinstance(app.stack[-1], ConfirmScreen) and "Caesar" in " ".join(app.stack[-1].rows)
        app.handle("a")                                         # "I am Caesar"
        assert isinstance(app.stack[-1], ProvincePicker)
        app.handle("a")
        app.handle("a")
        assert app.console.session.lines[0].startswith("play ") and app.console.session.lines[1] == "draw"
        assert app.message                                       # what Caesar takes from his bag
        app.handle("a")
        assert isinstance(app.stack[-1], ConfirmScreen) and "Pompey" in " ".join(app.stack[-1].rows)
    finally:
        app.console.close()


def test_tile_editor_is_remembered_for_the_next_game(state_dir):  # S-4
    app = app_with([NEW], ["a"], state_dir)
    try:
        home = app.stack[-1]
        idents = [i.ident for i in home.items(app)]
        for _ in range(idents.index("tiles")):
            app.handle("down")
        app.handle("a")
        app.handle("down")
        app.handle("a")                                         # tile B
        editor = app.stack[-1]
        assert isinstance(editor, TileEditor) and editor.letter == "B"
        for key in ["down", "down", "right"]:                  # 3rd slot: '-' -> draw1
            app.handle(key)
        app.handle("a")
        assert app.settings["caesar.tiles"].split(";")[1] == "B:draw1+play+draw1"
        assert app.message and "Tile B saved" in " ".join(app.message)
        app.message = None
        app.stack = app.stack[:2]
        new_game = [i.ident for i in app.stack[-1].items(app)].index("new")
        for _ in range(new_game - app.stack[-1].cursor):
            app.handle("down")
        app.handle("a")
        app.render()
        app.handle("b")                                         # the form's fair-draw code box closes
        app.handle("up")
        app.handle("a")                                         # Start; the old game is not over: confirm
        app.handle("a")
        assert "tiles=A:draw2+play+discard1;B:draw1+play+draw1" in app.console.session.header["line"]
        assert app.view()["tiles"]["definitions"]["B"] == "draw1+play+draw1"
    finally:
        app.console.close()


def test_game_over_shows_the_winner(state_dir):  # C-12
    app = app_with([NEW, CRASSUS_WINS, "crassus"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        first = home.items(app)[0]
        assert first.label == "Game over" and first.value == "Crassus"
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,words", [("ru", ("Почему", "Центр", "Италия", "пункт списка «Приоритет размещения»")),
                                        ("uk", ("Чому", "Центр", "Італія", "дія списку «Вибір розміщення»"))])
def test_why_and_turn_in_the_rulebook_language(state_dir, lang, words):
    app = app_with([NEW], ["a", "a", "a"], state_dir, lang=lang)
    try:
        shown = " ".join(texts(app))
        assert words[2] in shown or words[1] in shown
        app.handle("right")
        why = app.stack[-1]
        assert isinstance(why, TextScreen)
        body = " ".join(why.rows)
        assert words[3] in body and not any(w in body for w in ("takes his", "closest", "central and"))
    finally:
        app.console.close()


def test_map_lays_out_provinces_from_the_board_data_and_shows_control(state_dir):
    # C-9: control is shown per province; the layout follows caesar_board.json's xy
    from engine.caesar.board import DATA, PROVINCE_INDEX
    from firmware.screens.caesar.board import MapScreen, nearest
    from firmware.screens.caesar.mapface import MAP_POINTS
    xy = {p["code"]: p["xy"] for p in DATA["provinces"]}
    pt = {code: MAP_POINTS[i] for code, i in PROVINCE_INDEX.items()}
    assert (pt["HU"][0] < pt["IT"][0] < pt["SY"][0]) == (xy["HU"][0] < xy["IT"][0] < xy["SY"][0])
    assert (pt["GC"][1] < pt["AF"][1]) == (xy["GC"][1] < xy["AF"][1])
    assert all(0 <= x < 128 and 10 < y < 64 for x, y in MAP_POINTS)
    assert nearest(PROVINCE_INDEX["IT"], "down") == PROVINCE_INDEX["SC"]
    pos = '{"control": {"AC": "human", "SY": "crassus", "SD": "none"}}'
    app = app_with(["new caesar-solo side=caesar difficulty=normal seed=5", f"position {pos}"], ["a"], state_dir)
    screen = MapScreen()
    app.push(screen)
    img = app.render()

    def px(code):
        x, y = pt[code]
        return bool(img.getpixel((x, y))), bool(img.getpixel((x + 2, y)))
    assert px("AC") == (True, True)      # filled: yours
    assert px("SY") == (True, False)     # crossed: his (centre lit, off the diagonals dark)
    assert px("SD") == (True, True)      # tie: a bar through the middle
    assert px("GA") == (False, False)    # open: hollow
    assert_golden(img, "caesar_map_control")
    app.handle("a")
    assert app.stack[-1].rows[0].startswith("You ")   # the detail opens with both totals
    app.console.close()


check_case = check_case   # kept for other screen test files' symmetry


def test_duel_hand_is_shown_only_after_passing_the_device(state_dir):
    app = app_with(["new caesar-duel seed=4"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        idents = [i.ident for i in home.items(app)]
        for _ in range(idents.index("hand")):
            app.handle("down")
        app.handle("a")
        assert isinstance(app.stack[-1], ConfirmScreen)          # nothing private yet
        app.handle("a")
        hand = app.console.request("hand caesar")["hand"]
        shown = " ".join(app.stack[-1].rows)
        assert all(f"{t.split(':')[1]}" in shown for t in hand) and app.stack[-1].title == "Hand: Caesar"
        assert app.console.session.lines == []                   # reading a hand is not a step
    finally:
        app.console.close()


def test_undo_of_his_turn_does_not_leave_its_pages_showing(state_dir):
    app = app_with([NEW], ["a", "a"], state_dir)               # his turn, first page
    try:
        assert isinstance(app.stack[-1], TurnScreen)
        app.handle("b:hold")                                   # long B: undo, confirmed with A
        app.handle("a")
        assert app.console.session.lines == []
        if app.message is not None:
            app.message = None
        elif isinstance(app.stack[-1], TextScreen):            # a long "Undone: ..." note
            app.handle("a")
        assert "Taken back" in texts(app)                      # not his undone play
        app.handle("a")
        assert isinstance(app.stack[-1], CaesarHome)
        assert app.stack[-1].items(app)[0].label == "Crassus's turn"
    finally:
        app.console.close()


def test_your_move_can_be_chosen_on_the_map(state_dir):
    from firmware.screens.caesar.board import MapScreen
    app = app_with([NEW, "crassus"], ["a", "a"] + ["down"] * 20 + ["a"], state_dir)     # the last entry: On the map…
    try:
        screen = app.stack[-1]
        assert isinstance(screen, MapScreen) and "A: here" in texts(app)
        picker = app.stack[-2]
        codes = picker.codes(app)
        from engine.caesar.board import PROVINCES
        assert PROVINCES[screen.cursor] == codes[0]
        app.handle("a")                                        # that province's options
        assert isinstance(app.stack[-1], OptionScreen) and app.stack[-1].code == codes[0]
        assert app.console.session.lines == ["crassus"]
    finally:
        app.console.close()


RULE_ID = re.compile(r"\b[CS]-\d+\b")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_crassus_step_titles_are_words_not_rule_ids(state_dir, lang):  # S-9..S-15, S-19; issue 9 item 9
    from firmware.screens import base
    from firmware.screens.caesar.words import step_title, why_screen
    app = app_with([NEW], ["a", "a", "a"], state_dir, lang=lang)       # his turn: the play page
    try:
        title = texts(app)[0]
        placed = next(s for s in app.console.session.view()["last_crassus_turn"]["steps"] if s["action"] == "play")
        assert not RULE_ID.search(title) and title == step_title(placed["step"], base.COLS - 4)
        app.handle("right")
        why = app.stack[-1]
        assert not RULE_ID.search(why.title) and RULE_ID.search(" ".join(why.rows))
        for step in ("capture", "close", "defend", "reinforce", "expand", "center", "anywhere", None):
            for room in (base.COLS - 4, base.COLS - 6):              # "2/5", "10/12" beside the title
                t = step_title(step, room)
                assert len(t) <= room and not t.endswith("…") and not RULE_ID.search(t)
            w = why_screen({"step": step, "rule": "S-19" if step is None else "S-14", "why": "x " * 60})
            status = f"1/{len(w.rows)}"                               # what the title bar shows beside it
            assert len(w.title) + len(status) + 1 <= base.COLS and not RULE_ID.search(w.title)
            assert "S-1" in w.rows[-1]
    finally:
        app.console.close()


# -- no row is ever cut (issue 9 item 9): long province and space names in every language --------
MIGHT_LONG = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "crassus", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}},
               "MT-NU": {"by": "crassus", "token": "sword:3/3", "toward": {"MT": 3, "NU": 3}},
               "GA-GC": {"by": "crassus", "token": "sword:5/1", "toward": {"GA": 5, "GC": 1}},
               "CY-AG": {"by": "crassus", "token": "sword:4/2", "toward": {"CY": 2, "AG": 4}},
               "HU-MT": {"by": "human", "token": "ship:6/0", "toward": {"HU": 6, "MT": 0}}},
    "control": {"GC": "crassus", "HC": "crassus", "MD": "crassus"}, "bonuses": {"SD": "might"},
    "crassus_row": ["sword:6/0", "ship:4/2", "wild:2/2"], "turn": "human",
    "human_hand": ["ship:3/3", "sword:5/1"]})
INTENDED = ("Crassus would…", "Красс сходил бы…", "Красс зробив би…", "On the map…", "На карте…", "На мапі…")


def cut_rows(app) -> list[str]:
    """Texts of the current frame that are cut: ending in '…' (menu items that open something
    aside) or wider than the panel."""
    from firmware.screens import base
    return [f"{type(app.stack[-1]).__name__}: {t!r}" for x, _y, t, kind in drawn(app)
            if (t.rstrip().endswith("…") and t.strip() not in INTENDED) or x + len(t) * base.advance(kind) > base.W + 1]


def walk(app, keys) -> list[str]:
    out = cut_rows(app)
    for key in keys:
        app.handle(key)
        out += cut_rows(app)
    return out


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_no_caesar_row_is_cut(state_dir, lang):
    from engine.caesar.board import PROVINCES
    from firmware.screens.caesar.board import BoardScreen
    from firmware.screens.caesar.setup import setup_form
    cut: list[str] = []
    app = app_with([NEW, MIGHT_LONG], ["a"], state_dir, lang=lang)       # the home screen
    try:
        cut += cut_rows(app)
        form = setup_form()                                   # every row, every value, the cursor on it
        app.push(form)
        for _ in range(len(form.fields)):
            cut += walk(app, ["right"] * 3 + ["down"])
        app.pop()
        board = BoardScreen()                                 # the 18 provinces with their status
        app.push(board)
        cut += walk(app, ["down"] * len(PROVINCES))
        app.pop()
        cut += walk(app, ["a"])                               # your move: every province, every option
        picker = app.stack[-1]
        assert isinstance(picker, ProvincePicker)
        for _ in picker.codes(app):
            cut += walk(app, ["a"])
            assert isinstance(app.stack[-1], OptionScreen)
            cut += walk(app, ["down"] * 8 + ["b", "down"])
        app.handle("b")
        from firmware.screens.caesar.flow import open_bonus as _open_bonus
        from firmware.screens.caesar.pickers import ChoiceScreen
        _open_bonus(app, "might")                             # Might: his tokens and markers by name
        might = app.stack[-1]
        assert isinstance(might, ChoiceScreen) and len(might.choices) == 8
        from firmware.screens.widgets import item_rows
        assert max(len(item_rows(i)) for i in might.items(app)) <= 2    # a space and its numbers: 2 rows at most
        shown = walk(app, ["down"] * 9)
        cut += shown
    finally:
        app.console.close()
    assert not cut, "\n".join(sorted(set(cut)))


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_map_names_the_cursor_province_in_full_and_labels_every_province(state_dir, lang):
    # issue 9 item 2: every province identifiable on the map
    from engine.caesar.board import PROVINCES
    from firmware.screens import base
    from firmware.screens.caesar.board import MapScreen
    from firmware.screens.caesar.mapface import MAP_POINTS, STATUS_BOX, label_places, map_labels, micro_width
    from firmware.screens.caesar.maplabels import gap as _gap
    from firmware.screens.caesar.words import pn
    app = app_with([NEW, MIGHT_LONG], ["a"], state_dir, lang=lang)
    try:
        screen = MapScreen()
        app.push(screen)
        labels = map_labels()
        assert len(set(labels)) == len(PROVINCES) and all(2 <= len(w) <= 3 for w in labels)
        assert all(("А" <= w[0] <= "я" or w[0] in "ІЄ") == (lang != "en") for w in labels)    # their language
        for i, code in enumerate(PROVINCES):
            screen.cursor = i
            frame = drawn(app)
            assert frame[0][2] == pn(code)                                    # the title: the full name
            corner = [t for x, y, t, k in frame if k == "body" and y > base.H - base.LINE - 2]
            assert len(corner) == 1 and len(corner[0]) * base.CHAR_W <= STATUS_BOX[2]   # totals or holder
            img = app.render()
            placed = [(t, xy) for t, xy in zip(labels, label_places(tuple(labels))) if xy is not None]
            assert len(placed) == len(PROVINCES)                               # every province labelled
            boxes = [(x, y, x + micro_width(t) - 1, y + 4) for t, (x, y) in placed]
            for a, b in itertools.combinations(boxes, 2):                      # never touching: no "AFAC"
                assert a[2] + 3 <= b[0] or b[2] + 3 <= a[0] or a[3] + 2 <= b[1] or b[3] + 2 <= a[1], (a, b)
            for j, box in enumerate(boxes):                                   # nearest its own mark
                own = _gap(box, *MAP_POINTS[j])
                assert own <= 6 and all(_gap(box, *p) >= own + 1 for m, p in enumerate(MAP_POINTS) if m != j)
            for t, (x, y) in placed:
                box = (x, y, x + micro_width(t) - 1, y + 4)
                assert any(img.getpixel((bx, by)) != (i == labels.index(t))     # drawn (the cursor's inverted)
                           for bx in range(box[0], box[2] + 1) for by in range(box[1], box[3] + 1))
                for px, py in MAP_POINTS:                                     # never over a mark
                    assert box[2] < px - 5 or box[0] > px + 5 or box[3] < py - 5 or box[1] > py + 5
        assert cut_rows(app) == []
        screen.pick = lambda c, code: None                                   # choosing your move
        for i in range(len(PROVINCES)):
            screen.cursor = i
            shown = texts(app)
            assert {"A: here", "A: сюда", "A: сюди"} & set(shown) and cut_rows(app) == []
    finally:
        app.console.close()
