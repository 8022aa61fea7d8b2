"""Caesar!: the new-game form (mode, side, difficulty, modules, how tiles and bags are drawn) and
the guide to setting up the physical board."""
from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine.actions import Line, with_people
from engine.caesar import actions as act
from engine.caesar.editions import EDITIONS, edition_for_language, variant_values
from engine.caesar.terms import BONUS_WORDS, EDITION_LABEL, EDITION_SHORT, PLAYER_WORDS, edition_name
from engine.caesar.tokens import TOKENS
from engine.caesar.views import CaesarView
from engine.replies import NewReply
from engine.text import N_
from firmware.i18n import language
from firmware.screens.caesar.record import POISON_MODULE
from firmware.screens.caesar.text import Msg, _, say
from firmware.screens import base, play
from firmware.screens.caesar.icons import draw_tokens, tokens_width
from firmware.screens.caesar.pickers import TokenPicker
from firmware.screens.caesar.words import (
    DIFF_WORDS,
    DIFFS,
    HARDER,
    HARDER_WORDS,
    INPUT,
    SIDES,
    fit,
    pn,
    remembered_tiles,
    view_of,
)
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Field, Intent, Item, NumberForm, Scroll, intent, on_off, scroll_bar
from firmware.screens.widgets.dice import source_word
from firmware.screens.widgets.people import Seats
from firmware.screens.widgets.scroll import row_at, spot_of
from firmware.screens.widgets.share import FairShare

log = logging.getLogger(__name__)


# -- set-up --------------------------------------------------------------------------------------
FORM_KEY = "caesar.new"      # the device setting that remembers the form's last choices
SOLO_ONLY = frozenset({"side", "diff", "edition", "harder", "tiles"})   # rows a duel does not have
MODULE_FIELDS = (("poison", "poison"), ("centurions", "cent"), ("border-control", "bctl"))


class SetupForm(NumberForm):
    """The set-up rows (a duel's without the solo-only ones; a duel's two players), the fair-draw
    code and the players' share, and an explicit Start row at the end (A, right or press on it
    starts; A on any figure row starts too, as the title bar says)."""

    def visible(self) -> list[Field]:
        duel = self.values().get("mode") == 1
        return [f for f in self.fields if not (duel and f.key in SOLO_ONLY)]

    def field_items(self, rows: list[int] | None = None) -> list[Item]:
        shown = self.visible()
        everything, self.fields = self.fields, shown       # NumberForm draws self.fields
        try:
            return super().field_items(rows)
        finally:
            self.fields = everything

    seats: Seats | None = None          # the duel's two players (issue 24 §1: firmware/screens/widgets/people.py)

    def items(self, ctx: Ctx) -> list[Item]:
        duel = self.seats is not None and self.values().get("mode") == 1
        people = self.seats.items(ctx) if duel and self.seats is not None else []
        return self.field_items() + people + self.fair_items(ctx) + [Item("▶ " + _("Start"), self.go, ident="start")]

    def hint(self, ctx: Ctx) -> str:
        """What A does on the row under the cursor: start (a figure, Start), choose (a player), or
        the fair-draw row's own (in the title bar where it fits beside the title)."""
        row = self.row_ident(ctx)
        hint = self.fair.hint(row) if self.fair is not None else None
        return hint if hint is not None else _("A: choose") if row.startswith("seat:") else _("A: start")

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Caesar!")

    edition_from: str | None = None     # the language whose rulebook the Rulebook row holds, unchosen

    def render(self, ctx: Ctx) -> Image.Image:
        self._follow_language()
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        self._follow_language()
        super().key(key, ctx)

    def _follow_language(self) -> None:
        """A Rulebook row nobody chose holds the language's rulebook (PROTOCOL third round): the
        language changed while the form is open (Settings, ``settings language=``), it moves to
        the new language's, keeping the Harder rule the row says."""
        now = language()
        if self.edition_from is None or self.edition_from == now:
            return
        self.edition_from = now
        self._set_edition(EDITIONS.index(edition_for_language(now)))

    def _set_edition(self, value: int) -> None:
        """Another rulebook keeps the Harder rule the row says (always / with control, S-8), not
        its place (1: as the rulebook says, 2: the other way; the two rulebooks swap them)."""
        rows = {f.key: f for f in self.fields}
        before = harder_when(self.values())
        rows["edition"].value = value
        if harder_when(self.values()) != before:
            rows["harder"].value = 3 - rows["harder"].value

    def _change(self, ctx: Ctx, by: int, field: Field) -> None:
        if field is not {f.key: f for f in self.fields}["edition"]:
            super()._change(ctx, by, field)
            return
        self.edition_from = None                        # chosen: it stays whatever the language
        self._set_edition(max(field.lo, min(field.hi, field.value + by)))
        if self.keep is not None:
            self.keep(self.values())


