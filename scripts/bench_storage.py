"""Long sessions (issue 10 F7, issue 20 §3): what a 20,000-action session costs against a fresh one.

    .venv/bin/python scripts/bench_storage.py [--actions 20000] [--only bag,dice]

For each kind of session (dice rolls; a bag's draws and put-backs with its deck's cards, discards
and reshuffles; a side bag beside a game; Glory's fame; Julius Caesar battle after battle; Sword's
rolls) it plays N actions through the real console (in process, durably committed) and prints,
each with its ratio to the same session after 2 actions ("fresh"; the bar: every time ≤ 2×, memory
≤ 50 MB):

- the state directory on disk (MB);
- restart + ``state`` + ``undo`` in a fresh process (ms) and its peak RSS (MB);
- the time of one more action at the end (median ms over the last actions played);
- the size of the reply to that action and of ``state`` (bytes).
"""
from __future__ import annotations

import argparse
import json
import statistics
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

# name, set-up lines, the cycle of actions repeated
CASES: list[tuple[str, list[str], list[str]]] = [
    ("dice", ["new dice seed=1"], ["roll 2d6"]),
    ("bag", ["new bag items=gold*3,silver*2 cards=c*4 seed=1"],
     ["draw", "put {drawn}", "card", "discard c", "reshuffle"]),
    ("side bag", ["new sword players=romans,gauls seed=1", "kit new items=x*3,y*2"], ["kit draw", "kit put {drawn}"]),
    ("glory", ["new glory players=Ann,Bob,Cid seed=1"], ["fame Ann +2", "fame Bob +1", "fame Ann -1"]),
    ("jc battles", ["new jc-battle seed=1"], ["add attacker rating=C3 strength=3", "add defender rating=B2 strength=2",
                                              "fight", "next-battle"]),
    ("sword", ["new sword players=romans,gauls,etruscans seed=1"], ["battle att=3 def=2 mod=1", "check siege"]),
]
TAIL = 60          # the actions timed at the end of the session


def build(state_dir: Path, setup: list[str], step: list[str], n: int) -> tuple[float, int, int]:
    """Play ``n`` actions; returns (median ms of the last actions, bytes of the last action's reply,
    bytes of ``state``)."""
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, None)
    c.request("settings language=en")
    for line in setup:
        assert c.request(line)["ok"], line
    times: list[float] = []
    drawn = ""
    reply = ""
    for i in range(n):
        line = step[i % len(step)].format(drawn=drawn)
        t = time.perf_counter()
        r = c.request(line)
        took = time.perf_counter() - t
        assert r["ok"], (line, r)
        if "drawn" in r:
            drawn = r["drawn"][0]
        if i >= n - TAIL:
            times.append(took)
            reply = json.dumps(r, ensure_ascii=False)
    state = json.dumps(c.request("state"), ensure_ascii=False)
    c.close()
    return statistics.median(times) * 1000, len(reply.encode()), len(state.encode())


def disk_mb(state_dir: Path) -> float:
    return sum(p.stat().st_size for p in state_dir.rglob("*") if p.is_file()) / 1e6


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
    ap.add_argument("--only", default="", help="comma-separated case names (default: all: "
                    + ", ".join(name for name, _setup, _step in CASES) + ")")
    args = ap.parse_args()
    n = args.actions
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    names = [name for name, _setup, _step in CASES]
    if only - set(names):
        ap.error(f"--only: no case {', '.join(sorted(only - set(names)))}; the cases: {', '.join(names)}")
    print("| session | actions | disk | vs fresh | restart+state+undo | vs fresh | peak RSS | vs fresh "
          "| one action | vs fresh | its reply | vs fresh | state reply | vs fresh |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, setup, step in CASES:
        if only and name not in only:
            continue
        with tempfile.TemporaryDirectory() as fresh_dir, tempfile.TemporaryDirectory() as long_dir:
            f_act, f_reply, f_state = build(Path(fresh_dir), setup, step, max(TAIL, len(step)))
            l_act, l_reply, l_state = build(Path(long_dir), setup, step, n)
            f_disk, l_disk = disk_mb(Path(fresh_dir)), disk_mb(Path(long_dir))
            f_ms, f_mb = probe(Path(fresh_dir))
            l_ms, l_mb = probe(Path(long_dir))
            print(f"| {name} | {n:,} | {l_disk:.2f} MB | {l_disk / f_disk:.1f}× | {l_ms:.0f} ms | {l_ms / f_ms:.2f}× | "
                  f"{l_mb:.1f} MB | {l_mb / f_mb:.2f}× | {l_act:.2f} ms | {l_act / f_act:.2f}× | "
                  f"{l_reply:,} B | {l_reply / f_reply:.2f}× | {l_state:,} B | {l_state / f_state:.2f}× |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
