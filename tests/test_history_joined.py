"""A game reopened from History's Earlier games and played on in a copy is one game played on the
device's screens (firmware/history_joined.py): one row in History's list, its page saying it was
reopened and how the first session was left, the statistics counting it once — while the console's
``history`` keeps every record PROTOCOL.md fixes (the first session's ``abandoned`` one too)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.screens import app_with
from tests.test_history_screens import open_history, texts

pytest.importorskip("PIL")

GLORY = ["new glory players=Анна,Борис seed=5"] + ["event", "end-round"] * 3
GLORY_ON = ["event", "end-round"] * 6 + ["fame Анна +2", "score"]          # G-15: scored after round 9
JC = ["new jc-battle year=5 people=caesar:Anna,pompey:Boris seed=4",
      "add attacker c_leg10", "add defender p_leg1", "fight",
      "next-battle", "add attacker c_leg8", "add defender p_leg3", "fight"]   # two battles (J-13)
JC_ON = ["next-battle", "add attacker c_leg9", "add defender p_leg2", "fight",
         "control Roma caesar", "control Athenae caesar", "winter"]             # the verdict (J-17)


def _played_on(state_dir: Path, first: list[str], then: list[str], lang: str = "en"):
    """An App after ``first``, left for the dice (History: the game ``abandoned``), reopened from
    Earlier games as the player does it and played on with ``then``."""
    from firmware.screens.archive import archived, reopen
    app = app_with([*first, "new dice seed=1"], [], state_dir, lang)
    game = first[0].split()[1]
    copy = next(a for a in archived(app.archives()) if a.game == game)
    assert reopen(app, copy)
    for line in then:
        assert app.run(line)["ok"], line
    app.stack = app.stack[:1]
    return app


def _open_newest(app) -> None:
    """History opens on the newest game: A opens its page (a notice still shown is put away first)."""
    from firmware.screens.history import GameScreen
    for _ in range(3):
        app.render()
        if isinstance(app.stack[-1], GameScreen):
            return
        app.handle("a")
    raise AssertionError(texts(app))


def _rows(app) -> list[str]:
    return [str(i.label) for i in app.stack[-1].items(app)]


@pytest.mark.parametrize("lang, reopened, earlier", [
    ("en", "Reopened from Earlier games on", "Earlier, "),
    ("ru", "Возвращена из «Прошлых игр»", "Раньше, "),
    ("uk", "Повернута з «Минулих ігор»", "Раніше, ")])
def test_a_glory_game_left_and_finished_in_a_copy_is_one_row_and_its_page_says_so(state_dir, lang, reopened, earlier):
    """A Glory game of three rounds, left for the dice, reopened from Earlier games and scored
    there (G-15): History listed «×Glory» (abandoned) and «Glory» (finished) — one evening's game
    twice. The list shows one row, the finished game; its page says it was reopened, and when,
    and how the first session was left («Abandoned after 6 actions.»): nothing the History kept
    is lost. The console's ``history`` still answers both records (PROTOCOL.md)."""
    app = _played_on(state_dir, GLORY, GLORY_ON, lang)
    try:
        games = [g for g in app.run("history")["games"] if g["game"] == "glory"]
        assert sorted(g["status"] for g in games) == ["abandoned", "finished"]   # the console: as PROTOCOL fixes
        open_history(app)
        rows = _rows(app)
        start, end = app.stack[-1]._span                        # the games' rows
        assert len(rows[start:end]) == 1 and not rows[start].startswith("×"), rows
        _open_newest(app)
        page = _rows(app)
        assert any(r.startswith(reopened) for r in page), page
        left = next(r for r in page if r.startswith(earlier))
        from firmware.history_text import abandoned, say
        assert left.endswith(": " + say(abandoned(6))), left
        assert "✓" in "".join(page)                            # the finished game's winner
    finally:
        app.console.close()


