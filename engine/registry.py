"""Where each game and sessionless command lives; imported lazily to keep start-up fast."""
from __future__ import annotations

import importlib
from typing import Any

from engine.errors import BadArguments
from engine.game import GameRules, GlobalCommand
from engine.text import Msg

# game name -> "module:attribute"
GAMES: dict[str, str] = {
    "bag": "engine.kit:GAME",
    "dice": "engine.kit:DICE",
    "caesar-solo": "engine.caesar.console:SOLO",
    "caesar-duel": "engine.caesar.console:DUEL",
    "jc-battle": "engine.jc.console:GAME",
    "glory": "engine.glory.console:GAME",
    "sword": "engine.sword.console:GAME",
}

# sessionless command -> "module:attribute" of a GlobalCommand
GLOBAL_COMMANDS: dict[str, str] = {
    "sword-tactics": "engine.sword.console:TACTICS",
    "sword-battle": "engine.sword.console:BATTLE",
    "sword-odds": "engine.sword.console:ODDS",
    "score": "engine.glory.console:SCORE",
}


def _load(ref: str) -> Any:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def available_games() -> list[str]:
    """Games whose modules import (a game still being built is left out)."""
    out = []
    for name in GAMES:
        try:
            game(name)
        except BadArguments:
            continue
        out.append(name)
    return out


def game(name: str) -> GameRules:
    """The game called ``name``; raises BadArguments listing the games if unknown."""
    ref = GAMES.get(name)
    if ref is not None:
        try:
            loaded: GameRules = _load(ref)
            return loaded
        except (ImportError, AttributeError):
            pass
    raise BadArguments(Msg("No game '{}'. Games: {}.", name[:40], ", ".join(sorted(GAMES))))


def global_command(name: str) -> GlobalCommand | None:
    """The sessionless command ``name``, or None if there is none (or it is not built yet)."""
    ref = GLOBAL_COMMANDS.get(name)
    if ref is None:
        return None
    try:
        command: GlobalCommand = _load(ref)
        return command
    except (ImportError, AttributeError):
        return None
