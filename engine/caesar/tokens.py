"""Influence tokens (C-3, C-20): one player's set as ids 0..18, and the ``icon:a/b`` notation.

Ids 0..15 are the base tokens in the data file's order, 16..18 the three centurions. Both players
own the same set. A token's canonical name puts the larger number first (``ship:5/1``); on input
either order names the same token, and for ``play`` the first number written faces the chosen
province.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.caesar.board import DATA, ICON_BITS, SHIELD, SHIP, SWORD
from engine.errors import BadArguments
from engine.game import whole_number
from engine.caesar.text import Msg

WILD_MASK = SWORD | SHIELD | SHIP
MASKS: dict[str, int] = {**ICON_BITS, "wild": WILD_MASK, "shield+ship": SHIELD | SHIP}


@dataclass(frozen=True, slots=True)
class TokenSpec:
    """One influence token: ``hi`` >= ``lo`` are its numbers, ``mask`` the spaces it fits."""

    tid: int
    icon: str
    hi: int
    lo: int
    mask: int
    wild: bool
    centurion: bool
    key: int = 0        # equal for identical tokens (the two wild 2/2)
    total: int = 0
    name: str = ""      # ``sword:5/1``
    label: str = ""     # for sentences: ``sword 5/1``

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", self.mask * 10000 + self.hi * 100 + self.lo)
        object.__setattr__(self, "total", self.hi + self.lo)
        object.__setattr__(self, "name", f"{self.icon}:{self.hi}/{self.lo}")
        object.__setattr__(self, "label", f"{self.icon} {self.hi}/{self.lo}")


def _specs() -> tuple[TokenSpec, ...]:
    out: list[TokenSpec] = []
    groups = ((DATA["tokens"]["per_player_base"], False), (DATA["tokens"]["per_player_centurions"], True))
    for group, centurion in groups:
        for item in group:
            a, b = item["values"]
            icon = item["icon"]
            out.append(TokenSpec(len(out), icon, max(a, b), min(a, b), MASKS[icon], icon == "wild", centurion))
    return tuple(out)


TOKENS: tuple[TokenSpec, ...] = _specs()
BASE_IDS: tuple[int, ...] = tuple(t.tid for t in TOKENS if not t.centurion)
CENTURION_IDS: tuple[int, ...] = tuple(t.tid for t in TOKENS if t.centurion)
IDS_BY_NAME: dict[str, tuple[int, ...]] = {}
for _t in TOKENS:
    IDS_BY_NAME[_t.name] = IDS_BY_NAME.get(_t.name, ()) + (_t.tid,)


def check_written(words: Iterable[str], asked: bool) -> None:
    """The numbers of the tokens a request asked now names (words or comma lists of ``icon:a/b``)
    written by the one rule for numbers (engine.game.whole_number): ``ship:05/1`` is refused, as
    ``strength=03`` is (it ran as ship:5/1 but was journaled as typed); a stored line replays."""
    if not asked:
        return
    for word in words:
        for part in word.split(","):
            _icon, colon, nums = part.partition(":")
            for n in nums.split("/") if colon else ():
                if n.isdecimal():
                    whole_number(n)


def parse_token(text: str) -> tuple[str, int, int]:
    """``'ship:5/1'`` -> ``('ship:5/1', 5, 1)``: canonical name, first and second number as written.

    Raises BadArguments if the text is not ``icon:a/b`` or names no token of the game.
    """
    raw = text.strip().lower()
    icon, colon, nums = raw.partition(":")
    first, slash, second = nums.partition("/")
    if not colon or not slash or not first.isdecimal() or not second.isdecimal():
        raise BadArguments(Msg("'{}' is not a token; write icon:a/b, e.g. ship:5/1 or wild:2/2 "
                               "(icons: sword, shield, ship, wild, shield+ship).", text))
    a, b = int(first), int(second)
    name = f"{icon}:{max(a, b)}/{min(a, b)}"
    if name not in IDS_BY_NAME:
        known = ", ".join(sorted(IDS_BY_NAME))
        raise BadArguments(Msg("There is no token {}:{}/{} in Caesar! (tokens: {}).", icon, a, b, known))
    return name, a, b


def ids_of(name: str) -> tuple[int, ...]:
    """Ids of the tokens with canonical ``name`` (two for ``wild:2/2``)."""
    return IDS_BY_NAME[name]

