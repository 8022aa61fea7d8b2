"""The console over a serial line: a pty pair stands in for the UART (pyserial opens the slave)."""
import json
import os
import select
import subprocess
import termios
import tty

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.conftest import ROOT, console_cmd


def _read_line(fd, timeout=20.0):
    buf = b""
    while not buf.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], timeout)
        assert ready, f"no reply over the pty (got {buf!r})"
        buf += os.read(fd, 4096)
    return json.loads(buf)


@contextmanager
def console_on_pty(state_dir, *extra: str, quit: bytes = b"quit\n") -> Iterator[tuple[int, int]]:
    """``legatus console --serial`` on a pty's slave side, once it says it is listening (pyserial
    flushes the input when it opens the port): yields (master, slave); at the end of the block
    ``quit`` (with its line end) is answered ``bye`` and the program exits 0. Always cleaned up."""
    master, slave = os.openpty()
    tty.setraw(master)
    proc = subprocess.Popen(console_cmd(state_dir, "--serial", os.ttyname(slave), *extra), cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE)
    try:
        assert b"console on" in proc.stderr.readline()
        yield master, slave
        os.write(master, quit)
        assert _read_line(master)["bye"] is True
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)


def test_console_over_a_pty_serial_port(state_dir):
    with console_on_pty(state_dir, "--baud", "115200") as (master, slave):
        attrs = termios.tcgetattr(slave)
        os.write(master, b"version\r\n")
        assert _read_line(master)["protocol"] == 1
        os.write(master, b"new bag items=a*2,b*2 seed=3\n")
        assert _read_line(master)["game"] == "bag"
        os.write(master, b"draw 5\n")
        assert _read_line(master)["error"] == "illegal_move"
    assert attrs is not None


def test_a_terminal_that_sends_cr_on_enter_is_answered(state_dir):
    """`screen`, a bare `picocom`, PuTTY: Enter sends CR alone. Each line is answered as it is
    typed (nothing was, ever), each reply ending with CRLF (LF alone drew a staircase); a mistyped
    letter erased with Backspace (DEL) is gone."""
    with console_on_pty(state_dir, quit=b"quit\r") as (master, _slave):
        os.write(master, b"version\r")
        raw = b""
        while not raw.endswith(b"\n"):
            ready, _, _ = select.select([master], [], [], 10)
            assert ready, f"no reply over the pty (got {raw!r})"
            raw += os.read(master, 4096)
        assert json.loads(raw)["protocol"] == 1 and raw.endswith(b"}\r\n")   # back to the first column
        os.write(master, b"new bag items=a*2,b*2 seed=3\r")
        assert _read_line(master, timeout=10)["game"] == "bag"
        os.write(master, b"drwa\x7f\x7faw 2\r")
        assert len(_read_line(master, timeout=10)["drawn"]) == 2     # the line was "draw 2"


@pytest.mark.slow
def test_a_paste_of_1000_lines_with_mixed_line_ends_is_answered_in_full_and_in_order(state_dir):
    """A person pastes 1,000 lines at once into the terminal (CR, CRLF and LF ends mixed, as pasted
    text and Enter give): every line gets its reply, in order, each ending as its line did; the
    session holds exactly what the replies said."""
    import threading
    ends = [b"\r", b"\r\n", b"\n"]
    with console_on_pty(state_dir, quit=b"quit\r") as (master, _slave):
        os.write(master, b"new bag items=a*250,b*250 seed=5\n")
        assert _read_line(master)["game"] == "bag"
        got = bytearray()

        def read_replies() -> None:
            while got.count(b"\n") < 1001:
                ready, _, _ = select.select([master], [], [], 30)
                if not ready:
                    return
                got.extend(os.read(master, 65536))
        reader = threading.Thread(target=read_replies)
        reader.start()
        os.write(master, b"".join(b"draw" + ends[i % 3] for i in range(1000)) + b"state\r")
        reader.join()
        lines = bytes(got).split(b"\n")[:-1]
        assert len(lines) == 1001
        assert [line.endswith(b"\r") for line in lines[:1000]] == [i % 3 < 2 for i in range(1000)]
        replies = [json.loads(line) for line in lines]
        assert all(r["ok"] for r in replies[:500]) and all(r["error"] == "illegal_move" for r in replies[500:1000])
        assert replies[1000]["state"]["bag"]["drawn"] == [r["drawn"][0] for r in replies[:500]]


def test_missing_serial_port_is_reported_clearly(state_dir):
    proc = subprocess.run(console_cmd(state_dir, "--serial", "/dev/does-not-exist-42"), cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=30)
    assert proc.returncode == 2
    assert b"does-not-exist-42" in proc.stderr
