"""Odds and advice off the main loop (issue 11 item 2: live odds without a wait on the Pi).

The worker runs a job built from a copy of the state; the screen shows "…" until the answer is
there, then exactly what the synchronous App shows (J-15 odds, J-14 advice).
"""
from __future__ import annotations

import queue
import threading

from PIL import ImageChops

from engine.jc import odds as O
from firmware.screens.jc import odds as jc
from firmware.worker import Worker
from tests.screens import app_with, drawn

# a big battle (slow odds): the legions from the levy pool (17-19, 36, 38: levied at I, J-20)
# built up to their full IV
BIG = ["new jc-battle seed=5",
       # (the legions in the levy pool are levied and given their steps first: J-20, a pool block
       # joins a battle only at I)
       *(f"gain {k}" for k in ("c_leg17", "c_leg18", "p_leg36", "c_leg19", "p_leg38") for _ in range(4)),
       *(f"add attacker {k}" for k in ("c_caesar", "c_leg10", "c_leg8", "c_antonius", "c_leg17 strength=4",
                                       "c_leg18 strength=4")),
       *(f"add defender {k}" for k in ("p_pompeius", "p_leg1", "p_leg3", "p_scipio", "p_leg2", "p_leg36 strength=4")),
       "add attacker c_leg19 strength=4 reserve=1", "add defender p_leg38 strength=4 reserve=1", "start"]


def _wait(events: queue.Queue) -> None:
    assert events.get(timeout=60) == ("wake",)


def test_the_worker_answers_by_key_and_wakes_the_loop():
    events: queue.Queue = queue.Queue()
    w = Worker(lambda: events.put(("wake",)))
    assert w.answer("k") is None
    w.submit("k", lambda: 6 * 7)
    _wait(events)
    assert w.answer("k") == (True, 42) and not w.busy()


