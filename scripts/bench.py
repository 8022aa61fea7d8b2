"""Speed and size figures, printed (never a pass/fail test): ``python scripts/bench.py``.

- cold start of ``legatus console`` to its first reply vs ``python -c "import PIL.Image"``
  (same interpreter, interleaved runs, medians; the bar is ≤ 1.5×);
- rendering a screen (median ms per frame over the main screens; the bar is ≤ 5 ms);
- peak RSS of the simulator running a key script (the bar is ≤ 40 MB);
- each game's own figures (scripts/bench_<game>.py ``figures()``), when present.
"""
from __future__ import annotations

import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _legatus() -> list[str]:
    exe = shutil.which("legatus") or str(Path(sys.executable).with_name("legatus"))
    return [exe] if Path(exe).exists() else [sys.executable, "-m", "firmware.cli"]


def cold_start(runs: int = 21) -> list[tuple[str, str]]:
    tmp = tempfile.mkdtemp()
    console = _legatus() + ["console", "--state-dir", tmp]
    pil = [sys.executable, "-c", "import PIL.Image"]
    t_console: list[float] = []
    t_pil: list[float] = []
    for _ in range(runs):
        for cmd, out in ((console, t_console), (pil, t_pil)):
            t0 = time.perf_counter()
            if cmd is console:
                proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV)
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
        for i, (name, setup, keys) in enumerate(SHOTS):
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


def main() -> None:
    print(f"Legatus benchmarks — Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for section in (cold_start, render_time, simulator_rss, game_figures):
        for key, value in section():
            print(f"  {key:<58} {value}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
