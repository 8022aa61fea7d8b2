"""The device's hardware as the main loop (firmware/device.py) holds it: the OLED and the buttons
opened at start from the config file and the stored settings (:func:`open_hardware`), each a part
that can come and go (firmware/hardware.py, firmware/buttons_part.py) and is re-opened through the
loop's hooks (:class:`Hardware`), the doctor's live facts kept up to date meanwhile."""
from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from engine.text import Msg
from firmware.app import App

log = logging.getLogger(__name__)


class Hardware:
    """The OLED (hw.display through firmware.hardware.PanelOutput: it can come and go), the
    buttons (retried while they cannot open) and their KeyFilter. ``next_deadline``/``poll``
    are the main loop's hooks for re-opening what is missing."""

    def __init__(self) -> None:
        self.output: Any = None          # firmware.hardware.PanelOutput
        self.keys: Any = None            # firmware.buttons_part.KeysPart
        self.keyfilter: Any = None
        self.resolved: Any = None        # firmware.doctor.Resolved
        self.state_dir: Path | None = None
        self.live: Any = None            # firmware.doctor.Live
        self.language: Callable[[], str | None] = lambda: None    # the device's language now

    @property
    def device(self) -> Any:
        return None if self.output is None else self.output.device

    @property
    def buttons(self) -> Any:
        return None if self.keys is None else self.keys.bank

    def next_deadline(self) -> float | None:
        deadlines = [d for d in (self.output.next_deadline() if self.output is not None else None,
                                 self.keys.next_deadline() if self.keys is not None else None)
                     if d is not None]
        return min(deadlines, default=None)

    def poll(self, now: float) -> None:
        if self.output is not None:
            self.output.poll(now)
        if self.keys is not None:
            self.keys.poll(now)
        self.report(now)

    def report(self, now: float | None = None) -> None:
        """Keep the doctor's live facts (Settings → Hardware, ``legatus doctor``) up to date (``now``: the
        loop's clock, for how long a key has been held)."""
        from firmware import doctor
        from firmware.buttons_part import pin_factory_name
        if self.live is None or self.resolved is None:
            return
        live = self.live
        live.factory = pin_factory_name()        # (loaded even if a key's pin then failed)
        live.keys_error = None if self.keys is None else self.keys.error
        live.dead_keys = {} if self.keys is None else self.keys.dead
        live.held_keys = {} if self.keys is None else self.keys.held
        pins = self.resolved.config.pins
        live.stuck_keys = {} if self.keyfilter is None else {
            k: pins[k] for k in self.keyfilter.stuck(self.keyfilter.now if now is None else now)
            if k in pins and k not in live.held_keys}
        live.panel = (None if self.output is None or not self.output.connected and self.output.error is None
                      else self.output.connected)        # (None: the first open under way)
        live.panel_error = None if self.output is None else self.output.error
        from firmware.doctor_panel import at_least
        from hw.display import found_at
        live.panel_address = None if self.device is None else found_at(self.device)
        live.panel_glitches = 0 if self.output is None else at_least(self.output.glitches)
        doctor.set_live(live, self.resolved)
        if self.state_dir is not None:
            doctor.write_status(self.state_dir, live, self.resolved, self.language())

    def shutdown(self) -> None:
        """Leave "Saved — safe to unplug" on the panel if it answers, release the pins; never
        raises (SIGTERM with no panel exits 0)."""
        from firmware.screens.menu import saved_screen
        try:
            image = saved_screen()
        except Exception as e:  # noqa: BLE001 - a font problem must not change the exit code
            log.warning("shutdown screen failed (%s)", e)
            image = Image.new("1", (128, 64))
        if self.output is not None:
            self.output.shutdown(image)
        if self.keys is not None:
            self.keys.close()
        from firmware import doctor
        doctor.clear_live()


def OledOutput(device: Any) -> Any:
    """An Output on an already open panel (benchmarks and tests)."""
    from firmware.hardware import PanelOutput

    def cannot_reopen() -> Any:
        raise RuntimeError("no way to re-open this panel")
    return PanelOutput(cannot_reopen, device=device)


def open_hardware(args: Any, app: App, events: queue.Queue[tuple[Any, ...]], splash: Any = None,
                   clock: Callable[[], float] = time.monotonic) -> Hardware:
    from firmware import doctor
    from firmware.buttons_part import KeysPart, dead_keys_notice, ensure_lgpio_workdir, keys_failed_notice
    from firmware.hardware import PanelOutput
    from hw.buttons import ButtonBank
    from hw.display import open_display
    from hw.keys import KeyFilter
    from hw.splash import remember, take_over
    hw, store = Hardware(), app.console.store
    hw.state_dir = store.root
    hw.language = lambda: app.settings.get("language")
    try:
        stored = store.load_settings()
    except Exception as e:  # noqa: BLE001 - unreadable settings: the file and defaults decide
        log.warning("settings: cannot read them (%s); using the config file and defaults", e)
        stored = {}
    resolved = doctor.resolve_config(getattr(args, "config", None), stored)
    hw.resolved = resolved
    if resolved.problem is not None:
        from firmware.i18n import say
        app.start_notice(say(Msg("Config file ignored: {}", resolved.problem)))
    display_cfg = resolved.config.display
    log.info("hardware: profile %s (from %s), %s on %s", resolved.config.profile, resolved.source,
             display_cfg.driver, display_cfg.interface)

    early = [splash]
    def open_panel() -> Any:
        """(On the panel thread.) The splash's panel the first time if it was opened with these
        settings (else it is let go of), or the panel opened anew."""
        splash_panel, early[0] = early[0], None
        device = take_over(splash_panel, display_cfg) or open_display(display_cfg)
        remember(store.root, display_cfg)       # for the next start's splash
        return device

    # The first open too on the panel thread (its notify wakes the loop): a bus held low (about a
    # second's timeout per address) keeps neither the loop nor the keys waiting; a panel that does
    # not answer is tried every RETRY s (plugged in later, found then).
    hw.output = PanelOutput(open_panel, clock=clock, notify=lambda: events.put(("panel",)))
    hw.output.poll()
    hw.keyfilter = KeyFilter()
    lgpio_dir = ensure_lgpio_workdir(store.root)
    hw.keys = KeysPart(lambda: ButtonBank(resolved.config.pins, events.put, keep_going=True), clock=clock)
    if hw.keys.dead or hw.keys.error is not None:   # some keys' pins held by another program or an
        from firmware.i18n import say                 # overlay (the others work), or none: no pin library
        app.start_notice(say(dead_keys_notice(hw.keys.dead) if hw.keys.dead
                             else keys_failed_notice(hw.keys.failure, hw.keys.error)))
    hw.live = doctor.Live(lgpio_dir=lgpio_dir)
    hw.report()
    return hw
