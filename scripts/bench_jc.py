"""Benchmark of the Julius Caesar battle engine: exact odds against a Monte Carlo of the resolver.

Run ``python scripts/bench_jc.py``; :func:`figures` returns the same figures as (name, value).
The 6-vs-6 battle: Caesar (A3), Legio 10 (C4), Legio 8 (C3), Legio 7 (C2) attack with Equitatus 1
(B2) and Legio 11 (C3) in reserve; Pompey (B3), Legio 1 and 2 (C2 IV), Legio 3 (C3) defend with
the ballista (B4 II) and Auxilia 1 (B1 IV) in reserve. All at full strength.
"""
from __future__ import annotations

import copy
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.jc import battle as B  # noqa: E402
from engine.jc import odds as O  # noqa: E402
from engine.jc import policy  # noqa: E402
from engine.jc.roster import roster  # noqa: E402
from engine.rng import Rng  # noqa: E402

ATTACK = ["c_caesar", "c_leg10", "c_leg8", "c_leg7"]
ATTACK_RESERVES = ["c_eq1", "c_leg11"]
DEFENCE = ["p_pompeius", "p_leg1", "p_leg2", "p_leg3"]
DEFENCE_RESERVES = ["p_ballista", "p_aux1"]
MC_BATTLES = 10_000
REPEATS = 21


def battle_6v6() -> B.Battle:
    battle = B.new_battle("caesar")
    for ids, side, reserve in ((ATTACK, "caesar", False), (ATTACK_RESERVES, "caesar", True),
                               (DEFENCE, "pompey", False), (DEFENCE_RESERVES, "pompey", True)):
        for bid in ids:
            spec = roster()[bid]
            B.add_block(battle, spec, side, spec.max_strength, reserve, bid)
    return battle


def battle_j16() -> B.Battle:
    battle = B.new_battle("caesar")
    B.add_block(battle, roster()["c_caesar"], "caesar", 3, False, "c_caesar")
    B.add_block(battle, roster()["p_pompeius"], "pompey", 3, False, "p_pompeius")
    return battle


def _median_ms(fn, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000.0


def figures() -> list[tuple[str, str]]:
    """Timings in milliseconds and seconds, with the exact and sampled odds for comparison."""
    big = battle_6v6()
    exact = O.odds(big)
    exact_ms = _median_ms(lambda: O.odds(big))
    j16_ms = _median_ms(lambda: O.odds(battle_j16()))
    rng = Rng(2024)
    counts = dict.fromkeys(B.RESULTS, 0)
    t0 = time.perf_counter()
    for _ in range(MC_BATTLES):
        b = copy.deepcopy(big)
        policy.fight(b, rng)
        counts[b["result"]] += 1
    mc_s = time.perf_counter() - t0
    return [
        ("exact odds, 6v6 with reserves, median (ms)", f"{exact_ms:.1f}"),
        ("exact odds, J-16 Caesar vs Pompey, median (ms)", f"{j16_ms:.2f}"),
        (f"Monte Carlo, {MC_BATTLES:,} resolver battles, same 6v6 (s)", f"{mc_s:.2f}"),
        ("resolver quick battle, mean (ms)", f"{mc_s * 1000.0 / MC_BATTLES:.3f}"),
        ("exact vs Monte Carlo speed-up (x)", f"{mc_s * 1000.0 / exact_ms:.0f}"),
        ("exact attacker_wins / eliminated / holds",
         " / ".join(f"{exact[r]:.4f}" for r in B.RESULTS)),
        ("Monte Carlo attacker_wins / eliminated / holds",
         " / ".join(f"{counts[r] / MC_BATTLES:.4f}" for r in B.RESULTS)),
    ]


def main() -> None:
    for name, value in figures():
        print(f"{name:<60} {value}")


if __name__ == "__main__":
    main()
