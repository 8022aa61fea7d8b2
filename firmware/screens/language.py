"""The language question: asked once on the first start, and from Settings → Language."""
from __future__ import annotations

from functools import partial

from engine.text import N_
from firmware.i18n import LANGUAGE_NAMES, LANGUAGES
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.play import kept
from firmware.screens.widgets import Intent, Item, ListScreen, intent


class LanguageScreen(ListScreen):
    """Each language named in itself; select stores it (``settings language=…``) and goes back."""

    title = Said("")

    def __init__(self, first_start: bool = False, suggested: str | None = None) -> None:
        super().__init__()
        self.first_start = first_start
        self.suggested = suggested           # the first start: the locale's language, where it opens
        self.placed = ""                     # the language the cursor was put on
        self.refused = False                 # the card refused a choice (the first start's question)
        # on the first start the question is asked in all three languages at once
        self.title = "Язык·Мова·Language" if first_start else N_("Language")

    def items(self, ctx: Ctx) -> list[Item]:
        current = ctx.settings.get("language", "en")
        if self.placed != current:           # the list opens on the language in use (A keeps it) — at
            opens = not self.placed          # the first start on the locale's, when it is known —, and
            self.placed = current            # moves to the one a serial `settings` line chose
            at = self.suggested if opens and self.suggested in LANGUAGES else current
            if at in LANGUAGES:
                self.cursor = self._mark = LANGUAGES.index(at)
        return [Item(LANGUAGE_NAMES[lang], partial(self._choose, lang),
                     "✓" if lang == current and not self.first_start else "")
                for lang in LANGUAGES]

    def on(self) -> str:
        """The language the list is on: under its cursor, or before it is first drawn where it
        opens (the first start: the locale's; else the one in use is placed when drawn)."""
        if not self.placed:
            return self.suggested if self.suggested in LANGUAGES else "en"
        return LANGUAGES[min(self.cursor, len(LANGUAGES) - 1)]

    def _choose(self, lang: str, ctx: Ctx) -> None:
        if not self.first_start:
            ctx.pop()
            kept(ctx, "language", lang)
        elif kept(ctx, "language", lang):    # the first start's: a card that refuses it (read-only, full)
            ctx.pop()                        # keeps the question up, its refusal said in the language picked
        else:                                # (it said so in English over the menu, the question gone)
            self.refused = True

    def key(self, key: str, ctx: Ctx) -> None:
        if self.first_start and self.refused and intent("row", key) is Intent.BACK:
            ctx.pop()                # the card refused the choice: B leaves the question, nothing stored
            return
        if self.first_start and intent("row", key) is Intent.BACK:
            # keep the language the list opened on (the locale's, else English), ask no more: it kept
            # English under a Russian or Ukrainian locale, the list open on Русский or Українська
            self._choose(self.suggested if self.suggested in LANGUAGES else ctx.settings.get("language", "en"), ctx)
            return
        super().key(key, ctx)
