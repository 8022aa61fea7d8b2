"""Languages: gettext catalogs for English (the source), Russian and Ukrainian.

Catalogs live in ``firmware/locale/<lang>/LC_MESSAGES/<domain>.mo`` (compiled from the ``.po``
sources beside them by ``scripts/i18n.py compile``); every domain of a language is loaded and
chained, so a message may sit in any of them. English needs no catalog.

- :func:`set_language` / :func:`language`: the language the device and the console speak now
  (one thread owns the state, so a module-level choice is enough).
- :func:`domain`: the texts of one catalog domain (a game's own, ``history``, ``legatus``), named
  explicitly where they are written: ``T = domain("jc")``, then ``T.gettext`` (``_``),
  ``T.ngettext`` and ``T.say``. A game's screens take theirs from ``firmware/screens/<game>/text.py``,
  History's modules from ``firmware/history_text.py``; :func:`_`, :func:`ngettext` and :func:`say`
  here are the shared ones (``legatus``). scripts/i18n.py extracts each file's texts into the
  domain the file binds, so where a text is said and where it is catalogued always agree.
- :func:`_` and :func:`ngettext`: the firmware's own texts, looked up when drawn.
- :func:`say`: any text for a person — a :class:`engine.text.Msg` is formatted in the chosen
  language in the words of its own domain (values translated too), a plain string (and a Msg
  of no domain) in those of the domain saying it.
- :func:`localize`: a response object with every Msg in it said in the chosen language.

No domain is ever guessed from the calling code: moving a function to another file keeps the
words it binds (the gettext of its domain) and the Msgs it makes (its game's ``Msg``).
"""
from __future__ import annotations

import copy as _copy
import gettext as _gettext
import io as _io
import logging
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from engine.text import Msg, N_

LANGUAGES: tuple[str, ...] = ("en", "ru", "uk")
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська"}
LOCALE_DIR = Path(__file__).with_name("locale")

log = logging.getLogger(__name__)
_current = "en"
UNREADABLE: list[tuple[str, Msg | str]] = []     # catalog files that could not be read, and why (the App says so)


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on; raises ValueError for a language we have no catalog for."""
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    _current = lang


def language() -> str:
    return _current


LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")     # gettext's order


def locale_language(environ: Mapping[str, str]) -> str | None:
    """The language of the locale ``environ`` sets, when it is one of :data:`LANGUAGES`: the first of
    :data:`LOCALE_VARIABLES` set, as gettext reads them (``ru_RU.UTF-8`` is ``ru``; ``$LANGUAGE``
    is a list, ``de:uk``: its first language we have); None when none is set (the systemd unit
    sets none), or the first set names none of ours (``C``, ``POSIX``, ``de_DE``)."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if not value:
            continue
        found = [lang for lang in (part.split("_")[0].split(".")[0].split("@")[0].lower()
                                   for part in value.split(":")) if lang in LANGUAGES]
        return found[0] if found else None       # (gettext, too, reads only the first one set)
    return None


DECIMAL_COMMA = frozenset({"ru", "uk"})      # languages that write 13,5 (English: 13.5)


