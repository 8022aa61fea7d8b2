"""Dice & bags: bags and decks (presets or your own contents) and their histories.

Beside a running game (any session but a ``bag`` one) the bag and deck are the session's side kit
(``kit …`` commands, engine/kit.py): journaled and undone with the game, which goes on. Without a
session a ``bag`` session is started."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Literal, cast

from PIL import Image

from engine import actions as act
from engine.actions import Line
from engine.kit_views import BagView, DeckView, HolderView, KitView
from engine.views import SessionView
from engine.replies import BagReply
from engine.text import N_, term
from firmware.i18n import Msg, Sentences, _
from firmware.screens import play
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.kit import ended
from firmware.screens.kit.presets import COMMON_NAMES, PRESETS, Pairs
from firmware.screens.kit.record import BAG
from firmware.screens import base
from firmware.screens.widgets import Intent, Item, ListScreen, Scroll, TextScreen, figure, intent, scroll_bar
from firmware.screens.widgets.confirm import leave
from firmware.screens.widgets.figure import Field, change
from firmware.screens.widgets.keyboard import TypeScreen
from firmware.screens.widgets.share import FairShare
from firmware.screens.widgets.scroll import BESIDE_MARK, Spot, beside, row_at, spot_of, wrapped
from firmware.screens.widgets.result import ResultScreen


MOST = 99              # of one name in a bag or deck you make (a count's limit, said as on every form)


# -- where the bag lives -------------------------------------------------------------------------
def side_mode(ctx: Ctx) -> bool:
    """True when a session of another game runs: the bag goes beside it (``kit …``)."""
    view = ctx.view()
    return view is not None and view["game"] not in BAG.sessions


def holder(ctx: Ctx, side: bool) -> HolderView:
    """The bag/deck shown: the side kit's or the bag session's (``bag``/``deck`` keys), read
    through its TypedDict (engine/kit_views.py)."""
    if side:
        return ctx.run(act.kit_state()).get("kit") or {}
    view = ctx.view()
    # another game may have been started meanwhile (e.g. from the console): its "bag" is not ours
    return cast(KitView, view) if view is not None and view["game"] in BAG.sessions else {}


def open_kit(ctx: Ctx) -> None:
    side = side_mode(ctx)
    h = holder(ctx, side)
    if h.get("bag") is not None or h.get("deck") is not None:
        ctx.push(KitScreen(side))
    else:
        ctx.push(PresetScreen(side))


def open_kit_tool(ctx: Ctx) -> None:
    """Dice & bags → Bags & decks: as :func:`open_kit`, but over a session that is over (ended, or
    its rules ended it: it draws no more, its own bag, or a side bag beside it, refused every draw
    as "game over") the presets start a new bag session. (Resume still shows the ended one.)"""
    view = ctx.view()
    note = play.replaced_note(view)
    if note is not None and view is not None:     # its rules ended it, the players did not: ask first
        ctx.push(remade(lambda: play.ReplaceQuestion(_("Bags & decks"), f"{play.replaced_note(view)} {_('Choose a bag?')}",
                                             lambda c: c.push(PresetScreen(False)), view)))
    elif view is not None and view["ended"]:
        ctx.push(PresetScreen(False))
    else:
        open_kit(ctx)


# -- starting a bag or deck (the presets: firmware/screens/kit/presets.py) -----------------------
def puts_aside(view: SessionView | None) -> bool:
    """True when a new bag session would put aside a game going on (not a tool, not over, not
    ended): a bag chosen for a game its rules had ended, that an undo reopened meanwhile."""
    return (view is not None and view["game"] not in play.tools() and not view["ended"]
            and not view["over"])


def begin(ctx: Ctx, kind: act.BagKind, pairs: Pairs, side: bool, pops: int = 0, fair: FairShare | None = None,
          asked: bool = False) -> None:
    """Start the bag (``kind`` items) or deck (cards) of ``pairs`` and show it in place of the
    screen ``pops`` levels under the top. ``fair``: a new bag session's fair-draw part (the
    players' share goes on its line). A new bag session that would put aside a game going on
    (:func:`puts_aside`) asks first (``asked``: it did)."""
    view = ctx.view()
    if not side and not asked and puts_aside(view):
        assert view is not None
        game = view["game"]

        def question() -> play.ReplaceQuestion:
            ends = _("The {} game ends and goes to the archive.").format(play.game_label(game))
            start = _("Start the new bag?") if kind == "items" else _("Start the new deck?")
            return play.ReplaceQuestion(_("New bag or deck"), f"{ends} {start}",
                                        lambda c: begin(c, kind, pairs, side, pops, fair, asked=True), view)
        ctx.push(remade(question))
        return
    if side:
        if ended.run(ctx, act.kit_new(kind, pairs), "bag") is None:
            return
    else:
        line = act.new_bag(kind, pairs)
        if fair is not None:
            line = fair.line(line)
        response = play.run_or_notify(ctx, line)
        if response is None:
            return
        code = response.get("commitment")
        if code and (fair is None or not fair.shown(code)):
            ctx.show_commitment(code)
    for _i in range(pops):
        ctx.pop()
    below = ctx.under(1)
    if isinstance(below, KitScreen) and below.side == side:
        ctx.pop()                  # back to the bag's own screen, which shows the new contents
    else:
        ctx.replace(KitScreen(side))


class PresetScreen(ListScreen):
    """Start a bag or deck: your own contents, or a preset."""

    title = Said("")
    wrap_rows = True         # «Внесок гравців» beside «немає» takes two rows, never read as one phrase

    def __init__(self, side: bool = False) -> None:
        super().__init__()
        self.side = side
        self.title = N_("Bag beside the game") if side else N_("New bag or deck")
        self.fair = None if side else FairShare()     # a new bag session: the players' share

    def items(self, ctx: Ctx) -> list[Item]:
        out = [Item(_("Your own bag…"), partial(self._edit, "items")),
               Item(_("Your own deck…"), partial(self._edit, "cards"))]
        for label, kind, pairs in PRESETS:
            out.append(Item(_(label), partial(self._begin, kind, pairs)))
        return out + (self.fair.items(ctx) if self.fair is not None else [])

    def _edit(self, kind: act.BagKind, ctx: Ctx) -> None:
        ctx.push(BagEditor(kind, self.side, self.fair))

    def _begin(self, kind: act.BagKind, pairs: Callable[[], Pairs], ctx: Ctx) -> None:
        begin(ctx, kind, pairs(), self.side, fair=self.fair)


class BagEditor(ListScreen):
    """Your own bag or deck, as a form of counts: «Type a name…», then the names typed, then the
    common names (in the current language), each a count (left/right change it, shown ‹3› on the
    cursor row, ×3 elsewhere, nothing while none), then «Start». A (or press) on a count is the
    form's main action, as on every form: the bag or deck starts. B goes back (asking first once
    anything is counted).

    It was a list of the items added, each added through a second list of names that opened at
    «Type a name…» every time: five names one each and a draw took 63 presses (median; 78 at most),
    now 26 (27); several of one name 28.5 (37) -> 25.5 (34); a mixed bag with a typed name 53.5
    (71) -> 43.5 (52) (scripts/presses/kit.py)."""

    title = Said("")

    def __init__(self, kind: act.BagKind = "items", side: bool = False, fair: FairShare | None = None) -> None:
        super().__init__()
        self.kind = kind
        self.side = side
        self.fair = fair
        self.typed: list[list[Any]] = []                       # [name, count], in the order typed
        self.common: dict[str, int] = dict.fromkeys(COMMON_NAMES, 0)   # msgid -> count
        self.title = N_("Your own bag") if kind == "items" else N_("Your own deck")

    @property
    def entries(self) -> list[list[Any]]:
        """Every name counted ([name, count], count > 0): the typed ones, then the common ones."""
        return ([[name, n] for name, n in self.typed if n]
                + [[_(word), n] for word, n in self.common.items() if n])

    def status(self, ctx: Ctx) -> str:
        total = sum(n for _name, n in self.entries)
        return str(total) if total else ""

    def _rows(self) -> list[tuple[str, str, int]]:
        """(ident, name, count) of each count row, in the order shown."""
        return ([(f"typed:{i}", name, n) for i, (name, n) in enumerate(self.typed)]
                + [(f"common:{word}", _(word), n) for word, n in self.common.items()])

    def items(self, ctx: Ctx | None = None) -> list[Item]:
        out = [Item(_("Type a name…"), lambda c: c.push(TypeScreen(self._typed)), ident="type")]
        for i, (ident, name, n) in enumerate(self._rows(), start=1):
            shown = figure(n) if i == self.cursor else f"×{n}" if n else ""
            out.append(Item(name, None, shown, ident=ident, adjust=partial(self._count, ident=ident)))
        out.append(Item(_("Start"), self.start, ident="start"))
        return out

    def go(self, ctx: Ctx) -> None:
        """A (or press) on a count: start, as every form's main action does (it did nothing)."""
        self.start(ctx)

    def back(self, ctx: Ctx) -> None:
        """B: back; with items in it, after a question (the bag or deck made so far is lost)."""
        if not self.entries:
            leave(ctx, None)
        elif self.kind == "items":
            leave(ctx, lambda: _("The bag you made is not kept."))
        else:
            leave(ctx, lambda: _("The deck you made is not kept."))

    def _count(self, ctx: Ctx, by: int, ident: str) -> None:
        """A name's count moved ``by`` (its row's left/right, the name typed), checked as a form's is."""
        kind, _sep, key = ident.partition(":")
        was = self.typed[int(key)][1] if kind == "typed" else self.common[key]
        name = self.typed[int(key)][0] if kind == "typed" else term(key)   # (a common name: said again in
        field = Field(ident, key, was, 0, MOST, named=Sentences(name, capital=True))     # a new language)
        if not change(ctx, field, by):
            return
        if kind == "typed":
            self.typed[int(key)][1] = field.value
        else:
            self.common[key] = field.value

    def add(self, name: str) -> str:
        """Put the cursor on ``name``'s row (a common name typed is that name's row; a name new to
        the bag gets a row of its own, none of it counted yet); the row's ident."""
        word = next((w for w in self.common if _(w) == name), None)
        if word is not None:
            ident = f"common:{word}"
        else:
            i = next((i for i, entry in enumerate(self.typed) if entry[0] == name), None)
            if i is None:
                self.typed.append([name, 0])
                i = len(self.typed) - 1
            ident = f"typed:{i}"
        self.cursor = 1 + [r[0] for r in self._rows()].index(ident)
        self.current = ident
        self._mark = self.cursor
        return ident

    def _typed(self, ctx: Ctx, name: str) -> None:
        """A name typed counts one more of it, as right on its row does (at 99: its limit said)."""
        self._count(ctx, 1, self.add(name))

    def start(self, ctx: Ctx) -> None:
        pairs = [(name, n) for name, n in self.entries]
        if not pairs:
            ctx.notify(Msg("Add at least one item first: right on a name adds one.") if self.kind == "items" else
                       Msg("Add at least one card first: right on a name adds one."))
            return
        begin(ctx, self.kind, pairs, self.side, pops=1, fair=self.fair)


