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
from firmware.screens import base
from firmware.screens.base import BACK, Ctx, Item, ListScreen, Said, StableListScreen, TextScreen
from firmware.screens.form import Field, NumberForm, on_off

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
    base.continue_or_setup(ctx, ("glory",), GloryHome, SetupScreen)


def _view(ctx: Ctx) -> dict[str, Any]:
    return base.game_view(ctx, ("glory",), "Glory of Rome")


_run = base.run_or_notify


def _milestone_note(response: dict[str, Any]) -> str:
    events = response.get("milestone_events") or []
    return " ".join(_("{} +1 supporter (milestone {}).").format(m["player"], m["milestone"]) for m in events)


# -- setup and home ----------------------------------------------------------------------------
SEAT_NAMES = (N_("Red"), N_("Yellow"), N_("Blue"), N_("Green"))


class SetupScreen(NumberForm):
    """New game: player count, variants, then the players' names (by default their colour in the
    current language). left/right change a number; A (or press) on a name types another one
    (the keyboard of the current language, Cyrillic too); A elsewhere starts the game."""

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

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, _(self.title), self._status(ctx, self.values()))
        items = [Item(_(f.label), None, f"<{f.show(f.value)}>" if i == self.cursor else f.show(f.value))
                 for i, f in enumerate(self.fields)]
        items += [Item(_("Player {}").format(i + 1), None, base.clip(self.name(i), 12))
                  for i in range(self._count())]
        self.cursor = min(self.cursor, len(items) - 1)
        self.top = base.wrapped_top([len(base.item_rows(i)) for i in items], self.cursor,
                                    min(self.top, self.cursor))
        base.draw_list_wrapped(draw, items, self.cursor, self.top)   # a long label takes two rows
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        n = len(self.fields) + self._count()
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % n
        elif self.cursor >= len(self.fields) and key in ("left", "right"):
            return                                 # a name row has no number to change
        elif self.cursor >= len(self.fields) and key in ("a", "press"):
            from firmware.screens.kit import TypeScreen
            ctx.push(TypeScreen(partial(self._typed, seat=self.cursor - len(self.fields))))
        else:
            super().key(key, ctx)

    def _typed(self, ctx: Ctx, name: str, seat: int) -> None:
        self.names[seat] = name

    def _start(self, ctx: Ctx, values: dict[str, int]) -> None:
        names = [self.name(i) for i in range(values["players"])]
        if len({n.casefold() for n in names}) < len(names):
            ctx.notify(_("Two players have the same name."))
            return
        line = f"new glory players={','.join(names)} harsh={values['harsh']} clockwise={values['clockwise']}"
        base.start_game(ctx, line, GloryHome)


class GloryHome(StableListScreen):
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
        ctx.push(base.ConfirmScreen(_("End round?"), question, go))

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
class FameScreen:
    """Everybody's fame and supporters (one * each), then the shared milestone markers;
    A adjusts the selected player."""

    def __init__(self) -> None:
        self.cursor = 0
        self.top = 0

    @property
    def title(self) -> str:
        return _("Fame (* = supporter)")

    def _items(self, view: dict[str, Any]) -> list[Item]:
        items = [Item(f"{base.clip(p, 11)} {'*' * view['supporters'][p]}", None, str(view["fame"][p]))
                 for p in view["players"]]
        m = view["markers"]
        items.append(Item(_("Milestones"), None, f"{m['12']} {m['21']} {m['30']}"))
        return items

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, self.title)
        items = self._items(view)
        self.cursor = min(self.cursor, len(view["players"]) - 1)
        self.top = max(0, min(self.top, self.cursor), self.cursor - base.ROWS + 1)
        if self.cursor == len(view["players"]) - 1:
            self.top = max(0, len(items) - base.ROWS)
        base.draw_list(draw, items, self.cursor, self.top)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        players = _view(ctx)["players"]
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(players)
            if self.cursor == 0:
                self.top = 0
        elif key in ("a", "press", "right"):
            ctx.push(FameAdjust(players[self.cursor]))
        elif key in BACK:
            ctx.pop()


