"""Julius Caesar: the page that says a battle's end where the player made it (J-13: a retreat in
round 2 leaves the other side holding the field) says «Battle over» once: its title was «Бой
окончен» and its first row «Бой окончен: защищающийся устоял; …» (en «Battle over» / «Battle over:
the defender holds; …»). The title now names the battle, as the result screen does."""
from __future__ import annotations

import pytest

from firmware.screens.jc.battle import BattleScreen
from firmware.screens.jc.over import EndPage
from tests.fakectx import FakeCtx

OVER = {"en": "Battle over", "ru": "Бой окончен", "uk": "Бій закінчено"}
BATTLE = {"en": "Battle 1", "ru": "Бой 1", "uk": "Бій 1"}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_retreat_s_end_page_says_the_battle_is_over_once(lang: str):   # J-13
    ctx = FakeCtx("new jc-battle dice=physical seed=5", "add attacker c_caesar", "add defender p_pompeius",
                  "start", "fire dice=6,6,6", "fire dice=6,6,6", lang=lang).open(BattleScreen())
    ctx.render()
    assert ctx.view()["battle"]["decision"]["actions"] == ["fire", "retreat", "pass"]   # round 2: Caesar
    ctx.press("down", "down", "a")                 # Caesar → Retreat: his only block, Pompey holds the field
    ctx.render()
    assert isinstance(ctx.top, EndPage), type(ctx.top).__name__
    title, _position, *rows = ctx.texts()
    assert rows[0].startswith(OVER[lang]), rows                  # the end said, once
    assert OVER[lang] not in title and title == BATTLE[lang], title
