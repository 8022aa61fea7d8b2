"""Julius Caesar's words as translatable terms: the two sides, the block names and the battle
results, as the Russian rules summary names them (the catalogs are the ``jc`` domain).

The engine never translates: these return :class:`~engine.text.Msg` values that the firmware says
in the chosen language. Ids (``c_leg10``, ``attacker_wins``) stay in the protocol fields.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from engine.jc.text import N_, Msg, term

SIDE_WORDS = {"caesar": N_("Caesar"), "pompey": N_("Pompey")}
# Block names printed on the roster's blocks: numbered types and the single blocks (J-1, J-2).
NUMBERED = {"Legio": N_("Legio {}"), "Equitatus": N_("Equitatus {}"), "Auxilia": N_("Auxilia {}"),
            "Navis": N_("Navis {}")}
SINGLE = (N_("Caesar"), N_("Antonius"), N_("Octavian"), N_("Pompeius (Pompey)"), N_("Brutus"),
          N_("Scipio"), N_("Cleopatra"), N_("Elephant"), N_("Ballista"))
# A single block as its block reads: the roster's name explains Pompeius as "(Pompey)", which glued
# brackets to the brackets of a sentence ("Pompeius (Pompey) (B3, III) joins …"); the roster's
# name stays in the catalogs for sentences stored before.
SHOWN = {"Pompeius (Pompey)": N_("Pompeius")}
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
                 N_("Campaign over: {} wins, {}–{} VP."),
                 N_("Caesar has {} VP (10 or more)."), N_("Pompey has {} VP (10 or more)."),
                 N_("After year 5 Caesar has more VP ({} to {})."), N_("After year 5 Pompey has more VP ({} to {})."),
                 N_("VP tied at {} after year 5; Caesar holds Rome."), N_("VP tied at {} after year 5; Pompey holds Rome."),
                 N_("Shuffled the 27 cards and dealt 6 to each player ({})."),
                 N_("Cleopatra joins Caesar at strength I."), N_("Cleopatra joins Pompey at strength I."),
                 N_("{}: joins Caesar"), N_("{}: joins Pompey"), N_("{}: joins {}"))
# A block that went over to the other side (a Jupiter defection) is named with its first owner's
# initial: the sides' Auxilia 1-4, Equitatus 1-3 and Ballista share their names (and often their
# ratings), and the table still shows it in its first owner's colour. Shared by the screens' lists
# and the battle log.
FIRST_OWNER = {"caesar": N_("{} (C)"), "pompey": N_("{} (P)")}
# In a sentence the first owner is said in words ("Pompey's Auxilia 1 (B1, IV) joins …"): the
# initial's brackets glued to the sentence's own ("Auxilia 1 (P) (B1, IV)") or sat inside them.
SAID_OWNER = {"caesar": N_("Caesar's {}"), "pompey": N_("Pompey's {}")}
_PREFIX = {"c_": "caesar", "p_": "pompey"}
# The other cities of the map (J-20: a block's levy city may be any of them), in the reader's words
# as the 11 VP cities are (firmware/screens/jc/words.py CITY_WORDS, the same domain).
MAP_CITIES = (N_("Aenos"), N_("Aleria"), N_("Ambracia"), N_("Ancyra"), N_("Appia"), N_("Aquileia"),
              N_("Asculum"), N_("Asturica"), N_("Badias"), N_("Bilbilis"), N_("Brundisium"),
              N_("Burdigala"), N_("Caralis"), N_("Catabathmus"), N_("Cenabum"), N_("Corduba"),
              N_("Creta"), N_("Cyrene"), N_("Damascus"), N_("Dyrrachium"), N_("Emerita"), N_("Eusebia"),
              N_("Gades"), N_("Genua"), N_("Iomnium"), N_("Jerusalem"), N_("Lilybaeum"), N_("Lugdunum"),
              N_("Memphis"), N_("Messana"), N_("Narbo"), N_("Neapolis"), N_("Nicomedia"), N_("Olisipo"),
              N_("Pelusium"), N_("Perga"), N_("Pergamum"), N_("Portus"), N_("Pylos"), N_("Ravenna"),
              N_("Rhegium"), N_("Sala"), N_("Salamis"), N_("Salona"), N_("Serdica"), N_("Siga"),
              N_("Sinope"), N_("Sipontum"), N_("Sirmium"), N_("Tacape"), N_("Tarsus"), N_("Thessalonica"),
              N_("Thubactus"), N_("Tingis"), N_("Toletum"), N_("Treviri"))
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
    return term(SHOWN.get(name, name)) if name in SINGLE else name


def first_owner(block_id: object) -> str | None:
    """The side a roster block belongs to by its id (``p_aux1`` -> ``pompey``); ``None`` for a
    block known by its rating or one of no side (Cleopatra)."""
    return _PREFIX.get(str(block_id or "")[:2])


def owned_block_name(b: Mapping[str, object]) -> Msg | str:
    """:func:`block_name` of a battle block (``id``, ``name``, ``side``), with its first owner's
    initial when it fights for the other side (``Auxilia 1 (P)`` among Caesar's blocks)."""
    first = first_owner(b.get("id"))
    name = block_name(str(b["name"]))
    return Msg(FIRST_OWNER[first], name) if first and first != b.get("side") else name


def said_block_name(b: Mapping[str, object]) -> Msg | str:
    """:func:`owned_block_name` as a sentence says it: the first owner in words, not an initial in
    brackets (``Pompey's Auxilia 1``)."""
    first = first_owner(b.get("id"))
    name = block_name(str(b["name"]))
    return Msg(SAID_OWNER[first], name) if first and first != b.get("side") else name


def city(name: str) -> Msg:
    """A city of the map (its id, ``Neapolis``) as a term: said in the reader's words."""
    return term(name)


def result(r: str | None) -> Msg | str:
    return term(RESULT_WORDS[r]) if r in RESULT_WORDS else (r or "")
