"""Julius Caesar screens: set up a battle from the roster, fight it turn by turn (or at once),
exact odds, the forces, VP cities, the cards shown privately, and the winter checklist.

Every change goes through the ``jc-battle`` console commands (docs/protocol/jc.md), so it is
journaled and a long B takes it back without re-rolling. The device only asks what the rules
leave to a player: which block of a step acts and how, and which of equally strong blocks takes
a hit.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from engine.jc.roster import roman
from firmware.screens import base
from firmware.screens.base import BACK, SELECT, Ctx, Item, ListScreen, TextScreen
from firmware.screens.form import Field, NumberForm, on_off

SIDES = ("caesar", "pompey")
RESULT_TEXT = {"attacker_wins": "Attacker wins", "attacker_eliminated": "Attacker destroyed",
               "defender_holds": "Defender holds"}
HOLDER = {"caesar": "Caesar", "pompey": "Pompey", None: "-"}


def open_game(ctx: Ctx) -> None:
    """Continue the current jc-battle session, or set one up."""
    base.continue_or_setup(ctx, ("jc-battle",), JcHome, setup_form)


def _view(ctx: Ctx) -> dict[str, Any]:
    return base.game_view(ctx, ("jc-battle",), "Julius Caesar")


_run = base.run_or_notify


def side_name(side: str) -> str:
    return HOLDER.get(side, side)


def block_row(b: dict[str, Any], width: int = base.COLS) -> str:
    """``Legio 10      C4 III`` fitted to ``width`` characters."""
    tail = f" {b['rating']} {roman(b['strength'])}"
    return base.clip(b["name"], width - len(tail)).ljust(width - len(tail)) + tail


# -- set-up ------------------------------------------------------------------------------------
def setup_form(line_prefix: str = "new jc-battle") -> NumberForm:
    """Attacker, surprise, dice: A starts the session (or the next battle)."""
    fields = [Field("attacker", "Attacker", 0, 0, 1, lambda v: side_name(SIDES[v])),
              Field("surprise", "Surprise (Mars)", 0, 0, 1, on_off),
              Field("dice", "Dice", 0, 0, 1, lambda v: "physical" if v else "digital")]
    next_battle = line_prefix == "next-battle"

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        line = (f"{line_prefix} attacker={SIDES[v['attacker']]} surprise={v['surprise']} "
                f"dice={'physical' if v['dice'] else 'digital'}")

        if not next_battle:
            base.start_game(ctx, line, JcHome, quiet=("bag", "dice", "jc-battle"))
        elif _run(ctx, line) is not None:
            ctx.pop()

    return NumberForm("Next battle" if next_battle else "New JC battle", fields, go)


class JcHome(ListScreen):
    title = "Julius Caesar"

    def status(self, ctx: Ctx) -> str:
        b = _view(ctx)["battle"]
        phase = {"setup": "set", "fighting": f"R{b['round']}", "over": "end"}[b["phase"]]
        return f"B{b['number']} {phase}"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        b = view["battle"]
        out = [Item("Battle", lambda c: c.push(BattleScreen()), _phase_word(b))]
        if b["phase"] == "setup":
            out += [Item("Add attacker", partial(_open_add, role="attacker"), side_name(b["attacker"])),
                    Item("Add defender", partial(_open_add, role="defender"), side_name(b["defender"]))]
        if b["phase"] != "over":
            out += [Item("Odds", lambda c: c.push(OddsScreen())),
                    Item("Fight to the end", _fight)]
        else:
            out.append(Item("Next battle", lambda c: c.push(setup_form("next-battle"))))
        out += [Item("Forces", lambda c: c.push(forces_screen(c))),
                Item("Battle log", lambda c: c.push(log_screen(c))),
                Item("VP cities", lambda c: c.push(VPScreen()),
                     f"{view['vp']['caesar']}-{view['vp']['pompey']}"),
                Item("Cards", lambda c: c.push(CardsMenu())),
                Item("Winter", _ask_winter, f"Y{view['campaign']['year']}")]
        return out


def _phase_word(b: dict[str, Any]) -> str:
    if b["phase"] == "over":
        return "over"
    if b["phase"] == "setup":
        return f"{len(b['blocks'])} blk"
    return f"round {b['round']}"


def _open_add(ctx: Ctx, role: str) -> None:
    ctx.push(AddScreen(role))


def _fight(ctx: Ctx) -> None:
    response = _run(ctx, "fight")
    if response is not None:
        ctx.push(OverScreen())


# -- adding blocks -----------------------------------------------------------------------------
class AddScreen(ListScreen):
    """The side's available roster blocks (strength carried over), and "By rating"."""

    def __init__(self, role: str) -> None:
        super().__init__()
        self.role = role
        self.title = f"Add {role}"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        side = view["battle"][self.role]
        present = {b["key"] for b in view["battle"]["blocks"]}
        blocks = ctx.run(f"roster {side}").get("blocks", [])
        out = [Item("By rating...", lambda c: c.push(rated_form(self.role)))]
        for b in blocks:
            if b["status"] != "available" or b["id"] in present:
                continue
            out.append(Item(b["name"], partial(self._pick, block=b),
                            f"{b['rating'].split('/')[0]} {roman(b['strength'])}"))
        return out

    def _pick(self, ctx: Ctx, block: dict[str, Any]) -> None:
        ctx.push(block_form(self.role, block))


