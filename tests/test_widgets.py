"""The widgets on their own (firmware/screens/widgets/): odds as people read them, the dice entry's
guesses, the dial, the scroll bar."""
from __future__ import annotations

import itertools
import random

import pytest
from PIL import ImageDraw

from firmware import dice_guess
from firmware.screens import base
from firmware.screens.widgets import DiceEntry, Dial, pct, percents, scroll_bar
from tests.fakectx import FakeCtx


def test_one_decimal_where_a_whole_percent_hides_a_difference():  # issue 24 §3
    assert [pct(p) for p in (0.042, 0.5, 0.9749, 0.0004, 0.9996, 0, 1)] == \
        ["4.2%", "50%", "97.5%", "<0.1%", ">99.9%", "0%", "100%"]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_russian_or_ukrainian_reader_gets_a_decimal_comma(lang):
    """ru/uk write 58,5 (a decimal point reads as English there): the odds of JC (J-15), the Sword's
    tactics chance and every odds screen said «4.2%», «97.5%» to a Russian reader."""
    from firmware import i18n
    from firmware.screens.widgets import share_of
    i18n.set_language(lang)
    try:
        assert [pct(p) for p in (0.042, 0.5, 0.9749, 0.0004, 0.9996)] == ["4,2%", "50%", "97,5%", "<0,1%", ">99,9%"]
        assert percents([0.056, 0.5, 0.444]) == ["5,6%", "50,0%", "44,4%"]
        assert share_of([0.056, 0.5, 0.444], first=False) == "94,4%"     # the rest of the set, as it is shown
    finally:
        i18n.set_language("en")
    assert pct(0.042) == "4.2%" and share_of([0.056, 0.5, 0.444], first=False) == "94.4%"


def test_the_figures_of_one_event_always_sum_to_100():  # issue 24 §3: never 101
    rng = random.Random(5)
    for _ in range(2000):
        cuts = sorted(rng.random() for _ in range(2))
        ps = [cuts[0], cuts[1] - cuts[0], 1 - cuts[1]]
        shown = percents(ps)
        total = sum(float(s.strip("<>%")) for s in shown if not s.startswith(("<", ">")))
        assert abs(total - 100) < 1e-9 or any(s.startswith(("<", ">")) for s in shown), (ps, shown)
        tenths = all("." in s for s in shown)             # a set whose whole percents cannot sum up: all with tenths
        for p, s in zip(ps, shown):
            fine = p < 0.1 or p > 0.9
            assert ("." in s) == (fine or tenths) or s.startswith(("<", ">")), (p, s)
            if not s.startswith(("<", ">")):
                # a tenth is never off by more than 0.1 (5.6% never reads 6.0%); a whole percent is
                # the chance rounded, as pct writes it alone (40.49 % never reads 41%)
                if "." in s:
                    assert abs(float(s[:-1]) - 100 * p) <= 0.1 + 1e-9, (p, s)
                else:
                    assert s == pct(p), (p, s)
    assert percents([0.056, 0.5, 0.444]) == ["5.6%", "50.0%", "44.4%"]      # was 6.0%, 50%, 44%
    assert percents([0.335, 0.335, 0.33]) == ["33.5%", "33.5%", "33.0%"]    # 34+34+33 = 101; was 34%, 33%, 33%
    assert percents([0.4049, 0.1611, 0.434]) == ["40.5%", "16.1%", "43.4%"]   # 40+16+43 = 99; was 41%: one
    # chance said two ways, beside «40.5%» on the line that writes it with a decimal (JC J-15)
    assert percents([0.404, 0.356, 0.24]) == ["40%", "36%", "24%"]
    assert percents([0.404, 0.356, 0.24], tenths=True) == ["40.4%", "35.6%", "24.0%"]


def test_a_one_figure_line_says_what_the_odds_screen_shows():  # issue 24 §3: the same chance, one figure
    from firmware.screens.widgets import share_of
    rng = random.Random(7)
    cases = [[0.4049, 0.3549, 0.2402], [0.056, 0.5, 0.444], [0.0004, 0.5, 0.4996], [0.9996, 0.0002, 0.0002],
             [0.0, 0.5, 0.5], [1.0, 0.0, 0.0]]
    for _ in range(2000):
        cuts = sorted(rng.random() for _ in range(2))
        cases.append([cuts[0], cuts[1] - cuts[0], 1 - cuts[1]])
    for ps in cases:
        shown = percents(ps)
        assert share_of(ps, True) == shown[0], ps
        rest = share_of(ps, False)
        if not shown[0].startswith(("<", ">")):
            assert abs(float(rest[:-1]) + float(shown[0][:-1]) - 100) < 1e-9, (ps, shown, rest)
            assert abs(float(rest[:-1]) - 100 * (1 - ps[0])) <= (0.1 if "." in rest else 0.5) + 1e-9, (ps, rest)
        else:
            assert rest == {"<0.1%": ">99.9%", ">99.9%": "<0.1%"}[shown[0]], (ps, rest)
    assert share_of([0.4049, 0.3549, 0.2402], True) == "40.5%" and share_of([0.4049, 0.3549, 0.2402], False) == "59.5%"
    assert share_of([0.404, 0.356, 0.24], True) == "40%" and share_of([0.404, 0.356, 0.24], True, tenths=True) == "40.4%"


