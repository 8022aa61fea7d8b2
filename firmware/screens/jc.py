"""Julius Caesar screens: set up a battle from the roster, fight it turn by turn (or at once),
exact odds live on the battle screen, the forces, VP cities, the cards shown privately, and the
winter checklist.

Every change goes through the Julius Caesar console commands (docs/protocol/jc.md), so it is
journaled and a long B takes it back without re-rolling. The device only asks what the rules
leave to a player: which block of a step acts and how, and which of equally strong blocks takes
a hit. Physical dice are entered one die at a time: up/down over the six faces, right to the next
die, A enters the whole roll. Texts: ``_()`` at render time; the engine's sentences arrive
already said in the current language (``ctx.view()`` and console replies are localized).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine.jc.roster import roman
from engine.jc.terms import block_name
from engine.text import N_
from firmware.i18n import _, ngettext, say
from firmware.screens import base, play
from firmware.screens.ctx import Ctx
from firmware.screens.widgets import (ConfirmScreen, DiceEntry, Field, Intent, Item, ListScreen, NumberForm, OddsScreen, Scroll,
                                      TableScreen, TextScreen, VPTrack, die_tile, intent, on_off, pct, scroll_bar)
from firmware.screens.widgets.dice import DIE

GAME = "jc-battle"
SIDES = ("caesar", "pompey")
SIDE_WORDS = {"caesar": N_("Caesar"), "pompey": N_("Pompey")}
ROLE_WORDS = {"attacker": N_("Add attacker"), "defender": N_("Add defender")}
RESULT_WORDS = {"attacker_wins": N_("The attacker wins."),
                "attacker_eliminated": N_("The attacker is destroyed."),
                "defender_holds": N_("The defender holds.")}
STATUS_WORDS = {"reserve": N_("reserve"), "retreated": N_("retreated"), "eliminated": N_("eliminated"),
                "killed": N_("killed")}
# The 11 VP cities (J-17) as the Russian summary names them.
CITY_WORDS = (N_("Alexandria"), N_("Antiochia"), N_("Athenae"), N_("Byzantium"), N_("Carthago Nova"),
              N_("Ephesus"), N_("Massilia"), N_("Roma"), N_("Syracusae"), N_("Tarraco"), N_("Utica"))
EVENT_WORDS = {"apollo": N_("Apollo"), "jupiter": N_("Jupiter"), "mars": N_("Mars"),
               "mercury": N_("Mercury"), "neptune": N_("Neptune"), "pluto": N_("Pluto"),
               "vulcan": N_("Vulcan")}


def open_game(ctx: Ctx) -> None:
    """Continue the current Julius Caesar session, or set one up."""
    play.continue_or_setup(ctx, (GAME,), JcHome, setup_form)


def _view(ctx: Ctx) -> dict[str, Any]:
    return play.game_view(ctx, (GAME,), "Julius Caesar")


_run = play.run_or_notify


def side_name(side: str | None) -> str:
    return _(SIDE_WORDS[side]) if side in SIDE_WORDS else _("nobody")


def name_of(b: dict[str, Any]) -> str:
    """A block's printed name in the current language (Legio 10 -> Легион 10)."""
    return say(block_name(b["name"]))


def block_row(b: dict[str, Any], width: int = base.COLS) -> str:
    """``Legio 10      C4 III`` fitted to ``width`` characters (the name shortened on purpose)."""
    tail = f" {b['rating']} {roman(b['strength'])}"
    return base.clip(name_of(b), width - len(tail)).ljust(width - len(tail)) + tail


def card_name(card: str) -> str:
    """``2/1`` -> "Move 2, Levy 1"; ``mars`` -> "Mars" (J-18)."""
    if card in EVENT_WORDS:
        return _(EVENT_WORDS[card])
    move, _sep, levy = card.partition("/")
    return _("Move {}, Levy {}").format(move, levy)


