"""Julius Caesar: the advice on a hit in words — the advised block, a leader's price (J-2, J-17),
what each other choice costs, blocks alike in all but their name (J-7); «Why ✓?» of the battle."""
from __future__ import annotations

from typing import NamedTuple

from engine.jc.advise import SPARE, TIE
from engine.jc.roster import roman
from engine.jc.views import BlockView
from engine.text import N_
from firmware.i18n import decimal_mark
from firmware.screens.ctx import Ctx
from firmware.screens.jc.odds import advice_figures, difference
from firmware.screens.jc.text import _
from firmware.screens.jc.words import name_of, owned_name, side_name, view_of


# -- advice on a hit: a leader, and what the other choice costs ------------------------------------
class Choice(NamedTuple):
    """A block that may take the hit, the deciding side's chance with it, and that chance as the
    hit list writes it beside the others (:func:`side_by_side`)."""

    block: BlockView
    chance: float
    shown: str


def hit_advice(ctx: Ctx) -> tuple[Choice, list[Choice]] | None:
    """For a hit decision whose advice is ready: the advised block (✓: a leader spared, J-2, J-17)
    and every other choice (best first), each with its chance as the hit list writes it."""
    b = view_of(ctx)["battle"]
    d = b["decision"]
    if d is None or d["kind"] != "hit":
        return None
    got = advice_figures(ctx)
    if got is None:
        return None
    advice, index, ps, shown = got
    blocks = {x["key"]: x for x in b["blocks"]}
    choices = [(o.get("target"), p, text) for o, p, text in zip(advice["options"], ps, shown)]
    if choices[index][0] not in blocks:
        return None
    others = sorted((Choice(blocks[str(k)], p, text) for i, (k, p, text) in enumerate(choices)
                     if i != index and k != choices[index][0] and k in blocks), key=lambda x: -x.chance)
    return Choice(blocks[str(choices[index][0])], choices[index][1], choices[index][2]), others


LEADER_PRICE = {
    (True, "caesar"): N_("{} is a leader: this hit kills him. A killed leader is gone for good and gives Caesar "
                         "1 VP; the odds count this battle only."),
    (True, "pompey"): N_("{} is a leader: this hit kills him. A killed leader is gone for good and gives Pompey "
                         "1 VP; the odds count this battle only."),
    (False, "caesar"): N_("{} is a leader: if he is killed he is gone for good and gives Caesar 1 VP; the odds "
                          "count this battle only."),
    (False, "pompey"): N_("{} is a leader: if he is killed he is gone for good and gives Pompey 1 VP; the odds "
                          "count this battle only.")}


def alike(ctx: Ctx) -> list[BlockView]:
    """The blocks a hit decision asks between when they are alike in all but their name (J-7): none
    a leader, one kind and one rating (equally strong: the level's) — two C2 legions at III, say;
    none otherwise. The battle's odds are the same whichever takes the hit: what the pick settles
    is which block the table turns, whose strength the device keeps for the battles to come."""
    b = view_of(ctx)["battle"]
    d = b["decision"]
    if d is None or d["kind"] != "hit" or len(d["choices"]) < 2:
        return []
    blocks = {x["key"]: x for x in b["blocks"]}
    tied = [blocks[k] for k in d["choices"] if k in blocks]
    if len(tied) < 2 or any(x["kind"] == "leader" for x in tied) or len({(x["kind"], x["rating"]) for x in tied}) > 1:
        return []
    return tied


def why_hit(ctx: Ctx) -> list[str]:
    """The advice on a hit in sentences: who, the chance, a leader's price (J-2, J-17) and what
    each other choice costs; blocks alike in all but their name (:func:`alike`): why it is asked."""
    same = alike(ctx)
    if same:
        names = ", ".join(owned_name(x) for x in same)
        return [_("{}: alike ({} {}); the odds are the same whichever takes the hit. Give it to the block "
                  "you turn on the table: the device keeps each block's strength for the battles to come.").format(
            names, same[0]["rating"], roman(same[0]["strength"]))]
    got = hit_advice(ctx)
    if got is None:
        return [_("The advice is not ready yet.")]
    best, others = got
    deciding = view_of(ctx)["battle"]["decision"]["side"]              # type: ignore[index]
    side = side_name(deciding)
    rows = [_("Advised: {} takes the hit; {} then holds the field with {}.").format(
        owned_name(best.block), side, best.shown)]
    if best.block["kind"] == "leader":      # one sentence per side gaining the VP: ru/uk decline its name
        enemy = "caesar" if best.block["side"] == "pompey" else "pompey"
        rows.append(_(LEADER_PRICE[best.block["strength"] <= 1, enemy]).format(name_of(best.block)))
    spared = False
    for block, p, said in others:          # each difference worked out from the figures written
        if p > best.chance + TIE and block["kind"] == "leader":      # a leader spared (J-2, J-17): what it costs
            enemy = "caesar" if block["side"] == "pompey" else "pompey"
            rows += [_("{} instead: {} ({} more).").format(owned_name(block), said, difference(said, best.shown)),
                     _(LEADER_PRICE[block["strength"] <= 1, enemy]).format(name_of(block))]
            if not spared:          # the rule, once (Pompeius and Scipio both spared)
                rows.append(_("✓ spares a leader when another block's chance is less than {} lower.").format(
                    decimal_mark(f"{100 * SPARE:g}%")))
            spared = True
        elif best.chance - p <= TIE:      # equal odds (Legio 3 beside the advised Legio 1): not «(0% less)»
            rows.append(_("{} instead: {} (the same).").format(owned_name(block), said))
        else:
            rows.append(_("{} instead: {} ({} less).").format(owned_name(block), said, difference(best.shown, said)))
    return rows
