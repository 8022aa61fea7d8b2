"""hw.serial_link over pyserial's loop:// and a pty pair."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hw.serial_link import SerialError, SerialLink, open_serial


@pytest.fixture
def pty() -> Iterator[tuple[int, str]]:
    """(master fd, slave path) of a fresh pseudo-terminal."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    yield master, path
    os.close(master)
    os.close(slave)


def test_loop_round_trip_line_by_line() -> None:
    with open_serial("loop://") as port:
        assert port.baudrate == 115200
        port.write(b'{"cmd":"ping"}\n')
        port.flush()
        assert port.readline(4097) == b'{"cmd":"ping"}\n'


def test_readline_limit_cuts_an_overlong_line() -> None:
    # The console reads readline(4097) to spot overlong lines; loop:// buffers only
    # 4096 bytes, so the same contract is shown with a smaller limit.
    with open_serial("loop://") as port:
        port.write(b"x" * 40 + b"\n")
        assert port.readline(17) == b"x" * 17
        assert port.readline(4097) == b"x" * 23 + b"\n"


def test_pty_pair_both_directions(pty: tuple[int, str]) -> None:
    master, path = pty
    with open_serial(path, baud=9600) as port:
        assert port.port == path and port.baudrate == 9600
        os.write(master, b"roll 2d6\n")
        assert port.readline(4097) == b"roll 2d6\n"
        port.write(b"ok 7\n")
        port.flush()
        assert os.read(master, 64) == b"ok 7\n"


def test_port_in_use_is_reported(pty: tuple[int, str]) -> None:
    _, path = pty
    with open_serial(path):
        with pytest.raises(SerialError, match="in use by another program") as info:
            open_serial(path)
    assert info.value.port == path


def test_missing_port_names_it_and_the_fix() -> None:
    with pytest.raises(SerialError, match=r"/dev/ttyLEGATUS9 does not exist: check the port name") \
            as info:
        open_serial("/dev/ttyLEGATUS9")
    assert info.value.port == "/dev/ttyLEGATUS9"
    assert isinstance(info.value.__cause__, OSError)


@pytest.mark.parametrize("port", ["/dev/ttyUSB97", "/dev/ttyACM97", "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_X-if00-port0"])
def test_an_unplugged_usb_serial_adapter_is_said_as_such(port: str) -> None:
    """A USB serial adapter's port is gone while its cable is out: the log (and the simulator's notice)
    said to check the port name and set up the USB gadget (dtoverlay=dwc2, g_serial), nothing to do
    with it. It says to plug the adapter in, in the player's words too."""
    from firmware.i18n import say
    with pytest.raises(SerialError) as info:
        open_serial(port)
    said = info.value.args[0]
    assert "plug the USB serial adapter in" in said and port in said and "g_serial" not in said
    assert "подключите USB-адаптер" in say(said, "ru") and "під'єднайте USB-адаптер" in say(said, "uk")


