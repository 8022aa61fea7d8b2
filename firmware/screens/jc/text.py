"""The texts of the Julius Caesar screens, in the words of its own catalog (domain ``jc``, the one
its engine's sentences carry: engine/jc/text.py): ``_``, ``ngettext`` and ``say`` for the
modules of this package, and ``Msg`` (its engine's): a sentence said again in the language of the
moment (a notice up when the language changes)."""
from __future__ import annotations

from engine.jc.text import Msg
from firmware.i18n import domain

TEXTS = domain("jc")
_ = TEXTS.gettext
ngettext = TEXTS.ngettext
say = TEXTS.say

__all__ = ["TEXTS", "Msg", "_", "ngettext", "say"]
