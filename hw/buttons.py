"""gpiozero adapter: one ``Button`` per logical key, edges onto a queue.

The callbacks run on gpiozero's threads, so they do nothing but
``put(("edge", key, pressed, clock()))``; the main thread owns the
:class:`hw.keys.KeyFilter` that debounces them. gpiozero's own debouncing is
off (``bounce_time=None``) because :mod:`hw.keys` does it with an injected clock.
"""
from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

from gpiozero import Button
from gpiozero.exc import BadPinFactory, PinFactoryFallback

from engine.text import Msg
from hw.keys import NO_ACCESS, NO_LIBRARY, key_label
from hw.service import gpio_denied

log = logging.getLogger(__name__)

Edge = tuple[str, str, bool, float]
"""``("edge", key, pressed, t)``: ``t`` in seconds from the bank's clock."""


class ButtonError(Exception):
    """A key's GPIO pin could not be opened; ``key``, ``pin`` and ``__cause__`` say which and why.
    When no pin library (gpiozero's pin factory) could be loaded at all, the message says so, with
    each library's reason (``tried``, gpiozero's fallback warnings), instead of blaming the pin.
    The message (``args[0]``) is a :class:`engine.text.Msg`: the doctor and Settings → Hardware say
    it in the player's language, the library's own words a value inside it."""

    def __init__(self, key: str, pin: int, cause: BaseException, tried: Sequence[str] = (),
                 stand_in: str | None = None) -> None:
        # ``stand_in``: the pin library gpiozero fell back to (its NativeFactory, lgpio not loading) that
        # opened no key: on a kernel without the old sysfs GPIO numbers (Raspberry Pi OS's 6.6 and
        # later) it cannot watch a pin, and every key failed as if its pin were taken
        self.no_library = isinstance(cause, BadPinFactory) or stand_in is not None
        self.reasons = "; ".join([*tried, *([f"{stand_in}: {type(cause).__name__}: {cause}"] if stand_in else [])]) \
            or f"{cause}"      # (each pin library's, when none loaded or none usable)
        # the GPIO chip this user may not open (not in 'gpio'), when that is why no library loaded
        self.denied = gpio_denied() if self.no_library else None
        if self.denied is not None:
            from hw.service import permission_denied
            message = Msg(NO_ACCESS, reasons=self.reasons, denied=permission_denied(self.denied, "gpio"))
        elif self.no_library:
            message = Msg(NO_LIBRARY, self.reasons)
        else:
            message = Msg("cannot open the pin of {key}: {error}. Check the pin in the profile or config file "
                          "(docs/hardware.md), that no other program uses it, and that the user is in the 'gpio' "
                          "group", key=key_label(key, pin), error=f"{type(cause).__name__}: {cause}")
        super().__init__(message)
        self.key = key
        self.pin = pin


