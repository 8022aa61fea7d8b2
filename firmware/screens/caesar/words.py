"""Caesar!: the words and the reading of the view every screen shares — province, space, token and
player names in the player's language, the tile words, the titles of Auto-Crassus's steps, the why
page, and the influence in each province."""
from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Callable
from typing import Any, TypeVar, cast

from engine.actions import Line
from engine.caesar import actions as act
from engine.caesar.board import PROVINCE_INDEX, PROVINCE_NAMES, PROVINCE_SPACES, PROVINCES, SPACE_A, SPACE_B, SPACE_INDEX
from engine.caesar.replies import DecideReply, MovesReply, Step
from engine.caesar.terms import EDITION_TILE_LETTERS, ICON_WORDS, PLAYER_WORDS, STEP_WORDS
from engine.caesar.views import CaesarView
from engine.replies import Reply
from engine.text import N_
from firmware.i18n import again
from firmware.screens.caesar.text import Msg, _, ngettext
from firmware.screens import base, play
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import Item, item_rows

log = logging.getLogger(__name__)
R = TypeVar("R", bound=Reply)

GAMES = ("caesar-solo", "caesar-duel")


DIFFS = ("easy", "normal", "hard")


DIFF_WORDS = (N_("easy"), N_("normal"), N_("hard"))


SIDES = ("caesar", "pompey")


HARDER = ("off", "always", "control")


HARDER_WORDS = {"off": N_("off"), "always": N_("always"), "control": N_("on capture")}


INPUT = ("digital", "physical")


TILES_KEY = "caesar.tiles"


ACTION_WORDS = {"draw1": N_("draw 1"), "draw2": N_("draw 2"), "draw3": N_("draw 3"), "play": N_("play"),
                "discard1": N_("discard 1"), "discard2": N_("discard 2"), "centurion": N_("centurion")}


# what the device remembers between screens of one App (cursor of your move, per session)
MEMORY: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()


def view_if_any(ctx: Ctx) -> CaesarView | None:
    """The session's ``state`` if the session is a Caesar! game (another may have been started from
    the console), else None."""
    view = ctx.view()
    return cast(CaesarView, view) if view is not None and view["game"] in GAMES else None


def view_of(ctx: Ctx) -> CaesarView:
    """The session's ``state``, read through its TypedDicts (engine/caesar/views.py)."""
    return cast(CaesarView, play.game_view(ctx, GAMES, "Caesar!"))


class Follows(play.Follows):
    """A Caesar! screen of a choice (your move, a tile, a token, a bonus, passing the device): it
    goes when an undo takes back what it shows or a step is played meanwhile (:class:`play.Follows`)."""

    games = GAMES
    now_only = True


# Errors a screen of the game meets only when the game moved on under it (an undo, a line from the
# console), and console words in a message (``send crassus``, ``tile=``): such messages speak to a
# console user, and the device says this instead.
MOVED_ON = ("not_your_turn", "game_over")
CONSOLE_WORDS = re.compile(r"[a-z][a-z-]*=|<[a-z]+>|\b(crassus|reveal-tile|draw|play|might|centurion|skip)\b")


def run_line(ctx: Ctx, line: Line[R]) -> R | None:
    """Run ``line``; on an error say why in the player's words (never a console command: the
    engine's messages for a move out of turn name one) and return None."""
    response = ctx.run(line)
    reply: Reply = response
    if reply["ok"]:
        return response
    log.info("%s refused: %s", line.split(" ")[0], reply.get("message"))
    if reply.get("error") in MOVED_ON or CONSOLE_WORDS.search(str(reply.get("message", ""))):
        ctx.notify(Msg("Not possible now: the game has moved on."))
    else:
        ctx.notify(reply.get("message", ""))
    return None


def memory(ctx: Ctx) -> dict[str, str]:
    try:
        return MEMORY.setdefault(ctx, {})
    except TypeError:                       # a context that cannot be weakly referenced
        log.debug("%s cannot be weakly referenced: nothing is remembered between screens", type(ctx).__name__)
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


def facing(sid: str, toward: dict[str, int]) -> str:
    """A token's numbers as it lies on space ``sid``, in the order :func:`space_name` names the
    space's provinces: ``Sicilia–Italia`` with 1 toward Sicilia and 5 toward Italia is ``1/5``."""
    s = SPACE_INDEX[sid]
    return f"{toward[PROVINCES[SPACE_A[s]]]}/{toward[PROVINCES[SPACE_B[s]]]}"


def space_row(sid: str, note: str, said: Callable[[str], str] = str) -> str:
    """A space's name for a list row with ``note`` at its right (``said``: the row's words around
    the name): in full when the row takes at most two lines, else with the short forms (one entry
    never fills the panel)."""
    return two_rows(said(space_name(sid)), said(space_name(sid, short=True)), note)


def two_rows(full: str, short: str, note: str = "") -> str:
    """A list row's label ``full`` when the row (``note`` at its right) takes at most two lines,
    else ``short`` (its names in their short forms)."""
    return full if len(item_rows(Item(full, None, note))) <= 2 else short


def useless(full: str, short: str, note: str = "") -> str:
    """A Might row whose flip changes nothing (C-15, engine rules.flip_changes), marked: ``Gallia–
    Gallia Cisalpina (useless)``, else with the short names (:func:`two_rows`), else (a long pair
    in a language whose mark is long: uk «Д. Іспанія–Мавретанія (марно)» with its numbers) the
    mark before the short names, ``(useless) Ulterior–Citerior``: two lines at most, always."""
    row = two_rows(_("{} (useless)").format(full), _("{} (useless)").format(short), note)
    if len(item_rows(Item(row, None, note))) <= 2:
        return row
    return _("(useless) {}").format(short)


