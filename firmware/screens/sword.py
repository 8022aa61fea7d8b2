"""The Sword of Rome screens: battles, tactics tests, odds, the VP track, Desperate Times, naval
moves, 2d6 checks, the consuls' cup, Carthaginian unrest and the turn/round tracker.

Dice come from the session (``battle``, ``tactics``, ``naval``, ``check``, ``consuls``), so every
roll is journaled and a long B takes it back without re-rolling.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from PIL import Image

from engine.sword.odds import attacker_wins
from engine.sword.tactics import chance
from firmware.screens import base
from firmware.screens.base import BACK, Ctx, Item, ListScreen, TextScreen
from firmware.screens.form import Field, NumberForm, on_off
from firmware.screens.kit import ResultScreen

PRESETS: tuple[tuple[str, str], ...] = (
    ("4 players", "romans,gauls,etruscans,greeks"),
    ("5 players (Carthage)", "romans,gauls,etruscans,greeks,carthage"),
    ("3 players", "romans,etruscans,greeks"),
)
CHECKS = ("siege", "subjugation", "attrition", "gallic")
BAND = ("none", "att", "def")


def open_game(ctx: Ctx) -> None:
    """Continue the current Sword session, or start one from a preset."""
    base.continue_or_setup(ctx, ("sword",), SwordHome, SetupScreen)


def _view(ctx: Ctx) -> dict[str, Any]:
    return base.game_view(ctx, ("sword",), "Sword of Rome")


_run = base.run_or_notify


def short(power: str) -> str:
    """``etruscans`` -> ``Etruscans``."""
    return power.capitalize()


class SetupScreen(ListScreen):
    title = "New Sword game"

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(label, partial(self._start, powers=powers)) for label, powers in PRESETS]

    @staticmethod
    def _start(ctx: Ctx, powers: str) -> None:
        base.start_game(ctx, f"new sword players={powers}", SwordHome)


class SwordHome(ListScreen):
    title = "Sword of Rome"

    def status(self, ctx: Ctx) -> str:
        view = _view(ctx)
        return "end" if view["finished"] else f"T{view['turn']}.{view['round']}"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        out = [
            Item("Battle", lambda c: c.push(battle_form())),
            Item("Tactics test", lambda c: c.push(tactics_form())),
            Item("Odds", lambda c: c.push(OddsScreen())),
            Item("VP track", lambda c: c.push(VPScreen()), short(view["standings"][0])[:8]),
            Item("Desperate Times", lambda c: c.push(DesperateScreen())),
            Item("Naval move", lambda c: c.push(naval_form(c))),
            Item("2d6 check", lambda c: c.push(CheckMenu())),
            Item("Draw consuls", self._consuls),
        ]
        if view.get("unrest") is not None:
            out.append(Item("Carthage unrest", lambda c: c.push(unrest_form(c)), str(view["unrest"]["level"])))
        if view["last"] is not None:
            out.append(Item("Last roll", self._last, view["last"]["kind"]))
        if not view["finished"]:
            out.append(Item("Next round", self._advance))
        return out

    @staticmethod
    def _consuls(ctx: Ctx) -> None:
        response = _run(ctx, "consuls")
        if response is not None:
            ctx.push(ResultScreen("Consuls", " & ".join(response["drawn"])))

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
            ctx.notify(f"Game over: {short(response['winner'])} wins.")
            return
        note = f"Turn {response['turn']}, round {response['round']}."
        order = response.get("desperate_order_before")
        if order is not None:
            note = ("Round 5 ended; Desperate Times order: " + (", ".join(map(short, order)) or "none")
                    + ". " + note)
        ctx.notify(note)


def result_screen(last: dict[str, Any]) -> Any:
    """The screen that shows a roll kept in the session's ``last``."""
    kind = last["kind"]
    if kind == "battle":
        return BattleResult(last)
    if kind == "tactics":
        return TacticsResult(last)
    if kind == "naval":
        return ResultScreen(f"Naval {last['roll']}{last['modifier']:+d}", last["result"].upper())
    if kind == "check":
        return ResultScreen(f"{last['check'].capitalize()} 2d6",
                            f"{last['dice'][0]}+{last['dice'][1]}={last['total']}")
    return None


# -- battle --------------------------------------------------------------------------------------
def _odds_status(ctx: Ctx, v: dict[str, int]) -> str:
    n_att = 4 if v["band"] == 1 else 3
    n_def = 4 if v["band"] == 2 else 3
    p = attacker_wins(v["mod"] - v["defmod"], n_att, n_def)
    return f"att {float(p) * 100:.0f}%"


