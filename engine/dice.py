"""Dice expressions ``NdS[+M|-M]`` and rolls with an explicit generator.

A roll record is plain data: ``{"expr": "2d6+1", "dice": [3, 5], "sides": 6, "mod": 1,
"total": 9, "rerolled": []}``; ``rerolled`` lists the 1-based positions re-rolled afterwards
(the same numbering as the ``reroll`` command).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from engine.errors import BadArguments, IllegalMove
from engine.game import whole_number
from engine.rng import Rng
from engine.text import Msg, N_

# The sentence a re-roll of one die said before it had its own form, kept in the catalogs: logs
# stored before still say it («Переброшены кубики 1 из 3d6»).
STORED_BEFORE = (N_("Re-rolled dice {} of {}: {} = {}."),)

MAX_DICE = 100
MAX_SIDES = 1000
MAX_MOD = 10_000
# The die's letter: d (D), and as a Russian or Ukrainian player writes it — «2к6» (к: кубик, the
# rulebooks' «кубик»), «2д6» (д: the d spelt in Cyrillic) — or as the key D types with the keyboard
# left in the Cyrillic layout (ЙЦУКЕН: в). Each is the same roll, run and stored as ``d``.
DIE_LETTERS = "dDкКдДвВ"
_EXPR = re.compile(rf"^(\d*)([{DIE_LETTERS}])(\d+)(?:([+-])(\d+))?$")


class DiceSpec(NamedTuple):
    """``count`` dice of ``sides`` sides plus ``mod``."""

    count: int  # type: ignore[assignment]  # shadows tuple.count on purpose: the field name is the word
    sides: int
    mod: int = 0

    @property
    def expr(self) -> str:
        sign = f"{self.mod:+d}" if self.mod else ""
        return f"{self.count}d{self.sides}{sign}"


def plain_dice(text: str) -> str:
    """``text`` with a dice expression's Cyrillic die letter (``2к6``, ``2д6``, ``2в6``) written
    ``d``: the line a roll asked so is stored as (engine/common.py); anything else as it is."""
    m = _EXPR.match(text)
    if m is None or m.group(2) in "dD":
        return text
    return text[:m.start(2)] + "d" + text[m.end(2):]


# What a dice expression is typed with that is no part of it, each with the sign meant: the Latin
# k of «2к6» typed in the Latin layout, the minus and dashes a phone or a web page gives (2d6−1),
# full-width signs, spaces inside (``2d6 + 1`` read as one word: engine/common.py).
_MEANT = str.maketrans({"k": "d", "K": "d", "−": "-", "–": "-", "—": "-", "＋": "+", "－": "-", " ": None})


def meant_dice(text: str) -> str | None:
    """The dice expression ``text`` was meant to be (its letter ``d``, its signs ASCII), when it
    is not one as typed but is one so written; else None."""
    fixed = plain_dice(text.strip().translate(_MEANT))
    return fixed if fixed != text.strip() and _EXPR.match(fixed) else None


def parse_dice(text: str, asked: bool = False) -> DiceSpec:
    """Parse ``NdS``, ``dS``, ``NdS+M`` or ``NdS-M`` (the d also ``к``, ``д`` or ``в``: see
    :data:`DIE_LETTERS`); raises BadArguments with the limits.
    ``asked``: a request asked now (its numbers by the one rule: engine.game.whole_number)."""
    m = _EXPR.match(text.strip())
    if not m:
        shown = text if len(text) <= 24 else text[:20] + "…"
        meant = meant_dice(text)
        if meant is not None:
            raise BadArguments(Msg("'{}' is not a dice expression; did you mean {}? Nothing was rolled.", shown, meant))
        raise BadArguments(Msg("'{}' is not a dice expression; write NdS, NdS+M or NdS-M (e.g. 3d6+1).", shown))
    count = whole_number(m.group(1), asked) if m.group(1) else 1
    sides = whole_number(m.group(3), asked)
    mod = (whole_number(m.group(5), asked) if m.group(5) else 0) * (-1 if m.group(4) == "-" else 1)
    if not 1 <= count <= MAX_DICE:
        raise BadArguments(Msg("Roll between 1 and {} dice, not {}.", MAX_DICE, count))
    if not 2 <= sides <= MAX_SIDES:
        raise BadArguments(Msg("Dice need 2 to {} sides, not {}.", MAX_SIDES, sides))
    if abs(mod) > MAX_MOD:
        raise BadArguments(Msg("The modifier must be within ±{}.", MAX_MOD))
    return DiceSpec(count, sides, mod)


def usage(args: tuple[str, ...]) -> BadArguments:
    """The refusal of a ``roll`` given other than one expression: the one meant when its words
    written together are one (``roll 2d6 + 1``: ``roll 2d6+1``)."""
    meant = meant_dice("".join(args)) or ("".join(args) if _EXPR.match("".join(args)) else None)
    if len(args) > 1 and meant is not None:
        return BadArguments(Msg("'{}' is not a dice expression; did you mean {}? Nothing was rolled.",
                                " ".join(args)[:24], meant))
    return BadArguments(Msg("Usage: roll NdS[+M|-M], e.g. roll 3d6+1."))


def roll(spec: DiceSpec, rng: Rng) -> dict[str, Any]:
    """Roll ``spec`` and return a roll record."""
    dice = [rng.die(spec.sides) for _ in range(spec.count)]
    return {"expr": spec.expr, "dice": dice, "sides": spec.sides, "mod": spec.mod,
            "total": sum(dice) + spec.mod, "rerolled": []}


def reroll(record: dict[str, Any], positions: list[int], rng: Callable[[int], Rng]) -> dict[str, Any]:
    """A new record with the dice at 0-based ``positions`` rolled again, each die ``p`` from the
    generator ``rng(p)`` (engine/common.py: each die's own, or one for all in a line stored before).

    Raises IllegalMove for a position outside the roll or given twice.
    """
    n = len(record["dice"])
    if not positions or len(set(positions)) != len(positions) or any(not 0 <= p < n for p in positions):
        raise IllegalMove(Msg("Choose distinct dice between 1 and {} to re-roll.", n))
    dice = list(record["dice"])
    for p in sorted(positions):
        dice[p] = rng(p).die(record["sides"])
    return {**record, "dice": dice, "total": sum(dice) + record["mod"],
            "rerolled": sorted(set(record["rerolled"]) | {p + 1 for p in positions}),
            "previous": list(record["dice"])}


def describe(record: dict[str, Any], positions: list[int] | None = None) -> Msg:
    """A log sentence for a roll record; for a re-roll, ``positions`` (1-based) are the dice
    re-rolled by this step (default: every die re-rolled so far)."""
    faces = Msg.join(record["dice"])
    if "previous" in record:
        chosen = positions if positions is not None else record["rerolled"]
        return Msg("Re-rolled die {} of {}: {} = {}.", Msg.join(chosen), record["expr"], faces, record["total"],
                   n=len(chosen), plural="Re-rolled dice {} of {}: {} = {}.")
    return Msg("Rolled {}: {} = {}.", record["expr"], faces, record["total"])


ROLLED = "Rolled {}: {} = {}."                 # (:func:`describe`'s sentence of a roll)


def roll_asked(sentence: Any) -> Msg | None:
    """Hold B's question about a roll (in any game: ``roll`` is every session's): the roll and its
    total. The step's sentence with every face took a row per five dice or so — «Take back: Rolled
    30d6: 1, 2, 4, … = 109.» 6 rows, 100 dice 28 rows (ten A); the faces are the notice's after
    yes. A roll of up to :data:`FACES_ASKED` dice is asked with its faces, in three rows (None: the
    step's own sentence), as is any other sentence."""
    if not (isinstance(sentence, Msg) and sentence.template == ROLLED and len(sentence.args) == 3):
        return None
    faces = sentence.args[1]
    dice = len(faces) if isinstance(faces, (tuple, list)) else str(faces).count(",") + 1
    return Msg("Take back: the roll {} (total {}).", sentence.args[0], sentence.args[2]) if dice > FACES_ASKED else None


FACES_ASKED = 8         # (8d20's faces and total: three rows in every language)
