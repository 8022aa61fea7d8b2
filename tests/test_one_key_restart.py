"""One hold of B takes back what one key did — the player's step and the steps the device made for
them at the same press — after a restart too (firmware/store/actions.py ``one_key``, ``key_steps``:
the key is stored with its steps, in their own transactions). Before, the grouping was kept in
memory only: after a restart (or a power cut) hold B took back the device's draw alone, its question
named the draw, and the tile stayed on the board while the device said the placement was to make.
A session stored before keys were kept goes back one step at a time, and says so step by step."""
from __future__ import annotations

from tests.screens import YES, say_yes  # noqa: F401

import sqlite3

import pytest

from firmware.app_undo import UndoQuestion
from firmware.store import DB_NAME
from firmware.screens.widgets import TextScreen
from tests.screens import app_with

NEW = "new caesar-solo seed=3"
PLACED = ["crassus", "play HU-HC wild:3/1 HC", "draw"]     # his turn, your placement, the draw owed (C-6)
PLACE = ["a"] * 6                                          # his turn read, your first placement made


def _text(app) -> str:
    top = app.stack[-1]
    return " ".join(app.message) if app.message is not None else " ".join(top.rows)


def _asked(app) -> str:
    """Hold B's question as the player reads it (then left with B: keep)."""
    app.handle("b:hold")
    app.render()
    assert isinstance(app.stack[-1], UndoQuestion), app.stack
    return _text(app)


def _undone(app) -> str:
    """Yes to hold B's question: the notice said (every page of it), read to its end."""
    say_yes(app)
    app.render()
    said = []
    while app.message is not None or isinstance(app.stack[-1], TextScreen):
        said.append(_text(app))
        app.handle("a")
        app.render()
    return " ".join(said)


def _restarted(state_dir, lang):
    """The device started again on the same card: A on the main menu opens the game."""
    app = app_with([], ["a"], state_dir, lang=lang)
    app.render()
    return app


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_restart_between_the_placement_and_hold_b_takes_back_the_placement_and_its_draw(state_dir, lang):  # C-6
    """Your placement and the token the device drew for you at the same press: the device is
    turned off and on; one hold of B asks about the placement (as before the restart), takes back
    both, and says both on the table; placing the same again draws the same token."""
    app = app_with([NEW], PLACE, state_dir / "kept", lang=lang)      # the same game, never restarted
    try:
        asked_here, said_here = _asked(app), _undone(app)
    finally:
        app.console.close()
    app = app_with([NEW], PLACE, state_dir, lang=lang)
    try:
        app.render()
        assert list(app.console.session.lines) == PLACED
        drawn = str(app.console.session.log[-1])
        before = _asked(app)
        app.handle("b")                                              # keep: the question only read
        app.render()
        assert list(app.console.session.lines) == PLACED
    finally:
        app.console.close()
    app = _restarted(state_dir, lang)
    try:
        assert _asked(app) == before == asked_here                   # the placement, not the draw
        assert _undone(app) == said_here                             # the tile and the token, one notice
        assert list(app.console.session.lines) == ["crassus"]
        for _key in range(3):                                        # the same placement again
            app.render()
            app.handle("a")
        assert list(app.console.session.lines) == PLACED
        assert str(app.console.session.log[-1]) == drawn             # the same token: undo never draws again
    finally:
        app.console.close()


def test_a_restart_after_a_might_and_its_draw_takes_both_back_at_one_hold(state_dir):   # C-15, C-6
    from scripts.shots_caesar import HU_MIGHT
    from scripts.shots_caesar import NEW as MIGHT_NEW
    keys = ["a", "a", "press", "a", "a", "a", "a", "a"]             # ... the Might's first flip, the draw after it
    app = app_with([MIGHT_NEW, HU_MIGHT], keys, state_dir)
    try:
        app.render()
        lines = list(app.console.session.lines)
        assert lines[-2].startswith("might ") and lines[-1] == "draw"
    finally:
        app.console.close()
    app = _restarted(state_dir, "en")
    try:
        assert _asked(app).startswith("Might:")                      # the flip named, not the draw
        said = _undone(app)
        assert list(app.console.session.lines) == lines[:-2]
        assert "back into the bag" in said                            # the drawn token too
        assert app.stack[-1].items(app)[0].label == "Use Might"       # the Might waits again
    finally:
        app.console.close()


def test_a_julius_caesar_fire_and_its_hit_go_back_together_after_a_restart(state_dir):  # J-7, J-14
    """Fight to the end with the table's dice: the fire's dice and the hit J-14 placed are one
    step (``auto dice=``): after a restart one hold of B still takes back both, never the hit alone."""
    lines = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_pompeius strength=1",
             "add defender p_leg1 strength=1"]
    app = app_with(lines, ["a"] + ["down"] * 4 + ["a", YES], state_dir)     # Fight to the end: the dice asked
    try:
        for _fire in range(3):                                        # Pompeius, Legio 1, Legio 10 fire a 1
            app.render()
            app.handle("a" if type(app.stack[-1]).__name__ == "JcDiceEntry" else "b")
            app.render()
            app.handle("b")
        fired = list(app.console.session.lines)
        assert fired[-1].startswith("auto dice=")
        assert [x["status"] for x in app.view()["battle"]["blocks"] if x["key"] == "p_leg1"] == ["eliminated"]
    finally:
        app.console.close()
    app = app_with([], ["a"], state_dir)
    try:
        for _page in range(5):                                        # the last roll, said again on resuming
            app.render()
            if type(app.stack[-1]).__name__ != "DiceResult":
                break
            app.handle("b")
        _asked(app)
        _undone(app)
        assert list(app.console.session.lines) == fired[:-1]
        b = app.view()["battle"]
        assert [(x["key"], x["status"]) for x in b["blocks"] if x["side"] == "pompey"] == \
            [("p_pompeius", "fight"), ("p_leg1", "fight")]
    finally:
        app.console.close()


