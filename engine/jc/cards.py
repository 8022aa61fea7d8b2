"""The card phase (J-18): 27 cards shuffled and dealt each year, one discard, five turns.

Cards are named ``<move>/<levy>`` (command cards, e.g. ``3/2``) or by their god (events:
``apollo``, ``jupiter``, ``mars``, ``mercury``, ``neptune``, ``pluto``, ``vulcan``). Data:
``engine/data/julius_caesar_cards.json``. The phase is plain data::

    {"turn": 1, "hands": {"caesar": [...], "pompey": [...]}, "discarded": {side: card|None},
     "played": {side: card|None}, "prior": {side: card|None}, "reveals": [...]}
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine import text
from engine.datafile import read_json
from engine.errors import BadArguments, IllegalMove
from engine.jc.latin import hint as latin_hint
from engine.jc.roster import SIDES
from engine.jc.terms import side as side_word
from engine.jc.views import CardsView
from engine.rng import Rng
from engine.jc.text import N_, Msg, term

Phase = dict[str, Any]
HAND = 6
TURNS = 5
APOLLO = "apollo"


@lru_cache(maxsize=1)
def deck() -> tuple[str, ...]:
    """All 27 cards, command cards first (``move/levy``), then the seven events."""
    raw = read_json("julius_caesar_cards.json")
    cards = [f"{c['move']}/{c['levy']}" for c in raw["command"] for _ in range(c["count"])]
    cards += [e.lower() for e in raw["event"]]
    return tuple(cards)


def is_event(card: str) -> bool:
    return "/" not in card


def move_value(card: str) -> int:
    """Moves on a command card (events have none: 0)."""
    return 0 if is_event(card) else int(card.split("/")[0])


EVENT_WORDS = (N_("Apollo"), N_("Jupiter"), N_("Mars"), N_("Mercury"), N_("Neptune"), N_("Pluto"),
               N_("Vulcan"))


def describe(card: str) -> Msg:
    if is_event(card):
        return term(card.capitalize())
    move, levy = card.split("/")
    return Msg("Move {}, Levy {}", move, levy)


def new_year(rng: Rng) -> Phase:
    """Shuffle all 27 cards and deal six to each player (J-18)."""
    cards = list(deck())
    rng.note("deck")
    rng.shuffle(cards)
    rng.note("card", cards[:2 * HAND])          # the top six to Caesar, the next six to Pompey
    return {"turn": 1, "hands": {"caesar": sorted(cards[:HAND]), "pompey": sorted(cards[HAND:2 * HAND])},
            "discarded": {s: None for s in SIDES}, "played": {s: None for s in SIDES},
            "prior": {s: None for s in SIDES}, "reveals": []}


def _a_card(card: str) -> str:
    """``card`` as the deck spells it; raises when it is no card of the game (J-18: 8 move/levy
    values and 7 events), before anything else is said about playing or discarding it (a word that
    is no card was answered "discard first" or "already played this turn")."""
    want = card.strip().lower()
    if want in deck():
        return want
    latin_hint(card.strip(), lambda word: word.lower() in deck())
    cards = ", ".join(dict.fromkeys(deck()))
    if not card.isascii():      # «Марс», «Юпитер»: a card in the reader's words, not "no card" (J-18)
        raise IllegalMove(Msg("'{}': the console writes the cards in Latin letters ({}).", card, cards))
    raise IllegalMove(Msg("'{}' is not a Julius Caesar card (cards: {}).", card, cards))


def _card_in(hand: list[str], card: str) -> str:
    want = _a_card(card)
    if want in hand:
        return want
    if not hand:
        raise IllegalMove(Msg("'{}' is not in this hand (hand: empty).", card))
    raise IllegalMove(Msg("'{}' is not in this hand (hand: {}).", card, ", ".join(hand)))


def discard(phase: Phase, side: str, card: str) -> str:
    """The player's one face-down discard of the year; raises IllegalMove if already done."""
    _a_card(card)
    if phase["discarded"][side] is not None:
        raise IllegalMove(Msg("{} has already discarded this year.", side_word(side)))
    c = _card_in(phase["hands"][side], card)
    phase["hands"][side].remove(c)
    phase["discarded"][side] = c
    return c


