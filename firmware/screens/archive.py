"""Earlier sessions: the archive listed newest first; one can be reopened (Games → Earlier games).

Reopening replays the archived session through the console: its ``new`` line with its seed (a
secret seed stays secret: same commitment, not written on the line), then its effective action
lines. The result is the same state (the engine is deterministic), journaled as a new current
session; the session running before goes to the archive as ``new`` always does, and the archived
copy stays where it was.

Where the archive lives is the Store's business: the screens ask ``ctx.archives()`` (the App reads
``Store.archives``, firmware/store.py, read-only).
"""
from __future__ import annotations

import datetime
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from engine import actions as act
from engine.text import N_
from firmware.i18n import Msg, _, ngettext, sentence
from firmware.replies import ArchivedSession, ArchiveHeader
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.play import ReplaceQuestion, game_label, replaced_note
from firmware.screens.widgets import Item, WrappedListScreen

log = logging.getLogger(__name__)

MAX_LISTED = 40


@dataclass
class Archived:
    """One archived session: its journal header, its effective action lines, when it was left."""

    header: ArchiveHeader
    lines: Sequence[str]            # read from the store when first needed (its length is not)
    when: float
    unsynced: bool = False          # left (or, not known, begun) with the clock not set: its day is uncertain («~27.11»)

    @property
    def game(self) -> str:
        return str(self.header.get("game", ""))


def archived(entries: list[ArchivedSession]) -> list[Archived]:
    """The archived sessions that can be reopened (a header with its ``new`` line and seed)."""
    out: list[Archived] = []
    for entry in entries:
        header = entry["header"]
        if not isinstance(header.get("line"), str) or "seed" not in header:
            log.warning("archived session without its new line or seed left out: %s", header.get("sid"))
            continue
        out.append(Archived(header, entry["lines"], float(entry["ended"]), bool(entry.get("unsynced"))))
    return out


def open_archive(ctx: Ctx) -> None:
    stored = ctx.archives(MAX_LISTED + 1)   # one more: whether there are older ones to offer
    if stored is None:                      # never "No earlier games yet": that would say a loss as a fact
        ctx.notify(Msg("The earlier games cannot be read now. Check the card."))
        return
    found = archived(stored[:MAX_LISTED])
    if not found and len(stored) <= MAX_LISTED:
        ctx.notify(Msg("No earlier games yet."))
        return
    ctx.push(ArchiveScreen(found, more=len(stored) > MAX_LISTED))


def _day(when: float, unsynced: bool = False, form: str = "%d.%m") -> str:
    """The local day a session was left (``29.03``), marked ``~29.03`` as History marks a game's
    when the clock was not set (``unsynced``); none when that is not known (0: a session imported
    from an older Legatus's files), is no date, or was before Legatus existed (a clock nothing set: the store says 0).
    (``form="%H:%M"``: the time it was left.)"""
    if not when:        # (also 1970 or a fresh card's image date: the store gives 0 for it, not «~01.01»)
        return ""
    try:
        day = datetime.datetime.fromtimestamp(when).strftime(form)
    except (OverflowError, OSError, ValueError) as e:
        log.warning("an earlier game's time %r is not a date: %s", when, e)
        return ""
    return f"~{day}" if unsynced else day


def _days(found: Sequence[Archived], names: Sequence[str]) -> list[str]:
    """What each row shows beside its game: the day it was left; for two or more sessions of the
    same game left on one day, the time each was left instead (``18:40`` / ``21:05``), as History
    tells such games apart: rows that read the same could not say which one A reopens."""
    days = [_day(a.when, a.unsynced) for a in found]
    seen = Counter(zip(names, (d.lstrip("~") for d in days), strict=True))
    return [_day(a.when, a.unsynced, "%H:%M") if d and seen[(n, d.lstrip("~"))] > 1 else d
            for a, n, d in zip(found, names, days, strict=True)]


class ArchiveScreen(WrappedListScreen):
    """Earlier sessions, newest first: the game and the day it was left (the time, for two of one
    game on one day), ``~`` before it when the clock was not set, as in History (a long game name
    takes two rows: «Мешочек и колода»); A asks, then reopens. The newest :data:`MAX_LISTED` at
    first; ``more``: older ones are kept too, and "Older games…" under the list lists
    :data:`MAX_LISTED` more (never one kept that cannot be reopened)."""

    def __init__(self, found: list[Archived], more: bool = False) -> None:
        super().__init__()
        self.found = found
        self.more = more
        self.read = MAX_LISTED              # the archived sessions read (the newest)

    title = Said(N_("Earlier games"))

    def items(self, ctx: Ctx) -> list[Item]:
        names = [game_label(a.game) for a in self.found]
        out = [Item(name, partial(self._ask, a), day)
               for a, name, day in zip(self.found, names, _days(self.found, names), strict=True)]
        if self.more:     # (its ident names the sessions read: the cursor stays on the first older one)
            out.append(Item(_("Older games…"), self._older, ident=f"older:{self.read}"))
        return out

    def _older(self, ctx: Ctx) -> None:
        stored = ctx.archives(self.read + MAX_LISTED + 1)
        if stored is None:
            ctx.notify(Msg("The earlier games cannot be read now. Check the card."))
            return
        self.read += MAX_LISTED
        self.found, self.more = archived(stored[:self.read]), len(stored) > self.read

    def _ask(self, a: Archived, ctx: Ctx) -> None:
        ctx.push(remade(lambda: self._question(a, ctx)))

    @staticmethod
    def _question(a: Archived, ctx: Ctx) -> ReplaceQuestion:
        n = len(a.lines)
        question = ngettext("Reopen {} ({} step)?", "Reopen {} ({} steps)?", n).format(game_label(a.game), n)
        view = ctx.view()
        if view is not None:
            question += " " + (replaced_note(view) or _("The current one is archived."))
        return ReplaceQuestion(_("Reopen?"), question, partial(_reopen, a), view, _("A: reopen"), _("B: no"))


def _reopen(a: Archived, ctx: Ctx) -> None:
    reopen(ctx, a)


def reopen(ctx: Ctx, a: Archived) -> bool:
    """Replay ``a`` as the current session; back to the main menu, which offers to resume it."""
    response = ctx.reopen(a.header["line"], int(a.header["seed"]), bool(a.header.get("committed")),
                          int(a.header.get("v", 1)),      # its draws' derivation: the same draws
                          ends=bool(a.lines) and a.lines[-1] == act.end(), lines=a.lines,
                          was=str(a.header.get("sid") or ""))   # (its play time goes on from this one's)
    if not response["ok"]:
        ctx.notify(response.get("message", ""))
        return False
    said = Msg("Reopened: choose Resume in the menu.")
    for i, step in enumerate(a.lines):
        replayed = ctx.run(act.replayed(step))
        if not replayed["ok"]:
            said = Msg("Reopened up to step {}: {}", i, sentence(replayed.get("message", "")))
            break
    ctx.to_root()               # first: a notice too long for its box is a screen of its own (ctx.notify),
    ctx.notify(said)            # which going to the menu after it took off unread
    return True
