"""The ``sword`` session game: VP track (W-11), Desperate Times (W-12), Carthaginian unrest
(W-13), naval moves (W-8), 2d6 checks (W-9), the consuls' cup (W-10), turns and rounds, and the
dice commands with the session's generator (journaled: undo never re-rolls)."""
from __future__ import annotations

import copy
import re
from engine.sword.views import SwordGameView
from typing import Any, cast

from engine.errors import BadArguments, GameOver, IllegalMove
from engine.game import (Command, Drawn, GameRules, Outcome, Request, State, commands, load_draws, load_rng, store_draws,
                         store_rng, stream_drawn, whole_number)
from engine.names import check_name
from engine.rng import Draws
from engine.sword import battle as B
from engine.sword import naval as N
from engine.sword import tracks as V
from engine.sword.faces import parse_faces, roll_faces
from engine.sword.requests import (BATTLE, MAX_MOD, MAX_UNITS, ODDS, TACTICS, battle_fields, battle_text,
                                   odds_fields, signed, tactics_fields, tactics_text)
from engine.sword.replies import LastBattle, LastRoll
from engine.sword.tables import tables
from engine.sword.tactics import KINDS as TACTICS_KINDS
from engine.sword.tactics import effect as tactics_effect
from engine.sword.text import N_, Msg, consul_named, term
from engine.sword import table as T
from engine.sword import undone as U

RESULT_WORDS = (N_("success"), N_("return"), N_("attrition"))   # naval results, said
# the 2d6 checks (W-9) as the log names them: the Gallic one is the playbook's Gallic Events Table
CHECK_TERMS = {"siege": N_("Siege"), "subjugation": N_("Subjugation"), "attrition": N_("Attrition"),
               "gallic": N_("Gallic events")}

# A change as an older Legatus read it: its sign from the character range + .. = (which holds , - . /
# 0-9 : ; <; anything but + or = subtracted: «vp romans 12» took 2 off). Kept so that a session stored
# with such a line replays as it was acknowledged; a change asked now is held to _SIGNED (_signed_change).
_CHANGE = re.compile(r"^([+-=])(\d{1,2})$")
_SIGNED = re.compile(r"^[-+=]\d{1,2}$")
MAX_CONSUL_NAME = 24


NEW_OPTS = frozenset({"players", "vp", "consuls", "seed", "rolls"})
# The streams of the game's draws (docs/fairness.md): the consuls drawn from the cup (W-10), and the
# dice. A game started with ``rolls=tests`` (every game started now: :func:`stored_options`) rolls
# each kind of roll from a stream of its own (:func:`_dice`): the tactics tests (W-1: one roll,
# 1d6 against the commander's Tactics rating, whatever its kind= names), the naval moves, each 2d6
# check, the attacker's and the defender's battle dice; so dice shown for one roll and undone stay
# with it whatever is rolled in between (undo never re-rolls: a bad battle undone cannot hand its
# dice to a tactics test and be fought again with fresh ones). A game stored with ``rolls=apart``
# (an older Legatus) rolled each kind= of tactics test from a stream of its own, so a test undone
# and asked again under another kind= (or none) rolled a fresh die: it replays as it was. A game
# stored without ``rolls=`` rolls everything from ``sword-dice``, as it did: it replays exactly.
DICE, CONSULS = "sword-dice", "consuls"
ROMANS = "romans"                  # the power whose leaders the consuls are (W-10, rule 8.2.2)
APART = "apart"                    # each kind= of tactics test apart (as stored by an older Legatus)
TESTS = "tests"                    # every tactics test from one stream (every game started now)


def stored_options(lang: str) -> dict[str, str]:
    """The ``new`` options the firmware writes into a line asked now that does not give them
    (``GameRules.language_options``; the same in every language): ``rolls=tests``, so that the game
    replays with its rolls apart (:data:`DICE`) while one stored without it replays as it was."""
    return {"rolls": TESTS}


def _dice(state: State, purpose: str) -> str:
    """The stream of the dice of a ``purpose`` (:data:`DICE`)."""
    return f"sword-{purpose}" if state.get("dice") in (APART, TESTS) else DICE


def _tactics_dice(state: State, req: Request) -> str:
    """The stream of a tactics test (W-1): one for every test, whatever its ``kind=`` (which only
    names what the result does), so a test undone and asked again rolls the die it showed, the
    kind changed or left out; a game stored with ``rolls=apart`` rolls each kind from its own."""
    kind = req.opts.get("kind")
    if state.get("dice") == APART:
        return _dice(state, f"tactics-{kind}" if kind in TACTICS_KINDS else "tactics")
    return _dice(state, "tactics")


def _check_dice(state: State, req: Request) -> str:
    return _dice(state, f"check-{req.args[0].lower()}" if len(req.args) == 1 else "check")


def _drawn_from(stream: Any, *typed: str) -> Any:
    """:attr:`Command.drawn` of a roll whose stream ``stream(state, req)`` names."""
    return lambda state, req: stream_drawn(stream(state, req), *typed)(state, req)


def _battle_drawn(state: State, req: Request) -> Drawn | None:
    """What a ``battle`` draws (firmware/shown.py): both sides' dice, unless typed."""
    att = stream_drawn(_dice(state, "battle-attacker"), "att-dice")(state, req)
    dfn = stream_drawn(_dice(state, "battle-defender"), "def-dice")(state, req)
    if att is None or dfn is None:
        return None
    if att.source == dfn.source:
        return Drawn(att.source, att.typed | dfn.typed)
    return Drawn(f"{att.source}|{dfn.source}", att.typed | dfn.typed)
