"""The ``bag`` game: a hidden-draw bag and, optionally, a deck of named cards (Dice & bags);
the ``dice`` game (rolls only); and the side bag/deck every session can hold (``kit …``).

``new bag items=gold*3,silver*2,bronze [cards=legio*4,senator*2] [seed=N]``

A *holder* is a dict with ``bag`` and ``deck`` (each None or the plain data of engine/bag.py):
the bag game's state itself, or ``state["kit"]`` beside another game (see :data:`KIT_COMMANDS`).
Each draws from its own stream of the session's draws (``state["rng"]``, engine/rng.py): the bag
game's ``bag`` and ``deck``, the side kit's ``kit-bag`` and ``kit-deck``; undo restores them.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

from engine import bag as B
from engine.errors import BadArguments, IllegalMove, LegatusError
from engine.game import (Command, GameRules, Held, Outcome, Request, Seen, State, commands, load_draws, load_rng,
                         store_draws, store_rng, whole_number)
from engine.kit_views import HolderView, KitGameView
from engine.rng import Draws, Rng, sha256_hex
from engine.text import Msg, N_

Holder = dict[str, Any]


def stream(side: bool, part: str) -> str:
    """The stream a holder's ``bag`` or ``deck`` draws from (docs/fairness.md)."""
    return f"kit-{part}" if side else part


def _fill(holder: Holder, req: Request, draws: Draws, side: bool) -> None:
    """Set the holder's bag from ``items=`` and/or its deck from ``cards=`` (both lists checked
    first: a bad list changes nothing); a part not listed is left as it was (a side deck started
    beside a side bag keeps the bag, and the tokens drawn from it stay out)."""
    items = B.parse_items(req.opts["items"], asked=req.asked) if "items" in req.opts else None
    cards = B.parse_items(req.opts["cards"], cards=True, asked=req.asked) if "cards" in req.opts else None
    if items is not None:
        holder["bag"] = B.new_bag(items, draws.stream(stream(side, "bag")))
    if cards is not None:
        holder["deck"] = B.new_deck(cards, draws.stream(stream(side, "deck")))


def _new(req: Request, seed: Draws | int) -> State:
    req.check_opts(frozenset({"items", "cards", "seed"}))
    if req.args:
        raise BadArguments(Msg("Usage: new bag items=<name>*<count>,... [cards=<name>*<count>,...] [seed=N]."))
    if "items" not in req.opts and "cards" not in req.opts:
        raise BadArguments(Msg("new bag needs a list: items=... for a bag or cards=... for a deck, e.g. "
                               "new bag items=gold*3,silver*2,bronze."))
    draws = Draws.coerce(seed)
    state: State = {"rng": [], "bag": None, "deck": None}
    _fill(state, req, draws, False)
    store_draws(state, draws)
    return state


def holder_view(holder: Holder) -> HolderView:
    """What a person may see of a holder: counts and what is out, never the deck's order.
    ``history``: the newest events (at most :data:`engine.bag.HISTORY_KEPT`), ``events``: how
    many there were in all (the whole history: ``events`` in firmware/session.py)."""
    out: HolderView = {}
    if holder.get("bag") is not None:
        bag = holder["bag"]
        out["bag"] = {"left": {k: v for k, v in sorted(bag["contents"].items())},
                      "size": B.bag_size(bag), "drawn": list(bag["drawn"]),
                      "history": bag["history"][-B.HISTORY_KEPT:],
                      "events": int(bag.get("events", len(bag["history"])))}
    if holder.get("deck") is not None:
        deck = holder["deck"]
        out["deck"] = {"draw_pile": len(deck["draw"]), "hand": list(deck["hand"]),
                       "discard": list(deck["discard"]), "history": deck["history"][-B.HISTORY_KEPT:],
                       "events": int(deck.get("events", len(deck["history"])))}
    return out


def _view(state: State) -> KitGameView:
    return {**holder_view(state), "rolls": state.get("rolls", [])[-20:]}


def _need(holder: Holder, key: str, side: bool) -> dict[str, Any]:
    if holder.get(key) is None:             # (each sentence whole, for the catalogs to find it)
        if side and key == "bag":
            raise IllegalMove(Msg("No side bag yet; start one with kit new items=..."))
        if side:
            raise IllegalMove(Msg("No side deck yet; start one with kit new cards=..."))
        if key == "bag":
            raise IllegalMove(Msg("This session has no bag; start one with new bag items=..."))
        raise IllegalMove(Msg("This session has no deck; start one with new bag cards=..."))
    part: dict[str, Any] = holder[key]
    return part


