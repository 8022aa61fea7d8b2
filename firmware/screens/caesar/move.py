"""Caesar!: your move — the province you play toward (yours first, those closest to closing next),
then the tokens that fit there with the closure previewed; the draw after it."""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PIL import Image

from engine.actions import Line
from engine.caesar import actions as act
from engine.caesar.board import PROVINCE_INDEX, SPACE_INDEX
from engine.caesar.replies import PlayReply, PreviewReply
from engine.caesar.terms import BONUS_WORDS, province
from engine.caesar.views import CaesarView
from firmware.i18n import again
from firmware.screens.caesar.text import Msg, _, ngettext
from firmware.screens import base
from firmware.screens.caesar.board import MapScreen, all_reached, map_distance
from firmware.screens.caesar.icons import draw_icon
from firmware.screens.caesar.pickers import ChoiceScreen
from firmware.screens.caesar.turn import show_mine
from firmware.screens.caesar.words import (Follows, count_tied, fit, icon_of, influence, legal_moves, me, memory, nums, pn,
                                            pn_fit, run_line, tok, view_of, who)
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import ConfirmScreen, Intent, Item, WrappedListScreen, intent

log = logging.getLogger(__name__)


def no_fit(ctx: Ctx, code: str) -> Msg:
    """Why none of your tokens can go toward province ``code``: it is closed (C-7), or no token
    of yours fits its empty spaces (C-3)."""
    if code in view_of(ctx)["position"]["control"]:
        return Msg("{} is closed: no empty space is left in it.", province(PROVINCE_INDEX[code]))
    return Msg("No token of yours fits here.")


class ProvincePicker(Follows, WrappedListScreen):
    """Your move, step 1: the province you play toward. The provinces where one of your tokens
    can go, always in the board's order (west to east, as the board data lists them: learnable,
    the same every turn); a province your placement can close (one empty space left) is marked
    ``•``, not moved. Each shows both influence totals (you, or Caesar, first). The cursor starts
    on the province of your last move. The last row chooses on the map instead."""

    def __init__(self, then: Callable[[Ctx], None] | None = None) -> None:
        super().__init__()
        self.placed = False
        self.then = then                      # after the placement: what the table does next

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Where?")

    def status(self, ctx: Ctx) -> str:
        return _("you–him") if view_of(ctx)["mode"] == "solo" else _("Caesar–Pompey")

    def codes(self, ctx: Ctx) -> list[str]:
        moves = legal_moves(ctx)
        seen: set[str] = set()
        for m in moves["moves"] + moves["face_down"]:
            seen.update(m["space"].split("-"))
        return sorted(seen, key=PROVINCE_INDEX.__getitem__)

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        totals, empty = influence(view)
        out = []
        codes = self.codes(ctx)
        for code in codes:
            a, b = totals[code]
            mark = "•" if empty[code] == 1 else ""
            out.append(Item(mark + pn(code), partial(self._pick, code=code), f"{a}–{b}", ident=code))
        if codes:
            out.append(Item(_("On the map…"), partial(self._on_map, codes=codes), ident="map"))
        return out

    def _on_map(self, ctx: Ctx, codes: list[str]) -> None:
        def picked(c: Ctx, code: str) -> None:
            if code not in self.codes(c):
                c.notify(no_fit(c, code))
                return
            c.pop()
            self._pick(c, code)
        screen = MapScreen(pick=picked)
        start = last_province(ctx)
        screen.cursor = PROVINCE_INDEX[start if start in codes else codes[0]]
        ctx.push(screen)

    def render(self, ctx: Ctx) -> Image.Image:
        self.start(ctx)
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        self.start(ctx)
        super().key(key, ctx)

    def start(self, ctx: Ctx) -> None:
        """The cursor's first place: the province of your last move."""
        if not self.placed:
            self.placed = True
            last = last_province(ctx)
            codes = self.codes(ctx)
            if last in codes:
                self.cursor = self._mark = codes.index(last)
                self.current = last

    def _pick(self, ctx: Ctx, code: str) -> None:
        memory(ctx)[f"province:{me(view_of(ctx))}"] = code
        ctx.push(OptionScreen(code, self.then))


