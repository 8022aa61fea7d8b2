"""A game's play time (firmware/play_time.py): the time it was played, summed over the runs of the
program it was played in, its pauses left out; in History (``minutes``, the game's page) and the
exports (BG Stats' ``durationMin``, the CSV's ``duration_min``). History's clocks are set by the
test (tests/conftest.py ``HistoryClock``: ``mono`` the monotonic clock, ``restart`` a new run)."""
from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest

from firmware import export_dates, history, play_time
from firmware.console import Console
from firmware.store import DB_NAME, Store
from tests.conftest import HistoryClock
from tests.test_storage_damage import read_only_mount  # noqa: F401 - (the fixture: a tmpfs remounted read-only)

BATTLE = ["new jc-battle people=caesar:Anna,pompey:Boris seed=4", "add attacker c_leg10", "add defender p_pompeius",
          "fight"]                                            # J-13: the battle is over, History records it


def _open(d: Path) -> Console:
    store = Store(d)
    return Console(store, store.resume())


def _ok(c: Console, line: str) -> dict:
    r = c.request(line)
    assert r["ok"], (line, r)
    return r


def _run(d: Path, clock: HistoryClock, steps: list[tuple[float, str]]) -> dict:
    """One run of the program: each line asked at its monotonic time; the last reply."""
    c = _open(d)
    try:
        r: dict = {}
        for at, line in steps:
            clock.mono = at
            r = _ok(c, line)
        return r
    finally:
        c.close()


def _exported(d: Path) -> tuple[dict, dict]:
    """The newest game's History entry (``minutes`` too), its BG Stats play and its CSV durations."""
    c = _open(d)
    try:
        entry = history.games(c.store.db, 1)[0]
        play = _ok(c, f"export format=bgstats id={entry['id']}")["play"]
        rows = list(csv.DictReader(io.StringIO(_ok(c, "export format=csv")["text"].lstrip("\ufeff"))))
        return entry, {"play": play, "csv": {r["duration_min"] for r in rows if r["id"] == str(entry["id"])}}
    finally:
        c.close()


def test_a_game_played_across_a_kill_and_a_restart_gets_the_sum_of_its_runs(state_dir: Path, history_clock: HistoryClock):
    """A battle set up for 10 minutes, an undo among its steps; then the power went (or kill -9)
    four minutes after the last step; the device started again the next evening and the battle was
    fought in 6 minutes: its play time is 10 + 6 = 16 minutes. The 4 minutes after the last
    acknowledged step are lost with the run (nothing stored them), the night is no play. Before,
    a restart between its start and its finish left the play with no duration at all."""
    clock = history_clock
    _run(state_dir, clock, [(1000.0, BATTLE[0]), (1000.0 + 180, BATTLE[1]), (1000.0 + 300, "undo"),
                            (1000.0 + 420, BATTLE[1]), (1000.0 + 600, BATTLE[2])])
    clock.mono = 1000.0 + 840                      # thinking, then the power cut: not stored
    clock.restart()
    clock.wall = "2026-03-02T19:00:00Z"            # the next evening (a new boot: its monotonic clock anew)
    clock.mono = 40.0
    c = _open(state_dir)                           # resumed at 40 s
    try:
        clock.mono = 40.0 + 360
        _ok(c, BATTLE[3])
    finally:
        c.close()
    entry, out = _exported(state_dir)
    assert entry["minutes"] == 16
    assert out["play"]["durationMin"] == 16 and out["csv"] == {"16"}


def test_the_play_time_is_stored_with_each_step(state_dir: Path, history_clock: HistoryClock):
    """Each acknowledged step stores the time since the one before in its own transaction (a
    kill -9 loses at most the time since the last one); a refused step stores nothing, and the
    next step counts its time."""
    clock = history_clock
    c = _open(state_dir)
    try:
        clock.mono = 0.0
        _ok(c, BATTLE[0])
        sid = str(c.session.header["sid"])
        assert play_time.stored(c.store.db, sid) == 0
        clock.mono = 90.0
        _ok(c, BATTLE[1])
        assert play_time.stored(c.store.db, sid) == 90_000
        clock.mono = 100.0
        assert not c.request("add attacker no_such_unit")["ok"]           # refused: nothing stored
        assert play_time.stored(c.store.db, sid) == 90_000
        clock.mono = 150.0
        _ok(c, BATTLE[2])
        assert play_time.stored(c.store.db, sid) == 150_000
    finally:
        c.close()


