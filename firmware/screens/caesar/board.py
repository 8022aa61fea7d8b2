"""Caesar!: the board — every province with its influence and closing state, one province in
detail, and the schematic map (the joystick goes to the nearest province that way)."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from functools import partial

from PIL import Image

from engine.caesar.board import PROVINCE_INDEX, PROVINCE_SPACES, PROVINCES, SPACE_A, SPACE_B, SPACES
from engine.caesar.terms import BONUS_WORDS
from engine.caesar.views import CaesarView
from firmware.screens.caesar.text import _
from firmware.screens import base
from firmware.screens.caesar.mapface import MAP_POINTS, STATUS_BOX, label_places, map_labels, micro, micro_width
from firmware.screens.caesar.words import influence, pn, snapshot, view_of, who
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import Intent, Item, TextScreen, WrappedListScreen, intent


# -- board ---------------------------------------------------------------------------------------
def province_rows(view: CaesarView) -> list[tuple[str, str]]:
    """Per province: (name, status): ``5–3`` (first/second player's influence) while open, else
    who controls it."""
    pos = view["position"]
    totals, _empty = influence(view)
    out = []
    for code in PROVINCES:
        if code in pos["control"]:
            holder = pos["control"][code]
            mark = "*" if code in pos["flipped_control"] else ""
            status = (_("tie") if holder == "none" else who(view, holder)) + mark
        else:
            a, b = totals[code]
            status = f"{a}–{b}"
        out.append((pn(code), status))
    return out


class BoardScreen(WrappedListScreen):
    """The 18 provinces with both influence totals or who controls them; select one for its spaces."""

    def __init__(self) -> None:
        super().__init__()
        self.title = _("Provinces")

    def render(self, ctx: Ctx) -> Image.Image:
        """Titled "Provinces" with "you–him" (solo) over the totals; a duel's "Caesar–Pompey" is
        the title itself (the two would not fit one bar)."""
        self.title = _("Provinces") if view_of(ctx)["mode"] == "solo" else _("Caesar–Pompey")
        return super().render(ctx)

    def status(self, ctx: Ctx) -> str:
        return _("you–him") if view_of(ctx)["mode"] == "solo" else ""

    def items(self, ctx: Ctx) -> list[Item]:
        rows = province_rows(view_of(ctx))
        return [Item(label, partial(self._open, code=PROVINCES[i]), status) for i, (label, status) in enumerate(rows)]

    @staticmethod
    def _open(ctx: Ctx, code: str) -> None:
        ctx.push(remade(lambda: province_detail(view_of(ctx), code)))


def province_detail(view: CaesarView, code: str) -> TextScreen:
    """One province: both influence totals (or who controls it), each space (with the control
    marker on it, C-10), the bonus."""
    pos = view["position"]
    x = PROVINCE_INDEX[code]
    totals, empty = influence(view)
    names = list(pos["markers_left"])
    if code in pos["control"]:
        holder = pos["control"][code]
        rows = [_("Closed: {}").format(_("tie") if holder == "none" else who(view, holder))]
        if code in pos["flipped_control"]:                     # C-15: flipped by a Might (C-10)
            rows.append(_("Its control marker is face down (Might): it gives no border markers."))
    else:
        a, b = totals[code]
        rows = [f"{who(view, names[0])} {a}, {who(view, names[1])} {b}",
                _("Empty spaces: {}").format(empty[code])]
    for s in PROVINCE_SPACES[x]:
        sid = SPACES[s]
        other = PROVINCES[SPACE_B[s]] if PROVINCES[SPACE_A[s]] == code else PROVINCES[SPACE_A[s]]
        v = pos["spaces"].get(sid)
        on_top = pos["border_markers"].get(sid)                # C-10: a control marker on the space
        if v is None:
            rows.append(_("{}: empty").format(pn(other)))
        elif v["face_down"]:
            rows.append(_("{}: {} face down").format(pn(other), who(view, v["by"])) if on_top is None else
                        _("{}: {} face down, control marker: {}").format(pn(other), who(view, v["by"]),
                                                                         who(view, on_top)))
        elif on_top is None:
            rows.append(_("{}: {} {} here").format(pn(other), who(view, v["by"]), v["toward"][code]))
        else:
            rows.append(_("{}: {} {} here, control marker: {}").format(pn(other), who(view, v["by"]),
                                                                       v["toward"][code], who(view, on_top)))
    bonus = pos["bonuses"].get(code)
    if bonus:
        rows.append(_("Bonus: {}").format(_(BONUS_WORDS.get(bonus, bonus))))
    return snapshot(pn(code), rows)


class MapScreen:
    """The board at a glance, laid out from the board data's coordinates. Each province is a
    7×7 mark: hollow = open (with a dot: one empty space left, the next placement there closes
    it), filled = yours (Caesar in a duel), crossed = Crassus's (Pompey), a bar = tied; its
    border lines are solid once a token lies there; beside it, two letters in the player's
    language (``SD``, ``СА``; the cursor's inverted; see :func:`label_places`). The joystick
    moves to the nearest province in that direction; the title names it in full, the
    bottom-left corner gives both totals (or who holds it); A opens its detail (or, choosing
    your move, picks it); press opens the list of all provinces."""

    def __init__(self, pick: Callable[[Ctx, str], None] | None = None) -> None:
        self.cursor = PROVINCE_INDEX["IT"]
        self.title = _("Map")
        self.pick = pick                       # choosing your move's province: A picks it
        self.among: frozenset[int] | None = None   # the provinces the joystick goes to (None: all)

    def step(self, i: int, direction: str) -> int:
        """Where the joystick pushed ``direction`` goes from province ``i``."""
        return nearest(i, direction, self.among)

    def render(self, ctx: Ctx) -> Image.Image:
        view = view_of(ctx)
        pos = view["position"]
        img, draw = base.frame()
        name, status = province_rows(view)[self.cursor]
        hint = _("A: here") if self.pick else ""
        if hint and len(name) + len(hint) + 1 > base.COLS:       # the name whole; the hint in the corner
            status, hint = hint, ""
        base.title_bar(draw, name, hint)
        for s, sid in enumerate(SPACES):
            (ax, ay), (bx, by) = MAP_POINTS[SPACE_A[s]], MAP_POINTS[SPACE_B[s]]
            if sid in pos["spaces"]:
                draw.line((ax, ay, bx, by), fill=1)
            else:
                steps = max(abs(bx - ax), abs(by - ay))
                for k in range(0, steps + 1, 3):
                    draw.point((ax + (bx - ax) * k // max(steps, 1), ay + (by - ay) * k // max(steps, 1)), fill=1)
        first = "human" if view["mode"] == "solo" else "caesar"
        _totals, empty = influence(view)
        for i, code in enumerate(PROVINCES):
            x, y = MAP_POINTS[i]
            box = (x - 3, y - 3, x + 3, y + 3)
            draw.rectangle((x - 4, y - 4, x + 4, y + 4), fill=0)
            holder = pos["control"].get(code)
            if holder is None:
                draw.rectangle(box, outline=1, fill=0)
                if empty[code] == 1:                 # one placement closes it: a dot
                    draw.rectangle((x - 1, y - 1, x + 1, y + 1), fill=1)
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
        labels = map_labels()
        for i, (label, spot) in enumerate(zip(labels, label_places(tuple(labels)))):
            if spot is not None:                 # the cursor's label inverted
                draw.rectangle((spot[0] - 1, spot[1] - 1, spot[0] + micro_width(label), spot[1] + 5),
                               fill=int(i == self.cursor))
                micro(draw, spot[0], spot[1], label, fill=int(i != self.cursor))
        draw.rectangle(STATUS_BOX, fill=0)
        base.put(draw, 1, base.H - base.LINE - 1, status)     # the cursor's totals, or who holds it
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("map", key)
        if what in MOVES:
            self.cursor = self.step(self.cursor, MOVES[what])
        elif what is Intent.SELECT and self.pick is not None:
            self.pick(ctx, PROVINCES[self.cursor])
        elif what is Intent.SELECT:
            code = PROVINCES[self.cursor]
            ctx.push(remade(lambda: province_detail(view_of(ctx), code)))
        elif what is Intent.GO:
            ctx.push(BoardScreen())
        elif what is Intent.BACK:
            ctx.pop()


MOVES = {Intent.PREV: "up", Intent.NEXT: "down", Intent.LEFTWARD: "left", Intent.RIGHTWARD: "right"}


def nearest(i: int, direction: str, among: frozenset[int] | None = None) -> int:
    """The province nearest to ``i`` within 68° of ``direction`` on the map, a step sideways
    weighing three steps along (``i`` if none); ``among``: only these provinces (choosing your
    move: those where a token of yours fits)."""
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
    x0, y0 = MAP_POINTS[i]
    best, best_d = i, None
    for j, (x, y) in enumerate(MAP_POINTS):
        if among is not None and j not in among:
            continue
        vx, vy = x - x0, y - y0
        along = vx * dx + vy * dy
        if j == i or along <= 0 or abs(vx * dy - vy * dx) > 2.5 * along:
            continue
        d = along + 3 * abs(vx * dy - vy * dx)
        if best_d is None or d < best_d:
            best, best_d = j, d
    return best


@lru_cache(maxsize=256)
def all_reached(among: frozenset[int]) -> bool:
    """Whether the joystick, going only among the provinces ``among`` (:func:`nearest`), takes the
    cursor from each of them to every other: a province can lie where none of the others has it
    nearest that way (Sardinia among Mauretania, Numidia, Sicilia, Gallia…)."""
    for a in among:
        seen = {a}
        todo = [a]
        for x in todo:
            for way in ("up", "down", "left", "right"):
                y = nearest(x, way, among)
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        if not among <= seen:
            return False
    return True


def map_distance(a: int, b: int) -> int:
    """Joystick pushes from province ``a`` to ``b`` on the map (every province reachable)."""
    return _pushes_from(a).get(b, len(PROVINCES))


@lru_cache(maxsize=None)
def _pushes_from(a: int) -> dict[int, int]:
    """Joystick pushes from province ``a`` to each province it reaches (one search from ``a``
    answers every ``b``; it was made again for each)."""
    seen = {a: 0}
    todo = [a]
    for x in todo:
        for way in ("up", "down", "left", "right"):
            y = nearest(x, way)
            if y not in seen:
                seen[y] = seen[x] + 1
                todo.append(y)
    return seen
