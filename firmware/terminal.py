"""The terminal simulator's display and keyboard: 128×64 frames as braille, keys as buttons."""
from __future__ import annotations

import atexit
import logging
import os
import queue
import signal
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from PIL import Image

from engine.text import N_, Msg

log = logging.getLogger(__name__)

# braille dot bit for (dx, dy) inside a 2×4 cell
_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
         (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))

# under the frame, as wide as the braille frame at most (66 columns): a wider one wrapped in an
# 80-column terminal
KEY_HELP = N_("arrows  Enter=press  a/b  A/B=hold a/b  k=KEY3  q=quit")


def key_help(lang: str | None = None) -> str:
    """The key line in ``lang``, else the language the device speaks now (a catalog line: 66
    columns at most)."""
    from firmware.i18n import say
    return say(KEY_HELP, lang)


def keys_language(settings: Callable[[], dict[str, Any]]) -> Callable[[], str | None]:
    """The language of the simulator's key line: until a language is stored (``settings()``, the
    store's, has none: the first start's question is up), the locale's (``LANG=ru_RU.UTF-8``: ru),
    as the question opens on it; then None, the device's. A Russian player who started it was
    told the keys in English under the three-language question."""
    from firmware.i18n import locale_language
    chosen = [False]

    def lang() -> str | None:
        if not chosen[0]:
            try:
                chosen[0] = "language" in settings()
            except Exception:  # noqa: BLE001 - unreadable settings: the device's language
                log.warning("the settings could not be read for the key line", exc_info=True)
                return None
        return None if chosen[0] else locale_language(os.environ)
    return lang

def too_small(size: tuple[int, int], need: tuple[int, int], lang: str | None = None) -> str:
    """What the simulator shows instead of a frame the terminal is too small for, in ``lang``, else
    the language the device speaks now: the key line's (:func:`keys_language`; a Russian player
    was told in English, and on the first start, before a language is stored, still was)."""
    from firmware.i18n import say
    return say(Msg("this terminal is {}×{} characters; the simulator needs {}×{}. Make the window larger "
                   "or the font smaller.", size[0], size[1], need[0], need[1]), lang)


# terminal input sequences -> logical key events
KEYMAP: dict[bytes, str] = {
    # (the arrows, ESC [ A … or ESC O A …, with or without modifiers: read_keys)
    b"\r": "press", b"\n": "press", b" ": "press",
    b"a": "a", b"b": "b", b"A": "a:hold", b"B": "b:hold", b"u": "b:hold", b"k": "key3",
    b"w": "up", b"s": "down", b"d": "right", b"h": "left", b"j": "down", b"l": "right",
}


def to_braille(img: Image.Image) -> str:
    """A 1-bit 128×64 image as 16 lines of 64 braille characters (lit pixel = dot)."""
    px = img.convert("1").load()
    assert px is not None
    w, h = img.size
    out = []
    for cy in range(0, h, 4):
        row = []
        for cx in range(0, w, 2):
            bits = 0
            for dx, dy, bit in _DOTS:
                x, y = cx + dx, cy + dy
                if x < w and y < h and px[x, y]:
                    bits |= bit
            row.append(chr(0x2800 + bits))
        out.append("".join(row))
    return "\n".join(out)


def to_blocks(img: Image.Image) -> str:
    """The same frame with half-block characters (for terminals without braille): 32 lines."""
    px = img.convert("1").load()
    assert px is not None
    w, h = img.size
    chars = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}
    return "\n".join("".join(chars[(1 if px[x, y] else 0, 1 if px[x, y + 1] else 0)]
                             for x in range(w)) for y in range(0, h, 2))


_ARROWS = {b"A": "up", b"B": "down", b"C": "right", b"D": "left"}

# The same physical keys in the Russian and Ukrainian layouts (ЙЦУКЕН), for a player who types in
# Cyrillic: a/b/k/q were ф/и/л/й there and did nothing, not even quit.
_CYRILLIC = {"й": b"q", "ц": b"w", "г": b"u", "ф": b"a", "ы": b"s", "і": b"s", "в": b"d", "р": b"h",
             "о": b"j", "л": b"k", "д": b"l", "и": b"b", "Ф": b"A", "И": b"B"}


def parse_keys(data: bytes) -> list[str]:
    """Logical keys in a chunk of terminal input (unknown bytes are ignored)."""
    return read_keys(data)[0]


