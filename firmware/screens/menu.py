"""Main menu, the games list, log, settings, about and the shutdown screen.

A game's screens live in ``firmware/screens/<module>.py`` and expose ``open_game(ctx)``, which
pushes the game's first screen (offering to continue the current session of that game). A game
whose screens are not there yet shows as "coming".

Every text is said with ``_()`` when drawn (the language can change in Settings).
"""
from __future__ import annotations

from functools import partial
from typing import Any

from PIL import Image

from engine import actions as act
from engine.text import N_
from firmware.games import GameRecord, record_of, records
from firmware.i18n import LANGUAGE_NAMES, Msg, _
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.play import Snapshot, game_label, kept
from firmware.screens.widgets import ConfirmScreen, Item, ListScreen, TextScreen, WrappedListScreen, figure
from firmware.settings import SETTINGS, cycle


class MainMenu(WrappedListScreen):
    """The first screen, on one panel in every language: the running game's row first (▶ and its
    name, one row even for «Во славу Рима»: "Resume: Julius Caesar" took two; the title bar says
    "A: resume" on it), then what a table reaches for — Games, Dice & bags, History —, the
    session's Log (only while there is one: without it the Log has nothing to show), Settings and
    About (where they stood: a new player's first frame shows Games, Dice & bags, History and
    Settings, About one row down)."""

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
            Item(_history_label(), _open_history, ident="history"),
        ]
        if view is not None:
            out.append(Item(_("Log"), lambda c: c.push(remade(lambda: log_screen(c))), ident="log"))
        out += [
            Item(_("Settings"), lambda c: c.push(SettingsScreen()), ident="settings"),
            Item(_("About"), lambda c: c.push(remade(about_screen)), ident="about"),
        ]
        return out

    def status(self, ctx: Ctx) -> str:
        """On the running game's row: what A does there ("A: resume"); on a session the players
        ended, nothing goes on: A shows it as it ended ("A: show": the roller's last roll, "Ended"
        in its title; it said «A: продолжить» over dice that roll no more)."""
        items = self.items(ctx)
        if not items or items[min(self.cursor, len(items) - 1)].ident != "resume":
            return ""
        view = ctx.view()
        return _("A: show") if view is not None and view["ended"] else _("A: resume")


def _history_label() -> str:
    from firmware.screens.history import menu_label
    return menu_label()


def _open_history(ctx: Ctx) -> None:
    from firmware.screens.history import open_history
    open_history(ctx)


def _resume_item(game: str) -> Item | None:
    """Resume the running game; its screens are imported when it is chosen, not for the start's
    first frame (Caesar!'s: 84 modules, 25-35 ms here, about 0.5 s on a Pi)."""
    record = record_of(game)
    if record is None or not _found(record):
        return None
    return Item("▶ " + game_label(game), partial(_open, record), ident="resume")


class KitMenu(ListScreen):
    """Dice & bags: tools for any game (beside a running game they do not end it)."""

    title = Said(N_("Dice & bags"))

    def items(self, ctx: Ctx) -> list[Item]:
        from firmware.screens.kit.bag import open_kit_tool
        from firmware.screens.kit.dice import open_dice_tool
        return [Item(_("Dice"), open_dice_tool), Item(_("Bags & decks"), open_kit_tool)]


class GamesMenu(ListScreen):
    title = Said(N_("Games"))

    def items(self, ctx: Ctx) -> list[Item]:
        out = []
        for record in records():
            if not record.in_games_menu:
                continue
            if not _found(record):
                out.append(Item(_(record.label), partial(_coming, record), _("soon")))
            else:                        # its screens imported when chosen, not all four games' at
                out.append(Item(_(record.label), partial(_open, record)))   # the menu's first frame
        from firmware.screens.archive import open_archive
        out.append(Item(_("Earlier games…"), open_archive))
        return out


