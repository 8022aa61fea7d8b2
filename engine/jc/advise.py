"""Advice at the decision in hand (PROTOCOL.md "advise", J-14, J-15).

For every choice open to the deciding side now — fire, pass or retreat for each block of the
acting step, or which of the equally strongest blocks takes the next hit — the exact odds if that
choice is made now and both sides follow the J-14 policy afterwards (among equally strong blocks
the hit goes where the device puts it: J-14's order, or a leader last in a battle with
``leaders=last``, B.device_choice), the best choice for the deciding side by the odds (``best``, as
PROTOCOL.md fixes it) and the choice advised (``advised``: the same, but a hit the odds would give a
leader for less than :data:`SPARE` (1 point) goes to the best block that is not a leader:
:func:`spare_leader`, J-2, J-17). Pure: the battle passed in is never changed.

How: a ``pass``, ``retreat`` or ``hit`` option is made on a copy and the exact odds (J-15) are
taken from there. ``fire`` for any block of the step is the odds from now: J-14 play fires the
step's other blocks right after it, and a step's blocks do not lose strength while they fire, so
only the step's total hits matter, whoever rolls first (J-15; the tests check this against
every die face). ``pass`` by either of two alike blocks of the step (same kind, letter,
firepower, strength, track, reserve status) leads to the same battle after the step (the other
fires, and nothing of theirs changes), so it is computed once. A ``retreat`` or a ``hit`` is
computed for each block: which one stays or is weaker decides later J-14 ties against other
blocks (the order "entered first"). Hits on blocks alike but for their name with nothing
between them in that order do have equal odds, but valuing them once was measured to save
nothing (``odds_many`` values the hit options in one pass, where their futures already meet:
the 8-way choice of scripts/bench_jc.py, three of its options alike, took as long).

Results are always from the point of view of the *original* attacker (as ``odds``), so the side
that attacked first wants a high ``attacker_wins`` even after the J-9 role swap.
"""
from __future__ import annotations

import copy
from math import comb
from typing import Any

from engine.errors import IllegalMove
from engine.jc import battle as B
from engine.jc import policy
from engine.jc.odds import hit_odds, odds, odds_many, turn_odds
from engine.jc.odds_dp import battle_copy
from engine.jc import terms as T
from engine.jc.text import N_, Msg

TIE = 1e-12          # odds closer than this are equal (different routes to one float)
SPARE = 0.01         # a leader is spared a hit whose odds beat another block's by less than this


def fire_odds(battle: B.Battle, key: str) -> dict[str, float]:
    """The odds if ``key`` fires now, as a sum over its number of hits (for checks and for a
    step that is not wholly fired by J-14)."""
    return _fire_odds(battle, key)


def _fire_odds(battle: B.Battle, key: str) -> dict[str, float]:
    b = B.find(battle, key)
    assert b is not None
    n = int(b["strength"])
    p = min(B.firepower_of(battle, b), 6) / 6.0
    acc = dict.fromkeys(B.RESULTS, 0.0)
    for k in range(n + 1):
        pk = comb(n, k) * p ** k * (1.0 - p) ** (n - k)
        if pk == 0.0:
            continue
        c = copy.deepcopy(battle)
        B.fire(c, key, [1] * k + [6] * (n - k), None, B.device_choice)
        for r, v in odds(c).items():
            acc[r] += pk * v
    return acc


def _after(battle: B.Battle, option: dict[str, Any]) -> B.Battle:
    """The battle once ``option`` is taken now (``fire``: as it is, J-14 play follows)."""
    action, key = option["action"], option["block"]
    if action == "fire":
        return battle
    c = battle_copy(battle)
    if action == "pass":
        B.pass_turn(c, key)
    elif action == "retreat":
        B.retreat(c, key)
    else:
        B.assign_hit(c, option["target"], B.device_choice)
    if c["phase"] == "fighting" and c["pending"]:          # the rest of the hits as the device puts
        B.apply_pending(c, B.device_choice)                 # them, here (the copy is ours: no second one)
        B.advance(c)
    return c


def _signature(battle: B.Battle, option: dict[str, Any]) -> tuple[Any, ...]:
    """Options with one signature have equal odds (see the module doc)."""
    if option["action"] == "fire":
        return ("fire",)
    if option["action"] != "pass":             # who is left, or hit, matters for later ties
        return (option["action"], option["block"])
    b = B.find(battle, option["block"])
    assert b is not None
    return (option["action"], b["kind"], B.letter_of(battle, b), B.firepower_of(battle, b),
            b["strength"], tuple(b["track"]), b["reserve"], b["acted"])


