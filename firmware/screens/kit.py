"""Dice & bags: the dice roller (NdS±M, re-roll chosen dice), bags and decks (presets or your own
contents), their histories.

Beside a running game (any session but a ``bag`` one) the bag and deck are the session's side kit
(``kit …`` commands, engine/kit.py): journaled and undone with the game, which goes on. Without a
session a ``bag`` session is started. Dice always roll in the current session (``roll``).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine.names import check_name
from engine.text import N_
from firmware.i18n import _, language, ngettext
from firmware.screens import base, play
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Intent, Item, ListScreen, TextScreen, figure, intent, scroll_bar

SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100)
MAX_TYPED = 16          # a name typed on the device (fits a row with its count)


# -- where the bag lives -------------------------------------------------------------------------
def side_mode(ctx: Ctx) -> bool:
    """True when a session of another game runs: the bag goes beside it (``kit …``)."""
    view = ctx.view()
    return view is not None and view["game"] != "bag"


def holder(ctx: Ctx, side: bool) -> dict[str, Any]:
    """The bag/deck shown: the side kit's or the bag session's (``bag``/``deck`` keys)."""
    if side:
        return ctx.run("kit-state").get("kit") or {}
    view = ctx.view()
    # another game may have been started meanwhile (e.g. from the console): its "bag" is not ours
    return view if view is not None and view["game"] == "bag" else {}


def open_dice(ctx: Ctx) -> None:
    """Roll within the current session (journaled, undoable); start a dice session if none."""
    if ctx.view() is None:
        ctx.run("new dice")
    screen = DiceScreen()
    screen.like(last_roll(ctx))
    ctx.push(screen)


def open_kit(ctx: Ctx) -> None:
    side = side_mode(ctx)
    h = holder(ctx, side)
    if h.get("bag") is not None or h.get("deck") is not None:
        ctx.push(KitScreen(side))
    else:
        ctx.push(PresetScreen(side))


def last_roll(ctx: Ctx) -> dict[str, Any] | None:
    response = ctx.run("rolls 1")
    rolls = response.get("rolls") or []
    return rolls[-1] if rolls else None


# -- dice ----------------------------------------------------------------------------------------
def _dice_layout(dice: list[int], width: int) -> tuple[str, list[tuple[int, int, int, int]]]:
    """Font kind and one box (x, y, w, h) per die shown, left to right within ``width`` px:
    large digits in one row if they all fit, else body digits over two rows (as many as fit).
    Boxes keep 4 px apart so the re-roll cursor's outer frame fits between them."""
    boxes: list[tuple[int, int, int, int]] = []
    x = 2
    for d in dice:
        w = len(str(d)) * 8 + 4
        if x + w + 2 > width:
            break
        boxes.append((x, base.row_y(1) + 2, w, 19))
        x += w + 4
    if len(boxes) == len(dice):
        return "large", boxes
    boxes, x, row = [], 2, 0
    for d in dice:
        w = len(str(d)) * 6 + 4
        if x + w + 2 > width - (14 if row == 1 else 0):     # room for "+N" at the end of row 2
            if row == 1:
                break
            row, x = 1, 2
        boxes.append((x, base.row_y(1) + 1 + row * 12, w, 10))
        x += w + 4
    return "body", boxes


