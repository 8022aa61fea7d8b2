"""Caesar!: Auto-Crassus's turn shown a page at a time (the tile and his row, one page per play with
its why, one per closure and bonus, the end), and the tile picker for physical tiles; the record is
made into those pages in :mod:`firmware.screens.caesar.turnpages`."""
from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import cast

from PIL import Image, ImageDraw

from engine.caesar.replies import Step
from engine.caesar.terms import BONUS_WORDS, ICON_WORDS
from engine.caesar import actions as act
from engine.caesar.views import CaesarView, PlayerTurn, TurnRecord
from firmware.i18n import again, language
from firmware.screens.caesar.text import _, ngettext
from firmware.screens import base
from firmware.screens.caesar.icons import draw_icon, draw_tokens
from firmware.screens.caesar.reading import mark_read, read_at, unread_from
from firmware.screens.caesar.turnpages import (
    Page,
    drawn_page,
    first_page,
    new_pages,
    record_pages,
    tile_free_rows,
    token_size,
)
from firmware.screens.caesar.words import (
    count_tied,
    edition_of,
    fit,
    icon_of,
    nums,
    placed_said,
    pn,
    pn_fit,
    pn_short,
    space_name,
    step_title,
    tile_letter,
    view_if_any,
    view_of,
    who,
    why_screen,
)
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import Intent, Scroll, intent, scroll_bar

log = logging.getLogger(__name__)


def show_crassus(ctx: Ctx, then: Callable[[Ctx], None] | None = None, start: int = 0, played: bool = False) -> None:
    """Auto-Crassus's last turn (``last_crassus_turn``) from screen ``start`` on; ``played``: it
    was just played, none of its pages is read yet."""
    view = view_of(ctx)
    record = view.get("last_crassus_turn")
    if record is None:
        return
    if played:
        unread_from(ctx, record["read_id"], 0)
    pages = record_pages(record, record["tile"], view["winner"])
    ctx.push(TurnScreen(pages, record["read_id"], start, then, view["actions"], said=(record, record["tile"])))


def show_final(ctx: Ctx) -> None:
    """After the end, the turn of a player that ended the game (C-12: your last control marker
    placed, or his by your closure; a duel's winning move), every page of it again, as
    ``show_crassus`` shows his winning turn."""
    view = view_of(ctx)
    record = view.get("last_player_turn")
    if record is None:
        return
    pages = record_pages(record, winner=view["winner"])
    ctx.push(TurnScreen(pages, record["read_id"], 0, None, view["actions"], mine=True, said=(record, None)))


def show_mine(ctx: Ctx, before: int, then: Callable[[Ctx], None] | None, drawn: list[str] | None = None) -> None:
    """After an action of the player's (a placement, a bonus decided, a draw): the pages of the
    turn's record (``last_player_turn``) that hold the steps from index ``before`` on — the
    closures, the Might flip, the tokens to take from the bag — then ``then``. ``drawn``: in a
    duel, the tokens the device just drew for the player (private: the record keeps none), shown
    on a last page before the device is passed on."""
    view = view_of(ctx)
    record = view.get("last_player_turn")
    pages = record_pages(record, winner=view["winner"]) if record else []
    start = first_page(pages, new_pages(record, before)) if record else 0
    if record:
        unread_from(ctx, record["read_id"], new_pages(record, before))
    if drawn:
        pages.append(drawn_page(drawn, len(record["pages"]) if record else 0))
    if start < len(pages):
        ctx.push(TurnScreen(pages, record["read_id"] if record else None, start, then, view["actions"], mine=True,
                            said=(record, None) if record else None))
    elif then is not None:
        then(ctx)


