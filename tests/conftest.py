"""Shared fixtures: a fresh state directory, an in-process console, a console subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Tests read the simulator's --script frames as braille; in the Linux console (TERM=linux: a Pi's own
# screen) the simulator draws half-blocks by default, so the suite run there keeps braille unless a
# test says otherwise (tests/test_simulator.py sets or removes LEGATUS_BLOCKS where it matters).
if os.environ.get("TERM") == "linux":
    os.environ.setdefault("LEGATUS_BLOCKS", "0")


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in English with no game's words, as the program does, and leaves it so:
    the language and the game's catalog domain are process-global (firmware/i18n.py), so a test
    that switched them (a console ``settings language=ru``, a session of a game) made a later
    test pass or fail by the order it ran in. Also put back: `legatus`'s own spoken language
    (firmware/cli.py) and the list of catalog files found unreadable (a test that damaged one)."""
    from firmware import cli, i18n

    def default() -> None:
        i18n.set_language("en")
        i18n.set_game(None)
        cli._spoken[:] = ["en"]

    unreadable = list(i18n.UNREADABLE)
    default()
    yield
    default()
    i18n.UNREADABLE[:] = unreadable


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    d = tmp_path / "state"
    d.mkdir()
    return d


@pytest.fixture
def console(state_dir: Path):
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    yield c
    c.close()


def console_cmd(state_dir: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state_dir), *extra]


def run_console(state_dir: Path, lines: list[str] | bytes, timeout: float = 60) -> list[dict]:
    """Run ``legatus console`` as a subprocess over the given input; return the parsed replies."""
    data = lines if isinstance(lines, bytes) else "".join(l + "\n" for l in lines).encode()
    proc = subprocess.run(console_cmd(state_dir), input=data, capture_output=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr.decode()
    return [json.loads(l) for l in proc.stdout.decode().splitlines()]


class HistoryClock:
    """History's clocks as a test sets them (firmware/history.py reads them at these seams):
    ``wall`` (UTC ISO, what the wall clock says), ``unset`` (it is not synchronised: a Pi with no
    network), ``mono`` (the monotonic clock's seconds; None: it follows the wall clock, as it does
    while nobody sets the wall clock). :meth:`restart` is a new run of the program (the device
    switched off and on, a kill -9): the monotonic clock times only what this run plays
    (firmware/play_time.py), from the session's resume."""

    def __init__(self, wall: str = "2026-03-01T18:00:00Z", unset: bool = False) -> None:
        self.wall, self.unset = wall, unset
        self.mono: float | None = None

    def monotonic(self) -> float:
        import datetime as dt
        if self.mono is not None:
            return self.mono
        return dt.datetime.fromisoformat(self.wall.replace("Z", "+00:00")).timestamp()

    def restart(self) -> None:
        from firmware import play_time
        play_time._marks.clear()
        play_time._begun.clear()


@pytest.fixture
def history_clock(monkeypatch: pytest.MonkeyPatch) -> HistoryClock:
    from firmware import history, play_time
    clock = HistoryClock()
    monkeypatch.setattr(history, "_now", lambda: clock.wall)
    monkeypatch.setattr(history, "_clock_unsynced", lambda: clock.unset)
    monkeypatch.setattr(play_time, "_monotonic", clock.monotonic)
    monkeypatch.setattr(play_time, "_marks", {})
    monkeypatch.setattr(play_time, "_begun", {})
    return clock
