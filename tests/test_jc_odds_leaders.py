"""The exact odds (J-15) describe the fight the device makes, under either order among equally
strong blocks (J-7: the owner's choice, which Fight to the end, Device decides and Device picks
make on the owner's behalf): J-14's (a battle stored without ``leaders=``) or a leader last
(``leaders=last``, every game started now: engine/jc/battle.py ``device_choice``).

The check is an exact enumeration that shares nothing with the odds programme: it plays the
battle with the device's own moves (engine/jc/policy.py ``auto_step``, whose hits go where
``B.device_choice`` puts them), every fire once for each number of hits its dice can give
(binomial weights), and memoises on the battle's state.
"""
from __future__ import annotations

import copy
import json
import random
from math import comb
from typing import Any

import pytest

from engine.jc import battle as B
from engine.jc import odds as O
from engine.jc import odds_dp as D
from engine.jc import odds_table as G
from engine.jc import policy
from engine.jc.advise import advise
from engine.jc.roster import roster
from engine.rng import Rng
from tests.test_jc_odds_fast import TOL, _walk, random_battle


def device_odds(battle: B.Battle) -> dict[str, float]:
    """Exact odds of the battle as the device fights it from here (every decision by
    ``policy.auto_step``), by enumerating each fire's number of hits."""
    memo: dict[str, tuple[float, float, float]] = {}

    def state(b: B.Battle) -> str:
        st = {k: v for k, v in b.items() if k not in ("events", "turns")}
        if st.get("pending"):
            st["pending"] = {**st["pending"], "turn": None}     # (where its record is kept)
        return json.dumps(st, sort_keys=True, default=str)

    def value(b: B.Battle) -> tuple[float, float, float]:
        if b["phase"] == "over":
            return tuple(float(b["result"] == r) for r in B.RESULTS)    # type: ignore[return-value]
        key = state(b)
        got = memo.get(key)
        if got is not None:
            return got
        d = B.decision(b) if b["phase"] == "fighting" else None
        blk = policy.next_block(b, d) if d is not None and d["kind"] != "hit" else None
        if blk is not None and policy.action_for(b, blk) == "fire":
            n = int(blk["strength"])
            p = min(B.firepower_of(b, blk), 6) / 6.0
            acc = [0.0, 0.0, 0.0]
            for k in range(n + 1):
                c = copy.deepcopy(b)
                policy.auto_step(c, Rng(1), [1] * k + [6] * (n - k))
                w = comb(n, k) * p ** k * (1.0 - p) ** (n - k)
                for i, v in enumerate(value(c)):
                    acc[i] += w * v
            got = (acc[0], acc[1], acc[2])
        else:                                  # set-up, a hit waiting, a retreat: no dice
            c = copy.deepcopy(b)
            if c["phase"] == "setup":
                B.start(c)                     # (auto_step would go on to the first fire)
            else:
                policy.auto_step(c, Rng(1))
            got = value(c)
        memo[key] = got
        return got

    return dict(zip(B.RESULTS, value(battle)))


def _programme(battle: B.Battle) -> list[dict[str, float]]:
    """The odds programme's answers: plain Python, the array programme (forward and backward)."""
    return [D.odds_python(battle), G.odds(battle), G.odds(battle, backward=True)]


def _check(battle: B.Battle) -> None:
    before = copy.deepcopy(battle)
    want = device_odds(battle)
    for got in _programme(battle):
        for k in B.RESULTS:
            assert abs(got[k] - want[k]) <= TOL, (k, got, want, battle.get("leaders"))
    assert battle == before


def _scipio_beside_legio_34(leaders: str | None) -> B.Battle:
    """Scipio (A2, a leader) and Legio 34 (C3) both at I, Caesar attacking with two legions:
    J-14 puts Pompey's first hit on Scipio (lower firepower), a leader last on the legion."""
    r = roster()
    battle = B.new_battle("caesar", leaders=leaders)
    B.add_block(battle, r["p_scipio"], "pompey", 1, False, "p_scipio")
    B.add_block(battle, r["p_leg34"], "pompey", 1, False, "p_leg34")
    caesar = [s for s in r.values() if s.side == "caesar" and s.kind == "legion"][:2]
    for spec in caesar:
        B.add_block(battle, spec, "caesar", spec.track[1], False, spec.id)
    return battle


