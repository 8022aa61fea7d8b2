"""Shared fixtures: a fresh state directory, an in-process console, a console subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
