"""Caesar!: a move the device did not show — Auto-Crassus's turn sent over the serial link
(``crassus``), or a turn taken back by an undo and played again — has its pages shown when the
game's home comes on top (his tile, his placement and its why, the notes after), from the first
page not read; a page read is never shown again (docs/protocol/caesar.md, ``caesar.read``)."""
from __future__ import annotations

import re

import pytest

from firmware.screens.caesar.home import CaesarHome
from firmware.screens.caesar.move import PlayMap
from firmware.screens.caesar.turn import TurnScreen
from tests.screens import YES, app_with, drawn, killed_after_presses, undo_by_link

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


def _bonuses_skipped(app) -> None:
    """A closure's bonus your move left due (C-10 Might, C-11 a centurion), skipped over the link:
    the game's secret seed decides whether your first listed move closes a province."""
    for _ in range(4):
        if app.view()["step"] != "bonus":
            return
        if '"ok":true' not in app.serve_line(b"might skip"):
            assert '"ok":true' in app.serve_line(b"centurion skip")
        while isinstance(_top(app), TurnScreen):
            app.handle("a")


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


def _home_of_the_game(app):
    """Main menu → Resume: the running game's home (a turn not read comes first)."""
    from firmware.screens.widgets import TextScreen
    app.to_root()
    app.message = None
    app.handle("a")
    while isinstance(top := _top(app), TextScreen):      # (a notice of its own closes)
        app.handle("b")
    return top


def _reopen(app, sid: str) -> None:
    """Earlier games → the game of session ``sid``, reopened (a copy of it goes on)."""
    from firmware.screens.archive import archived, reopen
    found = [a for a in archived(app.archives() or []) if a.header.get("sid") == sid]
    assert found and reopen(app, found[0])


def _game_a_read(app) -> tuple[str, str, dict]:
    """Game A (the device's own secret seed, as its set-up starts one): his first turn played on the
    device and read to its end; its session, the setting and his turn."""
    assert '"ok":true' in app.serve_line(b"new caesar-solo")
    assert isinstance(_home_of_the_game(app), CaesarHome)
    app.handle("a")                                       # his turn, on the device
    assert _read_his_turn(app)[0] == "tile"
    his = app.view()["last_crassus_turn"]
    fair = app.fair_draw()
    assert fair is not None and his["read_id"] in app.settings["caesar.read"]
    return fair.session, app.settings["caesar.read"], his


def test_another_game_does_not_mark_a_games_turns_unread(state_dir):   # S-5
    """His turn read in game A; game B started over the serial link and its home opened: the setting
    said A's turn unread (``c1-…:0``, B's state does not hold it), and A reopened from Earlier games
    showed that turn again from its tile, though a page read is never shown again. Now B leaves A's
    entries as they were, and A reopened opens on its home."""
    app = app_with([], [], state_dir)
    try:
        sid, read, his = _game_a_read(app)
        assert '"ok":true' in app.serve_line(b"new caesar-solo")        # game B, over the serial link
        assert isinstance(_home_of_the_game(app), CaesarHome)
        assert app.view()["last_crassus_turn"] is None
        assert app.settings["caesar.read"] == read                     # A's turn still read
        _reopen(app, sid)
        top = _home_of_the_game(app)
        assert app.view()["last_crassus_turn"]["read_id"] == his["read_id"]
        assert isinstance(top, PlayMap | CaesarHome), top               # not his turn's pages again
    finally:
        app.console.close()


def test_a_games_reads_survive_another_game_played_on(state_dir):   # S-5
    """Game B played on the device for several turns (each of his turns read, more turns than the
    setting kept of all games together: four) before A is reopened: A's turn was pushed out and was
    shown again from its tile; now each game keeps its own, and A opens on its home."""
    app = app_with([], [], state_dir)
    try:
        sid, _read, his = _game_a_read(app)
        assert '"ok":true' in app.serve_line(b"new caesar-solo")        # game B
        for _turn in range(3):                                          # his turn, your move, read each
            top = _home_of_the_game(app)
            if isinstance(top, CaesarHome):
                app.handle("a")
            _read_his_turn(app)
            assert '"ok":true' in app.serve_line(_your_move(app).encode())
            while isinstance(_top(app), TurnScreen):                     # your closure's pages, if any
                app.handle("a")
            _bonuses_skipped(app)
        assert len(app.settings["caesar.read"]) <= 512
        _reopen(app, sid)
        top = _home_of_the_game(app)
        assert app.view()["last_crassus_turn"]["read_id"] == his["read_id"]
        assert isinstance(top, PlayMap | CaesarHome), top
    finally:
        app.console.close()


