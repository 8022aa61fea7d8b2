"""Caesar!: the pickers — one choice out of a list, and tokens drawn out of what could have been
drawn (in the order drawn)."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from firmware.screens.caesar.words import Follows, tok
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Intent, Item, WrappedListScreen, intent


# -- pickers -------------------------------------------------------------------------------------
class ChoiceScreen(Follows, WrappedListScreen):
    """A list of (label, value, note); select calls ``on_pick(ctx, value)``; taken off by an undo."""

    def __init__(self, title: str, choices: list[tuple[str, str, str]],
                 on_pick: Callable[[Ctx, str], Any]) -> None:
        super().__init__()
        self.title = title
        self.choices = choices
        self.on_pick = on_pick

    def render(self, ctx: Ctx) -> Image.Image:
        self.note(ctx)
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(label, partial(self._pick, value=value), note) for label, value, note in self.choices]

    def _pick(self, ctx: Ctx, value: str) -> None:
        self.on_pick(ctx, value)


class TokenPicker(Follows, WrappedListScreen):
    """Pick ``count`` tokens out of ``pool`` (what could have been drawn), in the order drawn;
    taken off by an undo."""

    def __init__(self, title: Callable[[], str], pool: list[str], count: int,
                 on_done: Callable[[Ctx, list[str]], None]) -> None:
        super().__init__()
        self.said = title                 # said when drawn: it follows a change of language
        self.pool = sorted(pool)
        self.count = count
        self.picked: list[str] = []
        self.on_done = on_done

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.said()

    def status(self, ctx: Ctx) -> str:
        return f"{len(self.picked)}/{self.count}"

    def render(self, ctx: Ctx) -> Image.Image:
        self.note(ctx)
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        left = list(self.pool)
        for name in self.picked:
            left.remove(name)
        counts: dict[str, int] = {}
        for name in left:
            counts[name] = counts.get(name, 0) + 1
        return [Item(tok(n), partial(self._pick, name=n), f"×{k}" if k > 1 else "") for n, k in counts.items()]

    def _pick(self, ctx: Ctx, name: str) -> None:
        self.picked.append(name)
        self.cursor = self.top = 0
        if len(self.picked) >= self.count:
            self.on_done(ctx, list(self.picked))

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("row", key) is Intent.BACK and self.picked:
            self.picked.pop()
            return
        super().key(key, ctx)
