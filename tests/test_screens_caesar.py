"""Caesar! screens: golden screens (pixel-exact, en and the key ones in ru/uk) and what the keys
send to the console (docs/protocol/caesar.md), driven through the App: Auto-Crassus's turn one
screen per play and per closure with its why one press away (S-8..S-18), your move by province
with the closure previewed (C-3, C-7, C-9), bonuses (C-15, C-18), draws, physical tiles and bags
(S-4, S-5), the set-up guide (C-5, S-2, S-3), the duel with pass-the-device, the tile editor."""
from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest

from firmware.screens import base
from firmware.screens.widgets import ConfirmScreen, NumberForm, TextScreen
from firmware.screens.caesar.home import CaesarHome
from engine.caesar.board import PROVINCES
from engine.caesar.tokens import TOKENS
from firmware.screens.caesar.move import OptionScreen, PlayMap, ProvincePicker
from firmware.screens.caesar.pickers import TokenPicker
from firmware.screens.caesar.setup import SetupGuide
from firmware.screens.caesar.tiles import TileEditor
from firmware.screens.caesar.pickers import TilePicker
from firmware.screens.caesar.turn import TurnScreen
from scripts.presses.harness import CONSOLE_SYNTAX
# the positions the screenshots show too: C-7 two closed at once, C-15 Might, C-18 a centurion, S-9 his closure
from scripts.shots_caesar import (CRASSUS_CLOSES, CRASSUS_WINS, DOUBLE, HU_CENTURION, HU_MIGHT, MIXED_MIGHT, NEW,
                                  NEW_ALL, PHYSICAL, SIX_TILES)
from tests.fakectx import FakeCtx
from tests.screens import app_with as _app_with, assert_golden, check_case, drawn, killed_after_presses, say_yes, YES


READ = "READ"   # not a console line: the turns played so far were read on the device (caesar.read)


def app_with(lines: list[str], keys: list[str], state_dir, lang: str = "en"):
    """tests.screens.app_with, where ``READ`` among the lines marks the turn then current as read
    (as if its pages had been shown): opening the game then shows its home, not the turn."""
    from firmware.console import Console
    from firmware.store import Store
    if READ not in lines:
        return _app_with(lines, keys, state_dir, lang)
    console = Console(Store(state_dir), None)
    console.request(f"settings language={lang}")
    for line in lines:
        if line == READ:
            st = console.request("state")["state"]
            _mark_read(console, [r for r in (st.get("last_crassus_turn"), st.get("last_player_turn")) if r and r["current"]])
        else:
            assert console.request(line)["ok"], line
    console.close()
    return _app_with([], keys, state_dir, lang)


def _mark_read(console, records) -> None:
    """The turns ``records`` of the running game read to their end (``caesar.read``, under its game)."""
    from firmware.screens.caesar.reading import game_name
    game = game_name(console.request("state")["state"]["commitment"], console.fair_draw().game)
    value = ",".join(f"{game}/{record['read_id']}:99" for record in records)
    assert console.request(f"settings caesar.read={value}")["ok"]



# a fresh device: "a" = Games, "a" = Caesar! (the set-up form); with a session: "a" = Resume
CASES = {
    "caesar_setup": ([], ["a", "a"]),
    "caesar_guide": ([NEW], ["a"] + ["down"] * 6 + ["a"]),                       # Set-up (3rd from the end)
    "caesar_home": ([NEW], ["a"]),
    "caesar_turn_tile": ([NEW], ["a", "a"]),
    "caesar_turn_play": ([NEW], ["a", "a", "a"]),
    "caesar_why": ([NEW], ["a", "a", "a", "right"]),
    "caesar_where": ([NEW, "crassus", READ], ["a", "a"]),                          # your move: the map
    "caesar_where_list": ([NEW, "crassus", READ], ["a", "a", "press"]),            # ... as a list
    "caesar_option": ([NEW, "crassus", READ], ["a", "a", "a"]),
    "caesar_double_closure": ([NEW, DOUBLE], ["a", "a", "a"]),                     # Italia and Cisalpina
    "caesar_double_read": ([NEW, DOUBLE], ["a", "a", "a", "a"]),                   # all it does, then A
    "caesar_draw_page": ([NEW, "crassus", READ], ["a", "a", "a", "a"]),            # what to take from the bag
    "caesar_guide_centurions": ([NEW_ALL], ["a"] + ["down"] * 6 + ["a"] + ["right"] * 3),   # right: the next page at once
    "caesar_setup_duel": ([], ["a", "a", "right"]),                         # (right: the code box goes too)
    "caesar_option_preview": ([NEW, HU_MIGHT], ["a", "a", "press", "a"]),     # the list: Hispania Ulterior first
    "caesar_closure": ([NEW, HU_MIGHT], ["a", "a", "press", "a", "a"]),
    "caesar_crassus_closure": ([NEW, CRASSUS_CLOSES], ["a", "a", "a", "a"]),
    "caesar_might": ([NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], ["a", "right"]),
    "caesar_map": ([NEW, "crassus", READ], ["a", "down", "down", "a"]),
    "caesar_board": ([NEW, "crassus", READ], ["a", "down", "down", "a", "press"]),
    "caesar_score": ([NEW, "crassus", READ], ["a", "down", "a"]),
    "caesar_tiles": ([NEW, "crassus", READ], ["a"] + ["down"] * 8 + ["a"]),
    "caesar_tile_picker": (["new caesar-solo difficulty=hard tiles-input=physical seed=2"], ["a", "a"]),
    "caesar_over": ([NEW, CRASSUS_WINS, "crassus", READ], ["a"]),
    "caesar_duel_pass": (["new caesar-duel seed=4"], ["a", "a"]),
    "caesar_turn_play_ru": ([NEW], ["a", "a", "a"]),
    "caesar_why_ru": ([NEW], ["a", "a", "a", "right"]),
    "caesar_option_preview_ru": ([NEW, HU_MIGHT], ["a", "a", "press", "a"]),
    "caesar_turn_play_uk": ([NEW], ["a", "a", "a"]),
    "caesar_why_uk": ([NEW], ["a", "a", "a", "right"]),
    "caesar_closure_uk": ([NEW, HU_MIGHT], ["a", "a", "press", "a", "a"]),
    # the box's bag: his draw on the token grid (his row's tokens and yours drawn: dots, C-3)
    "caesar_token_grid": ([PHYSICAL], ["a", "down", "a", "a", "a", "a"]),
    # the box's tiles: his sixth tile played, the Ukrainian rule for his new stack (S-5)
    "caesar_new_stack_uk": (["new caesar-solo tiles-input=physical edition=uk seed=3", *SIX_TILES, READ], ["a"] * 10),
    # C-15: the flips that change nothing after the others, marked (the closure read first)
    "caesar_might_useless_uk": ([NEW, MIXED_MIGHT, "play HU-MT ship:3/3 HU", READ],
                                ["a"] + ["down"] * 4),      # (resumed on the Might's choice: no home row to press)
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


def take(app, name: str) -> int:
    """Token ``name`` taken on the token picker's grid the shortest way (the joystick, then A):
    the presses it took."""
    from scripts.presses.caesar import token_path
    app.render()
    way = token_path(app.stack[-1], name)
    for key in way:
        app.handle(key)
    app.handle("a")
    return len(way) + 1


def game(app) -> str:
    """The running game's name in the ``caesar.read`` setting: its commitment's first 16 digits, or
    (a game started with ``seed=``, none) its session's id."""
    fair = app.fair_draw()
    assert fair is not None and fair.session
    return fair.commitment[:16] if fair.commitment else fair.session


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
        assert isinstance(app.stack[-1], PlayMap)               # your move opens by itself
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
        assert "Crassus: 1 marker" in joined                   # C-9: the province slot (the title's)
        assert screen._close_title(screen.pages[screen.page]) == "Syria closed"
        assert "+1 marker on the border Asia–Syria" in joined   # C-10: he controls Asia next door
        assert "Senate token no. 1 for Crassus" in joined        # C-16: the bonus and what it does
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_duel_draw_of_two_tokens_says_a_whole_sentence_for_each(lang):  # C-6, C-14
    """Wealth (C-14) in a duel: the device draws one token at once and one at the end of the turn
    (C-6), both on the page of that player's draw; each is said in its own whole sentence, as a
    solo draw page says them («Take ship 6/0, shield 4/2 from your bag and put it behind your
    screen.» put two tokens in a sentence made for one)."""
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.turn import drawn_page
    from firmware.screens.caesar.words import tok
    FakeCtx(NEW, lang=lang)                                   # the language said
    drawn = ["ship:6/0", "shield:4/2"]
    page = drawn_page(drawn, 1)
    one = _("Take {} from your bag and put it behind your screen.")
    assert page["tokens"] == drawn
    assert page["texts"] == [one.format(tok(t)) for t in drawn]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("setup, keys, code", [
    ([NEW, CRASSUS_CLOSES], ["a", "a"], "SY"),                          # his closure (Syria)
    ([NEW, HU_MIGHT], ["a", "a", "press", "a", "a"], "HU"),            # yours (Hispania Ulterior)
])
def test_a_closure_page_names_its_province_once(state_dir, lang, setup, keys, code):  # C-9
    """A closure's page (read at every closure, on its three rows a screenful a press) says the
    province once, in its title or, when the title cannot hold it, on the first row: the row of
    the control markers placed there (C-9) does not name it again («Закрыто / Далека Іспанія /
    Ви: 1 маркер контролю → Далека Іспанія» took a row, often a press, more)."""
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.words import pn, pn_short, space_name
    app = app_with(setup, keys, state_dir, lang=lang)
    try:
        screen = app.stack[-1]
        assert isinstance(screen, TurnScreen)
        while screen.pages[screen.page]["kind"] != "close":
            app.handle("a")
        page = screen.pages[screen.page]
        assert page["step"]["province"] == code and page["step"]["markers"] == 1
        title, rows = screen._close_title(page), screen._rows(page, app.view())
        name = pn(code)
        body = " ".join(rows).replace("\u00a0", " ")
        for b in page["step"]["border_markers"]:             # a border's name may hold it (Asia–Syria)
            body = body.replace(_("+1 marker on the border {}").format(space_name(b)), "")
        if screen._titled(page):
            assert name in title or pn_short(code) in title, title
            assert name not in body, (title, rows)
        else:
            assert rows[0] == name and body.count(name) == 1, (title, rows)
    finally:
        app.console.close()


def test_your_move_by_province_sends_token_space_and_orientation(state_dir):  # C-3, C-6
    app = app_with([NEW, "crassus", READ], ["a", "a"], state_dir)
    try:
        picker = app.stack[-1]
        assert isinstance(picker, PlayMap)
        app.render()
        code = PROVINCES[picker.cursor]
        app.handle("a")                                        # the province under the map's cursor
        options = app.stack[-1]
        assert isinstance(options, OptionScreen) and options.code == code
        first = options.options(app)[0]
        assert first.here == max(o.here for o in options.options(app))   # highest toward it first
        app.handle("a")
        icon = first.token.split(":")[0]
        assert app.console.session.lines[1:] == [f"play {first.space} {icon}:{first.here}/{first.there} {code}",
                                                 "draw"]       # your draw at once (digital bag)
        assert app.view()["position"]["spaces"][first.space]["toward"][code] == first.here
        page = app.stack[-1]                                    # which token to take from the bag, on a page
        assert isinstance(page, TurnScreen) and page.pages[page.page]["kind"] == "draw"
        drawn = app.view()["last_player_turn"]["steps"][-1]["tokens"][0]
        assert "from your bag" in " ".join(texts(app)) and drawn.split(":")[1] in texts(app)
        app.handle("a")
        assert app.console.session.lines[-1] == "crassus"      # then his turn
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_your_draw_is_read_in_one_press_whatever_the_token(lang):  # C-6
    """The page of your end-of-turn draw (every turn, C-6: which token to take from your bag) is
    read with one A, whatever token it names, in every language: its sentence fits the page's
    three rows (it took two presses in Ukrainian for every token, and in Russian for a wild one)."""
    from engine.caesar.tokens import TOKENS
    from firmware.screens.caesar.turn import drawn_page
    for name in sorted({t.name for t in TOKENS if not t.centurion}):
        screen = TurnScreen([drawn_page([name], 0)])
        ctx = FakeCtx(NEW, lang=lang).open(screen)
        rows = screen._rows(screen.pages[0], ctx.view())
        assert len(rows) <= screen._shown(screen.pages[0]), (name, rows)
        ctx.press("a")
        assert screen not in ctx.stack, (name, rows)
        assert rows[-1].endswith("."), rows                    # the whole sentence, none of it cut


def expected_start(app, last: str) -> str:
    """Where your move's cursor starts: the fewest pushes from your last province plus empty
    spaces left (a dot: one left), your last province on a tie (issue 23 §4)."""
    from firmware.screens.caesar.board import map_distance
    from firmware.screens.caesar.words import influence
    _totals, empty = influence(app.view())
    codes = ProvincePicker().codes(app)
    here = last if last in codes else "IT"
    return min(codes, key=lambda c: (map_distance(PROVINCES.index(here), PROVINCES.index(c)) + empty[c], c != here,
                                     PROVINCES.index(c)))


def test_the_province_cursor_is_remembered_between_moves(state_dir):
    app = app_with([NEW, "crassus", READ], ["a", "a", "down", "right"], state_dir)
    try:
        picker = app.stack[-1]
        assert isinstance(picker, PlayMap)
        chosen = PROVINCES[picker.cursor]
        app.handle("a")
        app.handle("a")                                        # placed; his turn follows
        while app.message is not None or isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
        picker = app.stack[-1]
        assert isinstance(picker, PlayMap)
        app.render()
        assert PROVINCES[picker.cursor] == expected_start(app, chosen)   # near where your last move went
    finally:
        app.console.close()


def test_the_closure_is_previewed_before_you_place(state_dir):  # C-7, C-9
    app = app_with([NEW, HU_MIGHT], ["a", "a", "press", "a"], state_dir)
    try:
        screen = app.stack[-1]
        assert isinstance(screen, OptionScreen) and screen.code == "HU"
        said = screen.preview(app, screen.options(app)[0])     # (the count and its term tied for the wrap: C-9)
        assert [x.replace(base.TIE, " ") for x in said or []] == ["You take it 9–0, 1 marker"]   # (the title names it)
        assert not any(x.startswith("play") for x in app.console.session.lines)   # nothing placed yet
    finally:
        app.console.close()


def test_back_steps_out_of_the_choices(state_dir):
    app = app_with([NEW, "crassus", READ], ["a", "a", "a"], state_dir)
    try:
        assert isinstance(app.stack[-1], OptionScreen)
        app.handle("left")
        assert isinstance(app.stack[-1], PlayMap)
        app.handle("b")
        assert isinstance(app.stack[-1], CaesarHome)
    finally:
        app.console.close()


def test_might_picks_an_opponent_target_named_by_provinces(state_dir):  # C-15
    app = app_with([NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], ["a"], state_dir)
    try:
        assert isinstance(app.stack[-1], TurnScreen)              # the closure not yet read: shown first
        app.handle("a")                                          # A: the rest of the closure page first
        assert isinstance(app.stack[-1], TurnScreen) and "flip, or skip." in texts(app)
        app.handle("a")                                          # then the choice itself (no trip home)
        shown = texts(app)
        assert any("Sicilia–Italia" in t for t in shown)
        assert not any(CONSOLE_SYNTAX.search(t) or "SC-IT" in t for t in shown)
        app.handle("a")
        assert app.view()["position"]["spaces"]["SC-IT"]["face_down"] is True
        # issue 23 §2: the flip and your draw come before his turn starts
        assert app.console.session.lines[-2:] == ["might SC-IT", "draw"]
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and [p["kind"] for p in turn.pages[turn.page:]] == ["bonus", "draw"]
        assert "flipped face down" in " ".join(texts(app))
        app.handle("a")
        assert "from your bag" in " ".join(texts(app)) and app.console.session.lines[-1] == "draw"
        app.handle("a")
        assert app.console.session.lines[-1] == "crassus"        # only now his turn
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, closed, down", [("en", "Closed: Crassus", "face down"),
                                                 ("ru", "Закрыта: Красс", "перевёрнут"),
                                                 ("uk", "Закрито: Красс", "перевернуто")])
def test_a_province_whose_marker_might_flipped_says_so_until_the_might_is_undone(state_dir, lang, closed, down):  # C-15, C-10
    """Might flips Crassus's control marker in Syria face down (it gives no border markers, C-10):
    the province's page says so, as the list of provinces marks it; after an undo of the Might,
    no more."""
    from firmware.screens.caesar.board import province_detail
    position = json.loads(HU_MIGHT.split(" ", 1)[1])
    position["control"] = {"SY": "crassus"}
    app = app_with([NEW, "position " + json.dumps(position), "play HU-MT ship:3/3 HU", "might SY"], [], state_dir,
                   lang=lang)
    try:
        assert app.view()["position"]["flipped_control"] == ["SY"]
        rows = " ".join(province_detail(app.view(), "SY").rows)
        assert closed in rows and down in rows, rows
        assert '"ok":true' in app.serve_line(b"undo")
        rows = " ".join(province_detail(app.view(), "SY").rows)
        assert closed in rows and down not in rows, rows
    finally:
        app.console.close()


def test_centurion_taken_instead_of_the_draw(state_dir):  # C-18
    keys = ["a", "a", "a", "down", "a"]         # the closure, its rest (A), Take a centurion -> 2nd: sword 7/0
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


@pytest.mark.parametrize("bag", ["digital", "physical"])
def test_a_stack_of_one_kind_of_tile_is_not_asked_which_tile(state_dir, bag):   # S-3, S-5
    """The box's tiles, hard (S-3: 4A 2C): once both C are played his stack holds only A, and his
    stack's last tile is known too. «Which tile?» then offered that one letter, a press for
    nothing; now his turn goes on as if it were picked (his tile's page names it; with his bag
    the box's, the question what he drew is titled with it)."""
    from firmware.console import Console
    from firmware.store import Store
    row = " row=sword:6/0,ship:5/1,wild:2/2" if bag == "physical" else ""
    console = Console(Store(state_dir), None)
    assert console.request(f"new caesar-solo difficulty=hard tiles-input=physical crassus-bag={bag}{row} seed=2")["ok"]
    for _ in range(2):
        line = "crassus tile=C"
        if bag == "physical":                             # (C draws 2: two tokens his bag holds)
            bag_now = console.request("state")["state"]["crassus"]["bag_contents"]
            line = "crassus tile=C draw=" + ",".join(bag_now[:2])
        assert console.request(line)["ok"], line
        _your_turn(console)
    st = console.request("state")["state"]
    assert st["tiles"]["stack_left"] == "AAAA"
    _mark_read(console, [st["last_crassus_turn"], st["last_player_turn"]])
    console.close()
    app = app_with([], ["a", "a"], state_dir)             # Resume: Caesar!, Crassus's turn
    try:
        top = app.stack[-1]
        assert not isinstance(top, TilePicker)
        if bag == "digital":
            assert isinstance(top, TurnScreen) and app.console.session.lines[-1] == "crassus tile=A"
        else:
            assert isinstance(top, TokenPicker) and texts(app)[0] == "Tile A: draws 2"
    finally:
        app.console.close()


