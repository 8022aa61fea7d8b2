"""The History screens on the 128×64 panel (issue 12): the list, one game, the Auto-Crassus chart,
the fair draw (commitment big, seed only at the end) and Send over serial (pyserial loop://)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware import history, history_played, i18n
from firmware.games import player
from firmware.screens import base
from tests.screens import app_with, assert_golden, drawn, undo_by_link, say_yes

pytest.importorskip("PIL")

JC_FIGHT = ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight"]


def shown(app) -> list[tuple[str, str]]:
    """(text, font kind) of everything the current frame draws."""
    base.TRACE = []
    try:
        app.render()
        return [(t, k) for _x, _y, t, k in base.TRACE]
    finally:
        base.TRACE = None


def texts(app) -> str:
    return "\n".join(t for t, _k in shown(app))


def open_history(app) -> None:
    from firmware.screens.history import HistoryScreen
    app.push(HistoryScreen())


def test_the_main_menu_has_history_and_it_lists_the_finished_game(state_dir: Path):
    app = app_with(JC_FIGHT, [], state_dir)
    try:
        app.stack = app.stack[:1]
        for _ in range(3):                                              # ▶ the game, Games, Dice & bags
            app.handle("down")
        assert "History" in texts(app)
        app.handle("a")
        assert "JC battle 1" in texts(app)                              # it opens on the newest game
        for _ in range(4):
            app.handle("up")
        listed = texts(app)
        assert "Statistics" in listed and "Fair draw" in listed and "Players" in listed
        for _ in range(4):
            app.handle("down")
        assert "JC battle 1" in texts(app)
        app.handle("a")                                                 # the game's detail
        rows = [str(i.label) for i in app.stack[-1].items(app)]
        assert rows[0] == "Send over serial"
        left = sum(b["strength"] for b in app.console.session.view()["battle"]["blocks"] if b["side"] == "pompey")
        assert any("Battle 1" in r for r in rows) and f"✓Pompey: {left}" in rows      # the steps left standing
        assert "·Caesar: 0" in rows                                     # eliminated: no steps left
        assert all(len(t) <= base.COLS for t, k in shown(app) if k == "body")
    finally:
        app.console.close()


def test_history_opens_on_the_newest_game():
    """What a table opens History for is the game just played: the list opens on it (it opened on
    Statistics, four or five presses above); the rows above it are one press up each."""
    from firmware.screens.history import GameScreen, HistoryScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(history=[ENTRY]).open(HistoryScreen())
    ctx.render()
    assert str(ctx.top.items(ctx)[ctx.top.cursor].label) == "JC battle 1"
    ctx.press("a")
    assert isinstance(ctx.top, GameScreen)
    empty = FakeCtx().open(HistoryScreen())
    empty.render()
    assert str(empty.top.items(empty)[empty.top.cursor].label) == "Statistics"


def test_history_screens_speak_russian(state_dir: Path):
    app = app_with(JC_FIGHT, [], state_dir, lang="ru")
    try:
        open_history(app)
        for _ in range(4):
            app.handle("up")                                            # above the newest game
        listed = texts(app)
        assert "Статистика" in listed and "История" in listed
    finally:
        app.console.close()


def _solo(db, sid: str, difficulty: str, won: bool) -> None:
    header = {"sid": sid, "game": "caesar-solo", "line": "new caesar-solo", "seed": sid}
    rec = {"mode": {"kind": "solo", "difficulty": difficulty, "side": "caesar", "expansions": []},
           "players": [player("Caesar", 12 if won else 5, won),
                       player("Auto-Crassus", 5 if won else 12, not won, True)],
           "result": history.Msg("test")}
    history._put(db, header, "game", rec, 10, "finished")


def test_the_crassus_chart_draws_wins_and_losses_per_level(state_dir: Path):
    app = app_with([], [], state_dir)
    try:
        with app.console.store.transaction() as db:
            history.ensure(db)
            for i, (level, won) in enumerate([("easy", True), ("easy", True), ("easy", False), ("hard", False),
                                              ("easy", True), ("hard", False)]):
                _solo(db, f"s{i}", level, won)
        st = history.stats(history.games(app.console.store.db, None))
        assert st["crassus"]["easy/base"] == {"difficulty": "easy", "expansions": "base", "wins": 3, "losses": 1,
                                              "streak": 1}
        assert st["crassus"]["hard/base"]["streak"] == -2
        from firmware.screens.history_stats import CrassusChart
        app.push(CrassusChart())
        drawn = texts(app)
        assert "easy" in drawn and "hard" in drawn and "3/1" in drawn and "0/2" in drawn
        img = app.render()
        px = img.load()

        def lit(level: int) -> int:            # the lit pixels along the middle of a level's bar
            return sum(px[x, base.TITLE_H + 1 + level * 17 + 13] > 0 for x in range(base.W))
        assert lit(0) > 80                                             # 3 easy wins of 4: mostly filled
        assert 0 < lit(2) <= 2                                         # 2 hard losses: a hollow bar
        assert lit(1) == 0                                             # no game at normal: no bar
        assert_golden(img, "history_chart")
        app.handle("a")
        assert "won 1 in a row" in texts(app) or "won 1 in a row" in "\n".join(app.stack[-1].rows)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang,said", [("en", "finished"), ("ru", "доигран"), ("uk", "догран")])
def test_solo_games_ended_early_are_not_said_to_be_none(state_dir: Path, lang: str, said: str):
    """History lists a Caesar! solo game the players ended before its end; the Auto-Crassus chart,
    which counts only games played to their end, said «Соло-партий ещё нет.» / «Соло-партій ще
    немає.» ("no solo games yet") beside it: it now says that none was played to its end, as the
    English does."""
    app = app_with(["new caesar-solo side=pompey difficulty=hard seed=8", "end"], [], state_dir, lang=lang)
    try:
        assert [e["game"] for e in app.console.request("history")["games"]] == ["caesar-solo"]
        from firmware.screens.history_stats import CrassusChart
        app.push(CrassusChart())
        assert said in texts(app).replace("\n", " ").lower(), texts(app)
    finally:
        app.console.close()
        i18n.set_language("en")


def test_a_julius_caesar_campaign_of_three_battles_is_one_game_for_each_person(state_dir: Path):
    """J-13, J-17: History keeps each battle that ends (a play for BG Stats, PROTOCOL.md) and the
    campaign when it is over, but Statistics → Players counted them as four games of Julius Caesar
    for Anna and for Boris: a person who played one campaign of three battles played one game,
    won or lost by the campaign's verdict. A session of one battle (ended then) is one game, won
    by that battle's winner; the export still files each battle as a play."""
    from firmware.screens.history_stats import people_rows

    def battle(c: str, p: str) -> list[str]:
        return [f"add attacker {c}", f"add defender {p}", "fight"]
    lines = ["new jc-battle year=5 people=caesar:Anna,pompey:Boris seed=4",
             *battle("c_leg10", "p_leg1"), "next-battle", *battle("c_leg8", "p_leg3"), "next-battle",
             *battle("c_leg9", "p_leg2"), "control Roma caesar", "control Athenae caesar", "winter",
             "new jc-battle people=caesar:Anna,pompey:Vera seed=5", *battle("c_leg10", "p_leg1"), "end"]
    app = app_with(lines, [], state_dir)
    try:
        played = app.played()
        assert played is not None
        assert sorted(e["part"] for e in played if e["status"] == "finished") == \
            ["battle-1", "battle-1", "battle-2", "battle-3", "campaign"]      # History keeps every part

        def won(part: str, name: str) -> int:
            """Whether ``name`` won the newest ``part`` they played (battle-1: the lone battle)."""
            entry = next(e for e in played if e["part"] == part and any(p["name"] == name for p in e["players"]))
            return int(next(p["winner"] for p in entry["players"] if p["name"] == name))
        rows = people_rows(app)
        anna, boris, vera = (rows.index(n) for n in ("Anna", "Boris", "Vera"))
        assert rows[anna + 1].strip() == f"2 games, {won('campaign', 'Anna') + won('battle-1', 'Anna')} won", rows
        assert rows[boris + 1].strip() == f"1 game, {won('campaign', 'Boris')} won", rows
        assert rows[boris + 2].strip().replace(base.TIE, " ") == f"Julius Caesar: {won('campaign', 'Boris')}/1 won", rows
        assert rows[vera + 1].strip() == f"1 game, {won('battle-1', 'Vera')} won", rows
        assert won("campaign", "Anna") + won("campaign", "Boris") <= 1
        export = app.console.request(f"export format=bgstats id={played[-1]['id']}")
        assert export["ok"] and [p["name"] for p in export["play"]["players"]] == ["Anna", "Boris"]  # battle 1: a play
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, rows", [
    ("en", ["  Glory of Rome:", "  0/1 won"]),
    ("ru", ["  Во славу Рима:", "  побед 0 из 1"]),
    ("uk", ["  На славу Риму:", "  перемог 0 з 1"])])
def test_a_players_record_in_a_game_is_never_cut_before_its_last_word(state_dir: Path, lang: str, rows: list[str]):
    """Statistics → Players: «Glory of Rome: 0/1 won» is longer than a row; it wrapped to «won»
    alone on the next row in English. The game's name and the figures are each whole on a row."""
    from firmware.screens.history_stats import people_rows
    from firmware.screens.widgets.scroll import wrapped
    app = app_with(["new glory players=Jack,Henry seed=5", *["event", "end-round"] * 9,
                    "sheet Jack denarii 30", "score", "end"], [], state_dir, lang)
    try:
        said = wrapped(people_rows(app))
        henry = said.index("Henry")
        assert said[henry + 2:henry + 4] == rows, said
        assert all(len(r) <= base.COLS for r in said)
    finally:
        app.console.close()


