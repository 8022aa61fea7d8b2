"""How this program runs, for the fixes it suggests: as the systemd service scripts/install-pi.sh
installs, or started by hand. A user added to a group gets it at the next login; a running service
keeps the groups it started with until it is restarted."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.text import Msg, N_

UNIT = "legatus"
"""The systemd service scripts/install-pi.sh installs (scripts/legatus.service)."""


def under_service(environ: Any = None, stdin_fd: int = 0) -> bool:
    """True when systemd runs this program as a service: it sets ``INVOCATION_ID`` for every unit it
    starts, and gives it no terminal (``legatus`` started by hand over ssh has one)."""
    environ = os.environ if environ is None else environ
    return bool(environ.get("INVOCATION_ID")) and not os.isatty(stdin_fd)


def user_name() -> str:
    """The name of the user this program runs as (the service's ``User=``), for a command to copy."""
    try:
        import pwd
        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return os.environ.get("USER") or "$USER"


def permission_denied(path: str, group: str, service: bool | None = None) -> Msg:
    """"Permission denied on ``path``" with the fix that works for how this program runs: the user
    it runs as goes into ``group``; a service takes a new group only when restarted, a program
    started by hand at the user's next login."""
    user = user_name()
    if under_service() if service is None else service:
        return Msg(PERMISSION_DENIED[0], path=path, group=group, user=user, unit=UNIT)
    return Msg(PERMISSION_DENIED[1], path=path, group=group, user=user)


PERMISSION_DENIED = (
    N_("permission denied on {path}: add the service's user to the '{group}' group (sudo usermod -aG {group} {user}), "
       "then restart the service (sudo systemctl restart {unit}): it keeps the groups it started with"),
    N_("permission denied on {path}: add the user to the '{group}' group (sudo usermod -aG {group} {user}), then log "
       "out and in again: a new group counts from the next login"))
"""The sentences of :func:`permission_denied` (as the service, by hand): each says its own fix, one the
doctor's generic "the device opens the panel again by itself" would contradict."""


DEV = Path("/dev")


def gpio_denied(dev: Path | None = None) -> str | None:
    """The GPIO chip (``/dev/gpiochipN``) this user may not open, when there are chips and this user
    may read and write none of them (Raspberry Pi OS: ``root:gpio 0660``, the user not in 'gpio', or a
    service started before it was added), else None. lgpio says only "can not open gpiochip" (no
    errno), and every other pin library then fails too: without this, the fix offered began with
    installing python3-lgpio, which is installed."""
    try:
        chips = sorted((DEV if dev is None else dev).glob("gpiochip*"))
    except OSError:
        return None
    if chips and not any(_may_open(chip) for chip in chips):
        return str(chips[0])
    return None


def _may_open(path: Path) -> bool:
    """Whether this process may open ``path`` for reading and writing (its effective user and groups)."""
    return os.access(path, os.R_OK | os.W_OK, effective_ids=os.access in os.supports_effective_ids)
