"""The language switched (Settings, or ``settings language=…`` from the serial link) while a notice is
up: it is said again in the new language, whole (firmware/app.py ``App._relanguage``)."""
from __future__ import annotations

from tests.screens import app_with


def test_a_notice_too_long_in_the_new_language_gets_its_own_page(state_dir):
    """A notice of three rows in English is five in Russian: a ``settings language=ru`` line while it
    is up opens it on its «Note» page as a long notice is said (its fifth row was dropped)."""
    from engine.caesar.text import Msg
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.widgets import TextScreen
    text = Msg("You cannot place any token and lose: Crassus wins.")
    app = app_with(["new caesar-solo seed=3"], ["a"], state_dir)
    try:
        app.notify(text)
        app.render()
        assert app.message is not None and len(app.message) == 3
        assert '"ok":true' in app.serve_line(b"settings language=ru")
        app.render()
        whole = i18n.domain("caesar").say(text)
        assert len(base.wrap(whole, base.COLS - 2)) > base.ROWS
        assert app.message is None and isinstance(app.stack[-1], TextScreen)
        assert " ".join(app.stack[-1].rows).split() == whole.split()       # every word of it
        assert '"ok":true' in app.serve_line(b"settings language=en")       # and again in English
        app.render()
        assert isinstance(app.stack[-1], TextScreen) and " ".join(app.stack[-1].rows).split() == str(
            i18n.domain("caesar").say(text)).split()
    finally:
        i18n.set_language("en")
        app.console.close()
