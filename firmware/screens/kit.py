"""Dice & bags: the dice roller (NdS±M, re-roll chosen dice), bags, decks and their histories."""
from __future__ import annotations

from typing import Any

from PIL import Image

from firmware.screens import base
from firmware.screens.base import BACK, Ctx, Item, ListScreen, TextScreen

SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100)

CAESAR_TOKENS = ",".join(
    [f"{icon}{a}/{b}" for icon in ("sword", "shield", "ship") for a, b in ((6, 0), (5, 1), (4, 2), (3, 3))]
    + ["wild4/0", "wild3/1", "wild2/2*2"])
SUITS = "SHDC"
PLAYING_CARDS = ",".join(f"{r}{s}" for s in SUITS for r in ("A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K"))

# label, options after "new bag"
PRESETS: tuple[tuple[str, str], ...] = (
    ("Gold/silver/bronze", "items=gold*3,silver*3,bronze*3"),
    ("White 5 + black 5", "items=white*5,black*5"),
    ("Numbers 1-12", "items=" + ",".join(str(i) for i in range(1, 13))),
    ("Caesar! tokens", "items=" + CAESAR_TOKENS),
    ("Playing cards", "cards=" + PLAYING_CARDS),
    ("Cards 1-20", "cards=" + ",".join(str(i) for i in range(1, 21))),
)


def open_dice(ctx: Ctx) -> None:
    """Roll within the current session (journaled, undoable); start a dice session if none."""
    if ctx.view() is None:
        ctx.run("new dice")
    ctx.push(DiceScreen())


def open_kit(ctx: Ctx) -> None:
    view = ctx.view()
    if view is not None and view["game"] == "bag":
        ctx.push(KitScreen())
    else:
        ctx.push(PresetScreen())


def last_roll(ctx: Ctx) -> dict[str, Any] | None:
    response = ctx.run("rolls 1")
    rolls = response.get("rolls") or []
    return rolls[-1] if rolls else None


class DiceScreen:
    """Set NdS±M with the joystick, A rolls. Press picks dice to re-roll; key3 / hold A: history."""

    title = "Dice"

    def __init__(self) -> None:
        self.count = 2
        self.sides = SIDES.index(6)
        self.mod = 0
        self.field = 0            # 0 count, 1 sides, 2 modifier
        self.picking = False
        self.pick = 0
        self.chosen: set[int] = set()

    @property
    def expr(self) -> str:
        return f"{self.count}d{SIDES[self.sides]}" + (f"{self.mod:+d}" if self.mod else "")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        roll = last_roll(ctx)
        base.title_bar(draw, "Re-roll which?" if self.picking else "Dice", "A roll" if not self.picking else "A go")
        parts = [str(self.count), f"d{SIDES[self.sides]}", f"{self.mod:+d}"]
        x = 1
        for i, part in enumerate(parts):
            base.text(draw, x, base.row_y(0), part, invert=(i == self.field and not self.picking))
            x += len(part) * base.CHAR_W + 3
        if roll is not None:
            total = str(roll["total"])
            scale = 3 if len(total) <= 3 else 2
            w = base.big_width(total, scale)
            base.big(img, base.W - w - 2, base.TITLE_H + 2, total, scale)
            base.text(draw, 1, base.row_y(1), base.clip(roll["expr"], 10))
            dice = roll["dice"]
            x, y = 1, base.row_y(3)
            rerolled = {p - 1 for p in roll.get("rerolled", [])}
            for i, d in enumerate(dice[:10]):
                s = str(d)
                base.text(draw, x, y, s, invert=(i in self.chosen))
                if (self.picking and i == self.pick) or (not self.picking and i in rerolled):
                    uy = y + base.LINE - 1       # inside the row: never touches the hint row
                    draw.line((x, uy, x + len(s) * base.CHAR_W - 1, uy), fill=0 if i in self.chosen else 1)
                x += (len(s) + 1) * base.CHAR_W
            if len(dice) > 10:
                base.text(draw, x, y, f"+{len(dice) - 10}")
            hint = "press=pick  A=reroll" if self.picking else "press: re-roll dice"
            base.text(draw, 1, base.row_y(4), base.clip(hint))
        else:
            base.text(draw, 1, base.row_y(2), "A: roll")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if self.picking:
            self._pick_key(key, ctx)
            return
        if key == "left":
            if self.field == 0:
                ctx.pop()
            else:
                self.field -= 1
        elif key == "right":
            self.field = min(2, self.field + 1)
        elif key in ("up", "down"):
            step = 1 if key == "up" else -1
            if self.field == 0:
                self.count = max(1, min(20, self.count + step))
            elif self.field == 1:
                self.sides = max(0, min(len(SIDES) - 1, self.sides + step))
            else:
                self.mod = max(-20, min(20, self.mod + step))
        elif key == "a":
            response = ctx.run(f"roll {self.expr}")
            if not response["ok"]:
                ctx.notify(response["message"])
        elif key == "press":
            roll = last_roll(ctx)
            if roll is None:
                ctx.notify("Roll first, then pick dice to re-roll.")
            else:
                self.picking, self.pick, self.chosen = True, 0, set()
        elif key in ("key3", "a:hold"):
            ctx.push(roll_history(ctx))
        elif key == "b":
            ctx.pop()

    def _pick_key(self, key: str, ctx: Ctx) -> None:
        roll = last_roll(ctx)
        n = len(roll["dice"]) if roll else 0
        if key == "left":
            self.pick = max(0, self.pick - 1)
        elif key == "right":
            self.pick = min(max(0, min(n, 10) - 1), self.pick + 1)
        elif key in ("up", "down", "press"):
            self.chosen ^= {self.pick}
        elif key == "a":
            if not self.chosen:
                ctx.notify("Press on a die to choose it, then A to re-roll; B cancels.")
                return
            positions = ",".join(str(i + 1) for i in sorted(self.chosen))
            response = ctx.run(f"reroll {positions}")
            if not response["ok"]:
                ctx.notify(response["message"])
            self.picking, self.chosen = False, set()
        elif key in BACK:
            self.picking, self.chosen = False, set()


