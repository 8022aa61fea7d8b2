"""The contract between a game and the session that runs it.

A game is a module-level ``GAME = GameRules(...)`` object. Its state is a plain JSON-serialisable
dict that holds its sources of chance as ``state["rng"]`` (``Draws.to_json()``: one generator per
named stream, engine/rng.py). The session:

- calls ``new(options, draws)`` for ``new <game> [options]`` (a :class:`~engine.rng.Draws`; a plain
  int seed is accepted too and means ``Draws.legacy(seed)``);
- for a mutating command, hands the handler a *copy* of the state; the handler changes that copy
  in place and returns an :class:`Outcome`; if it raises a :class:`~engine.errors.LegatusError`
  the copy is dropped, so nothing changes;
- journals every successful mutating command line and replays lines to rebuild the state, so a
  handler must be deterministic given (state, request): all randomness comes from ``state["rng"]``,
  each source of chance from its own stream (``load_rng(state, "<stream>")``, docs/fairness.md);
- answers ``state`` with ``view(state)`` (add any fields; ``game`` and ``actions`` are added by
  the session). A view never shows ``state["rng"]`` nor anything that predicts a draw (the order
  of a shuffled deck, tile stack or bag): what is hidden at the table stays hidden until the end.

Sessionless commands (``roll`` without a session, ``sword-tactics`` …) are ``GlobalCommand``s:
they get a fresh generator and return response fields.
"""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from engine.errors import BadArguments, BadJson
from engine.rng import Draws, Rng
from engine.text import Msg

State = dict[str, Any]


_NO_OPTS: Mapping[str, str] = MappingProxyType({})


MAX_JSON_DEPTH = 32   # positions and score sheets need 4 levels; deeper is junk
# Quotes a word processor, a messenger or a web page puts for " (and a Russian text's «»): a JSON
# argument copied from there does not parse, and where alone did not say why.
TYPOGRAPHIC_QUOTES = "“”„‟«»‘’‚‛″"


