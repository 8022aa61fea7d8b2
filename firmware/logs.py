"""Logging for the device program and the console: standard error (the journal, under systemd)
and a small rotating file in the state directory that survives a reboot.

Raspberry Pi OS keeps the systemd journal in RAM (``Storage=volatile``), so a crash at start is
gone after a power cycle; ``legatus.log`` in the state directory is not. :func:`setup` is called
first thing by ``legatus`` (firmware/cli.py): it sends every record to standard error at once and
keeps them in memory until :func:`attach_file` is given the state directory (after the store has
created it: this module never creates the directory, so the store's own durable creation of it is
not bypassed). An uncaught exception in any thread is logged as CRITICAL with its traceback
(:func:`install_excepthooks`), and the file is attached then if the directory exists.

Each run writes a start line (:data:`START`) and, when it ends normally, a stop line
(:data:`STOP`). :func:`previous_failure` reads the file before the new start line is written and
returns the first line of the last CRITICAL record of the previous run, for the panel to show:
a crash loop that systemd's start limit stopped leaves its reason on the card.

    from firmware.logs import setup, attach_file, previous_failure
    setup()                              # in main(), before the heavy imports
    failure = previous_failure(state)    # before attach_file writes this run's start line
    attach_file(state)
"""
from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import threading
import time
from collections import deque
from pathlib import Path
from types import TracebackType
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO, TypeGuard

if TYPE_CHECKING:
    from engine.text import Msg

LOG_FILE = "legatus.log"
MAX_BYTES = 256 * 1024      # three files of at most 256 KB: a few thousand lines of history
BACKUPS = 2
START = "start: legatus"
STOP = "stop: legatus ended normally"
CLOCK_UNSET = "clock not set"       # in the start line and a jump's line: the times after it may be wrong
JUMPED = "the wall clock jumped"
JUMP = 60.0                         # seconds the wall clock may move against the monotonic one unsaid
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
STDERR_FORMAT = "legatus: %(levelname)s %(name)s: %(message)s"
CONSOLE = "console"     # `legatus console`'s runs: their start and stop lines name it (previous_failure)
ON_PANEL = "on_panel"   # a record the panel says too (``extra={ON_PANEL: True}``): kept off a player's terminal

log = logging.getLogger(__name__)


def syslog_level(levelno: int) -> int:
    """The syslog level of a record's ``levelno`` (sd-daemon(3): SD_CRIT "<2>" … SD_DEBUG "<7>")."""
    for least, level in ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6)):
        if levelno >= least:
            return level
    return 7


def to_journal(stream: object) -> bool:
    """Whether ``stream`` is the systemd journal: systemd sets ``JOURNAL_STREAM`` to the device and
    inode of the service's journal stream (systemd.exec(5)), to be compared with the stream's own (a
    program started from the service, its standard error elsewhere, is not)."""
    try:
        device, inode = (int(x) for x in os.environ.get("JOURNAL_STREAM", "").split(":"))
        st = os.fstat(stream.fileno())  # type: ignore[attr-defined]
    except (ValueError, OSError, AttributeError):       # (io.UnsupportedOperation is an OSError)
        return False
    return (st.st_dev, st.st_ino) == (device, inode)


def journal_prefix(levelno: int, stream: object = None) -> str:
    """The level prefix (sd-daemon(3)) of a line printed past logging on ``stream`` (standard error)
    at ``levelno``: "<3>" for an error on the journal's stream, else ""."""
    return f"<{syslog_level(levelno)}>" if to_journal(sys.stderr if stream is None else stream) else ""


