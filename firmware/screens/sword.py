"""The Sword of Rome screens: battles, tactics tests, odds, the VP track, Desperate Times, naval
moves, 2d6 checks, the consuls' cup, Carthaginian unrest and the turn/round tracker.

Dice come from the session (``battle``, ``tactics``, ``naval``, ``check``, ``consuls``), so every
roll is journaled and a long B takes it back without re-rolling. Every roll can also be thrown
on the table: the forms ask "Dice: device / table" and :class:`DiceEntry` takes the faces
(up/down change a die, right goes to the next one, A submits the whole roll).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine.sword.odds import attacker_wins
from engine.sword.tactics import chance
from engine.text import N_
from firmware import dice_guess
from firmware.i18n import _, ngettext
from firmware.screens import base
from firmware.screens.base import BACK, Ctx, Item, ListScreen, Said, StableListScreen, TextScreen
from firmware.screens.form import Field, NumberForm, on_off
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
    base.continue_or_setup(ctx, ("sword",), SwordHome, SetupScreen)


def _view(ctx: Ctx) -> dict[str, Any]:
    return base.game_view(ctx, ("sword",), "Sword of Rome")


_run = base.run_or_notify


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
        base.start_game(ctx, f"new sword players={powers}", SwordHome)


class SwordHome(StableListScreen):
    title = Said(N_("Sword of Rome"))

    def status(self, ctx: Ctx) -> str:
        view = _view(ctx)
        return _("end") if view["finished"] else _("Turn {}").format(view["turn"])

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        out = [
            Item(_("Battle"), lambda c: c.push(battle_form())),
            Item(_("Tactics test"), lambda c: c.push(tactics_form())),
            Item(_("Odds"), lambda c: c.push(OddsScreen())),
            Item(_("VP track"), lambda c: c.push(VPScreen()),
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


# -- dice thrown on the table ------------------------------------------------------------------------
class DiceEntry:
    """Enter dice thrown on the table, in big digits, in one or two rows (``rows`` = [(label, n)]).
    up/down change the selected die (1..6, wrapping), right/left: the next/previous die,
    A submits the whole roll (``on_go(ctx, [[faces of row 1], [faces of row 2]])``), B goes back.
    Read a row's dice from the lowest face: the dice of a row not reached yet show the likeliest
    face after the one before (:mod:`firmware.dice_guess`), so a roll costs few presses."""

    def __init__(self, title: str, rows: list[tuple[str, int]],
                 on_go: Callable[[Ctx, list[list[int]]], None]) -> None:
        self.title = title
        self.rows = rows
        self.faces = [dice_guess.chain(n, 0, [dice_guess.start_face(0, n, None)]) for _label, n in rows]
        self.reached = [0 for _row in rows]      # per row: the furthest die the cursor has been on
        self.on_go = on_go
        self.cursor = 0

    def _cells(self) -> list[tuple[int, int]]:
        return [(r, i) for r, (_label, n) in enumerate(self.rows) for i in range(n)]

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, base.clip(self.title, 15), _("A: ok"))
        cells = self._cells()
        cur = cells[self.cursor]
        dw = base.advance("big")
        for r, (label, n) in enumerate(self.rows):
            y = base.TITLE_H + 2 + r * 26
            base.put(draw, 1, y + 6, base.clip(label, 7))
            for i in range(n):
                x = 46 + i * (dw + 8)
                if (r, i) == cur:
                    draw.rectangle((x - 2, y, x + dw + 1, y + 24), fill=1)
                base.put(draw, x, y, str(self.faces[r][i]), fill=0 if (r, i) == cur else 1, kind="big")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        cells = self._cells()
        if key in ("up", "down"):
            r, i = cells[self.cursor]
            self.faces[r][i] = (self.faces[r][i] + (1 if key == "up" else -1) - 1) % 6 + 1
            if i == self.reached[r]:             # the dice not reached yet follow this one
                self.faces[r] = dice_guess.chain(len(self.faces[r]), i, self.faces[r])
        elif key == "right":
            self.cursor = (self.cursor + 1) % len(cells)
            r, i = cells[self.cursor]
            self.reached[r] = max(self.reached[r], i)
        elif key == "left":
            self.cursor = (self.cursor - 1) % len(cells)
        elif key in ("a", "press"):
            self.on_go(ctx, [list(f) for f in self.faces])
        elif key == "b":
            ctx.pop()


def scroll_bar(draw: Any, top: int, n: int) -> None:
    """The list's scroll mark on the right edge when ``n`` rows do not fit."""
    if n > base.ROWS:
        span = base.H - base.TITLE_H - 1
        h = max(3, span * base.ROWS // n)
        y0 = base.TITLE_H + 1 + (span - h) * top // max(1, n - base.ROWS)
        draw.rectangle((base.W - 2, y0, base.W - 1, y0 + h - 1), fill=1)


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
        self.top = 0

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
        self.top = max(0, min(self.top, len(rows) - base.ROWS))
        base.lines(draw, rows[self.top:])
        scroll_bar(draw, self.top, len(rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key == "down":
            self.top += 1
        elif key == "up":
            self.top = max(0, self.top - 1)
        elif key in ("a", "press", "right"):
            rows = []
            for x in self.result["readings"]:
                side = _("Attacker") if x["side"] == "attacker" else _("Defender")
                rows.append(_("{} die {}: {}").format(side, x["die"], reading_word(x["reads"])))
            ctx.push(TextScreen(_("Loss table"), rows or [_("No losses.")]))
        elif key in BACK:
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
        if key in BACK or key in ("a", "press", "right"):
            ctx.pop()


class OddsScreen:
    """The attacker's exact chance for a net modifier (W-6): up/right raise it, down/left lower
    it (as the bottom row says); B goes back."""

    def __init__(self) -> None:
        self.mod = 0

    @property
    def title(self) -> str:
        return _("Odds 3d6 vs 3d6")

    def render(self, ctx: Ctx) -> Image.Image:
        p = attacker_wins(self.mod)
        img, draw = base.frame()
        base.title_bar(draw, self.title, f"{self.mod:+d}")
        label = f"{float(p) * 100:.1f}%"
        w = base.big_width(label, 3)
        base.big(img, (base.W - w) // 2, base.TITLE_H + 2, label, 3)
        base.text(draw, 1, base.row_y(3), base.clip(_("←→ modifier  B: back")))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("up", "right"):
            self.mod = min(15, self.mod + 1)
        elif key in ("down", "left"):
            self.mod = max(-15, self.mod - 1)
        elif key == "b":
            ctx.pop()


# -- tracks ------------------------------------------------------------------------------------------
class VPScreen:
    """Each power's VP and Desperate Times cards left; left/right change the selected power's VP."""

    def __init__(self) -> None:
        self.cursor = 0
        self.top = 0

    @property
    def title(self) -> str:
        return _("VP track")

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, _("VP track"), _("←→ VP"))
        powers = view["factions"]
        self.cursor = min(self.cursor, len(powers) - 1)
        self.top = max(0, min(self.top, self.cursor), self.cursor - base.ROWS + 1)
        items = [Item(short(f), None, _("{} VP").format(view["vp"][f])) for f in powers]
        base.draw_list(draw, items, self.cursor, self.top)
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
    """Mark everyone who wants to play a Desperate Times card now (press or right: ✓), A decides
    who plays (W-12); A with nobody marked says how to mark."""

    def __init__(self) -> None:
        self.cursor = 0
        self.top = 0
        self.marked: set[str] = set()

    @property
    def title(self) -> str:
        return _("Desperate Times")

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        img, draw = base.frame()
        base.title_bar(draw, self.title)
        powers = view["factions"]
        self.top = max(0, min(self.top, self.cursor), self.cursor - base.ROWS + 1)
        items = [Item(f"{'✓' if f in self.marked else '·'} {short(f)}", None,
                      ngettext("{} card", "{} cards", view["desperate"][f]).format(view["desperate"][f]))
                 for f in powers]
        base.draw_list(draw, items, self.cursor, self.top)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        powers = _view(ctx)["factions"]
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(powers)
        elif key in ("press", "right"):
            self.marked ^= {powers[self.cursor]}
        elif key == "a":
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
        elif key in BACK:
            ctx.pop()


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