class DiceScreen:
    """Set NdS±M with the joystick (left/right choose the field, up/down change it), A rolls.
    Press picks dice to re-roll (a frame and a mark show the die under the cursor; chosen dice are
    filled), A re-rolls them. Key3 or hold A: the past rolls."""

    def __init__(self) -> None:
        self.count = 2
        self.sides = SIDES.index(6)
        self.mod = 0
        self.field = 0            # 0 count, 1 sides, 2 modifier
        self.picking = False
        self.pick = 0
        self.chosen: set[int] = set()

    title = Said(N_("Dice"))

    def like(self, roll: dict[str, Any] | None) -> None:
        """Start from the expression of ``roll`` (the session's last), if the fields can show it."""
        if roll is None:
            return
        n, sides, mod = len(roll.get("dice", [])), roll.get("sides"), roll.get("mod", 0)
        if 1 <= n <= 20 and sides in SIDES and isinstance(mod, int) and -20 <= mod <= 20:
            self.count, self.sides, self.mod = n, SIDES.index(sides), mod

    @property
    def expr(self) -> str:
        return f"{self.count}d{SIDES[self.sides]}" + (f"{self.mod:+d}" if self.mod else "")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        roll = last_roll(ctx)
        if self.picking:
            base.title_bar(draw, _("Re-roll which?"))
        else:
            base.title_bar(draw, _("Dice"), _("A: roll"))
        parts = [str(self.count), f"d{SIDES[self.sides]}", f"{self.mod:+d}"]
        x = 2
        for i, part in enumerate(parts):
            base.text(draw, x, base.row_y(0), part, invert=(i == self.field and not self.picking))
            x += len(part) * base.CHAR_W + 4
        if roll is None:
            base.text(draw, 1, base.row_y(1) + 6, base.clip(_("A rolls the dice.")))
            base.text(draw, 1, base.row_y(3), base.clip(_("↑↓ change  ←→ move")))
            return img
        total = str(roll["total"])
        tw = base.big_width(total, 2)
        base.big(img, base.W - tw - 1, base.row_y(1), total, 2)
        if not self.picking and roll["expr"] != self.expr:
            shown = base.clip(roll["expr"], 8)
            base.text(draw, base.W - len(shown) * base.CHAR_W - 1, base.row_y(0), shown)
        dice = roll["dice"]
        kind, boxes = _dice_layout(dice, base.W - tw - 6)
        for i, (bx, by, bw, bh) in enumerate(boxes):
            chosen = self.picking and i in self.chosen        # chosen: a filled box
            draw.rectangle((bx, by, bx + bw - 1, by + bh - 1), fill=1 if chosen else 0, outline=1)
            if self.picking and i == self.pick:                # the cursor: a second frame around
                draw.rectangle((bx - 2, by - 2, bx + bw + 1, by + bh + 1), outline=1)
            dy = 1 if kind == "large" else -1
            base.put(draw, bx + 2, by + dy, str(dice[i]), fill=0 if chosen else 1, kind=kind)
        if len(boxes) < len(dice):
            more = f"+{len(dice) - len(boxes)}"
            bx, by, bw, bh = boxes[-1] if boxes else (0, base.row_y(1), 0, base.LINE)
            base.put(draw, bx + bw + 1, by, more)
        base.text(draw, 1, base.row_y(3), base.clip(self._hint(roll)))
        return img

    def _hint(self, roll: dict[str, Any]) -> str:
        if self.picking:
            if self.chosen:
                n = len(self.chosen)
                return ngettext("A: re-roll {} die", "A: re-roll {} dice", n).format(n)
            return _("press: pick a die")
        if roll.get("rerolled"):
            return _("Re-rolled: {}").format(", ".join(map(str, roll["rerolled"])))
        return _("press: re-roll some")

    def _shown_dice(self, ctx: Ctx) -> int:
        roll = last_roll(ctx)
        if roll is None:
            return 0
        tw = base.big_width(str(roll["total"]), 2)
        return len(_dice_layout(roll["dice"], base.W - tw - 6)[1])

    def key(self, key: str, ctx: Ctx) -> None:
        if self.picking:
            self._pick_key(key, ctx)
            return
        what = intent("roller", key)
        if what is Intent.LEFTWARD:
            if self.field == 0:
                ctx.pop()
            else:
                self.field -= 1
        elif what is Intent.RIGHTWARD:
            self.field = min(2, self.field + 1)
        elif what in (Intent.MORE_ONE, Intent.LESS_ONE):
            step = 1 if what is Intent.MORE_ONE else -1
            if self.field == 0:
                self.count = max(1, min(20, self.count + step))
            elif self.field == 1:
                self.sides = max(0, min(len(SIDES) - 1, self.sides + step))
            else:
                self.mod = max(-20, min(20, self.mod + step))
        elif what is Intent.GO:
            play.run_or_notify(ctx, f"roll {self.expr}")
        elif what is Intent.PICK:
            if last_roll(ctx) is None:
                ctx.notify(_("Roll first, then pick the dice to roll again."))
            else:
                self.picking, self.pick, self.chosen = True, 0, set()
        elif what is Intent.SECOND:
            ctx.push(roll_history(ctx))
        elif what is Intent.BACK:
            ctx.pop()

    def _pick_key(self, key: str, ctx: Ctx) -> None:
        n = self._shown_dice(ctx)
        what = intent("pick", key)
        if what is Intent.LEFTWARD:
            self.pick = max(0, self.pick - 1)
        elif what is Intent.RIGHTWARD:
            self.pick = min(max(0, n - 1), self.pick + 1)
        elif what is Intent.TOGGLE:
            self.chosen ^= {self.pick}
        elif what is Intent.GO:
            if not self.chosen:
                ctx.notify(_("Press on a die to choose it, then A to roll it again; B cancels."))
                return
            positions = ",".join(str(i + 1) for i in sorted(self.chosen))
            play.run_or_notify(ctx, f"reroll {positions}")
            self.picking, self.chosen = False, set()
        elif what is Intent.BACK:
            self.picking, self.chosen = False, set()


