"""For the Glory of Rome: the votes a boosted political action pushes out of a full Senate column
go back to their owners (G-7: «самая нижняя фишка голоса удаляется из колонны и возвращается на
планшет ее владельца»), said in one sentence that fits a notice over the column: the two votes
said «Jack: the bottom vote goes back.» twice, a «Note» of three pages to read or close."""
from __future__ import annotations

import pytest

from firmware.screens import base
from firmware.screens.glory.track import SenateScreen
from tests.fakectx import FakeCtx

NEW = "new glory players=Jack,Mary seed=1"


def _boosted(bottom: list[str], lang: str) -> FakeCtx:
    """Mary's boosted action (hold A: two votes) on a full column whose two bottom votes are ``bottom``."""
    column = bottom + ["Mary", "Jack", "Jack"]          # (no supremacy: not Mary's two on top)
    ctx = FakeCtx(NEW, *(f"vote {p}" for p in column), lang=lang).open(SenateScreen())
    ctx.press("down", "a:hold")
    assert ctx.session is not None and ctx.session.lines[-1] == "vote Mary n=2"
    return ctx


@pytest.mark.parametrize("lang, said", [("en", "Jack: 2 bottom votes go back."),
                                        ("ru", "Jack: 2 нижних голоса возвращаются владельцу."),
                                        ("uk", "Jack: 2 нижні голоси повертаються власнику.")])
def test_two_votes_of_one_owner_pushed_out_are_said_once(lang, said):  # G-7
    ctx = _boosted(["Jack", "Jack"], lang)
    assert ctx.notes == [said]
    assert len(base.wrap(said, base.COLS - 2)) <= base.ROWS          # a notice, not a «Note»


@pytest.mark.parametrize("lang, said", [("en", "The bottom votes go back to Jack and Mary."),
                                        ("ru", "Нижние голоса возвращаются владельцам: Jack и Mary."),
                                        ("uk", "Нижні голоси повертаються власникам: Jack і Mary.")])
def test_two_owners_votes_pushed_out_are_one_sentence(lang, said):  # G-7
    ctx = _boosted(["Jack", "Mary"], lang)
    assert ctx.notes == [said]
    assert len(base.wrap(said, base.COLS - 2)) <= base.ROWS


def test_one_vote_pushed_out_is_said_as_before():  # G-7
    ctx = FakeCtx(NEW, *(f"vote {p}" for p in ["Jack", "Mary", "Jack", "Mary", "Jack"])).open(SenateScreen())
    ctx.press("down", "a")
    assert ctx.notes == ["Jack: the bottom vote goes back."]


def test_votes_that_push_nothing_out_say_nothing():  # G-7
    """Two votes on a column with room: no notice (an empty one took the next key: KEY3's two
    votes after hold A's were lost)."""
    ctx = FakeCtx(NEW).open(SenateScreen())
    ctx.press("a:hold")
    assert ctx.notes == [] and ctx.view()["senate"] == ["Jack", "Jack"]
