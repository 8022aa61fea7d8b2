"""pyserial adapter: open the console's serial port (UART, USB gadget or URL).

``serial`` is imported inside :func:`open_serial` so importing this module is
cheap. The returned object is a binary file: ``readline(n)``, ``write(bytes)``
and ``flush()``. :class:`LineBuffer` reads its lines a chunk at a time (pyserial's ``readline``
costs a system call per byte); :class:`SerialLink` is the device's port that comes back after a
hang-up.
"""
from __future__ import annotations

import errno
import logging
import re
from typing import TYPE_CHECKING, Any

from engine.text import Msg

if TYPE_CHECKING:             # (queue and threading: imported by SerialLink, not by `legatus console`'s
    import queue              # start, which reads stdin through LineBuffer)
    import threading

    import serial

DEFAULT_BAUD = 115200
BAUD_RATES = (50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115200,
              230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000, 2500000, 3000000,
              3500000, 4000000)
"""The speeds ``--baud`` takes: pyserial's standard rates (``serial.SerialBase.BAUDRATES``, without
pyserial's import at every start). 0 hangs a tty's line up; pyserial refused a negative one only when
the port opened (the device tried again for ever); and Linux opens any other (``11520`` typed for
``115200``) at a speed no terminal is set to: garbage both ways, and no word said."""
OUT_LINES = 8              # answers waiting to be written before the reader stops taking requests
log = logging.getLogger(__name__)


def _link_errors() -> tuple[type[BaseException], ...]:
    """What a read, write or flush raises when the link goes away: pyserial's SerialException
    (an OSError), ValueError on a closed port, and termios.error, which pyserial's ``flush``
    (tcdrain) lets through on a hung-up tty and which is not an OSError."""
    try:
        import termios
    except ImportError:              # not POSIX: pyserial has no termios path there
        return (OSError, ValueError)
    return (OSError, ValueError, termios.error)


LINK_ERRORS = _link_errors()


class SerialError(Exception):
    """The serial port cannot be opened; ``port`` names it and the message (a
    :class:`engine.text.Msg`, ``args[0]``: said in the player's language by ``legatus console``,
    in English in the log) says what to do, the system's detail as a value inside the sentence."""

    def __init__(self, port: str, message: Msg) -> None:
        super().__init__(message)
        self.port = port


def open_serial(port: str, baud: int = DEFAULT_BAUD, timeout: float | None = None) -> serial.Serial:
    """Open ``port`` (a device path such as ``/dev/ttyGS0`` or a pyserial URL such as ``loop://``).

    ``baud`` is in bit/s; ``timeout`` is the read timeout in seconds (None:
    block until the line or byte count is complete). Device ports are locked
    exclusively. Raises SerialError if the port is missing, not permitted, in
    use, or the URL or settings are invalid.
    """
    import serial

    if baud == 0:              # B0 on a tty means "hang up": the port would open and never hear a thing
        raise SerialError(port, Msg("cannot open serial port {} at 0 baud (that hangs the line up); check the port "
                                    "name and baud rate", repr(port)))
    try:
        return _opened_keeping_input(serial.serial_for_url(port, baudrate=baud, timeout=timeout, exclusive=True,
                                                           do_not_open=True))
    except serial.SerialException as e:
        raise SerialError(port, _explain(port, e)) from e
    except (ValueError, OverflowError) as e:  # unknown URL scheme, bad baud rate or timeout (too big for termios)
        raise SerialError(port, Msg("cannot open serial port {} at {} baud: {}; check the port name and baud rate",
                                    repr(port), baud, str(e))) from e


def _opened_keeping_input(port: serial.Serial) -> serial.Serial:
    """``port`` opened without emptying its input first. pyserial's ``open`` discards what the
    kernel already holds for the port (``tcflush``; socket:// reads it away): the lines a host sent
    before the device opened it — a pty's, the USB gadget's (the host's writes wait while the port
    is closed and flow in as it opens), a socket's — were lost without a word, and the host waited
    for answers that never came. They are read and answered now. (What a closed UART received is
    not there to keep: the kernel does not listen on a closed port; see docs/hardware.md.)"""
    skip = {name: lambda: None for name in ("reset_input_buffer", "_reset_input_buffer")}
    vars(port).update(skip)            # (on the object: its class's own are used again once it is open)
    try:
        port.open()
    finally:
        for name in skip:
            vars(port).pop(name, None)
    import time
    vars(port)["opened_at"] = time.monotonic()     # (firmware/serial_opened.py: the first reply after it)
    return port


