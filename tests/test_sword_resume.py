"""The Sword of Rome after a power cut: the battle result fought on the device and not closed yet
is said again where the table left it (W-2..W-5: the losses, the winner's support, the loss table),
as Julius Caesar's roll is (firmware/screens/jc/roll.py ``resume_roll``); one closed never is."""
from __future__ import annotations

import pytest

from firmware.screens.sword.battle import BattleResult
from firmware.screens.sword.home import SwordHome
from tests.screens import app_with, killed_after_presses

NEW = "new sword players=romans,gauls,etruscans,greeks seed=4"
FIGHT = ["a", "a", "a"]          # Continue (the Sword home), Battle (the form), A: fought with the device's dice


def _restarted(state_dir) -> list[str]:
    """The screens a restart shows after Continue (A on the main menu)."""
    app = app_with([], ["a"], state_dir)
    try:
        app.render()
        return [type(s).__name__ for s in app.stack]
    finally:
        app.console.close()


def test_a_battle_result_left_open_is_said_again_after_a_restart(state_dir):  # W-2..W-5
    """Fought on the device, the result on the panel when the power goes: Continue shows it again
    (it showed the home: Continue, down x8 to Last roll, A — 10 presses, not 1), the same battle as
    the session keeps it; read and closed, a restart shows the home."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        assert isinstance(app.stack[-1], BattleResult)
        fought = app.console.session.view()["last_battle"]
    finally:
        app.console.close()
    again = app_with([], ["a"], state_dir)
    try:
        top = again.stack[-1]
        assert isinstance(top, BattleResult) and isinstance(again.stack[-2], SwordHome)
        assert top.result == fought
        for _ in range(20):                              # A reads on to the loss table, and closes it
            if again.stack[-1] is not top:
                break
            again.render()
            again.handle("a")
        assert isinstance(again.stack[-1], SwordHome)
    finally:
        again.console.close()
    assert _restarted(state_dir) == ["MainMenu", "SwordHome"]


def test_a_battle_of_the_tables_dice_left_open_is_said_again(state_dir):  # W-2: dice thrown on the table
    """The dice thrown on the table and entered (Dice: table, A, A): its result is reopened too."""
    app = app_with([NEW], ["a", "a", *["down"] * 6, "right", "a", "a"], state_dir)
    try:
        assert isinstance(app.stack[-1], BattleResult)
        assert app.console.session.view()["last_battle"]["dice_source"]["attacker"] != "device"
    finally:
        app.console.close()
    assert _restarted(state_dir) == ["MainMenu", "SwordHome", "BattleResult"]


def test_a_result_closed_with_b_is_not_reopened(state_dir):  # W-2
    app = app_with([NEW], [*FIGHT, "b"], state_dir)
    try:
        assert isinstance(app.stack[-1], SwordHome)
    finally:
        app.console.close()
    assert _restarted(state_dir) == ["MainMenu", "SwordHome"]


def test_a_battle_fought_over_the_serial_link_is_not_pushed_on_the_device(state_dir):  # W-2
    """The laptop's battle is read there: the device opens on its home, as before (the Last roll row)."""
    app = app_with([NEW, "battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5"], ["a"], state_dir)
    try:
        assert isinstance(app.stack[-1], SwordHome)
    finally:
        app.console.close()


def test_a_battle_taken_back_by_undo_is_not_reopened(state_dir):  # W-2: undo takes the battle back
    """The result open, the battle undone over the serial link: no battle to say after a restart."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        assert app.console.request("undo")["ok"]
        assert app.console.session.view()["last_battle"] is None
    finally:
        app.console.close()
    assert _restarted(state_dir) == ["MainMenu", "SwordHome"]


def test_another_battle_after_an_open_one_is_not_taken_for_it(state_dir):  # W-2
    """A result left open, then another battle fought over the serial link: the open mark is the
    first one's, so the restart shows the home, never the link's battle as if the device had fought it."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        assert app.console.request("battle att=4 def=9 att-dice=1,1,2 def-dice=6,6,5")["ok"]
    finally:
        app.console.close()
    assert _restarted(state_dir) == ["MainMenu", "SwordHome"]


def test_the_open_mark_is_one_write_a_battle(state_dir):
    """One write when the battle is fought, one when it is closed; none for reading it."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        written: list[str] = []
        real = app.set_setting

        def counted(key, value):
            written.append(key)
            return real(key, value)
        app.set_setting = counted
        for _ in range(20):
            if not isinstance(app.stack[-1], BattleResult):
                break
            app.render()
            app.handle("a")
        assert written == ["sword.battle"]        # (kept open when fought, closed on the last page)
    finally:
        app.console.close()


@pytest.mark.slow
def test_a_kill_on_a_battle_result_resumes_on_it(state_dir):  # W-2..W-5
    """The device program (legatus --sim --script) killed with SIGKILL while a battle's result,
    fought with the device's dice, is on the panel; started again, its first frame after Continue
    is that result, drawn as here."""
    import subprocess
    import sys
    from firmware.terminal import to_braille
    killed_after_presses(state_dir, [NEW], 3)           # Continue, Battle, A: the power goes on the result
    keys = state_dir / "keys.txt"
    keys.write_text("a\n")
    out = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(keys),
                          "--state-dir", str(state_dir)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.split("--- frame after: a")[-1].split("\n", 1)[1].strip("\n")
    app = app_with([], ["a"], state_dir)
    try:
        assert isinstance(app.stack[-1], BattleResult)
        assert to_braille(app.render()).strip("\n") == last
    finally:
        app.console.close()
