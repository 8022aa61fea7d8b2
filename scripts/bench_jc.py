"""Benchmark of the Julius Caesar exact odds and advice (issue 11), as ratios to a yardstick.

Run ``python scripts/bench_jc.py [--quick] [--mc]``. The yardstick is a fixed pure-Python
workload (300,000 iterations of ``s += i*i % 7``) measured in the same run (CPU time of this
process, so other programs on the machine disturb the ratios less): about 20 ms on a
desktop, about 0.3 s on a Raspberry Pi Zero 2 W, so a ratio carries over between machines. The
target for exact odds is <= 0.33x the yardstick for any battle the roster allows.

Battles ("blocks + reserves" per side, all at full strength, Caesar attacking):
3+1, 6+3, 8+3 and 10+5 from the roster (leaders, legions, equitatus, auxilia, the ballista, the
elephant), and 10+5 variants with Mars (surprise), with Cleopatra as a Caesarian reserve, and
both; a 5 v 5 navis battle with Neptune. For each: the fast odds (engine/jc/odds.py) and the
oracle (tests/odds_reference.py, the implementation before issue 11) with the speed-up and the
largest difference; ``advise`` at the first decision of the biggest battle; the memory above the
idle program (tracemalloc peak of one odds call of the biggest battle, and the growth of the
process's maximum resident size). ``--mc`` adds a 10,000-battle Monte Carlo of the resolver.
"""
from __future__ import annotations

import copy
import os
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.jc import advise as A  # noqa: E402
from engine.jc import battle as B  # noqa: E402
from engine.jc import odds as O  # noqa: E402
from engine.jc import odds_grid as O_GRID  # noqa: E402
from tests import odds_reference as REF  # noqa: E402
from engine.jc import policy  # noqa: E402
from engine.jc.roster import roster  # noqa: E402
from engine.rng import Rng  # noqa: E402

MC_BATTLES = 10_000

C_MAIN = ["c_caesar", "c_leg10", "c_leg8", "c_antonius", "c_leg17", "c_leg18", "c_leg21", "c_eq1",
          "c_aux1", "c_ballista"]
C_RES = ["c_eq4", "c_leg19", "c_leg20", "c_octavian", "c_aux2"]
P_MAIN = ["p_pompeius", "p_leg1", "p_leg3", "p_scipio", "p_leg2", "p_leg36", "p_elephant", "p_eq2",
          "p_aux1", "p_ballista"]
P_RES = ["p_aux2", "p_leg38", "p_leg33", "p_brutus", "p_eq3"]


def battle_of(main: int, res: int, surprise: bool = False, cleopatra: bool = False) -> B.Battle:
    """``main`` + ``res`` blocks a side from the lists above (Caesar attacks)."""
    battle = B.new_battle("caesar", surprise=surprise)
    for ids, side, reserve in ((C_MAIN[:main], "caesar", False), (C_RES[:res], "caesar", True),
                               (P_MAIN[:main], "pompey", False), (P_RES[:res], "pompey", True)):
        for bid in ids:
            spec = roster()[bid]
            B.add_block(battle, spec, side, spec.max_strength, reserve, bid)
    if cleopatra:
        spec = roster()["cleopatra"]
        B.add_block(battle, spec, "caesar", spec.max_strength, True, "cleopatra")
    return battle


def navy_battle() -> B.Battle:
    battle = B.new_battle("caesar", surprise=True)
    for side, prefix in (("caesar", "c"), ("pompey", "p")):
        for n in range(1, 6):
            spec = roster()[f"{prefix}_nav{n}"]
            B.add_block(battle, spec, side, spec.max_strength, False, spec.id or "")
    return battle


def battle_j16() -> B.Battle:
    battle = B.new_battle("caesar")
    B.add_block(battle, roster()["c_caesar"], "caesar", 3, False, "c_caesar")
    B.add_block(battle, roster()["p_pompeius"], "pompey", 3, False, "p_pompeius")
    return battle


BATTLES: list[tuple[str, Callable[[], B.Battle]]] = [
    ("3+1 v 3+1", lambda: battle_of(3, 1)),
    ("6+3 v 6+3", lambda: battle_of(6, 3)),
    ("8+3 v 8+3", lambda: battle_of(8, 3)),
    ("10+5 v 10+5", lambda: battle_of(10, 5)),
    ("10+5 v 10+5, Mars", lambda: battle_of(10, 5, surprise=True)),
    ("10+5(+Cleopatra) v 10+5", lambda: battle_of(10, 5, cleopatra=True)),
    ("10+5(+Cleopatra) v 10+5, Mars", lambda: battle_of(10, 5, surprise=True, cleopatra=True)),
    ("navis 5 v 5, Neptune", navy_battle),
]


def yardstick() -> float:
    """Seconds for the fixed workload (the best of 5, as the timings below)."""
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        s = 0
        for i in range(300_000):
            s += i * i % 7
        best = min(best, time.process_time() - t0)
    return best


