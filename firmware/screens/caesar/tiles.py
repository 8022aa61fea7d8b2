"""Caesar!: the command tiles — what each tile holds (unknown from the sources: editable, remembered
in the ``caesar.tiles`` setting for the next games)."""
from __future__ import annotations

import logging
from functools import partial

from engine.caesar.tiles import ACTIONS, DEFAULT_TILES, parse_tiles
from engine.caesar.terms import tile_said
from engine.caesar.views import CaesarView
from engine.errors import BadArguments
from firmware.i18n import Sentences
from firmware.screens.caesar.text import Msg, _, ngettext
from firmware.screens.caesar.words import (ACTION_WORDS, TILES_KEY, edition_of, remembered_tiles, snapshot,
                                           tile_letter, view_if_any, view_of)
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import Item, ListScreen, TextScreen, WrappedListScreen, figure

log = logging.getLogger(__name__)


# -- tiles ---------------------------------------------------------------------------------------
class TilesScreen(WrappedListScreen):
    """The tile contents in use (unverified defaults marked, S-4) and an editor for the next game."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Command tiles")


    def status(self, ctx: Ctx) -> str:
        return ""

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        t = view["tiles"]
        out = []
        for letter, text in t["definitions"].items():
            mark = "" if letter in t["user_defined"] else "?"      # S-4: unverified unless the user set it
            n = len(text.split("+"))
            out.append(Item(_("Tile {}").format(tile_letter(letter, edition_of(view))) + mark, partial(self._edit, letter=letter),
                            ngettext("{} action", "{} actions", n).format(n)))
        deck = counted(t["deck"], edition_of(view))                  # S-3: 3×A 2×B 1×C
        out.append(Item(_("Deck {}").format(deck), lambda c: c.push(remade(lambda: tiles_now(view_of(c)))),
                        _("{} left").format(t["stack"]), ident="deck"))
        if any(letter not in t["user_defined"] for letter in t["definitions"]):
            out.append(Item(_("? = contents not verified"), lambda c: c.push(remade(unverified_screen)),
                            ident="unverified"))
        return out

    @staticmethod
    def _edit(ctx: Ctx, letter: str) -> None:
        ctx.push(TileEditor(letter, _current_tiles(ctx), edition_of(view_if_any(ctx))))


def counted(letters: str | list[str], edition: str) -> str:
    """Tiles counted as the rulebook lists a deck, as the edition's tiles print them: ``3×A 2×B 1×C``."""
    return " ".join(f"{letters.count(x)}×{tile_letter(x, edition)}" for x in sorted(set(letters)))


def tiles_now(view: CaesarView) -> TextScreen:
    """Where his tiles are now (S-5): in his stack face down, turned up and not played yet, played
    (face up beside it) — what the table's tiles must match, after an undo too."""
    t, edition = view["tiles"], edition_of(view)
    none = _("none")
    rows = [_("In his stack, face down: {}").format(counted(t["stack_left"], edition) or none)]
    if t["revealed"]:
        rows.append(_("Turned up, not played yet: {}").format(tile_letter(t["revealed"], edition)))
    rows.append(_("Played, face up: {}").format(counted(t["played"], edition) or none))
    return snapshot(_("His tiles now"), rows)


def unverified_screen() -> TextScreen:
    """What the ? after a tile means (S-4)."""
    return TextScreen(_("Command tiles"), _(
        "The rulebooks name the actions a tile may show, not which ones each tile prints. A tile marked ? "
        "holds the device's guess: check it against your tile and, if it differs, choose the tile and set "
        "its actions; they are used from the next new game."))


def _current_tiles(ctx: Ctx) -> dict[str, list[str]]:
    tiles = {k: list(v) for k, v in DEFAULT_TILES.items()}
    tiles.update(_saved_tiles(ctx))
    return tiles


def _saved_tiles(ctx: Ctx) -> dict[str, list[str]]:
    """The tiles the player set (the ``caesar.tiles`` setting), letter → actions."""
    saved = remembered_tiles(ctx)
    if not saved:
        return {}
    try:
        return parse_tiles(saved)
    except BadArguments as e:
        log.warning("the remembered tiles do not read back, left out: %s", e)
        return {}


class TileEditor(ListScreen):
    """Edit one tile's actions (up/down pick a slot, left/right change it; A saves for the next
    game in the ``caesar.tiles`` setting; B cancels)."""

    CHOICES = ("-",) + ACTIONS

    def __init__(self, letter: str, tiles: dict[str, list[str]], edition: str = "mixed") -> None:
        super().__init__()
        self.letter = letter
        self.edition = edition              # the letters printed on the tiles (S-3)
        self.tiles = tiles
        self.slots = list(tiles[letter]) + ["-"] * (6 - len(tiles[letter]))

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Tile {}").format(tile_letter(self.letter, self.edition))

    def status(self, ctx: Ctx) -> str:
        return _("A: save")

    def items(self, ctx: Ctx) -> list[Item]:
        def word(a: str) -> str:
            return "—" if a == "-" else _(ACTION_WORDS.get(a, a))
        return [Item(f"{i + 1}.", None, figure(word(a)) if i == self.cursor else word(a), ident=f"slot:{i}",
                     adjust=partial(self._change, slot=i)) for i, a in enumerate(self.slots)]

    def _change(self, ctx: Ctx, by: int, slot: int) -> None:
        i = self.CHOICES.index(self.slots[slot])
        self.slots[slot] = self.CHOICES[(i + by) % len(self.CHOICES)]

    def go(self, ctx: Ctx) -> None:
        actions = [a for a in self.slots if a != "-"]
        tiles = _saved_tiles(ctx)           # only the tiles the player set: the others stay unverified (S-4)
        tiles[self.letter] = actions
        text = ";".join(f"{k}:{'+'.join(v)}" for k, v in sorted(tiles.items()))   # an emptied tile is refused
        try:
            parse_tiles(text)
        except BadArguments as e:       # a tile without play, etc.: say so, keep editing
            log.info("tile %s refused: %s", self.letter, e)
            ctx.notify(Msg("A tile needs at least one play and at most six actions."))
            return
        response = ctx.set_setting(TILES_KEY, text)
        if not response["ok"]:
            ctx.notify(response["message"])
        else:
            ctx.settings[TILES_KEY] = text
            ctx.pop()
            ctx.notify(Msg("Tile {} saved: {}. Used from the next new game.", tile_said(self.letter, self.edition),
                           Sentences(*(Msg(ACTION_WORDS.get(a, a)) for a in actions), sep=" · ")))
