"""Faults injected into the device's hardware paths as they come on a real Pi (a panel that answers
but does not keep working, signals from systemd in the middle of a save): the program goes on or
stops in order, and says it in the log once, not every few seconds."""
from __future__ import annotations

import errno
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from firmware.hardware import PanelOutput
from tests.test_hw_hotplug import Board, panel_loop, same


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> Board:
    """tests/test_hw_hotplug.py's I2C bus with its SSD1306, whose frames can be made to fail
    (``board.flaky``, see :func:`frames_fail`)."""
    import smbus2
    b = Board()
    frames_fail(b)
    monkeypatch.setattr(smbus2, "SMBus", b.SMBus)
    return b


def frames_fail(bus_of: Board) -> None:
    """The panel answers its commands (the set-up, the no-op) but every frame's data transfer
    fails: a loose contact that breaks under the longer transfer, or an I2C clock too fast for the
    module (docs/hardware.md)."""
    make = bus_of.SMBus

    def bus(port: int) -> Any:
        b = make(port)
        sound = b.i2c_rdwr

        def i2c_rdwr(*msgs: Any) -> None:
            if getattr(bus_of, "flaky", False):
                raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))
            code = getattr(bus_of, "glitch", None)
            if code is not None:                        # this one transfer breaks off half way
                bus_of.glitch = None                    # type: ignore[attr-defined]
                payload = bytes(msgs[0])
                bus_of.ctl.data(list(payload[1:len(payload) // 2]))
                raise OSError(code, os.strerror(code))
            sound(*msgs)
        b.i2c_rdwr = i2c_rdwr
        return b
    bus_of.SMBus = bus                                  # type: ignore[method-assign]


def test_a_panel_that_fails_again_after_each_reopen_is_said_once_not_every_few_seconds(
        board: Board, state_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    """It was re-opened and lost every 3 s for as long as it stayed so, each time logged (two lines every
    3 s: the 768 KB log, and the last crash's reason in it, rotated away within about an hour and a half,
    the card written all the while). Now: its first loss and first re-open as always, then one line that
    it does not keep working, and one when it has worked again for STEADY s; the keys work throughout and
    it is still opened again every RETRY s and shows the frame when it works."""
    caplog.set_level(logging.INFO, logger="firmware.hardware")
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        board.flaky = True                              # type: ignore[attr-defined]
        loop.handle(("key", "down"))                    # the frame fails: lost
        assert not out.connected and out.lost == 1
        for _ in range(40):                             # two minutes of it
            clock.t += PanelOutput.RETRY
            loop.poll_parts()                           # re-opened (it answers), the frame fails again
        assert out.reopened == 40 and out.lost == 41 and not out.connected
        lines = [r.getMessage() for r in caplog.records if r.name == "firmware.hardware"]
        assert len(lines) <= 4, lines                   # (it was 81)
        assert sum("failed again" in line and "does not keep working" in line for line in lines) == 1
        loop.handle(("key", "down"))                    # the keys work all the while
        assert app.stack[-1].cursor == 2
        caplog.clear()
        board.flaky = False                             # type: ignore[attr-defined]  # (the contact seated)
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and same(board.ctl.panel(), app.render())     # shown at once
        clock.t += PanelOutput.STEADY
        loop.poll_parts()
        assert out.connected
        said = [r.getMessage() for r in caplog.records if r.name == "firmware.hardware"]
        assert sum("works again" in line for line in said) == 1, said
        board.unplug()                                  # lost long after: said in full again
        caplog.clear()
        loop.handle(("key", "up"))
        assert not out.connected
        assert any("going on without the panel" in r.getMessage() and r.levelno == logging.WARNING
                   for r in caplog.records)
    finally:
        app.console.close()


def test_a_frame_that_fails_once_now_and_then_is_sent_again_at_once_and_said_once(
        board: Board, state_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    """luma's 121 (Remote I/O) or 5 (EIO) on one frame now and then (a noisy bus, long wires, a weak
    pull-up), the next transfer going through: the panel was let go of, the glass stood still on the
    old frame for RETRY s after the key, and two lines were logged each time (forty a session at one a
    few minutes). Now the frame is sent again, whole, at once: the key's frame is on the glass, the
    panel stays in use, and the log says it once (and again only at 10, 100... of them)."""
    caplog.set_level(logging.INFO, logger="firmware.hardware")
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        for n in range(20):
            board.glitch = (errno.EREMOTEIO, errno.EIO)[n % 2]      # type: ignore[attr-defined]
            clock.t += 60
            loop.handle(("key", "down" if n % 2 == 0 else "up"))
            assert board.glitch is None                 # (it struck)
            assert out.connected and out.lost == 0, n
            assert same(board.ctl.panel(), app.render()), n     # half a frame mended: sent whole
        assert out.glitches == 20
        lines = [r for r in caplog.records if r.name == "firmware.hardware"]
        assert [r.levelno for r in lines] == [logging.WARNING, logging.INFO], [r.getMessage() for r in lines]
        assert "went through when sent again" in lines[0].getMessage()
        assert "Remote I/O error" in lines[0].getMessage()
        assert "10 transfers" in lines[1].getMessage()
        board.unplug()                                  # gone for good: both tries fail, lost as before
        loop.handle(("key", "down"))
        assert not out.connected and out.lost == 1 and app.stack[-1].cursor == 1
    finally:
        app.console.close()


def test_a_bus_held_low_is_not_tried_twice(board: Board, state_dir: Path) -> None:
    """A transfer that timed out (a bus held low: about a second each on a Pi) is not sent again at
    once: the panel is lost and tried later, as before."""
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        board.glitch = errno.ETIMEDOUT                  # type: ignore[attr-defined]
        loop.handle(("key", "down"))
        assert not out.connected and out.lost == 1 and out.glitches == 0
    finally:
        app.console.close()


def test_a_panel_unplugged_and_plugged_back_is_said_each_time(
        board: Board, state_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An ordinary loss and return (the panel worked in between) is still said in full each time."""
    caplog.set_level(logging.INFO, logger="firmware.hardware")
    app, loop, out, clock = panel_loop(state_dir, board)
    try:
        for n in range(1, 3):
            board.unplug()
            loop.handle(("key", "down" if n == 1 else "up"))
            board.plug()
            clock.t += PanelOutput.RETRY
            loop.poll_parts()
            assert out.connected and out.reopened == n
            clock.t += PanelOutput.STEADY + 1           # (it worked a while)
            loop.poll_parts()
        text = caplog.text
        assert text.count("redraw failed (") == 2 and text.count("answers again") == 2
        assert "works again" not in text and "failed again" not in text
    finally:
        app.console.close()


# -- a bouncing contact --------------------------------------------------------------------------------
PINS = {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}


def test_a_bouncing_contact_costs_one_frame_a_push_not_one_an_edge(state_dir: Path) -> None:
    """Buttons through gpiozero's mock pins, as the device runs them: each edge a callback onto the
    queue. A worn contact bounces dozens of times at each push and each release; every edge was
    followed by a frame drawn (a few ms each on a Pi Zero, so a push waited for all of them before its
    own frame came). Now the frame is drawn once the edges already waiting are taken: the keys do
    the same, with a few frames instead of one an edge."""
    import queue
    import time

    from gpiozero.pins.mock import MockFactory

    from firmware.device import Loop
    from hw.buttons import ButtonBank
    from hw.keys import KeyFilter
    from tests.screens import app_with
    from tests.test_device_loop import Recorder

    factory = MockFactory()
    app = app_with([], [], state_dir)
    q: queue.Queue[Any] = queue.Queue()
    bank = ButtonBank(PINS, q.put, pin_factory=factory)
    try:
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: 0.0)   # (its start before the pushes)
        loop.redraw()
        renders = 0
        render = app.render

        def counted() -> Any:
            nonlocal renders
            renders += 1
            return render()
        app.render = counted                            # type: ignore[method-assign]
        pin = factory.pin(PINS["down"])
        for _ in range(2):                              # two pushes of "down", each bouncing 50 times
            for _ in range(50):
                pin.drive_low()
                pin.drive_high()
            pin.drive_low()
            time.sleep(0.1)                             # (held: the press takes effect once it is steady)
            for _ in range(50):
                pin.drive_high()
                pin.drive_low()
            pin.drive_high()
            time.sleep(0.05)
        edges = q.qsize()
        assert edges >= 400
        q.put(("quit",))
        loop.run(q)
        assert app.stack[-1].cursor == 2                # both pushes, once each
        assert renders < 20, (renders, edges)           # (it was one an edge: over 400)
    finally:
        bank.close()
        factory.reset()
        app.console.close()


# -- signals from systemd ------------------------------------------------------------------------------
SLOW_SAVE = """
import contextlib, os, time
import firmware.saving_sign
SAVING = os.environ["LEGATUS_TEST_SAVING"]
_watch = firmware.saving_sign.SavingSign.__call__


@contextlib.contextmanager
def _slow(self):                    # each save: past its commit point, then a slow card's last syncs
    with _watch(self):
        yield
    open(SAVING, "w").close()
    time.sleep(2)
    os.unlink(SAVING)


firmware.saving_sign.SavingSign.__call__ = _slow
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_in_the_middle_of_a_save_answers_it_first(tmp_path: Path, signum: str) -> None:
    """`systemctl kill -s INT`, or Ctrl-C in the ssh session that started `legatus`, in the middle of a
    save: SIGINT raised KeyboardInterrupt wherever the loop was, there past the save's commit point,
    so the draw was kept on the card but never answered (a serial client that asks again draws twice
    from a hidden bag). Now it stops as SIGTERM does: the save ends, its answer is written, then the
    orderly stop (exit 0); the next start resumes exactly what the last answer said."""
    import json
    import signal
    import subprocess
    import sys
    import termios
    import time
    import tty

    from tests.conftest import ROOT, run_console
    from tests.test_hw_hotplug import DEVICE
    state, saving = tmp_path / "state", tmp_path / "saving"
    config = tmp_path / "config.toml"
    config.write_text("[display]\nport = 97\n")                 # no panel: the keys and the console
    master, slave = os.openpty()
    tty.setraw(slave)
    attrs = termios.tcgetattr(master)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(master, termios.TCSANOW, attrs)
    proc = subprocess.Popen([sys.executable, "-c", SLOW_SAVE + DEVICE, "--state-dir", str(state), "--config", str(config),
                             "--serial", os.ttyname(slave)], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "LEGATUS_TEST_SAVING": str(saving)})
    got = b""

    def reply(timeout: float) -> dict[str, Any] | None:
        nonlocal got
        end = time.monotonic() + timeout
        while b"\n" not in got and time.monotonic() < end:
            import select
            if select.select([master], [], [], 0.1)[0]:
                got += os.read(master, 65536)
        if b"\n" not in got:
            return None
        line, _, got = got.partition(b"\n")
        return json.loads(line)

    try:
        log = state / "legatus.log"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "serial: console on" not in (log.read_text() if log.exists() else ""):
            time.sleep(0.05)
        os.write(master, b"new bag items=gold*3,silver*3 seed=4\n")
        assert (started := reply(30)) is not None and started["ok"]
        os.write(master, b"draw\n")
        while time.monotonic() < deadline and not saving.exists():
            time.sleep(0.01)
        assert saving.exists(), "the draw's save was not seen"
        proc.send_signal(getattr(signal, signum))                  # in the middle of the draw's save
        drawn = reply(15)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err.decode()
    assert drawn is not None and drawn["ok"], "the draw kept on the card was never answered"
    assert "stop: legatus ended normally" in (state / "legatus.log").read_text()
    assert run_console(state, ["state"])[0]["state"] == drawn["state"]          # resumed exactly


def test_keys_pressed_before_the_first_frame_do_nothing(state_dir: Path) -> None:
    """The buttons open a moment before the loop draws its first frame (the splash, or nothing, on
    the glass meanwhile): a push then, the natural "is it on?", waited on the queue and acted on the
    first screen nobody had seen (here the menu's cursor moved and an item opened; at a first start
    the language question answered, a start notice closed unread). Now the presses begun before the
    first frame do nothing; those after it act as always."""
    import queue
    import threading
    import time

    from gpiozero.pins.mock import MockFactory

    from firmware.device import Loop
    from hw.buttons import ButtonBank
    from hw.keys import KeyFilter
    from tests.screens import app_with
    from tests.test_device_loop import Recorder

    factory = MockFactory()
    app = app_with([], [], state_dir)
    q: queue.Queue[Any] = queue.Queue()
    bank = ButtonBank(PINS, q.put, pin_factory=factory)
    runner: threading.Thread | None = None

    def push(key: str) -> None:
        factory.pin(PINS[key]).drive_low()
        time.sleep(0.06)
        factory.pin(PINS[key]).drive_high()
        time.sleep(0.06)
    try:
        loop = Loop(app, Recorder(), KeyFilter())
        screens = list(app.stack)
        push("down")                                    # during the start: queued, not yet drawn
        push("down")
        push("press")
        time.sleep(0.1)
        runner = threading.Thread(target=loop.run, args=(q,), name="loop")
        runner.start()
        time.sleep(0.3)
        assert app.stack == screens and app.stack[-1].cursor == 0
        push("down")                                    # once the frame is there: as always
        deadline = time.monotonic() + 5
        while app.stack[-1].cursor != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert app.stack[-1].cursor == 1
    finally:
        q.put(("quit",))
        if runner is not None:
            runner.join(5)
        bank.close()
        factory.reset()
        app.console.close()


# -- a panel at the other address ----------------------------------------------------------------------
def test_a_panel_at_the_other_address_that_keeps_failing_says_where_it_is_once(
        board: Board, state_dir: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module at 0x3D (the default profile names 0x3C) on a loose contact: it is opened again every
    RETRY s, and each open logged "nothing answers at 0x3c but a panel does at 0x3d" anew (twenty lines
    a minute, the flapping panel's "said once" undone). Said once a run now."""
    import hw.display
    from firmware.device import Loop
    from hw.config import DisplayConfig
    from hw.display import open_display
    from tests.screens import app_with
    from tests.test_hw_hotplug import Clock
    monkeypatch.setattr(hw.display, "_FOUND_ELSEWHERE", set(), raising=False)
    caplog.set_level(logging.INFO)
    board.address = 0x3D
    app = app_with([], [], state_dir)
    clock, cfg = Clock(), DisplayConfig()
    out = PanelOutput(lambda: open_display(cfg), device=open_display(cfg), clock=clock)
    loop = Loop(app, out, clock=clock, parts=out)
    try:
        loop.redraw()
        assert same(board.ctl.panel(), app.render())
        board.flaky = True                              # type: ignore[attr-defined]
        loop.handle(("key", "down"))
        for _ in range(10):
            clock.t += PanelOutput.RETRY
            loop.poll_parts()
        assert out.reopened == 10
        said = [r.getMessage() for r in caplog.records if "a panel does at 0x3d" in r.getMessage()]
        assert len(said) == 1, said                     # (it was 11)
        board.flaky = False                             # type: ignore[attr-defined]
        clock.t += PanelOutput.RETRY
        loop.poll_parts()
        assert out.connected and same(board.ctl.panel(), app.render())
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_doctor_says_the_panel_answers_at_another_address_than_configured(
        lang: str, board: Board, state_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The device found its panel at 0x3D, not at the configured 0x3C: only a log line said so;
    `legatus doctor` (beside the running service, and alone) said "Panel: answers". Now its row says
    where the panel answers and the setting that names it."""
    import queue
    import types

    import hw.display
    from firmware import doctor
    from firmware.device_hardware import open_hardware
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from tests.screens import app_with
    from tests.test_hw_hotplug import first_open
    monkeypatch.setattr(hw.display, "_FOUND_ELSEWHERE", set(), raising=False)
    board.address = 0x3D
    Device.pin_factory = MockFactory()
    app = app_with([], [], state_dir, lang)
    events: queue.Queue[Any] = queue.Queue()
    try:
        hw_ = open_hardware(types.SimpleNamespace(config=None), app, events)
        first_open(hw_, events)
        assert hw_.output.connected
        doctor.run_doctor(str(state_dir), None)
        out = capsys.readouterr().out
        row = next(line for line in out.splitlines() if line.startswith(("WARN Panel", "ВНИМАНИЕ Экран")))
        assert "0x3d" in row and "0x3c" in row, out
        fix = out.splitlines()[out.splitlines().index(row) + 1]
        assert "display.address = 0x3d" in fix
        if lang == "ru":                                # said whole in the device's language
            assert "по адресу 0x3d" in row and "Укажите" in fix
            assert not any(word in row + fix for word in ("answers", "configured", "config file", "meanwhile"))
        hw_.shutdown()
    finally:
        app.console.close()
        Device.pin_factory.reset()                      # type: ignore[union-attr]
        Device.pin_factory.close()                      # type: ignore[union-attr]
        Device.pin_factory = None
    doctor.clear_live()
    board.plug()
    board.address = 0x3D
    live = doctor.probe_live(state_dir, doctor.resolve_config(None, {}))     # (no device running: opened here)
    assert live.panel and live.panel_address == 0x3D


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_doctor_says_how_many_frames_had_to_be_sent_again(
        lang: str, board: Board, state_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Frames that fail once and go through when sent again are said once in the log; `legatus doctor`
    beside the running service said "Panel: answers" as if all were well, though a bus that keeps
    dropping transfers wants its wiring or its clock seen to. Its row says so now, counted in powers of
    ten (hardware.json is written on the card at each change only)."""
    import queue
    import types

    from PIL import Image, ImageDraw

    from firmware import doctor
    from firmware.device_hardware import open_hardware
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from tests.screens import app_with
    from tests.test_hw_hotplug import first_open
    Device.pin_factory = MockFactory()
    app = app_with([], [], state_dir, lang)
    events: queue.Queue[Any] = queue.Queue()
    rows = []
    try:
        hw_ = open_hardware(types.SimpleNamespace(config=None), app, events)
        first_open(hw_, events)
        for n in range(1, 13):
            board.glitch = errno.EREMOTEIO              # type: ignore[attr-defined]
            img = Image.new("1", (128, 64))
            ImageDraw.Draw(img).text((0, 0), str(n), fill=1)
            hw_.output.show(img)
            assert events.get(timeout=5) == ("panel",)
            hw_.poll(hw_.output.next_deadline())
            assert hw_.output.connected and hw_.output.glitches == n
            if n in (1, 12):
                doctor.run_doctor(str(state_dir), None)
                out = capsys.readouterr().out
                rows.append(next(line for line in out.splitlines()
                                 if line.startswith(("WARN Panel", "ВНИМАНИЕ Экран", "УВАГА Екран"))))
                assert "i2c-baudrate 100000" in out
        hw_.shutdown()
    finally:
        app.console.close()
        Device.pin_factory.reset()                      # type: ignore[union-attr]
        Device.pin_factory.close()                      # type: ignore[union-attr]
        Device.pin_factory = None
    said = {"en": ("Panel: answers, but at least 1 transfer failed and went through when sent again",
                   "Panel: answers, but at least 10 transfers failed and went through when sent again"),
            "ru": ("Экран: отвечает, но минимум 1 передача не прошла с первого раза и прошла со второго",
                   "Экран: отвечает, но минимум 10 передач не прошли с первого раза и прошли со второго"),
            "uk": ("Екран: відповідає, але щонайменше 1 передача не пройшла з першого разу й пройшла з другого",
                   "Екран: відповідає, але щонайменше 10 передач не пройшли з першого разу й пройшли з другого")}
    mark = {"en": "WARN", "ru": "ВНИМАНИЕ", "uk": "УВАГА"}[lang]     # (the status word in the report's language)
    assert rows == [f"{mark} {line}" for line in said[lang]], rows


def test_the_count_kept_for_the_doctor_changes_at_each_power_of_ten_only() -> None:
    from firmware.doctor_panel import at_least
    assert [at_least(n) for n in (0, 1, 9, 10, 11, 99, 100, 12345)] == [0, 1, 1, 10, 10, 10, 100, 10000]


# -- the pin library -----------------------------------------------------------------------------------
def test_lgpio_missing_and_gpiozeros_stand_in_unable_to_watch_a_pin_is_said_as_the_library(
        board: Board, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lgpio missing (a venv made without the system's packages) with the user in 'gpio': gpiozero falls
    back to its NativeFactory, which loads, but watches a pin through the old sysfs GPIO numbers that
    Raspberry Pi OS's kernels from 6.6 refuse (EINVAL), so every key failed. Each was a dead key "used by
    another program or not on this board", the notice said the keys are tried again by themselves (in
    vain), and the doctor said "Pin factory: NativeFactory" ok. Now it is the pin library's failure, with
    each library's reason and the fix (install python3-lgpio), at start and at every retry."""
    import errno as errno_
    import queue
    import types
    import warnings

    from gpiozero import Device
    from gpiozero.exc import NativePinFactoryFallback, PinFactoryFallback
    from gpiozero.pins.mock import MockFactory, MockPin

    import hw.buttons
    from firmware.app import NoticesScreen
    from firmware.device_hardware import open_hardware
    from tests.screens import app_with

    class SysfsLessPin(MockPin):                       # (the kernel refuses the pin's old sysfs number)
        def _enable_event_detect(self) -> None:
            raise OSError(errno_.EINVAL, "Invalid argument")

    stand_in = MockFactory(pin_class=SysfsLessPin)

    def fall_back() -> Any:
        for name, why in (("lgpio", "No module named 'lgpio'"), ("rpigpio", "No module named 'RPi'"),
                          ("pigpio", "No module named 'pigpio'")):
            warnings.warn(PinFactoryFallback(f"Falling back from {name}: {why}"), stacklevel=2)
        warnings.warn(NativePinFactoryFallback("Falling back to the experimental pin factory NativeFactory"),
                      stacklevel=2)
        return stand_in
    monkeypatch.setattr(hw.buttons, "_FELL_BACK", None, raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(fall_back))
    app = app_with([], [], state_dir)
    try:
        hw_ = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        assert hw_.buttons is None and hw_.keys.dead == {}
        notice = app.stack[-1]
        assert isinstance(notice, NoticesScreen)
        said = notice.paragraphs[0]
        assert said.startswith("No key works: no GPIO pin library could be loaded"), said
        assert "lgpio: No module named 'lgpio'" in said and "Invalid argument" in said
        assert "sudo apt install python3-lgpio" in said and "another program" not in said
        for _ in range(3):                              # tried again: the same, not the keys' pins blamed
            hw_.keys.poll(hw_.keys.next_deadline())
            assert hw_.buttons is None and hw_.keys.dead == {}
            assert "lgpio: No module named 'lgpio'" in str(hw_.keys.error), hw_.keys.error
        from firmware import doctor
        hw_.report()
        live, resolved = doctor.live() or (None, None)
        buttons = next(c for c in doctor.live_checks(live, resolved, True) if c.label == "Buttons")
        assert buttons.status == "fail" and "install python3-lgpio" in buttons.found
        assert buttons.fix is None              # (it said to check the keys' pins and that no other program uses them)
        hw_.shutdown()
    finally:
        app.console.close()
        stand_in.reset()
        stand_in.close()
