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
    again = dice.reroll(rec, [1, 3], lambda p: rng)
    assert [again["dice"][i] for i in (0, 2, 4)] == [rec["dice"][i] for i in (0, 2, 4)]
    assert again["rerolled"] == [2, 4] and again["previous"] == rec["dice"]   # 1-based, as 'reroll' takes
    assert "Re-rolled dice 2, 4" in dice.describe(again)
    with pytest.raises(IllegalMove):
        dice.reroll(rec, [5], lambda p: rng)
    with pytest.raises(IllegalMove):
        dice.reroll(rec, [1, 1], lambda p: rng)


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


# -- names: what the screen can draw (issue 8, "Names in any language") -----------------------------
def test_cyrillic_and_ukrainian_item_names_are_accepted():
    counts = B.parse_items("золото*2,срібло,ґудзик,їжак,Єва,м'ята,пір’я,Ёж,A♠")
    assert counts["золото"] == 2 and "м'ята" in counts and "Ёж" in counts and "A♠" in counts


@pytest.mark.parametrize("name", ["金", "gold😀", "ἀ", "a\tb", "a b"])   # ἀ: polytonic Greek (α is drawn)
def test_an_item_with_a_character_the_font_cannot_draw_is_refused_at_new(console, name):
    r = console.request(f"new bag items=gold*2,{name}")
    assert not r["ok"] and r["error"] == "bad_arguments"
    assert console.session is None                      # nothing was started
    from firmware.screens import base
    assert base.missing(r["message"]) == set(), r["message"]   # the refusal itself is drawable


def test_every_character_the_name_rule_allows_has_a_glyph_in_every_font_size():
    from engine.names import NAME_CHARS
    from firmware.screens import base
    for kind in base.FONTS:
        assert base.missing("".join(sorted(NAME_CHARS)), kind) == set(), kind


@pytest.mark.parametrize("lang, words", [("en", ("Latin", "Greek", "Cyrillic")),
                                         ("ru", ("латинские", "греческие", "кириллические")),
                                         ("uk", ("латинські", "грецькі", "кириличні"))])
def test_the_refusal_names_every_alphabet_the_rule_accepts(lang, words):
    """p16-newuser: a refused name said "use letters (Latin or Cyrillic)" while a Greek name
    (players=Ann,Αλέξης) is accepted and the README promises it: the sentence names Greek too."""
    from engine.names import check_name
    from firmware.i18n import say
    assert check_name("Αλέξης") == "Αλέξης"                       # Greek is accepted …
    with pytest.raises(BadArguments) as e:
        check_name("A☃")
    said = say(e.value.message, lang)
    assert all(w in said for w in words), said                  # … and the refusal says so


def test_the_name_rule_refuses_empty_long_and_spaced_names():
    from engine.names import check_name
    with pytest.raises(BadArguments):
        check_name("   ")
    with pytest.raises(BadArguments):
        check_name("x" * 17, 16)
    with pytest.raises(BadArguments):
        check_name("red cube", spaces=False)
    assert check_name("red cube") == "red cube"


def test_sentences_are_msgs_that_keep_the_item_names_as_typed():
    from engine.text import Msg
    from firmware.i18n import say
    bag = B.new_bag({"золото": 1})
    with pytest.raises(IllegalMove) as e:
        B.draw_from_bag(bag, 2, Rng(1))
    assert isinstance(e.value.message, Msg)
    assert say(e.value.message, "ru") == "В мешочке 1 предмет; нельзя вытянуть 2."
    assert say(e.value.message, "uk") == "У торбинці 1 предмет; не можна витягти 2."
    rec = dice.roll(dice.DiceSpec(2, 6), Rng(3))
    assert say(dice.describe(rec), "ru").startswith("Бросок 2d6: ")


