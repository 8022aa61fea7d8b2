"""The current session's changes, each one durable transaction: a new session (the old one
archived in the same transaction), an accepted action (and its checkpoint when due), an undo."""
from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from engine.errors import LegatusError
from engine.game import Outcome
from engine.text import Msg, to_data
from firmware import play_time
from firmware.session import Session
from firmware.storage import Recovery, StorageError, crc
from firmware.store.resuming import Resuming
from firmware.store.schema import SAME_KEY_TABLE, SESSION_ROW, _raw, made_at_same_key, same_key_crc, stored_steps

log = logging.getLogger(__name__)


NO_MORE = (-2, -2)           # (a key that joins none of its steps from now on: it started a new session)


class Actions(Resuming):
    """``begin``, ``commit``, ``step`` and ``undo``."""

    _undid: tuple[tuple[int, int], bool] | None = None     # (session row, last seq) -> undid_a_draw
    _key: tuple[int, int] | None = None     # in a key (:meth:`one_key`): the row it stored last (session, seq)

    def begin(self, session: Session, also: Callable[[sqlite3.Connection], None] | None = None) -> None:
        """Make ``session`` (fresh from ``Session.start``) the current one: the old one is archived
        in the same transaction, and ``also`` (the start time History keeps) writes in it too.
        Raises StorageError (nothing changed) if that cannot be saved."""
        header = json.dumps(session.header, ensure_ascii=False, sort_keys=True)
        ids: list[int] = []

        def landed(db: sqlite3.Connection) -> bool:
            return bool(ids) and db.execute("SELECT 1 FROM sessions WHERE id=? AND current=1 AND header=?",
                                            (ids[0], header)).fetchone() is not None
        with self.transaction(landed) as db:
            marks = ",".join("?" * len(self._unmended))        # (and one whose damaged mark was not mended)
            for row in db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=1 OR id IN ({marks})",
                                  self._unmended).fetchall():
                old = int(row[0])
                if all(self.session_header((*row[:2], flag, *row[3:])) is None for flag in (0, 1)):
                    # damaged (the card refused to set it aside at start): set aside now, never sealed anew
                    db.execute("INSERT INTO damaged(what, data, reason) VALUES('session', ?, 'checksum')", (_raw(*row),))
                    self._set_aside_session(db, old)
                    continue
                db.execute("UPDATE sessions SET current=0, ended=? WHERE id=?", (int(time.time()), old))
                self.seal_session(db, old)
            cur = db.execute("INSERT INTO sessions(header, current, crc) VALUES(?, 1, 0)", (header,))
            new_id = int(cur.lastrowid or 0)
            ids.append(new_id)
            self.seal_session(db, new_id)
            if also is not None:
                also(db)
        self._session_id, self._seq, self._trail, self._unmended = new_id, 0, session.trail, ()
        if self._key is not None:           # a key that starts a game: what it gives the game is each its own step
            self._key = NO_MORE             # (an archived game reopened, its steps given again)
        session.loader = self._checkpoint_loader(new_id)
        if session.header.get("reopened"):        # (a new game's own undos are all in memory)
            session.shown.loader = self._shown_loader(session.header)
        session.trail.reread = self._rereader(new_id)
        # what was found of the session it replaces is said no more; saved games deleted from the card
        # and written back since its last action (by this new: its History record, its start) still are
        # (the card's news, not a session's: a player must see it)
        self.recovery = Recovery.of([self._written_back] if self._written_back is not None else [])
        self._written_back = None

    def commit(self, session: Session, line: str, outcome: Outcome, new_json: str) -> None:
        """Store an accepted action (and a checkpoint when due) in one durable transaction, then
        make it current in ``session``. Raises StorageError with nothing changed."""
        assert self._session_id is not None, "no current session"
        sid_, seq = self._session_id, self._seq + 1
        line = line.strip()
        sentence = json.dumps(to_data(session.sentence_of(line, outcome)), ensure_ascii=False)
        sid, at = str(session.header["sid"]), play_time.now()
        game = session.game.name     # (the part each state plays: a Julius Caesar battle is timed apart)
        part, entered = play_time.playing(game, session.state_json), play_time.playing(game, new_json)
        # made at the key that made the step under it (and nothing else since): one hold of B takes both back
        joined = self._key == (sid_, self._seq) and self._trail is not None and len(self._trail) > 0
        with self.transaction(self._row_landed(sid_, seq, "do", line)) as db:
            self._set_aside_now(db)
            db.execute("INSERT INTO actions VALUES(?,?,?,?,?,?)",
                       (sid_, seq, "do", line, sentence, crc(sid_, seq, "do", line, sentence)))
            db.execute(SAME_KEY_TABLE)             # (a card an older Legatus wrote, read-only at the start)
            if joined:                             # (with the row itself: never one without the other)
                under = self._seq
                db.execute("INSERT OR REPLACE INTO same_key VALUES(?,?,?,?)", (sid_, seq, under, same_key_crc(sid_, seq, under)))
            else:                                  # (a seq used again after a damaged row was set aside)
                db.execute("DELETE FROM same_key WHERE session=? AND seq=?", (sid_, seq))
            play_time.step(db, sid, at, part, entered)      # (with the step: a kill -9 loses only the time since)
            if session.checkpoint_due():
                depth = len(session.lines) + 1
                # one at this depth or deeper holds an action undone since: it never stands again
                # (kept, each undo and redo across a checkpoint would add a whole state to the card)
                db.execute("DELETE FROM checkpoints WHERE session=? AND depth>=?", (sid_, depth))
                db.execute("INSERT OR REPLACE INTO checkpoints VALUES(?,?,?,?,?)",
                           (sid_, depth, seq, new_json, crc(sid_, depth, seq, new_json)))
        self._seq, self._aside, self._written_back = seq, None, None   # (a write-back: said until the next new)
        if self._key is not None and self._key != NO_MORE:
            self._key = (sid_, seq)
        play_time.stepped(sid, at)
        session.commit(line, outcome, new_json, seq)
        self._trail = session.trail

    def _set_aside_now(self, db: sqlite3.Connection) -> None:
        """(Inside an action's transaction) set aside the damaged action rows the card refused to
        at start (:attr:`_aside`): they hold the places the session's next rows take."""
        if self._aside is not None:
            self._aside(db)

    @staticmethod
    def _row_landed(sid_: int, seq: int, kind: str, line: str) -> Callable[[sqlite3.Connection], bool]:
        def landed(db: sqlite3.Connection) -> bool:
            return db.execute("SELECT 1 FROM actions WHERE session=? AND seq=? AND kind=? AND line=?",
                              (sid_, seq, kind, line)).fetchone() is not None
        return landed

    def step(self) -> tuple[int, int] | None:
        """What names the step ``undo`` would take back now: the session and the row of its
        action (None if nothing can be undone). It changes whenever that step does — another
        action, an undo, a new session — and comes back only if the same step is on top again."""
        if self._session_id is None or self._trail is None or not len(self._trail):
            return None
        try:
            return self._session_id, self._trail.seq(-1)
        except (LegatusError, LookupError) as e:     # a damaged older action: undo says so itself
            log.warning("the step undo would take back cannot be read: %s", e)
            return None

    def undo(self, session: Session, step: tuple[int, int] | None = None) -> Msg:
        """Store an undo and take the step back in ``session``; returns the undone sentence.
        ``step``: undo only if :meth:`step` still names that step (else StepChanged) — the device's
        hold B — and then with the steps its key made before it (:meth:`key_steps`: the player's and
        the device's after it), all in one transaction: a power cut takes back all or none of them.
        Raises NothingToUndo, StepChanged or StorageError (nothing changed)."""
        session.check_undo()
        assert self._session_id is not None, "no current session"
        if step is not None and self.step() != step:
            raise StepChanged(Msg("The last step changed since undo was asked; nothing was undone."))
        # read first: nothing is stored if an older action is damaged (each one's draw: read back after a restart)
        undos = session.undos(self.key_steps() if step is not None else 1)
        sid_, seq = self._session_id, self._seq + len(undos)
        sid, at = str(session.header["sid"]), play_time.now()
        part = play_time.playing(session.game.name, session.state_json)     # (the time before the undo: its)
        with self.transaction(self._row_landed(sid_, seq, "undo", undos[-1][2])) as db:
            self._set_aside_now(db)
            for row, (_before, _marks, kept) in enumerate(undos, start=self._seq + 1):
                db.execute("INSERT INTO actions VALUES(?,?,?,?,?,?)",
                           (sid_, row, "undo", kept, "", crc(sid_, row, "undo", kept, "")))
            play_time.step(db, sid, at, part)
        self._seq, self._aside, self._written_back = seq, None, None   # (a write-back: said until the next new)
        play_time.stepped(sid, at)
        return [session.undo(before, marks) for before, marks, _kept in undos][0]

    @contextmanager
    def one_key(self) -> Iterator[None]:
        """Around what one key of the device does: each action it stores after one it stored is
        marked as made at the same key (``same_key``, in the action's own transaction), so that
        one hold of B takes them back together, after a restart too (:meth:`key_steps`)."""
        self._key = (-1, -1)
        try:
            yield
        finally:
            self._key = None

    def key_steps(self) -> int:
        """How many steps one hold of B takes back now: the step on top and those made before it at
        the same key (the player's step and the device's after it: Caesar!'s draw owed after a
        placement, C-6; a Might's flip and the draw after it, C-15), while they are the newest rows
        of the session (an undo or a step since, and taken back, leaves one step at a time). 1 for a
        step of its own, a serial line's, and every step of a session stored before keys were kept
        (or whose mark is damaged)."""
        trail, sid_ = self._trail, self._session_id
        n = 1
        try:
            if trail is None or sid_ is None or not len(trail) or trail.seq(-1) != self._seq:
                return 1
            while n < len(trail) and made_at_same_key(self.db, sid_, trail.seq(-n), trail.seq(-n - 1)):
                n += 1
        except (LegatusError, LookupError) as e:     # an older action unreadable: the key's steps up to it
            log.warning("the steps of the key cannot all be read: %s", e)
        return n

    def _ended_again(self, session: Session, notes: list[Msg]) -> None:
        """A session that had ended, its seed shown (its fair-draw record is filed), and that a
        damaged action row left running at the last good action (or a salvage without its last
        rows) is ended again: its lost actions are taken from the record (the same lines, so the
        same draws), else it ends where it stands. Left running, every later draw would be known
        to whoever saw the seed. Said in ``notes``; a card that refuses it is logged (it refuses
        every change then, draws included)."""
        from firmware import fairness
        from firmware.session import END
        if session.ended or not session.committed:
            return
        sid = str(session.header["sid"])
        record = fairness.filed(self.db, [sid]).get(sid)
        if record is None:
            return
        filed = [str(x) for x in record.get("lines", [])]
        try:
            have = list(session.lines)          # (an older row read now may be damaged: StorageError)
            rest = filed[len(have):] if filed[:len(have)] == have and filed[-1:] == [END] else [END]
            try:
                for line in rest:
                    outcome, new_json = session.run(line)
                    if new_json is not None:
                        self.commit(session, line, outcome, new_json)
            except LegatusError as e:           # a line the rules refuse now: it ends where it stands
                log.error("session %s: its filed lines do not replay (%s); it is ended where it stands", sid, e)
                outcome, new_json = session.run(END)
                if new_json is not None and not session.ended:
                    self.commit(session, END, outcome, new_json)
        except (LegatusError, StorageError) as e:
            log.error("session %s: its seed was shown but it cannot be ended again (%s)", sid, e)
            return
        log.error("session %s had ended with its seed shown; a damaged record left it running: ended again", sid)
        notes.append(Msg("This game had ended and its seed was shown; a damaged record had left it running, so "
                         "it was ended again from its fair-draw record."))

    def steps_of(self, session: Session) -> list[list[str]] | None:
        """Every action and undo of ``session`` (the current one) in the order they were made,
        ``["do", line]`` or ``["undo"]``, for its fair-draw record (the draws shown and undone:
        firmware/fairness.py); None when its rows do not say (not the current session, a row lost
        or unreadable)."""
        sid_ = self._session_id
        if sid_ is None:
            return None
        try:
            row = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE id=?", (sid_,)).fetchone()
            text = self.session_header(row) if row is not None else None
            if text is None or json.loads(text).get("sid") != session.header.get("sid"):
                return None
            return stored_steps(self.db, sid_)
        except (StorageError, sqlite3.Error, ValueError) as e:
            log.warning("the steps of session %s cannot be read (%s): its record leaves out what was undone", sid_, e)
            return None

    def undid_a_draw(self, session: Session) -> bool:
        """Whether an action of the current session that drew was taken back. ``undo`` restores the
        generators, so the state no longer shows that draw, but it was seen: a players' share given
        now would draw it again, differently (docs/fairness.md §2). Read from the session's stored
        rows, replayed from its header up to the first action that drew (only when some row is an
        undo); remembered until the next row. A row that cannot be read or replayed counts as a
        draw: the share stays closed."""
        sid_ = self._session_id
        if sid_ is None:
            return False
        key = (sid_, self._seq)
        if self._undid is None or self._undid[0] != key:
            self._undid = (key, self._drew_before(sid_, session.header))
        return self._undid[1]

    def _drew_before(self, sid_: int, header: dict[str, Any]) -> bool:
        from engine.rng import Draws
        from firmware.session import parse_line
        good, lost, _, _ = self._actions(sid_)
        if lost:
            return True
        if all(kind != "undo" for _, kind, _, _ in good):
            return False
        replay = Session.from_header(header)
        state = replay.state
        before: list[str] = []               # the state before each standing action (what undo restores)
        try:
            for _, kind, line, _ in good:
                if kind == "undo":
                    if before:
                        state = json.loads(before.pop())
                    continue
                before.append(json.dumps(state))
                req = parse_line(line)
                cmd = replay.command(req.command)
                if cmd is None:
                    raise ValueError(f"{req.command[:40]!r} is not a command of {replay.game.name}")
                cmd.handler(state, req)
                if Draws.from_json(state["rng"]).drawn():
                    return True
        except (LegatusError, ValueError, KeyError, TypeError) as e:
            log.warning("session %s does not replay to check its undone draws (%s); it takes no share", sid_, e)
            return True
        return False


class StepChanged(LegatusError):
    """``undo`` was asked for a step that is no longer the last one (the device asks again)."""

    code = "step_changed"
