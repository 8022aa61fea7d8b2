"""Golden-screen helpers: render through luma's dummy device and compare pixel for pixel.

A golden PNG that is missing fails the test: it is never blessed by a first run. Set
LEGATUS_REGOLD=1 to (re)write the golden PNGs after a deliberate change of a screen (or to write a
new one); review the new images before committing them.
"""
from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).resolve().parent / "golden"


def on_dummy(img: Image.Image) -> Image.Image:
    """What a 128×64 1-bit OLED would hold after displaying ``img`` (luma.core dummy device)."""
    from luma.core.device import dummy
    device = dummy(width=128, height=64, mode="1")
    device.display(img)
    return device.image.copy()


def assert_golden(img: Image.Image, name: str) -> None:
    shown = on_dummy(img)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("LEGATUS_REGOLD") == "1":
        shown.save(path)
    elif not path.exists():
        raise AssertionError(f"golden screen {path.name} is missing (LEGATUS_REGOLD=1 writes it; look at it before committing)")
    expected = Image.open(path).convert("1")
    assert shown.size == expected.size == (128, 64)
    diff = ImageChops.logical_xor(shown.convert("1"), expected)
    assert diff.getbbox() is None, f"{name}: pixels differ in {diff.getbbox()} (LEGATUS_REGOLD=1 to accept)"


def check_case(cases: dict, name: str, state_dir: Path) -> None:
    """Golden-test one ``cases[name] = (console_lines, keys)`` screen."""
    lines, keys = cases[name]
    app = app_with(lines, keys, state_dir)
    try:
        assert_golden(app.render(), name)
    finally:
        app.console.close()


def app_with(console_lines: list[str], keys: list[str], state_dir: Path, lang: str = "en"):
    """An App over a fresh state dir after the console lines and keys, speaking ``lang`` (so the
    first-start language question is answered); the caller closes it. Each key comes after a
    frame is drawn, as on the device (a new-game form shows its fair-draw code as it is first
    drawn); the secret the next ``new`` commits to is fixed (``SECRET``), so the code is too."""
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    console = Console(store, store.resume())
    assert console.request(f"settings language={lang}")["ok"]
    for line in console_lines:
        response = console.request(line)
        assert response["ok"], (line, response)
    console._pending = SECRET          # what ``commit`` and the next secret ``new`` use
    app = App(console)
    for key in keys:
        app.render()
        if key == YES:
            say_yes(app)
        else:
            app.handle(key)
    return app


YES = "yes"
"""A key list's step that answers the question on top with yes, read to its end (:func:`say_yes`)."""


def say_yes(app) -> int:
    """A on the yes/no question on top of ``app`` (an App, a FakeCtx or the presses' Driver) until
    it says yes: a question longer than its rows reads on a page an A first (docs/keys.md); the
    presses (1 for a question that fits one page, or for a screen on top that is no question)."""
    from firmware.screens.widgets import ConfirmScreen
    stack = app.app.stack if hasattr(app, "app") else app.stack
    if hasattr(app, "handle"):
        def press() -> None:
            app.render()
            app.handle("a")
    else:
        def press() -> None:
            app.press("a")
    question, presses = stack[-1], 0

    def asking() -> bool:       # (the same question: a screen that follows the game is made again as drawn)
        top = stack[-1]
        return isinstance(question, ConfirmScreen) and type(top) is type(question) and (
            top is question or (top.title, top.question) == (question.title, question.question))
    while presses == 0 or asking():
        assert presses < 30, "the question never said yes"
        press()
        presses += 1
    return presses


SECRET = 20260301


def drawn(app) -> list[tuple[int, int, str, str]]:
    """Every text the current frame draws, as ``(x, y, text, font kind)`` (base.TRACE)."""
    from firmware.screens import base
    base.TRACE = []
    try:
        app.render()
        return list(base.TRACE)
    finally:
        base.TRACE = None


def undo_by_link(app) -> str:
    """``undo`` from the serial link, and the notice it puts on the device (``Undone: …``, as hold
    B's: over the screen, or a Note screen of its own when long) closed: the reply line."""
    from firmware.screens.widgets import TextScreen
    top = app.stack[-1]
    reply = app.serve_line(b"undo")
    app.render()
    if app.stack[-1] is not top and isinstance(app.stack[-1], TextScreen):
        app.handle("b")                   # the note closes
        app.render()
    app.message = None
    return reply


def killed_after_presses(state_dir: Path, lines: list[str], presses: int, keys: list[str] | None = None) -> None:
    """The device program as the unit runs it, killed by the power: ``legatus console`` plays
    ``lines`` (after ``settings language=en``) into ``state_dir``; then ``legatus --sim --script``
    presses A ``presses`` times (then ``keys``, if given) and idles, and gets SIGKILL once the frame
    after the last press is drawn. Asserts every press was drawn and the kill was what ended it."""
    import signal
    import subprocess
    import sys
    import time
    console = subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state_dir)],
                             input="settings language=en\n" + "\n".join(lines) + "\n", text=True,
                             capture_output=True, timeout=120)
    assert console.returncode == 0, console.stderr
    pressed = ["a"] * presses + list(keys or [])
    script = state_dir / "keys.txt"
    script.write_text("".join(f"{k}\n" for k in pressed) + "wait 1\n" * 400)   # the presses, then idle until killed
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(script),
                             "--state-dir", str(state_dir)], stdout=subprocess.PIPE, text=True)
    seen = 0
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    for line in proc.stdout:
        seen += line.startswith("--- frame after: ") and line[17:].split(" ")[0].strip() in pressed
        if seen == len(pressed) or time.monotonic() > deadline:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert seen == len(pressed) and proc.returncode == -signal.SIGKILL
