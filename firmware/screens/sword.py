"""The Sword of Rome screens: battles, tactics tests, odds, the VP track, Desperate Times, naval
moves, 2d6 checks, the consuls' cup, Carthaginian unrest and the turn/round tracker.

Dice come from the session (``battle``, ``tactics``, ``naval``, ``check``, ``consuls``), so every
roll is journaled and a long B takes it back without re-rolling. Every roll can also be thrown
on the table: the forms ask "Dice: device / table" and :class:`DiceEntry` takes the faces
(up/down change a die, right goes to the next one, A submits the whole roll).
"""
from __future__ import annotations

from functools import partial
from typing import Any

from PIL import Image

from engine.sword.odds import attacker_wins
from engine.sword.tactics import chance
from engine.text import N_
from firmware.i18n import _, ngettext
from firmware.screens import base, play
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import (DiceEntry, Field, Intent, Item, ListScreen, NumberForm, OddsScreen, Scroll, TextScreen,
                                      VPTrack, intent, on_off, scroll_bar)
from firmware.screens.kit import ResultScreen

PRESETS: tuple[tuple[str, str], ...] = (
    (N_("4 players"), "romans,gauls,etruscans,greeks"),
    (N_("5 players (Carthage)"), "romans,gauls,etruscans,greeks,carthage"),
    (N_("3 players"), "romans,etruscans,greeks"),
)
CHECKS = ("siege", "subjugation", "attrition", "gallic")
CHECK_NAMES = {"siege": N_("Siege"), "subjugation": N_("Subjugation"), "attrition": N_("Attrition"),
               "gallic": N_("Gallic")}
BAND = ("none", "att", "def")
BAND_NAMES = (N_("none"), N_("attacker"), N_("defender"))
POWER_NAMES = {"romans": N_("Romans"), "gauls": N_("Gauls"), "etruscans": N_("Etruscans"),
               "samnites": N_("Samnites"), "greeks": N_("Greeks"), "carthage": N_("Carthage")}
NAVAL_RESULTS = {"success": N_("Success"), "return": N_("Return"), "attrition": N_("Attrition")}


def open_game(ctx: Ctx) -> None:
    """Continue the current Sword session, or start one from a preset."""
    play.continue_or_setup(ctx, ("sword",), SwordHome, SetupScreen)


def _view(ctx: Ctx) -> dict[str, Any]:
    return play.game_view(ctx, ("sword",), "Sword of Rome")


_run = play.run_or_notify


def short(power: str) -> str:
    """A power's name in the current language: ``etruscans`` -> ``Etruscans`` / «Этруски»."""
    return _(POWER_NAMES.get(power, power.capitalize()))


def dice_word(v: int) -> str:
    return _("table") if v else _("device")


class SetupScreen(ListScreen):
    title = Said(N_("New Sword game"))

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(_(label), partial(self._start, powers=powers)) for label, powers in PRESETS]

    @staticmethod
    def _start(ctx: Ctx, powers: str) -> None:
        play.start_game(ctx, f"new sword players={powers}", SwordHome)


class SwordHome(ListScreen):
    title = Said(N_("Sword of Rome"))

    def status(self, ctx: Ctx) -> str:
        view = _view(ctx)
        return _("end") if view["finished"] else _("Turn {}").format(view["turn"])

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        out = [
            Item(_("Battle"), lambda c: c.push(battle_form())),
            Item(_("Tactics test"), lambda c: c.push(tactics_form())),
            Item(_("Odds"), lambda c: c.push(odds_screen())),
            Item(_("VP track"), lambda c: c.push(vp_screen()),
                 f"{base.clip(short(view['standings'][0]), 9)} {view['vp'][view['standings'][0]]}"),
            Item(_("Desperate Times"), lambda c: c.push(DesperateScreen())),
            Item(_("Naval move"), lambda c: c.push(naval_form(c))),
            Item(_("2d6 roll"), lambda c: c.push(CheckMenu())),
            Item(_("Draw consuls"), self._consuls),
        ]
        if view.get("unrest") is not None:
            out.append(Item(_("Carthage unrest"), lambda c: c.push(unrest_form(c)), str(view["unrest"]["level"])))
        if view["last"] is not None:
            out.append(Item(_("Last roll"), self._last))
        if not view["finished"]:
            out.append(Item(_("Next round"), self._advance, _("now {}").format(view["round"])))
        return out

    @staticmethod
    def _consuls(ctx: Ctx) -> None:
        response = _run(ctx, "consuls")
        if response is not None:
            ctx.push(ResultScreen(_("Consuls"), " & ".join(response["drawn"])))

    @staticmethod
    def _last(ctx: Ctx) -> None:
        last = _view(ctx)["last"]
        screen = result_screen(last)
        if screen is not None:
            ctx.push(screen)

    @staticmethod
    def _advance(ctx: Ctx) -> None:
        response = _run(ctx, "advance")
        if response is None:
            return
        if response["finished"]:
            ctx.notify(_("Game over: {} wins.").format(short(response["winner"])))
            return
        note = _("Turn {}, round {}.").format(response["turn"], response["round"])
        order = response.get("desperate_order_before")
        if order is not None:
            who = ", ".join(map(short, order)) or _("nobody")
            note = _("Round 5 ended; Desperate Times order: {}.").format(who) + " " + note
        ctx.notify(note)


