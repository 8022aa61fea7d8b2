"""Where labels go on a small map: a pure layout search (no drawing, no fonts, no board), tested on
its own (tests/test_caesar_maplabels.py).

Given the marks (the centres of 7×7 province marks), the width of each label (5 px tall; 0: no
label) and the area it may use, each label gets a top-left spot beside its own mark:

- it covers no mark (with a 1 px frame round the label and the cursor's frame round each mark),
  no other label (two labels side by side keep a 2 px gap, wider than the one between letters, so
  "AF AC" never reads as one word) and nothing in ``keep_clear``;
- it is at most ``most`` px from its own mark and at least ``margin`` px nearer to it than to any
  other mark, under the strictest of :data:`RULES` that still lets every label fit (a clear spot
  first, a closer call only where the map needs it);
- among those, the clearest first (far from other marks, close to its own, level with it).

A depth-first search places every label when it can within :data:`SEARCH_NODES` tries; otherwise
labels go one by one in a few orders and the order that labels the most marks wins (``favoured``,
e.g. where the cursor starts, counting one and a half). A label without a spot gets None.
"""
from __future__ import annotations

from collections.abc import Sequence

Point = tuple[int, int]
Box = tuple[int, int, int, int]          # x0, y0, x1, y1, inclusive

LABEL_H = 5
MARK = 3                                 # a mark's half size: 7×7 centred on its point
MARK_CLEAR = 5                           # a mark keeps this much round its point clear (the cursor's frame)
# (most pixels from its own mark, fewest pixels nearer its own mark than any other), strictest first
RULES: tuple[tuple[int, int], ...] = ((5, 2), (6, 2), (6, 1))
SEARCH_NODES = 20_000                    # placements tried before the fallback


def gap(box: Box, px: int, py: int) -> float:
    """Pixels between ``box`` and the 7×7 mark centred on (px, py)."""
    dx = max(0, px - MARK - box[2], box[0] - (px + MARK))
    dy = max(0, py - MARK - box[3], box[1] - (py + MARK))
    return float((dx * dx + dy * dy) ** 0.5)


def label_box(spot: Point, width: int) -> Box:
    """The pixels a label at ``spot`` takes, with its 1 px frame."""
    return (spot[0] - 1, spot[1] - 1, spot[0] + width, spot[1] + LABEL_H)


def spaced(box: Box) -> Box:
    """A placed label's box as other labels must keep clear of it (2 px more on each side)."""
    return (box[0] - 2, box[1], box[2] + 2, box[3])


def _clear(box: Box, taken: Sequence[Box], bounds: Box) -> bool:
    x0, y0, x1, y1 = box
    if x0 < bounds[0] or x1 > bounds[2] or y0 < bounds[1] or y1 > bounds[3]:
        return False
    return all(x1 < a or x0 > c or y1 < b or y0 > d for a, b, c, d in taken)


def _spots(marks: Sequence[Point], widths: Sequence[int], taken: Sequence[Box], bounds: Box,
           rules: Sequence[tuple[int, int]]) -> list[list[tuple[float, float, int, int]]]:
    """Per label, every spot within the loosest rule's reach of its mark that covers no mark and
    stays in bounds: (pixels from its own mark, from the nearest other mark, x, y)."""
    own_max = rules[-1][0]                      # the loosest rule comes last
    out = []
    for i, ((x, y), w) in enumerate(zip(marks, widths)):
        near = [(px, py) for j, (px, py) in enumerate(marks)
                if j != i and abs(px - x) <= 2 * own_max + w + 12 and abs(py - y) <= 2 * own_max + 16]
        found: list[tuple[float, float, int, int]] = []
        out.append(found)
        if not w:
            continue
        xs, ys = range(x - 4 - own_max - w, x + 5 + own_max), range(y - 8 - own_max, y + 5 + own_max)
        # what ``gap`` (to its own mark) and ``_clear`` say, a row at a time: the columns near
        # enough and in bounds, less those where the label's box (with its frame, ``label_box``)
        # would meet a box taken that reaches the row
        columns = [(lx, dx) for lx in xs if (dx := max(0, x - MARK - (lx + w - 1), lx - (x + MARK))) <= own_max
                   and lx - 1 >= bounds[0] and lx + w <= bounds[2]]
        for ly in ys:
            dy = max(0, y - MARK - (ly + LABEL_H - 1), ly - (y + MARK))
            y0, y1 = ly - 1, ly + LABEL_H
            if dy > own_max or y0 < bounds[1] or y1 > bounds[3]:
                continue
            covered = {lx for a, b, c, d in taken if not (y1 < b or y0 > d) for lx in range(a - w, c + 2)}
            for lx, dx in columns:
                own = float((dx * dx + dy * dy) ** 0.5)
                if own <= own_max and lx not in covered:
                    box = (lx, ly, lx + w - 1, ly + LABEL_H - 1)
                    other = min((gap(box, px, py) for px, py in near), default=99.0)
                    found.append((own, other, lx, ly))
        found.sort(key=lambda f: (f[2], f[3]))      # column by column, as the spots were once found
    return out


