"""Julius Caesar: the session's home (the battle, its odds and forces, the campaign's bookkeeping)
and opening the game."""
from __future__ import annotations

from functools import partial

from engine.jc.views import BattleView, Verdict
from firmware.screens.jc.text import _, ngettext, say
from firmware.screens import play
from firmware.screens.ctx import Ctx
from firmware.screens.jc.battle import BattleScreen, ask_fight, forces_screen, log_screen
from firmware.screens.jc.campaign import CardsMenu, ask_winter, vp_screen
from firmware.screens.jc.odds import odds_screen
from firmware.screens.jc.setup import next_battle_form, open_add, setup_form
from firmware.screens.jc.words import GAME, side_name, view_of
from firmware.screens.widgets import Item, WrappedListScreen


def open_game(ctx: Ctx) -> None:
    """Continue the current Julius Caesar session, or set one up."""
    play.continue_or_setup(ctx, (GAME,), JcHome, lambda: setup_form(home=JcHome))


class JcHome(WrappedListScreen):
    """The session's home: the battle, its odds and forces, the campaign's bookkeeping."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Julius Caesar")

    def status(self, ctx: Ctx) -> str:
        return f"№{view_of(ctx)['battle']['number']}"

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        b = view["battle"]
        out = [Item(_("Battle"), lambda c: c.push(BattleScreen()), phase_word(b))]
        if b["phase"] == "setup":
            out += [Item(_("Add attacker"), partial(open_add, role="attacker"), side_name(b["attacker"])),
                    Item(_("Add defender"), partial(open_add, role="defender"), side_name(b["defender"]))]
        if b["phase"] != "over":
            out += [Item(_("Odds"), lambda c: c.push(odds_screen())),
                    Item(_("Fight to the end"), ask_fight)]
        else:
            out.append(Item(_("Next battle"), lambda c: c.push(next_battle_form(c))))
        out += [Item(_("Forces"), lambda c: c.push(forces_screen(c))),
                Item(_("Battle log"), lambda c: c.push(log_screen(c))),
                Item(_("Victory points"), lambda c: c.push(vp_screen()),
                     f"{view['vp']['caesar']}:{view['vp']['pompey']}"),
                Item(_("Cards"), lambda c: c.push(CardsMenu())),
                campaign_item(view["campaign"]["over"], view["campaign"]["year"]),
                Item(_("New game"), lambda c: c.push(setup_form(home=JcHome)))]
        return out


def campaign_item(over: Verdict | None, year: int) -> Item:
    """The winter of this year (J-19) — or, once a winter has ended the campaign, its result (no
    winter of a year that will not come)."""
    if over:
        winner = over.get("winner")
        reason = say(over.get("reason", ""))
        return Item(_("Campaign over"), lambda c: c.push(play.Snapshot((GAME,), _("Campaign over"), reason)),
                    side_name(winner) if winner else _("draw"), ident="campaign")
    return Item(_("Winter"), ask_winter, _("year {}").format(year), ident="campaign")


def phase_word(b: BattleView) -> str:
    if b["phase"] == "over":
        return _("over")
    if b["phase"] == "setup":
        n = len(b["blocks"])
        return ngettext("{} block", "{} blocks", n).format(n)
    return _("round {}").format(b["round"])
