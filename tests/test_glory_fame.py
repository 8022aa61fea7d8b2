"""Fame track and milestones (G-5, G-6), through the engine and the ``fame`` command."""
from __future__ import annotations

import pytest

from engine.errors import BadArguments, GameOver
from engine.glory import fame as F
from engine.glory.console import GAME
from tests.test_glory_helpers import new, run


def at(state: dict, **fame: int) -> None:
    """Put players on given totals without milestones (setting up a position)."""
    for name, total in fame.items():
        state["fame"][name] = total


# -- G-5: the track ------------------------------------------------------------------------
def test_track_flips_past_30_and_counts_30_plus_space():  # G-5
    assert F.track_position(30) == (30, 0)
    assert F.track_position(31) == (1, 1)      # Jack on space 1 with "+30" up scores 31
    assert F.track_position(47) == (17, 1)
    assert F.track_position(61) == (1, 2)


def test_fame_never_goes_below_one():  # G-5
    s = new()
    run(s, "fame Jack +2")
    out = run(s, "fame Jack -5")
    assert out["fame"]["Jack"] == 1 and out["floored"] is True
    out = run(s, "fame Jack -1")
    assert out["fame"]["Jack"] == 1


def test_fame_gain_past_30_keeps_counting():  # G-5
    s = new()
    out = run(s, "fame Mary +35")
    assert out["fame"]["Mary"] == 36
    assert GAME.view(s)["track"]["Mary"] == {"space": 6, "flips": 1}


def test_fame_needs_a_signed_change():
    s = new()
    for bad in ("fame Jack 3", "fame Jack", "fame Jack +x", "fame Nobody +1", "fame Jack +0"):
        with pytest.raises(BadArguments):
            run(s, bad)
    assert s == new()


def test_names_match_in_any_case():
    s = new()
    assert run(s, "fame mary +2")["fame"]["Mary"] == 3


# -- G-6: milestones -------------------------------------------------------------------------
def test_personal_milestone_at_5_once():  # G-6
    s = new()
    out = run(s, "fame Mary +7")           # rulebook: Mary gains 7 and passes 5
    assert out["milestones"] == {"Mary": 1}
    assert out["supporters"]["Mary"] == 2
    run(s, "fame Mary -4")                 # double tax takes her back to 4
    assert GAME.view(s)["supporters"]["Mary"] == 2   # a supporter is kept for good
    out = run(s, "fame Mary +3")
    assert out["milestones"] == {}          # passing 5 again gives nothing


def test_rulebook_example_marker_moves_onto_mary():  # G-6: Jack reaches 12 -> 11, Mary on 11 -> 10
    s = new()
    at(s, Jack=10, Mary=11, Henry=3, Ross=2)
    s["earned"].update(Jack=[5], Mary=[5])
    out = run(s, "fame Jack +2")
    assert out["milestones"] == {"Jack": 1, "Mary": 1}
    assert out["markers"]["12"] == 10
    assert [(m["player"], m["space"]) for m in out["milestone_events"]] == [("Jack", 12), ("Mary", 11)]


def test_rulebook_example_two_players_on_the_landing_space():  # G-6: Mary and Henry on 11 -> 9
    s = new()
    at(s, Jack=10, Mary=11, Henry=11, Ross=2)
    s["earned"].update(Jack=[5], Mary=[5], Henry=[5])
    out = run(s, "fame Jack +3")
    assert out["milestones"] == {"Jack": 1, "Mary": 1, "Henry": 1}
    assert out["markers"]["12"] == 9


def test_chain_continues_while_the_marker_lands_on_new_earners():  # G-6
    s = new()
    at(s, Jack=11, Mary=20, Henry=19, Ross=18)
    s["earned"].update(Jack=[5, 12], Mary=[5, 12], Henry=[5, 12], Ross=[5, 12])
    out = run(s, "fame Jack +10")          # Jack reaches 21 -> 20 (Mary) -> 19 (Henry) -> 18 (Ross) -> 17
    assert out["milestones"] == {"Jack": 1, "Mary": 1, "Henry": 1, "Ross": 1}
    assert out["markers"]["21"] == 17


