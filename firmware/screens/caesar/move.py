"""Caesar!: your move — the province you play toward (yours first, those closest to closing next),
then the tokens that fit there with the closure previewed; the draw after it."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PIL import Image

from engine.actions import Line
from engine.caesar import actions as act
from engine.caesar.board import PROVINCE_INDEX, SPACE_INDEX
from engine.caesar.terms import BONUS_WORDS
from engine.caesar.views import CaesarView
from firmware.i18n import _
from firmware.screens import base
from firmware.screens.caesar.board import MapScreen
from firmware.screens.caesar.icons import draw_icon
from firmware.screens.caesar.pickers import ChoiceScreen
from firmware.screens.caesar.turn import TurnScreen
from firmware.screens.caesar.words import fit, icon_of, influence, legal_moves, me, memory, nums, pn, pn_fit, run_line, tok, view_of, who
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Intent, Item, WrappedListScreen, intent


class ProvincePicker(WrappedListScreen):
    """Your move, step 1: the province you play toward. Provinces where one of your tokens can
    go: the province of your last move first (the cursor remembers it), then those closest to
    closing; each with your and the opponent's influence."""

    def __init__(self, then: Callable[[Ctx], None] | None = None) -> None:
        super().__init__()
        self.placed = False
        self.then = then                      # after the placement: what the table does next
        self.title = _("Where?")


    def status(self, ctx: Ctx) -> str:
        return _("you–him") if view_of(ctx)["mode"] == "solo" else _("you–rival")

    def codes(self, ctx: Ctx) -> list[str]:
        view = view_of(ctx)
        moves = legal_moves(ctx)
        _totals, empty = influence(view)
        seen: set[str] = set()
        for m in moves["moves"] + moves["face_down"]:
            seen.update(m["space"].split("-"))
        last = memory(ctx).get("province")       # your last province on top, where the cursor starts
        return sorted(seen, key=lambda c: (c != last, empty[c], PROVINCE_INDEX[c]))

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        totals, _empty = influence(view)
        mine = list(view["position"]["markers_left"]).index(me(view))
        out = []
        codes = self.codes(ctx)
        for code in codes:
            a, b = totals[code][mine], totals[code][1 - mine]
            out.append(Item(pn(code), partial(self._pick, code=code), f"{a}–{b}"))
        if codes:
            out.append(Item(_("On the map…"), partial(self._on_map, codes=codes)))
        return out

    def _on_map(self, ctx: Ctx, codes: list[str]) -> None:
        def picked(c: Ctx, code: str) -> None:
            if code not in self.codes(c):
                c.notify(_("No token of yours fits here."))
                return
            c.pop()
            self._pick(c, code)
        screen = MapScreen(pick=picked)
        screen.cursor = PROVINCE_INDEX[codes[0]]
        ctx.push(screen)

    def render(self, ctx: Ctx) -> Image.Image:
        if not self.placed:
            self.placed = True
            last = memory(ctx).get("province")
            codes = self.codes(ctx)
            if last in codes:
                self.cursor = codes.index(last)
                self.top = max(0, self.cursor - base.ROWS + 1)
        return super().render(ctx)

    def _pick(self, ctx: Ctx, code: str) -> None:
        memory(ctx)["province"] = code
        ctx.push(OptionScreen(code, self.then))


@dataclass
class Option:
    token: str
    space: str
    here: int
    there: int
    other: str
    face_down: bool = False


