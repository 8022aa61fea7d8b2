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


# -- the column corrected after round 9 (G-10) ---------------------------------------------------
def _nine_rounds(console, *votes: str) -> None:
    from tests.test_glory_oracle import ok
    ok(console, "new glory players=Jack,Henry,Mary,Ross seed=3")
    for name in votes:
        ok(console, f"vote {name}")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")


def test_after_round_9_the_senate_column_is_corrected_as_it_stands_and_the_score_follows(console):  # G-10, G-1
    """After round 9 no vote is placed (G-1), and the column is scored as it stands (G-10): a column
    the device kept apart from the table's (a vote missed, an intrigue not told) could be put right
    only by undoing back through round 9's end, while fame, medals and the score pad are corrected
    then. ``senate column=`` sets it as the table shows it: no supremacy, no fame; the score and
    History's record follow; undo takes the correction back."""
    from tests.test_glory_oracle import ok, refused
    _nine_rounds(console, "Jack", "Mary", "Mary", "Mary", "Ross")
    fame = ok(console, "state")["state"]["fame"]
    before = ok(console, "score")["scores"]
    assert (before["Mary"]["politics"], before["Henry"]["politics"]) == (2 + 3 + 5, 0)
    [game] = ok(console, "history")["games"]
    assert [p["name"] for p in game["players"] if p["winner"]] == ["Mary"]
    out = ok(console, "senate column=Jack,Henry,Henry,Henry,Ross")
    assert out["senate"] == ["Jack", "Henry", "Henry", "Henry", "Ross"]
    assert out["was"] == ["Jack", "Mary", "Mary", "Mary", "Ross"]
    state = ok(console, "state")["state"]
    assert state["senate"] == out["senate"] and state["fame"] == fame      # a correction: no supremacy (G-7)
    [game] = ok(console, "history")["games"]         # History follows the correction (its score asked again)
    assert [p["name"] for p in game["players"] if p["winner"]] == ["Henry"]
    after = ok(console, "score")["scores"]
    assert (after["Mary"]["politics"], after["Henry"]["politics"]) == (0, 2 + 3 + 5)
    assert ok(console, "log 1")["log"][0].endswith(
        "Correction: the Senate column, bottom to top, is now Jack, Henry, Henry, Henry, Ross "
        "(it was Jack, Mary, Mary, Mary, Ross).")
    ok(console, "senate column=")                                           # no vote in the column
    assert ok(console, "state")["state"]["senate"] == []
    ok(console, "undo")
    assert ok(console, "state")["state"]["senate"] == ["Jack", "Henry", "Henry", "Henry", "Ross"]
    refused(console, "senate column=Jack,Henry,Henry,Henry,Ross", "illegal_move")     # the same: nothing
    refused(console, "senate column=Jack,Bob", "bad_arguments")
    refused(console, "senate column=Jack,Jack,Jack,Mary,Mary,Ross", "bad_arguments")    # 6 votes
    refused(console, "senate Jack,Mary", "bad_arguments")
    ok(console, "score")
    ok(console, "end")                                                      # the score is final
    out = refused(console, "senate column=Jack", "game_over")
    assert out["message"].endswith(".") and " " in out["message"]


def test_during_the_rounds_the_senate_column_is_not_set_but_voted(console):  # G-7
    """During the 9 rounds votes are placed (each checked for supremacy, G-7) and taken out by
    intrigues: setting the column would skip both."""
    from tests.test_glory_oracle import ok, refused
    ok(console, "new glory players=Jack,Mary seed=3")
    ok(console, "vote Jack")
    out = refused(console, "senate column=Mary", "illegal_move")
    assert "after round 9" in out["message"]


