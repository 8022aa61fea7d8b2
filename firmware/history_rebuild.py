"""History rows written again after damage took them (firmware/history.py keeps the rows): the
start-up check (firmware/store/mending.py) hands over what is left of each damaged row
(:class:`Lost`) and every stored session it may have belonged to; :func:`rebuild` replays a session
and writes the rows it finds missing, so a finished game never vanishes from History because of one
bad byte. :func:`reconcile`, at each start and ``state``, does again what the disk refused (or a
power cut cut short) after a saved action."""
from __future__ import annotations

import datetime as _dt
import json
import logging
import re
import sqlite3
from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.errors import LegatusError
from firmware.games import unfinished_mode
from firmware.history import (_ended_row, _now, _put, _unfinished_players, _record, _row, _seal, after_undo, ensure,
                              finished_parts, forget_abandoned, record_state)
from firmware.history_text import abandoned

log = logging.getLogger(__name__)

_FINISHED_AT = re.compile(rb'"finished": "(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"')
_ROUGH = re.compile(rb'"unsynced": \[[^\]]*"finished"')
_SURE = re.compile(rb'"unsynced": \[(?:"started")?\]')     # the list read whole, without "finished"
_ASKED = re.compile(rb'"asked": ("(?:[^"\\]|\\.)*")')          # the question's line, a JSON string


class Lost(NamedTuple):
    """What is left of a damaged History row (its bytes, as the start-up check kept them): the
    id and, where they still read, the session, the part, the finish time, whether that time
    was taken while the clock was not set (unless its ``unsynced`` list still reads whole without
    it, an unsure one: the damage may be in that list) and the read-only question the record
    answered (``asked``: Glory's ``score <sheet>``, whose sheet no stored action holds)."""

    rid: int | None
    sid: str | None
    part: str | None
    finished: str | None
    rough: bool = False
    asked: str | None = None
    kept: tuple[list[dict[str, Any]], Any] | None = None     # its players and result, where its record still parses

    @classmethod
    def of(cls, raw: bytes) -> Lost:
        fields = raw.split(b"\x1f")

        def text(i: int) -> str | None:
            try:
                return fields[i].decode("ascii") if len(fields) > i else None
            except UnicodeDecodeError:
                return None
        rid = text(0)
        found = _FINISHED_AT.search(raw)
        when = found.group(1).decode("ascii") if found else None
        try:
            _dt.datetime.fromisoformat(when.replace("Z", "+00:00") if when else "")
        except ValueError:
            when = None
        # the finish time is sure only where the list of unsure times still reads whole without it
        rough = bool(_ROUGH.search(raw)) or not _SURE.search(raw)
        return cls(int(rid) if rid and rid.isdecimal() else None, text(1), text(2), when, rough, _asked(raw),
                   _kept(fields[6]) if len(fields) > 6 else None)


def _asked(raw: bytes) -> str | None:
    """The question line a damaged row still shows (``"asked": "score {…}"``), or None."""
    found = _ASKED.search(raw)
    try:
        line = json.loads(found.group(1).decode("utf-8")) if found else None
    except (UnicodeDecodeError, ValueError):
        return None
    return line if isinstance(line, str) and line.strip() else None


def _kept(record: bytes) -> tuple[list[dict[str, Any]], Any] | None:
    """The players and result of a damaged row's record, where it still parses whole."""
    try:
        data = json.loads(record.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players) or "result" not in data:
        return None
    return players, data["result"]


def _as_kept(rec: dict[str, Any], lost: Sequence[Lost], part: str) -> dict[str, Any] | None:
    """``rec`` with the players and result the damaged row of ``part`` still shows, when the
    sheet question it shows does not answer: the damage is in the question, so the rest of the
    record is whole (the same players in the same order, each with a whole score); else None."""
    from engine.text import from_data
    for x in lost:
        if x.part != part or x.kept is None:
            continue
        players, result = x.kept
        if ([p.get("name") for p in players] == [p.get("name") for p in rec["players"]]
                and all(isinstance(p.get("score"), int) and isinstance(p.get("winner"), bool) for p in players)):
            try:
                return {**rec, "players": players, "result": from_data(result)}
            except (ValueError, KeyError, TypeError) as e:
                log.info("the result of damaged History row %s does not read: %s", x.rid, e)
    return None


