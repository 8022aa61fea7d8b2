"""No text on the 128×64 panel is cut with '…' (issue 24 §4: "Pompeius (Po…", RU "Суровые вр."), in
any language, anywhere a player can go: random keys through the real App from varied set-ups (every
game, the duel, History with finished games of every kind, Earlier games, a bag, dice) in en, ru
and uk; every call of ``base.clip`` that cuts is recorded with its language, width, call site and
screen, and listed.

A name the player typed (a player, a bag item, the players' share) may be longer than a column can
hold: those are cut by ``base.clip_name``, which this test does not count. Everything else the
device writes must fit. Every frame of the walks is also checked (:func:`frame_faults`): no text's
pixels off the panel, no character without a glyph, no list whose cursor row is out of sight; and
the shared toolkit itself: every character whole in the title bar, no word cut by the word wrap
without a mark. ``LEGATUS_CLIP_SEEDS=1,2,3`` walks more seeds (default: one)."""
from __future__ import annotations

import json
import os
import random
import re
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from firmware import i18n
from firmware.screens import base
from tests.screens import app_with
from tests.test_glory_scoring import EXAMPLE

KEYS = ["up", "down", "left", "right", "press", "a", "b", "a", "a", "right", "down", "a:hold", "b:hold", "key3"]
DEEP = ["up", "down", "right", "press", "a", "a", "a", "right", "down", "down", "up", "a:hold", "b", "left"]
STEPS = 200                     # per walk: one with KEYS, one with DEEP (fewer keys back: deeper screens)
SEEDS = [int(s) for s in os.environ.get("LEGATUS_CLIP_SEEDS", "1").split(",")]


def caesar_to_the_end(run: Callable[[str], dict]) -> None:
    """A Caesar! solo game played to its end (C-12) by the console, as History's tests do."""
    from engine.rng import Rng
    from tests.test_caesar_console import human_turn
    run("new caesar-solo difficulty=easy seed=21")

    class Console:                          # human_turn talks to a console's ``request``
        request = staticmethod(run)
    rng = Rng(21)
    for _ in range(120):
        st = run("state")["state"]
        if st["winner"]:
            return
        if st["turn"] == "crassus":
            run("crassus")
        else:
            human_turn(Console, rng)
    raise AssertionError("the Caesar! game did not end")


def finished_games(run: Callable[[str], dict]) -> None:
    """History with a game of every kind: finished by its rules, ended by the players, abandoned."""
    caesar_to_the_end(run)
    for line in ["new caesar-duel seed=3", "end",
                 "new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight",
                 "new glory players=Анна,Богдан,Вікторія,Ярослав seed=5"]:
        run(line)
    for _ in range(9):
        run("event")
        run("end-round")
    sheet = json.dumps(EXAMPLE, ensure_ascii=False)
    for english, cyrillic in zip(("Jack", "Henry", "Mary", "Ross"), ("Анна", "Богдан", "Вікторія", "Ярослав")):
        sheet = sheet.replace(f'"{english}"', f'"{cyrillic}"')
    run("score " + sheet)
    run("new sword players=romans,gauls,etruscans,greeks seed=3")
    run("vp gauls +7")
    for _ in range(9 * 5):
        run("advance")
    for line in ["new sword players=romans,gauls seed=3", "scoring romans outside=4 missing=0 auto=3",
                 "new bag items=gold*3,silver*2 seed=6", "draw 2", "end",
                 "new dice seed=7", "roll 3d6", "end",
                 "new caesar-solo side=pompey difficulty=hard seed=8",        # abandoned by the next one
                 "new dice seed=9"]:
        run(line)


LONG_NAMES = ["Ґалина-Їжакевич", "Олександра.Єрмак", "Ёлкина-Соловьёва", "Д'Артаньян-Ґонта"]   # 15-16 letters


