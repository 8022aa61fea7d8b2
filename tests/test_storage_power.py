"""Storage faults found by an outside sweep (issue 10): the durability of the commit point on power
loss, and damage to an index of the database (a query would silently skip acknowledged actions)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware.console import Console
from firmware.store import DB_NAME, Store
from tests.conftest import ROOT, console_cmd, run_console

STRACE = shutil.which("strace")


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_the_commit_point_is_durable_before_the_reply(state_dir: Path, tmp_path: Path) -> None:
    """In rollback-journal mode the commit point is the journal's unlink. Unless the directory is
    fsync'd after it, a power cut just after the reply can bring the journal back, and the next
    open rolls the acknowledged action back (synchronous=FULL does not sync it; EXTRA does)."""
    run_console(state_dir, ["new dice seed=1"])
    trace = tmp_path / "trace"
    cmd = [STRACE, "-f", "-qq", "-o", str(trace), "-e", "trace=openat,unlink,unlinkat,fsync,fdatasync,write",
           *console_cmd(state_dir)]
    p = subprocess.run(cmd, input=b"roll 2d6\n", capture_output=True, cwd=ROOT, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert b'"ok":true' in p.stdout
    calls = [re.sub(r"^\d+\s+", "", line) for line in trace.read_text().splitlines()]
    reply = next(i for i, c in enumerate(calls) if c.startswith("write(1,") and '\\"ok\\"' in c)
    unlinks = [i for i, c in enumerate(calls[:reply]) if "unlink" in c and f"{DB_NAME}-journal" in c]
    assert unlinks, "no commit (journal unlink) before the reply"
    after = calls[unlinks[-1]:reply]
    dir_fds = {m.group(1) for c in after
               if (m := re.match(rf'openat\(AT_FDCWD, "{re.escape(str(state_dir))}/?", [^)]*\) = (\d+)', c))}
    synced = [c for c in after if re.match(r"f(data)?sync\((\d+)\)", c)
              and re.match(r"f(data)?sync\((\d+)\)", c).group(2) in dir_fds]  # type: ignore[union-attr]
    assert synced, "the state directory is not fsync'd between the journal's unlink and the reply:\n" + "\n".join(after)


def _session(state_dir: Path, rolls: int) -> dict:
    c = Console(Store(state_dir), None)
    try:
        assert c.request("new dice seed=9")["ok"]
        for _ in range(rolls):
            assert c.request("roll 2d6")["ok"]
        return c.request("state")["state"]
    finally:
        c.close()


def test_a_damaged_index_never_hides_acknowledged_actions(state_dir: Path) -> None:
    """Every bit of the index entry of action 50 flipped in turn: SQLite's quick check passes, but a
    query through the index skipped actions 50-100 (silently, in 13 of 48 cases). Each case must
    either give back every acknowledged action or be reported."""
    want = _session(state_dir, 100)
    pristine = (state_dir / DB_NAME).read_bytes()
    # the index record (session=1, seq=50, rowid=50): header size 4, types 9 (the constant 1), 1, 1
    entry = bytes([4, 9, 1, 1, 50, 50])
    assert pristine.count(entry) == 1, "the layout of the actions index changed; update this test"
    at = pristine.index(entry)
    silent, lost = [], []
    for off in range(len(entry)):
        for bit in range(8):
            data = bytearray(pristine)
            data[at + off] ^= 1 << bit
            (state_dir / DB_NAME).write_bytes(bytes(data))
            for extra in state_dir.glob(f"{DB_NAME}.damaged-*"):
                extra.unlink()
            store = Store(state_dir)
            c = Console(store, store.resume())
            try:
                r = c.request("state")
                state = r["state"] if r["ok"] else None
                if state != want and store.recovery is None:
                    silent.append((off, bit))
                if off >= 4 and state != want:       # a changed key: the table is intact, so all of it
                    lost.append((off, bit))
                assert c.request("roll 1d6")["ok"]   # and the device goes on
            finally:
                c.close()
    assert not silent, f"acknowledged actions silently missing after flips {silent}"
    assert not lost, f"an index rebuilt from intact rows must lose nothing: {lost}"


@pytest.mark.slow
@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_a_failing_directory_fsync_after_the_commit_point_is_not_answered_nothing_changed(tmp_path: Path) -> None:
    """The directory fsync after the journal's unlink can fail (EIO) when the transaction is
    already in the file: the answer must agree with what a restart shows (an error saying nothing
    changed, then the action back after a restart, was F2 again), and the device must go on."""
    lines = ["roll 2d6", "roll 3d6", "undo", "roll 1d6"]
    for when in range(1, 7):
        d = tmp_path / f"dir-eio-{when}"
        d.mkdir()
        run_console(d, ["new dice seed=1"])
        cmd = [STRACE, "-f", "-qq", "-o", "/dev/null", "-P", str(d), "-e", "trace=fdatasync,fsync",
               "-e", f"inject=fdatasync,fsync:error=EIO:when={when}", *console_cmd(d)]
        p = subprocess.run(cmd, input="".join(x + "\n" for x in [*lines, "state"]).encode(), capture_output=True,
                           cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
        replies = [json.loads(x) for x in p.stdout.decode().splitlines()]
        assert len(replies) == len(lines) + 1, p.stderr.decode()[-500:]
        acked = [x for x, r in zip(lines, replies) if r["ok"]]
        for r in replies[:-1]:
            assert r["ok"] or (r["error"] == "storage_error" and "nothing was changed" in r["message"]), r
        after = run_console(d, ["state"])[0]["state"]
        assert after == replies[-1]["state"], (when, acked)       # memory and disk agree
        ref = tmp_path / f"ref-{when}"
        ref.mkdir()
        assert run_console(ref, ["new dice seed=1", *acked, "state"])[-1]["state"] == after, (when, acked)


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_power_cut_at_any_point_of_the_first_start_loses_no_acknowledged_action(tmp_path: Path) -> None:
    """Issue 20 §4: on a fresh card the state directory and its parents do not exist. Every
    directory created must be durable (fsync of the directory and of its parent) before the first
    reply; before, crash images rebuilt from the write trace lost the acknowledged 'new'."""
    from scripts.storage_faults import TRACED, crash_images, write_image
    base = tmp_path / "card"
    base.mkdir()
    root = base / "home" / "legatus" / "state"
    script = ["new dice seed=1", "roll 2d6", "settings contrast=2", "roll 3d6", "undo", "roll 1d20"]
    trace = tmp_path / "trace"
    p = subprocess.run([STRACE, "-f", "-qq", "-s", "1000000", "-xx", "-o", str(trace), "-e", TRACED,
                        *console_cmd(root)], input="".join(x + "\n" for x in script).encode(), capture_output=True,
                       cwd=ROOT, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    replies = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert len(replies) == len(script) and all(r["ok"] for r in replies)

    def view(d: Path) -> list:
        store = Store(d)
        c = Console(store, store.resume())
        try:
            return [json.loads(json.dumps({k: v for k, v in c.request(x).items() if k != "recovered"}))
                    for x in ("state", "settings")]
        finally:
            c.close()
    expected: dict[int, list] = {}
    for n in range(len(script) + 1):
        ref = tmp_path / f"ref{n}"
        c = Console(Store(ref), None)
        for line in script[:n]:
            assert c.request(line)["ok"]
        c.close()
        expected[n] = view(ref)
    images = crash_images(str(trace), str(base))
    assert len(images) > 30
    seen, lost = set(), []
    for k, (sent, image, why) in enumerate(images):
        key = (sent, tuple(sorted((n, hash(b)) for n, b in image.items())))
        if key in seen:
            continue
        seen.add(key)
        d = tmp_path / f"image{k}"
        write_image(str(d), image)
        got = view(d / "home" / "legatus" / "state")
        if got not in (expected[sent], expected[min(sent + 1, len(script))]):
            lost.append((k, sent, why))
        shutil.rmtree(d)
    assert any(sent == 0 for sent, _, _ in images) and any(sent == len(script) for sent, _, _ in images)
    assert not lost, f"{len(lost)} of {len(seen)} crash images lost an acknowledged action: {lost[:3]}"


def _traced_console(root: Path, lines: str, tmp_path: Path) -> tuple[bytes, list]:
    """``lines`` sent to a console on ``root`` under strace: its output and the crash images
    (scripts/storage_faults.py) after every traced syscall, from the directory as it was (the output
    ends with the last of its standard error, for a failing assertion to show)."""
    from scripts.storage_faults import TRACED, crash_images
    initial: dict[str, bytes | None] = {n: (root / n).read_bytes() for n in os.listdir(root)}
    trace = tmp_path / "trace"
    p = subprocess.run([STRACE, "-f", "-qq", "-s", "1000000", "-xx", "-o", str(trace), "-e", TRACED,
                        *console_cmd(root)], input=lines.encode(), capture_output=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    return p.stdout + p.stderr[-2000:], crash_images(str(trace), str(root), initial)


def _distinct_images(images: list, tmp_path: Path):
    """Each distinct crash image written out: (its index, lines sent, why, its directory), the
    directory removed once the caller goes on."""
    from scripts.storage_faults import write_image
    seen = set()
    for k, (sent, image, why) in enumerate(images):
        key = tuple(sorted((n, hash(b)) for n, b in image.items()))
        if key in seen:
            continue
        seen.add(key)
        d = tmp_path / f"image{k}"
        write_image(str(d), image)
        yield k, sent, why, d
        shutil.rmtree(d, ignore_errors=True)


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_a_power_cut_never_keeps_a_new_game_without_its_players_remembered(tmp_path: Path) -> None:
    """The players a new game names were remembered in a transaction of their own after the one
    that started the game: a power cut between the two kept the game (its players in it) and lost
    the players' list update (the new-game forms offered nobody). Crash images rebuilt after every
    traced syscall of ``new glory players=…``: whenever the game is there, so are its players."""
    root = tmp_path / "state"
    run_console(root, ["new dice seed=1", "roll 2d6"])
    out, images = _traced_console(root, "new glory players=Анна,Богдан seed=2\n", tmp_path)
    assert b'"ok":true' in out
    seen, games, torn = 0, 0, []
    for k, sent, why, d in _distinct_images(images, tmp_path):
        seen += 1
        store = Store(d)
        c = Console(store, store.resume())
        try:
            game = c.request("state").get("state", {}).get("game")
            people = c.request("players").get("players", [])
        finally:
            c.close()
        if game == "glory":
            games += 1
            if not {"Анна", "Богдан"} <= set(people):
                torn.append((k, sent, why, people))
    assert games, "no crash image holds the new game"
    assert not torn, f"{len(torn)} of {seen} crash images keep the game without its players: {torn[:3]}"


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")
def test_a_power_cut_at_any_point_of_a_salvage_loses_nothing_it_would_have_carried(tmp_path: Path) -> None:
    """QA (storage faults): a start salvaging a damaged database moved it aside first and then made
    the new one: crash images rebuilt after every traced syscall of that start (renames followed:
    a file keeps its fsync'd data under its new name) held no database, or an empty one, in 8 of
    10 distinct images — the next start began afresh, every game and setting gone. Now each starts
    with the session and the settings the salvage carries (salvaged again, or the swap finished)."""
    root = tmp_path / "state"
    run_console(root, ["settings contrast=4", "new dice seed=3", "roll 2d6", "end", "new dice seed=1", "roll 2d6"])
    want = run_console(root, ["state", "settings"])
    db = root / "legatus.db"
    db.write_bytes(b"not a database!!" + db.read_bytes()[16:])
    out, images = _traced_console(root, "state\n", tmp_path)
    assert b"carried into a new one" in out
    assert any("rename" in why for _, _, why in images)
    seen, lost = 0, []
    for k, _sent, why, d in _distinct_images(images, tmp_path):
        seen += 1
        got = run_console(d, ["state", "settings"])
        if [got[0].get("state"), got[1].get("settings")] != [want[0]["state"], want[1]["settings"]]:
            lost.append((k, why))
    assert not lost, f"{len(lost)} of {seen} crash images lost the salvaged records: {lost[:3]}"
