"""The sentences of For the Glory of Rome: made here, they are said in the words of its own catalog
(``firmware/locale/<lang>/LC_MESSAGES/glory.po``) wherever they are shown, and stored with that
domain. The game's modules import ``Msg``, ``term`` and ``N_`` from here (engine/text.py)."""
from __future__ import annotations

from engine import text
from engine.text import N_


class Msg(text.Msg):
    """A sentence of For the Glory of Rome (domain ``glory``)."""

    domain = "glory"


def term(word: str) -> Msg:
    """A term of For the Glory of Rome that the catalogs translate, in its own words."""
    return Msg(word)


# Each medal as the rulebook names it by its holder («Медаль воина», «Медаль священнослужителя»):
# a whole term, said inside sentences (never «Медаль «воин»»).
MEDAL_TERMS = {"warrior": N_("the Warrior medal"), "politician": N_("the Politician medal"),
               "merchant": N_("the Merchant medal"), "priest": N_("the Priest medal"),
               "farmer": N_("the Farmer medal")}


def medal_term(medal: str) -> Msg:
    """The medal ``medal`` (``warrior`` …) as a term said inside a sentence."""
    return Msg(MEDAL_TERMS.get(medal, medal))


__all__ = ["MEDAL_TERMS", "N_", "Msg", "medal_term", "term"]
