"""The time from a key to the next frame, on every screen, in realistic (long, late) states.

    .venv/bin/python scripts/bench_keys.py [--only caesar jc ...] [--history DIR] [--lang ru] [--all] [--profile KEY]

A key on the device is ``App.handle(key)``, then ``App.render()`` and the frame's bytes (the loop's
``redraw``; the bus time, 23 ms a whole frame at 400 kHz, comes on top, see scripts/bench.py). This
times that for every key of:

- the press scripts (scripts/presses/*: whole games of every game played with device keys);
- a walk of every screen a game's home opens (each item, its keys, back) in a late state: a Caesar!
  solo game near its end, a Julius Caesar session in year 3 after 30 battles with many blocks
  eliminated, Glory in round 9, the Sword of Rome in turn 9, a bag of 100 items, the dice after
  2,000 rolls; then, from each of those states, 300 random keys (tests/test_random_keys.py's: they
  reach the screens a walk does not, the forms, questions and pages of a move);
- History, its Statistics pages and Earlier games on a year of History (``--history DIR``: a state
  directory that ``scripts/bench_storage.py --history 4000 --keep DIR`` filled, its ``many``), and
  the first Statistics page again after each of 5 actions (each write may change History);
- a language change in Settings, the game menus, and the start to the first frame with a long session
  to resume.

The App has a worker for the odds and advice, as on the device; Python's bytecode is cached, as
installed. It prints, per screen and key, the median and slowest time (ms), the slowest key's
processor time (its own thread's, not the odds' worker's, which takes turns with it; what the time has beyond it is mostly
waiting for the card: every action is committed durably, synchronous=EXTRA, before its key is
answered) and the Pi's estimate (×15, a Pi Zero 2 W, whose card is slower too); "**slow**" marks
keys over 30 ms here (about 0.5 s on the Pi). Then the median, 95th, 99th percentile and max of
all keys, and of their processor time, and each case's write transactions a key (BEGIN … COMMIT on the
store's connection: a read-only key should run none). ``--all`` lists every screen and key, not only the slow
ones; ``--profile NAME`` runs the named case under cProfile and prints its 40 costliest calls.

The machine's speed is taken out by a fixed yardstick (scripts/bench_jc.py's: 300,000 × ``s += i*i
% 7`` in pure Python, processor time, the best of 5): each key's processor time is also printed as
a ratio to it, with the bar (100 ms on a Pi, a key a player feels: 100/15 ms here) as a ratio too,
so runs on other machines or under other load compare. ``--lang ru`` (or uk) speaks that language
(its catalogs, its longer words). Case ``memory``: the device program itself (``firmware.cli --sim
--script``) on the state with a 3,000-action session (and a year of History with ``--history``),
3,000 random keys, its peak RSS against the Pi's 512 MB.
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
FELT_MS = 100 / PI  # about 100 ms on the Pi: a key a demanding player feels
PI_MB = 512        # a Pi Zero 2 W's memory
LANG = "en"        # --lang
# tests/test_random_keys.py's keys
RANDOM_KEYS = ["up", "down", "left", "right", "press", "a", "b", "a", "right", "down", "b:hold", "a:hold", "key3"]
# items a walk does not press (they end or change the game; the press scripts do those)
SKIP = ("end", "new", "undo", "next", "victory", "forget", "rename", "delete", "advance", "fight",
        "start", "reshuffle", "draw", "roll", "language", "restart", "finish", "over")


class Timed(Driver):
    """A Driver that times each key to its next frame, grouped by the screen it was pressed on."""

    def __init__(self, case: str, *args: Any, **kwargs: Any) -> None:
        self.case = case
        self.begun = 0                   # the write transactions (BEGIN) the store's connection ran
        self.times: dict[tuple[str, str, str], list[float]] = defaultdict(list)
        self.cpu: dict[tuple[str, str, str], list[float]] = defaultdict(list)
        super().__init__(*args, **kwargs)
        from engine.jc.odds import finish as jc_tables
        from firmware.worker import Worker
        self.app.worker = Worker(lambda: None, idle=(jc_tables,))   # odds and advice off the keys, as on the device
        self._watched: object = None

    def _watch(self) -> None:
        """Count the store's write transactions (its connection may be made again after a failure)."""
        if self.store.db is not self._watched:
            self._watched = self.store.db
            self.store.db.set_trace_callback(lambda sql: self._begin() if sql.startswith("BEGIN") else None)

    def _begin(self) -> None:
        self.begun += 1

    def press(self, key: str, n: int = 1) -> None:
        for _ in range(n):
            where = type(self.top).__name__
            self._watch()
            begun = self.begun
            t, c = time.perf_counter(), time.thread_time()
            self.app.handle(key)
            self.app.render().tobytes()
            took = (time.perf_counter() - t) * 1000
            WRITES[self.case][0] += 1
            WRITES[self.case][1] += self.begun - begun
            self.times[(self.case, where, key)].append(took)
            self.cpu[(self.case, where, key)].append((time.thread_time() - c) * 1000)
            self.presses += 1

    def check(self) -> None:       # the press scripts' screen checks are test_presses' business
        self.frames += 1