# The powers that played a Desperate Times card at the end of round 5 (``desperate … end=1``) and
# the turn: each plays one there (W-12, rule 7.4.5). Kept from the first such play on.
END_PLAYED = "desperate_end"
# The session's most recent battle (its fields), for its retreat losses (W-5): ``last`` holds the
# last roll only, and a naval retreat's roll may come between the battle and its retreat losses.
LAST_BATTLE = "last_battle"


def _factions(raw: str | None) -> list[str]:
    known = list(tables()["factions"])
    if not raw:
        raise BadArguments(Msg("Name the powers in play: new sword players=romans,gauls,etruscans,greeks (from {}).", ', '.join(known)))
    names = [n.strip().lower() for n in raw.split(",")]
    for n in names:
        if n not in known:
            raise BadArguments(Msg("'{}' is not a power of The Sword of Rome (powers: {}).", n, ', '.join(known)))
    if len(set(names)) != len(names):
        raise BadArguments(Msg("A power is listed twice in players=."))
    if not 2 <= len(names) <= 5:
        raise BadArguments(Msg("The Sword of Rome takes 2 to 5 players, not {}.", len(names)))
    return [f for f in known if f in names]


def _new(req: Request, seed: Draws | int) -> State:
    req.check_opts(NEW_OPTS)
    if req.args:
        raise BadArguments(Msg("Usage: new sword players=romans,gauls,etruscans,greeks[,carthage] [vp=romans:2,...] "
                               "[consuls=Name,Name,...] [seed=N]."))
    factions = _factions(req.opts.get("players"))
    rolls = req.opts.get("rolls")
    if rolls is not None and rolls not in (TESTS, APART):
        raise BadArguments(Msg("rolls= takes only '{}' or '{}' (each kind of roll from dice of its own); not '{}'.",
                               TESTS, APART, rolls))
    vp = {f: 0 for f in factions}
    if "vp" in req.opts:
        for part in req.opts["vp"].split(","):
            f, _, value = part.partition(":")
            if f.lower() not in vp or not value.isdecimal():
                raise BadArguments(Msg("vp= gives starting VP as power:number for powers in play, e.g. vp={}:2; not '{}'.", factions[0], part))
            vp[f.lower()] = V.clamp_vp(whole_number(value, req.asked))
    pool = list(tables()["consuls"])
    if "consuls" in req.opts:
        pool = _consul_pool(req.opts["consuls"])
    state: State = {
        "rng": Draws.coerce(seed).to_json(),
        "factions": factions,
        "vp": vp,
        "desperate": {f: int(tables()["desperate_cards"]) for f in factions},
        "unrest": 0 if "carthage" in factions else None,
        "turn": 1,
        "round": 1,
        "finished": False,
        "consuls": {"pool": pool, "drawn": []},
        "last": None,
    }
    if rolls is not None:
        state["dice"] = rolls              # (not "rolls": the session's own rolls, engine/common.py)
    return state


def _consul_pool(raw: str) -> list[str]:
    names = [n for n in raw.split(",") if n]
    need = int(tables()["consuls_drawn"])
    if len(names) < need:
        raise BadArguments(Msg("The consuls' cup needs at least {n} different name, e.g. consuls=Valerius,Camillus,Fabius.",
                               n=need, plural="The consuls' cup needs at least {n} different names, e.g. "
                                              "consuls=Valerius,Camillus,Fabius."))
    seen: set[str] = set()
    for name in names:            # the device shows the consuls drawn: names it can draw (engine/names.py)
        check_name(name, MAX_CONSUL_NAME, spaces=False)
        if name.casefold() in seen:       # «…,Valerius,valerius»: said as it is, not as too few names
            raise BadArguments(Msg("The consuls' cup names '{}' twice: each consul is in it once (W-10).", name))
        seen.add(name.casefold())
    return names


def _ordered(state: State, values: dict[str, int]) -> dict[str, int]:
    """``values`` keyed by power, in the game's power order."""
    return {f: int(values[f]) for f in state["factions"]}


def _effective(state: State) -> dict[str, int]:
    return V.effective_vp(state["vp"], state["unrest"])


def _view(state: State) -> SwordGameView:
    eff = _effective(state)
    out: SwordGameView = {
        "factions": list(state["factions"]),
        # an automatic victory reached at scoring (W-11) ends the game as `victory` does (_not_won)
        "turn": state["turn"], "round": state["round"], "finished": bool(state["finished"] or state.get("automatic")),
        "vp": _ordered(state, state["vp"]),
        "standings": V.standings(eff),
        "desperate": _ordered(state, state["desperate"]),
        "consuls": {"pool": list(state["consuls"]["pool"]), "drawn": list(state["consuls"]["drawn"]),
                    "turn": state["consuls"].get("turn")},
        "last": cast("LastRoll | None", last_roll(state["last"])),
        "last_battle": cast("LastBattle | None", copy.deepcopy(_last_battle(state))),
    }
    if state.get("automatic"):
        out["automatic"] = str(state["automatic"])
    done = state.get(END_PLAYED)
    if done and done["turn"] == state["turn"]:
        out["desperate_end"] = list(done["powers"])
    if state["unrest"] is not None:
        fields = _unrest_fields(state["unrest"])
        out["unrest"] = {"level": state["unrest"], "hand_size_modifier": fields["hand_size_modifier"],
                         "vp_modifier": fields["vp_modifier"], "carthage_vp": eff["carthage"]}
    return out


def _unrest_fields(level: int) -> dict[str, int]:
    eff = V.unrest_effects(level)
    return {"hand_size_modifier": eff["hand_size"], "vp_modifier": eff["vp"]}


def _faction(state: State, raw: str) -> str:
    f = raw.lower()
    if f not in state["factions"]:
        raise BadArguments(Msg("'{}' is not in this game (powers: {}).", raw, ', '.join(state['factions'])))
    return f


