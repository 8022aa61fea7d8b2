"""Caesar!: the pickers — one choice out of a list, and tokens drawn out of what could have been
drawn (in the order drawn)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from PIL import Image

from engine.caesar.tiles import Back
from firmware.screens.caesar.text import _
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
    B takes back the last pick; taken off by an undo. ``confirm``: the last pick does not act at
    once: the tokens are listed, in order, above Start (A on one of them picks it again).
    ``back``: tokens a tile puts back in the bag between its draws (``tile_takes``), offered from
    their pick on (S-5); a centurion among them is one of ``centurions`` (those still face down)."""

    def __init__(self, title: Callable[[], str], pool: list[str], count: int,
                 on_done: Callable[[Ctx, list[str]], None], confirm: bool = False,
                 back: Sequence[Back] = (), centurions: Sequence[str] = ()) -> None:
        super().__init__()
        self.said = title                 # said when drawn: it follows a change of language
        self.pool = sorted(pool)
        self.count = count
        self.picked: list[str] = []
        self.on_done = on_done
        self.confirm = confirm            # the last pick shows the tokens and Start (B or A on one: pick again)
        self.put_back = list(back)
        self.centurions = sorted(set(centurions))

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.said()

    def status(self, ctx: Ctx) -> str:
        return f"{len(self.picked)}/{self.count}"

    def render(self, ctx: Ctx) -> Image.Image:
        self.note(ctx)
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        if self.confirm and len(self.picked) >= self.count:      # nothing to take back once it starts
            return ([Item(f"{i + 1}. {tok(n)}", partial(self._again, at=i)) for i, n in enumerate(self.picked)]
                    + [Item("▶ " + _("Start"), lambda c: self.on_done(c, list(self.picked)), ident="start")])
        at = len(self.picked)
        back = [t for i, t in self.put_back if i <= at]
        left = sorted(self.pool + [self.picked[t] if isinstance(t, int) else t for t in back if t is not None]
                      + (self.centurions if None in back else []))
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
            if self.confirm:
                self.cursor = self.count                         # on Start
            else:
                self.on_done(ctx, list(self.picked))

    def _again(self, ctx: Ctx, at: int) -> None:
        """A on a token shown before Start: pick it (and those after it) again."""
        del self.picked[at:]
        self.cursor = self.top = 0

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("row", key) is Intent.BACK and self.picked:
            self.picked.pop()
            self.cursor = self.top = 0
            return
        super().key(key, ctx)
