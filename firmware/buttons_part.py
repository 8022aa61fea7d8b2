"""The buttons as a part that can come and go (:class:`KeysPart`), the start notices when keys
do not work, and what gpiozero/lgpio need before they load (firmware/device.py, firmware/doctor.py).
The panel's part is firmware/hardware.py."""
from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.text import Msg
from firmware.hardware import reason
from hw.keys import key_label
from hw.service import UNIT, under_service, user_name

log = logging.getLogger(__name__)


class KeysPart:
    """The buttons: ``open_bank`` makes a hw.buttons.ButtonBank (raising on failure); a failure
    at start is retried after 2, 4, 8... up to :data:`MAX_RETRY` seconds (the GPIO chip may appear
    late at boot). A bank that opened with some keys dead (``bank.dead``: a pin held by another
    program or an overlay) is used as it is, and its dead keys are retried the same way."""

    FIRST_RETRY = 2.0
    MAX_RETRY = 60.0

    def __init__(self, open_bank: Callable[[], Any], clock: Callable[[], float] = time.monotonic) -> None:
        self._open = open_bank
        self.clock = clock
        self.bank: Any = None
        self.error: Msg | str | None = None
        self.failure: Exception | None = None     # why the bank did not open (the last try)
        self._wait = self.FIRST_RETRY
        self._next_try = clock()
        self._held_at_open: dict[str, int] = {}   # keys that read pressed as their pins opened (key → pin)
        self.poll(self._next_try)

    @property
    def dead(self) -> dict[str, int]:
        """The keys whose pins did not open (key → BCM pin), while the others work."""
        return {} if self.bank is None else {k: e.pin for k, e in getattr(self.bank, "dead", {}).items()}

    @property
    def held(self) -> dict[str, int]:
        """The keys that read pressed as their pins opened and still do (key → BCM pin): held down
        since, or stuck (something lying on it, a worn or shorted switch). Such a key gives no event
        until it is released (its press began before anything could see it)."""
        if not self._held_at_open or self.bank is None or not hasattr(self.bank, "held"):
            return {}
        now = self.bank.held()
        # (released once, a key is no longer the one held at the start: a later press is an ordinary one)
        self._held_at_open = {k: p for k, p in self._held_at_open.items() if k in now}
        return dict(self._held_at_open)

    def _note_held(self, keys: list[str]) -> None:
        """Keep (and log once) the keys among ``keys`` that read pressed as their pins opened."""
        if not hasattr(self.bank, "held"):
            return
        held = {k: p for k, p in self.bank.held().items() if k in keys}
        if not held:
            return
        self._held_at_open.update(held)
        log.warning("buttons: %s read(s) pressed as the keys open: held down, or stuck (something lying on it, a "
                    "worn or shorted switch); it gives no event until it is released, the other keys work",
                    ", ".join(f"{k} (GPIO{p})" for k, p in held.items()))

    def next_deadline(self) -> float | None:
        return None if self.bank is not None and not self.dead else self._next_try

    def poll(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        if now < self._next_try or (self.bank is not None and not self.dead):
            return
        if self.bank is not None:
            opened = self.bank.retry()
            if opened:
                log.info("buttons: the pin of %s opened now", ", ".join(opened))
                self._note_held(opened)
            self._failed(now, self._dead_error())
            return
        try:
            self.bank = self._open()
        except Exception as e:  # noqa: BLE001 - ButtonError or a pin factory that cannot load
            self.failure = e
            self._failed(now, reason(e))
            return
        self.failure = None
        if self.error is not None:
            log.info("buttons: the pins opened now (%s)", pin_factory_name())
        else:
            log.info("buttons: opened with %s", pin_factory_name())
        self.error = None
        self._wait = self.FIRST_RETRY
        self._note_held(list(getattr(self.bank, "buttons", {})))
        self._failed(now, self._dead_error())

    def _dead_error(self) -> Msg | str | None:
        """Why the dead keys' pins did not open (each ButtonError's sentence, one after another)."""
        said: Msg | str | None = None
        for e in getattr(self.bank, "dead", {}).values():
            said = reason(e) if said is None else Msg("{}; {}", said, reason(e))
        return said

    def _failed(self, now: float, error: Msg | str | None) -> None:
        """Keep ``error`` (None: nothing is missing) and, if something is, when to try again."""
        if error is None:
            self.error = None
            return
        if error != self.error:
            log.warning("buttons: %s (trying again in %g s)", error, self._wait)
        self.error = error
        self._next_try = now + self._wait
        self._wait = min(self._wait * 2, self.MAX_RETRY)

    def close(self) -> None:
        if self.bank is not None:
            try:
                self.bank.close()
            except Exception as e:  # noqa: BLE001 - at shutdown: report and go on
                log.warning("buttons: closing failed (%s)", e)
            self.bank = None


def dead_keys_notice(dead: dict[str, int]) -> Msg:
    """The start notice naming the keys whose pins did not open (key → BCM pin)."""
    return Msg("This key does not work: {keys}. Its pin is used by another program or not on this board; the other "
               "keys work, and it is tried again by itself. Settings → Hardware says more.",
               plural="These keys do not work: {keys}. Their pins are used by another program or not on this board; "
                      "the other keys work, and they are tried again by themselves. Settings → Hardware says more.",
               n=len(dead), keys=Msg.join([key_label(k, p) for k, p in dead.items()]))


def keys_failed_notice(failure: BaseException | None, error: Msg | str, service: bool | None = None) -> Msg:
    """The start notice when no key opened: no pin library (with each library's reason), or the
    error as it came. Under the service (``service`` None: :func:`hw.service.under_service`) the fix
    ends with restarting it: a service keeps the groups it started with, so the keys tried again by
    themselves never opened after the user was added to ``gpio``. When the GPIO chip is what this user may
    not open (``failure.denied``), the error says so and its own fix."""
    denied = getattr(failure, "denied", None)
    if denied is not None:                  # (the fix first: with no key, the first rows are all one reads)
        from hw.service import permission_denied
        return Msg("No key works: {}.", permission_denied(denied, "gpio", service))
    if getattr(failure, "no_library", False) and (under_service() if service is None else service):
        return Msg("No key works: no GPIO pin library could be loaded ({reasons}). Install python3-lgpio (sudo apt "
                   "install python3-lgpio), add the service's user to the gpio group (sudo usermod -aG gpio {user}), "
                   "then restart the service (sudo systemctl restart {unit}): it keeps the groups it started with.",
                   reasons=getattr(failure, "reasons", error), user=user_name(), unit=UNIT)
    if getattr(failure, "no_library", False):
        return Msg("No key works: no GPIO pin library could be loaded ({}). Install python3-lgpio (sudo apt install "
                   "python3-lgpio), add the user to the gpio group, and run from a writable directory (the service "
                   "does); the keys are tried again by themselves.", getattr(failure, "reasons", error))
    return Msg("Buttons: {}", error)


def pin_factory_name() -> str | None:
    """The gpiozero pin factory in use (e.g. ``LGPIOFactory``, ``MockFactory``), or None if none
    has loaded yet. Does not load one."""
    import sys
    gpiozero = sys.modules.get("gpiozero")
    if gpiozero is None:
        return None
    factory = getattr(gpiozero.Device, "pin_factory", None)
    return None if factory is None else type(factory).__name__


def ensure_lgpio_workdir(fallback: Path) -> str | None:
    """Give lgpio a writable directory for its notification pipes before gpiozero loads it.

    lgpio creates a FIFO (``.lgd-nfyN``) in ``$LG_WD`` or else in the current directory, and
    changes the current directory to it (joan2937/lg#22, gpiozero#1106): a service started in
    ``/`` as an ordinary user gets "Unable to load any default pin factory". If ``LG_WD`` is not
    set and the current directory is not writable, it is set to ``fallback`` (an absolute path).
    Returns the directory lgpio will use."""
    current = os.environ.get("LG_WD")
    if current:
        return current
    cwd = os.getcwd()
    if os.access(cwd, os.W_OK):
        return cwd
    os.environ["LG_WD"] = str(fallback.resolve())
    log.info("buttons: %s is not writable; lgpio's notification pipe goes to %s (LG_WD)", cwd,
             os.environ["LG_WD"])
    return os.environ["LG_WD"]
