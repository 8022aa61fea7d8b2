"""The Caesar! board as small integers (C-1, C-2), loaded once from ``engine/data``.

Provinces are 0..17 and border spaces 0..29 in the data file's order. A space joins provinces
``SPACE_A[s]`` and ``SPACE_B[s]``; its id is ``"A-B"`` as in the data (either order is accepted
on input). Icons are bit masks so that a token fits a space when ``token_mask & SPACE_ICON[s]``.
"""
from __future__ import annotations

from typing import Any

from engine.datafile import read_json
from engine.errors import BadArguments
from engine.caesar.text import Msg

SWORD, SHIELD, SHIP = 1, 2, 4
ICON_BITS: dict[str, int] = {"sword": SWORD, "shield": SHIELD, "ship": SHIP}


def _load() -> dict[str, Any]:
    data: dict[str, Any] = read_json("caesar_board.json")
    return data


DATA: dict[str, Any] = _load()

PROVINCES: tuple[str, ...] = tuple(p["code"] for p in DATA["provinces"])
PROVINCE_NAMES: tuple[str, ...] = tuple(p["name"] for p in DATA["provinces"])
PROVINCE_XY: tuple[tuple[float, float], ...] = tuple((float(p["xy"][0]), float(p["xy"][1])) for p in DATA["provinces"])
"""Where each province sits on the board, as fractions of its width and height (the map screen)."""
N_PROVINCES = len(PROVINCES)
PROVINCE_INDEX: dict[str, int] = {code: i for i, code in enumerate(PROVINCES)}
ITALY = PROVINCE_INDEX["IT"]
CENTRAL: tuple[bool, ...] = tuple(code in DATA["central"] for code in PROVINCES)
ADJ_CENTRAL: tuple[bool, ...] = tuple(code in DATA["adjacent_to_central"] for code in PROVINCES)
# C-9: Italy takes two control markers (solid and dashed slot).
SLOTS: tuple[int, ...] = tuple(int(p["province_spaces"]) for p in DATA["provinces"])

SPACES: tuple[str, ...] = tuple(b["id"] for b in DATA["borders"])
N_SPACES = len(SPACES)
SPACE_A: tuple[int, ...] = tuple(PROVINCE_INDEX[b["a"]] for b in DATA["borders"])
SPACE_B: tuple[int, ...] = tuple(PROVINCE_INDEX[b["b"]] for b in DATA["borders"])
SPACE_ICON: tuple[int, ...] = tuple(ICON_BITS[b["icon"]] for b in DATA["borders"])
SPACE_ICON_NAME: tuple[str, ...] = tuple(b["icon"] for b in DATA["borders"])
BORDER_CONTROL: tuple[bool, ...] = tuple(bool(b["border_control"]) for b in DATA["borders"])

PROVINCE_SPACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(N_SPACES) if p in (SPACE_A[s], SPACE_B[s])) for p in range(N_PROVINCES))
# (neighbouring province, the space between) for every province.
NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((SPACE_B[s] if SPACE_A[s] == p else SPACE_A[s], s) for s in PROVINCE_SPACES[p])
    for p in range(N_PROVINCES))
SPACE_INDEX: dict[str, int] = {}
for _s, _sid in enumerate(SPACES):
    _a, _b = _sid.split("-")
    SPACE_INDEX[f"{_a}-{_b}"] = _s
    SPACE_INDEX[f"{_b}-{_a}"] = _s


def other_side(s: int, p: int) -> int:
    """The province across space ``s`` from province ``p``."""
    return SPACE_B[s] if SPACE_A[s] == p else SPACE_A[s]


def space_index(text: str) -> int:
    """Index of a space written ``A-B`` in either order (case-insensitive); raises BadArguments."""
    s = SPACE_INDEX.get(text.strip().upper())
    if s is None:
        raise BadArguments(Msg("'{}' is not a border space; write two neighbouring province codes, "
                               "e.g. SC-IT (spaces: {}).", text, ", ".join(SPACES)))
    return s


def province_index(text: str) -> int:
    """Index of a province code such as ``SC`` (case-insensitive); raises BadArguments."""
    p = PROVINCE_INDEX.get(text.strip().upper())
    if p is None:
        raise BadArguments(Msg("'{}' is not a province code (provinces: {}).", text, ", ".join(PROVINCES)))
    return p


def _check() -> None:
    """C-1: every space touches two provinces and neighbours share exactly one space."""
    seen: set[frozenset[int]] = set()
    for s in range(N_SPACES):
        pair = frozenset((SPACE_A[s], SPACE_B[s]))
        if len(pair) != 2 or pair in seen:
            raise ValueError(Msg("caesar_board.json: space {} breaks C-1", SPACES[s]))
        seen.add(pair)


_check()