# -- the bag and deck ----------------------------------------------------------------------------
class KitScreen(ListScreen):
    """The current bag and/or deck (the session's own, or beside a running game). The cursor
    stays on the same action when rows appear or go (by label, not by position)."""

    title = Said("")

    def __init__(self, side: bool = False) -> None:
        super().__init__()
        self.side = side
        self.title = N_("Bag beside the game") if side else N_("Bag & deck")

    def items(self, ctx: Ctx) -> list[Item]:
        """Over a session that draws no more (ended by the players or its rules: Resume on an ended
        bag, a game the serial link ended): History now — why, what is in it, what was drawn, and a
        new bag or deck as Dice & bags → Bags & decks makes it; never a draw it would refuse."""
        h = holder(ctx, self.side)
        view = ctx.view()
        done = ended.draws_no_more(view)
        out = [Item(_("Ended"), lambda c: c.notify(ended.over_note(view, "bag")))] if done else []
        bag = h.get("bag")
        deck = h.get("deck")
        if bag is not None:
            if not done:
                out.append(Item(_("Draw"), lambda c: self._draw(c, "draw", "drawn", N_("From the bag")),
                                _("{} in bag").format(bag["size"]) if bag["size"] else _("empty")))
            if bag["drawn"] and not done:
                out.append(Item(_("Put back…"), lambda c: c.push(
                    PickScreen(N_("Put back"), sorted(set(bag["drawn"])), partial(act.bag, "put", side=self.side),
                               partial(drawn_now, side=self.side)))))
            out.append(Item(_("In the bag"), lambda c: c.push(remade(lambda: contents_screen(bag, play.session_games(c)))),
                            str(bag["size"]) if done else ""))
        if deck is not None and not done:
            out.append(Item(_("Draw a card"), lambda c: self._draw(c, "card", "cards", N_("Card")),
                            _("{} left").format(deck["draw_pile"]) if deck["draw_pile"] else _("empty")))
            if deck["hand"]:
                out.append(Item(_("Discard…"), lambda c: c.push(
                    PickScreen(N_("Discard"), list(dict.fromkeys(deck["hand"])), partial(act.bag, "discard", side=self.side),
                               partial(hand_now, side=self.side)))))
            out.append(Item(_("Shuffle the deck"), partial(_nothing_to_shuffle, bool(deck["discard"]))
                            if not deck["draw_pile"] else lambda c: self._simple(c, "shuffle")))
            if deck["discard"]:
                out.append(Item(_("Discards back in"), lambda c: self._simple(c, "reshuffle"),
                                str(len(deck["discard"]))))
        out.append(Item(_("History"), lambda c: c.push(remade(lambda: KitHistory(self.side))), str(events_of(h))))
        out.append(Item(_("New bag or deck"), _anew if done else lambda c: c.push(PresetScreen(self.side))))
        return out

    def _draw(self, ctx: Ctx, command: act.BagCommand, field: Literal["drawn", "cards"], label: str) -> None:
        response = ended.run(ctx, act.bag(command, side=self.side), "bag")
        if response is not None:
            games, shown = play.session_games(ctx), ", ".join(response[field])
            ctx.push(remade(lambda: Drawn(games, _(label), shown)))

    def _simple(self, ctx: Ctx, command: act.BagCommand) -> None:
        response = ended.run(ctx, act.bag(command, side=self.side), "bag")
        if response is None:
            return
        kept = int(response.get("kept", 0))      # cards shown and undone stay on top (docs/fairness.md §5)
        ctx.notify(Msg("Shuffled. The card shown and undone stays on top.", n=kept,
                       plural="Shuffled. The {n} cards shown and undone stay on top.") if kept else
                   Msg("Shuffled: {n} card in the deck.", n=int(response.get("draw_pile", 0)),
                       plural="Shuffled: {n} cards in the deck."))


