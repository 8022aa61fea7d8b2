"""The service's user not in the 'gpio' group (or the service started before it was added): lgpio
says only "can not open gpiochip", and every pin library after it fails too. The keys' error, the
start notice and the doctor now say which device this user may not open and the fix for how the
program runs; they began with "install python3-lgpio", which is installed."""
from __future__ import annotations

import os
import queue
import types
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory, PinFactoryFallback

import hw.service
from hw.buttons import ButtonBank, ButtonError
from tests.screens import app_with

PINS = {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}
LGPIO_SAID = "lgpio: 'can not open gpiochip'"


def _no_factory() -> None:
    """gpiozero 2.0 on Raspberry Pi OS Bookworm with /dev/gpiochip0 and /dev/gpiomem root:gpio 0660."""
    warnings.warn(PinFactoryFallback("Falling back from lgpio: 'can not open gpiochip'"), stacklevel=2)
    warnings.warn(PinFactoryFallback("Falling back from rpigpio: 'can not open gpiochip'"), stacklevel=2)
    warnings.warn(PinFactoryFallback("Falling back from pigpio: No module named 'pigpio'"), stacklevel=2)
    warnings.warn(PinFactoryFallback("Falling back from native: unable to open /dev/gpiomem or /dev/mem; upgrade "
                                     "your kernel or run as root"), stacklevel=2)
    raise BadPinFactory("Unable to load any default pin factory!")


@pytest.fixture
def not_in_gpio(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A /dev with the Pi's GPIO chip this user may not open, and no pin library that loads."""
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "gpiochip0").touch(mode=0o600)
    monkeypatch.setattr(hw.service, "DEV", dev, raising=False)
    if os.geteuid() == 0:                    # (root may open anything: the user's view stood in for)
        monkeypatch.setattr(hw.service, "_may_open", lambda path: False, raising=False)
    else:
        (dev / "gpiochip0").chmod(0)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(_no_factory))
    return dev / "gpiochip0"


@pytest.fixture
def as_the_service(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """systemd's INVOCATION_ID, standard input from /dev/null (as tests/test_hw_hotplug.py's)."""
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


def test_the_keys_error_names_the_gpio_chip_and_the_group_not_installing_lgpio(not_in_gpio: Path) -> None:
    with pytest.raises(ButtonError) as info:
        ButtonBank(PINS, queue.Queue().put, keep_going=True)
    said = str(info.value)
    assert f"permission denied on {not_in_gpio}" in said and "'gpio' group (sudo usermod -aG gpio " in said, said
    assert LGPIO_SAID in said                          # each library's own words kept (the log, the journal)
    assert "install python3-lgpio" not in said and "LG_WD" not in said, said
    assert getattr(info.value, "denied", None) == str(not_in_gpio) and info.value.no_library


@pytest.mark.parametrize("lang, words", [
    ("en", ["No key works: permission denied on ", "add the service's user to the 'gpio' group",
            "sudo systemctl restart legatus"]),
    ("ru", ["Ни одна кнопка не работает: нет доступа к ", "добавьте пользователя службы в группу «gpio»",
            "sudo systemctl restart legatus"]),
    ("uk", ["Жодна кнопка не працює: немає доступу до ", "додайте користувача служби до групи «gpio»",
            "sudo systemctl restart legatus"]),
])
def test_the_start_notice_under_the_service_says_the_chip_and_the_restart_in_the_players_language(
        lang: str, words: list[str], not_in_gpio: Path, state_dir: Path, as_the_service: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware.app import NoticesScreen
    from firmware.device_hardware import open_hardware
    monkeypatch.setattr("hw.display.probe_hardware", lambda *a, **k: True)
    app = app_with([], [], state_dir, lang)
    try:
        hw_ = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        notice = app.stack[-1]
        assert isinstance(notice, NoticesScreen)
        said = notice.paragraphs[0]
        for word in words:
            assert word in said, (word, said)
        assert str(not_in_gpio) in said and "python3-lgpio" not in said, said
        assert "can not open gpiochip" not in said     # (the libraries' words: in the log; no key scrolls)
        hw_.shutdown()
    finally:
        app.console.close()


def test_the_doctor_names_the_chip_with_the_fix_it_needs_and_no_other(not_in_gpio: Path, tmp_path: Path) -> None:
    from firmware import doctor
    resolved = doctor.resolve_config(None, {})
    live = doctor.probe_live(tmp_path, resolved)       # (the service stopped: the doctor loads the pins itself)
    row = next(c for c in doctor.live_checks(live, resolved, False) if str(c.label) == "Pin factory")
    found = str(row.found)
    assert row.status == "fail" and f"permission denied on {not_in_gpio}" in found and LGPIO_SAID in found, found
    assert row.fix is None, row.fix                    # not "Install python3-lgpio…" under the group's own fix
    # what the running service reported (hardware.json) reads the same
    with pytest.raises(ButtonError) as info:
        ButtonBank(PINS, queue.Queue().put, keep_going=True)
    reported = doctor.live_checks(doctor.Live(keys_error=info.value.args[0]), resolved, True)
    row = next(c for c in reported if str(c.label) == "Pin factory")
    assert row.fix is None and "sudo usermod -aG gpio" in str(row.found)


def test_a_library_missing_for_another_reason_keeps_its_fix(tmp_path: Path) -> None:
    """No chip at all (not a Pi, an emulator), or one this user may open: not a group's matter."""
    from hw.service import gpio_denied
    assert gpio_denied(tmp_path) is None
    chip = tmp_path / "gpiochip0"
    chip.touch(mode=0o666)
    chip.chmod(0o666)
    assert gpio_denied(tmp_path) is None
