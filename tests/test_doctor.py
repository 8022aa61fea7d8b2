"""firmware.doctor (``legatus doctor``, Settings → Hardware) and hw.clock, with their inputs given."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware import doctor
from firmware.doctor import Live, resolve_config, storage_check
from firmware.doctor_readers import boot_params, i2c_clock_hz, mount_of
from hw.clock import ClockState

ROOT = Path(__file__).resolve().parents[1]

MOUNTS_SD = """/dev/mmcblk0p2 / ext4 rw,noatime 0 0
/dev/mmcblk0p1 /boot/firmware vfat rw,relatime 0 0
tmpfs /run tmpfs rw,nosuid,nodev 0 0
"""
# raspi-config's overlay file system (overlayroot): the root is an overlay over tmpfs
MOUNTS_OVERLAY = """overlayroot / overlay rw,relatime,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay 0 0
/dev/mmcblk0p2 /media/root-ro ext4 ro,relatime 0 0
tmpfs-root /media/root-rw tmpfs rw,relatime 0 0
"""


def test_mount_of_takes_the_longest_mount_point() -> None:
    m = mount_of(Path("/var/lib/legatus"), MOUNTS_SD)
    assert m is not None and (m.point, m.fstype, m.read_only) == ("/", "ext4", False)
    m = mount_of(Path("/run/legatus"), MOUNTS_SD)
    assert m is not None and m.fstype == "tmpfs"
    assert mount_of(Path("/runaway"), MOUNTS_SD).point == "/"       # type: ignore[union-attr]


def test_an_overlay_root_is_reported_with_its_fix() -> None:
    check = storage_check(Path("/var/lib/legatus"), MOUNTS_OVERLAY)
    assert check.status == "fail" and "overlay" in check.found
    assert check.fix is not None and "disable_overlayfs" in check.fix and "power cut" in check.fix
    ro = storage_check(Path("/srv/x"), "/dev/sda1 / ext4 ro,relatime 0 0\n")
    assert ro.status == "fail" and ro.fix is not None and "read-only" in ro.fix
    assert storage_check(Path("/var/lib/legatus"), MOUNTS_SD).status == "ok"


def test_boot_params_and_the_i2c_clock(tmp_path: Path) -> None:
    text = ("#dtparam=spi=on\ndtparam=audio=on\ndtparam=i2c_arm=on,i2c_arm_baudrate=100000\n"
            "[all]\ndtparam=i2c_arm_baudrate=400000  # Legatus\n")
    assert boot_params(text) == {"audio": "on", "i2c_arm": "on", "i2c_arm_baudrate": "400000"}
    node = tmp_path / "class" / "i2c-adapter" / "i2c-1" / "of_node"
    node.mkdir(parents=True)
    (node / "clock-frequency").write_bytes(bytes.fromhex("00061a80"))
    assert i2c_clock_hz(1, tmp_path) == 400000
    assert i2c_clock_hz(3, tmp_path) is None


def test_bus_checks_say_what_to_turn_on(tmp_path: Path) -> None:
    resolved = resolve_config(None, {})
    dev = tmp_path / "dev"
    dev.mkdir()
    off = doctor.bus_checks(resolved, dev, tmp_path, (Path("/boot/firmware/config.txt"), "#dtparam=i2c_arm=on\n"))
    i2c = off[0]
    assert i2c.status == "fail" and i2c.fix is not None and "raspi-config nonint do_i2c 0" in i2c.fix
    assert off[1].status == "info"                                   # SPI: not needed by this profile
    pending = doctor.bus_checks(resolved, dev, tmp_path, (Path("/boot/firmware/config.txt"), "dtparam=i2c_arm=on\n"))
    assert pending[0].status == "warn" and pending[0].fix is not None and "Reboot" in pending[0].fix
    (dev / "i2c-1").touch()
    on = doctor.bus_checks(resolved, dev, tmp_path, (None, ""))
    assert on[0].status == "ok"


def test_an_i2c_bus_without_its_dev_node_says_to_load_i2c_dev_not_to_reboot(tmp_path: Path) -> None:
    """config.txt edited by hand (dtparam=i2c_arm=on, not raspi-config, which also loads i2c-dev at
    boot): after the reboot the kernel has the bus (/sys/class/i2c-adapter/i2c-1) but /dev/i2c-1 is
    missing. The row said "Reboot so that the setting takes effect", again and again; it names the
    module now. An overlay turning the bus on with nothing in the boot config: the same."""
    resolved = resolve_config(None, {})
    dev = tmp_path / "dev"
    dev.mkdir()
    (tmp_path / "class" / "i2c-adapter" / "i2c-1").mkdir(parents=True)
    for boot in ("dtparam=i2c_arm=on\n", ""):
        i2c = doctor.bus_checks(resolved, dev, tmp_path, (Path("/boot/firmware/config.txt"), boot))[0]
        assert i2c.status == "fail" and "i2c-dev" in str(i2c.found) and "/dev/i2c-1" in str(i2c.found)
        assert i2c.fix is not None and "sudo modprobe i2c-dev" in i2c.fix and "Reboot" not in i2c.fix
    (dev / "i2c-1").touch()
    assert doctor.bus_checks(resolved, dev, tmp_path, (None, ""))[0].status == "ok"


def test_clock_check() -> None:
    ok = doctor.clock_check(ClockState(synchronised=True, timesyncd=True, fake_hwclock=True, rtc=False))
    assert ok.status == "ok"
    stale = doctor.clock_check(ClockState(synchronised=False, timesyncd=False, fake_hwclock=True, rtc=False))
    assert stale.status == "warn" and "fake-hwclock" in stale.found
    assert stale.fix is not None and "History" in stale.fix


def test_live_checks_name_the_factory_and_the_panel() -> None:
    resolved = resolve_config(None, {})
    rows = doctor.live_checks(Live(factory="LGPIOFactory", panel=False, panel_error="Remote I/O error"),
                              resolved, reported=True)
    by_label = {str(c.label): c for c in rows}
    assert by_label["Pin factory"].status == "ok" and by_label["Pin factory"].found == "LGPIOFactory"
    assert by_label["Panel"].status == "fail" and "Remote I/O error" in by_label["Panel"].found
    assert by_label["Service"].status == "info"
    none = doctor.live_checks(Live(keys_error="Unable to load any default pin factory!"), resolved, False)
    assert none[0].status == "fail" and none[0].fix is not None and "python3-lgpio" in none[0].fix
    # the library loaded but a key's pin is busy: not "install python3-lgpio", but the pin
    busy = doctor.live_checks(Live(factory="LGPIOFactory", keys_error="cannot open GPIO5 for key 'a': GPIOPinInUse"),
                              resolved, True)
    by_label = {str(c.label): c for c in busy}
    assert by_label["Pin factory"].status == "ok"
    assert by_label["Buttons"].status == "fail" and "GPIO5" in by_label["Buttons"].found
    assert by_label["Buttons"].fix is not None and "no other program" in by_label["Buttons"].fix


def test_status_file_round_trip(tmp_path: Path) -> None:
    resolved = resolve_config(None, {"profile": "waveshare-hat"})
    live = Live(factory="LGPIOFactory", panel=True, lgpio_dir="/run/legatus")
    doctor.write_status(tmp_path, live, resolved)
    got = doctor.read_status(tmp_path)
    assert got is not None and got[0] == live and got[1]["profile"] == "waveshare-hat"
    (tmp_path / doctor.STATUS_FILE).write_text("{not json")
    assert doctor.read_status(tmp_path) is None


def test_a_full_card_refusing_the_status_file_is_logged_once_not_at_every_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The device writes hardware.json at every check of its parts (every 10 s, every 3 s without a
    panel); a full card refused it each time, and each time a warning was logged (to the journal,
    the log file being full too): thousands a day. Said once while it fails the same way; again
    after it was written, or when the reason changes."""
    import errno
    resolved = resolve_config(None, {})
    real = Path.write_text
    reason = [errno.ENOSPC]

    def full(self: Path, *args: Any, **kwargs: Any) -> int:
        if reason[0]:
            raise OSError(reason[0], os.strerror(reason[0]))
        return real(self, *args, **kwargs)
    monkeypatch.setattr(Path, "write_text", full)
    caplog.set_level(logging.WARNING)
    for _ in range(5):
        doctor.write_status(tmp_path, Live(panel=True), resolved)
    assert caplog.text.count("cannot write") == 1 and "No space left" in caplog.text
    reason[0] = errno.EROFS
    doctor.write_status(tmp_path, Live(panel=True), resolved)
    assert caplog.text.count("cannot write") == 2 and "Read-only" in caplog.text
    reason[0] = 0
    doctor.write_status(tmp_path, Live(panel=True), resolved)             # room again: written
    assert doctor.read_status(tmp_path) is not None
    reason[0] = errno.ENOSPC
    doctor.write_status(tmp_path, Live(panel=False), resolved)
    assert caplog.text.count("cannot write") == 3


