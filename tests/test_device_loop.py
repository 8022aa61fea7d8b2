"""The main loop: gpiozero MockFactory buttons -> queue -> KeyFilter -> App; idle blanking."""
import queue
import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from PIL import Image

from firmware.device import Loop
from hw.buttons import ButtonBank
from hw.keys import KeyFilter
from tests.screens import app_with

PINS = {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}


class Recorder:
    """An Output that keeps what it was asked to show (the real outputs are the OLED/terminal)."""

    def __init__(self):
        self.frames: list[Image.Image] = []
        self.blanks: list[bool] = []
        self.levels: list[int] = []

    def show(self, img):
        self.frames.append(img)

    def blank(self, blanked, img):
        self.blanks.append(blanked)

    def contrast(self, level):
        self.levels.append(level)


@pytest.fixture
def factory():
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()


def _drain(loop, q):
    while not q.empty():
        loop.handle(q.get_nowait())


def test_buttons_drive_the_app_through_the_queue(factory, state_dir):
    clock = [0.0]
    app = app_with([], [], state_dir)
    out = Recorder()
    loop = Loop(app, out, KeyFilter(), clock=lambda: clock[0])
    q: queue.Queue = queue.Queue()
    bank = ButtonBank(PINS, q.put, clock=lambda: clock[0], pin_factory=factory)

    def tap(key, hold=0.05):
        pin = factory.pin(PINS[key])
        pin.drive_low()
        _drain(loop, q)
        clock[0] += hold
        loop.tick()
        pin.drive_high()
        _drain(loop, q)
        clock[0] += 0.05
        loop.tick()

    tap("down")          # cursor to Dice & bags
    tap("a")             # open it
    tap("a")             # Dice (starts a dice session)
    tap("a")             # roll 2d6
    assert app.console.session.lines == ["roll 2d6"]
    tap("b", hold=1.0)   # long B: the undo confirmation
    tap("a")
    assert app.console.session.lines == []
    assert out.levels == [128] and len(out.frames) >= 4
    bank.close()
    app.console.close()


def test_idle_blanks_and_any_key_wakes_without_acting(state_dir):
    clock = [0.0]
    app = app_with(["settings screen_off=30"], [], state_dir)
    out = Recorder()
    loop = Loop(app, out, None, clock=lambda: clock[0])
    loop.redraw()
    assert loop.timeout() == pytest.approx(30)
    clock[0] = 29
    loop.tick()
    assert out.blanks == []
    clock[0] = 30.5
    loop.tick()
    assert out.blanks == [True] and loop.timeout() is None
    loop.handle(("key", "a"))          # wakes only: the menu did not open Games
    assert out.blanks == [True, False] and len(app.stack) == 1
    loop.handle(("key", "a"))
    assert len(app.stack) == 2


def test_console_lines_share_the_session_with_the_ui(state_dir):
    app = app_with([], [], state_dir)
    loop = Loop(app, Recorder(), None)
    replies = []
    loop.handle(("line", b"new dice seed=4", False, replies.append))
    loop.handle(("line", b"", True, replies.append))
    assert b'"game":"dice"' in replies[0] and b"line_too_long" in replies[1]
    assert app.view()["game"] == "dice"
    app.console.close()


def test_start_with_a_bad_config_and_no_display_keeps_running(factory, state_dir, tmp_path, caplog):
    import types

    from firmware.device_hardware import open_hardware
    bad = tmp_path / "config.toml"
    bad.write_text("profile = [oops\n")
    app = app_with([], [], state_dir)
    args = types.SimpleNamespace(config=str(bad))
    events: queue.Queue = queue.Queue()
    hw = open_hardware(args, app, events)
    assert "config" in caplog.text and "built-in profile" in caplog.text
    assert events.get(timeout=5) == ("panel",)                          # the panel thread tried the panel
    hw.poll(hw.output.next_deadline())
    assert "display" in caplog.text and hw.device is None               # no I2C bus here
    assert hw.output is not None and not hw.output.connected            # ... tried again later
    hw.poll(hw.output.next_deadline())                                  # off the loop: the panel
    assert events.get(timeout=5) == ("panel",)                          # thread says when it is done
    hw.poll(hw.output.next_deadline())
    assert not hw.output.connected and hw.live.panel is False and hw.live.panel_error
    assert hw.buttons is not None and set(hw.buttons.buttons) >= {"a", "b", "up"}
    # the UI still works without the panel: a key reaches the app
    loop = Loop(app, hw.output, hw.keyfilter)
    loop.handle(("key", "b"))          # dismisses the config notice
    loop.handle(("key", "down"))
    assert app.stack[-1].cursor == 1
    hw.shutdown()
    app.console.close()