def _best(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def _fresh(battle: B.Battle) -> dict[str, float]:
    """``odds`` without its memory of recent answers (its tables for these blocks stay)."""
    O._RECENT.clear()
    return O.odds(battle)


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def figures(quick: bool = False, mc: bool = False) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    idle_rss = _maxrss_mb()
    y = yardstick()
    out.append(("yardstick: 300,000 x `s += i*i % 7` (ms)", f"{y * 1000:.1f}"))
    t0 = time.perf_counter()
    import numpy  # noqa: F401  (the first battle of 22+ dice imports it)
    out.append(("numpy import, once, at the first big battle (x yardstick)",
                f"{(time.perf_counter() - t0) / y:.2f}"))
    biggest = battle_of(10, 5, surprise=True, cleopatra=True)
    O.odds(copy.deepcopy(biggest))                                  # warm the interpreter
    rss_after = _maxrss_mb()
    O_GRID._CACHE.clear()
    tracemalloc.start()
    _fresh(biggest)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    worst = worst_warm = 0.0
    for name, make in BATTLES:
        battle = make()
        O_GRID._CACHE.clear()
        cold = _best(lambda b=battle: _fresh(b), 1)  # type: ignore[misc]
        warm = _best(lambda b=battle: _fresh(b), 1 if quick else 3)  # type: ignore[misc]
        py_t = _best(lambda b=battle: O.odds_python(b), 1)  # type: ignore[misc]
        ref_t = _best(lambda b=battle: REF.odds(b), 1)  # type: ignore[misc]
        a, b = O.odds(battle), REF.odds(battle)
        diff = max(abs(a[k] - b[k]) for k in B.RESULTS)
        worst, worst_warm = max(worst, cold / y), max(worst_warm, warm / y)
        out.append((f"odds {name}: first / again / plain Python / oracle (x yardstick), max diff",
                    f"{cold / y:.2f} / {warm / y:.2f} / {py_t / y:.2f} / {ref_t / y:.2f}  {diff:.1e}"))
    out.append(("odds: worst ratio to the yardstick, first call / again (target <= 0.33)",
                f"{worst:.2f} / {worst_warm:.2f}"))
    j16 = _best(lambda: _fresh(battle_j16()), 5)
    out.append(("odds J-16 Caesar v Pompey (ms)", f"{j16 * 1000:.2f}"))
    started = copy.deepcopy(biggest)
    B.start(started)
    O_GRID._CACHE.clear()
    O._RECENT.clear()
    adv_cold = _best(lambda: A.advise(started), 1)
    adv_t = _best(lambda: (O._RECENT.clear(), A.advise(started)), 1 if quick else 3)
    n_opts = len(A.advise(started)["options"])
    out.append((f"advise, 10+5(+Cleopatra) v 10+5 Mars, first decision ({n_opts} options): first / again (x yardstick)",
                f"{adv_cold / y:.2f} / {adv_t / y:.2f}  ({adv_cold * 1000:.0f} / {adv_t * 1000:.0f} ms)"))
    out.extend(device_keys(y))
    out.append(("memory: tracemalloc peak of one odds call, biggest battle (MB)", f"{peak:.1f}"))
    out.append(("memory: max resident size growth over idle (MB)", f"{rss_after - idle_rss:.1f}"))
    if mc:
        big = battle_of(6, 3)
        rng = Rng(2024)
        counts = dict.fromkeys(B.RESULTS, 0)
        t0 = time.process_time()
        for _ in range(MC_BATTLES):
            b = copy.deepcopy(big)
            policy.fight(b, rng)
            counts[b["result"]] += 1
        mc_s = time.process_time() - t0
        exact = O.odds(big)
        out.append((f"Monte Carlo, {MC_BATTLES:,} resolver battles, 6+3 v 6+3 (s)", f"{mc_s:.2f}"))
        out.append(("exact attacker_wins / eliminated / holds", " / ".join(f"{exact[r]:.4f}" for r in B.RESULTS)))
        out.append(("Monte Carlo attacker_wins / eliminated / holds",
                    " / ".join(f"{counts[r] / MC_BATTLES:.4f}" for r in B.RESULTS)))
    return out


def device_keys(y: float) -> list[tuple[str, str]]:
    """The device's battle screen on the biggest battle (fresh caches): its worker computes the
    odds and the advice while keys go on being answered; wall-clock figures."""
    import queue
    import tempfile

    from firmware.app import App
    from firmware.console import Console
    from firmware.screens import jc as JS
    from firmware.store import Store
    from firmware.worker import Worker
    with tempfile.TemporaryDirectory() as tmp:
        console = Console(Store(tmp), None)
        lines = (["settings language=en", "new jc-battle seed=5", "owner cleopatra caesar",
                  "add attacker cleopatra reserve=1"]
                 + [f"add {role} {k}{extra}" for role, keys, extra in
                    (("attacker", C_MAIN, ""), ("attacker", C_RES, " reserve=1"),
                     ("defender", P_MAIN, ""), ("defender", P_RES, " reserve=1")) for k in keys]
                 + ["start"])
        for line in lines:
            assert console.request(line)["ok"], line
        app = App(console)
        events: queue.Queue = queue.Queue()
        app.worker = Worker(lambda: events.put(("wake",)))
        O_GRID._CACHE.clear()
        O._RECENT.clear()
        JS._CACHE.clear()
        t0 = time.perf_counter()
        for key in ("a", "a"):                                       # home, the battle screen
            app.handle(key)
            app.render()
        opened = time.perf_counter() - t0
        keys: list[float] = []
        while app.worker.busy():
            t = time.perf_counter()
            app.handle("down")
            app.render()
            keys.append(time.perf_counter() - t)
            time.sleep(0.01)
        ready = time.perf_counter() - t0
        console.close()
    keys.sort()
    median = keys[len(keys) // 2] if keys else 0.0
    return [("device, biggest battle: battle screen opened / answers ready (x yardstick)",
             f"{opened / y:.2f} / {ready / y:.2f}"),
            (f"device: {len(keys)} keys while its worker computes, median / max (x yardstick)",
             f"{median / y:.2f} / {(keys[-1] if keys else 0.0) / y:.2f}")]


def main() -> None:
    for name, value in figures(quick="--quick" in sys.argv, mc="--mc" in sys.argv):
        print(f"{name:<78} {value}")


if __name__ == "__main__":
    main()
