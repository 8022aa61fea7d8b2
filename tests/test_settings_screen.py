"""Settings on the device (firmware/screens/menu.py SettingsScreen): the keys on its values."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.screens import app_with

TO_SETTINGS = ["down"] * 3 + ["a"]          # main menu → Settings (Language, Contrast, Screen off, …)


@pytest.mark.parametrize("row, name, keys, values", [
    # Contrast 3: right, then held right (its repeats) stops at 5; held left stops at 1
    (1, "contrast", ["right"] + ["right:repeat"] * 4, ["4", "5", "5", "5", "5"]),
    (1, "contrast", ["left"] + ["left:repeat"] * 4, ["2", "1", "1", "1", "1"]),
    # Screen off 120 s: held left stops at its first value (never), held right at 600 s
    (2, "screen_off", ["left"] + ["left:repeat"] * 4, ["60", "30", "off", "off", "off"]),
    (2, "screen_off", ["right"] + ["right:repeat"] * 3, ["300", "600", "600", "600"]),
])
def test_a_held_direction_stops_at_the_end_of_a_scale(tmp_path: Path, row: int, name: str, keys: list[str],
                                                     values: list[str]) -> None:
    """A direction held down repeats (docs/keys.md): on Contrast it ran round, 4, 5, 1, 2, …, and on
    Screen off 60 s, 30 s, never, 600 s, …, so the value the key was let go on was chance. Left and
    right stop at the scale's ends, as a form's figure does."""
    app = app_with([], TO_SETTINGS + ["down"] * row, tmp_path)
    try:
        seen = []
        for key in keys:
            app.render()
            app.handle(key)
            seen.append(app.settings[name])
        assert seen == values
    finally:
        app.console.close()


def test_a_on_a_scale_still_goes_round(tmp_path: Path) -> None:
    """A (the row's main action) shows the next value and, from the last, the first: it is the one
    key that changes a value without left (SettingsScreen's docstring, docs/keys.md's choice row)."""
    app = app_with(["settings contrast=5"], TO_SETTINGS + ["down"], tmp_path)
    try:
        app.handle("a")
        assert app.settings["contrast"] == "1"
    finally:
        app.console.close()


@pytest.mark.parametrize("environ, key, lang", [({"LANG": "uk_UA.UTF-8"}, "b", "uk"), ({"LANG": "ru_RU.UTF-8"}, "left", "ru"),
                                               ({}, "b", "en")])
def test_back_on_the_first_starts_question_keeps_the_language_it_opened_on(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          environ: dict[str, str], key: str,
                                                                          lang: str) -> None:
    """The first start's language list opens on the locale's language (A keeps it); B or left there
    ("keep the default, ask no more") stored English instead, under a Russian or Ukrainian locale
    with Русский or Українська under the cursor, and the question was not asked again."""
    from firmware.app import App
    from firmware.console import Console
    from firmware.i18n import LOCALE_VARIABLES, set_language
    from firmware.screens.language import LanguageScreen
    from firmware.store import Store
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    store = Store(tmp_path)
    console = Console(store, store.resume())
    try:
        app = App(console)
        assert isinstance(app.stack[-1], LanguageScreen)
        app.render()
        app.handle(key)
        assert not isinstance(app.stack[-1], LanguageScreen)
        assert app.settings["language"] == lang
    finally:
        console.close()
        set_language("en")
