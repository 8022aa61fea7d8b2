"""The ``bag`` game: a hidden-draw bag and, optionally, a deck of named cards (Dice & bags).

``new bag items=gold*3,silver*2,bronze [cards=legio*4,senator*2] [seed=N]``
"""
from __future__ import annotations

from typing import Any

from engine import bag as B
from engine.errors import BadArguments, IllegalMove
from engine.game import Command, GameRules, Outcome, Request, State, commands, load_rng, store_rng
from engine.rng import Rng


def _new(req: Request, seed: int) -> State:
    req.check_opts(frozenset({"items", "cards", "seed"}))
    if req.args:
        raise BadArguments("Usage: new bag items=<name>*<count>,... [cards=<name>*<count>,...] [seed=N].")
    if "items" not in req.opts and "cards" not in req.opts:
        raise BadArguments("A bag needs items=..., e.g. new bag items=gold*3,silver*2,bronze.")
    rng = Rng(seed)
    state: State = {"rng": [], "bag": None, "deck": None}
    if "items" in req.opts:
        state["bag"] = B.new_bag(B.parse_items(req.opts["items"]))
    if "cards" in req.opts:
        state["deck"] = B.new_deck(B.parse_items(req.opts["cards"]), rng)
    store_rng(state, rng)
    return state


def _view(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state["bag"] is not None:
        bag = state["bag"]
        out["bag"] = {"left": {k: v for k, v in sorted(bag["contents"].items())},
                      "size": B.bag_size(bag), "drawn": list(bag["drawn"]),
                      "history": bag["history"]}
    if state["deck"] is not None:
        deck = state["deck"]
        out["deck"] = {"draw_pile": len(deck["draw"]), "hand": list(deck["hand"]),
                       "discard": list(deck["discard"]), "history": deck["history"]}
    out["rolls"] = state.get("rolls", [])[-20:]
    return out


def _need(state: State, key: str) -> dict[str, Any]:
    if state[key] is None:
        what = "items=" if key == "bag" else "cards="
        raise IllegalMove(f"This session has no {key}; start one with new bag {what}...")
    return state[key]


def _count(req: Request, usage: str) -> int:
    if len(req.args) > 1:
        raise BadArguments(usage)
    try:
        return int(req.args[0]) if req.args else 1
    except ValueError:
        raise BadArguments(usage) from None


def _draw(state: State, req: Request) -> Outcome:
    n = _count(req, "Usage: draw [N].")
    bag = _need(state, "bag")
    rng = load_rng(state)
    out = B.draw_from_bag(bag, n, rng)
    store_rng(state, rng)
    return Outcome({"drawn": out}, f"Drew {', '.join(out)} from the bag.")


def _put(state: State, req: Request) -> Outcome:
    if len(req.args) != 1:
        raise BadArguments("Usage: put <name>.")
    B.put_back(_need(state, "bag"), req.args[0])
    return Outcome({"left": B.bag_size(state["bag"])}, f"Put {req.args[0]} back in the bag.")


def _card(state: State, req: Request) -> Outcome:
    n = _count(req, "Usage: card [N].")
    out = B.deck_draw(_need(state, "deck"), n)
    return Outcome({"cards": out}, f"Drew card{'s' if n > 1 else ''} {', '.join(out)}.")


def _discard(state: State, req: Request) -> Outcome:
    if len(req.args) != 1:
        raise BadArguments("Usage: discard <card>.")
    B.deck_discard(_need(state, "deck"), req.args[0])
    return Outcome({"discard": state["deck"]["discard"]}, f"Discarded {req.args[0]}.")


def _shuffle(with_discards: bool):
    def run(state: State, req: Request) -> Outcome:
        if req.args:
            raise BadArguments(f"Usage: {req.command}.")
        deck = _need(state, "deck")
        rng = load_rng(state)
        B.deck_shuffle(deck, rng, with_discards)
        store_rng(state, rng)
        what = "Shuffled the discards back into the deck" if with_discards else "Shuffled the deck"
        return Outcome({"draw_pile": len(deck["draw"])}, f"{what} ({len(deck['draw'])} cards).")
    return run


GAME = GameRules(
    name="bag",
    title="Dice & bags",
    new=_new,
    view=_view,
    usage="new bag items=<name>*<count>,... [cards=<name>*<count>,...] [seed=N]",
    commands=commands(
        Command("draw", _draw, True, "draw [N]  (from the bag, hidden)"),
        Command("put", _put, True, "put <name>  (back into the bag)"),
        Command("card", _card, True, "card [N]  (from the top of the deck to the hand)"),
        Command("discard", _discard, True, "discard <card>  (from the hand)"),
        Command("shuffle", _shuffle(False), True, "shuffle  (the draw pile)"),
        Command("reshuffle", _shuffle(True), True, "reshuffle  (discards back in, then shuffle)"),
    ),
)


def _new_dice(req: Request, seed: int) -> State:
    req.check_opts(frozenset({"seed"}))
    if req.args:
        raise BadArguments("Usage: new dice [seed=N]; then roll NdS[+M|-M].")
    return {"rng": Rng(seed).to_json(), "bag": None, "deck": None, "rolls": []}


DICE = GameRules(
    name="dice",
    title="Dice",
    new=_new_dice,
    view=_view,
    usage="new dice [seed=N]  (then roll NdS+M, reroll i,j)",
    commands={},
)
