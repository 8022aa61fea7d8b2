"""For the Glory of Rome: the words every screen shares (medals, events, seats) and the session's view."""
from __future__ import annotations

import re
from typing import cast

from engine.glory.console import ARROW_WORDS
from engine.glory.replies import FameReply
from engine.glory.tables import senate_values
from engine.glory.views import EventCard, GloryView, TrackPlace
from engine.text import N_
from firmware.i18n import Sentences
from firmware.screens.glory.text import Msg, _
from firmware.screens import play
from firmware.screens.ctx import Ctx
from firmware.screens.glory.record import SEAT_NAMES as SEAT_NAMES

SENATE_VALUES = senate_values()   # G-10, bottom -> top


MEDALS = ("warrior", "politician", "merchant", "priest", "farmer")


MEDAL_NAMES = {"warrior": N_("Warrior"), "politician": N_("Politician"), "merchant": N_("Merchant"),
               "priest": N_("Priest"), "farmer": N_("Farmer")}


BATTLEFIELD_NAMES = {"Epirus": N_("Epirus"), "Macedonia": N_("Macedonia"), "Thrace": N_("Thrace")}


def medal_name(medal: str) -> str:
    """The medal's name in the current language (as the rulebook names its holder)."""
    return _(MEDAL_NAMES.get(medal, medal))


def event_label(card: EventCard) -> str:
    """An event card's name: the placeholder names of the data are said in the current language;
    a name edited in to match the printed card is shown as it is."""
    label = str(card["label"])
    m = re.fullmatch(r"(Event|Harsh Times) (\d+)", label)
    if m is None:
        return label
    return (_("Event {}") if m.group(1) == "Event" else _("Harsh Times {}")).format(m.group(2))


# G-2: «Синяя — поворот по часовой стрелке, оранжевая — против часовой. Количество стрелок указывает,
# сколько раз повернется поле провинций»: the arrows of an event card as the table sees them
ARROW_CYCLE = ("cw90", "cw180", "ccw90", "ccw180")


def arrows_word(arrow: str) -> str:
    """An event card's arrows as printed: their number and colour («2 синие»)."""
    return _(ARROW_WORDS[arrow])


def view_of(ctx: Ctx) -> GloryView:
    """The session's ``state``, read through its TypedDicts (engine/glory/views.py)."""
    return cast(GloryView, play.game_view(ctx, ("glory",), "Glory of Rome"))


run_line = play.run_or_notify

GAMES = ("glory",)    # the sessions these screens show


class Follows(play.Follows):
    """A Glory screen that goes when an undo takes back what it shows (:class:`play.Follows`)."""

    games = GAMES


def intrigue_phase(ctx: Ctx) -> tuple[int, bool] | None:
    """The round and whether its event is out (the intrigues are activated after it, G-1); None
    outside a Glory game."""
    view = ctx.view()
    if view is None or view["game"] not in GAMES:
        return None
    glory = cast(GloryView, view)
    return glory["round"], glory["event"] is not None


class FollowsIntrigues:
    """A screen of an intrigue's step (a random card from a hand, a vote taken out), opened once the
    round's event was out: it goes once that event is taken back or the round is over (an undo,
    the serial link; App.drop_stale), where its A would only be refused (G-1: «Активация интриг»,
    step 2, comes after the event card, step 1). The App notes the phase it is first drawn or used in
    (:meth:`on_top`, as :class:`play.Follows`)."""

    phase: tuple[int, bool] | None = None

    def on_top(self, ctx: Ctx) -> None:
        """The App's call before it draws the screen or gives it a key (firmware/app.py ``_on_top``)."""
        self.note(ctx)

    def note(self, ctx: Ctx) -> None:
        if self.phase is None:
            self.phase = intrigue_phase(ctx)

    def stale(self, ctx: Ctx) -> bool:
        return self.phase is not None and intrigue_phase(ctx) != self.phase


def lap_note(player: str, before: TrackPlace, after: TrackPlace) -> str:
    """What the player does with the fame marker when a change takes it past space 30 or back
    (G-5: «переверните маркер вверх стороной «+30», затем поместите его снова на ячейку 1»): the
    screens show the total (33), the board space 3 on the marker's «+30» side. "" when the change
    stays on the lap."""
    if after["flips"] == before["flips"]:
        return ""
    if before["flips"] == 0 and after["flips"] == 1:
        return Msg("{}: turn the fame marker over to «+30», space {}.", player, after["space"])
    if before["flips"] == 1 and after["flips"] == 0:
        return Msg("{}: turn the fame marker back over, space {}.", player, after["space"])
    return Msg("{}: the fame marker goes round the track again: space {} (fame {}).", player, after["space"],
               after["space"] + 30 * after["flips"])


def milestone_note(response: FameReply) -> str:
    events = response.get("milestone_events") or []
    return Sentences(*(Msg("{} +1 supporter (milestone {}).", m["player"], m["milestone"]) for m in events))


# -- setup and home ----------------------------------------------------------------------------
# SEAT_NAMES: the seats' colours, the names of players nobody named (the record holds them: History)