def test_the_reported_errors_of_the_panel_and_keys_are_kept_as_sentences(tmp_path: Path) -> None:
    """hardware.json kept the panel's and the keys' errors as English text, so `legatus doctor`
    beside the service said them in English inside Russian rows: they are kept as sentences (a
    file written before, with plain text, is still read)."""
    from engine.text import Msg
    from firmware.i18n import say
    resolved = resolve_config(None, {})
    live = Live(factory="LGPIOFactory", panel=False, panel_error=Msg("the display stopped answering ({}); check its "
                                                                      "connection", "[Errno 121] Remote I/O error"),
                keys_error=Msg("{}; {}", "x", "y"))
    doctor.write_status(tmp_path, live, resolved, "ru")
    got = doctor.read_status(tmp_path)
    assert got is not None and got[0] == live and isinstance(got[0].panel_error, Msg)
    row = {str(c.label): c for c in doctor.live_checks(got[0], resolved, True)}["Panel"]
    assert say(row.found, "ru") == "не отвечает: экран перестал отвечать ([Errno 121] Remote I/O error); проверьте его подключение"
    doctor.write_status(tmp_path, Live(panel=False, panel_error="old text"), resolved)
    got = doctor.read_status(tmp_path)
    assert got is not None and got[0].panel_error == "old text"


