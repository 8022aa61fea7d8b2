"""The screen contract: everything a screen may touch is on :class:`Ctx` (firmware/app.py implements
it on the device; tests/fakectx.py without storage). A screen imports no storage, no serial or
hardware module, runs no SQL and looks nothing up around its ``Ctx`` (no ``getattr`` probes).

This module imports nothing of the screens (it sits under all of them: no import circles).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol, TypeVar, cast, runtime_checkable

from PIL import Image

from engine.actions import Line
from engine.replies import NewReply, Reply, SettingsReply
from engine.views import SessionView
from firmware.replies import ArchivedSession, HistoryEntry, PlayedEntry

if TYPE_CHECKING:
    from firmware.doctor import Check
    from firmware.fairness import FairDraw

R = TypeVar("R")
S = TypeVar("S")

# What became of a line sent over the serial link (History → Send over serial).
Sent = Literal["sent", "no link", "failed"]


def remade(make: Callable[[], S]) -> S:
    """``make()``, a screen whose texts are said when it is made (a text, a question, a snapshot of
    the game), that keeps ``make`` as its ``remake``: when the language changes (Settings, or a
    ``settings language=…`` line from the serial link) the App makes it again in the new language
    at the same place, so nothing on the panel stays in the old one. ``make`` only reads."""
    screen = make()
    cast(Remade, screen).remake = make
    return screen


def carry_place(old: object, new: object) -> None:
    """Where the player was on ``old`` (its cursor, its scroll, the step it was shown at) onto
    ``new``, the same screen made again: a text (``reading``/``read_at``) at the same paragraph and
    sentence, not the same row (the new language wraps it otherwise); a list's row under the cursor
    (``current``: its ident, the same in every language) so that the cursor stays on it when rows
    come or go, as it does on a list never made again."""
    names = ["cursor", "_mark", "current", "shown_at"]
    scroll = getattr(old, "scroll", None)
    reading, read_at = getattr(old, "reading", None), getattr(new, "read_at", None)
    if callable(reading) and callable(read_at):
        read_at(reading())
    elif scroll is not None and hasattr(new, "scroll"):
        new.scroll.top = scroll.top
    else:
        names.append("top")
    for name in names:
        if name in vars(old) and hasattr(new, name):
            setattr(new, name, getattr(old, name))


@runtime_checkable
class Remade(Protocol):
    """A screen that can be made again in a new language (:func:`remade`)."""

    remake: Callable[[], object]


@runtime_checkable
class Placed(Protocol):
    """A screen whose keys stand in a place of their own in the key table (docs/keys.md,
    firmware/screens/widgets/keys.py: ``grid``, ``seats``, ``keytest``); every other screen's
    are a list's (``row``). Hold B asks to undo in every place the key test does not name."""

    key_place: str


@runtime_checkable
class SecondAction(Protocol):
    """A screen where hold A (KEY3) does something of its own (``second_action`` true: the
    Senate's two votes, the roller's past rolls, finishing a typed name, − on the score pad,
    leaving the key test, Julius Caesar's block form and levy step); elsewhere a held A is A."""

    second_action: bool


@runtime_checkable
class CursorFirst(Protocol):
    """A list that says whether the row under its cursor is drawn whole as the first body row
    (``cursor_first``, as it was last drawn): the first key over a new-game form's fair-draw code
    then acts on that row too (firmware/app.py ``closes_only``)."""

    cursor_first: bool


def key_place(screen: object) -> str:
    """Where ``screen``'s keys stand in the key table (:class:`Placed`; a list's row if it says none)."""
    return screen.key_place if isinstance(screen, Placed) else "row"


def second_action(screen: object) -> bool:
    """Whether hold A does something of its own on ``screen`` (:class:`SecondAction`)."""
    return isinstance(screen, SecondAction) and bool(screen.second_action)


def cursor_first(screen: object) -> bool:
    """Whether ``screen`` is a list whose cursor row was drawn whole as its first row (:class:`CursorFirst`)."""
    return isinstance(screen, CursorFirst) and bool(screen.cursor_first)


