"""``legatus``: the device program (or its terminal simulator) and ``legatus console``."""
from __future__ import annotations

import argparse
import logging
import os
import sys
from contextlib import contextmanager

from firmware.start_language import player_language

TYPE_CHECKING = False          # (typing is not imported at every start: the splash waits for it)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, NoReturn


def N_(text: str) -> str:
    """Marks a text for the catalog (engine.text's N_, without importing it at every start)."""
    return text


# argparse's own words that `legatus` can show (its usage, help and refusals), catalogued in the
# shared domain so that a refusal is said in the player's language: argparse takes them through
# gettext (tests/test_cli_language.py checks each is still argparse's own text).
ARGPARSE_TEXTS = (
    N_("usage: "), N_("%(prog)s: error: %(message)s\n"), N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"), N_("expected one argument"), N_("ignored explicit argument %r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("show this help message and exit"),
    N_("positional arguments"), N_("options"),
)
_spoken = ["en"]        # the language `legatus` says its usage, help and refusals in now
# the console's own commands (firmware.console.BUILTINS, without importing it at every start) but for
# help, version and quit, which a person means of `legatus` itself (--help, --version)
CONSOLE_COMMANDS = ("new", "commit", "state", "undo", "log", "actions", "roll", "settings", "reveal", "history", "export",
                    "players")


def _(text: str) -> str:
    """``text`` in the language spoken now (English until a refusal or the help is said again in
    the player's: :func:`_main`); the catalogs are read only then, never at a normal start."""
    if _spoken[0] == "en":
        return text
    from firmware.i18n import catalog
    return catalog(_spoken[0]).gettext(text)


def _ngettext(singular: str, plural: str, n: int) -> str:
    if _spoken[0] == "en":
        return singular if n == 1 else plural
    from firmware.i18n import catalog
    return catalog(_spoken[0]).ngettext(singular, plural, n)


class _SayAgain(Exception):
    """The usage, the help or a refusal is to be said in another language than English."""

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        self.lang = lang


class _Parser(argparse.ArgumentParser):
    """argparse's parser, which says its help and refusals in the player's language: in English
    it says them as argparse does; else it stops (:class:`_SayAgain`) and :func:`_main` parses the
    same words again with the parser and argparse's own words in that language."""

    argv: list[str] = []        # the words parsed (--state-dir names where the device's language is)

    def _other_language(self) -> None:
        if _spoken[0] == "en":
            lang = player_language(self.argv)
            if lang != "en":
                raise _SayAgain(lang)

    def error(self, message: str) -> NoReturn:
        self._other_language()
        super().error(message)

    def print_help(self, file: Any = None) -> None:
        self._other_language()
        super().print_help(file)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A console command given to `legatus` itself (`legatus export`, `legatus history`: the
        README names them) is refused with where it is typed: argparse's "invalid choice: 'export'
        (choose from 'console', 'doctor')" did not say."""
        if action.dest == "mode" and value in CONSOLE_COMMANDS:
            raise argparse.ArgumentError(action, _(
                "'{}' is a command of the console: start 'legatus console' and type it there ('help' lists the "
                "commands), or send it in: echo '{}' | legatus console").format(value, value))
        super()._check_value(action, value)


@contextmanager
def _said_in(lang: str) -> Iterator[None]:
    """argparse's words, and ours, in ``lang`` while the command line is parsed again (argparse
    takes its words through the module's ``_`` and ``ngettext``, gettext's by default)."""
    ours = {"_": _, "ngettext": _ngettext}
    was = {name: getattr(argparse, name) for name in ours}, _spoken[0]
    _spoken[0] = lang
    for name, said in ours.items():
        setattr(argparse, name, said)
    try:
        yield
    finally:
        _spoken[0] = was[1]
        for name, said in was[0].items():
            setattr(argparse, name, said)


def _columns() -> int:
    """``shutil.get_terminal_size().columns``, worked out as shutil does (``$COLUMNS``, else the
    terminal's width, else 80) without importing shutil, and bz2 and lzma with it, at every start."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    if sys.__stdout__ is None:
        return 80
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's own help layout (the width it would take: the terminal's, less 2)."""
    return argparse.HelpFormatter(prog, width=_columns() - 2)


