"""Slow read-only answers (exact battle odds, advice) computed off the main loop.

The main thread owns the App, the console and the session; a job handed here is a closure over a
*copy* of the state (``Console.detached``), so the worker never touches live data. Jobs carry a
group (the state they answer for): when the battle moves on, jobs of an older group that have not
started are dropped, so only what the screen shows now is computed. A finished job
calls ``wake`` (the device loop puts an event on its queue) so the screen is drawn again with the
answer. A job that raises is answered with the exception, never ends the thread.

When no job waits, the worker runs its ``idle`` tasks (each returns whether it did something):
the exact odds give their first answer after a forward pass and take the table back here
(engine.jc.odds.finish), so the first figure is on the screen as soon as it exists and the
later ones are look-ups. A job submitted meanwhile waits for the idle task in hand only.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

KEEP = 16          # finished answers kept (a battle step has at most two: odds and advise)
log = logging.getLogger(__name__)


class Worker:
    """One daemon thread running the newest submitted job; answers are read by key."""

    def __init__(self, wake: Callable[[], None], idle: tuple[Callable[[], bool], ...] = ()) -> None:
        self._wake = wake
        self._idle = idle
        self._idling = False
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._todo: OrderedDict[Hashable, Callable[[], Any]] = OrderedDict()
        self._group: Hashable = None
        self._running: Hashable | None = None
        self._done: OrderedDict[Hashable, tuple[bool, Any]] = OrderedDict()
        self._thread = threading.Thread(target=self._loop, name="legatus-worker", daemon=True)
        self._thread.start()

    def submit(self, key: Hashable, job: Callable[[], Any], group: Hashable = None) -> None:
        """Compute ``job()`` for ``key`` unless it is done, running or waiting already. Waiting
        jobs of another ``group`` are dropped (they answer for a state that is gone)."""
        with self._lock:
            if group != self._group:
                self._group = group
                self._todo.clear()
            if key in self._done or key == self._running or key in self._todo:
                return
            self._todo[key] = job
            self._ready.notify()

    def answer(self, key: Hashable) -> tuple[bool, Any] | None:
        """``(True, value)`` or ``(False, exception)`` once ``key`` is done; None before."""
        with self._lock:
            return self._done.get(key)

    def busy(self) -> bool:
        """A job (or an idle task) is running or waiting."""
        with self._lock:
            return self._running is not None or bool(self._todo) or self._idling

    def _loop(self) -> None:
        while True:
            with self._lock:
                idle = not self._todo
            while idle and self._idle_once():
                with self._lock:
                    idle = not self._todo
            with self._lock:
                while not self._todo:
                    self._ready.wait()
                key, job = self._todo.popitem(last=False)
                self._running = key
            try:
                result: tuple[bool, Any] = (True, job())
            except Exception as e:  # noqa: BLE001 - a failing job is answered, the thread goes on
                result = (False, e)
            with self._lock:
                self._done[key] = result
                while len(self._done) > KEEP:
                    self._done.popitem(last=False)
                self._running = None
            try:
                self._wake()
            except Exception:  # noqa: BLE001 - a closed queue at shutdown: nothing to wake
                log.debug("worker: nothing to wake", exc_info=True)

    def _idle_once(self) -> bool:
        """Run the idle tasks once; whether any did something."""
        did = False
        with self._lock:
            self._idling = bool(self._idle)
        for task in self._idle:
            try:
                did = bool(task()) or did
            except Exception:  # noqa: BLE001 - an idle task failing must not end the thread
                log.exception("worker: idle task %r failed", task)
        with self._lock:
            self._idling = False
        return did
