"""Who a seat of a play is, said in the language of the moment: a side as the box names it, a
seat nobody was named for (Glory's colours), a player the game names itself (Caesar!'s
Auto-Crassus). Used by the exports (firmware/export.py) and History's pages."""
from __future__ import annotations

from functools import cache
from typing import Any


def side_word(game: str, role: str) -> str:
    """A side's name as the box names it (English: the game's name is English too)."""
    from firmware.games import record_of
    record = record_of(game)
    return record.seats.get(role, role.capitalize()) if record is not None else role.capitalize()


def seat_colour(game: str, name: str) -> str | None:
    """The seat (English: Glory's ``Red``) that ``name`` is, in any language («Красный»), in a game
    whose players take no sides: a seat nobody was named for; None for a person's name."""
    return _seat_names(game).get(name.strip().casefold())


@cache
def _seat_names(game: str) -> dict[str, str]:
    """Every name of ``game``'s seats in every language (casefolded) → the seat (:func:`_seat_colour`)."""
    from firmware.games import record_of
    from firmware.i18n import LANGUAGES, catalog
    record = record_of(game)
    if record is None or record.seats:
        return {}
    return {said.casefold(): seat for seat in record.placeholders
            for said in (seat, *(catalog(lang).gettext(seat) for lang in LANGUAGES))}


def seats_said(game: str, value: Any) -> Any:
    """``value`` (a result sentence, a player's name) with every seat nobody was named for said
    in the language of the moment: History keeps such a seat as it was said at the table
    («Красный» on a Russian device), which read «Красный and Анна share the win» in English and
    «Красный» among Ukrainian words; each becomes the seat's word (Glory's ``Red``), said when the
    sentence is. A person's name, or a game whose players take sides, is left as it is."""
    from engine.text import Msg
    if not _seat_names(game):
        return value
    if isinstance(value, Msg):
        return _with_values(value, tuple(seats_said(game, a) for a in value.args),
                            {k: seats_said(game, v) for k, v in value.kwargs.items()})
    if isinstance(value, (list, tuple)):
        return type(value)(seats_said(game, x) for x in value)
    if isinstance(value, str) and (seat := seat_colour(game, value)) is not None:
        return Msg(seat)
    if isinstance(value, str) and ", " in value and any(seat_colour(game, x) is not None for x in value.split(", ")):
        # names listed in one value (Glory's shared win: «Червоний, Синій» and «Жовтий»): each seat said,
        # a list value (a tuple: joined with ", " when said); it read «Червоний, Синій and Yellow» in English
        return tuple(seats_said(game, x) for x in value.split(", "))
    return value


def _with_values(said: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The sentence ``said`` (a Msg, of its own class and domain) with other values. Told apart by
    identity: a seat said as the word ``Msg("Red")`` equals the ``"Red"`` stored (a Msg is a str),
    so a game played in English, its seats stored as ``Red``, kept «Победа: Red» in Russian."""
    if len(args) == len(said.args) and all(a is b for a, b in zip(args, said.args)) \
            and kwargs.keys() == said.kwargs.keys() and all(kwargs[k] is said.kwargs[k] for k in kwargs):
        return said
    return type(said)(said.template, *args, plural=said.plural, **kwargs)


def placeholder_said(game: str, name: str) -> str | None:
    """A player the game names itself, no person and no seat (Caesar!'s Auto-Crassus), as the
    rulebook of the language set names it («Авто-Красс»); None for any other name."""
    from firmware.games import record_of
    from firmware.i18n import catalog, language
    record = record_of(game)
    if record is None or not record.seats or name not in record.placeholders:
        return None
    return catalog(language(), record.domain).gettext(name)
