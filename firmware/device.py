"""The device main loop. One thread (this one) owns the App, the Console and the session;
buttons (gpiozero threads), the keyboard reader and the serial reader only put events on a queue;
the worker (firmware/worker.py) computes slow read-only answers (odds, advice) from a copy of the
state and says when one is ready.

Queue events: ``("edge", key, pressed, t)`` raw button edges (debounced here by hw.keys),
``("key", name, at)`` logical keys (simulator; ``at`` when read), ``("line", raw_bytes, too_long, reply)`` console lines,
``("wake",)`` a worker answer to draw, ``("panel",)`` the panel's thread opened the panel, could not,
or lost it (the next poll of the parts takes that: firmware.hardware.PanelOutput), ``("resized",)`` the simulator's
terminal, ``("quit",)``.
"""
from __future__ import annotations

import logging
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from engine.text import Msg
from firmware.app import App
from firmware.console import Console
from firmware.console_lines import MAX_LINE
from firmware.device_hardware import open_hardware
from firmware.serial_reader import serial_reader, start_serial
from firmware.i18n import say
from firmware.screens.ctx import SendsWhenMade
from firmware.screens.widgets.keys import REPEAT
from firmware.settings import CONTRAST_LEVELS
from firmware.store import StateDirError, Store, default_state_dir
from hw.keys import REPEAT_KEYS

log = logging.getLogger(__name__)
SAME_PUSH = 0.1    # s: a contact closing this soon after a notice came is of the push that brought it (nobody is that fast)
DRAW_EVERY = 0.05  # s: while events keep coming (a bouncing contact's edges), the frame is drawn at least this often

Event = tuple[Any, ...]          # one queue event (the shapes above)
Events = queue.Queue[Event]


class Output(Protocol):
    def show(self, img: Image.Image) -> None: ...

    def blank(self, blanked: bool, img: Image.Image) -> None: ...

    def contrast(self, level: int) -> None: ...