def _your_turn(console) -> None:
    """Your turn through the console: the first legal placement, every bonus skipped, the draws."""
    for _ in range(20):
        st = console.request("state")["state"]
        if st["turn"] == "crassus" or st["winner"]:
            return
        if st["step"] == "play":
            m = console.request("moves")["moves"][0]
            line = f"play {m['space']} {m['token']} {next(iter(m['toward']))}"
        else:
            line = f"{st['human']['pending'][0]} skip" if st["step"] == "bonus" else "draw"
        assert console.request(line)["ok"], line


NEW_STACK = {   # S-5, as each edition says it (the letters as its tiles print them: ru А Б В)
    ("ru", "en"): "Shuffle all his tiles, tile В too, into a new stack: 3×А, 2×Б, 1×В.",
    ("uk", "en"): "Shuffle all his tiles but tile C into a new stack: 3×A, 2×B.",
    ("ru", "ru"): "Перемешайте в новую стопку все приказы, включая приказ В: 3×А, 2×Б, 1×В.",
    ("uk", "uk"): "Замішайте всі тайли, окрім тайла C, у новий стос: 3×A, 2×B.",
    ("ru", "uk"): "Замішайте всі тайли, включно з тайлом В, у новий стос: 3×А, 2×Б, 1×В.",
}


@pytest.mark.parametrize("edition, lang", sorted(NEW_STACK))
def test_his_stack_of_the_box_run_out_says_which_tiles_make_the_new_one(state_dir, edition, lang):   # S-5
    """With the box's tiles the table makes his new stack when the old one runs out, and which
    tiles go into it depends on the rulebook (S-5: RU all the played tiles, the one just played
    too; UA all but the one just drawn). Nothing said so: the player had to know it, and the tile
    picker then offered letters the table might not hold. Now his turn ends on a page saying it
    in the edition's words, whole, and the picker offers the tiles of that new stack only."""
    from firmware.console import Console
    from firmware.screens.caesar.flow import crassus_turn
    from firmware.store import Store
    console = Console(Store(state_dir), None)
    console.request(f"settings language={lang}")
    assert console.request(f"new caesar-solo tiles-input=physical edition={edition} seed=3")["ok"]
    for tile in "AAABB":                                  # five of his six tiles (normal: 3A 2B 1C)
        assert console.request(f"crassus tile={tile}")["ok"]
        _your_turn(console)
    st = console.request("state")["state"]
    for record in (st["last_crassus_turn"], st["last_player_turn"]):
        assert "new_stack" not in record                  # not before it runs out
    _mark_read(console, [st["last_crassus_turn"], st["last_player_turn"]])
    console.close()
    app = app_with([], ["a", "a"], state_dir, lang)       # Resume: Caesar!, his turn: the last tile (C)
    try:
        turn = app.stack[-1]                              # his stack's last tile is known: not asked
        assert isinstance(turn, TurnScreen) and app.console.session.lines[-1] == "crassus tile=C"
        while turn.pages[turn.page]["kind"] != "stack":
            assert turn.page + 1 < len(turn.pages), [p["kind"] for p in turn.pages]
            app.handle("a")
        assert turn.page == len(turn.pages) - 1           # the last page: after all he did
        rows = turn._rows(turn.pages[turn.page], app.view())
        assert " ".join(rows) == NEW_STACK[edition, lang]          # one whole sentence
        # on one screen, read with one press: «His stack of tiles has run out: shuffle all his played
        # tiles, the one just played too, into a new stack: …» took eight or nine rows in Russian
        # (under the title «New stack», which says it ran out), four or five presses more
        assert len(rows) <= turn._shown(turn.pages[turn.page]), rows
        shown = set()
        for _ in rows:                                    # read to its end (down): nothing cut
            assert cut_rows(app) == []
            shown |= set(texts(app))
            app.handle("down")
        assert set(rows) <= shown and turn.pages[turn.page]["kind"] == "stack"
        new = app.view()["last_crassus_turn"]["new_stack"]
        assert new["tiles"] == {"ru": "AAABBC", "uk": "AAABB"}[edition]
        assert new["aside"] == {"ru": None, "uk": "C"}[edition]
        _your_turn(app.console)
        app.stack[1:] = []
        crassus_turn(app)                                 # his next turn: which tile?
        picker = app.stack[-1]
        assert isinstance(picker, TilePicker) and "".join(picker.letters) == {"ru": "ABC", "uk": "AB"}[edition]
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
        app.handle("a")                                         # A on the token under the cursor:
        app.handle("a")                                         # the likeliest (two wild 2/2 in the bag)
        assert app.console.session.lines[0] == "draw wild:2/2"
        while app.view()["human"]["draws_due"]:                # the next one is asked at once
            assert isinstance(app.stack[-1], TokenPicker)
            app.handle("a")
        assert app.console.session.lines[-1] == "reveal-tile"   # then his turn: the tile is turned up
        tile = app.view()["tiles"]["revealed"]
        app.handle("a")                                         # the tile's actions read
        draws = 2 if tile == "A" else 1
        for _ in range(draws):
            app.handle("a")                                     # he drew the first tokens listed
        line = app.console.session.lines[-1]
        assert line.startswith("crassus draw=") and len(line.split("=")[1].split(",")) == draws
        assert isinstance(app.stack[-1], TurnScreen)
    finally:
        app.console.close()


def _board_filled_but(empty: set[str], hand: list[str], row: list[str]) -> dict[str, Any]:
    """A ``position``: every border space but ``empty`` holds a token (the two sides in turn, a
    token of the space's icon, else a wild one), your hand and his row as given, your turn."""
    from engine.caesar.board import SPACE_A, SPACE_B, SPACE_ICON, SPACES
    pools = {}
    for who, keep in (("human", hand), ("crassus", row)):
        names = [TOKENS[i].name for i in range(16)]
        for name in keep:
            names.remove(name)
        pools[who] = names
    spaces, k = {}, 0
    for s in sorted(range(30), key=lambda s: (SPACE_ICON[s], s)):
        if SPACES[s] in empty:
            continue
        icon = {1: "sword", 2: "shield", 4: "ship"}[SPACE_ICON[s]]
        for who in (("human", "crassus") if k % 2 == 0 else ("crassus", "human")):
            name = next((t for t in pools[who] if t.startswith(icon + ":")), None) or \
                next((t for t in pools[who] if t.startswith("wild")), None)
            if name:
                break
        assert name, SPACES[s]
        pools[who].remove(name)
        k += 1
        hi, lo = (int(v) for v in name.split(":")[1].split("/"))
        spaces[SPACES[s]] = {"by": who, "token": name,
                             "toward": {PROVINCES[SPACE_A[s]]: hi, PROVINCES[SPACE_B[s]]: lo}}
    return {"spaces": spaces, "human_hand": hand, "crassus_row": row, "turn": "human", "bonuses": {}}


def test_every_province_you_can_play_toward_is_within_the_joystick_s_reach(state_dir):   # C-3
    """Your move on the map: the joystick goes only among the provinces where a token of yours
    fits. With the last empty spaces Mauretania–Numidia, Sardinia–Sicilia, Gallia–Gallia Cisalpina
    and Asia–Syria (your tokens wild) none of the others had Sardinia nearest any way: no push of
    the joystick ever reached it (the list, press, still did). Every such province is reached now."""
    from engine.caesar.board import PROVINCE_INDEX
    from firmware.screens.caesar.move import no_fit
    empty = {"MT-NU", "SD-SC", "GA-GC", "AS-SY"}
    pos = _board_filled_but(empty, ["wild:4/0", "wild:2/2"], ["ship:3/3", "sword:3/3"])
    app = app_with(["new caesar-solo seed=1", "position " + json.dumps(pos)], ["a", "a"], state_dir)
    try:
        play = app.stack[-1]
        assert isinstance(play, PlayMap)
        codes = ProvincePicker().codes(app)
        assert sorted(codes) == sorted({p for s in empty for p in s.split("-")}) and "SD" in codes
        mine = {PROVINCE_INDEX[c] for c in codes}

        def reach(start: int) -> set[int]:                   # every push from every province reached
            reached, todo = {start}, [start]
            for x in todo:
                for way in ("up", "down", "left", "right"):
                    play.cursor = x
                    app.handle(way)
                    if play.cursor not in reached:
                        reached.add(play.cursor)
                        todo.append(play.cursor)
            return reached
        for start in sorted(mine):                           # (the cursor may have gone from Sardinia)
            assert mine <= reach(start), (PROVINCES[start], sorted(PROVINCES[i] for i in mine - reach(start)))
        reached = reach(PROVINCE_INDEX["MT"])
        play.cursor = next(i for i in reached if PROVINCES[i] not in codes)   # one of the others: A says why
        app.handle("a")
        assert " ".join(app.message) == str(no_fit(app, PROVINCES[play.cursor])) and app.stack[-1] is play
    finally:
        app.console.close()


@pytest.mark.parametrize("tiles", ["digital", "physical"])
def test_his_turn_with_his_box_bag_empty_keeps_the_game_home_under_it(state_dir, tiles):   # S-6
    """His bag the box's and empty (S-6: his tile draws nothing): the tile's screen went, and the
    game's home under it too, so that his turn stood on the main menu — B from your next move, or
    the end of the game, landed there. The home stays under his turn now."""
    from firmware.screens.caesar.home import CaesarHome
    every = ",".join(f'"{TOKENS[i].name}"' for i in range(16))
    new = (f"new caesar-solo seed=3 tiles-input={tiles} bag-input=physical row=sword:6/0,ship:5/1,wild:2/2")
    app = app_with([new, "draw shield:3/3", "draw shield:4/2", f'position {{"crassus_row": [{every}]}}'], ["a"],
                   state_dir)
    try:
        assert app.view()["crassus"]["bag"] == 0 and app.view()["turn"] == "crassus"
        app.handle("a")                                           # Crassus's turn
        if tiles == "physical":
            assert isinstance(app.stack[-1], TilePicker)
            app.handle("a")                                       # tile A: draws from an empty bag
        assert isinstance(app.stack[-1], TurnScreen) and app.console.session.lines[-1].startswith("crassus")
        assert [type(s).__name__ for s in app.stack] == ["MainMenu", "CaesarHome", "TurnScreen"]
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
        assert isinstance(app.stack[-1], PlayMap)                 # your move
        app.handle("b")
        assert isinstance(app.stack[-1], CaesarHome)
    finally:
        app.console.close()


def test_your_first_tokens_from_the_box_bag_are_asked_after_his_first_turn(state_dir):   # C-5, S-2
    """The box's bags, his first turn taken first (the home's first row): once his turn is read,
    your two first tokens are asked at once (the home screen came back first, «Draw tokens»: a
    press for nothing before your first move)."""
    new = "new caesar-solo difficulty=easy bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 seed=2"
    app = app_with([new], ["a"], state_dir)
    try:
        assert [i.label for i in app.stack[-1].items(app)][:2] == ["Crassus's turn", "Draw tokens"]
        app.handle("a")                                           # his turn: the tile turned up
        for _ in range(6):                                        # its page, his draws named (the first)
            if isinstance(app.stack[-1], TurnScreen):
                break
            app.handle("a")
        assert app.console.session.lines[-1].startswith("crassus draw=")
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("a")                                       # his turn read
        assert isinstance(app.stack[-1], TokenPicker) and texts(app)[0] == "You drew?"
        assert app.view()["turn"] == "human" and app.view()["human"]["draws_due"] == 2
    finally:
        app.console.close()


@pytest.mark.parametrize("new", ["new caesar-solo difficulty=easy bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 "
                                 "seed=2", "new caesar-duel seed=4 bag-input=physical"])
def test_tokens_owed_from_a_physical_bag_are_counted_over_their_pickers(state_dir, new):   # C-5, C-6
    """Two tokens owed (your first two, C-5) are asked one picker each; the pickers count them
    both, «0/2» then «1/2», as his tile's draws are counted (it said «0/1» twice: one token owed,
    read the player who had just taken two from the bag)."""
    app = app_with([new], ["a"], state_dir)
    try:
        solo = new.startswith("new caesar-solo")
        app.handle("down" if solo else "a")               # solo: «Draw tokens» under his turn; duel: the pass
        app.handle("a")
        counts = []
        while isinstance(app.stack[-1], TokenPicker) and texts(app)[0] == "You drew?":   # (then his tile's)
            counts.append(app.stack[-1].status(app))
            take(app, next(iter(sorted(app.stack[-1].left()))))
        assert counts == ["0/2", "1/2"]
        assert [line.split()[0] for line in app.console.session.lines[:2]] == ["draw", "draw"]
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, edition, title", [("en", "mixed", "Tile {}: draws {}"), ("ru", "ru", "Приказ {}: тянет {}"),
                                                   ("uk", "uk", "Тайл {}: тягне {}")])
def test_his_tile_turned_up_on_the_device_is_named_where_his_draws_are_asked(state_dir, lang, edition, title):  # S-5
    """The device's tiles, his bag the box's: his tile is turned up on the device (``reveal-tile``)
    and the table draws what it takes. The tile's page was pushed and at once replaced by the
    picker "He draws 2": nobody at the table saw which tile was up before naming the tokens. The
    picker's title names it now (as the edition's tiles print its letter), whole on the panel."""
    from firmware.screens import base
    from firmware.screens.caesar.words import tile_letter
    new = f"new caesar-solo difficulty=easy bag-input=physical edition={edition} row=sword:6/0,ship:5/1,wild:2/2 seed=2"
    app = app_with([new, "draw wild:2/2", "draw sword:5/1", "reveal-tile"], ["a"], state_dir, lang=lang)
    try:
        letter = app.view()["tiles"]["revealed"]
        n = 2 if letter == "A" else 1                                 # S-3: the easy deck
        _home_row(app, "now")                                          # Crassus's turn
        picker = app.stack[-1]
        assert isinstance(picker, TokenPicker) and picker.count == n
        shown = texts(app)
        assert shown[0] == title.format(tile_letter(letter, edition), n), shown
        assert len(shown[0]) + 1 + len(picker.status(app)) <= base.COLS and not any("…" in t for t in shown), shown
    finally:
        app.console.close()


def test_his_tile_that_only_turns_a_centurion_up_leaves_the_home_under_his_turn(state_dir):  # S-4, S-5, C-20
    """A tile of the player's own that turns up a face-down centurion and plays, drawing nothing
    (S-4), his bag the box's: the tile's place went, then the centurion's question took the place
    of the screen under it — the home was lost: his turn read, B left the game instead of going
    back to its home."""
    new = ("new caesar-solo difficulty=easy seed=3 centurions=1 bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 "
           "tiles=A:centurion+play;B:centurion+play")
    app = app_with([new, "draw wild:2/2", "draw sword:5/1"], ["a"], state_dir)
    try:
        _home_row(app, "now")                                          # Crassus's turn: his tile turned up
        assert isinstance(app.stack[-1], TokenPicker) and isinstance(app.stack[-2], CaesarHome)
        app.handle("a")                                                # the centurion that came up
        assert app.console.session.lines[-1].startswith("crassus centurion=")
        assert isinstance(app.stack[-1], TurnScreen) and isinstance(app.stack[-2], CaesarHome), app.stack
    finally:
        app.console.close()


def test_a_token_drawn_from_a_physical_bag_is_named_in_a_few_presses(state_dir):   # C-3, C-6
    """With the box's own bag the player names each token he draws (C-6; for Auto-Crassus too,
    S-5). It was a list of up to 16 rows, the cursor back on the first row for every token: six or
    seven presses a token, 16 for the last one listed. Now a grid of the tokens (a row per icon, a
    cell per token, C-3) over which the joystick moves both ways: every token of a full bag is at
    most four pushes and A away, three presses on average, and the token sent is the one named."""
    new = "new caesar-solo difficulty=easy bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 seed=2"
    presses = {}
    for name in sorted({t.name for t in TOKENS if not t.centurion}):
        app = app_with([new], ["a"], state_dir / name.replace(":", "-").replace("/", "-"))
        try:
            app.handle("down")
            app.handle("a")                                      # Draw tokens: your first one
            picker = app.stack[-1]
            assert isinstance(picker, TokenPicker)
            app.render()
            assert [len(row) for row in picker.grid] == [4, 4, 4, 3]     # sword, shield, ship, wild
            presses[name] = take(app, name)
            assert app.console.session.lines == [f"draw {name}"]
        finally:
            app.console.close()
    assert max(presses.values()) <= 5 and sum(presses.values()) / len(presses) <= 3.2, presses
    # the rows keep the icons' order on every grid: his face-down centurions alone (C-20) too
    from firmware.screens.caesar.pickers import token_grid
    assert token_grid({"wild:3/3", "sword:7/0", "shield+ship:4/4"}) == [["sword:7/0"], ["wild:3/3"],
                                                                       ["shield+ship:4/4"]]


def _his_first_row_picker(app):
    """The new-game form with a physical bag (S-2): A opens the picker of his three first tokens.
    Returns (the form, the picker)."""
    app.render()                                                 # (its code box goes with the first key)
    form = app.stack[-1]
    for _ in range([f.key for f in form.fields].index("bags")):
        app.handle("down")
    app.handle("right")                                          # Bags: physical
    app.handle("a")
    picker = app.stack[-1]
    assert isinstance(picker, TokenPicker) and picker.count == 3
    return form, picker


def test_the_token_grid_wraps_round_and_b_takes_back_a_pick_before_going_back(state_dir):   # S-2, C-6
    """docs/keys.md: on Caesar!'s token grid, as on the keyboard's, the joystick wraps round at the
    edges, and B takes back the tokens picked (the last first) and goes back only when none is
    (here his first row picked on the new-game form with a physical bag, S-2)."""
    app = app_with([], ["a", "a"], state_dir)                       # Games → Caesar!: the form
    try:
        form, picker = _his_first_row_picker(app)
        app.render()
        start = picker.at
        assert start is not None
        for way in ("up", "down", "left", "right"):                 # a whole turn round comes back
            for _ in range(len(picker.grid) if way in ("up", "down") else len(picker.grid[start[0]])):
                app.handle(way)
                app.render()
            assert picker.at == start, way
        app.handle("a")
        app.handle("a")
        assert len(picker.picked) == 2 and app.stack[-1] is picker
        app.handle("b")                                              # the last pick taken back
        assert len(picker.picked) == 1 and app.stack[-1] is picker
        app.handle("b")
        assert picker.picked == [] and app.stack[-1] is picker
        app.handle("b")                                              # nothing picked: back to the form
        assert app.stack[-1] is form and app.console.session is None
    finally:
        app.console.close()


def test_his_first_row_mis_picked_is_corrected_before_the_game_starts(state_dir):   # S-2
    """His three starting tokens (S-2), picked on the new-game form with a physical bag, are part
    of the new game: nothing can be undone before it starts. The third pick started the game at
    once, so a wrong last token could only be put right by a new game (new bonuses, the board set
    up again). Now the row is listed in order above Start: B (or A on a token) picks again."""
    app = app_with([], ["a", "a"], state_dir)                       # Games → Caesar!: the form
    try:
        form, picker = _his_first_row_picker(app)
        for name in ("shield:3/3", "shield:4/2", "shield:5/1"):
            take(app, name)
        assert app.console.session is None                           # not started yet
        assert [i.label for i in picker.items(app)] == ["1. shield 3/3", "2. shield 4/2", "3. shield 5/1",
                                                        "▶ Start"]
        app.handle("b")                                              # the last one was wrong
        assert picker.picked == ["shield:3/3", "shield:4/2"] and app.console.session is None
        take(app, "ship:5/1")
        assert picker.picked == ["shield:3/3", "shield:4/2", "ship:5/1"] and app.console.session is None
        app.handle("up")
        app.handle("up")
        app.handle("a")                                              # A on the 2nd token: picked again
        assert picker.picked == ["shield:3/3"] and app.console.session is None
        take(app, "shield:4/2")
        take(app, "shield:5/1")
        assert [i.label for i in picker.items(app)][-1] == "▶ Start" and app.console.session is None
        app.handle("a")                                              # Start
        assert app.console.session is not None
        assert app.view()["crassus"]["row"] == ["shield:3/3", "shield:4/2", "shield:5/1"]
    finally:
        app.console.close()


