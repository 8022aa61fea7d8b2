"""The console protocol (shared/PROTOCOL.md, version 1) over any binary line stream.

:class:`Console` turns one request line into at most one JSON response line. It owns the session
and the store; the device UI runs its actions through the same object, so everything the buttons
do is a console line in the journal.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

from engine import registry
from engine.errors import (BadArguments, LegatusError, LineTooLong, NoSession, UnknownCommand)
from engine.text import Msg
from firmware.session import Session, parse_line
from firmware.store import Store

PROTOCOL_VERSION = 1
MAX_LINE = 4096
BUILTINS = ("help", "version", "new", "state", "undo", "log", "roll", "settings", "reveal", "history", "export",
            "quit")


def version() -> str:
    from firmware import __version__
    return __version__


def _fresh_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


class Console:
    """Dispatches request lines. ``settings_hook`` is called after ``settings`` changes them."""

    def __init__(self, store: Store, session: Session | None = None,
                 settings_hook: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.store = store
        self.session = session
        self.settings_hook = settings_hook
        self.serial_out: Callable[[bytes], None] | None = None   # the device's serial link (History: Send)
        self.quit = False
        self.apply_language()
        self._history_hook("reconcile")

    @property
    def session(self) -> Session | None:
        return self._session

    @session.setter
    def session(self, session: Session | None) -> None:
        """The current session; its game's words come first where games say a word differently."""
        from firmware.i18n import set_game
        self._session = session
        set_game(session.game.name if session is not None else None)

    def apply_language(self) -> None:
        """Speak the stored language (English if none is stored or it is unknown)."""
        from firmware.i18n import LANGUAGES, set_language
        try:
            lang = self.store.load_settings().get("language", "en")
        except Exception:  # noqa: BLE001 - unreadable settings: keep going in English
            lang = "en"
        set_language(lang if lang in LANGUAGES else "en")

    # -- framing -----------------------------------------------------------------------------
    def handle_bytes(self, raw: bytes) -> str | None:
        """One raw line (without the length check) → a response line, or None for none."""
        bare = raw.strip(b" \t\r\n")
        if not bare or bare.startswith(b"#"):
            return None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return self._error(BadArguments(Msg("The line is not valid UTF-8 (byte {}); nothing was done.", e.start)))
        return self.handle_text(text)

    def handle_text(self, text: str) -> str | None:
        text = text.rstrip("\r\n")
        bare = text.strip(" \t")
        if not bare or bare.startswith("#"):
            return None
        if "\x00" in text:
            return self._error(BadArguments(Msg("The line contains a NUL character; nothing was done.")))
        return json.dumps(self.request(text), ensure_ascii=False, separators=(",", ":"))

    def request(self, text: str) -> dict[str, Any]:
        """Run one request; returns the response object (``ok`` true or false)."""
        try:
            fields = self._dispatch(text.strip())
        except Exception as e:  # noqa: BLE001 - a bug must not stop the device; nothing was committed
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
        return json.dumps({"ok": False, "error": e.code, "message": say(e.message)}, ensure_ascii=False,
                          separators=(",", ":"))

    # -- dispatch ----------------------------------------------------------------------------
    def _dispatch(self, line: str) -> dict[str, Any]:
        req = parse_line(line)
        name = req.command
        if name in ("help", "version", "quit", "state", "undo", "reveal") and (req.args or req.opts):
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
        if name == "settings":
            return self._settings(req.opts)
        if name in ("history", "export"):
            from firmware import export
            return export.command(self.store.db, name, req)
        if self.session is not None and self.session.command(name) is not None:
            return self._run_session(line)
        if name in ("state", "undo", "log", "reveal"):
            if self.session is None:
                raise NoSession(Msg("No session yet: start one with 'new <game>' ({}).", ", ".join(sorted(registry.GAMES))))
            return getattr(self, f"_{name}")(req.args)
        glob = registry.global_command(name)
        if glob is not None:
            from engine.rng import Rng
            seed = req.opt_int("seed", lo=0)
            return glob.handler(req, Rng(_fresh_seed() if seed is None else seed))
        if name == "roll":
            return self._roll_sessionless(line)
        if self.session is None and name in _session_command_names():
            raise NoSession(Msg("'{}' needs a session: start one with 'new <game>'.", name))
        raise UnknownCommand(Msg("Unknown command '{}'; 'help' lists the commands.", name[:40]))

    def command_names(self) -> list[str]:
        names = list(BUILTINS)
        if self.session is not None:
            names += [n for n in self.session.command_names() if n not in names]
        names += [n for n in registry.GLOBAL_COMMANDS if n not in names and registry.global_command(n)]
        return names

    def reopen(self, line: str, seed: int, committed: bool) -> dict[str, Any]:
        """Start ``line`` (an archived session's ``new`` line) again with its own ``seed``, as a
        response like :meth:`request`'s. A seed that was secret stays secret: it is not added to
        the line, and the new session keeps the same commitment (so ``reveal`` at the end still
        proves every draw)."""
        from firmware.i18n import localize, say
        try:
            req = parse_line(line)
            if req.command != "new":
                raise BadArguments(Msg("Only a 'new' line can be reopened."))
            fields = self._new(line, req.opts, given=(seed, committed))
        except LegatusError as e:
            return {"ok": False, "error": e.code, "message": say(e.message)}
        return {"ok": True, **localize(fields)}

    def _new(self, line: str, opts: Mapping[str, str], given: tuple[int, bool] | None = None) -> dict[str, Any]:
        seed_text = opts.get("seed")
        if given is not None:
            seed, committed = given
        elif seed_text is None:
            seed, committed = _fresh_seed(), True
        else:
            try:
                seed = int(seed_text)
            except ValueError:
                raise BadArguments(Msg("seed= needs a whole number, not '{}'.", seed_text[:24])) from None
            if not 0 <= seed < 2**64:
                raise BadArguments(Msg("seed= must be between 0 and 2^64-1."))
            committed = False
        session = Session.start(line, seed, sid=os.urandom(8).hex(), committed=committed)
        old = self.session
        abandoned = self._history_hook("record_abandoned", old) if old is not None else False
        try:
            self.store.begin(session)
        except BaseException:
            if abandoned:
                self._history_hook("forget_abandoned", old)
            raise
        self.session = session
        self._history_hook("note_started")
        out: dict[str, Any] = {"game": session.game.name}
        view = session.view()
        if "commitment" in view:
            out["commitment"] = view["commitment"]
        out["state"] = view
        return out

    def _reveal(self, args: tuple[str, ...]) -> dict[str, Any]:
        """The session's seed: after it anyone can check the commitment and replay every draw."""
        assert self.session is not None
        out: dict[str, Any] = {"seed": int(self.session.header["seed"])}
        if self.session.header.get("committed"):
            from firmware.fairness import commitment
            out["commitment"] = commitment(out["seed"])
        return out

    def _run_session(self, line: str) -> dict[str, Any]:
        assert self.session is not None
        outcome, new_json = self.session.run(line)
        if new_json is not None:
            self.store.commit(self.session, line, outcome, new_json)
            self._history_hook("after_action", parse_line(line).command, outcome.fields, True)
            fields = dict(outcome.fields)
            fields.setdefault("state", self.session.view())
            return fields
        self._history_hook("after_action", parse_line(line).command, outcome.fields, False)
        return dict(outcome.fields)

    def _history_hook(self, name: str, *args: Any) -> Any:
        """Record finished/abandoned games (firmware/history.py). The action is already saved:
        a failure here never fails the reply; ``reconcile`` at the next start or ``state``
        records what was missed."""
        from firmware import history
        session = args[0] if name in ("record_abandoned", "forget_abandoned") else self.session
        rest = args[1:] if name in ("record_abandoned", "forget_abandoned") else args
        if session is None:
            return None
        try:
            return getattr(history, name)(self.store, session, *rest)
        except Exception:  # noqa: BLE001 - history must never stop a game
            return None

    def _state(self, args: tuple[str, ...]) -> dict[str, Any]:
        assert self.session is not None
        self._history_hook("reconcile")
        out: dict[str, Any] = {"state": self.session.view()}
        if self.store.recovery is not None:
            out["recovered"] = self.store.recovery.sentence()
        return out

    def _undo(self, args: tuple[str, ...]) -> dict[str, Any]:
        assert self.session is not None
        text = self.store.undo(self.session)
        self._history_hook("after_undo")
        return {"undone": text, "state": self.session.view()}

    def _log(self, args: tuple[str, ...]) -> dict[str, Any]:
        assert self.session is not None
        n = 20
        if args:
            try:
                n = int(args[0])
            except ValueError:
                raise BadArguments(Msg("Usage: log [N]; '{}' is not a number.", args[0][:24])) from None
            if n < 1:
                raise BadArguments(Msg("log N needs N ≥ 1."))
        return {"log": self.session.log[-n:]}

    def _roll_sessionless(self, line: str) -> dict[str, Any]:
        from engine import dice
        from engine.rng import Rng
        req = parse_line(line)
        if len(req.args) != 1:
            raise BadArguments(Msg("Usage: roll NdS[+M|-M], e.g. roll 3d6+1."))
        seed = req.opt_int("seed", lo=0)
        record = dice.roll(dice.parse_dice(req.args[0]), Rng(_fresh_seed() if seed is None else seed))
        return {"dice": record["dice"], "total": record["total"]}

    def _settings(self, opts: Mapping[str, str]) -> dict[str, Any]:
        from firmware.settings import apply_settings
        current = self.store.load_settings()
        if opts:
            current = apply_settings(current, opts)
            self.store.save_settings(current)
            if "language" in opts:
                from firmware.i18n import set_language
                set_language(opts["language"])
            if self.settings_hook is not None:
                self.settings_hook(current)
        from firmware.settings import with_defaults
        return {"settings": with_defaults(current)}

    def close(self) -> None:
        self.store.close()