def naval_screen(r: dict[str, Any]) -> ResultScreen:
    return ResultScreen(_("Naval {}{:+d} = {}").format(r["roll"], r["modifier"], r["modified"]),
                        _(NAVAL_RESULTS.get(r["result"], r["result"])))


def check_screen(r: dict[str, Any]) -> ResultScreen:
    mod = f"{r['modifier']:+d}" if r.get("modifier") else ""
    return ResultScreen(_("{}: 2d6").format(_(CHECK_NAMES.get(r["check"], r["check"]))),
                        f"{r['dice'][0]}+{r['dice'][1]}{mod}={r['total']}")


def result_screen(last: dict[str, Any]) -> Any:
    """The screen that shows a roll kept in the session's ``last``."""
    kind = last["kind"]
    if kind == "battle":
        return BattleResult(last)
    if kind == "tactics":
        return TacticsResult(last)
    if kind == "naval":
        return naval_screen(last)
    if kind == "check":
        return check_screen(last)
    return None


def _faces(dice: list[int]) -> str:
    return ",".join(map(str, dice))


# -- battle --------------------------------------------------------------------------------------
def _odds_status(ctx: Ctx, v: dict[str, int]) -> str:
    n_att = 4 if v["band"] == 1 else 3
    n_def = 4 if v["band"] == 2 else 3
    p = attacker_wins(v["mod"] - v["defmod"], n_att, n_def)
    return _("attacker {}%").format(f"{float(p) * 100:.0f}")


def battle_form() -> NumberForm:
    """Units and modifiers; the title bar shows the attacker's exact chance (W-6). A fights:
    with the device's dice, or asks for the dice thrown on the table (3d6 a side, W-2)."""

    def go(c: Ctx, v: dict[str, int]) -> None:
        line = f"battle att={v['att']} def={v['def']} mod={v['mod']} defmod={v['defmod']}"
        if v["band"]:
            line += f" sacred-band={BAND[v['band']]}"
        if not v["dice"]:
            response = _run(c, line)
            if response is not None:
                c.replace(BattleResult(response))
            return

        def fight(c2: Ctx, faces: list[list[int]]) -> None:
            response = _run(c2, f"{line} att-dice={_faces(faces[0])} def-dice={_faces(faces[1])}")
            if response is not None:
                c2.pop()
                c2.replace(BattleResult(response))

        rows = [(_("Attack"), 4 if v["band"] == 1 else 3), (_("Defence"), 4 if v["band"] == 2 else 3)]
        c.push(DiceEntry(_("Battle dice"), rows, fight))

    return NumberForm(N_("Battle"), [
        Field("att", N_("Attacker units"), 3, 1, 30),
        Field("def", N_("Defender units"), 3, 1, 30),
        Field("mod", N_("Attack bonus"), 0, -9, 9, lambda m: f"{m:+d}"),
        Field("defmod", N_("Defence bonus"), 0, -9, 9, lambda m: f"{m:+d}"),
        Field("band", N_("Sacred Band"), 0, 0, 2, lambda b: _(BAND_NAMES[b])),
        Field("dice", N_("Dice"), 0, 0, 1, dice_word),
    ], go, status=_odds_status)


def side_row(label: str, side: dict[str, Any]) -> str:
    """``Attack 5 2 2 +3=12``."""
    dice = " ".join(map(str, side["dice"]))
    return base.clip(f"{label} {dice} {side['modifier']:+d}={side['total']}")