def test_his_draws_after_a_discard_of_a_tile_of_your_own_offer_what_went_back(state_dir):   # S-4, S-5, S-6
    """A tile of the player's own that discards before it draws (S-4: contents editable): the
    leftmost token goes back to his bag first (S-5: the tile's actions in order), so the table may
    draw it again. The device asked for his draws from his bag as it was before the turn: the
    token just put back was not offered, and a player who drew it could not say so."""
    from engine.caesar.tiles import tile_takes
    new = ("new caesar-solo tiles-input=physical bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 "
           "tiles=A:discard1+draw2+play seed=4")
    app = app_with([new], ["a"], state_dir)
    try:
        home = app.stack[-1]
        app.handle("a")                                           # Crassus's turn: which tile?
        assert isinstance(app.stack[-1], TilePicker)
        app.handle("a")                                           # A (the first letter)
        picker = app.stack[-1]
        labels = [i.label for i in picker.items(app)]
        assert isinstance(picker, TokenPicker) and picker.count == 2 and "sword 6/0" in labels
        take(app, "sword:6/0")                                    # he drew the sword 6/0 he put back
        app.handle("a")                                           # and the token under the cursor
        assert app.console.session.lines[-1].startswith("crassus tile=A draw=sword:6/0,")
        assert isinstance(app.stack[-1], TurnScreen) and home is app.stack[-2]
    finally:
        app.console.close()
    # S-6: a bag of one token holds two after the discard: both draws are asked for
    assert tile_takes(["discard1", "draw2", "play"], ["sword:6/0", "ship:5/1"], 1, 0) == (2, 0, [(0, "sword:6/0")])
    assert tile_takes(["draw2", "play", "discard1"], ["sword:6/0"], 1, 0) == (1, 0, [])     # short: no discard


def _his_first_draw(state_dir, options: str, tile_a: str) -> tuple[Any, TokenPicker]:
    """A solo game with a physical bag and tiles (``options``: his row, modules), his tile A made
    ``tile_a`` (S-4), turned up on the device: the app and the picker of his draws it opened."""
    new = f"new caesar-solo tiles-input=physical bag-input=physical {options} tiles=A:{tile_a} seed=4"
    app = app_with([new], ["a"], state_dir)
    app.handle("a")                                               # Crassus's turn: which tile?
    app.handle("a")                                               # A
    picker = app.stack[-1]
    assert isinstance(picker, TokenPicker), picker
    return app, picker


def test_a_token_put_back_between_two_draws_is_offered_from_the_second_on(state_dir):   # S-4, S-5
    """A tile of the player's own that draws, discards, then draws again (S-4): the leftmost
    token goes back to his bag only after the first draw (S-5: the tile's actions in order). The
    device offered it for the first draw too, where the digital bag does not hold it yet: the
    turn then failed with "not in Crassus's bag"."""
    from engine.caesar.tiles import tile_takes
    app, picker = _his_first_draw(state_dir, "row=sword:6/0,ship:5/1,wild:2/2", "draw1+discard1+draw1+play")
    try:
        assert isinstance(picker, TokenPicker) and picker.count == 2
        assert "sword 6/0" not in [i.label for i in picker.items(app)]     # not in his bag yet
        app.handle("a")                                           # the first token offered
        labels = [i.label for i in picker.items(app)]
        assert "sword 6/0" in labels                              # back in his bag: the 2nd may draw it
        take(app, "sword:6/0")
        assert app.console.session.lines[-1].startswith("crassus tile=A draw=")
        assert app.console.session.lines[-1].endswith(",sword:6/0")
        assert isinstance(app.stack[-1], TurnScreen)
    finally:
        app.console.close()
    # a token he drew, played past and put back may be drawn again by a later draw (S-5)
    assert tile_takes(["draw1", "play", "discard1", "draw1"], ["sword:6/0"], 5, 0) == \
        (2, 0, [(1, "sword:6/0"), (1, 0)])
    # S-6: a short draw skips the discard: nothing goes back for the later draw
    assert tile_takes(["draw2", "discard1", "draw1", "play"], ["sword:6/0"], 1, 0) == (1, 0, [])


def test_after_a_play_a_discard_offers_only_the_tokens_it_can_put_back(state_dir):   # S-4, S-5
    """A tile of the player's own that draws, plays, discards, then draws again (S-4): the play
    takes one token of his row (his choice, S-8), so the discard puts back the leftmost of those
    left: the first or (if he played it) the second token of his row, never the third. The
    device offered every token of his row for the later draw, so a player could pick one the
    digital bag never holds there, and the turn failed with "not in Crassus's bag"."""
    from engine.caesar.tiles import tile_takes
    app, picker = _his_first_draw(state_dir, "row=sword:6/0,ship:5/1,sword:5/1", "draw1+play+discard1+draw1")
    try:
        assert isinstance(picker, TokenPicker) and picker.count == 2
        assert not {"sword 6/0", "ship 5/1", "sword 5/1"} & {i.label for i in picker.items(app)}
        app.handle("a")                                           # the first token drawn
        labels = {i.label for i in picker.items(app)}
        assert {"sword 6/0", "ship 5/1"} <= labels and "sword 5/1" not in labels
    finally:
        app.console.close()
    # two plays before the discard: any of the first three may go back; a second discard after
    # the first may put back the second or third (S-5: the row keeps its order)
    assert tile_takes(["play", "play", "discard1", "draw1"], ["a", "b", "c", "d"], 5, 0)[2] == \
        [(0, "a"), (0, "b"), (0, "c")]
    assert tile_takes(["play", "discard1", "discard1", "draw1"], ["a", "b", "c", "d"], 5, 0)[2] == \
        [(0, "a"), (0, "b"), (0, "c")]
    assert tile_takes(["draw1", "play", "discard1", "draw1"], ["a"], 5, 0)[2] == [(1, "a"), (1, 0)]


def test_his_two_wild_2_2_put_back_are_two_tokens_in_his_bag(state_dir):   # C-3, S-4, S-5
    """Each side has two wild 2/2 (C-3). A tile of the player's own that discards both before it
    draws (S-5: in order) puts two tokens back in his bag; the device offered one wild 2/2 (it
    counted the tokens put back by name), so a table that drew both could not say so."""
    from engine.caesar.tiles import tile_takes
    app, picker = _his_first_draw(state_dir, "row=wild:2/2,wild:2/2,sword:6/0", "discard1+discard1+draw2+play")
    try:
        take(app, "wild:2/2")                                     # the first wild 2/2
        labels = [i.label for i in picker.items(app)]
        assert "wild 2/2" in labels                               # the second is in his bag too
        take(app, "wild:2/2")
        assert app.console.session.lines[-1].startswith("crassus tile=A draw=wild:2/2,wild:2/2")
        assert isinstance(app.stack[-1], TurnScreen)
    finally:
        app.console.close()
    assert tile_takes(["discard1", "discard1", "draw2", "play"], ["wild:2/2", "wild:2/2", "sword:6/0"], 0, 0) == \
        (2, 0, [(0, "wild:2/2"), (0, "wild:2/2")])


def test_a_centurion_a_tile_turns_up_then_puts_back_may_be_drawn_after(state_dir):   # C-18, S-4, S-5
    """A tile of the player's own that turns up a centurion (S-4) and then, its row run down,
    discards it: the leftmost token of his row goes back to his bag whatever it is (S-4), so a
    later draw of the tile may take it (S-5: in order), as his digital bag does. The device
    offered only his bag's tokens and the row's, never the centurion: a table that drew it could
    not say so."""
    from engine.caesar.tiles import tile_takes
    app, picker = _his_first_draw(state_dir, "centurions=1 row=sword:6/0,ship:5/1,wild:2/2", "discard1+play+discard1+centurion+discard1+draw1")
    try:
        labels = [i.label for i in picker.items(app)]
        assert isinstance(picker, TokenPicker) and "sword 7/0" in labels      # a face-down centurion
        take(app, "sword:7/0")                                    # he drew the centurion put back
        take(app, "sword:7/0")                                    # which centurion he turned up
        assert app.console.session.lines[-1] == "crassus tile=A draw=sword:7/0 centurion=sword:7/0"
        assert isinstance(app.stack[-1], TurnScreen)
        assert app.view()["crassus"]["row"][-1] == "sword:7/0"
    finally:
        app.console.close()
    assert tile_takes(["discard1", "play", "discard1", "centurion", "discard1", "draw1"],
                      ["sword:6/0", "ship:5/1", "wild:2/2"], 5, 3)[2][-1] == (0, None)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_tile_of_your_own_that_draws_four_names_every_token_into_his_row(state_dir, lang):   # S-4, S-5
    """A tile of the player's own (S-4) that draws 2 and 2 more: his tile page showed three of
    the four tokens to take from his bag and a '…' drawn off the panel, so the table could not
    know the fourth. Now every token is named (its sentence under the icons, on a page of its
    own if need be) and nothing is cut; three tokens (draw3) fit in the smaller size."""
    from firmware.screens import base
    for tiles, n in (("draw2+draw2+play+discard2", 4), ("draw3+play+discard2", 3)):
        new = f"new caesar-solo seed=3 tiles=A:{tiles};B:{tiles};C:{tiles}"
        app = app_with([new], ["a", "a"], state_dir / tiles, lang)
        try:
            turn = app.stack[-1]
            assert isinstance(turn, TurnScreen) and turn.pages[0]["kind"] == "tile"
            into = app.view()["last_crassus_turn"]["steps"][0]["tokens"] + \
                app.view()["last_crassus_turn"]["steps"][1].get("tokens", [])
            assert len(into) == n
            shown, cut = [], []
            while isinstance(app.stack[-1], TurnScreen) and app.stack[-1].pages[app.stack[-1].page]["kind"] in ("tile", "notes"):
                for x, _y, t, kind in drawn(app):
                    shown.append(t)
                    if x + len(t) * base.advance(kind) > base.W + 1:
                        cut.append(t)
                app.handle("a")
            said = " ".join(shown)
            from firmware.screens.caesar.words import nums, tok
            if n == 4:                                 # the sentence names them all, in order
                named = [tok(t) for t in into]
                assert all(t in " ".join(said.split()) for t in named) or \
                    ", ".join(named) in " ".join(said.split()), (into, shown)
            else:                                      # the icons, all three on the panel
                assert [t for t in shown if t in {nums(x) for x in into}][:n] == [nums(t) for t in into], shown
            assert cut == [], cut
        finally:
            app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_tile_of_your_own_that_only_plays_says_so_whole(state_dir, lang):   # S-4, S-5
    """A tile of the player's own that only plays (S-4): his tile page says he takes nothing and
    returns nothing, in a sentence wrapped to the panel (it was one row, cut at the right edge:
    "Nothing to draw or r", «Нічого не бере і не»)."""
    app = app_with(["new caesar-solo seed=3 tiles=A:play;B:play;C:play"], ["a", "a"], state_dir, lang)
    try:
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[0]["kind"] == "tile"
        assert cut_rows(app) == []
        said = " ".join(t for t in texts(app)[2:])
        assert said == {"en": "Nothing to draw or return.", "ru": "Ничего не берёт и не сбрасывает.",
                        "uk": "Нічого не бере і не скидає."}[lang]
    finally:
        app.console.close()


