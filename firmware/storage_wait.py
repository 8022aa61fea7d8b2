"""The start when the state directory cannot be used at all: a full card at the very first start,
a read-only card with no database on it yet, a file where the directory should be, permission
denied, another Legatus holding it. The device used to exit with a dark panel (under systemd a
crash loop, then nothing); now it says on the panel what is wrong and what to do (in the language
stored on the card if it can be read, else English), pages through that text by itself (the buttons
are not needed), and tries again every :data:`RETRY` seconds: as soon as the store opens, the
device starts as usual. Games are not offered meanwhile: nothing played could be kept.

    wait = StorageWait(root, error)
    store = wait.run(events, output, parts)      # None: stopped (SIGTERM, q in the simulator)
"""
from __future__ import annotations

import logging
import queue
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from PIL import Image


from firmware.i18n import _, say
from firmware.logs import ON_PANEL
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.scroll import TextScreen
from firmware.start_language import speak_stored_language
from firmware.store import StateDirBusy, StateDirError, Store

log = logging.getLogger(__name__)

RETRY = 5.0        # seconds between two tries to open the state directory
PAGE = 4.0         # seconds each page of the explanation stays on the panel


class StorageWait:
    """What the panel shows while the state directory cannot be used, and the tries to open it."""

    def __init__(self, root: Path, error: StateDirError, open_store: Callable[[Path], Store] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.root = root
        self.error = error
        self.open_store = open_store or Store
        self.clock = clock
        self.since = clock()
        self.next_try = self.since + RETRY
        self.tries = 0
        speak_stored_language(root)

    def screen(self) -> TextScreen:
        problem = self.error.args[0] if self.error.args else str(self.error)
        return TextScreen(say(_("Nothing can be saved")), [say(problem), say(_(
            "Legatus cannot keep any game, so none is started. Check the card: free some space, or make it "
            "writable. Legatus keeps trying and starts by itself as soon as it can."))])

    def frame(self) -> Image.Image:
        """The explanation, the page due now (each shows :data:`PAGE` seconds, then the next)."""
        screen = self.screen()
        pages = max(1, -(-len(screen.rows) // base.ROWS))
        screen.top = int((self.clock() - self.since) // PAGE) % pages * base.ROWS
        return screen.render(cast(Ctx, None))            # a TextScreen draws without its ctx

    def next_deadline(self) -> float:
        """When the loop must wake up: the next try or the next page."""
        page = self.since + (int((self.clock() - self.since) // PAGE) + 1) * PAGE
        return min(self.next_try, page)

    def attempt(self) -> Store | None:
        """Try to open the state directory again: the store, or None (the reason kept, and logged
        when it changed)."""
        self.tries += 1
        self.next_try = self.clock() + RETRY
        try:
            store = self.open_store(self.root)
        except StateDirError as e:
            if str(e) != str(self.error):
                log.error("%s", e, extra={ON_PANEL: True})
            self.error = e
            return None
        log.info("the state directory %s can be used now (after %d tries); starting", self.root, self.tries)
        return store

    def refuse(self, reply: Callable[[bytes], None]) -> None:
        """Answer a console line (PROTOCOL.md: every request gets one response): storage_error,
        the reason, nothing done (whatever the request: nothing can be read or saved)."""
        import json
        from firmware.storage import StorageError
        problem = self.error.args[0] if self.error.args else str(self.error)
        reply(json.dumps({"ok": False, "error": StorageError.code, "message": say(problem)}, ensure_ascii=False,
                         separators=(",", ":")).encode() + b"\n")

    def run(self, events: queue.Queue[tuple[Any, ...]], out: Any, parts: Any = None) -> Store | None:
        """Show the problem on ``out`` and try again until the store opens (returned), or a quit
        event (SIGTERM, SIGHUP, q in the simulator) stops the program (None). ``parts``: a panel
        that can come and go (firmware.hardware.PanelOutput), re-opened when its time comes."""
        shown: bytes | None = None
        while True:
            img = self.frame()
            if out is not None and img.tobytes() != shown:
                shown = img.tobytes()
                out.show(img)
            deadlines = [self.next_deadline()]
            if parts is not None and parts.next_deadline() is not None:
                deadlines.append(parts.next_deadline())
            try:
                event = events.get(timeout=max(0.0, min(deadlines) - self.clock()))
            except queue.Empty:
                event = ("tick",)
            if event[0] == "quit" or event[:2] == ("key", "quit"):
                log.info("stopped while waiting for the state directory %s", self.root)
                return None
            if event[0] == "resized":               # the simulator's terminal: drawn again
                shown = None
            if event[0] == "line":                  # the console over serial: refused, with the reason
                self.refuse(event[3])
            if parts is not None and parts.next_deadline() is not None and self.clock() >= parts.next_deadline():
                try:
                    parts.poll(self.clock())
                except Exception as e:  # noqa: BLE001 - the panel must never end the program
                    log.exception("display poll failed: %s", e)
                shown = None
            if self.clock() >= self.next_try:
                store = self.attempt()
                if store is not None or isinstance(self.error, StateDirBusy):   # another Legatus took
                    return store                                              # it: its card, its panel


class Waited:
    """What :func:`wait_for_store` leaves to the normal start: the store (None: stopped, or a
    scripted run that cannot go on), the panel it opened (as ``hw.splash.early`` returns one, for
    the device to take over), whether the simulator's keyboard reader already runs."""

    def __init__(self) -> None:
        self.store: Store | None = None
        self.splash: tuple[Any, dict[str, Any]] | None = None
        self.keyboard = False
        self.link: Any = None    # the serial link (hw.serial_link.SerialLink) already served, if any
        self.status = 2          # the exit status when there is no store: 0 if stopped while waiting


def wait_for_store(args: Any, root: Path, error: StateDirError, splash: Any,
                   events: queue.Queue[tuple[Any, ...]],
                   serve: Callable[[Any, queue.Queue[tuple[Any, ...]]], None] | None = None) -> Waited:
    """The problem on the panel (or the simulator, or a scripted run's output) until the state
    directory can be used (see the module's docstring). ``serve``: the serial reader
    (firmware.serial_reader.serial_reader) that puts the lines of ``--serial`` on ``events``."""
    waited = Waited()
    if isinstance(error, StateDirBusy):   # the other Legatus has the card and the panel: not ours to wait for
        speak_stored_language(root)            # (a refusal to whoever started this one, in the device's words; no
        from firmware.logs import journal_prefix       # log line first; the service's: an error on the journal)
        print(f"{journal_prefix(logging.ERROR)}legatus: {say(error.args[0] if error.args else str(error))}",
              file=sys.stderr)
        return waited
    log.error("%s", error, extra={ON_PANEL: True})   # (the panel says it in the player's words: not on the
    wait = StorageWait(root, error)                  # simulator's terminal in English, firmware.logs.ON_PANEL)
    if args.script:                                  # a scripted run shows it once and ends
        from firmware.terminal import ScriptScreen
        screen = ScriptScreen()
        screen.label = "storage"
        screen.show(wait.frame())
        return waited
    if getattr(args, "serial", None) and serve is not None:     # the console is answered meanwhile (refused)
        import threading

        from hw.serial_link import SerialLink
        waited.link = SerialLink(args.serial, args.baud)
        threading.Thread(target=serve, args=(waited.link, events), daemon=True, name="serial").start()
    from hw.display import probe_hardware
    if args.sim or not probe_hardware():
        from firmware.terminal import TerminalScreen, keyboard_reader, terminal_problem
        if (problem := terminal_problem()) is not None:
            print(problem, file=sys.stderr)
            return waited
        import threading
        out = TerminalScreen(resized=lambda: events.put(("resized",)))
        threading.Thread(target=keyboard_reader, args=(events,), daemon=True).start()
        waited.keyboard = True
        from firmware import logs
        print_again = logs.quiet_stderr(lambda line: None) if sys.stderr.isatty() else None
        waited.store = wait.run(events, out)          # (the panel says the problem: no log line over it)
        if print_again is not None:
            print_again()
        waited.status = 2 if isinstance(wait.error, StateDirBusy) else 0
        return waited
    panel, fields = _panel(args, splash, events)
    waited.store = wait.run(events, panel, panel)
    waited.status = 2 if isinstance(wait.error, StateDirBusy) else 0
    if waited.store is None and waited.status != 2:
        panel.shutdown(wait.frame())                 # the reason stays on the panel (if it answers in time)
        return waited
    panel.settle()                                   # (its panel thread ends: the panel is ours, or let go of)
    if waited.status == 2 and panel.device is not None:     # the other Legatus draws on it now
        from hw.display import release
        release(panel.device)
    elif panel.device is not None:
        waited.splash = (panel.device, fields)
    return waited


def _panel(args: Any, splash: Any, events: queue.Queue[tuple[Any, ...]]) -> tuple[Any, dict[str, Any]]:
    """The OLED as the config file (or the default profile) says, opened (the first time: the splash's
    panel taken over) and re-opened while it is missing off the loop: its panel thread puts
    ``("panel",)`` on ``events`` when it opened, could not, or lost it."""
    from firmware import doctor
    from firmware.hardware import PanelOutput
    from hw.display import open_display
    from hw.splash import FIELDS, take_over
    cfg = doctor.resolve_config(getattr(args, "config", None), {}).config.display
    early = [splash]

    def open_panel() -> Any:
        splash_panel, early[0] = early[0], None        # the splash's panel, the first time
        return take_over(splash_panel, cfg) or open_display(cfg)
    panel = PanelOutput(open_panel, notify=lambda: events.put(("panel",)))
    panel.poll()                   # the first open too on the panel thread: a stuck bus delays nothing
    return panel, {name: getattr(cfg, name) for name in FIELDS}
