"""Console words typed partly in Cyrillic letters that look Latin.

A player at a laptop with a Ukrainian or Russian layout types ``с_leg10`` (the key C gives «с»),
``сaesar``, ``Rоma``, ``rating=С3``: on screen it reads as the right word, and a bare "not a block
id" leaves them staring at it. Each parser of Julius Caesar's console words asks :func:`hint`
before its own refusal: when the word spelled with the Latin lookalikes is one it would take, the
refusal says which letters are Cyrillic and what to type. Nothing is guessed into the game: the
request is refused (bad_arguments), and changes nothing.
"""
from __future__ import annotations

from collections.abc import Callable

from engine.errors import BadArguments
from engine.jc.text import Msg

# Cyrillic letters (Ukrainian and Russian layouts) drawn like a Latin one
_LOOKALIKE = str.maketrans({
    "а": "a", "А": "A", "В": "B", "с": "c", "С": "C", "е": "e", "Е": "E", "Н": "H", "і": "i",
    "І": "I", "ј": "j", "Ј": "J", "К": "K", "к": "k", "М": "M", "о": "o", "О": "O", "р": "p",
    "Р": "P", "ѕ": "s", "Ѕ": "S", "Т": "T", "у": "y", "У": "Y", "х": "x", "Х": "X",
})


def latin(word: str) -> str | None:
    """``word`` with its Cyrillic lookalikes made Latin, or None when it has none (or has other
    Cyrillic letters, which no Latin word is)."""
    fixed = word.translate(_LOOKALIKE)
    return fixed if fixed != word and fixed.isascii() else None


def hint(word: str, takes: Callable[[str], bool]) -> None:
    """Refuse ``word`` with the Latin spelling when that spelling is one ``takes`` accepts."""
    fixed = latin(word)
    if fixed is None or not takes(fixed):
        return
    cyrillic = "".join(dict.fromkeys(ch for ch in word if not ch.isascii()))
    raise BadArguments(Msg("'{}' is typed partly in Cyrillic ({}); the console takes Latin letters: "
                           "did you mean {}?", word, cyrillic, fixed))
