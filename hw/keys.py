"""Debounce, hold and auto-repeat as pure functions of (edge, time).

No clock and no hardware here: every call passes the time ``t`` in seconds
(any monotonic origin, float). The main thread owns one :class:`KeyFilter`; it
feeds it the raw edges that :mod:`hw.buttons` queues and calls :meth:`tick`
at :meth:`next_deadline`, so the loop can sleep exactly until something can
happen.

Timing rules (defaults in :class:`KeyTiming`):

* **Debounce.** A raw level change counts only once the level has stayed the
  same for ``debounce`` seconds; it then takes effect as of its last edge.
  Contact chatter (a burst of edges) therefore yields one press, and a glitch
  shorter than ``debounce`` yields nothing.
* **Phantom edges.** An edge whose level equals the level the key already has
  (Bookworm's lgpio backend reports such edges) is ignored entirely.
* **Direction keys** (:data:`REPEAT_KEYS`): the event is the key name when the
  press takes effect, then again ``repeat_delay`` seconds after the press and
  every ``repeat_interval`` seconds after that while held. Release emits
  nothing. A late :meth:`~KeyFilter.tick` yields one repeat, not a burst.
  Held ``jam`` seconds, far longer than anyone holds a key, it is taken for
  jammed (a stuck joystick, something lying on it): it stops repeating (said
  once in the log), so the screen can blank; released and pressed again it
  works at once.
* **Other keys** (``a``, ``b``, ``press``, ``key3``...): the event is the key
  name on release, unless the key was held ``hold`` seconds, in which case
  ``"<key>:hold"`` fires once, at that moment, and the release is silent.
* Hold and repeat fire only while the raw level is pressed: a release that is
  still being debounced suspends them, and if it turns out to be chatter they
  resume (a missed deadline fires at once).
* Times that go backwards (edges from different threads queued out of order)
  are treated as the latest time seen.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

from engine.text import Msg, N_

log = logging.getLogger(__name__)

KEY_NAMES = {"a": "A", "b": "B", "key3": "KEY3", "up": Msg("joystick up"), "down": Msg("joystick down"),
             "left": Msg("joystick left"), "right": Msg("joystick right"), "press": Msg("joystick press")}
"""The keys as their owner names them (the board's labels, the joystick's ways)."""


NO_LIBRARY = N_("no GPIO pin library could be loaded for the keys ({}): install python3-lgpio (sudo apt install "
                "python3-lgpio), check that the user is in the 'gpio' group and that lgpio's directory ($LG_WD, else "
                "the working directory) is writable")
"""The keys' error when no pin library can use them (hw.buttons.ButtonError; it says its own fix: the
doctor adds no other)."""
NO_ACCESS = N_("{denied} (so no GPIO pin library could open the keys: {reasons})")
"""The keys' error when no pin library loaded because this user may not open the GPIO chip (not in the
'gpio' group: lgpio says only "can not open gpiochip"); ``denied`` is hw.service.permission_denied's
sentence, with the fix for how the program runs (the doctor adds no other)."""


def key_label(key: str, pin: int) -> Msg:
    """A key and its pin, e.g. "A (GPIO5)", said in the player's words."""
    return Msg("{} (GPIO{})", KEY_NAMES.get(key, key), pin)


REPEAT_KEYS: frozenset[str] = frozenset({"up", "down", "left", "right"})
"""Keys that auto-repeat; every other key clicks on release or holds."""

HOLD_SUFFIX = ":hold"


@dataclass(frozen=True)
class KeyTiming:
    """Timing constants in seconds.

    Raises ValueError unless ``0 <= debounce < hold``, ``debounce < repeat_delay``,
    ``repeat_interval > 0`` and ``jam > repeat_delay``.
    """

    debounce: float = 0.02
    hold: float = 0.8
    repeat_delay: float = 0.45
    repeat_interval: float = 0.12
    jam: float = 60.0      # a direction held this long is taken for jammed: no more repeats

    def __post_init__(self) -> None:
        if not 0 <= self.debounce < min(self.hold, self.repeat_delay):
            raise ValueError(
                f"debounce must be >= 0 and shorter than hold and repeat_delay, got "
                f"debounce={self.debounce}, hold={self.hold}, repeat_delay={self.repeat_delay}")
        if self.repeat_interval <= 0:
            raise ValueError(f"repeat_interval must be > 0 s, got {self.repeat_interval}")
        if self.jam <= self.repeat_delay:
            raise ValueError(f"jam must be longer than repeat_delay, got jam={self.jam}, "
                             f"repeat_delay={self.repeat_delay}")


