"""``legatus doctor`` and Settings → Hardware: what the device found, and the fix for each problem.

:func:`gather` returns :class:`Check` rows: the resolved profile (and where it came from), the
keys' pins, the pin factory, the display and its bus speed, whether I2C and SPI are on, the state
directory's file system (an overlay or tmpfs root keeps nothing over a power cut), the clock, and
lgpio's working directory. Each row has a status (``ok``, ``warn``, ``fail`` or ``info``), what was
found, and for anything not ok the fix in words. Every sentence is a :class:`engine.text.Msg`, said
in the device's language by the caller.

The facts that only the running device knows (the pin factory it loaded, whether the panel answers)
come from :class:`Live`: the device program passes its own (:func:`set_live`) and also writes them to
``hardware.json`` in the state directory, so that ``legatus doctor`` run while the service holds the
state directory reports them instead of opening pins and bus itself.

The file-system and boot-config readers (:mod:`firmware.doctor_readers`) take their inputs as
arguments (the text of /proc/self/mounts, of the boot config, a sysfs root) so that they are tested
without a Pi.
"""
from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.text import Msg
from firmware.doctor_readers import (boot_params, card_refusal, file_names_profile, i2c_adapter, i2c_clock_hz, mount_of, not_there,
                                     read_boot_config, unusable_state_dir)

log = logging.getLogger(__name__)

STATUS_FILE = "hardware.json"
SERVICE_RUN_DIR = Path("/run/legatus")   # the unit's RuntimeDirectory: there while the service runs
VOLATILE_FS = ("overlay", "tmpfs", "ramfs", "squashfs", "aufs", "zram")


@dataclass(frozen=True)
class Check:
    """One line of the report: ``label`` (a few words), ``status`` (ok, warn, fail, info),
    ``found`` (what is there), ``fix`` (what to do; None when nothing needs doing)."""

    label: Msg
    status: str
    found: str
    fix: Msg | None = None


@dataclass(frozen=True)
class Resolved:
    """The hardware configuration the device uses: ``config`` (hw.config.Config), ``source``
    (``setting``, ``file`` or ``default``: where the profile came from) and ``problem`` (why the
    config file was ignored, or None)."""

    config: Any
    source: str
    problem: Msg | str | None = None
    missing: bool = False       # the config file named is not there (nothing to correct or delete)


@dataclass
class Live:
    """What the running device knows: the pin factory it loaded (or why none), whether the panel
    answers (and why not), and where lgpio keeps its pipe."""

    factory: str | None = None
    keys_error: Msg | str | None = None      # (the Msg of hw.buttons.ButtonError: said in the reader's language)
    panel: bool | None = None
    panel_error: Msg | str | None = None     # (the Msg of hw.display.DisplayError)
    lgpio_dir: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    dead_keys: dict[str, int] = field(default_factory=dict)     # keys whose pins did not open (the others work)
    panel_address: int | None = None         # the I2C address the panel answers at, when not the configured one
    panel_glitches: int = 0                  # transfers that failed once and went through again (1, 10, 100... at least)
    held_keys: dict[str, int] = field(default_factory=dict)     # keys pressed since their pins opened (held, or stuck)
    stuck_keys: dict[str, int] = field(default_factory=dict)    # keys held down for over a minute while running


_live: tuple[Live, Resolved] | None = None


def set_live(live: Live, resolved: Resolved) -> None:
    """The running device's facts, for Settings → Hardware."""
    global _live
    _live = (live, resolved)


def live() -> tuple[Live, Resolved] | None:
    return _live


def clear_live() -> None:
    """The device program ended (or a test did): Settings → Hardware reads the files again."""
    global _live
    _live = None


