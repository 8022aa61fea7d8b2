"""For the Glory of Rome: an ended game's final score as History keeps it. A game made final
before the tie rule was put right (G-15 after G-14: a tie on fame goes to the denarii left after
the exchange; all the coins typed told it before) has a sealed History record naming one winner,
and its stored pad, scored again by the rules now, another. The record is what the table
acknowledged: the device's final score shows it (places, winners), never another winner silently,
and says whom the rules now name and why."""
from __future__ import annotations

import pytest

from engine.glory import scoring
from firmware import i18n
from firmware.screens import base
from firmware.screens.glory.record import as_kept
from firmware.screens.glory.score import ScoreResult, show_scores
from firmware.screens.widgets import TextScreen

ROUNDS = [line for _ in range(9) for line in ("event", "end-round")]
# Ваня: track 1 + 8 denarii (2 fame, none left) = 3; Маша: track 2 + 7 denarii (1 fame, 3 left) = 3
TIED = ["new glory players=Ваня,Маша,Петя seed=1", *ROUNDS, "fame Маша +1", "fame Петя +1",
        "sheet Ваня denarii 8", "sheet Маша denarii 7", "score sheet", "reveal"]


def _ended(state_dir, monkeypatch, before_the_fix: bool, lang: str = "en"):
    """The game made final (``score sheet``, then ``reveal``) — by an older Legatus that told the
    tie by all the coins typed, or by today's —, then the device started again on it."""
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    if before_the_fix:
        monkeypatch.setattr(scoring, "denarii_left", lambda p: p.denarii)
    store = Store(state_dir)
    console = Console(store, store.resume())
    assert console.request(f"settings language={lang}")["ok"]
    for line in TIED:
        assert console.request(line)["ok"], line
    console.close()
    monkeypatch.undo()
    store = Store(state_dir)
    console = Console(store, store.resume())
    i18n.set_language(lang)
    return App(console), console


def _history(console) -> list:
    games = console.request("history")["games"]
    return [(p["name"], p["winner"], p.get("rank")) for p in games[0]["players"]]


