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


@pytest.mark.parametrize("undo", ["link", "hold B"])
def test_a_battle_undone_and_fought_again_over_the_link_is_not_reopened(state_dir, undo):  # W-2
    """The result open, the battle undone (over the serial link, or hold B on the device), then the
    same battle sent from the laptop (undo never re-rolls: the same dice, the same mark): the next
    start reopened it on the device as if the device had fought it; now the undo closes the mark."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        if undo == "link":
            assert '"ok":true' in app.serve_line(b"undo")
        else:
            app.handle("b:hold")
            app.render()
            app.handle("a")                              # Undo? A: undo
        app.render()
        assert app.console.session.view()["last_battle"] is None
        assert '"ok":true' in app.serve_line(b"battle att=3 def=3 mod=0 defmod=0")
        app.render()
        assert not isinstance(app.stack[-1], BattleResult)
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


def test_the_open_mark_is_one_write_a_battle_and_one_a_page_turned(state_dir):
    """One write when the battle is fought, one for each page turned (the page a power cut reopens
    it on), one when it is closed; none for drawing it."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        written: list[str] = []
        real = app.set_setting

        def counted(key, value):
            written.append(key)
            return real(key, value)
        app.set_setting = counted
        turned = 0
        for _ in range(20):
            top = app.stack[-1]
            if not isinstance(top, BattleResult):
                break
            app.render()
            app.render()
            was = top.scroll.top
            app.handle("a")
            turned += app.stack[-1] is top and top.scroll.top != was
        assert turned >= 2 and written == ["sword.battle"] * (turned + 1)     # (the pages, the close)
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


def _read_to(app, page: int) -> int:
    """A on the result until it shows its ``page``-th screenful (1: the first); its first row."""
    top = app.stack[-1]
    assert isinstance(top, BattleResult)
    for _ in range(page - 1):
        app.render()
        app.handle("a")
    app.render()
    assert app.stack[-1] is top
    return top.scroll.top


@pytest.mark.parametrize("page", [2, 3])
def test_a_result_left_open_reopens_on_the_page_read(state_dir, page):  # W-2..W-5
    """The power goes while the player reads the result's second or third page (the support, the
    loss table): Continue showed its first page again, one A per page more to find the place."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        row = _read_to(app, page)
        assert row > 0
    finally:
        app.console.close()
    again = app_with([], ["a"], state_dir)
    try:
        top = again.stack[-1]
        again.render()
        assert isinstance(top, BattleResult) and top.scroll.top == row
    finally:
        again.console.close()


def test_rows_scrolled_one_by_one_are_kept_once_a_screenful(state_dir):  # W-2..W-5
    """Down row by row: a write each time the row read is a screenful (4 rows) from the one kept,
    not one a press; the result reopens within that screenful, the rows read still on the panel."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        written: list[str] = []
        real = app.set_setting

        def counted(key, value):
            written.append(value)
            return real(key, value)
        app.set_setting = counted
        for _ in range(6):
            app.render()
            app.handle("down")
        top = app.stack[-1].scroll.top
        assert top == 6 and [v.rpartition("@")[2] for v in written] == ["4"]
    finally:
        app.console.close()
    again = app_with([], ["a"], state_dir)
    try:
        again.render()
        assert isinstance(again.stack[-1], BattleResult) and 0 <= top - again.stack[-1].scroll.top < 4
    finally:
        again.console.close()


def test_an_older_cards_mark_reopens_on_the_first_page(state_dir):  # W-2
    """A mark kept by an older Legatus (``<game>:<digest>``, no page) still reopens its result."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        _read_to(app, 2)
        mark = app.settings["sword.battle"].partition("@")[0]
        assert mark != app.settings["sword.battle"]
        assert app.set_setting("sword.battle", mark)["ok"]
    finally:
        app.console.close()
    again = app_with([], ["a"], state_dir)
    try:
        assert isinstance(again.stack[-1], BattleResult) and again.stack[-1].scroll.top == 0
    finally:
        again.console.close()


@pytest.mark.parametrize("kept", ["{mark}@9999", "{mark}@x", "{mark}~", "{mark}@2@3", "garbage"])
def test_a_damaged_mark_never_fails_the_start(state_dir, kept, caplog):  # W-2
    """A damaged mark (a crafted import, a fault the checksum missed): a page past the result's
    rows reopens it on its first; anything else is reported in the log and dropped (the home)."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        value = kept.format(mark=app.settings["sword.battle"])
        assert app.set_setting("sword.battle", value)["ok"]
    finally:
        app.console.close()
    with caplog.at_level("WARNING"):
        again = app_with([], ["a"], state_dir)
    try:
        again.render()
        top = again.stack[-1]
        if kept == "{mark}@9999":
            assert isinstance(top, BattleResult) and top.scroll.top == 0
        else:
            assert isinstance(top, SwordHome)
        assert "sword.battle" in caplog.text or "shown from its first" in caplog.text
    finally:
        again.console.close()