def _sequence_end(data: bytes, i: int) -> int | None:
    """Where the escape sequence at ``data[i]`` ends (ECMA-48: ESC [ parameters… final, ESC O x,
    or ESC alone), or None when ``data`` ends before it does."""
    if i + 1 >= len(data):
        return None
    if data[i + 1:i + 2] == b"O":
        return i + 3 if i + 2 < len(data) else None
    if data[i + 1:i + 2] != b"[":
        return i + 1                               # Esc alone (or Alt+key: the key follows)
    j = i + 2
    while j < len(data) and 0x20 <= data[j] <= 0x3F:   # parameters (1;2) and intermediates
        j += 1
    return j + 1 if j < len(data) else None


def read_keys(data: bytes) -> tuple[list[str], bytes]:
    """The logical keys in ``data``, and the bytes at its end that begin an escape sequence not
    complete yet, to be read again with what comes next. A read cut an arrow's ``\x1b[B`` in two
    (a held arrow fills the terminal's buffer faster than one read takes it), and its ``B`` was
    hold B, the undo question; an up arrow's ``A`` was hold A. Every escape sequence is read whole:
    an arrow with Shift, Ctrl or Alt (``\x1b[1;2B``) is the arrow (its ``B`` was hold B too), any
    other (Home, F1, Delete) nothing. A letter in the Cyrillic layout is the key it shares (ф is a),
    its two bytes read whole too."""
    keys: list[str] = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"\x1b":
            end = _sequence_end(data, i)
            if end is None:
                return keys, data[i:]
            if end - i > 1 and data[end - 1:end] in _ARROWS:
                keys.append(_ARROWS[data[end - 1:end]])
            i = end
            continue
        chunk = data[i:i + 1]
        if data[i] >= 0xC0:                    # a character of more than one byte (UTF-8): a Cyrillic key?
            end = i + (2 if data[i] < 0xE0 else 3 if data[i] < 0xF0 else 4)
            if end > len(data):
                return keys, data[i:]              # the rest comes with the next read
            chunk = _CYRILLIC.get(data[i:end].decode("utf-8", "replace"), b"")
            i = end - 1
        if chunk in KEYMAP:
            keys.append(KEYMAP[chunk])
        elif chunk == b"q":
            keys.append("quit")
        i += 1
    return keys, b""


def half_blocks() -> bool:
    """Whether the simulator draws with half-blocks: ``LEGATUS_BLOCKS=1`` (``0``: braille), else in
    the Linux console (``TERM=linux``, a Pi's own screen without a desktop), whose fonts have the
    block characters but no braille: its frame was rows of diamonds, the way out in the README."""
    chosen = os.environ.get("LEGATUS_BLOCKS")
    if chosen in ("0", "1"):
        return chosen == "1"
    return os.environ.get("TERM") == "linux"