Home = Callable[[Ctx, bool], None]   # show the new game's home (and, when True, lead on to the first turn)


def form_choices(ctx: Ctx) -> dict[str, str]:
    """The choices the form remembers (setting ``caesar.new``: ``side:pompey,diff:hard,…``)."""
    raw = str(ctx.settings.get(FORM_KEY) or "")
    out: dict[str, str] = {}
    for part in raw.split(","):
        key, sep, value = part.partition(":")
        if sep:
            out[key] = value
    return out


def _edition_of(v: dict[str, int]) -> str:
    return EDITIONS[v["edition"]]


def harder_when(v: dict[str, int]) -> str | None:
    """When the Harder rule takes a marker (S-8): None when off; 1 = as the edition says, 2 = the
    other way."""
    if not v["harder"]:
        return None
    own = variant_values(_edition_of(v))["harder-when"]
    return own if v["harder"] == 1 else next(x for x in HARDER[1:] if x != own)


def setup_form(home: Home | None = None, ctx: Ctx | None = None) -> SetupForm:
    """Mode, side, difficulty, the rules edition, expansions, Harder, how tiles and bags are drawn;
    Start. The rows start at the last game's choices (``ctx`` given: the ``caesar.new`` setting);
    the edition at the language's rulebook unless another was chosen."""
    last = form_choices(ctx) if ctx is not None else {}

    def at(key: str, choices: tuple[str, ...], default: int) -> int:
        return choices.index(last[key]) if last.get(key) in choices else default

    def flag(key: str) -> int:
        return 1 if last.get(key) == "1" else 0

    edition = at("edition", EDITIONS, EDITIONS.index(edition_for_language(language())))
    own_when = variant_values(EDITIONS[edition])["harder-when"]
    harder = 0 if last.get("harder", "off") not in HARDER[1:] + ("on",) else \
        1 if last["harder"] in ("on", own_when) else 2

    def harder_word(value: int) -> str:
        when = harder_when({"harder": value, "edition": edition_field.value})
        return _(HARDER_WORDS[when or "off"])

    edition_field = Field("edition", EDITION_LABEL, edition, 0, len(EDITIONS) - 1,
                          lambda v: _(EDITION_SHORT[EDITIONS[v]]))
    fields = [Field("mode", N_("Players"), at("mode", ("solo", "duel"), 0), 0, 1, lambda v: (_("solo"), _("duel"))[v]),
              Field("side", N_("Your side"), at("side", SIDES, 0), 0, 1, lambda v: _(PLAYER_WORDS[SIDES[v]])),
              Field("diff", N_("Difficulty"), at("diff", DIFFS, 1), 0, 2, lambda v: _(DIFF_WORDS[v])),
              edition_field,
              Field("poison", POISON_MODULE, flag("poison"), 0, 1, on_off),
              Field("cent", N_("Centurions"), flag("cent"), 0, 1, on_off),
              Field("bctl", N_("Border control"), flag("bctl"), 0, 1, on_off),
              Field("harder", N_("Harder"), harder, 0, 2, harder_word),    # S-8: a marker goes with a removed bonus
              Field("tiles", N_("Tiles"), at("tiles", INPUT, 0), 0, 1, source_word),
              Field("bags", N_("Bags"), at("bags", INPUT, 0), 0, 1, source_word)]

    fair = FairShare()

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        remember(ctx, v)
        if v["bctl"] and not (v["poison"] or v["cent"]):       # C-21 (not the console's border-control=1 words)
            ctx.notify(Msg("Border control needs the Poison expansion or Centurions (C-21)."))
            return
        mods = [m for m, f in MODULE_FIELDS if v[f]]
        if v["mode"] == 1:
            _start(ctx, with_people(act.new_duel(mods, INPUT[v["bags"]]), seats.people()), home, fair)
            return
        tiles = remembered_tiles(ctx)
        when = harder_when(v)
        own = variant_values(_edition_of(v))["harder-when"]

        def solo(row: list[str] | None = None) -> Line[NewReply]:
            harder: bool | str | None = None if when is None else True if when == own else when
            return act.new_solo(SIDES[v["side"]], DIFFS[v["diff"]], mods, harder, INPUT[v["tiles"]], INPUT[v["bags"]],
                                tiles, row, edition=_edition_of(v))
        if v["bags"]:
            def with_row(c: Ctx, picked: list[str]) -> None:
                c.pop()
                _start(c, solo(picked), home, fair)
            ctx.push(TokenPicker(lambda: _("His 3 tokens"), [t.name for t in TOKENS if not t.centurion], 3, with_row,
                                 confirm=True))          # S-2: no undo before the game starts: shown first
        else:
            _start(ctx, solo(), home, fair)

    seats = Seats([(s, partial(_, PLAYER_WORDS[s])) for s in ("caesar", "pompey")], lambda i: "—")
    form = SetupForm(_("New Caesar! game"), fields, go, fair=fair)
    form.seats = seats
    if last.get("edition") not in EDITIONS:            # the language's rulebook: it follows the language
        form.edition_from = language()
    return form


