"""Nothing on screen can bring the device down (issue 8): thousands of random keys through the real
App in every game and every language, with Cyrillic names; a failing screen shows the error screen
and the device goes on; the device program driven by ``--script`` never exits on a key."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import i18n
from tests.screens import app_with

ROOT = Path(__file__).resolve().parents[1]
KEYS = ["up", "down", "left", "right", "press", "a", "b", "a", "right", "down", "b:hold", "a:hold", "key3"]

SETUPS = {
    "glory-cyrillic": ["new glory players=Ваня,Маша,Олекса,Їжак seed=3", "fame Ваня +13", "vote Маша"],
    "caesar-solo": ["new caesar-solo side=caesar difficulty=normal seed=5", "crassus"],
    "caesar-expansions": ["new caesar-solo side=pompey difficulty=hard poison=1 centurions=1 border-control=1 seed=8"],
    "jc-battle": ["new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add attacker c_leg10",
                  "add defender p_pompeius", "add defender p_leg1"],
    # the next battle of a campaign: the Add lists' «Last battle» row, a defector (J-2), levy steps on Blocks
    "jc-next-battle": ["new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add attacker c_leg10",
                       "add defender p_pompeius", "add defender p_leg1", "add defender cleopatra", "start", "fight",
                       "next-battle attacker=pompey", "owner p_leg1 caesar"],
    "sword": ["new sword players=romans,gauls,etruscans,greeks seed=2"],
    "bag-cyrillic": ["new bag items=золото*3,срібло*2,bronze cards=легіон*4,сенатор*2 seed=7", "draw 2"],
    "no-session": [],
}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("setup", list(SETUPS))
def test_random_keys_never_fail_a_screen(setup, lang, tmp_path):
    rng = random.Random(f"{setup}-{lang}")
    lines = [ln for ln in SETUPS[setup]]
    app = app_with([], [], tmp_path, lang=lang)
    try:
        for line in lines:                      # names the font cannot draw are refused; these are fine
            assert app.run(line)["ok"], line
        seen: list[str] = []
        for i in range(300):
            key = rng.choice(KEYS)
            seen.append(key)
            app.handle(key)
            app.render()
            assert app.errors == 0, f"screen error after keys {seen[-12:]} (key {i})"
    finally:
        app.console.close()


def test_a_screen_that_fails_shows_the_error_screen_and_the_device_goes_on(tmp_path, caplog):
    from firmware.screens.errors import ErrorScreen
    from firmware.screens.menu import MainMenu
    app = app_with(["new dice seed=1"], [], tmp_path)
    try:
        class Broken(MainMenu):
            def render(self, ctx):
                raise RuntimeError("boom")
        app.push(Broken())
        img = app.render()                        # no exception: the error screen is drawn instead
        assert isinstance(app.stack[-1], ErrorScreen) and img.getbbox() is not None
        assert any("screen error" in r.getMessage() and "boom" in r.getMessage() and r.levelname == "ERROR"
                   for r in caplog.records)                      # a logging line for the failure
        app.handle("a")                           # Go on: back to the menu, the session untouched
        assert isinstance(app.stack[-1], MainMenu) and app.console.session.game.name == "dice"
    finally:
        app.console.close()


def test_a_session_whose_screens_keep_failing_can_be_started_over(tmp_path, monkeypatch):
    from firmware.screens.errors import ErrorScreen
    app = app_with(["new glory players=Ваня,Маша seed=3", "fame Ваня +5"], [], tmp_path)
    try:
        session = app.console.session

        def broken_view():
            raise ValueError("state from a newer version")
        monkeypatch.setattr(session, "view", broken_view)
        app._view_stale = True
        app.render()                              # the menu reads the view: it fails
        assert isinstance(app.stack[-1], ErrorScreen)
        app.handle("down")
        app.handle("a")                           # Start over
        assert app.console.session is not session and app.console.session.game.name == "dice"
        app.render()
        assert app.errors == 1
    finally:
        app.console.close()


def _random_script(rng: random.Random, n: int) -> str:
    return "\n".join(rng.choice(KEYS) for _ in range(n)) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_device_program_survives_random_keys_from_a_script(lang, tmp_path):
    state = tmp_path / "state"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    setup = ["settings language=" + lang] + SETUPS["glory-cyrillic"]
    subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state)],
                   input="\n".join(setup).encode() + b"\n", capture_output=True, check=True, env=env, cwd=ROOT)
    script = tmp_path / "keys"
    script.write_text(_random_script(random.Random(lang), 600))
    p = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--state-dir", str(state),
                        "--script", str(script)], capture_output=True, timeout=120, env=env, cwd=ROOT)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err[-2000:]
    assert "Traceback" not in err and "screen error" not in err, err[-2000:]


def test_key3_is_hold_a_on_every_screen_random_keys_reach(tmp_path, monkeypatch):
    """KEY3 (the Waveshare HAT's third key) is hold A on every screen (docs/keys.md): the App gave a
    held A as A where a screen has no second action, and KEY3 as it came, so on almost every screen
    (lists, texts, questions, forms, dice entries) it did nothing, silently. Two devices over the
    same games get the same random keys, one a held A where the other gets KEY3 (pressed or held):
    after every key both show the same screens, frame and notice, and ran the same lines (the
    two draw the same secret seeds, so a new-game form's fair-draw code is the same on both)."""
    from firmware import console_session
    from firmware.screens.jc import battle
    from firmware.screens.widgets import ConfirmScreen
    reached: set[str] = set()
    for setup, lines in SETUPS.items():
        rng = random.Random(f"key3-{setup}")
        keys = [rng.choice(KEYS) for _i in range(250)]
        thirds = iter(rng.choice(["key3", "key3:hold"]) for _i in range(250))
        traces: list[list[object]] = []
        for run in range(2):
            battle._ANNOUNCED.clear()        # (what a battle said once: each device its own)
            monkeypatch.setattr(console_session, "_fresh_seed", iter(range(1000, 2000)).__next__)
            app = app_with([], [], tmp_path / f"{setup}-{run}")
            trace: list[object] = []
            try:
                for line in lines:
                    assert app.run(line)["ok"], line
                for key in keys:
                    if key == "a:hold" and run == 1:
                        top = app.stack[-1]
                        reached.add("question" if isinstance(top, ConfirmScreen) else type(top).__name__)
                        key = next(thirds)
                    app.handle(key)
                    frame = app.render().tobytes()
                    session = app.console.session
                    trace.append(([type(s).__name__ for s in app.stack], app.message, frame,
                                  list(session.lines) if session is not None else None))
            finally:
                app.console.close()
            traces.append(trace)
        for i, (one, two) in enumerate(zip(*traces)):
            assert one == two, (setup, i, keys[max(0, i - 8):i + 1], one[0], two[0], one[1], two[1])
    assert {"MainMenu", "question", "TextScreen", "DiceScreen"} <= reached and len(reached) >= 12, reached
