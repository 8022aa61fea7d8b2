"""The draws the device has shown: once it has shown a roll or a draw, no undo, restart or reopened
copy of the game lets the table type other values in its place (PROTOCOL.md: undo never re-rolls).

A command with a ``drawn`` rule (engine/game.py: Julius Caesar's ``fire``/``auto``/``fight``, the
Sword of Rome's rolls, Glory's ``event``) names the position of the draw a request takes
(``Drawn.source``: a stream's generator state, the top card of a deck) and the options that give
the table's values instead (``typed``: ``dice=``, ``att-dice=``, ``card=`` …). A position comes back
only by an undo (a generator never repeats itself; undo restores it), so every action undone that
drew is remembered with the options it was typed with (its *shape*) and its sentence (memory grows
with the undos, not with the session). A request
asked now at a remembered position with typed values is refused unless an action of that very
shape drew there: physical dice typed, undone and typed again are the table's dice (the device's
part, if any, draws what it showed before). A request the device draws whole is never refused: it
draws what was shown. Stored lines replayed are never refused (old sessions replay exactly).

The memory comes from the session's undos and, the first time a request needs it after a start,
a restart or a reopening, from the stored actions: this session's undone ones, as each undo row
keeps what its undo remembered (:func:`record`: read without a replay, so the first draw of a long
evening after a power cut does not wait for it; undo rows stored by an older Legatus keep nothing,
and the session is replayed up to the last of them that took back a draw), and every action of the
other copies of the game (the same ``new`` line, seed and draws' version: the archived game a copy
was reopened from, whose draws it replays) (firmware/store/resuming.py)."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from engine.errors import IllegalMove, LegatusError
from engine.game import Command, Request, State
from engine.text import Msg

log = logging.getLogger(__name__)

Mark = tuple[str, frozenset[str], Any]          # (source, shape, the sentence (Msg) of the action that drew)


class Seen(NamedTuple):
    """What an action saw at a position where it drew (``Command.held``: a bag's items, the cards
    taken from a deck's top), so that the same draw asked again lands on the same thing."""

    key: str
    value: Any


class Shown:
    """The positions where a session's undone actions drew (see the module)."""

    def __init__(self, parse: Callable[[str], Request]) -> None:
        self._parse = parse                                          # a stored line → its request
        self._marks: dict[str, tuple[set[frozenset[str]], Any]] = {}
        self._seen: dict[str, list[Any]] = {}                        # Seen: key → values, oldest first
        self.loader: Callable[[], Iterable[Mark | Seen]] | None = None   # the stored copies' marks (once)

    def remember(self, command: Callable[[str], Command | None], line: str, before: str, after: str,
                 sentence: Any, marks: list[Mark | Seen] | None = None) -> None:
        """The action ``line`` (its command looked up by ``command``), undone now, had taken the
        state from ``before`` to ``after`` (JSON): if it drew where its command's ``drawn`` names,
        remember it (``marks``: :meth:`marks_of` it, when already read)."""
        for mark in self.marks_of(command, line, before, after, sentence) if marks is None else marks:
            self._add(mark, latest=True)

    def marks_of(self, command: Callable[[str], Command | None], line: str, before: str, after: str,
                 sentence: Any) -> list[Mark | Seen]:
        """What :meth:`remember` remembers of the action ``line`` undone. A line that no longer
        parses is logged and left out (the undo goes on)."""
        try:
            req = self._parse(line)
        except LegatusError as e:
            log.warning("an undone action %r does not parse (%s): its draw is not remembered", line[:40], e)
            return []
        cmd = command(req.command)
        out: list[Mark | Seen] = []
        if cmd is not None and cmd.drawn is not None:
            mark = drew(cmd, req, json.loads(before), json.loads(after), sentence)
            if mark is not None:
                out.append(mark)
        return out + saw(cmd, req, before)

    def _add(self, mark: Mark | Seen, latest: bool = False) -> None:
        """Remember ``mark``; its sentence names the draw from then on if it is the ``latest``
        (an undo now), else only if none was remembered there (read back: older)."""
        if isinstance(mark, Seen):
            self._seen.setdefault(mark.key, []).append(mark.value)
            return
        source, shape, sentence = mark
        shapes, said = self._marks.get(source, (set(), sentence))
        shapes.add(shape)
        self._marks[source] = (shapes, sentence if latest else said)

    def _load(self) -> None:
        """Read the stored copies' marks, once (:attr:`loader`)."""
        if self.loader is not None:
            loader, self.loader = self.loader, None
            for mark in loader():
                self._add(mark)

    def pin(self, cmd: Command, req: Request, state: State) -> str | None:
        """The line to run and store for ``req`` asked now on ``state`` (read only) so that its draw
        lands where an undone action's landed (``Command.held``), or None to run it as asked.
        Raises BadArguments if the request types what only a stored line gives."""
        if cmd.held is None:
            return None
        self._load()
        return cmd.held.pin(state, req, lambda key: list(self._seen.get(key, ())))

    def admit(self, cmd: Command, req: Request, before: str) -> None:
        """The rules a request asked now must keep on the state ``before`` it (JSON) besides its
        handler's: its command's ``admit``, and no values typed where the device has shown its own
        draw for another shape of request (see the module). Raises IllegalMove."""
        if cmd.admit is not None:
            cmd.admit(json.loads(before), req)
        if cmd.drawn is None:
            return
        wanted = cmd.drawn(json.loads(before), req)
        if wanted is None or not wanted.typed:
            return
        self._load()
        found = self._marks.get(wanted.source)
        if found is None or wanted.typed in found[0]:
            return
        log.info("%s: typed values refused where the device has shown its draw", req.command)
        # the panel's first page (4 rows) says what and why, whole; what the device showed follows
        raise IllegalMove(Msg("The device has already shown this draw: undo never changes it.\n"
                              "Shown: {} Ask the device again: it gives the same.", found[1]))


def saw(cmd: Command | None, req: Request, before: str | State) -> list[Seen]:
    """What the action ``req`` (of ``cmd``) saw where it drew on the state ``before`` it (JSON or a
    state), for a command that keeps it (``Command.held``), else nothing."""
    if cmd is None or cmd.held is None:
        return []
    return [Seen(key, value) for key, value in cmd.held.marks(json.loads(before) if isinstance(before, str)
                                                                else before, req)]


def drew(cmd: Command | None, req: Request, before: State, after: State, sentence: Any) -> Mark | None:
    """The mark of an action that drew at the position its command's ``drawn`` names, else None."""
    if cmd is None or cmd.drawn is None:
        return None
    was, now = cmd.drawn(before, req), cmd.drawn(after, req)
    if was is None or (now is not None and now.source == was.source):
        return None
    return was.source, was.typed if was.kept is None else was.kept, sentence


def record(marks: list[Mark | Seen], said: str) -> str:
    """What an undo row keeps of the action it took back (its :meth:`Shown.marks_of`), so that a
    restart reads it without replaying the session (firmware/store/resuming.py): JSON, ``said``
    the undone action's sentence as its row stored it (``to_data`` JSON). Never empty (an undo
    row stored before these were kept holds nothing)."""
    out: dict[str, Any] = {"saw": [[m.key, m.value] for m in marks if isinstance(m, Seen)]}
    drawn = [[m[0], sorted(m[1])] for m in marks if not isinstance(m, Seen)]
    if drawn:
        out.update(drew=drawn, said=said)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def recorded(text: str, sentence: Callable[[str], Any]) -> list[Mark | Seen] | None:
    """The marks an undo row keeps (:func:`record`), the sentence read back by ``sentence``; None
    for an undo row that keeps none (stored before they were kept: its session is replayed) or
    whose record does not read (logged)."""
    if not text:
        return None
    try:
        data = json.loads(text)
        out: list[Mark | Seen] = [(str(source), frozenset(str(s) for s in shape), sentence(str(data["said"])))
                                  for source, shape in data.get("drew", ())]
        return out + [Seen(str(key), value) for key, value in data["saw"]]
    except (ValueError, KeyError, TypeError) as e:
        log.warning("an undo row's record of the draw it took back does not read (%s)", e)
        return None
