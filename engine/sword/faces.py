"""Dice entered by hand (physical dice) and dice drawn from the generator."""
from __future__ import annotations

from engine.errors import BadArguments
from engine.game import whole_number
from engine.rng import Rng
from engine.sword.text import Msg


def parse_faces(text: str, count: int, what: str, asked: bool = False) -> list[int]:
    """``"5,2,2"`` -> ``[5, 2, 2]``: exactly ``count`` faces 1..6; raises BadArguments (``asked``: a
    request asked now, each face written by the one rule, engine.game.whole_number: no ``05``)."""
    parts = text.split(",")
    if len(parts) != count or not all(p.strip().isdecimal() and 1 <= int(p) <= 6 for p in parts):
        example = ",".join(["4"] * count)
        raise BadArguments(Msg("{} takes {n} die faces 1-6 separated by commas, e.g. {}; not '{}'.", what, example, text,
                               n=count, plural="{} takes {n} die faces 1-6 separated by commas, e.g. {}; not '{}'."))
    return [whole_number(p, asked) for p in parts]


def roll_faces(rng: Rng, count: int) -> list[int]:
    """``count`` d6 from the generator."""
    return [rng.die(6) for _ in range(count)]
