"""Main menu, the games list, log, settings, about and the shutdown screen.

A game's screens live in ``firmware/screens/<module>.py`` and expose ``open_game(ctx)``, which
pushes the game's first screen (offering to continue the current session of that game). A game
whose screens are not there yet shows as "coming".

Every text is said with ``_()`` when drawn (the language can change in Settings).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import Any, overload

from PIL import Image

from engine.text import N_
from firmware.i18n import LANGUAGE_NAMES, _
from firmware.screens import base
from firmware.screens.base import Ctx, Item, ListScreen, TextScreen
from firmware.settings import SETTINGS, cycle

# menu label, screen module, the session game names it continues
GAMES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (N_("Caesar!"), "firmware.screens.caesar", ("caesar-solo", "caesar-duel")),
    (N_("Julius Caesar"), "firmware.screens.jc", ("jc-battle",)),
    (N_("Glory of Rome"), "firmware.screens.glory", ("glory",)),
    (N_("Sword of Rome"), "firmware.screens.sword", ("sword",)),
)


def game_opener(module: str) -> Callable[[Ctx], None] | None:
    """The ``open_game`` of a game's screen module, or None while it is not built."""
    try:
        opener: Callable[[Ctx], None] = importlib.import_module(module).open_game
    except (ImportError, AttributeError):
        return None
    return opener


class Said:
    """A screen's title given as English text (marked with ``N_``) and said in the current
    language whenever it is read: ``title = Said(N_("Games"))``. Setting it on an instance
    replaces the text for that instance only."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_said_{name}"

    @overload
    def __get__(self, obj: None, owner: Any = None) -> Said: ...

    @overload
    def __get__(self, obj: object, owner: Any = None) -> str: ...

    def __get__(self, obj: object, owner: Any = None) -> str | Said:
        if obj is None:
            return self
        return _(str(getattr(obj, self.slot, self.text)))

    def __set__(self, obj: object, value: str) -> None:
        setattr(obj, self.slot, value)


def game_label(game: str) -> str:
    """A session's game for a person (never the internal id), in the current language."""
    if game == "dice":
        return _("Dice")
    if game == "bag":
        return _("Bag & deck")
    for label, _module, names in GAMES:
        if game in names:
            return _(label)
    return _("a game")


class StableListScreen(ListScreen):
    """A list whose rows may come and go between renders (a Resume row appears, a Put back row
    after the first draw): the cursor stays on the same row by its label, not its position."""

    def __init__(self) -> None:
        super().__init__()
        self.current = ""          # the label under the cursor after the last key

    def _follow(self, items: list[Item]) -> None:
        labels = [str(i.label) for i in items]
        if self.current in labels:
            self.cursor = labels.index(self.current)
            if self.cursor < self.top:
                self.top = self.cursor
            elif self.cursor >= self.top + base.ROWS:
                self.top = self.cursor - base.ROWS + 1

    def render(self, ctx: Ctx) -> Image.Image:
        self._follow(self.items(ctx))
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        items = self.items(ctx)
        self._follow(items)
        super().key(key, ctx)
        if items:
            self.current = str(items[min(self.cursor, len(items) - 1)].label)


class MainMenu(StableListScreen, base.WrappedListScreen):
    """The first screen; a long row (Resume: Julius Caesar) takes two rows, never cut."""

    title = Said("Legatus")

    def items(self, ctx: Ctx) -> list[Item]:
        out: list[Item] = []
        view = ctx.view()
        if view is not None:
            resume = _resume_item(view["game"])
            if resume is not None:
                out.append(resume)
        out += [
            Item(_("Games"), lambda c: c.push(GamesMenu())),
            Item(_("Dice & bags"), lambda c: c.push(KitMenu())),
            Item(_("Log"), lambda c: c.push(log_screen(c))),
            Item(_("Settings"), lambda c: c.push(SettingsScreen())),
            Item(_("About"), lambda c: c.push(about_screen())),
            Item(_history_label(), _open_history),
        ]
        return out


def _history_label() -> str:
    from firmware.screens.history import menu_label
    return menu_label()


def _open_history(ctx: Ctx) -> None:
    from firmware.screens.history import open_history
    open_history(ctx)


def _resume_item(game: str) -> Item | None:
    from firmware.screens.kit import open_dice, open_kit
    if game == "dice":
        return Item(_("Resume: dice"), open_dice)
    if game == "bag":
        return Item(_("Resume: bag & deck"), open_kit)
    for _label, module, names in GAMES:
        if game in names:
            opener = game_opener(module)
            if opener is not None:
                return Item(_("Resume: {}").format(game_label(game)), opener)
    return None