def test_keys_that_do_not_open_are_a_start_notice_and_the_program_goes_on(state_dir, monkeypatch):
    """pi_check found it: with no pin factory (the unit's real pins under emulation) the notice of
    the keys must not end the program (it did: a local import shadowed Msg)."""
    import types

    import hw.buttons
    from firmware.app import NoticesScreen
    from firmware.device_hardware import open_hardware

    def no_pins(*args, **kwargs):
        raise RuntimeError("Unable to load any default pin factory!")
    monkeypatch.setattr(hw.buttons, "ButtonBank", no_pins)
    app = app_with([], [], state_dir)
    try:
        got = open_hardware(types.SimpleNamespace(config=None), app, queue.Queue())
        assert got.buttons is None and got.keys.error
        screen = app.stack[-1]
        assert isinstance(screen, NoticesScreen) and "Buttons:" in screen.paragraphs[-1]
        assert "pin factory" in " ".join(screen.paragraphs)
        got.shutdown()
    finally:
        app.console.close()


JC_BATTLE = ["new jc-battle attacker=caesar dice=physical seed=9", "add attacker c_caesar", "add attacker c_leg10",
             "add defender p_pompeius", "add defender p_leg1", "start"]


def _serial(loop, line: str) -> bytes:
    replies: list[bytes] = []
    loop.handle(("line", line.encode(), False, replies.append))
    return replies[0]


def test_a_game_started_over_serial_takes_the_device_back_to_the_main_menu(state_dir):
    """The device shows a Julius Caesar battle; the serial link starts a dice session: the battle's
    screens go (they were drawing a game no longer in play: the error screen came up), the main
    menu says why, and the keys go on working."""
    from firmware.screens.menu import MainMenu
    app = app_with(JC_BATTLE, ["a"], state_dir)               # Julius Caesar: on the battle being fought
    try:
        loop = Loop(app, Recorder(), None)
        assert type(app.stack[-1]).__name__ == "BattleScreen"
        assert b'"ok":true' in _serial(loop, "new dice seed=3")
        assert app.errors == 0 and [type(s) for s in app.stack] == [MainMenu]
        assert app.message and "serial link" in " ".join(app.message)
        loop.handle(("key", "b"))                              # the note closes; the menu answers
        assert app.message is None and app.errors == 0
        app.show_commitment("0123456789abcdef")                # a game begun on the device shows its code ...
        assert b'"ok":true' in _serial(loop, "new dice seed=4")
        assert app.commitment is None                          # ... not over the game the serial link began
        loop.handle(("key", "b"))
        assert app.message is None and app.errors == 0
    finally:
        app.console.close()


def test_a_fire_played_over_serial_closes_the_dice_entry_it_answered(state_dir):
    """J-4/J-5: the device waits for Caesar's dice; the serial link fires for him, then ends the
    battle and begins the next: the dice entry of a fire already played goes (it stayed, and drew
    the error screen once its block had left the battle); the battle screen shows what is decided now."""
    app = app_with(JC_BATTLE, ["a", "a"], state_dir)          # the battle, Fire: the dice entry
    try:
        loop = Loop(app, Recorder(), None)
        assert type(app.stack[-1]).__name__ == "JcDiceEntry"
        assert b'"ok":true' in _serial(loop, "fire c_caesar dice=1,2,6")      # (a pick left: J-7)
        app.render()
        assert type(app.stack[-1]).__name__ == "DiceResult"      # the link's roll, shown where the table looks (J-1)
        loop.handle(("key", "b"))
        app.render()
        assert type(app.stack[-1]).__name__ == "BattleScreen" and app.stack[-1].title == "Pompey: 1 hit"
        for line in ("fight", "next-battle", "add attacker c_leg8", "add defender p_leg3", "start"):
            assert b'"ok":true' in _serial(loop, line), line
        app.render()
        assert app.errors == 0 and "JcDiceEntry" not in [type(s).__name__ for s in app.stack]
        d = app.console.session.view()["battle"]["decision"]
        assert (d["round"], d["side"], d["blocks"]) == (1, "pompey", ["p_leg3"])   # J-4: B before C
        assert type(app.stack[-1]).__name__ == "DiceResult"               # battle 1's end, said once: on the
        assert "Battle over" in " ".join(app.stack[-1].paras())          # page of its last fire (J-13)
        loop.handle(("key", "b"))
        assert app.stack[-1].title == "Round 1: Pompey"                   # the new battle's first step
    finally:
        app.console.close()


