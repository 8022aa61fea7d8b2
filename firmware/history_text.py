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


__all__ = ["ABANDONED_BEFORE", "N_", "TEXTS", "Msg", "_", "abandoned", "as_now", "ngettext", "say"]
