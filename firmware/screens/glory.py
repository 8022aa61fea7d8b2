"""«Во славу Рима» / For the Glory of Rome screens: fame track, Senate column, events, income,
medals, random picks and the final score (entry and result).

Every change goes through a console line (``fame``, ``vote``, ``event`` …), so it is journaled
and undoable with a long B like any other step.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine.glory.rounds import ARROWS, rotation_of
from firmware.screens import base
from firmware.screens.base import BACK, Ctx, Item, ListScreen, TextScreen
from firmware.screens.form import Field, NumberForm, on_off

SENATE_VALUES = (1, 2, 3, 5, 6)      # G-10 default, bottom -> top
BATTLEFIELDS = (("Epirus", 2), ("Macedonia", 3), ("Thrace", 4))
MEDALS = ("warrior", "politician", "merchant", "priest", "farmer")


def open_game(ctx: Ctx) -> None:
    """Continue the current Glory session, or set up a new one."""
    base.continue_or_setup(ctx, ("glory",), GloryHome, SetupScreen)


def _view(ctx: Ctx) -> dict[str, Any]:
    return base.game_view(ctx, ("glory",), "Glory of Rome")


_run = base.run_or_notify


def _milestone_note(response: dict[str, Any]) -> str:
    events = response.get("milestone_events") or []
    if not events:
        return ""
    return " ".join(f"{m['player']} +1 supporter ({m['milestone']})." for m in events)


# -- setup and home ----------------------------------------------------------------------------
class SetupScreen(NumberForm):
    """New game: player count and variants; names P1..P4 (other names: console ``new glory``)."""

    def __init__(self) -> None:
        super().__init__("New Glory", [
            Field("players", "Players", 4, 1, 4),
            Field("harsh", "Harsh Times", 0, 0, 1, on_off),
            Field("clockwise", "Clockwise", 0, 0, 1, on_off),
        ], self._start, status=lambda c, v: "A start")

    def _start(self, ctx: Ctx, values: dict[str, int]) -> None:
        names = ",".join(f"P{i + 1}" for i in range(values["players"]))
        line = f"new glory players={names} harsh={values['harsh']} clockwise={values['clockwise']}"

        base.start_game(ctx, line, GloryHome)


class GloryHome(ListScreen):
    title = "Glory"

    def status(self, ctx: Ctx) -> str:
        view = _view(ctx)
        return "final" if view["finished"] else f"R{view['round']}/{view['rounds']}"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        leader = max(view["players"], key=lambda p: view["fame"][p])
        out = [
            Item("Fame", lambda c: c.push(FameScreen()), f"{leader} {view['fame'][leader]}"),
            Item("Senate", lambda c: c.push(SenateScreen()), f"{len(view['senate'])}/5"),
        ]
        if not view["finished"]:
            if view["event"] is None:
                out.append(Item("Reveal event", self._reveal))
            else:
                out.append(Item("Event", lambda c: c.push(EventScreen()), view["event"]["label"][:9]))
                out.append(Item(f"End round {view['round']}", self._end_round))
            out.append(Item("Tax", lambda c: c.push(tax_form(c))))
            out.append(Item("Farming income", self._farming))
            out.append(Item("Medals", lambda c: c.push(MedalScreen())))
            out.append(Item("Random card pick", lambda c: c.push(pick_form())))
        out.append(Item("Final score", lambda c: c.push(ScoreEntry(c))))
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
                c.notify("Game over: final scoring." if response["finished"] else
                         f"Board turned {response['turned']:+d}°. Round {response['round']}.")

        ctx.push(base.ConfirmScreen("End round?", f"Income done? Turn the board and start round "
                                    f"{view['round'] + 1}." if view["round"] < view["rounds"] else
                                    "Income done? This ends the game.", go))

    @staticmethod
    def _farming(ctx: Ctx) -> None:
        view = _view(ctx)
        rows = []
        for p in view["players"]:
            response = _run(ctx, f"farm {p}")
            if response is None:
                return
            rows.append(f"{p}: {response['denarii']} denarii" + (" (Farmer)" if response["farmer"] else ""))
        ctx.push(TextScreen(f"Farming, round {view['round']}", rows))


# -- fame ----------------------------------------------------------------------------------------
def fame_row(name: str, fame: int, supporters: int) -> str:
    """``Jack      12 ***``: name, fame total, one star per supporter."""
    return f"{base.clip(name, 9):<9}{fame:>4} {'*' * supporters}"


class FameScreen:
    """Everybody's fame and supporters, the shared milestone markers; A adjusts a player."""

    title = "Fame"

    def __init__(self) -> None:
        self.cursor = 0

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, "Fame", f"R{view['round']}/{view['rounds']}")
        players = view["players"]
        self.cursor = min(self.cursor, len(players) - 1)
        items = [Item(fame_row(p, view["fame"][p], view["supporters"][p])) for p in players]
        base.draw_list(draw, items, self.cursor, 0, rows=4)
        m = view["markers"]
        base.text(draw, 1, base.row_y(4), f"Milestones {m['12']:>2} {m['21']:>2} {m['30']:>2}")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        players = _view(ctx)["players"]
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(players)
        elif key in ("a", "press", "right"):
            ctx.push(FameAdjust(players[self.cursor]))
        elif key in BACK:
            ctx.pop()


