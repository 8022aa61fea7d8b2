"""A card that stops taking writes while the device runs (the kernel made it read-only, it is full, the
state directory was made read-only: chmod 500), as the player meets it on the device: what the
panel says, in their language, and what the next keys do. The store's side (nothing acknowledged
lost, every change refused with its reason) is tests/test_storage_card_refuses.py's."""
from __future__ import annotations

import errno
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware.app import App
from firmware.console import Console
from firmware.device import Loop
from firmware.i18n import LANGUAGES, set_language
from firmware.screens.language import LanguageScreen
from firmware.store import Store
from hw.buttons import ButtonBank
from hw.keys import KeyFilter
from tests.test_storage_card_refuses import Card, card  # noqa: F401 - a fixture

REFUSED = {"en": "may no longer write in its", "ru": "больше не может писать", "uk": "більше не може писати"}
READ_ONLY = {"en": "storage is read-only", "ru": "только для чтения", "uk": "лише для читання"}


def _first_start(state_dir: Path) -> App:
    store = Store(state_dir)
    app = App(Console(store, store.resume()))
    assert isinstance(app.stack[-1], LanguageScreen) and app.stack[-1].first_start
    app.render()
    return app


def _on(app: App, lang: str) -> None:
    question = app.stack[-1]
    assert isinstance(question, LanguageScreen)
    while question.on() != lang:
        app.handle("down" if LANGUAGES.index(question.on()) < LANGUAGES.index(lang) else "up")


def _said(app: App) -> str:
    app.render()                                  # (the rows as drawn: over the question, in its list's language)
    return " ".join(getattr(app.stack[-1], "rows", []) or app.message or [])


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_first_start_choice_the_card_refuses_is_said_in_the_language_picked_and_asked_again(
        card: Card, state_dir: Path, lang: str) -> None:   # noqa: F811
    """It was said in English over an English main menu, the question gone (nothing stored: asked
    again only at the next start)."""
    set_language("en")
    app = _first_start(state_dir)
    try:
        card.sqlite, card.new_file = "unable to open database file", errno.EACCES     # chmod 500 on the folder
        _on(app, lang)
        app.handle("a")
        assert REFUSED[lang] in _said(app), _said(app)
        assert any(isinstance(s, LanguageScreen) for s in app.stack)             # the question stays
        assert "language" not in app.console.store.load_settings()
        app.handle("b")                                                          # the note closed
        assert isinstance(app.stack[-1], LanguageScreen)
        card.sqlite = card.new_file = None                                       # the right given back
        app.handle("a")
        assert app.console.store.load_settings()["language"] == lang
        assert not any(isinstance(s, LanguageScreen) for s in app.stack)
    finally:
        app.console.close()
        set_language("en")


def test_b_leaves_a_first_start_question_the_card_refused(card: Card, state_dir: Path) -> None:  # noqa: F811
    set_language("en")
    app = _first_start(state_dir)
    try:
        card.sqlite, card.new_file = "unable to open database file", errno.EROFS
        app.handle("a")
        app.handle("b")                                                          # the note
        app.handle("b")                                                          # the question
        assert not any(isinstance(s, LanguageScreen) for s in app.stack)
        assert "language" not in app.console.store.load_settings()
    finally:
        app.console.close()


PINS = {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}


class Panel:
    """The device's Output as the loop drives it (a luma device's frames)."""

    def __init__(self) -> None:
        from luma.core.device import dummy
        self.device = dummy(width=128, height=64, mode="1")

    def show(self, img) -> None:  # type: ignore[no-untyped-def]
        self.device.display(img)

    def blank(self, blanked: bool, img) -> None:  # type: ignore[no-untyped-def]
        pass

    def contrast(self, level: int) -> None:
        pass


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_card_made_read_only_mid_game_is_said_on_the_panel_and_the_next_keys_save_nothing(
        card: Card, state_dir: Path, lang: str) -> None:  # noqa: F811
    """The buttons (gpiozero's MockFactory) and the panel (luma's dummy device) as on the Pi: a dice
    game played, the card remounted read-only by the kernel, then A (roll), hold B (undo) and A: the
    panel says why in the player's language each time, nothing changes, the program goes on; once
    the card takes writes again the next roll is saved."""
    from tests.screens import app_with, on_dummy
    Device.pin_factory = factory = MockFactory()
    clock = [0.0]
    app = app_with([], [], state_dir, lang)
    out = Panel()
    loop = Loop(app, out, KeyFilter(), clock=lambda: clock[0])
    import queue
    q: queue.Queue = queue.Queue()
    bank = ButtonBank(PINS, q.put, clock=lambda: clock[0], pin_factory=factory)

    def tap(key: str, hold: float = 0.05) -> None:
        pin = factory.pin(PINS[key])
        pin.drive_low()
        while not q.empty():
            loop.handle(q.get_nowait())
        clock[0] += hold
        loop.tick()
        pin.drive_high()
        while not q.empty():
            loop.handle(q.get_nowait())
        clock[0] += 1.0
        loop.tick()
    try:
        loop.redraw()
        for key in ("down", "a", "a", "a"):                          # Dice & bags, Dice, roll 2d6
            tap(key)
        assert app.console.session is not None and app.console.session.lines == ["roll 2d6"]
        state = app.console.request("state")["state"]
        card.sqlite, card.new_file, card.db_file, card.read_only = ("attempt to write a readonly database",
                                                                    errno.EROFS, errno.EROFS, True)
        for keys in (("a",), ("b:hold", "a")):                      # a roll; an undo asked and answered
            for key in keys:
                tap(*(key.split(":")[0], 1.0) if key.endswith(":hold") else (key,))
            assert READ_ONLY[lang] in _said(app), (keys, _said(app))
            assert out.device.image.tobytes() == on_dummy(app.render()).tobytes()   # what the panel shows
            assert app.console.request("state")["state"] == state
            tap("b")                                                 # the note closed
        card.sqlite = card.new_file = card.db_file = None
        card.read_only = False
        tap("a")
        assert app.console.request("state")["state"]["actions"] == state["actions"] + 1
    finally:
        bank.close()
        app.console.close()
        factory.reset()
        set_language("en")