def play(phase: Phase, side: str, card: str) -> dict[str, Any] | None:
    """Play a card face down; when both have played, reveal them and return the reveal.

    Raises IllegalMove before the discard, after the fifth turn, for a second card this turn,
    or for Apollo on the first turn of a year (it copies the opponent's previous card).
    """
    _a_card(card)
    if phase["turn"] > TURNS:
        raise IllegalMove(Msg("All five turns of this year are played: the winter comes next."))
    if phase["discarded"][side] is None:
        raise IllegalMove(Msg("{} must first discard one card face down (discard {} <card>).",
                              side_word(side), side))
    if phase["played"][side] is not None:
        raise IllegalMove(Msg("{} has already played a card this turn.", side_word(side)))
    c = _card_in(phase["hands"][side], card)
    if c == APOLLO and phase["turn"] == 1:
        raise IllegalMove(Msg("Apollo copies the card the opponent played last turn, so it cannot "
                              "be played on the first turn of a year."))
    phase["hands"][side].remove(c)
    phase["played"][side] = c
    if any(phase["played"][s] is None for s in SIDES):
        return None
    return _reveal(phase)


def _reveal(phase: Phase) -> dict[str, Any]:
    """J-18: the higher move is player 1, ties go to Caesar; an event player is player 1;
    two events cancel the turn. Apollo takes the value of the opponent's previous card."""
    played = dict(phase["played"])
    rec: dict[str, Any] = {"turn": phase["turn"], "played": played, "cancelled": False,
                           "player1": None, "effective": dict(played)}
    if all(is_event(played[s]) for s in SIDES):
        rec["cancelled"] = True
        phase["prior"] = played
    else:
        eff = {s: (phase["prior"][other] if played[s] == APOLLO else played[s])
               for s, other in (("caesar", "pompey"), ("pompey", "caesar"))}
        rec["effective"] = eff
        phase["prior"] = eff
        if is_event(eff["caesar"]):
            p1 = "caesar"
        elif is_event(eff["pompey"]):
            p1 = "pompey"
        else:
            p1 = "pompey" if move_value(eff["pompey"]) > move_value(eff["caesar"]) else "caesar"
        rec["player1"] = p1
    phase["reveals"].append(rec)
    phase["played"] = {s: None for s in SIDES}
    phase["turn"] += 1
    return rec


REVEALED = N_("Turn {}: Caesar plays {}, Pompey {}")
CANCELLED = N_("{}: two events cancel each other and the turn ends.")
FIRST = N_("{}. Player 1: {}.")
LAST = "last"
"""The reveal sentence's keyword naming the side that played last (its card made the reveal, and
an undo of that step gives back that card alone): no field of the text, so the sentence reads as
it did; a reveal stored by an older Legatus has none (:func:`revealed`)."""


def reveal_sentence(rec: dict[str, Any], last: str | None = None) -> Msg:
    """The reveal (J-18) as the log says it; ``last``: the side whose play made it (kept unsaid,
    for the undo of that play, :func:`revealed`)."""
    played = rec["played"]
    text = Msg(REVEALED, rec["turn"], describe(played["caesar"]), describe(played["pompey"]))
    hidden = {LAST: last} if last is not None else {}
    if rec["cancelled"]:
        return Msg(CANCELLED, text, **hidden)
    for s in SIDES:
        if played[s] == APOLLO:
            text = Msg("{}; Apollo copies {}", text, describe(rec["effective"][s]))
    return Msg(FIRST, text, side_word(rec["player1"]), **hidden)


def revealed(sentence: Any) -> tuple[Any, Any, Any, str | None] | None:
    """(turn, Caesar's card, Pompey's card as said, the side that played last or None) of a reveal's
    sentence (:func:`reveal_sentence`, also one read back from storage); None for any other."""
    if not isinstance(sentence, text.Msg) or sentence.domain != "jc" or sentence.template not in (FIRST, CANCELLED):
        return None
    last = sentence.kwargs.get(LAST)
    inner: Any = sentence
    for _ in range(4):                  # the reveal, Apollo's copy (once a side), then its outcome
        if not isinstance(inner, text.Msg) or not inner.args:
            return None
        if inner.template == REVEALED and len(inner.args) == 3:
            return (*inner.args, last if last in SIDES else None)
        inner = inner.args[0]
    return None


def public_view(phase: Phase | None) -> CardsView | None:
    """What both players may see: counts, who has discarded/played, the reveals."""
    if phase is None:
        return None
    return {"turn": min(phase["turn"], TURNS), "year_done": phase["turn"] > TURNS,
            "cards_in_hand": {s: len(phase["hands"][s]) for s in SIDES},
            "discarded": {s: phase["discarded"][s] is not None for s in SIDES},
            "played": {s: phase["played"][s] is not None for s in SIDES},
            "reveals": phase["reveals"]}


def parse_side(word: str) -> str:
    w = word.strip().lower()
    if w not in SIDES:
        latin_hint(word.strip(), lambda fixed: fixed.lower() in SIDES)
        raise BadArguments(Msg("'{}' is not a side: write caesar or pompey.", word))
    return w
