"""The device UI state machine: a stack of screens over one Console (one thread owns both).

Key events come in as logical names (hw/keys.py); every change to the game goes through
``Console.request`` so it is journaled exactly as a console line would be.
"""
from __future__ import annotations

import logging
import os
import traceback
from functools import partial
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from PIL import Image

from engine import actions as act
from engine.actions import Line
from engine.replies import NewReply, Reply, SettingsReply
from engine.text import Msg
from engine.views import SessionView
from firmware.console import Console
from firmware.fairness import FairDraw
from firmware.games import follow_undo
from firmware.history_reads import HistoryReads
from firmware.app_card import CardNews, CardNote, card_note, refusal
from firmware.app_undo import ask_undo, undone_by_link
from firmware.history_record import NOT_OFF, OffLoop
from firmware.i18n import Spoken, _, again, language, locale_language, localize, say
from firmware.replies import ArchivedSession, ArchiveHeader, HistoryEntry, PlayedEntry
from firmware.screens import base
from firmware.screens.ctx import Ctx, Noted, Screen, Sent, Shows, Step, cursor_first, key_place, remade, second_action
from firmware.screens.notices import NoticesScreen
from firmware.screens.widgets import Intent, TextScreen, draw_code_box, draw_notice, intent
from firmware.screens.widgets.keys import given, repeated
from firmware.settings import with_defaults
from firmware.start_language import question_language, speaking
from firmware.worker import Worker

if TYPE_CHECKING:

    from firmware.doctor import Check
    from firmware.session import Session

log = logging.getLogger(__name__)
R = TypeVar("R")


