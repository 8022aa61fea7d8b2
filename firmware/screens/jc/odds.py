"""Julius Caesar: exact odds and advice (J-14, J-15), asked once per step of the battle and computed
off the main loop on the device (a pending answer shows as …); the odds line and the odds screen."""
from __future__ import annotations

from enum import Enum
from collections.abc import Sequence
from typing import Literal, TypeVar, cast

from engine.actions import Line
from engine.jc import actions as act
from engine.jc.advise import TIE
from engine.jc.replies import AdviseReply, OddsReply
from engine.replies import Reply
from engine.jc.views import BattleView, JcRules
from engine.text import N_
from firmware.i18n import decimal_mark
from firmware.screens.jc.text import _
from firmware.screens.ctx import Ctx
from firmware.screens.jc.words import side_name, view_of, win_chance
from firmware.screens.widgets import OddsScreen, pct, share_of
from firmware.screens.widgets.odds import FINE_ABOVE, FINE_BELOW

# -- odds and advice, computed once per game step ----------------------------------------------
_CACHE: dict[tuple[str, str], Reply | None] = {}
R = TypeVar("R", bound=Reply)


def _step_key(b: BattleView, rules: JcRules) -> str:
    """What the odds and the advice depend on: the step, the blocks (a block given by its rating
    is keyed by its place, blk1, blk2…: an undo may put another rating there), the battle's
    own rules (a surprise, J-10; the roles swapped, J-9) and the game's (when Cleopatra fights for
    the side she joins, J-2, and where the device puts a tied hit, ``leaders``: another game's battle
    may be this one to the block under the other rule)."""
    return repr((rules["cleopatra"], rules.get("leaders"), b["number"], b["phase"], b["round"], b["decision"], b["dice"], b["surprise"],
                 b["attacker_now"], b["roles_swapped"],
                 [(x["key"], x["side"], x["role"], x["kind"], x["rating"], x["strength"], x["max"], x["status"],
                   x["reserve"], x["acted"]) for x in b["blocks"]]))


class Pending(Enum):
    """An answer being computed off the main loop."""

    PENDING = "pending"


PENDING: Literal[Pending.PENDING] = Pending.PENDING


WAIT = "…"                                                # shown where a pending figure goes


def _cached(ctx: Ctx, line: Line[R]) -> R | Pending | None:
    """The reply of the read-only ``line`` (odds, advise) for the battle as it is now; None if
    the console refuses it, PENDING while the device computes it (the screen is drawn again when
    it is ready). Recomputed only when the battle changes."""
    view = view_of(ctx)
    key = (line, _step_key(view["battle"], view["rules"]))
    if key not in _CACHE:
        response = ctx.ask(line)
        if response is None:
            return PENDING
        if len(_CACHE) > 32:
            _CACHE.clear()
        reply: Reply = response
        _CACHE[key] = reply if reply.get("ok") else None
    return cast("R | None", _CACHE[key])     # the line is part of the key: its own reply


def odds_now(ctx: Ctx) -> OddsReply | Pending | None:
    return _cached(ctx, act.odds())


def advice_now(ctx: Ctx) -> AdviseReply | Pending | None:
    b = view_of(ctx)["battle"]
    return _cached(ctx, act.advise()) if b["decision"] is not None else None


def chance_text(ctx: Ctx, side: str, p: float, tenths: bool = False) -> str:
    """``side``'s chance ``p`` of holding the field, written as the odds screen writes it when it
    is the chance now (each of its figures rounded on its own, summing to 100, :func:`percents`:
    the battle's line and the advised option say its 40.5 %, never a 41 % beside it), else on its
    own (:func:`pct`); ``tenths``: with one decimal (as the odds screen then writes its set)."""
    odds = odds_now(ctx)
    b = view_of(ctx)["battle"]
    if odds is None or odds is PENDING or abs(win_chance(b, side, odds) - p) > 1e-9:
        return decimal_mark(_written(p, True)) if tenths else pct(p)
    return share_of([odds["attacker_wins"], odds["defender_holds"], odds["attacker_eliminated"]],
                    side == b["attacker"], tenths)


# -- the figures of one decision's choices, read side by side ---------------------------------------
def _point(text: str) -> str:
    """A figure as written in the current language, with a decimal point again."""
    return text.replace(",", ".")


def _written(p: float, fine: bool) -> str:
    """``p`` with a decimal point: one decimal (``fine``) or a whole percent; a certainty and a
    bound as :func:`pct` writes them (``0%``, ``<0.1%``, ``>99.9%``, ``100%``)."""
    if p <= 0 or p >= 1:
        return "0%" if p <= 0 else "100%"
    if p < 0.0005 or p > 0.9995:
        return "<0.1%" if p < 0.5 else ">99.9%"
    return f"{100 * p:.1f}%" if fine else f"{100 * p:.0f}%"