def count_tied(text: str, n: int) -> str:
    """A sentence ending in a count and its words, ``Caesar: 1 marker`` (C-9: the rulebooks' «1
    жетон контроля», «1 маркер контролю»), with the count and those words kept on one row by the
    wrap (:data:`base.TIE`) when they fit one: «Цезарь:» / «1 жетон контроля», never «Цезарь: 1
    жетон» / «контроля». The tie is the wrap's, never drawn (the font has no no-break space): a
    translation keeps plain spaces. As it is when the count is not in it."""
    head, mark, tail = text.rpartition(f" {n} ")
    if not mark or len(mark) - 1 + len(tail) > base.COLS - 1:
        return text
    return head + " " + f"{n} {tail}".replace(" ", base.TIE)


def icon_of(name: str) -> str:
    return name.split(":")[0]


def nums(name: str) -> str:
    """``sword:5/1`` -> ``5/1``."""
    return name.split(":")[1]


def tok(name: str) -> str:
    """A token for a person: ``sword 5/1`` (``меч 5/1``)."""
    return f"{_(ICON_WORDS[icon_of(name)])} {nums(name)}"


def who(view: CaesarView, player: str) -> str:
    """You / Crassus / Caesar / Pompey / nobody."""
    return _(PLAYER_WORDS.get(player, player))


def placed_said(view: CaesarView) -> str:
    """C-12, the final count as History says it: the control markers each side placed (on the
    board and under Senate tokens; not those the harder game removed, S-8), you or Caesar first —
    the home's ``You 0 · Crassus 7`` counts the markers left, the other way round."""
    m = view["markers"]
    a, b = (12 - int(m[n]["left"]) - int(m[n]["removed"]) for n in view["position"]["markers_left"])
    if view["mode"] != "solo":
        return _("Control markers placed: Caesar {a}, Pompey {b}.").format(a=a, b=b)
    said = _("Control markers placed: you {a}, Crassus {b}.").format(a=a, b=b)
    gone = int(m["crassus"]["removed"])
    if gone:        # the harder game (S-8): «Красс размещает свой последний жетон контроля» beside «Красс — 7»
        said += " " + ngettext("{n} more of his control markers went out of the game with his bonus (harder game).",
                               "{n} more of his control markers went out of the game with his bonuses (harder game).",
                               gone).format(n=gone)
    return said


def edition_of(view: CaesarView | None) -> str:
    """The rules edition of the game shown (``ru``, ``uk``, ``mixed``; no game: ``mixed``)."""
    return view["rules"].get("edition", "mixed") if view is not None else "mixed"


def tile_letter(letter: str, edition: str) -> str:
    """A command tile's letter as the chosen edition's tiles print it, in any language (S-3: the
    Russian box А Б В Г Д, the Ukrainian A B C D E); the ``mixed`` rules: the language's letters."""
    letters = EDITION_TILE_LETTERS.get(edition) or _("ABCDE")
    i = "ABCDE".find(letter)
    return letters[i] if 0 <= i < len(letters) and len(letters) == 5 else letter


def tile_words(definition: str) -> str:
    """``draw2+play+discard1`` -> ``draw 2 · play · discard 1``."""
    return " · ".join(_(ACTION_WORDS.get(a, a)) for a in definition.split("+") if a)


def me(view: CaesarView) -> str:
    """The player the device acts for now: you in solo, the player to move in a duel."""
    return "human" if view["mode"] == "solo" else view["turn"]


def opponent(view: CaesarView, player: str) -> str:
    names: list[str] = list(view["position"]["markers_left"])
    return names[1] if player == names[0] else names[0]


def remembered_tiles(ctx: Ctx) -> str | None:
    value = ctx.settings.get(TILES_KEY)
    return value or None


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


def snapshot(title: str, body: str | list[str]) -> play.Snapshot:
    """A text of the game as it is now (the score, a hand, his row, a province): it goes once a
    step is played or taken back (:class:`play.Snapshot`)."""
    return play.Snapshot(GAMES, title, body)


def why_screen(d: Step | DecideReply, now: bool = False, lead: str = "") -> play.Snapshot:
    """The decision's why (DESIGN: every automated move has a why screen): the title names the
    step in words, the body is the engine's sentence in the rulebook's words (the point of the
    priority list, the tie-break lists used), after ``lead`` if given (what he would play). The
    digest's rule IDs stay in the log. It goes when an undo takes the play back; ``now`` (what he
    would play now): also once a step is played."""
    why = again(d["why"])              # in the language of the moment (a screen made again: the new one)
    body = [lead, why] if lead else why
    screen = snapshot(_("Why"), body)
    screen.now_only = now
    last = len(screen.rows) - base.ROWS + 1         # its last scroll position: the widest count («10/20»)
    room = base.COLS - (len(f"{last}/{last}") + 1 if last > 1 else 0)
    step = d.get("step")
    if step is None:
        screen.title = fit(room, _("Why: {}").format(_("Cannot place")), _("Why"))
    else:
        word = _(STEP_WORDS.get(step, step))
        screen.title = fit(room, _("Why: {}").format(word), word)
    return screen


def legal_moves(ctx: Ctx) -> MovesReply:
    response = ctx.run(act.moves())
    return response if response["ok"] else MovesReply(ok=False, side="", moves=[], face_down=[], count=0)


def influence(view: CaesarView) -> tuple[dict[str, list[int]], dict[str, int]]:
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
