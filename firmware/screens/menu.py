"""Main menu, the games list, log, settings, about and the shutdown screen.

A game's screens live in ``firmware/screens/<module>.py`` and expose ``open_game(ctx)``, which
pushes the game's first screen (offering to continue the current session of that game). A game
whose screens are not there yet shows as "coming".
"""
from __future__ import annotations

import importlib
from collections.abc import Callable

from PIL import Image

from firmware.screens import base
from firmware.screens.base import Ctx, Item, ListScreen, TextScreen
from firmware.settings import SETTINGS, cycle

# menu label, screen module, the session game names it continues
GAMES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Caesar! solo", "firmware.screens.caesar", ("caesar-solo", "caesar-duel")),
    ("Julius Caesar", "firmware.screens.jc", ("jc-battle",)),
    ("Glory of Rome", "firmware.screens.glory", ("glory",)),
    ("Sword of Rome", "firmware.screens.sword", ("sword",)),
)


def game_opener(module: str) -> Callable[[Ctx], None] | None:
    """The ``open_game`` of a game's screen module, or None while it is not built."""
    try:
        return importlib.import_module(module).open_game
    except (ImportError, AttributeError):
        return None


class MainMenu(ListScreen):
    title = "Legatus"

    def status(self, ctx: Ctx) -> str:
        view = ctx.view()
        return view["game"] if view else ""

    def items(self, ctx: Ctx) -> list[Item]:
        from firmware.screens.kit import open_dice, open_kit
        out: list[Item] = []
        view = ctx.view()
        if view is not None:
            resume = _resume_item(view["game"])
            if resume is not None:
                out.append(resume)
        out += [
            Item("Games", lambda c: c.push(GamesMenu())),
            Item("Dice & bags", lambda c: c.push(KitMenu())),
            Item("Log", lambda c: c.push(log_screen(c))),
            Item("Settings", lambda c: c.push(SettingsScreen())),
            Item("About", lambda c: c.push(about_screen())),
        ]
        return out


def _resume_item(game: str) -> Item | None:
    from firmware.screens.kit import open_dice, open_kit
    if game == "dice":
        return Item("Resume dice", open_dice)
    if game == "bag":
        return Item("Resume bag & deck", open_kit)
    for label, module, names in GAMES:
        if game in names:
            opener = game_opener(module)
            if opener is not None:
                return Item(f"Resume {label}", opener)
    return None


class KitMenu(ListScreen):
    """Dice & bags: tools for any game."""

    title = "Dice & bags"

    def items(self, ctx: Ctx) -> list[Item]:
        from firmware.screens.kit import open_dice, open_kit
        return [Item("Dice", open_dice), Item("Bags & decks", open_kit)]


class GamesMenu(ListScreen):
    title = "Games"

    def items(self, ctx: Ctx) -> list[Item]:
        out = []
        for label, module, _ in GAMES:
            opener = game_opener(module)
            if opener is None:
                out.append(Item(label, lambda c, n=label: c.notify(f"{n}: coming soon."), "soon"))
            else:
                out.append(Item(label, opener))
        return out


def log_screen(ctx: Ctx) -> TextScreen:
    view = ctx.view()
    if view is None:
        return TextScreen("Log", "No session yet.")
    entries = [f"- {e}" for e in ctx.run("log 200").get("log", [])] or ["(empty)"]
    screen = TextScreen("Log", entries)
    # open on the newest entries (at the bottom), starting at the beginning of an entry
    sizes = [len(base.wrap(e)) for e in entries]
    first, shown = len(entries) - 1, sizes[-1]
    while first > 0 and shown + sizes[first - 1] <= base.ROWS:
        first -= 1
        shown += sizes[first]
    screen.top = sum(sizes[:first])
    return screen


class SettingsScreen(ListScreen):
    title = "Settings"

    def items(self, ctx: Ctx) -> list[Item]:
        out = []
        for key, (_, _, label) in SETTINGS.items():
            value = str(ctx.settings.get(key, ""))
            short = {"adafruit-bonnet": "Adafruit", "waveshare-hat": "Waveshare"}.get(value, value)
            out.append(Item(label, lambda c, k=key: _step(c, k, 1), short))
        return out

    def key(self, key: str, ctx: Ctx) -> None:
        items = self.items(ctx)
        keys = list(SETTINGS)
        if key == "left" and items:
            _step(ctx, keys[self.cursor], -1)
        elif key == "right" and items:
            _step(ctx, keys[self.cursor], 1)
        else:
            super().key(key, ctx)


def _step(ctx: Ctx, key: str, step: int) -> None:
    new = cycle(ctx.settings, key, step)
    setter = getattr(ctx, "set_setting", None)
    if setter is not None:
        setter(key, new[key])
    if key in ("profile", "driver"):
        ctx.notify("Takes effect at the next start.")


def about_screen() -> TextScreen:
    from firmware import __version__
    return TextScreen("About", [
        f"Legatus {__version__}",
        "Table companion for games set in Rome.",
        "Keys: joystick moves, A/right select, B/left back, hold B = undo. In Settings left/right change a value. Dice: press picks dice to re-roll, hold A shows the history.",
        "Console: legatus console (protocol 1).",
    ])


def saved_screen() -> Image.Image:
    """What stays on the panel after shutdown."""
    img, draw = base.frame()
    w = base.big_width("Saved", 2)
    base.big(img, (base.W - w) // 2, 6, "Saved", 2)
    msg = "safe to unplug"
    base.text(draw, (base.W - len(msg) * base.CHAR_W) // 2, 40, msg)
    return img