def write_status(directory: Path, live: Live, resolved: Resolved, language: str | None = None) -> None:
    """Keep ``live`` (and the resolved profile, and the device's language: the doctor cannot read
    the settings while the device holds the state directory) in ``directory/hardware.json`` for
    ``legatus doctor``; written only when it changed. A failure is logged, never raised."""
    from engine.text import to_data
    global _unwritten
    data = {"live": to_data(asdict(live)), "profile": resolved.config.profile, "source": resolved.source,
            "problem": resolved.problem, "language": language}      # (a Msg as its template and values)
    path = directory / STATUS_FILE
    try:
        if path.exists() and json.loads(path.read_text(encoding="utf-8")) == data:
            return
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
        _unwritten = None
    except (OSError, ValueError) as e:
        # (tried again at every check of the parts, every few seconds: said once while it fails the same way)
        said = f"{path}: {e}"
        log.log(logging.DEBUG if said == _unwritten else logging.WARNING, "doctor: cannot write %s (%s)", path, e)
        _unwritten = said


_unwritten: str | None = None
"""Why hardware.json could not be written the last time (a full or read-only card), if it could not."""


def read_status(directory: Path) -> tuple[Live, dict[str, Any]] | None:
    """What the running device wrote with :func:`write_status`, or None."""
    try:
        data = json.loads((directory / STATUS_FILE).read_text(encoding="utf-8"))
        from engine.text import from_data
        fields_ = {k: v for k, v in data["live"].items() if k in Live.__dataclass_fields__}
        for name in ("keys_error", "panel_error"):         # a sentence kept as data: said in the reader's language
            if isinstance(fields_.get(name), dict):
                said = from_data(fields_[name])
                fields_[name] = said if isinstance(said, str) else None
        return Live(**fields_), data
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


# -- the configuration ------------------------------------------------------------------------------
def resolve_config(config_arg: str | None, stored: Mapping[str, Any], logged: bool = True) -> Resolved:
    """The configuration as documented: the config file's profile and keys over the built-in
    default; the device's own Buttons/Display settings only if the user changed them on the
    device (``stored`` holds only settings that were set). A config file that cannot be used is
    reported in ``problem`` and the built-in profile is used, whatever the error; it is logged
    unless ``logged`` is False (``legatus doctor``: its "Config file" row says it in the device's
    language, and the log's English line on standard error said it again)."""
    from hw.config import ConfigError, builtin_config, load_config
    profile = stored.get("profile")
    profile = profile if isinstance(profile, str) else None
    problem: str | None = None
    missing = False
    try:
        config = load_config(Path(config_arg) if config_arg else None, profile=profile)
    except Exception as e:  # noqa: BLE001 - ConfigError, or anything a hostile file provokes
        said = e.args[0] if isinstance(e, ConfigError) and e.args else None      # (a Msg: said in the reader's language)
        problem = said if isinstance(said, str) else f"{type(e).__name__}: {e}"
        missing = isinstance(e.__context__, FileNotFoundError)
        log.log(logging.WARNING if logged else logging.INFO, "config: %s; using the built-in profile", problem)
        try:
            config = builtin_config(profile)
        except Exception as e2:  # noqa: BLE001 - the shipped profiles themselves are broken
            log.error("config: the built-in profiles cannot be read either (%s)", e2)
            raise
    driver = stored.get("driver")
    if isinstance(driver, str) and driver not in ("auto", config.display.driver):
        import dataclasses
        try:
            config = dataclasses.replace(config, display=dataclasses.replace(config.display, driver=driver))
        except (ConfigError, TypeError, ValueError) as e:
            log.warning("config: the Display setting %r cannot be used (%s)", driver, e)
    source = "setting" if profile is not None else ("file" if config.source is not None and problem is None
                                                    and file_names_profile(config.source) else "default")
    return Resolved(config=config, source=source, problem=problem, missing=missing)