def test_a_campaign_finished_in_a_copy_counts_once_in_the_players_statistics(state_dir):
    """J-13, J-17: a campaign of two battles, left, reopened from Earlier games and won in the copy
    (Anna and Boris). Statistics → Players counted the first session's battles as a game of their
    own beside the copy's verdict: «2 games, 1 won» for one game played. It is one game, won by
    whom the verdict names."""
    from firmware.screens.history_stats import people_rows
    app = _played_on(state_dir, JC, JC_ON)
    try:
        campaign = next(g for g in app.run("history")["games"] if g["mode"]["kind"] == "campaign")
        rows = people_rows(app)
        for p in campaign["players"]:
            at = rows.index(p["name"])
            assert rows[at + 1].strip() == f"1 game, {int(p['winner'])} won", rows
        assert sum(p["winner"] for p in campaign["players"]) == 1
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_copys_records_written_before_they_named_the_first_session_are_joined_too(state_dir, lang):
    """A game left, reopened from Earlier games and finished in the copy by a Legatus from before
    History's records named the game's first session (no ``of``; the copy's session header says it:
    ``copy_of``). The export joined them through the header (one BG Stats play), History's screens
    did not: «×Glory» beside «Glory» for one game (G-15), and the players' statistics counted a
    campaign's battles of the first session as a game beside the copy's verdict (J-13, J-17). Both
    join them by the same rule now; the console's ``history`` still lists every record as stored."""
    from firmware.screens.history_stats import people_rows
    from tests.test_export import _without_of
    app = _played_on(state_dir, GLORY, GLORY_ON, lang)
    try:
        _without_of(app.console)
        assert not any('"of"' in text for text, in app.console.store.db.execute("SELECT record FROM history"))
        games = [g for g in app.run("history")["games"] if g["game"] == "glory"]
        assert sorted(g["status"] for g in games) == ["abandoned", "finished"]   # the console: as stored
        open_history(app)
        rows = _rows(app)
        start, end = app.stack[-1]._span
        assert len(rows[start:end]) == 1 and not rows[start].startswith("×"), rows
        _open_newest(app)
        from firmware.history_text import abandoned, say
        assert any(r.endswith(": " + say(abandoned(6))) for r in _rows(app)), _rows(app)
        stats = people_rows(app)
        for name in ("Анна", "Борис"):
            assert stats[stats.index(name) + 1].strip().startswith("1 "), stats     # one game each, not 2
    finally:
        app.console.close()


def test_a_campaign_left_before_a_battle_ended_joins_the_copys_first_battle(state_dir):
    """A campaign left before its first battle ended (``abandoned``), reopened and fought on: its
    list shows the battles fought, no «×JC» row beside them; the first battle's page says how the
    first session was left."""
    app = _played_on(state_dir, JC[:2], JC[2:])
    try:
        open_history(app)
        rows = _rows(app)
        assert not any(r.startswith("×") for r in rows), rows
        assert sum(1 for r in rows if r.startswith("JC battle")) == 2, rows
        from firmware.history_joined import joined
        kept, earlier = joined(app.history(50))
        first = min((e for e in kept if e["game"] == "jc-battle"), key=lambda e: e["id"])
        assert [e["status"] for e in earlier[first["id"]]] == ["abandoned"]
    finally:
        app.console.close()


def test_a_game_never_reopened_keeps_its_abandoned_row(state_dir):
    """A game left and never reopened is still listed «×» (nothing joins it)."""
    app = app_with([*GLORY, "new dice seed=1", "roll 2d6", "end"], [], state_dir)
    try:
        open_history(app)
        assert any(r.startswith("×") for r in _rows(app))
    finally:
        app.console.close()


def _e(rid: int, sid: str, part: str, status: str, of: str | None = None, game: str = "jc-battle") -> dict:
    return {"id": rid, "sid": sid, "part": part, "status": status, "game": game, **({"of": of} if of else {})}


