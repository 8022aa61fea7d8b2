"""The steps of scripts/pi_check.sh that run inside the emulated Raspberry Pi OS (as root).

1. ``sudo scripts/install-pi.sh`` as pi in ~/legatus, as written; nothing root-owned may be left in
   the checkout.
2. The installed unit (/etc/systemd/system/legatus.service) read for its conditions: User (with
   its groups), WorkingDirectory, Environment, StateDirectory and RuntimeDirectory created as
   systemd creates them, ExecStart. Every run of the device program below is under them, plus
   PYTHONPATH=/opt/pi-check/shim (the stand-ins for the Pi's hardware, shim/sitecustomize.py)
   and, where said, gpiozero's own mock pins.
3. The unit as it is (real pin factory): lgpio's pipe goes to the runtime directory.
4. A fake panel on I2C and mock pins: the first frame, a key, the panel unplugged (the program
   goes on) and plugged back (opened again), a late /dev/i2c-1, SIGTERM with no panel (exit 0).
5. A crash at start: the reason in legatus.log and on the panel at the next start.
6. The Waveshare profile from ~pi/.config/legatus/config.toml: SH1106 on SPI 0.0, KEY1 = GPIO21.
7. ``legatus doctor`` as a new owner would run it.
8. --tests quick: part of the test suite with the numpy and Pillow the install uses.

Prints "ok" or "FAIL" per step; exits with the number of failures. Nothing measured here is a
timing of a Pi.
"""
from __future__ import annotations

import argparse
import grp
import json
import os
import pwd
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CHECKOUT = Path("/home/pi/legatus")
UNIT = Path("/etc/systemd/system/legatus.service")
SHIM = Path("/opt/pi-check/shim")
CTRL = Path("/run/pi-check")
ADAFRUIT = {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}
failures = 0


def ok(what: str) -> None:
    print(f"ok    {what}", flush=True)


def fail(what: str) -> None:
    global failures
    failures += 1
    print(f"FAIL  {what}", flush=True)


def check(cond: bool, what: str) -> bool:
    (ok if cond else fail)(what)
    return cond


def step(title: str) -> None:
    print(f"\n--- {title}", flush=True)


