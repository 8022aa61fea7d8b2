"""The language question: asked once on the first start, and from Settings → Language."""
from __future__ import annotations

from firmware.i18n import LANGUAGE_NAMES, LANGUAGES, _
from firmware.screens.base import Ctx, Item, ListScreen


class LanguageScreen(ListScreen):
    """Each language named in itself; select stores it (``settings language=…``) and goes back."""

    def __init__(self, first_start: bool = False) -> None:
        super().__init__()
        self.first_start = first_start

    @property
    def title(self) -> str:  # type: ignore[override]
        return "Язык·Мова·Language" if self.first_start else _("Language")

    def items(self, ctx: Ctx) -> list[Item]:
        current = ctx.settings.get("language", "en")
        return [Item(LANGUAGE_NAMES[lang], lambda c, lang=lang: self._choose(c, lang),
                     "✓" if lang == current and not self.first_start else "")
                for lang in LANGUAGES]

    def _choose(self, ctx: Ctx, lang: str) -> None:
        ctx.set_setting("language", lang)
        ctx.pop()

    def key(self, key: str, ctx: Ctx) -> None:
        if self.first_start and key in ("left", "b"):
            self._choose(ctx, ctx.settings.get("language", "en"))   # keep the default, ask no more
            return
        super().key(key, ctx)