def test_an_idle_gap_overnight_is_not_counted(state_dir: Path, history_clock: HistoryClock):
    """The device left on at the table overnight: the attacker added at 5 minutes, the defender the
    next morning, ten hours later, the battle fought 3 minutes after. The night is a pause (longer
    than :data:`firmware.play_time.IDLE_LIMIT` with no step), not play: 8 minutes, where the
    monotonic clock from start to finish gave 603. A gap under the limit (a long turn) counts."""
    clock = history_clock
    _run(state_dir, clock, [(0.0, BATTLE[0]), (300.0, BATTLE[1]), (300.0 + 10 * 3600, BATTLE[2]),
                            (300.0 + 10 * 3600 + 180, BATTLE[3])])
    entry, out = _exported(state_dir)
    assert entry["minutes"] == 8 and out["play"]["durationMin"] == 8 and out["csv"] == {"8"}
    long_turn = play_time.IDLE_LIMIT - 60
    _run(state_dir, clock, [(0.0, "new jc-battle seed=5"), (long_turn, BATTLE[1]), (long_turn + 60, BATTLE[2]),
                            (long_turn + 120, BATTLE[3])])
    entry, out = _exported(state_dir)
    assert entry["minutes"] == (long_turn + 120) // 60 == 121                  # 1 h 59 min + 2 min


def test_a_game_begun_before_the_clock_was_set_is_still_dated_by_its_true_start(state_dir: Path,
                                                                                 history_clock: HistoryClock):
    """A battle begun at 18:00 with no network (the clock said 1970), left three hours, then fought in
    10 minutes once the network had set the clock (21:12): its play time is 12 minutes, and it is
    dated by its finish less the time since it began in this run, pauses and all (18:00), not less
    its play time (21:00: the play would be dated three hours late)."""
    import datetime as dt
    clock = history_clock
    clock.wall, clock.unset = "1970-01-01T00:00:42Z", True
    c = _open(state_dir)
    try:
        for at, line in [(0.0, BATTLE[0]), (120.0, BATTLE[1]), (120.0 + 3 * 3600, BATTLE[2])]:
            clock.mono = at
            _ok(c, line)
        clock.wall, clock.unset, clock.mono = "2026-11-26T21:12:00Z", False, 120.0 + 3 * 3600 + 600
        _ok(c, BATTLE[3])
    finally:
        c.close()
    entry, out = _exported(state_dir)
    began = dt.datetime(2026, 11, 26, 18, 0, tzinfo=dt.timezone.utc).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    assert entry["minutes"] == 12 and out["play"]["durationMin"] == 12
    assert out["play"]["playDate"] == began


def test_a_session_stored_before_play_time_was_kept_and_old_records_read_as_before(state_dir: Path,
                                                                                  history_clock: HistoryClock):
    """A card an older Legatus wrote (no play-time table, a game begun on it) opens with nothing
    reported; the game finished after the update has no play time (none was kept for its start),
    as before: no duration rather than a wrong one. An old record without ``minutes`` still
    exports its start-to-finish span."""
    clock = history_clock
    _run(state_dir, clock, [(0.0, BATTLE[0]), (60.0, BATTLE[1])])
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("DROP TABLE IF EXISTS play_time")
    db.commit()
    db.close()
    clock.restart()
    c = _open(state_dir)
    try:
        assert "recovered" not in _ok(c, "state")
        clock.mono = 120.0
        _ok(c, BATTLE[2])
        clock.mono = 180.0
        _ok(c, BATTLE[3])
    finally:
        c.close()
    entry, out = _exported(state_dir)
    assert entry["minutes"] is None and "durationMin" not in out["play"] and out["csv"] == {""}
    old = {"status": "finished", "started": "2026-03-01T18:00:05Z", "finished": "2026-03-01T18:47:40Z", "unsynced": []}
    assert export_dates.duration_min(old) == 48 and export_dates.duration_min({**old, "minutes": 30}) == 30


