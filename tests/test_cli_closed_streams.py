"""`legatus` started with a standard stream closed by the shell (``<&-``, ``2>&-``): it says what
it says with that stream on the null device — never a traceback (Python gives a closed stream as
None: ``sys.stdin.fileno()`` raised AttributeError in the simulator's terminal check, the
console's greeting and the simulator's log set-up)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _legatus(args: list[str], closed: int, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, LANG="C.UTF-8", TERM="xterm", LEGATUS_STATE_DIR=str(tmp_path / "default"))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    streams = {0: subprocess.DEVNULL, 1: subprocess.PIPE, 2: subprocess.PIPE}
    streams[closed] = None
    return subprocess.run([sys.executable, "-c", "import sys; from firmware.cli import main; sys.exit(main())", *args],
                          cwd=ROOT, env=env, text=True, timeout=120, stdin=streams[0], stdout=streams[1],
                          stderr=streams[2], preexec_fn=lambda: os.close(closed))


def test_the_simulator_with_its_input_closed_says_it_needs_a_terminal(tmp_path: Path) -> None:
    done = _legatus(["--sim", "--state-dir", str(tmp_path / "s")], 0, tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2
    assert "the simulator needs a terminal for its keys" in done.stderr


@pytest.mark.parametrize("args", [["console"], ["--script", "-"]])
def test_the_console_and_a_script_from_closed_input_read_its_end(tmp_path: Path, args: list[str]) -> None:
    done = _legatus([*args, "--state-dir", str(tmp_path / "s")], 0, tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr


def test_the_simulator_with_its_errors_closed_runs_and_quits(tmp_path: Path) -> None:
    """``legatus --sim 2>&-`` in a terminal: the frame, then q quits (it stopped with a traceback
    in the log before its first frame: ``sys.stderr.isatty()`` on None)."""
    import pty
    import select
    import time
    env = dict(os.environ, LANG="C.UTF-8", TERM="xterm", COLUMNS="80", LINES="24")
    pid, fd = pty.fork()
    if pid == 0:                                  # the child: standard error closed, as by 2>&-
        os.close(2)
        os.chdir(ROOT)
        os.execvpe(sys.executable, [sys.executable, "-c", "import sys; from firmware.cli import main; sys.exit(main())",
                                    "--sim", "--state-dir", str(tmp_path / "s")], env)
    import fcntl
    import struct
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out, end, sent = b"", time.monotonic() + 60, False
    while time.monotonic() < end:
        if not sent and b"q=quit" in out:
            os.write(fd, b"q")
            sent = True
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                got = os.read(fd, 65536)
            except OSError:
                break
            if not got:
                break
            out += got
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert sent, out[-400:]
    assert os.waitstatus_to_exitcode(status) == 0
    assert "Traceback" not in (tmp_path / "s" / "legatus.log").read_text(encoding="utf-8")
