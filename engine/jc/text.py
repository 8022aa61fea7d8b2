"""The sentences of Julius Caesar: made here, they are said in the words of its own catalog
(``firmware/locale/<lang>/LC_MESSAGES/jc.po``) wherever they are shown, and stored with that
domain. The game's modules import ``Msg``, ``term`` and ``N_`` from here (engine/text.py)."""
from __future__ import annotations

from engine import text
from engine.text import N_


class Msg(text.Msg):
    """A sentence of Julius Caesar (domain ``jc``)."""

    domain = "jc"


def term(word: str) -> Msg:
    """A term of Julius Caesar that the catalogs translate, in its own words."""
    return Msg(word)


__all__ = ["N_", "Msg", "term"]
