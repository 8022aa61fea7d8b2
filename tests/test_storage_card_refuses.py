"""A card that stops taking writes in the middle of a game, as SD cards do at the table: the kernel
makes the file system read-only after an error (ext4's errors=remount-ro), the card runs out of
room (of blocks, or of files: the rollback journal cannot be made), or the folder may no longer be
written in. SQLite then often names no cause — "unable to open database file" (the journal) or
"disk I/O error" — and the player read «Could not save (the records could not be opened): nothing
was changed.», which tells neither what happened nor what to do (found on a real ext4 card image
made read-only by an error mid-game, and on one with no free inode left). The store asks the card
itself (firmware/store/connection.py ``_cause``) and says the card's state and what to do, in the
player's language; nothing acknowledged is lost, reading goes on, and the next change after the
card takes writes again is saved."""
from __future__ import annotations

import errno
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine.text import Msg
from firmware.console import Console
from firmware.i18n import domain
from firmware.store import DB_NAME, Store
from firmware.store import connection
from tests import test_storage_damage
from tests.test_storage_damage import HOT

read_only_mount = test_storage_damage.read_only_mount      # (the fixture this file uses from there)

SAY = domain("legatus").say
WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.I)
READ_ONLY = Msg("The storage is read-only: nothing was changed; what was saved is kept. Turn Legatus off and on "
                "again; if this comes back, replace the card.")
FULL = Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself.")
NO_RIGHT = Msg("Legatus may no longer write in its folder: nothing was changed; what was saved is kept. "
               "Give it the right to write there again; Legatus goes on by itself.")


class Card:
    """What the card refuses now: SQLite's writes (with ``sqlite``'s message), a new file in the
    state directory (with ``new_file``'s errno), and how much room statvfs tells (``blocks``)."""

    sqlite: str | None = None
    new_file: int | None = None
    db_file: int | None = None          # the errno opening the database file to write gives
    blocks: int | None = None
    read_only: bool = False


@pytest.fixture
def card(monkeypatch: pytest.MonkeyPatch, state_dir: Path) -> Card:
    c = Card()
    db_path = state_dir / DB_NAME

    class Refusing(sqlite3.Connection):
        def execute(self, sql: str, *a: Any) -> sqlite3.Cursor:       # type: ignore[override]
            if c.sqlite is not None and WRITE.match(sql):
                raise sqlite3.OperationalError(c.sqlite)
            return super().execute(sql, *a)

        def executemany(self, sql: str, *a: Any) -> sqlite3.Cursor:   # type: ignore[override]
            if c.sqlite is not None and WRITE.match(sql):
                raise sqlite3.OperationalError(c.sqlite)
            return super().executemany(sql, *a)

    real_connect, real_open, real_statvfs = sqlite3.connect, os.open, os.statvfs

    def connect(path: Any, *a: Any, **k: Any) -> sqlite3.Connection:
        if str(path) == str(db_path):
            k["factory"] = Refusing
        return real_connect(path, *a, **k)

    def open_(path: Any, flags: int, *a: Any, **k: Any) -> int:
        if c.new_file is not None and Path(path).parent == state_dir and flags & os.O_CREAT:
            raise OSError(c.new_file, os.strerror(c.new_file), str(path))
        if c.db_file is not None and str(path) == str(db_path) and flags & os.O_WRONLY:
            raise OSError(c.db_file, os.strerror(c.db_file), str(path))
        return real_open(path, flags, *a, **k)

    def statvfs(path: Any) -> Any:
        got = real_statvfs(path)
        if Path(path) != state_dir or (c.blocks is None and not c.read_only):
            return got
        fields = list(got)
        if c.blocks is not None:
            fields[4] = c.blocks                                        # f_bavail
        if c.read_only:
            fields[8] |= os.ST_RDONLY                                   # f_flag
        return os.statvfs_result(fields)
    monkeypatch.setattr(connection.sqlite3, "connect", connect)
    monkeypatch.setattr(connection.os, "open", open_)
    monkeypatch.setattr(connection.os, "statvfs", statvfs)
    return c


def _open(d: Path) -> Console:
    store = Store(d)
    return Console(store, store.resume())


def _played(d: Path, lang: str) -> Console:
    c = _open(d)
    for line in (f"settings language={lang}", "new dice seed=1", "roll 2d6", "end",
                 "new glory players=Ann,Bob seed=3", "roll 1d6"):
        assert c.request(line)["ok"] is True, line
    return c