def resume(ctx: Ctx, then: Callable[[Ctx], None] | None, drawn: bool = True) -> bool:
    """On opening the game, or back on its home after a move the device did not show (one over
    the serial link, or played again after an undo): a turn whose pages were not all read
    (``current``, and the ``caesar.read`` setting short of its pages) is shown from its first
    unread page; True if so. ``drawn``: a duel's draw page too (the tokens drawn for the player
    who holds the device after his own move: not for a move another player sent)."""
    view = view_of(ctx)
    his, mine = view.get("last_crassus_turn"), view.get("last_player_turn")
    shown: list[tuple[TurnRecord, str | None, bool]] = []
    if his:
        shown.append((his, his["tile"], False))
    if mine:
        shown.append((mine, None, True))
    for record, tile, by_you in shown:
        if not record["current"]:
            continue
        pages = record_pages(record, tile, view["winner"])
        read, screens, rows = read_at(ctx, record["read_id"])
        if (read, screens, rows) == (0, 0, 0):            # kept by an older version, under its id
            read, screens, rows = read_at(ctx, record["id"])
        if by_you and view["mode"] == "duel" and drawn:
            pages += _drawn_unread(ctx, cast(PlayerTurn, record), read)
        start = first_page(pages, read, screens)
        if start < len(pages):
            screen = TurnScreen(pages, record["read_id"], start, then, view["actions"], mine=by_you, said=(record, tile))
            if start == first_page(pages, read) + screens:       # the screen the reader was on:
                screen.scroll.top = rows                           # its rows read on with A stay read
            ctx.push(screen)
            return True
    return False


def borders_said(borders: list[str]) -> str:
    """A closure's border markers (C-10: one on each border with a neighbouring province the same
    player controls) as one sentence: ``+1 marker on the border Sicilia–Africa``; two or more
    named in one sentence, not one sentence each (``+1 marker on each border: …``: a row or two
    less, a screen of his closing turn's three-row page less to read at the table)."""
    if len(borders) == 1:
        return _("+1 marker on the border {}").format(space_name(borders[0]))
    return _("+1 marker on each border: {}").format(", ".join(space_name(b) for b in borders))