class TerminalScreen:
    """Draws frames in place on a TTY; ``blank`` clears the panel area.

    A terminal too small for the frame (66×20 characters, 130×36 with ``LEGATUS_BLOCKS=1``) gets a
    line saying so instead: the frame wrapped and scrolled into an unreadable mess. Meanwhile
    ``hidden`` is true and the loop takes no key but q: pressed blind, they acted unseen. ``resized``
    (called on SIGWINCH) asks the loop to draw the frame again, so a window made larger shows it,
    and so does ``fg`` after Ctrl-Z (SIGCONT), the keyboard back in cbreak mode."""

    def __init__(self, out: IO[str] = sys.stdout, blocks: bool | None = None,
                 resized: Callable[[], None] | None = None,
                 keys_in: Callable[[], str | None] | None = None) -> None:
        self.out = out
        self.keys_in = keys_in    # the key line's language (:func:`keys_language`; None: the device's)
        self.blocks = half_blocks() if blocks is None else blocks
        self.blanked = False
        self.hidden = False       # too small for the frame now: the loop takes no key but quit
        self.gone = False         # the terminal hung up: no frame is drawn any more (show)
        self._size: tuple[int, int] | None = None
        if resized is not None:
            signal.signal(signal.SIGWINCH, lambda *_: _outside_the_handler(resized))
            signal.signal(signal.SIGTSTP, _suspend)
            signal.signal(signal.SIGCONT, lambda *_: _cbreak_again(lambda: _outside_the_handler(resized)))
        self.out.write("\x1b[2J")

    def _terminal_size(self) -> tuple[int, int] | None:
        try:
            size = os.get_terminal_size(self.out.fileno())
        except (AttributeError, ValueError, OSError):    # not a terminal (a test's buffer): draw as is
            return None
        return (size.columns, size.lines) if size.columns and size.lines else None

    def show(self, img: Image.Image) -> None:
        """Draw ``img`` in place. Once the terminal is gone (its window closed, the ssh link dropped:
        a write fails with EIO) frames are dropped, said once in the log: the keyboard reader sees the
        same hang-up and puts the quit that ends the program normally. A frame due before that quit
        was taken (the idle blanking, a key read before the hang-up) stopped it "by an error", a
        traceback in legatus.log."""
        if self.gone:
            return
        try:
            self._draw(img)
        except OSError as e:
            self.gone = True
            log.info("display: the terminal is gone (%s); its frames are dropped", e)

    def _draw(self, img: Image.Image) -> None:
        art = to_blocks(img) if self.blocks else to_braille(img)
        width = len(art.split("\n")[0])
        need = (width + 2, art.count("\n") + 1 + 4)     # the box, the key line and the line after it
        size = self._terminal_size()
        if size != self._size:                           # a new size: what was drawn before is gone
            self._size = size
            self.out.write("\x1b[2J")
        self.hidden = size is not None and (size[0] < need[0] or size[1] < need[1])
        lang = self.keys_in() if self.keys_in is not None else None
        if size is not None and self.hidden:
            # wrapped between words at the terminal's width (the terminal cut it anywhere: a word in
            # two, the stop alone on a row)
            said = textwrap.wrap(f"legatus: {too_small(size, need, lang)}", size[0], break_on_hyphens=False)
            self.out.write("\x1b[H\x1b[2J" + "\n".join(said) + "\n")
            self.out.flush()
            return
        framed = "\n".join("│" + line + "│" for line in art.split("\n"))
        self.out.write("\x1b[H┌" + "─" * width + "┐\n" + framed + "\n└" + "─" * width + "┘\n"
                       + key_help(lang) + "\x1b[K\n")
        self.out.flush()

    def blank(self, blanked: bool, img: Image.Image) -> None:
        self.blanked = blanked
        self.show(Image.new("1", img.size, 0) if blanked else img)

    def contrast(self, level: int) -> None:
        pass


class ScriptError(ValueError):
    """A ``--script`` file that cannot be read or has a line that is not a key: its message (a
    :class:`engine.text.Msg`, ``args[0]``, said in the player's language) says which file and line,
    and what is allowed (the key names and ``wait`` as the file has them)."""


MAX_WAIT = 86400        # a script's ``wait``: at most a day of the simulated clock at a time


def script_events(path: str) -> list[tuple[Any, ...]]:
    """Key names, one per line ('#' comments); ``wait S`` advances the simulated clock.

    Raises :class:`ScriptError` for a file that cannot be read, an unknown key name (a typo would
    otherwise be a key silently not pressed) or a ``wait`` without a number of seconds up to a day
    (``wait inf`` or ``wait 1e400`` set the simulated clock to infinity, ``wait 1e300`` beyond
    where adding seconds changes it: no later ``wait`` turned the screen off). A byte order mark
    (Notepad's UTF-8) is not part of the first line: that key was refused as not a key, the mark
    unseen in the message."""
    from firmware.i18n import _
    from firmware.screens.widgets.keys import KEYS
    try:
        if path == "-" and sys.stdin is None:
            raise ScriptError(Msg("--script -: there is no standard input to read the keys from"))
        if path == "-" and stdin_is_tty():    # (typed: nothing said it waited for the keys' names)
            print("legatus: " + _("type the key names, one a line, then Ctrl-D"), file=sys.stderr)
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ScriptError(Msg("--script {}: cannot be read (it is not UTF-8 text: byte {})", path, e.start + 1)) from e
    except OSError as e:
        from firmware.store.reasons import reason
        raise ScriptError(Msg("--script {}: cannot be read ({})", path, reason(e))) from e
    out: list[tuple[Any, ...]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] == "wait":
            try:
                seconds = float(words[1]) if len(words) == 2 else -1.0
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds <= MAX_WAIT:
                raise ScriptError(Msg("--script {}, line {}: '{}': wait takes a number of seconds from 0 to {} "
                                      "(wait 200)", path, n, line, MAX_WAIT))
            out.append(("wait", seconds))
        elif line in KEYS:
            out.append(("key", line))
        else:
            raise ScriptError(Msg("--script {}, line {}: '{}' is not a key; one per line: {}, or wait SECONDS",
                                  path, n, line, ", ".join(KEYS)))
    return out