def battle_form() -> NumberForm:
    """Units and modifiers; the title bar shows the attacker's exact chance (W-6). A fights."""

    def go(c: Ctx, v: dict[str, int]) -> None:
        line = f"battle att={v['att']} def={v['def']} mod={v['mod']} defmod={v['defmod']}"
        if v["band"]:
            line += f" sacred-band={BAND[v['band']]}"
        response = _run(c, line)
        if response is not None:
            c.replace(BattleResult(response))

    return NumberForm("Battle", [
        Field("att", "Attacker units", 3, 1, 30),
        Field("def", "Defender units", 3, 1, 30),
        Field("mod", "Attacker mod", 0, -9, 9, lambda m: f"{m:+d}"),
        Field("defmod", "Defender mod", 0, -9, 9, lambda m: f"{m:+d}"),
        Field("band", "Sacred Band", 0, 0, 2, lambda b: BAND[b]),
    ], go, status=_odds_status)


def side_row(label: str, side: dict[str, Any]) -> str:
    """``Att 5 2 2 +3 = 12``."""
    dice = " ".join(map(str, side["dice"]))
    return f"{label} {dice} {side['modifier']:+d} ={side['total']:>3}"


class BattleResult:
    """Both sides' dice and totals, the winner, losses and the winner's support (W-2..W-5).
    A shows every die's loss-table reading."""

    title = "Battle"

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result

    def render(self, ctx: Ctx) -> Image.Image:
        r = self.result
        img, draw = base.frame()
        base.title_bar(draw, "Battle", ("ATT" if r["winner"] == "attacker" else "DEF") + " wins")
        att, dfd = r["attacker"], r["defender"]
        base.lines(draw, [
            side_row("Att", att),
            side_row("Def", dfd),
            f"Losses att {att['losses']} def {dfd['losses']}",
            f"Support +{r['support']} ({r['winner'][:3]})",
            "A: loss readings",
        ])
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("a", "press", "right"):
            rows = [f"{x['side'][:3]} die {x['die']}: {x['reads']}" for x in self.result["readings"]]
            ctx.push(TextScreen("Loss readings", rows + ["L = loser loses, W = winner loses"]))
        elif key in BACK:
            ctx.pop()


# -- tactics and odds ------------------------------------------------------------------------------
def tactics_form() -> NumberForm:
    """Rating and modifier with the chance before the roll (W-1); A rolls."""

    def go(c: Ctx, v: dict[str, int]) -> None:
        response = _run(c, f"tactics {v['rating']} mod={v['mod']}")
        if response is not None:
            c.replace(TacticsResult(response))

    return NumberForm("Tactics test", [
        Field("rating", "Tactics rating", 2, 0, 6),
        Field("mod", "Modifier", 0, -3, 3, lambda m: f"{m:+d}"),
    ], go, status=lambda c, v: f"{float(chance(v['rating'], v['mod'])) * 100:.0f}%")


class TacticsResult:
    """The die in big digits and the verdict."""

    title = "Tactics"

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result

    def render(self, ctx: Ctx) -> Image.Image:
        r = self.result
        img, draw = base.frame()
        base.title_bar(draw, f"Tactics {r['rating']}", r["chance_fraction"])
        base.big(img, 6, base.TITLE_H + 6, str(r["roll"]), 4)
        verdict = "SUCCESS" if r["success"] else "FAIL"
        base.text(draw, 40, base.row_y(1), verdict)
        base.text(draw, 40, base.row_y(2), f"{r['roll']}{r['mod']:+d} = {r['modified']}")
        base.text(draw, 40, base.row_y(3), f"need <= {r['rating']}")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in BACK or key in ("a", "press", "right"):
            ctx.pop()


