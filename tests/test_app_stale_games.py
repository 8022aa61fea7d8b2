"""The screens left on the stack after a change of the game (an undo, a line from the serial link)
show the state as it is now, game by game (firmware/app.py ``drop_stale``): none shows a step
taken back, none asks about a step that no longer exists — and none is taken off while what it
shows or asks still stands."""
from __future__ import annotations

from engine import actions as act
from tests.screens import app_with, say_yes

JC_SET_UP = ["new jc-battle seed=1", "deal", "discard caesar pluto", "discard pompey vulcan"]


def test_a_jc_battle_s_settings_stay_open_through_a_read_and_go_once_a_block_is_placed(state_dir):  # J-4, J-10
    """Battle → Battle settings (the battle set up, no block placed yet): a laptop reading the
    state over the serial link took the form off under the players' hands (it compared the battle
    with a next battle's, over); it goes once a block is placed (its settings are settled)."""
    from firmware.screens.jc.setup import battle_settings_form
    app = app_with(JC_SET_UP, [], state_dir)
    try:
        form = battle_settings_form(app)
        app.push(form)
        app.render()
        app.handle("right")                              # Pompey attacks (not sent yet)
        assert '"ok":true' in app.serve_line(b"state")
        assert app.stack[-1] is form and form.values()["attacker"] == 1
        app.serve_line(b"add attacker c_leg10")         # the battle's set-up goes on without it
        assert form not in app.stack and app.errors == 0
    finally:
        app.console.close()


def test_a_jc_next_battle_s_form_goes_once_the_next_battle_is_set_up_meanwhile(state_dir):  # J-4
    from firmware.screens.jc.setup import next_battle_form
    app = app_with(["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight"], [], state_dir)
    try:
        form = next_battle_form(app)
        app.push(form)
        app.render()
        app.serve_line(b"state")
        assert app.stack[-1] is form
        app.serve_line(b"next-battle")
        assert form not in app.stack and app.errors == 0
    finally:
        app.console.close()


CAMPAIGN_OVER = ["new jc-battle", "add attacker c_leg10", "add defender p_pompeius", "fight",
                 *(f"control {city} caesar" for city in
                   ("Roma", "Alexandria", "Antiochia", "Athenae", "Byzantium", "Ephesus", "Syracusae")), "winter"]


def _fair_draw_question(app, row: str):
    """History → Fair draw, the cursor on ``row``, A: its question."""
    from firmware.screens.fair_draw import FairDrawScreen
    fair = FairDrawScreen()
    app.push(fair)
    app.render()
    labels = [item.label for item in fair.items(app)]
    for _ in range(labels.index(row)):
        app.handle("down")
    app.handle("a")
    app.render()
    return app.stack[-1]


def test_show_the_seed_s_question_goes_with_an_undo_that_reopens_the_finished_game(state_dir):
    """Issue 20: the campaign over by its rules (J-19, all seven cities), Fair draw → Show the seed…
    asks first: «Showing the seed ends the game: its last move can no longer be undone.» Hold B on
    the question took the winter back — the game no longer finished — and the question stayed: A
    then showed the console's refusal, its command word and all («… or end it with 'end'.»)."""
    app = app_with([], [], state_dir)
    try:
        for line in CAMPAIGN_OVER:                        # (a secret seed: the code the App was given)
            assert app.run(act.Line(line))["ok"], line
        question = _fair_draw_question(app, "Show the seed…")
        assert "ends the game" in " ".join(question.rows)
        app.serve_line(b"state")
        assert app.stack[-1] is question
        app.handle("b:hold")
        app.render()
        say_yes(app)                                   # the winter taken back: the game goes on
        assert app.console.session.lines[-1] != "winter" and question not in app.stack
        assert app.console.session.ended is False and app.errors == 0
    finally:
        app.console.close()


def test_end_the_game_s_question_goes_once_the_serial_link_ended_it(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        question = _fair_draw_question(app, "End the session…")
        assert question.title == "End the session?"
        app.serve_line(b"roll 1d6")                       # a step: the question still holds
        assert app.stack[-1] is question
        app.serve_line(b"end")
        assert question not in app.stack and app.errors == 0
    finally:
        app.console.close()


def test_the_sword_s_played_when_question_goes_once_round_5_is_taken_back(state_dir):  # W-12
    """Round 5, Desperate Times marked: «Played when?» (the end of round 5, or interrupting). The
    serial link's ``undo`` took the round's start back — round 4 again — and the question stayed:
    «End of round 5: each plays one» then put the console's words on the panel («end=1 is the end
    of round 5 … (without end=1, rule 7.4.2)»). It goes with the step it asked about; a read leaves it."""
    from firmware.screens.sword.tracks import DesperateWhen
    app = app_with(["new sword players=romans,gauls seed=4", "advance", "advance", "advance", "advance"], [], state_dir)
    try:
        assert app.console.session.view()["round"] == 5
        question = DesperateWhen(["romans"])
        app.push(question)
        app.render()
        app.serve_line(b"state")
        assert app.stack[-1] is question
        app.serve_line(b"undo")
        assert app.console.session.view()["round"] == 4
        assert question not in app.stack and app.errors == 0
    finally:
        app.console.close()


def test_a_share_entered_after_a_draw_from_the_serial_link_is_refused_in_the_device_s_words(state_dir):
    """Fair draw → Players' share… → Dice from the table: the serial link rolled meanwhile, so
    no share can be given (issue 20: a share only before the first draw). A put the console's
    refusal on the panel, its commands and all («… send commit, then new ... share=<text>.»), and
    left the dice screen up; now the device says why in its words and goes back to Fair draw,
    whose row says it too."""
    from firmware.screens.fair_draw import FairDrawScreen
    app = app_with([], [], state_dir)
    try:
        assert app.run(act.Line("new dice"))["ok"]
        _fair_draw_question(app, "Players' share…")
        app.handle("a")                                   # Dice from the table…
        app.serve_line(b"roll 2d6")
        app.render()
        app.handle("a")                                   # the dice read: 1
        app.render()
        said = " ".join(app.message or []) + " ".join(getattr(app.stack[-1], "rows", []))
        assert "commit" not in said and "share=" not in said, said
        assert "none was given before the first draw" in " ".join(said.split()), said
        app.handle("b")
        assert isinstance(app.stack[-1], FairDrawScreen) and app.console.session.view()["share"] is None
        assert app.errors == 0
    finally:
        app.console.close()


def test_a_new_game_started_from_its_home_leaves_one_home_under_it(state_dir):
    """Julius Caesar's home → New game → A, A (the campaign in play ends): the new game's home
    took the form's place over the old game's home, and B from it showed the same home again —
    a B that did nothing to see; a second B left. One home now, B goes to the main menu."""
    from firmware.screens.jc.home import JcHome
    from firmware.screens.jc.setup import setup_form
    from firmware.screens.menu import MainMenu
    app = app_with(["new jc-battle seed=4", "add attacker c_leg10"], [], state_dir)
    try:
        app.push(JcHome())
        app.render()
        app.push(setup_form(home=JcHome))
        app.render()
        app.handle("a")                                   # start: the question (the campaign ends)
        app.render()
        app.handle("a")
        app.render()
        assert list(app.console.session.lines) == [] and [type(s) for s in app.stack] == [MainMenu, JcHome]
        app.handle("b")
        assert [type(s) for s in app.stack] == [MainMenu]
    finally:
        app.console.close()
