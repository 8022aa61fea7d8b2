"""Sessions on SQLite (issue 10): every fault of the audit (F1–F10), damage never silent, old
journals imported, bounded memory. Each test would fail on the hand-written journal it replaces."""
from __future__ import annotations

import json
import os
import random
import shutil
import stat
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import journal
from firmware.console import Console
from firmware.session import CHECKPOINT_EVERY, Session
from firmware.store import DB_NAME, StateDirError, Store
from tests.conftest import ROOT, console_cmd, run_console

SETUP = "new bag items=gold*6,silver*6,bronze*6 cards=c1*5,c2*5 seed=77"
LINES = ["draw", "draw 2", "roll 3d6", "card", "put gold", "undo", "reroll 1,2", "put silver", "shuffle",
         "draw", "undo", "roll 1d20+2", "card 2", "reshuffle"]


def _open(state_dir: Path) -> Console:
    store = Store(state_dir)
    return Console(store, store.resume())


def _expected(lines: list[str], version: int = 2) -> list[dict]:
    """The state view after each prefix of ``lines`` (a refused line changes nothing);
    ``version``: the draws' derivation (1: a session stored before the streams)."""
    from engine.errors import LegatusError
    s = Session.start(SETUP, 77, "ref", version=version)
    out = [s.view()]
    for line in lines:
        try:
            s.undo() if line == "undo" else s.apply(s.as_asked(line), asked=True)      # as the console stores it
        except LegatusError:
            pass
        out.append(s.view())
    return out


def _play(state_dir: Path, lines: list[str]) -> list[dict]:
    c = _open(state_dir)
    try:
        return [c.request(line) for line in [SETUP, *lines]]
    finally:
        c.close()


def _state(state_dir: Path) -> tuple[dict | None, str | None]:
    c = _open(state_dir)
    try:
        r = c.request("state")
        return (r["state"] if r["ok"] else None), c.store.recovery and c.store.recovery.sentence()
    finally:
        c.close()


# -- F1: damage is never silent ----------------------------------------------------------------
def test_a_damaged_action_row_is_reported_and_the_session_resumes_at_the_last_good_action(state_dir):
    _play(state_dir, LINES[:5])
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE actions SET line='draw 3' WHERE seq=3")     # one changed value, old checksum
    db.commit()
    db.close()
    state, recovery = _state(state_dir)
    assert state == _expected(LINES[:2])[-1]
    assert recovery and "damaged" in recovery
    db = sqlite3.connect(state_dir / DB_NAME)
    kept = db.execute("SELECT data FROM damaged").fetchall()
    assert kept and any(b"draw 3" in bytes(row[0]) for row in kept)   # the damaged bytes are kept
    db.close()


def test_a_damaged_checkpoint_is_skipped_and_the_state_replayed_from_an_older_one(state_dir):
    c = _open(state_dir)
    c.request("new dice seed=5")
    for _ in range(2 * CHECKPOINT_EVERY + 3):
        assert c.request("roll 2d6")["ok"]
    want = c.request("state")["state"]
    c.close()
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE checkpoints SET state=replace(state, '\"dice\"', '\"dicx\"') WHERE depth=?", (2 * CHECKPOINT_EVERY,))
    db.commit()
    db.close()
    state, recovery = _state(state_dir)
    assert state == want and recovery and "checkpoint" in recovery


def test_one_changed_byte_anywhere_in_the_database_is_never_silent_and_never_stops_the_start(tmp_path):
    lines = LINES[:8]
    expected = _expected(lines)
    pristine = tmp_path / "pristine"
    pristine.mkdir()
    _play(pristine, lines)
    data = (pristine / DB_NAME).read_bytes()
    rng = random.Random(7)
    outcomes = {"exact": 0, "reported": 0}
    for trial in range(60):
        d = tmp_path / f"t{trial}"
        d.mkdir()
        buf = bytearray(data)
        i = rng.randrange(len(buf))
        buf[i] ^= 1 << rng.randrange(8)
        (d / DB_NAME).write_bytes(bytes(buf))
        state, recovery = _state(d)              # must not raise
        if state == expected[-1] and recovery is None:
            outcomes["exact"] += 1               # the byte was in free space or an unused field
        else:
            assert recovery, (trial, i)          # anything else is reported
            assert state is None or state in expected, (trial, i)
            outcomes["reported"] += 1
    assert outcomes["reported"] > 0


