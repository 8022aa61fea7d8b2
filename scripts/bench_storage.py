"""Long sessions (issue 10 F7, issue 20 §3): what a 20,000-action session costs against a fresh one;
and a year of History (``--history N``): what N finished games cost against a few.

    .venv/bin/python scripts/bench_storage.py [--actions 20000] [--only bag,dice]
    .venv/bin/python scripts/bench_storage.py --history 4000 [--players 300] [--keep DIR]

For each kind of session (dice rolls; a bag's draws and put-backs with its deck's cards, discards
and reshuffles; a side bag beside a game; Glory's fame; Julius Caesar battle after battle; Sword's
rolls) it plays N actions through the real console (in process, durably committed) and prints,
each with its ratio to the same session after 2 actions ("fresh"; the bar: every time ≤ 2×, memory
≤ 50 MB):

- the state directory on disk (MB);
- restart + ``state`` + ``undo`` in a fresh process (ms) and its peak RSS (MB);
- the time of one more action at the end (median ms over the last actions played);
- the size of the reply to that action and of ``state`` (bytes);
- how much the process running the session grew (MB, resident, after a garbage collection).

``--history N`` fills a state directory with N finished games of all four games played through the
console (Caesar! duels ended by the players and, one in 40, solo games played to C-12; Julius
Caesar battles; Glory games of nine rounds; Sword automatic victories), a few hundred named
players, then prints each figure with its ratio to the same with :data:`FEW` games (the bar: a
routine action ≤ 1 s on a Pi Zero 2 W, about 15× this machine's time): the start in a fresh
process (store opened and checked, session resumed, first screen drawn), opening History and a key
on it, each Statistics page, ``history``, ``export format=csv``, Earlier games, the database's size.
Filling 4,000 games takes several minutes; ``--keep DIR`` fills ``DIR/few`` and ``DIR/many`` once
and measures them again on later runs (e.g. another checkout's code on the same data).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.args import at_least  # noqa: E402

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


def rss_mb() -> float:
    """This process's resident memory now (MB), after a garbage collection."""
    import gc
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6


def build(state_dir: Path, setup: list[str], step: list[str], n: int) -> tuple[float, int, int, float]:
    """Play ``n`` actions; returns (median ms of the last actions, bytes of the last action's reply,
    bytes of ``state``, MB this process grew by while the session ran: what a device running the
    session for hours holds more)."""
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
    before = rss_mb()
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
    grew = rss_mb() - before
    state = json.dumps(c.request("state"), ensure_ascii=False)
    c.close()
    return statistics.median(times) * 1000, len(reply.encode()), len(state.encode()), grew


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


# -- a year of History ----------------------------------------------------------------------------------
FEW = 40           # the games History holds in the reference run


def _solo_turn(c: object, rnd: random.Random) -> None:
    """The human side's turn of a Caesar! solo game: a random legal placement, its bonuses skipped."""
    def ok(line: str) -> dict[str, Any]:
        r: dict[str, Any] = c.request(line)  # type: ignore[attr-defined]
        assert r["ok"], (line, r)
        return r
    moves = ok("moves")
    pick = rnd.choice(moves["moves"] + moves["face_down"])
    if pick.get("face_down"):
        ok(f"play {pick['space']} {pick['token']} down")
    else:
        prov, first = next(iter(pick["toward"].items()))
        other = pick["toward"][next(k for k in pick["toward"] if k != prov)]
        ok(f"play {pick['space']} {pick['token'].split(':')[0]}:{first}/{other} {prov}")
    while True:
        st = ok("state")["state"]
        if st["winner"] or st["turn"] != "human" or st["step"] == "play":
            return
        ok(f"{st['human']['pending'][0]} skip" if st["human"]["pending"] else "draw")


def fill_history(state_dir: Path, games: int, players: int = 300, seed: int = 1) -> None:
    """``games`` finished games of all four games through the real console, ``players`` people."""
    from firmware.console import Console
    from firmware.store import Store
    rnd = random.Random(seed)
    names = [f"P{i:03d}" for i in range(players)]
    c = Console(Store(state_dir), None)

    def ok(line: str) -> dict[str, Any]:
        r: dict[str, Any] = c.request(line)
        assert r["ok"], (line, r)
        return r
    try:
        ok("settings language=en")
        for i in range(games):
            a, b, d = rnd.sample(names, 3)
            kind = i % 4
            if kind == 0 and i % 40 == 0:
                ok(f"new caesar-solo difficulty={rnd.choice(['easy', 'normal', 'hard'])} seed={i}")
                while not (st := ok("state")["state"])["winner"]:
                    ok("crassus") if st["turn"] == "crassus" else _solo_turn(c, rnd)
            elif kind == 0:
                ok(f"new caesar-duel seed={i} people=caesar:{a},pompey:{b}")
                ok("end")
            elif kind == 1:
                ok(f"new jc-battle seed={i} people=caesar:{a},pompey:{b}")
                for line in ("add attacker c_leg10", "add defender p_pompeius", "fight"):
                    ok(line)
            elif kind == 2:
                ok(f"new glory players={a},{b},{d} seed={i}")
                for _ in range(9):
                    ok("event")
                    ok("end-round")
                ok("end")
            else:
                ok(f"new sword players=romans,gauls seed={i} people=romans:{a},gauls:{b}")
                ok("scoring romans outside=4 missing=0 auto=3")
    finally:
        c.close()


