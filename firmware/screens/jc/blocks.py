"""Julius Caesar: the blocks between battles — a step lost outside battle (Vulcan; Jupiter on a
leader or navis: J-2, J-3, J-17), a step levied back (J-20), a block changing side (a Jupiter
defection, Cleopatra) and a block disbanded in the winter (rules 8.3-8.5: back to the levy pool, its
steps forfeit).

Home → Blocks → a side → its blocks in play (from the roster, strength carried over) → a block:
Lose a step, Gain a step, Go over to the other side, or Disband; a block in the levy pool (off the
map: disbanded, or given back by a winter) is listed as such and offers Levy alone (J-20: at I). Each is one console line (``lose``,
``gain``, ``owner``, ``disband``), journaled: the notice says what happened and that hold B takes it
back (Undo: hold B). Only a step that ends the block (a leader killed for good, any other block
eliminated for the year) asks first."""
from __future__ import annotations

from functools import partial
from typing import Any

from engine.jc import actions as act
from engine.jc.replies import RosterBlock
from engine.jc.roster import roman
from engine.jc.terms import NOW_FIGHTS
from engine.text import N_
from firmware.screens.ctx import Ctx, remade
from firmware.screens.jc.setup import strengths
from firmware.screens.jc.kinds import GroupedBlocks
from firmware.screens.jc.text import Msg, _
from firmware.screens import base
from firmware.screens.jc.words import (SIDES, BlockNamed, fitted_name, name_of, owned_name, roster_now, run_line,
                                       side_name, view_of)
from firmware.screens.widgets import ConfirmScreen, Item, ListScreen

# what the console did, in its own words (engine/jc/console.py ``_LOST``: the same catalog entries)
LOST_WORDS = {"reduced": N_("{} loses a step outside battle ({}→{})."),
              "eliminated": N_("{} is eliminated outside battle: it cannot be levied again this year (J-3)."),
              ("killed", "caesar"): N_("{} is killed outside battle: a trophy for Caesar."),
              ("killed", "pompey"): N_("{} is killed outside battle: a trophy for Pompey.")}

# the last step asked first: a leader killed for good is a trophy for the enemy (J-2, J-17)
LAST_STEP = {("leader", "caesar"): N_("{} is at I: killed for good, 1 VP for Caesar."),
             ("leader", "pompey"): N_("{} is at I: killed for good, 1 VP for Pompey."),
             "block": N_("{} is at {}: eliminated, no levy again this year.")}   # the elephant at II (J-2)

GO_OVER = {"caesar": N_("Go over to Caesar"), "pompey": N_("Go over to Pompey")}
GAINED = N_("{} gains a step from a levy ({}→{}).")      # engine/jc/console.py ``_gain``: the same entry
LEVIED = N_("{} is levied from the levy pool: it comes in at {}.")   # engine/jc/console.py ``LEVIED``: the same
# a block disbanded to its owner's levy pool (engine/jc/console.py ``_DISBANDED``: the same catalog entries)
DISBANDED = {"caesar": N_("{} is disbanded to Caesar's levy pool: its steps are forfeit; levied again, it comes "
                          "in at {}."),
             "pompey": N_("{} is disbanded to Pompey's levy pool: its steps are forfeit; levied again, it comes "
                          "in at {}.")}


def other(side: str) -> act.Side:
    return "pompey" if side == "caesar" else "caesar"


def in_battle(ctx: Ctx) -> set[str]:
    """The roster blocks of the battle being fought or set up: its steps are lost there, its side
    kept (the console refuses ``lose`` and ``owner`` for them)."""
    b = view_of(ctx)["battle"]
    return set() if b["phase"] == "over" else {x["id"] for x in b["blocks"] if x["id"]}


def roster_of(ctx: Ctx, side: str) -> list[RosterBlock]:
    """The side's blocks in play (killed and eliminated blocks are out of play: J-2, J-3)."""
    return [b for b in roster_now(ctx, side) if b["status"] == "available"]


def undo_said(text: str) -> str:
    """A change's notice and how to take it back (a long B, as everywhere)."""
    return Msg("{} Undo: hold B.", text)