def test_a_die_reached_is_never_changed_by_the_guess_for_another():  # issue 24 §2
    entry = DiceEntry("Roll", [("", 4)], lambda c, f: None)
    ctx = FakeCtx().open(entry)
    assert entry.faces[0] == dice_guess.chain(4, 0, [dice_guess.start_face(0, 4, None)])
    for a, b in itertools.product(range(1, 7), repeat=2):
        entry.resize([("", 3)])
        entry.resize([("", 4)])                        # fresh dice
        entry.faces[0][0] = a
        entry.guess(0)
        ctx.press("right")                             # die 2 read as the guess
        read = entry.faces[0][1]
        ctx.press("left")
        for _ in range((b - a) % 6):
            ctx.press("up")                            # die 1 turned to b: die 2 stays, 3 and 4 follow
        assert entry.faces[0][0] == b and entry.faces[0][1] == read
        assert entry.faces[0][2] == dice_guess.start_face(2, 4, read)
    assert [entry.set[0][i] for i in range(4)] == [True, True, False, False]


def test_right_stops_at_the_last_die_and_two_rows_are_one_path():
    got = []
    entry = DiceEntry("Battle", [("Attack", 3), ("Defence", 3)], lambda c, faces: got.append(faces))
    ctx = FakeCtx().open(entry)
    ctx.press(*["right"] * 10)
    assert entry.at == (1, 2)
    ctx.press("press")
    assert got == [entry.faces] and len(got[0]) == 2


@pytest.mark.parametrize("rows", [[("Attack", 3), ("Defence", 4)], [("Атака", 4), ("Защита", 4)], [("Defence", 3)]])
def test_a_dice_row_stands_clear_of_its_label_and_inside_the_panel(rows, monkeypatch):
    """The Sword of Rome's battle dice: «Defence» ended two pixels before its first die's frame (read
    «Defence▢1»), and the Sacred Band's fourth defence die ran past the panel's right edge. Every
    die is three dark columns or more from its row's label and inside the panel, and the dice of
    the two rows stand in columns."""
    from PIL import Image
    placed: list[tuple[int, int]] = []
    paste = Image.Image.paste

    def recording(self, im, box=None, *args, **kwargs):
        if isinstance(box, tuple) and isinstance(im, Image.Image) and im.size[0] == im.size[1]:
            placed.append((box[0], box[1]))                              # a die tile's top-left
        return paste(self, im, box, *args, **kwargs)
    monkeypatch.setattr(Image.Image, "paste", recording)
    entry = DiceEntry("Battle", rows, lambda c, faces: None)
    entry.render(FakeCtx())
    size = 18 if len(rows) > 1 else 20
    by_row = [sorted(x for x, y in placed if y == top) for top in sorted({y for _x, y in placed})]
    assert [len(xs) for xs in by_row] == [n for _label, n in rows]
    for (label, _n), xs in zip(rows, by_row):
        ink = 1 + base.font().getmask(label).getbbox()[2]                # the label's last lit column + 1
        assert xs[0] - ink >= 3, (label, ink, xs[0])
        assert xs[-1] + size <= base.W - 1, (label, xs[-1])              # a column clear of the edge
    if len(by_row) == 2:
        assert all(a == b for a, b in zip(*by_row)), by_row             # in columns


def test_the_dial_steps_and_applies():
    got = []
    dial = Dial("Fame", 1, -99, 99, lambda c, v: got.append(v), step=1)
    ctx = FakeCtx().open(dial)
    ctx.press("right", "right", "up", "press", "right", "down", "down")     # +1 +5 +5 +1, step 10: +10, -2
    assert dial.value == 20
    ctx.press("a")
    assert got == [20]


def test_a_full_row_of_text_never_touches_the_scroll_bar():
    """A row of 21 characters ends at the panel's 126th pixel: the 2-pixel bar (x 126-127) touched
    its last letter («лишилося маркерів: 12» read «12▌»). The bar is the last column alone, a blank
    column from every glyph that keeps to its cell's five columns (all but a few with a tail or a
    wide shape: Д Ц Щ № ← → ✓ « » %, which the font draws into the sixth)."""
    from tests.test_no_clipped_text import _all_characters
    touching = []
    for ch in _all_characters():
        text, _ = base.frame()
        base.lines(ImageDraw.Draw(text), [ch * base.COLS] * base.ROWS)
        if any(text.getpixel((base.W - 2, y)) for y in range(base.H)):
            continue                            # a glyph wider than its 5 columns (see above)
        bar, draw = base.frame()
        scroll_bar(draw, 0, 4, 8)
        if any(bar.getpixel((x, y)) and text.getpixel((x - 1, y)) for x in range(1, base.W) for y in range(base.H)):
            touching.append(ch)
    assert not touching, "".join(touching)


