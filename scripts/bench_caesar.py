"""Benchmark of Caesar! solo: Auto-Crassus's ``decide`` and whole games.

Run ``python scripts/bench_caesar.py``; :func:`figures` returns the same figures as (name, value).

Busy mid-game positions: 24 seeded solo games (all difficulties and module sets) are played with
random human moves until 14 to 18 of the 30 spaces hold tokens; on each position ``decide``
(engine) and the enumeration of every legal placement of his row (``rules.placements``, the
enumerator behind ``moves``) are timed; a position's time is the lowest of 5 medians of 2,000
calls (the machine is shared). The console figures time whole requests from the session's JSON
state: ``decide``, and ``moves side=crassus`` which lists the same legal placements.
"1,000 full solo games" is engine time from ``new`` to the winner with a random human player
(Auto-Crassus decides every play by S-9..S-18).
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine.caesar import flow  # noqa: E402
from engine.caesar.autocrassus import decide  # noqa: E402
from engine.caesar.model import CRASSUS, Game  # noqa: E402
from engine.caesar.players import human_step, play_out, random_policy  # noqa: E402
from engine.caesar.rules import placements  # noqa: E402
from engine.rng import Rng  # noqa: E402

POSITIONS = 24
CALLS = 2000
REPEATS = 5
GAMES = 1000


def busy_positions(n: int = POSITIONS) -> list[Game]:
    """Mid-game positions with 14..18 tokens on the board, Auto-Crassus to move."""
    out: list[Game] = []
    seed = 0
    while len(out) < n:
        g = flow.new_game("solo", seed, difficulty=("easy", "normal", "hard")[seed % 3],
                          poison=seed % 2 == 0, centurions=seed % 4 < 2)
        rng = Rng(seed, 3)
        target = 14 + seed % 5
        while not g.over and (sum(1 for o in g.owner if o >= 0) < target or g.turn != CRASSUS):
            if g.is_bot(g.turn):
                flow.crassus_turn(g)
            else:
                human_step(g, 0, rng, random_policy, False)
        if not g.over and g.hand[CRASSUS]:
            out.append(g)
        seed += 1
    return out


def _per_call_us(fn: Callable[[], object], calls: int = CALLS, repeats: int = REPEATS) -> float:
    """Lowest of ``repeats`` medians of ``calls`` timed calls, in microseconds."""
    best = float("inf")
    clock = time.perf_counter_ns
    for _ in range(repeats):
        times = []
        for _ in range(calls):
            t0 = clock()
            fn()
            times.append(clock() - t0)
        best = min(best, statistics.median(times) / 1000.0)
    return best


def _console_ms(g: Game, command: str, opts: dict[str, str] | None = None) -> float:
    """One console request of the solo game from the session's JSON state, in ms."""
    from engine.caesar.console import SOLO
    from engine.game import Request
    state = g.to_json()
    handler = SOLO.commands[command].handler
    req = Request(command, opts=opts or {})
    return _per_call_us(lambda: handler(state, req), calls=200) / 1000.0


def _games_s(n: int = GAMES) -> tuple[float, int]:
    t0 = time.perf_counter()
    human = 0
    for i in range(n):
        g = flow.new_game("solo", i, difficulty=("easy", "normal", "hard")[i % 3])
        play_out(g, random_policy, Rng(i, 5))
        human += g.winner == 0
    return time.perf_counter() - t0, human


def _deciding(g: Game) -> Callable[[], object]:
    return lambda: decide(g, Rng(1))


def _enumerating(g: Game) -> Callable[[], object]:
    return lambda: placements(g, CRASSUS)


def figures() -> list[tuple[str, str]]:
    """Timings (µs, ms, s) and their ratio."""
    games = busy_positions()
    dec = [_per_call_us(_deciding(g)) for g in games]
    enum = [_per_call_us(_enumerating(g)) for g in games]
    ratios = [d / e for d, e in zip(dec, enum, strict=True)]
    counts = [len(placements(g, CRASSUS)) for g in games]
    console = statistics.median(_console_ms(g, "decide") for g in games[:8])
    listing = statistics.median(_console_ms(g, "moves", {"side": "crassus"}) for g in games[:8])
    secs, human = _games_s()
    return [
        ("busy positions", f"{len(games)} (14-18 tokens on the board, {min(counts)}-{max(counts)} "
                           f"legal placements of his row)"),
        ("decide, engine, median over positions", f"{statistics.median(dec):.1f} µs (max {max(dec):.1f} µs)"),
        ("decide, console request from JSON state, median", f"{console:.3f} ms"),
        ("moves side=crassus (his legal placements), console request, median", f"{listing:.3f} ms"),
        ("enumerate every legal placement once, median", f"{statistics.median(enum):.1f} µs"),
        ("decide / enumeration (ratio of medians)", f"{statistics.median(dec) / statistics.median(enum):.2f}x"),
        ("decide / enumeration per position (median, max)",
         f"{statistics.median(ratios):.2f}x, {max(ratios):.2f}x"),
        (f"{GAMES:,} full solo games (random human)", f"{secs:.2f} s ({secs / GAMES * 1000:.2f} ms per game; "
                                                      f"human won {human})"),
    ]


def main() -> None:
    for name, value in figures():
        print(f"{name}: {value}")


if __name__ == "__main__":
    import argparse
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()     # --help, not a run
    main()
