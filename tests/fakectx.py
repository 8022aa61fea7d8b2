"""A :class:`firmware.screens.ctx.Ctx` for screen unit tests, without storage, serial or hardware.

The game runs in an in-memory :class:`firmware.session.Session` (the same rules as on the device);
history, archives and the serial link are plain lists given to it; everything a screen does is
recorded (``lines`` run, ``notes`` shown, ``sent`` over the serial link, ``commitments`` shown).

    ctx = FakeCtx("new jc-battle seed=4", "add attacker c_leg10")
    ctx.open(JcHome())
    ctx.press("down", "a")
    assert ctx.lines[-1] == "..."
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from PIL import Image

from engine import registry
from engine.errors import LegatusError, NoSession
from engine.replies import NewReply, Reply, SettingsReply
from engine.rng import Rng
from engine.text import Msg
from engine.views import SessionView
from firmware.fairness import FairDraw
from firmware.i18n import localize, say, set_language
from firmware.replies import ArchivedSession, HistoryEntry, PlayedEntry, plain
from firmware.screens.ctx import Noted, Screen, Sent, Shows, key_place, second_action
from firmware.session import Session, parse_line
from firmware.settings import apply_settings, with_defaults


class FakeCtx:
    """The screen contract over an in-memory session (see the module docstring)."""

    def __init__(self, *lines: str, settings: dict[str, Any] | None = None, lang: str = "en",
                 history: list[dict[str, Any]] | None = None, archives: list[dict[str, Any]] | None = None,
                 serial: bool = True, recorded: bool = False, players: list[str] | None = None,
                 unreadable: bool = False) -> None:
        set_language(lang)
        self.settings: dict[str, str] = with_defaults({"language": lang, **(settings or {})})
        self.simulated = False
        self.session: Session | None = None
        self.stack: list[Screen] = []
        self.lines: list[str] = []              # every line run (also read-only ones), in order
        self.notes: list[str] = []              # every notice shown
        self.sent: list[str] = []               # lines sent over the serial link
        self.commitments: list[str] = []
        self.stored_history = list(history or [])
        self.stored_archives = list(archives or [])
        self.serial = serial
        self.unreadable = unreadable            # the card cannot be read: history and archives are None
        self.recorded = recorded
        self.pending: set[str] = set()          # read-only lines ``ask`` answers None for (being computed)
        self.players: list[str] = list(players or [])      # the players' list, most recent first
        for line in lines:
            response = self.run(line)
            assert response["ok"], (line, response)
        self.lines.clear()

    # -- the game ------------------------------------------------------------------------------
    def view(self) -> SessionView | None:
        return None if self.session is None else cast(SessionView, localize(self.session.view()))

    def run(self, line: str) -> Any:
        """The response (typed by the line's builder at the screens' side: ``Ctx.run``)."""
        self.lines.append(line)
        try:
            return {"ok": True, **localize(self._dispatch(line.strip()))}
        except LegatusError as e:
            return {"ok": False, "error": e.code, "message": say(e.message)}

    def ask(self, line: str) -> Any:
        if line.strip() in self.pending:
            return None
        return self.run(line)

    def fair_draw(self) -> FairDraw | None:
        from firmware.fairness import of_session
        return None if self.session is None else of_session(self.session)

    def reopen(self, line: str, seed: int, committed: bool, version: int = 0, ends: bool = False,
               lines: Sequence[str] = (), was: str = "") -> NewReply:
        self.lines.append(f"reopen {line} seed={seed}")
        try:
            self.session = Session.start(line, seed, "fake", committed)
            self.session.again = [x.strip() for x in lines]
        except LegatusError as e:
            return cast(NewReply, {"ok": False, "error": e.code, "message": say(e.message)})   # the envelope alone
        return {"ok": True, "game": self.session.game.name}

    def set_setting(self, key: str, value: str) -> SettingsReply:
        return cast(SettingsReply, self.run(f"settings {key}={value}"))

    def _dispatch(self, line: str) -> dict[str, Any]:
        req = parse_line(line)
        if req.command == "new":
            seed = req.opt_int("seed", lo=0)
            self.session = Session.start(line, 1 if seed is None else seed, "fake", committed=seed is None)
            view = self.session.view()
            out: dict[str, Any] = {"game": self.session.game.name, "state": view}
            if "commitment" in view:
                out["commitment"] = view["commitment"]
            return out
        if req.command == "commit":          # the secret of the next ``new`` is always 1 here
            from firmware.fairness import commitment
            return {"commitment": commitment(1)}
        if req.command == "settings":
            self.settings = with_defaults(apply_settings(self.settings, req.opts))
            return {"settings": self.settings}
        if req.command == "players":
            return self._players(req.args)
        if req.command == "export" and req.opts.get("format") == "bgstats":   # the stored history's
            from firmware.export import bgstats
            wanted = req.opts.get("id")
            entry = next(e for e in self.stored_history if wanted is None or str(e["id"]) == wanted)
            return bgstats(plain(cast(HistoryEntry, entry)))
        glob = registry.global_command(req.command)
        if glob is not None and (self.session is None or self.session.command(req.command) is None):
            seed = req.opt_int("seed", lo=0)
            return glob.handler(req, Rng(7 if seed is None else seed))
        if self.session is None:
            raise NoSession(Msg("No session yet: start one with 'new <game>' ({}).", ", ".join(sorted(registry.GAMES))))
        if req.command == "undo":
            return {"undone": self.session.undo(), "state": self.session.view()}
        if req.command == "log":
            from firmware.log_sentences import said
            return {"log": [said(x) for x in self.session.log[-int(req.args[0] if req.args else 20):]]}
        if req.command == "state":
            return {"state": self.session.view()}
        if req.command == "actions":         # as the console: newest first, a page before action K
            from firmware.log_sentences import said
            lines, n = list(self.session.lines), int(req.args[0]) if req.args else 20
            before = int(req.opts.get("before", len(lines) + 1))
            lo = max(0, before - 1 - n)
            page = [{"n": i + 1, "line": lines[i], "text": said(self.session.sentences[i])}
                    for i in range(before - 2, lo - 1, -1)]
            return {"actions": page, "total": len(lines), "before": lo + 1 if lo > 0 else None}
        if req.command == "reveal":          # as the console: only once the game has ended
            from engine.errors import IllegalMove
            from firmware.fairness import finished_by_rules, revealed
            if not self.session.ended:
                state = self.session.state
                if not finished_by_rules(self.session.game.name, self.session.game.view(state), self.session.lines):
                    raise IllegalMove(Msg("The seed is shown when the game ends: finish the game, or end it with 'end'."))
                self.session.apply("end")
            out = revealed(self.session.header, self.session.share_of(self.session.state))
            out["ended"] = self.session.ended_as()             # as the console answers
            return out
        asked = not self.session.given_again(line)                 # as the console
        outcome = self.session.apply(self.session.as_asked(line) if asked else line, asked=asked)
        fields = dict(outcome.fields)
        command = self.session.command(req.command)
        if command is not None and command.mutates:
            fields.setdefault("state", self.session.view())
        return fields

    def _players(self, args: tuple[str, ...]) -> dict[str, Any]:
        """``players [forget <name> | rename <old> <new>]`` over the in-memory list."""
        from engine.errors import BadArguments
        if args and args[0] == "forget":
            if args[1] not in self.players:
                raise BadArguments(Msg("No remembered player is called '{}'.", args[1]))
            self.players.remove(args[1])
            return {"forgotten": args[1], "players": list(self.players)}
        if args and args[0] == "rename":
            self.players = [args[2] if n == args[1] else n for n in self.players]
            return {"renamed": args[2], "players": list(self.players)}
        return {"players": list(self.players), "was": {}}

    # -- what is stored ------------------------------------------------------------------------
    def history(self, limit: int | None = 50) -> list[HistoryEntry] | None:
        if self.unreadable:
            return None
        return cast(list[HistoryEntry], self.stored_history[:limit])

    def played(self) -> list[PlayedEntry] | None:
        if self.unreadable:
            return None
        keys = ("id", "game", "status", "part", "finished", "mode", "players")
        return [cast(PlayedEntry, {**{k: e.get(k) for k in keys}, "part": e.get("part") or "game",   # (a whole game
                                   "sid": e.get("sid", f"s{e.get('id')}")}) for e in self.stored_history]  # in a session each)

    def game_recorded(self) -> bool:
        return self.recorded

    def game_record(self, part: str) -> HistoryEntry | None:
        """The newest of ``history=`` entries of the session (``sid`` "fake") and ``part``."""
        if self.unreadable:
            return None
        return next((cast(HistoryEntry, e) for e in self.stored_history
                     if e.get("sid") == "fake" and e.get("part", "game") == part), None)

    def hardware_checks(self) -> list[Any]:
        from firmware import doctor
        return doctor.gather(Path("."), doctor.resolve_config(None, dict(self.settings)), None)

    def archives(self, limit: int = 40) -> list[ArchivedSession] | None:
        if self.unreadable:
            return None
        return cast(list[ArchivedSession], self.stored_archives[:limit])

    def send_reply(self, reply: Reply) -> Sent:
        if not self.serial:
            return "no link"
        from firmware.console import reply_json
        self.sent.append(reply_json(reply))
        return "sent"

    # -- the screen stack ----------------------------------------------------------------------
    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()

    def replace(self, screen: Screen) -> None:
        self.stack[-1] = screen

    def depth(self) -> int:
        return len(self.stack)

    def under(self, levels: int = 1) -> Screen | None:
        return self.stack[-1 - levels] if 0 < levels < len(self.stack) else None

    def prune(self, drop: Callable[[Screen], bool]) -> None:
        self.stack[:-1] = [s for s in self.stack[:-1] if not drop(s)]

    def to_root(self) -> None:
        del self.stack[1:]

    def notify(self, text: str) -> None:
        self.notes.append(say(text))

    def show_commitment(self, code: str, form: bool = False) -> None:
        self.commitments.append(code)

    # -- driving -------------------------------------------------------------------------------
    def open(self, screen: Screen) -> FakeCtx:
        """Put ``screen`` on the stack (over a placeholder root, so Back has somewhere to go)."""
        if not self.stack:
            self.stack.append(_Root())
        self.stack.append(screen)
        return self

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def press(self, *keys: str) -> FakeCtx:
        """Give ``keys`` to the top screen, one after the other (as the App does, minus undo: KEY3
        is hold A, and hold A where the screen has no second action is A)."""
        from firmware.screens.widgets.keys import given
        for key in keys:
            if key == "yes":                      # (tests.screens.YES: the question answered whole)
                from tests.screens import say_yes
                say_yes(self)
                continue
            top = self._on_top(self.top)
            top.key(given(key, key_place(top), second_action(top)), self)
        return self

    def render(self) -> Image.Image:
        return self._on_top(self.top).render(self)

    def _on_top(self, screen: Screen) -> Screen:
        """``screen``, told it is on top before it is drawn or given a key, as the App does
        (firmware/app.py ``_on_top``: a screen that follows the game notes its step)."""
        if isinstance(screen, Noted):
            screen.on_top(self)
        return screen

    def drop_stale(self) -> FakeCtx:
        """After a change of the state no key on the screen made (an undo, a line from the serial
        link: :meth:`link`), take off every screen that says it no longer shows the state, as the
        App does (firmware/app.py ``drop_stale``, :class:`firmware.screens.ctx.Shows`); one whose
        ``stale`` fails is taken off too, as there. The first screen stays."""
        keep = self.stack[:1]
        for screen in self.stack[1:]:
            try:
                gone = isinstance(screen, Shows) and bool(screen.stale(self))
            except Exception:  # noqa: BLE001 - as the App: a screen that cannot tell goes
                gone = True
            if not gone:
                keep.append(screen)
        self.stack = keep
        return self

    def link(self, line: str) -> Any:
        """``line`` as the serial link sends it while the screens are open: run, then the screens
        it made stale taken off (:meth:`drop_stale`); its response."""
        response = self.run(line)
        self.drop_stale()
        return response

    def texts(self) -> list[str]:
        """Every text the top screen draws (firmware.screens.base.TRACE)."""
        from firmware.screens import base
        base.TRACE = []
        try:
            self.render()
            return [t for _x, _y, t, _kind in base.TRACE]
        finally:
            base.TRACE = None


class _Root:
    """The bottom of a FakeCtx's stack: a blank frame that ignores keys."""

    title = "root"

    def render(self, ctx: Any) -> Image.Image:
        return Image.new("1", (128, 64), 0)

    def key(self, key: str, ctx: Any) -> None:
        return None


def _is_a_ctx(ctx: FakeCtx) -> Any:
    """mypy checks the FakeCtx against the contract like the App (tests are not type-checked by
    default; ``mypy tests/fakectx.py`` does)."""
    from firmware.screens.ctx import Ctx
    checked: Ctx = ctx
    return checked
