"""For the Glory of Rome: the final score — the score pad the session does not know (legions,
goods sets, Pantheon parts, objectives, denarii), filled row by row round the table and journaled as
typed, then the ranking and each player's column (G-8..G-16)."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PIL import Image

from engine import actions as act_common
from engine.glory import actions as act
from engine.glory.console import GOODS, PANTHEON_COMMON, SHEET_LIMITS
from engine.glory.replies import ScoreReply
from engine.text import N_
from firmware.screens.glory.text import _, ngettext
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.glory.words import run_line, view_of
from firmware.screens.widgets import ConfirmScreen, Intent, Item, ListScreen, Scroll, WrappedListScreen, figure, intent, scroll_bar
from firmware.screens.widgets.figure import STEPPED
from firmware.screens.widgets.listing import STEPS

# -- final score ---------------------------------------------------------------------------------
# What the session does not know, one row of the score pad each (key, label), in the pad's order:
# military (legions on each battlefield), trade (goods sets), religion (Pantheon parts),
# objectives, denarii. The fame track, the medals and the Senate column come from the game being
# tracked. Every change is a ``sheet`` console line: journaled as it is typed, so a B too many or
# a power cut loses nothing.
SHEET_ROWS: tuple[tuple[str, str], ...] = (
    ("epirus", N_("Legions: Epirus")), ("macedonia", N_("Legions: Macedonia")),
    ("thrace", N_("Legions: Thrace")),
    ("tools", N_("Sets: tools")), ("weapons", N_("Sets: weapons")), ("clothing", N_("Sets: clothing")),
    ("jewelry", N_("Sets: jewelry")),
    ("gold", N_("Pantheon: gold")), ("silver", N_("Pantheon: silver")), ("bronze", N_("Pantheon: bronze")),
    ("own", N_("Pantheon: own")),
    ("objectives", N_("Objectives")), ("denarii", N_("Denarii")),
)


SHEET_MAX = SHEET_LIMITS       # the engine's limits, read from the data in one place (engine/glory/console.py)


DIAL_MAX = 7          # a row whose figure is at most this goes round at ±1 (0 ↔ the most)


def stepped(entry: str) -> bool:
    """Whether the pad's row ``entry`` has steps (±1, ±5, ±10): as in every form of figures, a
    figure whose range is wider than :data:`STEPPED` (objectives, denarii). A short row (legions,
    goods sets, Pantheon parts) is plain ±1 and goes round: its press is A's (the next row)."""
    return SHEET_MAX[entry] > STEPPED


