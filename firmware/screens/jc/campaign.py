"""Julius Caesar: the campaign's bookkeeping — the VP cities (J-17), the cards shown privately
(J-18) and the winter (J-19)."""
from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from PIL import Image

from engine.jc import actions as act
from engine.jc.score import LAST_YEAR, ROME
from engine.jc.views import Reveal, Verdict, WinterView
from engine.text import N_
from firmware.i18n import again, sentence
from firmware.screens.jc.text import Msg, _, ngettext
from firmware.screens.base import TIE
from firmware.screens.ctx import Ctx, remade
from firmware.screens.jc.words import (GAME, SIDES, campaign_mark, card_name, digest, kept_for, name_of, over_item, run_line,
                                       side_name, view_of)
from firmware.screens.play import Asked, Snapshot
from firmware.screens.widgets import ConfirmScreen, Item, ListScreen, VPTrack
from firmware.settings import MAX_VALUE

log = logging.getLogger(__name__)

# -- score, cards, winter ----------------------------------------------------------------------
CYCLE = ("caesar", "pompey", None)          # a city's holders, in the order left/right go through them


TROPHY_WORDS = {"caesar": N_("Caesar's trophies"), "pompey": N_("Pompey's trophies")}
# one sentence per side: ru/uk decline the side's name (передайте устройство Цезарю, рука Помпея)
PASS_TO = {"caesar": N_("Pass the device to Caesar."), "pompey": N_("Pass the device to Pompey.")}
HAND = {"caesar": N_("Caesar's hand"), "pompey": N_("Pompey's hand")}


def vp_screen() -> VPTrack:
    """The 11 VP cities and who holds them, then each side's trophies (killed enemy leaders, 1 VP
    each), so that the rows add up to the score (J-17): left/right give a city to the next holder;
    A on a trophy row names the leaders. Once the campaign is over nothing changes: the rows are
    only read."""
    def rows(ctx: Ctx) -> list[tuple[str, str, str]]:
        view = view_of(ctx)
        cities = [(city, _(city), side_name(holder) if holder else "—")
                  for city, holder in sorted(view["control"].items())]
        return cities + [(f"trophies:{side}", _(TROPHY_WORDS[side]), str(len(view["campaign"]["trophies"][side])))
                         for side in SIDES]

    def change(ctx: Ctx, city: str, by: int) -> None:
        now = view_of(ctx)["control"][city]
        nxt = CYCLE[(CYCLE.index(now) + by) % len(CYCLE)]
        run_line(ctx, act.control(city, nxt))

    def score(ctx: Ctx) -> str:
        vp = view_of(ctx)["vp"]
        return f"{vp['caesar']}:{vp['pompey']}"

    return JcVPTrack(lambda: _("Victory points"), rows, change, score)


class JcVPTrack(VPTrack):
    """The VP track whose trophy rows are read, not changed (a trophy is a leader killed: J-2), and
    whose rows are all read once the campaign is over (its cities no longer change hands)."""

    def items(self, ctx: Ctx) -> list[Item]:
        over = bool(view_of(ctx)["campaign"]["over"])
        out = []
        for item, (ident, label, value) in zip(super().items(ctx), self.rows(ctx)):
            if ident.startswith("trophies:"):
                out.append(Item(label, partial(_trophies, side=ident.split(":", 1)[1]), value, ident=ident))
            else:
                out.append(Item(label, _close, value, ident=ident) if over else item)
        return out


def _close(ctx: Ctx) -> None:
    ctx.pop()


def _trophies(ctx: Ctx, side: str) -> None:
    ctx.push(remade(partial(trophies_screen, ctx, side)))


def trophies_screen(ctx: Ctx, side: str) -> Snapshot:
    """The enemy leaders ``side`` has killed (its trophies), as the game stands now."""
    killed = view_of(ctx)["campaign"]["trophies"][side]
    rows = [_("A killed enemy leader is a trophy: 1 VP.")]
    for t in killed:
        name = name_of(t)
        rows.append(_("{} (battle {})").format(name, t["battle"]) if t["battle"] is not None
                    else _("{} (outside battle)").format(name))
    if not killed:
        rows.append(_("None yet."))
    return Snapshot((GAME,), _(TROPHY_WORDS[side]), rows)


