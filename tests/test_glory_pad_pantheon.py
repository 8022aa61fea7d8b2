"""For the Glory of Rome: the score pad's own-colour Pantheon row holds what a Pantheon can (G-12:
«Игроки начинают уровень, используя части Пантеона своего цвета, а заканчивают уровень, взяв одну
часть из общего запаса»; the foundation is 2 own parts + 1 common, the temple 3 + 1 on it). With no
common part typed, only the foundation's 2: the pad took 5 (the solo's too) and the scores refused
it afterwards in a long message."""
from __future__ import annotations

import pytest

from firmware.screens.glory.score import SHEET_ROWS, SOLO_ROWS, SheetPad, show_scores
from tests.fakectx import FakeCtx

SOLO = "new glory players=Ann seed=3"
OWN = [k for k, _ in SOLO_ROWS].index("own")


def _solo_pad(*lines: str, lang: str = "en") -> FakeCtx:
    return FakeCtx(SOLO, *lines, lang=lang).open(SheetPad(OWN, rows=SOLO_ROWS))


@pytest.mark.parametrize("lang, said", [
    ("en", "Ann: at most 2 own-colour parts without a common part (G-12)."),
    ("ru", "Ann: без общей части не больше 2 частей своего цвета (G-12)."),
    ("uk", "Ann: без спільної частини не більше 2 частин свого кольору (G-12)."),
])
def test_the_solo_pad_takes_no_temple_without_a_common_part(lang, said):  # G-12, G-17
    ctx = _solo_pad(lang=lang)
    ctx.press("press", "up")                       # +5 with no gold: the foundation's 2, and why
    assert ctx.view()["sheet"]["Ann"]["own"] == 2
    assert ctx.notes == [said]
    n = len(ctx.session.lines)
    ctx.press("up")                                # past it again: nothing journaled
    assert len(ctx.session.lines) == n and ctx.view()["sheet"]["Ann"]["own"] == 2


def test_with_the_foundation_s_common_part_the_temple_s_parts_are_taken():  # G-12
    ctx = _solo_pad("sheet Ann gold 1")
    ctx.press("press", "up", "up")                 # +5: all 5 (the temple unfinished); then the most
    assert ctx.view()["sheet"]["Ann"]["own"] == 5
    assert ctx.notes == ["Ann: 5 is the most on this row."]


def test_a_solo_pantheon_typed_on_the_pad_is_scored():  # G-12, G-17: «Построить Пантеон»
    """Gold for the foundation and the temple, then the 5 own parts: the scores count 2·4 + 5."""
    ctx = FakeCtx(SOLO, "sheet Ann gold 2").open(SheetPad(OWN, rows=SOLO_ROWS))
    ctx.press("press", "up")
    assert ctx.view()["sheet"]["Ann"]["own"] == 5
    show_scores(ctx)
    result = ctx.top.result
    assert result["scores"]["Ann"]["religion"] == 13 and result["solo"]["goals"]["pantheon"]


def test_every_table_s_own_colour_row_waits_for_the_foundation():  # G-12
    ctx = FakeCtx("new glory players=Jack,Henry,Mary,Ross seed=5", "sheet Henry bronze 1")
    ctx.open(SheetPad([k for k, _ in SHEET_ROWS].index("own")))
    ctx.press("press", "up", "right")              # Jack: no common part; Henry: his bronze one
    assert ctx.view()["sheet"]["Jack"]["own"] == 2 and ctx.view()["sheet"]["Henry"]["own"] == 5
    assert len(ctx.notes) == 1 and ctx.notes[0].startswith("Jack: at most 2 own-colour parts")
