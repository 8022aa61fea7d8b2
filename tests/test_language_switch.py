"""The language changed over the serial link (``settings language=…``) while screens are open: every
screen on the panel says its texts in the new language at once, as a program started in that
language would (docs/protocol.md ``settings``)."""
from __future__ import annotations

import re
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from firmware import i18n
from tests.screens import SECRET, app_with, drawn
from tests.test_no_clipped_text import SETUPS, START

NEXT = {"en": "ru", "ru": "uk", "uk": "en"}
WORD = re.compile(r"[^\W\d_]{3,}")
NOT_WORDS = {"adafruit", "waveshare", "english", "legatus", "auto", "bgstats"}     # names, in every language


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, frozenset[str]]:
    """The words each language's catalogs use (English: the msgids), lower case."""
    from scripts import i18n as catalogs
    words: dict[str, set[str]] = {"en": set(), "ru": set(), "uk": set()}
    for po in catalogs.LOCALE.glob("*/LC_MESSAGES/*.po"):
        for e in catalogs.read_po(po)[1].values():
            words["en"] |= {w.lower() for w in WORD.findall(e.msgid)}
            for s in e.msgstr:
                words[po.parts[-3]] |= {w.lower() for w in WORD.findall(s)}
    return {lang: frozenset(ws) for lang, ws in words.items()}


def foreign_words(texts: list[str], lang: str, allowed: set[str]) -> list[str]:
    """The words of ``texts`` that only another language's catalogs hold (a name the players typed,
    a bag's item, anything the game's state holds is ``allowed``)."""
    v = vocabulary()
    out = []
    for text in texts:
        for word in WORD.findall(text):
            w = word.lower()
            if w in v[lang] or w in allowed or w in NOT_WORDS or re.fullmatch("[0-9a-f]+", w):
                continue
            if lang == "en" and not re.search("[а-яёіїєґ]", w):
                continue                              # an English word not in the catalogs: a name
            if any(w in v[other] for other in v if other != lang):
                out.append(f"{word!r} in {text!r}")
    return out


def switch(app: Any, lang: str) -> None:
    """``settings language=<lang>`` from the serial link, as the device loop serves it."""
    reply = app.serve_line(f"settings language={lang}\n".encode())
    assert '"ok":true' in reply and app.settings["language"] == lang


def texts(app: Any, lang: str) -> list[str]:
    i18n.set_language(lang)              # (one process holds several programs here)
    return [t for _x, _y, t, _k in drawn(app)]


def where(app: Any, lang: str) -> tuple[Any, ...] | None:
    """What the screens of ``app`` draw from: its screens, the game, the log, History and the
    players it knows (None: the top screen is scrolled; a scroll kept from a text in another
    language stands elsewhere in this one)."""
    top = app.stack[-1]
    scroll = getattr(top, "scroll", None)
    if getattr(top, "top", 0) or (scroll is not None and scroll.top):
        return None
    i18n.set_language(lang)
    session = app.console.session
    asked = [app.console.request(line) for line in ("log 200", "history 100", "players")]
    return (tuple(type(s).__name__ for s in app.stack), app.message is not None, app.commitment is not None,
            None if session is None else (session.state_json, len(session.lines)), asked)


def prepared(setup: str, root: Path) -> Path:
    """A state folder after ``setup`` (console lines), made once and copied for each program."""
    folder = root / "setup"
    app = app_with([], [], folder)

    def run(line: str) -> dict:
        response = app.run(line)
        assert response["ok"], (line, response)
        return response
    how = SETUPS[setup]
    if callable(how):
        how(run)
    else:
        for line in how:
            run(line)
    app.console.close()
    return folder


def program(folder: Path, root: Path, name: str, lang: str, setup: str) -> Any:
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    copy = root / name
    shutil.copytree(folder, copy)
    store = Store(copy)
    console = Console(store, store.resume())
    assert console.request(f"settings language={lang}")["ok"]
    console._pending = SECRET
    app = App(console)
    if setup in START:
        START[setup](app)
    return app



def test_the_language_list_moves_to_the_language_set_over_the_serial_link(state_dir: Path) -> None:
    """Settings → Language open in English, ``settings language=uk`` from the serial link: the ✓ and
    the cursor stand on Українська (the cursor stayed on English, and A put English back)."""
    from firmware.screens.language import LanguageScreen
    app = app_with([], ["down"] * 3 + ["a", "a"], state_dir)            # Settings → Language
    try:
        screen = app.stack[-1]
        assert isinstance(screen, LanguageScreen) and texts(app, "en")[0] == "Language"
        switch(app, "uk")
        shown = texts(app, "uk")
        assert shown[0] == "Мова" and shown[shown.index("Українська") + 1] == "✓"
        assert screen.items(app)[screen.cursor].label == "Українська"
        app.handle("a")
        assert app.settings["language"] == "uk" and i18n.language() == "uk"
    finally:
        app.console.close()
