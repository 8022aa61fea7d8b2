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
method runs on that one thread, which owns the state and draws. Only the re-opening of a missing
panel runs elsewhere (given ``notify``): on a bus held low every transfer waits for its timeout,
about a second on a Pi, and a re-open tried on the main loop every 3 s made the device lag by that
much each time. A short-lived opener thread opens the panel (nothing else: it never sees the
state), keeps what came of it, and ``notify`` puts an event on the main loop's queue, whose next
``poll`` takes the panel (or the reason) and sends it the whole frame.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from engine.text import Msg
from hw.keys import key_label

log = logging.getLogger(__name__)


class PanelOutput:
    """The OLED behind the device loop's ``Output`` interface (``show``, ``blank``,
    ``contrast``), never raising.

    ``open_panel`` opens the panel (raising on failure, e.g. hw.display.DisplayError);
    ``device`` is the panel already open at start, or None (then ``error`` says why, and the
    first re-open is tried at once at the next poll). ``notify``: the re-open runs on an opener
    thread, which calls it when done (the device loop puts ``("panel",)`` on its queue; the next
    ``poll`` takes the result); None: on the caller's thread, within ``poll`` (tools, tests).
    """

    RETRY = 3.0      # seconds between attempts to re-open a missing panel
    PROBE = 10.0     # seconds between checks (set-up and whole frame again) of a panel in use
    SETTLE = 2.0     # seconds the end of the program (or of a storage wait) waits for a re-open under way

    def __init__(self, open_panel: Callable[[], Any], device: Any = None, error: Msg | str | None = None,
                 clock: Callable[[], float] = time.monotonic, retry: float = RETRY,
                 probe: float = PROBE, notify: Callable[[], None] | None = None) -> None:
        self._open = open_panel
        self._notify = notify
        self._opener: threading.Thread | None = None      # the re-open under way, if any
        self._opened: tuple[Any, BaseException | None] | None = None    # what it came to, not yet taken
        self._lock = threading.Lock()
        self._settled = False            # no more re-opens (the program, or the storage wait, ends)
        self.device = device
        self.error: Msg | str | None = error if device is None else None
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
    def next_deadline(self) -> float | None:
        """When ``poll`` is due: the next re-open or check; while a re-open runs on the opener
        thread, None until it is done (then at once: its ``notify`` wakes the loop)."""
        if self.device is not None:
            return self._next_probe
        if self._settled:
            return None
        if self._opener is not None:
            return self._next_try if self._opened is not None else None
        return self._next_try

    def poll(self, now: float | None = None) -> None:
        """Re-open a missing panel, or check the one in use, if its time has come: the check sets
        it up again and sends the whole frame (a panel reset by a power dip since the last frame
        answers, but dark and with random RAM; no transfer failed to say so)."""
        from hw.display import blank, refresh
        now = self.clock() if now is None else now
        if self.device is None:
            if self._opener is not None:
                self._take(now)
            elif now >= self._next_try and not self._settled:
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

    def settle(self, wait: float = SETTLE) -> None:
        """Open the panel no more: a re-open under way is waited for (up to ``wait`` s) and its panel
        taken; one that takes longer lets go of its panel itself when done (else that panel, never
        used, would switch the glass off at exit, over the last frame of the one in use)."""
        self._settled = True
        opener = self._opener
        if opener is not None:
            opener.join(wait)
            if not self._take(self.clock()):
                log.info("display: the re-open under way did not end within %g s; it lets go of its panel "
                         "when it does", wait)

    def shutdown(self, img: Image.Image) -> None:
        """Leave ``img`` on the panel (kept there after exit) if it answers; never raises."""
        from hw.display import blank, show
        self.settle()
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
        self.error = reason(e)
        self._next_try = self.clock() + self.retry
        log.warning("display: the %s failed (%s); going on without the panel and trying to open it "
                    "again every %g s", what, self.error, self.retry)

    def _reopen(self, now: float) -> None:
        if self._notify is None:
            self._adopt(now, *self._try_open())
            return
        self._next_try = now
        self._opener = threading.Thread(target=self._open_aside, name="panel-opener", daemon=True)
        try:
            self._opener.start()
        except RuntimeError as e:        # no thread to be had (the process's limit): tried again later
            self._opener = None
            self._next_try = now + self.retry
            log.warning("display: cannot start the opener thread (%s); trying again in %g s", e, self.retry)

    def _try_open(self) -> tuple[Any, BaseException | None]:
        try:
            return self._open(), None
        except Exception as e:  # noqa: BLE001 - still missing: try again later
            return None, e

    def _open_aside(self) -> None:
        """The opener thread: open the panel, keep the outcome for the main loop and wake it (or,
        once :meth:`settle` gave up waiting, let go of the panel: nobody takes it)."""
        device, error = self._try_open()
        with self._lock:
            kept = not self._settled or self._opener is not None
            if kept:
                self._opened = (device, error)
        if not kept:
            if device is not None:
                from hw.display import release
                release(device)
            return
        try:
            if self._notify is not None:
                self._notify()
        except Exception as e:  # noqa: BLE001 - the loop takes it at its next poll all the same
            log.warning("display: the re-open could not wake the main loop (%s)", e)

    def _take(self, now: float) -> bool:
        """The re-open the opener thread finished, if it has: its panel is used (or its reason
        kept); False if it is still under way."""
        with self._lock:
            opened, self._opened = self._opened, None
            if opened is None:
                if self._settled:
                    self._opener = None      # (given up on: it lets go of its panel itself)
                return False
            self._opener = None
        self._adopt(now, *opened)
        return True

    def _adopt(self, now: float, device: Any, e: BaseException | None) -> None:
        if e is not None:
            error = reason(e)
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


def reason(e: BaseException) -> Msg | str:
    """What went wrong as the error says it: its sentence (hw.display.DisplayError and
    hw.buttons.ButtonError carry a Msg, said in the player's language), else its text, else the
    name of its type."""
    said = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Msg) else None
    return said if said is not None else (str(e) or type(e).__name__)


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
            self._failed(now, reason(e))
            return
        self.failure = None
        if self.error is not None:
            log.info("buttons: the pins opened now (%s)", pin_factory_name())
        else:
            log.info("buttons: opened with %s", pin_factory_name())
        self.error = None
        self._wait = self.FIRST_RETRY
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


def keys_failed_notice(failure: BaseException | None, error: Msg | str) -> Msg:
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
