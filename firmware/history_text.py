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


__all__ = ["N_", "TEXTS", "Msg", "_", "ngettext", "say"]