class Screen(Protocol):
    """A screen draws itself from its own UI state and the :class:`Ctx`, and handles a key."""

    @property
    def title(self) -> str: ...

    def render(self, ctx: Ctx) -> Image.Image: ...

    def key(self, key: str, ctx: Ctx) -> None: ...

    # A screen that shows the game (or History) as it stood is a :class:`Shows`: the App asks its
    # ``stale`` after an undo (hold B) and after each line from the serial link (App.drop_stale).
    # A :class:`Remade` screen (``remake() -> Screen``, set by :func:`remade`) said its texts when it
    # was made; when the language changes the App makes it again in the new one, at the same place.
    # A :class:`SecondAction` screen (``second_action = True``) gives hold A (KEY3) a job of its own;
    # on every other screen the App gives a held A as A. A :class:`Placed` screen's keys stand in a
    # place of their own in the key table (``key_place``); a :class:`CursorFirst` list says whether
    # its cursor row is drawn whole first (a new-game form under the fair-draw code).
    # A :class:`Noted` screen (``on_top(ctx)``) is told before each frame and key that it is on top
    # (a screen that follows the game, play.py ``Follows``, remembers the step it was first shown at).


@runtime_checkable
class Shows(Protocol):
    """A screen that shows a state that may change under it: the game as it stood (a step, a
    choice, a question about the next step, a long notice said at a step: a text's ``said_at``),
    History as it was read. After each change of the state that no key on the screen made — an
    undo (hold B on any screen), any line from the serial link (``undo`` too) — the App asks every
    screen on the stack (firmware/app.py ``drop_stale``) and takes off each whose ``stale`` is
    true (or fails): the screen under it, and at last the game's home, shows what is true now.
    The one way a screen leaves the stack because the state changed. (A restart begins on the
    main menu; a language switch changes no state, and a worker's answer is made for the state it
    was asked in.)"""

    def stale(self, ctx: Ctx) -> bool:
        """Whether what the screen shows or asks no longer matches the state ``ctx`` has now."""


@runtime_checkable
class Noted(Protocol):
    """A screen that notes the state it shows when it is first drawn or used (a step: play.py
    ``Follows``; an intrigue's phase): the App calls ``on_top`` before each frame and key of the
    top screen, so no screen can forget to note it (what its ``stale`` compares with)."""

    def on_top(self, ctx: Ctx) -> None:
        """Told that it is on top, before it is drawn or given a key."""


@runtime_checkable
class SendsWhenMade(Protocol):
    """A :class:`Noted` page that sends something over the serial link once it is made (History's
    draw record: ``sends_when_made`` true): asleep, no frame drawn, the device tells it it is on
    top when the worker wakes it, so the line is answered without waiting for a key."""

    sends_when_made: bool

    def on_top(self, ctx: Ctx) -> None:
        """Told that it is on top (:class:`Noted`)."""


class Step(NamedTuple):
    """A step of a game: the game in play (its session's ``game``) and how many of its lines stood
    then (its view's ``actions``)."""

    game: str
    actions: int


def step_now(ctx: Ctx) -> Step | None:
    """The step the game in play stands at (None with no session)."""
    view = ctx.view()
    return None if view is None else Step(view["game"], view["actions"])


def taken_back(ctx: Ctx, step: Step | None) -> bool:
    """Whether an undo has since taken back ``step`` of the game in play (None, or a step of
    another game: never). A text said after that step (a long notice: «Undone: …» too) may say
    what the board no longer is."""
    now = step_now(ctx) if step is not None else None
    return step is not None and now is not None and now.game == step.game and now.actions < step.actions