def test_statistics_read_history_light_and_the_chart_reads_it_once(state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """A year of games on a Pi Zero: the statistics read every game without its result sentence or
    fair draw (``history.played``), and the Auto-Crassus chart reads them once, not at every frame."""
    from firmware.screens.history_stats import CrassusChart, crassus_rows, glory_rows, jc_rows, people_rows
    app = app_with([], [], state_dir)
    try:
        with app.console.store.transaction() as db:
            history.ensure(db)
            for i, (level, won) in enumerate([("easy", True), ("hard", False), ("easy", False)]):
                _solo(db, f"s{i}", level, won)
        reads: list[int] = []
        light = history_played.played
        monkeypatch.setattr(history_played, "played", lambda db: reads.append(1) or light(db))

        def whole(row):
            raise AssertionError("a whole History record was decoded for the statistics")
        monkeypatch.setattr(history, "_entry", whole)
        app.push(CrassusChart())
        for _ in range(4):
            app.render()
            app.handle("up")                                        # a key that stays on the chart
        assert "1/1" in texts(app) and "0/1" in texts(app) and len(reads) == 1
        assert any("1 won, 1 lost" in r for r in crassus_rows(app))
        assert glory_rows(app) == ["No Glory game scored yet."] and jc_rows(app) == ["No battle fought yet."]
        assert people_rows(app) == ["No game with named players yet."]
        # every page after the first, and the chart's "did History change" (an undo), read none again
        app.handle("a")                                             # the chart's text page
        assert not app.drop_stale() and type(app.stack[-1]).__name__ == "Figures" and len(reads) == 1
        # ... until History is written: a game recorded is counted at once
        with app.console.store.transaction() as db:
            _solo(db, "s9", "hard", True)
        assert any("1 won, 1 lost" in r for r in crassus_rows(app)) and len(reads) == 2
        app.drop_stale()                                            # the chart and its page: History changed
        assert type(app.stack[-1]).__name__ != "Figures"
    finally:
        app.console.close()


def test_statistics_read_again_decode_only_the_rows_new_or_changed(state_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    caplog: pytest.LogCaptureFixture):
    """History is read again after every write (an action too), and each read decoded every game
    (4,000: 35-40 ms here, 0.6 s on a Pi). A row that reads as before keeps its entry; a new row
    is decoded, a row changed and sealed again is decoded anew, and a row whose bytes changed under
    its checksum is left out (and said) at once, never served from the last read."""
    app = app_with([], [], state_dir)
    try:
        with app.console.store.transaction() as db:
            history.ensure(db)
            for i in range(5):
                _solo(db, f"s{i}", "easy", True)
        decoded: list[int] = []
        monkeypatch.setattr(history_played, "_last", {})                       # (no read before this test's)
        real = history_played._decoded
        monkeypatch.setattr(history_played, "_decoded", lambda row: decoded.append(row[0]) or real(row))
        db = app.console.store.db
        first = history_played.played(db)
        assert len(first) == 5 and len(decoded) == 5
        assert history_played.played(db) == first and len(decoded) == 5          # nothing decoded again
        with app.console.store.transaction() as w:
            _solo(w, "s5", "hard", False)                                       # a new game
        again = history_played.played(db)
        assert decoded[5:] == [again[0]["id"]] and [e["id"] for e in again[1:]] == [e["id"] for e in first]
        assert again[0]["mode"]["difficulty"] == "hard" and again[1] is first[0]
        rid = first[2]["id"]                                                     # changed and sealed again
        w_row = db.execute(f"SELECT {history.HISTORY_ROW} FROM history WHERE id=?", (rid,)).fetchone()
        record = json.loads(bytes(w_row[6]).decode())
        record["mode"]["difficulty"] = "hard"
        text = json.dumps(record)
        with app.console.store.transaction() as w:
            w.execute("UPDATE history SET record=?, crc=? WHERE id=?",
                      (text, history.row_crc(rid, *w_row[1:6], text), rid))
        changed = history_played.played(db)
        assert decoded[-1] == rid and [e for e in changed if e["id"] == rid][0]["mode"]["difficulty"] == "hard"
        with app.console.store.transaction() as w:                              # damaged under its checksum
            w.execute("UPDATE history SET record=? WHERE id=?", (text.replace("hard", "easy"), rid))
        assert rid not in [e["id"] for e in history_played.played(db)]
        assert any(f"History row {rid} is damaged" in r.getMessage() for r in caplog.records)
    finally:
        app.console.close()


def test_history_and_a_game_page_read_history_once_until_it_is_written(state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """History's list and a game's page asked History at every key and every frame (each read
    decoded the newest 50 games with their fair draws: 5-15 ms here, up to 0.2 s a key on a Pi);
    now once, and again as soon as the card is written (an undo, a game recorded)."""
    from firmware.screens.history import GameScreen
    app = app_with([], [], state_dir)
    try:
        with app.console.store.transaction() as db:
            history.ensure(db)
            for i in range(3):
                _solo(db, f"s{i}", "easy", bool(i % 2))
        reads: list[int] = []
        whole = history.games
        monkeypatch.setattr(history, "games", lambda db, limit=None, **kw: reads.append(1) or whole(db, limit, **kw))
        open_history(app)
        for key in ("up", "down", "a", "down", "down", "b", "up"):
            app.handle(key)
            app.render()
        assert len(reads) == 1 and app.errors == 0
        app.handle("down")
        app.handle("a")                                             # the newest game's page
        assert isinstance(app.stack[-1], GameScreen) and len(reads) == 1
        with app.console.store.transaction() as db:                 # History changes under it: taken out
            db.execute("DELETE FROM history")
        app.drop_stale()
        assert not isinstance(app.stack[-1], GameScreen) and len(reads) == 2
        assert "No games yet" in texts(app)
    finally:
        app.console.close()


def test_the_fair_draw_shows_the_code_and_the_seed_only_when_the_players_ask_after_the_end(state_dir: Path):
    """Issue 20: a game its rules finished is not ended by the device itself (its last move can still
    be undone); Fair draw → Show the seed asks first (it ends the game), then shows the seed."""
    app = app_with([], [], state_dir)
    try:
        new = app.run("new jc-battle")
        code = new["commitment"]
        seed = str(app.console.session.header["seed"])
        from firmware.screens.fair_draw import FairDrawScreen
        app.push(FairDrawScreen())
        frame = shown(app)
        assert (code[:8], "big") in frame and "End the game…" in texts(app)
        assert seed not in "\n".join(t for t, _k in frame)
        for line in ("add attacker c_leg10", "add defender p_pompeius", "fight"):
            assert app.run(line)["ok"]
        assert seed not in texts(app)                                   # a battle is not the game's end
        for city in ("Roma", "Alexandria", "Antiochia", "Athenae", "Byzantium", "Ephesus", "Syracusae"):
            assert app.run(f"control {city} caesar")["ok"]
        assert app.run("winter")["ok"]                                  # the campaign is over by its rules
        assert seed not in texts(app) and app.console.session.ended is False
        assert app.run("undo")["ok"] and app.run("winter")["ok"]        # the last move can still be undone
        assert "Show the seed…" in texts(app)
        app.handle("down")
        app.handle("a")                                                 # the question: it ends the game
        assert "ends the game" in " ".join(app.stack[-1].rows) and seed not in texts(app)
        say_yes(app)
        assert app.console.session.ended and seed in texts(app)        # the seed, once ended
        assert app.run("undo")["error"] == "game_over"
    finally:
        app.console.close()


def test_ending_a_julius_caesar_campaign_early_shows_the_seed_on_request(state_dir: Path):
    """Issue 20: the players end a JC session whose campaign is not over (History has a battle)."""
    app = app_with(["new jc-battle", "add attacker c_leg10", "add defender p_pompeius", "fight"], [], state_dir)
    try:
        from firmware.screens.fair_draw import FairDrawScreen
        seed = str(app.console.session.header["seed"])
        app.push(FairDrawScreen())
        app.handle("down")                                              # the share row, then End the game…
        app.handle("a")
        assert app.stack[-1].title == "End the game?"
        say_yes(app)
        assert app.console.session.ended and seed not in texts(app)    # ended; the seed still waits to be asked
        app.handle("b")                                                 # the notice closes
        assert "Show the seed" in texts(app) and "ended" in texts(app)
        app.handle("a")
        assert seed in texts(app)
        assert app.console.request("reveal")["seed"] == int(seed)
    finally:
        app.console.close()


def test_send_over_serial_writes_the_newest_game_as_one_json_line(state_dir: Path):
    serial = pytest.importorskip("serial")
    app = app_with(JC_FIGHT, [], state_dir)
    port = serial.serial_for_url("loop://", timeout=1)
    try:
        from firmware.screens.history import send_newest
        send_newest(app)
        assert "No serial link" in " ".join(app.message or [])
        app.message = None
        app.console.serial_out = port.write
        send_newest(app)
        got = json.loads(port.readline().decode("utf-8"))
        assert got["ok"] and got["play"]["game"]["name"] == "Julius Caesar"
        # people, never sides: nobody was named, so Player 1 and 2 play Caesar and Pompey
        assert {(p["name"], p["role"]) for p in got["play"]["players"]} == {("Player 1", "Caesar"), ("Player 2", "Pompey")}
        from urllib.parse import parse_qs, urlsplit
        assert json.loads(parse_qs(urlsplit(got["link"]).query)["data"][0]) == got["play"]
    finally:
        port.close()
        app.console.close()


def test_send_over_serial_is_what_the_console_exports_for_a_merged_player(state_dir: Path):
    # The device's Send is "that game's export format=bgstats id=N reply": the same play, with the
    # same sourcePlayerId by which BG Stats knows the person, after a merge too.
    serial = pytest.importorskip("serial")
    app = app_with(["new jc-battle people=pompey:Борис seed=1", "new jc-battle people=caesar:Анна seed=4",
                    "add attacker c_leg10", "add defender p_leg1", "fight", "players rename Анна Борис"],
                   [], state_dir)
    port = serial.serial_for_url("loop://", timeout=1)
    try:
        from firmware.screens.history import send_newest
        app.console.serial_out = port.write
        send_newest(app)
        got = json.loads(port.readline().decode("utf-8"))
        exported = app.run("export format=bgstats id=2")
        assert got["play"] == exported["play"] and got["link"] == exported["link"]
        assert got["play"]["players"][0]["sourcePlayerId"] == "борис"      # Анна was Борис: his id
    finally:
        port.close()
        app.console.close()


def test_send_over_serial_is_the_line_the_console_would_answer(state_dir: Path, monkeypatch):
    """History → Send built its line with its own json.dumps: spaces after every ',' and ':' where
    the console answers compact JSON, and U+2028/U+2029/NEL/C1 controls left raw, which the
    console escapes (console.reply_json: a reader's splitlines() ends a line there, a terminal acts
    on U+009B). The line sent is now the console's own reply line, byte for byte."""
    serial = pytest.importorskip("serial")
    app = app_with(JC_FIGHT, [], state_dir)
    port = serial.serial_for_url("loop://", timeout=1)
    try:
        from firmware.screens import history
        app.console.serial_out = port.write
        history.send_newest(app)
        [game] = app.run("history")["games"]
        assert port.readline() == (app.console.handle_text(f"export format=bgstats id={game['id']}") + "\n").encode()
        exported = app.run(f"export format=bgstats id={game['id']}")
        odd = {**exported, "text": exported["text"] + "\u2028x\u0085y\u009b2J"}   # (a name an older Legatus kept)
        monkeypatch.setattr(history, "run_or_notify", lambda ctx, line: odd)
        history.send_newest(app)
        line = port.readline().decode("utf-8")
        assert line.endswith("\n") and not any(c in line for c in "\u2028\u0085\u009b"), repr(line)
        assert json.loads(line) == odd
    finally:
        port.close()
        app.console.close()


def test_reopening_a_finished_game_from_earlier_games_does_not_record_it_twice(state_dir: Path):
    app = app_with(["new jc-battle", "add attacker c_leg10", "add defender p_pompeius", "fight",
                    "new caesar-solo seed=2"], [], state_dir)
    try:
        from firmware.screens.archive import archived, reopen
        assert [g["game"] for g in app.run("history")["games"]] == ["jc-battle"]
        jc = next(a for a in archived(app.archives()) if a.game == "jc-battle")
        assert reopen(app, jc)                                          # replays the fight: finished again
        assert app.console.session.game.name == "jc-battle"
        assert ok_games(app) == ["caesar-solo", "jc-battle"]           # the caesar game abandoned; no 2nd battle
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_session_reopened_only_in_part_says_where_it_stopped_whatever_the_length(state_dir: Path, lang: str):
    """Earlier games → a session whose replay stops at a step (rules changed since) is reopened up
    to it, and says so: «Reopened up to step 1: …» with the refusal's sentence. That notice is too
    long for the notice box: it opened a Note screen of its own, and going back to the main menu
    after it took the Note off unread, so the player never learned that steps were lost."""
    from firmware.screens.archive import Archived, reopen
    from firmware.screens.menu import MainMenu
    from firmware.screens.widgets import TextScreen
    app = app_with([], [], state_dir, lang)
    try:
        older = Archived({"line": "new glory players=Анастасия,Богдана,Владислава,Галина", "seed": 5,  # type: ignore[typeddict-item]
                          "game": "glory"}, ["event", "fame Nobody +3", "end-round"], 0.0)      # (the players named)
        assert reopen(app, older)
        assert app.console.session is not None and list(app.console.session.lines)[-1:] == ["event"]
        top = app.stack[-1]
        said = " ".join(top.rows) if isinstance(top, TextScreen) else " ".join(app.message or [])
        assert {"en": "step 1", "ru": "шага 1", "uk": "кроку 1"}[lang] in said, (app.stack, said)
        app.handle("b")                                   # read: the main menu, offering to resume it
        assert isinstance(app.stack[-1], MainMenu), app.stack
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("how", ["reveal", "new"])
@pytest.mark.parametrize("lines", [["new sword players=romans,gauls", "consuls", "victory romans"],       # W-13
                                   ["new glory players=Ann,Bob", *["event", "end-round"] * 9, "score"]],  # G-15
                         ids=["sword", "glory"])
def test_a_game_its_rules_ended_reopened_ended_from_earlier_games_is_recorded_once(state_dir: Path, lines, how):
    """PROTOCOL.md: the same game replayed, "as when Earlier games reopens an archived session —
    is recorded once". A game its rules ended, then ended (``reveal``, or the ``new`` that replaced
    it), reopens ended; its ``end`` replayed filed a second History entry (``finished``, "Finished
    after 2 actions") beside the game's own, at each reopening."""
    from firmware.screens.archive import archived, reopen
    app = app_with([*lines, *(["reveal"] if how == "reveal" else []), "new dice seed=1"], [], state_dir)
    try:
        before = app.run("history")["games"]
        assert [g["game"] for g in before] == [lines[0].split()[1]] and before[0]["seed"] is not None
        for _ in range(2):
            copy = next(a for a in archived(app.archives()) if a.game == before[0]["game"])
            assert reopen(app, copy) and app.console.session.ended
            assert app.run("history")["games"] == before
            assert app.run("new dice seed=2")["ok"]
        assert app.run("history")["games"] == before
    finally:
        app.console.close()


def ok_games(app) -> list[str]:
    return [g["game"] for g in app.run("history")["games"]]


# -- the same screens on a FakeCtx: the history, the record and the serial link are plain data -----
ENTRY = {"id": 7, "game": "jc-battle", "name": "Julius Caesar", "status": "finished", "started": None,
         "finished": "2026-03-01T10:00:00", "part": "battle-1",
         "mode": {"kind": "battle", "number": 1, "attacker": "caesar"},
         "players": [{"name": "Анна", "role": "caesar", "score": 3, "winner": True, "startPlayer": True},
                     {"name": "Pompey", "role": "pompey", "score": 0, "winner": False, "startPlayer": False}],
         "result": "Battle 1: Caesar attacked and won."}


def test_send_over_serial_on_a_fake_ctx_sends_one_json_line_or_says_why_not():
    from firmware.screens.history import HistoryScreen, send_newest
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(history=[ENTRY], serial=False).open(HistoryScreen())
    send_newest(ctx)
    assert ctx.sent == [] and "No serial link" in ctx.notes[-1]
    ctx.serial = True
    ctx.press("up", "a")                                            # from the newest game: Send, just above
    play = json.loads(ctx.sent[-1])["play"]
    assert play["sourcePlayId"] == "7"
    assert [(p["name"], p["role"]) for p in play["players"]] == [("Анна", "Caesar"), ("Player 2", "Pompey")]
    assert ctx.notes[-1] == "Sent: JC battle 1."


def test_a_game_of_history_sends_its_link_and_names_the_sides_in_the_players_language():  # issue 24 §4, §5
    from firmware.screens.history import GameScreen, HistoryScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(history=[ENTRY], lang="uk").open(HistoryScreen())
    ctx.press("a")                                                  # the game: History opens on it
    assert isinstance(ctx.top, GameScreen)
    rows = [str(i.label) for i in ctx.top.items(ctx)]
    assert "✓Анна (Цезар): 3" in rows and "·Помпей: 0" in rows      # never "Caesar", "Pompey" in Ukrainian
    ctx.press("up", "a")                    # Send, just above the game the page opens on: the link on the serial line
    sent = json.loads(ctx.sent[-1])
    assert sent["link"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert sent["play"]["sourcePlayId"] == "7"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_games_page_opens_on_the_game_with_its_score_and_send_one_press_up(lang: str):
    """What a table opens a game's page for is its score: the page opened on «Send over serial» and
    «Send the draw record», the score under them, past the first page (History, A, A, then three
    presses down to see who won by how much). It opens on the game: its name, result and the
    winner's score on the first page, the others one press down each; Send is one press up (A, up, A sends); A on a row only to read says so, and
    where Send is (it did nothing, silently)."""
    from firmware.screens.history import GameScreen, HistoryScreen  # (the first page: name, result, the winner)
    from tests.fakectx import FakeCtx
    ended = {**ENTRY, "status": "ended", "seed": 5, "share": None, "commitment": "ab" * 32}
    ctx = FakeCtx(history=[ended], lang=lang).open(HistoryScreen())
    ctx.press("a")                                                  # the newest game's page
    assert isinstance(ctx.top, GameScreen)
    shown = ctx.texts()
    said = {"en": ("Send over serial", "✓Анна (Caesar): 3", "·Pompey: 0"),
            "ru": ("Отправить в порт", "✓Анна (Цезарь): 3", "·Помпей: 0"),
            "uk": ("Надіслати в порт", "✓Анна (Цезар): 3", "·Помпей: 0")}[lang]
    assert said[1] in shown and said[0] not in shown, shown         # the game and who won by what, at once
    assert said[2] in [str(i.label) for i in ctx.top.items(ctx)][ctx.top.top:ctx.top.top + 4]     # one press down
    ctx.press("a")                                                  # a row to read: says so, sends nothing
    assert ctx.sent == [] and len(ctx.notes) == 1 and said[0] in ctx.notes[-1]
    ctx.press("up")                                                 # Send, one press up
    assert said[0] in ctx.texts()
    ctx.press("a")
    assert json.loads(ctx.sent[-1])["play"]["sourcePlayId"] == "7"


def test_the_fair_draw_on_a_fake_ctx_never_shows_the_seed_of_a_running_game():
    from firmware.screens.fair_draw import FairDrawScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx("new dice").open(FairDrawScreen())                # a secret seed (none given)
    seed = str(ctx.session.header["seed"])
    code = ctx.view()["commitment"]
    assert code[:8] in ctx.texts() and "Players' share…" in ctx.texts() and seed not in ctx.texts()
    assert "reveal" not in ctx.lines
    ctx.recorded = True                                             # whatever History says, it runs
    assert seed not in ctx.texts() and "End the session…" in ctx.texts()     # a dice session: no «game»
    ctx.press("a")                                                  # the share: dice 3-1
    ctx.press("a", "up", "up", "right", "a")
    assert ctx.lines[-1] == "share 3-1" and "Share: 3-1" in ctx.texts()
    ctx.press("down", "a")
    assert ctx.top.title == "End the session?" and "ends the session" in " ".join(ctx.top.rows)
    say_yes(ctx)
    assert ctx.lines[-1] == "end" and seed not in ctx.texts()
    assert ctx.notes[-1].startswith("The session has ended."), ctx.notes
    ctx.press("a")
    assert ctx.lines[-1] == "reveal" and seed in ctx.texts()


def test_the_fair_draws_no_share_page_goes_once_an_undo_changes_why(state_dir: Path):
    """QA (random keys): Fair draw → «No share…» (none was given before the first draw) stayed
    open after hold B took the roll back, while the reason now is another (a draw taken back by
    undo was seen): the page follows the game as the other texts of it do (play.Snapshot)."""
    from firmware.screens.fair_draw import FairDrawScreen
    app = app_with(["new dice", "roll 2d6"], [], state_dir)
    try:
        screen = FairDrawScreen()
        app.push(screen)
        app.render()
        screen.cursor = [i.ident for i in screen.items(app)].index("share")
        app.handle("a")                                             # No share…: why
        app.render()
        assert app.stack[-1] is not screen and "before the first draw" in " ".join(app.stack[-1].rows)
        app.handle("b:hold")
        app.render()
        app.handle("a")                                             # undo the roll
        app.render()
        app.handle("b")                                             # (the note closes)
        app.render()
        assert app.console.session.view()["actions"] == 0 and app.stack[-1] is screen
        app.handle("a")                                             # No share…: why, now
        app.render()
        assert "seen and undone" in " ".join(app.stack[-1].rows)
    finally:
        app.console.close()


def test_send_the_draw_record_writes_the_newest_ended_games_record_and_the_list_marks_an_unset_clock(state_dir: Path):
    serial = pytest.importorskip("serial")
    app = app_with(["new dice", "roll 2d6", "end"], [], state_dir)
    port = serial.serial_for_url("loop://", timeout=1)
    try:
        from firmware.screens.history import HistoryScreen, list_day, send_draws
        screen = HistoryScreen()
        labels = [i.label for i in screen.items(app)]
        assert "Send the draw record" in labels
        app.console.serial_out = port.write
        send_draws(app)
        got = json.loads(port.readline().decode("utf-8"))
        record = got["record"]
        assert got["ok"] and record["format"] == "legatus-draw-record" and record["actions"] == ["roll 2d6", "end"]
        assert record["seed"] == app.console.session.header["seed"] and record["share"] is None
        assert "Sent the draws of" in " ".join(app.message or [])
        entry = {**app.history(1)[0], "unsynced": ["finished"]}
        assert list_day(entry).startswith("~") and list_day({**entry, "unsynced": []})[0].isdigit()
    finally:
        port.close()
        app.console.close()


@pytest.mark.parametrize("how", ["end", "new dice seed=1"])
def test_a_caesar_solo_game_ended_or_abandoned_is_listed_as_solo_not_as_a_duel(state_dir: Path, how: str):
    """A Caesar! solo game the players ended, or replaced by 'new', keeps its name in History's list
    ("Цезарь! соло"); it was listed as a two-player game («Цезарь! вдвоём») because its mode is then
    'ended'/'abandoned'."""
    from firmware.screens.history import game_name
    app = app_with(["new caesar-solo side=caesar difficulty=normal seed=5", how,
                    "new caesar-duel seed=3", "end"], [], state_dir, lang="ru")
    try:
        names = {e["game"]: game_name(e) for e in app.history(10)}
    finally:
        app.console.close()
    assert names == {"caesar-solo": "Цезарь! соло", "caesar-duel": "Цезарь! вдвоём"}


@pytest.mark.parametrize("game,lines,label", [
    ("caesar-solo", ["new caesar-solo side=caesar difficulty=normal seed=5", "end"], "Caesar! solo"),
    ("caesar-solo", ["new caesar-solo side=pompey difficulty=easy seed=5", "new dice seed=1"], "Caesar! solo"),
    ("caesar-duel", ["new caesar-duel seed=5", "end"], "Caesar! duel"),
    ("caesar-duel", ["new caesar-duel seed=5", "new dice seed=1"], "Caesar! duel"),
])
def test_a_caesar_game_stopped_early_is_listed_as_the_mode_it_was(game: str, lines: list[str], label: str,
                                                                   state_dir: Path):
    """A Caesar! solo game ended with 'end' or left for a 'new' (History kind 'ended'/'abandoned')
    was listed on the device as 'Caesar! duel': the row's name came from the kind alone."""
    from firmware.screens.history import game_name
    app = app_with(lines, [], state_dir)
    try:
        entries = app.console.request("history")["games"]
        assert [e["game"] for e in entries] == [game]
        assert entries[0]["mode"]["kind"] in ("ended", "abandoned")
        assert game_name(entries[0]) == label
        app.stack = app.stack[:1]
        open_history(app)
        for _ in range(5):                                     # past Statistics … Send the draw record
            app.handle("down")
        assert label in texts(app)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, said", [("en", "Abandoned after 2 actions."), ("ru", "Брошена после 2 действий."),
                                        ("uk", "Покинута після 2 дій.")])
def test_an_abandoned_game_s_page_says_it_once(lang: str, said: str, state_dir: Path):
    """History → an abandoned game read «Брошена после 2 действий.» and on the next row «Брошена»
    again (uk «Покинута …» / «Покинута»): the result sentence says it; no second row does."""
    from firmware.screens.history import detail_rows
    app = app_with(["new jc-battle seed=3", "add attacker c_leg10", "add defender p_pompeius", "new dice seed=1"], [],
                   state_dir, lang=lang)
    try:
        entry = app.history(10)[0]
        assert entry["status"] == "abandoned"
        rows = detail_rows(entry)
    finally:
        app.console.close()
        i18n.set_language("en")
    assert rows[1] == said and not any(said.split()[0] == r for r in rows)


def test_an_abandoned_game_whose_result_says_something_else_still_says_abandoned():
    from firmware.screens.history import detail_rows
    assert "Abandoned" in detail_rows({**ENTRY, "status": "abandoned"})      # («Battle 1: Caesar attacked and won.»)


def test_the_list_and_a_game_show_the_local_day_and_time_the_export_gives(monkeypatch):
    # History stores UTC; the player reads their own clock, and BG Stats' playDate and the CSV's
    # play_date are local time: a game that ended at 01:30 in Moscow (22:30 UTC the day before) is
    # listed on the 26th and says "Ended 26.11.2026 01:30", never the UTC day and hour; the page
    # writes the day as the list does, day first (it said «Конец 2026-11-26 01:30» by the list's «26.11»).
    import time

    from firmware import export
    from firmware.screens.history import detail_rows, list_day
    monkeypatch.setenv("TZ", "MSK-3")
    time.tzset()
    try:
        entry = {**ENTRY, "started": "2026-11-25T22:00:00Z", "finished": "2026-11-25T22:30:00Z", "unsynced": []}
        assert list_day(entry) == "26.11"
        assert list_day({**entry, "unsynced": ["finished"]}) == "~26.11"
        assert "Ended 26.11.2026 01:30" in detail_rows(entry)
        assert export.bgstats_play(entry)["playDate"] == "2026-11-26 01:00:00"
        assert list_day({**entry, "finished": None}) == ""            # no time: no day, no error
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_time_the_local_clock_cannot_show_is_no_date_never_an_error(monkeypatch):
    """QA (clock): a wall clock set wildly (a bad real-time clock, ``date -s`` by hand) or a time
    rebuilt from a damaged History row can be a date the local time zone cannot show (year 9999
    east of Greenwich, year 1 west of it): the History list, a game's page and the exports raised
    OverflowError. Such a time is shown as none (a game's page then has no "Ended …" row)."""
    import time

    from firmware import export
    from firmware.screens.history import detail_rows, list_day
    for zone, iso in (("MSK-3", "9999-12-31T23:59:59Z"), ("EST+5", "0001-01-01T00:00:00Z")):
        monkeypatch.setenv("TZ", zone)
        time.tzset()
        try:
            entry = {**ENTRY, "started": iso, "finished": iso, "unsynced": []}
            assert list_day(entry) == "" and export.bgstats_play(entry)["playDate"] == ""
            assert not any(row.startswith("Ended") for row in detail_rows(entry))     # never "Ended " of nothing
            assert iso in export.csv_text([entry])
        finally:
            monkeypatch.delenv("TZ")
            time.tzset()


@pytest.mark.parametrize("lang, said", [("ru", "Варианты: Суровые времена, По ходу часов, Перемирие"),
                                        ("uk", "Варіанти: Суворі часи, За ходом годинника, Перемир'я"),
                                        ("en", "Variants: Harsh Times, Clockwise, Truce")])
def test_a_glory_games_variants_are_named_in_the_players_language(lang: str, said: str):
    # the rulebook's variants («Суровые времена», «По ходу часов», «Перемирие»: G-2 and the
    # rulebook's «Варианты»), never the console's keys (harsh)
    from firmware.screens.history import GameScreen
    from tests.fakectx import FakeCtx
    entry = {"id": 3, "game": "glory", "name": "For the Glory of Rome", "status": "finished",
             "started": None, "finished": "2026-03-01T10:00:00Z", "unsynced": [],
             "mode": {"kind": "table", "players": 1, "expansions": ["harsh", "clockwise", "truce"]},
             "players": [{"name": "Анна", "score": 40, "winner": True, "startPlayer": True}],
             "result": "Анна won with 40 points."}
    ctx = FakeCtx(history=[entry], lang=lang).open(GameScreen(entry))
    rows = [str(i.label) for i in ctx.top.items(ctx)]
    assert said in rows
    assert not any("harsh" in r or "truce" in r or "clockwise" in r for r in rows)


def test_history_the_card_cannot_read_is_said_once_never_shown_as_no_games(state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """QA (faults): History that could not be read (the card's "disk I/O error" while it ran) was
    shown as "No games yet", a loss said as a fact, and only the log knew. The panel says it cannot
    be read, once (a key closes the notice and the screen stays usable), and lists the games again
    when the card reads again."""
    import sqlite3
    app = app_with(JC_FIGHT, [], state_dir)
    try:
        real = history.games

        def eio(*_a, **_k):
            raise sqlite3.OperationalError("disk I/O error")
        monkeypatch.setattr(history, "games", eio)
        open_history(app)
        said = texts(app).replace("\n", " ")
        assert "History cannot be read now" in said, said
        app.handle("b")                                                 # the notice closes
        listed = texts(app)
        assert app.message is None and "Statistics" in listed           # not again at each frame
        for _ in range(3):
            app.handle("down")
        listed = texts(app).replace("\n", " ")
        assert "No games yet" not in listed                             # never a loss said as a fact
        assert "History cannot be read" in listed, listed               # the list says so itself
        assert app.message is None
        monkeypatch.setattr(history, "games", real)
        app.handle("b")
        open_history(app)
        assert "JC battle 1" in texts(app)
    finally:
        app.console.close()


def test_statistics_and_earlier_games_the_card_cannot_read_are_never_said_empty():
    """QA (misc): when the card cannot be read the Ctx says so (None, not []): the statistics pages
    said "No solo game finished yet." / "No battle fought yet." and Earlier games "No earlier games
    yet." — losses said as facts. Each says the records cannot be read, every time it is opened."""
    from firmware.screens.archive import open_archive
    from firmware.screens.history_stats import crassus_rows, glory_rows, jc_rows, people_rows
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(unreadable=True, players=["Анна"])
    for rows in (crassus_rows(ctx), glory_rows(ctx), jc_rows(ctx), people_rows(ctx)):
        assert rows == ["History cannot be read now. Check the card."], rows
    open_archive(ctx)
    open_archive(ctx)                                   # a second press says it again
    assert ctx.notes[-2:] == ["The earlier games cannot be read now. Check the card."] * 2, ctx.notes
    assert not ctx.stack


@pytest.mark.parametrize("how", ["device", "serial"])
def test_a_game_an_undo_took_out_of_history_is_no_longer_shown(state_dir: Path, how: str):
    """A game its rules just ended (W-11: an automatic victory), its History record open on the
    device; an undo (hold B on it, or a line from the serial link) takes the finishing step back
    and History drops the record: the record's screen goes with it, never showing a game History no
    longer has, nor sending it over the serial link."""
    from firmware.screens.history import GameScreen, HistoryScreen
    app = app_with(["new sword players=romans,gauls seed=4", "vp romans +3", "victory romans"], [], state_dir)
    try:
        app.stack = app.stack[:1]
        open_history(app)
        app.handle("a")                                                 # on the newest game: its record
        assert isinstance(app.stack[-1], GameScreen) and "Sword of Rome" in texts(app)
        if how == "device":
            for key in ("b:hold", "a"):
                app.render()
                app.handle(key)
            app.message = None
        else:
            assert json.loads(undo_by_link(app))["ok"]
        assert app.console.request("history")["games"] == []
        assert isinstance(app.stack[-1], HistoryScreen), [type(s).__name__ for s in app.stack]
        assert "No games yet" in texts(app)
    finally:
        app.console.close()


@pytest.mark.parametrize("page, counted, none", [
    ("JC battles", "attacking 0/1 won", "No battle fought yet."),
    ("Players", "1 game, 0 won", "No game with named players yet."),
    ("vs Auto-Crassus", "No solo game finished yet.", "No solo game finished yet."),
])
def test_statistics_go_once_an_undo_took_a_game_out_of_history(state_dir: Path, page: str, counted: str, none: str):
    """A battle fought to the end (J-14) is in History and in the statistics; an undo from the
    serial link takes the battle back and History drops it: the statistics page open goes too (it
    was read from a History that is no longer), back on the list of statistics."""
    from firmware.screens.history_stats import StatsMenu
    app = app_with(["new jc-battle seed=4 people=caesar:Anna,pompey:Boris", "add attacker c_leg10",
                    "add defender p_pompeius", "fight"], [], state_dir)
    try:
        app.stack = app.stack[:1]
        app.push(StatsMenu())
        menu = app.stack[-1]
        menu.cursor = [i.label for i in menu.items(app)].index(page)
        app.handle("a")
        assert app.stack[-1] is not menu and counted in " ".join(texts(app).split())
        assert json.loads(undo_by_link(app))["ok"] and app.console.request("history")["games"] == []
        assert app.stack[-1] is menu, [type(s).__name__ for s in app.stack]
        app.handle("a")
        assert none in " ".join(texts(app).split())
    finally:
        app.console.close()


def _games(ids: range) -> list[dict]:
    """History entries ``ids``, newest (highest id) first, each its own battle."""
    return [{**ENTRY, "id": i, "mode": {**ENTRY["mode"], "number": i}, "result": f"Battle {i}: Caesar attacked and won."}
            for i in sorted(ids, reverse=True)]


def _listed(ctx) -> list[str]:
    """The games History lists now (their numbers: the battles are numbered by their id)."""
    return [str(i.label) for i in ctx.top.items(ctx) if str(i.label).startswith("JC battle")]


def test_history_lists_its_older_games_a_page_at_a_time_never_hides_them():
    """QA: with more than 50 games in History the device listed the newest 50 and nothing else,
    with nothing to say that more were kept: the 51st game played vanished from History on the
    panel (only the console's ``history`` still had it). "Older games…" under the list lists 50
    more, the cursor on the first of them, as long as History has older ones."""
    from firmware.screens.history import LISTED, GameScreen, HistoryScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(history=_games(range(1, LISTED + 6))).open(HistoryScreen())
    ctx.render()
    assert len(_listed(ctx)) == LISTED and _listed(ctx)[0] == f"JC battle {LISTED + 5}"
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels[-1] == "Older games…"
    ctx.press(*["down"] * (LISTED + 1))                         # to the last row
    assert str(ctx.top.items(ctx)[ctx.top.cursor].label) == "Older games…"
    ctx.press("a")
    ctx.render()
    assert _listed(ctx) == [f"JC battle {i}" for i in range(LISTED + 5, 0, -1)]     # every game, none twice
    assert "Older games…" not in ctx.texts()                    # no older one left to list
    assert str(ctx.top.items(ctx)[ctx.top.cursor].label) == "JC battle 5"          # the first of those now listed
    ctx.press("a")                                              # an older game's page opens and stays
    assert isinstance(ctx.top, GameScreen) and not ctx.top.stale(ctx)
    assert [str(i.label) for i in ctx.top.items(ctx)][-1] == "No. 5"


def test_an_older_games_page_stays_open_when_newer_games_push_it_out_of_the_list_read():
    """A game's page reads the newest games to follow its record (an undo takes it out, a
    correction changes it): games finished meanwhile over the serial link push an older game out
    of that read, which is no reason to take its page off; the game leaving History is."""
    from firmware.screens.history import LISTED, HistoryScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(history=_games(range(1, LISTED + 2))).open(HistoryScreen())
    ctx.render()
    ctx.press(*["down"] * LISTED, "a", "a")                     # Older games…, then the oldest game's page
    page = ctx.top
    assert [str(i.label) for i in page.items(ctx)][-1] == "No. 1" and not page.stale(ctx)
    kept = list(ctx.stored_history)
    ctx.stored_history = [e for e in kept if e["id"] != 1]          # taken out of History: the page goes
    assert page.stale(ctx)
    ctx.stored_history = _games(range(LISTED + 2, 3 * LISTED)) + kept     # 98 newer games: it stays
    assert not page.stale(ctx) and [str(i.label) for i in page.items(ctx)][-1] == "No. 1"


def test_paging_through_older_games_keeps_one_read_of_history_not_every_page(state_dir: Path):
    """Each page of older games reads the newest N games again, N 50 more each time; the App kept
    every read (until History changed), so paging through a year of History (4,000 games, about
    4 KB each as read) held hundreds of MB on a 512 MB Pi. One read of the newest N is kept."""
    app = app_with(JC_FIGHT + ["new dice seed=1"] + JC_FIGHT, [], state_dir)
    try:
        assert [len(app.history(n) or []) for n in (1, 2, 51, 101)] == [1, 2, 2, 2]
        assert [k for k in app._reads._read if k.startswith("history ")] == ["history 101"]
        assert app.history(101) == app.history(51) == app.history(2)               # (each read again)
    finally:
        app.console.close()


def test_a_key_on_history_paged_out_to_a_thousand_games_makes_none_of_their_rows_again(monkeypatch):
    """History paged out to thousands of games ("Older games…" pressed again and again) said every
    game's name and day, twice, and measured every row, at each key: on a Pi, seconds a key
    (scripts/bench_history_list.py: 73 times a key on the first page). The games' rows are made
    once per read of History; they are made again when History changes, more are listed, or the
    language changes."""
    from firmware import i18n
    from firmware.screens import history as screen
    from firmware.screens.widgets import listing
    from tests.fakectx import FakeCtx
    made: list[str] = []
    for module, name in ((screen, "game_name"), (screen, "list_day"), (listing, "item_rows"), (screen, "item_rows")):
        real = getattr(module, name, None)
        if real is not None:
            monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: (made.append(_name), _real(*a, **k))[1])
    ctx = FakeCtx(history=_games(range(1, 1001))).open(screen.HistoryScreen())
    ctx.render()
    while "Older games…" in [str(i.label) for i in ctx.top.items(ctx)]:
        ctx.top.cursor = len(ctx.top.items(ctx)) - 1
        ctx.press("a")
        ctx.render()
    assert len(_listed(ctx)) == 1000
    made.clear()
    ctx.press("down", "up", "up", "down")
    ctx.render()
    assert "game_name" not in made and "list_day" not in made   # no game's row made again,
    assert made.count("item_rows") < 5 * 2 * 20                 # only the rows on the panel measured
    ctx.stored_history = _games(range(1, 1002))                 # a game finished over the serial link
    ctx.render()
    assert _listed(ctx)[0] == "JC battle 1001" and made.count("game_name") == 1000
    try:
        i18n.set_language("ru")                                 # Settings → Language
        ctx.render()
        labels = [str(i.label) for i in ctx.top.items(ctx)]
        assert _listed(ctx) == [] and "ЮЦ: бой 1001" in labels and "ЮЦ: бой 2" in labels
    finally:
        i18n.set_language("en")


def test_older_games_reads_only_the_older_rows_and_makes_only_their_rows(state_dir: Path, monkeypatch):
    """Each "Older games…" read the newest N games again, every row decoded and every game's row
    said anew: 0.2 s a press here with 3,000 listed, 3 s on a Pi (scripts/bench_history_list.py).
    While History reads as it did, the App reads the older rows only and gives fewer games from
    the read it keeps; the list makes the rows of the games added only. What is given is what a
    whole read gives."""
    from firmware.screens import history as screen
    app = app_with(JC_FIGHT * 5 + ["new dice seed=1"], [], state_dir)
    try:
        full = [e["id"] for e in history.games(app.console.store.db, None)]
        assert len(full) == 5
        decoded: list[int] = []
        real_entry = history._entry
        monkeypatch.setattr(history, "_entry", lambda row: (decoded.append(row[0]), real_entry(row))[1])
        assert [e["id"] for e in app.history(2) or []] == full[:2] and len(decoded) == 2
        assert [e["id"] for e in app.history(4) or []] == full[:4] and decoded[2:] == full[2:4]
        assert [e["id"] for e in app.history(1) or []] == full[:1] and len(decoded) == 4     # from the read kept
        assert [e["id"] for e in app.history(9) or []] == full and len(decoded) == 5
        with app.console.store.transaction() as db:          # History changed: read whole again
            db.execute("UPDATE history SET crc=crc WHERE id=?", (full[0],))
        decoded.clear()
        assert [e["id"] for e in app.history(3) or []] == full[:3] and len(decoded) == 3
    finally:
        app.console.close()
    said: list[str] = []
    real_name = screen.game_name
    monkeypatch.setattr(screen, "game_name", lambda e: (said.append(e["id"]), real_name(e))[1])
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(history=_games(range(1, 3 * screen.LISTED + 1))).open(screen.HistoryScreen())
    ctx.render()
    assert len(said) == screen.LISTED
    ctx.top.cursor = len(ctx.top.items(ctx)) - 1             # Older games…
    ctx.press("a")
    ctx.render()
    assert len(_listed(ctx)) == 2 * screen.LISTED and len(said) == 2 * screen.LISTED   # each game's row made once
    ctx.press("a")                                           # the first of the older games: its page
    assert isinstance(ctx.top, screen.GameScreen) and ctx.top.limit == 2 * screen.LISTED + 1


def test_two_games_of_one_name_on_one_day_are_told_apart_by_the_time_each_ended(monkeypatch: pytest.MonkeyPatch):
    """Two JC battles of one day read «JC battle 1  01.03» twice: only their pages told them
    apart. Rows of the same name and day show the time each ended instead (marked «~» as the day
    is when the clock was not set); a game alone on its day keeps its day; the same after "Older
    games…" lists the older twin of a game listed (its row made again)."""
    from firmware.screens import history as screens
    from firmware.screens.history import HistoryScreen
    from firmware.export_dates import local
    from tests.fakectx import FakeCtx
    late = {**ENTRY, "id": 9, "finished": "2026-03-01T13:05:00Z", "unsynced": ["finished"]}
    early = {**ENTRY, "id": 8, "finished": "2026-03-01T10:40:00Z"}
    times = [f"~{local(late['finished']):%H:%M}", f"{local(early['finished']):%H:%M}"]   # (the zone's clock)
    other = {**ENTRY, "id": 6, "finished": "2026-02-27T12:00:00Z"}
    glory = {**ENTRY, "id": 5, "game": "glory", "name": "For the Glory of Rome", "part": "game", "mode": {},
             "finished": "2026-03-01T12:00:00Z"}
    for lang in ("en", "ru", "uk"):
        ctx = FakeCtx(history=[late, early, glory, other], lang=lang).open(HistoryScreen())
        ctx.render()
        games = [(str(i.label), str(i.value)) for i in ctx.top.items(ctx)][-4:]
        assert [v for _n, v in games] == [*times, "01.03", "27.02"], (lang, games)
        assert len({(n, v) for n, v in games}) == 4
    monkeypatch.setattr(screens, "LISTED", 1)
    ctx = FakeCtx(history=[late, early, other]).open(HistoryScreen())
    ctx.render()
    assert [str(i.value) for i in ctx.top.items(ctx) if str(i.label) == "JC battle 1"] == ["~01.03"]
    ctx.top.shown = 2                                      # "Older games…": its twin is listed
    ctx.render()
    assert [str(i.value) for i in ctx.top.items(ctx) if str(i.label) == "JC battle 1"] == times


def test_earlier_games_mark_a_day_taken_with_the_clock_unset_as_history_does(state_dir: Path,
                                                                             monkeypatch: pytest.MonkeyPatch):
    """A game played while the clock was not set: History lists it «~27.11», Earlier games listed
    the same game «27.11», as if its day were sure. One convention: «~» on both; a game left
    with the clock set is not marked (Earlier games shows the time it was left: tests/test_clock.py)."""
    from firmware.screens.archive import open_archive
    from firmware.screens.history import HistoryScreen, list_day
    unset = [True]
    monkeypatch.setattr(history, "_clock_unsynced", lambda: unset[0])
    app = app_with(JC_FIGHT, [], state_dir)
    try:
        assert app.console.request("new jc-battle seed=5")["ok"]          # (the first left, the clock still not set)
        unset[0] = False                                    # the network came: the clock is set
        for line in ("add attacker c_leg10", "add defender p_pompeius", "fight", "new dice seed=1"):
            assert app.console.request(line)["ok"], line
        app.stack = app.stack[:1]
        app.push(HistoryScreen())
        listed = [str(i.value) for i in app.stack[-1].items(app) if str(i.label) == "JC battle 1"]
        assert listed[1].startswith("~") and not listed[0].startswith("~"), listed
        days = [list_day(e) for e in app.history() or []]                # (the list shows their times: one day)
        assert days[1].startswith("~") and not days[0].startswith("~"), days
        app.stack = app.stack[:1]
        open_archive(app)
        earlier = [str(i.value) for i in app.stack[-1].items(app) if str(i.label) == "Julius Caesar"]
        # (two of one game on one day: both lists show times; the same mark on the same game)
        assert [e.startswith("~") for e in earlier] == [d.startswith("~") for d in days], (earlier, days)
    finally:
        app.console.close()


def test_earlier_games_tell_two_sessions_of_one_game_on_one_day_apart_by_the_time_each_was_left():
    """Earlier games listed two Julius Caesar sessions of one day as «Julius Caesar 01.03» twice:
    which one A reopens could not be read. As in History, they show the time each was left
    («~» kept); a game alone on its day keeps its day."""
    import datetime as dt

    from firmware.screens.archive import open_archive
    from tests.fakectx import FakeCtx

    def left(day: int, hour: int, minute: int) -> float:
        return dt.datetime(2026, 3, day, hour, minute).timestamp()      # (local time: the panel's)

    def session(game: str, sid: str, when: float, unsynced: bool = False) -> dict:
        return {"header": {"v": 1, "game": game, "line": f"new {game} seed=1", "seed": 1, "sid": sid},
                "lines": [], "ended": when, "unsynced": unsynced}
    ctx = FakeCtx(archives=[session("jc-battle", "a", left(1, 21, 5), True), session("jc-battle", "b", left(1, 18, 40)),
                            session("glory", "c", left(1, 12, 0)), session("jc-battle", "d", left(27, 12, 0))])
    open_archive(ctx)
    rows = [(str(i.label), str(i.value)) for i in ctx.top.items(ctx)]
    assert rows == [("Julius Caesar", "~21:05"), ("Julius Caesar", "18:40"), ("Glory of Rome", "01.03"),
                    ("Julius Caesar", "27.03")], rows


def test_a_glory_seat_nobody_was_named_for_is_said_in_the_language_of_the_moment(state_dir: Path):
    """A Glory game played in Russian with a seat left unnamed keeps it as said then, «Красный»;
    in English History's page read «Красный and Анна share the win» and «✓Красный: 1», in
    Ukrainian the Russian word among Ukrainian ones (the export's comments too). The seat is said
    in the language of the moment (G-15: the co-rulers' result); a person's name is left as it is."""
    from firmware.screens.history import detail_rows
    app = app_with(["new glory players=Красный,Анна seed=5", *["event", "end-round"] * 9, "score", "end"], [],
                   state_dir, "ru")
    try:
        for lang, said in (("ru", ("Победители и соправители: Красный и Анна", "✓Красный: 1")),
                           ("en", ("Red and Анна share the win", "✓Red: 1")),
                           ("uk", ("Переможці й співправителі: Червоний і Анна", "✓Червоний: 1"))):
            assert app.console.request(f"settings language={lang}")["ok"]
            i18n.set_language(lang)
            [entry] = app.history() or []
            rows = detail_rows(entry)
            assert rows[1].startswith(said[0]) and said[1] in rows and "✓Анна: 1" in rows, (lang, rows)
            comments = app.console.request("export format=bgstats")["play"]["comments"]
            assert comments.startswith(said[0]), (lang, comments)
    finally:
        i18n.set_language("en")
        app.console.close()


def test_the_crassus_figures_page_lists_the_levels_in_the_charts_order(state_dir: Path):
    """Statistics → vs Auto-Crassus draws easy, normal, hard; A showed its figures in the order the
    levels were last played (hard first after a hard game), so the page did not follow the chart.
    It lists them as the chart does, the base game before its modules (C-12: a solo game's level)."""
    from firmware.screens.history_stats import crassus_rows

    def solo(db, sid: str, difficulty: str, expansions: list[str]) -> None:
        header = {"sid": sid, "game": "caesar-solo", "line": "new caesar-solo", "seed": sid}
        rec = {"mode": {"kind": "solo", "difficulty": difficulty, "side": "caesar", "expansions": expansions},
               "players": [player("Caesar", 12, True), player("Auto-Crassus", 5, False, True)],
               "result": history.Msg("test")}
        history._put(db, header, "game", rec, 10, "finished")
    app = app_with([], [], state_dir)
    try:
        with app.console.store.transaction() as db:
            history.ensure(db)
            for i, (level, modules) in enumerate([("normal", []), ("easy", ["poison"]), ("easy", []), ("hard", [])]):
                solo(db, f"s{i}", level, modules)
        heads = [r for r in crassus_rows(app) if not r.startswith(" ")]
        assert [h.split(",")[0] for h in heads] == ["easy", "easy", "normal", "hard"], heads
        assert heads[0].replace(base.TIE, " ") == "easy, base game:" and heads[1] != heads[0], heads
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, you, crassus", [("en", "✓Pompey: 12", "·Auto-Crassus (Caesar): 5"),
                                                ("ru", "✓Помпей: 12", "·Авто-Красс (Цезарь): 5"),
                                                ("uk", "✓Помпей: 12", "·Авто-Красс (Цезар): 5")])