class CardsMenu(ListScreen):
    """Deal the year's cards; each player looks at a hand only after passing the device."""

    wrap_rows = True              # «Кампания окончена» beside the winner takes two rows

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Cards")

    def status(self, ctx: Ctx) -> str:
        view = view_of(ctx)
        cards = view["cards"]
        if not cards or view["campaign"]["over"]:
            return ""
        if cards["year_done"]:                   # the year ends with its fifth card (J-18, rules 8.0)
            return _("winter next")
        return _("turn {}").format(cards["turn"])

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        cards = view["cards"]
        over = view["campaign"]["over"]
        if over:                 # the campaign's end (J-17): no deal, no card played; the last reveal
            out = [over_item(over)]
            if cards and cards["reveals"]:
                out.append(Item(_("Last reveal"), self._reveal, _("turn {}").format(cards["reveals"][-1]["turn"])))
            return out
        out = [] if cards else [Item(_("Deal the year"), self._deal)]     # dealt once a year (J-18)
        if cards:
            for side in SIDES:
                n = cards["cards_in_hand"][side]
                done = _("played") if cards["played"][side] else ngettext("{} card", "{} cards", n).format(n)
                out.append(Item(side_name(side), partial(self._hand, side=side), done))
            if cards["reveals"]:
                out.append(Item(_("Last reveal"), self._reveal,
                                _("turn {}").format(cards["reveals"][-1]["turn"])))
        return out

    @staticmethod
    def _deal(ctx: Ctx) -> None:
        run_line(ctx, act.deal())      # offered until the year is dealt (J-18; winter deals the next)

    @staticmethod
    def _hand(ctx: Ctx, side: str) -> None:
        ctx.push(remade(lambda: ConfirmScreen(_("Private"), _(PASS_TO[side]),
                                              lambda c: c.push(HandScreen(side)), _("A: show"), _("B: back"))))

    @staticmethod
    def _reveal(ctx: Ctx) -> None:
        cards = view_of(ctx)["cards"]
        if cards and cards["reveals"]:
            reveal = cards["reveals"][-1]
            ctx.push(remade(lambda: Snapshot((GAME,), _("Reveal"), reveal_rows(reveal))))


def reveal_rows(rec: Reveal) -> list[str]:
    rows = [_("{side}: {card}").format(side=side_name(s), card=card_name(rec["played"][s], said=True)) for s in SIDES]
    if rec["cancelled"]:
        return rows + [_("Two events cancel each other.")]
    for side in SIDES:
        if rec["played"][side] == "apollo":
            rows.append(_("Apollo copies: {}").format(card_name(rec["effective"][side], said=True)))
    return rows + [_("Player 1: {}").format(side_name(rec["player1"]))]


class HandScreen(ListScreen):
    """One player's cards: select one to discard (once a year) or play face down."""

    def __init__(self, side: str) -> None:
        super().__init__()
        self.side = side
        self.title = ""

    def render(self, ctx: Ctx) -> Image.Image:
        self.title = _(HAND[self.side])
        return super().render(ctx)

    def status(self, ctx: Ctx) -> str:
        cards = view_of(ctx)["cards"]
        if cards is None or not cards["cards_in_hand"][self.side]:
            return ""
        return _("discard") if not cards["discarded"][self.side] else _("play")

    def items(self, ctx: Ctx) -> list[Item]:
        hand = ctx.run(act.hand(self.side)).get("hand", [])
        if not hand:                    # the year's five cards are played (J-18)
            return [Item(_("No cards in hand."), None)]
        return [Item(card_name(card), partial(self._use, card=card)) for card in hand]

    def _use(self, ctx: Ctx, card: str) -> None:
        cards = view_of(ctx)["cards"]
        if cards is None:
            return
        verb = "discard" if not cards["discarded"][self.side] else "play"
        if verb == "discard":
            run_line(ctx, act.discard(self.side, card))
            return
        response = run_line(ctx, act.play(self.side, card))
        if response is None:
            return
        ctx.pop()
        if response.get("reveal"):
            said = newest_said(ctx)             # the reveal just made, kept until it is closed
            if said is not None:
                ctx.push(remade(said[1]))


