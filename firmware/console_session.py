"""The console's session side: the commands that start a session (``new``, ``commit``, reopening an
archived one), run its actions, end it (``end``, ``reveal``: History and the fair-draw record filed)
and answer ``state`` and ``undo`` (firmware/console.py dispatches to them). History's steps after a
saved action never fail the reply (:meth:`SessionCommands._safely`); what they missed is done again
at the next start or ``state``."""
from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from engine.errors import BadArguments, IllegalMove, LegatusError
from engine.game import ascii_digits, whole_number
from engine.text import Msg
from firmware import history
from firmware.console_lines import plain_spaces
from firmware.fairness import FairDraw
from firmware.session import END, Session, parse_line, with_language_options
from firmware.store import Store

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger(__name__)
T = TypeVar("T")


def _fresh_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


class SessionCommands:
    """The session a :class:`~firmware.console.Console` holds and the commands that change it."""

    store: Store
    _session: Session | None
    _pending: int | None               # the secret ``commit`` fixed for the next ``new`` (memory only)
    _shown: tuple[Session, bool] | None = None   # the current session, and whether its seed was shown

    @property
    def session(self) -> Session | None:
        return self._session

    @session.setter
    def session(self, session: Session | None) -> None:
        """The current session; its game's words come first where games say a word differently."""
        from firmware.i18n import set_game
        self._session = session
        set_game(session.game.name if session is not None else None)

    def reopen(self, line: str, seed: int, committed: bool, version: int = 0,
               ends: bool = False, lines: Sequence[str] = (), was: str = "") -> dict[str, Any]:
        """Start ``line`` (an archived session's ``new`` line) again with its own ``seed``, as a
        response like :meth:`request`'s. A seed that was secret stays secret: it is not added to
        the line, and the new session keeps the same commitment (so ``reveal`` at the end still
        proves every draw). ``version``: the archived header's ``v`` (its draws' derivation;
        0: today's). A secret seed that a copy of the game has revealed since (its session
        ended) is refused (``illegal_move``: every later draw would be known), unless ``ends``:
        the archived lines end the session too (``end``), so nothing more can be drawn. ``lines``:
        the archived lines, given again next: they replay as stored (:meth:`Session.given_again`).
        ``was``: the archived session's ``sid``: the copy's play time goes on from that game's
        (firmware/play_time.py ``carry``)."""
        from firmware.i18n import localize, say
        try:
            req = parse_line(line)
            if req.command != "new":
                raise BadArguments(Msg("Only a 'new' line can be reopened."))
            if committed and not ends and self._revealed(seed):
                raise IllegalMove(Msg("This game's seed was shown when a copy of it ended: it cannot be played "
                                      "on, since every later draw would be known."))
            current = self.session
            if (committed and not ends and current is not None and int(current.header["seed"]) == seed
                    and self._ends_when_replaced(current)):
                raise IllegalMove(Msg("A copy of this game that its rules ended is running now: replacing it ends "
                                      "it and shows its seed, so no other copy of it can be reopened to be played "
                                      "on (every later draw would be known). Undo its last move first, or keep it."))
            fields = self._new(line, req.opts, given=(seed, committed, version), was=was)
            if self.session is not None:     # (as request() reads them: a line stored with a no-break space
                self.session.again = [plain_spaces(ascii_digits(x)).strip() for x in lines]   # is given again)
        except LegatusError as e:
            log.info("reopening %r was refused: %s", line[:80], say(e.message))
            return {"ok": False, "error": e.code, "message": say(e.message)}
        return {"ok": True, **localize(fields)}

    def _revealed(self, seed: int) -> bool:
        """Whether a session with ``seed`` has ended (the current one, or a filed record)."""
        from firmware.fairness import seed_revealed
        current = self.session
        if current is not None and current.ended and int(current.header["seed"]) == seed:
            return True
        return seed_revealed(self.store.db, seed)

    def commit_next(self) -> str:
        """The commitment of the secret the next ``new`` without ``seed=`` will use (the same one
        until a ``new`` uses it; kept in memory only: after a restart ``new … share=`` asks for
        a ``commit`` again)."""
        from firmware.fairness import commitment
        if self._pending is None:
            self._pending = _fresh_seed()
        return commitment(self._pending)

    def _new(self, line: str, opts: Mapping[str, str],
             given: tuple[int, bool, int] | None = None, was: str = "") -> dict[str, Any]:
        from engine.rng import DRAWS_VERSION
        seed_text = opts.get("seed")
        version = DRAWS_VERSION
        pending = False
        if given is not None:
            seed, committed, version = given
            version = version or DRAWS_VERSION
        elif seed_text is None:
            if "share" in opts and self._pending is None:
                raise BadArguments(Msg("share= needs a commitment shown first: send 'commit', show its code to the "
                                       "players, then new … share=<text>."))
            pending = self._pending is not None
            seed, committed = (self._pending if self._pending is not None else _fresh_seed()), True
        else:
            try:
                seed = whole_number(seed_text, key="seed")
            except ValueError:
                raise BadArguments(Msg("seed= needs a whole number, not '{}'.", seed_text[:24])) from None
            if not 0 <= seed < 2**64:
                raise BadArguments(Msg("seed= must be between 0 and 2^64-1."))
            committed = False
        if given is None:                  # the language's defaults go into the stored line
            from firmware.i18n import language
            line = with_language_options(line, language())
        session = Session.start(line, seed, sid=os.urandom(8).hex(), committed=committed, version=version,
                                asked=given is None)
        if given is None:                  # (a replay of an archived game is what it was)
            if session.game.admit_new is not None:     # a rule of games started now (GameRules.admit_new)
                session.game.admit_new(parse_line(line, asked=True))
            _one_person_once(self.store, session)
        else:                              # History records its finishes once (firmware/history_seen.py)
            session.header["reopened"] = True
            if was:                        # the game it is a copy of (what the device keeps of it goes on)
                session.header["copy_of"] = self._first_of(was)
        old = self.session
        if old is not None:
            self._file_unfiled(old)        # a StorageError refuses the new game: nothing changed
            if self._ends_when_replaced(old):
                self._run_session(old, END)        # (its end refused: the new game too, nothing changed)
                self._file_unfiled(old)
        abandoned = self._abandoned(old) if old is not None else None

        def also(db: sqlite3.Connection) -> None:         # (the replaced game's record with the new session:
            if abandoned is not None:                    # both stored, or neither)
                abandoned(db)
            _started(db, session, was)
        self.store.begin(session, also)
        if pending:
            self._pending = None
        self.session = session
        out: dict[str, Any] = {"game": session.game.name}
        view = session.view()
        if view["commitment"] is not None:
            out["commitment"] = view["commitment"]
        if view["share"] is not None:
            out["share"] = view["share"]
        out["state"] = view
        return out

    def _first_of(self, was: str) -> str:
        """The session the game of archived session ``was`` was first played in: ``was`` itself,
        or the one it is a copy of (its header's ``copy_of``; ``was`` if it cannot be read)."""
        import sqlite3
        try:
            header = self.store.archived_header(was)
        except sqlite3.Error as e:
            log.warning("the earlier game %s cannot be read (%s): its copy is its own game", was, e)
            header = None
        first = header.get("copy_of") if header is not None else None
        return first if isinstance(first, str) and first else was

    def _ends_when_replaced(self, session: Session) -> bool:
        """Whether a ``new`` replacing ``session`` ends it first, as ``reveal`` would: its rules
        ended it and History recorded it finished (PROTOCOL.md third round: such a game "is already
        ended", and each ended game's History entry and exports carry its seed, share and
        commitment). Its copy in Earlier games then ends with ``end``: it reopens ended, never
        drawing anew from its known seed. Not a game over but not finished for History (Glory
        never scored: PROTOCOL.md, "after round 9 **and** `score`"): that one is abandoned, its seed
        kept secret, and Earlier games can reopen it to score it. (Ending it is its own saved step:
        if the card then refuses the new game, the old one stays ended; only undoing its last move
        is lost.)"""
        import sqlite3
        if session.ended or not session.over_by_rules():
            return False
        try:
            if history.recorded(self.store.db, str(session.header["sid"])):
                return True
            from firmware.history_seen import whole_game_elsewhere      # (a copy: recorded under the archived game)
            return bool(session.header.get("reopened")) and whole_game_elsewhere(
                self.store.db, session.header, session.lines, len(session.lines) + 1)
        except sqlite3.Error as e:
            log.warning("History cannot be read (%s): the replaced game is not ended", e)
            return False

    def _reveal(self, session: Session) -> dict[str, Any]:
        """The seed, once the game has ended (``end``, or its rules ended it: then ``reveal``
        ends the session first, so nothing can be drawn or undone after the seed is known)."""
        from firmware.fairness import finished_by_rules, revealed
        if not session.ended:
            view = session.game.view(session.state)
            if not finished_by_rules(session.game.name, view, session.lines):
                from firmware.games import record_of
                record = record_of(session.game.name)
                why = record.seed_waits(dict(view)) if record is not None and record.seed_waits is not None else None
                raise IllegalMove(why or Msg("The seed is shown when the game ends: finish the game, or end it with 'end'."))
            self._run_session(session, END)
        out = revealed(session.header, session.share_of(session.state))
        out["ended"] = session.ended_as()
        return out

    def fair_draw(self) -> FairDraw | None:
        """The running session's fair draw for screens (None without a session)."""
        from firmware.fairness import of_session
        return None if self.session is None else of_session(self.session, self.store.undid_a_draw)

    def _run_session(self, session: Session, line: str) -> dict[str, Any]:
        command = parse_line(line).command
        asked = not session.given_again(line)
        if asked and command == "share" and session.committed:   # (an archived copy's own share, given again
            self._share_closed(session)                          # as stored, draws what it drew: no new share)
        if asked and command != END and self._seed_shown(session):
            cmd = session.command(command)
            if cmd is not None and cmd.mutates:
                raise IllegalMove(Msg("This game's seed was shown when a copy of it ended: this copy can only "
                                      "be replayed as it was played, or ended ('end'), since every later draw "
                                      "would be known."))
        if asked:
            line = session.as_asked(line)              # the line stored: the same request, the same draw
        outcome, new_json = session.run(line, asked=asked)
        if new_json is None:
            self._safely("record a finished game",
                         lambda: history.after_action(self.store, session, command, dict(outcome.fields), False, line))
            return dict(outcome.fields)
        self.store.commit(session, line, outcome, new_json)
        if self._safely("record a finished game",
                        lambda: history.after_action(self.store, session, command, dict(outcome.fields), True)):
            from firmware import history_rebuild
            self._safely("make a corrected game's record follow", lambda: history_rebuild.asked_again(self.store, session))
        if command == END:
            self._filed_ended(session)
        fields = dict(outcome.fields)
        fields.setdefault("state", session.view())
        return fields

    def _seed_shown(self, session: Session) -> bool:
        """Whether ``session`` (running, with a secret seed) is a copy of a game whose seed was shown
        when another copy ended: reopened from Earlier games to be replayed to its end, it must
        not be played on — a replay stopped short (a refused write, a power cut) would leave it
        running on a known seed. Asked once per session (a copy cannot end while this one runs)."""
        if session.ended or not session.committed:
            return False
        if self._shown is None or self._shown[0] is not session:
            self._shown = (session, self._revealed(int(session.header["seed"])))
        return self._shown[1]

    def _share_closed(self, session: Session) -> None:
        """IllegalMove if what the store knows closes the share: another copy of this game (Earlier
        games) may have drawn under another share, or none; or an action that drew was undone (a
        roll seen, undone, then a share would roll again). The session checks the rest itself."""
        from firmware.fairness import share_open
        if self.store.archived_with_seed(int(session.header["seed"])):
            raise IllegalMove(Msg("This game has another copy in Earlier games, whose draws may have been seen: "
                                  "it takes no share now (another share would draw them again)."))
        if share_open(session) and self.store.undid_a_draw(session):
            raise IllegalMove(Msg("Something drawn in this game was taken back by undo: it was seen, and a share "
                                  "now would draw it again, so this game takes no share."))

    def _filed_ended(self, session: Session) -> None:
        """An ended session goes to History (``finished`` or ``ended``) with its fair-draw record."""
        from firmware import fairness
        status = session.ended_as() or "ended"

        def both() -> bool:
            history.record_ended(self.store, session, status)
            fairness.file_record(self.store, session)     # last: its presence says both are done
            return True
        self._safely("file the ended game in History", both)

    def _safely(self, what: str, action: Callable[[], T], again: bool = True) -> T | None:
        """Run a History/record step after the action is saved: a failure never fails the reply
        (it is logged, and — ``again`` — :meth:`_reconcile` at the next start or ``state`` does
        what was missed). A storage failure (full, read-only: already said to the player by the
        refusals) is logged without a traceback."""
        from firmware.storage import StorageError
        later = "it is done again at the next start or 'state'" if again else "it is not tried again"
        try:
            return action()
        except StorageError as e:
            log.error("could not %s (%s); %s", what, e, later)
            return None
        except Exception:  # noqa: BLE001 - history must never stop a game
            log.exception("could not %s; %s", what, later)
            return None

    def _abandoned(self, old: Session) -> Callable[[sqlite3.Connection], None] | None:
        """What records ``old``, about to be replaced by a ``new``, as abandoned in History, written
        in the new session's own transaction (:func:`firmware.history.abandoned_row`; None: no
        record). Raises StorageError while the card refuses what it writes first (a finish a crash
        lost): the ``new`` is refused with the card's reason and nothing changed (the record was
        not tried again: a ``new`` the card took after it refused the record lost the game from
        History for good); any other failure is logged and the game goes on."""
        from firmware.storage import StorageError
        try:
            return history.abandoned_row(self.store, old)
        except StorageError as e:
            log.error("could not record the replaced game as abandoned (%s); the new game is refused", e)
            raise
        except Exception:  # noqa: BLE001 - history must never stop a game
            log.exception("could not record the replaced game as abandoned; the new game goes on")
            return None

    def _file_unfiled(self, old: Session) -> None:
        """Before a ``new`` replaces ``old``: what its finish or its ``end`` left out of History (a
        full or read-only card refused those rows after the action was saved) is filed now. Raises
        StorageError while it still cannot be (the ``new`` is refused, nothing changed), so an
        acknowledged game is never archived without its record; any other failure is logged."""
        from firmware import fairness
        from firmware.storage import StorageError
        try:
            from firmware import history_rebuild
            history_rebuild.reconcile(self.store, old)
            if old.ended and not fairness.filed(self.store.db, [str(old.header["sid"])]):
                history.record_ended(self.store, old, old.ended_as() or "ended")
                fairness.file_record(self.store, old)
        except StorageError as e:
            log.error("the replaced game's records cannot be filed (%s); the new game is refused", e)
            raise
        except Exception:  # noqa: BLE001 - history must never stop a game
            log.exception("could not file the replaced game's records; the new game goes on")

    def _reconcile(self) -> None:
        """Record a finish (or an end) that a crash or a storage error kept from History."""
        session = self.session
        if session is None:
            return
        from firmware import history_rebuild      # (at need: a start without a session pays nothing)
        self._safely("reconcile the history", lambda: history_rebuild.reconcile(self.store, session))
        if session.ended:
            from firmware import fairness
            sid = str(session.header["sid"])
            if not fairness.filed(self.store.db, [sid]):       # the end's records were lost: file them
                self._filed_ended(session)

    def _state(self, session: Session) -> dict[str, Any]:
        self._reconcile()
        out: dict[str, Any] = {"state": session.view()}
        if self.store.recovery is not None:
            out["recovered"] = self.store.recovery.sentence()
        return out

    def _undo(self, session: Session, step: tuple[int, int] | None = None) -> dict[str, Any]:
        text = self.store.undo(session, step)
        self._safely("take back a finished game's record", lambda: history.after_undo(self.store, session))
        from firmware import history_rebuild
        self._safely("make a corrected game's record follow", lambda: history_rebuild.asked_again(self.store, session))
        return {"undone": text, "state": session.view()}


