"""A key pressed as its pin opens: held down at boot, or stuck (something lying on the device, a worn or
shorted switch). gpiozero fires only on changes, so such a key gave no edge and nothing said so: the
key test showed nothing for it, the doctor said every key was fine. It is now said in the log (once)
and by the doctor and Settings → Hardware while it stays pressed; it acts from its next press."""
from __future__ import annotations

import logging
import queue
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from firmware.buttons_part import KeysPart
from hw.buttons import ButtonBank
from hw.keys import KeyFilter
from tests.screens import app_with

PINS = {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}


class HeldPin(MockPin):
    """A pin whose button is pressed (the line low) before and as it is opened: the pull-up set when
    the button opens does not lift it (MockPin's would), and no edge is fired."""

    held = True

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.held:
            self._state = False


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    factory.close()
    Device.pin_factory = None


def held_at_boot(factory: MockFactory, pin: int) -> MockPin:
    return factory.pin(pin, pin_class=HeldPin)


def test_a_key_held_as_the_bank_opens_reads_held_and_gives_no_edge(factory: MockFactory) -> None:
    down = held_at_boot(factory, 22)
    edges: queue.Queue[tuple[str, str, bool, float]] = queue.Queue()
    bank = ButtonBank(PINS, edges.put, pin_factory=factory)
    try:
        assert bank.held() == {"down": 22} and edges.empty()
        down.drive_high()                                   # released
        assert bank.held() == {}
    finally:
        bank.close()


def feed(keys: KeyFilter, edges: queue.Queue[tuple[str, str, bool, float]]) -> list[str]:
    """What the device loop does with the edges queued: the key events they make."""
    out = []
    while not edges.empty():
        _, key, pressed, at = edges.get_nowait()
        out += keys.feed(key, pressed, at)
    return out


def test_a_key_held_at_the_start_is_logged_once_and_said_until_released(
        factory: MockFactory, caplog: pytest.LogCaptureFixture) -> None:
    held_at_boot(factory, 6)
    caplog.set_level(logging.INFO, logger="firmware.buttons_part")
    t = [0.0]
    edges: queue.Queue[tuple[str, str, bool, float]] = queue.Queue()
    part = KeysPart(lambda: ButtonBank(PINS, edges.put, clock=lambda: t[0], pin_factory=factory, keep_going=True),
                    clock=lambda: t[0])
    try:
        said = [r.getMessage() for r in caplog.records if "pressed as the keys open" in r.getMessage()]
        assert len(said) == 1 and "b (GPIO6)" in said[0] and "stuck" in said[0], said
        assert part.held == {"b": 6} and part.held == {"b": 6}     # (asked again: still held, said once)
        keys = KeyFilter()
        t[0] = 3.0
        factory.pin(6).drive_high()                                   # let go of
        assert feed(keys, edges) + keys.tick(3.1) == []               # its release does nothing
        assert part.held == {}
        t[0] = 4.0
        factory.pin(6).drive_low()                                    # pressed again: an ordinary press now
        assert part.held == {}
        t[0] = 4.1
        factory.pin(6).drive_high()
        assert feed(keys, edges) + keys.tick(4.2) == ["b"]
    finally:
        part.close()


@pytest.mark.parametrize("lang, words", [
    ("en", ["pressed since the start: joystick down (GPIO22)", "If nobody is holding it, it is stuck"]),
    ("ru", ["нажата с самого запуска: джойстик вниз (GPIO22)", "Если её никто не держит, она залипла"]),
    ("uk", ["натиснута від самого запуску: джойстик вниз (GPIO22)", "Якщо її ніхто не тримає, вона залипла"]),
])
def test_the_doctor_and_settings_hardware_say_a_key_pressed_since_the_start(
        lang: str, words: list[str], factory: MockFactory, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware import doctor
    from firmware.device_hardware import open_hardware
    from firmware.i18n import say
    from firmware.screens.hardware import HardwareScreen
    held_at_boot(factory, 22)
    app = app_with([], [], state_dir, lang)
    try:
        hw_ = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        app.stack.append(HardwareScreen())
        rows = app.stack[-1].items(app)
        marks = [(r.label, r.value) for r in rows]
        checks = [c for c in doctor.gather(state_dir, hw_.resolved, hw_.live) if c.status == "warn"]
        text = " ".join(f"{say(c.found)} {say(c.fix)}" for c in checks)
        for word in words:
            assert word in text, (word, text)
        assert ("Кнопки" if lang == "ru" else "Кнопки" if lang == "uk" else "Buttons", "!") in marks, marks
        reported = doctor.read_status(state_dir)                     # what `legatus doctor` reads meanwhile
        assert reported is not None and reported[0].held_keys == {"down": 22}
        factory.pin(22).drive_high()                                  # let go of: no longer said
        hw_.report()
        assert hw_.live.held_keys == {} and not any(
            "GPIO22" in str(say(c.found)) for c in doctor.gather(state_dir, hw_.resolved, hw_.live))
        hw_.shutdown()
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, words", [
    ("en", "held down for over a minute: A (GPIO5)"),
    ("ru", "удерживается больше минуты: A (GPIO5)"),
    ("uk", "утримується понад хвилину: A (GPIO5)"),
])
def test_a_key_held_down_for_over_a_minute_while_running_is_said_as_stuck(
        lang: str, words: str, factory: MockFactory, state_dir: Path) -> None:
    """Stuck while the device runs (a worn A that stays closed): its hold acted once, then nothing,
    and Settings → Hardware said every key was fine; the key test showed nothing for it either."""
    from firmware import doctor
    from firmware.device_hardware import open_hardware
    from firmware.i18n import say
    app = app_with([], [], state_dir, lang)
    try:
        hw_ = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        keys = hw_.keyfilter
        keys.feed("a", True, 100.0)
        assert keys.tick(100.9) == ["a:hold"]
        hw_.report(130.0)
        assert hw_.live.stuck_keys == {}                           # half a minute: somebody may hold it
        hw_.report(161.0)
        assert hw_.live.stuck_keys == {"a": 5}
        text = " ".join(str(say(c.found)) for c in doctor.gather(state_dir, hw_.resolved, hw_.live))
        assert words in text, text
        keys.feed("a", False, 170.0)
        keys.tick(171.0)
        hw_.report(171.0)
        assert hw_.live.stuck_keys == {}
        hw_.shutdown()
    finally:
        app.console.close()
