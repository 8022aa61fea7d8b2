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
from typing import Any, Literal, NamedTuple, cast

from engine.errors import LegatusError
from firmware.games import unfinished_mode
from firmware.history import (_ended_row, _now, _put, _unfinished_players, _record, _row, _seal, after_undo, ensure,
                              finished_parts, forget_abandoned, record_state)
from firmware.history_text import Msg, abandoned

log = logging.getLogger(__name__)

_FINISHED_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")       # as a record says when


class Lost(NamedTuple):
    """What is left of a damaged History row (its bytes, as the start-up check kept them): the
    id and, where they still read, the session, the part, the finish time, whether that time
    was taken while the clock was not set (unless its ``unsynced`` list still reads whole without
    it, an unsure one: the damage may be in that list), the read-only question the record
    answered (``asked``: Glory's ``score <sheet>``, whose sheet no stored action holds), its
    players and result, and what no replay gives again (``carried``: :func:`_carried`)."""

    rid: int | None
    sid: str | None
    part: str | None
    finished: str | None
    rough: bool = False
    asked: str | None = None
    kept: tuple[list[dict[str, Any]], Any] | None = None     # its players and result, where they still read
    carried: dict[str, Any] | None = None

    @classmethod
    def of(cls, raw: bytes) -> Lost:
        fields = raw.split(b"\x1f")

        def text(i: int) -> str | None:
            try:
                return fields[i].decode("ascii") if len(fields) > i else None
            except UnicodeDecodeError:
                return None
        rid = text(0)
        sid, part = (fields[i].decode("ascii", "replace") if len(fields) > i else None for i in (1, 2))  # (bad byte: U+FFFD)
        data = _fields(fields[6]) if len(fields) > 6 else {}
        when = data.get("finished") if isinstance(data.get("finished"), str) and _FINISHED_AT.fullmatch(
            data["finished"]) else None
        try:
            _dt.datetime.fromisoformat(when.replace("Z", "+00:00") if when else "")
        except ValueError:
            when = None
        # the finish time is sure only where the list of unsure times still reads whole without it
        rough = data.get("unsynced") not in ([], ["started"])
        asked = data.get("asked")
        return cls(int(rid) if rid and rid.isdecimal() else None, sid, part, when, rough,
                   asked if isinstance(asked, str) and asked.strip() else None, _kept(data), _carried(data))


def known(raw: bytes) -> tuple[Msg | str | None, str | None, list[str] | None]:
    """What a damaged History row still tells of its game, where it reads whole (nothing made
    up): its game (the name History gives it; the session game's id for one this program does
    not know), when it finished (UTC ISO), its players' names (none: a dice or bag session's;
    None: they do not read)."""
    fields = raw.split(b"\x1f")
    data = _fields(fields[6]) if len(fields) > 6 else {}
    game = data.get("game") if isinstance(data.get("game"), str) and data["game"].strip() else None
    players = data.get("players")
    names = [p["name"] for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)] \
        if isinstance(players, list) else None
    if names is not None and len(names) != len(cast(list[Any], players)):
        names = None                        # (one of them does not read)
    from firmware.games import record_of
    record = record_of(game) if game is not None else None
    return Msg(record.label) if record is not None else game, Lost.of(raw).finished, names


def _fields(record: bytes) -> dict[str, Any]:
    """The top-level fields of a damaged row's record that still read whole: all of them where the
    record still parses; else each read by itself, so that one bad byte that breaks the JSON (a
    quote, a bracket) takes only the field it fell in — those before it read in order, those
    after it from the first ``, "`` after it from which the rest reads in order up to the record's
    closing brace (never a field of an earlier record it carries: one inside reaches no closing
    brace of the record's own). A value holding a byte that is not UTF-8 is not whole."""
    text = record.decode("utf-8", "surrogateescape")
    decoder = json.JSONDecoder()

    def pairs(at: int, out: dict[str, Any]) -> int:
        """Read ``"key": value`` pairs from ``at`` to the closing brace (-1), or up to a pair that
        does not read, or is not followed by the next one or that brace (where it begins)."""
        while True:
            try:
                key, colon = decoder.raw_decode(text, at)
                if not isinstance(key, str) or text[colon:colon + 2] != ": ":
                    return at
                value, end = decoder.raw_decode(text, colon + 2)
                text[colon + 2:end].encode("utf-8")            # (a lone surrogate: a byte the damage made)
            except (ValueError, UnicodeEncodeError, RecursionError):
                return at
            if text[end:] != "}" and text[end:end + 3] != ', "':
                return at                   # (a value cut short by the damage: a quote in a string)
            out.setdefault(key, value)
            if text[end:] == "}":
                return -1
            at = end + 2
    out: dict[str, Any] = {}
    stop = pairs(1, out)                    # (its opening brace is not read: a bad byte there takes nothing)
    at = text.find(', "', stop) if stop >= 0 else -1
    while at >= 0:
        rest: dict[str, Any] = {}
        if pairs(at + 2, rest) == -1:
            return {**rest, **out}
        at = text.find(', "', at + 1)
    return out


