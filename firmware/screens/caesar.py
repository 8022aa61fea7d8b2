"""Caesar! screens: Auto-Crassus's turn step by step (with a "why" for every play), your move
(token, space, orientation), bonuses, draws, the board and the command tiles.

Every change is a ``caesar-solo``/``caesar-duel`` console line (docs/protocol/caesar.md), so it is
journaled and a long B takes it back; digital draws come from the session, so undo never
re-draws. Physical inputs (real tiles, real bags) are asked for as lists of what can be drawn.
The tile contents you enter are remembered in the ``caesar.tiles`` setting and passed to every
new game.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine.caesar.board import (DATA, PROVINCE_INDEX, PROVINCE_NAMES, PROVINCE_SPACES, PROVINCES,
                                 SPACE_A, SPACE_B, SPACES)
from engine.caesar.tiles import ACTIONS, DEFAULT_TILES, draw_count, parse_tiles
from engine.caesar.tokens import CENTURION_IDS, TOKENS
from firmware.screens import base
from firmware.screens.base import BACK, Ctx, Item, ListScreen, TextScreen
from firmware.screens.form import Field, NumberForm, on_off

GAMES = ("caesar-solo", "caesar-duel")
DIFFS = ("easy", "normal", "hard")
SIDES = ("caesar", "pompey")
HARDER = ("off", "always", "control")
INPUT = ("digital", "physical")
TILES_KEY = "caesar.tiles"


def open_game(ctx: Ctx) -> None:
    """Continue the current Caesar! session, or set up a solo game."""
    base.continue_or_setup(ctx, GAMES, CaesarHome, setup_form)


def _view(ctx: Ctx) -> dict[str, Any]:
    return base.game_view(ctx, GAMES, "Caesar!")


_run = base.run_or_notify


SHORT = {"HU": "HispUl", "HC": "HispCi", "MT": "Maurit", "SD": "Sardin", "GA": "Gallia", "NU": "Numidi",
         "SC": "Sicil", "IT": "Italia", "GC": "Cisalp", "AF": "Africa", "AC": "Achaea", "MD": "Maced",
         "DM": "Dalmat", "CY": "Cyren", "CR": "Creta", "AG": "Aegypt", "AS": "Asia", "SY": "Syria"}


def short_name(code: str, width: int = 6) -> str:
    """Six letters that tell the provinces apart (``HispUl``, ``HispCi``...)."""
    return SHORT[code][:width] if width <= 6 else PROVINCE_NAMES[PROVINCE_INDEX[code]][:width]


def token_label(name: str) -> str:
    """``ship:5/1`` -> ``ship 5/1``; ``shield+ship:4/4`` -> ``sh+sp 4/4``."""
    icon, nums = name.split(":")
    return f"{'sh+sp' if icon == 'shield+ship' else icon} {nums}"


def who(view: dict[str, Any], player: str) -> str:
    if view["mode"] == "solo":
        return "You" if player == "human" else "Crassus"
    return player.capitalize()


def me(view: dict[str, Any]) -> str:
    """The player the device acts for now: you in solo, the player to move in a duel."""
    return "human" if view["mode"] == "solo" else view["turn"]


def remembered_tiles(ctx: Ctx) -> str | None:
    value = ctx.settings.get(TILES_KEY)
    return value or None


# -- set-up ------------------------------------------------------------------------------------
def setup_form() -> NumberForm:
    """Side, difficulty, expansions and how tiles and bags are drawn; A starts the game."""
    fields = [Field("side", "Your side", 0, 0, 1, lambda v: SIDES[v].capitalize()),
              Field("diff", "Difficulty", 1, 0, 2, lambda v: DIFFS[v]),
              Field("poison", "Poison", 0, 0, 1, on_off),
              Field("cent", "Centurions", 0, 0, 1, on_off),
              Field("bctl", "Border control", 0, 0, 1, on_off),
              Field("harder", "Harder (S-8)", 0, 0, 2, lambda v: ("off", "RU", "UA")[v]),
              Field("tiles", "Tiles", 0, 0, 1, lambda v: INPUT[v]),
              Field("bags", "Bags", 0, 0, 1, lambda v: INPUT[v])]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        parts = [f"new caesar-solo side={SIDES[v['side']]} difficulty={DIFFS[v['diff']]}"]
        parts += [f"{k}=1" for k, f in (("poison", "poison"), ("centurions", "cent"), ("border-control", "bctl"))
                  if v[f]]
        if v["harder"]:
            parts.append(f"harder=1 harder-when={HARDER[v['harder']]}")
        parts.append(f"tiles-input={INPUT[v['tiles']]} bag-input={INPUT[v['bags']]}")
        tiles = remembered_tiles(ctx)
        if tiles:
            parts.append(f"tiles={tiles}")
        line = " ".join(parts)
        if v["bags"]:
            def with_row(c: Ctx, picked: list[str]) -> None:
                c.pop()
                _start(c, f"{line} row={','.join(picked)}")
            ctx.push(TokenPicker("His 3 tokens", [t.name for t in TOKENS if not t.centurion], 3, with_row))
        else:
            _start(ctx, line)

    return NumberForm("New Caesar! solo", fields, go)


def _start(ctx: Ctx, line: str) -> None:
    base.start_game(ctx, line, CaesarHome, quiet=("bag", "dice") + GAMES)


# -- home --------------------------------------------------------------------------------------
class CaesarHome(ListScreen):
    """What to do now first (Crassus's turn, your move, a bonus, a draw), then the views."""

    title = "Caesar!"

    def status(self, ctx: Ctx) -> str:
        view = _view(ctx)
        m = view["position"]["markers_left"]
        a, b = list(m)
        if view["mode"] == "solo":
            return f"Y{m['human']} C{m['crassus']}"
        return f"C{m[a]} P{m[b]}"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        out: list[Item] = []
        solo = view["mode"] == "solo"
        if view["winner"]:
            out.append(Item("Winner", lambda c: c.push(TextScreen("Game over", _view(c)["end"])),
                            who(view, view["winner"])))
        else:
            out += self._now(ctx, view)
        if solo:
            out.append(Item("Crassus would...", _open_decide))
            if view["last_crassus_turn"]:
                out.append(Item("Last Crassus turn", _open_last, view["last_crassus_turn"]["tile"]))
        out.append(Item("Board", lambda c: c.push(MapScreen())))
        if solo:
            out.append(Item("Your hand", _open_hand, str(len(view["human"]["hand"]))))
            out.append(Item("Crassus row", _open_row, str(len(view["crassus"]["row"]))))
            out.append(Item("Tiles", lambda c: c.push(TilesScreen()),
                            "unverif" if view["tiles"]["unverified"] else "yours"))
        out.append(Item("New game", lambda c: c.push(setup_form())))
        return out

    @staticmethod
    def _now(ctx: Ctx, view: dict[str, Any]) -> list[Item]:
        solo = view["mode"] == "solo"
        player = me(view)
        if solo:
            due = view["human"]["draws_due"]
            physical_me = view["inputs"]["human_bag"] == "physical"
        else:
            due = view["players"][player]["draws_due"]
            physical_me = view["inputs"]["human_bag"] == "physical"
        out: list[Item] = []
        if solo and view["turn"] == "crassus":
            out.append(Item("Crassus's turn", _crassus_turn))
            if due:
                out.append(Item("Draw your tokens", _draw, f"{due} due"))
            return out
        step = view["step"]
        pending = view["human"]["pending"] if solo else view["pending"]
        if step == "bonus" and pending:
            kind = pending[0]
            out.append(Item("Use Might" if kind == "might" else "Take a centurion",
                            partial(_open_bonus, kind=kind)))
        elif due:
            label = "Draw a token" if step == "draw" else "Draw your tokens"
            out.append(Item(label, _draw, f"{due} due" if physical_me or due > 1 else ""))
        else:
            out.append(Item("Your move" if solo else f"{player.capitalize()} moves", _open_play))
        return out


def _open_decide(ctx: Ctx) -> None:
    response = _run(ctx, "decide")
    if response is not None:
        ctx.push(why_screen(response))


def why_screen(d: dict[str, Any]) -> TextScreen:
    """The decision's rule and sentence (DESIGN: every automated move has a why screen)."""
    if d.get("step") is None:
        return TextScreen("S-19", d["why"])
    return TextScreen(f"{d['rule']} {d['step']}", [_play_text(d), d["why"]])


def _play_text(d: dict[str, Any]) -> str:
    """A play's sentence without the rule in brackets (the title shows it)."""
    return (d.get("text") or "").split(f" ({d['rule']}")[0].rstrip(".") + "."


def _open_last(ctx: Ctx) -> None:
    last = _view(ctx)["last_crassus_turn"]
    ctx.push(StepsScreen(f"Tile {last['tile']}", last["steps"], tile=last["tile"]))


def _open_hand(ctx: Ctx) -> None:
    h = _view(ctx)["human"]
    rows = ["Hand: " + (", ".join(token_label(t) for t in h["hand"]) or "empty"),
            f"Bag: {h['bag']} tokens"]
    if h["centurions"]:
        rows.append("Centurions: " + ", ".join(token_label(t) for t in h["centurions"]))
    ctx.push(TextScreen("Your hand", rows))


def _open_row(ctx: Ctx) -> None:
    c = _view(ctx)["crassus"]
    rows = ["Row (left to right): " + (", ".join(token_label(t) for t in c["row"]) or "empty"),
            f"Bag: {c['bag']} tokens"]
    if c["centurions_face_down"]:
        rows.append(f"Face-down centurions: {c['centurions_face_down']}")
    ctx.push(TextScreen("Crassus row", rows))


# -- Crassus's turn ----------------------------------------------------------------------------
def _crassus_turn(ctx: Ctx) -> None:
    """Digital: run the turn. Physical tiles/bag: ask for the tile, then the tokens drawn."""
    view = _view(ctx)
    if view["inputs"]["tiles"] == "digital" and view["inputs"]["crassus_bag"] == "digital":
        _finish_crassus(ctx, "crassus")
        return
    if view["inputs"]["tiles"] == "physical":
        letters = sorted(set(view["tiles"]["stack_left"]))
        ctx.push(ChoiceScreen("Which tile?", [(f"Tile {x}", x, view["tiles"]["definitions"][x]) for x in letters],
                              lambda c, x: _after_tile(c, x, f"crassus tile={x}")))
        return
    letter = view["tiles"]["revealed"]
    if letter is None:                       # digital tile, physical bag: turn the tile up first
        response = _run(ctx, "reveal")
        if response is None:
            return
        letter = response["tile"]
    # a page for the tile, replaced at once by the pickers of what he draws
    ctx.push(TextScreen(f"Tile {letter}", view["tiles"]["definitions"][letter]))
    _after_tile(ctx, letter, "crassus")


def _after_tile(ctx: Ctx, letter: str, line: str) -> None:
    """The tile is known (top screen: the tile choice): ask for the tokens drawn, then play."""
    view = _view(ctx)
    if view["inputs"]["crassus_bag"] == "digital":
        ctx.pop()
        _finish_crassus(ctx, line)
        return
    actions = view["tiles"]["definitions"][letter].split("+")
    bag = view["crassus"]["bag"]
    n_draw = min(bag, sum(draw_count(a) for a in actions if a.startswith("draw")))
    n_cent = min(view["crassus"]["centurions_face_down"], actions.count("centurion"))
    hidden = _hidden_centurions(view)

    def with_draws(c: Ctx, drawn: list[str]) -> None:
        full = line + (f" draw={','.join(drawn)}" if drawn else "")
        if n_cent:
            c.replace(TokenPicker("Centurion up", hidden, n_cent,
                                  lambda c2, cents: _pop_and_finish(c2, full + f" centurion={','.join(cents)}")))
        else:
            _pop_and_finish(c, full)

    if n_draw:
        ctx.replace(TokenPicker(f"He draws {n_draw}", view["crassus"]["bag_contents"], n_draw, with_draws))
    else:
        ctx.pop()
        with_draws(ctx, [])


def _hidden_centurions(view: dict[str, Any]) -> list[str]:
    if not view["position"]["modules"]["centurions"]:
        return []
    hidden = [TOKENS[t].name for t in CENTURION_IDS]
    seen = [v["token"] for v in view["position"]["spaces"].values() if v["by"] == "crassus"]
    for name in seen + view["crassus"]["row"] + view["crassus"]["bag_contents"]:
        if name in hidden:
            hidden.remove(name)
    return hidden


def _pop_and_finish(ctx: Ctx, line: str) -> None:
    ctx.pop()
    _finish_crassus(ctx, line)


def _finish_crassus(ctx: Ctx, line: str) -> None:
    response = _run(ctx, line)
    if response is not None:
        ctx.push(StepsScreen(f"Tile {response['tile']}", response["steps"], tile=response["tile"],
                             actions=response["tile_actions"], winner=response["winner"]))


class StepsScreen:
    """One step per page: the tile, each draw, play (A: why), closure, bonus, discard.
    Right/A next, left back a page, B home; ``press`` on a play opens its why."""

    def __init__(self, title: str, steps: list[dict[str, Any]], tile: str | None = None,
                 actions: str | None = None, winner: str | None = None) -> None:
        self.title = title
        self.pages: list[dict[str, Any]] = []
        if tile is not None:
            self.pages.append({"action": "tile", "tile": tile, "actions": actions})
        self.pages += steps
        if winner:
            self.pages.append({"action": "end", "winner": winner})
        self.page = 0

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        step = self.pages[self.page]
        base.title_bar(draw, self.title, f"{self.page + 1}/{len(self.pages)}")
        action = step["action"]
        if action == "tile":
            w = base.big(img, 4, base.TITLE_H + 4, step["tile"], 4)
            acts = (step["actions"] or "").split("+")
            for i, a in enumerate(acts[:4]):
                base.text(draw, 12 + w, base.row_y(i), a)
            return img
        if action == "end":
            view = ctx.view()
            name = who(view, step["winner"]) if view else step["winner"]
            base.lines(draw, base.wrap(f"Game over: {name} won.") + ([base.clip(view["end"] or "")] if view else []))
            return img
        text = step.get("text") or ""
        hint = "press: why" if action == "play" and step.get("why") else ""
        if action == "play" and step.get("step"):
            text = _play_text(step)                       # the rule goes on the first row
        rows = base.wrap(text)
        if action == "play" and step.get("rule"):
            rows = [f"{step['rule']} {step.get('step') or ''}".strip()] + rows
        keep = base.ROWS - (1 if hint else 0)
        base.lines(draw, rows[:keep])
        if hint:
            base.text(draw, 1, base.row_y(base.ROWS - 1), hint)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        step = self.pages[self.page]
        if key == "press" and step["action"] == "play" and step.get("why"):
            ctx.push(why_screen(step))
        elif key in ("right", "a", "down", "press"):
            if self.page + 1 < len(self.pages):
                self.page += 1
            else:
                ctx.pop()
        elif key in ("left", "up"):
            self.page = max(0, self.page - 1)
        elif key == "b":
            ctx.pop()


# -- your move ---------------------------------------------------------------------------------
def _open_play(ctx: Ctx) -> None:
    ctx.push(PlayScreen())


class PlayScreen(ListScreen):
    """Three choices: the token, the space (face down where allowed), the orientation."""

    def __init__(self) -> None:
        super().__init__()
        self.token: str | None = None
        self.space: str | None = None
        self.title = "Play which token"

    def _retitle(self) -> None:
        if self.token is None:
            self.title = "Play which token"
        elif self.space is None:
            self.title = f"{token_label(self.token)} where"
        else:
            self.title = f"{self.space} facing"

    def status(self, ctx: Ctx) -> str:
        return "C-3"

    def _moves(self, ctx: Ctx) -> dict[str, Any]:
        response = ctx.run("moves")
        return response if response.get("ok") else {"moves": [], "face_down": []}

    def items(self, ctx: Ctx) -> list[Item]:
        moves = self._moves(ctx)
        if self.token is None:
            counts: dict[str, int] = {}
            for m in moves["moves"] + moves["face_down"]:
                counts[m["token"]] = counts.get(m["token"], 0) + 1
            return [Item(token_label(t), partial(self._pick_token, token=t), f"{n} ways") for t, n in counts.items()]
        if self.space is None:
            out, seen = [], set()
            for m in moves["moves"]:
                if m["token"] == self.token and m["space"] not in seen:
                    seen.add(m["space"])
                    a, b = m["space"].split("-")
                    out.append(Item(f"{m['space']} {short_name(a)}/{short_name(b)}",
                                    partial(self._pick_space, space=m["space"])))
            for m in moves["face_down"]:
                if m["token"] == self.token:
                    out.append(Item(f"{m['space']} face down", partial(self._play_down, space=m["space"]), "C-21"))
            return out
        out = []
        for m in moves["moves"]:
            if m["token"] == self.token and m["space"] == self.space:
                (p1, v1), (p2, v2) = m["toward"].items()
                first, other = (p1, p2) if v1 >= v2 else (p2, p1)
                label = f"{m['toward'][first]}>{short_name(first)} {m['toward'][other]}>{short_name(other)}"
                out.append(Item(label, partial(self._play, prov=first, toward=m["toward"])))
        return out

    def _pick_token(self, ctx: Ctx, token: str) -> None:
        self.token, self.cursor, self.top = token, 0, 0
        self._retitle()

    def _pick_space(self, ctx: Ctx, space: str) -> None:
        self.space, self.cursor, self.top = space, 0, 0
        self._retitle()

    def _play(self, ctx: Ctx, prov: str, toward: dict[str, int]) -> None:
        other = next(k for k in toward if k != prov)
        icon = (self.token or "").split(":")[0]
        self._send(ctx, f"play {self.space} {icon}:{toward[prov]}/{toward[other]} {prov}")

    def _play_down(self, ctx: Ctx, space: str) -> None:
        view = _view(ctx)
        line = f"play {space} {self.token} down"
        if view["inputs"]["human_bag"] == "physical" and view.get("bonus_pool_left"):
            pool = sorted(set(view["bonus_pool_left"]))

            def picked(c: Ctx, bonus: str) -> None:
                c.pop()
                self._send(c, f"{line} bonus={bonus}")
            ctx.push(ChoiceScreen("Bonus drawn?", [(b.capitalize(), b, "") for b in pool], picked))
            return
        self._send(ctx, line)

    def _send(self, ctx: Ctx, line: str) -> None:
        response = _run(ctx, line)
        if response is not None:
            ctx.replace(StepsScreen("Your move", response["steps"], winner=response["winner"]))

    def key(self, key: str, ctx: Ctx) -> None:
        if key in BACK:
            if self.space is not None:
                self.space, self.cursor, self.top = None, 0, 0
            elif self.token is not None:
                self.token, self.cursor, self.top = None, 0, 0
            else:
                ctx.pop()
            self._retitle()
            return
        super().key(key, ctx)


# -- bonuses and draws -------------------------------------------------------------------------
def _open_bonus(ctx: Ctx, kind: str) -> None:
    view = _view(ctx)
    if kind == "might":
        opponent = "crassus" if view["mode"] == "solo" else ("pompey" if view["turn"] == "caesar" else "caesar")
        pos = view["position"]
        choices = [(f"{sid} {token_label(v['token'])}", sid, "") for sid, v in pos["spaces"].items()
                   if v["by"] == opponent and not v["face_down"]]
        choices += [(f"{p} {short_name(p, 9)}", p, "marker") for p, w in pos["control"].items()
                    if w == opponent and p not in pos["flipped_control"]]
        choices.append(("Skip", "skip", ""))
        ctx.push(ChoiceScreen("Might: flip", choices, lambda c, x: _bonus_done(c, f"might {x}")))
    else:
        cents = view["human"]["centurions"] if view["mode"] == "solo" else view["players"][view["turn"]]["centurions"]
        choices = [(token_label(t), t, "") for t in cents] + [("Skip (draw)", "skip", "")]
        ctx.push(ChoiceScreen("Centurion", choices, lambda c, x: _bonus_done(c, f"centurion {x}")))


def _bonus_done(ctx: Ctx, line: str) -> None:
    response = _run(ctx, line)
    if response is not None:
        ctx.pop()
        ctx.notify(response["bonus"]["text"])


def _draw(ctx: Ctx) -> None:
    view = _view(ctx)
    if view["inputs"]["human_bag"] == "physical":
        contents = view["human"]["bag_contents"] if view["mode"] == "solo" else []
        ctx.push(TokenPicker("You drew?", contents, 1, lambda c, picked: _pop_then(c, f"draw {picked[0]}")))
        return
    response = _run(ctx, "draw")
    if response is not None:
        ctx.notify(f"Take {token_label(response['token'])} from your bag.")


def _pop_then(ctx: Ctx, line: str) -> None:
    ctx.pop()
    response = _run(ctx, line)
    if response is not None:
        ctx.notify(f"Drew {token_label(response['token'])}.")


# -- pickers -----------------------------------------------------------------------------------
class ChoiceScreen(ListScreen):
    """A list of (label, value, note); select calls ``on_pick(ctx, value)``."""

    def __init__(self, title: str, choices: list[tuple[str, str, str]],
                 on_pick: Callable[[Ctx, str], Any]) -> None:
        super().__init__()
        self.title = title
        self.choices = choices
        self.on_pick = on_pick

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(label, partial(self._pick, value=value), note) for label, value, note in self.choices]

    def _pick(self, ctx: Ctx, value: str) -> None:
        self.on_pick(ctx, value)


