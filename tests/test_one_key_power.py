"""A power cut (kill -9) at each write of a key that makes more than one step, and of the hold of B
that takes them back: after the restart the card holds no mark of a key naming a step it does not
hold, and one hold of B asks about the player's step and takes back the whole key (the placement
and the draw made for it, C-6; the Might's flip and the draw after it, C-15), never half of it."""
from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.store import DB_NAME
from tests.conftest import ROOT
from tests.screens import app_with
from tests.test_one_key_restart import NEW, PLACED, _asked, _undone

pytestmark = pytest.mark.slow

# The device, killed at the ``nth`` write of its last key: after the first statement of that write
# ("mid": the action row written, its key's mark not), before its COMMIT, or after it.
KILLED = r"""
import json, os, signal, sys
from contextlib import contextmanager
from pathlib import Path
from tests.screens import app_with
setup, keys, last, nth, when, d = json.loads(sys.argv[1])
app = app_with(setup, keys, Path(d))
store, real, writes = app.console.store, app.console.store.transaction, [0]

def kill():
    os.kill(os.getpid(), signal.SIGKILL)

class Statements:
    def __init__(self, db):
        self.db, self.n = db, 0
    def __getattr__(self, name):
        return getattr(self.db, name)
    def execute(self, *args):
        out = self.db.execute(*args)
        self.n += 1
        if when == "mid" and self.n == 1:
            kill()
        return out

@contextmanager
def card(*args, **kwargs):
    writes[0] += 1
    armed = writes[0] == nth
    with real(*args, **kwargs) as db:
        yield Statements(db) if armed else db
        if armed and when == "before":
            kill()
    if armed and when == "after":
        kill()

app.render()
store.transaction = card
app.handle(last)
print("writes", writes[0])
"""


def _killed(state_dir: Path, setup: list[str], keys: list[str], last: str, nth: int, when: str) -> int:
    """Run the device to its last key, killed at its ``nth`` write; the writes the key made if it was not."""
    p = subprocess.run([sys.executable, "-c", KILLED, json.dumps([setup, keys, last, nth, when, str(state_dir)])],
                       capture_output=True, cwd=ROOT, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    if p.returncode == -signal.SIGKILL:
        return 0
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    return int(p.stdout.split()[-1])


def _marks_name_stored_steps(state_dir: Path) -> None:
    db = sqlite3.connect(state_dir / DB_NAME)
    try:
        for session, seq, under in db.execute("SELECT session, seq, under FROM same_key").fetchall():
            kinds = {s: k for s, k in db.execute("SELECT seq, kind FROM actions WHERE session=? AND seq IN (?, ?)",
                                                 (session, seq, under))}
            assert kinds == {seq: "do", under: "do"}, (session, seq, under, kinds)
    finally:
        db.close()


def _cases(setup: list[str], keys: list[str], tmp: Path) -> list[tuple[list[str], str, int, str]]:
    """Each write of the key that makes the steps, and of the yes to hold B's question, with each point of it."""
    cases = []
    for before, last in ((keys[:-1], keys[-1]), (keys + ["b:hold"], "a")):
        writes = _killed(tmp / f"count-{len(before)}", setup, before, last, 0, "never")
        assert writes >= (1 if last == "a" else 2)
        cases += [(before, last, nth, when) for nth in range(1, writes + 1) for when in ("mid", "before", "after")]
    return cases


def _lines(state_dir: Path, setup: list[str], keys: list[str]) -> list[str]:
    app = app_with(setup, keys, state_dir)
    try:
        return list(app.console.session.lines)
    finally:
        app.console.close()


@pytest.mark.parametrize("what", ["placement", "might"])
def test_a_power_cut_at_each_write_of_a_key_never_leaves_half_of_it_to_take_back(tmp_path, what):   # C-6, C-15
    if what == "placement":
        setup, keys, asked = [NEW], ["a"] * 6, "Your wild 3/1 toward Hispania Citerior."
    else:
        from scripts.shots_caesar import HU_MIGHT
        from scripts.shots_caesar import NEW as MIGHT_NEW
        setup, keys, asked = [MIGHT_NEW, HU_MIGHT], ["a", "a", "press", "a", "a", "a", "a", "a"], "Might:"
    start, full = _lines(tmp_path / "start", setup, keys[:-1]), _lines(tmp_path / "full", setup, keys)
    assert full[len(start):] == (PLACED[1:] if what == "placement" else [full[-2], "draw"]) and full[-2] != "draw"
    for i, (before, last, nth, when) in enumerate(_cases(setup, keys, tmp_path)):
        d = tmp_path / f"cut-{i}"
        _killed(d, setup, before, last, nth, when)
        _marks_name_stored_steps(d)
        app = app_with([], ["a"], d)
        try:
            app.render()
            lines = list(app.console.session.lines)
            assert lines in (start, full[:-1], full), (i, before, last, nth, when, lines)
            if before[-1] == "b:hold":                    # the undo: all of the key or none of it, one write
                assert lines in (start, full), (i, nth, when, lines)
            if lines == start:
                continue                                  # the key's first step was never written
            assert _asked(app).startswith(asked), (i, nth, when, lines)      # the player's step named
            _undone(app)
            assert list(app.console.session.lines) == start, (i, nth, when, lines)    # the whole key, at one hold
        finally:
            app.console.close()