CASES = {   # what SQLite says, the card's own error at a new file and at the database file opened to
            # write, statvfs's free blocks and read-only flag -> what is said
    "made read-only": ("unable to open database file", errno.EROFS, None, None, False, READ_ONLY),
    "no free file": ("unable to open database file", errno.ENOSPC, None, None, False, FULL),
    "no right": ("unable to open database file", errno.EACCES, None, None, False, NO_RIGHT),
    "no free block at the sync": ("disk I/O error", None, None, 0, False, FULL),
    "read-only, files still made": ("disk I/O error", None, None, None, True, READ_ONLY),
    # SQLite opened a file it may not write read-only: not the card (it was «read-only: replace the card»)
    "the file not writable": ("attempt to write a readonly database", None, errno.EPERM, None, False, NO_RIGHT),
    "the card read-only": ("attempt to write a readonly database", errno.EROFS, errno.EROFS, None, True, READ_ONLY),
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_card_that_stops_taking_writes_mid_game_says_why_and_what_to_do(card: Card, state_dir: Path,
                                                                        case: str, lang: str):
    sqlite_says, new_file, db_file, blocks, read_only, said = CASES[case]
    c = _played(state_dir, lang)
    try:
        state, games = c.request("state")["state"], c.request("history")["games"]
        card.sqlite, card.new_file, card.db_file, card.blocks, card.read_only = (sqlite_says, new_file, db_file,
                                                                                 blocks, read_only)
        for line in ("roll 1d6", "new dice seed=4", "settings contrast=5"):
            refused = c.request(line)
            assert (refused["error"], refused["message"]) == ("storage_error", SAY(said, lang)), (line, refused)
        if lang != "en":
            assert not re.search(r"[A-Za-z]", refused["message"].replace("Legatus", "")), refused
        assert c.request("state")["state"] == state                  # the game goes on as it was
        assert c.request("history")["games"] == games
        assert c.request("export format=csv")["ok"] is True
        card.sqlite = card.new_file = card.db_file = card.blocks = None
        card.read_only = False
        saved = c.request("roll 1d6")                                # the card takes writes again
        assert saved["ok"] is True, saved
    finally:
        c.close()
    c = _open(state_dir)
    try:
        assert c.request("state")["state"] == saved["state"]         # nothing acknowledged lost
        assert c.request("history")["games"] == games
        assert not list(state_dir.glob("*-probe"))                   # (the question asked left nothing)
    finally:
        c.close()


def test_a_refusal_the_card_itself_cannot_explain_keeps_sqlites_reason(card: Card, state_dir: Path):
    """A card that still makes files and has room: SQLite's own reason, as before."""
    c = _played(state_dir, "en")
    try:
        card.sqlite = "disk I/O error"
        refused = c.request("roll 1d6")
        assert refused["message"] == ("Could not save (the card did not answer a read or a write): nothing was changed. "
                                      "Check the card; Legatus tries again at the next change.")
    finally:
        c.close()


def test_a_power_cut_journal_on_a_card_made_read_only_without_a_word_to_statvfs_still_starts(
        read_only_mount: Any, monkeypatch: pytest.MonkeyPatch):
    """Recent kernels make an ext4 card read-only after an error as an "emergency read-only": every
    write is refused with EROFS, but the mount still reads rw and statvfs has no ST_RDONLY (seen on
    a real ext4 image, kernel 6.18). A rollback journal a power cut left there cannot be rolled
    back, and the store only looked at statvfs to tell: it refused to start at all («Cannot open
    legatus.db: the storage is read-only»), no game or History to read. It starts from the database
    as the rollback makes it, as on a card mounted read-only, and once the card takes writes
    again the real rollback happens and saving goes on. (Here: a tmpfs remounted read-only, its
    statvfs flag hidden.)"""
    import subprocess
    import sys
    mnt, remount = read_only_mount
    d = mnt / "state"
    c = _open(d)
    for line in ("new dice seed=4", "roll 2d6", "end", "new bag items=a*3,b*2 seed=4", "draw", "draw"):
        assert c.request(line)["ok"] is True, line
    state, games = c.request("state")["state"], c.request("history")["games"]
    c.close()
    subprocess.run([sys.executable, "-c", HOT, str(d / DB_NAME)], check=True)
    assert (d / (DB_NAME + "-journal")).stat().st_size > 0
    remount("ro")
    real_statvfs = os.statvfs

    def silent(path: Any) -> Any:
        got = list(real_statvfs(path))
        got[8] &= ~os.ST_RDONLY
        return os.statvfs_result(got)
    monkeypatch.setattr(connection.os, "statvfs", silent)
    c = _open(d)
    try:
        start = c.request("state")
        assert start["state"] == state and "read-only" in start["recovered"]
        assert c.request("history")["games"] == games
        refused = c.request("draw")
        assert (refused["error"], refused["message"]) == ("storage_error", SAY(READ_ONLY, "en"))
        remount("rw")
        tries = [c.request("draw") for _ in range(2)]
        assert tries[-1]["ok"] is True, tries
        state = tries[-1]["state"]
    finally:
        c.close()
    c = _open(d)
    try:
        assert c.request("state")["state"] == state and c.request("history")["games"] == games
    finally:
        c.close()


def test_a_damaged_database_on_a_read_only_card_is_read_from_memory_and_says_nothing_can_be_saved(
        read_only_mount: Any):
    """A damaged file whose salvage cannot be written (the card read-only): the start gave up
    («Cannot create legatus.db: the storage is read-only.»: the wait screen), so nothing — no
    game, no History — could be read until the card took writes again. The salvage is made in
    memory: the last game and History are read as the salvage finds them, the start says plainly
    that nothing can be saved, every change is refused saying so, and the damaged file is left as
    it was; the first start on a writable card salvages it as ever and saving goes on."""
    mnt, remount = read_only_mount
    d = mnt / "state"
    c = _open(d)
    for line in ("new dice seed=4", "roll 2d6", "end", "new bag items=a*3,b*2 seed=4", "draw", "draw"):
        assert c.request(line)["ok"] is True, line
    state, games = c.request("state")["state"], c.request("history")["games"]
    c.close()
    data = bytearray((d / DB_NAME).read_bytes())
    data[0:16] = b"not a database!!"
    (d / DB_NAME).write_bytes(bytes(data))
    remount("ro")
    c = _open(d)
    try:
        start = c.request("state")
        assert start["state"] == state, start
        assert "read into memory, to be read only; nothing can be saved" in start["recovered"], start
        assert c.request("history")["games"] == games
        for line in ("draw", "undo", "end", "new dice", "settings language=ru"):
            refused = c.request(line)
            assert (refused["ok"], refused["error"]) == (False, "storage_error"), (line, refused)
            assert refused["message"].startswith("Nothing was changed: the card was read-only when Legatus started")
        assert c.request("state")["state"] == state
        remount("rw")
        assert c.request("draw")["error"] == "storage_error"          # (never into the damaged file)
    finally:
        c.close()
    assert (d / DB_NAME).read_bytes() == bytes(data)
    c = _open(d)
    try:
        assert c.request("state")["state"] == state
        assert c.request("draw")["ok"] is True
    finally:
        c.close()


def test_a_full_card_an_older_legatus_wrote_still_starts_and_reads(read_only_mount: Any):
    """A database an older Legatus wrote lacks a table this one adds (here the fair-draw record's),
    made at the start; on a full card that failed, and the start gave up: «Cannot open legatus.db:
    the storage is full», no game or History to read until space was freed (seen on a full ext4
    image after an update). It starts and reads as on a read-only card, every change refused
    saying the card is full, and once there is room again the next change is saved and the
    table made."""
    mnt, _remount = read_only_mount
    d = mnt / "state"
    c = _open(d)
    for line in ("new dice seed=4", "roll 2d6", "end", "new bag items=a*3,b*2 seed=4", "draw"):
        assert c.request(line)["ok"] is True, line
    state, games = c.request("state")["state"], c.request("history")["games"]
    c.close()
    db = sqlite3.connect(d / DB_NAME)
    db.execute("DROP TABLE fair")
    db.commit()
    db.execute("VACUUM")                                              # (no free page left in the file)
    db.close()
    filler = mnt / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as e:
        assert e.errno == errno.ENOSPC
    finally:
        os.close(fd)
    c = _open(d)
    try:
        assert c.request("state")["state"] == state
        assert _but_fair(c.request("history")["games"]) == _but_fair(games)     # (no fair record: none kept)
        refused = c.request("draw")
        assert (refused["error"], refused["message"]) == ("storage_error", SAY(FULL, "en"))
        filler.unlink()
        saved = c.request("draw")
        assert saved["ok"] is True, saved
    finally:
        c.close()
    c = _open(d)
    try:
        assert c.request("state")["state"] == saved["state"]
        assert _but_fair(c.request("history")["games"]) == _but_fair(games)
        assert c.store.db.execute("SELECT 1 FROM sqlite_master WHERE name='fair'").fetchone() is not None
    finally:
        c.close()


def _but_fair(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in g.items() if k not in ("seed", "share", "commitment")} for g in games]
