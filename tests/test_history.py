"""Finished games remembered (issue 12; PROTOCOL.md "Added in version 1": history): through the
real console, in process and as a subprocess, across restarts, undo and abandoned games."""
from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path

import pytest

from engine.rng import Rng
from firmware.console import Console
from firmware.store import Store
from tests.conftest import HistoryClock, run_console
from tests.test_caesar_console import human_turn
from tests.test_glory_scoring import EXAMPLE


def ok(console, line: str) -> dict:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def glory_after_round_9(console) -> None:
    """A new four-player Glory game (seed 5) played to the end of round 9: only scoring left (G-15)."""
    ok(console, "new glory players=Jack,Henry,Mary,Ross seed=5")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")


def rescore_after_a_sealed_finish(console) -> None:
    """Over a Glory game scored with EXAMPLE: a roll seals the finish (as an older Legatus took),
    two undos open round 9 again, and the game is scored anew with Jack's denarii +40 (G-15)."""
    assert console._run_session(console.session, "roll 1d6")["dice"]
    ok(console, "undo")
    ok(console, "undo")
    ok(console, "end-round")
    sheet = copy.deepcopy(EXAMPLE)
    next(p for p in sheet["players"] if p["name"] == "Jack")["denarii"] += 40
    ok(console, "score " + json.dumps(sheet))


def games(console, n: int | None = None) -> list[dict]:
    return ok(console, "history" if n is None else f"history {n}")["games"]


def play_caesar_to_the_end(console, line: str = "new caesar-solo difficulty=easy seed=21") -> dict:
    ok(console, line)
    rng = Rng(21)
    for _ in range(120):
        st = ok(console, "state")["state"]
        if st["winner"]:
            return st
        if st["turn"] == "crassus":
            ok(console, "crassus")
        else:
            human_turn(console, rng)
    raise AssertionError("the game did not end")


def jc_battle(console) -> dict:
    ok(console, "new jc-battle seed=4")
    ok(console, "add attacker c_leg10")
    ok(console, "add defender p_pompeius")
    return ok(console, "fight")


def test_history_works_without_a_session_and_starts_empty(console):
    assert console.session is None
    assert games(console) == []
    assert ok(console, "export format=csv")["text"] == (
        "\ufeffid,game,name,status,started,finished,play_date,duration_min,unsynced,player,role,score,winner,rank,"
        "start_player,result,seed,share,commitment,player_id\r\n")
    out = console.request("export format=bgstats")
    assert out["ok"] is False and out["error"] == "bad_arguments"
    for bad in ("history x", "history 0", "history 1 2", "export", "export format=xml", "export format=csv id=x",
                "export format=csv id=99"):
        assert console.request(bad)["error"] == "bad_arguments", bad
    assert "history" in ok(console, "help")["commands"] and "export" in ok(console, "help")["commands"]


def test_a_caesar_solo_game_is_recorded_once_when_c12_ends_it(console):
    st = play_caesar_to_the_end(console)
    [g] = games(console)
    assert g["game"] == "caesar-solo" and g["status"] == "finished"
    assert g["mode"]["kind"] == "solo" and g["mode"]["difficulty"] == "easy" and g["mode"]["side"] == "caesar"
    names = [p["name"] for p in g["players"]]
    assert names == ["Caesar", "Auto-Crassus"]                         # Auto-Crassus counts as a player
    winner = next(p for p in g["players"] if p["winner"])
    assert winner["name"] == ("Auto-Crassus" if st["winner"] == "crassus" else "Caesar")
    assert winner["score"] == 12                                       # C-12: the 12th marker placed
    assert sum(p["winner"] for p in g["players"]) == 1
    assert isinstance(g["result"], str) and "Auto-Crassus" in g["result"]
    assert g["started"] and g["finished"] and g["started"] <= g["finished"]
    for _ in range(3):                                                  # idempotent: state, restart
        ok(console, "state")
    assert len(games(console)) == 1


def test_the_same_game_played_again_with_the_same_seed_is_recorded_each_time(console):
    """Two games are two records, even with the same ``seed=`` and the same moves (a console
    user replaying a seed): only a game reopened from Earlier games is the same game."""
    for n in range(1, 4):
        play_caesar_to_the_end(console)
        assert len(games(console)) == n
    ok(console, "new dice seed=7")
    ok(console, "roll 2d6")
    ok(console, "end")
    ok(console, "new dice seed=7")
    ok(console, "roll 2d6")
    ok(console, "end")
    assert [g["game"] for g in games(console)].count("dice") == 2


def test_undoing_the_finishing_action_at_once_removes_the_record(console):
    play_caesar_to_the_end(console)
    assert len(games(console)) == 1
    ok(console, "undo")                                                 # the finish is taken back
    assert games(console) == []
    rng = Rng(5)
    for _ in range(40):                                                 # play on to an end again
        st = ok(console, "state")["state"]
        if st["winner"]:
            break
        if st["turn"] == "crassus":
            ok(console, "crassus")
        else:
            human_turn(console, rng)
    assert len(games(console)) == 1


def test_a_finished_battle_that_a_later_action_followed_survives_undo(console):
    fight = jc_battle(console)
    [g] = games(console)
    assert g["game"] == "jc-battle" and g["mode"]["kind"] == "battle" and g["mode"]["attacker"] == "caesar"
    winner = {"attacker_wins": "Caesar", "attacker_eliminated": "Pompey"}.get(fight["result"], "Pompey")
    assert [p["name"] for p in g["players"] if p["winner"]] == [winner]
    ok(console, "next-battle attacker=pompey")                          # a later action follows it
    ok(console, "undo")
    ok(console, "undo")                                                 # the fight itself undone
    assert ok(console, "state")["state"]["battle"]["phase"] != "over"
    assert [x["id"] for x in games(console)] == [g["id"]]               # never removed


def test_a_julius_caesar_campaign_end_is_recorded_beside_its_battles(console):
    jc_battle(console)
    ok(console, "next-battle")
    for city in ("Roma", "Alexandria", "Antiochia", "Athenae", "Byzantium", "Ephesus", "Syracusae"):
        ok(console, f"control {city} caesar")
    ok(console, "winter")                                               # J-17/J-19: 10+ VP wins
    found = games(console)
    assert [x["mode"]["kind"] for x in found] == ["campaign", "battle"]
    camp = found[0]
    assert [p["name"] for p in camp["players"] if p["winner"]] == ["Caesar"]
    assert camp["players"][0]["score"] >= 10


def test_glory_is_recorded_after_round_9_and_its_score(console):
    ok(console, "new glory players=Jack,Henry,Mary,Ross seed=5")
    ok(console, "score " + json.dumps(EXAMPLE))                         # round 1: not over, not recorded
    assert games(console) == []
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    assert ok(console, "state")["state"]["finished"] is True
    assert games(console) == []                                         # finished, but not scored yet
    ok(console, "score " + json.dumps(EXAMPLE))
    [g] = games(console)
    scores = {p["name"]: p["score"] for p in g["players"]}
    assert scores == {"Jack": 40, "Henry": 66, "Mary": 47, "Ross": 58}
    assert [p["name"] for p in g["players"] if p["winner"]] == ["Henry"]
    ok(console, "score " + json.dumps(EXAMPLE))                         # asked again: still one game
    assert len(games(console)) == 1


def test_glory_corrections_after_round_9_follow_until_the_score_is_final(console):
    # issue 24 §2: fame, medals and the score pad can be corrected after round 9 (G-15) until the
    # players end the game; History's record follows the newest score, then stays for good
    ok(console, "new glory players=Jack,Henry seed=5")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    ok(console, "medal Jack warrior")
    ok(console, "sheet Jack denarii 8")
    ok(console, "score")
    assert {p["name"]: p["winner"] for p in games(console)[0]["players"]} == {"Jack": True, "Henry": False}
    ok(console, "fame Henry +5")                                        # a correction: allowed now
    moved = ok(console, "medal Henry warrior")                          # the medal moves (a correction)
    assert moved["medals"]["warrior"] == "Henry"
    ok(console, "score")
    [g] = games(console)
    scores = {p["name"]: p["score"] for p in g["players"]}
    assert scores["Henry"] > scores["Jack"] and [p["name"] for p in g["players"] if p["winner"]] == ["Henry"]
    ok(console, "end")                                                  # the score is final
    assert console.request("fame Jack +9")["error"] == "game_over"
    assert len(games(console)) == 1 and games(console)[0]["players"] == g["players"]


