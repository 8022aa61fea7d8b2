"""The sign "Saving…" over the panel's frame while a save takes long (a slow SD card):
:class:`SavingSign`."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.device import Loop

log = logging.getLogger(__name__)

SLOW_SAVE = 0.4    # s: a save taking longer shows "Saving…"


class SavingSign:
    """"Saving…" over the frame on the panel while a save takes longer than ``delay`` s.

    On a slow SD card each action's commit (it syncs the card five times: the journal, the
    database, the directory) can take seconds, and the loop's thread waits in it: the panel kept
    the frame the key was pressed on, as if the key had not been taken, and the keys pressed again
    meanwhile acted after it, on a screen not seen yet. Entered around every transaction
    (``Store.watch``), this has a timer thread put the sign over the loop's last frame (it never
    touches the App) once the save has taken ``delay`` s; when the save is done the loop draws its
    frame again, and the presses begun while the sign was up do nothing (as a notice's key).
    Saves on another thread than the loop's, or while the panel is blanked, show nothing."""

    def __init__(self, loop: Loop, delay: float = SLOW_SAVE, clock: Callable[[], float] = time.monotonic) -> None:
        self.loop, self.delay, self.clock = loop, delay, clock
        self.owner = threading.get_ident()      # the loop's thread
        self._lock = threading.Lock()
        self._current: object | None = None     # the save under way (its token), if watched
        self._since: float | None = None        # when its sign went up
        self.shown = 0                          # signs shown so far (the log says each)

    @contextmanager
    def __call__(self) -> Iterator[None]:
        loop = self.loop
        if (threading.get_ident() != self.owner or self._current is not None or loop.out is None
                or loop.blanked or loop.shown is None or getattr(loop.out, "hidden", False)):
            yield                                # (another thread's, a nested one, or nothing to draw on)
            return
        token = object()
        with self._lock:
            self._current, self._since = token, None
        timer: threading.Timer | None = None
        try:
            started = threading.Timer(self.delay, self._show, args=(token,))
            started.daemon = True
            started.start()
            timer = started
        except RuntimeError:                     # no thread to be had: no sign, the save goes on
            timer = None
        start = self.clock()
        try:
            yield
        finally:
            if timer is not None:
                timer.cancel()
            with self._lock:
                self._current, since = None, self._since
            if since is not None:
                until = self.clock()
                log.warning("storage: a save took %.1f s (a slow card?)", until - start)
                loop.signed(since, until)

    def _show(self, token: object) -> None:
        """(The timer thread.) The sign over the last frame, if that save is still under way."""
        from firmware.screens.menu import saving_sign
        with self._lock:
            loop = self.loop
            if self._current is not token or loop.out is None or loop.shown is None:
                return
            try:
                img = saving_sign(loop.shown)
                self._since = self.clock()
                self.shown += 1
                loop.out.show(img)
            except Exception as e:  # noqa: BLE001 - the sign must never end the program
                log.warning("the saving sign could not be shown (%s)", e)
