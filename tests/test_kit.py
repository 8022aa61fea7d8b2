"""Dice expressions, rolls, re-rolls, bags and decks (the Dice & bags kit)."""
from collections import Counter

import pytest

from engine import bag as B
from engine import dice
from engine.errors import BadArguments, IllegalMove
from engine.rng import Rng


@pytest.mark.parametrize("text,count,sides,mod", [
    ("3d6", 3, 6, 0), ("d20", 1, 20, 0), ("2d10+3", 2, 10, 3), ("4D8-2", 4, 8, -2)])
def test_parse_dice(text, count, sides, mod):
    assert dice.parse_dice(text) == dice.DiceSpec(count, sides, mod)


@pytest.mark.parametrize("text", ["", "3", "d", "0d6", "3d1", "3d6+", "3d6*2", "101d6", "2d6+1+1", "x3d6"])
def test_parse_dice_rejects(text):
    with pytest.raises(BadArguments):
        dice.parse_dice(text)


def test_roll_total_is_dice_plus_modifier_and_faces_in_range():
    rng = Rng(3)
    for _ in range(200):
        rec = dice.roll(dice.DiceSpec(3, 6, -2), rng)
        assert all(1 <= d <= 6 for d in rec["dice"]) and rec["total"] == sum(rec["dice"]) - 2


def test_reroll_changes_only_chosen_dice_and_records_them():
    rng = Rng(5)
    rec = dice.roll(dice.DiceSpec(5, 1000), rng)
    again = dice.reroll(rec, [1, 3], rng)
    assert [again["dice"][i] for i in (0, 2, 4)] == [rec["dice"][i] for i in (0, 2, 4)]
    assert again["rerolled"] == [2, 4] and again["previous"] == rec["dice"]   # 1-based, as 'reroll' takes
    assert "Re-rolled dice 2, 4" in dice.describe(again)
    with pytest.raises(IllegalMove):
        dice.reroll(rec, [5], rng)
    with pytest.raises(IllegalMove):
        dice.reroll(rec, [1, 1], rng)


def test_bag_draws_without_replacement_and_refuses_overdraw():
    bag = B.new_bag(B.parse_items("gold*3,silver*2,bronze"))
    rng = Rng(9)
    drawn = B.draw_from_bag(bag, 6, rng)
    assert Counter(drawn) == Counter({"gold": 3, "silver": 2, "bronze": 1})
    with pytest.raises(IllegalMove):
        B.draw_from_bag(bag, 1, rng)


def test_bag_draw_is_fair_per_item():
    counts: Counter = Counter()
    rng = Rng(11)
    for _ in range(6000):
        bag = B.new_bag({"a": 1, "b": 2})
        counts[B.draw_from_bag(bag, 1, rng)[0]] += 1
    assert abs(counts["b"] / 6000 - 2 / 3) < 0.03


def test_put_back_only_what_was_drawn():
    bag = B.new_bag({"gold": 1, "silver": 1})
    with pytest.raises(IllegalMove):
        B.put_back(bag, "gold")
    got = B.draw_from_bag(bag, 1, Rng(1))[0]
    B.put_back(bag, got)
    assert B.bag_size(bag) == 2 and bag["drawn"] == []


@pytest.mark.parametrize("text", ["", "gold*0", "gold*x", "a b", "gold,,silver", "x" * 30])
def test_parse_items_rejects(text):
    with pytest.raises(BadArguments):
        B.parse_items(text)


def test_deck_draw_discard_reshuffle():
    rng = Rng(2)
    deck = B.new_deck({"a": 2, "b": 1}, rng)
    hand = B.deck_draw(deck, 3)
    assert sorted(hand) == ["a", "a", "b"]
    with pytest.raises(IllegalMove):
        B.deck_draw(deck, 1)
    B.deck_discard(deck, "b")
    with pytest.raises(IllegalMove):
        B.deck_discard(deck, "b")
    B.deck_shuffle(deck, rng, with_discards=True)
    assert deck["draw"] == ["b"] and deck["discard"] == []