class OptionScreen:
    """Your move, step 2: every token and space around the province, the number facing it first
    (highest first); the bottom row previews what the highlighted placement closes and who wins
    it (C-7, C-9). A/right places; left/B back to the provinces."""

    def __init__(self, code: str, then: Callable[[Ctx], None] | None = None) -> None:
        self.code = code
        self.then = then
        self.cursor = 0
        self.top = 0
        self.title = pn(code)

    def options(self, ctx: Ctx) -> list[Option]:
        moves = legal_moves(ctx)
        out: list[Option] = []
        for m in moves["moves"]:
            if self.code not in m["toward"]:
                continue
            other = next(k for k in m["toward"] if k != self.code)
            out.append(Option(m["token"], m["space"], m["toward"][self.code], m["toward"][other], other))
        out.sort(key=lambda o: (-o.here, icon_of(o.token) == "wild", -(o.here + o.there),
                                SPACE_INDEX[o.space]))
        for m in moves["face_down"]:
            a, b = m["space"].split("-")
            if self.code in (a, b):
                out.append(Option(m["token"], m["space"], 0, 0, b if a == self.code else a, face_down=True))
        return out

    def preview(self, view: CaesarView, o: Option) -> list[str]:
        """What the placement closes and who would win each closed province."""
        if o.face_down:
            return base.wrap(_("Face down: no influence; draw a face-down bonus."))
        totals, empty = influence(view)
        names = list(view["position"]["markers_left"])
        mine = names.index(me(view))
        rows = []
        for code, v in ((self.code, o.here), (o.other, o.there)):
            if empty[code] != 1 or code in view["position"]["control"]:
                continue
            a, b = totals[code][mine] + v, totals[code][1 - mine]
            if a > b:
                winner = who(view, names[mine])
            elif b > a:
                winner = who(view, names[1 - mine])
            elif view["mode"] == "solo" and view["rules"].get("crassus-ties") == "all":
                winner = who(view, "crassus")
            else:
                winner = _("nobody")
            rows += base.wrap(_("Closes {}: {} {}–{}").format(pn(code), winner, a, b))
        if rows:
            return rows
        if pn(o.other) not in self.label(o):      # the short form on the row: the name in full here
            return base.wrap(f"{o.there}→{pn(o.other)}")
        return [tok(o.token)]

    ROOM = 19            # characters right of the token's icon

    def label(self, o: Option) -> str:
        """An option's row: ``3 here 3→Mauretania``; a long province name in its short form
        (``3 here 3→Citerior``: the preview then names it in full)."""
        if o.face_down:
            return fit(self.ROOM, _("face down: {}").format(tok(o.token)), _("face down: {}").format(nums(o.token)))
        row = _("{a} here {b}→{other}")
        room = self.ROOM - len(row.format(a=o.here, b=o.there, other=""))
        return row.format(a=o.here, b=o.there, other=pn_fit(o.other, room))

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        view = view_of(ctx)
        opts = self.options(ctx)
        self.cursor = min(self.cursor, max(0, len(opts) - 1))
        count = f"{self.cursor + 1}/{len(opts)}" if opts else ""
        base.title_bar(draw, pn_fit(self.code, base.COLS - len(count) - 1), count)
        if not opts:
            base.lines(draw, base.wrap(_("No token of yours fits here.")))
            return img
        preview = self.preview(view, opts[self.cursor])[:2]
        rows = base.ROWS - len(preview)
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + rows:
            self.top = self.cursor - rows + 1
        for i in range(rows):
            k = self.top + i
            if k >= len(opts):
                break
            o = opts[k]
            y = base.row_y(i)
            sel = k == self.cursor
            if sel:
                draw.rectangle((0, y, base.W - 1, y + base.LINE - 1), fill=1)
            fill = 0 if sel else 1
            draw_icon(draw, 1, y + 1, icon_of(o.token), 10, fill)
            base.put(draw, 13, y, self.label(o), fill=fill)
        y = base.row_y(rows) + 1
        draw.line((0, y - 2, base.W - 1, y - 2), fill=1)
        for i, r in enumerate(preview):
            base.put(draw, 1, y + i * base.LINE - 1, base.clip(r))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        opts = self.options(ctx)
        what = intent("row", key)
        if what in (Intent.PREV, Intent.NEXT) and opts:
            self.cursor = max(0, min(len(opts) - 1, self.cursor + (1 if what is Intent.NEXT else -1)))
        elif what is Intent.SELECT and opts:
            o = opts[min(self.cursor, len(opts) - 1)]
            if o.face_down:
                self._play_down(ctx, o)
            else:
                self._send(ctx, act.play(o.space, icon_of(o.token), o.here, o.there, self.code))
        elif what is Intent.BACK:
            ctx.pop()

    def _play_down(self, ctx: Ctx, o: Option) -> None:
        view = view_of(ctx)
        if view["inputs"]["human_bag"] == "physical" and view.get("bonus_pool_left"):
            pool = sorted(set(view["bonus_pool_left"]))

            def picked(c: Ctx, bonus: str) -> None:
                c.pop()
                self._send(c, act.play_down(o.space, o.token, bonus))
            ctx.push(ChoiceScreen(_("Bonus drawn?"), [(_(BONUS_WORDS.get(b, b)), b, "") for b in pool], picked))
            return
        self._send(ctx, act.play_down(o.space, o.token))

    def _send(self, ctx: Ctx, line: Line) -> None:
        response = run_line(ctx, line)
        if response is None:
            return
        ctx.pop()                                          # the options
        ctx.pop()                                          # the provinces
        steps = [s for s in response["steps"] if s["action"] != "play"]
        auto_draw(ctx)
        if steps or response["winner"]:
            ctx.push(TurnScreen(steps, winner=response["winner"], mine=True, then=self.then,
                                actions=view_of(ctx)["actions"]))
        elif self.then is not None:
            self.then(ctx)


def auto_draw(ctx: Ctx, before: str = "") -> None:
    """After your move (and its bonus choices): with a digital bag, draw what is owed at once
    and say which tokens to take from the bag (one notice instead of two more steps)."""
    view = view_of(ctx)
    if view["winner"] or view["inputs"]["human_bag"] != "digital":
        if before:
            ctx.notify(before)
        return
    player = me(view)
    drawn: list[str] = []
    for _i in range(4):
        view = view_of(ctx)
        due = view["human"]["draws_due"] if view["mode"] == "solo" else view["players"][player]["draws_due"]
        if view["step"] != "draw" or not due or view["turn"] != player:
            break
        response = run_line(ctx, act.draw())
        if response is None:
            return
        drawn.append(response["token"])
    if drawn:
        before = (before + " " if before else "") + _("Take {} from your bag.").format(", ".join(tok(t) for t in drawn))
    if before:
        ctx.notify(before)
