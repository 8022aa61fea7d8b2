"""The panel and the keys as parts that come and go (issue 21): a display error at run time is
caught and logged, the program goes on, and the panel is opened again once it answers; SIGTERM
with no panel exits 0; the config file's profile is honoured (a Waveshare HAT)."""
from __future__ import annotations

import errno
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import smbus2
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware.device import Loop
from firmware.buttons_part import KeysPart
from firmware.hardware import PanelOutput
from hw.config import DisplayConfig
from hw.display import open_display
from tests.screens import app_with
from tests.test_hw_panel import Controller, same

ROOT = Path(__file__).resolve().parents[1]


class Board:
    """The I2C bus with an SSD1306 panel on it that can be unplugged: smbus2.SMBus stand-in.
    Unplugged, every transfer fails as a device that does not acknowledge (EREMOTEIO); plugged
    back, the panel is a fresh one (power lost: switched off, random RAM, not initialised).
    ``unplug(after=n)``: the panel goes after n more transfers (in the middle of a frame).
    ``address``: where the panel answers (nothing answers at any other address)."""

    def __init__(self) -> None:
        self.plugged = True
        self.ctl = Controller("ssd1306")
        self.buses = 0
        self.plugs = 0
        self.after: int | None = None
        self.address = 0x3C
        self.error = errno.EREMOTEIO        # what a transfer nobody acknowledges fails with
        self.tried: list[int] = []          # the addresses written to, in turn
        self.gate: threading.Event | None = None     # the bus held low (see hold)
        self.held_for = 0.0
        self.waiting = threading.Event()    # a transfer waits on the held bus now
        self.closed = threading.Event()     # a bus was closed

    def hold(self, timeout: float) -> None:
        """The bus held low (a stuck slave): each transfer waits until :meth:`free`, or fails
        after ``timeout`` s with ETIMEDOUT, as the kernel's I2C driver does."""
        self.gate, self.held_for = threading.Event(), timeout

    def free(self) -> None:
        gate, self.gate = self.gate, None
        if gate is not None:
            gate.set()

    def unplug(self, after: int = 0) -> None:
        self.plugged, self.after = after > 0, after or None

    def plug(self) -> None:
        self.plugs, self.after = self.plugs + 1, None
        self.ctl = Controller("ssd1306", seed=self.plugs)
        self.plugged = True

    def SMBus(self, port: int) -> Any:
        board = self
        board.buses += 1

        class Bus:
            def _check(self, addr: int) -> None:
                gate = board.gate
                if gate is not None:
                    board.waiting.set()
                    freed = gate.wait(board.held_for)
                    board.waiting.clear()
                    if not freed:
                        raise OSError(errno.ETIMEDOUT, os.strerror(errno.ETIMEDOUT))
                if not board.tried or board.tried[-1] != addr:
                    board.tried.append(addr)
                if addr != board.address:
                    raise OSError(board.error, os.strerror(board.error))
                if board.after is not None:
                    board.after -= 1
                    board.plugged = board.after > 0
                    board.after = board.after or None
                if not board.plugged:
                    raise OSError(errno.EREMOTEIO, "Remote I/O error")

            def write_i2c_block_data(self, addr: int, reg: int, data: list[int]) -> None:
                self._check(addr)
                assert reg == 0x00
                board.ctl.command(*data)

            def i2c_rdwr(self, *msgs: Any) -> None:
                for m in msgs:
                    self._check(m.addr)
                    payload = bytes(m)
                    assert payload[0] == 0x40
                    board.ctl.data(list(payload[1:]))

            def close(self) -> None:
                board.closed.set()
        return Bus()


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> Board:
    import hw.display
    b = Board()
    monkeypatch.setattr(smbus2, "SMBus", b.SMBus)
    monkeypatch.setattr(hw.display, "_FOUND_ELSEWHERE", set())     # (a panel found elsewhere: said once a run)
    return b


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def panel_loop(state_dir: Path, board: Board) -> tuple[Any, Loop, PanelOutput, Clock]:
    app = app_with([], [], state_dir)
    clock = Clock()
    cfg = DisplayConfig()
    out = PanelOutput(lambda: open_display(cfg), device=open_display(cfg), clock=clock)
    loop = Loop(app, out, clock=clock, parts=out)
    loop.redraw()
    assert board.ctl.on and same(board.ctl.panel(), app.render())
    return app, loop, out, clock