# -- the unit's conditions -----------------------------------------------------------------------------
def parse_unit(text: str) -> dict[str, list[str]]:
    """The [Service] settings of a unit file: key -> values in order (pure; tested)."""
    out: dict[str, list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        if section == "Service" and "=" in line:
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def unit_environment(service: dict[str, list[str]], user: pwd.struct_passwd) -> dict[str, str]:
    """The environment systemd gives a system service with ``User=`` (systemd.exec(5)): PATH, the
    user's HOME/USER/LOGNAME/SHELL, the directories it created, then every Environment= line."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "HOME": user.pw_dir, "USER": user.pw_name, "LOGNAME": user.pw_name, "SHELL": user.pw_shell,
           "INVOCATION_ID": "0" * 32}
    for key, base in (("StateDirectory", "/var/lib"), ("RuntimeDirectory", "/run")):
        if key in service:
            env[key.replace("Directory", "_DIRECTORY").upper()] = ":".join(f"{base}/{d}" for v in service[key]
                                                                           for d in v.split())
    for value in service.get("Environment", []):
        for assignment in shlex.split(value):
            k, _, v = assignment.partition("=")
            env[k] = v
    return env


class Unit:
    def __init__(self, path: Path = UNIT) -> None:
        self.service = parse_unit(path.read_text())
        self.user = pwd.getpwnam(self.service["User"][0])
        self.groups = [g.gr_gid for g in grp.getgrall() if self.user.pw_name in g.gr_mem] + [self.user.pw_gid]
        self.cwd = self.service.get("WorkingDirectory", ["/"])[0]
        self.argv = shlex.split(self.service["ExecStart"][0])
        self.env = unit_environment(self.service, self.user)

    def make_dirs(self) -> None:
        """StateDirectory/RuntimeDirectory as systemd makes them: owned by the user, with the
        unit's StateDirectoryMode/RuntimeDirectoryMode (else 0755)."""
        for key, base in (("StateDirectory", "/var/lib"), ("RuntimeDirectory", "/run")):
            mode = int(self.service.get(key + "Mode", ["0755"])[0], 8)
            for d in " ".join(self.service.get(key, [])).split():
                path = Path(base) / d
                path.mkdir(parents=True, exist_ok=True)
                st = path.stat()
                if (st.st_uid, st.st_gid) != (self.user.pw_uid, self.user.pw_gid):
                    # another User= before (installed again with --user): systemd hands the
                    # whole tree to the new one
                    for sub in [path, *path.rglob("*")]:
                        os.chown(sub, self.user.pw_uid, self.user.pw_gid, follow_symlinks=False)
                path.chmod(mode)

    def stopped(self) -> None:
        """What systemd does when the service stops: RuntimeDirectory removed (the doctor takes a
        /run/legatus that is there for a running service)."""
        import shutil
        for d in " ".join(self.service.get("RuntimeDirectory", [])).split():
            shutil.rmtree(Path("/run") / d, ignore_errors=True)

    def start(self, log: Path, extra_env: dict[str, str] | None = None, argv: list[str] | None = None,
              without: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
        if argv is None:
            self.make_dirs()                   # (systemd makes them at every start of the service)
        user = self.user
        groups = self.groups

        umask = int(self.service.get("UMask", ["0022"])[0], 8)

        def drop() -> None:
            os.umask(umask)
            os.setgroups(groups)
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
        out = log.open("wb")
        env = {k: v for k, v in {**self.env, **(extra_env or {})}.items() if k not in without}
        return subprocess.Popen(argv or self.argv, cwd=self.cwd, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                preexec_fn=drop)


# -- helpers ---------------------------------------------------------------------------------------------
def wait_for(cond: Any, timeout: float, every: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(every)
    return bool(cond())


def panel() -> dict[str, Any]:
    try:
        return json.loads((CTRL / "panel.json").read_text())
    except (OSError, ValueError):
        return {}


def press(pin: int) -> None:
    n = time.monotonic_ns()
    (CTRL / f"press-{n}").write_text(str(pin))


_mark = 0     # where the current step's part of legatus.log starts


def log_text(state: Path) -> str:
    """legatus.log from the start of the current step (fresh_ctrl)."""
    try:
        return (state / "legatus.log").read_bytes()[_mark:].decode(errors="replace")
    except OSError:
        return ""


def stop(proc: subprocess.Popen[bytes], timeout: float = 120) -> int | None:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return None


def vm_hwm(pid: int) -> str:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def fresh_ctrl(*flags: str, state: Path = Path("/var/lib/legatus")) -> None:
    """A clean control directory (with ``flags`` set), and the log read from here on."""
    global _mark
    try:
        _mark = (state / "legatus.log").stat().st_size
    except OSError:
        _mark = 0
    CTRL.mkdir(parents=True, exist_ok=True)
    for p in CTRL.iterdir():
        p.unlink()
    owner = pwd.getpwnam("pi")                 # the service's user writes panel.json, takes presses
    os.chown(CTRL, owner.pw_uid, owner.pw_gid)
    for flag in flags:
        (CTRL / flag).touch()


def run(cmd: str, timeout: float = 3600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=timeout)


# -- the steps --------------------------------------------------------------------------------------------
def install() -> bool:
    step("install: as pi, sudo scripts/install-pi.sh (as written)")
    t0 = time.monotonic()
    got = run("su - pi -c 'cd ~/legatus && sudo scripts/install-pi.sh' 2>&1")
    Path("/root/install.log").write_text(got.stdout)
    print("    " + "\n    ".join(got.stdout.strip().splitlines()[-12:]))
    done = check(got.returncode == 0, f"install-pi.sh exit status {got.returncode} "
                                      f"({time.monotonic() - t0:.0f} s emulated; full output /root/install.log)")
    built = [line for line in got.stdout.splitlines() if "Building wheel for" in line or "gcc" in line]
    check(all("legatus" in line for line in built), "nothing compiled but Legatus' own pure-Python wheel"
          + (f" ({'; '.join(built)})" if built else ""))
    owned = run(f"find {CHECKOUT} ! -user pi -printf '%u %p\\n' | head -5").stdout.strip()
    check(not owned, "nothing root-owned left in the checkout" + (f": {owned}" if owned else ""))
    fifo = run("ls -la /.lgd-nfy* 2>/dev/null").stdout.strip()
    check(not fifo, "no lgpio pipe left in /" + (f": {fifo}" if fifo else ""))
    versions = run("dpkg-query -W -f='${Package} ${Version}\\n' python3-numpy python3-pil python3-cbor2 "
                   "python3-lgpio python3-rpi-lgpio 2>/dev/null").stdout.strip()
    print("    " + versions.replace("\n", "\n    "))
    cfg = Path("/boot/firmware/config.txt").read_text()
    check("dtparam=i2c_arm=on" in cfg and "dtparam=spi=on" in cfg and "dtparam=i2c_arm_baudrate=400000" in cfg,
          "config.txt: I2C and SPI on, I2C at 400 kHz (via the raspi-config stand-in and the installer)")
    return done


def unit_as_is(unit: Unit) -> None:
    step("the unit as installed, real pin factory (no GPIO chip in emulation)")
    print("    " + " ".join(f"{k}={v}" for k, v in sorted(unit.env.items()) if k not in ("INVOCATION_ID",)))
    print(f"    User={unit.user.pw_name} groups={','.join(grp.getgrgid(g).gr_name for g in unit.groups)} "
          f"WorkingDirectory={unit.cwd} ExecStart={' '.join(unit.argv)}")
    unit.make_dirs()
    state = Path(unit.env.get("LEGATUS_STATE_DIR", "/var/lib/legatus"))
    fresh_ctrl()
    out = Path("/root/device-real-pins.log")
    proc = unit.start(out, {"PYTHONPATH": str(SHIM), "PI_CHECK_CTRL": str(CTRL)})
    started = wait_for(lambda: "buttons:" in log_text(state), 300)
    code = stop(proc)
    text = out.read_text(errors="replace")
    check(started, "the device program starts under the unit's conditions")
    check("xCreatePipe" not in text and "Can't set permissions" not in text, "no lgpio pipe error (gpiozero#1106)")
    pipes = run("ls -a /run/legatus /var/lib/legatus / 2>/dev/null | grep -c lgd-nfy || true").stdout.strip()
    where = run("ls -d /run/legatus/.lgd-nfy* 2>/dev/null").stdout.strip()
    print(f"    lgpio pipes: {where or 'none created'} (total found: {pipes})")
    buttons = [line for line in log_text(state).splitlines() if "buttons:" in line]
    print("    " + (buttons[-1] if buttons else "(no buttons line)"))
    check(code == 0, f"SIGTERM: exit status {code}")


def panel_comes_and_goes(unit: Unit) -> None:
    step("a fake I2C panel, mock pins: keys, unplug, plug back, late bus, SIGTERM with no panel")
    state = Path(unit.env.get("LEGATUS_STATE_DIR", "/var/lib/legatus"))
    fresh_ctrl("no-bus")                        # /dev/i2c-1 not there yet at boot
    out = Path("/root/device-mock.log")
    env = {"PYTHONPATH": str(SHIM), "PI_CHECK_CTRL": str(CTRL), "GPIOZERO_PIN_FACTORY": "mock"}
    t0 = time.monotonic()
    proc = unit.start(out, env)
    check(wait_for(lambda: "display:" in log_text(state), 300), "starts with no /dev/i2c-1 (logged, goes on)")
    (CTRL / "no-bus").unlink()
    check(wait_for(lambda: panel().get("on") is True, 60), "the bus appears: the panel is opened and shows a frame "
          f"({time.monotonic() - t0:.0f} s after start, emulated)")
    before = panel().get("data_bytes", 0)
    press(ADAFRUIT["down"])
    check(wait_for(lambda: panel().get("data_bytes", 0) > before, 30), "a key press reaches the panel")
    (CTRL / "unplugged").touch()
    press(ADAFRUIT["down"])
    check(wait_for(lambda: "redraw failed" in log_text(state) or "check failed" in log_text(state), 60),
          "panel unplugged: the failure is logged")
    time.sleep(2)
    check(proc.poll() is None, "the program goes on without the panel")
    inits = panel().get("inits", 0)
    (CTRL / "unplugged").unlink()
    check(wait_for(lambda: panel().get("inits", 0) > inits and panel().get("on") is True, 60),
          "panel plugged back: initialised again and showing a frame")
    check(wait_for(lambda: "answers again" in log_text(state), 30),    # (the panel thread shows the frame first,
          "... and the log says so")                                   # the main loop logs what came of it next)
    print(f"    memory (VmHWM of the emulated process, qemu's own figure: an upper bound): {vm_hwm(proc.pid)}")
    (CTRL / "unplugged").touch()
    code = stop(proc)
    check(code == 0, f"SIGTERM with the panel gone: exit status {code}")
    check("stop: legatus ended normally" in log_text(state), "the stop is logged in the state directory")


def crash_and_next_start(unit: Unit) -> None:
    step("a crash at start, then the next start")
    state = Path(unit.env.get("LEGATUS_STATE_DIR", "/var/lib/legatus"))
    env = {"PYTHONPATH": str(SHIM), "PI_CHECK_CTRL": str(CTRL), "GPIOZERO_PIN_FACTORY": "mock"}
    fresh_ctrl("crash")
    proc = unit.start(Path("/root/device-crash.log"), env)
    code = proc.wait(300)
    check(code == 1, f"the injected crash ends the program with status {code} (Restart=on-failure applies)")
    check("CRITICAL" in log_text(state) and "a crash injected at start" in log_text(state),
          "the reason is in legatus.log (kept over a reboot; the journal is in RAM)")
    fresh_ctrl()
    proc = unit.start(Path("/root/device-after-crash.log"), env)
    check(wait_for(lambda: "previous run stopped with an error" in log_text(state), 300),
          "the next start reports it (on the panel and in the log)")
    stop(proc)


def waveshare(unit: Unit) -> None:
    step("the Waveshare profile from ~pi/.config/legatus/config.toml")
    state = Path(unit.env.get("LEGATUS_STATE_DIR", "/var/lib/legatus"))
    config = Path(unit.user.pw_dir) / ".config" / "legatus" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('profile = "waveshare-hat"\n')
    run(f"chown -R pi: {config.parent.parent}")
    fresh_ctrl("unplugged")          # nothing answers on I2C with this HAT (the splash tries there first)
    env = {"PYTHONPATH": str(SHIM), "PI_CHECK_CTRL": str(CTRL), "GPIOZERO_PIN_FACTORY": "mock"}
    proc = unit.start(Path("/root/device-waveshare.log"), env)
    check(wait_for(lambda: panel().get("bus") == "spi-0.0" and panel().get("on") is True, 300),
          f"a frame is shown on the SPI 0.0 panel (bus: {panel().get('bus')})")
    check("profile waveshare-hat (from file), sh1106 on spi" in log_text(state), "profile waveshare-hat from the file: SH1106")
    before = panel().get("data_bytes", 0)
    press(21)                                                   # KEY1 = A on the Waveshare HAT
    press(19)                                                   # down
    check(wait_for(lambda: panel().get("data_bytes", 0) > before, 30), "KEY1/joystick on the Waveshare pins reach the panel")
    check(stop(proc) == 0, "SIGTERM: exit status 0")
    unit.stopped()
    # as the installer's last line says: sudo -u USER LEGATUS_STATE_DIR=/var/lib/legatus legatus doctor
    doctor = unit.start(Path("/root/doctor.log"), {"PYTHONPATH": str(SHIM), "PI_CHECK_CTRL": str(CTRL)},
                        argv=[unit.argv[0], "doctor"], without=("LG_WD",))
    doctor.wait(300)
    step("legatus doctor (as the service's user, its state directory, real pin factory)")
    print(Path("/root/doctor.log").read_text(errors="replace").rstrip())
    check("Profile: waveshare-hat (from the config file" in Path("/root/doctor.log").read_text(), "doctor names the file's profile")
    config.unlink()


def quick_tests(venv_python: str) -> None:
    step("tests with the installed numpy and Pillow (Debian's)")
    got = run("su - pi -c 'python3 -m pip install -q --no-warn-script-location --only-binary=:all: "
              "--target ~/.pi-check-pytest pytest hypothesis' 2>&1 | tail -3")
    print("    " + got.stdout.strip().replace("\n", "\n    "))
    files = ("tests/test_hw_*.py tests/test_doctor.py tests/test_logs.py tests/test_screens.py "
             "tests/test_jc_odds_fast.py tests/test_history.py tests/test_device_loop.py")
    got = run(f"su - pi -c 'cd ~/legatus && PYTHONPATH=$HOME/.pi-check-pytest {venv_python} -m pytest -q "
              f"-p no:cacheprovider {files}' 2>&1 | tail -15", timeout=7200)
    print("    " + got.stdout.strip().replace("\n", "\n    "))
    last = got.stdout.strip().splitlines()[-1] if got.stdout.strip() else ""
    check(" passed" in last and "failed" not in last and "error" not in last, f"pytest: {last}")
    versions = run(f"{venv_python} -c 'import numpy, PIL; print(\"numpy\", numpy.__version__, \"Pillow\", PIL.__version__)'")
    print(f"    with {versions.stdout.strip()}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", required=True)
    parser.add_argument("--tests", default="quick")
    args = parser.parse_args()
    print(f"Debian {Path('/etc/debian_version').read_text().strip()} {args.arch}, "
          f"{os.uname().machine} under qemu-user", flush=True)
    if not install():
        return failures
    unit = Unit()
    unit_as_is(unit)
    panel_comes_and_goes(unit)
    crash_and_next_start(unit)
    waveshare(unit)
    if args.tests == "quick":
        quick_tests(str(Path(unit.argv[0]).parent / "python"))
    print(f"\n{args.arch}: {failures} failure(s)", flush=True)
    return failures


if __name__ == "__main__":
    sys.exit(main())