def test_a_solo_game_s_page_says_the_side_auto_crassus_played(lang: str, you: str, crassus: str, state_dir: Path):
    """History → a solo Caesar! game named the player's side («Анна (Помпей)») but Auto-Crassus
    alone, «·Авто-Красс: 5»: which side he played was nowhere on the page. He plays the side the
    player left him (S-1), said as the export gives it to BG Stats, the row whole (it wraps)."""
    from firmware.screens.history import GameScreen, detail_rows
    app = app_with([], [], state_dir, lang=lang)
    try:
        with app.console.store.transaction() as db:
            history.ensure(db)
            header = {"sid": "s1", "game": "caesar-solo", "line": "new caesar-solo", "seed": "s1"}
            rec = {"mode": {"kind": "solo", "difficulty": "hard", "side": "pompey", "expansions": []},
                   "players": [player("Pompey", 12, True), player("Auto-Crassus", 5, False, True)],
                   "result": history.Msg("test")}
            history._put(db, header, "game", rec, 10, "finished")
        i18n.set_language(lang)
        [entry] = app.history() or []
        rows = detail_rows(entry)
        assert you in rows and crassus in rows, rows
        played = app.console.request("export format=bgstats")["play"]["players"]
        assert [p.get("role") for p in played] == [you[1:-4], crassus[crassus.index("(") + 1:crassus.index(")")]]
        app.push(GameScreen(entry))
        seen = []
        for _ in range(len(rows) + 2):
            seen.append(texts(app))
            app.handle("down")
        drawn = " ".join(" ".join(s.split("\n")) for s in seen)
        assert crassus[1:] in " ".join(drawn.split()) and "…" not in drawn, drawn
    finally:
        i18n.set_language("en")
        app.console.close()