@pytest.mark.slow
def test_a_kill_after_a_page_read_then_another_game_keeps_the_page_read(state_dir):   # S-5
    """The device program (legatus --sim --script) killed with SIGKILL after his tile page was read
    in game A (the setting written, nothing more); started again, game B over the serial link and
    its home: A reopened from Earlier games goes on from his play's page, not his tile again."""
    killed_after_presses(state_dir, ["new caesar-solo", "crassus"], 2)   # Resume: his turn; its tile page read
    app = app_with([], [], state_dir)
    try:
        sid = app.fair_draw().session
        his = app.view()["last_crassus_turn"]
        assert his["read_id"] in app.settings["caesar.read"] and his["current"]
        assert '"ok":true' in app.serve_line(b"new caesar-solo")        # game B
        assert isinstance(_home_of_the_game(app), CaesarHome)
        _reopen(app, sid)
        turn = _home_of_the_game(app)
        assert isinstance(turn, TurnScreen) and turn.record == his["read_id"]
        assert turn.pages[turn.page]["kind"] == "play"                  # the tile, read, not again
    finally:
        app.console.close()


def _said_now(app, screen: TurnScreen) -> None:
    """A turn's pages said in the language spoken now — not the texts stored when first shown:
    those of its record as the game says it now (``last_crassus_turn``, ``last_player_turn``), or,
    a newer turn having replaced it, of the record it was made from said again (every sentence
    keeps the message it was said from); in English, no Russian or Ukrainian word on any of its
    pages (read with right, A on a play)."""
    from firmware.i18n import again, language
    from firmware.screens.caesar.turnpages import record_pages
    view = app.view()
    now = {r["read_id"]: r for r in (view.get("last_crassus_turn"), view.get("last_player_turn")) if r}
    said, tile = screen.said

    def said_again(obj):
        if isinstance(obj, str):
            return again(obj)
        if isinstance(obj, dict):
            return {k: said_again(v) for k, v in obj.items()}
        return [said_again(v) for v in obj] if isinstance(obj, list) else obj

    record = now.get(screen.record) or said_again(said)
    expected = record_pages(record, tile, view["winner"])
    assert expected and screen.pages[:len(expected)] == expected
    if language() == "en":
        for _ in range(30):
            assert app.stack[-1] is screen
            shown = [t for _x, _y, t, _k in drawn(app)]
            assert not any(re.search("[А-яІіЄєЇї]{2}", t) for t in shown), shown   # (a tile's letter is the edition's)
            if screen.page + 1 >= len(screen.pages):
                break
            app.handle("right" if screen.pages[screen.page]["kind"] != "play" else "a")


@pytest.mark.parametrize("first, then, by", [("ru", "en", "link"), ("uk", "ru", "link"), ("uk", "en", "settings")])
def test_a_language_chosen_after_a_newer_turn_came_over_the_link_leaves_no_page_in_the_old(
        state_dir, first, then, by):   # S-5, S-9
    """His turn shown on the device (monkey: caesar-solo uk, his turn c5 open); your move and his
    next turn sent over the serial link (the screen stays: nothing was taken back); then
    ``settings language=…`` (or the language chosen in Settings): the title was said again but
    his bonus row («Тактику відкладено.») and a play's step text stayed in the old language — the
    pages were said again only while the screen's turn was still his last. Now a turn that can no longer be said is taken off as
    after an undo, and his newer turn is shown from its first page, every page in the new
    language."""
    from firmware import i18n
    app = app_with([NEW], ["a", "a"], state_dir, lang=first)   # the home, then his turn on the device
    try:
        old = _top(app)
        assert isinstance(old, TurnScreen) and not old.mine
        assert '"ok":true' in app.serve_line(_your_move(app).encode())
        while app.view()["turn"] != "crassus":
            assert '"ok":true' in app.serve_line(b"draw")
        assert '"ok":true' in app.serve_line(b"crassus")
        newer = app.view()["last_crassus_turn"]["read_id"]
        assert newer != old.record and old in app.stack          # still on his older turn
        if by == "link":
            assert '"ok":true' in app.serve_line(f"settings language={then}".encode())
        else:
            assert app.set_setting("language", then)["ok"]            # (as Settings → Language does)
        assert _top(app) is old and old.page == 0
        _said_now(app, old)
        for _ in range(30):                                       # his older turn read on
            if not isinstance(top := _top(app), TurnScreen) or top is not old:
                break
            app.handle("a")
        assert isinstance(top, TurnScreen) and top.record == newer and top.page == 0
        _said_now(app, top)
    finally:
        i18n.set_language("en")
        app.console.close()


