"""Julius Caesar: the battle — what the rules leave to decide now (which block acts and how, where a
hit goes, J-5..J-7, J-14), the dice (the device's, or those thrown on the table), the result, the
forces and the battle log; fighting to the end."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import cast

from PIL import Image

from engine.actions import Line
from engine.jc import actions as act
from engine.jc.advise import TIE
from engine.jc.views import BlockView, JcView
from engine.replies import Reply
from firmware.i18n import Sentences, Spoken, again
from firmware.screens.jc.text import _, ngettext
from firmware.screens import base
from firmware.screens.ctx import Ctx, remade
from firmware.screens.play import Asked, Snapshot
from firmware.screens.jc.forces import log_screen
from firmware.screens.jc.hit_words import alike, hit_advice, why_hit
from firmware.screens.jc.odds import PENDING, advice_now, advice_value, advised_line, difference, odds_line
from firmware.screens.jc.over import EndPage, OverScreen, regroup
from firmware.screens.jc.setup import battle_settings_form, next_battle_form, open_add
from firmware.screens.jc.roll import DiceResult, keep_read, resume_roll, roll_mark, roll_page, settled_of
from firmware.screens.jc.words import (GAME, block_row, fitted_name, name_of, over_item,
                                       run_line, side_name, view_of)
from firmware.screens.widgets import DiceEntry, Item, ListScreen
from firmware.screens.widgets.listing import apart


# -- fighting to the end -----------------------------------------------------------------------
def ask_fight(ctx: Ctx) -> None:
    """Ask first; digital dice: the whole battle at once; physical dice: every fire asks for the
    dice rolled at the table (J-14 decides the rest)."""
    b = view_of(ctx)["battle"]
    physical = b["dice"] == "physical"
    # a leader in the battle: J-14 places a tied hit by the lowest firepower first, so the device may
    # kill him (gone for good, a 1-VP trophy for the enemy: J-2, J-17) where a careful owner would not;
    # a game started now (leaders=last) puts a leader last among equally strong blocks: it says so
    leader = any(x["kind"] == "leader" and x["status"] in ("fight", "reserve") for x in b["blocks"])
    careful = view_of(ctx)["rules"].get("leaders") == "last"

    def asked() -> Asked:                 # said again in a language chosen while it is asked
        # what yes gives up (J-14), in the question's three rows, and a leader's risk on a page of its
        # own: asked at every battle fought out, it took 7-10 rows (three or four A); who rolls the
        # dice is the game's (its dice entry follows)
        question = _("Every block fires; attackers retreat in round 4.")
        if leader and careful:
            question += "\n" + _("Among equally strong blocks a leader takes a hit last.")
        elif leader:
            question += "\n" + _("A hit among equally strong blocks may kill a leader at I.")
        return Asked((GAME,), _("Fight to the end?"), question, _fight_physical if physical else _fight_all)
    ctx.push(remade(asked))


def _fight_physical(ctx: Ctx) -> None:
    """Fight to the end with the table's dice, its pages over the battle screen: while the battle is
    fought (J-5..J-7, J-14) what is left when a page goes — an undo of a fire, the serial link's
    (a fire's dice mistyped), the dice entry given up with B — is the battle's decision, not the
    home's Battle row that leads to it (one more press); the end's result takes the battle screen's
    place (closed: the home, as a battle over opens on)."""
    ctx.push(BattleScreen())
    fight_step(ctx)


def _fight_all(ctx: Ctx) -> None:
    """The rest of the battle fought with the device's dice; its result says what the rules did on
    the way that no page said (a leader killed and his trophy, Cleopatra gone over, reserves
    disrupted, the role swap: J-2, J-9, J-17) — the table has blocks to take off and turn —, and
    the battle screen does not say them again."""
    before = view_of(ctx)["battle"]
    said = len(before["events"]) + (before["phase"] == "setup" and before["surprise"])   # (Mars/Neptune's order of
    if run_line(ctx, act.fight()) is None:                                       # round 1, said as it began: not news
        return                                                                   # at the end, J-10)
    b = view_of(ctx)["battle"]
    fresh = list(b["events"][said:-1] if b["phase"] == "over" else b["events"][said:])   # (the last: the end, the result's own)
    news(ctx)                                        # (said here: not again on the battle screen)
    ctx.push(OverScreen(closed=partial(keep_read, mark=roll_mark(ctx)), events=fresh))   # (its last roll read: J-14 rolled it)


def fight_step(ctx: Ctx) -> None:
    """Play the J-14 decisions until a fire needs the table's dice (then ask) or the end (its result
    in the place of the battle screen :func:`_fight_physical` put under the fight's pages)."""
    for _i in range(500):
        b = view_of(ctx)["battle"]
        if b["phase"] == "over":
            ctx.replace(OverScreen())
            return
        if b["phase"] == "setup":
            if run_line(ctx, act.start()) is None:
                return
            continue
        d = b["decision"]
        if d is None:
            return
        if d["kind"] == "turn" and "fire" in d["actions"]:
            first = next(x["key"] for x in b["blocks"] if x["key"] in d["blocks"])   # J-14: entered first
            ctx.push(JcDiceEntry(first, auto=True, then=fight_step))
            return
        if run_line(ctx, act.auto()) is None:
            return


# -- the battle --------------------------------------------------------------------------------
class DecisionList(ListScreen):
    """A list between an optional header row and the live odds row (its footer); the cursor starts
    fresh at every new decision (a fire or a hit changes it)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = ""
        self._title = ""
        self._settled = True          # the start row is final (not waiting for the advice)
        self._untouched = False       # no key pressed since the cursor was put on its start row

    def _fresh(self, ctx: Ctx) -> None:
        b = view_of(ctx)["battle"]
        key = repr((b["number"], b["phase"], b["decision"], len(b["log"]), len(b["events"])))
        if key != self.seen:
            self.seen = key
            self.reset()
            self._settled = False
            self._untouched = True
        if not self._settled and self._untouched:     # (the advice computed since: its ✓, if no key moved it)
            self.cursor, self._settled = self.start(ctx)
            self._mark = self.cursor
            self.top = self.start_top(ctx)

    def start(self, ctx: Ctx) -> tuple[int, bool]:
        """The row the cursor starts on at a new decision (the first), and whether it is final
        (False: for now, the row waits for something computed off the main loop: the advice)."""
        return 0, True

    def start_top(self, ctx: Ctx) -> int:
        """The first row shown with the cursor on its start row (the page then turns from the
        cursor as in every list)."""
        return self.top

    def footer(self, ctx: Ctx) -> str:        # (under the advice's figures: the actions of a block)
        return odds_line(ctx, advised=True)

    def render(self, ctx: Ctx) -> Image.Image:
        self._fresh(ctx)
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        self._fresh(ctx)
        self._untouched = False
        super().key(key, ctx)


# -- what the rules did by themselves, said when it happens ---------------------------------------
_ANNOUNCED: dict[int, tuple[tuple[str, ...], list[str]]] = {}   # battle number -> (its blocks, its events said)


def news(ctx: Ctx) -> list[str]:
    """The events of the battle not said yet (reserves arriving, disruption, the role swap, J-8/J-9;
    a leader killed, Cleopatra changing sides, J-2; the end): said once, where they happen. The
    first look at a battle says nothing of what came before it — also when a battle of the same
    number was looked at in another game (other blocks, or what was said is not how this battle
    began) or an undo took events back. Said with the end: what the winner may do now (regroup, J-12)."""
    view = view_of(ctx)
    b = view["battle"]
    events = list(b["events"])                  # (sentences: said again in a new language, see ``again``)
    english = [str(e.source) if isinstance(e, Spoken) else str(e) for e in events]   # the same in every language
    blocks = tuple(sorted(str(x["key"]) for x in b["blocks"]))     # fixed once the battle has begun
    blocks_then, seen = _ANNOUNCED.get(b["number"], ((), None))
    _ANNOUNCED[b["number"]] = (blocks, english)
    if seen is None or blocks_then != blocks or english[:len(seen)] != seen:
        return []
    fresh = events[len(seen):]
    return fresh + regroup(b, view["winter"]) if fresh and b["phase"] == "over" else fresh


_FIRST = object()


class BattleScreen(DecisionList):
    """What the rules leave to decide now: which block acts and how, or where a hit goes; what
    the rules did by themselves is said when it happens (:func:`news`)."""

    _seen: object = _FIRST        # the roll (its mark) there was when last drawn

    @property
    def title(self) -> str:  # type: ignore[override]
        return self._title

    def footer(self, ctx: Ctx) -> str:
        got = hit_advice(ctx)
        if got is not None and got[1] and got[0].chance - got[1][0].chance >= 0.0005:   # a hit: the next choice's cost,
            return _("Next choice: −{}").format(difference(got[0].shown, got[1][0].shown))   # from the figures above it
        if got is not None and got[1] and got[1][0].chance > got[0].chance + TIE:     # a leader's odds, a hair better
            return _("✓ spares a leader")                                   # (J-2, J-17: advise.spare_leader)
        return odds_line(ctx, advised=advised_line(view_of(ctx)["battle"]))   # under the advice's figures?

    def render(self, ctx: Ctx) -> Image.Image:
        """The decision; but first what a line from the serial link did, as the home says it: a roll
        not closed (:func:`resume_roll`: its dice, where the hits went, what the rules did by it —
        the end and the regroup, J-12, J-13, too — the one page the home and a power cut show for
        it), and what the rules did that it does not say, as a notice, or the end on its own page.
        A roll made while it is shown: the first look (Battle on the home, opening the game) comes
        after the home or the game's opening said the roll not closed, as :func:`news` says nothing
        of what came before it."""
        view = view_of(ctx)
        b = view["battle"]
        fresh = news(ctx)
        mark, seen, self._seen = roll_mark(ctx), self._seen, roll_mark(ctx)     # (first drawn: the home said it)
        if seen is not _FIRST and mark != seen and resume_roll(ctx):
            new = len(fresh) - (len(regroup(b, view["winter"])) if fresh and b["phase"] == "over" else 0)
            said = len(b["roll"]["events"]) if b["roll"] is not None else 0      # (the newest: on its page)
            if earlier := list(b["events"][len(b["events"]) - new:len(b["events"]) - said]) if new > said else []:
                ctx.notify(Sentences(*earlier))
            fresh = []
        if fresh and b["phase"] == "over":     # the end, and the regroup (J-12): taken off by an undo of it;
            number = b["number"]               # titled by the battle's number: its first row says «Battle over: …»
            ctx.push(remade(lambda: EndPage((GAME,), _("Battle {}").format(number), [again(e) for e in fresh])))
        elif fresh:
            ctx.notify(Sentences(*fresh))
        d = b["decision"]
        if b["phase"] == "setup":
            self._title = _("Battle {}: set-up").format(b["number"])
        elif d is None:
            self._title = _("Battle over")
        elif d["kind"] == "hit":
            self._title = ngettext("{}: {} hit", "{}: {} hits", d["left"]).format(side_name(d["side"]), d["left"])
        else:
            self._title = _("Round {}: {}").format(d["round"], side_name(d["side"]))
        return super().render(ctx)

    def start(self, ctx: Ctx) -> tuple[int, bool]:
        """A hit's pick starts on ✓, the block advised (``advised``: the best odds, a leader spared
        for less than a point, J-2, J-17) — it started on the decision's ``default`` (J-14's choice
        among the blocks that are not leaders), where the advice may put the hit on another of them
        (the B3 that has fired this round rather than the C3 still to fire): A went against ✓. Never
        on a leader while another block may take it (J-7): on the first block listed, one careless A
        put the hit on Pompeius listed before his legion, and a leader killed is gone for good (J-2,
        J-17); when ✓ is a leader (worth a point or more) the header says so and the cursor stays on
        the careful choice (``default``). While the advice is being computed: on ``default``, not
        final (it moves to ✓ when the advice comes, unless a key was pressed). The set-up starts on
        the first side with no block yet (its Add row): Start round 1 with a side empty only said
        «the attacker has no blocks: add a block first» (rules 7.3), a press and a refusal lost."""
        b = view_of(ctx)["battle"]
        if b["phase"] == "setup" and not view_of(ctx)["campaign"]["over"]:
            sides = [b["attacker"], b["defender"]]
            empty = [i for i, side in enumerate(sides) if not any(x["side"] == side for x in b["blocks"])]
            return (1 + empty[0] if empty else 0), True
        d = b["decision"]
        if d is None or d["kind"] != "hit" or d["default"] not in d["choices"]:
            return 0, True
        careful = d["choices"].index(str(d["default"]))
        if advice_now(ctx) is PENDING:
            return careful, False
        got = hit_advice(ctx)
        if got is not None and got[0].block["kind"] != "leader" and got[0].block["key"] in d["choices"]:
            return d["choices"].index(got[0].block["key"]), True
        return careful, True

    def start_top(self, ctx: Ctx) -> int:
        """A hit's page shows ✓ with the cursor when both fit: with ✓ on a leader the cursor starts
        on the careful block (:meth:`start`), and a page turned from the cursor hid ✓ listed just
        above it (Scipio ✓ above Legio 3 on a list of two rows: «✓ is a leader!» and no ✓ in sight,
        Brutus at the same odds below)."""
        tick = next((i for i, item in enumerate(self.items(ctx)) if str(item.value).startswith("✓")), None)
        if tick is not None and 0 < self.cursor - tick < self.visible_rows(ctx):
            return tick
        return self.top

    def header(self, ctx: Ctx) -> str:
        b = view_of(ctx)["battle"]
        d = b["decision"]
        if d is None:
            return ""
        if d["kind"] == "hit":
            if alike(ctx):            # the odds do not tell them apart: the table's block does (Why ✓? says it)
                return _("Same odds: which one?")
            got = hit_advice(ctx)
            return _("✓ is a leader!") if got is not None and got[0].block["kind"] == "leader" else _("Who takes the hit?")
        if len(d["blocks"]) == 1:
            blocks = {x["key"]: x for x in b["blocks"]}
            return block_row(blocks[d["blocks"][0]])
        return _("Which block acts?")

    def items(self, ctx: Ctx) -> list[Item]:
        b = view_of(ctx)["battle"]
        blocks = {x["key"]: x for x in b["blocks"]}
        d = b["decision"]
        self.wrap_rows = bool(over := view_of(ctx)["campaign"]["over"])    # the end (J-17): «Кампания окончена» wraps
        if b["phase"] == "setup" and not over:
            counts = {r: sum(1 for x in b["blocks"] if x["side"] == b[r]) for r in ("attacker", "defender")}
            # no block placed yet: who attacks, Mars/Neptune and the dice may be chosen again (J-4, J-10)
            settings = [] if b["blocks"] else [Item(_("Battle settings"), lambda c: c.push(battle_settings_form(c)))]
            return [Item(_("Start round 1"), self._start),
                    Item(_("{} attacks").format(side_name(b["attacker"])), partial(open_add, role="attacker"),
                         str(counts["attacker"])),
                    Item(_("{} defends").format(side_name(b["defender"])), partial(open_add, role="defender"),
                         str(counts["defender"])), *settings]
        if d is None:
            return ([Item(_("Result"), lambda c: c.push(OverScreen())), Item(_("Battle log"), lambda c: c.push(remade(lambda: log_screen(c))))]
                    if b["phase"] == "over" else []) + [over_item(over) if over else Item(_("Next battle"), lambda c: c.push(next_battle_form(c)))]
        if d["kind"] == "hit":
            out = []
            for k in d["choices"]:
                value = advice_value(ctx, "hit", k)
                width = base.COLS - 1 - apart(value, "x")    # a word's gap before a value in words
                x = blocks[k]          # equally strong blocks (J-7): the name and the rating tell them apart
                tail = f" {x['rating']}"
                out.append(Item(fitted_name(x, width - len(tail)).ljust(width - len(tail)) + tail,
                                partial(self._hit, key=k), value))
            return out + [Item(_("Device picks"), partial(self._hit, key="")),
                          Item(_("Why ✓?"), lambda c: c.push(remade(lambda: Snapshot((GAME,), _("Advice"), why_hit(c)))), ident="why")]
        if len(d["blocks"]) == 1:
            return action_items(ctx, d["blocks"][0]) + [Item(_("Device decides"), self._auto)]
        out = [Item(block_row(blocks[k], base.COLS - 1), partial(self._act, key=k)) for k in d["blocks"]]
        return out + [Item(_("Device decides"), self._auto)]

    @staticmethod
    def _start(ctx: Ctx) -> None:
        run_line(ctx, act.start())

    @staticmethod
    def _hit(ctx: Ctx, key: str) -> None:
        """The owner's pick of a tied hit (J-7); what the rules did by it (a leader killed, a side
        eliminated: the end, J-2, J-13) is said with its roll, on the roll's page — kept until it
        is closed, said again after a power cut (:func:`resume_roll`), as a roll's own events."""
        before = view_of(ctx)["battle"]["events"]
        if run_line(ctx, act.hit(key or None)) is None:
            return
        news(ctx)                         # (said on the page below: not as a notice or the end page too)
        if view_of(ctx)["battle"]["events"] != before:
            roll_page(ctx)

    @staticmethod
    def _act(ctx: Ctx, key: str) -> None:
        ctx.push(ActionMenu(key))

    @staticmethod
    def _auto(ctx: Ctx) -> None:
        b = view_of(ctx)["battle"]
        d = b["decision"]
        if b["dice"] == "physical" and d and d["kind"] == "turn" and "fire" in d["actions"]:
            first = next(x["key"] for x in b["blocks"] if x["key"] in d["blocks"])   # J-14: entered first
            ctx.push(JcDiceEntry(first, auto=True))
            return
        response = run_line(ctx, act.auto())
        if response is not None and response["turn"].get("action") == "fire":
            ctx.push(DiceResult(response["turn"], events=news(ctx), mark=roll_mark(ctx), settled=settled_of(ctx)))


