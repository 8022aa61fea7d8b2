"""Fair draws on the device (issue 12): a game started on the device shows its commitment (first 8
hex characters, large) over its first frame; the next key hides it and does nothing else (issue 24
§4: A behind the code box used to open "Battle")."""
from __future__ import annotations

import hashlib

from firmware.screens import base, play
from firmware.screens.widgets import Item, ListScreen
from tests.screens import app_with


def _texts(app):
    base.TRACE = []
    try:
        app.render()
        return [(t, kind) for _, _, t, kind in base.TRACE]
    finally:
        base.TRACE = None


def test_a_new_game_shows_its_commitment_until_the_next_key(state_dir):
    app = app_with([], [], state_dir)
    try:
        home = []
        play.start_game(app, "new dice", lambda: home.append(1) or MenuLike())
        code = app.console.request("state")["state"]["commitment"]
        seed = app.console.session.header["seed"]
        assert code == hashlib.sha256(f"legatus-seed:{seed}".encode()).hexdigest()
        assert (code[:8], "large") in _texts(app)
        assert str(seed) not in " ".join(t for t, _ in _texts(app))      # the seed stays secret
        app.handle("down")                                                # hides it, and only that
        assert (code[:8], "large") not in _texts(app)
        assert app.stack[-1].cursor == 0
        app.handle("down")
        assert app.stack[-1].cursor == 1
    finally:
        app.console.close()


def test_a_seeded_game_has_nothing_to_commit_to(state_dir):
    app = app_with([], [], state_dir)
    try:
        play.start_game(app, "new dice seed=4", MenuLike)
        assert app.commitment is None
    finally:
        app.console.close()


class MenuLike(ListScreen):
    title = "Home"

    def items(self, ctx):
        return [Item("One"), Item("Two")]


def test_a_game_its_rules_finish_is_not_ended_by_the_device_and_its_seed_stays_hidden(state_dir):
    """Issue 20: finishing a game (a Julius Caesar campaign won at winter) does not end the session
    on the device (its last move can still be undone); the seed waits for History → Fair draw."""
    app = app_with([], [], state_dir)
    try:
        assert app.run("new jc-battle attacker=caesar")["ok"]
        assert app.run("add attacker c_leg10")["ok"] and app.run("add defender p_leg1")["ok"]
        seed = str(app.console.session.header["seed"])
        assert app.run("fight")["ok"]
        for city in ("Roma", "Alexandria", "Antiochia", "Athenae", "Byzantium", "Ephesus", "Syracusae"):
            assert app.run(f"control {city} caesar")["ok"]
        assert app.run("winter")["ok"]                                  # the campaign is over (J-13 VP)
        assert seed not in " ".join(t for t, _ in _texts(app))
        assert not app.console.session.ended and "end" not in app.console.session.lines
        assert app.run("undo")["ok"]                                    # the final move is taken back
    finally:
        app.console.close()


def _form_with_code(app, cursor: int = 0):
    """A new-game form (a figure row and the fair-draw rows) pushed and drawn: its code box is up."""
    from firmware.screens.widgets import Field, NumberForm
    from firmware.screens.widgets.share import FairShare
    started: list[dict[str, int]] = []
    form = NumberForm("New game", [Field(f"n{i}", f"Row {i}", 1, 1, 9) for i in range(5)],
                      lambda c, values: started.append(values), fair=FairShare())
    form.cursor = form._mark = cursor
    app.push(form)
    app.render()
    assert app.commitment is not None and (app.commitment[:8], "large") in _texts(app)
    return form, started


def test_the_code_box_over_a_form_goes_with_the_first_key_which_acts_on_the_form(state_dir):
    """The code is on the panel before any key, so the player saw it before the first draw (docs/
    fairness.md); the first key no longer only closes the box: right changes the figure under it, A
    starts at once (a new game one press shorter)."""
    app = app_with([], [], state_dir)
    try:
        form, started = _form_with_code(app)
        app.handle("right")                               # the box goes, and the figure changes
        assert app.commitment is None and form.values()["n0"] == 2
        form, started = _form_with_code(app)
        app.handle("a")                                   # A on the first frame: the game starts
        assert app.commitment is None and started == [{f"n{i}": 1 for i in range(5)}]
        form, started = _form_with_code(app)
        app.handle("down:repeat")                         # a key held since before: waits, as for a notice
        assert app.commitment is not None and form.cursor == 0
    finally:
        app.console.close()


def test_the_code_box_over_a_form_whose_cursor_row_it_hides_takes_the_first_key_alone(state_dir):
    """A key acts only on a row the player sees: a form whose cursor row is under the box (the lower
    half of the panel) loses the box to the first key and nothing else happens."""
    app = app_with([], [], state_dir)
    try:
        form, started = _form_with_code(app, cursor=2)
        assert app.closes_only()
        app.handle("a")
        assert app.commitment is None and started == [] and app.stack[-1] is form
        app.handle("right")
        assert form.values()["n2"] == 2
    finally:
        app.console.close()