def test_the_doctor_leaves_a_running_services_panel_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Opening the panel sets it up again and switches it off at the end: a doctor that cannot read
    the running service's findings (run without LEGATUS_STATE_DIR, or as another user than the
    service's) must not probe the panel under its feet, and says how to see what it found."""
    import fcntl

    def probe(*_: object) -> Live:
        raise AssertionError("the panel and the pins were probed while the service holds them")
    monkeypatch.setattr("hw.display.probe_hardware", lambda *_: True)        # (on a Pi)
    monkeypatch.setattr(doctor, "probe_live", probe)
    monkeypatch.setattr(doctor, "SERVICE_RUN_DIR", tmp_path / "run")
    (tmp_path / "run").mkdir()                     # the unit's RuntimeDirectory: the service runs
    assert doctor.run_doctor(str(tmp_path / "mine"), None) in (0, 1)
    out = capsys.readouterr().out
    assert "WARN Service: running as " in out and "were not tried here" in out
    assert "LEGATUS_STATE_DIR=/var/lib/legatus" in out and "Pin factory" not in out
    # the service's state directory itself, held, its findings unreadable (another user's 0600 file)
    (tmp_path / "run").rmdir()
    state = tmp_path / "service"
    state.mkdir()
    with open(state / "lock", "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        doctor.run_doctor(str(state), None)
    assert "WARN Service: running as " in capsys.readouterr().out
    # another user's 0700 state directory of a service that is stopped: nothing is said to run
    import firmware.doctor_unit as unit_rows

    def denied(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(unit_rows, "open", denied, raising=False)
    assert unit_rows.held_elsewhere(state, tmp_path / "run") is None
    (tmp_path / "run").mkdir()
    assert unit_rows.held_elsewhere(state, tmp_path / "run") is not None     # ... unless it runs
    (tmp_path / "run").rmdir()
    monkeypatch.undo()
    monkeypatch.setattr(doctor, "SERVICE_RUN_DIR", tmp_path / "run")
    # nothing running: the doctor tries the hardware itself (on a Pi)
    monkeypatch.setattr("hw.display.probe_hardware", lambda *_: True)
    monkeypatch.setattr(doctor, "probe_live", lambda *_: Live(factory="LGPIOFactory", panel=True))
    doctor.run_doctor(str(state), None)
    out = capsys.readouterr().out
    assert "Service" not in out and "ok   Pin factory: LGPIOFactory" in out


def test_render_puts_each_fix_under_its_row() -> None:
    resolved = resolve_config(None, {})
    text = doctor.render(doctor.config_checks(resolved) + [
        doctor.clock_check(ClockState(synchronised=False, timesyncd=False, fake_hwclock=False, rtc=False))])
    lines = text.splitlines()
    assert lines[0].startswith("ok   Profile: adafruit-bonnet (from the built-in default)")
    warn = next(i for i, line in enumerate(lines) if line.startswith("WARN Clock"))
    assert lines[warn + 1].lstrip().startswith("→ Dates in History")


@pytest.mark.parametrize("lang, marks", [
    ("en", ["ok   ", "WARN ", "FAIL ", "     "]),
    ("ru", ["норма    ", "ВНИМАНИЕ ", "СБОЙ     ", "         "]),
    ("uk", ["норма ", "УВАГА ", "ЗБІЙ  ", "      "]),
])
def test_the_status_column_is_in_the_reports_language(lang: str, marks: list[str]) -> None:
    """The status words stayed English (ok, WARN, FAIL) in a report said in Russian or Ukrainian;
    each is the report's language's word now, the column as wide as its widest word there (in
    English as it was), the fix under its row past it."""
    from firmware.i18n import say
    checks = [doctor.Check(doctor.Msg("Board"), status, "x", doctor.Msg("Reboot.") if status == "fail" else None)
              for status in ("ok", "warn", "fail", "info")]
    lines = doctor.render(checks, lambda m: say(m, lang)).splitlines()
    rows = [line for line in lines if "→" not in line]
    assert [row[:len(mark)] for row, mark in zip(rows, marks)] == marks, lines
    assert all(row[len(marks[0]):].startswith(say(doctor.Msg("Board"), lang) + ": x") for row in rows)
    fix = lines[lines.index(rows[2]) + 1]
    assert fix == " " * len(marks[0]) + "→ " + say(doctor.Msg("Reboot."), lang)


@pytest.mark.parametrize("rtc", [False, True])
def test_the_clocks_fix_away_from_a_pi_is_this_computers(rtc: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """`legatus doctor` on a laptop (the simulator's machine, a laptop's own RTC) said «Connect the Pi
    to a network once after boot …» or to set a Pi's real-time clock: it sets this computer's
    network time there; a Pi keeps its own fixes."""
    import hw.display
    stale = ClockState(synchronised=False, timesyncd=False, fake_hwclock=False, rtc=rtc)
    monkeypatch.setattr(hw.display, "probe_hardware", lambda: False)
    away = doctor.clock_check(stale)
    assert away.status == "warn" and away.fix is not None
    assert "Pi" not in away.fix and "hwclock" not in away.fix and "this computer's clock" in away.fix
    monkeypatch.setattr(hw.display, "probe_hardware", lambda: True)
    pi = doctor.clock_check(stale)
    assert pi.status == "warn" and pi.fix is not None and ("hwclock -s" if rtc else "Connect the Pi") in pi.fix


def test_legatus_doctor_reports_a_waveshare_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('profile = "waveshare-hat"\n')
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "doctor", "--state-dir", str(tmp_path / "s"),
                           "--config", str(config)], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "GPIOZERO_PIN_FACTORY": "mock"})
    out = proc.stdout
    assert f"Profile: waveshare-hat (from the config file {config})" in out
    assert "Display: SH1106, SPI 0.0 (DC 24, RST 25)" in out
    assert "Pin factory: MockFactory" in out and "unset GPIOZERO_PIN_FACTORY" in out
    assert proc.returncode in (0, 1) and ("FAIL" in out) == (proc.returncode == 1)