def test_a_game_started_over_serial_at_the_first_start_keeps_the_language_question(tmp_path):
    """The first start asks for the language (and says what it found); a game started over the
    serial link meanwhile takes off game screens only: the question and the notices stay."""
    from firmware.app import App, NoticesScreen
    from firmware.console import Console
    from firmware.screens.language import LanguageScreen
    from firmware.store import Store
    store = Store(tmp_path / "state")
    app = App(Console(store, None))
    app.start_notice("Buttons: GPIO5 is busy")
    try:
        loop = Loop(app, Recorder(), None)
        assert b'"ok":true' in _serial(loop, "new dice seed=3")
        assert [type(s) for s in app.stack[1:]] == [LanguageScreen, NoticesScreen]
    finally:
        app.console.close()


def test_a_direction_key_held_to_wake_the_panel_does_not_move_the_cursor(state_dir):
    """Any key wakes the blanked panel without acting (README): a direction key held down did
    wake it, then its repeats moved the cursor five rows. The next press acts as usual."""
    clock = [0.0]
    app = app_with(["settings screen_off=30"], [], state_dir)
    try:
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        loop.redraw()
        clock[0] = 31
        loop.tick()
        assert loop.blanked
        loop.handle(("edge", "down", True, 31.0))
        for t in (31.03, 31.5, 31.7, 31.9, 32.1):          # held: the press, then its repeats
            clock[0] = t
            loop.tick()
        loop.handle(("edge", "down", False, 32.2))
        clock[0] = 32.3
        loop.tick()
        assert not loop.blanked and app.stack[-1].cursor == 0
        loop.handle(("edge", "down", True, 33.0))           # the next press moves it
        clock[0] = 33.05
        loop.tick()
        loop.handle(("edge", "down", False, 33.1))
        clock[0] = 33.2
        loop.tick()
        assert app.stack[-1].cursor == 1
    finally:
        app.console.close()


def test_a_direction_key_held_to_close_a_notice_does_not_move_the_cursor(state_dir):
    """A notice over the screen takes any key and does nothing else (docs/keys.md): a direction
    key held to close it moved the cursor with its repeats."""
    clock = [0.0]
    app = app_with([], [], state_dir)
    try:
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        app.notify("Nothing to undo.")
        loop.handle(("edge", "down", True, 1.0))
        for t in (1.03, 1.5, 1.7, 1.9):
            clock[0] = t
            loop.tick()
        loop.handle(("edge", "down", False, 2.0))
        clock[0] = 2.1
        loop.tick()
        assert app.message is None and app.stack[-1].cursor == 0
    finally:
        app.console.close()


def test_settings_changed_over_serial_take_effect_on_the_device_at_once(state_dir):
    """`settings contrast=5 screen_off=30 language=ru` from the serial link is acknowledged and
    stored: the panel's contrast, the idle blanking and the language marked in Settings follow at
    once (they kept the old values until the next start)."""
    from firmware.settings import CONTRAST_LEVELS
    clock = [0.0]
    app = app_with([], [], state_dir)
    try:
        out = Recorder()
        loop = Loop(app, out, None, clock=lambda: clock[0])
        loop.redraw()
        assert b'"ok":true' in _serial(loop, "settings contrast=5 screen_off=30 language=ru")
        assert out.levels[-1] == CONTRAST_LEVELS["5"]
        assert app.settings["language"] == "ru" and loop.timeout() == pytest.approx(30)
        clock[0] = 31
        loop.tick()
        assert out.blanks == [True]
    finally:
        from firmware.i18n import set_language
        set_language("en")
        app.console.close()


def _hold(loop, clock, key: str, start: float, seconds: float) -> None:
    """``key`` pressed at ``start`` and held ``seconds`` (the loop ticks as the device's does)."""
    loop.handle(("edge", key, True, start))
    t = start + 0.03
    while t < start + seconds:
        clock[0] = t
        loop.tick()
        t += 0.05
    loop.handle(("edge", key, False, start + seconds))
    clock[0] = start + seconds + 0.05
    loop.tick()


def test_a_held_direction_repeats_a_move_but_never_a_choice(state_dir):
    """The joystick held right on a list selects once: its repeats chose the first row of every
    screen it opened (Games, then Caesar!, then its form…). Held down it still moves row by row."""
    from firmware.screens.menu import GamesMenu
    clock = [0.0]
    app = app_with([], [], state_dir)
    try:
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        _hold(loop, clock, "right", 1.0, 1.5)
        assert [type(s) for s in app.stack[1:]] == [GamesMenu]
        _hold(loop, clock, "down", 3.0, 1.0)
        assert app.stack[-1].cursor >= 3                      # the press, then its repeats
        _hold(loop, clock, "left", 5.0, 1.5)                  # back once, not on past the main menu's …
        assert len(app.stack) == 1
    finally:
        app.console.close()


