"""The players' share on the device (issue 20, docs/fairness.md section 2): every game's new-game form
shows the fair-draw code as it opens (``commit``: the secret the game will use, fixed before the
share is known), has an optional share row — dice thrown on the table or a word — that costs no
press to skip, and starts the game with ``new … share=<text>``; History → Fair draw says the share
or that it was skipped."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware.fairness import commitment
from firmware.screens.widgets.share import FairShare, ShareDice, ShareMenu
from tests.fakectx import FakeCtx
from tests.screens import SECRET, app_with

CODE = commitment(1)          # FakeCtx's secret for the next ``new`` is 1


def _caesar() -> Any:
    from firmware.screens.caesar.setup import setup_form
    return setup_form(lambda ctx, lead: None)


def _glory() -> Any:
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.setup import SetupScreen
    return SetupScreen(GloryHome)


def _jc() -> Any:
    from firmware.screens.jc.home import JcHome
    from firmware.screens.jc.setup import setup_form
    return setup_form(home=JcHome)


def _sword() -> Any:
    """The Sword's "Who plays?" form of its first preset (the presets list asks nothing: the share
    goes where the players are named)."""
    from firmware.screens.sword.home import PeopleForm
    from firmware.screens.sword.words import PRESETS
    return PeopleForm(PRESETS[0][1].split(","))


def _bag() -> Any:
    from firmware.screens.kit.bag import PresetScreen
    return PresetScreen()


# form, the keys that start the game from where it opens or from its first row, the start of the line it runs
FORMS: dict[str, tuple[Callable[[], Any], list[str], str]] = {
    "caesar": (_caesar, ["a"], "new caesar-solo"),
    "glory": (_glory, ["up", "a"], "new glory"),           # (it opens on player 1: up to the count)
    "jc": (_jc, ["a"], "new jc-battle"),
    "sword": (_sword, ["a"], "new sword"),
    "bag": (_bag, ["down", "down", "a"], "new bag"),
}


def _to(ctx: FakeCtx, ident: str) -> None:
    """Move the form's cursor down onto the row ``ident`` (from the row it is on)."""
    idents = [i.key for i in ctx.top.items(ctx)]
    ctx.press(*["down"] * (idents.index(ident) - ctx.top.cursor))


def _first_row(ctx: FakeCtx) -> None:
    ctx.press(*["up"] * len(ctx.top.items(ctx)))


@pytest.mark.parametrize("game", sorted(FORMS))
def test_every_new_game_form_shows_the_code_as_it_opens_and_skipping_the_share_costs_nothing(game):
    form, start, line = FORMS[game]
    ctx = FakeCtx().open(form())
    ctx.render()
    asked = [x for x in ctx.lines if x != "players"]                 # (a form with seats reads the known players)
    assert asked == ["commit"] and ctx.commitments == [CODE]          # shown (large) as the form opens
    rows = {i.key: i for i in ctx.top.items(ctx)}
    assert rows["fair:code"].value == CODE[:8] and rows["fair:share"].value == "none"
    ctx.press(*start)
    assert ctx.lines[-1].startswith(line) and "share=" not in ctx.lines[-1]
    assert ctx.commitments == [CODE]                                   # not shown again after the start
    fair = ctx.fair_draw()
    assert fair.commitment == CODE and fair.share is None


@pytest.mark.parametrize("game", sorted(FORMS))
def test_a_share_of_three_dice_goes_on_the_new_line(game):
    form, start, line = FORMS[game]
    ctx = FakeCtx().open(form())
    ctx.render()
    _to(ctx, "fair:share")
    ctx.press("a")
    assert isinstance(ctx.top, ShareMenu)
    ctx.press("a")                                   # Dice thrown on the table…
    assert isinstance(ctx.top, ShareDice)
    ctx.press("up", "up", "right", "down", "right", "down", "a")   # 3, 6 (1 round down), 6: 7 presses
    assert "3-6-6" in ctx.texts()                    # the share row shows it
    _first_row(ctx)
    ctx.press(*start)
    assert ctx.lines[-1].startswith(line) and ctx.lines[-1].endswith(" share=3-6-6")
    fair = ctx.fair_draw()
    assert fair.commitment == CODE and fair.share == "3-6-6"


