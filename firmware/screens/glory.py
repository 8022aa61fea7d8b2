"""«Во славу Рима» / For the Glory of Rome screens: fame track, Senate column, events, income,
medals, random picks and the final score (entry and result).

Every change goes through a console line (``fame``, ``vote``, ``event`` …), so it is journaled
and undoable with a long B like any other step.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from engine.glory.rounds import ARROWS, rotation_of
from engine.glory.tables import tables
from engine.text import N_
from firmware.i18n import _, ngettext
from firmware.screens import base, play
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import (ConfirmScreen, Dial, Field, Intent, Item, ListScreen, NumberForm, Scroll, TextScreen,
                                      WrappedListScreen, figure, intent, on_off, scroll_bar)
from firmware.screens.widgets.listing import STEPS

SENATE_VALUES = (1, 2, 3, 5, 6)      # G-10 default, bottom -> top
BATTLEFIELDS = (("Epirus", 2), ("Macedonia", 3), ("Thrace", 4))
MEDALS = ("warrior", "politician", "merchant", "priest", "farmer")
MEDAL_NAMES = {"warrior": N_("Warrior"), "politician": N_("Politician"), "merchant": N_("Merchant"),
               "priest": N_("Priest"), "farmer": N_("Farmer")}
BATTLEFIELD_NAMES = {"Epirus": N_("Epirus"), "Macedonia": N_("Macedonia"), "Thrace": N_("Thrace")}


def medal_name(medal: str) -> str:
    """The medal's name in the current language (as the rulebook names its holder)."""
    return _(MEDAL_NAMES.get(medal, medal))


def event_label(card: dict[str, Any]) -> str:
    """An event card's name: the placeholder names of the data are said in the current language;
    a name edited in to match the printed card is shown as it is."""
    label = str(card.get("label", ""))
    m = re.fullmatch(r"(Event|Harsh Times) (\d+)", label)
    if m is None:
        return label
    return (_("Event {}") if m.group(1) == "Event" else _("Harsh Times {}")).format(m.group(2))


def open_game(ctx: Ctx) -> None:
    """Continue the current Glory session, or set up a new one."""
    play.continue_or_setup(ctx, ("glory",), GloryHome, SetupScreen)


def _view(ctx: Ctx) -> dict[str, Any]:
    return play.game_view(ctx, ("glory",), "Glory of Rome")


_run = play.run_or_notify


def _milestone_note(response: dict[str, Any]) -> str:
    events = response.get("milestone_events") or []
    return " ".join(_("{} +1 supporter (milestone {}).").format(m["player"], m["milestone"]) for m in events)


# -- setup and home ----------------------------------------------------------------------------
SEAT_NAMES = (N_("Red"), N_("Yellow"), N_("Blue"), N_("Green"))


class SetupScreen(NumberForm):
    """New game: player count, variants, then the players' names (by default their colour in the
    current language). left/right change a number; A (or right, or press) on a name types another
    one (the keyboard of the current language, Cyrillic too); A elsewhere starts the game."""

    def __init__(self) -> None:
        super().__init__(N_("New game"), [
            Field("players", N_("Players"), 4, 1, 4),
            Field("harsh", N_("Harsh Times"), 0, 0, 1, on_off),
            Field("clockwise", N_("Clockwise"), 0, 0, 1, on_off),
        ], self._start, status=self._status)
        self.names: list[str | None] = [None] * len(SEAT_NAMES)   # None: the seat's colour

    def name(self, seat: int) -> str:
        typed = self.names[seat]
        return typed if typed is not None else _(SEAT_NAMES[seat])

    def _count(self) -> int:
        return self.values()["players"]

    def _status(self, ctx: Ctx, values: dict[str, int]) -> str:
        return _("A: type") if self.cursor >= len(self.fields) else _("A: start")

    def items(self, ctx: Ctx) -> list[Item]:
        names = [Item(_("Player {}").format(i + 1), partial(self._type, seat=i), base.clip(self.name(i), 12),
                      ident=f"name:{i}") for i in range(self._count())]
        return self.field_items() + names

    def _type(self, ctx: Ctx, seat: int) -> None:
        from firmware.screens.kit import TypeScreen
        ctx.push(TypeScreen(partial(self._typed, seat=seat)))

    def _typed(self, ctx: Ctx, name: str, seat: int) -> None:
        self.names[seat] = name

    def _start(self, ctx: Ctx, values: dict[str, int]) -> None:
        names = [self.name(i) for i in range(values["players"])]
        if len({n.casefold() for n in names}) < len(names):
            ctx.notify(_("Two players have the same name."))
            return
        line = f"new glory players={','.join(names)} harsh={values['harsh']} clockwise={values['clockwise']}"
        play.start_game(ctx, line, GloryHome)


