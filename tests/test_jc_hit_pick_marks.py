"""Julius Caesar: a tied hit's pick (J-7) opens on ✓ — Legio 8 after Pompeius fires 3,1,4 at Caesar,
Legio 10 and Legio 8 (all at III) — the page turned to it, Caesar and Legio 10 with their odds
above, off the two rows the header and the odds leave: only the 1-pixel scroll bar said so. The one
list widget marks rows above its page with ↑ (firmware/screens/widgets/listing.py ``more_marks``)."""
from __future__ import annotations

import pytest

from firmware.screens import base
from firmware.screens.jc.battle import BattleScreen
from tests.fakectx import FakeCtx

LINES = ("new jc-battle dice=physical seed=5", "add attacker c_caesar", "add attacker c_leg10",
         "add attacker c_leg8", "add defender p_pompeius", "add defender p_leg1", "add defender p_leg3",
         "start", "fire dice=6,6,6", "fire p_pompeius dice=3,1,4")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_tied_hit_s_pick_opened_below_its_first_rows_marks_them(lang: str):   # J-7
    ctx = FakeCtx(*LINES, lang=lang).open(BattleScreen())
    d = ctx.view()["battle"]["decision"]
    assert d["kind"] == "hit" and d["choices"] == ["c_caesar", "c_leg10", "c_leg8"], d
    img = ctx.render()
    screen = ctx.top
    assert isinstance(screen, BattleScreen) and screen.cursor == 2 and screen.top > 0     # ✓ Legio 8
    y0 = base.row_y(1)                                    # the rows under the header «Who takes the hit?»
    assert all(img.getpixel((base.W - 2, y)) for y in range(y0, y0 + 5))                # ↑: rows above
    assert [img.getpixel((x, y0 + 1)) for x in range(base.W - 3, base.W)] == [1, 1, 1]
    ctx.press("up", "up")                                 # on Caesar: the first page, nothing above
    img = ctx.render()
    assert screen.top == 0 and not img.getpixel((base.W - 3, y0 + 1))
