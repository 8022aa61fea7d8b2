"""The device's hardware as parts that can come and go: the panel and the buttons.

A panel can be unplugged, lose contact on a loose header, or not be there yet at boot (the I2C
bus appears when the ``i2c-dev`` module is loaded); the GPIO chip can appear late too. Nothing of
that may end the program: every display operation goes through :class:`PanelOutput`, which
catches and logs the failure, keeps the last frame, contrast and blanking, and tries to re-open
the panel every :data:`PanelOutput.RETRY` seconds until it answers again, then restores them.
While the panel is in use it is set up again every :data:`PanelOutput.PROBE` seconds and sent
the whole frame, so a panel that went away while nothing was drawn is noticed too, and one whose
power dipped (it answers, but dark and with random RAM) shows the game again. The buttons' part (firmware/buttons_part.py) retries the
buttons the same way, with a growing interval.

The main loop (firmware/device.py) calls ``poll(now)`` when ``next_deadline()`` has passed; it owns
the state, draws the frames and keeps the times (of the re-open, of the check). Nothing it does
waits for the bus: on a bus held low every transfer waits for its timeout, about a second on a
Pi, and a frame, a check or a re-open sent from the main loop made every key wait that long (and
a stop, for as long as the bus was stuck). Given ``notify``, everything sent to the panel goes
through one panel thread, for as long as the program runs: the loop says what the glass should
show (the latest frame, blanked or not, the contrast) and what to do (open, check), and goes on;
the thread sends what differs, the latest first, never an older frame after a newer one, and
``notify`` puts an event on the loop's queue when it opened the panel, could not, or lost it
(the next ``poll`` takes that). The thread never sees the state, only the frames.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from PIL import Image

from engine.text import Msg

log = logging.getLogger(__name__)


class PanelOutput:
    """The OLED behind the device loop's ``Output`` interface (``show``, ``blank``,
    ``contrast``), never raising and never waiting for the bus.

    ``open_panel`` opens the panel (raising on failure, e.g. hw.display.DisplayError);
    ``device`` is the panel already open, or None: ``error`` says why, or None if it was not tried
    yet (the device's start: its first ``poll``, at once, has the panel thread open it, so a bus
    held low never delays the first key). The first open is tried at once at the next poll. ``notify``: everything sent to the panel
    (frames, blanking, contrast, the check, the re-open) goes through one panel thread, which
    calls it when the panel was opened, could not be, or was lost (the device loop puts
    ``("panel",)`` on its queue; the next ``poll`` takes what came of it); None: on the caller's
    thread, within each call (tools, tests).

    The caller says what the glass should show (the latest frame, blanked or not, the contrast);
    the panel thread sends what differs from what the panel holds, the latest first: frames
    asked for while the bus was held are not queued behind it, the last one is sent once it
    answers. ``device``, ``error``, ``lost`` and ``reopened`` are the caller's (the main loop's)
    view, changed only by its ``poll`` (or, without ``notify``, by the call that found it).
    """

    RETRY = 3.0      # seconds between attempts to re-open a missing panel
    PROBE = 10.0     # seconds between checks (set-up and whole frame again) of a panel in use
    STEADY = 30.0    # seconds a re-opened panel must work before it counts as working again (see _take)
    SETTLE = 2.0     # seconds the end of the program (or of a storage wait) waits for the panel thread

    def __init__(self, open_panel: Callable[[], Any], device: Any = None, error: Msg | str | None = None,
                 clock: Callable[[], float] = time.monotonic, retry: float = RETRY,
                 probe: float = PROBE, notify: Callable[[], None] | None = None) -> None:
        self._open = open_panel
        self._notify = notify
        self.device = device
        self.error: Msg | str | None = error if device is None else None
        self.clock = clock
        self.retry, self.probe_every = retry, probe
        self.lost = 0                    # times the panel stopped answering
        self.reopened = 0                # times it was opened again after that
        self.glitches = 0                # transfers that failed once and went through when sent again
        self._image: Image.Image | None = None
        self._blanked = False
        self._level: int | None = None
        now = clock()
        self._next_try = now
        self._next_probe = now + probe
        self._opening = False            # a re-open asked of the panel thread, what came of it not yet taken
        self._said = device is not None or error is not None    # whether the first open's outcome is known (and logged)
        self._opened_at = float("-inf")  # when the panel was last (re-)opened
        self.flapping = 0                # re-opens in a row lost again within STEADY s (0: none, or it works again)
        self._settled = False            # no more re-opens (the program, or the storage wait, ends)
        self._no_thread_until = float("-inf")
        # shared with the panel thread, under _cond
        self._cond = threading.Condition()
        self._want = _Want(None, False, None)    # what the glass should show
        self._seen: _Want | None = None          # the last _want the panel thread took
        self._asked: set[str] = set()            # "open", "check"
        self._outcomes: list[tuple[Any, ...]] = []   # what came of them, for the caller's poll
        self._busy = False               # the panel thread is sending (or opening)
        self._closing = False            # settle: the panel thread ends once nothing is pending
        self._abandoned = False          # settle gave up waiting: the thread lets go of its panel when it returns
        self._ended = False              # the panel thread has ended (or could not start)
        self._thread: threading.Thread | None = None
        self._link = _Link(device)       # the panel thread's own

    @property
    def connected(self) -> bool:
        return self.device is not None

    # -- Output -------------------------------------------------------------------------------
    def show(self, img: Image.Image) -> None:
        self._image = img.copy()         # (the caller may draw on it again: the panel thread reads it later)
        self._post()

    def blank(self, blanked: bool, img: Image.Image) -> None:
        self._blanked = blanked
        self._image = img.copy()
        self._post()

    def contrast(self, level: int) -> None:
        self._level = level              # (set, then the whole frame sent again)
        self._post()

    # -- coming and going ---------------------------------------------------------------------
    def next_deadline(self) -> float | None:
        """When ``poll`` is due: at once if the panel thread has something to say; else the next
        re-open or check; while a re-open is under way, None (its ``notify`` wakes the loop)."""
        with self._cond:
            said = bool(self._outcomes)
        if said:
            return self.clock()
        if self.device is not None:
            return self._next_probe
        if self._settled or self._opening:
            return None
        return self._next_try

    def poll(self, now: float | None = None) -> None:
        """Take what the panel thread found (opened, lost); re-open a missing panel, or check the
        one in use, if its time has come: the check sets it up again and sends the whole frame (a
        panel reset by a power dip since the last frame answers, but dark and with random RAM; no
        transfer failed to say so)."""
        now = self.clock() if now is None else now
        self._take(now)
        if self.device is not None and self.flapping and now - self._opened_at >= self.STEADY:
            log.info("display: the panel works again (it has answered for %g s since it was re-opened; it had "
                     "failed again soon after %d re-open(s))", now - self._opened_at, self.flapping)
            self.flapping = 0
        if self.device is None:
            if not self._opening and not self._settled and now >= self._next_try:
                self._opening = True
                self._post("open")
        elif now >= self._next_probe:
            self._next_probe = now + self.probe_every
            self._post("check")

    def wait_idle(self, timeout: float) -> bool:
        """Wait (up to ``timeout`` s) until the panel thread has sent everything asked of it;
        True if it has. (Without ``notify`` everything is sent within the call.)"""
        with self._cond:
            return self._cond.wait_for(lambda: self._ended or not (self._busy or self._pending()), timeout)

    def settle(self, wait: float = SETTLE) -> None:
        """Open the panel no more and end the panel thread: what it is doing (and what is asked of
        it) is waited for, up to ``wait`` s, and what came of it taken (the panel is then the
        caller's). One that takes longer (a bus held low) is given up on: it lets go of its panel
        itself when its transfer returns, and nothing is sent to that panel at exit (the end must
        not wait for the bus: the service's stop has a time limit)."""
        self._settled = True
        thread = self._thread
        if thread is not None:
            with self._cond:
                self._closing = True
                self._cond.notify_all()
            thread.join(wait)
            with self._cond:
                gave_up = not self._ended
                self._abandoned = gave_up
                held = self._link.device if gave_up else None
            if gave_up:
                from hw.display import disown
                log.warning("display: the panel did not answer within %g s at the end (%s); leaving it as it is",
                            wait, self._link.doing)
                if held is not None:
                    disown(held)
                if self.device is not None:
                    self.device = None
                    self.error = f"no answer within {wait:g} s at the end"      # (the log's, at the end)
                self._opening = False
                return
        self._take(self.clock())

    def shutdown(self, img: Image.Image, wait: float = SETTLE) -> None:
        """Leave ``img`` on the panel (kept there after exit) if it answers within ``wait`` s;
        never raises, never waits longer."""
        self._blanked = False
        self._image = img.copy()
        self._post(final=True)
        self.settle(wait)
        if self.device is None:
            log.info("display: no panel at shutdown (%s)", self.error)

    # -- the caller's side ----------------------------------------------------------------------
    def _post(self, *asked: str, final: bool = False) -> None:
        """Say what the glass should show now (and ``asked``: "open", "check"), and have it sent."""
        with self._cond:
            self._want = _Want(self._image, self._blanked, self._level, final or self._want.final)
            self._asked.update(asked)
            self._cond.notify_all()
        if self._abandoned:
            return                       # (its panel thread still holds the panel: nothing else may use it)
        if self._notify is not None and not self._settled:
            if self._thread is not None and self._thread.is_alive():
                return                   # (it takes it from here)
            if self.clock() >= self._no_thread_until and self._start():
                return
        self._serve_here()

    def _start(self) -> bool:
        thread = threading.Thread(target=self._serve, name="panel", daemon=True)
        with self._cond:
            self._ended = False
        try:
            thread.start()
        except RuntimeError as e:        # no thread to be had (the process's limit): sent from here meanwhile
            with self._cond:
                self._ended = True
            self._no_thread_until = self.clock() + self.retry
            log.warning("display: cannot start the panel's thread (%s); the panel is driven from the main loop "
                        "meanwhile, trying again in %g s", e, self.retry)
            return False
        self._thread = thread
        return True

    def _serve_here(self) -> None:
        """What the panel thread would do, on this thread (no ``notify``, or no thread to be had)."""
        with self._cond:
            if not self._pending():
                return
            job = self._job()
        outcomes = self._work(*job)
        with self._cond:
            self._busy = False
            self._outcomes += outcomes
            self._cond.notify_all()
        self._take(self.clock())

    def _take(self, now: float) -> bool:
        """What the panel thread found, in order: the panel opened (or why not), or lost."""
        with self._cond:
            outcomes, self._outcomes = self._outcomes, []
        for outcome in outcomes:
            if outcome[0] == "opened":
                self._opening = False
                self.device, self.error, self._said = outcome[1], None, True
                self._next_probe = now + self.probe_every
                self._opened_at = now
                if self.lost:
                    self.reopened += 1
                    log.log(logging.DEBUG if self.flapping else logging.INFO,
                            "display: the panel answers again; re-opened it (%d time(s) so far)", self.reopened)
                else:
                    log.info("display: opened the panel")
            elif outcome[0] == "failed":
                self._opening = False
                error = reason(outcome[1])
                if not self._said:           # the first open, at start (on the panel thread too)
                    log.warning("display: %s — running without it for now; trying again every %g s",
                                error, self.retry)
                    self._said = True
                elif error != self.error:
                    log.info("display: not answering yet (%s)", error)
                self.error = error
                self._next_try = now + self.retry
            elif outcome[0] == "glitch":     # what failed once, the error: sent again, it went through
                self.glitches += 1
                if self.glitches == 1:
                    log.warning("display: the %s failed once (%s) and went through when sent again at once; the panel "
                                "stays in use (a noisy I2C bus, a loose contact or an I2C clock too fast for it: "
                                "docs/hardware.md). Such single failures are counted from now on, not each said",
                                outcome[1], reason(outcome[2]))
                elif _round(self.glitches):
                    log.info("display: %d transfers have failed once and gone through when sent again so far "
                             "(the last: the %s, %s)", self.glitches, outcome[1], reason(outcome[2]))
            else:                        # "lost", what failed, the error
                self.device = None
                self.lost += 1
                self.error = reason(outcome[2])
                self._next_try = now + self.retry
                # A panel that answers when opened but fails again at once (a loose contact, a bus
                # too fast for it) is re-opened and lost every RETRY s: each time logged, that was
                # two lines every 3 s, which rotated the log (and the last crash's reason in it)
                # away within hours and wrote the card all the while. Said once, then again when
                # it has worked for STEADY s.
                if self.reopened and now - self._opened_at < self.STEADY:
                    self.flapping += 1
                    log.log(logging.WARNING if self.flapping == 1 else logging.DEBUG,
                            "display: the %s failed again %.3g s after the panel was re-opened (%s): it answers "
                            "but does not keep working (a loose contact, or an I2C clock too fast for it: "
                            "docs/hardware.md); going on without it and opening it again every %g s, said again "
                            "once it has worked for %g s", outcome[1], now - self._opened_at, self.error,
                            self.retry, self.STEADY)
                else:
                    log.warning("display: the %s failed (%s); going on without the panel and trying to open it "
                                "again every %g s", outcome[1], self.error, self.retry)
        return bool(outcomes)

    # -- the panel thread -----------------------------------------------------------------------
    def _pending(self) -> bool:
        return bool(self._asked) or self._want is not self._seen

    def _job(self) -> tuple[_Want, set[str]]:
        want, asked = self._want, self._asked
        self._seen, self._asked, self._busy = want, set(), True
        return want, asked

    def _serve(self) -> None:
        """The panel thread: sends what is asked, the latest first, until :meth:`settle`."""
        link = self._link
        try:
            while True:
                with self._cond:
                    while not self._pending() and not self._closing:
                        self._cond.wait()
                    if self._abandoned or not self._pending():
                        return
                    job = self._job()
                outcomes = self._work(*job)
                with self._cond:
                    self._busy = False
                    abandoned = self._abandoned
                    if not abandoned:
                        self._outcomes += outcomes
                    self._cond.notify_all()
                if abandoned:            # (settle gave up on it: nobody takes its panel)
                    if link.device is not None:
                        from hw.display import release
                        release(link.device)
                        link.device = None
                    return
                if outcomes and self._notify is not None:
                    try:
                        self._notify()
                    except Exception as e:  # noqa: BLE001 - the loop takes it at its next poll all the same
                        log.warning("display: the panel thread could not wake the main loop (%s)", e)
        finally:
            with self._cond:
                self._ended = True
                self._cond.notify_all()

    def _work(self, want: _Want, asked: set[str]) -> list[tuple[Any, ...]]:
        """Open the panel if asked, check it if asked, and make it show ``want``; what came of it."""
        link = self._link
        outcomes: list[tuple[Any, ...]] = []
        if "open" in asked:
            if link.device is None:
                link.doing = "re-open"
                try:
                    device = self._open()
                except Exception as e:  # noqa: BLE001 - still missing: tried again later
                    return [("failed", e)]
                with self._cond:
                    abandoned = self._abandoned
                    if not abandoned:
                        link.adopt(device)      # (settle, giving up, sees it: nothing sent to it at exit)
                if abandoned:                   # (nobody takes it: let go of)
                    from hw.display import release
                    release(device)
                    return []
            outcomes.append(("opened", link.device))
        if link.device is None:
            return outcomes
        try:
            try:
                if "check" in asked:
                    link.check()
                link.apply(want)
            except Exception as e:  # noqa: BLE001 - sent once more at once if the bus only missed it
                if not passing(e):
                    raise
                # An I2C panel that fails one transfer now and then (121 Remote I/O, 5 EIO: a noisy bus,
                # long wires, a weak pull-up) answers the next one: it was let go of, the glass stood
                # still for RETRY s and two log lines said so each time. Sent again, whole, at once;
                # only a panel that fails that too is lost (an unplugged one fails both in microseconds).
                doing = link.doing
                if "check" in asked:
                    link.check()
                link.resend = True
                link.apply(want)
                outcomes.append(("glitch", doing, e))
        except Exception as e:  # noqa: BLE001 - DisplayError, or anything else: the panel never ends the program
            from hw.display import release
            release(link.device)
            link.device = None
            outcomes.append(("lost", link.doing, e))
        return outcomes


def _round(n: int) -> bool:
    """10, 100, 1000...: the counts of glitches said again in the log."""
    while n >= 10 and n % 10 == 0:
        n //= 10
    return n == 1


class _Want(NamedTuple):
    """What the glass should show: the frame, switched off or not, the contrast (None: as set up);
    ``final``: the last frame, kept on the glass after exit."""
    image: Image.Image | None
    blanked: bool
    level: int | None
    final: bool = False


class _Link:
    """The panel thread's side: the panel it sends to and what that panel holds."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.doing = ""                          # what is (or was last) sent: "redraw", "check"...
        self.image: Image.Image | None = None    # the frame last sent
        self.level: int | None = None            # the contrast set (None: not set yet)
        self.blanked: bool | None = False        # switched off (None: not known, set up anew)
        self.resend = False                      # the next frame goes whole

    def adopt(self, device: Any) -> None:
        """A panel just opened: set up, dark, with random RAM and its own contrast."""
        self.device, self.level, self.blanked, self.resend = device, None, None, True

    def check(self) -> None:
        from hw.display import refresh
        self._do("check", refresh)
        self.level, self.resend = None, True
        if self.blanked:
            self.blanked = None          # (switched off again, to be sure)

    def apply(self, want: _Want) -> None:
        """Send what ``want`` differs in from what the panel holds: the contrast, then switching
        off, or on and the frame (only its changes, or whole after a set-up, contrast or wake)."""
        from hw.display import blank, set_contrast, show
        level = want.level
        if level is not None and level != self.level:
            self._do("contrast", lambda d: set_contrast(d, level))
            self.level, self.resend = level, True
        if want.blanked:
            if self.blanked is not True:
                self._do("blank", lambda d: blank(d, True))
                self.blanked = True
            return
        if self.blanked:
            self._do("wake", lambda d: blank(d, False))
            self.resend = True
        self.blanked = False
        image = want.image
        if image is not None and (self.resend or image is not self.image):
            self._do("shutdown" if want.final else "redraw", lambda d: show(d, image))
            self.image, self.resend = image, False
        if want.final and image is not None:
            self.device.persist = True

    def _do(self, what: str, action: Callable[[Any], None]) -> None:
        self.doing = what
        action(self.device)


def passing(e: BaseException) -> bool:
    """Whether ``e`` (raised by a transfer to the panel) may be a passing fault worth one more try
    at once: a transfer nobody acknowledged or that broke off (hw.display.NOT_THERE: EREMOTEIO,
    ENXIO, EIO), not a bus held low (ETIMEDOUT: each try costs its timeout, about a second)."""
    from hw.display import NOT_THERE
    seen: BaseException | None = e
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno is not None:
            return seen.errno in NOT_THERE
        seen = seen.__cause__
    return False


def reason(e: BaseException) -> Msg | str:
    """What went wrong as the error says it: its sentence (hw.display.DisplayError and
    hw.buttons.ButtonError carry a Msg, said in the player's language), else its text, else the
    name of its type."""
    said = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Msg) else None
    return said if said is not None else (str(e) or type(e).__name__)