def rebuild(store: Any, header: dict[str, Any], lines: Sequence[str], archived: bool, lost: Sequence[Lost],
            ended_at: str | None) -> list[str]:
    """Write again the History rows of a stored session (its ``header`` and effective ``lines``;
    ``archived``: another session replaced it) that damage took (:class:`Lost`, set aside by the
    start-up check), from a replay of its lines: each finished part at the depth it finished
    (sealed if an action followed it, as :func:`after_action` seals) and the ``ended`` row of an
    ended session — facts that hold even when the damage also cut the session's last actions —,
    and the ``abandoned`` row of a replaced game only when a damaged row of it says so. A row keeps its
    old id and finish time where they still read; else the time is ``ended_at`` (when it was
    replaced) or now, marked approximate (``unsynced``). Rows that exist are left alone. Returns
    the parts written; raises StorageError, or LegatusError/ValueError if a line does not replay."""
    from firmware.session import END, Session
    session = Session.from_header(header, [])
    game = session.game.name
    sid = str(header["sid"])
    mine = [x for x in lost if x.sid == sid]
    depths: dict[str, tuple[int, dict[str, Any]]] = {}
    record = _record(game)
    for line in lines:
        session.apply(line)
        if line == END or record is None or record.finished is None:
            continue
        view = dict(session.game.view(session.state))
        command, fields = record.replayed(view, line) if record.replayed is not None else ("", None)
        for part, rec in finished_parts(game, view, command=command, fields=fields):
            depths.setdefault(part, (len(session.lines), rec))
    ended = bool(session.ended)
    score = session.command("score") if record is not None else None
    scored = {x.part for x in mine} - {None, "abandoned", "ended"}
    if score is not None and not score.mutates and scored:     # a record made when a read-only score was asked
        # the question as the damaged row still shows it (Glory's ``score <sheet>``: the sheet is in no
        # stored action, so the bare question would score an empty pad: everybody 1 point, all winners)
        asked = next((x.asked for x in mine if x.part in scored and x.asked
                      and x.asked.split(maxsplit=1)[0] == "score"), None)
        # a sheet question the damage made unanswerable (a name, a key): the players and result the
        # row still shows are whole (one bad byte, in the question), and the sheet is in no stored action
        sheet = asked is not None and asked.strip() != "score"
        for question in [asked, "score"] if asked else ["score"]:
            try:
                fields = dict(session.run(question)[0].fields)
            except (LegatusError, ValueError, RecursionError) as e:
                log.info("no score to rebuild History from with %r: %s", question[:40], e)
                continue
            for part, rec in finished_parts(game, dict(session.game.view(session.state)), command="score", fields=fields):
                if part in scored:
                    if question != "score":
                        rec = {**rec, "asked": question}
                    elif sheet and (shown := _as_kept(rec, mine, part)) is not None:
                        rec = shown
                    depths[part] = (depths[part][0] if part in depths else len(session.lines), rec)
            break

    def when(part: str) -> tuple[tuple[str, bool], int | None]:
        for x in mine:
            if x.part == part:
                return ((x.finished, x.rough) if x.finished else (ended_at or _now(), True)), x.rid
        return (ended_at or _now(), True), None

    written: list[str] = []
    with store.transaction() as db:
        ensure(db)
        for part, (depth, rec) in depths.items():
            if _row(db, sid, part) is None:
                at, rid = when(part)
                _put(db, session.header, part, rec, depth, "finished", session.lines, finished=at, rid=_free(db, rid))
                written.append(part)
        if written:
            db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (sid,))
        if ended and _row(db, sid, "ended") is None:
            at, rid = when("ended")
            _ended_row(db, session, session.ended_as() or "ended", finished=at, rid=_free(db, rid))
            written += ["ended"] if _row(db, sid, "ended") is not None else []
        elif archived and any(x.part == "abandoned" for x in mine) and not db.execute(
                "SELECT 1 FROM history WHERE sid=?", (sid,)).fetchone():      # only a row known to have been there
            at, rid = when("abandoned")
            view = dict(session.game.view(session.state))
            rec = {"mode": unfinished_mode(game, view, "abandoned"),
                   "players": _unfinished_players(game, view),
                   "result": abandoned(len(session.lines))}
            _put(db, session.header, "abandoned", rec, len(session.lines), "abandoned", session.lines,
                 finished=at, rid=_free(db, rid))
            written.append("abandoned")
        _seal(db, sid, None if archived or ended else len(session.lines))
    return written