def test_chain_stops_on_an_empty_space():  # G-6
    s = new()
    at(s, Jack=11, Mary=19, Henry=3, Ross=2)
    s["earned"].update(Jack=[5, 12], Mary=[5, 12])
    out = run(s, "fame Jack +10")          # 21 -> 20: nobody there, Mary on 19 waits
    assert out["milestones"] == {"Jack": 1}
    assert out["markers"]["21"] == 20
    out = run(s, "fame Mary +1")            # Mary now reaches the marker on 20
    assert out["milestones"] == {"Mary": 1}
    assert out["markers"]["21"] == 19


def test_one_gain_can_pass_several_milestones():  # G-6
    s = new()
    out = run(s, "fame Ross +22")          # 1 -> 23: passes 5, 12 and 21
    assert out["milestones"] == {"Ross": 3}
    assert out["supporters"]["Ross"] == 4
    assert out["markers"] == {"12": 11, "21": 20, "30": 30}


def test_at_most_five_supporters():  # G-6: 1 + 4
    s = new()
    out = run(s, "fame Henry +40")
    assert out["milestones"] == {"Henry": 4}
    assert out["supporters"]["Henry"] == 5
    out = run(s, "fame Henry +30")
    assert out["milestones"] == {} and out["supporters"]["Henry"] == 5


def test_a_marker_is_earned_once_per_player_even_after_falling_back():  # G-6
    s = new()
    run(s, "fame Jack +11")                 # Jack 12: earns 12, marker -> 11
    run(s, "fame Jack -5")
    out = run(s, "fame Jack +10")
    assert out["milestones"] == {}
    assert out["markers"]["12"] == 11


def test_a_loss_never_earns_a_milestone():  # G-6
    s = new()
    at(s, Mary=13)
    s["earned"]["Mary"] = [5]
    out = run(s, "fame Mary -1")           # onto 12 from above: only reaching by gain counts
    assert out["milestones"] == {}


def test_starting_fame_from_the_character_boards():  # G-5, G-6
    s = new("players=Jack,Henry,Mary fame=1,3,2")
    assert GAME.view(s)["fame"] == {"Jack": 1, "Henry": 3, "Mary": 2}
    assert GAME.view(s)["supporters"] == {"Jack": 1, "Henry": 1, "Mary": 1}


def test_fame_can_be_corrected_after_round_9_but_not_voted():
    # issue 24 §2: after round 9 (G-15) fame is still corrected until the score is final (the
    # session's end refuses it then); the Senate and the events are over
    s = new("players=Jack,Henry")
    s["finished"] = True
    run(s, "fame Jack +1")
    assert s["fame"]["Jack"] == 2
    with pytest.raises(GameOver):
        run(s, "vote Jack")


@pytest.mark.parametrize("lang, one, several", [
    ("en", "Jack passes milestone 5 (space 5): +1 supporter.",
     "Mary passes milestone 5 (space 5); Mary passes milestone 12 (space 12): +1 supporter for each milestone."),
    ("ru", "Jack проходит веху 5 (ячейка 5): +1 сторонник.",
     "Mary проходит веху 5 (ячейка 5); Mary проходит веху 12 (ячейка 12): +1 сторонник за каждую веху."),
    ("uk", "Jack проходить віху 5 (клітинка 5): +1 прихильник.",
     "Mary проходить віху 5 (клітинка 5); Mary проходить віху 12 (клітинка 12): +1 прихильник за кожну віху."),
])
def test_the_logs_milestone_sentence_gives_one_supporter_per_milestone_not_one_each(lang, one, several):  # G-6
    """One player passing one milestone gets one supporter: the log (and the undo question) said
    «+1 сторонник каждому» — a supporter for every player — after a single milestone too."""
    from firmware.i18n import say, set_language
    from tests.test_glory_helpers import parse
    s = new()
    fame = GAME.commands["fame"].handler
    set_language(lang)
    try:
        assert say(fame(s, parse("fame Jack +4")).log).endswith(one)
        assert say(fame(s, parse("fame Mary +11")).log).endswith(several)
    finally:
        set_language("en")