TIMES: dict[tuple[str, str, str], list[float]] = defaultdict(list)
CPU: dict[tuple[str, str, str], list[float]] = defaultdict(list)     # the same keys' processor time
WRITES: dict[str, list[int]] = defaultdict(lambda: [0, 0])           # case -> [keys, write transactions in them]


def yardstick() -> float:
    """Milliseconds of processor time for the fixed workload (the best of 5; scripts/bench_jc.py's)."""
    from scripts.bench_jc import yardstick as seconds
    return seconds() * 1000


@contextmanager
def driver(case: str, lang: str | None = None, state_dir: Path | None = None) -> Iterator[Timed]:
    d = Timed(case, lang or LANG, state_dir=state_dir, seed=1)
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


def jumble(d: Timed, seed: str, n: int = 300) -> None:
    """``n`` random keys from where ``d`` is (tests/test_random_keys.py's), timed as the others."""
    rng = random.Random(seed)
    for _ in range(n):
        d.press(rng.choice(RANDOM_KEYS))


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
        to_home(d)
        jumble(d, d.case)


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
        to_home(d)
        jumble(d, d.case)


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
        to_home(d)
        jumble(d, d.case)


def sword() -> None:
    with driver("Sword turn 9") as d:
        d.run("new sword players=romans,gauls,etruscans,samnites seed=4")
        for i in range(40):
            d.run("battle att=3 def=2 mod=1")
            d.run(f"vp romans +{i % 2}")
            d.run("advance")
        to_home(d)
        walk(d)
        to_home(d)
        jumble(d, d.case)


def kit() -> None:
    with driver("bag of 100 items") as d:
        d.run("new bag items=" + ",".join(f"item{i}*{5 if i < 20 else 0}" for i in range(20)).replace("*0", "")
              + " cards=c*20 seed=1")
        for _ in range(50):
            d.run("draw")
        to_home(d)
        walk(d)
        to_home(d)
        jumble(d, d.case)
    with driver("dice after 2,000 rolls") as d:
        d.run("new dice seed=1")
        for _ in range(2000):
            d.run("roll 2d6")
        to_home(d)
        walk(d)
        to_home(d)
        jumble(d, d.case)


def menus() -> None:
    with driver("menus and a language change") as d:
        d.run("new glory players=Ann,Bob,Cid seed=2")
        d.app.stack = d.app.stack[:1]
        walk(d, 3)
        from firmware.screens.menu import SettingsScreen
        d.app.push(SettingsScreen())
        from firmware.i18n import _
        d.select(_("Language"), "right")
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
        with driver("a year of History, a page again after each action", state_dir=copy) as d:
            d.run("new dice seed=1")
            for _ in range(5):         # an action is written (History may read differently), then a page
                d.run("roll 2d6")
                d.app.stack = d.app.stack[:1]
                d.app.push(StatsMenu())
                d.app.render()
                d.press("a")


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


def long_session(root: Path, actions: int = 3000) -> None:
    """A Glory session of ``actions`` actions in the state directory ``root``, in the bench's language."""
    from firmware.console import Console
    from firmware.store import Store
    c = Console(Store(root), None)
    c.request(f"settings language={LANG}")
    c.request("new glory players=Ann,Bob,Cid seed=2")
    for i in range(actions):
        c.request(f"fame Ann {'+' if i % 3 else '-'}1")
    c.close()


RSS: list[tuple[str, float]] = []       # (what ran, the device program's peak RSS in MB)
PEAK = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); " \
       "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"


