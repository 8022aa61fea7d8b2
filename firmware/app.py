"""The device UI state machine: a stack of screens over one Console (one thread owns both).

Key events come in as logical names (hw/keys.py); every change to the game goes through
``Console.request`` so it is journaled exactly as a console line would be.
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from firmware.console import Console
from firmware.screens import base
from firmware.screens.base import Screen
from firmware.settings import with_defaults


class App:
    """Implements :class:`firmware.screens.base.Ctx` for the screens."""

    def __init__(self, console: Console, root: Screen | None = None) -> None:
        from firmware.screens.menu import MainMenu
        self.console = console
        self.settings: dict[str, Any] = with_defaults(console.store.load_settings())
        self.stack: list[Screen] = [root or MainMenu()]
        self.message: list[str] | None = None
        self._view: dict[str, Any] | None = None
        self._view_stale = True

    # -- Ctx ---------------------------------------------------------------------------------
    def run(self, line: str) -> dict[str, Any]:
        response = self.console.request(line)
        self._view_stale = True
        if response.get("error") == "internal_error":
            self.notify(response["message"])
        return response

    def view(self) -> dict[str, Any] | None:
        if self.console.session is None:
            return None
        if self._view_stale:
            self._view = self.console.session.view()
            self._view_stale = False
        return self._view

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()

    def replace(self, screen: Screen) -> None:
        self.stack[-1] = screen

    def notify(self, text: str) -> None:
        """A short message over the screen until the next key; a long one gets its own
        scrollable screen so nothing is cut off."""
        rows = base.wrap(text, base.COLS - 2)
        if len(rows) <= 4:
            self.message = rows
        else:
            self.push(base.TextScreen("Note", text))

    def set_setting(self, key: str, value: str) -> dict[str, Any]:
        response = self.run(f"settings {key}={value}")
        if response["ok"]:
            self.settings = response["settings"]
        return response

    # -- events ------------------------------------------------------------------------------
    def handle(self, key: str) -> None:
        """One logical key event (after debounce/hold): message, global undo, else the screen."""
        if self.message is not None:
            self.message = None
            return
        if key == "b:hold":
            self.ask_undo()
            return
        self.stack[-1].key(key, self)

    def ask_undo(self) -> None:
        session = self.console.session
        if session is None or not session.lines:
            self.notify("Nothing to undo.")
            return
        step = session.sentences[-1]

        def yes(ctx: Any) -> None:
            response = self.run("undo")
            self.notify(response.get("undone") or response.get("message", ""))

        self.push(base.ConfirmScreen("Undo?", f"Take back: {step}", yes, "A: undo", "B: keep"))

    def render(self) -> Image.Image:
        img = self.stack[-1].render(self)
        if self.message is not None:
            rows = self.message[:4]
            draw = ImageDraw.Draw(img)
            h = len(rows) * base.LINE + 4
            y0 = (base.H - h) // 2
            draw.rectangle((2, y0, base.W - 3, y0 + h), fill=0, outline=1)
            for i, row in enumerate(rows):
                base.text(draw, 6, y0 + 2 + i * base.LINE, row)
        return img
