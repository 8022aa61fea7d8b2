"""Random battles (hypothesis): W-2..W-5 invariants hold for any units, modifiers and dice."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Request
from engine.rng import Rng
from engine.sword.console import BATTLE

die = st.integers(1, 6)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(-8, 8), st.integers(-4, 4),
       st.lists(die, min_size=3, max_size=3), st.lists(die, min_size=3, max_size=3), st.integers(0, 5))
def test_battle_invariants(att, dfd, mod, defmod, a_dice, d_dice, retreat):
    line = (f"att={att} def={dfd} mod={mod} defmod={defmod} att-dice={','.join(map(str, a_dice))} "
            f"def-dice={','.join(map(str, d_dice))} retreat={retreat}")
    opts = dict(w.split("=") for w in line.split())
    out = BATTLE.handler(Request("sword-battle", (), opts, line), Rng(1))
    a, d = out["attacker"], out["defender"]
    assert a["total"] == sum(a_dice) + mod and d["total"] == sum(d_dice) + defmod           # W-2
    assert out["winner"] == ("attacker" if a["total"] > d["total"] else "defender")         # W-3
    for side, units in ((a, att), (d, dfd)):
        assert 0 <= side["losses"] <= units and side["losses"] == min(units, side["table_losses"])  # W-4
    loser = a if out["winner"] == "defender" else d
    lost = loser["losses"] + out["retreat_losses"]
    assert lost <= loser["units"]
    assert out["support"] == (lost + 1) // 2                                                # W-5
    assert len(out["readings"]) == 6
