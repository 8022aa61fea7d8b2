"""The device's undo question is bound to the step it names (issue 20 §5): a serial request that
arrives between the question and the answer must not be what gets undone."""
from __future__ import annotations

from firmware.screens.widgets import ConfirmScreen
from tests.screens import app_with, say_yes


def _question(app) -> str:
    assert isinstance(app.stack[-1], ConfirmScreen)
    return " ".join(app.stack[-1].rows)


def test_a_serial_action_between_the_question_and_the_answer_is_not_undone(state_dir):
    app = app_with(["new bag items=a*3,b*3 seed=1", "draw"], [], state_dir)
    try:
        app.handle("b:hold")
        assert "Drew" in _question(app)
        named = list(app.console.session.lines)
        assert app.console.handle_text("roll 1d20") is not None          # the serial link, in between
        app.handle("a")                                                  # "yes" to the question shown
        assert app.console.session.lines == named + ["roll 1d20"]       # nothing was undone ...
        assert "1d20" in _question(app)                                  # ... the device asks again, naming it
        app.handle("a")
        assert app.console.session.lines == named                        # now the step it named is undone
        assert app.message and "Undone" in " ".join(app.message)
    finally:
        app.console.close()


def test_a_serial_undo_between_the_question_and_the_answer_asks_again(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], [], state_dir)
    try:
        app.handle("b:hold")
        assert "3d6" in _question(app)
        app.console.handle_text("undo")                                  # the serial link took it back
        app.handle("a")
        assert app.console.session.lines == ["roll 2d6"]                 # the 2d6 roll was not undone too
        assert "2d6" in _question(app)
        app.handle("b")                                                  # keep it
        assert app.console.session.lines == ["roll 2d6"]
    finally:
        app.console.close()


def test_a_new_game_started_over_serial_meanwhile_is_not_undone(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        app.handle("b:hold")
        app.console.handle_text("new bag items=a*2 seed=3")
        app.handle("a")
        assert app.console.session.game.name == "bag" and app.console.session.lines == []
        assert app.message and "Nothing to undo" in " ".join(app.message)
    finally:
        app.console.close()


def test_with_nothing_in_between_the_named_step_is_undone_at_once(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], ["b:hold", "a"], state_dir)
    try:
        assert app.console.session.lines == ["roll 2d6"]
        assert app.message and "Undone" in " ".join(app.message)
    finally:
        app.console.close()


def test_an_undo_in_the_dice_entry_takes_it_off_with_the_fire_it_waited_for(state_dir):
    """J-5/J-7: Pompey must place a hit; the device's undo on Pompeius's dice entry takes back that
    hit: the dice entry goes (it stayed, and A there was refused with the console's syntax), the
    battle screen asks who takes the hit again."""
    app = app_with(["new jc-battle attacker=caesar dice=physical seed=9", "add attacker c_caesar",
                    "add attacker c_leg10", "add defender p_pompeius", "add defender p_leg1", "start",
                    "fire c_caesar dice=1,2,6"], ["a", "b", "a", "a"], state_dir)   # (b: the roll said again, read: the battle)
    try:
        app.render()
        assert type(app.stack[-1]).__name__ == "JcDiceEntry"          # Pompeius's fire
        app.handle("b:hold")
        app.render()
        app.handle("a")                                                 # yes, take back the hit
        assert app.console.session.view()["battle"]["decision"]["kind"] == "hit"
        assert [type(s).__name__ for s in app.stack][:3] == ["MainMenu", "JcHome", "BattleScreen"]
        assert "JcDiceEntry" not in [type(s).__name__ for s in app.stack]
        while type(app.stack[-1]).__name__ != "BattleScreen":
            app.handle("b")                                             # the undo's note closes
        app.render()
        assert app.stack[-1].title.startswith("Pompey")
    finally:
        app.console.close()


def test_hold_b_again_on_the_undo_question_asks_once(state_dir):
    """A second hold B while the undo question is up does not stack a second question under it:
    after "yes" the screen under is never a question naming the step just taken back."""
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], [], state_dir)
    try:
        app.handle("b:hold")
        app.handle("b:hold")
        assert sum(isinstance(s, ConfirmScreen) for s in app.stack) == 1
        assert "3d6" in _question(app)
        app.handle("a")
        assert app.console.session.lines == ["roll 2d6"]
        assert not any(isinstance(s, ConfirmScreen) for s in app.stack)
    finally:
        app.console.close()


