"""The players this device has seen (PROTOCOL.md, third round: ``players``, ``players forget``).

A person's name is remembered when a new game is set up with it (Glory's ``players=``, any game's
``people=``, firmware/session.py); History recording a game they played, or a game of theirs
reopened from Earlier games, makes them the most recent again (a new table starts with the people
History holds). The list is offered first in every player form of the device, most recent first.
A name can be renamed (the old one is kept as an alias, so History's older games and the statistics
stay with the same person) or forgotten (History keeps its games): a forgotten name comes back only
when a new set-up names the person again, never because a game they played was filed later. A
forgotten person's row stays, hidden (``gone``): their names and id still make one person of
History's games in every export, and a set-up naming them again brings them back as they were.

What the list keeps (:data:`MAX_KEPT`): at most that many *plain* people are listed — named once,
never renamed nor merged, so their name says all their row holds (their id is their name
casefolded) —; the least recent beyond it are taken off the list: their games stay in History and
export under the same id, and naming them again remembers them as they were. A person with a
record of their own (earlier names, an id not their name's, forgotten) is never taken off: those
rows grow only by what a player does by hand (a rename, a merge, a forget), never by games.
Seats such as *Caesar* or *Romans*, a game's placeholder names (Glory's seat colours,
*Auto-Crassus*) and ``Player N`` are not people and are never remembered.

The ``players`` table sits beside the store's (like History's): one row per person, ``name``
(primary key), ``data`` (JSON: ``seen``, a counter — the higher, the more recent —, ``was``,
the names it had before, and ``id``, the person's id in exports — BG Stats' ``sourcePlayerId`` —:
the name they were first remembered by, casefolded, kept through renames; a row written before
ids were kept has its name's) and ``crc`` (:func:`player_crc`, over the raw bytes, checked before
anything is decoded; the store reports a damaged row and sets it aside at start, and carries the
rows into a rebuilt database: firmware/store/).
"""
from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, NamedTuple

from engine.errors import BadArguments
from engine.names import check_name, folded, named
from engine.text import Msg
from firmware.storage import crc

log = logging.getLogger(__name__)

SCHEMA = "CREATE TABLE IF NOT EXISTS players(name TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL)"
# the columns of the table (the store checks the schema against them and carries its rows when it
# rebuilds a damaged database)
COLUMNS = {"players": ("name", "data", "crc")}
# Raw reads: the stored bytes, checked before they are decoded.
PLAYER_ROW = "CAST(name AS BLOB), CAST(data AS BLOB), CAST(crc AS INTEGER)"
MAX_NAME = 16            # a name typed on the device or given in an option (no spaces)
MAX_KEPT = 200           # the most plain people the list keeps (the least recent go first; module doc)
# "Player 1", «Игрок 2», «Гравець 3»: the names given when nobody was named are not people
_NUMBERED = re.compile(r"^(player|игрок|гравець)\s*\d+$", re.IGNORECASE)


class Known(NamedTuple):
    """A remembered person: ``name``, ``seen`` (higher: more recent), ``was`` (earlier names),
    ``pid`` (their id in exports, the same through renames: :func:`ids`), ``gone`` (forgotten:
    off the list, their names still theirs in exports)."""

    name: str
    seen: int
    was: tuple[str, ...]
    pid: str = ""
    gone: bool = False

    @property
    def plain(self) -> bool:
        """Whether the row holds nothing its name does not say (never renamed, merged nor
        forgotten): taking it off the list loses nothing (:data:`MAX_KEPT`)."""
        return not self.was and not self.gone and self.pid == self.name.casefold()


def player_crc(name: str | bytes, data: str | bytes) -> int:
    """The checksum of a ``players`` row (tagged: its shape is a setting's), over the raw bytes."""
    return crc("player", name, data)