def test_a_word_typed_with_the_name_keyboard_is_a_share():
    from firmware.screens.widgets.keyboard import TypeScreen
    ctx = FakeCtx().open(_jc())
    ctx.render()
    _to(ctx, "fair:share")
    ctx.press("a", "down", "a")                      # A word…
    assert isinstance(ctx.top, TypeScreen)
    ctx.press("right", "a", "a:hold")                # "b", done
    assert "b" in ctx.texts()
    _first_row(ctx)
    ctx.press("a")
    assert ctx.lines[-1] == "new jc-battle attacker=caesar surprise=0 dice=digital cleopatra=turn share=b"


def test_a_bad_share_gets_the_consoles_message_and_changes_nothing(state_dir: Path):
    """The share the form keeps is checked as the console checks it (engine/rng.py check_share)."""
    app = app_with([], [], state_dir)
    try:
        fair = FairShare()
        fair.open(app)
        assert fair.code == commitment(SECRET)
        assert fair.take(app, "3-1-6")
        for bad in ("a b", "x" * 65):
            said = app.console.request(f"new dice share={bad}" if " " not in bad else "commit")
            assert said["ok"] or said["error"] == "bad_arguments"
            assert not fair.take(app, bad)
            assert fair.text == "3-1-6"                              # nothing changed
        assert "1 to 64 characters" in " ".join(app.message or [])
        console_says = app.console.request("new dice share=" + "x" * 65)["message"]
        assert " ".join(app.message or []).replace(" ", "") == console_says.replace(" ", "")
    finally:
        app.console.close()


def test_the_share_dice_take_back_an_extra_die_and_stop_at_six():
    got: list[str] = []
    ctx = FakeCtx().open(ShareDice(lambda c, text: got.append(text)))
    ctx.press("right", "right", "left", "left")      # two dice added, neither turned: both taken back
    ctx.press("up", "right", "up", "up", "left")     # 2, then 3 (turned: kept when the cursor goes back)
    ctx.press(*["right"] * 10, "a")
    assert got == ["2-3-1-1-1-1"]                    # six dice at most


def test_right_held_along_the_share_dice_adds_no_die_the_table_did_not_throw():
    """Right at the last die adds one more (a press of its own); held right to reach the last die,
    its repeats added dice up to six, and their 1s went into the share."""
    got: list[str] = []
    ctx = FakeCtx().open(ShareDice(lambda c, text: got.append(text)))
    ctx.press("up", "right", "up", "up", "right", "down")          # three dice: 2 3 6
    ctx.press("left", "left:repeat")                                # back to the first
    ctx.press("right", "right:repeat", "right:repeat", "right:repeat")
    ctx.press("a")
    assert got == ["2-3-6"]


def test_on_the_device_the_share_starts_the_game_and_history_says_it(state_dir: Path):
    """The App: the form's code is the game's commitment; Fair draw shows the share; a game started
    without one says the share was skipped."""
    from firmware.screens.fair_draw import FairDrawScreen
    app = app_with([], [], state_dir)
    try:
        form = _jc()
        app.push(form)
        app.render()
        assert app.commitment == commitment(SECRET)
        app.handle("down")                                           # the code box closes, the cursor moves
        assert app.stack[-1] is form and app.commitment is None and form.cursor == 1
        share = [i.key for i in form.items(app)].index("fair:share")   # under the figures and the two sides
        for key in ["down"] * (share - 1) + ["a", "a", "up", "right", "a"]:   # share: dice 2-1
            app.render()
            app.handle(key)
        for key in ["up"] * share + ["a"]:                           # start (A on a field row)
            app.render()
            app.handle(key)
        session = app.console.session
        # (then what the firmware stores)
        assert session.header["line"].endswith(" share=2-1 rolls=apart pool=setup remove=restore ties=partial leaders=last")
        assert app.console.request("state")["state"]["commitment"] == commitment(SECRET)
        assert app.commitment is None                                # the form showed the code already
        app.push(FairDrawScreen())
        app.render()
        assert app.stack[-1].items(app)[0].label == "Share: 2-1"
        assert app.run(app_line("new dice"))["ok"]                  # a game started without a share
        assert app.stack[-1].items(app)[0].label == "Players' share…"
        assert app.run(app_line("roll 2d6"))["ok"]
        row = app.stack[-1].items(app)[0]
        assert row.label == "No share…" and row.run is not None      # it says why (a whole sentence)
        row.run(app)
        assert "none was given before the first draw" in " ".join(app.stack[-1].rows)
    finally:
        app.console.close()


