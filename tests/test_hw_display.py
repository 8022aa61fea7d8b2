"""hw.display with luma's noop interface and dummy device; errors for a missing bus or panel."""
from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest.mock import Mock

import pytest
from luma.core.const import common
from luma.core.device import dummy
from luma.core.interface.serial import i2c, noop
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from hw.config import DisplayConfig, load_config
from hw.display import DisplayError, blank, open_display, probe_hardware, set_contrast, show
from hw.panel import Sh1106, Ssd1306


def recording_noop() -> Mock:
    """luma's noop interface, with the calls it receives recorded."""
    return Mock(wraps=noop())


def test_open_ssd1306_and_sh1106_with_injected_interface() -> None:
    oled = open_display(DisplayConfig(driver="ssd1306"), noop())
    assert isinstance(oled, Ssd1306) and oled.size == (128, 64) and oled.mode == "1"
    oled = open_display(DisplayConfig(driver="sh1106", interface="spi", rotate=2), noop())
    assert isinstance(oled, Sh1106) and oled.rotate == 2
    oled = open_display(DisplayConfig(driver="sh1106", rotate=1), noop())
    assert oled.size == (64, 128)


def test_open_sends_the_init_sequence_through_the_interface() -> None:
    serial = recording_noop()
    oled = open_display(load_config(profile="adafruit-bonnet").display, serial)
    sent = [c.args for c in serial.command.call_args_list]
    assert sent[0][0] == common.DISPLAYOFF
    assert (common.DISPLAYON,) not in sent and not serial.data.called   # dark until a frame
    show(oled, Image.new("1", (128, 64)))
    assert serial.command.call_args_list[-1].args == (common.DISPLAYON,)