class BlocksMenu(ListScreen):
    """The two sides; each opens its blocks in play."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Blocks")

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(side_name(side), partial(_open_side, side=side), ident=side) for side in SIDES]


def _open_side(ctx: Ctx, side: str) -> None:
    ctx.push(SideBlocks(side))


class SideBlocks(GroupedBlocks):
    """One side's blocks in play by kind, with their rating and strength; A opens a block's changes,
    hold A (KEY3) gains it a step from a levy point (J-20) at once: a levy is a press a step."""

    second_action = True           # hold A (KEY3): a levy step on the block under the cursor

    def __init__(self, side: str) -> None:
        super().__init__()
        self.side = side

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.kind_title or side_name(self.side)

    def status(self, ctx: Ctx) -> str:
        """"outside battle" beside the side's name, in every language; not beside a kind's («Legions
        outside battle» does not fit, «Navis» and «Легионы» did: it came and went by the word's
        length), which is opened from the side's list."""
        return "" if self.kind_title else _("outside battle")

    def block_rows(self, ctx: Ctx) -> list[tuple[RosterBlock, Item]]:
        fighting = in_battle(ctx)
        out = []
        for b in roster_of(ctx, self.side):
            if b["id"] in fighting:
                out.append((b, Item(owned_name(b), partial(_fighting, block=b), _("in battle"), ident=b["id"])))
            elif b["pool"]:             # off the map: no strength of its own until levied (J-3, J-19, J-20)
                out.append((b, Item(owned_name(b), partial(_open_block, side=self.side, block=b), _("levy pool"),
                                    ident=b["id"])))
            else:
                out.append((b, Item(owned_name(b), partial(_open_block, side=self.side, block=b),
                                    f"{str(b['rating']).split('/')[0]} {roman(b['strength'])}", ident=b["id"])))
        return out


    def second(self, ctx: Ctx) -> None:
        """Hold A on a block: a step from a levy point (J-20), said as Gain a step says it; on a
        block in the battle what A says; elsewhere what A does."""
        items = self.items(ctx)
        ident = items[min(self.cursor, len(items) - 1)].key if items else ""
        block = next((b for b in roster_of(ctx, self.side) if b["id"] == ident), None)
        if block is None:
            self.select(ctx)
        elif block["id"] in in_battle(ctx):
            _fighting(ctx, block)
        else:
            gain_step(ctx, block)


def gain_step(ctx: Ctx, block: RosterBlock, leave: bool = False) -> bool:
    """A levy point adds a step to ``block`` (J-20): the console's ``gain`` (a block at its most
    is refused in the console's words); the notice says it and how to take it back. ``leave``: the
    screen on top (the block's menu) closes first, the notice then said over the one under it (a
    notice too long for the box is a screen of its own, which a close after it took off unread —
    every levy in Russian and Ukrainian). True if done."""
    response = run_line(ctx, act.gain(block["id"]))
    if response is None:
        return False
    if leave:
        ctx.pop()
    if response.get("levied"):                   # out of the levy pool, onto the map at I (J-20)
        ctx.notify(undo_said(Msg(LEVIED, BlockNamed(block), roman(response["to"]))))
    else:
        ctx.notify(undo_said(Msg(GAINED, BlockNamed(block), roman(block["strength"]), roman(response["to"]))))
    return True


def _back(ctx: Ctx) -> None:
    ctx.pop()


SET_UP = N_("{} is in the battle being set up: fight it first.")
"""A block placed in the battle being set up (J-4, J-20): it fights at the strength it was added with, which a
levy point, Vulcan's step or a defection taken now would not reach (said for hold A, a levy, too: no step of
it is lost there yet, as «its steps are lost there» said)."""


def _fighting(ctx: Ctx, block: RosterBlock) -> None:
    if view_of(ctx)["battle"]["phase"] == "setup":
        ctx.notify(Msg(SET_UP, BlockNamed(block)))
        return
    ctx.notify(Msg("{} is in the current battle: its steps are lost there.", BlockNamed(block)))


def _open_block(ctx: Ctx, side: str, block: RosterBlock) -> None:
    ctx.push(BlockMenu(side, block["id"]))


