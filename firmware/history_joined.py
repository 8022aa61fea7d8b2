"""History's records of one game played as the device's screens show it: a game reopened from
History's Earlier games goes on in a copy (a new session), and each session keeps records of its
own — the first session's ``abandoned`` row (left for another game), the copy's finish (its
records name the first session: ``of``). BG Stats gets them as one play (firmware/export_plays.py);
History's list, a game's page and the statistics show one game played once too.

Only the screens join them. The console's ``history`` keeps answering every record as stored:
PROTOCOL.md fixes that a session replaced by ``new`` before anything of it finished is recorded
as ``abandoned`` and that ``history`` lists the records (each with its own ``id``, which
``export … id=N`` and the CSV name), so a tool reading the console sees both records and the
``of``-free rows it always saw. A record joined into another is never dropped: the page of the
game it joined says when it was played before and how that session ended
(:func:`earlier_rows`). A damaged row is left out before this (firmware/history.py ``games``; the
start-up check reports it), as everywhere.

A Julius Caesar game of one battle that the players ended (``end``) keeps two records as well:
the battle's (J-13) and the ``ended`` record of the whole game that ``end`` files (firmware/
history.py ``record_ended``; PROTOCOL.md: a game stopped before its rules ended it). Its BG Stats
play is the battle and the statistics count the battle once; the screens show that one row too,
the battle's page saying when and how the players ended the game then. Every other game a rule
finished has no ``ended`` record beside it (Caesar!, Glory, Sword: ``end`` adds none).

Records made before they named their first session (no ``of``: a Legatus from before wrote a
copy's so) are joined by the same rule as the export joins them (firmware/export_plays.py
``_copies``): the copy's session header names the session it is a copy of (``copy_of``). The
screens read no storage: History's reads give each such record its ``of`` (:func:`with_firsts`,
firmware/history_reads.py), as if it had been written with it.
"""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, cast

E = TypeVar("E", bound=Mapping[str, Any])
log = logging.getLogger(__name__)


def headers(db: sqlite3.Connection, mark: str) -> list[dict[str, Any]]:
    """The session headers whose stored text holds ``mark`` (decoded; a row that fails its
    checksum, in either format, or does not parse is left out)."""
    from firmware.store.schema import SESSION_ROW, session_crc
    from firmware.storage import crc
    out = []
    for row in db.execute(f"SELECT {SESSION_ROW} FROM sessions WHERE instr(CAST(header AS BLOB), ?) > 0",
                          (mark.encode(),)).fetchall():
        rid, text, current, ended, check = row
        if check not in (session_crc(rid, text, current, ended), crc(rid, text)):   # (either format's)
            continue
        try:
            header = json.loads(bytes(text).decode("utf-8"))
        except (ValueError, RecursionError):
            continue
        if isinstance(header, dict):
            out.append(header)
    return out


def firsts(db: sqlite3.Connection) -> dict[str, str]:
    """By the ``sid`` of each copy of a game reopened from Earlier games, the session the game was
    first played in, as the copy's header says it (``copy_of``); {} when the sessions cannot be
    read (logged: the records then stay as they are stored)."""
    try:
        return {str(h["sid"]): str(h["copy_of"]) for h in headers(db, '"copy_of"')
                if h.get("sid") and isinstance(h.get("copy_of"), str) and h["copy_of"]}
    except sqlite3.Error as e:
        log.warning("the copies of reopened games cannot be read: %s", e)
        return {}


def with_firsts(entries: Sequence[E], first: Mapping[str, str]) -> list[E]:
    """``entries`` with each record a copy made before records named their first session (no
    ``of``, its session in ``first``: :func:`firsts`) given its ``of`` — a new entry; the others
    the same objects (shared reads: never changed)."""
    out = []
    for e in entries:
        if not e.get("of") and (was := first.get(str(e.get("sid") or ""))) and was != e.get("sid"):
            e = cast(E, {**e, "of": was})
        out.append(e)
    return out


def root(entry: Mapping[str, Any]) -> str:
    """The session a record's game was first played in: its copies' records name it (``of``)."""
    return str(entry.get("of") or entry.get("sid") or "")


def _parted(entry: Mapping[str, Any]) -> bool:
    """Whether the record is a part of a game (a Julius Caesar battle), not the whole game."""
    from firmware.games import record_of
    record = record_of(str(entry["game"]))
    return record is not None and record.parted is not None and record.parted(str(entry.get("part", "")))


# the last reads joined: the entries (held, so that their ids name them), their ids, the answer
_made: list[tuple[list[Any], tuple[int, ...], tuple[list[Any], dict[int, list[Any]]]]] = []