def long_names(run: Callable[[str], dict]) -> None:
    """The longest names a person can type (16 letters for a player, 24 for a bag's item, capitals
    with marks above), three-digit scores after round 9, and a bag of them beside the game."""
    run("new glory players=" + ",".join(LONG_NAMES) + " seed=2 harsh=1")
    run(f"fame {LONG_NAMES[0]} +140")                      # past 100 with 5 supporters (G-20's fame_100)
    run(f"fame {LONG_NAMES[1]} +99")
    run(f"vote {LONG_NAMES[3]} n=2")
    run("kit new items=Ґудзик-срібний-великий01*2,Ґудзик-срібний-великий02*2")     # while the game runs: once
    run("kit draw 3")                                       # it is over, nothing more is drawn (PROTOCOL)
    for _ in range(9):
        run("event")
        run("end-round")
    for name in LONG_NAMES:
        run(f"sheet {name} denarii 300")
        run(f"sheet {name} objectives 60")
    run("score sheet")


SETUPS: dict[str, list[str] | Callable[[Callable[[str], dict]], None]] = {
    "no-session": [],
    "caesar-solo": ["new caesar-solo side=caesar difficulty=normal seed=5", "crassus"],
    "caesar-pompey": ["new caesar-solo side=pompey difficulty=hard poison=1 centurions=1 border-control=1 seed=8"],
    "caesar-duel": ["new caesar-duel seed=3"],
    "jc-battle": ["new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add attacker c_leg10",
                  "add attacker c_leg8", "add defender p_pompeius", "add defender p_leg1"],
    "glory": ["new glory players=Анна,Богдан,Вікторія,Ярослав seed=2 harsh=1", "fame Анна +13", "vote Богдан",
              "event"],                                       # Harsh Times 2 (G-2)
    "sword": ["new sword players=romans,gauls,etruscans,greeks seed=2"],
    # the secret objectives (G-19), each player's hand looked at through the pass screen
    "glory-objectives": ["new glory players=Вікторія,Ярослав,Анна seed=4", "deal"],
    # a campaign's next battle: the Add lists' «Last battle» row, a defector (J-2), Blocks' levy steps
    "jc-next-battle": ["new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add attacker c_leg10",
                       "add defender p_pompeius", "add defender p_leg1", "add defender cleopatra", "start", "fight",
                       "next-battle attacker=pompey", "owner p_leg1 caesar"],
    # the box's bags and tiles (the token grid, S-5's new stack), Cleopatra's rule and navis in the
    # reserve (J-2, J-8), Glory's Truce and Heroes (G-19)
    "caesar-box": ["new caesar-solo side=pompey bag-input=physical tiles-input=physical centurions=1 "
                   "row=sword:3/3,ship:4/2,wild:2/2 seed=9"],
    "jc-navis": ["new jc-battle attacker=caesar cleopatra=turn seed=5", "add attacker c_caesar", "add attacker c_nav1",
                 "add attacker c_leg10", "add defender p_pompeius", "add defender cleopatra", "add defender p_nav1",
                 "add defender p_leg1"],
    "glory-variants": ["new glory players=Анна,Богдан,Вікторія truce=1 heroes=1 seed=6", "deal"],
    "dice": ["new dice seed=1", "roll 3d6", "roll 100d1000-10000"],         # the longest expression
    "bag": ["new bag items=gold*3,silver*2,bronze cards=legio*4,senator*2 seed=7", "draw 2"],
    "history": finished_games,
    "archive": finished_games,
    "long-names": long_names,
}


def history_screen(app: Any) -> None:
    from firmware.screens.history import HistoryScreen
    app.push(HistoryScreen())


def archive_screen(app: Any) -> None:
    from firmware.screens.archive import open_archive
    open_archive(app)


def objectives_screen(app: Any) -> None:
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.objectives import ObjectivesScreen
    if app.console.session is None or app.console.session.game.name != "glory":
        return                                               # (the walk before left the game)
    app.push(GloryHome())
    app.push(ObjectivesScreen())


def add_screen(app: Any) -> None:
    from firmware.screens.jc.home import JcHome
    from firmware.screens.jc.setup import AddScreen
    if app.console.session is None or app.console.session.game.name != "jc-battle":
        return                                               # (the walk before left the game)
    app.push(JcHome())
    app.push(AddScreen("attacker"))