def _depth(value: Any) -> int:
    """How deeply lists/objects nest in ``value`` (iterative: never a RecursionError)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            if d > MAX_JSON_DEPTH:
                break
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def ascii_digits(line: str) -> str:
    """``line`` with every decimal digit of another script written as the ASCII digit it is: the
    one rule for a request's numbers in every game (docs/protocol.md, Framing). A laptop's IME in
    full-width mode types «strength=３», «dice=１,２,３», «roll 1d６»; Python's ``int()`` and the
    games' ``\\d`` read those digits already, so the line means what it says — but it was journaled,
    listed by ``actions`` and shown with the full-width characters. The console turns a request line
    to ASCII digits as it comes (firmware/console.py), so it is run, journaled and answered in ASCII;
    a stored line replays as it was stored (``int()`` reads it the same)."""
    if line.isascii():
        return line
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else c for c in line)


def whole_number(raw: str, asked: bool = True, signed: bool = False, key: str | None = None) -> int:
    """``raw`` read as a whole number by the console's one rule for numbers (docs/protocol.md,
    Framing): decimal digits 0-9 as a number is written — no leading zero, no ``_``, no space, and
    a sign only where the number is a change or a modifier (``signed``: ``+3``, ``-3``, ``-0``); ``-`` for
    a number below zero (a range check then says what is allowed). Raises ValueError (``int()``'s)
    for what is no number at all, so that the caller says what it needed; BadArguments for a number
    written otherwise in a request ``asked`` now (``+3``, ``03``, ``1_0`` for 3, 3, 10: Python's
    ``int()`` read them, and the journal kept them as typed). A stored line (not ``asked``) replays
    as it ran: ``int()``. ``key``: the option it is the value of (named in the refusal)."""
    value = int(raw)
    if not asked:
        return value
    typed = ascii_digits(raw)              # (a full-width «３» is 3: engine.game.ascii_digits)
    if typed == str(value) or (signed and typed[:1] in ("+", "-") and typed[1:] == str(abs(value))):
        return value
    shown, plain = (raw[:24], f"{value:+d}" if signed else str(value))
    if key is not None:
        shown, plain = f"{key}={shown}", f"{key}={plain}"
    if signed:
        raise BadArguments(Msg("'{}': write numbers in plain digits, with + or - in front: {} (no leading zero, "
                               "space or '_'); nothing was done.", shown, plain))
    raise BadArguments(Msg("'{}': write numbers in plain digits: {} (no '+', leading zero, space or '_'); nothing "
                           "was done.", shown, plain))


class Request(NamedTuple):
    """One parsed request line after the command word.

    ``args``: positional words; ``opts``: ``key=value`` words; ``rest``: the raw text after the
    command word (for commands that take JSON, e.g. ``position {...}``); ``asked``: a request asked
    now (the console, the device), not a stored line replayed — its numbers must be written by
    the one rule (:func:`whole_number`), a stored line's replay as they ran.
    """

    command: str
    args: tuple[str, ...] = ()
    opts: Mapping[str, str] = _NO_OPTS
    rest: str = ""
    asked: bool = False

    def number(self, raw: str, signed: bool = False, key: str | None = None) -> int:
        """``raw`` (a word or part of one of this request) as a whole number: :func:`whole_number`."""
        return whole_number(raw, self.asked, signed, key)

    def json(self) -> Any:
        """The rest of the line as JSON; raises BadJson with the parser's reason."""
        if not self.rest.strip():
            raise BadJson(Msg("'{}' needs a JSON argument.", self.command))
        try:
            value = json.loads(self.rest)
        except RecursionError:
            raise BadJson(Msg("'{}': the JSON is nested more than {} levels deep.", self.command, MAX_JSON_DEPTH)) from None
        except json.JSONDecodeError as e:    # where, not the parser's English reason (said in ru/uk too)
            curly = "".join(sorted({c for c in self.rest if c in TYPOGRAPHIC_QUOTES}, key=TYPOGRAPHIC_QUOTES.index))
            if curly:                        # (a text editor's, a messenger's or a web page's: copied from there)
                raise BadJson(Msg("'{}': the JSON does not parse (line {}, column {}): its quotes must be straight "
                                  "(\"), not {}.", self.command, e.lineno, e.colno, curly)) from None
            raise BadJson(Msg("'{}': the JSON does not parse (line {}, column {}).", self.command, e.lineno,
                              e.colno)) from None
        except ValueError:                   # (e.g. an integer too long to convert)
            raise BadJson(Msg("'{}': the JSON does not parse.", self.command)) from None
        if _depth(value) > MAX_JSON_DEPTH:
            raise BadJson(Msg("'{}': the JSON is nested more than {} levels deep.", self.command, MAX_JSON_DEPTH))
        return value

    def opt_int(self, key: str, default: int | None = None, lo: int | None = None,
                hi: int | None = None, signed: bool = False) -> int | None:
        """Integer option ``key``; raises BadArguments if not an integer (written by the one rule:
        :func:`whole_number`; ``signed``: ``+N`` too) or outside [lo, hi]."""
        if key not in self.opts:
            return default
        raw = self.opts[key]
        try:
            value = self.number(raw, signed, key)
        except ValueError:
            raise BadArguments(Msg("{}= needs a whole number, not '{}'.", key, raw[:24])) from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            if hi is None:
                raise BadArguments(Msg("{}= must be at least {}, not {}.", key, lo, value))
            if lo is None:
                raise BadArguments(Msg("{}= must be at most {}, not {}.", key, hi, value))
            raise BadArguments(Msg("{}= must be between {} and {}, not {}.", key, lo, hi, value))
        return value

    def opt_flag(self, key: str) -> bool:
        """``key=1|0|true|false|yes|no|on|off``; raises BadArguments otherwise."""
        raw = self.opts.get(key)
        if raw is None:
            return False
        low = raw.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise BadArguments(Msg("{}= takes 1 or 0, not '{}'.", key, raw[:24]))

    def check_opts(self, allowed: set[str] | frozenset[str]) -> None:
        """Raise BadArguments naming the first option not in ``allowed``."""
        for key in self.opts:
            if key not in allowed:
                if not allowed:
                    raise BadArguments(Msg("'{}' takes no options (not '{}').", self.command, key[:24]))
                raise BadArguments(Msg("'{}' has no option '{}' (options: {}).", self.command, key[:24],
                                       ", ".join(sorted(allowed))))


class Outcome(NamedTuple):
    """What a handler returns: response ``fields`` and, for a mutating command, a ``log`` sentence
    (``undo`` names the step with it)."""

    fields: dict[str, Any] = MappingProxyType({})  # type: ignore[assignment]
    log: str | None = None


Handler = Callable[[State, Request], Outcome]
GlobalHandler = Callable[[Request, Rng], dict[str, Any]]


class Command(NamedTuple):
    """A session command. ``mutates``: changes the state (journaled, undoable). ``admit``: a rule
    a request asked now must also keep, checked on the state before it (after the handler accepted
    the request; raises IllegalMove to refuse it) but not when a stored line is replayed: a session
    stored while the rule was not enforced (a draw taken again) still replays exactly.
    ``canonical``: the line a request asked now is run and stored as, given the state before it,
    so that requests meaning the same draw the same (a cup named in another order); stored lines
    replay as they were written. ``drawn``: for a command that draws where the table may give
    its own values instead (physical dice, a card drawn at the table), the :class:`Drawn` of a
    request on a state (read only): once the device has shown a draw, undo cannot turn it into
    values typed instead (firmware/shown.py). ``held``: the :class:`Held` of a command whose draw
    asked again lands on what was shown, whatever the state was made again as."""

    name: str
    handler: Handler
    mutates: bool
    usage: str = ""
    admit: Callable[[State, Request], None] | None = None
    canonical: Callable[[State, Request], str] | None = None
    drawn: Callable[[State, Request], Drawn | None] | None = None
    held: Held | None = None


Seen = Callable[[str], list[Any]]


class Held(NamedTuple):
    """How a command keeps what the device showed where it is asked again after an undo, when the
    state it draws from was made again another way (:attr:`Command.held`; firmware/shown.py):
    ``marks(before, req)``: the positions where the action ``req`` drew on the state ``before`` it
    (keys: a stream's name and generator state, and for a deck its pile) and what it saw there
    (plain JSON data); ``pin(state, req, seen)``: the line to run and store for ``req`` asked now
    on ``state`` so that it draws what was seen (``seen(key)``: what the undone actions saw there,
    oldest first), or None to run it as asked. Raises BadArguments if ``req`` types what only a
    stored line may give."""

    marks: Callable[[State, Request], list[tuple[str, Any]]]
    pin: Callable[[State, Request, Seen], str | None]


class Drawn(NamedTuple):
    """Where a request's draw comes from. ``source``: the position of the source's next draw (a
    stream's name and generator state, the top card of a deck): equal exactly when the device
    would show the same draw again; ``typed``: the request's options that give the table's values
    instead of the device's draw (empty: the device draws them all); ``kept``: the shape its draw
    is remembered with when it is undone, if not ``typed`` (a draw that binds only requests of that
    shape)."""

    source: str
    typed: frozenset[str]
    kept: frozenset[str] | None = None


def stream_drawn(stream: str, *typed: str) -> Callable[[State, Request], Drawn | None]:
    """:attr:`Command.drawn` of a command that draws from ``stream`` unless the options ``typed``
    give the table's values."""
    def drawn(state: State, req: Request) -> Drawn | None:
        try:
            position = load_rng(state, stream).to_json()
        except (KeyError, TypeError, ValueError):
            return None
        return Drawn(f"{stream}:{position[0]}:{position[1]}", frozenset(o for o in typed if o in req.opts))
    return drawn


class GlobalCommand(NamedTuple):
    """A command that needs no session; it gets a fresh generator."""

    name: str
    handler: GlobalHandler
    usage: str = ""


class GameRules(NamedTuple):
    """A game: ``name`` as typed after ``new``; ``title`` for people. ``language_options``: the
    ``new`` options whose default follows the language being spoken (Caesar!'s rules edition,
    Julius Caesar's J-2 Cleopatra rule), for a language code; the firmware adds those the line
    does not give to the line it stores, so that a replay gets the same game whatever the
    language is then (the engine never reads the language itself). Also an option the same in
    every language that marks a game started now, where a line stored without it keeps what an
    older version did (The Sword of Rome's ``rolls=apart``)."""

    name: str
    title: str
    new: Callable[[Request, Draws | int], State]
    view: Callable[[State], Mapping[str, Any]]     # a game's TypedDict (engine/<game>/views.py)
    commands: Mapping[str, Command]
    usage: str = ""
    global_commands: Mapping[str, GlobalCommand] = MappingProxyType({})
    language_options: Callable[[str], dict[str, str]] | None = None
    undone: Callable[[Any], Any] | None = None
    """The sentence of an undo of the step whose sentence is given, where the players must do more
    at the table than take the step back (Glory: turn the board back); None keeps
    ``Undone: <sentence>``."""
    undo_asked: Callable[[Any], Any] | None = None
    """The undo question's sentence (under "Undo?") for the step whose sentence is given, where a
    shorter one says what undo takes back (Julius Caesar's pick of a tied hit, whose sentence
    repeats the fire it belongs to, which undo leaves standing); None keeps ``Take back: <sentence>``."""
    admit_new: Callable[[Request], None] | None = None
    """A rule a ``new`` request asked now must also keep (the line as parsed, the game's name first
    among its args), checked after ``new`` accepted it (raises BadArguments to refuse it) but not
    when a stored session is rebuilt from its line or a filed game is reopened: a game stored while
    the rule was not enforced still resumes, as :attr:`Command.admit` does for a session's lines."""


def commands(*cmds: Command) -> dict[str, Command]:
    """Index commands by name."""
    return {c.name: c for c in cmds}


def load_draws(state: State) -> Draws:
    """The state's sources of chance (raises ValueError if missing or malformed)."""
    return Draws.from_json(state["rng"])


def store_draws(state: State, draws: Draws) -> None:
    state["rng"] = draws.to_json()


def load_rng(state: State, stream: str) -> Rng:
    """The generator of ``stream`` (raises ValueError if the state's is missing or malformed)."""
    return load_draws(state).stream(stream)


def store_rng(state: State, rng: Rng, stream: str) -> None:
    """Write the generator of ``stream`` back into the state after drawing."""
    draws = load_draws(state)
    draws.put(stream, rng)
    store_draws(state, draws)
