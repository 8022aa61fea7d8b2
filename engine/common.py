"""Commands every session has besides its game's own: dice rolls kept in the session, and a
side bag/deck (``kit …``, engine/kit.py) beside any game.

Rolls live in ``state["rolls"]`` (newest last), the side kit in ``state["kit"]``; rolls draw from
the session's ``dice`` stream and the side kit from ``kit-bag``/``kit-deck`` (``state["rng"]``,
engine/rng.py), so undo restores the generator and a repeated roll gives the same dice.

A re-roll asked now is stored as ``reroll i,j rolls=apart`` (:func:`_reroll_line`): each die of the
roll it re-rolls draws from a stream of its own (:func:`reroll_stream`), so dice shown and undone
stay with the action they were shown for, whatever is rolled in between (PROTOCOL.md: undo never
re-rolls): a roll undone and done again after a re-roll of the roll before it rolls what it showed
(with one stream, the re-roll took those dice and the roll got fresh ones), and a re-roll of a die
undone rolls that die's same new face even after a re-roll of another die. A ``reroll`` line stored
without it (an older Legatus) draws from ``dice`` as it did: it replays exactly.
"""
from __future__ import annotations

import json

from engine import dice
from engine.errors import BadArguments, IllegalMove
from engine.game import Command, Outcome, Request, State, commands, load_draws, load_rng, store_draws, store_rng
from engine.kit import KIT_COMMANDS
from engine.rng import sha256_hex
from engine.text import Msg

MAX_KEPT_ROLLS = 200
DICE_STREAM = "dice"
REROLL_STREAM = "reroll"        # ``reroll-<roll>-<die>`` (:func:`reroll_stream`)
APART = "apart"                 # ``reroll … rolls=apart``: each die's re-roll from its own stream

# State keys that belong to these session-level commands, not to the game: a game handler that
# rebuilds its state from scratch must carry them over (``state.update(kept)``), or the session's
# rolls and side bag vanish at the game's next step.
SESSION_KEYS: tuple[str, ...] = ("rolls", "kit")


def _roll(state: State, req: Request) -> Outcome:
    if len(req.args) != 1:
        raise dice.usage(req.args)
    req.check_opts(frozenset())
    spec = dice.parse_dice(req.args[0], req.asked)
    rng = load_rng(state, DICE_STREAM)
    record = dice.roll(spec, rng)
    store_rng(state, rng, DICE_STREAM)
    rolls = state.setdefault("rolls", [])
    rolls.append(record)
    del rolls[:-MAX_KEPT_ROLLS]
    return Outcome({"dice": record["dice"], "total": record["total"]}, dice.describe(record))


def _roll_line(state: State, req: Request) -> str:
    """``roll …`` as asked now is run and stored (``Command.canonical``): its die letter ``d``
    however it was typed (``roll 2к6`` is ``roll 2d6``: engine/dice.py ``plain_dice``)."""
    line = f"{req.command} {req.rest}".strip()
    if len(req.args) != 1 or req.opts:
        return line
    plain = dice.plain_dice(req.args[0])
    return line if plain == req.args[0] else f"{req.command} {plain}"


def reroll_stream(state: State, die: int) -> str:
    """The stream a re-roll (``rolls=apart``) of die ``die`` (1-based) of the session's last roll
    draws from: ``reroll-<roll>-<die>``, where ``<roll>`` names that roll by the ``dice`` stream's
    position after it and its expression (the first 12 hex characters of the SHA-256 of
    ``<the generator's JSON> <expression>``; it predicts nothing): re-rolls never move ``dice``, so
    it names the last roll until the next, and a roll of other dice undone to that position is
    another roll."""
    return f"{_last_roll(state)}-{die}"


def _last_roll(state: State) -> str:
    rolls = state.get("rolls") or [{}]
    roll = f"{json.dumps(load_rng(state, DICE_STREAM).to_json())} {rolls[-1].get('expr', '')}"
    return f"{REROLL_STREAM}-{sha256_hex(roll.encode())[:12]}"


def _reroll(state: State, req: Request) -> Outcome:
    """``reroll 1,3``: roll again the chosen dice (1-based) of the last roll."""
    rolls = state.get("rolls") or []
    if not rolls:
        raise IllegalMove(Msg("Nothing has been rolled yet in this session."))
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: reroll <dice positions, 1-based, comma-separated>, e.g. reroll 1,3."))
    req.check_opts(frozenset({"rolls"}))
    apart = req.opts.get("rolls")
    if apart is not None and apart != APART:
        raise BadArguments(Msg("rolls= takes only '{}' (each die's re-roll from dice of its own); not '{}'.",
                               APART, apart[:24]))
    try:
        positions = [req.number(p) - 1 for p in req.args[0].split(",")]
    except ValueError:
        raise BadArguments(Msg("Dice positions are whole numbers, e.g. reroll 1,3.")) from None
    if apart is None:                              # a line stored by an older Legatus: one stream
        rng = load_rng(state, DICE_STREAM)
        record = dice.reroll(rolls[-1], positions, lambda p: rng)
        store_rng(state, rng, DICE_STREAM)
    else:
        names = {p: reroll_stream(state, p + 1) for p in positions}
        draws = load_draws(state)
        record = dice.reroll(rolls[-1], positions, lambda p: draws.stream(names[p]))
        store_draws(state, draws)
        _forget_rerolls(state, f"{_last_roll(state)}-")
    rolls.append(record)
    del rolls[:-MAX_KEPT_ROLLS]
    return Outcome({"dice": record["dice"], "total": record["total"],
                    "rerolled": [p + 1 for p in positions]},
                   dice.describe(record, sorted(p + 1 for p in positions)))


def _forget_rerolls(state: State, kept: str) -> None:
    """Drop the re-roll streams of rolls before the last (no re-roll can draw from them again:
    only the last roll is re-rolled, and an undo brings them back with the state), so that the
    state keeps at most one roll's (its dice: :data:`engine.dice.MAX_DICE`)."""
    streams = state["rng"].get("s") if isinstance(state["rng"], dict) else None
    if isinstance(streams, dict):
        for name in [n for n in streams if n.startswith(f"{REROLL_STREAM}-") and not n.startswith(kept)]:
            del streams[name]


def _reroll_line(state: State, req: Request) -> str:
    """``reroll …`` as asked now is run and stored (``Command.canonical``): with ``rolls=apart``
    (see the module); a line stored before replays as written."""
    line = f"{req.command} {req.rest}".strip()
    return line if "rolls" in req.opts else f"{line} rolls={APART}"


def _rolls(state: State, req: Request) -> Outcome:
    """``rolls [N]``: the last N roll records (default 20), oldest first; read-only."""
    if len(req.args) > 1:
        raise BadArguments(Msg("Usage: rolls [N]."))
    req.check_opts(frozenset())
    n = 20
    if req.args:
        try:
            n = req.number(req.args[0])
        except ValueError:
            raise BadArguments(Msg("Usage: rolls [N].")) from None
        if n < 1:
            raise BadArguments(Msg("rolls N needs N ≥ 1."))
    return Outcome({"rolls": (state.get("rolls") or [])[-n:]})


SESSION_COMMANDS = commands(
    Command("rolls", _rolls, False, "rolls [N]  (the last N rolls)"),
    Command("roll", _roll, True, "roll NdS[+M|-M]", canonical=_roll_line),
    Command("reroll", _reroll, True, "reroll <i,j,...>  (1-based dice of the last roll)", canonical=_reroll_line),
    *KIT_COMMANDS.values(),
)
