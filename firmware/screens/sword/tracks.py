"""The Sword of Rome: the VP track and an automatic victory (W-11), Desperate Times (W-12) and
Carthaginian unrest (W-13)."""
from __future__ import annotations

from functools import partial

from engine.sword import actions as act
from engine.sword.requests import signed
from engine.sword.tracks import game_length, vp_range
from engine.text import N_
from firmware.i18n import Sentences
from firmware.screens.sword.text import Msg, _, ngettext
from firmware.screens import play
from firmware.screens.ctx import Ctx, remade
from firmware.screens.sword.words import GAMES, Follows, counted_vp, power_named, run_line, short, view_of, vp_figure
from firmware.screens.widgets import Field, Intent, Item, ListScreen, NumberForm, VPTrack, intent


# -- tracks ------------------------------------------------------------------------------------------
def vp_screen() -> VPTrack:
    """Each power's VP (W-11): left/right change the selected power's VP by one."""
    def rows(ctx: Ctx) -> list[tuple[str, str, str]]:
        view = view_of(ctx)
        return [(f, short(f), vp_figure(view, f)) for f in view["factions"]]

    def change(ctx: Ctx, power: str, by: int) -> None:
        low, high = vp_range()
        view = view_of(ctx)
        if view["finished"] or view.get("ended"):                  # the final VP, read only
            ctx.notify(play.game_over())
            return
        if not low <= view["vp"][power] + by <= high:     # no change: not an undo step
            ctx.notify(Msg("VP stay within {}–{} (W-11).", low, high))
            return
        run_line(ctx, act.vp(power, by))

    return VPTrack(lambda: _("VP track"), rows, change, lambda c: _("←→ VP"))


class DesperateScreen(ListScreen):
    """Mark everyone who wants to play a Desperate Times card now (right or press: ✓), A decides
    who plays (W-12); A with nobody marked says how to mark. In round 5 the rows are the order of
    the end of the round (most VP first, :meth:`powers`), «played» beside those that have played
    their one there, and the powers marked are either interrupting a player (rule 7.4.2: the
    fewest VP plays) or playing at the end of the round (rule 7.4.5: each plays one, most VP
    first): A asks which (:class:`DesperateWhen`), one power marked too: a card played at the end
    of round 5 is that power's one there."""

    def __init__(self) -> None:
        super().__init__()
        self.marked: set[str] = set()

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Desperate Times")

    @staticmethod
    def powers(ctx: Ctx) -> list[str]:
        """The powers in their rows: in round 5 most VP first, ties by W-11 order (``standings``), the
        order in which each may play one card at the end of the round (rule 7.4.5), which the end
        of the turn's question no longer lists; in the card order otherwise."""
        view = view_of(ctx)
        return list(view["standings"]) if view["round"] == game_length()[1] else list(view["factions"])

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        played = view.get("desperate_end", [])          # their one at the end of round 5 (rule 7.4.5)
        return [Item(f"{'✓' if f in self.marked else '·'} {short(f)}", None,
                     _("played") if f in played else
                     ngettext("{} card", "{} cards", view["desperate"][f]).format(view["desperate"][f]), ident=f)
                for f in self.powers(ctx)]

    def key(self, key: str, ctx: Ctx) -> None:
        powers = self.powers(ctx)
        what = intent("marks", key)
        if what is Intent.TOGGLE:
            self.marked ^= {powers[min(self.cursor, len(powers) - 1)]}
        elif what is Intent.GO:
            self._decide(ctx, powers)
        else:
            super().key(key, ctx)

    def _decide(self, ctx: Ctx, powers: list[str]) -> None:
        if not self.marked:
            ctx.notify(Msg("Mark who wants to play (press)."))
            return
        wanting = [f for f in powers if f in self.marked]
        if view_of(ctx)["round"] == game_length()[1]:
            ctx.push(remade(lambda: DesperateWhen(wanting)))     # only the table knows which moment it is
            return
        play_desperate(ctx, wanting, None)


