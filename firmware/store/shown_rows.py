"""What a stored session's rows say of the draws its undone actions showed (firmware/shown.py), read
back after a restart (firmware/store/resuming.py ``_shown_loader``): kept by each undo row
(:func:`undone_marks`), or, for rows stored by an older Legatus and for the copies of a game
reopened from Earlier games, found by replaying the session's rows (:func:`marks_of`)."""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from engine.errors import LegatusError
from engine.game import Command, Request
from firmware import shown
from firmware.log_sentences import Stored, said
from firmware.session import Session, parse_line
from firmware.shown import Mark, Seen
from firmware.storage import crc
from firmware.store.schema import ACTION_ROW, _text

log = logging.getLogger(__name__)


def marks_of(replay: Session, rows: Sequence[tuple[str, str, str]], undone_only: bool) -> list[Mark | Seen]:
    """The marks (firmware/shown.py) of a stored session's actions (``kind``, ``line``, sentence
    JSON) replayed in ``replay`` (that session fresh from its header), an undo going back to the
    state before: those of its undone actions, and with not ``undone_only`` (another copy of the
    game, whose draws this one may reach again) those of its standing ones too. Only a game that
    draws where the table may type is replayed; a row that does not replay ends the reading there
    (logged: what was read is kept)."""
    commands = [replay.command(name) for name in replay.command_names()]      # (the side kit's too)
    if not any(c is not None and (c.drawn is not None or c.held is not None) for c in commands):
        return []
    if undone_only:                                   # replayed only up to the last undo of a draw
        rows = rows[:last_undone_draw(replay, rows)]
    if not rows:
        return []
    out: list[Mark | Seen] = []
    state = replay.state
    before: list[tuple[str, Mark | None, Command, Request]] = []   # each standing action: the state before it,
                                                                  # its mark, its command and request
    try:
        for kind, line, sentence in rows:
            if kind == "undo":
                if before:
                    was, mark, took, asked = before.pop()
                    state = json.loads(was)
                    if undone_only:
                        out += [*([mark] if mark is not None else []), *shown.saw(took, asked, was)]
                continue
            req = parse_line(line)
            cmd = replay.command(req.command)
            if cmd is None or not cmd.mutates:
                raise ValueError(f"{req.command[:40]!r} is not a change of {replay.game.name}")
            was = json.dumps(state)
            cmd.handler(state, req)
            mark = shown.drew(cmd, req, json.loads(was), state, said(Stored(sentence)))
            before.append((was, mark, cmd, req))
            if not undone_only:
                out += [*([mark] if mark is not None else []), *shown.saw(cmd, req, was)]
    except (LegatusError, ValueError, KeyError, TypeError) as e:
        log.warning("a stored copy of %s does not replay to read the draws it showed (%s)", replay.game.name, e)
    return out


def last_undone_draw(replay: Session, rows: Sequence[tuple[str, str, str]], kept: frozenset[int] = frozenset()) -> int:
    """How many of ``rows`` lead up to the last undo that took back an action whose command draws
    (``Command.drawn``), read from the lines alone (no state): 0 when none did, so that a long
    session whose undos took back no draw is not replayed (a line that does not parse counts as
    drawing: the replay reads it and logs). The undo rows at the indices ``kept`` keep what they
    took back (firmware/shown.py ``record``): no replay is needed for them."""
    stack: list[bool] = []
    last = 0
    for i, (kind, line, _) in enumerate(rows):
        if kind == "undo":
            if stack and stack.pop() and i not in kept:
                last = i + 1
            continue
        try:
            cmd = replay.command(parse_line(line).command)
        except LegatusError:
            cmd = None
        stack.append(cmd is None or cmd.drawn is not None or cmd.held is not None)
    return last


def undone_marks(db: sqlite3.Connection, sid_: int, header: dict[str, Any],
                 actions: Callable[[int], list[tuple[int, str, str, str]]]) -> list[Mark | Seen]:
    """The marks of session ``sid_``'s undone actions, oldest first: as its undo rows keep them
    (firmware/shown.py ``record``: read without a replay, so the first draw after a restart
    costs the same however long the evening was); a session with undo rows stored before they
    kept them is replayed up to the last of those that took back a draw (``marks_of``), the
    later rows' records read as they are. A damaged undo row is left out (logged)."""
    rows = db.execute(f"SELECT {ACTION_ROW} FROM actions WHERE session=? AND kind='undo' ORDER BY seq",
                      (sid_,)).fetchall()
    kept: list[tuple[int, list[Mark | Seen] | None]] = []
    replay: Session | None = None
    for seq, kind, line, sentence, check in rows:
        text = _text(line)
        if crc(sid_, seq, kind, line, sentence) != check or text is None:
            log.warning("session %s: undo row %s is damaged: the draw it took back is not read", sid_, seq)
            continue
        marks = shown.recorded(text, lambda said_: said(Stored(said_)))
        drawn = [m[0] for m in marks or () if not isinstance(m, Seen)]
        if drawn:                                  # a record kept before its command kept its marks
            replay = replay or Session.from_header(header)      # (Glory's event card): read as none
            if any(_older(replay, source) for source in drawn):
                marks = None
        kept.append((int(seq), marks))
    if all(marks is not None for _, marks in kept):
        return [mark for _, marks in kept for mark in marks or ()]
    good = actions(sid_)                           # (an older Legatus's undo rows: the old way)
    replay = replay or Session.from_header(header)
    rows_ = [(kind, line, s) for _, kind, line, s in good]
    records = dict(kept)
    upto = last_undone_draw(replay, rows_, frozenset(i for i, row in enumerate(good)
                                                      if row[1] == "undo" and records.get(row[0]) is not None))
    done = good[upto - 1][0] if upto else 0
    return (marks_of(replay, rows_[:upto], undone_only=True)
            + [mark for seq, marks in kept if seq > done for mark in marks or ()])


def _older(replay: Session, source: str) -> bool:
    """Whether an undo row's record of a draw at ``source`` was kept by an older Legatus, before the
    command that drew there kept what it saw (:attr:`engine.game.Held.older`)."""
    for name in replay.command_names():
        cmd = replay.command(name)
        if cmd is not None and cmd.held is not None and cmd.held.older is not None and cmd.held.older(source):
            return True
    return False