def _session_command_names() -> set[str]:
    """Every command some game session has (imports the games: only on this error path)."""
    from engine.common import SESSION_COMMANDS
    names = set(SESSION_COMMANDS)
    for game in registry.available_games():
        names |= set(registry.game(game).commands)
    return names


def read_line(stream: IO[bytes]) -> tuple[bytes, bool] | None:
    """Read one request line of at most MAX_LINE bytes (terminator excluded).

    Returns ``(line, too_long)``; an overlong line is consumed to its end and returned empty with
    ``too_long`` set. None at end of input.
    """
    line = stream.readline(MAX_LINE + 2)
    if not line:
        return None
    if line.endswith(b"\n"):
        body = line[:-1]
        if body.endswith(b"\r"):
            body = body[:-1]
        return (b"", True) if len(body) > MAX_LINE else (body, False)
    if len(line) <= MAX_LINE:
        return line, False  # last line without a newline
    while True:  # skip the rest of the overlong line
        more = stream.readline(65536)
        if not more or more.endswith(b"\n"):
            break
    return b"", True


def serve(console: Console, reader: IO[bytes], writer: IO[bytes]) -> None:
    """Answer request lines until end of input or ``quit``."""
    while not console.quit:
        got = read_line(reader)
        if got is None:
            break
        body, too_long = got
        if too_long:
            too = LineTooLong(Msg("Lines are limited to {} bytes; this one was ignored.", MAX_LINE))
            response: str | None = Console._error(too)
        else:
            response = console.handle_bytes(body)
        if response is not None:
            writer.write(response.encode("utf-8") + b"\n")
            writer.flush()


