"""Caesar! screens: set-up with a guide for the physical board, the home screen (what to do now,
the score at a glance), Auto-Crassus's turn (one screen per play, one per closure, "why" one
press away), your move (by province, with the closure previewed), bonuses, draws, the map, the
command tiles, and the duel with a pass-the-device screen for the private hands.

Every change is a ``caesar-solo``/``caesar-duel`` console line (docs/protocol/caesar.md), so it is
journaled and a long B takes it back; digital draws come from the session, so undo never
re-draws. Physical inputs (real tiles, real bags) are asked for as lists of what can be drawn.
The tile contents you enter are remembered in the ``caesar.tiles`` setting and passed to every
new game. Texts: ``_()`` at render time; the engine's sentences arrive already said in the
current language (``ctx.view()`` and console replies are localized).
"""
from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageDraw

from engine.caesar.board import (DATA, PROVINCE_INDEX, PROVINCE_NAMES, PROVINCE_SPACES, PROVINCES,
                                 SPACE_A, SPACE_B, SPACE_INDEX, SPACES)
from engine.caesar.terms import BONUS_WORDS, ICON_WORDS, PLAYER_WORDS, STEP_WORDS
from engine.caesar.tiles import ACTIONS, DEFAULT_TILES, draw_count, parse_tiles
from engine.caesar.tokens import CENTURION_IDS, TOKENS
from engine.errors import BadArguments
from engine.text import N_
from firmware.i18n import _, ngettext
from firmware.screens import base, play
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import (ConfirmScreen, Field, Intent, Item, ListScreen, NumberForm, Scroll, TextScreen,
                                      WrappedListScreen, intent, item_rows, scroll_bar)

log = logging.getLogger(__name__)

GAMES = ("caesar-solo", "caesar-duel")
DIFFS = ("easy", "normal", "hard")
DIFF_WORDS = (N_("easy"), N_("normal"), N_("hard"))
SIDES = ("caesar", "pompey")
HARDER = ("off", "always", "control")
INPUT = ("digital", "physical")
INPUT_WORDS = (N_("device"), N_("physical"))
TILES_KEY = "caesar.tiles"
ACTION_WORDS = {"draw1": N_("draw 1"), "draw2": N_("draw 2"), "draw3": N_("draw 3"), "play": N_("play"),
                "discard1": N_("discard 1"), "discard2": N_("discard 2"), "centurion": N_("centurion")}
# what the device remembers between screens of one App (cursor of your move, per session)
_MEMORY: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def open_game(ctx: Ctx) -> None:
    """Continue the current Caesar! session, or set up a game."""
    play.continue_or_setup(ctx, GAMES, CaesarHome, setup_form)  # type: ignore[arg-type]


def _view(ctx: Ctx) -> dict[str, Any]:
    return play.game_view(ctx, GAMES, "Caesar!")


_run = play.run_or_notify


def _memory(ctx: Ctx) -> dict[str, Any]:
    try:
        return _MEMORY.setdefault(ctx, {})
    except TypeError:                       # a context that cannot be weakly referenced
        return {}


# -- words ---------------------------------------------------------------------------------------
def pn(code: str) -> str:
    """A province's name in the current language (``SC`` -> Sicilia / Сицилия)."""
    return _(PROVINCE_NAMES[PROVINCE_INDEX[code]])


# Short forms of the names too long for a row (the full name is shown where there is room, and
# the cursor row's full name at the foot of the your-move screen): unambiguous among the 18.
SHORT_NAMES = {"HU": N_("Ulterior"), "HC": N_("Citerior"), "GC": N_("Cisalpina")}


def pn_short(code: str) -> str:
    """The province's short form (``Citerior``), or its name where it has none."""
    return _(SHORT_NAMES[code]) if code in SHORT_NAMES else pn(code)


def pn_fit(code: str, room: int) -> str:
    """The province's name in at most ``room`` characters: the full name, else its short form
    (``Citerior``, ``Б. Испания``), else the short form cut (never reached on this panel)."""
    full = pn(code)
    if len(full) <= room:
        return full
    short = pn_short(code)
    return short if len(short) <= room else base.clip(short, room)


def space_name(sid: str, short: bool = False) -> str:
    """A space as its two provinces: ``Sicilia–Italia``; ``short``: the long names in their
    short forms (``Ulterior–Citerior``)."""
    s = SPACE_INDEX[sid]
    a, b = PROVINCES[SPACE_A[s]], PROVINCES[SPACE_B[s]]
    if short:
        return f"{pn_short(a)}–{pn_short(b)}"
    return f"{pn(a)}–{pn(b)}"


def space_row(sid: str, note: str) -> str:
    """A space's name for a list row with ``note`` at its right: in full when the row takes at
    most two lines, else with the short forms (one entry never fills the panel)."""
    full = space_name(sid)
    return full if len(item_rows(Item(full, None, note))) <= 2 else space_name(sid, short=True)


def icon_of(name: str) -> str:
    return name.split(":")[0]


def nums(name: str) -> str:
    """``sword:5/1`` -> ``5/1``."""
    return name.split(":")[1]


def tok(name: str) -> str:
    """A token for a person: ``sword 5/1`` (``меч 5/1``)."""
    return f"{_(ICON_WORDS[icon_of(name)])} {nums(name)}"


def token_label(name: str) -> str:
    return tok(name)


def who(view: dict[str, Any], player: str) -> str:
    """You / Crassus / Caesar / Pompey / nobody."""
    return _(PLAYER_WORDS.get(player, player))


def tile_letter(letter: str) -> str:
    """A command tile's letter as the player's rulebook prints it (Russian: А Б В Г Д)."""
    letters = _("ABCDE")
    i = "ABCDE".find(letter)
    return letters[i] if 0 <= i < len(letters) and len(letters) == 5 else letter


def tile_words(definition: str) -> str:
    """``draw2+play+discard1`` -> ``draw 2 · play · discard 1``."""
    return " · ".join(_(ACTION_WORDS.get(a, a)) for a in definition.split("+") if a)


def me(view: dict[str, Any]) -> str:
    """The player the device acts for now: you in solo, the player to move in a duel."""
    return "human" if view["mode"] == "solo" else view["turn"]


def opponent(view: dict[str, Any], player: str) -> str:
    names: list[str] = list(view["position"]["markers_left"])
    return names[1] if player == names[0] else names[0]


def remembered_tiles(ctx: Ctx) -> str | None:
    value = ctx.settings.get(TILES_KEY)
    return value or None