# -- a bag beside any game (kit …) ----------------------------------------------------------------
def test_a_side_bag_beside_a_game_is_journaled_undone_and_leaves_the_game_alone(console):
    assert console.request("new glory players=Ann,Bob seed=3")["ok"]
    before = console.request("state")["state"]
    r = console.request("kit new items=золото*2,silver cards=legio*3")
    assert r["ok"] and r["kit"]["bag"]["size"] == 3 and r["kit"]["deck"]["draw_pile"] == 3
    drawn = console.request("kit draw 2")
    assert drawn["ok"] and len(drawn["drawn"]) == 2 and drawn["kit"]["bag"]["size"] == 1
    assert console.request("kit card")["ok"]
    state = console.request("state")["state"]
    assert state["game"] == "glory" and {k: v for k, v in state.items() if k != "actions"} == \
        {k: v for k, v in before.items() if k != "actions"}
    # read-only view: not an undo step
    actions = state["actions"]
    assert console.request("kit-state")["kit"]["bag"]["size"] == 1
    assert console.request("state")["state"]["actions"] == actions
    undone = console.request("undo")
    assert undone["ok"] and "Drew card" in undone["undone"]
    assert console.request("kit-state")["kit"]["deck"]["draw_pile"] == 3
    # the same draw comes back after undo (the generator was restored)
    assert console.request("undo")["ok"]
    again = console.request("kit draw 2")
    assert again["drawn"] == drawn["drawn"]


def test_a_side_deck_listed_in_another_order_deals_the_same(console):  # PROTOCOL.md: undo never re-rolls
    """A side deck seen (its top card), undone and set up again with its cards listed in another
    order shuffled another deck order from the restored generator: another card for the same
    deck. Asked now, ``kit new cards=`` is stored with its cards in name order, so any listing of
    one deck deals the same (and the order listed, when another: ``listed=``, which no draw reads);
    a bag's items never depended on their order."""
    assert console.request("new glory players=Ann,Bob")["ok"]                  # a secret seed
    listings = {"x*3,y*3,z*3": "", "z*3,y*3,x*3": " listed=z,y,x", "y,z*3,x*2,y*2,x": " listed=y,z,x"}
    seen = []
    for cards, listed in listings.items():
        assert console.request(f"kit new items=b*2,a cards={cards}")["ok"]
        seen.append((console.request("kit card 3")["cards"], console.request("kit draw 2")["drawn"]))
        assert console.request("actions 3")["actions"][2]["line"] == "kit new items=b*2,a cards=x*3,y*3,z*3" + listed
        assert console.request("undo")["ok"] and console.request("undo")["ok"] and console.request("undo")["ok"]
    assert seen[0] == seen[1] == seen[2], seen
    assert console.request("kit new cards=y,x,y")["ok"]                       # a duplicate name adds up
    assert console.request("actions 1")["actions"][0]["line"] == "kit new cards=x,y*2 listed=y,x"
    assert console.request("kit new cards=,x")["error"] == "bad_arguments"    # refused as before


def test_side_bag_errors_change_nothing(console):
    assert console.request("new dice seed=1")["ok"]
    r = console.request("kit draw")
    assert r["error"] == "illegal_move" and "kit new" in r["message"]
    assert console.request("kit new items=金")["error"] == "bad_arguments"
    assert console.request("kit frobnicate")["error"] == "bad_arguments"
    assert console.request("kit")["error"] == "bad_arguments"
    assert console.request("kit-state")["kit"] == {}
    assert console.request("state")["state"]["actions"] == 0


@pytest.mark.parametrize("line,usage", [
    ("kit draw 1 2", "Usage: kit draw [N]."), ("kit draw x", "Usage: kit draw [N]."),
    ("kit put", "Usage: kit put <name>."), ("kit put a b", "Usage: kit put <name>."),
    ("kit card 1 2", "Usage: kit card [N]."), ("kit discard", "Usage: kit discard <card>."),
    ("kit shuffle 1", "Usage: kit shuffle."), ("kit reshuffle now", "Usage: kit reshuffle.")])
