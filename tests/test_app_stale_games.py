"""The screens left on the stack after a change of the game (an undo, a line from the serial link)
show the state as it is now, game by game (firmware/app.py ``drop_stale``): none shows a step
taken back, none asks about a step that no longer exists — and none is taken off while what it
shows or asks still stands."""
from __future__ import annotations

from tests.screens import app_with

JC_SET_UP = ["new jc-battle seed=1", "deal", "discard caesar pluto", "discard pompey vulcan"]


def test_a_jc_battle_s_settings_stay_open_through_a_read_and_go_once_a_block_is_placed(state_dir):  # J-4, J-10
    """Battle → Battle settings (the battle set up, no block placed yet): a laptop reading the
    state over the serial link took the form off under the players' hands (it compared the battle
    with a next battle's, over); it goes once a block is placed (its settings are settled)."""
    from firmware.screens.jc.setup import battle_settings_form
    app = app_with(JC_SET_UP, [], state_dir)
    try:
        form = battle_settings_form(app)
        app.push(form)
        app.render()
        app.handle("right")                              # Pompey attacks (not sent yet)
        assert '"ok":true' in app.serve_line(b"state")
        assert app.stack[-1] is form and form.values()["attacker"] == 1
        app.serve_line(b"add attacker c_leg10")         # the battle's set-up goes on without it
        assert form not in app.stack and app.errors == 0
    finally:
        app.console.close()


def test_a_jc_next_battle_s_form_goes_once_the_next_battle_is_set_up_meanwhile(state_dir):  # J-4
    from firmware.screens.jc.setup import next_battle_form
    app = app_with(["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight"], [], state_dir)
    try:
        form = next_battle_form(app)
        app.push(form)
        app.render()
        app.serve_line(b"state")
        assert app.stack[-1] is form
        app.serve_line(b"next-battle")
        assert form not in app.stack and app.errors == 0
    finally:
        app.console.close()