def app_line(text: str) -> Any:
    from engine.actions import replayed
    return replayed(text)


def _caesar_duel() -> Any:
    form = _caesar()
    form.fields[0].value = 1                          # Players: duel (the two people rows)
    return form


HINTED: dict[str, Callable[[], Any]] = {"caesar": _caesar, "caesar-duel": _caesar_duel, "glory": _glory, "jc": _jc}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("game", sorted(HINTED))
def test_the_title_bar_says_what_a_does_on_the_row_under_the_cursor(game, lang):
    """A starts the game on a figure row and on Start; on a player it opens the list of players;
    on the code it shows the code large; on the share it offers the ways to give one. The title
    and the hint fit the bar together in every language (nothing cut)."""
    from firmware.i18n import _
    from firmware.screens import base
    ctx = FakeCtx(lang=lang, players=["Анна", "Борис"]).open(HINTED[game]())
    ctx.render()
    _first_row(ctx)
    form = ctx.top
    want = {"fair:code": "A: enlarge", "fair:share": "A: choose", "seat": "A: choose", "field": "A: start",
            "start": "A: start"}
    seen = set()
    for row in [i.key for i in form.items(ctx)]:
        assert form.items(ctx)[form.cursor].key == row
        hint = form.status(ctx)
        kind = row if row.startswith("fair:") or row == "start" else row.split(":")[0]
        assert hint == _(want[kind]), (row, hint)
        assert len(form.title) + 1 + len(hint) <= base.COLS, (form.title, hint)
        seen.add(kind)
        ctx.press("down")
    assert {"fair:code", "fair:share", "field"} <= seen and ("seat" in seen) == (game != "caesar")


# (the lines, and why the game has no share) — PROTOCOL.md third round, "The players' share"
NO_SHARE_GAMES = [
    (["new dice", "end"], "none"),                                    # given no share, nothing drawn
    (["new dice", "roll 2d6", "end"], "drawn"),                       # a draw before any share
    (["new dice", "roll 2d6", "undo", "end"], "undone"),              # a draw seen, undone: closed
    (["commit", "new caesar-solo", "end"], "setup"),                  # Caesar! draws at set-up (C-3)
]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_history_says_why_a_game_took_no_share_in_a_whole_sentence(state_dir: Path, lang: str):
    """History → a game said «Вклад пропущен» whatever happened: the players must read why the
    game has no share — they gave none, or a draw (at set-up, before one was given, or seen and
    undone) closed it —, a whole sentence of their language on the game's rows, never cut."""
    from firmware import fairness, history
    from firmware.console import Console
    from firmware.history_text import NO_SHARE_WORDS, TEXTS
    from firmware.i18n import set_language
    from firmware.screens.history import detail_rows
    from firmware.screens.widgets.listing import Item, item_rows
    from firmware.store import Store
    store = Store(state_dir)
    console = Console(store, store.resume())
    try:
        assert console.request(f"settings language={lang}")["ok"]
        for lines, _why in NO_SHARE_GAMES:
            for line in lines:
                assert console.request(line)["ok"], line
        assert console.request("new jc-battle")["ok"]                  # (files the last one)
        entries = fairness.attach(store.db, history.games(store.db))[::-1]
        assert [e["no_share"] for e in entries] == [why for _lines, why in NO_SHARE_GAMES]
        set_language(lang)
        said = {why: TEXTS.gettext(NO_SHARE_WORDS[why]) for _lines, why in NO_SHARE_GAMES}
        assert len(set(said.values())) == len(said)
        if lang != "en":
            assert all(s != NO_SHARE_WORDS[w] for w, s in said.items())      # translated
        for e in entries:
            assert said[str(e["no_share"])] in detail_rows(e), detail_rows(e)
        for sentence in said.values():                                 # the game's page never cuts it
            assert " ".join(item_rows(Item(sentence))) == sentence, sentence
    finally:
        set_language("en")
        console.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_long_share_is_read_whole_on_fair_draw_and_on_the_games_page(state_dir: Path, lang: str):
    """A share is up to 64 characters (PROTOCOL.md third round): Fair draw had two rows under the
    code for «Вклад: …» and showed 19 of them; the game's page in History four, and lost the last
    7. Both now show every character (the page on rows of its own, Fair draw on the row's page)."""
    from firmware.screens.fair_draw import FairDrawScreen
    from firmware.screens.history import GameScreen
    from firmware.screens.widgets.listing import item_rows
    share = "Жребий" * 10 + "Рим!"
    app = app_with(["new dice", f"share {share}", "roll 2d6"], [], state_dir, lang)
    try:
        def shown(rows: list[str]) -> str:
            return "".join(r[:-1] if r.endswith("-") else r for r in rows)
        app.push(FairDrawScreen())
        app.render()
        screen = app.stack[-1]
        first, rows = screen.region(app)
        row = screen.items(app)[0]
        if share not in shown(item_rows(row, rows)):
            assert row.run is not None, item_rows(row, rows)
            row.run(app)
            assert share in shown(app.stack[-1].rows)
        assert app.run(app_line("end"))["ok"]
        entry = app.history(1)[0]
        page = GameScreen(entry).items(app)
        assert share in "".join(shown(item_rows(i)) for i in page)
    finally:
        app.console.close()


