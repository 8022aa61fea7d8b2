"""pi_check's stand-ins for a Raspberry Pi's hardware, loaded by Python at start (PYTHONPATH).

Used only by scripts/pi_check/drive.py inside the emulated root file system, where there is no
device tree, no I2C or SPI bus and no GPIO chip. With $PI_CHECK_CTRL set to a directory:

- hw.display.probe_hardware says "a Raspberry Pi" (the device tree the emulation lacks);
- smbus2.SMBus is a fake I2C bus with a panel on it, and luma.core's spi a fake SPI bus: every
  command and data byte goes into a small model of the controller whose state is written to
  $PI_CHECK_CTRL/panel.json (initialisations, display on/off, bytes, the bus and port);
  while $PI_CHECK_CTRL/unplugged exists an I2C transfer fails as a panel that does not
  acknowledge (EREMOTEIO), and while $PI_CHECK_CTRL/no-bus exists /dev/i2c-N "does not exist";
- with GPIOZERO_PIN_FACTORY=mock (gpiozero's own mock pins), a file $PI_CHECK_CTRL/press-*
  holding a BCM pin number presses and releases that pin's button;
- $PI_CHECK_CTRL/crash makes the device program fail at start (RuntimeError).
Everything else is the program as installed.
"""
from __future__ import annotations

import errno
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

CTRL = os.environ.get("PI_CHECK_CTRL")


class _Panel:
    def __init__(self, bus: str) -> None:
        self.state: dict[str, Any] = {"bus": bus, "inits": 0, "on": False, "data_bytes": 0, "commands": 0, "opens": 0}

    def command(self, *cmd: int) -> None:
        s = self.state
        s["commands"] += 1
        if 0x8D in cmd and 0x14 in cmd:          # charge pump on: part of both init sequences
            s["inits"] += 1
        if cmd and cmd[-1] == 0xAF:
            s["on"] = True
        if cmd and cmd[0] == 0xAE:
            s["on"] = False
        self._save()

    def data(self, data: object) -> None:
        self.state["data_bytes"] += len(list(data))  # type: ignore[call-overload]
        self._save()

    def _save(self) -> None:
        assert CTRL is not None
        tmp = os.path.join(CTRL, "panel.json.tmp")
        with open(tmp, "w") as f:
            json.dump(self.state, f)
        os.replace(tmp, os.path.join(CTRL, "panel.json"))


_panel: _Panel | None = None


def _the_panel(bus: str) -> _Panel:
    global _panel
    if _panel is None:
        _panel = _Panel(bus)
    _panel.state["bus"] = bus
    _panel.state["opens"] += 1
    return _panel


def _flag(name: str) -> bool:
    return CTRL is not None and os.path.exists(os.path.join(CTRL, name))


class FakeSMBus:
    def __init__(self, port: int) -> None:
        if _flag("no-bus"):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/i2c-{port}")
        self.panel = _the_panel(f"i2c-{port}")

    def _check(self) -> None:
        if _flag("unplugged"):
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_i2c_block_data(self, addr: int, reg: int, data: list[int]) -> None:
        self._check()
        self.panel.command(*data)

    def i2c_rdwr(self, *msgs: object) -> None:
        self._check()
        for m in msgs:
            self.panel.data(bytes(m)[1:])  # type: ignore[call-overload]

    def close(self) -> None:
        pass


class FakeSPI:
    def __init__(self, port: int = 0, device: int = 0, **_: object) -> None:
        self.panel = _the_panel(f"spi-{port}.{device}")

    def command(self, *cmd: int) -> None:
        self.panel.command(*cmd)

    def data(self, data: object) -> None:
        self.panel.data(data)

    def cleanup(self) -> None:
        pass


class _After(importlib.abc.MetaPathFinder):
    """Run a patch on a module right after it is first executed."""

    def __init__(self, patches: dict[str, object]) -> None:
        self.patches = patches

    def find_spec(self, name: str, path: Sequence[str] | None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        patch = self.patches.get(name)
        if patch is None:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: object) -> None:
            run(module)  # type: ignore[arg-type]
            patch(module)  # type: ignore[operator]
        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _patch_display(module: object) -> None:
    module.probe_hardware = lambda *a, **k: True  # type: ignore[attr-defined]


def _patch_spi(module: object) -> None:
    module.spi = FakeSPI  # type: ignore[attr-defined]


def _patch_device(module: object) -> None:
    if _flag("crash"):
        def crash(*a: object, **k: object) -> int:
            raise RuntimeError("pi_check: a crash injected at start")
        module.run_device = crash  # type: ignore[attr-defined]


def _keys() -> None:
    assert CTRL is not None
    while True:
        time.sleep(0.05)
        for name in sorted(os.listdir(CTRL)):
            if not name.startswith("press-"):
                continue
            path = os.path.join(CTRL, name)
            try:
                with open(path) as f:
                    pin = int(f.read().strip())
                os.unlink(path)
                from gpiozero import Device
                factory = Device.pin_factory
                if factory is None:
                    continue
                p = factory.pin(pin)
                p.drive_low()
                time.sleep(0.15)
                p.drive_high()
            except Exception as e:  # noqa: BLE001 - report and go on
                print(f"pi_check shim: press {name}: {e}", file=sys.stderr)


if CTRL:
    try:
        import smbus2
        smbus2.SMBus = FakeSMBus  # type: ignore[misc,assignment]
    except ImportError:
        pass
    sys.meta_path.insert(0, _After({"hw.display": _patch_display, "luma.core.interface.serial": _patch_spi,
                                    "firmware.device": _patch_device}))
    if os.environ.get("GPIOZERO_PIN_FACTORY") == "mock":
        threading.Thread(target=_keys, daemon=True, name="pi_check-keys").start()
