"""scripts/install-pi.sh and scripts/legatus.service: syntax and the --dry-run plan."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
INSTALL = SCRIPTS / "install-pi.sh"


def dry_run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})


def test_bash_syntax() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_shellcheck_clean() -> None:
    out = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_dry_run_plans_groups_venv_and_unit() -> None:
    result = dry_run("--user", "legatus-test", "--venv", "/opt/legatus-test/venv")
    assert result.returncode == 0, result.stderr
    out = result.stdout + result.stderr
    for group in ("gpio", "i2c", "spi", "dialout"):
        assert group in out
    assert "usermod -aG" in out and "legatus-test" in out
    assert "raspi-config nonint do_i2c 0" in out or "dtparam=i2c_arm=on" in out
    assert "python3 -m venv --system-site-packages /opt/legatus-test/venv" in out
    # installed from a copy, wheels only: nothing is built (or left root-owned) in the checkout
    assert f"+ copy {SCRIPTS.parent} to /tmp/legatus-src." in out
    assert "/opt/legatus-test/venv/bin/pip install --upgrade --only-binary=:all: /tmp/legatus-src." in out
    for pkg in ("python3-numpy", "python3-pil", "python3-cbor2"):      # no armv7l wheels on PyPI
        assert pkg in (SCRIPTS / "install-pi.sh").read_text()
    assert "/etc/systemd/system/legatus.service" in out
    for line in ("User=legatus-test", "ExecStart=/opt/legatus-test/venv/bin/legatus",
                 "Restart=on-failure", "Environment=LEGATUS_STATE_DIR=/var/lib/legatus"):
        assert f"\n{line}\n" in result.stdout
    assert not any(p in out for p in ("@USER@", "@VENV@", "@ARGS@"))
    assert "systemctl enable legatus.service" in out


def test_serial_option_serves_the_console_from_the_unit() -> None:
    result = dry_run("--user", "legatus-test", "--serial", "/dev/ttyGS0")
    assert "\nExecStart=/opt/legatus/venv/bin/legatus --serial /dev/ttyGS0\n" in result.stdout


def test_dry_run_changes_nothing(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    assert dry_run("--user", "legatus-test", "--venv", str(venv)).returncode == 0
    assert not venv.exists()


def test_an_overlay_file_system_is_refused_before_anything_is_installed(tmp_path: Path) -> None:
    """With raspi-config's overlay file system on, everything the script installed (packages, the
    venv, the unit) was written to RAM and gone at the next boot: the service never came back, and
    nothing said why. The script refuses, saying how to turn it off (a dry run warns)."""
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "cmdline").write_text("console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 boot=overlay fsck.repair=yes\n")
    env = {"LEGATUS_PROC": str(proc), "LEGATUS_UNIT_DIR": str(tmp_path / "units")}
    real = subprocess.run(["bash", str(INSTALL), "--user", "legatus-no-such-user", "--venv", str(tmp_path / "venv")],
                          capture_output=True, text=True, timeout=60, env={**os.environ, **env})
    assert real.returncode == 1 and "overlay file system is on" in real.stderr
    assert "disable_overlayfs" in real.stderr and "==>" not in real.stdout          # no step was begun
    assert not (tmp_path / "venv").exists() and not (tmp_path / "units").exists()
    planned = dry_run("--user", "legatus-test", env=env)
    assert planned.returncode == 0 and "warning: the overlay file system is on" in planned.stderr
    (proc / "cmdline").write_text("console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes\n")
    assert "overlay" not in dry_run("--user", "legatus-test", env=env).stderr


def test_refuses_root_as_the_default_service_user() -> None:
    result = dry_run(env={"SUDO_USER": "root"})
    assert result.returncode == 1 and "pass --user NAME" in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--bogus"], "unknown option --bogus"),
    (["--user", "x", "--venv", "relative/venv"], "--venv must be an absolute path"),
    # what the unit's ExecStart= cannot carry: systemd would run "/opt/my" at every start
    (["--user", "x", "--venv", "/opt/my venv"], "--venv may hold only letters"),
    (["--user", "x", "--venv", "/opt/a&b/venv"], "--venv may hold only letters"),
    (["--user", "x", "--serial", "ttyGS0"], "--serial takes a device path such as /dev/ttyGS0"),
    (["--user", "x", "--serial", "/dev/ttyGS0 --baud 9600"], "--serial may hold only letters"),
])
def test_bad_options_are_refused(args: list[str], message: str) -> None:
    result = dry_run(*args)
    assert result.returncode == 2 and message in result.stderr


def test_unit_template_restarts_on_failure() -> None:
    unit = (SCRIPTS / "legatus.service").read_text(encoding="utf-8")
    assert "Restart=on-failure" in unit.splitlines()
    assert "ExecStart=@VENV@/bin/legatus@ARGS@" in unit.splitlines()
    assert "User=@USER@" in unit.splitlines()
    assert "WantedBy=multi-user.target" in unit.splitlines()


def unit_sections() -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    section = ""
    for line in (SCRIPTS / "legatus.service").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out.setdefault(section, {}).setdefault(key, []).append(value)
    return out


def test_unit_runs_in_a_writable_directory_for_lgpio() -> None:
    """lgpio makes its notification pipe in $LG_WD or the working directory; in / an ordinary
    user cannot (gpiozero#1106): the unit gives it directories systemd creates for that user."""
    service = unit_sections()["Service"]
    assert service["StateDirectory"] == ["legatus"] and service["RuntimeDirectory"] == ["legatus"]
    assert service["WorkingDirectory"] == ["/var/lib/legatus"]
    env = dict(e.split("=", 1) for e in service["Environment"])
    assert env["LG_WD"] == "/run/legatus" and env["LEGATUS_STATE_DIR"] == "/var/lib/legatus"



def test_unit_keeps_the_state_directory_from_other_users() -> None:
    """/var/lib/legatus holds each running game's secret seed (docs/fairness.md §9): systemd makes
    it 0700 (also when it already exists), and every file the service creates is its user's only."""
    service = unit_sections()["Service"]
    assert service["StateDirectoryMode"] == ["0700"]
    assert service["UMask"] == ["0077"]


def test_unit_start_limit_stops_a_crash_loop() -> None:
    """RestartSec × StartLimitBurst fits inside StartLimitIntervalSec, so a program that dies at
    every start is left stopped instead of restarting for ever."""
    sections = unit_sections()
    unit, service = sections["Unit"], sections["Service"]
    burst = int(unit["StartLimitBurst"][0])
    interval = float(unit["StartLimitIntervalSec"][0])
    assert burst >= 2 and float(service["RestartSec"][0]) * burst < interval
    assert "systemd-modules-load.service" in unit["After"][0]      # i2c-dev is loaded by then


# -- the I2C clock in the boot config ---------------------------------------------------------------
STOCK = ("# For more options see http://rpf.io/configtxt\n"
         "#dtparam=i2c_arm_baudrate=10000\n"
         "dtparam=audio=on\n"
         "[cm4]\n"
         "otg_mode=1\n")


def install(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60)


def test_dry_run_shows_the_i2c_clock_and_changes_nothing(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text(STOCK)
    result = dry_run("--user", "legatus-test", "--boot-config", str(boot))
    assert result.returncode == 0, result.stderr
    assert f"+ edit {boot}: append [all] and dtparam=i2c_arm_baudrate=400000\n" in result.stdout
    assert boot.read_text() == STOCK


def test_i2c_clock_is_set_once_under_all(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text(STOCK)
    first = install("--only-i2c", "--boot-config", str(boot))
    assert first.returncode == 0, first.stderr
    text = boot.read_text()
    assert text.startswith(STOCK)                       # nothing else touched, the comment kept
    added = text[len(STOCK):].splitlines()
    assert added[0] == "[all]" and added[-1] == "dtparam=i2c_arm_baudrate=400000"  # not under [cm4]
    assert (tmp_path / "config.txt.legatus-bak").read_text() == STOCK
    second = install("--only-i2c", "--boot-config", str(boot))
    assert second.returncode == 0 and "already has dtparam=i2c_arm_baudrate=400000" in second.stdout
    assert boot.read_text() == text                     # a second run changes nothing
    dry = dry_run("--only-i2c", "--boot-config", str(boot))
    assert "+ edit" not in dry.stdout and "already has" in dry.stdout


def test_existing_i2c_clock_is_changed_in_place(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=i2c_arm=on,i2c_arm_baudrate=100000\n#dtparam=i2c_arm_baudrate=1\n")
    dry = dry_run("--only-i2c", "--boot-config", str(boot))
    assert (f"+ edit {boot}: dtparam=i2c_arm=on,i2c_arm_baudrate=100000 -> "
            "dtparam=i2c_arm=on,i2c_arm_baudrate=400000") in dry.stdout
    assert install("--only-i2c", "--boot-config", str(boot)).returncode == 0
    assert boot.read_text() == "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n#dtparam=i2c_arm_baudrate=1\n"


def test_one_megahertz_is_allowed_with_a_warning(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=i2c_arm_baudrate=400000\n")
    result = install("--only-i2c", "--boot-config", str(boot), "--i2c-baudrate", "1000000")
    assert result.returncode == 0 and "docs/hardware.md" in result.stderr
    assert boot.read_text() == "dtparam=i2c_arm_baudrate=1000000\n"


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--i2c-baudrate", "4e5"], 2, "--i2c-baudrate must be a speed in Hz"),
    (["--i2c-baudrate", "0"], 2, "--i2c-baudrate must be a speed in Hz"),
    (["--boot-config", "/nonexistent/config.txt"], 1, "no such file"),
])
def test_bad_i2c_options_are_refused(args: list[str], code: int, message: str) -> None:
    result = dry_run("--only-i2c", *args)
    assert result.returncode == code and message in result.stderr


# -- scripts/pi_check: the pure pieces (the check itself runs under emulation, not in the suite) ---
def _drive():
    import importlib.util
    spec = importlib.util.spec_from_file_location("pi_check_drive", SCRIPTS / "pi_check" / "drive.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pi_check_reads_the_units_conditions() -> None:
    import pwd
    drive = _drive()
    unit = (SCRIPTS / "legatus.service").read_text().replace("@USER@", "pi").replace("@VENV@", "/opt/legatus/venv") \
        .replace("@ARGS@", " --serial /dev/ttyGS0")
    service = drive.parse_unit(unit)
    assert service["User"] == ["pi"] and service["WorkingDirectory"] == ["/var/lib/legatus"]
    assert service["ExecStart"] == ["/opt/legatus/venv/bin/legatus --serial /dev/ttyGS0"]
    user = pwd.struct_passwd(("pi", "x", 1000, 1000, "", "/home/pi", "/bin/bash"))
    env = drive.unit_environment(service, user)
    assert env["HOME"] == "/home/pi" and env["USER"] == "pi" and env["LG_WD"] == "/run/legatus"
    assert env["STATE_DIRECTORY"] == "/var/lib/legatus" and env["RUNTIME_DIRECTORY"] == "/run/legatus"
    assert env["PATH"].startswith("/usr/local/sbin:") and "PYTHONPATH" not in env


def test_pi_check_syntax() -> None:
    subprocess.run(["bash", "-n", str(SCRIPTS / "pi_check.sh")], check=True)
    subprocess.run(["sh", "-n", str(SCRIPTS / "pi_check" / "raspi-config")], check=True)


def test_raspi_config_stand_in_edits_config_txt_as_raspi_config_does(tmp_path: Path) -> None:
    """The emulated check's stand-in turns I2C/SPI on in the boot config (the real one also
    loads the modules, which emulation cannot)."""
    script = (SCRIPTS / "pi_check" / "raspi-config").read_text()
    boot = tmp_path / "config.txt"
    boot.write_text("#dtparam=i2c_arm=on\n#dtparam=spi=on\ndtparam=audio=on\n")
    modules = tmp_path / "modules"
    patched = tmp_path / "raspi-config"
    patched.write_text(script.replace("/boot/firmware/config.txt", str(boot)).replace("/etc/modules", str(modules)))
    for args in (["nonint", "do_i2c", "0"], ["nonint", "do_spi", "0"]):
        subprocess.run(["sh", str(patched), *args], check=True)
    assert boot.read_text() == "dtparam=i2c_arm=on\ndtparam=spi=on\ndtparam=audio=on\n"
    assert modules.read_text() == "i2c-dev\n"
    assert subprocess.run(["sh", str(patched), "nonint", "do_boot_behaviour", "B1"]).returncode == 1


# -- a real run (not --dry-run) with the system's commands stood in for ------------------------
STUBS = {
    "id": 'case "$*" in "-u") echo 0 ;; "-un") echo root ;; "-u "*) echo 1000 ;; "-nG "*) echo "$2 gpio i2c spi dialout" ;; esac',
    "dpkg-query": "echo 'install ok installed'",
    "getent": "echo \"$2:x:900:\"",
}


def stubbed_install(tmp_path: Path, pip: str, *args: str, stubs: dict[str, str] | None = None,
                    venv_option: bool = True) -> tuple[subprocess.CompletedProcess[str], Path]:
    """install-pi.sh as root would run it, every system command a stub that logs its arguments
    (``pip``: the venv's pip's shell body; ``stubs``: other commands' bodies), the venv and the
    unit under ``tmp_path`` (``venv_option``: the venv named with --venv; else only by the unit
    already there, if any)."""
    bodies = {**STUBS, **(stubs or {})}
    bin_dir, venv, units = tmp_path / "bin", tmp_path / "venv", tmp_path / "units"
    calls = tmp_path / "calls.log"
    for d in (bin_dir, venv / "bin", units):
        d.mkdir(parents=True, exist_ok=True)
    # (python3 and mkdir too: a venv made anywhere else than under tmp_path is logged, never made)
    for name in ("apt-get", "raspi-config", "usermod", "systemctl", "chown", "id", "dpkg-query", "getent", "pip",
                 "python3", "mkdir"):
        where = venv / "bin" if name == "pip" else bin_dir
        body = pip if name == "pip" else bodies.get(name, "")
        (where / name).write_text(f'#!/bin/sh\necho "{name} $*" >> {calls}\n{body}\n')
        (where / name).chmod(0o755)
    (venv / "bin" / "python").write_text("#!/bin/sh\n")
    (venv / "bin" / "python").chmod(0o755)
    boot = tmp_path / "config.txt"
    boot.write_text("[all]\ndtparam=i2c_arm_baudrate=400000\n")
    got = subprocess.run(["bash", str(INSTALL), "--user", "legatus-test", *(("--venv", str(venv)) if venv_option else ()),
                          "--boot-config", str(boot), *args], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
                              "LEGATUS_UNIT_DIR": str(units)})
    return got, calls


def test_an_upgrade_without_a_network_installs_from_what_is_there(tmp_path: Path) -> None:
    """pip's isolated build fetches setuptools from PyPI: offline it fails, and the newer
    checkout is then installed from the venv's dependencies and Debian's setuptools
    (--no-index --no-build-isolation); the unit is written and the service restarted."""
    offline_pip = 'case "$*" in *--no-index*) exit 0 ;; *) echo "No matching distribution found for setuptools>=64" >&2; exit 1 ;; esac'
    got, calls = stubbed_install(tmp_path, offline_pip)
    assert got.returncode == 0, got.stdout + got.stderr
    pips = [line for line in calls.read_text().splitlines() if line.startswith("pip ")]
    assert len(pips) == 2 and "--no-index --no-build-isolation" in pips[1] and "--no-index" not in pips[0]
    assert "no network?" in got.stderr
    assert "User=legatus-test" in (tmp_path / "units" / "legatus.service").read_text()
    assert "systemctl enable legatus.service" in calls.read_text()


def test_an_install_that_cannot_get_what_it_needs_says_so_and_leaves_the_unit(tmp_path: Path) -> None:
    got, calls = stubbed_install(tmp_path, "exit 1")
    assert got.returncode == 1
    assert "connect the Pi to the network and run this script again" in got.stderr
    assert not (tmp_path / "units" / "legatus.service").exists() and "systemctl" not in calls.read_text()


def test_an_online_install_makes_one_isolated_build(tmp_path: Path) -> None:
    got, calls = stubbed_install(tmp_path, "exit 0")
    assert got.returncode == 0, got.stderr
    pips = [line for line in calls.read_text().splitlines() if line.startswith("pip ")]
    assert len(pips) == 1 and "--no-build-isolation" not in pips[0] and "--only-binary=:all:" in pips[0]
    assert "no network?" not in got.stderr


OFFLINE_APT = {
    "dpkg-query": "echo 'unknown ok not-installed'",           # a fresh image: nothing of ours yet
    "apt-get": 'case "$1" in update) echo "W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease'
               '  Temporary failure resolving \'deb.debian.org\'" >&2; exit 0 ;;'
               ' install) echo "E: Unable to locate package python3-lgpio" >&2; exit 100 ;; esac',
}


def test_a_fresh_install_without_a_network_says_to_connect_it_and_changes_nothing(tmp_path: Path) -> None:
    """Offline on a fresh image apt cannot fetch the packages: the script stopped at apt's own
    "Unable to locate package" (or "maybe run apt-get update or try with --fix-missing?"), nothing
    said about the network. Now it says what is missing and what to do, and stops before anything
    else is changed (no groups, no venv, no unit)."""
    got, calls = stubbed_install(tmp_path, "exit 0", stubs=OFFLINE_APT)
    assert got.returncode == 1, got.stdout + got.stderr
    assert "apt-get could not install python3-venv" in got.stderr
    assert "connect the Pi to the network" in got.stderr and "run this script again" in got.stderr
    made = [line.split()[0] for line in calls.read_text().splitlines()]
    assert "apt-get" in made
    assert not {"usermod", "pip", "systemctl", "raspi-config"} & set(made), made
    assert not (tmp_path / "units" / "legatus.service").exists()


def test_an_apt_update_that_fails_still_tries_the_lists_already_there(tmp_path: Path) -> None:
    """apt-get update failing (a mirror down, no network) no longer ends the script by itself: the
    packages may install from the lists already on the card; the install goes on."""
    stubs = {**OFFLINE_APT, "apt-get": 'case "$1" in update) exit 100 ;; install) exit 0 ;; esac'}
    got, calls = stubbed_install(tmp_path, "exit 0", stubs=stubs)
    assert got.returncode == 0, got.stdout + got.stderr
    assert "apt-get update failed (no network?)" in got.stderr
    assert "systemctl enable legatus.service" in calls.read_text()


def test_running_it_again_to_upgrade_keeps_the_serial_console(tmp_path: Path) -> None:
    """"To upgrade, pull and rerun": run again without --serial, the unit was written without the
    console's port, and the serial console stopped after the upgrade without a word. The installed
    unit's port is kept (and said); --serial PORT changes it, --no-serial drops it."""
    got, _ = stubbed_install(tmp_path / "first", "exit 0", "--serial", "/dev/ttyGS0")
    assert got.returncode == 0, got.stderr
    unit = tmp_path / "first" / "units" / "legatus.service"
    assert "\nExecStart=" in unit.read_text() and " --serial /dev/ttyGS0\n" in unit.read_text()

    def again(*args: str) -> str:
        work = tmp_path / f"again{len(list(tmp_path.iterdir()))}"
        (work / "units").mkdir(parents=True)
        (work / "units" / "legatus.service").write_text(unit.read_text())
        got, calls = stubbed_install(work, "exit 0", *args)
        assert got.returncode == 0, got.stderr
        return got.stdout + "\n" + (work / "units" / "legatus.service").read_text()

    plain = again()
    assert " --serial /dev/ttyGS0\n" in plain and "keeping the serial console on /dev/ttyGS0" in plain
    assert " --serial /dev/serial0\n" in again("--serial", "/dev/serial0")
    assert "--serial" not in again("--no-serial").split("\nExecStart=", 1)[1]


def test_running_it_again_keeps_a_faster_i2c_clock_chosen_before(tmp_path: Path) -> None:
    """Installed with --i2c-baudrate 1000000, then run again to upgrade (no --i2c-baudrate): the clock
    went back to 400 kHz without a word ("+ edit" among the steps), against "running the installer
    again changes nothing". A faster clock set before is kept and said; --i2c-baudrate still changes
    it; the Pi's slower default is still raised to 400 kHz."""
    boot = tmp_path / "config.txt"
    boot.write_text(STOCK)
    assert install("--only-i2c", "--boot-config", str(boot), "--i2c-baudrate", "1000000").returncode == 0
    chosen = boot.read_text()
    again = install("--only-i2c", "--boot-config", str(boot))
    assert again.returncode == 0, again.stderr
    assert boot.read_text() == chosen and "dtparam=i2c_arm_baudrate=1000000" in chosen
    assert "keeping the I2C clock at 1000000 Hz" in again.stdout and "+ edit" not in again.stdout
    assert "beyond I2C fast mode" not in again.stderr
    back = install("--only-i2c", "--boot-config", str(boot), "--i2c-baudrate", "400000")
    assert back.returncode == 0 and boot.read_text() == chosen.replace("=1000000", "=400000")


def test_running_it_again_without_venv_keeps_the_installed_virtual_environment(tmp_path: Path) -> None:
    """Installed with --venv DIR, then run again to upgrade without it: a second virtual environment
    was made at the default /opt/legatus/venv and the unit pointed there, the first one left behind
    with the old version (as the serial port and the I2C clock were lost before). The installed
    unit's venv is kept (and said): upgraded in place, the unit unchanged; --venv DIR still changes it."""
    first = tmp_path / "first"
    got, _ = stubbed_install(first, "exit 0")
    assert got.returncode == 0, got.stderr
    unit = (first / "units" / "legatus.service").read_text()
    assert f"\nExecStart={first}/venv/bin/legatus\n" in unit
    again = tmp_path / "again"
    (again / "units").mkdir(parents=True)
    (again / "units" / "legatus.service").write_text(unit)
    got, calls = stubbed_install(again, "exit 0", venv_option=False)
    assert got.returncode == 0, got.stdout + got.stderr
    assert f"keeping the virtual environment {first}/venv (from the installed unit" in got.stdout
    assert (again / "units" / "legatus.service").read_text() == unit             # the same unit, the same venv
    assert f"+ {first}/venv/bin/pip install --upgrade" in got.stdout             # upgraded where it is
    assert "/opt/legatus" not in got.stdout + got.stderr and "-m venv" not in got.stdout
    other = tmp_path / "other"
    (other / "units").mkdir(parents=True)
    (other / "units" / "legatus.service").write_text(unit)
    got, _ = stubbed_install(other, "exit 0")                                    # --venv DIR: that one
    assert got.returncode == 0 and "keeping the virtual environment" not in got.stdout
    assert f"\nExecStart={other}/venv/bin/legatus\n" in (other / "units" / "legatus.service").read_text()