def roll_history(ctx: Ctx) -> TextScreen:
    rolls = ctx.run("rolls 50").get("rolls") or []
    rows = []
    for r in reversed(rolls):
        faces = " ".join(map(str, r["dice"]))
        if "previous" in r:
            rows.append(_("{} = {} ({}), re-rolled {}").format(
                r["expr"], r["total"], faces, ", ".join(map(str, r.get("rerolled", [])))))
        else:
            rows.append(_("{} = {} ({})").format(r["expr"], r["total"], faces))
    return TextScreen(_("Past rolls"), rows or [_("No rolls yet.")])


# -- presets and your own contents ---------------------------------------------------------------
Pairs = list[tuple[str, int]]


def _metals() -> Pairs:
    return [(_("gold"), 3), (_("silver"), 3), (_("bronze"), 3)]


def _white_black() -> Pairs:
    return [(_("white"), 5), (_("black"), 5)]


def _numbers(n: int) -> Pairs:
    return [(str(i), 1) for i in range(1, n + 1)]


def _caesar_tokens() -> Pairs:
    out = [(f"{_(icon)}{a}/{b}", 1) for icon in (N_("sword"), N_("shield"), N_("ship"))
           for a, b in ((6, 0), (5, 1), (4, 2), (3, 3))]
    wild = _("wild")
    return out + [(f"{wild}4/0", 1), (f"{wild}3/1", 1), (f"{wild}2/2", 2)]


def _playing_cards() -> Pairs:
    #. note: the card ranks ace, jack, queen, king, comma-separated
    ranks = _("A,J,Q,K").split(",")
    ace, face = ranks[0], ranks[1:4]
    names = [ace] + [str(i) for i in range(2, 11)] + face
    return [(f"{r}{s}", 1) for s in "♠♥♦♣" for r in names]


# label, "items" (a bag) or "cards" (a deck), contents in the current language
PRESETS: tuple[tuple[str, str, Callable[[], Pairs]], ...] = (
    (N_("Gold, silver, bronze"), "items", _metals),
    (N_("5 white, 5 black"), "items", _white_black),
    (N_("Numbers 1 to 12"), "items", lambda: _numbers(12)),
    (N_("Caesar! tokens"), "items", _caesar_tokens),
    (N_("Playing cards"), "cards", _playing_cards),
    (N_("Cards 1 to 20"), "cards", lambda: _numbers(20)),
)

COMMON_NAMES = (N_("gold"), N_("silver"), N_("bronze"), N_("white"), N_("black"), N_("red"),
                N_("blue"), N_("green"), N_("yellow"), N_("cube"), N_("disc"), N_("coin"),
                N_("token"), N_("blank"))


