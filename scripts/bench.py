"""Speed and size figures, printed (never a pass/fail test): ``python scripts/bench.py``.

- cold start of ``legatus console`` to its first reply vs ``python -c "import PIL.Image"``
  (same interpreter, interleaved runs, medians; the bar is ≤ 1.5×);
- rendering a screen (median ms per frame over the main screens; the bar is ≤ 5 ms);
- peak RSS of the simulator running a key script (the bar is ≤ 40 MB);
- the panel bus: bytes on the I2C bus per key press (median, max), reported separately over
  :data:`WALK` (a new user's navigation: browsing the menus, a game start) and over the press
  scripts (scripts/presses/: games played in as few presses as possible, so most presses open a
  new screen), each frame shown through
  ``hw.display.show`` on hw.display's I2C interface over a counting SMBus, the estimated bus time at
  100 and 400 kHz;
- the time from process start to the first frame sent (the splash, hw/splash.py) and to the
  first interactive screen, vs ``python -c "import PIL.Image"`` (the bar is ≤ 1.5×);
- each game's own figures (scripts/bench_<game>.py ``figures()``), when present.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hw.panel import Panel

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# The timed child processes run with their bytecode cached, as an installed program's is (pip
# compiles it; the service writes the rest on its first start), PIL's and Legatus's alike: an inherited
# PYTHONDONTWRITEBYTECODE=1 would make every start compile Legatus's sources (~10 ms here) while
# PIL's, from site-packages, are compiled already. The cache goes to a directory of its own, not
# into the checkout; each timing starts with an untimed run that fills it.
PYCACHE = Path(tempfile.gettempdir()) / "legatus-bench-pycache"
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": str(PYCACHE)}


def _legatus() -> list[str]:
    exe = shutil.which("legatus") or str(Path(sys.executable).with_name("legatus"))
    return [exe] if Path(exe).exists() else [sys.executable, "-m", "firmware.cli"]


def cold_start(runs: int = 21) -> list[tuple[str, str]]:
    tmp = tempfile.mkdtemp()
    console = _legatus() + ["console", "--state-dir", tmp]
    pil = [sys.executable, "-c", "import PIL.Image"]
    t_console: list[float] = []
    t_pil: list[float] = []
    subprocess.run(console, input=b"version\n", stdout=subprocess.DEVNULL, env=ENV, check=True)  # fills the cache
    subprocess.run(pil, env=ENV, check=True)
    for _ in range(runs):
        for cmd, out in ((console, t_console), (pil, t_pil)):
            t0 = time.perf_counter()
            if cmd is console:
                proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV)
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(b"version\n")
                proc.stdin.flush()
                proc.stdout.readline()          # the first reply
                out.append(time.perf_counter() - t0)
                proc.stdin.close()
                proc.wait()
            else:
                subprocess.run(cmd, env=ENV, check=True)
                out.append(time.perf_counter() - t0)
    shutil.rmtree(tmp, ignore_errors=True)
    c, p = statistics.median(t_console), statistics.median(t_pil)
    return [("console cold start to first reply (median)", f"{c * 1000:.1f} ms"),
            ('python -c "import PIL.Image" (median)', f"{p * 1000:.1f} ms"),
            ("ratio (bar ≤ 1.5)", f"{c / p:.2f}")]


def render_time(frames: int = 300) -> list[tuple[str, str]]:
    from scripts.screenshots import SHOTS
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (_name, setup, keys) in enumerate(SHOTS):
            d = Path(tmp) / str(i)
            store = Store(d)
            console = Console(store, None)
            for line in setup:
                console.request(line)
            app = App(console)
            for key in keys:
                app.handle(key)
            for _ in range(frames // len(SHOTS)):
                app._view_stale = True           # as after a state change: nothing cached
                t0 = time.perf_counter()
                app.render()
                times.append(time.perf_counter() - t0)
            console.close()
    return [("render a screen (median over the tour screens)", f"{statistics.median(times) * 1000:.2f} ms"),
            ("render a screen (95th percentile)", f"{sorted(times)[int(len(times) * 0.95)] * 1000:.2f} ms")]


def simulator_rss() -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "keys.txt"
        script.write_text("\n".join(["down", "a", "a", "a", "press", "right", "press", "a", "b", "down",
                                     "a", "a", "a", "b", "b:hold", "a"] * 5) + "\n")
        code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        out = subprocess.run([sys.executable, "-c", code, *_legatus(), "--state-dir", str(Path(tmp) / "s"),
                              "--script", str(script)], capture_output=True, text=True, env=ENV, check=True)
    kb = int(out.stdout.strip())
    return [("simulator peak RSS (bar ≤ 40 MB)", f"{kb / 1024:.1f} MB")]


def game_figures() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for path in sorted((ROOT / "scripts").glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if hasattr(module, "figures"):
            rows += [(f"{path.stem[6:]}: {k}", v) for k, v in module.figures()]
    return rows


class CountingSMBus:
    """Stands in for smbus2.SMBus under hw.display's I2C interface (which then writes as on the Pi:
    one ``i2c_rdwr`` message per data call, ``write_i2c_block_data`` per command call) and counts
    the bytes on the wire, the address byte of every message included."""

    def __init__(self, port: int = 1) -> None:
        self.bytes = 0
        self.messages = 0

    def write_i2c_block_data(self, addr: int, register: int, data: list[int]) -> None:
        self.messages += 1
        self.bytes += 2 + len(data)

    def i2c_rdwr(self, *msgs: object) -> None:
        for msg in msgs:
            self.messages += 1
            self.bytes += 1 + len(msg)  # type: ignore[arg-type]

    def close(self) -> None:
        pass


def bus_ms(nbytes: float, messages: float, hz: int) -> float:
    """I2C time: 9 clocks a byte (8 bits and the acknowledge), start and stop per message."""
    return (9 * nbytes + 2 * messages) / hz * 1000


def open_counted(driver: str) -> tuple[Panel, CountingSMBus]:
    from unittest import mock

    from hw.config import DisplayConfig
    from hw.display import _open_bus, open_display
    cfg = DisplayConfig(driver=driver)
    with mock.patch("smbus2.SMBus", CountingSMBus):
        serial = _open_bus(cfg)                 # hw.display's own I2C, as on the Pi
    return open_display(cfg, serial), serial._bus


# A new user's first minutes, key by key: browsing every menu (moving through lists, opening an
# entry, going back), rolling dice, starting a Caesar! game and reading its first screens. It is
# played in English from a fresh state directory with a fixed seed ("key*n" presses n times).
WALK = """
down*5 up*5          # the main menu, top to bottom and back
a down*4 up*4        # Games: read the list
a down*3 up*3 b      # Caesar!: the new-game form, back
down a b             # Julius Caesar
down a down*2 b      # Glory of Rome
down a down*2 up*2 b # Sword of Rome
b down a             # Dice & bags
a a a a a b          # Dice: roll a few times, back
down a down*7 up*3 b # Bags & decks: the presets
b b                  # the main menu (now with '▶ Dice' on top, and the Log)
down a down b        # History
down a down*3 b      # Log
down a down*4 up*4 b # Settings
down a down*2 b      # About
up*5 a a             # Games, Caesar!: the new-game form
down*4 up*4          # look at its settings
a                    # start the game
a a a a              # through the set-up guide
a a a                # Crassus's first turn, then yours: where to place
"""


def _counting_driver(device: Panel, bus: CountingSMBus,
                     costs: list[tuple[str, int, int, float]]) -> type:
    from hw.display import show
    from scripts.presses.harness import Driver

    class Counted(Driver):
        def press(self, key: str, n: int = 1) -> None:
            for _ in range(n):
                super().press(key)
                before = (bus.bytes, bus.messages)
                frame = self.app.render()
                t0 = time.perf_counter()
                show(device, frame)
                costs.append((key, bus.bytes - before[0], bus.messages - before[1],
                              time.perf_counter() - t0))
    return Counted


def walk_keys() -> list[str]:
    keys: list[str] = []
    for line in WALK.strip().splitlines():
        for token in line.split("#")[0].split():
            key, _, n = token.partition("*")
            keys += [key] * int(n or 1)
    return keys


def walk_costs(driver: str) -> list[tuple[str, int, int, float]]:
    """(key, bus bytes, I2C messages, seconds in show) of every press of :data:`WALK`."""
    from hw.display import show
    device, bus = open_counted(driver)
    costs: list[tuple[str, int, int, float]] = []
    d = _counting_driver(device, bus, costs)("en", seed=1)
    try:
        show(device, d.app.render())
        for key in walk_keys():
            d.press(key)
    finally:
        d.close()
    return costs


def press_costs(driver: str) -> tuple[list[tuple[str, int, int, float]], tuple[int, int]]:
    """(key, bus bytes, I2C messages, seconds in show) of every press of the press scripts (en and
    ru), each frame shown through hw.display on a counting bus; and (bytes, messages) of a whole
    frame."""
    import importlib
    import random

    from PIL import Image

    from hw.display import invalidate, show
    from scripts.bench_presses import MODULES

    device, bus = open_counted(driver)
    costs: list[tuple[str, int, int, float]] = []
    Counted = _counting_driver(device, bus, costs)
    for name in MODULES:
        try:
            mod = importlib.import_module(f"scripts.presses.{name}")
        except ImportError:
            continue
        for lang in ("en", "ru"):
            d = Counted(lang, seed=1)     # repeatable: the secret seeds of new games too
            try:
                show(device, d.app.render())
                mod.play(d, random.Random(1))
            finally:
                d.close()
    bus.bytes = bus.messages = 0
    invalidate(device)
    show(device, Image.new("1", (128, 64), 1))
    return costs, (bus.bytes, bus.messages)


MOVES = ("up", "down", "left", "right")


def panel_bus() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for driver in ("ssd1306", "sh1106"):
        costs, (full, full_msgs) = press_costs(driver)
        walk = walk_costs(driver)
        for what, cs in ((f"the navigation walk (WALK: {len(walk)} presses, browsing menus and a game start)", walk),
                         (f"the press scripts (scripts/presses: {len(costs)} presses, playing games in as few presses as possible)", costs),
                         ("both together", walk + costs)):
            nbytes = [c[1] for c in cs]
            rows.append((f"{driver}: bus bytes per key press, median / max over {what}",
                         f"{statistics.median(nbytes):.0f} / {max(nbytes)}"))
        moves = [c[1] for c in walk + costs if c[0] in MOVES]
        rest = [c[1] for c in walk + costs if c[0] not in MOVES]
        rows += [
            (f"{driver}: of which joystick moves / other keys, median",
             f"{statistics.median(moves):.0f} ({len(moves)}) / {statistics.median(rest):.0f} ({len(rest)})"),
            (f"{driver}: a whole frame", f"{full} bytes"),
        ]
        for what, cs in (("walk", walk), ("press scripts", costs)):
            med = statistics.median(c[1] for c in cs)
            med_msgs = statistics.median(c[2] for c in cs)
            rows.append((f"{driver}: bus time per press ({what}), median at 100 / 400 kHz",
                         f"{bus_ms(med, med_msgs, 100_000):.1f} / {bus_ms(med, med_msgs, 400_000):.1f} ms "
                         f"(whole frame {bus_ms(full, full_msgs, 100_000):.0f} / {bus_ms(full, full_msgs, 400_000):.0f} ms)"))
        rows.append((f"{driver}: hw.display.show CPU per press (pack, diff, I2C writes), median",
                     f"{statistics.median(c[3] for c in walk + costs) * 1000:.2f} ms"))
    return rows


FIRST_FRAME = """
import time
t0 = time.perf_counter()
import sys
from firmware.cli import _parser
args = _parser().parse_args(["--state-dir", sys.argv[1]])
import smbus2                       # the real module; only the bus device is a stand-in
class Bus:
    def __init__(self, port): pass
    def write_i2c_block_data(self, addr, reg, data): pass
    def i2c_rdwr(self, *msgs): pass
    def close(self): pass
