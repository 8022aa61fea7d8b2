"""The Sword of Rome: the rolls — battles (W-2..W-7: their screens in
firmware/screens/sword/battle.py), tactics tests (W-1), odds (W-6), naval moves
(W-8) and 2d6 checks (W-9), each with the device's dice or those thrown on the table (the one dice
entry, firmware/screens/widgets/dice.py)."""
from __future__ import annotations

from functools import partial
from typing import Any

from PIL import Image

from engine.sword import actions as act
from engine.sword.odds import attacker_wins
from engine.sword.replies import (CheckFields, LastRoll, NavalFields, TacticsFields, TacticsReply, UndoneCheck, UndoneNaval,
                                  UndoneTactics)
from engine.sword.requests import signed
from engine.sword.tactics import chance
from engine.text import N_
from firmware.i18n import Sentences
from firmware.screens.sword.battle import BattleResult
from firmware.screens.sword.text import _
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, Screen, remade
from firmware.screens.sword.words import (
    CHECK_NAMES,
    GAULS_SIEGE,
    CHECKS,
    NAVAL_RESULTS,
    TEST_NAMES,
    TESTS,
    Follows,
    run_line,
    view_of,
)
from firmware.screens.widgets import (
    DiceEntry,
    Field,
    Intent,
    Item,
    ListScreen,
    NumberForm,
    pct,
    OddsScreen,
    figure,
    intent,
    on_off,
)
from firmware.screens.widgets.dice import TABLE_DICE, source_word
from firmware.screens.widgets.figure import recalled, remember
from firmware.screens.widgets.result import ResultScreen


class RollResult(Follows, ResultScreen):
    """A roll in big letters (naval move, 2d6 check, the consuls drawn), taken off by an undo."""


def naval_screen(r: NavalFields) -> ResultScreen:
    """The naval roll ``r`` (made again in a new language: the same roll, never another)."""
    return remade(lambda: RollResult(_("Naval {}{} = {}").format(r["roll"], signed(r["modifier"]), r["modified"]),
                                     _(NAVAL_RESULTS.get(r["result"], r["result"]))))


def check_screen(r: CheckFields) -> ResultScreen:
    """The 2d6 roll ``r`` (made again in a new language: the same roll, never another)."""
    mod = signed(r["modifier"]) if r.get("modifier") else ""
    # the check's name alone: the two dice below say it is 2d6 ("Subjugation: 2d6" did not fit)
    return remade(lambda: RollResult(_(CHECK_NAMES.get(r["check"], r["check"])),
                                     f"{r['dice'][0]}+{r['dice'][1]}{mod}={r['total']}"))


def result_screen(last: LastRoll) -> Screen | None:
    """The screen that shows a roll kept in the session's ``last``."""
    if last["kind"] == "battle":
        return BattleResult(last)
    if last["kind"] == "tactics":
        return TacticsResult(last)
    if last["kind"] == "naval":
        return naval_screen(last)
    if last["kind"] == "check":
        return check_screen(last)
    return None


# -- tactics and odds ------------------------------------------------------------------------------
def undone_tactics(ctx: Ctx) -> UndoneTactics | None:
    """The tactics test an undo took back where the session stands (W-1), as the session's undo
    record keeps it (engine/sword/undone.py): whoever rolled or undid it, across a restart or a
    power cut too. None when none was, or a roll was made in its place."""
    response = ctx.run(act.undone_tactics())       # (run, not ask: a worker's copy of the state has no undo record)
    return response["test"] if response.get("ok") else None