def test_the_scroll_bar_spans_what_is_shown_and_sits_at_the_ends():
    img, draw = base.frame()
    scroll_bar(draw, 0, 4, 4)                           # everything shown: no bar
    assert img.getbbox() is None
    scroll_bar(draw, 0, 4, 8, 12, 52)
    assert img.getbbox() == (base.W - 1, 12, base.W, 12 + 26)
    img, draw = base.frame()
    scroll_bar(draw, 4, 4, 8, 12, 52)
    assert img.getbbox()[3] == 64                      # the last page: the bar ends at the bottom


def test_a_text_screens_position_reaches_its_end_when_the_last_row_shows(monkeypatch):
    """QA (misc): a text screen counted from its top row (About ended on "16/19", looking
    unfinished); it counts its positions as the tables and questions do, 1/n … n/n."""
    from firmware.screens.widgets import scroll
    from firmware.screens.widgets.scroll import TableScreen, TextScreen
    said: list[str] = []
    real = base.title_bar
    monkeypatch.setattr(scroll.base, "title_bar", lambda draw, title, status="": (said.append(status),
                                                                                 real(draw, title, status)))
    ctx = FakeCtx()
    for screen in (TextScreen("About", [f"row {i}" for i in range(19)]),
                   TableScreen("Forces", [(f"row {i}", str(i)) for i in range(19)])):
        said.clear()
        for _ in range(30):                             # past the end: it stays on the last rows
            screen.render(ctx)
            screen.key("down", ctx)
        assert said[0] == "1/16" and said[-1] == "16/16", said
        assert sorted(set(said), key=lambda s: int(s.split("/")[0])) == [f"{i}/16" for i in range(1, 17)]
    said.clear()
    TextScreen("About", ["one", "two"]).render(ctx)     # everything shown: no count
    assert said == [""]


@pytest.mark.parametrize(("title", "status", "cut"), [
    ("Приказ Б", "A: сохранить", True),          # a column apart: read as «Приказ Б A: сохранить»
    ("Battle", "defender wins", True),           # two columns: «Battle defender wins»
    ("Hispania Citerior", "1/4", True),
    ("Legatus", "1/3", False),                   # far apart: the bar is whole
])
def test_a_title_and_its_status_close_together_have_the_bar_cut_between_them(title, status, cut):
    img, draw = base.frame()
    base.title_bar(draw, title, status)
    end, start = 1 + len(title) * base.CHAR_W, base.W - len(status) * base.CHAR_W - 1
    dark = [x for x in range(end, start) if all(img.getpixel((x, y)) == 0 for y in range(base.TITLE_H))]
    assert bool(dark) == cut
    if cut:                                      # in the middle of the blank columns, neither text cut
        assert len(dark) == 1 and dark[0] - (end - 1) >= 2 and start - dark[0] >= 3
        assert all(img.getpixel((x, y)) == 1 for x in range(dark[0] + 1, start) for y in (0, base.TITLE_H - 1))


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_where_dice_tiles_and_bags_come_from_is_one_word_in_every_game(lang):
    """Julius Caesar's «real dice», the Sword's «table» and Caesar!'s «physical» named one choice
    (ru «свои кубики», «на столе», «настоящие»): every form row that chooses between the device and
    the table says the same two words, in each language."""
    from firmware import i18n
    from firmware.screens.caesar.setup import setup_form as caesar_form
    from firmware.screens.jc.setup import setup_form as jc_form
    from firmware.screens.sword.battle import battle_form
    from firmware.screens.sword.rolls import CheckMenu, naval_form, tactics_form
    from firmware.screens.widgets.dice import source_word
    from tests.test_screens_sword import NEW, home
    ctx = home(NEW)
    i18n.set_language(lang)
    try:
        words = {(source_word(0), source_word(1))}
        forms = [caesar_form(), jc_form(next_battle=True), battle_form(ctx), tactics_form(), naval_form(ctx)]
        seen = {(f.label, f.show(0), f.show(1)) for form in forms for f in form.fields
                if f.key in ("dice", "tiles", "bags")}
        assert {label for label, _zero, _one in seen} == {"Tiles", "Bags", "Dice"}
        assert {(zero, one) for _label, zero, one in seen} == words
        menu = CheckMenu()
        ctx.open(menu)
        shown = {i.value for i in menu.items(ctx) if i.ident == "dice"}
        assert shown <= {source_word(0), source_word(1)}
        assert words != {("device", "table")} or lang == "en"          # said in the language
    finally:
        i18n.set_language("en")