START: dict[str, Callable[[Any], None]] = {"history": history_screen, "archive": archive_screen,
                                           "glory-objectives": objectives_screen, "jc-next-battle": add_screen}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@lru_cache(maxsize=None)
def _ink_box(text: str, kind: str) -> tuple[int, int, int, int] | None:
    """The box of the pixels ``text`` lights, from its cell's top-left (None: none)."""
    return base.font(kind).getmask(base.drawable(text, kind)).getbbox()


def crowded(texts: list[tuple[int, int, str, str]], where: str) -> set[str]:
    """A list row's label and its value in words side by side with less than two columns between
    them: read as one phrase («Campaign over Caesar», «Внесок гравців немає»), as if the value
    were the label's next word."""
    out = set()
    shown = [(x, y, t.rstrip(), kind) for x, y, t, kind in texts if t.strip() and y > base.TITLE_H]
    for x, y, t, kind in shown:
        end = x + len(t) * base.advance(kind)
        for x2, y2, t2, kind2 in shown:
            # a figure, a date, a choice ‹…›, a rating (IV→III), a value after a label's «…» stand apart
            if (y2 == y and kind2 == kind and x2 >= end and x2 - end < 2 * base.advance(kind) - 1
                    and t2.split()[0].isalpha() and t[-1].isalnum()):
                out.add(f"{where}: {t!r} and {t2!r} {x2 - end} px apart at y={y}")
    return out


def run_together(img: Any, texts: list[tuple[int, int, str, str]], where: str) -> set[str]:
    """A title and its status in the title bar within two columns of each other with no cut in the
    bar between them: read as one phrase («Приказ Б A: сохранить», «Battle defender wins»)."""
    bar = sorted((x, t.rstrip()) for x, y, t, kind in texts if y <= 0 and kind == "body" and t.strip())
    out = set()
    for (x, t), (x2, t2) in zip(bar, bar[1:]):
        end = x + len(t) * base.CHAR_W
        if not 0 <= x2 - end <= 2 * base.CHAR_W:       # (a bar drawn twice: two titles at x=1)
            continue
        if not any(all(img.getpixel((c, r)) == 0 for r in range(base.TITLE_H)) for c in range(end, x2)):
            out.add(f"{where}: title {t!r} and status {t2!r} {x2 - end} px apart, the bar uncut")
    return out


def frame_faults(app: Any) -> set[str]:
    """What the frame now on top shows wrong: a text whose pixels leave the panel (a title's mark
    above a capital drawn off the top, a row past the right edge), a character drawn as the
    replacement box (no glyph), a list whose cursor row is not on the panel."""
    from firmware.screens.widgets.listing import ListScreen
    img, texts = base.traced(app.render)
    screen = app.stack[-1]
    where = type(screen).__name__
    faults = set()
    for x, y, text, kind in texts:
        box = _ink_box(text, kind) if text.strip() else None
        if box is not None and not (x + box[0] >= 0 and y + box[1] >= 0 and x + box[2] <= base.W
                                    and y + box[3] <= base.H):
            faults.add(f"{where}: off the panel at ({x},{y}): {text!r}")
        if base.missing(text, kind):
            faults.add(f"{where}: no glyph for {sorted(base.missing(text, kind))} in {text!r}")
    if app.message is None and app.commitment is None:       # (a notice's box covers the bar's cut)
        faults |= run_together(img, texts, where)
    if isinstance(screen, ListScreen):
        faults |= crowded(texts, where)
    if isinstance(screen, ListScreen) and app.message is None:
        items = screen.items(app)
        _first, rows = screen.region(app)
        heights = screen._heights(items, rows)
        if items and not (screen.top <= screen.cursor and sum(heights[screen.top:screen.cursor + 1]) <= rows):
            faults.add(f"{where}: the cursor's row {screen.cursor} is off the panel (rows {screen.top}…)")
        faults |= blank_end(texts, heights, screen.top, *screen.region(app), where)
    return faults


