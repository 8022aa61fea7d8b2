"""The editable Glory of Rome tables in ``engine/data/glory_*.json`` (with their provenance notes).

Loaded once, on first use, from the package's own data folder (never from ``shared/``).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.datafile import read_json
from engine.glory.text import Msg


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = read_json(name)
    return data


def tables() -> dict[str, Any]:
    """``glory_tables.json``: income, penalties, scoring tables, solo goals, achievements."""
    return _load("glory_tables.json")


def senate_values() -> tuple[int, ...]:
    """G-10: what a Senate place is worth at scoring, bottom -> top (``glory_tables.json``)."""
    return tuple(int(v) for v in tables()["politics_values_bottom_to_top"])


def event_cards() -> list[dict[str, Any]]:
    """``glory_events.json``: the 18 event cards (``id``, ``label``, ``arrow``, ``harsh``)."""
    cards: list[dict[str, Any]] = _load("glory_events.json")["cards"]
    return cards


def objective_cards() -> list[dict[str, Any]]:
    """``glory_objectives.json``: the 23 objective cards (``id``, ``label``, ``removed_by``, ...)."""
    cards: list[dict[str, Any]] = _load("glory_objectives.json")["cards"]
    return cards


def farming_income(round_no: int, farmer: bool) -> int:
    """Denarii for a supporter on a farming building in round ``round_no`` (1..9) (G-3).

    Raises ValueError outside 1..9.
    """
    income = tables()["farming_income"]
    if not 1 <= round_no <= len(income):
        raise ValueError(Msg("round {} is outside 1..{}", round_no, len(income)))
    return int(income[round_no - 1]) + (int(tables()["farmer_bonus"]) if farmer else 0)


def double_tax_penalty(population: int) -> int | None:
    """Fame lost for double tax at ``population`` as printed on the dial, or None if unknown (G-4)."""
    value = tables()["double_tax_penalty"].get(str(population))
    return None if value is None else int(value)


def hand_limit() -> int:
    """The most cards a hand holds, the anchor card included (G-19: «до пяти карт товаров,
    включая карту якоря»): the random pick of «Продано!» and «Таможенные сборы» is from such a hand."""
    return int(tables()["hand_limit"])


def fame_floor() -> int:
    """The fame track's lowest space (G-5: «маркер славы ни при каких обстоятельствах не может
    опуститься ниже» 1): no loss takes a marker below it, no double tax whose penalty would (G-4)."""
    return int(tables()["fame_floor"])
