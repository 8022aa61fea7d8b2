"""Where a physical die's face cursor starts (firmware.dice_guess): issue 9 item 5, "entering a
physical die costs ≤ 2 presses on average" (J-1: one d6 per strength step, at most IV)."""
from __future__ import annotations

import itertools

import pytest

from firmware import dice_guess
from firmware.dice_guess import chain, presses_between, start_face


def presses_per_die(n: int, guess) -> float:
    """Mean presses per die over every roll of ``n`` d6, read low to high: up/down to each face
    from where the die starts, one press to move on or to submit, and A as soon as the dice
    still to come already show their faces."""
    total = 0
    for roll in itertools.product(range(1, 7), repeat=n):
        faces = sorted(roll)
        shown = guess(n, 0, [guess(n, -1, [])[0]] if n else [])
        cost = 0
        for i, face in enumerate(faces):
            cost += presses_between(shown[i], face) + 1
            shown = guess(n, i, shown[:i] + [face])
            if shown[i + 1:] == faces[i + 1:]:
                break
        total += cost
    return total / 6 ** n / n


def guessed(n, at, faces):
    if at < 0:
        return [start_face(0, n, None)]
    return chain(n, at, faces)


def same_face(n, at, faces):                     # the old entry: every die starts on the previous face
    if at < 0:
        return [1]
    return faces[:at + 1] + [faces[at]] * (n - at - 1)


@pytest.mark.parametrize("n, bound", [(1, 2.5), (2, 1.9), (3, 1.65), (4, 1.5)])
def test_a_die_costs_at_most_two_presses_on_average_for_a_roll_of_two_or_more(n, bound):
    assert presses_per_die(n, guessed) <= bound
    assert presses_per_die(n, guessed) <= presses_per_die(n, same_face)
    if n > 1:
        assert presses_per_die(n, guessed) < presses_per_die(n, same_face) - 0.2


def test_the_start_is_a_face_and_never_below_a_lower_face_read_before():
    for n in range(1, 5):
        for i in range(1, n):
            for prev in range(1, 7):
                assert prev <= start_face(i, n, prev) <= 6   # the roll is read low to high


def test_a_one_die_roll_starts_on_a_face_and_chain_keeps_what_was_entered():
    assert start_face(0, 1, None) in range(1, 7)
    assert chain(3, 1, [4, 2, 1])[:2] == [4, 2]
    assert len(chain(4, 0, [1])) == 4


@pytest.mark.parametrize("i, n, prev", [(-1, 2, None), (2, 2, 1), (1, 2, 0), (1, 2, 7)])
def test_a_die_outside_the_roll_or_a_face_outside_1_to_6_is_refused(i, n, prev):
    with pytest.raises(ValueError):
        start_face(i, n, prev)


def test_more_dice_than_enumerated_start_on_the_previous_face():
    n = dice_guess.EXACT_UP_TO + 1
    assert start_face(0, n, None) == 1 and start_face(3, n, 5) == 5


@pytest.mark.parametrize("lang,word", [("ru", "подсказка"), ("uk", "підказка")])
def test_the_dice_entry_says_in_words_what_a_dashed_die_is(state_dir, lang, word):
    """The entry's second hint read «пунктир: здогадка ≥ ←» / «догадка ≥ ←»: a formula, not words, and
    «здогадка» is a guess of one's own. A dashed die is the device's suggestion (the likeliest face
    after the die on its left), which A takes as it is: «пунктир — підказка», in one row."""
    from firmware import i18n
    from firmware.screens import base
    from firmware.screens.widgets.dice import DiceEntry
    from tests.screens import app_with, drawn
    app = app_with([], [], state_dir, lang=lang)
    try:
        app.push(DiceEntry("Fire", [("", 3)], lambda ctx, faces: None))
        hint = [t for _x, y, t, _k in drawn(app) if y == base.H - base.LINE]
        assert len(hint) == 1 and word in hint[0] and len(hint[0]) <= base.COLS, hint
        assert not set(hint[0]) & set("≥←→<>="), hint       # words a player reads, no formula
    finally:
        app.console.close()
        i18n.set_language("en")
