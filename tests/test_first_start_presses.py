"""A new user's first minutes in presses: README.md's table "Presses at the table" says how many
presses take a new device, from its first start (the language question), to each game's first
action with the forms' defaults. Each figure is played here through the real App on a fresh state
directory: the action comes at that press and not one press sooner."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCALES = {"en": "C.UTF-8", "ru": "ru_RU.UTF-8", "uk": "uk_UA.UTF-8"}


def _row() -> str:
    rows = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| a new user, from the first start")]
    assert len(rows) == 1, "README.md's presses table has no row for a new user's first start"
    return rows[0]


def _figure(pattern: str) -> list[int]:
    found = re.search(pattern, _row())
    assert found, (pattern, _row())
    return [int(x) for x in found.groups() if x is not None]


def _actions(c: Any) -> int:
    state = c.request("state").get("state") or {}
    return int(state.get("actions", 0))


def _started(c: Any) -> bool:
    return bool(c.request("state").get("ok"))        # (no_session until the form starts the game)


# the keys a new user presses from the first start; README's figures as patterns: the press that
# starts the game (None: a roll needs no form), the press of its first action
CASES: dict[str, tuple[list[str], str | None, str]] = {
    # Auto-Crassus plays first (S-8): his first play is the game's first action
    "caesar, the guide turned with right": (["a"] * 4 + ["right"] * 7, r"Caesar! solo: (\d+) to the set-up guide",
                                            r"\((\d+) turning them with right\)"),
    "jc, the first block": (["a", "a", "down", "a", "a", "down", "a", "a", "a"],
                            r"Julius Caesar: (\d+) to the battle's home", r"Julius Caesar: \d+ to the battle's home, (\d+) to its first block"),
    "glory, the event card": (["a", "a", "down", "down", "a", "a", "a"], r"For the Glory of Rome: (\d+) to round 1",
                              r"For the Glory of Rome: \d+ to round 1, (\d+) to its event card"),
    "sword, the first battle": (["a", "a", "down", "down", "down", "a", "a", "a", "a", "a"], r"The Sword of Rome: (\d+) to the home",
                                r"The Sword of Rome: \d+ to the home, (\d+) to its first battle"),
    "dice, the first roll": (["a", "down", "a", "a", "a"], None, r"Dice: (\d+) to the first roll"),
}


def _first_start(tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", LOCALES[lang])
    store = Store(tmp_path / "state")
    app = App(Console(store, store.resume()))
    app.render()
    return app


def _press(app: Any, keys: list[str], *done: Any) -> list[int | None]:
    """For each of ``done``, the press at which it first holds (1-based), or None."""
    first: list[int | None] = [None] * len(done)
    for n, key in enumerate(keys, 1):
        app.handle(key)
        app.render()
        for i, holds in enumerate(done):
            if first[i] is None and holds(app.console):
                first[i] = n
    return first


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_readmes_presses_from_the_first_start_to_each_games_first_action(case: str, lang: str, tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware.i18n import set_language
    from firmware.screens.language import LanguageScreen
    keys, started, acted = CASES[case]
    app = _first_start(tmp_path, lang, monkeypatch)
    try:
        assert isinstance(app.stack[-1], LanguageScreen) and app.stack[-1].first_start     # the question is up
        at_start, at_action = _press(app, keys, _started, lambda c: _actions(c) >= 1)
        assert at_action == _figure(acted)[0] == len(keys), (case, lang)
        if started is not None:
            assert at_start == _figure(started)[0], (case, lang)
        assert app.console.request("settings")["settings"]["language"] == lang    # A kept the locale's language
    finally:
        app.console.close()
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_readmes_presses_through_the_caesar_guide_with_a(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read with A, the set-up guide shows every row of a page before it turns (its length depends
    on the language's words): README gives the range over en, ru and uk."""
    from firmware.i18n import set_language
    low, high = _figure(r"(\d+)(?:–(\d+))? to Auto-Crassus's first play reading the guide's 7 pages with A")
    started = _figure(r"Caesar! solo: (\d+) to the set-up guide")[0]
    app = _first_start(tmp_path, lang, monkeypatch)
    try:
        assert _press(app, ["a"] * started, _started) == [started]
        n = _press(app, ["a"] * 40, lambda c: _actions(c) >= 1)[0]
        assert n is not None and low <= started + n <= high, (lang, started + n)
    finally:
        app.console.close()
        set_language("en")
