"""Retreat losses entered after a Sword of Rome battle (W-5): the winner gains half the units the
loser actually lost, retreat losses included, rounded up. The loser's retreat losses are known only
once it has retreated, so the session's ``retreat losses=N`` records them for its most recent
battle and computes the support again (docs/protocol/sword.md)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine.sword import actions as act
from engine.sword import battle as B
from firmware.console import Console
from tests.conftest import ROOT, console_cmd, run_console

NEW = "new sword players=romans,etruscans,samnites seed=5"
W7 = "battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5"        # the attacker loses 5, support 3
# the attacker wins (21 vs 7); its 5 and 4 read L2 and L1 on the loss table: the defender loses 3
THREE = "battle att=6 def=6 mod=10 att-dice=5,4,2 def-dice=2,2,3"
# the attacker wins; its 4 reads L1: the defender loses 1
ONE = "battle att=6 def=6 mod=10 att-dice=4,2,2 def-dice=2,2,3"


def ok(console: Console, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def refused(console: Console, line: str, code: str) -> dict[str, Any]:
    before = console.request("state")["state"]
    log_before = console.request("log 50")["log"]
    out = console.request(line)
    assert out["ok"] is False and out["error"] == code, (line, out)
    assert out["message"]
    assert console.request("state")["state"] == before, line            # bad input changes nothing
    assert console.request("log 50")["log"] == log_before, line
    return out


# -- the rule (engine/sword/battle.py) ------------------------------------------------------------
def test_the_rulebook_example_four_units_lost_give_two_support():  # W-5, rulebook 7.3 example (ru)
    # «нанесла Римской армии урон в 4 БЕ ... может добавить/удалить маркеры на два очка поддержки»
    assert B.support_gain(4, 0) == 2
    assert B.support_gain(3, 1) == 2              # 3 lost in the battle, 1 retreating: still 4 units
    assert B.support_gain(5, 0) == 3              # W-7: ⌈5/2⌉


def test_retreat_losses_are_added_before_rounding_up():  # W-5
    assert B.support_gain(1, 1) == 1              # ⌈2/2⌉, not ⌈1/2⌉ + ⌈1/2⌉ = 2
    assert B.support_gain(1, 0) == 1 and B.support_gain(0, 0) == 0 and B.support_gain(2, 1) == 2


def test_with_retreat_replaces_the_retreat_losses_and_keeps_the_battle():  # W-5
    fields = {"attacker": {"units": 6, "losses": 0}, "defender": {"units": 6, "losses": 3},
              "winner": "attacker", "loser": "defender", "support": 2, "retreat_losses": 0}
    assert B.retreat_room(fields) == 3
    two = B.with_retreat(fields, 2)
    assert (two["retreat_losses"], two["support"]) == (2, 3)            # ⌈5/2⌉
    assert (B.with_retreat(two, 1)["retreat_losses"], B.with_retreat(two, 1)["support"]) == (1, 2)
    assert fields["support"] == 2 and fields["retreat_losses"] == 0       # the given fields untouched
    with pytest.raises(ValueError):
        B.with_retreat(fields, 4)


def test_the_action_builder_writes_the_line_the_console_reads():
    assert act.retreat(2) == "retreat losses=2"


# -- the console (the session's journal) ---------------------------------------------------------
def test_retreat_losses_after_the_battle_recompute_the_support(console: Console):  # W-5
    ok(console, NEW)
    battle = ok(console, THREE)
    assert battle["winner"] == "attacker" and battle["defender"]["losses"] == 3 and battle["support"] == 2
    out = ok(console, "retreat losses=1")                               # 4 units in all: 2 support
    assert (out["retreat_losses"], out["support"]) == (1, 2)
    out = ok(console, "retreat losses=2")                               # again: replaces, ⌈5/2⌉ = 3
    assert (out["retreat_losses"], out["support"]) == (2, 3)
    # the reply has the battle's shape (the same fields as the battle's reply), the rest unchanged
    assert set(battle) <= set(out)
    for key in ("attacker", "defender", "winner", "loser", "readings", "sacred_band", "dice_source"):
        assert out[key] == battle[key], key
    last = console.request("state")["state"]["last"]
    assert last["kind"] == "battle" and (last["retreat_losses"], last["support"]) == (2, 3)
    log = console.request("log 3")["log"]
    assert log[-1] == "Retreat losses of the defender: 2 (5 lost in all); the attacker's support +3 (W-5)."


def test_the_rounding_counts_retreat_losses_with_the_battles(console: Console):  # W-5
    ok(console, NEW)
    assert ok(console, ONE)["support"] == 1
    assert ok(console, "retreat losses=1")["support"] == 1               # ⌈(1 + 1) / 2⌉
    assert ok(console, "retreat losses=3")["support"] == 2


def test_undo_takes_the_retreat_losses_back(console: Console):  # W-5
    ok(console, NEW)
    ok(console, W7)
    ok(console, "retreat losses=3")
    ok(console, "retreat losses=1")
    undone = ok(console, "undo")
    assert undone["undone"] == ("Undone: the retreat losses are 3 again. Take 2 units off the map again. Add 1 "
                                "support point again.")                    # not «put those units back»
    last = undone["state"]["last"]
    assert (last["retreat_losses"], last["support"]) == (3, 4)           # ⌈8/2⌉
    last = ok(console, "undo")["state"]["last"]
    assert (last["retreat_losses"], last["support"]) == (0, 3)           # the rulebook battle as rolled
    assert ok(console, "retreat losses=1")["support"] == 3               # ⌈6/2⌉


def test_the_most_recent_battle_is_amended_after_a_naval_retreats_roll(console: Console):  # W-5, W-8
    ok(console, NEW)
    ok(console, W7)
    ok(console, "battle att=6 def=6 mod=10 att-dice=5,4,2 def-dice=2,2,3")
    ok(console, "naval die=6")                                           # a retreat by sea: attrition
    out = ok(console, "retreat losses=2")
    assert out["winner"] == "attacker" and out["defender"]["losses"] == 3 and out["support"] == 3
    assert console.request("state")["state"]["last"]["kind"] == "naval"  # the last roll stays the naval move


def test_refusals_change_nothing(console: Console):  # W-5
    ok(console, NEW)
    assert "No battle" in refused(console, "retreat losses=1", "illegal_move")["message"]
    ok(console, W7)                                                      # the Romans (12) lose 5: 7 left
    msg = refused(console, "retreat losses=8", "illegal_move")["message"]
    assert msg == "The loser has 7 units left after the battle: retreat losses are 0 to 7, not 8."
    for line in ("retreat", "retreat 2", "retreat losses=-1", "retreat losses=two", "retreat losses=100",
                 "retreat losses=1 units=2", "retreat losses=1 losses=2"):
        refused(console, line, "bad_arguments")
    ok(console, "retreat losses=7")                                      # every unit left: allowed
    assert console.request("state")["state"]["last"]["support"] == 6


def test_a_loser_wiped_out_in_the_battle_has_nothing_left_to_lose(console: Console):  # W-4, W-5
    ok(console, NEW)
    out = ok(console, "battle att=6 def=1 mod=10 att-dice=5,5,2 def-dice=2,2,3")
    assert out["defender"]["losses"] == 1 and out["defender"]["eliminated"]
    assert "none are left" in refused(console, "retreat losses=1", "illegal_move")["message"]
    assert ok(console, "retreat losses=0")["support"] == 1


def test_after_turn_9_retreat_losses_answer_game_over(console: Console):  # W-11, docs/protocol/sword.md
    ok(console, NEW)
    ok(console, W7)
    for _ in range(45):
        ok(console, "advance")
    assert console.request("state")["state"]["finished"] is True
    refused(console, "retreat losses=1", "game_over")
    ok(console, "undo")                                                  # reopens the last step
    assert ok(console, "retreat losses=1")["support"] == 3


def test_in_russian_the_rulebooks_words(console: Console):  # W-5
    ok(console, "settings language=ru")
    try:
        ok(console, NEW)
        ok(console, W7)
        ok(console, "retreat losses=2")
        said = console.request("log 1")["log"][-1]
        assert said == "Потери отступления атаки: 2 БЕ (всего потеряно 7 БЕ); поддержка защиты +4 (W-5).", said
        msg = console.request("retreat losses=9")["message"]
        assert msg == "У проигравшего после битвы осталось 7 БЕ: потери отступления — от 0 до 7, не 9.", msg
    finally:
        ok(console, "settings language=en")


def test_a_loser_wiped_out_by_its_retreat_losses_is_eliminated(console: Console):  # W-4, W-5, seed 8.4
    """Seed 8.4: «все БЕ, сопровождающие лидера устраняются из-за боевых потерь, потерь отступления»:
    the loser whose battle and retreat losses take every unit it had has no units left, as the
    device's result says (its leaders displaced); the reply's ``eliminated`` said false all the same."""
    ok(console, NEW)
    out = ok(console, THREE)                                             # the defender: 6 units, 3 lost
    assert out["defender"]["eliminated"] is False
    out = ok(console, "retreat losses=3")
    assert out["defender"]["eliminated"] is True and out["attacker"]["eliminated"] is False
    assert console.request("state")["state"]["last_battle"]["defender"]["eliminated"] is True
    assert ok(console, "retreat losses=2")["defender"]["eliminated"] is False       # replaced: 1 unit left
    out = ok(console, "sword-battle att=6 def=6 mod=10 att-dice=5,4,2 def-dice=2,2,3 retreat=3")
    assert out["retreat_losses"] == 3 and out["defender"]["eliminated"] is True


def test_an_old_journal_replays_and_a_state_stored_before_is_amended(state_dir: Path):
    """A session journaled before ``retreat`` (``battle … retreat=N`` at the roll) replays as it was;
    a state stored before the most recent battle was kept apart finds it in ``last``."""
    from engine.sword.session import GAME
    from firmware.session import Session, parse_line
    s = Session.start(NEW, 5, "old")
    out = s.apply(W7 + " retreat=2")
    assert (out.fields["retreat_losses"], out.fields["support"]) == (2, 4)
    state = s.state
    del state["last_battle"]                        # as a checkpoint written by the version before
    amended = GAME.commands["retreat"].handler(state, parse_line("retreat losses=3"))
    assert amended.fields["support"] == 4                               # ⌈8/2⌉
    assert (state["last"]["retreat_losses"], state["last_battle"]["support"]) == (3, 4)


def test_acknowledged_retreat_losses_survive_kill_9_and_resume(state_dir: Path):  # PROTOCOL.md durability
    run_console(state_dir, [NEW, W7])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(console_cmd(state_dir), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"retreat losses=3\n")
    proc.stdin.flush()
    acked = json.loads(proc.stdout.readline())
    assert acked["ok"] and acked["support"] == 4
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    proc.stdin.close()
    state, undone, again = run_console(state_dir, ["state", "undo", "retreat losses=1"])
    assert (state["state"]["last"]["retreat_losses"], state["state"]["last"]["support"]) == (3, 4)
    assert undone["state"]["last"]["support"] == 3                       # the journal still undoes it
    assert again["support"] == 3
