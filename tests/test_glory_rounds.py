"""Rounds, the event deck, the rotating board and income (G-1..G-4), medals, picks and
objectives (G-19), through the ``glory`` session commands."""
from __future__ import annotations

from collections import Counter
import copy
import json

import pytest

from engine.errors import BadArguments, GameOver, IllegalMove
from engine.glory.console import GAME
from engine.glory.state import view
from engine.glory.tables import event_cards, objective_cards
from tests.test_glory_helpers import new, run


# -- G-3 farming income ----------------------------------------------------------------------
def test_farming_income_by_round_and_farmer_medal():  # G-3
    s = new("players=Jack,Henry")
    run(s, "medal Henry farmer")
    seen = []
    for _ in range(9):
        seen.append((run(s, "farm Jack")["denarii"], run(s, "farm Henry")["denarii"]))
        run(s, "event arrow=cw90")
        run(s, "end-round")
    assert [a for a, _ in seen] == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert [b - a for a, b in seen] == [2] * 9


# -- G-2 event deck, direction, rotation, first player ---------------------------------------
def test_event_deck_has_12_cards_or_18_with_harsh_times():  # G-2
    assert len(new()["deck"]) == 12
    harsh = new("players=Jack,Henry harsh=1")
    assert len(harsh["deck"]) == 18
    assert sum(1 for c in event_cards() if c["harsh"]) == 6


def test_the_arrows_printed_on_the_revealed_card_set_the_order_and_the_turn():  # G-2
    """The data's arrows are stand-ins: the table says the ones printed on the card it revealed
    (blue clockwise, orange counter-clockwise, one arrow 90°, two 180°), and the direction of play,
    the first player, History's start player and the board's turn at the end follow them."""
    s = new("players=Jack,Henry,Mary,Ross")
    with pytest.raises(IllegalMove):
        run(s, "arrow ccw90")                                # no event yet
    run(s, "event arrow=cw180")
    out = run(s, "arrow ccw90")
    assert out["direction"] == "counterclockwise" and out["order"] == ["Jack", "Ross", "Mary", "Henry"]
    assert out["rotation"] == {"quarter_turns": 1, "direction": "counterclockwise"}
    assert s["event"]["arrow"] == "ccw90" and s["history"][-1]["arrow"] == "ccw90"
    for bad, error in (("arrow ccw90", IllegalMove), ("arrow up", BadArguments), ("arrow", BadArguments)):
        with pytest.raises(error):
            run(s, bad)
    assert run(s, "end-round")["turned"] == -90              # the printed arrow's turn, not the data's 180°
    run(s, "event arrow=cw90")                 # round 2: the board turned 90° back, the token's province faces Ross
    assert run(s, "arrow ccw180")["first"] == view(s)["first"] == "Ross" == s["history"][-1]["first"]
    assert view(s)["order"] == ["Ross", "Mary", "Henry", "Jack"]


def test_nine_events_are_nine_different_cards_and_then_the_game_ends():  # G-1, G-2
    s = new()
    drawn = []
    for r in range(1, 10):
        out = run(s, "event")
        assert out["round"] == r
        drawn.append(out["card"]["id"])
        end = run(s, "end-round")
    assert len(set(drawn)) == 9 and end["finished"] is True
    with pytest.raises(GameOver):
        run(s, "event")
    with pytest.raises(GameOver):
        run(s, "vote Jack")


def test_event_draws_are_reproducible_from_the_seed():  # G-2
    a, b, c = new(seed=7), new(seed=7), new(seed=8)
    assert a["deck"] == b["deck"]
    assert a["deck"] != c["deck"]
    assert sorted(a["deck"]) == sorted(c["deck"])