def _change(raw: str, current: int, what: str, asked: bool = False) -> int:
    m = _CHANGE.match(raw)
    if not m:
        raise BadArguments(Msg("Give the {} change as +N, -N or =N, not '{}'.", what, raw))
    signed = m.group(1) in "+-"                  # (+05 asked now: refused, engine.game.whole_number)
    n = abs(whole_number(raw, asked, True)) if asked and signed else whole_number(m.group(2), asked)
    return n if m.group(1) == "=" else current + (n if m.group(1) == "+" else -n)


def _signed_change(raw: str, what: str) -> None:
    """A change asked now (``Command.admit``) is +N, -N or =N: «vp romans 12» meaning 12 VP is
    refused, not read as −2 (:data:`_CHANGE`)."""
    if not _SIGNED.match(raw):
        raise BadArguments(Msg("Give the {} change as +N, -N or =N, not '{}'.", what, raw))


def _vp_admitted(state: State, req: Request) -> None:
    """A ``vp`` change asked now keeps the power on the VP track (W-11: 0 to 12) and moves it: «vp
    gauls -1» at 0 VP was taken and logged «Gauls VP 0 -> 0», a step to undo that changed nothing, as
    was «vp romans =8» at 8 (or +0), and «vp romans +15» put 12 without a word (the device refuses
    them; unrest out of its range is refused too). A session an older Legatus stored with such a
    line replays as it ran (clamped)."""
    _not_won(state, req)
    if len(req.args) != 2:
        return                                        # (the handler says the usage)
    _signed_change(req.args[1], term(N_("VP")))
    f = _faction(state, req.args[0])
    before = state["vp"][f]
    asked = _change(req.args[1], before, term(N_("VP")))
    low, high = V.vp_range()
    if not low <= asked <= high:
        raise IllegalMove(Msg("VP stay within {}–{} (W-11); {}: {} VP, and the change would make it {}.",
                              low, high, term(f.capitalize()), before, signed(asked) if asked < 0 else asked))
    if asked == before:                   # «vp romans =8» at 8: a step to undo that undid nothing
        raise IllegalMove(Msg("{}: already {} VP (W-11); nothing to change.", term(f.capitalize()), before))


def _new_admitted(req: Request) -> None:
    """A ``new sword … vp=`` asked now gives each power a figure of the VP track (W-11: 0 to 12).
    The set-up clamps a figure above 12 to 12, as it always did, so that a game an older Legatus
    stored with ``vp=romans:13`` still resumes; asked now it is refused (``GameRules.admit_new``).
    Likewise ``consuls=`` in a game without the Romans: it fills the Roman consuls' cup (W-10, rule
    8.2.2), which nobody there draws (:func:`_romans_draw`)."""
    low, high = V.vp_range()
    if "consuls" in req.opts and ROMANS not in _factions(req.opts.get("players")):
        raise BadArguments(Msg("consuls= fills the cup of the Roman consuls, whom the Roman player draws (W-10, rule "
                               "8.2.2); the Romans are not in this game (players=)."))
    for part in req.opts.get("vp", "").split(","):
        value = part.partition(":")[2]
        if value.isdecimal() and not low <= int(value) <= high:
            raise BadArguments(Msg("Starting VP are {} to {}, the figures of the VP track (W-11); not '{}'.",
                                   low, high, part))


def _scoring_admitted(state: State, req: Request) -> None:
    """A ``scoring`` asked now gives what the power holds (``outside=``, ``missing=`` or both: W-11),
    and its ``auto=T`` names a figure the map prints for the turn: 1 to 12. ``auto=0`` was taken,
    and every power has at least 0 VP, so a slip of the finger ended the game by an automatic
    victory; a session an older Legatus stored with either still replays as it was."""
    _not_won(state, req)
    req.opt_int("auto", None, lo=1, hi=V.vp_range()[1])
    if "outside" not in req.opts and "missing" not in req.opts:
        raise BadArguments(_scoring_usage())   # «scoring romans» alone scored nothing, as a step to undo


def _unrest_admitted(state: State, req: Request) -> None:
    """An ``unrest`` change asked now is signed (:func:`_signed_change`) and changes the level (W-13):
    «unrest =4» at 4 was a step to undo that undid nothing (the device's form sends none)."""
    _not_won(state, req)
    _signed_change(req.args[0], term(N_("unrest")))
    level = state.get("unrest")
    if level is not None and len(req.args) == 1 and _change(req.args[0], level, term(N_("unrest"))) == level:
        raise IllegalMove(Msg("Carthaginian unrest is already {} (W-13); nothing to change.", level))


def _playing(state: State) -> None:
    if state["finished"] and state.get("automatic"):
        raise GameOver(Msg("The game is over: automatic victory ({}); 'undo' reopens the last step.",
                           term(str(state["automatic"]).capitalize())))
    if state["finished"]:
        raise GameOver(Msg("Turn 9 is over; 'standings' gives the result, 'undo' reopens the last step."))


def _not_won(state: State, req: Request) -> None:
    """The rule a request asked now keeps (``Command.admit``; ``state`` before it): an automatic
    victory reached at ``scoring … auto=T`` (W-11) ends the game as ``victory`` does, so nothing more
    is scored, advanced, played or rolled (:func:`_not_over`). Its state keeps the winner
    (``automatic``) without ``finished``, so that a session an older Legatus stored with lines after
    such a scoring (it took them) still replays whole; ``undo`` reopens the game."""
    if state.get("automatic"):
        _playing({**state, "finished": True})


def _not_over(state: State, req: Request) -> None:
    """The rule a roll asked now keeps (``Command.admit``; ``state`` before it): a game that is over
    (after turn 9, ``victory``, or an automatic victory reached at ``scoring``) rolls no more — a
    game whose rules ended it is already ended (PROTOCOL.md, third round); ``undo`` reopens it. A
    roll an older Legatus stored after the end still replays as it was (the rule is not the handler's)."""
    _not_won(state, req)
    _playing(state)