def test_glory_a_correction_after_the_score_is_asked_is_not_lost(console):
    # G-15/G-16: the score asked, then fame corrected, then the game ended (or its seed revealed):
    # History's record follows the newest state (the question asked again), never the old tie
    for last in ("end", "reveal"):
        ok(console, "new glory players=Jack,Henry seed=5")
        for _ in range(9):
            ok(console, "event")
            ok(console, "end-round")
        ok(console, "score")
        assert [p["score"] for p in games(console)[0]["players"]] == [1, 1]     # a 1-1 tie
        ok(console, "fame Jack +10")
        ok(console, last)
        g = games(console)[0]
        assert {p["name"]: (p["score"], p["winner"]) for p in g["players"]} == {"Jack": (11, True), "Henry": (1, False)}
    # a score asked with its own figures: a correction keeps them (asked again in the newest state)
    ok(console, "new glory players=Jack,Henry seed=5")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    ok(console, "score " + json.dumps({"players": [{"name": "Henry", "denarii": 40}]}))   # Henry 1 + 10
    ok(console, "fame Jack +12")                                        # Jack 13
    assert {p["name"]: p["score"] for p in games(console)[0]["players"]} == {"Jack": 13, "Henry": 11}
    ok(console, "undo")                                                 # the correction taken back: followed too
    assert {p["name"]: p["score"] for p in games(console)[0]["players"]} == {"Jack": 1, "Henry": 11}
    ok(console, "fame Jack +12")
    ok(console, "end")
    g = games(console)[0]
    assert {p["name"]: p["score"] for p in g["players"]} == {"Jack": 13, "Henry": 11}
    assert len([x for x in games(console) if x["game"] == "glory"]) == 3


def test_glory_keeps_the_time_its_score_was_first_asked_when_it_is_asked_or_corrected_later(
        state_dir: Path, history_clock: HistoryClock):  # G-15
    """QA (clock): Glory scored at 19:30; the next morning the device showed the scores again
    (Final score asks ``score`` each time), a figure was corrected, and "The score is final" asked
    it once more: each moved History's finish to that moment — the game listed as played on the
    2nd, and BG Stats given 16 hours of play. The game finished once: its record follows the newest
    score and keeps its finish time (and whether the clock was set then)."""
    history_clock.wall = "2026-03-01T18:00:00Z"
    store = Store(state_dir)
    c = Console(store, store.resume())
    ok(c, "new glory players=Jack,Henry seed=5")
    for _ in range(9):
        ok(c, "event")
        ok(c, "end-round")
    history_clock.wall = "2026-03-01T19:30:00Z"
    ok(c, "score")
    c.close()
    history_clock.restart()
    history_clock.wall, history_clock.unset = "2026-03-02T10:00:00Z", True      # the next morning, no network
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        ok(c, "score")                                                  # the scores shown again
        ok(c, "fame Jack +10")                                          # a correction (G-15)
        ok(c, "score")
        ok(c, "end")                                                    # the score is final
        [g] = games(c)
        assert {p["name"]: p["score"] for p in g["players"]} == {"Jack": 11, "Henry": 1}
        assert (g["started"], g["finished"], g["unsynced"]) == ("2026-03-01T18:00:00Z", "2026-03-01T19:30:00Z", [])
        assert ok(c, f"export format=bgstats id={g['id']}")["play"]["durationMin"] == 90
    finally:
        c.close()


def test_glory_a_correction_whose_record_was_not_made_to_follow_is_followed_at_the_next_state(console, monkeypatch):
    # the correction is saved, then the History write fails (a full card, a power cut): the next
    # 'state' (or start) makes the record follow, before 'end' seals it (G-15)
    from firmware import history_rebuild
    ok(console, "new glory players=Jack,Henry seed=5")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    ok(console, "score")
    real = history_rebuild.asked_again
    calls = []

    def failing(store, session):
        calls.append(1)
        if len(calls) == 1:
            raise OSError("the card is full")
        real(store, session)
    monkeypatch.setattr(history_rebuild, "asked_again", failing)
    ok(console, "fame Jack +10")                                        # acknowledged; its record write failed
    assert [p["score"] for p in games(console)[0]["players"]] == [1, 1]
    ok(console, "state")
    ok(console, "end")
    assert {p["name"]: p["score"] for p in games(console)[0]["players"]} == {"Jack": 11, "Henry": 1}


def test_glory_refuses_a_medal_held_by_another_during_the_game(console):
    ok(console, "new glory players=Jack,Henry seed=5")
    ok(console, "medal Jack warrior")
    r = console.request("medal Henry warrior")
    assert r["error"] == "illegal_move" and "Jack" in r["message"]


def test_sword_after_turn_9_and_by_automatic_victory(console):
    ok(console, "new sword players=romans,gauls,etruscans seed=3")
    ok(console, "vp gauls +7")
    for _ in range(9 * 5):
        ok(console, "advance")
    [g] = games(console)
    assert g["game"] == "sword" and [p["name"] for p in g["players"] if p["winner"]] == ["Gauls"]
    # nobody tells the device who went first: no power is the start player (the Romans, listed
    # first, were, and BG Stats exports said so)
    assert not any(p["startPlayer"] for p in g["players"])
    ok(console, "new sword players=romans,gauls seed=3")
    assert len(games(console)) == 1                                     # the finished one is not 'abandoned'
    out = ok(console, "scoring romans outside=4 missing=0 auto=3")
    assert out["automatic_victory"] is True
    g2 = games(console)[0]
    assert g2["id"] != g["id"] and "automatic" in g2["result"]
    assert [p["name"] for p in g2["players"] if p["winner"]] == ["Romans"]
    # W-11: the game ends there, as History says (it ran on: VP and rounds, and 'end' said "ended")
    assert console.request("advance")["error"] == "game_over"
    assert console.request("vp gauls +1")["error"] == "game_over"
    assert ok(console, "end")["ended"] == "finished"
    assert [x["id"] for x in games(console)] == [g2["id"], g["id"]] and games(console)[0]["status"] == "finished"


def test_a_sword_automatic_victory_from_the_device_is_filed_once(console):  # W-11
    ok(console, "new sword players=romans,gauls,etruscans seed=3")
    ok(console, "vp gauls =7")
    for _ in range(6):
        ok(console, "advance")
    ok(console, "victory etruscans")
    [g] = games(console)
    assert g["result"] == "Etruscans won by automatic victory in turn 2."
    assert [p["name"] for p in g["players"] if p["winner"]] == ["Etruscans"]
    assert console.request("advance")["error"] == "game_over"
    ok(console, "new sword players=romans,gauls seed=3")
    assert len(games(console)) == 1                                     # not filed again as abandoned


def test_sword_history_keeps_carthage_s_vp_as_the_game_counts_them(console):  # W-13, W-11
    """Carthage 6 VP at unrest 6 counts 4 (−⌊6/3⌋) and loses to the Romans' 5: History said 6."""
    ok(console, "new sword players=romans,gauls,etruscans,greeks,carthage seed=3")
    for line in ["vp carthage =6", "vp romans =5", "unrest =6"] + ["advance"] * 45:
        ok(console, line)
    [g] = games(console)
    scores = {p["role"]: (p["score"], p["winner"]) for p in g["players"]}
    assert scores["romans"] == (5, True) and scores["carthage"] == (4, False)


def test_starting_another_game_over_an_unfinished_one_records_it_abandoned(console):
    ok(console, "new caesar-solo difficulty=hard side=pompey seed=2")
    ok(console, "crassus")
    ok(console, "new bag items=a*3")                                    # bags are tools: never recorded
    ok(console, "draw")
    ok(console, "new glory players=Ann,Bob seed=1")
    [g] = games(console)
    assert g["status"] == "abandoned" and g["game"] == "caesar-solo"
    assert [p["name"] for p in g["players"]] == ["Pompey", "Auto-Crassus"]
    assert not any(p["winner"] for p in g["players"])
    assert console.request("new nosuchgame")["ok"] is False             # a failed new abandons nothing
    assert len(games(console)) == 1


def test_history_survives_restarts_and_is_the_same_over_the_subprocess_console(state_dir: Path):
    first = run_console(state_dir, ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius",
                                    "fight"])
    assert all(r["ok"] for r in first)
    second = run_console(state_dir, ["history", "history 1"])
    assert len(second[0]["games"]) == 1 and second[0]["games"] == second[1]["games"]
    assert second[0]["games"][0]["game"] == "jc-battle"
    third = run_console(state_dir, ["new caesar-solo seed=1", "history"])  # jc session finished: not abandoned
    assert len(third[1]["games"]) == 1