def adapter_port(port: str) -> bool:
    """Whether ``port`` names a USB serial adapter's port (FTDI, CP210x, CH340: ttyUSB; CDC: ttyACM;
    or its /dev/serial/by-id or by-path name): it comes and goes with the adapter's cable."""
    parts = port.rstrip("/").split("/")
    return parts[-1].startswith(("ttyUSB", "ttyACM")) or (len(parts) > 1 and parts[-2] in ("by-id", "by-path"))


def _explain(port: str, e: OSError) -> Msg:
    code = e.errno
    if code == errno.ENOENT and adapter_port(port):     # (the gadget's and the UART's set-up said nothing to it)
        return Msg("serial port {} is not there: plug the USB serial adapter in (the device opens it by itself "
                   "as soon as it is there)", port)
    if code == errno.ENOENT:
        return Msg("serial port {} does not exist: check the port name (ls /dev/serial0 /dev/ttyGS0); /dev/ttyGS0 "
                   "needs the USB gadget (dtoverlay=dwc2 and modules-load=dwc2,g_serial)", port)
    if code in (errno.EACCES, errno.EPERM):        # (the fix: a new login, or the service restarted)
        from hw.service import permission_denied
        return permission_denied(port, "dialout")
    if code in (errno.EBUSY, errno.EAGAIN):
        return Msg("serial port {} is in use by another program (is legatus already running?)", port)
    return Msg("cannot open serial port {}: {}; check the port name", port, str(e))


class LineBuffer:
    """``readline(limit)`` over a pyserial port (or a buffered stream), reading whatever has arrived
    in one call.

    pyserial's own ``readline`` (io.IOBase's) reads one byte per system call, so an over-long
    line of 1 MB took ~50 s to skip. This reads ``in_waiting`` bytes (at least one, at most
    ``chunk``; a stream with ``read1``, such as stdin, what one read gives) at a time and keeps
    what follows a line for the next call, at a cost per chunk, not per byte. A line ends at LF,
    CRLF or a bare CR (the Enter of `screen`, a bare `picocom`, PuTTY), and is returned with its
    ending; a CR that ends what has arrived ends its line at once (a terminal sends nothing more
    until the person types again), and an LF that then comes first belongs to that CR (one CRLF,
    never an extra empty line). As the port's ``readline``: ``limit`` cuts a longer line, and a
    read that returns nothing ends the line early (a timeout). Only ``readline`` is provided
    (what firmware.console_lines.read_line uses); ``ended_by_cr`` says whether the last line ended with
    CR (alone or in CRLF): its reply then ends with CRLF (see :func:`reply_end`)."""

    def __init__(self, port: Any, chunk: int = 65536) -> None:
        self.port = port
        self.chunk = chunk
        self._buf = bytearray()
        self._after_cr = False     # the last line ended in a CR: an LF that comes next is its own
        self.ended_by_cr = False   # the last line returned ended with CR (alone or in CRLF)

    def readline(self, limit: int = -1) -> bytes:
        while True:
            if self._after_cr and self._buf:
                self._after_cr = False
                if self._buf[0] == 0x0A:
                    del self._buf[0]
                    continue
            end = len(self._buf) if limit < 0 else min(limit, len(self._buf))
            m = _LINE_END.search(self._buf, 0, end)
            if m is not None:
                i = m.start()
                if self._buf[i] == 0x0A:
                    return self._take(i + 1)
                if i + 1 < end and self._buf[i + 1] == 0x0A:
                    return self._take(i + 2)
                if i + 1 < len(self._buf) or not self._waiting():
                    line = self._take(i + 1)     # a bare CR, or one whose LF is not here (yet)
                    self._after_cr = True
                    return line
            elif 0 <= limit <= len(self._buf):
                return self._take(limit)
            data = self._read()
            if not data:
                return self._take(len(self._buf))
            self._buf += data

    def _waiting(self) -> int:
        return int(getattr(self.port, "in_waiting", 0) or 0)

    def _read(self) -> bytes:
        read1 = getattr(self.port, "read1", None)
        if read1 is not None:          # a buffered stream (stdin): what one read of it gives
            got: bytes = read1(self.chunk)
            return got
        data: bytes = self.port.read(max(1, min(self._waiting(), self.chunk)))
        return data

    def _take(self, n: int) -> bytes:
        out = bytes(self._buf[:n])
        del self._buf[:n]
        if out.endswith((b"\r", b"\n")):
            self.ended_by_cr = out.endswith((b"\r", b"\r\n"))
        return out


_LINE_END = re.compile(rb"[\r\n]")


def reply_end(data: bytes, crlf: bool) -> bytes:
    """A reply line ``data`` (ending in LF) as it is written to whoever sent the request: with CRLF
    if the request ended with CR (a terminal in raw mode goes back to the first column only on CR:
    LF alone drew the replies as a staircase), else as it is."""
    return data[:-1] + b"\r\n" if crlf and data.endswith(b"\n") and not data.endswith(b"\r\n") else data


