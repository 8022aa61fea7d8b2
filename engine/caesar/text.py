"""The sentences of Caesar!: made here, they are said in the words of its own catalog
(``firmware/locale/<lang>/LC_MESSAGES/caesar.po``) wherever they are shown, and stored with that
domain. The game's modules import ``Msg``, ``term`` and ``N_`` from here (engine/text.py)."""
from __future__ import annotations

from engine import text
from engine.text import N_


class Msg(text.Msg):
    """A sentence of Caesar! (domain ``caesar``)."""

    domain = "caesar"


def term(word: str) -> Msg:
    """A term of Caesar! that the catalogs translate, in its own words."""
    return Msg(word)


__all__ = ["N_", "Msg", "term"]
