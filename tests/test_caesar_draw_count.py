"""Caesar!: the tokens owed from a physical bag are counted over their pickers from the game's
state (C-5's first tokens, C-6's end-of-turn draw, C-14's Wealth draw): «0/2», «1/2» — and after a
restart or a power cut too, where the count kept on the screen began again at «0/1» (one token
owed, read the player who had taken two from the bag and had one more to take)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.screens.caesar.pickers import TokenPicker
from tests.screens import app_with
from tests.test_screens_caesar import take, texts

ROOT = Path(__file__).resolve().parent.parent

# Caesar closes Hispania Ulterior (its two spaces: HU-MT taken, HU-HC now) and takes its Wealth:
# the turn's draw (C-6) and Wealth's (C-14), two tokens from the box's bag.
WEALTH = ["new caesar-duel seed=5 bag-input=physical", "position " + json.dumps({
    "spaces": {"HU-MT": {"by": "caesar", "token": "ship:6/0", "toward": {"HU": 6, "MT": 0}}},
    "bonuses": {"HU": "wealth"}, "turn": "caesar",
    "hands": {"caesar": ["shield:3/3", "wild:2/2"], "pompey": ["ship:5/1", "sword:5/1"]}}),
    "play HU-HC shield:3/3 HU"]
SOLO = "new caesar-solo difficulty=easy bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 seed=2"


def _picker(app, keys: list[str]) -> TokenPicker:
    """The keys pressed until the question what was drawn is on screen: that picker."""
    for key in keys:
        if isinstance(app.stack[-1], TokenPicker) and texts(app)[0] == "You drew?":
            break
        app.handle(key)
    top = app.stack[-1]
    assert isinstance(top, TokenPicker) and texts(app)[0] == "You drew?", texts(app)
    return top


def test_the_wealth_draws_count_on_after_a_restart_and_back_after_an_undo(state_dir):   # C-6, C-14
    app = app_with(WEALTH, [], state_dir)
    try:
        picker = _picker(app, ["a"] * 4)                  # Resume, the closure's page read
        assert picker.status(app) == "0/2" and texts(app)[1] == "0/2"
        take(app, next(iter(sorted(picker.left()))))
        assert app.view()["players"]["caesar"]["draws_done"] == 1
        assert _picker(app, []).status(app) == "1/2"
    finally:
        app.console.close()
    again = app_with([], [], state_dir)                    # the device started again
    try:
        assert again.view()["players"]["caesar"]["draws_due"] == 1
        picker = _picker(again, ["a"] * 4)
        assert picker.status(again) == "1/2" and texts(again)[1] == "1/2"     # was «0/1»
        again.console.request("undo")                     # the draw taken back: two owed again
        again.stack.pop()
        assert _picker(again, ["a"] * 4).status(again) == "0/2"
    finally:
        again.console.close()


def test_the_count_is_the_game_state_and_survives_a_checkpoint(state_dir):   # C-5
    """``draws_done`` is the game's, stored with it: read back from a stored state as it was."""
    app = app_with([SOLO], [], state_dir)
    try:
        before = app.console.request("draw sword:5/1")["state"]["human"]
        assert (before["draws_done"], before["draws_due"]) == (1, 1)
    finally:
        app.console.close()
    from engine.caesar.model import Game
    g = Game.from_json(Game().to_json() | {"drawn": [1, 0]})
    assert g.drawn == [1, 0] and Game.from_json(g.to_json()).drawn == [1, 0]
    old = {k: v for k, v in g.to_json().items() if k != "drawn"}     # stored before the count
    assert Game.from_json(old).drawn == [0, 0]


def _killed_after(state_dir: Path, lines: list[str], keys: list[str]) -> None:
    """``legatus console`` plays ``lines``; then the device program (``--sim --script``) presses
    ``keys`` and idles, and gets SIGKILL once the frame after the last key is drawn."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    console = subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state_dir)],
                             input="settings language=en\n" + "\n".join(lines) + "\n", text=True,
                             capture_output=True, timeout=120, cwd=ROOT, env=env)
    assert console.returncode == 0, console.stderr
    script = state_dir / "keys.txt"
    script.write_text("".join(f"{k}\n" for k in keys) + "wait 1\n" * 400)
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(script),
                             "--state-dir", str(state_dir)], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    seen = 0
    deadline = time.monotonic() + 120
    assert proc.stdout is not None
    for line in proc.stdout:
        seen += line.rstrip("\n") in {f"--- frame after: {k}" for k in keys}
        if seen == len(keys) or time.monotonic() > deadline:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert seen == len(keys) and proc.returncode == -signal.SIGKILL


@pytest.mark.slow
def test_a_kill_between_the_first_two_draws_resumes_on_1_of_2(state_dir):   # C-5
    """The device program killed (power cut) after the first of your two starting tokens was
    named; started again, the question for the second counts «1/2» (it said «0/1»), on the frame
    the program itself draws."""
    _killed_after(state_dir, [SOLO], ["a", "down", "a", "a"])     # Resume, Draw tokens, the first one taken
    keys = state_dir / "keys.txt"
    keys.write_text("a\ndown\na\n")
    out = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(keys),
                          "--state-dir", str(state_dir)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    last = out.stdout.split("--- frame after: a")[-1].split("\n", 1)[1].strip("\n")
    from firmware.terminal import to_braille
    app = app_with([], ["a", "down", "a"], state_dir)               # the same keys, here
    try:
        top = app.stack[-1]
        assert isinstance(top, TokenPicker) and top.status(app) == "1/2"
        assert to_braille(app.render()).strip("\n") == last
        top.series = (0, 1)                                          # what it showed (the frame tells them apart)
        assert to_braille(app.render()).strip("\n") != last
    finally:
        app.console.close()
