"""The kit's first request after a resume (firmware/shown.py): an evening of draws and rolls, the
device killed (kill -9), started again, and the first request of each kind timed, as ratios to a
yardstick.

    .venv/bin/python scripts/bench_kit_resume.py [--draws 300,1000,3000] [--kinds bag,side] [--keep DIR]

A draw or a shuffle asked after a resume must land on what an undone action showed (a bag made
again, a deck shuffled after a card seen and undone), so the first one needs what the session's
undone actions drew; this measures what that first request costs once the session is long.

Sessions (each played through the console in a child process over a real state directory, which is
then killed with SIGKILL, as a power cut leaves it): ``bag``: the Dice & bags game (``new bag
items=… cards=…``: draws, put-backs, cards, discards, reshuffles, rolls and re-rolls) with side bags
made over it now and then (``kit new items=…``, each another bag); ``side``: a dice session with its
side bag and deck (``kit draw``, ``kit card`` …) made again every so often with another preset. N
draws/rolls in all (300, 1000, 3000: an evening), undos spread through them (about one action in
twelve, a few twice in a row). Each ends as a player does before the power goes: a side bag of 5
white and 5 black, two drawn, both undone (the draw, then the bag).

For each, in a fresh process started on a copy of the killed state directory (the device's start:
Store, resume, Console, App), the time of:

- ``resume``: the store opened, the session resumed, the App made; ``paint``: its first frame;
- ``draw``: the first draw (``draw`` / ``kit draw``); ``card``: the first card;
- ``roll``: the first ``roll 2d6``;
- ``again``: the bag made again in Russian (``kit new items=белый*5,чёрный*5``) and its first
  ``kit draw 2``, which must draw the items shown before the kill (checked: ``same``).

The yardstick is bench_jc.py's (300,000 x ``s += i*i % 7``: about 20 ms here, about 0.3 s on a
Raspberry Pi Zero 2 W), so a ratio of 1.0 is about 0.3 s on the Pi, the bar for a first request.
Times are CPU time of the child process (other programs disturb them less), the best of
``--repeats`` runs. ``--keep DIR`` builds the sessions in DIR once and measures them again on later
runs (e.g. another checkout's code on the same data)."""
from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHOWN_BAG = "kit new items=white*5,black*5"
AGAIN_BAG = "kit new items=белый*5,чёрный*5"
SAME = {"white": "белый", "black": "чёрный"}
SIDE_BAGS = ("kit new items=gold*4,silver*4,bronze*4", "kit new items=red*3,blue*3,green*3,yellow*3",
             "kit new items=1,2,3,4,5,6,7,8,9,10,11,12")
SIDE_DECKS = ("kit new cards=A♠,2♠,3♠,4♠,5♠,6♠,7♠,8♠,9♠,10♠,J♠,Q♠,K♠", "kit new cards=legio*4,senator*3,plebs*5")


def yardstick() -> float:
    """Seconds for bench_jc.py's fixed workload (the best of 5): the same yardstick."""
    from scripts.bench_jc import yardstick as seconds
    return seconds()