def _decoded(name: bytes, data: bytes, check: int) -> Known | None:
    """A raw row as a :class:`Known`, or None if its checksum fails or it does not parse."""
    if player_crc(name, data) != check:
        return None
    try:
        record = json.loads(bytes(data).decode("utf-8"))
        text = bytes(name).decode("utf-8")
        seen = int(record["seen"])
        was = tuple(str(w) for w in record.get("was", []))
        pid = str(record.get("id") or text.casefold())
        gone = record.get("gone", False) is True
    except (ValueError, KeyError, TypeError, RecursionError, AttributeError):
        return None
    return Known(text, seen, was, pid, gone)


def _data(seen: int, was: Iterable[str], pid: str, gone: bool = False) -> str:
    record: dict[str, Any] = {"seen": seen, "was": list(was), "id": pid}
    if gone:
        record["gone"] = True
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _write(db: sqlite3.Connection, name: str, seen: int, was: Iterable[str], pid: str, gone: bool = False) -> None:
    data = _data(seen, was, pid, gone)
    db.execute("INSERT OR REPLACE INTO players(name, data, crc) VALUES(?,?,?)", (name, data, player_crc(name, data)))


def ensure(db: sqlite3.Connection) -> bool:
    """Create the table if it is missing; True if it was made now (the store then fills it with
    the people History already holds: firmware/history.py :func:`~firmware.history.ensure_players`)."""
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='players'").fetchone()
    if exists:
        return False
    db.execute(SCHEMA)
    return True


def remember(db: sqlite3.Connection, entries: list[dict[str, Any]]) -> None:
    """Inside a transaction: remember the people of History ``entries`` (newest first), the newest
    most recent."""
    for e in reversed(entries):                  # oldest first: the newest ends up most recent
        _seen(db, people_of(e))


# -- who is a person -------------------------------------------------------------------------------
@cache
def _placeholders() -> frozenset[str]:
    """Every game's names that are not people (seats, seat colours, Auto-Crassus) in every
    language, casefolded."""
    from firmware.games import records
    from firmware.i18n import LANGUAGES, catalog
    english: set[str] = set()
    for r in records():
        english |= set(r.seats.values()) | set(r.seats) | set(r.placeholders)
    out = {e.casefold() for e in english}
    for lang in LANGUAGES:
        cat = catalog(lang)
        out |= {cat.gettext(e).casefold() for e in english}
    return frozenset(out)


def is_person(name: str) -> bool:
    """Whether ``name`` names a person (not a seat, a placeholder or ``Player N``)."""
    bare = name.strip()
    return bool(bare) and not _NUMBERED.match(bare) and bare.casefold() not in _placeholders()


def people_of(entry: dict[str, Any]) -> list[str]:
    """The people among a History entry's players (firmware/history.py), in their order."""
    out: list[str] = []
    for p in entry.get("players") or []:
        name = str(p.get("name", ""))
        if p.get("role") is not None and name.casefold() == str(p["role"]).casefold():
            continue                              # a seat nobody was named for
        if is_person(name) and name not in out:
            out.append(name)
    return out


# -- reading ---------------------------------------------------------------------------------------
_read: tuple[sqlite3.Connection, tuple[int, int, int], list[Known]] | None = None    # the last list read: db, its mark


def known(db: sqlite3.Connection, strict: bool = False) -> list[Known]:
    """The remembered people, most recent first (forgotten ones left out: :func:`everyone`)."""
    return [k for k in everyone(db, strict) if not k.gone]


def everyone(db: sqlite3.Connection, strict: bool = False) -> list[Known]:
    """Every person's row, the forgotten too, most recent first (a damaged row is left out: the
    start-up check, :func:`scan`, reports it and sets it aside). A list that cannot be read is empty, or —
    ``strict`` (the ``players`` reply) — a StorageError that says so. Read again only once ``db``
    may read differently (:func:`~firmware.storage.unchanged_since`): the players' screens ask at
    every key and frame (300 people: 4 ms a read here, about 60 ms on a Pi, several a key)."""
    global _read
    from firmware.storage import unchanged_since
    mark, last = unchanged_since(db), _read
    if mark is not None and last is not None and last[0] is db and last[1] == mark:
        return list(last[2])
    try:
        ensure(db)
    except sqlite3.Error as e:          # (a storage failure: its words, not a traceback)
        log.warning("the players' table cannot be created (read-only storage?): %s", e)
    out = []
    try:
        rows = db.execute(f"SELECT {PLAYER_ROW} FROM players").fetchall()
    except sqlite3.Error as e:
        log.warning("the players' list cannot be read: %s", e)
        if strict:
            from firmware.storage import StorageError
            from firmware.store.reasons import reason
            raise StorageError(Msg("The players' list cannot be read now ({}); nothing was changed. Check the card.",
                                   reason(e))) from None
        return []
    for name, data, check in rows:
        k = _decoded(name, data, check)
        if k is None:
            log.error("a remembered player's row is damaged; left out")
            continue
        out.append(k)
    out.sort(key=lambda k: (-k.seen, k.name.casefold()))
    _read = None if mark is None else (db, mark, out)
    return list(out)


