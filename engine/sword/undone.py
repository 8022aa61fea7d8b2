"""The battle an undo took back (W-2), kept by the session's undo record, not by a screen.

A ``battle`` undone is remembered by the session where it was fought (firmware/shown.py: its
command's :attr:`~engine.game.Command.held` marks, which each undo row keeps, so they are read back
after a restart or a power cut): at the key of the state before it (:func:`battle_key`: the
session's most recent battle and the battle dice's generators), the values it was fought with —
each army's units, flanking units, bonuses, the Sacred Band and the dice thrown on the table.

``undone-battle`` (read-only) answers them while the session stands where that battle was fought
(``battle``: null otherwise: a battle fought in its place, or none undone), the latest undone there
when several were. The device's Battle form opens on them, so a typo found on the result is
corrected in its row alone; fought again with the device's dice it rolls the dice it showed (undo
never re-rolls: the generators are back where they were). The values reach the request through
:attr:`Held.pin` (the line asked is made ``undone-battle <the battle's options>``), so typed
options are refused: only the session's record gives them.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from engine.actions import faces, words
from engine.errors import BadArguments, LegatusError
from engine.game import Held, Outcome, Request, Seen, State, load_rng
from engine.sword.requests import BATTLE_OPTS, MAX_MOD, MAX_UNITS, SIDES
from engine.sword.text import N_, Msg

UNDONE = "undone-battle"
KEY = "sword-battle-undone"
_GIVEN = BATTLE_OPTS - {"seed"}          # a battle's options (its retreat=, if given, is no value of the form's)


def battle_key(state: State, last: Any, streams: Sequence[str]) -> str:
    """Where a battle asked on ``state`` is fought: the session's most recent battle ``last`` (a
    battle kept since makes it another place) and the positions of the attacker's and the
    defender's dice (``streams``: a battle fought with the device's dice moves them)."""
    kept = json.dumps(last, sort_keys=True, ensure_ascii=False)
    at = [":".join(str(x) for x in load_rng(state, s).to_json()) for s in streams]
    return f"{KEY}:{':'.join(at)}:{hashlib.sha256(kept.encode()).hexdigest()[:24]}"


def values(req: Request) -> dict[str, Any]:
    """A battle request's values (raises BadArguments as ``battle`` would for a bad one)."""
    req.check_opts(_GIVEN)
    att, dfn = req.opt_int("att", lo=1, hi=MAX_UNITS), req.opt_int("def", lo=1, hi=MAX_UNITS)
    if att is None or dfn is None:
        raise BadArguments(Msg("Usage: undone-battle  (the battle an undo took back here, if any)."))
    band = req.opts.get("sacred-band")
    if band is not None and band.lower() not in SIDES:
        raise BadArguments(Msg("sacred-band= names the Carthaginian side that rolls 4 dice: att or def."))

    def dice(key: str) -> list[int] | None:
        raw = req.opts.get(key)
        if raw is None:
            return None
        out = [int(x) for x in raw.split(",") if x.strip().isdecimal()]
        return out if all(1 <= x <= 6 for x in out) and len(out) == len(raw.split(",")) else None
    return {"attackers": att, "defenders": dfn,
            "att_flank": req.opt_int("att-flank", 0, lo=0, hi=MAX_UNITS),
            "def_flank": req.opt_int("def-flank", 0, lo=0, hi=MAX_UNITS),
            "mod": req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True),
            "defmod": req.opt_int("defmod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True),
            "sacred_band": SIDES[band.lower()] if band is not None else None,
            "att_dice": dice("att-dice"), "def_dice": dice("def-dice")}


def _line(v: dict[str, Any]) -> str:
    """``undone-battle`` with the options of the battle of values ``v``."""
    band = {"attacker": "att", "defender": "def"}.get(v.get("sacred_band") or "", "")
    return words(UNDONE, f"att={v['attackers']}", f"def={v['defenders']}",
                 f"att-flank={v['att_flank']}" if v["att_flank"] else "",
                 f"def-flank={v['def_flank']}" if v["def_flank"] else "",
                 f"mod={v['mod']}", f"defmod={v['defmod']}", f"sacred-band={band}" if band else "",
                 f"att-dice={faces(v['att_dice'])}" if v["att_dice"] else "",
                 f"def-dice={faces(v['def_dice'])}" if v["def_dice"] else "")


