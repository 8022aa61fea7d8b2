"""The start when the state directory cannot be used at all (firmware/storage_wait.py): the device
stays up, says on the panel what is wrong and what to do, and starts by itself once it can."""
from __future__ import annotations


import os
import queue
import signal
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware import storage_wait
from firmware.i18n import set_language
from firmware.store import StateDirError, Store
from tests.test_storage_damage import read_only_mount  # noqa: F401 - a fixture


class Panel:
    """A panel that can come and go (as firmware.hardware.PanelOutput), recording its frames."""

    def __init__(self, on_show: Any = None) -> None:
        self.device = object()
        self.frames: list[Image.Image] = []
        self.left: Image.Image | None = None
        self.on_show = on_show

    def show(self, img: Image.Image) -> None:
        self.frames.append(img)
        if self.on_show is not None:
            self.on_show(self)

    def next_deadline(self) -> float | None:
        return None

    def poll(self, now: float) -> None:
        pass

    def settle(self) -> None:
        pass

    def shutdown(self, img: Image.Image) -> None:
        self.left = img


def _args(state_dir: Path) -> Any:
    return types.SimpleNamespace(script=None, sim=False, state_dir=str(state_dir), config=None, serial=None)


@pytest.fixture
def on_a_pi(monkeypatch: pytest.MonkeyPatch) -> Iterator[Panel]:
    panel = Panel()
    set_language("en")                 # (the start speaks English until it reads the card's setting)
    monkeypatch.setattr("hw.display.probe_hardware", lambda: True)
    monkeypatch.setattr(storage_wait, "_panel", lambda args, splash, events: (panel, {"driver": "ssd1306"}))
    monkeypatch.setattr(storage_wait, "RETRY", 0.05)
    monkeypatch.setattr(storage_wait, "PAGE", 0.02)
    yield panel
    set_language("en")


def _said(wait: storage_wait.StorageWait) -> str:
    """The screen's rows read as one text (a row that ends at a word's own hyphen, «read-», runs on)."""
    said = ""
    for row in wait.screen().rows:
        said += row if said.endswith("-") or not said else " " + row
    return said