def evening(request: Callable[[str], dict[str, Any]], kind: str, draws: int, seed: int = 1) -> tuple[list[str], list[str]]:
    """Play an evening of ``kind`` (``bag`` or ``side``) through ``request`` (a console's): ``draws``
    draws, cards and rolls, with put-backs, discards, reshuffles, bags made again and undos spread
    through them; ending with :data:`SHOWN_BAG`, two drawn, both undone. Returns the lines sent
    (each answered ok: else AssertionError) and the two items that last draw showed."""
    rnd = random.Random(seed)
    sent: list[str] = []

    def ok(line: str) -> dict[str, Any]:
        reply = request(line)
        assert reply.get("ok"), (line, reply)
        sent.append(line)
        return reply

    side = kind == "side"
    pre = "kit " if side else ""
    if side:
        ok(f"new dice seed={seed}")
        ok(SIDE_BAGS[0])
        ok(SIDE_DECKS[0])
    else:
        ok(f"new bag items=gold*6,silver*5,bronze*4,lead*5 cards=legio*6,senator*4,plebs*8,eques*6 seed={seed}")
    done = 0
    while done < draws:
        view = request("kit-state")["kit"] if side else request("state")["state"]
        bag, deck = view.get("bag") or {}, view.get("deck") or {}
        r = rnd.random()
        if r < 0.08 and sent[-1] != "undo" or r < 0.01:
            if not request("undo").get("ok"):
                continue
            sent.append("undo")
            continue
        if r < 0.10:
            made = rnd.choice(SIDE_BAGS if side or rnd.random() < 0.8 else SIDE_DECKS)
            ok(made)
            continue
        if r < 0.36 and bag.get("size", 0) > 0:
            ok(f"{pre}draw" if rnd.random() < 0.8 else f"{pre}draw {min(2, bag['size'])}")
        elif r < 0.45 and bag.get("drawn"):
            ok(f"{pre}put {rnd.choice(bag['drawn'])}")
            continue
        elif r < 0.62 and deck.get("draw_pile", 0) > 0:
            ok(f"{pre}card")
        elif r < 0.70 and deck.get("hand"):
            ok(f"{pre}discard {rnd.choice(deck['hand'])}")
            continue
        elif r < 0.74 and deck:
            ok(f"{pre}reshuffle" if deck.get("discard") else f"{pre}shuffle")
            continue
        elif r < 0.76 and not side:
            ok("kit draw" if (request("kit-state").get("kit") or {}).get("bag", {}).get("size") else "roll 1d6")
        elif r < 0.95:
            ok(rnd.choice(("roll 2d6", "roll 3d6", "roll 1d20")))
        elif done and sent[-1].startswith("roll"):
            ok("reroll 1")
        else:
            continue
        done += 1
    view = request("kit-state")["kit"] if side else request("state")["state"]   # something to draw after the resume
    if not (view.get("bag") or {}).get("size"):
        ok(f"{pre}put {view['bag']['drawn'][0]}")
    if not (view.get("deck") or {}).get("draw_pile"):
        ok(f"{pre}reshuffle" if (view.get("deck") or {}).get("discard") else SIDE_DECKS[0])
    ok(SHOWN_BAG)
    shown: list[str] = ok("kit draw 2")["drawn"]
    ok("undo")
    ok("undo")
    return sent, shown


PLAY = """
import json, os, signal, sys
sys.path.insert(0, {root!r})
from firmware.console import Console
from firmware.store import Store
from scripts.bench_kit_resume import evening
store = Store(sys.argv[1])
c = Console(store, store.resume())
assert c.request("settings language=en")["ok"]
assert c.request("commit")["ok"]
sent, shown = evening(c.request, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
print(json.dumps({{"lines": sent, "shown": shown}}, ensure_ascii=False), flush=True)
os.kill(os.getpid(), signal.SIGKILL)             # a power cut: nothing closed
"""

# The device's start on a killed state directory, then one first request of a kind, timed.
PROBE = """
import json, sys, time
sys.path.insert(0, {root!r})
from firmware.app import App
from firmware.console import Console
from firmware.store import Store
what, lines = sys.argv[2], json.loads(sys.argv[3])
t0 = time.process_time()
store = Store(sys.argv[1])
console = Console(store, store.resume())
app = App(console)
t1 = time.process_time()
app.render()
t2 = time.process_time()
replies = [console.request(line) for line in lines]
t3 = time.process_time()
console.close()
print(json.dumps({{"resume": t1 - t0, "paint": t2 - t1, "first": t3 - t2, "replies": replies}}, ensure_ascii=False))
"""


def build(state_dir: Path, kind: str, draws: int, seed: int = 1) -> dict[str, Any]:
    """Play an evening in a child process on ``state_dir`` and kill it (SIGKILL): the lines sent
    (``lines``) and what the last draw showed (``shown``)."""
    proc = subprocess.run([sys.executable, "-c", PLAY.format(root=str(ROOT)), str(state_dir), kind, str(draws),
                           str(seed)], capture_output=True, cwd=ROOT, timeout=3600)
    if proc.returncode != -signal.SIGKILL:
        raise SystemExit(f"building {kind} {draws} failed:\n{proc.stderr.decode()[-3000:]}")
    played: dict[str, Any] = json.loads(proc.stdout.decode().splitlines()[-1])
    return played