def _count(args: tuple[str, ...], usage: Msg, asked: bool = False) -> int:
    if len(args) > 1:
        raise BadArguments(usage)
    try:
        return whole_number(args[0], asked) if args else 1
    except ValueError:
        raise BadArguments(usage) from None


# -- the actions on a holder (shared by the bag game and the side kit) -----------------------------
Action = Callable[[State, Holder, tuple[str, ...], bool, dict[str, str], bool], Outcome]   # (…, asked now)


def _walk(opts: Mapping[str, str]) -> list[str] | None:
    """A stored ``order=`` (the names a draw walks, :func:`engine.bag.same_items`), else None."""
    return opts["order"].split(",") if "order" in opts else None


def _draw(state: State, holder: Holder, args: tuple[str, ...], side: bool, opts: dict[str, str],
          asked: bool) -> Outcome:
    n = _count(args, Msg("Usage: kit draw [N].") if side else Msg("Usage: draw [N]."), asked)
    bag = _need(holder, "bag", side)
    walk = _walk(opts)
    if walk is not None:
        B.check_walk(bag, walk)
    rng = load_rng(state, stream(side, "bag"))
    out = B.draw_from_bag(bag, n, rng, walk)
    store_rng(state, rng, stream(side, "bag"))
    return Outcome({"drawn": out}, Msg("Drew {} from the bag.", Msg.join(out)))


def _put(state: State, holder: Holder, args: tuple[str, ...], side: bool, opts: dict[str, str],
          asked: bool) -> Outcome:
    if len(args) != 1:        # (each usage whole, for the catalogs to find it; beside a game: kit …)
        raise BadArguments(Msg("Usage: kit put <name>.") if side else Msg("Usage: put <name>."))
    bag = _need(holder, "bag", side)
    B.put_back(bag, args[0], load_rng(state, stream(side, "bag")))
    return Outcome({"left": B.bag_size(bag)}, Msg("Put {} back in the bag.", args[0]))


def _card(state: State, holder: Holder, args: tuple[str, ...], side: bool, opts: dict[str, str],
          asked: bool) -> Outcome:
    n = _count(args, Msg("Usage: kit card [N].") if side else Msg("Usage: card [N]."), asked)
    out = B.deck_draw(_need(holder, "deck", side), n, load_rng(state, stream(side, "deck")))
    return Outcome({"cards": out}, Msg("Drew card {}.", Msg.join(out), n=n, plural="Drew cards {}."))


def _discard(state: State, holder: Holder, args: tuple[str, ...], side: bool, opts: dict[str, str],
          asked: bool) -> Outcome:
    if len(args) != 1:
        raise BadArguments(Msg("Usage: kit discard <card>.") if side else Msg("Usage: discard <card>."))
    deck = _need(holder, "deck", side)
    B.deck_discard(deck, args[0], load_rng(state, stream(side, "deck")))
    return Outcome({"discard": deck["discard"]}, Msg("Discarded {}.", args[0]))


def _shuffle(with_discards: bool) -> Action:
    def run(state: State, holder: Holder, args: tuple[str, ...], side: bool, opts: dict[str, str],
            asked: bool) -> Outcome:
        if args and side:
            raise BadArguments(Msg("Usage: kit reshuffle.") if with_discards else Msg("Usage: kit shuffle."))
        if args:
            raise BadArguments(Msg("Usage: reshuffle.") if with_discards else Msg("Usage: shuffle."))
        deck = _need(holder, "deck", side)
        try:
            keep = whole_number(opts.get("keep", "0"), asked, key="keep")
        except ValueError:
            raise BadArguments(Msg("'keep=' is a number of cards from 0 to {}.", len(deck["draw"]))) from None
        rng = load_rng(state, stream(side, "deck"))
        B.deck_shuffle(deck, rng, with_discards, keep)
        store_rng(state, rng, stream(side, "deck"))
        n = len(deck["draw"])
        if with_discards:
            log = Msg("Shuffled the discards back into the deck ({n} card).", n=n,
                      plural="Shuffled the discards back into the deck ({n} cards).")
        else:
            log = Msg("Shuffled the deck ({n} card).", n=n, plural="Shuffled the deck ({n} cards).")
        if keep:
            log = Msg("{} {}", log, Msg("The card shown and undone stays on top.", n=keep,
                                        plural="The {n} cards shown and undone stay on top."))
        return Outcome({"draw_pile": n, "kept": keep} if keep else {"draw_pile": n}, log)
    return run