def _found(record: GameRecord) -> bool:
    """Whether the game's screens are there (found, not imported: ~25 ms here for the four)."""
    import sys
    from importlib.util import find_spec
    module = record.screens.partition(":")[0]
    try:
        return module in sys.modules or find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _open(record: GameRecord, ctx: Ctx) -> None:
    opener = record.opener()
    if opener is None:               # there, but it does not load (logged): as a game not there yet
        _coming(record, ctx)
    else:
        opener(ctx)


def _coming(record: GameRecord, ctx: Ctx) -> None:
    ctx.notify(Msg("{}: coming soon.", Msg(record.label)))


def log_screen(ctx: Ctx) -> TextScreen:
    """The session's log as it is now, opened on the newest entries; taken off once a step is played
    or taken back (play.Snapshot: it would list what the game no longer holds, or miss the newest)."""
    view = ctx.view()
    if view is None:
        return TextScreen(_("Log"), _("No game yet: the log starts with the first game."))
    entries = [f"· {e}" for e in ctx.run(act.log(200)).get("log", [])] or [_("Nothing yet.")]
    screen = Snapshot((view["game"],), _("Log"), entries)
    # open on the newest entries (at the bottom), starting at the beginning of an entry
    sizes = [len(base.wrap(e)) for e in entries]
    first, shown = len(entries) - 1, sizes[-1]
    while first > 0 and shown + sizes[first - 1] <= base.ROWS:
        first -= 1
        shown += sizes[first]
    screen.top = sum(sizes[:first])
    return screen


# how each setting's stored value is shown (the stored values are console words)
def _shown(name: str, value: str) -> str:
    if name == "language":
        return LANGUAGE_NAMES.get(value, value)
    if name == "screen_off":
        return _("never") if value == "off" else _("{} s").format(value)
    if name == "profile":
        return {"adafruit-bonnet": "Adafruit", "waveshare-hat": "Waveshare"}.get(value, value)
    if name == "driver":
        return _("auto") if value == "auto" else value.upper()
    return value


class SettingsScreen(ListScreen):
    """up/down choose a setting; right or A shows the next value, left the previous one (the
    cursor row shows <value>; left/right stop at a scale's ends, A goes round); Language opens its
    list; B back."""

    title = Said(N_("Settings"))

    def __init__(self) -> None:
        super().__init__()
        self.told = False          # the simulator: Contrast's change said once to show nothing there

    def items(self, ctx: Ctx) -> list[Item]:
        out = []
        for i, (name, (_default, _allowed, label)) in enumerate(SETTINGS.items()):
            value = _shown(name, str(ctx.settings.get(name, "")))
            if name == "language":
                out.append(Item(_(label), lambda c: c.push(_language_screen()), value))
            else:
                out.append(Item(_(label), partial(self._step, name=name, step=1), figure(value) if i == self.cursor else value,
                                ident=name, adjust=partial(self._adjust, name=name)))
        out.append(Item(_("Hardware"), lambda c: c.push(_hardware_screen()), ident="hardware"))   # screens/hardware.py
        return out

    def _step(self, ctx: Ctx, name: str, step: int = 1) -> None:
        before = ctx.settings.get(name)
        _step(ctx, name, step)
        self._tell(ctx, name, before)

    def _adjust(self, ctx: Ctx, by: int, name: str) -> None:
        before = ctx.settings.get(name)
        _adjust(ctx, by, name)
        self._tell(ctx, name, before)

    def _tell(self, ctx: Ctx, name: str, before: str | None) -> None:
        """In the simulator, the first change of Contrast says why its picture stays as it was (a
        new user changed it and saw nothing happen); once: a held key goes on changing it. (A
        change refused, or none at a scale's end, says nothing more.)"""
        if name == "contrast" and ctx.simulated and not self.told and ctx.settings.get(name) != before:
            self.told = True
            ctx.notify(Msg("Contrast is for the device's screen: the simulator shows no change."))


SCALES = ("contrast", "screen_off")     # settings whose values are a scale: left/right stop at its ends