class DesperateWhen(Follows, ListScreen):
    """Round 5, powers marked on the Desperate Times screen: when they play (W-12). The end of
    round 5 first (rule 7.4.5: each plays one, most VP first; the likelier moment for several),
    then an interruption (rule 7.4.2: the fewest VP plays, the others keep theirs; one power marked:
    it interrupts a player). B goes back to the marks. A question before a step: it goes once a
    step is played or taken back meanwhile (round 5 undone: no end of round 5 to play at)."""

    wrap_rows = True
    now_only = True

    def __init__(self, wanting: list[str]) -> None:
        super().__init__()
        self.wanting = wanting

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Played when?")

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(_("End of round 5: each plays one"), partial(play_desperate, wanting=self.wanting, end=True),
                     ident="end"),
                Item(_("Interrupting: the fewest VP plays") if len(self.wanting) > 1 else _("Interrupting a player"),
                     partial(play_desperate, wanting=self.wanting, end=False), ident="interrupt")]


def play_desperate(ctx: Ctx, wanting: list[str], end: bool | None) -> None:
    """``desperate`` for the powers marked (W-12): ``end`` whether at the end of round 5, asked in
    round 5 (None: another moment). Back to the home, saying who played."""
    response = run_line(ctx, act.desperate(wanting, end))
    if response is None:
        return
    ctx.prune(lambda s: isinstance(s, DesperateScreen))      # the marks under the question, if asked
    ctx.pop()                                                 # the question, or the marks
    if response["end"] and len(response["played"]) > 1:
        ctx.notify(Msg("Each played a card, most VP first: {}.", Msg.join([power_named(p) for p in response["played"]])))
        return
    kept = response["kept"]
    ctx.notify(Sentences(Msg("{} played the card.", power_named(response["plays"])),
                         Msg("{} kept theirs.", Msg.join([power_named(p) for p in kept])) if kept else ""))


def unrest_form(ctx: Ctx) -> NumberForm:
    """Carthaginian unrest (W-13): set the level; A applies and shows the effects."""
    level = int(view_of(ctx)["unrest"]["level"])

    def go(c: Ctx, v: dict[str, int]) -> None:
        if v["level"] == int(view_of(c)["unrest"]["level"]):     # as it is now (the serial link may have moved it)
            c.pop()                                   # no change: not an undo step
            return
        response = run_line(c, act.unrest(v["level"]))
        if response is not None:
            c.pop()
            c.notify(Msg("Unrest {}: hand size {}, VP {}.", response["unrest"],
                         signed(response["hand_size_modifier"]), signed(response["vp_modifier"])))

    return NumberForm(N_("Carthage unrest"), [Field("level", N_("Unrest"), level, 0, 20)], go,
                      status=lambda c, v: _("hand {}, VP {}").format(signed(-(v["level"] // 2)), signed(-(v["level"] // 3))))


class VictoryScreen(ListScreen):
    """An automatic victory (W-11): the powers with the VP the game counts; A on the one whose VP
    reached the figure printed on the map for this turn asks, then ends the game (``victory``)."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Automatic victory")

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        return [Item(short(f), partial(self._ask, power=f), _("{} VP").format(counted_vp(view, f)), ident=f)
                for f in view["standings"]]

    @staticmethod
    def _ask(ctx: Ctx, power: str) -> None:
        turn = view_of(ctx)["turn"]

        def go(c: Ctx) -> None:
            response = run_line(c, act.victory(power))
            if response is not None:
                c.pop()                                   # this list: the home shows the game over
                c.notify(Msg("Game over: {} won.", power_named(response["winner"])))

        # (three rows in every language: ru/uk's title says the game ends, «Завершить игру?»)
        ctx.push(remade(lambda: play.Asked(GAMES, _("Automatic victory?"), _(
            "{} reached the map's VP for turn {}? The game ends.").format(short(power), turn), go)))
