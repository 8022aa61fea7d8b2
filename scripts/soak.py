"""A week on the shelf: what grows with time and use in the device program (RSS, Python heap, file
descriptors, threads, the database and its journal, the log file) and which key presses write.

    .venv/bin/python scripts/soak.py [--presses 20000] [--games 3] [--lang en] [--churn 12000] [--trace] [--restart-every 5000]

Three phases, through the real App over a real state directory (tests' and scripts/presses'
Driver; the churn through the console), with the odds worker thread the device runs and the log
file attached as ``legatus`` does:

- **games**: ``--games`` rounds of every box's whole game played with device keys
  (scripts/presses/*: Caesar! solo and duel, Julius Caesar battles, Glory, Sword, dice and bags), each
  on its own fresh device (new Driver and state directory) in this one process: what a long-running
  program keeps after each finished game;
- **churn**: a session of ``--churn`` console requests of each kind (dice, a bag and its deck,
  Glory's fame, Julius Caesar battle after battle), every third an undo: the database and the heap
  it costs (growth counted after the first 4,000);
- **keys**: ``--presses`` random keys (tests/test_random_keys.py's keys and set-ups, every set-up in
  turn, a power cut and restart every ``--restart-every``) on ONE state directory, as a device
  that runs for days.

Every 1,000 presses it prints the resident memory (/proc/self/statm), the Python heap (with
``--trace``, tracemalloc; about 3× slower), open file descriptors (/proc/self/fd), threads, the
state directory's database + journal and log file sizes, and the growth per 1,000 presses since the
first sample. Then the key presses that wrote the database and left every row as it was (a press
that changes nothing must not write: SD wear), grouped by screen and key, those that wrote with no
action stored (settings, players, History), and the database's rows per table. The bar: memory,
descriptors, threads flat after warm-up (heap growth per 1,000 presses ≈ 0 once every screen was
seen); the database grows only with stored actions (rows), never on a no-op press; the log file
stays under its rotation bound (firmware.logs: 3 × 256 KB).

For the fsyncs per press, run it under strace (counts of the syscalls the whole run made)::

    strace -f -c -e trace=write,pwrite64,fsync,fdatasync .venv/bin/python scripts/soak.py --presses 2000 --games 0
"""
from __future__ import annotations

import argparse
import gc
import importlib
import logging
import os
import random
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.args import at_least  # noqa: E402
from scripts.presses.harness import Driver  # noqa: E402

MODULES = ("kit", "caesar", "jc", "glory", "sword")
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def dir_bytes(root: Path) -> tuple[int, int]:
    """(database + journal, log files) in bytes."""
    db = log = 0
    for p in root.iterdir():
        if p.name.startswith("legatus.db"):
            db += p.stat().st_size
        elif p.name.startswith("legatus.log"):
            log += p.stat().st_size
    return db, log


class Sample:
    def __init__(self, presses: int, root: Path | None, trace: bool) -> None:
        gc.collect()
        self.presses = presses
        self.rss = rss_mb()
        self.heap = tracemalloc.get_traced_memory()[0] / 2**20 if trace else 0.0
        self.fds = fds()
        self.threads = threading.active_count()
        self.db, self.log = dir_bytes(root) if root is not None else (0, 0)

    def row(self, first: Sample) -> str:
        k = max(1, self.presses - first.presses) / 1000
        return (f"{self.presses:>7} {self.rss:7.1f} {self.heap:7.2f} {self.fds:4} {self.threads:3} "
                f"{self.db / 1024:9.1f} {self.log / 1024:7.1f}   "
                f"{(self.rss - first.rss) / k:+7.3f} {(self.heap - first.heap) * 1024 / k:+8.1f} "
                f"{(self.db - first.db) / 1024 / k:+8.2f} {(self.log - first.log) / 1024 / k:+7.2f}")


HEADER = ("presses  RSS MB heapMB  fds thr   db KB     log KB   per 1,000 presses: RSS MB  heap KB     db KB  log KB")


_WORKER: list[Any] = []


def attach_worker(d: Driver) -> None:
    """The odds worker thread, one for the process as on the device (it never ends: one per App
    would count a thread per fresh device here)."""
    from firmware.worker import Worker
    if not _WORKER:
        _WORKER.append(Worker(lambda: None))
    d.app.worker = _WORKER[0]