def win_chance(battle: dict[str, Any], side: str, odds: dict[str, Any]) -> float:
    """The chance ``side`` ends up holding the field (results are the original attacker's)."""
    return odds["attacker_wins"] if side == battle["attacker"] else 1.0 - odds["attacker_wins"]


# -- odds and advice, computed once per game step ----------------------------------------------
_CACHE: dict[tuple[str, str], dict[str, Any] | None] = {}


def _step_key(b: dict[str, Any]) -> str:
    return repr((b["number"], b["phase"], b["round"], b["decision"], b["dice"],
                 [(x["key"], x["side"], x["strength"], x["status"], x["acted"]) for x in b["blocks"]]))


PENDING: dict[str, Any] = {"ok": True, "pending": True}   # being computed off the main loop
WAIT = "…"                                                # shown where a pending figure goes


def _cached(ctx: Ctx, line: str) -> dict[str, Any] | None:
    """The reply of the read-only ``line`` (odds, advise) for the battle as it is now; None if
    the console refuses it, PENDING while the device computes it (the screen is drawn again when
    it is ready). Recomputed only when the battle changes."""
    b = _view(ctx)["battle"]
    key = (line, _step_key(b))
    if key not in _CACHE:
        response = ctx.ask(line)
        if response is None:
            return PENDING
        if len(_CACHE) > 32:
            _CACHE.clear()
        _CACHE[key] = response if response.get("ok") else None
    return _CACHE[key]


def odds_now(ctx: Ctx) -> dict[str, Any] | None:
    return _cached(ctx, "odds")


def advice_now(ctx: Ctx) -> dict[str, Any] | None:
    b = _view(ctx)["battle"]
    return _cached(ctx, "advise") if b["decision"] is not None else None


def _advice_value(ctx: Ctx, action: str, block: str) -> str:
    """The deciding side's chance to hold the field if it takes ``action`` with ``block`` now."""
    advice = advice_now(ctx)
    if advice is None:
        return ""
    if advice is PENDING:
        return WAIT
    b = _view(ctx)["battle"]
    side = advice["decision"]["side"]
    for o in advice.get("options", []):
        if o.get("action") == action and o.get("block") == block:
            mark = "✓" if o is advice.get("best") or o == advice.get("best") else ""
            return mark + pct(win_chance(b, side, o))
    return ""


# -- set-up ------------------------------------------------------------------------------------
def setup_form(next_battle: bool = False) -> NumberForm:
    """Attacker, surprise, dice: A starts the session (or the next battle). A new game over any
    unfinished one (this one too) asks first."""
    fields = [Field("attacker", N_("Attacker"), 0, 0, 1, lambda v: side_name(SIDES[v])),
              Field("surprise", N_("Surprise (Mars)"), 0, 0, 1, on_off),
              Field("dice", N_("Dice"), 0, 0, 1, lambda v: _("real dice") if v else _("device"))]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        opts = (f"attacker={SIDES[v['attacker']]} surprise={v['surprise']} "
                f"dice={'physical' if v['dice'] else 'digital'}")
        if not next_battle:
            play.start_game(ctx, f"new {GAME} {opts}", JcHome)
        elif _run(ctx, f"next-battle {opts}") is not None:
            ctx.pop()

    return NumberForm(N_("Next battle") if next_battle else N_("New battle"), fields, go)


