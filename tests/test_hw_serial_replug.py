"""A USB serial adapter pulled and put back: its new /dev/ttyUSB0 is made root's (devtmpfs) and given
its group, dialout, by udev a moment later. The link, opened again every 2 s, now and then came in
that moment: the log said "permission denied on /dev/ttyUSB0: add the service's user to the 'dialout'
group …, then restart the service" — a fix for nothing (it opened a moment later, with the groups it
had). A port that opened before is now tried again quietly a few times; a refusal that stays is said
with its fix as before."""
from __future__ import annotations

import errno
import logging
from typing import Any

import pytest
import serial

from hw.serial_link import SerialError, SerialLink, _explain


def refused(port: str) -> SerialError:
    """What open_serial raises for a node this user may not open (pyserial's own exception inside)."""
    cause = serial.SerialException(errno.EACCES, f"could not open port {port}: [Errno 13] Permission denied: "
                                                 f"'{port}'")
    error = SerialError(port, _explain(port, cause))
    error.__cause__ = cause
    return error


class Replugged:
    """The adapter's port: open, then (the cable pulled and put back) refused ``denied`` times, then
    open again."""

    def __init__(self, denied: int) -> None:
        self.denied = denied
        self.opens = 0

    def __call__(self) -> Any:
        self.opens += 1
        if self.opens == 1 or self.denied <= 0:
            return serial.serial_for_url("loop://", timeout=0)
        self.denied -= 1
        raise refused("/dev/ttyUSB0")


def replug(denied: int) -> tuple[SerialLink, Replugged]:
    port = Replugged(denied)
    link = SerialLink("/dev/ttyUSB0", open_port=port, retry=0.0, sleep=lambda s: None)
    assert link.wait() is not None and link.opened == 1
    link.lost(OSError(errno.EIO, "Input/output error"))         # the cable pulled
    return link, port


def test_a_replugged_adapter_caught_before_udev_gives_it_its_group_is_not_a_permission_problem(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hw.serial_link")
    link, port = replug(denied=1)
    assert link.wait() is not None and link.opened == 2
    said = [r for r in caplog.records if "dialout" in r.getMessage() or "usermod" in r.getMessage()]
    assert said == [], [r.getMessage() for r in said]
    assert any("is back but not usable yet" in r.getMessage() and r.levelno == logging.INFO for r in caplog.records)


def test_a_refusal_that_stays_is_said_with_its_fix(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hw.serial_link")
    link, port = replug(denied=5)
    assert link.wait() is not None and link.opened == 2
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "dialout" in r.getMessage()]
    assert len(warned) == 1 and "usermod -aG dialout" in warned[0], warned


def test_a_port_never_opened_is_refused_with_its_fix_at_once(caplog: pytest.LogCaptureFixture) -> None:
    """Never opened (the user not in dialout from the start): no waiting for udev, the fix at once."""
    caplog.set_level(logging.INFO, logger="hw.serial_link")
    tries = iter([refused("/dev/ttyUSB0"), serial.serial_for_url("loop://", timeout=0)])

    def open_port() -> Any:
        got = next(tries)
        if isinstance(got, Exception):
            raise got
        return got
    link = SerialLink("/dev/ttyUSB0", open_port=open_port, retry=0.0, sleep=lambda s: None)
    assert link.wait() is not None
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "dialout" in r.getMessage()]
    assert len(warned) == 1, warned
