"""The Sword of Rome: a battle typed on the device and not fought — the Battle form's figures, the
dice thrown on the table half entered — is not lost on a power cut (W-2): Continue showed the home,
about 19 presses to type it all again; now it brings back the form, and the dice entry over it, as
they were, and the card is written once a row or die left, never once a press."""
from __future__ import annotations

import pytest

from firmware.screens.sword.battle import BattleResult
from firmware.screens.sword.draft import DRAFT_KEY, BattleDice, BattleForm
from firmware.screens.sword.home import SwordHome
from tests.screens import app_with, killed_after_presses

NEW = "new sword players=romans,gauls,etruscans,greeks seed=4"
NEW5 = "new sword players=romans,gauls,etruscans,greeks,carthage seed=4"
# Continue, Battle; 5 attacker units, 4 defender units; down to Dice, table; A: the dice entry
FORM = ["a", "a", "right", "right", "down", "right", "down", "down", "down", "down", "down", "right"]
TYPED = {"att": 5, "def": 4, "mod": 0, "defmod": 0, "att_flank": 0, "def_flank": 0, "dice": 1}
DICE = ["a", "up", "up", "right", "up", "right", "right"]      # faces turned on the first two dice


def _stack(state_dir, keys=("a",)) -> list[object]:
    app = app_with([], list(keys), state_dir)
    try:
        app.render()
        return list(app.stack)
    finally:
        app.console.close()


def test_the_dice_half_entered_come_back_after_a_restart(state_dir):  # W-2
    """The power goes on the dice entry (two faces turned, the cursor on the fourth die): Continue
    shows the entry with those faces, on that die, over the form with its figures; A fights that
    battle; a restart then shows its result, no form."""
    app = app_with([NEW], [*FORM, *DICE], state_dir)
    try:
        entry = app.stack[-1]
        assert isinstance(entry, BattleDice)
        faces, seen, cursor = [list(f) for f in entry.faces], [list(s) for s in entry.set], entry.cursor
        assert cursor == 3
    finally:
        app.console.close()            # (no closing of screens: the power went)
    again = app_with([], ["a"], state_dir)
    try:
        again.render()
        entry, form = again.stack[-1], again.stack[-2]
        assert isinstance(entry, BattleDice) and isinstance(form, BattleForm) and isinstance(again.stack[-3], SwordHome)
        assert (entry.faces, entry.set, entry.cursor) == (faces, seen, cursor)
        assert form.values() == TYPED and form.cursor == 6
        again.handle("a")                                   # fought on those faces
        assert isinstance(again.stack[-1], BattleResult)
        fought = again.console.session.view()["last_battle"]
        assert [fought["attacker"]["dice"], fought["defender"]["dice"]] == faces
        assert again.settings.get(DRAFT_KEY) == "-"
    finally:
        again.console.close()
    assert [type(s).__name__ for s in _stack(state_dir)] == ["MainMenu", "SwordHome", "BattleResult"]


def test_the_form_half_filled_comes_back_on_its_row(state_dir):  # W-2
    """The power goes on the form (units set, the cursor on the attack bonus): Continue shows it with
    its figures, on the row left; the dice entry closed (left on its first die) is not brought back."""
    app = app_with([NEW], ["a", "a", "right", "right", "down", "right", "down", "right", "down"], state_dir)
    try:
        assert isinstance(app.stack[-1], BattleForm) and app.stack[-1].cursor == 3
    finally:
        app.console.close()
    form = _stack(state_dir)[-1]
    assert isinstance(form, BattleForm) and form.cursor == 3
    assert form.values() == {**TYPED, "mod": 1, "dice": form.values()["dice"]}
    app = app_with([], ["a", "down", "down", "down", "right", "a", "left"], state_dir)    # Dice: table, in, out
    try:
        assert isinstance(app.stack[-1], BattleForm)
    finally:
        app.console.close()
    assert [type(s).__name__ for s in _stack(state_dir)] == ["MainMenu", "SwordHome", "BattleForm"]


@pytest.mark.parametrize("keys", [["b"], ["a"]], ids=["closed", "fought"])
def test_a_form_closed_or_fought_is_not_brought_back(state_dir, keys):  # W-2
    """B closes the form (nothing typed kept: the home); A fights with the device's dice (its result)."""
    app = app_with([NEW], ["a", "a", "right", "down", "up", *keys], state_dir)
    app.console.close()
    shown = [type(s).__name__ for s in _stack(state_dir)]
    assert shown == (["MainMenu", "SwordHome"] if keys == ["b"] else ["MainMenu", "SwordHome", "BattleResult"])


def test_the_card_is_written_once_a_row_or_die_left_never_once_a_press(state_dir):  # W-2
    """27 presses typing a battle: 7 writes — 2 rows left changed (units, defender), the dice entry
    opened, 4 dice read; none for a row passed unchanged or a die passed again, none for the
    presses that turn a figure (besides: the Dice row's choice remembered, as ever, when A uses it)."""
    app = app_with([NEW], ["a"], state_dir)
    try:
        written: list[str] = []
        real = app.set_setting

        def counted(key, value):
            written.append(key)
            return real(key, value)
        app.set_setting = counted
        keys = ["a", *["right"] * 4, "down", "right", "right", "down", *["down"] * 4, "right", "a",
                "up", "up", "up", "right", "up", "right", "right", "right", "left", "left", "right", "right"]
        for k in keys:
            app.render()
            app.handle(k)
        assert isinstance(app.stack[-1], BattleDice)
        assert len(keys) == 27 and written == [DRAFT_KEY] * 2 + ["rules.table_dice"] + [DRAFT_KEY] * 5, written
    finally:
        app.console.close()


def test_another_games_draft_is_not_brought_back(state_dir):  # W-2
    """A battle typed in one game, then a new game started over the serial link: Continue shows the
    new game's home, not the other game's form."""
    app = app_with([NEW], FORM, state_dir)
    app.console.close()
    app = app_with([NEW5], ["a"], state_dir)
    try:
        app.render()
        assert isinstance(app.stack[-1], SwordHome)
    finally:
        app.console.close()


@pytest.mark.parametrize("kept", ["{", '["x",0,[],null]', "1,2,3", '["",99,5,null]', '["",0,[3,3,0,0,0,0,0,1],[9,[[7]],[[1]]]]'])
def test_a_damaged_draft_never_fails_the_start(state_dir, kept, caplog):  # W-2
    app = app_with([NEW, f"settings {DRAFT_KEY}={kept}"], ["a"], state_dir)
    try:
        app.render()
        assert isinstance(app.stack[-1], SwordHome)
    finally:
        app.console.close()


@pytest.mark.slow
def test_a_kill_on_the_dice_entry_brings_it_back_as_entered(state_dir):  # W-2
    """The device program (legatus --sim --script) killed with SIGKILL while the table's dice are
    half entered; started again, Continue's frame is the dice entry as entered, drawn as here, over
    the form with its figures."""
    import subprocess
    import sys
    from firmware.terminal import to_braille
    killed_after_presses(state_dir, [NEW], 0, [*FORM, *DICE])
    keys = state_dir / "keys.txt"
    keys.write_text("a\n")
    out = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(keys),
                          "--state-dir", str(state_dir)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.split("--- frame after: a")[-1].split("\n", 1)[1].strip("\n")
    app = app_with([], ["a"], state_dir)
    try:
        entry = app.stack[-1]
        assert isinstance(entry, BattleDice) and entry.cursor == 3
        assert isinstance(app.stack[-2], BattleForm) and app.stack[-2].values() == TYPED
        assert to_braille(app.render()).strip("\n") == last
    finally:
        app.console.close()
