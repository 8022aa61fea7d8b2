"""Long sessions (issue 10, F7): peak memory and restart time for 20,000-action sessions.

    .venv/bin/python scripts/bench_storage.py [--actions 20000]

Builds a dice session of N rolls and a bag session of N draws/put-backs through the real console
(in process, durably committed), then measures in fresh processes: restart + ``state`` + ``undo``
time and peak RSS, against the same for a fresh session (the ratio is what matters on a Pi).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROBE = """
import resource, sys, time
t0 = time.perf_counter()
from firmware.console import Console
from firmware.store import Store
store = Store(sys.argv[1])
c = Console(store, store.resume())
assert c.request("state")["ok"]
assert c.request("undo")["ok"]
assert c.request("state")["ok"]
t1 = time.perf_counter()
c.close()
print(f"{(t1 - t0) * 1000:.1f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f}")
"""


def build(state_dir: Path, setup: str, step: list[str], n: int) -> float:
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, None)
    c.request("settings language=en")
    c.request(setup)
    t = time.perf_counter()
    for i in range(n):
        r = c.request(step[i % len(step)])
        assert r["ok"], r
    took = time.perf_counter() - t
    c.close()
    return took


def probe(state_dir: Path, runs: int = 3) -> tuple[float, float]:
    """Best of ``runs`` (ms, peak MB), each on a fresh copy (undo changes the directory)."""
    import shutil
    best = (1e9, 0.0)
    for i in range(runs):
        copy = state_dir.with_name(f"{state_dir.name}-probe{i}")
        shutil.copytree(state_dir, copy, ignore=shutil.ignore_patterns("lock"))
        out = subprocess.run([sys.executable, "-c", PROBE, str(copy)], capture_output=True, text=True,
                             cwd=ROOT, check=True).stdout.split()
        shutil.rmtree(copy)
        best = min(best, (float(out[0]), float(out[1])))
    return best


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--actions", type=int, default=20000)
    args = ap.parse_args()
    n = args.actions
    cases = [("dice", "new dice seed=1", ["roll 2d6"]),
             ("glory", "new glory players=Ann,Bob,Cid seed=1", ["fame Ann +2", "fame Bob +1", "fame Ann -1"])]
    print("| session | actions | build (ms/action) | restart+state+undo | vs fresh | peak RSS | vs fresh |")
    print("|---|---|---|---|---|---|---|")
    for name, setup, step in cases:
        with tempfile.TemporaryDirectory() as fresh_dir, tempfile.TemporaryDirectory() as long_dir:
            build(Path(fresh_dir), setup, step, 2)
            took = build(Path(long_dir), setup, step, n)
            f_ms, f_mb = probe(Path(fresh_dir))
            l_ms, l_mb = probe(Path(long_dir))
            print(f"| {name} | {n:,} | {took * 1000 / n:.2f} | {l_ms:.0f} ms | {l_ms / f_ms:.2f}× | "
                  f"{l_mb:.1f} MB | {l_mb / f_mb:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
