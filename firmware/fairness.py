"""Fair draws (docs/fairness.md, PROTOCOL.md "third round").

- ``commitment(seed)``: the lowercase hex SHA-256 of the UTF-8 text ``legatus-seed:<seed>`` (the
  seed in decimal), shown before the first draw (``new``, ``commit``, ``state``); it commits to the
  secret alone, before any share is known.
- The draws come from the secret and the players' share by the derivation of engine/rng.py (one
  stream per source of chance).
- When the game has ended (``end``, or its rules ended it and ``reveal`` was asked), the session's
  *record* is filed here: its header and effective action lines, from which :func:`draw_record`
  makes the exported draw record (every draw of every stream with what decided it) that
  scripts/verify_draws.py checks without Legatus.

The ``fair`` table (beside the store's, like History's) holds one row per ended session: ``sid``,
``data`` (JSON: ``header``, ``lines`` and, for a game that took no players' share, ``no_share``: why
— :data:`NO_SHARE`), ``crc``.
"""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

# The session (firmware/session.py) uses these two, so they live below it; they are offered here too,
# with the rest of the fair draw.
from engine.rng import commitment as commitment
from firmware.games import finished_by_rules as finished_by_rules
from firmware.storage import crc

log = logging.getLogger(__name__)

SCHEMA = "CREATE TABLE IF NOT EXISTS fair(sid TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL)"
# the columns of the table (the store checks the schema against them and carries its rows when it
# rebuilds a damaged database)
COLUMNS = {"fair": ("sid", "data", "crc")}
# Raw reads (firmware/store/): the stored bytes, checked before they are decoded.
FAIR_ROW = "CAST(sid AS BLOB), CAST(data AS BLOB), CAST(crc AS INTEGER)"
RECORD_FORMAT = "legatus-draw-record"
# Why a game with a secret seed has no players' share (History → a game, and Fair draw, say it in
# words: firmware/history_text.py): ``setup`` its set-up drew and the ``new`` line brought none;
# ``drawn`` something was drawn before one was given; ``undone`` a draw was seen and taken back by
# undo (another share would draw it again); ``copy`` a copy in Earlier games had drawn; ``old`` the
# session was stored before shares existed; ``none`` none was given and nothing was drawn;
# ``unknown`` a record filed without the reason (before it was kept, or filed again from the
# session's rows at start-up).
NO_SHARE = ("setup", "drawn", "undone", "copy", "old", "none", "unknown")


class FairDraw(NamedTuple):
    """The fair draw of the running session, for screens (``Console.fair_draw``).

    ``commitment``: the code to photograph (None for a session started with ``seed=``);
    ``share``: the players' share (None if none); ``can_share``: ``share <text>`` would be
    accepted now; ``finished``: the game's rules have ended it; ``ended``: None while it runs,
    then ``finished``/``ended``; ``seed``: the seed once the session has ended (else None);
    ``no_share``: why there is no share and can be none (:data:`NO_SHARE`)."""

    commitment: str | None
    share: str | None
    can_share: bool
    finished: bool
    ended: str | None
    seed: int | None
    no_share: str | None = None
    """Why the game takes no share (:data:`NO_SHARE`): None while one is given or can be."""
    session: str = ""
    """The session's own id (never the same for two games, even two started with one ``seed=``):
    what an older Legatus kept of a ``seed=`` game (``caesar.read``, ``jc.read``) was keyed by it."""
    game: str = ""
    """The game's own id: the session's, or for a copy reopened from Earlier games (a copy of a
    copy too) the session's it was first played in: what the device keeps of a game and its
    copies (the ``caesar.read`` setting of a game started with ``seed=``; ``jc.read``, ``jc.roll``)."""


def of_session(session: Any, undid_a_draw: Callable[[Any], bool] | None = None) -> FairDraw:
    """The fair draw of a running :class:`firmware.session.Session` (what the screens show).
    ``undid_a_draw``: the store's :meth:`~firmware.store.Store.undid_a_draw` (a draw taken back by
    undo closes the share), asked only while the share is otherwise open."""
    state = session.state
    view = session.game.view(state)
    share = session.share_of(state)
    can_share = share_open(session, state) and not (undid_a_draw is not None and undid_a_draw(session))
    return FairDraw(commitment=commitment(int(session.header["seed"])) if session.committed else None,
                    share=share,
                    can_share=can_share,
                    finished=finished_by_rules(session.game.name, view, session.lines),
                    ended=session.ended_as(view),
                    seed=int(session.header["seed"]) if session.ended else None,
                    no_share=None if can_share else why_no_share(session, undid_a_draw),
                    session=str(session.header.get("sid") or ""),
                    game=str(session.header.get("copy_of") or session.header.get("sid") or ""))


