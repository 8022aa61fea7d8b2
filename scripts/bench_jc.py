"""Benchmark of the Julius Caesar exact odds and advice (issues 11 and 25), as ratios to a yardstick.

Run ``python scripts/bench_jc.py [--quick] [--mc]``. The yardstick is a fixed pure-Python
workload (300,000 iterations of ``s += i*i % 7``) measured in the same run (CPU time of this
process, so other programs on the machine disturb the ratios less): about 20 ms on a
desktop, about 0.3 s on a Raspberry Pi Zero 2 W, so a ratio carries over between machines.
It is measured before numpy is imported: OpenBLAS's threads spin for a second or two after
the import and the process's CPU time counts them (the yardstick then reads about 2x).

Battles ("blocks + reserves" per side, all at full strength, Caesar attacking):
3+1, 6+3, 8+3 and 10+5 from the roster (leaders, legions, equitatus, auxilia, the ballista, the
elephant), and 10+5 variants with Mars (surprise), with Cleopatra as a Caesarian reserve, and
both, each also under J-2's ``round`` rule for Cleopatra (she fights for the side she joins in
the next round: the default in Russian and Ukrainian); a 5 v 5 navis battle with Neptune. Each is asked as a battle not asked before in the run
(every table dropped): the first answer (a big battle's forward pass, engine/jc/odds_grid.py),
the table (its backward pass, which the device runs while nobody waits), the plain-Python
programme and the oracle (tests/odds_reference.py) with the largest difference.

Issue 25's targets: the first odds of 6+3 <= 0.33x, 10+5 <= 1.0x, with Cleopatra <= 1.5x; every
later ``odds`` or ``advise`` in the same battle <= 0.05x. The later questions are measured on
walks through the biggest battles (digital dice, the advised choice at each hit): every position
is new to the table, so each answer is a look-up or, where a choice leaves the J-14 policy (a hit
on another of equally strong blocks), one computation of every option together, counted apart;
an 8-way hit choice is timed on its own, and ``odds`` then ``advise`` (and the other way round)
at a hit choice no table holds, with the computations the pair runs (one: whichever is asked
first values every target). Memory: the process's maximum resident size above the
idle program once the biggest battle's whole table is built (numpy's import included), the
tracemalloc peak of building it, and the table's size. ``--mc`` adds a 10,000-battle Monte
Carlo of the resolver.
"""
from __future__ import annotations

import copy
import os
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.jc import advise as A  # noqa: E402
from engine.jc import battle as B  # noqa: E402
from engine.jc import odds as O  # noqa: E402
from engine.jc import odds_dp as O_DP  # noqa: E402
from engine.jc import odds_table as O_TABLE  # noqa: E402
from engine.jc import policy  # noqa: E402
from engine.jc.roster import roster  # noqa: E402
from engine.rng import Rng  # noqa: E402
from tests import odds_reference as REF  # noqa: E402

MC_BATTLES = 10_000

C_MAIN = ["c_caesar", "c_leg10", "c_leg8", "c_antonius", "c_leg17", "c_leg18", "c_leg21", "c_eq1",
          "c_aux1", "c_ballista"]
C_RES = ["c_eq4", "c_leg19", "c_leg20", "c_octavian", "c_aux2"]
P_MAIN = ["p_pompeius", "p_leg1", "p_leg3", "p_scipio", "p_leg2", "p_leg36", "p_elephant", "p_eq2",
          "p_aux1", "p_ballista"]
P_RES = ["p_aux2", "p_leg38", "p_leg33", "p_brutus", "p_eq3"]


def battle_of(main: int, res: int, surprise: bool = False, cleopatra: bool = False, rule: str = "turn") -> B.Battle:
    """``main`` + ``res`` blocks a side from the lists above (Caesar attacks); ``rule``: J-2's
    Cleopatra rule (``round``: the Russian and Ukrainian players' default)."""
    battle = B.new_battle("caesar", surprise=surprise, cleopatra=rule)
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
    ("10+5(+Cleopatra) v 10+5, J-2 round", lambda: battle_of(10, 5, cleopatra=True, rule="round")),
    ("10+5(+Cleopatra) v 10+5, Mars, J-2 round", lambda: battle_of(10, 5, surprise=True, cleopatra=True, rule="round")),
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
    """``odds`` of a battle not asked before (every table and kept answer dropped)."""
    O.forget()
    return O.odds(battle)


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    got = fn()
    return time.process_time() - t0, got


