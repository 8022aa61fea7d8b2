"""The texts of the Julius Caesar screens, in the words of its own catalog (domain ``jc``, the one
its engine's sentences carry: engine/jc/text.py): ``_``, ``ngettext`` and ``say`` for the
modules of this package."""
from __future__ import annotations

from firmware.i18n import domain

TEXTS = domain("jc")
_ = TEXTS.gettext
ngettext = TEXTS.ngettext
say = TEXTS.say

__all__ = ["TEXTS", "_", "ngettext", "say"]