class SheetPad(ListScreen):
    """One row of the score pad for every player at once, as the paper pad is filled round the
    table: the title names the row, the players below with their figures. up/down: the player
    (down from the last player goes on to the next row's first, up from the first back to the row
    before's last: the pad is one path round the table, row after row); left/right: −/+ 1, or the
    step on the rows with steps (left is not "back" on a figure). A short row — legions, sets,
    Pantheon — is plain ±1 and goes round, so left from 0 gives the most (5 own-colour parts in one
    press), and its press is A's. The wide rows (objectives, denarii) have steps, shown where the
    figure is (``±5 ‹12›``): press changes it (±1, ±5, ±10), and it is kept from player to player
    and from row to row (a short row between them leaves it as it was). A: the next row, the cursor
    on the same player (after the last row: the scores); B: back to the list of rows (nothing is
    lost: every change is already in the session)."""

    def __init__(self, row: int = 0, on_back: Callable[[int], None] | None = None) -> None:
        super().__init__()
        self.row = row
        self.on_back = on_back                     # told the row B leaves from (the list's cursor)

    @property
    def entry(self) -> str:
        return SHEET_ROWS[self.row][0]

    def most(self, ctx: Ctx, player: str) -> int:
        """The most this row can hold for ``player``: a Pantheon has at most 2 common parts
        (gold, silver and bronze together, G-12) and a player at most 3 goods sets (G-11), so
        what the player's other rows hold is taken off."""
        figures = view_of(ctx).get("sheet", {}).get(player, {})
        limit = SHEET_MAX[self.entry]
        for group in (PANTHEON_COMMON, GOODS):
            total = SHEET_MAX[group[0]]                    # the group's limit: every row of it has it
            if self.entry in group:
                limit = min(limit, total - sum(figures.get(k, 0) for k in group if k != self.entry))
        return max(0, limit)

    @property
    def title(self) -> str:  # type: ignore[override]
        return _(SHEET_ROWS[self.row][1])

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        sheets = view.get("sheet", {})
        out = []
        steps = stepped(self.entry)
        for i, p in enumerate(view["players"]):
            n = sheets.get(p, {}).get(self.entry, 0)
            shown = figure(n, STEPS[self.step] if steps else None) if i == self.cursor else str(n)
            out.append(Item(p, None, shown, ident=p, adjust=partial(self._change, player=p), steps=steps))
        return out

    def _change(self, ctx: Ctx, by: int, player: str) -> None:
        now = view_of(ctx).get("sheet", {}).get(player, {}).get(self.entry, 0)
        most = self.most(ctx, player)
        if most == 0 and now == 0:
            ctx.notify(_("{}: at most {} common Pantheon parts.").format(player, SHEET_MAX["gold"])
                       if self.entry in PANTHEON_COMMON else
                       _("{}: at most {} goods sets count.").format(player, SHEET_MAX["tools"]))
            return
        if SHEET_MAX[self.entry] <= DIAL_MAX and abs(by) == 1:   # (a short row: always ±1)
            after = (now + by) % (most + 1)     # a short row goes round: left from 0 is the most
        else:
            after = max(0, min(most, now + by))
        if after != now:                          # a no-op is not an undo step
            run_line(ctx, act.sheet(player, self.entry, after))

    def go(self, ctx: Ctx) -> None:
        if self.row + 1 < len(SHEET_ROWS):
            self.row += 1                             # the cursor stays on its player (and the step
        else:                                         # as it was): the next row is filled from there
            ctx.pop()
            show_scores(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("figure", key)
        if what is Intent.BACK:
            ctx.pop()
            if self.on_back is not None:
                self.on_back(self.row)
            return
        last = len(view_of(ctx)["players"]) - 1
        if what is Intent.NEXT and self.cursor == last:          # on to the next row's first player
            self.go(ctx)
            self.cursor = self._mark = 0
            self.current = ""
            return
        if what is Intent.PREV and self.cursor == 0 and self.row > 0:   # back to the row before's last
            self.row -= 1
            self.cursor = self._mark = last
            self.current = ""
            return
        super().key(key, ctx)


def show_scores(ctx: Ctx) -> None:
    response = run_line(ctx, act.score_sheet())
    if response is not None:
        ctx.push(ScoreResult(response))


def open_score(ctx: Ctx) -> None:
    """The home's "Final score": the list of the pad's rows; after round 9, while no figure is typed
    yet (and the score is not final), straight on to the pad's first row (the list is behind it:
    B), as the table fills the paper pad from its first row."""
    entry = ScoreEntry()
    ctx.push(entry)
    view = view_of(ctx)
    if view["finished"] and not view.get("ended") and not any(view.get("sheet", {}).values()):
        entry.open_row(ctx, 0)


class ScoreEntry(WrappedListScreen):
    """Final score: the rows of the score pad the session does not know (legions on the
    battlefields, goods sets, Pantheon parts, objectives, denarii), each with every player's
    figure, then the scores. A opens a row for all the players (A there walks on to the next
    row). The session adds the fame track, the medals and the Senate column."""

    title = Said(N_("Final score"), _)

    def __init__(self, ctx: Ctx | None = None) -> None:
        super().__init__()

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        sheets = view.get("sheet", {})
        out = []
        for i, (key, label) in enumerate(SHEET_ROWS):
            figures = " ".join(str(sheets.get(p, {}).get(key, 0)) for p in view["players"])
            out.append(Item(_(label), partial(self.open_row, row=i), figures))
        out.append(Item(_("Show scores"), show_scores))
        return out

    def open_row(self, ctx: Ctx, row: int) -> None:
        """The pad on ``row``, every player on it (B comes back here, on that row)."""
        ctx.push(SheetPad(row, self._back_at))

    def _back_at(self, row: int) -> None:
        self.cursor = row
        self.top = min(self.top, row)


CATEGORIES = (("track", N_("Fame track")), ("military", N_("Military")), ("politics", N_("Politics")),
              ("trade", N_("Trade")), ("religion", N_("Religion")), ("objectives", N_("Objectives")),
              ("denarii", N_("Denarii")), ("total", N_("Total")))


ACHIEVEMENTS = {
    "fame_100": N_("100 fame"), "all_medals": N_("All 5 medals"), "jewelry_sets_2": N_("2 jewelry sets"),
    "track_61": N_("61 on the track"), "jewelry_sets_3": N_("3 jewelry sets"),
    "first_on_all_battlefields": N_("1st on all fields"), "senate_12": N_("12 Senate points"),
    "golden_pantheon": N_("Golden Pantheon"), "objectives_4": N_("4 objectives"),
    "no_enmity": N_("No enmity"), "designers_113": N_("Beat 113 fame"),
}


SOLO_RANKS = {"child of Jupiter": N_("Child of Jupiter"), "Emperor": N_("Emperor"), "Praetor": N_("Praetor")}


class ScoreResult(ListScreen):
    """The final ranking: place, name, total; winners marked ``*`` (G-15). A: a player's detail."""

    def __init__(self, result: ScoreReply) -> None:
        super().__init__()
        self.result = result

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Final score")

    def status(self, ctx: Ctx) -> str:
        solo = self.result.get("solo")
        return f"{solo['done']}/7" if solo else (_("tie") if len(self.result["winners"]) > 1 else "")

    def items(self, ctx: Ctx) -> list[Item]:
        scores, ranking, winners = self.result["scores"], self.result["ranking"], self.result["winners"]
        places = self.result["places"]
        items = []
        for i, name in enumerate(ranking):
            mark = "*" if name in winners else " "
            items.append(Item(f"{places[name]} {mark}{base.clip_name(name, 12)}", partial(self._detail, index=i),
                              str(scores[name]["total"]), ident=name))
        view = ctx.view()
        if view is not None and view.get("finished") and not view.get("ended"):
            items.append(Item(_("The score is final"), self._final, ident="final"))
        return items

    @staticmethod
    def _final(ctx: Ctx) -> None:
        """Until now fame, medals and the pad could be corrected (History follows the newest score);
        this ends the game: History keeps this score for good, and the seed is shown."""
        def yes(c: Ctx) -> None:
            response = run_line(c, act_common.reveal())
            if response is not None:
                seed = response.get("seed")
                c.notify(_("The score is final. The seed of the draws: {}.").format(seed) if seed is not None
                         else _("The score is final."))
        ctx.push(ConfirmScreen(_("Final?"), _("The score is final: no more corrections, and History keeps it."), yes))

    def footer(self, ctx: Ctx) -> str:
        solo = self.result.get("solo")
        if not solo:
            return ""
        rank = _(SOLO_RANKS.get(solo["rank"], solo["rank"])) if solo["rank"] else _("no rank")
        goals = ngettext("{} goal", "{} goals", solo["done"]).format(solo["done"])
        return f"{base.clip(rank, base.COLS - len(goals) - 2)} {goals}"

    def _detail(self, ctx: Ctx, index: int) -> None:
        ctx.push(ScoreDetail(self.result, index))


class ScoreDetail:
    """One player's score pad column: the seven categories, the total and the achievements;
    up/down scroll, left/right: the previous/next player, A or B: back to the ranking."""

    def __init__(self, result: ScoreReply, index: int) -> None:
        self.result = result
        self.index = index
        self.scroll = Scroll()

    @property
    def title(self) -> str:
        return _("Score detail")

    def rows(self) -> list[Item]:
        name = self.result["ranking"][self.index]
        row = self.result["scores"][name]
        out = [Item(_(label), None, str(row[k])) for k, label in CATEGORIES]
        for a in self.result.get("achievements", {}).get(name, []):
            out.append(Item(_("Achievement"), None, _(ACHIEVEMENTS.get(a, a))))
        return out

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        name = self.result["ranking"][self.index]
        place = _("place {}").format(self.result["places"][name])
        base.title_bar(draw, base.clip_name(name, base.COLS - len(place) - 1), place)
        rows = self.rows()
        top = self.scroll.fit(len(rows), base.ROWS)
        for i, item in enumerate(rows[top:top + base.ROWS]):
            y = base.row_y(i)
            if item.label == _("Achievement"):
                base.put(draw, 1, y, base.clip("✓ " + item.value, base.COLS - 1))
                continue
            base.put(draw, 1, y, item.label)
            base.put(draw, base.W - 4 - len(item.value) * base.CHAR_W, y, item.value)
        scroll_bar(draw, top, base.ROWS, len(rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        n = len(self.result["ranking"])
        what = intent("pages", key)
        if self.scroll.move(what, len(self.rows()), base.ROWS):
            return
        if what in (Intent.LEFTWARD, Intent.RIGHTWARD):
            self.index = (self.index + (1 if what is Intent.RIGHTWARD else -1)) % n
            self.scroll.top = 0
        elif what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
