"""What the simulator's terminal shows besides its picture at start. The start's problems (a state
directory it cannot use, the last run's crash, a card that keeps nothing) are said on the panel in
the player's language; their log records were printed on the same terminal too, in English, above
the Russian or Ukrainian picture («legatus: ERROR firmware.storage_wait: Cannot use the state
directory …»), and stayed there after it ended. They go to the log file only now (firmware.logs.
ON_PANEL); the service's journal and a scripted run's output (the log, by design) keep them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.test_simulator import _in_a_terminal


def _russian_state(state: Path) -> None:
    subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state)], cwd=ROOT,
                   input=b"settings language=ru\n", capture_output=True, check=True)


def _crashed_before(state: Path) -> None:
    with (state / "legatus.log").open("a", encoding="utf-8") as f:
        f.write("2026-05-01 10:00:00,000 INFO firmware.logs: start: legatus 0.1.0 (pid 1, cwd /; clock set)\n"
                "2026-05-01 10:05:02,000 CRITICAL legatus: stopped by an error: ValueError: bad\n")


def test_the_last_runs_crash_is_said_on_the_simulators_picture_not_in_english_above_it(tmp_path: Path) -> None:
    state = tmp_path / "st"
    _russian_state(state)
    _crashed_before(state)
    status, out, _ = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(state)], {}, [b"q"])
    assert status == 0, out[-800:]
    assert "previous run stopped" not in out and "WARNING" not in out, out[:600]
    kept = (state / "legatus.log").read_text(encoding="utf-8")
    assert "the previous run stopped with an error: 2026-05-01 10:05:02" in kept       # (the log file has it)


def test_a_state_dir_the_simulator_cannot_use_is_said_on_its_picture_not_in_english_above_it(tmp_path: Path) -> None:
    state = tmp_path / "st"
    state.write_text("not a folder")
    status, out, _ = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(state)], {}, [b"q"])
    assert status == 0, out[-800:]
    assert "Cannot use the state directory" not in out and "ERROR" not in out, out[:600]


def test_a_scripted_run_prints_the_log_as_it_is(tmp_path: Path) -> None:
    """--script's standard error is the log (English, every record: docs/hardware.md), as under the service."""
    state = tmp_path / "st"
    _russian_state(state)
    _crashed_before(state)
    keys = tmp_path / "keys"
    keys.write_text("a\n")
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "--script", str(keys), "--state-dir", str(state)],
                          cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == 0
    assert "WARNING firmware.device: the previous run stopped with an error" in done.stderr.decode()


def test_a_reply_the_serial_link_did_not_send_is_said_in_the_players_words(caplog) -> None:
    """The link's writer thread: its warning is the simulator's notice (firmware.logs.quiet_stderr takes
    the record's ``said``); without one the notice was «Предупреждение, записано в журнал: could not
    answer over the serial link ([Errno 107] the serial link … was closed; …)»."""
    import logging
    import time

    import serial

    from firmware.i18n import say
    from hw.serial_link import SerialLink
    caplog.set_level(logging.WARNING, logger="hw.serial_link")
    link = SerialLink("/dev/ttyGS0", open_port=lambda: serial.serial_for_url("loop://", timeout=0), retry=0.0,
                      sleep=lambda s: None)
    assert link.wait() is not None
    link.send(b'{"ok":true}\n', opening=0)             # a request from a connection closed since
    end = time.monotonic() + 5
    while not caplog.records and time.monotonic() < end:
        time.sleep(0.01)
    said = caplog.records[0].__dict__.get("said")
    assert said is not None, caplog.text
    for lang, words in (("ru", "соединение, которое его запросило"), ("uk", "з'єднання, яке її запитало")):
        assert words in say(said, lang)