# -- the checks -------------------------------------------------------------------------------------
def storage_check(state_dir: Path, mounts: str | None = None) -> Check:
    """Warn when nothing written to ``state_dir`` would survive a power cut (an overlay, tmpfs or
    read-only file system: raspi-config's "overlay file system" makes the root one)."""
    label = Msg("Storage")
    path = state_dir if state_dir.is_absolute() else Path.cwd() / state_dir
    system = mounts is None
    if mounts is None:          # (the system's own: whether this user can use the directory there too)
        unusable = unusable_state_dir(path)
        if unusable is not None:
            return Check(label, "fail", str(state_dir), Msg(
                "Cannot use the state directory {}: {}. Pick another with --state-dir or LEGATUS_STATE_DIR.",
                str(state_dir), unusable))
        try:
            mounts = Path("/proc/self/mounts").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return Check(label, "info", str(state_dir))
    mount = mount_of(path, mounts)
    if mount is None:
        return Check(label, "info", not_there(state_dir, path) or str(state_dir))
    found = (Msg("{} ({} on {}, read-only)", str(state_dir), mount.fstype, mount.point) if mount.read_only
             else not_there(state_dir, path, mount) or Msg("{} ({} on {})", str(state_dir), mount.fstype, mount.point))
    if mount.fstype in VOLATILE_FS:
        return Check(label, "fail", found, Msg(
            "Nothing saved here survives a power cut: {} is a {} file system (RAM). Turn the "
            "overlay file system off (sudo raspi-config nonint disable_overlayfs, then reboot) or "
            "set LEGATUS_STATE_DIR to a directory on the SD card.", mount.point, mount.fstype))
    if mount.read_only:
        return Check(label, "fail", found, Msg(
            "{} is mounted read-only: nothing can be saved. Remount it read-write or set "
            "LEGATUS_STATE_DIR to a writable directory.", mount.point))
    refused = card_refusal(state_dir, path, mount) if system else None      # (the mount may say rw: ask the card)
    if refused is not None:
        return Check(label, "fail", *refused)
    return Check(label, "ok", found)


def storage_warning(state_dir: Path) -> Msg | None:
    """The storage fix, if the state directory would lose everything at a power cut (for the log
    and the panel at start)."""
    check = storage_check(state_dir)
    return check.fix if check.status == "fail" else None


def clock_check(clock: Any = None, pi: bool | None = None) -> Check:
    """The wall clock's row (firmware/doctor_clock.py; ``pi``: whether this is a Raspberry Pi)."""
    from firmware.doctor_clock import clock_row
    return Check(Msg("Clock"), *clock_row(clock, pi))


def config_checks(resolved: Resolved) -> list[Check]:
    cfg = resolved.config
    source = {"setting": Msg("the device's Buttons setting"),
              "file": Msg("the config file {}", str(cfg.source)),
              "default": Msg("the built-in default")}[resolved.source]
    out = [Check(Msg("Profile"), "ok", Msg("{} (from {})", cfg.profile, source))]
    if resolved.problem:        # (a file not there: its row says to make it or name another, not to correct or delete it)
        out.append(Check(Msg("Config file"), "warn", resolved.problem, Msg("The built-in profile is used.") if resolved.missing
                         else Msg("The file was ignored and the built-in profile used. Correct it as docs/hardware.md "
                                  "shows, or delete it.")))
    pins = " ".join(f"{k}={v}" for k, v in cfg.pins.items())
    out.append(Check(Msg("Keys"), "info", Msg("BCM pins {}", pins)))
    d = cfg.display
    bus = f"I2C {d.port} ({d.address:#04x})" if d.interface == "i2c" else f"SPI {d.port}.{d.device} (DC {d.dc}, RST {d.rst})"
    out.append(Check(Msg("Display"), "info", Msg("{}, {}, rotated {}°", d.driver.upper(), bus, d.rotate * 90)))
    return out


