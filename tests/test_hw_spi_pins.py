"""The Waveshare HAT's SPI panel: luma.core's ``spi`` sets its DC and RST pins up with RPi.GPIO's API
(rpi-lgpio on Bookworm) before it opens /dev/spidev0.0. What that raises is lgpio's own error
(``'GPIO busy'``: another program or an overlay holds GPIO24/25; ``'can not open gpiochip'``: the
user not in 'gpio'), not an OSError: it left hw.display bare, and the log, the doctor and Settings →
Hardware said «not answering: 'GPIO busy'» with «Check that the HAT is seated and the I2C or SPI bus
is on». They now say which pins and what holds them, or the group, with that fix and no other."""
from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import hw.service
from hw.config import DisplayConfig, builtin_config
from hw.display import DisplayError, open_display


class LgpioError(Exception):
    """lgpio.error: its str() is the repr of lgpio's text (gpiozero shows it quoted too)."""

    def __init__(self, value: str) -> None:
        self.value = value

    def __str__(self) -> str:
        return repr(self.value)


class FakeGPIO(types.ModuleType):
    """RPi.GPIO as rpi-lgpio gives it, over a chip where ``busy`` pins are held and ``denied`` the
    chip cannot be opened by this user."""

    BCM, OUT, LOW, HIGH = 11, 0, 0, 1

    def __init__(self, busy: tuple[int, ...] = (), denied: bool = False) -> None:
        super().__init__("RPi.GPIO")
        self.busy, self.denied, self.claimed, self.freed = busy, denied, [], []

    def setmode(self, mode: int) -> None:
        if self.denied:
            raise LgpioError("can not open gpiochip")

    def setup(self, pin: int, direction: int) -> None:
        if pin in self.busy:
            raise LgpioError("GPIO busy")
        self.claimed.append(pin)

    def output(self, pin: int, value: int) -> None:
        pass

    def cleanup(self, pins: object = None) -> None:
        self.freed.append(pins)


@pytest.fixture
def gpio(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGPIO]:
    fake = FakeGPIO(busy=(25,))
    package = types.ModuleType("RPi")
    package.GPIO = fake  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "RPi", package)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", fake)
    monkeypatch.setattr(hw.service, "DEV", Path("/nonexistent-dev"), raising=False)
    yield fake


def waveshare() -> DisplayConfig:
    return builtin_config("waveshare-hat").display


def test_a_dc_or_rst_pin_held_elsewhere_is_named_with_its_fix(gpio: FakeGPIO) -> None:
    with pytest.raises(DisplayError) as info:
        open_display(waveshare())
    said = str(info.value)
    assert "DC pin (GPIO24) or RST pin (GPIO25) is used by another program or an overlay (GPIO busy)" in said, said
    assert "display.dc and display.rst" in said


def test_a_user_not_in_gpio_is_told_the_group_for_the_spi_panel(gpio: FakeGPIO, monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    gpio.denied = True
    (tmp_path / "gpiochip0").touch()
    monkeypatch.setattr(hw.service, "DEV", tmp_path, raising=False)
    monkeypatch.setattr(hw.service, "_may_open", lambda path: False, raising=False)
    with pytest.raises(DisplayError) as info:
        open_display(waveshare())
    said = str(info.value)
    assert f"permission denied on {tmp_path / 'gpiochip0'}" in said and "'gpio' group" in said, said


@pytest.mark.parametrize("lang, words", [
    ("en", "DC pin (GPIO24) or RST pin (GPIO25) is used by another program"),
    ("ru", "вывод DC (GPIO24) или RST (GPIO25) экрана sh1106 занят другой программой"),
    ("uk", "вивід DC (GPIO24) або RST (GPIO25) екрана sh1106 зайнятий іншою програмою"),
])
def test_the_doctor_says_the_pins_with_their_own_fix_in_the_players_language(
        lang: str, words: str, gpio: FakeGPIO) -> None:
    from firmware import doctor
    from firmware.i18n import say, set_language
    resolved = doctor.Resolved(builtin_config("waveshare-hat"), "default")
    try:
        open_display(resolved.config.display)
    except DisplayError as e:
        live = doctor.Live(factory="LGPIOFactory", panel=False, panel_error=e.args[0])
    row = next(c for c in doctor.live_checks(live, resolved, True) if str(c.label) == "Panel")
    set_language(lang)
    try:
        assert words in str(say(row.found)), say(row.found)
    finally:
        set_language("en")
    assert row.status == "fail" and row.fix is None      # not «Check that the HAT is seated and the bus is on»