class GloryHome(ListScreen):
    """The game's home: the round in the title (the game's name once it is over)."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Glory of Rome")

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img = super().render(ctx)
        if not view["finished"]:
            draw = ImageDraw.Draw(img)
            base.title_bar(draw, _("Round {} of {}").format(view["round"], view["rounds"]))
        return img

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        leader = max(view["players"], key=lambda p: view["fame"][p])
        out = [
            Item(_("Fame"), lambda c: c.push(FameScreen()), f"{base.clip(leader, 8)} {view['fame'][leader]}"),
            Item(_("Senate"), lambda c: c.push(SenateScreen()), f"{len(view['senate'])}/5"),
        ]
        if not view["finished"]:
            if view["event"] is None:
                out.append(Item(_("Reveal event"), self._reveal))
            else:
                out.append(Item(_("Event"), lambda c: c.push(EventScreen()), base.clip(event_label(view["event"]), 12)))
                out.append(Item(_("End round {}").format(view["round"]), self._end_round))
            out.append(Item(_("Tax"), lambda c: c.push(tax_form(c))))
            out.append(Item(_("Farming income"), self._farming))
            out.append(Item(_("Medals"), lambda c: c.push(MedalScreen())))
            out.append(Item(_("Random card pick"), lambda c: c.push(pick_form())))
        out.append(Item(_("Final score"), lambda c: c.push(ScoreEntry(c))))
        return out

    @staticmethod
    def _reveal(ctx: Ctx) -> None:
        if _run(ctx, "event") is not None:
            ctx.push(EventScreen())

    @staticmethod
    def _end_round(ctx: Ctx) -> None:
        view = _view(ctx)

        def go(c: Ctx) -> None:
            response = _run(c, "end-round")
            if response is not None:
                c.notify(_("Game over: final scoring.") if response["finished"] else
                         _("Turn the board {}°. Round {}.").format(f"{response['turned']:+d}", response["round"]))

        question = (_("Income done? Turn the board and start round {}.").format(view["round"] + 1)
                    if view["round"] < view["rounds"] else _("Income done? This ends the game."))
        ctx.push(ConfirmScreen(_("End round?"), question, go))

    @staticmethod
    def _farming(ctx: Ctx) -> None:
        view = _view(ctx)
        rows = []
        for p in view["players"]:
            response = _run(ctx, f"farm {p}")
            if response is None:
                return
            n = response["denarii"]
            row = ngettext("{}: {} denarius", "{}: {} denarii", n).format(p, n)
            rows.append(row + (" " + _("(Farmer)") if response["farmer"] else ""))
        ctx.push(TextScreen(_("Farming, round {}").format(view["round"]), rows))


# -- fame ----------------------------------------------------------------------------------------
class FameScreen(ListScreen):
    """Everybody's fame and supporters (one * each); the shared milestone markers in the footer;
    A adjusts the selected player."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Fame (* = supporter)")

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        return [Item(f"{base.clip(p, 11)} {'*' * view['supporters'][p]}", partial(self._adjust, player=p),
                     str(view["fame"][p]), ident=p) for p in view["players"]]

    def footer(self, ctx: Ctx) -> str:
        m = _view(ctx)["markers"]
        label = _("Milestones")
        figures = f"{m['12']} {m['21']} {m['30']}"
        return f"{base.clip(label, base.COLS - len(figures) - 2)} {figures}"

    @staticmethod
    def _adjust(ctx: Ctx, player: str) -> None:
        ctx.push(fame_adjust(player))


