"""``legatus``: the device program (or its terminal simulator) and ``legatus console``."""
from __future__ import annotations

import argparse
import logging
import os
import sys


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
        raise argparse.ArgumentTypeError("empty (a shell variable that is not set?): give a name, or leave the "
                                         "option out for its default")
    return text


def _baud(text: str) -> int:
    """``--baud``'s value: one of the serial port's standard speeds (hw.serial_link.BAUD_RATES)."""
    from hw.serial_link import BAUD_RATES
    try:
        rate: int | None = int(text)
    except ValueError:
        rate = None
    if rate not in BAUD_RATES:
        raise argparse.ArgumentTypeError(f"invalid speed {text!r}: a serial port's speed is one of "
                                         f"{', '.join(map(str, BAUD_RATES))} bit/s (default 115200), the same "
                                         "at both ends")
    return rate


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="legatus", description="Legatus, the table companion.", formatter_class=_formatter)
    p.add_argument("--state-dir", metavar="DIR", type=_named, help="where sessions are journaled (default $LEGATUS_STATE_DIR "
                   "or ~/.local/state/legatus)")
    p.add_argument("--sim", action="store_true", help="run the terminal simulator even on a Pi (its keys and "
                   "frame need the terminal: not with input or output redirected; see --script)")
    p.add_argument("--config", metavar="FILE", type=_named, help="hardware config TOML (default $LEGATUS_CONFIG or "
                   "~/.config/legatus/config.toml): the Pi's panel and buttons, so not with --sim or "
                   "--script, nor where no Pi is found ('legatus doctor --config FILE' checks a file)")
    p.add_argument("--script", metavar="FILE", type=_named, help="simulator: read key names from this file ('-' for stdin), one "
                   "a line (up down left right press a b a:hold b:hold key3; 'wait S' lets S seconds "
                   "pass), instead of the keyboard, print each frame, exit at its end (not with --serial)")
    p.add_argument("--serial", metavar="PORT", type=_named, help="also serve the console protocol on this serial port")
    p.add_argument("--baud", metavar="N", type=_baud, help="the serial port's speed (default 115200; only "
                   "with --serial)")
    p.add_argument("--version", action="store_true", help="print the version and exit")
    sub = p.add_subparsers(dest="mode")
    c = sub.add_parser("console", help="the line protocol on stdin/stdout (or --serial PORT)", formatter_class=_formatter)
    c.add_argument("--state-dir", dest="console_state_dir", metavar="DIR", type=_named, help="where sessions are journaled (default "
                   "$LEGATUS_STATE_DIR or ~/.local/state/legatus)")
    c.add_argument("--serial", dest="console_serial", metavar="PORT", type=_named, help="serial port or pyserial URL (default: stdin/stdout)")
    c.add_argument("--baud", dest="console_baud", metavar="N", type=_baud,
                   help="the serial port's speed (default 115200; only with --serial)")
    d = sub.add_parser("doctor", help="check the Pi's set-up for Legatus: profile, pins, display, "
                       "buses, storage, clock; each problem with its fix", formatter_class=_formatter)
    d.add_argument("--state-dir", dest="doctor_state_dir", metavar="DIR", type=_named, help="the state directory to check (default "
                   "$LEGATUS_STATE_DIR or ~/.local/state/legatus)")
    d.add_argument("--config", dest="doctor_config", metavar="FILE", type=_named, help="hardware config TOML (default $LEGATUS_CONFIG or "
                   "~/.config/legatus/config.toml)")
    return p


def main(argv: list[str] | None = None) -> int:
    """The ``legatus`` command: its exit status (130 when Ctrl-C stops it before the program
    has taken its keys over: nothing was acknowledged yet, so a line says so, not a traceback)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("legatus: stopped by Ctrl-C.", file=sys.stderr)
        return 130
    except BrokenPipeError:      # what it printed had no reader any more (``legatus --version | true``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
        return 0


DEFAULT_BAUD = 115200       # (hw.serial_link.DEFAULT_BAUD, without importing it at every start)


def _refuse_what_is_ignored(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """An option the mode chosen would not use is refused as argparse refuses a bad one (usage,
    the reason, exit status 2): each was ignored without a word. ``--baud`` without a serial port
    (the console on stdin/stdout, the device without ``--serial``) and ``--config`` where no panel
    or buttons are driven (the simulator, ``--sim``, ``--script`` or no Pi found; the console)."""
    serial = args.serial or getattr(args, "console_serial", None)
    if (args.baud is not None or getattr(args, "console_baud", None) is not None) and not serial:
        parser.error("argument --baud: not allowed without --serial (it is the serial port's speed"
                     + ("; the console on stdin/stdout has none)" if args.mode == "console" else ")"))
    if args.mode == "doctor":
        for given, name in ((args.serial, "--serial"), (args.baud, "--baud"), (args.sim, "--sim")):
            if given:
                parser.error(f"argument {name}: not allowed with 'doctor' (it checks the Pi's set-up)")
        return
    if args.mode == "console":
        for given, name in ((args.config, "--config"), (args.sim, "--sim")):
            if given:
                parser.error(f"argument {name}: not allowed with 'console' (the console drives no "
                             "panel, buttons or simulator)")
        return
    if args.config is None:
        return
    check = "'legatus doctor --config FILE' checks the file"
    for given, name in ((args.script, "--script"), (args.sim, "--sim")):
        if given:
            parser.error(f"argument --config: not allowed with argument {name} (the simulator has no panel or "
                         f"buttons to set up; {check})")
    from hw.display import probe_hardware
    if not probe_hardware():
        parser.error(f"argument --config: this is not a Raspberry Pi, so the simulator would run, which has no "
                     f"panel or buttons to set up; {check}")


def _main(argv: list[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    # A scripted run ends at its file's end and never opened the port; console and doctor read no keys.
    if args.script and args.mode is not None:
        parser.error(f"argument --script: not allowed with '{args.mode}' (it drives the simulator)")
    if args.script and args.serial:
        parser.error("argument --serial: not allowed with argument --script (a scripted run serves no console)")
    if args.version:
        from firmware import __version__
        print(f"legatus {__version__}")
        return 0
    _refuse_what_is_ignored(parser, args)
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
        from firmware.console import run_console
        return run_console(args.console_state_dir or args.state_dir, args.console_serial or args.serial,
                           next((b for b in (args.console_baud, args.baud) if b is not None), DEFAULT_BAUD))
    if args.baud is None:
        args.baud = DEFAULT_BAUD
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
    logs.setup()
    logs.remember_state_dir(state_dir(args.state_dir))
    from firmware.device import run_device
    return run_device(args, splash)


if __name__ == "__main__":
    sys.exit(main())
