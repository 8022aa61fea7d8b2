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


@pytest.mark.slow
def test_the_draws_a_tile_of_your_own_asks_for_are_those_his_bag_holds(monkeypatch):   # S-4, S-5, S-6, C-18
    """Random tiles of the player's own (S-4: draw1/draw2/discard1/centurion/play, up to six, in
    any order), his bag run short (S-6), Poison sending his tokens back (C-17): before each draw
    of his digital turn, what the physical-bag picker would offer (his bag before the turn and
    ``tile_takes``'s tokens back by then, less the earlier picks) holds every token his bag
    holds then; exactly those while no play came first (after a play, which token he played is
    his choice: one more of his row may be offered for each; a centurion turned up and put back
    is any of his face-down ones, the table naming it after the draws), and the tile draws and
    turns up as many as ``tile_takes`` says."""
    import random
    from collections import Counter
    from engine.caesar import flow
    from engine.caesar.model import CRASSUS
    from engine.caesar.players import human_step, random_policy
    from engine.caesar.tiles import tile_takes
    from engine.caesar.tokens import TOKENS
    from engine.rng import Rng
    bags: list[Counter[str]] = []
    draw_random = flow._draw_random

    def spy(g, p):
        if p == CRASSUS:
            bags.append(Counter(TOKENS[t].name for t in g.bag[p]))
        return draw_random(g, p)
    monkeypatch.setattr(flow, "_draw_random", spy)
    vocabulary = ["draw1", "draw2", "discard1", "centurion", "play"]
    turns = shorts = 0
    for seed in range(200):
        r = random.Random(seed)
        tiles = {}
        for letter in "ABCDE":
            actions = [r.choice(vocabulary) for _ in range(r.randint(1, 6))]
            actions[r.randrange(len(actions))] = "play"
            tiles[letter] = actions
        g = flow.new_game("solo", seed, centurions=r.random() < 0.7, poison=r.random() < 0.6,
                          difficulty=r.choice(["easy", "normal", "hard"]), tiles=tiles)
        rng = Rng(seed)
        while not g.over:
            if not g.is_bot(g.turn):
                human_step(g, g.turn, rng, random_policy, False)
                continue
            actions = g.tile_defs[g.stack[0]]
            n_draw, n_cent, back = tile_takes(actions, [TOKENS[t].name for t in g.hand[CRASSUS]],
                                              len(g.bag[CRASSUS]), len(g.cent[CRASSUS]))
            before = Counter(TOKENS[t].name for t in g.bag[CRASSUS])
            hidden = sorted({TOKENS[t].name for t in g.cent[CRASSUS]})
            bags.clear()
            _, steps = flow.crassus_turn(g)
            turns += 1
            shorts += any(s.get("short") for s in steps)
            if g.over:                       # a play ended the game before the tile's end (C-12)
                break
            drawn = [t for s in steps if s["action"] == "draw" for t in s["tokens"]]
            assert len(drawn) == n_draw, (seed, actions)
            assert sum(1 for s in steps if s["action"] == "centurion" and s["token"]) == n_cent, (seed, actions)
            draws_at = [k for k, a in enumerate(actions) if a.startswith("draw")]
            for i, real in enumerate(bags):
                up = [t for at, t in back if at <= i]
                offer = before + Counter([drawn[t] if isinstance(t, int) else t for t in up if t is not None]
                                         + (hidden if None in up else [])) - Counter(drawn[:i])
                assert not real - offer, (seed, actions, i, real - offer)
                plays = actions[:draws_at[-1]].count("play")
                unsure = plays + (len(hidden) - 1 if None in up else 0)
                assert sum((offer - real).values()) <= unsure, (seed, actions, i, offer - real)
    assert turns > 1000 and shorts > 100
