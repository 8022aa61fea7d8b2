"""The array programme of the exact odds (engine/jc/odds_grid.py, J-15) against the oracle (the
implementation before issue 11, tests/odds_reference.py) and the plain-Python programme, on
random battles of the roster at any point of the fight: leaders, the ballista, the elephant,
Cleopatra (J-2), reserves and disruption (J-8, J-9), surprise (J-10), navis (J-11)."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jc import battle as B
from engine.jc import odds as O
from engine.jc import odds_table as G
from tests import odds_reference as REF
from engine.jc.roster import roster
from engine.rng import Rng
from tests.test_jc_odds_fast import TOL, _walk, batch, random_battle


def _same(battle: B.Battle) -> dict[str, float]:
    before = copy.deepcopy(battle)
    want = REF.odds(battle)
    got = G.odds(battle)
    back = G.odds(battle, backward=True)          # the backward pass's value at the start
    assert battle == before                       # the battle is not touched
    assert abs(sum(got.values()) - 1.0) < 1e-12
    for k in B.RESULTS:
        assert abs(got[k] - want[k]) <= TOL, (k, got, want)
        assert abs(back[k] - want[k]) <= TOL, (k, back, want)
    return got


@pytest.mark.slow               # about 6 s; the property test below keeps the default loop honest
def test_grid_odds_equal_the_oracle_on_a_deterministic_batch():
    mid, reserves, kinds = batch(20261124, 11, _same)
    assert mid > 400 and reserves > 400
    assert {"leader", "ballista", "elephant", "cleopatra", "navis", "legion"} <= kinds


def big_battle(r: random.Random, cleopatra: str = "turn") -> B.Battle:
    """5 to 9 land blocks a side from each side's own roster, some as reserves (J-8), at random
    strengths, Cleopatra with either side half the time (``cleopatra``: the J-2 rule of her turn
    after she changes side), surprise a quarter of the time."""
    attacker = r.choice(["caesar", "pompey"])
    battle = B.new_battle(attacker, surprise=r.random() < 0.25, cleopatra=cleopatra)
    land = [s for s in roster().values() if s.kind not in ("navis", "cleopatra")]
    for side in ("caesar", "pompey"):
        mine = [s for s in land if s.side == side]
        for n, spec in enumerate(r.sample(mine, r.randint(5, 9))):
            B.add_block(battle, spec, side, r.choice(spec.track), n >= 3 and r.random() < 0.4,
                        spec.id or f"{side}{n}")
    if r.random() < 0.5:
        spec = roster()["cleopatra"]
        B.add_block(battle, spec, r.choice(["caesar", "pompey"]), r.choice(spec.track),
                    r.random() < 0.5, "cleopatra")
    return battle


def test_grid_odds_equal_the_oracle_on_big_battles():
    r = random.Random(8)
    rng = Rng(3)
    dice = []
    for n in range(10):
        battle = big_battle(r)
        if n % 2:
            _walk(battle, r, rng)
        _same(battle)
        dice.append(sum(int(x["strength"]) for x in battle["blocks"] if B.in_space(x)))
    assert max(dice) >= 40


def test_grid_odds_equal_the_oracle_under_the_round_rule_for_cleopatra():
    # J-2 (ru: she fights for the side she joins in the next round), J-15: big battles with
    # Cleopatra, from set-up and walked into the fight, on arrays, to 1e-9
    r = random.Random(27)
    rng = Rng(5)
    done = 0
    while done < 8:
        battle = big_battle(r, "round")
        if not any(x["kind"] == "cleopatra" for x in battle["blocks"]):
            continue
        if done % 2:
            _walk(battle, r, rng)
        _same(battle)
        done += 1
    assert done == 8


def test_odds_takes_the_grid_for_big_battles_and_agrees_with_plain_python():
    """``odds`` hands a battle of GRID_DICE dice or more to the array programme; the plain-Python
    programme gives the same figures."""
    r = random.Random(77)
    big = small = 0
    while big < 6 or small < 6:
        battle = random_battle(r, most=5) if r.random() < 0.5 else big_battle(r)
        if battle is None:
            continue
        dice = sum(int(x["strength"]) for x in battle["blocks"] if B.in_space(x))
        a, b = O.odds(battle), O.odds_python(battle)
        for k in B.RESULTS:
            assert abs(a[k] - b[k]) <= TOL
        if dice >= O.GRID_DICE:
            big += 1
            assert a == G.odds(battle)
        else:
            small += 1
            assert a == b


def test_grid_odds_of_a_battle_that_is_over():
    battle = random_battle(random.Random(1)) or random_battle(random.Random(2))
    assert battle is not None
    B.start(battle)
    for x in battle["blocks"]:
        if x["side"] == battle["defender"]:
            x["strength"] = 0
            x["eliminated"] = True
    got = G.odds(battle)
    assert sum(got.values()) == 1.0


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_grid_odds_equal_the_oracle_property(seed: int) -> None:
    r = random.Random(seed)
    battle = random_battle(r, most=4, cleopatra=("turn", "round")[seed % 2])     # J-2: either rule
    if battle is None:
        return
    _walk(battle, r, Rng(seed))
    _same(battle)


_FAULTS = """
import resource
from engine.jc import odds as O
from scripts.bench_jc import battle_of
battle = battle_of(6, 3)
O.odds(battle)                                   # (numpy imported, the memory settings made)
O.forget()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
O.odds(battle)                                   # a battle not asked before
print(O.keep_freed_memory(), resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_a_big_battles_steps_take_freed_memory_not_pages_faulted_in_afresh():
    """Issue 25: glibc gave each array of 128 kB or more back to the system when it was freed, so
    every step of a big battle faulted its layout and chunks in again, zeroed, page by page:
    500 to 1,000 minor faults in the first odds of 6+3 v 6+3 (a tenth of its time). Once numpy is
    in, freed memory is kept: the next battle's first odds fault in a few pages. (A process of
    its own: this one's memory has a history.)"""
    import subprocess
    import sys
    from pathlib import Path
    got = subprocess.run([sys.executable, "-c", _FAULTS], cwd=Path(__file__).resolve().parents[1],
                         capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    kept, faults = got.stdout.split()
    if kept != "True":
        pytest.skip("not glibc: its memory settings do not apply")
    assert int(faults) < 200, faults
