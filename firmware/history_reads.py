"""History as the screens read it (History's list, a game's page, the statistics): read again only
once the card may read differently, and said once on the panel when it cannot be read."""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from engine.text import Msg
from firmware.i18n import say
from firmware.replies import HistoryEntry, PlayedEntry
from firmware.storage import unchanged_since
from firmware.store.reasons import reason

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger("firmware.app")
R = TypeVar("R")


def _firsts(db: sqlite3.Connection, entries: list[R]) -> list[R]:
    """``entries`` as the screens join them: a copy's record written before records named the
    session its game was first played in given that session (``of``) from the copy's header, as
    the export reads it (firmware/history_joined.py ``with_firsts``)."""
    from firmware.history_joined import firsts, with_firsts
    if not entries:
        return entries
    return cast("list[R]", with_firsts(cast("list[Mapping[str, Any]]", entries), firsts(db)))


class HistoryReads:
    """The reads of History the App answers its screens with (``store``: the session store,
    ``notify``: the panel's notice)."""

    def __init__(self, store: Any, notify: Callable[[str], None]) -> None:
        self.store = store
        self.notify = notify
        self._read: dict[str, tuple[sqlite3.Connection, tuple[int, int, int], list[Any]]] = {}   # db, its mark
        self._unread: set[str] = set()       # stored tables said (once) to be unreadable now

    def history(self, limit: int | None = 50) -> list[HistoryEntry] | None:
        from firmware import fairness, history
        db = self.store.db     # with each ended game's seed, share and commitment (public once it has ended)
        mark, kept = unchanged_since(db), self._newest()
        if limit is not None and mark is not None and kept is not None and kept[0] is db and kept[1] == mark:
            read, got = kept[2], kept[3]        # History as read last: fewer newest games are a part of it,
            if read is None or read >= limit:   # more are the older rows read after it (each "Older games…"
                return list(got[:limit])        # read all again: 0.2 s here with 3,000 listed, 3 s on a Pi)
            return self._read_history(lambda: [*got, *_firsts(db, cast(list[HistoryEntry], fairness.attach(
                db, history.games(db, limit - read, skip=read))))], f"history {limit}")
        return self._read_history(lambda: _firsts(db, cast(list[HistoryEntry], fairness.attach(
            db, history.games(db, limit)))), f"history {limit}")

    def _newest(self) -> tuple[sqlite3.Connection, tuple[int, int, int], int | None, list[Any]] | None:
        """The read of the newest games kept (:meth:`_read_history`): db, mark, the rows it asked for
        (None: all), its entries."""
        for what, (db, mark, got) in self._read.items():
            if what.startswith("history "):
                n = what.removeprefix("history ")
                return db, mark, None if n == "None" else int(n), got
        return None

    def recorded(self, header: Mapping[str, Any]) -> bool:
        """Whether the session of ``header`` is over as History records it (its seed may show);
        False if History cannot be read now (logged: the seed stays hidden)."""
        from firmware import history
        try:
            return history.recorded(self.store.db, str(header["sid"]))
        except Exception:  # noqa: BLE001 - unreadable history: the seed stays hidden
            log.exception("history could not be read")
            return False

    def record(self, header: Mapping[str, Any], lines: Sequence[str], part: str) -> HistoryEntry | None:
        """What History keeps of ``part`` of the session of ``header`` (played ``lines``; a reopened
        copy: of the game it replays), newest; None: nothing, or History cannot be read now (logged)."""
        from firmware import history
        from firmware.history_seen import same_plays
        try:
            db = self.store.db
            sids = [str(header["sid"]), *(same_plays(db, dict(header), lines) if header.get("reopened") else ())]
            return cast("HistoryEntry | None", history.kept_record(db, sids, part))
        except Exception:  # noqa: BLE001 - unreadable history: the game's own score is shown
            log.exception("history could not be read")
            return None

    def played(self) -> list[PlayedEntry] | None:
        from firmware import history_played
        return self._read_history(lambda: _firsts(self.store.db, history_played.played(self.store.db)), "played")

    def _read_history(self, read: Callable[[], list[R]], what: str) -> list[R] | None:
        """``read()`` of History (a list, shared: never change its entries), or None (said once on
        the panel) if the card cannot give it. Read again only once it may read differently
        (:func:`~firmware.storage.unchanged_since`): History's list and a game's page read it at
        every key and frame, each statistics page all of it (4,000 games: 45 ms here, 0.7 s on a Pi)."""
        db = self.store.db
        kept, mark = self._read.get(what), unchanged_since(db)
        if mark is not None and kept is not None and kept[0] is db and kept[1] == mark:
            return list(kept[2])
        try:
            got = read()
        except Exception as e:  # noqa: BLE001 - an unreadable table must not end the screen
            log.exception("history could not be read")
            self._read.pop(what, None)
            self._unreadable(Msg("History cannot be read now ({}). Check the card.", reason(e)))
            return None
        self._unread.clear()
        if mark is not None:
            if what.startswith("history "):    # one read of the newest N kept (History's pages of older
                for key in [k for k in self._read if k.startswith("history ")]:   # games read more each:
                    del self._read[key]        # kept all, a year of History paged through took 100s of MB)
            self._read[what] = (db, mark, got)
        return list(got)

    def _unreadable(self, note: Msg) -> None:
        """Say on the panel that a stored table cannot be read now (never as an empty one): once,
        until it reads again, so a screen drawn again and again stays usable."""
        if note.template not in self._unread:
            self._unread.add(note.template)
            self.notify(say(note))