def tactics_form(ctx: Ctx | None = None) -> NumberForm:
    """Rating, modifier and which test (interception, avoiding battle, pursuit, refusing battle, or
    none) with the chance before the roll (W-1); A rolls (or asks for the die). The result then
    says what the test does (W-1: a successful interception gives the defender +1 in the battle, a
    failed avoid −1). After an undo of a test (:func:`undone_tactics`) the form holds its values and
    the die entry its face, as the Battle form holds an undone battle's: a slip in one row is
    corrected in that row alone; with the device's die it rolls the die it showed (undo never
    re-rolls). Without ``ctx``: the form as it opens where nothing was undone."""
    undone = undone_tactics(ctx) if ctx is not None else None
    was: dict[str, int] = {}
    if undone is not None:
        was = {"rating": undone["rating"], "mod": undone["mod"],
               "test": TESTS.index(undone["test"]) if undone["test"] in TESTS else 0,
               "dice": int(undone["die"] is not None)}

    def shown(c: Ctx, response: TacticsReply) -> None:
        c.replace(TacticsResult(response))
        say_effect(c, response)

    def go(c: Ctx, v: dict[str, int]) -> None:
        kind = TESTS[v["test"]] or None
        if not v["dice"]:
            response = run_line(c, act.tactics(v["rating"], v["mod"], None, kind))
            if response is not None:
                shown(c, response)
            return

        def roll(c2: Ctx, faces: list[list[int]]) -> None:
            response = run_line(c2, act.tactics(v["rating"], v["mod"], faces[0][0], kind))
            if response is not None:
                c2.pop()
                shown(c2, response)

        entry = DiceEntry(lambda: _("Tactics die"), [(N_("Die"), 1)], roll, words=_)
        if undone is not None and undone["die"] is not None:
            entry.faces, entry.set = [[undone["die"]]], [[True]]      # the face entered for the undone test
        c.push(entry)

    def field(key: str, label: str, value: int, lo: int, hi: int, *rest: Any) -> Field:
        # a test undone over the serial link may go past a row's range (rating 9, ±20): the row
        # reaches its figure, so that A asks that test, not one clamped to the range
        held = was.get(key, value)
        return Field(key, label, held, min(lo, held), max(hi, held), *rest)

    form = NumberForm(N_("Tactics test"), [
        field("rating", N_("Tactics rating"), 2, 0, 6),
        field("mod", N_("Modifier"), 0, -3, 3, signed),
        Field("test", N_("Test"), was.get("test", 0), 0, len(TESTS) - 1, lambda t: _(TEST_NAMES[t])),
        Field("dice", N_("Dice"), was.get("dice", 0), 0, 1, source_word, TABLE_DICE),
    ], go, status=lambda c, v: pct(float(chance(v['rating'], v['mod']))))
    if undone is not None:        # the undone test's die, not the source the device remembers from a roll since
        form.recalled = True
    return form


def say_effect(ctx: Ctx, result: TacticsFields) -> None:
    """What a tactics test given its kind does (W-1: a successful interception gives the defender +1
    in the battle, a failed avoid −1), said over its result: when rolled, and again by Last roll."""
    effect = result.get("effect")
    if effect:
        ctx.notify(Sentences(effect, capital=True))


class TacticsResult(Follows):
    """The die in big digits and the verdict."""

    def __init__(self, result: TacticsFields) -> None:
        self.result = result

    @property
    def title(self) -> str:
        return _("Tactics {}").format(self.result["rating"])

    def render(self, ctx: Ctx) -> Image.Image:
        r = self.result
        img, draw = base.frame()
        base.title_bar(draw, self.title, pct(float(r["chance"])))      # as the form said it (0/1 read oddly)
        base.big(img, 6, base.TITLE_H + 8, str(r["roll"]), 3)
        verdict = _("SUCCESS") if r["success"] else _("FAILURE")
        base.put(draw, 36, base.row_y(0), verdict, kind="large")
        base.text(draw, 36, base.row_y(2), f"{r['roll']}{signed(r['mod'])} = {r['modified']}")
        base.text(draw, 36, base.row_y(3), _("need ≤ {}").format(r["rating"]))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("text", key) in (Intent.BACK, Intent.CLOSE):
            ctx.pop()


class Modifier:
    """The net modifier of the odds screen (W-6), −15..+15."""

    def __init__(self) -> None:
        self.mod = 0

    def change(self, ctx: Ctx, by: int) -> None:
        self.mod = max(-15, min(15, self.mod + by))


def odds_screen() -> OddsScreen:
    """The attacker's exact chance for a net modifier (W-6), 3d6 against 3d6: left/right (or
    up/down) change the modifier; B goes back."""
    m = Modifier()

    def outcomes(ctx: Ctx) -> list[tuple[str, float]]:
        p = float(attacker_wins(m.mod))
        return [(_("Attacker wins"), p), (_("Defender wins"), 1 - p)]

    return OddsScreen(lambda c: _("3d6 vs 3d6"), outcomes, adjust=m.change, figure=lambda c: signed(m.mod),
                      hint=lambda: _("←→ modifier"), back=lambda: _("B: back"))


def undone_naval(ctx: Ctx) -> UndoneNaval | None:
    """The naval move an undo took back where the session stands (W-8), as the session's undo record
    keeps it (engine/sword/undone.py). None when none was, or a roll was made in its place."""
    response = ctx.run(act.undone_naval())        # (run, not ask: a worker's copy of the state has no undo record)
    return response["move"] if response.get("ok") else None