def test_a_long_typed_name_is_cut_beside_its_side_not_the_side():
    """A person's name too long for the row was cut with its side: «✓Максиміліан Оле…: 12», which
    side they played gone. The name is cut, the side stays whole, the row within the panel."""
    from firmware.screens.history import detail_rows
    entry = {"id": 4, "game": "caesar-solo", "name": "Caesar! Seize Rome in 20 Minutes", "status": "finished",
             "started": None, "finished": "2026-03-01T18:47:40Z",
             "mode": {"kind": "solo", "difficulty": "hard", "side": "pompey", "expansions": []},
             "players": [{"name": "Максиміліан Олександрович", "role": "pompey", "score": 12, "winner": True},
                         {"name": "Auto-Crassus", "score": 5, "winner": False, "startPlayer": True}],
             "result": "Pompey won.", "unsynced": [], "seed": None}
    i18n.set_language("uk")
    try:
        rows = detail_rows(entry)
    finally:
        i18n.set_language("en")
    [row] = [r for r in rows if r.startswith("✓")]
    assert row.endswith(" (Помпей): 12") and row.startswith("✓Макс") and "…" in row and len(row) <= base.COLS, row


@pytest.mark.parametrize("lang, said", [
    ("en", {95: "Play time: 1 hour 35 minutes", 62: "Play time: 1 h 2 min", 715: "Play time: 11 hours 55 minutes",
            1439: "Play time: 23 hours 59 minutes"}),
    ("ru", {95: "Время игры: 1 час 35 минут", 62: "Время игры: 1 час 2 минуты", 121: "Время игры: 2 часа 1 минута",
            302: "Время игры: 5 часов 2 минуты", 1301: "Время игры: 21 час 41 минута",
            1344: "Время игры: 22 часа 24 минуты"}),
    ("uk", {95: "Час гри: 1 год 35 хв", 715: "Час гри: 11 годин 55 хвилин", 1439: "Час гри: 23 години 59 хвилин",
            302: "Час гри: 5 год 2 хв", 1301: "Час гри: 21 година 41 хвилина", 1344: "Час гри: 22 години 24 хвилини"}),
])
def test_a_games_play_time_of_an_hour_or_more_is_said_in_whole_words_where_they_fit_its_row(lang: str, said: dict):
    """History → a game said «Время игры: 1 ч 35 мин» for every time of an hour or more: the hours and
    minutes are whole words with their plural forms (1 / 2–4 / 5+ and 21, 22: «21 час 41 минута»),
    unless the whole words take more rows of the page than the abbreviations do (Ukrainian «Час гри:
    1 год 35 хв» is one row, «1 година 35 хвилин» would be two; English «1 h 2 min» likewise):
    decided per row, never cut."""
    from firmware.screens.history import detail_rows
    from firmware.screens.widgets.listing import wrap_label
    entry = {**ENTRY, "status": "finished", "unsynced": []}
    before = i18n.language()
    i18n.set_language(lang)
    try:
        for minutes, row in said.items():
            assert row in detail_rows({**entry, "minutes": minutes}), (minutes, detail_rows({**entry, "minutes": minutes}))
            assert len(wrap_label(row, base.COLS - 1)) <= 2
    finally:
        i18n.set_language(before)