class Loop:
    """Turns queue events into App calls, redraws, and blanks the panel when idle."""

    def __init__(self, app: App, out: Output | None, keyfilter: Any | None = None,
                 clock: Callable[[], float] = time.monotonic, parts: Any | None = None) -> None:
        self.app = app
        self.out = out
        self.keyfilter = keyfilter
        self.clock = clock
        self.parts = parts              # hardware that can come and go: next_deadline(), poll(now)
        self.last_activity = clock()
        self.blanked = False
        self.running = True
        self._last_frame: bytes | None = None
        self._drawn_at = float("-inf")         # when redraw last ran
        self._contrast: str | None = None
        self._spent_at = float("-inf")         # the presses begun by then woke the panel, or closed or opened a notice
        self._deaf = (float("inf"), float("-inf"))   # the presses begun then met "Saving…" (SavingSign): spent
        self._screen_at = float("-inf")        # when a key last brought another screen (a question, a list...)
        self.shown: Image.Image | None = None  # the frame last given to the output (SavingSign draws over it)
        self._acted: dict[str, float] = {}     # per key, its press the last event of that key came from (repeats follow)
        # the serial link's answers not written yet, in the order of their requests: (reply, the line
        # the worker answers or None, the response line): one the worker makes holds those after it
        self._answers: deque[tuple[Callable[[bytes], None], str | None, str | None]] = deque()

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
        if self.parts is not None:
            deadline = self.parts.next_deadline()
            if deadline is not None:
                waits.append(deadline - now)
        return max(0.0, min(waits)) if waits else None

    def poll_parts(self) -> None:
        """Re-open a missing panel or buttons, or check the panel, when their time has come."""
        if self.parts is None:
            return
        deadline = self.parts.next_deadline()
        if deadline is not None and self.clock() >= deadline:
            try:
                self.parts.poll(self.clock())
            except Exception as e:  # noqa: BLE001 - hardware must never end the program
                log.exception("hardware poll failed: %s", e)

    # -- events ------------------------------------------------------------------------------
    def handle(self, event: Event, draw: bool = True) -> None:
        """Act on ``event``, then draw the frame (unless ``draw`` is False: :meth:`run` leaves it to
        the last of the events already waiting)."""
        kind = event[0]
        if kind == "edge" and self.keyfilter is not None:
            for key in self.keyfilter.feed(event[1], event[2], event[3]):
                self.key(key)
        elif kind == "key":                      # (the simulator's: with the time it was read)
            self.key(event[1], event[2] if len(event) > 2 else None)
        elif kind == "line":
            _, raw, too_long, reply = event
            later, response = None, None
            if too_long:
                from engine.errors import LineTooLong
                response = Console._error(
                    LineTooLong(Msg("Lines are limited to {} bytes; this one was ignored.", MAX_LINE)))
            elif (later := self.app.line_off(raw)) is None:
                response = self.app.serve_line(raw)
            if later is not None or response is not None:
                self._answers.append((reply, later, response))
        elif kind == "quit":
            self.running = False
        elif kind == "resized":                  # the simulator's terminal changed size: all drawn again
            self._last_frame = None
            if self.blanked and self.out is not None:    # (the dark frame: the too-small line, or gone)
                self.out.blank(True, self.app.render())
        elif kind == "logged":                   # a warning kept off the simulator's picture (or the log file's trouble)
            self.app.notify(say(event[1] if isinstance(event[1], Msg) else Msg("Warning, written to the log: {}", event[1])))
        elif kind == "wake" and self.blanked:    # asleep, no frame drawn: a page that waits for the worker
            top = self.app.stack[-1]             # to send something (the draw record) takes it now: the
            if isinstance(top, SendsWhenMade) and top.sends_when_made:
                top.on_top(self.app)             # serial line needs no screen (it waited for a key)
        # "wake": the worker has an answer (odds, advice, a serial line's) for the screen: just draw again
        self._answer()
        if draw:
            self.redraw()

    def _answer(self) -> None:
        """Write the serial link's answers that are ready, in the order their requests came: one
        the worker makes (``export format=draws``: App.line_off) holds those after it back."""
        while self._answers:
            reply, later, response = self._answers[0]
            if later is not None and (response := self.app.answer_off(later)) is None:
                return
            self._answers.popleft()
            if response is not None:
                reply(response.encode() + b"\n")

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

    def key(self, key: str, at: float | None = None) -> None:
        """``key`` pressed (``at``: when a simulator's key was read; a button's press has its edge's)."""
        self.last_activity = self.clock()
        if key == "quit":
            self.running = False
            return
        if getattr(self.out, "hidden", False):   # the simulator's terminal too small to show the frame:
            return                                # a key pressed blind would act unseen (its line says why)
        if self.blanked:  # any key wakes the panel and is not acted on
            self.blanked = False
            self._spend()
            img = self.app.render()
            self._last_frame = img.tobytes()      # (drawn by the wake: not a second time at once)
            if self.out is not None:
                self.shown = img
                self.out.blank(False, img)
            return
        base = key.partition(":")[0]                       # (a hold's key)
        begun = self.keyfilter.keys.get(base) if self.keyfilter is not None else None
        pressed = begun.pressed_at if begun is not None else at
        if pressed is not None and self._deaf[0] <= pressed <= self._deaf[1]:
            return                   # pressed on "Saving…": it would act on a screen not seen yet
        if begun is not None and base not in REPEAT_KEYS and begun.pressed_at < self._screen_at:
            return                   # a click or hold begun before another key brought this screen (A and B
                                     # pressed together; A pressed while B was held to undo): not meant for it
        state = self.keyfilter.keys.get(key) if self.keyfilter is not None else None
        press = state.pressed_at if state is not None and state.stable else None    # the held key's press began then
        if press is not None and press <= self._spent_at + SAME_PUSH:   # that push did its one thing
            return
        if press is not None and self._acted.get(key) == press:    # (each way of a diagonal on its own)
            key += REPEAT                               # a direction held down: its repeat (docs/keys.md)
        elif press is not None:
            self._acted[key] = press
        closes, notices = self.app.closes_only(), self.app.notices
        top, depth = self.app.stack[-1], len(self.app.stack)
        self.app.handle(key)
        if begun is not None and (self.app.stack[-1] is not top or len(self.app.stack) != depth):
            self._screen_at = begun.fired_at         # (the key's release, its hold...: when it took effect)
        if closes or self.app.notices != notices:       # a notice takes the key and nothing else; one
            self._spend()                               # the key brought (its box or page) waits for its own

    def _spend(self) -> None:
        """Every press begun by now or in the same push (a diagonal's other way, bouncing) did its one thing."""
        self._spent_at = self.keyfilter.now if self.keyfilter is not None else float("-inf")

    def redraw(self) -> None:
        self._drawn_at = self.clock()
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
            self.shown = img
            self.out.show(img)

    def signed(self, since: float, until: float) -> None:
        """(SavingSign, after a save it showed "Saving…" for.) The frame goes again, changed or
        not, and the presses begun from ``since`` to ``until`` do nothing."""
        self._last_frame = None
        self._deaf = (since, until)

    def run(self, events: Events) -> None:
        # The keys pressed before the first frame (the buttons open a moment before it: their edges
        # waited on the queue while the splash, or nothing, was on the glass) do nothing: they acted
        # on a screen nobody had seen yet, a start notice closed unread, a first-start language
        # picked blind (as the presses on "Saving…", SavingSign).
        self._deaf = (float("-inf"), self.clock())
        self.redraw()
        while self.running:
            try:
                event = events.get(timeout=self.timeout())
            except queue.Empty:
                self.poll_parts()
                self.tick()
                continue
            # Drawn once the events already waiting are taken (at least every DRAW_EVERY s): a
            # bouncing contact queues dozens of edges a push, each acted on in microseconds, and a
            # frame drawn after each (a few ms apiece on a Pi Zero) held the key's own frame back.
            self.handle(event, draw=events.empty() or self.clock() - self._drawn_at >= DRAW_EVERY)
            self.poll_parts()