TARGETS = {"6+3 v 6+3": 0.33, "10+5 v 10+5": 1.0, "10+5(+Cleopatra) v 10+5": 1.5}


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
    _fresh(copy.deepcopy(biggest))                                  # its whole table
    O.finish()
    rss_after = _maxrss_mb()
    held = O._TABLE[0].size()
    O.forget()
    tracemalloc.start()
    _fresh(biggest)
    O.finish()
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    O.forget()
    worst: dict[str, float] = {}
    for name, make in BATTLES:
        battle = make()
        firsts, tables = [], []
        for _ in range(1 if quick else 3):
            first, a = _cpu(lambda b=battle: _fresh(b))  # type: ignore[misc]
            table, _done = _cpu(O.finish)
            firsts.append(first)
            tables.append(first + table)
        back = O_TABLE.odds(battle, backward=True) if O._TABLE else a
        py_t = _best(lambda b=battle: O_DP.odds_python(b), 1)  # type: ignore[misc]
        ref_t = _best(lambda b=battle: REF.odds(b), 1)  # type: ignore[misc]
        b = REF.odds(battle)
        diff = max(max(abs(a[k] - b[k]), abs(back[k] - b[k])) for k in B.RESULTS)
        worst[name] = min(firsts) / y
        target = f" (target <= {TARGETS[name]})" if name in TARGETS else ""
        out.append((f"odds {name}: first / whole table / plain Python / oracle (x yardstick), max diff{target}",
                    f"{min(firsts) / y:.2f} / {min(tables) / y:.2f} / {py_t / y:.2f} / {ref_t / y:.2f}  {diff:.1e}"))
    out.append(("odds: worst first answer (x yardstick)", f"{max(worst.values()):.2f}"))
    j16 = _best(lambda: _fresh(battle_j16()), 5)
    out.append(("odds J-16 Caesar v Pompey (ms)", f"{j16 * 1000:.2f}"))
    for name, make, seed in (("10+5 v 10+5", lambda: battle_of(10, 5), 7),
                             ("10+5(+Cleopatra) v 10+5, Mars", lambda: battle_of(10, 5, True, True), 7)):
        out.extend(later(name, make(), y, seed))
    out.extend(eight_way(y))
    out.extend(hit_off_table(y))
    out.extend(device_keys(y))
    out.append(("memory: max resident size above idle, biggest battle's whole table (MB, target <= 30)",
                f"{rss_after - idle_rss:.1f}"))
    out.append(("memory: tracemalloc peak building it (MB) / states held in its table",
                f"{peak:.1f} / {held:,}"))
    if mc:
        big = battle_of(6, 3)
        rng = Rng(2024)
        counts = dict.fromkeys(B.RESULTS, 0)
        t0 = time.process_time()
        for _ in range(MC_BATTLES):
            fought = copy.deepcopy(big)
            policy.fight(fought, rng)
            counts[fought["result"]] += 1
        mc_s = time.process_time() - t0
        exact = O.odds(big)
        out.append((f"Monte Carlo, {MC_BATTLES:,} resolver battles, 6+3 v 6+3 (s)", f"{mc_s:.2f}"))
        out.append(("exact attacker_wins / eliminated / holds", " / ".join(f"{exact[r]:.4f}" for r in B.RESULTS)))
        out.append(("Monte Carlo attacker_wins / eliminated / holds",
                    " / ".join(f"{counts[r] / MC_BATTLES:.4f}" for r in B.RESULTS)))
    return out


def _spread(times: list[float], y: float) -> str:
    if not times:
        return "-"
    times = sorted(times)
    return f"{len(times)}: {times[len(times) // 2] / y:.3f} / {times[-1] / y:.3f}"


