"""What every game's screens do with a session: run a line (or say why not), read the game's view,
open a game (continue it, or set one up) and start a new one (asking first when that ends another).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.actions import Line
from engine.replies import NewReply, Reply
from engine.views import SessionView
from firmware.i18n import Msg
from firmware.screens.ctx import Ctx, Screen, remade
from firmware.screens.widgets.confirm import ConfirmScreen
from firmware.screens.widgets.scroll import TableScreen, TextScreen
from firmware.screens.widgets.share import FairShare


R = TypeVar("R", bound=Reply)


def run_or_notify(ctx: Ctx, line: Line[R]) -> R | None:
    """Run ``line``; on an error show its message and return None, else the response."""
    response = ctx.run(line)
    reply: Reply = response
    if not reply["ok"]:
        ctx.notify(refusal(reply))
        return None
    return response


def kept(ctx: Ctx, name: str, value: str) -> bool:
    """Store a setting the player changed; a refusal (a full or read-only card) is said."""
    response = ctx.set_setting(name, value)
    if not response["ok"]:
        ctx.notify(refusal(response))
    return response["ok"]


def refusal(reply: Reply) -> str:
    """A refused line's message in the player's words: a game that is over (``game_over``: ended,
    or finished by its rules) is said so, never with the console's list of commands it still
    answers; any other refusal as the console words it (already in the player's language)."""
    if reply.get("error") == "game_over":
        return game_over()
    message: str = reply.get("message", "")          # (a sentence said again in a new language)
    return message


def game_over() -> str:
    """What a game that is over says to a key that would play in it."""
    return Msg("This game is over: nothing more can be played or drawn in it. Start another from "
               "Games; History keeps this one.")


def game_view(ctx: Ctx, games: tuple[str, ...], label: str) -> SessionView:
    """The session view if the session is one of ``games``; raises LookupError otherwise."""
    view = ctx.view()
    if view is None or view["game"] not in games:
        raise LookupError(f"no {label} session")
    return view


def continue_or_setup(ctx: Ctx, games: tuple[str, ...], home: Callable[[], Screen],
                      setup: Callable[[], Screen]) -> None:
    """Open a game: its home screen if the session is already one of ``games``, else its setup."""
    view = ctx.view()
    ctx.push(home() if view is not None and view["game"] in games else setup())


def tools() -> tuple[str, ...]:
    """The session games of the tools (dice, bags): History keeps none, a new game ends them quietly."""
    from firmware.games import records
    return tuple(s for r in records() if not r.recorded for s in r.sessions)


def start_game(ctx: Ctx, line: Line[NewReply], home: Callable[[], Screen],
               quiet: tuple[str, ...] | None = None, title: Callable[[], str] | None = None,
               fair: FairShare | None = None) -> None:
    """Run a ``new …`` line and show ``home`` in place of the setup screen. If that would end
    a session whose game is not in ``quiet`` (default: the tools), ask first (A starts, B keeps
    the old one; ``title``: the question's title, said when shown). ``fair``: the form's fair-draw part — the line gets the players' share, and the
    code is not shown again when the game's commitment is the one the form showed."""
    quiet = tools() if quiet is None else quiet
    if fair is not None:
        line = fair.line(line)

    def go(c: Ctx) -> None:
        response = run_or_notify(c, line)
        if response is not None:
            shown = home()
            c.replace(shown)
            c.prune(lambda s: type(s) is type(shown))   # (New game from the home: one home, B leaves it)
            code = response.get("commitment")
            if code and (fair is None or not fair.shown(code)):
                c.show_commitment(code)      # the fair-draw code, to photograph (issue 12)

    view = ctx.view()
    if view is not None and view["game"] not in quiet and not view.get("ended"):   # an ended game: nothing to lose
        from firmware.i18n import _
        game = view["game"]
        ctx.push(remade(lambda: ReplaceQuestion(
            title() if title is not None else _("New game?"),
            replaced_note(view) or _("The {} game ends and goes to the archive.").format(game_label(game)), go,
            view)))
    else:
        go(ctx)


def standing(view: SessionView | None) -> tuple[object, ...] | None:
    """What a question about putting a new session in place of the running one says depends on
    (:func:`replaced_note`): the running game, whether the players ended it, whether its rules did —
    and then the step they ended it at."""
    if view is None:
        return None
    over = bool(view["over"]) and not view["ended"]
    return view["game"], bool(view["ended"]), over, view["actions"] if over else None


class ReplaceQuestion(ConfirmScreen):
    """A question asked before a new session replaces the running one ``view`` (a new game, Dice
    & bags over a game its rules ended, a game reopened from Earlier games), saying what that does
    to it (:func:`replaced_note`). Taken off (``stale``: firmware/app.py ``drop_stale``) once the
    running game is no longer as it was asked about: an undo (hold B, or ``undo`` from the serial
    link) reopened a game its rules ended (it goes on: no longer filed as finished, its last move
    can be taken back), or a line ended it or finished it; the player asks again and hears what is
    true now."""

    def __init__(self, title: str, question: str, on_yes: Callable[[Ctx], None], view: SessionView | None,
                 yes: str | None = None, no: str | None = None) -> None:
        super().__init__(title, question, on_yes, yes, no)
        self.asked = standing(view)

    def stale(self, ctx: Ctx) -> bool:
        return standing(ctx.view()) != self.asked


def replaced_note(view: SessionView | None) -> str | None:
    """What a new session (a new game, Dice & bags, a game reopened from Earlier games) does to the
    running one when its rules ended it but the players have not (``over``, not ``ended``), said
    before it happens in a sentence the first page holds: a game History filed as finished is ended
    first, so its last move can no longer be taken back (firmware/console_session.py
    ``_ends_when_replaced``); a game whose score is corrected until the players say it is final
    (Glory after round 9, G-15) is left as it stands, its final scoring done later from Earlier
    games. None when the running game is not such a game."""
    if view is None or view["ended"] or not view["over"]:
        return None
    from firmware.games import record_of
    from firmware.i18n import _
    record = record_of(view["game"])
    label = game_label(view["game"])
    if record is not None and record.amends is not None:
        return _("The {} game's scoring waits in Earlier games.").format(label)      # 3 rows, as below
    return _("The {} game ends: last move can't be undone.").format(label)    # 3 rows: whole on the first page


def game_label(game: str) -> str:
    """A session's game for a person (never the internal id), in the current language."""
    from firmware.games import record_of
    from firmware.i18n import _
    record = record_of(game)
    return _(record.label) if record is not None else _("a game")


class Follows:
    """A screen showing the game as it stood when it was shown (a choice, a step, a ranking, a
    roll): once an undo takes back a step (the session's ``actions`` fall below that), or the
    session is no longer one of ``games``, ``stale`` is true and the App takes the screen off
    (firmware/app.py ``drop_stale``), so what shows matches the state. A game's screens subclass
    it with their ``games``; the App notes the step they are first drawn or used at (:meth:`on_top`)."""

    games: tuple[str, ...] = ()
    shown_at: int | None = None
    now_only = False
    """True for a screen of the game as it is now (the choice of the next step: Caesar!'s move, a
    tile, a token; what is in the bag): it is stale too once a step was played since (the serial
    link played it)."""

    def on_top(self, ctx: Ctx) -> None:
        """The App's call before it draws the screen or gives it a key (firmware/app.py ``_on_top``):
        :meth:`note`. A subclass need not note anything itself."""
        self.note(ctx)

    def note(self, ctx: Ctx) -> None:
        """Remember the session's step count the first time the screen is drawn or used."""
        if self.shown_at is None:
            view = ctx.view()
            self.shown_at = view["actions"] if view is not None and view["game"] in self.games else None

    def stale(self, ctx: Ctx) -> bool:
        """True once an undo took back a step since it was shown (a screen never shown or used
        cannot tell what it stood for: stale too), or the session is no longer this game; for a
        ``now_only`` one, also once a step was played since."""
        view = ctx.view()
        if view is None or view["game"] not in self.games or self.shown_at is None:
            return True
        return view["actions"] < self.shown_at or (self.now_only and view["actions"] > self.shown_at)


class Snapshot(Follows, TextScreen):
    """A text of the game as it is now (what is in the bag, the score, a hand, a province): taken
    off once a step is played or taken back since it was shown. ``games``: the sessions it shows
    (for a bag beside a game, that game's)."""

    now_only = True

    def __init__(self, games: tuple[str, ...], title: str, body: str | Sequence[str]) -> None:
        super().__init__(title, body)
        self.games = games


class TableSnapshot(Follows, TableScreen):
    """As :class:`Snapshot`, for rows of (left, right) text (a battle's forces)."""

    now_only = True

    def __init__(self, games: tuple[str, ...], title: str, rows: Sequence[tuple[str, str]]) -> None:
        super().__init__(title, rows)
        self.games = games


class Asked(Follows, ConfirmScreen):
    """A question before a step of the game ("End round?", "Winter?"): it goes once a step is
    played or taken back meanwhile (the serial link did it: A would do it again, unasked)."""

    now_only = True

    def __init__(self, games: tuple[str, ...], title: str, question: str, on_yes: Callable[[Ctx], None],
                 yes: str | None = None, no: str | None = None) -> None:
        super().__init__(title, question, on_yes, yes, no)
        self.games = games


def session_games(ctx: Ctx) -> tuple[str, ...]:
    """The running session's game as a ``games`` tuple (none without a session)."""
    view = ctx.view()
    return (view["game"],) if view is not None else ()