def action_items(ctx: Ctx, key: str) -> list[Item]:
    """Fire, pass, retreat, no way out (J-5, J-6), each with the advice's chance when known."""
    d = view_of(ctx)["battle"]["decision"]
    actions = d["actions"] if d and d["kind"] == "turn" else []
    out = []
    if "fire" in actions:
        out.append(Item(_("Fire"), partial(_fire, key=key), advice_value(ctx, "fire", key)))
    if "pass" in actions:
        out.append(Item(_("Pass"), partial(_simple, line=act.pass_turn(key)), advice_value(ctx, "pass", key)))
    if "retreat" in actions:
        out.append(Item(_("Retreat"), partial(_simple, line=act.retreat(key)), advice_value(ctx, "retreat", key)))
    if actions == ["retreat"]:         # a retreat it must make and cannot: eliminated (rules 7.6)
        out.append(Item(_("No way out"), partial(_simple, line=act.retreat(key, blocked=True))))
    return out


def _fire(ctx: Ctx, key: str) -> None:
    if view_of(ctx)["battle"]["dice"] == "physical":
        ctx.push(JcDiceEntry(key))
        return
    response = run_line(ctx, act.fire(key))
    if response is not None:
        ctx.push(DiceResult(response["turn"], events=news(ctx), mark=roll_mark(ctx), settled=settled_of(ctx)))