def tenths(text: str) -> int:
    """A figure as written (either decimal mark, a ✓ before it) in tenths of a percent, as a reader
    takes it to work out a difference: a bound at its bound's end (``<0.1%`` 0, ``>99.9%`` 1000)."""
    t = _point(text).lstrip("✓").rstrip("%")
    if t.startswith("<") or t.startswith(">"):
        return 0 if t.startswith("<") else 1000
    return round(10 * float(t))


def _reads_right(shown: list[str], ps: Sequence[float], best: int, whole: bool) -> bool:
    """Whether the figures written read as the chances are ordered against the advised one: never
    a better choice written lower (a share rounded to sum to 100 beside one rounded on its own),
    and, written whole, never two different chances written alike (50.4 % and 50.1 %: «50%» twice
    with a difference to say)."""
    for i, p in enumerate(ps):
        gap = ps[best] - p
        d = tenths(shown[best]) - tenths(shown[i])
        if abs(gap) <= TIE and d != 0 or gap > TIE and d < 0 or gap < -TIE and d > 0:
            return False
        if whole and abs(gap) > TIE and d == 0:
            return False
    return True


def side_by_side(ps: Sequence[float], best: int, best_text: str, best_tenths: str = "") -> list[str]:
    """The chances ``ps`` of one decision's choices written to be read side by side, ``best`` (✓)
    first written ``best_text`` (as the odds line writes the chance now, :func:`chance_text`): all
    whole percents while every chance is from 10 to 90 % (and the figures read in the chances'
    order), else all with one decimal (89 % beside 90.4 % read 1.4 % less where the advice said 1.6 %;
    13 % beside 7.2 % read 5.8 % less where it said 5.5 %). A certainty or a bound as :func:`pct`
    writes it; ✓ with one decimal written ``best_tenths`` where given (as the odds screen then writes
    it, :func:`chance_text`). Differences are worked out from these figures (:func:`difference`)."""
    mark = _point(best_text)
    fine = any(0 < p < FINE_BELOW or FINE_ABOVE < p < 1 for p in ps) or "." in mark
    if not fine:
        shown = [mark if i == best else _written(p, False) for i, p in enumerate(ps)]
        if _reads_right(shown, ps, best, whole=True):
            return [decimal_mark(x) for x in shown]
    fine_mark = mark if "." in mark else _point(best_tenths)
    shown = [fine_mark if i == best and "." in fine_mark else _written(p, True) for i, p in enumerate(ps)]
    if not _reads_right(shown, ps, best, whole=False):
        shown = [_written(p, True) for p in ps]
    return [decimal_mark(x) for x in shown]


def difference(higher: str, lower: str) -> str:
    """How much ``higher`` exceeds ``lower``, both figures as written side by side: their
    difference as a reader works it out (a bound at its end, :func:`tenths`), to their precision;
    ``<0.1%`` where one decimal writes two different chances alike."""
    d = max(0, tenths(higher) - tenths(lower))
    fine = any(c in _point(higher + lower) for c in ".<>")
    if d == 0:
        return decimal_mark("<0.1%" if fine else "<1%")
    return decimal_mark(f"{d / 10:.1f}%" if fine else f"{d // 10}%")


def advice_figures(ctx: Ctx) -> tuple[AdviseReply, int, list[float], list[str]] | None:
    """The advice on the decision now and its choices' chances for the deciding side, with the
    index of the advised one (✓: a leader spared, J-2, J-17) and every chance written
    :func:`side_by_side`; None while there is no advice (pending, refused, none to give)."""
    advice = advice_now(ctx)
    if advice is None or advice is PENDING or not advice.get("options"):
        return None
    b = view_of(ctx)["battle"]
    side = advice["decision"]["side"]
    options = advice["options"]
    best = advice.get("advised") or advice.get("best")
    index = next((i for i, o in enumerate(options) if o is best or o == best), None)
    if best is None or index is None:
        return None
    ps = [win_chance(b, side, o) for o in options]
    return advice, index, ps, side_by_side(ps, index, chance_text(ctx, side, ps[index]),
                                           chance_text(ctx, side, ps[index], tenths=True))


def advice_value(ctx: Ctx, action: str, block: str) -> str:
    """The deciding side's chance to hold the field if it takes ``action`` with ``block`` now,
    written beside the other choices' (:func:`side_by_side`), ✓ before the advised one's."""
    advice = advice_now(ctx)
    if advice is None:
        return ""
    if advice is PENDING:
        return WAIT
    got = advice_figures(ctx)
    if got is None:
        return ""
    advice, index, _ps, shown = got
    for i, o in enumerate(advice["options"]):
        if o.get("action") == action and o.get("block") == block:
            return ("✓" if i == index else "") + shown[i]
    return ""


# The odds line while one side has no blocks: a whole sentence per side (its case in Russian and
# Ukrainian), each short enough for the footer row (21 columns).
NO_BLOCKS = {"caesar": N_("Caesar has no blocks"), "pompey": N_("Pompey has no blocks")}