@dataclass
class KeyState:
    """Per-key state (plain data).

    ``raw`` is the last reported level, ``raw_since`` the time of that edge;
    ``stable`` the debounced level. While ``stable`` is pressed, ``pressed_at``
    is when the press took effect, ``hold_fired`` whether ``:hold`` was emitted
    and ``next_repeat`` when the next repeat is due (direction keys).
    """

    raw: bool = False
    raw_since: float = 0.0
    stable: bool = False
    pressed_at: float = 0.0
    hold_fired: bool = False
    next_repeat: float | None = None
    fired_at: float = -math.inf        # when the key's last event took effect (its press, release, hold...)


@dataclass
class KeyFilter:
    """Turns raw key edges into logical events (see the module docstring)."""

    timing: KeyTiming = field(default_factory=KeyTiming)
    keys: dict[str, KeyState] = field(default_factory=dict)
    now: float = -math.inf

    def feed(self, key: str, pressed: bool, t: float) -> list[str]:
        """Record a raw edge of ``key`` (``pressed`` = level) at ``t`` seconds.

        Returns the events due up to and including ``t``, in time order.
        """
        events = self.tick(t)
        state = self.keys.setdefault(key, KeyState())
        if pressed != state.raw:  # otherwise a phantom edge
            state.raw = pressed
            state.raw_since = self.now
        return events + self.tick(self.now)

    def tick(self, t: float) -> list[str]:
        """Advance to ``t`` seconds; return the events due by then, in time order."""
        self.now = max(self.now, t)
        events: list[str] = []
        while True:
            due = [(d, key) for key, state in self.keys.items()
                   if (d := self._deadline(key, state)) is not None and d <= self.now]
            if not due:
                return events
            when, key = min(due)
            event = self._fire(key, self.keys[key], when)
            if event is not None:
                events.append(event)

    def stuck(self, t: float) -> list[str]:
        """The keys held down (as debounced) for ``timing.jam`` seconds or more by ``t``: far longer
        than anyone holds a key, so stuck (something lying on it, a worn or shorted switch)."""
        return [key for key, state in self.keys.items()
                if state.stable and state.raw and t - state.pressed_at >= self.timing.jam]

    def next_deadline(self) -> float | None:
        """Earliest time (s) at which :meth:`tick` can return an event, or None."""
        deadlines = [d for key, state in self.keys.items()
                     if (d := self._deadline(key, state)) is not None]
        return min(deadlines, default=None)

    def _deadline(self, key: str, state: KeyState) -> float | None:
        if state.raw != state.stable:
            return state.raw_since + self.timing.debounce
        if not state.stable:
            return None
        if key in REPEAT_KEYS:
            return state.next_repeat
        return None if state.hold_fired else state.pressed_at + self.timing.hold

    def _fire(self, key: str, state: KeyState, when: float) -> str | None:
        """Apply the deadline ``when`` of ``key``; return the event it yields, if any (and keep
        when it took effect: ``fired_at``)."""
        changed = state.raw != state.stable          # a press or release, as of its last edge
        event = self._event(key, state, when)
        if event is not None:
            state.fired_at = state.raw_since if changed else when
        return event

    def _event(self, key: str, state: KeyState, when: float) -> str | None:
        timing = self.timing
        if state.raw != state.stable:
            state.stable = state.raw
            if state.stable:
                state.pressed_at = state.raw_since
                state.hold_fired = False
                if key in REPEAT_KEYS:
                    state.next_repeat = state.pressed_at + timing.repeat_delay
                    return key
                return None
            state.next_repeat = None
            if key in REPEAT_KEYS or state.hold_fired:
                return None
            return key
        if key in REPEAT_KEYS:
            assert state.next_repeat is not None
            missed = math.floor((self.now - when) / timing.repeat_interval)
            state.next_repeat = when + (missed + 1) * timing.repeat_interval
            if state.next_repeat > state.pressed_at + timing.jam:
                # Repeated for ever, it kept the screen from blanking (an OLED burns in).
                state.next_repeat = None
                log.warning("the %s key has been held for %g s: taken for jammed (a stuck joystick, something on "
                            "it?), it repeats no more until it is released, and the screen can blank", key, timing.jam)
            return key
        state.hold_fired = True
        return key + HOLD_SUFFIX