def test_a_traced_frame_gives_its_texts_and_leaves_the_trace_off():
    """``base.traced`` (the frame :func:`frame_faults` and scripts/monkey.py check): the texts the
    frame drew, in order with their places and fonts; and the trace off after it, when the drawing
    raised too (else every later frame's texts were kept, a list growing for as long as it ran)."""
    def render():
        img, draw = base.frame()
        base.title_bar(draw, "Игры")
        base.text(draw, 1, base.row_y(0), "Ход 2", kind="bold")
        return img

    img, texts = base.traced(render)
    assert texts == [(1, -1, "Игры", "body"), (1, base.row_y(0), "Ход 2", "bold")]
    assert img.getbbox() is not None and base.TRACE is None

    def failing():
        render()
        raise OSError("the panel")
    with pytest.raises(OSError):
        base.traced(failing)
    assert base.TRACE is None


def blank_end(texts: list[tuple[int, int, str, str]], heights: list[int], top: int, first: int, rows: int,
              where: str) -> set[str]:
    """A list whose next item does not fit in the rows left under the last one shown, and which
    leaves them blank: a blank row reads as the list's end, with only the scroll bar saying that
    more items follow (Caesar! «Взять центуриона» hid «Нет (тянуть как обычно)»)."""
    used, k = 0, top
    while k < len(heights) and used + heights[k] <= rows:
        used, k = used + heights[k], k + 1
    if k == len(heights) or used == rows:
        return set()
    y = base.row_y(first + used)
    if any(t.strip() and y <= ty < y + base.LINE for _x, ty, t, _kind in texts):
        return set()
    return {f"{where}: rows {used + 1}…{rows} left blank with item {k} of {len(heights)} still to come"}


def caller() -> str:
    """Where ``base.clip`` was called from: the screen's file and line."""
    frame = sys._getframe(2)
    return f"{Path(frame.f_code.co_filename).relative_to(Path(base.__file__).parents[2])}:{frame.f_lineno}"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("setup", list(SETUPS))