def probe(state_dir: Path, what: str, lines: list[str]) -> dict[str, Any]:
    """Start on a copy of ``state_dir`` as the device does and send ``lines``; the times and replies."""
    with tempfile.TemporaryDirectory(prefix="legatus-kitres-") as tmp:
        copy = Path(tmp) / "state"
        shutil.copytree(state_dir, copy)
        proc = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT)), str(copy), what, json.dumps(lines)],
                              capture_output=True, cwd=ROOT, timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"probe {what} failed:\n{proc.stderr.decode()[-3000:]}")
        out: dict[str, Any] = json.loads(proc.stdout.decode().splitlines()[-1])
        return out


def firsts(kind: str) -> dict[str, list[str]]:
    """The first requests timed after a resume of a ``kind`` session."""
    pre = "kit " if kind == "side" else ""
    return {"draw": [f"{pre}draw"], "card": [f"{pre}card"], "roll": ["roll 2d6"],
            "again": [AGAIN_BAG, "kit draw 2"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--draws", default="300,1000,3000", help="draws/rolls per session, comma-separated")
    parser.add_argument("--kinds", default="bag,side", help="bag, side")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each probe (the best is kept)")
    parser.add_argument("--keep", type=Path, help="build the sessions here once; measure them again later")
    args = parser.parse_args(argv)
    y = yardstick()
    print(f"yardstick: 300,000 x `s += i*i % 7`: {y * 1000:.1f} ms (about 0.3 s on a Pi Zero 2 W); "
          f"times as x yardstick (1.0 = about 0.3 s on the Pi)")
    root = args.keep or Path(tempfile.mkdtemp(prefix="legatus-kitbench-"))
    try:
        for kind in args.kinds.split(","):
            for n in (int(x) for x in args.draws.split(",")):
                where = root / f"{kind}-{n}"
                sent_file = root / f"{kind}-{n}.json"
                if not sent_file.exists():
                    shutil.rmtree(where, ignore_errors=True)
                    t0 = time.perf_counter()
                    played = build(where, kind, n)
                    sent_file.write_text(json.dumps(played, ensure_ascii=False))
                    built = f", built in {time.perf_counter() - t0:.0f} s"
                else:
                    played = json.loads(sent_file.read_text())
                    built = ""
                sent = played["lines"]
                undos = sent.count("undo")
                print(f"\n{kind}, {n} draws/rolls: {len(sent)} lines, {undos} undos{built}")
                rows: dict[str, dict[str, float]] = {}
                answers: dict[str, Any] = {}
                for what, lines in firsts(kind).items():
                    best: dict[str, float] = {}
                    for _ in range(args.repeats):
                        got = probe(where, what, lines)
                        bad = [r for r in got["replies"] if not r.get("ok")]
                        if bad:
                            raise SystemExit(f"{kind} {n} {what}: {bad}")
                        for key in ("resume", "paint", "first"):
                            best[key] = min(best.get(key, float("inf")), got[key])
                        answers[what] = got["replies"]
                    rows[what] = best
                resume = min(r["resume"] for r in rows.values())
                paint = min(r["paint"] for r in rows.values())
                print(f"  resume (store, session, App): {resume / y:6.2f}x   first paint: {paint / y:6.2f}x")
                for what, best in rows.items():
                    flag = "  > 0.3 s on a Pi" if best["first"] / y > 1.0 else ""
                    print(f"  first {what:<6}: {best['first'] / y:6.2f}x  ({best['first'] * 1000:7.1f} ms here){flag}")
                again = answers["again"][-1]["drawn"]
                same = again == [SAME[x] for x in played["shown"]]
                print(f"  drawn: draw {answers['draw'][0].get('drawn')}  card {answers['card'][0].get('cards')}  "
                      f"roll {answers['roll'][0].get('dice')}  again {again} "
                      f"(shown {played['shown']}: {'the same' if same else 'NOT THE SAME'})")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