class PlayMap(Follows, MapScreen):
    """Your move, step 1 on the map (the physical board's layout: learnable, the same every turn):
    the cursor starts near your last move, drawn to the provinces closest to closing; the
    joystick goes to the nearest province that way where a token of yours fits (to the nearest
    of all when going among those only would leave one of them out of its reach: A on another
    says why it cannot be chosen), A chooses it, press shows the provinces as a list (board
    order), B back. A province your placement can close (one empty space left) has a dot in its
    mark."""

    def __init__(self, then: Callable[[Ctx], None] | None = None) -> None:
        super().__init__(pick=self._picked)
        self.then = then
        self.placed = False

    def _picked(self, ctx: Ctx, code: str) -> None:
        picker = ProvincePicker(self.then)
        if code not in picker.codes(ctx):
            ctx.notify(no_fit(ctx, code))
            return
        picker._pick(ctx, code)

    def render(self, ctx: Ctx) -> Image.Image:
        self.start(ctx)
        return super().render(ctx)

    def start(self, ctx: Ctx) -> None:
        """The cursor's first place: near your last move's province, drawn to the provinces closest
        to closing — the fewest pushes of the joystick from it plus empty spaces left (your last
        province itself on a tie; before your first move, from Italy)."""
        if not self.placed:
            self.placed = True
            last = last_province(ctx)
            codes = ProvincePicker(self.then).codes(ctx)
            among = frozenset(PROVINCE_INDEX[c] for c in codes) or None   # the joystick skips the others,
            self.among = among if among is None or all_reached(among) else None   # unless one is then out of reach
            _totals, empty = influence(view_of(ctx))
            here = last if last in codes else "IT" if "IT" in codes else codes[0] if codes else None
            if here is not None:                   # near your last move, drawn to those closest to closing
                start = min(codes, key=lambda c: (map_distance(PROVINCE_INDEX[here], PROVINCE_INDEX[c]) + empty[c],
                                                  c != here, PROVINCE_INDEX[c]))
                self.cursor = PROVINCE_INDEX[start]

    def key(self, key: str, ctx: Ctx) -> None:
        self.start(ctx)
        if intent("map", key) is Intent.GO:               # press: the same choice as a list
            ctx.push(ProvincePicker(self.then))
            return
        super().key(key, ctx)


def last_province(ctx: Ctx) -> str | None:
    """The province of the last move of the player to move: remembered while the device runs,
    else read from the game (the last placement of that player's turn record)."""
    view = view_of(ctx)
    player = me(view)
    remembered = memory(ctx).get(f"province:{player}")
    if remembered:
        return str(remembered)
    record = view.get("last_player_turn")
    if record and record["by"] == player:
        play = next((s for s in record["steps"] if s["action"] == "play"), None)
        if play is not None and not play.get("face_down"):
            toward = play.get("toward")
            if toward is not None:
                return max(toward, key=lambda k: toward[k])     # the number placed facing it
    return None


@dataclass
class Option:
    token: str
    space: str
    here: int
    there: int
    other: str
    face_down: bool = False


