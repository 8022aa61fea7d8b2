"""Rows beside a scroll mark leave it its column (firmware/screens/widgets/scroll.py ``beside``):
a 21st letter ended one blank pixel column before the mark and read as touching it on the panel
(the JC roll page's regroup «Помпей може здійснити», the winter's checklist «Александрії,
зайнятої»). A text that scrolls wraps one character short; one that fits keeps the panel's width."""
from __future__ import annotations

import pytest
from PIL import Image

from firmware.screens import base
from firmware.screens.widgets.scroll import BESIDE_MARK, TextScreen, beside

GAP = base.CHAR_W            # the blank pixel columns a row beside the mark leaves before it

TEXTS = {   # 21-letter rows at the panel's width, in each language (J-12's regroup, J-19's winter)
    "en": "Pompey may regroup: all blocks that won the battle (with the reserves) may move to any "
          "adjacent friendly or vacant cities. Road limits apply; no sea moves while regrouping.",
    "ru": "Цезарь может провести перегруппировку: все блоки, победившие в бою (вместе с резервом), "
          "могут перейти в любые соседние дружественные или свободные города.",
    "uk": "Помпей може здійснити перегрупування: усі блоки, що перемогли в бою (разом із резервом), "
          "можуть перейти до будь-яких прилеглих дружніх або вільних міст. Клеопатра повертається "
          "до Александрії, зайнятої Цезарем, і переходить на його бік.",
}


def _gap(img: Image.Image, y0: int, y1: int) -> int:
    """Blank pixel columns between the rightmost text pixel in rows y0..y1 and the mark."""
    text = [x for x in range(base.W - 1) if any(img.getpixel((x, y)) for y in range(y0, y1))]
    return base.W - 1 - max(text) - 1


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_scrolled_text_leaves_the_mark_its_column(lang: str):
    assert max(len(r) for r in base.wrap(TEXTS[lang])) == base.COLS      # a row that reached the mark
    screen = TextScreen("T", TEXTS[lang])
    assert all(len(r) <= BESIDE_MARK for r in screen.rows)
    seen = 0
    for top in range(len(screen.rows) - base.ROWS + 1):
        screen.scroll.top = top
        img = screen.render(None)  # type: ignore[arg-type]
        assert any(img.getpixel((base.W - 1, y)) for y in range(base.row_y(0), base.H))     # the mark
        seen = max(seen, max(len(r) for r in screen.rows[top:top + base.ROWS]))
        assert _gap(img, base.row_y(0), base.H) >= GAP, (lang, top)
    assert seen == BESIDE_MARK


def test_a_text_that_fits_keeps_the_panel_s_width():
    text = "Помпей може здійснити перегрупування."
    assert beside(text, base.ROWS) == base.COLS
    assert TextScreen("T", text).rows == base.wrap(text)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_jc_roll_page_leaves_the_mark_its_column(lang: str):
    """The roll page's two rows under the dice (J-12: the winner's regroup said after the roll)."""
    from firmware.screens.jc.roll import DiceResult
    turn = {"dice": [6, 5], "hit_dice": [True, False], "hits": 1, "applied": [], "lost": 0,
            "block": "x", "rating": "B2", "turn": 1}
    page = DiceResult(turn, events=[TEXTS[lang]])       # type: ignore[arg-type]
    rows = page.rows()
    assert all(len(r) <= BESIDE_MARK for r in rows) and max(len(r) for r in rows) == BESIDE_MARK


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_yes_no_question_that_scrolls_leaves_the_mark_its_column(lang: str):
    """The shared question (firmware/screens/widgets/confirm.py: undo, new game, end, delete) wrapped
    to 21 columns beside its scroll mark, the 21st letter touching it; now as every scrolled text."""
    from firmware.screens.widgets.confirm import ROOM, ConfirmScreen
    question = ConfirmScreen("T", TEXTS[lang], lambda c: None)
    assert question.width == BESIDE_MARK and all(len(r) <= BESIDE_MARK for r in question.rows)
    assert max(len(r) for r in question.rows) == BESIDE_MARK and len(question.rows) > ROOM
    for top in range(len(question.rows) - ROOM + 1):
        question.scroll.top = top
        img = question.render(None)  # type: ignore[arg-type]
        assert any(img.getpixel((base.W - 1, y)) for y in range(base.row_y(0), base.row_y(ROOM)))   # the mark
        assert _gap(img, base.row_y(0), base.row_y(ROOM)) >= GAP, (lang, top)


