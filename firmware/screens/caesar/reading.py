"""Caesar!: how far the player read a turn's pages on screen (the ``caesar.read`` setting,
``<turn id>:<pages read>``, durable like every setting and not a game action, so that ``undo``
takes back the turn itself): after a power cut a turn is shown again from the first page not read."""
from __future__ import annotations

import logging

from firmware.screens.ctx import Ctx

log = logging.getLogger(__name__)

READ_KEY = "caesar.read"        # how far the player read the turn on screen: ``<turn id>:<pages read>``


def pages_read(ctx: Ctx, record_id: str) -> int:
    """How many pages of the turn ``record_id`` the player has read (the ``caesar.read`` setting;
    0 for a turn it does not name)."""
    stored, _sep, count = str(ctx.settings.get(READ_KEY) or "").rpartition(":")
    return int(count) if stored == record_id and count.isdecimal() else 0


def mark_read(ctx: Ctx, record_id: str, count: int) -> None:
    """Keep that ``count`` pages of the turn ``record_id`` were read (durable: after a power cut
    the turn is shown again from the first page not read)."""
    if count <= pages_read(ctx, record_id):
        return
    response = ctx.set_setting(READ_KEY, f"{record_id}:{count}")
    if not response.get("ok"):
        log.warning("the pages read were not kept: %s", response.get("message"))


def unread_from(ctx: Ctx, record_id: str, count: int) -> None:
    """A turn just played shows its pages from engine page ``count`` on: they are not read, even
    if a turn with the same id was (taken back, then played again the same way — the same tile
    from the same stack, your same placement — gets the same id), so that a power cut shows them
    again."""
    if pages_read(ctx, record_id) <= count:
        return
    response = ctx.set_setting(READ_KEY, f"{record_id}:{count}")
    if not response.get("ok"):
        log.warning("the pages not read were not kept: %s", response.get("message"))