def _diagonal(loop, clock, keys: tuple[str, str], start: float, seconds: float) -> None:
    """The joystick pushed between two ways and held: both contacts close a few ms apart."""
    loop.handle(("edge", keys[0], True, start))
    loop.handle(("edge", keys[1], True, start + 0.008))
    _hold(loop, clock, keys[0], start + 0.01, seconds)           # (ticks as the device's, then both released)
    loop.handle(("edge", keys[1], False, start + seconds + 0.01))
    clock[0] = start + seconds + 0.1
    loop.tick()


def test_a_diagonal_held_repeats_its_moves_but_never_a_choice(state_dir):
    """The joystick held on a diagonal (right and down at once, as a worn 5-way switch gives): the
    repeats of each way were taken for fresh presses as soon as the other way's event came between,
    so right selected again at every repeat: the main menu opened Games, then a new game's form."""
    from firmware.screens.menu import GamesMenu
    clock = [0.0]
    app = app_with([], [], state_dir)
    try:
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        _diagonal(loop, clock, ("right", "down"), 1.0, 1.5)
        assert [type(s) for s in app.stack[1:]] == [GamesMenu]     # right: one choice
        assert app.stack[-1].cursor >= 3                           # down: the press, then its repeats
    finally:
        app.console.close()


def test_a_diagonal_held_to_close_a_notice_does_nothing_else(state_dir):
    """A notice takes the key that closes it and nothing else (docs/keys.md): held on a diagonal,
    the other way's repeats acted as fresh presses (down moved the cursor, right selected)."""
    clock = [0.0]
    app = app_with([], [], state_dir)
    try:
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        app.notify("Nothing to undo.")
        _diagonal(loop, clock, ("down", "right"), 1.0, 1.5)
        assert app.message is None and len(app.stack) == 1 and app.stack[-1].cursor == 0
    finally:
        app.console.close()


def test_a_notice_a_diagonal_opened_is_not_closed_by_its_other_way(state_dir):
    """A refusal said by one way of a diagonal push (right: Draw from an empty bag) was closed
    8 ms later by the other way's press (down), before anyone could read it: nothing said."""
    clock = [0.0]
    app = app_with(["new bag items=gold*1 seed=1", "draw"], ["a"], state_dir)
    try:
        app.render()
        assert app.stack[-1].items(app)[app.stack[-1].cursor].label == "Draw"
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        _diagonal(loop, clock, ("right", "down"), 1.0, 0.2)
        assert app.message is not None and "0 items" in " ".join(app.message)
        _hold(loop, clock, "b", 2.0, 0.1)                          # a key of its own closes it
        assert app.message is None
    finally:
        app.console.close()


def test_a_notice_a_diagonal_opened_is_not_closed_by_its_other_way_still_bouncing(state_dir):
    """The same when the other way's contact bounces (up: pressed, open 15 ms later, closed again
    8 ms after): right's event came first and said the refusal, up's came 21 ms later and closed it
    (it was open at the moment the notice opened, mid-bounce)."""
    clock = [0.0]
    app = app_with(["new bag items=gold*1 seed=1", "draw"], ["a"], state_dir)
    try:
        app.render()
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        for key, level, t in (("up", True, 1.0), ("right", True, 1.002), ("up", False, 1.015)):
            loop.handle(("edge", key, level, t))
        clock[0] = 1.022
        loop.tick()                                                   # right: Draw, refused
        loop.handle(("edge", "up", True, 1.023))
        for t in (1.03, 1.043, 1.05, 1.2):
            clock[0] = t
            loop.tick()
        loop.handle(("edge", "up", False, 1.2))
        loop.handle(("edge", "right", False, 1.2))
        clock[0] = 1.3
        loop.tick()
        assert app.message is not None and "0 items" in " ".join(app.message)
        assert app.stack[-1].items(app)[app.stack[-1].cursor].label == "Draw"      # up did not move either
    finally:
        app.console.close()


