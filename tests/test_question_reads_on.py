"""A yes/no question longer than its three rows reads on as every long text does (docs/keys.md):
up/down scroll a row, A on a page the question goes on below brings up the rest first, and only
once its last row has shown does A say yes; the footer says «A: more» (ru «A: далее», uk «A: далі») until then. Before, A said
yes on the first page: hold B's question about For the Glory of Rome's «+20 fame» (ten rows: the
milestones passed) was taken back with seven of its rows unseen, and reading them took seven
presses of down. (That question is three rows now, the milestones named in the notice after yes:
test_the_fame_undo_question_names_the_change_and_the_milestones_count; the long example here is
Julius Caesar's winter asked again at once, eight rows: the year it skips, then the winter's figures.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from firmware.app_undo import UndoQuestion
from firmware.screens.widgets import ConfirmScreen
from firmware.screens.widgets.confirm import ROOM
from tests.fakectx import FakeCtx
from tests.screens import app_with, drawn

SKIPPED = ["new jc-battle seed=1", "winter"]          # a winter again at once skips year 2 (J-19)
WINTER = ["a", "b", *["down"] * 10, "a"]           # Resume (the first winter's checklist: B closes it), Winter: asked


def _footer(app) -> str:
    return [t[2] for t in drawn(app)][-1]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_long_question_is_read_to_its_end_before_a_says_yes(state_dir: Path, lang: str) -> None:
    app = app_with(SKIPPED, WINTER, state_dir, lang)
    try:
        app.render()
        question = app.stack[-1]
        assert isinstance(question, ConfirmScreen) and len(question.rows) > 2 * ROOM    # (eight rows here)
        from firmware.i18n import _
        before = list(app.console.session.lines)
        presses, seen = 0, set()
        while app.stack[-1] is question:
            assert app.console.session.lines == before, "yes before the question's last row showed"
            more = question.top + ROOM < len(question.rows)
            assert _footer(app).startswith(_("A: more")) is more     # «A: more» until the last page, then «A: yes»
            seen.update(range(question.top, question.top + ROOM))
            app.handle("a")
            app.render()
            presses += 1
        assert seen >= set(range(len(question.rows)))    # every row shown before the yes
        assert app.console.session.lines == before + ["winter quiet=1"]   # then A said yes
        assert presses == -(-(len(question.rows) - ROOM) // ROOM) + 1      # a page a press (3 for eight rows)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_fame_undo_question_names_the_change_and_the_milestones_count(state_dir: Path, lang: str) -> None:
    """Hold B after «fame Анна +20» (G-5, G-6): the question named the change and each milestone
    passed with its supporter, ten rows in every language, four A. It names the change and how
    many milestones, three rows, one A; the notice after yes names each (their markers and
    supporters come off the board too)."""
    app = app_with(["new glory players=Анна,Богдан seed=5", "fame Анна +20"], [], state_dir, lang)
    try:
        app.render()
        app.handle("b:hold")
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion) and len(question.rows) <= ROOM, question.rows
        said = " ".join(question.rows)
        assert "1 → 21" in said or "1 -> 21" in said, said
        assert said.endswith({"en": "Milestones passed: 3.", "ru": "Пройдено вех: 3.", "uk": "Пройдено віх: 3."}[lang])
        before = list(app.console.session.lines)
        app.render()
        app.handle("a")                                      # one A: undone
        assert app.console.session.lines == before[:-1]
        app.render()
        notice = " ".join(getattr(app.stack[-1], "rows", []))
        assert notice.count({"en": "milestone 21", "ru": "веху 21", "uk": "віху 21"}[lang]) == 1, notice
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