def test_legatus_doctor_in_a_terminal_that_is_not_utf8_prints_its_report(tmp_path: Path) -> None:
    """Under a non-UTF-8 locale (here PYTHONIOENCODING=ascii) the report's first "→" was a
    UnicodeEncodeError traceback instead of the report; now what the terminal cannot show is a '?'."""
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "doctor", "--state-dir", str(tmp_path / "s")],
                          capture_output=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "GPIOZERO_PIN_FACTORY": "mock",
                               "PYTHONIOENCODING": "ascii"})
    out, err = proc.stdout.decode("ascii"), proc.stderr.decode("ascii", "replace")
    assert "Traceback" not in err and proc.returncode in (0, 1), err[-600:]
    assert "Profile: adafruit-bonnet" in out and "Storage: " in out and "     ? " in out


# -- the clock and History -------------------------------------------------------------------------
def test_synchronised_asks_the_kernel() -> None:
    from hw.clock import synchronised
    assert synchronised() in (True, False, None)


@pytest.mark.parametrize("synced", [True, False])
def test_history_marks_times_taken_without_a_synchronised_clock(
        synced: bool, monkeypatch: pytest.MonkeyPatch, console) -> None:
    """A Pi without network or RTC keeps the time of its last shutdown (fake-hwclock): the times
    recorded then are marked, in the record and in the ``history`` answer."""
    import types

    import hw.clock
    from firmware import history
    monkeypatch.setattr(hw.clock, "synchronised", lambda: synced)
    header = {"sid": "s1", "game": "caesar-solo", "line": "new caesar-solo", "seed": "s1"}
    history.note_started(console.store, types.SimpleNamespace(header=header, game=types.SimpleNamespace(name="caesar-solo"),
                                                             state_json="{}"))
    rec = {"mode": {"kind": "solo", "difficulty": "easy", "side": "caesar", "expansions": []},
           "players": [history.player("Caesar", 12, True), history.player("Auto-Crassus", 5, False, True)],
           "result": history.Msg("test")}
    with console.store.transaction() as db:
        history._put(db, header, "game", rec, 10, "finished")
    entry = console.request("history")["games"][0]
    assert entry["unsynced"] == ([] if synced else ["started", "finished"])
    assert entry["started"] and not entry["started"].endswith(history.UNSYNCED)
    from firmware import history as h
    from firmware.screens.history import detail_rows
    with console.store.transaction() as db:
        shown = detail_rows(h.games(db)[0])
    assert any("clock not set" in row for row in shown) == (not synced)