ACTIONS: dict[str, Action] = {
    "draw": _draw, "put": _put, "card": _card, "discard": _discard,
    "shuffle": _shuffle(False), "reshuffle": _shuffle(True),
}
# the options only a stored line gives (the device adds them: :data:`HELD`), by action
PINNED = {"draw": "order", "shuffle": "keep", "reshuffle": "keep"}


def _pinned(verb: str) -> frozenset[str]:
    return frozenset({PINNED[verb]}) if verb in PINNED else frozenset()


def _game_command(name: str) -> Callable[[State, Request], Outcome]:
    def run(state: State, req: Request) -> Outcome:
        req.check_opts(_pinned(name))
        return ACTIONS[name](state, state, req.args, False, dict(req.opts), req.asked)
    return run


# -- what was shown stays shown (PROTOCOL.md: undo never re-rolls) ----------------------------------
def _position(name: str, rng: Rng) -> str:
    state, inc = rng.to_json()
    return f"{name}:{state}:{inc}"


def _pile(name: str, rng: Rng, pile: list[str]) -> str:
    """The position of a deck's next card: its stream's generator (a shuffle moves it) and its pile."""
    return f"{_position(name, rng)}:pile:{sha256_hex(json.dumps(pile, ensure_ascii=False).encode())[:24]}"


def _parts(state: State, req: Request) -> tuple[str, tuple[str, ...], Holder, bool]:
    """The action of a request (``draw``, ``card`` …), its arguments, its holder and whether it is
    the side kit's (``kit draw``)."""
    if req.command == "kit":
        return (req.args[0] if req.args else ""), req.args[1:], side_holder(state), True
    return req.command, req.args, state, False


def _marks(before: State, req: Request) -> list[tuple[str, Any]]:
    """:attr:`engine.game.Held.marks`: a bag draw saw, at each of its draws' positions, the bag's
    items (:func:`engine.bag.entries`, in the order listed); a card, at its deck's position, how
    many cards it took from the top."""
    try:
        verb, args, holder, side = _parts(before, req)
        n = _count(args, Msg("Usage: draw [N].")) if verb in ("draw", "card") else 0
        if verb == "draw" and holder.get("bag") is not None:
            seen: list[tuple[list[int], B.Entries]] = []
            name = stream(side, "bag")
            B.draw_from_bag(copy.deepcopy(holder["bag"]), n, load_rng(before, name), _walk(req.opts), seen)
            return [(f"{name}:{at[0]}:{at[1]}", [list(e) for e in items]) for at, items in seen]
        if verb == "new" and "cards" in req.opts:
            name = stream(side, "deck")
            cards = B.parse_items(req.opts["cards"], cards=True)
            listed = req.opts["listed"].split(",") if "listed" in req.opts else list(cards)
            return [(f"{_position(name, load_rng(before, name))}:deck",
                     {"cards": [[k, v] for k, v in cards.items()], "listed": listed})]
        if verb == "card" and holder.get("deck") is not None and n <= len(holder["deck"]["draw"]):
            name = stream(side, "deck")
            return [(_pile(name, load_rng(before, name), holder["deck"]["draw"]), n)]
    except (LegatusError, KeyError, ValueError, TypeError, IndexError):
        return []
    return []


def _pin(state: State, req: Request, seen: Seen) -> str | None:
    """:attr:`engine.game.Held.pin`. A bag draw asked where one was shown and undone, from a bag
    made again that holds the same things (the same counts: the same preset in another language,
    the items listed in another order, one renamed), walks the names so that it draws the item that
    corresponds to the one shown (``order=``, :func:`engine.bag.same_items`). A shuffle of a deck
    whose top cards were shown and undone keeps them on top (``keep=``): the next card is the one
    shown. Both are refused typed (only a stored line gives them)."""
    verb, args, holder, side = _parts(state, req)
    for key in _pinned(verb) & req.opts.keys():      # (typed: refused as an option the command lacks)
        raise BadArguments(Msg("'{}' takes no options (not '{}').", req.command, key))
    line = f"{req.command} {req.rest}".strip()
    try:
        if verb == "draw" and holder.get("bag") is not None:
            name = stream(side, "bag")
            now = B.entries(holder["bag"])
            for was in reversed(seen(_position(name, load_rng(state, name)))):
                if sorted(c for _, c in was) == sorted(c for _, c in now):
                    walk = B.same_items([(str(a), int(b)) for a, b in was], now)
                    return None if walk is None else f"{line} order={','.join(walk)}"
        if verb == "new" and "cards" in req.opts and side:
            return _dealt_again(state, req, seen)
        if verb in ("shuffle", "reshuffle") and holder.get("deck") is not None:
            name = stream(side, "deck")
            rng, pile, keep = load_rng(state, name), list(holder["deck"]["draw"]), 0
            while keep < len(pile) and (taken := seen(_pile(name, rng, pile[keep:]))):
                keep += int(taken[-1])
            return f"{line} keep={min(keep, len(pile))}" if keep else None
    except (KeyError, ValueError, TypeError):
        return None
    return None


