"""Hidden-draw bags and decks of named items, as plain data.

A bag is ``{"contents": {name: count}, "drawn": [names in draw order], "history": [events]}``.
A deck is ``{"draw": [names, top first], "discard": [...], "hand": [...], "history": [...]}``.
Both hide their order from view; only counts and what was drawn are shown.
"""
from __future__ import annotations

from typing import Any

from engine.errors import BadArguments, IllegalMove
from engine.names import check_name
from engine.rng import Rng
from engine.text import Msg

MAX_ITEMS = 500
MAX_NAME = 24


def parse_items(text: str) -> dict[str, int]:
    """Parse ``gold*3,silver*2,bronze`` into counts; raises BadArguments on bad names or counts.

    Names: 1-24 characters of :data:`engine.names.NAME_CHARS` (no spaces: words on a request line
    are separated by spaces)."""
    counts: dict[str, int] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise BadArguments(Msg("Empty item in the list; write e.g. items=gold*3,silver*2,bronze."))
        name, _, num = part.partition("*")
        check_name(name, MAX_NAME, spaces=False)
        try:
            n = int(num) if num else 1
        except ValueError:
            raise BadArguments(Msg("'{}': the count after * must be a whole number.", part)) from None
        if n < 1:
            raise BadArguments(Msg("'{}': the count must be at least 1.", part))
        counts[name] = counts.get(name, 0) + n
    if sum(counts.values()) > MAX_ITEMS:
        raise BadArguments(Msg("At most {} items in all.", MAX_ITEMS))
    return counts


def new_bag(counts: dict[str, int]) -> dict[str, Any]:
    return {"contents": dict(counts), "drawn": [], "history": []}


def bag_size(bag: dict[str, Any]) -> int:
    return sum(bag["contents"].values())


def draw_from_bag(bag: dict[str, Any], n: int, rng: Rng) -> list[str]:
    """Draw ``n`` items without replacement (each item equally likely); raises IllegalMove if fewer."""
    left = bag_size(bag)
    if n < 1:
        raise BadArguments(Msg("Draw at least 1 item."))
    if n > left:
        raise IllegalMove(Msg("The bag holds {n} item; cannot draw {want}.", n=left, want=n,
                              plural="The bag holds {n} items; cannot draw {want}."))
    out: list[str] = []
    for _ in range(n):
        k = rng.below(bag_size(bag))
        for name in sorted(bag["contents"]):
            c = bag["contents"][name]
            if k < c:
                bag["contents"][name] = c - 1
                out.append(name)
                break
            k -= c
    bag["drawn"].extend(out)
    bag["history"].append({"draw": out})
    return out


def put_back(bag: dict[str, Any], name: str) -> None:
    """Return one earlier-drawn ``name`` to the bag; raises IllegalMove if none is out."""
    if name not in bag["drawn"]:
        out = sorted(set(bag["drawn"]))
        if not out:
            raise IllegalMove(Msg("No '{}' has been drawn from this bag (none is out).", name))
        raise IllegalMove(Msg("No '{}' has been drawn from this bag (out: {}).", name, Msg.join(out)))
    bag["drawn"].reverse()
    bag["drawn"].remove(name)
    bag["drawn"].reverse()
    bag["contents"][name] = bag["contents"].get(name, 0) + 1
    bag["history"].append({"put": name})


def new_deck(counts: dict[str, int], rng: Rng) -> dict[str, Any]:
    cards = [name for name in counts for _ in range(counts[name])]
    rng.shuffle(cards)
    return {"draw": cards, "discard": [], "hand": [], "history": [{"shuffle": len(cards)}]}


def deck_draw(deck: dict[str, Any], n: int) -> list[str]:
    """Take ``n`` cards from the top into the hand; raises IllegalMove if fewer remain."""
    if n < 1:
        raise BadArguments(Msg("Draw at least 1 card."))
    if n > len(deck["draw"]):
        raise IllegalMove(Msg("The deck holds {n} card; cannot draw {want}. Reshuffle the discards first.",
                              n=len(deck["draw"]), want=n,
                              plural="The deck holds {n} cards; cannot draw {want}. Reshuffle the discards first."))
    out: list[str] = deck["draw"][:n]
    del deck["draw"][:n]
    deck["hand"].extend(out)
    deck["history"].append({"draw": out})
    return out


def deck_discard(deck: dict[str, Any], name: str) -> None:
    """Move one ``name`` from the hand to the discard pile; raises IllegalMove if not in hand."""
    if name not in deck["hand"]:
        if not deck["hand"]:
            raise IllegalMove(Msg("'{}' is not in the hand (the hand is empty).", name))
        raise IllegalMove(Msg("'{}' is not in the hand (hand: {}).", name, Msg.join(deck["hand"])))
    deck["hand"].remove(name)
    deck["discard"].append(name)
    deck["history"].append({"discard": name})


def deck_shuffle(deck: dict[str, Any], rng: Rng, with_discards: bool) -> None:
    """Shuffle the draw pile; with ``with_discards`` first put the discard pile back in."""
    if with_discards:
        deck["draw"].extend(deck["discard"])
        deck["discard"].clear()
    rng.shuffle(deck["draw"])
    deck["history"].append({"reshuffle" if with_discards else "shuffle": len(deck["draw"])})