def test_an_overlay_root_is_said_on_the_panel_and_in_the_log_at_start(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from firmware.device import _start_notices
    from tests.screens import app_with
    real = doctor.storage_check
    monkeypatch.setattr(doctor, "storage_check", lambda d, mounts=None: real(Path("/var/lib/legatus"), MOUNTS_OVERLAY))
    app = app_with([], [], state_dir)
    try:
        _start_notices(app, app.console.store, None)
        shown = " ".join((app.message or []) + list(getattr(app.stack[-1], "rows", [])))
        assert "survives a power cut" in shown
        assert "storage:" in caplog.text and "overlay" in caplog.text
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_what_the_checks_found_is_said_in_the_language_without_english_words(lang: str, tmp_path: Path) -> None:
    """Settings → Hardware in Russian and Ukrainian: the storage's mount, the bus speed the boot
    config leaves at its default, and the panel's rotation were English fragments glued into the
    sentence ("ext4 on /", "100000 Hz, the default", "rotate 0")."""
    from firmware.i18n import say
    resolved = resolve_config(None, {})
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "i2c-1").touch()
    checks = [storage_check(Path("/var/lib/legatus"), MOUNTS_SD),
              storage_check(Path("/srv/x"), "/dev/sda1 / ext4 ro,relatime 0 0\n"),
              *doctor.bus_checks(resolved, dev, tmp_path, (Path("/boot/firmware/config.txt"), "dtparam=i2c_arm=on\n")),
              *doctor.config_checks(resolved)]
    found = {str(c.label): say(c.found, lang) for c in checks}
    words = {"on", "the", "default", "rotate", "ro"}
    for label in ("Storage", "Bus speed", "Display"):
        assert not words & set(found[label].replace(",", " ").replace("(", " ").replace(")", " ").split()), found[label]
    assert "100000" in found["Bus speed"] and "ext4" in found["Storage"] and "SSD1306" in found["Display"]
    assert say(checks[1].found, lang) != say(checks[0].found, lang).replace("/var/lib/legatus", "/srv/x")   # read-only said


def test_the_services_serial_console_is_checked(tmp_path: Path) -> None:
    """The unit's --serial port: missing (no USB gadget), not permitted, shared with a login
    console or the kernel's, or fine; no row without --serial. The device only logged these."""
    from firmware.doctor_unit import serial_check, unit_serial_port
    assert unit_serial_port("[Service]\nExecStart=/opt/legatus/venv/bin/legatus --serial /dev/ttyGS0\n") == "/dev/ttyGS0"
    assert unit_serial_port("ExecStart=/opt/legatus/venv/bin/legatus\n") is None
    unit, wants, cmdline = tmp_path / "legatus.service", tmp_path / "wants", tmp_path / "cmdline.txt"
    wants.mkdir()
    cmdline.write_text("console=tty1 root=PARTUUID=00000000-02 rootwait\n")
    port = tmp_path / "ttyGS0"

    def check() -> doctor.Check | None:
        row = serial_check(unit, (cmdline,), wants)
        return None if row is None else doctor.Check(doctor.Msg("Serial console"), *row)
    assert check() is None                                            # no unit: no row
    unit.write_text(f"[Service]\nExecStart=/opt/legatus/venv/bin/legatus --serial {port}\n")
    missing = check()
    assert missing is not None and missing.status == "fail" and "does not exist" in missing.found
    assert missing.fix is not None and "g_serial" in missing.fix
    port.touch()
    if os.geteuid() != 0:                                             # (root may open anything)
        port.chmod(0)
        denied = check()
        assert denied is not None and denied.status == "fail" and denied.fix is not None and "dialout" in denied.fix
        port.chmod(0o660)
    ok = check()
    assert ok is not None and ok.status == "ok" and ok.found == str(port)
    (wants / "serial-getty@ttyGS0.service").touch()
    getty = check()
    assert getty is not None and getty.status == "warn" and "serial-getty@ttyGS0" in str(getty.fix)
    (wants / "serial-getty@ttyGS0.service").unlink()
    cmdline.write_text("console=ttyGS0,115200 console=tty1 rootwait\n")
    kernel = check()
    assert kernel is not None and kernel.status == "warn" and "do_serial_cons 1" in str(kernel.fix)


@pytest.mark.parametrize("name", ["ttyUSB0", "ttyACM0", "serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"])
def test_an_unplugged_usb_serial_adapter_is_said_as_such_not_given_the_uarts_fix(tmp_path: Path, name: str) -> None:
    """The service's console on a USB serial adapter (--serial /dev/ttyUSB0) whose cable is out: its
    port is gone until it is plugged back. The row was a failure with the UART's fix (raspi-config
    do_serial_hw, reboot), which changes nothing; it says the adapter is unplugged, and that the device
    opens it again by itself. A port that never comes and goes (the UART, the USB gadget) as before."""
    from firmware.doctor_unit import serial_check
    unit, port = tmp_path / "legatus.service", tmp_path / "dev" / name
    unit.write_text(f"[Service]\nExecStart=/opt/legatus/venv/bin/legatus --serial {port}\n")
    row = serial_check(unit, (), tmp_path)
    assert row is not None
    status, found, fix = row
    assert status == "warn" and "unplugged" in found and fix is not None
    assert "Plug it in" in fix and "by-id" in fix and "raspi-config" not in fix
    from firmware.i18n import say
    assert "адаптер последовательного порта отключён" in say(found, "ru") and "Подключите его" in say(fix, "ru")
    unit.write_text(f"[Service]\nExecStart=/opt/legatus/venv/bin/legatus --serial {tmp_path / 'dev' / 'serial0'}\n")
    row = serial_check(unit, (), tmp_path)
    assert row is not None and row[0] == "fail" and row[2] is not None and "do_serial_hw" in row[2]


