"""The resolver's quick mode (J-14 policy, digital dice) agrees with the exact odds (J-15).

The tolerance comes from the sample size: each outcome frequency must lie within 4.5 standard
errors sqrt(p(1-p)/N) of the exact probability, and the chi-square statistic over the three
outcomes (2 degrees of freedom) must stay below 18.4 (p = 1e-4).
"""
from __future__ import annotations

import copy
import math
from collections import Counter

import pytest

from engine.jc import battle as B
from engine.jc import odds as O
from engine.jc import policy
from engine.jc import roster as R
from engine.rng import Rng

N = 4000
Z = 4.5
CHI2_2DOF_P1E4 = -2.0 * math.log(1e-4)


def _battle(surprise: bool, blocks: list[tuple[str, str, int, dict]]) -> B.Battle:
    battle = B.new_battle("caesar", surprise)
    for i, (side, what, strength, kw) in enumerate(blocks):
        reserve = kw.pop("reserve", False)
        if what in R.roster():
            spec = R.roster()[what]
            key = what
        else:
            spec = R.rated_block(what, strength, side, name=f"x{i}", **kw)
            key = f"x{i}"
        B.add_block(battle, spec, side, strength, reserve, key)
    return battle


BATTLES = {
    # reserves on both sides, a leader, an elephant, a ballista, Cleopatra (J-2, J-8, J-9)
    "mixed": _battle(False, [("caesar", "c_caesar", 3, {}), ("caesar", "c_leg10", 2, {}),
                             ("caesar", "c_ballista", 2, {"reserve": True}),
                             ("pompey", "p_elephant", 4, {}), ("pompey", "p_leg1", 2, {}),
                             ("pompey", "cleopatra", 2, {}),
                             ("pompey", "B1", 3, {"reserve": True})]),
    # a weak defender main force: disruption and the role swap happen often (J-9), with Mars (J-10)
    "swap": _battle(True, [("caesar", "A3", 3, {}), ("caesar", "C2", 2, {}),
                           ("pompey", "C1", 1, {}), ("pompey", "p_ballista", 2, {"reserve": True}),
                           ("pompey", "C3", 3, {"reserve": True})]),
}


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_quick_mode_frequencies_match_exact_odds(name):
    battle = BATTLES[name]
    exact = O.odds(battle)
    rng = Rng(20240 + len(name))
    seen: Counter[str] = Counter()
    for _ in range(N):
        b = copy.deepcopy(battle)
        policy.fight(b, rng)
        seen[b["result"]] += 1
    chi2 = 0.0
    for outcome, p in exact.items():
        freq = seen[outcome] / N
        sd = math.sqrt(p * (1 - p) / N)
        assert abs(freq - p) <= Z * sd + 1e-12, (outcome, freq, p)
        if p > 0:
            chi2 += (seen[outcome] - N * p) ** 2 / (N * p)
    assert chi2 < CHI2_2DOF_P1E4
