"""The serial console's reader thread: request lines from ``--serial`` put on the device loop's
queue as ``("line", raw_bytes, too_long, reply)`` events (firmware/device.py), each answered over
the connection it came on."""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from firmware.console import Console

log = logging.getLogger("firmware.device")
Events = queue.Queue[tuple[Any, ...]]


def serial_reader(link: Any, events: Events) -> None:
    """Read request lines from ``link`` (hw.serial_link.SerialLink, or an open port) for ever:
    after a hang-up the port is opened again as soon as it can be (the cable is back)."""
    from firmware.console_lines import answered, read_line
    from firmware.serial_opened import FirstLine, with_opened
    from hw.serial_link import LINK_ERRORS, SerialLink
    if not isinstance(link, SerialLink):
        link = SerialLink(getattr(link, "port", None) or "?", port=link, reopen=False)

    def answer(opening: int, crlf: bool, near: bool) -> Callable[[bytes], None]:
        def reply(data: bytes) -> None:       # (crlf: the request ended with CR, a terminal's Enter)
            if near:                          # the first line, just after the port opened: what may be lost
                data = with_opened(data)
            try:
                link.send(data, opening, admitted=True, crlf=crlf)   # queued: the main loop never waits;
            except LINK_ERRORS as e:         # never to a connection opened after the request
                log.warning("could not answer over the serial link (%s)", e)
        return reply

    first = FirstLine()
    while True:
        reader = link.wait()
        if reader is None:                   # closed for good (a port that cannot be re-opened)
            return
        link.wait_room()                     # a peer that does not read its answers is not read either
        try:
            got = read_line(reader)
        except LINK_ERRORS as e:             # a hangup (serial.SerialException is an OSError)
            link.lost(e)
            continue
        if got is None:
            continue
        link.alive()
        if not got[1] and not answered(got[0]):
            continue                         # a blank line or a comment: no response, nothing to do
        link.admit()                         # its answer counts from now on (wait_room)
        near = first.near(link.opened, link.opened_at, link.clock())
        events.put(("line", got[0], got[1], answer(link.opened, reader.ended_by_cr, near)))


def start_serial(args: Any, console: Console, events: Events, link: Any = None) -> None:
    """Serve the console protocol on ``args.serial`` from a reader thread (``link``'s if it runs
    already); the port is opened again after a hang-up, and retried the same way until it opens."""
    from hw.serial_link import SerialLink
    if link is None:
        link = SerialLink(args.serial, args.baud)
        threading.Thread(target=serial_reader, args=(link, events), daemon=True, name="serial").start()
    console.serial_out = link.send           # History → Send over serial (queued, never blocks)