def later(name: str, battle: B.Battle, y: float, seed: int) -> list[tuple[str, str]]:
    """Every later question of one battle after its first answer: ``odds`` and ``advise`` at each
    decision of a walk (digital dice; at a hit the advised block takes it), as a player asks."""
    O.forget()
    O.odds(battle)
    O.finish()
    b = copy.deepcopy(battle)
    B.start(b)
    rng = Rng(seed)
    odds_t: list[float] = []
    turn_look: list[float] = []
    turn_new: list[float] = []
    hit_look: list[float] = []
    hit_new: list[float] = []
    again = 0
    while b["phase"] == "fighting":
        d = B.decision(b)
        assert d is not None
        n0 = O.computations()
        t, _got = _cpu(lambda: O.odds(b))
        odds_t.append(t)
        again += O.computations() - n0
        n0 = O.computations()
        t, adv = _cpu(lambda: A.advise(b))
        if d["kind"] == "hit":
            (hit_new if O.computations() > n0 else hit_look).append(t)
            B.assign_hit(b, adv["best"]["target"], policy.choose_hit)
            continue
        (turn_new if O.computations() > n0 else turn_look).append(t)
        best = adv["best"]
        if best["action"] == "fire":
            B.fire(b, best["block"], None, rng)
        elif best["action"] == "retreat":
            B.retreat(b, best["block"])
        else:
            B.pass_turn(b, best["block"])
    return [(f"later, {name}: odds at each decision, count: median / max (x yardstick; target <= 0.05)",
             f"{_spread(odds_t, y)}  ({again} computed afresh)"),
            (f"later, {name}: advise at a turn, looked up: count: median / max (x yardstick; target <= 0.05)",
             _spread(turn_look, y)),
            (f"later, {name}: advise at a turn with a retreat (each computed): count: median / max",
             _spread(turn_new, y)),
            (f"later, {name}: advise at a hit, looked up: count: median / max (x yardstick; target <= 0.05)",
             _spread(hit_look, y)),
            (f"later, {name}: advise at a hit off the table (one computation): count: median / max",
             _spread(hit_new, y))]


def eight_way(y: float) -> list[tuple[str, str]]:
    """``advise`` at an 8-way (or wider) hit choice of the biggest battle, the battle's table built."""
    for seed in range(1, 200):
        battle = battle_of(10, 5, surprise=True, cleopatra=True)
        b = copy.deepcopy(battle)
        B.start(b)
        rng = Rng(seed)
        while b["phase"] == "fighting":
            d = B.decision(b)
            assert d is not None
            if d["kind"] == "hit" and len(d["choices"]) >= 8:
                return [_at_choice(b, len(d["choices"]), y)]
            if d["kind"] == "hit":
                B.assign_hit(b, None, policy.choose_hit)
            else:
                B.fire(b, d["blocks"][0], None, rng)
    return [("8-way hit choice", "none found")]


def hit_off_table(y: float) -> list[tuple[str, str]]:
    """``odds`` then ``advise``, and ``advise`` then ``odds``, at hit choices of the biggest battle
    that no table holds (asked first there: after a power cut, or a battle's earlier hits put off
    J-14): the time of each and the computations the pair runs (one: whichever comes first values
    every target)."""
    rows: list[tuple[str, str]] = []
    for ways in (2, 8):                      # the first choice among unlike blocks, an 8-way one
        for seed in range(1, 200):
            b = battle_of(10, 5, surprise=True, cleopatra=True)
            B.start(b)
            rng = Rng(seed)
            found = None
            while b["phase"] == "fighting":
                d = B.decision(b)
                assert d is not None
                if d["kind"] == "hit" and len(d["choices"]) >= ways and _unlike(b, d["choices"]):
                    found = d
                    break
                if d["kind"] == "hit":
                    B.assign_hit(b, None, policy.choose_hit)
                else:
                    B.fire(b, d["blocks"][0], None, rng)
            if found is not None:
                rows.extend(_pair(b, len(found["choices"]), y))
                break
    return rows


def _pair(b: B.Battle, ways: int, y: float) -> list[tuple[str, str]]:
    O.forget()
    t_odds, _x = _cpu(lambda: O.odds(b))
    t_adv, _a = _cpu(lambda: A.advise(b))
    pair = O.computations()
    O.forget()
    t_adv1, _a = _cpu(lambda: A.advise(b))
    t_odds1, _x = _cpu(lambda: O.odds(b))
    alone = O.computations()
    return [(f"{ways}-way hit choice off the table (round {b['round']}): odds + advise (x yardstick), computations",
             f"{t_odds / y:.2f} + {t_adv / y:.3f}, {pair}"),
            (f"{ways}-way hit choice off the table: advise + odds (x yardstick), computations",
             f"{t_adv1 / y:.2f} + {t_odds1 / y:.3f}, {alone}")]