def fame_adjust(player: str) -> Dial:
    """A change of ``player``'s fame: up/down ±1, left/right ±5 (press: ±10, ±1), as the bottom row
    says; A applies it at once (G-5, G-6); B goes back without a change."""
    def go(ctx: Ctx, delta: int) -> None:
        if delta == 0:
            ctx.notify(_("Set a change first."))
            return
        response = _run(ctx, f"fame {player} {delta:+d}")
        if response is not None:
            ctx.pop()
            note = _milestone_note(response)
            if note:
                ctx.notify(note)

    def note(ctx: Ctx, delta: int) -> str:
        now = _view(ctx)["fame"][player]
        return f"{now} → {max(1, now + delta)}"

    return Dial(lambda: _("Fame: {}").format(player), 1, -99, 99, go, show=lambda d: f"{d:+d}", note=note,
                status=lambda c, d: _("A: ok"), step=1)


# -- Senate ----------------------------------------------------------------------------------------
class SenateScreen:
    """The column on the left (top row = top of the column, with each position's score) and the
    players on the right under the heading: A (or right, or press) places a vote for the selected
    player, hold A (KEY3) places the two votes of a boosted action. No title bar: the column needs
    all five rows."""

    def __init__(self) -> None:
        self.cursor = 0

    @property
    def title(self) -> str:
        return _("Senate")

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        column = view["senate"]
        for i in range(5):                       # row 0 = position 5 (top)
            pos = 4 - i
            y = 1 + i * base.LINE
            owner = column[pos] if pos < len(column) else "·"
            base.put(draw, 1, y, f"{SENATE_VALUES[pos]} {base.clip(owner, 8)}")
        draw.line((62, 0, 62, base.H - 1), fill=1)
        heading = base.clip(f"{self.title} {len(column)}/5", 10)
        base.text(draw, 66, 1, heading, invert=True)
        players = view["players"]
        self.cursor = min(self.cursor, len(players) - 1)
        for i, p in enumerate(players):
            base.text(draw, 66, 1 + (i + 1) * base.LINE, base.clip(p, 10), invert=(i == self.cursor))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        players = _view(ctx)["players"]
        what = intent("row", key)
        if what in (Intent.PREV, Intent.NEXT):
            self.cursor = max(0, min(len(players) - 1, self.cursor + (1 if what is Intent.NEXT else -1)))
        elif what in (Intent.SELECT, Intent.SECOND):
            n = 2 if what is Intent.SECOND else 1
            name = players[self.cursor]
            response = _run(ctx, f"vote {name}" + (" n=2" if n == 2 else ""))
            if response is None:
                return
            notes = []
            if response["supremacy"]:
                notes.append(_("Supremacy! {} +{} fame.").format(name, response["fame_gained"]))
            for owner in response["pushed_out"]:
                notes.append(_("{}: the bottom vote goes back.").format(owner))
            note = _milestone_note(response)
            if note:
                notes.append(note)
            if notes:
                ctx.notify(" ".join(notes))
        elif what is Intent.BACK:
            ctx.pop()