def test_a_long_notice_page_a_key_brought_is_not_closed_by_the_same_push(state_dir):
    """A refusal too long for the notice box comes on a page of its own (Note), which left closes:
    A released, then the joystick pushed 10 ms later (down and left) as A's event came — the
    page that said the refusal was closed in the same tick, unread."""
    clock = [0.0]
    app = app_with(["new dice seed=1"], ["a"], state_dir)
    try:
        app.render()
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        long = "The storage is read-only: nothing was changed. " * 3

        def refused(key, _handle=app.handle):
            _handle(key)
            if key == "a":
                app.notify(long)
        app.handle = refused
        loop.handle(("edge", "a", True, 1.0))
        loop.handle(("edge", "a", False, 1.3))
        loop.handle(("edge", "down", True, 1.31))
        loop.handle(("edge", "left", True, 1.31))
        clock[0] = 1.36
        loop.tick()                                   # A's event (the refusal), then down's and left's
        loop.handle(("edge", "down", False, 1.5))
        loop.handle(("edge", "left", False, 1.5))
        clock[0] = 1.6
        loop.tick()
        assert getattr(app.stack[-1], "title", None) == "Note"
        _hold(loop, clock, "left", 2.0, 0.1)          # a push of its own closes it
        assert getattr(app.stack[-1], "title", None) != "Note"
    finally:
        app.console.close()


def test_a_held_right_on_the_senate_places_one_vote(state_dir):  # G-7: a vote is a game step
    from firmware.screens.glory.track import SenateScreen
    clock = [0.0]
    app = app_with(["new glory players=Jack,Henry seed=3"], [], state_dir)
    try:
        app.push(SenateScreen())
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        _hold(loop, clock, "right", 1.0, 1.5)
        assert app.console.session.lines[-1:] == ["vote Jack"] and len(app.console.session.lines) == 1
    finally:
        app.console.close()


def test_left_held_to_reach_the_first_die_stays_in_the_dice_entry(state_dir):  # J-1
    """Left on the first die goes back; held to walk back along the dice its repeats left the dice
    entry, and the dice read so far were lost."""
    from firmware.screens.jc.battle import JcDiceEntry
    clock = [0.0]
    app = app_with(["new jc-battle dice=physical seed=9", "add attacker c_leg10", "add defender p_leg1", "start"],
                   [], state_dir)
    try:
        entry = JcDiceEntry(app.console.session.view()["battle"]["decision"]["blocks"][0])
        app.push(entry)
        app.render()
        loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: clock[0])
        for t in (1.0, 1.2, 1.4):                             # to the fourth die
            _hold(loop, clock, "right", t, 0.1)
        assert entry.cursor == 3
        _hold(loop, clock, "left", 2.0, 1.5)
        assert app.stack[-1] is entry and entry.cursor == 0
        _hold(loop, clock, "left", 4.0, 0.1)                  # a press of its own: back
        assert app.stack[-1] is not entry
    finally:
        app.console.close()


def test_a_logged_warning_is_a_notice_in_the_simulator(state_dir):
    """QA (start): a warning (the serial port cannot be opened) is shown over the screen, said
    through the catalogs, instead of printed over the simulator's picture."""
    app = app_with([], [], state_dir)
    loop = Loop(app, Recorder(), None)
    loop.handle(("logged", "serial: no such port (trying again every 3 s)"))
    assert app.message is not None or app.depth() > 1
    said = " ".join(app.message or app.stack[-1].rows)
    assert "no such port" in said and "log" in said
    app.console.close()


def test_the_log_file_failing_in_the_simulator_is_a_notice_in_the_players_language(state_dir):
    """The log file refused by a full card while the simulator draws: its notice (firmware.logs
    hands it on as a sentence) is shown in Russian, the reason too, not "No space left on device"."""
    import errno
    from firmware.logs import logged_notice
    app = app_with([], [], state_dir, lang="ru")
    loop = Loop(app, Recorder(), None)
    loop.handle(("logged", logged_notice(OSError(errno.ENOSPC, "No space left on device"))))
    said = " ".join(app.message or app.stack[-1].rows)
    assert "журнала" in said and "память заполнена" in said and "No space" not in said, said
    app.console.close()


def test_a_resized_terminal_gets_the_same_frame_drawn_again(state_dir):
    """The loop draws only a frame that changed; the simulator's terminal, once resized (SIGWINCH:
    firmware.terminal.TerminalScreen), had lost what was drawn, so it stayed blank or kept the
    'terminal too small' line until the next key. A ("resized",) event draws the frame again."""
    app = app_with([], [], state_dir)
    out = Recorder()
    loop = Loop(app, out, None)
    loop.redraw()
    loop.handle(("wake",))                       # nothing new: not drawn again
    assert len(out.frames) == 1
    loop.handle(("resized",))
    assert len(out.frames) == 2 and out.frames[1].tobytes() == out.frames[0].tobytes()
    app.console.close()