def _nothing_to_shuffle(discards: bool, ctx: Ctx) -> None:
    """Shuffle the deck over an empty draw pile: nothing is sent (it said «Shuffled.», the deck
    still empty, as if its cards had come back); what would bring them back is said instead."""
    ctx.notify(Msg("The deck is empty: Discards back in shuffles the discards into it.") if discards else
               Msg("The deck is empty: discard the cards in the hand, then Discards back in."))


def _anew(ctx: Ctx) -> None:
    """A new bag or deck over a session that draws no more: Dice & bags → Bags & decks'."""
    ctx.pop()
    open_kit_tool(ctx)


def drawn_now(ctx: Ctx, side: bool) -> list[str]:
    """What has been drawn from the bag and can be put back, as the game is now."""
    bag = holder(ctx, side).get("bag")
    return list(bag["drawn"]) if bag is not None else []


def hand_now(ctx: Ctx, side: bool) -> list[str]:
    """The cards in hand, as the game is now."""
    deck = holder(ctx, side).get("deck")
    return list(deck["hand"]) if deck is not None else []


def contents_screen(bag: BagView, games: tuple[str, ...]) -> TextScreen:
    """What is in the bag now: taken off once a step is played or taken back (it showed the counts
    of before)."""
    rows = [f"{name} ×{n}" for name, n in bag["left"].items() if n]
    return play.Snapshot(games, _("In the bag"), rows or [_("The bag is empty.")])


