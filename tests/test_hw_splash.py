"""hw.splash: the first frame goes to the panel before the device program is imported, with the
display settings of the last run, and the device takes that panel over (or releases it)."""
from __future__ import annotations

import queue
import types
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from hw.config import DisplayConfig, load_config
from firmware.screens.splash import build
from hw.splash import CACHE, FRAME, cached, early, frame, remember, state_dir, take_over
from tests.test_hw_panel import Controller, same


def test_the_shipped_frame_is_the_drawn_splash() -> None:
    assert FRAME == build().tobytes() and frame().size == (128, 64)
    assert frame().getbbox() is not None              # something is drawn


def test_state_dir_is_the_device_programs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from firmware.store import default_state_dir
    monkeypatch.delenv("LEGATUS_STATE_DIR", raising=False)
    assert state_dir(None) == default_state_dir()
    monkeypatch.setenv("LEGATUS_STATE_DIR", str(tmp_path))
    assert state_dir(None) == default_state_dir() == tmp_path
    assert state_dir("/x/y") == Path("/x/y")


def test_an_empty_or_unset_home_is_not_the_root_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (start): HOME="" (``env HOME= legatus``, some service managers) gave the state directory
    /.local/state/legatus: the password database's home is taken instead, and with none (a system
    user whose home is "/") the system's state directory /var/lib/legatus (the service's)."""
    import pwd
    from firmware.store import default_state_dir
    monkeypatch.delenv("LEGATUS_STATE_DIR", raising=False)
    entry = pwd.getpwuid(__import__("os").getuid())
    for home in ("", None):
        if home is None:
            monkeypatch.delenv("HOME", raising=False)
        else:
            monkeypatch.setenv("HOME", home)
        assert default_state_dir() == state_dir(None) == Path(entry.pw_dir) / ".local" / "state" / "legatus"
        monkeypatch.setattr(pwd, "getpwuid", lambda uid: types.SimpleNamespace(pw_dir="/"))
        assert default_state_dir() == state_dir(None) == Path("/var/lib/legatus")
        monkeypatch.undo()
        monkeypatch.delenv("LEGATUS_STATE_DIR", raising=False)


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_early_sends_the_splash_with_the_remembered_settings(kind: str, state_dir: Path) -> None:
    ctl = Controller(kind)
    assert early(str(state_dir), ctl, probe=False) is None      # first start: no cache, no splash
    assert not ctl.on and ctl.bytes == 0
    cfg = DisplayConfig(driver=kind, rotate=2)
    remember(state_dir, cfg)
    assert cached(state_dir) is not None
    got = early(str(state_dir), ctl, probe=False)
    assert got is not None
    device, _ = got
    assert ctl.on and same(ctl.panel(), frame().transpose(Image.Transpose.ROTATE_180))
    assert take_over(got, cfg) is device                       # the device keeps this panel


def test_take_over_releases_a_panel_opened_with_other_settings(state_dir: Path) -> None:
    ctl = Controller("ssd1306")
    remember(state_dir, DisplayConfig(driver="ssd1306"))
    got = early(str(state_dir), ctl, probe=False)
    assert got is not None
    assert take_over(got, DisplayConfig(driver="sh1106")) is None
    assert not ctl.on                                          # switched off and released


def test_no_splash_while_another_legatus_holds_the_state_dir(state_dir: Path) -> None:
    from firmware.store import Store
    remember(state_dir, DisplayConfig())
    store = Store(state_dir)                                   # holds the lock, as a running device
    try:
        ctl = Controller("ssd1306")
        assert early(str(state_dir), ctl, probe=False) is None and ctl.bytes == 0
    finally:
        store.close()
    assert early(str(state_dir), Controller("ssd1306"), probe=False) is not None


@pytest.mark.parametrize("junk", ["", "{", "[]", '{"driver": "ssd1306"}'])
def test_a_damaged_cache_means_no_splash(junk: str, state_dir: Path) -> None:
    (state_dir / CACHE).write_text(junk)
    assert early(str(state_dir), Controller("ssd1306"), probe=False) is None


def test_not_a_pi_no_splash(state_dir: Path) -> None:
    remember(state_dir, DisplayConfig())
    assert early(str(state_dir), Controller("ssd1306")) is None or Path("/proc/device-tree/model").exists()


def test_the_device_takes_the_splash_panel_over_and_remembers_its_settings(
        state_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from firmware.device import Loop
    from firmware.device_hardware import open_hardware
    Device.pin_factory = MockFactory()
    from tests.screens import app_with
    config = tmp_path / "config.toml"
    config.write_text('profile = "adafruit-bonnet"\n[display]\nrotate = 2\n')
    monkeypatch.setenv("LEGATUS_CONFIG", str(config))
    cfg = load_config(config).display
    remember(state_dir, cfg)
    ctl = Controller("ssd1306")
    splash: Any = early(str(state_dir), ctl, probe=False)    # before the program is imported
    assert splash is not None
    (state_dir / CACHE).unlink()
    app = app_with([], [], state_dir)
    try:
        events: queue.Queue[Any] = queue.Queue()
        hw = open_hardware(types.SimpleNamespace(config=None), app, events, splash)
        assert events.get(timeout=5) == ("panel",)            # (taken over by the panel thread)
        hw.poll(hw.output.next_deadline())
        assert hw.device is splash[0]                         # no second opening
        assert cached(state_dir) == {name: getattr(cfg, name) for name in cached(state_dir) or {}}
        loop = Loop(app, hw.output, hw.keyfilter)
        loop.redraw()
        assert hw.output.wait_idle(5)                         # (sent by the panel thread)
        assert same(ctl.panel(), app.render().transpose(Image.Transpose.ROTATE_180))
        hw.output.settle()
        hw.device.persist = True
        hw.buttons.close()
    finally:
        app.console.close()
        Device.pin_factory.reset()


def test_a_splash_cache_the_card_refuses_is_logged(state_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """QA (faults): on a full or read-only card the splash's settings were not kept and nothing
    said so (``except: pass``): the next start had no splash and no line in the log why."""
    import errno
    import logging
    import os

    def full(*_a: Any, **_k: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    with caplog.at_level(logging.WARNING):
        remember(state_dir, DisplayConfig())
    assert cached(state_dir) is None
    assert any("No space left on device" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("given,means", [("~/games", "home/games"), ("games", "cwd/games")])
def test_the_state_dir_variable_is_made_absolute_as_the_option_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                   given: str, means: str) -> None:
    """QA (small): ``--state-dir=~/games`` became the home directory's games and a relative one
    absolute (firmware/cli.py), but ``LEGATUS_STATE_DIR="~/games"`` (quoted, a systemd Environment=
    line: no shell expands it) made a folder named ``~`` in the working directory, and a relative
    one moved with the working directory lgpio changes to (firmware/buttons_part.py)."""
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "home").mkdir()
    (tmp_path / "cwd").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LEGATUS_STATE_DIR", given)
    monkeypatch.chdir(tmp_path / "cwd")
    assert state_dir(None) == tmp_path / means and state_dir(None).is_absolute()
    env = {**__import__("os").environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "console"], input="state\n", capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / means / "legatus.db").exists() and not (tmp_path / "cwd" / "~").exists()


def test_a_splash_that_cannot_be_sent_leaves_nothing_to_clear_the_panel_at_exit(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The panel opened for the splash, then the splash frame failed (a loose contact, the bus
    held low): no splash, and that panel was never let go of. At exit its clean-up switched the
    glass off and cleared it, over the "Saved — safe to unplug" the device's own panel had left
    there. It is let go of now (its bus closed, nothing sent)."""
    import atexit
    import errno

    from hw.display import open_display, show
    from firmware.screens.menu import saved_screen
    hooks: list[Any] = []                                      # what atexit would call at exit
    monkeypatch.setattr(atexit, "register", hooks.append)
    monkeypatch.setattr(atexit, "unregister", lambda f: hooks.remove(f) if f in hooks else None)

    class Loose(Controller):
        broken = True

        def data(self, data: Any) -> None:
            if self.broken:
                raise OSError(errno.EREMOTEIO, "Remote I/O error")
            super().data(data)
    glass = Loose("ssd1306")
    remember(state_dir, DisplayConfig())
    assert early(str(state_dir), glass, probe=False) is None  # opened, but the frame failed
    glass.broken = False                                       # the contact is back
    device = open_display(DisplayConfig(), glass)              # the device's own panel ...
    show(device, saved_screen())
    device.persist = True                                      # ... leaves "Saved" at its end
    for hook in list(hooks):                                   # the exit
        hook()
    assert glass.on and same(glass.panel(), saved_screen())