class JcHome(ListScreen):
    """The session's home: the battle, its odds and forces, the campaign's bookkeeping."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Julius Caesar")

    def status(self, ctx: Ctx) -> str:
        return f"№{_view(ctx)['battle']['number']}"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        b = view["battle"]
        out = [Item(_("Battle"), lambda c: c.push(BattleScreen()), _phase_word(b))]
        if b["phase"] == "setup":
            out += [Item(_("Add attacker"), partial(_open_add, role="attacker"), side_name(b["attacker"])),
                    Item(_("Add defender"), partial(_open_add, role="defender"), side_name(b["defender"]))]
        if b["phase"] != "over":
            out += [Item(_("Odds"), lambda c: c.push(odds_screen())),
                    Item(_("Fight to the end"), ask_fight)]
        else:
            out.append(Item(_("Next battle"), lambda c: c.push(setup_form(next_battle=True))))
        out += [Item(_("Forces"), lambda c: c.push(forces_screen(c))),
                Item(_("Battle log"), lambda c: c.push(log_screen(c))),
                Item(_("Victory points"), lambda c: c.push(vp_screen()),
                     f"{view['vp']['caesar']}:{view['vp']['pompey']}"),
                Item(_("Cards"), lambda c: c.push(CardsMenu())),
                Item(_("Winter"), _ask_winter, _("year {}").format(view["campaign"]["year"])),
                Item(_("New game"), lambda c: c.push(setup_form()))]
        return out


def _phase_word(b: dict[str, Any]) -> str:
    if b["phase"] == "over":
        return _("over")
    if b["phase"] == "setup":
        n = len(b["blocks"])
        return ngettext("{} block", "{} blocks", n).format(n)
    return _("round {}").format(b["round"])


def _open_add(ctx: Ctx, role: str) -> None:
    ctx.push(AddScreen(role))


# -- fighting to the end -----------------------------------------------------------------------
def ask_fight(ctx: Ctx) -> None:
    """Ask first; digital dice: the whole battle at once; physical dice: every fire asks for the
    dice rolled at the table (J-14 decides the rest)."""
    physical = _view(ctx)["battle"]["dice"] == "physical"
    question = (_("The device plays the rest of the battle: every block fires, attackers retreat "
                  "in round 4. You roll for each fire and enter the dice.") if physical else
                _("The device plays the rest of the battle: every block fires, attackers retreat "
                  "in round 4, and rolls the dice."))
    ctx.push(ConfirmScreen(_("Fight to the end?"), question,
                                fight_step if physical else _fight_all))


def _fight_all(ctx: Ctx) -> None:
    if _run(ctx, "fight") is not None:
        ctx.push(OverScreen())


def fight_step(ctx: Ctx) -> None:
    """Play the J-14 decisions until a fire needs the table's dice (then ask) or the end."""
    for _i in range(500):
        b = _view(ctx)["battle"]
        if b["phase"] == "over":
            ctx.push(OverScreen())
            return
        if b["phase"] == "setup":
            if _run(ctx, "start") is None:
                return
            continue
        d = b["decision"]
        if d is None:
            return
        if d["kind"] == "turn" and "fire" in d["actions"]:
            first = next(x["key"] for x in b["blocks"] if x["key"] in d["blocks"])   # J-14: entered first
            ctx.push(JcDiceEntry(first, auto=True, then=fight_step))
            return
        if _run(ctx, "auto") is None:
            return


# -- adding blocks -----------------------------------------------------------------------------
class AddScreen(ListScreen):
    """The side's available roster blocks (strength carried over), and "By rating"."""

    def __init__(self, role: str) -> None:
        super().__init__()
        self.role = role

    @property
    def title(self) -> str:  # type: ignore[override]
        return _(ROLE_WORDS[self.role])

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        side = view["battle"][self.role]
        present = {b["key"] for b in view["battle"]["blocks"]}
        blocks = ctx.run(f"roster {side}").get("blocks", [])
        out = [Item(_("By rating…"), lambda c: c.push(rated_form(self.role)))]
        for b in blocks:
            if b["status"] != "available" or b["id"] in present:
                continue
            out.append(Item(say(block_name(b["name"])), partial(self._pick, block=b),
                            f"{b['rating'].split('/')[0]} {roman(b['strength'])}"))
        return out

    def _pick(self, ctx: Ctx, block: dict[str, Any]) -> None:
        ctx.push(block_form(self.role, block))


