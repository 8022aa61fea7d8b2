"""The first reply on a serial port the program has just opened says what may have been lost.

Lines a host sends while the port is closed (the device still starting, the cable out, the port
being opened again after a hang-up) reach nobody on a UART (a closed port does not listen), and the
line being sent as it opens arrives cut: the host waited for answers that never came, or got one to
a line's tail («Unknown command 'w'») with no word of why. What the kernel holds is kept now
(hw.serial_link opens the port without emptying it); what it could not hold is gone, and only the
host can send it again. So the reply to the first line read within :data:`NEAR` seconds of an open
carries ``opened``: a sentence in the reply's language saying so and what to do (docs/protocol.md).
A line that comes later was sent to an open port: its reply is as it always was."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from engine.text import Msg

NEAR = 1.0   # s: a first line read this soon after the port opened was (or began) on its way before it


def opened_note() -> str:
    """The ``opened`` field's sentence, in the language the replies speak now."""
    from firmware.i18n import say
    return say(Msg("The device had just opened its serial port when this line came: a line sent before it may "
                   "have been lost, in whole or in part. Send again each line that got no reply; 'state' says "
                   "where the game stands."))


def with_opened(data: bytes) -> bytes:
    """The reply line ``data`` (one JSON object and its line end) with the ``opened`` field; as it
    is if it is not one (never fails: the reply matters more than the note)."""
    body = data.rstrip(b"\r\n")
    try:
        reply = json.loads(body)
    except ValueError:
        return data
    if not isinstance(reply, dict) or "opened" in reply or not body.endswith(b"}"):
        return data
    note = json.dumps(opened_note(), ensure_ascii=False).encode("utf-8")     # (the reply's own bytes kept)
    return body[:-1] + (b',"opened":' if reply else b'"opened":') + note + b"}" + data[len(body):]


class FirstLine:
    """Whether a line read is the first on this opening of the port, and came within :data:`NEAR`
    seconds of it (``opening``: the port's open count, hw.serial_link.SerialLink.opened)."""

    def __init__(self) -> None:
        self._seen: int | None = None

    def near(self, opening: int, opened_at: float | None, now: float) -> bool:
        first, self._seen = opening != self._seen, opening
        return first and opened_at is not None and now - opened_at <= NEAR


class OpenedLink:
    """``legatus console --serial``'s port as ``serve`` reads and writes it (``lines``: its
    hw.serial_link.LineBuffer): the first reply, to a line read within :data:`NEAR` seconds of the
    port's opening (``port.opened_at``, set by hw.serial_link.open_serial), carries ``opened``."""

    def __init__(self, lines: Any, port: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.lines, self.port, self.clock = lines, port, clock
        self.opened_at: float | None = getattr(port, "opened_at", None)
        self._read_at: float | None = None
        self._first = FirstLine()

    @property
    def ended_by_cr(self) -> bool:
        return bool(self.lines.ended_by_cr)

    def readline(self, limit: int = -1) -> bytes:
        line: bytes = self.lines.readline(limit)
        self._read_at = self.clock()
        return line

    def write(self, data: bytes) -> None:
        if self._read_at is not None and self._first.near(1, self.opened_at, self._read_at):
            data = with_opened(data)
        self.port.write(data)

    def flush(self) -> None:
        self.port.flush()