class OptionScreen(Follows):
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
        out.sort(key=lambda o: (-max(o.here, o.there), icon_of(o.token) == "wild", -o.here,
                                SPACE_INDEX[o.space]))
        for m in moves["face_down"]:
            a, b = m["space"].split("-")
            if self.code in (a, b):
                out.append(Option(m["token"], m["space"], 0, 0, b if a == self.code else a, face_down=True))
        return out

    def line(self, o: Option) -> Line[PlayReply]:
        """The placement ``o`` as the console takes it (``preview`` asks with the same words)."""
        return act.play_down(o.space, o.token) if o.face_down else \
            act.play(o.space, icon_of(o.token), o.here, o.there, self.code)

    def preview(self, ctx: Ctx, o: Option) -> list[str] | None:
        """What the placement would do, in sentences, from the engine's ``preview`` (C-7..C-10,
        C-12, C-16): every province it closes (two at most: this one is "here") with who takes
        it, both totals (you, or Caesar, first: one order for a score everywhere) and the control
        markers it takes; the markers under your Senate tokens; whether it ends the game and who
        wins. None while the answer is being worked out."""
        return self.said(ctx, o, self.asked(ctx, o))

    def asked(self, ctx: Ctx, o: Option) -> PreviewReply | None:
        """The engine's ``preview`` of ``o`` (None while it is being worked out)."""
        return ctx.ask(act.preview(*self.line(o).split(" ")[1:]))

    def said(self, ctx: Ctx, o: Option, response: PreviewReply | None) -> list[str] | None:
        """:meth:`preview` from an answer read before (said again in a new language: a sentence of
        the engine's is said again too)."""
        move = self.line(o)
        if response is None:
            return None
        if not response.get("ok"):
            log.warning("no preview for %s: %s", move, response.get("message"))
            return []
        view = view_of(ctx)
        names = list(view["position"]["markers_left"])
        out: list[str] = []
        if o.face_down:
            out.append(_("Face down: no influence; draw a face-down bonus."))
        for c in response["closes"]:
            a, b = c["totals"][names[0]], c["totals"][names[1]]
            n = int(c["markers"]) + len(c["border_markers"])
            out.append(count_tied(self.closure(view, c["province"], c["winner"], a, b, n), n))
        if response["senate_markers"]:          # C-16: under the Senate token just taken (both rulebooks)
            n = int(response["senate_markers"])
            out.append(count_tied(ngettext("Under the Senate token: {} marker",
                                           "Under the Senate token: {} markers", n).format(n), n))
        if response["text"]:
            out.append(again(str(response["text"])))
        if out:
            return out
        if pn(o.other) not in self.label(o):      # the short form on the row: the name in full here
            return [f"{o.there}→{pn(o.other)}"]
        return [tok(o.token)]

    def closure(self, view: CaesarView, code: str, winner: str, a: int, b: int, n: int) -> str:
        """One province the placement closes, who takes it, both totals and the control markers it
        gets (C-7, C-9, C-10). This province (the title's) is not named again: «Берёте вы, 12–3,» /
        «3 жетона контроля», two rows where «Здесь: берёте вы,» / «12–3,» / «3 жетона контроля»
        took three in ru and uk; the other one is named in full."""
        solo = view["mode"] == "solo"
        if code == self.code:
            if winner == "none":
                return _("Nobody takes it, {a}–{b}").format(a=a, b=b)
            if solo and winner == "human":
                return ngettext("You take it {a}–{b}, {n} marker", "You take it {a}–{b}, {n} markers",
                                n).format(a=a, b=b, n=n)
            if solo:
                return ngettext("Crassus takes it {a}–{b}, {n} marker", "Crassus takes it {a}–{b}, {n} markers",
                                n).format(a=a, b=b, n=n)
            return ngettext("{who} takes it {a}–{b}, {n} marker", "{who} takes it {a}–{b}, {n} markers",
                            n).format(who=who(view, winner), a=a, b=b, n=n)
        p = pn(code)
        if winner == "none":
            return _("{p}: nobody takes it, {a}–{b}").format(p=p, a=a, b=b)
        if solo and winner == "human":
            return ngettext("{p}: you take it {a}–{b}, {n} marker", "{p}: you take it {a}–{b}, {n} markers",
                            n).format(p=p, a=a, b=b, n=n)
        if solo:
            return ngettext("{p}: Crassus takes it {a}–{b}, {n} marker", "{p}: Crassus takes it {a}–{b}, {n} markers",
                            n).format(p=p, a=a, b=b, n=n)
        return ngettext("{p}: {who} takes it {a}–{b}, {n} marker", "{p}: {who} takes it {a}–{b}, {n} markers",
                        n).format(p=p, who=who(view, winner), a=a, b=b, n=n)

    @staticmethod
    def rows(said: list[str]) -> list[str]:
        return [r for sentence in said for r in base.wrap(sentence)]

    ROOM = 19            # characters right of the token's icon

    def label(self, o: Option) -> str:
        """An option's row: ``3 here 3→Mauretania``; a long province name in its short form
        (``3 here 3→Citerior``: the preview then names it in full)."""
        if o.face_down:
            return fit(self.ROOM, _("face down: {}").format(tok(o.token)), _("face down: {}").format(nums(o.token)))
        row = _("{a} here {b}→{other}")
        room = self.ROOM - len(row.format(a=o.here, b=o.there, other=""))
        return row.format(a=o.here, b=o.there, other=pn_fit(o.other, room))

    SHOWN = 3            # preview rows at most under the options (a longer preview: A shows it all first)

    def seen(self, said: list[str]) -> int:
        """How many of a long preview's sentences the options show whole (above «A: all it does»):
        all it does then opens at the next one, those read already a key up."""
        if len(self.rows(said)) <= self.SHOWN:
            return len(said)
        k = 0
        while k < len(said) and len(self.rows(said[:k + 1])) <= self.SHOWN - 1:
            k += 1
        return k

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        opts = self.options(ctx)
        self.cursor = min(self.cursor, max(0, len(opts) - 1))
        count = f"{self.cursor + 1}/{len(opts)}" if opts else ""
        base.title_bar(draw, pn_fit(self.code, base.COLS - len(count) - 1), count)
        if not opts:
            base.lines(draw, base.wrap(_("No token of yours fits here.")))
            return img
        said = self.preview(ctx, opts[self.cursor])
        preview = ["…"] if said is None else self.rows(said)
        if len(preview) > self.SHOWN:                    # whole sentences only, then where the rest is
            kept = self.rows((said or [])[:self.seen(said or [])])
            if not kept:
                closes = sum(1 for x in said or [] if ": " in x)
                kept = base.wrap(ngettext("It closes {} province.", "It closes {} provinces.", closes).format(closes))
            preview = kept[:self.SHOWN - 1] + [_("A: all it does")]
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
            answer = self.asked(ctx, o)
            said = self.said(ctx, o, answer) or []
            if len(self.rows(said)) > self.SHOWN:        # all it does first (scrolling), then A places
                ctx.push(remade(partial(self.all_it_does, ctx, o, answer)))
            else:
                self.place(ctx, o)
        elif what is Intent.BACK:
            ctx.pop()

    def all_it_does(self, ctx: Ctx, o: Option, answer: PreviewReply | None) -> AllItDoes:
        """The whole preview of ``o`` before it is placed, said in the language of the moment from
        the ``answer`` read when it opened (made again, it is not asked again: the worker may no
        longer keep it)."""
        said = self.said(ctx, o, answer) or []
        return AllItDoes(pn(self.code), "\n".join(said), partial(self.place, o=o), _("A: place"), _("B: back"),
                         read=self.seen(said))

    def place(self, ctx: Ctx, o: Option) -> None:
        if o.face_down:
            self._play_down(ctx, o)
        else:
            self._send(ctx, self.line(o))

    def _play_down(self, ctx: Ctx, o: Option) -> None:
        view = view_of(ctx)
        if view["inputs"]["human_bag"] == "physical" and view.get("bonus_pool_left"):
            pool = sorted(set(view["bonus_pool_left"]))

            def picked(c: Ctx, bonus: str) -> None:
                c.pop()
                self._send(c, act.play_down(o.space, o.token, bonus))
            ctx.push(remade(lambda: ChoiceScreen(_("Bonus drawn?"), [(_(BONUS_WORDS.get(b, b)), b, "") for b in pool],
                                                 picked)))
            return
        self._send(ctx, act.play_down(o.space, o.token))

    def _send(self, ctx: Ctx, line: Line[PlayReply]) -> None:
        if run_line(ctx, line) is None:
            return
        # every screen of the move goes: the options and whichever way led to them (the map,
        # the list of provinces, or the list opened from the map), never a "your move" left
        # under the next turn's pages to come back to
        ctx.prune(lambda s: isinstance(s, (ProvincePicker, PlayMap)))
        ctx.pop()                                          # the options
        drawn = auto_draw(ctx)
        show_mine(ctx, 0, self.then, drawn if view_of(ctx)["mode"] == "duel" else None)


