"""The time from a key to the next frame, on every screen, in realistic (long, late) states.

    .venv/bin/python scripts/bench_keys.py [--only caesar jc ...] [--history DIR] [--all] [--profile KEY]

A key on the device is ``App.handle(key)``, then ``App.render()`` and the frame's bytes (the loop's
``redraw``; the bus time, 23 ms a whole frame at 400 kHz, comes on top, see scripts/bench.py). This
times that for every key of:

- the press scripts (scripts/presses/*: whole games of every game played with device keys);
- a walk of every screen a game's home opens (each item, its keys, back) in a late state: a Caesar!
  solo game near its end, a Julius Caesar session in year 3 after 30 battles with many blocks
  eliminated, Glory in round 9, the Sword of Rome in turn 9, a bag of 100 items, the dice after
  2,000 rolls;
- History, its Statistics pages and Earlier games on a year of History (``--history DIR``: a state
  directory that ``scripts/bench_storage.py --history 4000 --keep DIR`` filled, its ``many``);
- a language change in Settings, the game menus, and the start to the first frame with a long session
  to resume.

The App has a worker for the odds and advice, as on the device; Python's bytecode is cached, as
installed. It prints, per screen and key, the median and slowest time (ms), the slowest key's
processor time (its own thread's, not the odds' worker's, which takes turns with it; what the time has beyond it is mostly
waiting for the card: every action is committed durably, synchronous=EXTRA, before its key is
answered) and the Pi's estimate (×15, a Pi Zero 2 W, whose card is slower too); "**slow**" marks
keys over 30 ms here (about 0.5 s on the Pi). Then the median, 95th, 99th percentile and max of
all keys, and of their processor time. ``--all`` lists every screen and key, not only the slow
ones; ``--profile NAME`` runs the named case under cProfile and prints its 40 costliest calls.
"""
from __future__ import annotations

import argparse
import compileall
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# As installed, Python's bytecode is cached (install-pi.sh compiles it): the first screen of a game
# imports its modules, and this machine's PYTHONDONTWRITEBYTECODE=1 would compile them at that key
# (~100 ms here). The cache is scripts/bench.py's own directory, filled here before any timing.
sys.pycache_prefix = str(Path(tempfile.gettempdir()) / "legatus-bench-pycache")
sys.dont_write_bytecode = False
compileall.compile_dir(ROOT / "engine", quiet=1)
compileall.compile_dir(ROOT / "firmware", quiet=1)
compileall.compile_dir(ROOT / "hw", quiet=1)

from scripts.presses.harness import Driver  # noqa: E402

PI = 15            # a Pi Zero 2 W is about 15x slower than this machine
SLOW_MS = 30.0     # about 0.5 s on the Pi: a key that feels dead
# items a walk does not press (they end or change the game; the press scripts do those)
SKIP = ("end", "new", "undo", "next", "victory", "forget", "rename", "delete", "advance", "fight",
        "start", "reshuffle", "draw", "roll", "language", "restart", "finish", "over")


class Timed(Driver):
    """A Driver that times each key to its next frame, grouped by the screen it was pressed on."""

    def __init__(self, case: str, *args: Any, **kwargs: Any) -> None:
        self.case = case
        self.times: dict[tuple[str, str, str], list[float]] = defaultdict(list)
        self.cpu: dict[tuple[str, str, str], list[float]] = defaultdict(list)
        super().__init__(*args, **kwargs)
        from engine.jc.odds import finish as jc_tables
        from firmware.worker import Worker
        self.app.worker = Worker(lambda: None, idle=(jc_tables,))   # odds and advice off the keys, as on the device

    def press(self, key: str, n: int = 1) -> None:
        for _ in range(n):
            where = type(self.top).__name__
            t, c = time.perf_counter(), time.thread_time()
            self.app.handle(key)
            self.app.render().tobytes()
            took = (time.perf_counter() - t) * 1000
            self.times[(self.case, where, key)].append(took)
            self.cpu[(self.case, where, key)].append((time.thread_time() - c) * 1000)
            self.presses += 1

    def check(self) -> None:       # the press scripts' screen checks are test_presses' business
        self.frames += 1


TIMES: dict[tuple[str, str, str], list[float]] = defaultdict(list)
CPU: dict[tuple[str, str, str], list[float]] = defaultdict(list)     # the same keys' processor time


@contextmanager
def driver(case: str, lang: str = "en", state_dir: Path | None = None) -> Iterator[Timed]:
    d = Timed(case, lang, state_dir=state_dir, seed=1)
    try:
        yield d
    finally:
        for k, v in d.times.items():
            TIMES[k].extend(v)
            CPU[k].extend(d.cpu[k])
        d.close()