DICE_ENTRY = {"id": 8, "game": "dice", "name": "Dice", "status": "ended", "started": "2026-03-01T10:05:00",
              "finished": "2026-03-01T10:30:00", "part": "ended", "mode": {"kind": "ended"}, "players": [],
              "result": "Ended by the players after 4 actions."}


def test_a_dice_session_offers_nothing_to_send_and_send_over_serial_sends_the_newest_game():
    """A dice or bag session is no BG Stats play (firmware/export.py ``is_tool``): its page offered
    "Send over serial", which sent a play of a game «Dice» with no players, and History's "Send over
    serial" sent it when it was the newest. Its page offers no Send; History's sends the newest
    game (the battle before the dice); with only tools in History, History offers no Send at all."""
    from firmware.screens.history import GameScreen, HistoryScreen
    from tests.fakectx import FakeCtx
    ctx = FakeCtx(history=[DICE_ENTRY, ENTRY]).open(HistoryScreen())
    ctx.render()
    rows = [str(i.label) for i in ctx.top.items(ctx)]
    assert rows[ctx.top.cursor] == "Dice"                            # it opens on the newest: the dice
    ctx.press("a")
    assert isinstance(ctx.top, GameScreen)
    assert "Send over serial" not in [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press("b")
    ctx.top.cursor = rows.index("Send over serial")
    ctx.press("a")
    assert json.loads(ctx.sent[-1])["id"] == ENTRY["id"] and ctx.notes[-1] == "Sent: JC battle 1."
    only = FakeCtx(history=[DICE_ENTRY]).open(HistoryScreen())
    assert "Send over serial" not in [str(i.label) for i in only.top.items(only)]


def test_a_battles_page_sends_its_campaigns_play_and_says_so(state_dir: Path):
    """J-13, J-17: a battle of a campaign that is over sends its game's one BG Stats play, the
    campaign's (firmware/export.py ``play_of``), and the notice names what was sent: it said
    «Sent: JC battle 2.» for a line that held the campaign."""
    serial = pytest.importorskip("serial")

    def battle(c: str, p: str) -> list[str]:
        return [f"add attacker {c}", f"add defender {p}", "fight"]
    app = app_with(["new jc-battle year=5 people=caesar:Anna,pompey:Boris seed=4", *battle("c_leg10", "p_leg1"),
                    "next-battle", *battle("c_leg8", "p_leg3"), "control Roma caesar", "winter"], [], state_dir, "ru")
    port = serial.serial_for_url("loop://", timeout=1)
    try:
        from firmware.screens.history import GameScreen
        app.console.serial_out = port.write
        entries = app.history(10) or []
        battle2 = next(e for e in entries if e["part"] == "battle-2")
        campaign = next(e for e in entries if e["part"] == "campaign")
        app.push(GameScreen(battle2))
        app.handle("up")                                                # Send over serial, just above the game
        app.handle("a")
        got = json.loads(port.readline().decode("utf-8"))
        assert got["id"] == campaign["id"] and got["play"] == app.run(f"export format=bgstats id={campaign['id']}")["play"]
        assert "ЮЦ: кампания" in " ".join(app.message or []), app.message
    finally:
        port.close()
        app.console.close()


@pytest.mark.parametrize("lang, said", [
    ("en", "Sent the unfinished game: 2 battles, no result yet."),
    ("ru", "Отправлена неоконченная партия: 2 боя, результата ещё нет."),
    ("uk", "Надіслано незавершену партію: 2 бої, результату ще немає.")])
def test_a_battles_page_of_a_campaign_going_on_says_it_sent_the_unfinished_game(state_dir: Path, lang: str, said: str):
    """J-13: a campaign of two battles going on is one BG Stats play, the game so far (no winner:
    firmware/export.py ``play_of``); sent from battle 1's page the notice said «Sent: JC battle 2.»
    — neither the page's battle nor what was sent. It says the unfinished game was sent, with its
    battles and no result yet, in a whole sentence of the language set."""
    serial = pytest.importorskip("serial")

    def battle(c: str, p: str) -> list[str]:
        return [f"add attacker {c}", f"add defender {p}", "fight"]
    app = app_with(["new jc-battle year=5 people=caesar:Anna,pompey:Boris seed=4", *battle("c_leg10", "p_leg1"),
                    "next-battle", *battle("c_leg8", "p_leg3")], [], state_dir, lang)
    port = serial.serial_for_url("loop://", timeout=1)
    try:
        from firmware.screens.history import GameScreen
        app.console.serial_out = port.write
        entries = app.history(10) or []
        battle1 = next(e for e in entries if e["part"] == "battle-1")
        app.push(GameScreen(battle1))
        app.handle("up")                                                # Send over serial, just above the game
        app.handle("a")
        got = json.loads(port.readline().decode("utf-8"))
        assert got["status"] == "ended" and not any(p["winner"] for p in got["play"]["players"])   # the game so far
        assert " ".join(app.message or []) == said, app.message
    finally:
        port.close()
        app.console.close()


@pytest.mark.parametrize("lang, said", [
    ("en", "Sent the draws of: Julius Caesar."),
    ("ru", "Отправлен жребий игры: Юлий Цезарь."),
    ("uk", "Надіслано жереб гри: Юлій Цезар.")])
def test_a_battles_page_sends_its_games_draw_record_and_names_the_game(state_dir: Path, lang: str, said: str):
    """A Julius Caesar game of two battles, ended: battle 1's page's "Send the draw record" sends
    the session's record — every draw of both battles (docs/fairness.md) — and said «Sent the
    draws of: JC battle 1.», as if it held that battle's alone. The notice names the game."""
    serial = pytest.importorskip("serial")

    def battle(c: str, p: str) -> list[str]:
        return [f"add attacker {c}", f"add defender {p}", "fight"]
    app = app_with(["new jc-battle year=5 people=caesar:Anna,pompey:Boris", *battle("c_leg10", "p_leg1"),
                    "next-battle", *battle("c_leg8", "p_leg3"), "end"], [], state_dir, lang)
    port = serial.serial_for_url("loop://", timeout=1)
    try:
        from firmware.screens.history import GameScreen
        app.console.serial_out = port.write
        entries = app.history(10) or []
        battle1 = next(e for e in entries if e["part"] == "battle-1")
        app.push(GameScreen(battle1))
        app.render()
        app.stack[-1].cursor = [i.ident for i in app.stack[-1].items(app)].index("draws")
        app.handle("a")                                                 # Send the draw record
        import time
        for _ in range(200):                                            # (made off the main loop)
            app.render()
            if app.message:
                break
            time.sleep(0.05)
        got = json.loads(port.readline().decode("utf-8"))
        assert len([a for a in got["record"]["actions"] if a == "fight"]) == 2        # both battles' draws
        assert " ".join(app.message or []) == said, app.message
    finally:
        port.close()
        app.console.close()


@pytest.mark.parametrize("lang, rows", [
    ("ru", ["сложный,", "базовая игра:", "лёгкий, Яды,", "Контроль границ:"]),
    ("uk", ["складний, базова гра:", "легкий, Отрута,", "Контроль кордонів:"]),
    ("en", ["hard, base game:", "easy,", "Poison expansion,", "Border control:"])])
def test_the_crassus_figures_keep_each_modules_name_whole_on_a_row(state_dir: Path, lang: str, rows: list[str]):
    """Statistics → vs Auto-Crassus → A: «сложный, базовая» / «игра:» — the base game's name broken
    with its last word alone on a row. Each name (the base game, a module) stays whole on a row
    where it fits one; the level and the names break after a comma."""
    from firmware.screens.history_stats import crassus_rows
    from firmware.screens.widgets.scroll import wrapped

    def solo(db, sid: str, difficulty: str, expansions: list[str]) -> None:
        header = {"sid": sid, "game": "caesar-solo", "line": "new caesar-solo", "seed": sid}
        rec = {"mode": {"kind": "solo", "difficulty": difficulty, "side": "caesar", "expansions": expansions},
               "players": [player("Caesar", 5, False), player("Auto-Crassus", 12, True, True)],
               "result": history.Msg("test")}
        history._put(db, header, "game", rec, 10, "finished")
    app = app_with([], [], state_dir, lang)
    try:
        with app.console.store.transaction() as db:
            history.ensure(db)
            solo(db, "s1", "hard", [])
            solo(db, "s2", "easy", ["poison", "border_control"])
        said = wrapped(crassus_rows(app))
        heads = [r for r in said if not r.startswith(" ")]
        assert sorted(heads) == sorted(rows), said
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, said", [
    ("en", "Red, Blue and Yellow share the win with 1 point each."),
    ("ru", "Победители и соправители: Красный, Синий и Жёлтый, по 1 очку славы."),
    ("uk", "Переможці й співправителі: Червоний, Синій і Жовтий, по 1 очку слави.")])