def asked_again(store: Any, session: Any) -> None:
    """After a correction (``amends``) or an undo: the read-only question that made an unsealed
    record (Glory's ``score``) is asked again of the state as it is now and the record follows it
    (keeping its depth: undoing the correction does not take the record back, it follows again),
    so nothing acknowledged is lost when the game is ended next (a record made before questions
    were kept with it: the session's own bare question, as a rebuild asks)."""
    sid = str(session.header["sid"])
    with store.transaction() as db:
        ensure(db)
        rows = db.execute("SELECT part, depth, record FROM history WHERE sid=? AND sealed=0 "
                          "AND part NOT IN ('abandoned', 'ended')", (sid,)).fetchall()
    if not rows:
        return
    kept: dict[str, list[tuple[Any, Any, Any]]] = {}
    try:
        asked = ""
        for part, _depth, raw in rows:
            data = json.loads(_text(raw))
            asked = asked or str(data.get("asked") or "")
            kept[_text(part)] = _scores(data["players"])
    except (ValueError, UnicodeDecodeError, AttributeError, KeyError, TypeError) as e:
        log.warning("History row of %s does not parse (%s): its question is asked bare", sid, e)
    command = asked.split(maxsplit=1)[0] if asked else "score"
    question = session.command(command)
    if question is None or question.mutates:            # never expected: only a question is asked again
        log.error("'%s' is not a question of the game: History's record of %s is not asked again", command, sid)
        return
    try:
        outcome, _changed = session.run(asked or command)
    except LegatusError as e:
        log.warning("the score of a corrected game cannot be asked again (%s): History keeps the last one", e)
        return
    depths = {_text(part): int(depth) for part, depth, _rec in rows}
    game = session.game.name
    parts = finished_parts(game, dict(session.game.view(session.state)), command=command, fields=dict(outcome.fields))
    with store.transaction() as db:
        for part, rec in parts:
            if part in depths and kept.get(part) != _scores(rec["players"]):    # (the same: nothing written)
                _put(db, session.header, part, {**rec, "asked": asked} if asked else rec, depths[part], "finished",
                     session.lines)


def _scores(players: Any) -> list[tuple[Any, Any, Any]]:
    return [(p.get("name"), p.get("score"), p.get("winner")) for p in players]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else bytes(value).decode("utf-8")


def _free(db: sqlite3.Connection, rid: int | None) -> int | None:
    """``rid`` if no History row holds it (else None: a new id)."""
    if rid is None or db.execute("SELECT 1 FROM history WHERE id=?", (rid,)).fetchone():
        return None
    return rid


def reconcile(store: Any, session: Any) -> None:
    """At start and ``state`` (and before ``new`` replaces ``session``): what the disk refused, or
    a power cut cut short, after a saved action is done now — the record of a finish an undo took
    back taken out, a record a later action followed sealed (so that undo keeps it), the game still
    played no longer listed as abandoned (a ``new`` cut short) — and a finish a crash lost is
    recorded. Idempotent; nothing is written when nothing is missing."""
    record = _record(session.game.name)
    if record is not None:
        undone, followed, abandoned_row = _left(store.db, session)
        if undone:
            after_undo(store, session)
        if abandoned_row:
            forget_abandoned(store, session)
        last = (session.lines[-1].split() or [""])[0] if session.lines else ""
        amended = record.amends is not None and record.amends(session.game.view(session.state), last)
        if followed and not amended:
            with store.transaction() as db:
                _seal(db, str(session.header["sid"]), len(session.lines))
        if amended and not session.ended:      # a correction whose record was not made to follow it
            asked_again(store, session)
    record_state(store, session, late=True)


def _left(db: sqlite3.Connection, session: Any) -> tuple[bool, bool, bool]:
    """Whether History holds, for the session: a record made after its last action (unsealed, or
    sealed and not yet marked reopened: firmware/history_follow.py), an unsealed one made before
    it, and an ``abandoned`` row (the session is the one played: never abandoned)."""
    n, sid = len(session.lines), str(session.header["sid"])
    try:
        row = db.execute("SELECT max(depth>? AND sealed IN (0, 1) AND part!='abandoned'), "
                         "max(depth<? AND sealed=0 AND part!='abandoned'), max(part='abandoned') "
                         "FROM history WHERE sid=?", (n, n, sid)).fetchone()
    except sqlite3.Error as e:
        log.warning("History cannot be read to find what the disk refused: %s", e)
        return False, False, False
    return bool(row[0]), bool(row[1]), bool(row[2])