def odds_line(ctx: Ctx, advised: bool = False) -> str:
    """The deciding side's chance to hold the field now (J-15, J-14 play), or the attacker's;
    ``advised``: under a list of the advice's figures, where the chance now, when it is ✓'s, is
    written as ✓'s is (:func:`side_by_side`: «✓34,8%» above «победа 34,8%», not «35%»)."""
    b = view_of(ctx)["battle"]
    if b["phase"] == "over":
        return _("Winner: {}").format(side_name(b["winner"]))
    if b["phase"] == "setup" and view_of(ctx)["campaign"]["over"]:      # no battle to come (J-17): no odds
        return ""
    odds = odds_now(ctx)
    if odds is None:          # refused: a side without blocks, or a set-up the rules refuse (J-8)
        missing = [b[role] for role in ("attacker", "defender") if not any(x["side"] == b[role] for x in b["blocks"])]
        if len(missing) == 1:                       # whose blocks are still to come, a whole sentence
            return _(NO_BLOCKS.get(missing[0], NO_BLOCKS["caesar"]))
        return _("Odds: no blocks yet") if missing else _("Odds: fix the set-up")
    side = b["decision"]["side"] if b["decision"] else b["attacker"]
    return _("{}: win {}").format(side_name(side), WAIT if odds is PENDING else _chance_now(ctx, odds, advised))


def _chance_now(ctx: Ctx, odds: OddsReply, advised: bool) -> str:
    """The deciding side's chance now (the attacker's) as :func:`odds_line` writes it."""
    b = view_of(ctx)["battle"]
    side = b["decision"]["side"] if b["decision"] else b["attacker"]
    got = advice_figures(ctx) if advised else None
    if got is not None and abs(got[2][got[1]] - win_chance(b, side, odds)) <= 1e-9:
        return got[3][got[1]]            # the chance now is ✓'s: as the list beside it writes it
    return chance_text(ctx, side, win_chance(b, side, odds))


def advised_line(b: BattleView) -> bool:
    """Whether the battle's line stands under the advice's figures (a hit, one block's actions)."""
    d = b["decision"]
    return d is not None and (d["kind"] == "hit" or len(d["blocks"]) == 1)


def line_in_tenths(ctx: Ctx) -> bool:
    """Whether the battle's line writes the chance now with one decimal (beside a choice's 9.6 %):
    the odds screen then writes its figures so, «40.5%» on both, never «40%» on one."""
    odds = odds_now(ctx)
    if odds is None or odds is PENDING or view_of(ctx)["battle"]["phase"] == "over":
        return False
    return "." in _point(_chance_now(ctx, odds, advised_line(view_of(ctx)["battle"])))


# The odds screen's outcomes, one whole sentence per side (its case in Russian and Ukrainian), each
# short enough to stand beside ">99.9%" on one row (14 columns).
OUTCOME_WORDS = {("caesar", "wins"): N_("Caesar wins"), ("pompey", "wins"): N_("Pompey wins"),
                 ("caesar", "holds"): N_("Caesar holds"), ("pompey", "holds"): N_("Pompey holds"),
                 ("caesar", "destroyed"): N_("Caesar crushed"), ("pompey", "destroyed"): N_("Pompey crushed")}


def odds_screen() -> OddsScreen:
    """Exact odds under the J-14 policy from the current point (J-15), a bar per outcome."""
    def title(ctx: Ctx) -> str:
        return _("Odds now") if view_of(ctx)["battle"]["phase"] == "fighting" else _("Odds at the start")

    def outcomes(ctx: Ctx) -> list[tuple[str, float]] | None:
        b = view_of(ctx)["battle"]
        response = odds_now(ctx)
        if response is PENDING:
            return None
        if response is None:
            return []
        att, dfn = b["attacker"], b["defender"]
        return [(_(OUTCOME_WORDS[att, "wins"]), response["attacker_wins"]),
                (_(OUTCOME_WORDS[dfn, "holds"]), response["defender_holds"]),
                (_(OUTCOME_WORDS[att, "destroyed"]), response["attacker_eliminated"])]

    why = [""]

    def refused(ctx: Ctx) -> str:
        """Why the set-up cannot be valued (J-8, rules 7.3), said short enough for the screen."""
        b = view_of(ctx)["battle"]
        main = all(any(x["side"] == b[role] and not x["reserve"] for x in b["blocks"])
                   for role in ("attacker", "defender"))
        return (_("Navis attacking beside land blocks are reserves: add them so.")
                if main else _("Add at least one block to each side (not only reserves)."))

    def valued(ctx: Ctx) -> list[tuple[str, float]] | None:
        rows = outcomes(ctx)
        if rows == []:
            why[0] = refused(ctx)
        return rows

    return OddsScreen(title, valued, empty=lambda: why[0], waiting=lambda: _("Computing the exact odds…"),
                      tenths=line_in_tenths)