def walk(d: Timed, depth: int = 2) -> None:
    """Every item of the top list: move to it, open it, its keys (down, up, right, left), back."""
    if depth == 0:
        return
    top = d.top
    items = d.items()
    for i, item in enumerate(items):
        label = str(getattr(item, "label", "")).lower()
        if any(w in label for w in SKIP):
            continue
        cursor = getattr(d.top, "cursor", 0)
        if d.top is not top:
            return
        d.press("down" if i >= cursor else "up", abs(i - cursor))
        n = len(d.app.stack)
        d.press("a")
        if len(d.app.stack) > n and d.top is not top:
            for key in ("down", "up", "right", "left"):
                if d.top is not top:
                    d.press(key)
            if d.top is not top and len(d.app.stack) == n + 1:
                walk(d, depth - 1)
        for _ in range(6):
            if d.top is top or len(d.app.stack) <= n:
                break
            d.press("b")
        if d.app.message is not None:
            d.press("b")


def to_home(d: Timed) -> None:
    """From the main menu to the running game's home (Resume is the first item)."""
    d.app.stack = d.app.stack[:1]
    d.app.message = d.app.commitment = None
    d.press("a")


# -- cases ------------------------------------------------------------------------------------------
def presses() -> None:
    import importlib
    for name in ("caesar", "jc", "glory", "sword", "kit"):
        mod = importlib.import_module(f"scripts.presses.{name}")
        with driver(f"presses:{name}") as d:
            mod.play(d, random.Random(1))


def caesar() -> None:
    from scripts.bench_storage import _solo_turn
    with driver("Caesar! near the end") as d:
        d.run("new caesar-solo difficulty=hard seed=3")
        rnd = random.Random(3)
        while not (st := d.run("state")["state"])["winner"]:
            d.run("crassus") if st["turn"] == "crassus" else _solo_turn(d.console, rnd)
        for _ in range(6):
            d.run("undo")
        to_home(d)
        walk(d)


def jc() -> None:
    with driver("JC year 3, 30 battles") as d:
        d.run("new jc-battle year=3 seed=5")
        for _ in range(30):
            for line in ("add attacker rating=C3 strength=3", "add defender rating=B2 strength=2", "fight",
                         "next-battle"):
                d.run(line)
        for line in ("add attacker c_caesar", "add attacker c_leg10", "add attacker c_leg8",
                     "add defender p_pompeius", "add defender p_leg1", "add defender p_leg3"):
            d.run(line)
        to_home(d)
        walk(d)


def glory() -> None:
    with driver("Glory round 9") as d:
        d.run("new glory players=Ann,Bob,Cid,Dan seed=2")
        for r in range(8):
            d.run("event")
            for who in ("Ann", "Bob", "Cid", "Dan"):
                d.run(f"fame {who} +{(r * 3 + len(who)) % 5}")
            d.run("end-round")
        to_home(d)
        walk(d)


def sword() -> None:
    with driver("Sword turn 9") as d:
        d.run("new sword players=romans,gauls,etruscans,samnites seed=4")
        for i in range(40):
            d.run("battle att=3 def=2 mod=1")
            d.run(f"vp romans +{i % 2}")
            d.run("advance")
        to_home(d)
        walk(d)


def kit() -> None:
    with driver("bag of 100 items") as d:
        d.run("new bag items=" + ",".join(f"item{i}*{5 if i < 20 else 0}" for i in range(20)).replace("*0", "")
              + " cards=c*20 seed=1")
        for _ in range(50):
            d.run("draw")
        to_home(d)
        walk(d)
    with driver("dice after 2,000 rolls") as d:
        d.run("new dice seed=1")
        for _ in range(2000):
            d.run("roll 2d6")
        to_home(d)
        walk(d)


def menus() -> None:
    with driver("menus and a language change") as d:
        d.run("new glory players=Ann,Bob,Cid seed=2")
        d.app.stack = d.app.stack[:1]
        walk(d, 3)
        from firmware.screens.menu import SettingsScreen
        d.app.push(SettingsScreen())
        d.select("Language", "right")
        d.press("right")
        d.press("left")


