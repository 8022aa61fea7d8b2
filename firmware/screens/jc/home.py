"""Julius Caesar: the session's home (the battle, its odds and forces, the campaign's bookkeeping)
and opening the game."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PIL import Image

from engine.jc.views import BattleView
from firmware.screens.jc.text import _, ngettext
from firmware.screens import play
from firmware.screens.ctx import Ctx, remade
from firmware.screens.jc.battle import BattleScreen, ask_fight
from firmware.screens.jc.roll import resume_roll
from firmware.screens.jc.forces import forces_screen, log_screen
from firmware.screens.jc.blocks import BlocksMenu
from firmware.screens.jc.campaign import CardsMenu, campaign_item, resume, vp_screen
from firmware.screens.jc.odds import odds_screen
from firmware.screens.jc.setup import next_battle_form, open_add, setup_form
from firmware.screens.jc.words import GAME, side_name, view_of
from firmware.screens.widgets import Item, WrappedListScreen


def open_game(ctx: Ctx) -> None:
    """Continue the current Julius Caesar session — on the battle being fought (its decision), and
    over it what the device said and was not closed yet (after a power cut): the newest
    announcement (a winter's checklist, a reveal) over the last roll's result —, or set one up."""
    play.continue_or_setup(ctx, (GAME,), JcHome, lambda: setup_form(home=JcHome))
    view = ctx.view()
    if view is not None and view["game"] == GAME:
        open_battle(ctx)
        resume_roll(ctx)
        resume(ctx)


def open_battle(ctx: Ctx) -> None:
    """On opening the game (after a power cut too): a battle being fought (J-5..J-7, J-14) opens
    on its screen — the decision it waits for (which block acts, where a hit goes) — as it was
    when the power went, not on the home's Battle row that leads to it (one more press); the
    roll not closed yet and an announcement are said over it, and closing them leads to it.
    A battle in set-up or over, or the campaign's end (J-17): the home."""
    view = view_of(ctx)
    if view["battle"]["phase"] == "fighting" and not view["campaign"]["over"]:
        ctx.push(BattleScreen())


class JcHome(WrappedListScreen):
    """The session's home: the battle, its odds and forces, the campaign's bookkeeping."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Julius Caesar")

    def status(self, ctx: Ctx) -> str:
        return f"№{view_of(ctx)['battle']['number']}"

    def follow(self, items: Sequence[Item]) -> None:
        """As the list does; and once the battle is over (J-13) the row Fight to the end stood on goes
        to Next battle, which took its place: the cursor left on it (Fight to the end played from
        here) stayed at its index, on a row nobody went for (Victory points, Forces)."""
        keys = [i.key for i in items]
        gone, new = _("Fight to the end"), _("Next battle")
        if self.current == gone and gone not in keys and new in keys and self.cursor == self._mark:
            self.current = new
            self.cursor = self._mark = keys.index(new)
        super().follow(items)

    def render(self, ctx: Ctx) -> Image.Image:
        """As the list draws; but first, what the device said and was not closed — a roll, a reveal,
        the winter sent over the serial link while the home was shown, which the table looks for on
        the device, not on the laptop — is said, as on opening the game (the App draws it instead:
        the top changed). Closed, it is not said again."""
        resume_roll(ctx)
        resume(ctx)
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        b = view["battle"]
        out = [Item(_("Battle"), lambda c: c.push(BattleScreen()), phase_word(b))]
        playing = not view["campaign"]["over"]          # the campaign's end ends the game (J-17)
        if b["phase"] == "setup" and playing:
            out += [Item(_("Add attacker"), partial(open_add, role="attacker"), side_name(b["attacker"])),
                    Item(_("Add defender"), partial(open_add, role="defender"), side_name(b["defender"]))]
        if b["phase"] != "over" and playing:
            out += [Item(_("Odds"), lambda c: c.push(odds_screen())),
                    Item(_("Fight to the end"), ask_fight)]
        elif playing:
            out.append(Item(_("Next battle"), lambda c: c.push(next_battle_form(c))))
        out += [Item(_("Forces"), lambda c: c.push(remade(lambda: forces_screen(c)))),
                Item(_("Battle log"), lambda c: c.push(remade(lambda: log_screen(c)))),
                Item(_("Victory points"), lambda c: c.push(vp_screen()),
                     f"{view['vp']['caesar']}:{view['vp']['pompey']}"),
                Item(_("Cards"), lambda c: c.push(CardsMenu()))]
        if playing:                  # a step lost outside battle, a defection (Vulcan, Jupiter)
            out.append(Item(_("Blocks"), lambda c: c.push(BlocksMenu())))
        out += [campaign_item(view["campaign"]["over"], view["campaign"]["year"]),
                Item(_("New game"), lambda c: c.push(setup_form(home=JcHome)))]
        return out


def phase_word(b: BattleView) -> str:
    if b["phase"] == "over":
        return _("over")
    if b["phase"] == "setup":
        n = len(b["blocks"])
        return ngettext("{} block", "{} blocks", n).format(n)
    return _("round {}").format(b["round"])