def _run_script(loop: Loop, events: list[Event], screen: Any, clock: list[float], stop: Events) -> None:
    """The script's keys and waits, frame by frame; a ``quit`` put on ``stop`` (SIGTERM, SIGHUP)
    ends it before the next one, as it ends the device: a long script went on to its end."""
    loop.redraw()
    for n, event in enumerate(events):
        while loop.running and not stop.empty():
            loop.handle(stop.get_nowait())
        if not loop.running:
            log.info("script: stopped before its event %d of %d", n + 1, len(events))
            break
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

    ``splash``: the panel hw.splash.early opened and drew the splash on, or is opening aside
    (hw.splash.Aside), or None."""
    from firmware import logs
    script: list[Event] = []
    if args.script:
        from firmware.start_language import speak_players_language
        from firmware.terminal import ScriptError, script_events, stdin_is_tty
        if args.script == "-" and stdin_is_tty():   # it asks for the keys' names (a person types them)
            speak_players_language(args.state_dir)
        try:
            script = script_events(args.script)
        except ScriptError as e:     # the user's file, said as the terminal's problems are: no logger's name
            speak_players_language(args.state_dir)
            print(f"legatus: {say(e.args[0])}", file=sys.stderr)
            return 2
    root = Path(args.state_dir) if args.state_dir else default_state_dir()
    events: Events = queue.Queue()
    # SIGTERM (systemctl stop), SIGHUP (an ssh terminal hung up) and SIGQUIT (Ctrl-\ in the simulator) end the loop as
    # soon as it runs: the shutdown path below, status 0, with or without a panel (they killed it outright, SIGQUIT
    # leaving the terminal without echo). Put from a thread: the handler may run inside events.get, its lock held.
    def stop(*_: Any) -> None:
        threading.Thread(target=events.put, args=(("quit",),), daemon=True).start()
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, stop)
    keyboard, link = False, None
    try:
        store = Store(root)
    except StateDirError as e:     # said on the panel and tried again: no exit, no crash loop
        from firmware.storage_wait import wait_for_store
        waited = wait_for_store(args, root, e, splash, events, serial_reader)
        if waited.store is None:
            if waited.status == 0:
                logs.stopped()
            return waited.status
        store, splash, keyboard, link = waited.store, waited.splash, waited.keyboard, waited.link
    failure = logs.previous_failure(store.root)
    logs.attach_file(store.root)
    try:
        session = store.resume()
    except Exception as e:  # noqa: BLE001 - a session that cannot be read must never stop the start
        log.error("the last session could not be resumed (%s: %s); starting without it.", type(e).__name__, e)
        session = None
    console = Console(store, session)
    app = App(console)
    _start_notices(app, store, failure)
    hardware = None
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        if args.script:
            app.simulated = True                 # (Settings says what its panel settings do there)
            from firmware.terminal import ScriptScreen
            clock = [0.0]
            screen = ScriptScreen()
            loop = Loop(app, screen, None, clock=lambda: clock[0])
            try:
                _run_script(loop, script, screen, clock, events)
            except BrokenPipeError as e:    # the reader of the frames went away (``--script k | head``)
                log.info("stdout closed: %s", e)
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
            logs.stopped()
            return 0
        from hw.display import probe_hardware
        use_sim = args.sim or not probe_hardware()
        app.simulated = use_sim
        if use_sim:
            from firmware.terminal import TerminalScreen, keyboard_reader, keys_language, terminal_problem
            if (problem := terminal_problem()) is not None:     # no terminal, or one that cannot draw
                print(problem, file=sys.stderr)
                return 2
            out: Any = TerminalScreen(resized=lambda: events.put(("resized",)), keys_in=keys_language(store.load_settings))
            if sys.stderr.isatty():                  # log lines would print over the picture
                print_again = logs.quiet_stderr(lambda line: events.put(("logged", line)))
            loop = Loop(app, out)
            if not keyboard:            # (already reading while the storage was awaited)
                threading.Thread(target=keyboard_reader, args=(events,), daemon=True).start()
        else:
            hardware = open_hardware(args, app, events, splash)
            splash = None
            loop = Loop(app, hardware.output, hardware.keyfilter, parts=hardware)
        from engine.jc.odds import finish as jc_tables
        from firmware.worker import Worker
        app.worker = Worker(lambda: events.put(("wake",)),      # odds and advice off the loop,
                            idle=(jc_tables,))                  # the JC table taken back meanwhile
        if args.serial:
            start_serial(args, console, events, link)
        from firmware.saving_sign import SavingSign
        store.watch = SavingSign(loop)          # "Saving…" while a save takes long (a slow card)
        # SIGINT too (Ctrl-C in the ssh session that started it, `systemctl kill -s INT`), from now on:
        # as KeyboardInterrupt it struck wherever the loop was, in a save past its commit point too,
        # and the action stayed on the card unanswered. (Before this, Ctrl-C ends the start at once;
        # after the end, Ctrl-C is as it was.)
        signal.signal(signal.SIGINT, stop)
        try:
            loop.run(events)
        except KeyboardInterrupt:
            pass
        store.watch = None                       # (the end's "Saved" is not drawn over)
        _speak_the_last_words(store)
        if hardware is not None:
            hardware.shutdown()
        elif use_sim:
            if sys.stderr.isatty():
                print_again()
            from firmware.screens.menu import saved_screen
            try:
                out.show(saved_screen())
            except OSError as e:         # the terminal hung up: nothing to show it on
                log.info("simulator: the last frame could not be shown (%s)", e)
    finally:
        console.close()
        if interrupt is not None:
            signal.signal(signal.SIGINT, interrupt)
    logs.stopped()
    return 0


def _speak_the_last_words(store: Store) -> None:
    """Say the end's "Saved — safe to unplug" in the language the first start's question is asked
    in until one is stored: the locale's (:func:`firmware.console_greeting.greeting_language`, as the
    console's greeting). Quitting at that question under ``LANG=uk_UA.UTF-8`` said it in English."""
    from firmware.console_greeting import greeting_language
    from firmware.i18n import set_language
    lang = greeting_language(store)
    if lang is not None:
        set_language(lang)


def _start_notices(app: App, store: Store, failure: str | None) -> None:
    """What the panel says at start, on one scrollable screen (``App.start_notice``): a recovered
    database (each thing found on its own), a storage that keeps nothing (an overlay, tmpfs or
    read-only root), the previous run's crash (from the log file: the journal is in RAM on
    Raspberry Pi OS)."""
    from engine.text import Msg
    from firmware.doctor import storage_warning
    from firmware.i18n import say
    from firmware.logs import ON_PANEL
    shown = {ON_PANEL: True}        # (said on the panel in the player's words: not on the simulator's terminal)
    if store.recovery is not None:
        log.warning("%s", store.recovery.sentence(), extra=shown)
        for sentence in store.recovery.sentences():
            app.start_notice(sentence)
    warning = storage_warning(store.root)
    if warning is not None:
        log.warning("storage: %s", warning, extra=shown)
        app.start_notice(say(warning))
    if failure is not None:
        log.warning("the previous run stopped with an error: %s", failure, extra=shown)
        app.start_notice(say(Msg("The last run stopped with an error (details in {}): {}",
                                 str(store.root / "legatus.log"), failure)))