def campaign_item(over: Verdict | None, year: int) -> Item:
    """The winter of this year (J-19) — or, once a winter has ended the campaign, its result (no
    winter of a year that will not come)."""
    if over:
        return over_item(over)
    return Item(_("Winter"), ask_winter, _("year {}").format(year), ident="campaign")


def ask_winter(ctx: Ctx) -> None:
    """The winter (J-19), asked first; never offered in the middle of a battle."""
    view = view_of(ctx)
    if view["battle"]["phase"] == "fighting":
        ctx.notify(Msg("Winter comes after the battle: finish it first (or Fight to the end)."))
        return
    if view["battle"]["phase"] == "setup" and view["battle"]["blocks"]:
        ctx.notify(Msg("Winter comes after the battle being set up: fight it, or take its blocks "
                       "out first."))
        return
    if view["campaign"]["over"]:
        ctx.notify(Msg("The game is over: {}", sentence(view["campaign"]["over"].get("reason", ""))))
        return

    quiet = view["campaign"]["quiet"]       # asked as such: no second winter skips a year unsaid (J-19)

    def go(c: Ctx) -> None:
        if run_line(c, act.winter(quiet)) is None:
            return
        said = newest_said(c)                   # the winter's checklist, kept until it is closed
        if said is not None:
            c.push(remade(said[1]))

    ctx.push(remade(lambda: Asked((GAME,), _("Winter?"), winter_question(ctx), go)))


def winter_question(ctx: Ctx) -> str:
    """Which winter it is and the figures the device decides from (J-17, J-19): Alexandria's holder
    (8.1: Cleopatra joins them), the VP (8.2) and, at a tie in the last winter, Rome's holder (J-17);
    before them what yes loses — a year with no battle and no card skipped, hands still in play. What
    the winter does (Cleopatra home, victory, navis, supply, eliminated blocks back, new cards) is
    its checklist, after yes. The question said it all first: 7-9 rows, 10-13 in the last year, 3-5
    A where a page is one; now 3 rows, one A."""
    view = view_of(ctx)
    year, vp = view["campaign"]["year"], view["vp"]
    last = year >= LAST_YEAR
    question = _("End the campaign.") if last else _("End of year {}.").format(year)
    cards = view["cards"]
    if view["campaign"]["quiet"]:                  # a winter again at once skips the year (J-19)
        question = _("Year {} has had no battle and no card played since the last winter: this winter "
                     "skips it. {}").format(year, question)
    elif cards is not None and not cards["year_done"]:     # the year ends with its fifth card (J-18)
        question = (_("The hands are not played out (turn {} of 5). {}") if last else
                    _("The hands are lost (turn {} of 5). {}")).format(cards["turn"], question)
    holder = view["control"].get("Alexandria")
    said = (_("Alexandria: {}. VP {}:{}.").format(side_name(holder), vp["caesar"], vp["pompey"])
            if holder else _("Alexandria: vacant. VP {}:{}.").format(vp["caesar"], vp["pompey"]))
    if last and vp["caesar"] == vp["pompey"]:        # a tie after year 5: Rome's holder wins (J-17)
        rome = view["control"].get(ROME)
        said += " " + (_("Rome: {}.").format(side_name(rome)) if rome else _("Rome: vacant."))
    return f"{question} {said}"