def test_a_card_an_older_legatus_wrote_still_starts_read_only(read_only_mount):  # noqa: F811 - (the fixture)
    """A card written by a Legatus from before play time (no play-time table) and remounted
    read-only by the kernel: the start could not make the new table and refused the card
    altogether ("Cannot open … the storage is read-only"), so the device showed nothing. It starts
    read-only as on any such card (History and the game read; every change refused), and saves
    again once the card is writable, the table made then."""
    mnt, remount = read_only_mount
    d = mnt / "state"
    c = _open(d)
    for line in ("new dice seed=3", "roll 2d6"):
        _ok(c, line)
    state = _ok(c, "state")["state"]
    c.close()
    db = sqlite3.connect(d / DB_NAME)
    db.execute("DROP TABLE play_time")                 # (as an older Legatus left it)
    db.commit()
    db.close()
    remount("ro")
    c = _open(d)
    try:
        start = _ok(c, "state")
        assert start["state"] == state and "read-only" in start["recovered"]
        assert c.request("roll 1d6")["error"] == "storage_error"
        remount("rw")
        tries = [c.request("roll 1d6") for _ in range(2)]     # (as on any card: saved once it is seen writable)
        assert tries[-1]["ok"] is True, tries
    finally:
        c.close()
    c = _open(d)                                       # the next start makes the table
    try:
        assert "recovered" not in _ok(c, "state")
        assert c.store.db.execute("SELECT count(*) FROM play_time").fetchone()[0] == 0
    finally:
        c.close()


def test_a_damaged_play_time_is_reported_and_never_given_wrong(state_dir: Path, history_clock: HistoryClock):
    """One bad byte in a session's stored play time: the next start reports it and keeps it for a
    bug report; the game's play time is then not known (no duration), never a wrong figure."""
    clock = history_clock
    _run(state_dir, clock, [(0.0, BATTLE[0]), (60.0, BATTLE[1]), (120.0, BATTLE[2])])
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE play_time SET ms=ms+1000")
    db.commit()
    db.close()
    clock.restart()
    c = _open(state_dir)
    try:
        said = _ok(c, "state")["recovered"]
        assert "play time of 2 games was damaged" in said and "no longer known" in said     # (the campaign's, the battle's)
        assert c.store.db.execute("SELECT count(*) FROM damaged WHERE what='play time'").fetchone()[0] == 2
        clock.mono = 180.0
        _ok(c, BATTLE[3])
    finally:
        c.close()
    entry, out = _exported(state_dir)
    assert entry["minutes"] is None and "durationMin" not in out["play"]


def test_a_salvaged_database_keeps_the_play_time(state_dir: Path, history_clock: HistoryClock):
    """A database SQLite cannot open is salvaged row by row: the sessions' play time rows, whose
    checksums hold, are carried with the rest (the game goes on being timed)."""
    clock = history_clock
    _run(state_dir, clock, [(0.0, BATTLE[0]), (120.0, BATTLE[1]), (240.0, BATTLE[2])])
    data = bytearray((state_dir / DB_NAME).read_bytes())
    at = data.index(b"CREATE TABLE damaged")
    data[at + 14] = 0xFF                          # the schema damaged: the file cannot be read
    (state_dir / DB_NAME).write_bytes(bytes(data))
    clock.restart()
    clock.mono = 10.0
    c = _open(state_dir)
    try:
        assert "kept aside as legatus.db.damaged-1" in _ok(c, "state")["recovered"]
        clock.mono = 70.0
        _ok(c, BATTLE[3])
    finally:
        c.close()
    entry, out = _exported(state_dir)
    assert entry["minutes"] == 5 and out["play"]["durationMin"] == 5


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["Play time: 1 minute", "Play time: 2 minutes", "Play time: 25 minutes", "Play time: 1 hour",
            "Play time: 2 hours", "Play time: 1 hour 25 minutes"]),
    ("ru", ["Время игры: 1 минута", "Время игры: 2 минуты", "Время игры: 25 минут", "Время игры: 1 час",
            "Время игры: 2 часа", "Время игры: 1 час 25 минут"]),
    ("uk", ["Час гри: 1 хвилина", "Час гри: 2 хвилини", "Час гри: 25 хвилин", "Час гри: 1 година",
            "Час гри: 2 години", "Час гри: 1 година 25 хвилин"]),
])
def test_a_games_page_shows_its_play_time_in_the_players_language(lang: str, said: list[str]):
    """History → a game says how long it was played (the figure the exports give), in whole
    sentences with the plural forms of the language (11 minutes: «минут», «хвилин»); nothing when it
    is not known, or for an abandoned game (no one said when it stopped)."""
    from firmware import i18n
    from firmware.history_text import play_time_said
    from firmware.screens.history import detail_rows
    entry = {"id": 3, "game": "jc-battle", "name": "Julius Caesar", "status": "finished",
             "started": "2026-03-01T18:00:00Z", "finished": "2026-03-01T18:25:00Z",
             "mode": {"kind": "battle", "number": 1}, "players": [], "result": "Battle 1.", "part": "battle-1",
             "sid": "x", "unsynced": [], "replaced": []}
    before = i18n.language()
    i18n.set_language(lang)
    try:
        assert [play_time_said(m) for m in (1, 2, 25, 60, 120, 85)] == said
        assert play_time_said(11) == said[2].replace("25", "11")
        assert said[2] in detail_rows({**entry, "minutes": 25})
        title = said[0].split(":")[0]
        assert not any(r.startswith(title) for r in detail_rows({**entry, "minutes": None}))
        assert not any(r.startswith(title) for r in detail_rows({**entry, "status": "abandoned", "minutes": 25}))
    finally:
        i18n.set_language(before)