def _policy_option(battle: B.Battle, d: dict[str, Any]) -> dict[str, Any]:
    """The choice the policy would make here (the tie-break of ``best``): a hit where the device
    puts it (J-14, or a leader last with ``leaders=last``: B.device_choice)."""
    if d["kind"] == "hit":
        cands = B.hit_candidates(battle, d["side"])
        return {"action": "hit", "block": B.device_choice(battle, cands)["key"]}
    group = [x for x in battle["blocks"] if x["key"] in d["blocks"]]
    b = min(group, key=lambda x: x["seq"])
    return {"action": policy.action_for(battle, b), "block": b["key"]}


def choices(battle: B.Battle, d: dict[str, Any]) -> list[dict[str, Any]]:
    """Every choice open now: ``{"action", "block"}`` (plus ``"target"`` for a hit, equal to
    ``block``: the block that takes it)."""
    if d["kind"] == "hit":
        return [{"action": "hit", "block": k, "target": k} for k in d["choices"]]
    out: list[dict[str, Any]] = []
    for key in d["blocks"]:
        b = B.find(battle, key)
        assert b is not None
        out.extend({"action": a, "block": key} for a in B.actions_for(battle, b))
    return out


def best_index(options: list[dict[str, Any]], attacker: bool, policy_index: int) -> int:
    """The best option for the deciding side: the attacker wants the highest ``attacker_wins``
    then the lowest ``attacker_eliminated``; the defender the lowest ``attacker_wins`` then the
    highest ``attacker_eliminated``; remaining ties go to the J-14 choice, then the first."""
    sign = 1.0 if attacker else -1.0
    win = [sign * o["attacker_wins"] for o in options]
    top = max(win)
    near = [i for i, w in enumerate(win) if w >= top - TIE]
    elim = {i: -sign * options[i]["attacker_eliminated"] for i in near}
    top2 = max(elim.values())
    near = [i for i in near if elim[i] >= top2 - TIE]
    return policy_index if policy_index in near else near[0]


def spare_leader(battle: B.Battle, options: list[dict[str, Any]], attacker: bool, best: int,
                 policy_index: int) -> int:
    """The advised hit once a leader is spared (J-2, J-17): a leader killed is gone for good and a
    1-VP trophy for the enemy, a leader hit a step nearer to it, and the odds count this battle
    only; so when :func:`best_index` puts the hit on a leader while a block that is not a leader
    leaves the deciding side's chance of holding the field less than :data:`SPARE` (1 point)
    lower, the best of those blocks is advised instead (its odds as shown; a leader advised
    despite it is worth more than 1 point to this battle). The odds themselves are unchanged."""
    def leader(o: dict[str, Any]) -> bool:
        b = B.find(battle, o.get("target", ""))
        return b is not None and b["kind"] == "leader"

    if options[best]["action"] != "hit" or not leader(options[best]):
        return best
    sign = 1.0 if attacker else -1.0
    floor = sign * options[best]["attacker_wins"] - SPARE
    spared = [i for i, o in enumerate(options) if not leader(o) and sign * o["attacker_wins"] > floor]
    if not spared:
        return best
    pick = best_index([options[i] for i in spared], attacker,
                      spared.index(policy_index) if policy_index in spared else -1)
    return spared[pick]