def _dealt_again(state: State, req: Request, seen: Seen) -> str | None:
    """``kit new cards=`` (as stored: :func:`_kit_line`) where a side deck made then was undone: if
    it holds the same cards (the same counts, whatever their names: the same preset in another
    language, a card renamed), its cards go into the shuffle in the order that puts each where its
    partner went (which card is which: :func:`engine.bag.pairing`, by the orders listed), so the
    same shuffle deals the cards that are the ones shown."""
    name = stream(True, "deck")
    try:
        counts = B.parse_items(req.opts["cards"], cards=True)
    except BadArguments:          # the handler refuses the same list and says why
        return None
    listed = req.opts["listed"].split(",") if "listed" in req.opts else list(counts)
    for was in reversed(seen(f"{_position(name, load_rng(state, name))}:deck")):
        old = {str(k): int(v) for k, v in was["cards"]}
        pairs = B.pairing([(n, old[n]) for n in was["listed"]], [(n, counts[n]) for n in listed])
        if pairs is None:
            continue
        deal = [pairs[str(k)] for k, _ in was["cards"]]
        if deal == list(counts):
            return None
        opts = {**req.opts, "cards": _listing(counts, deal)}
        if listed != deal:
            opts["listed"] = ",".join(listed)
        else:
            opts.pop("listed", None)
        return _new_line(req, opts)
    return None


HELD = Held(_marks, _pin)


GAME = GameRules(
    name="bag",
    title=N_("Dice & bags"),
    new=_new,
    view=_view,
    usage="new bag items=<name>*<count>,... [cards=<name>*<count>,...] [seed=N]",
    commands=commands(
        Command("draw", _game_command("draw"), True, "draw [N]  (from the bag, hidden)", held=HELD),
        Command("put", _game_command("put"), True, "put <name>  (back into the bag)"),
        Command("card", _game_command("card"), True, "card [N]  (from the top of the deck to the hand)", held=HELD),
        Command("discard", _game_command("discard"), True, "discard <card>  (from the hand)"),
        Command("shuffle", _game_command("shuffle"), True, "shuffle  (the draw pile)", held=HELD),
        Command("reshuffle", _game_command("reshuffle"), True, "reshuffle  (discards back in, then shuffle)",
                held=HELD),
    ),
)


def _new_dice(req: Request, seed: Draws | int) -> State:
    req.check_opts(frozenset({"seed"}))
    if req.args:
        raise BadArguments(Msg("Usage: new dice [seed=N]; then roll NdS[+M|-M]."))
    return {"rng": Draws.coerce(seed).to_json(), "bag": None, "deck": None, "rolls": []}


DICE = GameRules(
    name="dice",
    title=N_("Dice"),
    new=_new_dice,
    view=_view,
    usage="new dice [seed=N]  (then roll NdS+M, reroll i,j)",
    commands={},
)


# -- the side bag/deck of any session ----------------------------------------------------------------
KIT_USAGE = N_("kit new items=<name>*<count>,... [cards=...] | kit draw [N] | kit put <name> | "
                "kit card [N] | kit discard <card> | kit shuffle | kit reshuffle")


def side_holder(state: State) -> Holder:
    """The session's side bag/deck (empty if none was started)."""
    kit = state.get("kit")
    return kit if isinstance(kit, dict) else {"bag": None, "deck": None}