def test_sigterm_that_comes_while_the_loop_holds_its_queue_does_not_hang_it(tmp_path, monkeypatch):
    """SIGTERM's (and SIGHUP's) handler runs in the main thread between two of its steps, maybe
    inside the loop's ``events.get`` with the queue's lock held; it put ("quit",) on that queue
    itself and then waited for that lock for ever: `systemctl stop` hung until systemd killed the
    program (no "Saved" frame, no stop line). The event is now put from a thread of its own."""
    import signal
    import types

    from firmware import logs
    from firmware import device
    made: list[queue.Queue] = []

    class Recorded(queue.Queue):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)
    monkeypatch.setattr(device.queue, "Queue", Recorded)
    monkeypatch.setattr(logs, "stopped", lambda: None)
    script = tmp_path / "keys"
    script.write_text("down\n")
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        args = types.SimpleNamespace(script=str(script), sim=True, state_dir=str(tmp_path / "st"), config=None,
                                     serial=None)
        assert device.run_device(args) == 0
        from tests.signals import put_while_the_queue_is_locked
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        assert put_while_the_queue_is_locked(handler, signal.SIGTERM, made[0]) == ("quit",)
    finally:
        for s, h in before.items():
            signal.signal(s, h)


def test_a_terminal_made_large_enough_while_the_screen_is_off_takes_the_waking_key(state_dir):
    """The simulator's terminal too small (it takes no key but q then), the screen turned off,
    then the window made larger: the dark frame was not drawn again, so the terminal kept the old
    too-small line and took no key, not even the one that wakes the screen. The resize draws the
    dark frame at the new size; the next key wakes the screen and shows the menu."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import termios

    from firmware.terminal import TerminalScreen
    clock = [0.0]
    app = app_with(["settings screen_off=30"], [], state_dir)
    master, slave = pty.openpty()
    out = open(slave, "w", encoding="utf-8", closefd=True)

    def resize(columns: int, lines: int) -> str:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        loop.handle(("resized",))
        return drawn()

    def drawn() -> str:
        said = b""
        while select.select([master], [], [], 0.1)[0]:
            said += os.read(master, 1 << 16)
        return said.decode("utf-8")

    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 15, 60, 0, 0))
        loop = Loop(app, TerminalScreen(out=out, blocks=False), None, clock=lambda: clock[0])
        loop.redraw()
        assert "60×15" in drawn()
        clock[0] = 31
        loop.tick()
        assert loop.blanked
        assert "┌" in resize(100, 40)               # the dark frame at the new size
        loop.handle(("key", "a"))
        assert not loop.blanked and len(app.stack) == 1 and "┌" in drawn()
    finally:
        out.close()
        os.close(master)
        app.console.close()


class SlowCommit:
    """The database connection on a slow SD card: each COMMIT (its journal, database and directory
    fsyncs) takes ``delay`` s (fault injection: the store's sqlite3 connection wrapped)."""

    def __init__(self, db, delay: float) -> None:
        self._db, self.delay, self.commits = db, delay, 0

    def execute(self, sql, *args):
        if sql == "COMMIT":
            self.commits += 1
            time.sleep(self.delay)
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


class SignWatcher(Recorder):
    """A Recorder (shown from two threads) that says when "Saving…" went up."""

    def __init__(self):
        super().__init__()
        self.signed = threading.Event()

    def show(self, img):
        super().show(img)
        if threading.current_thread() is not threading.main_thread():
            self.signed.set()


def test_a_slow_save_says_saving_and_the_keys_pressed_on_it_do_nothing(state_dir):
    """A slow SD card (each commit's fsyncs taking 0.6 s here, seconds on a worn card) froze the
    panel on the frame the key was pressed on, as if it had not been taken, and the keys pressed
    again meanwhile acted afterwards on a screen not seen yet. Now "Saving…" goes up over that
    frame once a save has taken 0.1 s (SLOW_SAVE on the device), the screen comes back when it is
    done, a key pressed on the sign does nothing (as a notice's), one pressed before it and the
    keys after it act, and the save is kept. A quick save shows no sign."""
    from firmware.saving_sign import SavingSign
    from firmware.screens.menu import saving_sign
    from firmware.store import Store
    app = app_with(["new dice seed=1"], [], state_dir)
    store = app.console.store
    out = SignWatcher()
    loop = Loop(app, out, KeyFilter())
    loop.redraw()
    before = out.frames[-1]
    store.watch = SavingSign(loop, delay=0.1)
    real, store.db = store.db, SlowCommit(store.db, 0.6)
    pressed: list[float] = []

    def press_on_the_sign():
        if out.signed.wait(5):
            pressed.append(time.monotonic())
    presser = threading.Thread(target=press_on_the_sign)
    try:
        early = time.monotonic()                           # pressed as the save began: before the sign
        presser.start()
        replies: list[bytes] = []
        loop.handle(("line", b"roll 2d6", False, replies.append))     # (a serial line; a key's save is the same)
        presser.join(5)
        assert b'"ok":true' in replies[0] and store.db.commits == 1
        signs = [f for f in out.frames if f.tobytes() == saving_sign(before).tobytes()]
        assert len(signs) == 1 and out.frames[-1].tobytes() == app.render().tobytes()   # the screen is back
        assert pressed and store.watch.shown == 1
        t = pressed[0]                                     # (the edges queued meanwhile, in turn:)
        loop.handle(("edge", "down", True, early))         # down, pressed before the sign went up
        loop.handle(("edge", "down", False, early + 0.05))
        loop.handle(("edge", "down", True, t))             # down, pressed while "Saving…" was up
        loop.handle(("edge", "down", False, t + 0.05))
        for _ in range(3):
            loop.tick()
        assert app.stack[-1].cursor == 1                   # the one pressed before the sign acted, not the other
        now = time.monotonic()
        loop.handle(("edge", "down", True, now))           # after it: as always
        loop.handle(("edge", "down", False, now + 0.05))
        assert app.stack[-1].cursor == 2
        store.db.delay = 0.0                               # a quick save: no sign
        frames = len(out.frames)
        loop.handle(("line", b"roll 1d6", False, replies.append))
        assert b'"ok":true' in replies[1] and store.watch.shown == 1 and len(out.frames) == frames
    finally:
        presser.join(5)
        store.db = real
        store.watch = None
        app.console.close()
    again = Store(state_dir)
    try:
        assert again.resume().lines == ["roll 2d6", "roll 1d6"]     # nothing acknowledged lost
    finally:
        again.close()


class Pins:
    """The buttons as gpiozero's MockFactory drives them, the loop's clock in hand."""

    def __init__(self, factory, app):
        self.clock = [0.0]
        self.factory = factory
        self.loop = Loop(app, Recorder(), KeyFilter(), clock=lambda: self.clock[0])
        self.q: queue.Queue = queue.Queue()
        self.bank = ButtonBank(PINS, self.q.put, clock=lambda: self.clock[0], pin_factory=factory)
        self.loop.redraw()

    def down(self, key):
        self.factory.pin(PINS[key]).drive_low()
        _drain(self.loop, self.q)

    def up(self, key):
        self.factory.pin(PINS[key]).drive_high()
        _drain(self.loop, self.q)

    def wait(self, seconds):
        self.clock[0] += seconds
        self.loop.tick()

    def tap(self, key):
        self.down(key)
        self.wait(0.05)
        self.up(key)
        self.wait(0.05)


def test_a_pressed_while_b_is_held_to_undo_does_not_answer_the_question(factory, state_dir):
    """Both buttons at once (side by side on the bonnet): B held to undo, and A pressed before the
    question came and let go after it, answered "yes": the last roll was taken back with no A
    pressed on the question. A key acts only on a screen that was up when it was pressed; an A
    pressed on the question undoes as before."""
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], [], state_dir)
    pins = Pins(factory, app)
    try:
        pins.tap("a")                                      # Resume: the dice
        pins.down("b")
        pins.wait(0.5)
        pins.down("a")                                     # A as well, before the question
        pins.wait(0.4)                                     # B held 0.9 s: the undo question
        assert "Undo?" in app.stack[-1].title
        pins.up("b")
        pins.wait(0.05)
        pins.up("a")                                       # A let go on the question
        pins.wait(0.05)
        assert app.console.session.lines == ["roll 2d6", "roll 3d6"] and "Undo?" in app.stack[-1].title
        pins.tap("a")                                      # an A of its own: yes
        assert app.console.session.lines == ["roll 2d6"]
    finally:
        pins.bank.close()
        app.console.close()