BATTLE_USAGE = N_("Usage: undone-battle  (the battle an undo took back here, if any).")


def held(place: Callable[[State], str]) -> tuple[Held, Held]:
    """The ``battle`` command's :class:`Held` (its values, at its place, remembered when it is
    undone; nothing changes the battle asked) and ``undone-battle``'s (the latest values undone
    where the session stands put on its line). ``place(state)``: :func:`battle_key` there. A
    battle is held as a roll is (:func:`roll_held`)."""
    return roll_held(place, values, _line, BATTLE_USAGE)


def undone_battle(state: State, req: Request) -> Outcome:
    """``undone-battle``: ``battle``, the values of the battle an undo took back where the session
    stands (null when none was)."""
    if req.args:
        raise BadArguments(Msg(BATTLE_USAGE))
    return Outcome({"battle": values(req) if req.opts else None})


# -- a tactics test and a naval move an undo took back (W-1, W-8) -----------------------------------
# As a battle: ``undone-tactics`` answers the values of the tactics test an undo took back where the
# session stands (its rating, modifier, the test given by kind= and the die thrown on the table), and
# ``undone-naval`` those of a naval move (its modifier, a friendly port, Carthage's extra operations
# and the die), so that the device's form opens on them and a slip in one row is corrected in that
# row alone; asked again with the device's die it rolls the die it showed (undo never re-rolls).
UNDONE_TACTICS = "undone-tactics"
UNDONE_NAVAL = "undone-naval"
TACTICS_USAGE = N_("Usage: undone-tactics  (the tactics test an undo took back here, if any).")
NAVAL_USAGE = N_("Usage: undone-naval  (the naval move an undo took back here, if any).")
MAX_RATING = 9
MAX_EXTRA_OPS = 10


def roll_key(state: State, last: Any, stream: str | Sequence[str], name: str) -> str:
    """Where a roll named ``name`` asked on ``state`` is made: after the session's last roll ``last``
    (a roll kept since makes it another place) with its die's generator (``stream``; several: the
    2d6 checks, each kind rolled from its own) where it stands (a roll with the device's die moves it)."""
    kept = json.dumps(last, sort_keys=True, ensure_ascii=False)
    streams = [stream] if isinstance(stream, str) else list(stream)
    at = ":".join(str(x) for s in streams for x in load_rng(state, s).to_json())
    return f"sword-{name}-undone:{at}:{hashlib.sha256(kept.encode()).hexdigest()[:24]}"


def tactics_values(req: Request, kinds: Sequence[str]) -> dict[str, Any]:
    """A tactics request's values (raises BadArguments as ``tactics`` would for a bad one)."""
    req.check_opts(frozenset({"mod", "die", "kind"}))
    if len(req.args) != 1 or not req.args[0].isdecimal() or int(req.args[0]) > MAX_RATING:
        raise BadArguments(Msg(TACTICS_USAGE))
    kind = req.opts.get("kind")
    return {"rating": int(req.args[0]), "mod": req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True),
            "test": kind if kind in kinds else None, "die": req.opt_int("die", None, lo=1, hi=6)}


def tactics_line(v: dict[str, Any]) -> str:
    """``undone-tactics`` with the options of the test of values ``v``."""
    return words(UNDONE_TACTICS, v["rating"], f"mod={v['mod']}", f"kind={v['test']}" if v["test"] else "",
                 f"die={v['die']}" if v["die"] is not None else "")