def _consuls_admitted(state: State, req: Request) -> None:
    _not_won(state, req)
    _romans_draw(state)
    _consuls_once(state, req)


def _romans_draw(state: State) -> None:
    """The rule a ``consuls`` asked now keeps (``Command.admit``): the consuls are the Roman
    player's leaders, and he draws them (W-10; rulebook 8.2.2 «игрок за Римлян возвращает всех
    консулов в пул, после чего тянет двух»): a game without the Romans (players= leaves them out)
    has no consuls to draw. A session an older Legatus stored with such a draw replays as it was."""
    if ROMANS not in state["factions"]:
        raise IllegalMove(Msg("The consuls are the Roman player's leaders, drawn by him in each reinforcement phase "
                              "(W-10, rule 8.2.2); the Romans are not in this game, so there are no consuls to draw."))


def _victory(state: State, req: Request) -> Outcome:
    """``victory <power>``: an automatic victory (W-11): the power's VP reached the figure printed on
    the map for this turn. The game is over, as after turn 9 (``undo`` reopens it)."""
    req.check_opts(frozenset())
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: victory <power>  (an automatic victory, W-11: its VP reached this turn's "
                               "figure on the map)."))
    _playing(state)
    f = _faction(state, req.args[0])
    state["finished"] = True
    state["automatic"] = f
    return Outcome({"finished": True, "winner": f, "automatic": True, "turn": state["turn"],
                    "standings": V.standings(_effective(state))},
                   Msg("Automatic victory in turn {}: {} (W-11).", state["turn"], term(f.capitalize())))


