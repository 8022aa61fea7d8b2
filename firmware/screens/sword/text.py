"""The texts of the The Sword of Rome screens, in the words of its own catalog (domain ``sword``, the one
its engine's sentences carry: engine/sword/text.py): ``_``, ``ngettext`` and ``say`` for the
modules of this package."""
from __future__ import annotations

from firmware.i18n import domain

TEXTS = domain("sword")
_ = TEXTS.gettext
ngettext = TEXTS.ngettext
say = TEXTS.say

__all__ = ["TEXTS", "_", "ngettext", "say"]
