"""The fuzzer (scripts/caesar_fuzz.py) inside the test suite: complete solo games over every
module combination, difficulty, side and rule option with random (and some greedy) human moves;
after every action token and marker conservation, C-7..C-10 closures, derived totals and the
JSON round trip are checked, and every game must end with a winner. CAESAR_FUZZ_GAMES sets the
number of games (default 2,400, about 10 s); the script runs 2,000+."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = int(os.environ.get("CAESAR_FUZZ_GAMES", "2400"))


def _fuzz():
    spec = importlib.util.spec_from_file_location("caesar_fuzz", ROOT / "scripts" / "caesar_fuzz.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


FUZZ = _fuzz()


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_fuzz_complete_games_keep_every_invariant(chunk):
    winners = set()
    for i in range(chunk * GAMES // 4, (chunk + 1) * GAMES // 4):
        g = FUZZ.run_game(i, seed=1000)
        assert g.over and g.winner in (0, 1) and g.end
        winners.add(g.winner)
    assert winners == {0, 1} or GAMES < 100     # endings on both sides are exercised


@pytest.mark.slow
def test_fuzz_games_through_the_console_session():
    for i in range(8):
        st = FUZZ.run_console_game(i, seed=77)
        assert st["winner"] in ("human", "crassus") and st["step"] == "over"


@pytest.mark.slow
def test_fuzz_games_with_every_input_physical():
    # Tiles, both bags, face-down centurions and C-21 bonuses named on the command line.
    for i in range(10):
        st = FUZZ.run_physical_game(i, seed=91)
        assert st["winner"] in ("human", "crassus") and st["inputs"] == {
            "tiles": "physical", "crassus_bag": "physical", "human_bag": "physical"}


def test_every_configuration_is_covered():
    seen = {(c["poison"], c["centurions"], c["border_control"], c["difficulty"], c["side"])
            for c in map(FUZZ.config, range(GAMES))}
    assert len(seen) == 7 * 3 * 2
    for key, values in FUZZ.RULES.items():
        assert {FUZZ.config(i)["rules"][key] for i in range(GAMES)} == set(values)