def remember(ctx: Ctx, v: dict[str, int]) -> None:
    """Keep the form's choices for the next new game (the ``caesar.new`` setting); the edition
    only when it is not the language's (so that it follows a change of language otherwise)."""
    when = harder_when(v)
    own = variant_values(_edition_of(v))["harder-when"]
    parts = {"mode": ("solo", "duel")[v["mode"]], "side": SIDES[v["side"]], "diff": DIFFS[v["diff"]],
             "poison": str(v["poison"]), "cent": str(v["cent"]), "bctl": str(v["bctl"]),
             "harder": "off" if when is None else "on" if when == own else when,
             "tiles": INPUT[v["tiles"]], "bags": INPUT[v["bags"]]}
    if _edition_of(v) != edition_for_language(language()):
        parts["edition"] = _edition_of(v)
    text = ",".join(f"{k}:{x}" for k, x in parts.items())
    if ctx.settings.get(FORM_KEY) == text:
        return
    response = ctx.set_setting(FORM_KEY, text)
    if not response.get("ok"):
        log.warning("the new-game form's choices were not kept: %s", response.get("message"))


def _start(ctx: Ctx, line: Line[NewReply], home: Home | None, fair: FairShare | None = None) -> None:
    def guide() -> Any:
        return SetupGuide(home)
    play.start_game(ctx, line, guide, title=lambda: _("New game?"), fair=fair)


GUIDE_TITLES = {"senate": N_("Senate"), "bonuses": N_("Bonus tokens"), "left_over": N_("Left-over bonuses"),
                "markers": N_("Control markers"), "centurions": N_("Centurions"),
                "his_centurions": N_("His centurions"), "row": N_("Crassus's row"), "tiles": N_("Command tiles"),
                "hand": N_("Your tokens")}
SHORT_TITLES = {"tiles": N_("Tiles"), "left_over": N_("Left over"), "his_centurions": N_("Centurions")}
GuidePage = tuple[str, str, list[str], list[str]]      # (key, title, text rows, tokens drawn large)


def _same_sentence(old: list[tuple[str, int]], new: list[tuple[str, int]], top: int) -> int:
    """The row of ``new`` (a page's sentences and their first rows, said in another language than
    ``old``) where the sentence shown first at row ``top`` of ``old`` begins; a bonus's list of
    provinces (its id said, not a sentence) at its heading."""
    at = max((i for i, (_t, start) in enumerate(old) if start <= top), default=None)
    if at is None or at >= len(new):
        return top
    text, start = old[at]
    if text in BONUS_WORDS.values():
        return new[at][1]
    _p, sentence, share = spot_of([text], top - start, WIDTH)
    return new[at][1] + row_at([new[at][0]], (0, sentence, share), WIDTH)
WIDTH = base.COLS - 1            # a row beside the scroll bar


