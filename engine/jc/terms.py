"""Julius Caesar's words as translatable terms: the two sides, the block names and the battle
results, as the Russian rules summary names them (the catalogs are the ``jc`` domain).

The engine never translates: these return :class:`~engine.text.Msg` values that the firmware says
in the chosen language. Ids (``c_leg10``, ``attacker_wins``) stay in the protocol fields.
"""
from __future__ import annotations

import re

from engine.jc.text import N_, Msg, term

SIDE_WORDS = {"caesar": N_("Caesar"), "pompey": N_("Pompey")}
# Block names printed on the roster's blocks: numbered types and the single blocks (J-1, J-2).
NUMBERED = {"Legio": N_("Legio {}"), "Equitatus": N_("Equitatus {}"), "Auxilia": N_("Auxilia {}"),
            "Navis": N_("Navis {}")}
SINGLE = (N_("Caesar"), N_("Antonius"), N_("Octavian"), N_("Pompeius (Pompey)"), N_("Brutus"),
          N_("Scipio"), N_("Cleopatra"), N_("Elephant"), N_("Ballista"))
RESULT_WORDS = {"attacker_wins": N_("the attacker wins"),
                "attacker_eliminated": N_("the attacker is destroyed"),
                "defender_holds": N_("the defender holds")}
# A sentence that names a side is one sentence per side: Russian and Ukrainian decline the side's
# name («переходит на сторону Цезаря», «передайте устройство Помпею»), which a name put in as a
# value ({}) cannot do. Shared by the console and the screens.
NOW_FIGHTS = {"caesar": N_("{} now fights for Caesar."), "pompey": N_("{} now fights for Pompey.")}
# The sentences these replaced, kept in the catalogs: battles, verdicts and journals stored before
# still say them (scripts/i18n.py extracts them from here).
STORED_BEFORE = (N_("Cleopatra joins {} at strength I."), N_("{} reserves arrive: {}."),
                 N_("{}'s main force fell in round 1: its reserves arrive disrupted, one step each ({})."),
                 N_("{} has {} VP (10 or more)."), N_("After year 5 {} has more VP ({} to {})."),
                 N_("VP tied at {} after year 5; {} holds Rome."),
                 N_("Cleopatra returns to Alexandria, held by {0}, and joins {0}."),
                 N_("Cleopatra returns to Alexandria (vacant; she now holds it) and stays with {}."),
                 N_("Cleopatra returns to Alexandria (friendly) and stays with {}."),
                 N_("{} now fights for {}."), N_("{} is now held by {}."),
                 N_("Campaign over: {} wins, {}–{} VP."))
_NUMBERED = re.compile(r"^(Legio|Equitatus|Auxilia|Navis) (\d+)$")
# A block added by its rating without a name: its key (``blk1``, engine/jc/console.py) stays in
# the protocol's fields; a person reads the summary's «блок» and its number.
_AUTO = re.compile(r"^blk(\d+)$")
AUTO_NAMED = N_("Block {}")


def side(s: str) -> Msg | str:
    """``caesar`` -> Caesar (Цезарь); anything else unchanged."""
    return term(SIDE_WORDS[s]) if s in SIDE_WORDS else s


def block_name(name: str) -> Msg | str:
    """A roster block's name as a term (``Legio 10`` -> Легион 10); a name a player gave to a
    block known by its rating stays as it is."""
    m = _NUMBERED.match(name)
    if m:
        return Msg(NUMBERED[m.group(1)], m.group(2))
    auto = _AUTO.match(name)
    if auto:
        return Msg(AUTO_NAMED, int(auto.group(1)))
    return term(name) if name in SINGLE else name


def result(r: str | None) -> Msg | str:
    return term(RESULT_WORDS[r]) if r in RESULT_WORDS else (r or "")