def test_physical_bags_in_a_duel_offer_only_what_is_in_the_bag_and_ask_on(state_dir):   # C-5, C-6
    """A duel's draws from a physical bag: the token just drawn is not offered again (it said
    «щит 3/3: такого нет» on the second A), and the same player's next token is asked at once,
    with no trip through the home screen and the pass-the-device screen for each token."""
    from firmware.screens.caesar.flow import PassScreen
    app = app_with(["new caesar-duel seed=4 bag-input=physical"], ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert [i.label for i in home.items(app)][0] == "Draw tokens"
        app.handle("a")
        assert isinstance(app.stack[-1], PassScreen)
        app.handle("a")
        picker = app.stack[-1]
        assert isinstance(picker, TokenPicker) and "shield:3/3" in picker.pool
        take(app, "shield:3/3")
        assert app.message is None and isinstance(app.stack[-1], TokenPicker)
        assert "shield:3/3" not in app.stack[-1].pool and len(app.stack[-1].pool) == 15
        app.render()
        assert "shield:3/3" not in app.stack[-1].left()                  # not on the grid either
        take(app, "shield:4/2")
        assert app.message is None
        assert app.console.session.lines == ["draw shield:3/3", "draw shield:4/2"]
        assert app.console.request("hand caesar")["hand"] == ["shield:3/3", "shield:4/2"]
    finally:
        app.console.close()


def test_a_duel_with_the_box_bags_leads_from_draws_to_moves_without_a_pass_for_nothing(state_dir):   # C-5, C-6
    """A duel with the box's bags: Caesar names his two first tokens, and his move follows at once
    (it said «Pass the device to Caesar» to Caesar, who had just named them). After his turn the
    device goes to Pompey for his first two tokens at once (it stopped on the home screen, «Draw
    tokens», a press for nothing), and his move follows them, the device still his."""
    from firmware.screens.caesar.flow import PassScreen
    app = app_with(["new caesar-duel seed=4 bag-input=physical"], ["a", "a", "a"], state_dir)   # Draw, pass
    try:
        for _ in range(2):
            take(app, next(iter(sorted(app.stack[-1].left()))))
        assert isinstance(app.stack[-1], PlayMap), texts(app)
        app.handle("a")                                           # his move's province
        app.handle("a")                                           # its first option
        assert app.view()["turn"] == "caesar" and isinstance(app.stack[-1], TokenPicker)
        take(app, next(iter(sorted(app.stack[-1].left()))))      # his draw (C-6)
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
        assert app.view()["turn"] == "pompey"
        assert isinstance(app.stack[-1], PassScreen) and "Pompey" in " ".join(texts(app))
        app.handle("a")
        for _ in range(2):                                        # Pompey's first tokens
            assert isinstance(app.stack[-1], TokenPicker), texts(app)
            take(app, next(iter(sorted(app.stack[-1].left()))))
        assert isinstance(app.stack[-1], PlayMap), texts(app)
        assert [line.split()[0] for line in app.console.session.lines] == ["draw", "draw", "play", "draw", "draw",
                                                                           "draw"]
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
        assert app.console.session.header["line"].split()[:4] == ["new", "caesar-solo", "side=caesar",
                                                                  "difficulty=normal"]
        assert "edition=mixed" in app.console.session.header["line"]      # English: the rules before editions
        guide = app.stack[-1]
        assert isinstance(guide, SetupGuide)
        pages = guide.pages(app)
        titles = [p[1] for p in pages]
        assert titles == ["New game", "Senate", "Bonus tokens", "Control markers", "Crassus's row", "Command tiles",
                          "Your tokens"]
        assert pages[0][2][0] == "You: Caesar, normal" and pages[0][2][1] == ""   # clear of the code box
        assert "Russian rulebook; Crassus defends as in the Ukrainian" in " ".join(pages[0][2])  and "No modules" in pages[0][2]
        assert " ".join(pages[1][2]).startswith("Put the Senate bonus token on the slot of Italy")   # C-5
        bonus_rows = " ".join(pages[2][2])
        assert all(name in bonus_rows for name in ("Syria", "Hispania Ulterior"))
        assert "Italia" not in bonus_rows                                     # Italy holds the Senate only
        assert "3×A, 2×B, 1×C" in " ".join(pages[5][2])                       # S-3 normal deck
        assert " ".join(pages[-1][2]).endswith("Crassus takes the first turn.")
        seen = {t.strip() for t in texts(app)}
        app.handle("a")                                         # the fair-draw code box closes, nothing else
        for _ in range(40):                                     # A, A, ...: every row of every page shows
            if not isinstance(app.stack[-1], SetupGuide):
                break
            seen.update(t.strip() for t in texts(app))
            app.handle("a")
        assert all(r.strip() in seen for p in pages for r in p[2])   # the bonus of every province too (C-5)
        assert isinstance(app.stack[-1], TurnScreen)            # Auto-Crassus takes the first turn
        assert app.console.session.lines == ["crassus"]
    finally:
        app.console.close()


def test_new_game_over_an_unfinished_one_asks_and_leaves_no_stale_home(state_dir):
    app = app_with([NEW, "crassus", READ], ["a"], state_dir)
    try:
        home = app.stack[-1]
        assert isinstance(home, CaesarHome)
        idents = [i.ident for i in home.items(app)]
        for _ in range(idents.index("new")):
            app.handle("down")
        app.handle("a")
        app.render()                                            # the form shows the fair-draw code
        assert app.commitment is not None and isinstance(app.stack[-1], NumberForm)
        app.handle("a")                                         # Start (A on any row of the form; the code box goes)
        assert app.commitment is None
        assert isinstance(app.stack[-1], ConfirmScreen)         # the game is not over: ask
        app.handle("a")
        assert isinstance(app.stack[-1], SetupGuide)
        assert app.commitment is None                           # its code was shown with the form
        for _ in range(7):
            app.handle("right")                                 # right: the next page at once
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
        assert isinstance(app.stack[-1], PlayMap)
        assert isinstance(app.stack[-2], CaesarHome)            # Back from a private screen: the duel's home
        app.handle("a")
        app.handle("a")
        assert app.console.session.lines[0].startswith("play ") and app.console.session.lines[1] == "draw"
        drawn = app.console.request("hand caesar")["hand"]
        page = app.stack[-1]                                     # what Caesar takes from his bag: still his
        assert isinstance(page, TurnScreen) and page.pages[page.page]["kind"] == "draw" and app.message is None
        assert any(t.split(":")[1] in texts(app) for t in drawn)
        app.handle("a")
        passing = app.stack[-1]
        assert isinstance(passing, ConfirmScreen) and "Pompey" in " ".join(passing.rows)
        assert not any(t.split(":")[1] in " ".join(texts(app)) for t in drawn)   # nothing of his hand now
        assert app.message is None
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
        from firmware.screens.widgets import figure
        shown = [i.value for i in editor.items(app)]
        assert shown[0] == figure(shown[0].strip("<>")) and not shown[1].startswith("<")   # the one figure mark
        for key in ["down", "down", "right"]:                  # 3rd slot: '-' -> draw1
            app.handle(key)
        app.handle("a")
        assert app.settings["caesar.tiles"] == "B:draw1+play+draw1"          # only the tile set (S-4)
        assert app.message and "Tile B saved" in " ".join(app.message)
        app.message = None
        app.stack = app.stack[:2]
        new_game = [i.ident for i in app.stack[-1].items(app)].index("new")
        for _ in range(new_game - app.stack[-1].cursor):
            app.handle("down")
        app.handle("a")
        app.render()
        app.handle("up")                                        # (the form's fair-draw code box goes)
        app.handle("a")                                         # Start; the old game is not over: confirm
        app.handle("a")
        assert "tiles=B:draw1+play+draw1" in app.console.session.header["line"]
        tiles = app.view()["tiles"]
        assert tiles["definitions"]["B"] == "draw1+play+draw1"
        assert tiles["user_defined"] == ["B"] and "A" in tiles["unverified_letters"]   # never set: still "?"
    finally:
        app.console.close()


def test_a_tile_edited_keeps_the_others_unverified_and_an_emptied_one_is_refused(state_dir):   # S-4
    """Editing tile A marks A as set by the player, not the tiles never opened (they were all
    saved with A: the next game showed every tile as verified, its "?" gone). Emptying a tile is
    refused in a sentence and changes nothing (it said "Tile A saved: ." and A went back to its
    default contents)."""
    from firmware.screens.caesar.tiles import TilesScreen
    app = app_with([NEW], ["a"], state_dir)
    try:
        app.stack.append(TilesScreen())
        app.handle("a")                                         # tile A
        editor = app.stack[-1]
        assert isinstance(editor, TileEditor) and editor.letter == "A"
        app.handle("down")
        app.handle("down")
        app.handle("right")                                     # 3rd slot: discard 1 -> centurion
        app.handle("a")
        assert app.settings["caesar.tiles"] == f"A:draw2+play+{editor.slots[2]}"
        assert app.message and "Tile A saved" in " ".join(app.message)
        app.message = None
        app.handle("down")
        app.handle("a")                                         # tile B: emptied
        editor = app.stack[-1]
        assert isinstance(editor, TileEditor) and editor.letter == "B"
        for slot in range(6):
            while editor.slots[slot] != "-":
                app.handle("left")
            app.handle("down")
        app.handle("a")
        assert app.stack[-1] is editor and app.message
        assert " ".join(app.message) == "A tile needs at least one play and at most six actions."
        assert app.settings["caesar.tiles"] == f"A:draw2+play+{editor.tiles['A'][2]}"   # unchanged
    finally:
        app.console.close()


def test_game_over_shows_the_winner(state_dir):  # C-12
    app = app_with([NEW, CRASSUS_WINS, "crassus", READ], ["a"], state_dir)
    try:
        home = app.stack[-1]
        first = home.items(app)[0]
        assert first.label == "Game over" and first.value == "Crassus"
        assert "decide" not in [i.ident for i in home.items(app)]       # nothing left to predict
        assert "last" in [i.ident for i in home.items(app)]             # his winning turn, read again (C-12)
        home.current = "last"
        app.handle("a")
        screen = app.stack[-1]
        assert isinstance(screen, TurnScreen) and [p["kind"] for p in screen.pages][-1] == "end", screen.pages
    finally:
        app.console.close()


def test_a_new_game_over_a_won_game_asks_first_and_b_keeps_the_won_game(state_dir):  # C-12
    """A new Caesar! game over one Auto-Crassus has won files the won game as finished and its last
    move can no longer be taken back (a token misnamed on that move is then for good): the form
    asked nothing over a won Caesar! game while every other game's asks first."""
    from engine.caesar import actions as act
    from firmware.screens import play
    from firmware.screens.caesar.setup import _start
    app = app_with([NEW, CRASSUS_WINS, "crassus", READ], ["a"], state_dir)
    try:
        actions = app.console.session.view()["actions"]
        _start(app, act.new_solo("caesar", "normal"), None)
        app.render()
        question = app.stack[-1]
        assert isinstance(question, play.ReplaceQuestion), type(question).__name__
        assert "last move can't be undone" in " ".join(question.rows)
        app.handle("b")                                          # B keeps the won game, undo and all
        view = app.console.session.view()
        assert view["game"] == "caesar-solo" and view["winner"] and view["actions"] == actions
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_game_the_players_ended_is_over_on_its_home(state_dir, lang):   # C-12; PROTOCOL: end
    """The players end the game (History → Fair draw → End, or ``end`` over the serial link): its
    home says it is over and offers no move; it kept saying "Your move", and the map then answered
    every province with «Ваши жетоны сюда не подходят»."""
    app = app_with([NEW, "crassus", READ, "end"], ["a"], state_dir, lang=lang)
    try:
        home = app.stack[-1]
        assert isinstance(home, CaesarHome)
        idents = [i.ident for i in home.items(app)]
        assert idents[0] == "now" and "decide" not in idents
        first = home.items(app)[0]
        assert first.label == ("Game over" if lang == "en" else "Игра окончена") and first.value == ""
        assert home.status(app) == ("over" if lang == "en" else "конец")
        app.handle("a")
        said = " ".join(app.stack[-1].rows)
        assert said == ("The players ended the game." if lang == "en" else "Игроки завершили игру.")
    finally:
        app.console.close()
    app = app_with([NEW, "crassus", "end"], ["a", "a", "a"], state_dir / "b", lang=lang)   # his last pages read
    try:
        assert isinstance(app.stack[-1], CaesarHome)                 # not "your move" on the map
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


@pytest.mark.parametrize("bonus", ["might", "tactics"])
def test_a_duel_player_who_goes_on_is_not_asked_to_pass_the_device_to_themselves(state_dir, bonus):  # C-13, C-15
    """Caesar's placement closes Hispania Ulterior and takes its bonus: Might (C-15: he chooses
    what to flip, in the middle of his turn) or Tactics (C-13: he moves again). The device is in
    his hands, yet after his turn's pages it said «Pass the device to Caesar; only Caesar looks
    now» — a press for nothing. Now his choice (or his next move) follows at once; when his turn
    is over, the device is passed to Pompey."""
    from firmware.screens.caesar.flow import PassScreen
    from firmware.screens.caesar.pickers import ChoiceScreen
    pos = {"spaces": {"HU-MT": {"by": "caesar", "token": "ship:6/0", "toward": {"HU": 6, "MT": 0}},
                      "SC-IT": {"by": "pompey", "token": "sword:5/1", "toward": {"SC": 5, "IT": 1}}},
           "bonuses": {"HU": bonus}, "turn": "caesar",
           "hands": {"caesar": ["shield:3/3", "wild:2/2"], "pompey": ["sword:6/0", "ship:4/2"]}}
    app = app_with(["new caesar-duel seed=3", "position " + json.dumps(pos)], ["a", "a", "a"], state_dir)
    try:
        assert isinstance(app.stack[-1], PlayMap)                  # Resume, his move, the device passed
        app.handle("press")                                        # the provinces as a list
        picker = app.stack[-1]
        assert isinstance(picker, ProvincePicker)
        while picker.items(app)[picker.cursor].ident != "HU":
            app.handle("down")
        app.handle("a")
        option = app.stack[-1]
        assert isinstance(option, OptionScreen)
        while "shield" not in option.options(app)[option.cursor].token:
            app.handle("down")
        app.handle("a")                                            # shield 3/3 closes HU (C-7)
        assert any(line.startswith("play HU-HC shield:3/3") for line in app.console.session.lines)
        for _ in range(8):                                         # his turn's pages
            if not isinstance(app.stack[-1], TurnScreen):
                break
            app.handle("a")
        after = app.stack[-1]
        assert not isinstance(after, PassScreen), texts(app)
        assert isinstance(after, ChoiceScreen if bonus == "might" else PlayMap)
        assert app.view()["turn"] == "caesar"
        if bonus == "might":
            app.handle("a")                                        # flip his 5/1 on Sicilia–Italia
            for _ in range(8):
                if not isinstance(app.stack[-1], TurnScreen):
                    break
                app.handle("a")
            assert app.view()["turn"] == "pompey"
            assert isinstance(app.stack[-1], PassScreen) and "Pompey" in " ".join(texts(app))
    finally:
        app.console.close()


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
        while isinstance(app.stack[-1], TextScreen):           # a long "Taken back: ..." note, read to its end
            app.handle("a")
        assert isinstance(app.stack[-1], CaesarHome)           # his pages taken off with his turn
        assert app.stack[-1].items(app)[0].label == "Crassus's turn"
        assert not any(CONSOLE_SYNTAX.search(t) for t in texts(app))
    finally:
        app.console.close()


def test_undo_of_his_turn_from_your_move_lands_on_the_home(state_dir):   # issue 23 §2
    app = app_with([NEW], ["a", "a", "a", "a"], state_dir)     # his turn read: your move opens
    try:
        assert isinstance(app.stack[-1], PlayMap)
        app.handle("a")
        assert isinstance(app.stack[-1], OptionScreen)
        app.handle("b:hold")
        app.handle("a")                                        # take back his turn
        assert app.console.session.lines == []
        while isinstance(app.stack[-1], TextScreen):           # a long "Taken back: ..." note, read to its end
            app.handle("a")
        assert isinstance(app.stack[-1], CaesarHome) and not any(isinstance(s, (OptionScreen, PlayMap))
                                                                  for s in app.stack)
        assert app.stack[-1].items(app)[0].label == "Crassus's turn"
        app.message = None
        app.handle("a")                                        # and his turn is played again from there
        assert app.console.session.lines == ["crassus"] and isinstance(app.stack[-1], TurnScreen)
        while isinstance(app.stack[-1], TurnScreen):           # no screen ever shows a console command
            assert not any(CONSOLE_SYNTAX.search(t) or "send" in t for t in texts(app))
            app.handle("a")
        assert isinstance(app.stack[-1], PlayMap)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_closed_province_chosen_on_the_map_says_it_is_closed(state_dir, lang):   # C-7
    """Your move, the list's "On the map…": A on a closed province is refused with the reason,
    that it is closed (it said "No token of yours fits here.", as for an open province whose
    empty spaces take none of your icons); nothing is sent."""
    closed = "position " + json.dumps({     # Sicilia's four spaces taken: closed, Crassus 9-7 (C-7, C-9)
        "spaces": {"SD-SC": {"by": "human", "token": "ship:4/2", "toward": {"SC": 4, "SD": 2}},
                   "NU-SC": {"by": "crassus", "token": "ship:5/1", "toward": {"SC": 5, "NU": 1}},
                   "SC-IT": {"by": "crassus", "token": "sword:4/2", "toward": {"SC": 4, "IT": 2}},
                   "SC-AF": {"by": "human", "token": "ship:3/3", "toward": {"SC": 3, "AF": 3}}},
        "turn": "human", "crassus_row": ["sword:6/0"], "human_hand": ["sword:5/1", "wild:2/2"]})
    app = app_with([NEW, closed], ["a", "a", "press"], state_dir, lang)
    try:
        picker = app.stack[-1]
        assert isinstance(picker, ProvincePicker) and "SC" not in picker.codes(app)
        for _ in range(len(picker.items(app)) - 1):
            app.handle("down")
        app.handle("a")                                            # On the map…
        app.stack[-1].cursor = PROVINCES.index("SC")
        app.handle("a")
        said = " ".join(app.message or [])
        assert said == {"en": "Sicilia is closed: no empty space is left in it.",
                        "ru": "Провинция Сицилия закрыта: свободных ячеек в ней не осталось.",
                        "uk": "Провінцію Сицилія закрито: вільних зон у ній не лишилося."}[lang]
        assert app.console.session.lines[-1].startswith("position")
        app.message = None
        app.stack[-1].cursor = PROVINCES.index("IT")                # open, and a token of yours fits
        app.handle("a")
        assert isinstance(app.stack[-1], OptionScreen) and app.stack[-1].code == "IT"
    finally:
        app.console.close()


def test_your_move_played_over_the_serial_link_takes_its_choice_off_the_screen(state_dir):
    """C-3: the move is played over the serial link while the device shows its choice (the map,
    then a province's options): those screens go, as an undo takes them off (they stayed, offering
    "A: here" for a move already made; A then only said the game had moved on)."""
    app = app_with([NEW], ["a", "a", "a", "a"], state_dir)     # his turn read: your move opens
    try:
        app.render()
        assert isinstance(app.stack[-1], PlayMap)
        app.handle("a")
        app.render()
        assert isinstance(app.stack[-1], OptionScreen)
        m = app.console.request("moves")["moves"][0]
        reply = app.serve_line(f"play {m['space']} {m['token']} {sorted(m['toward'])[0]}".encode())
        assert '"ok":true' in reply
        app.render()
        assert not any(isinstance(s, (OptionScreen, PlayMap, ProvincePicker)) for s in app.stack)
        assert isinstance(app.stack[-1], CaesarHome) and app.errors == 0
        assert app.stack[-1].items(app)[0].label == "Draw a token"          # C-6: what it waits for now
    finally:
        app.console.close()


def test_a_placements_preview_goes_when_the_serial_link_plays_the_move(state_dir):   # C-7
    """All a placement does, asked before it is made: the move played over the serial link takes
    it off with the options under it (it stayed: A then only said the game had moved on)."""
    from firmware.screens.caesar.move import AllItDoes
    from scripts.shots_caesar import DOUBLE
    app = app_with([NEW, DOUBLE], ["a", "a", "a", "a"], state_dir)
    try:
        app.render()
        assert isinstance(app.stack[-1], AllItDoes)
        m = app.console.request("moves")["moves"][0]
        assert '"ok":true' in app.serve_line(f"play {m['space']} {m['token']} {sorted(m['toward'])[0]}".encode())
        app.render()
        assert not any(isinstance(s, (AllItDoes, OptionScreen)) for s in app.stack) and app.errors == 0
    finally:
        app.console.close()


def test_the_why_of_an_undone_play_goes_with_it(state_dir):   # S-9..S-15
    """The why of one of his plays is open when his turn is undone: it goes with the turn's pages
    (it stayed over the home, explaining a play no longer made)."""
    app = app_with([NEW], ["a", "a", "right", "right"], state_dir)    # his turn, his play, its why
    try:
        assert app.stack[-1].title.startswith("Why")
        app.handle("b:hold")
        app.handle("a")
        while isinstance(app.stack[-1], TextScreen) and app.stack[-1].title == "Note":
            app.handle("a")                            # the long "Undone: ..." note
        assert list(app.console.session.lines) == []
        assert isinstance(app.stack[-1], CaesarHome) and app.errors == 0
    finally:
        app.console.close()


def test_a_language_chosen_over_the_serial_link_is_spoken_by_the_screens_open(state_dir):   # S-9
    """`settings language=ru` from the serial link while his turn is shown: its pages (and the why
    of his play) are said in Russian from then on, and so is your move's list of provinces (they
    stayed in English: the why's text, the title «Куда?»)."""
    from firmware import i18n
    app = app_with([NEW], ["a", "a", "right"], state_dir)       # his turn, his play
    try:
        assert isinstance(app.stack[-1], TurnScreen) and app.stack[-1].pages[app.stack[-1].page]["kind"] == "play"
        assert '"ok":true' in app.serve_line(b"settings language=ru")
        assert texts(app)[0].startswith("Красс")
        app.handle("right")                                     # its why
        assert app.stack[-1].title.startswith("Почему") and "пункт" in " ".join(texts(app))
        app.handle("b")
        app.handle("a")                                         # his turn read: your move
        assert isinstance(app.stack[-1], PlayMap)
        app.handle("press")                                     # the provinces as a list
        app.render()
        assert isinstance(app.stack[-1], ProvincePicker)
        assert '"ok":true' in app.serve_line(b"settings language=en")
        assert "Where?" in texts(app)
        assert '"ok":true' in app.serve_line(b"settings language=uk")
        assert "Куди?" in texts(app)
    finally:
        i18n.set_language("en")
        app.console.close()


def test_a_language_chosen_over_the_serial_link_keeps_the_page_of_his_turn(state_dir):   # S-3
    """His tile's notes on a page of their own (the same step of the record as the tile's page): a
    language chosen over the serial link keeps that page shown, said in it (not the tile's page)."""
    from firmware import i18n
    lines = ["new caesar-solo side=pompey difficulty=hard poison=1 centurions=1 border-control=1 seed=1", "crassus",
             "play AS-SY shield:3/3 AS", "draw",
             "crassus", "play AF-AC wild:4/0 AC", "draw", "crassus"]
    app = app_with(lines, ["a"], state_dir)                     # his last turn, unread: its first page
    try:
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and [p["kind"] for p in turn.pages][:2] == ["tile", "notes"]
        app.handle("right")
        assert turn.page == 1
        assert '"ok":true' in app.serve_line(b"settings language=ru")
        shown = texts(app)
        assert turn.pages[turn.page]["kind"] == "notes" and shown[1] == f"2/{len(turn.pages)}"
        assert shown[0].startswith("Красс")
    finally:
        i18n.set_language("en")
        app.console.close()


def _home_row(app, ident: str) -> None:
    """Open the home's row ``ident``."""
    home = app.stack[-1]
    assert isinstance(home, CaesarHome)
    while home.items(app)[home.cursor].ident != ident:
        app.handle("down")
    app.handle("a")


@pytest.mark.parametrize("row", ["decide", "row", "hand", "score"])
def test_a_text_of_the_game_now_goes_once_the_serial_link_plays(row, state_dir):   # S-8, C-6
    """"Crassus would…", his row, your hand and the score say the game as it is now: once his turn
    or your move is played over the serial link they go (they stayed, saying what was before)."""
    app = app_with([NEW, "crassus", READ] if row == "hand" else [NEW], ["a"], state_dir)
    try:
        _home_row(app, row)
        app.render()
        assert isinstance(app.stack[-1], TextScreen)
        if row == "hand":
            m = app.console.request("moves")["moves"][0]
            line = f"play {m['space']} {m['token']} {sorted(m['toward'])[0]}"
        else:
            line = "crassus"
        assert '"ok":true' in app.serve_line(line.encode())
        app.render()
        assert not any(isinstance(s, TextScreen) for s in app.stack) and app.errors == 0
        if line == "crassus":                 # his turn, not shown yet, is shown from its first page
            assert isinstance(app.stack[-1], TurnScreen) and app.stack[-1].page == 0
        else:
            assert isinstance(app.stack[-1], CaesarHome)
    finally:
        app.console.close()



def test_undoing_his_turn_says_to_put_the_tile_on_top_of_his_stack_in_the_rulebook_s_words(state_dir):  # S-5
    """His undone turn puts the tile back on top of his stack: «поверх его стопки», as the rulebook
    says «поверх этих жетонов» (it said «наверх его стопки», the adverb «upwards» for «on top of»)."""
    from firmware.console import Console
    from firmware.store import Store
    console = Console(Store(state_dir), None)
    try:
        console.request("settings language=ru")
        assert console.request("new caesar-solo tiles-input=physical edition=ru seed=3")["ok"]
        assert console.request("crassus tile=A")["ok"]
        undone = console.request("undo")["undone"]
        assert undone.startswith("Отменено: ход Красса с приказом А. Верните приказ А лицом вниз поверх "
                                 "его стопки; отмените на поле то, что сделал ход"), undone
    finally:
        console.close()


UNDO_NEW_STACK = {   # S-5 undone: his tile alone as his stack again, the others played (as each edition made it)
    ("ru", "ru"): "Отменено: ход Красса с приказом В, сложивший его стопку заново. Его стопка — один приказ В "
                  "лицом вниз; остальные его приказы — рядом лицом вверх, как разыгранные (из новой стопки, если "
                  "сложена). Затем отмените на поле то, что сделал ход (см. Журнал).",
    ("uk", "uk"): "Скасовано: хід Красса з тайлом C, що склав його стос заново. Його стос — лише тайл C долілиць; "
                  "інші його тайли — поруч горілиць, як розіграні (з нового стосу, якщо складено). Потім скасуйте "
                  "на полі те, що зробив хід (див. Журнал).",
    ("ru", "en"): "Undone: Crassus's turn with tile В, which remade his stack. His stack is tile В alone, face "
                  "down; his other tiles lie face up beside it as played (from the new stack, if made). Then take "
                  "back on the board what the turn did (see the Log).",
}


@pytest.mark.parametrize("edition, lang", sorted(UNDO_NEW_STACK))
def test_undoing_the_turn_that_made_his_new_stack_says_how_to_lay_the_tiles_back(state_dir, edition, lang):  # S-5
    """With the box's tiles, the turn that ran his stack out had the table shuffle a new stack
    (RU: all six tiles; UA: all but the one just drawn, set aside). Undoing that turn said only
    "Undone: Crassus: Tile C — drew …": the device's stack was his one tile C again, the
    table's a shuffled new one, and the tile picker then offered C alone while the table turned
    up any tile. Now the undo says first how to lay the tiles as the device has them again (the
    same under either edition's rule), in the edition's letters; the note, the log after a
    restart and the device's stack agree."""
    from firmware.console import Console
    from firmware.store import Store
    console = Console(Store(state_dir), None)
    console.request(f"settings language={lang}")
    assert console.request(f"new caesar-solo tiles-input=physical edition={edition} seed=3")["ok"]
    for tile in "AAABB":                                  # five of his six tiles (normal: 3A 2B 1C)
        assert console.request(f"crassus tile={tile}")["ok"]
        _your_turn(console)
    assert console.request("crassus tile=C")["new_stack"]     # his stack runs out: the table makes a new one
    console.close()
    app = app_with([], [], state_dir, lang)
    try:
        app.ask_undo()
        app.handle("a")                                   # A: undo
        note = app.stack[-1]
        assert isinstance(note, TextScreen) and app.errors == 0
        said = " ".join(note.rows).replace("- ", "-")
        assert said.startswith(UNDO_NEW_STACK[edition, lang].replace("- ", "-")[:60]), said
        joined = "".join(note.rows).replace(" ", "")
        assert UNDO_NEW_STACK[edition, lang].replace(" ", "") in joined
        assert app.view()["tiles"]["stack_left"] == "C" and app.view()["tiles"]["played"] == list("AAABB")
    finally:
        app.console.close()
    store = Store(state_dir)                              # a restart: the log says it the same way
    again = Console(store, store.resume())
    try:
        again.request(f"settings language={lang}")
        assert again.request("log 1")["log"][0].startswith(UNDO_NEW_STACK[edition, lang])
    finally:
        again.close()



def test_his_tiles_now_say_where_each_tile_is_before_and_after_an_undo(state_dir):   # S-3, S-5
    """Home → Command tiles: A on the deck's row and on "? = contents not verified" did nothing.
    Now the deck's row says where his tiles are — in his stack face down, turned up, played face
    up — so the table can be checked against the device, after an undo of the turn that made his
    stack anew too (his tile В alone in his stack again); the ? row says what it means (S-4)."""
    from firmware.screens.caesar.tiles import TilesScreen
    console_lines = ["new caesar-solo tiles-input=physical edition=ru seed=3"]
    app = app_with(console_lines, [], state_dir, lang="ru")
    try:
        for tile in "AAABB":
            assert app.console.request(f"crassus tile={tile}")["ok"]
            _your_turn(app.console)
        assert app.console.request("crassus tile=C")["new_stack"]

        def tiles_now() -> list[str]:
            app.stack[1:] = [CaesarHome(), TilesScreen()]
            app.render()
            screen = app.stack[-1]
            labels = [str(i.label) for i in screen.items(app)]
            for _ in range(next(k for k, label in enumerate(labels) if label.startswith("Стопка"))):
                app.handle("down")
            app.handle("a")
            shown = app.stack[-1]
            assert isinstance(shown, TextScreen) and shown.title == "Его приказы сейчас"
            return list(shown.rows)

        assert tiles_now() == ["В его стопке, лицом", "вниз: 3×А 2×Б 1×В", "Разыграны, лицом", "вверх: нет"]
        app.ask_undo()
        app.handle("a")
        assert tiles_now() == ["В его стопке, лицом", "вниз: 1×В", "Разыграны, лицом", "вверх: 3×А 2×Б"]
        app.handle("b")
        screen = app.stack[-1]
        for _ in range(len(screen.items(app)) - 1 - screen.cursor):     # the last row: "? = состав не проверен"
            app.handle("down")
        app.handle("a")
        assert isinstance(app.stack[-1], TextScreen) and " ".join(app.stack[-1].rows).startswith("В правилах названы")
        assert app.errors == 0
    finally:
        app.console.close()

@pytest.mark.parametrize("tiles", ["physical", "digital"])
def test_undoing_his_turn_says_to_put_the_box_s_tile_back_on_his_stack(state_dir, tiles):  # S-5
    """With the box's tiles, an undone turn of his leaves the tile he turned up on his played
    tiles at the table while the device has it back on his stack: the next tile turned up at the
    table would then be another one. The undo says to put it back face down on top of his stack;
    with the device's tiles there is nothing of the kind to do and it says nothing of it."""
    tile = " tile=A" if tiles == "physical" else ""
    app = app_with([f"new caesar-solo tiles-input={tiles} seed=3", f"crassus{tile}", READ], [], state_dir)
    try:
        letter = app.view()["last_crassus_turn"]["tile"]
        app.ask_undo()
        app.handle("a")
        said = " ".join([*app.message] if app.message else app.stack[-1].rows)
        if tiles == "physical":
            assert said.startswith(f"Undone: Crassus's turn with tile {letter}. Put tile {letter} face down on top "
                                   "of his stack; take back on the board what the turn did"), said
        else:
            assert said.startswith(f"Undone: Crassus's whole turn with tile {letter}. Take back on the board "
                                   "what it did") and "stack" not in said, said
        assert app.view()["tiles"]["played"] == []
    finally:
        app.console.close()

def test_your_move_can_be_chosen_on_the_map_or_in_a_list(state_dir):   # issue 23 §4
    app = app_with([NEW, "crassus", READ], ["a", "a"], state_dir)
    try:
        screen = app.stack[-1]
        assert isinstance(screen, PlayMap) and "A: here" in texts(app)
        start = PROVINCES[screen.cursor]
        assert start == expected_start(app, "IT")           # no move of yours yet: from the centre
        app.handle("press")                                     # the same choice as a list
        picker = app.stack[-1]
        assert isinstance(picker, ProvincePicker)
        codes = picker.codes(app)
        assert codes == sorted(codes, key=PROVINCES.index)     # the board's order, every turn
        app.handle("b")
        app.handle("a")                                        # that province's options
        assert isinstance(app.stack[-1], OptionScreen) and app.stack[-1].code == start
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
        assert not RULE_ID.search(why.title) and not RULE_ID.search(" ".join(why.rows))   # rule IDs: the log
        for step in ("capture", "close", "defend", "reinforce", "expand", "center", "anywhere", None):
            for room in (base.COLS - 4, base.COLS - 6):              # "2/5", "10/12" beside the title
                t = step_title(step, room)
                assert len(t) <= room and not t.endswith("…") and not RULE_ID.search(t)
            w = why_screen({"step": step, "rule": "S-19" if step is None else "S-14", "why": "x " * 60})
            status = f"1/{len(w.rows)}"                               # what the title bar shows beside it
            assert len(w.title) + len(status) + 1 <= base.COLS and not RULE_ID.search(w.title)
            assert not RULE_ID.search(" ".join(w.rows))
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
    "modules": {"poison": True, "border_control": True},          # face-down options too (C-21)
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
def test_every_useless_might_row_takes_two_lines_at_most(lang):   # C-15
    """Might's list marks a flip that changes nothing (useless); the mark made a row three lines
    long in Russian («Д. Испания–Б. Испания (впустую)», its numbers on a line of their own) and in
    Ukrainian on Hispania Ulterior–Mauretania, short names and all. Every space with the widest
    numbers and every control marker, marked, takes two lines at most now, as unmarked ones do
    (ru «(зря)»; that one uk row has its mark before the names)."""
    from engine.caesar.board import SPACES
    from firmware.i18n import set_language
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.words import pn, pn_short, space_name, useless
    from firmware.screens.widgets import Item, item_rows
    try:
        set_language(lang)
        rows = [(useless(space_name(sid), space_name(sid, short=True), "6/0"), "6/0") for sid in SPACES]
        rows += [(useless(_("marker in {}").format(pn(p)), _("marker in {}").format(pn_short(p))), "") for p in PROVINCES]
        assert [row for row, note in rows if len(item_rows(Item(row, None, note))) > 2] == []
        assert all(re.search(r"\(\w+\)", row) for row, _note in rows)            # each marked
    finally:
        set_language("en")


@pytest.mark.slow               # a walk through every Caesar! screen, 2 s a language
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_no_caesar_row_is_cut(state_dir, lang):
    from engine.caesar.board import PROVINCES
    from firmware.screens.caesar.board import BoardScreen
    from firmware.screens.caesar.setup import setup_form
    cut: list[str] = []
    app = app_with([NEW, MIGHT_LONG], ["a"], state_dir, lang=lang)       # the home screen
    try:
        cut += cut_rows(app)
        for mode in (0, 1):                                   # every row, every value, the cursor on it
            form = setup_form()
            app.push(form)
            cut += walk(app, ["right"] * mode + ["down"])    # Players: solo, then duel
            for _ in range(len(form.visible()) - 1):
                cut += walk(app, ["right"] * 3 + ["left"] * 3 + ["down"])
            assert app.stack[-1] is form
            app.pop()
        board = BoardScreen()                                 # the 18 provinces with their status
        app.push(board)
        cut += walk(app, ["down"] * len(PROVINCES))
        app.pop()
        cut += walk(app, ["a", "press"])                      # your move: every province, every option
        picker = app.stack[-1]
        assert isinstance(picker, ProvincePicker)
        for _ in picker.codes(app):
            cut += walk(app, ["a"])
            assert isinstance(app.stack[-1], OptionScreen)
            cut += walk(app, ["down"] * 8 + ["b", "down"])
        app.handle("b")
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


# -- issue 23: in step with the board ----------------------------------------------------------
def test_resume_lands_on_the_first_page_not_read(state_dir):   # issue 23 §2
    """A power cut in the middle of his turn: opening the game again shows the first page the
    player had not turned (the caesar.read setting, written on every page turn), not your move."""
    app = app_with([NEW, CRASSUS_CLOSES], ["a", "a"], state_dir)     # his turn: tile, play, closure
    kinds = [p["kind"] for p in app.stack[-1].pages]
    assert kinds == ["tile", "play", "close"] and app.stack[-1].page == 0
    app.handle("a")                                                # the tile page read
    record = app.view()["last_crassus_turn"]
    assert app.settings["caesar.read"] == f"{game(app)}/{record['read_id']}:1"
    app.console.close()           # the device stops (a real kill: the slow test below); it starts again
    again = _app_with([], ["a"], state_dir)                        # main menu → Resume: Caesar!
    try:
        turn = again.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "play"
        assert isinstance(again.stack[-2], CaesarHome)
        again.handle("a")                                          # the play read too: the closure next
        assert again.settings["caesar.read"] == f"{game(again)}/{record['read_id']}:2"
    finally:
        again.console.close()
    third = _app_with([], ["a"], state_dir)
    try:
        turn = third.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "close"
        for rows in (2, 5):                                        # A: the rest of the closure page first
            third.handle("a")                                      # (the border marker's sentence from its
                                                                   # start, then the Senate's marker);
            assert third.stack[-1] is turn                         # the rows above it are read
            assert third.settings["caesar.read"] == f"{game(third)}/{record['read_id']}:2@{rows}"
        shown = texts(third)
        assert "goes under it." in shown
    finally:
        third.console.close()                                      # the power goes at the page's end
    fourth = _app_with([], ["a"], state_dir)
    try:
        turn = fourth.stack[-1]                                    # where the reader was, not the page's top
        assert isinstance(turn, TurnScreen) and texts(fourth) == shown
        fourth.handle("a")                                         # the whole turn read: your move
        assert fourth.settings["caesar.read"] == f"{game(fourth)}/{record['read_id']}:3"
        assert isinstance(fourth.stack[-1], PlayMap)
    finally:
        fourth.console.close()
    fifth = _app_with([], ["a"], state_dir)
    try:
        assert isinstance(fifth.stack[-1], CaesarHome)              # nothing left unread
        assert fifth.stack[-1].items(fifth)[0].label == "Your move"
    finally:
        fifth.console.close()


def test_a_power_cut_on_his_tiles_notes_resumes_on_the_notes(state_dir):   # S-3 tile E, issue 23 §2
    """His tile's notes on a screen of their own (the same page of his turn's record as the tile's
    screen): the tile's screen read (A), the power goes while the notes are shown. Opening the game
    again shows the notes, not the tile's screen already read (it showed the tile's screen again:
    the read count knew only whole pages of the record)."""
    new = "new caesar-solo seed=3 centurions=1 difficulty=hard tiles-input=physical"
    app = app_with([new, "crassus tile=E"], ["a"], state_dir)
    kinds = [p["kind"] for p in app.stack[-1].pages]
    assert kinds[:3] == ["tile", "notes", "play"]
    app.handle("a")                                                # the tile's screen read: its notes
    assert app.stack[-1].pages[app.stack[-1].page]["kind"] == "notes"
    shown = texts(app)
    app.console.close()                                            # the power goes on the notes
    again = _app_with([], ["a"], state_dir)                        # main menu → Resume: Caesar!
    try:
        turn = again.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "notes"
        assert texts(again) == shown
        again.handle("left")                                       # the tile's screen is one back
        assert turn.pages[turn.page]["kind"] == "tile"
        again.handle("a")
        while turn.pages[turn.page]["kind"] == "notes":           # A: the notes read to their end
            again.handle("a")
        assert turn.pages[turn.page]["kind"] == "play"
    finally:
        again.console.close()
    third = _app_with([], ["a"], state_dir)
    try:
        turn = third.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "play"
    finally:
        third.console.close()


def test_the_screens_read_of_a_page_never_skip_one_not_read():   # issue 23 §2
    """``caesar.read`` counts the screens read of a page said on two (the tile, then its notes):
    the first screen not read is the notes; if the notes fit under the tile now (another language),
    the tile's screen, which says them; a count it cannot read, the turn's first screen. The rows
    of a screen read on with A follow ``@``; the last four turns, the latest first."""
    from firmware.screens.caesar.reading import read_at
    from firmware.screens.caesar.turn import first_page
    two = [{"kind": "tile", "at": 0}, {"kind": "notes", "at": 0}, {"kind": "play", "at": 1}]
    one = [{"kind": "tile", "at": 0}, {"kind": "play", "at": 1}]
    assert [first_page(two, 0, n) for n in (0, 1, 2)] == [0, 1, 1]
    assert [first_page(one, 0, n) for n in (0, 1)] == [0, 0]
    assert first_page(two, 1, 1) == 2 and first_page(two, 2) == 3
    from firmware.screens.caesar import reading
    g = reading._session(FakeCtx())                                  # (no session: named by its checksum)
    for stored, said in (("c1-x:0+1", (0, 1, 0)), ("c1-x:2", (2, 0, 0)), ("c1-x:1+", (0, 0, 0)),
                         ("c1-x:1+a", (0, 0, 0)), ("c2-y:3", (0, 0, 0)), ("", (0, 0, 0)), ("p2-z:1,c1-x:0+1", (0, 1, 0)),
                         ("c2-y:3,c1-x:2,p1-w:5", (2, 0, 0)), ("c1-x:2@3", (2, 0, 3)), ("c1-x:0+1@4", (0, 1, 4)),
                         ("c1-x:2@", (0, 0, 0))):
        stored = ",".join(f"{g}/{e}" for e in stored.split(",")) if stored else ""
        assert read_at(FakeCtx(settings={"caesar.read": stored}), "c1-x") == said, stored
    from firmware.screens.caesar.reading import mark_read, unread_from
    ctx = FakeCtx(settings={"caesar.read": f"{g}/c1-x:3"})
    for n, turn in enumerate(["p1-a", "c2-b", "p2-c", "c3-d"]):      # the latest first, four kept
        unread_from(ctx, turn, 0)
        mark_read(ctx, turn, n + 1)
    assert ctx.settings["caesar.read"] == f"{g}/c3-d:4,{g}/p2-c:3,{g}/c2-b:2,{g}/p1-a:1"   # (the oldest dropped)
    unread_from(ctx, "c2-b", 1)                                      # played again the same way: unread from 1
    assert ctx.settings["caesar.read"] == f"{g}/c2-b:1,{g}/c3-d:4,{g}/p2-c:3,{g}/p1-a:1"


def test_the_turns_read_are_kept_per_game_and_bounded():   # S-5
    """``caesar.read`` names each entry's game: an older version's entries (none named) read as
    the running game's when one names his turn it holds, and are written under it at the next
    write; else they are another game's, kept as they are; each game keeps its last four
    turns, the running game's first, then the games last written, as many whole as fit in a
    setting (512 characters: with the longest entries, three games); after a hundred games the
    setting is no longer, and an older game's are dropped, never the running game's."""
    from firmware.fairness import FairDraw
    from firmware.screens.caesar.reading import mark_read, read_at, unread_from
    from firmware.settings import MAX_VALUE
    ctx = FakeCtx(settings={"caesar.read": "c1-old:2,p1-old:1+1"})
    his = ["c1-old"]                                                # his last turn, as the game holds it
    ctx.view = lambda: {"commitment": None, "last_crassus_turn": {"id": his[0], "read_id": his[0]}}  # type: ignore

    def play(n: int) -> None:
        ctx.fair_draw = lambda: FairDraw(None, None, False, False, None, None, session=f"{n:016x}")   # type: ignore[method-assign]

    play(0)
    assert read_at(ctx, "c1-old") == (2, 0, 0) and read_at(ctx, "p1-old") == (1, 1, 0)
    for n in range(100):
        play(n)
        for t in range(55, 60):                                     # his turns 55-59, each read on to row 45
            unread_from(ctx, f"c{t}-{n:08x}", 0)
            mark_read(ctx, f"c{t}-{n:08x}", 12, 3, 45)
        stored = ctx.settings["caesar.read"]
        assert len(stored) <= MAX_VALUE and stored.startswith(f"{n:016x}/c59-{n:08x}:12+3@45,"), stored
        assert [read_at(ctx, f"c{t}-{n:08x}") for t in (59, 56, 55)] == [(12, 3, 45)] * 2 + [(0, 0, 0)]
        for back in (1, 2):                                        # the two games before: still read
            if n >= back:
                play(n - back)
                assert read_at(ctx, f"c59-{n - back:08x}") == (12, 3, 45), (n, back)
                play(n)
    play(0)
    assert read_at(ctx, "c59-00000000") == (0, 0, 0)               # a hundred games ago: dropped
    assert read_at(ctx, "c1-old") == (0, 0, 0)                     # (adopted by game 0, dropped with it)
    play(7)
    ctx.settings["caesar.read"] = "c1-old:2"
    mark_read(ctx, "c2-new", 1)                                     # an older version's entry kept, under game 7
    assert ctx.settings["caesar.read"] == f"{7:016x}/c2-new:1,{7:016x}/c1-old:2"
    play(8)
    assert read_at(ctx, "c1-old") == (0, 0, 0)                     # another game's now
    ctx.settings["caesar.read"] = "c1-old:2,p1-old:1"
    his[0] = "c5-other"                                             # game 9 holds another turn of his:
    play(9)
    assert read_at(ctx, "p1-old") == (0, 0, 0)                     # your placement may be any game's
    mark_read(ctx, "p3-new", 1)
    assert ctx.settings["caesar.read"] == f"{9:016x}/p3-new:1,c1-old:2,p1-old:1"     # kept, for its game
    his[0] = "c1-old"
    play(10)
    assert read_at(ctx, "p1-old") == (1, 0, 0) and read_at(ctx, "p3-new") == (0, 0, 0)


@pytest.mark.parametrize("leave", ["b", "left"])
def test_b_on_his_turn_counts_as_read(state_dir, leave):
    """B leaves his turn and counts it read; so does left on its first page, which leaves it too
    (it left the turn unread: the home showed, and after a power cut the turn came back)."""
    app = app_with([NEW], ["a", "a", leave], state_dir)
    try:
        record = app.view()["last_crassus_turn"]
        assert app.settings["caesar.read"] == f"{game(app)}/{record['read_id']}:{len(record['pages'])}"
        assert isinstance(app.stack[-1], CaesarHome)
    finally:
        app.console.close()
    again = _app_with([], ["a"], state_dir)
    try:
        assert isinstance(again.stack[-1], CaesarHome)
    finally:
        again.console.close()


def test_his_turn_taken_back_and_played_again_is_unread_after_a_power_cut(state_dir):   # S-5, issue 23 §2
    """His turn read to its end, taken back (hold B), then played again on the device: the same
    tile from the same stack gives the same turn, with the same id. A power cut on its first page:
    the device opens on that page again (it opened on your move, as if the turn played again had
    been read, so the pieces taken off the board for the undo were never put back)."""
    app = app_with([NEW, CRASSUS_CLOSES], ["a", "a", "b"], state_dir)      # his turn, read (B)
    first = app.view()["last_crassus_turn"]
    assert app.settings["caesar.read"] == f"{game(app)}/{first['read_id']}:{len(first['pages'])}"
    app.handle("b:hold")
    app.handle("a")                                                 # take back his turn
    while app.message is not None or isinstance(app.stack[-1], TextScreen):
        app.handle("a")
    assert isinstance(app.stack[-1], CaesarHome) and app.view()["turn"] == "crassus"
    app.handle("a")                                                 # his turn again: its first page
    again = app.view()["last_crassus_turn"]
    assert again["steps"] == first["steps"] and isinstance(app.stack[-1], TurnScreen)
    assert app.stack[-1].page == 0
    app.console.close()                                             # the power goes
    back = _app_with([], ["a"], state_dir)                          # main menu → Resume: Caesar!
    try:
        turn = back.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "tile", type(turn).__name__
    finally:
        back.console.close()


def test_your_closure_taken_back_and_made_again_is_unread_after_a_power_cut(state_dir):   # C-8, C-15
    """Your placement closes Hispania Ulterior (its Might bonus): its closure read, the placement
    taken back and made again the same way; a power cut on the closure's page shows it again."""
    app = app_with([NEW, HU_MIGHT], ["a", "a", "press", "a", "a"], state_dir)   # placed: the closure
    assert isinstance(app.stack[-1], TurnScreen) and app.stack[-1].pages[0]["kind"] == "close"
    app.handle("b")                                                 # read (B): the Might question
    record = app.view()["last_player_turn"]
    assert app.settings["caesar.read"] == f"{game(app)}/{record['read_id']}:{len(record['pages'])}"
    while not isinstance(app.stack[-1], CaesarHome):
        app.handle("b")
    app.handle("b:hold")
    app.handle("a")                                                 # take back the placement
    while app.message is not None or isinstance(app.stack[-1], TextScreen):
        app.handle("a")
    assert app.view()["step"] == "play"
    app.handle("a")                                                 # your move: the same placement again
    app.handle("press")
    app.handle("a")
    app.handle("a")
    assert app.view()["last_player_turn"]["read_id"] == record["read_id"] and isinstance(app.stack[-1], TurnScreen)
    app.console.close()                                             # the power goes on its closure
    back = _app_with([], ["a"], state_dir)
    try:
        turn = back.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "close", type(turn).__name__
    finally:
        back.console.close()


def test_his_turn_taken_back_then_a_power_cut_does_not_show_your_turn_again(state_dir):   # C-8, issue 23 §2
    """Your placement closes Hispania Ulterior (its Senate), its page read; his turn runs and is
    read; hold B takes his turn back. Your turn is then the game's last (``current``), and a power
    cut showed its closure again, read before his turn: the setting named his turn only. It keeps
    the last turns read now, and the device opens on its home (his turn to play again)."""
    position = json.loads(HU_MIGHT.split(" ", 1)[1])
    position["bonuses"] = {"HU": "senate"}
    app = app_with([NEW, "position " + json.dumps(position)], ["a", "a", "press", "a", "a", YES], state_dir)
    mine = app.view()["last_player_turn"]                           # (a: the preview's whole text, then placed)
    assert isinstance(app.stack[-1], TurnScreen) and app.stack[-1].record == mine["read_id"]
    for _ in range(30):                                             # your closure, then his whole turn
        if isinstance(app.stack[-1], PlayMap):
            break
        app.handle("a")
    assert isinstance(app.stack[-1], PlayMap) and app.view()["last_crassus_turn"]["current"]
    his = app.view()["last_crassus_turn"]
    assert app.settings["caesar.read"].split(",")[:2] == [f"{game(app)}/{his['read_id']}:{len(his['pages'])}",
                                                          f"{game(app)}/{mine['read_id']}:{len(mine['pages'])}"]
    app.handle("b:hold")
    app.handle("a")                                                 # take back his turn
    while app.message is not None or isinstance(app.stack[-1], TextScreen):
        app.handle("a")
    view = app.view()
    assert view["turn"] == "crassus" and view["last_player_turn"]["current"] and view["last_player_turn"]["read_id"] == mine["read_id"]
    app.console.close()                                             # the power goes
    back = _app_with([], ["a"], state_dir)                          # main menu → Resume: Caesar!
    try:
        assert isinstance(back.stack[-1], CaesarHome), type(back.stack[-1]).__name__
        assert back.stack[-1].items(back)[0].label == "Crassus's turn"
    finally:
        back.console.close()


def test_your_turn_read_before_an_update_resumes_where_it_was(state_dir):   # C-6, C-8
    """An older version kept the pages read of your turn under its ``id`` (a checksum of all its
    steps); this one keeps them under its ``read_id`` (its placement). Your closure read, then the
    update and the power: the device showed the closure again; it opens on the draw's page now."""
    position = json.loads(HU_MIGHT.split(" ", 1)[1])
    position["bonuses"] = {"HU": "senate"}
    app = app_with([NEW, "position " + json.dumps(position)], ["a", "a", "press", "a", "a", YES], state_dir)
    record = app.view()["last_player_turn"]
    assert [p["kind"] for p in record["pages"]] == ["close", "draw"] and record["id"] != record["read_id"]
    assert app.console.request(f"settings caesar.read={record['id']}:1")["ok"]     # as the older version kept it
    app.console.close()                                             # the update, the power
    back = _app_with([], ["a"], state_dir)
    try:
        turn = back.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "draw", type(turn).__name__
    finally:
        back.console.close()


def test_your_draw_taken_back_then_a_power_cut_does_not_show_your_closure_again(state_dir):   # C-6, C-8
    """Your placement closes Hispania Ulterior, its page read; the device draws your token, his
    turn runs, all read. Hold B twice takes back his turn, then your draw (the way to take back
    a move). A power cut then showed your closure again: the turn's id changed with the draw
    taken back, so its pages read were not known. Your turn is named by its placement now; the
    device opens on its home (the draw to make again), and the draw's page comes after it."""
    position = json.loads(HU_MIGHT.split(" ", 1)[1])
    position["bonuses"] = {"HU": "senate"}
    app = app_with([NEW, "position " + json.dumps(position)], ["a", "a", "press", "a", "a", YES], state_dir)
    mine = app.view()["last_player_turn"]
    for _ in range(30):
        if isinstance(app.stack[-1], PlayMap):
            break
        app.handle("a")
    for _ in range(2):                                              # his turn, then your draw
        app.handle("b:hold")
        app.handle("a")
        while app.message is not None or isinstance(app.stack[-1], TextScreen):
            app.handle("a")
    view = app.view()
    assert view["step"] == "draw" and [p["kind"] for p in view["last_player_turn"]["pages"]] == ["close"]
    assert view["last_player_turn"]["steps"] == mine["steps"][:-1]             # the draw gone
    app.console.close()                                             # the power goes
    back = _app_with([], ["a"], state_dir)
    try:
        assert isinstance(back.stack[-1], CaesarHome), type(back.stack[-1]).__name__
        back.handle("a")                                            # the draw: its page only
        turn = back.stack[-1]
        assert isinstance(turn, TurnScreen) and [p["kind"] for p in turn.pages[turn.page:]] == ["draw"]
    finally:
        back.console.close()


@pytest.mark.slow
@pytest.mark.parametrize("lines, presses, kind", [
    ([NEW, CRASSUS_CLOSES], 3, "play"),                             # Resume, his turn, the tile page read
    (["new caesar-solo seed=3 centurions=1 difficulty=hard tiles-input=physical", "crassus tile=E"], 2, "notes"),
])
def test_a_kill_in_the_middle_of_his_turn_resumes_on_the_page_not_read(state_dir, lines, presses, kind):   # issue 23 §2
    """The device program itself (legatus --sim --script) killed with SIGKILL after the first page
    of his turn was turned; started again, its first frame after Resume is the screen it was on:
    his play's page, or his tile's notes on a screen of their own (it was the tile's, read)."""
    import subprocess
    import sys
    killed_after_presses(state_dir, lines, presses)             # the power goes in the middle of his turn
    keys = state_dir / "keys.txt"
    keys.write_text("a\n")
    out = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(keys),
                          "--state-dir", str(state_dir)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.split("--- frame after: a")[-1].split("\n", 1)[1].strip("\n")
    from firmware.terminal import to_braille
    app = _app_with([], ["a"], state_dir)                          # the same screen, drawn here
    try:
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == kind
        assert to_braille(app.render()).strip("\n") == last
        turn.page = 0                                              # (the frame tells the pages apart)
        assert to_braille(app.render()).strip("\n") != last
    finally:
        app.console.close()


def test_the_closure_preview_names_both_provinces_and_the_end(state_dir):   # C-7, C-9, C-10, C-12
    app = app_with([NEW, DOUBLE], ["a", "a", "a"], state_dir)     # your move: Italia, a sword on IT-GC
    try:
        screen = app.stack[-1]
        assert isinstance(screen, OptionScreen) and screen.code == "IT"
        said = screen.preview(app, screen.options(app)[0])
        assert said[0].startswith("You take it 12–3, ")       # the title's: yours first, you 12, he 3
        assert said[1].startswith("Gallia Cisalpina: you take it 5–3, ")
        assert "Gallia Cisalpina" in " ".join(texts(app)) or "A: all it does" in texts(app)
        assert not cut_rows(app)
        app.handle("a")                                            # more than fits: all of it first
        question = app.stack[-1]
        assert isinstance(question, ConfirmScreen) and not app.console.session.lines[2:]
        assert "Gallia Cisalpina: you take it 5–3" in " ".join(question.rows)
        say_yes(app)
        assert app.console.session.lines[-2:] == ["play IT-GC sword:5/1 IT", "draw"]
        closures = [p for p in app.stack[-1].pages if p["kind"] == "close"]
        assert {p["step"]["province"] for p in closures} == {"IT", "GC"}
    finally:
        app.console.close()


def test_a_closure_page_gives_your_score_first(state_dir):   # issue 23 §3: one order for a score
    app = app_with([NEW, CRASSUS_CLOSES], ["a", "a", "a", "a"], state_dir)
    try:
        screen = app.stack[-1]
        assert screen.pages[screen.page]["kind"] == "close"
        shown = texts(app)
        assert shown[0] == "Syria closed" and "You 3–3 Crassus" in shown      # he takes the tie (S-8)
        log = app.console.request("log 1")["log"][0]
        assert "you 3–3 Crassus" in log
    finally:
        app.console.close()


def test_his_centurion_from_the_stack_is_said_on_the_tile_page(state_dir):   # S-3 centurions: tile E
    new = "new caesar-solo seed=3 centurions=1 difficulty=hard tiles-input=physical"
    app = app_with([new, "crassus tile=E"], ["a"], state_dir)
    try:
        turn = app.stack[-1]
        assert [p["kind"] for p in turn.pages][:2] == ["tile", "notes"]
        cent = next(s for s in app.view()["last_crassus_turn"]["steps"] if s["action"] == "centurion")
        assert cent["token"] in turn.pages[0]["into"]                    # the 7/0 (or another) into his row
        app.handle("a")
        said = " ".join(turn._rows(turn.pages[turn.page], app.view()))
        assert "from his face-down centurions into his row" in said and not cut_rows(app)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_discard_skipped_for_his_empty_bag_is_said_once_on_the_tile_page(state_dir, lang):   # S-6
    """His bag empty, tile A (draw 2, play, discard 1): the draw's sentence says that he skips
    this turn's discard, and the skipped discard said it again — two sentences, too many for the
    tile's page, so the page said only «Nothing to draw or return.» and a page of its own followed
    (three presses in Russian for one fact). Now the tile's page says it once, and his play is next."""
    from firmware import i18n
    every = ",".join(f'"{TOKENS[i].name}"' for i in range(16))
    lines = ["new caesar-solo seed=3 tiles-input=physical", f'position {{"crassus_row": [{every}]}}', "crassus tile=A"]
    app = app_with(lines, ["a"], state_dir, lang=lang)
    try:
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and [p["kind"] for p in turn.pages][:2] == ["tile", "play"]
        from firmware.screens.caesar.text import say
        steps = app.view()["last_crassus_turn"]["steps"]
        assert [s["action"] for s in steps][::2] == ["draw", "discard"] and steps[-1]["skipped"]
        shown = " ".join(texts(app)[2:])                                  # under the title and 1/n
        assert shown == say(steps[0]["text"]) and not cut_rows(app)     # the draw's sentence, whole, once
        app.handle("a")
        assert turn.pages[turn.page]["kind"] == "play"
    finally:
        i18n.set_language("en")
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_centurion_he_turned_up_is_asked_under_a_whole_title(state_dir, lang):   # S-3 centurions: D, E
    """Physical tiles and bag, tile E: the tokens he drew, then which face-down centurion came up;
    the question's title is whole in every language (uk was «Відкрито центурі…»)."""
    from firmware.screens.caesar.flow import crassus_turn
    new = ("new caesar-solo seed=3 centurions=1 difficulty=hard tiles-input=physical bag-input=physical "
           "row=sword:6/0,ship:5/1,wild:2/2")
    app = app_with([new, "draw shield:3/3", "draw shield:4/2"], ["a"], state_dir, lang=lang)
    try:
        app.message = None
        app.stack = app.stack[:1]
        crassus_turn(app)
        picker = app.stack[-1]
        assert isinstance(picker, TilePicker)
        while picker.letters[picker.cursor] != "E":
            app.handle("down")
        app.handle("a")                                               # tile E: centurion, draw 1, play, play
        app.handle("a")                                               # the token he drew
        assert isinstance(app.stack[-1], TokenPicker) and app.stack[-1].count == 1
        shown = texts(app)
        assert not any("…" in t for t in shown), shown
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,said", [("en", "He would place {t} on {s}, {v} toward {p}."),
                                        ("ru", "Он положил бы {t} в ячейку {s}, {v} к провинции {p}."),
                                        ("uk", "Він поклав би {t} на зону {s}, {v} до провінції {p}.")])