def _named(text: str) -> str:
    """A path or port's value: not empty (``--state-dir "$DIR"`` with DIR unset took the default
    state directory, ``--script ''`` ran the interactive simulator, ``--serial ''`` served no port,
    ``--config ''`` read the default file, each without a word)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_("empty (a shell variable that is not set?): give a name, or leave the "
                                           "option out for its default"))
    return text


def _baud(text: str) -> int:
    """``--baud``'s value: one of the serial port's standard speeds (hw.serial_link.BAUD_RATES)."""
    from hw.serial_link import BAUD_RATES
    try:
        rate: int | None = int(text)
    except ValueError:
        rate = None
    if rate not in BAUD_RATES:
        raise argparse.ArgumentTypeError(_("invalid speed {}: a serial port's speed is one of {} bit/s (default "
                                           "115200), the same at both ends").format(repr(text), ", ".join(map(str, BAUD_RATES))))
    return rate


def _parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """`legatus`'s arguments, their help in the language spoken (:func:`_said_in`)."""
    state_dir = _("where sessions are kept (default $LEGATUS_STATE_DIR or ~/.local/state/legatus)")
    config = _("hardware config TOML (default $LEGATUS_CONFIG or ~/.config/legatus/config.toml)")
    baud = _("the serial port's speed (default 115200; only with --serial)")
    p = _Parser(prog="legatus", description=_("Legatus, the table companion."), formatter_class=_formatter)
    p.add_argument("--state-dir", metavar="DIR", type=_named, help=state_dir)
    p.add_argument("--sim", action="store_true", help=_("run the terminal simulator even on a Pi (its keys and "
                   "frame need the terminal: not with input or output redirected; see --script)"))
    p.add_argument("--config", metavar="FILE", type=_named, help=_("{}: the Pi's panel and buttons, so not with --sim or "
                   "--script, nor where no Pi is found ('legatus doctor --config FILE' checks a file)").format(config))
    p.add_argument("--script", metavar="FILE", type=_named, help=_("simulator: read key names from this file ('-' for "
                   "stdin), one a line (up down left right press a b a:hold b:hold key3; 'wait S' lets S seconds "
                   "pass), instead of the keyboard, print each frame, exit at its end (not with --serial)"))
    p.add_argument("--serial", metavar="PORT", type=_named, help=_("also serve the console protocol on this serial port"))
    p.add_argument("--baud", metavar="N", type=_baud, help=baud)
    p.add_argument("--version", action="store_true", help=_("print the version and exit"))
    sub = p.add_subparsers(dest="mode")
    # (each subcommand's own --help says what it is and how to go on: it said only its usage and options)
    c = sub.add_parser("console", help=_("the line protocol on stdin/stdout (or --serial PORT)"), description=_(
        "The console: Legatus's line protocol on standard input and output (or on a serial port with --serial "
        "PORT), one JSON reply a request line; 'help' lists the commands, docs/protocol.md describes them; 'quit' "
        "or Ctrl-D ends."), formatter_class=_formatter)
    c.add_argument("--state-dir", dest="console_state_dir", metavar="DIR", type=_named, help=state_dir)
    c.add_argument("--serial", dest="console_serial", metavar="PORT", type=_named,
                   help=_("serial port or pyserial URL (default: stdin/stdout)"))
    c.add_argument("--baud", dest="console_baud", metavar="N", type=_baud, help=baud)
    d = sub.add_parser("doctor", help=_("check the Pi's set-up for Legatus: profile, pins, display, "
                       "buses, storage, clock; each problem with its fix"), description=_(
        "Checks the Pi's set-up for Legatus (the board, the profile and its pins, the panel, the buses, the state "
        "directory, the clock) and prints each problem with its fix; exit status 1 if anything failed. To check the "
        "installed service, run it as the service's user with LEGATUS_STATE_DIR=/var/lib/legatus."),
        formatter_class=_formatter)
    d.add_argument("--state-dir", dest="doctor_state_dir", metavar="DIR", type=_named,
                   help=_("the state directory to check (default $LEGATUS_STATE_DIR or ~/.local/state/legatus)"))
    d.add_argument("--config", dest="doctor_config", metavar="FILE", type=_named, help=config)
    for each in (p, c, d):
        each.argv = list(argv or [])
    return p