SAID = {
    "en": ["History keeps the score made final: the winner is Ваня.",
           "By the rules now the winner is Маша: a tie on fame goes to the denarii left after the exchange (G-15)."],
    "ru": ["В Истории — счёт, сделанный окончательным: победитель — Ваня.",
           "По правилам сейчас победитель — Маша: ничью по очкам решают денарии, оставшиеся после обмена (G-15)."],
    "uk": ["В Історії — рахунок, зроблений остаточним: переможець — Ваня.",
           "За правилами тепер переможець — Маша: нічию за очками вирішують денарії, що лишилися після обміну "
           "(G-15)."],
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_game_made_final_before_the_tie_rule_shows_the_sealed_winner_and_says_the_rules_now(
        state_dir, monkeypatch, lang):                                        # G-14, G-15
    app, console = _ended(state_dir, monkeypatch, before_the_fix=True, lang=lang)
    try:
        kept = _history(console)
        assert kept == [("Ваня", True, 1), ("Маша", False, 2), ("Петя", False, 3)]
        app.render()
        show_scores(app)
        app.render()
        note = app.stack[-1]
        assert isinstance(note, TextScreen) and app.errors == 0
        assert note.paras == SAID[lang]                   # what History keeps first, then the rules now
        assert len(base.wrap(SAID[lang][0])) <= base.ROWS        # the sealed winner on the first page
        app.handle("b")
        ranking = app.stack[-1]
        assert isinstance(ranking, ScoreResult)
        assert ranking.result["winners"] == ["Ваня"] and ranking.result["ranking"] == ["Ваня", "Маша", "Петя"]
        assert ranking.result["places"] == {"Ваня": 1, "Маша": 2, "Петя": 3}
        assert ranking.result["denarii_left"] == {"Ваня": 0, "Маша": 3, "Петя": 0}    # the columns: the pad's
        assert _history(console) == kept                   # never changed
    finally:
        i18n.set_language("en")
        console.close()


def test_a_game_made_final_by_the_rules_now_shows_its_score_with_no_note(state_dir, monkeypatch):  # G-15
    app, console = _ended(state_dir, monkeypatch, before_the_fix=False)
    try:
        assert _history(console)[1] == ("Маша", True, 1)
        app.render()
        show_scores(app)
        app.render()
        ranking = app.stack[-1]
        assert isinstance(ranking, ScoreResult) and app.notices == 0
        assert ranking.result["winners"] == ["Маша"] and ranking.result["ranking"][:2] == ["Маша", "Ваня"]
    finally:
        console.close()


def test_a_record_kept_without_places_ranks_its_winner_first():             # G-15
    """A History record made before records kept places: the winner it names first, then by points."""
    now = {"scores": {n: {"total": t} for n, t in (("A", 3), ("B", 3), ("C", 2))}, "winners": ["B"],
           "ranking": ["B", "A", "C"], "places": {"B": 1, "A": 2, "C": 3}}
    kept = {"players": [{"name": "A", "score": 3, "winner": True}, {"name": "B", "score": 3, "winner": False},
                        {"name": "C", "score": 2, "winner": False}]}
    shown, note = as_kept(now, kept)                          # type: ignore[arg-type]
    assert shown["ranking"] == ["A", "B", "C"] and shown["places"] == {"A": 1, "B": 2, "C": 3}
    assert note is not None and str(note).startswith("History keeps the score made final: the winner is A.")
    assert as_kept(now, {"players": [{**p, "winner": p["name"] == "B"} for p in kept["players"]]})[1] is None


def test_the_game_reopened_from_earlier_games_shows_the_winner_history_keeps(state_dir, monkeypatch):  # G-15
    """A copy reopened from Earlier games is the same game: History keeps it once, under the
    session that made it final, and the copy's final score shows that record too."""
    from firmware.screens import archive
    app, console = _ended(state_dir, monkeypatch, before_the_fix=True)
    try:
        assert console.request("new dice seed=3")["ok"]            # the ended game is archived
        glory = [a for a in archive.archived(app.archives() or []) if a.game == "glory"][0]
        assert archive.reopen(app, glory)
        assert console.session.header.get("reopened") and console.session.ended
        app.render()
        show_scores(app)
        app.render()
        assert app.stack[-1].paras == SAID["en"]
        ranking = app.stack[-2]
        assert isinstance(ranking, ScoreResult) and ranking.result["winners"] == ["Ваня"]
    finally:
        console.close()


def test_history_written_again_after_damage_keeps_the_sealed_winner(state_dir, monkeypatch):  # G-15
    """A bad byte in the sealed record of a game made final before the tie rule was put right
    (here in its fingerprint, its players and result still whole) makes the start-up check write the
    record again from the stored pad: it named the rules' winner now (Маша), silently replacing
    the one the table acknowledged (Ваня); the same players and points with other winners are the
    rules then, not the damage — the record still showing them stays."""
    import sqlite3
    app, console = _ended(state_dir, monkeypatch, before_the_fix=True)
    kept = _history(console)
    console.close()
    con = sqlite3.connect(state_dir / "legatus.db")
    (rid, text), = con.execute("SELECT id, CAST(record AS TEXT) FROM history WHERE part='game'").fetchall()
    at = text.index('"fp": "') + len('"fp": "')
    bad = text[:at] + ("0" if text[at] != "0" else "1") + text[at + 1:]      # one byte of its fingerprint
    con.execute("UPDATE history SET record=? WHERE id=?", (bad.encode(), rid))
    con.commit()
    con.close()
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    console = Console(store, store.resume())
    try:
        assert _history(console) == kept == [("Ваня", True, 1), ("Маша", False, 2), ("Петя", False, 3)]
        assert "Ваня" in str(console.request("history")["games"][0]["result"])
    finally:
        console.close()
