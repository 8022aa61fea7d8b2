"""One hold of B takes back what one key did (firmware/app_undo.py ``OneKey``): a player's step and
the steps the device made for them at the same press — Caesar!'s draw owed after a placement with a
digital bag (C-6) — in one question naming the player's step and one notice of what to do on the
table. Undo never draws again: the same placement draws the same token."""
from __future__ import annotations

from firmware.app_undo import UndoQuestion
from tests.screens import app_with

PLACED = ["crassus", "play HU-HC wild:3/1 HC", "draw"]     # seed 3: his turn, your placement, the draw owed


def _placed(state_dir):
    """Caesar! solo (digital bag), his turn read and your first placement made with the keys: the
    device drew the token owed at the same press (C-6)."""
    app = app_with(["new caesar-solo seed=3"], ["a"] * 6, state_dir)
    app.render()
    assert list(app.console.session.lines) == PLACED
    return app


def _text(app) -> str:
    top = app.stack[-1]
    return " ".join(app.message) if app.message is not None else " ".join(top.rows)


def test_one_hold_of_b_takes_back_the_placement_and_the_draw_made_for_it(state_dir):   # C-6
    app = _placed(state_dir)
    try:
        drawn = app.console.session.log[-1]
        app.handle("b:hold")
        app.render()
        assert isinstance(app.stack[-1], UndoQuestion)
        assert _text(app) == "Your wild 3/1 toward Hispania Citerior."       # the placement, not the draw
        app.handle("a")
        app.render()
        assert list(app.console.session.lines) == ["crassus"]               # both, at one yes
        said = _text(app)
        assert "take wild 3/1 back" in said and "behind your screen" in said    # the tile off the board
        assert "shield 3/3" in said and "back into the bag" in said             # the token into the bag
        assert str(drawn) == "You drew shield 3/3."
        from firmware.screens.widgets import TextScreen
        while app.message is not None or isinstance(app.stack[-1], TextScreen):
            app.handle("a")                                                 # the notice read (A: its next page)
        for _key in range(3):                                              # the same placement again
            app.render()
            app.handle("a")
        assert list(app.console.session.lines) == PLACED
        assert str(app.console.session.log[-1]) == str(drawn)              # the same token: no new draw
    finally:
        app.console.close()


def test_steps_sent_one_by_one_are_taken_back_one_by_one(state_dir):
    """The same steps from the serial link (or from keys of their own) are each a step of its own."""
    app = app_with(["new caesar-solo seed=3", *PLACED], [], state_dir)
    try:
        app.handle("b:hold")
        assert _text(app) == "Your draw: shield 3/3."            # (caesar: a draw asked in its own words)
        app.handle("a")
        assert list(app.console.session.lines) == PLACED[:2]
    finally:
        app.console.close()


def test_a_serial_undo_of_the_draw_leaves_the_placement_alone_to_take_back(state_dir):
    app = _placed(state_dir)
    try:
        assert app.serve_line(b"undo") is not None                          # the draw, from the laptop
        app.message = None
        app.handle("b:hold")
        assert _text(app) == "Your wild 3/1 toward Hispania Citerior."
        app.handle("a")
        assert list(app.console.session.lines) == ["crassus"]              # his turn stays
        assert "bag" not in _text(app)                                     # no draw said taken back again
    finally:
        app.console.close()


def test_a_step_after_the_keys_steps_is_taken_back_alone(state_dir):
    app = _placed(state_dir)
    try:
        assert app.serve_line(b"crassus") is not None                       # his next turn, from the laptop
        app.message = None
        app.handle("b:hold")
        assert "Crassus's whole turn" in _text(app)
        app.handle("a")
        assert list(app.console.session.lines) == PLACED
    finally:
        app.console.close()



def test_a_might_and_the_draw_after_it_go_back_at_one_hold(state_dir):   # C-15, C-6
    from scripts.shots_caesar import HU_MIGHT, NEW
    app = app_with([NEW, HU_MIGHT], ["a", "a", "press", "a", "a", "a", "a", "a"], state_dir)   # ... the first flip
    try:
        app.render()
        lines = list(app.console.session.lines)
        assert lines[-2].startswith("might ") and lines[-1] == "draw"
        app.handle("b:hold")
        assert _text(app).startswith("Might:")                             # the flip named, not the draw
        app.handle("a")
        app.render()
        assert list(app.console.session.lines) == lines[:-2]
        assert "back into the bag" in _text(app)
        app.handle("b")                                                     # the notice read
        app.render()
        assert app.stack[-1].items(app)[0].label == "Use Might"             # the home: the Might waits again
    finally:
        app.console.close()