def test_a_side_bag_s_usage_names_the_kit_command(console, line, usage):
    """Beside a game, a mistyped ``kit put`` was answered "Usage: put <name>.": typed as said, it
    is refused there (the game's session has no bag of its own). The usage says ``kit put``; the bag
    game's own commands keep theirs; nothing changes."""
    assert console.request("new jc-battle seed=1")["ok"]
    assert console.request("kit new items=a*2 cards=x,y")["ok"]
    before = console.request("kit-state")
    r = console.request(line)
    assert r["error"] == "bad_arguments" and r["message"] == usage, r
    assert console.request("kit-state") == before
    assert console.request("new bag items=a*2 cards=x,y seed=1")["ok"]
    r = console.request(line.removeprefix("kit "))
    assert r["error"] == "bad_arguments" and r["message"] == usage.replace("kit ", ""), r


@pytest.mark.parametrize("line", ["kit new cards=a,,b", "kit new items=x cards=a,", "new bag cards=,a"])
def test_a_bad_card_list_is_said_as_the_cards_not_the_items(console, line):
    """cards= with an empty name was refused with the bag's words ("Empty item in the list; write
    e.g. items=gold*3,...") about a list the player had not written; in every language."""
    assert console.request("new dice seed=1")["ok"]
    for lang, words in (("en", "cards="), ("ru", "cards="), ("uk", "cards=")):
        assert console.request(f"settings language={lang}")["ok"]
        r = console.request(line)
        assert r["error"] == "bad_arguments" and words in r["message"] and "items=" not in r["message"], (lang, r)
    assert console.request("settings language=en")["ok"]
    assert console.request("state")["state"]["game"] == "dice"
    assert console.request("state")["state"]["actions"] == 0


@pytest.mark.parametrize("line,step", [
    ("new glory players=Ann,Bob seed=1", "fame Ann +1"),
    ("new sword players=romans,gauls seed=1", "vp romans +1"),
    ("new caesar-solo seed=1", "crassus"),
])
def test_the_side_bag_and_rolls_survive_the_games_own_steps(line, step):
    from engine.common import SESSION_KEYS
    from firmware.session import Session
    s = Session.start(line, 2, "t")
    s.apply("kit new items=a*2,b*3")
    s.apply("roll 2d6")
    s.apply(step)
    assert all(k in s.state for k in SESSION_KEYS)
    assert s.apply("kit draw").fields["kit"]["bag"]["size"] == 4


@pytest.mark.parametrize("line", ["new glory players=Zoë,Jürgen,Łukasz,Åsa", "new bag items=Straße*2,ў,α*3",
                                  "new jc-battle people=caesar:René,pompey:Øyvind"])
def test_names_with_letters_the_font_draws_are_taken(console, line):
    """The README promises players named in their own letters, and names are refused only when the
    screen cannot draw them; Zoë, Łukasz or Straße were refused as 'characters the screen cannot
    show' though every size of the font draws them."""
    r = console.request(line)
    assert r["ok"], r



@pytest.mark.parametrize("line", ["kit new", "new bag"])
def test_a_bag_or_deck_started_without_a_list_names_both_of_its_options(console, line):
    """``kit new`` / ``new bag`` with no list answered "needs items=...": a player who wants a deck
    was told of the bag's option only, though ``cards=`` starts a deck (docs/protocol.md). The
    refusal names both real options, in every language, and changes nothing."""
    assert console.request("new dice seed=1")["ok"]
    for lang in ("en", "ru", "uk"):
        assert console.request(f"settings language={lang}")["ok"]
        r = console.request(line)
        assert r["error"] == "bad_arguments" and "items=" in r["message"] and "cards=" in r["message"], (lang, r)
        assert line in r["message"], (lang, r)
    assert console.request("settings language=en")["ok"]
    assert console.request("state")["state"]["game"] == "dice" and console.request("state")["state"]["actions"] == 0