# -- icons ---------------------------------------------------------------------------------------
def draw_icon(draw: ImageDraw.ImageDraw, x: int, y: int, icon: str, size: int = 12, fill: int = 1) -> int:
    """The token's icon in a ``size``-pixel box at (x, y); returns the width used."""
    s = size - 1
    if icon == "shield+ship":
        half = size // 2 + 2
        draw_icon(draw, x, y + (size - half) // 2, "shield", half, fill)
        draw_icon(draw, x + half, y + (size - half) // 2, "ship", half, fill)
        return 2 * half
    if icon == "sword":
        cx = x + s // 2
        draw.line((cx, y, cx, y + s - 3), fill=fill)                     # blade
        draw.line((cx + 1, y + 1, cx + 1, y + s - 3), fill=fill)
        draw.line((x + 1, y + s - 4, x + s - 1, y + s - 4), fill=fill)   # guard
        draw.line((cx, y + s - 3, cx + 1, y + s), fill=fill)             # grip
    elif icon == "shield":
        draw.polygon([(x + 1, y), (x + s - 1, y), (x + s - 1, y + s // 2), (x + s // 2, y + s),
                      (x + 1, y + s // 2)], outline=fill, fill=0)
        draw.line((x + s // 2, y + 2, x + s // 2, y + s - 2), fill=fill)
    elif icon == "ship":
        draw.polygon([(x, y + s * 2 // 3), (x + s, y + s * 2 // 3), (x + s - 2, y + s), (x + 2, y + s)],
                     fill=fill)                                          # hull
        draw.line((x + s // 2, y, x + s // 2, y + s * 2 // 3), fill=fill)  # mast
        draw.polygon([(x + s // 2 + 1, y + 1), (x + s - 1, y + s // 2), (x + s // 2 + 1, y + s // 2)], fill=fill)
    else:                                                                # wild: a laurel wreath
        draw.arc((x + 1, y + 1, x + s - 1, y + s), 100, 245, fill=fill)     # left branch
        draw.arc((x + 1, y + 1, x + s - 1, y + s), 295, 440, fill=fill)     # right branch
        c = s // 2
        for dy in range(2, s - 1, 3):                                    # leaves outside the branches
            half = max(1, round(((c * c) - (dy - c) ** 2) ** 0.5)) if abs(dy - c) < c else 1
            draw.point((x + c - half - 1, y + dy), fill=fill)
            draw.point((x + c + half + 1, y + dy), fill=fill)
    return size


def draw_tokens(draw: ImageDraw.ImageDraw, x: int, y: int, names: list[str], kind: str = "large") -> int:
    """Tokens as icon + numbers side by side; returns the x after the last one."""
    size = 14 if kind == "large" else 11
    for name in names:
        if x > base.W - 30:
            base.put(draw, x, y, "…", kind=kind)
            break
        x += draw_icon(draw, x, y + 1, icon_of(name), size) + 1
        x += base.put(draw, x, y, nums(name), kind=kind) + 5
    return x


# -- set-up --------------------------------------------------------------------------------------
class SetupForm(NumberForm):
    """The set-up rows and an explicit Start row at the end (A, right or press on it starts; A on
    any row starts too, as the title says)."""

    def items(self, ctx: Ctx) -> list[Item]:
        return self.field_items() + [Item("▶ " + _("Start"), self.go, ident="start")]

    def status(self, ctx: Ctx) -> str:
        return _("A: start")

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Caesar!")


def setup_form() -> SetupForm:
    """Mode, side, difficulty, expansions and how tiles and bags are drawn; Start."""
    fields = [Field("mode", N_("Players"), 0, 0, 1, lambda v: (_("solo"), _("duel"))[v]),
              Field("side", N_("Your side"), 0, 0, 1, lambda v: _(PLAYER_WORDS[SIDES[v]])),
              Field("diff", N_("Difficulty"), 1, 0, 2, lambda v: _(DIFF_WORDS[v])),
              Field("poison", N_("Poison"), 0, 0, 1, _on_off),
              Field("cent", N_("Centurions"), 0, 0, 1, _on_off),
              Field("bctl", N_("Border control"), 0, 0, 1, _on_off),
              Field("harder", N_("Harder"), 0, 0, 2,      # S-8: a marker goes with a removed bonus
                    lambda v: (_("off"), _("always"), _("on capture"))[v]),
              Field("tiles", N_("Tiles"), 0, 0, 1, lambda v: _(INPUT_WORDS[v])),
              Field("bags", N_("Bags"), 0, 0, 1, lambda v: _(INPUT_WORDS[v]))]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        mods = [f"{k}=1" for k, f in (("poison", "poison"), ("centurions", "cent"), ("border-control", "bctl"))
                if v[f]]
        if v["mode"] == 1:
            _start(ctx, " ".join(["new caesar-duel", *mods, f"bag-input={INPUT[v['bags']]}"]))
            return
        parts = [f"new caesar-solo side={SIDES[v['side']]} difficulty={DIFFS[v['diff']]}", *mods]
        if v["harder"]:
            parts.append(f"harder=1 harder-when={HARDER[v['harder']]}")
        parts.append(f"tiles-input={INPUT[v['tiles']]} bag-input={INPUT[v['bags']]}")
        tiles = remembered_tiles(ctx)
        if tiles:
            parts.append(f"tiles={tiles}")
        line = " ".join(parts)
        if v["bags"]:
            def with_row(c: Ctx, picked: list[str]) -> None:
                c.pop()
                _start(c, f"{line} row={','.join(picked)}")
            ctx.push(TokenPicker(_("His 3 tokens"), [t.name for t in TOKENS if not t.centurion], 3, with_row))
        else:
            _start(ctx, line)

    return SetupForm(_("New Caesar! game"), fields, go)


def _on_off(v: int) -> str:
    return _("on") if v else _("off")


def _start(ctx: Ctx, line: str) -> None:
    def home() -> Any:
        return SetupGuide(then_home=True)
    view = ctx.view()
    over = view is not None and view["game"] in GAMES and bool(view.get("winner"))
    play.start_game(ctx, line, home, quiet=("bag", "dice") + (GAMES if over else ()), title=_("New game?"))


class SetupGuide:
    """The physical set-up, one page at a time: the bonus token of every province (C-5),
    Auto-Crassus's first row (S-2), the tile deck of the difficulty (S-3), your first tokens.
    A/right: next page; left: back a page; B: leave. After a new game the last page leads home."""

    def __init__(self, then_home: bool = False) -> None:
        self.then_home = then_home
        self.page = 0
        self.scroll = Scroll()
        self.title = _("Set-up")

    def pages(self, view: dict[str, Any]) -> list[tuple[str, list[str], list[str]]]:
        """(title, text rows, tokens drawn large) per page."""
        pos = view["position"]
        out: list[tuple[str, list[str], list[str]]] = []
        rows: list[str] = []
        for bonus in BONUS_WORDS:
            names = [pn(code) for code, b in pos["bonuses"].items() if b == bonus]
            if names:
                rows.append(f"{_(BONUS_WORDS[bonus])} ×{len(names)}:")
                rows += ["  " + r for r in base.wrap(", ".join(names), base.COLS - 2)]
        out.append((_("Bonus tokens"), base.wrap(_("Face up, one per province:")) + rows, []))
        if view["mode"] == "solo":
            first_row: list[str] = pos["crassus_row"]
            out.append((_("Crassus's row"), [_("From his bag, left to right:")] + [tok(t) for t in first_row],
                        first_row))
            deck = view["tiles"]["deck"]
            counts = " ".join(f"{deck.count(x)}×{tile_letter(x)}" for x in sorted(set(deck)))
            where: str = (_("Shuffle them face down: the device turns them up.")
                     if view["inputs"]["tiles"] == "digital" else _("Shuffle them face down beside the board."))
            out.append((_("Command tiles"), [_("{}: {}").format(_(DIFF_WORDS[DIFFS.index(view['difficulty'])]), counts),
                                             *base.wrap(where)], []))
            hand = view["human"]["hand"]
            if hand:
                out.append((_("Your tokens"), [_("Take from your bag:")] + [tok(t) for t in hand], hand))
            else:
                due = view["human"]["draws_due"]
                out.append((_("Your tokens"), base.wrap(ngettext("Draw {} token from your bag and enter it.",
                                                                 "Draw {} tokens from your bag and enter them.",
                                                                 due).format(due)), []))
        else:
            out.append((_("Your tokens"), base.wrap(_("Each player draws their tokens behind the screen; "
                                                      "the device shows each hand privately.")), []))
        return out

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        pages = self.pages(_view(ctx))
        self.page = min(self.page, len(pages) - 1)
        title, rows, tokens = pages[self.page]
        count = f"{self.page + 1}/{len(pages)}"
        shorter = {_("Command tiles"): _("Tiles")}.get(title, title)      # uk: "Тайли командування"
        base.title_bar(draw, fit(base.COLS - len(count) - 1, title, shorter), count)
        if tokens:
            head = base.wrap(rows[0])             # the header on one or two rows, never cut
            words = ", ".join(rows[1:])           # the tokens in words, when they fit a row
            if len(head) == 1 and len(words) <= base.COLS:
                head.append(words)
            base.lines(draw, head[:2])
            draw_tokens(draw, 2, base.row_y(2) + 2, tokens)
            return img
        top = self.scroll.fit(len(rows), base.ROWS)
        base.lines(draw, [base.clip(r) for r in rows[top:top + base.ROWS]])
        scroll_bar(draw, top, base.ROWS, len(rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        pages = self.pages(_view(ctx))
        rows = pages[min(self.page, len(pages) - 1)][1]
        what = intent("pages", key)
        if self.scroll.move(what, len(rows), base.ROWS):
            return
        if what in (Intent.CLOSE, Intent.RIGHTWARD):          # A, press or right: the next page
            if self.page + 1 < len(pages):
                self.page, self.scroll.top = self.page + 1, 0
            elif self.then_home:
                _fresh_home(ctx)
                go_on(ctx)
            else:
                ctx.pop()
        elif what is Intent.LEFTWARD and self.page > 0:
            self.page, self.scroll.top = self.page - 1, 0
        elif what in (Intent.BACK, Intent.LEFTWARD):
            if self.then_home:
                _fresh_home(ctx)
            else:
                ctx.pop()


def _fresh_home(ctx: Ctx) -> None:
    """The home of the new game in place of the top screen; older Caesar! homes below go (Back
    from the new home lands on the menu, not on the game that was replaced)."""
    ctx.replace(CaesarHome())
    ctx.prune(lambda s: isinstance(s, CaesarHome))


# -- home ----------------------------------------------------------------------------------------
HomeItem = Item          # a home entry names itself (``ident``): the cursor stays on it across phases


class CaesarHome(WrappedListScreen):
    """What to do now first (Crassus's turn, your move, a bonus, a draw), the score, then views."""

    def __init__(self) -> None:
        super().__init__()
        self.current = "now"

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Caesar!")

    def status(self, ctx: Ctx) -> str:
        view = _view(ctx)
        if view["winner"]:
            return _("over")
        return _("solo") if view["mode"] == "solo" else _("duel")

    def render(self, ctx: Ctx) -> Image.Image:
        ctx.prune(lambda s: isinstance(s, CaesarHome) and s is not self)   # an older home below is stale
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        out: list[Item] = []
        solo = view["mode"] == "solo"
        if view["winner"]:
            out.append(HomeItem(_("Game over"), lambda c: c.push(TextScreen(_("Game over"), _view(c)["end"] or "")),
                                who(view, view["winner"]), ident="now"))
        else:
            out += self._now(view)
        out.append(HomeItem(score_line(view), lambda c: c.push(score_screen(_view(c))), ident="score"))
        out.append(HomeItem(_("Map"), lambda c: c.push(MapScreen()), ident="map"))
        if solo:
            out.append(HomeItem(_("Crassus would…"), _open_decide, ident="decide"))
            if view["last_crassus_turn"]:
                out.append(HomeItem(_("Last Crassus turn"), _open_last,
                                    tile_letter(view["last_crassus_turn"]["tile"]), ident="last"))
            out.append(HomeItem(_("Your hand"), _open_hand, str(len(view["human"]["hand"])), ident="hand"))
            out.append(HomeItem(_("Crassus's row"), _open_row, str(len(view["crassus"]["row"])), ident="row"))
        if not solo and not view["winner"]:
            out.append(HomeItem(_("Hand: {}").format(who(view, view["turn"])),
                                partial(_private, then=_open_duel_hand), ident="hand"))
        out.append(HomeItem(_("Set-up guide"), lambda c: c.push(SetupGuide()), ident="guide"))
        if solo:
            out.append(HomeItem(_("Command tiles"), lambda c: c.push(TilesScreen()), ident="tiles"))
        out.append(HomeItem(_("New game"), lambda c: c.push(setup_form()), ident="new"))
        return out

    @staticmethod
    def _now(view: dict[str, Any]) -> list[Item]:
        solo = view["mode"] == "solo"
        player = me(view)
        due = view["human"]["draws_due"] if solo else view["players"][player]["draws_due"]
        physical_me = view["inputs"]["human_bag"] == "physical"
        out: list[Item] = []
        if solo and view["turn"] == "crassus":
            out.append(HomeItem(_("Crassus's turn"), _crassus_turn, ident="now"))
            if due:
                out.append(HomeItem(_("Draw tokens"), _draw, _("{} due").format(due), ident="draw"))
            return out
        step = view["step"]
        pending = view["human"]["pending"] if solo else view["pending"]
        if step == "bonus" and pending:
            kind = pending[0]
            out.append(HomeItem(_("Use Might") if kind == "might" else _("Take a centurion"),
                                partial(_private, then=partial(_open_bonus, kind=kind)), ident="now"))
        elif due:
            label = _("Draw a token") if step == "draw" else _("Draw tokens")
            out.append(HomeItem(label, partial(_private, then=_draw),
                                _("{} due").format(due) if physical_me or due > 1 else "", ident="now"))
        elif solo:
            out.append(HomeItem(_("Your move"), _open_play, ident="now"))
        else:
            out.append(HomeItem(_("{} moves").format(who(view, player)), partial(_private, then=_open_play),
                                ident="now"))
        return out


def score_line(view: dict[str, Any]) -> str:
    """Markers left of both players, for the home list: ``You 11 · Crassus 12``."""
    m = view["position"]["markers_left"]
    a, b = list(m)
    line = f"{who(view, a)} {m[a]} · {who(view, b)} {m[b]}"
    if len(line) > base.COLS - 1:          # a list row: both counts must stay on screen
        line = f"{who(view, a)} {m[a]}·{who(view, b)} {m[b]}"
    return line


def score_screen(view: dict[str, Any]) -> TextScreen:
    """Markers left, on the board, under Senate tokens, removed; Senate tokens (C-12, C-16)."""
    rows = []
    for p, m in view["markers"].items():
        rows.append(f"{who(view, p)}:")
        rows.append("  " + _("{} markers left").format(m["left"]))
        rows.append("  " + _("{} on the board").format(m["on_board"]))
        rows.append("  " + _("Senate tokens: {}").format(view["position"]["senate"].get(p, 0)))
        rows.append("  " + _("{} under Senate").format(m["under_senate"]))
        if m["removed"]:
            rows.append("  " + _("{} removed (Harder)").format(m["removed"]))
    return TextScreen(_("Score"), rows)


def _private(ctx: Ctx, then: Callable[[Ctx], None]) -> None:
    """In a duel, hands are private: ask for the device to be passed first (a screen that shows
    nothing private); in solo, go straight on."""
    view = _view(ctx)
    if view["mode"] == "solo":
        then(ctx)
        return
    name = who(view, view["turn"])

    def ok(c: Ctx) -> None:
        c.pop()
        then(c)
    ctx.push(ConfirmScreen(_("Pass the device"),
                                _("Pass the device to {0}; only {0} looks now.").format(name),
                                ok, _("A: {}").format(name), _("B: back")))


def _open_decide(ctx: Ctx) -> None:
    response = _run(ctx, "decide")
    if response is not None:
        ctx.push(why_screen(response))


def fit(room: int, *candidates: str) -> str:
    """The first of ``candidates`` that fits ``room`` characters (the last one, clipped, if none
    does): a title says the longer thing when there is room and a shorter one, still whole,
    when there is not."""
    for c in candidates:
        if len(c) <= room:
            return c
    return base.clip(candidates[-1], room)


def step_title(step: str | None, room: int) -> str:
    """The title of one of Auto-Crassus's plays, in words: ``Crassus: Centre`` (the step of his
    priority list, S-9..S-15), or ``Cannot place`` (S-19). No rule ID: the why page gives it."""
    if step is None:
        return fit(room, _("Cannot place"))
    word = _(STEP_WORDS.get(step, step))
    return fit(room, _("Crassus: {}").format(word), word)


def why_screen(d: dict[str, Any]) -> TextScreen:
    """The decision's rule and sentence (DESIGN: every automated move has a why screen). The title
    names the step in words; the body, the engine's sentence, cites the rule (``Centre (S-14): …``)."""
    body = str(d["why"])
    if d.get("rule") and d["rule"] not in body:
        body += "\n" + _("Rule {}").format(d["rule"])
    screen = TextScreen(_("Why"), body)
    room = base.COLS - (len(f"1/{len(screen.rows)}") + 1 if len(screen.rows) > base.ROWS else 0)
    if d.get("step") is None:
        screen.title = fit(room, _("Why: {}").format(_("Cannot place")), _("Why"))
    else:
        word = _(STEP_WORDS.get(d["step"], d["step"]))
        screen.title = fit(room, _("Why: {}").format(word), word)
    return screen


def _open_last(ctx: Ctx) -> None:
    last = _view(ctx)["last_crassus_turn"]
    ctx.push(TurnScreen(last["steps"], tile=last["tile"], actions=_view(ctx)["actions"]))


def _open_hand(ctx: Ctx) -> None:
    h = _view(ctx)["human"]
    rows = [_("Behind your screen:")] + [("  " + tok(t)) for t in h["hand"]]
    rows.append(_("In your bag: {}").format(h["bag"]))
    if h["centurions"]:
        rows.append(_("Centurions:"))
        rows += ["  " + tok(t) for t in h["centurions"]]
    ctx.push(TextScreen(_("Your hand"), rows))


def _open_duel_hand(ctx: Ctx) -> None:
    """The hand of the player to move (after the pass-the-device screen): ``hand`` is read-only."""
    view = _view(ctx)
    response = _run(ctx, f"hand {view['turn']}")
    if response is not None:
        cents = view["players"][view["turn"]]["centurions"]
        rows = [_("Behind your screen:")] + ["  " + tok(t) for t in response["hand"]]
        rows.append(_("In your bag: {}").format(view["players"][view["turn"]]["bag"]))
        if cents:
            rows += [_("Centurions:")] + ["  " + tok(t) for t in cents]
        ctx.push(TextScreen(_("Hand: {}").format(who(view, view["turn"])), rows))


def _open_row(ctx: Ctx) -> None:
    c = _view(ctx)["crassus"]
    rows = [_("Left to right:")] + [("  " + tok(t)) for t in c["row"]]
    rows.append(_("In his bag: {}").format(c["bag"]))
    if c["centurions_face_down"]:
        rows.append(_("Face-down centurions: {}").format(c["centurions_face_down"]))
    ctx.push(TextScreen(_("Crassus's row"), rows))


# -- Crassus's turn ------------------------------------------------------------------------------
def _crassus_turn(ctx: Ctx) -> None:
    """Digital: run the turn. Physical tiles/bag: ask for the tile, then the tokens drawn."""
    view = _view(ctx)
    if view["inputs"]["tiles"] == "digital" and view["inputs"]["crassus_bag"] == "digital":
        _finish_crassus(ctx, "crassus")
        return
    if view["inputs"]["tiles"] == "physical":
        letters = sorted(set(view["tiles"]["stack_left"]))
        ctx.push(TilePicker(letters, view["tiles"]["definitions"],
                            lambda c, x: _after_tile(c, x, f"crassus tile={x}")))
        return
    letter = view["tiles"]["revealed"]
    if letter is None:                       # digital tile, physical bag: turn the tile up first
        response = _run(ctx, "reveal-tile")
        if response is None:
            return
        letter = response["tile"]
    ctx.push(TextScreen(_("Tile {}").format(tile_letter(letter)), tile_words(view["tiles"]["definitions"][letter])))
    _after_tile(ctx, letter, "crassus")


def _after_tile(ctx: Ctx, letter: str, line: str) -> None:
    """The tile is known (top screen: the tile choice): ask for the tokens drawn, then play."""
    view = _view(ctx)
    if view["inputs"]["crassus_bag"] == "digital":
        ctx.pop()
        _finish_crassus(ctx, line)
        return
    actions = view["tiles"]["definitions"][letter].split("+")
    bag = view["crassus"]["bag"]
    n_draw = min(bag, sum(draw_count(a) for a in actions if a.startswith("draw")))
    n_cent = min(view["crassus"]["centurions_face_down"], actions.count("centurion"))
    hidden = _hidden_centurions(view)

    def with_draws(c: Ctx, drawn: list[str]) -> None:
        full = line + (f" draw={','.join(drawn)}" if drawn else "")
        if n_cent:
            c.replace(TokenPicker(_("Centurion up"), hidden, n_cent,
                                  lambda c2, cents: _pop_and_finish(c2, full + f" centurion={','.join(cents)}")))
        else:
            _pop_and_finish(c, full)

    if n_draw:
        ctx.replace(TokenPicker(_("He draws {}").format(n_draw), view["crassus"]["bag_contents"], n_draw, with_draws))
    else:
        ctx.pop()
        with_draws(ctx, [])


def _hidden_centurions(view: dict[str, Any]) -> list[str]:
    if not view["position"]["modules"]["centurions"]:
        return []
    hidden = [TOKENS[t].name for t in CENTURION_IDS]
    seen = [v["token"] for v in view["position"]["spaces"].values() if v["by"] == "crassus"]
    for name in seen + view["crassus"]["row"] + view["crassus"]["bag_contents"]:
        if name in hidden:
            hidden.remove(name)
    return hidden


def _pop_and_finish(ctx: Ctx, line: str) -> None:
    ctx.pop()
    _finish_crassus(ctx, line)


def _finish_crassus(ctx: Ctx, line: str) -> None:
    response = _run(ctx, line)
    if response is not None:
        ctx.push(TurnScreen(response["steps"], tile=response["tile"], winner=response["winner"], then=go_on,
                            actions=_view(ctx)["actions"]))


def go_on(ctx: Ctx) -> None:
    """Lead on to what the table does next, so a turn needs no trip through the home screen:
    Auto-Crassus's turn starts (with physical tiles or bag: the question what was drawn); your move opens when you
    may place; in a duel, the pass-the-device screen for the next player. Otherwise (a bonus to
    decide, your tokens to enter, the game over) the home screen says what is next."""
    view = _view(ctx)
    if view["winner"]:
        return
    solo = view["mode"] == "solo"
    if solo and view["turn"] == "crassus":
        if not view["human"]["draws_due"]:
            _crassus_turn(ctx)                 # digital: runs; physical: asks for the tile / tokens
        return
    due = view["human"]["draws_due"] if solo else view["players"][view["turn"]]["draws_due"]
    if view["step"] == "play" and not due:
        if solo:
            _open_play(ctx)
        else:
            _private(ctx, then=_open_play)


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
    def _rows(self, page: dict[str, Any], view: dict[str, Any]) -> list[str]:
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

    def stale(self, view: dict[str, Any]) -> bool:
        """True once an undo took back a step this screen reports (its pages no longer match)."""
        if self.actions is None:
            self.actions = int(view.get("actions", 0))
        return int(view.get("actions", 0)) < self.actions

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        view = ctx.view() or {}
        if self.stale(view):
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
                     view: dict[str, Any]) -> None:
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
        if not self.pages or self.stale(ctx.view() or {}):
            ctx.pop()
            return
        page = self.pages[self.page]
        rows = self._rows(page, ctx.view() or {})
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


# -- your move -----------------------------------------------------------------------------------
def _open_play(ctx: Ctx) -> None:
    ctx.push(ProvincePicker())


def _moves(ctx: Ctx) -> dict[str, Any]:
    response = ctx.run("moves")
    return response if response.get("ok") else {"moves": [], "face_down": []}


def influence(view: dict[str, Any]) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Per province: [first player's, second player's] influence and the number of empty spaces."""
    pos = view["position"]
    names = list(pos["markers_left"])
    totals = {p: [0, 0] for p in PROVINCES}
    empty = {p: len(PROVINCE_SPACES[PROVINCE_INDEX[p]]) for p in PROVINCES}
    for v in pos["spaces"].values():
        for prov, n in v["toward"].items():
            empty[prov] -= 1
            if not v["face_down"]:
                totals[prov][names.index(v["by"])] += n
    return totals, empty


class ProvincePicker(WrappedListScreen):
    """Your move, step 1: the province you play toward. Provinces where one of your tokens can
    go: the province of your last move first (the cursor remembers it), then those closest to
    closing; each with your and the opponent's influence."""

    def __init__(self) -> None:
        super().__init__()
        self.placed = False
        self.title = _("Where?")


    def status(self, ctx: Ctx) -> str:
        return _("you–him") if _view(ctx)["mode"] == "solo" else _("you–rival")

    def codes(self, ctx: Ctx) -> list[str]:
        view = _view(ctx)
        moves = _moves(ctx)
        _totals, empty = influence(view)
        seen: set[str] = set()
        for m in moves["moves"] + moves["face_down"]:
            seen.update(m["space"].split("-"))
        last = _memory(ctx).get("province")       # your last province on top, where the cursor starts
        return sorted(seen, key=lambda c: (c != last, empty[c], PROVINCE_INDEX[c]))

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
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
            last = _memory(ctx).get("province")
            codes = self.codes(ctx)
            if last in codes:
                self.cursor = codes.index(last)
                self.top = max(0, self.cursor - base.ROWS + 1)
        return super().render(ctx)

    def _pick(self, ctx: Ctx, code: str) -> None:
        _memory(ctx)["province"] = code
        ctx.push(OptionScreen(code))


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

    def __init__(self, code: str) -> None:
        self.code = code
        self.cursor = 0
        self.top = 0
        self.title = pn(code)

    def options(self, ctx: Ctx) -> list[Option]:
        moves = _moves(ctx)
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

    def preview(self, view: dict[str, Any], o: Option) -> list[str]:
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
        view = _view(ctx)
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
                icon = icon_of(o.token)
                self._send(ctx, f"play {o.space} {icon}:{o.here}/{o.there} {self.code}")
        elif what is Intent.BACK:
            ctx.pop()

    def _play_down(self, ctx: Ctx, o: Option) -> None:
        view = _view(ctx)
        line = f"play {o.space} {o.token} down"
        if view["inputs"]["human_bag"] == "physical" and view.get("bonus_pool_left"):
            pool = sorted(set(view["bonus_pool_left"]))

            def picked(c: Ctx, bonus: str) -> None:
                c.pop()
                self._send(c, f"{line} bonus={bonus}")
            ctx.push(ChoiceScreen(_("Bonus drawn?"), [(_(BONUS_WORDS.get(b, b)), b, "") for b in pool], picked))
            return
        self._send(ctx, line)

    def _send(self, ctx: Ctx, line: str) -> None:
        response = _run(ctx, line)
        if response is None:
            return
        ctx.pop()                                          # the options
        ctx.pop()                                          # the provinces
        steps = [s for s in response["steps"] if s["action"] != "play"]
        _auto_draw(ctx)
        if steps or response["winner"]:
            ctx.push(TurnScreen(steps, winner=response["winner"], mine=True, then=go_on,
                                actions=_view(ctx)["actions"]))
        else:
            go_on(ctx)


def _auto_draw(ctx: Ctx, before: str = "") -> None:
    """After your move (and its bonus choices): with a digital bag, draw what is owed at once
    and say which tokens to take from the bag (one notice instead of two more steps)."""
    view = _view(ctx)
    if view["winner"] or view["inputs"]["human_bag"] != "digital":
        if before:
            ctx.notify(before)
        return
    player = me(view)
    drawn: list[str] = []
    for _i in range(4):
        view = _view(ctx)
        due = view["human"]["draws_due"] if view["mode"] == "solo" else view["players"][player]["draws_due"]
        if view["step"] != "draw" or not due or view["turn"] != player:
            break
        response = _run(ctx, "draw")
        if response is None:
            return
        drawn.append(response["token"])
    if drawn:
        before = (before + " " if before else "") + _("Take {} from your bag.").format(", ".join(tok(t) for t in drawn))
    if before:
        ctx.notify(before)


# -- bonuses and draws ---------------------------------------------------------------------------
def _open_bonus(ctx: Ctx, kind: str) -> None:
    view = _view(ctx)
    if kind == "might":
        foe = "crassus" if view["mode"] == "solo" else opponent(view, view["turn"])
        pos = view["position"]
        choices = [(space_row(sid, nums(v["token"])), sid, nums(v["token"])) for sid, v in pos["spaces"].items()
                   if v["by"] == foe and not v["face_down"]]
        choices += [(_("marker in {}").format(pn(p)), p, "") for p, w in pos["control"].items()
                    if w == foe and p not in pos["flipped_control"]]
        choices.append((_("Skip"), "skip", ""))
        ctx.push(ChoiceScreen(_("Might: flip what?"), choices, lambda c, x: _bonus_done(c, f"might {x}")))
    else:
        cents = view["human"]["centurions"] if view["mode"] == "solo" else view["players"][view["turn"]]["centurions"]
        choices = [(tok(t), t, "") for t in cents] + [(_("Skip (draw as usual)"), "skip", "")]
        ctx.push(ChoiceScreen(_("Take a centurion"), choices, lambda c, x: _bonus_done(c, f"centurion {x}")))


def _bonus_done(ctx: Ctx, line: str) -> None:
    response = _run(ctx, line)
    if response is not None:
        ctx.pop()
        _auto_draw(ctx, response["bonus"]["text"])
        go_on(ctx)


def _draw(ctx: Ctx) -> None:
    view = _view(ctx)
    if view["inputs"]["human_bag"] == "physical":
        contents = view["human"]["bag_contents"] if view["mode"] == "solo" else []
        if contents:
            ctx.push(TokenPicker(_("You drew?"), contents, 1, lambda c, picked: _pop_then(c, f"draw {picked[0]}")))
        else:
            pool = [t.name for t in TOKENS if not t.centurion]
            ctx.push(TokenPicker(_("You drew?"), pool, 1, lambda c, picked: _pop_then(c, f"draw {picked[0]}")))
        return
    response = _run(ctx, "draw")
    if response is not None:
        ctx.notify(_("Take {} from your bag.").format(tok(response["token"])))
        go_on(ctx)


def _pop_then(ctx: Ctx, line: str) -> None:
    ctx.pop()
    response = _run(ctx, line)
    if response is not None:
        ctx.notify(_("Drew {}.").format(tok(response["token"])))
        go_on(ctx)


# -- pickers -------------------------------------------------------------------------------------
class ChoiceScreen(WrappedListScreen):
    """A list of (label, value, note); select calls ``on_pick(ctx, value)``."""

    def __init__(self, title: str, choices: list[tuple[str, str, str]],
                 on_pick: Callable[[Ctx, str], Any]) -> None:
        super().__init__()
        self.title = title
        self.choices = choices
        self.on_pick = on_pick

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(label, partial(self._pick, value=value), note) for label, value, note in self.choices]

    def _pick(self, ctx: Ctx, value: str) -> None:
        self.on_pick(ctx, value)


class TokenPicker(WrappedListScreen):
    """Pick ``count`` tokens out of ``pool`` (what could have been drawn), in the order drawn."""

    def __init__(self, title: str, pool: list[str], count: int,
                 on_done: Callable[[Ctx, list[str]], None]) -> None:
        super().__init__()
        self.title = title
        self.pool = sorted(pool)
        self.count = count
        self.picked: list[str] = []
        self.on_done = on_done

    def status(self, ctx: Ctx) -> str:
        return f"{len(self.picked)}/{self.count}"

    def items(self, ctx: Ctx) -> list[Item]:
        left = list(self.pool)
        for name in self.picked:
            left.remove(name)
        counts: dict[str, int] = {}
        for name in left:
            counts[name] = counts.get(name, 0) + 1
        return [Item(tok(n), partial(self._pick, name=n), f"×{k}" if k > 1 else "") for n, k in counts.items()]

    def _pick(self, ctx: Ctx, name: str) -> None:
        self.picked.append(name)
        self.cursor = self.top = 0
        if len(self.picked) >= self.count:
            self.on_done(ctx, list(self.picked))

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("row", key) is Intent.BACK and self.picked:
            self.picked.pop()
            return
        super().key(key, ctx)


# -- board ---------------------------------------------------------------------------------------
def province_rows(view: dict[str, Any]) -> list[tuple[str, str]]:
    """Per province: (name, status): ``5–3`` (first/second player's influence) while open, else
    who controls it."""
    pos = view["position"]
    totals, _empty = influence(view)
    out = []
    for code in PROVINCES:
        if code in pos["control"]:
            holder = pos["control"][code]
            mark = "*" if code in pos["flipped_control"] else ""
            status = (_("tie") if holder == "none" else who(view, holder)) + mark
        else:
            a, b = totals[code]
            status = f"{a}–{b}"
        out.append((pn(code), status))
    return out


class BoardScreen(WrappedListScreen):
    """The 18 provinces with both influence totals or who controls them; select one for its spaces."""

    def __init__(self) -> None:
        super().__init__()
        self.title = _("Provinces")


    def status(self, ctx: Ctx) -> str:
        return _("you–him") if _view(ctx)["mode"] == "solo" else _("Caesar–Pompey")

    def items(self, ctx: Ctx) -> list[Item]:
        rows = province_rows(_view(ctx))
        return [Item(label, partial(self._open, code=PROVINCES[i]), status) for i, (label, status) in enumerate(rows)]

    @staticmethod
    def _open(ctx: Ctx, code: str) -> None:
        ctx.push(province_detail(_view(ctx), code))


def province_detail(view: dict[str, Any], code: str) -> TextScreen:
    """One province: both influence totals (or who controls it), each space, the bonus."""
    pos = view["position"]
    x = PROVINCE_INDEX[code]
    totals, empty = influence(view)
    names = list(pos["markers_left"])
    if code in pos["control"]:
        holder = pos["control"][code]
        rows = [_("Closed: {}").format(_("tie") if holder == "none" else who(view, holder))]
    else:
        a, b = totals[code]
        rows = [f"{who(view, names[0])} {a}, {who(view, names[1])} {b}",
                _("Empty spaces: {}").format(empty[code])]
    for s in PROVINCE_SPACES[x]:
        sid = SPACES[s]
        other = PROVINCES[SPACE_B[s]] if PROVINCES[SPACE_A[s]] == code else PROVINCES[SPACE_A[s]]
        v = pos["spaces"].get(sid)
        if v is None:
            rows.append(_("{}: empty").format(pn(other)))
        elif v["face_down"]:
            rows.append(_("{}: {} face down").format(pn(other), who(view, v["by"])))
        else:
            rows.append(_("{}: {} {} here").format(pn(other), who(view, v["by"]), v["toward"][code]))
    bonus = pos["bonuses"].get(code)
    if bonus:
        rows.append(_("Bonus: {}").format(_(BONUS_WORDS.get(bonus, bonus))))
    return TextScreen(pn(code), rows)


# -- schematic map -------------------------------------------------------------------------------
def _map_points() -> tuple[tuple[int, int], ...]:
    """Pixel centres of the provinces: the board data's xy scaled into the area under the title."""
    xs = [p["xy"][0] for p in DATA["provinces"]]
    ys = [p["xy"][1] for p in DATA["provinces"]]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return tuple((4 + round((x - x0) / (x1 - x0) * (base.W - 9)),
                  base.TITLE_H + 5 + round((y - y0) / (y1 - y0) * (base.H - base.TITLE_H - 10)))
                 for x, y in zip(xs, ys))


MAP_POINTS = _map_points()

# The map's labels: two letters per province in the player's language, in the board's order
# (HU HC MT SD GA NU SC IT GC AF AC MD DM CY CR AG AS SY); the title names the cursor's province.
MAP_LABELS = N_("HU HC MT SD GA NU SC IT GC AF AC MD DM CY CR AG AS SY")

# A 5-pixel-tall letter face for the map's labels (rows top to bottom, '#' lit): only the letters
# the labels use; a label with a letter not here is not drawn.
_MICRO = {
    "A": ".#.|#.#|###|#.#|#.#", "C": ".##|#..|#..|#..|.##", "D": "##.|#.#|#.#|#.#|##.",
    "E": "###|#..|##.|#..|###", "F": "###|#..|##.|#..|#..", "G": ".##|#..|#.#|#.#|.##",
    "H": "#.#|#.#|###|#.#|#.#", "I": "###|.#.|.#.|.#.|###", "K": "#.#|#.#|##.|#.#|#.#",
    "M": "#...#|##.##|#.#.#|#...#|#...#", "N": "#..#|##.#|#.##|#..#|#..#", "R": "##.|#.#|##.|#.#|#.#",
    "S": ".##|#..|.#.|..#|##.", "T": "###|.#.|.#.|.#.|.#.", "U": "#.#|#.#|#.#|#.#|###",
    "Y": "#.#|#.#|.#.|.#.|.#.",
    "А": ".#.|#.#|###|#.#|#.#", "Б": "###|#..|##.|#.#|##.", "В": "##.|#.#|##.|#.#|##.",
    "Г": "###|#..|#..|#..|#..", "Д": ".###.|.#.#.|.#.#.|#####|#...#", "Е": "###|#..|##.|#..|###",
    "Є": ".##|#..|##.|#..|.##", "З": "##.|..#|.#.|..#|##.", "И": "#..#|#.##|##.#|#..#|#..#",
    "І": "###|.#.|.#.|.#.|###", "К": "#.#|#.#|##.|#.#|#.#", "М": "#...#|##.##|#.#.#|#...#|#...#",
    "Н": "#.#|#.#|###|#.#|#.#", "Р": "##.|#.#|##.|#..|#..", "С": ".##|#..|#..|#..|.##",
    "Т": "###|.#.|.#.|.#.|.#.", "У": "#.#|#.#|.##|..#|##.", "Ф": ".###.|#.#.#|#.#.#|.###.|..#..",
    "Х": "#.#|#.#|.#.|#.#|#.#", "Ц": "#.#.|#.#.|#.#.|####|...#",
}


def micro_width(label: str) -> int:
    """Pixels a label takes in the map's letter face (1 px between letters)."""
    return sum(len(_MICRO[ch].split("|")[0]) for ch in label) + max(0, len(label) - 1)


def micro(draw: ImageDraw.ImageDraw, x: int, y: int, label: str, fill: int = 1) -> None:
    """Draw ``label`` in the 5-pixel letter face with its top-left at (x, y) (not a font: not in
    ``base.TRACE``; :func:`label_places` says where the labels are)."""
    for ch in label:
        rows = _MICRO[ch].split("|")
        for dy, row in enumerate(rows):
            for dx, bit in enumerate(row):
                if bit == "#":
                    draw.point((x + dx, y + dy), fill=fill)
        x += len(rows[0]) + 1


STATUS_BOX = (0, base.H - base.LINE, 50, base.H - 1)     # the map's empty corner: the cursor's totals


def map_labels() -> list[str]:
    """The 18 labels in the current language (empty where the translation has a letter the map
    face lacks, or is not 18 labels)."""
    words = _(MAP_LABELS).split()
    if len(words) != len(PROVINCES):
        words = MAP_LABELS.split()
    return [w if all(ch in _MICRO for ch in w) else "" for w in words]


def label_places(labels: tuple[str, ...]) -> tuple[tuple[int, int] | None, ...]:
    """Where each label goes (top-left pixel): beside its province's mark and nearer it than any
    other mark, over no mark (with the cursor's frame), no other label and not the status corner.
    Every province gets one when the map allows (the search tries the clearest placements first);
    None where none fits (the title still names the province)."""
    return _label_places(labels)


def _gap(box: tuple[int, int, int, int], px: int, py: int) -> float:
    """Pixels between a label's ``box`` and the 7×7 mark centred on (px, py)."""
    dx = max(0, px - 3 - box[2], box[0] - (px + 3))
    dy = max(0, py - 3 - box[3], box[1] - (py + 3))
    return float((dx * dx + dy * dy) ** 0.5)


Box = tuple[int, int, int, int]
# (most pixels from its own mark, fewest pixels nearer its own mark than any other), strictest
# first: each label takes a spot under the strictest rule that still lets every label fit
LABEL_RULES = ((5, 2), (6, 2), (6, 1))
SEARCH_NODES = 20_000                  # placements tried before the fallback


def _clear(box: Box, taken: list[Box]) -> bool:
    x0, y0, x1, y1 = box
    if x0 < 0 or x1 > base.W - 1 or y0 < base.TITLE_H + 1 or y1 > base.H - 1:
        return False
    return all(x1 < a or x0 > c or y1 < b or y0 > d for a, b, c, d in taken)


def _spaced(box: Box) -> Box:
    """A placed label's box as other labels must keep clear of it: two labels side by side keep
    a gap wider than the one between letters, so "AF AC" never reads as one word."""
    return (box[0] - 2, box[1], box[2] + 2, box[3])


def _spots(labels: tuple[str, ...], taken: list[Box]) -> list[list[tuple[float, float, int, int]]]:
    """Per label, every spot within the loosest rule's reach of its mark that covers no mark and
    stays on the map: (pixels from its own mark, from the nearest other mark, x, y)."""
    own_max = LABEL_RULES[-1][0]                     # the loosest rule comes last
    out = []
    for i, ((x, y), label) in enumerate(zip(MAP_POINTS, labels)):
        w = micro_width(label) if label else 0
        near = [(px, py) for j, (px, py) in enumerate(MAP_POINTS)
                if j != i and abs(px - x) <= 2 * own_max + w + 12 and abs(py - y) <= 2 * own_max + 16]
        found = []
        for lx in range(x - 4 - own_max - w, x + 5 + own_max) if label else ():
            for ly in range(y - 8 - own_max, y + 5 + own_max):
                box = (lx, ly, lx + w - 1, ly + 4)
                own = _gap(box, x, y)
                if own <= own_max and _clear((lx - 1, ly - 1, lx + w, ly + 5), taken):
                    other = min((_gap(box, px, py) for px, py in near), default=99.0)
                    found.append((own, other, lx, ly))
        out.append(found)
    return out


def _candidates(spots: list[list[tuple[float, float, int, int]]], y_marks: tuple[int, ...]
                ) -> list[list[tuple[int, int]]]:
    """Per label, the spots that follow the loosest rule: those of the strictest rule it meets
    first, then the clearest (far from other marks, close to its own, level with it)."""
    def tier(own: float, other: float) -> int:
        return next(k for k, (most, margin) in enumerate(LABEL_RULES) if own <= most and other >= own + margin)

    most, margin = LABEL_RULES[-1]
    return [[(lx, ly) for *_k, lx, ly in sorted(
                (-tier(own, other), other - 2 * own, -abs(ly + 2 - y), lx, ly) for own, other, lx, ly in found
                if own <= most and other >= own + margin)[::-1]]
            for found, y in zip(spots, y_marks)]


def _search(labels: tuple[str, ...], options: list[list[tuple[int, int]]], taken: list[Box]
            ) -> list[tuple[int, int] | None] | None:
    """Every label placed without overlaps (depth first, the label with the fewest spots first),
    or None when that is impossible or takes more than SEARCH_NODES placements."""
    order = sorted(range(len(labels)), key=lambda k: len(options[k]))
    out: list[tuple[int, int] | None] = [None] * len(labels)
    placed = list(taken)
    nodes = 0

    def place(k: int) -> bool:
        nonlocal nodes
        if k == len(order):
            return True
        i = order[k]
        if not labels[i]:
            return place(k + 1)
        w = micro_width(labels[i])
        for lx, ly in options[i]:
            nodes += 1
            if nodes > SEARCH_NODES:
                return False
            box = (lx - 1, ly - 1, lx + w, ly + 5)
            if _clear(box, placed):
                out[i] = (lx, ly)
                placed.append(_spaced(box))
                if place(k + 1):
                    return True
                placed.pop()
                out[i] = None
        return False

    return out if place(0) else None


def _greedy(labels: tuple[str, ...], options: list[list[tuple[int, int]]], taken: list[Box]
            ) -> tuple[tuple[int, int] | None, ...]:
    """The fallback: labels placed one by one in a few orders (the most crowded first, the
    board's order, each province first once); the order that labels the most provinces wins,
    Italia (where the cursor starts) counting one and a half."""
    def greedy(order: list[int]) -> list[tuple[int, int] | None]:
        placed = list(taken)
        out: list[tuple[int, int] | None] = [None] * len(labels)
        for i in order:
            w = micro_width(labels[i]) if labels[i] else 0
            for lx, ly in options[i]:
                box = (lx - 1, ly - 1, lx + w, ly + 5)
                if _clear(box, placed):
                    out[i] = (lx, ly)
                    placed.append(_spaced(box))
                    break
        return out

    every = list(range(len(labels)))
    crowded = sorted(every, key=lambda k: (len(options[k]), k))
    orders = [crowded, every] + [[k] + [j for j in crowded if j != k] for k in crowded]
    italia = PROVINCE_INDEX["IT"]

    def labelled(r: list[tuple[int, int] | None]) -> float:
        return sum(x is not None for x in r) + 1.5 * (r[italia] is not None)

    best = max(orders, key=lambda o: labelled(greedy(o)))
    return tuple(greedy(best))


@lru_cache(maxsize=8)
def _label_places(labels: tuple[str, ...]) -> tuple[tuple[int, int] | None, ...]:
    taken: list[Box] = [(x - 5, y - 5, x + 5, y + 5) for x, y in MAP_POINTS] + [STATUS_BOX]
    options = _candidates(_spots(labels, taken), tuple(y for _x, y in MAP_POINTS))
    found = _search(labels, options, taken)
    return tuple(found) if found is not None else _greedy(labels, options, taken)


class MapScreen:
    """The board at a glance, laid out from the board data's coordinates. Each province is a
    7×7 mark: hollow = open, filled = yours (Caesar in a duel), crossed = Crassus's (Pompey),
    a bar = tied; its border lines are solid once a token lies there; beside it, two letters in
    the player's language (``SD``, ``СА``; the cursor's inverted; see :func:`label_places`). The
    joystick moves to the nearest province in that direction; the title names it in full, the
    bottom-left corner gives both totals (or who holds it); A opens its detail (or, choosing
    your move, picks it); press opens the list of all provinces."""

    def __init__(self, pick: Callable[[Ctx, str], None] | None = None) -> None:
        self.cursor = PROVINCE_INDEX["IT"]
        self.title = _("Map")
        self.pick = pick                       # choosing your move's province: A picks it

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        pos = view["position"]
        img, draw = base.frame()
        name, status = province_rows(view)[self.cursor]
        hint = _("A: here") if self.pick else ""
        if hint and len(name) + len(hint) + 1 > base.COLS:       # the name whole; the hint in the corner
            status, hint = hint, ""
        base.title_bar(draw, name, hint)
        for s, sid in enumerate(SPACES):
            (ax, ay), (bx, by) = MAP_POINTS[SPACE_A[s]], MAP_POINTS[SPACE_B[s]]
            if sid in pos["spaces"]:
                draw.line((ax, ay, bx, by), fill=1)
            else:
                steps = max(abs(bx - ax), abs(by - ay))
                for k in range(0, steps + 1, 3):
                    draw.point((ax + (bx - ax) * k // max(steps, 1), ay + (by - ay) * k // max(steps, 1)), fill=1)
        first = "human" if view["mode"] == "solo" else "caesar"
        for i, code in enumerate(PROVINCES):
            x, y = MAP_POINTS[i]
            box = (x - 3, y - 3, x + 3, y + 3)
            draw.rectangle((x - 4, y - 4, x + 4, y + 4), fill=0)
            holder = pos["control"].get(code)
            if holder is None:
                draw.rectangle(box, outline=1, fill=0)
            elif holder == first:
                draw.rectangle(box, fill=1)
            elif holder == "none":
                draw.rectangle(box, outline=1, fill=0)
                draw.line((x - 2, y, x + 2, y), fill=1)
            else:
                draw.rectangle(box, outline=1, fill=0)
                draw.line((x - 3, y - 3, x + 3, y + 3), fill=1)
                draw.line((x - 3, y + 3, x + 3, y - 3), fill=1)
            if i == self.cursor:
                draw.rectangle((x - 5, y - 5, x + 5, y + 5), outline=1)
        labels = map_labels()
        for i, (label, spot) in enumerate(zip(labels, label_places(tuple(labels)))):
            if spot is not None:                 # the cursor's label inverted
                draw.rectangle((spot[0] - 1, spot[1] - 1, spot[0] + micro_width(label), spot[1] + 5),
                               fill=int(i == self.cursor))
                micro(draw, spot[0], spot[1], label, fill=int(i != self.cursor))
        draw.rectangle(STATUS_BOX, fill=0)
        base.put(draw, 1, base.H - base.LINE - 1, status)     # the cursor's totals, or who holds it
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("map", key)
        if what in MOVES:
            self.cursor = nearest(self.cursor, MOVES[what])
        elif what is Intent.SELECT and self.pick is not None:
            self.pick(ctx, PROVINCES[self.cursor])
        elif what is Intent.SELECT:
            ctx.push(province_detail(_view(ctx), PROVINCES[self.cursor]))
        elif what is Intent.GO:
            ctx.push(BoardScreen())
        elif what is Intent.BACK:
            ctx.pop()


MOVES = {Intent.PREV: "up", Intent.NEXT: "down", Intent.LEFTWARD: "left", Intent.RIGHTWARD: "right"}


def nearest(i: int, direction: str) -> int:
    """The province nearest to ``i`` within 60° of ``direction`` on the map (``i`` if none)."""
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
    x0, y0 = MAP_POINTS[i]
    best, best_d = i, None
    for j, (x, y) in enumerate(MAP_POINTS):
        vx, vy = x - x0, y - y0
        along = vx * dx + vy * dy
        if j == i or along <= 0 or abs(vx * dy - vy * dx) > 1.8 * along:
            continue
        d = along + 2 * abs(vx * dy - vy * dx)
        if best_d is None or d < best_d:
            best, best_d = j, d
    return best


# -- tiles ---------------------------------------------------------------------------------------
class TilesScreen(WrappedListScreen):
    """The tile contents in use (unverified defaults marked, S-4) and an editor for the next game."""

    def __init__(self) -> None:
        super().__init__()
        self.title = _("Command tiles")


    def status(self, ctx: Ctx) -> str:
        return ""

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        t = view["tiles"]
        out = []
        for letter, text in t["definitions"].items():
            mark = "?" if letter in t["unverified_letters"] else ""
            n = len(text.split("+"))
            out.append(Item(_("Tile {}").format(tile_letter(letter)) + mark, partial(self._edit, letter=letter),
                            ngettext("{} action", "{} actions", n).format(n)))
        deck = " ".join(tile_letter(x) for x in t["deck"])
        out.append(Item(_("Deck {}").format(deck), None, _("{} left").format(t["stack"])))
        if t["unverified"]:
            out.append(Item(_("? = contents not verified"), None))
        return out

    @staticmethod
    def _edit(ctx: Ctx, letter: str) -> None:
        ctx.push(TileEditor(letter, _current_tiles(ctx)))


def _current_tiles(ctx: Ctx) -> dict[str, list[str]]:
    tiles = {k: list(v) for k, v in DEFAULT_TILES.items()}
    saved = remembered_tiles(ctx)
    if saved:
        tiles.update(parse_tiles(saved))
    return tiles


class TileEditor(ListScreen):
    """Edit one tile's actions (up/down pick a slot, left/right change it; A saves for the next
    game in the ``caesar.tiles`` setting; B cancels)."""

    CHOICES = ("-",) + ACTIONS

    def __init__(self, letter: str, tiles: dict[str, list[str]]) -> None:
        super().__init__()
        self.letter = letter
        self.tiles = tiles
        self.slots = list(tiles[letter]) + ["-"] * (6 - len(tiles[letter]))
        self.title = _("Tile {}").format(tile_letter(letter))

    def status(self, ctx: Ctx) -> str:
        return _("A: save")

    def items(self, ctx: Ctx) -> list[Item]:
        def word(a: str) -> str:
            return "—" if a == "-" else _(ACTION_WORDS.get(a, a))
        return [Item(f"{i + 1}.", None, f"◀{word(a)}▶" if i == self.cursor else word(a), ident=f"slot:{i}",
                     adjust=partial(self._change, slot=i)) for i, a in enumerate(self.slots)]

    def _change(self, ctx: Ctx, by: int, slot: int) -> None:
        i = self.CHOICES.index(self.slots[slot])
        self.slots[slot] = self.CHOICES[(i + by) % len(self.CHOICES)]

    def go(self, ctx: Ctx) -> None:
        actions = [a for a in self.slots if a != "-"]
        tiles = dict(self.tiles)
        tiles[self.letter] = actions
        text = ";".join(f"{k}:{'+'.join(v)}" for k, v in sorted(tiles.items()) if v)
        try:
            parse_tiles(text)
        except BadArguments as e:       # a tile without play, etc.: say so, keep editing
            log.info("tile %s refused: %s", self.letter, e)
            ctx.notify(_("A tile needs at least one play and at most six actions."))
            return
        response = ctx.set_setting(TILES_KEY, text)
        if not response["ok"]:
            ctx.notify(response["message"])
        else:
            ctx.settings[TILES_KEY] = text
            ctx.pop()
            ctx.notify(_("Tile {} saved: {}. Used from the next new game.").format(
                tile_letter(self.letter), tile_words("+".join(actions))))


__all__ = ["CaesarHome", "MapScreen", "MAP_POINTS", "OptionScreen", "ProvincePicker", "SetupGuide", "TileEditor",
           "TilePicker", "TurnScreen", "nearest", "open_game", "setup_form"]
