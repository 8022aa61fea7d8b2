"""The map-label placement on its own (firmware/screens/caesar/maplabels.py): a pure layout search
over marks, label widths and an area; no screen, no font, no board."""
from __future__ import annotations

import itertools
import random

import pytest

from firmware.screens.caesar.maplabels import LABEL_H, RULES, gap, label_box, place_labels

AREA = (0, 12, 127, 63)


def _check(marks, widths, spots, area=AREA, keep_clear=()):
    """Every placed label in the area, over no mark, no other label (2 px apart side by side) and
    nothing kept clear, within reach of its own mark and nearer it than any other."""
    most, margin = RULES[-1]
    boxes = {}
    for i, (spot, w) in enumerate(zip(spots, widths)):
        if spot is None:
            continue
        x0, y0, x1, y1 = label_box(spot, w)
        assert area[0] <= x0 and x1 <= area[2] and area[1] <= y0 and y1 <= area[3], (i, spot)
        for px, py in marks:
            assert x1 < px - 5 or x0 > px + 5 or y1 < py - 5 or y0 > py + 5, (i, spot, (px, py))
        for a, b, c, d in keep_clear:
            assert x1 < a or x0 > c or y1 < b or y0 > d
        text = (spot[0], spot[1], spot[0] + w - 1, spot[1] + LABEL_H - 1)
        own = gap(text, *marks[i])
        assert own <= most and all(gap(text, *p) >= own + margin for j, p in enumerate(marks) if j != i)
        boxes[i] = (x0, y0, x1, y1)
    for (i, a), (j, b) in itertools.combinations(boxes.items(), 2):
        assert a[2] + 2 < b[0] or b[2] + 2 < a[0] or a[3] < b[1] or b[3] < a[1], (i, j, a, b)


def test_lone_marks_each_get_a_label_beside_them():
    marks = [(20, 30), (100, 30), (60, 50)]
    widths = [7, 11, 9]
    spots = place_labels(marks, widths, AREA)
    assert None not in spots
    _check(marks, widths, spots)


def test_a_mark_without_a_label_gets_none_and_takes_no_room():
    marks = [(30, 30), (60, 30)]
    assert place_labels(marks, [0, 7], AREA)[0] is None


def test_two_close_marks_get_labels_that_neither_overlap_nor_touch():
    marks = [(40, 30), (50, 30)]
    spots = place_labels(marks, [7, 7], AREA)
    assert None not in spots
    _check(marks, [7, 7], spots)


def test_nothing_goes_into_the_corner_kept_clear():
    marks = [(8, 56), (40, 40)]
    corner = (0, 52, 50, 63)
    spots = place_labels(marks, [7, 7], AREA, keep_clear=[corner])
    _check(marks, [7, 7], spots, keep_clear=[corner])
    assert spots[1] is not None


def test_a_crowded_map_falls_back_to_labelling_the_most_and_the_favoured_one():
    marks = [(x, y) for x in range(8, 124, 13) for y in range(17, 60, 11)]      # 9×4 marks, too close
    widths = [11] * len(marks)
    plain = place_labels(marks, widths, AREA, nodes=200)
    _check(marks, widths, plain)
    assert 0 < sum(s is not None for s in plain) < len(marks)      # not every label fits; none overlap
    assert plain[15] is None
    favoured = place_labels(marks, widths, AREA, favoured=15, nodes=200)
    _check(marks, widths, favoured)
    assert favoured[15] is not None                                 # where the cursor starts counts more


@pytest.mark.parametrize("seed", range(6))
def test_random_maps_never_break_the_rules(seed):
    rng = random.Random(seed)
    marks = []
    while len(marks) < 12:
        p = (rng.randint(6, 121), rng.randint(18, 57))
        if all(abs(p[0] - q[0]) + abs(p[1] - q[1]) >= 9 for q in marks):
            marks.append(p)
    widths = [rng.choice((7, 9, 11, 13)) for _ in marks]
    spots = place_labels(marks, widths, AREA, nodes=2000)
    _check(marks, widths, spots)


def test_the_same_input_gives_the_same_places():
    marks = [(20, 30), (28, 34), (100, 50)]
    assert place_labels(marks, [7, 7, 9], AREA) == place_labels(list(marks), [7, 7, 9], AREA)


def test_marks_and_widths_must_match():
    with pytest.raises(ValueError, match="2 marks but 1 labels"):
        place_labels([(1, 2), (3, 4)], [5], AREA)


def _spots_by_definition(marks, widths, taken, bounds, rules):
    """Every spot within the loosest rule's reach that covers nothing taken and stays in bounds,
    tried one by one: what the search's row-at-a-time candidate list must equal."""
    own_max = rules[-1][0]
    out = []
    for i, ((x, y), w) in enumerate(zip(marks, widths)):
        found = []
        for lx in range(x - 4 - own_max - w, x + 5 + own_max) if w else ():
            for ly in range(y - 8 - own_max, y + 5 + own_max):
                text = (lx, ly, lx + w - 1, ly + LABEL_H - 1)
                x0, y0, x1, y1 = label_box((lx, ly), w)
                if (gap(text, x, y) <= own_max and bounds[0] <= x0 and x1 <= bounds[2] and bounds[1] <= y0
                        and y1 <= bounds[3] and all(x1 < a or x0 > c or y1 < b or y0 > d for a, b, c, d in taken)):
                    others = [gap(text, px, py) for j, (px, py) in enumerate(marks) if j != i
                              and abs(px - x) <= 2 * own_max + w + 12 and abs(py - y) <= 2 * own_max + 16]
                    found.append((gap(text, x, y), min(others, default=99.0), lx, ly))
        out.append(found)
    return out


@pytest.mark.parametrize("seed", range(15))
def test_the_candidate_spots_are_every_spot_the_rules_allow(seed):
    from firmware.screens.caesar.maplabels import MARK_CLEAR, _spots
    rng = random.Random(seed)
    marks = [(rng.randint(2, 125), rng.randint(10, 61)) for _ in range(rng.randint(1, 18))]
    widths = [rng.choice((0, 3, 5, 7, 9, 13)) for _ in marks]
    taken = [(x - MARK_CLEAR, y - MARK_CLEAR, x + MARK_CLEAR, y + MARK_CLEAR) for x, y in marks]
    taken += [(0, 55, rng.randint(5, 60), 63)] * rng.randint(0, 1)
    area = (0, rng.choice((0, 12)), 127, 63)
    rules = rng.choice((RULES, ((5, 2),), ((4, 1), (8, 0))))
    assert _spots(marks, widths, taken, area, rules) == _spots_by_definition(marks, widths, taken, area, rules)
