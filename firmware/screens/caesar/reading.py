"""Caesar!: how far the player read a turn's pages on screen (the ``caesar.read`` setting,
``<session>/<turn id>:<pages read>``, durable like every setting and not a game action, so that ``undo``
takes back the turn itself): after a power cut a turn is shown again from the first page not read.
A page of the turn's record said on more than one screen (his tile's notes that do not fit under
the tile, on a screen of their own) adds the screens of it read: ``<turn id>:<pages read>+<screens>``,
so that a power cut on its second screen does not show the first one, read, again; and the rows
of a long screen read on with A: ``@<rows>``, so that the screen comes back where the reader was. The last few
turns of each game are kept, the latest first, separated by commas: an undo of his turn makes yours the turn
shown on opening the game again, and it was read. Each entry names its game (its fair draw's
commitment, which a copy reopened from Earlier games keeps; a game started with ``seed=`` has none:
the id of the session it was first played in, which its copies keep too, ``FairDraw.game``): another
game's state never marks this one's turns unread, and its reads survive
another game played meanwhile. The running game's entries come first, then the other
games', the game last written first, as many whole games as fit in a setting's value (512
characters: three games at the least, four or five as a rule); an older game's are dropped. The
entries without a session (kept by a version before it, which kept one game's) count as the running
game's when one names a turn it holds by an id that game's alone (his turn's: his tile's draws;
yours by its steps after the placement; your placement's may be another game's: the same space and
token at the same turn), and are then written
under its session at the next write; else they are kept as they are, for the game they are of."""
from __future__ import annotations

import logging
import re
import weakref
import zlib
from typing import TYPE_CHECKING, Any, cast

from firmware.screens.ctx import Ctx
from firmware.settings import MAX_VALUE

if TYPE_CHECKING:
    from engine.caesar.views import CaesarGameView, TurnRecord

log = logging.getLogger(__name__)

READ_KEY = "caesar.read"        # how far the player read: ``<session>/<turn id>:<pages read>[+<screens>][@<rows>]``
KEPT = 4                        # turns kept of a game (an undo may take back three turns in a row: yours, his, yours)
_SID = re.compile(r"[0-9A-Za-z_-]{1,32}")       # a session id written as it is (this version's: 16 hex digits)
# How far turns were read when the card refused to keep it (the setting not written), per running
# program: a turn read is not shown again while it runs (the home, or the end of a turn's pages,
# shows a turn not read: without this a refused write showed it again and again, no way out).
_UNSAVED: weakref.WeakKeyDictionary[Any, dict[tuple[str, str], tuple[int, int, int]]] = weakref.WeakKeyDictionary()


def _session(ctx: Ctx) -> str:
    """The running game's name in the setting (:func:`game_name`)."""
    view = ctx.view()
    commitment = view["commitment"] if view is not None else None
    if commitment and _SID.fullmatch(commitment[:16]):
        return commitment[:16]
    fair = ctx.fair_draw()                  # (asked only without a commitment: it reads the store)
    return game_name(None, (fair.game or fair.session) if fair is not None else "")


def game_name(commitment: str | None, game: str) -> str:
    """A game's name in the setting: its fair draw's ``commitment`` (its first 16 digits), the
    same for a copy of the game reopened from Earlier games, which goes on with its secret seed;
    for a game started with ``seed=`` (none), ``game``: the id of the session it was first played
    in (``FairDraw.game``: its own, or for a copy reopened from Earlier games the one it is a copy
    of; two games started with one ``seed=`` never share it), by its checksum for an id that is not
    a short word, as a crafted import may hold (never a comma, a colon or a slash)."""
    if commitment and _SID.fullmatch(commitment[:16]):
        return commitment[:16]
    return game if _SID.fullmatch(game) else f"{zlib.crc32(game.encode('utf-8')):08x}"


def _all(ctx: Ctx) -> list[tuple[str, str, str]]:
    """Every entry the setting holds, in its order: (session, turn id, how far read); the session
    is "" for an entry kept by an older version (none named)."""
    out: list[tuple[str, str, str]] = []
    for entry in str(ctx.settings.get(READ_KEY) or "").split(","):
        stored, _sep, count = entry.rpartition(":")
        session, slash, turn = stored.rpartition("/")
        if turn:
            out.append((session if slash else "", turn, count))
    return out


def _older_ours(ctx: Ctx, stored: list[tuple[str, str, str]]) -> bool:
    """Whether the entries an older version kept (``stored`` with no session: it kept one game's) are
    the running game's: one of them names a turn the game holds by an id that is that game's alone —
    his last turn's (his tile and the tokens he drew), or your last turn's ``id`` when it says more
    than your placement (the tokens you drew after it: an older version kept your turn under it).
    Your placement's ``read_id`` may be any game's (the same space and token at the same turn):
    by it alone they count as no game's, and stay as they are."""
    view = ctx.view()
    if view is None:
        return False
    ids: set[object] = set()
    caesar = cast("CaesarGameView", view)
    his, mine = caesar.get("last_crassus_turn"), caesar.get("last_player_turn")
    if his is not None:
        ids |= {his.get("read_id"), his.get("id")}
    if mine is not None and mine.get("id") != mine.get("read_id"):
        ids.add(mine.get("id"))
    return any(stored_in == "" and turn in ids for stored_in, turn, _count in stored)


def _entries(ctx: Ctx, session: str, stored: list[tuple[str, str, str]] | None = None) -> list[tuple[str, str]]:
    """The turns the setting names of the game ``session``, the latest first: (turn id, how far
    read); the entries without a session (the older version kept one game's) count as the running
    game's when it holds his turn they name (:func:`_older_ours`)."""
    stored = _all(ctx) if stored is None else stored
    older = _older_ours(ctx, stored)
    out: dict[str, str] = {}
    for stored_in, turn, count in stored:
        if (stored_in == session or (older and stored_in == "")) and turn not in out:
            out[turn] = count
    return list(out.items())


