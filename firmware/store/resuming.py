"""Resuming the current session from the rows it needs now (issue 20 §3: a restart costs the same
however long the session is): its newest checkpoint that still stands, the action rows after it
and the newest :data:`~firmware.session.MAX_LOG` rows (the log), all checked; older actions are read,
each checked, when something first needs them (:class:`_Older`), and a damaged one is reported
from then on."""
from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from engine import registry
from engine.errors import LegatusError
from engine.game import GameRules
from engine.text import Msg
from firmware import play_time
from firmware.log_sentences import Stored, undone_sentence
from firmware.session import MAX_LOG, Session
from firmware.shown import Mark, Seen
from firmware.storage import DamagedRecord, Recovery, StorageError, crc
from firmware.store.mending import Mending
from firmware.store.schema import ACTION_ROW, SESSION_ROW, _raw, _text
from firmware.store.shown_rows import marks_of, undone_marks
from firmware.trail import Entry, Older, Trail
from firmware.store.reasons import reason

log = logging.getLogger(__name__)


def _rules_of(header: dict[str, Any]) -> GameRules | None:
    """The rules of the stored session's game (None, logged, if no game of that name loads: its
    undone steps are then said plainly)."""
    try:
        return registry.game(str(header.get("game", "")))
    except LegatusError as e:
        log.warning("the game of a stored session is unknown: %s", e)
        return None


class _Plan(NamedTuple):
    """Where a resume starts (Store._plan): the rows read (``_actions``' answer) from row ``lo``,
    the checkpoint at ``depth`` effective actions whose action is row ``top`` (``state`` None: the
    session's start), and the damaged checkpoints passed over."""

    rows: tuple[list[tuple[int, str, str, str]], list[tuple[Any, ...]], list[tuple[int, int]], list[tuple[Any, ...]]]
    lo: int
    depth: int
    top: int
    state: str | None
    damaged_cp: list[tuple[str, bytes]]



class _Older:
    """A resumed session's older effective actions, read going back from a row (each checked
    before it is decoded): its :class:`~firmware.trail.Trail` asks for them when something first
    needs them. Going back, an ``undo`` row cancels the next ``do`` row met; the others stand."""

    BATCH = 256

    def __init__(self, store: Resuming, sid_: int, start: int) -> None:
        self.store = store
        self.sid = sid_
        self.next = start            # the next row to read, going back
        self.skip = 0                # undo rows met whose action is not met yet
        self.damage: DamagedRecord | None = None

    def __call__(self, n: int) -> list[Entry]:
        """Up to ``n`` standing actions before those given so far, newest first ([]: none left).
        Raises DamagedRecord (again, at every later call) at a damaged or missing row."""
        if self.damage is not None:
            raise self.damage
        out: list[Entry] = []
        while len(out) < n and self.next >= 1:
            rows = self.store.db.execute(f"SELECT {ACTION_ROW} FROM actions WHERE session=? AND seq<=? AND seq>=1 "
                                         "ORDER BY seq DESC LIMIT ?", (self.sid, self.next, self.BATCH)).fetchall()
            if not rows:
                self.damage = self.store.older_damaged(self.sid, self.next)
                raise self.damage
            for seq, kind, line, sentence, check in rows:
                word, text, said_ = _text(kind), _text(line), _text(sentence)
                if (seq != self.next or crc(self.sid, seq, kind, line, sentence) != check or word not in ("do", "undo")
                        or text is None or said_ is None):
                    self.damage = self.store.older_damaged(self.sid, self.next)
                    raise self.damage
                self.next -= 1
                if word == "undo":
                    self.skip += 1
                elif self.skip:
                    self.skip -= 1
                else:
                    out.append((seq, text, Stored(said_)))
                    if len(out) == n:
                        break
        return out