def bus_checks(resolved: Resolved, dev: Path = Path("/dev"), sys_root: Path = Path("/sys"),
               boot: tuple[Path | None, str] | None = None) -> list[Check]:
    """I2C and SPI on (device nodes, boot config) and the I2C clock."""
    d = resolved.config.display
    boot_path, boot_text = boot if boot is not None else read_boot_config()
    params = boot_params(boot_text)
    out = []
    for kind, node, param, cmd in (("i2c", dev / f"i2c-{d.port if d.interface == 'i2c' else 1}", "i2c_arm", "do_i2c"),
                                   ("spi", dev / f"spidev{d.port if d.interface == 'spi' else 0}.{d.device if d.interface == 'spi' else 0}",
                                    "spi", "do_spi")):
        label = Msg("I2C") if kind == "i2c" else Msg("SPI")
        needed = d.interface == kind
        configured = params.get(param) == "on"
        if node.exists():
            out.append(Check(label, "ok", Msg("on ({})", str(node))))
        elif kind == "i2c" and i2c_adapter(d.port if needed else 1, sys_root):      # (a reboot changes nothing)
            out.append(Check(label, "fail" if needed else "info", Msg(
                "the bus is on but {} is missing: the i2c-dev module is not loaded", str(node)), Msg(
                "Load it: sudo modprobe i2c-dev (the device then finds the panel by itself); sudo raspi-config "
                "nonint do_i2c 0 loads it at every boot too.") if needed else None))
        elif configured:
            out.append(Check(label, "warn" if needed else "info", Msg("set in {} but {} is missing", str(boot_path), str(node)),
                             Msg("Reboot so that the setting takes effect.") if needed else None))
        else:
            out.append(Check(label, "fail" if needed else "info", Msg("off ({} is missing)", str(node)),
                             Msg("Turn it on: sudo raspi-config nonint {} 0, then reboot.", cmd) if needed else None))
    if d.interface == "i2c":
        hz = i2c_clock_hz(d.port, sys_root)
        wanted = params.get("i2c_arm_baudrate")
        if hz is None:
            found = (Msg("not known (boot config: {} Hz)", wanted) if wanted
                     else Msg("not known (boot config: 100000 Hz, the default)"))
            out.append(Check(Msg("Bus speed"), "info", found))
        elif hz < 400000:
            out.append(Check(Msg("Bus speed"), "warn", Msg("{} kHz", hz // 1000), Msg(
                "Every frame takes four times longer at 100 kHz. Set 400 kHz: sudo "
                "scripts/install-pi.sh --only-i2c, then reboot.")))
        else:
            out.append(Check(Msg("Bus speed"), "ok", Msg("{} kHz", hz // 1000)))
    else:
        out.append(Check(Msg("Bus speed"), "info", Msg("SPI at luma.core's 8 MHz")))
    return out


def live_checks(live: Live, resolved: Resolved, reported: bool) -> list[Check]:
    """The pin factory, the panel and lgpio's directory, as ``live`` says."""
    out = []
    if reported:
        out.append(Check(Msg("Service"), "info", Msg("running: the pins and the panel are as it reports them")))
    if live.factory:
        status = "warn" if live.factory == "MockFactory" else "ok"
        fix = Msg("Mock pins only simulate keys: unset GPIOZERO_PIN_FACTORY.") if status == "warn" else None
        out.append(Check(Msg("Pin factory"), status, live.factory, fix))
    else:
        from hw.keys import NO_ACCESS          # (that one says its own fix: the gpio group, not lgpio)
        out.append(Check(Msg("Pin factory"), "fail", Msg("none loaded: {}", live.keys_error or "?"),
                         None if getattr(live.keys_error, "template", None) == NO_ACCESS else Msg(
            "Install python3-lgpio (sudo apt install python3-lgpio), add the user to the gpio "
            "group, and run from a writable directory (the service does: WorkingDirectory, LG_WD).")))
    if live.factory and live.keys_error:         # the library loaded, but a key's pin did not open
        found: Msg | str = live.keys_error
        if live.dead_keys:
            from hw.keys import key_label
            found = Msg("not working: {keys} ({why})", plural="not working: {keys} ({why})", n=len(live.dead_keys),
                        keys=Msg.join([key_label(k, p) for k, p in live.dead_keys.items()]), why=live.keys_error)
        from hw.keys import NO_LIBRARY          # (that one says its own fix: install lgpio, not the pins)
        out.append(Check(Msg("Buttons"), "fail", found, None if getattr(found, "template", None) == NO_LIBRARY else Msg(
            "Check the keys' pins in the config file and that no other program or overlay uses "
            "them; the device tries to open the keys again by itself.")))
    from firmware.doctor_keys import held_rows
    out += [Check(Msg("Buttons"), *row) for row in held_rows(live)]
    from firmware.doctor_panel import panel_rows
    out += [Check(Msg("Panel"), *row) for row in panel_rows(live, resolved.config.display)]
    if live.lgpio_dir:
        out.append(Check(Msg("lgpio directory"), "info", live.lgpio_dir))
    return out


def board_check(model_path: Path = Path("/proc/device-tree/model")) -> Check:
    try:
        model = model_path.read_bytes().rstrip(b"\0").decode("utf-8", "replace")
    except OSError:
        return Check(Msg("Board"), "warn", Msg("not a Raspberry Pi (no {})", str(model_path)), Msg(
            "Here legatus runs the terminal simulator; on a Pi it drives the panel and keys."))
    return Check(Msg("Board"), "ok" if "Raspberry Pi" in model else "warn", model)


def on_a_pi() -> bool:
    """Whether the device's pins, panel and buses are this machine's to check: a Raspberry Pi
    (where ``legatus`` drives them), or ``GPIOZERO_PIN_FACTORY`` set (mock pins, a remote Pi)."""
    from hw.display import probe_hardware
    return probe_hardware() or bool(os.environ.get("GPIOZERO_PIN_FACTORY"))


def gather(state_dir: Path, resolved: Resolved, live: Live | None, reported: bool = False,
           buses: bool | None = None) -> list[Check]:
    """Every check, in the order a new owner reads them (``buses``: I2C and SPI too; by default
    on a Pi, or with the device's findings ``live``: the simulator's Settings → Hardware on a laptop
    said "I2C ×")."""
    if buses is None:
        buses = live is not None or on_a_pi()
    out = [board_check()] + config_checks(resolved)
    if live is not None:
        out += live_checks(live, resolved, reported)
    if buses:
        out += bus_checks(resolved)
    else:
        out.append(Check(Msg("Pins, panel, buses"), "info", Msg(
            "not checked: no Raspberry Pi here, and the simulator that runs here needs none")))
    from firmware.doctor_unit import serial_check
    out += [Check(Msg("Serial console"), *row) for row in (serial_check(),) if row is not None]
    out.append(storage_check(state_dir))
    out.append(clock_check())
    return out


# -- ``legatus doctor`` -----------------------------------------------------------------------------
MARKS = {"ok": Msg("ok"), "warn": Msg("WARN"), "fail": Msg("FAIL"), "info": ""}
"""The status column, in the report's language (a column as wide as its widest word there)."""


def render(checks: list[Check], say: Any = str) -> str:
    """The report as text: one line per check, the fix indented under it."""
    marks = {status: str(say(mark)) if mark else "" for status, mark in MARKS.items()}
    width = max(len(mark) for mark in marks.values())
    lines = []
    for c in checks:
        lines.append(f"{marks[c.status]:<{width}} {say(c.label)}: {say(c.found)}")
        if c.fix is not None:
            lines.append(f"{'':<{width + 1}}→ {say(c.fix)}")
    return "\n".join(lines)


def probe_live(state_dir: Path, resolved: Resolved) -> Live:
    """Load the pin factory and open the panel as the device would (only when no Legatus holds
    the state directory: the pins and the bus would be in use)."""
    from firmware.buttons_part import ensure_lgpio_workdir
    live = Live(lgpio_dir=ensure_lgpio_workdir(state_dir if _is_dir(state_dir) else Path("/tmp")))
    import warnings
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            from gpiozero import Device
            if Device.pin_factory is None:
                Device.pin_factory = Device._default_pin_factory()
            live.factory = type(Device.pin_factory).__name__
        except Exception as e:  # noqa: BLE001 - BadPinFactory and friends: that is the finding
            tried = "; ".join(str(w.message) for w in fallbacks)
            from hw.service import gpio_denied
            if (chip := gpio_denied()) is not None:     # (the user not in 'gpio': said as the device says it)
                from hw.keys import NO_ACCESS
                from hw.service import permission_denied
                live.keys_error = Msg(NO_ACCESS, reasons=tried or f"{e}", denied=permission_denied(chip, "gpio"))
            else:
                live.keys_error = f"{e}" + (f" ({tried})" if tried else "")
    try:
        from hw.display import open_display
        from hw.display import found_at
        device = open_display(resolved.config.display)
        live.panel, live.panel_address = True, found_at(device)
        device.cleanup()
    except Exception as e:  # noqa: BLE001 - DisplayError: that is the finding
        from firmware.hardware import reason
        live.panel, live.panel_error = False, reason(e)
    return live


def _language(stored: Mapping[str, Any], state_dir: Path) -> str:
    """The language the report is said in: the device's (Settings → Language, as the running
    service reported it or as the settings hold it); else, as `legatus` answers a command line
    (:func:`firmware.start_language.player_language`: the language stored in the state directory,
    read-only, else the locale's, else English). Settings that cannot be read said it in English."""
    from firmware.i18n import LANGUAGES
    lang = stored.get("language")
    if isinstance(lang, str) and lang in LANGUAGES:
        return lang
    from firmware.start_language import player_language
    return player_language(["--state-dir", str(state_dir)])


def _is_dir(path: Path) -> bool:
    """``path.is_dir()``, False where it cannot be looked at (a name too long, a parent this user may
    not enter: a traceback; the Storage row says why)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def run_doctor(state_dir_arg: str | None, config_arg: str | None) -> int:
    """``legatus doctor``: print the report in the device's language; exit 1 if anything failed."""
    from hw.splash import _in_use, state_dir as resolve_state_dir
    state_dir = resolve_state_dir(state_dir_arg).absolute()
    stored: dict[str, Any] = {}
    live: Live | None = None
    reported = False
    unreadable: Msg | str | None = None
    if _is_dir(state_dir) and _in_use(state_dir):
        got = read_status(state_dir)
        if got is not None:
            live, data = got
            reported = True
            if data.get("source") == "setting":
                stored["profile"] = data.get("profile")
            if isinstance(data.get("language"), str):
                stored["language"] = data["language"]      # (said in the device's language, as when it is stopped)
    elif _is_dir(state_dir):
        try:                    # (read only: a diagnosis never salvages, rolls back or makes a file)
            from firmware.store import DB_NAME
            from firmware.store.kept import read_settings
            stored = read_settings(state_dir / DB_NAME)
        except Exception as e:  # noqa: BLE001 - an unreadable store: report the rest anyway
            log.info("doctor: cannot read the settings in %s (%s)", state_dir, e)       # (a row says it)
            import sqlite3              # (the card's or SQLite's reason in the report's words; the log keeps its own)

            from firmware.store.reasons import reason
            unreadable = reason(e) if isinstance(e, (sqlite3.Error, OSError)) else f"{type(e).__name__}: {e}"
    lang = _language(stored, state_dir)
    resolved = resolve_config(config_arg, stored, logged=False)
    # Away from a Pi (`legatus doctor --config FILE` on a laptop) the pins, the panel and the buses
    # are not the device's: they were failures with a Pi's fixes (apt, raspi-config), exit status 1,
    # and a simulator using the state directory was "the service", to be asked as /var/lib/legatus's user.
    pi = reported or on_a_pi()
    from firmware.doctor_unit import held_elsewhere
    held = None if reported or not pi else held_elsewhere(state_dir, SERVICE_RUN_DIR)
    if live is None and held is None and pi:
        live = probe_live(state_dir, resolved)
    checks = gather(state_dir, resolved, live, reported, buses=pi)
    if held is not None:
        checks.insert(1, Check(Msg("Service"), *held))
    if unreadable is not None:
        checks.insert(1, Check(Msg("Device settings"), "warn", Msg("cannot be read ({})", unreadable), Msg(
            "The profile and the display below come from the config file or the built-in default, not "
            "from the device's Buttons and Display settings.")))
    from firmware.i18n import say
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:      # a terminal that is not UTF-8: '?' for what it cannot show (→, Cyrillic),
        reconfigure(errors="replace")            # not a UnicodeEncodeError in place of the report
    try:
        print(render(checks, lambda m: say(m, lang)))
        if not reported and _is_dir(state_dir):
            print(say(Msg("Log: {}", str(state_dir / "legatus.log")), lang))
        sys.stdout.flush()
    except BrokenPipeError as e:         # the reader went away (``legatus doctor | head -1``)
        log.info("stdout closed: %s", e)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
    return 1 if any(c.status == "fail" for c in checks) else 0