def memory(state: Path | None) -> None:
    """The device program's peak RSS: the simulator driven by 3,000 random keys from the state with
    a 3,000-action session to resume (beside a year of History when ``state`` is given)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "state"
        if state is not None:
            shutil.copytree(state, root, ignore=shutil.ignore_patterns("lock"))
        long_session(root)
        rng = random.Random("memory")
        script = Path(tmp) / "keys"
        script.write_text("\n".join(rng.choice(RANDOM_KEYS) for _ in range(3000)) + "\n")
        out = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "firmware.cli", "--sim",
                              "--state-dir", str(root), "--script", str(script)],
                             capture_output=True, text=True, env=ENV, check=True, cwd=ROOT).stdout
        what = "3,000 random keys, a 3,000-action session" + (" and a year of History" if state is not None else "")
        RSS.append((what, int(out.split()[-1]) / 1024))


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
            long_session(root)
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
    "history": history, "start": start, "memory": memory,
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", choices=sorted(CASES), default=list(CASES))
    ap.add_argument("--history", type=Path, help="a state directory with a year of History (bench_storage --keep DIR's many)")
    ap.add_argument("--lang", choices=("en", "ru", "uk"), default="en", help="the language the device speaks")
    ap.add_argument("--all", action="store_true", help="every screen and key, not only the slow ones")
    ap.add_argument("--profile", choices=sorted(CASES), help="run this case under cProfile")
    args = ap.parse_args()
    global LANG
    LANG = args.lang
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.runcall(CASES[args.profile], args.history)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return 0
    yard = yardstick()
    for name in args.only:
        t = time.perf_counter()
        CASES[name](args.history)
        print(f"({name}: {time.perf_counter() - t:.0f} s)", file=sys.stderr)
    yard = min(yard, yardstick())          # the quieter of two, before and after
    print(f"\nyardstick: {yard:.1f} ms of processor time; the bar, 100 ms on a Pi ({FELT_MS:.1f} ms here), "
          f"is {FELT_MS / yard:.2f}× it; language {LANG}")
    rows = sorted(TIMES.items(), key=lambda kv: -max(CPU[kv[0]]))
    keys = sum(len(v) for v in TIMES.values())
    slow = [r for r in rows if max(r[1]) > SLOW_MS]
    felt = [r for r in rows if max(CPU[r[0]]) > FELT_MS]
    if keys:
        print(f"{keys} keys timed on {len({(c, s) for c, s, _ in TIMES})} screens; {len(slow)} screen/key pairs over "
              f"{SLOW_MS:g} ms; {len(felt)} whose processor time is over the bar ({FELT_MS:.1f} ms)\n")
        print("| case | screen | key | n | median ms | max ms | its processor time, median / max ms | max × yardstick "
              "| Pi max (×15) |")
        print("|---|---|---|---|---|---|---|---|---|")
    for (case, screen, key), v in rows:
        cpu = max(CPU[(case, screen, key)])
        if not args.all and max(v) <= SLOW_MS and cpu <= FELT_MS:
            continue
        flag = " **slow**" if max(v) > SLOW_MS else ""
        flag += " **felt**" if cpu > FELT_MS else ""
        print(f"| {case} | {screen} | {key} | {len(v)} | {statistics.median(v):.1f} | {max(v):.1f} | "
              f"{statistics.median(CPU[(case, screen, key)]):.1f} / {cpu:.1f} | {cpu / yard:.3f} | {cpu * PI / 1000:.2f} s{flag} |")
    for what, table in (("all keys", TIMES), ("their processor time", CPU)):
        every = sorted(x for v in table.values() for x in v)
        if not every:
            continue
        p50, p95, p99 = (every[int(len(every) * q)] for q in (0.5, 0.95, 0.99))
        print(f"{what}: median {p50:.1f} ms, 95th percentile {p95:.1f} ms, 99th {p99:.1f} ms, max {every[-1]:.1f} ms"
              f" (× yardstick: {p50 / yard:.3f}, {p95 / yard:.3f}, {p99 / yard:.3f}, {every[-1] / yard:.3f})")
    for case, (n, begun) in WRITES.items():
        if n:
            print(f"{case}: {begun} write transactions in {n} keys ({begun / n:.2f} a key; each a durable commit when it writes)")
    for what, mb in RSS:
        print(f"the device program's peak RSS ({what}): {mb:.1f} MB = {mb / PI_MB:.1%} of a Pi Zero 2 W's {PI_MB} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