class Drawn(play.Follows, ResultScreen):
    """What a draw gave; taken off by an undo of the draw (it showed an item back in the bag). A
    name too long for one row of large letters takes two or three, centred (a 16-letter name,
    «легионер-ветеран», was one row of small letters at the top, hard to read across the table)."""

    def __init__(self, games: tuple[str, ...], label: str, value: str) -> None:
        super().__init__(label, value)
        self.games = games

    def render(self, ctx: Ctx) -> Image.Image:
        advance, height = base.advance("large"), base.cell_height("large")
        rows = base.wrap(self.value, (base.W - 4) // advance)
        if len(rows) < 2 or len(rows) * height > base.H - base.TITLE_H:
            return super().render(ctx)          # one row of large (or larger) letters, or too long
        img, draw = base.frame()
        base.title_bar(draw, self.title, _("A: ok"))
        top = base.TITLE_H + (base.H - base.TITLE_H - len(rows) * height) // 2
        for i, row in enumerate(rows):
            base.put(draw, (base.W - len(row) * advance) // 2, top + i * height, row, kind="large")
        return img


class PickScreen(ListScreen):
    """Choose one name, then run ``command(name)`` (a bag's ``put``, a deck's ``discard``).
    ``now(ctx)`` (if given) lists the names there are to choose from as the game is now. A long
    name takes two rows (never cut: two names alike but for their ends stay apart)."""

    wrap_rows = True
    title = Said("")                          # said when drawn: it follows a change of language

    def __init__(self, title: str, names: list[str], command: Callable[[str], Line[BagReply]],
                 now: Callable[[Ctx], list[str]] | None = None) -> None:
        super().__init__()
        self.title = title
        self.names = names
        self.command = command
        self.now = now

    def stale(self, ctx: Ctx) -> bool:
        """True once a name offered is no longer there to choose (an undo, or a line from the
        serial link, took back the draw or the bag itself)."""
        return self.now is not None and not set(self.names) <= set(self.now(ctx))

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(n, partial(self._pick, n)) for n in self.names]

    def _pick(self, name: str, ctx: Ctx) -> None:
        ctx.pop()
        ended.run(ctx, self.command(name), "bag")


BAG_COMMANDS = frozenset({"draw", "put", "card", "discard", "shuffle", "reshuffle"})
SIDE_COMMAND = "kit"


def of_the_kit(line: str, side: bool) -> bool:
    """Whether the action ``line`` is one of the bag's or deck's (a bag session's own commands, or
    ``kit …`` beside a game)."""
    command = line.split(" ", 1)[0]
    return command == SIDE_COMMAND if side else command in BAG_COMMANDS


def events_of(h: HolderView) -> int:
    """How many draws, put-backs, cards, discards and shuffles the bag and deck have had (their
    views keep only the newest), as History lists them: not a new deck's own first shuffle."""
    parts: list[BagView | DeckView | None] = [h.get("bag"), h.get("deck")]
    opening = 1 if h.get("deck") else 0
    return max(0, sum(int(p.get("events", len(p["history"]))) for p in parts if p) - opening)


class KitHistory:
    """Every draw, put-back, card, discard and shuffle of the bag and deck, newest first, read a
    page at a time through the read-only ``actions [N] [before=K]`` (the state keeps only the
    newest events): up/down scroll (the next older page is read when the last rows come into
    view), any other key closes it."""

    PAGE = 100               # actions asked at a time
    title = Said(N_("History"))

    def __init__(self, side: bool) -> None:
        self.side = side
        self.rows: list[str] = []
        self.entries: list[str] = []          # the sentence of each of the kit's actions read, newest first
        self.refused: list[str] = []          # why the next page could not be read
        self.width = BESIDE_MARK              # the rows' (the panel's once all read fit it)
        self.before: int | None = None        # the next older page starts before this action
        self.done = False                     # the first action has been read
        self.scroll = Scroll()
        self.read_of: tuple[object, object] | None = None     # the bag and deck the rows were read of
        self.place: Spot | None = None        # where to open once read (made again in a new language)

    def reading(self) -> Spot:
        """The entry and sentence the reader is at (made again in another language: read_at)."""
        return spot_of(self.entries, self.scroll.top, self.width)

    def read_at(self, place: Spot) -> None:
        """Open at ``place`` (:meth:`reading` of the history in the language left): the entries are
        read when it is drawn, the row found then."""
        self.place = place

    def _placed(self, ctx: Ctx) -> None:
        if self.place is None:
            return
        while not self.done and len(self.entries) <= self.place[0]:
            self.more(ctx, len(self.rows) + 1)
        self.scroll.top = row_at(self.entries, self.place, self.width)
        self.place = None

    def more(self, ctx: Ctx, wanted: int) -> None:
        """Read older pages until there are ``wanted`` rows or none is left (a refusal ends it);
        from the newest again once the bag or deck has changed since (an undo took a draw back,
        the serial link drew)."""
        h = holder(ctx, self.side)
        now = (h.get("bag"), h.get("deck"))
        if now != self.read_of:
            self.read_of = now
            self.rows, self.entries, self.refused, self.before, self.done = [], [], [], None, False
        while not self.done and len(self.rows) < wanted:
            response = ctx.run(act.actions(self.PAGE, self.before))
            self.entries += [str(e["text"]) for e in response.get("actions", []) if of_the_kit(str(e["line"]), self.side)]
            self.refused = [str(response["message"])] if not response.get("ok") and response.get("message") else []
            before = response.get("before")
            self.done = before is None or not response.get("ok")
            self.before = int(before) if before is not None else None
            self.width = beside(self.entries + self.refused, base.ROWS) if self.done else BESIDE_MARK
            self.rows = wrapped(self.entries + self.refused, self.width)     # (scrolled: the mark keeps its column)

    def render(self, ctx: Ctx) -> Image.Image:
        self._placed(ctx)
        self.more(ctx, self.scroll.top + 2 * base.ROWS)
        img, draw = base.frame()
        rows = self.rows or [_("Nothing yet.")]
        top = self.scroll.fit(len(rows), base.ROWS)
        base.title_bar(draw, self.title, f"{len(self.entries)}{'' if self.done else '+'}")
        base.lines(draw, rows[top:top + base.ROWS])
        scroll_bar(draw, top, base.ROWS, len(rows) + (0 if self.done else base.ROWS))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        self._placed(ctx)
        self.more(ctx, self.scroll.top + 2 * base.ROWS + 1)
        if self.scroll.move(what, len(self.rows), base.ROWS) or self.scroll.go_on(what, len(self.rows), base.ROWS):
            return                                    # A with older entries below: the next page
        if what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