HISTORY_PROBE = """
import json, sys, time
t0 = time.perf_counter()
from firmware.app import App
from firmware.console import Console
from firmware.store import Store
store = Store(sys.argv[1])
session = store.resume()
t1 = time.perf_counter()
app = App(Console(store, session))
app.render()
out = {"start to first screen": time.perf_counter() - t0, "  of which the store opened and checked": t1 - t0}
from firmware.screens.archive import open_archive
from firmware.screens.history import HistoryScreen
from firmware.screens.history_stats import StatsMenu

def timed(name, f):
    t = time.perf_counter()
    f()
    out[name] = time.perf_counter() - t

def page(i):
    app.stack = app.stack[:1]
    app.push(StatsMenu())
    app.stack[-1].items(app)[i].run(app)
    app.render()

app.stack = app.stack[:1]
timed("open History", lambda: (app.push(HistoryScreen()), app.render()))
timed("a key on History", lambda: (app.handle("down"), app.render()))
for i, item in enumerate(StatsMenu().items(app)):
    timed("Statistics: " + str(item.label), lambda: page(i))
    timed("  a key on " + str(item.label), lambda: (app.handle("up"), app.render()))
timed("console: history", lambda: app.console.request("history"))
timed("console: export format=csv", lambda: app.console.request("export format=csv"))
app.stack = app.stack[:1]
timed("Earlier games", lambda: (open_archive(app), app.render()))
print(json.dumps(out))
"""


def history_probe(state_dir: Path, runs: int = 3) -> dict[str, float]:
    """The best of ``runs`` fresh processes (each on a copy: opening may write), in seconds."""
    import shutil
    best: dict[str, float] = {}
    for i in range(runs):
        copy = state_dir.with_name(f"{state_dir.name}-probe{i}")
        shutil.copytree(state_dir, copy, ignore=shutil.ignore_patterns("lock"))
        got = json.loads(subprocess.run([sys.executable, "-c", HISTORY_PROBE, str(copy)], capture_output=True,
                                        text=True, cwd=ROOT, check=True).stdout.splitlines()[-1])
        shutil.rmtree(copy)
        best = {k: min(v, best.get(k, v)) for k, v in got.items()}
    return best


def history_main(games: int, players: int, keep: Path | None) -> int:
    """``keep``: fill the two state directories there once (``few``, ``many``) and reuse them."""
    print(f"| a year of History | {FEW} games | {games:,} games | ratio | on a Pi (×15) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as few_dir, tempfile.TemporaryDirectory() as many_dir:
        few, many = (keep / "few", keep / "many") if keep is not None else (Path(few_dir), Path(many_dir))
        t = time.perf_counter()
        for where, n in ((few, FEW), (many, games)):
            if not (where / "legatus.db").exists():
                fill_history(where, n, players)
        print(f"(filled in {time.perf_counter() - t:.0f} s)", file=sys.stderr)
        a, b = history_probe(few), history_probe(many)
        for name in b:
            flag = "  **over 1 s**" if b[name] * 15 > 1 else ""
            print(f"| {name} | {a[name] * 1000:.1f} ms | {b[name] * 1000:.1f} ms | {b[name] / a[name]:.2f}× | "
                  f"{b[name] * 15:.1f} s{flag} |")
        fa, fb = disk_mb(few), disk_mb(many)
        print(f"| database | {fa:.2f} MB | {fb:.2f} MB | {fb / fa:.1f}× | |")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--actions", type=at_least(1), default=20000)
    ap.add_argument("--history", type=at_least(0), default=0, help="measure a History of this many finished games instead")
    ap.add_argument("--players", type=at_least(1), default=300, help="with --history: the people who played them")
    ap.add_argument("--keep", type=Path, help="with --history: fill the state directories here once, then reuse them")
    ap.add_argument("--only", default="", help="comma-separated case names (default: all: "
                    + ", ".join(name for name, _setup, _step in CASES) + ")")
    args = ap.parse_args()
    if args.history:
        return history_main(args.history, args.players, args.keep)
    n = args.actions
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    names = [name for name, _setup, _step in CASES]
    if only - set(names):
        ap.error(f"--only: no case {', '.join(sorted(only - set(names)))}; the cases: {', '.join(names)}")
    print("| session | actions | disk | vs fresh | restart+state+undo | vs fresh | peak RSS | vs fresh "
          "| one action | vs fresh | its reply | vs fresh | state reply | vs fresh | live RSS grew |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, setup, step in CASES:
        if only and name not in only:
            continue
        with tempfile.TemporaryDirectory() as fresh_dir, tempfile.TemporaryDirectory() as long_dir:
            f_act, f_reply, f_state, _ = build(Path(fresh_dir), setup, step, max(TAIL, len(step)))
            l_act, l_reply, l_state, grew = build(Path(long_dir), setup, step, n)
            f_disk, l_disk = disk_mb(Path(fresh_dir)), disk_mb(Path(long_dir))
            f_ms, f_mb = probe(Path(fresh_dir))
            l_ms, l_mb = probe(Path(long_dir))
            print(f"| {name} | {n:,} | {l_disk:.2f} MB | {l_disk / f_disk:.1f}× | {l_ms:.0f} ms | {l_ms / f_ms:.2f}× | "
                  f"{l_mb:.1f} MB | {l_mb / f_mb:.2f}× | {l_act:.2f} ms | {l_act / f_act:.2f}× | "
                  f"{l_reply:,} B | {l_reply / f_reply:.2f}× | {l_state:,} B | {l_state / f_state:.2f}× | "
                  f"{grew:+.1f} MB |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