def decimal(x: float, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals and the current language's decimal mark (ru/uk: a comma)."""
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if _current in DECIMAL_COMMA else text


def decimal_mark(text: str) -> str:
    """A figure written with a decimal point (``58.5%``) in the current language's mark (ru/uk: ``58,5%``)."""
    return text.replace(".", ",") if _current in DECIMAL_COMMA else text


SHARED_DOMAINS: tuple[str, ...] = ("legatus", "history")


@lru_cache(maxsize=1)
def game_domains() -> tuple[str, ...]:
    """The games' own catalogs, as their records name them (firmware/games.py)."""
    from firmware.games import records
    return tuple(dict.fromkeys(r.domain for r in records() if r.domain not in SHARED_DOMAINS))


def known_domain(name: str) -> str:
    """``name`` if it is a catalog domain (a registered game's or a shared one), else ``legatus``
    (what a sentence stored before domains were explicit names: the shared engine module that made
    it, ``"bag"``, ``"dice"`` …, whose words were always the shared ones)."""
    return name if name in SHARED_DOMAINS or name in game_domains() else "legatus"


_game = "legatus"             # the domain of the game being played (the session's), else legatus


def set_game(name: str | None) -> None:
    """The session's game (``caesar-solo``, ``jc-battle``…): a text from a shared screen (a form,
    a list) that two games translate differently is said in this game's words."""
    global _game
    if name is None:                      # no session: the shared words (no record to load)
        _game = "legatus"
        return
    from firmware.games import record_of
    record = record_of(name)
    _game = record.domain if record is not None else "legatus"


@lru_cache(maxsize=None)
def _mo_files(lang: str) -> dict[str, _gettext.GNUTranslations]:
    """domain -> its compiled catalog for ``lang``, read and parsed once (unreadable or damaged
    ones left out, said once); each chain (:func:`_chain`) links copies of them."""
    out: dict[str, _gettext.GNUTranslations] = {}
    try:
        files = sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo"))
    except OSError as e:
        _unreadable(LOCALE_DIR / lang / "LC_MESSAGES", e)
        files = []                         # an unreadable catalog folder: speak English
    for mo in files:
        try:
            out[mo.stem] = _gettext.GNUTranslations(_io.BytesIO(mo.read_bytes()))
        except (OSError, ValueError, UnicodeDecodeError) as e:
            _unreadable(mo, e)
    return out


def _unreadable(path: Path, e: Exception) -> None:
    """Log and keep (for the panel) a catalog file that cannot be read or parsed: its texts are
    shown in English."""
    from firmware.store.reasons import reason     # (loaded only then)
    name = str(path.relative_to(LOCALE_DIR)) if path.is_relative_to(LOCALE_DIR) else str(path)
    log.error("the translation file %s cannot be read (%s); its texts are shown in English", name,
              str(e) or type(e).__name__)
    UNREADABLE.append((name, reason(e) if str(e) else type(e).__name__))   # (the system's English text: the log's)


def catalog(lang: str, first: str = "legatus") -> _gettext.NullTranslations:
    """Every domain's catalog of ``lang`` chained into one: domain ``first``, then the game being
    played, then the shared ones, then the other games'. A damaged ``.mo`` is skipped: the texts
    it held show in English rather than stop the device."""
    return _chain(lang, first, _game)


@lru_cache(maxsize=None)
def _chain(lang: str, first: str, game: str) -> _gettext.NullTranslations:
    chain: _gettext.NullTranslations = _gettext.NullTranslations()
    if lang == "en":
        return chain
    files = _mo_files(lang)
    order = list(dict.fromkeys([first, game, *SHARED_DOMAINS, *game_domains()]))
    order += sorted(d for d in files if d not in order)
    head: _gettext.NullTranslations | None = None
    for domain in order:
        if domain not in files:
            continue
        t = _copy.copy(files[domain])        # its own link to the next (the texts are shared)
        if head is None:
            head = t
        else:
            head.add_fallback(t)
    return head if head is not None else chain


class Domain(NamedTuple):
    """The texts of one catalog domain: its words first, then the session's game's, then the
    shared ones, then the other games' (:func:`catalog`)."""

    name: str

    def gettext(self, message: str) -> str:
        """``message`` in the current language, in this domain's words."""
        return catalog(_current, self.name).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` that fits ``n``, in the current language."""
        return catalog(_current, self.name).ngettext(singular, plural, n)

    def say(self, text: Any, lang: str | None = None) -> str:
        """``text`` for a person in ``lang`` (default: the current language): a Msg in the words
        of its own domain (this one's if it has none, as a :class:`Spoken` that can be said again),
        a plain string in this domain's."""
        if isinstance(text, Msg):
            cat = catalog(lang or _current, known_domain(text.domain) if text.domain else self.name)
            return Spoken(text.say(cat.gettext, cat.ngettext), text, self.name)
        if isinstance(text, str):
            return catalog(lang or _current, self.name).gettext(text) if text else text
        return str(text)


class Spoken(str):
    """A sentence said in one language (a reply's ``message``, a log line) that keeps the Msg it
    was said from and the domain that said it, so that the device can say it again when the
    language changes (a notice still up when a ``settings language=…`` line comes in): see
    :func:`again`. It is its text everywhere else (JSON, comparisons); pickled, a plain str."""

    source: Msg
    speaker: str

    def __new__(cls, text: str, source: Msg, speaker: str) -> Spoken:
        self = super().__new__(cls, text)
        self.source = source
        self.speaker = speaker
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (str, (str(self),))


def sentence(text: str) -> str:
    """The sentence behind ``text`` (a :class:`Spoken` one's Msg), to stand in another Msg so that
    it is said again with it in a new language; any other text as it is."""
    return text.source if isinstance(text, Spoken) else text


class Sentences(Msg):
    """Whole sentences said one after the other (a notice of two things: "Round 5 ended; … Turn 2,
    round 1."), each in the words of its own domain; said again as a whole in a new language. A
    text that is no sentence (said from none) is kept as it is."""

    capital = False

    def __new__(cls, *parts: str, sep: str = " ", capital: bool = False) -> Sentences:
        kept = tuple(sentence(p) for p in parts if p)
        self = super().__new__(cls, sep.join("{}" for _p in kept), *kept)      # (``sep``: " · ", a list)
        assert isinstance(self, Sentences)
        self.capital = capital                    # the first letter a capital (a clause said alone)
        return self

    def say(self, gettext: Any, ngettext: Any) -> str:
        said = self.template.format(*(SHARED.say(p) if isinstance(p, Msg) else str(p) for p in self.args))
        return said[:1].upper() + said[1:] if self.capital else said


def again(text: str) -> str:
    """``text`` in the language chosen now: a :class:`Spoken` sentence or a Msg said (again) in
    it; any other text as it is (it was said in its words when it was made)."""
    if isinstance(text, Spoken):
        return domain(text.speaker).say(text.source)
    if isinstance(text, Msg):
        return SHARED.say(text)
    return text


@cache
def domain(name: str) -> Domain:
    """The texts of domain ``name`` (``firmware/locale/<lang>/LC_MESSAGES/<name>.po``)."""
    return Domain(name)


SHARED = domain("legatus")
_ = SHARED.gettext              # the shared texts (menus, forms, widgets, the console)
ngettext = SHARED.ngettext
say = SHARED.say


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


__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "N_", "Domain", "Msg", "Spoken", "_", "again", "catalog", "domain", "known_domain", "language",
           "Sentences", "localize", "ngettext", "say", "sentence", "set_game", "set_language"]