class AllItDoes(Follows, ConfirmScreen):
    """A placement's whole preview before it is made (A places, B back), its rows clear of the
    scroll bar; it goes with the choice once a step is played or taken back. It opens at the first
    sentence the options did not show whole (``read`` of them did: up shows them again), its page
    starting with that sentence: a closure and the Senate's markers (C-7, C-9, C-16), four rows,
    took two A here after the options' A (three rows a page), one A now, as before every question
    was read to its end."""

    width = base.COLS - 1

    def __init__(self, title: str, question: str, on_yes: Callable[[Ctx], None], yes: str | None = None,
                 no: str | None = None, read: int = 0) -> None:
        super().__init__(title, question, on_yes, yes, no)
        self.read = read
        self.scroll.top = self.start

    @property
    def start(self) -> int:
        """The first row of the first sentence not read on the options."""
        from firmware.screens.caesar.text import say
        return sum(len(base.wrap(p, self.width)) for p in say(self.question).split("\n")[:self.read])

    @property
    def rows(self) -> list[str]:
        from firmware.screens.caesar.text import say
        from firmware.screens.widgets.confirm import ROOM
        rows = base.wrap(say(self.question), self.width)
        if 0 < self.start < len(rows):           # a page begins with the sentence not read, blank rows under it
            rows += [""] * max(0, self.start + ROOM - len(rows))
        return rows


def auto_draw(ctx: Ctx) -> list[str]:
    """After your move (and its bonus choices): with a digital bag, draw what is owed at once
    (the pages of your turn then say which tokens to take from the bag); the tokens drawn."""
    view = view_of(ctx)
    if view["winner"] or view["inputs"]["human_bag"] != "digital":
        return []
    player = me(view)
    drawn: list[str] = []
    for _i in range(4):
        view = view_of(ctx)
        due = view["human"]["draws_due"] if view["mode"] == "solo" else view["players"][player]["draws_due"]
        if view["step"] != "draw" or not due or view["turn"] != player:
            break
        response = run_line(ctx, act.draw())
        if response is None:
            break
        drawn.append(response["token"])
    return drawn