def why_no_share(session: Any, undid_a_draw: Callable[[Any], bool] | None = None,
                 copied: Callable[[int], bool] | None = None) -> str | None:
    """Why ``session`` (a secret seed) has no players' share (:data:`NO_SHARE`), the first cause
    that closed it; None when it has one, or was started with ``seed=`` (nothing to share in).
    ``undid_a_draw``/``copied``: the store's ``undid_a_draw`` and ``archived_with_seed``."""
    from engine.rng import Draws
    from firmware.session import Session
    state = session.state
    if not session.committed or session.share_of(state) is not None:
        return None
    try:
        if Draws.from_json(state["rng"]).is_legacy:
            return "old"
        at_setup = Session.from_header(session.header).state
        if Draws.from_json(at_setup["rng"]).drawn():
            return "setup"
        drawn = Draws.from_json(state["rng"]).drawn()
    except (KeyError, ValueError, TypeError):
        log.warning("the session's draws do not read back; why it has no share is not known", exc_info=True)
        return "unknown"
    if drawn:
        return "drawn"
    if undid_a_draw is not None and undid_a_draw(session):
        return "undone"
    if copied is not None and copied(int(session.header["seed"])):
        return "copy"
    return "none"


def share_open(session: Any, state: dict[str, Any] | None = None) -> bool:
    """Whether the session's state still takes a players' share: a secret seed, no share yet,
    nothing drawn in it (nor a session stored before version 2), not ended, by ``end`` or by the
    game's rules. (An action that drew and was undone closes it too: the store knows that, not
    the state.)"""
    from engine.rng import Draws
    state = session.state if state is None else state
    try:
        draws = Draws.from_json(state["rng"])
        fresh = not draws.is_legacy and not draws.drawn()
    except (KeyError, ValueError):
        log.warning("the session's draws do not read back", exc_info=True)
        fresh = False
    return (bool(session.committed) and session.share_of(state) is None and fresh and not session.ended
            and not finished_by_rules(session.game.name, session.game.view(state), session.lines))


# -- the records of ended sessions -------------------------------------------------------------------
def fair_crc(sid: str | bytes, data: str | bytes) -> int:
    """The checksum of a ``fair`` row (tagged: its shape is a setting's), over the raw bytes."""
    return crc("fair", sid, data)


def _decoded(sid: bytes, data: bytes, check: int) -> tuple[str, dict[str, Any]] | None:
    """A raw ``fair`` row as (sid, record), or None if its checksum fails or it does not parse."""
    if fair_crc(sid, data) != check:
        return None
    try:
        record = json.loads(bytes(data).decode("utf-8"))
        if not isinstance(record, dict):
            return None
        return bytes(sid).decode("utf-8"), record
    except (ValueError, RecursionError):
        return None


def ensure(db: sqlite3.Connection) -> None:
    db.execute(SCHEMA)


def file_record(store: Any, session: Any) -> None:
    """File an ended session's record, with why it took no players' share if it took none
    (idempotent; raises StorageError/sqlite3.Error). A copy reopened from Earlier games files it
    for the archived sessions whose History records are its game's finishes too (History records a
    game once, under the session that finished it first: firmware/history_seen.py), so their
    entries carry the seed it showed and export its draws."""
    from firmware.history_seen import same_plays
    also = same_plays(store.db, session.header, session.lines) if session.header.get("reopened") else []
    file_lines(store, session.header, session.lines,
               why_no_share(session, store.undid_a_draw, store.archived_with_seed), also=also,
               steps=store.steps_of(session))


def file_lines(store: Any, header: dict[str, Any], lines: Sequence[str], no_share: str | None = None,
               also: Sequence[str] = (), steps: Sequence[Sequence[str]] | None = None) -> None:
    """File the record of an ended session from its header and effective lines (as stored: the
    start-up check files again a damaged one from the session's rows) and ``no_share``, why it
    took no players' share (:data:`NO_SHARE`; None: it took one, or its seed was chosen); ``also``:
    the sessions it is filed for too, unless they have their own (:func:`file_record`); ``steps``:
    every action and undo of the session in the order they were made (``["do", line]``,
    ``["undo"]``: the store's :meth:`~firmware.store.Store.steps_of`), so that the record can show
    the draws shown and undone (:func:`draw_record`); None when its rows do not say."""
    sid = str(header["sid"])
    record: dict[str, Any] = {"header": header, "lines": list(lines)}
    if no_share is not None:
        record["no_share"] = no_share
    if steps is not None:
        record["steps"] = [list(step) for step in steps]
    data = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    with store.transaction() as db:
        ensure(db)
        for key in (sid, *also):
            db.execute("INSERT OR IGNORE INTO fair VALUES(?,?,?)", (key, data, fair_crc(key, data)))


