"""The console protocol (shared/PROTOCOL.md, version 1) over any binary line stream.

:class:`Console` turns one request line into at most one JSON response line. It owns the session
and the store; the device UI runs its actions through the same object, so everything the buttons
do is a console line in the journal.

Fair draws (docs/fairness.md): ``commit`` fixes the secret of the next ``new`` and answers its
commitment; ``share``/``new … share=`` add the players' share; ``end`` ends the session (History
files it, nothing more is drawn); ``reveal`` answers the seed only once the game has ended.
"""
from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import sys
from collections.abc import Callable, Hashable, Mapping
from typing import IO, Any, cast

from engine import registry
from engine.errors import BadArguments, GameOver, LegatusError, LineTooLong, NoSession, UnknownCommand
from engine.game import ascii_digits, whole_number
from engine.text import Msg
from firmware import console_session
from firmware.console_greeting import english_replies, greeting, greeting_language
from firmware.console_lines import MAX_LINE, Stops, answered, edited, plain_spaces, read_line
from firmware.console_session import SessionCommands
from firmware.log_sentences import said
from firmware.session import FAIR_NAMES, Session, parse_line
from firmware.storage import StorageError
from firmware.store import Store

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
BUILTINS = ("help", "version", "new", "commit", "state", "undo", "log", "actions", "roll", "settings", "reveal",
            "history", "export", "players", "quit")
NO_ARGUMENTS = ("help", "version", "quit", "state", "undo", "reveal", "commit")
# What an ended session still answers (PROTOCOL.md, third round); anything else of it: game_over.
AFTER_END = frozenset({"state", "log", "actions", "reveal"})
MAX_PAGE = 500


# What json.dumps(ensure_ascii=False) leaves raw but a reader or a terminal takes for more than a
# letter: U+2028/U+2029/NEL end a line for str.splitlines(), C1 controls (U+009B is CSI) and DEL
# act on a terminal. Escaped (\uXXXX: the same JSON string), a reply is one line for every reader.
_UNSAFE = {c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), 0x2028, 0x2029)}
_UNSAFE_FOUND = re.compile("[\x7f-\x9f\u2028\u2029]")


