"""The texts of History (the games played, statistics, exports, fair draws), in the words of
its own catalog (domain ``history``): ``_``, ``ngettext``, ``say`` and the ``Msg`` of its
sentences (stored with that domain, so a record reads the same words later)."""
from __future__ import annotations

from engine import text
from engine.text import N_
from firmware.i18n import domain

TEXTS = domain("history")
_ = TEXTS.gettext
ngettext = TEXTS.ngettext
say = TEXTS.say


class Msg(text.Msg):
    """A sentence of History (domain ``history``)."""

    domain = "history"


def abandoned(n: int) -> Msg:
    """The result of a game replaced after ``n`` actions, before anything of it finished."""
    return Msg("Abandoned after {n} action.", plural="Abandoned after {n} actions.", n=n)


# Records stored before that sentence had its plural forms say this one (kept in the catalogs).
ABANDONED_BEFORE = N_("Abandoned after {} actions.")


def as_now(result: object) -> object:
    """A stored result sentence as it is said now (an old one gets its plural forms)."""
    if isinstance(result, text.Msg) and result.template == ABANDONED_BEFORE and len(result.args) == 1 \
            and isinstance(result.args[0], int):
        return abandoned(result.args[0])
    return result


def play_time_said(minutes: int, short: bool = False) -> str:
    """A game's play time as History → a game says it (firmware/play_time.py), in the reader's
    language: whole minutes under an hour, else hours and minutes in whole words with their plural
    forms («Время игры: 1 час 35 минут», «Час гри: 2 години 5 хвилин»); ``short``: the hours and
    minutes abbreviated («1 ч 35 мин»), for a row the whole words would make a row taller
    (firmware/screens/history.py ``play_time_row`` decides)."""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return say(Msg("Play time: {n} minute", plural="Play time: {n} minutes", n=minutes))
    if not rest:
        return say(Msg("Play time: {n} hour", plural="Play time: {n} hours", n=hours))
    if short:
        return _("Play time: {hours} h {minutes} min").format(hours=hours, minutes=rest)
    return _("Play time: {hours} {minutes}").format(hours=ngettext("{n} hour", "{n} hours", hours).format(n=hours),
                                                    minutes=ngettext("{n} minute", "{n} minutes", rest).format(n=rest))


# Why a game with a secret seed has no players' share (firmware/fairness.py ``NO_SHARE``), each a
# whole sentence that History → a game and Fair draw show on up to four rows.
NO_SHARE_WORDS = {
    "setup": N_("No share: the set-up drew, and none came with it."),
    "drawn": N_("No share: none was given before the first draw."),
    "undone": N_("No share: a draw was seen and undone before one was given."),
    "copy": N_("No share: a copy in Earlier games had drawn already."),
    "old": N_("No share: an older Legatus stored this game."),
    "none": N_("The players gave no share, and nothing was drawn."),
    "unknown": N_("The players gave no share."),
}


def no_share_words(why: str | None) -> str:
    """Why a game has no players' share (:data:`NO_SHARE_WORDS`), in the reader's language."""
    return _(NO_SHARE_WORDS.get(why or "unknown", NO_SHARE_WORDS["unknown"]))


__all__ = ["ABANDONED_BEFORE", "NO_SHARE_WORDS", "N_", "TEXTS", "Msg", "_", "abandoned", "as_now", "ngettext",
           "no_share_words", "play_time_said", "say"]