def test_a_yes_no_question_that_fits_keeps_the_panel_s_width():
    from firmware.screens.widgets.confirm import ConfirmScreen
    text = "Помпей може здійснити перегрупування: усі блоки."      # 2 rows at 21, the first one 21 letters
    question = ConfirmScreen("T", text, lambda c: None)
    assert question.rows == base.wrap(text) and max(len(r) for r in question.rows) == base.COLS


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_jc_battle_s_result_leaves_the_mark_its_column(lang: str):
    """JC's result page (J-12, J-13: the winner's regroup under the big name) scrolls beside the mark."""
    from firmware.screens.jc.over import OverScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx("new jc-battle attacker=caesar seed=4", "add attacker c_leg10", "add defender p_leg1", "fight",
                  lang=lang)
    screen = OverScreen()
    ctx.open(screen)
    ctx.render()
    rows = screen.rows(ctx.view())                          # type: ignore[arg-type]
    said = screen.scroll.said
    assert said is not None and max(len(r) for p in said[0] for r in base.wrap(p)) == base.COLS   # one reached it
    assert len(rows) > screen.SHORT and all(len(r) <= BESIDE_MARK for r in rows)
    widest = 0
    for _i in range(len(rows)):                              # down to its end, a row at a time
        img = ctx.render()
        top = screen.scroll.top
        shown = screen.SHORT if top == 0 else screen.LONG
        widest = max(widest, max(len(r) for r in rows[top:top + shown]))
        assert _gap(img, base.row_y(2) + 1 if top == 0 else base.row_y(0), base.H) >= GAP, (lang, top)
        ctx.press("down")
    assert widest == BESIDE_MARK


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_bag_s_history_leaves_the_mark_its_column(lang: str):
    """Dice & bags → a bag's History (read a page at a time) wrapped its entries to 21 beside the
    mark («Возвращено в мешочек:», «Витягнуто з торбинки:»); one that fits keeps the panel's width."""
    from firmware.screens.kit.bag import KitHistory
    from tests.fakectx import FakeCtx
    ctx = FakeCtx("new bag items=gold*3,silver*2,bronze cards=legio*4,senator*2 seed=7", "draw 2", "card 1",
                  "put gold", "shuffle", "draw 1", lang=lang)
    history = KitHistory(False)
    ctx.open(history)
    ctx.render()
    assert max(len(r) for e in history.entries for r in base.wrap(e)) == base.COLS     # one reached the mark
    assert len(history.rows) > base.ROWS and all(len(r) <= BESIDE_MARK for r in history.rows)
    for top in range(len(history.rows) - base.ROWS + 1):
        history.scroll.top = top
        assert _gap(ctx.render(), base.row_y(0), base.H) >= GAP, (lang, top)
    short = FakeCtx("new bag items=gold*3,silver*2 seed=7", "draw 1", lang=lang)
    history = KitHistory(False)
    short.open(history)
    short.render()
    assert history.rows == [r for e in history.entries for r in base.wrap(e)] and len(history.rows) <= base.ROWS


NEW_GAMES = ["new caesar-solo seed=1", "new jc-battle seed=1", "new sword players=romans,gauls seed=1",
             "new glory players=Ann,Bob seed=1"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("line", NEW_GAMES)
def test_a_new_session_s_question_keeps_its_note_whole_on_the_first_page(lang: str, line: str):
    """What a new session does to the game going on (firmware/screens/play.py) is said in a sentence
    the first page holds (3 rows) at the width a scrolling question wraps to, for every game, and
    Dice & bags' question follows it within 4 rows: one character short, «…(it stays in the
    archive). Start the new bag?» took 5 rows with Caesar! and Julius Caesar, «…its last move
    can't be undone. Roll dice?» 5 with Sword of Rome, «Игра (Во славу Рима) закончится без отмены
    последнего хода.» 4."""
    from firmware.i18n import _
    from firmware.screens import play
    from firmware.screens.kit.bag import begin
    from firmware.screens.widgets.confirm import ROOM, ConfirmScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(line, lang=lang)
    for kind in ("items", "cards"):                        # a bag in place of the game going on: asked first
        begin(ctx, kind, [("gold", 1)], side=False)        # type: ignore[arg-type]
        question = ctx.top
        assert isinstance(question, play.ReplaceQuestion) and len(question.rows) <= ROOM + 1, question.rows
        ctx.stack.pop()
    view = dict(ctx.view(), over=True, ended=None)         # its rules ended it: its last move goes with it
    note = play.replaced_note(view)                        # type: ignore[arg-type]
    assert note is not None and len(base.wrap(note, BESIDE_MARK)) <= ROOM, note
    for asked in (_("Roll dice?"), _("Choose a bag?")):
        rows = ConfirmScreen("T", f"{note} {asked}", lambda c: None).rows
        assert len(rows) <= ROOM + 1, rows