def filed(db: sqlite3.Connection, sids: list[str], strict: bool = False) -> dict[str, dict[str, Any]]:
    """The filed records of ``sids`` whose checksum holds: sid → ``{"header", "lines"}``. A table
    the card cannot read now is logged and none are given, or with ``strict`` its error raised."""
    out: dict[str, dict[str, Any]] = {}
    if not sids:
        return out
    try:
        if not _table(db):
            return out
        for i in range(0, len(sids), 500):
            part = sids[i:i + 500]
            rows = db.execute(f"SELECT {FAIR_ROW} FROM fair WHERE sid IN ({','.join('?' * len(part))})",
                              part).fetchall()
            for sid, data, check in rows:
                got = _decoded(sid, data, check)
                if got is None:
                    log.warning("the fair-draw record of session %r is damaged; it is left out", sid)
                    continue
                out[got[0]] = got[1]
    except sqlite3.Error as e:
        if strict:
            raise
        log.warning("the fair-draw records cannot be read: %s", e)
    return out


def filed_one(db: sqlite3.Connection, sid: str) -> tuple[dict[str, Any], int] | None:
    """The filed record of ``sid`` and its row's checksum (what the record is made of:
    firmware/history_record.py); None when none is filed or it is damaged (logged). Raises the
    sqlite3.Error of a card that cannot read it now (:func:`filed` takes that for none filed)."""
    rows = db.execute(f"SELECT {FAIR_ROW} FROM fair WHERE sid = ?", (sid,)).fetchall() if _table(db) else []
    got = _decoded(*rows[0]) if rows else None
    if rows and got is None:
        log.warning("the fair-draw record of session %r is damaged; it is left out", sid)
    return None if got is None else (got[1], int(rows[0][2]))


def _table(db: sqlite3.Connection) -> bool:
    """Whether the ``fair`` table is there (made if it is not, when the card can be written: a
    database an older Legatus wrote, kept on a read-only card, has none: nothing is filed)."""
    try:
        ensure(db)
        return True
    except sqlite3.Error as e:          # (a storage failure: its words, not a traceback)
        log.warning("the fair-draw table cannot be created (read-only storage?): %s", e)
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='fair'").fetchone() is not None


def scan(db: sqlite3.Connection) -> list[tuple[str, str, bytes, tuple[Any, ...]]]:
    """The damaged rows of the ``fair`` table, as (table, what, raw bytes, key) for the store to
    report and set aside at start. Read only; raises if SQLite cannot read the table. Damage is a
    checksum that fails: no record (a session's every line) is decoded here, so the start costs a
    checksum per ended game; one that does not parse is left out when it is read (:func:`filed`)."""
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()}
    if "fair" not in tables:
        return []
    out: list[tuple[str, str, bytes, tuple[Any, ...]]] = []
    for sid, data, check in db.execute(f"SELECT {FAIR_ROW} FROM fair"):
        if fair_crc(sid, data) != check:
            raw = b"\x1f".join(f if isinstance(f, bytes) else str(f).encode() for f in (sid, data, check))
            out.append(("fair", "fair-draw record", raw, (sid,)))
    return out


def set_aside(db: sqlite3.Connection, key: tuple[Any, ...]) -> None:
    """Delete a damaged row :func:`scan` found (the store keeps its bytes in ``damaged``)."""
    db.execute("DELETE FROM fair WHERE CAST(sid AS BLOB)=?", key)


def seed_revealed(db: sqlite3.Connection, seed: int) -> bool:
    """Whether a session with this seed has ended (its record is filed): then anyone may know the
    seed, and a copy of the game must not be played on (Earlier games). A record that does not
    read back counts as revealed (the safe side)."""
    try:
        ensure(db)
        rows = db.execute(f"SELECT {FAIR_ROW} FROM fair WHERE instr(data, ?) > 0",
                          (f'"seed":{int(seed)}',)).fetchall()
    except sqlite3.Error as e:
        log.warning("the fair-draw records cannot be read (%s); the seed counts as revealed", e)
        return True
    for sid, data, check in rows:
        got = _decoded(sid, data, check)
        if got is None:
            log.warning("the fair-draw record of session %r is damaged; its seed counts as revealed", sid)
            return True
        try:
            if int(got[1]["header"]["seed"]) == int(seed):
                return True
        except (KeyError, TypeError, ValueError):
            log.warning("the fair-draw record of session %r has no seed; it counts as revealed", sid)
            return True
    return False


