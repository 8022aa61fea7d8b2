"""Caesar!: a move the device did not show — Auto-Crassus's turn sent over the serial link
(``crassus``), or a turn taken back by an undo and played again — has its pages shown when the
game's home comes on top (his tile, his placement and its why, the notes after), from the first
page not read; a page read is never shown again (docs/protocol/caesar.md, ``caesar.read``)."""
from __future__ import annotations

from firmware.screens.caesar.home import CaesarHome
from firmware.screens.caesar.move import PlayMap
from firmware.screens.caesar.turn import TurnScreen
from tests.screens import app_with, undo_by_link

NEW = "new caesar-solo seed=3"


def _top(app):
    app.render()                        # (the device draws after every serial line and key)
    return app.stack[-1]


def _read_his_turn(app) -> list[str]:
    """His turn's pages read with A to their end: the kinds read."""
    kinds = []
    while isinstance(turn := _top(app), TurnScreen):
        kinds.append(turn.pages[turn.page]["kind"])
        assert len(kinds) < 20, f"his turn shown again and again: {kinds}"
        app.handle("a")
    return kinds


def _your_move(app) -> str:
    m = app.console.request("moves")["moves"][0]
    return f"play {m['space']} {m['token']} {sorted(m['toward'])[0]}"


def test_his_turn_sent_over_the_serial_link_is_shown_from_its_tile(state_dir):   # S-5, S-8
    """The device on the game's home, his turn sent over the serial link: the home said «Your
    move» and his tile, his placement and why were never shown. Now his turn is shown from its
    tile, read on to your move; back home, nothing read is shown again."""
    app = app_with([NEW], ["a"], state_dir)
    try:
        assert isinstance(_top(app), CaesarHome)
        assert '"ok":true' in app.serve_line(b"crassus")
        turn = _top(app)
        assert isinstance(turn, TurnScreen) and turn.page == 0 and turn.pages[0]["kind"] == "tile"
        assert turn.record == app.view()["last_crassus_turn"]["read_id"]
        kinds = _read_his_turn(app)
        assert kinds[0] == "tile" and "play" in kinds
        assert isinstance(app.stack[-1], PlayMap)             # led on to your move, as on the device
        app.handle("b")
        assert isinstance(_top(app), CaesarHome)              # read: not shown again
        assert '"ok":true' in app.serve_line(b"state")
        assert isinstance(_top(app), CaesarHome)
    finally:
        app.console.close()


def test_a_turn_taken_back_and_sent_again_the_same_way_is_shown_again(state_dir):   # S-5
    """His turn played and read on the device, taken back over the serial link (the table takes
    his tokens back), then sent again: the same tile, the same placement, the same id — it
    counted as read and was not shown, though the table had to play it again."""
    app = app_with([NEW], ["a", "a"], state_dir)              # the home, then his turn on the device
    try:
        assert _read_his_turn(app)
        app.handle("b")
        read_id = app.view()["last_crassus_turn"]["read_id"]
        assert isinstance(_top(app), CaesarHome)
        assert '"ok":true' in undo_by_link(app)
        assert isinstance(_top(app), CaesarHome) and app.view()["last_crassus_turn"] is None
        assert '"ok":true' in app.serve_line(b"crassus")
        turn = _top(app)
        assert app.view()["last_crassus_turn"]["read_id"] == read_id      # played the same way
        assert isinstance(turn, TurnScreen) and turn.page == 0
    finally:
        app.console.close()


def test_a_turn_read_and_brought_back_by_undoing_later_ones_is_not_shown_again(state_dir):   # S-5
    """His first turn read; your move and his second turn sent over the serial link (the second
    shown, read); both taken back: his first turn is the current one again, and it was read — the
    home shows, not his first turn's pages a second time."""
    app = app_with([NEW], ["a", "a"], state_dir)
    try:
        _read_his_turn(app)
        app.handle("b")
        assert '"ok":true' in app.serve_line(_your_move(app).encode())
        while app.view()["turn"] != "crassus":
            assert '"ok":true' in app.serve_line(b"draw")
        assert '"ok":true' in app.serve_line(b"crassus")
        assert _read_his_turn(app)
        for _ in range(8):                                    # back to his first turn as the last played
            if app.view()["last_player_turn"] is None:
                break
            assert '"ok":true' in undo_by_link(app)
            _top(app)
        assert app.view()["last_crassus_turn"]["current"] and app.view()["last_player_turn"] is None
        assert not isinstance(_top(app), TurnScreen), [p["kind"] for p in app.stack[-1].pages]
    finally:
        app.console.close()


def test_a_turn_read_while_the_card_refuses_writes_is_not_shown_again(state_dir):   # S-5
    """The card refuses to keep how far his turn was read (``caesar.read`` not written): the
    turn, read to its end, was shown again from its first page at once, and again from the home —
    the player could neither reach his move nor leave. What was read is kept while the program
    runs."""
    app = app_with([NEW], ["a"], state_dir)
    try:
        assert '"ok":true' in app.serve_line(b"crassus")
        assert isinstance(_top(app), TurnScreen)
        app.set_setting = lambda key, value: {"ok": False, "error": "storage", "message": "the card refused"}
        _read_his_turn(app)
        assert isinstance(app.stack[-1], PlayMap)            # on to your move, not his turn again
        app.handle("b")
        assert isinstance(_top(app), CaesarHome)
        app.handle("b")
        assert not any(isinstance(s, (CaesarHome, TurnScreen)) for s in app.stack)    # the main menu
    finally:
        app.console.close()


def test_the_home_does_not_write_at_every_frame_while_the_card_refuses(state_dir):   # S-5
    """His turn read, taken back over the serial link while the card refuses writes: the home
    counts it not read once (in memory), not in a write tried at every frame it draws."""
    app = app_with([NEW], ["a", "a"], state_dir)              # his turn on the device, read
    try:
        _read_his_turn(app)
        app.handle("b")
        tried: list[str] = []

        def refused(key: str, value: str) -> dict:
            tried.append(value)
            return {"ok": False, "error": "storage", "message": "the card refused"}
        app.set_setting = refused
        assert '"ok":true' in undo_by_link(app)
        for _ in range(5):
            assert isinstance(_top(app), CaesarHome)
        assert len(tried) == 1, tried
        assert '"ok":true' in app.serve_line(b"crassus")     # the same turn again: shown again
        assert isinstance(_top(app), TurnScreen)
    finally:
        app.console.close()