def test_a_game_left_twice_is_one_row_and_a_battle_fought_again_in_another_copy_is_the_newest():
    """A Glory game left, reopened and left again (two ``abandoned`` records, the copy's naming the
    first session): one row, the newest, the first joined into it. A Julius Caesar battle 3 fought
    in one copy and again, from the same point, in another: the newest stands (as its BG Stats
    play, firmware/export_plays.py), the other joined into it; battles 1–2 of the first session and
    the game never reopened stand."""
    from firmware.history_joined import joined
    glory = [_e(3, "B", "abandoned", "abandoned", of="A", game="glory"), _e(2, "X", "game", "finished", game="glory"),
             _e(1, "A", "abandoned", "abandoned", game="glory")]
    kept, earlier = joined(glory)
    assert [e["id"] for e in kept] == [3, 2] and [e["id"] for e in earlier[3]] == [1]
    jc = [_e(6, "C2", "battle-3", "finished", of="S"), _e(5, "C1", "battle-3", "finished", of="S"),
          _e(4, "S", "battle-2", "finished"), _e(3, "S", "battle-1", "finished")]
    kept, earlier = joined(jc)
    assert [e["id"] for e in kept] == [6, 4, 3] and [e["id"] for e in earlier[6]] == [5]


@pytest.mark.parametrize("lang, then", [("en", "Then, "), ("ru", "Затем, "), ("uk", "Потім, ")])
def test_a_jc_game_of_one_battle_ended_by_the_players_is_one_row_the_battles(state_dir, lang, then):
    """J-13: one battle fought, then the players end the session (``end``). History listed «JC
    battle 1» and «Julius Caesar» (the ``ended`` record ``end`` files, no winner) for one game
    played, while its BG Stats play is the battle and the statistics count it once. One row: the
    battle's, its page giving the battle's result, its winner and, under it, that the players
    ended the game then. The console's ``history`` keeps both records (PROTOCOL.md)."""
    from firmware.history_text import Msg, say
    app = app_with([*JC[:4], "end"], [], state_dir, lang)
    try:
        games = app.run("history")["games"]
        assert [(g["mode"]["kind"], g["status"]) for g in games] == [("ended", "ended"), ("battle", "finished")]
        open_history(app)
        rows = _rows(app)
        start, end = app.stack[-1]._span
        from firmware.screens.history import game_name
        assert rows[start:end] == [game_name(app.history(50)[1])], rows             # «JC battle 1» alone
        _open_newest(app)
        page = _rows(app)
        assert any(r.startswith(games[1]["result"]) for r in page), page          # the battle's result
        assert any(r.startswith("✓") for r in page), page                         # and its winner
        ended = say(Msg("Ended by the players after {n} action.", plural="Ended by the players after {n} actions.", n=3))
        assert any(r.startswith(then) and r.endswith(": " + ended) for r in page), page
        assert not any("Reopened" in r or "Возвращена" in r or "Повернута" in r for r in page), page
    finally:
        app.console.close()


def test_a_jc_game_of_several_battles_ended_keeps_its_games_row_and_one_battle_in_a_copy_joins():
    """Two battles and the players' end: the ``ended`` record is the game's (its BG Stats play, as
    a campaign's verdict is), beside the battles — nothing joins. One battle fought in a copy of a
    game left before it (``abandoned``), then ended there: one row, the battle, the first session's
    record before it and the copy's end after it."""
    from firmware.history_joined import earlier_rows, joined
    jc = [_e(3, "S", "ended", "ended"), _e(2, "S", "battle-2", "finished"), _e(1, "S", "battle-1", "finished")]
    kept, earlier = joined(jc)
    assert [e["id"] for e in kept] == [3, 2, 1] and earlier == {}
    copy = [_e(3, "C", "ended", "ended", of="S"), _e(2, "C", "battle-1", "finished", of="S"),
            _e(1, "S", "abandoned", "abandoned")]
    for e in copy:
        e["result"], e["finished"] = "x", None
    kept, earlier = joined(copy)
    assert [e["id"] for e in kept] == [2] and [e["id"] for e in earlier[2]] == [1, 3]
    assert [r.split(":")[0] for r in earlier_rows(kept[0], earlier[2])] == [
        "Reopened from Earlier games.", "Earlier", "Then"]