def names(db: sqlite3.Connection) -> list[str]:
    """The remembered people's names, most recent first."""
    return [k.name for k in known(db)]


def aliases(db: sqlite3.Connection) -> dict[str, str]:
    """Every name a remembered person had or has (casefolded) → the name it has now."""
    out: dict[str, str] = {}
    people = known(db)
    for k in reversed(people):                    # the most recent wins a shared alias
        for w in k.was:
            out[w.casefold()] = k.name
    for k in people:
        out[k.name.casefold()] = k.name
    return out


def ids(db: sqlite3.Connection, strict: bool = False) -> dict[str, str]:
    """Every name a person had or has (engine.names.folded) → their id in exports (BG Stats'
    ``sourcePlayerId``), the same through renames and merges, and after a forget (History's games
    of a forgotten person who was merged still export as one person); a name nobody remembered has
    its own casefolded (:func:`person_id`). ``strict`` (an export): a list the card cannot read is
    a StorageError, never ids guessed from the names."""
    out: dict[str, str] = {}
    people = everyone(db, strict)
    # the listed win a name they share with someone forgotten; then the most recent; a name now wins an alias
    for group in ([k for k in people if k.gone], [k for k in people if not k.gone]):
        for k in reversed(group):
            for w in k.was:
                out[folded(w)] = k.pid
        for k in reversed(group):
            out[folded(k.name)] = k.pid
    return out


def person_id(name: str, known_ids: Mapping[str, str]) -> str:
    """The id in exports of whoever is called ``name`` in a History entry (:func:`ids`): a person's
    spelt with е for ё or another apostrophe («Семен» at a table of «Семён»'s) is theirs (:func:`_find`)."""
    fold = name.strip().casefold()
    return known_ids.get(folded(fold), fold)


def _find(people: list[Known], name: str) -> Known | None:
    """The person called ``name`` now, else the one who was called so; one on the list before one
    forgotten. Named as the console's Glory names a player (engine.names.named): any letter case,
    е for ё (``players forget Семен`` finds «Семён»), any Ukrainian apostrophe (' ’ ʼ); a name
    given exactly wins, and one that would fit two people that way fits nobody (None)."""
    for group in ([k for k in people if not k.gone], [k for k in people if k.gone]):
        now = named([k.name for k in group], name)
        if now is not None:
            return next(k for k in group if k.name == now)
        by_was = {w: k for k in reversed(group) for w in k.was}       # the most recent wins a shared alias
        was = named(list(by_was), name)
        if was is not None:
            return by_was[was]
        if any(_same(name, n) for k in group for n in (k.name, *k.was)):
            return None                                               # two people fit: nobody is guessed
    return None


def _same(one: str, other: str) -> bool:
    """Whether two names are one as a player types them (case, ё/е, apostrophes: :func:`_find`)."""
    return named([other], one) is not None


