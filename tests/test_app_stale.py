"""The App takes off, after each change of the game, every screen that no longer shows the state
(firmware/app.py ``drop_stale``): a screen that says it is ``stale`` (it shows a step taken back,
or asks about one that no longer exists), and a long notice (a page of its own, ``notify``) said at
a step an undo has since taken back — whether the device's undo (hold B, A) or ``undo`` from the
serial link took it back, and in whatever language it is read now. A notice said with no game in
play, or in another game, or at a step still standing, stays: the player has not read it yet."""
from __future__ import annotations

from engine import actions as act
from engine.text import Msg
from firmware.i18n import _
from firmware.screens.widgets import TextScreen
from tests.screens import app_with

LONG = Msg("A notice far too long for the box over the screen: " + "it goes on and on, " * 12 + "and ends.")


def notes(app) -> list[TextScreen]:
    """The long notices on the stack (each a page of its own)."""
    return [s for s in app.stack if isinstance(s, TextScreen) and s.title == _("Note")]


def hold_b_undo(app) -> None:
    """The device's undo: hold B, A on the question; the short «Undone» notice closed."""
    app.render()
    app.handle("b:hold")
    app.render()
    app.handle("a")
    app.render()
    if app.message is not None:
        app.handle("b")


class Refuses(TextScreen):
    """A screen that cannot tell whether it still shows the game (its ``stale`` fails)."""

    def stale(self, ctx) -> bool:
        raise RuntimeError("cannot tell")


class Always(TextScreen):
    """A screen that says it is stale, whatever the game."""

    def stale(self, ctx) -> bool:
        return True


def test_a_long_notice_goes_with_the_device_undo_of_a_step_it_was_said_after(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        app.notify(LONG)                          # said at step 1: a page of its own
        said_at_1 = app.stack[-1]
        assert notes(app) == [said_at_1]
        app.run(act.Line("roll 1d6"))
        app.notify(LONG)                          # said at step 2
        said_at_2 = app.stack[-1]
        hold_b_undo(app)                          # the 1d6 roll taken back: the second one goes
        assert app.console.session.lines == ["roll 2d6"]
        assert said_at_2 not in app.stack and said_at_1 in app.stack and app.errors == 0
        hold_b_undo(app)                          # the 2d6 roll taken back: the first one goes too
        assert app.console.session.lines == [] and said_at_1 not in app.stack
    finally:
        app.console.close()


def test_a_long_notice_goes_with_an_undo_from_the_serial_link_and_stays_for_other_lines(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        app.notify(LONG)
        note = app.stack[-1]
        app.serve_line(b"state")                  # a read: nothing changes
        app.serve_line(b"roll 1d6")               # a step played since: still true
        assert note in app.stack
        app.serve_line(b"undo")                   # back to the step it was said at: it stays
        assert note in app.stack
        app.serve_line(b"undo")                   # the step it was said after taken back
        assert note not in app.stack
    finally:
        app.console.close()


def test_a_long_notice_said_with_no_game_or_in_another_game_stays_through_an_undo(state_dir):
    app = app_with([], [], state_dir)
    try:
        app.notify(LONG)                          # no game in play
        no_game = app.stack[-1]
        assert app.run(act.Line("new jc-battle attacker=caesar seed=9"))["ok"]
        for line in ("add attacker c_caesar", "add attacker c_leg10", "add defender p_pompeius"):
            assert app.run(act.Line(line))["ok"]
        app.notify(LONG)                          # said at the battle's step 4
        other_game = app.stack[-1]
        assert app.run(act.Line("new dice seed=1"))["ok"]
        app.run(act.Line("roll 2d6"))
        hold_b_undo(app)                          # the dice session's step 1 taken back (1 < 4)
        assert app.console.session.lines == []
        assert no_game in app.stack and other_game in app.stack
    finally:
        app.console.close()


def test_a_long_notice_said_again_in_a_new_language_still_goes_with_the_undo_of_its_step(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6", "roll 1d6"], [], state_dir)
    try:
        app.notify(LONG)                          # said at step 2, in English
        assert app.set_setting("language", "ru")["ok"]
        app.render()                              # made again in Russian: a new screen, the same mark
        assert len(notes(app)) == 1 and notes(app)[0].title == _("Note") != "Note"
        hold_b_undo(app)
        assert app.console.session.lines == ["roll 2d6"] and notes(app) == []
    finally:
        app.console.close()


def test_a_long_notice_said_from_no_sentence_is_closed_by_a_language_switch(state_dir):
    app = app_with(["new dice seed=1"], [], state_dir)
    try:
        app.notify("plain words that no catalog knows, " * 8)
        assert len(notes(app)) == 1
        assert app.set_setting("language", "uk")["ok"]
        app.render()                              # it would stay in English: taken off
        assert notes(app) == []
    finally:
        app.console.close()


def test_a_screen_that_says_it_is_stale_or_cannot_tell_goes_and_the_others_stay(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        root = app.stack[0]
        plain, failing, stale = TextScreen("Plain", "words"), Refuses("Fails", "words"), Always("Old", "words")
        app.stack[1:] = [plain, failing, stale]
        app.serve_line(b"roll 1d6")
        assert app.stack == [root, plain] and app.errors == 0
        app.stack[0] = Always("Root", "words")     # the first screen is never taken off
        app.serve_line(b"roll 1d6")
        assert len(app.stack) == 2 and app.stack[1] is plain
    finally:
        app.console.close()


def test_hold_b_s_question_goes_once_the_serial_link_takes_its_step_back(state_dir):
    """Hold B asks «Take back: 3d6»; the serial link's ``undo`` took that roll back meanwhile: the
    question stayed, asking about a step that no longer exists, under the link's «Undone» notice
    (A then asked about the 2d6 roll, a step nobody had asked to take back). It goes; a read
    changes nothing and leaves it, and so does a step played meanwhile (A asks about it then)."""
    from firmware.app_undo import UndoQuestion
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], [], state_dir)
    try:
        app.render()
        app.handle("b:hold")
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion) and "3d6" in " ".join(question.rows)
        app.serve_line(b"state")
        assert app.stack[-1] is question
        app.serve_line(b"undo")
        assert question not in app.stack and app.console.session.lines == ["roll 2d6"]
        assert app.message and "3d6" in " ".join(app.message)        # the link's undo said on the panel
        app.handle("b")
        app.handle("b:hold")                                          # asked again: the newest step now
        again = app.stack[-1]
        assert isinstance(again, UndoQuestion) and "2d6" in " ".join(again.rows)
        app.serve_line(b"roll 1d6")                                   # another step played meanwhile
        assert app.stack[-1] is again
        app.handle("a")                                               # nothing undone: asked about it
        assert app.console.session.lines == ["roll 2d6", "roll 1d6"]
        assert isinstance(app.stack[-1], UndoQuestion) and "1d6" in " ".join(app.stack[-1].rows)
    finally:
        app.console.close()