def _vp(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if len(req.args) != 2:
        raise BadArguments(Msg("Usage: vp <power> <+N|-N|=N>."))
    _playing(state)
    f = _faction(state, req.args[0])
    before = state["vp"][f]
    state["vp"][f] = V.clamp_vp(_change(req.args[1], before, term(N_("VP")), req.asked))
    return Outcome({"vp": _ordered(state, state["vp"]), "standings": V.standings(_effective(state))},
                   Msg(T.VP_SET, term(f.capitalize()), before, state["vp"][f]))


def _scoring_usage() -> Msg:
    return Msg("Usage: scoring <power> outside=N missing=M [auto=T]  (W-11 scoring phase).")


def _scoring(state: State, req: Request) -> Outcome:
    usage = _scoring_usage()
    req.check_opts(frozenset({"outside", "missing", "auto"}))
    if len(req.args) != 1:
        raise BadArguments(usage)
    _playing(state)
    f = _faction(state, req.args[0])
    outside = req.opt_int("outside", 0, lo=0, hi=50)
    missing = req.opt_int("missing", 0, lo=0, hi=50)
    auto = req.opt_int("auto", None, lo=0, hi=12)
    assert outside is not None and missing is not None
    before = state["vp"][f]
    change = V.scoring_change(outside, missing)
    state["vp"][f] = V.clamp_vp(before + change)
    out: dict[str, Any] = {"power": f, "change": change, "vp": _ordered(state, state["vp"]),
                           "standings": V.standings(_effective(state))}
    if auto is not None:
        out["automatic_victory"] = _effective(state)[f] >= auto
        if out["automatic_victory"]:            # W-11: the game is won (and over: _not_won)
            state["automatic"] = f
    return Outcome(out, Msg(T.SCORED, term(f.capitalize()), signed(change), before,
                            state["vp"][f]))


def _standings(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if req.args:
        raise BadArguments(Msg("Usage: standings  (most VP first, ties by W-11 order)."))
    eff = _effective(state)
    order = V.standings(eff)
    leader = str(state["automatic"]) if state.get("automatic") else order[0]   # W-11: an automatic victory won
    return Outcome({"standings": order, "leader": leader, "vp": _ordered(state, state["vp"]),
                    "effective_vp": _ordered(state, eff)})


def _desperate(state: State, req: Request) -> Outcome:
    """``desperate <power>[,<power>...] [end=0|1]``: the Desperate Times cards (W-12). Without
    ``end=1`` (rule 7.4.1: just before a player becomes active) everyone listed wants to play one at
    that moment: the one with the fewest VP plays, the others keep theirs (rule 7.4.2). With
    ``end=1``, the end of round 5 before the attrition phase (rule 7.4.5): each listed power plays
    one, in descending VP order (ties by W-11 order); refused in another round."""
    usage = Msg("Usage: desperate <power>[,<power>...] [end=0|1]  (everyone who wants to play a Desperate Times card now; "
                "end=1: at the end of round 5).")
    req.check_opts(frozenset({"end"}))
    if len(req.args) != 1:
        raise BadArguments(usage)
    end = req.opt_flag("end")
    _playing(state)
    wanting = []
    for raw in req.args[0].split(","):
        f = _faction(state, raw)
        if state["desperate"][f] <= 0:
            raise IllegalMove(Msg("No Desperate Times card left: {}.", term(f.capitalize())))
        if f not in wanting:
            wanting.append(f)
    if end:
        rounds = V.game_length()[1]
        if state["round"] != rounds:
            raise IllegalMove(Msg("end=1 is the end of round {last} (W-12, rule 7.4.5); this is round {now}: a card "
                                  "played now interrupts a player (without end=1, rule 7.4.2).",
                                  last=rounds, now=state["round"]))
        done = state.get(END_PLAYED) or {}
        again = [f for f in wanting if done.get("turn") == state["turn"] and f in done.get("powers", [])]
        if again:
            raise IllegalMove(Msg("One Desperate Times card each at the end of round 5 (W-12, rule 7.4.5); already "
                                  "played there: {}.", Msg.join([term(f.capitalize()) for f in again])))
        order = [f for f in V.standings(_effective(state)) if f in wanting]      # most VP first (rule 7.4.5)
        for f in order:
            state["desperate"][f] -= 1
        played = done.get("powers", []) if done.get("turn") == state["turn"] else []
        state[END_PLAYED] = {"turn": state["turn"], "powers": [*played, *order]}
        return Outcome({"plays": order[0], "played": order, "kept": [], "end": True,
                        "desperate": _ordered(state, state["desperate"])},
                       Msg(T.DESPERATE[1],
                           Msg.join([term(f.capitalize()) for f in order])))
    plays = V.desperate_priority(wanting, _effective(state))
    state["desperate"][plays] -= 1
    kept = [f for f in wanting if f != plays]
    return Outcome({"plays": plays, "played": [plays], "kept": kept, "end": False,
                    "desperate": _ordered(state, state["desperate"])},
                   # the power after a colon: no verb to agree with «Romans» and «Carthage» alike
                   Msg(T.DESPERATE[0], term(plays.capitalize()),
                       Msg("; keeping theirs: {}.", Msg.join([term(k.capitalize()) for k in kept])) if kept else "."))


def _desperate_admitted(state: State, req: Request) -> None:
    """The rule a ``desperate`` asked now keeps (``Command.admit``; ``state`` before it): in round 5
    several powers at once are either interrupting a player (rule 7.4.2: the fewest VP plays, the
    others keep theirs) or playing at the end of the round (rule 7.4.5: each plays one, most VP
    first), and only the table knows which: such a line says it (``end=0`` or ``end=1``). A session
    an older Legatus stored with such a line (it took it as an interruption) replays as it ran."""
    _not_won(state, req)
    if "end" in req.opts or len(req.args) != 1 or state["round"] != V.game_length()[1]:
        return
    powers = {raw.strip().lower() for raw in req.args[0].split(",")}
    if len(powers) > 1 and powers <= set(state["factions"]):            # (else the handler says what is wrong)
        raise BadArguments(Msg("In round 5 say when several powers play: end=0 interrupting a player (the one with "
                               "the fewest VP plays, the others keep theirs: W-12, rule 7.4.2) or end=1 at the end of "
                               "the round (each plays one, most VP first: rule 7.4.5)."))


def _desperate_order(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if req.args:
        raise BadArguments(Msg("Usage: desperate-order  (the end of round 5: who may play a Desperate Times card, "
                               "most VP first, W-12)."))
    return Outcome({"order": _end_order(state)})


def _end_order(state: State) -> list[str]:
    """Who may play a Desperate Times card at the end of round 5 (W-12, rule 7.4.5 «каждый игрок в
    порядке убывания ПО может сыграть одну карточку»): the powers with a card left, most VP first
    (ties by W-11 order), less those that have played their one there this turn (``end=1``)."""
    done = state.get(END_PLAYED) or {}
    played = done.get("powers", []) if done.get("turn") == state["turn"] else []
    return [f for f in V.end_of_round5_order(_effective(state), state["desperate"]) if f not in played]


def _unrest(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: unrest <+N|-N|=N>."))
    _playing(state)
    if state["unrest"] is None:
        raise IllegalMove(Msg("Carthage is not in this game (unrest is a 5-player rule)."))
    level = _change(req.args[0], state["unrest"], term(N_("unrest")), req.asked)
    top = int(tables()["unrest_max"])
    if not 0 <= level <= top:
        raise IllegalMove(Msg("Unrest stays within 0..{}; it would be {}.", top, level))
    before, state["unrest"] = state["unrest"], level
    return Outcome({"unrest": level, **_unrest_fields(level), "carthage_vp": _effective(state)["carthage"]},
                   Msg(T.UNREST_SET, level, signed(-(level // 2)), signed(-(level // 3)), before=before))


def _naval(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset({"mod", "die", "extra-ops", "friendly-port"}))
    if req.args:
        raise BadArguments(Msg("Usage: naval [mod=N] [die=D] [extra-ops=N] [friendly-port=1]."))
    mod = req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True)
    extra = req.opt_int("extra-ops", 0, lo=0, hi=10)
    assert mod is not None and extra is not None
    if extra and "carthage" not in state["factions"]:
        raise IllegalMove(Msg("extra-ops= is the 5-player Carthaginian rule; Carthage is not in this game."))
    net = N.modifier(mod, extra, req.opt_flag("friendly-port"))
    given = req.opt_int("die", None, lo=1, hi=6)
    die = given if given is not None else _roll(state, 1, _dice(state, "naval"))[0]
    r = N.naval(die, net)
    fields = {"roll": r.die, "modifier": r.modifier, "modified": r.modified, "result": r.result}
    state["last"] = {"kind": "naval", **fields}
    return Outcome(fields, Msg("Naval move: {}{} = {}: {}.", r.die, signed(r.modifier), r.modified, term(r.result)))


def _roll(state: State, n: int, stream: str) -> list[int]:
    rng = load_rng(state, stream)
    faces = roll_faces(rng, n)
    store_rng(state, rng, stream)
    return faces


def _check(state: State, req: Request) -> Outcome:
    kinds = list(tables()["two_d6"]["tables"])
    usage = Msg("Usage: check <{}> [mod=N] [dice=a,b] [gauls=1].", "|".join(kinds))
    req.check_opts(frozenset({"mod", "dice", "gauls"}))
    if len(req.args) != 1 or req.args[0].lower() not in kinds:
        raise BadArguments(usage)
    kind = req.args[0].lower()
    mod = req.opt_int("mod", 0, lo=-MAX_MOD, hi=MAX_MOD, signed=True)
    assert mod is not None
    if req.opt_flag("gauls"):
        if kind != "siege":
            raise BadArguments(Msg("gauls=1 (the Gauls' -1 when besieging) goes with 'check siege'."))
        mod += int(tables()["two_d6"]["gauls_besieging"])
    dice = parse_faces(req.opts["dice"], 2, "dice=", req.asked) if "dice" in req.opts else _roll(state, 2, _check_dice(state, req))
    total = sum(dice) + mod
    result = None
    for row in tables()["two_d6"]["tables"][kind] or []:
        if row["min"] <= total <= row["max"]:
            result = row["result"]
    fields = {"check": kind, "dice": dice, "sum": sum(dice), "modifier": mod, "total": total, "result": result}
    state["last"] = {"kind": "check", **fields}
    shown = signed(mod) if mod else ""     # «5+3+0» read as three dice; «4+5−1»: the minus sign
    return Outcome(fields, Msg("{} roll: {}+{}{} = {}.", term(CHECK_TERMS[kind]), dice[0], dice[1], shown, total))


def _check_admitted(state: State, req: Request) -> None:
    """The rule a ``check`` asked now keeps (``Command.admit``; ``state`` before it): the Gallic
    events table (W-9) is the game without a Gauls player's (the playbook's 3-player game: a Gallic
    event is rolled when the Gallic player's action would occur, and every Gaul is removed), so it
    is rolled only where nobody plays the Gauls, and a siege by the Gauls (``gauls=1``: their −1)
    only where they play; as every roll, none once the game is over (:func:`_not_over`). A session an
    older Legatus stored with such a roll replays as it was."""
    _not_over(state, req)
    if len(req.args) != 1:
        return                                      # the handler says how to ask
    gauls = "gauls" in state["factions"]
    if req.args[0].lower() == "gallic" and gauls:
        raise IllegalMove(Msg("The Gallic events table (W-9) is rolled only where the Gauls are not in the game (the "
                              "3-player game: a roll in place of their action); here the Gauls are in the game."))
    if req.args[0].lower() == "siege" and req.opt_flag("gauls") and not gauls:
        raise IllegalMove(Msg("gauls=1 is a siege by the Gauls (their -1, W-9); the Gauls are not in this game."))


def _consuls(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset({"pool"}))
    if req.args:
        raise BadArguments(Msg("Usage: consuls [pool=Name,Name,...]  (all consuls back in the cup, draw 2)."))
    _playing(state)
    if "pool" in req.opts:
        state["consuls"]["pool"] = _consul_pool(req.opts["pool"])
    cup = list(state["consuls"]["pool"])
    rng = load_rng(state, CONSULS)
    drawn = []
    for _ in range(int(tables()["consuls_drawn"])):
        drawn.append(rng.pop(cup))
    store_rng(state, rng, CONSULS)
    state["consuls"]["drawn"] = drawn
    state["consuls"]["turn"] = state["turn"]          # drawn in this turn's reinforcement phase
    said = [consul_named(n) for n in drawn]
    return Outcome({"drawn": drawn}, Msg(T.CONSULS[0], said[0], said[1])
                   if len(drawn) == 2 else Msg(T.CONSULS[1], Msg.join(said)))


def _consuls_once(state: State, req: Request) -> None:
    """The rule a ``consuls`` asked now keeps (``Command.admit``; ``state`` before it): the cup is
    drawn from once in each reinforcement phase, one per turn (W-10; rulebook 8.2.2 «В каждой Фазе
    Подкрепления ... тянет двух случайным образом»), so the consuls seen are not drawn again for
    others (PROTOCOL.md: undo never re-rolls). A session stored with a second draw in a turn (an
    older Legatus took it) replays as it was: the turn of a draw is kept from this version on
    (``consuls.turn``)."""
    cup = state["consuls"]
    if cup.get("turn") == state["turn"] and cup["drawn"]:
        said = [consul_named(n) for n in cup["drawn"]]
        raise IllegalMove(Msg("The consuls are drawn once in each reinforcement phase (W-10): this turn's are {} and "
                              "{}.", said[0], said[1]) if len(said) == 2 else
                          Msg("The consuls are drawn once in each reinforcement phase (W-10): this turn's are {}.",
                              Msg.join(said)))


def _consuls_line(state: State, req: Request) -> str:
    """``consuls`` as asked now is run and stored (``Command.canonical``): a cup is the same
    whatever order its consuls are named in, so it draws the same (W-10; PROTOCOL.md: no
    re-rolling). ``pool=`` naming the consuls already in the cup (in any order or letter case) is
    the cup as it stands (``consuls``); another cup is named in one order (by name, letter case
    aside). A pool the rules refuse is left as given (the handler says why)."""
    line = f"{req.command} {req.rest}".strip()
    if req.args or set(req.opts) != {"pool"}:
        return line
    given = [n for n in req.opts["pool"].split(",") if n]
    if len({n.casefold() for n in given}) != len(given):
        return line
    if sorted(n.casefold() for n in given) == sorted(n.casefold() for n in state["consuls"]["pool"]):
        return req.command
    return f"{req.command} pool={','.join(sorted(given, key=lambda n: (n.casefold(), n)))}"


def _session_tactics(state: State, req: Request) -> Outcome:
    stream = _tactics_dice(state, req)
    rng = load_rng(state, stream)
    fields = tactics_fields(_without_seed(req), rng)
    store_rng(state, rng, stream)
    state["last"] = tactics_record(fields)
    return Outcome(fields, tactics_text(fields))


def tactics_record(fields: dict[str, Any]) -> dict[str, Any]:
    """The ``last`` record of a tactics test (W-1): kind ``tactics``, the test's fields, and the
    test given by ``kind=`` (intercept, avoid, pursuit, refuse) as ``test``. A record stored before
    this (the test's kind in ``kind``, where the device's Last roll found nothing) is read the same
    way (:func:`last_roll`)."""
    out = {k: v for k, v in fields.items() if k not in ("kind", "effect")}     # facts: the effect is made when shown
    if "kind" in fields:
        out["test"] = fields["kind"]
    return {"kind": "tactics", **out}


def last_roll(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """``state["last"]`` as the view shows it: a tactics test stored under its test's kind by an
    older version (``{"kind": "intercept", …}``) is shown as the ``tactics`` record it is. The state
    itself is left as stored, so a stored session replays to the same state."""
    if last is not None and last.get("kind") in TACTICS_KINDS:
        last = tactics_record(last)
    if last is not None and last.get("kind") == "tactics":
        # the test's effect made from its facts (W-1), in the player's language and today's words:
        # a record stored with its English sentence («-1» with a hyphen) reads as one made now
        said = tactics_effect(last.get("test"), bool(last.get("success")))
        last = {k: v for k, v in last.items() if k != "effect"}
        if said is not None:
            last["effect"] = said
    return last


def _session_battle(state: State, req: Request) -> Outcome:
    draws = load_draws(state)                   # one generator when both sides roll from one stream
    att, dfn = _dice(state, "battle-attacker"), _dice(state, "battle-defender")
    fields = battle_fields(_without_seed(req), draws.stream(att), draws.stream(dfn))
    store_draws(state, draws)
    state["last"] = {"kind": "battle", **fields}
    state[LAST_BATTLE] = {"kind": "battle", **copy.deepcopy(fields)}
    return Outcome(fields, battle_text(fields))


def _last_battle(state: State) -> dict[str, Any] | None:
    """The session's most recent battle: kept under ``last_battle`` (a naval retreat's roll may
    follow it); a state stored before that key was kept has it in ``last`` when it was the last roll."""
    kept = state.get(LAST_BATTLE)
    if kept is None and isinstance(state.get("last"), dict) and state["last"].get("kind") == "battle":
        kept = state["last"]
    return cast("dict[str, Any] | None", kept)


def _battle_place(state: State) -> str:
    """Where a battle asked on ``state`` is fought (engine/sword/undone.py): after the session's
    most recent battle, with the battle dice where they stand."""
    return U.battle_key(state, _last_battle(state), (_dice(state, "battle-attacker"), _dice(state, "battle-defender")))


BATTLE_HELD, UNDONE_HELD = U.held(_battle_place)


def _tactics_place(state: State) -> str:
    """Where a tactics test asked on ``state`` is rolled (engine/sword/undone.py): after the last
    roll kept, with the tactics die where it stands (a game stored with ``rolls=apart``: the stream
    of a bare test)."""
    return U.roll_key(state, state.get("last"), _dice(state, "tactics"), "tactics")


def _naval_place(state: State) -> str:
    """Where a naval move asked on ``state`` is rolled: after the last roll kept, with the naval die
    where it stands."""
    return U.roll_key(state, state.get("last"), _dice(state, "naval"), "naval")


def _tactics_values(req: Request) -> dict[str, Any]:
    return U.tactics_values(req, tuple(TACTICS_KINDS))


def _check_place(state: State) -> str:
    """Where a 2d6 check asked on ``state`` is rolled: after the last roll kept, with the dice of
    every table where they stand (each table rolls from its own stream)."""
    kinds = sorted(tables()["two_d6"]["tables"])
    return U.roll_key(state, state.get("last"), [_dice(state, f"check-{k}") for k in kinds], "check")


def _check_values(req: Request) -> dict[str, Any]:
    return U.check_values(req, tuple(tables()["two_d6"]["tables"]))


TACTICS_HELD, UNDONE_TACTICS_HELD = U.roll_held(_tactics_place, _tactics_values, U.tactics_line, U.TACTICS_USAGE)
NAVAL_HELD, UNDONE_NAVAL_HELD = U.roll_held(_naval_place, U.naval_values, U.naval_line, U.NAVAL_USAGE)
CHECK_HELD, UNDONE_CHECK_HELD = U.roll_held(_check_place, _check_values, U.check_line, U.CHECK_USAGE)


def _retreat(state: State, req: Request) -> Outcome:
    """``retreat losses=N``: the units the loser of the session's most recent battle lost while
    retreating, known once it has retreated; the winner's support gain is computed again (W-5).
    Given again, the new number replaces the old one."""
    req.check_opts(frozenset({"losses"}))
    if req.args or "losses" not in req.opts:
        raise BadArguments(Msg("Usage: retreat losses=N  (units the loser of the last battle lost retreating, W-5)."))
    losses = req.opt_int("losses", lo=0, hi=MAX_UNITS)
    assert losses is not None
    _playing(state)
    battle = _last_battle(state)
    if battle is None:
        raise IllegalMove(Msg("No battle to record retreat losses for: fight one first (battle att=… def=…)."))
    room = B.retreat_room(battle)
    if losses > room:
        if room == 0:
            raise IllegalMove(Msg("The loser lost all its units in the battle: none are left to lose retreating."))
        raise IllegalMove(Msg("The loser has {n} unit left after the battle: retreat losses are 0 to {n}, not {asked}.",
                              n=room, asked=losses,
                              plural="The loser has {n} units left after the battle: retreat losses are 0 to {n}, "
                                     "not {asked}."))
    fields = B.with_retreat({k: v for k, v in battle.items() if k != "kind"}, losses)
    state[LAST_BATTLE] = {"kind": "battle", **copy.deepcopy(fields)}
    last = state.get("last")
    if isinstance(last, dict) and last.get("kind") == "battle":     # the same battle: any battle sets both
        state["last"] = {"kind": "battle", **fields}
    return Outcome(fields, retreat_text(fields, battle))


def retreat_text(f: dict[str, Any], before: dict[str, Any]) -> Msg:
    """The log's sentence for a battle's retreat losses: what the loser lost in all, the support.
    It carries (not said) the retreat losses and the support ``before`` it (``was``, ``support_was``),
    so that its undo says how to set the map back (engine/sword/table.py)."""
    lost = f[f["loser"]]["losses"] + f["retreat_losses"]
    was, support_was = int(before.get("retreat_losses") or 0), int(before.get("support") or 0)
    return Msg(T.RETREATS[0] if f["loser"] == B.ATTACKER else T.RETREATS[1], f["retreat_losses"], lost, f["support"],
               was=was, support_was=support_was)


def _session_odds(state: State, req: Request) -> Outcome:
    _sacred_band_in_play(state, req)
    return Outcome(odds_fields(_without_seed(req)))


def _sacred_band_in_play(state: State, req: Request) -> None:
    """``sacred-band=`` is Carthage's Sacred Band (4d6 with the event, W-2): refused where
    Carthage is not in the game (the device's battle form has no such row there)."""
    if "sacred-band" in req.opts and "carthage" not in state["factions"]:
        raise IllegalMove(Msg("sacred-band= is Carthage's Sacred Band (4 dice, W-2); Carthage is not in this game."))


def _battle_admitted(state: State, req: Request) -> None:
    """The rules a ``battle`` asked now keeps (``Command.admit``; ``state`` before it): none once
    the game is over (:func:`_not_over`), and the Sacred Band only where Carthage plays
    (:func:`_sacred_band_in_play`). A battle an older Legatus stored with it replays as it was."""
    _not_over(state, req)
    _sacred_band_in_play(state, req)


def _without_seed(req: Request) -> Request:
    if "seed" in req.opts:
        raise BadArguments(Msg("In a session the dice come from the session's generator; seed= is for 'new'."))
    return req


def _advance(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if req.args:
        raise BadArguments(Msg("Usage: advance  (to the next round; after round 5, the next turn)."))
    _playing(state)
    rounds, turns = int(tables()["rounds_per_turn"]), int(tables()["turns"])
    fields: dict[str, Any] = {}
    if state["round"] == rounds:
        fields["desperate_order_before"] = _end_order(state)
        if state["turn"] == turns:
            state["finished"] = True
            order = V.standings(_effective(state))
            fields.update({"finished": True, "winner": order[0], "standings": order})
            return Outcome(fields, Msg(T.FINISHED, turns,
                                       term(order[0].capitalize())))
        state["turn"] += 1
        state["round"] = 1
    else:
        state["round"] += 1
    fields.update({"turn": state["turn"], "round": state["round"], "finished": False})
    return Outcome(fields, Msg(T.ADVANCED, state["turn"], state["round"]))


GAME = GameRules(
    name="sword",
    title=N_("The Sword of Rome"),
    new=_new,
    view=_view,
    usage="new sword players=romans,gauls,etruscans,greeks[,carthage] [vp=power:N,...] [consuls=A,B,...] [seed=N]",
    language_options=stored_options,
    undone=T.undone,
    undo_asked=T.undo_asked,
    admit_new=_new_admitted,
    global_commands={"sword-tactics": TACTICS, "sword-battle": BATTLE, "sword-odds": ODDS},
    commands=commands(
        Command("vp", _vp, True, "vp <power> <+N|-N|=N>", admit=_vp_admitted),
        Command("scoring", _scoring, True, "scoring <power> outside=N missing=M [auto=T]",
                admit=_scoring_admitted),
        Command("standings", _standings, False, "standings"),
        Command("desperate", _desperate, True, "desperate <power>[,<power>...] [end=0|1]", admit=_desperate_admitted),
        Command("desperate-order", _desperate_order, False, "desperate-order"),
        Command("unrest", _unrest, True, "unrest <+N|-N|=N>", admit=_unrest_admitted),
        Command("naval", _naval, True, "naval [mod=N] [die=D] [extra-ops=N] [friendly-port=1]",
                admit=_not_over, drawn=_drawn_from(lambda state, req: _dice(state, "naval"), "die"), held=NAVAL_HELD),
        Command("check", _check, True, "check <siege|subjugation|attrition|gallic> [mod=N] [dice=a,b] [gauls=1]",
                 drawn=_drawn_from(_check_dice, "dice"), admit=_check_admitted, held=CHECK_HELD),
        Command(U.UNDONE_CHECK, U.undone_roll("check", _check_values), False, "undone-check", held=UNDONE_CHECK_HELD),
        Command("consuls", _consuls, True, "consuls [pool=Name,...]", admit=_consuls_admitted,
                canonical=_consuls_line),
        Command("tactics", _session_tactics, True, "tactics <rating> [mod=N] [die=D] [kind=...]",
                admit=_not_over, drawn=_drawn_from(_tactics_dice, "die"), held=TACTICS_HELD),
        Command(U.UNDONE_TACTICS, U.undone_roll("test", _tactics_values), False, "undone-tactics",
                held=UNDONE_TACTICS_HELD),
        Command(U.UNDONE_NAVAL, U.undone_roll("move", U.naval_values), False, "undone-naval", held=UNDONE_NAVAL_HELD),
        Command("battle", _session_battle, True, "battle att=<units> def=<units> mod=<net> [...]",
                admit=_battle_admitted, drawn=_battle_drawn, held=BATTLE_HELD),
        Command(U.UNDONE, U.undone_battle, False, "undone-battle", held=UNDONE_HELD),
        Command("retreat", _retreat, True, "retreat losses=N", admit=_not_won),
        Command("odds", _session_odds, False, "odds mod=<net> [sacred-band=att|def]"),
        Command("advance", _advance, True, "advance", admit=_not_won),
        Command("victory", _victory, True, "victory <power>", admit=_not_won),
    ),
)