class TokenPicker(ListScreen):
    """Pick ``count`` tokens out of ``pool`` (what could have been drawn), in the order drawn."""

    def __init__(self, title: str, pool: list[str], count: int,
                 on_done: Callable[[Ctx, list[str]], None]) -> None:
        super().__init__()
        self.title = title
        self.pool = sorted(pool)
        self.count = count
        self.picked: list[str] = []
        self.on_done = on_done

    def status(self, ctx: Ctx) -> str:
        return f"{len(self.picked)}/{self.count}"

    def items(self, ctx: Ctx) -> list[Item]:
        left = list(self.pool)
        for name in self.picked:
            left.remove(name)
        counts: dict[str, int] = {}
        for name in left:
            counts[name] = counts.get(name, 0) + 1
        return [Item(token_label(n), partial(self._pick, name=n), f"x{k}" if k > 1 else "") for n, k in counts.items()]

    def _pick(self, ctx: Ctx, name: str) -> None:
        self.picked.append(name)
        self.cursor = self.top = 0
        if len(self.picked) >= self.count:
            self.on_done(ctx, list(self.picked))

    def key(self, key: str, ctx: Ctx) -> None:
        if key in BACK and self.picked:
            self.picked.pop()
            return
        super().key(key, ctx)


# -- board -------------------------------------------------------------------------------------
def province_rows(view: dict[str, Any]) -> list[tuple[str, str]]:
    """Per province: (code + name, status): ``3-5 2e`` (your/his influence, empty spaces) while
    open, else who controls it."""
    pos = view["position"]
    names = list(view["position"]["markers_left"])
    totals = {p: [0, 0] for p in PROVINCES}
    filled = {p: 0 for p in PROVINCES}
    for v in pos["spaces"].values():
        for prov, n in v["toward"].items():
            filled[prov] += 1
            if not v["face_down"]:
                totals[prov][names.index(v["by"])] += n
    out = []
    for x, code in enumerate(PROVINCES):
        label = f"{code} {PROVINCE_NAMES[x][:10]}"
        if code in pos["control"]:
            holder = pos["control"][code]
            mark = "*" if code in pos["flipped_control"] else ""
            status = {"human": "you", "crassus": "Crs", "none": "tie"}.get(holder, holder[:3].capitalize()) + mark
        else:
            a, b = totals[code]
            status = f"{a}-{b} {len(PROVINCE_SPACES[x]) - filled[code]}e"
        out.append((label, status))
    return out