@pytest.mark.parametrize("service", [True, False])
def test_a_port_not_permitted_says_the_fix_for_how_the_program_runs(
        service: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fix was "… and log in again" for the service too, which keeps its groups until it is
    restarted: the service is told to restart, a program started by hand to log in again."""
    import errno

    import serial

    import hw.service

    def denied(port: str, **kwargs: Any) -> Any:          # as pyserial's posix open says it
        raise serial.SerialException(errno.EACCES, f"could not open port {port}: [Errno 13] Permission denied")
    monkeypatch.setattr(serial, "serial_for_url", denied)
    monkeypatch.setattr(hw.service, "under_service", lambda: service)
    with pytest.raises(SerialError, match=r"permission denied on /dev/ttyGS0: add the .*'dialout' group") as info:
        open_serial("/dev/ttyGS0")
    said = str(info.value)
    assert ("sudo systemctl restart legatus" in said) is service and ("log out and in again" in said) is not service


@pytest.mark.parametrize(("port", "baud"), [("bogus://x", 115200), ("loop://", -1)])
def test_bad_url_or_baud_is_a_serial_error(port: str, baud: int) -> None:
    with pytest.raises(SerialError, match="check the port name and baud rate"):
        open_serial(port, baud=baud)


@pytest.mark.parametrize("baud", [0, 99_999_999_999])
def test_a_baud_rate_a_tty_cannot_take_is_a_serial_error(pty: tuple[int, str], baud: int) -> None:
    """`--baud 0` opened the port at B0, which on a tty means "hang up" (the console never heard a
    thing); `--baud 99999999999` said only "legatus: signed integer is greater than maximum" (an
    OverflowError from termios: no port, no baud, and the device retried it every 2 s for ever)."""
    _, path = pty
    with pytest.raises(SerialError, match=f"{baud}.*check the port name and baud rate") as info:
        open_serial(path, baud=baud)
    assert info.value.port == path


def test_importing_serial_link_does_not_import_pyserial() -> None:
    code = "import sys, hw.serial_link; print('serial' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _hangs_up_on_flush(port) -> None:
    """What pyserial does on a tty whose other end is gone: tcdrain fails with termios.error,
    which is not an OSError (seen on a pty in CI)."""
    import termios

    def flush() -> None:
        raise termios.error(5, "Input/output error")
    port.flush = flush


def test_a_hangup_at_flush_ends_the_serial_console_cleanly(monkeypatch, tmp_path, capsys) -> None:
    from firmware import console as C
    port = open_serial("loop://", timeout=1)
    _hangs_up_on_flush(port)
    port.write(b"version\n")
    monkeypatch.setattr("hw.serial_link.open_serial", lambda name, baud: port)
    assert C.run_console(str(tmp_path / "s"), serial_port="loop://") == 0
    assert "the serial link closed" in capsys.readouterr().err


@pytest.mark.parametrize("lang,served,closed", [
    ("ru", "legatus: консоль на loop:// готова к работе на скорости 9600 бит/с.",
     "legatus: связь через последовательный порт прервалась (Input/output error); все подтверждённые действия сохранены."),
    ("uk", "legatus: консоль на loop:// готова до роботи на швидкості 9600 біт/с.",
     "legatus: зв'язок через послідовний порт перервався (Input/output error); усі підтверджені дії збережено."),
])
def test_the_serial_console_says_where_it_serves_and_its_hangup_in_the_devices_language(
        monkeypatch, tmp_path, capsys, lang, served, closed) -> None:
    """``legatus console --serial PORT`` told the person who started it where it serves and that the
    link closed in English on a Russian or Ukrainian device (its replies are in the device's words)."""
    from firmware import console as C
    from firmware.i18n import set_language
    st = tmp_path / "s"
    c = C.Console(C.Store(st), None)
    assert c.request(f"settings language={lang}")["ok"]
    c.close()
    port = open_serial("loop://", timeout=1)
    _hangs_up_on_flush(port)
    port.write(b"version\n")
    monkeypatch.setattr("hw.serial_link.open_serial", lambda name, baud: port)
    try:
        assert C.run_console(str(st), serial_port="loop://", baud=9600) == 0
    finally:
        set_language("en")
    assert capsys.readouterr().err.splitlines() == [served, closed]


def test_a_hangup_at_flush_does_not_reach_the_device_loop(tmp_path) -> None:
    import queue
    import threading

    from firmware.serial_reader import serial_reader
    port = open_serial("loop://", timeout=0.2)
    _hangs_up_on_flush(port)
    events: queue.Queue = queue.Queue()
    threading.Thread(target=serial_reader, args=(port, events), daemon=True).start()
    port.write(b"version\n")
    kind, raw, too_long, reply = events.get(timeout=10)
    assert (kind, raw, too_long) == ("line", b"version", False)
    reply(b'{"ok":true}\n')                 # answered on the main loop: must not raise
    port.flush = lambda: None               # (io's close flushes first)
    port.close()


# -- reading lines a chunk at a time; a link that comes back (issue 20 §5) -------------------------
class CountingPort:
    """A port over a byte string that counts its read calls (pyserial's read/in_waiting)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.reads = 0

    @property
    def in_waiting(self) -> int:
        return len(self.data)

    def read(self, n: int) -> bytes:
        self.reads += 1
        out, self.data = self.data[:n], self.data[n:]
        return out


@pytest.mark.parametrize("limit", [-1, 2, 5, 4098])
def test_line_buffer_reads_as_readline_does(limit: int) -> None:
    """Over LF and CRLF line ends (a limit of 1, which cuts a CRLF between its CR and LF, is the one
    difference: that CR ends the line and the LF is its own; see the CR tests below)."""
    import io

    from hw.serial_link import LineBuffer
    data = b"abc\nde\r\n\n" + b"x" * 9000 + b"\nlast"
    ours, theirs = LineBuffer(CountingPort(data), chunk=7), io.BytesIO(data)
    while True:
        a, b = ours.readline(limit), theirs.readline(limit)
        assert a == b
        if not b:
            break


def test_an_overlong_line_is_skipped_a_chunk_at_a_time() -> None:
    from firmware.console_lines import read_line
    from hw.serial_link import LineBuffer
    port = CountingPort(b"x" * 1_000_000 + b"\nversion\n")
    lines = LineBuffer(port)
    assert read_line(lines) == (b"", True)
    assert read_line(lines) == (b"version", False)
    assert port.reads < 100                  # not one read per byte (pyserial's readline)


def test_a_megabyte_line_over_a_pty_is_dropped_and_the_next_line_answered(pty: tuple[int, str]) -> None:
    import threading

    from firmware.console_lines import read_line
    from hw.serial_link import LineBuffer
    master, path = pty
    with open_serial(path) as port:
        calls = [0]
        read = port.read

        def counted(n: int = 1) -> bytes:
            calls[0] += 1
            return read(n)
        port.read = counted                  # type: ignore[method-assign]
        writer = threading.Thread(target=lambda: os.write(master, b"y" * 1_000_000 + b"\nversion\n"))
        writer.start()
        lines = LineBuffer(port)
        assert read_line(lines) == (b"", True)
        assert read_line(lines) == (b"version", False)
        writer.join()
    assert calls[0] < 20_000                 # chunks of what has arrived, not 1,000,000 reads


def _wait_opened(link: SerialLink, n: int) -> None:
    """Until ``link`` has opened its port ``n`` times (10 s at most): pyserial's socket:// drops
    what arrives while it opens."""
    deadline = time.monotonic() + 10
    while link.opened < n and time.monotonic() < deadline:
        time.sleep(0.01)


def test_the_serial_link_reopens_when_the_cable_is_back() -> None:
    """A hang-up closes the port; the reader opens it again and serves the next line (here a
    socket:// port whose server drops the connection and then accepts a new one)."""
    import queue
    import socket
    import threading

    from firmware.serial_reader import serial_reader
    from hw.serial_link import SerialLink
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(2)
    url = f"socket://127.0.0.1:{server.getsockname()[1]}"
    link = SerialLink(url, retry=0.05)
    events: queue.Queue = queue.Queue()
    threading.Thread(target=serial_reader, args=(link, events), daemon=True).start()
    server.settimeout(10)

    first, _ = server.accept()
    _wait_opened(link, 1)
    first.sendall(b"version\n")
    kind, raw, too_long, reply = events.get(timeout=10)
    assert raw == b"version"
    reply(b"pong\n")
    assert first.recv(16) == b"pong\n"
    first.close()                            # the cable is pulled
    second, _ = server.accept()              # ... and put back: the link is opened again
    _wait_opened(link, 2)
    second.sendall(b"state\n")
    assert events.get(timeout=10)[1] == b"state"
    assert link.opened == 2
    second.close()
    server.close()


def test_writing_while_the_link_is_down_is_a_link_error() -> None:
    from hw.serial_link import LINK_ERRORS, SerialLink
    link = SerialLink("/dev/ttyLEGATUS9")
    with pytest.raises(LINK_ERRORS):
        link.write(b"x\n")


def test_an_answer_to_a_request_from_before_a_hangup_is_not_sent_on_the_new_connection(caplog) -> None:
    """One response per request: a request read before the cable was pulled is answered after the
    link came back (the main loop was busy meanwhile): that answer must not reach the new client,
    who never sent the request; its own request is answered normally."""
    import queue
    import socket
    import threading

    from firmware.serial_reader import serial_reader
    from hw.serial_link import SerialLink
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(2)
    link = SerialLink(f"socket://127.0.0.1:{server.getsockname()[1]}", retry=0.05)
    events: queue.Queue = queue.Queue()
    threading.Thread(target=serial_reader, args=(link, events), daemon=True).start()
    server.settimeout(10)

    first, _ = server.accept()
    _wait_opened(link, 1)
    first.sendall(b"draw\n")
    _, raw, _, late_reply = events.get(timeout=10)
    assert raw == b"draw"
    first.close()                            # pulled before the answer was written
    second, _ = server.accept()
    _wait_opened(link, 2)
    late_reply(b'{"ok":true,"drawn":["a"]}\n')   # the busy main loop answers the old request now
    second.sendall(b"version\n")
    _, raw, _, reply = events.get(timeout=10)
    assert raw == b"version"
    reply(b'{"ok":true,"version":"x"}\n')
    second.settimeout(10)
    got = b""
    while not got.endswith(b"\n"):
        got += second.recv(4096)
    answer = json.loads(got)                 # not the old request's answer first (the first reply on the
    assert answer.pop("opened") and answer == {"ok": True, "version": "x"}   # new opening says what may be lost)
    assert "could not answer over the serial link" in caplog.text
    second.close()
    server.close()


@pytest.mark.slow
def test_the_device_program_over_a_serial_link_with_keys_a_pulled_cable_and_slow_and_fast_senders(tmp_path) -> None:
    """The real device program (`legatus --sim --serial socket://…`, its keyboard a pty): request
    lines interleaved with key presses each get exactly one response, in order; a line cut by a
    pulled cable is never run (the rest of it after the link is back is a line of its own); a
    byte-at-a-time sender and a burst of 500 lines are answered in full; the journal holds what
    the last response said."""
    import json
    import random
    import socket
    import threading

    from tests.conftest import ROOT
    state_dir = tmp_path / "state"
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(2)
    server.settimeout(30)
    keyboard, kb_slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--sim", "--state-dir", str(state_dir), "--serial",
                             f"socket://127.0.0.1:{server.getsockname()[1]}"], cwd=ROOT, stdin=kb_slave, stdout=kb_slave,
                            stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"}, start_new_session=True)
    os.close(kb_slave)
    frames = threading.Thread(target=lambda: [None for _ in iter(lambda: _read_or_empty(keyboard), b"")], daemon=True)
    frames.start()
    conn: list[socket.socket] = []
    buf = [b""]

    def connect() -> None:
        c, _ = server.accept()
        c.settimeout(30)
        conn[:] = [c]
        buf[0] = b""
        time.sleep(1.0)                       # pyserial's socket:// drops what arrives while it opens

    def reply() -> dict:
        while b"\n" not in buf[0]:
            data = conn[0].recv(65536)
            assert data, "the device closed the link"
            buf[0] += data
        line, _, buf[0] = buf[0].partition(b"\n")
        return json.loads(line)

    def ask(line: str) -> dict:
        conn[0].sendall(line.encode() + b"\n")
        return reply()

    try:
        connect()
        assert ask("new bag items=a*30,b*30 seed=4")["ok"]
        rnd = random.Random(5)
        keys = [b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D", b"\r", b"a", b"b"]
        for _ in range(120):                  # lines and keys interleaved (a key may start another game)
            os.write(keyboard, rnd.choice(keys))
            r = ask(rnd.choice(["draw", "state", "roll 2d6", "undo", "version", "log 1", "frobnicate"]))
            assert set(r) >= {"ok"} and r.get("error") != "internal_error", r
        assert ask("new bag items=a*3,b*3 seed=4")["ok"]
        conn[0].sendall(b"dra")               # the cable is pulled in the middle of a line
        time.sleep(0.3)
        conn[0].close()
        connect()
        assert ask("w")["error"] == "unknown_command"          # 'dra' was dropped, never run
        assert ask("state")["state"]["actions"] == 0
        for byte in b"draw\n":                # a very slow sender
            conn[0].sendall(bytes([byte]))
            time.sleep(0.05)
        slow = reply()
        assert slow["ok"] and slow["state"]["actions"] == 1
        conn[0].sendall(b"state\n" * 500)     # a very fast one
        burst = [reply() for _ in range(500)]
        assert all(r["ok"] and r["state"]["actions"] == 1 for r in burst)
        last = ask("state")["state"]
    finally:
        os.write(keyboard, b"q")
        try:
            proc.wait(timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(keyboard)
            server.close()
    from tests.conftest import run_console
    assert run_console(state_dir, ["state"])[0]["state"] == last


def _read_or_empty(fd: int) -> bytes:
    """The simulator's frames on the keyboard pty, read and dropped (b"" once it is closed)."""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def test_a_peer_that_stops_reading_never_blocks_the_main_loop_and_loses_no_answer(pty: tuple[int, str]) -> None:
    """The device's main loop answers through SerialLink.send: with a peer that sends requests but
    no longer reads (a suspended terminal program), the answers once filled the pty and the
    main loop's write blocked for good (keys, screen and quit with it). Now each answer returns
    at once, the reader stops taking requests while OUT_LINES answers wait, and once the peer
    reads again every request gets its answer, in order."""
    import queue
    import threading

    from firmware.serial_reader import serial_reader
    from hw.serial_link import OUT_LINES, SerialLink
    master, path = pty
    port = open_serial(path)
    link = SerialLink(path, port=port, reopen=False)
    events: queue.Queue = queue.Queue()
    threading.Thread(target=serial_reader, args=(link, events), daemon=True).start()
    n = 60
    threading.Thread(target=lambda: os.write(master, b"".join(b"r%d\n" % i for i in range(n))), daemon=True).start()
    big = b"x" * 8000
    got: list[bytes] = []
    slowest = 0.0

    def answer_until_quiet() -> None:
        nonlocal slowest
        while True:
            try:
                _, raw, _, reply = events.get(timeout=1.5)
            except queue.Empty:
                return
            got.append(raw)
            t = time.monotonic()
            reply(raw + b":" + big + b"\n")
            slowest = max(slowest, time.monotonic() - t)
    answer_until_quiet()                     # nobody reads the answers
    assert slowest < 0.5                     # the main loop never waited for the link
    stuck = len(got)
    assert stuck < n                         # the reader stopped taking requests ...
    received = bytearray()

    def read_all() -> None:
        while received.count(b"\n") < n:
            received.extend(os.read(master, 65536))
    reading = threading.Thread(target=read_all, daemon=True)
    reading.start()                          # ... until the peer reads again
    deadline = time.monotonic() + 30
    while len(got) < n and time.monotonic() < deadline:
        answer_until_quiet()
    reading.join(timeout=30)
    assert got == [b"r%d" % i for i in range(n)]
    lines = bytes(received).split(b"\n")[:-1]
    assert [line.split(b":")[0] for line in lines] == got
    assert all(line.endswith(big) for line in lines)
    assert OUT_LINES <= stuck               # (the reader ends when the fixture closes the pty)


@pytest.mark.slow
def test_the_device_program_stays_live_while_its_serial_peer_does_not_read(tmp_path, pty: tuple[int, str]) -> None:
    """`legatus --sim --serial PTY` with a peer that floods requests and reads nothing back: the
    screen still follows the keys and `q` still ends the program (it froze in a blocked write)."""
    import threading

    from tests.conftest import ROOT
    master, path = pty
    keyboard, kb_slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--sim", "--state-dir", str(tmp_path / "s"),
                             "--serial", path], cwd=ROOT, stdin=kb_slave, stdout=kb_slave, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"}, start_new_session=True)
    os.close(kb_slave)
    frames = bytearray()

    def drain() -> None:
        while chunk := _read_or_empty(keyboard):
            frames.extend(chunk)
    threading.Thread(target=drain, daemon=True).start()
    try:
        time.sleep(3)                            # the port is open (pyserial flushes input at open)
        threading.Thread(target=lambda: os.write(master, b"state\n" * 3000), daemon=True).start()
        time.sleep(3)
        before = len(frames)
        for key in (b"\x1b[B", b"\x1b[B", b"\x1b[A"):
            os.write(keyboard, key)
            time.sleep(0.5)
        assert len(frames) > before              # the screen followed the keys
        os.write(keyboard, b"q")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(keyboard)


# -- a person at a terminal: Enter as CR, LF or CRLF, and the replies' line ends (docs/protocol.md Framing) --
class ArrivingPort:
    """A port whose bytes arrive in the given pieces: ``in_waiting`` counts what has arrived and is
    not read yet; the next piece arrives only when a read finds nothing waiting (a blocking read
    waits for the person to type again); with no piece left a read returns nothing (a timeout)."""

    def __init__(self, *pieces: bytes) -> None:
        self.current, *self.pieces = pieces

    @property
    def in_waiting(self) -> int:
        return len(self.current)

    def read(self, n: int) -> bytes:
        if not self.current and self.pieces:
            self.current = self.pieces.pop(0)
        out, self.current = self.current[:n], self.current[n:]
        return out


def _lines(*pieces: bytes) -> list[tuple[bytes, bool]]:
    from firmware.console_lines import read_line
    from hw.serial_link import LineBuffer
    source = LineBuffer(ArrivingPort(*pieces))
    out = []
    while (got := read_line(source)) is not None:
        out.append(got)
    return out


def test_a_bare_cr_ends_a_line_as_lf_and_crlf_do() -> None:
    """`screen`, a bare `picocom` and PuTTY send CR alone on Enter: such a line was never ended
    (no answer until 4096 bytes had gathered). CR, LF and CRLF now each end one line; a CRLF is one
    ending, never an extra empty line, even when its CR ends one read and its LF starts the next."""
    assert _lines(b"version\rstate\r") == [(b"version", False), (b"state", False)]
    assert _lines(b"a\rb\nc\r\nd\r") == [(b"a", False), (b"b", False), (b"c", False), (b"d", False)]
    assert _lines(b"help\r", b"\nversion\r\n") == [(b"help", False), (b"version", False)]
    assert _lines(b"help\r", b"\n", b"\n") == [(b"help", False), (b"", False)]   # the second LF: an empty line
    assert _lines(b"help\r\r\n") == [(b"help", False), (b"", False)]              # CR, then CRLF: two endings
    assert _lines(b"\r\n\r\n") == [(b"", False), (b"", False)]


def test_line_ends_over_random_streams_cut_into_random_reads() -> None:
    """2,000 random streams of letters, CR, LF and the odd over-long run, cut into random reads:
    the lines read are exactly the stream split at CRLF, CR and LF (CRLF first), each too-long one
    reported once, whatever the read boundaries (a CRLF cut between two reads included)."""
    import random
    import re
    rnd = random.Random(20261127)
    for _ in range(2000):
        parts = [rnd.choice([b"a", b"bc", b"\r", b"\n", b"\r\n", b"\xd0\xaf", b"x" * rnd.choice([10, 4096, 4097, 5000])])
                 for _ in range(rnd.randrange(1, 12))]
        data = b"".join(parts)
        cuts = sorted(rnd.sample(range(1, len(data)), min(len(data) - 1, rnd.randrange(0, 6)))) if len(data) > 1 else []
        pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
        expected = re.split(rb"\r\n|\r|\n", data)
        if expected[-1] == b"":
            expected.pop()                   # the stream ended with a line end
        want = [(b"", True) if len(line) > 4096 else (line, False) for line in expected]
        assert _lines(*pieces) == want, (data[:60], cuts)


def test_a_line_ended_by_cr_is_answered_at_once_without_waiting_for_an_lf() -> None:
    """The CR that ends what has arrived ends the line then (a terminal sends nothing more until
    the person types again): the line is returned before any further read."""
    from firmware.console_lines import read_line
    from hw.serial_link import LineBuffer
    port = ArrivingPort(b"version\r", b"\nstate\r")
    source = LineBuffer(port)
    assert read_line(source) == (b"version", False)
    assert port.pieces == [b"\nstate\r"]     # the next piece was not waited for
    assert read_line(source) == (b"state", False)


def test_an_overlong_line_ended_by_cr_is_skipped_to_that_cr_only() -> None:
    """The overlong line's skip stopped only at an LF: with CR line ends it swallowed every
    following request too."""
    assert _lines(b"x" * 5000 + b"\rversion\r") == [(b"", True), (b"version", False)]
    assert _lines(b"x" * 4096 + b"\r", b"\nversion\r") == [(b"x" * 4096, False), (b"version", False)]
    assert _lines(b"x" * 4097 + b"\r\nversion\r\n") == [(b"", True), (b"version", False)]
    assert _lines(b"x" * 4096 + b"\r\n") == [(b"x" * 4096, False)]


def test_cr_line_ends_over_a_pty_as_a_terminal_sends_them(pty: tuple[int, str]) -> None:
    from firmware.console_lines import read_line
    from hw.serial_link import LineBuffer
    master, path = pty
    with open_serial(path, timeout=2) as port:
        lines = LineBuffer(port)
        os.write(master, b"version\rstate\r")
        assert read_line(lines) == (b"version", False)
        assert read_line(lines) == (b"state", False)
        os.write(master, b"help\r")
        assert read_line(lines) == (b"help", False)
        os.write(master, b"\nlog\r\n")
        assert read_line(lines) == (b"log", False)


def test_a_reply_ends_as_its_request_did_so_a_terminal_shows_it_at_the_line_start(pty: tuple[int, str]) -> None:
    """A terminal in raw mode (screen, picocom, PuTTY) moves down on LF without going back to the
    first column: replies ending in LF alone came out as a staircase, each starting where the last
    one ended. The device's serial reader now answers a request that ended with CR (alone or in
    CRLF) with CRLF; one that ended with LF with LF, byte for byte as before."""
    import queue
    import threading

    from firmware.serial_reader import serial_reader
    from hw.serial_link import SerialLink
    master, path = pty
    link = SerialLink(path, port=open_serial(path), reopen=False)
    events: queue.Queue = queue.Queue()
    threading.Thread(target=serial_reader, args=(link, events), daemon=True).start()
    for sent, ending in ((b"version\r", b"\r\n"), (b"state\n", b"\n"), (b"help\r\n", b"\r\n"), (b"log\n", b"\n")):
        os.write(master, sent)
        _, raw, _, reply = events.get(timeout=10)
        assert raw == sent.rstrip(b"\r\n")
        reply(b'{"ok":true}\n')
        got = b""
        while not got.endswith(b"\n"):
            got += os.read(master, 64)
        assert got == b'{"ok":true}' + ending, sent


def test_line_buffer_says_whether_the_last_line_ended_with_cr() -> None:
    from firmware.console_lines import read_line
    from hw.serial_link import LineBuffer
    lines = LineBuffer(ArrivingPort(b"a\rb\nc\r\nd\r", b"\ne", b"\n" + b"x" * 5000 + b"\r\n"))
    ends = []
    while (got := read_line(lines)) is not None:
        ends.append((got[0][:1], lines.ended_by_cr))
    assert ends == [(b"a", True), (b"b", False), (b"c", True), (b"d", True), (b"e", False), (b"", True)]


def test_a_line_the_device_sends_of_itself_ends_as_the_last_request_did(pty: tuple[int, str]) -> None:
    """History → Send puts a line on the link that answers no request (console.serial_out is
    SerialLink.send): it ends with CRLF while the peer's last request ended with CR (a terminal,
    which drew it as one step of a staircase), with LF otherwise."""
    from firmware.console_lines import read_line
    from hw.serial_link import SerialLink
    master, path = pty
    link = SerialLink(path, port=open_serial(path), reopen=False)
    for sent, ending in ((b"version\r", b"\r\n"), (b"state\n", b"\n")):
        os.write(master, sent)
        lines = link.wait()
        assert lines is not None and read_line(lines) == (sent.rstrip(b"\r\n"), False)
        link.send(b'{"game":"bag"}\n')
        got = b""
        while not got.endswith(b"\n"):
            got += os.read(master, 64)
        assert got == b'{"game":"bag"}' + ending, sent




@pytest.mark.parametrize("locale,said,note", [
    ("uk_UA.UTF-8", "консоль на loop:// готова до роботи", "«settings language=uk» вибере цю мову"),
    ("ru_RU.UTF-8", "консоль на loop:// готова к работе", "«settings language=ru» выберет этот язык"),
    ("C.UTF-8", "the console on loop:// is ready", None),
])
def test_the_serial_console_on_a_new_device_says_its_replies_are_english_until_a_language_is_chosen(
        monkeypatch, tmp_path, capsys, locale, said, note) -> None:
    """Before a language is stored the serial port's first line speaks the locale's language, as the
    terminal's greeting does; it said so without the terminal's warning that the replies stay in
    English (PROTOCOL.md) until ``settings language=`` — a Ukrainian then read English replies."""
    from firmware import console as C
    from firmware.i18n import set_language
    monkeypatch.setenv("LANG", locale)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    port = open_serial("loop://", timeout=1)
    _hangs_up_on_flush(port)
    port.write(b"version\n")
    monkeypatch.setattr("hw.serial_link.open_serial", lambda name, baud: port)
    try:
        assert C.run_console(str(tmp_path / "s"), serial_port="loop://", baud=9600) == 0
    finally:
        set_language("en")
    first = capsys.readouterr().err.splitlines()[0]
    assert said in first, first
    if note is None:
        assert "settings language" not in first, first
    else:
        assert note in first, first


# -- `legatus console --serial` and stop signals ---------------------------------------------------
SLOW_COMMIT = """
import contextlib, os, sys, time
import firmware.store.connection as connection
SAVING = os.environ["LEGATUS_TEST_SAVING"]
_transaction = connection.Connection.transaction


@contextlib.contextmanager
def _slow(self, *args, **kwargs):     # each save: past its commit point, then a slow card's last syncs
    with _transaction(self, *args, **kwargs) as db:
        yield db
    open(SAVING, "w").close()
    time.sleep(2)
    os.unlink(SAVING)


connection.Connection.transaction = _slow
from firmware.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_mid_save_on_the_serial_console_answers_the_request_first(tmp_path, signum: str) -> None:
    """`legatus console --serial PORT` stopped by Ctrl-C or `kill` (SIGTERM) in the middle of a save:
    SIGINT raised KeyboardInterrupt past the save's commit point and SIGTERM ended the process there,
    so the draw was kept on the card but never answered (a client that asks again draws twice from a
    hidden bag). As the device does, it now answers the request, then stops (exit 0, the log's stop
    line); the next start resumes exactly what the answer said."""
    import json
    import select
    import signal
    import termios
    import tty

    from tests.conftest import ROOT, run_console
    state, saving = tmp_path / "state", tmp_path / "saving"
    master, slave = os.openpty()
    tty.setraw(slave)
    attrs = termios.tcgetattr(master)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(master, termios.TCSANOW, attrs)
    proc = subprocess.Popen([sys.executable, "-c", SLOW_COMMIT, "console", "--state-dir", str(state),
                             "--serial", os.ttyname(slave)], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "LEGATUS_TEST_SAVING": str(saving)})
    got = b""

    def reply(timeout: float) -> dict[str, Any] | None:
        nonlocal got
        end = time.monotonic() + timeout
        while b"\n" not in got and time.monotonic() < end:
            if select.select([master], [], [], 0.1)[0]:
                got += os.read(master, 65536)
        if b"\n" not in got:
            return None
        line, _, got = got.partition(b"\n")
        return json.loads(line)

    try:
        assert proc.stderr is not None and b"is ready" in proc.stderr.readline()     # (the port opened: not before)
        os.write(master, b"new bag items=gold*3,silver*3 seed=4\n")
        assert (started := reply(30)) is not None and started["ok"], started
        os.write(master, b"draw\n")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not saving.exists():
            time.sleep(0.01)
        assert saving.exists(), "the draw's save was not seen"
        proc.send_signal(getattr(signal, signum))                  # in the middle of the draw's save
        drawn = reply(15)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err.decode()
    assert drawn is not None and drawn["ok"], "the draw kept on the card was never answered"
    assert b"Traceback" not in err
    text = (state / "legatus.log").read_text()
    assert "stop: legatus console ended normally" in text and f"console: stopped by {signum}" in text
    assert run_console(state, ["state"])[0]["state"] == drawn["state"]          # resumed exactly


def test_sigterm_while_the_serial_console_waits_for_a_line_ends_it_cleanly(pty: tuple[int, str], tmp_path) -> None:
    """`systemctl stop`/`kill` while the serial console waits for a line: SIGTERM ended the process
    with no stop line in the log (the next start took it for a crash); now it is an orderly end."""
    import signal

    from tests.conftest import ROOT
    _master, port = pty
    state = tmp_path / "state"
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state),
                             "--serial", port], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stderr is not None and b"is ready" in proc.stderr.readline()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()
    assert "stop: legatus console ended normally" in (state / "legatus.log").read_text()
