"""The start's notices: what the device found as it started (a panel or key missing, damage
repaired, the last run's error), a paragraph each, on one scrolling screen."""
from __future__ import annotations

from firmware.i18n import _, again
from firmware.screens import base
from firmware.screens.widgets import TextScreen
from firmware.screens.widgets.scroll import beside, paragraphs, wrapped


class NoticesScreen(TextScreen):
    """What the device found at start, a paragraph each (scrolling; any key but up/down closes)."""

    def __init__(self) -> None:
        super().__init__(_("At start"), [])
        self.paragraphs: list[str] = []

    def remake(self) -> NoticesScreen:
        """The same notices in the language chosen now (firmware/relanguage.py)."""
        again_ = NoticesScreen()
        for paragraph in self.paragraphs:
            again_.add(again(paragraph))
        return again_

    def add(self, text: str) -> None:
        self.paragraphs.append(text)
        body = "\n\n".join(self.paragraphs)            # a blank row between two
        self.width = beside(body, base.ROWS)          # scrolled: the mark keeps its column
        self.paras, self.rows = paragraphs(body), wrapped(body, self.width)