def main(argv: list[str] | None = None) -> int:
    """The ``legatus`` command: its exit status (130 when Ctrl-C stops it before the program
    has taken its keys over: nothing was acknowledged yet, so a line says so, not a traceback)."""
    _open_the_closed_streams()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("legatus: " + _interrupted(sys.argv[1:] if argv is None else list(argv)), file=sys.stderr)
        return 130
    except BrokenPipeError:      # what it printed had no reader any more (``legatus --version | true``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
        return 0


def _open_the_closed_streams() -> None:
    """A standard stream the shell closed (``legatus --sim <&-``, ``legatus console <&-``, ``2>&-``)
    is opened on the null device, as if it had been redirected there: Python gave it as None and
    the start failed with a traceback (``'NoneType' object has no attribute 'fileno'``) where a
    line says what to do (the simulator needs a terminal for its keys), or the console read its
    end of input; and its file descriptor, left free, would have been the next file opened (the
    log, the database), which a print would then write into."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:               # (closed: the lowest free descriptor, so open gives this one)
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", buffering=1, closefd=False,
                                    errors="strict" if fd == 0 else "backslashreplace"))


def _interrupted(words: list[str]) -> str:
    """That Ctrl-C stopped the start, in the player's language (:func:`firmware.start_language.player_language`), or in
    English if even that is interrupted or cannot be read."""
    said = N_("stopped by Ctrl-C.")
    try:
        with _said_in(player_language(words)):
            return _(said)
    except (Exception, KeyboardInterrupt):  # noqa: BLE001 - a second Ctrl-C, a catalog that cannot be read
        return said


DEFAULT_BAUD = 115200       # (hw.serial_link.DEFAULT_BAUD, without importing it at every start)


def _refuse_what_is_ignored(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """An option the mode chosen would not use is refused as argparse refuses a bad one (usage,
    the reason, exit status 2): each was ignored without a word. ``--baud`` without a serial port
    (the console on stdin/stdout, the device without ``--serial``) and ``--config`` where no panel
    or buttons are driven (the simulator, ``--sim``, ``--script`` or no Pi found; the console)."""
    serial = args.serial or getattr(args, "console_serial", None)
    if (args.baud is not None or getattr(args, "console_baud", None) is not None) and not serial:
        parser.error(_("argument --baud: not allowed without --serial (it is the serial port's speed; the console "
                       "on stdin/stdout has none)") if args.mode == "console" else
                     _("argument --baud: not allowed without --serial (it is the serial port's speed)"))
    if args.mode == "doctor":
        for given, name in ((args.serial, "--serial"), (args.baud, "--baud"), (args.sim, "--sim")):
            if given:
                parser.error(_("argument {}: not allowed with 'doctor' (it checks the Pi's set-up)").format(name))
        return
    if args.mode == "console":
        for given, name in ((args.config, "--config"), (args.sim, "--sim")):
            if given:
                parser.error(_("argument {}: not allowed with 'console' (the console drives no panel, buttons or "
                               "simulator)").format(name))
        return
    if args.config is None:
        return
    for given, name in ((args.script, "--script"), (args.sim, "--sim")):
        if given:
            parser.error(_("argument --config: not allowed with argument {} (the simulator has no panel or buttons "
                           "to set up; 'legatus doctor --config FILE' checks the file)").format(name))
    from hw.display import probe_hardware
    if not probe_hardware():
        parser.error(_("argument --config: this is not a Raspberry Pi, so the simulator would run, which has no panel "
                       "or buttons to set up; 'legatus doctor --config FILE' checks the file"))


def _parsed(argv: list[str]) -> argparse.Namespace:
    """The command line's arguments, every refusal (usage, the reason, exit status 2) and the
    help said as argparse says them, in the language spoken."""
    parser = _parser(argv)
    args = parser.parse_args(argv)
    # A scripted run ends at its file's end and never opened the port; console and doctor read no keys.
    if args.script and args.mode is not None:
        parser.error(_("argument --script: not allowed with '{}' (it drives the simulator)").format(args.mode))
    if args.script and args.serial:
        parser.error(_("argument --serial: not allowed with argument --script (a scripted run serves no console)"))
    if not args.version:
        _refuse_what_is_ignored(parser, args)
    return args


def _on_a_pi() -> bool:
    from hw.display import probe_hardware
    return probe_hardware()


def _cannot_simulate(words: list[str]) -> str | None:
    """Why the simulator this command line runs (``--sim``, or no Pi found) cannot run here
    (firmware.terminal.terminal_problem: no terminal for its keys or its frame), said in the
    player's language (:func:`firmware.start_language.player_language`), or None. Asked before anything is opened: the
    refusal made the state directory first, and came after INFO lines of it and of the log's start."""
    from firmware.terminal import terminal_problem
    if terminal_problem() is None:
        return None
    from firmware.i18n import set_language
    set_language(player_language(words))
    return terminal_problem()