def test_crassus_would_says_the_play_before_why(state_dir, lang, said):   # S-9..S-18
    """Home → "Crassus would…": the play he would make (token, space, the value toward the
    province) first, then why; it showed only why, so the prediction could not be checked on the
    board («Почему: Усиление … туда он кладёт жетон с максимальным значением»)."""
    from firmware.screens.caesar.words import pn, space_name, tok
    app = app_with([NEW, "crassus", READ], ["a"], state_dir, lang=lang)
    try:
        _home_row(app, "decide")
        d = app.console.request("decide")
        assert d["space"] is not None and not d.get("random")
        body = " ".join(app.stack[-1].rows)
        play = said.format(t=tok(d["token"]), s=space_name(d["space"]), v=d["toward"][d["province"]], p=pn(d["province"]))
        assert body.startswith(play.split(" ")[0]) and play in body.replace("– ", "–")
        assert body.index(play.split(",")[0]) < body.index("«" if lang != "en" else "point")
    finally:
        app.console.close()



@pytest.mark.parametrize("lang,said", [
    ("en", "Tile A: he takes 2 more tokens into his row before he plays, and his play depends on them. Name them "
           "under “Crassus's turn”."),
    ("ru", "Приказ А: перед тем как сыграть, он берёт в ряд ещё 2 жетона, и его ход зависит от них. Укажите их "
           "в пункте «Ход Красса»."),
    ("uk", "Тайл A: перш ніж зіграти, він бере в ряд ще 2 жетони, і його хід залежить від них. Вкажіть їх у пункті "
           "«Хід Красса».")])
