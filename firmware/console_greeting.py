"""The first words ``legatus console`` says to a person at a terminal or a serial port: the
greeting, in the device's language once one is stored, else the locale's (PROTOCOL.md keeps the
replies English until ``settings language=``: the greeting says so)."""
from __future__ import annotations

import logging
import os

from engine.text import Msg
from firmware.store import Store

log = logging.getLogger("firmware.console")


def greeting(lang: str | None = None) -> str:
    """What a person who starts ``legatus console`` at a terminal is told first, in ``lang`` (else
    the language spoken now): it waits silently for a line otherwise. Its commands and the file
    it names stay as typed (PROTOCOL.md: commands stay English)."""
    from firmware.i18n import say
    said = say(Msg("the console is ready: type a command and Enter (one JSON reply a line); 'help' lists the "
                   "commands, docs/protocol.md describes them; 'quit' or Ctrl-D ends."), lang)
    return said + english_replies(lang)


def english_replies(lang: str | None) -> str:
    """The sentence (with its leading space) that tells a person greeted in ``lang``, a language
    not stored yet (:func:`greeting_language`), that the replies speak English until one is; ""
    for English or a stored language."""
    from firmware.i18n import say
    if lang is None or lang == "en":
        return ""
    return " " + say(Msg("Replies are in English until a language is chosen: 'settings language={}' chooses "
                         "this one.", lang), lang)


def greeting_language(store: Store) -> str | None:
    """The language the console's first lines (the greeting, the serial port's) are said in: the
    device's once one is stored (None: the one spoken), else the locale's (``LANG=uk_UA.UTF-8``:
    uk; PROTOCOL.md keeps the replies English until ``settings language=``). A Ukrainian who
    started ``legatus console`` on a new device was greeted in English."""
    from firmware.i18n import locale_language
    try:
        if "language" in store.load_settings():
            return None
    except Exception:  # noqa: BLE001 - unreadable settings: the language spoken (English)
        log.warning("the settings could not be read for the greeting", exc_info=True)
        return None
    lang = locale_language(os.environ)
    return None if lang in (None, "en") else lang