def _simple(ctx: Ctx, line: Line[Reply]) -> None:
    run_line(ctx, line)


class ActionMenu(DecisionList):
    """Fire, retreat, no retreat possible, or pass, for one of several blocks of a step."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.block = key

    @property
    def title(self) -> str:  # type: ignore[override]
        return self._title

    def render(self, ctx: Ctx) -> Image.Image:
        b = next(x for x in view_of(ctx)["battle"]["blocks"] if x["key"] == self.block)
        self._title = block_row(b)
        return super().render(ctx)

    def stale(self, ctx: Ctx) -> bool:
        """True once this block no longer acts now (an undo, or a line from the serial link, took
        the step back or played it), or the session is no longer a Julius Caesar game."""
        return self.block not in _acting(ctx, "")

    def items(self, ctx: Ctx) -> list[Item]:
        d = view_of(ctx)["battle"]["decision"]
        if not d or d["kind"] != "turn" or self.block not in d["blocks"]:
            return []
        out = action_items(ctx, self.block)
        for item in out:              # the step is taken: back to the battle screen
            run = item.run
            item.run = (lambda c, r=run: (c.pop(), r(c))[1]) if run else None
        return out


def _acting(ctx: Ctx, action: str) -> list[str]:
    """The blocks of the step acting now that may take ``action`` ("" for any), in the battle's
    order (J-14 takes the first); none when the battle waits for no turn or the session is no
    longer a Julius Caesar game."""
    view = ctx.view()
    if view is None or view["game"] != GAME:
        return []
    b = cast(JcView, view)["battle"]
    d = b["decision"]
    if d is None or d["kind"] != "turn" or (action and action not in d["actions"]):
        return []
    return [x["key"] for x in b["blocks"] if x["key"] in d["blocks"]]


# -- dice --------------------------------------------------------------------------------------
def _block(ctx: Ctx, key: str) -> BlockView:
    return next(x for x in view_of(ctx)["battle"]["blocks"] if x["key"] == key)


def _firepower(rating: str) -> int:
    return int(rating[-1]) if rating and rating[-1].isdigit() else 0


class JcDiceEntry(DiceEntry):
    """The physical dice rolled for block ``key`` (one die per strength step, J-1), entered with the
    one dice widget (firmware/screens/widgets/dice.py); the dice that hit (J-5: a face up to the
    block's firepower) are filled, the hits counted in the title bar. A enters the roll: ``fire``,
    or ``auto`` for the step J-14 plays (Fight to the end)."""

    def __init__(self, key: str, auto: bool = False, then: Callable[[Ctx], None] | None = None) -> None:
        super().__init__(self._name, [("", 1)], self._go, hit=self._hit, status=self._hits)
        self.key_ = key
        self.auto = auto
        self.then = then
        self.block: BlockView | None = None

    def stale(self, ctx: Ctx) -> bool:
        """True once the battle no longer waits for this fire (an undo, or a line from the serial
        link, took the step back or played it), or the session is no longer a Julius Caesar game."""
        firing = _acting(ctx, "fire")
        return self.key_ not in (firing[:1] if self.auto else firing)

    def _name(self) -> str:
        return name_of(self.block) if self.block else ""

    def _hit(self, face: int) -> bool:
        return self.block is not None and face <= _firepower(self.block["rating"])

    def _hits(self, faces: list[list[int]]) -> str:
        n = sum(1 for f in faces[0] if self._hit(f))
        return ngettext("{} hit", "{} hits", n).format(n)

    def _fit(self, ctx: Ctx) -> None:
        self.block = _block(ctx, self.key_)
        self.resize([("", max(1, int(self.block["strength"])))])

    def render(self, ctx: Ctx) -> Image.Image:
        self._fit(ctx)
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        self._fit(ctx)
        super().key(key, ctx)

    def _go(self, ctx: Ctx, faces: list[list[int]]) -> None:
        line = act.auto(faces[0]) if self.auto else act.fire(self.key_, faces[0])
        response = run_line(ctx, line)
        if response is None:
            return
        turn, events = response["turn"], news(ctx)
        view = view_of(ctx)
        b = view["battle"]
        if not events and b["roll"] is not None and b["roll"]["events"]:
            # (news says nothing at a first look at the battle — Fight to the end from the home —:
            # what the rules did by this fire is its roll's own, said as a power cut's page says it)
            events = list(b["roll"]["events"]) + (regroup(b, view["winter"]) if b["phase"] == "over" else [])
        if turn["applied"] or turn["lost"] or events:
            ctx.replace(DiceResult(turn, self.then, events, roll_mark(ctx), settled_of(ctx)))
            return
        # the roll's page would say nothing the entry did not show: no hit (its title said «0 hits»),
        # or every hit the owner's pick among equally strong blocks, asked next (J-7): one press saved
        # a fire, the roll kept as read as closing its page would (no page again after a power cut)
        keep_read(ctx, roll_mark(ctx))
        ctx.pop()
        if self.then is not None:
            self.then(ctx)