class FameAdjust:
    """Set a change with up/down (±1) and left/right (±5), as the bottom row says; A applies it at
    once (G-5, G-6); B goes back without a change."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.delta = 1

    @property
    def title(self) -> str:
        return _("Fame: {}").format(self.player)

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        now = view["fame"][self.player]
        img, draw = base.frame()
        base.title_bar(draw, base.clip(self.title, 15), _("A: ok"))
        label = f"{self.delta:+d}"
        w = base.big_width(label, 3)
        base.big(img, (base.W - w) // 2, base.TITLE_H + 2, label, 3)
        after = max(1, now + self.delta)
        base.text(draw, 1, base.row_y(3), base.clip(f"{now} → {after}  ↑↓ ±1  ←→ ±5"))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        step = {"up": 1, "down": -1, "right": 5, "left": -5}.get(key)
        if step is not None:
            self.delta = max(-99, min(99, self.delta + step))
        elif key in ("a", "press"):
            if self.delta == 0:
                ctx.notify(_("Set a change first."))
                return
            response = _run(ctx, f"fame {self.player} {self.delta:+d}")
            if response is not None:
                ctx.pop()
                note = _milestone_note(response)
                if note:
                    ctx.notify(note)
        elif key == "b":
            ctx.pop()


# -- Senate ----------------------------------------------------------------------------------------
class SenateScreen:
    """The column on the left (top row = top of the column, with each position's score) and the
    players on the right under the heading: A places a vote for the selected player, hold A
    places the two votes of a boosted action. No title bar: the column needs all five rows."""

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
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(players)
        elif key in ("a", "press", "a:hold", "key3"):
            n = 2 if key in ("a:hold", "key3") else 1
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
        elif key in BACK:
            ctx.pop()


# -- events, tax, medals, picks --------------------------------------------------------------------
class EventScreen:
    """This round's event card: who is first, the order of play, the end-of-round turn."""

    @property
    def title(self) -> str:
        return _("Event")

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, _("Round {} event").format(view["round"]))
        card = view["event"]
        if card is None:
            base.lines(draw, base.wrap(_("No event revealed yet.")))
            return img
        turn = rotation_of(card["arrow"], view["options"]["clockwise"])
        arrow_dir, _steps = ARROWS[card["arrow"]]
        play = _("clockwise") if arrow_dir == "clockwise" else _("counter-clockwise")
        turn_dir = _("clockwise") if turn > 0 else _("counter-clockwise")
        texts = [event_label(card), _("First: {}").format(view["first"]), " → ".join(view["order"] or []),
                 _("Play {}").format(play), _("End: turn {}° {}").format(abs(turn) * 90, turn_dir)]
        rows = [r for t in texts for r in base.wrap(t, base.COLS - 1)]
        self.top = getattr(self, "top", 0)
        self.top = max(0, min(self.top, len(rows) - base.ROWS))
        base.lines(draw, rows[self.top:])
        if len(rows) > base.ROWS:
            span = base.H - base.TITLE_H - 1
            h = max(3, span * base.ROWS // len(rows))
            y0 = base.TITLE_H + 1 + (span - h) * self.top // max(1, len(rows) - base.ROWS)
            draw.rectangle((base.W - 2, y0, base.W - 1, y0 + h - 1), fill=1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("up", "down"):
            self.top = getattr(self, "top", 0) + (1 if key == "down" else -1)
        elif key in BACK or key in ("a", "press", "right"):
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
STEPS = (1, 5, 10)
PANTHEON_COMMON = ("gold", "silver", "bronze")
GOODS = ("tools", "weapons", "clothing", "jewelry")
DIAL_MAX = 7          # a row whose figure is at most this goes round at ±1 (0 ↔ the most)


class SheetPad:
    """One row of the score pad for every player at once, as the paper pad is filled round the
    table: the title names the row (its step top right), the players below with their figures.
    up/down: the player; left/right: −/+ the step (the cursor's figure shows as ``<n>``, so left
    is not "back" here; on a short row — legions, sets, Pantheon — ±1 goes round, so left from 0
    gives the most, e.g. 5 own-colour parts in one press); press: the step (±1, ±5, ±10; back to ±1 on another player); A: the
    next row (after the last: the scores); B: back to the list of rows (nothing is lost: every
    change is already in the session)."""

    def __init__(self, row: int = 0, on_back: Callable[[int], None] | None = None) -> None:
        self.row = row
        self.cursor = 0
        self.step = 0
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
    def title(self) -> str:
        return _(SHEET_ROWS[self.row][1])

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        sheets = view.get("sheet", {})
        players = view["players"]
        self.cursor = min(self.cursor, len(players) - 1)
        img, draw = base.frame()
        base.title_bar(draw, self.title, f"±{STEPS[self.step]}")
        items = []
        for i, p in enumerate(players):
            n = sheets.get(p, {}).get(self.entry, 0)
            items.append(Item(p, None, f"<{n}>" if i == self.cursor else str(n)))
        base.draw_list(draw, items, self.cursor, 0)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        players = _view(ctx)["players"]
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(players)
            self.step = 0
        elif key in ("left", "right"):
            player = players[self.cursor]
            now = _view(ctx).get("sheet", {}).get(player, {}).get(self.entry, 0)
            step = STEPS[self.step] * (1 if key == "right" else -1)
            most = self.most(ctx, player)
            if most == 0 and now == 0:
                limits = tables()
                ctx.notify(_("{}: at most {} common Pantheon parts.").format(
                    player, limits["pantheon_limits"]["common"]) if self.entry in PANTHEON_COMMON else
                    _("{}: at most {} goods sets count.").format(player, limits["max_sets"]))
                return
            if SHEET_MAX[self.entry] <= DIAL_MAX and self.step == 0:
                after = (now + step) % (most + 1)   # a short row goes round: left from 0 is the most
            else:
                after = max(0, min(most, now + step))
            if after != now:                      # a no-op is not an undo step
                _run(ctx, f"sheet {player} {self.entry} {after}")
        elif key == "press":
            self.step = (self.step + 1) % len(STEPS)
        elif key == "a":
            if self.row + 1 < len(SHEET_ROWS):
                self.row, self.cursor, self.step = self.row + 1, 0, 0
            else:
                ctx.pop()
                show_scores(ctx)
        elif key == "b":
            ctx.pop()
            if self.on_back is not None:
                self.on_back(self.row)


def show_scores(ctx: Ctx) -> None:
    response = _run(ctx, "score sheet")
    if response is not None:
        ctx.push(ScoreResult(response))


class ScoreEntry(base.WrappedListScreen):
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


class ScoreResult:
    """The final ranking: place, name, total; winners marked ``*`` (G-15). A: a player's detail."""

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result
        self.cursor = 0
        self.top = 0

    @property
    def title(self) -> str:
        return _("Final score")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        scores, ranking, winners = self.result["scores"], self.result["ranking"], self.result["winners"]
        solo = self.result.get("solo")
        status = f"{solo['done']}/7" if solo else (_("tie") if len(winners) > 1 else "")
        base.title_bar(draw, self.title, status)
        places = self.result["places"]
        items = []
        for name in ranking:
            mark = "*" if name in winners else " "
            items.append(Item(f"{places[name]} {mark}{base.clip(name, 12)}", None, str(scores[name]["total"])))
        if solo:
            rank = _(SOLO_RANKS.get(solo["rank"], solo["rank"])) if solo["rank"] else _("no rank")
            items.append(Item(rank, None, ngettext("{} goal", "{} goals", solo["done"]).format(solo["done"])))
        self.top = max(0, min(self.top, self.cursor), self.cursor - base.ROWS + 1)
        base.draw_list(draw, items, self.cursor, self.top)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        ranking = self.result["ranking"]
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(ranking)
        elif key in ("a", "press", "right"):
            ctx.push(ScoreDetail(self.result, self.cursor))
        elif key in BACK:
            ctx.pop()


class ScoreDetail:
    """One player's score pad column: the seven categories, the total and the achievements;
    up/down scroll, left/right: the previous/next player, A or B: back to the ranking."""

    def __init__(self, result: dict[str, Any], index: int) -> None:
        self.result = result
        self.index = index
        self.top = 0

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
        self.top = max(0, min(self.top, len(rows) - base.ROWS))
        for i, item in enumerate(rows[self.top:self.top + base.ROWS]):
            y = base.row_y(i)
            if item.label == _("Achievement"):
                base.put(draw, 1, y, base.clip("✓ " + item.value, base.COLS - 1))
                continue
            base.put(draw, 1, y, item.label)
            base.put(draw, base.W - 4 - len(item.value) * base.CHAR_W, y, item.value)
        if len(rows) > base.ROWS:
            span = base.H - base.TITLE_H - 1
            h = max(3, span * base.ROWS // len(rows))
            y0 = base.TITLE_H + 1 + (span - h) * self.top // max(1, len(rows) - base.ROWS)
            draw.rectangle((base.W - 2, y0, base.W - 1, y0 + h - 1), fill=1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        n = len(self.result["ranking"])
        if key == "down":
            self.top += 1
        elif key == "up":
            self.top = max(0, self.top - 1)
        elif key == "right":
            self.index, self.top = (self.index + 1) % n, 0
        elif key == "left":
            self.index, self.top = (self.index - 1) % n, 0
        elif key in ("b", "a", "press"):
            ctx.pop()