class _Journal(logging.Formatter):
    """Each line of a record on the journal's stream begins with its syslog level (sd-daemon(3)'s
    "<4>"): journald reads it per line, so a traceback's lines are the record's level too. Without
    it every line was "info": `journalctl -u legatus -p warning` showed nothing."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_level(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).split("\n"))


class _Kept(logging.Handler):
    """The last ``capacity`` records, kept for the log file until it is attached."""

    def __init__(self, capacity: int = 1000) -> None:
        super().__init__()
        self.buffer: deque[logging.LogRecord] = deque(maxlen=capacity)

    def emit(self, record: logging.LogRecord) -> None:
        self.buffer.append(record)


class _CardFile(logging.handlers.RotatingFileHandler):
    """The log file, which a full or failing card must not turn into a "--- Logging error ---"
    traceback on standard error at every record: one line says the file cannot be written, the
    records go on to standard error only (the journal), and the file is written again, with a
    line saying so, once the card takes it. While the simulator draws on the terminal
    (:func:`quiet_stderr`) nothing is printed: the trouble is handed on for a notice, the records
    are held (the newest :data:`HELD`) and written, with the line on the trouble, once the file
    takes them again."""

    HELD = 1000
    failing = False                # the last record could not be written
    _refused = False               # ... nor this one
    watching = False               # the clock is watched (not while the records kept before are written)
    _offset: float | None = None   # wall clock minus monotonic clock at the last record written

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.held: deque[logging.LogRecord] = deque(maxlen=self.HELD)
        self.trouble = ""          # why the file could not be written (the system's words)

    def handle(self, record: logging.LogRecord) -> bool:
        if self.watching:          # the clocks read as the record is made, not once the file's lock is free
            record.__dict__["clock_offset"] = record.created - time.monotonic()
        return super().handle(record)

    def emit(self, record: logging.LogRecord) -> None:
        self._refused = False
        if self.watching:
            self._watch_clock(record)
        super().emit(record)
        if self.failing and not self._refused:
            self.failing = False
            held, self.held = list(self.held), deque(maxlen=self.HELD)
            note = f"the log file {self.baseFilename} is written again"
            if held:
                note += f" (it could not be written: {self.trouble}; the {len(held)} records kept meanwhile follow)"
            for line in (note, *held):
                super().emit(line if isinstance(line, logging.LogRecord) else
                             logging.makeLogRecord({"name": __name__, "levelno": logging.WARNING,
                                                    "levelname": "WARNING", "msg": line}))
            if not self.failing:
                _say(note, None)

    def _watch_clock(self, record: logging.LogRecord) -> None:
        """A line before ``record`` when the wall clock moved by more than :data:`JUMP` against
        the monotonic one since the last record (NTP set a Pi's clock, from its last shutdown's
        time or 1970, or someone set it): the lines before it are stamped with the old time."""
        offset = record.__dict__.get("clock_offset")
        if not isinstance(offset, float):
            return
        last, self._offset = self._offset, offset
        if last is None or abs(offset - last) <= JUMP:
            return
        note = f"{JUMPED} by {offset - last:+.0f} s since the line before ({_clock_words()})"
        super().emit(logging.makeLogRecord({"name": __name__, "levelno": logging.INFO, "levelname": "INFO",
                                            "msg": note, "created": record.created, "msecs": record.msecs}))

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        error = sys.exc_info()[1]
        self._refused = True
        if self.stream is not None:
            try:                   # the text the card refused is dropped, not refused again and again
                self.stream.close()
            except (OSError, ValueError):
                pass               # (said just below: the card refuses this file)
            self.stream = None     # opened again at the next record
        if _quiet:                 # standard error does not print it either: kept for the file
            self.held.append(record)
        if not self.failing:
            self.failing = True
            self.trouble = str(error)
            _say(f"cannot write the log file {self.baseFilename} ({error}); "
                 "logging to standard error only until it can", error if isinstance(error, OSError) else OSError(str(error)))


def _clock_words() -> str:
    """Whether the wall clock is set, as the log says it (hw.clock: the kernel's NTP state)."""
    from hw.clock import synchronised, wall_plausible
    state = synchronised()
    if not wall_plausible():         # (1970, a fresh card's image date: unset, whatever the kernel says)
        return CLOCK_UNSET
    return "clock state unknown" if state is None else "clock set" if state else CLOCK_UNSET


def _say(line: str, trouble: OSError | None) -> None:
    """One line on the standard error of :func:`setup` (not through logging: the file fails); while
    the simulator draws on the terminal, nothing is printed: the file's ``trouble`` (None: it is
    written again) goes to the ``tap`` of :func:`quiet_stderr` as a notice (:func:`logged_notice`).
    On a player's terminal (the console's) the trouble is that notice, said in the player's
    language: the log's English line was printed there."""
    if _quiet:
        try:
            if trouble is not None:
                _quiet[-1](logged_notice(trouble))
        except Exception:  # noqa: BLE001 - no notice then: the line is kept for the file
            pass           # (the file's own note says it once it is written again)
        return
    if _players and trouble is None:         # (written again: the file's own note says so, as while quiet)
        return
    if _players and trouble is not None:     # a player's terminal (the console's): the notice, in their words
        try:
            from firmware.i18n import say
            line = say(logged_notice(trouble))
        except Exception:  # noqa: BLE001 - the log's own line then
            line = f"WARNING firmware.logs: {line}"
    else:
        line = f"WARNING firmware.logs: {line}"
    stream = _err or sys.stderr
    try:
        print(f"{journal_prefix(logging.WARNING, stream)}legatus: {line}", file=stream, flush=True)
    except (OSError, ValueError):
        pass                       # standard error is gone too: nowhere left to say it


_err: TextIO | None = None
_quiet: list[Callable[[str], None]] = []      # the tap while the simulator draws (quiet_stderr)
_err_handler: logging.Handler | None = None
_memory: _Kept | None = None
_file: logging.Handler | None = None
_path: Path | None = None
_lock = threading.Lock()
_run = ""                      # what runs: "" the device (or its simulator), CONSOLE the console
_players = False               # standard error is a player's terminal (setup's ``printed``: WARNING)


def setup(level: int = logging.INFO, stream: object = None, printed: int = logging.NOTSET, run: str = "") -> None:
    """Route the ``legatus`` program's records to standard error (or ``stream``) now and keep them
    for the log file (:func:`attach_file`). ``printed``: the least level printed on standard error
    (WARNING: a player's terminal, the simulator's or the console's: its warnings, not the log's
    INFO lines, and the log file's trouble in the player's language; the file keeps every record
    of ``level``). ``run``: :data:`CONSOLE` for `legatus console`, named in its start
    and stop lines. Idempotent: a second call changes nothing."""
    global _memory, _err, _err_handler, _run, _players
    root = logging.getLogger()
    with _lock:
        if _memory is not None:
            return
        _err, _run, _players = stream, run, printed >= logging.WARNING  # type: ignore[assignment]
        err = logging.StreamHandler(stream or sys.stderr)  # type: ignore[arg-type]
        err.setFormatter((_Journal if to_journal(err.stream) else logging.Formatter)(STDERR_FORMAT))
        err.setLevel(printed)
        if _players:             # the simulator's terminal: what its picture says in the player's words
            err.addFilter(lambda record: not record.__dict__.get(ON_PANEL))    # is not printed in English
        _err_handler = err
        _memory = _Kept()
        root.addHandler(err)
        root.addHandler(_memory)
        root.setLevel(level)
        logging.captureWarnings(True)     # gpiozero's pin factory fallbacks, say
    install_excepthooks()


def is_set_up() -> bool:
    """Whether :func:`setup` routes the records (a console served in-process by a test: not)."""
    return _memory is not None or _file is not None


def attach_file(directory: Path, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> Path | None:
    """Write ``directory/legatus.log`` (rotated at ``max_bytes``, ``backups`` old files kept) from
    now on, with the records kept since :func:`setup` first, then this run's start line. Returns
    the file, or None if it cannot be written (logged; the program goes on without it)."""
    global _file, _path
    from firmware import __version__
    with _lock:
        if _file is not None:
            return _path
        path = directory / LOG_FILE
        try:
            handler = _CardFile(path, maxBytes=max_bytes, backupCount=backups,
                                                           encoding="utf-8")
        except OSError as e:
            log.warning("cannot write the log file %s (%s); logging to standard error only", path, e)
            return None
        handler.setFormatter(logging.Formatter(FORMAT))
        root = logging.getLogger()
        if _memory is not None:
            for record in _memory.buffer:
                if record.levelno >= root.level:
                    handler.handle(record)
            _memory.buffer.clear()
            root.removeHandler(_memory)
        root.addHandler(handler)
        _file, _path = handler, path
    handler.watching = True        # from this run's start line on (the records kept were made earlier)
    log.info("%s %s (pid %d, cwd %s; %s)", f"{START} {_run}" if _run else START, __version__, os.getpid(),
             os.getcwd(), _clock_words())
    return path


def quiet_stderr(tap: Callable[[str], None]) -> Callable[[], None]:
    """While the terminal simulator draws its picture on the terminal standard error goes to:
    records are not printed there (they printed over the picture); the log file still has them
    (or keeps them for it), and each WARNING or worse of another thread than the main loop's (the
    serial link's) is given to ``tap`` as one line (for a notice), once while it says the same: the
    record's ``said`` (``extra={"said": Msg(...)}``), the sentence for the player, where it has one.
    The log file failing is given to ``tap`` as its notice (a Msg: :func:`logged_notice`), once
    each time, instead of the line printed on the terminal. Returns the function that prints them
    on standard error again."""
    _quiet.append(tap)
    handler = _err_handler
    main, last = threading.main_thread().ident, [""]

    def held(record: logging.LogRecord) -> bool:
        # Only other threads' (the serial link's, the worker's): the main loop shows its own
        # failures, and a notice of a record the drawing made would make the next one, for ever.
        if record.levelno >= logging.WARNING and record.thread != main:
            try:
                line = record.getMessage().splitlines()[0][:200] if record.getMessage() else record.levelname
                if line != last[0]:
                    last[0] = line
                    said = record.__dict__.get("said")      # the sentence for the player (a Msg), if it has one
                    tap(said if _is_msg(said) else line)
            except Exception:  # noqa: BLE001 - a notice that cannot be made: the log file has it
                pass                   # (the record itself is written to the file all the same)
        return False

    def loud() -> None:
        if tap in _quiet:
            _quiet.remove(tap)
        if handler is not None:
            handler.removeFilter(held)
    if handler is not None:
        handler.addFilter(held)
    return loud


def _is_msg(value: object) -> TypeGuard[Msg]:
    from engine.text import Msg
    return isinstance(value, Msg)


def logged_notice(trouble: OSError) -> Msg:
    """The notice of the log file's trouble, its reason in the reader's words (the system's own
    text is English: the file has it once it is written again)."""
    from engine.text import Msg
    from firmware.store.reasons import reason
    return Msg("The log file cannot be written ({}): the device goes on without it.", reason(trouble))


def stopped() -> None:
    """Log that this run ended normally (the next start then reports no failure; a console's
    says it is the console's, and a device's failure before it is still reported)."""
    log.info(STOP.replace("legatus", f"legatus {_run}") if _run else STOP)


def previous_failure(directory: Path, limit: int = 64 * 1024) -> str | None:
    """The first line of the last CRITICAL record written by the previous run in
    ``directory/legatus.log`` (read from its last ``limit`` bytes), or None if that run ended
    normally, was cut off by a power loss, or there is no log. Never raises. The runs of `legatus
    console` since the device's last start count with it: theirs are reported too, and their
    normal end does not hide the device's failure before them."""
    path = directory / LOG_FILE
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - limit))
            text = f.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return None
    except OSError as e:
        log.warning("cannot read %s to see how the last run ended (%s)", path, e)
        return None
    lines = text.splitlines()
    # The runs since the device's last start: a `legatus console` run after it (its start and stop
    # lines name it) does not hide the device's failure; its own failure is reported as well.
    starts = [i for i, line in enumerate(lines) if START in line and f"{START} {CONSOLE} " not in line]
    run = lines[starts[-1]:] if starts else lines
    failure: str | None = None
    unset = unsure = False         # the clock was not set at the run's start or its last jump; at the failure
    for line in run:
        if STOP in line:
            failure = None
        elif " CRITICAL " in line:
            failure, unsure = line, unset
        elif START in line or JUMPED in line:
            unset = CLOCK_UNSET in line
    if failure is None:
        return None
    stamp, _, rest = failure.partition(" CRITICAL ")
    message = rest.split(": ", 1)[1] if ": " in rest else rest
    return f"{'~' if unsure else ''}{stamp[:19]} {message}".strip()


