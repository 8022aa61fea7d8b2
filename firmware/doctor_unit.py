"""The doctor's rows about the installed service (firmware.doctor makes them Checks):

- :func:`held_elsewhere`: the service runs and this doctor cannot read what it found (another
  state directory, another user): the pins and the panel are then not probed;
- :func:`serial_check`: the port the service serves the console on (its unit's ``--serial``),
  whether it exists, whether this user may open it, and whether a login console (a getty, or the
  kernel's ``console=``) uses it too. Without ``--serial`` in the unit there is no row.

The inputs are paths and texts, so that they are tested without a Pi.
"""
from __future__ import annotations

import fcntl
import os
import shlex
import sys
from pathlib import Path

from engine.text import Msg

Row = tuple[str, "Msg | str", "Msg | None"]
"""(status, found, fix): firmware.doctor makes its "Service" or "Serial console" Check of it."""


def held_elsewhere(state_dir: Path, run_dir: Path) -> Row | None:
    """The service runs (``run_dir``, its RuntimeDirectory, exists; or ``state_dir`` is locked)
    and this doctor cannot read its findings: opening the panel here would set it up again and
    switch it off at the end, under the running program's feet. The row says so and how to see
    what it found; None when nothing runs. A state directory this user cannot open says nothing
    about whether the service runs: only ``run_dir`` does then."""
    try:
        with open(state_dir / "lock", "rb") as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(f, fcntl.LOCK_UN)
        held = False
    except BlockingIOError:               # EWOULDBLOCK: a Legatus holds it
        held = True
    except PermissionError:
        held = run_dir.is_dir()
    except OSError:                       # not there, or no such directory can be (a name too long): none
        held = False                      # holds it (it said "running as …" of a name too long)
    if held:
        owner = _owner(state_dir)
    elif run_dir.is_dir():
        owner = _owner(run_dir)
    else:
        return None
    prog = sys.argv[0] if Path(sys.argv[0]).name == "legatus" else "legatus"
    return ("warn", Msg("running as {}: the pins and the panel are in its hands, so they were not "
                        "tried here", owner),
            Msg("To see what it found: sudo -u {} LEGATUS_STATE_DIR=/var/lib/legatus {} doctor", owner, prog))


def _owner(path: Path) -> str:
    try:
        return path.owner()
    except (OSError, KeyError):        # no such user name (a uid only): the number will do
        try:
            return str(path.stat().st_uid)
        except OSError:
            return "?"

UNIT = Path("/etc/systemd/system/legatus.service")
CMDLINES = (Path("/boot/firmware/cmdline.txt"), Path("/boot/cmdline.txt"))
GETTY_WANTS = Path("/etc/systemd/system/getty.target.wants")


def unit_serial_port(unit_text: str) -> str | None:
    """The ``--serial PORT`` of the unit's ExecStart, or None."""
    for line in unit_text.splitlines():
        key, _, value = line.strip().partition("=")
        if key.strip() != "ExecStart":
            continue
        try:
            words = shlex.split(value)
        except ValueError:
            return None
        for i, word in enumerate(words):
            if word == "--serial" and i + 1 < len(words):
                return words[i + 1]
            if word.startswith("--serial="):
                return word.split("=", 1)[1]
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def serial_check(unit: Path = UNIT, cmdlines: tuple[Path, ...] = CMDLINES,
                 getty_wants: Path = GETTY_WANTS) -> Row | None:
    """The row for the service's serial console, or None when the unit serves none."""
    port = unit_serial_port(_read(unit))
    if port is None or "://" in port:
        return None
    path = Path(port)
    from hw.serial_link import adapter_port
    if not path.exists() and adapter_port(port):
        # a USB serial adapter (FTDI, CP210x, CH340: ttyUSB; a CDC one: ttyACM) goes with its cable: nothing to
        # set up (the UART's fix, raspi-config, was said for it), and the device opens it again by itself
        return ("warn", Msg("{} is not there: the USB serial adapter is unplugged", port), Msg(
            "Plug it in: the device opens it by itself as soon as it is there. If it comes back under another name "
            "(ls /dev/ttyUSB* /dev/ttyACM*), install again with its /dev/serial/by-id/ name, which stays the same: "
            "sudo scripts/install-pi.sh --serial PORT."))
    if not path.exists():
        fix = (Msg("For the USB port: add dtoverlay=dwc2 to /boot/firmware/config.txt and "
                   "modules-load=dwc2,g_serial after rootwait in cmdline.txt, then reboot.")
               if path.name.startswith("ttyGS") else
               Msg("For the UART: sudo raspi-config nonint do_serial_hw 0, then reboot; or install "
                   "again with another port: sudo scripts/install-pi.sh --serial PORT."))
        return ("fail", Msg("{} does not exist", port), fix)
    if not os.access(path, os.R_OK | os.W_OK):
        return ("fail", Msg("{}: permission denied", port), Msg(
            "Add the service's user to the dialout group (sudo usermod -aG dialout USER), then "
            "restart the service."))
    name = Path(os.path.realpath(path)).name
    if (getty_wants / f"serial-getty@{name}.service").exists():
        return ("warn", Msg("{}: a login console uses it too", port), Msg(
            "sudo systemctl disable --now serial-getty@{}.service", name))
    kernel = " ".join(_read(c) for c in cmdlines).split()
    if any(w.startswith("console=") and w[len("console="):].split(",")[0] in (path.name, name)
           for w in kernel):
        return ("warn", Msg("{}: the kernel's console uses it too", port), Msg(
            "sudo raspi-config nonint do_serial_cons 1, then reboot."))
    return ("ok", port, None)