def _candidates(spots: list[list[tuple[float, float, int, int]]], marks: Sequence[Point],
                rules: Sequence[tuple[int, int]]) -> list[list[Point]]:
    """Per label, the spots that follow the loosest rule: those of the strictest rule it meets
    first, then the clearest (far from other marks, close to its own, level with it)."""
    def tier(own: float, other: float) -> int:
        return next(k for k, (most, margin) in enumerate(rules) if own <= most and other >= own + margin)

    most, margin = rules[-1]
    return [[(lx, ly) for *_k, lx, ly in sorted(
                (-tier(own, other), other - 2 * own, -abs(ly + 2 - y), lx, ly) for own, other, lx, ly in found
                if own <= most and other >= own + margin)[::-1]]
            for found, (_x, y) in zip(spots, marks)]


def _search(widths: Sequence[int], options: list[list[Point]], taken: Sequence[Box], bounds: Box,
            nodes_max: int) -> list[Point | None] | None:
    """Every label placed without overlaps (depth first, the label with the fewest spots first),
    or None when that is impossible or takes more than ``nodes_max`` placements."""
    order = sorted(range(len(widths)), key=lambda k: len(options[k]))
    out: list[Point | None] = [None] * len(widths)
    placed = list(taken)
    nodes = 0

    def place(k: int) -> bool:
        nonlocal nodes
        if k == len(order):
            return True
        i = order[k]
        if not widths[i]:
            return place(k + 1)
        for spot in options[i]:
            nodes += 1
            if nodes > nodes_max:
                return False
            box = label_box(spot, widths[i])
            if _clear(box, placed, bounds):
                out[i] = spot
                placed.append(spaced(box))
                if place(k + 1):
                    return True
                placed.pop()
                out[i] = None
        return False

    return out if place(0) else None


def _greedy(widths: Sequence[int], options: list[list[Point]], taken: Sequence[Box], bounds: Box,
            favoured: int | None) -> tuple[Point | None, ...]:
    """The fallback: labels placed one by one in a few orders (the most crowded first, the given
    order, each label first once); the order that labels the most marks wins, ``favoured``
    counting one and a half."""
    def greedy(order: list[int]) -> list[Point | None]:
        placed = list(taken)
        out: list[Point | None] = [None] * len(widths)
        for i in order:
            for spot in options[i]:
                box = label_box(spot, widths[i])
                if _clear(box, placed, bounds):
                    out[i] = spot
                    placed.append(spaced(box))
                    break
        return out

    every = list(range(len(widths)))
    crowded = sorted(every, key=lambda k: (len(options[k]), k))
    orders = [crowded, every] + [[k] + [j for j in crowded if j != k] for k in crowded]

    def labelled(r: list[Point | None]) -> float:
        bonus = 1.5 if favoured is not None and r[favoured] is not None else 0.0
        return sum(x is not None for x in r) + bonus

    best = max(orders, key=lambda o: labelled(greedy(o)))
    return tuple(greedy(best))


def place_labels(marks: Sequence[Point], widths: Sequence[int], bounds: Box, keep_clear: Sequence[Box] = (),
                 favoured: int | None = None, rules: Sequence[tuple[int, int]] = RULES,
                 nodes: int = SEARCH_NODES) -> tuple[Point | None, ...]:
    """The top-left spot of each label (see the module docstring), None where none fits."""
    if len(marks) != len(widths):
        raise ValueError(f"{len(marks)} marks but {len(widths)} labels")
    taken: list[Box] = [(x - MARK_CLEAR, y - MARK_CLEAR, x + MARK_CLEAR, y + MARK_CLEAR) for x, y in marks]
    taken += list(keep_clear)
    options = _candidates(_spots(marks, widths, taken, bounds, rules), marks, rules)
    found = _search(widths, options, taken, bounds, nodes)
    return tuple(found) if found is not None else _greedy(widths, options, taken, bounds, favoured)