def begin(ctx: Ctx, kind: str, pairs: Pairs, side: bool, pops: int = 0) -> None:
    """Start the bag (``kind`` items) or deck (cards) of ``pairs`` and show it in place of the
    screen ``pops`` levels under the top."""
    spec = ",".join(f"{name}*{n}" if n > 1 else name for name, n in pairs if n > 0)
    line = f"kit new {kind}={spec}" if side else f"new bag {kind}={spec}"
    if play.run_or_notify(ctx, line) is None:
        return
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

    def __init__(self, side: bool = False) -> None:
        super().__init__()
        self.side = side
        self.title = N_("Bag beside the game") if side else N_("New bag or deck")

    def items(self, ctx: Ctx) -> list[Item]:
        out = [Item(_("Your own bag…"), partial(self._edit, "items")),
               Item(_("Your own deck…"), partial(self._edit, "cards"))]
        for label, kind, pairs in PRESETS:
            out.append(Item(_(label), partial(self._begin, kind, pairs)))
        return out

    def _edit(self, kind: str, ctx: Ctx) -> None:
        ctx.push(BagEditor(kind, self.side))

    def _begin(self, kind: str, pairs: Callable[[], Pairs], ctx: Ctx) -> None:
        begin(ctx, kind, pairs(), self.side)


class BagEditor(ListScreen):
    """Your own bag or deck: one row per item (left/right change its count, shown ‹3› on the
    cursor row), "Add an item…" (a list of common names, or type one), "Start". B goes back."""

    title = Said("")

    def __init__(self, kind: str = "items", side: bool = False) -> None:
        super().__init__()
        self.kind = kind
        self.side = side
        self.entries: list[list[Any]] = []       # [name, count]
        self.title = N_("Your own bag") if kind == "items" else N_("Your own deck")

    def status(self, ctx: Ctx) -> str:
        total = sum(n for _name, n in self.entries)
        return str(total) if total else ""

    def items(self, ctx: Ctx | None = None) -> list[Item]:
        out = []
        for i, (name, n) in enumerate(self.entries):
            out.append(Item(name, None, figure(n) if i == self.cursor else f"×{n}", ident=f"entry:{i}",
                            adjust=partial(self._count, i=i)))
        out.append(Item(_("Add an item…"), lambda c: c.push(NamePicker(self)), ident="add"))
        out.append(Item(_("Start"), self.start, ident="start"))
        return out

    def _count(self, ctx: Ctx, by: int, i: int) -> None:
        entry = self.entries[i]
        entry[1] = max(0, min(99, entry[1] + by))

    def add(self, name: str) -> None:
        """Add one ``name`` (or one more of it) and put the cursor on it."""
        for i, entry in enumerate(self.entries):
            if entry[0] == name:
                entry[1] = min(99, entry[1] + 1)
                self.cursor, self.current = i, f"entry:{i}"
                return
        self.entries.append([name, 1])
        self.cursor = len(self.entries) - 1
        self.current = f"entry:{self.cursor}"

    def start(self, ctx: Ctx) -> None:
        pairs = [(name, n) for name, n in self.entries if n > 0]
        if not pairs:
            ctx.notify(_("Add at least one item first."))
            return
        begin(ctx, self.kind, pairs, self.side, pops=1)


class NamePicker(ListScreen):
    """A name for the editor: type one, or pick a common one (in the current language)."""

    def __init__(self, editor: BagEditor) -> None:
        super().__init__()
        self.editor = editor

    title = Said(N_("Add an item"))

    def items(self, ctx: Ctx) -> list[Item]:
        out = [Item(_("Type a name…"), lambda c: c.replace(TypeScreen(self._typed)))]
        for word in COMMON_NAMES:
            out.append(Item(_(word), partial(self._pick_word, word)))
        return out

    def _pick_word(self, word: str, ctx: Ctx) -> None:
        self.editor.add(_(word))
        ctx.pop()

    def _typed(self, ctx: Ctx, name: str) -> None:
        self.editor.add(name)


# the letters of each language's keyboard (lower case; ↑ switches case)
ALPHABETS = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "uk": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя'",
}
SHIFT, DELETE, DONE = "↑", "←", "✓"


def keyboard(lang: str) -> list[list[str]]:
    """Rows of at most 21 cells: the language's letters first (the first row ends with
    shift, delete and done, one step left of its first cell), digits, - . and the other script."""
    letters = ALPHABETS.get(lang, ALPHABETS["en"])
    other = ALPHABETS["en"] if lang != "en" else ""
    cells = list(letters) + list("0123456789") + list("-.") + list(other)
    rows = [cells[:18] + [SHIFT, DELETE, DONE]]
    rest = cells[18:]
    while rest:
        rows.append(rest[:base.COLS])
        rest = rest[base.COLS:]
    return rows