def _doctor_in(state: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               config: str | None = None) -> str:
    """``legatus doctor`` on ``state`` with the pins and the panel answering (no Pi here), nothing
    running: its report."""
    monkeypatch.setattr(doctor, "SERVICE_RUN_DIR", state / "no-service")
    monkeypatch.setattr(doctor, "probe_live", lambda *_: Live(factory="LGPIOFactory", panel=True))
    capsys.readouterr()
    doctor.run_doctor(str(state), config)
    return capsys.readouterr().out


@pytest.mark.parametrize("lang, row", [
    # (SQLite's English "database disk image is malformed" said in the report's words too: it was left as it came)
    ("ru", "ВНИМАНИЕ Настройки устройства: не удаётся прочитать (записи повреждены)"),
    ("uk", "УВАГА Налаштування пристрою: не вдається прочитати (записи пошкоджено)"),
])
def test_settings_the_doctor_cannot_read_are_a_row_in_the_devices_language(
        lang: str, row: str, state_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    """Settings the store cannot give were an English log line on standard error ("doctor: cannot
    read the settings in …"), and the whole report English whatever Settings → Language said. Now
    the language is read as `legatus` reads it for a command line (the setting read-only, else the
    locale's) and the report says it in a row of its own, with what the report then assumes."""
    import sqlite3

    from firmware.store import Store
    store = Store(state_dir)
    store.save_settings({"language": lang})
    store.close()

    def malformed(path: Path) -> dict[str, Any]:
        raise sqlite3.DatabaseError("database disk image is malformed")
    monkeypatch.setattr("firmware.store.kept.read_settings", malformed)
    monkeypatch.delenv("LANGUAGE", raising=False)
    caplog.set_level(logging.WARNING)
    out = _doctor_in(state_dir, monkeypatch, capsys)
    lines = out.splitlines()
    assert row in lines, out
    assert "Кнопки" in lines[lines.index(row) + 1] and "Дисплей" in lines[lines.index(row) + 1]
    assert "Profile" not in out and "Storage" not in out            # the rest in that language too
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text   # no English on stderr


@pytest.mark.parametrize("lang, said", [("ru", "ВНИМАНИЕ Файл настроек"), ("uk", "УВАГА Файл налаштувань")])
def test_the_doctor_says_a_bad_config_file_once_in_the_devices_language(
        lang: str, said: str, state_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    """A config file the doctor ignores is its "Config file" row; the log's English line ("config: …;
    using the built-in profile") came on standard error beside it. With no language chosen on the
    device (its first start asks), the report is in the locale's, as `legatus` answers a command
    line (firmware/start_language.py); it was English."""
    from firmware.store import Store
    Store(state_dir).close()
    monkeypatch.setenv("LANGUAGE", f"{lang}_{lang.upper()}.UTF-8")
    config = tmp_path / "bad.toml"
    config.write_text('profile = "nope"\n')
    caplog.set_level(logging.WARNING)
    out = _doctor_in(state_dir, monkeypatch, capsys, str(config))
    assert f"{said}: {config}: " in out and "Profile" not in out, out
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_the_doctor_changes_nothing_on_the_card_even_when_the_database_is_damaged(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`legatus doctor` opened the whole store to read the settings: on a damaged legatus.db that
    store salvaged it (renamed the file ``.damaged-1`` and rebuilt it) — a diagnosis that changed
    the card, with the store's English log lines on standard error. It reads the settings read only
    now: the directory and the database's bytes are as they were, and a row says they cannot be read."""
    from firmware.store import DB_NAME, Store
    store = Store(state_dir)
    store.save_settings({"language": "ru"})
    store.close()
    db = state_dir / DB_NAME
    data = bytearray(db.read_bytes())
    data[:16] = b"not a database!!"                       # the header: SQLite cannot open it
    db.write_bytes(bytes(data))
    before = {p.name: p.read_bytes() for p in state_dir.iterdir() if p.is_file()}
    monkeypatch.setenv("LANGUAGE", "uk_UA.UTF-8")
    out = _doctor_in(state_dir, monkeypatch, capsys)
    assert {p.name: p.read_bytes() for p in state_dir.iterdir() if p.is_file()} == before
    assert any(line.startswith("УВАГА Налаштування пристрою: не вдається прочитати (") for line in out.splitlines()), out


@pytest.mark.parametrize("where", ["games", "games/legatus"])
def test_a_state_directory_the_device_cannot_use_is_a_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str], where: str) -> None:
    """`legatus doctor --state-dir games` where `games` is a file (a typo, a file copied there):
    the device refuses it at start ("Nothing can be saved" on the panel) and the doctor said
    "ok Storage"; now a failure with the device's own sentence, and exit status 1."""
    (tmp_path / "games").write_text("not a folder")
    out = _doctor_in(tmp_path / where, monkeypatch, capsys)
    assert (f"FAIL Storage: {tmp_path / where}\n     → Cannot use the state directory {tmp_path / where}: "
            "a file stands where a folder should be. Pick another with --state-dir or LEGATUS_STATE_DIR.") in out, out
    monkeypatch.setattr(doctor, "probe_live", lambda *_: Live(factory="LGPIOFactory", panel=True))
    monkeypatch.setattr(doctor, "board_check", lambda: doctor.Check(doctor.Msg("Board"), "ok", "Raspberry Pi 4"))
    monkeypatch.setattr(doctor, "clock_check", lambda: doctor.Check(doctor.Msg("Clock"), "ok", "synchronised"))
    monkeypatch.setattr(doctor, "bus_checks", lambda resolved: [])
    assert doctor.run_doctor(str(tmp_path / where), None) == 1
    assert doctor.run_doctor(str(tmp_path / "fine" / "legatus"), None) == 0     # (made at the first start)
    assert not (tmp_path / "fine").exists()


def test_a_state_directory_this_user_may_not_write_in_is_a_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another user's state directory (the service's /var/lib/legatus read by the login user), its
    database left by a `sudo legatus` run, or a parent where it cannot be made: the device could not
    open it, and the doctor said "ok"; said in the device's words (the test runs as root: the
    permission is what os.access answers)."""
    state = tmp_path / "st"
    state.mkdir()
    (state / "legatus.db").write_bytes(b"")
    denied: set[Path] = set()
    monkeypatch.setattr(doctor.os, "access", lambda p, mode: Path(p) not in denied)
    # (the file system it is on is another row's matter: /tmp is a tmpfs on Raspberry Pi OS, "fail")
    monkeypatch.setattr(doctor, "mount_of", lambda path, mounts: None)
    assert storage_check(state).status == "info"
    for path in (state / "legatus.db", state):
        denied.add(path)
        check = storage_check(state)
        assert check.status == "fail" and check.fix is not None and "Legatus has no permission there" in check.fix
    denied = {tmp_path}
    assert storage_check(tmp_path / "new" / "legatus").status == "fail"
    assert storage_check(state).status == "info"


def test_a_config_file_that_is_not_there_is_not_to_be_corrected_or_deleted(tmp_path: Path) -> None:
    """`legatus doctor --config FILE` with a typo in FILE: the row said "create it or give another
    --config", and its fix "Correct it as docs/hardware.md shows, or delete it" (a file that is not
    there); now only that the built-in profile is used. A file that is there but wrong keeps that fix."""
    from firmware.i18n import say
    rows = {}
    for name, text in (("missing.toml", None), ("wrong.toml", 'profile = "nope"\n')):
        if text is not None:
            (tmp_path / name).write_text(text)
        checks = doctor.config_checks(resolve_config(str(tmp_path / name), {}, logged=False))
        rows[name] = next(c for c in checks if str(c.label) == "Config file")
    assert "does not exist; create it or give another --config" in str(rows["missing.toml"].found)
    assert str(rows["missing.toml"].fix) == "The built-in profile is used."
    assert say(rows["missing.toml"].fix, "ru") == "Использован встроенный профиль."
    assert say(rows["missing.toml"].fix, "uk") == "Використано вбудований профіль."
    assert "Correct it as docs/hardware.md shows, or delete it." in str(rows["wrong.toml"].fix)


def test_away_from_a_pi_the_pins_panel_and_buses_are_not_failures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`legatus doctor --config FILE` "checks a file anywhere" (README): on a laptop it also loaded
    the pin factory and opened the panel, and said "FAIL Pin factory … install python3-lgpio",
    "FAIL Panel", "FAIL I2C … raspi-config", exit status 1, for a machine where `legatus` runs the
    simulator, which needs none of them. There they are one row, not checked; on a Pi (or with
    GPIOZERO_PIN_FACTORY set) they are checked as before."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("hw.display.probe_hardware", lambda *_: False)

    def probe(*_: object) -> Live:
        raise AssertionError("the pins and the panel were probed on a machine that is no Pi")
    monkeypatch.setattr(doctor, "probe_live", probe)
    monkeypatch.setattr(doctor, "SERVICE_RUN_DIR", tmp_path / "no-service")
    monkeypatch.setattr(doctor, "clock_check", lambda: doctor.Check(doctor.Msg("Clock"), "ok", "synchronised"))
    config = tmp_path / "config.toml"
    config.write_text('profile = "waveshare-hat"\n')
    assert doctor.run_doctor(str(tmp_path / "st"), str(config)) == 0
    out = capsys.readouterr().out
    assert f"Profile: waveshare-hat (from the config file {config})" in out
    assert "     Pins, panel, buses: not checked: no Raspberry Pi here" in out
    assert "FAIL" not in out and "Pin factory" not in out and "I2C:" not in out and "raspi-config" not in out
    monkeypatch.setattr("hw.display.probe_hardware", lambda *_: True)          # on a Pi: all of them
    monkeypatch.setattr(doctor, "probe_live", lambda *_: Live(factory="LGPIOFactory", panel=True))
    doctor.run_doctor(str(tmp_path / "st"), str(config))
    out = capsys.readouterr().out
    assert "ok   Pin factory: LGPIOFactory" in out and "I2C:" in out and "not checked" not in out
    import fcntl                                            # a simulator holds the state directory:
    monkeypatch.setattr("hw.display.probe_hardware", lambda *_: False)          # no "service" on a laptop
    (tmp_path / "st").mkdir()
    with open(tmp_path / "st" / "lock", "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert doctor.run_doctor(str(tmp_path / "st"), str(config)) == 0
    out = capsys.readouterr().out
    assert "Service" not in out and "/var/lib/legatus" not in out and "Pins, panel, buses" in out


def test_the_simulators_hardware_screen_does_not_fail_a_laptops_buses(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings → Hardware in the simulator on a laptop showed "I2C ×" (a failure: turn it on with
    raspi-config); there the buses are the one row "not checked". On a Pi they are checked."""
    from tests.screens import app_with
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(doctor, "_live", None)          # (no device program ran here: an earlier test's findings)
    app = app_with([], [], tmp_path)
    try:
        monkeypatch.setattr("hw.display.probe_hardware", lambda *_: False)
        labels = [str(c.label) for c in app.hardware_checks()]
        assert "Pins, panel, buses" in labels and "I2C" not in labels and "SPI" not in labels
        assert not [c for c in app.hardware_checks() if c.status == "fail"]
        from firmware.i18n import say, set_language
        from firmware.screens import base
        for lang in ("en", "ru", "uk"):                  # the row is whole beside its mark (20 of 21)
            set_language(lang)
            assert all(len(say(c.label)) <= base.COLS - 1 for c in app.hardware_checks()), lang
        set_language("en")
        monkeypatch.setattr("hw.display.probe_hardware", lambda *_: True)
        labels = [str(c.label) for c in app.hardware_checks()]
        assert "I2C" in labels and "Pins, panel, buses" not in labels
    finally:
        app.console.close()


