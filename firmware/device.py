"""The device main loop. One thread (this one) owns the App, the Console and the session;
buttons (gpiozero threads), the keyboard reader and the serial reader only put events on a queue;
the worker (firmware/worker.py) computes slow read-only answers (odds, advice) from a copy of the
state and says when one is ready.

Queue events: ``("edge", key, pressed, t)`` raw button edges (debounced here by hw.keys),
``("key", name)`` logical keys (simulator), ``("line", raw_bytes, too_long, reply)`` console lines,
``("wake",)`` a worker answer to draw, ``("quit",)``.
"""
from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from engine.text import Msg
from firmware.app import App
from firmware.console import Console, MAX_LINE
from firmware.settings import CONTRAST_LEVELS
from firmware.store import StateDirError, Store, default_state_dir


class Output(Protocol):
    def show(self, img: Image.Image) -> None: ...

    def blank(self, blanked: bool, img: Image.Image) -> None: ...

    def contrast(self, level: int) -> None: ...


class Loop:
    """Turns queue events into App calls, redraws, and blanks the panel when idle."""

    def __init__(self, app: App, out: Output | None, keyfilter: Any | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.out = out
        self.keyfilter = keyfilter
        self.clock = clock
        self.last_activity = clock()
        self.blanked = False
        self.running = True
        self._last_frame: bytes | None = None
        self._contrast: str | None = None

    # -- timing ------------------------------------------------------------------------------
    def idle_limit(self) -> float | None:
        value = self.app.settings.get("screen_off", "off")
        return None if value == "off" else float(value)

    def timeout(self) -> float | None:
        """Seconds until the loop must wake up on its own (key repeat, blanking)."""
        now = self.clock()
        waits = []
        if self.keyfilter is not None:
            deadline = self.keyfilter.next_deadline()
            if deadline is not None:
                waits.append(deadline - now)
        limit = self.idle_limit()
        if limit is not None and not self.blanked:
            waits.append(self.last_activity + limit - now)
        return max(0.0, min(waits)) if waits else None

    # -- events ------------------------------------------------------------------------------
    def handle(self, event: tuple) -> None:
        kind = event[0]
        if kind == "edge" and self.keyfilter is not None:
            for key in self.keyfilter.feed(event[1], event[2], event[3]):
                self.key(key)
        elif kind == "key":
            self.key(event[1])
        elif kind == "line":
            _, raw, too_long, reply = event
            if too_long:
                from engine.errors import LineTooLong
                response: str | None = Console._error(
                    LineTooLong(Msg("Lines are limited to {} bytes; this one was ignored.", MAX_LINE)))
            else:
                response = self.app.console.handle_bytes(raw)
            self.app._view_stale = True
            if response is not None:
                reply(response.encode() + b"\n")
        elif kind == "quit":
            self.running = False
        # "wake": the worker has an answer (odds, advice) for the screen: just draw again
        self.redraw()

    def tick(self) -> None:
        """Called when the queue wait times out: key repeat/hold and idle blanking."""
        if self.keyfilter is not None:
            for key in self.keyfilter.tick(self.clock()):
                self.key(key)
        limit = self.idle_limit()
        if limit is not None and not self.blanked and self.clock() - self.last_activity >= limit:
            self.blanked = True
            if self.out is not None:
                self.out.blank(True, self.app.render())
        self.redraw()

    def key(self, key: str) -> None:
        self.last_activity = self.clock()
        if key == "quit":
            self.running = False
            return
        if self.blanked:  # any key wakes the panel and is not acted on
            self.blanked = False
            self._last_frame = None
            if self.out is not None:
                self.out.blank(False, self.app.render())
            return
        self.app.handle(key)

    def redraw(self) -> None:
        if self.out is None or self.blanked:
            return
        contrast = self.app.settings.get("contrast", "3")
        if contrast != self._contrast:
            self._contrast = contrast
            self.out.contrast(CONTRAST_LEVELS.get(contrast, 128))
        img = self.app.render()
        data = img.tobytes()
        if data != self._last_frame:
            self._last_frame = data
            self.out.show(img)

    def run(self, events: queue.Queue) -> None:
        self.redraw()
        while self.running:
            try:
                event = events.get(timeout=self.timeout())
            except queue.Empty:
                self.tick()
                continue
            self.handle(event)


# -- input threads -----------------------------------------------------------------------------
def _keyboard_reader(events: queue.Queue) -> None:
    import termios
    import tty

    from firmware.terminal import parse_keys
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        while True:
            data = os.read(fd, 32)
            if not data:
                events.put(("quit",))
                return
            for key in parse_keys(data):
                events.put(("key", key))
                if key == "quit":
                    return
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def _serial_reader(port: Any, events: queue.Queue) -> None:
    from firmware.console import read_line
    from hw.serial_link import LINK_ERRORS

    def reply(data: bytes) -> None:
        try:
            port.write(data)
            port.flush()
        except LINK_ERRORS as e:             # the other end hung up: the action itself is saved
            print(f"legatus: could not answer over the serial link ({e}).", file=sys.stderr)

    while True:
        try:
            got = read_line(port)
        except LINK_ERRORS as e:             # a hangup (serial.SerialException is an OSError)
            print(f"legatus: the serial link closed ({e}); the device goes on without it.", file=sys.stderr)
            return
        if got is None:
            continue
        events.put(("line", got[0], got[1], reply))


def _script_events(path: str) -> list[tuple]:
    """Key names, one per line ('#' comments); ``wait S`` advances the simulated clock."""
    text = sys.stdin.read() if path == "-" else Path(path).read_text()
    out: list[tuple] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("wait"):
            out.append(("wait", float(line.split()[1])))
        else:
            out.append(("key", line))
    return out


def _run_script(loop: Loop, screen: Any, path: str, clock: list[float]) -> None:
    loop.redraw()
    for event in _script_events(path):
        if event[0] == "wait":
            clock[0] += event[1]
            screen.label = f"wait {event[1]:g}"
            loop.tick()
        else:
            screen.label = event[1]
            loop.handle(event)
        if not loop.running:
            break


# -- start -------------------------------------------------------------------------------------
def run_device(args: Any, splash: Any = None) -> int:
    """``legatus``: the device UI on the OLED, or the terminal simulator. Returns an exit code.

    ``splash``: the panel hw.splash.early opened and drew the splash on (or None)."""
    try:
        store = Store(Path(args.state_dir) if args.state_dir else default_state_dir())
    except StateDirError as e:
        print(f"legatus: {e}", file=sys.stderr)
        if splash is not None:
            splash[0].cleanup()
        return 2
    try:
        session = store.resume()
    except Exception as e:  # noqa: BLE001 - a session that cannot be read must never stop the start
        print(f"legatus: the last session could not be resumed ({type(e).__name__}: {e}); "
              "starting without it.", file=sys.stderr)
        session = None
    console = Console(store, session)
    app = App(console)
    if store.recovery is not None:
        print(f"legatus: {store.recovery.sentence()}", file=sys.stderr)
        app.notify(store.recovery.sentence())
    events: queue.Queue = queue.Queue()
    hardware = None
    try:
        if args.script:
            from firmware.terminal import ScriptScreen
            clock = [0.0]
            screen = ScriptScreen()
            loop = Loop(app, screen, None, clock=lambda: clock[0])
            _run_script(loop, screen, args.script, clock)
            return 0
        from hw.display import probe_hardware
        use_sim = args.sim or not probe_hardware()
        if use_sim:
            from firmware.terminal import TerminalScreen, stdin_is_tty
            if not stdin_is_tty():
                print("legatus: the simulator needs a terminal; use --script FILE to drive it "
                      "from a file, or 'legatus console' for the line protocol.", file=sys.stderr)
                return 2
            out: Any = TerminalScreen(blocks=os.environ.get("LEGATUS_BLOCKS") == "1")
            loop = Loop(app, out)
            threading.Thread(target=_keyboard_reader, args=(events,), daemon=True).start()
        else:
            hardware = _open_hardware(args, app, events, splash)
            splash = None
            loop = Loop(app, hardware.output, hardware.keyfilter)
        from firmware.worker import Worker
        app.worker = Worker(lambda: events.put(("wake",)))     # odds and advice off the loop
        if args.serial:
            from hw.serial_link import open_serial
            try:
                port = open_serial(args.serial, args.baud)

                def send(data: bytes) -> None:   # History → Send over serial
                    port.write(data)
                    port.flush()
                console.serial_out = send
                threading.Thread(target=_serial_reader, args=(port, events), daemon=True).start()
            except Exception as e:  # report, keep the device usable
                print(f"legatus: {e}", file=sys.stderr)
                app.notify(f"Serial: {e}")
        signal.signal(signal.SIGTERM, lambda *_: events.put(("quit",)))
        try:
            loop.run(events)
        except KeyboardInterrupt:
            pass
        if hardware is not None:
            hardware.shutdown()
        elif use_sim:
            from firmware.screens.menu import saved_screen
            out.show(saved_screen())
    finally:
        console.close()
    return 0


class _Hardware:
    """The OLED (if it opened), the buttons and their KeyFilter."""

    def __init__(self) -> None:
        self.device: Any = None
        self.buttons: Any = None
        self.keyfilter: Any = None
        self.output: Output | None = None

    def shutdown(self) -> None:
        from firmware.screens.menu import saved_screen
        if self.device is not None:
            from hw.display import show
            show(self.device, saved_screen())
            self.device.persist = True   # leave "Saved — safe to unplug" on the panel
        if self.buttons is not None:
            self.buttons.close()


class _OledOutput:
    """hw.display sends only what changed since the last frame; switching the panel on, a
    contrast change or a bus error makes it send the next frame whole."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self._shown: Image.Image | None = None

    def show(self, img: Image.Image) -> None:
        from hw.display import show
        self._shown = img
        show(self.device, img)

    def blank(self, blanked: bool, img: Image.Image) -> None:
        from hw.display import blank
        blank(self.device, blanked)
        if not blanked:
            self.show(img)

    def contrast(self, level: int) -> None:
        from hw.display import set_contrast
        set_contrast(self.device, level)
        if self._shown is not None:     # the full refresh now, even if the frame is unchanged
            self.show(self._shown)


def _open_hardware(args: Any, app: App, events: queue.Queue, splash: Any = None) -> _Hardware:
    from hw.buttons import ButtonBank, ButtonError
    from hw.config import ConfigError, builtin_config, load_config
    from hw.display import DisplayError, open_display
    from hw.keys import KeyFilter
    hw = _Hardware()
    try:
        config = load_config(Path(args.config) if args.config else None,
                             profile=app.settings.get("profile"))
    except ConfigError as e:  # a bad file must not crash-loop the service: use the profile alone
        print(f"legatus: config: {e} — using the built-in profile.", file=sys.stderr)
        app.notify(f"Config file ignored: {e}")
        config = builtin_config(app.settings.get("profile"))
    display_cfg = config.display
    driver = app.settings.get("driver", "auto")
    if driver != "auto":
        import dataclasses
        display_cfg = dataclasses.replace(display_cfg, driver=driver)
    from hw.splash import remember, take_over
    try:
        hw.device = take_over(splash, display_cfg) or open_display(display_cfg)
        hw.output = _OledOutput(hw.device)
        remember(app.console.store.root, display_cfg)    # for the next start's splash
    except DisplayError as e:
        print(f"legatus: display: {e} — running without it (the console still works).", file=sys.stderr)
    hw.keyfilter = KeyFilter()
    try:
        hw.buttons = ButtonBank(config.pins, events.put)
    except ButtonError as e:
        print(f"legatus: buttons: {e}", file=sys.stderr)
        app.notify(f"Buttons: {e}")
    return hw
