"""Whether a finished game is in History already, whatever session holds it (firmware/history.py):
an archived game reopened from Earlier games replays the same lines in a new session, and is not
recorded twice (asked only for a session whose header says ``reopened``: two games started anew
with the same ``seed=`` and moves are two games). A record keeps its game's fingerprint (the ``new`` line's words, the seed, the
lines up to its finish and its part) and its game key (the words and the seed), in the database
only: both are hashes of the seed, never answered."""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

__all__ = ["fingerprint", "game_key", "recorded_elsewhere", "same_plays", "whole_game_elsewhere"]


def _head(header: dict[str, Any]) -> bytes:
    """The start of a fingerprint's text: the game, the ``new`` line's words without ``seed=``, the seed."""
    words = sorted(w for w in str(header.get("line", "")).split() if not w.startswith("seed="))
    return json.dumps([header.get("game"), words, str(header.get("seed"))])[:-1].encode() + b", ["


def game_key(header: dict[str, Any]) -> str:
    """The same ``new`` line's words and seed, whatever session holds them (an archived game and
    its reopened copies): kept in the record beside its fingerprint (database only, never answered)."""
    from engine.rng import sha256_hex
    return sha256_hex(_head(header))


def fingerprint(header: dict[str, Any], lines: Sequence[str], part: str, *, keep: bool = True) -> str:
    """The game itself, whatever session holds it: the ``new`` line's words without ``seed=``,
    the seed, the effective lines up to the finish and the part. An archived game reopened from
    Earlier games (a new session replaying the same lines) is not recorded twice. Kept in the
    database only (it is a hash of the seed: never answered).

    The SHA-256 of ``json.dumps([game, words, seed, lines, part])``, fed line by line: for a
    session's own lines (a :class:`~firmware.trail.Column`) the digest so far is kept on its trail
    (``memo``), so each record of a long session (a Julius Caesar campaign's every battle) hashes
    only the lines since the last one and reads no older action again (``keep=False``: a digest
    at another depth, computed without that memo)."""
    from engine.rng import sha256_hasher
    from firmware.trail import Column
    head = _head(header)
    n = len(lines)
    trail = lines._trail if isinstance(lines, Column) and keep else None
    memo = trail.memo if trail is not None else None
    if trail is not None and memo is not None and memo[0] <= n and memo[1][0] == head:
        done, h = memo[0], memo[1][1].copy()
    else:
        done, h = 0, sha256_hasher(head)
    new = trail.lines_from(done, n) if trail is not None else list(lines[done:n])
    for i, line in enumerate(new, done):
        h.update((", " if i else "").encode() + json.dumps(line).encode())
    if trail is not None:
        trail.memo = (n, (head, h.copy()))
    h.update(b"], " + json.dumps(part).encode() + b"]")
    return str(h.hexdigest())


def _seen(db: sqlite3.Connection, game: str, fp: str, sid: str) -> bool:
    """Whether another session recorded this game already (its fingerprint in a record: SQLite
    searches the records, not Python, so a year of History costs each new record little)."""
    mark = f'"fp": "{fp}"'.encode()
    return db.execute("SELECT 1 FROM history WHERE game=? AND sid!=? AND instr(CAST(record AS BLOB), ?) > 0 LIMIT 1",
                      (game, sid, mark)).fetchone() is not None


def _seen_before(db: sqlite3.Connection, header: dict[str, Any], lines: Sequence[str], depth: int, part: str) -> bool:
    """Whether a session with the same ``new`` line and seed (the archived game this one reopened)
    recorded ``part`` at an earlier depth with the same lines up to there: a reopened Julius
    Caesar campaign played on does not record its earlier battles again. Only records that keep
    their game key (:func:`game_key`) are asked: for a game never reopened there are none."""
    mark = f'"gk": "{game_key(header)}"'.encode()
    found: dict[int, set[str]] = {}
    for d, text in db.execute("SELECT depth, CAST(record AS BLOB) FROM history WHERE game=? AND part=? AND sid!=? "
                              "AND depth<? AND instr(CAST(record AS BLOB), ?) > 0",
                              (header["game"], part, str(header["sid"]), depth, mark)):
        at = bytes(text).find(b'"fp": "')
        if at >= 0 and isinstance(d, int):
            found.setdefault(d, set()).add(bytes(text)[at + 7:at + 71].decode("ascii", "replace"))
    return any(fingerprint(header, lines[:d], part, keep=False) in fps for d, fps in sorted(found.items()))


def recorded_elsewhere(db: sqlite3.Connection, header: dict[str, Any], lines: Sequence[str], depth: int, part: str,
                       fp: str) -> bool:
    """Whether ``part`` of this session's game, finished after ``depth`` of its ``lines`` (its
    fingerprint ``fp``), is in History already from another session."""
    return _seen(db, str(header["game"]), fp, str(header["sid"])) or _seen_before(db, header, lines, depth, part)


def whole_game_elsewhere(db: sqlite3.Connection, header: dict[str, Any], lines: Sequence[str], depth: int) -> bool:
    """Whether another session (the archived game this reopened copy replays) recorded the whole
    game — any part but a Julius Caesar battle or ``abandoned`` — with the same lines up to its
    finish, before ``depth``: the copy's ``end`` replayed then files no ``ended`` row of its own
    (the game is in History once)."""
    mark = f'"gk": "{game_key(header)}"'.encode()
    parts = [str(r[0]) for r in db.execute(
        "SELECT DISTINCT part FROM history WHERE game=? AND sid!=? AND part NOT LIKE 'battle-%' AND part!='abandoned' "
        "AND instr(CAST(record AS BLOB), ?) > 0", (header["game"], str(header["sid"]), mark))]
    return any(_seen_before(db, header, lines, depth, part) for part in parts)


def same_plays(db: sqlite3.Connection, header: dict[str, Any], lines: Sequence[str]) -> list[str]:
    """The other sessions (an archived game this reopened copy replays) whose History records are
    finishes of this very game: the same ``new`` line and seed, and the same ``lines`` up to each
    finish (their fingerprint); never an ``abandoned`` row. Their ``sid`` values, in id order."""
    mark = f'"gk": "{game_key(header)}"'.encode()
    out: list[str] = []
    for sid, part, depth, text in db.execute(
            "SELECT sid, part, depth, CAST(record AS BLOB) FROM history WHERE game=? AND sid!=? AND part!='abandoned' "
            "AND instr(CAST(record AS BLOB), ?) > 0 ORDER BY id", (header["game"], str(header["sid"]), mark)):
        at = bytes(text).find(b'"fp": "')
        if str(sid) in out or at < 0 or not isinstance(depth, int) or depth > len(lines):
            continue
        if fingerprint(header, lines[:depth], str(part), keep=False) == bytes(text)[at + 7:at + 71].decode("ascii", "replace"):
            out.append(str(sid))
    return out
