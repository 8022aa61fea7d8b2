"""Damage is never silent and never stops the device (issue 20 §2), the lock file (§5), numeric
arguments out of range (§5), hostile journal-era files (§2). Each test would fail on the store
before issue 20: text decoded before its checksum, the "current" flag outside it, an unreadable
file started afresh with nothing carried over, a damaged History row or setting dropped in silence."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from firmware import journal
from firmware.console import Console
from firmware.session import Session
from firmware.store import DB_NAME, FORMAT, Store
from tests.conftest import ROOT, console_cmd

SETUP = "new dice seed=9"
LINES = ["roll 2d6"] * 70 + ["undo"] * 2 + ["roll 1d6"] * 3          # a checkpoint at 64


def _views(lines: list[str]) -> list[dict]:
    s = Session.start(SETUP, 9, "x")
    out = [s.view()]
    for line in lines:
        s.undo() if line == "undo" else s.apply(line)
        out.append(s.view())
    return out


VIEWS = _views(LINES)


def _open(d: Path) -> Console:
    store = Store(d)
    return Console(store, store.resume())


def _played(d: Path, extra: list[str] | None = None) -> None:
    c = _open(d)
    for line in ["settings contrast=4 caesar.tiles=A:draw2+play", SETUP, *LINES, *(extra or [])]:
        assert c.request(line)["ok"], line
    c.close()


def _sql(d: Path, *statements: str) -> None:
    db = sqlite3.connect(d / DB_NAME)
    for s in statements:
        db.execute(s)
    db.commit()
    db.close()


def _start(d: Path) -> tuple[dict, Console]:
    """The ``state`` reply of a fresh start (the caller closes the console)."""
    c = _open(d)
    return c.request("state"), c


def _start_with_the_card_full_once(d: Path, monkeypatch) -> tuple[dict, Console]:
    """:func:`_start` with the card refusing the start's first write (its mending) as full."""
    from firmware.storage import StorageError
    from firmware.store import connection
    real = connection.Connection.transaction
    calls = []

    def full_once(self, *a, **k):
        calls.append(1)
        if len(calls) == 1:
            raise StorageError("The storage is full: nothing was changed.")
        return real(self, *a, **k)
    with monkeypatch.context() as m:
        m.setattr(connection.Connection, "transaction", full_once)
        return _start(d)


def test_a_damaged_action_the_full_card_kept_from_being_set_aside_never_blocks_the_next_action(state_dir, monkeypatch):
    """QA (storage faults): the start found a damaged action row but the card was full when it was
    to be set aside; the session resumed at the last good action. Space freed ("Legatus goes on by
    itself"), every action was still refused — "Could not save (UNIQUE constraint failed …)" —
    for its row's place was held by the damaged row and those after it, until a restart."""
    _played(state_dir)
    _sql(state_dir, "UPDATE actions SET line='roll 3d6' WHERE seq=40")
    r, c = _start_with_the_card_full_once(state_dir, monkeypatch)
    try:
        assert r["state"] == VIEWS[39] and "after action 39" in r["recovered"]
        rolled = c.request("roll 1d6")
        assert rolled["ok"], rolled
        want = rolled["state"]
        assert c.request("undo")["ok"] and c.request("roll 1d6")["ok"]
        want = c.request("state")["state"]
    finally:
        c.close()
    r, c = _start(state_dir)
    c.close()
    assert r["state"] == want and "recovered" not in r, r


class _CutShort(BaseException):
    """(The power cut in the middle of the salvage: the process ends there.)"""


def _salvage_cut(state_dir: Path, monkeypatch, how: str) -> None:
    """A played state directory whose database cannot be opened (its header damaged), started
    once with its salvage cut short: ``full`` (the card is full as the rows are carried), ``power``
    (the process dies as they are carried) or ``swap`` (dies just before the new file takes the
    damaged one's place)."""
    from firmware.store import StateDirError, opening
    _played(state_dir)
    path = state_dir / DB_NAME
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    real_connect, real_replace = sqlite3.connect, os.replace

    class Cut(sqlite3.Connection):
        def execute(self, sql, *a):
            if sql.startswith("INSERT OR REPLACE INTO"):          # the rows carried into the new file
                if how == "full":
                    raise sqlite3.OperationalError("database or disk is full")
                raise _CutShort
            return super().execute(sql, *a)

    def replace(src, dst):
        if Path(dst) == path:
            raise _CutShort
        return real_replace(src, dst)
    with monkeypatch.context() as m:
        if how == "swap":
            m.setattr(opening.os, "replace", replace)
        else:
            m.setattr(sqlite3, "connect", lambda *a, **k: real_connect(*a, factory=Cut, **k))
        with pytest.raises(StateDirError if how == "full" else _CutShort):
            Store(state_dir)
    import gc
    gc.collect()                                  # (the process that died: its lock and files go with it)


@pytest.mark.parametrize("how", ["full", "power", "swap"])
def test_a_salvage_the_full_card_or_a_power_cut_stopped_is_done_at_the_next_start(state_dir, monkeypatch, how):
    """QA (storage faults): the damaged database was moved aside first, then the new one could
    not be made (a full card) or the power was cut: the next start found no database (or an empty
    one) and began afresh — every game, History and the settings gone without a word, the rows
    left in legatus.db.damaged-1 that no start read again."""
    _salvage_cut(state_dir, monkeypatch, how)
    r, c = _start(state_dir)
    try:
        assert r["state"] == VIEWS[-1], r
        assert "carried into a new one" in r["recovered"]
        assert c.request("settings")["settings"]["contrast"] == "4"
        assert c.request("roll 1d6")["ok"]
    finally:
        c.close()
    assert sorted(p.name for p in state_dir.iterdir() if "damaged" in p.name) == [f"{DB_NAME}.damaged-1"]
    r, c = _start(state_dir)
    c.close()
    assert "recovered" not in r