# -- changing --------------------------------------------------------------------------------------
def _seen(db: sqlite3.Connection, seen_now: list[str], add: bool = True) -> None:
    people = everyone(db, strict=True)        # a list the card cannot read is never written over as empty
    top = max((k.seen for k in people), default=0)
    for i, name in enumerate(seen_now):
        stamp = top + len(seen_now) - i               # the first named is the most recent
        k = _find(people, name)
        if k is None:
            if add:
                _write(db, name, stamp, (), name.casefold())
        elif add or not k.gone:                       # (named again at a set-up: back as they were)
            _write(db, k.name, stamp, k.was, k.pid)
    plain = [k for k in known(db) if k.plain]
    for k in plain[MAX_KEPT:]:                        # only what the name says is taken off (module doc)
        db.execute("DELETE FROM players WHERE name=?", (k.name,))


def note(db: sqlite3.Connection, people: Iterable[str], add: bool = True) -> None:
    """Inside a transaction: remember ``people`` as seen now (the first named most recent); names
    that are not people are left out. ``add`` False (a game filed in History, a game reopened: not
    a new set-up): only the people still on the list are seen again; a name not on it (forgotten:
    ``players forget``) is not brought back."""
    valid = [n for n in dict.fromkeys(str(p).strip() for p in people) if is_person(n)]
    if valid:
        ensure(db)
        _seen(db, valid, add)


def note_with_new_game(db: sqlite3.Connection, people: Iterable[str], add: bool = True) -> None:
    """Inside the transaction that starts the new game naming ``people``: :func:`note`, so that
    the game and its players are kept together or not at all (in a transaction of their own, a
    power cut between the two kept the game and lost its players). In a savepoint: a players' list
    that cannot be read or written now is left as it was (logged) and the game starts all the same."""
    from engine.errors import LegatusError
    db.execute("SAVEPOINT new_game_players")
    try:
        note(db, people, add)
    except (sqlite3.Error, LegatusError) as e:
        log.error("could not remember the players of the new game (%s); it starts without", e)
        db.execute("ROLLBACK TO new_game_players")
    db.execute("RELEASE new_game_players")


def seen(store: Any, people: Iterable[str]) -> None:
    """Remember ``people`` as seen now (:func:`note`) in a transaction of its own. Raises
    StorageError/sqlite3.Error (the caller logs it: a game never fails on it)."""
    people = list(people)
    if any(is_person(str(p)) for p in people):
        with store.transaction() as db:
            note(db, people)


def check(name: str) -> str:
    """``name`` as a remembered person's name, or BadArguments saying why not."""
    checked = check_name(name.strip(), MAX_NAME, spaces=False)
    if not is_person(checked):
        raise BadArguments(Msg("'{}' names a side or a seat, not a person.", checked))
    return checked


def forget(store: Any, name: str) -> str:
    """Take ``name`` off the list (History keeps its games); its name as it was stored. The row
    stays, hidden (``gone``): the person's names keep one id in exports (:func:`ids`) and a set-up
    naming them again brings them back as they were. Raises BadArguments if nobody of that name
    is listed."""
    with store.transaction() as db:
        ensure(db)
        k = _find(known(db, strict=True), name)
        if k is None:
            raise BadArguments(Msg("No remembered player is called '{}'; 'players' lists them.", name[:MAX_NAME + 8]))
        _write(db, k.name, k.seen, k.was, k.pid, gone=True)
    return k.name


Played = Callable[[sqlite3.Connection], list[dict[str, Any]]]
"""Every History entry (firmware/history.py ``games``; given by the caller: History imports this
module), and the game running now as an entry whose ``id`` is None (its table is a table too)."""


def _refuse_two_at_one_table(db: sqlite3.Connection, one: Known, other: Known, played: Played) -> None:
    """BadArguments if ``one`` and ``other`` (under any of their names) played in the same History
    game: a person plays once in a game, so they are two people (merged, Statistics would count
    that game twice for one person)."""
    mine = {n.casefold() for n in (one.name, *one.was)}
    theirs = {n.casefold() for n in (other.name, *other.was)}
    for entry in played(db):
        at_table = {n.casefold() for n in people_of(entry)}
        if at_table & mine and at_table & theirs:
            if entry.get("id") is None:           # the game being played (not in History yet)
                raise BadArguments(Msg("{} and {} play in the game running now: they are two people, "
                                       "not one; nothing was changed.", one.name, other.name))
            raise BadArguments(Msg("{} and {} played in the same game (History {}): they are two people, "
                                   "not one; nothing was changed.", one.name, other.name, entry["id"]))