def joined(entries: Sequence[E]) -> tuple[list[E], dict[int, list[E]]]:
    """``entries`` (newest first) with the records of a game reopened and played on in copies
    joined: the records it keeps (the same objects, in their order) and, by the id of a record
    kept, the records joined into it, oldest first. Of a game's records of the whole game, the one
    its BG Stats play is stands (the newest that finished it, else that the players ended, else
    the newest left); a record left (``abandoned``) before a battle of a Julius Caesar game ended
    joins the copy's first battle when no record of the whole game stands; a battle fought again
    in another copy from the same point: the newest. A Julius Caesar game of one battle that the
    players ended (``end`` files an ``ended`` record of the whole game beside the battle's, which
    names no winner) is that battle, as its BG Stats play is (firmware/export_plays.py
    ``play_of``): the ``ended`` record joins it (History listed «JC battle 1» and «Julius Caesar»
    for one battle played). Any other game never reopened is left as it is.
    History's list joins them at every frame: the last two reads' answers are kept (the App gives
    the same entries until History may read differently; never change them)."""
    ids = tuple(map(id, entries))
    for _held, was, made in _made:
        if was == ids:
            return list(made[0]), made[1]
    out = _joined(entries)
    _made[:] = [(list(entries), ids, out), *_made[:1]]
    return list(out[0]), out[1]


def _joined(entries: Sequence[E]) -> tuple[list[E], dict[int, list[E]]]:
    groups: dict[str, list[E]] = {}
    for e in entries:
        if e.get("sid"):
            groups.setdefault(root(e), []).append(e)
    into: dict[int, int] = {}                 # the id of a record joined → the id it joined
    for group in groups.values():
        ordered = sorted(group, key=lambda e: int(e["id"]))
        whole = [e for e in ordered if not _parted(e)]
        battles = [e for e in ordered if _parted(e)]
        if not any(e.get("of") for e in group) and not (whole and battles):
            continue                            # never reopened, no battle beside the game's end: each stands
        by_part: dict[str, E] = {}
        for e in battles:                       # (oldest first: the newest of a part stays)
            if (was := by_part.get(str(e["part"]))) is not None:
                into[int(was["id"])] = int(e["id"])
            by_part[str(e["part"])] = e
        if not whole:
            continue
        verdict = next((e for e in reversed(whole) if e["status"] == "finished"), None)
        pick = verdict or next((e for e in reversed(whole) if e["status"] == "ended"), None)
        copied = [e for e in by_part.values() if e.get("of")]
        if verdict is None and len(by_part) == 1:   # a game of one battle, ended or left: that battle
            target = next(iter(by_part.values()))
        elif pick is None and copied:           # left, then battles fought in a copy: the first of them
            target = min(copied, key=lambda e: int(e["id"]))
        else:
            target = pick or whole[-1]
        for e in whole:
            if e is not target:
                into[int(e["id"])] = int(target["id"])
    earlier: dict[int, list[E]] = {}
    for e in sorted(entries, key=lambda e: int(e["id"])):
        if int(e["id"]) in into:
            last = int(e["id"])
            while last in into:                 # (a battle joined into one that joined another)
                last = into[last]
            earlier.setdefault(last, []).append(e)
    return [e for e in entries if int(e["id"]) not in into], earlier


def _when(entry: Mapping[str, Any], key: str) -> str:
    """A record's time as a game's page says it when the game was played before: ``01.03 18:40``
    (one word to the wrap: the day and its time never on two rows), ``~01.03 18:40`` when the clock
    was not synchronised; "" when not known."""
    from firmware.export_dates import local
    when = local(entry.get(key))
    if when is None:
        return ""
    said = f"{when:%d.%m}\u00a0{when:%H:%M}"       # (base.TIE)
    return f"~{said}" if key in (entry.get("unsynced") or ()) else said


def earlier_rows(entry: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]]) -> list[str]:
    """What a game's page says of the records joined into ``entry`` (:func:`joined`): that the game
    was reopened from Earlier games, and when (the copy's start), then each earlier record, oldest
    first, with when it was left or ended and its result as History keeps it («Раньше, 01.03
    18:40: Брошена после 6 действий.»); a record made after ``entry`` (the players' end of a Julius
    Caesar game of one battle) says what came then («Затем, 01.03 18:40: Завершена игроками после
    3 действий.»). Nothing for a game never reopened with nothing joined into it."""
    from firmware.history_text import _, say
    from firmware.seats import seats_said
    rows = []
    if entry.get("of") or any(e.get("sid") != entry.get("sid") for e in earlier):
        begun = "" if _parted(entry) else _when(entry, "started")      # (a battle's start is not the copy's)
        rows.append(_("Reopened from Earlier games on {}.").format(begun) if begun else _("Reopened from Earlier games."))
    for e in earlier:
        result = say(seats_said(str(e["game"]), e["result"]))
        when = _when(e, "finished")
        if int(e["id"]) > int(entry["id"]):     # (recorded after it: how the game ended then)
            rows.append(_("Then, {when}: {result}").format(when=when, result=result) if when
                        else _("Then: {}").format(result))
        else:
            rows.append(_("Earlier, {when}: {result}").format(when=when, result=result) if when
                        else _("Earlier: {}").format(result))
    return rows