@pytest.mark.parametrize("size", [0, 60])
def test_a_database_cut_to_nothing_is_reported_never_taken_for_a_first_start(state_dir, size):
    """QA (storage faults): a database file cut to 0 bytes (or to less than its header) read as a
    new, empty one: every game, History and the settings gone, and not a word said."""
    _played(state_dir)
    os.truncate(state_dir / DB_NAME, size)
    r, c = _start(state_dir)
    try:
        assert r["error"] == "no_session" and "kept aside as legatus.db.damaged-1" in r["recovered"], r
        assert c.request("new dice seed=2")["ok"]
    finally:
        c.close()


def test_a_first_start_cut_short_leaves_no_database_and_the_next_start_is_a_first_start(state_dir, monkeypatch):
    """(The database is made beside its place and renamed into it: a power cut in the first
    start leaves no file that a later start could take for a damaged one, nor for an empty one.)"""
    real_connect = sqlite3.connect

    class Cut(sqlite3.Connection):
        def execute(self, sql, *a):
            if sql.startswith("CREATE TABLE"):
                raise _CutShort
            return super().execute(sql, *a)
    with monkeypatch.context() as m:
        m.setattr(sqlite3, "connect", lambda *a, **k: real_connect(*a, factory=Cut, **k))
        with pytest.raises(_CutShort):
            Store(state_dir)
    import gc
    gc.collect()
    assert not (state_dir / DB_NAME).exists()
    r, c = _start(state_dir)
    c.close()
    assert r["error"] == "no_session" and "recovered" not in r
    assert sorted(p.name for p in state_dir.iterdir()) == [DB_NAME, "lock"]


def test_a_damaged_session_row_the_full_card_kept_from_being_set_aside_is_never_sealed_as_whole(state_dir, monkeypatch):
    """QA (storage faults): the start found the current session's row damaged but the card was full
    when it was to be set aside; the next ``new`` archived every current row and sealed each anew —
    the damaged one too: from then on its damaged header counted as whole (no start reported it;
    Earlier games offered a session of a game "dicÿ")."""
    _played(state_dir)
    _sql(state_dir, "UPDATE sessions SET header = replace(header, '\"game\": \"dice\"', '\"game\": \"dic\u00ff\"') "
                    "WHERE current=1")
    r, c = _start_with_the_card_full_once(state_dir, monkeypatch)
    try:
        assert r["error"] == "no_session" and "damaged" in r["recovered"]
        assert c.request("new dice seed=2")["ok"]
        assert c.store.archives() == []
    finally:
        c.close()
    held = sqlite3.connect(state_dir / DB_NAME).execute("SELECT what FROM damaged").fetchall()
    assert ("session",) in held                                         # kept for a bug report after all


def test_a_current_session_whose_damaged_mark_the_full_card_kept_from_being_mended_still_resumes(state_dir, monkeypatch):
    """QA (storage faults): the current session's "current" mark was damaged (it read 0) and the
    card was full when the start was to mend it: the start said "A damaged mark of a saved session
    was mended." and then offered no session at all; the game resumes (its row's checksum says it
    is the current one) and its actions are saved once the card has room."""
    _played(state_dir)
    _sql(state_dir, "UPDATE sessions SET current=0")
    r, c = _start_with_the_card_full_once(state_dir, monkeypatch)
    try:
        assert r.get("state") == VIEWS[-1] and "mended" in r["recovered"], r
        rolled = c.request("roll 1d6")
        assert rolled["ok"], rolled
    finally:
        c.close()
    r, c = _start(state_dir)
    try:
        assert r["state"] == rolled["state"]
    finally:
        c.close()
    _sql(state_dir, "UPDATE sessions SET current=0")  # full again: a new game archives the one played
    r, c = _start_with_the_card_full_once(state_dir, monkeypatch)
    try:
        assert c.request("new dice seed=4")["ok"]
        assert [a["header"]["seed"] for a in c.store.archives()] == [9]
    finally:
        c.close()
    r, c = _start(state_dir)
    c.close()
    assert r["state"]["actions"] == 0 and "recovered" not in r, r


# -- text decoded only after its checksum holds ----------------------------------------------------
def test_invalid_utf8_in_one_action_resumes_at_the_last_good_action_and_says_so(state_dir):
    """Before: sqlite3 decoded every row of the session first, so one invalid byte hid the whole
    session (the console answered only no_session)."""
    _played(state_dir)
    _sql(state_dir, "UPDATE actions SET line = CAST(x'726f6c6c20ff6436' AS TEXT) WHERE seq=40")
    r, c = _start(state_dir)
    try:
        assert r["ok"] and r["state"] == VIEWS[39]
        assert "after action 39" in r["recovered"]
        kept = c.store.db.execute("SELECT data FROM damaged WHERE what='action'").fetchall()
        assert any(b"roll \xffd6" in bytes(k[0]) for k in kept)            # the raw bytes, for a bug report
        assert c.request("roll 1d6")["ok"]
    finally:
        c.close()


def test_invalid_utf8_in_a_checkpoint_replays_from_an_older_one(state_dir):
    _played(state_dir)
    _sql(state_dir, "UPDATE checkpoints SET state = CAST(x'7bff7d' AS TEXT)")
    r, c = _start(state_dir)
    c.close()
    assert r["state"] == VIEWS[-1] and "checkpoint" in r["recovered"]