class TypeScreen:
    """Type a name with a keyboard grid: the joystick moves (left/right wrap within a row, so ✓
    is one step left of the first letter), A or press types the cell: ↑ switches case, ← deletes,
    ✓ finishes; hold A also finishes. B goes back without a name."""

    def __init__(self, on_done: Callable[[Ctx, str], None]) -> None:
        self.on_done = on_done
        self.name = ""
        self.row = 0
        self.col = 0
        self.top = 0
        self.upper = False

    title = Said(N_("Type a name"))

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, f"{len(self.name)}/{MAX_TYPED}")
        base.text(draw, 1, base.row_y(0), self.name + "_")
        draw.line((0, base.row_y(1) - 1, base.W - 1, base.row_y(1) - 1), fill=1)
        rows = keyboard(language())
        for i in range(base.ROWS - 1):
            r = self.top + i
            if r >= len(rows):
                break
            y = base.row_y(1 + i)
            for c, cell in enumerate(rows[r]):
                shown = cell.upper() if self.upper and len(cell) == 1 and cell.isalpha() else cell
                x = c * base.CHAR_W + 1
                if (r, c) == (self.row, self.col):
                    draw.rectangle((x - 1, y, x + base.CHAR_W - 1, y + base.LINE - 1), fill=1)
                base.put(draw, x, y, shown, fill=0 if (r, c) == (self.row, self.col) else 1)
        scroll_bar(draw, self.top, base.ROWS - 1, len(rows), base.row_y(1), base.H - base.row_y(1))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        rows = keyboard(language())
        what = intent("grid", key)
        if what in (Intent.PREV, Intent.NEXT):
            self.row = (self.row + (1 if what is Intent.NEXT else -1)) % len(rows)
            self.col = min(self.col, len(rows[self.row]) - 1)
            if self.row < self.top:
                self.top = self.row
            elif self.row >= self.top + base.ROWS - 1:
                self.top = self.row - base.ROWS + 2
        elif what in (Intent.LEFTWARD, Intent.RIGHTWARD):
            self.col = (self.col + (1 if what is Intent.RIGHTWARD else -1)) % len(rows[self.row])
        elif what is Intent.SELECT:
            self._type(rows[self.row][self.col], ctx)
        elif what is Intent.SECOND:
            self._done(ctx)
        elif what is Intent.BACK:
            ctx.pop()

    def _type(self, cell: str, ctx: Ctx) -> None:
        if cell == SHIFT:
            self.upper = not self.upper
        elif cell == DELETE:
            self.name = self.name[:-1]
        elif cell == DONE:
            self._done(ctx)
        elif len(self.name) >= MAX_TYPED:
            ctx.notify(_("At most {} characters.").format(MAX_TYPED))
        else:
            self.name += cell.upper() if self.upper else cell

    def _done(self, ctx: Ctx) -> None:
        from engine.errors import LegatusError
        from firmware.i18n import say
        try:
            name = check_name(self.name.strip(), MAX_TYPED, spaces=False)
        except LegatusError as e:
            ctx.notify(say(e.message))
            return
        ctx.pop()
        self.on_done(ctx, name)