class Writes:
    """Counts the store's transactions and, per press, whether the database file changed."""

    def __init__(self) -> None:
        from firmware.store.connection import Connection
        self.transactions = 0
        self.original = Connection.transaction
        counter = self

        @contextmanager
        def counted(store: Any, landed: Callable[..., bool] | None = None) -> Iterator[Any]:
            counter.transactions += 1
            with counter.original(store, landed) as db:
                yield db
        Connection.transaction = counted  # type: ignore[method-assign,assignment]

    def undo(self) -> None:
        from firmware.store.connection import Connection
        Connection.transaction = self.original  # type: ignore[method-assign]


def stamp(path: Path) -> tuple[bytes, int] | None:
    """The database file's change counter (its header's bytes 24-27: every committed write moves
    it; a transaction that changed nothing does not) and its size."""
    try:
        with open(path, "rb") as f:
            return f.read(28)[24:], os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        return None


def content(db: Any) -> int:
    """A digest of every row of the database (what a write may change)."""
    return hash("\n".join(db.iterdump()))


def games_phase(rounds: int, lang: str, trace: bool) -> None:
    print(f"\n== games: {rounds} round(s) of {', '.join(MODULES)}, each on a fresh device, one process ==")
    print(HEADER)
    first: Sample | None = None
    presses = 0
    for r in range(rounds):
        for i, name in enumerate(MODULES):
            mod = importlib.import_module(f"scripts.presses.{name}")
            d = Driver(lang, seed=10_000 * r + i)
            attach_worker(d)
            try:
                mod.play(d, random.Random(10_000 * r + i))
            finally:
                presses += d.presses
                d.close()
        s = Sample(presses, None, trace)
        if first is None:
            first = s
        print(s.row(first), f"  (round {r + 1})")