def block_form(role: str, block: dict[str, Any]) -> NumberForm:
    """Strength and reserve for a roster block; A adds it."""
    fields = [Field("strength", N_("Strength"), block["strength"], 1, block["max"], roman),
              Field("reserve", N_("Reserve"), 0, 0, 1, on_off)]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        line = f"add {role} {block['id']} strength={v['strength']}" + (" reserve=1" if v["reserve"] else "")
        response = _run(ctx, line)
        if response is not None:
            ctx.pop()
            for note in response.get("notes", []):
                ctx.notify(note)

    return NumberForm(say(block_name(block["name"])), fields, go)


def rated_form(role: str) -> NumberForm:
    """A block known only by its rating (other Columbia block games)."""
    fields = [Field("letter", N_("Initiative"), 2, 0, 3, lambda v: "ABCD"[v]),
              Field("fp", N_("Firepower"), 2, 1, 4, str),
              Field("strength", N_("Strength"), 3, 1, 4, roman),
              Field("leader", N_("Leader"), 0, 0, 1, on_off),
              Field("reserve", N_("Reserve"), 0, 0, 1, on_off)]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        line = (f"add {role} rating={'ABCD'[v['letter']]}{v['fp']} strength={v['strength']}"
                + (" leader=1" if v["leader"] else "") + (" reserve=1" if v["reserve"] else ""))
        if _run(ctx, line) is not None:
            ctx.pop()

    return NumberForm(N_("Block by rating"), fields, go)


# -- the battle --------------------------------------------------------------------------------
class DecisionList(ListScreen):
    """A list between an optional header row and the live odds row (its footer); the cursor starts
    fresh at every new decision (a fire or a hit changes it)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = ""
        self._title = ""

    def _fresh(self, ctx: Ctx) -> None:
        b = _view(ctx)["battle"]
        key = repr((b["number"], b["phase"], b["decision"], len(b["log"]), len(b["events"])))
        if key != self.seen:
            self.seen = key
            self.reset()

    def footer(self, ctx: Ctx) -> str:
        return odds_line(ctx)

    def render(self, ctx: Ctx) -> Image.Image:
        self._fresh(ctx)
        return super().render(ctx)

    def key(self, key: str, ctx: Ctx) -> None:
        self._fresh(ctx)
        super().key(key, ctx)


def odds_line(ctx: Ctx) -> str:
    """The deciding side's chance to hold the field now (J-15, J-14 play), or the attacker's."""
    b = _view(ctx)["battle"]
    if b["phase"] == "over":
        return _("Winner: {}").format(side_name(b["winner"]))
    odds = odds_now(ctx)
    if odds is None:
        return _("Odds: add blocks to both sides")
    side = b["decision"]["side"] if b["decision"] else b["attacker"]
    chance = WAIT if odds is PENDING else pct(win_chance(b, side, odds))
    return _("{}: win {}").format(side_name(side), chance)


class BattleScreen(DecisionList):
    """What the rules leave to decide now: which block acts and how, or where a hit goes."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return self._title

    def render(self, ctx: Ctx) -> Image.Image:
        b = _view(ctx)["battle"]
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

    def header(self, ctx: Ctx) -> str:
        b = _view(ctx)["battle"]
        d = b["decision"]
        if d is None:
            return ""
        if d["kind"] == "hit":
            return _("Who takes the hit?")
        if len(d["blocks"]) == 1:
            blocks = {x["key"]: x for x in b["blocks"]}
            return block_row(blocks[d["blocks"][0]])
        return _("Which block acts?")

    def items(self, ctx: Ctx) -> list[Item]:
        b = _view(ctx)["battle"]
        blocks = {x["key"]: x for x in b["blocks"]}
        d = b["decision"]
        if b["phase"] == "setup":
            counts = {r: sum(1 for x in b["blocks"] if x["side"] == b[r]) for r in ("attacker", "defender")}
            return [Item(_("Start round 1"), self._start),
                    Item(_("{} attacks").format(side_name(b["attacker"])), partial(_open_add, role="attacker"),
                         str(counts["attacker"])),
                    Item(_("{} defends").format(side_name(b["defender"])), partial(_open_add, role="defender"),
                         str(counts["defender"]))]
        if d is None:
            return [Item(_("Result"), lambda c: c.push(OverScreen())),
                    Item(_("Battle log"), lambda c: c.push(log_screen(c))),
                    Item(_("Next battle"), lambda c: c.push(setup_form(next_battle=True)))]
        if d["kind"] == "hit":
            out = []
            for k in d["choices"]:
                value = _advice_value(ctx, "hit", k)
                width = base.COLS - 1 - (len(value) + 1 if value else 0)
                x = blocks[k]          # equally strong blocks (J-7): the name and the rating tell them apart
                tail = f" {x['rating']}"
                out.append(Item(base.clip(name_of(x), width - len(tail)).ljust(width - len(tail)) + tail,
                                partial(self._hit, key=k), value))
            return out + [Item(_("Device picks"), partial(self._hit, key=""))]
        if len(d["blocks"]) == 1:
            return action_items(ctx, d["blocks"][0]) + [Item(_("Device decides"), self._auto)]
        out = [Item(block_row(blocks[k], base.COLS - 1), partial(self._act, key=k)) for k in d["blocks"]]
        return out + [Item(_("Device decides"), self._auto)]

    @staticmethod
    def _start(ctx: Ctx) -> None:
        _run(ctx, "start")

    @staticmethod
    def _hit(ctx: Ctx, key: str) -> None:
        _run(ctx, f"hit {key}".strip())

    @staticmethod
    def _act(ctx: Ctx, key: str) -> None:
        ctx.push(ActionMenu(key))

    @staticmethod
    def _auto(ctx: Ctx) -> None:
        b = _view(ctx)["battle"]
        d = b["decision"]
        if b["dice"] == "physical" and d and d["kind"] == "turn" and "fire" in d["actions"]:
            first = next(x["key"] for x in b["blocks"] if x["key"] in d["blocks"])   # J-14: entered first
            ctx.push(JcDiceEntry(first, auto=True))
            return
        response = _run(ctx, "auto")
        if response is not None and response.get("turn", {}).get("action") == "fire":
            ctx.push(DiceResult(response["turn"]))


