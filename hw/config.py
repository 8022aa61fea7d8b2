"""Hardware configuration: named pin/display profiles plus a user TOML file.

Profiles live in ``hw/profiles.toml`` (package data). The user file, at
``$LEGATUS_CONFIG`` or ``~/.config/legatus/config.toml``, may hold::

    profile = "waveshare-hat"     # which profile (default: adafruit-bonnet)
    [pins]                        # BCM GPIO numbers by logical key
    a = 12
    [display]                     # driver, interface, port, address, device, dc, rst, rotate
    rotate = 2

Overrides are merged over the chosen profile. Any problem raises
:class:`ConfigError` naming the file and what to change, as a :class:`engine.text.Msg` (the start
notice and the doctor say it in the player's language; the file, the values and the parser's
words are values inside).
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from engine.text import Msg

DEFAULT_PROFILE = "adafruit-bonnet"
CONFIG_ENV = "LEGATUS_CONFIG"
KEY_NAMES = ("a", "b", "key3", "up", "down", "left", "right", "press")
DRIVERS = ("ssd1306", "sh1106")
INTERFACES = ("i2c", "spi")
MAX_GPIO = 27  # BCM numbers on the 40-pin header: 0..27


class ConfigError(ValueError):
    """A profile or config file is unreadable or invalid; the message (``args[0]``, a Msg) says
    what to fix."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message)


BUILT_IN = Msg("the built-in profiles")
"""Where a problem is, when no config file is read."""


@dataclass(frozen=True)
class DisplayConfig:
    """How the OLED is attached.

    ``port`` is the I2C bus (``/dev/i2c-<port>``) or SPI bus; ``address`` is the
    I2C address (I2C only); ``device`` the SPI chip select and ``dc``/``rst`` the
    BCM pins of data/command and reset (SPI only); ``rotate`` is in quarter
    turns clockwise, 0..3. Raises ConfigError on a value out of range.
    """

    driver: str = "ssd1306"
    interface: str = "i2c"
    port: int = 1
    address: int = 0x3C
    device: int = 0
    dc: int = 24
    rst: int = 25
    rotate: int = 0

    def __post_init__(self) -> None:
        if self.driver not in DRIVERS:
            raise ConfigError(Msg("display.driver {value} is not one of {choices}", value=repr(self.driver),
                                  choices=", ".join(DRIVERS)))
        if self.interface not in INTERFACES:
            raise ConfigError(Msg("display.interface {value} is not one of {choices}", value=repr(self.interface),
                                  choices=", ".join(INTERFACES)))
        if not 0x03 <= self.address <= 0x77:
            raise ConfigError(Msg("display.address {value} is not a 7-bit I2C address (0x03..0x77; the OLEDs use "
                                  "0x3C or 0x3D)", value=f"{self.address:#x}"))
        if self.rotate not in (0, 1, 2, 3):
            raise ConfigError(Msg("display.rotate must be 0, 1, 2 or 3 quarter turns, got {value}",
                                  value=str(self.rotate)))
        for name in ("port", "device"):
            if getattr(self, name) < 0:
                raise ConfigError(Msg("display.{name} must be >= 0, got {value}", name=name,
                                      value=str(getattr(self, name))))
        for name in ("dc", "rst"):
            _check_gpio(f"display.{name}", getattr(self, name))


@dataclass(frozen=True)
class Config:
    """The resolved configuration.

    ``pins`` maps logical key names to BCM GPIO numbers; ``source`` is the user
    file that was applied, or None when only the profile was used.
    """

    profile: str
    pins: dict[str, int]
    display: DisplayConfig
    source: Path | None = None


def available_profiles() -> list[str]:
    """Names of the built-in profiles, sorted."""
    return sorted(_profiles())


def home() -> Path | None:
    """The user's home directory: $HOME, else (HOME empty or unset: ``env -i``, some service
    managers) the password database's; None when neither names one other than "/" (a system user):
    ``Path.home()`` gave "/" for HOME="", and so the state directory /.local/state/legatus."""
    for candidate in (os.environ.get("HOME", ""), _passwd_home()):
        if candidate and candidate != "/":
            return Path(candidate)
    return None


def _passwd_home() -> str:
    import pwd
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:               # a uid with no entry (a container): no home to be had
        return ""


SYSTEM_STATE_DIR = Path("/var/lib/legatus")     # the service's (scripts/legatus.service)