def test_crassus_would_with_a_physical_bag_waits_for_the_tokens_his_tile_draws_first(state_dir, lang, said):  # S-5, S-8
    """His bag physical, his tile turned up (A: draw 2, play, discard 1) and the two tokens not
    yet named: "Crassus would…" said "He would place sword 6/0 on …" from the three tokens of his
    row, while at the table his row already had five and his play would come from those. Now it
    says his play waits for the tokens his tile takes first; with the device's tiles, before his
    tile is turned up, the play it says is marked as from his row as it is now."""
    edition = {"en": "mixed", "ru": "ru", "uk": "uk"}[lang]
    app = app_with([f"{PHYSICAL} edition={edition}", "draw wild:2/2", "draw sword:5/1", "reveal-tile"], ["a"],
                   state_dir, lang=lang)
    try:
        assert app.view()["tiles"]["revealed"] == "A"
        lines = list(app.console.session.lines)
        _home_row(app, "decide")
        assert " ".join(app.stack[-1].rows) == said
        assert app.console.session.lines == lines and app.errors == 0            # nothing played
        app.handle("b")
        assert app.console.request("undo")["ok"]                                 # the tile face down again
        app.render()
        _home_row(app, "decide")
        body = " ".join(app.stack[-1].rows)
        d = app.console.request("decide")
        assert body.startswith({"en": "His tile comes first", "ru": "Сначала он разыгрывает приказ",
                                "uk": "Спершу він розігрує тайл"}[lang]), body
        # «as it is now» in the reader's words (it said «по его ряду, как он есть сейчас», a calque)
        assert {"en": "this is from his row as it is now.", "ru": "здесь ход рассчитан по его нынешнему ряду.",
                "uk": "тут хід розраховано за його теперішнім рядом."}[lang] in body, body
        assert str(d["toward"][d["province"]]) in body
    finally:
        app.console.close()


