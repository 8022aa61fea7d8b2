"""hw.config: the built-in profiles, user overrides and the errors for bad files."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hw.config import (ConfigError, DisplayConfig, available_profiles, default_config_path,
                       load_config)


@pytest.fixture(autouse=True)
def no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Isolate from the developer's own config: HOME is empty, $LEGATUS_CONFIG unset."""
    monkeypatch.delenv("LEGATUS_CONFIG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_available_profiles() -> None:
    assert available_profiles() == ["adafruit-bonnet", "waveshare-hat"]


def test_default_is_the_adafruit_bonnet() -> None:
    cfg = load_config()
    assert cfg.profile == "adafruit-bonnet"
    assert cfg.source is None
    assert cfg.pins == {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}
    d = cfg.display
    assert (d.driver, d.interface, d.port, d.address, d.rotate) == ("ssd1306", "i2c", 1, 0x3C, 0)


def test_waveshare_profile() -> None:
    cfg = load_config(profile="waveshare-hat")
    assert cfg.pins == {"a": 21, "b": 20, "key3": 16, "up": 6, "down": 19, "left": 5,
                        "right": 26, "press": 13}
    d = cfg.display
    assert (d.driver, d.interface, d.port, d.device, d.dc, d.rst) == ("sh1106", "spi", 0, 0, 24, 25)


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        load_config().profile = "x"  # type: ignore[misc]


def test_user_file_picks_profile_and_overrides(tmp_path: Path) -> None:
    path = write(tmp_path, 'profile = "waveshare-hat"\n[pins]\na = 12\n'
                           '[display]\nrotate = 2\ninterface = "i2c"\nport = 3\naddress = 0x3D\n')
    cfg = load_config(path)
    assert cfg.profile == "waveshare-hat"
    assert cfg.source == path
    assert cfg.pins["a"] == 12 and cfg.pins["b"] == 20  # merged over the profile
    d = cfg.display
    assert (d.driver, d.interface, d.port, d.address, d.rotate) == ("sh1106", "i2c", 3, 0x3D, 2)


def test_profile_argument_beats_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'profile = "waveshare-hat"\n')
    assert load_config(path, profile="adafruit-bonnet").profile == "adafruit-bonnet"


def test_env_var_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, 'profile = "waveshare-hat"\n')
    monkeypatch.setenv("LEGATUS_CONFIG", str(path))
    assert default_config_path() == path
    assert load_config().profile == "waveshare-hat"


def test_home_file_is_used_when_present(tmp_path: Path) -> None:
    path = tmp_path / "home" / ".config" / "legatus" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[display]\nrotate = 2\n', encoding="utf-8")
    cfg = load_config()
    assert cfg.source == path and cfg.display.rotate == 2


def test_missing_explicit_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEGATUS_CONFIG", str(tmp_path / "nope.toml"))
    with pytest.raises(ConfigError, match=r"nope\.toml does not exist.*LEGATUS_CONFIG"):
        load_config()


def test_a_missing_file_named_by_config_says_to_give_another_not_to_unset_the_variable(tmp_path: Path) -> None:
    """`legatus --config nope.toml` with no $LEGATUS_CONFIG told the user to unset a variable they
    had never set."""
    with pytest.raises(ConfigError, match=r"nope\.toml does not exist; create it or give another --config$"):
        load_config(tmp_path / "nope.toml")


def test_bad_toml_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, 'profile = "waveshare-hat"\n[pins\n')
    with pytest.raises(ConfigError, match=r"config\.toml is not valid TOML.*line 2"):
        load_config(path)


def test_unknown_profile_lists_the_available_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown profile 'pimoroni'; available: "
                                          "adafruit-bonnet, waveshare-hat"):
        load_config(profile="pimoroni")
    path = write(tmp_path, 'profile = "adafruit"\n')
    with pytest.raises(ConfigError, match=r"config\.toml: unknown profile 'adafruit'"):
        load_config(path)