class BlockMenu(ListScreen):
    """One block: Lose a step (Vulcan; Jupiter on a leader or navis) — with what it leaves —, Go over
    to the other side (Jupiter; never a leader or navis, J-2). A change closes the menu."""

    def __init__(self, side: str, block: str) -> None:
        super().__init__()
        self.side = side
        self.block = block
        self._title = ""

    @property
    def title(self) -> str:  # type: ignore[override]
        return self._title

    def now(self, ctx: Ctx) -> RosterBlock | None:
        """The block as the roster has it now (None once it is out of play or on the other side)."""
        return next((b for b in roster_of(ctx, self.side) if b["id"] == self.block), None)

    def stale(self, ctx: Ctx) -> bool:
        """True once the block is no longer this side's block in play (an undo, a line from the
        serial link), or the session is no longer a Julius Caesar game."""
        try:
            return self.now(ctx) is None or self.block in in_battle(ctx)
        except LookupError:
            return True

    def status(self, ctx: Ctx) -> str:
        b = self.now(ctx)
        if b is None:
            return ""
        rating = str(b["rating"]).split("/")[0]
        return rating if b["pool"] else f"{rating} {roman(b['strength'])}"     # (in the pool: off the map)

    def items(self, ctx: Ctx) -> list[Item]:
        b = self.now(ctx)
        if b is None or self.block in in_battle(ctx):      # changed meanwhile (the serial link)
            self._title = ""
            return [Item(_("Not in play now."), _back)]
        status = self.status(ctx)       # the name fitted beside it, its number and initial kept (J-7)
        self._title = fitted_name(b, base.COLS - (len(status) + 1 if status else 0))
        if b["pool"]:             # off the map: a levy point places it (J-20), nothing else reaches it
            return [Item(_("Levy"), partial(self._gain, block=b), f"→{roman(b['strength'])}", ident="levy")]
        out = []
        lower = [s for s in strengths(b) if s < b["strength"]]
        if lower:
            out.append(Item(_("Lose a step"), partial(self._lose, block=b),
                            f"{roman(b['strength'])}→{roman(max(lower))}", ident="lose"))
        elif b["kind"] != "cleopatra":         # at I she changes side instead (J-2)
            # "I→-" as the battle log says it ("eliminated" beside the label overflowed the row);
            # the question before the step says what becomes of the block (J-3)
            out.append(Item(_("Lose a step"), partial(self._lose, block=b),
                            _("killed") if b["kind"] == "leader" else f"{roman(b['strength'])}→{roman(0)}",
                            ident="lose"))
        higher = [s for s in strengths(b) if s > b["strength"]]
        if higher:                         # a levy point adds a step (J-20)
            out.append(Item(_("Gain a step"), partial(self._gain, block=b),
                            f"{roman(b['strength'])}→{roman(min(higher))}", ident="gain"))
        if b["kind"] not in ("leader", "navis"):           # they lose a step instead (Jupiter)
            out.append(Item(_(GO_OVER[other(self.side)]), partial(self._go_over, block=b), ident="owner"))
        if b["kind"] != "cleopatra" and not b["pool"]:   # winter: back to the levy pool, steps forfeit (rules 8.3-8.5)
            out.append(Item(_("Disband"), partial(self._disband, block=b), ident="disband"))
        return out

    def _gain(self, ctx: Ctx, block: RosterBlock) -> None:
        gain_step(ctx, block, leave=True)        # back on the side's blocks, the notice over them

    def _disband(self, ctx: Ctx, block: RosterBlock) -> None:
        response = run_line(ctx, act.disband(block["id"]))
        if response is None:
            return
        ctx.pop()                                 # back on the side's blocks
        ctx.notify(undo_said(Msg(DISBANDED[response["side"]], BlockNamed(block), roman(response["to"]))))

    def _lose(self, ctx: Ctx, block: RosterBlock) -> None:
        if any(s < block["strength"] for s in strengths(block)):
            self._send_lose(ctx, block)
            return

        def make() -> LastStepQuestion:
            question = (_(LAST_STEP["leader", other(self.side)]).format(name_of(block)) if block["kind"] == "leader"
                        else _(LAST_STEP["block"]).format(name_of(block), roman(block["strength"])))
            return LastStepQuestion(self, block, _("Lose a step?"), question, partial(self._send_lose, block=block))
        ctx.push(remade(make))

    def _send_lose(self, ctx: Ctx, block: RosterBlock) -> None:
        response = run_line(ctx, act.lose(block["id"]))
        if response is None:
            return
        name = BlockNamed(block)
        if response["result"] == "reduced":
            said = Msg(LOST_WORDS["reduced"], name, roman(block["strength"]), roman(response["to"]))
        elif response["result"] == "killed":
            said = Msg(LOST_WORDS["killed", other(self.side)], name)
        else:
            said = Msg(LOST_WORDS["eliminated"], name)
        ctx.pop()                                 # back on the side's blocks
        ctx.notify(undo_said(said))

    def _go_over(self, ctx: Ctx, block: RosterBlock) -> None:
        to = other(self.side)
        if run_line(ctx, act.owner(block["id"], to)) is None:
            return
        ctx.pop()
        ctx.notify(undo_said(Msg(NOW_FIGHTS[to], BlockNamed(block))))


class LastStepQuestion(ConfirmScreen):
    """The question before a block's last step is lost (:meth:`BlockMenu._lose`): it goes once the
    block is no longer as it asked about (the serial link or an undo changed it meanwhile: another
    strength, or disbanded to the levy pool at the same I, where no step is lost, J-20)."""

    def __init__(self, menu: BlockMenu, block: RosterBlock, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.menu = menu
        self.block = block

    def stale(self, ctx: Ctx) -> bool:
        now = self.menu.now(ctx) if not self.menu.stale(ctx) else None
        return now is None or now["strength"] != self.block["strength"] or now["pool"] != self.block["pool"]
