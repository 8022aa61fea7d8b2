"""The sentences of The Sword of Rome: made here, they are said in the words of its own catalog
(``firmware/locale/<lang>/LC_MESSAGES/sword.po``) wherever they are shown, and stored with that
domain. The game's modules import ``Msg``, ``term`` and ``N_`` from here (engine/text.py)."""
from __future__ import annotations

from engine import text
from engine.text import N_


class Msg(text.Msg):
    """A sentence of The Sword of Rome (domain ``sword``)."""

    domain = "sword"


def term(word: str) -> Msg:
    """A term of The Sword of Rome that the catalogs translate, in its own words."""
    return Msg(word)


# The consuls of the default cup (engine/data/sword_tables.json), named in the player's language as
# the rulebook names them (seed 7.3: «Валерия», «Каммилу»); a name the players give is kept as given.
CONSUL_NAMES = frozenset({N_("Valerius"), N_("Camillus"), N_("Papirius"), N_("Fabius"), N_("Decius"), N_("Manlius")})


def consul_named(name: str) -> str:
    """A consul's name as a person reads it: a default consul's in the catalog's words (W-10)."""
    return term(name) if name in CONSUL_NAMES else name


# The sentences these replaced, kept in the catalogs: logs stored before still say them
# (scripts/i18n.py extracts them from here).
STORED_BEFORE = (N_("{} plays a Desperate Times card (W-12){}"), N_("; {} keep theirs."),
                 N_("Turn {} is over: {} wins on VP (ties by W-11 order)."),
                 N_("Gallic"),          # the Gallic events roll, «Gallic roll: 4+6 = 10.» (W-9)
                 N_("the defender gets -1 in the battle (W-1)"),    # a failed avoid in a log, before the minus sign
                 # an undo of retreat losses (W-5), before it said how many units and support points
                 N_("Undone: retreat losses {}. Put those units back on the map and take back the support they added."),
                 N_("Undone: retreat losses {}; they are {} again, support +{}. Set the units and the support on the "
                    "map to match."),
                 # the undo of a Desperate Times card (W-12), a draw of the consuls (W-10) and a roll (W-8,
                 # W-9), before they were said in two or three pages
                 N_("Undone: {} Give the card back to that power and take back on the map the action it gave."),
                 N_("Undone: {} Give those cards back and take back on the map the actions they gave."),
                 N_("Undone: {} Put those consuls back into the cup and the consuls before them back where they "
                    "stood."),
                 N_("Undone: {} If you already acted on its result, take that back on the map."),
                 N_("Undone: {} Move the unrest marker back to {}."))     # Carthage's unrest (W-13), four pages in uk

__all__ = ["CONSUL_NAMES", "N_", "STORED_BEFORE", "Msg", "consul_named", "term"]