class SerialLink:
    """The device's serial port as a link that can come and go (a USB cable pulled and put back).

    ``wait()`` returns a :class:`LineBuffer` on the open port, opening it first if needed and
    retrying every ``retry`` seconds while it cannot be opened; ``lost(error)`` closes it after a
    hang-up so that the next ``wait()`` opens it again. ``write(data)`` sends and flushes, or
    raises OSError (ENOTCONN) while the port is closed. ``port`` is an already open port to start
    with; ``reopen=False`` makes ``wait()`` return None once that port is lost (a port object the
    link did not open itself). ``open_port``, ``sleep`` and ``clock`` are for tests. The reader thread calls
    ``wait``/``lost``; any thread may call ``write``.

    ``send`` is ``write`` for the device's main loop: it queues the answer for the link's writer
    thread and returns at once, so a peer that stops reading (a suspended terminal program, a USB
    host that no longer reads) never freezes the device; the reader calls ``wait_room`` before
    each request, so such a peer is not read from either while ``OUT_LINES`` answers wait (its own
    writes wait, as flow control): nothing is dropped and the queue stays small.
    """

    def __init__(self, path: str, baud: int = DEFAULT_BAUD, port: Any = None, reopen: bool = True,
                 retry: float = 2.0, open_port: Any = None, sleep: Any = None, clock: Any = None) -> None:
        import queue
        import threading
        import time
        self.path, self.baud, self.retry, self.reopen = path, baud, retry, reopen
        self._open = open_port or (lambda: open_serial(path, baud))
        self._sleep = sleep or time.sleep
        self._port = port
        self._lines = None if port is None else LineBuffer(port)
        self._lock = threading.Lock()
        self._error: str | None = None
        self._clock = clock or time.monotonic
        self._next_open = 0.0
        self._down = False         # a hang-up was logged and no line has come since
        self._denials = 0          # permission denied in a row on a port that opened before (udev not done)
        self.opened = 0 if port is None else 1
        self.opened_at: float | None = None     # (monotonic) when the port was last opened here
        self._out: queue.Queue[tuple[bytes, int | None]] = queue.Queue()
        self._room = threading.Condition()
        self._waiting = 0          # answers sent and not yet written (or failed)
        self._writer: threading.Thread | None = None

    @property
    def connected(self) -> bool:
        return self._port is not None

    def clock(self) -> float:
        """The link's clock (monotonic): :attr:`opened_at` is one of its readings."""
        return float(self._clock())

    def wait(self) -> LineBuffer | None:
        while self._lines is None:
            if not self.reopen and self.opened:
                return None
            pause = self._next_open - self._clock()
            if pause > 0:          # not at once after a hang-up: a port that hangs up again at
                self._sleep(pause)  # once would otherwise be re-opened in a tight loop
            try:
                port = self._open()
            except Exception as e:  # noqa: BLE001 - SerialError mostly: the cable is not back yet
                message = str(e) or type(e).__name__
                if self.opened and _denied(e) and self._denials < UDEV_TRIES:
                    # It opened before, with the groups this program still has: the adapter is back and
                    # its new node is root's until udev gives it its group (dialout), a moment later. The
                    # log said "permission denied: add the user to dialout, restart the service" then,
                    # a fix for nothing, at one replug in a few dozen; said so only if it stays denied.
                    if not self._denials:
                        log.info("serial: %s is back but not usable yet (%s): udev gives it its group a moment "
                                 "after it appears; trying again", self.path, link_error_words(_denied(e) or e))
                    self._denials += 1
                    self._sleep(self.retry)
                    continue
                self._denials = 0
                if message != self._error:      # (``said``: the simulator's notice of it, in the player's words)
                    log.warning("serial: %s (trying again every %g s)", message, self.retry, extra={"said": Msg(
                        "The serial port cannot be opened: {}. Legatus keeps trying.",
                        e.args[0] if isinstance(e, SerialError) else message)})
                    self._error = message
                self._sleep(self.retry)
                continue
            self._denials = 0
            with self._lock:
                self._port, self._lines = port, LineBuffer(port)
                self.opened_at = self._clock()
            if not self.opened:
                log.info("serial: console on %s at %d baud", self.path, self.baud)
            self.opened += 1
            self._error = None
        return self._lines

    def alive(self) -> None:
        """A line arrived: the link works (logged once after a hang-up)."""
        if self._down:
            self._down = False
            log.info("serial: %s works again", self.path)

    def lost(self, error: BaseException) -> None:
        """The link hung up: close the port (the next :meth:`wait` opens it again, after
        ``retry`` seconds). Logged once until a line arrives again."""
        if not self._down:
            detail = error.args[1] if len(error.args) == 2 and isinstance(error.args[1], str) else str(error)
            said = (Msg("The serial link closed ({}); the device goes on without it and opens it again when it "
                        "can.", detail) if self.reopen else
                    Msg("The serial link closed ({}); the device goes on without it.", detail))
            log.warning("serial: the link closed (%s); the device goes on without it%s", error,
                        " and opens it again when it can" if self.reopen else "", extra={"said": said})
            self._down = True
        self._next_open = self._clock() + self.retry
        with self._lock:
            port, self._port, self._lines = self._port, None, None
        if port is not None:
            try:
                port.close()
            except Exception as e:  # noqa: BLE001 - closing a hung-up port may fail too
                log.debug("serial: closing the port failed (%s)", e)

    def write(self, data: bytes, opening: int | None = None) -> None:
        """Send ``data``; ``opening``: the value of :attr:`opened` when the request being answered
        was read — if the port was opened again since (the cable pulled and put back), the answer
        is not sent to whoever is connected now (it would be a reply to a request they never
        sent): OSError (ENOTCONN) as while the link is down."""
        with self._lock:
            port = self._port
            if port is None:
                raise OSError(errno.ENOTCONN, f"the serial link {self.path} is not connected")
            if opening is not None and opening != self.opened:
                raise OSError(errno.ENOTCONN, f"the serial link {self.path} that sent the request was "
                                              "closed; the answer is not sent on the new connection")
            port.write(data)
            port.flush()

    def admit(self) -> None:
        """A request was read that will be answered (by a :meth:`send` with ``admitted``): it
        counts as an answer waiting from now on (see :meth:`wait_room`)."""
        with self._room:
            self._waiting += 1

    def send(self, data: bytes, opening: int | None = None, admitted: bool = False, crlf: bool | None = None) -> None:
        """:meth:`write` from the writer thread: returns at once (see the class). ``admitted``:
        the answer to a request counted by :meth:`admit`; ``crlf``: that request ended with CR
        (:func:`reply_end`); None (a line that answers no request, History's Send): as the last
        request read on the link ended. Raises OSError (ENOTCONN) while the link is down; a
        failure at the write itself is logged there."""
        lines = self._lines
        data = reply_end(data, crlf if crlf is not None else lines is not None and lines.ended_by_cr)
        if self._port is None:
            if admitted:
                self._written()
            raise OSError(errno.ENOTCONN, f"the serial link {self.path} is not connected")
        with self._room:
            if not admitted:
                self._waiting += 1
            if self._writer is None:
                import threading
                self._writer = threading.Thread(target=self._write_loop, daemon=True, name="serial-out")
                self._writer.start()
        self._out.put((data, opening))

    def wait_room(self, limit: int = OUT_LINES) -> None:
        """Wait (the reader thread) while ``limit`` or more admitted requests or sent answers are
        not written yet."""
        with self._room:
            self._room.wait_for(lambda: self._waiting < limit)

    def _written(self) -> None:
        with self._room:
            self._waiting -= 1
            self._room.notify_all()

    def _write_loop(self) -> None:
        while True:
            data, opening = self._out.get()
            try:
                self.write(data, opening)
            except LINK_ERRORS as e:      # the other end hung up: the action itself is saved
                log.warning("could not answer over the serial link (%s)", e, extra={"said": _unanswered(e)})
            finally:
                self._written()