# -- what the device announced, said again until it is closed (after a power cut too) ---------------
READ_KEY = "jc.read"      # the announcements the player closed, the one closed last first: the running campaign's
# newest :data:`KEPT`, then the newest of each campaign before it: ``<game>/<commitment>:<marker>,…`` (the campaign's
# own: its copies reopened from Earlier games keep it, two campaigns started with one ``seed=`` never share it; as
# many as fit in a setting's value); an older Legatus kept one, ``<session>/<commitment>:<marker>``, and before it
# ``<commitment>:<marker>``
KEPT = 4                  # (an undo of the winter leaves the year's last reveal the newest: closed before it)
# Announcements closed when the card refused to keep it (the setting not written), per running program: the
# home says what is not closed when it comes on top, and without this said it again and again, no way out.
_UNSAVED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


class Announcement(Snapshot):
    """What the device announced in the campaign — a reveal of the year's cards (J-18), a winter's
    checklist or the verdict of the last (J-17, J-19) —: it stays until undone or closed; closed, it
    is kept as read (the ``jc.read`` setting), and until then opening the game says it again
    (:func:`resume`: after a power cut the table's winter tasks are not lost with the screen)."""

    now_only = False

    def __init__(self, marker: str, title: str, rows: list[str]) -> None:
        super().__init__((GAME,), title, rows)
        self.marker = marker

    def key(self, key: str, ctx: Ctx) -> None:
        depth = ctx.depth()
        super().key(key, ctx)
        if ctx.depth() < depth:
            keep_closed(ctx, self.marker)


def keep_closed(ctx: Ctx, marker: str) -> None:
    """Keep the announcement ``marker`` closed (one write; none if it is kept already; in memory
    while the program runs if the card refuses it)."""
    kept = closed(ctx)
    if is_read(kept, marker):
        return
    response = ctx.set_setting(READ_KEY, closed_too(kept, marker))
    if not response.get("ok"):
        _UNSAVED.setdefault(ctx, set()).add(marker)
        log.warning("the announcement read was not kept: %s", response.get("message"))


# The winter's steps as the reader's rulebook numbers them (J-19). The console keeps the English
# rules v1.1 (8.1-8.6, the victory check second); the Russian summary numbers the winter 4.1-4.6
# and checks victory fourth, after the navis and the supply: its catalog says 4.x, and the
# checklist is shown in that order. A step's number is its catalog entry (the reader's edition).
STEP_NUMBERS = {"8.1": N_("8.1"), "8.2": N_("8.2"), "8.3": N_("8.3"), "8.4": N_("8.4"),
                "8.5": N_("8.5"), "8.6": N_("8.6")}


def step_number(step: str) -> str:
    """A winter step's number in the reader's edition (an unknown one as the console said it)."""
    return _(STEP_NUMBERS[step]) if step in STEP_NUMBERS else step


def _in_order(shown: str, said: str) -> tuple[int, ...]:
    """Where a step stands in the reader's edition: its number there (the console's, if a catalog
    gave one that is not a number)."""
    try:
        return tuple(int(part) for part in shown.split("."))
    except ValueError:
        log.warning("the winter step %s is numbered %r in this language: ordered as the console said it", said, shown)
        return tuple(int(part) for part in said.split(".") if part.isdigit())


# A step of the checklist: its number, its title run in before its sentences. Russian and Ukrainian
# end a run-in heading with a full stop (the sentence after it starts with a capital: «Зимнее
# снабжение. Город снабжает…», never «Зимнее снабжение: Город…»); English keeps the colon.
STEP_ROW = N_("{number} {title}: {text}")


def winter_rows(winter: WinterView) -> list[str]:
    """The checklist, each step numbered and ordered as the reader's rulebook has it (J-19); its
    mark (✓ done by the device, · the table's) tied to the number, never left alone on a row."""
    steps = sorted(((step_number(s["step"]), s) for s in winter["checklist"]), key=lambda x: _in_order(x[0], x[1]["step"]))
    return [('✓' if s['done'] else '·') + TIE + _(STEP_ROW).format(number=number, title=again(s['title']),
                                                                    text=again(s['text']))
            for number, s in steps]