class BoardScreen(ListScreen):
    """The 18 provinces; select one for its spaces."""

    title = "Board"

    def status(self, ctx: Ctx) -> str:
        view = _view(ctx)
        return "you-him" if view["mode"] == "solo" else "C-P"

    def items(self, ctx: Ctx) -> list[Item]:
        rows = province_rows(_view(ctx))
        return [Item(label, partial(self._open, code=PROVINCES[i]), status) for i, (label, status) in enumerate(rows)]

    @staticmethod
    def _open(ctx: Ctx, code: str) -> None:
        ctx.push(province_detail(_view(ctx), code))


def province_detail(view: dict[str, Any], code: str) -> TextScreen:
    """One province: both influence totals (or who controls it), each space, the bonus."""
    pos = view["position"]
    x = PROVINCE_INDEX[code]
    _, status = province_rows(view)[x]
    first, second = ("You", "Crassus") if view["mode"] == "solo" else ("Caesar", "Pompey")
    if code in pos["control"]:
        rows = [f"Closed: {status}"]
    else:
        totals, empty = status.split()
        a, b = totals.split("-")
        rows = [f"{first} {a}, {second} {b}", f"Empty spaces: {empty[:-1]}"]
    for s in PROVINCE_SPACES[x]:
        sid = SPACES[s]
        v = pos["spaces"].get(sid)
        if v is None:
            rows.append(f"{sid}: empty")
        elif v["face_down"]:
            rows.append(f"{sid}: {v['by'][:3]} face down")
        else:
            rows.append(f"{sid}: {v['by'][:3]} {v['toward'][code]} here")
    bonus = pos["bonuses"].get(code)
    if bonus:
        rows.append(f"Bonus: {bonus}")
    return TextScreen(f"{code} {PROVINCE_NAMES[x]}", rows)