def read_at(ctx: Ctx, record_id: str) -> tuple[int, int, int]:
    """How far the player read the turn ``record_id`` of the running game (the ``caesar.read``
    setting): the pages of its record read, the screens of the next page read, and the rows of the
    screen after those read on with A (0 for a turn it does not name)."""
    return _read_at(ctx, _session(ctx), record_id)


def _read_at(ctx: Ctx, session: str, record_id: str) -> tuple[int, int, int]:
    unsaved = _UNSAVED.get(ctx, {})
    if (session, record_id) in unsaved:
        return unsaved[session, record_id]
    count = next((c for stored, c in _entries(ctx, session) if stored == record_id), "")
    count, at, rows = count.partition("@")
    pages, plus, screens = count.partition("+")
    if not pages.isdecimal() or (plus and not screens.isdecimal()) or (at and not rows.isdecimal()):
        return 0, 0, 0
    return int(pages), int(screens or 0), int(rows or 0)


def pages_read(ctx: Ctx, record_id: str) -> int:
    """How many pages of the turn ``record_id`` the player has read (the ``caesar.read`` setting;
    0 for a turn it does not name)."""
    return read_at(ctx, record_id)[0]


def _keep(ctx: Ctx, session: str, record_id: str, how_far: tuple[int, int, int], what: str) -> None:
    count, screens, rows = how_far
    said = f"{session}/{record_id}:{count}" + (f"+{screens}" if screens else "") + (f"@{rows}" if rows else "")
    stored = _all(ctx)
    mine = [f"{session}/{turn}:{c}" for turn, c in _entries(ctx, session, stored) if turn != record_id]
    value = ",".join([said] + mine[:KEPT - 1])
    older = _older_ours(ctx, stored)
    games: dict[str, list[str]] = {}                 # the other games', the one last written first
    for stored_in, turn, c in stored:                # (an older version's, no game's: as they were)
        if stored_in != session and (stored_in or not older):
            games.setdefault(stored_in, []).append(f"{stored_in}/{turn}:{c}" if stored_in else f"{turn}:{c}")
    for entries in games.values():
        longer = ",".join([value] + entries[:KEPT])
        if len(longer) > MAX_VALUE:                 # (the setting's bound: older games are dropped)
            break
        value = longer
    unsaved = _UNSAVED.setdefault(ctx, {})
    unsaved.pop((session, record_id), None)
    if value == ctx.settings.get(READ_KEY):
        return
    response = ctx.set_setting(READ_KEY, value)
    if not response.get("ok"):
        unsaved[session, record_id] = how_far
        log.warning("the %s were not kept: %s", what, response.get("message"))


def mark_read(ctx: Ctx, record_id: str, count: int, screens: int = 0, rows: int = 0) -> None:
    """Keep that ``count`` pages of the turn ``record_id`` were read, ``screens`` screens of the
    next, and ``rows`` rows of the screen after those (durable: after a power cut the turn is
    shown again from where the reader was, never from a screen read)."""
    session = _session(ctx)
    if (count, screens, rows) > _read_at(ctx, session, record_id):
        _keep(ctx, session, record_id, (count, screens, rows), "pages read")


def unread_from(ctx: Ctx, record_id: str, count: int) -> None:
    """A turn just played shows its pages from engine page ``count`` on: they are not read, even
    if a turn with the same id was (taken back, then played again the same way — the same tile
    from the same stack, your same placement — gets the same id), so that a power cut shows them
    again. It becomes the latest turn the setting names."""
    session = _session(ctx)
    _keep(ctx, session, record_id, min(_read_at(ctx, session, record_id), (count, 0, 0)), "pages not read")


_TURN = re.compile(r"([a-z])(\d+)-")      # a turn's id: who (c his, p yours), the turn count, a checksum


def unread_taken_back(ctx: Ctx, held: list[str]) -> None:
    """The turns read of the running game that its state no longer holds (``held``: its last of
    his and of yours) and that are not older than the one it holds of their kind (his, yours; by the
    turn count in their ids: none held, none older) were taken back by an undo: they count as not
    read, so that the same turn played again over the serial link (the same tile, the same
    placement: the same id) is shown again — the table took its tokens back. A turn older than the
    one held of its kind, replaced by it, stays read (an undo that brings it back does not show it
    again). Another game's turns are not this one's to judge: they stay as read."""
    latest: dict[str, int] = {}
    for ident in held:
        if m := _TURN.match(ident):
            latest[m[1]] = max(latest.get(m[1], -1), int(m[2]))
    session = _session(ctx)
    for stored, _count in _entries(ctx, session):
        m = _TURN.match(stored)
        if stored not in held and m and int(m[2]) >= latest.get(m[1], -1) and _read_at(ctx, session, stored) != (0, 0, 0):
            _keep(ctx, session, stored, (0, 0, 0), "pages not read")


def taken_back(ctx: Ctx) -> None:
    """After an undo (the App follows one with it, the record's ``undone``, wherever the device is:
    the main menu, Settings, History, the game's home under a notice): the turns read of the running
    game that its state no longer holds count as not read (:func:`unread_taken_back`), so that his
    turn sent again the same way over the serial link (the same tile, the same id) is shown from its
    first page when the game is opened, the table having taken his tokens back (S-5)."""
    view = ctx.view()
    if view is None:
        return
    caesar = cast("CaesarGameView", view)
    turns: list[TurnRecord] = [t for t in (caesar.get("last_crassus_turn"), caesar.get("last_player_turn")) if t is not None]
    unread_taken_back(ctx, [str(i) for t in turns for i in (t.get("read_id"), t.get("id")) if i])
