"""One *Julius Caesar* battle as a step-by-step state machine over plain data (J-4..J-13).

The battle is a JSON-ready dict (see :func:`new_battle`). Each block is a dict with ``key``,
``id`` (roster id or ``None``), ``name``, ``side`` (current owner), ``kind``, ``letter``, ``fp``,
``track`` (strengths from the maximum down), ``strength``, ``reserve`` (entered as a reserve),
``status`` (``reserve|fight|retreated|eliminated|killed``), ``acted`` (this round) and ``seq``
(the order it was added: J-14's "entered first").

Decisions the rules leave to a player wait in the state: which block of a step acts and how
(:func:`fire`, :func:`retreat`, :func:`pass_turn`), and which of equally strong blocks takes a
hit (:func:`assign_hit`). Everything the rules fix (reserves arriving, disruption, the role swap,
the end of the battle) happens by itself in :func:`advance`. Result names are always from the
point of view of the *original* attacker.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from engine.errors import BadArguments, IllegalMove
from engine.jc.latin import hint as latin_hint
from engine.jc.order import LAST_ROUND, ballista_rating, step_order
from engine.jc.roster import SIDES, BlockSpec, roman, roster
from engine.jc.terms import block_name, owned_block_name, result as result_word, said_block_name, side as side_word
from engine.rng import Rng
from engine.jc.text import N_, Msg
from engine.text import Msg as AnyMsg, from_data, to_data

Battle = dict[str, Any]
Block = dict[str, Any]
HitChooser = Callable[[Battle, list[Block]], Block]

RESULTS = ("attacker_wins", "attacker_eliminated", "defender_holds")
# J-2, when Cleopatra fights for the side she joined: ``round`` — in the next round of the battle (the
# Russian edition's wording, «сражается за нее в следующий раунд боя»: she has had her turn for this
# round on her new side); ``turn`` — on her next battle turn, this round if she had not acted yet (the
# English rules 7.52; what battles played before the choice existed, whose state has no such key).
CLEOPATRA_RULES = ("round", "turn")
LEGACY_CLEOPATRA = "turn"


# J-7 ties (the owner's choice among equally strong blocks): ``partial`` (every game started now) —
# asked only at a partial level: where the fire's hits left reach every block of the tied level (two
# at III, two hits), each of them loses a step whatever the order, so those hits are placed at once
# (J-14 order) and an event says so; the owner is asked only where the hits left fall short of the
# tied blocks (III, III, II and three hits: both III to II, then one of the three at II is the
# owner's). Absent (every battle stored before the option): every tie is asked, so that a stored
# session, whose lines answer each such question, replays as it was played.
TIES_PARTIAL = "partial"
# The device's own choice among equally strong blocks (J-7: the owner's; Fight to the end, Device
# decides, Device picks, where the device places a hit on the owner's behalf): ``last`` (every game
# started now) — a leader last, J-14's order among the rest and among leaders (:func:`careful_choice`):
# a leader killed is gone for good and a 1-VP trophy for the enemy (J-2, J-17), which J-14's lowest
# firepower first put on Scipio (A2) at I before a C3 legion at I. Absent (every battle stored
# before the option): J-14's order, so that a stored session replays as it was played. The odds
# (J-15) model the battle's own order either way (:func:`careful_key`, :func:`tie_key`).
LEADERS_LAST = "last"


def cleopatra_for_language(lang: str) -> str:
    """The J-2 Cleopatra rule of the rulebook a player of language ``lang`` reads (PROTOCOL, third
    round: the language's edition): ``round`` in Russian and Ukrainian (the Russian summary's
    wording), ``turn`` in English (rules 7.52, what the program played before)."""
    return "round" if lang in ("ru", "uk") else LEGACY_CLEOPATRA
# A refusal of an action out of turn, one sentence per action (its verb translated with it).
CANNOT = {"fire": N_("{} cannot fire now: {}."), "retreat": N_("{} cannot retreat now: {}."),
          "pass": N_("{} cannot pass now: {}.")}


def other(side: str) -> str:
    return "pompey" if side == "caesar" else "caesar"


def new_battle(attacker: str, surprise: bool = False, dice: str = "digital",
               cleopatra: str = LEGACY_CLEOPATRA, ties: str | None = None, leaders: str | None = None) -> Battle:
    """An empty battle in set-up. ``attacker``: ``caesar|pompey``; ``dice``: ``digital|physical``;
    ``cleopatra``: when she fights for the side she joins (:data:`CLEOPATRA_RULES`, J-2);
    ``ties``: :data:`TIES_PARTIAL` to ask a J-7 tie only at a partial level (None: always);
    ``leaders``: :data:`LEADERS_LAST` for the device's own tie choice to put a leader last (None: J-14's)."""
    if attacker not in SIDES:
        latin_hint(attacker, lambda fixed: fixed.lower() in SIDES)
        raise BadArguments(Msg("attacker= must be caesar or pompey, not '{}'.", attacker))
    if dice not in ("digital", "physical"):
        latin_hint(dice, lambda fixed: fixed.lower() in ("digital", "physical"))
        raise BadArguments(Msg("dice= must be digital or physical, not '{}'.", dice))
    if cleopatra not in CLEOPATRA_RULES:
        raise BadArguments(Msg("cleopatra= must be round or turn, not '{}'.", cleopatra))
    if ties is not None and ties != TIES_PARTIAL:
        raise BadArguments(Msg("ties= takes only '{}' (a tie of hits is asked only where the hits left fall short of "
                               "the equally strong blocks); not '{}'.", TIES_PARTIAL, ties))
    if leaders is not None and leaders != LEADERS_LAST:
        raise BadArguments(Msg("leaders= takes only '{}' (among equally strong blocks the device puts a hit on a "
                               "leader last); not '{}'.", LEADERS_LAST, leaders))
    battle: Battle = {"attacker": attacker, "defender": other(attacker), "surprise": surprise,
                      "dice": dice, "cleopatra": cleopatra, "phase": "setup", "round": 0, "swapped": False,
                      "blocks": [], "pending": None, "retreated": {s: 0 for s in SIDES}, "turns": [],
                      "events": [], "result": None, "winner": None}
    if ties is not None:
        battle["ties"] = ties
    if leaders is not None:
        battle["leaders"] = leaders
    return battle


# -- queries ---------------------------------------------------------------------------------
def find(battle: Battle, key: str) -> Block | None:
    for b in battle["blocks"]:
        if b["key"] == key:
            return cast(Block, b)
    return None


def attacker_now(battle: Battle) -> str:
    """The side attacking at present (J-9: the roles swap after a defender's disruption)."""
    return str(battle["defender"] if battle["swapped"] else battle["attacker"])


def role_of(battle: Battle, side: str) -> str:
    return "attacker" if side == attacker_now(battle) else "defender"


def letter_of(battle: Battle, b: Block) -> str:
    """Initiative letter now (J-2: the ballista's depends on its side's role)."""
    if b["kind"] == "ballista":
        return ballista_rating(role_of(battle, b["side"]))[0]
    return str(b["letter"])


def firepower_of(battle: Battle, b: Block) -> int:
    if b["kind"] == "ballista":
        return ballista_rating(role_of(battle, b["side"]))[1]
    return int(b["fp"])


def rating_of(battle: Battle, b: Block) -> str:
    return f"{letter_of(battle, b)}{firepower_of(battle, b)}"


def in_fight(b: Block) -> bool:
    return bool(b["status"] == "fight")


def in_space(b: Block) -> bool:
    """Still in the battle's city or sea (reserves included)."""
    return b["status"] in ("fight", "reserve")


def cleopatra_rule(battle: Battle) -> str:
    """When Cleopatra fights for the side she joins (J-2, :data:`CLEOPATRA_RULES`); a battle stored
    before the choice existed played ``turn``."""
    return str(battle.get("cleopatra", LEGACY_CLEOPATRA))


def side_has(battle: Battle, side: str, pred: Callable[[Block], bool]) -> bool:
    return any(b["side"] == side and pred(b) for b in battle["blocks"])


def current_step(battle: Battle) -> tuple[str, str, list[Block]] | None:
    """The first step of this round with blocks still to act: ``(role, letter, blocks)``.

    Scanning from the first step each time gives Cleopatra her turn for her new side when she
    switched before acting this round under the ``turn`` rule (J-2: she fights on her *next*
    battle turn); under ``round`` her change of side marks her as having acted (:func:`_eliminate`).
    """
    if battle["phase"] != "fighting":
        return None
    for role, letter in step_order(battle["round"], battle["surprise"]):
        side = attacker_now(battle) if role == "attacker" else other(attacker_now(battle))
        group = [b for b in battle["blocks"] if b["side"] == side and in_fight(b)
                 and not b["acted"] and letter_of(battle, b) == letter]
        if group:
            return role, letter, group
    return None


def actions_for(battle: Battle, b: Block) -> list[str]:
    """Legal actions of ``b`` on its turn (J-5: no retreat in round 1; J-6: attackers must
    retreat in round 4)."""
    if battle["round"] == 1:
        return ["fire", "pass"]
    if battle["round"] == LAST_ROUND and role_of(battle, b["side"]) == "attacker":
        return ["retreat"]
    return ["fire", "retreat", "pass"]


def hit_candidates(battle: Battle, side: str) -> list[Block]:
    """J-7: the strongest blocks of ``side`` in the fight (reserves are not, in round 1)."""
    targets = [b for b in battle["blocks"] if b["side"] == side and in_fight(b)]
    if not targets:
        return []
    top = max(b["strength"] for b in targets)
    return [b for b in targets if b["strength"] == top]


def tie_key(firepower: int, leader: bool, seq: int) -> tuple[int, int, int]:
    """Sort key of J-14's choice among equally strong blocks (smallest takes the hit)."""
    return (firepower, 1 if leader else 0, seq)


def careful_key(firepower: int, leader: bool, seq: int) -> tuple[int, int, int]:
    """Sort key of :func:`careful_choice` (smallest takes the hit): a leader after every other
    block, J-14's order (:func:`tie_key`) within each group. The odds (engine/jc/odds_dp.py
    ``_Model.tie_order``) sort by it in a battle with :data:`LEADERS_LAST`, as :func:`device_choice`
    chooses, else by :func:`tie_key`."""
    return (1 if leader else 0, firepower, seq)


def choose_hit(battle: Battle, candidates: list[Block]) -> Block:
    """J-14: which of the equally strongest ``candidates`` takes the next hit: the lowest firepower
    first, then a non-leader before a leader, then the block entered first (the quick-mode policy's,
    engine/jc/policy.py; a ``ties=partial`` battle places a full tied level in this order, J-7)."""
    return min(candidates, key=lambda b: tie_key(firepower_of(battle, b), b["kind"] == "leader", b["seq"]))


def decision(battle: Battle) -> dict[str, Any] | None:
    """What the players must decide now, or ``None`` (set-up or battle over)."""
    pending = battle["pending"]
    if battle["phase"] != "fighting":
        return None
    if pending:
        cands = hit_candidates(battle, pending["side"])
        return {"kind": "hit", "side": pending["side"], "left": pending["left"],
                "choices": [b["key"] for b in cands],
                "strength": cands[0]["strength"] if cands else 0,
                "default": careful_choice(battle, cands)["key"] if cands else None}
    step = current_step(battle)
    if step is None:
        return None
    role, letter, group = step
    side = group[0]["side"]
    return {"kind": "turn", "round": battle["round"], "side": side, "role": role,
            "letter": letter, "blocks": [b["key"] for b in group],
            "actions": actions_for(battle, group[0])}


# -- set-up ----------------------------------------------------------------------------------
def add_block(battle: Battle, spec: BlockSpec, side: str, strength: int, reserve: bool,
              key: str) -> Block:
    """Put a block into the battle (set-up only); raises IllegalMove if ``key`` is there."""
    if battle["phase"] != "setup":
        raise IllegalMove(Msg("Blocks can only be added before the battle starts."))
    if find(battle, key) is not None:
        raise IllegalMove(Msg("{} is already in this battle.", key))
    if strength not in spec.track:
        steps = ", ".join(f"{roman(s)} ({s})" for s in spec.track)     # as printed, as typed
        raise BadArguments(Msg("{} can have strength {}, not {}.", block_name(spec.name), steps, strength))
    seq = 1 + max((b["seq"] for b in battle["blocks"]), default=0)
    b: Block = {"key": key, "id": spec.id, "name": spec.name, "side": side, "kind": spec.kind,
                "letter": spec.letter, "fp": spec.firepower, "track": list(spec.track),
                "strength": strength, "reserve": reserve,
                "status": "reserve" if reserve else "fight", "acted": False, "seq": seq}
    battle["blocks"].append(b)
    return b


def _not_in_battle(key: str) -> Msg:
    """A block named that is not in the battle: a roster block by its name and id, as "already in
    this battle" says it (a bare id read as no block at all), another key as it was typed."""
    spec = roster().get(key)
    if spec is None:
        return Msg("{} is not in this battle.", key)
    return Msg("{} ({}) is not in this battle.", block_name(spec.name), key)


def remove_block(battle: Battle, key: str) -> Block:
    if battle["phase"] != "setup":
        raise IllegalMove(Msg("Blocks can only be removed before the battle starts."))
    b = find(battle, key)
    if b is None:
        latin_hint(key, lambda fixed: find(battle, fixed) is not None)
        raise IllegalMove(_not_in_battle(key))
    battle["blocks"].remove(b)
    return b


def check_ready(battle: Battle) -> None:
    """Raise IllegalMove unless both sides have a main force and the attack is consistent.

    Attacking navis come by a sea border and land blocks by road: only one route can be the main
    attack (J-8, rules 7.3). That the navis are then always the reserves is
    :func:`check_navis_reserves`, a rule of requests asked now (a battle stored with its land
    blocks in reserve still replays).
    """
    for role in ("attacker", "defender"):
        side = battle[role]
        if not side_has(battle, side, lambda b: True):          # none at all: not "only reserves"
            template = (N_("The attacker ({}) has no blocks in this battle: add one first.")
                        if role == "attacker" else
                        N_("The defender ({}) has no blocks in this battle: add one first."))
            raise IllegalMove(Msg(template, side_word(side)))
        if not side_has(battle, side, lambda b: not b["reserve"]):
            template = (N_("The attacker ({}) needs at least one block that is not a reserve.")
                        if role == "attacker" else
                        N_("The defender ({}) needs at least one block that is not a reserve."))
            raise IllegalMove(Msg(template, side_word(side)))
    main = {b["kind"] == "navis" for b in battle["blocks"] if b["side"] == battle["attacker"] and not b["reserve"]}
    if len(main) == 2:
        raise IllegalMove(Msg(NAVIS_RESERVES))


NAVIS_RESERVES = N_("Attacking navis beside attacking land blocks are always reserves: they come by sea, the land "
                    "blocks by road (rules 7.3).")


def check_navis_reserves(battle: Battle) -> None:
    """Raise IllegalMove if attacking navis beside attacking land blocks are not all reserves (J-8;
    the RU summary 2.2.2: «Если атакующие войска, помимо кораблей, включают и наземные блоки (атака
    города-порта), в таком случае атакующие корабли всегда объявляются резервом»)."""
    att = [b for b in battle["blocks"] if b["side"] == battle["attacker"]]
    if any(b["kind"] != "navis" for b in att) and any(b["kind"] == "navis" and not b["reserve"] for b in att):
        raise IllegalMove(Msg(NAVIS_RESERVES))


# -- changes ---------------------------------------------------------------------------------
def _event(battle: Battle, kind: str, text: Msg, **extra: Any) -> None:
    """Record an event: ``text`` is the sentence (a Msg, said in the reader's language while the
    battle is in memory), ``msg`` the same sentence as data (:func:`engine.text.to_data`) and
    ``after`` how many battle turns came before it (its place in the battle log: reserves arriving
    stand between round 1 and round 2, a leader killed right after the fire that killed him)."""
    battle["events"].append({"round": battle["round"], "event": kind, "text": text,
                             "msg": to_data(text), "after": len(battle["turns"]), **extra})


def _eliminate(battle: Battle, b: Block, by_side: str) -> str:
    """Take ``b`` out (J-2/J-3); returns the result word for the record."""
    if b["kind"] == "cleopatra":
        b["side"] = other(b["side"])
        b["strength"] = b["track"][-1]
        b["status"] = "fight"
        if cleopatra_rule(battle) == "round":     # J-2 (ru): she fights for it in the next round
            b["acted"] = True
        ends = (not side_has(battle, other(b["side"]), in_space)       # her old side is gone: J-13
                or battle["round"] >= LAST_ROUND and b["acted"])       # no turn of hers left: no round 5
        said = _CLEOPATRA_JOINS_AT_THE_END[b["side"]] if ends else _CLEOPATRA_JOINS[b["side"], cleopatra_rule(battle)]
        _event(battle, "cleopatra", Msg(said), side=b["side"])
        return f"joins {b['side']}"   # a record word (protocol): applied_hit says the step she lost
    b["strength"] = 0
    if b["kind"] == "leader":
        b["status"] = "killed"
        _event(battle, "killed", Msg("{} is killed: a trophy for {}.", block_name(b["name"]),
                                     side_word(by_side)),
               block=b["key"], trophy_for=by_side)
        return "killed"
    b["status"] = "eliminated"
    return "eliminated"


def lose_step(battle: Battle, b: Block, by_side: str) -> dict[str, Any]:
    """One step off ``b`` (the elephant drops IV -> II -> out); returns the applied-hit record."""
    before = b["strength"]
    lower = [s for s in b["track"] if s < before]
    if lower:
        b["strength"] = max(lower)
        result = "reduced"
    else:
        result = _eliminate(battle, b, by_side)
    return {"block": b["key"], "name": b["name"], "from": before, "to": b["strength"],
            "result": result}


def start(battle: Battle) -> None:
    """Begin round 1 (J-4); raises IllegalMove if the battle cannot start."""
    if battle["phase"] != "setup":
        raise IllegalMove(Msg("The battle has already started."))
    check_ready(battle)
    battle["phase"] = "fighting"
    _next_round(battle)
    if battle["surprise"]:       # J-10: said where the battle begins (the turns' order is not the usual)
        att = battle["attacker"]
        card = "neptune" if all(b["kind"] == "navis" for b in battle["blocks"]
                                if b["side"] == att and b["status"] == "fight") else "mars"
        _event(battle, "surprise", Msg(_SURPRISE[card, att]), side=att, card=card)
    advance(battle)


def _next_round(battle: Battle) -> None:
    battle["round"] += 1
    for b in battle["blocks"]:
        b["acted"] = False
    if battle["round"] == 2:
        _arrive_reserves(battle)


def _arrive_reserves(battle: Battle) -> None:
    """J-8/J-9: reserves arrive; a side whose main force died in round 1 is disrupted (each
    reserve loses a step) and, if it was the defender, the attacker becomes the defender."""
    for side in (battle["attacker"], battle["defender"]):
        reserves = [b for b in battle["blocks"] if b["side"] == side and b["status"] == "reserve"]
        if not reserves:
            continue
        disrupted = not side_has(battle, side, in_fight)
        for b in reserves:
            b["status"] = "fight"
        names = Msg.join([said_block_name(b) for b in reserves])
        if not disrupted:
            _event(battle, "arrive", Msg(_ARRIVE[side], names), side=side)
            continue
        losses: list[dict[str, Any]] = []     # said first: a leader killed or Cleopatra changing
        _event(battle, "disrupt", Msg(_DISRUPTED[side], names),   # a side by it after
               side=side, applied=losses)
        losses.extend(lose_step(battle, b, other(side)) for b in reserves)
        if role_of(battle, side) == "defender" and side_has(battle, side, in_space):   # else it is over (J-13)
            battle["swapped"] = True
            _event(battle, "swap", Msg("{} becomes the defender for the rest of the battle.",
                                       side_word(other(side))), defender=other(side))


def _finish(battle: Battle) -> None:
    att, dfn = battle["attacker"], battle["defender"]
    a_in = side_has(battle, att, in_space)
    d_in = side_has(battle, dfn, in_space)
    if a_in and d_in:          # J-6: attackers still there after round 4; the defender holds
        holder = other(attacker_now(battle))
    elif a_in:
        holder = att
    elif d_in:
        holder = dfn
    else:
        holder = None
    if holder == att:
        result = "attacker_wins"
    elif a_in or battle["retreated"][att] > 0:
        result = "defender_holds"
    else:
        result = "attacker_eliminated"
    _drop_pending(battle)
    _unkept_promises(battle)
    battle["phase"] = "over"
    battle["result"] = result
    battle["winner"] = holder
    now = attacker_now(battle)
    said = result_in_roles(result, battle["swapped"], holder, now,
                           side_has(battle, now, in_space) or battle["retreated"][now] > 0)
    if holder in _HOLDS:          # one sentence per side: ru/uk decline the side's name
        text = Msg(_HOLDS[holder], result_word(said))
    elif holder:                  # (the sentence of states stored before, kept in the catalogs)
        text = Msg("Battle over: {}; {} holds the field.", result_word(said), side_word(holder))
    else:
        text = Msg("Battle over: {}.", result_word(result))
    _event(battle, "end", text, result=result)


def result_in_roles(result: str | None, swapped: bool, winner: str | None, attacker_now: str,
                    attacker_left: bool) -> str | None:
    """The result (J-13) said as the roles stood at the battle's end: after a role swap (J-9) the
    first attacker defends, and the log has said so («Caesar becomes the defender for the rest of
    the battle»): the side attacking now (``attacker_now``) holding the field won as the attacker,
    else it was destroyed or (``attacker_left``: some of its blocks retreated or stayed after
    round 4) the defender held. The protocol's ``result`` keeps the first roles' names."""
    if not swapped or result is None or winner is None:
        return result
    if winner == attacker_now:
        return "attacker_wins"
    return "defender_holds" if attacker_left else "attacker_eliminated"


def _unkept_promises(battle: Battle) -> None:
    """At the battle's end (J-13), Cleopatra's change of side made by the step that ended it says
    only that she joined (J-2), not that she fights for that side in the next round or on her next
    turn: the same fire's later hits, or the other reserves disrupted with her, took the last block
    of her old side after her (she was the first of them to go)."""
    for event in battle["events"]:
        if (event["event"] != "cleopatra" or event.get("after") != len(battle["turns"])
                or event.get("side") not in SIDES):
            continue
        said = Msg(_CLEOPATRA_JOINS_AT_THE_END[event["side"]])
        event["text"], event["msg"] = said, to_data(said)


def _ended(battle: Battle) -> bool:
    """J-13: over as soon as a side has no block left in the space."""
    if all(side_has(battle, s, in_space) for s in SIDES):
        return False
    _finish(battle)
    return True


def advance(battle: Battle) -> None:
    """Apply everything the rules decide by themselves until a player must choose."""
    while battle["phase"] == "fighting":
        pending = battle["pending"]
        if pending:
            if pending["left"] > 0 and hit_candidates(battle, pending["side"]):
                return
            _drop_pending(battle)
        if _ended(battle):
            return
        if battle["round"] == 1 and not all(side_has(battle, s, in_fight) for s in SIDES):
            _next_round(battle)   # a main force is gone: nobody is left to shoot at (J-7, J-8)
            continue
        if current_step(battle) is not None:
            return
        if battle["round"] >= LAST_ROUND:
            _finish(battle)
            return
        _next_round(battle)


def _drop_pending(battle: Battle) -> None:
    pending = battle["pending"]
    if pending and pending["left"] > 0:
        battle["turns"][pending["turn"]]["lost"] += pending["left"]
    battle["pending"] = None


def _actor(battle: Battle, key: str | None, action: str) -> Block:
    """The block taking ``action`` now; raises IllegalMove when out of order or not allowed."""
    if battle["phase"] == "setup":
        raise IllegalMove(Msg("The battle has not started: 'start' (or 'fight' for the whole battle)."))
    if battle["phase"] == "over":
        raise IllegalMove(Msg("The battle is over."))
    if battle["pending"]:
        d = decision(battle)
        assert d is not None
        raise IllegalMove(Msg("First choose which block takes the hit: hit <{}>.", "|".join(d["choices"])))
    step = current_step(battle)
    assert step is not None
    role, letter, group = step
    keys = [b["key"] for b in group]
    if key is None:
        if len(group) > 1 and action not in actions_for(battle, group[0]):   # (the same for the whole step)
            if battle["round"] == 1:                                           # not "say which": none may
                raise IllegalMove(Msg("No block may retreat in round 1 (J-5)."))
            raise IllegalMove(Msg("Attacking blocks must retreat on their round-4 turn (J-6): say which "
                                  "(retreat <{}>).", "|".join(keys)))
        if len(group) > 1:
            several = (N_("Several attacker {} blocks can act: say which ({} <{}>).") if role == "attacker" else
                       N_("Several defender {} blocks can act: say which ({} <{}>)."))
            raise IllegalMove(Msg(several, letter, action, "|".join(keys)))
        b = group[0]
    else:
        found = find(battle, key)
        if found is None:
            latin_hint(key, lambda fixed: find(battle, fixed) is not None)
            raise IllegalMove(_not_in_battle(key))
        b = found
        if b not in group:
            now = (N_("It is not {}'s turn: now the attacker {} step acts ({}).") if role == "attacker" else
                   N_("It is not {}'s turn: now the defender {} step acts ({})."))
            raise IllegalMove(Msg(now, key, letter, ", ".join(keys)))
    allowed = actions_for(battle, b)
    if action not in allowed:
        why = (Msg("no block may retreat in round 1 (J-5)") if battle["round"] == 1 else
               Msg("attacking blocks must retreat on their round-4 turn (J-6)"))
        cannot = CANNOT.get(action, N_("{} cannot {} now: {}."))
        raise IllegalMove(Msg(cannot, block_name(b["name"]), why) if action in CANNOT
                          else Msg(cannot, block_name(b["name"]), action, why))
    return b


def _turn(battle: Battle, b: Block, action: str) -> dict[str, Any]:
    rec = {"round": battle["round"], "block": b["key"], "name": b["name"], "side": b["side"],
           "role": role_of(battle, b["side"]), "rating": rating_of(battle, b),
           "strength": b["strength"], "action": action, "dice": [], "hit_dice": [], "hits": 0,
           "applied": [], "lost": 0}
    battle["turns"].append(rec)
    b["acted"] = True
    return rec


def check_faces(faces: list[int], count: int, text: str | None = None) -> list[int]:
    """``faces`` if they are ``count`` faces of 1-6; raises BadArguments otherwise (``text``: the
    faces as the player gave them, for the message)."""
    if len(faces) != count or any(not 1 <= f <= 6 for f in faces):
        given = text if text is not None else ",".join(map(str, faces))
        raise BadArguments(Msg("This block rolls {n} die: give {n} face of 1-6 (dice={text} has {got}).",
                               n=count, text=given, got=len(faces),
                               plural="This block rolls {n} dice: give {n} faces of 1-6 (dice={text} has {got})."))
    return faces


def dice_wanted(b: Block) -> Msg:
    """What to enter when ``b`` fires with physical dice and none were given: one die per
    strength point (J-1), said with the number's plural form."""
    return Msg("Enter the die rolled for {name}: fire {key} dice=a,b,...", n=b["strength"],
               name=block_name(b["name"]), key=b["key"],
               plural="Enter the {n} dice rolled for {name}: fire {key} dice=a,b,...")


def actor(battle: Battle, key: str | None, action: str) -> Block:
    """The block taking ``action`` now (``key``, or the only one that may); raises IllegalMove when
    out of order or not allowed. Changes nothing."""
    return _actor(battle, key, action)


def fire(battle: Battle, key: str | None, dice: list[int] | None, rng: Rng | None,
         chooser: HitChooser | None = None) -> dict[str, Any]:
    """The current block fires (J-1, J-7). Dice come from ``dice`` (physical faces, e.g.
    ``[3, 5, 1]``) or ``rng``. Hits are applied one at a time to the strongest enemy block; ties
    wait for :func:`assign_hit` unless ``chooser`` decides. Returns the turn record.

    Raises IllegalMove (out of order, not allowed) or BadArguments (dice) before changing anything.
    """
    b = _actor(battle, key, "fire")
    count = b["strength"]
    fp = firepower_of(battle, b)
    if dice is not None:
        faces = check_faces(list(dice), count)
    elif rng is None:
        raise BadArguments(dice_wanted(b))
    else:
        faces = [rng.die(6) for _ in range(count)]
    rec = _turn(battle, b, "fire")
    rec["dice"] = faces
    rec["hit_dice"] = [f <= fp for f in faces]
    rec["hits"] = sum(rec["hit_dice"])
    if rec["hits"]:
        battle["pending"] = {"side": other(b["side"]), "left": rec["hits"], "by": b["side"],
                             "turn": len(battle["turns"]) - 1}
        apply_pending(battle, chooser)
    advance(battle)
    return rec


def apply_pending(battle: Battle, chooser: HitChooser | None) -> None:
    """Apply pending hits one at a time while the target is forced (or ``chooser`` picks)."""
    pending = battle["pending"]
    while pending and pending["left"] > 0 and battle["phase"] == "fighting":
        cands = hit_candidates(battle, pending["side"])
        if not cands:
            break
        if len(cands) > 1 and chooser is None:
            if battle.get("ties") != TIES_PARTIAL or pending["left"] < len(cands):
                return                            # the owner's choice (J-7): every tie, or a partial level
            _place_full_levels(battle)
            continue
        target = cands[0] if len(cands) == 1 else chooser(battle, cands)  # type: ignore[misc]
        _hit(battle, target)
        if _ended(battle):
            return
    _drop_pending(battle)


# The log's sentence of a tie that needed no choice (docs/protocol/jc.md), as :func:`roll_rows` knows it.
SETTLED_ALL = "{names}: the {n} hit ends the same in any order; no choice to make."


def _place_full_levels(battle: Battle) -> None:
    """``ties=partial`` (J-7): place the pending hits that reach every block of a tied level, one
    level after the other (each of them loses a step whatever the order: placed in the J-14 order),
    until the hits run out, the side has no block left in the fight, the battle ends (J-13), or the
    hits left fall short of the tied blocks (a partial level: the owner's). One event, said before
    the hits it placed, names the tied blocks and says whether a choice is left."""
    pending = battle["pending"]
    at, first = len(battle["events"]), pending["left"]
    tied: list[Block] = []
    while pending["left"] > 0 and battle["phase"] == "fighting":
        cands = hit_candidates(battle, pending["side"])
        if not cands or len(cands) > pending["left"]:
            break
        if len(cands) > 1:
            tied.extend(b for b in cands if b not in tied)
        _hit(battle, cands[0] if len(cands) == 1 else choose_hit(battle, cands))
        if _ended(battle):
            break
    left = pending["left"] if battle["phase"] == "fighting" else 0
    asked = left > 0 and len(hit_candidates(battle, pending["side"])) > 1
    names = Msg.join([said_block_name(b) for b in sorted(tied, key=lambda b: b["seq"])])
    if asked:
        said = Msg("{names}: the first {n} hit ends the same in any order.", names=names, n=first - left,
                   plural="{names}: the first {n} hits end the same in any order.")     # (the rest: asked)
    else:
        said = Msg("{names}: the {n} hit ends the same in any order; no choice to make.", names=names, n=first,
                   plural="{names}: the {n} hits end the same in any order; no choice to make.")   # (SETTLED_ALL)
    _event(battle, "settled", said, side=pending["side"], blocks=[b["key"] for b in tied],
           hits=first - left if asked else first, asked=left if asked else 0)
    battle["events"].insert(at, battle["events"].pop())        # said before what its hits did


def careful_choice(battle: Battle, candidates: list[Block]) -> Block:
    """The pick a careful owner starts from among equally strong ``candidates`` (J-7): J-14's choice
    among those that are not leaders — J-14 puts the hit on the lowest firepower first, so on Scipio
    (A2) beside a C3 legion, yet a leader killed is gone for good and a 1-VP trophy for the enemy
    (J-2, J-17), which the battle's odds do not count —, J-14's own when every one is a leader."""
    others = [b for b in candidates if b["kind"] != "leader"]
    return choose_hit(battle, others or candidates)


def device_choice(battle: Battle, candidates: list[Block]) -> Block:
    """Where the device puts a hit among equally strong ``candidates`` on the owner's behalf (J-7:
    the owner's choice; Fight to the end, Device decides, Device picks): a leader last
    (:func:`careful_choice`) in a battle with :data:`LEADERS_LAST`, else J-14's order."""
    if battle.get("leaders") == LEADERS_LAST:
        return careful_choice(battle, candidates)
    return choose_hit(battle, candidates)


def _hit(battle: Battle, target: Block) -> None:
    pending = battle["pending"]
    rec = lose_step(battle, target, pending["by"])
    battle["turns"][pending["turn"]]["applied"].append(rec)
    pending["left"] -= 1


def assign_hit(battle: Battle, key: str | None, chooser: HitChooser) -> dict[str, Any]:
    """The owner puts the next pending hit on ``key`` (one of the equally strongest blocks);
    ``key=None`` lets ``chooser`` (the J-14 rule) pick. Raises IllegalMove otherwise."""
    pending = battle["pending"]
    if battle["phase"] != "fighting" or not pending:
        raise IllegalMove(Msg("No hit is waiting to be assigned."))
    cands = hit_candidates(battle, pending["side"])
    if key is None:
        target = chooser(battle, cands)
    else:
        found = find(battle, key)
        if found is None:
            latin_hint(key, lambda fixed: find(battle, fixed) in cands)
        if found is None or found not in cands:
            strongest = (N_("The hit must go to one of the strongest caesar blocks: {}.")
                         if pending["side"] == "caesar" else
                         N_("The hit must go to one of the strongest pompey blocks: {}."))
            raise IllegalMove(Msg(strongest, ", ".join(c["key"] for c in cands)))
        target = found
    rec = battle["turns"][pending["turn"]]
    _hit(battle, target)
    if not _ended(battle):
        apply_pending(battle, None)
    advance(battle)
    return cast(dict[str, Any], rec)


def retreat(battle: Battle, key: str | None, blocked: bool = False) -> dict[str, Any]:
    """The current block retreats (J-5/J-6); ``blocked``: it must retreat (an attacker in round 4)
    but has no legal retreat, and is eliminated (rules 7.6; IllegalMove for a block that may fire or
    pass instead). The device does not check the map (J-12)."""
    b = _actor(battle, key, "retreat")
    if blocked and "fire" in actions_for(battle, b):     # rules 3.5/7.6: only a retreat required
        raise IllegalMove(Msg("{} does not have to retreat now: only a block that must retreat and "   # (J-6)
                              "cannot (an attacker in round 4, J-6) is eliminated; it may fire or "
                              "pass instead.", block_name(b["name"])))
    rec = _turn(battle, b, "retreat")
    if blocked:
        rec["action"] = "eliminated"
        before = b["strength"]
        result = _eliminate(battle, b, other(b["side"]))
        rec["applied"].append({"block": b["key"], "name": b["name"], "from": before,
                               "to": b["strength"], "result": result})
    else:
        b["status"] = "retreated"
        battle["retreated"][b["side"]] += 1
    advance(battle)
    return rec


def pass_turn(battle: Battle, key: str | None) -> dict[str, Any]:
    b = _actor(battle, key, "pass")
    rec = _turn(battle, b, "pass")
    advance(battle)
    return rec


# -- reading ---------------------------------------------------------------------------------
def named(blocks: Iterable[Mapping[str, object]], key: object, name: str, said: bool = False) -> Msg | str:
    """The name of the battle's block ``key`` as its lists show it: a block that went over to the
    other side carries its first owner's initial (``Auxilia 1 (P)``, J-2 Jupiter; ``said``: in
    words, as a sentence says it, ``Pompey's Auxilia 1``); ``name`` as it is when ``blocks`` (the
    battle's, or its view's) do not hold it."""
    for b in blocks:
        if b["key"] == key:
            return said_block_name(b) if said else owned_block_name(b)
    return block_name(name)


def _stored_before() -> Msg:
    """The sentence of a fire before it said its dice as a roll, kept in the catalogs: journals
    stored before (an undone fire, «Отменено: …: атакует 1 6 6, 1 хит») still say it."""
    return Msg("{}: fires {}, {n} hit", "", "", n=1, plural="{}: fires {}, {n} hits")


def describe_turn(rec: dict[str, Any], blocks: Iterable[Mapping[str, object]] = ()) -> Msg:
    """A log sentence for one battle turn (J-1, J-5, J-7); ``blocks`` (the battle's) mark a block
    that went over to the other side, as :func:`named` says."""
    blocks = list(blocks)
    who = Msg("Round {} {} ({}, {})", rec["round"], named(blocks, rec["block"], rec["name"], True), rec["rating"],
              roman(rec["strength"]))
    if rec["action"] == "pass":
        return Msg("{}: passes.", who)
    if rec["action"] == "retreat":
        return Msg("{}: retreats.", who)
    if rec["action"] == "eliminated":
        return Msg("{}: cannot retreat and is eliminated.", who)
    faces = " ".join(str(f) for f in rec["dice"])        # the dice said as dice («fires 6 2 3» read as a target)
    text = Msg("{}: fires, rolls {}, {n} hit", who, faces, n=rec["hits"], plural="{}: fires, rolls {}, {n} hits")
    if rec["applied"]:
        text = Msg("{} ({}).", text, Msg.join([applied_hit(a, blocks, True) for a in rec["applied"]]))
    else:
        text = Msg("{}.", text)
    if rec["lost"]:
        text = Msg("{} {n} hit lost.", text, n=rec["lost"], plural="{} {n} hits lost.")
    return text


# J-2 (RU summary: «Если Клеопатра уничтожается в бою, она незамедлительно, с боевой силой 1,
# присоединяется к другой стороне и сражается за нее в следующий раунд боя»; rules 7.52: on her next
# battle turn), one sentence per side and rule (:data:`CLEOPATRA_RULES`); the hit itself is said as a
# block's last step (applied_hit), her change of side only here, once.
_CLEOPATRA_JOINS = {
    ("caesar", "round"): N_("Cleopatra at once joins Caesar at strength I and fights for him in the next round of "
                            "the battle."),
    ("pompey", "round"): N_("Cleopatra at once joins Pompey at strength I and fights for him in the next round of "
                            "the battle."),
    ("caesar", "turn"): N_("Cleopatra at once joins Caesar at strength I and fights for him on her next battle turn."),
    ("pompey", "turn"): N_("Cleopatra at once joins Pompey at strength I and fights for him on her next battle turn.")}
# ... and when her hit leaves the side she fought for with no block in the space, the battle is
# over (J-13): no round or turn of it is left for her, so none is promised
_CLEOPATRA_JOINS_AT_THE_END = {"caesar": N_("Cleopatra at once joins Caesar at strength I."),
                               "pompey": N_("Cleopatra at once joins Pompey at strength I.")}
# J-10 (the RU summary: Mars «Все блоки, только в первом раунде в одной из битв, способны в бою
# атаковать первыми, нежели блоки защищающихся»; Neptune, its sea version, for navis): the order of
# round 1 is not the usual one (the defender's A blocks first), said so the table does not take it
# for a mistake. Mars for a land attack; Neptune when every attacking block of the main force is a navis.
_SURPRISE = {("mars", "caesar"): N_("Mars: in round 1 all Caesar's blocks act before Pompey's."),
             ("mars", "pompey"): N_("Mars: in round 1 all Pompey's blocks act before Caesar's."),
             ("neptune", "caesar"): N_("Neptune: in round 1 all Caesar's blocks act before Pompey's."),
             ("neptune", "pompey"): N_("Neptune: in round 1 all Pompey's blocks act before Caesar's.")}
_ARRIVE = {"caesar": N_("Caesar's reserves arrive: {}."), "pompey": N_("Pompey's reserves arrive: {}.")}
_DISRUPTED = {"caesar": N_("Caesar's main force fell in round 1: its reserves arrive disrupted, one step each ({})."),
              "pompey": N_("Pompey's main force fell in round 1: its reserves arrive disrupted, one step each ({}).")}
_HOLDS = {"caesar": N_("Battle over: {}; Caesar holds the field."),
          "pompey": N_("Battle over: {}; Pompey holds the field.")}


def applied_hit(a: dict[str, Any], blocks: Iterable[Mapping[str, object]] = (), said: bool = False) -> Msg:
    """One hit taken: ``Legio 1 III→II``, ``Legio 1 I→- eliminated``, ``Caesar killed`` (the block
    named by :func:`named` among ``blocks``; ``said``: inside a sentence). Cleopatra's last step
    (``joins …``) is said as the rulebook says it, eliminated (``Cleopatra I→- eliminated``; she
    was said to go ``I→I``, reading as no change): that she joins the other side at I is the
    battle's event after it (J-2), said once."""
    joins = str(a["result"]).startswith("joins ")
    move = Msg("{} {}→{}", named(blocks, a["block"], a["name"], said), roman(a["from"]), roman(0 if joins else a["to"]))
    if a["result"] == "reduced":
        return move
    if a["result"] == "eliminated" or joins:
        return Msg("{}: eliminated", move)
    if a["result"] == "killed":
        return Msg("{}: killed", move)
    return Msg("{} {}", move, a["result"])


def roll_rows(turn: Mapping[str, Any], events: Iterable[str],
              blocks: Iterable[Mapping[str, object]] = ()) -> tuple[list[AnyMsg], list[str]]:
    """A fire's hits as its page says them (:func:`applied_hit`, one a row) and the events after it,
    a tie that needed no choice (J-7, ``ties=partial``) said once: where its hits took one step
    each from a level of equally strong blocks (the last ``n`` hits placed, each on another block,
    all from the same strength to the same, none lost), those rows and the log's long sentence
    («Caesar, Legio 10: the 2 hits end the same in any order; no choice to make.», two pages on
    the panel) are one row, «Caesar, Legio 10: III→II in any order.»; any other tie keeps both."""
    blocks, applied, events = list(blocks), list(turn["applied"]), list(events)
    rows: list[AnyMsg] = [applied_hit(a, blocks) for a in applied]
    for i, e in enumerate(events):
        said = e.kwargs.get("n") if isinstance(e, AnyMsg) and e.template == SETTLED_ALL else None
        n = said if isinstance(said, int) else 0
        level = applied[len(applied) - n:] if 1 < n <= len(applied) else []
        if (not level or turn.get("lost") or len({a["block"] for a in level}) < n
                or {(a["from"], a["to"], a["result"]) for a in level} != {(level[0]["from"], level[0]["to"], "reduced")}):
            continue
        names = Msg.join([named(blocks, a["block"], a["name"]) for a in level])
        folded = Msg("{names}: {was}→{now} in any order.", names=names, was=roman(level[0]["from"]),
                     now=roman(level[0]["to"]))
        return rows[:len(applied) - n] + [folded], events[:i] + events[i + 1:]
    return rows, events


# Events that happen at the start of a round (J-8/J-9): in a battle stored before events kept their
# place (``after``), they stand before the round's first turn; any other event after its last.
ROUND_START_EVENTS = ("arrive", "disrupt", "swap")


def event_place(battle: Battle, event: dict[str, Any]) -> int:
    """How many battle turns come before ``event`` in the battle log."""
    after = event.get("after")
    if isinstance(after, int):
        return after
    turns = [i for i, t in enumerate(battle["turns"]) if t["round"] == event["round"]]
    if event["event"] in ROUND_START_EVENTS:
        return turns[0] if turns else sum(1 for t in battle["turns"] if t["round"] < event["round"])
    return turns[-1] + 1 if turns else sum(1 for t in battle["turns"] if t["round"] <= event["round"])


def log_entries(battle: Battle) -> list[tuple[str, dict[str, Any]]]:
    """The battle log in the order things happened: ``("turn", record)`` for every battle turn and
    ``("event", record)`` for what the rules did by themselves (reserves arriving, disruption, the
    role swap, J-8/J-9; a leader killed, Cleopatra changing sides, J-2; the end, J-13), each event
    after the turns that came before it."""
    events = sorted(enumerate(battle["events"]), key=lambda ie: (event_place(battle, ie[1]), ie[0]))
    out: list[tuple[str, dict[str, Any]]] = []
    k = 0
    for i, turn in enumerate(battle["turns"]):
        while k < len(events) and event_place(battle, events[k][1]) <= i:
            out.append(("event", events[k][1]))
            k += 1
        out.append(("turn", turn))
    out.extend(("event", e) for _i, e in events[k:])
    return out


def log_sentences(battle: Battle, last: int | None = None) -> list[AnyMsg]:
    """The battle log as sentences (:func:`log_entries`), the newest ``last`` of them."""
    entries = log_entries(battle)
    if last is not None:
        entries = entries[-last:]
    return [describe_turn(rec, battle["blocks"]) if kind == "turn" else event_sentence(rec) for kind, rec in entries]


def event_sentence(event: dict[str, Any]) -> AnyMsg:
    """An event's sentence, to be said in the reader's language (from its ``msg`` data: a state read
    back from JSON holds ``text`` as English words only)."""
    said = from_data(event["msg"]) if "msg" in event else event["text"]
    return said if isinstance(said, AnyMsg) else Msg("{}", str(said))


def rounds_view(battle: Battle) -> list[dict[str, Any]]:
    """Every battle turn and event grouped by round (for ``fight`` and the battle log)."""
    out: list[dict[str, Any]] = []
    for r in range(1, battle["round"] + 1):
        out.append({"round": r,
                    "events": [e for e in battle["events"] if e["round"] == r],
                    "turns": [t for t in battle["turns"] if t["round"] == r]})
    return out
