"""Final scoring (G-8..G-16), achievements (G-20) and the Emperor's solo goals (G-17), through
the sessionless ``score <json>`` and the session's own ``score``."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.errors import BadArguments, BadJson
from engine.game import Request
from engine.glory.console import SCORE
from engine.rng import Rng
from tests.test_glory_helpers import new, run

# The rulebook's worked example (G-16), as the players would enter it.
EXAMPLE: dict[str, Any] = {
    "players": [
        {"name": "Jack", "track": 29, "flipped": False, "medals": [],
         "sets": {}, "pantheon": {"own": 1}, "objectives": 0, "denarii": 12},
        {"name": "Henry", "track": 26, "medals": ["merchant"],
         "sets": {"weapons": 1, "clothing": 1}, "merchant_jewelry_jokers": 2,
         "pantheon": {"gold": 1, "bronze": 1, "own": 5}, "objectives": 3, "denarii": 3},
        {"name": "Mary", "track": 27, "medals": ["priest"],
         "sets": {"weapons": 1}, "pantheon": {"gold": 1, "own": 2}, "objectives": 0, "denarii": 6},
        {"name": "Ross", "track": 23, "medals": ["warrior"],
         "sets": {"jewelry": 1}, "pantheon": {"silver": 1, "own": 4}, "objectives": 6, "denarii": 10},
    ],
    "battlefields": [
        {"name": "Epirus", "shield": 2, "legions": {"Mary": 1, "Ross": 1}},
        {"name": "Macedonia", "shield": 3, "legions": {"Jack": 3, "Mary": 3, "Henry": 1}},
        {"name": "Thrace", "shield": 4, "legions": {"Henry": 3, "Jack": 2, "Ross": 1}},
    ],
    "senate": ["Mary", "Jack", "Henry", "Mary", "Ross"],
}


def score(data: Any) -> dict[str, Any]:
    text = data if isinstance(data, str) else json.dumps(data)
    return SCORE.handler(Request("score", rest=text), Rng(1))


def sheet(players: list[dict[str, Any]], battlefields: list[dict[str, Any]] | None = None,
          senate: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"players": players, "battlefields": battlefields or [], "senate": senate or []}
    out.update(extra)
    return out


def p(name: str, track: int = 10, **fields: Any) -> dict[str, Any]:
    return {"name": name, "track": track, **fields}


# -- G-16 ------------------------------------------------------------------------------------
def test_rulebook_worked_example():  # G-16
    out = score(EXAMPLE)
    rows = out["scores"]
    assert [rows[n][c] for n in ("Jack", "Henry", "Mary", "Ross")
            for c in ("track", "military", "politics", "trade", "religion", "objectives", "denarii")] == [
        29, 5, 2, 0, 1, 0, 3,
        26, 14, 3, 9, 11, 3, 0,
        27, 2, 6, 4, 6, 0, 2,
        23, 8, 6, 6, 7, 6, 2]
    assert {n: r["total"] for n, r in rows.items()} == {"Jack": 40, "Henry": 66, "Mary": 47, "Ross": 58}
    assert out["winners"] == ["Henry"]
    assert out["ranking"] == ["Henry", "Ross", "Mary", "Jack"]


def test_rulebook_example_military_detail():  # G-16, G-9
    fields = {f["name"]: f for f in score(EXAMPLE)["battlefields"]}
    epirus = {pl["name"]: (pl["place"], pl["points"]) for pl in fields["Epirus"]["places"]}
    assert epirus == {"Ross": (1, 5), "Mary": (2, 2)}          # the Warrior medal wins the tie
    macedonia = {pl["name"]: (pl["place"], pl["tied"], pl["points"]) for pl in fields["Macedonia"]["places"]}
    assert macedonia == {"Jack": (1, True, 0), "Mary": (1, True, 0), "Henry": (2, False, 4)}
    thrace = {pl["name"]: pl["points"] for pl in fields["Thrace"]["places"]}
    assert thrace == {"Henry": 10, "Jack": 5, "Ross": 3}


def test_session_score_takes_track_medals_and_senate_from_the_game():  # G-16 through a session
    s = new()
    for name, gain in (("Jack", 28), ("Henry", 25), ("Mary", 26), ("Ross", 22)):
        run(s, f"fame {name} +{gain}")
    for name, medal in (("Henry", "merchant"), ("Mary", "priest"), ("Ross", "warrior")):
        run(s, f"medal {name} {medal}")
    for name in EXAMPLE["senate"]:
        run(s, f"vote {name}")
    data = copy.deepcopy(EXAMPLE)
    del data["senate"]
    for pl in data["players"]:
        del pl["track"], pl["medals"]
        pl.pop("flipped", None)
    out = run(s, "score " + json.dumps(data))
    assert {n: r["total"] for n, r in out["scores"].items()} == {"Jack": 40, "Henry": 66, "Mary": 47, "Ross": 58}
    assert out["winners"] == ["Henry"]


def test_session_score_of_an_empty_sheet_uses_the_game_and_zeros():
    s = new("players=Jack,Henry")
    run(s, "fame Jack +4")
    out = run(s, "score {}")
    assert out["scores"]["Jack"]["track"] == 5 and out["scores"]["Jack"]["total"] == 5
    assert out["winners"] == ["Jack"]


def test_session_score_refuses_strangers():
    s = new("players=Jack,Henry")
    with pytest.raises(BadArguments):
        run(s, 'score {"players": [{"name": "Zed", "denarii": 4}]}')


# -- G-8 track -------------------------------------------------------------------------------
def test_flipped_marker_adds_30():  # G-8, G-5
    out = score(sheet([p("Jack", 1, flipped=True), p("Mary", 30)]))
    assert out["scores"]["Jack"]["track"] == 31 and out["scores"]["Mary"]["track"] == 30


def test_flipped_needs_a_space_on_the_track():  # G-8
    with pytest.raises(BadArguments):
        score(sheet([p("Jack", 31, flipped=True)]))



def test_without_a_session_every_player_needs_a_track_and_other_numbers_count_0():  # G-8
    """docs/protocol/glory.md said missing numbers count 0; the fame space is the exception without a
    session (the session gives it): a player without ``track`` is refused, naming the player."""
    with pytest.raises(BadArguments, match="Mary needs \"track\""):
        score(sheet([p("Jack", 12), {"name": "Mary", "denarii": 4}]))
    out = score(sheet([p("Jack", 12), p("Mary", 9)]))
    assert out["scores"]["Mary"]["total"] == 9 and out["scores"]["Jack"]["denarii"] == 0

# -- G-9 military ----------------------------------------------------------------------------
def test_unconquered_battlefield_scores_nothing():  # G-9
    out = score(sheet([p("A"), p("B"), p("C")], [{"shield": 4, "legions": {"A": 2, "B": 1}}]))
    assert out["battlefields"][0]["conquered"] is False
    assert all(r["military"] == 0 for r in out["scores"].values())


def test_exactly_the_shield_number_conquers():  # G-9
    out = score(sheet([p("A"), p("B"), p("C")], [{"shield": 4, "legions": {"A": 3, "B": 1}}]))
    assert out["scores"]["A"]["military"] == 10 and out["scores"]["B"]["military"] == 5


def test_tie_for_second_scores_nothing_and_the_next_takes_third():  # G-9
    out = score(sheet([p("A"), p("B"), p("C"), p("D")],
                      [{"shield": 4, "legions": {"A": 3, "B": 2, "C": 2, "D": 1}}]))
    mil = {n: r["military"] for n, r in out["scores"].items()}
    assert mil == {"A": 10, "B": 0, "C": 0, "D": 3}


def test_warrior_wins_a_three_way_tie_and_the_other_two_tie_for_second():  # G-9
    out = score(sheet([p("A"), p("B", medals=["warrior"]), p("C"), p("D")],
                      [{"shield": 4, "legions": {"A": 2, "B": 2, "C": 2, "D": 1}}]))
    mil = {n: r["military"] for n, r in out["scores"].items()}
    assert mil == {"A": 0, "B": 10, "C": 0, "D": 3}


def test_warrior_outside_the_tie_changes_nothing():  # G-9
    out = score(sheet([p("A"), p("B"), p("C", medals=["warrior"])],
                      [{"shield": 3, "legions": {"A": 2, "B": 2, "C": 1}}]))
    mil = {n: r["military"] for n, r in out["scores"].items()}
    assert mil == {"A": 0, "B": 0, "C": 4}


def test_rulebook_warrior_variant_of_macedonia():  # G-9: "if Jack had the Warrior medal"
    out = score(sheet([p("Jack", medals=["warrior"]), p("Mary"), p("Henry")],
                      [{"shield": 3, "legions": {"Jack": 3, "Mary": 3, "Henry": 1}}]))
    mil = {n: r["military"] for n, r in out["scores"].items()}
    assert mil == {"Jack": 8, "Mary": 4, "Henry": 0}          # 3rd place on a shield 3 scores nothing


def test_two_player_table():  # G-9: 2 players use 5/2, 4/-, 5/3
    fields = [{"shield": 2, "legions": {"A": 2, "B": 1}},
              {"shield": 3, "legions": {"A": 1, "B": 2}},
              {"shield": 4, "legions": {"A": 3, "B": 2}}]
    out = score(sheet([p("A"), p("B")], fields))
    assert out["scores"]["A"]["military"] == 5 + 0 + 5
    assert out["scores"]["B"]["military"] == 2 + 4 + 3


def test_three_and_four_players_use_the_full_table():  # G-9
    fields = [{"shield": 3, "legions": {"A": 2, "B": 1}}]
    three = score(sheet([p("A"), p("B"), p("C")], fields))
    two = score(sheet([p("A"), p("B")], fields))
    assert (three["scores"]["A"]["military"], three["scores"]["B"]["military"]) == (8, 4)
    assert (two["scores"]["A"]["military"], two["scores"]["B"]["military"]) == (4, 0)


def test_players_without_legions_take_no_place():  # G-9
    out = score(sheet([p("A"), p("B"), p("C")], [{"shield": 2, "legions": {"A": 2, "B": 0}}]))
    assert [pl["name"] for pl in out["battlefields"][0]["places"]] == ["A"]


# -- G-10 politics ---------------------------------------------------------------------------
def test_senate_positions_score_1_2_3_5_6_from_the_bottom_by_default():  # G-10
    out = score(sheet([p("A"), p("B")], senate=["A", "B", "B", "A", "A"]))
    assert out["scores"]["A"]["politics"] == 1 + 5 + 6 and out["scores"]["B"]["politics"] == 2 + 3


def test_senate_values_can_be_reversed():  # G-10: which end is 6 is unconfirmed
    out = score(sheet([p("A"), p("B")], senate=["A", "B"], senate_values=[6, 5, 3, 2, 1]))
    assert out["scores"]["A"]["politics"] == 6 and out["scores"]["B"]["politics"] == 5


def test_a_short_column_scores_from_the_bottom():  # G-10
    out = score(sheet([p("A"), p("B")], senate=["B", "A"]))
    assert out["scores"]["B"]["politics"] == 1 and out["scores"]["A"]["politics"] == 2


# -- G-11 trade, G-12 religion, G-14 denarii -------------------------------------------------
def test_trade_sets_by_type():  # G-11
    out = score(sheet([p("A", sets={"tools": 1, "clothing": 1, "jewelry": 1})]))
    assert out["scores"]["A"]["trade"] == 3 + 5 + 6


def test_more_than_three_sets_is_refused_unless_allowed():  # G-11
    with pytest.raises(BadArguments):
        score(sheet([p("A", sets={"tools": 2, "weapons": 2})]))
    out = score(sheet([p("A", sets={"tools": 2, "weapons": 2}, max_sets=4)]))
    assert out["scores"]["A"]["trade"] == 14


def test_jewelry_jokers_need_the_merchant_medal():  # G-11
    with pytest.raises(BadArguments):
        score(sheet([p("A", sets={"tools": 1}, merchant_jewelry_jokers=1)]))


def test_pantheon_parts():  # G-12
    out = score(sheet([p("A", pantheon={"gold": 1, "silver": 1, "own": 5}),
                       p("B", pantheon={"gold": 1, "bronze": 1, "own": 5})]))
    assert out["scores"]["A"]["religion"] == 4 + 3 + 5 and out["scores"]["B"]["religion"] == 4 + 2 + 5


# G-12: a level starts with the player's own parts and is finished by one common part (foundation:
# 2 own + 1, temple: 3 own + 1 on it); the first player to finish a foundation (a temple) takes its
# gold part, the second its silver, the others bronze; 2 or 3 players (and the solo) play without
# the silver foundation («уберите ... один серебряный фундамент»). The common parts of a table are
# therefore fixed by how many foundations and temples were finished: the score took any.
@pytest.mark.parametrize("pantheons, why", [
    ([{"gold": 1}], "a common part on no foundation"),
    ([{"gold": 1, "own": 1}], "the foundation's 2 own parts first"),
    ([{"gold": 1, "silver": 1, "own": 4}], "the temple's 3 own parts first"),
    ([{"own": 3}], "temple parts on an unfinished foundation"),
    ([{"gold": 1, "own": 2}, {"gold": 1, "own": 2}, {}, {}], "one gold foundation in the box"),
    ([{"bronze": 1, "own": 2}, {}, {}, {}], "bronze before the gold"),
    ([{"gold": 1, "own": 2}, {"bronze": 1, "own": 2}, {}, {}], "4 players: the silver foundation before bronze"),
    ([{"gold": 1, "own": 2}, {"silver": 1, "own": 2}, {}], "3 players: no silver foundation"),
    ([{"gold": 1, "silver": 1, "own": 5}], "the solo: the first temple is gold"),
])
def test_a_pantheon_the_rules_cannot_build_is_refused(pantheons: list[dict[str, int]], why: str):  # G-12
    players = [p(n, pantheon=x) for n, x in zip("ABCD", pantheons)]
    with pytest.raises(BadArguments):
        score(sheet(players))


def test_the_common_parts_go_gold_silver_bronze_in_the_order_levels_are_finished():  # G-12, G-16
    four = [{"gold": 1, "bronze": 1, "own": 5}, {"gold": 1, "own": 2}, {"silver": 1, "own": 4}, {"own": 1}]
    assert [score(sheet([p(n, pantheon=x) for n, x in zip("ABCD", four)]))["scores"][n]["religion"]
            for n in "ABCD"] == [11, 6, 7, 1]                  # the rulebook's Henry, Mary, Ross, Jack
    three = [{"gold": 1, "own": 2}, {"bronze": 1, "own": 3}, {"gold": 1, "bronze": 1, "own": 5}]
    assert score(sheet([p(n, pantheon=x) for n, x in zip("ABC", three)]))["scores"]["C"]["religion"] == 11
    assert score(sheet([p("S", pantheon={"gold": 2, "own": 5})]))["scores"]["S"]["religion"] == 13


@pytest.mark.parametrize("coins, priest, fame", [(3, False, 0), (7, False, 1), (8, False, 2),
                                                 (8, True, 2), (9, True, 3), (0, True, 0)])
def test_denarii_round_down(coins: int, priest: bool, fame: int):  # G-14
    out = score(sheet([p("A", denarii=coins, medals=["priest"] if priest else [])]))
    assert out["scores"]["A"]["denarii"] == fame


# -- G-15 winner -----------------------------------------------------------------------------
def test_tie_on_fame_goes_to_most_denarii():  # G-15
    out = score(sheet([p("A", 20, denarii=6), p("B", 21, denarii=1), p("C", 19, denarii=7)]))
    assert out["scores"]["A"]["total"] == out["scores"]["B"]["total"] == 21
    assert out["scores"]["C"]["total"] == 20                    # most coins, but not tied on fame
    assert out["winners"] == ["A"]


def test_tie_on_fame_and_denarii_is_a_shared_win():  # G-15
    out = score(sheet([p("A", 20, denarii=5), p("B", 20, denarii=5), p("C", 3)]))
    assert out["winners"] == ["A", "B"]


def test_places_are_shared_only_on_equal_fame_and_denarii():  # G-15
    out = score(sheet([p("A", 20, denarii=5), p("B", 20, denarii=5), p("C", 20, denarii=6), p("D", 3)]))
    assert out["places"] == {"C": 1, "A": 2, "B": 2, "D": 4}
    assert out["ranking"][0] == "C" and out["ranking"][-1] == "D"


def test_denarii_tie_break_uses_coins_not_their_fame():  # G-15: 7 and 6 coins both give 1 fame
    out = score(sheet([p("A", 20, denarii=6), p("B", 20, denarii=7)]))
    assert out["winners"] == ["B"]


def test_denarii_tie_break_counts_the_denarii_left_after_the_exchange():  # G-14, G-15
    """«Все денарии, обмененные на очки славы, возвращаются в запас» (G-14), then «побеждает игрок с
    наибольшим количеством денариев» (G-15): A's 8 coins give 2 fame and leave 0, B's 7 give 1 and
    leave 3; both total 22, and B wins and ranks first (the 8 coins typed gave it to A)."""
    out = score(sheet([p("A", 20, denarii=8), p("B", 21, denarii=7), p("C", 3, denarii=11)]))
    assert out["scores"]["A"]["total"] == out["scores"]["B"]["total"] == 22
    assert out["winners"] == ["B"]
    assert out["ranking"] == ["B", "A", "C"] and out["places"] == {"B": 1, "A": 2, "C": 3}
    assert out["denarii_left"] == {"A": 0, "B": 3, "C": 3}       # (C: 11 coins, 2 fame)
    priest = score(sheet([p("A", 19, denarii=9, medals=["priest"]), p("B", 21, denarii=4)]))
    assert priest["winners"] == ["A", "B"]          # 9 -> 3 fame, none left; 4 -> 1 fame, none left
    assert priest["places"] == {"A": 1, "B": 1}


# -- input errors ----------------------------------------------------------------------------
@pytest.mark.parametrize("data", [
    sheet([p("A")], [{"shield": 5, "legions": {"A": 5}}]),                  # no such shield
    sheet([p("A")], [{"shield": 2, "legions": {"Z": 2}}]),                  # not a player
    sheet([p("A", medals=["warrior"]), p("B", medals=["warrior"])]),        # one holder per medal
    sheet([p("A", medals=["general"])]),
    sheet([p("A", denari=3)]),                                              # misspelt field
    sheet([p("A"), p("a")]),                                                # same name twice
    sheet([p("A")], senate=["A"] * 6),
    sheet([p("A", pantheon={"gold": 2, "silver": 1})]),
    sheet([p("A", denarii=-1)]),
    sheet([p("A", track=0)]),
    sheet([p(n) for n in "ABCDE"]),
    {"players": [{"name": "A"}]},                                           # no track
    {"players": []},
])
def test_bad_sheets_are_refused_with_bad_arguments(data: Any):
    with pytest.raises(BadArguments):
        score(data)


def test_unparsable_json_is_bad_json():
    with pytest.raises(BadJson):
        score('{"players": [')
    with pytest.raises(BadJson):
        score("")


# -- G-20 achievements, G-17 solo ------------------------------------------------------------
def test_achievements():  # G-20
    big = p("A", 1, flipped=True, medals=["warrior", "politician", "merchant", "priest", "farmer"],
            sets={"jewelry": 3}, pantheon={"gold": 2, "own": 5}, objectives=20, denarii=40,
            objectives_done=4, enmity=0)
    fields = [{"shield": s, "legions": {"A": 4}} for s in (2, 3, 4)]
    out = score(sheet([big, p("B")], fields, senate=["B", "B", "A", "A", "A"]))
    got = set(out["achievements"]["A"])
    assert {"all_medals", "jewelry_sets_2", "jewelry_sets_3", "first_on_all_battlefields",
            "senate_12", "golden_pantheon", "objectives_4", "no_enmity", "fame_100"} <= got
    assert "track_61" not in got                                   # 31 on the track
    total = out["scores"]["A"]["total"]
    assert ("designers_113" in got) == (total >= 113)
    assert out["achievements"]["B"] == []


def test_track_61_and_designers_score():  # G-20
    out = score(sheet([p("A", 61, objectives=52), p("B", 60, objectives=52)]))
    assert "track_61" in out["achievements"]["A"] and "track_61" not in out["achievements"]["B"]
    assert "designers_113" in out["achievements"]["A"] and "designers_113" not in out["achievements"]["B"]


def test_emperor_solo_goals_and_rank():  # G-17
    me = p("Solo", 21, flipped=True, medals=["warrior", "priest", "farmer"], sets={"tools": 1, "weapons": 1},
           pantheon={"gold": 2, "own": 5}, objectives_done=2)
    fields = [{"shield": 2, "legions": {"Solo": 2}}, {"shield": 3, "legions": {"Solo": 3}},
              {"shield": 4, "legions": {"Solo": 1}}]
    out = score(sheet([me], fields, senate=["Solo"] * 4))
    solo = out["solo"]
    assert solo["goals"] == {"fame_51": True, "medals_3": True, "battlefields_2": True, "senate_4": True,
                             "sets_2": True, "pantheon": True, "objectives_2": True}
    assert solo["done"] == 7 and solo["rank"] == "child of Jupiter"
    assert out["scores"]["Solo"]["military"] == 5 + 4          # solo uses the 2-player table


def test_solo_ranks_by_goal_count():  # G-17: 4-5 Praetor, 6 Emperor, fewer: none
    base = p("S", 30, medals=["warrior", "priest", "farmer"], sets={"tools": 2},
             pantheon={"gold": 2, "own": 5})
    out = score(sheet([base], senate=["S"] * 4))
    assert out["solo"]["done"] == 4 and out["solo"]["rank"] == "Praetor"
    assert out["solo"]["unknown"] == ["objectives_2"]
    out = score(sheet([{**base, "objectives_done": 2}], senate=["S"] * 4))
    assert out["solo"]["done"] == 5 and out["solo"]["rank"] == "Praetor"
    out = score(sheet([{**base, "objectives_done": 2, "track": 21, "flipped": True}], senate=["S"] * 4))
    assert out["solo"]["done"] == 6 and out["solo"]["rank"] == "Emperor"
    out = score(sheet([p("S", 30)]))
    assert out["solo"]["rank"] is None


def test_the_solo_score_names_a_winner_by_the_title_and_no_place():  # G-17
    """«В этом режиме вы ни с кем не соревнуетесь, вместо этого вам нужно выполнять задачи»: the
    score named the lone player the winner (most fame) with no title and gave a place, 1, in a
    game with no ranking; now the winner is the player once a title is reached, and no place."""
    titled = p("S", 30, medals=["warrior", "priest", "farmer"], sets={"tools": 2}, pantheon={"gold": 2, "own": 5})
    won = score(sheet([titled], senate=["S"] * 4))
    assert won["solo"]["rank"] == "Praetor" and won["winners"] == ["S"] and won["places"] == {}
    lost = score(sheet([p("S", 30)]))
    assert lost["winners"] == [] and lost["places"] == {} and lost["ranking"] == ["S"]
    pair = score(sheet([p("S", 30), p("T", 20)]))                 # a table's score keeps its ranking
    assert pair["winners"] == ["S"] and pair["places"] == {"S": 1, "T": 2}