@pytest.mark.parametrize("game", sorted(set(FORMS) - {"bag"}))
def test_every_new_game_form_says_in_its_title_what_A_does_on_the_fair_draw_rows_and_on_start(game):
    """The same rows, the same hint: Caesar!'s, Julius Caesar's and Glory's forms said "A: enlarge"
    on the code and "A: choose" on the share; the Sword's "Who plays?" said nothing anywhere. (The
    bag's list of presets is no form: its title, "New bag or deck", leaves no room for a hint.)"""
    form, _start, _line = FORMS[game]
    ctx = FakeCtx().open(form())
    ctx.render()
    hints = {}
    for ident in ("fair:code", "fair:share"):
        _first_row(ctx)
        _to(ctx, ident)
        hints[ident] = ctx.top.status(ctx)
    assert hints == {"fair:code": "A: enlarge", "fair:share": "A: choose"}, hints
    idents = [i.key for i in ctx.top.items(ctx)]
    if "start" in idents:
        _first_row(ctx)
        _to(ctx, "start")
        assert ctx.top.status(ctx) == "A: start"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("share", [None, "b", "3-6-6", "1-2-3-4-5-6", "Marcus", "Aquilifer"])
def test_each_fair_draw_row_of_every_form_is_one_row(lang, share):
    """The new-game form's fair-draw rows (every game's, one part) each on one row: in uk
    «Внесок гравців» beside «немає» wrapped onto two rows («Внесок» / «гравців  немає»), and a
    share given beside «Players' share» (a word, 4 dice) did in every language, pushing the form's
    next row off the page; now «—» where «none» does not fit, and a share given is the «Share»
    row, the share as much as fits (History → Fair draw says it whole)."""
    from firmware.screens.widgets.listing import item_rows
    ctx = FakeCtx(lang=lang)
    part = FairShare()
    part.code, part._asked, part.text = CODE, True, share
    items = part.items(ctx)
    assert [len(item_rows(i, wrap=True)) for i in items] == [1, 1], [(i.label, i.value) for i in items]
    shown = items[1].value
    assert shown == share or (share is None and shown in ("none", "нет", "—")) or \
        (share is not None and shown.endswith("…") and share.startswith(shown[:-1]) and len(shown) >= 4), shown


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_fair_draws_share_row_is_one_row(state_dir: Path, lang: str):
    """History → Fair draw of a game given no share yet: «Players' share…» and its «none» on one row
    (uk «Внесок гравців… немає» took two rows and hid «End the game…» under the code)."""
    from firmware.screens.fair_draw import FairDrawScreen
    from firmware.screens.widgets.listing import item_rows
    app = app_with(["new jc-battle"], [], state_dir, lang=lang)
    try:
        screen = FairDrawScreen()
        app.stack.append(screen)
        app.render()
        items = {i.key: i for i in screen.items(app) if i.key}
        assert len(item_rows(items["share"], wrap=True)) == 1, (items["share"].label, items["share"].value)
    finally:
        app.console.close()
