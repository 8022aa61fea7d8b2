"""The texts of the Caesar! screens, in the words of its own catalog (domain ``caesar``, the one
its engine's sentences carry: engine/caesar/text.py): ``_``, ``ngettext`` and ``say`` for the
modules of this package."""
from __future__ import annotations

from firmware.i18n import domain

TEXTS = domain("caesar")
_ = TEXTS.gettext
ngettext = TEXTS.ngettext
say = TEXTS.say

__all__ = ["TEXTS", "_", "ngettext", "say"]