def advise(battle: B.Battle) -> dict[str, Any]:
    """``decision``, ``options`` (each with the exact odds), ``best`` (the best option by the odds,
    PROTOCOL.md; its index ``best_index``) and ``advised`` (the option advised: ``best`` but for a
    leader spared, :func:`spare_leader`; its index ``advised_index``). Raises IllegalMove when there
    is no decision in hand."""
    if battle["phase"] == "setup":
        raise IllegalMove(Msg("The battle has not started: advise helps at a turn or a hit "
                              "(start first)."))
    d = B.decision(battle)
    if d is None:
        raise IllegalMove(Msg("The battle is over: there is nothing to advise."))
    pol = _policy_option(battle, d)
    options = []
    policy_index = 0
    chs = choices(battle, d)
    quick = (hit_odds(battle, [ch["target"] for ch in chs]) if d["kind"] == "hit" else
             turn_odds(battle, [(ch["action"], ch["block"]) for ch in chs]))
    if quick is not None:                # the table holds every option: looked up directly
        sigs: list[tuple[Any, ...]] = [(n,) for n in range(len(chs))]
        where = {sig: n for n, sig in enumerate(sigs)}
        results = quick
    else:
        sigs = [_signature(battle, ch) for ch in chs]
        where = {}
        afters: list[B.Battle] = []
        for ch, sig in zip(chs, sigs):
            if sig not in where:
                where[sig] = len(afters)
                afters.append(_after(battle, ch))
        # a look-up each; hits off the table in one computation that holds them all from then
        # on, a retreat (a future of its own, seldom taken) computed on its own
        now = next((i for i, x in enumerate(afters) if x is battle), None)
        results = odds_many(afters, together=d["kind"] == "hit", now=now)
    for i, (ch, sig) in enumerate(zip(chs, sigs)):
        result = results[where[sig]]
        o = {**ch, **result, "policy": ch["action"] == pol["action"]
             and ch["block"] == pol["block"]}
        if o["policy"]:
            policy_index = i
        options.append(o)
    attacker = d["side"] == battle["attacker"]
    # ``best`` stays the best by the odds (PROTOCOL.md "advise" fixes it); the device's ✓ and the
    # ``text`` follow ``advised``, a leader spared (J-2, J-17)
    bi = best_index(options, attacker, policy_index)
    ai = spare_leader(battle, options, attacker, bi, policy_index)
    return {"decision": d, "options": options, "best": options[bi], "best_index": bi,
            "advised": options[ai], "advised_index": ai, "for": "attacker" if attacker else "defender"}


SUMMARY = {   # the best choice in a sentence, by action and side (ru/uk decline the side's name)
    ("fire", "caesar"): N_("Best for Caesar: {} fires (attacker wins {}%)."),
    ("fire", "pompey"): N_("Best for Pompey: {} fires (attacker wins {}%)."),
    ("pass", "caesar"): N_("Best for Caesar: {} passes (attacker wins {}%)."),
    ("pass", "pompey"): N_("Best for Pompey: {} passes (attacker wins {}%)."),
    ("retreat", "caesar"): N_("Best for Caesar: {} retreats (attacker wins {}%)."),
    ("retreat", "pompey"): N_("Best for Pompey: {} retreats (attacker wins {}%)."),
    ("hit", "caesar"): N_("Best for Caesar: {} takes the hit (attacker wins {}%)."),
    ("hit", "pompey"): N_("Best for Pompey: {} takes the hit (attacker wins {}%)."),
}


SPARED = {    # a leader spared (J-2, J-17), by the deciding side (his): ru/uk decline both sides' names
    "caesar": N_("{} is spared: if he took the hit, Caesar's chance would rise by less than 1%, and a killed "
                 "leader is gone for good and gives Pompey 1 VP."),
    "pompey": N_("{} is spared: if he took the hit, Pompey's chance would rise by less than 1%, and a killed "
                 "leader is gone for good and gives Caesar 1 VP."),
}


def summary(advice: dict[str, Any], battle: B.Battle | None = None) -> Msg:
    """The choice advised in a sentence (``advised``, else ``best``), e.g. "Best for Caesar: Legio
    10 fires (attacker wins 69%)." (a chance under 0.5 % is "<1%", one of 99.5 % or more but
    short of 100 % ">99%", not 0 % or 100 %); when it spares a leader (``advised`` is not ``best``:
    :func:`spare_leader`, J-2, J-17), a second sentence names him and why. Blocks by their names
    when ``battle`` is given, else by their keys."""
    def name(key: str) -> Any:
        b = B.find(battle, key) if battle is not None else None
        return T.block_name(str(b["name"])) if b is not None else key

    best = advice.get("advised") or advice["best"]
    p = float(best["attacker_wins"])      # a whole percent; never a certainty it does not have
    pct: int | str = "<1" if 0 < p < 0.005 else ">99" if 0.995 <= p < 1 else round(100.0 * p)
    side = advice["decision"]["side"]
    said = Msg(SUMMARY[best["action"], side], name(best["block"]), pct)
    odds_best = advice["best"]
    if best is odds_best or best == odds_best or odds_best["action"] != "hit":
        return said
    return Msg("{} {}", said, Msg(SPARED[side], name(odds_best["target"])))