def test_a_session_stored_before_keys_were_kept_goes_back_one_step_at_a_time_and_says_so(state_dir):  # C-6
    """A card an older Legatus wrote (no ``same_key`` table): the placement and its draw load and go
    back one step at a time, each question naming the step it takes back; the card takes the
    table at the start, and the next key's steps go back together again."""
    app = app_with([NEW], PLACE, state_dir)
    app.console.close()
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("DROP TABLE same_key")
    db.commit()
    db.close()
    app = _restarted(state_dir, "en")
    try:
        assert list(app.console.session.lines) == PLACED
        assert _asked(app) == "Your draw: shield 3/3."     # the draw alone, said so
        assert "bag" in _undone(app) and list(app.console.session.lines) == PLACED[:2]
        assert _asked(app) == "Your wild 3/1 toward Hispania Citerior."
        assert "wild 3/1" in _undone(app) and list(app.console.session.lines) == ["crassus"]
        for _key in range(3):                                        # the same placement again: a key of now
            app.render()
            app.handle("a")
        assert list(app.console.session.lines) == PLACED
        assert _asked(app) == "Your wild 3/1 toward Hispania Citerior."
        _undone(app)
        assert list(app.console.session.lines) == ["crassus"]
    finally:
        app.console.close()


def test_a_damaged_key_mark_leaves_one_step_at_a_time_said_truly(state_dir):
    """The mark that the draw was made at the placement's key, damaged on the card: nothing is
    taken back that the question does not name (the draw alone, then the placement)."""
    app = app_with([NEW], PLACE, state_dir)
    app.console.close()
    db = sqlite3.connect(state_dir / DB_NAME)
    assert db.execute("UPDATE same_key SET crc=crc+1").rowcount == 1
    db.commit()
    db.close()
    app = _restarted(state_dir, "en")
    try:
        assert _asked(app) == "Your draw: shield 3/3."
        _undone(app)
        assert list(app.console.session.lines) == PLACED[:2]
    finally:
        app.console.close()


def test_the_keys_steps_go_back_in_one_write_never_half(state_dir, monkeypatch):
    """The key's steps go back in one write. A card that refuses it takes back neither and says
    why; a card that takes one write and refuses the next took back the draw alone (two writes: the
    tile stayed on the board, the device asked for the draw again): now both go at that one write."""
    from contextlib import contextmanager

    from firmware.storage import StorageError
    app = app_with([NEW], PLACE, state_dir)
    try:
        app.render()
        store = app.console.store
        real, writes = store.transaction, []

        @contextmanager
        def card(*args, **kwargs):
            writes.append(1)
            if len(writes) > allowed:
                raise StorageError("The card refused the write (test).")
            with real(*args, **kwargs) as db:
                yield db
        monkeypatch.setattr(store, "transaction", card)
        allowed = 0
        _asked(app)
        assert "refused" in _undone(app)
        assert list(app.console.session.lines) == PLACED                # neither taken back
        allowed = len(writes) + 1                                        # one write more, then refused
        assert _asked(app) == "Your wild 3/1 toward Hispania Citerior."
        said = _undone(app)
        assert list(app.console.session.lines) == ["crassus"], said      # both, at the one write
        assert "wild 3/1" in said and "bag" in said
    finally:
        app.console.close()


def test_a_database_salvaged_from_its_damaged_file_keeps_the_key_of_its_steps(state_dir):   # C-6
    """The database file damaged (its header): its rows whose checksums hold are carried into a new
    one, the marks of the keys too: one hold of B still takes back the placement with its draw."""
    app = app_with([NEW], PLACE, state_dir)
    app.console.close()
    path = state_dir / DB_NAME
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    app = _restarted(state_dir, "en")
    try:
        assert app.console.store.recovery is not None                 # the salvage is said
        app.message = None
        while isinstance(app.stack[-1], TextScreen):                  # (its page read)
            app.handle("a")
            app.render()
        if type(app.stack[-1]).__name__ == "MainMenu":
            app.handle("a")
            app.render()
        assert list(app.console.session.lines) == PLACED
        assert _asked(app) == "Your wild 3/1 toward Hispania Citerior."
        _undone(app)
        assert list(app.console.session.lines) == ["crassus"]
    finally:
        app.console.close()


def test_a_game_reopened_from_earlier_games_goes_back_one_step_at_a_time(state_dir):
    """Reopening an archived game is one key that starts a new session and gives its steps again:
    they are the old game's steps, each its own, never one key's: one hold of B takes back the
    last roll alone (not the whole game given again)."""
    app = app_with(["new dice seed=3", "roll 3d6", "roll 4d6", "new bag items=gold*2 seed=1", "draw"], [], state_dir)
    try:
        for key in ["down", "a"] + ["down"] * 9 + ["a", "a", YES]:   # Games, Earlier games…, Dice, yes
            app.render()
            say_yes(app) if key == YES else app.handle(key)
        assert list(app.console.session.lines) == ["roll 3d6", "roll 4d6"]
        app.message = None
        assert "4d6" in _asked(app)
        _undone(app)
        assert list(app.console.session.lines) == ["roll 3d6"]
    finally:
        app.console.close()
