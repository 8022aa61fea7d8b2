"""hw.keys: debounce, click, hold, repeat, chatter and phantom edges, with explicit times (s)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from hw.keys import KeyFilter, KeyTiming

T = KeyTiming()  # debounce 0.02, hold 0.8, repeat_delay 0.45, repeat_interval 0.12


def test_defaults_match_the_documented_timings() -> None:
    assert (T.debounce, T.hold, T.repeat_delay, T.repeat_interval) == (0.02, 0.8, 0.45, 0.12)


def test_click_key_fires_on_release_after_debounce() -> None:
    f = KeyFilter()
    assert f.feed("a", True, 1.0) == []
    assert f.tick(1.5) == []
    assert f.feed("a", False, 1.6) == []  # release not yet stable
    assert f.next_deadline() == pytest.approx(1.62)
    assert f.tick(1.61) == []
    assert f.tick(1.62) == ["a"]
    assert f.next_deadline() is None
    assert f.tick(5.0) == []


def test_direction_key_fires_at_press_once_debounced() -> None:
    f = KeyFilter()
    assert f.feed("up", True, 2.0) == []
    assert f.next_deadline() == pytest.approx(2.02)
    assert f.tick(2.019) == []
    assert f.tick(2.02) == ["up"]
    assert f.feed("up", False, 2.1) == []
    assert f.tick(3.0) == []


def test_each_event_keeps_when_it_took_effect() -> None:
    """The device loop asks when a key's event took effect (a key pressed before the screen it
    brought must not act on it): a press or release as of its last edge, not when the debounce
    let it out; a hold and a repeat at their deadlines, even when ticked late."""
    f = KeyFilter()
    f.feed("a", True, 1.0)
    f.feed("a", False, 1.3)
    assert f.tick(1.5) == ["a"] and f.keys["a"].fired_at == pytest.approx(1.3)
    f.feed("b", True, 2.0)
    assert f.tick(3.5) == ["b:hold"] and f.keys["b"].fired_at == pytest.approx(2.8)
    f.feed("up", True, 4.0)
    assert f.tick(4.1) == ["up"] and f.keys["up"].fired_at == pytest.approx(4.0)
    assert f.tick(4.5) == ["up"] and f.keys["up"].fired_at == pytest.approx(4.45)


def test_hold_fires_once_and_suppresses_the_click() -> None:
    f = KeyFilter()
    f.feed("b", True, 0.0)
    assert f.tick(0.79) == []
    assert f.next_deadline() == pytest.approx(0.8)
    assert f.tick(0.8) == ["b:hold"]
    assert f.tick(3.0) == []
    assert f.feed("b", False, 3.0) == []
    assert f.tick(3.1) == []


def test_release_just_before_hold_time_is_a_click() -> None:
    f = KeyFilter()
    f.feed("press", True, 0.0)
    f.feed("press", False, 0.79)
    # The hold deadline (0.8) passes while the release is being debounced.
    assert f.tick(0.85) == ["press"]


def test_repeat_delay_then_rate_while_held() -> None:
    f = KeyFilter()
    f.feed("down", True, 0.0)
    assert f.tick(0.44) == ["down"]  # the press
    assert f.next_deadline() == pytest.approx(0.45)
    assert f.tick(0.46) == ["down"]  # first repeat at 0.45
    assert f.next_deadline() == pytest.approx(0.57)
    assert f.tick(0.56) == []
    assert f.tick(0.58) == ["down"]  # 0.57
    assert f.tick(0.70) == ["down"]  # 0.69
    f.feed("down", False, 0.75)
    assert f.tick(2.0) == []
    assert f.next_deadline() is None


def test_a_direction_held_past_the_jam_time_stops_repeating_until_released(caplog: pytest.LogCaptureFixture) -> None:
    """A direction held ``jam`` s (60) is taken for jammed: it repeated for ever, keeping the screen
    from blanking; now its repeats stop (said once in the log), no deadline is left to wake for, and
    released and pressed again it acts at once (and repeats again)."""
    caplog.set_level("INFO", logger="hw.keys")
    assert T.jam == 60.0
    f = KeyFilter()
    f.feed("up", True, 0.0)
    held = f.tick(59.9)
    assert held[0] == "up" and len(f.tick(59.99)) <= 1
    assert f.tick(120.0) == [] and f.next_deadline() is None
    assert [r.levelname for r in caplog.records if "taken for jammed" in r.getMessage()] == ["WARNING"]
    f.feed("up", False, 130.0)
    assert f.tick(131.0) == []
    f.feed("up", True, 131.0)
    assert f.tick(131.02) == ["up"]                    # at once (as soon as it is debounced)
    assert f.tick(131.5) == ["up"]                     # and it repeats again as usual
    assert len([r for r in caplog.records if "taken for jammed" in r.getMessage()]) == 1


def test_late_tick_gives_one_repeat_not_a_burst() -> None:
    f = KeyFilter()
    f.feed("left", True, 0.0)
    assert f.tick(0.1) == ["left"]
    assert f.tick(1.0) == ["left"]  # 0.45, 0.57, ... 0.93 coalesce into one
    assert f.next_deadline() == pytest.approx(1.05)


def test_contact_chatter_yields_one_press() -> None:
    f = KeyFilter()
    events: list[str] = []
    for i, t in enumerate([0.000, 0.002, 0.004, 0.007, 0.009, 0.012]):
        events += f.feed("right", i % 2 == 0, t)
    events += f.feed("right", True, 0.015)  # the contact settles closed at 0.015
    events += f.tick(0.034)
    assert events == []
    assert f.tick(0.035) == ["right"]  # 0.015 + debounce
    assert f.tick(0.4) == []  # repeat is timed from the settled press: 0.465
    assert f.tick(0.47) == ["right"]


def test_release_chatter_yields_one_click() -> None:
    f = KeyFilter()
    f.feed("a", True, 0.0)
    events: list[str] = []
    for i, t in enumerate([0.300, 0.302, 0.305, 0.306, 0.308]):
        events += f.feed("a", i % 2 == 1, t)  # released, pressed, ..., released at 0.308
    assert events + f.tick(0.327) == []
    assert f.tick(0.328) == ["a"]
    assert f.tick(2.0) == []


def test_glitch_shorter_than_debounce_is_ignored() -> None:
    f = KeyFilter()
    assert f.feed("up", True, 1.0) == []
    assert f.feed("up", False, 1.01) == []
    assert f.tick(2.0) == []
    assert f.next_deadline() is None


def test_bounce_during_hold_keeps_the_key_held() -> None:
    f = KeyFilter()
    f.feed("b", True, 0.0)
    assert f.feed("b", False, 0.795) == []  # wobble across the hold deadline
    assert f.feed("b", True, 0.805) == ["b:hold"]  # back to pressed: the missed hold fires
    f.feed("b", False, 1.0)
    assert f.tick(1.1) == []


def test_phantom_edges_are_ignored() -> None:
    f = KeyFilter()
    assert f.feed("a", False, 0.0) == []  # released while released
    assert f.next_deadline() is None
    f.feed("a", True, 1.0)
    assert f.feed("a", True, 1.015) == []  # pressed while pressed: does not restart debounce
    assert f.tick(1.02) == []
    assert f.feed("a", True, 1.3) == []
    assert f.feed("a", False, 1.4) == []
    assert f.feed("a", False, 1.41) == []  # released while release pending
    assert f.tick(1.42) == ["a"]
    assert f.feed("up", True, 2.0) == []
    assert f.feed("up", True, 2.03) == ["up"]  # the phantom's time still advances the clock


def test_events_of_several_keys_come_in_time_order() -> None:
    f = KeyFilter()
    f.feed("b", True, 0.0)
    f.feed("up", True, 0.1)
    # up at 0.12, its first repeat at 0.55 (the later ones coalesce), b:hold at 0.8
    assert f.tick(0.9) == ["up", "up", "b:hold"]
    assert f.next_deadline() == pytest.approx(0.91)


def test_an_edge_later_than_a_deadline_fires_the_deadline_first() -> None:
    f = KeyFilter()
    f.feed("up", True, 0.0)
    assert f.feed("a", True, 0.3) == ["up"]


def test_time_going_backwards_is_clamped() -> None:
    f = KeyFilter()
    f.feed("a", True, 5.0)
    f.feed("up", True, 4.99)  # queued out of order by another thread: taken as 5.0
    assert f.tick(5.019) == []
    assert f.tick(5.02) == ["up"]


def test_zero_debounce_acts_immediately() -> None:
    f = KeyFilter(KeyTiming(debounce=0.0))
    assert f.feed("up", True, 0.0) == ["up"]
    assert f.feed("up", False, 0.1) == []
    f.feed("a", True, 0.2)
    assert f.feed("a", False, 0.3) == ["a"]


def test_custom_timing_is_used() -> None:
    f = KeyFilter(KeyTiming(debounce=0.05, hold=0.5, repeat_delay=0.3, repeat_interval=0.1))
    f.feed("a", True, 0.0)
    assert f.tick(0.49) == []
    assert f.tick(0.5) == ["a:hold"]
    f.feed("up", True, 1.0)
    assert f.tick(1.04) == []
    assert f.tick(1.05) == ["up"]
    assert f.tick(1.31) == ["up"]
    assert f.tick(1.41) == ["up"]


@pytest.mark.parametrize("kwargs", [
    {"debounce": -0.01}, {"debounce": 0.9}, {"repeat_interval": 0.0}, {"repeat_delay": 0.01}, {"jam": 0.3},
])
def test_bad_timing_is_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="must be"):
        KeyTiming(**kwargs)


def test_keys_module_imports_no_hardware_library() -> None:
    code = "import sys, hw.keys; print(any(m in sys.modules for m in ('gpiozero', 'luma', 'serial')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