def test_crassus_would_with_his_row_empty_says_his_tile_comes_first(state_dir):   # S-5, S-19
    """His row empty on your turn (Poison sent its last token back, C-17): "Crassus would…" said
    only "His row is empty: he cannot place a token and loses." while his bag held 16 tokens and
    his tile draws before he plays. Now it says first that his tile comes first and may add
    tokens to his row (a play he can make now is said without it: the test above)."""
    pos = {"crassus_row": [], "turn": "human", "human_hand": ["ship:3/3", "wild:2/2"]}
    app = app_with(["new caesar-solo seed=3", "position " + json.dumps(pos)], [], state_dir)
    try:
        assert app.view()["crassus"]["row"] == [] and app.view()["crassus"]["bag"] == 16
        app.stack[1:] = [CaesarHome()]
        _home_row(app, "decide")
        body = " ".join(app.stack[-1].rows)
        assert body == ("His tile comes first and may add tokens to his row; this is from his row as it is now. "
                        "His row is empty: he cannot place a token and loses."), body
    finally:
        app.console.close()

@pytest.mark.parametrize("lang,deck", [("en", "Deck 2×A 2×B 1×C 1×D"), ("ru", "Стопка 2×А 2×Б 1×В 1×Г"),
                                       ("uk", "Стос 2×A 2×B 1×C 1×D")])
def test_command_tiles_count_the_deck_as_the_rulebook_does(state_dir, lang, deck):   # S-3
    """Home → Command tiles: the deck counted as in the rulebook («2×А, 2×Б, 1×В, 1×Г»); its
    letters one by one wrapped as «Стопка А» / «А Б Б В Г», read as a tile named А."""
    from firmware.screens.caesar.tiles import TilesScreen
    app = app_with(["new caesar-solo seed=3 centurions=1"], ["a"], state_dir, lang=lang)
    try:
        labels = [str(i.label) for i in TilesScreen().items(app)]
        assert deck in labels
        # S-4: every tile's contents are unverified defaults, E too though it is not in this deck
        tiles = [x for x in labels if x.endswith("?")]
        assert len(tiles) == 5, labels
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,edition,deck,letter", [("ru", "uk", "Стопка 2×A 2×B 1×C 1×D", "C"),
                                                       ("uk", "ru", "Стос 2×А 2×Б 1×В 1×Г", "В")])
def test_the_tiles_are_the_chosen_edition_s_tiles_on_every_screen(state_dir, lang, edition, deck, letter):   # S-3
    """The tiles on the table are the chosen edition's (caesar-mori-rules-ru.txt: «2×А, 2×Б, 1×В,
    1×Г»; caesar-mori-rules-ua.txt: «2xA, 2xB, 1xC, 1xD»), whatever the language: the deck, the
    tile picker's large letter and the tile's title say them so (a Russian reader with the
    Ukrainian box saw «В» for his tile C, which is not his tile B)."""
    from firmware.screens.caesar.tiles import TilesScreen
    app = app_with([f"new caesar-solo seed=3 centurions=1 tiles-input=physical edition={edition}"], ["a"],
                   state_dir, lang=lang)
    try:
        labels = [str(i.label) for i in TilesScreen().items(app)]
        assert deck in labels, labels
        app.handle("a")
        picker = app.stack[-1]
        assert isinstance(picker, TilePicker)
        while picker.letters[picker.cursor] != "C":
            app.handle("down")
        assert letter in [t for _x, _y, t, kind in drawn(app) if kind == "huge"]
        app.handle("a")
        titles = [t for _x, y, t, _k in drawn(app) if y < 0]              # the title bar: his turn, tile C
        assert any(t.endswith(f" {letter}") for t in titles), titles
    finally:
        app.console.close()


def test_crassus_would_lists_a_random_tie_without_drawing(state_dir):   # issue 20; S-14 (UA), S-17
    app = app_with(["new caesar-solo seed=3 edition=uk", 'position {"crassus_row": ["wild:4/0"]}'], ["a"], state_dir)
    try:
        home = app.stack[-1]
        idents = [i.ident for i in home.items(app)]
        for _ in range(idents.index("decide")):
            app.handle("down")
        before, lines = json.loads(app.console.session.state_json), list(app.console.session.lines)
        app.handle("a")
        why = app.stack[-1]
        body = " ".join(why.rows)
        assert isinstance(why, TextScreen) and "at random" in body
        assert all(s in body.replace("- ", "") or s in body for s in ("Sardinia–Italia", "Sicilia–Italia",
                                                                     "Italia–Achaea"))
        assert json.loads(app.console.session.state_json) == before and app.console.session.lines == lines
    finally:
        app.console.close()


# -- the new-game form ---------------------------------------------------------------------------
@pytest.mark.parametrize("lang,edition", [("en", "mixed"), ("ru", "ru"), ("uk", "uk")])
def test_the_form_starts_with_the_language_s_rulebook(state_dir, lang, edition):   # issue 23 §1
    app = app_with([], ["a", "a", "a"], state_dir, lang=lang)     # Games → Caesar! → A: start (the code box goes)
    try:
        line = app.console.session.header["line"]
        assert f"edition={edition}" in line and "harder" not in line
    finally:
        app.console.close()


@pytest.mark.parametrize("harder", [0, 1, 2])
def test_the_forms_rulebook_follows_a_language_chosen_while_it_is_open(state_dir, harder):  # S-5, S-8, S-11
    """The form opened in Russian (its Rulebook row: the Russian, as nobody chose one), the
    language set to Ukrainian over the serial link, Start: the game follows the Ukrainian rulebook
    (S-5 keep-last, S-11 any, S-8 only with control), as one started from a form opened in
    Ukrainian does; the Harder row keeps the rule it says; and the form does not remember the
    Russian rulebook as the player's choice (every later game in Ukrainian played the Russian rules)."""
    from firmware.screens.caesar.setup import form_choices
    app = app_with([], ["a", "a", *["down"] * 7, *["right"] * harder], state_dir, lang="ru")  # Harder
    try:
        said = str(app.stack[-1].items(app)[app.stack[-1].cursor].value)
        assert app.serve_line(b"settings language=uk\n").startswith('{"ok":true')
        app.render()
        form = app.stack[-1]
        assert form.values()["edition"] == 1                           # Rulebook: Ukrainian
        rows = {i.ident: str(i.value) for i in form.items(app)}
        assert {0: "вимк", 1: "завжди", 2: "при захопленні"}[harder] in rows["field:harder"], (said, rows)
        for key in ["down"] * 12 + ["a"]:                              # Start
            app.handle(key)
            app.render()
        rules = app.console.request("state")["state"]["rules"]
        assert (rules["edition"], rules["reshuffle"], rules["defend"]) == ("uk", "keep-last", "any")
        assert rules["harder"] == {0: "off", 1: "always", 2: "control"}[harder]
        assert "edition" not in form_choices(app)
    finally:
        app.console.close()


def test_a_rulebook_chosen_on_the_form_stays_when_the_language_changes(state_dir):   # S-5, S-11
    app = app_with([], ["a", "a", *["down"] * 3, "right"], state_dir, lang="ru")   # Rulebook: UA
    try:
        assert app.stack[-1].values()["edition"] == 1
        for lang in ("en", "ru"):
            assert app.serve_line(f"settings language={lang}\n".encode()).startswith('{"ok":true')
            app.render()
            assert app.stack[-1].values()["edition"] == 1
    finally:
        app.console.close()


def test_the_form_sends_harder_when_only_where_it_differs_from_the_edition(state_dir):   # S-8
    from firmware.screens.caesar.setup import setup_form
    lines = []
    for harder in (1, 2):
        ctx = FakeCtx(lang="ru")
        form = setup_form(lambda c, lead: None, ctx)
        ctx.open(form)
        ctx.press(*["down"] * 7)                                      # Harder
        assert form.items(ctx)[form.cursor].ident == "field:harder"
        ctx.press(*["right"] * harder, "a")
        lines.append(next(x for x in ctx.lines if x.startswith("new ")))
    assert "harder=1 edition=ru" in lines[0] and "harder-when" not in lines[0]    # RU: always, as printed
    assert "harder=1 harder-when=control edition=ru" in lines[1]                  # the other way: said


@pytest.mark.parametrize("harder, word, when", [(1, "всегда", "always"), (2, "при захвате", "control")])
def test_changing_the_rulebook_keeps_the_harder_rule_chosen(state_dir, harder, word, when):   # S-8
    """The Harder row says its rule in words («всегда», «при захвате»); choosing the rulebook after
    it must not turn one into the other (the row's place means "as your rulebook says" / "the
    other way", which the two rulebooks swap: RU always, UA only with control)."""
    from firmware.screens.caesar.setup import setup_form
    ctx = FakeCtx(lang="ru")
    form = setup_form(lambda c, lead: None, ctx)
    ctx.open(form)
    ctx.press(*["down"] * 7, *["right"] * harder)                     # Harder, under the Russian rulebook
    assert word in str(form.items(ctx)[form.cursor].value)
    ctx.press(*["up"] * 4, "right")                                    # Rulebook: Ukrainian
    assert form.values()["edition"] == 1
    ctx.press(*["down"] * 4)
    assert form.items(ctx)[form.cursor].ident == "field:harder" and word in str(form.items(ctx)[form.cursor].value)
    ctx.press("a")
    line = next(x for x in ctx.lines if x.startswith("new "))
    assert "harder=1" in line and "edition=uk" in line
    assert ("harder-when=always" in line) == (when == "always")          # UA: only with control, as printed


def test_the_form_remembers_the_last_choices_and_a_duel_hides_solo_rows(state_dir):   # issue 23 §1, §2
    from firmware.screens.caesar.setup import setup_form
    ctx = FakeCtx(lang="ru")
    form = setup_form(lambda c, lead: None, ctx)
    ctx.open(form)
    ctx.press("down", "right", "down", "right", "down", "right", "down", "right", "a")  # Pompey, hard, UA, Poison
    assert "side=pompey difficulty=hard poison=1 edition=uk" in ctx.lines[-1]
    again = setup_form(lambda c, lead: None, ctx)
    values = again.values()
    assert (values["side"], values["diff"], values["edition"], values["poison"]) == (1, 2, 1, 1)
    ctx.open(again)
    ctx.press("right")                                               # Players: duel
    keys = [i.ident for i in again.items(ctx)]
    assert keys == ["field:mode", "field:poison", "field:cent", "field:bctl", "field:bags",
                    "seat:caesar", "seat:pompey",                          # the two people (issue 24 §1)
                    "fair:code", "fair:share", "start"]                    # the fair draw (issue 20)


# -- History in the player's words (issue 23 §3) ------------------------------------------------
YOU_WIN = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "crassus", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
    "turn": "human", "human_hand": ["ship:6/0", "ship:5/1"], "markers_left": {"human": 1, "crassus": 12}})
INTERNAL = re.compile(r"Caesar|Pompey|Crassus|border_control|harder|marker|\brulebook\b|_")


@pytest.mark.parametrize("lang,said", [
    # the Russian rulebook: «авто-Красс» inside a sentence («соревнуясь с авто-Крассом»), the expansion «Яды»
    ("ru", ("Авто-Красс (обычный) победил Цезаря; выставлено жетонов контроля: Цезарь — 0, авто-Красс — 12.",
            "Помпей победил авто-Красса (сложный); выставлено жетонов контроля: Помпей — 12, авто-Красс — 0.",
            "Русские правила", "Украинские правила", "Модули: Яды, Контроль границ, Сложнее")),
    ("uk", ("Авто-Красс (середній) переміг Цезаря; виставлено маркерів контролю: Цезар — 0, Авто-Красс — 12.",
            "Помпей переміг Авто-Красса (складний); виставлено маркерів контролю: Помпей — 12, Авто-Красс — 0.",
            "Російські правила", "Українські правила", "Модулі: Отрута, Контроль кордонів, Складніше")),
])
def test_history_says_a_caesar_game_in_the_player_s_words(console, lang, said):   # C-12; issue 23 §3
    from firmware import history
    from firmware.i18n import set_language
    from firmware.screens.history import detail_rows
    from firmware.screens.history_stats import crassus_rows
    mods = {"poison": True, "border_control": True, "centurions": False}
    lost = json.loads(CRASSUS_WINS.split(" ", 1)[1]) | {"modules": mods}
    won = json.loads(YOU_WIN.split(" ", 1)[1]) | {"human_side": "pompey"}
    for line in ("new caesar-solo seed=3 poison=1 border-control=1 harder=1 edition=ru", "position " + json.dumps(lost),
                 "crassus", "new caesar-solo seed=3 side=pompey difficulty=hard edition=uk",
                 "position " + json.dumps(won), "play HU-MT ship:6/0 HU"):
        assert console.request(line)["ok"], line
    entries = history.games(console.store.db, 10)
    old = dict(entries[1], result={"t": "Auto-Crassus ({}) beat {}, {}–{} markers."})   # a record kept earlier
    try:
        set_language(lang)
        rows = [detail_rows(entries[1]), detail_rows(entries[0]), detail_rows(old)]
        for shown in rows:
            assert not any(INTERNAL.search(r) for r in shown), shown
            assert not any(re.search(r"(\w+) \(\1\)", r) for r in shown), shown   # not «Цезарь (Цезарь)»
        assert rows[0][2:4] == [f"·{said[0].split(': ')[1].split(' — ')[0]}: 0",      # he plays the side left him (S-1)
                                f"✓{said[0].split(' ')[0]} (Помпей): 12"]
        assert rows[0][1] == said[0] and rows[2][1] == said[0]              # older records said anew
        assert rows[1][1] == said[1]
        assert said[2] in rows[0] and said[3] in rows[1] and said[4] in rows[0]
        from tests.fakectx import FakeCtx
        ctx = FakeCtx(lang=lang, history=entries)
        stats = crassus_rows(ctx)
        assert not any(INTERNAL.search(r) for r in stats), stats
    finally:
        set_language("en")


def test_a_move_the_game_no_longer_takes_is_refused_in_words_not_console_commands(state_dir):   # issue 23 §2
    app = app_with([NEW, "crassus", READ], ["a", "a", "a"], state_dir)          # your move: the options
    try:
        assert isinstance(app.stack[-1], OptionScreen)
        # a line from the serial link (the console) makes it his turn under the open screen
        assert app.console.request('position {"turn": "crassus", "crassus_row": ["sword:6/0"]}')["ok"]
        app._view_stale = True
        app.handle("a")
        said = " ".join(app.message or [])
        assert "moved on" in said and "send" not in said and "crassus" not in said and not CONSOLE_SYNTAX.search(said)
    finally:
        app.console.close()


def test_a_placement_by_way_of_the_list_leaves_no_move_screen_behind(state_dir):   # C-6, issue 23 §4
    """Map → press (the list) → a province → A places: the map, the list and the options all go,
    so B on Auto-Crassus's turn that follows leads home, not to a "your move" map that would offer
    placements out of turn."""
    app = app_with([NEW, "crassus", READ], ["a", "a", "press", "a"], state_dir)
    try:
        assert isinstance(app.stack[-1], OptionScreen)
        app.handle("a")                                            # place the first option
        assert app.console.session.lines[1].startswith("play ")            # (then his draw, digital)
        assert not any(isinstance(s, (OptionScreen, ProvincePicker, PlayMap)) for s in app.stack)
        for _ in range(6):                                         # back out of whatever follows
            if isinstance(app.stack[-1], CaesarHome):
                break
            app.handle("b")
        assert isinstance(app.stack[-1], CaesarHome)
        assert not any(isinstance(s, (OptionScreen, ProvincePicker, PlayMap)) for s in app.stack)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,said", [("en", "You take the bonus Tactics."), ("ru", "Вы получаете бонус «Тактика»."),
                                       ("uk", "Ви отримуєте бонус «Тактика».")])
def test_the_bonus_of_your_winning_closure_is_yours_in_a_whole_sentence(state_dir, lang, said):   # C-8, C-12
    """Your last control marker closes a province with a bonus: the game ends at once (C-12), the
    bonus is yours (C-8) and is never used; the closure's page said «Бонус Тактика получает Вы.»
    (uk «… отримує Ви.», en «goes to You.»): the verb of a third person beside «вы»."""
    from firmware.screens.caesar.turn import record_pages
    from firmware.screens.caesar.words import view_of
    win = json.loads(YOU_WIN.split(" ", 1)[1]) | {"bonuses": {"HU": "tactics"}}
    app = app_with(["new caesar-solo seed=3", "position " + json.dumps(win), "play HU-MT ship:6/0 HU"], [],
                   state_dir, lang=lang)
    try:
        view = view_of(app)
        assert view["winner"]
        pages = record_pages(view["last_player_turn"], winner=view["winner"])
        rows = " ".join(TurnScreen(pages, None, 0, None, view["actions"], mine=True)._rows(pages[0], view))
        assert said in rows, rows
    finally:
        app.console.close()


CRASSUS_POISONS = "position " + json.dumps({
    "spaces": {"AG-SY": {"by": "human", "token": "sword:3/3", "toward": {"AG": 3, "SY": 3}}},
    "control": {"AS": "crassus"}, "bonuses": {"SY": "poison"}, "modules": {"poison": True},
    "crassus_row": ["shield:6/0"], "turn": "crassus", "human_hand": ["ship:3/3", "wild:2/2", "sword:6/0"]})


@pytest.mark.parametrize("lang, poison", [("en", "from behind your screen back to your bag"),
                                          ("ru", "из-за вашей ширмы"), ("uk", "з-за вашої ширми")])
def test_a_through_his_turn_shows_every_row_of_a_closure(state_dir, lang, poison):   # C-10, C-17, S-20
    """Pressing A through his turn, the player reads every row of the closure page before his
    own move opens: the border marker to place (C-10) and the token Poison sends back from
    behind their screen (C-17) are things to do on the board, below the rows first shown."""
    app = app_with([NEW + " poison=1", CRASSUS_POISONS], ["a", "a"], state_dir, lang=lang)   # his turn
    try:
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and [p["kind"] for p in turn.pages][-1] == "close"
        seen: list[str] = []
        for _ in range(12):
            if app.stack[-1] is not turn:
                break
            seen += texts(app)
            app.handle("a")
        assert isinstance(app.stack[-1], PlayMap)                 # then your move
        hand = app.view()["human"]["hand"]
        assert len(hand) == 2                                      # one token went back to your bag
        lost = ({"ship:3/3", "wild:2/2", "sword:6/0"} - set(hand)).pop()
        rows = turn._rows(turn.pages[-1], app.view())
        said = " ".join(rows)
        assert poison in said and lost.split(":")[1] in said            # C-17: which token goes back
        assert all(r in seen for r in rows), [r for r in rows if r not in seen]   # every row, the border marker too
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, marker", [("en", "Asia: Crassus 3 here, control marker: Crassus"),
                                          ("ru", "Азия: Красс 3 сюда, жетон контроля: Красс"),
                                          ("uk", "Азія: Красс 3 сюди, маркер контролю: Красс")])
def test_a_province_s_page_shows_the_control_marker_on_a_border_space(state_dir, lang, marker):   # C-10
    """He closes Syria next to his Asia: his border marker lies on the Asia–Syria space, on top of
    his token, on the board; the page of either province shows it there (not only the closure page)."""
    from firmware.screens.caesar.board import province_detail
    app = app_with([NEW, CRASSUS_CLOSES, "crassus"], [], state_dir, lang=lang)
    try:
        assert app.view()["position"]["border_markers"] == {"AS-SY": "crassus"}
        rows = " ".join(province_detail(app.view(), "SY").rows)
        assert marker in rows, rows
        assert rows.count(marker.split(", ")[1]) == 1                      # on that space only
        assert marker.split(", ")[1] in " ".join(province_detail(app.view(), "AS").rows)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, label, you", [("en", "Final turn", "You"), ("ru", "Последний ход партии", "Вы"),
                                              ("uk", "Останній хід партії", "Ви")])