def test_a_panel_unplugged_while_drawing_is_reopened_when_plugged_back(
        board: Board, state_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        board.unplug()
        loop.handle(("key", "down"))                       # the redraw fails: caught, logged
        assert not out.connected and out.lost == 1
        assert "redraw failed" in caplog.text and "Remote I/O error" in caplog.text
        assert app.stack[-1].cursor == 1                   # the key was acted on all the same
        loop.handle(("key", "down"))                       # and the UI goes on without the panel
        assert app.stack[-1].cursor == 2
        assert loop.timeout() == pytest.approx(PanelOutput.RETRY)
        clock.t += PanelOutput.RETRY
        loop.poll_parts()                                  # still unplugged: tried, quietly
        assert not out.connected and board.buses == 3        # (at 0x3c, then at 0x3d)
        board.plug()                                       # a fresh panel: dark, random RAM
        assert not board.ctl.on
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and out.reopened == 1
        assert board.ctl.on and same(board.ctl.panel(), app.render())   # initialised, whole frame
        assert "answers again" in caplog.text
        loop.handle(("key", "up"))
        assert same(board.ctl.panel(), app.render())
    finally:
        app.console.close()


def lost_loop(state_dir: Path, board: Board) -> tuple[Any, Loop, PanelOutput, Clock, queue.Queue[Any]]:
    """As the device runs it: everything sent to the panel (and its re-open) goes through the panel
    thread, which puts ("panel",) on the loop's queue when it opened or lost the panel; the panel
    then lost (unplugged: EREMOTEIO, at once)."""
    app = app_with([], [], state_dir)
    clock, events = Clock(), queue.Queue()
    cfg = DisplayConfig()
    out = PanelOutput(lambda: open_display(cfg), device=open_display(cfg), clock=clock,
                      notify=lambda: events.put(("panel",)))
    loop = Loop(app, out, clock=clock, parts=out)
    loop.redraw()
    assert out.wait_idle(5) and same(board.ctl.panel(), app.render())
    board.unplug()
    loop.handle(("key", "down"))
    assert events.get(timeout=5) == ("panel",)             # the panel thread found it gone
    loop.handle(("panel",))
    loop.poll_parts()
    assert not out.connected and out.lost == 1 and app.stack[-1].cursor == 1
    return app, loop, out, clock, events


def test_a_panel_on_a_stuck_bus_is_reopened_off_the_main_loop(board: Board, state_dir: Path) -> None:
    """A bus held low makes every transfer wait for its timeout (about a second on a Pi): the
    re-open tried every 3 s on the main loop made the device lag that long each time. It runs on
    the panel thread: the loop goes on (keys acted on, drawn), and takes the panel when the thread
    says it is open, sending it the whole frame (the keys pressed meanwhile included)."""
    app, loop, out, clock, events = lost_loop(state_dir, board)
    try:
        board.plug()
        board.hold(timeout=10.0)
        clock.t += PanelOutput.RETRY
        loop.poll_parts()                                  # the re-open starts, aside
        assert board.waiting.wait(5), "the re-open did not run beside the loop"
        assert out.next_deadline() is None                 # nothing to do until the thread says so
        loop.handle(("key", "down"))                       # meanwhile the keys work
        assert app.stack[-1].cursor == 2 and not out.connected and events.empty()
        board.free()                                       # the bus lets go: the panel answers
        assert events.get(timeout=5) == ("panel",)
        loop.handle(("panel",))
        loop.poll_parts()
        assert out.connected and out.reopened == 1 and out.error is None
        assert out.wait_idle(5)                            # (the key pressed meanwhile: its frame next)
        assert board.ctl.on and same(board.ctl.panel(), app.render())   # set up, and the whole frame
        loop.handle(("key", "up"))
        assert out.wait_idle(5) and same(board.ctl.panel(), app.render()) and app.stack[-1].cursor == 1
    finally:
        board.free()
        out.settle(1)                                      # (its panel thread ends)
        app.console.close()


def test_a_reopen_that_times_out_is_tried_again_later_with_its_reason(board: Board, state_dir: Path) -> None:
    app, loop, out, clock, events = lost_loop(state_dir, board)
    try:
        board.plug()
        board.hold(timeout=0.01)                           # never let go: each try times out
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert events.get(timeout=5) == ("panel",)
        loop.handle(("panel",))
        loop.poll_parts()
        assert not out.connected and "timed out" in str(out.error)
        assert loop.timeout() == pytest.approx(PanelOutput.RETRY)    # the next try: 3 s after this one
    finally:
        board.free()
        out.settle(1)                                      # (its panel thread ends)
        app.console.close()


def first_open(hw: Any, events: queue.Queue[Any]) -> None:
    """What the panel thread's first open came to, taken as the device's loop takes it."""
    assert events.get(timeout=5) == ("panel",)
    hw.poll(hw.output.next_deadline())


def panel_threads() -> int:
    return sum(t.name == "panel" for t in threading.enumerate())


def test_no_thread_for_the_panel_drives_it_from_the_loop_meanwhile(board: Board, state_dir: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A panel thread that cannot start (the process's thread limit) leaves nothing unsent: the
    panel is driven from the loop meanwhile (as tools drive it), a panel lost then is re-opened
    from there too, and the thread is tried again 3 s later, then used."""
    from firmware.screens.menu import saved_screen
    app = app_with([], [], state_dir)
    clock, events = Clock(), queue.Queue()
    cfg = DisplayConfig()
    out = PanelOutput(lambda: open_display(cfg), device=open_display(cfg), clock=clock,
                      notify=lambda: events.put(("panel",)))
    loop = Loop(app, out, clock=clock, parts=out)
    threads = panel_threads()

    def refused(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")
    try:
        with monkeypatch.context() as m:
            m.setattr(threading.Thread, "start", refused)
            loop.redraw()
            assert same(board.ctl.panel(), app.render())          # sent from here, at once
            board.unplug()
            loop.handle(("key", "down"))
            assert not out.connected and out.lost == 1 and app.stack[-1].cursor == 1
            board.plug()
            clock.t += PanelOutput.RETRY
            loop.poll_parts()                                     # (the thread refused again)
            assert out.connected and same(board.ctl.panel(), app.render())
        loop.handle(("key", "down"))                              # within 3 s: still from here
        assert same(board.ctl.panel(), app.render()) and panel_threads() == threads
        clock.t += PanelOutput.RETRY
        loop.handle(("key", "up"))                                # the thread now
        assert panel_threads() == threads + 1
        assert out.wait_idle(5) and same(board.ctl.panel(), app.render())
        out.shutdown(saved_screen())
        assert same(board.ctl.panel(), saved_screen()) and panel_threads() == threads and events.empty()
    finally:
        app.console.close()


def test_the_end_waits_for_a_reopen_under_way_and_leaves_its_last_frame(board: Board, state_dir: Path) -> None:
    """SIGTERM while the panel thread is opening the panel: the end waits for it (a little) and
    leaves "Saved" on the panel it opened; a re-open that takes longer lets go of its panel when
    done (never used, it would have switched the glass off at exit)."""
    from firmware.screens.menu import saved_screen
    app, loop, out, clock, events = lost_loop(state_dir, board)
    try:
        board.plug()
        board.hold(timeout=10.0)
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert board.waiting.wait(5)
        threading.Timer(0.05, board.free).start()          # answers while the end waits
        out.shutdown(saved_screen())
        assert out.connected and board.ctl.on and same(board.ctl.panel(), saved_screen())
        assert out.device.persist                          # (kept on the glass after exit)
    finally:
        board.free()
        out.settle(1)                                      # (its panel thread ends)
        app.console.close()
    app, loop, out, clock, events = lost_loop(state_dir, board)
    try:
        board.plug()
        board.hold(timeout=10.0)
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert board.waiting.wait(5)
        board.closed.clear()
        out.settle(wait=0.01)                              # gives up waiting
        assert not out.connected and out.next_deadline() is None
        board.free()
        assert board.closed.wait(5)                        # the thread let go of the panel it opened
        loop.poll_parts()
        assert not out.connected and events.empty()
    finally:
        board.free()
        out.settle(1)                                      # (its panel thread ends)
        app.console.close()


def threaded_loop(state_dir: Path, board: Board, **timing: float) -> tuple[Any, Loop, PanelOutput, Clock,
                                                                            queue.Queue[Any]]:
    """As the device runs it, the panel in use: everything sent to it goes through the panel thread."""
    app = app_with([], [], state_dir)
    clock, events = Clock(), queue.Queue()
    cfg = DisplayConfig()
    out = PanelOutput(lambda: open_display(cfg), device=open_display(cfg), clock=clock,
                      notify=lambda: events.put(("panel",)), **timing)
    loop = Loop(app, out, clock=clock, parts=out)
    loop.redraw()
    assert out.wait_idle(5) and same(board.ctl.panel(), app.render())
    return app, loop, out, clock, events


def timed(call: Any, *args: Any) -> float:
    start = time.monotonic()
    call(*args)
    return time.monotonic() - start


def test_the_check_and_the_frames_never_wait_for_a_stuck_bus(board: Board, state_dir: Path) -> None:
    """The periodic check of a panel in use (every 10 s) and every frame ran on the main loop: with
    the I2C bus held low each waited for the bus timeout (about a second on a Pi), the key pressed
    meanwhile with it, and the failure was found there. They go through the panel thread now: the
    loop asks and goes on; the thread finds the failure and says so; the latest frame is sent once
    the panel answers again."""
    app, loop, out, clock, events = threaded_loop(state_dir, board)
    try:
        board.hold(timeout=1.0)                            # stuck: a transfer waits 1 s, then ETIMEDOUT
        clock.t += PanelOutput.PROBE
        assert timed(loop.poll_parts) < 0.2                # the check: asked, not waited for
        assert board.waiting.wait(5)                       # (it waits on the bus, aside)
        assert timed(loop.handle, ("key", "down")) < 0.2 and timed(loop.handle, ("key", "down")) < 0.2
        assert app.stack[-1].cursor == 2 and out.connected and events.empty()
        board.free()                                       # the bus lets go in time: nothing lost
        assert out.wait_idle(5) and out.connected and out.lost == 0 and events.empty()
        assert board.ctl.on and same(board.ctl.panel(), app.render())      # the latest frame

        board.hold(timeout=0.3)                            # stuck for good: each transfer times out
        assert timed(loop.handle, ("key", "up")) < 0.2     # its frame waits aside...
        assert events.get(timeout=5) == ("panel",)         # ...and the panel thread finds it lost
        assert timed(loop.handle, ("key", "up")) < 0.2 and app.stack[-1].cursor == 0
        loop.handle(("panel",))
        loop.poll_parts()
        assert not out.connected and out.lost == 1 and "timed out" in str(out.error)
        board.free()
        clock.t += PanelOutput.RETRY
        loop.poll_parts()                                  # re-opened by the same thread
        assert events.get(timeout=5) == ("panel",)
        loop.handle(("panel",))
        loop.poll_parts()
        assert out.connected and out.reopened == 1 and same(board.ctl.panel(), app.render())
    finally:
        board.free()
        out.settle(1)                                      # (its panel thread ends)
        app.console.close()


def test_the_end_does_not_wait_for_a_stuck_bus(board: Board, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM while the bus is held low: the end waits for the panel a little (SETTLE), then leaves
    it as it is and sends it nothing more (not even the switch-off at exit, which would wait for the
    bus again on the exiting thread); the panel thread lets go of the panel when its transfer
    returns, and ends."""
    import atexit

    from firmware.screens.menu import saved_screen
    app, loop, out, clock, events = threaded_loop(state_dir, board)
    threads = panel_threads()
    device = out.device
    try:
        board.hold(timeout=10.0)
        loop.handle(("key", "down"))
        assert board.waiting.wait(5)
        board.closed.clear()
        dropped: list[Any] = []
        unregister = atexit.unregister
        with monkeypatch.context() as m:
            m.setattr(atexit, "unregister", lambda f: (dropped.append(f), unregister(f))[1])
            assert timed(out.shutdown, saved_screen(), 0.2) < 1.0
        assert not out.connected and not device.persist
        assert dropped == [device._at_exit]                # (its switch-off at exit: not sent)
        board.free()
        assert board.closed.wait(5)                        # the panel thread let go of it...
        for _ in range(100):
            if panel_threads() < threads:
                break
            time.sleep(0.05)
        assert panel_threads() == threads - 1 and events.empty()       # ...and ended, saying nothing
    finally:
        board.free()
        out.settle(1)                                      # (its panel thread ends)
        app.console.close()


def test_keys_keep_their_latency_while_the_bus_sticks_and_comes_back(board: Board, state_dir: Path) -> None:
    """The device's loop on its own thread, the panel checked every 0.1 s, its bus held low again and
    again (let go in time, or for longer than its 1 s timeout: the panel lost and re-opened): every
    key is answered within a frame or two, by the loop's thread alone (it owns the game; the panel
    thread only sends frames); the frames reach the panel in the order they were drawn, the latest
    last; one panel thread for all the cycles, none left after the end."""
    from firmware.screens.menu import saved_screen
    app = app_with([], [], state_dir)
    events: queue.Queue[Any] = queue.Queue()
    cfg = DisplayConfig()
    out = PanelOutput(lambda: open_display(cfg), device=open_display(cfg), retry=0.2, probe=0.1,
                      notify=lambda: events.put(("panel",)))
    loop = Loop(app, out, parts=out)
    answered: list[float] = []
    owners: set[int] = set()
    handle, render = app.handle, app.render

    def handled(key: str) -> None:
        owners.add(threading.get_ident())
        answered.append(time.monotonic())
        handle(key)

    def rendered() -> Any:
        owners.add(threading.get_ident())
        return render()
    app.handle, app.render = handled, rendered             # type: ignore[method-assign]
    drawn: list[bytes] = []                                # what the loop drew, in turn
    sent: list[bytes] = []                                 # what reached the panel, in turn
    show = out.show
    out.show = lambda img: (drawn.append(img.tobytes()), show(img))[1]    # type: ignore[method-assign]
    import hw.display
    send = hw.display.show

    def sending(device: Any, img: Any) -> None:
        send(device, img)
        sent.append(img.tobytes())
    before = threading.active_count()
    runner = threading.Thread(target=loop.run, args=(events,), name="loop")
    latencies: list[float] = []

    def press(key: str) -> None:
        n, start = len(answered), time.monotonic()
        events.put(("key", key))
        while len(answered) == n and time.monotonic() - start < 5:
            time.sleep(0.001)
        latencies.append(answered[-1] - start)
    try:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(hw.display, "show", sending)
            runner.start()
            for cycle in range(6):
                board.hold(timeout=1.0)
                press("down")
                assert board.waiting.wait(5)               # the panel thread waits on the bus now
                for key in ("down", "up", "down"):
                    press(key)
                if cycle % 2:
                    time.sleep(1.2)                        # longer than the bus timeout: the panel is lost
                    press("up")
                board.free()
                deadline = time.monotonic() + 5
                while not (out.connected and out.wait_idle(0.1)) and time.monotonic() < deadline:
                    time.sleep(0.02)
                assert out.connected, f"cycle {cycle}: the panel was not opened again ({out.error})"
                assert threading.active_count() <= before + 2      # the loop and one panel thread
            events.put(("quit",))
            runner.join(5)
            assert not runner.is_alive()
        assert owners == {runner.ident}
        assert max(latencies) < 0.3, latencies            # (a frame or two here; the bus timeout is 1 s)
        assert out.lost >= 3 and out.reopened == out.lost
        assert out.wait_idle(5) and same(board.ctl.panel(), app.render())
        assert sent and sent[-1] == drawn[-1]
        i = 0
        for frame in sent:                                 # never an older frame after a newer one
            while i < len(drawn) and drawn[i] != frame:
                i += 1
            assert i < len(drawn), "a frame reached the panel out of order"
        out.shutdown(saved_screen())
        assert same(board.ctl.panel(), saved_screen()) and threading.active_count() == before
    finally:
        board.free()
        events.put(("quit",))
        app.console.close()


def test_a_panel_unplugged_while_idle_is_noticed_by_the_check(board: Board, state_dir: Path) -> None:
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        board.unplug()
        board.plug()                                       # swapped while nothing was drawn...
        board.unplug()
        clock.t += PanelOutput.PROBE
        loop.poll_parts()                                  # ...the periodic check notices
        assert not out.connected
        board.plug()
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and same(board.ctl.panel(), app.render())
    finally:
        app.console.close()


def test_a_panel_that_lost_power_while_idle_is_set_up_again_by_the_check(board: Board, state_dir: Path) -> None:
    """A loose contact or a brown-out resets the panel between two frames: it answers again at
    once, but dark and with random RAM, and no transfer failed. The periodic check sets it up
    again and sends the whole frame (it stayed dark: the no-op check passed and later frames
    sent only what changed); blanked, it stays dark."""
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        board.unplug()
        board.plug()                                       # power back: dark, random RAM
        assert not board.ctl.on
        clock.t += PanelOutput.PROBE
        loop.poll_parts()
        assert out.connected and board.ctl.on and same(board.ctl.panel(), app.render())
        loop.handle(("key", "down"))                       # later frames: only the changes, right
        assert same(board.ctl.panel(), app.render())
        assert app.set_setting("screen_off", "30")["ok"]
        clock.t += 31
        loop.tick()                                        # blanked
        assert not board.ctl.on
        board.unplug()
        board.plug()
        clock.t += PanelOutput.PROBE
        loop.poll_parts()
        assert out.connected and not board.ctl.on          # still dark while blanked ...
        lit = switched_on(board, app)
        loop.handle(("key", "a"))                          # ... and a key wakes it with the frame
        assert board.ctl.on and same(board.ctl.panel(), app.render())
        assert lit == [True]        # switched on only once the frame was in the RAM (docs/hardware.md)
    finally:
        app.console.close()


def switched_on(board: Board, app: Any) -> list[bool]:
    """Records, at each display-on command the panel receives, whether its RAM held the frame
    then (a panel set up anew has random RAM: switched on before the frame, that is seen)."""
    ctl, seen = board.ctl, []
    command = ctl._command

    def watched(op: int, args: tuple[int, ...]) -> None:
        if op == 0xAF and not ctl.on:
            ctl.on = True
            seen.append(same(ctl.panel(), app.render()))
            ctl.on = False
        command(op, args)
    ctl._command = watched  # type: ignore[method-assign]
    return seen


def test_a_panel_reopened_while_blanked_is_lit_only_with_its_frame(board: Board, state_dir: Path) -> None:
    """Unplugged and plugged back while the screen is off: opened again (dark), and the key that
    wakes it switches it on only once the frame is in its RAM, never on its random content."""
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        assert app.set_setting("screen_off", "30")["ok"]
        clock.t += 31
        loop.tick()
        board.unplug()
        clock.t += PanelOutput.PROBE
        loop.poll_parts()                                  # the check notices it gone
        assert not out.connected
        board.plug()
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and not board.ctl.on
        lit = switched_on(board, app)
        loop.handle(("key", "down"))
        assert board.ctl.on and same(board.ctl.panel(), app.render()) and lit == [True]
    finally:
        app.console.close()


def test_contrast_blanking_and_shutdown_without_a_panel_never_raise(
        board: Board, state_dir: Path) -> None:
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        board.unplug()
        assert app.set_setting("contrast", "5")["ok"]
        loop.redraw()                                      # contrast: fails, caught
        assert not out.connected
        assert app.set_setting("screen_off", "30")["ok"]
        clock.t += 31
        loop.tick()                                        # idle blanking without a panel
        assert loop.blanked
        board.plug()
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and not board.ctl.on          # back, but still blanked as it was
        assert board.ctl.bytes > 0                        # initialised (and its contrast set)
        loop.handle(("key", "down"))                       # wakes with the whole frame
        assert board.ctl.on and same(board.ctl.panel(), app.render())
        board.unplug()
        from firmware.screens.menu import saved_screen
        out.shutdown(saved_screen())                       # no panel at shutdown: no exception
        assert not out.connected
    finally:
        app.console.close()


def test_a_panel_missing_at_start_is_opened_when_it_appears(board: Board, state_dir: Path) -> None:
    """At boot /dev/i2c-1 or the panel may answer late: no panel at start is retried too."""
    board.unplug()
    app = app_with([], [], state_dir)
    clock = Clock()
    cfg = DisplayConfig()
    try:
        out = PanelOutput(lambda: open_display(cfg), device=None, error="not yet", clock=clock)
        loop = Loop(app, out, clock=clock, parts=out)
        loop.redraw()
        loop.poll_parts()                                  # the first retry is due at once
        assert not out.connected
        board.plug()
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and same(board.ctl.panel(), app.render())
    finally:
        app.console.close()


def test_a_panel_that_comes_back_at_the_other_address_is_used(
        board: Board, state_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An SSD1306 module answers at 0x3C or 0x3D (a resistor on its back chooses). A panel swapped
    mid-game for one at 0x3D (or one at 0x3D from the start, with the default profile) was tried
    at 0x3C every 3 s for ever: the game went on dark. The other address is tried too, and the
    log says which setting makes it the one."""
    caplog.set_level(logging.WARNING)
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        board.unplug()
        loop.handle(("key", "down"))
        assert not out.connected
        board.plug()
        board.address = 0x3D                               # the new panel's address
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and board.ctl.on and same(board.ctl.panel(), app.render())
        assert "a panel does at 0x3d" in caplog.text and "display.address = 0x3d" in caplog.text
        loop.handle(("key", "down"))                       # and it goes on at that address
        assert same(board.ctl.panel(), app.render()) and board.tried[-1] == 0x3D
    finally:
        app.console.close()
    board.tried.clear()
    assert type(open_display(DisplayConfig())).__name__ == "Ssd1306" and board.tried == [0x3C, 0x3D]
    board.tried.clear()
    board.error = errno.ETIMEDOUT                          # a bus held low: a timeout, not "nobody there"
    with pytest.raises(Exception, match="timed out"):
        open_display(DisplayConfig())
    assert board.tried == [0x3C]                           # (each try would cost the timeout again)
    board.error = errno.EREMOTEIO
    board.address = 0x3E                                   # not a panel's address: not looked for
    with pytest.raises(Exception, match="answered on /dev/i2c-1 at 0x3c or 0x3d"):
        open_display(DisplayConfig())
    assert 0x3E not in board.tried


def test_the_first_open_on_a_stuck_bus_delays_neither_the_start_nor_a_key(
        state_dir: Path, board: Board, mock_pins: Any) -> None:
    """The panel's first open ran on the main thread before the loop: with the I2C bus held low it
    waited for the bus timeout (about a second on a Pi) before the first key could be read. It runs
    on the panel thread now: the start returns at once, the loop answers the keys (real edges from
    the pins, as gpiozero gives them) while the panel thread waits on the bus, and when the bus
    lets go the panel shows the latest frame, and "Saved" at the end."""
    from firmware.device_hardware import open_hardware
    from firmware.screens.menu import saved_screen
    app = app_with([], [], state_dir)
    events: queue.Queue[Any] = queue.Queue()
    answered: list[float] = []
    handle = app.handle

    def handled(key: str) -> None:
        answered.append(time.monotonic())
        handle(key)
    app.handle = handled                                   # type: ignore[method-assign]
    board.hold(timeout=2.0)                                # stuck: a transfer waits 2 s, then ETIMEDOUT
    runner: threading.Thread | None = None
    try:
        start = time.monotonic()
        hw = open_hardware(types.SimpleNamespace(config=None), app, events)
        assert time.monotonic() - start < 0.5              # (it waited 2 s for the bus)
        assert board.waiting.wait(5) and not hw.output.connected       # the panel thread waits, aside
        loop = Loop(app, hw.output, hw.keyfilter, parts=hw)
        runner = threading.Thread(target=loop.run, args=(events,), name="loop")
        runner.start()
        while loop.shown is None and runner.is_alive():    # (the keys pressed before its first frame do nothing)
            time.sleep(0.002)
        for n, pin in enumerate((22, 22)):                 # joystick down, twice (adafruit-bonnet)
            pressed = time.monotonic()
            mock_pins.pin(pin).drive_low()
            while len(answered) == n and time.monotonic() - pressed < 5:
                time.sleep(0.002)
            mock_pins.pin(pin).drive_high()
            assert answered[n] - pressed < 0.3, answered[n] - pressed
            time.sleep(0.05)
        assert board.waiting.is_set() and app.stack[-1].cursor == 2   # answered while the bus is held
        board.free()                                       # the bus lets go: the panel opens...
        deadline = time.monotonic() + 5
        while not (hw.output.connected and hw.output.wait_idle(0.1)) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hw.output.connected and board.ctl.on and same(board.ctl.panel(), app.render())   # ...the latest frame
        assert hw.live.panel is True
        events.put(("quit",))
        runner.join(5)
        hw.shutdown()
        assert same(board.ctl.panel(), saved_screen())
    finally:
        board.free()
        events.put(("quit",))
        if runner is not None:
            runner.join(5)
        app.console.close()


def test_a_panel_that_times_out_at_start_is_said_and_found_when_it_answers(
        state_dir: Path, board: Board, mock_pins: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A bus held low for good at start: the first open (on the panel thread) times out, the log
    says so once as the start's warning, Settings → Hardware says the panel does not answer (and
    nothing while the first open is still under way); tried again every 3 s, the panel is found
    once the bus lets go, and shows the game."""
    from firmware.device_hardware import open_hardware
    caplog.set_level(logging.INFO)
    app = app_with([], [], state_dir)
    clock, events = Clock(), queue.Queue()
    board.hold(timeout=0.3)
    try:
        hw = open_hardware(types.SimpleNamespace(config=None), app, events, clock=clock)
        assert hw.live.panel is None                       # not known yet: nothing said about it
        loop = Loop(app, hw.output, hw.keyfilter, clock=clock, parts=hw)
        loop.redraw()
        loop.handle(("key", "down"))
        assert app.stack[-1].cursor == 1 and hw.output.next_deadline() is None   # (the thread wakes the loop)
        assert events.get(timeout=5) == ("panel",)
        loop.handle(("panel",))
        loop.poll_parts()                                  # (as the loop's run does after each event)
        assert not hw.output.connected and "timed out" in str(hw.output.error)
        assert hw.live.panel is False and "timed out" in str(hw.live.panel_error)
        assert "running without it for now" in caplog.text and "timed out" in caplog.text
        assert loop.timeout() == pytest.approx(PanelOutput.RETRY)
        board.free()
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert events.get(timeout=5) == ("panel",)
        loop.handle(("panel",))
        loop.poll_parts()
        assert hw.output.connected and hw.live.panel is True
        assert hw.output.wait_idle(5) and board.ctl.on and same(board.ctl.panel(), app.render())
        hw.shutdown()
    finally:
        board.free()
        app.console.close()


def test_the_splash_on_a_stuck_bus_holds_nothing_up_and_is_taken_over_when_it_answers(
        state_dir: Path, board: Board, mock_pins: Any) -> None:
    """The splash (sent before the program is imported, with the last run's display settings) ran
    on the main thread: on a bus held low the start waited for its transfer's timeout (about a
    second) before anything else was done. It is sent aside now: the start goes on at once, and the
    device's panel thread takes that panel over (not a second opening) once the bus lets go."""
    from firmware.device_hardware import open_hardware
    from hw.splash import Aside, early, frame, remember
    remember(state_dir, DisplayConfig())
    board.hold(timeout=2.0)
    start = time.monotonic()
    splash = early(str(state_dir), probe=False, aside=True)
    assert time.monotonic() - start < 0.5 and isinstance(splash, Aside)
    assert board.waiting.wait(5)                           # the splash waits on the bus, aside
    app = app_with([], [], state_dir)
    events: queue.Queue[Any] = queue.Queue()
    try:
        start = time.monotonic()
        hw = open_hardware(types.SimpleNamespace(config=None), app, events, splash)
        assert time.monotonic() - start < 0.5 and not hw.output.connected
        board.free()
        first_open(hw, events)
        assert hw.output.connected and board.buses == 1   # the splash's panel, taken over
        assert hw.output.wait_idle(5) and same(board.ctl.panel(), frame())       # (nothing drawn yet)
        loop = Loop(app, hw.output, hw.keyfilter, parts=hw)
        loop.redraw()
        assert hw.output.wait_idle(5) and same(board.ctl.panel(), app.render())
        hw.shutdown()
    finally:
        board.free()
        app.console.close()


def test_the_storage_waits_panel_opens_off_the_main_thread_too(tmp_path: Path, board: Board) -> None:
    """A state directory that cannot be used at start (firmware/storage_wait.py) is said on the
    panel; that panel's first open ran on the main thread too, the console's lines and a stop
    waiting for a stuck bus. It opens on the panel thread: at once back, the reason shown once the
    bus lets go."""
    from firmware import storage_wait
    from firmware.store import StateDirError
    board.hold(timeout=2.0)
    events: queue.Queue[Any] = queue.Queue()
    args = types.SimpleNamespace(config=None)
    start = time.monotonic()
    panel, fields = storage_wait._panel(args, None, events)
    try:
        assert time.monotonic() - start < 0.5 and board.waiting.wait(5)
        wait = storage_wait.StorageWait(tmp_path, StateDirError("the card is full"), clock=lambda: 0.0)
        panel.show(wait.frame())
        board.free()
        assert events.get(timeout=5) == ("panel",)
        panel.poll()
        assert panel.connected and panel.wait_idle(5) and same(board.ctl.panel(), wait.frame())
        assert fields["driver"] == "ssd1306"
    finally:
        board.free()
        panel.settle(1)


def test_keys_that_cannot_open_are_retried_with_a_growing_interval() -> None:
    clock = Clock()
    tries: list[float] = []
    ready = [False]

    def open_bank() -> object:
        tries.append(clock.t)
        if not ready[0]:
            raise OSError(errno.ENOENT, "no /dev/gpiochip0")
        return types.SimpleNamespace(close=lambda: None)

    keys = KeysPart(open_bank, clock=clock)
    assert keys.bank is None and "gpiochip0" in (keys.error or "")
    for _ in range(4):
        clock.t = keys.next_deadline() or clock.t
        keys.poll()
    assert [b - a for a, b in zip(tries, tries[1:])] == [2, 4, 8, 16]
    ready[0] = True
    clock.t = keys.next_deadline() or clock.t
    keys.poll()
    assert keys.bank is not None and keys.error is None and keys.next_deadline() is None


# -- the config file's profile -------------------------------------------------------------------
WAVESHARE = 'profile = "waveshare-hat"\n'


@pytest.fixture
def mock_pins() -> Any:
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    factory.close()
    Device.pin_factory = None


def test_a_waveshare_config_file_is_honoured(tmp_path: Path, state_dir: Path, mock_pins: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The file's profile beats the built-in default even after other settings were changed on
    the device: SH1106 over SPI port 0, the Waveshare pins (KEY1 = GPIO21 is A)."""
    import luma.core.interface.serial as serial_mod

    from firmware.device_hardware import open_hardware
    from hw.keys import KeyFilter
    config = tmp_path / "config.toml"
    config.write_text(WAVESHARE)
    ctl = Controller("sh1106")
    opened: list[dict[str, Any]] = []

    def spi(**kwargs: Any) -> Controller:
        opened.append(kwargs)
        return ctl
    monkeypatch.setattr(serial_mod, "spi", spi)
    app = app_with(["settings contrast=4"], [], state_dir)           # a setting changed on the device
    events: queue.Queue[Any] = queue.Queue()
    try:
        hw = open_hardware(types.SimpleNamespace(config=str(config)), app, events)
        first_open(hw, events)
        assert hw.resolved.config.profile == "waveshare-hat" and hw.resolved.source == "file"
        assert opened == [{"port": 0, "device": 0, "gpio_DC": 24, "gpio_RST": 25}]
        assert type(hw.device).__name__ == "Sh1106" and hw.output.connected
        assert set(hw.buttons.buttons) == {"a", "b", "key3", "up", "down", "left", "right", "press"}
        pin = mock_pins.pin(21)
        pin.drive_low()
        time.sleep(0.05)                                   # longer than the debounce
        pin.drive_high()
        keys = KeyFilter()
        got: list[str] = []
        while not events.empty():
            _, key, pressed, t = events.get()
            got += keys.feed(key, pressed, t)
        got += keys.tick(time.monotonic() + 1)
        assert got == ["a"]
        hw.shutdown()
    finally:
        app.console.close()


def test_a_busy_key_pin_is_reported_as_the_pin_not_the_pin_library(
        tmp_path: Path, state_dir: Path, mock_pins: Any, board: Board) -> None:
    """A key's pin held by another program (or an overlay): the pin library did load, so the
    doctor (Settings → Hardware, hardware.json) names the pin, not "install python3-lgpio"."""
    from gpiozero import Button

    from firmware import doctor
    from firmware.device_hardware import open_hardware
    app = app_with([], [], state_dir)
    events: queue.Queue[Any] = queue.Queue()
    other = Button(5, pin_factory=mock_pins)                     # A's pin on the Adafruit bonnet
    try:
        hw = open_hardware(types.SimpleNamespace(config=None), app, events)
        assert hw.keys.dead == {"a": 5} and "GPIO5" in (hw.keys.error or "")
        got = doctor.read_status(state_dir)
        assert got is not None and got[0].factory == "MockFactory" and got[0].dead_keys == {"a": 5}
        rows = {str(c.label): c for c in doctor.live_checks(got[0], hw.resolved, True)}
        assert rows["Pin factory"].status == "warn"               # (mock pins: only that warning)
        assert rows["Buttons"].status == "fail" and "A (GPIO5)" in rows["Buttons"].found
        other.close()
        hw.poll(hw.keys.next_deadline())                          # retried: the pin is free now
        assert hw.keys.dead == {} and hw.keys.next_deadline() is None and "Buttons" not in {
            str(c.label) for c in doctor.live_checks(doctor.read_status(state_dir)[0], hw.resolved, True)}  # type: ignore[index]
        hw.shutdown()
    finally:
        other.close()
        app.console.close()


def press(mock_pins: Any, number: int) -> None:
    pin = mock_pins.pin(number)
    pin.drive_low()
    time.sleep(0.03)                                   # longer than the debounce
    pin.drive_high()


def keys_of(events: queue.Queue[Any]) -> list[str]:
    """The keys the queued edges make (a filter of their own: its time runs on 1 s past them)."""
    from hw.keys import KeyFilter
    keys = KeyFilter()
    got: list[str] = []
    while not events.empty():
        _, key, pressed, t = events.get()
        got += keys.feed(key, pressed, t)
    return got + keys.tick(time.monotonic() + 1)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_one_busy_key_pin_leaves_the_other_keys_working_and_is_named_in_the_players_language(
        lang: str, state_dir: Path, mock_pins: Any, board: Board) -> None:
    """One key's pin held by another program at start (here B's, GPIO6; gpiozero raises
    GPIOPinInUse) left every key dead: the whole bank was refused and retried, so the device
    started with no way to move. Now the other keys work at once, the start notice names the dead
    key in the player's language, and the key works as soon as its pin is free."""
    from gpiozero import Button

    from firmware.app import NoticesScreen
    from firmware.device_hardware import open_hardware
    from firmware.buttons_part import dead_keys_notice
    from firmware.i18n import say
    app = app_with([], [], state_dir, lang)
    events: queue.Queue[Any] = queue.Queue()
    other = Button(6, pin_factory=mock_pins)
    try:
        hw = open_hardware(types.SimpleNamespace(config=None), app, events)
        first_open(hw, events)
        assert hw.buttons is not None and set(hw.buttons.buttons) == {"a", "up", "down", "left", "right", "press"}
        press(mock_pins, 5)                               # A
        press(mock_pins, 17)                              # up
        assert keys_of(events) == ["a", "up"]
        notice = app.stack[-1]
        assert isinstance(notice, NoticesScreen) and len(notice.paragraphs) == 1
        said = notice.paragraphs[0]
        assert "B (GPIO6)" in said and "Buttons:" not in said and "Кнопки:" not in said
        assert said == say(dead_keys_notice({"b": 6}), lang)
        if lang != "en":
            assert not {"key", "does", "work", "pin"} & set(said.replace(".", " ").split()), said
        other.close()
        hw.poll(hw.keys.next_deadline())
        assert hw.keys.dead == {}, hw.keys.error
        press(mock_pins, 6)
        assert keys_of(events) == ["b"]
        hw.shutdown()
    finally:
        other.close()
        app.console.close()


def test_the_doctor_run_while_the_device_runs_speaks_the_devices_language(
        state_dir: Path, mock_pins: Any, board: Board, capsys: pytest.CaptureFixture[str]) -> None:
    """`legatus doctor` beside the running service (the usual case on the Pi) was always in
    English: the settings cannot be read while the device holds the state directory, so the
    language fell back to "en". The device now keeps its language with the facts it reports, and
    a change on the device reaches the report at the next check."""
    from firmware import doctor
    from firmware.device_hardware import open_hardware
    app = app_with([], [], state_dir, "ru")                      # holds the state directory, as the service does
    try:
        hw = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        doctor.run_doctor(str(state_dir), None)
        out = capsys.readouterr().out
        assert "Служба: работает: выводы и экран — по её данным" in out and "Профиль: adafruit-bonnet" in out
        assert "Profile" not in out and "Service" not in out
        app.set_setting("language", "uk")
        hw.poll(hw.next_deadline() or 0.0)
        doctor.run_doctor(str(state_dir), None)
        assert "Служба: працює: виводи та екран — за її даними" in capsys.readouterr().out
        hw.shutdown()
    finally:
        app.console.close()


ENGLISH = ("cannot open", "Check the pin", "no other program", "permission denied", "add the", "restart the service",
           "log out", "does not exist", "stopped answering", "answered on")
"""What the panel's and the keys' errors said in English inside rows otherwise translated."""


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_what_the_doctor_found_about_the_panel_and_keys_reads_whole_in_the_devices_language(
        lang: str, state_dir: Path, mock_pins: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`legatus doctor` and Settings → Hardware said "Экран: не отвечает: permission denied on
    /dev/i2c-1: add the user to the 'i2c' group … and log in again" and "Кнопки: не работает: B
    (GPIO6) (cannot open GPIO6 for key 'b': … Check the pin …)": the errors of the panel and the
    keys are sentences said in the device's language now, the technical detail (the path, the pin,
    the library's words) a value inside. And the service is told to restart, not to log in again
    (a running service keeps the groups it started with); that fix is then the only one."""
    from gpiozero import Button

    import hw.service
    from firmware import doctor
    from firmware.device_hardware import open_hardware
    from firmware.i18n import say

    def denied(port: int) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(smbus2, "SMBus", denied)
    monkeypatch.setattr(hw.service, "under_service", lambda: True)
    app = app_with([], [], state_dir, lang)
    other = Button(6, pin_factory=mock_pins)                    # B's pin, held by another program
    try:
        events: queue.Queue[Any] = queue.Queue()
        hw_ = open_hardware(types.SimpleNamespace(config=None), app, events)
        first_open(hw_, events)
        doctor.run_doctor(str(state_dir), None)                 # (reads what the device reported)
        out = capsys.readouterr().out.splitlines()
        panel = [i for i, line in enumerate(out) if "/dev/i2c-1" in line and "usermod" in line]
        keys = [line for line in out if "B (GPIO6)" in line]
        assert len(panel) == 1 and len(keys) == 1, out
        said = out[panel[0]]
        assert "sudo systemctl restart legatus" in said and "sudo usermod -aG i2c" in said
        assert {"ru": "перезапустите службу", "uk": "перезапустіть службу"}[lang] in said
        assert not out[panel[0] + 1].lstrip().startswith("→"), out       # no "opens it again by itself"
        assert "GPIOPinInUse" in keys[0] and {"ru": "вывод кнопки", "uk": "вивід кнопки"}[lang] in keys[0]
        for line in (said, keys[0]):
            assert not [e for e in ENGLISH if e in line], line
        rows = {str(c.label): c for c in app.hardware_checks()}      # Settings → Hardware: the same
        for label in ("Panel", "Buttons"):
            found = say(rows[label].found, lang)
            assert ("/dev/i2c-1" in found or "B (GPIO6)" in found) and not [e for e in ENGLISH if e in found], found
        hw_.shutdown()
    finally:
        other.close()
        app.console.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_pin_library_at_start_is_said_in_the_players_language_with_each_reason(
        lang: str, state_dir: Path, board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    """No key at all (no pin library loaded: lgpio missing, or its pipe not writable) was said on a
    Russian or Ukrainian panel as "Кнопки: no GPIO pin library could be loaded…", English after the
    label; now the whole sentence is in the player's language, each library's reason kept."""
    import warnings

    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    from firmware.app import NoticesScreen
    from firmware.device_hardware import open_hardware

    def no_factory() -> None:
        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"), stacklevel=2)
        raise BadPinFactory("Unable to load any default pin factory!")
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    app = app_with([], [], state_dir, lang)
    try:
        hw = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        assert hw.buttons is None and hw.keys.next_deadline() is not None       # retried
        notice = app.stack[-1]
        assert isinstance(notice, NoticesScreen)
        said = notice.paragraphs[0]
        assert "lgpio: No module named 'lgpio'" in said and "sudo apt install python3-lgpio" in said
        rest = said.replace("lgpio: No module named 'lgpio'", "").replace("sudo apt install python3-lgpio", "")
        assert not {"no", "could", "loaded", "install", "Buttons:"} & set(rest.replace("(", " ").split()), said
        hw.shutdown()
    finally:
        app.console.close()


@pytest.fixture
def as_the_service(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The unit's conditions (scripts/legatus.service): systemd sets INVOCATION_ID, and standard input
    is /dev/null (StandardInput= is not set: null)."""
    monkeypatch.setenv("INVOCATION_ID", "0123456789abcdef0123456789abcdef")
    saved = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        os.close(saved)


@pytest.mark.parametrize("lang, restart", [
    ("en", "then restart the service (sudo systemctl restart legatus): it keeps the groups it started with."),
    ("ru", "затем перезапустите службу (sudo systemctl restart legatus): до перезапуска она работает с теми группами"),
    ("uk", "потім перезапустіть службу (sudo systemctl restart legatus): до перезапуску вона працює з тими групами"),
])
def test_no_pin_library_under_the_service_says_to_restart_it_after_adding_the_user_to_gpio(
        lang: str, restart: str, state_dir: Path, board: Board, monkeypatch: pytest.MonkeyPatch,
        as_the_service: None) -> None:
    """Under the service the notice said "add the user to the gpio group … the keys are tried again by
    themselves": they never opened, since a running service keeps the groups it started with. It now
    says the service's user, the command, and that the service is restarted (sudo systemctl restart
    legatus), in the player's language."""
    from gpiozero.exc import BadPinFactory

    from firmware.app import NoticesScreen
    from firmware.device_hardware import open_hardware
    from hw.service import user_name

    def no_factory() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    app = app_with([], [], state_dir, lang)
    try:
        hw = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        notice = app.stack[-1]
        assert isinstance(notice, NoticesScreen)
        said = notice.paragraphs[0]
        assert restart in said and f"sudo usermod -aG gpio {user_name()}" in said, said
        assert "Unable to load any default pin factory!" in said
        hw.shutdown()
    finally:
        app.console.close()


def test_no_pin_library_started_by_hand_keeps_its_own_fix() -> None:
    """By hand (no service) the notice is as before: no restart of a service that is not running."""
    from gpiozero.exc import BadPinFactory

    from firmware.buttons_part import keys_failed_notice
    from hw.buttons import ButtonError
    failure = ButtonError("a", 5, BadPinFactory("Unable to load any default pin factory!"))
    said = str(keys_failed_notice(failure, failure.args[0], service=False))
    assert "systemctl" not in said and "the keys are tried again by themselves" in said


def test_several_dead_keys_are_named_with_the_plural_and_the_joysticks_words() -> None:
    from firmware.buttons_part import dead_keys_notice
    from firmware.i18n import say
    notice = dead_keys_notice({"up": 17, "press": 4})
    assert str(notice).startswith("These keys do not work: joystick up (GPIO17), joystick press (GPIO4).")
    assert say(notice, "ru").startswith("Эти кнопки не работают: джойстик вверх (GPIO17), нажатие джойстика (GPIO4).")
    assert say(notice, "uk").startswith("Ці кнопки не працюють: джойстик вгору (GPIO17), натискання джойстика (GPIO4).")


@pytest.mark.parametrize("pins, ru, uk", [
    ({"up": 17}, "а устройство само снова пробует её открыть", "а пристрій сам знову пробує її відкрити"),
    ({"up": 17, "press": 4}, "а устройство само снова пробует их открыть", "а пристрій сам знову пробує їх відкрити"),
])
def test_the_dead_keys_notice_says_the_device_tries_the_keys_again(pins, ru, uk) -> None:
    """The keys are tried again by the device: it said «а её устройство само пробует открыть
    снова» («а її пристрій…»), which a reader takes as «the key's device», the key left unnamed."""
    from firmware.buttons_part import dead_keys_notice
    from firmware.i18n import say
    notice = dead_keys_notice(pins)
    assert ru in say(notice, "ru") and "устройство само пробует" not in say(notice, "ru")
    assert uk in say(notice, "uk") and "пристрій сам пробує" not in say(notice, "uk")


def test_a_profile_chosen_on_the_device_beats_the_file(tmp_path: Path, state_dir: Path) -> None:
    from firmware.doctor import resolve_config
    config = tmp_path / "config.toml"
    config.write_text(WAVESHARE + "[pins]\nkey3 = 12\n")
    assert resolve_config(str(config), {"language": "ru", "contrast": "2"}).config.profile == "waveshare-hat"
    chosen = resolve_config(str(config), {"profile": "adafruit-bonnet"})
    assert chosen.source == "setting" and chosen.config.profile == "adafruit-bonnet"
    assert chosen.config.pins["key3"] == 12                    # the file's keys still apply
    assert resolve_config(None, {}).source == "default"
    assert resolve_config(str(config), {"driver": "ssd1306"}).config.display.driver == "ssd1306"


@pytest.mark.parametrize("text", [
    "a = " + "[" * 50_000 + "]" * 50_000 + "\n",               # tomllib recursion
    "x = " + "{a=" * 3_000 + "1" + "}" * 3_000 + "\n",
    "profile = [1]\n",
    "profile = 3\n",
    "[pins]\na = 99999999999999999999999\n",
    "\udcff".encode("utf-8", "surrogatepass").decode("latin-1"),
])
def test_a_hostile_config_is_reported_and_the_default_used(tmp_path: Path, text: str) -> None:
    from firmware.doctor import resolve_config
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="latin-1", errors="replace")
    got = resolve_config(str(config), {})
    assert got.problem and str(config) in got.problem
    assert got.config.profile == "adafruit-bonnet" and got.source == "default"


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("text, values", [
    ("[pins]\na = 6\n", ["'a'", "'b'", "GPIO6"]),
    ("profile = \"pimoroni\"\n", ["'pimoroni'", "adafruit-bonnet"]),
    ("[display]\naddress = \"0x3C\"\n", ["display.address", "'0x3C'"]),
    ("[display]\nrotate = 5\n", ["display.rotate", "5"]),
    ("[pins\n", ["TOML"]),
])
def test_a_config_file_that_cannot_be_used_is_said_whole_in_the_players_language(
        lang: str, text: str, values: list[str], tmp_path: Path, state_dir: Path, mock_pins: Any) -> None:
    """The start notice "Config file ignored: …" and the doctor's Config file row said what was
    wrong with the file in English inside Russian or Ukrainian sentences ("Файл настроек пропущен:
    …: keys 'a' and 'b' both use GPIO6; each key needs its own pin"): ConfigError carries a
    sentence, the file, the keys and the values kept in it as they are written."""
    from firmware import doctor
    from firmware.app import NoticesScreen
    from firmware.device_hardware import open_hardware
    from firmware.i18n import say
    config = tmp_path / "config.toml"
    config.write_text(text)
    app = app_with([], [], state_dir, lang)
    try:
        hw_ = open_hardware(types.SimpleNamespace(config=str(config)), app, queue.Queue())
        notice = app.stack[-1]
        assert isinstance(notice, NoticesScreen)
        said = next(p for p in notice.paragraphs if str(config) in p)
        row = say({str(c.label): c for c in app.hardware_checks()}["Config file"].found, lang)
        for line in (said, row):
            assert all(v in line for v in values), line
            ours = line.split("TOML")[0].replace(str(config), "")     # (then the parser's own words)
            for v in values:
                ours = ours.replace(v, "")
            assert not [w for w in ("must", "unknown", "both use", "each key", "is not", "available", "got", "config")
                        if w in ours], line
        assert said.startswith({"ru": "Файл настроек", "uk": "Файл налаштувань"}[lang]), said
        hw_.shutdown()
    finally:
        app.console.close()
        doctor.clear_live()


# -- the whole program ---------------------------------------------------------------------------
DEVICE = """
import sys
import hw.display
hw.display.probe_hardware = lambda *a, **k: True        # as on a Pi
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
Device.pin_factory = MockFactory()
from firmware.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_with_no_panel_exits_0_and_logs_the_stop(tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text("[display]\nport = 97\n")             # no such bus: no panel
    proc = subprocess.Popen([sys.executable, "-c", DEVICE, "--state-dir", str(state), "--config", str(config)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    log = state / "legatus.log"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and "buttons: opened" not in (log.read_text() if log.exists() else ""):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    text = log.read_text()
    assert proc.returncode == 0, err.decode()
    assert "/dev/i2c-97 does not exist" in text and "stop: legatus ended normally" in text


STUCK_BUS = """
import errno, os, time
import smbus2
HELD = os.environ["LEGATUS_TEST_HELD"]          # while this file exists, the bus is held low


class Bus:                                      # a panel that takes every write, until the bus is held
    def __init__(self, port):
        pass

    def _transfer(self):
        if os.path.exists(HELD):
            open(HELD + ".waiting", "w").close()
            end = time.monotonic() + 60         # (far longer than the kernel's timeout: stuck)
            while os.path.exists(HELD) and time.monotonic() < end:
                time.sleep(0.01)
            raise OSError(errno.ETIMEDOUT, os.strerror(errno.ETIMEDOUT))

    def write_i2c_block_data(self, addr, reg, data):
        self._transfer()

    def i2c_rdwr(self, *msgs):
        self._transfer()

    def close(self):
        pass


smbus2.SMBus = Bus
"""


def test_sigterm_while_the_bus_is_stuck_stops_in_time(tmp_path: Path) -> None:
    """`systemctl stop` while the panel's bus is held low: the stop must end well within the unit's
    TimeoutStopSec. The "Saved" frame was sent from the main loop at the end, which waited for the
    stuck transfer; now the end waits for the panel 2 s at most, then exits 0, the stop logged."""
    state = tmp_path / "state"
    held = tmp_path / "held"
    proc = subprocess.Popen([sys.executable, "-c", STUCK_BUS + DEVICE, "--state-dir", str(state)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "LEGATUS_TEST_HELD": str(held)},
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    log = state / "legatus.log"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "buttons: opened" not in (log.read_text() if log.exists() else ""):
            time.sleep(0.05)
        held.touch()
        proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - start
    finally:
        held.unlink(missing_ok=True)
        proc.kill()
    text = log.read_text()
    assert proc.returncode == 0, err.decode()
    assert (tmp_path / "held.waiting").exists()                 # the end's frame met the held bus
    assert "did not answer within 2 s at the end" in text and "stop: legatus ended normally" in text
    assert took < PanelOutput.SETTLE + 4, took


def test_sighup_stops_the_program_as_sigterm_does(tmp_path: Path) -> None:
    """A `legatus` started by hand over ssh whose terminal hangs up gets SIGHUP: it killed the
    program outright (exit -1, no stop line, the panel left as it was); now the same orderly stop
    as SIGTERM (the pins released, the stop logged, exit 0)."""
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text("[display]\nport = 97\n")             # no such bus: no panel
    proc = subprocess.Popen([sys.executable, "-c", DEVICE, "--state-dir", str(state), "--config", str(config)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    log = state / "legatus.log"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and "buttons: opened" not in (log.read_text() if log.exists() else ""):
        time.sleep(0.05)
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert "stop: legatus ended normally" in log.read_text()


def test_a_terminal_that_hangs_up_stops_the_simulator_quietly(monkeypatch: Any) -> None:
    """The simulator's keyboard on a terminal that hangs up while it waits for a key (EIO): the
    program is asked to stop, and the reader thread ends without an error (it died with one: a
    CRITICAL line the next start would have reported as a crash)."""
    import pty
    import threading

    import firmware.logs as logs
    import firmware.terminal as terminal
    master, slave = pty.openpty()
    events: queue.Queue[tuple[Any, ...]] = queue.Queue()
    failures: list[str] = []
    monkeypatch.setattr(logs, "_critical", lambda message, exc_info: failures.append(message))
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)     # restored afterwards
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    logs.install_excepthooks()
    with open(slave, "rb", buffering=0, closefd=False) as tty_in:
        monkeypatch.setattr(terminal.sys, "stdin", tty_in)
        reader = threading.Thread(target=terminal.keyboard_reader, args=(events,), daemon=True)
        reader.start()
        time.sleep(0.3)                                      # the reader waits for a key
        os.close(master)                                     # the terminal hangs up
        assert events.get(timeout=10) == ("quit",)
        reader.join(timeout=10)
    os.close(slave)
    assert not reader.is_alive() and failures == []
