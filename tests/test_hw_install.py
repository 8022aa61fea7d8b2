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
    assert f"/opt/legatus-test/venv/bin/pip install --upgrade {SCRIPTS.parent}" in out
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


def test_refuses_root_as_the_default_service_user() -> None:
    result = dry_run(env={"SUDO_USER": "root"})
    assert result.returncode == 1 and "pass --user NAME" in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--bogus"], "unknown option --bogus"),
    (["--user", "x", "--venv", "relative/venv"], "--venv must be an absolute path"),
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