def test_a_finish_lost_in_a_crash_is_recorded_at_the_next_start(state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """QA (clock): the battle ended at 19:00 and the power went before its record was written; the
    next start, four days later with the clock set, recorded it as finished then, a sure date. The
    finish time of a record made late is marked as not known (``unsynced``), as a rebuilt one is;
    its play time is the one stored with its steps (firmware/play_time.py: played in no time here)."""
    from firmware import history as history_mod
    clock = ["2026-03-01T19:00:00Z"]
    monkeypatch.setattr(history_mod, "_now", lambda: clock[0])
    monkeypatch.setattr(history_mod, "_clock_unsynced", lambda: False)
    store = Store(state_dir)
    c = Console(store, store.resume())
    jc_battle(c)
    c.close()
    db = sqlite3.connect(state_dir / "legatus.db")                      # as if the process died
    db.execute("DELETE FROM history")                                   # between commit and record
    db.commit()
    db.close()
    clock[0] = "2026-03-05T10:00:00Z"
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        [g] = games(c)
        assert g["game"] == "jc-battle" and (g["finished"], g["unsynced"]) == ("2026-03-05T10:00:00Z", ["finished"])
        play = ok(c, f"export format=bgstats id={g['id']}")["play"]
        assert play["durationMin"] == 1 and play["playDate"].startswith("2026-03-01")    # dated by its sure start
    finally:
        c.close()


def _begins(console) -> list[str]:
    """The write transactions the store's connection begins from now on (a counted connection)."""
    seen: list[str] = []
    console.store.db.set_trace_callback(lambda sql: seen.append(sql) if sql.lstrip().upper().startswith("BEGIN") else None)
    return seen


def test_a_read_only_request_on_a_finished_game_opens_no_write_transaction(console):
    """QA (Pi CPU per key press): on a finished Julius Caesar battle every read-only request the
    screens ask (``roster`` on each frame of a battle's set-up, ``state``, ``log``, ``odds``…) ran
    an empty write transaction (BEGIN IMMEDIATE … COMMIT) to find its record already there: up to
    8 a key press. Now whether the record needs writing is asked in a read first."""
    jc_battle(console)
    [g] = games(console)
    counter = (console.store.db_path.read_bytes()[24:28])
    begins = _begins(console)
    for line in ("roster caesar", "roster pompey", "state", "log", "history"):
        ok(console, line)
    assert begins == []
    assert console.store.db_path.read_bytes()[24:28] == counter      # the file's change counter: nothing written
    assert games(console) == [g]
    # a record the card lost (a crash, a refused write) is still written at the next request
    console.store.db.set_trace_callback(None)
    with console.store.transaction() as db:
        db.execute("DELETE FROM history")
    begins = _begins(console)
    ok(console, "roster caesar")
    assert len(begins) == 1
    [again] = games(console)
    assert again["mode"] == g["mode"] and again["result"] == g["result"]


def test_a_reopened_copy_of_a_finished_battle_asks_without_a_write_transaction(console):
    """QA (Pi CPU per key press): a finished battle reopened from Earlier games and replayed to its
    end is recorded once (its archived session's record); every read-only request on the copy then
    opened an empty write transaction to find that out again. Now it is asked in a read."""
    jc_battle(console)
    lines, header = list(console.session.lines), dict(console.session.header)
    ok(console, "new dice")
    assert console.reopen(header["line"], int(header["seed"]), bool(header.get("committed")), int(header.get("v") or 0),
                          False, lines)["ok"]
    for line in lines:
        ok(console, line)
    [g] = games(console)                                                  # the game once, its first session's
    begins = _begins(console)
    for line in ("roster caesar", "roster pompey", "state"):
        ok(console, line)
    assert begins == [] and games(console) == [g]


def test_an_action_that_follows_no_unsealed_record_opens_one_write_transaction(console):
    """QA (Pi CPU per key press): every action ran a second write transaction to seal the records
    it followed, empty when there were none (nearly always). The action's own commit is the one
    transaction; the records an action follows are still sealed (undo keeps them)."""
    ok(console, "new jc-battle seed=4")
    begins = _begins(console)
    ok(console, "add attacker c_leg10")
    ok(console, "add defender p_pompeius")
    assert len(begins) == 2                                              # one each: its commit
    ok(console, "fight")
    assert len(begins) == 4                                              # its commit and its record
    ok(console, "next-battle")
    assert len(begins) == 6                                              # its commit and the seal
    assert [row[0] for row in console.store.db.execute("SELECT sealed FROM history")] == [1]
    ok(console, "add attacker c_leg8")
    assert len(begins) == 7
    ok(console, "undo")
    ok(console, "undo")                                                  # back past the finish: sealed, it stays
    assert [g["mode"]["number"] for g in games(console)] == [1]


def test_a_damaged_history_row_is_reported_set_aside_and_never_shown(state_dir: Path):
    """Issue 20 §2: a damaged History row is never shown, never breaks history/export, and is
    never silent: the start reports it and keeps its bytes for a bug report. The record is written
    again from the session's rows, whether it is the current session or an archived one."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    jc_battle(c)
    ok(c, "next-battle")
    c.close()
    for current in (True, False):
        if not current:                                # the battle's session archived: rebuilt from its rows
            c = Console(Store(state_dir), None)
            ok(c, "new dice seed=1")
            c.close()
        db = sqlite3.connect(state_dir / "legatus.db")
        db.execute("UPDATE history SET record = replace(record, 'Caesar', 'Caezar')")
        db.commit()
        db.close()
        store = Store(state_dir)
        c = Console(store, store.resume())
        try:
            shown = games(c)
            assert all("Caezar" not in json.dumps(g, ensure_ascii=False) for g in shown)
            assert len(shown) == 1
            assert ok(c, "export format=csv")["text"].count("\n") == 1 + 2 * len(shown)   # a row per player
            recovered = ok(c, "state").get("recovered", "")
            assert "History record" in recovered, recovered
            kept = c.store.db.execute("SELECT data FROM damaged WHERE what='history'").fetchall()
            assert any(b"Caezar" in bytes(k[0]) for k in kept)
        finally:
            c.close()


def test_the_result_sentence_speaks_the_chosen_language(console):
    jc_battle(console)
    en = games(console)[0]["result"]
    ok(console, "settings language=ru")
    try:
        ru = games(console)[0]["result"]
        assert ru != en and any("а" <= ch <= "я" for ch in ru.lower())
    finally:
        ok(console, "settings language=en")


def test_a_sword_automatic_victory_lost_in_a_crash_is_worked_out_again(state_dir: Path):
    store = Store(state_dir)
    c = Console(store, store.resume())
    ok(c, "new sword players=romans,gauls seed=3")
    ok(c, "scoring romans outside=4 missing=0 auto=3")
    c.session.again = ["battle att=3 def=3"]   # a roll after it, as an older Legatus stored it (given again:
    ok(c, "battle att=3 def=3")                # asked now, a game that is over rolls no more, W-11)
    c.close()
    db = sqlite3.connect(state_dir / "legatus.db")
    db.execute("DELETE FROM history")
    db.commit()
    db.close()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        for _ in range(2):             # the game is over (state.finished): filed again at once, kept by an undo
            [g] = games(c)
            assert [p["name"] for p in g["players"] if p["winner"]] == ["Romans"] and "automatic" in g["result"]
            ok(c, "undo")
            ok(c, "state")
    finally:
        c.close()


def _flip_history_byte(state_dir: Path, needle: str, into: str) -> None:
    db = sqlite3.connect(state_dir / "legatus.db")
    assert db.execute("SELECT count(*) FROM history WHERE instr(record, ?)", (needle,)).fetchone()[0] == 1
    db.execute("UPDATE history SET record = replace(record, ?, ?)", (needle, into))
    db.commit()
    db.close()


def test_a_finished_game_whose_history_row_is_damaged_is_rebuilt_from_its_archived_session(state_dir: Path):
    """QA (storage): a finished game never vanishes from History because of one bad byte. Its
    session's rows are still in the database after it was archived: the record is worked out
    again from them, with its finish time, and the damage is still reported."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    play_caesar_to_the_end(c)                                   # C-12: recorded as finished
    ok(c, "new dice seed=1")                                    # archives the game's session
    before = games(c)
    assert len(before) == 1 and before[0]["status"] == "finished"
    pushed = ok(c, "export format=bgstats")["play"]["sourcePlayId"]
    c.close()
    _flip_history_byte(state_dir, '"status": "finished"', '"status": "finishee"')
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        after = games(c)
        assert len(after) == 1, after
        kept = {k: after[0][k] for k in ("game", "status", "mode", "players", "result", "started", "finished")}
        assert kept == {k: before[0][k] for k in kept}
        assert ok(c, "export format=bgstats")["play"]["sourcePlayId"] == pushed   # BG Stats: the same play
        assert "History record" in ok(c, "state").get("recovered", "")
        assert c.store.db.execute("SELECT count(*) FROM damaged WHERE what='history'").fetchone()[0] == 1
    finally:
        c.close()
    store = Store(state_dir)                                    # the rebuilt row is whole: nothing more to report
    c = Console(store, store.resume())
    try:
        assert "recovered" not in ok(c, "state") and len(games(c)) == 1
    finally:
        c.close()


@pytest.mark.parametrize("needle, into", [('"status": "finished"', '"status": "finishee"'),
                                          ('"status": "finished"', '"status": "finished"  '),
                                          ('\\"Henry\\"', '\\"Henrx\\"')])    # in the sheet: it no longer answers
def test_a_damaged_glory_row_is_rebuilt_with_the_score_sheet_it_was_scored_with(state_dir: Path, needle: str,
                                                                                into: str):
    """QA (storage): a Glory game scored over the console (``score <sheet>``, PROTOCOL.md: read-only:
    the sheet is in no stored action, only in History's record) whose History row took one bad
    byte was worked out again with the bare ``score``: an empty pad, every player 1 point and all
    four winners, said to be "back in History". The question the damaged row still shows is asked
    again (G-15: Henry wins with 66), keeping it for a later correction to follow; where the bad
    byte is in that question (a name it no longer answers for), the players and result the row
    still shows are whole, and are kept."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    glory_after_round_9(c)
    ok(c, "score " + json.dumps(EXAMPLE))
    ok(c, "new dice seed=1")                                    # archives the game's session
    before = games(c)
    c.close()
    _flip_history_byte(state_dir, needle, into)
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        after = games(c)
        assert "History record" in ok(c, "state").get("recovered", "")
        assert [{k: g[k] for k in ("id", "players", "result", "finished")} for g in after] == \
            [{k: g[k] for k in ("id", "players", "result", "finished")} for g in before]
        assert [p["name"] for p in after[0]["players"] if p["winner"]] == ["Henry"]
        [raw] = c.store.db.execute("SELECT record FROM history").fetchone()
        if "Henrx" not in into:
            assert json.loads(raw)["asked"] == "score " + json.dumps(EXAMPLE)
    finally:
        c.close()


def _glory_scored(state_dir: Path, how: str) -> list[dict]:
    """A Glory game played to its end (G-15) and scored, ``pad``: on the device's score pad (its
    figures typed with ``sheet``: stored actions, then ``score sheet``), ``json``: over the console
    (``score <sheet>``: the sheet in no stored action); ended, then archived by a dice session.
    History as it was."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    glory_after_round_9(c)
    if how == "pad":
        for line in ("sheet Jack denarii 12", "sheet Henry objectives 9", "sheet Henry epirus 3", "sheet Mary own 2"):
            ok(c, line)
        ok(c, "score sheet")
    else:
        ok(c, "score " + json.dumps(EXAMPLE))
    ok(c, "end")
    ok(c, "new dice seed=1")
    before = games(c)
    c.close()
    return before