def keys_phase(presses: int, lang: str, trace: bool, restart_every: int) -> None:
    from firmware import logs
    random_keys = importlib.import_module("tests.test_random_keys")     # (its keys and set-ups, untyped)
    keys: list[str] = random_keys.KEYS
    setups_: dict[str, list[str]] = random_keys.SETUPS
    tmp = tempfile.TemporaryDirectory()
    root = Path(tmp.name)
    logs.setup(logging.INFO, stream=open(os.devnull, "w"))     # as ``legatus`` does (standard error: the journal)
    d = Driver(lang, state_dir=root, seed=1)
    logs.attach_file(root)
    attach_worker(d)
    writes = Writes()
    rng = random.Random(1)
    noop_writes: Counter[str] = Counter()
    nothing: Counter[str] = Counter()           # writes that left every row as it was
    commits: Counter[int] = Counter()           # committed write transactions of a press that wrote
    written = stored = transactions = 0
    db_path = root / "legatus.db"
    print(f"\n== keys: {presses} random keys on one state directory ({root}), a restart every {restart_every} ==")
    print(HEADER)
    first = Sample(0, root, trace)
    print(first.row(first))
    warm: Any = None                    # tracemalloc's snapshot after the first 1,000 presses
    half: Sample | None = None          # the sample half-way (the growth once warm)
    setups = list(setups_.items())
    n = 0
    started = time.monotonic()
    try:
        while n < presses:
            name, lines = setups[(n // 300) % len(setups)]
            for line in lines:
                d.run(line)
            digest = content(d.store.db)         # (changed only by presses that write, from here)
            for _ in range(300):
                key = rng.choice(keys)
                before_screen = type(d.top).__name__
                seq, sid = d.store._seq, d.store._session_id
                t0, st0 = writes.transactions, stamp(db_path)
                d.app.handle(key)
                d.app.render()
                n += 1
                transactions += writes.transactions - t0
                st1 = stamp(db_path)
                if st1 != st0:
                    written += 1
                    commits[int.from_bytes(st1[0], "big") - int.from_bytes(st0[0], "big") if st0 and st1 else -1] += 1
                    where = f"{name}: {before_screen} {key} -> {type(d.top).__name__}"
                    now = content(d.store.db)
                    if now == digest:
                        nothing[where] += 1
                    digest = now
                    if (d.store._seq, d.store._session_id) != (seq, sid):
                        stored += 1
                    else:
                        noop_writes[where] += 1
                if n % 1000 == 0:
                    sample = Sample(n, root, trace)
                    print(sample.row(first))
                    if n == presses // 2000 * 1000:
                        half = sample
                    if trace and n == 1000:
                        warm = tracemalloc.take_snapshot()
                if restart_every and n % restart_every == 0:
                    d.restart()
                    attach_worker(d)
                if n >= presses:
                    break
        if half is not None and half.presses < n:
            print(Sample(n, root, trace).row(half), f"  (the second half: growth from press {half.presses})")
        print(f"{n} presses in {time.monotonic() - started:.0f} s; {written} wrote the database, "
              f"{stored} of them stored an action or a new session; {transactions} transactions begun "
              "(one that changes nothing writes nothing)")
        print("write transactions of a press that wrote (each: about 5 fdatasyncs, see strace): "
              + ", ".join(f"{k}: {v} presses" for k, v in sorted(commits.items())))
        print(f"presses that wrote and changed no row (the bar: none): {sum(nothing.values())}")
        for where, count in nothing.most_common(25):
            print(f"  {count:5}  {where}")
        print(f"presses that wrote with no action stored (settings, players, History): {sum(noop_writes.values())}; "
              "the most frequent:")
        for where, count in noop_writes.most_common(8):
            print(f"  {count:5}  {where}")
        if warm is not None:
            print("the Python heap's growth since press 1,000, by line (the 12 largest):")
            for stat in tracemalloc.take_snapshot().compare_to(warm, "lineno")[:12]:
                print(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7} blocks  {stat.traceback[0]}")
        db = d.store.db
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        print("rows:", ", ".join(f"{t} {db.execute(f'SELECT count(*) FROM {t}').fetchone()[0]}" for t in tables))
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        print(f"database pages {pages}, free {free}; files: "
              + ", ".join(f"{p.name} {p.stat().st_size}" for p in sorted(root.iterdir())))
    finally:
        writes.undo()
        d.close()
        tmp.cleanup()


CHURN = (
    ("dice", "new dice seed=1", ["roll 2d6"]),
    ("bag", "new bag items=gold*3,silver*2 cards=c*4 seed=1", ["draw", "card", "discard c", "reshuffle"]),
    ("glory", "new glory players=Ann,Bob,Cid seed=1", ["fame Ann +2", "fame Bob +1", "fame Ann -2", "fame Bob -1"]),
    ("jc battles", "new jc-battle seed=1", ["add attacker rating=C3 strength=3", "add defender rating=B2 strength=2",
                                            "fight", "next-battle"]),
)


WARM = 4000       # the churn's growth is counted from this request on (the first fill the log and the trail)


def churn_phase(actions: int, trace: bool) -> None:
    """A long session with undo churn (every third request an undo, the next one done again),
    through the console in this process: the database and the heap per 1,000 requests after the
    first :data:`WARM` (the session's log, its newest MAX_LOG sentences, is full by then, and its
    trail holds its most: firmware/trail.py, between HELD and twice HELD actions)."""
    from firmware.console import Console
    from firmware.store import Store
    print(f"\n== churn: {actions} requests of one session, every third an undo (growth from request {WARM}) ==")
    print(HEADER)
    for name, start, lines in CHURN:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            console = Console(Store(root), None)
            try:
                assert console.request(start)["ok"], start
                first, done = None, 0
                for i in range(1, actions + 1):
                    if i % 3 == 0:
                        console.request("undo")
                    else:
                        console.request(lines[done % len(lines)])
                        done += 1
                    if i == WARM:
                        first = Sample(i, root, trace)
                        print(first.row(first), f"  ({name})")
                    elif first is not None and i % 2000 == 0:
                        print(Sample(i, root, trace).row(first), f"  ({name})")
            finally:
                console.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presses", type=at_least(0), default=20_000, help="random keys of the keys phase")
    ap.add_argument("--games", type=at_least(0), default=3, help="rounds of every box's whole game")
    ap.add_argument("--churn", type=at_least(0), default=12000, help="requests of each undo-churn session")
    ap.add_argument("--lang", choices=("en", "ru", "uk"), default="en")
    ap.add_argument("--restart-every", type=at_least(0), default=5000, help="a restart every N presses (0: never)")
    ap.add_argument("--trace", action="store_true", help="the Python heap by tracemalloc too (slower)")
    args = ap.parse_args()
    if args.trace:
        tracemalloc.start()
    if args.games:
        games_phase(args.games, args.lang, args.trace)
    if args.churn:
        churn_phase(args.churn, args.trace)
    if args.presses:
        keys_phase(args.presses, args.lang, args.trace, args.restart_every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