def revealed(header: dict[str, Any], share: str | None) -> dict[str, Any]:
    """What an ended game shows of its draws: ``seed``, ``share``, ``commitment`` (``null`` for
    a game started with ``seed=``, which had nothing to commit to)."""
    return {"seed": int(header["seed"]), "share": share,
            "commitment": commitment(int(header["seed"])) if header.get("committed") else None}


def share_in(header: dict[str, Any], lines: Sequence[str]) -> str | None:
    """The players' share of a session: on its ``new`` line (``share=``) or given by ``share``."""
    from firmware.session import parse_line
    share = parse_line(str(header["line"])).opts.get("share")
    for line in lines:
        if line.startswith("share "):
            share = line[len("share "):].strip()
    return share or None


def draw_record(header: dict[str, Any], lines: list[str],
                steps: Sequence[Sequence[str]] | None = None) -> dict[str, Any]:
    """Replay a session with a tape and return its draw record (docs/fairness.md, "The record"):
    ``format``, ``version`` (the derivation), ``game``, ``line``, ``seed``, ``share``,
    ``commitment``, ``actions`` (the effective action lines) and ``draws`` (every draw of every
    stream, in the order they happened). Raises LegatusError/ValueError if a line no longer
    replays (it always does: the engine is deterministic).

    With ``steps`` (every action and undo as made, :func:`file_lines`) it also has ``undone``, how
    many actions were taken back by undo, and when there were any, ``setup`` (how many of
    ``draws`` the set-up drew) and ``steps``: each action with the draws it made (``["do", line,
    draws]``) and each undo (``["undo"]``), in order, so that the draws shown and undone are
    checked too (undo never re-draws: the same draw asked again draws what was shown). Steps that
    do not lead to ``actions`` (damaged rows) are left out: the record then does not say."""
    from engine.errors import LegatusError
    from firmware.session import Session
    session = Session.from_header(header, [])
    state = session.state                   # its draws carry the tape (the set-up's draws are on it)
    setup = len(state["rng"]["tape"])
    for line in lines:
        _replay(session, state, line)
    tape = state["rng"]["tape"]
    share = share_in(header, lines)
    out = {"format": RECORD_FORMAT, "version": int(header.get("v", 1)), "game": header["game"],
           "line": header["line"], **revealed(header, share), "actions": list(lines), "draws": tape}
    if steps is not None and [list(step) for step in steps] == [["do", line] for line in lines]:
        out["undone"] = 0                   # (nothing undone: the steps are the actions, replayed above)
    elif steps is not None:
        try:
            made = _steps(header, steps)
        except (LegatusError, ValueError, KeyError, TypeError, IndexError) as e:
            log.warning("the steps of session %s do not replay (%s): its record leaves out what was undone",
                        header.get("sid"), e)
            made = None
        if made is not None and made[1] == list(lines) and made[2] == tape:
            undone = sum(1 for step in made[0] if step[0] == "undo")
            out["undone"] = undone
            if undone:
                out["setup"], out["steps"] = setup, made[0]
        elif made is not None:
            log.warning("the steps of session %s do not lead to its actions: its record leaves out what was undone",
                        header.get("sid"))
    return out


def _replay(session: Any, state: dict[str, Any], line: str) -> None:
    """Apply a stored action ``line`` to ``state`` (a replay with a tape) and note it in the
    session's trail, which ``end`` reads (as when it ran)."""
    from firmware.session import parse_line
    req = parse_line(line)
    cmd = session.command(req.command)
    if cmd is None or not cmd.mutates:
        raise ValueError(f"stored action {line[:40]!r} is not a change of {session.game.name}")
    cmd.handler(state, req)
    session.trail.append(0, line, "")


class _Kept(NamedTuple):
    """A state an undo restored, not read back yet: its JSON without the tape, and the tape."""

    text: str
    tape: list[Any]


