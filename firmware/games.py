"""The games as plug-ins: one :class:`GameRecord` per game, declared in the game's own package
(``firmware/screens/<game>/record.py``) and registered here, one line each (:data:`REGISTERED`).

``firmware/`` reads everything game-specific from the record — its menu title, the session game ids
it plays, its translation domain, the screen that opens it, what History records of a finished
game and the players of an abandoned one, its statistics — so no module of ``firmware/`` switches
on a game's id. A fifth game adds its package and one line below.

This module and the records import no screen and no storage (the console reads them too): a
record names its screens as ``"module:function"``, imported only when they are opened.
"""
from __future__ import annotations

import importlib
import logging
from types import MappingProxyType
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from firmware.replies import HistoryEntry

if TYPE_CHECKING:
    from firmware.screens.ctx import Ctx, Screen

log = logging.getLogger(__name__)

View = dict[str, Any]
Entry = Mapping[str, Any]       # a History entry as firmware/history.py hands it (typed: firmware/replies.py HistoryEntry)
Part = tuple[str, dict[str, Any]]   # (part, record without dates and ids)
_NO_SEATS: Mapping[str, str] = MappingProxyType({})   # (one read-only default for every record)


class Statistic(NamedTuple):
    """One page of History → Statistics: ``key`` in ``firmware.history.stats``, its ``title``
    (``N_`` marked), ``compute`` from the History entries (newest first) and the ``screen``
    (``"module:function"`` taking the Ctx) that shows it."""

    key: str
    title: str
    compute: Callable[[Sequence[Entry]], Any]
    screen: str


class GameRecord(NamedTuple):
    """One game for the device: all that ``firmware/`` needs to know of it."""

    ident: str
    """The record's own id (its package's name: ``caesar``, ``jc`` …)."""
    label: str
    """Its name in menus, English, marked with ``N_`` (said when drawn)."""
    sessions: tuple[str, ...]
    """The session game ids (``new <id>``) it plays: its Resume row continues them."""
    screens: str
    """``module:function`` of the screen that opens it (``open_game(ctx)``), imported when chosen."""
    domain: str = "legatus"
    """Its translation domain (``firmware/locale/<lang>/LC_MESSAGES/<domain>.po``)."""
    in_games_menu: bool = True
    """Listed under Games (a tool such as the dice is not)."""
    box_name: str = ""
    """The box's English name, as BG Stats and BoardGameGeek know it (History, exports)."""
    short: Callable[[HistoryEntry], str] | None = None
    """History's name of one recorded game, English ``N_`` text to be said (default: ``label``)."""
    finished: Callable[[str, View, str, dict[str, Any]], list[Part]] | None = None
    """The finished games (parts) a state holds: ``(session game, view, command, fields)`` of the
    action just run → ``[(part, record)]``. None: never recorded in History (a tool)."""
    players: Callable[[str, View], list[str]] | None = None
    """The players' names of a game abandoned before it finished."""
    first: Callable[[str, View], str | None] | None = None
    """Which of those (:attr:`players`) took the first turn (its ``startPlayer``), as its record
    of a finished game says; default: nobody (the device is not told)."""
    replayed: Callable[[View, str], tuple[str, dict[str, Any] | None]] | None = None
    """At a restart: the last action line's command and fields worked out again (what the state
    keeps no mark of, e.g. the Sword of Rome's automatic victory)."""
    over: Callable[[View, Sequence[str]], bool] | None = None
    """Whether the game's own rules have ended it (``View``, its effective action lines): then
    ``reveal`` may show the seed (PROTOCOL.md, third round). None: never by itself (a tool)."""
    began: Callable[[str], bool] | None = None
    """Whether a finished part began when its session began (History's ``started``: the session's
    start); default yes. Julius Caesar: a battle after the first began later, when nobody told the
    device, so its record has no start (exports date it by its end less its own play time: :attr:`playing`)."""
    playing: Callable[[Mapping[str, Any]], str | None] | None = None
    """For a session that plays several games in turn, each its own History record: the part a raw
    state (not a view: asked at each step) is playing, None between them (firmware/play_time.py
    times each such part apart). Julius Caesar: ``battle-N`` while battle N is set up or fought.
    None: the session's play time is each record's."""
    parted: Callable[[str], bool] | None = None
    """Whether a finished part is one :attr:`playing` names (its record's play time is the part's)."""
    seed_waits: Callable[[View], str | None] | None = None
    """Why ``reveal`` is refused now in the game's own words, where the common sentence misleads
    (Julius Caesar between battles: a battle is over, History has it finished, and the campaign it
    is part of goes on drawing from the seed); None: the common sentence."""
    seed_shown: Callable[[View], bool] | None = None
    """Once History has the game: whether its seed may be shown now (default yes; Julius Caesar: a
    battle is a part, the seed waits for the campaign's end)."""
    statistics: tuple[Statistic, ...] = ()
    """Its pages under History → Statistics."""
    seats: Mapping[str, str] = _NO_SEATS
    """The sides its players take (``caesar`` → ``N_("Caesar")``): a History player of that name is
    a side (its ``role``), and ``new … people=<side>:<name>,…`` names the person who plays it
    (firmware/session.py). Empty: its players are people (Glory)."""
    placeholders: tuple[str, ...] = ()
    """Names it gives that are not people (``N_`` marked: Glory's seat colours, Auto-Crassus)."""
    amends: Callable[[View, str], bool] | None = None
    """Whether an action (``command``) in this state only corrects a finished game whose score is
    not final yet (Glory after round 9: the score pad, fame, medals): it does not seal History's
    record of it, and the device does not end the game for it."""
    settings: Callable[[View], dict[str, Any]] | None = None
    """The mode's values of a game that did not finish by its rules (History's ``ended`` and
    ``abandoned`` entries; Caesar!: its rules ``edition``, PROTOCOL.md third round); default none."""
    settled: Callable[[View], str] | None = None
    """For a game whose record answers a read-only question (Glory's ``score``): that question's
    line when the saved state alone answers it (Glory: ``score sheet`` once its score pad holds a
    figure), else "" (the answer was given with the question: Glory's ``score <sheet>`` is in no
    stored action). History asks it when damage took the record and what is left of it does not
    say the result (firmware/history_rebuild.py); default: never (nothing is worked out)."""
    shown: Callable[[HistoryEntry], HistoryEntry] | None = None
    """A History entry as History shows it, in the player's words (its result said again, the
    players' names, the mode's values; ``mode["notes"]``: more rows); default: as stored."""
    undone: str = ""
    """``module:function`` of what the game does after an undo (it takes the Ctx), on the device
    (hold B) or over the serial link, wherever the device is — the main menu, Settings, History,
    none of its screens open —: what it keeps of the game beside the session learns what the
    undo took back (Caesar!: the turns read, ``caesar.read``: one taken back and played again the
    same way is shown again). Empty: nothing to follow."""

    def opener(self) -> Callable[[Ctx], None] | None:
        """The game's ``open_game``, or None while its screens are not there (shown as "coming")."""
        return _load(self.screens)

    def follower(self) -> Callable[[Ctx], object] | None:
        """The game's :attr:`undone`, or None when it has none (or it does not load)."""
        return _load(self.undone) if self.undone else None

    @property
    def recorded(self) -> bool:
        """Whether History records its games."""
        return self.finished is not None


