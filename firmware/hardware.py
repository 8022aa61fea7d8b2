"""The device's hardware as parts that can come and go: the panel and the buttons.

A panel can be unplugged, lose contact on a loose header, or not be there yet at boot (the I2C
bus appears when the ``i2c-dev`` module is loaded); the GPIO chip can appear late too. Nothing of
that may end the program: every display operation goes through :class:`PanelOutput`, which
catches and logs the failure, keeps the last frame, contrast and blanking, and tries to re-open
the panel every :data:`PanelOutput.RETRY` seconds until it answers again, then restores them.
While the panel is in use it is set up again every :data:`PanelOutput.PROBE` seconds and sent
the whole frame, so a panel that went away while nothing was drawn is noticed too, and one whose
power dipped (it answers, but dark and with random RAM) shows the game again. :class:`KeysPart`
retries the buttons the same way, with a growing interval.

The main loop (firmware/device.py) calls ``poll(now)`` when ``next_deadline()`` has passed; every
method runs on that one thread.
"""
from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from engine.text import Msg

log = logging.getLogger(__name__)


class PanelOutput:
    """The OLED behind the device loop's ``Output`` interface (``show``, ``blank``,
    ``contrast``), never raising.

    ``open_panel`` opens the panel (raising on failure, e.g. hw.display.DisplayError);
    ``device`` is the panel already open at start, or None (then ``error`` says why, and the
    first re-open is tried at once at the next poll).
    """

    RETRY = 3.0      # seconds between attempts to re-open a missing panel
    PROBE = 10.0     # seconds between checks (set-up and whole frame again) of a panel in use

    def __init__(self, open_panel: Callable[[], Any], device: Any = None, error: str | None = None,
                 clock: Callable[[], float] = time.monotonic, retry: float = RETRY,
                 probe: float = PROBE) -> None:
        self._open = open_panel
        self.device = device
        self.error = error if device is None else None
        self.clock = clock
        self.retry, self.probe_every = retry, probe
        self.lost = 0                    # times the panel stopped answering
        self.reopened = 0                # times it was opened again after that
        self._image: Image.Image | None = None
        self._blanked = False
        self._level: int | None = None
        now = clock()
        self._next_try = now
        self._next_probe = now + probe

    @property
    def connected(self) -> bool:
        return self.device is not None

    # -- Output -------------------------------------------------------------------------------
    def show(self, img: Image.Image) -> None:
        from hw.display import show
        self._image = img
        if self.device is not None and not self._blanked:
            self._do("redraw", lambda d: show(d, img))

    def blank(self, blanked: bool, img: Image.Image) -> None:
        from hw.display import blank
        self._blanked = blanked
        self._image = img
        if self.device is None:
            return
        if self._do("blank" if blanked else "wake", lambda d: blank(d, blanked)) and not blanked:
            self.show(img)

    def contrast(self, level: int) -> None:
        from hw.display import set_contrast
        self._level = level
        if self.device is not None and self._do("contrast", lambda d: set_contrast(d, level)) \
                and self._image is not None:
            self.show(self._image)       # the full refresh now, even if the frame is unchanged

    # -- coming and going ---------------------------------------------------------------------
    def next_deadline(self) -> float:
        return self._next_try if self.device is None else self._next_probe

    def poll(self, now: float | None = None) -> None:
        """Re-open a missing panel, or check the one in use, if its time has come: the check sets
        it up again and sends the whole frame (a panel reset by a power dip since the last frame
        answers, but dark and with random RAM; no transfer failed to say so)."""
        from hw.display import blank, refresh
        now = self.clock() if now is None else now
        if self.device is None:
            if now >= self._next_try:
                self._reopen(now)
        elif now >= self._next_probe:
            self._next_probe = now + self.probe_every
            if not self._do("check", refresh):
                return
            if self._level is not None:
                self.contrast(self._level)     # (re-sends the image too)
            elif self._image is not None:
                self.show(self._image)
            if self._blanked:
                self._do("blank", lambda d: blank(d, True))

    def shutdown(self, img: Image.Image) -> None:
        """Leave ``img`` on the panel (kept there after exit) if it answers; never raises."""
        from hw.display import blank, show
        if self.device is None:
            log.info("display: no panel at shutdown (%s)", self.error)
            return
        if self._blanked:
            self._blanked = False
            if not self._do("wake", lambda d: blank(d, False)):
                return
        if self._do("shutdown", lambda d: show(d, img)) and self.device is not None:
            self.device.persist = True

    def _do(self, what: str, action: Callable[[Any], None]) -> bool:
        device = self.device
        if device is None:
            return False
        try:
            action(device)
            return True
        except Exception as e:  # noqa: BLE001 - DisplayError, or anything else: the panel never ends the program
            self._lose(what, e)
            return False

    def _lose(self, what: str, e: BaseException) -> None:
        from hw.display import release
        device, self.device = self.device, None
        if device is not None:
            release(device)
        self.lost += 1
        self.error = str(e) or type(e).__name__
        self._next_try = self.clock() + self.retry
        log.warning("display: the %s failed (%s); going on without the panel and trying to open it "
                    "again every %g s", what, self.error, self.retry)

    def _reopen(self, now: float) -> None:
        try:
            device = self._open()
        except Exception as e:  # noqa: BLE001 - still missing: try again later
            error = str(e) or type(e).__name__
            if error != self.error:
                log.info("display: not answering yet (%s)", error)
            self.error = error
            self._next_try = now + self.retry
            return
        self.device, self.error = device, None
        self._next_probe = now + self.probe_every
        if self.lost:
            self.reopened += 1
            log.info("display: the panel answers again; re-opened it (%d time(s) so far)", self.reopened)
        else:
            log.info("display: opened the panel")
        if self._level is not None:
            self.contrast(self._level)     # (re-sends the image too)
        if self._blanked:
            from hw.display import blank
            self._do("blank", lambda d: blank(d, True))
        elif self._image is not None:
            self.show(self._image)


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
        self.error: str | None = None
        self.failure: Exception | None = None     # why the bank did not open (the last try)
        self._wait = self.FIRST_RETRY
        self._next_try = clock()
        self.poll(self._next_try)

    @property
    def dead(self) -> dict[str, int]:
        """The keys whose pins did not open (key → BCM pin), while the others work."""
        return {} if self.bank is None else {k: e.pin for k, e in getattr(self.bank, "dead", {}).items()}

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
            self._failed(now, self._dead_error())
            return
        try:
            self.bank = self._open()
        except Exception as e:  # noqa: BLE001 - ButtonError or a pin factory that cannot load
            self.failure = e
            self._failed(now, str(e) or type(e).__name__)
            return
        self.failure = None
        if self.error is not None:
            log.info("buttons: the pins opened now (%s)", pin_factory_name())
        else:
            log.info("buttons: opened with %s", pin_factory_name())
        self.error = None
        self._wait = self.FIRST_RETRY
        self._failed(now, self._dead_error())

    def _dead_error(self) -> str | None:
        dead = getattr(self.bank, "dead", {})
        return "; ".join(str(e) for e in dead.values()) or None

    def _failed(self, now: float, error: str | None) -> None:
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


