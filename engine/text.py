"""Sentences as data: English text that remembers how to be said in another language.

The engine never translates. It returns :class:`Msg` objects wherever a person will read a
sentence (log lines, ``why``, error messages, names of game terms). A ``Msg`` *is* a ``str`` —
its value is the English sentence, so code and tests that treat it as text keep working — and it
also keeps its template and values, which :mod:`firmware.i18n` formats in the chosen language
through the gettext catalogs.

    Msg("Drew {} from the bag.", Msg.join(["gold", "silver"]))   ->  "Drew gold, silver from the bag."
    Msg("{n} token left.", n=1, plural="{n} tokens left.")       ->  plural chosen by ``n``
    term("Italia")                                                 ->  a translatable word

Templates use :meth:`str.format` fields (``{}``, ``{0}``, ``{name}``, ``{:+d}``). Values may be
Msg (translated recursively), numbers, plain strings (kept as they are: ids, player names) or
lists/tuples (each item translated, joined with ", ").

Each Msg belongs to a catalog *domain* (``Msg.domain``), named where it is made, never guessed
from the calling code: a game's engine makes its sentences with its own subclass
(``engine/<game>/text.py``: ``class Msg(engine.text.Msg): domain = "jc"``), so that a word two
games translate differently (Julius Caesar's and The Sword of Rome's "Battle") is said in its own
game's words wherever it is shown. This module's ``Msg`` and ``term`` are the shared ones
(``domain == ""``): said in the words of the code that says them.

Persisting: ``to_data`` turns a Msg into plain JSON data and ``from_data`` back, so a stored log
can be shown later in whatever language is chosen then. ``N_`` marks a literal for the catalog
extractor (scripts/i18n.py) without changing it.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]


def N_(s: str) -> str:
    """Mark ``s`` for extraction into the catalogs; returns it unchanged."""
    return s


class Msg(str):
    """An English sentence plus its template and values (see the module doc)."""

    template: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    plural: str | None
    domain: str = ""
    """The catalog domain whose words say it (a game's subclass sets its own; a sentence read
    back from data carries the one it was stored with); "" for the shared texts, said in the
    words of whoever says them."""
    kind: ClassVar[str] = ""
    """The name under which a subclass that says its text its own way is stored (listed in
    :data:`KINDS`, read back as that subclass); "" for every other sentence."""

    def __new__(cls, template: str, *args: Any, plural: str | None = None, **kwargs: Any) -> Self:
        self = str.__new__(cls, _english(template, args, kwargs, plural) if args or kwargs or plural is not None
                           else template)
        self.template = template
        self.args = args
        self.kwargs = kwargs
        self.plural = plural
        return self

    def say(self, gettext: Translate, ngettext: TranslatePlural) -> str:
        """This sentence in the language of ``gettext``/``ngettext`` (values translated too).

        A translation whose fields do not fit the values falls back to the English sentence
        rather than raise."""
        try:
            return _render(self.template, self.args, self.kwargs, self.plural, gettext, ngettext)
        except (IndexError, KeyError, ValueError, TypeError):
            return str(self)

    @staticmethod
    def join(items: Sequence[Any]) -> tuple[Any, ...]:  # type: ignore[override]
        """A list value: each item translated, joined with ", " (a tuple marks it)."""
        return tuple(items)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (to_data(self),))


def term(word: str) -> Msg:
    """A shared term or name that the catalogs translate (a game's own terms come from its
    ``engine/<game>/text.py``, in its own words)."""
    return Msg(word)


def _identity(s: str) -> str:
    return s


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _value(v: Any, gettext: Translate, ngettext: TranslatePlural) -> Any:
    if isinstance(v, Msg):
        return v.say(gettext, ngettext) if gettext is not _identity else str(v)
    if isinstance(v, (list, tuple)):
        return ", ".join(str(_value(x, gettext, ngettext)) for x in v)
    return v


def _english(template: str, args: tuple[Any, ...], kwargs: dict[str, Any], plural: str | None) -> str:
    """What :func:`_render` gives in English (no translation), made the short way: a Msg value is
    its English text already (``format`` writes ``str(value)``), so only list values and the
    plural form need a look."""
    if plural is not None and int(kwargs.get("n", args[0] if args else 1)) != 1:
        template = plural
    if args:
        for a in args:
            if isinstance(a, _LISTS):
                args = tuple([_joined(x) if isinstance(x, _LISTS) else x for x in args])
                break
        if not kwargs:
            return template.format(*args)
    elif not kwargs:
        return template
    for v in kwargs.values():
        if isinstance(v, _LISTS):
            kwargs = {k: _joined(x) if isinstance(x, _LISTS) else x for k, x in kwargs.items()}
            break
    return template.format(*args, **kwargs)


_LISTS = (list, tuple)


def _joined(items: list[Any] | tuple[Any, ...]) -> str:
    """A list value in English (:func:`_value` without translation): its items joined with ", "
    (texts, Msgs among them, as they are; numbers and inner lists written out)."""
    try:
        return ", ".join(items)
    except TypeError:
        return ", ".join([_joined(x) if isinstance(x, _LISTS) else str(x) for x in items])


def _render(template: str, args: tuple[Any, ...], kwargs: dict[str, Any], plural: str | None,
            gettext: Translate, ngettext: TranslatePlural) -> str:
    if plural is not None:
        n = kwargs.get("n", args[0] if args else 1)
        fmt = ngettext(template, plural, int(n))
    else:
        fmt = gettext(template)
    if not args and not kwargs:
        return fmt
    return fmt.format(*(_value(a, gettext, ngettext) for a in args),
                      **{k: _value(v, gettext, ngettext) for k, v in kwargs.items()})


# -- as plain data ---------------------------------------------------------------------------------
KINDS: dict[str, str] = {
    "tile": "engine.caesar.terms:TileLetter",     # a Caesar! tile's letters, as the rulebook prints them
}
"""The Msg subclasses that say their text their own way, by their ``kind``: ``module:class``,
imported when stored data of that kind is read back (made from its template alone)."""


def _kind(name: Any) -> Callable[[str], Msg] | None:
    """The subclass stored as ``name`` (None: no such kind, or it does not load: a plain Msg)."""
    ref = KINDS.get(name) if isinstance(name, str) else None
    if ref is None:
        return None
    module, _sep, attr = ref.partition(":")
    try:
        made = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None
    return made if isinstance(made, type) and issubclass(made, Msg) and made.kind == name else None


def to_data(x: Any, top: bool = True) -> Any:
    """Plain JSON data for a Msg (``{"t": template, "a": [...], "k": {...}, "p": plural, "o": domain}``,
    ``o`` the domain of a ``top`` sentence that has one) or for lists/dicts holding Msgs; other
    values are returned as they are. (Data stored before domains were explicit may hold in ``o``
    the name of the shared engine module that made the sentence, ``"bag"``, ``"dice"`` …: such a
    name is no catalog and is said in the shared words, as it always was.)"""
    if isinstance(x, Msg):
        d: dict[str, Any] = {"t": x.template}
        if x.args:
            d["a"] = [_arg_data(a) for a in x.args]
        if x.kwargs:
            d["k"] = {k: _arg_data(v) for k, v in x.kwargs.items()}
        if x.plural is not None:
            d["p"] = x.plural
        if top and x.domain:                  # a game's (or History's) sentence: said in its words
            d["o"] = x.domain
        if x.kind:
            d["c"] = x.kind
        return d
    if isinstance(x, list):
        return [to_data(v) for v in x]
    if isinstance(x, dict):
        return {k: to_data(v) for k, v in x.items()}
    return x


def _arg_data(v: Any) -> Any:
    if isinstance(v, tuple):
        return {"l": [_arg_data(x) for x in v]}
    return to_data(v, top=False)          # said with the words of the sentence it is part of


def from_data(d: Any) -> Any:
    """The inverse of :func:`to_data`. Malformed data gives its ``str`` rather than raise."""
    if isinstance(d, dict) and isinstance(d.get("t"), str):
        try:
            args = tuple(_arg_from(a) for a in d.get("a", ()))
            kwargs = {str(k): _arg_from(v) for k, v in dict(d.get("k", {})).items()}
            made = _kind(d.get("c"))
            m = made(d["t"]) if made is not None else Msg(d["t"], *args, plural=d.get("p"), **kwargs)
            if isinstance(d.get("o"), str) and d["o"]:
                m.domain = d["o"]
            return m
        except (IndexError, KeyError, ValueError, TypeError, AttributeError):
            return str(d["t"])
    if isinstance(d, list):
        return [from_data(v) for v in d]
    return d


def _arg_from(v: Any) -> Any:
    if isinstance(v, dict) and "l" in v and "t" not in v:
        return tuple(_arg_from(x) for x in v["l"])
    return from_data(v)


def _rebuild(data: Any) -> Any:
    return from_data(data)