SECOND = ["next-battle attacker=pompey surprise=0 dice=digital", "add attacker p_leg1", "add defender c_caesar", "fight"]


def _battles(d: Path) -> dict[str, int | None]:
    """Each recorded part's play time (``battle-1``, ``battle-2`` …), as History and ``history`` say it."""
    c = _open(d)
    try:
        entries = history.games(c.store.db, None)
        replied = {g["id"]: g["minutes"] for g in _ok(c, "history")["games"]}
        assert all(replied[e["id"]] == export_dates.duration_min(e) for e in entries)    # (the console says the exports' figure)
        return {e["part"]: e.get("minutes") for e in entries if e["status"] != "abandoned"}
    finally:
        c.close()


def test_each_battle_of_a_julius_caesar_campaign_has_the_time_spent_on_it(state_dir: Path, history_clock: HistoryClock):
    """J-13: History records each battle with its own play time (BG Stats gets the session's game as
    one play: tests/test_export.py). Battle 1 set up and
    fought in 10 minutes; then half an hour on the map (the campaign, no battle); battle 2 set up,
    an undo, the power cut (kill -9) 2 minutes after its last step, fought after the restart: 4
    minutes before the cut + 5 after = 9. Before, battle 2 had no play time at all (only the first
    battle, the one that began with the session, was timed), and the campaign's half hour would
    have been no battle's."""
    clock = history_clock
    t2 = 600.0 + 1800
    _run(state_dir, clock, [(0.0, BATTLE[0]), (60.0, BATTLE[1]), (120.0, BATTLE[2]), (600.0, BATTLE[3]),
                            (t2, SECOND[0]), (t2 + 60, SECOND[1]), (t2 + 120, "undo"), (t2 + 240, SECOND[1])])
    clock.mono = t2 + 360                          # thinking, then the power cut: not stored
    clock.restart()
    clock.mono = 30.0
    c = _open(state_dir)
    try:
        for at, line in [(30.0 + 120, SECOND[2]), (30.0 + 300, SECOND[3])]:
            clock.mono = at
            _ok(c, line)
    finally:
        c.close()
    assert _battles(state_dir) == {"battle-1": 10, "battle-2": 9}        # (as ``history`` gives them)


def test_a_damaged_battle_time_leaves_that_battle_alone_unknown(state_dir: Path, history_clock: HistoryClock):
    """A bad byte in battle 2's stored time: the next start reports it; battle 2 then has no play
    time (never a wrong one, never the campaign's), battle 1 keeps its own."""
    clock = history_clock
    _run(state_dir, clock, [(0.0, BATTLE[0]), (60.0, BATTLE[1]), (120.0, BATTLE[2]), (300.0, BATTLE[3]),
                            (400.0, SECOND[0]), (460.0, SECOND[1])])
    db = sqlite3.connect(state_dir / DB_NAME)
    assert db.execute("UPDATE play_time SET ms=ms+1 WHERE sid LIKE '%/battle-2'").rowcount == 1
    db.commit()
    db.close()
    clock.restart()
    c = _open(state_dir)
    try:
        assert "play time of 1 game was damaged" in _ok(c, "state")["recovered"]
        for at, line in [(60.0, SECOND[2]), (120.0, SECOND[3])]:
            clock.mono = at
            _ok(c, line)
    finally:
        c.close()
    assert _battles(state_dir) == {"battle-1": 5, "battle-2": None}