KEY_NAMES = {"a": "A", "b": "B", "key3": "KEY3", "up": Msg("joystick up"), "down": Msg("joystick down"),
             "left": Msg("joystick left"), "right": Msg("joystick right"), "press": Msg("joystick press")}
"""The keys as their owner names them (the board's labels, the joystick's ways)."""


def key_label(key: str, pin: int) -> Msg:
    """A key and its pin, e.g. "A (GPIO5)", said in the player's words."""
    return Msg("{} (GPIO{})", KEY_NAMES.get(key, key), pin)


def dead_keys_notice(dead: dict[str, int]) -> Msg:
    """The start notice naming the keys whose pins did not open (key → BCM pin)."""
    return Msg("This key does not work: {keys}. Its pin is used by another program or not on this board; the other "
               "keys work, and it is tried again by itself. Settings → Hardware says more.",
               plural="These keys do not work: {keys}. Their pins are used by another program or not on this board; "
                      "the other keys work, and they are tried again by themselves. Settings → Hardware says more.",
               n=len(dead), keys=Msg.join([key_label(k, p) for k, p in dead.items()]))


def keys_failed_notice(failure: BaseException | None, error: str) -> Msg:
    """The start notice when no key opened: no pin library (with each library's reason), or the
    error as it came."""
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
