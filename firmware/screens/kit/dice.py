"""Dice & bags: the dice roller (NdS±M set with the joystick, A rolls, press picks dice to roll
again; hold A: the past rolls). Dice always roll in the current session (``roll``)."""
from __future__ import annotations

from typing import cast

from PIL import Image

from engine import actions as act
from engine.kit_views import KitView
from engine.replies import RollRecord
from engine.text import N_
from firmware.i18n import Msg, _, ngettext
from firmware.screens import base, play
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.kit import ended
from firmware.screens.kit.record import DICE
from firmware.screens.widgets import Intent, TextScreen, intent
from firmware.screens.widgets.figure import Field, change
from firmware.screens.widgets.keys import repeated

SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100)
COUNT = (1, 20)              # the dice a roll may throw, and its modifier: the roller's limits
MOD = (-20, 20)


def open_dice(ctx: Ctx) -> None:
    """Roll within the current session (journaled, undoable); start a dice session if none."""
    if ctx.view() is None:
        started = ctx.run(act.new_dice())
        if not started["ok"]:             # a full or read-only card: say so, open nothing
            ctx.notify(started["message"])
            return
    screen = DiceScreen()
    screen.like(last_roll(ctx))
    ctx.push(screen)


def open_dice_tool(ctx: Ctx) -> None:
    """Dice & bags → Dice: as :func:`open_dice`, but a session that is over (the players ended it,
    or asked for its seed, or its rules ended it: C-12, W-11 …) gives way to a new dice session: it
    rolls no more, every A was refused as "game over", and Dice is not in Games to start another.
    (Resume still shows the ended one; a game its rules ended stays in Earlier games.)"""
    view = ctx.view()
    note = play.replaced_note(view)
    if note is not None and view is not None:     # its rules ended it, the players did not: ask first
        ctx.push(remade(lambda: play.ReplaceQuestion(_("Dice"), f"{play.replaced_note(view)} {_('Roll dice?')}",
                                             _new_dice, view)))
    elif view is not None and view["ended"]:
        _new_dice(ctx)
    else:
        open_dice(ctx)


def _new_dice(ctx: Ctx) -> None:
    """A new dice session in place of one that rolls no more, then the dice."""
    started = ctx.run(act.new_dice())
    if not started["ok"]:                 # a full or read-only card: say so, open nothing
        ctx.notify(started["message"])
        return
    open_dice(ctx)


def kept_rolls(ctx: Ctx, n: int) -> list[RollRecord]:
    """The session's last ``n`` rolls, newest last. A session that has ended answers no ``rolls``
    (game over): its state still keeps them, and the roller resumed on it shows them (it showed
    none, «A rolls the dice.», and Past rolls «No rolls yet.» of a session that had rolled)."""
    response = ctx.run(act.rolls(n))
    if response.get("ok"):
        return list(response.get("rolls") or [])
    view = ctx.view()
    if view is None or view["game"] not in DICE.sessions:
        return []
    return cast(list[RollRecord], list(cast(KitView, view).get("rolls") or [])[-n:])     # the same records