class SetupGuide:
    """The physical set-up, one page per step of the engine's ``guide`` (C-5, C-19..C-21, S-2,
    S-3): Italy's Senate and the bonus token of every other province (grouped by bonus), the
    bonus tokens left over, the control markers, the centurions (yours, and his stack for tiles
    D and E), Auto-Crassus's first row, the tile deck of the difficulty, your first tokens and
    who starts. Tokens are drawn large under their sentence. A: the rest of a long page, then the
    next page; right: the next page at once; left: back a page; up/down: scroll a long page; B:
    leave. After a new game (``home`` given) the last page leads to its home and on to the first
    turn, and B to its home."""

    def __init__(self, home: Home | None = None) -> None:
        self.home = home
        self.page = 0
        self.scroll = Scroll()
        self.title = _("Set-up")
        self._pages: tuple[tuple[int, str], list[GuidePage]] | None = None
        self._paras: list[list[tuple[str, int]]] = []    # each page's sentences and the row each starts at

    def pages(self, ctx: Ctx) -> list[GuidePage]:
        """(key, title, text rows, tokens drawn large) per page, from the ``guide`` answer; said
        again in a new language, the page opens at the sentence the reader was at (not the same
        row: the rows wrap otherwise)."""
        view = view_of(ctx)
        mark = (view["actions"], language())
        if self._pages is not None and self._pages[0] == mark:
            return self._pages[1]
        before, self._paras = self._paras, []
        out = self._made(ctx, view)
        if self._pages is not None and self._pages[0][0] == mark[0] and self.page < min(len(before), len(self._paras)):
            self.scroll.top = _same_sentence(before[self.page], self._paras[self.page], self.scroll.top)
        self._pages = (mark, out)
        return out

    def _made(self, ctx: Ctx, view: CaesarView) -> list[GuidePage]:
        response = ctx.run(act.guide())
        steps = response.get("steps", []) if response.get("ok") else []
        if not steps:
            log.warning("no set-up guide: %s", response.get("message"))
        out: list[GuidePage] = [self.summary(view)] if self.home is not None else []
        self._paras = [[] for _page in out]
        for step in steps:
            part, text = step["key"], str(step["text"])
            rows = base.wrap(text, WIDTH)
            if part == "first":                      # who starts: the last sentence of the last page
                if out:
                    self._paras[-1].append((text, len(out[-1][2])))
                    out[-1][2].extend(base.wrap(text, WIDTH))
                continue
            paras = [(text, 0)]
            if part == "bonuses":
                for bonus in BONUS_WORDS:
                    names = [pn(code) for code, b in step["bonuses"].items() if b == bonus]
                    if names:
                        paras.append((BONUS_WORDS[bonus], len(rows)))
                        rows.append(f"{_(BONUS_WORDS[bonus])} ×{len(names)}:")
                        rows += ["  " + r for r in base.wrap(", ".join(names), WIDTH - 2)]
            out.append((part, _(GUIDE_TITLES.get(part, part)), rows, list(step["tokens"])))
            self._paras.append(paras)
        return out

    @staticmethod
    def summary(view: CaesarView) -> GuidePage:
        """A new game's first page: what was chosen — its first row clear of the fair-draw code box
        shown over the first frame, the rest (rulebook, modules, that right turns a page at once) under
        it, read once it closes."""
        if view["mode"] == "solo":
            head = _("You: {side}, {level}").format(level=_(DIFF_WORDS[DIFFS.index(view["difficulty"])]),
                                                    side=_(PLAYER_WORDS[view["side"]]))
        else:
            head = _("Caesar vs Pompey")
        mods = view["position"]["modules"]
        names = [_(word) for key, word in (("poison", POISON_MODULE), ("centurions", N_("Centurions")),
                                           ("border_control", N_("Border control"))) if mods.get(key)]
        if view["rules"].get("harder", "off") != "off":
            names.append(_("Harder"))
        rows = [base.clip(head, WIDTH), ""] + base.wrap(say(edition_name(str(view["rules"].get("edition", "mixed")))),
                                                       WIDTH)
        rows += base.wrap(", ".join(names) if names else _("No modules"), WIDTH)
        # (read once A has shown the rest of this page: the guide's pages are longer than the panel,
        # A shows each page's rest before turning it; right, said nowhere, turned it at once)
        rows += base.wrap(_("→ turns a page at once."), WIDTH)
        return ("summary", _("New game"), rows, [])

    def shown(self, page: GuidePage) -> int:
        """Text rows on screen: all four, or three above the tokens drawn large."""
        return base.ROWS - 1 if page[3] else base.ROWS

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        pages = self.pages(ctx)
        if not pages:
            base.title_bar(draw, _("Set-up"))
            return img
        self.page = min(self.page, len(pages) - 1)
        part, title, rows, tokens = pages[self.page]
        count = f"{self.page + 1}/{len(pages)}"
        shorter = _(SHORT_TITLES[part]) if part in SHORT_TITLES else title
        base.title_bar(draw, fit(base.COLS - len(count) - 1, title, shorter), count)
        room = self.shown(pages[self.page])
        top = self.scroll.fit(len(rows), room)
        for i, r in enumerate(rows[top:top + room]):
            base.put(draw, 1, base.row_y(i), base.clip(r, WIDTH))
        scroll_bar(draw, top, room, len(rows), base.row_y(0), room * base.LINE)
        if tokens:
            kind = "large" if tokens_width(tokens, "large") <= base.W - 2 else "body"
            draw_tokens(draw, 1, base.row_y(room) - (1 if kind == "large" else 0), tokens, kind=kind)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        pages = self.pages(ctx)
        what = intent("pages", key)
        if pages:
            page = pages[min(self.page, len(pages) - 1)]
            if self.scroll.move(what, len(page[2]), self.shown(page)):
                return
            if what is Intent.CLOSE and self.scroll.read_on(len(page[2]), self.shown(page)):
                return                                        # A shows the rest of a page first
        if what in (Intent.CLOSE, Intent.RIGHTWARD):          # A, press or right: the next page
            if self.page + 1 < len(pages):
                self.page, self.scroll.top = self.page + 1, 0
            elif self.home is not None:
                self.home(ctx, True)
            else:
                ctx.pop()
        elif what is Intent.LEFTWARD and self.page > 0:
            self.page, self.scroll.top = self.page - 1, 0
        elif what in (Intent.BACK, Intent.LEFTWARD):
            if self.home is not None:
                self.home(ctx, False)
            else:
                ctx.pop()