def _named(session: Session) -> list[str]:
    """The names a new game gives its players (any game's ``people=``, Glory's players)."""
    from firmware.games import record_of
    record = record_of(session.game.name)
    named = [str(n) for n in session.people.values()]
    if record is not None and record.players is not None:
        named += record.players(session.game.name, dict(session.game.view(session.state)))
    return named


def _one_person_once(store: Store, session: Session) -> None:
    """BadArguments if a new game names one remembered person twice, under two of their names (a
    renamed player's old and new one): a person plays once in a game (Statistics and the exports'
    ``sourcePlayerId`` key on the person)."""
    from firmware import players
    known_ids = players.ids(store.db)
    seen: dict[str, str] = {}
    for name in _named(session):
        if not players.is_person(name):
            continue
        pid = players.person_id(name, known_ids)
        first = seen.setdefault(pid, name)
        if first.casefold() == name.casefold():
            continue
        if any(k.pid == pid for k in players.known(store.db)):
            raise BadArguments(Msg("'{}' and '{}' are one person (a remembered player's names): a person plays "
                                   "once in a game. Name the players apart; nothing was changed.", first, name))
        # (taken off the list: their names still make one person of their games in History and exports)
        raise BadArguments(Msg("'{}' and '{}' are one person (the names of a player taken off the list, whose games "
                               "History keeps): a person plays once in a game. Name the players apart; nothing was "
                               "changed.", first, name))


def _started(db: sqlite3.Connection, session: Session, was: str = "") -> None:
    """In the transaction that starts ``session``: the start time History keeps, and the people it
    names (Glory's players, any game's ``people=``) on the players' list (firmware/players.py),
    the first named the most recent (a copy reopened from Earlier games is no new set-up: it
    brings back no one forgotten since)."""
    from firmware import players
    history.write_started(db, session)
    if was:             # a copy reopened from Earlier games: its play time goes on from that game's
        from firmware import play_time
        play_time.carry(db, was, str(session.header["sid"]))
    players.note_with_new_game(db, _named(session), add=not session.header.get("reopened"))