def test_a_shared_win_of_glory_seats_nobody_named_is_said_in_the_language_of_the_page(state_dir: Path, lang: str,
                                                                                      said: str):
    """G-15: three seats nobody named (kept as a Ukrainian table said them, «Червоний»…) share the
    win: the page read «Червоний, Синій and Yellow share the win» in English (and «Червоний,
    Синій и Жёлтый» in Russian): the first of the listed winners are one value of the sentence,
    and only the last was said as a seat. Every seat of the list is said in the page's language,
    as the players' rows are; the BG Stats play's comments say it so too."""
    from firmware.export import bgstats_play
    from firmware.screens.history import detail_rows
    glory = ["new glory players=Червоний,Синій,Жовтий seed=1", *(["event", "end-round"] * 9), "score"]
    app = app_with(["settings language=uk", *glory, f"settings language={lang}"], [], state_dir, lang)
    try:
        [entry] = app.history() or []
        rows = detail_rows(entry)
        assert said in rows, rows
        assert bgstats_play(dict(entry.items()))["comments"].startswith(said)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, title, game", [("ru", "Кубики", "Партия"), ("uk", "Кубики", "Партія"), ("en", "Dice", "Game")])
def test_a_dice_session_s_page_is_titled_by_its_tool_not_game(state_dir: Path, lang: str, title: str, game: str):
    """History → a dice session: its page was titled «Партия» (a game), though a roll session is
    none (BG Stats does not get it); it is titled by its tool. A game's page keeps «Партия»."""
    from firmware.screens.history import GameScreen
    app = app_with(["new dice seed=1", "roll 2d6", "end", "new glory players=Ann,Bob seed=1", "end"], [], state_dir,
                   lang=lang)
    try:
        glory, dice = app.history(2)
        assert dice["game"] == "dice" and glory["game"] == "glory"
        assert GameScreen(dice).title == title and GameScreen(glory).title == game
        app.push(GameScreen(dice))
        app.render()
        assert title in [t for _x, _y, t, _k in drawn(app)]
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, row, said", [
    ("en", "History cannot be read…", "History cannot be read now. Check the card."),
    ("ru", "Историю не прочитать…", "Историю сейчас не прочитать. Проверьте карту."),
    ("uk", "Історію не прочитати…", "Історію зараз не прочитати. Перевірте картку.")])