def _notes(app) -> list[str]:
    """The long notices on the stack (each a screen of its own), as their text."""
    from firmware.i18n import _
    from firmware.screens.widgets import TextScreen
    return [" ".join(s.rows) for s in app.stack if type(s) is TextScreen and s.title == _("Note")]


def _yes_to_undo(app) -> None:
    app.render()
    app.handle("b:hold")
    app.render()
    say_yes(app)
    app.render()


def test_hold_b_on_an_undos_note_and_undo_again_takes_the_old_note_off(state_dir):
    """J-5/J-7, physical dice: the hit placed is taken back (a long note: «Undone: Pompey gave a hit
    … Pompey again chooses …»); hold B on that note takes back the fire too. The first note no
    longer says what the board is (nobody chooses a hit now): it goes with the second undo, and
    once the second undo's note is closed nothing of it shows (it came back from under it)."""
    app = app_with(["new jc-battle attacker=caesar dice=physical seed=9", "add attacker c_caesar",
                    "add attacker c_leg10", "add defender p_pompeius", "add defender p_leg1", "start",
                    "fire c_caesar dice=1,2,6", "hit p_leg1"], [], state_dir, lang="ru")
    try:
        _yes_to_undo(app)
        first = _notes(app)
        assert len(first) == 1 and "снова выбирает" in first[0]       # the hit is to be chosen again
        _yes_to_undo(app)                                                # hold B on that note: the fire
        assert app.console.session.view()["battle"]["decision"]["kind"] != "hit"
        assert all("снова выбирает" not in note for note in _notes(app))
        while app.message or len(app.stack) > 1:
            app.handle("b")
            app.render()
            assert all("снова выбирает" not in note for note in _notes(app))
    finally:
        app.console.close()


def test_an_undo_from_the_link_takes_an_earlier_undos_note_off_too(state_dir):
    """G-15 end of round taken back (a long note: turn the board back), then the event taken back
    by an ``undo`` line: the round's note goes (the event it says the round goes on with is gone)."""
    app = app_with(["new glory players=Jack,Jill seed=3", "event", "end-round"], [], state_dir)
    try:
        _yes_to_undo(app)
        first = _notes(app)
        assert len(first) == 1 and "end of round 1" in first[0]
        assert '"ok":true' in app.serve_line(b"undo")
        assert len(app.console.session.lines) == 0
        assert first[0] not in _notes(app)
    finally:
        app.console.close()


def test_a_long_note_stays_while_nothing_is_taken_back(state_dir):
    """A long note is taken off only by an undo that goes back past the step it was said at: a
    step played meanwhile (a roll over the serial link) or an undo refused leaves it."""
    app = app_with(["new dice seed=3", "roll 2d6"], [], state_dir)
    try:
        app.render()
        app.notify("A long note " + "that goes on and on " * 8)
        assert len(_notes(app)) == 1
        assert '"ok":true' in app.serve_line(b"roll 1d6")
        assert len(_notes(app)) == 1
        assert '"ok":true' in app.serve_line(b"undo")             # back to the step it was said at
        assert len(_notes(app)) == 1
        assert '"ok":true' in app.serve_line(b"undo")             # past it
        assert "A long note" not in " ".join(_notes(app))
    finally:
        app.console.close()


def test_an_undos_note_said_again_in_a_new_language_still_goes_with_the_next_undo(state_dir):
    """The note made again in Russian (a ``settings language=ru`` line) keeps the step it was said
    at: the next undo takes it off as it would the English one."""
    app = app_with(["new glory players=Jack,Jill seed=3", "event", "end-round"], [], state_dir)
    try:
        _yes_to_undo(app)
        assert len(_notes(app)) == 1
        app.serve_line(b"settings language=ru")
        app.render()
        assert len(_notes(app)) == 1 and "раунда 1" in _notes(app)[0]
        assert '"ok":true' in app.serve_line(b"undo")
        assert not any("раунда 1" in note and "продолжается" in note for note in _notes(app))
    finally:
        from firmware import i18n
        i18n.set_language("en")
        app.console.close()