def test_a_and_b_pressed_together_do_one_thing(factory, state_dir):
    """A and B pressed together: the first let go acts (A opens the row), the other, pressed
    before that screen came, does nothing (B went back at once: the screen flashed by). Keys
    pressed one after the other, however fast, act each (B pressed within A's debounce)."""
    app = app_with([], [], state_dir)
    pins = Pins(factory, app)
    handled: list[str] = []
    handle = app.handle
    app.handle = lambda key: (handled.append(key), handle(key))[1]
    try:
        pins.down("a")
        pins.wait(0.01)
        pins.down("b")
        pins.wait(0.1)
        pins.up("a")                                       # A first: Games opens
        pins.wait(0.01)
        pins.up("b")                                       # B, pressed before it: nothing
        pins.wait(0.05)
        assert len(app.stack) == 2
        pins.down("b")                                     # B again, on its own: back
        pins.wait(0.05)
        pins.up("b")
        pins.wait(0.05)
        assert len(app.stack) == 1
        pins.down("a")
        pins.wait(0.05)
        pins.up("a")
        pins.clock[0] += 0.01                              # B 10 ms after A let go, before its debounce ended
        pins.down("b")
        pins.wait(0.05)
        pins.up("b")
        pins.wait(0.05)
        assert handled == ["a", "b", "a", "b"] and len(app.stack) == 1    # A opened Games, B came back
    finally:
        pins.bank.close()
        app.console.close()