def test_a_side_deck_started_beside_a_side_bag_keeps_the_bag(console):  # PROTOCOL.md: one bag and/or deck
    """A side bag with a token out, then a side deck started beside it (Bag beside the game → New
    bag or deck → a deck): the deck's ``kit new cards=`` threw the bag away, token out and all, and
    the next ``kit draw`` was refused. ``kit new`` replaces only what it lists; the bag draws on
    from where it was (its own stream), and undoing the deck leaves the bag as it was."""
    assert console.request("new glory players=Ann,Bob")["ok"]
    assert console.request("kit new items=золото*3,серебро*2")["ok"]
    first = console.request("kit draw")["drawn"]
    ahead = console.request("kit draw")["drawn"]                  # what the bag draws next
    assert console.request("undo")["ok"]
    r = console.request("kit new cards=legio*4,senator*2")
    assert r["ok"] and r["kit"]["deck"]["draw_pile"] == 6
    assert r["kit"]["bag"]["drawn"] == first and r["kit"]["bag"]["size"] == 4
    assert console.request("kit draw")["drawn"] == ahead
    assert console.request("kit card")["ok"]
    r = console.request("kit new items=a*2")                      # a new bag keeps the deck
    assert r["ok"] and r["kit"]["bag"] == {"left": {"a": 2}, "size": 2, "drawn": [], "history": [], "events": 0}
    assert r["kit"]["deck"]["draw_pile"] == 5 and len(r["kit"]["deck"]["hand"]) == 1
    for _ in range(4):
        assert console.request("undo")["ok"]                       # the new bag, card, draw, the deck
    kit = console.request("kit-state")["kit"]
    assert "deck" not in kit and kit["bag"]["drawn"] == first and kit["bag"]["size"] == 4


@pytest.mark.parametrize("lang,hand,discards", [
    ("en", "the other cards are in the hand", "Reshuffle the discards first."),
    ("ru", "остальные карты в руке", "Сначала замешайте сброс."),
    ("uk", "решта карт у руці", "Спершу замішайте скид.")])
def test_an_empty_deck_with_no_discards_says_the_cards_are_in_the_hand(console, lang, hand, discards):
    """Every card drawn into the hand, none discarded: "Draw a card" answered "Reshuffle the
    discards first", but there was no discard pile to reshuffle (and no "Discards back in" row)."""
    assert console.request(f"settings language={lang}")["ok"]
    assert console.request("new bag cards=legio*2,senator seed=1")["ok"]
    assert console.request("card 3")["ok"]
    r = console.request("card")
    assert r["error"] == "illegal_move" and hand in r["message"] and discards not in r["message"], r
    assert console.request("discard legio")["ok"]
    r = console.request("card")
    assert r["error"] == "illegal_move" and discards in r["message"] and hand not in r["message"], r
    assert sorted(console.request("state")["state"]["deck"]["hand"]) == ["legio", "senator"]   # refusals change nothing


@pytest.mark.parametrize("was, now, walk", [
    ("gold*3,lead*3", "gold*3,lead*3", None),                   # the same bag: name order, as always
    ("gold*3,lead*3", "lead*3,gold*3", None),                   # listed in another order: the same things
    ("gold*3,lead*3", "zgold*3,lead*3", ["zgold", "lead"]),     # gold renamed: zgold walks where gold did
    ("white*5,black*5", "белый*5,чёрный*5", ["чёрный", "белый"]),   # both renamed: paired as listed
    ("a*2,b*1", "b*2,a*1", ["b", "a"]),                         # a name with another count is not itself
    ("gold*3,lead*3", "gold*4,lead*2", None),                   # other counts: another bag
])
def test_a_bag_made_again_is_paired_item_by_item_with_the_bag_it_was(was, now, walk):
    """Which item of a bag made again is which (docs/fairness.md §5): a name with the same count is
    itself, the others pair count by count in the order listed; the walk puts each where its
    partner was in the name order of the bag as it was."""
    def listed(text: str) -> list[tuple[str, int]]:
        return B.entries(B.new_bag(B.parse_items(text)))
    assert B.same_items(listed(was), listed(now)) == walk