class FameAdjust:
    """Set a change with up/down (1) and left/right (5); A applies it at once (G-5, G-6)."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.title = f"Fame: {player}"
        self.delta = 1

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        now = view["fame"][self.player]
        img, draw = base.frame()
        base.title_bar(draw, self.title, f"now {now}")
        label = f"{self.delta:+d}"
        w = base.big_width(label, 3)
        base.big(img, (base.W - w) // 2, base.TITLE_H + 4, label, 3)
        after = max(1, now + self.delta)
        base.text(draw, 1, base.row_y(4), base.clip(f"-> {after}   A ok  B back"))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        step = {"up": 1, "down": -1, "right": 5, "left": -5}.get(key)
        if step is not None:
            self.delta = max(-99, min(99, self.delta + step))
        elif key in ("a", "press"):
            if self.delta == 0:
                ctx.notify("Set a change first.")
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
    """The column (top row = top of the column, with each position's score) and the players:
    A places a vote for the selected player, hold A places the two votes of a boosted action."""

    title = "Senate"

    def __init__(self) -> None:
        self.cursor = 0

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        column = view["senate"]
        base.title_bar(draw, "Senate", f"{len(column)}/5")
        for i in range(5):                       # row 0 = position 5 (top)
            pos = 4 - i
            y = base.row_y(i)
            owner = column[pos] if pos < len(column) else "."
            base.text(draw, 1, y, f"{SENATE_VALUES[pos]} {base.clip(owner, 8)}")
        draw.line((62, base.TITLE_H + 1, 62, base.H - 1), fill=1)
        players = view["players"]
        self.cursor = min(self.cursor, len(players) - 1)
        for i, p in enumerate(players):
            base.text(draw, 66, base.row_y(i), base.clip(p, 10), invert=(i == self.cursor))
        if len(players) < 5:
            base.text(draw, 66, base.row_y(4), "A vote")
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
                notes.append(f"Supremacy! {name} +{response['fame_gained']} fame.")
            for owner in response["pushed_out"]:
                notes.append(f"{owner}'s bottom vote goes back.")
            note = _milestone_note(response)
            if note:
                notes.append(note)
            if notes:
                ctx.notify(" ".join(notes))
        elif key in BACK:
            ctx.pop()


# -- events, tax, medals, picks --------------------------------------------------------------------
class EventScreen:
    """This round's event card: direction of play, who is first, the order, the end-of-round turn."""

    title = "Event"

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, f"Round {view['round']} event")
        card = view["event"]
        if card is None:
            base.lines(draw, ["No event revealed yet."])
            return img
        turn = rotation_of(card["arrow"], view["options"]["clockwise"])
        arrow_dir, _ = ARROWS[card["arrow"]]
        rows = [
            base.clip(card["label"]),
            f"Play {'clockwise' if arrow_dir == 'clockwise' else 'counter-cw'}",
            base.clip(">".join(view["order"] or [])),
            f"First: {view['first']}",
            f"End: turn {abs(turn) * 90} {'cw' if turn > 0 else 'ccw'}",
        ]
        base.lines(draw, rows)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in BACK or key in ("a", "press", "right"):
            ctx.pop()


