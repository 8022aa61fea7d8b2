"""The ``jc-battle`` session: Julius Caesar battles with exact odds, and the year's bookkeeping.

Documented in docs/protocol/jc.md. ``new jc-battle [attacker=caesar|pompey] [surprise=1]
[dice=digital|physical] [cleopatra=round|turn] [year=1..5] [pool=setup] [remove=restore]
[ties=partial] [leaders=last] [seed=N]``.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from engine.errors import BadArguments, GameOver, IllegalMove, LegatusError
from engine.game import (Command, Drawn, GameRules, Outcome, Request, State, commands, load_draws, load_rng,
                         store_draws, store_rng, stream_drawn, whole_number)
from engine.jc import battle as B
from engine.jc import campaign as C
from engine.jc import cards as K
from engine.jc import mapdata, policy, score
from engine.jc import terms as T
from engine.jc.advise import advise as _advise_battle
from engine.jc.latin import hint as latin_hint
from engine.jc.advise import summary as _advice_summary
from engine.jc.odds import odds as exact_odds
from engine.jc.roster import SIDES, BlockSpec, block, rated_block, roman, roster
from engine.jc.views import BattleView, BlockView, Decision, JcGameView, JcRules, LastRoll, SettledHits, WinterView
from engine.rng import Draws, Rng
from engine.text import Msg as AnyMsg, from_data, to_data
from engine.jc.text import N_, Msg

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,23}$")
BATTLE_OPTS = frozenset({"attacker", "surprise", "dice"})
LOG_TURNS = 40
HISTORY_KEPT = 40      # the newest battles the state keeps (a campaign fights far fewer; issue 20 §3)
DICE_STREAM = "battle-dice"      # the battle dice (J-6), docs/fairness.md
# A game started with ``rolls=apart`` (every game started now: :func:`language_options`) rolls each
# block's fire from a stream of its own, ``battle-dice-<block>`` (:func:`_fire_stream`): dice shown
# for a block's fire and undone stay with that block's fire, whatever is fired in between (two C
# blocks of a side act in the order their owner chooses: a fire undone, the other block fired
# first, took them, and the first fired again with fresh dice, a re-roll by undo). A game stored
# without it (an older Legatus) rolls every fire from ``battle-dice``: it replays exactly.
ROLLS_APART = "apart"
# A game started with ``pool=setup`` (every game started now: :func:`language_options`) has the
# blocks the historical set-up leaves off the map in the levy pool from the start (J-20; RU summary
# «Свободные для найма блоки»): a levy point places one at I (the elephant II), and no card reaches
# it off the map. A game stored without it (an older Legatus) starts with an empty pool, as it did,
# so that its stored lines replay exactly (a 'gain p_elephant' there took it II -> IV).
POOL_SETUP = "setup"
# A game started with ``remove=restore`` (every game started now: :func:`language_options`) gives a
# block taken out of the battle being set up (``remove``) back the strength it had before it was
# added: an ``add ... strength=N`` then ``remove`` left N as its carried strength, which ``roster``
# showed (a levy pool block above the I a levy brings it in at, J-20) and the next ``add`` used. A
# game stored without it (an older Legatus) keeps N, as it did, so that its stored lines replay.
REMOVE_RESTORES = "restore"
# A game started with ``ties=partial`` (every game started now: :func:`language_options`) asks who takes
# a hit among equally strong blocks (J-7) only at a partial level: hits that reach every tied block (two
# at III, two hits; III, III, II and three hits: both III first) are placed by themselves and said
# (engine/jc/battle.py ``_place_full_levels``). A game stored without it (an older Legatus) asks every
# tie, as it did: its stored lines answer each question it asked.
TIES = B.TIES_PARTIAL
# A game started with ``leaders=last`` (every game started now: :func:`language_options`) has the device,
# where it places a hit among equally strong blocks on the owner's behalf (``fight``, ``auto``, ``hit``
# without a block), put a leader last (engine/jc/battle.py ``LEADERS_LAST``). A game stored without it
# (an older Legatus) keeps J-14's order there, as it was played. The odds follow the game's order (J-15).
LEADERS = B.LEADERS_LAST
CARDS_STREAM = "cards"           # the yearly shuffle and deal of the 27 cards (J-18)


# -- set-up ----------------------------------------------------------------------------------
def cleopatra_rule(state: State) -> str:
    """The game's J-2 rule for Cleopatra's turn after she changes side (``round``/``turn``, see
    :data:`engine.jc.battle.CLEOPATRA_RULES`); a game stored before the choice existed: ``turn``."""
    rules = state.get("rules")
    return str(rules.get("cleopatra", B.LEGACY_CLEOPATRA)) if isinstance(rules, dict) else B.LEGACY_CLEOPATRA


def leaders_rule(state: State) -> str | None:
    """The game's ``leaders=`` rule (:data:`LEADERS`), None in a game stored before it (J-14's order)."""
    rules = state.get("rules")
    leaders = rules.get("leaders") if isinstance(rules, dict) else None
    return str(leaders) if leaders is not None else None


def language_options(lang: str) -> dict[str, str]:
    """The ``new`` options a game takes from the language being spoken when its line gives none
    (PROTOCOL, third round: the edition of the language): J-2 as the Russian and Ukrainian players
    read it, Cleopatra fighting for her new side in the next round (the Russian summary's wording);
    in English, her next battle turn (rules 7.52), as before. The firmware writes them into the
    stored line, so a later change of language never changes a game's rules. In every language, a
    game started now rolls each block's fire apart (``rolls=apart``: :data:`ROLLS_APART`), starts
    with the set-up's off-map blocks in the levy pool (``pool=setup``: :data:`POOL_SETUP`), gives a
    block removed from a set-up its strength back (``remove=restore``: :data:`REMOVE_RESTORES`),
    asks a tie of hits only at a partial level (``ties=partial``: :data:`TIES`) and, placing one on
    the owner's behalf, puts a leader last (``leaders=last``: :data:`LEADERS`)."""
    return {"cleopatra": B.cleopatra_for_language(lang), "rolls": ROLLS_APART, "pool": POOL_SETUP,
            "remove": REMOVE_RESTORES, "ties": TIES, "leaders": LEADERS}


def _fire_stream(state: State, key: str) -> str:
    """The stream of block ``key``'s fire (:data:`ROLLS_APART`)."""
    return f"{DICE_STREAM}-{key}" if state.get("dice") == ROLLS_APART else DICE_STREAM


def _battle_options(req: Request, allowed: frozenset[str], cleopatra: str, ties: str | None,
                    leaders: str | None) -> B.Battle:
    req.check_opts(allowed)
    attacker = req.opts.get("attacker", "caesar").lower()
    dice = req.opts.get("dice", "digital").lower()
    return B.new_battle(attacker, req.opt_flag("surprise"), dice, cleopatra, ties, leaders)


def ties_rule(state: State) -> str | None:
    """The game's J-7 tie rule (:data:`TIES`), None in a game stored before it (every tie asked)."""
    ties = state.get("ties")
    return str(ties) if ties is not None else None


def _new(req: Request, seed: Draws | int) -> State:
    if req.args:
        raise BadArguments(Msg("Usage: new jc-battle [attacker=caesar|pompey] [surprise=1] [dice=digital|physical] "
                               "[cleopatra=round|turn] [year=1..5] [pool=setup] [remove=restore] [ties=partial] "
                               "[leaders=last] [seed=N]."))
    cleopatra = req.opts.get("cleopatra", B.LEGACY_CLEOPATRA).lower()     # a line stored before: turn
    ties = req.opts.get("ties")                                           # a line stored before: none
    leaders = req.opts.get("leaders")                                     # a line stored before: none
    battle = _battle_options(req, BATTLE_OPTS | {"seed", "year", "cleopatra", "rolls", "pool", "remove", "ties",
                                                 "leaders"}, cleopatra, ties, leaders)
    rolls = req.opts.get("rolls")
    if rolls is not None and rolls != ROLLS_APART:
        raise BadArguments(Msg("rolls= takes only '{}' (each block's fire from dice of its own); not '{}'.",
                               ROLLS_APART, rolls))
    start_pool = req.opts.get("pool")
    if start_pool is not None and start_pool != POOL_SETUP:
        raise BadArguments(Msg("pool= takes only '{}' (the blocks the set-up leaves off the map start in "
                               "the levy pool); not '{}'.", POOL_SETUP, start_pool))
    restore = req.opts.get("remove")
    if restore is not None and restore != REMOVE_RESTORES:
        raise BadArguments(Msg("remove= takes only '{}' (a block taken out of a set-up gets back the strength "
                               "it had before it was added); not '{}'.", REMOVE_RESTORES, restore))
    camp = C.new_campaign(req.opt_int("year", 1, 1, score.LAST_YEAR) or 1, start_pool is not None)
    if restore is not None:
        camp["remove_restores"] = True
    state: State = {"rng": [], "battle": battle, "number": 1, "history": [], "campaign": camp,
                    "cards": None, "rules": {"cleopatra": cleopatra}}
    if leaders is not None:
        state["rules"]["leaders"] = leaders
    if ties is not None:
        state["ties"] = ties
    if rolls is not None:
        state["dice"] = ROLLS_APART           # (not "rolls": the session's own rolls, engine/common.py)
    state["rng"] = Draws.coerce(seed).to_json()
    return state


def _battle(state: State, need: str = "any") -> B.Battle:
    """The current battle; GameOver once it is over (until next-battle)."""
    battle: B.Battle = state["battle"]
    over = C.over_view(state["campaign"])
    if over and battle["phase"] == "over":      # no next battle to start: the campaign is over (J-17, J-19)
        raise GameOver(Msg("The game is over: {}", over["reason"]))
    if battle["phase"] == "over":
        raise GameOver(Msg("Battle {} is over ({}). Start another with next-battle [attacker=caesar|pompey] [surprise=1].",
                           state['number'], T.result(battle['result'])))
    if need == "setup" and battle["phase"] != "setup":
        raise IllegalMove(Msg("The battle has started: blocks can no longer be added or removed."))
    return battle


def _after(state: State) -> None:
    """Keep the campaign in step with the battle and archive a finished battle."""
    battle = state["battle"]
    C.sync(state["campaign"], battle, state["number"])
    if battle["phase"] == "over" and not any(h["number"] == state["number"] for h in state["history"]):
        state["history"].append({"number": state["number"], "attacker": battle["attacker"],
                                 "surprise": battle["surprise"], "result": battle["result"],
                                 "winner": battle["winner"], "rounds": battle["round"],
                                 "blocks": [b["id"] for b in battle["blocks"] if b["id"]],
                                 "survivors": {b["id"]: b["side"] for b in battle["blocks"]
                                               if b["id"] and b["status"] not in ("eliminated", "killed")}})
        del state["history"][:-HISTORY_KEPT]     # History (firmware/history.py) keeps them all


def _role(word: str) -> str:
    w = word.lower()
    if w not in ("attacker", "defender"):
        latin_hint(word, lambda fixed: fixed.lower() in ("attacker", "defender"))
        raise BadArguments(Msg("'{}' is not a side of the battle: write attacker or defender.", word))
    return w


# one sentence per side: ru/uk decline the side's name (engine/jc/terms.py)
_HELD_BY = {"caesar": N_("{} is now held by Caesar."), "pompey": N_("{} is now held by Pompey.")}
_JOINS = {("attacker", False): N_("{} ({}, {}) joins the attacker ({})."),
          ("attacker", True): N_("{} ({}, {}) joins the attacker ({}) as a reserve."),
          ("defender", False): N_("{} ({}, {}) joins the defender ({})."),
          ("defender", True): N_("{} ({}, {}) joins the defender ({}) as a reserve.")}


def _add(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: add attacker|defender <block-id> [strength=N] [reserve=1], or add "
                "attacker|defender rating=C3 strength=3 [leader=1] [elephant=1] [ballista=1] "
                "[navis=1] [name=X] [reserve=1].")
    if not req.args or len(req.args) > 2:
        raise BadArguments(usage)
    role = _role(req.args[0])
    battle = _battle(state, "setup")
    camp = state["campaign"]
    side = battle[role]
    reserve = req.opt_flag("reserve")
    notes: list[str] = []
    if len(req.args) == 2:
        req.check_opts(frozenset({"strength", "reserve", "navis-reserve"}))
        spec = block(req.args[1])
        if B.find(battle, spec.id or "") is not None:
            raise IllegalMove(Msg("{} ({}) is already in this battle.", T.block_name(spec.name), spec.id))
        C.check_available(camp, spec, side, role)
        strength = req.opt_int("strength", C.default_strength(camp, spec), 1, 4)
        assert strength is not None and spec.id is not None
        key = spec.id
        notes = C.notes_for(camp, spec)
    else:
        req.check_opts(frozenset({"rating", "strength", "leader", "elephant", "ballista", "navis",
                                  "name", "reserve", "navis-reserve"}))
        if "strength" not in req.opts:
            raise BadArguments(Msg("A block given by its rating needs strength=, e.g. rating=C3 strength=3."))
        strength = req.opt_int("strength", None, 1, 4)
        assert strength is not None
        key = req.opts.get("name") or _auto_key(battle)
        if not _NAME.match(key):
            raise BadArguments(Msg("name={} must start with a Latin letter (a-z) and use Latin letters, digits, - or _ "
                                   "(up to 24 characters).", key))
        if key.lower() in roster():         # name=Cleopatra, C_LEG10: read as the roster block in every sentence
            raise BadArguments(Msg("name={} is a roster block id; pick another name.", key))
        if B.find(battle, key) is not None:
            raise IllegalMove(Msg("{} is already in this battle.", key))
        spec = rated_block(req.opts.get("rating"), strength, side, name=key,
                           leader=req.opt_flag("leader"), elephant=req.opt_flag("elephant"),
                           ballista=req.opt_flag("ballista"), navis=req.opt_flag("navis"))
    to_reserve = req.opt_flag("navis-reserve")
    b = B.add_block(battle, spec, side, strength, reserve, key)
    if camp.get("remove_restores") and spec.id is not None:     # what 'remove' gives back (REMOVE_RESTORES)
        b["carried"] = camp["strength"].get(spec.id)
    moved = _navis_to_reserve(battle, side) if to_reserve and role == "attacker" else []
    _after(state)
    text = Msg(_JOINS[(role, reserve)], T.said_block_name(b), spec.rating, roman(strength), T.side(side))
    fields: dict[str, Any] = {"block": _block_view(battle, b)}
    if moved:
        fields["to_reserve"] = [x["key"] for x in moved]
        names = Msg.join([T.said_block_name(x) for x in moved])
        text = Msg("{} {}", text, Msg(
            "{names} moves to the reserve: attacking navis beside land blocks are always reserves (rules 7.3).",
            names=names, n=len(moved),
            plural="{names} move to the reserve: attacking navis beside land blocks are always reserves (rules 7.3)."))
    if notes:
        fields["notes"] = notes
    return Outcome(fields, text)


def _navis_to_reserve(battle: B.Battle, side: str) -> list[B.Block]:
    """``add ... navis-reserve=1`` (J-8; the RU summary 2.2.2): once land blocks attack, the
    attacking navis of the main force become reserves in the same action (the device's one step:
    one undo takes it back whole). Returns the navis moved."""
    attack = [x for x in battle["blocks"] if x["side"] == side]
    if not any(x["kind"] != "navis" for x in attack):
        return []
    moved = [x for x in attack if x["kind"] == "navis" and not x["reserve"]]
    for x in moved:
        x["reserve"], x["status"] = True, "reserve"
    return moved


def _auto_key(battle: B.Battle) -> str:
    n = 1
    while B.find(battle, f"blk{n}") is not None:
        n += 1
    return f"blk{n}"


def _remove(state: State, req: Request) -> Outcome:
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: remove <block>."))
    req.check_opts(frozenset())
    battle = _battle(state, "setup")
    b = B.remove_block(battle, req.args[0])
    if "carried" in b:                  # (REMOVE_RESTORES) the strength it had before it was added
        carried = state["campaign"]["strength"]
        if b["carried"] is None:
            carried.pop(b["id"], None)
        else:
            carried[b["id"]] = b["carried"]
    return Outcome({"removed": b["key"]}, Msg("{} leaves the battle.", T.said_block_name(b)))   # (a defector: its owner, J-2)


# -- the battle ------------------------------------------------------------------------------
def _start(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: start."))
    req.check_opts(frozenset())
    battle = _battle(state)
    B.start(battle)
    _after(state)
    return Outcome({"decision": B.decision(battle)}, Msg("Battle {} begins.", state["number"]))


def _one_key(req: Request, usage: Msg) -> str | None:
    if len(req.args) > 1:
        raise BadArguments(usage)
    return req.args[0] if req.args else None


def _turn_outcome(state: State, rec: dict[str, Any], since: int) -> Outcome:
    """A battle step's answer: its turn (``rec``) as a sentence, then Cleopatra going over to the
    other side if the step took her last step (J-2, the battle's event: the turn says only that she
    was eliminated), so that the game's log says it, once; ``since``: the battle's events before it."""
    battle = state["battle"]
    _after(state)
    fields = {"turn": rec, "decision": cast("Decision | None", B.decision(battle)), "result": battle["result"]}
    if not rec:
        return Outcome(fields, "The battle goes on.")
    said: AnyMsg = B.describe_turn(rec, battle["blocks"])
    for event in battle["events"][since:]:
        if event["event"] == "cleopatra":
            said = Msg("{} {}", said, B.event_sentence(event))
    return Outcome(fields, said)


def parse_dice(text: str, count: int | None = None, asked: bool = False) -> list[int]:
    """``dice=3,5,1`` → ``[3, 5, 1]``: the faces of a roll thrown on the table, as typed. Raises
    BadArguments unless they are die faces (and ``count`` of them, when it is known); ``asked``: a
    request asked now, each face one plain digit (engine.game.whole_number: no ``+3``, ``03``, no
    empty place ``3,,5``; a stored line replays as it ran)."""
    try:
        faces = [whole_number(x, asked) for x in text.split(",") if asked or x.strip()]
    except ValueError:
        raise BadArguments(Msg("dice={} must be die faces 1-6 separated by commas, e.g. dice=3,5,1.",
                                 text)) from None
    return faces if count is None else B.check_faces(faces, count, text)


def _fire(state: State, req: Request) -> Outcome:
    key = _one_key(req, Msg("Usage: fire [<block>] [dice=a,b,...]."))
    req.check_opts(frozenset({"dice"}))
    battle = _battle(state)
    dice = req.opts.get("dice")
    if dice is None and battle["dice"] == "physical" and battle["phase"] == "fighting":
        # out of order or not allowed is said first; then how many dice this block rolls (J-1)
        raise BadArguments(B.dice_wanted(B.actor(battle, key, "fire")))
    faces = None
    if dice is not None:                        # out of order or not allowed is said before bad dice
        faces = parse_dice(dice, int(B.actor(battle, key, "fire")["strength"]), req.asked)
    stream = _fire_stream(state, B.actor(battle, key, "fire")["key"])     # (refused as B.fire would)
    rng = load_rng(state, stream)
    since = len(battle["events"])
    rec = B.fire(battle, key, faces, rng)
    store_rng(state, rng, stream)
    return _turn_outcome(state, rec, since)


def _retreat(state: State, req: Request) -> Outcome:
    key = _one_key(req, Msg("Usage: retreat [<block>] [blocked=1]."))
    req.check_opts(frozenset({"blocked"}))
    battle = _battle(state)
    since = len(battle["events"])
    return _turn_outcome(state, B.retreat(battle, key, req.opt_flag("blocked")), since)


def _pass(state: State, req: Request) -> Outcome:
    key = _one_key(req, Msg("Usage: pass [<block>]."))
    req.check_opts(frozenset())
    battle = _battle(state)
    since = len(battle["events"])
    return _turn_outcome(state, B.pass_turn(battle, key), since)


# The owner's pick of a tied hit (J-7), said before the fire it belongs to (one sentence per side: ru/uk
# decline the side's name); an undo of it says that pick was taken back, not the fire (:func:`_undone`).
HIT_CHOSEN = {"caesar": N_("Caesar puts the hit on {}. {}"), "pompey": N_("Pompey puts the hit on {}. {}")}
HIT_UNDONE = {"caesar": N_("Undone: Caesar put the hit on {}. Caesar chooses again which block takes the hit."),
              "pompey": N_("Undone: Pompey put the hit on {}. Pompey chooses again which block takes the hit.")}


# The undo question of a pick (under "Undo?"): the pick and its block, and that the fire's dice stay
# (its sentence, the pick's and then its fire's, ran to four or five pages of the question).
HIT_ASKED = {"caesar": N_("Caesar put the hit on {}; the dice stay."),
             "pompey": N_("Pompey put the hit on {}; the dice stay.")}


def _hit(state: State, req: Request) -> Outcome:
    key = _one_key(req, Msg("Usage: hit [<block>]  (without a block: the device's choice, J-14 or, with leaders=last, a leader last)."))
    req.check_opts(frozenset())
    battle = _battle(state)
    pending = battle["pending"]
    placed = len(battle["turns"][pending["turn"]]["applied"]) if battle["phase"] == "fighting" and pending else 0
    since = len(battle["events"])
    rec = B.assign_hit(battle, key, B.device_choice)       # (no block: the device's choice, leaders=last)
    outcome = _turn_outcome(state, rec, since)
    chosen = rec["applied"][placed]                  # the owner's pick: the first hit placed now
    return Outcome(outcome.fields, Msg(HIT_CHOSEN[pending["side"]],
                                       B.named(battle["blocks"], chosen["block"], chosen["name"], True), outcome.log))


def _picked(sentence: Any) -> tuple[str, Any] | None:
    """(side, block) of a tied hit's pick (J-7) from its sentence; None for every other step."""
    if not isinstance(sentence, AnyMsg) or len(sentence.args) != 2:
        return None
    side = next((s for s, t in HIT_CHOSEN.items() if t == sentence.template), None)
    return None if side is None else (side, sentence.args[0])


# The undo of the play that revealed a turn's cards (J-18): that card alone goes back to its player's
# hand; the other player's stays played face down, and the cards are revealed when the one who played
# last plays again (a sentence per side, ru/uk decline the names). A reveal stored by an older Legatus
# did not keep who played last: its undo says the card played last, unnamed.
PLAY_UNDONE = {"caesar": N_("Undone: Caesar played {} (turn {}). The card goes back to his hand; Pompey's "
                            "card stays played face down until Caesar plays again."),
               "pompey": N_("Undone: Pompey played {} (turn {}). The card goes back to his hand; Caesar's "
                            "card stays played face down until Pompey plays again.")}
PLAY_ASKED = {"caesar": N_("Caesar played {}: the card goes back to his hand, Pompey's stays face down."),
              "pompey": N_("Pompey played {}: the card goes back to his hand, Caesar's stays face down.")}
REVEAL_UNDONE = N_("Undone: the reveal of turn {}. The card played last goes back to its player's hand; the "
                   "other stays played face down.")
REVEAL_ASKED = N_("The reveal of turn {}: the card played last goes back to its player's hand, the other stays "
                  "face down.")


def _undo_asked(sentence: Any) -> Msg | None:
    """The undo question of a tied hit's pick (J-7): the pick and its block, and that the dice
    stay (undo takes back the pick and what followed it, not the fire); of the play that revealed
    a turn's cards (J-18): that play alone; None for every other step."""
    return _undo_words(sentence, HIT_ASKED, REVEAL_ASKED, PLAY_ASKED, numbered=False)  # (the turn being played)


def _undone(sentence: Any) -> Msg | None:
    """An undo of a tied hit's pick (J-7) says that the pick was taken back, and on which block, and
    that its owner chooses again (the fire stands: its dice and the hits placed before it); an undo
    of the play that revealed a turn's cards (J-18) names that play, whose card alone goes back
    (the other stays played face down); None for every other step (``Undone: <sentence>``). A pick
    stored by an older Legatus said the fire only: its undo still says ``Undone:`` and that fire."""
    return _undo_words(sentence, HIT_UNDONE, REVEAL_UNDONE, PLAY_UNDONE, numbered=True)


def _undo_words(sentence: Any, hit: Mapping[str, str], reveal_before: str, played: Mapping[str, str],
                numbered: bool) -> Msg | None:
    """:func:`_undo_asked`'s or :func:`_undone`'s sentence from its messages: ``hit`` by the
    picker's side, ``reveal_before`` for a reveal stored without who played last (an older
    Legatus), ``played`` by the side that played last (with the turn's number if ``numbered``)."""
    picked = _picked(sentence)
    if picked is not None:
        return Msg(hit[picked[0]], picked[1])
    reveal = K.revealed(sentence)
    if reveal is None:
        return None
    turn, caesar, pompey, last = reveal
    if last is None:
        return Msg(reveal_before, turn)
    card = caesar if last == "caesar" else pompey
    return Msg(played[last], card, turn) if numbered else Msg(played[last], card)


def _auto(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: auto [dice=a,b,...]."))
    req.check_opts(frozenset({"dice"}))
    battle = _battle(state)
    since = len(battle["events"])
    if battle["phase"] == "setup":       # J-4: the first decision is round 1's (a refusal below undoes it)
        B.start(battle)
    d = B.decision(battle)
    fires = d is not None and d["kind"] == "turn" and "fire" in d["actions"]     # J-14: it fires if it may
    text = req.opts.get("dice")
    if battle["dice"] == "physical" and text is None and fires:
        raise BadArguments(Msg("This battle uses physical dice: roll for the block and enter them, e.g. auto dice=3,5,1."))
    if text is not None and d is not None and not fires:
        raise BadArguments(Msg("No block fires now (a hit is placed or a block retreats): auto takes no dice=."))
    faces = parse_dice(text, asked=req.asked) if text is not None else None
    stream = _fire_stream(state, policy.next_block(battle, d)["key"]) if fires and d is not None else _no_fire(state)
    rng = load_rng(state, stream) if stream is not None else Rng(0)      # (nothing drawn: a hit, a retreat)
    rec = policy.auto_step(battle, rng, faces)
    if stream is not None:
        store_rng(state, rng, stream)
    return _turn_outcome(state, rec, since)


def _dice_drawn(state: State, req: Request) -> Drawn | None:
    """What a ``fire``/``auto``/``fight`` draws (firmware/shown.py): the battle dice, unless
    ``dice=`` gives the table's. In a battle with physical dice the table throws every fire and
    the device's ``fight`` is a whole battle of its own: both have the shape ``physical``, so its
    fires are held only to dice the device showed in a battle with digital dice (one set up again
    with physical dice after an undo cannot replace those), never to its own undone fight."""
    stream = _drawn_stream(state, req)
    drawn = None if stream is None else stream_drawn(stream, "dice")(state, req)
    battle = state.get("battle")
    if drawn is not None and isinstance(battle, dict) and battle.get("dice") == "physical":
        physical = frozenset({"physical"})
        return Drawn(drawn.source, drawn.typed and physical, physical)
    return drawn


def _no_fire(state: State) -> str | None:
    """The stream a step that fires nothing (a hit placed, a retreat) loads: none where each block
    fires apart; ``battle-dice`` in a game stored before (its state replays as it was kept)."""
    return DICE_STREAM if _fire_stream(state, "") == DICE_STREAM else None


def _drawn_stream(state: State, req: Request) -> str | None:
    """The stream a ``fire``/``auto``/``fight`` asked on ``state`` draws from first: the firing
    block's (:func:`_fire_stream`); None where no block may fire now (the handler says why)."""
    if _fire_stream(state, "") == DICE_STREAM:
        return DICE_STREAM
    battle = state.get("battle")
    if not isinstance(battle, dict):
        return None
    try:
        if req.command == "fire":
            return _fire_stream(state, B.actor(battle, req.args[0] if len(req.args) == 1 else None, "fire")["key"])
        if battle["phase"] == "setup":
            battle = copy.deepcopy(battle)
            B.start(battle)
        d = B.decision(battle) if battle["phase"] == "fighting" else None
    except LegatusError:
        return None
    if d is None or d["kind"] != "turn":
        return None
    return _fire_stream(state, policy.next_block(battle, d)["key"])


def _fight(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: fight."))
    req.check_opts(frozenset())
    battle = _battle(state)
    draws = load_draws(state)                # each block's fire from its stream (one generator in a legacy game)
    if battle["phase"] == "setup":
        B.start(battle)
    while battle["phase"] == "fighting":     # policy.fight, block by block
        d = B.decision(battle)
        stream = (_fire_stream(state, policy.next_block(battle, d)["key"]) if d is not None and d["kind"] == "turn"
                  else _no_fire(state))
        policy.auto_step(battle, draws.stream(stream) if stream is not None else Rng(0))
    store_draws(state, draws)
    _after(state)
    return Outcome({"rounds": B.rounds_view(battle), "result": battle["result"],
                    "winner": battle["winner"]},
                   Msg("Battle {} fought to the end: {}.", state["number"], T.result(battle["result"])))


def _odds(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: odds."))
    req.check_opts(frozenset())
    battle = _battle(state)
    if battle["phase"] == "setup":
        B.check_navis_reserves(battle)          # J-8: as 'start' asked now refuses it (_navis_in_reserve)
    result = exact_odds(battle)
    where = ("before the battle" if battle["phase"] == "setup" else f"from round {battle['round']}")
    return Outcome({**result, "policy": "J-14", "from": where})


def _advise(state: State, req: Request) -> Outcome:
    """Read-only: every choice open now with its exact odds, the best by them and the one advised (jc/advise.py)."""
    if req.args:
        raise BadArguments(Msg("Usage: advise."))
    req.check_opts(frozenset())
    battle = _battle(state)
    advice = _advise_battle(battle)
    return Outcome({**advice, "policy": "J-14", "text": _advice_summary(advice, battle)})


def _next_battle(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: next-battle [attacker=caesar|pompey] [surprise=1] [dice=digital|physical]."))
    if state["battle"]["phase"] == "fighting":
        raise IllegalMove(Msg("The current battle is still being fought: finish it first (fight resolves the rest with the J-14 policy)."))
    fought = state["battle"]["phase"] == "over"     # an empty set-up is re-set: no number used up
    # (a set-up with blocks, which :func:`_no_battle_set_up` refuses now, comes only from a line an
    # older Legatus stored: it dropped the blocks and used a number up; it replays as it ran)
    dropped = state["battle"]["phase"] == "setup" and bool(state["battle"]["blocks"])
    state["battle"] = _battle_options(req, BATTLE_OPTS, cleopatra_rule(state), ties_rule(state), leaders_rule(state))
    if fought or dropped:
        state["number"] += 1
    b = state["battle"]
    return Outcome({"number": state["number"]},
                   Msg("Battle {}: {} attacks by surprise.", state["number"], T.side(b["attacker"])) if b["surprise"]
                   else Msg("Battle {}: {} attacks.", state["number"], T.side(b["attacker"])))


# -- bookkeeping -----------------------------------------------------------------------------
def _roster(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if len(req.args) > 1:
        raise BadArguments(Msg("Usage: roster [caesar|pompey]."))
    want = K.parse_side(req.args[0]) if req.args else None
    camp = state["campaign"]
    out = []
    for spec in roster().values():
        own = C.owner(camp, spec)
        if want and own != want:
            continue
        status = ("killed" if spec.id in camp["killed"] else
                  "eliminated" if spec.id in camp["eliminated"] else
                  "waiting" if C.waiting(camp, spec) else "available")
        out.append({"id": spec.id, "name": spec.name, "side": own, "kind": spec.kind,
                    "rating": spec.rating, "max": spec.max_strength,
                    "strength": C.roster_strength(camp, spec), "levy_city": C.levy_city(camp, spec),
                    "levy_rule": spec.levy_rule, "setup": spec.setup, "status": status,
                    "pool": spec.id in C.pool(camp)})
    return Outcome({"blocks": out})


def _levy(state: State, req: Request) -> Outcome:
    if len(req.args) < 2:
        raise BadArguments(Msg("Usage: levy <block-id> <city>  (J-20: change where the block is "
                               "levied; write spaces as _, e.g. levy c_leg18 Neapolis)."))
    req.check_opts(frozenset())
    spec = block(req.args[0])
    camp = state["campaign"]
    _, city = C.set_levy_city(camp, spec.id or "", " ".join(req.args[1:]))
    name = T.owned_block_name({"id": spec.id, "name": spec.name, "side": C.owner(camp, spec)})   # as its side's lists name it
    return Outcome({"block": spec.id, "levy_city": city}, Msg("{} is now levied in {}.", name, T.city(city)))


def _owner(state: State, req: Request) -> Outcome:
    if len(req.args) != 2:
        raise BadArguments(Msg("Usage: owner <block-id> caesar|pompey  (Cleopatra, Jupiter defections)."))
    req.check_opts(frozenset())
    spec = block(req.args[0])
    side = K.parse_side(req.args[1])
    if spec.kind in ("leader", "navis"):
        raise IllegalMove(Msg("{}: leaders and navis never change sides (Jupiter card).", T.block_name(spec.name)))
    battle = state["battle"]
    if battle["phase"] == "fighting" and B.find(battle, spec.id or "") is not None:
        raise IllegalMove(Msg(FIGHTING, T.block_name(spec.name)))
    state["campaign"]["owner"][spec.id] = side
    return Outcome({"block": spec.id, "side": side},        # named as its new side's lists name it (J-2)
                   Msg(T.NOW_FIGHTS[side], T.owned_block_name({"id": spec.id, "name": spec.name, "side": side})))


_LOST = {"reduced": N_("{} loses a step outside battle ({}→{})."),
         "eliminated": N_("{} is eliminated outside battle: it cannot be levied again this year (J-3)."),
         ("killed", "caesar"): N_("{} is killed outside battle: a trophy for Caesar."),
         ("killed", "pompey"): N_("{} is killed outside battle: a trophy for Pompey.")}


def _block_outside_battle(state: State, req: Request, usage: Msg, in_battle: str, fighting: str | None = None) -> BlockSpec:
    """The one block a command outside battle names; BadArguments (``usage``) for another count of
    words or an unknown block, IllegalMove if it is in the battle being set up or fought:
    ``in_battle`` (said with its name and id), or ``fighting`` (its name) once the battle has
    started, when ``remove`` no longer takes a block out."""
    if len(req.args) != 1:
        raise BadArguments(usage)
    req.check_opts(frozenset())
    spec = block(req.args[0])
    battle = state["battle"]
    if battle["phase"] != "over" and B.find(battle, spec.id or "") is not None:
        if fighting is not None and battle["phase"] == "fighting":
            raise IllegalMove(Msg(fighting, T.block_name(spec.name)))
        raise IllegalMove(Msg(in_battle, T.block_name(spec.name), spec.id))
    return spec


IN_BATTLE_TAKE_OUT = N_("{} is in the current battle: fight it, or take the block out first (remove {}).")
FIGHTING = N_("{} is fighting in the current battle.")      # (once it has started: no 'remove')


def _lose(state: State, req: Request) -> Outcome:
    """One step off a block outside battle (Vulcan, Jupiter on a leader or navis): J-2, J-3, J-17."""
    spec = _block_outside_battle(state, req, Msg("Usage: lose <block-id>  (one step off outside battle: Vulcan, "
                                                 "Jupiter on a leader or navis)."),
                                 N_("{} is in the current battle: its steps are lost there."))
    camp = state["campaign"]
    side = C.owner(camp, spec)
    name = T.owned_block_name({"id": spec.id, "name": spec.name, "side": side})   # as its side's lists name it
    lost = C.lose_step(camp, spec)
    if lost["result"] == "reduced":
        text = Msg(_LOST["reduced"], name, roman(lost["from"]), roman(lost["to"]))
    elif lost["result"] == "killed":
        text = Msg(_LOST["killed", B.other(side)], name)
    else:
        text = Msg(_LOST["eliminated"], name)
    return Outcome({**lost, "vp": _vp_view(state)}, text)


def _gain(state: State, req: Request) -> Outcome:
    """One step added by a levy point outside battle (J-20; rules 2.2)."""
    spec = _block_outside_battle(state, req, Msg("Usage: gain <block-id>  (a levy point adds one step to a block "
                                                 "below its maximum)."), IN_BATTLE_TAKE_OUT, FIGHTING)
    camp = state["campaign"]
    name = T.owned_block_name({"id": spec.id, "name": spec.name, "side": C.owner(camp, spec)})
    out = C.gain_step(camp, spec)
    if out["levied"]:                   # from the levy pool onto the map (J-20)
        return Outcome(out, Msg(LEVIED, name, roman(out["to"])))
    return Outcome(out, Msg("{} gains a step from a levy ({}→{}).", name, roman(out["from"]), roman(out["to"])))


LEVIED = N_("{} is levied from the levy pool: it comes in at {}.")


# one sentence per side: ru/uk decline the side's name (the pool the block goes back to)
_DISBANDED = {"caesar": N_("{} is disbanded to Caesar's levy pool: its steps are forfeit; levied again, it comes "
                           "in at {}."),
              "pompey": N_("{} is disbanded to Pompey's levy pool: its steps are forfeit; levied again, it comes "
                           "in at {}.")}


def _disband(state: State, req: Request) -> Outcome:
    """A block disbanded to its levy pool (J-19: rules 8.3-8.5), its steps forfeit."""
    spec = _block_outside_battle(state, req, Msg("Usage: disband <block-id>  (winter: a navis with no friendly port, "
                                                 "the supply's surplus, any block but Cleopatra; its steps are "
                                                 "forfeit)."), IN_BATTLE_TAKE_OUT, FIGHTING)
    out = C.disband(state["campaign"], spec)
    return Outcome(out, Msg(_DISBANDED[out["side"]], T.block_name(spec.name), roman(out["to"])))


def _control(state: State, req: Request) -> Outcome:
    if len(req.args) < 2:
        raise BadArguments(Msg("Usage: control <city> caesar|pompey|vacant, e.g. control Roma caesar."))
    req.check_opts(frozenset())
    who = req.args[-1].lower()
    if who not in ("caesar", "pompey", "vacant"):
        latin_hint(req.args[-1], lambda fixed: fixed.lower() in ("caesar", "pompey", "vacant"))
        raise BadArguments(Msg("'{}' is not caesar, pompey or vacant.", req.args[-1]))
    city = mapdata.city(" ".join(req.args[:-1]))
    if city.vp == 0:
        raise BadArguments(Msg("{} is worth no VP; only the 11 VP cities are tracked ({}).", T.city(city.name),
                               Msg.join([T.city(c) for c in mapdata.vp_cities()])))     # in the reader's words
    state["campaign"]["control"][city.name] = None if who == "vacant" else who
    return Outcome({"vp": _vp_view(state)}, Msg("{} is now vacant.", T.city(city.name)) if who == "vacant"
                   else Msg(_HELD_BY[who], T.city(city.name)))


_ALREADY_HELD = {"caesar": N_("{} is already held by Caesar."), "pompey": N_("{} is already held by Pompey.")}


def _control_admitted(state: State, req: Request) -> None:
    """The rule a ``control`` asked now keeps (``Command.admit``; ``state`` before it): the city
    changes hands. Given to the side that holds it (or left vacant when it is), it changed nothing,
    yet was said as done and journaled, and its undo took back nothing (J-17). A stored line that
    did so (an older Legatus) still replays as it was; a malformed request is left to the handler."""
    if len(req.args) < 2 or req.args[-1].lower() not in ("caesar", "pompey", "vacant"):
        return
    who = req.args[-1].lower()
    city = mapdata.city(" ".join(req.args[:-1]))
    if city.vp == 0 or state["campaign"]["control"].get(city.name, "?") != (None if who == "vacant" else who):
        return
    raise IllegalMove(Msg("{} is already vacant.", T.city(city.name)) if who == "vacant"
                      else Msg(_ALREADY_HELD[who], T.city(city.name)))


def _vp_view(state: State) -> dict[str, Any]:
    camp = state["campaign"]
    table = score.vp(camp["control"], camp["trophies"])
    totals = {s: table[s]["total"] for s in SIDES}
    lead = None if totals["caesar"] == totals["pompey"] else max(totals, key=lambda s: totals[s])
    return {**table, "year": camp["year"], "leading": lead,
            "ten_vp": [s for s in SIDES if totals[s] >= score.WIN_VP], "over": C.over_view(camp)}


def _vp(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: vp."))
    req.check_opts(frozenset())
    return Outcome({"vp": _vp_view(state)})


def _supply(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if req.args:
        c = mapdata.city(" ".join(req.args))
        return Outcome({"city": c.name, "supply": c.supply})
    return Outcome({"supply": score.supply_limits()})


def _winter(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: winter [quiet=1]."))
    req.check_opts(frozenset({"quiet"}))
    req.opt_flag("quiet")
    camp = state["campaign"]
    over = C.over_view(camp)
    if over:
        raise GameOver(Msg("The game is over: {}", over["reason"]))
    if state["battle"]["phase"] == "fighting":
        raise IllegalMove(Msg("Finish the current battle before the winter (fight resolves it)."))
    ending = camp["year"]
    cleopatra = camp["owner"]["cleopatra"]
    report = C.winter(camp)
    # kept (as data) for the device to say again until it is read: after a power cut the table's
    # tasks of the winter (8.3-8.5) or the verdict are not lost with the screen that said them
    # (and which ended battle it followed: that battle's regroup, J-12, is no longer the winner's to make)
    state["winter"] = {"year": ending, "checklist": to_data(report["checklist"]),
                       "battle": state["number"] if state["battle"]["phase"] == "over" else None,
                       "fought": _newest_fought(state)}
    if camp["over"] is None:
        rng = load_rng(state, CARDS_STREAM)
        state["cards"] = K.new_year(rng)
        store_rng(state, rng, CARDS_STREAM)
    report["supply"] = score.supply_limits()
    report["year"] = camp["year"]
    if camp["owner"]["cleopatra"] != cleopatra:     # J-2, J-19: her change of side is the log's too
        return Outcome(report, Msg("Winter: {} {}", report["checklist"][0]["text"], report["checklist"][1]["text"]))
    return Outcome(report, Msg("Winter: {}", report["checklist"][1]["text"]))


def _newest_fought(state: State) -> int:
    """The number of the newest battle fought in the campaign (0: none yet)."""
    return max((h["number"] for h in state["history"]), default=0)


def year_quiet(state: State) -> bool:
    """The year the last winter began has had no battle and no card played (J-19: a winter closes
    a year of five card turns and their battles): a second winter now would skip it unplayed. False
    before the first winter, once the campaign is over, and for a winter an older Legatus kept
    without the battles fought before it (not known)."""
    kept = state.get("winter")
    if not kept or state["campaign"]["over"]:
        return False
    before = kept.get("fought", kept.get("battle"))
    if before is None:
        return False
    if _newest_fought(state) > before:
        return False
    cards = state["cards"]
    return cards is None or (cards["turn"] == 1 and not any(cards["played"][s] is not None for s in SIDES))


def _year_played(state: State, req: Request) -> None:
    """The rule a ``winter`` asked now keeps (``Command.admit``; ``state`` before it): a winter typed
    twice skipped a whole year without a word (J-19). While the year the last winter began has had
    no battle and no card played (:func:`year_quiet`), a winter is refused unless ``quiet=1`` says
    the year truly passed so. A stored line an older Legatus took replays as it ran."""
    if req.args or set(req.opts) - {"quiet"}:
        return                                  # the handler says what is wrong with the line
    try:
        quiet = req.opt_flag("quiet")
    except LegatusError:
        return
    if not quiet and year_quiet(state):
        raise IllegalMove(Msg("Year {} ({} AUC, {} BC) began with the last winter and has had no battle and no "
                              "card played: another winter now would skip the whole year. Play the year first; "
                              "if it passed without a battle, type winter quiet=1 (undo takes the last winter back).",
                              *score.year_numbers(state["campaign"]["year"])))


def _deal(state: State, req: Request) -> Outcome:
    if req.args:
        raise BadArguments(Msg("Usage: deal."))
    req.check_opts(frozenset())
    rng = load_rng(state, CARDS_STREAM)
    state["cards"] = K.new_year(rng)
    store_rng(state, rng, CARDS_STREAM)
    return Outcome({"cards": K.public_view(state["cards"])},
                   Msg("Year {} ({} AUC, {} BC): shuffled the 27 cards and dealt 6 to each player.",
                       *score.year_numbers(state["campaign"]["year"])))


def _on_map(sentence: str) -> Callable[[State, Request], None]:
    """The rule a ``lose``, ``owner`` or ``disband`` asked now keeps (``Command.admit``; ``state``
    before it): its block is on the map, not in the levy pool (J-3, J-19, J-20: Vulcan strikes a
    city's blocks, Jupiter takes a block from a city, a block disbanded is in the pool already).
    A stored session that holds such a line (an older Legatus took it) still replays as it was."""
    def admit(state: State, req: Request) -> None:
        C.check_on_map(state["campaign"], block(req.args[0]), sentence)
    return admit


def _add_admitted(state: State, req: Request) -> None:
    """The rule an ``add`` asked now keeps (``Command.admit``; ``state`` before it): a block in the
    levy pool joins a battle only at the strength a levy brings it in at (I, the elephant II: J-20,
    :func:`engine.jc.campaign.check_pool_strength`), ``strength=`` given or not (a block an older
    Legatus added higher and took out again kept that strength, which ``add`` defaults to). A
    malformed request is left to the handler. An older Legatus took ``add c_leg17 strength=3``:
    such a stored line replays as it ran."""
    if len(req.args) != 2 or req.args[1] not in roster():
        return
    spec = block(req.args[1])
    try:                                # what the handler refuses first, it says (role, phase, side ...)
        role = _role(req.args[0])
        battle = _battle(state, "setup")
        C.check_available(state["campaign"], spec, battle[role], role)
        strength = int(req.opts.get("strength", C.default_strength(state["campaign"], spec)))
    except (LegatusError, ValueError):
        return
    if B.find(battle, spec.id or "") is None and strength in spec.track:
        C.check_pool_strength(state["campaign"], spec, strength)


def _no_battle_set_up(what: str) -> Callable[[State, Request], None]:
    """The rule a ``next-battle`` or ``winter`` asked now keeps (``Command.admit``; ``state``
    before it): the battle being set up holds no block (J-4: a next battle would drop them unsaid;
    J-19: the winter comes after the year's battles, and 8.1 could turn Cleopatra under her placed
    block). An older Legatus took either over a set-up with blocks: such a stored line still
    replays as it ran (a campaign stored so was lost at the update: it did not replay)."""
    def admit(state: State, req: Request) -> None:
        placed = state["battle"]["blocks"] if state["battle"]["phase"] == "setup" else []
        if placed and what == "next":
            raise IllegalMove(Msg("A battle is being set up ({}): fight it, or take its blocks out "
                                  "(remove <block>) before the next one.", ", ".join(b["key"] for b in placed)))
        if placed:
            raise IllegalMove(Msg("A battle is being set up ({}): fight it, or take its blocks out "
                                  "(remove <block>) before the winter.", ", ".join(b["key"] for b in placed)))
    return admit


def _winter_admitted(state: State, req: Request) -> None:
    """The rules a ``winter`` asked now keeps: no battle being set up, and the year was played."""
    _no_battle_set_up("winter")(state, req)
    _year_played(state, req)


_ALREADY_FIGHTS = {"caesar": N_("{} already fights for Caesar."), "pompey": N_("{} already fights for Pompey.")}


def _owner_admitted(state: State, req: Request) -> None:
    """The rules an ``owner`` asked now keeps (``Command.admit``; ``state`` before it): the block
    is not placed in the battle being set up (it would fight for its old side and the campaign keep
    it: acknowledged, then lost), and :func:`_owner_on_map`. An older Legatus took such a line: it
    still replays as it ran."""
    spec = block(req.args[0])
    battle = state["battle"]
    if battle["phase"] == "setup" and B.find(battle, spec.id or "") is not None:
        raise IllegalMove(Msg("{} is placed in the battle being set up: take it out first (remove {}).",
                              T.block_name(spec.name), spec.id))
    _owner_on_map(state, req)
    # a change of side to the side it fights for changes nothing: said as done, it was an action
    # journaled for nothing, whose undo then took back nothing (J-2: Cleopatra's side; Jupiter)
    if len(req.args) == 2 and spec.kind not in ("leader", "navis"):
        side = K.parse_side(req.args[1])
        if C.owner(state["campaign"], spec) == side:
            raise IllegalMove(Msg(_ALREADY_FIGHTS[side], T.owned_block_name({"id": spec.id, "name": spec.name,
                                                                                "side": side})))


def _owner_on_map(state: State, req: Request) -> None:
    """The rule an ``owner`` asked now keeps (``Command.admit``; ``state`` before it): Jupiter takes
    a block on the map — not one in the levy pool, nor one eliminated this year, which is in its
    owner's pool until the winter gives it back to that owner (J-3; RU «Юпитер»: «Если такой блок
    погибнет, он возвращается к свободным для найма блокам противника (к тому, кому он
    изначально принадлежал)»). It was given to the other side, and the winter put it in that
    side's pool. A stored line that did so (an older Legatus) still replays as it was."""
    spec = block(req.args[0])
    if spec.id in state["campaign"]["eliminated"]:
        raise IllegalMove(Msg(C.ELIMINATED_NO_SIDE, T.block_name(spec.name)))
    C.check_on_map(state["campaign"], spec, C.POOL_NO_SIDE)


def _navis_in_reserve(state: State, req: Request) -> None:
    """The rule a ``start`` (or a ``fight``/``auto`` that starts the battle) asked now keeps
    (``Command.admit``; ``state`` before it): attacking navis beside attacking land blocks are
    always the reserves (J-8, RU summary 2.2.2). A battle an older Legatus started with its land
    blocks in reserve and its navis as the main attack still replays as it was."""
    if state["battle"]["phase"] == "setup":
        B.check_navis_reserves(state["battle"])


def _dealt_once(state: State, req: Request) -> None:
    """The rule a ``deal`` asked now keeps (``Command.admit``; ``state`` before it): the 27 cards are
    shuffled and dealt once a year (J-18; the summary's 4.6 «Перемешайте 27 карт и раздайте по 6
    карт каждому игроку»), at the first year's start and then by ``winter`` (J-19). Dealt again,
    the hands already seen would be dealt anew (PROTOCOL.md: no re-rolling). A stored session
    that holds such a second deal (an older Legatus took it) still replays as it was."""
    if state["cards"] is not None:
        raise IllegalMove(Msg("The cards of year {} ({} AUC, {} BC) are dealt: the 27 cards are shuffled and dealt "
                              "once a year (J-18); the next deal comes with the winter.",
                              *score.year_numbers(state["campaign"]["year"])))


def _phase(state: State) -> K.Phase:
    if state["cards"] is None:
        raise IllegalMove(Msg("No cards have been dealt: 'deal' shuffles and deals the year's cards."))
    return cast(dict[str, Any], state["cards"])


def _hand(state: State, req: Request) -> Outcome:
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: hand caesar|pompey  (show that player's cards privately)."))
    req.check_opts(frozenset())
    side = K.parse_side(req.args[0])
    ph = _phase(state)
    return Outcome({"side": side, "hand": list(ph["hands"][side]),
                    "discarded": ph["discarded"][side], "played": ph["played"][side],
                    "turn": min(ph["turn"], K.TURNS)})


def _discard(state: State, req: Request) -> Outcome:
    if len(req.args) != 2:
        raise BadArguments(Msg("Usage: discard caesar|pompey <card>, e.g. discard caesar 2/1."))
    req.check_opts(frozenset())
    side = K.parse_side(req.args[0])
    K.discard(_phase(state), side, req.args[1])
    return Outcome({"cards": K.public_view(state["cards"])},
                   Msg("{} discards a card face down.", T.side(side)))


def _play(state: State, req: Request) -> Outcome:
    if len(req.args) != 2:
        raise BadArguments(Msg("Usage: play caesar|pompey <card>, e.g. play pompey mars."))
    req.check_opts(frozenset())
    side = K.parse_side(req.args[0])
    rec = K.play(_phase(state), side, req.args[1])
    fields: dict[str, Any] = {"reveal": rec, "cards": K.public_view(state["cards"])}
    text = K.reveal_sentence(rec, side) if rec else Msg("{} plays a card face down.", T.side(side))
    return Outcome(fields, text)


def _not_over(state: State, req: Request) -> None:
    over = C.over_view(state["campaign"])
    if over:
        raise GameOver(Msg("The game is over: {}", over["reason"]))


def _until_over(cmd: Command) -> Command:
    """``cmd`` refused once the winter's victory check has ended the campaign (J-17/J-19): a game
    its rules ended changes no more (PROTOCOL, third round); ``undo`` reopens it. The refusal is
    its ``admit`` rule, checked first and kept by every request asked now: an older Legatus took
    such commands after the verdict, and its stored lines replay as they ran (the campaign did not
    replay and was lost at the update); one of them that fails says the game is over."""
    handler, other = cmd.handler, cmd.admit

    def run(state: State, req: Request) -> Outcome:
        over = C.over_view(state["campaign"])
        if not over:
            return handler(state, req)
        try:
            return handler(state, req)
        except LegatusError:
            raise GameOver(Msg("The game is over: {}", over["reason"])) from None

    def admit(state: State, req: Request) -> None:
        _not_over(state, req)
        if other is not None:
            other(state, req)
    return cmd._replace(handler=run, admit=admit)


# -- the view --------------------------------------------------------------------------------
def _block_view(battle: B.Battle, b: B.Block) -> BlockView:
    return {"key": b["key"], "id": b["id"], "name": b["name"], "side": b["side"],
            "role": B.role_of(battle, b["side"]), "kind": b["kind"],
            "rating": B.rating_of(battle, b), "strength": b["strength"],
            "steps": roman(b["strength"]), "max": b["track"][0], "status": b["status"],
            "reserve": b["reserve"], "acted": b["acted"]}


def _view(state: State) -> JcGameView:
    battle = state["battle"]
    camp = state["campaign"]
    log: list[str] = list(B.log_sentences(battle, LOG_TURNS))   # turns and events in place (Msg), said later
    events: list[str] = [B.event_sentence(e) for e in battle["events"]]
    view_battle: BattleView = {
        "number": state["number"], "attacker": battle["attacker"], "defender": battle["defender"],
        "surprise": battle["surprise"], "dice": battle["dice"], "phase": battle["phase"],
        "round": battle["round"], "roles_swapped": battle["swapped"],
        "attacker_now": B.attacker_now(battle),
        "blocks": [_block_view(battle, b) for b in battle["blocks"]],
        "decision": cast("Decision | None", B.decision(battle)), "result": battle["result"], "winner": battle["winner"],
        "events": events, "log": log, "roll": _last_roll(battle)}
    rules: JcRules = {"cleopatra": cleopatra_rule(state)}
    if leaders_rule(state) is not None:
        rules["leaders"] = str(leaders_rule(state))
    return {"rules": rules, "battle": view_battle, "history": state["history"],
            "campaign": {"year": camp["year"], "eliminated": camp["eliminated"],
                         "killed": camp["killed"], "trophies": camp["trophies"],
                         "cleopatra": camp["owner"]["cleopatra"],
                         "owners": {k: v for k, v in camp["owner"].items() if k != "cleopatra"},
                         "levy": camp["levy"], "strength": camp["strength"], "pool": C.pool(camp),
                         "over": C.over_view(camp), "quiet": year_quiet(state)},
            "vp": {s: score.vp(camp["control"], camp["trophies"])[s]["total"] for s in SIDES},
            "control": camp["control"], "cards": K.public_view(state["cards"]), "winter": _winter_view(state)}


def _last_roll(battle: B.Battle) -> LastRoll | None:
    """The battle's newest turn if it was a fire, with the events after it (:class:`LastRoll`)."""
    turns = battle["turns"]
    if not turns or turns[-1]["action"] != "fire":
        return None
    index = len(turns) - 1
    after = [e for e in battle["events"] if B.event_place(battle, e) > index]
    return {"index": index, "turn": turns[-1], "events": [B.event_sentence(e) for e in after],
            "settled": next((_settled(turns[-1], e) for e in after if e["event"] == "settled"), None)}


def _settled(turn: dict[str, Any], event: dict[str, Any]) -> SettledHits:
    """A ``settled`` event of the fire ``turn`` as its roll says it (:class:`SettledHits`). An event
    stored before it kept where its hits begin: they came right before the owner's picks made so far."""
    hits, asked = int(event.get("hits", 0)), int(event.get("asked", 0))
    first = event.get("first")
    if not isinstance(first, int):
        waiting = turn["hits"] - len(turn["applied"]) - turn["lost"]
        first = len(turn["applied"]) - hits - (asked - waiting if asked else 0)
    return {"side": str(event.get("side", "")), "blocks": [str(k) for k in event.get("blocks", [])],
            "first": first, "hits": hits, "asked": asked}


def _winter_view(state: State) -> WinterView | None:
    """The last winter's checklist as the winter said it (J-19), its sentences rebuilt; None before."""
    kept = state.get("winter")
    if not kept:
        return None
    steps = [{**s, "title": from_data(s["title"]), "text": from_data(s["text"])} for s in kept["checklist"]]
    return cast(WinterView, {"year": kept["year"], "checklist": steps, "battle": kept.get("battle")})


GAME = GameRules(
    name="jc-battle",
    title=N_("Julius Caesar battle"),
    new=_new,
    view=_view,
    usage="new jc-battle [attacker=caesar|pompey] [surprise=1] [dice=digital|physical] [cleopatra=round|turn] "
          "[year=1..5] [pool=setup] [remove=restore] [ties=partial] [leaders=last] [seed=N]",
    language_options=language_options,
    undone=_undone,
    undo_asked=_undo_asked,
    commands=commands(
        _until_over(Command("add", _add, True, "add attacker|defender <block-id>|rating=C3 strength=N [reserve=1] ...",
                            admit=_add_admitted)),
        _until_over(Command("remove", _remove, True, "remove <block>  (before the battle starts)")),
        _until_over(Command("start", _start, True, "start  (round 1; then fire/retreat/pass/hit)", admit=_navis_in_reserve)),
        _until_over(Command("fire", _fire, True, "fire [<block>] [dice=a,b,...]", drawn=_dice_drawn)),
        _until_over(Command("retreat", _retreat, True, "retreat [<block>] [blocked=1]")),
        _until_over(Command("pass", _pass, True, "pass [<block>]")),
        _until_over(Command("hit", _hit, True, "hit [<block>]  (which equally strong block takes the hit)")),
        _until_over(Command("auto", _auto, True, "auto [dice=a,b,...]  (the next decision by the J-14 policy)",
                            drawn=_dice_drawn, admit=_navis_in_reserve)),
        _until_over(Command("fight", _fight, True, "fight  (the rest of the battle by the J-14 policy)",
                            drawn=_dice_drawn, admit=_navis_in_reserve)),
        Command("odds", _odds, False, "odds  (exact, J-14 policy, from now)"),
        Command("advise", _advise, False, "advise  (every choice now with its exact odds; the best)"),
        _until_over(Command("next-battle", _next_battle, True, "next-battle [attacker=caesar|pompey] [surprise=1] [dice=...]",
                            admit=_no_battle_set_up("next"))),
        Command("roster", _roster, False, "roster [caesar|pompey]"),
        _until_over(Command("levy", _levy, True, "levy <block-id> <city>  (J-20)")),
        _until_over(Command("owner", _owner, True, "owner <block-id> caesar|pompey", admit=_owner_admitted)),
        _until_over(Command("control", _control, True, "control <city> caesar|pompey|vacant", admit=_control_admitted)),
        _until_over(Command("lose", _lose, True, "lose <block-id>  (a step lost outside battle: Vulcan, Jupiter)",
                            admit=_on_map(C.POOL_NO_STEP))),
        _until_over(Command("gain", _gain, True, "gain <block-id>  (a levy point: one step back outside battle)")),
        _until_over(Command("disband", _disband, True, "disband <block-id>  (winter: back to the levy pool, steps forfeit)",
                            admit=_on_map(C.POOL_ALREADY))),
        Command("vp", _vp, False, "vp"),
        Command("supply", _supply, False, "supply [<city>]"),
        _until_over(Command("winter", _winter, True, "winter [quiet=1]  (J-19 checklist; next year)",
                            admit=_winter_admitted)),
        _until_over(Command("deal", _deal, True, "deal  (shuffle 27 cards, 6 to each)", admit=_dealt_once)),
        Command("hand", _hand, False, "hand caesar|pompey  (private)"),
        _until_over(Command("discard", _discard, True, "discard caesar|pompey <card>")),
        _until_over(Command("play", _play, True, "play caesar|pompey <card>")),
    ),
)