# -- the bag and deck ----------------------------------------------------------------------------
class KitScreen(ListScreen):
    """The current bag and/or deck (the session's own, or beside a running game). The cursor
    stays on the same action when rows appear or go (by label, not by position)."""

    title = Said("")

    def __init__(self, side: bool = False) -> None:
        super().__init__()
        self.side = side
        self.title = N_("Bag beside the game") if side else N_("Bag & deck")

    @property
    def prefix(self) -> str:
        return "kit " if self.side else ""

    def items(self, ctx: Ctx) -> list[Item]:
        h = holder(ctx, self.side)
        out: list[Item] = []
        bag = h.get("bag")
        deck = h.get("deck")
        if bag is not None:
            out.append(Item(_("Draw"), lambda c: self._draw(c, "draw", "drawn", _("From the bag")),
                            _("{} in bag").format(bag["size"])))
            if bag["drawn"]:
                out.append(Item(_("Put back…"), lambda c: c.push(
                    PickScreen(_("Put back"), sorted(set(bag["drawn"])), self.prefix + "put"))))
            out.append(Item(_("In the bag"), lambda c: c.push(contents_screen(bag))))
        if deck is not None:
            out.append(Item(_("Draw a card"), lambda c: self._draw(c, "card", "cards", _("Card")),
                            _("{} left").format(deck["draw_pile"])))
            if deck["hand"]:
                out.append(Item(_("Discard…"), lambda c: c.push(
                    PickScreen(_("Discard"), list(dict.fromkeys(deck["hand"])), self.prefix + "discard"))))
            out.append(Item(_("Shuffle the deck"), lambda c: self._simple(c, "shuffle")))
            if deck["discard"]:
                out.append(Item(_("Discards back in"), lambda c: self._simple(c, "reshuffle"),
                                str(len(deck["discard"]))))
        out.append(Item(_("History"), lambda c: c.push(kit_history(h))))
        out.append(Item(_("New bag or deck"), lambda c: c.push(PresetScreen(self.side))))
        return out

    def _draw(self, ctx: Ctx, command: str, field: str, label: str) -> None:
        response = play.run_or_notify(ctx, self.prefix + command)
        if response is not None:
            ctx.push(ResultScreen(label, ", ".join(response[field])))

    def _simple(self, ctx: Ctx, command: str) -> None:
        response = play.run_or_notify(ctx, self.prefix + command)
        if response is not None:
            ctx.notify(_("Shuffled."))


def contents_screen(bag: dict[str, Any]) -> TextScreen:
    rows = [f"{name} ×{n}" for name, n in bag["left"].items() if n]
    return TextScreen(_("In the bag"), rows or [_("The bag is empty.")])


class PickScreen(ListScreen):
    """Choose one name, then run ``<command> <name>``."""

    def __init__(self, title: str, names: list[str], command: str) -> None:
        super().__init__()
        self.title = title
        self.names = names
        self.command = command

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(n, partial(self._pick, n)) for n in self.names]

    def _pick(self, name: str, ctx: Ctx) -> None:
        ctx.pop()
        play.run_or_notify(ctx, f"{self.command} {name}")


class ResultScreen:
    """A drawn item in big letters (only the person holding the device should look)."""

    def __init__(self, label: str, value: str) -> None:
        self.title = label
        self.value = value

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, _("A: ok"))
        for scale in (3, 2):
            w = base.big_width(self.value, scale)
            if w <= base.W - 4:
                base.big(img, (base.W - w) // 2, base.TITLE_H + (6 if scale == 3 else 12), self.value, scale)
                return img
        kind = "large" if len(self.value) * base.advance("large") <= base.W - 4 else "body"
        if kind == "large":
            w = len(self.value) * base.advance("large")
            base.put(draw, (base.W - w) // 2, base.TITLE_H + 16, self.value, kind="large")
        else:
            base.lines(draw, base.wrap(self.value))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("text", key) in (Intent.BACK, Intent.CLOSE):
            ctx.pop()


def kit_history(h: dict[str, Any]) -> TextScreen:
    """Every draw, put-back, discard and shuffle of the bag and deck, newest first."""
    rows: list[str] = []
    for source in ("bag", "deck"):
        part = h.get(source)
        if not part:
            continue
        for event in part["history"]:
            ((kind, what),) = event.items()
            what_s = ", ".join(what) if isinstance(what, list) else str(what)
            if source == "bag":
                text = {"draw": _("Bag: drew {}"), "put": _("Bag: put back {}")}.get(kind, "{}")
            else:
                text = {"draw": _("Deck: drew {}"), "discard": _("Deck: discarded {}"),
                        "shuffle": _("Deck: shuffled, {} cards"),
                        "reshuffle": _("Deck: discards back in, {} cards")}.get(kind, "{}")
            rows.append(text.format(what_s))
    return TextScreen(_("History"), list(reversed(rows)) or [_("Nothing yet.")])
