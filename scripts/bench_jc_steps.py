"""Issue 25 item 2: does it pay to take the hits of several blocks in one step?

Run ``python scripts/bench_jc_steps.py``. Two measurements of the forward pass of the exact odds
(engine/jc/odds_grid.py), as ratios to the yardstick of scripts/bench_jc.py (CPU time):

1. The programme takes all blocks of one side and letter in one step (their hits are a sum of
   binomials applied together: J-14 puts k hits at once where it puts them one by one). Against
   it, a step per block (the same hits, block after block), on battles without Cleopatra (whose
   turn is tied to the step). Both give the same odds (the largest difference is printed).
2. Steps of one side with only idle steps of the other between them (in these battles: the
   attacking C and D steps, as no defending block is D; Mars's round 1) could be one step too.
   The cost of the later of two such steps is what merging them could save at most.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from engine.jc import odds_dp as D  # noqa: E402
from engine.jc import odds_grid as G  # noqa: E402
from engine.jc import odds_table as T  # noqa: E402
from scripts.bench_jc import battle_of, yardstick  # noqa: E402

_STEP = G._step
SPENT: dict[tuple[int, tuple[str, str]], float] = {}


def _per_block(np: Any, tab: G._Tables, st: G.State, swapped: int, rnd: int, steps: list[tuple[str, str]],
               j: int, res: list[float], eps: float) -> tuple[G.State, int | None, Any]:
    """Step ``j`` as one step per block of the side and letter."""
    model = tab.model
    role, letter = steps[j]
    s = 0 if (role == "attacker") != bool(swapped) else 1
    full = model.group(s, role, letter, rnd == 1)
    if len(full) <= 1:
        return _STEP(np, tab, st, swapped, rnd, steps, j, res, eps)
    orient = keys = None
    group = model.group
    try:
        for i in full:
            model.group = (lambda *_a, i=i: (i,))  # type: ignore[method-assign]
            st, o, k = _STEP(np, tab, st, swapped, rnd, steps, j, res, eps)
            if o is not None:
                orient, keys = o, k
    finally:
        model.group = group  # type: ignore[method-assign]
    return st, orient, keys


def _timed(np: Any, tab: G._Tables, st: G.State, swapped: int, rnd: int, steps: list[tuple[str, str]],
           j: int, res: list[float], eps: float) -> tuple[G.State, int | None, Any]:
    t0 = time.process_time()
    got = _STEP(np, tab, st, swapped, rnd, steps, j, res, eps)
    SPENT[(rnd, steps[j])] = SPENT.get((rnd, steps[j]), 0.0) + time.process_time() - t0
    return got


def forward(battle: Any) -> tuple[float, list[float], T.Table]:
    """The best CPU time of three forward passes (tables warm) and the answer."""
    b = D._settled(battle)
    table = T.Table(np, b)
    pos = table.position(b, intern=True)
    assert pos is not None
    got = table.compute([pos], D.EPS, False)
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        got = table.compute([pos], D.EPS, False)
        best = min(best, time.process_time() - t0)
    return best, got, table


def mergeable(table: T.Table, surprise: bool) -> set[tuple[int, tuple[str, str]]]:
    """Steps with only steps of the other side that nobody takes between them and the side's
    previous step (for this battle's blocks, J-5, J-10)."""
    from engine.jc.order import step_order
    model = table.model
    out = set()
    for rnd in range(1, 5):
        steps = step_order(rnd, surprise)
        last = None
        for role, letter in steps:
            s = 0 if role == "attacker" else 1
            busy = bool(model.group(s, role, letter, rnd == 1)) or (model.cleo and letter == "C")
            if not busy:
                continue
            if last == role:
                out.add((rnd, (role, letter)))
            last = role
    return out


def main() -> None:
    y = yardstick()
    print(f"{'yardstick (ms)':<70} {y * 1000:.1f}")
    for name, make in (("6+3 v 6+3", lambda: battle_of(6, 3)), ("10+5 v 10+5", lambda: battle_of(10, 5)),
                       ("10+5 v 10+5, Mars", lambda: battle_of(10, 5, surprise=True))):
        G._step = _STEP
        combined, a, _t = forward(make())
        G._step = _per_block
        alone, b, _t = forward(make())
        G._step = _timed
        SPENT.clear()
        total, _c, table = forward(make())
        G._step = _STEP
        saved = sum(v for k, v in SPENT.items() if k in mergeable(table, table.model.surprise)) / 3
        diff = max(abs(x - z) for x, z in zip(a[:3], b[:3]))
        print(f"{name + ': a step per side and letter / per block (x yardstick)':<70} "
              f"{combined / y:.2f} / {alone / y:.2f}  ({alone / combined:.1f}x slower, max diff {diff:.1e})")
        print(f"{name + ': steps a merge of idle-separated steps removes, at most':<70} "
              f"{saved / y:.2f} ({100 * saved / total:.0f}% of the pass)")


if __name__ == "__main__":
    import argparse
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()     # --help, not a run
    main()