def _run_while_another_holds(state: Path) -> int:
    """``legatus`` run (its exit status) while another process holds ``state``'s lock; the signal
    handlers it sets are put back."""
    import fcntl
    from firmware.device import run_device
    with open(state / "lock", "a+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
        try:
            return run_device(_args(state))
        finally:
            signal.signal(signal.SIGTERM, before[0])
            signal.signal(signal.SIGHUP, before[1])


def test_a_state_dir_that_cannot_be_made_keeps_the_device_up_showing_why_until_stopped(
        tmp_path: Path, on_a_pi: Panel, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (start): a file where the state directory should be (as a full or read-only card on the
    very first start, or permission denied) ended the device with exit status 2 and a dark panel
    (under systemd: a crash loop, then nothing). It stays up, says why on the panel, pages through
    the explanation, and a SIGTERM stops it with status 0 leaving the reason on the panel."""
    from firmware import logs
    from firmware.device import run_device
    blocked = tmp_path / "state"
    blocked.write_text("not a directory")
    seen: list[bytes] = []

    def stop_after_pages(panel: Panel) -> None:
        seen.append(panel.frames[-1].tobytes())
        if len(set(seen)) >= 2:                  # the explanation is paged: a second page came
            os.kill(os.getpid(), signal.SIGTERM)
    on_a_pi.on_show = stop_after_pages
    monkeypatch.setattr(logs, "stopped", lambda: None)
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    try:
        assert run_device(_args(blocked)) == 0
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGHUP, before[1])
    assert len(set(seen)) >= 2 and on_a_pi.left is not None and on_a_pi.left.getbbox() is not None
    wait = storage_wait.StorageWait(blocked, StateDirError("x"))
    try:
        Store(blocked)
    except StateDirError as e:
        wait.error = e
    said = _said(wait)
    assert "a file stands where a folder should be" in said and "keeps trying and starts by itself" in said


def test_the_device_starts_by_itself_once_the_state_dir_can_be_used(tmp_path: Path, on_a_pi: Panel) -> None:
    """The card fixed while the problem is shown (here: the file in the way removed): the next try
    opens the store, and the panel already open is handed to the device as the splash is."""
    blocked = tmp_path / "state"
    blocked.write_text("")
    on_a_pi.on_show = lambda panel: blocked.unlink() if blocked.is_file() else None
    try:
        Store(blocked)
    except StateDirError as e:
        error = e
    waited = storage_wait.wait_for_store(_args(blocked), blocked, error, None, queue.Queue())
    assert waited.store is not None and waited.store.root == blocked and waited.status == 0
    assert waited.splash == (on_a_pi.device, {"driver": "ssd1306"})
    waited.store.close()


def test_the_problem_is_said_in_the_language_stored_on_the_card(tmp_path: Path, on_a_pi: Panel) -> None:
    """The database can be read but the directory not used (here its lock is a directory, not a
    file): the panel speaks the player's language (Russian, from the settings), not English."""
    from firmware.console import Console
    state = tmp_path / "state"
    store = Store(state)
    Console(store, None).handle_text("settings language=ru")
    store.close()
    set_language("en")                  # (the start speaks English until it reads the card's setting)
    (state / "lock").unlink()
    (state / "lock").mkdir()
    try:
        Store(state)
    except StateDirError as e:
        error = e
    wait = storage_wait.StorageWait(state, error)
    assert wait.screen().title == "Ничего не сохраняется"
    assert "Legatus" in _said(wait) and "cannot" not in _said(wait)
    said = _said(wait)                                  # (was "Is a directory": the system's words in English)
    assert "на месте файла лежит папка" in said and "Is a" not in said and "directory" not in said, said


def test_a_read_only_card_with_no_game_on_it_says_so_and_starts_once_writable(read_only_mount: Any) -> None:  # noqa: F811
    """A real read-only filesystem (as the kernel remounts a failing card) holding an empty state
    directory: the problem said is "Read-only file system" (it was "No such file or directory", of
    a directory that is there: its lock file could not be made), and once the card is writable
    again the next try opens the store."""
    mnt, remount = read_only_mount
    state = mnt / "state"
    state.mkdir()
    remount("ro")
    try:
        Store(state)
    except StateDirError as e:
        error = e
    wait = storage_wait.StorageWait(state, error, clock=lambda: 0.0)
    assert "the storage is read-only" in _said(wait) and "no such file" not in _said(wait)
    assert wait.attempt() is None
    remount("rw")
    store = wait.attempt()
    assert store is not None and (state / "lock").exists()
    store.close()


def test_a_state_dir_another_legatus_holds_ends_at_once_and_leaves_the_panel_alone(
        tmp_path: Path, on_a_pi: Panel) -> None:
    """``legatus`` started by hand while the service runs: the other process owns the card and the
    panel, so this one must not draw on the panel (two programs on one I2C panel) nor wait: it ends
    with status 2 and the reason, as before."""
    state = tmp_path / "state"
    Store(state).close()
    assert _run_while_another_holds(state) == 2
    assert on_a_pi.frames == []


@pytest.mark.parametrize("lang,said", [
    ("en", "legatus: Another Legatus process is using {}; stop it first (systemctl stop legatus) or pick another "
           "--state-dir.\n"),
    ("uk", "legatus: Каталог {} використовує інший процес Legatus; спершу зупиніть його (systemctl stop legatus) або "
           "вкажіть інший --state-dir.\n")])
def test_a_state_dir_another_legatus_holds_is_refused_in_one_line_in_the_devices_language(
        tmp_path: Path, on_a_pi: Panel, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
        lang: str, said: str) -> None:
    """``legatus`` (or ``legatus --script FILE``) started by hand while the service or a console
    holds the state directory ended with "legatus: ERROR firmware.storage_wait: Another Legatus
    process is using …", a log line, English on a Ukrainian device. It is the refusal for whoever
    started it: one line in the device's words (read from the card, read-only), exit status 2."""
    import logging
    from firmware.console import Console
    state = tmp_path / "state"
    console = Console(Store(state), None)
    assert console.request(f"settings language={lang}")["ok"]
    console.close()
    set_language("en")
    caplog.set_level(logging.INFO)
    assert _run_while_another_holds(state) == 2
    assert capsys.readouterr().err == said.format(state)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.records


def test_under_the_service_the_refusal_reaches_the_journal_as_an_error(
        tmp_path: Path, on_a_pi: Panel, monkeypatch: pytest.MonkeyPatch) -> None:
    """The service refused because `legatus` started by hand holds the card (it exits 2 and systemd
    restarts it): the line went to the journal at "info", unseen by `journalctl -u legatus -p err`.
    On the journal's stream (JOURNAL_STREAM: its device and inode) it is an error (<3>)."""
    import os
    import sys
    state = tmp_path / "state"
    Store(state).close()
    with (tmp_path / "stderr").open("w") as err:
        st = os.fstat(err.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        monkeypatch.setattr(sys, "stderr", err)
        assert _run_while_another_holds(state) == 2
    assert (tmp_path / "stderr").read_text().startswith("<3>legatus: Another Legatus process is using ")


def test_another_legatus_taking_the_state_dir_while_this_one_waits_ends_the_wait(
        tmp_path: Path, on_a_pi: Panel, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card refused this one at first; meanwhile another Legatus took the directory (and the
    panel): this one stops waiting, status 2, and leaves the panel alone."""
    from firmware.store import StateDirBusy

    def taken(root: Path) -> Store:
        raise StateDirBusy("Another Legatus process is using it")
    monkeypatch.setattr(storage_wait, "Store", taken)
    released: list[object] = []
    monkeypatch.setattr("hw.display.release", released.append)
    waited = storage_wait.wait_for_store(_args(tmp_path), tmp_path, StateDirError("Permission denied"), None,
                                         queue.Queue())
    assert waited.store is None and waited.status == 2
    assert on_a_pi.left is None and released == [on_a_pi.device]


def test_a_card_full_at_the_very_first_start_is_said_plainly(read_only_mount: Any,  # noqa: F811
                                                            caplog: pytest.LogCaptureFixture) -> None:
    """A real full filesystem (a tmpfs filled up) at the very first start: the start is refused
    with "database or disk is full", and the log does not claim that the rollback of the schema
    failed (SQLite had rolled it back itself: "cannot rollback - no transaction is active" was
    logged as a failure); once there is room, the store opens."""
    import logging
    mnt, _ = read_only_mount
    fill = mnt / "fill"
    with open(fill, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass
    os.truncate(fill, max(0, fill.stat().st_size - 16384))     # room for part of the schema only
    with caplog.at_level(logging.WARNING), pytest.raises(StateDirError, match="full"):
        Store(mnt / "state")
    assert not [r for r in caplog.records if "ROLLBACK" in r.getMessage()]
    fill.unlink()
    Store(mnt / "state").close()


def test_console_lines_over_serial_are_answered_while_the_device_waits(tmp_path: Path, on_a_pi: Panel) -> None:
    """PROTOCOL.md: every request line gets one response. While the state directory cannot be
    used, a line over the serial link is answered storage_error with the reason (it was not read
    at all: the port was opened only once the store was), and once the store opens the same link
    is handed to the device (not a second reader on the port). The link: a socket:// port."""
    import json
    import socket
    import threading

    from firmware.serial_reader import serial_reader
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(10)
    blocked = tmp_path / "state"
    blocked.write_text("")
    try:
        Store(blocked)
    except StateDirError as e:
        error = e
    args = _args(blocked)
    args.serial, args.baud = f"socket://127.0.0.1:{server.getsockname()[1]}", 115200
    events: queue.Queue[tuple[Any, ...]] = queue.Queue()
    out: list[storage_wait.Waited] = []
    waiting = threading.Thread(target=lambda: out.append(storage_wait.wait_for_store(args, blocked, error, None, events,
                                                                                   serial_reader)))
    waiting.start()
    try:
        peer, _ = server.accept()
        peer.settimeout(0.3)
        got = b""
        for _ in range(30):            # (socket:// drops what came before its open is over: sent again)
            peer.sendall(b"state\n")
            try:
                got += peer.recv(4096)
            except TimeoutError:
                continue
            if b"\n" in got:
                break
        reply = json.loads(got.split(b"\n")[0])
        assert reply["ok"] is False and reply["error"] == "storage_error" and "a file stands where a folder should be" in reply["message"]
        blocked.unlink()                                     # the card fixed: the wait ends
        waiting.join(10)
        assert out and out[0].store is not None and out[0].link is not None
        out[0].store.close()
        peer.close()
    finally:
        events.put(("quit",))
        waiting.join(10)
        server.close()