class App:
    """Implements :class:`firmware.screens.ctx.Ctx` for the screens: the only way from a screen to
    the session, the store (history, archives, settings), the serial link and the screen stack."""

    def __init__(self, console: Console, root: Screen | None = None) -> None:
        from firmware.screens.menu import MainMenu
        self.console = console
        self.settings: dict[str, str] = with_defaults(console.store.load_settings())
        self.simulated = False               # the terminal simulator's (firmware/device.py sets it)
        self.stack: list[Screen] = [root or MainMenu()]
        self.message: list[str] | None = None
        self.notices = 0                     # notices said so far (the device loop: a push brings one at most)
        self._notice = ""                    # what ``message`` says (said again in a new language)
        self._drawn_in = language()          # the language of the screens made so far
        self.commitment: str | None = None     # shown over the first frame of a new game
        self._code_on_form = False           # ... of a new-game form (its first key acts on the form too)
        self._view: SessionView | None = None
        self._view_stale = True              # (and the session, its state and its actions when it was made:)
        self._view_of: tuple[object, ...] = ()    # a read-only request (each key, on some screens) keeps it
        self._reads = HistoryReads(console.store, self.notify)      # History as read last, kept
        self.errors = 0                      # screen failures caught since start (for tests, logs)
        self._unreadable_said = 0            # font and catalog files said to be unreadable
        self.worker: Worker | None = None    # slow read-only answers off the loop (device only)
        self._off = OffLoop(console)         # ... of those that need no session (History's draw record)
        self._card = CardNews(console.store.recovery)    # the card's news said so far (firmware/app_card.py)
        console.settings_hook = self._settings_changed     # a `settings` line from the serial link too
        if root is None and "language" not in console.store.load_settings():
            from firmware.screens.language import LanguageScreen
            # the list opens on the locale's language when it is one of ours (none under the systemd unit)
            self.stack.append(LanguageScreen(first_start=True, suggested=locale_language(os.environ)))

    # -- Ctx ---------------------------------------------------------------------------------
    def run(self, line: Line[R]) -> R:
        response = cast(Reply, self.console.request(line))   # the line's builder says its shape
        self._card.heard(self.console.store.recovery, None if response.get("ok") else response.get("message"))
        if response.get("error") == "internal_error":
            self.notify(response.get("message", ""))
        return cast(R, response)

    def ask(self, line: Line[R]) -> R | None:
        """The response to the read-only ``line`` for the state as it is now. With a worker
        (the device loop), a slow answer is computed there: None until it is ready, and the
        loop is woken to draw it. Without one (tests, scripts) it is :meth:`run`."""
        session, worker = self.console.session, self.worker
        line = Line[R](line.strip())
        if worker is not None and (off := self._off.ask(line, worker)) is not NOT_OFF:   # (History's draw record:
            return cast("R | None", off if off is None else self._checked(cast(Reply, off)))   # no session needed)
        if worker is None or session is None or (job := session.detached(line)) is None:
            return self.run(line)
        now = (_header(session).get("sid"), session.state_json)
        answer = worker.answer((line, now))
        if answer is None:
            worker.submit((line, now), job, group=now)
            return None
        return cast(R, self._checked(cast(Reply, self.console.response(answer[1]))))    # the fields, or the exception raised

    def line_off(self, raw: bytes) -> str | None:
        """A request line from the serial link whose answer the worker makes (``export
        format=draws``: History's draw record, :meth:`ask`): what it needs is read and its job
        given to the worker; its text, to ask :meth:`answer_off` for the answer; None for any
        other line (:meth:`serve_line` answers it), and without a worker."""
        from firmware.console_lines import edited
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            return None
        if self.worker is None or edited(raw) != raw or "\x00" in text:
            return None
        return text if self._off.ask(text, self.worker) is not NOT_OFF else None

    def answer_off(self, text: str) -> str | None:
        """The response line to :meth:`line_off`'s ``text`` once it is made (None until then)."""
        from firmware.console import reply_json
        got = self._off.ask(text, self.worker) if self.worker is not None else self.console.request(text)
        return None if got is None or got is NOT_OFF else reply_json(cast(Reply, got))

    def _checked(self, response: Reply) -> Reply:
        """A worker's answer as :meth:`run` gives it: an internal error is said on the panel."""
        if response.get("error") == "internal_error":
            self.notify(response.get("message", ""))
        return response

    def fair_draw(self) -> FairDraw | None:
        return self.console.fair_draw()

    def reopen(self, line: str, seed: int, committed: bool, version: int = 0, ends: bool = False,
               lines: Sequence[str] = (), was: str = "") -> NewReply:
        response = cast(NewReply, self.console.reopen(line, seed, committed, version, ends, lines, was))
        self._view_stale = True
        return response

    # -- what is stored ----------------------------------------------------------------------
    def history(self, limit: int | None = 50) -> list[HistoryEntry] | None:
        return self._reads.history(limit)

    def played(self) -> list[PlayedEntry] | None:
        return self._reads.played()

    def game_recorded(self) -> bool:
        session = self.console.session
        return session is not None and self._reads.recorded(_header(session))

    def game_record(self, part: str) -> HistoryEntry | None:
        session = self.console.session
        return None if session is None else self._reads.record(_header(session), session.lines, part)

    def hardware_checks(self) -> list[Check]:
        from firmware.hardware_checks import device_checks
        return device_checks(self.console.store)

    def archives(self, limit: int = 40) -> list[ArchivedSession] | None:
        try:
            return cast(list[ArchivedSession], self.console.store.archives(limit))
        except Exception:  # noqa: BLE001 - an unreadable archive: the screen says so at each press
            log.exception("the archive could not be read")
            return None

    # -- the serial link -----------------------------------------------------------------------
    def send_reply(self, reply: Reply) -> Sent:
        writer = self.console.serial_out
        if writer is None:
            return "no link"
        from firmware.console import reply_json
        from hw.serial_link import LINK_ERRORS
        try:
            writer((reply_json(reply) + "\n").encode("utf-8"))
        except LINK_ERRORS:
            log.exception("the serial link did not take a line")
            return "failed"
        return "sent"

    def view(self) -> SessionView | None:
        if (session := self.console.session) is None:
            return None
        if (mark := (session, session.state_json, len(session.lines))) != self._view_of or self._view_stale:
            self._view, self._view_of = cast(SessionView, localize(session.view())), mark
            self._view_stale = False
        return self._view

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
        """A short message over the screen until the next key; a long one gets its own
        scrollable screen so nothing is cut off, marked with the game's step it was said at
        (``said_at``: an undo of that step takes it off, :meth:`drop_stale`; with no game in
        play, none ever does)."""
        self.notices += 1
        self._show(text)

    def _show(self, text: str) -> None:
        """``text`` over the screen, or on its own «Note» screen if it is too long (:meth:`notify`)."""
        said = say(text, question_language(self.stack))     # (over the first start's question: its list's)
        rows = base.wrap(said, base.COLS - 2)
        if len(rows) <= base.ROWS:
            self.message = rows
            self._notice = said if isinstance(said, Spoken) else text
        else:
            source = said if isinstance(said, Spoken) else text
            session = self.console.session
            at = Step(session.game.name, len(session.lines)) if session is not None else None
            if isinstance(source, (Spoken, Msg)):
                self.push(remade(lambda: _note(again(source), at)))
            else:                          # said from no sentence: taken off if the language changes
                self.push(_note(said, at))

    def start_notice(self, text: str) -> None:
        """A notice of the start (a recovered database, a storage that keeps nothing, the last
        run's failure, a config file ignored, keys that do not answer): all of them on one
        scrollable screen, a paragraph each, never cut; B or A closes it."""
        top = self.stack[-1]
        if not isinstance(top, NoticesScreen):
            top = NoticesScreen()
            self.push(top)
        top.add(say(text))

    def _say_unreadable(self) -> bool:
        """A start notice for each font or catalog file found unreadable since the last frame;
        whether there was one. In English: the built-in font that stands in has no Cyrillic."""
        from firmware import i18n
        found = [*(Msg("The font file {} cannot be read ({}): letters the built-in font lacks are drawn as '?'. "
                       "Reinstall Legatus.", name, why) for name, why in base.UNREADABLE),
                 *(Msg("The translation file {} cannot be read ({}): its texts are shown in English. "
                       "Reinstall Legatus.", name, why) for name, why in i18n.UNREADABLE)]
        new = found[self._unreadable_said:]
        self._unreadable_said = len(found)
        for note in new:
            self.start_notice(say(note, "en") if base.UNREADABLE else say(note))
        return bool(new)

    def _settings_changed(self, stored: dict[str, str]) -> None:
        """The settings as now stored, by the device or by a ``settings`` line from the serial
        link (the panel's contrast, the screen-off time and the language marked in Settings
        follow it at once)."""
        self.settings = with_defaults(stored)
        self._view_stale = True

    def set_setting(self, key: str, value: str) -> SettingsReply:
        response = self.run(act.settings(key, value))
        if response["ok"]:
            self.settings = response["settings"]
            self._view_stale = True
        return response

    # -- events ------------------------------------------------------------------------------
    def handle(self, key: str) -> None:
        """One logical key event (after debounce/hold): a notice or the fair-draw code box over the
        screen takes the key and closes (the key does nothing else), hold B asks to undo, else
        the screen. An exception from a screen is caught here (see :meth:`failed`): a key never
        ends the program."""
        try:
            with self.console.store.one_key():     # its steps are one: one hold of B takes them back
                self._key(key)
        finally:
            self._say_card_news()

    def _say_card_news(self) -> None:
        """The card's news since the last time, a page each, as the key or line ends (firmware/app_card.py)."""
        for note in self._card.take():
            self.notices += 1
            self.push(remade(partial(card_note, note)))

    def _key(self, key: str) -> None:
        try:
            if self.message is not None or self.commitment is not None:
                if repeated(key):                        # a notice waits for a key of its own
                    return
                closes_only = self.closes_only()
                self.message = self.commitment = None
                if closes_only:
                    return
            place = key_place(self.stack[-1])                     # hold B: the same on every screen
            if intent("row", key) is Intent.UNDO and intent(place, key) is Intent.UNDO:   # (the key test names it)
                self.ask_undo()
                return
            # KEY3 is hold A; hold A with no second action here is a slow A (docs/keys.md)
            self._on_top(self.stack[-1]).key(given(key, place, second_action(self.stack[-1])), self)
        except Exception as e:  # noqa: BLE001 - nothing on screen may end the program
            self.failed(e, f"key {key}")

    def failed(self, e: BaseException, where: str) -> None:
        """Record a screen failure on stderr and show the error screen over the main menu."""
        from firmware.screens.errors import ErrorScreen
        from firmware.screens.menu import MainMenu
        self.errors += 1
        frames = traceback.extract_tb(e.__traceback__)[-4:]
        trail = "; ".join(f"{f.filename.rsplit('/', 3)[-1]}:{f.lineno} {f.name}" for f in frames)
        log.error("legatus: screen error on %s in %s: %s: %s (at %s)", where, type(self.stack[-1]).__name__,
                  type(e).__name__, e, trail)
        self._view_stale = True
        self.message = None
        what = _("The screen failed ({}).").format(type(e).__name__)
        self.stack = [MainMenu(), ErrorScreen(what, self._go_on, self._start_over)]

    def _go_on(self, ctx: Any) -> None:
        from firmware.screens.menu import MainMenu
        self.stack = [MainMenu()]

    def _start_over(self, ctx: Any) -> None:
        """Keep the failing session in the archive and begin an empty dice session."""
        from firmware.screens.menu import MainMenu
        self.stack = [MainMenu()]
        response = self.run(act.new_dice())
        self.notify(Msg("The last game was archived; a fresh session has begun.") if response["ok"]
                    else response.get("message", ""))

    def ask_undo(self) -> None:
        """Hold B: ask to take back the newest step (and the steps the same key made after it):
        :func:`firmware.app_undo.ask_undo`."""
        ask_undo(self)

    def serve_line(self, raw: bytes) -> str | None:
        """One request line from the serial link (the console protocol) while the screens are
        open: its response line (or None). The screens then still match the game: when the line
        put another session in play (a ``new``, or an ``undo`` that took one back) every game
        screen is taken off (the start notices and the first start's language question stay) and
        the main menu says why; otherwise the screens the line made stale are taken off
        (:meth:`drop_stale`), and an ``undo`` is said on the device as hold B says it: the players
        at the table look at the device, not at the laptop (:meth:`_undone_by_link`)."""
        before = self._session_id()
        session = self.console.session
        depth = len(session.lines) if session is not None else None
        response = self.console.handle_bytes(raw)
        self._card.heard(self.console.store.recovery, refusal(response))
        self._view_stale = True
        if self._session_id() != before:
            from firmware.screens.language import LanguageScreen
            kept = [s for s in self.stack[1:] if isinstance(s, (NoticesScreen, CardNote))
                    or (isinstance(s, LanguageScreen) and s.first_start)]
            self.stack = [self.stack[0], *kept]
            self.message = self.commitment = None     # (the code of the game put aside: History has it)
            self.notify(Msg("The serial link put another game in play; here is the main menu."))
        else:
            now = self.console.session
            if now is not None and depth is not None and len(now.lines) < depth:    # an undo
                self._follow_undo()
            self.drop_stale()
            undone = self._undone_by_link(response, depth)
            if undone is not None:
                self.notify(undone)
        self._say_card_news()
        return response

    def _follow_undo(self) -> None:
        """After an undo, wherever the device is: the running game's own follow-up (games.follow_undo)."""
        session = self.console.session
        follow_undo(session.game.name if session is not None else None, self)

    def _undone_by_link(self, response: str | None, depth: int | None) -> Any:
        """What a serial line just took back, as hold B says it (:func:`undone_by_link`)."""
        return undone_by_link(self.console.session, response, depth)

    def _session_id(self) -> object:
        session = self.console.session
        return None if session is None else _header(session).get("sid")

    def _on_top(self, screen: Screen) -> Screen:
        """``screen``, told that it is on top (``on_top(ctx)``) before it is drawn or given a key: one that follows
        the game remembers the step it was first drawn or used at (firmware/screens/play.py ``Follows``)."""
        if isinstance(screen, Noted):
            screen.on_top(self)
        return screen

    def drop_stale(self) -> None:
        """After a change of the state (an undo, a line from the serial link): take off every
        screen that says it no longer shows the state (:class:`firmware.screens.ctx.Shows`: a
        turn's pages, a choice for a move that was taken back, a long notice said at a step taken
        back), so the screen shown is one that matches the state (the game's home says what it
        waits for). The first screen stays."""
        keep = [self.stack[0]]
        for screen in self.stack[1:]:
            try:
                gone = isinstance(screen, Shows) and bool(screen.stale(self))
            except Exception:  # noqa: BLE001 - a screen that cannot tell is taken off too
                log.exception("%s could not tell whether it is stale", type(screen).__name__)
                gone = True
            if not gone:
                keep.append(screen)
        self.stack = keep

    def render(self) -> Image.Image:
        """The current frame. A screen that fails to draw is replaced by the error screen; if
        even that fails, a plain frame says so. Never raises."""
        try:
            return self._render()
        except Exception as e:  # noqa: BLE001 - nothing on screen may end the program
            self.failed(e, "render")
        try:
            return self._render()
        except Exception:  # noqa: BLE001
            log.exception("the error screen failed too: a plain frame")
            from firmware.screens.errors import fallback_frame
            return fallback_frame("Screen error. Your game is safe. Press a key.")

    def show_commitment(self, code: str, form: bool = False) -> None:
        """Show the first 8 characters of a new game's fair-draw commitment over its first frame
        (large, to photograph; History → Fair draw shows it again). The next key hides it and does
        nothing else (docs/keys.md) — but over a new-game form's first frame (``form``) whose cursor
        row shows whole above the box, where the key acts on the form too: the code was on the
        panel before that key, and the key acts on the row the player sees (:meth:`closes_only`)."""
        self.commitment = code
        self._code_on_form = form

    def closes_only(self) -> bool:
        """Whether the next key only closes what is over the screen: a notice, the fair-draw code
        box; not the code box over a new-game form whose cursor row is drawn whole above it (the
        form's first row: ``ListScreen.cursor_first``), nor nothing."""
        if self.message is not None:
            return True
        if self.commitment is None:
            return False
        return not (self._code_on_form and cursor_first(self.stack[-1]))

    def _render(self) -> Image.Image:
        with speaking(question_language(self.stack)):       # over the first start's question: its list's
            return self._render_in()

    def _render_in(self) -> Image.Image:
        if language() != self._drawn_in:
            self._drawn_in = language()
            self._relanguage()
        self._card.heard(self.console.store.recovery)     # (found by a read off the loop's requests)
        self._say_card_news()
        top = self.stack[-1]
        img = self._on_top(top).render(self)
        if self._say_unreadable() or self.stack[-1] is not top:    # found while drawing (fonts load when
            base.frame_dropped()                                    # first used; a table unreadable now;
            img = self._on_top(self.stack[-1]).render(self)         # a link's roll the battle shows)
        if self.commitment is not None:
            draw_code_box(img, _("Fair draw: the code"), self.commitment[:8])
        if self.message is not None:
            draw_notice(img, self.message)
        return img

    def _relanguage(self) -> None:
        """The language changed (Settings, or a ``settings language=…`` line from the serial link):
        the stack made again in it (:func:`firmware.relanguage.in_new_language`). The notice up is
        said again, on its own «Note» screen if it is too long now, as :meth:`notify` says a long
        one (it was cut to the rows over the screen); one said from no sentence is closed: it
        would stay in the old language."""
        from firmware.relanguage import in_new_language
        self.stack = in_new_language(self.stack) or self.stack[:1]
        if self.message is not None:
            if isinstance(self._notice, (Spoken, Msg)):
                self.message = None
                self._show(again(self._notice))
            else:
                log.info("a notice in the language left is closed: %s", self._notice[:60])
                self.message = None


def _note(text: str, at: Step | None) -> TextScreen:
    """A long notice's page of its own, said at the game's step ``at`` (:meth:`App.notify`)."""
    note = TextScreen(_("Note"), text)
    note.said_at = at
    return note


def _header(session: Session) -> ArchiveHeader:
    """A session's header (firmware/session.py keeps it as a plain dict) through its TypedDict."""
    return cast(ArchiveHeader, session.header)


def _is_a_ctx(app: App) -> Ctx:
    """mypy checks here that the App keeps the whole screen contract (firmware/screens/ctx.py)."""
    return app