def default_state_dir() -> Path:
    """``$LEGATUS_STATE_DIR``, else ``~/.local/state/legatus``, else (no home) :data:`SYSTEM_STATE_DIR`.

    A ``~`` in the variable is the home directory and a relative one is taken from the working
    directory at start, made absolute as ``--state-dir`` is (firmware/cli.py)."""
    env = os.environ.get("LEGATUS_STATE_DIR")
    if env:
        return Path(os.path.abspath(os.path.expanduser(env)))
    where = home()
    return where / ".local" / "state" / "legatus" if where is not None else SYSTEM_STATE_DIR


_WRITTEN: dict[str, str] = {}
"""A config file's absolute path -> the name the user gave it (``--config``, ``$LEGATUS_CONFIG``),
where the two differ: a problem with the file names it as written and where it was looked for."""


def config_path(written: str) -> Path:
    """The config file a user named (``--config FILE`` or ``$LEGATUS_CONFIG``): a ``~`` is the home
    directory and a relative name is taken from the working directory now, as ``--state-dir`` and
    ``$LEGATUS_STATE_DIR`` are (lgpio may change it later: firmware/buttons_part.py). Its problems name
    it as written, then where it was looked for (:func:`shown`)."""
    path = Path(os.path.abspath(os.path.expanduser(written)))
    if str(path) != written:
        _WRITTEN[str(path)] = written
    return path


def shown(path: Path) -> str:
    """How a config file is named in a problem with it: as the user wrote it, then its absolute
    path when the two differ (``config.toml (/home/pi/config.toml)``)."""
    written = _WRITTEN.get(str(path))
    return f"{written} ({path})" if written is not None and written != str(path) else str(path)


def default_config_path() -> Path:
    """``$LEGATUS_CONFIG`` if set (made absolute: :func:`config_path`), else
    ``~/.config/legatus/config.toml``."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return config_path(env)
    where = home()
    return where / ".config" / "legatus" / "config.toml" if where is not None else Path("/etc/legatus/config.toml")


def load_config(path: Path | None = None, profile: str | None = None) -> Config:
    """Resolve the hardware configuration.

    ``path`` defaults to :func:`default_config_path`; a missing default file
    means "no overrides", but an explicit ``path`` or ``$LEGATUS_CONFIG`` must
    exist. ``profile`` beats the file's ``profile`` key, which beats
    :data:`DEFAULT_PROFILE`. Raises ConfigError for an unreadable or invalid
    file, an unknown profile, key or field, or bad pin numbers, and for any
    other failure while reading it (a hostile file must never stop the start).
    """
    try:
        return _load_config(path, profile)
    except ConfigError:
        raise
    except Exception as e:  # noqa: BLE001 - RecursionError, MemoryError, TypeError...: still a bad file
        where = path if path is not None else default_config_path()
        raise ConfigError(Msg("cannot use the config file {path}: {error}", path=shown(where),
                              error=f"{type(e).__name__}: {str(e)[:200]}")) from e


def _load_config(path: Path | None, profile: str | None) -> Config:
    from_env = path is None and bool(os.environ.get(CONFIG_ENV))
    explicit = path is not None or from_env
    path = config_path(str(path)) if path is not None else default_config_path()
    user: dict[str, Any] = {}
    source: Path | None = None
    if explicit or path.exists():
        user, source = _read_toml(path, from_env), path
    where: str = shown(source) if source else BUILT_IN
    unknown = set(user) - {"profile", "pins", "display"}
    if unknown:
        raise ConfigError(Msg("{where}: unknown setting(s) {names}; allowed: profile, [pins], [display]", where=where,
                              names=", ".join(sorted(unknown))))
    name = profile if profile is not None else user.get("profile", DEFAULT_PROFILE)
    if not isinstance(name, str):
        raise ConfigError(Msg("{where}: profile must be a quoted name such as \"waveshare-hat\", got {value}",
                              where=where, value=repr(name)))
    profiles = _profiles()
    if name not in profiles:
        raise ConfigError(Msg("{where}: unknown profile {name}; available: {names}", where=where, name=repr(name),
                              names=", ".join(sorted(profiles))))
    base = profiles[name]
    pins = _pins({**base.get("pins", {}), **_table(user, "pins", where)}, where)
    display_fields = {**base.get("display", {}), **_table(user, "display", where)}
    display = _display(display_fields, where)
    if display.interface == "spi":
        for field_name in ("dc", "rst"):
            pin = getattr(display, field_name)
            clash = [key for key, p in pins.items() if p == pin]
            if clash:
                raise ConfigError(Msg("{where}: display.{name} GPIO{pin} is also the pin of key {key}; change one "
                                      "of them", where=where, name=field_name, pin=pin, key=repr(clash[0])))
    return Config(profile=name, pins=pins, display=display, source=source)


def builtin_config(profile: str | None = None) -> Config:
    """A built-in profile with no user overrides (the fallback when the user file is bad).

    An unknown ``profile`` falls back to :data:`DEFAULT_PROFILE`.
    """
    profiles = _profiles()
    name = profile if profile in profiles else DEFAULT_PROFILE
    base = profiles[name]
    where = BUILT_IN
    return Config(profile=name, pins=_pins(dict(base.get("pins", {})), where),
                  display=_display(dict(base.get("display", {})), where), source=None)


def _profiles() -> dict[str, dict[str, Any]]:
    # beside this module (installed as files), not through importlib.resources: its own imports
    # (zipfile, tempfile, shutil, lzma, bz2) cost the device's start about 8 ms here, 0.1 s on a Pi
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "profiles.toml"), "rb") as f:
        return tomllib.load(f)


def _read_toml(path: Path, from_env: bool = False) -> dict[str, Any]:
    """The file's settings; ``from_env``: ``$LEGATUS_CONFIG`` named it (not ``--config``)."""
    name = shown(path)
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        if from_env:
            raise ConfigError(Msg("config file {path} does not exist; create it or unset ${env}", path=name,
                                  env=CONFIG_ENV)) from None
        raise ConfigError(Msg("config file {path} does not exist; create it or give another --config",
                              path=name)) from None
    except OSError as e:
        raise ConfigError(Msg("cannot read config file {path}: {error}", path=name,
                              error=str(e.strerror or e))) from e
    except ValueError as e:  # tomllib.TOMLDecodeError, UnicodeDecodeError
        raise ConfigError(Msg("config file {path} is not valid TOML: {error}", path=name, error=str(e))) from e
    except RecursionError as e:  # tomllib recurses once per level of nesting
        raise ConfigError(Msg("config file {path} is nested too deeply to be a Legatus config (see docs/hardware.md "
                              "for what it holds)", path=name)) from e