# One line per game: the "module:attribute" of its record. The only place a game is registered.
REGISTERED: tuple[str, ...] = (
    "firmware.screens.caesar.record:RECORD",
    "firmware.screens.jc.record:RECORD",
    "firmware.screens.glory.record:RECORD",
    "firmware.screens.sword.record:RECORD",
    "firmware.screens.kit.record:DICE",
    "firmware.screens.kit.record:BAG",
)


@cache
def records() -> tuple[GameRecord, ...]:
    """Every registered game's record, in the registration's order (a record that does not load
    is left out, with a log line)."""
    out = []
    for ref in REGISTERED:
        module, _sep, attr = ref.partition(":")
        try:
            record = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            log.error("the game record %s does not load: %s", ref, e)
            continue
        if isinstance(record, GameRecord):
            out.append(record)
        else:
            log.error("%s is not a GameRecord", ref)
    return tuple(out)


def record_of(session_game: str | None) -> GameRecord | None:
    """The record that plays the session game ``session_game`` (``caesar-duel`` → Caesar!)."""
    for record in records():
        if session_game in record.sessions:
            return record
    return None


def unfinished_mode(game: str, view: View, kind: str) -> dict[str, Any]:
    """History's ``mode`` of a game that did not finish by its rules (``kind``: ``ended``,
    ``abandoned``), with the values its record keeps of it (:attr:`GameRecord.settings`)."""
    record = record_of(game)
    extra = record.settings(view) if record is not None and record.settings is not None else {}
    return {"kind": kind, **extra}


def finished_by_rules(game: str, view: Mapping[str, Any], lines: Sequence[str]) -> bool:
    """Whether the game's own rules have ended it (``lines``: its effective actions so far), as its
    record says (``over``): Caesar! C-12, a Julius Caesar campaign's end, Glory after round 9, Sword
    after turn 9 or an automatic victory. Bags and dice never end by themselves."""
    record = record_of(game)
    return record is not None and record.over is not None and record.over(dict(view), lines)


def player(name: str, score: Any, winner: bool, start: bool = False) -> dict[str, Any]:
    """One player of a History record."""
    return {"name": name, "score": score, "winner": bool(winner), "startPlayer": bool(start)}


def screen(ref: str) -> Callable[[Ctx], Screen] | None:
    """The screen factory ``"module:function"`` (a statistics page), or None if it does not load."""
    factory: Callable[[Ctx], Screen] | None = _load(ref)
    return factory


@cache
def _load(ref: str) -> Callable[[Ctx], Any] | None:
    module, _sep, attr = ref.partition(":")
    try:
        loaded: Callable[[Ctx], Any] = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        log.warning("the screens of %s do not load: %s", ref, e)
        return None
    return loaded


def follow_undo(game: str | None, ctx: Ctx) -> None:
    """After an undo, on the device or over the serial link, wherever the device is (the main menu,
    Settings, History: none of the game's screens open, none asked whether it is stale): the running
    ``game``'s own follow-up (:attr:`GameRecord.undone`), so that what it keeps beside the session
    learns what was taken back. A failure there is logged; the undo stands."""
    record = record_of(game) if game else None
    follow = record.follower() if record is not None else None
    if follow is None:
        return
    try:
        follow(ctx)
    except Exception:  # noqa: BLE001 - the undo is made: a game that cannot follow it says so in the log
        log.exception("%s could not follow the undo", record.ident if record is not None else "?")