def _speak_the_locale() -> None:
    """Speak the locale's language (else English) until a store is open, which speaks the device's:
    what is said before it (a state directory or serial port that cannot be used, the storage
    problem's screen) is in the device's language if its state directory names one
    (:func:`firmware.start_language.speak_stored_language`), else in this one. It was English under
    ``LANG=ru_RU.UTF-8`` on a machine whose device had no language chosen yet, where ``--help`` and
    every refusal of the command line were Russian."""
    from firmware.i18n import locale_language, set_language
    set_language(locale_language(os.environ) or "en")


def _main(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        args = _parsed(words)
    except _SayAgain as again:      # the help or a refusal, in the player's language (ru, uk)
        with _said_in(again.lang):
            args = _parsed(words)
    if args.version:
        from firmware import __version__
        print(f"legatus {__version__}")
        return 0
    # lgpio changes the working directory to $LG_WD when it loads (firmware/buttons_part.py): a
    # relative path must not move with it. A ``~`` the shell left as it is (``--state-dir=~/games``:
    # no tilde expansion after ``=``) made a folder named ``~`` in the working directory.
    for name in ("state_dir", "console_state_dir", "doctor_state_dir"):
        if getattr(args, name, None):
            setattr(args, name, os.path.abspath(os.path.expanduser(getattr(args, name))))
    for name in ("config", "doctor_config"):        # (named as written in its problems: hw.config.shown)
        if getattr(args, name, None):
            from hw.config import config_path
            setattr(args, name, str(config_path(getattr(args, name))))
    if args.script and args.script != "-":          # ('-': standard input)
        args.script = os.path.expanduser(args.script)
    if args.mode == "doctor":
        from firmware.logs import setup
        setup(logging.WARNING)
        from firmware.doctor import run_doctor
        return run_doctor(args.doctor_state_dir or args.state_dir, args.doctor_config or args.config)
    if args.mode == "console":
        _speak_the_locale()
        # Logging as the device's (firmware/logs.py): a warning on standard error as "legatus: WARNING
        # …" (the log's INFO lines not: a person reads it), every record in the state directory's
        # legatus.log once the store has it open. Nothing was set up: a warning was a bare line, not kept.
        from firmware import logs
        logs.setup(printed=logging.WARNING, run=logs.CONSOLE)
        from firmware.console import run_console
        return run_console(args.console_state_dir or args.state_dir, args.console_serial or args.serial,
                           next((b for b in (args.console_baud, args.baud) if b is not None), DEFAULT_BAUD))
    if args.baud is None:
        args.baud = DEFAULT_BAUD
    simulated = not args.script and (args.sim or not _on_a_pi())
    if simulated and (problem := _cannot_simulate(words)) is not None:
        print(problem, file=sys.stderr)
        return 2
    splash = None
    if not (args.script or args.sim):
        # On the Pi with the OLED: the splash goes out before the device program is imported
        # (hw/splash.py), on a thread of its own (a bus held low does not hold the start up); the
        # device takes that open panel over.
        from hw.splash import early
        splash = early(args.state_dir, aside=True)
    # Logging (standard error now, the state directory's legatus.log once the store has it):
    # set up before the device program is imported, so that even an import error is kept.
    from firmware import logs
    from hw.splash import state_dir
    # The simulator's terminal is the player's: its INFO lines (the state directory made, the log's
    # start and stop) are for the log file; they were printed around its frame, the stop line under
    # the last one.
    logs.setup(printed=logging.WARNING if simulated else logging.NOTSET)
    logs.remember_state_dir(state_dir(args.state_dir))
    _speak_the_locale()
    from firmware.device import run_device
    return run_device(args, splash)


if __name__ == "__main__":
    sys.exit(main())