def roll_history(ctx: Ctx) -> TextScreen:
    rolls = ctx.run("rolls 50").get("rolls") or []
    rows = []
    for r in reversed(rolls):
        mark = "re " if "previous" in r else ""
        rows.append(f"{mark}{r['expr']}={r['total']}: {' '.join(map(str, r['dice']))}")
    return TextScreen("Roll history", rows or ["No rolls yet."])


class PresetScreen(ListScreen):
    """Start a bag or deck from a preset (custom ones: console 'new bag items=...')."""

    title = "New bag / deck"

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(label, lambda c, o=opts, l=label: self._start(c, o, l)) for label, opts in PRESETS]

    def _start(self, ctx: Ctx, opts: str, label: str) -> None:
        base.start_game(ctx, f"new bag {opts}", KitScreen, title="New bag?")


class KitScreen(ListScreen):
    """The current bag and/or deck."""

    title = "Bag & deck"

    def items(self, ctx: Ctx) -> list[Item]:
        view = ctx.view() or {}
        out: list[Item] = []
        bag = view.get("bag")
        deck = view.get("deck")
        if bag is not None:
            out.append(Item("Draw from bag", lambda c: self._do(c, "draw", "drawn", "Take out"), f"{bag['size']} in"))
            if bag["drawn"]:
                out.append(Item("Put back...", lambda c: c.push(PickScreen("Put back", sorted(set(bag["drawn"])), "put"))))
            out.append(Item("Bag contents", lambda c: c.push(TextScreen("In the bag", [f"{k}: {v}" for k, v in bag["left"].items() if v] or ["empty"]))))
        if deck is not None:
            out.append(Item("Draw card", lambda c: self._do(c, "card", "cards", "Card"), f"{deck['draw_pile']} left"))
            if deck["hand"]:
                out.append(Item("Discard...", lambda c: c.push(PickScreen("Discard", list(deck["hand"]), "discard"))))
            out.append(Item("Shuffle deck", lambda c: self._simple(c, "shuffle")))
            out.append(Item("Reshuffle discards", lambda c: self._simple(c, "reshuffle"), str(len(deck["discard"]))))
        out.append(Item("History", lambda c: c.push(kit_history(c))))
        out.append(Item("New bag / deck", lambda c: c.push(PresetScreen())))
        return out

    @staticmethod
    def _do(ctx: Ctx, command: str, field: str, label: str) -> None:
        response = ctx.run(command)
        if response["ok"]:
            ctx.push(ResultScreen(label, ", ".join(response[field])))
        else:
            ctx.notify(response["message"])

    @staticmethod
    def _simple(ctx: Ctx, command: str) -> None:
        response = ctx.run(command)
        ctx.notify("Done." if response["ok"] else response["message"])


class PickScreen(ListScreen):
    """Choose one name, then run ``<command> <name>``."""

    def __init__(self, title: str, names: list[str], command: str) -> None:
        super().__init__()
        self.title = title
        self.names = names
        self.command = command

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(n, lambda c, n=n: self._pick(c, n)) for n in self.names]

    def _pick(self, ctx: Ctx, name: str) -> None:
        response = ctx.run(f"{self.command} {name}")
        ctx.pop()
        if not response["ok"]:
            ctx.notify(response["message"])


class ResultScreen:
    """A drawn item in big letters (only the person holding the device should look)."""

    def __init__(self, label: str, value: str) -> None:
        self.title = label
        self.value = value

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, "A ok")
        scale = 3 if base.big_width(self.value, 3) <= base.W - 4 else 2
        if base.big_width(self.value, scale) <= base.W - 4:
            w = base.big_width(self.value, scale)
            base.big(img, (base.W - w) // 2, base.TITLE_H + 8, self.value, scale)
        else:
            base.lines(draw, base.wrap(self.value), 1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("a", "b", "left", "press", "right"):
            ctx.pop()


def kit_history(ctx: Ctx) -> TextScreen:
    view = ctx.view() or {}
    rows: list[str] = []
    for source, label in (("bag", "bag"), ("deck", "deck")):
        part = view.get(source)
        if not part:
            continue
        for event in part["history"]:
            (kind, what), = event.items()
            what_s = ", ".join(what) if isinstance(what, list) else str(what)
            rows.append(f"{label} {kind}: {what_s}")
    return TextScreen("History", list(reversed(rows)) or ["Nothing yet."])