def test_your_turn_replaced_over_the_link_then_a_language_leaves_no_page_in_the_old(state_dir):   # C-8, S-9
    """Your placement closes Hispania Ulterior: its page open on the device (ru), the tokens the
    device drew for you on the next; his turn and your next move sent over the serial link (your
    turn on screen is no longer the game's last), then ``settings language=en``: the closure's
    page stayed in Russian. Now the closure and the draw are said in English, on the same page."""
    import json
    from firmware import i18n
    from scripts.shots_caesar import HU_MIGHT, NEW as HU_NEW
    position = json.loads(HU_MIGHT.split(" ", 1)[1])
    position["bonuses"] = {"HU": "senate"}
    app = app_with([HU_NEW, "position " + json.dumps(position)], ["a", "a", "press", "a", "a", YES], state_dir,
                   lang="ru")
    try:
        old = _top(app)
        assert isinstance(old, TurnScreen) and old.mine and old.record == app.view()["last_player_turn"]["read_id"]
        assert [p["kind"] for p in old.pages] == ["close", "draw"] and old.page == 0
        drawn_for_you = old.pages[1]
        assert '"ok":true' in app.serve_line(b"crassus")
        while app.view()["turn"] != "human" or app.view()["step"] != "play":
            assert '"ok":true' in app.serve_line(b"draw")
        assert '"ok":true' in app.serve_line(_your_move(app).encode())
        assert app.view()["last_player_turn"]["read_id"] != old.record and old in app.stack
        assert '"ok":true' in app.serve_line(b"settings language=en")
        assert _top(app) is old and old.page == 0 and [p["kind"] for p in old.pages] == ["close", "draw"]
        assert old.pages[1]["tokens"] == drawn_for_you["tokens"]
        _said_now(app, old)
        assert "Take" in " ".join(t for _x, _y, t, _k in drawn(app))
    finally:
        i18n.set_language("en")
        app.console.close()


@pytest.mark.parametrize("by", ["link", "settings"])
def test_a_duel_draw_left_to_read_is_said_in_the_new_language_after_a_newer_move(state_dir, by):   # C-6, S-9
    """A duel: Caesar's move on the device (uk), the page of the tokens the device drew for him
    open; Pompey's move sent over the serial link, then a new language (over the link, or in
    Settings): the draw page stayed in Ukrainian. The tokens to take are not lost: the page stays,
    said in English, the same tokens."""
    from firmware import i18n
    from firmware.screens.caesar.turnpages import drawn_page
    app = app_with(["new caesar-duel seed=4"], ["a", "a", "a", "a", "press"], state_dir, lang="uk")
    try:
        old = _top(app)
        assert isinstance(old, TurnScreen) and old.mine and [p["kind"] for p in old.pages] == ["draw"]
        tokens = old.pages[0]["tokens"]
        assert '"ok":true' in app.serve_line(_your_move(app).encode())           # Pompey's
        assert app.view()["last_player_turn"]["read_id"] != old.record and old in app.stack
        if by == "link":
            assert '"ok":true' in app.serve_line(b"settings language=en")
        else:
            assert app.set_setting("language", "en")["ok"]                       # (as Settings → Language does)
        top = _top(app)
        assert top is old and top.pages == [drawn_page(tokens, old.pages[0]["at"])]
        said = " ".join(t for _x, _y, t, _k in drawn(app))
        assert "Take" in said and not re.search("[А-яІіЄєЇї]{2}", said), said
    finally:
        i18n.set_language("en")
        app.console.close()


def _seeded_game_read(app, line: bytes = b"new caesar-solo seed=11") -> tuple[str, dict]:
    """A game started with ``seed=`` over the serial link (no commitment): his first turn played on
    the device and read to its end; its session and his turn."""
    assert '"ok":true' in app.serve_line(line)
    assert isinstance(_home_of_the_game(app), CaesarHome)
    app.handle("a")                                       # his turn, on the device
    assert _read_his_turn(app)[0] == "tile"
    his = app.view()["last_crassus_turn"]
    assert app.view()["commitment"] is None and his["read_id"] in app.settings["caesar.read"]
    return app.fair_draw().session, his


