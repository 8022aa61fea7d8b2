"""A running session: ``(setup, seed, actions)`` replayed through a game's rules.

The session keeps the state after every effective action (as compact JSON), so undo is a pop
that restores the random generator with the rest of the state: undo never re-rolls. Nothing here
touches the disk; :mod:`firmware.store` journals what the session accepts.
"""
from __future__ import annotations

import json
from typing import Any

from engine import registry
from engine.errors import BadArguments, NothingToUndo, UnknownCommand
from engine.game import Command, GameRules, Outcome, Request, State

MAX_LOG = 500


def parse_line(text: str) -> Request:
    """Split a request line into command, positional words and ``key=value`` options.

    Raises BadArguments if an option is given twice (which one was meant is unclear)."""
    stripped = text.strip()
    command, _, rest = stripped.partition(" ")
    args: list[str] = []
    opts: dict[str, str] = {}
    for word in rest.split():
        key, eq, value = word.partition("=")
        if eq and key:
            if key in opts:
                raise BadArguments(f"Option {key[:24]}= is given twice; give it once.")
            opts[key] = value
        else:
            args.append(word)
    return Request(command=command, args=tuple(args), opts=opts, rest=rest.strip())


def _dumps(state: State) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Session:
    """One game session in memory. ``header`` is the journal's first record."""

    def __init__(self, game: GameRules, header: dict[str, Any], initial: State) -> None:
        self.game = game
        self.header = header
        self.lines: list[str] = []          # effective action lines, oldest first
        self.sentences: list[str] = []      # the log sentence of each effective action
        self._states: list[str | None] = [_dumps(initial)]
        self.log: list[str] = [f"New game: {game.title} ({header['line']})."]

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def start(cls, line: str, seed: int, sid: str) -> Session:
        """A new session from a ``new <game> ...`` line; raises LegatusError on bad options."""
        req = parse_line(line)
        if not req.args:
            raise BadArguments("Usage: new <game> [options]; games: " + ", ".join(sorted(registry.GAMES)) + ".")
        game = registry.game(req.args[0])
        sub = Request(command=f"new {game.name}", args=req.args[1:], opts=req.opts, rest=req.rest)
        initial = game.new(sub, seed)
        header = {"v": 1, "game": game.name, "line": line.strip(), "seed": seed, "sid": sid}
        return cls(game, header, initial)

    @classmethod
    def from_header(cls, header: dict[str, Any]) -> Session:
        """Rebuild the initial session from a journal header (deterministic)."""
        return cls.start(header["line"], header["seed"], header["sid"])

    # -- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """A fresh copy of the current state (callers may change it freely)."""
        return json.loads(self.state_json)

    @property
    def state_json(self) -> str:
        return self._state_json_at(len(self.lines))

    def view(self) -> dict[str, Any]:
        """What ``state`` answers: ``game``, ``actions`` and the game's own view."""
        return {"game": self.game.name, "actions": len(self.lines), **self.game.view(self.state)}

    def command(self, name: str) -> Command | None:
        from engine.common import SESSION_COMMANDS
        return self.game.commands.get(name) or SESSION_COMMANDS.get(name)

    def command_names(self) -> list[str]:
        from engine.common import SESSION_COMMANDS
        return list(self.game.commands) + [c for c in SESSION_COMMANDS if c not in self.game.commands]

    # -- changing ----------------------------------------------------------------------------
    def run(self, line: str) -> tuple[Outcome, str | None]:
        """Run a request line. For a mutating command, returns the outcome and the new state
        JSON *without committing it* (call :meth:`commit`); for a read-only one, ``None``.
        Raises LegatusError (nothing changes) or UnknownCommand if the game has no such command."""
        req = parse_line(line)
        cmd = self.command(req.command)
        if cmd is None:
            raise UnknownCommand(f"'{req.command}' is not a command of {self.game.title}; try 'help'.")
        state = self.state
        outcome = cmd.handler(state, req)
        if not cmd.mutates:
            return outcome, None
        return outcome, _dumps(state)

    def commit(self, line: str, outcome: Outcome, new_state_json: str) -> None:
        """Make a mutating command's result current (after it is on disk)."""
        sentence = outcome.log or f"{line.strip()}."
        self.lines.append(line.strip())
        self.sentences.append(sentence)
        self._states.append(new_state_json)
        self._add_log(sentence)

    def apply(self, line: str) -> Outcome:
        """Run and commit in one step (replay, tests); read-only commands just run."""
        outcome, new_json = self.run(line)
        if new_json is not None:
            self.commit(line, outcome, new_json)
        return outcome

    def check_undo(self) -> str:
        """The sentence of the step undo would take back; raises NothingToUndo."""
        if not self.lines:
            raise NothingToUndo("Nothing to undo: no action since the game started.")
        return self.sentences[-1]

    def undo(self) -> str:
        """Take back the last effective action; returns ``Undone: <its sentence>``."""
        sentence = self.check_undo()
        self.lines.pop()
        self.sentences.pop()
        self._states.pop()
        text = f"Undone: {sentence}"
        self._add_log(text)
        return text

    def _add_log(self, sentence: str) -> None:
        self.log.append(sentence)
        del self.log[:-MAX_LOG]

    def _state_json_at(self, i: int) -> str:
        """State after ``i`` effective actions, replaying from the nearest known state."""
        j = i
        while self._states[j] is None:
            j -= 1
        while j < i:
            req_line = self.lines[j]
            state = json.loads(self._states[j])  # type: ignore[arg-type]
            req = parse_line(req_line)
            cmd = self.command(req.command)
            assert cmd is not None and cmd.mutates
            cmd.handler(state, req)
            j += 1
            self._states[j] = _dumps(state)
        return self._states[i]  # type: ignore[return-value]

    # -- snapshots ---------------------------------------------------------------------------
    def snapshot(self, journal_records: int) -> dict[str, Any]:
        """Plain data to resume from without replaying: the current state and the step list."""
        return {"sid": self.header["sid"], "records": journal_records, "lines": self.lines,
                "sentences": self.sentences, "log": self.log[-MAX_LOG:], "state": self.state_json}

    def restore(self, snap: dict[str, Any]) -> None:
        """Adopt a snapshot taken from this session (earlier states are recomputed on demand)."""
        self.lines = list(snap["lines"])
        self.sentences = list(snap["sentences"])
        self.log = list(snap["log"])
        self._states = [self._states[0]] + [None] * len(self.lines)
        self._states[-1] = snap["state"]
