"""The first words a new owner reads: ``legatus console``'s greeting and the simulator's key line.

Both stayed English until a language was stored, so someone who started Legatus under
``LANG=ru_RU.UTF-8`` or ``LANG=uk_UA.UTF-8`` was greeted in English (the first start's language
question under the key line is in all three languages). Until a language is stored they now
speak the locale's; the console's replies stay English until then (PROTOCOL.md: ``settings
language=`` "Default `en`"), and its greeting says so and how to choose; a stored language wins."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from firmware.console import Console
from firmware.store import Store
from tests.conftest import ROOT
from tests.test_simulator import _in_a_terminal

NO_LOCALE = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}


def _store_language(state_dir: Path, lang: str) -> None:
    store = Store(state_dir)
    console = Console(store, store.resume())
    assert console.request(f"settings language={lang}")["ok"]
    console.close()


def _console_in_a_terminal(state_dir: Path, env: dict[str, str], timeout: float = 60.0) -> str:
    """``legatus console`` on a pseudo-terminal (a person typing): what it wrote until ``quit``."""
    import pty
    import select
    import signal
    import time
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state_dir)],
                  {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", **NO_LOCALE, **env})
    out, end, typed = b"", time.monotonic() + timeout, False
    try:
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    pass
            if not typed and b"legatus:" in out and out.endswith(b"\n"):
                os.write(fd, b"quit\n")
                typed = True
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return out.decode("utf-8", "replace")


@pytest.mark.parametrize("locale,stored,said,note", [
    ("ru_RU.UTF-8", None, "консоль готова: введите команду", "на английском, пока язык не выбран: «settings language=ru» выберет этот язык"),
    ("uk_UA.UTF-8", None, "консоль готова: введіть команду", "англійською, доки мову не вибрано: «settings language=uk» вибере цю мову"),
    ("C.UTF-8", None, "the console is ready: type a command", None),
    ("uk_UA.UTF-8", "ru", "консоль готова: введите команду", None),
    ("ru_RU.UTF-8", "en", "the console is ready: type a command", None),
])
def test_the_consoles_greeting_speaks_the_locale_until_a_language_is_stored(tmp_path, locale, stored, said, note):
    state_dir = tmp_path / "st"
    if stored is not None:
        _store_language(state_dir, stored)
    out = _console_in_a_terminal(state_dir, {"LANG": locale})
    greeting = next((line for line in out.splitlines() if line.startswith("legatus:")), "")
    assert said in greeting and "help" in greeting and "quit" in greeting, out
    assert "docs/protocol.md" in greeting
    if note is None:
        assert "settings language" not in greeting, greeting
    else:                    # the replies are English until then (PROTOCOL.md): said, with how to choose
        assert note in greeting, greeting
    assert '"ok":true' in out.replace(" ", "") or "quit" in out    # (quit answers, then it ends)


@pytest.mark.parametrize("locale,stored,words", [
    ("ru_RU.UTF-8", None, "стрелки  Enter=нажатие"),
    ("uk_UA.UTF-8", None, "стрілки  Enter=натискання"),
    ("C.UTF-8", None, "arrows  Enter=press"),
    ("ru_RU.UTF-8", "en", "arrows  Enter=press"),
    ("ru_RU.UTF-8", "uk", "стрілки  Enter=натискання"),
])
def test_the_simulators_key_line_speaks_the_locale_until_a_language_is_stored(tmp_path, locale, stored, words):
    """The first start: the three-language question, the key line under it in the locale's
    language (the question opens on it); a stored language wins."""
    state_dir = tmp_path / "st"
    if stored is not None:
        _store_language(state_dir, stored)
    status, out, _ = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(state_dir)],
                                    {**NO_LOCALE, "LANG": locale}, [b"q"])
    assert status == 0 and "Traceback" not in out, out[-800:]
    assert words in out, out[-600:]


@pytest.mark.parametrize("locale,stored,words", [
    ("uk_UA.UTF-8", None, "Збільште вікно"), ("ru_RU.UTF-8", None, "Увеличьте окно"),
    ("ru_RU.UTF-8", "uk", "Збільште вікно")])
def test_a_terminal_too_small_at_the_first_start_is_told_so_in_the_locales_language(tmp_path, locale, stored, words):
    """The first start in a window too small for the frame: the line said in its place was English
    under ``LANG=uk_UA.UTF-8`` (the device speaks English until a language is stored) while the key
    line of the same start spoke Ukrainian. It speaks the key line's language: the locale's until a
    language is stored, then the stored one."""
    state_dir = tmp_path / "st"
    if stored is not None:
        _store_language(state_dir, stored)
    status, out, _ = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(state_dir)],
                                    {**NO_LOCALE, "LANG": locale}, [b"q"], size=(60, 15))
    assert status == 0 and "Traceback" not in out, out[-800:]
    assert words in out and "60×15" in out and "Make the window" not in out, out[-600:]


def test_the_key_line_follows_the_language_chosen_at_the_first_start(state_dir: Path, monkeypatch):
    """Under a Russian locale the key line is Russian on the question; the owner chooses
    Українська: from then on it is the device's, Ukrainian."""
    import io

    from PIL import Image

    from firmware import i18n
    from firmware.terminal import TerminalScreen, keys_language
    for name in NO_LOCALE:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    store = Store(state_dir)
    console = Console(store, store.resume())
    try:
        out = io.StringIO()
        screen = TerminalScreen(out=out, blocks=False, keys_in=keys_language(store.load_settings))
        screen.show(Image.new("1", (128, 64), 0))
        assert "стрелки" in out.getvalue().split("\n")[-2]
        assert console.request("settings language=uk")["ok"]
        screen.show(Image.new("1", (128, 64), 0))
        assert "стрілки" in out.getvalue().split("\n")[-2]
    finally:
        console.close()
        i18n.set_language("en")
