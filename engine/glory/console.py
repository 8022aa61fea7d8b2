"""Console commands of the ``glory`` game and the sessionless ``score`` (PROTOCOL.md).

Fixed by the protocol: ``fame <name> <+N|-N>`` -> ``fame``, ``milestones``;
``vote <name>`` -> ``senate``, ``supremacy``, ``fame``; ``score <json>`` -> ``scores``, ``winners``.
The other commands are ours and documented in docs/protocol/glory.md.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.errors import BadArguments, GameOver, IllegalMove
from engine.game import (Command, Drawn, GameRules, GlobalCommand, Held, Outcome, Request, State, Seen, commands,
                         load_rng, store_rng)
from engine.glory import fame as F
from engine.glory import rounds as R
from engine.glory import senate as S
from engine.glory.scoring import score
from engine.glory.sheet import SessionFacts, parse_sheet
from engine.glory.state import find_player, new_state, objective_label, two_player_cards_unknown, view
from engine.glory.tables import double_tax_penalty, farming_income, hand_limit, tables
from engine.rng import Rng
from engine.glory.text import N_, Msg, medal_term, term
from engine.text import Msg as AnyMsg

_SIGNED = re.compile(r"^[+-]\d{1,3}$")
MAX_HAND = hand_limit()     # «до пяти карт товаров, включая карту якоря» (G-19)

# The streams of the game's draws (docs/fairness.md): the event deck (G-2), the objective deck and
# the random picks from a hand. A pick asked now is stored as ``pick <N> picks=apart``
# (:func:`_pick_line`): each hand size picks from a stream of its own, ``picks-<N>``, so a pick
# shown and undone stays with the pick from a hand of that size, whatever is picked in between
# (undo never re-rolls: a pick from a hand of 5 undone, one from a hand of 3, took its place in the
# one stream, and the hand of 5 was picked from again with a fresh draw). A ``pick`` line stored
# without it (an older Legatus) draws from ``picks`` as it did: it replays exactly.
EVENTS, OBJECTIVES, PICKS = "events", "objectives", "picks"
APART = "apart"


# -- helpers ---------------------------------------------------------------------------------
def _player(state: State, raw: str) -> str:
    return find_player(state["players"], raw)


def _playing(state: State) -> None:
    if state["finished"]:
        raise GameOver(Msg("The 9 rounds are over: only final scoring is left ('score <json>'); 'undo' reopens round 9."))


def _no_column_play(state: State) -> None:
    """``vote`` and ``unvote`` after round 9: no vote is placed or taken out then (G-1: the game goes
    on to the final scoring), but the column may differ from the table's (a vote the device missed,
    an intrigue it was not told), and ``senate`` corrects it (G-10 scores it as it stands): the
    refusal says so (it said only final scoring was left, as for a pick or a tax)."""
    if state["finished"]:
        raise GameOver(Msg("The 9 rounds are over: no vote is placed in the Senate or taken out of it now (G-1). "
                           "If the Senate column differs from the one on the table, correct it: "
                           "'senate column=<names, bottom to top>'; 'undo' reopens round 9."))


def _holder(state: State, medal: str) -> str | None:
    holder: str | None = state["medals"].get(medal)
    return holder


def _fames(state: State) -> dict[str, int]:
    """Name -> fame total, in seating order."""
    return {p: int(state["fame"][p]) for p in state["players"]}


def _fame_fields(state: State, changes: list[F.FameChange]) -> dict[str, Any]:
    events = [m for c in changes for m in c.milestones]
    return {
        "fame": _fames(state),
        "milestones": F.gained_supporters(events),
        "milestone_events": events,
        "supporters": {p: F.supporters(state, p) for p in state["players"]},
        "markers": dict(state["markers"]),
    }


def _milestone_text(events: list[dict[str, Any]]) -> str:
    """The milestones a step passed, each named, and the supporter each one gives (G-6): «+1
    supporter» after one, «+1 supporter for each milestone» after several (it said «+1 supporter
    each» after one too, «+1 сторонник каждому» read as a supporter for every player)."""
    if not events:
        return ""
    parts = [Msg("{} passes milestone {} (space {})", m["player"], m["milestone"], m["space"]) for m in events]
    joined: Any = parts[0]
    for part in parts[1:]:
        joined = Msg("{}; {}", joined, part)
    if len(parts) == 1:
        return Msg(" {}: +1 supporter.", joined)
    return Msg(" {}: +1 supporter for each milestone.", joined)


MILESTONES_BEFORE = N_(" {}: +1 supporter each.")
"""The milestones' sentence as the log lines stored before :func:`_milestone_text` told one from
several say it (still said in the player's language)."""


def _no_opts(req: Request, usage: Msg, allowed: frozenset[str] = frozenset()) -> None:
    req.check_opts(allowed)
    if not req.args:
        raise BadArguments(usage)


# -- fame and Senate -------------------------------------------------------------------------
def _fame(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: fame <name> <+N|-N>, e.g. fame Jack +3.")
    _no_opts(req, usage)
    if len(req.args) != 2 or not _SIGNED.match(req.args[1]):
        raise BadArguments(usage)
    name = _player(state, req.args[0])      # after round 9 too: a correction before the score is final
    delta = req.number(req.args[1], signed=True)       # (+03 is +3 written otherwise: refused when asked)
    if delta == 0:
        raise BadArguments(Msg("A change of 0 moves nothing; give +N or -N."))
    change = F.change_fame(state, name, delta)
    fields = _fame_fields(state, [change])
    fields["floored"] = change.floored
    note = Msg(" (the track stops at 1)") if change.floored else ""
    return Outcome(fields, Msg(FAME_CHANGED, name, f"{delta:+d}", change.before, change.total, note,
                               _milestone_text(change.milestones)))


FAME_CHANGED = N_("{} {} fame: {} -> {}{}.{}")
"""A change of fame: the player, the change, the fame before and after, the floor's note, the
milestones passed (:func:`_undone` says the fame before again)."""


def _lap_back(back: Msg, name: Any, was: Any, undone: Any) -> Msg:
    """An undo's sentence ``back`` and, where the undone change had taken the player's fame past
    space 30 or back under 31, what to do with the marker now (G-5: its «+30» side): the fame
    ``was`` stands again, not ``undone``."""
    (space, flips), (_space, had) = F.track_position(int(was)), F.track_position(int(undone))
    if flips == had:
        return back
    if flips == 0 and had == 1:
        turn = Msg("{}: turn the fame marker back over, space {}.", name, space)
    elif flips == 1 and had == 0:
        turn = Msg("{}: turn the fame marker over to «+30», space {}.", name, space)
    else:
        turn = Msg("{}: the fame marker goes round the track again: space {} (fame {}).", name, space, int(was))
    return Msg("{} {}", back, turn)


def _fame_back(sentence: AnyMsg) -> Msg | None:
    """The undo of a change of fame: the fame that stands again and, where it passed milestones, that
    they are taken back too (their markers and supporters, G-6); it said the change taken back,
    «Скасовано: Червоний: +11 слави: 1 → 12…» with 1 on the track. None for any other sentence."""
    if sentence.template != FAME_CHANGED or len(sentence.args) != 6:
        return None
    name, _delta, before, total, _note, passed = sentence.args
    if passed:
        return _lap_back(Msg("Undone: {}'s fame is {} again, not {}. Also taken back:{}", name, before, total, passed),
                         name, before, total)
    return _lap_back(Msg("Undone: {}'s fame is {} again, not {}.", name, before, total), name, before, total)


DOUBLE_TAX = N_("{} takes double tax: {} denarii, -{} fame ({} -> {}).")
"""A double tax (G-4): the player, the denarii, the fame penalty, the fame before and after."""


def _double_tax_back(sentence: AnyMsg) -> Msg | None:
    """The undo of a double tax: the denarii to give back and the fame the track shows again (G-4);
    it said the tax taken back, «…−4 слави (21 → 17)», with 21 on the track. None for any other
    sentence."""
    if sentence.template != DOUBLE_TAX or len(sentence.args) != 5:
        return None
    name, denarii, _penalty, before, after = sentence.args
    return _lap_back(Msg("Undone: {}'s double tax, {} denarii; fame {} again.", name, denarii, before),
                     name, before, after)


def _fame_admitted(state: State, req: Request) -> None:
    """The rule a ``fame`` asked now keeps (``Command.admit``; ``state`` before it): a loss for a
    player already on space 1 moves nothing (G-5: «маркер славы ни при каких обстоятельствах не
    может опуститься ниже этой отметки», and «Грязная клевета» cannot be played on them), so it is
    refused instead of journaling a step that changes nothing, to be undone. A loss that stops at 1
    from higher up is taken (``floored``); a stored line replays as it was."""
    name = _player(state, req.args[0])
    if int(req.args[1]) < 0 and int(state["fame"][name]) <= int(tables()["fame_floor"]):
        raise IllegalMove(Msg("{} is on space 1, the lowest: fame never drops below it (G-5); nothing changes.", name))


def _vote(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: vote <name> [n=2]  (n=2: the two votes of a boosted political action).")
    _no_opts(req, usage, frozenset({"n"}))
    if len(req.args) != 1:
        raise BadArguments(usage)
    n = req.opt_int("n", 1, lo=1, hi=2)
    assert n is not None
    _no_column_play(state)
    name = _player(state, req.args[0])
    politician = _holder(state, "politician") == name
    trial = list(state["senate"])                 # every vote placeable, or none placed (G-7)
    for i in range(n):
        try:
            S.place_vote(trial, name)
        except ValueError as e:
            if i:     # one vote is left on the board, the second of a boosted action has none (it said «all 5 are in»)
                raise IllegalMove(Msg("{} has only one vote left on the board: place it as a single vote.",
                                      name)) from None
            raise IllegalMove(e.args[0] if e.args and isinstance(e.args[0], AnyMsg) else str(e)) from None
    placed, changes = [], []
    for _ in range(n):
        p = S.place_vote(state["senate"], name)
        placed.append(p)
        if p.supremacy:
            changes.append(F.change_fame(state, name, S.supremacy_fame(politician)))
    fields = _fame_fields(state, changes)
    supremacies = sum(p.supremacy for p in placed)
    gained = sum(c.total - c.before for c in changes)
    fields = {"senate": list(state["senate"]), "supremacy": supremacies > 0,
              "supremacies": supremacies, "fame_gained": gained,
              "pushed_out": [p.pushed_out for p in placed if p.pushed_out], **fields}
    placed_text = Msg("{1} places {0} vote in the Senate", n, name, plural="{1} places {0} votes in the Senate")
    supremacy_text = (Msg(SUPREMACY, supremacies, gained, changes[0].before, changes[-1].total)
                      if supremacies else "")
    pushed = fields["pushed_out"]
    pushed_text = (Msg("; the bottom vote of {1} goes back", len(pushed), Msg.join(pushed),
                       plural="; the bottom votes of {1} go back") if pushed else "")
    return Outcome(fields, Msg("{}{}{}.{}", placed_text, supremacy_text, pushed_text,
                               _milestone_text(fields["milestone_events"])))


PLACED = "{1} places {0} vote in the Senate"         # (its msgid: the Msg in _vote, with its plural)
SUPREMACY = N_(": supremacy x{}, +{} fame ({} -> {})")
"""A vote's sentence (G-7): «{placed}{supremacy}{pushed out}.{milestones}», the supremacies with the
fame before and after them (:func:`_vote_back` says the fame before again)."""
SUPREMACY_BEFORE = N_(": supremacy x{}, +{} fame")
"""The supremacies as the log lines stored before :data:`SUPREMACY` said the fame (still said in
the player's language; their undo says the step's own sentence)."""


def _vote_back(sentence: AnyMsg) -> Msg | None:
    """The undo of ``vote``: the votes come off the top of the column, the votes they pushed off
    the bottom are back there, and after a supremacy the fame that stands again with the milestones
    taken back (G-7, G-6). It said the step taken back, «Отменено: Мэри ставит 1 голос в Сенат:
    превосходство ×1, +2 славы; нижний голос (Джек) возвращается.», read as fame +2 and Jack's
    vote going back to his board. None for any other sentence (a line stored before the
    supremacy said the fame: the step's own sentence)."""
    if sentence.template != "{}{}{}.{}" or len(sentence.args) != 4:
        return None
    placed, supremacy, pushed, passed = sentence.args
    if not (isinstance(placed, AnyMsg) and placed.template == PLACED and len(placed.args) == 2):
        return None
    if supremacy and not (isinstance(supremacy, AnyMsg) and supremacy.template == SUPREMACY):
        return None
    n, name = placed.args
    off = Msg("Undone: {1}'s vote is off the top of the Senate column", n, name,
              plural="Undone: {1}'s {0} votes are off the top of the Senate column")
    back: Any = ""
    if isinstance(pushed, AnyMsg) and len(pushed.args) == 2:
        back = Msg("; the bottom vote of {1} is back in the column", pushed.args[0], pushed.args[1],
                   plural="; the bottom votes of {1} are back in the column")
    fame: Any = ""
    if isinstance(supremacy, AnyMsg):
        fame = Msg("; {}'s fame is {} again, not {}", name, supremacy.args[2], supremacy.args[3])
    said = Msg("{}{}{}. Also taken back:{}", off, back, fame, passed) if passed else Msg("{}{}{}.", off, back, fame)
    return _lap_back(said, name, supremacy.args[2], supremacy.args[3]) if isinstance(supremacy, AnyMsg) else said


def _unvote(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: unvote <name> [at=N]  (N = the vote's position, 1 = bottom).")
    _no_opts(req, usage, frozenset({"at"}))
    if len(req.args) != 1:
        raise BadArguments(usage)
    _no_column_play(state)
    name = _player(state, req.args[0])
    at = req.opt_int("at", None, lo=1, hi=int(tables()["senate_size"]))
    try:
        where = S.remove_vote(state["senate"], name, at)
    except ValueError as e:
        raise IllegalMove(e.args[0] if e.args and isinstance(e.args[0], AnyMsg) else str(e)) from None
    return Outcome({"senate": list(state["senate"]), "removed_at": where},
                   Msg(UNVOTED, name, where))


UNVOTED = N_("{}'s vote at position {} leaves the Senate (no supremacy on removal).")
"""A vote taken out by an intrigue (G-7): its owner and position (:func:`_undone` puts it back)."""


def _senate(state: State, req: Request) -> Outcome:
    """``senate column=<names, bottom to top>``: after round 9, until the score is final, the column
    set as it stands on the table (G-10 scores it as it stands): a correction, as ``fame`` and
    ``medal`` are then. Nothing is placed or taken out by play, so no supremacy (G-7: only placing a
    vote makes one, and no vote is placed after round 9, G-1) and no fame changes; the figures of
    the score follow. ``column=`` with no names: no vote in the column. During the rounds the column
    changes by ``vote`` and ``unvote`` (the intrigues), each checked as G-7 plays it."""
    usage = Msg("Usage: senate column=<names, bottom to top>, e.g. senate column=Jack,Mary,Henry (after round 9: "
                "the column as it stands on the table).")
    req.check_opts(frozenset({"column"}))
    if req.args or "column" not in req.opts:
        raise BadArguments(usage)
    raw = req.opts["column"]
    column = [_player(state, name) for name in raw.split(",")] if raw else []
    size = int(tables()["senate_size"])
    if len(column) > size:
        raise BadArguments(Msg("The Senate column holds at most {} votes, not {}.", size, len(column)))
    if not state["finished"]:
        raise IllegalMove(Msg("During the 9 rounds the Senate column changes by votes placed ('vote') and taken out by "
                              "intrigues ('unvote'); 'senate' corrects it after round 9, until the score is final."))
    was = list(state["senate"])
    if column == was:
        raise IllegalMove(Msg("The Senate column is that already: nothing changes."))
    state["senate"] = column
    return Outcome({"senate": list(column), "was": was}, _corrected(was, column))


def _corrected(was: list[str], column: list[str]) -> Msg:
    """The log's sentence of a Senate correction: the one position it changed, as the device changes
    one at a time (its undo question is read on the panel: a whole column twice took five pages),
    else the whole column, bottom to top, and as it was."""
    if len(column) == len(was):
        changed = [i for i, (a, b) in enumerate(zip(was, column)) if a != b]
        if len(changed) == 1:
            i = changed[0]
            return Msg(SENATE_SWAP, i + 1, column[i], was[i])
    elif len(column) == len(was) - 1:
        for i in range(len(was)):
            if was[:i] + was[i + 1:] == column:
                return Msg(SENATE_OUT, i + 1, was[i])
    elif len(column) == len(was) + 1 and column[:-1] == was:
        return Msg(SENATE_ON, len(column), column[-1])
    return Msg(SENATE_SET, _column_words(column),
               _column_words(was))


# a correction after round 9, each said again the other way round when taken back (:func:`_corrected_back`)
SENATE_SWAP = N_("Correction: Senate position {}: {}, not {}.")
SENATE_OUT = N_("Correction: Senate position {}: {}'s vote taken out.")
SENATE_ON = N_("Correction: Senate position {}: {}'s vote added on top.")
SENATE_SET = N_("Correction: the Senate column, bottom to top, is now {} (it was {}).")
MEDAL_MOVED = N_("Correction: {} goes to {}, not {}.")


def _corrected_back(sentence: AnyMsg) -> Msg | None:
    """The undo of a correction after round 9 (a Senate position, the column, a medal's holder): what
    stands again, one position or medal a push as the device corrects them; it said the correction
    taken back («Скасовано: Виправлення: Сенат, позиція 2: Марія, а не Яків» with Яків there again).
    None for any other sentence."""
    a = sentence.args
    if sentence.template == SENATE_SWAP and len(a) == 3:
        return Msg("Undone: Senate position {}: {} again, not {}.", a[0], a[2], a[1])
    if sentence.template == SENATE_OUT and len(a) == 2:
        return Msg("Undone: Senate position {}: {}'s vote is back.", a[0], a[1])
    if sentence.template == SENATE_ON and len(a) == 2:
        return Msg("Undone: Senate position {}: {}'s vote is off again.", a[0], a[1])
    if sentence.template == SENATE_SET and len(a) == 2:
        return Msg("Undone: the Senate column, bottom to top, is {} again.", a[1])
    if sentence.template == MEDAL_MOVED and len(a) == 3:
        return Msg("Undone: {} goes back to {}, not {}.", a[0], a[2], a[1])
    return None


def _correction_asked(sentence: AnyMsg) -> Msg | None:
    """The undo question of a correction after round 9, without the word «Correction» (one panel
    where «Скасувати: Виправлення: Сенат, позиція 3: голос гравця…» took three pages); the whole
    column's keeps its sentence. None for any other sentence."""
    a = sentence.args
    if sentence.template == SENATE_SWAP and len(a) == 3:
        return Msg("Take back: Senate position {}: {}, not {}.", *a)
    if sentence.template == SENATE_OUT and len(a) == 2:
        return Msg("Take back: Senate position {}: {}'s vote out.", *a)
    if sentence.template == SENATE_ON and len(a) == 2:
        return Msg("Take back: Senate position {}: {}'s vote on top.", *a)
    if sentence.template == MEDAL_MOVED and len(a) == 3:
        return Msg("Take back: {} to {}, not {}.", *a)
    return None


def _column_words(column: list[str]) -> str | Msg:
    """The Senate column said in a sentence: its owners bottom to top, or «no votes»."""
    return ", ".join(column) if column else Msg("no votes")


# -- rounds and events -----------------------------------------------------------------------
def _event_drawn(state: State, req: Request) -> Drawn | None:
    """The event ``event`` draws: the top card of the shuffled deck, unless ``card=`` names
    another, drawn at the table (G-19; a card the device has shown stays this event through undo,
    and naming that very card is taking it). Its place is the deck as it stands (:func:`_deck_place`),
    not its top card alone: a card taken at the table leaves the same top card, and the device's
    reveal of it in a later round is not a draw shown where the table took its card."""
    place = _deck_place(state)
    if place is None:
        return None
    card = req.opts.get("card")
    typed = card is not None and card.casefold() != str(state["deck"][0]).casefold()
    return Drawn(place, frozenset({"card"} if typed else ()))


# One event deck, two ways to draw (G-2, G-19): the device reveals the top of its shuffled deck, or
# the table turns a physical card and names it (``card=``). An undone event goes back on top of the
# deck, whichever way it was drawn (its undo says so: :func:`_event_back`), and the device's deck
# stands as the table's then: a reveal asked there next shows that card. Undo restores the deck as
# it was before the draw, with a card the table took back in its shuffled place, so a reveal asked
# where an event was drawn and undone is stored as ``event card=<that card>`` (:data:`EVENT_HELD`):
# the device never draws there differently (a revealed card undone is its top card anyway), and the
# line stored replays as it ran. A ``card=`` typed is the table's card, as before.
def _deck_place(state: State) -> str | None:
    """Where an event draws from on ``state``: its deck as it stands (it only ever loses cards, so
    the same deck is the same place of the game), or None when no event can be drawn there."""
    deck = state.get("deck")
    if state.get("event") is not None or state.get("finished") or not isinstance(deck, list) or not deck:
        return None
    return f"{EVENTS}:deck:{','.join(str(c) for c in deck)}"


def _event_marks(before: State, req: Request) -> list[tuple[str, Any]]:
    """:attr:`engine.game.Held.marks` of ``event``: the card it took on ``before``, the top card or
    the one ``card=`` names (nothing for a request refused)."""
    place = _deck_place(before)
    if place is None:
        return []
    wanted = req.opts.get("card")
    match = [c for c in before["deck"] if wanted is None or str(c).casefold() == wanted.casefold()]
    return [(place, str(match[0]))] if match else []


def _event_pin(state: State, req: Request, seen: Seen) -> str | None:
    """:attr:`engine.game.Held.pin` of ``event``: a reveal asked where the latest event drawn and
    undone was not the device's top card (the table's ``card=``) takes that card, back on top of
    the deck as the undo said; a ``card=`` typed is run as asked."""
    place = _deck_place(state)
    if place is None or "card" in req.opts:
        return None
    kept = seen(place)
    if not kept or kept[-1] not in state["deck"] or kept[-1] == state["deck"][0]:
        return None
    return f"{req.command} {req.rest}".strip() + f" card={kept[-1]}"


def _event_drawn_before(source: str) -> bool:
    """:attr:`engine.game.Held.older` of ``event``: the place of its draw as undo rows kept it
    before they kept the card taken (``events:<the device's top card>``, stored 27-28.11.2026): such
    a row does not say which card went back on top, so the session is replayed to find it (the
    device revealed its own top card, not the card the table named and put back, G-2, G-19)."""
    return source.startswith(f"{EVENTS}:") and not source.startswith(f"{EVENTS}:deck:")


EVENT_HELD = Held(_event_marks, _event_pin, _event_drawn_before)


def _event(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset({"card", "arrow"}))
    if req.args:
        raise BadArguments(Msg("Usage: event [card=<id>] [arrow=cw90|cw180|ccw90|ccw180]."))
    _playing(state)
    if state["event"] is not None:
        raise IllegalMove(Msg("Round {} already has its event ({}); 'end-round' after the income phase.", state['round'], card_name(state['event'])))
    if "card" in req.opts:
        wanted = req.opts["card"]
        match = [c for c in state["deck"] if c.casefold() == wanted.casefold()]
        if not match:
            raise IllegalMove(Msg("Card '{}' is not in the event deck (left: {}).", wanted, ', '.join(sorted(state['deck']))))
        card_id = match[0]
        state["deck"].remove(card_id)
        load_rng(state, EVENTS).note("take", card_id)          # drawn at the table (physical)
    else:
        if not state["deck"]:
            raise IllegalMove(Msg("The event deck is empty."))
        card_id = state["deck"].pop(0)
        load_rng(state, EVENTS).note("card", [card_id])        # the top of the shuffled deck
    card = R.card(card_id)
    if "arrow" in req.opts:
        arrow = req.opts["arrow"].lower()
        if arrow not in R.ARROWS:
            raise BadArguments(Msg("arrow= is one of {} (blue = cw, orange = ccw).", ', '.join(R.ARROWS)))
        card["arrow"] = arrow
    state["event"] = card
    direction = R.ARROWS[card["arrow"]][0]
    order = R.turn_order(state, direction)
    # ``first``: who played first that round (round 1's is the game's start player, History)
    state["history"].append({"round": state["round"], "id": card["id"], "arrow": card["arrow"], "first": order[0]})
    fields = _event_fields(state)
    if len(state["players"]) == 1:  # G-17: 1 denarius per supporter instead of the reward
        solo = state["players"][0]
        fields["solo_denarii"] = 0 if card["harsh"] else F.supporters(state, solo)
        # kept with the round's event: the card's screen says it again after a restart or a reveal
        # over the serial link (the supporters of the reveal, not those of later)
        state["history"][-1]["solo_denarii"] = fields["solo_denarii"]
    # the card's name, the solo's denarii (None: not solo) and whether it is a negative card ride
    # along, unsaid (the template says its first 5): its undo says what to put back (:func:`_event_back`)
    return Outcome(fields, Msg(EVENT_SHOWN, state["round"], _after_event(card), _turns(state), fields["first"],
                               term(fields["direction"]), card_name(card), fields.get("solo_denarii"),
                               bool(card["harsh"])))


EVENT_SHOWN = N_("Round {}: event {} ({}); {} plays first, {}.")
"""A revealed event (G-1, G-2): the round, the card after the word "event", the board's turn, who
plays first and the way of play; then, not said, the card's name, the denarii the solo took for it
(G-17; None in a game of 2–4) and whether it is a negative card (Harsh Times). A line stored before
has only the first five: its undo says the step as every other undo does."""


def _event_back(sentence: Any) -> Msg | None:
    """The undo of a revealed event: what to do at the table (G-1: «Раскройте карту события …
    Выдайте награду …»; G-17 the solo's denarii instead): the card back on top of the event
    deck (the device keeps it there: the next reveal is that card again) and the reward, the
    negative effect or the solo's denarii taken back. It said the reveal again, «Отменено: Раунд 1:
    событие 7 (в конце поле повернётся …); первым ходит …», read as the card revealed once more."""
    if not isinstance(sentence, AnyMsg) or sentence.template != EVENT_SHOWN or len(sentence.args) not in (5, 8):
        return None
    if len(sentence.args) == 5:
        # a reveal stored before its sentence kept the card's name, the solo's denarii and whether
        # it is a negative card (before 28.11.2026): its undo said the reveal again, «Отменено:
        # Раунд 1: событие 6 (в конце поле повернётся …); первым ходит …», read as the card
        # revealed once more; the name is said again from the number after "event"
        round_no, after = sentence.args[0], sentence.args[1]
        name = Msg("Event {}", after) if str(after).isdecimal() else after
        return Msg("Undone: round {}'s event ({}). Put the card back on top of the event deck "
                   "and take back what it gave.", round_no, name)
    round_no, _after, _turn, _first, _way, name, solo, harsh = sentence.args
    if solo is None:
        if harsh:
            return Msg("Undone: round {}'s event ({}). Put the card back on top of the event deck "
                       "and take back its negative effect.", round_no, name)
        return Msg("Undone: round {}'s event ({}). Put the card back on top of the event deck "
                   "and take back its reward.", round_no, name)
    if int(solo) > 0:
        return Msg("Undone: round {1}'s event ({2}). Put the card back on top of the event deck "
                   "and give back {0} denarius.", int(solo), round_no, name,
                   plural="Undone: round {1}'s event ({2}). Put the card back on top of the event deck "
                          "and give back {0} denarii.")
    return Msg("Undone: round {}'s event ({}). Put the card back on top of the event deck.",
               round_no, name)


def _event_fields(state: State) -> dict[str, Any]:
    """What this round's event sets (G-2): its card, the direction of play, who plays first and
    in which order, and the board's turn at the end of the round."""
    card = state["event"]
    direction = R.ARROWS[card["arrow"]][0]
    order = R.turn_order(state, direction)
    turn = R.rotation_of(card["arrow"], state["options"]["clockwise"])
    return {"round": state["round"], "card": card, "direction": direction, "first": order[0],
            "order": order, "rotation": {"quarter_turns": abs(turn),
                                         "direction": R.CLOCKWISE if turn > 0 else R.COUNTERCLOCKWISE}}


def _turns(state: State) -> Msg:
    turn = R.rotation_of(state["event"]["arrow"], state["options"]["clockwise"])
    return Msg("the board turns {}° {} at the end", abs(turn) * 90,
               term("clockwise") if turn > 0 else term("counter-clockwise"))


def _arrow(state: State, req: Request) -> Outcome:
    """``arrow <cw90|cw180|ccw90|ccw180>``: the arrow printed on this round's event card, where it
    is not the one the device's data holds (the data's arrows are stand-ins until the printed ones
    are typed in): it sets the direction of play, the first player and the board's turn (G-2)."""
    usage = Msg("Usage: arrow <{}>  (the arrows printed on this round's event card: blue = cw, orange = ccw; "
                "one arrow 90, two 180).", "|".join(R.ARROWS))
    _no_opts(req, usage)
    if len(req.args) != 1 or req.args[0].lower() not in R.ARROWS:
        raise BadArguments(usage)
    _playing(state)
    if state["event"] is None:
        raise IllegalMove(Msg("Round {} has no event yet: reveal one with 'event' first.", state["round"]))
    arrow = req.args[0].lower()
    if arrow == state["event"]["arrow"]:
        raise IllegalMove(Msg("The event of round {} has that arrow already.", state["round"]))
    was = term(ARROW_WORDS[state["event"]["arrow"]])
    state["event"]["arrow"] = arrow
    fields = _event_fields(state)
    past = state["history"][-1] if state["history"] else None
    if past is not None and past.get("round") == state["round"]:     # who played first: History's start player
        past["arrow"], past["first"] = arrow, fields["first"]
    # the arrows before it ride along, unsaid (the template says its first 4): its undo says them
    return Outcome(fields, Msg(ARROWS_SET, state["round"], _turns(state), fields["first"], term(fields["direction"]),
                               was))


ARROWS_SET = N_("Round {}: the event's arrows as printed ({}); {} plays first, {}.")
"""The arrows of this round's event set (G-2): the round, the board's turn, who plays first and the
way of play; then, not said, the arrows as they were (:func:`_undone` says them again). A line
stored before has only the first four: its undo says the step as every other undo does."""
ARROW_WORDS = {"cw90": N_("1 blue"), "cw180": N_("2 blue"), "ccw90": N_("1 orange"), "ccw180": N_("2 orange")}
"""An event card's arrows as printed, their number and colour («2 синие», as the device's Arrows row)."""


def _after_event(card: Mapping[str, Any]) -> str:
    """The card's name after the word "event" of a sentence: the data's placeholder "Event 3" is
    its number (the log said «Раунд 1: событие Событие 3»); any other name as :func:`card_name`
    says it («событие Суровые времена 2»)."""
    m = re.fullmatch(r"Event (\d+)", str(card["label"]))
    return m.group(1) if m is not None else card_name(card)


def card_name(card: Mapping[str, Any]) -> str:
    """An event card's name for a sentence: the data's placeholder names ("Event 3", "Harsh Times
    2") said in the player's language; a name edited in to match the printed card as it is."""
    label = str(card["label"])
    m = re.fullmatch(r"(Event|Harsh Times) (\d+)", label)
    if m is None:
        return label
    return Msg("Event {}", m.group(2)) if m.group(1) == "Event" else Msg("Harsh Times {}", m.group(2))


def _end_round(state: State, req: Request) -> Outcome:
    _no_args(req, Msg("Usage: end-round  (after the income phase: turns the board, next round)."))
    _playing(state)
    event = state["event"]
    if event is None:
        raise IllegalMove(Msg("Round {} has no event yet: reveal one with 'event' first.", state["round"]))
    turn = R.rotation_of(event["arrow"], state["options"]["clockwise"])
    state["rotation"] = (state["rotation"] + turn) % 4
    ended = state["round"]
    state["event"] = None
    state["taxed"] = []
    if ended >= int(tables()["rounds"]):
        state["finished"] = True
        text = Msg(GAME_ENDS, ended)
    else:
        state["round"] = ended + 1
        text = Msg(ROUND_ENDS, ended, abs(turn) * 90,
                   term(N_("clockwise") if turn > 0 else N_("counter-clockwise")), ended + 1)
    return Outcome({"round": state["round"], "finished": state["finished"],
                    "turned": turn * 90, "facing": R.facing(state)}, text)


ROUND_ENDS = N_("Round {} ends: the board turns {}° {}; round {}.")
GAME_ENDS = N_("Round {} ends: the game is over, final scoring ('score <json>').")


TAX_TAKEN = N_("{} collects tax: {} denarii.")
MEDAL_EARNED = N_("{} earns {}.")
PICKED = N_("Random pick: card {} of {}, counting from the left.")
DEALT = N_("Dealt 3 objective cards to each player.")
KEPT = N_("{} keeps 2 objectives; 1 goes to the bottom of the deck.")


def _table_back(sentence: AnyMsg) -> Msg | None:
    """The undo of a plain tax, a medal earned, a random pick, the objectives' deal and a player's
    choice of objectives: what to give back at the table (G-4, G-6's medals, G-19). Each said the step
    again, «Скасовано: Аня збирає податок, денаріїв: 3.», «Отменено: Аня получает медаль воина.»,
    «Отменено: Аня оставляет 2 карты заданий; третья уходит вниз стопки.», read as the step done
    once more. None for any other sentence."""
    args = sentence.args
    if sentence.template == TAX_TAKEN and len(args) == 2:
        return Msg("Undone: {0}'s tax. {0} gives back {1} denarius.", args[0], args[1], n=int(args[1]),
                   plural="Undone: {0}'s tax. {0} gives back {1} denarii.")
    if sentence.template == MEDAL_EARNED and len(args) == 2:
        return Msg("Undone: {} gives back {}.", *args)
    if sentence.template == PICKED and len(args) == 2:
        return Msg("Undone: random pick, card {} of {}: put it back in its hand.", *args)   # (one panel)
    if sentence.template == DEALT and not args:
        return Msg("Undone: the deal of the objectives. Every player puts their 3 cards back into the deck.")
    if sentence.template == KEPT and len(args) == 1:
        return Msg("Undone: {0}'s choice of objectives. {0} takes back the card put at the bottom of the deck "
                   "and chooses again.", args[0])
    return None


def _undone(sentence: Any) -> Msg | None:
    """An undo of ``end-round`` tells the players to turn the board back (the way opposite to
    the event's arrow) and that the round ended is played on (round 9's: only that it is played
    on); an undo of a score pad figure says
    the figure that stands again, the one to see on the pad and on the paper (it said the figure
    taken back: «Скасовано: Підрахунок очок: Jack — 2 (легіони в Епірі)» with 1 on the pad);
    None for every other step."""
    if isinstance(sentence, AnyMsg) and sentence.template == SHEET_SET and len(sentence.args) == 4:
        name, undone, row, was = sentence.args
        return Msg("Undone: {} — {} again ({}), not {}.", name, was, row, undone)
    if isinstance(sentence, AnyMsg) and _corrected_back(sentence) is not None:
        return _corrected_back(sentence)
    if isinstance(sentence, AnyMsg) and _event_back(sentence) is not None:
        return _event_back(sentence)
    if isinstance(sentence, AnyMsg) and _fame_back(sentence) is not None:
        return _fame_back(sentence)
    if isinstance(sentence, AnyMsg) and _double_tax_back(sentence) is not None:
        return _double_tax_back(sentence)
    if isinstance(sentence, AnyMsg) and _vote_back(sentence) is not None:
        return _vote_back(sentence)
    if isinstance(sentence, AnyMsg) and _offer_back(sentence) is not None:
        return _offer_back(sentence)
    if isinstance(sentence, AnyMsg) and _table_back(sentence) is not None:
        return _table_back(sentence)
    if isinstance(sentence, AnyMsg) and sentence.template == FAME_CHANGED and len(sentence.args) == 6 and sentence.args[5]:
        name, delta, before, total, note, passed = sentence.args        # (the milestones: the notice after yes)
        return Msg("Take back: {} {} fame: {} -> {}{}. Milestones passed: {}.", name, delta, before, total, note,
                   _milestones_in(passed))
    if isinstance(sentence, AnyMsg) and _vote_asked(sentence) is not None:
        return _vote_asked(sentence)
    if isinstance(sentence, AnyMsg) and sentence.template == UNVOTED and len(sentence.args) == 2:
        # it said the removal again, «Скасовано: Голос гравця … виходить із колони Сенату…», two pages
        return Msg("Undone: {}'s vote is back at position {} of the Senate column.", *sentence.args)
    if isinstance(sentence, AnyMsg) and sentence.template == ARROWS_SET and len(sentence.args) == 5:
        # it said the arrows taken back («Скасовано: Раунд 1: стрілки як на карті події (наприкінці
        # поле повернеться на 180° проти годинникової)…») with the others standing again
        return Msg("Undone: round {}'s arrows are {} again.", sentence.args[0], sentence.args[4])
    if isinstance(sentence, AnyMsg) and sentence.template == GAME_ENDS and len(sentence.args) == 1:
        # round 9's end turns no board (the game goes on to the final scoring, G-1): it is played on;
        # it said «Undone: Round 9 ends: the game is over, final scoring ('score <json>')», the
        # console's command on the panel
        return Msg("Undone: the end of round {}; round {} goes on.", sentence.args[0],
                   sentence.args[0])
    if not isinstance(sentence, AnyMsg) or sentence.template != ROUND_ENDS or len(sentence.args) != 4:
        return None
    ended, degrees, way, _next = sentence.args
    back = N_("clockwise") if str(way) == "counter-clockwise" else N_("counter-clockwise")
    return Msg("Undone: the end of round {}. Turn the board back {}° {}; round {} goes on.",
               ended, degrees, term(back), ended)


def _undo_asked(sentence: Any) -> Msg | None:
    """The undo question of a score pad figure: the figure taken back and the one that stands again
    (the step's own sentence with both took two pages under «Скасувати?»), of a correction after
    round 9, of the arrows set and of each round's end (the board's turn is the notice's: it took 4
    rows in en, 5 in ru/uk, two A, every round); of a change of fame that passed milestones, the
    change and how many (G-5, G-6: each named with its supporter took 10 rows, four A, after «fame
    Анна +20»; the notice after yes names them); None for every other step (``Take back: <sentence>``)."""
    if isinstance(sentence, AnyMsg) and sentence.template == SHEET_SET and len(sentence.args) == 4:
        name, undone, row, was = sentence.args
        return Msg("Take back: {} — {}, {} again ({}).", name, undone, was, row)
    if isinstance(sentence, AnyMsg) and sentence.template == FAME_CHANGED and len(sentence.args) == 6 and sentence.args[5]:
        name, delta, before, total, note, passed = sentence.args        # (the milestones: the notice after yes)
        return Msg("Take back: {} {} fame: {} -> {}{}. Milestones passed: {}.", name, delta, before, total, note,
                   _milestones_in(passed))
    if isinstance(sentence, AnyMsg) and _vote_asked(sentence) is not None:
        return _vote_asked(sentence)
    if isinstance(sentence, AnyMsg) and sentence.template == UNVOTED and len(sentence.args) == 2:
        return Msg("Take back: {}'s vote out of Senate position {}.", *sentence.args)
    if isinstance(sentence, AnyMsg) and sentence.template == DOUBLE_TAX and len(sentence.args) == 5:
        return Msg("Take back: {}'s double tax.", sentence.args[0])                 # (three pages)
    if isinstance(sentence, AnyMsg) and _correction_asked(sentence) is not None:
        return _correction_asked(sentence)
    if isinstance(sentence, AnyMsg) and sentence.template == ARROWS_SET and len(sentence.args) == 5:
        return Msg("Take back: round {}'s arrows as printed.", sentence.args[0])      # (its sentence: six pages)
    if isinstance(sentence, AnyMsg) and sentence.template == EVENT_SHOWN and len(sentence.args) == 8:
        return Msg("Take back: round {}'s event ({}).", sentence.args[0], sentence.args[5])  # (its sentence: five pages)
    if isinstance(sentence, AnyMsg) and sentence.template == EVENT_SHOWN and len(sentence.args) == 5:
        after = sentence.args[1]                    # (stored before: the card's number after "event")
        return Msg("Take back: round {}'s event ({}).", sentence.args[0],
                   Msg("Event {}", after) if str(after).isdecimal() else after)
    if isinstance(sentence, AnyMsg) and sentence.template == ROUND_ENDS and len(sentence.args) == 4:
        return Msg("Take back: the end of round {}.", sentence.args[0])  # (4-5 rows: the turn is the notice's)
    if isinstance(sentence, AnyMsg) and sentence.template == GAME_ENDS and len(sentence.args) == 1:
        return Msg("Take back: the end of round {}.", sentence.args[0])   # (three pages, the console's command in English)
    return None


def _vote_asked(sentence: AnyMsg) -> Msg | None:
    """The undo question of ``vote``: whose votes and, after a supremacy, the fame it gave (G-7);
    the votes pushed off the bottom and the milestones passed are the notice's after yes
    (:func:`_vote_back`). The step's sentence took 5-9 rows (two or three A). None for another."""
    if sentence.template != "{}{}{}.{}" or len(sentence.args) != 4:
        return None
    placed, supremacy, _pushed, _passed = sentence.args
    if not (isinstance(placed, AnyMsg) and placed.template == PLACED and len(placed.args) == 2):
        return None
    n, name = placed.args
    if isinstance(supremacy, AnyMsg) and supremacy.template == SUPREMACY and len(supremacy.args) == 4:
        return Msg("Take back: {1}'s {0} vote in the Senate, +{2} fame.", n, name, supremacy.args[1],
                   plural="Take back: {1}'s {0} votes in the Senate, +{2} fame.")
    if supremacy:
        return None                     # (stored before the supremacy said the fame: the step's own sentence)
    return Msg("Take back: {1}'s {0} vote in the Senate.", n, name, plural="Take back: {1}'s {0} votes in the Senate.")


def _milestones_in(passed: Any) -> int:
    """How many milestones a step's milestone sentence (:func:`_milestone_text`) names."""
    if not isinstance(passed, AnyMsg):
        return 0
    if passed.template == "{} passes milestone {} (space {})":
        return 1
    return sum(_milestones_in(arg) for arg in passed.args)


def _no_args(req: Request, usage: Msg) -> None:
    req.check_opts(frozenset())
    if req.args:
        raise BadArguments(usage)


# -- income ----------------------------------------------------------------------------------
def _farm(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: farm <name>  (denarii for a supporter on a farming building this round).")
    _no_opts(req, usage)
    if len(req.args) != 1:
        raise BadArguments(usage)
    name = _player(state, req.args[0])
    farmer = _holder(state, "farmer") == name
    return Outcome({"denarii": farming_income(state["round"], farmer), "round": state["round"],
                    "farmer": farmer})


def _tax(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: tax <name> pop=N [double=1] [penalty=K].")
    _no_opts(req, usage, frozenset({"pop", "double", "penalty"}))
    if len(req.args) != 1 or "pop" not in req.opts:
        raise BadArguments(Msg("{} pop= is the population of the province in front of the player.", usage))
    _playing(state)
    name = _player(state, req.args[0])
    pop = req.opt_int("pop", lo=1, hi=int(tables()["max_population"]))
    assert pop is not None
    if not req.opt_flag("double"):
        if "penalty" in req.opts:
            raise BadArguments(Msg("penalty= only goes with double=1."))
        _paid(state, name, pop)
        return Outcome({"denarii": pop, "fame_lost": 0, "fame": _fames(state)},
                       Msg(TAX_TAKEN, name, pop))
    penalty = req.opt_int("penalty", double_tax_penalty(pop), lo=0, hi=30)
    if penalty is None:
        raise BadArguments(Msg("The dial's fame penalty for population {} is not in the table; add penalty=K as printed.", pop))
    before = state["fame"][name]
    if before - penalty < int(tables()["fame_floor"]):
        raise IllegalMove(Msg("{} cannot take double tax: fame {} cannot drop {} (the track stops at 1) (G-4).",
                              name, before, penalty))
    F.change_fame(state, name, -penalty)
    _paid(state, name, pop)
    return Outcome({"denarii": 2 * pop, "fame_lost": penalty, "fame": _fames(state)},
                   Msg(DOUBLE_TAX, name, 2 * pop, penalty, before,
                       state["fame"][name]))


def _tax_admitted(state: State, req: Request) -> None:
    """The rule a ``tax`` asked now keeps (``Command.admit``; ``state`` before it): the income is
    the round's last phase, after its intrigue phase has revealed the event (G-1: «Фаза интриг …
    Фаза дохода»), so a round with no event yet has no income to take: it is a round just begun
    (a tax meant for the round before, asked after its 'end-round', would note the population on
    the province the turned board now puts in front of the player and take this round's income
    before its time). A stored line replays as it was."""
    if state["event"] is None and not state["finished"]:
        raise IllegalMove(Msg("Round {} has no event yet: the income phase is the round's last, after the "
                              "event (G-1); reveal it with 'event' first.", state["round"]))
    _taxed_once(state, req)


def _taxed_once(state: State, req: Request) -> None:
    """The rule a ``tax`` asked now keeps (``Command.admit``; ``state`` before it): each player
    takes income once in the income phase (G-4). An older Legatus took a second one: its stored
    line replays as it ran (the game did not replay and was lost at the update)."""
    name = _player(state, req.args[0])
    if name in state.get("taxed", []):
        raise IllegalMove(Msg("{} has already taken income in round {} (an undo takes that tax back).", name, state["round"]))


def _paid(state: State, name: str, pop: int) -> None:
    """Note that ``name`` has taken income this round (the state's ``taxed``: whose is due next),
    and the population of the province in front of him (``populations``: the board turns every
    round, so the next tax on that province is another player's, G-4)."""
    state.setdefault("taxed", []).append(name)
    state.setdefault("populations", {})[R.facing(state)[name]] = pop


# -- medals ----------------------------------------------------------------------------------
def _medal(state: State, req: Request) -> Outcome:
    known = list(tables()["medals"])
    usage = Msg("Usage: medal <name> <{}>.", "|".join(known))
    _no_opts(req, usage)
    if len(req.args) != 2 or req.args[1].lower() not in known:
        raise BadArguments(usage)
    if state["options"]["heroes"]:
        raise IllegalMove(Msg("The Heroes variant plays without medals."))
    name, medal = _player(state, req.args[0]), req.args[1].lower()
    holder = _holder(state, medal)
    if holder == name:
        raise IllegalMove(Msg("{1} already holds {0}.", medal_term(medal), holder))
    if holder is not None and not state["finished"]:
        raise IllegalMove(Msg("{1} already holds {0} (it goes to the first level III building of its type).",
                              medal_term(medal), holder))
    state["medals"][medal] = name
    if holder is not None:        # after round 9, before the score is final: a correction
        return Outcome({"medals": dict(state["medals"])},
                       Msg(MEDAL_MOVED, medal_term(medal), name, holder))
    return Outcome({"medals": dict(state["medals"])}, Msg(MEDAL_EARNED, name, medal_term(medal)))


def _offer(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: offer <name> [n=N]  (Priest medal: pay 3 denarii for 1 fame, N times).")
    _no_opts(req, usage, frozenset({"n"}))
    if len(req.args) != 1:
        raise BadArguments(usage)
    _playing(state)
    name = _player(state, req.args[0])
    if _holder(state, "priest") != name:
        raise IllegalMove(Msg("{} does not hold the priest medal.", name))
    n = req.opt_int("n", 1, lo=1, hi=30)
    assert n is not None
    change = F.change_fame(state, name, n)
    cost = n * int(tables()["priest_offer_cost"])
    fields = {**_fame_fields(state, [change]), "denarii_paid": cost}
    return Outcome(fields, Msg("{1} pays {0} denarius for {2} fame ({3} -> {4}).{5}", cost, name, n, change.before,
                               change.total, _milestone_text(change.milestones),
                               plural="{1} pays {0} denarii for {2} fame ({3} -> {4}).{5}"))


OFFERED = "{1} pays {0} denarius for {2} fame ({3} -> {4}).{5}"   # (its msgid: the Msg in _offer)
OFFERED_BEFORE = Msg("{1} pays {0} denarius for {2} fame.{3}", 3, "", 1, "",
                     plural="{1} pays {0} denarii for {2} fame.{3}")
"""The offering as the log lines stored before :data:`OFFERED` said the fame (kept in the catalog
with its plural, so they are still said in the player's language; their undo says the step's own
sentence)."""


def _offer_back(sentence: AnyMsg) -> Msg | None:
    """The undo of a Priest's offering: the denarii go back to the player and the fame before it
    stands again, with the milestones it passed (G-5, G-6). It said the step taken back,
    «Отменено: Мария платит 3 денария: +1 славы.», read as one more fame. None for any other
    sentence."""
    if sentence.template != OFFERED or len(sentence.args) != 6:
        return None
    cost, name, _n, before, total, passed = sentence.args
    back = Msg("Undone: {1}'s payment for fame; {0} denarius back to {1}, fame {2} again, not {3}.", cost, name, before,
               total, plural="Undone: {1}'s payment for fame; {0} denarii back to {1}, fame {2} again, not {3}.")
    return _lap_back(Msg("{} Also taken back:{}", back, passed) if passed else back, name, before, total)


# -- random picks ----------------------------------------------------------------------------
def _pick(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: pick <hand size 1-{}>  (a random card from a hand: Sold!, Customs).", MAX_HAND)
    _no_opts(req, usage, frozenset({"picks"}))
    if len(req.args) != 1 or not req.args[0].isdecimal() or not 1 <= int(req.args[0]) <= MAX_HAND:
        raise BadArguments(usage)
    apart = req.opts.get("picks")
    if apart is not None and apart != APART:
        raise BadArguments(Msg("picks= takes only '{}' (each hand size picks from draws of its own); not '{}'.",
                               APART, apart[:24]))
    size = req.number(req.args[0])
    stream = PICKS if apart is None else f"{PICKS}-{size}"
    rng = load_rng(state, stream)
    position = rng.die(size)                   # below(size) + 1: a card's place from the left
    store_rng(state, rng, stream)
    state["picks"] = (state["picks"] + [{"hand": size, "position": position}])[-20:]
    return Outcome({"position": position, "hand": size},
                   Msg(PICKED, position, size))


def _no_intrigues(state: State, solo: Msg, truce: Msg) -> None:
    """Refuse a step only an intrigue takes where none is played: the Emperor's solo (G-17: «В этом
    режиме игры интриги не могут быть размещены») and the Truce variant («Игроки не размещают и не
    активируют интриги»)."""
    if len(state["players"]) == 1:
        raise IllegalMove(solo)
    if state["options"].get("truce"):
        raise IllegalMove(truce)


def _not_round_one(state: State, refused: Msg) -> None:
    """Refuse an intrigue's step in round 1: its intrigue phase reveals the event (step 1) and skips
    the activation of intrigues (step 2: «В первом раунде игры пропустите этот шаг», G-1), and an
    intrigue is activated only where it was placed in an earlier round («размещенные вами в
    предыдущих раундах»): none is placed before round 1's action phase."""
    if int(state["round"]) == 1:
        raise IllegalMove(refused)


def _after_the_event(state: State, refused: Msg) -> None:
    """Refuse an intrigue's step before the round's event card is out: the intrigue phase reveals
    it first (step 1: «Раскройте карту события»), then the players activate their intrigues (step
    2: «Активация интриг»), in the turn order that card sets (G-1). After the 9 rounds the game's
    own refusal says why."""
    if state["event"] is None and not state["finished"]:
        raise IllegalMove(refused)


def _pick_admitted(state: State, req: Request) -> None:
    """The rules a ``pick`` asked now keeps (``Command.admit``; ``state`` before it): «Продано!» and
    «Таможенные сборы» are intrigues (G-19), so there is none after the 9 rounds, in the Emperor's
    solo, in the Truce variant or in round 1, which skips their activation (G-1; the device's home
    offers it in none of them), nor before the round's event card is out (G-1: the intrigues are
    activated after it). A session an older Legatus stored with such a pick still replays as it
    was."""
    _playing(state)
    _no_intrigues(state,
                  Msg("There are no intrigues in the Emperor's solo (G-17): a random card from a hand is only "
                      "for Sold! and Customs."),
                  Msg("There are no intrigues in the Truce variant: a random card from a hand is only for Sold! "
                      "and Customs."))
    _not_round_one(state, Msg("Round 1 skips the activation of intrigues (G-1): a random card from a hand is only "
                              "for Sold! and Customs, intrigues activated from round 2."))
    _after_the_event(state, Msg("Round {} has no event yet: a random card from a hand is only for Sold! and Customs, "
                                "intrigues activated after the round's event card is revealed (G-1); reveal it "
                                "with 'event' first.", state["round"]))


def _unvote_admitted(state: State, req: Request) -> None:
    """The rule an ``unvote`` asked now keeps (``Command.admit``): a vote leaves the column only by
    the intrigues «Повторное голосование» and «Недействительное голосование» (G-7; a vote pushed
    off the bottom goes by ``vote``), none of which is played in the solo, the Truce variant or
    round 1, which skips their activation, nor before the round's event card is out (G-1: they are
    activated after it; the device's home offers "Remove a vote" in none of them). A stored line
    replays as it was."""
    _no_intrigues(state,
                  Msg("There are no intrigues in the Emperor's solo (G-17): a vote leaves the Senate column "
                      "only by Re-vote and Invalid vote."),
                  Msg("There are no intrigues in the Truce variant: a vote leaves the Senate column only by "
                      "Re-vote and Invalid vote."))
    _not_round_one(state, Msg("Round 1 skips the activation of intrigues (G-1): a vote leaves the Senate column "
                              "only by Re-vote and Invalid vote, intrigues activated from round 2."))
    _after_the_event(state, Msg("Round {} has no event yet: a vote leaves the Senate column only by Re-vote and "
                                "Invalid vote, intrigues activated after the round's event card is revealed (G-1); "
                                "reveal it with 'event' first.", state["round"]))


def _pick_line(state: State, req: Request) -> str:
    """``pick …`` as asked now is run and stored (``Command.canonical``): with ``picks=apart``
    (:data:`APART`); a line stored before replays as written."""
    line = f"{req.command} {req.rest}".strip()
    return line if "picks" in req.opts else f"{line} picks={APART}"


def _deal(state: State, req: Request) -> Outcome:
    _no_args(req, Msg("Usage: deal  (3 objective cards to each player; each keeps 2 with 'keep')."))
    _playing(state)
    obj = state["objectives"]
    if obj["hands"]:
        raise IllegalMove(Msg("The objectives are already dealt."))
    if len(obj["deck"]) < 3 * len(state["players"]):
        raise IllegalMove(Msg("Not enough objective cards left to deal 3 each."))
    rng = load_rng(state, OBJECTIVES)
    for p in state["players"]:
        obj["hands"][p] = obj["deck"][:3]
        del obj["deck"][:3]
        obj["kept"][p] = False
        rng.note("card", list(obj["hands"][p]))               # the top three, player by player
    hands = {p: [objective_label(c) for c in h] for p, h in obj["hands"].items()}
    unknown = two_player_cards_unknown(len(state["players"]), state["options"])   # not pretended (G-19)
    return Outcome({"hands": hands, **({"two_player_cards_unknown": True} if unknown else {})},
                   Msg(DEALT))


def _keep(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: keep <name> <card>,<card>  (the third card goes to the bottom of the deck).")
    _no_opts(req, usage)
    if len(req.args) != 2:
        raise BadArguments(usage)
    _playing(state)
    name = _player(state, req.args[0])
    obj = state["objectives"]
    hand = obj["hands"].get(name)
    if hand is None:
        raise IllegalMove(Msg("Deal the objectives first ('deal')."))
    if obj["kept"][name]:
        raise IllegalMove(Msg("{} has already chosen: {}.", name, ', '.join(hand)))
    wanted = [w.upper() for w in req.args[1].split(",")]
    if len(wanted) != 2 or len(set(wanted)) != 2 or not all(w in hand for w in wanted):
        raise BadArguments(Msg("{} keeps 2 different cards of their hand ({}).", name, ', '.join(hand)))
    returned = [c for c in hand if c not in wanted]
    obj["hands"][name] = [c for c in hand if c in wanted]
    obj["deck"].extend(returned)
    load_rng(state, OBJECTIVES).note("bottom", returned)
    obj["kept"][name] = True
    return Outcome({"kept": [objective_label(c) for c in obj["hands"][name]]},
                   Msg(KEPT, name))


def _objectives(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: objectives <name>  (shows that player's objective cards).")
    _no_opts(req, usage)
    if len(req.args) != 1:
        raise BadArguments(usage)
    name = _player(state, req.args[0])
    hand = state["objectives"]["hands"].get(name, [])
    return Outcome({"cards": [objective_label(c) for c in hand],
                    "kept": bool(state["objectives"]["kept"].get(name))})


# -- the score sheet, typed during final scoring -----------------------------------------------
DIRECTION_WORDS = (N_("clockwise"), N_("counterclockwise"))   # R.CLOCKWISE, R.COUNTERCLOCKWISE said
GOODS = ("tools", "weapons", "clothing", "jewelry")            # goods sets (G-11)
PANTHEON_COMMON = ("gold", "silver", "bronze")                   # common Pantheon parts (G-12)
BATTLEFIELD_ROWS = ("epirus", "macedonia", "thrace")             # legions per battlefield (G-9)


def sheet_limits() -> dict[str, int]:
    """The most each row of the score pad holds — the one place they are read from the data
    (``glory_tables.json``: ``max_sets``, ``pantheon_limits``); the device's pad uses it too."""
    t = tables()
    pantheon = t["pantheon_limits"]
    return {**{g: int(t["max_sets"]) for g in GOODS},
            **{c: int(pantheon["common"]) for c in PANTHEON_COMMON}, "own": int(pantheon["own"]),
            "objectives": 60, "denarii": 300,                                # G-13, G-14
            "done": 4,                         # objectives completed: G-17's solo goal, G-20's 4
            **{b: 7 for b in BATTLEFIELD_ROWS}}


SHEET_LIMITS: dict[str, int] = sheet_limits()
SHEET_WORDS: dict[str, str] = {
    "tools": N_("tool sets"), "weapons": N_("weapon sets"), "clothing": N_("clothing sets"),
    "jewelry": N_("jewelry sets"), "gold": N_("gold Pantheon parts"), "silver": N_("silver Pantheon parts"),
    "bronze": N_("bronze Pantheon parts"), "own": N_("own-colour Pantheon parts"),
    "objectives": N_("objective fame"), "denarii": N_("denarii"), "epirus": N_("legions in Epirus"),
    "macedonia": N_("legions in Macedonia"), "thrace": N_("legions in Thrace"),
    "done": N_("objectives done"),
}


def _sheet(state: State, req: Request) -> Outcome:
    """``sheet <name> <entry> <n>``: one figure of the final score sheet, kept in the session so
    that it survives a Back or a power cut (G-9..G-14 take them at ``score``)."""
    usage = Msg("Usage: sheet <name> <{}> <n>.", "|".join(SHEET_LIMITS))
    _no_opts(req, usage)
    if len(req.args) != 3 or req.args[1].lower() not in SHEET_LIMITS or not req.args[2].isdecimal():
        raise BadArguments(usage)
    name, entry, n = _player(state, req.args[0]), req.args[1].lower(), req.number(req.args[2])
    if n > SHEET_LIMITS[entry]:
        raise BadArguments(Msg("{} {}: at most {}.", name, term(SHEET_WORDS[entry]), SHEET_LIMITS[entry]))
    sheet = state.setdefault("sheet", {}).setdefault(name, {})
    was = int(sheet.get(entry, 0))
    if n:
        sheet[entry] = n
    else:
        sheet.pop(entry, None)
    return Outcome({"sheet": {p: dict(v) for p, v in state["sheet"].items()}},
                   Msg(SHEET_SET, name, n, term(SHEET_WORDS[entry]), was))


SHEET_SET = N_("Score sheet: {} — {} ({}; it was {}).")
"""A figure of the score pad typed: the player, the figure now, the row, the figure before it
(:func:`_undone` says that one again when the step is taken back). A line stored before it was
said kept :data:`SHEET_BEFORE`, whose undo says the step as every other undo does."""
SHEET_BEFORE = N_("Score sheet: {} {} {}.")
"""The sentence of a figure typed as the log lines stored before :data:`SHEET_SET` say it (still
said in the player's language)."""


def sheet_request(state: State) -> dict[str, Any]:
    """The ``score`` request for what the sheet holds (the session adds track, medals, Senate)."""
    typed = state.get("sheet", {})
    players = []
    for p in state["players"]:
        s = typed.get(p, {})
        players.append({
            "name": p,
            "sets": {k: s[k] for k in ("tools", "weapons", "clothing", "jewelry") if s.get(k)},
            "pantheon": {k: s[k] for k in ("gold", "silver", "bronze", "own") if s.get(k)},
            "objectives": s.get("objectives", 0), "denarii": s.get("denarii", 0),
            **({"objectives_done": s["done"]} if "done" in s else {}),
        })
    fields = [{"name": label, "shield": shield,
               "legions": {p: typed[p][key] for p in state["players"] if typed.get(p, {}).get(key)}}
              for key, label, shield in BATTLEFIELDS]
    return {"players": players, "battlefields": fields}


BATTLEFIELDS = (("epirus", "Epirus", 2), ("macedonia", "Macedonia", 3), ("thrace", "Thrace", 4))


# -- scoring ---------------------------------------------------------------------------------
def _session_score(state: State, req: Request) -> Outcome:
    facts = SessionFacts(players=list(state["players"]), fame=dict(state["fame"]),
                         medals=dict(state["medals"]), senate=list(state["senate"]),
                         heroes=bool(state["options"].get("heroes")))
    data = sheet_request(state) if req.rest.strip() in ("", "sheet") else req.json()
    return Outcome(score(parse_sheet(data, facts)))


def _global_score(req: Request, rng: Rng) -> dict[str, Any]:
    """Sessionless ``score <json>``: the whole sheet comes from the request."""
    return score(parse_sheet(req.json()))


GAME = GameRules(
    name="glory",
    title=N_("For the Glory of Rome"),
    new=new_state,
    view=view,
    undone=_undone,
    undo_asked=_undo_asked,
    usage="new glory players=Jack,Henry,Mary,Ross [first=Jack] [fame=1,2,3,1] [harsh=1] [clockwise=1] "
          "[truce=1] [heroes=1] [provinces=A,B,C,D] [seed=N]",
    commands=commands(
        Command("fame", _fame, True, "fame <name> <+N|-N>", admit=_fame_admitted),
        Command("vote", _vote, True, "vote <name> [n=2]"),
        Command("unvote", _unvote, True, "unvote <name> [at=N]", admit=_unvote_admitted),
        Command("senate", _senate, True, "senate column=<names, bottom to top>"),
        Command("event", _event, True, "event [card=<id>] [arrow=cw90|cw180|ccw90|ccw180]", drawn=_event_drawn,
                held=EVENT_HELD),
        Command("arrow", _arrow, True, "arrow <cw90|cw180|ccw90|ccw180>"),
        Command("end-round", _end_round, True, "end-round"),
        Command("farm", _farm, False, "farm <name>"),
        Command("tax", _tax, True, "tax <name> pop=N [double=1] [penalty=K]", admit=_tax_admitted),
        Command("medal", _medal, True, "medal <name> <warrior|politician|merchant|priest|farmer>"),
        Command("offer", _offer, True, "offer <name> [n=N]"),
        Command("pick", _pick, True, "pick <hand size>", canonical=_pick_line, admit=_pick_admitted),
        Command("deal", _deal, True, "deal"),
        Command("keep", _keep, True, "keep <name> <card>,<card>"),
        Command("objectives", _objectives, False, "objectives <name>"),
        Command("sheet", _sheet, True, "sheet <name> <entry> <n>"),
        Command("score", _session_score, False, "score <json> | score sheet"),
    ),
)

SCORE = GlobalCommand("score", _global_score, "score <json>  (For the Glory of Rome final scoring)")