class BattleResult:
    """Both sides' dice and totals, the winner, losses and the winner's support (W-2..W-5).
    up/down scroll; A shows every die's loss-table reading."""

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result
        self.scroll = Scroll()

    @property
    def title(self) -> str:
        return _("Battle")

    def rows(self) -> list[str]:
        r = self.result
        att, dfd = r["attacker"], r["defender"]
        winner = _("attacker") if r["winner"] == "attacker" else _("defender")
        return [
            side_row(_("Attack"), att),
            side_row(_("Defence"), dfd),
            _("Attacker loses {}").format(att["losses"]),
            _("Defender loses {}").format(dfd["losses"]),
            _("Support +{} ({})").format(r["support"], winner),
            _("A: loss table"),
        ]

    def render(self, ctx: Ctx) -> Image.Image:
        r = self.result
        img, draw = base.frame()
        status = _("attacker wins") if r["winner"] == "attacker" else _("defender wins")
        base.title_bar(draw, self.title, status)
        rows = self.rows()
        top = self.scroll.fit(len(rows), base.ROWS)
        base.lines(draw, rows[top:])
        scroll_bar(draw, top, base.ROWS, len(rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        if self.scroll.move(what, len(self.rows()), base.ROWS):
            return
        if what is Intent.CLOSE:
            rows = []
            for x in self.result["readings"]:
                side = _("Attacker") if x["side"] == "attacker" else _("Defender")
                rows.append(_("{} die {}: {}").format(side, x["die"], reading_word(x["reads"])))
            ctx.push(TextScreen(_("Loss table"), rows or [_("No losses.")]))
        elif what is Intent.BACK:
            ctx.pop()


def reading_word(code: str) -> str:
    """A loss-table code for a person: ``L2`` -> "loser −2", ``W1`` -> "winner −1", ``-`` -> "none"."""
    if code[:1] == "L" and code[1:].isdigit():
        return _("loser −{}").format(code[1:])
    if code[:1] == "W" and code[1:].isdigit():
        return _("winner −{}").format(code[1:])
    return _("no loss")


# -- tactics and odds ------------------------------------------------------------------------------
def tactics_form() -> NumberForm:
    """Rating and modifier with the chance before the roll (W-1); A rolls (or asks for the die)."""

    def go(c: Ctx, v: dict[str, int]) -> None:
        line = f"tactics {v['rating']} mod={v['mod']}"
        if not v["dice"]:
            response = _run(c, line)
            if response is not None:
                c.replace(TacticsResult(response))
            return

        def roll(c2: Ctx, faces: list[list[int]]) -> None:
            response = _run(c2, f"{line} die={faces[0][0]}")
            if response is not None:
                c2.pop()
                c2.replace(TacticsResult(response))

        c.push(DiceEntry(_("Tactics die"), [(_("Die"), 1)], roll))

    return NumberForm(N_("Tactics test"), [
        Field("rating", N_("Tactics rating"), 2, 0, 6),
        Field("mod", N_("Modifier"), 0, -3, 3, lambda m: f"{m:+d}"),
        Field("dice", N_("Dice"), 0, 0, 1, dice_word),
    ], go, status=lambda c, v: f"{float(chance(v['rating'], v['mod'])) * 100:.0f}%")


class TacticsResult:
    """The die in big digits and the verdict."""

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result

    @property
    def title(self) -> str:
        return _("Tactics {}").format(self.result["rating"])

    def render(self, ctx: Ctx) -> Image.Image:
        r = self.result
        img, draw = base.frame()
        base.title_bar(draw, self.title, r["chance_fraction"])
        base.big(img, 6, base.TITLE_H + 8, str(r["roll"]), 3)
        verdict = _("SUCCESS") if r["success"] else _("FAILURE")
        base.put(draw, 36, base.row_y(0), verdict, kind="large")
        base.text(draw, 36, base.row_y(2), f"{r['roll']}{r['mod']:+d} = {r['modified']}")
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

    return OddsScreen(lambda c: _("Odds 3d6 vs 3d6"), outcomes, adjust=m.change, figure=lambda c: f"{m.mod:+d}",
                      hint=lambda: _("←→ modifier  B: back"))


# -- tracks ------------------------------------------------------------------------------------------
def vp_screen() -> VPTrack:
    """Each power's VP (W-11): left/right change the selected power's VP by one."""
    def rows(ctx: Ctx) -> list[tuple[str, str, str]]:
        view = _view(ctx)
        return [(f, short(f), _("{} VP").format(view["vp"][f])) for f in view["factions"]]

    def change(ctx: Ctx, power: str, by: int) -> None:
        _run(ctx, f"vp {power} {by:+d}")

    return VPTrack(lambda: _("VP track"), rows, change, lambda c: _("←→ VP"))


class DesperateScreen(ListScreen):
    """Mark everyone who wants to play a Desperate Times card now (right or press: ✓), A decides
    who plays (W-12); A with nobody marked says how to mark."""

    def __init__(self) -> None:
        super().__init__()
        self.marked: set[str] = set()

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Desperate Times")

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        return [Item(f"{'✓' if f in self.marked else '·'} {short(f)}", None,
                     ngettext("{} card", "{} cards", view["desperate"][f]).format(view["desperate"][f]), ident=f)
                for f in view["factions"]]

    def key(self, key: str, ctx: Ctx) -> None:
        powers = _view(ctx)["factions"]
        what = intent("marks", key)
        if what is Intent.TOGGLE:
            self.marked ^= {powers[min(self.cursor, len(powers) - 1)]}
        elif what is Intent.GO:
            self._decide(ctx, powers)
        else:
            super().key(key, ctx)

    def _decide(self, ctx: Ctx, powers: list[str]) -> None:
        if not self.marked:
            ctx.notify(_("Mark who wants to play (press)."))
            return
        wanting = [f for f in powers if f in self.marked]
        response = _run(ctx, "desperate " + ",".join(wanting))
        if response is not None:
            ctx.pop()
            note = _("{} plays.").format(short(response["plays"]))
            if response["kept"]:
                note += " " + _("{} keep theirs.").format(", ".join(map(short, response["kept"])))
            ctx.notify(note)


def naval_form(ctx: Ctx) -> NumberForm:
    """Naval move (W-8): modifiers and the dice; A rolls (or asks for the die)."""
    carthage = "carthage" in _view(ctx)["factions"]

    def go(c: Ctx, v: dict[str, int]) -> None:
        line = f"naval mod={v['mod']} friendly-port={v['port']}" + (f" extra-ops={v['extra']}" if carthage else "")
        if not v["dice"]:
            response = _run(c, line)
            if response is not None:
                c.replace(naval_screen(response))
            return

        def roll(c2: Ctx, faces: list[list[int]]) -> None:
            response = _run(c2, f"{line} die={faces[0][0]}")
            if response is not None:
                c2.pop()
                c2.replace(naval_screen(response))

        c.push(DiceEntry(_("Naval die"), [(_("Die"), 1)], roll))

    fields = [Field("mod", N_("Modifier"), 0, -3, 3, lambda m: f"{m:+d}"),
              Field("port", N_("Friendly port"), 0, 0, 1, on_off)]
    if carthage:
        fields.append(Field("extra", N_("Extra Carthage ops"), 0, 0, 3))
    fields.append(Field("dice", N_("Dice"), 0, 0, 1, dice_word))
    return NumberForm(N_("Naval move"), fields, go, status=lambda c, v: _("A: roll"))


class CheckMenu(ListScreen):
    """2d6 rolls (W-9): pick which, then the device's dice or the dice thrown on the table; the sum
    is shown (the tables are not transcribed)."""

    title = Said(N_("2d6 roll"))

    def __init__(self) -> None:
        super().__init__()
        self.table = False

    def items(self, ctx: Ctx) -> list[Item]:
        out = [Item(_(CHECK_NAMES[k]), partial(self._roll, kind=k)) for k in CHECKS]
        out.append(Item(_("Dice"), self._toggle, dice_word(int(self.table))))
        return out

    def _toggle(self, ctx: Ctx) -> None:
        self.table = not self.table

    def _roll(self, ctx: Ctx, kind: str) -> None:
        if not self.table:
            response = _run(ctx, f"check {kind}")
            if response is not None:
                ctx.push(check_screen(response))
            return

        def roll(c2: Ctx, faces: list[list[int]]) -> None:
            response = _run(c2, f"check {kind} dice={_faces(faces[0])}")
            if response is not None:
                c2.replace(check_screen(response))

        ctx.push(DiceEntry(_(CHECK_NAMES[kind]), [(_("2d6"), 2)], roll))


def unrest_form(ctx: Ctx) -> NumberForm:
    """Carthaginian unrest (W-13): set the level; A applies and shows the effects."""
    level = int(_view(ctx)["unrest"]["level"])

    def go(c: Ctx, v: dict[str, int]) -> None:
        if v["level"] == level:
            c.pop()                                   # no change: not an undo step
            return
        response = _run(c, f"unrest ={v['level']}")
        if response is not None:
            c.pop()
            c.notify(_("Unrest {}: hand size {:+d}, VP {:+d}.").format(
                response["unrest"], response["hand_size_modifier"], response["vp_modifier"]))

    return NumberForm(N_("Carthage unrest"), [Field("level", N_("Unrest"), level, 0, 20)], go,
                      status=lambda c, v: _("hand {:+d}, VP {:+d}").format(-(v["level"] // 2), -(v["level"] // 3)))