def _said_again(obj: object) -> object:
    """A turn's record with every sentence in it (a :class:`~firmware.i18n.Spoken` text, which
    keeps the Msg it was said from) said again in the language spoken now; ids, codes and
    numbers as they are."""
    if isinstance(obj, str):
        return again(obj)
    if isinstance(obj, dict):
        return {k: _said_again(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_said_again(v) for v in obj]
    return obj


def _drawn_unread(ctx: Ctx, record: PlayerTurn, read: int) -> list[Page]:
    """A duel player's draw page (the tokens the device drew for them, to take from their bag)
    when the power went before it was read: said again from their hand (``hand``: its last
    tokens), to the player who holds the device still (their turn's pages were shown). The record
    keeps the draws without the tokens (private): the page comes after its pages."""
    draws = [i for i, p in enumerate(record["pages"]) if p["kind"] == "draw"]
    if not draws or read > draws[-1]:
        return []
    response = ctx.run(act.hand(record["by"]))
    if not response["ok"] or not response["drawn"]:
        return []
    return [drawn_page(response["drawn"], len(record["pages"]))]


class TurnScreen:
    """A turn one screen at a time (see :func:`record_pages`): A next (on a page whose text goes on
    below, A first shows the rest of it), right next at once (right on a play: its why), left back
    a page (on the first, it leaves as B does), up/down scroll a long page, B leaves. The last A
    leads on (``then``). ``record``: the turn's id — every page turned, and the rows A showed the
    rest of a page from, is kept in the ``caesar.read`` setting (the whole turn on its last page or
    B), so that after a power cut it is shown again from where the reader was. ``start``: the
    first page shown. ``stale`` is true once an undo took back a step it reports: the App then
    takes it off the screen."""

    def __init__(self, pages: list[Page], record: str | None = None, start: int = 0,
                 then: Callable[[Ctx], None] | None = None, actions: int | None = None, mine: bool = False,
                 said: tuple[TurnRecord, str | None] | None = None) -> None:
        self.pages = pages
        self.record = record
        self.then = then                       # called after the last page (not after B)
        self.actions = actions                 # the session's step count when shown (None: at first render)
        self.page = max(0, min(start, len(pages) - 1))
        self.scroll = Scroll()
        self.starts: list[int] = [0]           # the first row of each sentence of the page shown (its _rows)
        self.mine = mine
        self.lang = language()                 # the language the pages are said in
        self.said = said                       # the record they were made from (and his tile)

    @property
    def title(self) -> str:
        return _("Your turn") if self.mine else _("Crassus's turn")

    def _turn(self, view: CaesarView) -> tuple[TurnRecord, str | None] | None:
        """The screen's turn (its record, his tile) as the game says it now while it is still the
        game's last Crassus or player turn; once a newer one replaced it (sent over the serial
        link while this screen stayed on it), the record the pages were made from, every sentence
        in it said again (:func:`_said_again`); None for a duel's draw page alone."""
        his, mine = view.get("last_crassus_turn"), view.get("last_player_turn")
        for record, tile in ((his, his["tile"] if his else None), (mine, None)):
            if record is not None and record["read_id"] == self.record:
                return record, tile
        if self.said is None:
            return None
        return cast(TurnRecord, _said_again(self.said[0])), self.said[1]

    def _said_now(self, view: CaesarView) -> None:
        """After a change of language (the serial link's ``settings language=``, Settings): the
        pages said again in it from the turn's record (they stayed in the language they were
        first said in), on the same page; the tokens the device drew, from the tokens."""
        if self.lang == language():
            return
        self.lang = language()
        turn = self._turn(view)
        if turn is None:
            self.pages = [drawn_page(p["tokens"], p["at"]) if p["kind"] == "draw" else p for p in self.pages]
            return
        record, tile = turn
        shown = self.pages[self.page] if self.pages else None
        pages = record_pages(record, tile, view["winner"])
        pages += [drawn_page(p["tokens"], p["at"]) for p in self.pages
                  if p["kind"] == "draw" and p["at"] >= len(record["pages"])]
        if pages:
            self.pages = pages
            if shown is not None:              # the same page (a tile's notes may now fit on it, or not)
                at = shown["at"]
                self.page = next((i for i, p in enumerate(pages) if p["at"] == at and p["kind"] == shown["kind"]),
                                 next((i for i, p in enumerate(pages) if p["at"] >= at), len(pages) - 1))
            self.page = min(self.page, len(pages) - 1)

    def _read(self, ctx: Ctx, upto: int, rows: int = 0) -> None:
        """Screens before screen ``upto`` were read (``len(pages)``: all of them): the record's
        pages before its page, and the screens of its page before it (the tile's before its notes);
        ``rows``: and that screen's rows above the one at its top now (read on with A)."""
        if self.record is None or not self.pages:
            return
        if upto >= len(self.pages):
            mark_read(ctx, self.record, self.pages[-1]["at"] + 1)
            return
        at = self.pages[upto]["at"]
        mark_read(ctx, self.record, at, sum(1 for p in self.pages[:upto] if p["at"] == at), rows)

    # rows of a closure or bonus page (body font, under the large first line); said in another
    # language than when last drawn, the scroll stays at the sentence the reader was at
    def _rows(self, page: Page, view: CaesarView) -> list[str]:
        rows: list[str] = []                   # the page's sentences (wrapped by Scroll.follow)
        keys: list[object] = []                # which they are (the province's name is one in some languages)
        width = base.COLS - 1                  # beside the scroll bar
        if page["kind"] == "close":
            s = page["step"]
            w = s["winner"]
            code = s["province"]
            if not self._titled(page):
                rows.append(pn(code))
                keys.append("province")
            if w != "none" and s["markers"]:
                rows.append(count_tied(ngettext("{who}: {n} marker", "{who}: {n} markers",   # there: the title
                                                s["markers"]).format(n=s["markers"], who=who(view, w)),  # or first
                                       s["markers"]))                                                     # row
                keys.append("markers")
            if w == "crassus" and len(set(s["totals"].values())) == 1:     # S-8: the title shows a tie
                rows.append(_("He always wins ties."))
                keys.append("tie")
            elif w == "none":
                rows.append(_("No marker: nobody controls it."))
                keys.append("markers")
            if s["border_markers"]:
                rows.append(borders_said(s["border_markers"]))
                keys.append("borders")
            for i, given in enumerate(page["bonuses"]):
                rows.append(given["text"])        # it starts with the bonus's name
                keys.append(i)
            bonus = s.get("bonus")
            if bonus and not page["bonuses"]:      # never used: the game ended with this closure (C-12)
                named = _(BONUS_WORDS.get(bonus, bonus))
                taken = (_("You take the bonus {}.").format(named) if s["by"] == "human"
                         else _("Bonus {} goes to {}.").format(named, who(view, s["by"])))
                rows.append(taken)
                keys.append("bonus")
        elif page["kind"] == "bonus":
            rows.append(page["step"]["text"])
        elif page["kind"] == "draw":
            rows += page["texts"]
        elif page["kind"] in ("tile", "notes", "stack"):
            rows += page["notes"]
        elif page["kind"] == "end":
            rows.append(view.get("end") or "")
            if view["winner"]:
                rows.append(placed_said(view))
        elif page["kind"] == "play" and not page["step"].get("space"):
            rows.append(page["step"].get("text") or page["step"].get("why") or "")
        out = self.scroll.follow(rows, base.COLS if page["kind"] == "tile" else width, keys)
        self.starts = list(itertools.accumulate((len(base.wrap(r, base.COLS if page["kind"] == "tile" else width))
                                                 for r in rows[:-1]), initial=0))
        shown = self._shown(page)            # a page read on from a sentence's first row: blank rows under
        return out + [""] * (self.scroll.top + shown - len(out) if 0 < self.scroll.top < len(out) else 0)

    def read_on(self, rows: list[str], shown: int) -> bool:
        """A on a page whose text goes on below: the next screen starts with the first sentence not
        shown whole (a label with its value: «Цезарь:» / «1 жетон контроля» then a bonus, 4 rows, went
        on one row, «1 жетон контроля» at the top and «Цезарь:» gone), blank rows under its end —
        unless that takes more screens to the page's end than a screenful on (as before), which is
        then shown. False when the last row shows."""
        top = self.scroll.top
        body = len(rows) - next((i for i, r in enumerate(reversed(rows)) if r), len(rows))   # without blanks
        if top + shown >= body:
            return False
        first = top + shown                                   # the first row not shown yet
        at = [k for k in self.starts if top < k <= first]     # sentences that start past the top
        whole = [k for k in at if k + shown >= body]          # a full screen to the end from one of them
        ends = self.starts[1:] + [body]
        last = max(at, default=top)                           # the last one, if it fits a screen
        fits = bool(at) and ends[self.starts.index(last)] - last <= shown
        by_rows = min(body - shown, first)                    # a screenful on (the last rows at the end)
        by_sentence = min(whole) if whole else last if fits else by_rows

        def screens(x: int) -> int:                           # screens to the page's end from top x
            return 1 + -(-max(0, body - x - shown) // shown)
        self.scroll.top = by_sentence if screens(by_sentence) <= screens(by_rows) else by_rows
        return True

    def _close_title(self, page: Page) -> str:
        code = page["step"]["province"]
        room = base.COLS - len(self._count()) - 1
        return fit(room, _("{} closed").format(pn(code)), _("{} closed").format(pn_short(code)), _("Closed"))

    def _titled(self, page: Page) -> bool:
        """Whether a closure's title names its province (else the first row does)."""
        return self._close_title(page) != _("Closed")

    def _count(self) -> str:
        return f"{self.page + 1}/{len(self.pages)}"

    def _shown(self, page: Page) -> int:
        """Text rows a page scrolls through."""
        return 3 if page["kind"] in ("close", "end", "draw") else base.ROWS

    def stale(self, ctx: Ctx) -> bool:
        """True once an undo took back a step this screen reports (its pages no longer match), or
        the session is no longer this game."""
        view = view_if_any(ctx)
        if view is None:
            return True
        if self.actions is None:
            self.actions = view["actions"]
        return view["actions"] < self.actions

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        view = view_if_any(ctx)
        if view is None or self.stale(ctx):
            base.title_bar(draw, _("Taken back"))
            base.lines(draw, base.wrap(_("This turn was undone. A: back to the game.")))
            return img
        self._said_now(view)
        page: Page = self.pages[self.page] if self.pages else {"kind": "end", "winner": None}
        count = self._count()
        kind = page["kind"]
        if kind == "tile":
            base.title_bar(draw, _("Crassus: tile {}").format(tile_letter(page["tile"], edition_of(view))), count)
            rows = self._rows(page, view)
            y = base.row_y(0)
            if page["into"]:
                base.put(draw, 1, y, _("Into his row:"))
                draw_tokens(draw, 2, y + 12, page["into"], kind=token_size(page["into"]) or "body")
                y += 29
            if page["back"]:
                base.put(draw, 1, y, _("Then back to his bag:"))
                draw_tokens(draw, 2, y + 12, page["back"], kind="body")
                y += 25
            free = tile_free_rows(bool(page["into"]), bool(page["back"]))
            for i, r in enumerate(rows[:free]):
                base.put(draw, 1, y + i * base.LINE, base.clip(r))
            if not (page["into"] or page["back"] or rows):
                for i, r in enumerate(base.wrap(_("Nothing to draw or return."))):
                    base.put(draw, 1, y + i * base.LINE, r)
            return img
        if kind == "play" and page["step"].get("space"):
            self._render_play(img, draw, page["step"], count, view)
            return img
        rows = self._rows(page, view)
        room = self._shown(page)
        if kind in ("close", "end", "draw"):
            if kind == "close":
                base.title_bar(draw, self._close_title(page), count)
                head = self._score(page["step"]["totals"], view)
            elif kind == "draw":
                base.title_bar(draw, _("Your draw"), count)
                head = ""
                draw_tokens(draw, 2, base.row_y(0), page["tokens"], kind="body")
            else:
                base.title_bar(draw, _("Game over"), count)
                w = page["winner"]
                head = {"human": _("You won!"), "crassus": _("Crassus won"), "caesar": _("Caesar won"),
                        "pompey": _("Pompey won")}.get(w or "", _("Game over"))
            if head:
                kind_of_head = "large" if len(head) <= 15 else "bold"
                base.put(draw, 1, base.row_y(0) + (0 if kind_of_head == "large" else 2), base.clip(head, 21), kind=kind_of_head)
            y0 = base.row_y(1) if kind == "draw" else base.row_y(0) + 16      # under the large line, 3 rows
            top = self.scroll.fit(len(rows), room)
            for i, r in enumerate(rows[top:top + room]):
                base.put(draw, 1, y0 + i * base.LINE, base.clip(r))
            scroll_bar(draw, top, room, len(rows), y0, room * base.LINE)
            return img
        if kind == "notes":
            title = _("Crassus: tile {}").format(tile_letter(page["tile"], edition_of(view)))
        elif kind == "stack":
            title = _("His new stack")
        elif kind == "bonus":
            title = _("Bonus")
        else:
            title = step_title(page["step"].get("step"), base.COLS - len(count) - 1)
        base.title_bar(draw, title, count)
        top = self.scroll.fit(len(rows), room)
        base.lines(draw, [base.clip(r) for r in rows[top:top + room]])
        scroll_bar(draw, top, room, len(rows))
        return img

    @staticmethod
    def _score(totals: dict[str, int], view: CaesarView) -> str:
        """Both totals in one order everywhere: you (or Caesar) first — ``You 8–4 Crassus``."""
        names = list(view["position"]["markers_left"])
        a, b = totals.get(names[0], 0), totals.get(names[1], 0)
        return fit(21, f"{who(view, names[0])} {a}–{b} {who(view, names[1])}", f"{a}–{b}")

    def _render_play(self, img: Image.Image, draw: ImageDraw.ImageDraw, s: Step, count: str,
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
            token = s["token"] or ""             # a play's token (None only for a centurion not taken)
            x = 2 + draw_icon(draw, 2, y + 1, icon_of(token), 14) + 3
            base.put(draw, x, y, nums(token), kind="large")
            hint = "→" + _("why") if s.get("why") else ""
            word = _(ICON_WORDS[icon_of(token)])
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
        if not self.pages or view is None or self.stale(ctx):
            ctx.pop()
            return
        self._said_now(view)
        page = self.pages[self.page]
        rows = self._rows(page, view)
        what = intent("pages", key)
        if self.scroll.move(what, len(rows), self._shown(page)):
            return
        if what is Intent.CLOSE and self.read_on(rows, self._shown(page)):
            self._read(ctx, self.page, self.scroll.top)    # A shows the rest of a page (a border marker,
            return                                         # a Poison) first: the rows above it were read
        if what is Intent.RIGHTWARD and page["kind"] == "play" and page["step"].get("why"):
            step = page["step"]
            ctx.push(remade(lambda: why_screen(step)))
        elif what in (Intent.CLOSE, Intent.RIGHTWARD):
            if self.page + 1 < len(self.pages):
                self.page, self.scroll.top = self.page + 1, 0
                self._read(ctx, self.page)
            else:
                self._read(ctx, len(self.pages))
                ctx.pop()
                if self.then is not None:
                    self.then(ctx)
        elif what is Intent.LEFTWARD and self.page > 0:
            self.page, self.scroll.top = self.page - 1, 0
        elif what in (Intent.LEFTWARD, Intent.BACK):     # left on the first page leaves, as B does: read
            self._read(ctx, len(self.pages))
            ctx.pop()

