"""A yes/no question longer than its three rows reads on as every long text does (docs/keys.md):
up/down scroll a row, A on a page the question goes on below brings up the rest first, and only
once its last row has shown does A say yes; the footer says «A: more» (ru «A: далее», uk «A: далі») until then. Before, A said
yes on the first page: hold B's question about For the Glory of Rome's «+20 fame» (ten rows: the
milestones passed) was taken back with seven of its rows unseen, and reading them took seven
presses of down."""
from __future__ import annotations

from pathlib import Path

import pytest

from firmware.app_undo import UndoQuestion
from firmware.screens.widgets import ConfirmScreen
from firmware.screens.widgets.confirm import ROOM
from tests.fakectx import FakeCtx
from tests.screens import app_with, drawn

FAME = ["new glory players=Анна,Богдан seed=5", "fame Анна +20"]


def _footer(app) -> str:
    return [t[2] for t in drawn(app)][-1]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_long_undo_question_is_read_to_its_end_before_a_says_yes(state_dir: Path, lang: str) -> None:
    app = app_with(FAME, [], state_dir, lang)
    try:
        app.render()
        app.handle("b:hold")
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion) and len(question.rows) > 2 * ROOM    # (ten rows here)
        from firmware.i18n import _
        before = list(app.console.session.lines)
        presses, seen = 0, set()
        while app.stack[-1] is question:
            assert app.console.session.lines == before, "yes before the question's last row showed"
            more = question.top + ROOM < len(question.rows)
            assert _footer(app).startswith(_("A: more")) is more     # «A: more» until the last page, then «A: undo»
            seen.update(range(question.top, question.top + ROOM))
            app.handle("a")
            app.render()
            presses += 1
        assert seen >= set(range(len(question.rows)))    # every row shown before the undo
        assert app.console.session.lines == before[:-1]   # then A undid the step
        assert presses == -(-(len(question.rows) - ROOM) // ROOM) + 1      # a page a press (4 for ten rows)
    finally:
        app.console.close()


def test_down_still_scrolls_a_row_and_b_still_keeps() -> None:
    said = []
    ctx = FakeCtx()
    question = ConfirmScreen("Undo?", "Take back: " + "a long step " * 12, lambda c: said.append("yes"))
    ctx.open(question)
    assert len(question.rows) > ROOM + 1
    ctx.press("down")
    assert question.top == 1
    ctx.press("up", "a")
    assert question.top == ROOM and said == []
    ctx.press("b")
    assert said == [] and question not in ctx.stack


def test_a_short_question_says_yes_at_once() -> None:
    said = []
    ctx = FakeCtx()
    question = ConfirmScreen("Undo?", "Take back: a step.", lambda c: said.append("yes"))
    ctx.open(question)
    ctx.press("a")
    assert said == ["yes"]
