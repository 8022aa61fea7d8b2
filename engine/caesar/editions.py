"""Rules editions: where the Russian and Ukrainian rulebooks make Caesar! play differently.

Each place is one named *variant* in ``engine/data/caesar_editions.json`` with the quote of each
edition beside it (and where it is in the rulebook). An edition is a value for every variant:
``ru`` (the Russian rulebook), ``uk`` (the Ukrainian rulebook) and ``mixed`` (what the program
played before editions existed, kept so that older sessions replay exactly as they were played).
A game's ``rules`` hold ``edition`` and the value of every variant (an explicit option overrides
one variant); the rules code reads the variant's value, never the edition.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from engine.datafile import read_json

EDITIONS: tuple[str, ...] = ("ru", "uk", "mixed")
LEGACY = "mixed"      # the edition of a game whose ``new`` line names none (sessions stored earlier)


class Variant(NamedTuple):
    """One place where the editions differ: its ``name`` (also the ``new`` option and the key in
    ``rules``), the digest's ``rule`` IDs, the allowed ``choices``, each edition's value, and the
    quote of each rulebook (``quotes[edition]`` = (where, quote, second quote or "")."""

    name: str
    rule: str
    choices: tuple[str, ...]
    values: dict[str, str]
    quotes: dict[str, tuple[str, str, str]]


def _load() -> dict[str, Any]:
    data: dict[str, Any] = read_json("caesar_editions.json")
    return data


DATA: dict[str, Any] = _load()
VARIANTS: dict[str, Variant] = {
    name: Variant(name, v["rule"], tuple(v["choices"]), dict(v["values"]),
                  {e: (v[e]["where"], v[e]["quote"], v[e].get("quote_2", "")) for e in ("ru", "uk")})
    for name, v in DATA["variants"].items()
}
assert set(EDITIONS) == set(DATA["editions"]), "caesar_editions.json: editions changed"
assert all(set(v.values) == set(EDITIONS) and set(v.values.values()) <= set(v.choices)
           for v in VARIANTS.values()), "caesar_editions.json: a variant lacks an edition's value"


def variant_values(edition: str) -> dict[str, str]:
    """The value of every variant in ``edition`` (one of :data:`EDITIONS`)."""
    return {name: v.values[edition] for name, v in VARIANTS.items()}


def edition_for_language(lang: str) -> str:
    """The edition a player of language ``lang`` reads: ``ru`` → ``ru``, ``uk`` → ``uk``; any
    other language keeps the rules the program played before editions (``mixed``)."""
    return lang if lang in ("ru", "uk") else LEGACY


def language_options(lang: str) -> dict[str, str]:
    """The ``new`` options a Caesar! game takes from the current language when its line gives
    none: the rules edition. The firmware writes them into the stored line (a replay keeps the
    edition whatever the language is later)."""
    return {"edition": edition_for_language(lang)}


def rules_with_defaults(rules: dict[str, str]) -> dict[str, str]:
    """``rules`` as stored by any version: a game stored before editions has no ``edition`` or
    ``harder-when``; it played the mixed rules, so it gets them (its other values are kept)."""
    if "edition" in rules and all(name in rules for name in VARIANTS):
        return rules
    out = {"edition": LEGACY, **variant_values(LEGACY), **rules}
    if "harder-when" not in rules and rules.get("harder", "off") != "off":
        out["harder-when"] = rules["harder"]
    return out