# -- schematic map -----------------------------------------------------------------------------
def _map_points() -> tuple[tuple[int, int], ...]:
    """Pixel centres of the provinces: the board data's xy scaled into the area under the title."""
    xs = [p["xy"][0] for p in DATA["provinces"]]
    ys = [p["xy"][1] for p in DATA["provinces"]]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return tuple((4 + round((x - x0) / (x1 - x0) * (base.W - 9)),
                  base.TITLE_H + 5 + round((y - y0) / (y1 - y0) * (base.H - base.TITLE_H - 10)))
                 for x, y in zip(xs, ys))


MAP_POINTS = _map_points()


class MapScreen:
    """The board at a glance, laid out from the board data's coordinates. Each province is a
    7×7 mark: hollow = open, filled = yours (Caesar in a duel), crossed = Crassus's (Pompey),
    a bar = tied; its border lines are solid once a token lies there. The joystick moves to
    the nearest province in that direction; the title shows it; A opens its detail; press
    opens the list of all provinces with their totals."""

    title = "Map"

    def __init__(self) -> None:
        self.cursor = PROVINCE_INDEX["IT"]

    def render(self, ctx: Ctx) -> Image.Image:
        view = _view(ctx)
        pos = view["position"]
        img, draw = base.frame()
        label, status = province_rows(view)[self.cursor]
        base.title_bar(draw, PROVINCES[self.cursor] + " " + PROVINCE_NAMES[self.cursor][:8], status)
        for s, sid in enumerate(SPACES):
            (ax, ay), (bx, by) = MAP_POINTS[SPACE_A[s]], MAP_POINTS[SPACE_B[s]]
            if sid in pos["spaces"]:
                draw.line((ax, ay, bx, by), fill=1)
            else:
                steps = max(abs(bx - ax), abs(by - ay))
                for k in range(0, steps + 1, 3):
                    draw.point((ax + (bx - ax) * k // max(steps, 1), ay + (by - ay) * k // max(steps, 1)), fill=1)
        first = "human" if view["mode"] == "solo" else "caesar"
        for i, code in enumerate(PROVINCES):
            x, y = MAP_POINTS[i]
            box = (x - 3, y - 3, x + 3, y + 3)
            draw.rectangle((x - 4, y - 4, x + 4, y + 4), fill=0)
            holder = pos["control"].get(code)
            if holder is None:
                draw.rectangle(box, outline=1, fill=0)
            elif holder == first:
                draw.rectangle(box, fill=1)
            elif holder == "none":
                draw.rectangle(box, outline=1, fill=0)
                draw.line((x - 2, y, x + 2, y), fill=1)
            else:
                draw.rectangle(box, outline=1, fill=0)
                draw.line((x - 3, y - 3, x + 3, y + 3), fill=1)
                draw.line((x - 3, y + 3, x + 3, y - 3), fill=1)
            if i == self.cursor:
                draw.rectangle((x - 5, y - 5, x + 5, y + 5), outline=1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("up", "down", "left", "right"):
            self.cursor = nearest(self.cursor, key)
        elif key == "a":
            ctx.push(province_detail(_view(ctx), PROVINCES[self.cursor]))
        elif key == "press":
            ctx.push(BoardScreen())
        elif key == "b":
            ctx.pop()


def nearest(i: int, direction: str) -> int:
    """The province nearest to ``i`` within 60° of ``direction`` on the map (``i`` if none)."""
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
    x0, y0 = MAP_POINTS[i]
    best, best_d = i, None
    for j, (x, y) in enumerate(MAP_POINTS):
        vx, vy = x - x0, y - y0
        along = vx * dx + vy * dy
        if j == i or along <= 0 or abs(vx * dy - vy * dx) > 1.8 * along:
            continue
        d = along + 2 * abs(vx * dy - vy * dx)
        if best_d is None or d < best_d:
            best, best_d = j, d
    return best


# -- tiles -------------------------------------------------------------------------------------
class TilesScreen(ListScreen):
    """The tile contents in use (unverified defaults marked) and an editor for the next game."""

    title = "Command tiles"

    def status(self, ctx: Ctx) -> str:
        return "S-4"

    def items(self, ctx: Ctx) -> list[Item]:
        view = _view(ctx)
        t = view["tiles"]
        out = []
        for letter, text in t["definitions"].items():
            mark = "?" if letter in t["unverified_letters"] else ""
            out.append(Item(f"{letter}{mark} {text}", partial(self._edit, letter=letter)))
        out.append(Item(f"Deck {t['deck']}", None, f"{t['stack']} left"))
        return out

    @staticmethod
    def _edit(ctx: Ctx, letter: str) -> None:
        ctx.push(TileEditor(letter, _current_tiles(ctx)))


def _current_tiles(ctx: Ctx) -> dict[str, list[str]]:
    tiles = {k: list(v) for k, v in DEFAULT_TILES.items()}
    saved = remembered_tiles(ctx)
    if saved:
        tiles.update(parse_tiles(saved))
    return tiles


class TileEditor:
    """Edit one tile's actions (up/down pick a slot, left/right change it; A saves for the next
    game in the ``caesar.tiles`` setting; B cancels)."""

    CHOICES = ("-",) + ACTIONS

    def __init__(self, letter: str, tiles: dict[str, list[str]]) -> None:
        self.letter = letter
        self.tiles = tiles
        self.slots = list(tiles[letter]) + ["-"] * (6 - len(tiles[letter]))
        self.cursor = 0
        self.title = f"Tile {letter}"

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, "A save")
        items = [Item(f"{i + 1}.", None, f"<{a}>" if i == self.cursor else a) for i, a in enumerate(self.slots)]
        top = max(0, self.cursor - base.ROWS + 1)
        base.draw_list(draw, items, self.cursor, top)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if key in ("up", "down"):
            self.cursor = (self.cursor + (1 if key == "down" else -1)) % len(self.slots)
        elif key in ("left", "right"):
            i = self.CHOICES.index(self.slots[self.cursor])
            self.slots[self.cursor] = self.CHOICES[(i + (1 if key == "right" else -1)) % len(self.CHOICES)]
        elif key in ("a", "press"):
            actions = [a for a in self.slots if a != "-"]
            tiles = dict(self.tiles)
            tiles[self.letter] = actions
            text = ";".join(f"{k}:{'+'.join(v)}" for k, v in sorted(tiles.items()) if v)
            try:
                parse_tiles(text)
            except Exception as e:  # a tile without play, etc.: say so, keep editing
                ctx.notify(str(e))
                return
            setter = getattr(ctx, "set_setting", None)
            response = setter(TILES_KEY, text) if setter is not None else ctx.run(f"settings {TILES_KEY}={text}")
            if not response["ok"]:
                ctx.notify(response["message"])
            else:
                ctx.settings[TILES_KEY] = text
                ctx.pop()
                ctx.notify(f"Tile {self.letter} saved: {'+'.join(actions)}. Used from the next new game.")
        elif key == "b":
            ctx.pop()