@pytest.mark.parametrize("how", ["pad", "json"])
def test_a_glory_game_whose_history_row_a_salvage_lost_comes_back_with_its_pads_score_or_none(state_dir: Path,
                                                                                             how: str):
    """QA (storage): the database had to be salvaged and the History row of an ended Glory game did
    not come through: it came back as "Finished after N actions", no scores, though the score pad
    its session stored held them (G-9..G-15). The game answers its score from the saved pad again
    (its ``settled`` question); a game scored over the console (the sheet in no stored action)
    gets no score made up from an empty pad."""
    before = _glory_scored(state_dir, how)
    db = sqlite3.connect(state_dir / "legatus.db")
    db.execute("DELETE FROM history")                           # its page lost with the damage
    db.commit()
    db.close()
    path = state_dir / "legatus.db"
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        [after] = [g for g in games(c) if g["game"] == "glory"]
        assert "back in History" in ok(c, "state")["recovered"]
        assert after["status"] == "finished"
        if how == "pad":
            keys = ("game", "mode", "players", "result", "started")
            assert {k: after[k] for k in keys} == {k: before[0][k] for k in keys}
        else:                                   # (the empty pad would score everybody 1 point, all winners)
            assert [(p["score"], p["winner"]) for p in after["players"]] == [(None, False)] * 4
    finally:
        c.close()


def _flip(text: str, at: int) -> str:
    return text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1:]


@pytest.mark.parametrize("damage", ["quote", "escape", "brace", "sheet", "loser", "winner"])
def test_a_glory_row_whose_bad_byte_broke_its_json_or_a_score_comes_back_true_never_made_up(state_dir: Path,
                                                                                            damage: str):
    """QA (storage): a Glory row scored over the console (``score <sheet>``) whose one bad byte
    broke the record's JSON — a quote or an escape in its sheet, its opening brace — came back as
    the empty pad: every player 1 point, all four winners. Each field of the record is read by
    itself: the players and result the row still shows are whole then. A bad digit in the sheet
    (Ross's objectives 6 → 7: one more point, G-13) made up a score; one in a player's score is
    told apart by the sheet asked again where it is a winner's (in the result too); where nothing
    tells which of the two the damage took (a loser's score), that one score is left out."""
    before = _glory_scored(state_dir, "json")
    db = sqlite3.connect(state_dir / "legatus.db")
    [(record,)] = db.execute("SELECT record FROM history").fetchall()
    winner = next(p for p in before[0]["players"] if p["winner"])
    loser = next(p for p in before[0]["players"] if not p["winner"])

    def score_of(p: dict) -> int:               # where a player's score is written in the record
        return record.index(f'"name": "{p["name"]}", "rank": {p["rank"]}, "score": ') + len(
            f'"name": "{p["name"]}", "rank": {p["rank"]}, "score": ')
    ross = next(p for p in before[0]["players"] if p["name"] == "Ross")
    assert not ross["winner"] and record.count('\\"objectives\\": 6') == 1
    at = {"quote": record.index('Jack\\"') + 4, "escape": record.index('\\"Henry') + 1, "brace": 0,
          "sheet": record.index('\\"objectives\\": 6') + 16, "loser": score_of(loser),
          "winner": score_of(winner)}[damage]
    loser = ross if damage == "sheet" else loser
    changed = _flip(record, at) if damage != "quote" else record[:at] + '"' + record[at + 1:]
    db.execute("UPDATE history SET record=?", (changed,))
    db.commit()
    db.close()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        [after] = [g for g in games(c) if g["game"] == "glory"]
        assert "back in History" in ok(c, "state")["recovered"]
        assert (after["id"], after["result"], after["finished"]) == (before[0]["id"], before[0]["result"],
                                                                    before[0]["finished"])
        shown = [(p["name"], p["score"], p["winner"]) for p in after["players"]]
        if damage in ("sheet", "loser"):
            assert shown == [(p["name"], None if p is loser else p["score"], p["winner"]) for p in before[0]["players"]]
            assert "scores missing" in ok(c, "state")["recovered"]
        else:
            assert after["players"] == before[0]["players"]
    finally:
        c.close()


def test_a_glory_score_one_bad_byte_took_is_said_on_the_games_page_and_in_its_play(state_dir: Path):
    """QA (storage, G-15): a loser's score left out after one bad byte (the test above) showed on the
    game's page as «·Ross», nothing saying why; its BG Stats play gave Ross rank 4, a place worked out
    with the damaged figure (so were the others' below the winner), and its comments said nothing.
    The page shows «·Ross: ?» and says the score was damaged on the card; the play gives Ross no
    score, places only the winner (Ross's score may have been any place below) and says why."""
    from firmware.export import bgstats_play
    from firmware.screens.history import detail_rows
    before = _glory_scored(state_dir, "json")
    db = sqlite3.connect(state_dir / "legatus.db")
    [(record,)] = db.execute("SELECT record FROM history").fetchall()
    ross = next(p for p in before[0]["players"] if p["name"] == "Ross")
    at = record.index('\\"objectives\\": 6') + 16            # Ross's objectives 6 → 7 (G-13): one point more
    db.execute("UPDATE history SET record=?", (_flip(record, at),))
    db.commit()
    db.close()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        [after] = [g for g in games(c) if g["game"] == "glory"]
    finally:
        c.close()
    assert not ross["winner"] and [p["name"] for p in after["players"] if p["score"] is None] == ["Ross"]
    rows = detail_rows(after)
    assert "·Ross: ?" in rows and "?: the score was damaged on the card; nothing holds it again." in rows
    play = bgstats_play(after)
    shown = next(p for p in play["players"] if p["name"] == "Ross")
    assert "score" not in shown and "rank" not in shown
    assert [p.get("rank") for p in play["players"]] == [1 if p["winner"] else None for p in play["players"]]
    assert "The score of Ross was damaged on the card" in play["comments"]


