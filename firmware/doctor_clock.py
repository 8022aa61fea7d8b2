"""The doctor's Clock row (``legatus doctor``, Settings → Hardware): whether the wall clock is set,
and how to set it where the doctor runs — a Raspberry Pi (a network once after boot, a real-time
clock) or another computer (the simulator on a laptop: its own network time)."""
from __future__ import annotations

from typing import Any

from engine.text import Msg

Row = tuple[str, Any, Msg | None]
"""A row's status, what was found and the fix (firmware.doctor.Check without its label)."""


def clock_row(clock: Any = None, pi: bool | None = None) -> Row:
    """The wall clock's row; ``pi``: whether this machine is a Raspberry Pi (default: its model
    says so). Away from one (the simulator on a laptop) the fix is this computer's clock, not a
    Pi's network or real-time clock."""
    from hw import clock as hwclock
    from hw.display import probe_hardware
    state = clock if clock is not None else hwclock.state()
    how = []
    if state.rtc:
        how.append("RTC")
    if state.fake_hwclock:
        how.append("fake-hwclock")
    tail = f" ({', '.join(how)})" if how else ""
    if state.synchronised:
        return ("ok", Msg("synchronised{}", tail), None)
    if state.synchronised is None:
        return ("info", Msg("unknown{}", tail), None)
    if not (pi if pi is not None else probe_hardware()):
        return ("warn", Msg("not synchronised{}", tail), Msg(
            "Dates in History are marked as uncertain until the clock is set. Set this computer's clock: "
            "connect it to a network and turn on its network time (on Linux: sudo timedatectl set-ntp true)."))
    if state.rtc:               # (fitted, as the advice below says: it did not set the clock)
        return ("warn", Msg("not synchronised{}", tail), Msg(
            "Dates in History are marked as uncertain until the clock is set. The real-time clock did not set "
            "it at boot: if its time is right (sudo hwclock -r), sudo hwclock -s sets the clock from it; else "
            "connect the Pi to a network once, then save the time in it with sudo hwclock -w."))
    return ("warn", Msg("not synchronised{}", tail), Msg(
        "Dates in History are marked as uncertain until the clock is set. Connect the Pi to a "
        "network once after boot (systemd-timesyncd sets the clock), or fit a real-time clock; "
        "fake-hwclock only restores the time of the last shutdown."))
