"""Is the wall clock true? The kernel's NTP state, read the way systemd's ``timedatectl`` does.

A Raspberry Pi has no battery-backed clock. At boot Raspberry Pi OS sets the time from
``fake-hwclock`` (the time of the last shutdown, saved in ``/etc/fake-hwclock.data``) until
systemd-timesyncd reaches a time server over the network; without a network the clock stays
wrong all session. :func:`synchronised` asks the kernel (``adjtimex``: ``TIME_ERROR`` means "not
synchronised", which is also what ``timedatectl``'s ``NTPSynchronized`` reports), so the device
can mark the times it records meanwhile (History) instead of showing them as true.
"""
from __future__ import annotations

import ctypes
import datetime as _dt
import os
import time
from pathlib import Path
from typing import NamedTuple

TIME_ERROR = 5          # adjtimex(2): "the system clock is not synchronized to a reliable server"
TIMESYNC_FLAG = Path("/run/systemd/timesync/synchronized")   # systemd-timesyncd, once synchronised
FAKE_HWCLOCK = Path("/etc/fake-hwclock.data")
RTC = Path("/sys/class/rtc/rtc0")

EARLIEST = _dt.datetime(2025, 1, 1, tzinfo=_dt.timezone.utc)
"""No time before this is a true one: Legatus did not exist yet. A Pi's clock says such a time
when nothing set it — 1970 with no ``fake-hwclock`` data, or the day its system image was built
(a fresh Raspberry Pi OS card starts at it) — even where :func:`synchronised` cannot tell."""

_adjtimex: object | None = None


def plausible(when: _dt.datetime) -> bool:
    """Whether ``when`` (a time zone aware time) can be a true time: not before :data:`EARLIEST`."""
    return when >= EARLIEST


def wall_plausible() -> bool:
    """Whether the wall clock now says a time that can be true (:func:`plausible`); a clock
    before it is not set, whatever the kernel's NTP state says or cannot say."""
    return time.time() >= EARLIEST.timestamp()


def synchronised() -> bool | None:
    """True if the kernel's clock is synchronised (NTP), or systemd-timesyncd set it since boot, or
    a real-time clock keeps it (:func:`rtc_agrees`); False if not, None if it cannot tell (not
    Linux, or the call failed).
    Cheap (one system call; a look at the RTC when the kernel says no); never raises."""
    global _adjtimex
    try:
        if _adjtimex is None:
            # the symbols already loaded in this process (libc among them): no ``find_library``,
            # which starts ``ldconfig -p`` (seconds on a Zero 2 W, and a stray writer of stdout)
            libc = ctypes.CDLL(None, use_errno=True)
            _adjtimex = libc.adjtimex
        buf = ctypes.create_string_buffer(512)    # struct timex, modes = 0: read only
        state = _adjtimex(buf)  # type: ignore[operator]
    except (OSError, AttributeError, TypeError):
        return None
    if state < 0:
        return None
    # The kernel says "not synchronised" again some 9 hours after NTP was last heard (its maximum
    # error grows by 500 ppm a second past 16 s): a Pi set by timesyncd at home and played on at a
    # table with no network that long. Set since boot (timesyncd's flag, in /run: gone at a reboot),
    # its clock is off by seconds at most.
    return bool(state != TIME_ERROR) or _exists(TIMESYNC_FLAG) or rtc_agrees()


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


RTC_TIME = RTC / "since_epoch"      # the real-time clock's time (UTC seconds), read from the chip
RTC_AGREES = 120.0                  # seconds the wall clock may be off the RTC's and still stand on it


def rtc_agrees(now: float | None = None) -> bool:
    """Whether a real-time clock (an RTC HAT, fitted as the doctor advises) says a time that can be
    true and the wall clock is within :data:`RTC_AGREES` s of it: the wall clock was set from it
    at boot and is as sure as it is, though the kernel says "not synchronised" with no network (it
    counts only NTP). An RTC never set (its battery out: 2000-01-01) or one the boot did not read
    (the wall clock elsewhere) does not count. Never raises."""
    try:
        rtc = int(RTC_TIME.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return False
    wall = time.time() if now is None else now
    return rtc >= EARLIEST.timestamp() and abs(rtc - wall) <= RTC_AGREES


class ClockState(NamedTuple):
    """What is known about the wall clock: ``synchronised`` (see :func:`synchronised`),
    ``timesyncd`` (systemd-timesyncd has said it is synchronised since boot), ``fake_hwclock``
    (a saved time restored at boot), ``rtc`` (a real-time clock is present). (A NamedTuple, not a
    dataclass: the log's start line asks this module at every start, `legatus console`'s too, whose
    first reply must not wait for dataclasses, inspect and ast: tests/test_console.py.)"""

    synchronised: bool | None
    timesyncd: bool
    fake_hwclock: bool
    rtc: bool


def state(root: Path = Path("/")) -> ClockState:
    """The clock's state (``root`` replaces ``/`` for the files, for tests); a clock that says a
    time before Legatus existed is not synchronised, whatever the kernel says or cannot say."""
    def there(p: Path) -> bool:
        return (root / p.relative_to("/")).exists()
    synced = (synchronised() if wall_plausible() else False) if root == Path("/") else None
    return ClockState(synchronised=synced,
                      timesyncd=there(TIMESYNC_FLAG), fake_hwclock=there(FAKE_HWCLOCK),
                      rtc=there(RTC) or os.path.exists(root / "dev" / "rtc0"))