# -- events, tax, medals, picks --------------------------------------------------------------------
class EventScreen:
    """This round's event card: who is first, the order of play, the end-of-round turn."""

    def __init__(self) -> None:
        self.scroll = Scroll()
        self.rows: list[str] = []

    @property
    def title(self) -> str:
        return _("Event")

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, _("Round {} event").format(view["round"]))
        card = view["event"]
        if card is None:
            self.rows = []
            base.lines(draw, base.wrap(_("No event revealed yet.")))
            return img
        turn = rotation_of(card["arrow"], view["options"]["clockwise"])
        arrow_dir, _steps = ARROWS[card["arrow"]]
        play_dir = _("clockwise") if arrow_dir == "clockwise" else _("counter-clockwise")
        turn_dir = _("clockwise") if turn > 0 else _("counter-clockwise")
        texts = [event_label(card), _("First: {}").format(view["first"]), " → ".join(view["order"] or []),
                 _("Play {}").format(play_dir), _("End: turn {}° {}").format(abs(turn) * 90, turn_dir)]
        self.rows = [r for t in texts for r in base.wrap(t, base.COLS - 1)]
        top = self.scroll.fit(len(self.rows), base.ROWS)
        base.lines(draw, self.rows[top:])
        scroll_bar(draw, top, base.ROWS, len(self.rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        if not self.scroll.move(what, len(self.rows), base.ROWS) and what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()


def tax_form(ctx: Ctx) -> NumberForm:
    """Income (G-4): who, the population in front of them, plain or double tax."""
    players = _view(ctx)["players"]

    def go(c: Ctx, v: dict[str, int]) -> None:
        name = players[v["who"]]
        response = _run(c, f"tax {name} pop={v['pop']}" + (" double=1" if v["double"] else ""))
        if response is not None:
            c.pop()
            n = response["denarii"]
            note = ngettext("{}: take {} denarius.", "{}: take {} denarii.", n).format(name, n)
            if response["fame_lost"]:
                note += " " + _("Fame -{}.").format(response["fame_lost"])
            c.notify(note)

    return NumberForm(N_("Tax"), [
        Field("who", N_("Player"), 0, 0, len(players) - 1, lambda i: base.clip(players[i], 9)),
        Field("pop", N_("Population"), 1, 1, 16),
        Field("double", N_("Double tax"), 0, 0, 1, on_off),
    ], go, status=lambda c, v: _("A: ok"))


class MedalScreen(ListScreen):
    """The five medals and their holders; select one to give it to a player."""

    title = Said(N_("Medals"))

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        return [Item(medal_name(m), partial(self._give, medal=m), base.clip(view["medals"][m] or "–", 9))
                for m in MEDALS]

    @staticmethod
    def _give(ctx: Ctx, medal: str) -> None:
        view = _view(ctx)
        if view["medals"][medal] is not None:
            ctx.notify(_("The {} medal belongs to {}.").format(medal_name(medal), view["medals"][medal]))
            return
        ctx.push(ChooseScreen(_("Medal: {}").format(medal_name(medal)), view["players"],
                              lambda c, p: _run(c, f"medal {p} {medal}") is not None))


class ChooseScreen(ListScreen):
    """Pick one name; ``act(ctx, name)`` returns True to close the list."""

    def __init__(self, title: str, names: list[str], act: Callable[[Ctx, str], bool]) -> None:
        super().__init__()
        self.title = title
        self.names = names
        self.act = act

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(n, partial(self._pick, name=n)) for n in self.names]

    def _pick(self, ctx: Ctx, name: str) -> None:
        if self.act(ctx, name):
            ctx.pop()


def pick_form() -> NumberForm:
    """G-19: a random card from a hand of N (Sold!, Customs)."""
    from firmware.screens.kit import ResultScreen

    def go(c: Ctx, v: dict[str, int]) -> None:
        response = _run(c, f"pick {v['hand']}")
        if response is not None:
            c.replace(ResultScreen(_("Card of {}").format(v["hand"]), _("№ {}").format(response["position"])))

    return NumberForm(N_("Random pick"), [Field("hand", N_("Cards in hand"), 5, 1, 20)], go,
                      status=lambda c, v: _("A: pick"))


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
SHEET_MAX = {"denarii": 300, "objectives": 60, "epirus": 7, "macedonia": 7, "thrace": 7,
             "own": 5, "gold": 2, "silver": 2, "bronze": 2,
             "tools": 3, "weapons": 3, "clothing": 3, "jewelry": 3}
PANTHEON_COMMON = ("gold", "silver", "bronze")
GOODS = ("tools", "weapons", "clothing", "jewelry")
DIAL_MAX = 7          # a row whose figure is at most this goes round at ±1 (0 ↔ the most)


class SheetPad(ListScreen):
    """One row of the score pad for every player at once, as the paper pad is filled round the
    table: the title names the row, the players below with their figures. up/down: the player;
    left/right: −/+ the step (the cursor's figure shows as ``±1 ‹n›`` with its step, so left is not
    "back" here; on a short row — legions, sets, Pantheon — ±1 goes round, so left from 0 gives the
    most, e.g. 5 own-colour parts in one press); press: the step (±1, ±5, ±10; kept from player to
    player); A: the next row, the cursor on the same player (after the last row: the scores); B:
    back to the list of rows (nothing is lost: every change is already in the session)."""

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
        figures = _view(ctx).get("sheet", {}).get(player, {})
        limit = SHEET_MAX[self.entry]
        for group, total in ((PANTHEON_COMMON, int(tables()["pantheon_limits"]["common"])),
                             (GOODS, int(tables()["max_sets"]))):
            if self.entry in group:
                limit = min(limit, total - sum(figures.get(k, 0) for k in group if k != self.entry))
        return max(0, limit)

    @property
    def title(self) -> str:  # type: ignore[override]
        return _(SHEET_ROWS[self.row][1])

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        sheets = view.get("sheet", {})
        out = []
        for i, p in enumerate(view["players"]):
            n = sheets.get(p, {}).get(self.entry, 0)
            out.append(Item(p, None, figure(n, STEPS[self.step]) if i == self.cursor else str(n), ident=p,
                            adjust=partial(self._change, player=p), steps=True))
        return out

    def _change(self, ctx: Ctx, by: int, player: str) -> None:
        now = _view(ctx).get("sheet", {}).get(player, {}).get(self.entry, 0)
        most = self.most(ctx, player)
        if most == 0 and now == 0:
            limits = tables()
            ctx.notify(_("{}: at most {} common Pantheon parts.").format(
                player, limits["pantheon_limits"]["common"]) if self.entry in PANTHEON_COMMON else
                _("{}: at most {} goods sets count.").format(player, limits["max_sets"]))
            return
        if SHEET_MAX[self.entry] <= DIAL_MAX and abs(by) == 1:
            after = (now + by) % (most + 1)     # a short row goes round: left from 0 is the most
        else:
            after = max(0, min(most, now + by))
        if after != now:                          # a no-op is not an undo step
            _run(ctx, f"sheet {player} {self.entry} {after}")

    def go(self, ctx: Ctx) -> None:
        if self.row + 1 < len(SHEET_ROWS):
            self.row, self.step = self.row + 1, 0     # the cursor stays on its player: the next row
        else:                                         # is filled from there, round the table and back
            ctx.pop()
            show_scores(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("figure", key) is Intent.BACK:
            ctx.pop()
            if self.on_back is not None:
                self.on_back(self.row)
            return
        super().key(key, ctx)


def show_scores(ctx: Ctx) -> None:
    response = _run(ctx, "score sheet")
    if response is not None:
        ctx.push(ScoreResult(response))


class ScoreEntry(WrappedListScreen):
    """Final score: the rows of the score pad the session does not know (legions on the
    battlefields, goods sets, Pantheon parts, objectives, denarii), each with every player's
    figure, then the scores. A opens a row for all the players (A there walks on to the next
    row). The session adds the fame track, the medals and the Senate column."""

    title = Said(N_("Final score"))

    def __init__(self, ctx: Ctx | None = None) -> None:
        super().__init__()

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        sheets = view.get("sheet", {})
        out = []
        for i, (key, label) in enumerate(SHEET_ROWS):
            figures = " ".join(str(sheets.get(p, {}).get(key, 0)) for p in view["players"])
            out.append(Item(_(label), partial(self._open_row, row=i), figures))
        out.append(Item(_("Show scores"), show_scores))
        return out

    def _open_row(self, ctx: Ctx, row: int) -> None:
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

    def __init__(self, result: dict[str, Any]) -> None:
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
            items.append(Item(f"{places[name]} {mark}{base.clip(name, 12)}", partial(self._detail, index=i),
                              str(scores[name]["total"]), ident=name))
        return items

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

    def __init__(self, result: dict[str, Any], index: int) -> None:
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
        base.title_bar(draw, base.clip(name, base.COLS - len(place) - 1), place)
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
