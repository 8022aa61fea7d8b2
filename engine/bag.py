"""Hidden-draw bags and decks of named items, as plain data.

A bag is ``{"contents": {name: count}, "drawn": [names in draw order], "history": [events],
"events": n}``; a deck is ``{"draw": [names, top first], "discard": [...], "hand": [...],
"history": [...], "events": n}``. ``history`` keeps the newest :data:`HISTORY_KEPT` events and
``events`` counts them all, so a bag's state stays the same size however long the session
(issue 20 §3); the whole history is the session's actions (``events`` in firmware/session.py).
Both hide their order from view; only counts and what was drawn are shown.

Every function that draws takes the bag's or deck's own generator (its stream, engine/rng.py);
the ones that change a bag or deck without drawing may take it too, to note the change on the draw
record (``rng.note``) so that a checker can follow the contents (docs/fairness.md).
"""
from __future__ import annotations

import re
from typing import Any

from engine.errors import BadArguments, IllegalMove
from engine.game import whole_number
from engine.names import bad_chars, check_name
from engine.rng import Rng
from engine.text import Msg

MAX_ITEMS = 500
MAX_NAME = 24
HISTORY_KEPT = 50


def parse_items(text: str, cards: bool = False, asked: bool = False) -> dict[str, int]:
    """Parse ``gold*3,silver*2,bronze`` into counts; raises BadArguments on bad names or counts
    (``cards``: the list is a deck's ``cards=``, and its refusals say so; ``asked``: a request
    asked now, its counts by the one rule for numbers, engine.game.whole_number).

    Names: 1-24 characters of :data:`engine.names.NAME_CHARS` (no spaces: words on a request line
    are separated by spaces)."""
    counts: dict[str, int] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise BadArguments(Msg("Empty card in the list; write e.g. cards=sword*2,shield,eagle.") if cards else
                               Msg("Empty item in the list; write e.g. items=gold*3,silver*2,bronze."))
        name, _, num = part.partition("*")
        if asked and not num:
            _counted_otherwise(part, cards)
        check_name(name, MAX_NAME, spaces=False)
        try:
            n = whole_number(num, asked) if num else 1
        except ValueError:
            raise BadArguments(Msg("'{}': the count after * must be a whole number.", part)) from None
        if n < 1:
            raise BadArguments(Msg("'{}': the count must be at least 1.", part))
        counts[name] = counts.get(name, 0) + n
    if sum(counts.values()) > MAX_ITEMS:
        raise BadArguments(Msg("At most {} cards in all.", MAX_ITEMS) if cards else
                           Msg("At most {} items in all.", MAX_ITEMS))
    return counts


# A count written with another sign than ``*``: the multiplication sign a phone or a web page gives
# (gold×3), or a colon (gold:3, as a token is written ship:5/1). × is no name's character, so the
# name was refused for a character shown as U+00D7; «gold:3» became one item named so.
_COUNTED = re.compile(r"^(.+?)\s*[×:]\s*(\d+)$")


def _counted_otherwise(part: str, cards: bool) -> None:
    """Refuse ``part`` (asked now) naming the count it was meant to give, when it is a name and a
    count written with × or : (``gold×3``: ``gold*3``)."""
    m = _COUNTED.match(part)
    if m is None or bad_chars(m.group(1)):
        return
    meant = f"{m.group(1)}*{m.group(2)}"
    part = "".join("?" if ch in bad_chars(part) else ch for ch in part)      # (the screen draws no ×)
    raise BadArguments(Msg("'{}': a card's count follows a *: {}; nothing was done.", part, meant) if cards else
                       Msg("'{}': an item's count follows a *: {}; nothing was done.", part, meant))


def _event(part: dict[str, Any], event: dict[str, Any]) -> None:
    """Add an event to a bag's or deck's history (the newest HISTORY_KEPT are kept)."""
    history: list[dict[str, Any]] = part["history"]
    part["events"] = int(part.get("events", len(history))) + 1
    history.append(event)
    del history[:-HISTORY_KEPT]


def new_bag(counts: dict[str, int], rng: Rng | None = None) -> dict[str, Any]:
    """A bag of ``counts``; ``order`` keeps the names in the order they were listed (the state's
    JSON sorts ``contents``), which tells which item of a bag made again is which
    (:func:`same_items`)."""
    if rng is not None:
        rng.note("bag", dict(sorted(counts.items())))
    return {"contents": dict(counts), "drawn": [], "history": [], "events": 0, "order": list(counts)}


Entries = list[tuple[str, int]]


def entries(bag: dict[str, Any]) -> Entries:
    """The items in the bag now (count at least 1) as (name, count), in the order they were listed
    (a bag made before ``order`` was kept: in name order)."""
    contents: dict[str, int] = bag["contents"]
    listed = [str(n) for n in bag.get("order", ()) if n in contents]
    names = listed + sorted(n for n in contents if n not in set(listed))
    return [(n, int(contents[n])) for n in names if contents[n] > 0]


def same_items(was: Entries, now: Entries) -> list[str] | None:
    """The order in which to walk the names of the bag ``now`` so that a draw lands on the item that
    corresponds to the one the same random number drew from the bag ``was`` (walked in name order),
    or None when that is the name order itself, or when the two do not hold the same things (not
    the same counts: another bag, whose draw is its own). Which item is which: a name in both with
    the same count is itself; the rest, count by count, pair in the order they were listed (a preset
    in another language, an item renamed). PROTOCOL.md: undo never re-rolls (docs/fairness.md §5)."""
    pairs = pairing(was, now)
    if pairs is None:
        return None
    walk = [pairs[n] for n in sorted(pairs)]
    return None if walk == sorted(pairs.values()) else walk


