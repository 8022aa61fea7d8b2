"""The texts of the For the Glory of Rome screens, in the words of its own catalog (domain ``glory``, the one
its engine's sentences carry: engine/glory/text.py): ``_``, ``ngettext`` and ``say`` for the
modules of this package, and ``Msg`` (its engine's): a sentence said again in the language of the
moment (a notice up when the language changes)."""
from __future__ import annotations

from engine.glory.text import Msg
from firmware.i18n import domain

TEXTS = domain("glory")
_ = TEXTS.gettext
ngettext = TEXTS.ngettext
say = TEXTS.say

__all__ = ["TEXTS", "Msg", "_", "ngettext", "say"]