def test_odds_with_a_leader_tied_with_a_c3_block_follow_the_battle_s_order():
    # J-7 (the owner's choice, made by the device: a leader last with leaders=last), J-14, J-15
    last, j14 = _scipio_beside_legio_34(B.LEADERS_LAST), _scipio_beside_legio_34(None)
    _check(last)
    _check(j14)
    a, b = device_odds(last), device_odds(j14)
    assert abs(a["attacker_wins"] - b["attacker_wins"]) > 1e-3      # the order does change the fight
    # and the same battle at a hit waiting on the tie: the odds and advise's policy option
    c = copy.deepcopy(last)
    B.start(c)
    B.pass_turn(c, "p_scipio")                 # Pompey's A and C pass: both still at I
    B.pass_turn(c, "p_leg34")
    d = B.decision(c)
    assert d is not None and d["side"] == "caesar"
    n = int(B.find(c, d["blocks"][0])["strength"])      # type: ignore[index]
    B.fire(c, d["blocks"][0], [1] + [6] * (n - 1), None)    # one hit, the tie left to the owner
    assert c["pending"] and sorted(B.decision(c)["choices"]) == ["p_leg34", "p_scipio"]   # type: ignore[index]
    _check(c)
    adv = advise(c)
    pol = next(o for o in adv["options"] if o["policy"])
    assert pol["block"] == "p_leg34"                    # the device's pick: the legion, not Scipio
    now = O.odds(c)
    for k in B.RESULTS:
        assert abs(pol[k] - now[k]) <= TOL


def test_odds_equal_the_device_s_fight_on_random_battles_with_leaders_last():
    r = random.Random(20261127)
    rng = Rng(12)
    done = tied = 0
    while done < 100:
        battle = random_battle(r)
        if battle is None or O._dice(battle) > 14:         # (the enumeration's time)
            continue
        battle["leaders"] = B.LEADERS_LAST
        if r.random() < 0.5:
            battle["ties"] = B.TIES_PARTIAL
        if r.random() < 0.5:
            _walk(battle, r, rng)
        _check(battle)
        j14 = copy.deepcopy(battle)
        del j14["leaders"]
        tied += abs(D.odds_python(battle)["attacker_wins"] - D.odds_python(j14)["attacker_wins"]) > 1e-6
        done += 1
    assert tied >= 5, tied         # battles where a leader last changes the odds were among them


def test_odds_equal_the_device_s_fight_on_random_battles_with_j14_s_order():
    r = random.Random(20261128)
    rng = Rng(13)
    done = 0
    while done < 40:
        battle = random_battle(r)
        if battle is None or O._dice(battle) > 14:
            continue
        if r.random() < 0.5:
            _walk(battle, r, rng)
        _check(battle)
        done += 1


def test_j14_s_key_would_miss_the_device_s_fight(monkeypatch: pytest.MonkeyPatch):
    # the check above can fail: the programme with J-14's order everywhere gives other odds
    battle = _scipio_beside_legio_34(B.LEADERS_LAST)
    want = device_odds(battle)
    monkeypatch.setattr(B, "careful_key", B.tie_key)
    for got in _programme(battle):
        assert abs(got["attacker_wins"] - want["attacker_wins"]) > 1e-3


def _big(leaders: str | None) -> B.Battle:
    """A battle of more than O.GRID_DICE dice (the device's table) where the order matters:
    Scipio beside legions C3 at his strength."""
    r = roster()
    battle = B.new_battle("caesar", leaders=leaders)
    B.add_block(battle, r["p_scipio"], "pompey", 2, False, "p_scipio")
    for key in ("p_leg34", "p_leg35", "p_leg3"):
        B.add_block(battle, r[key], "pompey", 2, False, key)
    for spec in [s for s in r.values() if s.side == "caesar" and s.kind == "legion"][:5]:
        B.add_block(battle, spec, "caesar", spec.track[0], False, spec.id)
    return battle


def test_the_kept_table_is_not_shared_between_the_two_orders():
    # the device keeps one big battle's table (engine/jc/odds.py): the same blocks under the
    # other order are another battle
    last, j14 = _big(B.LEADERS_LAST), _big(None)
    assert O._dice(last) >= O.GRID_DICE
    O.forget()
    fresh_last = O.odds(last)
    O.forget()
    fresh_j14 = O.odds(j14)
    assert abs(fresh_last["attacker_wins"] - fresh_j14["attacker_wins"]) > 1e-6
    table = G.Table(__import__("numpy"), last)
    assert table.fits(last) and not table.fits(j14)
    for first, second, want in ((j14, last, fresh_last), (last, j14, fresh_j14)):
        O.forget()
        O.odds(first)
        got = O.odds(second)
        for k in B.RESULTS:
            assert abs(got[k] - want[k]) <= TOL
    O.forget()


def test_the_screen_s_kept_odds_tell_the_two_orders_apart():
    from firmware.screens.jc.odds import _step_key
    view: Any = {"number": 1, "phase": "fighting", "round": 1, "decision": None, "dice": "digital",
                 "surprise": False, "attacker_now": "caesar", "roles_swapped": False, "blocks": []}
    assert (_step_key(view, {"cleopatra": "turn", "leaders": "last"})      # type: ignore[typeddict-item]
            != _step_key(view, {"cleopatra": "turn"}))                      # type: ignore[typeddict-item]
