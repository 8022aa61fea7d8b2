"""Updating Legatus on a Pi that holds games: state directories written by older revisions, played
through their own console (tests/data/upgrade/, made by make_fixtures.py with the scripts in
old_scripts/), read by this code.

The fixtures are plain files (journals as the journal era wrote them, databases as SQL dumps with
their ``user_version``), so the test needs no git history (CI clones shallow). ``old_answers.json``
holds what the OLD version answered on a copy of each directory: ``state`` and the next requests
(draws, dice, undo). This code must resume each session to the same position and answer the same
requests with the same dice and draws (undo never re-rolls; hidden draws stay as they were), list
every finished game in History and export it, and report nothing damaged.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from firmware.console import Console
from firmware.store import Store

DATA = Path(__file__).parent / "data" / "upgrade"
OLD = json.loads((DATA / "old_answers.json").read_text(encoding="utf-8"))
# Words said to a person (their wording and language changed since; the positions must not).
TEXT = frozenset({"log", "undone", "text", "next", "message", "why", "result", "sentence", "label", "msg"})
WHEN = dt.datetime(2026, 11, 22, 19, 30, 5, tzinfo=dt.timezone.utc)


def state_dir(name: str, tmp_path: Path) -> Path:
    """A copy of fixture ``name`` (a database made again from its dump), journals dated ``WHEN``
    (a clone does not keep the files' times)."""
    src, dest = DATA / name, tmp_path / name
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("legatus.sql"))
    dest.chmod(0o700)
    for p in dest.rglob("*"):
        os.utime(p, (WHEN.timestamp(), WHEN.timestamp()))
    if (src / "legatus.sql").exists():
        db = sqlite3.connect(dest / "legatus.db")
        db.executescript((src / "legatus.sql").read_text(encoding="utf-8"))
        db.close()
    return dest


def words(steps: Any) -> Any:
    """What a Caesar! turn's steps say (its id is a checksum of its steps, words included: a turn
    played after the update with a reason worded better has another id; one stored keeps its own)."""
    return [(s.get("text"), s.get("why")) for s in steps] if isinstance(steps, list) else None


def common(a: Any, b: Any) -> Any:
    """``a`` with only what ``b`` has too (this version adds fields) and without words said to a
    person."""
    if isinstance(a, dict) and isinstance(b, dict):
        reworded = "id" in a and words(a.get("steps")) != words(b.get("steps"))
        return {k: common(a[k], b[k]) for k in a
                if k in b and k not in TEXT and not said(k, a[k]) and not (k == "id" and reworded)}
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [common(x, y) for x, y in zip(a, b)]
    return a


def entry(g: dict[str, Any]) -> tuple[Any, ...]:
    """What a History entry says of a game, whatever the version's words."""
    return (g["game"], g["status"], g["mode"]["kind"], tuple((p["name"], p["score"], p["winner"]) for p in g["players"]))


def said(key: str, value: Any) -> bool:
    """A list of sentences (a battle's ``events``; a bag's ``events`` is a count, compared)."""
    return key == "events" and isinstance(value, list) and all(isinstance(v, str | dict) for v in value)


def opened(path: Path) -> tuple[Store, Console]:
    store = Store(path)
    return store, Console(store, store.resume())


def ask(console: Console, line: str) -> dict[str, Any]:
    reply = console.handle_text(line)
    assert reply is not None
    return json.loads(reply)


@pytest.mark.parametrize("name", sorted(n for n in OLD if OLD[n]["requests"][1:]))
def test_a_game_left_mid_way_resumes_where_it_was_and_rolls_the_same(name: str, tmp_path: Path) -> None:
    store, console = opened(state_dir(name, tmp_path))
    try:
        old = OLD[name]
        for line, before in zip(old["requests"], old["answers"]):
            now = ask(console, line)
            assert now["ok"] == before["ok"], (line, now)
            assert common(now, before) == common(before, now), line
        assert store.recovery is None or "damaged" not in store.recovery.sentence()
    finally:
        store.close()


def test_finished_games_of_the_journal_era_are_in_history_and_export(tmp_path: Path) -> None:
    """The journal era (before 2026-11-23) kept no History: its finished games were archived
    journals. Imported, they were sessions History never listed (an empty History after the
    update); each is now filed, dated by its journal's last write, that date marked as possibly
    wrong, with the players and scores its replay gives."""
    store, console = opened(state_dir("journal_full", tmp_path))
    try:
        assert store.recovery is not None and "imported" in store.recovery.sentence()
        games = ask(console, "history 100")["games"]
        # what the first revision with History listed for the same play (db_same_play): its
        # finished games, but Glory's, scored by a read-only 'score <sheet>' no journal kept
        kept = [g for g in OLD["db_same_play"]["answers"][1]["games"] if g["status"] == "finished" and g["game"] != "glory"]
        assert len(kept) >= 5
        assert [entry(g) for g in games] == [entry(g) for g in kept]
        for g in games:
            assert g["finished"] == WHEN.strftime("%Y-%m-%dT%H:%M:%SZ")
            assert "finished" in g["unsynced"]
        # Earlier games (to reopen one) say the day each was left: the journal's too, not none
        assert {a["ended"] for a in store.archives()} == {WHEN.timestamp()}
        play = ask(console, f"export format=bgstats id={games[0]['id']}")
        assert play["ok"] and play["play"]["playDate"] == "2026-11-22 19:30:05"
        assert ask(console, "export format=csv")["ok"]
    finally:
        store.close()
    store, console = opened(tmp_path / "journal_full")          # filed once: a restart adds nothing
    try:
        assert len(ask(console, "history 100")["games"]) == len(kept)
    finally:
        store.close()