def test_a_state_directory_whose_name_is_too_long_is_said_not_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`legatus doctor --state-dir` with a name the system refuses (ENAMETOOLONG: a pasted path, a
    variable run together) ended in an OSError traceback from `Path.is_dir`, and the service check
    would have said a Legatus is "running as …" of it; now the Storage row says why it cannot be
    used, and nothing is said to run."""
    name = tmp_path / ("x" * 300)
    monkeypatch.setattr(doctor, "SERVICE_RUN_DIR", tmp_path / "no-service")
    monkeypatch.setattr(doctor, "probe_live", lambda *_: Live(factory="LGPIOFactory", panel=True))
    doctor.run_doctor(str(name), None)
    out = capsys.readouterr().out
    assert f"FAIL Storage: {name}\n     → Cannot use the state directory {name}: the name is too long." in out, out
    assert "Service" not in out and "Traceback" not in out
    from firmware.doctor_unit import held_elsewhere
    assert held_elsewhere(name, tmp_path / "no-service") is None


@pytest.mark.parametrize("lang, row", [
    ("en", "ok   Storage: {} (not there yet: made at the first start, ext4 on /)"),
    ("ru", "норма    Хранилище: {} (каталога ещё нет: он будет создан при первом запуске, ext4 на /)"),
    ("uk", "норма Сховище: {} (каталогу ще немає: його буде створено під час першого запуску, ext4 на /)"),
])
def test_a_state_directory_not_made_yet_is_said_to_be_made_at_the_first_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, row: str) -> None:
    """`legatus doctor --state-dir` of a directory that is not there yet said «ok Storage: <dir>
    (ext4 on /)», as if the games were kept there already: it says the device makes it at its first
    start (firmware/storage.py make_dirs), in the report's language, and makes nothing itself; once
    it is there the row is as before."""
    state = tmp_path / "new" / "legatus"
    monkeypatch.setenv("LANGUAGE", lang)
    monkeypatch.setattr(doctor, "mount_of", lambda path, mounts: mount_of(Path("/x"), MOUNTS_SD))
    out = _doctor_in(state, monkeypatch, capsys)
    assert row.format(state) in out.splitlines(), out
    assert not (tmp_path / "new").exists()
    check = storage_check(state)
    assert check.status == "ok" and check.fix is None
    state.mkdir(parents=True)
    found = storage_check(state).found
    assert (found.template, found.args) == ("{} ({} on {})", (str(state), "ext4", "/"))       # type: ignore[union-attr]