def _table(user: dict[str, Any], name: str, where: str) -> dict[str, Any]:
    table = user.get(name, {})
    if not isinstance(table, dict):
        raise ConfigError(Msg("{where}: {name} must be a table, written [{name}] on its own line", where=where,
                              name=name))
    return table


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_gpio(what: str, pin: object) -> None:
    if not (isinstance(pin, int) and not isinstance(pin, bool) and 0 <= pin <= MAX_GPIO):
        raise ConfigError(Msg("{what} must be a BCM GPIO number 0..{max}, got {value}", what=what, max=MAX_GPIO,
                              value=repr(pin)))


def _pins(raw: dict[str, Any], where: str) -> dict[str, int]:
    unknown = set(raw) - set(KEY_NAMES)
    if unknown:
        raise ConfigError(Msg("{where}: unknown key name(s) {names} in [pins]; use {keys}", where=where,
                              names=", ".join(sorted(unknown)), keys=", ".join(KEY_NAMES)))
    seen: dict[int, str] = {}
    for key, pin in raw.items():
        try:
            _check_gpio(f"pins.{key}", pin)
        except ConfigError as e:
            raise ConfigError(Msg("{where}: {error}", where=where, error=e.args[0])) from None
        if pin in seen:
            raise ConfigError(Msg("{where}: keys {a} and {b} both use GPIO{pin}; each key needs its own pin",
                                  where=where, a=repr(seen[pin]), b=repr(key), pin=pin))
        seen[pin] = key
    return dict(raw)


def _display(raw: dict[str, Any], where: str) -> DisplayConfig:
    known = [f.name for f in fields(DisplayConfig)]
    unknown = set(raw) - set(known)
    if unknown:
        raise ConfigError(Msg("{where}: unknown display field(s) {names}; use {known}", where=where,
                              names=", ".join(sorted(unknown)), known=", ".join(known)))
    for name, value in raw.items():
        wanted_str = name in ("driver", "interface")
        if wanted_str and not isinstance(value, str):
            raise ConfigError(Msg("{where}: display.{name} must be a quoted string, got {value}", where=where,
                                  name=name, value=repr(value)))
        if not wanted_str and not _is_int(value):
            raise ConfigError(Msg("{where}: display.{name} must be an integer (write hex as 0x3C, without quotes), "
                                  "got {value}", where=where, name=name, value=repr(value)))
    try:
        return DisplayConfig(**raw)
    except ConfigError as e:
        raise ConfigError(Msg("{where}: {error}", where=where, error=e.args[0])) from None
