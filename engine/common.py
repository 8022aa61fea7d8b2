"""Commands every session has besides its game's own: dice rolls kept in the session, and a
side bag/deck (``kit …``, engine/kit.py) beside any game.

Rolls live in ``state["rolls"]`` (newest last), the side kit in ``state["kit"]``; rolls draw from
the session's ``dice`` stream and the side kit from ``kit-bag``/``kit-deck`` (``state["rng"]``,
engine/rng.py), so undo restores the generator and a repeated roll gives the same dice.
"""
from __future__ import annotations

from engine import dice
from engine.errors import BadArguments, IllegalMove
from engine.game import Command, Outcome, Request, State, commands, load_rng, store_rng
from engine.kit import KIT_COMMANDS
from engine.text import Msg

MAX_KEPT_ROLLS = 200
DICE_STREAM = "dice"

# State keys that belong to these session-level commands, not to the game: a game handler that
# rebuilds its state from scratch must carry them over (``state.update(kept)``), or the session's
# rolls and side bag vanish at the game's next step.
SESSION_KEYS: tuple[str, ...] = ("rolls", "kit")


def _roll(state: State, req: Request) -> Outcome:
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: roll NdS[+M|-M], e.g. roll 3d6+1."))
    req.check_opts(frozenset())
    spec = dice.parse_dice(req.args[0])
    rng = load_rng(state, DICE_STREAM)
    record = dice.roll(spec, rng)
    store_rng(state, rng, DICE_STREAM)
    rolls = state.setdefault("rolls", [])
    rolls.append(record)
    del rolls[:-MAX_KEPT_ROLLS]
    return Outcome({"dice": record["dice"], "total": record["total"]}, dice.describe(record))


def _reroll(state: State, req: Request) -> Outcome:
    """``reroll 1,3``: roll again the chosen dice (1-based) of the last roll."""
    rolls = state.get("rolls") or []
    if not rolls:
        raise IllegalMove(Msg("Nothing has been rolled yet in this session."))
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: reroll <dice positions, 1-based, comma-separated>, e.g. reroll 1,3."))
    req.check_opts(frozenset())
    try:
        positions = [int(p) - 1 for p in req.args[0].split(",")]
    except ValueError:
        raise BadArguments(Msg("Dice positions are whole numbers, e.g. reroll 1,3.")) from None
    rng = load_rng(state, DICE_STREAM)
    record = dice.reroll(rolls[-1], positions, rng)
    store_rng(state, rng, DICE_STREAM)
    rolls.append(record)
    del rolls[:-MAX_KEPT_ROLLS]
    return Outcome({"dice": record["dice"], "total": record["total"],
                    "rerolled": [p + 1 for p in positions]},
                   dice.describe(record, sorted(p + 1 for p in positions)))


def _rolls(state: State, req: Request) -> Outcome:
    """``rolls [N]``: the last N roll records (default 20), oldest first; read-only."""
    if len(req.args) > 1:
        raise BadArguments(Msg("Usage: rolls [N]."))
    req.check_opts(frozenset())
    n = 20
    if req.args:
        try:
            n = int(req.args[0])
        except ValueError:
            raise BadArguments(Msg("Usage: rolls [N].")) from None
        if n < 1:
            raise BadArguments(Msg("rolls N needs N ≥ 1."))
    return Outcome({"rolls": (state.get("rolls") or [])[-n:]})


SESSION_COMMANDS = commands(
    Command("rolls", _rolls, False, "rolls [N]  (the last N rolls)"),
    Command("roll", _roll, True, "roll NdS[+M|-M]"),
    Command("reroll", _reroll, True, "reroll <i,j,...>  (1-based dice of the last roll)"),
    *KIT_COMMANDS.values(),
)
