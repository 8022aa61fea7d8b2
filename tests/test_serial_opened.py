"""Bytes a host sends before the serial port is opened (the device still starting, the port opened
again after a hang-up): pyserial's open emptied the kernel's input (``tcflush``; socket:// read it
away), so the lines the kernel held for the port — a pty's, the USB gadget's — were lost without a
word and the host waited for answers that never came. They are kept and answered now, and the first
reply just after an open says (``opened``) that a line sent earlier may have been lost and what to
do: on a UART a closed port does not listen, and only the host can send it again."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import serial

from firmware.i18n import set_language
from firmware.serial_opened import NEAR, OpenedLink, with_opened
from hw.serial_link import LineBuffer, SerialLink, open_serial


@pytest.fixture
def pty() -> Iterator[tuple[int, str]]:
    """(master fd, slave path) of a fresh pseudo-terminal, the slave raw (no echo of what came)."""
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    for fd in (master, slave):
        try:
            os.close(fd)
        except OSError:                             # (a test hung up the host's end itself)
            pass


def test_lines_a_pty_held_before_the_port_opened_are_read(pty: tuple[int, str]) -> None:
    master, path = pty
    os.write(master, b"version\nstate\n")          # the host wrote before the device opened the port
    time.sleep(0.05)
    with open_serial(path, timeout=1.0) as port:
        assert LineBuffer(port).readline(4097) == b"version\n"
        port.reset_input_buffer()                   # (an explicit flush still empties it)
        assert port.in_waiting == 0


def _reader(link: SerialLink) -> tuple[queue.Queue[tuple[Any, ...]], threading.Thread]:
    from firmware.serial_reader import serial_reader
    events: queue.Queue[tuple[Any, ...]] = queue.Queue()
    thread = threading.Thread(target=serial_reader, args=(link, events), daemon=True)
    thread.start()
    return events, thread


def test_the_device_answers_a_line_sent_before_its_port_opened_and_says_what_may_be_lost(
        pty: tuple[int, str]) -> None:
    set_language("en")
    master, path = pty
    os.write(master, b"version\n")
    time.sleep(0.05)
    # (reopen=False: once the pty hangs up the reader ends; a reader that reopened the path for ever
    # took the next test's pseudo-terminal of that name, set it raw and read its keys: the
    # simulator's pty tests then saw no echo and lost keys)
    link = SerialLink(path, reopen=False)
    events, reader = _reader(link)
    kind, raw, too_long, reply = events.get(timeout=5)
    assert (kind, raw, too_long) == ("line", b"version", False)
    reply(b'{"ok":true,"version":"0.1.0","protocol":1}\n')
    got = json.loads(_read_line(master))
    assert got["ok"] and got["version"] == "0.1.0"
    assert "Send again each line that got no reply" in got["opened"]
    os.close(master)                                # the host hangs up: the reader ends
    reader.join(timeout=10)
    assert not reader.is_alive()


def test_a_line_long_after_the_port_opened_is_answered_as_always() -> None:
    now = [100.0]
    port = serial.serial_for_url("loop://", timeout=0.2)
    link = SerialLink("/dev/ttyGS0", open_port=lambda: port, retry=0.0, sleep=lambda s: None, clock=lambda: now[0])
    assert link.wait() is not None
    now[0] += NEAR + 5                               # the host wrote its first line later
    port.write(b"version\n")
    events, _ = _reader(link)
    _, raw, _, reply = events.get(timeout=5)
    sent: list[bytes] = []
    link.send = lambda data, *a, **k: sent.append(data)     # type: ignore[method-assign]
    reply(b'{"ok":true}\n')
    assert raw == b"version" and sent == [b'{"ok":true}\n']


def test_only_the_first_reply_after_each_opening_says_it() -> None:
    now = [0.0]
    ports = [serial.serial_for_url("loop://", timeout=0.2) for _ in range(2)]
    opens = iter(ports)
    link = SerialLink("/dev/ttyGS0", open_port=lambda: next(opens), retry=0.0, sleep=lambda s: None,
                      clock=lambda: now[0])
    link.send = lambda data, *a, **k: sent.append(data)     # type: ignore[method-assign]
    sent: list[bytes] = []
    assert link.wait() is not None
    ports[0].write(b"w\nstate\n")                  # the tail of a line cut by the open, then a whole one
    events, _ = _reader(link)
    for _ in range(2):
        events.get(timeout=5)[3](b'{"ok":false,"error":"unknown_command","message":"m"}\n')
    assert "opened" in json.loads(sent[0]) and "opened" not in json.loads(sent[1])
    link.lost(OSError(5, "Input/output error"))     # the cable pulled and put back: opened again
    ports[1].write(b"state\n")
    events.get(timeout=5)[3](b'{"ok":true}\n')
    assert "opened" in json.loads(sent[2])


@pytest.mark.parametrize("lang,words", [("ru", "Отправьте снова"), ("uk", "Надішліть знову")])
def test_the_note_is_in_the_replies_language_and_keeps_the_line_end(lang: str, words: str) -> None:
    set_language(lang)
    try:
        data = with_opened('{"ok":false,"error":"unknown_command","message":"м"}\r\n'.encode())
    finally:
        set_language("en")
    assert data.endswith(b"}\r\n") and words in json.loads(data)["opened"]
    assert with_opened(b"not json\n") == b"not json\n"


def test_the_serial_console_answers_what_was_sent_before_it_opened_the_port(pty: tuple[int, str], tmp_path) -> None:
    """``legatus console --serial PORT``: the host's first lines, written before the program started."""
    from tests.conftest import ROOT
    master, path = pty
    os.write(master, b"new dice seed=3\nroll 2d6\n")
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(tmp_path / "s"),
                             "--serial", path], cwd=ROOT, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"})
    try:
        first, second = json.loads(_read_line(master, 30)), json.loads(_read_line(master, 30))
        os.write(master, b"quit\n")
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert first["ok"] and first["game"] == "dice" and "opened" in first
    assert second["ok"] and len(second["dice"]) == 2 and "opened" not in second


def test_the_consoles_link_notes_only_a_first_line_read_soon_after_the_open() -> None:
    now = [10.0]
    port = serial.serial_for_url("loop://", timeout=0.2)
    vars(port)["opened_at"] = 0.0
    link = OpenedLink(LineBuffer(port), port, clock=lambda: now[0])
    port.write(b"version\n")
    assert link.readline(4097) == b"version\n"
    link.write(b'{"ok":true}\n')
    link.flush()
    assert LineBuffer(port).readline(4097) == b'{"ok":true}\n'


def _read_line(fd: int, timeout: float = 5.0) -> bytes:
    import select
    data = b""
    end = time.monotonic() + timeout
    while not data.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        assert ready, f"no reply within {timeout} s (got {data!r})"
        data += os.read(fd, 1)
    return data
