"""Names people type (bag and deck items, player names): which characters are allowed.

The device's font (Terminus, in every size the screens use) draws the Latin letters with their
accented forms (Latin-1 and Latin Extended-A: Zoë, Jürgen, Łukasz, Åsa), the Greek alphabet, the
Cyrillic of U+0400–U+045F (Russian and Ukrainian, and Belarusian ў, Serbian ђ …), digits and some
punctuation; a name with any other character is refused when it is given (at ``new``), with a
message that names the character, rather than accepted and drawn as a replacement glyph later.
The rule is a plain character set so the engine stays pure; tests check that the font draws every
character of it (tests/test_kit.py).
"""
from __future__ import annotations

from collections.abc import Sequence

from engine.errors import BadArguments
from engine.text import Msg

LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
CYRILLIC = ("АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
            "ҐЄІЇґєії")
DIGITS = "0123456789"
APOSTROPHES = "'’ʼ"            # ASCII, typographic and the Ukrainian modifier-letter apostrophe
PUNCTUATION = " -._"
SUITS = "♠♥♦♣"            # playing cards (the "Playing cards" preset)
# Accepted before the character rule existed: kept so that journals written then still replay
# (the "Caesar! tokens" preset names items like sword6/0).
LEGACY = "/:+"
# the other letters of those blocks that every size of the font draws (accented Latin, Greek with its
# tonos, the rest of basic Cyrillic): a player named Zoë or Łukasz was refused as undrawable
MORE_LETTERS = "".join(ch for first, end in ((0xC0, 0x180), (0x386, 0x3CF), (0x400, 0x460))
                       for ch in map(chr, range(first, end)) if ch.isalpha())     # Unicode's L* categories
NAME_CHARS = frozenset(LATIN + CYRILLIC + MORE_LETTERS + DIGITS + APOSTROPHES + PUNCTUATION + SUITS + LEGACY)


def bad_chars(name: str) -> list[str]:
    """The characters of ``name`` outside :data:`NAME_CHARS`, in order of first appearance."""
    out: list[str] = []
    for ch in name:
        if ch not in NAME_CHARS and ch not in out:
            out.append(ch)
    return out


def check_name(name: str, max_len: int = 24, spaces: bool = True) -> str:
    """``name`` if it is 1..``max_len`` allowed characters and not only spaces; else raises
    BadArguments naming the problem (nothing is changed by the caller). ``spaces=False`` for
    names given inside a request line's option, where a space would end the word."""
    if not name.strip():
        raise BadArguments(Msg("A name cannot be empty."))
    if not spaces and " " in name:
        raise BadArguments(Msg("'{}': no spaces in a name here; use - instead.", name))
    if len(name) > max_len:
        raise BadArguments(Msg("'{}' is too long: at most {} characters.", name[:max_len] + "…", max_len))
    bad = bad_chars(name)
    if bad:
        # the refused characters by code point: the message itself must be drawable
        shown = " ".join(f"U+{ord(ch):04X}" for ch in bad)
        safe = "".join("?" if ch in bad else ch for ch in name)
        raise BadArguments(Msg("'{}' has characters the screen cannot show ({}); use letters "
                               "(Latin, Greek or Cyrillic), digits, spaces and - ' . _", safe, shown))
    return name


_SAME_LETTER = str.maketrans({"ё": "е", "’": "'", "ʼ": "'"})


def _folded(name: str) -> str:
    return name.casefold().translate(_SAME_LETTER)


def folded(name: str) -> str:
    """``name`` as :func:`named` compares it: casefolded, е for ё, one apostrophe for all three."""
    return _folded(name)


def named(names: Sequence[str], raw: str) -> str | None:
    """The one of ``names`` that ``raw`` names: in any letter case, with е for ё (Russian writes
    «Семен» for «Семён», «Алена» for «Алёна»: the keyboard has ё far in a corner, and most people
    never type it) and any of the apostrophes (:data:`APOSTROPHES`: Ukrainian «Мар'яна» is typed
    with ' on a laptop, ’ on a phone, ʼ where the layout has it); a name typed exactly (in any
    case) wins over one that differs by those alone, and one ``raw`` would name twice that way is
    none. None if no name is meant."""
    key = raw.casefold()
    for name in names:
        if name.casefold() == key:
            return name
    folded = [name for name in names if _folded(name) == _folded(raw)]
    return folded[0] if len(folded) == 1 else None