def test_a_failing_job_is_answered_and_the_worker_goes_on():
    events: queue.Queue = queue.Queue()
    w = Worker(lambda: events.put(("wake",)))
    w.submit("bad", lambda: 1 // 0)
    _wait(events)
    ok, err = w.answer("bad")
    assert not ok and isinstance(err, ZeroDivisionError)
    w.submit("good", lambda: "yes")
    _wait(events)
    assert w.answer("good") == (True, "yes")


def test_waiting_jobs_of_a_state_that_is_gone_are_dropped():
    events: queue.Queue = queue.Queue()
    w = Worker(lambda: events.put(("wake",)))
    started, gate, ran = threading.Event(), threading.Event(), []
    w.submit("first", lambda: started.set() or gate.wait(30) and ran.append("first"), group=1)
    assert started.wait(30)
    w.submit("odds 1", lambda: ran.append("odds 1"), group=1)     # waits behind "first"
    w.submit("odds 2", lambda: ran.append("odds 2"), group=2)     # the state moved on
    w.submit("advise 2", lambda: ran.append("advise 2"), group=2)
    gate.set()
    for _ in range(3):
        _wait(events)
    assert ran == ["first", "odds 2", "advise 2"] and w.answer("odds 1") is None


def test_a_detached_job_reads_a_copy_and_matches_the_console(state_dir):  # J-15
    app = app_with(BIG, [], state_dir)
    try:
        session = app.console.session
        assert session.detached("fire c_caesar") is None            # changes the state: not here
        assert session.detached("no-such-command") is None
        job = session.detached("odds")
        before = app.console.request("odds")
        assert app.console.request("fire p_scipio")["ok"]           # the battle moves on …
        assert app.console.response(job()) == before                # … the job answers for then
    finally:
        app.console.close()


class _Held(Worker):
    """The worker, each job held until ``go`` is set (a test seam; the worker is unchanged): the
    frame is drawn before any answer is there, however the threads are scheduled. The jobs answer at
    once (the synchronous app left the odds table made), and on a loaded machine they did so while
    the frame that submitted them was still being drawn: no wait mark in it (about 2 runs in 6)."""

    def __init__(self, wake):
        self.go = threading.Event()
        super().__init__(wake)

    def submit(self, key, job, group=None):
        def held():
            assert self.go.wait(60)
            return job()
        super().submit(key, held, group)


def test_the_battle_screen_shows_a_wait_mark_then_the_same_odds_and_advice(state_dir):  # J-14, J-15
    sync = app_with(BIG, ["a"], state_dir, lang="ru")           # (the battle fought: its screen at once)
    expected = sync.render()
    shown_sync = drawn(sync)
    sync.console.close()
    jc._CACHE.clear()
    O._RECENT.clear()                                               # the worker computes afresh

    other = state_dir.parent / "worker"
    other.mkdir()
    app = app_with(BIG, [], other, lang="ru")
    try:
        events: queue.Queue = queue.Queue()
        app.worker = held = _Held(lambda: events.put(("wake",)))
        app.handle("a")                                             # the battle screen (being fought)
        waiting = " ".join(t for _x, _y, t, _k in drawn(app))
        assert jc.WAIT in waiting
        held.go.set()                                               # the answers may come now
        deadline = 0
        while app.worker.busy() or jc.WAIT in " ".join(t for _x, _y, t, _k in drawn(app)):
            _wait(events)                                           # odds, then advice
            deadline += 1
            assert deadline < 5
        assert drawn(app) == shown_sync
        assert ImageChops.logical_xor(app.render(), expected).getbbox() is None
    finally:
        app.console.close()
        jc._CACHE.clear()


def test_the_device_loop_draws_the_answer_when_the_worker_wakes_it(state_dir):  # J-15
    from firmware.device import Loop
    from tests.test_device_loop import Recorder
    jc._CACHE.clear()
    app = app_with(BIG, [], state_dir)
    try:
        events: queue.Queue = queue.Queue()
        app.worker = Worker(lambda: events.put(("wake",)))
        out = Recorder()
        loop = Loop(app, out)
        loop.handle(("key", "a"))                                 # the battle screen (being fought)
        frames = len(out.frames)
        while app.worker.busy() or not events.empty():
            loop.handle(events.get(timeout=60))                   # the loop's own event path
        assert len(out.frames) > frames                           # drawn again, with the figures
        shown = " ".join(t for _x, _y, t, _k in drawn(app))
        assert jc.WAIT not in shown and "%" in shown
    finally:
        app.console.close()
        jc._CACHE.clear()


def test_the_worker_takes_the_table_back_when_idle_and_a_restarted_battle_is_computed_once(state_dir):
    """Issue 25 item 3: the odds job answers after the forward pass, the worker's idle task takes
    the table back (engine.jc.odds.finish); after a power cut the battle is computed once, not
    once per screen (J-15)."""
    app = app_with(BIG, [], state_dir, lang="uk")
    events: queue.Queue = queue.Queue()
    try:
        O.forget()
        jc._CACHE.clear()
        app.worker = Worker(lambda: events.put(("wake",)), idle=(O.finish,))
        job = app.console.session.detached("odds")
        app.worker.submit("odds", job, group=1)
        _wait(events)
        assert app.worker.answer("odds")[0] and O.computations() == 1
        for _ in range(200):                                        # the idle task runs after it
            if not app.worker.busy() and not O.finish():
                break
            threading.Event().wait(0.05)
        assert O._TABLE and O._TABLE[0].sheets and O._TABLE[0].pending is None
    finally:
        app.console.close()
    O.forget()                                                      # the power cut: memory gone
    jc._CACHE.clear()
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    again = App(Console(store, store.resume()))
    try:
        for key in ("a", "a"):                                      # home, the battle screen
            again.handle(key)
        for _ in range(3):                                          # each screen asks anew
            jc._CACHE.clear()
            drawn(again)
            again.handle("down")
        assert O.computations() == 1
    finally:
        again.console.close()