def test_a_close_the_card_refused_is_said_again_at_the_next_start_only(state_dir):  # W-2
    """The card refuses to keep the result closed: back on the main menu and Continue in the same
    run, the result came up again (read, closed, and back each time the game was opened); now
    it does not, and the next start — the setting still has it open — says it again."""
    app = app_with([NEW], FIGHT, state_dir)
    try:
        real = app.set_setting
        app.set_setting = lambda key, value: {"ok": False, "error": "storage", "message": "the card refused"}
        app.handle("b")                                  # closed: the card does not keep it
        assert isinstance(app.stack[-1], SwordHome)
        app.handle("b")                                  # the main menu
        app.render()
        app.handle("a")                                  # Continue
        app.render()
        assert [type(s).__name__ for s in app.stack] == ["MainMenu", "SwordHome"]
        app.set_setting = real
    finally:
        app.console.close()
    assert _restarted(state_dir) == ["MainMenu", "SwordHome", "BattleResult"]


RETREAT = ["a:hold", "right", "right"]          # on the result: the retreat losses form, 2 typed (W-5)
# 6 attackers against 6 defenders, the device's dice: with seed=3 the defender loses and has 4 units
# left to lose retreating (W-5)
ROOM = ("new sword players=romans,gauls,etruscans,greeks seed=3",
        ["a", "a", "right", "right", "right", "down", "right", "right", "right", "a"])


def _fought_with_room(state_dir):
    """A battle fought on the device whose loser has units left to lose retreating (W-5)."""
    app = app_with([ROOM[0]], ROOM[1], state_dir)
    assert isinstance(app.stack[-1], BattleResult) and app.stack[-1].room() >= 2
    return app, state_dir


def test_retreat_losses_typed_and_not_sent_come_back_after_a_restart(state_dir):  # W-5
    """The loser's retreat losses half typed on the device (the form open, 2 set, not sent) when the
    power goes: Continue showed the result, the figure lost; now the form is back with its 2,
    over the result, and A sends them."""
    from firmware.screens.sword.battle import RetreatForm
    app, where = _fought_with_room(state_dir)
    try:
        for k in RETREAT:
            app.render()
            app.handle(k)
        assert isinstance(app.stack[-1], RetreatForm) and app.stack[-1].values() == {"losses": 2}
        assert app.console.session.view()["last_battle"]["retreat_losses"] == 0
    finally:
        app.console.close()
    again = app_with([], ["a"], where)
    try:
        again.render()
        form = again.stack[-1]
        assert isinstance(form, RetreatForm) and form.values() == {"losses": 2}
        assert isinstance(again.stack[-2], BattleResult)
        again.handle("a")                                # sent
        assert isinstance(again.stack[-1], BattleResult)
        assert again.console.session.view()["last_battle"]["retreat_losses"] == 2
    finally:
        again.console.close()
    app = app_with([], ["a"], where)                     # sent: the result, no form
    try:
        assert isinstance(app.stack[-1], BattleResult)
    finally:
        app.console.close()


def test_retreat_losses_form_closed_with_b_is_not_brought_back(state_dir):  # W-5
    app, where = _fought_with_room(state_dir)
    try:
        for k in [*RETREAT, "b"]:
            app.render()
            app.handle(k)
        assert isinstance(app.stack[-1], BattleResult)
    finally:
        app.console.close()
    assert _restarted(where) == ["MainMenu", "SwordHome", "BattleResult"]


@pytest.mark.slow
def test_a_kill_on_the_retreat_losses_form_brings_it_back_as_typed(state_dir):  # W-5
    """The device program (legatus --sim --script) killed with SIGKILL while the loser's retreat
    losses are typed and not sent (2 on the form); started again, Continue shows the form with its
    2 over the result, drawn as here, and A sends them."""
    import subprocess
    import sys
    from firmware.screens.sword.battle import RetreatForm
    from firmware.terminal import to_braille
    killed_after_presses(state_dir, [ROOM[0]], 0, [*ROOM[1], *RETREAT])
    keys = state_dir / "keys.txt"
    keys.write_text("a\n")
    out = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(keys),
                          "--state-dir", str(state_dir)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.split("--- frame after: a")[-1].split("\n", 1)[1].strip("\n")
    app = app_with([], ["a"], state_dir)
    try:
        form = app.stack[-1]
        assert isinstance(form, RetreatForm) and form.values() == {"losses": 2}
        assert to_braille(app.render()).strip("\n") == last
        app.handle("a")
        assert app.console.session.view()["last_battle"]["retreat_losses"] == 2
    finally:
        app.console.close()