def _steps(header: dict[str, Any], steps: Sequence[Sequence[str]]
           ) -> tuple[list[list[Any]], list[str], list[list[Any]]]:
    """Replay every action and undo: (each step with the draws it made, the lines standing at the
    end, the tape standing at the end).

    Undo restores the state before its action, as the JSON the store would hold. Only the actions
    that are taken back need that state kept, and it is kept without the tape: the tape only grows
    while actions are made (an undo cuts it back), so each draw is copied once, as JSON, into
    ``frozen``, and an undo takes its prefix. The state an undo restores is read back only when an
    action is replayed on it: an action made again on it (the same line: undo never re-draws) is
    not replayed, it leads where it led before, to the state the undo set aside, draws and all.
    Keeping the whole state before every action, and replaying every action made again, made the
    record cost the game's length times its draws plus a replay per undo (0.36 s for 200 rolls
    and 300 undos here, about 5 s on the device)."""
    from firmware.session import Session
    undone = _undone_dos(steps)
    session = Session.from_header(header, [])
    state: dict[str, Any] | _Kept = session.state
    # the state before each standing action if an undo takes it back: (its JSON without the tape,
    # the tape's length, the line)
    before: list[tuple[str, int, str] | None] = []
    frozen: list[Any] = []                  # the tape's draws as JSON gave them back (what undo restores)
    # the actions an undo took back, the newest last: (the state the undo restored, the line, the
    # state the action had led to): made again on that very state, the same line leads there again
    again: list[tuple[_Kept, str, dict[str, Any] | _Kept]] = []
    standing: list[str] = []
    out: list[list[Any]] = []
    for at, step in enumerate(steps):
        if step[0] == "undo":
            if not before:
                raise ValueError("an undo with nothing to undo")
            kept = before.pop()
            if kept is None:                # (never: _undone_dos marked every action an undo takes back)
                raise ValueError("an undo of an action whose state was not kept")
            text, drawn, was = kept
            restored = _Kept(text, frozen[:drawn])
            del frozen[drawn:]
            again.append((restored, was, state))
            state = restored
            standing.pop()
            session.trail.pop()
            out.append(["undo"])
            continue
        if step[0] != "do":
            raise ValueError(f"a step {str(step[0])[:20]!r}")
        line = str(step[1])
        tape = _tape(state)
        drawn = len(tape)
        if at in undone:
            if len(frozen) < drawn:
                frozen.extend(json.loads(json.dumps(tape[len(frozen):])))
            text = state.text if isinstance(state, _Kept) else \
                json.dumps(dict(state, rng=dict(state["rng"], tape=[])))
            before.append((text, drawn, line))
        else:
            before.append(None)
        if again and again[-1][0] is state and again[-1][1] == line:
            state = again.pop()[2]          # made again where its undo left it: where it led before
            session.trail.append(0, line, "")
        else:
            again.clear()                   # (the states set aside are not this one's any more)
            if isinstance(state, _Kept):
                restored_state: dict[str, Any] = json.loads(state.text)
                restored_state["rng"]["tape"] = list(state.tape)
                state = restored_state
            _replay(session, state, line)
        standing.append(line)
        out.append(["do", line, _tape(state)[drawn:]])
    return out, standing, _tape(state)


def _tape(state: dict[str, Any] | _Kept) -> list[Any]:
    tape: list[Any] = state.tape if isinstance(state, _Kept) else state["rng"]["tape"]
    return tape


def _undone_dos(steps: Sequence[Sequence[str]]) -> set[int]:
    """The places in ``steps`` of the actions an undo takes back (each undo takes back the last
    action standing)."""
    made: list[int] = []
    out: set[int] = set()
    for at, step in enumerate(steps):
        if step and step[0] == "do":
            made.append(at)
        elif step and step[0] == "undo" and made:
            out.add(made.pop())
    return out


def attach(db: sqlite3.Connection, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add ``seed``, ``share``, ``commitment`` to History entries whose session has ended (its
    record is filed), ``None`` to the others, and ``no_share``: why an ended game with a secret seed
    has no share (:data:`NO_SHARE`; ``unknown`` for a record filed without it), else None;
    returns ``entries``. Raises the sqlite3.Error of a card that cannot read the records now: an
    ended game read without its seed was shown, exported and sent to BG Stats as one without it."""
    records = filed(db, sorted({str(e.get("sid")) for e in entries if e.get("sid")}), strict=True)
    for e in entries:
        rec = records.get(str(e.get("sid")))
        if rec is None:
            e.update(seed=None, share=None, commitment=None, no_share=None)
        else:
            e.update(revealed(rec["header"], share_in(rec["header"], list(rec["lines"]))))
            why = rec.get("no_share")
            e["no_share"] = None if e["share"] is not None or e["commitment"] is None else \
                why if why in NO_SHARE else "unknown"
    return entries