def last_roll(ctx: Ctx) -> RollRecord | None:
    rolls = kept_rolls(ctx, 1)
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
    filled), A re-rolls them; B, or left on the first die, leaves the picking. Key3 or hold A: the
    past rolls."""

    second_action = True           # hold A (KEY3): the past rolls

    def __init__(self) -> None:
        self.count = 2
        self.sides = SIDES.index(6)
        self.mod = 0
        self.field = 0            # 0 count, 1 sides, 2 modifier
        self.picking = False
        self.pick = 0
        self.chosen: set[int] = set()
        self.picked_in: RollRecord | None = None     # the roll whose dice are being picked

    title = Said(N_("Dice"))

    def like(self, roll: RollRecord | None) -> None:
        """Start from the expression of ``roll`` (the session's last), if the fields can show it."""
        if roll is None:
            return
        n, sides, mod = len(roll.get("dice", [])), roll.get("sides"), roll.get("mod", 0)
        if COUNT[0] <= n <= COUNT[1] and sides in SIDES and isinstance(mod, int) and MOD[0] <= mod <= MOD[1]:
            self.count, self.sides, self.mod = n, SIDES.index(sides), mod

    def fields(self) -> list[Field]:
        """The count, the die (a choice, d2…d100: its end says nothing) and the modifier as the
        form widget's fields (each key the attribute it is), checked at their limits as a form's."""
        return [Field("count", N_("Dice"), self.count, *COUNT),
                Field("sides", "", self.sides, 0, len(SIDES) - 1, show=lambda i: f"d{SIDES[i]}"),
                Field("mod", N_("Modifier"), self.mod, *MOD, show=lambda v: f"{v:+d}")]

    @property
    def expr(self) -> str:
        return f"{self.count}d{SIDES[self.sides]}" + (f"{self.mod:+d}" if self.mod else "")

    def follow(self, roll: RollRecord | None) -> None:
        """Leave the picking once the roll picked in is no longer the last (an undo took it back,
        the serial link rolled meanwhile): the picks were of dice that are gone."""
        if self.picking and roll != self.picked_in:
            self.picking, self.chosen = False, set()

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        roll = last_roll(ctx)
        self.follow(roll)
        over = ended.draws_no_more(ctx.view())      # resumed after its end: it rolls no more
        if self.picking:
            base.title_bar(draw, _("Re-roll which?"))
        else:
            base.title_bar(draw, _("Dice"), _("Ended") if over else _("A: roll"))
        parts = [str(self.count), f"d{SIDES[self.sides]}", f"{self.mod:+d}"]
        x = 2
        for i, part in enumerate(parts):
            base.text(draw, x, base.row_y(0), part, invert=(i == self.field and not self.picking))
            x += len(part) * base.CHAR_W + 4
        if roll is None:
            base.text(draw, 1, base.row_y(1) + 6, base.clip(_("No more rolls here.") if over else _("A rolls the dice.")))
            if not over:
                base.text(draw, 1, base.row_y(3), base.clip(_("↑↓ change  ←→ move")))
            return img
        total = str(roll["total"])
        tw = base.big_width(total, 2)
        base.big(img, base.W - tw - 1, base.row_y(1), total, 2)
        hint = _("No more rolls here.") if over and not self.picking else self._hint(roll)
        if not self.picking and roll["expr"] != self.expr:      # what was rolled, whole: beside the
            shown = str(roll["expr"])                             # fields, else on the hint row
            if x + len(shown) * base.CHAR_W <= base.W - 1:
                base.text(draw, base.W - len(shown) * base.CHAR_W - 1, base.row_y(0), shown)
            else:
                hint = shown
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
        base.text(draw, 1, base.row_y(3), base.clip(hint))
        return img

    def _hint(self, roll: RollRecord) -> str:
        if self.picking:
            if self.chosen:
                n = len(self.chosen)
                return ngettext("A: re-roll {} die", "A: re-roll {} dice", n).format(n)
            return _("press: pick a die")
        if roll.get("rerolled"):          # which dice (their places, 1-based), named as dice: «Re-rolled
            n = len(roll["rerolled"])     # die 2», «Переброс кубиков 2, 4», «Перекинуто кубики 2,4»
            said = ngettext("Re-rolled die {}", "Re-rolled dice {}", n)
            for sep in (", ", ","):
                shown = said.format(sep.join(map(str, roll["rerolled"])))
                if len(shown) <= base.COLS:
                    return shown
            return ngettext("Re-rolled {} die", "Re-rolled {} dice", n).format(n)   # too many to list: how many
        return _("press: re-roll some")

    def _shown_dice(self, ctx: Ctx) -> int:
        roll = last_roll(ctx)
        if roll is None:
            return 0
        tw = base.big_width(str(roll["total"]), 2)
        return len(_dice_layout(roll["dice"], base.W - tw - 6)[1])

    def key(self, key: str, ctx: Ctx) -> None:
        if self.picking:
            self.follow(last_roll(ctx))
        if self.picking:
            self._pick_key(key, ctx)
            return
        what = intent("roller", key)
        if what is Intent.LEFTWARD:
            if self.field == 0:
                if not repeated(key):                  # held left stops at the first field
                    ctx.pop()
            else:
                self.field -= 1
        elif what is Intent.RIGHTWARD:
            self.field = min(2, self.field + 1)
        elif what in (Intent.MORE_ONE, Intent.LESS_ONE):
            field = self.fields()[self.field]
            if change(ctx, field, 1 if what is Intent.MORE_ONE else -1):     # at its limit: said, as on a form
                setattr(self, field.key, field.value)
        elif what is Intent.GO:
            ended.run(ctx, act.roll(self.count, SIDES[self.sides], self.mod), "dice")
        elif what is Intent.PICK:
            roll = last_roll(ctx)
            if ended.draws_no_more(ctx.view()):        # its dice are kept, not rolled again
                ctx.notify(ended.over_note(ctx.view(), "dice"))
            elif roll is None:
                ctx.notify(Msg("Roll first, then pick the dice to roll again."))
            else:
                self.picking, self.pick, self.chosen, self.picked_in = True, 0, set(), roll
        elif what is Intent.SECOND:
            ctx.push(remade(lambda: roll_history(ctx)))
        elif what is Intent.BACK:
            ctx.pop()

    def _pick_key(self, key: str, ctx: Ctx) -> None:
        n = self._shown_dice(ctx)
        what = intent("pick", key)
        if what is Intent.LEFTWARD and self.pick == 0:
            if not repeated(key):                      # left on the first die goes back, as in every row
                self.picking, self.chosen = False, set()     # of dice (held left stops there); it did nothing
        elif what is Intent.LEFTWARD:
            self.pick = max(0, self.pick - 1)
        elif what is Intent.RIGHTWARD:
            self.pick = min(max(0, n - 1), self.pick + 1)
        elif what is Intent.TOGGLE:
            self.chosen ^= {self.pick}
        elif what is Intent.GO:
            if not self.chosen:
                ctx.notify(Msg("Press on a die to choose it, then A to roll it again; B cancels."))
                return
            ended.run(ctx, act.reroll([i + 1 for i in sorted(self.chosen)]), "dice")
            self.picking, self.chosen = False, set()
        elif what is Intent.BACK:
            self.picking, self.chosen = False, set()


def roll_history(ctx: Ctx) -> TextScreen:
    """The rolls kept, newest first: it goes once a roll is made or taken back."""
    rolls = kept_rolls(ctx, 50)
    rows = []
    for r in reversed(rolls):
        faces = " ".join(map(str, r["dice"]))
        if "previous" in r:               # which dice, named as dice (as the roller's hint says them)
            places = r.get("rerolled", [])
            rows.append(ngettext("{} = {} ({}), re-rolled die {}", "{} = {} ({}), re-rolled dice {}", len(places)).format(
                r["expr"], r["total"], faces, ", ".join(map(str, places))))
        else:
            rows.append(_("{} = {} ({})").format(r["expr"], r["total"], faces))
    return play.Snapshot(play.session_games(ctx), _("Past rolls"), rows or [_("No rolls yet.")])
