"""The texts of the For the Glory of Rome screens, in the words of its own catalog (domain ``glory``, the one
its engine's sentences carry: engine/glory/text.py): ``_``, ``ngettext`` and ``say`` for the
modules of this package."""
from __future__ import annotations

from firmware.i18n import domain

TEXTS = domain("glory")
_ = TEXTS.gettext
ngettext = TEXTS.ngettext
say = TEXTS.say

__all__ = ["TEXTS", "_", "ngettext", "say"]