def test_random_keys_find_no_clipped_text(setup: str, lang: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    app = app_with([], [], tmp_path, lang=lang)
    cut: dict[tuple[str, str, int], str] = {}
    seen: set[str] = set()
    faults: set[str] = set()
    clip = base.clip

    def recording(text: str, width: int = base.COLS) -> str:
        out = clip(text, width)
        if out != text:
            cut.setdefault((i18n.language(), text, width), f"{caller()} {type(app.stack[-1]).__name__}")
        return out
    monkeypatch.setattr(base, "clip", recording)

    def run(line: str) -> dict:
        response = app.run(line)
        assert response["ok"], (line, response)
        return response
    try:
        prepare = SETUPS[setup]
        if callable(prepare):
            prepare(run)
        else:
            for line in prepare:
                run(line)
        for seed, keys in [(seed, keys) for seed in SEEDS for keys in (KEYS, DEEP)]:
            rng = random.Random(f"{setup}-{lang}-{seed}-{len(keys)}-{keys[2]}")
            app.stack = app.stack[:1]                         # each walk from the main menu,
            if setup in START:                                # or History's list, or Earlier games
                START[setup](app)
            i18n.set_language(lang)
            for _ in range(STEPS):
                faults |= frame_faults(app)
                seen.add(type(app.stack[-1]).__name__)
                app.handle(rng.choice(keys))
            faults |= frame_faults(app)
        assert app.errors == 0
        assert len(seen) >= 5, seen                           # the walk went places
    finally:
        app.console.close()
    assert not cut, "texts cut with '…':\n" + "\n".join(
        f"  {lg} w={w} {text!r} ({where})" for (lg, text, w), where in sorted(cut.items()))
    assert not faults, "\n".join(sorted(faults))


def _shots() -> list[tuple[str, list[str], list[str]]]:
    """Every screen the screenshot scripts show (the README tour and scripts/shots_<game>.py)."""
    import importlib
    from scripts import screenshots
    shots = [(f"tour/{name}", setup, keys) for name, setup, keys in screenshots.SHOTS]
    for path in sorted(Path(screenshots.__file__).parent.glob("shots_*.py")):
        shots += [(f"{path.stem[6:]}/{name}", setup, keys)
                  for name, setup, keys in importlib.import_module(f"scripts.{path.stem}").SHOTS]
    return shots


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_every_shot_frame_by_frame(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every frame on the way to every screen of the screenshot scripts, in each language, passes
    :func:`frame_faults` (no list leaving rows blank before more items, no title run into its
    status, no text off the panel) and cuts nothing with '…': the screens a walk of random keys
    seldom reaches (Caesar!'s «Взять центуриона» behind a Centurion bonus)."""
    faults: set[str] = set()
    cut: set[str] = set()
    clip = base.clip

    def recording(text: str, width: int = base.COLS) -> str:
        out = clip(text, width)
        if out != text:
            cut.add(f"{text!r} w={width} ({caller()})")
        return out
    monkeypatch.setattr(base, "clip", recording)
    for n, (name, setup, keys) in enumerate(_shots()):
        app = app_with(setup, [], tmp_path / str(n), lang=lang)
        try:
            for key in keys:
                faults |= {f"{name}: {f}" for f in frame_faults(app)}
                app.handle(key)
            faults |= {f"{name}: {f}" for f in frame_faults(app)}
            assert app.errors == 0, name
        finally:
            app.console.close()
    assert not cut, "texts cut with '…':\n" + "\n".join(sorted(cut))
    assert not faults, "\n".join(sorted(faults))


# -- every glyph whole, every word whole: the shared drawing toolkit ----------------------------
def _all_characters() -> str:
    """Every character a screen can write: the catalogs' sentences in every language and the
    letters a person can type (the name keyboard's, both cases)."""
    from firmware.screens.widgets.keyboard import ALPHABETS
    from scripts import i18n as catalogs
    chars = set("".join(ALPHABETS.values()) + "".join(ALPHABETS.values()).upper() + "0123456789-.")
    for po in catalogs.LOCALE.glob("*/LC_MESSAGES/*.po"):
        for e in catalogs.read_po(po)[1].values():
            chars |= set(e.msgid + "".join(e.msgstr))
    return "".join(sorted(c for c in chars if c.isprintable() and not c.isspace()))


def _ink(s: str, kind: str = "body") -> int:
    """How many pixels the font of ``kind`` lights for ``s``."""
    from PIL import Image, ImageDraw
    img = Image.new("1", (len(s) * base.advance(kind) + 8, base.cell_height(kind) + 8), 0)
    ImageDraw.Draw(img).text((4, 4), s, font=base.font(kind), fill=1)
    return img.convert("L").histogram()[255]


def test_the_title_bar_shows_every_glyph_whole():
    """A capital's mark above (Ukrainian Ґ Ї, Russian Ё, Й) is the top row of the font's cell: a
    title drawn a pixel up to fit the 11-pixel bar lost it («Ґалина» read «Галина», «Його» had no
    breve). Every character, as a title and as a status, keeps all its pixels in the bar."""
    lost = []
    for ch in _all_characters():
        for title, status in ((ch, ""), ("x", ch)):
            img, draw = base.frame()
            base.title_bar(draw, title, status)
            bar = [y for y in range(base.H) if img.getpixel((base.W // 2, y))]     # the bar's rows
            shown = sum(1 for y in bar for x in range(base.W) if not img.getpixel((x, y)))
            if shown != _ink(title) + _ink(status):
                lost.append((title, status))
    assert not lost, f"cut in the title bar: {''.join(t + s for t, s in lost)!r}"


def _words_cut(text: str, width: int) -> list[str]:
    """The rows of ``base.wrap(text, width)`` that end inside a word without a mark of the break
    (a dash or hyphen of the word, a hyphen added at the cut, a slash or underscore of a path), and any row
    wider than ``width`` or not read in the text's order."""
    bad = []
    rows = base.wrap(text, width)
    flat = " ".join(text.split())
    pos = 0
    for row in (r for r in rows if r):
        if len(row) > width:
            bad.append(row)
        if flat.startswith(row, pos):
            pos += len(row)
        elif row.endswith("-") and flat.startswith(row[:-1], pos):
            pos += len(row) - 1                          # a hyphen the cut added
        else:
            return bad + [f"{row!r} out of order"]
        if pos < len(flat) and flat[pos] == " ":
            pos += 1
        elif pos < len(flat) and not row.endswith(base.BREAKS):
            bad.append(row)
    return bad


# The longest words a sentence holds: a border of two provinces, a bag's item and a player's name
# as typed (24 and 16 characters, hyphens allowed), a path.
LONG_WORDS = ["Галлія–Цизальпійська,", "Мавретания–Сардиния;", "Предметїєґ03-длинныйЁ.", "Д'Артаньян-Ґонта",
              "scripts/verify_draws.py", "Вікторіяаоооіііzп"]


@pytest.mark.parametrize("width", [base.COLS, base.COLS - 2])     # a text screen's rows, a notice's
def test_wrap_never_cuts_a_word_without_a_mark(width: int):
    """A word longer than a row (a border «Італія–Цизальпійська», a typed name with hyphens) was
    cut where the row ended («…Цизальпійськ» / «а»): it breaks after its own dash or hyphen, else
    with a hyphen added at the cut. Every sentence of the catalogs, its fields the longest words."""
    import re
    from scripts import i18n as catalogs
    cut: set[str] = set()
    for po in catalogs.LOCALE.glob("*/LC_MESSAGES/*.po"):
        for e in catalogs.read_po(po)[1].values():
            for s in [e.msgid, *e.msgstr]:
                for word in LONG_WORDS:
                    for para in re.sub(r"\{[^{}]*\}", word, s).split("\n"):
                        cut |= {f"{row!r} in {para!r}" for row in _words_cut(para, width)}
    assert not cut, f"{len(cut)} words cut:\n" + "\n".join(sorted(cut)[:20])


def _ties_broken(text: str, width: int, wrap: Callable[[str, int], list[str]] = base.wrap) -> list[str]:
    """The breaks of ``base.wrap(text, width)`` a typographer would not make: a row ending with an
    arrow («1 marker →» / «Syria»), a number before its noun («(1» / «ПО)»), a Russian or
    Ukrainian one-letter word («й» / «викладіть»; About's «(в» / «настройках»), an equals sign left at a row's end
    («5,2,2+3 =» / «12»: it goes on with its result), a row beginning with a dash, a one-letter
    abbreviation torn from the word before it («49 до» / «н. э.»), a last row of one or two letters
    alone («Undo: hold» / «B.»): each where its tie would have fitted a row. A
    number after a capitalised word is that name's («Legio 1 / loses»): it stays with the name
    (a capitalised verb opening a sentence is taken for a name too: «Перемешайте 3 / жетона»), an
    opening bracket before the name and a stop after the number too (JC's battle log «1 хіт
    (Легіон» / «10 II→I)», «атакує Легіон» / «5, 1 хіт»), and a unit in capitals after it stays
    with the number as after any number («Помпей 8» / «ПО).»); when the three do not fit a row,
    the number goes with its unit («Д'Артаньян-Ґонта» / «12 ПО»)."""
    rows = [r for r in wrap(text, width) if r]
    words = set(text.split())
    bad = []

    def name(word: str) -> bool:
        bare = word.lstrip("(«")
        return bare[:1].isupper() and bare.isalpha() or word in base.NUMBER_SIGNS

    def unit(word: str) -> bool:
        bare = word.rstrip(")»,.:;!?")
        return (bare not in base.ONE_LETTER and not any(ch.islower() for ch in bare)
                and any(ch.isalpha() for ch in bare))

    for row, after in zip(rows, rows[1:]):
        *before, last = row.split()
        first, *rest = after.split()
        if len(f"{last} {first}") > width or first not in words:     # (a word broken: no tie to keep)
            continue
        named = before and last[:1] not in "(«" and name(before[-1])      # «Legio 1», «no. 1»; not «Dice (2»
        if (last.endswith("→") or last.lstrip("(«") in base.ONE_LETTER or first in ("—", "–") or last == "="
                or first[:1].islower() and first[1:2] == "."
                or re.fullmatch(r"[(«]?\d+", last) and first[:1].islower() and not named
                or re.fullmatch(r"\d+", last) and named and unit(first)
                or re.fullmatch(r"[(«]?\d+", last) and re.fullmatch(r"\d+[)»,.:;!?]*", first)):   # dice: «1 4» / «6,»
            bad.append(f"{row!r} / {after!r}")
        if last in base.NUMBER_SIGNS and re.fullmatch(r"\d+\W?", first):        # «no.» / «1 for…»
            bad.append(f"{row!r} / {after!r}")
        number = re.fullmatch(r"\d+(?:[.,]\d+)?[)»,.:;!?]*", first)
        carried = (number and re.fullmatch(r"\d+", first) and rest and unit(rest[0])     # «Name» / «12 ПО»
                   and len(f"{last} {first} {rest[0]}") > width)
        if number and name(last) and not carried:                                   # «(Легіон» / «10 II→I)»
            bad.append(f"{row!r} / {after!r}")
    if len(rows) > 1 and len(rows[-1]) <= 2 and len(rows[-2].split()[-1]) + 1 + len(rows[-1]) <= width:
        bad.append(f"{rows[-2]!r} / {rows[-1]!r}")
    return bad


@pytest.mark.parametrize("width", [base.COLS, base.COLS - 2, base.COLS - 4])  # a text screen's, a notice's
def test_wrap_keeps_a_typographer_s_ties(width: int):
    """Every sentence of the catalogs (en, ru, uk; a field filled with a name, then a number), wrapped: an arrow
    stays with where it points, a number with its noun, an equals sign with both sides, a one-letter Russian or Ukrainian word with
    the next word, a dash off the start of a row, an abbreviation whole (the Log's JC year: «49 до» /
    «н. э.): 27 карт»), and no word of one or two letters is left alone on a last row (Caesar!'s
    «Crassus: 1 marker →» / «Syria», JC's «трофей (1» / «ПО) получит», «Undo: hold» / «B.»)."""
    from scripts import i18n as catalogs
    broken: set[str] = set()
    for po in catalogs.LOCALE.glob("*/LC_MESSAGES/*.po"):
        for e in catalogs.read_po(po)[1].values():
            for s in [e.msgid, *e.msgstr]:
                for fill in ("Syria", "1"):                  # a field: a name, a number («no. {}»)
                    for para in re.sub(r"\{[^{}]*\}", fill, s).split("\n"):
                        broken |= {f"{b} in {para!r}" for b in _ties_broken(para, width)}
    assert not broken, f"{len(broken)} ties broken:\n" + "\n".join(sorted(broken)[:20])


@pytest.mark.parametrize("width", [base.COLS - 1, base.COLS - 3, base.COLS - 5])   # a label alone, beside a value
def test_list_labels_keep_a_typographer_s_ties(width: int):
    """A list row's label too long for its row wraps by its own rules (after a dash, «Мавретания–» /
    «Нумидия»), and keeps the same ties as a text's rows: History's «Мешочек и» / «колода ~27.11»
    left the one-letter «и» at a row's end (uk «Торбинка і» / «колода»), and a game's page broke
    its score between the figures («победил Цезарь, ПО 11–» / «2.»). Every sentence of the
    catalogs wrapped as a label."""
    from scripts import i18n as catalogs
    from firmware.screens.widgets.listing import wrap_label
    broken: set[str] = set()
    for po in catalogs.LOCALE.glob("*/LC_MESSAGES/*.po"):
        for e in catalogs.read_po(po)[1].values():
            for s in [e.msgid, *e.msgstr]:
                for fill in ("Syria", "1"):
                    for para in re.sub(r"\{[^{}]*\}", fill, s).split("\n"):
                        broken |= {f"{b} in {para!r}" for b in _ties_broken(para, width, wrap_label)}
    assert not broken, f"{len(broken)} ties broken:\n" + "\n".join(sorted(broken)[:20])