def _unlike(b: B.Battle, keys: list[str]) -> bool:
    """Whether the blocks differ in more than their names (their futures differ)."""
    return len({(x["kind"], x["letter"], x["fp"], x["reserve"]) for x in b["blocks"] if x["key"] in keys}) > 1


def _at_choice(b: B.Battle, ways: int, y: float) -> tuple[str, str]:
    """The live odds, ``advise`` and the question after the advised hit, at a hit choice."""
    O.forget()
    O.odds(O_DP._settled(b))                 # the battle's table from the J-14 hit (the odds asked
    O.finish()                               # at the choice itself value every option: hit_off_table)
    t_odds, _x = _cpu(lambda: O.odds(b))     # the live odds: a look-up
    t, adv = _cpu(lambda: A.advise(b))
    c = copy.deepcopy(b)
    B.assign_hit(c, adv["best"]["target"], policy.choose_hit)
    t2, _y = _cpu(lambda: A.advise(c) if B.decision(c) else O.odds(c))
    return (f"{ways}-way hit choice (round {b['round']}): live odds / advise / the next question (x yardstick)",
            f"{t_odds / y:.3f} / {t / y:.2f} / {t2 / y:.3f}")


def device_keys(y: float) -> list[tuple[str, str]]:
    """The device's battle screen on the biggest battle (fresh caches): its worker computes the
    odds and the advice while keys go on being answered; wall-clock figures."""
    import queue
    import tempfile

    from firmware.app import App
    from firmware.console import Console
    from firmware.screens.jc import odds as JS
    from firmware.store import Store
    from firmware.worker import Worker
    with tempfile.TemporaryDirectory() as tmp:
        console = Console(Store(Path(tmp)), None)
        # (a game started now keeps each side's third leader out of play until one of its leaders
        # is killed, J-2: Octavian's and Brutus's places go to Auxilia 3, A-blocks too; every block
        # at its full strength: one in the levy pool is levied and given its steps first, J-20)
        waiting = {"c_octavian": "c_aux3", "p_brutus": "p_aux3"}
        lines = (["settings language=en", "new jc-battle seed=5", "owner cleopatra caesar",
                  "add attacker cleopatra reserve=1"]
                 + [f"add {role} {waiting.get(k, k)} strength={roster()[waiting.get(k, k)].max_strength}{extra}"
                    for role, keys, extra in
                    (("attacker", C_MAIN, ""), ("attacker", C_RES, " reserve=1"),
                     ("defender", P_MAIN, ""), ("defender", P_RES, " reserve=1")) for k in keys]
                 + ["start"])
        for line in lines[:2]:
            assert console.request(line)["ok"], line
        pool = {b["id"] for b in console.request("roster")["blocks"] if b["pool"]}
        for line in lines[2:]:
            words = line.split()
            if words[0] == "add" and words[2] in pool:          # levied and given its steps first (a
                want = int(words[3].removeprefix("strength="))   # pool block joins only at I, J-20)
                for _ in range(want):
                    if console.request(f"gain {words[2]}").get("to", want) >= want:
                        break
            assert console.request(line)["ok"], line
        app = App(console)
        events: queue.Queue = queue.Queue()
        app.worker = Worker(lambda: events.put(("wake",)), idle=(O.finish,))   # as on the device
        O.forget()
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
        calm: list[float] = []
        for _ in range(len(keys) or 1):                              # the same keys, nothing computed
            t = time.perf_counter()
            app.handle("down")
            app.render()
            calm.append(time.perf_counter() - t)
        console.close()
    keys.sort()
    calm.sort()
    median = keys[len(keys) // 2] if keys else 0.0
    return [("device, biggest battle: battle screen opened / answers ready (x yardstick)",
             f"{opened / y:.2f} / {ready / y:.2f}"),
            (f"device: {len(keys)} keys while its worker computes, median / max (x yardstick)",
             f"{median / y:.2f} / {(keys[-1] if keys else 0.0) / y:.2f}"),
            ("device: the same keys once the answers are there, median / max (x yardstick)",
             f"{calm[len(calm) // 2] / y:.2f} / {calm[-1] / y:.2f}")]


def main() -> None:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run of each battle instead of three")
    parser.add_argument("--mc", action="store_true", help="add a 10,000-battle Monte Carlo of the resolver")
    args = parser.parse_args()
    for name, value in figures(quick=args.quick, mc=args.mc):
        print(f"{name:<78} {value}")


if __name__ == "__main__":
    main()