@pytest.mark.parametrize("name", ["db_full", "db_same_play"])
def test_history_of_the_database_era_reads_as_the_old_version_listed_it(name: str, tmp_path: Path) -> None:
    old = OLD[name]["answers"][1]["games"]
    store, console = opened(state_dir(name, tmp_path))
    try:
        assert store.recovery is None
        games = ask(console, "history 100")["games"]
        assert [common(g, o) for g, o in zip(games, old)] == [common(o, g) for g, o in zip(games, old)]
        assert len(games) == len(old)
        for g in games:         # (a dice or bag session is no BG Stats play: refused, saying why)
            reply = ask(console, f"export format=bgstats id={g['id']}")
            assert reply["ok"] or (g["game"] in ("dice", "bag") and reply["error"] == "bad_arguments"), g["id"]
    finally:
        store.close()


def test_games_an_older_legatus_journaled_after_the_update_are_imported_at_the_next(tmp_path: Path) -> None:
    """A downgrade after an update: the journal-era Legatus run again on the updated card sees no
    game (they are in the database) and journals new ones. At the next update those journals were
    never read (the import ran only into an empty database), left in place without a word: the
    games played meanwhile were lost to the player. Now the sessions the database does not hold
    are imported, the one played last resumes where the older Legatus left it (the same next
    draw), and the game that was running before the downgrade stays among the earlier games."""
    old = OLD["journal_after_downgrade"]
    path = state_dir("journal_after_downgrade", tmp_path)
    store, console = opened(path)
    try:
        assert store.recovery is not None and "imported" in store.recovery.sentence()
        for line, before in zip(old["requests"], old["answers"]):
            now = ask(console, line)
            assert common(now, before) == common(before, now), line
        games = {a["header"]["game"]: len(a["lines"]) for a in store.archives()}
        assert games == {"bag": 3, "dice": 1}          # the bag before the downgrade, the dice after it
    finally:
        store.close()
    assert not (path / "session.journal").exists() and not list((path / "archive").glob("*.journal"))
    assert (path / "imported-2" / "session.journal").exists()
    store, console = opened(path)                     # imported once
    try:
        assert store.recovery is None
        assert len(store.archives()) == 2
        assert ask(console, "state")["state"]["bag"]["drawn"] == ["a", "b"]
    finally:
        store.close()


@pytest.mark.slow
def test_a_card_of_many_journal_era_games_is_imported_whole(tmp_path: Path) -> None:
    """A Pi that held the journal era for months: 120 archived games (the fixture's journals again,
    each under a session id of its own) and one left mid-way. Every one is imported, every
    finished game is in History once with its date, the game left mid-way resumes with the same
    next draw, and a restart imports and files nothing again."""
    from firmware import journal
    src = state_dir("journal_full", tmp_path / "src")
    path = tmp_path / "card"
    (path / "archive").mkdir(parents=True)
    n = 0
    for copy in range(15):
        for old in sorted((src / "archive").glob("*.journal")):
            records, damage = journal.read(old)
            assert damage is None
            records[0]["sid"] = f"{copy:04x}{records[0]['sid'][4:]}"
            n += 1
            (path / "archive" / f"{n:04d}.journal").write_bytes(b"".join(journal.encode(r) for r in records))
    shutil.copy(DATA / "journal_mid_bag" / "session.journal", path / "session.journal")
    for p in path.rglob("*"):
        os.utime(p, (WHEN.timestamp(), WHEN.timestamp()))
    finished = len([g for g in OLD["db_same_play"]["answers"][1]["games"]
                    if g["status"] == "finished" and g["game"] != "glory"])
    old = OLD["journal_mid_bag"]
    store, console = opened(path)
    try:
        assert store.recovery is not None and f"{n + 1} sessions" in store.recovery.sentence()
        games = ask(console, "history 100000")["games"]
        assert len(games) == 15 * finished
        assert {g["finished"] for g in games} == {WHEN.strftime("%Y-%m-%dT%H:%M:%SZ")}
        assert len(store.archives(limit=1000)) == n
        for line, before in zip(old["requests"], old["answers"]):
            now = ask(console, line)
            assert common(now, before) == common(before, now), line
    finally:
        store.close()
    store, console = opened(path)
    try:
        assert store.recovery is None
        assert len(ask(console, "history 100000")["games"]) == 15 * finished
    finally:
        store.close()