def _adjust(ctx: Ctx, by: int, name: str) -> None:
    """Left/right: the previous or the next value. On a scale (Contrast, Screen off) they stop at
    its ends, as a form's figure does: a direction held down repeats, and it ran round (Contrast
    4, 5, 1, 2…; Screen off 60 s, 30 s, never, 600 s…), so the value let go on was chance. A on
    the row still goes round (it has no other way back)."""
    step = 1 if by > 0 else -1
    if name in SCALES:
        allowed = SETTINGS[name][1]
        value = str(ctx.settings.get(name, SETTINGS[name][0]))
        i = allowed.index(value) if value in allowed else 0
        if not 0 <= i + step < len(allowed):
            return
    _step(ctx, name, step)


def _hardware_screen() -> Any:
    from firmware.screens.hardware import HardwareScreen
    return HardwareScreen()


def _language_screen() -> Any:
    from firmware.screens.language import LanguageScreen
    return LanguageScreen()


BOARD = ("profile", "driver")     # the board's buttons and panel: a wrong one leaves the next start dark and deaf


def _step(ctx: Ctx, name: str, step: int = 1) -> None:
    new = cycle(ctx.settings, name, step)
    if name not in BOARD:
        kept(ctx, name, new[name])
        return

    def yes(c: Ctx) -> None:
        if kept(c, name, new[name]):
            c.notify(Msg("Kept for the device: it takes effect at its next start.") if c.simulated else
                     Msg("Takes effect at the next start."))
    def asked() -> str:            # (said again in a new language: made again)
        # the simulator has no buttons or panel of its own: nothing there stops answering
        said = _("{}: {} from the next start on the device. The simulator has no buttons or screen of its own: "
                 "nothing changes here.") if ctx.simulated else _(
            "{}: {} from the next start. If the device is not built so, its keys or its screen stop answering "
            "until this is set back from a computer over the serial link.")
        return said.format(_(SETTINGS[name][2]), _shown(name, new[name]))
    ctx.push(remade(lambda: ConfirmScreen(_(SETTINGS[name][2]), asked(), yes)))   # (read to its end: A pages on)


def about_screen() -> TextScreen:
    from firmware import __version__
    return TextScreen(_("About"), [
        _("Legatus {}").format(__version__),
        _("A table companion for board games set in Rome."),
        _("Keys: up and down move; right or A chooses; left or B goes back; press (the joystick pushed "
          "in) does the screen's main action; hold B to take back the last step; hold A for the "
          "screen's second action."),
        # the Waveshare HAT's keys are labelled KEY1..KEY3 (hw/profiles.toml): no A or B on that board
        _("On the Waveshare HAT, A is KEY1, B is KEY2, and KEY3 is hold A."),
        _("A text longer than the screen (a note, the Log, this page): A shows the next page and closes "
          "the last one; B closes it at once."),
        _("Where a value shows as <value> (in Settings, on a new game's form), left and right change "
          "it and B goes back. On a form the title bar says what A does on the cursor's row: start the "
          "game, or open a choice (a player, the players' share)."),
        _("Dice: press picks the dice to roll again; hold A shows the past rolls."),
        _("Console: from a computer over the serial link (start Legatus with --serial PORT), protocol 1."),
    ])


def saving_sign(under: Image.Image) -> Image.Image:
    """``under`` (the frame on the panel) with "Saving…" boxed over its middle: a save that takes
    long (a slow card), the keys' answer waiting for it."""
    from PIL import ImageDraw
    img = under.convert("1") if under.mode != "1" else under.copy()
    draw = ImageDraw.Draw(img)
    word = base.clip(_("Saving…"), base.COLS - 2)
    w, h = len(word) * base.CHAR_W + 8, base.LINE + 6
    x0, y0 = (base.W - w) // 2, (base.H - h) // 2
    draw.rectangle((x0 - 2, y0 - 2, x0 + w + 1, y0 + h + 1), fill=0)      # (a dark margin round the box)
    draw.rectangle((x0, y0, x0 + w - 1, y0 + h - 1), fill=0, outline=1)
    base.text(draw, x0 + 4, y0 + 3, word)
    return img


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