def tax_form(ctx: Ctx) -> NumberForm:
    """Income (G-4): who, the population in front of them, plain or double tax."""
    players = _view(ctx)["players"]

    def go(c: Ctx, v: dict[str, int]) -> None:
        name = players[v["who"]]
        response = _run(c, f"tax {name} pop={v['pop']}" + (" double=1" if v["double"] else ""))
        if response is not None:
            c.pop()
            lost = f", -{response['fame_lost']} fame" if response["fame_lost"] else ""
            c.notify(f"{name}: take {response['denarii']} denarii{lost}.")

    return NumberForm("Tax", [
        Field("who", "Player", 0, 0, len(players) - 1, lambda i: base.clip(players[i], 9)),
        Field("pop", "Population", 1, 1, 16),
        Field("double", "Double tax", 0, 0, 1, on_off),
    ], go, status=lambda c, v: "A ok")


class MedalScreen(ListScreen):
    """The five medals and their holders; select one to give it to a player."""

    title = "Medals"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        return [Item(m.capitalize(), partial(self._give, medal=m), base.clip(view["medals"][m] or "-", 9))
                for m in MEDALS]

    @staticmethod
    def _give(ctx: Ctx, medal: str) -> None:
        view = _view(ctx)
        if view["medals"][medal] is not None:
            ctx.notify(f"The {medal} medal belongs to {view['medals'][medal]}.")
            return
        ctx.push(ChooseScreen(f"{medal.capitalize()} to", view["players"],
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
            c.replace(ResultScreen(f"Card of {v['hand']}", f"#{response['position']}"))

    return NumberForm("Random pick", [Field("hand", "Cards in hand", 5, 1, 20)], go,
                      status=lambda c, v: "A pick")


# -- final score ---------------------------------------------------------------------------------
SHEET_FIELDS: tuple[tuple[str, str, str | None, int], ...] = (
    # key, label, group, max
    ("tools", "Sets: tools", "sets", 3), ("weapons", "Sets: weapons", "sets", 3),
    ("clothing", "Sets: clothing", "sets", 3), ("jewelry", "Sets: jewelry", "sets", 3),
    ("gold", "Pantheon gold", "pantheon", 2), ("silver", "Pantheon silver", "pantheon", 2),
    ("bronze", "Pantheon bronze", "pantheon", 2), ("own", "Pantheon own", "pantheon", 5),
    ("objectives", "Objectives (fame)", None, 60), ("denarii", "Denarii", None, 200),
)


class ScoreEntry(ListScreen):
    """Enter what the session does not know (sets, Pantheon, objectives, denarii, legions), then
    score: the session adds fame track, medals and the Senate column."""

    title = "Final score"

    def __init__(self, ctx: Ctx) -> None:
        super().__init__()
        players = _view(ctx)["players"]
        self.sheets: dict[str, dict[str, int]] = {p: {k: 0 for k, *_ in SHEET_FIELDS} for p in players}
        self.fields: list[dict[str, Any]] = [{"name": n, "shield": s, "legions": {p: 0 for p in players}}
                                             for n, s in BATTLEFIELDS]

    def items(self, ctx: Ctx) -> list[Item]:
        out = [Item("Show scores", self._show)]
        for p, sheet in self.sheets.items():
            out.append(Item(p, partial(self._open_sheet, player=p), f"{sheet['denarii']}d"))
        for i, f in enumerate(self.fields):
            out.append(Item(f"{f['name']} ({f['shield']})", partial(self._open_field, i=i),
                            str(sum(f["legions"].values()))))
        return out

    def sheet_json(self) -> dict[str, Any]:
        """The score request for the session's ``score`` command."""
        players = []
        for p, s in self.sheets.items():
            entry: dict[str, Any] = {"name": p, "sets": {}, "pantheon": {}}
            for key, _, group, _ in SHEET_FIELDS:
                if group is None:
                    entry[key] = s[key]
                else:
                    entry[group][key] = s[key]
            players.append(entry)
        fields = [{"name": f["name"], "shield": f["shield"], "legions": {p: n for p, n in f["legions"].items() if n}}
                  for f in self.fields]
        return {"players": players, "battlefields": fields}

    def _show(self, ctx: Ctx) -> None:
        response = _run(ctx, "score " + json.dumps(self.sheet_json(), separators=(",", ":")))
        if response is not None:
            ctx.push(ScoreResult(response))

    def _open_sheet(self, ctx: Ctx, player: str) -> None:
        ctx.push(self._sheet_form(player))

    def _open_field(self, ctx: Ctx, i: int) -> None:
        ctx.push(self._field_form(i))

    def _sheet_form(self, player: str) -> NumberForm:
        sheet = self.sheets[player]
        fields = [Field(k, label, sheet[k], 0, hi) for k, label, _, hi in SHEET_FIELDS]
        return NumberForm(player, fields, lambda c, v: c.pop(), keep=sheet.update)

    def _field_form(self, i: int) -> NumberForm:
        field = self.fields[i]
        legions = field["legions"]
        fields = [Field(p, f"{p} legions", n, 0, 7) for p, n in legions.items()]
        return NumberForm(f"{field['name']} ({field['shield']})", fields, lambda c, v: c.pop(),
                          keep=legions.update)


CATEGORIES = (("track", "Track"), ("military", "Milit"), ("politics", "Polit"), ("trade", "Trade"),
              ("religion", "Relig"), ("objectives", "Objec"), ("denarii", "Denar"), ("total", "Total"))


class ScoreResult:
    """The final ranking: place, name, total; winners marked ``*`` (G-15). A: a player's detail."""

    title = "Final score"

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result
        self.cursor = 0

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        scores, ranking, winners = self.result["scores"], self.result["ranking"], self.result["winners"]
        solo = self.result.get("solo")
        status = f"{solo['done']}/7" if solo else ("tie" if len(winners) > 1 else "")
        base.title_bar(draw, "Final score", status)
        places = self.result["places"]
        items = []
        for name in ranking:
            mark = "*" if name in winners else " "
            items.append(Item(f"{places[name]} {mark}{base.clip(name, 10)}", None, str(scores[name]["total"])))
        if solo:
            items.append(Item(solo["rank"] or "no rank", None, f"{solo['done']} goals"))
        base.draw_list(draw, items, self.cursor, 0)
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
    """One player's score pad column: the seven categories and the total; left/right: next player."""

    title = "Score detail"

    def __init__(self, result: dict[str, Any], index: int) -> None:
        self.result = result
        self.index = index

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        ranking = self.result["ranking"]
        name = ranking[self.index]
        row = self.result["scores"][name]
        base.title_bar(draw, base.clip(name, 12), f"place {self.result['places'][name]}")
        for i in range(4):
            (k1, l1), (k2, l2) = CATEGORIES[i], CATEGORIES[i + 4]
            base.text(draw, 1, base.row_y(i), f"{l1:<6}{row[k1]:>3}   {l2:<6}{row[k2]:>3}")
        achieved = self.result.get("achievements", {}).get(name, [])
        base.text(draw, 1, base.row_y(4), base.clip("Ach: " + (", ".join(achieved) if achieved else "-")))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        n = len(self.result["ranking"])
        if key in ("right", "down"):
            self.index = (self.index + 1) % n
        elif key in ("left", "up"):
            self.index = (self.index - 1) % n
        elif key in ("b", "a", "press"):
            ctx.pop()