def naval_form(ctx: Ctx) -> NumberForm:
    """Naval move (W-8): modifiers and the dice; A rolls (or asks for the die). After an undo of a
    naval move (:func:`undone_naval`) the form holds its values and the die entry its face, as the
    Battle and Tactics test forms hold theirs: with the device's die it rolls the die it showed."""
    carthage = "carthage" in view_of(ctx)["factions"]
    undone = undone_naval(ctx)
    was: dict[str, int] = {}
    if undone is not None:
        was = {"mod": undone["mod"], "port": int(undone["friendly_port"]), "extra": undone["extra_ops"],
               "dice": int(undone["die"] is not None)}

    def go(c: Ctx, v: dict[str, int]) -> None:
        extra = v["extra"] if carthage else None
        if not v["dice"]:
            response = run_line(c, act.naval(v["mod"], bool(v["port"]), extra))
            if response is not None:
                c.replace(naval_screen(response))
            return

        def roll(c2: Ctx, faces: list[list[int]]) -> None:
            response = run_line(c2, act.naval(v["mod"], bool(v["port"]), extra, faces[0][0]))
            if response is not None:
                c2.pop()
                c2.replace(naval_screen(response))

        entry = DiceEntry(lambda: _("Naval die"), [(N_("Die"), 1)], roll, words=_)
        if undone is not None and undone["die"] is not None:
            entry.faces, entry.set = [[undone["die"]]], [[True]]      # the face entered for the undone move
        c.push(entry)

    def field(key: str, label: str, value: int, lo: int, hi: int, *rest: Any) -> Field:
        held = was.get(key, value)                # (a move undone over the serial link may go past the row)
        return Field(key, label, held, min(lo, held), max(hi, held), *rest)

    fields = [field("mod", N_("Modifier"), 0, -3, 3, signed),
              Field("port", N_("Friendly port"), was.get("port", 0), 0, 1, on_off)]
    if carthage:
        fields.append(field("extra", N_("Extra Carthage ops"), 0, 0, 3))
    fields.append(Field("dice", N_("Dice"), was.get("dice", 0), 0, 1, source_word, TABLE_DICE))
    form = NumberForm(N_("Naval move"), fields, go, status=lambda c, v: _("A: roll"))
    if undone is not None:        # the undone move's die, not the source the device remembers from a roll since
        form.recalled = True
    return form


def undone_check(ctx: Ctx) -> UndoneCheck | None:
    """The 2d6 check an undo took back where the session stands (W-9), as the session's undo record
    keeps it (engine/sword/undone.py). None when none was, or a roll was made in its place."""
    response = ctx.run(act.undone_check())        # (run, not ask: a worker's copy of the state has no undo record)
    return response["check"] if response.get("ok") else None


class CheckMenu(ListScreen):
    """2d6 rolls (W-9): pick which, then the device's dice or the dice thrown on the table; the sum
    is shown (the tables are not transcribed). The Gallic events table is the game without a Gauls
    player's (3 players), so it is offered only where nobody plays the Gauls. After an undo of a
    check (:func:`undone_check`) the dice are those it was rolled with, and the dice entry of its
    table opens on the faces entered for it, as the Tactics and Naval forms hold theirs."""

    title = Said(N_("2d6 roll"), _)

    def __init__(self) -> None:
        super().__init__()
        self.table: bool | None = None        # the dice last used (TABLE_DICE) until toggled here

    def items(self, ctx: Ctx) -> list[Item]:
        if self.table is None:
            undone = undone_check(ctx)       # the undone check's dice, not those remembered from a roll since
            self.table = recalled(ctx, TABLE_DICE, 0, 1) == 1 if undone is None else undone["dice"] is not None
        gauls = "gauls" in view_of(ctx)["factions"]
        out = [Item(_(CHECK_NAMES[k]), partial(self._roll, kind=k)) for k in CHECKS
               if not (k == "gallic" and gauls)]
        if gauls:                                        # W-9: the Gauls besieging roll -1
            out.insert(1, Item(_(GAULS_SIEGE), partial(self._roll, kind="siege", gauls=True)))
        shown = source_word(int(self.table))               # a choice, as in every roll's form: left/right
        out.append(Item(_("Dice"), self._toggle, figure(shown) if self.cursor == len(out) else shown,
                        ident="dice", adjust=lambda c, by: self._toggle(c)))
        return out

    def _toggle(self, ctx: Ctx) -> None:
        self.table = not self.table

    def _roll(self, ctx: Ctx, kind: str, gauls: bool = False) -> None:
        remember(ctx, TABLE_DICE, int(bool(self.table)))
        if not self.table:
            response = run_line(ctx, act.check(kind, gauls=gauls))
            if response is not None:
                ctx.push(check_screen(response))
            return

        def roll(c2: Ctx, faces: list[list[int]]) -> None:
            response = run_line(c2, act.check(kind, faces[0], gauls=gauls))
            if response is not None:
                c2.replace(check_screen(response))

        entry = DiceEntry(lambda: _(GAULS_SIEGE if gauls else CHECK_NAMES[kind]), [(N_("2d6"), 2)], roll, words=_)
        undone = undone_check(ctx)
        if undone is not None and undone["dice"] and (undone["check"], undone["gauls"]) == (kind, gauls):
            entry.faces, entry.set = [list(undone["dice"])], [[True] * len(undone["dice"])]   # the faces entered
        ctx.push(entry)
