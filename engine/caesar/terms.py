"""The game's words as translatable terms (:func:`engine.text.term`): provinces, token icons,
bonuses, players and Auto-Crassus's priority steps, as the rulebooks name them.

The engine never translates: these return :class:`~engine.text.Msg` values that the firmware says
in the chosen language. The fixed ones (a province, a space, an icon, a token) are made once and
shared: a Msg is never changed after it is made. Ids (``SC``, ``SC-IT``, ``sword:5/1``) stay in the protocol fields.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.caesar.board import PROVINCE_NAMES, SPACE_A, SPACE_B
from engine.caesar.tokens import TOKENS
from engine.caesar.text import N_, Msg, term

# The board data's names, marked for the catalogs (C-1); the order is the data file's.
PROVINCE_WORDS = (N_("Hispania Ulterior"), N_("Hispania Citerior"), N_("Mauretania"), N_("Sardinia"),
                  N_("Gallia"), N_("Numidia"), N_("Sicilia"), N_("Italia"), N_("Gallia Cisalpina"),
                  N_("Africa"), N_("Achaea"), N_("Macedonia"), N_("Dalmatia"), N_("Cyrenaica"),
                  N_("Creta"), N_("Aegyptus"), N_("Asia"), N_("Syria"))
assert PROVINCE_WORDS == PROVINCE_NAMES, "caesar_board.json names changed: update terms.py"
ICON_WORDS = {"sword": N_("sword"), "shield": N_("shield"), "ship": N_("ship"), "wild": N_("wild"),
              "shield+ship": N_("shield or ship")}
BONUS_WORDS = {"senate": N_("Senate"), "wealth": N_("Wealth"), "tactics": N_("Tactics"), "might": N_("Might"),
               "poison": N_("Poison"), "centurion": N_("Centurion")}
STEP_WORDS = {"capture": N_("Capture"), "close": N_("Close"), "defend": N_("Defend"),
              "reinforce": N_("Reinforce"), "expand": N_("Expand"), "center": N_("Centre"),
              "anywhere": N_("Anywhere")}
# Auto-Crassus's placement priority as the rulebooks name it: a numbered point of their list
# (RU «Приоритет размещения жетонов влияния авто-Красса», UA «Вибір розміщення Авто-Красса»),
# then our one-word name of the point. The digest's IDs (S-9..S-15) are not rulebook words.
POINT_WORDS = {"capture": N_("1st point of the priority list (capture)"),
               "close": N_("2nd point of the priority list (close)"),
               "defend": N_("3rd point of the priority list (defend)"),
               "reinforce": N_("4th point of the priority list (reinforce)"),
               "expand": N_("5th point of the priority list (expand)"),
               "center": N_("6th point of the priority list (centre)"),
               "anywhere": N_("7th point of the priority list (any province)")}
# A bonus Auto-Crassus gains and the game removes (S-8), and a bonus you discard (C-11): whole
# sentences per bonus, so that the verb agrees with the bonus's name in every language.
REMOVED_WORDS = {"might": N_("Might is removed from the game."), "wealth": N_("Wealth is removed from the game."),
                 "tactics": N_("Tactics is removed from the game."),
                 "centurion": N_("Centurion is removed from the game.")}
REMOVED_HARDER_WORDS = {
    "might": N_("Might is removed from the game with one of his control markers."),
    "wealth": N_("Wealth is removed from the game with one of his control markers."),
    "tactics": N_("Tactics is removed from the game with one of his control markers."),
    "centurion": N_("Centurion is removed from the game with one of his control markers.")}
REMOVED_LOG_WORDS = {"might": N_("Might removed"), "wealth": N_("Wealth removed"), "tactics": N_("Tactics removed"),
                     "centurion": N_("Centurion removed")}
REMOVED_HARDER_LOG_WORDS = {"might": N_("Might removed with a control marker"),
                            "wealth": N_("Wealth removed with a control marker"),
                            "tactics": N_("Tactics removed with a control marker"),
                            "centurion": N_("Centurion removed with a control marker")}
DISCARDED_WORDS = {"might": N_("Might discarded"), "centurion": N_("Centurion discarded")}
# The rules editions (engine/caesar/editions.py), for the new-game form and History: the long
# name, and the short value of a form row whose label is "Rulebook".
EDITION_WORDS = {"ru": N_("Russian rulebook"), "uk": N_("Ukrainian rulebook"),
                 # the rules played before editions: the Russian rulebook's but for S-11 (defend)
                 "mixed": N_("Russian rulebook; Crassus defends as in the Ukrainian")}
EDITION_SHORT = {"ru": N_("Russian"), "uk": N_("Ukrainian"), "mixed": N_("mixed")}
EDITION_LABEL = N_("Rulebook")
PLAYER_WORDS = {"human": N_("You"), "crassus": N_("Crassus"), "caesar": N_("Caesar"), "pompey": N_("Pompey"),
                "none": N_("nobody")}


@lru_cache(maxsize=None)
def province(x: int) -> Msg:
    """Province ``x``'s name (``Sicilia``, in Russian ``Сицилия``)."""
    return term(PROVINCE_NAMES[x])


