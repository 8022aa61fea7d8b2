"""Power-cut safety: kill -9 at random moments; the restarted console must show the state after
the last acknowledged command (or after the one that was in flight)."""
import json
import os
import random
import signal
import subprocess
import time

import pytest

from engine.errors import LegatusError
from firmware.session import Session
from tests.conftest import ROOT, console_cmd, run_console

SETUP = "new bag items=gold*6,silver*6,bronze*6 cards=c1*5,c2*5 seed=77"
COMMANDS = ["draw", "draw 2", "roll 3d6", "card", "put gold", "undo", "reroll 1,2", "put silver",
            "shuffle", "draw", "undo", "roll 1d20+2", "card 2", "reshuffle"]


def _expected_states(lines):
    """The state view after each prefix of ``lines`` (failing commands change nothing)."""
    s = Session.start(SETUP, 77, "ref")
    out = [s.view()]
    for line in lines:
        try:
            if line == "undo":
                s.undo()
            else:
                s.apply(s.as_asked(line), asked=True)       # as the console stores it (``reroll … rolls=apart``)
        except LegatusError:
            pass
        out.append(s.view())
    return out


@pytest.mark.slow
def test_kill_9_at_random_moments_never_loses_an_acknowledged_command(state_dir):
    rng = random.Random(9)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for trial in range(30):
        d = state_dir / f"t{trial}"
        d.mkdir()
        run_console(d, [SETUP])
        lines = [rng.choice(COMMANDS) for _ in range(rng.randrange(3, 25))]
        expected = _expected_states(lines)
        proc = subprocess.Popen(console_cmd(d), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        acked = 0
        kill_after = rng.randrange(0, len(lines))
        for i, line in enumerate(lines):
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            if i == kill_after:
                time.sleep(rng.choice([0, 0, 0.001, 0.005, 0.02]))
                break
            json.loads(proc.stdout.readline())
            acked += 1
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        proc.stdin.close()
        state = run_console(d, ["state"])[0]["state"]
        assert state in (expected[acked], expected[acked + 1]), (trial, lines[: acked + 1])