@pytest.mark.parametrize(("text", "message"), [
    ('profil = "x"\n', "unknown setting.*profil"),
    ("[pins]\nselect = 4\n", "unknown key name.*select.*use a, b"),
    ("[pins]\na = 40\n", "pins.a must be a BCM GPIO number 0..27, got 40"),
    ('[pins]\na = "5"\n', "pins.a must be a BCM GPIO number"),
    ("[pins]\na = 6\n", "keys 'a' and 'b' both use GPIO6"),
    ('[display]\ndriver = "ssd1309"\n', "display.driver 'ssd1309' is not one of ssd1306, sh1106"),
    ('[display]\ninterface = "uart"\n', "display.interface 'uart'"),
    ('[display]\naddress = "0x3C"\n', "display.address must be an integer .*0x3C"),
    ("[display]\naddress = 0x80\n", "not a 7-bit I2C address"),
    ("[display]\nrotate = 90\n", "rotate must be 0, 1, 2 or 3"),
    ("[display]\ncontrast = 3\n", "unknown display field.*contrast"),
    ("pins = 3\n", r"pins must be a table, written \[pins\]"),
    ('profile = "waveshare-hat"\n[pins]\nup = 24\n', "display.dc GPIO24 is also the pin of key 'up'"),
])
def test_invalid_settings_are_explained(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as info:
        load_config(path)
    assert str(path) in str(info.value)


def test_display_config_validates_directly() -> None:
    with pytest.raises(ConfigError, match="display.rst must be a BCM GPIO number"):
        DisplayConfig(rst=99)


def test_builtin_config_is_the_profile_without_overrides():
    from hw.config import builtin_config
    cfg = builtin_config("waveshare-hat")
    assert cfg.profile == "waveshare-hat" and cfg.pins["a"] == 21 and cfg.display.driver == "sh1106"
    assert cfg.source is None
    assert builtin_config("no-such-board").profile == "adafruit-bonnet"


def test_the_built_in_profiles_are_read_without_importlib_resources():
    """The device's start resolves its configuration before the first frame; the built-in profiles
    were read through importlib.resources, whose imports (zipfile, tempfile, shutil, lzma, bz2)
    cost about 8 ms here, 0.1 s on a Pi. They are read beside hw/config.py: the same profiles."""
    import subprocess
    import sys
    probe = ("import sys\n"
             "from firmware import doctor\n"
             "resolved = doctor.resolve_config(None, {})\n"
             "print(resolved.config.profile, sorted(m for m in ('importlib.resources', 'tempfile', 'shutil', 'zipfile')"
             " if m in sys.modules))\n")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=root,
                         env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}).stdout
    from hw.config import DEFAULT_PROFILE
    assert out.strip() == f"{DEFAULT_PROFILE} []", out


def test_a_relative_legatus_config_is_made_absolute_as_legatus_state_dir_is(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (cli): ``LEGATUS_CONFIG=conf/legatus.toml`` stayed relative (``--state-dir`` and
    ``$LEGATUS_STATE_DIR`` are ``~``-expanded and absolute), and its problems named only
    ``conf/legatus.toml``, not where it was looked for."""
    from hw.config import default_state_dir
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "legatus.toml").write_text("[display]\nrotate = 9\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEGATUS_CONFIG", "conf/legatus.toml")
    monkeypatch.setenv("LEGATUS_STATE_DIR", "conf/state")
    assert default_config_path() == tmp_path / "conf" / "legatus.toml" == default_state_dir().parent / "legatus.toml"
    with pytest.raises(ConfigError) as bad:
        load_config()
    assert bad.value.args[0].startswith(f"conf/legatus.toml ({tmp_path / 'conf' / 'legatus.toml'}): display.rotate")
    monkeypatch.setenv("LEGATUS_CONFIG", "conf/none.toml")
    with pytest.raises(ConfigError) as missing:
        load_config()
    assert missing.value.args[0] == (f"config file conf/none.toml ({tmp_path / 'conf' / 'none.toml'}) does not exist; "
                                     "create it or unset $LEGATUS_CONFIG")


@pytest.mark.parametrize("written", ["conf/legatus.toml", "~/legatus.toml", "./legatus.toml"])
def test_a_config_file_given_to_legatus_is_named_as_written_and_where_it_was_looked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str) -> None:
    """``legatus doctor --config conf/legatus.toml`` (made absolute at start, as lgpio may change the
    working directory later) said "config file /the/whole/path/conf/legatus.toml does not exist",
    not the name the user typed; now both, the name first."""
    import os

    from firmware import cli, doctor, logs
    monkeypatch.chdir(tmp_path)
    seen: list[str] = []
    monkeypatch.setattr(doctor, "run_doctor", lambda state_dir, config: seen.append(config) or 0)
    monkeypatch.setattr(logs, "setup", lambda *a, **k: None)
    assert cli.main(["doctor", "--config", written]) == 0
    looked = os.path.abspath(os.path.expanduser(written))
    assert seen == [looked]
    with pytest.raises(ConfigError) as missing:
        load_config(Path(seen[0]))
    assert missing.value.args[0] == (f"config file {written} ({looked}) does not exist; create it or give another "
                                     "--config")