class Ctx(Protocol):
    """What a screen may use, and all of it."""

    settings: dict[str, str]
    """The device settings as stored (read them here; change them with :meth:`set_setting`)."""

    # -- the game: every change is a console line, journaled as the console's own ---------------
    def view(self) -> SessionView | None:
        """The current session's ``state`` view (localized), or None without a session. A game's
        screens read it through the game's TypedDict (``view_of`` in firmware/screens/<game>/words.py
        casts it once, after checking the session's game)."""

    def run(self, line: Line[R]) -> R:
        """Run a console line through the session; returns the response object, typed by the line
        (``Line[R]``: engine/replies.py, engine/<game>/replies.py). The line comes from a typed
        action builder (engine/actions.py, engine/<game>/actions.py): a screen never formats a
        command itself."""

    def ask(self, line: Line[R]) -> R | None:
        """The response to a slow read-only line (odds, advise; a History game's draw record,
        ``export format=draws``) for the state now; None while it is being computed off the main
        loop (the screen is drawn again when it is ready)."""

    def fair_draw(self) -> FairDraw | None:
        """The running session's fair draw (firmware/fairness.py ``FairDraw``: its commitment,
        the players' share, whether the game has ended; the seed only once it has), or None
        without a session. Changes go through :meth:`run` (``share``, ``end``, ``reveal``)."""

    def reopen(self, line: str, seed: int, committed: bool, version: int = 0, ends: bool = False,
               lines: Sequence[str] = (), was: str = "") -> NewReply:
        """Start an archived session's ``new`` line again with its seed (kept secret if it was)
        and its draws' derivation ``version`` (its header's ``v``; 0: today's). ``ends``: its
        lines end the session (a secret seed revealed since is refused otherwise). ``lines``: its
        lines, given next through :meth:`run`: they replay as stored (a second draw that an older
        version took is not refused). ``was``: its session's ``sid`` (the copy's play time goes on
        from that game's)."""

    def set_setting(self, key: str, value: str) -> SettingsReply:
        """Persist one device setting (as the console's ``settings key=value``); the response."""

    # -- what is stored ----------------------------------------------------------------------
    def history(self, limit: int | None = 50) -> list[HistoryEntry] | None:
        """Finished and abandoned games, newest first (firmware/history.py records); None when the
        history cannot be read now (never [], which says there is no game: the App has said why on
        the panel, once; the screen says it cannot be read)."""

    def played(self) -> list[PlayedEntry] | None:
        """Every recorded game as the statistics read it, newest first (firmware/history.py
        ``played``: no result sentence, no fair draw); None when the history cannot be read now."""

    def game_recorded(self) -> bool:
        """Whether the running session's game is over as History records it (its seed may show)."""

    def game_record(self, part: str) -> HistoryEntry | None:
        """What History keeps of ``part`` of the running session's game (a reopened copy: of the
        game it replays), newest; None: nothing, or History cannot be read now (the game's own
        score is shown then). Glory's ended game shows the score made final as History keeps it."""

    def archives(self, limit: int = 40) -> list[ArchivedSession] | None:
        """Archived sessions, newest first: ``header``, effective ``lines``, ``ended`` (epoch s);
        None when the archive cannot be read now (logged; the screen says so)."""

    # -- the serial link -----------------------------------------------------------------------
    def hardware_checks(self) -> list[Check]:
        """What ``legatus doctor`` finds (firmware/doctor.py ``Check`` rows), for Settings →
        Hardware: the running program's facts on the device, the configuration's elsewhere."""

    def send_reply(self, reply: Reply) -> Sent:
        """Write ``reply`` to the device's serial link as the console writes its replies (one JSON
        line, escaped as firmware/console.py ``reply_json`` escapes it; a newline is added)."""

    # -- the screen stack ----------------------------------------------------------------------
    def push(self, screen: Screen) -> None: ...

    def pop(self) -> None: ...

    def replace(self, screen: Screen) -> None: ...

    def depth(self) -> int:
        """How many screens are on the stack (the main menu is 1)."""

    def under(self, levels: int = 1) -> Screen | None:
        """The screen ``levels`` under the top one, or None."""

    def prune(self, drop: Callable[[Screen], bool]) -> None:
        """Take out every screen under the top one for which ``drop`` is true."""

    def to_root(self) -> None:
        """Back to the first screen (the main menu)."""

    # -- over the screen -----------------------------------------------------------------------
    def notify(self, text: str) -> None:
        """Show a short message over the current screen until the next key."""

    def show_commitment(self, code: str, form: bool = False) -> None:
        """Show a new game's fair-draw code over its first frame (large, to photograph); ``form``:
        over a new-game form, whose first key (the cursor row in sight) acts on the form too."""
