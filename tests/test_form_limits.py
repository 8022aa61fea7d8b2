"""A figure on a form pushed past its limit says the limit in a sentence and changes nothing
(firmware/screens/widgets/figure.py ``NumberForm.refuse``): Glory's new-game form with 4 players
took a fifth push right in silence — a key that did nothing without saying why. A count says
«Players: at most 4.» (or its own sentence in the rulebook's words: Glory's player count, G-1,
G-17 the Emperor's solo), a choice at its end (‹off›) says nothing: its row shows all it holds."""
from __future__ import annotations

import pytest

from firmware.screens.glory.home import GloryHome
from tests.fakectx import FakeCtx

PLAYERS = {"en": "For the Glory of Rome takes 1 to 4 players.",
           "ru": "«Во славу Рима» — от 1 до 4 игроков.",
           "uk": "«На славу Риму» — від 1 до 4 гравців."}
FAME = {"en": "Fame: at most 5.", "ru": "Слава: не больше 5.", "uk": "Слава: не більше 5."}
FAME_LOW = {"en": "Fame: at least 1.", "ru": "Слава: не меньше 1.", "uk": "Слава: не менше 1."}


def _form(lang: str) -> FakeCtx:
    from firmware.screens.glory.setup import SetupScreen
    ctx = FakeCtx(players=["Jack", "Henry", "Mary", "Ross"], lang=lang).open(SetupScreen(GloryHome))
    ctx.render()
    return ctx


def _at(ctx: FakeCtx, key: str) -> None:
    ctx.top.cursor = [i.key for i in ctx.top.items(ctx)].index(key)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_glory_s_player_count_past_four_or_below_one_says_the_rule(lang: str):   # G-1, G-17
    ctx = _form(lang)
    _at(ctx, "field:players")
    assert ctx.top.values()["players"] == 4
    ctx.press("right")
    assert ctx.notes[-1:] == [PLAYERS[lang]] and ctx.top.values()["players"] == 4
    ctx.press("left", "left", "left")
    assert ctx.top.values()["players"] == 1 and len(ctx.notes) == 1       # a change says nothing
    ctx.press("left")
    assert ctx.notes[-1:] == [PLAYERS[lang]] and ctx.top.values()["players"] == 1


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_count_at_its_limit_says_it_and_a_choice_at_its_end_says_nothing(lang: str):
    ctx = _form(lang)
    _at(ctx, "field:fame0")
    ctx.press("left")                                       # the fame track starts on 1 (G-5)
    assert ctx.notes[-1:] == [FAME_LOW[lang]] and ctx.top.values()["fame0"] == 1
    ctx.press(*["right"] * 4)
    assert ctx.top.values()["fame0"] == 5 and len(ctx.notes) == 1
    ctx.press("right")
    assert ctx.notes[-1:] == [FAME[lang]] and ctx.top.values()["fame0"] == 5
    _at(ctx, "field:harsh")
    ctx.press("left")                                       # ‹off›: the row shows both ends
    assert len(ctx.notes) == 2 and ctx.top.values()["harsh"] == 0


def test_every_count_field_of_a_form_says_its_limit():
    """The shared widget says it on every form, a signed bonus with its sign (Sword's battle)."""
    from firmware.screens.sword.battle import battle_form
    ctx = FakeCtx("new sword players=romans,gauls,etruscans,greeks seed=1")
    ctx.open(battle_form(ctx))
    _at(ctx, "field:mod")
    ctx.press(*["left"] * 9)
    ctx.press("left")
    assert ctx.notes[-1].startswith("Attack bonus: at least ") and ctx.notes[-1].endswith("9."), ctx.notes