def test_a_seed_games_turn_read_is_not_shown_again_when_it_is_reopened(state_dir):   # S-5
    """A game started with ``seed=`` has no commitment: its turns read were kept under its
    session's id, and its copy reopened from Earlier games is a new session: his turn, read to
    its end, was shown again from its tile. Now a copy keeps the game it is a copy of (a copy of
    that copy too, after a restart too), and the turn read stays read."""
    app = app_with([], [], state_dir)
    try:
        sid, his = _seeded_game_read(app)
        for _copy in range(2):                                           # a copy, then a copy of that copy
            assert '"ok":true' in app.serve_line(b"new caesar-solo")    # another game meanwhile
            assert isinstance(_home_of_the_game(app), CaesarHome)
            _reopen(app, sid)
            assert app.fair_draw().session != sid                       # (a new session)
            top = _home_of_the_game(app)
            assert app.view()["last_crassus_turn"]["read_id"] == his["read_id"]
            assert isinstance(top, PlayMap | CaesarHome), [p["kind"] for p in top.pages]
            sid = app.fair_draw().session
        app.console.close()
        app = app_with([], [], state_dir)                              # the program started again
        assert app.fair_draw().session == sid
        assert isinstance(_home_of_the_game(app), PlayMap | CaesarHome)
    finally:
        app.console.close()


def test_two_games_started_with_one_seed_do_not_share_their_turns_read(state_dir):   # S-5
    """Two games started anew with the same ``seed=`` are two games, though his first turn in
    both is the same turn (the same id): the second one's, sent over the serial link, is shown
    from its tile — the table has to play it."""
    app = app_with([], [], state_dir)
    try:
        _sid, his = _seeded_game_read(app)
        assert '"ok":true' in app.serve_line(b"new caesar-solo seed=11")
        assert isinstance(_home_of_the_game(app), CaesarHome)
        assert '"ok":true' in app.serve_line(b"crassus")
        turn = _top(app)
        assert app.view()["last_crassus_turn"]["read_id"] == his["read_id"]
        assert isinstance(turn, TurnScreen) and turn.page == 0 and turn.pages[0]["kind"] == "tile"
    finally:
        app.console.close()


def _first_move_read(app) -> None:
    """His turn sent over the serial link and read; your first listed move and your draw sent over
    it: the page of the tokens to take from your bag read too."""
    assert '"ok":true' in app.serve_line(b"crassus")
    assert _read_his_turn(app)[0] == "tile"
    app.handle("b")
    assert '"ok":true' in app.serve_line(_your_move(app).encode())
    assert '"ok":true' in app.serve_line(b"draw")
    turn = _top(app)
    assert isinstance(turn, TurnScreen) and [p["kind"] for p in turn.pages] == ["draw"], turn
    _read_his_turn(app)


def test_an_older_versions_entries_do_not_mark_another_games_turn_read(state_dir):   # S-5, C-6
    """The setting as an older version kept it (no game named: ``<read_id>:<pages>``), of game A.
    Game B started after the update: your first placement the same as in A (the same space and
    token: the same ``p1-…``, as five seeds in forty have it for the first listed move), sent over the
    serial link before its home opened, counted as read, so the tokens to take from your bag (C-6)
    were never shown; and B took A's entries as its own: A reopened showed his turn again. Now they count for a game that holds his turn
    they name (his tile's draws make it that game's alone), and stay kept for it."""
    app = app_with([], [], state_dir)
    try:
        assert '"ok":true' in app.serve_line(b"new caesar-solo seed=16")     # game A
        assert isinstance(_home_of_the_game(app), CaesarHome)
        sid = app.fair_draw().session
        _first_move_read(app)
        mine = app.view()["last_player_turn"]["read_id"]
        older = ",".join(e.split("/", 1)[1] for e in app.settings["caesar.read"].split(","))
        assert app.console.request(f"settings caesar.read={older}")["ok"]      # as the older version kept it
        app.to_root()                                 # game B, its first round over the serial link
        for line in (b"new caesar-solo seed=3", b"crassus", None, b"draw"):   # (the device on its menu)
            assert '"ok":true' in app.serve_line(line or _your_move(app).encode())
        assert app.view()["last_player_turn"]["read_id"] == mine              # the same placement as in A
        turn = _home_of_the_game(app)                 # your move's page: the tokens to take from your bag
        assert isinstance(turn, TurnScreen) and turn.record == mine and turn.page == 0, turn
        _read_his_turn(app)
        _reopen(app, sid)                                                      # A again: read, as it was
        assert isinstance(_home_of_the_game(app), PlayMap | CaesarHome)
    finally:
        app.console.close()