def pairing(was: Entries, now: Entries) -> dict[str, str] | None:
    """Each name of ``was`` → the name of ``now`` that is that item (:func:`same_items`), or None
    when they do not hold the same things (not the same counts). Both list their names in the order
    they were listed."""
    if sorted(c for _, c in was) != sorted(c for _, c in now):
        return None
    have, had = dict(now), dict(was)
    pairs = {n: n for n, c in was if have.get(n) == c}
    for count in sorted({c for _, c in was}):
        old = [n for n, c in was if c == count and n not in pairs]
        new = [n for n, c in now if c == count and had.get(n) != c]
        pairs.update(zip(old, new))
    return pairs


def check_walk(bag: dict[str, Any], walk: list[str]) -> None:
    """BadArguments unless ``walk`` lists each item in the bag once (a stored ``order=``)."""
    if sorted(walk) != sorted(n for n, _ in entries(bag)):
        raise BadArguments(Msg("'order=' must list each item in the bag once."))


def bag_size(bag: dict[str, Any]) -> int:
    return sum(bag["contents"].values())


def draw_from_bag(bag: dict[str, Any], n: int, rng: Rng, walk: list[str] | None = None,
                  seen: list[tuple[list[int], Entries]] | None = None) -> list[str]:
    """Draw ``n`` items without replacement (each item equally likely, ``Rng.take``, walking the
    names in ``walk`` if given: :func:`same_items`); raises IllegalMove if fewer. ``seen``: gets
    the generator's state and the bag's :func:`entries` before each draw."""
    left = bag_size(bag)
    if n < 1:
        raise BadArguments(Msg("Draw at least 1 item."))
    if n > left:
        raise IllegalMove(Msg("The bag holds {n} item; cannot draw {want}.", n=left, want=n,
                              plural="The bag holds {n} items; cannot draw {want}."))
    out = []
    for _ in range(n):
        if seen is not None:
            seen.append((rng.to_json(), entries(bag)))
        out.append(rng.take(bag["contents"], walk))
    bag["drawn"].extend(out)
    _event(bag, {"draw": out})
    return out


def put_back(bag: dict[str, Any], name: str, rng: Rng | None = None) -> None:
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
    if rng is not None:
        rng.note("put", name)
    _event(bag, {"put": name})


def new_deck(counts: dict[str, int], rng: Rng) -> dict[str, Any]:
    """The cards in the order of ``counts`` (each name repeated by its count), shuffled."""
    cards = [name for name in counts for _ in range(counts[name])]
    rng.note("deck")
    rng.shuffle(cards)
    deck = {"draw": cards, "discard": [], "hand": [], "history": [], "events": 0}
    _event(deck, {"shuffle": len(cards)})
    return deck


def deck_draw(deck: dict[str, Any], n: int, rng: Rng | None = None) -> list[str]:
    """Take ``n`` cards from the top into the hand; raises IllegalMove if fewer remain."""
    if n < 1:
        raise BadArguments(Msg("Draw at least 1 card."))
    if n > len(deck["draw"]) and not deck["discard"]:      # nothing to reshuffle: the rest are in the hand
        raise IllegalMove(Msg("The deck holds {n} card; cannot draw {want}: the other cards are in the hand.",
                              n=len(deck["draw"]), want=n,
                              plural="The deck holds {n} cards; cannot draw {want}: the other cards are in the hand."))
    if n > len(deck["draw"]):
        raise IllegalMove(Msg("The deck holds {n} card; cannot draw {want}. Reshuffle the discards first.",
                              n=len(deck["draw"]), want=n,
                              plural="The deck holds {n} cards; cannot draw {want}. Reshuffle the discards first."))
    out: list[str] = deck["draw"][:n]
    del deck["draw"][:n]
    deck["hand"].extend(out)
    if rng is not None:
        rng.note("card", list(out))
    _event(deck, {"draw": out})
    return out


def deck_discard(deck: dict[str, Any], name: str, rng: Rng | None = None) -> None:
    """Move one ``name`` from the hand to the discard pile; raises IllegalMove if not in hand."""
    if name not in deck["hand"]:
        if not deck["hand"]:
            raise IllegalMove(Msg("'{}' is not in the hand (the hand is empty).", name))
        raise IllegalMove(Msg("'{}' is not in the hand (hand: {}).", name, Msg.join(deck["hand"])))
    deck["hand"].remove(name)
    deck["discard"].append(name)
    if rng is not None:
        rng.note("discard", name)
    _event(deck, {"discard": name})


def deck_shuffle(deck: dict[str, Any], rng: Rng, with_discards: bool, keep: int = 0) -> None:
    """Shuffle the draw pile; with ``with_discards`` first put the discard pile back in (at the
    bottom, in the order discarded). ``keep``: the top cards that stay on top, out of the shuffle
    (cards the device showed and undo put back: docs/fairness.md §5)."""
    if not 0 <= keep <= len(deck["draw"]):
        raise BadArguments(Msg("'keep=' is a number of cards from 0 to {}.", len(deck["draw"])))
    if with_discards:
        rng.note("reshuffle")
        deck["draw"].extend(deck["discard"])
        deck["discard"].clear()
    if keep:
        rng.note("keep", keep)
    rest = deck["draw"][keep:]
    rng.shuffle(rest)
    deck["draw"][keep:] = rest
    _event(deck, {"reshuffle" if with_discards else "shuffle": len(deck["draw"])})
