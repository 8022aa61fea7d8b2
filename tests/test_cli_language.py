"""`legatus`'s usage, help and refusals (argparse's, exit status 2) in the player's language: the
device's (Settings → Language, kept in the state directory), else the locale's, else English."""
from __future__ import annotations

import argparse
import inspect
import re
import sqlite3
from pathlib import Path

import pytest

from firmware import cli


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No language from the machine running the tests: a C locale, and a default state directory
    of its own (empty)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("LEGATUS_STATE_DIR", str(tmp_path / "default"))


def _device_speaks(state_dir: Path, lang: str) -> Path:
    """A state directory whose device was set to ``lang`` (Settings → Language)."""
    from firmware.console import Console
    from firmware.i18n import set_language
    from firmware.store import Store
    console = Console(Store(state_dir), None)
    try:
        assert console.request(f"settings language={lang}")["ok"]
    finally:
        console.close()
        set_language("en")          # (the console spoke it in this process)
    return state_dir


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    out = capsys.readouterr()
    assert not out.out
    return out.err


@pytest.mark.parametrize("lang,argv,said", [
    # legatus's own refusals
    ("ru", ["--baud", "9600"], "legatus: ошибка: аргумент --baud: нельзя без --serial (это скорость последовательного порта)"),
    ("uk", ["--baud", "9600"], "legatus: помилка: аргумент --baud: не можна без --serial (це швидкість послідовного порту)"),
    ("ru", ["--sim", "console"], "аргумент --sim: нельзя вместе с «console» (консоль не управляет ни экраном"),
    ("uk", ["--serial", "loop://", "--baud", "fast"], "аргумент --baud: неприпустима швидкість 'fast': швидкість "
                                                       "послідовного порту — одна з 50, 75"),
    ("ru", ["--script", "-", "doctor"], "аргумент --script: нельзя вместе с «doctor» (он управляет симулятором)"),
    # argparse's own
    ("ru", ["--bogus"], "legatus: ошибка: неизвестные аргументы: --bogus"),
    ("uk", ["consol"], "legatus: помилка: аргумент mode: неприпустиме значення: 'consol' (виберіть із 'console', 'doctor')"),
    ("uk", ["--sim=1"], "аргумент --sim: зайве значення '1'"),
    ("ru", ["console", "--serial"], "аргумент --serial: нужно одно значение"),
])
def test_a_refusal_is_said_in_the_language_the_device_speaks(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            lang: str, argv: list[str], said: str) -> None:
    """The CLI's refusals were English whatever language the device spoke; now the usage line and
    the reason are in the device's language (the option names and values stay as typed)."""
    state = _device_speaks(tmp_path / "st", lang)
    err = _refused(capsys, ["--state-dir", str(state), *argv])
    usage = {"ru": "использование: legatus ", "uk": "використання: legatus "}[lang]
    assert err.startswith(usage) and said in " ".join(err.split()), err
    assert "usage:" not in err and "error:" not in err and "argument" not in err


