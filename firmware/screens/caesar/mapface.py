"""Caesar!: the map's face — province marks placed from the board data, the 5-pixel letters of the
map labels and where they go (the placement itself is firmware/screens/caesar/maplabels.py)."""
from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw

from engine.caesar.board import PROVINCE_INDEX, PROVINCE_XY, PROVINCES
from engine.text import N_
from firmware.screens.caesar.text import _
from firmware.screens import base
from firmware.screens.caesar.maplabels import place_labels


# -- schematic map -------------------------------------------------------------------------------
def _map_points() -> tuple[tuple[int, int], ...]:
    """Pixel centres of the provinces: the board data's xy scaled into the area under the title."""
    xs = [x for x, _y in PROVINCE_XY]
    ys = [y for _x, y in PROVINCE_XY]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return tuple((4 + round((x - x0) / (x1 - x0) * (base.W - 9)),
                  base.TITLE_H + 5 + round((y - y0) / (y1 - y0) * (base.H - base.TITLE_H - 10)))
                 for x, y in zip(xs, ys))


MAP_POINTS = _map_points()


# The map's labels: two letters per province in the player's language, in the board's order
# (HU HC MT SD GA NU SC IT GC AF AC MD DM CY CR AG AS SY); the title names the cursor's province.
MAP_LABELS = N_("HU HC MT SD GA NU SC IT GC AF AC MD DM CY CR AG AS SY")


# A 5-pixel-tall letter face for the map's labels (rows top to bottom, '#' lit): only the letters
# the labels use; a label with a letter not here is not drawn.
_MICRO = {
    "A": ".#.|#.#|###|#.#|#.#", "C": ".##|#..|#..|#..|.##", "D": "##.|#.#|#.#|#.#|##.",
    "E": "###|#..|##.|#..|###", "F": "###|#..|##.|#..|#..", "G": ".##|#..|#.#|#.#|.##",
    "H": "#.#|#.#|###|#.#|#.#", "I": "###|.#.|.#.|.#.|###", "K": "#.#|#.#|##.|#.#|#.#",
    "M": "#...#|##.##|#.#.#|#...#|#...#", "N": "#..#|##.#|#.##|#..#|#..#", "R": "##.|#.#|##.|#.#|#.#",
    "S": ".##|#..|.#.|..#|##.", "T": "###|.#.|.#.|.#.|.#.", "U": "#.#|#.#|#.#|#.#|###",
    "Y": "#.#|#.#|.#.|.#.|.#.",
    "А": ".#.|#.#|###|#.#|#.#", "Б": "###|#..|##.|#.#|##.", "В": "##.|#.#|##.|#.#|##.",
    "Г": "###|#..|#..|#..|#..", "Д": ".###.|.#.#.|.#.#.|#####|#...#", "Е": "###|#..|##.|#..|###",
    "Є": ".##|#..|##.|#..|.##", "З": "##.|..#|.#.|..#|##.", "И": "#..#|#.##|##.#|#..#|#..#",
    "І": "###|.#.|.#.|.#.|###", "К": "#.#|#.#|##.|#.#|#.#", "М": "#...#|##.##|#.#.#|#...#|#...#",
    "Н": "#.#|#.#|###|#.#|#.#", "Р": "##.|#.#|##.|#..|#..", "С": ".##|#..|#..|#..|.##",
    "Т": "###|.#.|.#.|.#.|.#.", "У": "#.#|#.#|.##|..#|##.", "Ф": ".###.|#.#.#|#.#.#|.###.|..#..",
    "Х": "#.#|#.#|.#.|#.#|#.#", "Ц": "#.#.|#.#.|#.#.|####|...#",
}


def micro_width(label: str) -> int:
    """Pixels a label takes in the map's letter face (1 px between letters)."""
    return sum(len(_MICRO[ch].split("|")[0]) for ch in label) + max(0, len(label) - 1)


def micro(draw: ImageDraw.ImageDraw, x: int, y: int, label: str, fill: int = 1) -> None:
    """Draw ``label`` in the 5-pixel letter face with its top-left at (x, y) (not a font: not in
    ``base.TRACE``; :func:`label_places` says where the labels are)."""
    for ch in label:
        rows = _MICRO[ch].split("|")
        for dy, row in enumerate(rows):
            for dx, bit in enumerate(row):
                if bit == "#":
                    draw.point((x + dx, y + dy), fill=fill)
        x += len(rows[0]) + 1


STATUS_BOX = (0, base.H - base.LINE, 50, base.H - 1)     # the map's empty corner: the cursor's totals


def map_labels() -> list[str]:
    """The 18 labels in the current language (empty where the translation has a letter the map
    face lacks, or is not 18 labels)."""
    words = _(MAP_LABELS).split()
    if len(words) != len(PROVINCES):
        words = MAP_LABELS.split()
    return [w if all(ch in _MICRO for ch in w) else "" for w in words]


@lru_cache(maxsize=8)
def label_places(labels: tuple[str, ...]) -> tuple[tuple[int, int] | None, ...]:
    """Where each label goes (top-left pixel): beside its province's mark and nearer it than any
    other mark, over no mark (with the cursor's frame), no other label and not the status corner
    (the search: firmware/screens/caesar/maplabels.py). Every province gets one when the map allows;
    None where none fits (the title still names the province)."""
    return place_labels(MAP_POINTS, [micro_width(label) if label else 0 for label in labels],
                        (0, base.TITLE_H + 1, base.W - 1, base.H - 1), [STATUS_BOX], favoured=PROVINCE_INDEX["IT"])
