"""firmware.logs: the persistent log in the state directory and the previous run's failure."""
from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware import logs

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def fresh() -> Iterator[None]:
    logs.reset_for_tests()
    level = logging.getLogger().level
    yield
    logs.reset_for_tests()
    logging.getLogger().setLevel(level)


def test_records_before_the_file_are_kept_and_written_first(tmp_path: Path, fresh: None) -> None:
    err = io.StringIO()
    logs.setup(stream=err)
    logging.getLogger("firmware.x").warning("early %s", "bird")
    assert "early bird" in err.getvalue()                     # standard error at once
    path = logs.attach_file(tmp_path)
    assert path == tmp_path / logs.LOG_FILE
    logging.getLogger("firmware.x").info("later")
    # (this test's lines only: a thread an earlier test left, a serial link's, may log meanwhile)
    lines = [line for line in path.read_text().splitlines() if "firmware.x" in line or logs.START in line]
    assert "early bird" in lines[0] and logs.START in lines[1] and "later" in lines[2]


def test_the_log_says_when_its_times_may_be_wrong_and_when_the_clock_jumped(tmp_path: Path, fresh: None,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (clock): a Pi with no real-time clock starts at its last shutdown's time (or 1970) and
    jumps when NTP sets it: the log's lines went from 1970 to 2026 (or back two hours) with nothing
    to say which times were wrong, and the panel gave the last run's failure at a 1970 time as a
    sure one. The start line says the clock is not set; a jump of more than a minute between two
    lines is said where it happened; a failure of a run whose clock was not set (and not set
    since) is marked ``~`` like an unsure History date."""
    import time

    import hw.clock
    monkeypatch.setattr(hw.clock, "synchronised", lambda: False)
    wall = [86400.0]                                           # 1970-01-02, a Pi with no network
    monkeypatch.setattr(time, "time", lambda: wall[0])
    monkeypatch.setattr(time, "time_ns", lambda: int(wall[0] * 1e9))
    logs.setup(stream=io.StringIO())
    path = logs.attach_file(tmp_path)
    assert path is not None
    named = logging.getLogger("firmware.x")
    named.critical("stopped by an error: OldError: gone")
    wall[0] += 5                                               # five seconds: no jump
    named.info("a second")
    assert "clock" not in path.read_text().splitlines()[-1]
    logs.reset_for_tests()
    failure = logs.previous_failure(tmp_path)                  # (local time: 01.01 or 02.01)
    assert failure is not None and failure.startswith("~1970-01-0") and failure.endswith("OldError: gone")
    logs.setup(stream=io.StringIO())
    logs.attach_file(tmp_path)
    start = path.read_text().splitlines()[-1]
    assert logs.START in start and "clock not set" in start
    wall[0] = 1_795_000_000.0                                  # NTP sets the clock (2026)
    monkeypatch.setattr(hw.clock, "synchronised", lambda: True)
    named.info("after the network came")
    wall[0] -= 7200                                            # and sets it back two hours
    named.critical("stopped by an error: ValueError: bad")
    lines = path.read_text().splitlines()
    assert "clock" in lines[-4] and "+" in lines[-4] and "not set" not in lines[-4]
    assert "after the network came" in lines[-3]
    assert "clock" in lines[-2] and "-7200" in lines[-2] and "ValueError" in lines[-1]
    logs.reset_for_tests()
    failure = logs.previous_failure(tmp_path)
    assert failure is not None and failure.startswith("20") and failure.endswith("ValueError: bad")   # set since


def test_previous_failure_is_the_last_critical_line_of_the_last_run(tmp_path: Path) -> None:
    log = tmp_path / logs.LOG_FILE
    log.write_text(
        f"2024-05-01 10:00:00,001 INFO firmware.logs: {logs.START} 0.1.0\n"
        "2024-05-01 10:00:01,000 CRITICAL legatus: stopped by an error: OldError: gone\n"
        f"2024-05-01 10:05:00,001 INFO firmware.logs: {logs.START} 0.1.0\n"
        "2024-05-01 10:05:01,000 WARNING firmware.hardware: display: ...\n"
        "2024-05-01 10:05:02,000 CRITICAL legatus: stopped by an error: ValueError: bad\n"
        "Traceback (most recent call last):\n  File \"x\", line 1\nValueError: bad\n")
    assert logs.previous_failure(tmp_path) == "2024-05-01 10:05:02 stopped by an error: ValueError: bad"
    with log.open("a") as f:
        f.write(f"2024-05-01 10:06:00,001 INFO firmware.logs: {logs.START} 0.1.0\n"
                f"2024-05-01 10:07:00,001 INFO firmware.logs: {logs.STOP}\n")
    assert logs.previous_failure(tmp_path) is None            # that run ended normally
    with log.open("a") as f:                                  # a power cut: no stop line, no error
        f.write(f"2024-05-01 10:08:00,001 INFO firmware.logs: {logs.START} 0.1.0\n")
    assert logs.previous_failure(tmp_path) is None
    assert logs.previous_failure(tmp_path / "nowhere") is None


def test_legatus_console_logs_as_the_device_its_warnings_said_and_kept_in_the_state_dir(state_dir: Path) -> None:
    """`legatus console` set no logging up: a warning (a database that cannot be read, salvaged at
    the start) came out as a bare English line (no "legatus:", no level), and nothing of it was kept
    on the card. It logs as the device does: its warnings said as the program's lines, the log's
    INFO lines not printed on the terminal, every record in legatus.log in the state directory,
    the run's start and stop lines naming the console."""
    from tests.conftest import ROOT, console_cmd
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(console_cmd(state_dir), input=b"new dice seed=1\n", capture_output=True, check=True,
                   cwd=ROOT, env=env, timeout=60)
    (state_dir / logs.LOG_FILE).unlink(missing_ok=True)
    with (state_dir / "legatus.db").open("r+b") as f:        # a damaged header: salvaged at the start
        f.write(b"garbage!" * 16)
    done = subprocess.run(console_cmd(state_dir), input=b"state\n", capture_output=True, cwd=ROOT, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    err = done.stderr.decode().splitlines()
    warned = [line for line in err if "cannot be read (DatabaseError" in line]
    assert warned and warned[0].startswith("legatus: ERROR firmware.store.opening: the database "), err
    assert all(line.startswith("legatus: ") for line in err), err            # no bare line
    assert not any(logs.START in line or logs.STOP in line for line in err), err   # (the log's INFO lines)
    text = (state_dir / logs.LOG_FILE).read_text()
    assert "ERROR firmware.store.opening: the database" in text and "salvaging its rows" in text, text
    assert f"{logs.START} {logs.CONSOLE} " in text and text.rstrip().endswith(
        f"{logs.STOP.replace('legatus', 'legatus ' + logs.CONSOLE)}"), text


def test_a_console_run_does_not_hide_the_devices_failure_and_its_own_is_reported(
        tmp_path: Path, fresh: None) -> None:
    """The console now writes the device's legatus.log: its run (start ... ended normally) after a
    device run that crashed must not read as the last run having ended well (the panel said nothing
    of the crash at the next start); a console run's own crash is reported like the device's."""
    log = tmp_path / logs.LOG_FILE
    log.write_text(f"2024-05-01 10:00:00,001 INFO firmware.logs: {logs.START} 0.1.0\n"
                   "2024-05-01 10:00:01,000 CRITICAL legatus: stopped by an error: ValueError: bad\n")
    logs.setup(stream=io.StringIO(), printed=logging.WARNING, run=logs.CONSOLE)
    logs.attach_file(tmp_path)
    logs.stopped()
    logs.reset_for_tests()
    assert logs.previous_failure(tmp_path) == "2024-05-01 10:00:01 stopped by an error: ValueError: bad"
    with log.open("a") as f:                  # the device ran and ended well; then a console crashed
        f.write(f"2024-05-01 11:00:00,001 INFO firmware.logs: {logs.START} 0.1.0\n"
                f"2024-05-01 11:01:00,001 INFO firmware.logs: {logs.STOP}\n")
    assert logs.previous_failure(tmp_path) is None
    logs.setup(stream=io.StringIO(), printed=logging.WARNING, run=logs.CONSOLE)
    logs.attach_file(tmp_path)
    logging.getLogger("legatus").critical("stopped by an error: KeyError: 'x'")
    logs.reset_for_tests()
    assert (logs.previous_failure(tmp_path) or "").endswith("stopped by an error: KeyError: 'x'")


def test_the_log_file_failing_is_said_in_the_players_language_on_the_consoles_terminal(
        tmp_path: Path, fresh: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The console's terminal is a player's: the log file on a full card was said there in the
    log's English ("cannot write the log file … (No space left on device)") to a Russian player;
    it is the simulator's notice, in the player's language; the file says when it is written again."""
    from firmware.i18n import set_language
    err = io.StringIO()
    logs.setup(stream=err, printed=logging.WARNING, run=logs.CONSOLE)
    logs.attach_file(tmp_path)
    set_language("ru")                                       # (the console speaks the device's language)
    handler = logs._file
    assert isinstance(handler, logging.FileHandler)
    handler.stream = _FullCard()
    for i in range(3):
        logging.getLogger("firmware.x").warning("kept %d", i)
    printed = err.getvalue() + capsys.readouterr().err
    said = [line for line in printed.splitlines() if "Файл журнала" in line]
    assert len(said) == 1 and said[0].startswith("legatus: ") and "память заполнена" in said[0], printed
    assert "No space" not in printed and "cannot write" not in printed, printed
    assert all(f"kept {i}" in printed for i in range(3))      # the warnings themselves: as the device's
    logging.getLogger("firmware.x").warning("room again")       # (the file opened again takes it)
    handler.flush()
    text = (tmp_path / logs.LOG_FILE).read_text()
    assert "room again" in text and "is written again" in text, text     # (said in the file, in English)
    assert "written again" not in err.getvalue()


def test_the_file_rotates(tmp_path: Path, fresh: None) -> None:
    logs.setup(stream=io.StringIO())
    logs.attach_file(tmp_path, max_bytes=2000, backups=2)
    for i in range(200):
        logging.getLogger("firmware.x").warning("line %d %s", i, "x" * 40)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["legatus.log", "legatus.log.1", "legatus.log.2"]
    assert all(p.stat().st_size <= 2100 for p in tmp_path.iterdir())


CRASH = """
import sys
from firmware import logs
logs.setup()
logs.remember_state_dir(__import__("pathlib").Path(sys.argv[1]))
raise RuntimeError("boom at start")
"""


def test_a_crash_before_the_store_is_open_is_kept_in_the_state_dir(tmp_path: Path) -> None:
    """A crash loop's reason survives a reboot (the journal does not, on Raspberry Pi OS) and the
    next start finds it."""
    proc = subprocess.run([sys.executable, "-c", CRASH, str(tmp_path)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == 1 and "boom at start" in proc.stderr
    text = (tmp_path / logs.LOG_FILE).read_text()
    assert "CRITICAL" in text and "Traceback" in text and "RuntimeError: boom at start" in text
    failure = logs.previous_failure(tmp_path)
    assert failure is not None and failure.endswith("stopped by an error: RuntimeError: boom at start")


CONSOLE_CRASH = """
import sys
from firmware import cli, store
def broken(self, *args, **kwargs):
    raise RuntimeError("boom in the console")
store.Store.__init__ = broken
sys.exit(cli.main(["console", "--state-dir", sys.argv[1]]))
"""


def test_a_console_crash_before_its_store_is_open_is_kept_in_the_state_dir(state_dir: Path) -> None:
    """`legatus console` as the device: a crash before the store is open (a bug) is kept in the state
    directory's log, and the next start of the device finds it (it was on standard error only)."""
    proc = subprocess.run([sys.executable, "-c", CONSOLE_CRASH, str(state_dir)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == 1 and "legatus: CRITICAL legatus: stopped by an error" in proc.stderr, proc.stderr
    text = (state_dir / logs.LOG_FILE).read_text()
    assert "Traceback" in text and "RuntimeError: boom in the console" in text, text
    failure = logs.previous_failure(state_dir)
    assert failure is not None and failure.endswith("stopped by an error: RuntimeError: boom in the console")


def test_the_next_start_shows_the_failure_on_the_panel(tmp_path: Path, state_dir: Path) -> None:
    from firmware.device import _start_notices
    from tests.screens import app_with
    (state_dir / logs.LOG_FILE).write_text(
        f"2024-05-01 10:05:00,001 INFO firmware.logs: {logs.START} 0.1.0\n"
        "2024-05-01 10:05:02,000 CRITICAL legatus: stopped by an error: ValueError: bad\n")
    failure = logs.previous_failure(state_dir)
    app = app_with([], [], state_dir)
    try:
        _start_notices(app, app.console.store, failure)
        shown = " ".join((app.message or []) + list(getattr(app.stack[-1], "rows", [])))
        assert "stopped with an error" in shown and "ValueError: bad" in shown
    finally:
        app.console.close()


def test_every_start_notice_is_on_one_scrollable_screen_and_none_is_cut(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20/21: a recovered database (several things found), a read-only root, the last run's
    failure and a notice of the hardware all on one screen, each a paragraph, every word there."""
    from engine.text import Msg
    from firmware import doctor
    from firmware.app import NoticesScreen
    from firmware.device import _start_notices
    from firmware.screens import base
    from firmware.storage import Recovery
    from tests.screens import app_with
    (state_dir / logs.LOG_FILE).write_text(
        f"2024-05-01 10:05:00,001 INFO firmware.logs: {logs.START} 0.1.0\n"
        "2024-05-01 10:05:02,000 CRITICAL legatus: stopped by an error: ValueError: a long reason for it\n")
    failure = logs.previous_failure(state_dir)
    monkeypatch.setattr(doctor, "storage_check", lambda d, mounts=None: doctor.Check(
        Msg("Storage"), "fail", "/", Msg("{} is mounted read-only: nothing can be saved. Remount it read-write or "
                                          "set LEGATUS_STATE_DIR to a writable directory.", "/")))
    app = app_with([], [], state_dir)
    try:
        notes = [Msg("A damaged checkpoint was skipped; the state was replayed from an older one."),
                 Msg("A damaged record was found after action {after}; {n} records were kept aside for a bug report and "
                     "the session resumed at the last good action.", after=140, n=3)]
        app.console.store.recovery = Recovery.of(notes)
        _start_notices(app, app.console.store, failure)
        app.start_notice("Buttons: no pin factory")           # a notice of the hardware comes after
        screen = app.stack[-1]
        assert isinstance(screen, NoticesScreen) and sum(isinstance(s, NoticesScreen) for s in app.stack) == 1
        assert len(screen.paragraphs) == 5 and app.message is None
        assert all(len(row) <= base.COLS for row in screen.rows)
        shown = "".join("".join(screen.rows).split())       # (a long path is broken over rows, not cut:
        for paragraph in screen.paragraphs:                 # after a / or _, else with a hyphen added)
            assert "".join(paragraph.split()).replace("-", "") in shown.replace("-", "")     # nothing cut
        assert "read-only" in shown and "ValueError:alongreasonforit" in shown
        for _ in range(len(screen.rows)):
            app.handle("down")                                # it scrolls to its last row
        assert screen.scroll.top == len(screen.rows) - base.ROWS
        app.handle("b")
        assert not isinstance(app.stack[-1], NoticesScreen)
    finally:
        app.console.close()


def test_a_log_file_the_card_cannot_read_at_start_is_logged_not_taken_for_a_clean_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """QA (faults): an EIO reading legatus.log at start was taken, without a word, for "the last
    run ended normally": the previous run's crash went unsaid and nothing said why."""
    import errno
    import logging
    (tmp_path / logs.LOG_FILE).write_text("x CRITICAL legatus: boom\n", encoding="utf-8")
    real = Path.open

    def eio(self: Path, *a: Any, **k: Any) -> Any:
        if self.name == logs.LOG_FILE:
            raise OSError(errno.EIO, "Input/output error")
        return real(self, *a, **k)
    monkeypatch.setattr(Path, "open", eio)
    with caplog.at_level(logging.WARNING):
        assert logs.previous_failure(tmp_path) is None
    assert any("Input/output error" in r.getMessage() for r in caplog.records)


class _FullCard(io.StringIO):
    """A log file's stream on a full card: every write and flush fails with ENOSPC."""

    def write(self, s: str) -> int:
        import errno
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self) -> None:
        import errno
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_card_says_once_that_the_log_file_cannot_be_written_and_no_traceback(
        tmp_path: Path, fresh: None, capsys: pytest.CaptureFixture[str]) -> None:
    """QA (start): on a full card every logging line printed Python's "--- Logging error ---"
    traceback to standard error (the journal): one line says so, then the records go on to standard
    error only; the file is written again once the card has room."""
    err = io.StringIO()
    logs.setup(stream=err)
    logs.attach_file(tmp_path)
    handler = logs._file
    assert isinstance(handler, logging.FileHandler)
    good = handler.stream
    handler.stream = _FullCard()
    for i in range(5):
        logging.getLogger("firmware.x").warning("line %d", i)
    printed = err.getvalue() + capsys.readouterr().err
    assert "Logging error" not in printed and "Traceback" not in printed
    said = [line for line in printed.splitlines() if "cannot write the log file" in line]
    assert len(said) == 1 and "No space left on device" in said[0] and str(tmp_path) in said[0]
    assert all(f"line {i}" in printed for i in range(5))      # standard error still has them all
    handler.stream = good                                     # room again: the file goes on
    logging.getLogger("firmware.x").warning("room again")
    handler.flush()
    assert "room again" in (tmp_path / logs.LOG_FILE).read_text()
    logging.getLogger("firmware.x").warning("after")
    assert "cannot write the log file" not in err.getvalue().split("room again")[1]


def test_the_simulator_keeps_log_lines_off_its_picture_and_gets_the_warnings(
        tmp_path: Path, fresh: None) -> None:
    """QA (start): the serial port's warnings (a port that cannot be opened, a hang-up) and every
    other record printed on the terminal the simulator draws its picture on, over it. While the
    simulator draws, records go to the log file only, and each warning is handed on for a notice."""
    err = io.StringIO()
    logs.setup(stream=err)
    logs.attach_file(tmp_path)
    import threading
    notes: list[str] = []
    again = logs.quiet_stderr(notes.append)

    def serial_thread() -> None:
        for _ in range(2):                                     # said once while it says the same
            logging.getLogger("hw.serial_link").warning("serial: %s (trying again every %g s)", "no such port", 3.0)
    thread = threading.Thread(target=serial_thread)
    thread.start()
    thread.join()
    logging.getLogger("firmware.app").error("a screen failed to draw")   # the main loop's own: no notice
    logging.getLogger("firmware.x").info("an info line")
    assert err.getvalue().count("no such port") == 0 and "an info line" not in err.getvalue()
    assert notes == ["serial: no such port (trying again every 3 s)"]
    text = (tmp_path / logs.LOG_FILE).read_text()
    assert "no such port" in text and "an info line" in text and "failed to draw" in text   # the log has them
    again()
    logging.getLogger("firmware.x").warning("after the simulator")
    assert "after the simulator" in err.getvalue() and len(notes) == 1


def test_the_log_file_failing_while_the_simulator_draws_is_a_notice_not_a_line_over_the_picture(
        tmp_path: Path, fresh: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The card full while the simulator draws on the terminal: "cannot write the log file …" was
    printed on the terminal, over the picture (and the records then went nowhere: standard error is
    quiet meanwhile). It is handed on as a notice, its reason in the player's language; the records
    are kept and written, with the system's reason, once the file takes them again."""
    from firmware.i18n import domain
    err = io.StringIO()
    logs.setup(stream=err)
    logs.attach_file(tmp_path)
    handler = logs._file
    assert isinstance(handler, logging.FileHandler)
    notes: list[str] = []
    again = logs.quiet_stderr(notes.append)
    before = err.getvalue()
    good = handler.stream
    handler.stream = _FullCard()
    for i in range(3):
        logging.getLogger("firmware.x").warning("kept %d", i)
    printed = err.getvalue()[len(before):] + capsys.readouterr().err
    assert printed == "", printed                                        # nothing over the picture
    assert len(notes) == 1, notes
    said = domain("legatus").say(notes[0], "ru")
    assert "Файл журнала" in said and "память заполнена" in said and "No space" not in said, said
    handler.stream = good                                                # room again
    logging.getLogger("firmware.x").warning("room again")
    handler.flush()
    text = (tmp_path / logs.LOG_FILE).read_text()
    assert all(f"kept {i}" in text for i in range(3)) and "room again" in text, text
    assert "No space left on device" in text                            # the system's words: the log's
    assert len(notes) == 1 and err.getvalue() == before
    again()


def test_the_serial_links_warnings_while_the_simulator_draws_are_notices_in_the_players_words(
        tmp_path: Path, fresh: None) -> None:
    """`legatus --sim --serial PORT` on a Russian or Ukrainian device: a port that cannot be opened
    and a hang-up were shown as "Warning, written to the log: serial: serial port … does not exist …",
    the log's English line inside the notice. The link's records carry the sentence for the player
    (a Msg); the notice is that sentence, the log keeps its English line."""
    import termios
    import threading

    from engine.text import Msg
    from firmware.i18n import domain
    from hw.serial_link import SerialLink
    err = io.StringIO()
    logs.setup(stream=err)
    logs.attach_file(tmp_path)
    notes: list[str] = []
    again = logs.quiet_stderr(notes.append)

    class Stop(Exception):
        pass

    def stop(seconds: float) -> None:
        raise Stop

    link = SerialLink("/dev/ttyLEGATUS9", sleep=stop)

    def serial_thread() -> None:
        try:
            link.wait()
        except Stop:
            pass
        link.lost(termios.error(5, "Input/output error"))
    thread = threading.Thread(target=serial_thread)
    thread.start()
    thread.join()
    again()
    assert len(notes) == 2 and all(isinstance(note, Msg) for note in notes), notes
    said = [domain("legatus").say(note, "ru") for note in notes]
    assert said[0].startswith("Последовательный порт не открывается: последовательного порта /dev/ttyLEGATUS9 нет: "
                              "проверьте имя порта"), said
    assert said[1] == ("Связь через последовательный порт прервалась (Input/output error); устройство работает без "
                       "неё и снова откроет порт, как только сможет."), said
    text = (tmp_path / logs.LOG_FILE).read_text()
    assert "serial: serial port /dev/ttyLEGATUS9 does not exist" in text and "serial: the link closed" in text


LOGGED = """
import logging, sys
from firmware import logs
logs.setup()
log = logging.getLogger("legatus.test")
log.info("started")
log.warning("the panel does not answer")
log.error("the card failed")
try:
    1 / 0
except ZeroDivisionError:
    log.critical("stopped by an error", exc_info=True)
logs._say("cannot write the log file", OSError("full"))
"""


def _logged(tmp_path: Path, journal: str | None) -> list[str]:
    """What the program's standard error holds, run as the unit runs it (scripts/legatus.service:
    systemd sets INVOCATION_ID and, its standard error being the journal, JOURNAL_STREAM)."""
    err = tmp_path / "stderr"
    with err.open("wb") as f:
        st = os.fstat(f.fileno())
        env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
        env["INVOCATION_ID"] = "0123456789abcdef0123456789abcdef"
        if journal is not None:
            env["JOURNAL_STREAM"] = journal.format(dev=st.st_dev, ino=st.st_ino)
        subprocess.run([sys.executable, "-c", LOGGED], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                       stderr=f, stdin=subprocess.DEVNULL, check=True, timeout=60)
    return err.read_text().splitlines()


def test_on_the_journal_each_line_carries_its_level(tmp_path: Path) -> None:
    """Under the service every line reached the journal at "info" (`journalctl -u legatus -p warning`
    showed nothing): on the journal's stream each line now begins with its syslog level (sd-daemon(3):
    <2> critical, <3> error, <4> warning, <6> info), a traceback's lines too."""
    lines = _logged(tmp_path, "{dev}:{ino}")
    assert "<6>legatus: INFO legatus.test: started" in lines
    assert "<4>legatus: WARNING legatus.test: the panel does not answer" in lines
    assert "<3>legatus: ERROR legatus.test: the card failed" in lines
    assert "<2>legatus: CRITICAL legatus.test: stopped by an error" in lines
    assert "<2>ZeroDivisionError: division by zero" in lines and "<2>Traceback (most recent call last):" in lines
    assert "<4>legatus: WARNING firmware.logs: cannot write the log file" in lines     # (said past logging)
    assert all(line[:3] in ("<2>", "<3>", "<4>", "<6>") for line in lines), lines


@pytest.mark.parametrize("journal", [None, "{dev}:{ino}1", "not a stream"])
def test_elsewhere_the_lines_are_as_they_were(tmp_path: Path, journal: str | None) -> None:
    """Not on the journal (a terminal, a file; JOURNAL_STREAM naming another stream, as for a
    program the service started with its standard error elsewhere): no level prefix."""
    lines = _logged(tmp_path, journal)
    assert "legatus: WARNING legatus.test: the panel does not answer" in lines
    assert "legatus: WARNING firmware.logs: cannot write the log file" in lines
    assert not [line for line in lines if line.startswith("<")], lines
