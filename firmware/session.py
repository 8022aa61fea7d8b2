"""A running session: ``(setup, seed, actions)`` replayed through a game's rules.

Memory stays bounded by the game's state size, not by the session's length: the session keeps the
current state and a *checkpoint* every ``CHECKPOINT_EVERY`` effective actions; any earlier state
(for undo) is the nearest checkpoint at or below it plus a replay of at most that many lines, and
the random generator is part of the state, so undo never re-rolls. Checkpoints beyond the last few
are dropped from memory once a ``loader`` (the store) can read them back. Nothing here touches the
disk; :mod:`firmware.store` commits what the session accepts.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine import registry
from engine.errors import BadArguments, LegatusError, NothingToUndo, UnknownCommand
from engine.game import Command, GameRules, Outcome, Request, State
from engine.text import Msg, N_

MAX_LOG = 500
CHECKPOINT_EVERY = 64          # effective actions between checkpoints (replay ≤ 63 lines)
CHECKPOINTS_IN_RAM = 4         # the newest checkpoints kept in memory when a loader exists

# The games' titles as people read them (the catalogs translate them in log sentences).
TITLES = (N_("Dice & bags"), N_("Dice"), N_("Caesar! solo (Auto-Crassus)"), N_("Caesar! two players"),
          N_("For the Glory of Rome"), N_("Julius Caesar battle"), N_("The Sword of Rome"))


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
                raise BadArguments(Msg("Option {}= is given twice; give it once.", key[:24]))
            opts[key] = value
        else:
            args.append(word)
    return Request(command=command, args=tuple(args), opts=opts, rest=rest.strip())


def dumps(state: State) -> str:
    """The canonical JSON of a state (sorted keys, compact)."""
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def undone_sentence(sentence: Any) -> Msg:
    return Msg("Undone: {}", said(sentence))


class Stored(str):
    """A sentence as stored (``to_data`` JSON), turned back into a Msg only when it is read:
    a long session restarts without decoding every sentence."""


def said(sentence: Any) -> Any:
    """The sentence itself (a Msg or text), decoding a :class:`Stored` one."""
    if isinstance(sentence, Stored):
        from engine.text import from_data
        try:
            return from_data(json.loads(sentence))
        except ValueError:
            return str(sentence)
    return sentence


class Session:
    """One game session in memory. ``header``: ``game``, ``line`` (the ``new`` line), ``seed``,
    ``sid`` and, when the seed was drawn in secret, ``committed``."""

    def __init__(self, game: GameRules, header: dict[str, Any], initial: State) -> None:
        self.game = game
        self.header = header
        self.lines: list[str] = []          # effective action lines, oldest first
        self.sentences: list[Any] = []      # the log sentence (Msg or str) of each effective action
        self._current = dumps(initial)
        self._checkpoints: dict[int, str] = {0: self._current}   # depth -> state JSON (sparse)
        self.loader: Callable[[int], str | None] | None = None   # older checkpoints, from storage
        self.log: list[Any] = [Msg("New game: {}.", Msg(game.title))]

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def start(cls, line: str, seed: int, sid: str, committed: bool = False) -> Session:
        """A new session from a ``new <game> ...`` line; raises LegatusError on bad options."""
        req = parse_line(line)
        if not req.args:
            raise BadArguments(Msg("Usage: new <game> [options]; games: {}.", ", ".join(sorted(registry.GAMES))))
        game = registry.game(req.args[0])
        sub = Request(command=f"new {game.name}", args=req.args[1:], opts=req.opts, rest=req.rest)
        initial = game.new(sub, seed)
        header: dict[str, Any] = {"v": 1, "game": game.name, "line": line.strip(), "seed": seed, "sid": sid}
        if committed:
            header["committed"] = True
        return cls(game, header, initial)

    @classmethod
    def from_header(cls, header: dict[str, Any]) -> Session:
        """Rebuild the initial session from a stored header (deterministic)."""
        return cls.start(header["line"], header["seed"], header["sid"], bool(header.get("committed")))

    # -- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """A fresh copy of the current state (callers may change it freely)."""
        return json.loads(self._current)

    @property
    def state_json(self) -> str:
        return self._current

    def view(self) -> dict[str, Any]:
        """What ``state`` answers: ``game``, ``actions``, the fair-draw ``commitment`` (when the
        seed is secret) and the game's own view."""
        out: dict[str, Any] = {"game": self.game.name, "actions": len(self.lines)}
        if self.header.get("committed"):
            from firmware.fairness import commitment
            out["commitment"] = commitment(int(self.header["seed"]))
        out.update(self.game.view(self.state))
        return dict(out)

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
            raise UnknownCommand(Msg("'{}' is not a command of {}; try 'help'.", req.command[:40], Msg(self.game.title)))
        state = self.state
        outcome = cmd.handler(state, req)
        if not cmd.mutates:
            return outcome, None
        return outcome, dumps(state)

    def detached(self, line: str) -> Callable[[], dict[str, Any]] | None:
        """A job answering the read-only command ``line`` from a copy of the state as it is now,
        safe to run on another thread (firmware/worker.py): it returns the outcome's fields or
        raises as :meth:`run` would. None when ``line`` does not parse or is not a read-only
        command of this game (run it here instead)."""
        try:
            req = parse_line(line)
        except LegatusError:
            return None
        cmd = self.command(req.command)
        if cmd is None or cmd.mutates:
            return None
        snapshot = self._current

        def job() -> dict[str, Any]:
            return dict(cmd.handler(json.loads(snapshot), req).fields)
        return job

    def sentence_of(self, line: str, outcome: Outcome) -> Any:
        return outcome.log or Msg("{}.", line.strip())

    def checkpoint_due(self) -> bool:
        """Whether the action about to be committed lands on a checkpoint depth."""
        return (len(self.lines) + 1) % CHECKPOINT_EVERY == 0

    def commit(self, line: str, outcome: Outcome, new_state_json: str) -> None:
        """Make a mutating command's result current (after it is on disk)."""
        sentence = self.sentence_of(line, outcome)
        self.lines.append(line.strip())
        self.sentences.append(sentence)
        self._current = new_state_json
        depth = len(self.lines)
        if depth % CHECKPOINT_EVERY == 0:
            self._checkpoints[depth] = new_state_json
            self._trim()
        self._add_log(sentence)

    def apply(self, line: str) -> Outcome:
        """Run and commit in one step (replay, tests); read-only commands just run."""
        outcome, new_json = self.run(line)
        if new_json is not None:
            self.commit(line, outcome, new_json)
        return outcome

    def check_undo(self) -> Any:
        """The sentence of the step undo would take back; raises NothingToUndo."""
        if not self.lines:
            raise NothingToUndo(Msg("Nothing to undo: no action since the game started."))
        return said(self.sentences[-1])

    def undo(self) -> Msg:
        """Take back the last effective action; returns ``Undone: <its sentence>``."""
        sentence = self.check_undo()
        previous = self._state_json_at(len(self.lines) - 1)
        self.lines.pop()
        self.sentences.pop()
        self._checkpoints = {d: s for d, s in self._checkpoints.items() if d <= len(self.lines)}
        self._current = previous
        text = undone_sentence(sentence)
        self._add_log(text)
        return text

    def _add_log(self, sentence: Any) -> None:
        self.log.append(sentence)
        del self.log[:-MAX_LOG]

    def _trim(self) -> None:
        """Keep depth 0 and the newest checkpoints in memory once the store can read the rest."""
        if self.loader is None:
            return
        keep = sorted(self._checkpoints)[-CHECKPOINTS_IN_RAM:]
        self._checkpoints = {d: self._checkpoints[d] for d in {0, *keep}}

    def _state_json_at(self, i: int) -> str:
        """State after ``i`` effective actions: the nearest checkpoint at or below plus replay."""
        if i == len(self.lines):
            return self._current
        j = i - i % CHECKPOINT_EVERY
        while True:                       # depth 0 is always in memory, so this ends
            base = self._checkpoints.get(j)
            if base is None and j > 0 and self.loader is not None:
                base = self.loader(j)
            if base is not None:
                break
            j -= CHECKPOINT_EVERY
        state = json.loads(base)
        for req_line in self.lines[j:i]:
            req = parse_line(req_line)
            cmd = self.command(req.command)
            assert cmd is not None and cmd.mutates
            cmd.handler(state, req)
        return dumps(state)

    # -- rebuilding ----------------------------------------------------------------------------
    def rebuild(self, lines: list[str], sentences: list[Any], log: list[Any],
                checkpoints: dict[int, str]) -> None:
        """Adopt stored effective ``lines`` (with their ``sentences``) and the valid
        ``checkpoints`` (depth -> state JSON); the current state is replayed from the newest
        checkpoint. Raises LegatusError/ValueError if a line no longer replays."""
        self.lines = list(lines)
        self.sentences = list(sentences)
        self.log = (self.log[:1] + list(log))[-MAX_LOG:]
        self._checkpoints = {0: self._checkpoints[0], **{d: s for d, s in checkpoints.items()
                                                         if 0 < d <= len(self.lines) and d % CHECKPOINT_EVERY == 0}}
        top = max(self._checkpoints)
        state = json.loads(self._checkpoints[top])
        for req_line in self.lines[top:]:
            req = parse_line(req_line)
            cmd = self.command(req.command)
            if cmd is None or not cmd.mutates:
                raise ValueError(Msg("stored action {} is not a change of {}", repr(req_line[:40]), self.game.name))
            cmd.handler(state, req)
        self._current = dumps(state)
        self._trim()
