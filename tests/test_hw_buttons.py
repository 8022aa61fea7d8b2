"""hw.buttons on gpiozero's MockFactory: edges reach ``put`` and, through a KeyFilter, become events."""
from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from gpiozero import Button, Device
from gpiozero.exc import BadPinFactory, GPIOPinInUse, PinFactoryFallback, PinInvalidPin
from gpiozero.pins.mock import MockFactory, MockPin

from hw.buttons import ButtonBank, ButtonError, Edge
from hw.keys import KeyFilter

PINS = {"a": 5, "b": 6, "up": 17, "down": 22, "left": 27, "right": 23, "press": 4}


class Clock:
    """A settable clock (seconds) injected into the bank."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    factory.close()
    Device.pin_factory = None


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def edges() -> queue.Queue[Edge]:
    return queue.Queue()


@pytest.fixture
def bank(factory: MockFactory, clock: Clock, edges: queue.Queue[Edge]) -> Iterator[ButtonBank]:
    bank = ButtonBank(PINS, edges.put, clock=clock, pin_factory=factory)
    yield bank
    bank.close()


def pin(factory: MockFactory, number: int) -> MockPin:
    return factory.pin(number)


def drain(edges: queue.Queue[Edge]) -> list[Edge]:
    out = []
    while not edges.empty():
        out.append(edges.get_nowait())
    return out


def run(keys: KeyFilter, edges: queue.Queue[Edge]) -> list[str]:
    """What the main loop does: feed every queued edge to the filter."""
    events: list[str] = []
    for kind, key, pressed, t in drain(edges):
        assert kind == "edge"
        events += keys.feed(key, pressed, t)
    return events


def test_one_pulled_up_button_per_key(bank: ButtonBank, factory: MockFactory) -> None:
    assert set(bank.buttons) == set(PINS)
    for key, number in PINS.items():
        assert bank.buttons[key].pin is pin(factory, number)
        assert bank.buttons[key].pull_up
        assert not bank.buttons[key].is_pressed


def test_edges_are_queued_with_key_level_and_clock(
        bank: ButtonBank, factory: MockFactory, clock: Clock, edges: queue.Queue[Edge]) -> None:
    clock.t = 10.0
    pin(factory, 5).drive_low()
    clock.t = 10.25
    pin(factory, 5).drive_high()
    clock.t = 11.0
    pin(factory, 17).drive_low()
    assert drain(edges) == [("edge", "a", True, 10.0), ("edge", "a", False, 10.25),
                            ("edge", "up", True, 11.0)]


def test_click_through_the_filter(
        bank: ButtonBank, factory: MockFactory, clock: Clock, edges: queue.Queue[Edge]) -> None:
    keys = KeyFilter()
    pin(factory, 5).drive_low()
    clock.t = 0.2
    pin(factory, 5).drive_high()
    assert run(keys, edges) == []
    assert keys.tick(0.22) == ["a"]


def test_hold_through_the_filter(
        bank: ButtonBank, factory: MockFactory, clock: Clock, edges: queue.Queue[Edge]) -> None:
    keys = KeyFilter()
    pin(factory, 6).drive_low()
    assert run(keys, edges) == []
    assert keys.tick(0.9) == ["b:hold"]
    clock.t = 1.5
    pin(factory, 6).drive_high()
    assert run(keys, edges) == []
    assert keys.tick(2.0) == []


def test_repeat_through_the_filter(
        bank: ButtonBank, factory: MockFactory, clock: Clock, edges: queue.Queue[Edge]) -> None:
    keys = KeyFilter()
    pin(factory, 22).drive_low()
    assert run(keys, edges) == []
    assert keys.tick(0.5) == ["down", "down"]  # press at 0.02, first repeat at 0.45
    assert keys.tick(0.58) == ["down"]  # 0.57
    clock.t = 0.6
    pin(factory, 22).drive_high()
    run(keys, edges)
    assert keys.tick(2.0) == []


def test_chatter_through_the_filter_gives_one_press(
        bank: ButtonBank, factory: MockFactory, clock: Clock, edges: queue.Queue[Edge]) -> None:
    keys = KeyFilter()
    p = pin(factory, 27)
    for i, t in enumerate([0.0, 0.001, 0.003, 0.004, 0.006]):
        clock.t = t
        if i % 2 == 0:
            p.drive_low()
        else:
            p.drive_high()
    assert len(list(edges.queue)) == 5  # gpiozero passes every edge (bounce_time=None)
    assert run(keys, edges) == []
    assert keys.tick(0.1) == ["left"]
    assert keys.tick(0.3) == []


def test_close_releases_the_pins(
        bank: ButtonBank, factory: MockFactory, edges: queue.Queue[Edge]) -> None:
    buttons = list(bank.buttons.values())
    bank.close()
    bank.close()  # idempotent
    assert all(b.closed for b in buttons)
    pin(factory, 5).drive_low()
    assert edges.empty()
    Button(5, pin_factory=factory).close()  # the pin is free again


def test_invalid_pin_raises_button_error(factory: MockFactory, edges: queue.Queue[Edge]) -> None:
    with pytest.raises(ButtonError, match=r"the pin of A \(GPIO99\).*'gpio' group") as info:
        ButtonBank({"a": 99}, edges.put, pin_factory=factory)
    assert (info.value.key, info.value.pin) == ("a", 99)
    assert isinstance(info.value.__cause__, PinInvalidPin)


def test_pin_in_use_raises_and_closes_the_opened_ones(
        factory: MockFactory, edges: queue.Queue[Edge]) -> None:
    with pytest.raises(ButtonError, match=r"the pin of B \(GPIO5\)") as info:
        ButtonBank({"a": 5, "b": 5}, edges.put, pin_factory=factory)
    assert isinstance(info.value.__cause__, GPIOPinInUse)
    Button(5, pin_factory=factory).close()  # 'a' was released


def test_no_pin_library_is_said_with_each_reason_not_blamed_on_a_pin(
        monkeypatch: pytest.MonkeyPatch, edges: queue.Queue[Edge], caplog: pytest.LogCaptureFixture) -> None:
    """gpiozero says why each pin library did not load only in warnings (the journal, in RAM on
    the Pi): the error (the log, the panel's start notice, the doctor) carries them instead of
    telling the owner to check a pin that is fine (the service started in / without LG_WD)."""
    import warnings

    def no_factory() -> None:
        warnings.warn(PinFactoryFallback("Falling back from lgpio: xCreatePipe: Can't set permissions (436) for //.lgd-nfy0"), stacklevel=2)
        warnings.warn(PinFactoryFallback("Falling back from native: unable to locate Pi revision"), stacklevel=2)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    caplog.set_level("INFO", logger="hw.buttons")
    with pytest.raises(ButtonError) as info:
        ButtonBank(PINS, edges.put)
    message = str(info.value)
    assert "lgpio: xCreatePipe: Can't set permissions (436) for //.lgd-nfy0" in message
    assert "native: unable to locate Pi revision" in message and "python3-lgpio" in message
    assert "LG_WD" in message and "GPIO5" not in message and "Check the pin" not in message
    assert "xCreatePipe" not in caplog.text     # logged once by the caller, not at every retry


def test_keep_going_leaves_out_a_busy_pin_opens_the_rest_and_retries_it(
        factory: MockFactory, clock: Clock, edges: queue.Queue[Edge]) -> None:
    """A pin another program holds kills that key only; ``retry`` opens it once it is free."""
    other = Button(6, pin_factory=factory)                       # B's pin, held
    bank = ButtonBank(PINS, edges.put, clock=clock, pin_factory=factory, keep_going=True)
    try:
        assert set(bank.buttons) == set(PINS) - {"b"} and set(bank.dead) == {"b"}
        assert bank.dead["b"].pin == 6 and isinstance(bank.dead["b"].__cause__, GPIOPinInUse)
        assert bank.retry() == [] and set(bank.dead) == {"b"}
        other.close()
        assert bank.retry() == ["b"] and bank.dead == {}
        pin(factory, 6).drive_low()
        assert [e[1:3] for e in drain(edges)] == [("b", True)]
    finally:
        bank.close()
        other.close()


def test_keep_going_still_raises_when_no_pin_library_loads(
        monkeypatch: pytest.MonkeyPatch, edges: queue.Queue[Edge]) -> None:
    def no_factory() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    with pytest.raises(ButtonError, match="no GPIO pin library"):
        ButtonBank(PINS, edges.put, keep_going=True)
