"""scripts/presses/sword.py presses as a player at the table does: its figures are what a player
makes (the battles with dice thrown on the table, W-2)."""
from __future__ import annotations

from firmware.screens.sword.battle import BattleResult
from firmware.screens.sword.draft import BattleDice
from scripts.presses import sword as S
from scripts.presses.harness import Driver


def _on_the_dice(d: Driver) -> None:
    assert d.run("new sword players=romans,gauls,etruscans,greeks seed=4")["ok"]
    from firmware.screens.sword.home import SwordHome
    d.app.stack[:] = d.app.stack[:1]
    d.app.push(SwordHome())
    d.select("Battle")
    S._fill(d, {"dice": 1})
    d.press("a")
    assert isinstance(d.top, BattleDice), d.screen()


def _shown(d: Driver) -> list[int]:
    return [face for row in d.top.faces for face in row]


def test_the_faces_the_guesses_already_show_are_entered_with_a_alone():  # W-2
    """The script pressed right through all six dice (6 presses) where the guesses already showed
    the faces thrown: a player presses A (1). One die turned, the rest matching: to it, its turn, A."""
    d = Driver("en")
    try:
        _on_the_dice(d)
        shown = _shown(d)
        with d.task("guessed"):
            S._faces(d, shown)
        assert isinstance(d.top, BattleResult) and d.results["guessed"] == [1]
    finally:
        d.close()
    d = Driver("en")
    try:
        _on_the_dice(d)
        faces = _shown(d)
        faces[2] = faces[2] % 6 + 1                     # the attack's third die one face up; the defence's guessed
        with d.task("one"):
            S._faces(d, faces)
        assert d.results["one"] == [2 + 1 + 1], d.results     # right ×2, up, A (it was right ×5, up, A: 7)
        fought = d.top.result
        assert [fought["attacker"]["dice"], fought["defender"]["dice"]] == [faces[:3], faces[3:]]
    finally:
        d.close()


def test_the_script_fights_a_battle_with_a_flanking_force():  # W-2
    assert "flanking" in S.FLANK and S.FLANK not in S.TARGETS       # measured, no target in an issue
    import inspect
    assert "d.task(FLANK)" in inspect.getsource(S.play)