def action_items(ctx: Ctx, key: str) -> list[Item]:
    """Fire, pass, retreat, no way out (J-5, J-6), each with the advice's chance when known."""
    d = _view(ctx)["battle"]["decision"]
    actions = d["actions"] if d and d["kind"] == "turn" else []
    out = []
    if "fire" in actions:
        out.append(Item(_("Fire"), partial(_fire, key=key), _advice_value(ctx, "fire", key)))
    if "pass" in actions:
        out.append(Item(_("Pass"), partial(_simple, line=f"pass {key}"), _advice_value(ctx, "pass", key)))
    if "retreat" in actions:
        out.append(Item(_("Retreat"), partial(_simple, line=f"retreat {key}"), _advice_value(ctx, "retreat", key)))
        out.append(Item(_("No way out"), partial(_simple, line=f"retreat {key} blocked=1")))
    return out


def _fire(ctx: Ctx, key: str) -> None:
    if _view(ctx)["battle"]["dice"] == "physical":
        ctx.push(JcDiceEntry(key))
        return
    response = _run(ctx, f"fire {key}")
    if response is not None:
        ctx.push(DiceResult(response["turn"]))


def _simple(ctx: Ctx, line: str) -> None:
    _run(ctx, line)


class ActionMenu(DecisionList):
    """Fire, retreat, no retreat possible, or pass, for one of several blocks of a step."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.block = key

    @property
    def title(self) -> str:  # type: ignore[override]
        return self._title

    def render(self, ctx: Ctx) -> Image.Image:
        b = next(x for x in _view(ctx)["battle"]["blocks"] if x["key"] == self.block)
        self._title = block_row(b)
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        d = _view(ctx)["battle"]["decision"]
        if not d or d["kind"] != "turn" or self.block not in d["blocks"]:
            return []
        out = action_items(ctx, self.block)
        for item in out:              # the step is taken: back to the battle screen
            run = item.run
            item.run = (lambda c, r=run: (c.pop(), r(c))[1]) if run else None   # type: ignore[misc]
        return out


# -- dice --------------------------------------------------------------------------------------
def _block(ctx: Ctx, key: str) -> dict[str, Any]:
    return next(x for x in _view(ctx)["battle"]["blocks"] if x["key"] == key)


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
        self.block: dict[str, Any] = {}

    def _name(self) -> str:
        return name_of(self.block) if self.block else ""

    def _hit(self, face: int) -> bool:
        return face <= _firepower(str(self.block.get("rating", "")))

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
        dice = ",".join(map(str, faces[0]))
        line = f"auto dice={dice}" if self.auto else f"fire {self.key_} dice={dice}"
        response = _run(ctx, line)
        if response is not None:
            ctx.replace(DiceResult(response["turn"], self.then))


class DiceResult:
    """The faces of one fire, hits filled, and where every hit went (scrolls, never cut)."""

    ROOM = 2                       # text rows under the dice

    def __init__(self, turn: dict[str, Any], then: Callable[[Ctx], None] | None = None) -> None:
        self.turn = turn
        self.then = then
        self.scroll = Scroll()
        self.title = ""

    def rows(self) -> list[str]:
        from engine.jc.battle import applied_hit
        t = self.turn
        rows = [say(applied_hit(a)) for a in t["applied"]]
        if t["lost"]:
            rows.append(ngettext("{} hit lost", "{} hits lost", t["lost"]).format(t["lost"]))
        waiting = t["hits"] - len(t["applied"]) - t["lost"]
        if waiting > 0:
            rows.append(ngettext("{} more: the owner picks", "{} more: the owner picks", waiting).format(waiting))
        if not rows:
            rows = [_("No hit.")]
        return [r for row in rows for r in base.wrap(row)]

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        t = self.turn
        status = ngettext("{} hit", "{} hits", t["hits"]).format(t["hits"])
        self.title = block_row({"name": t["name"], "rating": t["rating"], "strength": t["strength"]},
                               base.COLS - len(status) - 1)
        base.title_bar(draw, self.title, status)
        x = 2
        for face, hit in zip(t["dice"], t["hit_dice"]):
            img.paste(die_tile(face, hit), (x, base.TITLE_H + 2))
            x += DIE + 4
        rows = self.rows()
        top = self.scroll.fit(len(rows), self.ROOM)
        y0 = base.row_y(2) + 1
        for i, row in enumerate(rows[top:top + self.ROOM]):
            base.put(draw, 1, y0 + i * base.LINE, row)
        scroll_bar(draw, top, self.ROOM, len(rows), y0, self.ROOM * base.LINE)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        if self.scroll.move(what, len(self.rows()), self.ROOM):
            return
        if what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
            if self.then is not None:
                self.then(ctx)


class OverScreen:
    """The result of the battle: who holds the field in big letters, and the result."""

    def __init__(self) -> None:
        self.title = ""

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        b = _view(ctx)["battle"]
        self.title = _("Battle {}").format(b["number"])
        base.title_bar(draw, self.title, ngettext("{} round", "{} rounds", b["round"]).format(b["round"]))
        word = side_name(b["winner"]) if b["winner"] else _("Nobody")
        w = base.big_width(word, 2)
        base.big(img, max(0, (base.W - w) // 2), base.TITLE_H + 1, word, 2)
        text = _(RESULT_WORDS[b["result"]]) if b["result"] in RESULT_WORDS else ""
        for i, row in enumerate(base.wrap(text)[:2]):
            base.put(draw, 1, base.row_y(2) + 3 + i * base.LINE - 2, row)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("text", key) in (Intent.BACK, Intent.CLOSE):
            ctx.pop()


def odds_screen() -> OddsScreen:
    """Exact odds under the J-14 policy from the current point (J-15), a bar per outcome."""
    def title(ctx: Ctx) -> str:
        return _("Odds now") if _view(ctx)["battle"]["phase"] == "fighting" else _("Odds at the start")

    def outcomes(ctx: Ctx) -> list[tuple[str, float]] | None:
        b = _view(ctx)["battle"]
        response = odds_now(ctx)
        if response is PENDING:
            return None
        if response is None:
            return []
        att, dfn = side_name(b["attacker"]), side_name(b["defender"])
        return [(_("{} wins").format(att), response["attacker_wins"]),
                (_("{} holds").format(dfn), response["defender_holds"]),
                (_("{} destroyed").format(att), response["attacker_eliminated"])]

    return OddsScreen(title, outcomes, empty=lambda: _("Add at least one block to each side (not only reserves)."),
                      waiting=lambda: _("Computing the exact odds…"))


def forces_screen(ctx: Ctx) -> TableScreen:
    """Every block with its rating and strength, or what became of it."""
    b = _view(ctx)["battle"]
    rows: list[tuple[str, str]] = []
    for role in ("attacker", "defender"):
        side = b[role]
        rows.append((side_name(side).upper(), _("attacks") if b["attacker_now"] == side else _("defends")))
        for x in b["blocks"]:
            if x["side"] != side:
                continue
            right = (_(STATUS_WORDS[x["status"]]) if x["status"] in STATUS_WORDS
                     else f"{x['rating']} {roman(x['strength'])}")
            rows.append((name_of(x), right))
    return TableScreen(_("Forces"), rows)


def log_screen(ctx: Ctx) -> TextScreen:
    """Every turn of the battle, then what the rules did by themselves; opens at the end."""
    b = _view(ctx)["battle"]
    screen = TextScreen(_("Battle log"), list(b["log"]) + list(b["events"]) or [_("Nothing yet.")])
    screen.top = max(0, len(screen.rows) - base.ROWS)
    return screen


# -- score, cards, winter ----------------------------------------------------------------------
CYCLE = ("caesar", "pompey", None)          # a city's holders, in the order left/right go through them


def vp_screen() -> VPTrack:
    """The 11 VP cities and who holds them (J-17): left/right give a city to the next holder."""
    def rows(ctx: Ctx) -> list[tuple[str, str, str]]:
        return [(city, _(city), side_name(holder) if holder else "—")
                for city, holder in sorted(_view(ctx)["control"].items())]

    def change(ctx: Ctx, city: str, by: int) -> None:
        now = _view(ctx)["control"][city]
        nxt = CYCLE[(CYCLE.index(now) + by) % len(CYCLE)]
        _run(ctx, f"control {city.replace(' ', '_')} {nxt or 'vacant'}")

    def score(ctx: Ctx) -> str:
        vp = _view(ctx)["vp"]
        return f"{vp['caesar']}:{vp['pompey']}"

    return VPTrack(lambda: _("Victory points"), rows, change, score)


class CardsMenu(ListScreen):
    """Deal the year's cards; each player looks at a hand only after passing the device."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Cards")

    def status(self, ctx: Ctx) -> str:
        cards = _view(ctx)["cards"]
        return _("turn {}").format(cards["turn"]) if cards else ""

    def items(self, ctx: Ctx) -> list[Item]:
        cards = _view(ctx)["cards"]
        out = [Item(_("Deal the year"), self._deal)]
        if cards:
            for side in SIDES:
                n = cards["cards_in_hand"][side]
                done = _("played") if cards["played"][side] else ngettext("{} card", "{} cards", n).format(n)
                out.append(Item(side_name(side), partial(self._hand, side=side), done))
            if cards["reveals"]:
                out.append(Item(_("Last reveal"), self._reveal,
                                _("turn {}").format(cards["reveals"][-1]["turn"])))
        return out

    @staticmethod
    def _deal(ctx: Ctx) -> None:
        def go(c: Ctx) -> None:
            _run(c, "deal")

        if _view(ctx)["cards"]:
            ctx.push(ConfirmScreen(_("Deal?"), _("Shuffle all 27 cards and deal 6 to each: the "
                                                      "hands in play are lost."), go))
        else:
            go(ctx)

    @staticmethod
    def _hand(ctx: Ctx, side: str) -> None:
        ctx.push(ConfirmScreen(_("Private"), _("Pass the device to {}.").format(side_name(side)),
                                    lambda c: c.push(HandScreen(side)), _("A: show"), _("B: back")))

    @staticmethod
    def _reveal(ctx: Ctx) -> None:
        rec = _view(ctx)["cards"]["reveals"][-1]
        ctx.push(TextScreen(_("Reveal"), reveal_rows(rec)))