def install_excepthooks() -> None:
    """Log uncaught exceptions of the main thread and of other threads as CRITICAL."""

    def main_hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        _critical(f"stopped by an error: {kind.__name__}: {exc}", (kind, exc, tb))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        name = args.thread.name if args.thread is not None else "?"
        if args.exc_value is None:
            return
        _critical(f"thread {name} stopped by an error: {args.exc_type.__name__}: {args.exc_value}",
                  (args.exc_type, args.exc_value, args.exc_traceback))

    sys.excepthook = main_hook
    threading.excepthook = thread_hook


def _critical(message: str, exc_info: tuple[type[BaseException], BaseException, TracebackType | None]) -> None:
    if _file is None and _path is None:
        directory = _state_dir_guess()
        if directory is not None and directory.is_dir():
            attach_file(directory)
    logging.getLogger("legatus").critical(message.replace("\n", " "), exc_info=exc_info)
    if _file is not None:
        _file.flush()


_state_dir: Path | None = None


def remember_state_dir(directory: Path) -> None:
    """Where the log file goes if the program dies before :func:`attach_file` was called."""
    global _state_dir
    _state_dir = directory


def _state_dir_guess() -> Path | None:
    return _state_dir


def reset_for_tests() -> None:
    """Remove the handlers this module added (tests only)."""
    global _memory, _file, _path, _state_dir, _err_handler, _run, _players
    root = logging.getLogger()
    with _lock:
        for handler in (_memory, _file):
            if handler is not None:
                root.removeHandler(handler)
                handler.close()
        for handler in list(root.handlers):
            if isinstance(handler, logging.StreamHandler) and handler.formatter is not None \
                    and handler.formatter._fmt == STDERR_FORMAT:
                root.removeHandler(handler)
        _memory = _file = _path = _state_dir = _err_handler = None
        _run, _players = "", False
        _quiet.clear()
    sys.excepthook = sys.__excepthook__
    threading.excepthook = threading.__excepthook__