def test_the_turn_that_ended_the_game_is_read_again_after_the_end(state_dir, lang, label, you):   # C-12
    """Your last control marker placed (C-12): the turn that ended the game — its closure, the
    end — could be read only once. His winning turn stays on the home after the end ("Last Crassus
    turn"); yours had no row at all, that one (his earlier turn) being the only one offered. The
    home now offers the final turn when the game ended in a player's turn, and only then."""
    app = app_with([NEW, YOU_WIN, "play HU-MT ship:6/0 HU", READ], ["a"], state_dir, lang)
    try:
        home = app.stack[-1]
        assert isinstance(home, CaesarHome) and app.view()["winner"] == "human"
        final = next(i for i in home.items(app) if i.ident == "final")
        assert (final.label, final.value) == (label, you)
        home.current = "final"
        app.handle("a")
        screen = app.stack[-1]
        assert isinstance(screen, TurnScreen) and screen.page == 0
        assert [p["kind"] for p in screen.pages] == ["close", "end"], screen.pages
        assert screen.pages[0]["step"]["province"] == "HU"
    finally:
        app.console.close()
    app = app_with([NEW, CRASSUS_WINS, "crassus", READ], ["a"], state_dir.parent / (state_dir.name + "-his"), lang)
    try:
        assert "final" not in [i.ident for i in app.stack[-1].items(app)]     # his turn ended it: "last" shows it
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, said", [("en", "Control markers placed: you {}, Crassus {}."),
                                        ("ru", "Выставлено жетонов контроля: вы — {}, Красс — {}."),
                                        ("uk", "Виставлено маркерів контролю: ви — {}, Красс — {}.")])
def test_the_end_says_the_final_count_as_history_does(state_dir, lang, said):   # C-12
    """The end of the game said only why it ended; the home's score row counts the markers *left*
    (``You 12 · Crassus 0`` beside "Game over: Crassus", read as 12–0 for you), while History says
    the markers each side *placed* (C-12: on the board and under Senate tokens). The end page of
    his winning turn and the Game over notice now say that count, in History's words and order."""
    app = app_with([NEW, CRASSUS_WINS, "crassus"], ["a"], state_dir, lang)
    try:
        view = app.view()
        assert view["winner"] == "crassus"
        placed = [12 - view["markers"][n]["left"] - view["markers"][n]["removed"] for n in ("human", "crassus")]
        assert placed[1] == 12 - view["markers"]["crassus"]["removed"] and placed[0] < placed[1]
        want = said.format(*placed)
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[-1]["kind"] == "end"
        assert want in " ".join(turn._rows(turn.pages[-1], view)), turn._rows(turn.pages[-1], view)
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
        home = app.stack[-1]
        assert isinstance(home, CaesarHome)
        home.current = "now"
        app.handle("a")                                            # "Game over": the notice
        assert want in " ".join(app.stack[-1].rows), app.stack[-1].rows
        result = app.console.request("history 1")["games"][0]["result"]
        assert f"{placed[0]}" in result and f"{placed[1]}" in result
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, said", [
    ("en", "Control markers placed: you 0, Crassus 11. 1 more of his control markers went out of the game with his "
           "bonus (harder game)."),
    ("ru", "Выставлено жетонов контроля: вы — 0, Красс — 11. Ещё 1 его жетон контроля убран из игры вместе с его "
           "бонусом (усложнённая игра)."),
    ("uk", "Виставлено маркерів контролю: ви — 0, Красс — 11. Ще 1 його маркер контролю відкладено разом з його "
           "бонусом (складніша гра).")])
def test_the_end_says_the_markers_the_harder_game_removed(state_dir, lang, said):   # S-8, C-12
    """S-8 harder game (RU «убирая из игры жетон бонуса, полученный авто-Крассом, вместе с ним убирайте
    также один из его жетонов контроля»): his markers go out with his bonuses, so the end read «Crassus
    placed his last control marker and wins. Control markers placed: you 1, Crassus 7.» — 7 of 12, no
    word of the other 5. The end page and the Game over notice now say how many went out that way
    (History's count of those placed stays as it was)."""
    pos = "position " + json.dumps({
        "spaces": {"HU-HC": {"by": "human", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
        "crassus_row": ["ship:6/0", "ship:5/1"], "markers_left": {"human": 12, "crassus": 2}, "bonuses": {"HU": "might"}})
    app = app_with(["new caesar-solo seed=3 harder=1", pos, "crassus"], ["a"], state_dir, lang)
    try:
        view = app.view()
        assert view["winner"] == "crassus" and view["markers"]["crassus"]["removed"] == 1      # his Might took one
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[-1]["kind"] == "end"
        assert said in " ".join(turn._rows(turn.pages[-1], view)), turn._rows(turn.pages[-1], view)
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
        home = app.stack[-1]
        assert isinstance(home, CaesarHome)
        home.current = "now"
        app.handle("a")                                            # "Game over": the notice
        assert said in " ".join(app.stack[-1].rows), app.stack[-1].rows
        from firmware.screens.caesar.words import placed_said      # five gone: the plural
        five = {**view, "markers": {**view["markers"], "crassus": {**view["markers"]["crassus"], "removed": 5}}}
        assert {"en": "Crassus 7. 5 more of his control markers went out of the game with his bonuses (harder game).",
                "ru": "Красс — 7. Ещё 5 его жетонов контроля убрано из игры вместе с его бонусами (усложнённая игра).",
                "uk": "Красс — 7. Ще 5 його маркерів контролю відкладено разом з його бонусами (складніша гра)."}[lang] \
            in placed_said(five), placed_said(five)
    finally:
        app.console.close()
    app = app_with([NEW, CRASSUS_WINS, "crassus"], ["a"], state_dir.parent / (state_dir.name + "-plain"), lang)
    try:                                                           # nothing removed: nothing more said
        turn = app.stack[-1]
        assert said.split(". ")[1] not in " ".join(turn._rows(turn.pages[-1], app.view()))
        assert said.split(". ")[0].split(":")[0] in " ".join(turn._rows(turn.pages[-1], app.view()))
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, said", [("en", "He always wins ties."), ("ru", "Ничьи он всегда выигрывает."),
                                        ("uk", "У разі нічиєї він завжди виграє.")])
def test_his_closure_in_a_tie_says_he_always_wins_ties(state_dir, lang, said):   # S-8, C-9
    """S-8: Auto-Crassus wins ties (RU «авто-Красс всегда выигрывает ничьи», UA «Авто-Красс завжди
    виграє у разі нічиєї»). The closure's page showed «Вы 4–4 Красс» and his marker there with no
    word why a tie was his (C-9 gives a tie to nobody); it says so now, and only on a tie."""
    app = app_with([NEW, CRASSUS_WINS, "crassus"], ["a"], state_dir, lang)
    try:
        turn = app.stack[-1]
        close = next(p for p in turn.pages if p["kind"] == "close")
        assert set(close["step"]["totals"].values()) == {4} and close["step"]["winner"] == "crassus"
        assert said in " ".join(turn._rows(close, app.view()))
    finally:
        app.console.close()
    his = {"spaces": {"HU-HC": {"by": "crassus", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
           "crassus_row": ["ship:5/1"]}                                # he takes Hispania Ulterior 5–0
    app = app_with([NEW, "position " + json.dumps(his), "crassus"], ["a"], state_dir.parent / (state_dir.name + "-2"),
                   lang)
    try:
        turn = app.stack[-1]
        close = next(p for p in turn.pages if p["kind"] == "close")
        assert len(set(close["step"]["totals"].values())) == 2 and close["step"]["winner"] == "crassus"
        assert said not in " ".join(turn._rows(close, app.view()))
    finally:
        app.console.close()


def test_might_lists_each_token_s_numbers_in_the_order_of_its_space_s_provinces(state_dir):   # C-15, C-3
    """C-15: you flip one of his tokens. Each row names a space by its two provinces
    (``Sicilia–Italia``) and showed the token's name (``5/1``) whichever way it lies: a 5/1 placed 1
    toward Sicilia and 5 toward Italia read «Sicilia–Italia 5/1», 5 toward Sicilia. Each number now
    stands under the province it faces: «Sicilia–Italia 1/5»."""
    from firmware.screens.caesar.pickers import ChoiceScreen
    pos = json.loads(HU_MIGHT.split(" ", 1)[1])
    pos["spaces"]["SC-IT"]["toward"] = {"SC": 1, "IT": 5}
    pos["spaces"]["SD-SC"] = {"by": "crassus", "token": "ship:5/1", "toward": {"SD": 5, "SC": 1}}
    app = app_with([NEW, "position " + json.dumps(pos), "play HU-MT ship:3/3 HU"], ["a", "a", "a"], state_dir)
    try:
        choice = app.stack[-1]
        assert isinstance(choice, ChoiceScreen), type(choice).__name__
        rows = {i.label: i.value for i in choice.items(app)}
        assert rows["Sicilia–Italia"] == "1/5" and rows["Sardinia–Sicilia"] == "5/1", rows
    finally:
        app.console.close()



@pytest.mark.parametrize("lang, mark", [("en", " (useless)"), ("ru", " (зря)"), ("uk", " (марно)")])
def test_might_lists_the_flips_that_change_something_first(state_dir, lang, mark):   # C-15, C-10
    """C-15: a flipped token counts 0/0, which changes nothing toward a province already closed;
    a flipped control marker gives no border markers, which only an open neighbour could give.
    The list put such flips among the others in board order (his 0/6 toward open Gallia first);
    now those that change something come first, board order kept, then the others, each said to
    be useless, then Skip. The cursor goes by the flip, whatever the language."""
    from firmware import i18n
    from firmware.screens.caesar.pickers import ChoiceScreen
    app = app_with([NEW, MIXED_MIGHT, "play HU-MT ship:3/3 HU"], ["a"], state_dir, lang=lang)
    try:
        while isinstance(app.stack[-1], TurnScreen):                    # the closure read: the choice
            app.handle("a")
        choice = app.stack[-1]
        assert isinstance(choice, ChoiceScreen), type(choice).__name__
        assert [value for _l, value, _n in choice.choices] == ["SC-IT", "GC", "AS", "GA-GC", "AG-SY", "AS-SY", "SY", "skip"]
        marked = [label.endswith(mark) for label, _v, _n in choice.choices]
        assert marked == [False, False, False, True, True, True, True, False]
        from firmware.screens.widgets import item_rows
        assert max(len(item_rows(i)) for i in choice.items(app)) <= 2 and not cut_rows(app)
        for _ in range(3):
            app.handle("down")
        assert '"ok":true' in app.serve_line(b"settings language=" + (b"en" if lang != "en" else b"ru"))
        app.render()
        choice = app.stack[-1]
        assert choice.items(app)[choice.cursor].ident == "GA-GC"      # still his 0/6, said in another language
        app.handle("a")
        assert "might GA-GC" in app.console.session.lines
    finally:
        i18n.set_language("en")
        app.console.close()


def test_a_useless_marker_in_a_long_province_takes_two_rows(state_dir):   # C-15
    """Cisalpina's neighbours all closed: «жетон контроля: Цизальпинская Галлия (впустую)» would
    take three rows; the short name keeps it to two (the mark is «(зря)» now, shorter still)."""
    from firmware import i18n
    from firmware.screens.caesar.pickers import ChoiceScreen
    from firmware.screens.widgets import item_rows
    pos = json.loads(MIXED_MIGHT.split(" ", 1)[1])
    pos["control"].update({"GA": "human", "IT": "none", "DM": "human"})
    app = app_with([NEW, "position " + json.dumps(pos), "play HU-MT ship:3/3 HU"], ["a"], state_dir, lang="ru")
    try:
        while isinstance(app.stack[-1], TurnScreen):
            app.handle("a")
        choice = app.stack[-1]
        assert isinstance(choice, ChoiceScreen), type(choice).__name__
        rows = {i.ident: item_rows(i) for i in choice.items(app)}
        assert len(rows["GC"]) == 2 and " ".join(rows["GC"]).endswith("(зря)"), rows["GC"]
    finally:
        i18n.set_language("en")
        app.console.close()


def test_a_power_cut_on_a_duel_draw_page_shows_it_again(state_dir):   # C-6, issue 23 §2
    """A duel with the device's bag: after Caesar's move the device draws for him and a page says
    which token to take from his bag (private: the turn's record keeps no token). The power went
    on that page: the device opened on Pompey's move, and Caesar was never told which token to
    take. Now the page comes again, with the same token, then the device is passed on."""
    from firmware.screens.caesar.flow import PassScreen
    app = app_with(["new caesar-duel seed=4"], ["a"] * 5, state_dir)     # resume, pass, map, option, place
    try:
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["kind"] == "draw"
        shown, drawn = texts(app), turn.pages[turn.page]["tokens"]
        assert app.view()["turn"] == "pompey"
    finally:
        app.console.close()                                        # the power goes on the draw page
    again = _app_with([], ["a"], state_dir)                         # main menu → Resume: Caesar!
    try:
        turn = again.stack[-1]
        assert isinstance(turn, TurnScreen) and turn.pages[turn.page]["tokens"] == drawn, type(turn).__name__
        assert texts(again) == shown
        again.handle("a")                                          # read: the device goes to Pompey
        assert isinstance(again.stack[-1], PassScreen) and "Pompey" in " ".join(texts(again))
    finally:
        again.console.close()
    third = _app_with([], ["a"], state_dir)
    try:
        assert isinstance(third.stack[-1], CaesarHome)             # read: not shown a third time
    finally:
        third.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_tile_e_with_his_bag_empty_is_read_in_two_presses(state_dir, lang):   # S-3 tile E, S-6
    """Tile E (centurion, draw 1, play, play) with his bag empty: the centurion's sentence (four
    rows) and «His bag is empty; he draws nothing.» (two or three) made a notes page a screen and
    a half, a scroll press more. The bag's sentence is one row now and stays under the tile's
    token; the centurion's has its page: tile, notes, then his play, a press each."""
    every = ",".join(f'"{TOKENS[i].name}"' for i in range(16))
    new = "new caesar-solo seed=3 centurions=1 difficulty=hard tiles-input=physical"
    app = app_with([new, f'position {{"crassus_row": [{every}], "modules": {{"centurions": true}}}}',
                    "crassus tile=E"], ["a"], state_dir, lang=lang)
    try:
        assert app.view()["crassus"]["bag"] == 0
        turn = app.stack[-1]
        assert isinstance(turn, TurnScreen)
        assert [p["kind"] for p in turn.pages][:3] == ["tile", "notes", "play"]
        bag = [str(n) for n in turn.pages[0]["notes"]]
        assert len(bag) == 1 and len(base.wrap(bag[0])) == 1, bag        # under the tile, one row
        presses = 0
        while turn.pages[turn.page]["kind"] != "play":
            app.handle("a")
            presses += 1
        assert presses == 2
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_long_why_keeps_its_count_at_every_row(state_dir, lang):   # S-9..S-15
    """«Красс зробив би…» (his decision's why) in Ukrainian: the title «Чому: Захоплення» left room
    for «9/20» but not for «10/20», so from the tenth row on the count went from the title bar
    (the reader lost where he was; in Russian too). The title is the shorter form when the widest count
    needs it."""
    from firmware.screens import base
    from firmware.screens.caesar.words import why_screen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(NEW, lang=lang)
    for step in ("capture", "close", "defend", "reinforce", "expand", "center", "anywhere", None):
        why = why_screen({"step": step, "rule": "S-14", "why": "слово " * 80})
        last = len(why.rows) - base.ROWS + 1
        assert last >= 10
        for n in range(1, last + 1):
            base.TRACE = []
            try:
                why.render(ctx)
                shown = [t for _x, y, t, _k in base.TRACE if y <= 0]
            finally:
                base.TRACE = None
            assert f"{n}/{last}" in shown and why.title in shown, (step, n, shown)
            why.key("down", ctx)


@pytest.mark.parametrize("lang, hint", [("en", "→ turns a page at once."), ("ru", "→ сразу листает страницу."),
                                        ("uk", "→ одразу гортає сторінку.")])
def test_a_new_games_guide_says_right_turns_a_page_at_once(lang, hint):
    """The guide's pages run past the panel: A shows each page's rest before turning it (17-18 presses
    through 7 pages) and right turns it at once (7), which no screen said. The new game's first page
    says it, read with the rest of that page: no press more."""
    ctx = FakeCtx("new caesar-solo seed=1", lang=lang)
    guide = SetupGuide(home=lambda c, go: None)
    ctx.open(guide)
    first = guide.pages(ctx)[0]
    assert " ".join(first[2]).endswith(hint)
    assert all(len(r) <= base.COLS - 1 for r in first[2])
    ctx.press("a")                                      # the rest of the page, the hint with it
    assert guide.page == 0 and guide.scroll.top + guide.shown(first) == len(first[2])
    ctx.press("a")                                      # no press more: the page turns
    assert guide.page == 1
    ctx.press("right")
    assert guide.page == 2 and guide.scroll.top == 0   # right: the next page at once, unread rows and all


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_undoing_his_turn_that_ended_the_game_with_the_box_s_tiles_is_a_short_note(state_dir, lang):  # S-5, C-12
    """With the box's tiles, his turn that ended the game (C-12) taken back: the note a player
    reads at the table said the turn's whole name again, the tile's steps, then the game's end
    sentence again ("The game goes on; its end is taken back too: Crassus placed his last control
    marker and wins."): 11–12 screens of its scroll in en/ru/uk. The question before it names the
    turn and the end, the Log keeps how it ended; the note now keeps only what the table does — the
    tile back on top of his stack (S-5), the board taken back (the Log), and that the game goes on:
    at most 7 screens in each language."""
    from firmware.screens import base
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.words import edition_of, tile_letter
    from firmware.console import Console
    from firmware.store import Store
    console = Console(Store(state_dir), None)
    console.request(f"settings language={lang}")
    assert console.request("new caesar-solo tiles-input=physical seed=3")["ok"]
    for _turn in range(60):
        st = console.request("state")["state"]
        if st["winner"]:
            break
        if st["turn"] == "crassus":
            letter = st["tiles"]["stack_left"][0]
            assert console.request(f"crassus tile={letter}")["ok"]
        else:
            _your_turn(console)
    assert st["winner"] == "crassus", "his turn ended this game"
    console.close()
    app = app_with([], [], state_dir, lang)
    try:
        tile = app.view()["last_crassus_turn"]["tile"]
        app.ask_undo()
        app.handle("a")                                   # A: undo
        note = app.stack[-1]
        assert isinstance(note, TextScreen) and app.errors == 0
        said = " ".join(note.rows)
        shown = tile_letter(tile, edition_of(app.view()))     # as the edition's tiles print it
        assert _("The game goes on: its end is taken back too.") in said.replace("- ", "-")
        assert said.count(f" {shown}") >= 2, said             # the tile named, and put back on his stack
        assert app.view()["winner"] is None
        screens = len(note.rows) - base.ROWS + 1          # the note's scroll: 1/N
        assert screens <= 7, (screens, note.rows)
    finally:
        app.console.close()