@pytest.mark.parametrize("lang", ["uk_UA.UTF-8", "ru_RU.UTF-8"])
def test_quitting_at_the_first_start_question_says_saved_in_the_locale_s_language(tmp_path, monkeypatch, lang):
    """q at the first start's language question (no language stored yet) under a Ukrainian or
    Russian locale left «Saved / safe to unplug» in English, though the question and the key line
    spoke the locale's language: the end speaks it too until a language is stored, as the console's
    greeting does."""
    import types

    from firmware import device, logs, terminal
    from firmware.i18n import set_language
    from firmware.screens.menu import saved_screen
    shown: list = []

    class Screen:
        def __init__(self, *args, **kwargs):
            pass

        def show(self, image):
            shown.append(image)

        def __getattr__(self, name):
            return lambda *a, **k: None
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    monkeypatch.setattr(terminal, "TerminalScreen", Screen)
    monkeypatch.setattr(terminal, "terminal_problem", lambda *a: None)
    monkeypatch.setattr(terminal, "keyboard_reader", lambda events: events.put(("quit",)))
    monkeypatch.setattr(logs, "stopped", lambda: None)
    monkeypatch.setattr(device.sys.stderr, "isatty", lambda: False)
    args = types.SimpleNamespace(script=None, sim=True, state_dir=str(tmp_path / "st"), config=None, serial=None)
    try:
        assert device.run_device(args) == 0
        assert shown, "no frame shown"
        set_language(lang[:2])
        want = saved_screen()
        assert shown[-1].tobytes() == want.tobytes()
        set_language("en")
        assert shown[-1].tobytes() != saved_screen().tobytes()
    finally:
        set_language("en")


def test_a_jammed_direction_stops_repeating_the_screen_blanks_and_a_real_press_works(factory, state_dir, caplog):
    """A joystick direction stuck down (a jammed contact, something lying on it) repeated for ever:
    every repeat was activity, so the screen never blanked and the OLED burned in. Held far longer
    than anyone holds a key (KeyTiming.jam, 60 s) it stops repeating, said once in the log; the
    screen blanks as usual; a real press after it works at once (the jammed key released and pressed
    again too)."""
    clock = [0.0]
    app = app_with(["settings screen_off=30"], [], state_dir)
    q: queue.Queue = queue.Queue()
    bank = ButtonBank(PINS, q.put, clock=lambda: clock[0], pin_factory=factory)
    caplog.set_level("INFO", logger="hw.keys")
    try:
        out = Recorder()
        loop = Loop(app, out, KeyFilter(), clock=lambda: clock[0])
        loop.redraw()
        down = factory.pin(PINS["down"])
        down.drive_low()                                   # jammed from here on
        _drain(loop, q)
        moves = 0
        while clock[0] < 600 and (wait := loop.timeout()) is not None:   # the loop's own waits, no key
            clock[0] += max(wait, 0.001)
            acted = loop.last_activity
            loop.tick()
            moves += loop.last_activity != acted           # a repeat acted on
        assert moves > 400                                 # it repeated while a person might hold it …
        assert out.blanks == [True] and 89.5 <= clock[0] < 90.5  # … then stopped: blank 30 s after the last
        assert len([r for r in caplog.records if "taken for jammed" in r.getMessage()]) == 1
        bottom = app.stack[-1].cursor
        up = factory.pin(PINS["up"])
        for _ in range(2):                                 # a real press: wakes, then acts
            clock[0] += 1
            up.drive_low()
            _drain(loop, q)
            clock[0] += 0.05
            loop.tick()
            up.drive_high()
            _drain(loop, q)
            clock[0] += 0.05
            loop.tick()
        assert out.blanks == [True, False] and app.stack[-1].cursor == bottom - 1
        cursor = app.stack[-1].cursor
        clock[0] += 1
        down.drive_high()                                  # freed, pressed again: it moves at once
        _drain(loop, q)
        clock[0] += 0.05
        loop.tick()
        down.drive_low()
        _drain(loop, q)
        clock[0] += 0.05
        loop.tick()
        assert app.stack[-1].cursor != cursor
        assert len([r for r in caplog.records if "taken for jammed" in r.getMessage()]) == 1
    finally:
        bank.close()
        app.console.close()
