"""Caesar!: how far the player read a turn's pages on screen (the ``caesar.read`` setting,
``<turn id>:<pages read>``, durable like every setting and not a game action, so that ``undo``
takes back the turn itself): after a power cut a turn is shown again from the first page not read.
A page of the turn's record said on more than one screen (his tile's notes that do not fit under
the tile, on a screen of their own) adds the screens of it read: ``<turn id>:<pages read>+<screens>``,
so that a power cut on its second screen does not show the first one, read, again; and the rows
of a long screen read on with A: ``@<rows>``, so that the screen comes back where the reader was. The last few
turns are kept, the latest first, separated by commas: an undo of his turn makes yours the turn
shown on opening the game again, and it was read."""
from __future__ import annotations

import logging
import re
import weakref
from typing import Any

from firmware.screens.ctx import Ctx

log = logging.getLogger(__name__)

READ_KEY = "caesar.read"        # how far the player read the turn: ``<turn id>:<pages read>[+<screens>][@<rows>]``
KEPT = 4                        # turns kept (an undo may take back three turns in a row: yours, his, yours)
# How far turns were read when the card refused to keep it (the setting not written), per running
# program: a turn read is not shown again while it runs (the home, or the end of a turn's pages,
# shows a turn not read: without this a refused write showed it again and again, no way out).
_UNSAVED: weakref.WeakKeyDictionary[Any, dict[str, tuple[int, int, int]]] = weakref.WeakKeyDictionary()


def _entries(ctx: Ctx) -> list[tuple[str, str]]:
    """The turns the setting names, the latest first: (turn id, how far read)."""
    out: list[tuple[str, str]] = []
    for entry in str(ctx.settings.get(READ_KEY) or "").split(","):
        stored, _sep, count = entry.rpartition(":")
        if stored:
            out.append((stored, count))
    return out


def read_at(ctx: Ctx, record_id: str) -> tuple[int, int, int]:
    """How far the player read the turn ``record_id`` (the ``caesar.read`` setting): the pages of
    its record read, the screens of the next page read, and the rows of the screen after those
    read on with A (0 for a turn it does not name)."""
    unsaved = _UNSAVED.get(ctx, {})
    if record_id in unsaved:
        return unsaved[record_id]
    count = next((c for stored, c in _entries(ctx) if stored == record_id), "")
    count, at, rows = count.partition("@")
    pages, plus, screens = count.partition("+")
    if not pages.isdecimal() or (plus and not screens.isdecimal()) or (at and not rows.isdecimal()):
        return 0, 0, 0
    return int(pages), int(screens or 0), int(rows or 0)


def pages_read(ctx: Ctx, record_id: str) -> int:
    """How many pages of the turn ``record_id`` the player has read (the ``caesar.read`` setting;
    0 for a turn it does not name)."""
    return read_at(ctx, record_id)[0]


def _keep(ctx: Ctx, record_id: str, how_far: tuple[int, int, int], what: str) -> None:
    count, screens, rows = how_far
    said = f"{record_id}:{count}" + (f"+{screens}" if screens else "") + (f"@{rows}" if rows else "")
    others = [f"{stored}:{c}" for stored, c in _entries(ctx) if stored != record_id]
    value = ",".join([said] + others[:KEPT - 1])
    unsaved = _UNSAVED.setdefault(ctx, {})
    unsaved.pop(record_id, None)
    if value == ctx.settings.get(READ_KEY):
        return
    response = ctx.set_setting(READ_KEY, value)
    if not response.get("ok"):
        unsaved[record_id] = how_far
        log.warning("the %s were not kept: %s", what, response.get("message"))


def mark_read(ctx: Ctx, record_id: str, count: int, screens: int = 0, rows: int = 0) -> None:
    """Keep that ``count`` pages of the turn ``record_id`` were read, ``screens`` screens of the
    next, and ``rows`` rows of the screen after those (durable: after a power cut the turn is
    shown again from where the reader was, never from a screen read)."""
    if (count, screens, rows) > read_at(ctx, record_id):
        _keep(ctx, record_id, (count, screens, rows), "pages read")


def unread_from(ctx: Ctx, record_id: str, count: int) -> None:
    """A turn just played shows its pages from engine page ``count`` on: they are not read, even
    if a turn with the same id was (taken back, then played again the same way — the same tile
    from the same stack, your same placement — gets the same id), so that a power cut shows them
    again. It becomes the latest turn the setting names."""
    _keep(ctx, record_id, min(read_at(ctx, record_id), (count, 0, 0)), "pages not read")


_TURN = re.compile(r"([a-z])(\d+)-")      # a turn's id: who (c his, p yours), the turn count, a checksum


def unread_taken_back(ctx: Ctx, held: list[str]) -> None:
    """The turns read that the game's state no longer holds (``held``: its last of his and of
    yours) and that are not older than the one it holds of their kind (his, yours; by the turn
    count in their ids: none held, none older) were taken back by an undo: they count as not read,
    so that the same turn played again over the serial link (the same tile, the same placement:
    the same id) is shown again — the table took its tokens back. A turn older than the one held
    of its kind, replaced by it, stays read (an undo that brings it back does not show it again)."""
    latest: dict[str, int] = {}
    for ident in held:
        if m := _TURN.match(ident):
            latest[m[1]] = max(latest.get(m[1], -1), int(m[2]))
    for stored, _count in _entries(ctx):
        m = _TURN.match(stored)
        if stored not in held and m and int(m[2]) >= latest.get(m[1], -1) and read_at(ctx, stored) != (0, 0, 0):
            unread_from(ctx, stored, 0)