def history(state: Path | None) -> None:
    if state is None:
        print("(no --history DIR: History, Statistics and Earlier games not measured)", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "state"
        shutil.copytree(state, copy, ignore=shutil.ignore_patterns("lock"))
        from firmware.screens.archive import open_archive
        from firmware.screens.history import open_history
        from firmware.screens.history_stats import StatsMenu
        with driver("a year of History", state_dir=copy) as d:
            for opener in (open_history, lambda c: c.push(StatsMenu()), open_archive):
                d.app.stack = d.app.stack[:1]
                d.press("down")
                opener(d.app)          # not timed: the menus' keys are (case "menus")
                d.app.render()
                walk(d, 2)


FRESH = """
import sys, time
t0, c0 = time.perf_counter(), time.thread_time()
from firmware.app import App
from firmware.console import Console
from firmware.store import Store
store = Store(sys.argv[1])
app = App(Console(store, store.resume()))
app.render().tobytes()
print((time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000)
app.console.close()
"""
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": sys.pycache_prefix or ""}


def start(state: Path | None) -> None:
    """The start to the first frame, with a long session to resume (and beside a year of History
    when ``state`` is given)."""
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    for history_too in (False, True) if state is not None else (False,):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "state"
            if history_too and state is not None:
                shutil.copytree(state, root, ignore=shutil.ignore_patterns("lock"))
            c = Console(Store(root), None)
            c.request("settings language=en")
            c.request("new glory players=Ann,Bob,Cid seed=2")
            for i in range(3000):
                c.request(f"fame Ann {'+' if i % 3 else '-'}1")
            c.close()
            case = "start, a 3,000-action session" + (" and a year of History" if history_too else "")
            for _ in range(6):            # a fresh process (its imports too), the bytecode cached
                t = time.perf_counter()
                out = subprocess.run([sys.executable, "-c", FRESH, str(root)], capture_output=True, text=True,
                                     env=ENV, check=True).stdout.split()
                TIMES[(case, "(a fresh process)", "first frame")].append(float(out[0]))
                CPU[(case, "(a fresh process)", "first frame")].append(float(out[1]))
            for _ in range(5):
                t, cpu = time.perf_counter(), time.thread_time()
                store = Store(root)
                app = App(Console(store, store.resume()))
                app.render().tobytes()
                TIMES[(case, "(start)", "first frame")].append((time.perf_counter() - t) * 1000)
                CPU[(case, "(start)", "first frame")].append((time.thread_time() - cpu) * 1000)
                app.console.close()


CASES: dict[str, Callable[[Path | None], None]] = {
    "presses": lambda h: presses(), "caesar": lambda h: caesar(), "jc": lambda h: jc(),
    "glory": lambda h: glory(), "sword": lambda h: sword(), "kit": lambda h: kit(), "menus": lambda h: menus(),
    "history": history, "start": start,
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", choices=sorted(CASES), default=list(CASES))
    ap.add_argument("--history", type=Path, help="a state directory with a year of History (bench_storage --keep DIR's many)")
    ap.add_argument("--all", action="store_true", help="every screen and key, not only the slow ones")
    ap.add_argument("--profile", choices=sorted(CASES), help="run this case under cProfile")
    args = ap.parse_args()
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.runcall(CASES[args.profile], args.history)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return 0
    for name in args.only:
        t = time.perf_counter()
        CASES[name](args.history)
        print(f"({name}: {time.perf_counter() - t:.0f} s)", file=sys.stderr)
    rows = sorted(TIMES.items(), key=lambda kv: -max(kv[1]))
    print()
    keys = sum(len(v) for v in TIMES.values())
    slow = [r for r in rows if max(r[1]) > SLOW_MS]
    print(f"{keys} keys timed on {len({(c, s) for c, s, _ in TIMES})} screens; {len(slow)} screen/key pairs over {SLOW_MS:g} ms\n")
    print("| case | screen | key | n | median ms | max ms | its processor time, max ms | Pi max (×15) |")
    print("|---|---|---|---|---|---|---|---|")
    for (case, screen, key), v in rows:
        if not args.all and max(v) <= SLOW_MS:
            continue
        flag = " **slow**" if max(v) > SLOW_MS else ""
        print(f"| {case} | {screen} | {key} | {len(v)} | {statistics.median(v):.1f} | {max(v):.1f} | "
              f"{max(CPU[(case, screen, key)]):.1f} | "
              f"{max(v) * PI / 1000:.2f} s{flag} |")
    for what, table in (("all keys", TIMES), ("their processor time", CPU)):
        every = sorted(x for v in table.values() for x in v)
        print(f"{what}: median {statistics.median(every):.1f} ms, 95th percentile "
              f"{every[int(len(every) * 0.95)]:.1f} ms, 99th {every[int(len(every) * 0.99)]:.1f} ms, max {every[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
