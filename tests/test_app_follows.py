"""The App notes the step a screen that follows the game was first drawn or used at
(firmware/app.py ``_on_top``, firmware/screens/play.py ``Follows.on_top``): a screen of a game
never calls ``note`` itself, and none can forget to. Its ``stale`` reads that step: an undo below
it takes the screen off (App.drop_stale); a ``now_only`` one goes too once a step is played since,
and one never drawn nor used stands for no step (a line from the serial link takes it off)."""
from __future__ import annotations

from firmware.screens import play
from firmware.screens.widgets import TextScreen
from tests.screens import app_with


class Bare(play.Follows, TextScreen):
    """A screen of a dice session's rolls that notes nothing itself (no render or key of its own)."""

    games = ("dice",)

    def __init__(self, now_only: bool = False) -> None:
        super().__init__("Rolls", "what the dice showed")
        self.now_only = now_only


def undo(app) -> None:
    app.render()
    app.handle("b:hold")
    app.render()
    app.handle("a")


def test_a_screen_drawn_is_noted_and_goes_with_an_undo_below_its_step(state_dir):
    assert not {"render", "key", "note", "on_top"} & set(vars(Bare))     # (it notes nothing itself)
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        screen = Bare()
        app.push(screen)
        app.render()
        assert screen.shown_at == 1 and app.errors == 0
        app.serve_line(b"roll 1d6")              # a step played since: a roll's screen stays
        assert app.stack[-1] is screen
        app.serve_line(b"undo")                  # that step taken back: the step it was shown at
        assert app.stack[-1] is screen
        app.serve_line(b"undo")                  # the 2d6 roll it showed taken back: it goes
        assert screen not in app.stack
    finally:
        app.console.close()


def test_a_screen_given_a_key_before_its_first_frame_is_noted_too(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        screen = Bare()
        app.push(screen)
        app.handle("down")                       # used before it was drawn
        assert screen.shown_at == 1
        app.serve_line(b"roll 1d6")
        assert app.stack[-1] is screen
        undo(app)                                # the device's undo (hold B, A): the 1d6 roll
        assert app.console.session.lines == ["roll 2d6"] and app.stack[-1] is screen
        app.handle("b")                          # (closes the notice "Undone", nothing else)
        undo(app)                                # the 2d6 roll it showed
        assert app.console.session.lines == [] and screen not in app.stack
    finally:
        app.console.close()


def test_a_now_only_screen_goes_once_a_step_is_played_but_not_for_a_read(state_dir):
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        screen = Bare(now_only=True)
        app.push(screen)
        app.render()
        assert '"ok":true' in app.serve_line(b"state")      # a read changes nothing: it stays
        assert app.stack[-1] is screen
        app.serve_line(b"roll 1d6")                          # the game moved on under it
        assert screen not in app.stack
    finally:
        app.console.close()


def test_a_screen_pushed_and_never_drawn_goes_with_the_next_line_from_the_serial_link(state_dir):
    """Pushing does not note it (the key that pushed it may still play the step it shows): a step
    played over the serial link before its first frame takes it off, as before the App noted."""
    app = app_with(["new dice seed=1", "roll 2d6"], [], state_dir)
    try:
        screen = Bare(now_only=True)
        app.push(screen)
        app.serve_line(b"roll 1d6")
        assert screen not in app.stack and screen.shown_at is None
    finally:
        app.console.close()


def test_the_fake_ctx_tells_its_top_screen_it_is_on_top_as_the_app_does():
    from tests.fakectx import FakeCtx
    ctx = FakeCtx("new dice seed=1", "roll 2d6")
    screen = Bare()
    ctx.stack.append(screen)
    ctx.render()
    assert screen.shown_at == 1 and not screen.stale(ctx)
    ctx.run("undo")                              # the 2d6 roll it showed taken back
    assert screen.stale(ctx)
