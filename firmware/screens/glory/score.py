"""For the Glory of Rome: the final score — the score pad the session does not know (legions,
goods sets, Pantheon parts, objectives, denarii), filled row by row round the table and journaled as
typed, then the ranking and each player's column (G-8..G-16)."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import cast

from PIL import Image, ImageDraw

from engine import actions as act_common
from engine.errors import LegatusError
from engine.glory import actions as act
from engine.glory.console import sheet_request
from engine.glory.replies import ScoreReply
from engine.glory.scoring import score
from engine.glory.sheet import SessionFacts, parse_sheet
from engine.glory.views import GloryGameView
from engine.glory.rounds import seat_layout
from engine.text import N_
from firmware.screens.glory.text import Msg, _, ngettext
from firmware.screens import base, play
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.glory import padlimits as limits
from firmware.screens.glory.record import as_kept
from firmware.screens.glory.words import GAMES, Follows, run_line, view_of
from firmware.screens.widgets import Intent, Item, ListScreen, Scroll, WrappedListScreen, intent, scroll_bar
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
# The Emperor's solo also counts the objectives done (G-17: «Завершить не менее 2 заданий»), last.
# It has no silver or bronze Pantheon row: it is set up as a game of 2 («Подготовьте все так, как
# будто вы играете партию на 2-х игроков»), whose box keeps a gold and a bronze foundation and a
# gold and a silver temple, and the lone player is the first to finish each level, so takes gold
# (G-12: «Первый игрок … возьмет золотую часть», engine/glory/sheet.py common_parts_most(1)): the
# two rows could only hold 0 (two presses of A, and a push on them was refused).
SOLO_ROWS: tuple[tuple[str, str], ...] = (tuple(r for r in SHEET_ROWS if r[0] not in ("silver", "bronze"))
                                          + (("done", N_("Objectives done")),))


def sheet_rows(ctx: Ctx) -> tuple[tuple[str, str], ...]:
    """The pad's rows for this game: the solo's have the objectives done too."""
    return SOLO_ROWS if len(view_of(ctx)["players"]) == 1 else SHEET_ROWS


SHEET_MAX = limits.SHEET_MAX    # the engine's limits, read from the data in one place (engine/glory/console.py)


# The seats round the device (engine/glory/rounds.py numbers them 0-3 clockwise): seat 0 at the
# top, then clockwise; the joystick's way to each seat is its key (docs/keys.md, place "seats").
SEATS = (Intent.SEAT_TOP, Intent.SEAT_RIGHT, Intent.SEAT_BOTTOM, Intent.SEAT_LEFT)
SIDE = 8              # columns of a side seat's name (the left and the right seat)


def _side_label(draw: ImageDraw.ImageDraw, name: str, seat: int) -> None:
    """A side seat's name with its way (``◀ Ross``, ``Henry ▶``) on the row under the top seat, in
    :data:`SIDE` columns at the panel's edge: a name of ``SIDE - 1`` letters goes whole beside the
    arrow, 2 pixels from it instead of a space («◀ Зелёный»: a seat's colour nobody named is the
    device's word, never cut; it read «◀ Зелен…»); a longer typed name is cut."""
    y = base.row_y(1)
    if len(name) <= SIDE - 2:
        side = f"{name} ▶" if seat == 1 else f"◀ {name}"
        base.put(draw, base.W - len(side) * base.CHAR_W if seat == 1 else 0, y, side)   # flush: room for "+10"
        return
    shown = base.clip_name(name, SIDE - 1)
    width = len(shown) * base.CHAR_W
    if seat == 1:
        base.put(draw, base.W - base.CHAR_W, y, "▶")
        base.put(draw, base.W - base.CHAR_W - 2 - width, y, shown)
    else:
        base.put(draw, 0, y, "◀")
        base.put(draw, base.CHAR_W + 2, y, shown)


class SheetPad:
    """One row of the score pad for every player at once, the device in the middle of the table:
    each player has a seat round it, as the game seats them — player 1 at the top, 2 on the right,
    3 at the bottom, 4 on the left; of two players the second sits opposite, at the bottom — and
    the joystick pushed towards a player adds the step to that player's figure
    (a tally: three legions are three pushes, no cursor to walk). press: the step, +1 → +5 → +10,
    shown in the middle and kept from row to row; a push beyond the row's most stops there (5
    own-colour Pantheon parts on a finished foundation: +5 once). Hold A (or KEY3): − instead of + (to lower a figure typed
    before; back to + on the next row). A: the next row (after the last: the scores); B: back to
    the list of rows; hold B: undo, as everywhere (every change is a ``sheet`` line, journaled as
    it is typed)."""

    key_place = "seats"
    second_action = True           # hold A (KEY3): + turns into −

    def __init__(self, row: int = 0, on_back: Callable[[int], None] | None = None,
                 rows: tuple[tuple[str, str], ...] = SHEET_ROWS) -> None:
        self.row = row
        self.rows = rows                           # SHEET_ROWS, or the solo's SOLO_ROWS
        self.on_back = on_back                     # told the row B leaves from (the list's cursor)
        self.step = 0                              # index into STEPS
        self.sign = 1                              # +1, or -1 after hold A
        self.last: int | None = None               # the seat changed last (drawn inverted)

    @property
    def entry(self) -> str:
        return self.rows[self.row][0]

    @property
    def title(self) -> str:
        return _(self.rows[self.row][1])

    def most(self, ctx: Ctx, player: str) -> int:
        """The most this row can hold for ``player`` (firmware/screens/glory/padlimits.py)."""
        return limits.most(view_of(ctx), self.entry, player)

    def figure(self, ctx: Ctx, player: str) -> int:
        """``player``'s figure on this row as the session holds it (0 when none is typed)."""
        return view_of(ctx).get("sheet", {}).get(player, {}).get(self.entry, 0)

    @property
    def shown_step(self) -> str:
        """The step as the middle of the pad shows it: ``+5``, ``−1``."""
        return ("+" if self.sign > 0 else "−") + str(STEPS[self.step])

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title)
        cells: list[tuple[int, int, int, str]] = []        # (seat, x, y, text) of each seat's figure
        for seat, name in self.seated(ctx).items():
            n = str(self.figure(ctx, name))
            if seat in (0, 2):                              # top and bottom: "▲ Jack 3", centred
                arrow = "▲" if seat == 0 else "▼"
                label = f"{arrow} {base.clip_name(name, base.COLS - 3 - len(n))} "
                x = (base.W - (len(label) + len(n)) * base.CHAR_W) // 2
                y = base.row_y(0 if seat == 0 else 3)
                base.put(draw, x, y, label)
                cells.append((seat, x + len(label) * base.CHAR_W, y, n))
            else:                                           # the sides: the name, the figure under it
                _side_label(draw, name, seat)
                nx = base.W - len(n) * base.CHAR_W - 2 if seat == 1 else 2
                cells.append((seat, nx, base.row_y(2), n))
        for seat, x, y, n in cells:
            base.text(draw, x, y, n, invert=seat == self.last)
        step = self.shown_step
        width = len(step) * base.advance("large")
        base.put(draw, (base.W - width) // 2, base.row_y(1) + 4, step, kind="large")
        return img

    @staticmethod
    def seated(ctx: Ctx) -> dict[int, str]:
        """seat -> player, as the game seats them (engine/glory/rounds.py): players in clockwise
        order from seat 0, two players opposite each other (seats 0 and 2)."""
        players = view_of(ctx)["players"]
        return dict(zip(seat_layout(len(players)), players))

    def _change(self, ctx: Ctx, seat: int) -> None:
        """The step (signed) added to the figure of the player on ``seat``, kept within 0 and the
        row's most (a push past the most says so and changes nothing); an empty seat does
        nothing, but in the solo every way is the one player's."""
        seated = self.seated(ctx)
        # the Emperor's solo (G-17): one player, every way is theirs (three of four did nothing)
        player = next(iter(seated.values())) if len(seated) == 1 else seated.get(seat)
        if player is None:                                  # nobody sits there
            return
        now, most = self.figure(ctx, player), self.most(ctx, player)
        after = max(0, min(most, now + self.sign * STEPS[self.step]))
        self.last = seat
        if after <= now and self.sign > 0:                  # (a + never lowers a figure typed before)
            ctx.notify(limits.past_most(view_of(ctx), self.entry, player))
            return
        if after != now:                                    # a no-op is not an undo step
            if run_line(ctx, act.sheet(player, self.entry, after)) is not None and after < now + self.sign * STEPS[self.step]:
                # +5 stopped at 2 (G-12: no temple without a common part): why, at once (a push more said it)
                ctx.notify(limits.past_most(view_of(ctx), self.entry, player))

    def go(self, ctx: Ctx) -> None:
        self.last, self.sign = None, 1
        if self.row + 1 < len(self.rows):
            self.row += 1                                   # the step as it was: the next row
        else:
            ctx.pop()
            show_scores(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent(self.key_place, key)
        if what is Intent.BACK:
            ctx.pop()
            if self.on_back is not None:
                self.on_back(self.row)
        elif what is Intent.GO:
            self.go(ctx)
        elif what is Intent.STEP_UP:
            self.step = (self.step + 1) % len(STEPS)
        elif what is Intent.SECOND:                       # hold A: + ↔ −
            self.sign = -self.sign
        elif what in SEATS:
            self._change(ctx, SEATS.index(what))


def show_scores(ctx: Ctx) -> None:
    view = view_of(ctx)
    if view.get("ended"):           # the session answers no more score: the final one, from the game
        try:
            final = final_score(view)
        except LegatusError as e:   # a pad left half filled (G-12: a common part before its 2), as `score` says it
            ctx.notify(e.message)
            return
        shown, note = as_kept(final, ctx.game_record("game"))
        ctx.push(ScoreResult(shown))
        if note is not None:
            ctx.notify(note)
        return
    response = run_line(ctx, act.score_sheet())
    if response is not None:
        ctx.push(ScoreResult(response))


def final_score(view: GloryGameView) -> ScoreReply:
    """The score of an ended game as History keeps it (the session's ``score sheet`` of its last
    state: the pad's figures, the fame track, the medals, the Senate column; G-8..G-16)."""
    facts = SessionFacts(players=list(view["players"]), fame=dict(view["fame"]), medals=dict(view["medals"]),
                         senate=list(view["senate"]))
    return cast(ScoreReply, score(parse_sheet(sheet_request(dict(view)), facts)))


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
        ended = bool(view.get("ended"))     # the score is final: its figures are read, not typed
        for i, (key, label) in enumerate(sheet_rows(ctx)):
            figures = " ".join(str(sheets.get(p, {}).get(key, 0)) for p in view["players"])
            out.append(Item(_(label), None if ended else partial(self.open_row, row=i), figures))
        out.append(Item(_("Show scores"), show_scores))
        return out

    def open_row(self, ctx: Ctx, row: int) -> None:
        """The pad on ``row``, every player on it (B comes back here, on that row)."""
        ctx.push(SheetPad(row, self._back_at, sheet_rows(ctx)))

    def _back_at(self, row: int) -> None:
        self.cursor = row
        self.top = min(self.top, row)


CATEGORIES = (("track", N_("Fame track")), ("military", N_("Military")), ("politics", N_("Politics")),
              ("trade", N_("Trade")), ("religion", N_("Religion")), ("objectives", N_("Objectives")),
              ("denarii", N_("Denarii")), ("total", N_("Total")))


# the rulebook's marks (G-20): «100+», «61+», «12+»; the designers' 113 is reached at 113
ACHIEVEMENTS = {
    "fame_100": N_("100+ fame"), "all_medals": N_("All 5 medals"), "jewelry_sets_2": N_("2 jewelry sets"),
    "track_61": N_("61+ on the track"), "jewelry_sets_3": N_("3 jewelry sets"),
    "first_on_all_battlefields": N_("1st on all fields"), "senate_12": N_("12+ Senate points"),
    "golden_pantheon": N_("Golden Pantheon"), "objectives_4": N_("4 objectives"),
    "no_enmity": N_("No enmity"), "designers_113": N_("Record 113+ fame"),
}


SOLO_RANKS = {"child of Jupiter": N_("Child of Jupiter"), "Emperor": N_("Emperor"), "Praetor": N_("Praetor")}

# the Emperor's solo goals in the rulebook's order (G-17: «Набрать 51 очко славы на шкале славы …
# Завершить не менее 2 заданий»), each a row of the player's column, ✓ when met
SOLO_GOALS = {
    "fame_51": N_("Track fame 51+"), "medals_3": N_("Medals 3+"), "battlefields_2": N_("Fields conquered 2+"),
    "senate_4": N_("Senate votes 4+"), "sets_2": N_("Goods sets 2+"), "pantheon": N_("Pantheon built"),
    "objectives_2": N_("Objectives done 2+"),
}


class ScoreResult(Follows, ListScreen):
    """The final ranking: place, name, total; winners marked ``*`` (G-15). A: a player's detail.
    The score as it is now: it goes once a step is played or taken back since (a correction)."""

    now_only = True

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
        solo = self.result.get("solo")
        items = []
        for i, name in enumerate(ranking):
            # the Emperor's solo has no ranking (G-17: «вы ни с кем не соревнуетесь»): no place and no
            # winner's mark (it said «1 *Аня»), its title and goals said below (footer, status)
            said = (base.clip_name(name, 15) if solo is not None else
                    f"{places[name]} {'*' if name in winners else ' '}{base.clip_name(name, 12)}")
            items.append(Item(said, partial(self._detail, index=i), str(scores[name]["total"]), ident=name))
        view = ctx.view()
        if view is not None and view.get("finished") and not view.get("ended"):
            items.append(Item(_("The score is final"), self._final, ident="final"))
        return items

    @staticmethod
    def _final(ctx: Ctx) -> None:
        """Until now fame, medals and the pad could be corrected (History follows the newest score);
        this ends the game: History keeps this score for good, and the seed is shown."""
        def yes(c: Ctx) -> None:
            # the score shown asked again (no step since, or the ranking would be gone): History's
            # record is the one on the panel, not a question the serial link asked meanwhile
            if run_line(c, act.score_sheet()) is None:
                return
            response = run_line(c, act_common.reveal())
            if response is not None:
                seed = response.get("seed")
                c.notify(Msg("The score is final. The seed of the draws: {}.", seed) if seed is not None
                         else Msg("The score is final."))
        # it goes once a step is played or taken back meanwhile (a correction over the serial link):
        # A would end the game on the score shown before it (play.Asked)
        ctx.push(remade(lambda: play.Asked(GAMES, _("Final?"), _("The score is final: no more corrections, and History keeps it."), yes)))

    def footer(self, ctx: Ctx) -> str:
        solo = self.result.get("solo")
        if not solo:
            # G-15: «В случае ничьей по очкам побеждает игрок с наибольшим количеством денариев»:
            # equal totals on different places were told apart by the denarii, not by the screen
            scores, places = self.result["scores"], self.result["places"]
            split = any(scores[a]["total"] == scores[b]["total"] and places[a] != places[b]
                        for a in scores for b in scores)
            return _("Tie broken by denarii") if split else ""
        rank = _(SOLO_RANKS.get(solo["rank"], solo["rank"])) if solo["rank"] else _("no rank")
        # one sentence, «Претор: 4 задачи» (it put two words side by side, «Претор 4 задачи», «без
        # звания 1 задача»); the rank cut where the row is short
        said = ngettext("{rank}: {n} goal", "{rank}: {n} goals", solo["done"])
        room = base.COLS - len(said.format(rank="", n=solo["done"]))
        return said.format(rank=base.clip(rank, room), n=solo["done"])

    def _detail(self, ctx: Ctx, index: int) -> None:
        ctx.push(ScoreDetail(self.result, index))


class ScoreDetail(Follows):
    """One player's score pad column: in the Emperor's solo first its 7 goals, ✓ when met (G-17), then
    the seven categories, the total and the achievements;
    up/down scroll, left/right: the previous/next player, A or B: back to the ranking. It goes
    with the ranking (a step played or taken back since)."""

    now_only = True

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
        out: list[Item] = []
        solo = self.result.get("solo")
        if solo is not None:          # first, which of the 7 goals the rank counts (G-17), as the table checks them
            out.extend(Item("✓" if solo["goals"].get(g) else "·", None, _(label), ident="goal")
                       for g, label in SOLO_GOALS.items())
        out.extend(Item(_(label), None, str(row[k])) for k, label in CATEGORIES)
        # G-15 after G-14: a tie on fame goes to the most denarii still held, those exchanged for
        # fame being back in the supply; beside a total another player has too, they are shown, so
        # «Ничья: по денариям» can be checked by hand (8 coins typed, 2 fame, none left)
        left = self.result.get("denarii_left", {})
        if name in left and any(o != name and s["total"] == row["total"] for o, s in self.result["scores"].items()):
            out.append(Item(_("Denarii left"), None, str(left[name])))
        for a in self.result.get("achievements", {}).get(name, []):
            out.append(Item(_("Achievement"), None, _(ACHIEVEMENTS.get(a, a))))
        return out

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        name = self.result["ranking"][self.index]
        solo = self.result.get("solo")
        # the solo's goals met, as its ranking's status says them, in place of a place (G-17)
        place = f"{solo['done']}/7" if solo is not None else _("place {}").format(self.result["places"][name])
        base.title_bar(draw, base.clip_name(name, base.COLS - len(place) - 1), place)
        rows = self.rows()
        top = self.scroll.fit(len(rows), base.ROWS)
        for i, item in enumerate(rows[top:top + base.ROWS]):
            y = base.row_y(i)
            if item.label == _("Achievement"):
                base.put(draw, 1, y, base.clip("✓ " + item.value, base.COLS - 1))
                continue
            if item.ident == "goal":          # «✓Слава на шкале 51+», «·Голоса в Сенате 4+»: a whole row
                base.put(draw, 0, y, base.clip(item.label + item.value, base.COLS))
                continue
            base.put(draw, 1, y, item.label)
            base.put(draw, base.W - 4 - len(item.value) * base.CHAR_W, y, item.value)
        scroll_bar(draw, top, base.ROWS, len(rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        n = len(self.result["ranking"])
        what = intent("pages", key)
        if self.scroll.move(what, len(self.rows()), base.ROWS) or self.scroll.go_on(what, len(self.rows()), base.ROWS):
            return                                    # A with rows below: the next page (docs/keys.md)
        if what in (Intent.LEFTWARD, Intent.RIGHTWARD):
            self.index = (self.index + (1 if what is Intent.RIGHTWARD else -1)) % n
            self.scroll.top = 0
        elif what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