class OddsScreen:
    """The attacker's exact chance for a net modifier (W-6): up/down change it."""

    title = "Odds"

    def __init__(self) -> None:
        self.mod = 0

    def render(self, ctx: Ctx) -> Image.Image:
        p = attacker_wins(self.mod)
        img, draw = base.frame()
        base.title_bar(draw, "Odds 3d6 v 3d6", f"mod {self.mod:+d}")
        label = f"{float(p) * 100:.1f}%"
        w = base.big_width(label, 3)
        base.big(img, (base.W - w) // 2, base.TITLE_H + 4, label, 3)
        base.text(draw, 1, base.row_y(4), base.clip(f"att wins {p.numerator}/{p.denominator}"))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("up", "right"):
            self.mod = min(15, self.mod + 1)
        elif key in ("down",):
            self.mod = max(-15, self.mod - 1)
        elif key in BACK:
            ctx.pop()


# -- tracks ------------------------------------------------------------------------------------------
class VPScreen:
    """Each power's VP and Desperate Times cards; left/right change the selected power's VP."""

    title = "VP"

    def __init__(self) -> None:
        self.cursor = 0

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, "VP track", f"T{view['turn']}.{view['round']}")
        powers = view["factions"]
        self.cursor = min(self.cursor, len(powers) - 1)
        items = [Item(short(f), None, f"{view['vp'][f]:>2}  DT{view['desperate'][f]}") for f in powers]
        base.draw_list(draw, items, self.cursor, 0)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        powers = _view(ctx)["factions"]
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(powers)
        elif key in ("left", "right"):
            _run(ctx, f"vp {powers[self.cursor]} {'+1' if key == 'right' else '-1'}")
        elif key in ("b", "a"):
            ctx.pop()


class DesperateScreen:
    """Mark everyone who wants to play a Desperate Times card now (press), A decides (W-12)."""

    title = "Desperate Times"

    def __init__(self) -> None:
        self.cursor = 0
        self.marked: set[str] = set()

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, "Desperate", "A play")
        powers = view["factions"]
        items = [Item(f"[{'x' if f in self.marked else ' '}] {short(f)}", None,
                      f"{view['vp'][f]}vp {view['desperate'][f]}") for f in powers]
        base.draw_list(draw, items, self.cursor, 0)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        powers = _view(ctx)["factions"]
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(powers)
        elif key in ("press", "right"):
            self.marked ^= {powers[self.cursor]}
        elif key == "a":
            if not self.marked:
                ctx.notify("Mark who wants to play (press).")
                return
            wanting = [f for f in powers if f in self.marked]
            response = _run(ctx, "desperate " + ",".join(wanting))
            if response is not None:
                ctx.pop()
                kept = f" {', '.join(map(short, response['kept']))} keep theirs." if response["kept"] else ""
                ctx.notify(f"{short(response['plays'])} plays.{kept}")
        elif key in BACK:
            ctx.pop()


def naval_form(ctx: Ctx) -> NumberForm:
    """Naval move (W-8): modifiers, then A rolls."""
    carthage = "carthage" in _view(ctx)["factions"]

    def go(c: Ctx, v: dict[str, int]) -> None:
        line = f"naval mod={v['mod']} friendly-port={v['port']}" + (f" extra-ops={v['extra']}" if carthage else "")
        response = _run(c, line)
        if response is not None:
            c.replace(ResultScreen(f"Naval {response['roll']}{response['modifier']:+d}", response["result"].upper()))

    fields = [Field("mod", "Modifier", 0, -3, 3, lambda m: f"{m:+d}"),
              Field("port", "Friendly port", 0, 0, 1, on_off)]
    if carthage:
        fields.append(Field("extra", "Extra Carth. ops", 0, 0, 3))
    return NumberForm("Naval move", fields, go, status=lambda c, v: "A roll")


class CheckMenu(ListScreen):
    """2d6 checks (W-9): pick which; the sum is shown (tables not transcribed)."""

    title = "2d6 check"

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(k.capitalize(), partial(self._roll, kind=k)) for k in CHECKS]

    @staticmethod
    def _roll(ctx: Ctx, kind: str) -> None:
        response = _run(ctx, f"check {kind}")
        if response is not None:
            ctx.push(ResultScreen(f"{kind.capitalize()} 2d6",
                                  f"{response['dice'][0]}+{response['dice'][1]}={response['total']}"))


def unrest_form(ctx: Ctx) -> NumberForm:
    """Carthaginian unrest (W-13): set the level; A applies and shows the effects."""
    level = int(_view(ctx)["unrest"]["level"])

    def go(c: Ctx, v: dict[str, int]) -> None:
        response = _run(c, f"unrest ={v['level']}")
        if response is not None:
            c.pop()
            c.notify(f"Unrest {response['unrest']}: hand {response['hand_size_modifier']:+d}, "
                     f"VP {response['vp_modifier']:+d}.")

    return NumberForm("Carthage unrest", [Field("level", "Unrest", level, 0, 20)], go,
                      status=lambda c, v: f"hand {-(v['level'] // 2):+d} VP {-(v['level'] // 3):+d}")