def run_console(state_dir: str | None, serial_port: str | None = None, baud: int = 115200) -> int:
    """``legatus console``: the protocol on stdin/stdout or a serial port. Returns an exit code."""
    from pathlib import Path

    from firmware.store import StateDirError, default_state_dir
    try:
        store = Store(Path(state_dir) if state_dir else default_state_dir())
    except StateDirError as e:
        print(f"legatus: {e}", file=sys.stderr)
        return 2
    session = store.resume()
    if store.recovery is not None:
        print(f"legatus: {store.recovery.sentence()}", file=sys.stderr)
    console = Console(store, session)
    try:
        if serial_port is None:
            serve(console, sys.stdin.buffer, sys.stdout.buffer)
        else:
            from hw.serial_link import LINK_ERRORS, open_serial
            try:
                port = open_serial(serial_port, baud)
            except Exception as e:
                print(f"legatus: {e}", file=sys.stderr)
                return 2
            print(f"legatus: console on {serial_port} at {baud} baud", file=sys.stderr, flush=True)
            try:
                with port:
                    serve(console, port, port)
            except LINK_ERRORS as e:             # a hangup (see hw.serial_link.LINK_ERRORS)
                print(f"legatus: the serial link closed ({e}); every acknowledged action is saved.",
                      file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        console.close()
    return 0
