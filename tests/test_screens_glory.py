"""Glory of Rome screens: golden screens (pixel-exact through luma's dummy device) and what the
keys do (every change goes through a journaled console line)."""
from __future__ import annotations

import json

import pytest

from firmware.screens.glory import FameAdjust, ScoreDetail, ScoreEntry, ScoreResult, SenateScreen
from tests.screens import app_with, assert_golden, check_case
from tests.test_glory_scoring import EXAMPLE

NEW = "new glory players=Jack,Henry,Mary,Ross seed=5"
TABLE = [NEW, "fame Mary +10", "fame Jack +11", "fame Ross +3",
         "vote Mary", "vote Henry", "vote Henry", "vote Henry", "vote Ross"]

CASES = {
    "glory_setup": ([], ["a", "down", "down", "a"]),
    "glory_home": (TABLE, ["a"]),
    "glory_fame": (TABLE, ["a", "a"]),
    "glory_fame_adjust": (TABLE, ["a", "a", "down", "a", "up", "up", "right"]),
    "glory_senate": (TABLE, ["a", "down", "a", "down", "down"]),
    "glory_event": (TABLE + ["event arrow=ccw90"], ["a", "down", "down", "a"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    check_case(CASES, name, state_dir)


def test_golden_final_score_of_the_rulebook_example(state_dir):  # G-16
    app = app_with([NEW], ["a"], state_dir)
    try:
        result = app.run("score " + json.dumps(EXAMPLE))
        app.push(ScoreResult(result))
        assert_golden(app.render(), "glory_score")
        app.handle("a")                       # Henry, the winner, first
        assert isinstance(app.stack[-1], ScoreDetail)
        assert_golden(app.render(), "glory_score_detail")
    finally:
        app.console.close()


def test_fame_adjust_applies_the_change_and_announces_milestones(state_dir):  # G-6
    app = app_with([NEW, "fame Mary +10", "fame Jack +6"], ["a", "a"], state_dir)
    try:
        for key in ("a", "up", "up", "up", "a"):   # Jack: +1 -> +4, applied: 7 -> 11
            app.handle(key)
        assert app.console.session.lines[-1] == "fame Jack +4"
        assert app.view()["fame"]["Jack"] == 11
        app.handle("a")
        app.handle("a")                           # Jack +1 -> 12: the 12 marker, then Mary on 11
        assert app.view()["markers"]["12"] == 10
        assert app.message and "Mary +1 supporter" in " ".join(app.message)
    finally:
        app.console.close()


def test_senate_votes_and_boosted_double_vote(state_dir):  # G-7
    app = app_with([NEW, "vote Henry", "vote Henry"], ["a", "down", "a", "down"], state_dir)
    try:
        assert isinstance(app.stack[-1], SenateScreen)
        app.handle("a:hold")                      # Henry: two votes, two supremacies
        assert app.console.session.lines[-1] == "vote Henry n=2"
        assert app.view()["fame"]["Henry"] == 5
        assert app.message and "Supremacy" in " ".join(app.message)
    finally:
        app.console.close()


def test_setup_starts_a_game_with_the_chosen_players(state_dir):
    app = app_with([], ["a", "down", "down", "a", "left", "down", "right", "a"], state_dir)
    try:
        view = app.view()
        assert view["game"] == "glory" and view["players"] == ["P1", "P2", "P3"]
        assert view["options"]["harsh"] is True
    finally:
        app.console.close()


def test_score_entry_sends_the_sheet_and_shows_the_ranking(state_dir):  # G-9, G-14
    app = app_with([NEW, "fame Jack +9"], ["a"], state_dir)
    try:
        entry = ScoreEntry(app)
        app.push(entry)
        app.handle("down")                         # Jack's sheet
        app.handle("a")
        for _ in range(9):
            app.handle("down")                     # to Denarii
        for _ in range(8):
            app.handle("right")                    # 8 denarii -> 2 fame
        app.handle("a")
        for _ in range(4):
            app.handle("down")                     # Epirus (shield 2)
        app.handle("a")
        app.handle("right")
        app.handle("right")                        # Jack 2 legions: conquered, 1st
        app.handle("b")
        for _ in range(5):
            app.handle("up")                       # back to "Show scores"
        app.handle("a")
        shown = app.stack[-1]
        assert isinstance(shown, ScoreResult)
        jack = shown.result["scores"]["Jack"]
        assert (jack["track"], jack["denarii"], jack["military"], jack["total"]) == (10, 2, 5, 17)
        assert shown.result["winners"] == ["Jack"]
    finally:
        app.console.close()


def test_fame_adjust_refuses_zero(state_dir):
    app = app_with([NEW], ["a", "a", "a", "down", "a"], state_dir)
    try:
        assert isinstance(app.stack[-1], FameAdjust) and app.console.session.lines == []
        assert app.message is not None
    finally:
        app.console.close()
