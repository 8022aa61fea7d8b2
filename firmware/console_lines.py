"""Request lines as they come off a byte stream (shared/PROTOCOL.md, framing): one line of at most
``MAX_LINE`` bytes (:func:`read_line`), the terminal's editing keys applied (:func:`edited`), and
whether it gets a response at all (:func:`answered`: not a blank line, not a comment). What a line
asks is :class:`firmware.console.Console`'s."""
from __future__ import annotations

import logging
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

log = logging.getLogger(__name__)
MAX_LINE = 4096
_EDITS = re.compile(rb"[\x03\x08\x15\x7f]")      # the terminal's editing keys in a line (edited())


def answered(raw: bytes) -> bool:
    """Whether a raw request line gets a response: empty lines, lines of spaces/tabs and lines
    whose first non-blank byte is ``#`` get none (checked on the bytes: a comment need not be
    UTF-8)."""
    bare = raw.strip(b" \t\r\n")
    return bool(bare) and not bare.startswith(b"#")


class LineSource(Protocol):
    """What :func:`read_line` reads: a binary stream's ``readline(limit)`` (a file, a serial port,
    hw.serial_link.LineBuffer)."""

    def readline(self, limit: int = -1, /) -> bytes: ...


def edited(body: bytes) -> bytes:
    """The line a person at a terminal sees: each Backspace (DEL, what most terminals send, or BS)
    erases the character before it (a whole UTF-8 character; in bytes that are no UTF-8, one byte);
    at the start of the line there is nothing to erase. Ctrl-U (a terminal's line kill) and Ctrl-C
    (a shell abandons the line) erase everything before them. (No request holds these bytes.)"""
    if not _EDITS.search(body):
        return body
    out = bytearray()
    for byte in body:
        if byte in (0x15, 0x03):
            out.clear()
            continue
        if byte not in (0x7F, 0x08):
            out.append(byte)
            continue
        if not out:
            continue
        tail = 0                           # continuation bytes of the last character
        while tail < min(3, len(out) - 1) and 0x80 <= out[-1 - tail] < 0xC0:
            tail += 1
        del out[-1 - tail if 0xC0 <= out[-1 - tail] < 0xF8 else -1:]
    return bytes(out)


# Every space of Unicode's Zs category but the ASCII one: the no-break space a word processor, a
# messenger or a Russian text's typography puts after a short word (and macOS types for Option+Space),
# the thin, the figure and the ideographic (a full-width IME's) spaces.
_SPACES = {c: " " for c in (0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000)}


def plain_spaces(line: str) -> str:
    """``line`` with every other space character as the ASCII space. A request copied from a web
    page or a chat ('roll\u00a01d6') looked right and was the unknown command 'roll 1d6'
    (did you mean 'roll'?): the command word ends at a space; the words after it were split at
    any space already, so no request meant anything else with one. Run, journaled and answered
    as if typed with spaces (names and shares take no such character)."""
    return line.translate(_SPACES) if not line.isascii() else line


BOM = b"\xef\xbb\xbf"


def unsigned(body: bytes) -> bytes:
    """A line without the UTF-8 byte-order mark it may start with: a script saved as "UTF-8" by
    Windows Notepad or PowerShell (``Out-File``/``Set-Content -Encoding utf8``) starts with one,
    and ``cat a.txt b.txt`` puts the next file's at the start of a line. Kept, it made the first
    request the unknown command '\ufeffnew' ("did you mean 'new'?"), and the script's next lines
    ran on whatever session the device held."""
    return body[len(BOM):] if body.startswith(BOM) else body


def read_line(stream: LineSource) -> tuple[bytes, bool] | None:
    """Read one request line of at most MAX_LINE bytes (its ending excluded: LF, CRLF, or a bare CR
    where ``stream`` ends lines there, as hw.serial_link.LineBuffer does).

    Returns ``(line, too_long)``, the line without a UTF-8 byte-order mark at its start
    (:func:`unsigned`); an overlong line is consumed to its end and returned empty with
    ``too_long`` set. None at end of input.
    """
    line = stream.readline(MAX_LINE + 2)
    if not line:
        return None
    if line.endswith((b"\n", b"\r")):
        body = line[:-2] if line.endswith(b"\r\n") else line[:-1]
        return (b"", True) if len(body) > MAX_LINE else (unsigned(body), False)
    if len(line) <= MAX_LINE:
        return unsigned(line), False  # last line without a newline
    while True:  # skip the rest of the overlong line
        more = stream.readline(65536)
        if not more or more.endswith((b"\n", b"\r")):
            break
    return b"", True


class Stops:
    """The handler of SIGINT, SIGTERM and SIGHUP while ``legatus console`` serves (firmware.console.serve):
    waiting for a line, the console stops at once (KeyboardInterrupt: nothing is in hand); answering
    one, it stops once the reply is written. SIGINT raised KeyboardInterrupt wherever it came, in a
    save past its commit point too, and SIGTERM ended the process there: the action was on the card
    but never answered (a client that asks again draws twice). The device's loop does the same
    (firmware/device.py: a signal is a ``quit`` event, taken between two events)."""

    SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")

    def __init__(self) -> None:
        self.busy = False               # a request is being answered
        self.signum = 0                 # the stop signal that came (0: none)
        self._was: dict[int, Any] = {}

    def __call__(self, signum: int, frame: object) -> None:
        self.signum = signum
        if not self.busy:
            raise KeyboardInterrupt

    @contextmanager
    def answering(self) -> Iterator[None]:
        """While a request is answered (read, acted on, its reply written): a stop signal waits."""
        self.busy = True
        try:
            yield
        finally:
            self.busy = False

    def __enter__(self) -> Stops:
        for name in self.SIGNALS:
            signum = getattr(signal, name, None)
            if signum is not None:
                self._was[signum] = signal.signal(signum, self)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, was in self._was.items():
            signal.signal(signum, was if was is not None else signal.SIG_DFL)
        if self.signum:
            log.info("console: stopped by %s", signal.Signals(self.signum).name)
