"""Dice & bags: the preset bags and decks a person starts with one key (their contents in the
language spoken when they are made) and the common names offered for your own bag's items."""
from __future__ import annotations

from collections.abc import Callable

from engine import actions as act
from engine.text import N_
from firmware.i18n import _

Pairs = list[tuple[str, int]]


def _metals() -> Pairs:
    return [(_("gold"), 3), (_("silver"), 3), (_("bronze"), 3)]


def _white_black() -> Pairs:
    return [(_("white"), 5), (_("black"), 5)]


def _numbers(n: int) -> Pairs:
    return [(str(i), 1) for i in range(1, n + 1)]


def _caesar_tokens() -> Pairs:
    out = [(f"{_(icon)}{a}/{b}", 1) for icon in (N_("sword"), N_("shield"), N_("ship"))
           for a, b in ((6, 0), (5, 1), (4, 2), (3, 3))]
    wild = _("wild")
    return out + [(f"{wild}4/0", 1), (f"{wild}3/1", 1), (f"{wild}2/2", 2)]


def _playing_cards() -> Pairs:
    #. note: the card ranks ace, jack, queen, king, comma-separated
    ranks = _("A,J,Q,K").split(",")
    ace, face = ranks[0], ranks[1:4]
    names = [ace] + [str(i) for i in range(2, 11)] + face
    return [(f"{r}{s}", 1) for s in "♠♥♦♣" for r in names]


# label, "items" (a bag) or "cards" (a deck), contents in the current language
PRESETS: tuple[tuple[str, act.BagKind, Callable[[], Pairs]], ...] = (
    (N_("Gold, silver, bronze"), "items", _metals),
    (N_("5 white, 5 black"), "items", _white_black),
    (N_("Numbers 1 to 12"), "items", lambda: _numbers(12)),
    (N_("Caesar! tokens"), "items", _caesar_tokens),
    (N_("Playing cards"), "cards", _playing_cards),
    (N_("Cards 1 to 20"), "cards", lambda: _numbers(20)),
)


COMMON_NAMES = (N_("gold"), N_("silver"), N_("bronze"), N_("white"), N_("black"), N_("red"),
                N_("blue"), N_("green"), N_("yellow"), N_("cube"), N_("disc"), N_("coin"),
                N_("token"), N_("blank"))