def _kit(state: State, req: Request) -> Outcome:
    """``kit <verb> …``: a bag and/or deck beside the session's game, journaled and undoable
    with it; the game's own state is not touched (only the shared generator advances)."""
    if not req.args:
        raise BadArguments(Msg("Usage: {}.", Msg(KIT_USAGE)))
    verb, args = req.args[0], req.args[1:]
    if verb == "new":
        req.check_opts(frozenset({"items", "cards", "listed"}))
        if "listed" in req.opts:              # (stored by the device: the order the cards were listed in)
            listed = req.opts["listed"].split(",")
            cards = B.parse_items(req.opts["cards"], cards=True, asked=req.asked) if "cards" in req.opts else None
            if cards is None or sorted(listed) != sorted(cards):
                raise BadArguments(Msg("'listed=' must name each card of the deck once."))
        if args:
            raise BadArguments(Msg("Usage: kit new items=<name>*<count>,... [cards=<name>*<count>,...]."))
        if "items" not in req.opts and "cards" not in req.opts:
            raise BadArguments(Msg("kit new needs a list: items=... for a side bag or cards=... for a side deck, "
                                   "e.g. kit new items=gold*3,silver*2."))
        before = side_holder(state)          # what it does not list stays (PROTOCOL.md: one bag and/or deck)
        holder: Holder = {"bag": before.get("bag"), "deck": before.get("deck")}
        draws = load_draws(state)
        _fill(holder, req, draws, True)
        store_draws(state, draws)
        state["kit"] = holder
        parts = []
        if holder["bag"] is not None:
            parts.append(Msg("a bag of {n} item", n=B.bag_size(holder["bag"]), plural="a bag of {n} items"))
        if holder["deck"] is not None:
            parts.append(Msg("a deck of {n} card", n=len(holder["deck"]["draw"]), plural="a deck of {n} cards"))
        return Outcome({"kit": holder_view(holder)}, Msg("Beside the game: {}.", Msg.join(parts)))
    action = ACTIONS.get(verb)
    if action is None:
        raise BadArguments(Msg("'kit' has no action '{}'; usage: {}.", verb[:24], Msg(KIT_USAGE)))
    req.check_opts(_pinned(verb))
    holder = side_holder(state)
    outcome = action(state, holder, args, True, dict(req.opts), req.asked)
    state["kit"] = holder
    return Outcome({**outcome.fields, "kit": holder_view(holder)}, outcome.log)


def _listing(counts: dict[str, int], names: list[str]) -> str:
    return ",".join(name if counts[name] == 1 else f"{name}*{counts[name]}" for name in names)


def _new_line(req: Request, opts: dict[str, str]) -> str:
    return " ".join([req.command, "new", *(f"{k}={v}" for k, v in opts.items())])


def _kit_line(state: State, req: Request) -> str:
    """``kit …`` as asked now is run and stored (``Command.canonical``): a side deck is the same
    whatever order its cards are listed in, so ``kit new cards=`` lists them in name order (code
    point, as a bag draws) and shuffles the same (PROTOCOL.md: undo never re-rolls; a deck seen,
    undone and set up again in another order dealt another card); ``listed=`` keeps the order they
    were listed in, when it is another (no draw reads it: it tells which card of a deck made again is
    which, :data:`HELD`). A list the rules refuse is left as given (the handler says why); stored
    lines replay as written. ``listed=`` typed is refused (only a stored line gives it)."""
    line = f"{req.command} {req.rest}".strip()
    if req.args[:1] == ("new",) and "listed" in req.opts:
        raise BadArguments(Msg("'{}' has no option '{}' (options: {}).", "kit new", "listed", "cards, items"))
    if req.args != ("new",) or "cards" not in req.opts:
        return line
    try:
        counts = B.parse_items(req.opts["cards"], cards=True)
    except BadArguments:          # (engine: no logging) the handler refuses the same list and says why
        return line
    opts = {**req.opts, "cards": _listing(counts, sorted(counts))}
    if list(counts) != sorted(counts):
        opts["listed"] = ",".join(counts)
    return _new_line(req, opts)


def _kit_state(state: State, req: Request) -> Outcome:
    """``kit-state``: the side bag/deck (``kit``: ``bag``/``deck`` as in the bag game's state,
    absent when there is none); read-only."""
    if req.args or req.opts:
        raise BadArguments(Msg("'{}' takes no arguments.", req.command))
    return Outcome({"kit": holder_view(side_holder(state))})


KIT_COMMANDS = commands(
    Command("kit-state", _kit_state, False, "kit-state  (the side bag/deck)"),
    Command("kit", _kit, True, KIT_USAGE, canonical=_kit_line, held=HELD),
)