@lru_cache(maxsize=None)
def space(s: int) -> Msg:
    """Space ``s`` as its two provinces: ``Sicilia–Italia``."""
    return Msg("{}–{}", province(SPACE_A[s]), province(SPACE_B[s]))


@lru_cache(maxsize=None)
def icon(name: str) -> Msg:
    return term(ICON_WORDS[name])


@lru_cache(maxsize=None)
def token(tid: int) -> Msg:
    """``sword 5/1`` with the icon's word translated."""
    t = TOKENS[tid]
    return Msg("{} {}/{}", icon(t.icon), t.hi, t.lo)


def token_named(name: str) -> Msg:
    """:func:`token` for a canonical name ``icon:a/b``."""
    ic, nums = name.split(":")
    hi, lo = nums.split("/")
    return Msg("{} {}/{}", icon(ic), int(hi), int(lo))


def bonus(name: str) -> Msg:
    return term(BONUS_WORDS.get(name, name))


def step_name(step: str) -> Msg:
    return term(STEP_WORDS[step])


@lru_cache(maxsize=None)
def point(step: str) -> Msg:
    """The rulebook's point of the priority list: ``3rd point of the priority list (defend)``."""
    return term(POINT_WORDS[step])


def edition_name(edition: str) -> Msg:
    """``Russian rulebook`` / ``Ukrainian rulebook`` / ``Russian rulebook; Crassus defends as in the
    Ukrainian`` (``mixed``: what the program played before editions, docs/protocol/caesar.md)."""
    return term(EDITION_WORDS[edition])


def player(name: str) -> Msg:
    """``human`` -> You, ``crassus`` -> Crassus, ``caesar`` -> Caesar..."""
    return term(PLAYER_WORDS.get(name, name))


def either(words: list[str]) -> Msg | str:
    """``a, b or c`` with a translatable "or" (the words are console values, kept as they are)."""
    if len(words) < 2:
        return words[0] if words else ""
    return Msg("{} or {}", ", ".join(words[:-1]), words[-1])



class TileLetter(Msg):
    """A command tile's letter, or several (a stack: ``AAABBC``), said as the player's rulebook
    prints them (Russian: А Б В Г Д; the catalogs translate the five letters ``ABCDE`` at once),
    also when read back from stored data (``kind``)."""

    kind = "tile"

    def __new__(cls, letter: str) -> TileLetter:
        self = super().__new__(cls, letter)
        assert isinstance(self, TileLetter)
        return self

    def say(self, gettext: Any, ngettext: Any) -> str:
        letters = gettext("ABCDE")
        if len(letters) != 5 or not self.template or any(c not in "ABCDE" for c in self.template):
            return str(self)
        return "".join(letters["ABCDE".index(c)] for c in self.template)


RUSSIAN_TILE_LETTERS = "АБВГД"      # S-3: the Russian rulebook's А Б В Г Д are the tiles A B C D E
# S-3: the letters printed on each edition's tiles (caesar-mori-rules-ru.txt «4×А, 2×Б»,
# caesar-mori-rules-ua.txt «4xA, 2xB»): the tiles on the table are the chosen edition's in any language.
EDITION_TILE_LETTERS = {"ru": RUSSIAN_TILE_LETTERS, "uk": "ABCDE"}


def tile_said(letters: str, edition: str) -> Msg | str:
    """Tile letters (``C``, or a stack ``AAABBC``) as the chosen edition's tiles print them, in any
    language (``ru``: ``В``; ``uk``: ``C``); the ``mixed`` rules name no box: the language's
    letters (:class:`TileLetter`)."""
    printed = EDITION_TILE_LETTERS.get(edition)
    if printed is None:
        return TileLetter(letters)
    return "".join(printed["ABCDE".index(c)] if c in "ABCDE" else c for c in letters)


def tile_letter(text: str) -> str:
    """The tile a player names (``crassus tile=``): a Latin letter A-E, or the Russian
    rulebook's letter as printed on the tile (``В`` is tile C); anything else as it was given
    (upper case)."""
    letter = text.strip().upper()
    i = RUSSIAN_TILE_LETTERS.find(letter) if len(letter) == 1 else -1
    return "ABCDE"[i] if i >= 0 else letter