@pytest.mark.parametrize("column, damage", [("part", "letter"), ("part", "byte"), ("sid", "letter"), ("sid", "byte")])
def test_a_glory_row_whose_bad_byte_fell_in_its_session_id_or_part_keeps_its_score(state_dir: Path, column: str,
                                                                                    damage: str):
    """QA (storage): one bad byte in a History row's part name (``game`` → ``gaie``) or session id
    left its record whole, but the rebuild no longer found it the game's: a Glory game scored over
    the console (the sheet in no stored action) came back as "Finished after 18 actions", its score
    lost. A name one byte away from exactly one the stored sessions (or the game's parts) have is
    taken as that one."""
    before = _glory_scored(state_dir, "json")
    db = sqlite3.connect(state_dir / "legatus.db")
    [(value,)] = db.execute(f"SELECT CAST({column} AS BLOB) FROM history").fetchall()
    changed = bytearray(value)
    changed[2] = changed[2] ^ 8 if damage == "letter" else 0xED
    db.execute(f"UPDATE history SET {column}=CAST(? AS BLOB)", (bytes(changed),))
    db.commit()
    db.close()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert "back in History" in ok(c, "state")["recovered"]
        keys = ("id", "status", "players", "result", "finished", "unsynced")
        assert [{k: g[k] for k in keys} for g in games(c) if g["game"] == "glory"] == \
            [{k: g[k] for k in keys} for g in before if g["game"] == "glory"]
    finally:
        c.close()


def test_a_glory_row_with_nothing_left_of_its_score_says_so_in_every_language(state_dir: Path):
    """QA (storage): a Glory row scored over the console whose sheet and players both took damage
    (no stored action holds the sheet, its pad is empty): never the empty pad's score (every player
    1 point, all winners) — its players without scores, and the result and the start say the
    score was damaged, in the player's language."""
    before = _glory_scored(state_dir, "json")
    db = sqlite3.connect(state_dir / "legatus.db")
    db.execute("UPDATE history SET record = replace(record, 'Jack', 'Jacj')")       # two bad bytes
    db.commit()
    db.close()
    store = Store(state_dir)
    c = Console(store, store.resume())
    said = {}
    try:
        [after] = [g for g in games(c) if g["game"] == "glory"]
        assert (after["id"], after["status"]) == (before[0]["id"], "finished")
        assert [(p["name"], p["score"], p["winner"]) for p in after["players"]] == \
            [(p["name"], None, False) for p in before[0]["players"]]
        for lang in ("en", "ru", "uk"):
            ok(c, f"settings language={lang}")
            said[lang] = (games(c)[0]["result"], ok(c, "state")["recovered"])
    finally:
        ok(c, "settings language=en")
        c.close()
    assert "score was damaged" in said["en"][0] and "scores missing" in said["en"][1]
    assert "повреждены" in said["ru"][0] and "не со всеми очками" in said["ru"][1], said["ru"]
    assert "пошкоджено" in said["uk"][0] and "не з усіма очками" in said["uk"][1], said["uk"]


def test_a_rebuilt_row_keeps_the_length_of_play_and_the_results_it_replaced(state_dir: Path):
    """QA (storage): a History row written again after one bad byte lost what no replay gives: the
    play's length the device measured (``minutes``: the export's ``durationMin``) and the results an
    earlier finish had (``replaced``, after an undo past a sealed finish). Both are read from the
    damaged row where they still read whole."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    glory_after_round_9(c)
    ok(c, "score " + json.dumps(EXAMPLE))
    rescore_after_a_sealed_finish(c)
    ok(c, "end")
    ok(c, "new dice seed=1")
    [before] = [g for g in games(c) if g["game"] == "glory"]
    play = ok(c, f"export format=bgstats id={before['id']}")["play"]
    assert before.get("replaced") and play["durationMin"] == 1
    c.close()
    _flip_history_byte(state_dir, '"status": "finished"', '"status": "finishee"')
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        [after] = [g for g in games(c) if g["game"] == "glory"]
        assert "back in History" in ok(c, "state")["recovered"]
        assert after == before
        assert ok(c, f"export format=bgstats id={after['id']}")["play"] == play
    finally:
        c.close()


def test_a_rebuilt_row_of_a_finish_that_replaced_a_sealed_one_still_gives_it_back_on_an_undo(state_dir: Path):
    """QA (storage): a Glory game scored again after an undo past its sealed score replaces that
    record, keeping it (``was``) so that undoing the new finish at once brings it back. After one
    bad byte in that row, the rebuilt row had lost it: the undo took the game out of History, and
    the sealed finish — acknowledged, kept through the undo past it — was gone for good."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    glory_after_round_9(c)
    ok(c, "score " + json.dumps(EXAMPLE))
    [first] = games(c)
    rescore_after_a_sealed_finish(c)
    [second] = games(c)
    assert second["players"] != first["players"]
    c.close()
    _flip_history_byte(state_dir, '"status": "finished"', '"status": "finishee"')
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert "back in History" in ok(c, "state")["recovered"]
        assert games(c) == [second]
        ok(c, "undo")                                                   # round 9's end: the new finish undone
        keys = ("id", "players", "result", "finished")
        assert [{k: g[k] for k in keys} for g in games(c)] == [{k: first[k] for k in keys}]
    finally:
        c.close()


@pytest.mark.parametrize("cut", ["full", "power"])
def test_a_damaged_history_row_whose_rebuild_the_disk_refused_is_rebuilt_at_the_next_start(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch, cut: str):
    """QA (storage faults): the start set the damaged row aside (one transaction), then the card
    was full (or the power was cut) before the record was written again (the next): at every later
    start the damaged row was no longer found, so the finished game had vanished from History for
    good, though its session's rows still held it."""
    from engine.text import Msg
    from firmware import history_rebuild
    from firmware.storage import StorageError
    store = Store(state_dir)
    c = Console(store, store.resume())
    play_caesar_to_the_end(c)                                   # C-12: recorded as finished
    ok(c, "new dice seed=1")                                    # archives the game's session
    before = games(c)
    c.close()
    _flip_history_byte(state_dir, '"status": "finished"', '"status": "finishee"')

    def refused(*_a: object, **_k: object) -> list[str]:
        if cut == "power":
            raise SystemExit("the power was cut")
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    with monkeypatch.context() as m:
        m.setattr(history_rebuild, "rebuild", refused)
        try:
            store = Store(state_dir)
        except SystemExit:
            store = None
        if store is not None:
            c = Console(store, store.resume())
            assert games(c) == [] and "History record" in ok(c, "state")["recovered"]
            c.close()
        else:                                              # (the process died: its lock goes with it)
            import gc
            gc.collect()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        after = games(c)
        keys = ("game", "status", "mode", "players", "result", "started", "finished")
        assert [{k: g[k] for k in keys} for g in after] == [{k: g[k] for k in keys} for g in before]
        assert "back in History" in ok(c, "state")["recovered"]
    finally:
        c.close()
    store = Store(state_dir)                                    # done: nothing more to do nor to say
    c = Console(store, store.resume())
    try:
        assert "recovered" not in ok(c, "state") and len(games(c)) == 1
    finally:
        c.close()


