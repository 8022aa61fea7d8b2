"""The draws of a game whose session a new game put aside before it ended (found by the kit
helper): PROTOCOL.md fixes that a seed is never shown before its game's end, and such a game can
be reopened from Earlier games and played on — so ``export format=draws`` refuses it, and says
in a whole sentence how to get them (reopen it and end it), or, once a reopened copy has ended,
which game's draw record holds them. Before: «its draws are shown once its session has ended
('end', or 'reveal' after the game's own end)» of a session nobody could end any more."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.console import Console
from firmware.store import Store

FIGHT = ["add attacker c_leg10", "add defender p_pompeius", "fight"]      # one Julius Caesar battle (J-14)


def _ok(c: Console, line: str) -> dict:
    r = c.request(line)
    assert r["ok"], (line, r)
    return r


def _put_aside(d: Path, language: str) -> Console:
    store = Store(d)
    c = Console(store, store.resume())
    _ok(c, f"settings language={language}")
    for line in ["new jc-battle seed=20", *FIGHT, "new dice"]:
        _ok(c, line)
    return c


@pytest.mark.parametrize("language, said", [
    ("en", "Game 1: its draws are shown once its session has ended, and another game put that session aside before "
           "it ended. To check them, reopen it (Games → Earlier games), end it, and ask again."),
    ("ru", "Игра 1: её жребий показывается, когда сессия завершена, а новая игра отложила эту сессию до её "
           "завершения. Чтобы проверить жребий, откройте её снова («Игры» → «Прошлые игры»), завершите и запросите "
           "ещё раз."),
    ("uk", "Гра 1: її жереб показується, коли сесію завершено, а нова гра відклала цю сесію до її завершення. "
           "Щоб перевірити жереб, відкрийте її знову («Ігри» → «Минулі ігри»), завершіть і запитайте ще раз.")])
def test_the_draws_of_a_game_put_aside_say_how_to_get_them(state_dir: Path, language: str, said: str):
    c = _put_aside(state_dir, language)
    try:
        [entry] = [g for g in _ok(c, "history")["games"] if g["game"] == "jc-battle"]
        assert entry["seed"] is None                            # PROTOCOL: never before its game's end
        refused = c.request(f"export format=draws id={entry['id']}")
        assert refused["error"] == "bad_arguments" and refused["message"] == said
    finally:
        c.close()


def test_a_copy_that_ended_another_way_is_named_and_never_taken_for_this_sessions_record(state_dir: Path):
    """Reopened from Earlier games, the copy went another way (no fight) and ended: its draw record
    holds the seed, not this session's battle; the refusal says just that (nothing made up)."""
    c = _put_aside(state_dir, "en")
    try:
        head, = (json.loads(h) for (h,) in c.store.db.execute(
            "SELECT header FROM sessions WHERE current=0 AND header LIKE '%jc-battle%'"))
        assert c.reopen(head["line"], int(head["seed"]), bool(head.get("committed")), int(head.get("v", 1)),
                        lines=FIGHT, was=head["sid"])["ok"]
        for line in FIGHT[:2]:                                  # not fought this time
            _ok(c, line)
        _ok(c, "end")
        games = {g["id"]: g for g in _ok(c, "history")["games"]}
        copy = max(i for i, g in games.items() if g["seed"] is not None)
        assert copy != 1 and _ok(c, f"export format=draws id={copy}")["record"]["seed"] == 20
        refused = c.request("export format=draws id=1")
        assert refused["message"] == (f"Game 1: a copy of it reopened from Earlier games has ended (game {copy}), and "
                                      f"the seed is in that game's draw record; this session itself was put aside "
                                      f"before it ended, so it has no draw record of its own.")
    finally:
        c.close()


def test_a_game_still_being_played_keeps_its_own_refusal(state_dir: Path):
    """The running session is not put aside: 'end' is what shows its draws."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        for line in ["new jc-battle seed=20", *FIGHT]:
            _ok(c, line)
        refused = c.request("export format=draws id=1")
        assert refused["message"] == ("Game 1: its draws are shown once its session has ended ('end', or 'reveal' "
                                      "after the game's own end).")
    finally:
        c.close()
