"""Settings → Hardware (firmware/screens/hardware.py): the doctor's rows, a key test, a pattern."""
from __future__ import annotations

from pathlib import Path

from PIL import Image

from firmware.screens.hardware import HardwareScreen, KeyTestScreen, PatternScreen, key_name, pattern
from firmware.screens.menu import SettingsScreen
from tests.screens import app_with


def open_hardware(app) -> HardwareScreen:
    app.stack.append(SettingsScreen())
    settings = app.stack[-1]
    labels = [i.label for i in settings.items(app)]
    settings.cursor = labels.index("Hardware")
    driver_before = app.settings["driver"]
    app.handle("right")                              # left/right on this row never step a setting
    assert app.settings["driver"] == driver_before
    screen = app.stack[-1]
    assert isinstance(screen, HardwareScreen)
    return screen


def test_settings_open_the_hardware_screen_with_the_doctors_rows(state_dir: Path) -> None:
    from firmware import doctor
    doctor.clear_live()                              # no device program runs in this test
    app = app_with([], [], state_dir)
    try:
        screen = open_hardware(app)
        labels = [i.label for i in screen.items(app)]
        assert labels[:3] == ["Board", "Profile", "Keys"] and labels[-2:] == ["Key test", "Test pattern"]
        assert "Storage" in labels and "Clock" in labels
        screen.cursor = labels.index("Profile")
        app.handle("a")
        assert "adafruit-bonnet (from the built-in default)" in " ".join(app.stack[-1].rows)
        app.handle("b")
        assert app.stack[-1] is screen
        app.render()
    finally:
        app.console.close()


def test_the_key_test_names_every_key_and_hold_a_leaves(state_dir: Path) -> None:
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir, lang="ru")
    try:
        app.stack.append(KeyTestScreen())
        for key in ("up", "b", "left", "press", "key3", "a", "press:hold", "key3:hold"):
            app.handle(key)
            assert isinstance(app.stack[-1], KeyTestScreen)       # B and left do not leave
        test = app.stack[-1]
        assert test.seen == ["up", "b", "left", "press", "key3", "a", "press:hold", "key3:hold"]
        assert test.last == "key3:hold"
        assert key_name("b:hold") == "B (удержание)"
        assert key_name("press") == "нажатие" and key_name("a:hold") == "A (удержание)"
        app.render()
        app.handle("a:hold")
        assert not isinstance(app.stack[-1], KeyTestScreen)
    finally:
        app.console.close()


def test_a_player_whose_a_key_is_dead_can_leave_the_key_test(state_dir: Path) -> None:
    """The start notice names a dead key («This key does not work: A (GPIO5)… Settings → Hardware says
    more»); the player goes there with the joystick and opens the Key test to try the keys. Only a
    held A left it, so with A dead (a pin held by another program, a broken switch: what a key test
    is for) nothing did — the player was kept in it until the power was pulled. A held B (undo
    elsewhere, never an undo here) leaves it too; A's own hold still does; and nothing is undone."""
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        played = list(app.console.session.log)
        hardware = open_hardware(app)
        hardware.cursor = [i.label for i in hardware.items(app)].index("Key test")
        app.handle("press")                                   # (A does not work: the joystick selects)
        assert isinstance(app.stack[-1], KeyTestScreen)
        for key in ("b", "left", "right", "up", "down", "press", "press:hold"):
            app.handle(key)
            assert isinstance(app.stack[-1], KeyTestScreen), key
        frame = app.render()
        assert frame.getbbox() is not None
        app.handle("b:hold")
        assert app.stack[-1] is hardware                      # back where it was opened, no undo asked
        assert app.console.session.log == played                 # the roll is kept
    finally:
        app.console.close()


def test_the_pattern_screen_cycles_and_b_leaves(state_dir: Path) -> None:
    app = app_with([], [], state_dir)
    try:
        app.stack.append(PatternScreen())
        frames = []
        for _ in range(5):
            frames.append(app.render().tobytes())
            app.handle("down")
        assert len(set(frames)) == 5
        assert app.render().tobytes() == frames[0]              # round again
        app.handle("b")
        assert not isinstance(app.stack[-1], PatternScreen)
    finally:
        app.console.close()


def test_patterns() -> None:
    assert pattern("on").getbbox() == (0, 0, 128, 64) and pattern("off").getbbox() is None
    def lit(img: Image.Image, x: int, y: int) -> bool:
        return bool(img.convert("L").getpixel((x, y)))
    checker = pattern("checker")
    assert [lit(checker, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))] == [True, False, False, True]
    assert sum(checker.convert("L").histogram()[1:]) == 128 * 64 // 2
    frame = pattern("frame")
    assert lit(frame, 5, 3) and not lit(frame, 122, 3)         # the notch: top left
    stripes = pattern("stripes")
    assert lit(stripes, 0, 0) and not lit(stripes, 0, 8)