@pytest.mark.parametrize("lang, said", [
    ("ru", "Исправление: колонна Сената снизу вверх теперь: Jack, Mary (было: нет голосов)."),
    ("uk", "Виправлення: колона Сенату знизу вгору тепер: Jack, Mary (було: немає голосів)."),
])
def test_the_senate_correction_is_a_whole_sentence_in_each_language(console, lang, said):  # G-10
    from tests.test_glory_oracle import ok
    _nine_rounds(console)
    ok(console, f"settings language={lang}")
    try:
        ok(console, "senate column=Jack,Mary")
        assert ok(console, "log 1")["log"][0].endswith(said)
    finally:
        ok(console, "settings language=en")


def test_a_session_with_a_senate_correction_resumes_exactly(state_dir):  # G-10
    """The correction is a journaled step: after a restart the column, the score and the undo are
    those of the session before it."""
    from firmware.console import Console
    from firmware.store import Store
    from tests.test_glory_oracle import ok
    store = Store(state_dir)
    c = Console(store, store.resume())
    _nine_rounds(c, "Mary", "Mary")
    ok(c, "senate column=Henry,Mary,Ross")
    state, score = ok(c, "state")["state"], ok(c, "score")["scores"]
    c.close()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert ok(c, "state")["state"] == state and ok(c, "score")["scores"] == score
        ok(c, "undo")
        assert ok(c, "state")["state"]["senate"] == ["Mary", "Mary"]
    finally:
        c.close()


@pytest.mark.parametrize("lang, said", [
    ("en", ["Correction: Senate position 2: Henry, not Mary.", "Correction: Senate position 2: Henry's vote taken out.",
            "Correction: Senate position 3: Jack's vote added on top."]),
    ("ru", ["Исправление: Сенат, позиция 2: Henry, а не Mary.", "Исправление: Сенат, позиция 2: голос игрока Henry убран.",
            "Исправление: Сенат, позиция 3: голос игрока Jack добавлен наверх."]),
    ("uk", ["Виправлення: Сенат, позиція 2: Henry, а не Mary.", "Виправлення: Сенат, позиція 2: голос гравця Henry прибрано.",
            "Виправлення: Сенат, позиція 3: голос гравця Jack додано нагору."]),
])
def test_a_correction_of_one_position_says_that_position(console, lang, said):  # G-10
    """The device corrects one position at a time: its log line (and the undo question read on the
    panel) says that position, not the whole column twice (five pages of the undo question)."""
    from tests.test_glory_oracle import ok
    _nine_rounds(console, "Jack", "Mary", "Ross")
    ok(console, f"settings language={lang}")
    try:
        for column in ("Jack,Henry,Ross", "Jack,Ross", "Jack,Ross,Jack"):
            ok(console, f"senate column={column}")
        assert ok(console, "log 3")["log"] == said
    finally:
        ok(console, "settings language=en")


@pytest.mark.parametrize("lang, correct", [
    ("en", "correct it: 'senate column=<names, bottom to top>'"),
    ("ru", "исправьте её: «senate column=<имена снизу вверх>»"),
    ("uk", "виправте її: «senate column=<імена знизу вгору>»"),
])
def test_a_vote_after_round_9_is_refused_pointing_to_the_senate_correction(console, lang, correct):  # G-1, G-10
    """After round 9 no vote is placed or taken out (G-1), but the column is corrected as it stands
    (G-10): `vote` and `unvote` then said only final scoring was left, as a pick does, leaving a
    player with a vote the device missed no way forward but undoing round 9. Now both refusals, in
    the player's language, say how to correct the column, and change nothing; the command they
    name is taken."""
    from tests.test_glory_oracle import ok, refused
    _nine_rounds(console, "Jack", "Mary")
    ok(console, f"settings language={lang}")
    try:
        vote = refused(console, "vote Mary", "game_over")["message"]
        assert correct in vote and vote.endswith(".")
        assert refused(console, "unvote Jack", "game_over")["message"] == vote
        assert vote != refused(console, "pick 3", "game_over")["message"]
        ok(console, "senate column=Jack,Mary,Mary")
        assert ok(console, "state")["state"]["senate"] == ["Jack", "Mary", "Mary"]
    finally:
        ok(console, "settings language=en")