class KitMenu(ListScreen):
    """Dice & bags: tools for any game (beside a running game they do not end it)."""

    title = Said(N_("Dice & bags"))

    def items(self, ctx: Ctx) -> list[Item]:
        from firmware.screens.kit import open_dice, open_kit
        return [Item(_("Dice"), open_dice), Item(_("Bags & decks"), open_kit)]


class GamesMenu(ListScreen):
    title = Said(N_("Games"))

    def items(self, ctx: Ctx) -> list[Item]:
        out = []
        for label, module, _names in GAMES:
            opener = game_opener(module)
            if opener is None:
                out.append(Item(_(label), partial(_coming, label), _("soon")))
            else:
                out.append(Item(_(label), opener))
        from firmware.screens.archive import open_archive
        out.append(Item(_("Earlier games…"), open_archive))
        return out


def _coming(label: str, ctx: Ctx) -> None:
    ctx.notify(_("{}: coming soon.").format(_(label)))


def log_screen(ctx: Ctx) -> TextScreen:
    view = ctx.view()
    if view is None:
        return TextScreen(_("Log"), _("No game yet: the log starts with the first game."))
    entries = [f"· {e}" for e in ctx.run("log 200").get("log", [])] or [_("Nothing yet.")]
    screen = TextScreen(_("Log"), entries)
    # open on the newest entries (at the bottom), starting at the beginning of an entry
    sizes = [len(base.wrap(e)) for e in entries]
    first, shown = len(entries) - 1, sizes[-1]
    while first > 0 and shown + sizes[first - 1] <= base.ROWS:
        first -= 1
        shown += sizes[first]
    screen.top = sum(sizes[:first])
    return screen


# how each setting's stored value is shown (the stored values are console words)
def _shown(key: str, value: str) -> str:
    if key == "language":
        return LANGUAGE_NAMES.get(value, value)
    if key == "screen_off":
        return _("never") if value == "off" else _("{} s").format(value)
    if key == "profile":
        return {"adafruit-bonnet": "Adafruit", "waveshare-hat": "Waveshare"}.get(value, value)
    if key == "driver":
        return _("auto") if value == "auto" else value.upper()
    return value


class SettingsScreen(ListScreen):
    """up/down choose a setting; right or A shows the next value, left the previous one (the
    cursor row shows <value>); Language opens its list; B back."""

    title = Said(N_("Settings"))

    def items(self, ctx: Ctx) -> list[Item]:
        out = []
        for i, (key, (_default, _allowed, label)) in enumerate(SETTINGS.items()):
            value = _shown(key, str(ctx.settings.get(key, "")))
            if key == "language":
                out.append(Item(_(label), lambda c: c.push(_language_screen()), value))
            else:
                out.append(Item(_(label), partial(_step, key=key, step=1),
                                f"<{value}>" if i == self.cursor else value))
        out.append(Item(_("Hardware"), lambda c: c.push(_hardware_screen())))   # firmware/screens/hardware.py
        return out

    def key(self, key: str, ctx: Ctx) -> None:
        keys = list(SETTINGS)
        current = keys[self.cursor] if self.cursor < len(keys) else "hardware"
        if key in ("left", "right") and current not in ("language", "hardware"):
            _step(ctx, current, -1 if key == "left" else 1)
        elif key == "right" and current == "language":
            ctx.push(_language_screen())
        else:
            super().key(key, ctx)


def _hardware_screen() -> Any:
    from firmware.screens.hardware import HardwareScreen
    return HardwareScreen()


def _language_screen() -> Any:
    from firmware.screens.language import LanguageScreen
    return LanguageScreen()


def _step(ctx: Ctx, key: str, step: int = 1) -> None:
    new = cycle(ctx.settings, key, step)
    setter = getattr(ctx, "set_setting", None)
    if setter is not None:
        setter(key, new[key])
    if key in ("profile", "driver"):
        ctx.notify(_("Takes effect at the next start."))


def about_screen() -> TextScreen:
    from firmware import __version__
    return TextScreen(_("About"), [
        _("Legatus {}").format(__version__),
        _("A table companion for board games set in Rome."),
        _("Keys: the joystick moves; A or right chooses; B or left goes back; hold B to take back "
          "the last step."),
        _("In Settings, left and right change a value."),
        _("Dice: press picks the dice to roll again; hold A shows the past rolls."),
        _("Console: run legatus console on a computer (protocol 1)."),
    ])


def saved_screen() -> Image.Image:
    """What stays on the panel after shutdown."""
    img, draw = base.frame()
    word = _("Saved")
    scale = 2 if base.big_width(word, 2) <= base.W - 4 else 1
    w = base.big_width(word, scale)
    base.big(img, (base.W - w) // 2, 6, word, scale)
    msg = base.clip(_("safe to unplug"))
    base.text(draw, (base.W - len(msg) * base.CHAR_W) // 2, 40, msg)
    return img
