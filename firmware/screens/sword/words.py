"""The Sword of Rome: the words every screen shares (powers, checks, loss-table readings) and the
session's view."""
from __future__ import annotations

from typing import cast

from engine.sword.replies import BattleSide
from engine.sword.requests import signed
from engine.sword.views import SwordView
from engine.text import N_
from firmware.screens.sword.text import Msg, _
from firmware.screens import play
from firmware.screens.ctx import Ctx

PRESETS: tuple[tuple[str, str], ...] = (
    (N_("4 players"), "romans,gauls,etruscans,greeks"),
    (N_("5 players (Carthage)"), "romans,gauls,etruscans,greeks,carthage"),
    (N_("3 players"), "romans,etruscans,greeks"),
    (N_("2 players"), "romans,gauls"),
)


CHECKS = ("siege", "subjugation", "attrition", "gallic")


CHECK_NAMES = {"siege": N_("Siege"), "subjugation": N_("Subjugation"), "attrition": N_("Attrition"),
               "gallic": N_("Gallic events")}
GAULS_SIEGE = N_("Gauls besiege")               # W-9: -1 (check siege gauls=1); fits a dice title bar


BAND = ("none", "att", "def")


BAND_NAMES = (N_("none"), N_("attacker"), N_("defender"))


POWER_NAMES = {"romans": N_("Romans"), "gauls": N_("Gauls"), "etruscans": N_("Etruscans"),
               "samnites": N_("Samnites"), "greeks": N_("Greeks"), "carthage": N_("Carthage")}


# the tactics tests (W-1, rules 10.3, 11.1, 11.3): none (a bare test), then the kinds of engine/sword/tactics.py
TESTS = ("", "intercept", "avoid", "pursuit", "refuse")


TEST_NAMES = (N_("none"), N_("interception"), N_("avoiding battle"), N_("pursuit"), N_("refusing battle"))


NAVAL_RESULTS = {"success": N_("Success"), "return": N_("Return"), "attrition": N_("Attrition")}


def view_of(ctx: Ctx) -> SwordView:
    """The session's ``state``, read through its TypedDicts (engine/sword/views.py)."""
    return cast(SwordView, play.game_view(ctx, ("sword",), "Sword of Rome"))


run_line = play.run_or_notify

GAMES = ("sword",)    # the sessions these screens show


class Follows(play.Follows):
    """A Sword of Rome screen that goes when an undo takes back what it shows (:class:`play.Follows`)."""

    games = GAMES


def counted_vp(view: SwordView, power: str) -> int:
    """The VP the game counts for ``power``: Carthage's less ⌊unrest / 3⌋ (W-13), as the standings
    rank them; the track's own figure for every other power."""
    unrest = view.get("unrest")
    if power == "carthage" and unrest is not None:
        return unrest["carthage_vp"]
    return view["vp"][power]


def vp_figure(view: SwordView, power: str) -> str:
    """A power's VP as the track shows it: Carthage's with the unrest's penalty and what the game
    counts, ``6−2=4 VP`` (W-13); ``5 VP`` otherwise. The penalty shown is the one that applies: VP
    stay at 0 or more (W-11), so 1 VP at −2 is ``1−1=0 VP``, and 0 VP just ``0 VP``."""
    unrest = view.get("unrest")
    taken = view["vp"][power] - counted_vp(view, power)
    if power == "carthage" and unrest is not None and taken:
        return _("{}−{}={} VP").format(view["vp"][power], taken, unrest["carthage_vp"])
    return _("{} VP").format(view["vp"][power])


def short(power: str) -> str:
    """A power's name in the current language: ``etruscans`` -> ``Etruscans`` / «Этруски»."""
    return _(POWER_NAMES.get(power, power.capitalize()))


def power_named(power: str) -> Msg:
    """:func:`short` as a value of a sentence (a notice said again in a new language)."""
    return Msg(POWER_NAMES.get(power, power.capitalize()))


def side_row(label: str, side: BattleSide) -> str:
    """``Attack 5 2 2 +3=12`` (uncut: the battle's rows are wrapped where they are drawn)."""
    dice = " ".join(map(str, side["dice"]))
    return f"{label} {dice} {signed(side['modifier'])}={side['total']}"


def reading_word(code: str) -> str:
    """A loss-table code for a person: ``L2`` -> "loser −2", ``W1`` -> "winner −1", ``-`` -> "none"."""
    if code[:1] == "L" and code[1:].isdigit():
        return _("loser −{}").format(code[1:])
    if code[:1] == "W" and code[1:].isdigit():
        return _("winner −{}").format(code[1:])
    return _("no loss")