def _unanswered(e: BaseException) -> Msg:
    """A reply the link did not take, in the player's words (the simulator's notice of it: the log's
    English line was said there inside the translated «Warning, written to the log»)."""
    if isinstance(e, OSError) and e.errno == errno.ENOTCONN:
        return Msg("A reply over the serial link was not sent: the connection that asked for it closed "
                   "before it was ready (not sent to the one opened since). What the request did stands.")
    return Msg("A reply over the serial link was not sent ({}): the other end did not take it. What the "
               "request did stands.", link_error_words(e))


UDEV_TRIES = 3
"""Opens in a row refused for permission on a port that opened before that are taken for udev not having
given the new node its group yet (``retry`` s apart): past them, the refusal is said with its fix."""


def _denied(e: BaseException) -> BaseException | None:
    """The permission error (EACCES, EPERM) behind ``e`` (a SerialError's cause), or None."""
    seen: BaseException | None = e
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in (errno.EACCES, errno.EPERM):
            return seen
        seen = seen.__cause__
    return None


def link_error_words(e: BaseException) -> str:
    """The system's words for a link error, as a value in a sentence: ``Input/output error``, not
    termios.error's ``(5, 'Input/output error')``."""
    args = e.args
    if len(args) == 2 and isinstance(args[0], int) and isinstance(args[1], str):    # OSError, termios.error
        return args[1]
    return str(e) or type(e).__name__
