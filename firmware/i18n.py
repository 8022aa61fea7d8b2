"""Languages: gettext catalogs for English (the source), Russian and Ukrainian.

Catalogs live in ``firmware/locale/<lang>/LC_MESSAGES/<domain>.mo`` (compiled from the ``.po``
sources beside them by ``scripts/i18n.py compile``); every domain of a language is loaded and
chained, so a message may sit in any of them. English needs no catalog.

- :func:`set_language` / :func:`language`: the language the device and the console speak now
  (one thread owns the state, so a module-level choice is enough).
- :func:`_` and :func:`ngettext`: the firmware's own texts, looked up when drawn.
- :func:`say`: any text for a person — a :class:`engine.text.Msg` is formatted in the chosen
  language (values translated too), a plain string is looked up as it is.
- :func:`localize`: a response object with every Msg in it said in the chosen language.
"""
from __future__ import annotations

import gettext as _gettext
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.text import Msg, N_

LANGUAGES: tuple[str, ...] = ("en", "ru", "uk")
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська"}
LOCALE_DIR = Path(__file__).with_name("locale")

_current = "en"


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on; raises ValueError for a language we have no catalog for."""
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    _current = lang


def language() -> str:
    return _current


@lru_cache(maxsize=None)
def catalog(lang: str) -> _gettext.NullTranslations:
    """Every domain's catalog of ``lang`` chained into one (loaded once). A damaged ``.mo`` is
    skipped: the texts it held show in English rather than stop the device."""
    chain: _gettext.NullTranslations = _gettext.NullTranslations()
    if lang == "en":
        return chain
    first: _gettext.NullTranslations | None = None
    try:
        files = sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo"))
    except OSError:
        files = []                         # an unreadable catalog folder: speak English
    for mo in files:
        try:
            with open(mo, "rb") as f:
                t = _gettext.GNUTranslations(f)
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        if first is None:
            first = t
        else:
            first.add_fallback(t)
    return first if first is not None else chain


def _(message: str) -> str:
    """``message`` in the current language."""
    return catalog(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that fits ``n``, in the current language."""
    return catalog(_current).ngettext(singular, plural, n)


def say(text: Any, lang: str | None = None) -> str:
    """``text`` for a person in ``lang`` (default: the current language)."""
    cat = catalog(lang or _current)
    if isinstance(text, Msg):
        return text.say(cat.gettext, cat.ngettext)
    if isinstance(text, str):
        return cat.gettext(text) if text else text
    return str(text)


def localize(obj: Any, lang: str | None = None) -> Any:
    """A copy of ``obj`` (response data) with every Msg in it said in ``lang``; plain strings
    (ids, names, codes) are left as they are."""
    if isinstance(obj, Msg):
        return say(obj, lang)
    if isinstance(obj, dict):
        return {k: localize(v, lang) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [localize(v, lang) for v in obj]
    return obj


__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "N_", "Msg", "_", "catalog", "language", "localize",
           "ngettext", "say", "set_language"]