def test_a_file_that_is_not_a_database_is_moved_aside_and_reported(state_dir):
    (state_dir / DB_NAME).write_bytes(b"this is not SQLite" * 100)
    state, recovery = _state(state_dir)
    assert state is None and recovery and "kept aside" in recovery
    assert (state_dir / f"{DB_NAME}.damaged-1").read_bytes().startswith(b"this is not")
    assert _play(state_dir, ["draw"])[-1]["ok"]                  # and the device goes on


# -- F2/F3/F4/F5: a failed commit changes nothing, now and after a restart --------------------
STRACE = shutil.which("strace")


def _console_under_strace(state_dir: Path, inject: str, lines: list[str]) -> list[dict]:
    cmd = [STRACE, "-f", "-qq", "-o", "/dev/null", "-e", f"inject={inject}", *console_cmd(state_dir)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run(cmd, input="".join(line + "\n" for line in lines).encode(), capture_output=True,
                       cwd=ROOT, env=env, timeout=60)
    out = []
    for raw in p.stdout.decode(errors="replace").splitlines():
        try:
            out.append(json.loads(raw))
        except ValueError:
            break
    return out


@pytest.mark.slow
@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
@pytest.mark.parametrize("errno_name", ["ENOSPC", "EIO", "EROFS"])
def test_failing_writes_refuse_the_action_and_nothing_refused_comes_back(errno_name, tmp_path):
    lines = ["draw", "roll 3d6", "draw 2", "card", "undo", "draw"]
    for when in (1, 2, 3, 5, 8, 13):
        d = tmp_path / f"{errno_name}-{when}"
        d.mkdir()
        run_console(d, [SETUP])
        replies = _console_under_strace(d, f"pwrite64:error={errno_name}:when={when}", lines)
        assert len(replies) == len(lines), replies
        acked = [line for line, r in zip(lines, replies) if r["ok"]]
        refused = [r for r in replies if not r["ok"]]
        assert refused, "the injected fault must refuse something"
        for r in refused:
            assert r["error"] == "storage_error" and "nothing was changed" in r["message"]
        state = run_console(d, ["state"])[0]["state"]
        assert state == _expected(acked)[-1], (when, acked)


@pytest.mark.slow
@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_killed_on_entry_to_a_file_sync_never_loses_an_acknowledged_action(tmp_path):
    lines = ["draw", "roll 3d6", "draw 2", "card", "undo", "draw", "new dice seed=2", "roll 1d6"]
    for when in range(1, 16):
        d = tmp_path / f"kill-{when}"
        d.mkdir()
        run_console(d, [SETUP])
        replies = _console_under_strace(d, f"fsync,fdatasync:signal=KILL:when={when}", lines)
        acked = lines[:len(replies)]
        assert all(r["ok"] for r in replies)
        state = run_console(d, ["state"])[0]["state"]
        if "new dice seed=2" in acked:
            assert state["game"] == "dice"
        else:
            # the action in flight may or may not have landed; acknowledged ones always have
            options = [_expected(acked)[-1]]
            if len(acked) < len(lines) and lines[len(acked)] != "new dice seed=2":
                options.append(_expected(lines[:len(acked) + 1])[-1])
            elif len(acked) < len(lines):
                options.append("dice")
            assert state in options or state.get("game") in options, (when, acked)


@pytest.mark.slow
@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_one_read_error_at_start_is_read_again_never_taken_for_damage(tmp_path):
    """QA (faults): one EIO on a read of the database at start (a card slow to answer) either
    stopped the start ('Cannot open …: disk I/O error', exit 2: a dark panel, a restart loop
    under systemd), or moved the whole file aside as damaged ("database disk image is
    malformed"), or reported a damaged index ("Page 17: unable to get the page. error
    code=8458", an I/O error). It is read again: the start is as if nothing happened."""
    ref = tmp_path / "ref"
    ref.mkdir()
    run_console(ref, ["settings contrast=4", SETUP, "draw", "roll 3d6", "end", "new dice seed=3", "roll 2d6"])
    want = run_console(ref, ["state", "history"])
    for when in (1, 2, 3, 4, 5, 9):
        d = tmp_path / f"eio-{when}"
        shutil.copytree(ref, d)
        cmd = [STRACE, "-f", "-qq", "-o", "/dev/null", "-P", str(d / DB_NAME), "-e", "trace=pread64",
               "-e", f"inject=pread64:error=EIO:when={when}", *console_cmd(d)]
        p = subprocess.run(cmd, input=b"state\nhistory\n", capture_output=True, cwd=ROOT, timeout=60,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 0, (when, p.stderr.decode()[-300:])
        got = [json.loads(line) for line in p.stdout.decode().splitlines()]
        assert got == want, (when, got[0].get("recovered"))
        assert not list(d.glob("*.damaged-*")), when


# -- F6: the directory deleted or replaced under a running device -------------------------------
def test_a_replaced_state_directory_refuses_every_change_and_a_second_process_cannot_use_the_old_one(tmp_path):
    d = tmp_path / "state"
    c = _open(d)
    assert c.request(SETUP)["ok"]
    shutil.move(str(d), str(tmp_path / "moved"))
    d.mkdir()                                                    # a new, empty directory in its place
    r = c.request("draw")
    assert not r["ok"] and r["error"] == "storage_error"
    assert c.request("state")["ok"]                              # reading goes on
    c.close()


@pytest.mark.parametrize("deleted", ["the directory", "the database"])
def test_saved_games_deleted_under_a_running_device_are_written_back_and_nothing_is_lost(tmp_path, deleted):
    """F6 said «The state directory … was removed …; nothing was saved. Restart Legatus.», and a
    restart found an empty card: every game and History, whose only copy was the file still open,
    were gone (found deleting the directory mid-game). The open database is written back in its
    place and the change is saved; the start after has everything, and the player is told."""
    d = tmp_path / "state"
    c = _open(d)
    try:
        for line in ("new dice seed=1", "roll 2d6", "end", SETUP, "draw"):
            assert c.request(line)["ok"], line
        games = c.request("history")["games"]
        if deleted == "the directory":
            shutil.rmtree(d)
        else:
            (d / DB_NAME).unlink()
        saved = c.request("draw")
        assert saved["ok"], saved
        said = c.request("state")
        assert "were written back" in said["recovered"], said
        assert c.request("history")["games"] == games
        assert stat.S_IMODE((d / DB_NAME).stat().st_mode) == 0o600
    finally:
        c.close()
    c = _open(d)
    try:
        assert c.request("state")["state"] == saved["state"] and c.request("history")["games"] == games
    finally:
        c.close()


@pytest.mark.parametrize("replaced", [SETUP, "new glory players=Ann,Bob seed=3"])
def test_saved_games_written_back_by_a_new_game_are_said_not_only_logged(tmp_path, replaced):
    """Saved games deleted from the card and written back by a ``new`` (the change that found them
    gone): the note was cleared as the new session began — said nowhere but the log, the player
    never knew the card had lost them. ``state`` says it after that ``new`` (the card's news, not
    the replaced session's), and the next ``new`` says it no more."""
    d = tmp_path / "state"
    c = _open(d)
    try:
        for line in ("new dice seed=1", "roll 2d6", "end", replaced, "draw" if replaced == SETUP else "event"):
            assert c.request(line)["ok"], line
        games = c.request("history")["games"]
        shutil.rmtree(d)                    # (a game's «abandoned» record is the new's first change)
        started = c.request("new dice seed=2")
        assert started["ok"], started
        said = c.request("state")
        assert "were written back" in said.get("recovered", ""), said
        assert c.request("history")["games"][-len(games):] == games
        assert c.request("new dice seed=3")["ok"]
        assert "recovered" not in c.request("state")
    finally:
        c.close()


def test_deleted_saved_games_that_cannot_be_written_back_yet_are_not_lost_by_the_advice(tmp_path, monkeypatch):
    """The card full as well: the refusal said «Restart Legatus», and a restart lost every game
    (its only copy the open file). It says to keep Legatus on; the next change once the card
    takes writes writes the games back."""
    import errno
    from firmware.store import connection
    d = tmp_path / "state"
    c = _open(d)
    try:
        for line in ("new dice seed=1", "roll 2d6", "end", SETUP):
            assert c.request(line)["ok"], line
        games = c.request("history")["games"]
        shutil.rmtree(d)
        real = connection.make_dirs

        def full(path):
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr(connection, "make_dirs", full)
        refused = c.request("draw")
        assert refused["error"] == "storage_error" and refused["message"] == (
            "The saved games were deleted from the card while Legatus ran and cannot be written back (the storage "
            "is full): nothing was changed. Keep Legatus on and check the card; the next change tries again.")
        monkeypatch.setattr(connection, "make_dirs", real)
        saved = c.request("draw")
        assert saved["ok"], saved
    finally:
        c.close()
    c = _open(d)
    try:
        assert c.request("state")["state"] == saved["state"] and c.request("history")["games"] == games
    finally:
        c.close()


def test_a_power_cut_while_deleted_saved_games_are_written_back_loses_nothing(state_dir):
    """The copy is made beside the database's place, then renamed into it: a power cut between
    the two left only the copy, and the start made a new, empty database beside it."""
    c = _open(state_dir)
    for line in ("new dice seed=1", "roll 2d6", "end", SETUP, "draw"):
        assert c.request(line)["ok"], line
    state, games = c.request("state")["state"], c.request("history")["games"]
    c.close()
    (state_dir / DB_NAME).rename(state_dir / (DB_NAME + ".back"))
    c = _open(state_dir)
    try:
        said = c.request("state")
        assert said["state"] == state and c.request("history")["games"] == games
        assert "were written back" in said["recovered"]
        assert not (state_dir / (DB_NAME + ".back")).exists()
    finally:
        c.close()


def test_a_second_process_on_the_same_state_dir_is_refused(state_dir):
    c = _open(state_dir)
    with pytest.raises(StateDirError):
        Store(state_dir)
    c.close()


# -- F4: new + archive is one transaction --------------------------------------------------------
def test_new_archives_the_old_session_in_the_same_transaction(state_dir):
    c = _open(state_dir)
    c.request(SETUP)
    c.request("draw 2")
    c.request("new dice seed=3")
    archived = c.store.archives()
    assert archived[0]["header"]["line"] == SETUP and archived[0]["lines"] == ["draw 2"]
    db = c.store.db
    assert db.execute("SELECT COUNT(*) FROM sessions WHERE current=1").fetchone()[0] == 1
    c.close()


# -- F7: bounded memory --------------------------------------------------------------------------
@pytest.mark.slow
def test_a_long_session_keeps_few_states_in_memory_and_undoes_across_checkpoints(state_dir):
    c = _open(state_dir)
    c.request("new dice seed=9")
    rolls = [c.request("roll 3d6")["dice"] for _ in range(5 * CHECKPOINT_EVERY + 7)]
    c.close()
    c = _open(state_dir)
    session = c.session
    assert len(session._checkpoints) <= 5
    for _ in range(2 * CHECKPOINT_EVERY + 9):
        assert c.request("undo")["ok"]
    assert c.request("roll 3d6")["dice"] == rolls[len(rolls) - 2 * CHECKPOINT_EVERY - 9]
    c.close()


# -- F8 ------------------------------------------------------------------------------------------
def test_a_new_state_directory_and_its_parent_are_fsynced(tmp_path, monkeypatch):
    synced: list[str] = []
    real = os.fsync

    def spy(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real(fd)
    monkeypatch.setattr(os, "fsync", spy)
    Store(tmp_path / "new" / "state").close()
    assert str(tmp_path / "new") in synced



def test_the_database_holding_a_running_games_secret_seed_is_readable_by_its_owner_only(tmp_path, caplog):
    """docs/fairness.md §9: the card holds each running game's secret seed; another local user
    must not read it mid-game. A state directory Legatus creates is 0700 (XDG), the database 0600
    (its rollback journal takes the database's mode), whatever the umask; an older database left
    readable by others is made private at the next start, and the log says so — but not at the
    very first start, whose database nobody had left readable (a new user read it as a fault)."""
    import logging
    import stat
    old = os.umask(0o022)
    caplog.set_level(logging.INFO, logger="firmware.storage")
    said = "was readable by other users"
    try:
        root = tmp_path / "new" / "state"
        store = Store(root)
        assert said not in caplog.text
        console = Console(store, store.resume())
        assert console.request("new bag items=a*3,b*2")["ok"] and console.request("draw")["ok"]
        console.close()
        assert stat.S_IMODE(root.stat().st_mode) == 0o700
        assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
        assert stat.S_IMODE((root / DB_NAME).stat().st_mode) == 0o600
        (root / DB_NAME).chmod(0o644)                                  # as an older Legatus left it
        Store(root).close()
        assert stat.S_IMODE((root / DB_NAME).stat().st_mode) == 0o600
        assert said in caplog.text
    finally:
        os.umask(old)


def test_what_legatus_keeps_aside_holding_a_secret_seed_is_readable_by_its_owner_only(tmp_path):
    """The journal files of an older Legatus (kept in ``imported-N/`` after the import) and a
    damaged database kept aside (``legatus.db.damaged-N``) hold the secret seed of the game that
    goes on: in a state directory an older Legatus made 0755, with files it left 0644, any local
    user could read it mid-game (docs/fairness.md §9). Before: imported-1 0755 with its journal
    0644; legatus.db.damaged-1 0644. What an earlier version left so (the directory, the copy) is
    made private at the next start."""
    import stat

    def private(path: Path) -> bool:
        return not path.stat().st_mode & 0o077
    old = os.umask(0o022)
    try:
        root = tmp_path / "legatus"
        root.mkdir(mode=0o755)
        header = {"v": 1, "game": "bag", "line": "new bag items=a*3,b*2", "seed": 2**63 + 5, "sid": "old",
                  "committed": True}
        (root / "session.journal").write_bytes(b"".join(journal.encode(r) for r in [header, {"line": "draw"}]))
        console = _open(root)
        assert console.request("state")["state"]["commitment"] is not None      # it goes on, secret
        console.close()
        kept = root / "imported-1"
        assert stat.S_IMODE(kept.stat().st_mode) == 0o700
        assert private(kept / "session.journal")
        db = root / DB_NAME                                            # an older Legatus's 0644 database, damaged
        db.chmod(0o644)
        data = bytearray(db.read_bytes())
        data[data.index(b"CREATE TABLE damaged") + 14] = 0xFF
        db.write_bytes(bytes(data))
        console = _open(root)
        assert "damaged-1" in console.request("state")["recovered"]
        console.close()
        assert private(root / f"{DB_NAME}.damaged-1") and private(db)
        kept.chmod(0o755)                                              # as an earlier version left them
        (root / f"{DB_NAME}.damaged-1").chmod(0o644)
        _open(root).close()
        assert stat.S_IMODE(kept.stat().st_mode) == 0o700 and private(root / f"{DB_NAME}.damaged-1")
    finally:
        os.umask(old)


# -- F9, F10 -------------------------------------------------------------------------------------
def test_deeply_nested_json_is_bad_json_not_an_internal_error(console):
    console.request("new caesar-solo side=caesar difficulty=normal seed=1")
    for payload in ("[" * 100000, "{\"a\":" * 2000 + "1" + "}" * 2000):
        r = console.request("position " + payload)
        assert r["error"] == "bad_json", r


def test_a_serial_hangup_ends_the_console_cleanly(tmp_path):
    import select
    import tty
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    name = os.ttyname(slave)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(tmp_path / "s"),
                          "--serial", name], stderr=subprocess.PIPE, cwd=ROOT, env=env)
    got = b""
    for _ in range(100):                      # ask until the console answers (it opens the port first)
        os.write(master, b"version\n")
        if select.select([master], [], [], 0.3)[0]:
            got += os.read(master, 4096)
        if b'"protocol"' in got:
            break
    assert b'"protocol"' in got
    os.close(slave)
    os.close(master)                          # the cable is pulled
    _, err = p.communicate(timeout=30)
    assert b"Traceback" not in err and p.returncode == 0, err.decode()[-800:]


# -- migration -----------------------------------------------------------------------------------
def test_an_old_journal_directory_is_imported_verified_and_kept_aside(state_dir):
    header = {"v": 1, "game": "bag", "line": SETUP, "seed": 77, "sid": "old"}
    records = [header, {"line": "draw 2"}, {"line": "roll 3d6"}, {"undo": 1}, {"line": "card"}]
    (state_dir / "session.journal").write_bytes(b"".join(journal.encode(r) for r in records))
    (state_dir / "archive").mkdir()
    old = [{"v": 1, "game": "dice", "line": "new dice seed=4", "seed": 4, "sid": "older"}, {"line": "roll 2d6"}]
    (state_dir / "archive" / "0001.journal").write_bytes(b"".join(journal.encode(r) for r in old))
    (state_dir / "settings.json").write_text(json.dumps({"contrast": "5", "language": "uk"}))
    state, recovery = _state(state_dir)
    assert state == _expected(["draw 2", "roll 3d6", "undo", "card"], version=1)[-1]   # its v1 draws
    assert recovery and "imported" in recovery
    assert not (state_dir / "session.journal").exists()
    kept = state_dir / "imported-1"
    assert (kept / "session.journal").exists() and (kept / "archive-0001.journal").exists()
    c = _open(state_dir)
    assert c.request("settings")["settings"]["contrast"] == "5"
    assert c.store.archives()[0]["lines"] == ["roll 2d6"]
    c.close()
    from firmware import i18n
    i18n.set_language("en")