def _players(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("winner"), bool)
        and (p.get("score") is None or type(p.get("score")) is int) for p in value)


def _result(value: Any) -> bool:
    from engine.text import from_data
    try:
        from_data(value)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return False
    return True


def _replaced(value: Any) -> bool:        # (history_follow.earlier reads each of them)
    return isinstance(value, list) and all(isinstance(r, dict) and _result(r.get("result")) for r in value)


def _kept(data: dict[str, Any]) -> tuple[list[dict[str, Any]], Any] | None:
    """The players and result of a damaged row's record, where both still read whole."""
    players, result = data.get("players"), data.get("result")
    return (cast(list[dict[str, Any]], players), result) if _players(players) and _result(result) else None


def _carried(data: dict[str, Any]) -> dict[str, Any]:
    """What a damaged row's record holds that no replay gives, where it still reads whole: the
    play's measured length (``minutes``), the results an earlier finish had (``replaced``) and the
    sealed record an undo of this finish brings back (``was``: firmware/history_follow.py)."""
    minutes, span, replaced, was = data.get("minutes"), data.get("span"), data.get("replaced"), data.get("was")
    whole = (isinstance(was, dict) and type(was.get("depth")) is int and isinstance(was.get("record"), dict)
             and _players(was["record"].get("players")) and _result(was["record"].get("result")))
    return {**({"minutes": minutes} if type(minutes) is int and minutes > 0 else {}),
            **({"span": span} if type(span) is int and span > 0 else {}),
            **({"replaced": replaced} if replaced and _replaced(replaced) else {}), **({"was": was} if whole else {})}