def reveal_rows(rec: dict[str, Any]) -> list[str]:
    rows = [f"{side_name(s)}: {card_name(rec['played'][s])}" for s in SIDES]
    if rec["cancelled"]:
        return rows + [_("Two events cancel each other.")]
    for side in SIDES:
        if rec["played"][side] == "apollo":
            rows.append(_("Apollo copies: {}").format(card_name(rec["effective"][side])))
    return rows + [_("Player 1: {}").format(side_name(rec["player1"]))]


class HandScreen(ListScreen):
    """One player's cards: select one to discard (once a year) or play face down."""

    def __init__(self, side: str) -> None:
        super().__init__()
        self.side = side
        self.title = ""

    def render(self, ctx: Ctx) -> Image.Image:
        self.title = _("{}'s hand").format(side_name(self.side))
        return super().render(ctx)

    def status(self, ctx: Ctx) -> str:
        cards = _view(ctx)["cards"]
        return _("discard") if cards and not cards["discarded"][self.side] else _("play")

    def items(self, ctx: Ctx) -> list[Item]:
        hand = ctx.run(f"hand {self.side}").get("hand", [])
        return [Item(card_name(card), partial(self._use, card=card)) for card in hand]

    def _use(self, ctx: Ctx, card: str) -> None:
        cards = _view(ctx)["cards"]
        verb = "discard" if not cards["discarded"][self.side] else "play"
        response = _run(ctx, f"{verb} {self.side} {card}")
        if response is None:
            return
        if verb == "play":
            ctx.pop()
            if response.get("reveal"):
                ctx.push(TextScreen(_("Reveal"), reveal_rows(response["reveal"])))


def _ask_winter(ctx: Ctx) -> None:
    """The winter (J-19), asked first; never offered in the middle of a battle."""
    view = _view(ctx)
    if view["battle"]["phase"] == "fighting":
        ctx.notify(_("Winter comes after the battle: finish it first (or Fight to the end)."))
        return
    if view["campaign"]["over"]:
        ctx.notify(_("The game is over: {}").format(say(view["campaign"]["over"].get("reason", ""))))
        return

    def go(c: Ctx) -> None:
        response = _run(c, "winter")
        if response is None:
            return
        rows = [f"{'✓' if s['done'] else '·'} {s['step']} {s['title']}: {s['text']}" for s in response["checklist"]]
        over = _view(c)["campaign"]["over"]
        title = _("Game over") if over else _("Winter: year {}").format(response["year"])
        c.push(TextScreen(title, rows))

    ctx.push(ConfirmScreen(_("Winter?"), _("End the year: Cleopatra goes home, victory check, "
                                                "eliminated blocks return, new cards."), go))
