"""The Senate column and supremacy (G-7), through ``vote`` and ``unvote``."""
from __future__ import annotations

import json

import pytest

from engine.errors import BadArguments, IllegalMove
from engine.glory.senate import place_vote
from tests.test_glory_helpers import new, run


def test_column_holds_five_and_a_sixth_pushes_out_the_bottom():  # G-7
    s = new()
    for name in ("Jack", "Mary", "Henry", "Mary", "Ross"):
        run(s, f"vote {name}")
    out = run(s, "vote Henry")
    assert out["senate"] == ["Mary", "Henry", "Mary", "Ross", "Henry"]   # bottom -> top
    assert out["pushed_out"] == ["Jack"]
    assert out["supremacy"] is False


def test_third_vote_in_a_row_on_top_is_a_supremacy_worth_2():  # G-7
    s = new()
    run(s, "vote Jack")
    run(s, "vote Henry")
    assert run(s, "vote Henry")["supremacy"] is False      # two on top: not yet
    out = run(s, "vote Henry")
    assert out["supremacy"] is True
    assert out["fame"]["Henry"] == 3                        # 1 + 2


def test_rulebook_boosted_action_gives_two_supremacies():  # G-7: Henry's example, +2 twice
    s = new()
    for name in ("Jack", "Henry", "Henry"):
        run(s, f"vote {name}")
    out = run(s, "vote Henry n=2")
    assert out["supremacies"] == 2 and out["fame_gained"] == 4
    assert out["fame"]["Henry"] == 5
    assert out["milestones"] == {"Henry": 1}                # the fame moves at once: 5 reached


def test_removing_never_makes_a_supremacy_but_the_next_placement_can():  # G-7: Ross's re-vote
    s = new()
    for name in ("Ross", "Ross", "Mary", "Ross"):
        run(s, f"vote {name}")
    out = run(s, "unvote Mary")
    assert out["senate"] == ["Ross", "Ross", "Ross"]
    assert fame_of(s, "Ross") == 1                        # three on top after a removal: nothing
    out = run(s, "vote Ross")
    assert out["supremacy"] is True and out["fame"]["Ross"] == 3


def test_rulebook_mary_supremacy_then_push_out_of_her_own_vote():  # G-7: Mary's 6th vote
    s = new()
    for name in ("Mary", "Jack", "Mary", "Mary", "Mary"):
        run(s, f"vote {name}")                              # the 5th is already a supremacy: 3
    out = run(s, "vote Mary")
    assert out["supremacy"] is True
    assert out["pushed_out"] == ["Mary"]
    assert out["senate"] == ["Jack", "Mary", "Mary", "Mary", "Mary"]
    out = run(s, "vote Mary")
    assert out["supremacy"] is True and out["pushed_out"] == ["Jack"]
    assert out["fame"]["Mary"] == 7


def test_a_player_with_all_five_votes_in_the_column_has_none_left_to_place():  # G-7
    # Each player owns 5 vote pieces (20 in the box; «Голоса 4/5» on a board); the rulebook's Mary
    # places her last one («все пять ее голосов разыграны») and gets one back only when the 6th
    # vote pushes her bottom one out. With all five of hers in the column she has nothing to place:
    # the device gave her another supremacy (+2) for a vote that does not exist.
    s = new()
    for _ in range(5):
        run(s, "vote Mary")
    before = json.loads(json.dumps(s))
    for line in ("vote Mary", "vote Mary n=2"):
        with pytest.raises(IllegalMove) as e:
            run(s, line)
        assert "Mary" in str(e.value.args[0]) and s == before          # refused, nothing changed
    s = new()
    for name in ("Jack", "Mary", "Mary", "Mary", "Mary"):
        run(s, f"vote {name}")
    with pytest.raises(IllegalMove):          # her 5th piece goes on (Jack's goes back), a 6th cannot
        run(s, "vote Mary n=2")
    assert run(s, "vote Mary")["senate"] == ["Mary"] * 5
    run(s, "unvote Mary at=1")                # an intrigue sends one back to her board: placeable
    assert run(s, "vote Mary")["supremacy"] is True


@pytest.mark.parametrize("lang, said", [
    ("en", "Mary has only one vote left on the board: place it as a single vote."),
    ("ru", "У игрока Mary на планшете остался один голос: поставьте только его."),
    ("uk", "У гравця Mary на планшеті лишився один голос: поставте лише його."),
])
def test_a_boosted_vote_with_one_vote_left_says_one_is_left(lang, said):  # G-7
    """Mary has 4 votes in the column and 1 on her board; her boosted action's second vote has none
    once the first pushes Jack's out. The refusal said «all 5 of Mary's votes are in the column:
    none is left on the board» — untrue as she asked, with one on her board to place."""
    from firmware.i18n import say, set_language
    s = new()
    for name in ("Jack", "Mary", "Mary", "Mary", "Mary"):
        run(s, f"vote {name}")
    set_language(lang)
    try:
        with pytest.raises(IllegalMove) as e:
            run(s, "vote Mary n=2")
        assert say(e.value.args[0]) == said
    finally:
        set_language("en")
    assert run(s, "vote Mary")["senate"] == ["Mary"] * 5         # the one left is placed alone


def test_politician_medal_makes_supremacy_worth_3():  # G-7
    s = new()
    run(s, "medal Jack politician")
    for _ in range(3):
        out = run(s, "vote Jack")
    assert out["fame"]["Jack"] == 4


def test_someone_elses_vote_between_breaks_the_run():  # G-7
    s = new()
    for name in ("Jack", "Jack", "Mary"):
        run(s, f"vote {name}")
    assert run(s, "vote Jack")["supremacy"] is False


def test_unvote_needs_a_position_when_ambiguous():
    s = new()
    for name in ("Jack", "Mary", "Jack"):
        run(s, f"vote {name}")
    before = dict(s)
    with pytest.raises(IllegalMove):
        run(s, "unvote Jack")
    with pytest.raises(IllegalMove):
        run(s, "unvote Jack at=2")
    with pytest.raises(IllegalMove):
        run(s, "unvote Ross")
    assert s == before
    assert run(s, "unvote Jack at=3")["senate"] == ["Jack", "Mary"]


def test_vote_checks_its_arguments():
    s = new()
    for bad in ("vote", "vote Jack Mary", "vote Jack n=3", "vote Zed", "vote Jack x=1"):
        with pytest.raises(BadArguments):
            run(s, bad)
    assert s["senate"] == []


def test_place_vote_is_pure_on_the_column():  # G-7
    column = ["A", "B", "B"]
    placed = place_vote(column, "B")
    assert placed.supremacy and placed.pushed_out is None and column == ["A", "B", "B", "B"]


def fame_of(state: dict, name: str) -> int:
    return int(state["fame"][name])
