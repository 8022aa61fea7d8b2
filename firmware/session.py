"""A running session: ``(setup, seed, actions)`` replayed through a game's rules.

Its draws come from the seed (and the players' share) by the derivation of the header's version
``v`` (engine/rng.py, docs/fairness.md): 2 for sessions started now, 1 for those stored before the
streams existed (one generator, exactly as they were). Besides its game's commands a session has
``share <text>`` (the players' share, before anything is drawn) and ``end`` (the session is over:
nothing more is drawn, the seed may be revealed); both are journaled actions like any other.

Memory stays bounded by the game's state size, not by the session's length: the session keeps the
current state and a *checkpoint* every ``CHECKPOINT_EVERY`` effective actions; any earlier state
(for undo) is the nearest checkpoint at or below it plus a replay of at most that many lines, and
the random generator is part of the state, so undo never re-rolls. Checkpoints beyond the last few
are dropped from memory once a ``loader`` (the store) can read them back. Nothing here touches the
disk; :mod:`firmware.store` commits what the session accepts.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import registry
from engine.errors import BadArguments, IllegalMove, LegatusError, NothingToUndo, UnknownCommand
from engine.game import Command, GameRules, Outcome, Request, State
from engine.rng import DRAWS_VERSION, Draws, check_share, commitment
from engine.text import Msg, N_, to_data
from firmware.games import finished_by_rules
from firmware import shown
from firmware.log_sentences import Stored, said, undone_sentence
from firmware.people_arg import parse_people
from firmware.shown import Mark, Seen, Shown
# a session's effective actions (offered here too, where they were)
from firmware.trail import TRAIL_CHUNK as TRAIL_CHUNK, Column as Column, Entry as Entry, Older as Older, Trail as Trail

log = logging.getLogger(__name__)

MAX_LOG = 500
CHECKPOINT_EVERY = 64          # effective actions between checkpoints (replay ≤ 63 lines)
CHECKPOINTS_IN_RAM = 4         # the newest checkpoints kept in memory when a loader exists

# The games' titles as people read them (the catalogs translate them in log sentences).
TITLES = (N_("Dice & bags"), N_("Dice"), N_("Caesar! solo (Auto-Crassus)"), N_("Caesar! two players"),
          N_("For the Glory of Rome"), N_("Julius Caesar battle"), N_("The Sword of Rome"))


def parse_line(text: str, asked: bool = False) -> Request:
    """Split a request line into command, positional words and ``key=value`` options. ``asked``:
    a request asked now, not a stored line (its numbers by the one rule: engine.game.whole_number).

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
    return Request(command=command, args=tuple(args), opts=opts, rest=rest.strip(), asked=asked)


def with_language_options(line: str, lang: str) -> str:
    """``line`` (a ``new <game> ...`` line) with the options its game takes from the language
    being spoken (``GameRules.language_options``: Caesar!'s edition, Julius Caesar's Cleopatra rule)
    added where the line does not give them, so that the stored line replays the same game in any
    language later. A line that does not parse or names no such game comes back unchanged."""
    try:
        req = parse_line(line)
        rules = registry.game(req.args[0]) if req.args else None
    except LegatusError:
        return line
    if rules is None or rules.language_options is None:
        return line
    extra = [f"{k}={v}" for k, v in rules.language_options(lang).items() if k not in req.opts]
    return " ".join([line.strip(), *extra]) if extra else line


def dumps(state: State) -> str:
    """The canonical JSON of a state (sorted keys, compact)."""
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


END = "end"                    # the action line that ends a session
FAIR_NAMES = ("share", END)    # session commands of every game (besides engine/common.py's)
SESSION_OPTIONS = ("share", "people")    # ``new`` options of every game, the session's own


