"""The times of an exported play (firmware/export.py): History's UTC ISO times read as the device's
local time, the date a play began (``playDate``) and its play time in whole minutes
(``durationMin``), with what a clock nothing had set (a Pi before the network came) makes unsure."""
from __future__ import annotations

import datetime as _dt
import logging
from typing import Any

log = logging.getLogger("firmware.export")       # (the export's log, as before the split)


def utc(iso: str | None) -> _dt.datetime | None:
    if not iso:
        return None
    try:
        when = _dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        log.warning("a History time does not parse: %r", iso[:40])
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=_dt.timezone.utc)


def local(iso: str | None) -> _dt.datetime | None:
    """A History time (UTC ISO) in the device's local time, as the players read their clock (and
    as ``playDate`` says it); None if there is none, it does not parse, or it is before Legatus
    existed (hw.clock ``EARLIEST``: a clock nothing had set; History shows no day for it, not 01.01)."""
    when = utc(iso)
    if when is None:
        return None
    from hw.clock import plausible
    if not plausible(when):     # (1970, a fresh card's image date: a clock nothing set, no date of a game)
        return None
    try:
        return when.astimezone()
    except (OverflowError, OSError, ValueError) as e:     # (year 9999 east of Greenwich, 1 west of it)
        log.warning("a History time is no local date: %r (%s)", iso[:40] if iso else iso, e)
        return None


def unset_clock(iso: str | None) -> bool:
    """Whether a History time is one a Pi's clock nothing had set says: from 1970 to before Legatus
    existed (hw.clock ``EARLIEST``; a fresh card's image date), a time :func:`local` gives as no
    date. (Not year 1: a clock set wildly, a damaged row.)"""
    when = utc(iso)
    from hw.clock import plausible
    return when is not None and when.timestamp() >= 0 and not plausible(when)


def dated_by(entry: dict[str, Any]) -> str:
    """Which recorded time dates the play: the start, unless it is unknown, or was taken while
    the clock was not set and the finish was not (a game begun before the network came: the
    start may say 1970 or the last shutdown, the finish is sure)."""
    unsynced = entry.get("unsynced") or ()
    if local(entry.get("started")) is None:
        return "finished"
    if "started" in unsynced and "finished" not in unsynced and local(entry.get("finished")) is not None:
        return "finished"
    return "started"


def play_date(entry: dict[str, Any]) -> str:
    """When the play began, in the device's local time (``YYYY-MM-DD HH:MM:SS``); if the start is
    unknown or unsure and the finish is sure (:func:`dated_by`), the finish less the minutes the
    device measured from its start (a start before NTP set the clock: History's ``span``, its
    pauses too, when it began and finished in one run of the device; else its play time, its
    ``minutes``: it began that long before its finish at least), else the finish. A play with no
    start of its own (a Julius Caesar battle after the first: nobody tells the device when the
    players reached for it) but its play time and a sure finish: the finish less that time (it
    began that long before it at least: BG Stats showed the battle as begun when it ended)."""
    by = dated_by(entry)
    iso, end = entry.get(by), utc(entry.get("finished"))
    minutes = entry.get("span") or entry.get("minutes")
    known = entry.get("started") or "finished" not in (entry.get("unsynced") or ())
    if by == "finished" and known and isinstance(minutes, int) and end is not None:
        iso = (end - _dt.timedelta(minutes=minutes)).isoformat()       # (in UTC: a DST change between)
    when = local(iso)
    return when.strftime("%Y-%m-%d %H:%M:%S") if when is not None else ""


def date_unsure(entry: dict[str, Any]) -> bool:
    """Whether the time ``playDate`` gives was taken while the clock was not set (History's
    ``unsynced``: a Pi with no network keeps the time of its last shutdown)."""
    return dated_by(entry) in (entry.get("unsynced") or ())


def bound_date(entry: dict[str, Any]) -> str:
    """``playDate`` for a play with no date of its own (:func:`play_date` is ""): the time it was
    played before (its ``before``: firmware/export_plays.py ``sure_after``), in local time; "" for
    none."""
    when = local(entry.get("before"))
    return when.strftime("%Y-%m-%d %H:%M:%S") if when is not None and not play_date(entry) else ""


def sure_before(entry: dict[str, Any]) -> _dt.datetime | None:
    """The true time a play whose date may be wrong (:func:`date_unsure`: a Pi with no network
    dates it by the clock restored from its last shutdown, fake-hwclock, behind the true time) was
    played before (its ``before``: firmware/export_plays.py ``sure_after``), in local time; None
    when there is none, or it is not after the date given (it would say nothing true of it)."""
    before, given = local(entry.get("before")), play_date(entry)
    if before is None or not given or f"{before:%Y-%m-%d %H:%M:%S}" <= given:
        return None
    return before


def date_words(entry: dict[str, Any]) -> str:
    """A sentence saying the play's date may be wrong (the clock was not set), with the true time
    it was played before when there is one (:func:`sure_before`), or that it is not known at all
    and which date BG Stats is given instead (:func:`bound_date`), or ""."""
    from firmware.history_text import Msg, say
    if not play_date(entry) and (unset_clock(entry.get("finished")) or unset_clock(entry.get("started"))):
        if (before := local(entry.get("before"))) is not None:
            return say(Msg("Legatus's clock was not set when this game was played: its date is not known. "
                           "It was played before {when}, the date given here.", when=f"{before:%d.%m.%Y %H:%M}"))
        return say(Msg("Legatus's clock was not set when this game was played: its date is not known."))
    if not date_unsure(entry):
        return ""
    if (before := sure_before(entry)) is not None:
        return say(Msg("Legatus's clock was not set when this game was played: its date may be wrong. "
                       "It was played before {when}.", when=f"{before:%d.%m.%Y %H:%M}"))
    return say(Msg("Legatus's clock was not set when this game was played: its date may be wrong."))


MAX_DURATION_MIN = 24 * 60
"""The longest duration a play is given: beyond a day a record's span holds pauses the device cannot
tell from play (an older record's start to finish, or its minutes measured before pauses were left
out: the device left on for days)."""


def duration_min(entry: dict[str, Any]) -> int | None:
    """The play's whole minutes (at least 1): as the device measured them (History's ``minutes``,
    its play time summed over the runs of the program it was played in, its pauses left out, by the
    monotonic clock: a clock NTP set mid-game changes nothing, firmware/play_time.py; None when it
    is not known: a game begun before play time was kept, its stored time damaged); in a record
    made before the device measured them, from the recorded start to the finish, unless either is
    unknown or was taken while the clock was not set, or they are in the wrong order (the clock set
    back between). None beyond a day (:data:`MAX_DURATION_MIN`: an older record's span holds pauses),
    or for an abandoned play (its finish is when another game replaced it, not when it stopped)."""
    if entry.get("status") == "abandoned":
        return None
    if "minutes" in entry:
        minutes = entry["minutes"]
        return minutes if isinstance(minutes, int) and 0 < minutes <= MAX_DURATION_MIN else None
    start, end = utc(entry.get("started")), utc(entry.get("finished"))
    if start is None or end is None or entry.get("unsynced") or end < start:
        return None
    minutes = max(1, round((end - start).total_seconds() / 60))
    return minutes if minutes <= MAX_DURATION_MIN else None