def _winners_only(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two records of a part differ only in who won (the same players, each with the same score)."""
    ours, theirs = _scores(a["players"]), _scores(b["players"])
    return ours != theirs and [s[:2] for s in ours] == [s[:2] for s in theirs]


def _same(a: dict[str, Any], b: dict[str, Any]) -> tuple[bool, bool]:
    """Whether two records of a part give the same players' scores and winners, and the same result."""
    from engine.text import to_data
    return (_scores(a["players"]) == _scores(b["players"]),
            json.dumps(to_data(a["result"]), sort_keys=True) == json.dumps(to_data(b["result"]), sort_keys=True))


def _as_kept(rec: dict[str, Any], x: Lost) -> dict[str, Any] | None:
    """``rec`` with the players and result the damaged row ``x`` still shows (the same players in
    the same order, each with a whole score), else None."""
    from engine.text import from_data
    if x.kept is None:
        return None
    players, result = x.kept
    if ([p.get("name") for p in players] == [p.get("name") for p in rec["players"]]
            and all(type(p.get("score")) is int for p in players)):
        try:
            return {**rec, "players": players, "result": from_data(result)}
        except (ValueError, KeyError, TypeError) as e:
            log.info("the result of damaged History row %s does not read: %s", x.rid, e)
    return None


def lost_score(p: dict[str, Any]) -> dict[str, Any]:
    """A player whose score the damage took, where the others' still read: no score, no place (the
    place the damaged sheet gave was worked out with the damaged figure), and marked ``damaged`` so
    that the game's page and its exports say why the score is missing (it showed «·Анна», nothing
    said, and BG Stats got her as last)."""
    return {**{k: v for k, v in p.items() if k != "rank"}, "score": None, "damaged": True}


def _unscored(rec: dict[str, Any]) -> dict[str, Any]:
    """A finished game whose score the damage took and nothing holds again: its players without a
    score or a winner, and a result that says so (never a score made up)."""
    from firmware.games import player
    return {**{k: v for k, v in rec.items() if k != "asked"},
            "players": [player(str(p["name"]), None, False, bool(p.get("startPlayer"))) for p in rec["players"]],
            "result": UNSCORED}


UNSCORED = Msg("Finished; its score was damaged and could not be worked out again.")


def _answers(session: Any, game: str, question: str) -> dict[str, dict[str, Any]]:
    """The records the read-only ``question`` (Glory's ``score …``) answers of the session's state."""
    try:
        fields = dict(session.run(question)[0].fields)
    except (LegatusError, ValueError, RecursionError) as e:
        log.info("no score to rebuild History from with %r: %s", question[:40], e)
        return {}
    view = dict(session.game.view(session.state))
    return dict(finished_parts(game, view, command="score", fields=fields))


def _scored_again(session: Any, game: str, record: Any, part: str, x: Lost) -> dict[str, Any] | None:
    """The record of ``part``, made when a read-only question was asked (Glory's ``score``), as
    the damaged row ``x`` of it lets it be worked out again (None: the game has no such part):

    - the question the row still shows, asked again, where it answers with no figure of its own
      (``score sheet``: the stored pad) — or, one that carries its sheet (``score <sheet>``), where
      the players and result the row still shows agree, or only that row's result was damaged;
    - else the players and result the row still shows, where they read whole (the damage was in
      the question: one bad byte is in one place);
    - else the question the game says its saved state answers (``settled``: a pad holding figures);
    - else the game with its players and no score, said to be damaged (:func:`_unscored`)."""
    bare = _answers(session, game, "score").get(part)
    if bare is None:
        return None
    settled = record.settled(dict(session.game.view(session.state))) if record.settled is not None else ""
    asked = x.asked if x.asked and x.asked.split(maxsplit=1)[0] == "score" else None
    kept = _as_kept(bare, x)
    if asked is not None and (answered := _answers(session, game, asked).get(part)) is not None:
        answered = {**answered, "asked": asked} if asked.strip() != "score" else answered
        if kept is not None and _winners_only(answered, kept):
            # the same players and points, other winners: no bad byte turns one winner flag into another
            # (``true``/``false``): the rules told a tie otherwise when the record was made (Glory's
            # G-15 before the denarii left after the exchange told it) — the record acknowledged stays
            return {**kept, "asked": asked} if asked.strip() != "score" else kept
        if asked.strip() in ("score", settled) or kept is None:
            return answered
        players_same, result_same = _same(answered, kept)
        if players_same:
            return answered                    # (whole, or the damage was in the row's result)
        if not result_same:
            return {**kept, "asked": asked}    # the damage was in the question's sheet
        # the same result, not the same players: the damage is in the row's players (then the question
        # answers), or in a figure of the sheet that changed no winner's score; a winner's score told
        # apart says which (each winner's score is in the result both give): else those scores are left out
        differ = [a != k for a, k in zip(_scores(answered["players"]), _scores(kept["players"]))]
        if any(d and p["winner"] for d, p in zip(differ, answered["players"])):
            return answered
        log.warning("damaged History row %s: its sheet and its players disagree on a score the result does "
                    "not tell; that score is left out", x.rid)
        return {**answered, "players": [lost_score(p) if d else p for d, p in zip(differ, answered["players"])]}
    if kept is not None:
        return {**kept, "asked": asked} if asked else kept
    if settled:
        answered = _answers(session, game, settled).get(part)
        if answered is not None:
            return {**answered, "asked": settled}
    return _unscored(bare)


def rebuild(store: Any, header: dict[str, Any], lines: Sequence[str], archived: bool, lost: Sequence[Lost],
            ended_at: str | None, unscored: list[str] | None = None) -> list[str]:
    """Write again the History rows of a stored session (its ``header`` and effective ``lines``;
    ``archived``: another session replaced it) that damage took (:class:`Lost`, set aside by the
    start-up check), from a replay of its lines: each finished part at the depth it finished
    (sealed if an action followed it, as :func:`after_action` seals) and the ``ended`` row of an
    ended session — facts that hold even when the damage also cut the session's last actions —,
    and the ``abandoned`` row of a replaced game only when a damaged row of it says so. A row keeps its
    old id and finish time where they still read; else the time is ``ended_at`` (when it was
    replaced) or now, marked approximate (``unsynced``). Rows that exist are left alone. Returns
    the parts written (and adds to ``unscored`` those written without the score the damage took:
    :func:`_unscored`); raises StorageError, or LegatusError/ValueError if a line does not replay."""
    from firmware.session import END, Session
    session = Session.from_header(header, [])
    game = session.game.name
    sid = str(header["sid"])
    mine = [x for x in lost if x.sid == sid]
    depths: dict[str, tuple[int, dict[str, Any]]] = {}
    missing: set[str] = set()           # parts whose score the damage took, all or some (:func:`_scored_again`)
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
    asks = record is not None and score is not None and not score.mutates      # a record made when a score was asked
    mine = named(mine, "part", {*depths, *(_answers(session, game, "score") if asks and mine else ()), "ended", "abandoned"})
    if record is not None and asks:
        scored = {x.part for x in mine if x.part is not None} - {"abandoned", "ended"}
        for part in sorted(scored):                         # a damaged row of it
            row = next((x for x in mine if x.part == part and x.asked), next(x for x in mine if x.part == part))
            again = _scored_again(session, game, record, part, row)
            if again is not None:
                missing |= {part} if any(p.get("score") is None for p in again["players"]) else set()
                depths[part] = (depths[part][0] if part in depths else len(session.lines), again)
        settled = record.settled(dict(session.game.view(session.state))) if record.settled is not None else ""
        if ended and not mine and settled:          # no row left at all (a database salvaged): the score is
            for part, rec in _answers(session, game, settled).items():     # final, and the saved pad holds it
                depths[part] = (depths[part][0] if part in depths else len(session.lines), {**rec, "asked": settled})

    def when(part: str) -> tuple[tuple[str, bool], int | None]:
        for x in mine:
            if x.part == part:
                return ((x.finished, x.rough) if x.finished else (ended_at or _now(), True)), x.rid
        return (ended_at or _now(), True), None

    def carried(part: str) -> dict[str, Any]:
        return next((x.carried for x in mine if x.part == part and x.carried), {})

    written: list[str] = []
    with store.transaction() as db:
        ensure(db)
        for part, (depth, rec) in depths.items():
            if _row(db, sid, part) is None:
                at, rid = when(part)
                _put(db, session.header, part, rec, depth, "finished", session.lines, finished=at, rid=_free(db, rid),
                     carried=carried(part))
                written.append(part)
                if unscored is not None and part in missing:
                    unscored.append(part)
        if written:
            db.execute("DELETE FROM history WHERE sid=? AND part='abandoned'", (sid,))
        if ended and _row(db, sid, "ended") is None:
            at, rid = when("ended")
            _ended_row(db, session, session.ended_as() or "ended", finished=at, rid=_free(db, rid), carried=carried("ended"))
            written += ["ended"] if _row(db, sid, "ended") is not None else []
        elif archived and any(x.part == "abandoned" for x in mine) and not db.execute(
                "SELECT 1 FROM history WHERE sid=?", (sid,)).fetchone():      # only a row known to have been there
            at, rid = when("abandoned")
            view = dict(session.game.view(session.state))
            rec = {"mode": unfinished_mode(game, view, "abandoned"),
                   "players": _unfinished_players(game, view),
                   "result": abandoned(len(session.lines))}
            _put(db, session.header, "abandoned", rec, len(session.lines), "abandoned", session.lines,
                 finished=at, rid=_free(db, rid), carried=carried("abandoned"))
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


def named(lost: list[Lost], field: Literal["sid", "part"], names: set[str]) -> list[Lost]:
    """``lost`` with a session id or part name (``field``: ``sid``, ``part``) that one bad byte
    changed (``game`` → ``gaie``) named again: the one of ``names`` (the stored sessions' ids, the
    parts the session's game has) that differs from it in that one byte, where there is exactly one
    (``battle-9`` for ``battle-2`` of a campaign with nine battles stays as it is)."""
    def near(name: str, known: str) -> bool:
        return len(name) == len(known) and sum(a != b for a, b in zip(name, known)) == 1
    out = []
    for x in lost:
        name = getattr(x, field)
        found = [n for n in names if near(name, n)] if name is not None and name not in names else []
        if len(found) == 1:
            x = x._replace(sid=found[0]) if field == "sid" else x._replace(part=found[0])
        out.append(x)
    return out


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