class ButtonBank:
    """Buttons wired to ground with the internal pull-ups, one per logical key.

    ``pins`` maps key names to BCM GPIO numbers; ``put`` receives an
    :data:`Edge` on every level change, stamped with ``clock()`` (seconds);
    ``pin_factory`` is handed to gpiozero (None: its default). Raises
    ButtonError if a pin cannot be opened, after closing the ones already open.

    With ``keep_going`` a key whose pin cannot be opened (in use by another program or an
    overlay, not on this chip) is left out instead, its ButtonError in :attr:`dead`, and the other
    keys work; :meth:`retry` tries the dead ones again. Only a pin library that cannot load at all
    (no key can open) still raises.
    """

    def __init__(self, pins: Mapping[str, int], put: Callable[[Edge], Any],
                 clock: Callable[[], float] = time.monotonic,
                 pin_factory: Any = None, keep_going: bool = False) -> None:
        self._put = put
        self._clock = clock
        self._pins = dict(pins)
        self._factory = pin_factory
        self.buttons: dict[str, Button] = {}
        self.dead: dict[str, ButtonError] = {}
        for key, pin in pins.items():
            try:
                self._open(key, pin)
            except ButtonError as e:
                if keep_going and not isinstance(e.__cause__, BadPinFactory):
                    self.dead[key] = e
                    continue
                self.close()
                raise
        fell_back = _fell_back(pin_factory)
        if self.dead and not self.buttons and fell_back:     # no key under the stand-in library
            key, error = next(iter(self.dead.items()))
            cause = error.__cause__ or error
            stand_in = _factory_name(pin_factory)
            self.close()
            raise ButtonError(key, error.pin, cause, fell_back, stand_in=stand_in) from cause

    def _open(self, key: str, pin: int) -> None:
        # gpiozero loads its pin factory at the first Button, and says why each library it
        # tried did not load only as warnings (on standard error, the journal): they go into
        # the error (logged by the caller when it changes, as the bank is retried) or, when a
        # library did load after all, into the log once.
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=self._factory)
            except Exception as e:  # gpiozero.exc.*, lgpio.error, OSError: all mean "not usable"
                _note_fallbacks(said)
                raise ButtonError(key, pin, e, _fallbacks(said)) from e
        _note_fallbacks(said)
        for w in said:
            log.info("buttons: gpiozero: %s", w.message)
        button.when_pressed = self._callback(key, True)
        button.when_released = self._callback(key, False)
        self.buttons[key] = button

    def retry(self) -> list[str]:
        """Try to open each :attr:`dead` key's pin again; the keys that opened now."""
        opened = []
        for key in list(self.dead):
            try:
                self._open(key, self._pins[key])
            except ButtonError as e:
                self.dead[key] = e
                continue
            del self.dead[key]
            opened.append(key)
        return opened

    def held(self) -> dict[str, int]:
        """The keys whose buttons read pressed now (key → BCM pin; a pin that cannot be read is left
        out). A key held as its pin opens gives no edge (gpiozero fires on changes): nothing else says so."""
        out = {}
        for key, button in self.buttons.items():
            try:
                if button.is_pressed:
                    out[key] = self._pins[key]
            except Exception as e:  # noqa: BLE001 - a read that fails: not known to be held
                log.debug("buttons: reading %s failed (%s)", key, e)
        return out

    def _callback(self, key: str, pressed: bool) -> Callable[[], None]:
        def edge() -> None:
            self._put(("edge", key, pressed, self._clock()))
        return edge

    def close(self) -> None:
        """Release every pin; idempotent."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
        self.dead.clear()

    def __enter__(self) -> ButtonBank:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


_FELL_BACK: tuple[Any, list[str]] | None = None
"""The pin library gpiozero loaded in place of the ones it prefers (lgpio first), and why each of those
did not load (its fallback warnings, given only while it loads: at the first key of the process)."""


def _note_fallbacks(said: Sequence[warnings.WarningMessage]) -> None:
    global _FELL_BACK
    from gpiozero import Device
    reasons = _fallbacks(said)
    if reasons and Device.pin_factory is not None:
        _FELL_BACK = (Device.pin_factory, reasons)


def _fell_back(given: Any) -> list[str]:
    """Why gpiozero's preferred pin libraries did not load, if the one in use (``given``, else its
    default) is the one it fell back to; else nothing."""
    from gpiozero import Device
    factory = given if given is not None else Device.pin_factory
    return _FELL_BACK[1] if _FELL_BACK is not None and _FELL_BACK[0] is factory else []


def _factory_name(given: Any) -> str:
    """The name of the pin library in use (``given``, else gpiozero's default one loaded)."""
    from gpiozero import Device
    factory = given if given is not None else Device.pin_factory
    return type(factory).__name__ if factory is not None else "?"


def _fallbacks(said: Sequence[warnings.WarningMessage]) -> list[str]:
    """gpiozero's "Falling back from lgpio: <reason>" warnings as "lgpio: <reason>"."""
    prefix = "Falling back from "
    return [str(w.message).removeprefix(prefix) for w in said if isinstance(w.message, PinFactoryFallback)]
