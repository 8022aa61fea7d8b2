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


def test_the_seed_is_shown_when_a_game_with_a_secret_seed_ends(state_dir):
    """Issue 12: the device reveals the seed at game end (a Julius Caesar campaign won at winter)."""
    app = app_with([], [], state_dir)
    try:
        assert app.run("new jc-battle attacker=caesar")["ok"]
        assert app.run("add attacker c_leg10")["ok"] and app.run("add defender p_leg1")["ok"]
        seed = str(app.console.session.header["seed"])
        assert seed not in " ".join(t for t, _ in _texts(app))
        assert app.run("fight")["ok"]
        assert seed not in " ".join(t for t, _ in _texts(app))         # a battle is not the game's end
        for city in ("Roma", "Alexandria", "Antiochia", "Athenae", "Byzantium", "Ephesus", "Syracusae"):
            assert app.run(f"control {city} caesar")["ok"]
        assert app.run("winter")["ok"]                                  # the campaign is over (J-13 VP)
        assert seed in [t for t, _ in _texts(app)]
        app.handle("down")
        assert seed not in " ".join(t for t, _ in _texts(app))
    finally:
        app.console.close()
