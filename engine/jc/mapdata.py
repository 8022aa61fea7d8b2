"""Cities and seas of the *Julius Caesar* map: VP values, ports, winter supply (J-17, J-19, J-20).

Data: ``engine/data/julius_caesar_map.json`` (with its provenance note). City names are matched
without regard to case, with ``_`` or ``-`` for spaces, and the rules' English spellings are
accepted too (``Rome`` for ``Roma``, ``Antioch`` for ``Antiochia``...).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.datafile import read_json
from engine.errors import BadArguments
from engine.jc.latin import hint as latin_hint
from engine.jc.text import Msg

BASE_SUPPLY = 3   # J-19: every city supplies 3 blocks, plus its VP value


@dataclass(frozen=True)
class City:
    name: str
    kind: str            # inland | port | major_port
    vp: int
    seas: tuple[str, ...]

    @property
    def supply(self) -> int:
        """Blocks it can keep in winter (J-19): 3 + VP."""
        return BASE_SUPPLY + self.vp


def _norm(text: str) -> str:
    return " ".join(text.replace("_", " ").replace("-", " ").lower().split())


@lru_cache(maxsize=1)
def _load() -> tuple[dict[str, City], dict[str, str]]:
    cities: dict[str, City] = {}
    aliases: dict[str, str] = {}
    for sp in read_json("julius_caesar_map.json")["spaces"]:
        if sp["type"] == "sea":
            continue
        city = City(sp["name"], sp["type"], int(sp["vp"]), tuple(sp.get("seas", ())))
        cities[city.name] = city
        aliases[_norm(city.name)] = city.name
        for alt in str(sp.get("rules_name", "")).split("/"):
            alt = alt.strip()
            if alt and not alt.startswith("("):
                aliases.setdefault(_norm(alt), city.name)
    return cities, aliases


def cities() -> dict[str, City]:
    """All 67 cities by name."""
    return _load()[0]


def vp_cities() -> dict[str, int]:
    """The 11 cities worth VP (13 in all, J-17)."""
    return {c.name: c.vp for c in cities().values() if c.vp}


def city(name: str) -> City:
    """The city called ``name``; raises BadArguments with suggestions if unknown."""
    found = _load()[1].get(_norm(name))
    if found is None:
        latin_hint(name, lambda word: _norm(word) in _load()[1])
        if not name.isascii():   # «Рим», «Новый Карфаген»: a city in the reader's words, not "no city"
            raise BadArguments(Msg("'{}': the console names the cities in Latin letters, as the board prints them "
                                   "(write spaces as _, e.g. Roma, Carthago_Nova).", name))
        low = _norm(name)[:3]
        hints = [c for c in cities() if low and c.lower().startswith(low)][:5]
        unknown = Msg("'{}' is not a city of the Julius Caesar map (write spaces as _, e.g. Carthago_Nova).", name)
        raise BadArguments(Msg("{} {}", unknown, Msg("Did you mean {}?", ", ".join(hints))) if hints else unknown)
    return cities()[found]
