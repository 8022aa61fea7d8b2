"""The games as plug-ins: one :class:`GameRecord` per game, registered here in one line each.

``firmware/`` reads everything game-specific from the record (its menu title, the session game ids
it plays, its translation domain, the screen that opens it …): no module of ``firmware/`` switches
on a game's id. This module imports no screen and no storage (the console reads it too).
"""
from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from engine.text import N_

if TYPE_CHECKING:
    from firmware.screens.ctx import Ctx

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameRecord:
    """One game for the device: what ``firmware/`` needs to know of it."""

    ident: str
    """The record's own id (the game's package name: ``caesar``, ``jc`` …)."""
    label: str
    """Its name in menus, English, marked with ``N_`` (said when drawn)."""
    sessions: tuple[str, ...]
    """The session game ids (``new <id>``) it plays: its Resume row continues them."""
    screens: str
    """``module:function`` of the screen that opens it (``open_game(ctx)``), imported when chosen."""
    resume: str = ""
    """The main menu's Resume row (``N_`` marked), when it is not "Resume: <label>"."""
    in_games_menu: bool = True
    """Listed under Games (a tool such as the dice is not)."""

    def opener(self) -> Callable[[Ctx], None] | None:
        """The game's ``open_game``, or None while its screens are not there (shown as "coming")."""
        return _load(self.screens)


# One line per game (its record's "module:attribute"): the only place a game is registered.
REGISTERED: tuple[GameRecord, ...] = (
    GameRecord("caesar", N_("Caesar!"), ("caesar-solo", "caesar-duel"), "firmware.screens.caesar.home:open_game"),
    GameRecord("jc", N_("Julius Caesar"), ("jc-battle",), "firmware.screens.jc.home:open_game"),
    GameRecord("glory", N_("Glory of Rome"), ("glory",), "firmware.screens.glory.home:open_game"),
    GameRecord("sword", N_("Sword of Rome"), ("sword",), "firmware.screens.sword.home:open_game"),
    GameRecord("dice", N_("Dice"), ("dice",), "firmware.screens.kit.dice:open_dice", N_("Resume: dice"), False),
    GameRecord("bag", N_("Bag & deck"), ("bag",), "firmware.screens.kit.bag:open_kit", N_("Resume: bag & deck"), False),
)


def records() -> tuple[GameRecord, ...]:
    return REGISTERED


def record_of(session_game: str | None) -> GameRecord | None:
    """The record that plays the session game ``session_game`` (``caesar-duel`` → Caesar!)."""
    for record in REGISTERED:
        if session_game in record.sessions:
            return record
    return None


@cache
def _load(ref: str) -> Callable[[Ctx], None] | None:
    module, _sep, attr = ref.partition(":")
    try:
        opener: Callable[[Ctx], None] = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        log.warning("the screens of %s do not load: %s", ref, e)
        return None
    return opener