class Session:
    """One game session in memory. ``header``: ``v`` (the draws' derivation), ``game``, ``line``
    (the ``new`` line, with ``share=`` when the players' share came with it), ``seed``, ``sid``,
    when the seed was drawn in secret, ``committed``, and for a copy reopened from Earlier games,
    ``reopened`` and ``copy_of`` (the ``sid`` of the session the game was first played in)."""

    def __init__(self, game: GameRules, header: dict[str, Any], initial: State) -> None:
        self.game = game
        self.header = header
        self.trail = Trail()                # the effective actions, oldest first (lines, sentences)
        self._current = dumps(initial)
        self._checkpoints: dict[int, str] = {0: self._current}   # depth -> state JSON (sparse)
        self.loader: Callable[[int], str | None] | None = None   # older checkpoints, from storage
        self.log: list[Any] = [Msg("New game: {}.", Msg(game.title))]
        self.again: list[str] = []          # an archived session's lines, to be given again (reopened)
        self.shown = Shown(parse_line)      # where undone actions drew (no typed values there)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def start(cls, line: str, seed: int, sid: str, committed: bool = False, version: int = DRAWS_VERSION,
              tape: list[list[Any]] | None = None, asked: bool = False) -> Session:
        """A new session from a ``new <game> ... [share=<text>]`` line; raises LegatusError on
        bad options. ``version``: the draws' derivation (1 only for sessions stored before
        version 2); ``tape``: make a draw record (firmware/fairness.py); ``asked``: a ``new`` asked
        now, not a stored one (its numbers by the one rule: engine.game.whole_number)."""
        req = parse_line(line, asked)
        if not req.args:
            raise BadArguments(Msg("Usage: new <game> [options]; games: {}.", ", ".join(sorted(registry.GAMES))))
        game = registry.game(req.args[0])
        share = req.opts.get("share")
        if share is not None:
            problem = check_share(share)
            if problem is not None:
                raise BadArguments(problem)
            if version < 2:
                raise BadArguments(Msg("share= needs a session of version 2 or later."))
        opts = {k: v for k, v in req.opts.items() if k not in SESSION_OPTIONS}
        sub = Request(command=f"new {game.name}", args=req.args[1:], opts=opts, rest=req.rest, asked=asked)
        draws = Draws.keyed(seed, share or "") if version >= 2 else Draws.legacy(seed)
        if tape is not None:
            draws.record(tape)
        initial = game.new(sub, draws)
        if "people" in req.opts:
            parse_people(game.name, req.opts["people"], game.view(initial), asked)
        header: dict[str, Any] = {"v": version, "game": game.name, "line": line.strip(), "seed": seed, "sid": sid}
        if committed:
            header["committed"] = True
        return cls(game, header, initial)

    @classmethod
    def from_header(cls, header: dict[str, Any], tape: list[list[Any]] | None = None) -> Session:
        """Rebuild the initial session from a stored header (deterministic; a reopened game's
        ``reopened`` mark and ``copy_of`` are kept)."""
        session = cls.start(header["line"], header["seed"], header["sid"], bool(header.get("committed")),
                            int(header.get("v", 1)), tape)
        if header.get("reopened"):
            session.header["reopened"] = True
        if header.get("copy_of"):
            session.header["copy_of"] = header["copy_of"]
        return session

    # -- reading -----------------------------------------------------------------------------
    @property
    def lines(self) -> Column:
        """The effective action lines, oldest first (a list-like view of the :class:`Trail`)."""
        return self.trail.lines

    @property
    def sentences(self) -> Column:
        """The log sentence (Msg, str or a :class:`~firmware.log_sentences.Stored` one) of each effective action."""
        return self.trail.sentences

    @property
    def state(self) -> State:
        """A fresh copy of the current state (callers may change it freely)."""
        state: State = json.loads(self._current)
        return state

    state_json = property(lambda self: self._current, doc="The current state's JSON.")

    def view(self) -> dict[str, Any]:
        """What ``state`` answers: ``game``, ``actions``, the fair draw (``commitment`` or null, ``share`` or
        null, ``ended``: null while the game runs, then ``finished``/``ended``), ``over`` (no more moves, by its
        rules or ``end``), ``people`` (side → person, ``people=``) and the game's view (never the draws' state)."""
        state = self.state
        game_view = self.game.view(state)
        out: dict[str, Any] = {"game": self.game.name, "actions": len(self.lines),
                               "commitment": commitment(int(self.header["seed"])) if self.committed else None,
                               "share": self.share_of(state), "ended": self.ended_as(game_view),
                               "over": self.ended or self.over_by_rules(game_view), "people": self.people}
        out.update(game_view)
        return dict(out)

    @property
    def people(self) -> dict[str, str]:
        """Side → the person who plays it, as the ``new`` line named them (``people=``)."""
        raw = parse_line(str(self.header.get("line", ""))).opts.get("people")
        if raw is None:
            return {}
        try:
            return parse_people(self.game.name, raw, None)
        except BadArguments:
            log.warning("the stored people= of session %s does not read back", self.header.get("sid"))
            return {}

    @property
    def committed(self) -> bool:
        """Whether the seed is secret (drawn by the device and committed to)."""
        return bool(self.header.get("committed"))

    @staticmethod
    def share_of(state: State) -> str | None:
        """The players' share the draws come from (None: none, or a session before version 2)."""
        data = state.get("rng")
        share = data.get("share") if isinstance(data, dict) and data.get("v") == 2 else None
        return share if isinstance(share, str) and share else None

    @property
    def ended(self) -> bool:
        """Whether ``end`` ended the session (its last effective action: nothing follows it)."""
        return bool(self.lines) and self.lines[-1] == END

    def ended_as(self, game_view: Mapping[str, Any] | None = None) -> str | None:
        """None while the session runs; once ended, ``finished`` (its rules had ended it) or ``ended``."""
        return ("finished" if self.over_by_rules(game_view) else "ended") if self.ended else None

    def over_by_rules(self, game_view: Mapping[str, Any] | None = None) -> bool:
        """Whether the game's own rules ended it (C-12 …): no more moves; undo reopens it until ``reveal``."""
        view = self.game.view(self.state) if game_view is None else game_view
        return finished_by_rules(self.game.name, view, self.lines[:-1] if self.ended else self.lines)

    def command(self, name: str) -> Command | None:
        from engine.common import SESSION_COMMANDS
        found = self.game.commands.get(name) or SESSION_COMMANDS.get(name)
        if found is None and name in FAIR_NAMES:
            found = self._share_command() if name == "share" else Command(END, self._end, True, "end")
        return found

    def command_names(self) -> list[str]:
        from engine.common import SESSION_COMMANDS
        names = list(self.game.commands) + [c for c in SESSION_COMMANDS if c not in self.game.commands]
        return names + [c for c in FAIR_NAMES if c not in names]

    # -- the fair-draw commands of every session -------------------------------------------------
    def _share_command(self) -> Command:
        def share(state: State, req: Request) -> Outcome:
            """``share <text>``: the players' share; every draw then comes from the committed
            secret and it (docs/fairness.md). Only before anything is drawn, once, and only when
            the seed is secret."""
            text = req.rest.strip()
            if not text:
                raise BadArguments(Msg("Usage: share <text>  (1 to 64 printable characters, one word)."))
            problem = check_share(text)
            if problem is not None:
                raise BadArguments(problem)
            if not self.committed:
                raise IllegalMove(Msg("This session was started with seed=: its draws are fixed and take no share."))
            draws = Draws.from_json(state["rng"])
            if draws.is_legacy:
                raise IllegalMove(Msg("This session was stored by an older Legatus: its draws take no share."))
            if draws.share:
                raise IllegalMove(Msg("The players' share is given already ({}); it is given once.", draws.share))
            if draws.drawn():
                raise IllegalMove(Msg("Something has been drawn already, so a share now would change nothing fairly; "
                                      "for a game that draws at set-up, send commit, then new ... share=<text>."))
            fresh = Draws.keyed(draws.secret, text)
            if draws.tape is not None:
                fresh.record(draws.tape)
            state["rng"] = fresh.to_json()
            return Outcome({"share": text}, Msg("The players' share is {}.", text))
        return Command("share", share, True, "share <text>  (the players' share, before the first draw)")

    def _end(self, state: State, req: Request) -> Outcome:
        """``end``: the session is over (History files it); nothing more is drawn."""
        if req.args or req.opts:
            raise BadArguments(Msg("'{}' takes no arguments.", END))
        finished = finished_by_rules(self.game.name, self.game.view(state), self.lines)
        return Outcome({"ended": "finished" if finished else "ended"},
                       Msg("The game is over and ended.") if finished else Msg("The players ended the game."))

    # -- changing ----------------------------------------------------------------------------
    def run(self, line: str, asked: bool = False) -> tuple[Outcome, str | None]:
        """Run a request line. For a mutating command, returns the outcome and the new state
        JSON *without committing it* (call :meth:`commit`); for a read-only one, ``None``.
        ``asked``: a request asked now (the console, the device), not a stored line replayed: its
        command's ``admit`` and firmware/shown.py's rules apply too (no draw taken again in the same
        rules step, no values typed where a draw was shown; numbers written by the one rule). Raises
        LegatusError or UnknownCommand."""
        req = parse_line(line, asked)
        cmd = self.command(req.command)
        if cmd is None:
            raise UnknownCommand(Msg("'{}' is not a command of {}; try 'help'.", req.command[:40], Msg(self.game.title)))
        state = self.state
        outcome = cmd.handler(state, req)
        if asked:
            self.shown.admit(cmd, req, self._current)
        if not cmd.mutates:
            return outcome, None
        return outcome, dumps(state)

    def as_asked(self, line: str) -> str:
        """The line a request asked now is run and stored as: its command's ``canonical`` form
        (requests that mean the same draw the same), else ``line`` (also when it does not parse);
        then, for a draw asked again where an undone one drew, with what makes it land on what was
        shown (firmware/shown.py ``pin``: a bag made again, a deck shuffled). Raises BadArguments
        for what only a stored line may give."""
        try:
            req = parse_line(line)
        except LegatusError as e:
            log.debug("%r does not parse (%s): run says why", line[:40], e)
            return line
        cmd = self.command(req.command)
        if cmd is None or (cmd.canonical is None and cmd.held is None):
            return line
        state = self.state
        if cmd.canonical is not None:
            line = cmd.canonical(state, req)
        if cmd.held is None:
            return line
        return self.shown.pin(cmd, parse_line(line), state) or line

    def given_again(self, line: str) -> bool:
        """Whether ``line`` is the next of the archived lines a reopened session is given again
        (``again``): replayed as stored, so ``run`` is not ``asked`` (a rule the stored game was
        not held to, e.g. a second draw of a turn, does not stop it). Any other change ends it (a
        question asked in between does not)."""
        if self.again and self.again[0] == line.strip():
            del self.again[0]
            return True
        try:
            cmd = self.command(parse_line(line).command)
        except LegatusError as e:
            log.debug("%r does not parse (%s): not an archived line", line[:40], e)
            cmd = None
        if cmd is not None and cmd.mutates:
            self.again.clear()
        return False

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

    def commit(self, line: str, outcome: Outcome, new_state_json: str, seq: int = 0) -> None:
        """Make a mutating command's result current (after it is on disk as row ``seq``)."""
        sentence = self.sentence_of(line, outcome)
        self.trail.append(seq, line.strip(), sentence)
        self._current = new_state_json
        depth = len(self.lines)
        if depth % CHECKPOINT_EVERY == 0:
            self._checkpoints[depth] = new_state_json
            self._trim()
        self._add_log(sentence)

    def apply(self, line: str, asked: bool = False) -> Outcome:
        """Run and commit in one step (replay, tests); read-only commands just run."""
        outcome, new_json = self.run(line, asked)
        if new_json is not None:
            self.commit(line, outcome, new_json)
        return outcome

    def check_undo(self) -> Any:
        """The sentence of the step undo would take back; raises NothingToUndo."""
        if not self.lines:
            raise NothingToUndo(Msg("Nothing to undo: no action since the game started."))
        if self.lines[-1].startswith("share "):      # another share would draw again what was seen
            raise IllegalMove(Msg("The players' share is final: undo does not take it back, since draws made "
                                  "from it may have been seen and another share would draw them again."))
        return said(self.sentences[-1])

    def undos(self, n: int = 1) -> list[tuple[tuple[Any, str], list[Mark | Seen], str]]:
        """For the newest ``n`` effective actions (one key's steps), newest first, read without a change: what
        :meth:`undo` takes (its sentence, the state before it), its draw and that as its undo row keeps it
        (firmware/shown.py ``record``). The newest raises NothingToUndo, IllegalMove (a share) or DamagedRecord
        (an older action it must replay is unreadable); an older one unreadable, or a share, ends the list."""
        out: list[tuple[tuple[Any, str], list[Mark | Seen], str]] = []
        after, first = self._current, self.check_undo()
        for i in range(len(self.lines) - 1, max(len(self.lines) - n, 0) - 1, -1):
            try:
                if out and self.lines[i].startswith("share "):
                    break
                sentence, previous, raw = first if not out else said(self.sentences[i]), self._state_json_at(i), self.sentences[i]
            except (LegatusError, LookupError) as e:
                if not out:
                    raise
                log.warning("action %s cannot be read (%s): the undo takes back the %s after it", i + 1, e, len(out))
                break
            marks = self.shown.marks_of(self.command, self.lines[i], previous, after, sentence)
            out.append(((sentence, previous), marks, shown.record(marks, str(raw) if isinstance(raw, Stored) else
                                                                  json.dumps(to_data(raw), ensure_ascii=False))))
            after = previous
        return out

    def undo(self, before: tuple[Any, str] | None = None, marks: list[Mark | Seen] | None = None) -> Msg:
        """Take back the last effective action; returns ``Undone: <its sentence>``. ``before`` and ``marks``:
        what :meth:`undos` read (the store reads it before it stores the undo)."""
        before, marks, _kept = self.undos(1)[0] if before is None else (before, marks, "")
        sentence, previous = before
        self.shown.remember(self.command, self.lines[-1], previous, self._current, sentence, marks)
        self.trail.pop()
        self._checkpoints = {d: s for d, s in self._checkpoints.items() if d <= len(self.lines)}
        self._current = previous
        text = undone_sentence(sentence, self.game)
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
    def rebuild(self, lines: Sequence[str], sentences: Sequence[Any], log: list[Any],
                checkpoints: dict[int, str]) -> None:
        """Adopt stored effective ``lines`` (with their ``sentences``) and the valid
        ``checkpoints`` (depth -> state JSON); the current state is replayed from the newest
        checkpoint. Raises LegatusError/ValueError if a line no longer replays."""
        self.adopt(Trail([(0, line, sentence) for line, sentence in zip(lines, sentences, strict=True)]), log,
                   checkpoints)

    def adopt(self, trail: Trail, log: list[Any], checkpoints: dict[int, str]) -> None:
        """As :meth:`rebuild`, from a :class:`Trail` that may hold only the newest actions: it
        must hold every one after the newest of ``checkpoints``."""
        self.trail = trail
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