smbus2.SMBus = Bus
from hw.splash import early
splash = early(args.state_dir, probe=False)
assert splash is not None
t1 = time.perf_counter()
print("splash", t1 - t0, flush=True)
from pathlib import Path
from firmware.app import App
from firmware.console import Console
from firmware.device import Loop
from firmware.device_hardware import OledOutput
from firmware.store import Store
t2 = time.perf_counter()
store = Store(Path(args.state_dir))
app = App(Console(store, store.resume()))
app.render()
t3 = time.perf_counter()
Loop(app, OledOutput(splash[0])).redraw()
t4 = time.perf_counter()
print("home", t4 - t0, t2 - t1, t3 - t2, t4 - t3, flush=True)
"""
PHASES = ("importing firmware (App, screens, console, device)", "store, session, App and the first render",
          "packing and sending the home screen")


def first_frame(runs: int = 15) -> list[tuple[str, str]]:
    """The device program's start (``legatus`` on the Pi, firmware/cli.py) up to the splash sent
    (hw/splash.py: argparse, PIL.Image, smbus2, hw.panel, the prebuilt frame) and on to the first
    interactive screen sent (store, session, App, the home screen), through hw.display's I2C on a
    do-nothing SMBus (the bus time itself is not included) vs importing PIL.Image."""
    from hw.config import DisplayConfig
    from hw.splash import remember
    tmp = tempfile.mkdtemp()
    remember(Path(tmp), DisplayConfig())          # as the last run left it
    frame_cmd = [sys.executable, "-c", FIRST_FRAME, tmp]
    pil = [sys.executable, "-c", "import PIL.Image"]
    t_splash: list[float] = []
    t_home: list[float] = []
    t_pil: list[float] = []
    phases: list[list[float]] = []
    subprocess.run(frame_cmd, stdout=subprocess.DEVNULL, env=ENV, check=True)  # fills the bytecode cache
    subprocess.run(pil, env=ENV, check=True)
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(frame_cmd, stdout=subprocess.PIPE, env=ENV)
        assert proc.stdout is not None
        line = proc.stdout.readline().split()
        t_splash.append(time.perf_counter() - t0)
        assert line[0] == b"splash", line
        line = proc.stdout.readline().split()
        t_home.append(time.perf_counter() - t0)
        assert line[0] == b"home", line
        phases.append([float(x) for x in line[2:]])
        proc.wait()
        t0 = time.perf_counter()
        subprocess.run(pil, env=ENV, check=True)
        t_pil.append(time.perf_counter() - t0)
    shutil.rmtree(tmp, ignore_errors=True)
    f, h, p = statistics.median(t_splash), statistics.median(t_home), statistics.median(t_pil)
    rows = [('python -c "import PIL.Image" (median)', f"{p * 1000:.1f} ms"),
            ("process start to the first frame (the splash) sent to the panel", f"{f * 1000:.1f} ms = {f / p:.2f}x (bar ≤ 1.5)"),
            ("process start to the first interactive screen (home) sent", f"{h * 1000:.1f} ms = {h / p:.2f}x")]
    for i, name in enumerate(PHASES):
        rows.append((f"  after the splash: {name}", f"{statistics.median(ph[i] for ph in phases) * 1000:.1f} ms"))
    return rows


def long_sessions() -> list[tuple[str, str]]:
    """A 20,000-action session of each kind against a fresh one (scripts/bench_storage.py): disk,
    restart time, peak memory, one more action, its reply and ``state`` (issue 20 §3: flat with
    the session's length, ≤ 50 MB, times ≤ 2× fresh)."""
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("bench_storage.py")), "--actions", "20000"],
                         capture_output=True, text=True, env=ENV, check=True).stdout
    rows = []
    for line in out.splitlines()[2:]:
        c = [x.strip() for x in line.strip("|").split("|")]
        head = f"{c[0]} session of {c[1]} actions:"
        rows.append((f"{head} on disk", f"{c[2]} ({c[3]} a fresh one)"))
        rows.append((f"{head} restart+state+undo", f"{c[4]} ({c[5]} a fresh one)"))
        rows.append((f"{head} peak RSS", f"{c[6]} ({c[7]} a fresh one)"))
        rows.append((f"{head} one more action", f"{c[8]} ({c[9]} a fresh one)"))
        rows.append((f"{head} its reply / state", f"{c[10]} ({c[11]}) / {c[12]} ({c[13]})"))
    return rows


def main() -> None:
    print(f"Legatus benchmarks — Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for section in (cold_start, render_time, simulator_rss, panel_bus, first_frame, game_figures, long_sessions):
        for key, value in section():
            print(f"  {key:<58} {value}")
        sys.stdout.flush()


if __name__ == "__main__":
    import argparse
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()     # --help, not a run
    main()