def test_a_game_reopened_from_earlier_games_goes_on_adding_to_its_time(state_dir: Path, history_clock: HistoryClock):
    """A battle set up in 10 minutes, put aside for a roll of the dice (``new dice``: it is archived),
    reopened from Earlier games and fought 4 minutes later: its play time is 10 + 4 = 14 minutes.
    Before, the copy started its play time anew (4 minutes)."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    clock = history_clock
    clock.mono = 0.0
    app = app_with([], [], state_dir)
    try:
        for at, line in [(0.0, BATTLE[0]), (300.0, BATTLE[1]), (600.0, BATTLE[2]), (700.0, "new dice seed=3")]:
            clock.mono = at
            assert app.run(line)["ok"], line
        clock.mono = 900.0
        older = next(a for a in archived(app.archives()) if a.game == "jc-battle")
        assert reopen(app, older)
        clock.mono = 900.0 + 240
        assert app.run(BATTLE[3])["ok"]
        entries = {g["status"]: g for g in app.run("history")["games"] if g["game"] == "jc-battle"}
    finally:
        app.console.close()
    assert entries["finished"]["minutes"] == 14
    assert entries["abandoned"]["minutes"] is None         # (no one said when it stopped)
    assert _battles(state_dir)["battle-1"] == 14


def test_the_consoles_history_gives_each_games_play_time(state_dir: Path, history_clock: HistoryClock):
    """PROTOCOL.md lets the project add fields to a reply: ``history`` now gives each game's play
    time (``minutes``, the exports' ``durationMin``) where a laptop reading it had to export each
    game to learn it; null where it is not known (an older record without a start, an abandoned game)."""
    clock = history_clock
    _run(state_dir, clock, [(0.0, BATTLE[0]), (60.0, BATTLE[1]), (120.0, BATTLE[2]), (65 * 60.0, BATTLE[3]),
                            (66 * 60.0, "new jc-battle seed=9")])
    c = _open(state_dir)
    try:
        games = _ok(c, "history")["games"]
    finally:
        c.close()
    assert [(g["status"], g["minutes"]) for g in games] == [("finished", 65)]


def test_battle_1_begun_before_battles_were_timed_apart_keeps_the_sessions_time(state_dir: Path,
                                                                                 history_clock: HistoryClock):
    """A battle begun on the Legatus before this one (its session timed, not yet its battle: no
    row of its own), fought after the update: battle 1 began with the session, so the session's
    play time is its own (5 minutes), as that Legatus gave it; a later battle has none then
    (no row: never the campaign's). So is a battle 1 whose own row a bad byte set aside."""
    clock = history_clock
    _run(state_dir, clock, [(0.0, BATTLE[0]), (60.0, BATTLE[1])])
    db = sqlite3.connect(state_dir / DB_NAME)
    assert db.execute("DELETE FROM play_time WHERE sid LIKE '%/%'").rowcount == 1
    db.commit()
    db.close()
    clock.restart()
    clock.mono = 0.0                               # (the next run: resumed at 0 s)
    _run(state_dir, clock, [(60.0, BATTLE[2]), (240.0, BATTLE[3])])
    assert _battles(state_dir) == {"battle-1": 5}


def test_a_julius_caesar_years_cards_before_a_battles_first_block_are_no_battles_time(state_dir: Path,
                                                                                     history_clock: HistoryClock):
    """J-4, J-18: the battles of a turn come after its cards and all movement. The device opens
    battle 1's set-up with the game (and the next one's once a battle is over, «Next battle»); the
    players deal, discard, play and reveal the turn's cards with no block in it (20 minutes at the
    table, the moves included), then place the blocks and fight (5 minutes from the reveal); the
    next turn's cards (15 minutes) before battle 2's first block, fought 5 minutes after its
    reveal. Each battle's play time is those 5 minutes: before, an empty set-up was the battle's,
    and battle 1 lasted 25 minutes in History and BG Stats, battle 2 20."""
    clock = history_clock
    c = _open(state_dir)
    try:
        def at(t: float, line: str) -> dict:
            clock.mono = t
            return _ok(c, line)

        def turn(t: float, step: float) -> None:          # a turn's cards: each plays one (J-18)
            for side in ("caesar", "pompey"):
                t += step
                at(t, f"play {side} {_ok(c, f'hand {side}')['hand'][-1]}")

        at(0.0, BATTLE[0])
        at(60.0, "deal")
        for n, side in enumerate(("caesar", "pompey")):
            at(120.0 + 60 * n, f"discard {side} {_ok(c, f'hand {side}')['hand'][0]}")
        turn(180.0, 510.0)                                # the reveal at 20 minutes
        at(1260.0, BATTLE[1])
        at(1320.0, BATTLE[2])
        at(1500.0, BATTLE[3])                             # battle 1 over: 5 minutes after the reveal
        at(1530.0, SECOND[0])                             # «Next battle» at once: its set-up is open
        turn(1530.0, 450.0)                               # the next turn's reveal 15 minutes later
        at(2460.0, SECOND[1])
        at(2520.0, SECOND[2])
        at(2730.0, SECOND[3])
    finally:
        c.close()
    assert _battles(state_dir) == {"battle-1": 5, "battle-2": 5}
