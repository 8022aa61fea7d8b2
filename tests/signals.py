"""A check shared by the signal-handler tests (tests/test_device_loop.py, tests/test_simulator.py)."""
from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any


def put_while_the_queue_is_locked(handler: Callable[[int, Any], Any], signum: int, events: queue.Queue) -> Any:
    """Call a signal handler as the main thread may run it: between two steps of the loop's
    ``Queue.get``, with the queue's lock held. Returns the event it put. Raises AssertionError if
    the handler waits for that lock (the program would hang)."""
    done = threading.Event()

    def inside_get() -> None:
        with events.mutex:                  # as Queue.get holds it between two of its steps
            handler(signum, None)
        done.set()
    threading.Thread(target=inside_get, daemon=True).start()
    assert done.wait(5), "the signal handler waits for the queue's lock"
    return events.get(timeout=5)