def rename(store: Any, old: str, new: str, played: Played | None = None) -> str:
    """``old`` is called ``new`` from now on: the old name becomes an alias (History's games and
    the statistics stay with the same person); if ``new`` is someone remembered already (their
    name now or an earlier one), the two are one person now — unless they played in one game (so
    too a name nobody is listed under, a forgotten player's, that History holds at one table with
    ``old``: its games would become theirs).
    Returns the new name; BadArguments if ``old`` is unknown, ``new`` bad or the two sat at one
    table."""
    new = check(new)
    with store.transaction() as db:
        ensure(db)
        people = everyone(db, strict=True)
        k = _find([p for p in people if not p.gone], old)
        if k is None:
            raise BadArguments(Msg("No remembered player is called '{}'; 'players' lists them.", old[:MAX_NAME + 8]))
        fold = new.casefold()
        # someone else called so (a forgotten one too: their row holds the name and its id)
        other = _find([p for p in people if p.name != k.name], new)
        if played is not None and (other is not None or fold not in {n.casefold() for n in (k.name, *k.was)}):
            # (a name nobody is listed under — forgotten — still names its History games' player)
            _refuse_two_at_one_table(db, k, other if other is not None else Known(new, 0, ()), played)
        was = [w for w in (*k.was, k.name, *(other.was if other else ()), *((other.name,) if other else ()))
               if w.casefold() != fold]
        db.execute("DELETE FROM players WHERE name=?", (k.name,))
        if other is not None:
            db.execute("DELETE FROM players WHERE name=?", (other.name,))
        # the person keeps their id (merged into another: that one's), so exports stay with them
        _write(db, new, max(k.seen, other.seen if other else 0), dict.fromkeys(was), other.pid if other else k.pid)
    return new


# -- the start-up check (firmware/store/) --------------------------------------------------------
def scan(db: sqlite3.Connection) -> list[tuple[str, str, bytes, tuple[Any, ...]]]:
    """The damaged rows of the ``players`` table, as (table, what, raw bytes, key) for the store to
    report and set aside at start. Read only; raises if SQLite cannot read the table."""
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()}
    if "players" not in tables:
        return []
    out: list[tuple[str, str, bytes, tuple[Any, ...]]] = []
    for name, data, check_ in db.execute(f"SELECT {PLAYER_ROW} FROM players").fetchall():
        if _decoded(name, data, check_) is None:
            raw = b"\x1f".join(f if isinstance(f, bytes) else str(f).encode() for f in (name, data, check_))
            out.append(("players", "player", raw, (name,)))
    return out


def set_aside(db: sqlite3.Connection, key: tuple[Any, ...]) -> None:
    """Delete a damaged row :func:`scan` found (the store keeps its bytes in ``damaged``)."""
    db.execute("DELETE FROM players WHERE CAST(name AS BLOB)=?", key)


# -- the console ------------------------------------------------------------------------------------
def command(store: Any, args: tuple[str, ...], opts: Mapping[str, str], played: Played | None = None) -> dict[str, Any]:
    """``players`` → ``players`` (most recent first) and ``was`` (a renamed player's earlier names);
    ``players forget <name>`` → ``forgotten`` and ``players``; ``players rename <old> <new>`` →
    ``renamed`` and ``players`` (``played``: History's games, so that two people of one game are
    never merged)."""
    usage = Msg("Usage: players | players forget <name> | players rename <old> <new>.")
    if opts:
        raise BadArguments(usage)
    if not args:
        people = known(store.db, strict=True)
        return {"players": [k.name for k in people], "was": {k.name: list(k.was) for k in people if k.was}}
    if args[0] == "forget" and len(args) == 2:
        gone = forget(store, args[1])
        return {"forgotten": gone, "players": names(store.db)}
    if args[0] == "rename" and len(args) == 3:
        now = rename(store, args[1], args[2], played)
        return {"renamed": now, "players": names(store.db)}
    raise BadArguments(usage)