@pytest.mark.parametrize("ours, luma", [(Ssd1306, ssd1306), (Sh1106, sh1106)])
def test_init_commands_are_luma_oleds(ours: type, luma: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """hw.panel's controllers set the chip up exactly as luma.oled's classes do (the same
    commands, the same contrast); only luma's blank frame and early display-on are left out."""
    monkeypatch.setattr(luma, "display", lambda self, image: None)   # its blank frame
    theirs, mine = recording_noop(), recording_noop()
    luma(theirs, width=128, height=64)
    ours(mine, width=128, height=64)
    luma_cmds = [c.args for c in theirs.command.call_args_list]
    assert luma_cmds[-1] == (common.DISPLAYON,)
    assert [c.args for c in mine.command.call_args_list] == luma_cmds[:-1]


def test_missing_i2c_bus_is_a_display_error() -> None:
    with pytest.raises(DisplayError, match=r"/dev/i2c-97 does not exist: enable I2C "
                                           r"\(sudo raspi-config nonint do_i2c 0"):
        open_display(DisplayConfig(interface="i2c", port=97))


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_an_i2c_bus_whose_dev_node_is_missing_says_to_load_i2c_dev_not_to_reboot(
        lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dtparam=i2c_arm=on written into config.txt by hand (not with raspi-config): after the reboot the
    kernel has the bus but no /dev/i2c-1, which comes with the i2c-dev module. The error said to
    enable I2C and reboot, which changes nothing; it names the module now, in the player's words."""
    import hw.display
    from firmware.i18n import say
    (tmp_path / "i2c-97").mkdir()                       # /sys/class/i2c-adapter/i2c-97: the bus is there
    monkeypatch.setattr(hw.display, "I2C_ADAPTERS", tmp_path, raising=False)
    with pytest.raises(DisplayError) as info:
        open_display(DisplayConfig(interface="i2c", port=97))
    said = say(info.value.args[0], lang)
    assert "/dev/i2c-97" in said and "modprobe i2c-dev" in said and "do_i2c 0" in said, said
    assert "reboot" not in said and "перезагруз" not in said and "перезавантаж" not in said, said
    if lang != "en":
        assert "does not exist" not in said and "module" not in said, said


def test_silent_i2c_device_is_a_display_error() -> None:
    bus = Mock()  # an smbus whose device does not acknowledge, as luma's own tests use
    bus.write_i2c_block_data.side_effect = OSError(errno.EREMOTEIO, "Remote I/O error")
    with pytest.raises(DisplayError, match=r"no ssd1306 display answered on /dev/i2c-1 at 0x3c"
                                           r".*i2cdetect -y 1"):
        open_display(DisplayConfig(), i2c(bus=bus, address=0x3C))


@pytest.mark.parametrize("lang, check", [
    ("ru", "проверьте подключение (плотно ли вставлена плата HAT), а также display.driver/address"),
    ("uk", "перевірте підключення (чи щільно вставлено плату HAT), а також display.driver/address")])
def test_a_silent_display_says_what_to_check_in_a_whole_sentence(lang: str, check: str) -> None:
    """«Check the wiring or that the HAT is seated» said «проверьте подключение или что плата HAT
    плотно вставлена» («перевірте підключення або що плату HAT…»): an object and a clause joined by
    «или», which a reader stumbles over."""
    from firmware.i18n import say
    bus = Mock()
    bus.write_i2c_block_data.side_effect = OSError(errno.EREMOTEIO, "Remote I/O error")
    with pytest.raises(DisplayError) as e:
        open_display(DisplayConfig(), i2c(bus=bus, address=0x3C))
    assert check in say(e.value.args[0], lang), say(e.value.args[0], lang)


def test_permission_denied_says_the_fix_for_how_the_program_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """"… and log in again" was the fix for the service too, which keeps the groups it started with
    until restarted: started by hand, a new login; as the service, a restart."""
    import os

    import smbus2

    import hw.service

    def denied(port: int) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(smbus2, "SMBus", denied)
    monkeypatch.delenv("INVOCATION_ID", raising=False)          # by hand (over ssh, in a terminal)
    with pytest.raises(DisplayError, match=r"permission denied on /dev/i2c-1: add the user to the 'i2c' group "
                                           r"\(sudo usermod -aG i2c \S+\), then log out and in again") as by_hand:
        open_display(DisplayConfig())
    assert "restart" not in str(by_hand.value)
    real = hw.service.under_service
    monkeypatch.setattr(hw.service, "under_service", lambda: True)
    with pytest.raises(DisplayError, match=r"add the service's user to the 'i2c' group \(sudo usermod -aG i2c \S+\), "
                                           r"then restart the service \(sudo systemctl restart legatus\)") as service:
        open_display(DisplayConfig())
    assert "log" not in str(service.value)
    # the service: systemd's INVOCATION_ID and no terminal; a terminal (or no INVOCATION_ID) is by hand
    read, write = os.pipe()
    primary, secondary = os.openpty()
    try:
        assert real({"INVOCATION_ID": "0" * 32}, read)
        assert not real({}, read)
        assert not real({"INVOCATION_ID": "0" * 32}, secondary)
    finally:
        for fd in (read, write, primary, secondary):
            os.close(fd)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_display_errors_are_said_in_the_players_language(lang: str) -> None:
    """DisplayError carries a sentence (the doctor and Settings → Hardware say it in the device's
    language); the bus, the address and the system's error stay in it as values."""
    from engine.text import Msg
    from firmware.i18n import say
    bus = Mock()
    bus.write_i2c_block_data.side_effect = OSError(errno.EREMOTEIO, "Remote I/O error")
    errors = []
    for attempt in (lambda: open_display(DisplayConfig(interface="i2c", port=97)),
                    lambda: open_display(DisplayConfig(), i2c(bus=bus, address=0x3C)),
                    lambda: show(_failing_device(), Image.new("1", (128, 64)))):
        with pytest.raises(DisplayError) as info:
            attempt()
        errors.append(info.value)
    for e, values in zip(errors, (["/dev/i2c-97", "do_i2c"], ["/dev/i2c-1", "0x3c", "I2C device not found", "i2cdetect -y 1"],
                                  ["Remote I/O error"])):
        message = e.args[0]
        assert isinstance(message, Msg), e
        said = say(message, lang)
        assert said != str(message) and all(v in said for v in values), said
        assert not [w for w in ("does not exist", "answered", "check", "stopped", "the display") if w in said], said


def _failing_device() -> Any:
    device = Ssd1306(noop())
    device.display = Mock(side_effect=OSError(errno.EREMOTEIO, "Remote I/O error"))
    return device


def test_unusable_spi_is_a_display_error() -> None:
    # Without spidev/RPi.GPIO (CI) or without /dev/spidev9.0 (a Pi): either way a DisplayError.
    with pytest.raises(DisplayError, match="/dev/spidev9.0"):
        open_display(DisplayConfig(driver="sh1106", interface="spi", port=9))


def test_show_holds_the_image_converted_to_the_device_mode() -> None:
    device = dummy(mode="1")
    image = Image.new("L", (128, 64), 0)
    ImageDraw.Draw(image).rectangle((10, 10, 20, 20), fill=255)
    show(device, image)
    assert device.image.mode == "1"
    assert device.image.getpixel((15, 15)) == 255 and device.image.getpixel((30, 30)) == 0
    show(device, Image.new("1", (128, 64), 1))
    assert device.image.getbbox() == (0, 0, 128, 64)


def test_show_sends_pixels_to_an_oled() -> None:
    serial = recording_noop()
    oled = open_display(DisplayConfig(), serial)
    serial.reset_mock()
    show(oled, Image.new("1", (128, 64), 1))
    sent = b"".join(bytes(c.args[0]) for c in serial.data.call_args_list)
    assert sent == b"\xff" * (128 * 64 // 8)


def test_show_rejects_a_wrong_size() -> None:
    with pytest.raises(ValueError, match="image is 64x64 px, the display 128x64 px"):
        show(dummy(mode="1"), Image.new("1", (64, 64)))


def test_contrast_and_blank_reach_the_device() -> None:
    serial = recording_noop()
    device = dummy(mode="1", serial_interface=serial)
    set_contrast(device, 40)
    blank(device, True)
    blank(device, False)
    assert [c.args for c in serial.command.call_args_list] == [
        (common.SETCONTRAST, 40), (common.DISPLAYOFF,), (common.DISPLAYON,)]


@pytest.mark.parametrize("level", [-1, 256, 1.5, True])
def test_contrast_out_of_range_is_rejected(level: object) -> None:
    with pytest.raises(ValueError, match="contrast level must be an integer 0..255"):
        set_contrast(dummy(mode="1"), level)  # type: ignore[arg-type]


def test_lost_display_is_a_display_error() -> None:
    bus = Mock()
    oled = open_display(DisplayConfig(), i2c(bus=bus, address=0x3C))
    bus.write_i2c_block_data.side_effect = OSError(errno.EIO, "I/O error")  # unplugged
    with pytest.raises(DisplayError, match="stopped answering"):
        blank(oled, True)


def test_probe_hardware(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    assert probe_hardware(model)
    model.write_bytes(b"Pine64 RockPro64\x00")
    assert not probe_hardware(model)
    assert not probe_hardware(tmp_path / "missing")


def test_importing_display_does_not_import_luma() -> None:
    code = "import sys, hw.display; print(any(m.startswith('luma') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_own_i2c_writes_as_lumas_i2c(monkeypatch: pytest.MonkeyPatch) -> None:
    """hw.display.I2C puts the same messages on the bus as luma.core's managed i2c interface."""
    import smbus2

    from hw.display import I2C

    def record(log: list) -> type:
        class Bus:
            def __init__(self, port: int) -> None:
                log.append(("open", port))

            def write_i2c_block_data(self, addr: int, reg: int, data: list) -> None:
                log.append(("cmd", addr, reg, list(data)))

            def i2c_rdwr(self, *msgs: Any) -> None:
                log.extend(("msg", m.addr, bytes(m)) for m in msgs)

            def close(self) -> None:
                log.append(("close",))
        return Bus

    payload = bytes(range(256)) * 20                  # more than one 4,096-byte message
    logs: tuple[list, list] = ([], [])
    for log, make in zip(logs, (lambda: i2c(port=1, address=0x3D), lambda: I2C(1, 0x3D))):
        monkeypatch.setattr(smbus2, "SMBus", record(log))
        bus = make()
        bus.command(0xAE, 0x20, 0x00)
        bus.data(list(payload))
        bus.cleanup()
    assert logs[0] == logs[1] and len(logs[0]) == 5
