"""The 63 blocks of *Julius Caesar* and blocks given by their rating alone (J-1, J-2, J-20).

Data: ``engine/data/julius_caesar_blocks.json`` (with its provenance note). A block's ``track``
lists its strengths from the maximum down, e.g. ``(3, 2, 1)``; the elephant's is ``(4, 2)``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.datafile import read_json
from engine.errors import BadArguments
from engine.jc.latin import hint as latin_hint
from engine.jc.text import Msg

SIDES = ("caesar", "pompey")
LETTERS = "ABCD"
KINDS = ("leader", "legion", "equitatus", "auxilia", "ballista", "navis", "elephant",
         "cleopatra", "block")
BALLISTA_ATTACKING = ("D", 4)   # J-2: D4 when its side attacks
BALLISTA_DEFENDING = ("B", 4)   # J-2: B4 when its side defends
_RATING = re.compile(r"^([A-Da-d])([1-4])$")       # J-1: initiative A-D, firepower 1-4


@dataclass(frozen=True)
class BlockSpec:
    """One block's printed data. ``side`` is the owner at the start of the game."""

    id: str | None
    name: str
    side: str
    kind: str
    letter: str
    firepower: int
    track: tuple[int, ...]
    levy_city: str | None = None
    levy_rule: str = ""
    setup: str | None = None

    @property
    def leader(self) -> bool:
        return self.kind == "leader"

    @property
    def max_strength(self) -> int:
        return self.track[0]

    @property
    def rating(self) -> str:
        """The printed rating, e.g. ``C3`` (the ballista shows ``B4/D4``)."""
        if self.kind == "ballista":
            return "B4/D4"
        return f"{self.letter}{self.firepower}"


def _side(raw: str) -> str:
    return "pompey" if raw.startswith("pompey") else "caesar"


def _spec(raw: dict[str, Any]) -> BlockSpec:
    setup = raw.get("setup")
    where = setup.get("location") if isinstance(setup, dict) else None
    return BlockSpec(id=raw["id"], name=raw["name"], side=_side(raw["side"]), kind=raw["type"],
                     letter=raw["initiative"], firepower=int(raw["firepower"]),
                     track=tuple(int(s) for s in raw["strength_track"]),
                     levy_city=raw.get("levy_city"), levy_rule=str(raw.get("levy_rule", "")),
                     setup=where)


@lru_cache(maxsize=1)
def roster() -> dict[str, BlockSpec]:
    """All 63 blocks by id, in the data file's order."""
    return {raw["id"]: _spec(raw) for raw in read_json("julius_caesar_blocks.json")["blocks"]}


def block(block_id: str) -> BlockSpec:
    """The roster block ``block_id``; raises BadArguments naming similar ids if unknown."""
    spec = roster().get(block_id)
    if spec is None:
        latin_hint(block_id, lambda word: word in roster())
        low = block_id.lower()
        hints = [b for b in roster() if low[:4] and b.startswith(low[:4])][:6]
        unknown = Msg("'{}' is not a Julius Caesar block id (e.g. c_leg10, p_pompeius, cleopatra; "
                      "'roster' lists them).", block_id)
        raise BadArguments(Msg("{} {}", unknown, Msg("Did you mean {}?", ", ".join(hints))) if hints else unknown)
    return spec


def _and(words: list[str]) -> Msg | str:
    """``a and b and c`` with a translatable "and" (the words are option names, kept as they are)."""
    out: Msg | str = words[0] if words else ""
    for w in words[1:]:
        out = Msg("{} and {}", out, w)
    return out


def parse_rating(text: str) -> tuple[str, int]:
    """``C3`` -> ``("C", 3)``; raises BadArguments unless a letter A-D and firepower 1-4 (J-1)."""
    m = _RATING.match(text.strip())
    if not m:
        latin_hint(text.strip(), lambda word: bool(_RATING.match(word)))
        raise BadArguments(Msg("rating={} is not a block rating: write a letter A-D (initiative) "
                               "and a firepower 1-4, e.g. rating=C3.", repr(text)))
    return m.group(1).upper(), int(m.group(2))


def rated_block(rating: str | None, strength: int, side: str, *, name: str,
                leader: bool = False, elephant: bool = False, ballista: bool = False,
                navis: bool = False, cleopatra: bool = False) -> BlockSpec:
    """A block known only by its rating (other Columbia block games use the same system).

    ``strength`` is its current strength, and its track runs from there down to I (an elephant
    always has the track IV, II). A ballista is
    B4/D4 whatever ``rating`` says (``rating`` may be omitted, or must be B4 or D4). Raises
    BadArguments for a bad rating, strength or flag combination.
    """
    flags = [f for f, on in (("leader", leader), ("elephant", elephant), ("ballista", ballista),
                             ("navis", navis), ("cleopatra", cleopatra)) if on]
    if len(flags) > 1:
        raise BadArguments(Msg("A block can be only one of leader/elephant/ballista/navis/cleopatra, "
                               "not {}.", _and(flags)))
    if ballista:
        if rating is not None and rating.strip().upper() not in ("B4", "D4"):
            raise BadArguments(Msg("A ballista fights at B4 when defending and D4 when attacking (J-2): "
                                   "leave rating= out or write rating=B4."))
        letter, fp = BALLISTA_DEFENDING
    else:
        if rating is None:
            raise BadArguments(Msg("A block given without an id needs rating=, e.g. rating=C3 strength=3."))
        letter, fp = parse_rating(rating)
    if elephant:
        if strength not in (2, 4):
            raise BadArguments(Msg("An elephant has strength IV (4) or II (2) only (J-2), not {}.", strength))
        track: tuple[int, ...] = (4, 2)
    else:
        if not 1 <= strength <= 4:
            raise BadArguments(Msg("strength= must be between 1 and 4 (I-IV), not {}.", strength))
        track = tuple(range(strength, 0, -1))
    kind = flags[0] if flags else "block"
    return BlockSpec(id=None, name=name, side=side, kind=kind, letter=letter, firepower=fp,
                     track=track)


def roman(n: int) -> str:
    """Strength as the Roman numeral printed on the block (0 -> ``-``)."""
    return {0: "-", 1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}.get(n, str(n))