def test_history_the_card_cannot_read_says_so_again_when_its_row_is_chosen(state_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                                           lang: str, row: str, said: str):
    """The row «History cannot be read» stood where the games are and A on it did nothing, without
    a word (once its notice was closed). The same rule as «No games yet…»: A says it again, and
    what to do."""
    import sqlite3
    from firmware.screens.history import HistoryScreen

    def eio(*_a, **_k):
        raise sqlite3.OperationalError("disk I/O error")
    app = app_with(JC_FIGHT, [], state_dir, lang=lang)
    try:
        i18n.set_language(lang)
        monkeypatch.setattr(history, "games", eio)
        screen = HistoryScreen()
        app.push(screen)
        app.render()
        app.handle("b")                                                 # the notice said at the read closes
        app.render()
        rows = [str(i.label) for i in screen.items(app)]
        assert row in rows and app.message is None, rows
        while str(screen.items(app)[screen.cursor].label) != row:
            app.handle("down" if screen.cursor < rows.index(row) else "up")
            app.render()
        app.handle("a")
        app.render()
        assert app.message is not None and " ".join(app.message) == said and app.errors == 0, app.message
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang, row, said", [
    ("en", "No games yet…", "A game is kept here once it ends."),
    ("ru", "Партий пока нет…", "Партия будет здесь, когда окончится."),
    ("uk", "Партій ще немає…", "Партія буде тут, коли закінчиться.")])