_digest = digest          # (what an announcement says, marked: :func:`firmware.screens.jc.words.digest`)


def winter_said(winter: WinterView) -> list[list[object]]:
    """A winter's checklist as :func:`_digest` takes it (each step's sentences as the English they
    were said from, whatever the language now)."""
    return [[s["step"], s["done"], str(sentence(s["title"])), str(sentence(s["text"]))] for s in winter["checklist"]]


def newest_said(ctx: Ctx) -> tuple[str, Callable[[], Announcement]] | None:
    """The campaign's newest announcement — this year's last reveal, else the last winter (a new
    year's deal clears the reveals; the winter that ends the campaign deals none, and nothing is
    played after it) —: its marker (the session's fair draw, the kind, the year and turn, and a
    digest of what it says: the same step made again after an undo may say something else) and
    how to show it; None before any."""
    view = view_of(ctx)
    who = campaign_mark(ctx)
    cards, winter = view["cards"], view["winter"]
    if cards and cards["reveals"] and not (winter and view["campaign"]["over"]):
        reveal = cards["reveals"][-1]
        shown = f"{who}:r{view['campaign']['year']}.{reveal['turn']}#{_digest(reveal)}"
        return shown, lambda: Announcement(shown, _("Reveal"), reveal_rows(reveal))
    if winter:
        ended = f"{who}:w{winter['year']}#{_digest(winter_said(winter))}"
        over = bool(view["campaign"]["over"])          # the last winter ended the campaign

        def made() -> Announcement:                    # (said again in a new language: the title too)
            title = _("Game over") if over else _("Winter: year {}").format(winter["year"])   # the year it closed
            return Announcement(ended, title, winter_rows(winter))
        return ended, made
    return None


def resume(ctx: Ctx) -> bool:
    """On opening the game: the newest announcement not closed yet is said again; True if so."""
    said = newest_said(ctx)
    if said is None or is_read(closed(ctx), said[0]):
        return False
    ctx.push(remade(said[1]))
    return True


def closed(ctx: Ctx) -> list[str]:
    """The marks of the ``jc.read`` setting, the one closed last first, each campaign named as the
    running one's when it is that one's under an older name (:func:`~firmware.screens.jc.words.kept_for`);
    first those closed while the card refused to keep them."""
    return [*sorted(_UNSAVED.get(ctx, ())),
            *(kept_for(ctx, mark) for mark in str(ctx.settings.get(READ_KEY) or "").split(",") if mark)]


def is_read(kept: Sequence[str], marker: str) -> bool:
    """Whether the marks ``kept`` (:func:`closed`) say the announcement ``marker``
    (``<game>/<commitment>:<kind>#<digest>``) was closed: the one of its step (the year's winter, a
    turn's reveal) closed last says what it says. The step made again after an undo as it was
    before another one was read (A read, undone, B read, undone, A again) says other than what the
    table did last: said again. A mark an older Legatus kept without a commitment and a session
    (``seed=``) may be any campaign's: its announcement is said once more rather than hidden."""
    step = marker.rpartition("#")[0] or marker
    for mark in kept:                                 # the one closed last first
        if mark == marker:
            return True
        if (mark.rpartition("#")[0] or mark) == step:
            return False
    return False


def closed_too(kept: Sequence[str], marker: str) -> str:
    """The ``jc.read`` setting once ``marker`` is closed: it first, then the campaign's others
    ``kept`` (:func:`closed`, the one closed last first) up to :data:`KEPT`, then the newest of
    each other campaign, as many as fit in a setting's value (an older campaign's dropped)."""
    who = marker.partition(":")[0]
    mine = [marker, *(m for m in kept if m.partition(":")[0] == who and m != marker)][:KEPT]
    value = ",".join(dict.fromkeys(mine))
    others = {who}
    for mark in kept:
        if (campaign := mark.partition(":")[0]) not in others:
            others.add(campaign)
            if len(longer := f"{value},{mark}") > MAX_VALUE:
                break
            value = longer
    return value
