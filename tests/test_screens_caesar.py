"""Caesar! screens: golden screens (pixel-exact) and what the keys send to the console
(docs/protocol/caesar.md): Auto-Crassus's turn step by step with its why (S-9..S-18), your move
(C-3 token, space, orientation), bonuses (C-15, C-18), draws, physical tiles (S-4, S-5), the tile
editor remembered for the next game."""
from __future__ import annotations

import json

import pytest

from firmware.screens.caesar import PlayScreen, StepsScreen, TileEditor
from firmware.screens.base import TextScreen
from tests.screens import app_with, assert_golden, check_case

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

CASES = {
    "caesar_setup": ([], ["a", "a"]),
    "caesar_home": ([NEW], ["a"]),
    "caesar_turn_tile": ([NEW], ["a", "a"]),
    "caesar_turn_play": ([NEW], ["a", "a", "right", "right"]),
    "caesar_why": ([NEW], ["a", "a", "right", "right", "press"]),
    "caesar_your_move": ([NEW, "crassus"], ["a"]),
    "caesar_play_token": ([NEW, "crassus"], ["a", "a"]),
    "caesar_play_space": ([NEW, "crassus"], ["a", "a", "a"]),
    "caesar_play_facing": ([NEW, "crassus"], ["a", "a", "a", "a"]),
    "caesar_board": ([NEW, "crassus"], ["a", "down", "down", "down", "a", "press"]),
    "caesar_board_map": ([NEW, "crassus"], ["a", "down", "down", "down", "a"]),
    "caesar_tiles": ([NEW, "crassus"], ["a"] + ["down"] * 6 + ["a"]),
    "caesar_might": ([NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], ["a", "a"]),
    "caesar_over": ([NEW, CRASSUS_WINS, "crassus"], ["a"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    check_case(CASES, name, state_dir)


def test_crassus_turn_runs_one_turn_and_pages_through_its_steps(state_dir):  # S-5, S-8
    app = app_with([NEW], ["a", "a"], state_dir)
    try:
        assert app.console.session.lines == ["crassus"]
        screen = app.stack[-1]
        assert isinstance(screen, StepsScreen)
        actions = [p["action"] for p in screen.pages]
        assert actions[0] == "tile" and "play" in actions
        for _ in range(actions.index("play")):
            app.handle("right")
        app.handle("press")                                   # the why of the play
        why = app.stack[-1]
        assert isinstance(why, TextScreen) and why.title.startswith("S-1")
        assert app.console.session.lines == ["crassus"]       # reading changes nothing
    finally:
        app.console.close()


def test_your_move_sends_token_space_and_orientation(state_dir):  # C-3
    app = app_with([NEW, "crassus"], ["a", "a", "a", "a", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "play HU-HC shield:5/1 HU"
        assert app.view()["position"]["spaces"]["HU-HC"]["toward"] == {"HU": 5, "HC": 1}
        assert isinstance(app.stack[-1], StepsScreen)
        app.handle("b")                                       # home: the draw is next
        app.handle("a")
        assert app.console.session.lines[-1] == "draw" and app.message and "Take" in " ".join(app.message)
    finally:
        app.console.close()


def test_back_steps_out_of_the_play_choices(state_dir):
    app = app_with([NEW, "crassus"], ["a", "a", "a", "a"], state_dir)
    try:
        screen = app.stack[-1]
        assert isinstance(screen, PlayScreen) and screen.space is not None
        app.handle("b")
        assert screen.space is None and screen.token is not None
        app.handle("b")
        assert screen.token is None and app.stack[-1] is screen
    finally:
        app.console.close()


def test_might_picks_an_opponent_target(state_dir):  # C-15
    app = app_with([NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], ["a", "a", "a"], state_dir)
    try:
        assert app.console.session.lines[-1] == "might SC-IT"
        assert app.view()["position"]["spaces"]["SC-IT"]["face_down"] is True
        assert app.view()["step"] == "draw"
    finally:
        app.console.close()


def test_centurion_taken_instead_of_the_draw(state_dir):  # C-18
    keys = ["a", "a", "down", "a"]                             # Take a centurion -> 2nd: sword 7/0
    app = app_with([NEW, HU_CENTURION, "play HU-MT ship:3/3 HU"], keys, state_dir)
    try:
        line = app.console.session.lines[-1]
        assert line.startswith("centurion ") and line != "centurion skip"
        assert app.view()["turn"] == "crassus"                 # no draw this turn
    finally:
        app.console.close()


def test_physical_tiles_ask_which_tile_was_revealed(state_dir):  # S-4, S-5
    app = app_with(["new caesar-solo difficulty=hard tiles-input=physical seed=2"], ["a", "a", "down", "a"], state_dir)
    try:
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
        assert labels[:2] == ["Crassus's turn", "Draw your tokens"]
        app.handle("down")
        app.handle("a")                                         # pick the first token of your bag
        app.handle("a")
        assert app.console.session.lines == ["draw shield:3/3"]
        app.handle("b")                                         # any key closes the message
        app.handle("up")
        app.handle("a")                                         # Crassus's turn: the tile is turned up
        assert app.console.session.lines[-1] == "reveal"
        tile = app.view()["tiles"]["revealed"]
        draws = 2 if tile == "A" else 1
        for _ in range(draws):
            app.handle("a")                                     # he drew the first tokens listed
        line = app.console.session.lines[-1]
        assert line.startswith("crassus draw=") and len(line.split("=")[1].split(",")) == draws
        assert isinstance(app.stack[-1], StepsScreen)
    finally:
        app.console.close()


def test_tile_editor_is_remembered_for_the_next_game(state_dir):  # S-4
    app = app_with([NEW], ["a"] + ["down"] * 5 + ["a", "down", "a"], state_dir)
    try:
        editor = app.stack[-1]
        assert isinstance(editor, TileEditor) and editor.letter == "B"
        for key in ["down", "down", "right"]:                  # 3rd slot: '-' -> draw1
            app.handle(key)
        app.handle("a")
        assert app.settings["caesar.tiles"].split(";")[1] == "B:draw1+play+draw1"
        assert app.message and "Tile B saved" in " ".join(app.message)
        app.message = None
        app.stack = app.stack[:1]
        for key in ["a", "up", "a", "a"]:                      # continue, New game (last), start
            app.handle(key)
        assert "tiles=A:draw2+play+discard1;B:draw1+play+draw1" in app.console.session.header["line"]
        assert app.view()["tiles"]["definitions"]["B"] == "draw1+play+draw1"
    finally:
        app.console.close()


def test_game_over_shows_the_winner(state_dir):  # C-12
    app = app_with([NEW, CRASSUS_WINS, "crassus"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        first = home.items(app)[0]
        assert first.label == "Winner" and first.value == "Crassus"
    finally:
        app.console.close()


def test_map_lays_out_provinces_from_the_board_data_and_shows_control(state_dir):
    # C-9: control is shown per province; the layout follows caesar_board.json's xy
    from engine.caesar.board import DATA, PROVINCE_INDEX
    from firmware.screens.caesar import MAP_POINTS, MapScreen, nearest
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
    assert_golden(img, "caesar_map")
    app.handle("a")
    assert app.stack[-1].rows[0].startswith("You ")   # the detail opens with both totals
    app.console.close()