def block_form(role: str, block: dict[str, Any]) -> NumberForm:
    """Strength and reserve for a roster block; A adds it."""
    fields = [Field("strength", "Strength", block["strength"], 1, block["max"], roman),
              Field("reserve", "Reserve", 0, 0, 1, on_off)]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        line = f"add {role} {block['id']} strength={v['strength']}" + (" reserve=1" if v["reserve"] else "")
        response = _run(ctx, line)
        if response is not None:
            ctx.pop()
            for note in response.get("notes", []):
                ctx.notify(note)

    return NumberForm(base.clip(block["name"], 14), fields, go)


def rated_form(role: str) -> NumberForm:
    """A block known only by its rating (other Columbia block games)."""
    fields = [Field("letter", "Initiative", 2, 0, 3, lambda v: "ABCD"[v]),
              Field("fp", "Firepower", 2, 1, 4, str),
              Field("strength", "Strength", 3, 1, 4, roman),
              Field("leader", "Leader", 0, 0, 1, on_off),
              Field("reserve", "Reserve", 0, 0, 1, on_off)]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        line = (f"add {role} rating={'ABCD'[v['letter']]}{v['fp']} strength={v['strength']}"
                + (" leader=1" if v["leader"] else "") + (" reserve=1" if v["reserve"] else ""))
        if _run(ctx, line) is not None:
            ctx.pop()

    return NumberForm("Block by rating", fields, go)


# -- the battle --------------------------------------------------------------------------------
class BattleScreen(ListScreen):
    """What the rules leave to decide now: which block acts (then how), or where a hit goes."""

    def render(self, ctx: Ctx) -> Image.Image:
        b = _view(ctx)["battle"]
        d = b["decision"]
        if b["phase"] == "setup":
            self.title = "Battle set-up"
        elif d is None:
            self.title = "Battle over"
        elif d["kind"] == "hit":
            self.title = f"Hit on {side_name(d['side'])} x{d['left']}"
        else:
            self.title = f"R{d['round']} {side_name(d['side'])} {d['letter']}"
        return super().render(ctx)

    def status(self, ctx: Ctx) -> str:
        b = _view(ctx)["battle"]
        d = b["decision"]
        if d and d["kind"] == "turn":
            return d["role"][:3]
        return f"B{b['number']}"

    def items(self, ctx: Ctx) -> list[Item]:
        b = _view(ctx)["battle"]
        blocks = {x["key"]: x for x in b["blocks"]}
        d = b["decision"]
        if b["phase"] == "setup":
            counts = {r: sum(1 for x in b["blocks"] if x["side"] == b[r]) for r in ("attacker", "defender")}
            return [Item("Start round 1", self._start),
                    Item(f"{side_name(b['attacker'])} attacks", None, str(counts["attacker"])),
                    Item(f"{side_name(b['defender'])} defends", None, str(counts["defender"]))]
        if d is None:
            return [Item(RESULT_TEXT.get(b["result"] or "", "Over"), lambda c: c.push(OverScreen())),
                    Item("Battle log", lambda c: c.push(log_screen(c)))]
        if d["kind"] == "hit":
            out = [Item(block_row(blocks[k], base.COLS - 1), partial(self._hit, key=k)) for k in d["choices"]]
            return out + [Item("J-14 choice", partial(self._hit, key=""))]
        out = [Item(block_row(blocks[k], base.COLS - 1), partial(self._act, key=k)) for k in d["blocks"]]
        return out + [Item("Auto (J-14)", self._auto), Item("Odds", lambda c: c.push(OddsScreen()))]

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
        if b["dice"] == "physical":
            d = b["decision"]
            if d and d["kind"] == "turn" and "fire" in d["actions"]:
                ctx.push(dice_form(ctx, d["blocks"][0], auto=True))   # the policy's block
                return
        response = _run(ctx, "auto")
        if response is not None and response.get("turn", {}).get("action") == "fire":
            ctx.push(DiceResult(response["turn"]))