def test_the_arrow_reply_is_the_event_fields_its_doc_names():  # G-2, G-17
    """docs/protocol/glory.md said 'arrow' answers "the fields of `event`", but in the Emperor's solo
    it left out `solo_denarii`, rightly: the denarii (1 per supporter) are taken as the card is
    revealed (G-17: «Откройте карту события … получите по одному денарию за каждого завербованного
    сторонника»), and the card's arrows, said later, give none again. The doc names the fields the
    reply has, and says which of the event's it has not."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs/protocol/glory.md").read_text(encoding="utf-8")
    para = doc[doc.index("`arrow <cw90"):]
    para = para[:para.index("\n\n")]
    s = new("players=Jack seed=2")
    event = run(s, "event arrow=cw90")
    run(s, "fame Jack +5")                          # a supporter more since the reveal (G-6)
    arrow = run(s, "arrow ccw180")
    assert event["solo_denarii"] == 1 and "solo_denarii" not in arrow
    assert set(arrow) == set(event) - {"solo_denarii"}
    for field in arrow:
        assert f"`{field}`" in para, field
    assert "not `solo_denarii`" in para


def test_arrow_colour_sets_the_direction_of_play():  # G-2: blue clockwise, orange counter-clockwise
    s = new()
    out = run(s, "event arrow=ccw90")
    assert out["direction"] == "counterclockwise"
    assert out["order"] == ["Jack", "Ross", "Mary", "Henry"]
    s = new()
    out = run(s, "event arrow=cw180")
    assert out["order"] == ["Jack", "Henry", "Mary", "Ross"]


@pytest.mark.parametrize("arrow, first", [("cw90", "Henry"), ("cw180", "Mary"),
                                          ("ccw90", "Ross"), ("ccw180", "Mary")])
def test_the_token_turns_with_the_board(arrow: str, first: str):  # G-2
    s = new()
    run(s, f"event arrow={arrow}")
    run(s, "end-round")
    assert run(s, "event arrow=cw90")["first"] == first


def test_rotation_moves_the_provinces_in_front_of_players():  # G-2
    s = new()
    before = GAME.view(s)["facing"]
    run(s, "event arrow=cw90")
    after = run(s, "end-round")["facing"]
    players = ["Jack", "Henry", "Mary", "Ross"]
    for i, name in enumerate(players):   # turning clockwise hands each province to the next seat
        assert after[players[(i + 1) % 4]] == before[name]


def test_clockwise_variant_always_turns_90_clockwise():  # G-2, Clockwise variant
    s = new("players=Jack,Henry,Mary,Ross clockwise=1")
    out = run(s, "event arrow=ccw180")
    assert out["direction"] == "counterclockwise"          # the card still gives the turn order
    assert out["rotation"] == {"quarter_turns": 1, "direction": "clockwise"}
    run(s, "end-round")
    assert run(s, "event")["first"] == "Henry"


def test_first_option_places_the_token():  # G-2
    s = new("players=Jack,Henry,Mary,Ross first=mary")
    assert run(s, "event arrow=cw90")["order"] == ["Mary", "Ross", "Jack", "Henry"]


def test_two_players_sit_opposite_and_an_empty_seat_passes_first_in_play_direction():  # G-2
    s = new("players=Jack,Henry")
    assert s["seats"] == {"Jack": 0, "Henry": 2}
    run(s, "event arrow=cw90")
    run(s, "end-round")                                      # the token now faces the empty seat 1
    assert run(s, "event arrow=cw90")["first"] == "Henry"    # clockwise from seat 1: seat 2
    s = new("players=Jack,Henry")
    run(s, "event arrow=cw90")
    run(s, "end-round")
    assert run(s, "event arrow=ccw90")["first"] == "Jack"    # counter-clockwise from seat 1: seat 0


def test_card_option_takes_that_card_out_of_the_deck():  # G-2 (physical deck)
    s = new()
    card = s["deck"][5]
    out = run(s, f"event card={card}")
    assert out["card"]["id"] == card and card not in s["deck"] and len(s["deck"]) == 11
    run(s, "end-round")
    with pytest.raises(IllegalMove):
        run(s, f"event card={card}")


def test_round_order_is_enforced():  # G-1
    s = new()
    with pytest.raises(IllegalMove):
        run(s, "end-round")
    run(s, "event")
    with pytest.raises(IllegalMove):
        run(s, "event")
    with pytest.raises(BadArguments):
        run(s, "end-round now")


def test_solo_event_pays_one_denarius_per_supporter_none_for_negative_cards():  # G-17
    s = new("players=Solo harsh=1")
    run(s, "fame Solo +11")                                   # 5 and 12: 3 supporters
    base = next(c["id"] for c in event_cards() if not c["harsh"])
    harsh = next(c["id"] for c in event_cards() if c["harsh"])
    assert run(s, f"event card={base}")["solo_denarii"] == 3
    run(s, "end-round")
    assert run(s, f"event card={harsh}")["solo_denarii"] == 0


# -- G-4 income ------------------------------------------------------------------------------
def test_rulebook_income_example():  # G-4
    s = new()
    for name, gain in (("Henry", 2), ("Mary", 6), ("Ross", 4)):
        run(s, f"fame {name} +{gain}")
    with pytest.raises(IllegalMove):                          # Jack on 1 cannot lose 2
        run(s, "tax Jack pop=3 double=1")
    assert run(s, "tax Jack pop=3")["denarii"] == 3
    out = run(s, "tax Henry pop=3 double=1")
    assert (out["denarii"], out["fame_lost"], out["fame"]["Henry"]) == (6, 2, 1)
    out = run(s, "tax Mary pop=6 double=1")
    assert (out["denarii"], out["fame_lost"], out["fame"]["Mary"]) == (12, 4, 3)
    assert run(s, "tax Ross pop=5")["denarii"] == 5


def test_the_state_says_who_has_taken_income_this_round():  # G-1, G-4
    """``taxed``: who has taken income this round, in that order (plain or double); refused taxes
    are not in it, the next round starts with none (the device's tax form opens on the first
    player in the round's order not in it). Each player takes income once a round (G-4: «каждый
    игрок выбирает, какой доход он хочет получить»): a second tax is refused and changes nothing."""
    s = new("players=Jack,Henry,Mary")
    run(s, "event")
    run(s, "fame Henry +4")
    run(s, "tax Mary pop=2")
    with pytest.raises(IllegalMove):
        run(s, "tax Jack pop=3 double=1")                    # Jack on 1 cannot lose 2: not taxed
    run(s, "tax Henry pop=3 double=1")
    before = json.dumps(s, sort_keys=True)
    for again in ("tax mary pop=2", "tax Henry pop=3 double=1"):
        with pytest.raises(IllegalMove, match="already"):
            run(s, again, asked=True)
    assert json.dumps(s, sort_keys=True) == before and view(s)["fame"]["Henry"] == 3
    stored = json.loads(before)        # an older Legatus took a second tax: its stored line replays as it ran
    assert run(stored, "tax Mary pop=2")["denarii"] == 2
    assert view(s)["taxed"] == ["Mary", "Henry"]
    run(s, "end-round")
    assert view(s)["taxed"] == []
    run(s, "event")
    assert run(s, "tax Mary pop=3")["denarii"] == 3          # the next round: income again


def test_double_tax_needs_the_penalty_when_the_dial_value_is_unknown():  # G-4
    s = new()
    run(s, "fame Jack +9")
    with pytest.raises(BadArguments):
        run(s, "tax Jack pop=4 double=1")
    out = run(s, "tax Jack pop=4 double=1 penalty=3")
    assert out["denarii"] == 8 and out["fame"]["Jack"] == 7


def test_double_tax_may_use_exactly_all_fame_above_one():  # G-4
    s = new()
    run(s, "fame Jack +4")                                    # 5, penalty 4 -> 1
    assert run(s, "tax Jack pop=5 double=1")["fame"]["Jack"] == 1


# -- medals ----------------------------------------------------------------------------------
def test_each_medal_has_one_holder():
    s = new()
    run(s, "medal Jack warrior")
    with pytest.raises(IllegalMove):
        run(s, "medal Mary warrior")
    with pytest.raises(BadArguments):
        run(s, "medal Mary general")
    assert GAME.view(s)["medals"]["warrior"] == "Jack"


def test_heroes_variant_has_no_medals():
    s = new("players=Jack,Henry heroes=1")
    with pytest.raises(IllegalMove):
        run(s, "medal Jack priest")


def test_priest_offering_buys_fame():
    s = new()
    with pytest.raises(IllegalMove):
        run(s, "offer Jack")
    run(s, "medal Jack priest")
    out = run(s, "offer Jack n=4")
    assert out["fame"]["Jack"] == 5 and out["denarii_paid"] == 12 and out["milestones"] == {"Jack": 1}


# -- G-19 random picks and objectives --------------------------------------------------------
def test_pick_names_a_position_in_the_hand_and_uses_every_position():  # G-19
    s = new(seed=3)
    positions = Counter(run(s, "pick 4")["position"] for _ in range(400))
    assert set(positions) == {1, 2, 3, 4}
    assert min(positions.values()) > 60
    with pytest.raises(BadArguments):
        run(s, "pick 0")


def test_pick_is_from_a_hand_of_at_most_five_cards():  # G-19
    """«Продано!» and «Таможенные сборы» pick from the opponent's hand, which holds at most five
    cards («до пяти карт товаров, включая карту якоря»): a hand of 6 to 20 was picked from, a
    position no card of the table can hold; refused, nothing drawn (the form stops at 5 too)."""
    from firmware.screens.glory.round import pick_form
    from tests.fakectx import FakeCtx
    s = new(seed=3)
    assert run(s, "pick 5")["hand"] == 5
    before = copy.deepcopy(s)
    for line in ("pick 6", "pick 20"):
        with pytest.raises(BadArguments):
            run(s, line)
        assert s == before
    ctx = FakeCtx("new glory players=Jack,Henry seed=1").open(pick_form())
    ctx.press("right", "right", "a")                # 5 is the most: a push past it stays on 5
    assert ctx.lines[-1] == "pick 5"


@pytest.mark.parametrize("line", ["pick ²", "sheet Jack tools ³"])
def test_a_number_int_cannot_read_is_refused_and_changes_nothing(line: str):  # G-19, G-12
    """«pick ²» crashed (internal_error): ``isdigit`` holds superscripts that ``int`` cannot read."""
    s = new(seed=3)
    before = copy.deepcopy(s)
    with pytest.raises(BadArguments):
        run(s, line)
    assert s == before


def test_pick_is_determined_by_the_state():  # G-19 (undo restores the generator: no re-roll)
    a, b = new(seed=11), new(seed=11)
    assert [run(a, "pick 5")["position"] for _ in range(5)] == [run(b, "pick 5")["position"] for _ in range(5)]


def test_deal_three_objectives_each_and_keep_two():  # G-19
    s = new()
    hands = run(s, "deal")["hands"]
    cards = [c["id"] for h in hands.values() for c in h]
    assert all(len(h) == 3 for h in hands.values()) and len(set(cards)) == 12
    jack = [c["id"] for c in hands["Jack"]]
    out = run(s, f"keep Jack {jack[0]},{jack[2]}")
    assert [c["id"] for c in out["kept"]] == [jack[0], jack[2]]
    assert s["objectives"]["deck"][-1] == jack[1]           # back to the bottom of the deck
    with pytest.raises(IllegalMove):
        run(s, "deal")
    with pytest.raises(IllegalMove):
        run(s, f"keep Jack {jack[0]},{jack[2]}")
    assert GAME.view(s)["objectives"] == {"Jack": 2, "Henry": 3, "Mary": 3, "Ross": 3}


def test_truce_and_heroes_remove_their_objective_cards():
    removed_by_truce = {c["id"] for c in objective_cards() if "truce" in c["removed_by"]}
    removed_by_heroes = {c["id"] for c in objective_cards() if "heroes" in c["removed_by"]}
    assert len(removed_by_truce) == 2 and len(removed_by_heroes) == 6
    s = new("players=Jack,Henry truce=1 heroes=1")
    assert not (set(s["objectives"]["deck"]) & (removed_by_truce | removed_by_heroes))
    assert len(s["objectives"]["deck"]) == 23 - 8


# -- setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", ["", "players=A,B,C,D,E", "players=A,a", "players=A,B first=C",
                                     "players=A,B fame=1", "players=A,B harsh=maybe", "players=A,B colour=red",
                                     "players=A,B provinces=X,Y,Z",
                                     "players=A,B fame=1,²"])        # (int() cannot read «²»: it crashed)
def test_bad_new_options(options: str):
    with pytest.raises(BadArguments):
        new(options)


def test_view_shows_the_whole_table():
    v = GAME.view(new())
    assert v["round"] == 1 and v["rounds"] == 9 and v["event"] is None
    assert v["first"] == "Jack" and v["senate"] == [] and v["markers"] == {"12": 12, "21": 21, "30": 30}
    assert v["supporters"] == {"Jack": 1, "Henry": 1, "Mary": 1, "Ross": 1}