def reply_json(obj: Mapping[str, Any]) -> str:
    """A response object as its one JSON line (UTF-8 text; see ``_UNSAFE``)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_UNSAFE) if _UNSAFE_FOUND.search(text) else text


def version() -> str:
    from firmware import __version__
    return __version__


class Console(SessionCommands):
    """Dispatches request lines (the commands that start, run and end a session are in
    firmware/console_session.py). ``settings_hook`` is called after ``settings`` changes them."""

    def __init__(self, store: Store, session: Session | None = None,
                 settings_hook: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.store = store
        self.session = session
        self.settings_hook = settings_hook
        self.serial_out: Callable[[bytes], None] | None = None   # the device's serial link (History: Send)
        self.quit = False
        self._pending: int | None = None   # the secret ``commit`` fixed for the next ``new`` (memory only)
        self.apply_language()
        self._reconcile()

    def apply_language(self) -> None:
        """Speak the stored language (English if none is stored or it is unknown)."""
        from firmware.i18n import LANGUAGES, set_language
        try:
            lang = self.store.load_settings().get("language", "en")
        except Exception:  # noqa: BLE001 - unreadable settings: keep going in English
            log.warning("the settings could not be read; speaking English", exc_info=True)
            lang = "en"
        set_language(lang if lang in LANGUAGES else "en")

    # -- framing -----------------------------------------------------------------------------
    def handle_bytes(self, raw: bytes) -> str | None:
        """One raw line (without the length check) → a response line, or None for none (an empty line
        or a comment, as sent); the terminal's editing keys in it are applied first (:func:`edited`)."""
        if not answered(raw):
            return None
        raw = edited(raw)
        if not answered(raw):       # (not empty as sent: PROTOCOL.md gives it one response all the same)
            return self._error(BadArguments(Msg("This line was erased (Backspace, Ctrl-U or Ctrl-C) and nothing is "
                                                "left of it; nothing was done.")))
        if _utf16(raw):
            return self._error(BadArguments(Msg("The line is UTF-16 text (as Windows PowerShell writes files), not "
                                                "UTF-8: save the script as UTF-8 and send it again; nothing was done.")))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return self._error(BadArguments(Msg("The line is not valid UTF-8 (byte {}); nothing was done.", e.start + 1)))  # counted from 1
        return self.handle_text(text)

    def handle_text(self, text: str) -> str | None:
        text = text.rstrip("\r\n")
        bare = text.strip(" \t")
        if not bare or bare.startswith("#"):
            return None
        if "\x00" in text:
            return self._error(BadArguments(Msg("The line contains a NUL character; nothing was done.")))
        return reply_json(self.request(text))

    def request(self, text: str, step: tuple[int, int] | None = None) -> dict[str, Any]:
        """Run one request; returns the response object (``ok`` true or false). ``step``: for
        ``undo``, the step it must take back (:meth:`undo_named`). Its digits are read as ASCII
        (engine.game.ascii_digits: a full-width «３» is run, journaled and answered as 3), its
        spaces as spaces (:func:`plain_spaces`)."""
        text = plain_spaces(ascii_digits(text))
        return self._answered(text, lambda: self._dispatch(text.strip(), step))

    def detached(self, text: str) -> tuple[Hashable, Callable[[], dict[str, Any]]] | dict[str, Any] | None:
        """``export format=draws`` (its record replays the game) in two parts, for the device to
        make it off its main loop (firmware/history_record.py): what it needs is read now, here
        (the store's connection is this thread's); the job makes the fields from that alone.
        Returns (what the job is made of, the job); the response object of a refused read (as
        :meth:`request` answers it); None for any other line (answer it with :meth:`request`)."""
        text = plain_spaces(ascii_digits(text))
        try:
            req = parse_line(text.strip(), asked=True)
        except LegatusError:
            return None
        if req.command != "export" or req.opts.get("format") != "draws":
            return None
        from firmware import export
        made: list[tuple[Hashable, Callable[[], dict[str, Any]]]] = []

        def read() -> dict[str, Any]:
            made.append(export.command(self.store.db, "export", req, later=True))
            return {}
        out = self._answered(text, read)
        return made[0] if made else out

    def _answered(self, text: str, answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The response object of ``answer()``, the fields of the request ``text``, or of what it raised."""
        try:
            fields = answer()
        except LegatusError as e:
            out = self.response(e)
            if isinstance(e, NoSession) and self.store.recovery is not None:
                out["recovered"] = self.store.recovery.sentence()    # a lost session is never silent
            return out
        except sqlite3.Error as e:
            from firmware.store.reasons import reason
            why = reason(e)
            if not isinstance(why, Msg):              # not a fault of the card: a bug
                log.exception("internal error answering %r", text[:80])
                return self.response(e)
            log.error("the card failed while answering %r: %s", text[:80], e)   # (a transaction says StorageError)
            return self.response(StorageError(Msg("The records could not be read or written ({}); nothing was "
                                                  "changed. Check the card.", why)))
        except Exception as e:  # noqa: BLE001 - a bug must not stop the device; nothing was committed
            log.exception("internal error answering %r", text[:80])
            return self.response(e)
        return self.response(fields)

    @staticmethod
    def response(answer: dict[str, Any] | BaseException) -> dict[str, Any]:
        """The response object for a command's fields or the exception it raised, in the
        language chosen now (main thread: i18n is a module-level choice)."""
        from firmware.i18n import localize, say
        if isinstance(answer, LegatusError):
            return {"ok": False, "error": answer.code, "message": say(answer.message)}
        if isinstance(answer, BaseException):
            return {"ok": False, "error": "internal_error",
                    "message": say(Msg("Internal error ({}: {}); nothing was changed.", type(answer).__name__, str(answer)))}
        return {"ok": True, **localize(answer)}

    @staticmethod
    def _error(e: LegatusError) -> str:
        from firmware.i18n import say
        return reply_json({"ok": False, "error": e.code, "message": say(e.message)})

    # -- dispatch ----------------------------------------------------------------------------
    def _dispatch(self, line: str, step: tuple[int, int] | None = None) -> dict[str, Any]:
        req = parse_line(line, asked=True)
        name = req.command
        if not name:                # (a line of no-break spaces: plain_spaces; not blank as sent, so answered)
            raise BadArguments(Msg("The line holds only spaces; nothing was done."))
        if name == "help" and (req.args or req.opts):
            raise BadArguments(Msg("'help' takes no arguments: it lists the commands answered now; docs/protocol.md "
                                   "describes each one."))
        if name in NO_ARGUMENTS and (req.args or req.opts):
            raise BadArguments(Msg("'{}' takes no arguments.", name))
        if name == "help":
            return {"commands": self.command_names()}
        if name == "version":
            return {"version": version(), "protocol": PROTOCOL_VERSION}
        if name == "quit":
            self.quit = True
            return {"bye": True}
        if name == "new":
            return self._new(line, req.opts)
        if name == "commit":
            return {"commitment": self.commit_next()}
        if name == "settings":
            if req.args:                 # ``settings language ru``: a word without '=' is no setting
                raise BadArguments(Msg("Usage: settings [key=value ...], e.g. settings language=ru; not '{}'.",
                                       req.args[0][:24]))
            return self._settings(req.opts)
        if name in ("history", "export"):
            from firmware import export
            return cast(dict[str, Any], export.command(self.store.db, name, req))
        if name == "players":
            from firmware import history, players
            return players.command(self.store, req.args, req.opts,
                                   lambda db: self._running_table() + history.games(db, None))
        session = self.session
        if session is not None and session.ended and name not in AFTER_END and (
                name == "undo" or session.command(name) is not None):
            raise GameOver(Msg("This game has ended: only state, log, actions, reveal, history, export and new "
                               "are answered now."))
        if session is not None and _drawn_beside(session, name) and session.again[:1] != [line.strip()] \
                and session.over_by_rules():          # (an archived line given again replays as stored)
            raise GameOver(Msg("This game is over by its rules: no more dice are rolled, nothing is drawn and no share "
                               "is taken in it; 'end' files it in History, 'undo' reopens it."))
        if name == "state":
            return self._state(self._need_session())
        if name == "undo":
            return self._undo(self._need_session(), step)
        if name == "log":
            if len(req.args) > 1 or req.opts:
                raise BadArguments(Msg("Usage: log [N]."))
            return self._log(self._need_session(), req.args)
        if name == "actions":
            return self._actions(self._need_session(), req)
        if name == "reveal":
            return self._reveal(self._need_session())
        if session is not None and session.command(name) is not None:
            return self._run_session(session, line)
        glob = registry.global_command(name)
        if glob is not None:
            from engine.rng import Rng
            seed = req.opt_int("seed", lo=0)
            return glob.handler(req, Rng(console_session._fresh_seed() if seed is None else seed))
        if name == "roll":
            return self._roll_sessionless(line)
        if session is None and name in _session_command_names():
            raise NoSession(Msg("'{}' needs a session: start one with 'new <game>'.", name))
        known = self.command_names() + (sorted(_session_command_names()) if session is None else [])
        raise UnknownCommand(_unknown(name, known))

    def _need_session(self) -> Session:
        if self.session is None:
            raise NoSession(Msg("No session yet: start one with 'new <game>' ({}).", ", ".join(sorted(registry.GAMES))))
        return self.session

    def command_names(self) -> list[str]:
        """What ``help`` lists: the names answered now (an ended session's game commands and
        ``undo`` are not: they answer ``game_over``)."""
        names = list(BUILTINS)
        if self.session is not None and self.session.ended:
            names = [n for n in names if n != "undo" and self.session.command(n) is None]
        elif self.session is not None:
            names += [n for n in self.session.command_names() if n not in names]
            if self.session.over_by_rules():
                names = [n for n in names if not _drawn_beside(self.session, n)]
        names += [n for n in registry.GLOBAL_COMMANDS if n not in names and registry.global_command(n)]
        return names

    def undo_step(self) -> tuple[int, int] | None:
        """What names the step ``undo`` would take back now (see :meth:`undo_named`)."""
        return self.store.step()

    def undo_named(self, step: tuple[int, int] | None) -> dict[str, Any]:
        """``undo`` as the device asks it: the response, but only if ``step`` (from
        :meth:`undo_step` when the question was shown) is still the last step; if a serial
        request changed it in between, nothing is undone (error ``step_changed``)."""
        return self.request("undo", step=step)

    def _actions(self, session: Session, req: Any) -> dict[str, Any]:
        """``actions [N] [before=K]``: the session's effective actions, newest first — ``n`` (1 is
        the first), ``line`` and ``text`` (its sentence) — N of them (default 20, at most 500)
        before action K (default: the newest); ``before``: the K of the next older page (null at
        the first action). The whole history of a long session, a page at a time."""
        if len(req.args) > 1 or set(req.opts) - {"before"}:
            raise BadArguments(Msg("Usage: actions [N] [before=K]."))
        n = 20
        if req.args:
            try:
                n = whole_number(req.args[0])
            except ValueError:
                raise BadArguments(Msg("Usage: actions [N] [before=K]; '{}' is not a number.", req.args[0][:24])) from None
            if not 1 <= n <= MAX_PAGE:
                raise BadArguments(Msg("actions N needs N between 1 and {}.", MAX_PAGE))
        trail = session.trail
        total = len(trail)
        before = req.opt_int("before", total + 1, lo=1, hi=total + 1)
        assert before is not None
        lo = max(0, before - 1 - n)
        trail.need(lo)            # older actions are read (and checked) when first asked for
        page = [{"n": i + 1, "line": trail.line(i), "text": said(trail.sentence(i))}
                for i in range(before - 2, lo - 1, -1)]
        return {"actions": page, "total": total, "before": lo + 1 if lo > 0 else None}

    def _log(self, session: Session, args: tuple[str, ...]) -> dict[str, Any]:
        n = 20
        if args:
            try:
                n = whole_number(args[0])
            except ValueError:
                raise BadArguments(Msg("Usage: log [N]; '{}' is not a number.", args[0][:24])) from None
            if n < 1:
                raise BadArguments(Msg("log N needs N ≥ 1."))
        return {"log": [said(x) for x in session.log[-n:]]}     # (a restart keeps them as stored)

    def _roll_sessionless(self, line: str) -> dict[str, Any]:
        from engine import dice
        from engine.rng import Rng
        req = parse_line(line, asked=True)
        if len(req.args) != 1:
            raise dice.usage(req.args)
        req.check_opts(frozenset({"seed"}))
        seed = req.opt_int("seed", lo=0)
        record = dice.roll(dice.parse_dice(req.args[0], asked=True), Rng(console_session._fresh_seed() if seed is None else seed))
        return {"dice": record["dice"], "total": record["total"]}

    def _running_table(self) -> list[dict[str, Any]]:
        """The game being played as a History-like entry (``id`` None: not recorded yet), for
        ``players rename``: two people at its table are never merged into one (an ended game is
        in History already)."""
        session = self.session
        if session is None or session.ended:
            return []
        return [{"id": None, "players": [{"name": n} for n in console_session._named(session)]}]

    def _settings(self, opts: Mapping[str, str]) -> dict[str, Any]:
        from firmware.settings import apply_settings
        current = self.store.load_settings(strict=True)      # never the defaults over what is stored
        if opts:
            changed = apply_settings(current, opts)
            if changed != current:           # a setting given the value it has writes nothing (SD wear)
                self.store.save_settings(changed)
            current = changed
            if "language" in opts:
                from firmware.i18n import set_language
                set_language(opts["language"])
            if self.settings_hook is not None:
                self.settings_hook(current)
        from firmware.settings import with_defaults
        return {"settings": with_defaults(current)}

    def close(self) -> None:
        self.store.close()


def _utf16(raw: bytes) -> bool:
    """Whether a request line is UTF-16 text: a script Windows PowerShell 5 wrote (``>``, ``Out-File``),
    sent as it is (a terminal's "send file", ``type script.txt > COM3``). Its lines are refused all
    the same (each has a NUL or is no UTF-8); said so, the scripter knows what to change. Every
    other byte of such a line is NUL (the line's ends cut it between a character's two bytes, so
    a line may start or end with one; a lone NUL stays a NUL), after UTF-16's byte-order mark if it
    starts with one."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raw = raw[2:]
        if not raw:
            return True
    zeros, evens, odds = raw.count(0), raw[0::2], raw[1::2]
    return len(raw) > 1 and zeros * 2 >= len(raw) - 1 and (evens.count(0) == len(evens) or odds.count(0) == len(odds))


# The keys of the Russian and Ukrainian layouts (ЙЦУКЕН) as the Latin letters they carry: «ыефеу» is
# "state" typed with the layout not switched back (a laptop's Cyrillic layout, a player's names).
_LAYOUT = str.maketrans("йцукенгшщзхъїфывапролджэєіячсмитьбю", "qwertyuiop[]]asdfghjkl;''szxcvbnm,.")


def _unknown(name: str, known: list[str]) -> Msg:
    """The error for an unknown command: the command meant when it is a likely typo of one answered
    now (letters swapped, missed or doubled, capitals), else where the list of commands is."""
    import difflib                                    # (only on this error path: not at every start)
    latin = name[:40].lower().translate(_LAYOUT)
    if latin != name[:40].lower():                    # typed with the keyboard in Russian or Ukrainian
        meant = [latin] if latin in known else difflib.get_close_matches(latin, known, n=1, cutoff=0.75)
        if meant:
            return Msg("Unknown command '{}': the keyboard was in another layout; did you mean '{}'? 'help' lists "
                       "the commands.", name[:40], meant[0])
    close = difflib.get_close_matches(name[:40].lower(), known, n=1, cutoff=0.6)
    if close and close[0] != "help":                  # (help is named anyway: not twice in one sentence)
        return Msg("Unknown command '{}'; did you mean '{}'? 'help' lists the commands.", name[:40], close[0])
    return Msg("Unknown command '{}'; 'help' lists the commands.", name[:40])


def _drawn_beside(session: Session, name: str) -> bool:
    """Whether ``name`` is a state-changing command every session has beside its game's own (``roll``,
    ``reroll``, ``kit``, ``share``; not ``end``): once the game's rules ended it (PROTOCOL.md, third
    round: "a game whose rules ended it is already ended") they answer ``game_over``; the game's own
    commands say for themselves what they still take (Glory's ``score`` corrects the final one)."""
    cmd = session.command(name)
    return cmd is not None and cmd.mutates and name not in session.game.commands and name != FAIR_NAMES[1]


def _session_command_names() -> set[str]:
    """Every command some game session has (imports the games: only on this error path)."""
    from engine.common import SESSION_COMMANDS
    names = set(SESSION_COMMANDS) | set(FAIR_NAMES)
    for game in registry.available_games():
        names |= set(registry.game(game).commands)
    return names


def serve(console: Console, reader: IO[bytes], writer: IO[bytes], stops: Stops) -> None:
    """Answer request lines until end of input, ``quit`` or a stop signal (the request in hand answered)."""
    from hw.serial_link import reply_end
    while not console.quit and not stops.signum and (got := read_line(reader)) is not None:
        with stops.answering():
            body, too_long = got
            if too_long:
                too = LineTooLong(Msg("Lines are limited to {} bytes; this one was ignored.", MAX_LINE))
                response: str | None = Console._error(too)
            else:
                response = console.handle_bytes(body)
            if response is not None:             # CRLF after a request ended with CR (hw.serial_link.reply_end)
                writer.write(reply_end(response.encode("utf-8") + b"\n", getattr(reader, "ended_by_cr", False)))
                writer.flush()


def run_console(state_dir: str | None, serial_port: str | None = None, baud: int = 115200) -> int:
    """``legatus console``: the protocol on stdin/stdout or a serial port. Returns an exit code.

    What it says on standard error (the person who started it reads it) is in the device's
    language: a port that cannot be opened is refused before the state directory is made."""
    from pathlib import Path

    from firmware.i18n import say
    from firmware.start_language import speak_stored_language
    from firmware.store import StateDirError, default_state_dir
    from firmware import logs
    root = Path(state_dir) if state_dir else default_state_dir()
    if logs.is_set_up():                  # (`legatus console`: a crash before the store is open is kept there too)
        logs.remember_state_dir(root)
    port: Any = None
    if serial_port is not None:
        from hw.serial_link import open_serial
        try:
            port = open_serial(serial_port, baud)
        except Exception as e:  # noqa: BLE001 - SerialError mostly: said, nothing made
            speak_stored_language(root)
            print(f"legatus: {say(e.args[0]) if e.args else e}", file=sys.stderr)
            return 2
    try:
        store = Store(root)
    except StateDirError as e:
        if port is not None:
            port.close()
        speak_stored_language(root)
        print(f"legatus: {say(e.args[0]) if e.args else e}", file=sys.stderr)
        return 2
    if logs.is_set_up():                         # (`legatus console`: the device's legatus.log, its run named)
        logs.attach_file(store.root)
    session = store.resume()
    console = Console(store, session)              # (it speaks the device's language from here on)
    if store.recovery is not None:
        print(f"legatus: {store.recovery.sentence()}", file=sys.stderr)
    try:
        if port is None:
            if sys.stdin.isatty():              # a person at a terminal, not a script: say how (stderr,
                print(f"legatus: {greeting(greeting_language(store))}", file=sys.stderr, flush=True)   # never a reply)
            from hw.serial_link import LineBuffer
            try:                                # (lines end as on the serial link: LF, CRLF or CR)
                with Stops() as stops:
                    serve(console, cast(IO[bytes], LineBuffer(sys.stdin.buffer)), sys.stdout.buffer, stops)
            except BrokenPipeError as e:      # the reader went away (``legatus console | head -1``)
                log.info("stdout closed: %s", e)
                print("legatus: " + say(Msg("the output was closed; every acknowledged action is saved.")),
                      file=sys.stderr)
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
        else:
            from firmware.serial_opened import OpenedLink
            from hw.serial_link import LINK_ERRORS, LineBuffer, link_error_words
            first = greeting_language(store)         # (a locale's language: the replies' English said)
            try:
                with port, Stops() as stops:         # (ready once a stop signal is taken in order)
                    print("legatus: " + say(Msg("the console on {} is ready at {} baud.", serial_port, baud), first)
                          + english_replies(first), file=sys.stderr, flush=True)
                    # lines a chunk at a time (LineBuffer); the first reply says what an open may have lost
                    link = OpenedLink(LineBuffer(port), port)
                    serve(console, cast(IO[bytes], link), cast(IO[bytes], link), stops)
            except LINK_ERRORS as e:             # a hangup (see hw.serial_link.LINK_ERRORS)
                print("legatus: " + say(Msg("the serial link closed ({}); every acknowledged action is saved.",
                                            link_error_words(e))), file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        console.close()
    logs.stopped()
    return 0