class ActionMenu(ListScreen):
    """Fire, retreat, no retreat possible, or pass, for one block."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.block = key

    def render(self, ctx: Ctx) -> Image.Image:
        b = next(x for x in _view(ctx)["battle"]["blocks"] if x["key"] == self.block)
        self.title = base.clip(f"{b['name']} {b['rating']} {roman(b['strength'])}", 20)
        return super().render(ctx)

    def items(self, ctx: Ctx) -> list[Item]:
        d = _view(ctx)["battle"]["decision"]
        actions = d["actions"] if d and d["kind"] == "turn" else []
        out = []
        if "fire" in actions:
            out.append(Item("Fire", self._fire))
        if "retreat" in actions:
            out.append(Item("Retreat", partial(self._simple, line=f"retreat {self.block}")))
            out.append(Item("No way out", partial(self._simple, line=f"retreat {self.block} blocked=1")))
        if "pass" in actions:
            out.append(Item("Pass", partial(self._simple, line=f"pass {self.block}")))
        return out

    def _fire(self, ctx: Ctx) -> None:
        if _view(ctx)["battle"]["dice"] == "physical":
            ctx.replace(dice_form(ctx, self.block))
            return
        response = _run(ctx, f"fire {self.block}")
        if response is not None:
            ctx.replace(DiceResult(response["turn"]))

    @staticmethod
    def _simple(ctx: Ctx, line: str) -> None:
        if _run(ctx, line) is not None:
            ctx.pop()


def dice_form(ctx: Ctx, key: str, auto: bool = False) -> NumberForm:
    """Enter the physical dice rolled for ``key`` (one per strength point)."""
    b = next(x for x in _view(ctx)["battle"]["blocks"] if x["key"] == key)
    fields = [Field(f"d{i}", f"Die {i + 1}", 1, 1, 6, str) for i in range(b["strength"])]

    def go(c: Ctx, v: dict[str, int]) -> None:
        faces = ",".join(str(v[f"d{i}"]) for i in range(b["strength"]))
        line = f"auto dice={faces}" if auto else f"fire {key} dice={faces}"
        response = _run(c, line)
        if response is not None:
            c.replace(DiceResult(response["turn"]))

    return NumberForm(base.clip(f"Dice: {b['name']}", 20), fields, go)


DIE = 20   # pixels per die face


def die_tile(face: int, hit: bool) -> Image.Image:
    """A die face: a framed square with the number doubled; a hit is a filled square."""
    tile = Image.new("1", (DIE, DIE), 1 if hit else 0)
    glyph = Image.new("1", (DIE, DIE), 0)
    w = base.big_width(str(face), 2)
    base.big(glyph, (DIE - w) // 2, -1, str(face), 2)
    tile.paste(0 if hit else 1, (0, 0), glyph)
    if not hit:
        ImageDraw.Draw(tile).rectangle((0, 0, DIE - 1, DIE - 1), outline=1)
    return tile


class DiceResult:
    """The faces of one fire, hits inverted, and where the hits went."""

    def __init__(self, turn: dict[str, Any]) -> None:
        self.turn = turn
        self.title = base.clip(f"{turn['name']} {turn['rating']}", 15)

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        t = self.turn
        base.title_bar(draw, self.title, f"{t['hits']} hit{'s' if t['hits'] != 1 else ''}")
        x = 2
        for face, hit in zip(t["dice"][:5], t["hit_dice"][:5]):
            img.paste(die_tile(face, hit), (x, base.TITLE_H + 3))
            x += DIE + 4
        rows = [f"{a['name']} {roman(a['from'])}>{roman(a['to'])}"
                + ("" if a["result"] == "reduced" else f" {a['result']}") for a in t["applied"]]
        if t["lost"]:
            rows.append(f"{t['lost']} hit{'s' if t['lost'] != 1 else ''} lost")
        waiting = t["hits"] - len(t["applied"]) - t["lost"]
        if waiting > 0:
            rows.append(f"{waiting} more: owner picks")
        if not rows:
            rows = ["No hit."]
        for i, row in enumerate(rows[:3]):
            base.text(draw, 1, base.row_y(2) + 3 + i * base.LINE, base.clip(row))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in SELECT or key in BACK:
            ctx.pop()


class OverScreen:
    """The result of the battle in big letters with the winner."""

    title = "Battle over"

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        b = _view(ctx)["battle"]
        base.title_bar(draw, f"Battle {b['number']}", f"{b['round']} rnd")
        words = RESULT_TEXT.get(b["result"] or "", "Over").split()
        for i, word in enumerate(words[:2]):
            w = base.big_width(word, 2)
            base.big(img, (base.W - w) // 2, base.TITLE_H + 2 + i * 22, word, 2)
        if b["winner"]:
            base.text(draw, 1, base.row_y(4), f"{side_name(b['winner'])} holds")
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in SELECT or key in BACK:
            ctx.pop()


class OddsScreen:
    """Exact odds under the J-14 policy from the current point, with bars."""

    title = "Odds (J-14)"

    def __init__(self) -> None:
        self.cache: tuple[int, dict[str, Any]] | None = None

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        actions = _view(ctx)["actions"]
        if self.cache is None or self.cache[0] != actions:      # odds change only with the game
            self.cache = (actions, ctx.run("odds"))
        response = self.cache[1]
        base.title_bar(draw, self.title, "now" if _view(ctx)["battle"]["phase"] == "fighting" else "start")
        if not response["ok"]:
            base.lines(draw, base.wrap(response["message"]))
            return img
        rows = (("Att wins", response["attacker_wins"]), ("Att destroyed", response["attacker_eliminated"]),
                ("Def holds", response["defender_holds"]))
        for i, (label, p) in enumerate(rows):
            y = base.TITLE_H + 2 + i * 17
            pct = f"{100 * p:5.1f}%"
            base.text(draw, 1, y, label)
            base.text(draw, base.W - len(pct) * base.CHAR_W - 1, y, pct)
            width = round((base.W - 3) * p)
            draw.rectangle((1, y + 11, base.W - 2, y + 14), outline=1, fill=0)
            if width:
                draw.rectangle((1, y + 11, 1 + width, y + 14), fill=1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in SELECT or key in BACK:
            ctx.pop()


class TableScreen:
    """Rows of (left, right) text with scrolling and no cursor."""

    def __init__(self, title: str, rows: list[tuple[str, str]]) -> None:
        self.title = title
        self.rows = rows
        self.top = 0

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        pos = f"{self.top + 1}/{len(self.rows)}" if len(self.rows) > base.ROWS else ""
        base.title_bar(draw, self.title, pos)
        for i, (left, right) in enumerate(self.rows[self.top:self.top + base.ROWS]):
            y = base.row_y(i)
            base.text(draw, 1, y, base.clip(left, base.COLS - len(right) - 1))
            base.text(draw, base.W - len(right) * base.CHAR_W - 1, y, right)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key == "down" and self.top + base.ROWS < len(self.rows):
            self.top += 1
        elif key == "up" and self.top > 0:
            self.top -= 1
        elif key in BACK or key in SELECT:
            ctx.pop()


def forces_screen(ctx: Ctx) -> TableScreen:
    """Every block with its rating and strength; marks: * acted this round, r reserve,
    < retreated, x eliminated, + killed."""
    b = _view(ctx)["battle"]
    rows: list[tuple[str, str]] = []
    for role in ("attacker", "defender"):
        side = b[role]
        rows.append((side_name(side).upper(), "attacks" if b["attacker_now"] == side else "defends"))
        for x in b["blocks"]:
            if x["side"] != side:
                continue
            mark = {"reserve": "r", "retreated": "<", "eliminated": "x",
                    "killed": "+"}.get(x["status"], "*" if x["acted"] else " ")
            rows.append((mark + x["name"], f"{x['rating']} {roman(x['strength'])}"))
    return TableScreen("Forces", rows)


def log_screen(ctx: Ctx) -> TextScreen:
    b = _view(ctx)["battle"]
    return TextScreen("Battle log", b["log"] + b["events"][-3:] or ["Nothing yet."])


# -- score, cards, winter ----------------------------------------------------------------------
class VPScreen(ListScreen):
    """The 11 VP cities and who holds them: select cycles Caesar, Pompey, vacant (J-17)."""

    title = "VP cities"

    def status(self, ctx: Ctx) -> str:
        vp = _view(ctx)["vp"]
        return f"C{vp['caesar']} P{vp['pompey']}"

    def items(self, ctx: Ctx) -> list[Item]:
        control = _view(ctx)["control"]
        return [Item(city, partial(self._cycle, city=city, now=holder), HOLDER[holder])
                for city, holder in sorted(control.items())]

    @staticmethod
    def _cycle(ctx: Ctx, city: str, now: str | None) -> None:
        nxt = {"caesar": "pompey", "pompey": "vacant", None: "caesar"}[now]
        _run(ctx, f"control {city.replace(' ', '_')} {nxt}")


class CardsMenu(ListScreen):
    """Deal the year's cards; each player looks at a hand only after passing the device."""

    title = "Cards"

    def status(self, ctx: Ctx) -> str:
        cards = _view(ctx)["cards"]
        return f"T{cards['turn']}" if cards else ""

    def items(self, ctx: Ctx) -> list[Item]:
        cards = _view(ctx)["cards"]
        out = [Item("Deal the year", self._deal)]
        if cards:
            for side in SIDES:
                done = "played" if cards["played"][side] else f"{cards['cards_in_hand'][side]} cards"
                out.append(Item(f"{side_name(side)} hand", partial(self._hand, side=side), done))
            if cards["reveals"]:
                out.append(Item("Last reveal", self._reveal, f"T{cards['reveals'][-1]['turn']}"))
        return out

    @staticmethod
    def _deal(ctx: Ctx) -> None:
        def go(c: Ctx) -> None:
            _run(c, "deal")

        if _view(ctx)["cards"]:
            ctx.push(base.ConfirmScreen("Deal?", "Shuffle all 27 cards and deal 6 to each: the "
                                        "hands in play are lost.", go))
        else:
            go(ctx)

    @staticmethod
    def _hand(ctx: Ctx, side: str) -> None:
        ctx.push(base.ConfirmScreen("Private", f"Pass the device to {side_name(side)}. A: show "
                                    "the hand", lambda c: c.push(HandScreen(side)), "A: show", "B: back"))

    @staticmethod
    def _reveal(ctx: Ctx) -> None:
        rec = _view(ctx)["cards"]["reveals"][-1]
        ctx.push(TextScreen("Reveal", reveal_rows(rec)))


