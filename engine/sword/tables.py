"""The editable Sword of Rome tables in ``engine/data/sword_*.json`` (with provenance notes)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.datafile import read_json


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = read_json(name)
    return data


def tables() -> dict[str, Any]:
    """``sword_tables.json``: factions, tie order, VP range, consuls, 2d6 tables."""
    return _load("sword_tables.json")


def loss_table() -> dict[str, Any]:
    """``sword_losses.json``: the loss table, ``winner``/``loser`` -> size column -> 6 codes."""
    return _load("sword_losses.json")


def naval_table() -> dict[str, Any]:
    """``sword_naval.json``: rows ``{min, max, result}`` and the modifiers."""
    return _load("sword_naval.json")