@pytest.mark.parametrize("reading", [False, True])
def test_his_turn_taken_back_under_a_notice_and_sent_again_is_shown_again(state_dir, reading):   # S-5
    """His turn read (or on its second page), taken back over the serial link: the device says so
    in a notice of its own (take his tokens back on the board), over the game's home. His turn sent
    again the same way before the notice was closed (the same tile, the same id) counted as read:
    the home never came on top in between to see it taken back, so his tile (what goes into his
    row) was skipped, or the whole turn. Now it is shown again from its first page. (In Ukrainian:
    the notice is a screen of its own; in English it fits over the home, which shows it.)"""
    app = app_with([NEW], ["a", "a"], state_dir, "uk")        # the home, then his turn on the device
    try:
        if reading:
            app.handle("right")                               # his tile read: on his play's page
        else:
            _read_his_turn(app)                               # read to its end: on your move
        read_id = app.view()["last_crassus_turn"]["read_id"]
        assert '"ok":true' in app.serve_line(b"undo")
        assert not isinstance(_top(app), (TurnScreen, CaesarHome, PlayMap))   # the notice, long
        assert '"ok":true' in app.serve_line(b"crassus")
        assert app.view()["last_crassus_turn"]["read_id"] == read_id       # played the same way
        from firmware.screens.widgets import TextScreen
        while isinstance(_top(app), TextScreen):              # the notice read (A: its next page) and closed
            app.handle("a")
        turn = _top(app)
        assert isinstance(turn, TurnScreen) and turn.page == 0 and turn.pages[0]["kind"] == "tile", turn
    finally:
        app.console.close()


def _go_to(app, ident: str) -> None:
    """From the main menu, the row ``ident`` chosen with the joystick and A (a player's presses)."""
    from firmware.screens.menu import MainMenu
    menu = _top(app)
    assert isinstance(menu, MainMenu), menu
    for key in ["down"] * 8 + ["up"] * 8:
        if menu.items(app)[menu.cursor].ident == ident:
            break
        app.handle(key)
        _top(app)
    assert menu.items(app)[menu.cursor].ident == ident
    app.handle("a")


@pytest.mark.parametrize("where", ["menu", "settings", "history", "hold B"])
def test_his_turn_taken_back_and_sent_again_while_out_of_the_game_is_shown_on_resume(state_dir, where):   # S-5
    """His turn read; the player leaves the game (the main menu, Settings, History); his turn is
    taken back (over the serial link, or by hold B from the main menu) and sent again over the
    serial link the same way (the same tile, the same id). Resume counted it as read — the undo
    came while no screen of the game was open to note it — and showed the home, though the table
    had taken his tokens back: his tile (what goes into his row) was never shown. Now the game
    notes an undo wherever the device is, and Resume shows the turn from its first page."""
    app = app_with([NEW], ["a", "a"], state_dir)              # the home, then his turn on the device
    try:
        assert _read_his_turn(app)
        read_id = app.view()["last_crassus_turn"]["read_id"]
        while not isinstance(_top(app), CaesarHome):
            app.handle("b")
        app.handle("b")                                        # out of the game: the main menu
        assert not any(isinstance(s, (CaesarHome, PlayMap, TurnScreen)) for s in app.stack)
        if where in ("settings", "history"):
            _go_to(app, where)
            assert not isinstance(_top(app), (CaesarHome, PlayMap, TurnScreen))
        if where == "hold B":
            app.handle("b:hold")                              # Undo? A: undo
            _top(app)
            app.handle("a")
            app.message = None
        else:
            assert '"ok":true' in undo_by_link(app)
        assert app.view()["last_crassus_turn"] is None or app.view()["last_crassus_turn"]["read_id"] != read_id
        assert '"ok":true' in app.serve_line(b"crassus")
        assert app.view()["last_crassus_turn"]["read_id"] == read_id       # played the same way
        while len(app.stack) > 1:                             # back to the main menu
            app.handle("b")
            _top(app)
        _go_to(app, "resume")
        turn = _top(app)
        assert isinstance(turn, TurnScreen) and turn.page == 0 and turn.pages[0]["kind"] == "tile", turn
    finally:
        app.console.close()
