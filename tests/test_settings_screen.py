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


def _told(app) -> str:
    """The notice over the screen, or the page of its own a longer one takes."""
    from firmware.screens.widgets import TextScreen
    top = app.stack[-1]
    return " ".join(top.paras) if isinstance(top, TextScreen) else " ".join(app.message or [])


@pytest.mark.parametrize("lang, said", [("en", "the simulator shows no change"),
                                        ("ru", "в симуляторе без изменений"),
                                        ("uk", "у симуляторі без змін")])
def test_contrast_in_the_simulator_says_once_that_the_picture_does_not_change(tmp_path: Path, lang: str,
                                                                             said: str) -> None:
    """p16-newuser: in the simulator Contrast changed and nothing on the picture did, without a
    word. Its first change there says it is the device's screen's (once: a held key goes on
    changing it); on the device nothing is said."""
    from firmware import i18n
    for simulated in (True, False):
        app = app_with([], TO_SETTINGS + ["down"], tmp_path / str(simulated), lang=lang)
        app.simulated = simulated
        try:
            i18n.set_language(lang)
            app.render()
            app.handle("right")
            assert app.settings["contrast"] == "4"
            told = _told(app)
            assert (said in told) == simulated, told
            app.handle("right")                     # closes the notice (a notice's key does nothing else)
            app.handle("right")
            assert app.settings["contrast"] == "5" and app.message is None      # once
        finally:
            app.console.close()
            i18n.set_language("en")


def _read_through_and_say_yes(app, question) -> int:
    """A pressed on the board's question until it says yes (A brings up its rows below first): the
    presses it took."""
    presses = 0
    while question in app.stack:
        app.render()
        app.handle("a")
        presses += 1
        assert presses < 10
    return presses


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("simulated", [False, True])
def test_the_board_question_says_yes_only_once_read_to_its_end(tmp_path: Path, lang: str, simulated: bool) -> None:
    """Settings → Buttons (Display too) asks in 9 to 11 rows, three shown at a time, and its
    warning comes after the first three («If the device is not | built so, its keys or its screen
    stop answering…»): A said yes on the first page, the board changed with the warning unread. Now
    A brings up the rest first, as on every long text (docs/keys.md), the footer saying «A: more»
    (ru «A: далее», uk «A: далі») until the last rows show; only then does A change the board."""
    from firmware import i18n
    from firmware.screens.widgets import ConfirmScreen
    from firmware.screens.widgets.confirm import ROOM
    from tests.screens import drawn
    app = app_with([], TO_SETTINGS + ["down"] * 3, tmp_path, lang=lang)        # Buttons
    app.simulated = simulated
    try:
        i18n.set_language(lang)
        app.render()
        app.handle("right")
        question = app.stack[-1]
        assert isinstance(question, ConfirmScreen) and len(question.rows) > 2 * ROOM
        seen: set[int] = set()
        while question in app.stack:
            footer = [t[2] for t in drawn(app)][-1]
            more = question.top + ROOM < len(question.rows)
            assert footer.startswith(i18n._("A: more")) is more, footer
            assert len(footer) <= 21
            assert app.settings["profile"] != "waveshare-hat", "changed before the question was read"
            seen.update(range(question.top, question.top + ROOM))
            app.handle("a")
        assert seen >= set(range(len(question.rows))) and app.settings["profile"] == "waveshare-hat"
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang, asked, kept", [
    ("en", "The simulator has no buttons or screen of its own: nothing changes here.", "Kept for the device"),
    ("ru", "У симулятора нет своих кнопок и экрана: здесь ничего не изменится.", "Сохранено для устройства"),
    ("uk", "Симулятор не має своїх кнопок і екрана: тут нічого не зміниться.", "Збережено для пристрою")])
def test_the_board_question_in_the_simulator_says_what_is_true_there(tmp_path: Path, lang: str, asked: str,
                                                                     kept: str) -> None:
    """p16-newuser: in the simulator Buttons and Display asked whether the keys or the screen
    should «stop answering» until set back over the serial link — not true there, which has no
    buttons or panel of its own. There it says the setting is for the device and changes nothing
    here; on the device the warning stays."""
    from firmware import i18n
    from firmware.screens.widgets import ConfirmScreen
    for simulated in (True, False):
        app = app_with([], TO_SETTINGS + ["down"] * 3, tmp_path / str(simulated), lang=lang)    # Buttons
        app.simulated = simulated
        try:
            i18n.set_language(lang)
            app.render()
            app.handle("right")
            question = app.stack[-1]
            assert isinstance(question, ConfirmScreen)
            text = str(question.question)
            assert (asked in text) == simulated and ("serial" in text or "последоват" in text or
                                                      "послідовн" in text) != simulated, text
            _read_through_and_say_yes(app, question)                  # yes (once read to its end)
            assert app.settings["profile"] == "waveshare-hat"
            assert (kept in _told(app)) == simulated, _told(app)
        finally:
            app.console.close()
            i18n.set_language("en")


@pytest.mark.parametrize("locale, first, other", [("uk_UA.UTF-8", "uk", "ru"), ("ru_RU.UTF-8", "ru", "uk")])
def test_what_shows_over_the_first_starts_question_is_said_in_the_language_its_list_is_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: str, first: str, other: str) -> None:
    """p16-newuser: on the first start the list opens on Українська (or Русский), but hold B said
    "Nothing to undo." and a state directory on tmpfs «At start… Nothing saved here survives a
    power cut» in English. They are said in the language the list is on, and follow its cursor;
    the serial link's replies stay English until a language is chosen (PROTOCOL.md)."""
    from engine.text import Msg
    from firmware.app import App
    from firmware.console import Console
    from firmware.i18n import LOCALE_VARIABLES, language, say
    from firmware.screens.language import LanguageScreen
    from firmware.screens.notices import NoticesScreen
    from firmware.store import Store
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", locale)
    tmpfs = Msg("Nothing saved here survives a power cut: {} is a {} file system (RAM). Turn the overlay file "
                "system off (sudo raspi-config nonint disable_overlayfs, then reboot) or set LEGATUS_STATE_DIR "
                "to a directory on the SD card.", "/", "tmpfs")
    store = Store(tmp_path)
    console = Console(store, store.resume())
    try:
        app = App(console)
        question = app.stack[-1]
        assert isinstance(question, LanguageScreen)
        app.start_notice(say(tmpfs))                    # as firmware/device.py's start notices
        app.render()
        notices = app.stack[-1]
        assert isinstance(notices, NoticesScreen)
        assert notices.title == say("At start", first) and say(tmpfs, first) in " ".join(notices.paras)
        app.handle("b")                                  # the notices close: the question
        app.render()
        assert app.stack[-1] is question and question.on() == first
        app.handle("b:hold")                             # undo: nothing to undo
        app.render()
        assert app.message == [say(Msg("Nothing to undo."), first)], app.message
        reply = console.request("undo")                  # the serial link: English still
        assert not reply["ok"] and reply["message"].startswith("No session yet"), reply
        app.handle("a")                                  # (the notice closes)
        app.handle("up" if other == "ru" else "down")    # the list on the other language
        app.render()
        assert question.on() == other
        app.handle("b:hold")
        app.render()
        assert app.message == [say(Msg("Nothing to undo."), other)], app.message
        assert language() == "en" and app.settings.get("language", "en") == "en"     # nothing chosen yet
    finally:
        console.close()
        from firmware.i18n import set_language
        set_language("en")
