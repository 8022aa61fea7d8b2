"""Caesar!: Auto-Crassus's turn shown a page at a time (the tile and his row, one page per play with
its why, one per closure and bonus, the end), and the tile picker for physical tiles."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from engine.caesar.terms import BONUS_WORDS, ICON_WORDS
from engine.caesar.views import CaesarView
from firmware.i18n import _, ngettext
from firmware.screens import base
from firmware.screens.caesar.icons import draw_icon, draw_tokens
from firmware.screens.caesar.words import (
    ACTION_WORDS,
    fit,
    icon_of,
    nums,
    pn,
    pn_fit,
    pn_short,
    space_name,
    step_title,
    tile_letter,
    view_if_any,
    who,
    why_screen,
)
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Intent, Scroll, intent, scroll_bar


def turn_pages(steps: list[dict[str, Any]], tile: str | None = None,
               winner: str | None = None) -> list[dict[str, Any]]:
    """A turn as screens: the tile with the row changes (draws, centurions, discards), one page
    per play, one per closure with its border markers and bonus, a page per other bonus, the end."""
    pages: list[dict[str, Any]] = []
    if tile is not None:
        into = [t for s in steps if s["action"] == "draw" for t in s["tokens"]]
        into += [s["token"] for s in steps if s["action"] == "centurion" and s.get("token")]
        back = [t for s in steps if s["action"] == "discard" for t in s["tokens"]]
        notes = [s["text"] for s in steps if s["action"] in ("draw", "centurion", "discard")
                 and (s.get("short") or s.get("skipped") or (s["action"] == "centurion" and not s.get("token")))]
        pages.append({"kind": "tile", "tile": tile, "into": into, "back": back, "notes": notes})
    for s in steps:
        if s["action"] == "play":
            pages.append({"kind": "play", "step": s})
        elif s["action"] == "close":
            pages.append({"kind": "close", "step": s, "bonuses": []})
        elif s["action"] == "bonus":
            home = next((p for p in pages if p["kind"] == "close" and p["step"].get("bonus") == s["bonus"]
                         and not p["bonuses"]), None)
            if home is not None:
                home["bonuses"].append(s)
            else:
                pages.append({"kind": "bonus", "step": s})
    if winner:
        pages.append({"kind": "end", "winner": winner})
    return pages


class TurnScreen:
    """A turn one screen at a time (see :func:`turn_pages`): A/right next (right on a play: its
    why), left back a page, up/down scroll a long page, B leaves. The last A returns home."""

    def __init__(self, steps: list[dict[str, Any]], tile: str | None = None, winner: str | None = None,
                 mine: bool = False, then: Callable[[Ctx], None] | None = None, actions: int | None = None) -> None:
        self.pages = turn_pages(steps, tile, winner)
        self.then = then                       # called after the last page (not after B)
        self.actions = actions                 # the session's step count when shown (None: at first render)
        self.page = 0
        self.scroll = Scroll()
        self.mine = mine
        self.title = _("Crassus's turn")

    # rows of a closure or bonus page (body font, under the large first line)
    def _rows(self, page: dict[str, Any], view: CaesarView) -> list[str]:
        rows: list[str] = []
        if page["kind"] == "close":
            s = page["step"]
            w = s["winner"]
            code = s["province"]
            if w != "none" and s["markers"]:
                rows += base.wrap(ngettext("{who}: {n} marker → {p}", "{who}: {n} markers → {p}",
                                           s["markers"]).format(n=s["markers"], who=who(view, w), p=pn(code)))
            elif w == "none":
                rows.append(_("No marker: nobody controls it."))
            for b in s["border_markers"]:
                rows += base.wrap(_("+1 marker on the border {}").format(space_name(b)))
            for b in page["bonuses"]:
                rows += base.wrap(b["text"])                   # it starts with the bonus's name
            if s.get("bonus") and not page["bonuses"]:
                rows += base.wrap(_("Bonus {} goes to {}.").format(_(BONUS_WORDS.get(s["bonus"], s["bonus"])),
                                                                 who(view, s["by"])))
        elif page["kind"] == "bonus":
            rows += base.wrap(page["step"]["text"])
        elif page["kind"] == "tile":
            for n in page["notes"]:
                rows += base.wrap(n)
        elif page["kind"] == "end":
            rows += base.wrap(view.get("end") or "")
        elif page["kind"] == "play" and not page["step"].get("space"):
            rows += base.wrap(page["step"].get("text") or page["step"].get("why") or "")
        return rows

    def stale(self, view: CaesarView | None) -> bool:
        """True once an undo took back a step this screen reports (its pages no longer match), or
        the session is no longer this game."""
        if view is None:
            return True
        if self.actions is None:
            self.actions = view["actions"]
        return view["actions"] < self.actions

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        view = view_if_any(ctx)
        if view is None or self.stale(view):
            base.title_bar(draw, _("Taken back"))
            base.lines(draw, base.wrap(_("This turn was undone. A: back to the game.")))
            return img
        page: dict[str, Any] = self.pages[self.page] if self.pages else {"kind": "end", "winner": None}
        count = f"{self.page + 1}/{len(self.pages)}"
        kind = page["kind"]
        if kind == "tile":
            base.title_bar(draw, _("Crassus: tile {}").format(tile_letter(page["tile"])), count)
            rows = self._rows(page, view)
            y = base.row_y(0)
            if page["into"]:
                base.put(draw, 1, y, _("Into his row:"))
                draw_tokens(draw, 2, y + 12, page["into"])
                y += 29
            if page["back"]:
                base.put(draw, 1, y, _("Then back to his bag:"))
                draw_tokens(draw, 2, y + 12, page["back"], kind="body")
                y += 25
            free = max(0, (base.H - y) // base.LINE)
            for i, r in enumerate(rows[:free]):
                base.put(draw, 1, y + i * base.LINE, base.clip(r))
            if not (page["into"] or page["back"] or rows):
                base.put(draw, 1, y, _("Nothing to draw or return."))
            return img
        if kind == "play" and page["step"].get("space"):
            self._render_play(img, draw, page["step"], count, view)
            return img
        if kind == "close":
            s = page["step"]
            code = s["province"]
            short = pn_short(code)
            base.title_bar(draw, fit(base.COLS - len(count) - 1, _("{} closed").format(pn(code)),
                                     _("{} closed").format(short), pn(code), short), count)
            totals = s["totals"]
            if s["winner"] == "none":
                head = _("Tie {}–{}").format(*totals.values())
            else:
                other = next(k for k in totals if k != s["winner"])
                head = f"{who(view, s['winner'])} {totals[s['winner']]}–{totals[other]}"
            base.put(draw, 1, base.row_y(0), base.clip(head, 15), kind="large")
            rows = self._rows(page, view)
            y0 = base.row_y(0) + 17
            top = self.scroll.fit(len(rows), 3)
            for i, r in enumerate(rows[top:top + 3]):
                base.put(draw, 1, y0 + i * base.LINE, base.clip(r))
            scroll_bar(draw, top, 3, len(rows), y0, 3 * base.LINE)
            return img
        if kind == "end":
            base.title_bar(draw, _("Game over"), count)
            w = page["winner"]
            head = {"human": _("You won!"), "crassus": _("Crassus won"), "caesar": _("Caesar won"),
                    "pompey": _("Pompey won")}.get(w or "", _("Game over"))
            base.put(draw, 1, base.row_y(0), base.clip(head, 15), kind="large")
            rows = self._rows(page, view)
            top = self.scroll.fit(len(rows), 3)
            for i, r in enumerate(rows[top:top + 3]):
                base.put(draw, 1, base.row_y(0) + 17 + i * base.LINE, base.clip(r))
            scroll_bar(draw, top, 3, len(rows), base.row_y(0) + 17, 3 * base.LINE)
            return img
        title = _("Bonus") if kind == "bonus" else step_title(page["step"].get("step"), base.COLS - len(count) - 1)
        base.title_bar(draw, title, count)
        rows = self._rows(page, view)
        top = self.scroll.fit(len(rows), base.ROWS)
        base.lines(draw, [base.clip(r) for r in rows[top:top + base.ROWS]])
        scroll_bar(draw, top, base.ROWS, len(rows))
        return img

    def _render_play(self, img: Image.Image, draw: ImageDraw.ImageDraw, s: dict[str, Any], count: str,
                     view: CaesarView) -> None:
        """The key screen: the token (icon and numbers), and each number with the province it faces."""
        if s.get("rule"):
            head = step_title(s.get("step"), base.COLS - len(count) - 1)
        else:
            head = _("{} placed").format(who(view, s.get("by", "human")))
        base.title_bar(draw, head, count)
        y = base.row_y(0)
        if s.get("face_down"):
            draw_icon(draw, 2, y + 1, "wild", 14)
            base.put(draw, 20, y, _("face down"), kind="large")
        else:
            x = 2 + draw_icon(draw, 2, y + 1, icon_of(s["token"]), 14) + 3
            base.put(draw, x, y, nums(s["token"]), kind="large")
            hint = "→" + _("why") if s.get("why") else ""
            word = _(ICON_WORDS[icon_of(s["token"])])
            if x + 28 + len(word) * 6 + (len(hint) * 6 + 4 if hint else 0) <= base.W:
                base.put(draw, x + 28, y + 3, word)
        if s.get("why"):
            hint = "→" + _("why")
            base.put(draw, base.W - len(hint) * 6 - 1, y + 3, hint)
        toward = s["toward"]
        first = s.get("province") or max(toward, key=lambda k: toward[k])
        order = [first] + [k for k in toward if k != first]
        for i, code in enumerate(order):
            yy = y + 17 + i * 17
            n = "0" if s.get("face_down") else str(toward[code])
            w = base.put(draw, 1, yy, f"{n}→", kind="large")
            room = base.W - w - 3
            name = pn(code)
            if len(name) * 8 > room and len(name) * 6 <= room:
                base.put(draw, w + 3, yy + 2, name, kind="bold")         # the full name, smaller
            else:
                name = pn_fit(code, room // 8)
                base.put(draw, w + 3, yy, name, kind="large")

    def key(self, key: str, ctx: Ctx) -> None:
        view = view_if_any(ctx)
        if not self.pages or view is None or self.stale(view):
            ctx.pop()
            return
        page = self.pages[self.page]
        rows = self._rows(page, view)
        what = intent("pages", key)
        if self.scroll.move(what, len(rows), 3 if page["kind"] in ("closure", "end") else base.ROWS):
            return
        if what is Intent.RIGHTWARD and page["kind"] == "play" and page["step"].get("why"):
            ctx.push(why_screen(page["step"]))
        elif what in (Intent.CLOSE, Intent.RIGHTWARD):
            if self.page + 1 < len(self.pages):
                self.page, self.scroll.top = self.page + 1, 0
            else:
                ctx.pop()
                if self.then is not None:
                    self.then(ctx)
        elif what is Intent.LEFTWARD:
            if self.page > 0:
                self.page, self.scroll.top = self.page - 1, 0
            else:
                ctx.pop()
        elif what is Intent.BACK:
            ctx.pop()


class TilePicker:
    """Which tile did you turn up? One tile per screen (its letter large, its actions listed);
    up/down change, A picks, B goes back."""

    def __init__(self, letters: list[str], definitions: dict[str, str],
                 on_pick: Callable[[Ctx, str], None]) -> None:
        self.letters = letters
        self.definitions = definitions
        self.on_pick = on_pick
        self.cursor = 0
        self.title = _("Which tile?")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, _("Which tile?"), f"{self.cursor + 1}/{len(self.letters)}")
        letter = self.letters[self.cursor]
        base.put(draw, 4, base.row_y(0) + 4, tile_letter(letter), kind="huge")
        for i, a in enumerate(self.definitions[letter].split("+")[:4]):
            base.put(draw, 28, base.row_y(i), base.clip(_(ACTION_WORDS.get(a, a)), 16))
        base.put(draw, 4, base.H - 13, "↑↓" if len(self.letters) > 1 else "")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("row", key)
        if what in (Intent.PREV, Intent.NEXT) and self.letters:
            self.cursor = max(0, min(len(self.letters) - 1, self.cursor + (1 if what is Intent.NEXT else -1)))
        elif what is Intent.SELECT:
            self.on_pick(ctx, self.letters[self.cursor])
        elif what is Intent.BACK:
            ctx.pop()