def test_a_schema_that_is_not_utf8_keeps_every_row_in_a_new_database(state_dir):
    """Before: UnicodeDecodeError from PRAGMA journal_mode, raised before the file could be moved
    aside — a start loop under systemd."""
    _played(state_dir)
    data = bytearray((state_dir / DB_NAME).read_bytes())
    at = data.index(b"CREATE TABLE damaged")
    data[at + 14] = 0xFF
    (state_dir / DB_NAME).write_bytes(bytes(data))
    r, c = _start(state_dir)
    try:
        assert r["state"] == VIEWS[-1]                                  # every row carried over
        assert "kept aside as legatus.db.damaged-1" in r["recovered"]
        assert c.request("settings")["settings"]["contrast"] == "4"
        assert (state_dir / f"{DB_NAME}.damaged-1").read_bytes() == bytes(data)
    finally:
        c.close()
    r, c = _start(state_dir)                                              # and the next start is clean
    c.close()
    assert r["state"] == VIEWS[-1] and "recovered" not in r


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.9])
def test_a_database_cut_short_keeps_what_its_pages_still_hold(state_dir, cut):
    _played(state_dir)
    data = (state_dir / DB_NAME).read_bytes()
    (state_dir / DB_NAME).write_bytes(data[:int(len(data) * cut) // 4096 * 4096 + 100])
    r, c = _start(state_dir)
    try:
        assert r.get("recovered"), r                                     # never silent
        if r["ok"]:
            assert r["state"] in VIEWS
        assert c.request("roll 1d6")["ok"] or not r["ok"]
        assert c.request("new dice seed=1")["ok"]
    finally:
        c.close()


# -- every field that decides what is shown is under the checksum -----------------------------------
def test_a_damaged_current_flag_is_mended_not_silently_archived(state_dir):
    """Before: the flag was outside the checksum; one byte archived the running session in silence."""
    _played(state_dir)
    _sql(state_dir, "UPDATE sessions SET current=0")
    r, c = _start(state_dir)
    c.close()
    assert r["state"] == VIEWS[-1] and "mended" in r["recovered"]


def test_a_damaged_session_row_is_reported_even_when_no_session_is_left(state_dir):
    _played(state_dir)
    # two bytes (one byte is put back where its checksum tells it: tests/test_storage_lost_games.py)
    _sql(state_dir, "UPDATE sessions SET header = replace(header, 'seed=9', 'seed=17')")
    r, c = _start(state_dir)
    try:
        assert r["error"] == "no_session" and "could not be read" in r["recovered"]
        assert c.store.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 0    # set aside with it
        assert c.request("new dice seed=2")["ok"] and c.request("roll 1d6")["state"]["actions"] == 1
    finally:
        c.close()


@pytest.mark.parametrize("damage, named", [("value='\"5\"'", "(contrast)"), ("key='contrasu'", "(?)")])
def test_a_damaged_setting_is_reported_and_its_default_used(state_dir, damage: str, named: str):
    """Before: a damaged setting fell back to its default without a word. QA: then the word was
    "A stored setting was damaged … (?)" on the panel, also when its stored name is whole (the
    damage in its value): the player is told which one went back to its default where the name
    reads as a setting's (one bad byte cannot make one setting's name another's)."""
    _played(state_dir)
    _sql(state_dir, f"UPDATE settings SET {damage} WHERE key='contrast'")
    r, c = _start(state_dir)
    try:
        assert "setting" in r["recovered"] and named in r["recovered"]
        assert c.request("settings")["settings"]["contrast"] == "3"
        assert c.request("settings")["settings"]["caesar.tiles"] == "A:draw2+play"
    finally:
        c.close()


def test_a_stored_setting_that_is_not_allowed_is_reported_and_its_default_used(state_dir):
    from firmware.storage import crc
    _played(state_dir)
    v = json.dumps("xx")
    _sql(state_dir, f"UPDATE settings SET value='{v}', crc={crc('language', v)} WHERE key='contrast'",
         f"INSERT INTO settings VALUES('language', '{v}', {crc('language', v)})")
    r, c = _start(state_dir)
    try:
        assert "language" in r["recovered"]
        assert c.request("settings")["settings"]["language"] == "en"
    finally:
        c.close()


class _Unreadable:
    """The database as a failing card gives it: every SELECT of ``table`` fails with SQLite's
    "disk I/O error" (other statements go through)."""

    def __init__(self, db: sqlite3.Connection, table: str) -> None:
        self._db, self._table = db, table

    def execute(self, sql: str, *args):
        if sql.lstrip().upper().startswith("SELECT") and f"FROM {self._table}" in sql:
            raise sqlite3.OperationalError("disk I/O error")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._db, name)


def test_settings_the_card_cannot_read_are_never_replaced_by_the_defaults(console):
    """QA (faults): a read error on the settings (EIO while the device ran) was taken for "no
    settings stored": ``settings`` answered the defaults as the stored ones, and a change made then
    (``settings contrast=5``, or a nudge on the device) stored the defaults over every other
    setting — the language, the Caesar tiles edited once, the board — all lost. While they cannot
    be read, reading and changing them is refused (``storage_error``), nothing changed."""
    for line in ("settings language=uk contrast=4 caesar.tiles=A:draw2+play", "new dice seed=1"):
        assert console.request(line)["ok"] is True, line
    stored = console.request("settings")["settings"]
    real = console.store.db
    console.store.db = _Unreadable(real, "settings")
    try:
        for line in ("settings", "settings contrast=5"):
            refused = console.request(line)
            assert (refused["ok"], refused["error"]) == (False, "storage_error"), (line, refused)
            assert "не" in refused["message"]                           # said in the reader's language
    finally:
        console.store.db = real
    assert console.request("settings")["settings"] == stored


def test_a_read_error_in_the_middle_of_a_request_is_a_storage_error_never_an_internal_one(console):
    """QA (faults): a players' share checks the earlier games for a copy of the game; when the card
    could not read them just then, the reply was ``internal_error`` ("Internal error
    (OperationalError: disk I/O error)"), as for a bug. It is ``storage_error``, said in words,
    and nothing changed."""
    console.commit_next()
    assert console.request("new dice")["ok"] is True
    state = console.request("state")["state"]
    real = console.store.db
    console.store.db = _Unreadable(real, "sessions")
    try:
        refused = console.request("share 1-2-3")
        assert (refused["ok"], refused["error"]) == (False, "storage_error"), refused
        assert "the card did not answer a read or a write" in refused["message"]
    finally:
        console.store.db = real
    assert console.request("state")["state"] == state
    assert console.request("share 1-2-3")["ok"] is True


@pytest.mark.parametrize("line, table", [("history", "history"), ("export format=csv", "history"),
                                         ("players", "players")])
def test_a_table_the_card_cannot_read_is_refused_in_the_readers_words(console, line, table):
    """QA (faults): History and the players' list that the card could not read were refused with
    SQLite's English ("disk I/O error") inside a Russian sentence; the reason is said in Russian."""
    import re
    assert console.request("settings language=ru")["ok"] is True
    real = console.store.db
    console.store.db = _Unreadable(real, table)
    try:
        refused = console.request(line)
    finally:
        console.store.db = real
    assert refused["error"] == "storage_error", refused
    assert not re.search(r"[A-Za-z]", refused["message"]), refused["message"]


def test_a_database_moved_aside_at_start_says_why_in_the_readers_words(state_dir):
    """QA (faults): the start's report of a database kept aside carried SQLite's English inside
    the Russian sentence («Базу не удалось прочитать (database disk image is malformed)…»)."""
    import re
    c = _open(state_dir)
    assert c.request("settings language=ru")["ok"] is True
    c.close()
    data = bytearray((state_dir / DB_NAME).read_bytes())
    data[4096:8192] = b"\xff" * 4096                                   # a page of the schema's tables
    (state_dir / DB_NAME).write_bytes(bytes(data))
    r, c = _start(state_dir)
    c.close()
    said = r["recovered"].replace("legatus.db.damaged-1", "")
    assert "legatus.db.damaged-1" in r["recovered"] and not re.search(r"[A-Za-z]", said), said


def test_free_form_settings_are_bounded_with_a_clear_refusal(console):
    long_value = "A:" + "play+" * 200
    r = console.request(f"settings caesar.tiles={long_value}")
    assert r["error"] == "bad_arguments" and "at most 512 characters" in r["message"]
    r = console.request("settings caesar." + "x" * 60 + "=1")
    assert r["error"] == "bad_arguments" and "at most 40 characters" in r["message"]
    for i in range(32):
        assert console.request(f"settings rules.k{i}=1")["ok"]
    r = console.request("settings rules.one-too-many=1")
    assert r["error"] == "bad_arguments" and "At most 32" in r["message"]
    assert "rules.one-too-many" not in console.request("settings")["settings"]


# -- the old format is upgraded in silence (nothing was wrong) --------------------------------------
def test_a_database_of_the_format_before_issue_20_is_upgraded_without_a_report(state_dir):
    from firmware.storage import crc
    _played(state_dir)
    db = sqlite3.connect(state_dir / DB_NAME)
    for sid, header in db.execute("SELECT id, header FROM sessions").fetchall():
        db.execute("UPDATE sessions SET crc=? WHERE id=?", (crc(sid, header), sid))   # the old checksum
    db.execute("ALTER TABLE history_started DROP COLUMN crc")
    db.execute("PRAGMA user_version=0")
    db.commit()
    db.close()
    r, c = _start(state_dir)
    try:
        assert r["state"] == VIEWS[-1] and "recovered" not in r
        assert c.store.db.execute("PRAGMA user_version").fetchone()[0] == FORMAT
    finally:
        c.close()
    _sql(state_dir, "UPDATE sessions SET current=0")          # the flag is covered from now on
    r, c = _start(state_dir)
    c.close()
    assert r["state"] == VIEWS[-1] and "mended" in r["recovered"]


# -- a hot rollback journal that is damaged ----------------------------------------------------------
STRACE = shutil.which("strace")


@pytest.mark.slow
@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_a_damaged_hot_journal_never_stops_the_start_nor_loses_an_acknowledged_action(tmp_path):
    pristine = tmp_path / "pristine"
    _played(pristine)
    hot = tmp_path / "hot"
    shutil.copytree(pristine, hot, ignore=shutil.ignore_patterns("lock"))
    cmd = [STRACE, "-f", "-qq", "-o", "/dev/null", "-P", str(hot / f"{DB_NAME}-journal"), "-e", "trace=unlink",
           "-e", "inject=unlink:signal=KILL:when=1", *console_cmd(hot)]
    subprocess.run(cmd, input=b"roll 2d6\n", capture_output=True, cwd=ROOT, timeout=60,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    journal_bytes = (hot / f"{DB_NAME}-journal").read_bytes()
    assert journal_bytes.startswith(bytes.fromhex("d9d505f920a163d7")), "no hot journal was left"
    views = _views(LINES + ["roll 2d6"])
    positions = list(range(0, 40)) + list(range(512, len(journal_bytes), 97))
    for k, at in enumerate(positions):
        d = tmp_path / f"t{k}"
        shutil.copytree(hot, d, ignore=shutil.ignore_patterns("lock"))
        data = bytearray(journal_bytes)
        data[at] ^= 0x5A
        (d / f"{DB_NAME}-journal").write_bytes(bytes(data))
        r, c = _start(d)                                                  # must not raise
        try:
            assert r["ok"] and r["state"] in (views[-2], views[-1]), (at, r)   # acknowledged, or the one in flight
            assert c.request("roll 1d6")["ok"]
        finally:
            c.close()
        shutil.rmtree(d)


# -- the whole sweep, smaller ------------------------------------------------------------------------
@pytest.mark.slow
def test_a_sample_of_one_byte_changes_and_truncations_is_never_silent_and_never_stops_a_start(tmp_path):
    """scripts/storage_faults.py damage, on 150 trials instead of 1,000."""
    import logging

    from scripts.storage_faults import build_damage, run_damage
    logging.disable(logging.CRITICAL)
    try:
        built = build_damage(tmp_path)
        result = run_damage(tmp_path, built, 150, seed=3)
    finally:
        logging.disable(logging.NOTSET)
    assert result["bad"] == 0, result["failures"][:5]
    reported = sum(c.get("reported", 0) for c in result["counts"].values())
    assert reported > 30                               # the sample did hit what matters


# -- hostile journal-era files (the import at the first start) --------------------------------------
def _write_journal(path: Path, records: list) -> None:
    path.write_bytes(b"".join(journal.encode(r) for r in records))


@pytest.mark.parametrize("records", [
    [{"v": 1, "game": "dice", "line": "new dice", "seed": "nine", "sid": "a"}],
    [{"v": 1, "game": "dice", "line": "new dice", "seed": 2**70, "sid": "a"}],
    [{"v": 1, "game": "dice", "line": "new dice", "seed": 1, "sid": ["a"]}],
    [{"v": 1, "game": "dice", "line": 5, "seed": 1, "sid": "a"}],
    [{"v": 1, "game": "dice", "line": "new dice", "seed": 1, "sid": "a"}, {"line": 7}],
    [{"v": 1, "game": "dice", "line": "new dice", "seed": 1, "sid": "a"}, {"line": "roll 99999999d6"}],
    [{"v": 1, "game": "dice", "line": "new dice", "seed": 1, "sid": "a", "x": [[[[[[[[[[1]]]]]]]]]]},
     {"line": "roll 2d6"}],
])
def test_crafted_journal_era_files_never_stop_a_start(state_dir, records):
    _write_journal(state_dir / "session.journal", records)
    r, c = _start(state_dir)
    try:
        assert r["ok"] or r["error"] == "no_session"
        assert r.get("recovered")                              # a dropped session is said
        assert c.request("new dice seed=1")["ok"]
    finally:
        c.close()


def test_deeply_nested_json_in_an_old_journal_or_settings_file_never_stops_a_start(state_dir):
    body = b"[" * 100000 + b"]" * 100000
    import zlib
    (state_dir / "session.journal").write_bytes(b"%08x " % zlib.crc32(body) + body + b"\n")
    (state_dir / "settings.json").write_bytes(b'{"a":' * 5000 + b"1" + b"}" * 5000)
    r, c = _start(state_dir)
    try:
        assert r.get("recovered") and c.request("new dice seed=1")["ok"]
    finally:
        c.close()


@pytest.mark.parametrize("settings, bad", [
    ({"language": "xx", "contrast": "4"}, "language"),
    ({"contrast": 5, "language": "uk"}, "contrast"),
    ({"caesar.tiles": "A:" + "play+" * 500, "contrast": "4"}, "caesar.tiles"),
    ({"contrast": {"nested": [1, 2]}, "language": "uk"}, "contrast"),
])
def test_bad_settings_arriving_through_the_import_are_reported_and_their_defaults_used(state_dir, settings, bad):
    _write_journal(state_dir / "session.journal", [{"v": 1, "game": "dice", "line": "new dice seed=1", "seed": 1,
                                                    "sid": "a"}, {"line": "roll 2d6"}])
    (state_dir / "settings.json").write_text(json.dumps(settings))
    r, c = _start(state_dir)
    try:
        assert r["ok"] and r["state"]["actions"] == 1
        assert f"({bad})" in r["recovered"], r["recovered"]            # named, in whatever language was kept
        shown = c.request("settings")["settings"]
        defaults = {"language": "en", "contrast": "3"}
        for key, value in settings.items():
            assert shown.get(key, None) == (defaults.get(key) if key == bad else value)
    finally:
        c.close()
        from firmware import i18n
        i18n.set_language("en")


# -- the lock file ------------------------------------------------------------------------------------
def test_a_deleted_lock_file_does_not_block_saving_and_is_taken_again(state_dir):
    """Before: deleting only the lock file refused every change until a restart."""
    c = _open(state_dir)
    try:
        assert c.request(SETUP)["ok"]
        (state_dir / "lock").unlink()
        assert c.request("roll 2d6")["ok"]                             # saving goes on
        assert (state_dir / "lock").exists()
        from firmware.store import StateDirError
        with pytest.raises(StateDirError):                             # and the lock is held again
            Store(state_dir)
    finally:
        c.close()
    r, c = _start(state_dir)
    c.close()
    assert r["state"]["actions"] == 1


def test_a_second_process_that_took_a_new_lock_file_stops_the_first_from_saving(state_dir):
    c = _open(state_dir)
    try:
        assert c.request(SETUP)["ok"]
        (state_dir / "lock").unlink()
        other = Store(state_dir)                                        # the lock file was gone: it starts
        try:
            r = c.request("roll 2d6")
            assert r["error"] == "storage_error" and "Another Legatus process" in r["message"]
        finally:
            other.close()
        assert c.request("roll 2d6")["ok"]                             # once it is gone, the first goes on
    finally:
        c.close()


# -- numeric arguments out of range ---------------------------------------------------------------------
BIG = ["9" * 30, "-" + "9" * 30, "9223372036854775808", "-9223372036854775809", "1e309", "0", "-1"]


@pytest.mark.parametrize("value", BIG)
def test_history_and_export_numbers_out_of_range_are_bad_arguments(console, value):
    for line in (f"history {value}", f"export format=csv id={value}", f"export format=bgstats id={value}"):
        r = console.request(line)
        assert r["error"] == "bad_arguments", (line, r)


def test_no_numeric_argument_of_any_command_is_an_internal_error(state_dir):
    """Every command of every game with every number out of range: refused (or accepted), never
    an internal error (issue 20 §5: 'history 999…9' answered internal_error)."""
    from engine.common import SESSION_COMMANDS
    setups = ["new bag items=a*3,b*2 cards=c*3 seed=1", "new dice seed=1",
              "new caesar-solo side=caesar difficulty=normal seed=1", "new caesar-duel seed=1",
              "new glory players=Ann,Bob seed=1", "new jc-battle seed=1", "new sword players=romans,gauls seed=1"]
    c = _open(state_dir)
    found = []
    try:
        for line in [f"{cmd} {v}" for cmd in ("history", "log", "roll", "rolls") for v in BIG] + \
                    [f"roll {v}d6" for v in BIG] + [f"roll 1d{v}" for v in BIG] + [f"new dice seed={v}" for v in BIG]:
            if c.request(line).get("error") == "internal_error":
                found.append(line)
        for setup in setups:
            assert c.request(setup)["ok"], setup
            commands = {**SESSION_COMMANDS, **c.session.game.commands}
            for name, cmd in commands.items():
                words = [w.strip("[]") for w in cmd.usage.split("(")[0].split()[1:]]
                for v in BIG[:4]:
                    filled = [f"{w.split('=')[0]}={v}" if "=" in w else v if w.startswith("<") or w.isupper()
                              else w.split("|")[0] for w in words]
                    for line in (f"{name} {' '.join(filled)}", f"{name} {v}", f"{name} {v} {v}"):
                        if c.request(line).get("error") == "internal_error":
                            found.append(line)
    finally:
        c.close()
    assert found == []


def test_undo_bound_to_its_step_refuses_a_step_that_changed(state_dir):
    c = _open(state_dir)
    try:
        assert c.request(SETUP)["ok"] and c.request("roll 2d6")["ok"]
        named = c.undo_step()
        assert c.request("roll 1d20")["ok"]                              # a serial request in between
        r = c.undo_named(named)
        assert r["error"] == "step_changed" and c.session.lines == ["roll 2d6", "roll 1d20"]
        assert c.undo_named(c.undo_step())["ok"] and c.session.lines == ["roll 2d6"]
        named = c.undo_step()
        assert c.request("roll 1d6")["ok"] and c.request("undo")["ok"]   # the same step on top again
        assert c.undo_named(named)["ok"] and c.session.lines == []
    finally:
        c.close()


def test_a_session_row_sealed_the_old_way_in_a_new_database_is_kept_not_lost(state_dir):
    """Code that changes a session row must seal it again (Store.seal_session); if some code
    sealed it the old way, the header still checks out: the session is kept and the slip reported."""
    from firmware.storage import crc
    _played(state_dir)
    db = sqlite3.connect(state_dir / DB_NAME)
    for sid, header in db.execute("SELECT id, header FROM sessions").fetchall():
        db.execute("UPDATE sessions SET crc=? WHERE id=?", (crc(sid, header), sid))
    db.commit()
    db.close()
    r, c = _start(state_dir)
    c.close()
    assert r["state"] == VIEWS[-1] and "mended" in r["recovered"]


def test_a_schema_half_made_by_an_older_legatus_is_completed_not_taken_for_damage(state_dir):
    """An older Legatus created its tables one by one: a start cut short could leave some. With no
    rows in them this is no damage; the missing tables are made (now in one transaction)."""
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("CREATE TABLE sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL, "
               "ended REAL, crc INTEGER NOT NULL)")
    db.commit()
    db.close()
    r, c = _start(state_dir)
    try:
        assert r["error"] == "no_session" and "recovered" not in r
        assert not list(state_dir.glob("*.damaged-*"))
        assert c.request(SETUP)["ok"] and c.request("roll 2d6")["ok"]
    finally:
        c.close()


# -- the fair-draw records (firmware/fairness.py) are under the same checks -------------------------
def _ended_bag(d: Path) -> str:
    """A secret-seed bag session played, ended and followed by another: its fair-draw record is
    filed. Returns its seed."""
    c = _open(d)
    try:
        for line in ["new bag items=gold*3,silver*2", "draw 2", "end"]:
            assert c.request(line)["ok"], line
        seed = c.request("reveal")["seed"]
        assert c.request("new dice")["ok"]               # the ended session is archived: only its record tells
    finally:
        c.close()
    return str(seed)


def test_a_damaged_fair_draw_record_is_reported_set_aside_and_made_again_from_the_session(state_dir):
    """The damaged record is never read (kept for a bug report, reported); QA (storage): the ended
    session's own rows still hold its seed and actions, so the record is made again from them
    instead of the ended game losing its proof for good."""
    seed = _ended_bag(state_dir)
    _sql(state_dir, "UPDATE fair SET data = CAST(CAST(data AS BLOB) || x'ff' AS TEXT)")
    r, c = _start(state_dir)
    try:
        assert "recovered" in r and "made again from its saved actions" in r["recovered"]
        games = c.request("history")
        assert games["ok"] and str(games["games"][0]["seed"]) == seed
        record = c.request("export format=draws")["record"]
        assert str(record["seed"]) == seed and record["actions"][-1] == "end"
        held = sqlite3.connect(state_dir / DB_NAME).execute("SELECT what FROM damaged").fetchall()
        assert ("fair-draw record",) in held
    finally:
        c.close()


def test_a_damaged_fair_draw_record_the_full_card_kept_from_being_made_again_is_made_at_the_next_start(
        state_dir, monkeypatch):
    """QA (storage faults): the start set the damaged record aside, then the card was full when it
    was to be made again: no later start tried again, and the ended game had lost its proof for
    good (``export format=draws`` refused, History without its seed) though its rows still held it."""
    from engine.text import Msg
    from firmware import fairness
    from firmware.storage import StorageError
    seed = _ended_bag(state_dir)
    _sql(state_dir, "UPDATE fair SET data = CAST(CAST(data AS BLOB) || x'ff' AS TEXT)")

    def full(*_a: object, **_k: object) -> None:
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    with monkeypatch.context() as m:
        m.setattr(fairness, "file_lines", full)
        r, c = _start(state_dir)
        c.close()
    assert "made again from its saved actions once the card can be written" in r["recovered"], r
    r, c = _start(state_dir)
    try:
        assert "made again from its saved actions" in r.get("recovered", ""), r
        assert str(c.request("export format=draws")["record"]["seed"]) == seed
    finally:
        c.close()
    r, c = _start(state_dir)                      # done: nothing more to do nor to say
    c.close()
    assert "recovered" not in r


def test_a_damaged_fair_draw_record_whose_session_is_gone_is_reported_and_history_still_answers(state_dir):
    seed = _ended_bag(state_dir)
    _sql(state_dir, "UPDATE fair SET data = CAST(CAST(data AS BLOB) || x'ff' AS TEXT)", "DELETE FROM actions")
    r, c = _start(state_dir)
    try:
        assert "recovered" in r and "can no longer be checked" in r["recovered"]
        games = c.request("history")
        assert games["ok"] and games["games"][0]["seed"] is None        # not shown from a damaged record
        assert c.request("export format=draws")["error"] == "bad_arguments"
        assert seed
    finally:
        c.close()


def test_a_rebuilt_database_carries_the_fair_draw_records_whose_checksum_holds(state_dir):
    seed = _ended_bag(state_dir)
    data = bytearray((state_dir / DB_NAME).read_bytes())
    at = data.index(b"CREATE TABLE damaged")
    data[at + 14] = 0xFF                                                 # the schema: the file is rebuilt
    (state_dir / DB_NAME).write_bytes(bytes(data))
    r, c = _start(state_dir)
    try:
        assert "kept aside as legatus.db.damaged-1" in r["recovered"]
        entry = c.request("history")["games"][0]
        assert str(entry["seed"]) == seed
        assert c.request("export format=draws")["ok"]
    finally:
        c.close()


@pytest.fixture
def read_only_mount(tmp_path):
    """A small filesystem of its own (tmpfs) that the test can remount read-only, as the kernel
    does to a card after an error. Needs root and mount rights: skipped elsewhere."""
    mnt = tmp_path / "card"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")

    def remount(how: str) -> None:
        subprocess.run(["mount", "-o", f"remount,{how}", str(mnt)], check=True, capture_output=True)
    try:
        yield mnt, remount
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_card_remounted_read_only_still_starts_reads_and_refuses_every_change(read_only_mount, caplog):
    """QA (storage): on a read-only filesystem Legatus refused to start at all ('Cannot use the
    state directory … Read-only file system'), so the device showed nothing and History could not
    be read. It starts, says why in the player's language, answers every read, refuses every
    change with nothing changed, and saves again once the card is writable."""
    mnt, remount = read_only_mount
    d = mnt / "state"
    c = _open(d)
    for line in ("settings language=uk", "new bag items=a*3,b*2", "draw", "end", "new dice seed=3", "roll 2d6"):
        assert c.request(line)["ok"] is True, line
    games = c.request("history")["games"]
    state = c.request("state")["state"]
    c.close()
    remount("ro")
    c = _open(d)
    try:
        start = c.request("state")
        assert start["state"] == state
        assert "лише для читання" in start["recovered"]
        assert not [r for r in caplog.records if "cannot remove" in r.getMessage()]    # (no half-made salvage)
        assert c.request("history")["games"] == games
        assert c.request("export format=draws")["ok"] is True
        for line in ("roll 1d6", "undo", "end", "new dice", "settings language=ru"):
            refused = c.request(line)
            assert (refused["ok"], refused["error"]) == (False, "storage_error"), (line, refused)
            assert "лише для читання" in refused["message"]
        assert c.request("state")["state"] == state
        remount("rw")
        tries = [c.request("roll 1d6") for _ in range(2)]
        assert tries[-1]["ok"] is True, tries
        state = tries[-1]["state"]
    finally:
        c.close()
    c = _open(d)
    try:
        assert c.request("state")["state"] == state
    finally:
        c.close()


HOT = """
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA cache_size=1")              # the change spills into the file before any commit
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE actions SET line=line||'x'")
db.execute("CREATE TABLE junk(x)")
db.execute("INSERT INTO junk SELECT randomblob(2000) FROM actions")
os._exit(0)                                    # the power is cut: a hot rollback journal is left
"""


def test_a_card_remounted_read_only_after_a_power_cut_mid_commit_still_starts_and_reads(read_only_mount):
    """QA (faults): the power cut in the middle of a commit left a hot rollback journal, and the
    card came back read-only (the kernel remounts it so after an error): SQLite cannot roll the
    journal back there, and Legatus refused to start ('Cannot open …: attempt to write a readonly
    database', exit 2: a dark panel, a restart loop). It starts from the database as the rollback
    makes it (read in memory), says the card is read-only, refuses every change, and once the card
    is writable the real rollback happens and saving goes on."""
    import sys
    mnt, remount = read_only_mount
    d = mnt / "state"
    c = _open(d)
    for line in ("new bag items=a*3,b*2 seed=4", "draw", "draw"):
        assert c.request(line)["ok"] is True, line
    state, games = c.request("state")["state"], c.request("history")["games"]
    c.close()
    subprocess.run([sys.executable, "-c", HOT, str(d / DB_NAME)], check=True)
    assert (d / (DB_NAME + "-journal")).stat().st_size > 0
    remount("ro")
    c = _open(d)
    try:
        start = c.request("state")
        assert start["state"] == state and "read-only" in start["recovered"]
        assert c.request("history")["games"] == games
        refused = c.request("draw")
        assert (refused["error"], refused["message"]) == ("storage_error", (
            "The storage is read-only: nothing was changed; what was saved is kept. Turn Legatus off and on "
            "again; if this comes back, replace the card."))
        assert c.request("state")["state"] == state                  # reading goes on after a refusal
        remount("rw")
        tries = [c.request("draw") for _ in range(2)]
        assert tries[-1]["ok"] is True, tries
        state = tries[-1]["state"]
    finally:
        c.close()
    c = _open(d)
    try:
        assert c.request("state")["state"] == state
    finally:
        c.close()


def test_a_connection_that_cannot_be_set_up_again_still_reads_and_says_why_it_refuses(state_dir, monkeypatch):
    """QA (storage): after a failed commit on a card that refuses every write, the new connection
    could not be set up and the store kept the closed one: 'history' and 'export' answered
    internal_error and every refusal said 'Cannot operate on a closed database'. Reads go on
    from the file, a change is refused with the disk's own reason and nothing changed, and saving
    works again once the disk does."""
    import sqlite3 as sq
    c = _open(state_dir)
    try:
        for line in ("new bag items=a*3", "draw", "end", "new dice seed=2", "roll 2d6"):
            assert c.request(line)["ok"] is True, line
        games, state = c.request("history")["games"], c.request("state")["state"]
        real = Store._connect

        def full(self):
            raise sq.OperationalError("database or disk is full")
        monkeypatch.setattr(Store, "_connect", full)
        c.store._reconnect()                             # as after a COMMIT the disk refused
        assert c.request("history")["games"] == games
        assert c.request("export format=csv")["ok"] is True
        refused = c.request("roll 1d6")
        assert (refused["error"], refused["message"]) == (
            "storage_error", "The storage is full: nothing was changed. Free some space; Legatus goes on by itself.")
        assert c.request("state")["state"] == state
        monkeypatch.setattr(Store, "_connect", real)
        assert c.request("roll 1d6")["ok"] is True
    finally:
        c.close()


def _bad_sector(monkeypatch, path: Path, first: int, last: int, times: int | None = None) -> list[int]:
    """Reads of the file ``path`` is now touching bytes ``first..last`` fail with EIO (a bad spot
    on the card): always, or the first ``times`` times (a card that answers again). SQLite's own
    open of it fails the same way ("disk I/O error") while the spot is bad. A new file made at
    that path reads well."""
    import errno
    import sqlite3 as sq
    inode = os.stat(path).st_ino
    failed = [0]

    def bad() -> bool:
        if times is not None and failed[0] >= times:
            return False
        failed[0] += 1
        return True

    def same(p: Path) -> bool:
        try:
            return os.stat(p).st_ino == inode
        except OSError:
            return False
    real_pread, real_connect, real_read = os.pread, Store._connect, Path.read_bytes

    def pread(fd: int, n: int, offset: int) -> bytes:
        if os.fstat(fd).st_ino == inode and offset <= last and offset + n > first and bad():
            raise OSError(errno.EIO, "Input/output error")
        return real_pread(fd, n, offset)

    def connect(self):
        if same(self.db_path) and bad():
            raise sq.OperationalError("disk I/O error")
        return real_connect(self)

    def read_bytes(self):
        if same(self) and bad():
            raise OSError(errno.EIO, "Input/output error")
        return real_read(self)
    monkeypatch.setattr(os, "pread", pread)
    monkeypatch.setattr(Store, "_connect", connect)
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    return failed


def test_a_read_error_at_start_that_goes_away_is_tried_again_and_nothing_is_moved_aside(state_dir, monkeypatch):
    """QA (faults): one EIO reading the database at start (a card slow to wake) stopped the start
    for good: 'Cannot open …legatus.db: disk I/O error', exit 2, a dark panel, and under systemd a
    restart loop. The read is tried again; the database is used as it is."""
    _played(state_dir)
    want = _start(state_dir)
    want[1].close()
    failed = _bad_sector(monkeypatch, (state_dir / DB_NAME).resolve(), 0, 4095, times=2)
    r, c = _start(state_dir)
    try:
        assert failed[0] == 2
        assert r["state"] == want[0]["state"] and "recovered" not in r
        assert not list(state_dir.glob("*.damaged-*"))
    finally:
        c.close()


def test_a_bad_spot_in_the_database_never_stops_the_start_and_the_rows_elsewhere_are_carried_over(state_dir, monkeypatch):
    """QA (faults): a database whose first page cannot be read (EIO every time) stopped every
    start ('Cannot open …: disk I/O error', exit 2): no panel, no History, a restart loop. The
    file is kept aside as damaged, the rows in the pages that still read are carried over, and
    the start says so."""
    _played(state_dir)
    games = _start(state_dir)
    games[1].close()
    _bad_sector(monkeypatch, (state_dir / DB_NAME).resolve(), 0, 4095)
    r, c = _start(state_dir)
    try:
        assert "disk I/O error" in r["recovered"] or "could not be read" in r["recovered"], r
        assert "kept aside as legatus.db.damaged-1" in r["recovered"]
        assert "4096 bytes of the database could not be read at all" in r["recovered"]
        assert c.request("settings")["settings"]["contrast"] == "4"          # a row in another page
    finally:
        c.close()
    monkeypatch.undo()
    assert (state_dir / (DB_NAME + ".damaged-1")).exists()


# -- a database written by a newer Legatus (its format ahead of this program's) ----------------------
def test_a_database_of_a_newer_legatus_is_never_changed_and_every_change_says_why(state_dir):
    """Before: the rows of a newer format (a checksum this program does not know) were taken for
    damage: moved to the ``damaged`` table, the session and History gone from the newer program's
    tables, and everything played on the older one as on a fresh card."""
    _played(state_dir)
    _sql(state_dir, f"PRAGMA user_version={FORMAT + 1}", "CREATE TABLE future(x)",
         "UPDATE sessions SET crc=crc+1", "UPDATE settings SET crc=crc+1")
    before = (state_dir / DB_NAME).read_bytes()
    r, c = _start(state_dir)
    try:
        assert "newer Legatus" in r["recovered"] and "damaged" not in r["recovered"], r
        for line in ("new dice seed=3", "settings contrast=2"):
            refused = c.request(line)
            assert refused["error"] == "storage_error" and "newer Legatus" in refused["message"], refused
    finally:
        c.close()
    assert (state_dir / DB_NAME).read_bytes() == before
    assert not list(state_dir.glob("*.damaged-*"))


def test_a_newer_legatus_database_whose_tables_changed_is_not_salvaged(state_dir):
    """A column of a newer format whose type changed used to make the file 'damaged': it was moved
    aside and a new, nearly empty database made in its place."""
    _played(state_dir)
    _sql(state_dir, f"PRAGMA user_version={FORMAT + 1}", "ALTER TABLE damaged RENAME TO damaged_old",
         "CREATE TABLE damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data BLOB NOT NULL, reason TEXT NOT NULL)")
    before = (state_dir / DB_NAME).read_bytes()
    r, c = _start(state_dir)
    c.close()
    assert "newer Legatus" in r["recovered"], r
    assert (state_dir / DB_NAME).read_bytes() == before and not list(state_dir.glob("*.damaged-*"))


def test_a_format_number_ahead_on_a_database_exactly_this_programs_plays_on(state_dir):
    """(A flipped bit of the header's format number on a file that is all this program's own is
    not a newer Legatus: nothing to protect, the game goes on.)"""
    _played(state_dir)
    _sql(state_dir, f"PRAGMA user_version={FORMAT + 1}")
    r, c = _start(state_dir)
    try:
        assert r["state"] == VIEWS[-1] and "recovered" not in r
        assert c.request("roll 1d6")["ok"]
    finally:
        c.close()


def test_a_read_the_card_refused_is_logged_in_its_words_without_a_traceback(caplog):
    """QA (storage faults, ``storage_faults.py inject --finish``): on a full card whose hot
    journal could not be rolled back, every read of the players, the fair-draw records and History
    logged a whole traceback (several a request), as if Legatus had a bug."""
    import logging
    from firmware import fairness, players
    db = sqlite3.connect(":memory:")
    db.close()                                   # every statement now fails with sqlite3's own error
    with caplog.at_level(logging.WARNING):
        assert players.known(db) == []
        assert fairness.filed(db, ["x"]) == {}
        assert fairness.seed_revealed(db, 5) is True
    assert len(caplog.records) >= 3 and not [r.getMessage() for r in caplog.records if r.exc_info]