def test_the_state_directory_is_found_as_the_program_finds_it(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`$LEGATUS_STATE_DIR` (what the service sets), `--state-dir=DIR`, and a subcommand's own
    `--state-dir` (the last one given, as the program takes it) each name the device's language."""
    ru, uk = _device_speaks(tmp_path / "ru", "ru"), _device_speaks(tmp_path / "uk", "uk")
    monkeypatch.setenv("LEGATUS_STATE_DIR", str(ru))
    assert "ошибка: неизвестные аргументы: --bogus" in _refused(capsys, ["--bogus"])
    assert "помилка: невідомі аргументи: --bogus" in _refused(capsys, [f"--state-dir={uk}", "--bogus"])
    assert "помилка:" in _refused(capsys, ["--state-dir", str(ru), "console", "--state-dir", str(uk), "--baud", "9600"])
    assert "помилка:" in _refused(capsys, ["--state", str(uk), "--bogus"])          # (argparse's abbreviations)
    assert "помилка:" in _refused(capsys, ["console", f"--st={uk}", "--baud", "9600"])


@pytest.mark.parametrize("locale,said", [("ru_RU.UTF-8", "ошибка:"), ("uk_UA.UTF-8", "помилка:"), ("de_DE.UTF-8", "error:"),
                                         ("C.UTF-8", "error:")])
def test_with_no_language_chosen_yet_the_locale_is_the_players(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch, locale: str, said: str) -> None:
    """A fresh machine (no state directory yet: nothing is made for a refusal) speaks the locale's
    language if Legatus has it, else English."""
    monkeypatch.setenv("LANG", locale)
    err = _refused(capsys, ["--state-dir", str(tmp_path / "fresh"), "--bogus"])
    assert f"legatus: {said}" in err, err
    assert not (tmp_path / "fresh").exists()


def test_the_device_language_goes_before_the_locale(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The player chose English on the device: a Russian locale does not change what it says."""
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    state = _device_speaks(tmp_path / "st", "en")
    err = _refused(capsys, ["--state-dir", str(state), "--bogus"])
    assert err.startswith("usage: legatus") and "legatus: error: unrecognized arguments: --bogus" in err


def test_a_damaged_language_row_is_not_believed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The setting is read as the store reads it: its checksum first (a row whose bytes changed
    gives no language: the locale's, English here)."""
    state = _device_speaks(tmp_path / "st", "ru")
    db = sqlite3.connect(state / "legatus.db")
    db.execute("UPDATE settings SET value = '\"uk\"' WHERE key = 'language'")
    db.commit()
    db.close()
    assert "legatus: error: unrecognized arguments" in _refused(capsys, ["--state-dir", str(state), "--bogus"])


@pytest.mark.parametrize("lang,words", [("ru", ("использование: legatus", "параметры:", "показать эту справку и выйти",
                                                "где хранятся сессии")),
                                        ("uk", ("використання: legatus", "параметри:", "показати цю довідку й вийти",
                                                "де зберігаються сесії"))])
def test_the_help_is_said_in_the_device_language_with_every_option(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                   lang: str, words: tuple[str, ...]) -> None:
    state = _device_speaks(tmp_path / "st", lang)
    for argv, options in ((["--help"], ("--state-dir", "--sim", "--config", "--script", "--serial", "--baud", "--version")),
                          (["console", "-h"], ("--state-dir", "--serial", "--baud")),
                          (["doctor", "--help"], ("--state-dir", "--config"))):
        with pytest.raises(SystemExit) as stop:
            cli.main(["--state-dir", str(state), *argv])
        assert stop.value.code == 0
        out = capsys.readouterr().out
        assert all(option in out for option in options), out
        assert "usage:" not in out and "show this help" not in out
    assert all(w in " ".join(out.split()) for w in words[:3]), out


@pytest.mark.parametrize("lang,console,doctor", [
    ("en", "The console: Legatus's line protocol on standard input and output", "Checks the Pi's set-up for Legatus"),
    ("ru", "Консоль: построчный протокол Legatus на стандартном вводе и выводе", "Проверяет настройку Pi для Legatus"),
    ("uk", "Консоль: рядковий протокол Legatus на стандартному введенні й виведенні",
     "Перевіряє налаштування Pi для Legatus"),
])
def test_each_subcommands_help_says_what_it_is_and_how_to_go_on(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                lang: str, console: str, doctor: str) -> None:
    """`legatus console --help` said only its usage and options: not what the console is, nor that
    'help' lists its commands and 'quit' ends it; `legatus doctor --help` not that it is to be run
    as the service's user to check the service. Each opens with that, in the device's language."""
    state = _device_speaks(tmp_path / "st", lang) if lang != "en" else tmp_path / "st"
    said = {}
    for sub in ("console", "doctor"):
        with pytest.raises(SystemExit) as stop:
            cli.main(["--state-dir", str(state), sub, "--help"])
        assert stop.value.code == 0
        said[sub] = " ".join(capsys.readouterr().out.split())
    assert console in said["console"] and ("«help»" in said["console"] or "'help'" in said["console"]), said
    assert doctor in said["doctor"] and "LEGATUS_STATE_DIR=/var/lib/legatus" in said["doctor"], said


@pytest.mark.parametrize("lang,said", [
    ("en", "legatus: error: argument mode: 'export' is a command of the console: start 'legatus console' and type it "
           "there ('help' lists the commands), or send it in: echo 'export' | legatus console"),
    ("ru", "legatus: ошибка: аргумент mode: «export» — команда консоли: запустите «legatus console» и введите её там"),
    ("uk", "legatus: помилка: аргумент mode: «export» — команда консолі: запустіть «legatus console» і введіть її там"),
])
def test_a_console_command_given_to_legatus_says_where_it_is_typed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                   lang: str, said: str) -> None:
    """The README names `history`, `export format=csv` and the like: `legatus export format=csv`
    was refused as "invalid choice: 'export' (choose from 'console', 'doctor')", which did not say
    that it is typed in the console. A word that is no command at all is refused as before."""
    state = _device_speaks(tmp_path / "st", lang) if lang != "en" else tmp_path / "st"
    err = " ".join(_refused(capsys, ["--state-dir", str(state), "export", "format=csv"]).split())
    assert said in err, err
    assert "'consol'" in _refused(capsys, ["--state-dir", str(state), "consol"])


def test_the_console_commands_cli_names_are_the_consoles() -> None:
    from firmware.console import BUILTINS
    assert set(cli.CONSOLE_COMMANDS) <= set(BUILTINS)
    assert set(BUILTINS) - set(cli.CONSOLE_COMMANDS) == {"help", "version", "quit"}


def test_english_is_said_again_in_the_same_process_after_a_russian_refusal(capsys: pytest.CaptureFixture[str],
                                                                           tmp_path: Path) -> None:
    """argparse's words are lent to the second parse only: the next parser (a script's, a test's)
    speaks English again."""
    state = _device_speaks(tmp_path / "st", "ru")
    assert "ошибка" in _refused(capsys, ["--state-dir", str(state), "--bogus"])
    assert "legatus: error: unrecognized arguments: --bogus" in _refused(capsys, ["--state-dir", str(tmp_path / "x"), "--bogus"])
    with pytest.raises(SystemExit):
        argparse.ArgumentParser(prog="other").parse_args(["--x"])
    assert "usage: other" in capsys.readouterr().err


def test_a_good_command_line_reads_no_language() -> None:
    """A start that parses reads neither the catalogs nor the database (the start's time)."""
    import subprocess
    import sys
    code = ("import sys; from firmware import cli; cli._parsed(['console', '--state-dir', '/nonexistent']); "
            "print(sorted(m for m in ('sqlite3', 'firmware.i18n', 'firmware.storage') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "[]", (run.stdout, run.stderr)


def test_argparse_still_says_the_words_the_catalogs_translate() -> None:
    """Each of argparse's texts catalogued is still argparse's own (a newer Python that changed one
    would leave it English), and each translation keeps its %-fields."""
    from scripts.i18n import LOCALE, read_po
    source = inspect.getsource(argparse)
    catalogs = {lang: read_po(LOCALE / lang / "LC_MESSAGES" / "legatus.po")[1] for lang in ("ru", "uk")}
    for text in cli.ARGPARSE_TEXTS:
        assert repr(text) in source, f"argparse no longer says {text!r}"
        for lang, entries in catalogs.items():
            said = entries[text].msgstr[0]
            assert sorted(re.findall(r"%(?:\(\w+\))?[sr]", said)) == sorted(re.findall(r"%(?:\(\w+\))?[sr]", text)), (lang, said)


@pytest.mark.parametrize("lang,said", [("en", "legatus: stopped by Ctrl-C.\n"),
                                       ("ru", "legatus: остановлено нажатием Ctrl-C.\n"),
                                       ("uk", "legatus: зупинено натисканням Ctrl-C.\n")])
def test_ctrl_c_at_the_start_is_said_in_the_devices_language(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch, lang: str, said: str) -> None:
    """Ctrl-C while `legatus` starts (exit status 130, no traceback) said "stopped by Ctrl-C." in
    English on a Russian or Ukrainian device."""
    import firmware.device
    from firmware import logs

    def interrupted(args: object, splash: object) -> int:
        raise KeyboardInterrupt
    state = _device_speaks(tmp_path / "st", lang) if lang != "en" else tmp_path / "st"
    monkeypatch.setattr(firmware.device, "run_device", interrupted)
    monkeypatch.setattr("firmware.terminal.terminal_problem", lambda: None)    # (as in a terminal)
    monkeypatch.setattr(logs, "setup", lambda **k: None)                           # (the test's own logging)
    monkeypatch.setattr(logs, "remember_state_dir", lambda d: None)
    assert cli.main(["--sim", "--state-dir", str(state)]) == 130
    assert capsys.readouterr().err == said


@pytest.mark.parametrize("locale,said", [
    ("ru_RU.UTF-8", "legatus: Нельзя использовать каталог состояния {}: на месте папки лежит файл."),
    ("uk_UA.UTF-8", "legatus: Не можна використати каталог стану {}: на місці теки лежить файл."),
    ("C.UTF-8", "legatus: Cannot use the state directory {}: a file stands where a folder should be."),
])
def test_the_consoles_state_directory_refused_in_the_locales_language(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch, locale: str,
                                                                      said: str) -> None:
    """`legatus console --state-dir FILE` (a typo: a file where the folder should be) on a machine
    whose device has no language chosen: the refusal was English under a Russian or Ukrainian locale,
    where `--help` and every refusal of the command line are in the locale's language."""
    monkeypatch.setenv("LANG", locale)
    monkeypatch.setattr("firmware.logs.setup", lambda **k: None)                  # (the test's own logging)
    monkeypatch.setattr("firmware.logs.remember_state_dir", lambda d: None)
    (tmp_path / "games").write_text("not a folder")
    assert cli.main(["console", "--state-dir", str(tmp_path / "games")]) == 2
    out = capsys.readouterr()
    assert not out.out and out.err.startswith(said.format(tmp_path / "games")), out.err


@pytest.mark.parametrize("locale,said", [("ru_RU.UTF-8", "legatus: последовательного порта {} нет: проверьте имя порта"),
                                         ("uk_UA.UTF-8", "legatus: послідовного порту {} немає: перевірте назву порту")])
def test_the_consoles_serial_port_refused_in_the_locales_language(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch, locale: str,
                                                                  said: str) -> None:
    """`legatus console --serial PORT` with a port that is not there: said in the locale's language
    (it was English), and nothing made in the state directory."""
    monkeypatch.setenv("LANG", locale)
    monkeypatch.setattr("firmware.logs.setup", lambda **k: None)
    monkeypatch.setattr("firmware.logs.remember_state_dir", lambda d: None)
    port = tmp_path / "ttyNOPE"
    assert cli.main(["console", "--serial", str(port), "--state-dir", str(tmp_path / "st")]) == 2
    out = capsys.readouterr()
    assert not out.out and out.err.startswith(said.format(port)), out.err
    assert not (tmp_path / "st").exists()


def test_the_device_program_starts_in_the_locales_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the simulator says before its store is open (the storage problem's screen: "Nothing can
    be saved") is in the locale's language on a device with none chosen: it was English."""
    import firmware.device
    from firmware import i18n, logs
    spoken = []
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    monkeypatch.setattr(firmware.device, "run_device", lambda args, splash: spoken.append(i18n.language()) or 0)
    monkeypatch.setattr("firmware.terminal.terminal_problem", lambda: None)    # (as in a terminal)
    monkeypatch.setattr(logs, "setup", lambda **k: None)
    monkeypatch.setattr(logs, "remember_state_dir", lambda d: None)
    assert cli.main(["--sim", "--state-dir", str(tmp_path / "st")]) == 0
    assert spoken == ["uk"]


def test_the_device_language_goes_before_the_locale_for_the_console_too(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A device set to Ukrainian, a Russian locale: the console's refusal of a port is Ukrainian."""
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.setattr("firmware.logs.setup", lambda **k: None)
    monkeypatch.setattr("firmware.logs.remember_state_dir", lambda d: None)
    state = _device_speaks(tmp_path / "st", "uk")
    assert cli.main(["console", "--serial", str(tmp_path / "ttyNOPE"), "--state-dir", str(state)]) == 2
    assert "послідовного порту" in capsys.readouterr().err


def test_a_test_that_switches_the_language_leaves_it_switched() -> None:
    """(With the next test.) A test that set the device's language, a game's words or `legatus`'s
    spoken language and did not put them back (a console's ``settings language=ru``, a session of
    Julius Caesar) left them to every later test: one could pass only because an earlier one had
    switched the language, or fail by the order the tests ran in."""
    from firmware import i18n
    i18n.set_language("ru")
    i18n.set_game("jc-battle")
    cli._spoken[:] = ["uk"]
    assert i18n.say(i18n.Msg("Nothing to undo.")) != "Nothing to undo."


def test_every_test_starts_in_english_with_the_shared_words() -> None:
    """tests/conftest.py puts the process-global language back around every test (the one before
    this left Russian, Julius Caesar's words and a Ukrainian `legatus`)."""
    from firmware import i18n
    assert i18n.language() == "en" and i18n._game == "legatus" and cli._spoken == ["en"]
    assert i18n.say(i18n.Msg("Nothing to undo.")) == "Nothing to undo."
