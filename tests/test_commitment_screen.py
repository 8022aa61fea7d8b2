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
