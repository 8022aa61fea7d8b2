"""Julius Caesar: exact odds and advice (J-14, J-15), asked once per step of the battle and computed
off the main loop on the device (a pending answer shows as …); the odds line and the odds screen."""
from __future__ import annotations

from enum import Enum
from typing import Literal, TypeVar, cast

from engine.actions import Line
from engine.jc import actions as act
from engine.jc.replies import AdviseReply, OddsReply
from engine.replies import Reply
from engine.jc.views import BattleView, JcRules
from engine.text import N_
from firmware.i18n import decimal, decimal_mark
from firmware.screens.jc.text import _
from firmware.screens.ctx import Ctx
from firmware.screens.jc.words import side_name, view_of, win_chance
from firmware.screens.widgets import OddsScreen, pct, share_of

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


def chance_text(ctx: Ctx, side: str, p: float) -> str:
    """``side``'s chance ``p`` of holding the field, written as the odds screen writes it when it
    is the chance now (the odds screen rounds its three figures to sum to 100: the battle's line
    and the advised option then say its 41 %, not 40 %), else on its own (:func:`pct`)."""
    odds = odds_now(ctx)
    b = view_of(ctx)["battle"]
    if odds is None or odds is PENDING or abs(win_chance(b, side, odds) - p) > 1e-9:
        return pct(p)
    return share_of([odds["attacker_wins"], odds["defender_holds"], odds["attacker_eliminated"]],
                    side == b["attacker"])


def beside(p: float, best: str) -> str:
    """``p`` written to be read beside ``best``, the advised choice's figure: with one decimal too
    when that has one (a whole 89 % beside 90.4 % reads 1.4 % less where the advice says 1.6 %),
    else as :func:`pct` writes it; a certainty or a bound (<0.1 %) as it writes them."""
    text = pct(p)
    if decimal_mark(".") in best and not any(c in text for c in ".,<>") and 0 < p < 1:
        return decimal(100 * p) + "%"
    return text


def advice_value(ctx: Ctx, action: str, block: str) -> str:
    """The deciding side's chance to hold the field if it takes ``action`` with ``block`` now
    (another choice's written :func:`beside` the advised one's)."""
    advice = advice_now(ctx)
    if advice is None:
        return ""
    if advice is PENDING:
        return WAIT
    b = view_of(ctx)["battle"]
    side = advice["decision"]["side"]
    best = advice.get("advised") or advice.get("best")       # (✓: a leader spared, J-2, J-17)
    for o in advice.get("options", []):
        if o.get("action") == action and o.get("block") == block:
            if best is None or o is best or o == best:
                return ("✓" if best is not None else "") + chance_text(ctx, side, win_chance(b, side, o))
            return beside(win_chance(b, side, o), chance_text(ctx, side, win_chance(b, side, best)))
    return ""


# The odds line while one side has no blocks: a whole sentence per side (its case in Russian and
# Ukrainian), each short enough for the footer row (21 columns).
NO_BLOCKS = {"caesar": N_("Caesar has no blocks"), "pompey": N_("Pompey has no blocks")}


def odds_line(ctx: Ctx) -> str:
    """The deciding side's chance to hold the field now (J-15, J-14 play), or the attacker's."""
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
    chance = WAIT if odds is PENDING else chance_text(ctx, side, win_chance(b, side, odds))
    return _("{}: win {}").format(side_name(side), chance)


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

    return OddsScreen(title, valued, empty=lambda: why[0], waiting=lambda: _("Computing the exact odds…"))