class ScriptScreen:
    """For scripted runs: prints every frame with a header line naming the event before it, in
    UTF-8 whatever the locale (as the console writes its replies): under a non-UTF-8 one the
    first frame was a UnicodeEncodeError. They are drawn as the simulator's are (:func:`half_blocks`:
    ``LEGATUS_BLOCKS=1``, or the Linux console unless ``LEGATUS_BLOCKS=0``): braille was printed
    whatever it said, and on a Pi's own screen (``TERM=linux``) whatever the README said, boxes in a
    font without it."""

    def __init__(self, out: IO[str] | None = None, blocks: bool | None = None) -> None:
        self.blocks = half_blocks() if blocks is None else blocks
        if out is None:
            out = sys.stdout
            reconfigure = getattr(out, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(encoding="utf-8")
        self.out = out
        self.label = "start"
        self.blanked = False

    def show(self, img: Image.Image) -> None:
        self.out.write(f"--- frame after: {self.label}{' (blank)' if self.blanked else ''}\n")
        self.out.write((to_blocks(img) if self.blocks else to_braille(img)) + "\n")
        self.out.flush()

    def blank(self, blanked: bool, img: Image.Image) -> None:
        self.blanked = blanked
        self.show(Image.new("1", img.size, 0) if blanked else img)

    def contrast(self, level: int) -> None:
        pass


def stdin_is_tty() -> bool:
    try:
        return os.isatty(sys.stdin.fileno())
    except (ValueError, OSError):
        return False


def _is_tty(out: IO[str]) -> bool:
    try:
        return os.isatty(out.fileno())
    except (AttributeError, ValueError, OSError):
        return False


def terminal_problem(out: IO[str] = sys.stdout) -> str | None:
    """Why the simulator cannot run in this terminal (a line to print), or None: its keys need a
    terminal on stdin (``legatus --sim < keys.txt`` is told of ``--script -``), its frame a terminal
    on stdout (``legatus --sim > file`` ran blind: the frames went to the file, the keys acted
    unseen and nothing said so), one that moves the cursor (not TERM=dumb), and braille and box
    characters that the output's encoding can write (a non-UTF-8 locale made the first frame a
    UnicodeEncodeError). Said in the device's language; the encoding's in English where it cannot
    write that language either."""
    from firmware.i18n import _
    if not stdin_is_tty():
        return "legatus: " + _("the simulator needs a terminal for its keys; use --script FILE to drive it from a "
                               "file of key names ('--script -' reads them from this input), or 'legatus console' "
                               "for the line protocol.")
    if not _is_tty(out):
        return "legatus: " + _("the simulator draws its frame in the terminal, but its output goes to a file or a "
                               "pipe; run it without redirecting the output, or use --script FILE to print every "
                               "frame as text.")
    if os.environ.get("TERM") == "dumb":   # (Emacs's shell): the frame's cursor moves were printed as text
        return "legatus: " + _("this terminal (TERM=dumb) cannot move the cursor to draw the simulator's "
                               "frame in place: run it in a terminal emulator, or drive it with --script FILE")
    encoding = getattr(out, "encoding", None) or "ascii"
    try:
        ("\u28ff│┌─▀▄█" + key_help()).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        said = Msg("this terminal's encoding ({}) cannot show the simulator's frame (braille and box characters): run "
                   "it with a UTF-8 locale, e.g. LANG=C.UTF-8 legatus", encoding)
        from firmware.i18n import say
        try:                    # (a Cyrillic one, KOI8-R, writes the player's words, though no braille)
            return ("legatus: " + say(said)).encode(encoding).decode(encoding)
        except (UnicodeEncodeError, LookupError):
            return f"legatus: {said}"
    return None


class _Modes:
    """The terminal's mode before the keyboard reader put it in cbreak mode, by file descriptor. The
    program may end while that thread waits in its read (Ctrl-C, SIGTERM, an error): the terminal was
    then left without echo and line editing. At exit the main thread puts it back (atexit), and so
    it does while Ctrl-Z has stopped the program (the shell gets its terminal as it was).

    One lock orders the two threads: the reader's ``q`` let the main thread exit while the reader was
    between forgetting the mode and putting it back (its put-back then died with the program: the
    shell echoed nothing), and a reader slow to start could put the terminal in cbreak mode after the
    exit had put it back. Once ``closed`` (the exit's put-back) no thread takes the terminal again."""

    def __init__(self) -> None:
        import threading
        self.saved: dict[int, list[Any]] = {}
        self.closed = False
        self.lock = threading.RLock()     # (re-entered by a signal handler in the main thread)


_MODES = _Modes()


def _restore_mode(fd: int, mode: list[Any]) -> None:
    """``mode`` back on ``fd`` once the output written before is out (TCSADRAIN: a put-back at once,
    TCSANOW, left the pseudo-terminal of tests/test_simulator.py without echo after Ctrl-C one run
    in two)."""
    import termios
    try:
        termios.tcsetattr(fd, termios.TCSADRAIN, mode)
    except (termios.error, OSError) as e:      # a terminal that hung up keeps no mode
        log.info("keyboard: the terminal mode could not be restored (%s)", e)


def _restore_modes(final: bool = False) -> None:
    """Every terminal taken put back as it was; ``final`` (at exit): and none taken again."""
    with _MODES.lock:
        _MODES.closed = _MODES.closed or final
        for fd, mode in list(_MODES.saved.items()):
            _restore_mode(fd, mode)
            if final:
                _MODES.saved.pop(fd, None)


atexit.register(lambda: _restore_modes(final=True))


def _outside_the_handler(call: Callable[[], None]) -> None:
    """``call()`` on a thread of its own: a signal handler runs in the main thread between two of its
    steps, maybe inside the loop's ``queue.Queue.get`` with the queue's lock held, where a ``put``
    would wait for that lock for ever (a window dragged wider sends SIGWINCH after SIGWINCH)."""
    import threading
    threading.Thread(target=call, name="legatus-signal", daemon=True).start()


def _cbreak_again(redraw: Callable[[], None]) -> None:
    """After Ctrl-Z and ``fg`` the shell hands the terminal back in its own mode (echo, whole
    lines): every key needed Enter and was echoed over the frame, which was not drawn again."""
    import termios
    import tty
    with _MODES.lock:
        for fd in [] if _MODES.closed else list(_MODES.saved):
            try:
                tty.setcbreak(fd, termios.TCSADRAIN)
            except (termios.error, OSError) as e:
                log.info("keyboard: cbreak mode could not be set again (%s)", e)
    redraw()


def _suspend(signum: int, frame: Any) -> None:
    """Ctrl-Z: the terminal as it was, then stopped (the default action) until continued; cbreak
    mode again after, also where the stop was discarded (a process group with no shell to take the
    terminal, as when a terminal emulator runs legatus itself)."""
    _restore_modes()
    signal.signal(signal.SIGTSTP, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTSTP)
    signal.signal(signal.SIGTSTP, _suspend)
    _cbreak_again(lambda: None)


def keyboard_reader(events: queue.Queue[tuple[Any, ...]]) -> None:
    """The simulator's keyboard (a thread): keys from the terminal in cbreak mode onto the device
    loop's queue as ``("key", name, at)``, ``at`` the monotonic time they were read (as a button's
    edge has its time: the loop drops a key typed while "Saving…" was up, firmware/saving_sign.py,
    which it takes only once the save is done); ``("quit",)`` on q, end of input or a hang-up."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    with _MODES.lock:
        if _MODES.closed:                # the program is ending: the terminal stays as it was
            events.put(("quit",))
            return
        old = termios.tcgetattr(fd)
        _MODES.saved[fd] = old           # (put back at exit, and while stopped by Ctrl-Z)
        tty.setcbreak(fd)
    cut = b""                          # the start of a key sequence the last read ended in
    try:
        while True:
            try:
                data = os.read(fd, 32)
            except OSError as e:         # EIO: the terminal hung up
                log.info("keyboard: the terminal is gone (%s); stopping", e)
                data = b""
            at = time.monotonic()        # (read at once by this thread, while the loop may be saving)
            if not data:
                events.put(("quit",))
                return
            keys, cut = read_keys(cut + data)
            for key in keys:
                events.put(("key", key, at))
                if key == "quit":
                    return
    finally:
        with _MODES.lock:                # forgotten only once put back (the exit waits for it)
            if _MODES.saved.pop(fd, None) is not None:
                _restore_mode(fd, old)
