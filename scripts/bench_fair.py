"""Benchmark of the fair-draw record with undone draws (``export format=draws``) and of a long
game's end, as ratios to a yardstick.

Run ``python scripts/bench_fair.py [--before FILE]``. The yardstick is scripts/bench_jc.py's (a
fixed pure-Python workload, CPU time of this process: about 20 ms on a desktop, 0.3 s on a
Raspberry Pi Zero 2 W, so a ratio carries over; ms × 15 estimates the Pi).

Long games of each kind are played through the real console on a fresh state directory, with a
secret seed (``commit``) and a fixed share so that each run plays the same game (``--no-share``:
none, so their draws differ from run to run): Caesar! solo to
its winner (random human placements, Auto-Crassus's turns), a Julius Caesar campaign (battle after
battle with cards dealt and played, winters), Glory's 9 rounds, Sword's 9 turns of battles, dice
rolls and a bag's draws. 0, 50 or 300 undo-and-redo pairs are spread over the actions (each undo
followed by the same line again, as a player taking a step back and making it again). Timed:

- ``end``: the last step to the end (History's record, play time, the fair-draw record filed);
- ``export``: the whole ``export format=draws`` request (what History's "Send the draw record"
  and the console's export run: the record is made from the game's actions and undos);
- ``record``: :func:`firmware.fairness.draw_record` alone;
- ``device``: History's "Send the draw record" on the App with its worker, as the device runs it:
  the main thread's CPU for the key (the record is made by the worker meanwhile) and for the frame
  that sends it once made (what a key pressed then waits for at most).

``--before FILE``: also time ``draw_record`` of another firmware/fairness.py (say, the one before a
change: ``git show REV:firmware/fairness.py > /tmp/old.py``) on the same games, and check that
both make the same record, byte for byte.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scripts.bench_jc import yardstick  # noqa: E402  (the same fixed workload, so the ratios compare)

PI = 15            # a Pi Zero 2 W is about 15 times slower than the desktop this was measured on
UNDOS = (0, 50, 300)


def _best(fn: Callable[[], Any], repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


class Game:
    """One game through the console, with undo-and-redo pairs after its successful actions."""

    def __init__(self, root: Path, start: str, undos: int, actions: int, share: bool = True) -> None:
        from firmware.console import Console
        from firmware.store import Store
        self.console = Console(Store(root), None)
        self.undos, self.actions, self.done = undos, actions, 0
        self.last = 0.0                     # CPU seconds of the last action taken (its first time)
        self.ok("settings language=en")
        self.ok("commit")
        self.ok(f"{start} share=bench" if share else start)

    def ok(self, line: str) -> dict[str, Any]:
        r: dict[str, Any] = self.console.request(line)
        assert r["ok"], (line, r)
        return r

    def do(self, line: str) -> dict[str, Any] | None:
        """``line``; if it is taken, the undo-and-redo pairs due after it. None if refused."""
        t0 = time.process_time()
        r: dict[str, Any] = self.console.request(line)
        if not r["ok"]:
            return None
        self.last = time.process_time() - t0
        self.done += 1
        due = self.undos * self.done // self.actions - self.undos * (self.done - 1) // self.actions
        for _ in range(due):
            self.ok("undo")
            again = self.console.request(line)
            assert again["ok"], (line, again)
            r = again
        return r


def caesar(g: Game, rnd: random.Random) -> None:
    while not (st := g.ok("state")["state"])["winner"]:
        if st["turn"] == "crassus":
            g.do("crassus")
            continue
        moves = g.ok("moves")
        pick = rnd.choice(moves["moves"] + moves["face_down"])
        if pick.get("face_down"):
            g.do(f"play {pick['space']} {pick['token']} down")
        else:
            prov, first = next(iter(pick["toward"].items()))
            other = pick["toward"][next(k for k in pick["toward"] if k != prov)]
            g.do(f"play {pick['space']} {pick['token'].split(':')[0]}:{first}/{other} {prov}")
        while True:
            st = g.ok("state")["state"]
            if st["winner"] or st["turn"] != "human" or st["step"] == "play":
                break
            g.do(f"{st['human']['pending'][0]} skip" if st["human"]["pending"] else "draw")


def cycle(lines: list[str], n: int) -> Callable[[Game, random.Random], None]:
    def play(g: Game, rnd: random.Random) -> None:
        for i in range(n):
            g.do(lines[i % len(lines)])
    return play


KINDS: list[tuple[str, str, Callable[[Game, random.Random], None], int]] = [
    ("caesar-solo", "new caesar-solo difficulty=hard", caesar, 120),
    ("jc campaign", "new jc-battle", cycle(["deal", *["add attacker rating=C3 strength=3", "add defender rating=B2 strength=2",
                                                      "add attacker rating=B2 strength=2", "fight", "next-battle"] * 8,
                                           "winter"], 5 * 42), 205),
    ("glory", "new glory players=Ann,Bob,Cid", cycle(["event", "fame Ann +1", "fame Bob +2", "end-round"], 40), 30),
    ("sword", "new sword players=romans,gauls", cycle(["battle att=3 def=3", "battle att=5 def=4 mod=1", "advance"], 90), 80),
    ("dice", "new dice", cycle(["roll 2d6", "roll 3d6"], 200), 200),
    ("bag", "new bag items=gold*30,silver*20,lead*30", cycle(["draw"] * 3 + ["reshuffle"], 200), 200),
]


def measure(name: str, start: str, play: Callable[[Game, random.Random], None], actions: int, undos: int,
            fig: Callable[[float], str], old: Any, share: bool = True) -> bool:
    """Play one game, end it, time its end and its record; False if ``old`` makes another record."""
    from firmware import fairness
    with tempfile.TemporaryDirectory() as tmp:
        g = Game(Path(tmp), start, undos, actions, share)
        play(g, random.Random(1))
        session = g.console.session
        assert session is not None
        sid = str(session.header["sid"])
        t0 = time.process_time()
        g.ok("end")
        end = time.process_time() - t0
        got = g.ok("export format=draws")["record"]
        export = _best(lambda: g.ok("export format=draws"))
        one = fairness.filed(g.console.store.db, [sid])[sid]
        header, lines, steps = one["header"], list(one["lines"]), one.get("steps")
        record = _best(lambda: fairness.draw_record(header, lines, steps))
        key, frame = _device(g.console)
        print(f"{name:12} undos {undos:3} ({len(got['actions'])} actions, {len(got['draws'])} draws, undone "
              f"{got.get('undone')}): last step {fig(g.last)}; end {fig(end)}; export {fig(export)}; "
              f"record {fig(record)}; device: key {fig(key)}, frame {fig(frame)}")
        g.console.close()
        if old is None:
            return True
        before = _best(lambda: old.draw_record(header, lines, steps))
        same = json.dumps(old.draw_record(header, lines, steps)) == json.dumps(fairness.draw_record(header, lines, steps))
        print(f"{'':12} before: record {fig(before)}; the same record: {'yes' if same else 'NO'}")
        return same


def _device(console: Any) -> tuple[float, float]:
    """History's "Send the draw record" on the App with a worker: the main thread's CPU seconds for
    the key, and for the frame that sends the record once the worker has made it."""
    import threading
    from firmware.app import App
    from firmware.screens.history import send_draws
    from firmware.worker import Worker
    app, woke = App(console), threading.Event()
    app.worker = Worker(woke.set)
    console.serial_out, was = (lambda line: None), console.serial_out
    try:
        t0 = time.thread_time()
        send_draws(app)
        app.render()
        key = time.thread_time() - t0
        assert woke.wait(60), "the worker did not make the record"
        t0 = time.thread_time()
        app.render()
        frame = time.thread_time() - t0
        assert app.message and "Sent the draws" in " ".join(app.message), app.message
    finally:
        console.serial_out = was
    return key, frame


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="another firmware/fairness.py to compare draw_record with")
    ap.add_argument("--kind", action="append", help="only these games (caesar-solo, jc, glory, sword, dice, bag)")
    ap.add_argument("--no-share", action="store_true", help="games given no players' share (their end asks whether "
                    "a draw was undone)")
    args = ap.parse_args()
    stick = yardstick()
    print(f"yardstick {stick * 1000:.1f} ms (CPU); figures: ratio to it, ms here, × {PI} for a Pi Zero 2 W")
    old = None
    if args.before is not None:
        spec = importlib.util.spec_from_file_location("fairness_before", args.before)
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)

    def fig(t: float) -> str:
        return f"{t / stick:5.2f}x {t * 1000:4.0f} ms (Pi ~{t * PI:4.1f} s)"
    for name, start, play, actions in KINDS:
        if args.kind and not any(k in name for k in args.kind):
            continue
        for undos in UNDOS:
            if not measure(name, start, play, actions, undos, fig, old, not args.no_share):
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