class Resuming(Mending):
    """The current session rebuilt from its rows, and its older rows read when needed."""

    def resume(self) -> Session | None:
        """The current session, rebuilt from its rows; None if there is none. Damage is reported
        in ``self.recovery`` (and kept in ``damaged``), never raised."""
        notes = self._notes
        self._notes = []
        session: Session | None = None
        try:
            session = self._resume(notes)
            if session is not None:
                play_time.resumed(str(session.header["sid"]))       # (this run plays it: timed from now)
                self._ended_again(session, notes)
        except Exception as e:  # noqa: BLE001 - a session that cannot be read must never stop the start
            log.exception("the last session could not be read")
            notes.append(Msg("The last session could not be read ({}).", reason(e)))
            self._session_id, self._seq, self._trail = None, 0, None
        self._hot = self._hot_rows = None             # the copies taken before a rollback: no longer needed
        self.recovery = Recovery.of(notes)
        if self.recovery is not None and session is not None:
            session.log.append(self.recovery.message)
        return session

    def _ended_again(self, session: Session, notes: list[Msg]) -> None:
        """(firmware/store/actions.py: a game whose seed was shown is never left running by damage.)"""

    def _current_row(self) -> tuple[int, dict[str, Any]] | None:
        """The current session's id and header (rows checked at the start; checked again here); a
        row whose damaged "current" mark the card refused to mend at start counts as its checksum
        says (mended at a later start)."""
        marks = ",".join("?" * len(self._unmended))
        rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE current=1 OR id IN ({marks}) ORDER BY id DESC",
                               self._unmended).fetchall()
        for row in rows:
            if row[0] in self._unmended:
                row = (*row[:2], 1, *row[3:])
            sid_, text = row[0], self.session_header(row)
            if text is None:
                log.error("session row %s fails its checksum", sid_)
                continue
            return int(sid_), json.loads(text)
        return None

    def _resume(self, notes: list[Msg]) -> Session | None:
        """Rebuild the current session from the rows it needs now (issue 20 §3: a restart costs the
        same however long the session is): its newest checkpoint that still stands, the action rows
        after it and the newest :data:`MAX_LOG` rows (the log), all checked; the older actions are
        read, and checked, when something first needs them (:class:`_Older`)."""
        found = self._current_row()
        if found is None:
            return None
        sid_, header = found
        plan = self._plan(sid_)
        good, lost, mended, refill = plan.rows
        if lost or mended or refill:
            def aside(db: sqlite3.Connection) -> None:
                db.executemany("INSERT INTO damaged(what, data, reason) VALUES('action', ?, 'checksum')",
                               [(_raw(sid_, *r[1:]),) for r in lost])
                db.executemany("DELETE FROM actions WHERE rowid=?", [(r[0],) for r in lost])
                db.executemany("INSERT OR REPLACE INTO actions VALUES(?,?,?,?,?,?)", refill)
                for rowid, seq in mended:
                    db.execute("UPDATE actions SET seq=? WHERE rowid=?", (seq, rowid))
            try:
                with self.transaction() as db:
                    aside(db)
            except StorageError as e:          # done first thing in the next action's own transaction
                log.error("cannot set the damaged actions aside now (with the next action): %s", e)
                self._aside = aside
        if mended or refill:
            notes.append(Msg("A damaged action was mended; nothing was lost."))
        lost = [r for r in lost if not any(r[1] == v[1] for v in refill)] if refill else lost
        last = plan.lo - 1 + len(good)             # the last good action row
        if lost:
            log.error("session %s: damaged action row after action %s; %s rows set aside", sid_, last, len(lost))
            notes.append(Msg("A damaged record was found after action {after}; {n} record was kept aside for a bug "
                             "report and the session resumed at the last good action.",
                             plural="A damaged record was found after action {after}; {n} records were kept aside "
                                    "for a bug report and the session resumed at the last good action.",
                             n=len(lost), after=last))
        if plan.damaged_cp:
            log.error("session %s: %s damaged checkpoints skipped", sid_, len(plan.damaged_cp))
            self._damage(plan.damaged_cp, "checksum")
            notes.append(Msg("A damaged checkpoint was skipped; the state was replayed from an older one."))
        # forward over the rows read: the actions they leave standing, and the log of the newest
        older = _Older(self, sid_, plan.lo - 1)
        rules = _rules_of(header)
        held: list[Entry] = []
        log_: list[Any] = []
        log_from = max(plan.lo, last - MAX_LOG + 1)
        for seq, kind, line, sentence in good:
            if kind == "do":
                held.append((seq, line, Stored(sentence)))
                if seq >= log_from:
                    log_.append(Stored(sentence))
                continue
            undone: Any = None
            if held:
                undone = held.pop()[2]
            else:                                  # an action from before the rows read
                try:
                    got = older(1)
                except StorageError as e:
                    if isinstance(e.message, Msg):
                        notes.append(e.message)
                    got = [(0, "", Msg("an action whose record is damaged"))]
                if not got:
                    continue
                undone = got[0][2]
            if seq >= log_from:
                log_.append(undone_sentence(undone, rules))
        # (the sentences stay as stored until the log is read: decoding the newest 500 was a third of a start)
        depth = plan.depth + sum(1 if kind == "do" else -1 for seq, kind, _l, _s in good if seq > plan.top)
        first = depth - len(held)
        if first < 0:
            raise ValueError(f"session {sid_}: its checkpoint at action {plan.depth} does not fit its actions")
        self._session_id, self._seq, self._trail = sid_, last, None
        if self._salvaged:          # what was carried over is all there is: say where the session stands
            notes.append(Msg("The current session holds {n} action now.", n=depth,
                             plural="The current session holds {n} actions now."))
        try:
            session = Session.from_header(header)
            session.loader = self._checkpoint_loader(sid_)
            session.shown.loader = self._shown_loader(header)
            trail = Trail(held, first, older)
            trail.reread = self._rereader(sid_)
            self._trail = trail
            try:
                session.adopt(trail, log_[-MAX_LOG:], {plan.depth: plan.state} if plan.state is not None else {})
            except (ValueError, KeyError, TypeError, AssertionError) as e:
                log.warning("a checkpoint did not replay (%s); replaying from the start", e)
                session.adopt(trail, log_[-MAX_LOG:], {})    # a bad checkpoint: replay all
        except Exception as e:  # noqa: BLE001 - whatever the stored lines do, the start goes on
            log.exception("session %s could not be replayed", sid_)
            with self.transaction() as db:
                db.execute("UPDATE sessions SET current=0, ended=? WHERE id=?", (int(time.time()), sid_))
                self.seal_session(db, sid_)
            notes.append(Msg("The last session could not be replayed ({}); it was archived.", reason(e)))
            self._session_id, self._seq, self._trail = None, 0, None
            return None
        return session

    def _plan(self, sid_: int) -> _Plan:
        """Which rows a resume reads and which checkpoint it starts from: the newest checkpoint that
        still stands (its action not undone since) at or before the last good action row, and
        every row from the one after it — at least the newest :data:`MAX_LOG` (the log's) — checked.
        Reads more rows only when no such checkpoint lies among them (then from before the one that
        does; with none, from the first row)."""
        nth = self.db.execute("SELECT CAST(seq AS INTEGER) FROM actions WHERE session=? ORDER BY seq DESC "
                              "LIMIT 1 OFFSET ?", (sid_, MAX_LOG - 1)).fetchone()
        lo = max(1, int(nth[0])) if nth is not None and isinstance(nth[0], int) else 1
        candidates = [(int(d), int(t)) for d, t in self.db.execute(
            "SELECT CAST(depth AS INTEGER), CAST(top AS INTEGER) FROM checkpoints WHERE session=? "
            "ORDER BY top DESC, depth DESC", (sid_,)).fetchall() if isinstance(d, int) and isinstance(t, int)]
        candidates.append((0, 0))               # the session's start
        damaged_cp: list[tuple[str, bytes]] = []
        while True:
            read = self._actions(sid_, lo)
            good = read[0]
            last = lo - 1 + len(good)
            lower: int | None = None
            for depth, top in list(candidates):
                if top > last:
                    continue
                if top + 1 < lo:
                    lower = top + 1             # its rows are not read yet
                    break
                level, lowest = depth, depth
                for seq, kind, _line, _sentence in good:
                    if seq > top:
                        level += 1 if kind == "do" else -1
                        lowest = min(lowest, level)
                if lowest < depth:
                    continue                    # its action was undone since
                if depth == 0:
                    return _Plan(read, lo, 0, 0, None, damaged_cp)
                state = self._checkpoint_state(sid_, depth, top, damaged_cp)
                if state is None:
                    candidates.remove((depth, top))
                    continue
                return _Plan(read, lo, depth, top, state, damaged_cp)
            if lower is None:                   # (the start always stands)
                raise ValueError(f"session {sid_}: no start to resume from")
            lo = lower

    def _checkpoint_state(self, sid_: int, depth: int, top: int, damaged: list[tuple[str, bytes]]) -> str | None:
        """The state of checkpoint (depth, top) if its checksum holds (else it goes to ``damaged``)."""
        row = self.db.execute("SELECT CAST(state AS BLOB), CAST(crc AS INTEGER) FROM checkpoints "
                              "WHERE session=? AND depth=? AND top=?", (sid_, depth, top)).fetchone()
        if row is None:
            return None
        text = _text(row[0])
        if crc(sid_, depth, top, row[0]) != row[1] or text is None:
            damaged.append(("checkpoint", _raw(sid_, depth, top, row[0])))
            return None
        return text

    def _actions(self, sid_: int, lo: int = 1) -> tuple[list[tuple[int, str, str, str]], list[tuple[Any, ...]],
                                                        list[tuple[int, int]], list[tuple[Any, ...]]]:
        """The session's good action rows from row ``lo`` on, in order (seq, kind, line, sentence
        JSON) — those whose checksums hold, numbered ``lo``, ``lo``+1, … without a gap — the rows
        lost (damaged, or after the first damaged one: (rowid, raw fields…)), rows whose only
        damage was their number (rowid, the number mended), and rows restored from the copies taken
        before a hot journal was rolled back (values to insert). Rows before ``lo`` are not read
        (a row whose number is not a positive whole number is, wherever it belongs)."""
        rows = self.db.execute(f"SELECT rowid, {ACTION_ROW} FROM actions WHERE session=? AND (seq>=? OR seq<1) "
                               "ORDER BY seq", (sid_, lo)).fetchall()
        valid: dict[int, tuple[Any, ...]] = {}     # seq -> (rowid, seq, kind, line, sentence) as text
        bad: list[tuple[Any, ...]] = []

        def decoded(row: tuple[Any, ...], seq: int) -> tuple[Any, ...] | None:
            """The row as text if its checksum holds under the number ``seq``."""
            if crc(sid_, seq, *row[2:5]) != row[5]:
                return None
            texts = (_text(row[2]), _text(row[3]), _text(row[4]))
            if texts[0] not in ("do", "undo") or texts[1] is None or texts[2] is None:
                return None
            return (row[0], seq, *texts)

        for row in rows:
            good_row = (decoded(row, row[1]) if isinstance(row[1], int) and row[1] >= lo and row[1] not in valid
                        else None)
            if good_row is not None:
                valid[row[1]] = good_row
            else:
                bad.append(row)
        mended: list[tuple[int, int]] = []
        while bad:                  # a row whose number alone was damaged fills the first gap
            gap = next(n for n in range(lo, lo + len(valid) + 1) if n not in valid)
            fit = [(r, d) for r in bad if (d := decoded(r, gap)) is not None]
            if not fit:
                break
            bad.remove(fit[0][0])
            valid[gap] = fit[0][1]
            mended.append((int(fit[0][0][0]), gap))
        refill: list[tuple[Any, ...]] = []
        top = max((r[1] for r in rows if isinstance(r[1], int)), default=0)
        while bad and self._hot is not None:    # a row damaged by the rollback of a damaged journal
            gap = next(n for n in range(lo, lo + len(valid) + 1) if n not in valid)
            copy = self._hot_copies().get(("actions", sid_, gap))
            if gap > top or copy is None:
                break
            valid[gap] = (None, gap, *copy[2:5])
            refill.append(copy)
        n = lo - 1
        while n + 1 in valid:
            n += 1
        good = [(seq, *valid[seq][2:5]) for seq in range(lo, n + 1)]
        raw = {r[0]: r for r in rows}
        lost = bad + [raw[valid[seq][0]] for seq in sorted(valid) if seq > n and valid[seq][0] is not None]
        return good, lost, mended, refill

    def _rereader(self, session_id: int) -> Callable[[int], Older]:
        """What a trail of session ``session_id`` reads its older actions with once it let them
        go from memory (firmware/trail.py ``reread``): back from just before row ``seq``."""
        def reread(seq: int) -> Older:
            return _Older(self, session_id, seq - 1)
        return reread

    def _shown_loader(self, header: dict[str, Any]) -> Callable[[], list[Mark | Seen]]:
        """Where the stored copies of the game ``header`` starts drew (firmware/shown.py): this
        session's undone actions and, for a game reopened from Earlier games, every action of the
        archived copies (the same ``new`` line, seed and draws' version); read when first needed.
        A game started anew with a ``seed=`` used before is a game of its own. A row or a copy that
        cannot be read is left out (logged)."""
        def load() -> list[Mark | Seen]:
            same = (header.get("line"), header.get("seed"), header.get("v", 1))
            out: list[Mark | Seen] = []
            try:
                rows = self.db.execute(f"SELECT {SESSION_ROW} FROM sessions ORDER BY id").fetchall()
                for row in rows:
                    text = self.session_header(row)
                    other = json.loads(text) if text is not None else None
                    if not isinstance(other, dict) or (other.get("line"), other.get("seed"), other.get("v", 1)) != same or (
                            int(row[0]) != self._session_id and not header.get("reopened")):
                        continue
                    if int(row[0]) == self._session_id:
                        out += undone_marks(self.db, int(row[0]), other, lambda sid_: self._actions(sid_)[0])
                        continue
                    good = self._actions(int(row[0]))[0]
                    out += marks_of(Session.from_header(other), [(kind, line, s) for _, kind, line, s in good],
                                    undone_only=False)
            except (sqlite3.Error, StorageError, LegatusError, ValueError) as e:
                log.warning("the draws a stored copy of this game showed cannot be read (%s): those read are kept", e)
            return out
        return load

    def _checkpoint_loader(self, session_id: int) -> Callable[[int], str | None]:
        def load(depth: int) -> str | None:
            trail = self._trail
            if trail is None or depth > len(trail) or depth <= 0:
                return None
            top = trail.seq(depth - 1)      # may read older actions (DamagedRecord if one is damaged)
            row = self.db.execute("SELECT CAST(state AS BLOB), CAST(crc AS INTEGER) FROM checkpoints "
                                  "WHERE session=? AND depth=? AND top=?", (session_id, depth, top)).fetchone()
            if row is None or crc(session_id, depth, top, row[0]) != row[1]:
                if row is not None:
                    log.error("checkpoint %s/%s fails its checksum; replaying from an older one", session_id, depth)
                return None
            return _text(row[0])
        return load

    def older_damaged(self, sid_: int, seq: int) -> DamagedRecord:
        """A damaged older action row found when it was first needed: reported from now on
        (``recovery``: ``state`` answers ``recovered``) and in the log; the row stays where it is
        (its bytes, for a bug report); what needed it is refused."""
        note = Msg("The record of an older action (row {}) is damaged: undo cannot go back past it and the "
                   "actions before it cannot be shown. It is kept for a bug report.", seq)
        log.error("session %s: action row %s is damaged (found when it was needed)", sid_, seq)
        if self.recovery is None or note not in self.recovery.message.args:
            self.recovery = Recovery.of(([self.recovery.message] if self.recovery is not None else []) + [note])
        return DamagedRecord(note)

    def _damage(self, items: list[tuple[str, bytes]], reason: str) -> None:
        try:
            with self.transaction() as db:
                db.executemany("INSERT INTO damaged(what, data, reason) VALUES(?,?,?)",
                               [(what, data, reason) for what, data in items])
        except StorageError as e:
            log.error("cannot keep the damaged rows: %s", e)   # reporting damage must not stop the start
