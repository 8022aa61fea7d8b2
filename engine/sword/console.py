"""Console entry points for The Sword of Rome (PROTOCOL.md, docs/protocol/sword.md).

Sessionless (fixed by the protocol): ``sword-tactics``, ``sword-battle``, ``sword-odds``
(:mod:`engine.sword.requests`); the ``sword`` session game is :mod:`engine.sword.session`.
"""
from __future__ import annotations

from engine.sword.requests import BATTLE, ODDS, TACTICS
from engine.sword.session import GAME

__all__ = ["GAME", "TACTICS", "BATTLE", "ODDS"]