def naval_values(req: Request) -> dict[str, Any]:
    """A naval move's values (raises BadArguments as ``naval`` would for a bad one)."""
    req.check_opts(frozenset({"mod", "die", "extra-ops", "friendly-port"}))
    if req.args:
        raise BadArguments(Msg(NAVAL_USAGE))
    return {"mod": req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True), "friendly_port": req.opt_flag("friendly-port"),
            "extra_ops": req.opt_int("extra-ops", 0, lo=0, hi=MAX_EXTRA_OPS), "die": req.opt_int("die", None, lo=1, hi=6)}


def naval_line(v: dict[str, Any]) -> str:
    """``undone-naval`` with the options of the naval move of values ``v``."""
    return words(UNDONE_NAVAL, f"mod={v['mod']}", "friendly-port=1" if v["friendly_port"] else "",
                 f"extra-ops={v['extra_ops']}" if v["extra_ops"] else "", f"die={v['die']}" if v["die"] is not None else "")


# -- a 2d6 check an undo took back (W-9) --------------------------------------------------------------
# ``undone-check`` answers the values of the 2d6 check an undo took back where the session stands (its
# table, its modifier, a siege by the Gauls and the dice thrown on the table), so that the dice entry
# opens on the faces entered for it, not on guesses; with the device's dice it rolls the dice it
# showed anyway (each table's dice from a stream of its own, which undo puts back).
UNDONE_CHECK = "undone-check"
CHECK_USAGE = N_("Usage: undone-check  (the 2d6 check an undo took back here, if any).")


def check_values(req: Request, kinds: Sequence[str]) -> dict[str, Any]:
    """A ``check`` request's values (raises BadArguments as ``check`` would for a bad one)."""
    req.check_opts(frozenset({"mod", "dice", "gauls"}))
    if len(req.args) != 1 or req.args[0].lower() not in kinds:
        raise BadArguments(Msg(CHECK_USAGE))
    raw = req.opts.get("dice")
    dice = [int(x) for x in raw.split(",") if x.strip().isdecimal()] if raw is not None else None
    if dice is not None and (len(dice) != 2 or not all(1 <= x <= 6 for x in dice)):
        dice = None
    return {"check": req.args[0].lower(), "mod": req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True),
            "gauls": req.opt_flag("gauls"), "dice": dice}


def check_line(v: dict[str, Any]) -> str:
    """``undone-check`` with the options of the check of values ``v``."""
    return words(UNDONE_CHECK, v["check"], f"mod={v['mod']}", "gauls=1" if v["gauls"] else "",
                 f"dice={faces(v['dice'])}" if v["dice"] else "")


def roll_held(place: Callable[[State], str], values: Callable[[Request], dict[str, Any]],
              line: Callable[[dict[str, Any]], str], usage: str) -> tuple[Held, Held]:
    """A roll's :class:`Held` (its ``values``, at its place, remembered when it is undone) and its
    ``undone-…`` command's (the latest values undone where the session stands put on its ``line``;
    typed words or options are refused with ``usage``: only the session's record gives them)."""
    def marks(before: State, req: Request) -> list[tuple[str, Any]]:
        try:
            return [(place(before), values(req))]
        except (LegatusError, KeyError, ValueError, TypeError):
            return []                                    # (a roll refused: nothing was rolled)

    def pin(state: State, req: Request, seen: Seen) -> str | None:
        for key in req.opts:                            # only the session's record gives them
            raise BadArguments(Msg("'{}' takes no options (not '{}').", req.command, key[:24]))
        if req.args:
            raise BadArguments(Msg(usage))
        try:
            kept = seen(place(state))
        except (KeyError, ValueError, TypeError):
            return None
        return line(kept[-1]) if kept else None

    return Held(marks, lambda state, req, seen: None), Held(lambda before, req: [], pin)


def undone_roll(field: str, values: Callable[[Request], dict[str, Any]]) -> Callable[[State, Request], Outcome]:
    """An ``undone-…`` command: ``field``, the values of the roll an undo took back where the session
    stands (null when none was)."""
    def handler(state: State, req: Request) -> Outcome:
        if not req.args and not req.opts:
            return Outcome({field: None})
        return Outcome({field: values(req)})
    return handler