def test_history_with_no_games_says_why_when_its_row_is_chosen(state_dir: Path, lang: str, row: str, said: str):
    """p16-newuser: History with no games had the row «Партій ще немає», which the cursor could
    stand on and A did nothing on, without a word. As Fair draw's «Nothing in play…» (one rule
    for an empty list's row): it ends in «…», and A on it says what is kept there and how to start
    a game."""
    from firmware.screens.history import HistoryScreen
    app = app_with([], [], state_dir, lang=lang)
    try:
        i18n.set_language(lang)
        screen = HistoryScreen()
        app.push(screen)
        app.render()
        rows = [str(i.label) for i in screen.items(app)]
        assert rows[-1] == row, rows
        while screen.cursor < len(rows) - 1:
            app.handle("down")
            app.render()
        app.handle("a")
        app.render()
        from firmware.screens.widgets import TextScreen
        note = app.stack[-1]                                # a notice, or a page of its own when longer
        told = " ".join(note.paras) if isinstance(note, TextScreen) and app.stack[-2] is screen else \
            " ".join(app.message or [])
        assert said in told and app.errors == 0, told
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang, said", [("en", "Start a game, dice or a bag"), ("ru", "Начните игру, кубики или мешочек"),
                                        ("uk", "Почніть гру, кубики чи торбинку")])
def test_the_fair_draw_with_nothing_in_play_says_why_when_its_row_is_chosen(state_dir: Path, lang: str, said: str):
    """History → Fair draw with no session showed «Партия не идёт.» as a row A did nothing on (and
    «game» for dice as well): the row says nothing is in play, and A on it says what shows there
    and how to get it."""
    from firmware.screens.fair_draw import FairDrawScreen
    app = app_with([], [], state_dir, lang=lang)
    try:
        assert app.console.session is None
        screen = FairDrawScreen()
        app.push(screen)
        app.render()
        assert [i.label for i in screen.items(app)] == [{"en": "Nothing in play…", "ru": "Сейчас ничего не идёт…",
                                                         "uk": "Зараз нічого не йде…"}[lang]]
        app.handle("a")
        app.render()
        assert said in " ".join(app.message or []) and app.errors == 0, app.message    # a notice
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, first", [("en", "Game 1: its draws are"), ("ru", "Игра 1: её жребий"),
                                         ("uk", "Гра 1: її жереб")])
def test_the_page_of_a_game_put_aside_says_how_to_see_its_draws(state_dir: Path, lang: str, first: str):
    """A battle fought, its session put aside by a new game before it ended (seed None, no tool):
    the page offered only «Send over serial» and said nothing of its draws. It says, whole, what
    the serial link's ``export format=draws`` refusal says (reopen it, end it, ask again); the
    game still being played says nothing of the kind (its draws come with its end)."""
    from firmware.screens.history import GameScreen
    from firmware.screens.widgets.listing import item_rows
    app = app_with([*JC_FIGHT, "new dice"], [], state_dir, lang)
    try:
        entry = next(e for e in app.history() if e["game"] == "jc-battle")
        assert entry.get("seed") is None
        refusal = app.console.request(f"export format=draws id={entry['id']}")["message"]
        page = GameScreen(entry)
        app.push(page)
        aside = [i for i in page.items(app) if str(i.ident).startswith("aside:")]
        assert aside and str(aside[0].label).startswith(first)
        assert " ".join(str(i.label) for i in aside) == refusal
        assert all(len(item_rows(i)) < base.ROWS + 1 and " ".join(item_rows(i)) == i.label for i in aside)
        for n in range(len(aside) + 1):
            app.stack[-1].cursor = n
            assert all(len(t) <= base.COLS for t, k in shown(app) if k == "body")
        app.stack[-1].cursor = 0                                        # its first row (the page's first)
        assert_golden(app.render(), f"history_aside_{lang}")
    finally:
        app.console.close()
    running = app_with(JC_FIGHT, [], state_dir / "running", lang)
    try:
        entry = next(e for e in running.history() if e["game"] == "jc-battle")
        assert not [i for i in GameScreen(entry).items(running) if str(i.ident).startswith("aside:")]
    finally:
        running.console.close()


def test_the_page_of_a_game_put_aside_names_the_copy_that_ended(state_dir: Path):
    """Reopened from Earlier games, its copy ended: the seed is in the copy's draw record, and the
    page says so as the serial link's refusal does (not «reopen it, end it» once more)."""
    from firmware.screens.history import GameScreen
    app = app_with([*JC_FIGHT, "new dice"], [], state_dir)
    try:
        c = app.console
        head, = (json.loads(h) for (h,) in c.store.db.execute(
            "SELECT header FROM sessions WHERE current=0 AND header LIKE '%jc-battle%'"))
        assert c.reopen(head["line"], int(head["seed"]), bool(head.get("committed")), int(head.get("v", 1)),
                        lines=JC_FIGHT[1:], was=head["sid"])["ok"]
        for line in [*JC_FIGHT[1:3], "end"]:
            assert c.request(line)["ok"], line
        first = next(e for e in app.history() if e["id"] == 1)
        copy = max(e["id"] for e in app.history() if e.get("seed") is not None)
        page = GameScreen(first)
        app.push(page)
        rows = [i for i in page.items(app) if str(i.ident).startswith("aside:")]
        aside = " ".join(str(i.label) for i in rows)
        assert aside == c.request("export format=draws id=1")["message"] and f"(game {copy})" in aside
        from firmware.screens.widgets.listing import item_rows
        assert all(len(item_rows(i)) <= base.ROWS and " ".join(item_rows(i)) == i.label for i in rows)
    finally:
        app.console.close()