def test_a_rebuilt_record_never_calls_a_finish_time_sure_that_its_damaged_row_called_unsure(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """QA (history): the clock was not set when the game finished (``unsynced``); one bad byte in
    that very list of its History row made the rebuilt record say the finish time was sure: the
    export then dropped "its date may be wrong" and could give a duration from a wrong clock."""
    from firmware import history as history_mod
    monkeypatch.setattr(history_mod, "_clock_unsynced", lambda: True)
    store = Store(state_dir)
    c = Console(store, store.resume())
    jc_battle(c)
    ok(c, "new dice seed=1")                                    # archives the battle's session
    [before] = [g for g in games(c) if g["game"] == "jc-battle"]
    assert before["unsynced"] == ["started", "finished"]
    c.close()
    _flip_history_byte(state_dir, '"unsynced": ["started", "finished"]', '"unsynced": ["started", "finishel"]')
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        [after] = [g for g in games(c) if g["game"] == "jc-battle"]
        assert (after["id"], after["finished"]) == (before["id"], before["finished"])    # kept where it reads
        assert after["unsynced"] == ["started", "finished"]
        assert "clock was not set" in ok(c, f"export format=bgstats id={after['id']}")["play"]["comments"]
    finally:
        c.close()


def test_an_ended_session_whose_history_row_is_damaged_is_rebuilt_with_its_fair_draw(state_dir: Path):
    """QA (storage): 'end' filed the session in History; one bad byte in that row must not make
    the ended game vanish, whether the session is still the current one or archived."""
    for archived in (False, True):
        store = Store(state_dir)
        c = Console(store, store.resume())
        ok(c, "new bag items=red*3,blue*2")
        ok(c, "draw")
        ok(c, "end")
        if archived:
            ok(c, "new dice seed=1")
        before = games(c)[0]
        assert before["status"] == "ended" and before["seed"] is not None
        c.close()
        _flip_history_byte(state_dir, "Ended by the players", "Ended by the playerz")
        store = Store(state_dir)
        c = Console(store, store.resume())
        try:
            after = games(c)[0]
            assert after == before, (archived, after)
        finally:
            c.close()
        (state_dir / "legatus.db").unlink()


def test_an_abandoned_games_result_agrees_with_its_number_of_actions_in_every_language(console):
    """QA (i18n): 'Abandoned after 1 actions.' / 'после 1 действий' was one sentence for every
    number; the result is a plural sentence like the others."""
    ok(console, "new caesar-solo difficulty=hard side=pompey seed=2")
    ok(console, "crassus")
    ok(console, "new dice seed=1")
    said = {}
    try:
        for lang in ("en", "ru", "uk"):
            ok(console, f"settings language={lang}")
            said[lang] = games(console)[0]["result"]
    finally:
        ok(console, "settings language=en")
    assert said == {"en": "Abandoned after 1 action.", "ru": "Брошена после 1 действия.",
                    "uk": "Покинута після 1 дії."}, said


def test_an_abandoned_record_stored_before_the_plural_sentence_reads_with_the_right_form(state_dir: Path):
    from engine.text import to_data
    from firmware.history import row_crc
    from firmware.history_text import Msg
    store = Store(state_dir)
    c = Console(store, store.resume())
    ok(c, "new caesar-solo seed=2")
    ok(c, "crassus")
    ok(c, "new dice seed=1")
    rid, sid, part, game, depth, sealed, record = c.store.db.execute(
        "SELECT id, sid, part, game, depth, sealed, record FROM history").fetchone()
    data = json.loads(record)
    data["result"] = to_data(Msg("Abandoned after {} actions.", 1))           # as an older Legatus stored it
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    c.store.db.execute("UPDATE history SET record=?, crc=? WHERE id=?",
                       (text, row_crc(rid, sid, part, game, depth, sealed, text), rid))
    try:
        assert games(c)[0]["result"] == "Abandoned after 1 action."
        ok(c, "settings language=ru")
        assert games(c)[0]["result"] == "Брошена после 1 действия."
    finally:
        c.close()


def test_a_replaced_games_record_the_card_refuses_refuses_the_new_game_and_is_never_lost(console, monkeypatch, caplog):
    """QA (storage): when the card refused the replaced game's «abandoned» record at a ``new``, it
    was logged ('not tried again') and the ``new`` went on: a card that took the new game (a
    passing refusal, room freed between the two writes) left the game out of History for good.
    The ``new`` is refused with the card's reason, nothing changed (the game is still the current
    one), without a traceback in the log; the next ``new`` once the card takes writes records it."""
    import logging

    from engine.text import Msg
    from firmware import history
    from firmware.i18n import domain
    from firmware.storage import StorageError

    full = Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself.")
    real = history.abandoned_row

    def refused(*_):
        raise StorageError(full)
    ok(console, "new glory players=Ann,Bob seed=3")
    ok(console, "event")
    state = console.request("state")["state"]
    monkeypatch.setattr(history, "abandoned_row", refused)
    with caplog.at_level(logging.ERROR, logger="firmware.console_session"):
        r = console.request("new dice seed=2")
    assert (r["ok"], r["error"], r["message"]) == (False, "storage_error", domain("legatus").say(full, "en")), r
    assert console.request("state")["state"] == state and games(console) == []
    [record] = [rec for rec in caplog.records if "record the replaced game as abandoned" in rec.getMessage()]
    assert "the new game is refused" in record.getMessage() and record.exc_info is None
    monkeypatch.setattr(history, "abandoned_row", real)
    ok(console, "new dice seed=2")
    [entry] = games(console)
    assert (entry["game"], entry["status"]) == ("glory", "abandoned"), entry


def test_a_new_whose_start_fails_leaves_no_abandoned_record_of_the_game_still_in_play(console, monkeypatch):
    """The replaced game's «abandoned» record and the new session were two transactions: a start
    that failed after the record was written (the card's I/O error), with the card refusing to take
    the record back too, left the game still in play shown as abandoned in History until it ended.
    They are one transaction now: the refused ``new`` leaves History and the game as they were, and
    the next ``new`` records the game once."""
    from engine.text import Msg
    from firmware import history, history_rebuild
    from firmware.storage import StorageError
    ok(console, "new glory players=Ann,Bob seed=3")
    ok(console, "event")
    state = console.request("state")["state"]

    def io_error(*_a):
        raise sqlite3.OperationalError("disk I/O error")

    def refused(*_a):
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    monkeypatch.setattr(history, "write_started", io_error)      # the new session's start fails in its transaction
    monkeypatch.setattr(history, "forget_abandoned", refused)    # and the card refuses a take-back
    monkeypatch.setattr(history_rebuild, "forget_abandoned", refused)     # (the state's, too)
    r = console.request("new dice seed=2")
    assert (r["ok"], r["error"]) == (False, "storage_error"), r
    assert games(console) == [] and console.request("state")["state"] == state and games(console) == []
    monkeypatch.undo()
    ok(console, "new dice seed=2")
    [entry] = games(console)
    assert (entry["game"], entry["status"]) == ("glory", "abandoned"), entry


def test_a_rebuilt_record_whose_session_end_time_is_no_date_is_still_rebuilt(state_dir: Path):
    """A clock gone wrong left a session's end time that is no date: its History row is still
    written again (its finish time read from the damaged row)."""
    from firmware.store import session_crc
    store = Store(state_dir)
    c = Console(store, store.resume())
    play_caesar_to_the_end(c)
    ok(c, "new dice seed=1")
    before = games(c)
    db = c.store.db
    sid_, header, current = db.execute("SELECT id, header, current FROM sessions WHERE current=0").fetchone()
    db.execute("UPDATE sessions SET ended=?, crc=? WHERE id=?",
               (2**62, session_crc(sid_, header, current, 2**62), sid_))
    c.close()
    _flip_history_byte(state_dir, '"status": "finished"', '"status": "finishee"')
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert games(c) == before
    finally:
        c.close()


def _salvaged(state_dir: Path, *lost: str) -> tuple[list[dict], Console]:
    """A finished Caesar! game, then a dice session; the ``lost`` statements run (rows the
    damage took) and the file's header damaged, so the next start salvages it: History as it was
    before, and the console after the salvage (to close)."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    play_caesar_to_the_end(c)
    ok(c, "new dice seed=1")
    before = games(c)
    for statement in lost:
        c.store.db.execute(statement)
    c.close()
    path = state_dir / "legatus.db"
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    store = Store(state_dir)
    return before, Console(store, store.resume())


def test_a_history_row_lost_with_a_database_that_had_to_be_salvaged_is_rebuilt(state_dir: Path):
    """The file could not be opened (its header damaged) and its History row did not come through
    the salvage: the finished game is worked out again from its session's carried rows."""
    before, c = _salvaged(state_dir, "DELETE FROM history")      # its page lost with the damage
    try:
        after = games(c)
        keys = ("game", "status", "mode", "players", "result", "started")
        assert [{k: g[k] for k in keys} for g in after] == [{k: g[k] for k in keys} for g in before]
        assert "finished" in after[0]["unsynced"]               # its finish time is only known roughly now
        assert "carried into a new one" in ok(c, "state")["recovered"]
    finally:
        c.close()


def test_a_history_rebuild_after_a_salvage_that_a_power_cut_stopped_is_done_at_the_next_start(
        state_dir: Path):
    """QA (storage faults): the salvage carried the rows into a new database, then the power was
    cut while History was being worked out again from them; the next start was an ordinary one
    (nothing damaged any more), so the finished game whose row the damage took never came back."""
    import os
    import subprocess
    import sys
    from tests.conftest import ROOT
    store = Store(state_dir)
    c = Console(store, store.resume())
    play_caesar_to_the_end(c)
    ok(c, "new dice seed=1")
    before = games(c)
    c.store.db.execute("DELETE FROM history")                   # its page lost with the damage
    c.close()
    path = state_dir / "legatus.db"
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    cut = ("import os, sys\nfrom firmware import history_rebuild\n"
           "history_rebuild.rebuild = lambda *a, **k: os._exit(9)     # the power cut\n"
           "from firmware.store import Store\nStore(sys.argv[1])\n")
    died = subprocess.run([sys.executable, "-c", cut, str(state_dir)], cwd=ROOT, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert died.returncode == 9, died.stderr[-500:]
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        keys = ("game", "status", "mode", "players", "result", "started")
        assert [{k: g[k] for k in keys} for g in games(c)] == [{k: g[k] for k in keys} for g in before]
        assert "back in History" in ok(c, "state")["recovered"]
    finally:
        c.close()


def test_a_rebuild_never_invents_a_record_from_a_session_whose_actions_the_damage_took(state_dir: Path):
    """After a salvage that lost both a game's History row and its actions, replaying what is
    left would say 'Abandoned after 0 actions' of a game that was finished: nothing is invented."""
    _before, c = _salvaged(state_dir, "DELETE FROM history", "DELETE FROM actions WHERE session=(SELECT min(id) FROM sessions)")
    try:
        assert games(c) == []
    finally:
        c.close()


def test_a_caesar_game_ended_or_abandoned_keeps_its_rules_edition(state_dir):
    # PROTOCOL.md third round: each ended game's entry carries `edition` for Caesar!, not only
    # one its rules finished (ended by `end`, or abandoned by a `new`)
    replies = run_console(state_dir, ["new caesar-solo seed=4 edition=ru", "crassus",
                                      "new caesar-solo seed=5 edition=uk", "crassus", "end", "history 2"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    ended, abandoned = replies[-1]["games"]
    solo = {"difficulty": "normal", "side": "caesar", "crassus_side": "pompey", "expansions": []}
    assert (ended["status"], ended["mode"]) == ("ended", {"kind": "ended", "edition": "uk", **solo})
    assert (abandoned["status"], abandoned["mode"]) == ("abandoned", {"kind": "abandoned", "edition": "ru", **solo})


def test_a_finish_undone_while_the_disk_refused_history_is_taken_out_at_the_next_state(console, monkeypatch):
    """QA (faults): the undo of a finishing fight was saved but the card refused History's delete
    (full, or remounted read-only just then); the log said "done again at the next start or
    'state'", yet nothing took the record back: History kept a battle that was never fought, and
    the fight fought again later was never recorded (its row was already there)."""
    from engine.text import Msg
    from firmware import history
    from firmware.storage import StorageError
    jc_battle(console)
    assert len(games(console)) == 1
    real = history.after_undo

    def refused(*_):
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    monkeypatch.setattr(history, "after_undo", refused)
    ok(console, "undo")                                                 # the fight undone: acknowledged
    monkeypatch.setattr(history, "after_undo", real)                    # space again
    assert ok(console, "state")["state"]["battle"]["phase"] != "over"
    assert games(console) == []
    fight = ok(console, "fight")
    [g] = games(console)
    winner = {"attacker_wins": "Caesar", "attacker_eliminated": "Pompey"}.get(fight["result"], "Pompey")
    assert [p["name"] for p in g["players"] if p["winner"]] == [winner]


def test_a_record_whose_seal_the_disk_refused_is_sealed_at_the_next_state_and_survives_undo(console, monkeypatch):
    """QA (faults): a battle followed by another action is kept in History even if the fight is
    undone later (its record is sealed by that action). When the disk refused the seal, nothing
    sealed it again, though the log said "done again at the next start or 'state'": undoing back
    past the fight deleted a record the rules keep."""
    from engine.text import Msg
    from firmware import history
    from firmware.storage import StorageError
    jc_battle(console)
    [g] = games(console)
    real = history._seal

    def refused(*_a, **_k):
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    monkeypatch.setattr(history, "_seal", refused)
    ok(console, "next-battle attacker=pompey")                          # saved; its seal refused
    monkeypatch.setattr(history, "_seal", real)                         # space again
    ok(console, "state")
    ok(console, "undo")
    ok(console, "undo")                                                 # the fight itself undone
    assert [x["id"] for x in games(console)] == [g["id"]]


def test_a_game_still_played_is_never_listed_abandoned_after_a_new_cut_short(state_dir, monkeypatch):
    """QA (faults): ``new`` records the game it replaces as abandoned first; when the power was cut
    (or the card refused) between that row and the new session, the game was still the one being
    played, yet History listed it as abandoned — after a restart too, with its old number of
    actions, and a later ``new`` kept that stale row. The current game's row is taken out."""
    from engine.text import Msg
    from firmware import history
    from firmware.console import Console
    from firmware.storage import StorageError
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    ok(c, "new caesar-solo difficulty=hard side=pompey seed=2")
    ok(c, "crassus")

    def cut(*_a, **_k):
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    monkeypatch.setattr(Store, "begin", cut)
    monkeypatch.setattr(history, "forget_abandoned", lambda *_a: None)   # the power went before it
    assert c.request("new glory players=Ann,Bob seed=1")["ok"] is False
    c.close()
    monkeypatch.undo()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert c.session.game.name == "caesar-solo"
        assert games(c) == []
        ok(c, "undo")                                                   # played on, then replaced
        ok(c, "new glory players=Ann,Bob seed=1")
        [g] = games(c)
        assert g["status"] == "abandoned" and "0 actions" in str(g["result"])
    finally:
        c.close()


@pytest.mark.parametrize("how", ["finished", "end", "new"])
def test_every_caesar_solo_record_keeps_its_level_modules_and_auto_crassus_as_start_player(console, how: str):
    """QA (misc): a solo game the players ended, or left for a 'new', lost its level and modules
    (History and the export could not tell an easy base game from a hard one with Poison), and
    nobody was its start player, though a finished one named Auto-Crassus: S-2, Auto-Crassus takes
    the first turn. Every path that files a Caesar! record says the same."""
    line = "new caesar-solo difficulty=easy side=pompey poison=1 seed=21"
    if how == "finished":
        play_caesar_to_the_end(console, line)
    else:
        ok(console, line)
        ok(console, "crassus")
        ok(console, "end" if how == "end" else "new dice seed=1")
    [g] = games(console)
    assert g["mode"]["difficulty"] == "easy" and g["mode"]["side"] == "pompey", g["mode"]
    assert g["mode"]["expansions"] == ["poison"] and g["mode"]["crassus_side"] == "caesar", g["mode"]
    assert [(p["name"], p["startPlayer"]) for p in g["players"]] == [("Pompey", False), ("Auto-Crassus", True)]
    play = ok(console, f"export format=bgstats id={g['id']}")["play"]
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Auto-Crassus"]


@pytest.mark.parametrize("how", ["end", "new"])
def test_a_caesar_duel_stopped_early_names_caesar_its_start_player(console, how: str):
    # C-5: Caesar starts (2 players), as a finished duel's record says; and its modules are kept
    ok(console, "new caesar-duel centurions=1 seed=3")
    ok(console, "end" if how == "end" else "new dice seed=1")
    [g] = games(console)
    assert [(p["name"], p["startPlayer"]) for p in g["players"]] == [("Caesar", True), ("Pompey", False)]
    assert g["mode"]["expansions"] == ["centurions"], g["mode"]


def test_a_new_game_whose_start_time_the_card_refuses_is_refused_whole(console):
    """QA (start): the start time of a game was written in its own transaction after ``new`` had
    stored the session: a card refusing it left a game with no start time for ever (History's
    duration, the BG Stats export) and an ``ok`` reply. It is now in the same transaction: the card
    refusing it refuses the ``new`` as a whole, nothing changed."""
    ok(console, "new caesar-solo difficulty=easy seed=21")
    before = ok(console, "state")["state"]
    history_ensure = "CREATE TABLE IF NOT EXISTS history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL, crc INTEGER NOT NULL DEFAULT 0)"
    console.store.db.execute(history_ensure)
    console.store.db.execute("CREATE TRIGGER refuse BEFORE INSERT ON history_started "
                             "BEGIN SELECT RAISE(FAIL, 'disk I/O error'); END")
    out = console.request("new caesar-solo difficulty=hard seed=5")
    assert out["ok"] is False and out["error"] == "storage_error"
    assert ok(console, "state")["state"] == before                         # nothing changed
    console.store.db.execute("DROP TRIGGER refuse")
    ok(console, "new caesar-solo difficulty=hard seed=5")
    started = console.store.db.execute("SELECT started FROM history_started").fetchall()
    assert len(started) == 2                                               # each game its start time


def test_a_finish_redone_after_an_undo_past_its_seal_replaces_the_record_everywhere(state_dir: Path):  # J-13
    """A finished battle that a later action followed is kept (sealed); undone past its end and
    fought again otherwise, History, the statistics and both exports kept the FIRST result, after a
    restart too, while the game had another. The record follows the game's latest finish now (the
    same id; the result it replaces kept in ``replaced`` and said in the log); taking the new
    finish back at once brings the sealed one back (undo never removes it)."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        first = jc_battle(c)
        [g] = games(c)
        ok(c, "next-battle attacker=pompey")                            # seals battle 1's record
        ok(c, "undo")
        ok(c, "undo")                                                   # battle 1 open again
        assert [x["id"] for x in games(c)] == [g["id"]]                 # kept while it is open
        ok(c, "add attacker c_caesar")
        again = ok(c, "fight")
        assert ok(c, "state")["state"]["history"][0]["blocks"] == ["c_leg10", "p_pompeius", "c_caesar"]
        [g2] = games(c)
        assert g2["id"] == g["id"] and g2["players"] != g["players"], (first["result"], again["result"])
        unsure = {"unsynced": True} if "finished" in g["unsynced"] else {}          # (this machine's clock)
        assert g2["replaced"] == [{"result": g["result"], "finished": g["finished"], **unsure}]
        assert any(g["result"] in line and "History" in line for line in ok(c, "log 3")["log"])
        ok(c, "settings language=ru")
        assert any(line.startswith("История теперь хранит") and "Бой 1" in line for line in ok(c, "log 3")["log"])
        ok(c, "settings language=en")
        ok(c, "undo")                                                   # the new finish taken back at once
        assert games(c) == [g | {"unsynced": g["unsynced"]}]            # the sealed record is back
        ok(c, "fight")
        assert [x["players"] for x in games(c)] == [g2["players"]]
    finally:
        c.close()
    store = Store(state_dir)
    c = Console(store, store.resume())                                  # a restart agrees
    try:
        [g3] = games(c)
        assert g3["players"] == g2["players"] and g3["result"] == g2["result"] and g3["id"] == g["id"]
        import csv
        import io
        rows = list(csv.DictReader(io.StringIO(ok(c, "export format=csv")["text"].lstrip("\ufeff"))))
        assert [(r["role"], r["score"], r["winner"]) for r in rows] == [
            (p["role"].capitalize(), str(p["score"]), str(int(p["winner"]))) for p in g2["players"]]
        play = ok(c, "export format=bgstats")["play"]
        assert [(p["role"], p["score"], p["winner"]) for p in play["players"]] == [
            (p["role"].capitalize(), p["score"], p["winner"]) for p in g2["players"]]
        from firmware import history_played
        [entry] = history_played.played(c.store.db)
        assert entry["players"] == g2["players"]
        from firmware.history_text import say
        from firmware.screens.history import detail_rows
        rows = detail_rows(g3)                                          # the device's History says both
        assert rows[1] == say(g2["result"])
        assert rows[2] == f"Before an undo it had ended: {say(g['result'])}", rows
    finally:
        c.close()


def test_an_earlier_finish_taken_with_the_clock_not_set_is_kept_as_unsure(state_dir: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):  # J-13
    """QA (clock): battle 1 ended while the clock was not set (1970: a Pi with no network), was
    sealed, undone past its end once NTP had set the clock, and fought again: ``replaced`` gave the
    earlier finish's 1970 time as a sure one. It says so (``unsynced``: true), as the entry does."""
    from firmware import history as history_mod
    clock: list[object] = ["1970-01-01T00:05:00Z", True]
    monkeypatch.setattr(history_mod, "_now", lambda: clock[0])
    monkeypatch.setattr(history_mod, "_clock_unsynced", lambda: clock[1])
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        jc_battle(c)
        [g] = games(c)
        assert g["unsynced"] == ["started", "finished"]
        ok(c, "next-battle attacker=pompey")                            # seals battle 1's record
        clock[:] = ["2026-11-26T19:00:00Z", False]                        # NTP sets the clock
        ok(c, "undo")
        ok(c, "undo")
        ok(c, "add attacker c_caesar")
        ok(c, "fight")
        [g2] = games(c)
        assert (g2["finished"], g2["unsynced"]) == ("2026-11-26T19:00:00Z", ["started"])
        assert g2["replaced"] == [{"result": g["result"], "finished": "1970-01-01T00:05:00Z", "unsynced": True}]
    finally:
        c.close()


def test_an_undo_past_a_seal_whose_mark_the_disk_refused_still_lets_the_next_finish_replace_it(console, monkeypatch):
    """The mark that lets the next finish replace a sealed record is written after the undo is
    saved; when the disk refused it, the next ``state`` writes it (firmware/history_rebuild.py),
    so the record still follows the game."""
    from engine.text import Msg
    from firmware import history
    from firmware.storage import StorageError
    jc_battle(console)
    [g] = games(console)
    ok(console, "next-battle attacker=pompey")
    ok(console, "undo")
    real = history.after_undo

    def refused(*_a, **_k):
        raise StorageError(Msg("The storage is full: nothing was changed. Free some space; Legatus goes on by itself."))
    monkeypatch.setattr(history, "after_undo", refused)
    ok(console, "undo")                                                 # the fight undone; its mark refused
    monkeypatch.setattr(history, "after_undo", real)
    ok(console, "state")
    ok(console, "add attacker c_caesar")
    ok(console, "fight")
    [g2] = games(console)
    assert g2["id"] == g["id"] and g2["players"] != g["players"] and g2["replaced"][0]["result"] == g["result"]


def test_a_finish_redone_exactly_after_an_undo_past_its_seal_leaves_the_record_as_it_was(console):  # J-13
    """Fought again with the same blocks (undo restores the generator: the same dice), the battle
    ends as recorded: the record stays as it was — no 'replaced', its finish time kept — and stays
    sealed (an undo right after does not take it out)."""
    jc_battle(console)
    [g] = games(console)
    ok(console, "next-battle attacker=pompey")
    ok(console, "undo")
    ok(console, "undo")
    ok(console, "fight")
    assert games(console) == [g]
    ok(console, "undo")
    assert games(console) == [g]


def test_glory_scored_again_after_an_undo_past_its_sealed_record_replaces_it(console):  # G-15
    """Glory's record answers the score sheet asked after round 9; sealed by a later action, then
    undone past round 9's end, the game scored again with another sheet replaces it (History kept
    the first sheet's totals); the same sheet again changes nothing."""
    import copy
    glory_after_round_9(console)
    ok(console, "score " + json.dumps(EXAMPLE))
    [g] = games(console)
    # a later action seals it: a roll, as an older Legatus took after the finish (a game its rules
    # ended now refuses it, PROTOCOL third round; its stored line still replays as it was)
    assert console._run_session(console.session, "roll 1d6")["dice"]
    ok(console, "undo")
    ok(console, "undo")                                                 # round 9 is open again
    assert ok(console, "state")["state"]["finished"] is False
    ok(console, "end-round")
    ok(console, "score " + json.dumps(EXAMPLE))
    assert games(console) == [g]                                        # the same sheet: as it was
    sheet = copy.deepcopy(EXAMPLE)
    jack = next(p for p in sheet["players"] if p["name"] == "Jack")
    jack["denarii"] += 40
    ok(console, "score " + json.dumps(sheet))
    [g2] = games(console)
    scores = {p["name"]: p["score"] for p in g2["players"]}
    assert g2["id"] == g["id"] and scores["Jack"] > 40 and g2["replaced"][0]["result"] == g["result"]


def test_glory_s_score_asked_again_unchanged_writes_nothing(console):  # G-15
    """QA (Pi CPU and card wear): after round 9 each ``score`` (the device's Score screen opened
    again, the same sheet) rewrote History's record byte for byte, and marked its players seen: a
    durable commit (journal, fdatasyncs) for a request that changes nothing. The same sheet asked
    again now writes nothing; another sheet still replaces the record."""
    glory_after_round_9(console)
    ok(console, "score sheet")
    [g] = games(console)
    counter = console.store.db_path.read_bytes()[24:28]
    for _ in range(3):
        ok(console, "score sheet")
    assert console.store.db_path.read_bytes()[24:28] == counter        # the file's change counter: no commit wrote
    assert games(console) == [g]
    ok(console, "score " + json.dumps(EXAMPLE))                          # another sheet: the record follows it
    assert console.store.db_path.read_bytes()[24:28] != counter
    [g2] = games(console)
    assert g2["id"] == g["id"] and g2["players"] != g["players"]


@pytest.mark.parametrize("how", ["end", "new"])
def test_a_glory_game_stopped_early_names_who_played_first_in_round_1(console, how: str):
    """QA (exports): Glory's start player is who played first in round 1 (G-2), as a finished
    game's record says; a game the players ended in round 2, or left for a 'new', had nobody as its
    start player, in History and in the play sent to BG Stats."""
    ok(console, "new glory players=Анна,Борис,Вера seed=5")
    ok(console, "event")
    first = ok(console, "state")["state"]["events"][0]["first"]
    ok(console, "end-round")
    ok(console, "event")
    ok(console, "end" if how == "end" else "new dice seed=1")
    [g] = games(console)
    assert [p["name"] for p in g["players"] if p["startPlayer"]] == [first]
    play = ok(console, f"export format=bgstats id={g['id']}")["play"]
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == [first]
