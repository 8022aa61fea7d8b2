"""The screen stack made again in a new language (Settings → Language, or a ``settings
language=…`` line from the serial link): :func:`in_new_language`."""
from __future__ import annotations

import logging
from typing import cast

from firmware.screens.ctx import Remade, Screen, carry_place, remade
from firmware.screens.widgets import ConfirmScreen, TableScreen, TextScreen
from firmware.screens.widgets.result import ResultScreen

log = logging.getLogger(__name__)

SAID_WHEN_MADE = (TextScreen, TableScreen, ConfirmScreen, ResultScreen)
"""The screens that say their texts when they are made (the others say them when drawn)."""


def in_new_language(stack: list[Screen]) -> list[Screen]:
    """Every screen of ``stack`` that said its texts when it was made, made again in the language
    spoken now at the same place (:func:`firmware.screens.ctx.remade`); one that fails, or a text,
    table, question or result made without a ``remake`` (it would stay in the old language), is
    taken off, as a screen made stale by an undo is, and the one below it shows. Never raises for
    a screen that cannot be made again (logged)."""
    out: list[Screen] = []
    for screen in stack:
        make = screen.remake if isinstance(screen, Remade) else None
        if not callable(make):
            if make is None and isinstance(screen, SAID_WHEN_MADE):   # it would stay in the old
                log.info("%s is taken off: it cannot be said in the new language", type(screen).__name__)
                continue
            out.append(screen)
            continue
        try:
            fresh = cast(Screen, make() if hasattr(type(screen), "remake") else remade(make))   # (again at the next change too)
        except Exception:  # noqa: BLE001 - a screen that cannot be made again is taken off
            log.exception("%s could not be made again in the new language", type(screen).__name__)
            continue
        carry_place(screen, fresh)
        out.append(fresh)
    return out