def reveal_rows(rec: dict[str, Any]) -> list[str]:
    rows = [f"Caesar: {rec['played']['caesar']}", f"Pompey: {rec['played']['pompey']}"]
    if rec["cancelled"]:
        return rows + ["Two events cancel."]
    for side in SIDES:
        if rec["played"][side] == "apollo":
            rows.append(f"Apollo = {rec['effective'][side]}")
    return rows + [f"Player 1: {side_name(rec['player1'])}"]


class HandScreen(ListScreen):
    """One player's cards: select one to discard (once a year) or play face down."""

    def __init__(self, side: str) -> None:
        super().__init__()
        self.side = side
        self.title = f"{side_name(side)}'s hand"

    def status(self, ctx: Ctx) -> str:
        cards = _view(ctx)["cards"]
        return "discard" if cards and not cards["discarded"][self.side] else "play"

    def items(self, ctx: Ctx) -> list[Item]:
        hand = ctx.run(f"hand {self.side}").get("hand", [])
        return [Item(card, partial(self._use, card=card)) for card in hand]

    def _use(self, ctx: Ctx, card: str) -> None:
        cards = _view(ctx)["cards"]
        verb = "discard" if not cards["discarded"][self.side] else "play"
        response = _run(ctx, f"{verb} {self.side} {card}")
        if response is None:
            return
        if verb == "play":
            ctx.pop()
            if response.get("reveal"):
                ctx.push(TextScreen("Reveal", reveal_rows(response["reveal"])))


def _ask_winter(ctx: Ctx) -> None:
    def go(c: Ctx) -> None:
        response = _run(c, "winter")
        if response is not None:
            rows = [f"[{'x' if s['done'] else ' '}] {s['step']} {s['text']}" for s in response["checklist"]]
            c.push(TextScreen(f"Winter -> year {response['year']}", rows))

    ctx.push(base.ConfirmScreen("Winter?", "End the year: Cleopatra goes home, victory check, "
                                "eliminated blocks return, new cards.", go))
