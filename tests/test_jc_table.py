"""The odds table of a big battle (issue 25, J-14, J-15): one forward and one backward pass, then
every later question a look-up. Any point the console can reach — physical dice, hits put on a
block J-14 would spare, passes, retreats (also blocked), reserves arriving and disrupted,
Mars/Neptune, Cleopatra changing side — is either answered from the table or computed once from
there; never a wrong answer: each is checked against the independent oracle
(tests/odds_reference.py) to 1e-9."""
from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.jc import advise as A
from engine.jc import battle as B
from engine.jc import odds as O
from engine.jc import odds_dp as D
from engine.jc import odds_grid as G
from engine.jc import odds_table as T
from engine.jc import policy
from engine.jc.roster import roster
from tests import odds_reference as REF
from tests.test_jc_odds_fast import TOL

RESULTS = B.RESULTS


def table_battle(r: random.Random, cleopatra: str = "turn") -> B.Battle:
    """3 to 5 land blocks a side from each side's roster at random strengths, some reserves
    (J-8), Cleopatra with either side half the time (J-2; ``cleopatra``: the rule of her turn after
    she changes side), Mars a third of the time (J-10); at least GRID_DICE dice, so the table
    answers, and small enough for the oracle."""
    while True:
        battle = B.new_battle(r.choice(["caesar", "pompey"]), surprise=r.random() < 0.33, cleopatra=cleopatra)
        land = [s for s in roster().values() if s.kind not in ("navis", "cleopatra")]
        for side in ("caesar", "pompey"):
            mine = [s for s in land if s.side == side]
            for n, spec in enumerate(r.sample(mine, r.randint(3, 5))):
                B.add_block(battle, spec, side, r.choice(spec.track), n >= 2 and r.random() < 0.4,
                            spec.id or f"{side}{n}")
        if r.random() < 0.5:
            spec = roster()["cleopatra"]
            B.add_block(battle, spec, r.choice(["caesar", "pompey"]), r.choice([1, 1, 2, *spec.track]),
                        r.random() < 0.3, "cleopatra")          # (weak: she often changes side)
        dice = sum(int(x["strength"]) for x in battle["blocks"])
        if O.GRID_DICE <= dice <= 34:
            return battle


def _move(battle: B.Battle, r: random.Random, seen: set[str]) -> None:
    """One decision taken as a player might: any legal choice, dice typed in (physical) or rolled."""
    d = B.decision(battle)
    assert d is not None
    if d["kind"] == "hit":
        pick = r.choice(d["choices"])
        if pick != policy.choose_hit(battle, [B.find(battle, k) for k in d["choices"]])["key"]:
            seen.add("hit off J-14")
        B.assign_hit(battle, pick, policy.choose_hit)
        return
    key = r.choice(d["blocks"])
    act = r.choice(d["actions"]) if r.random() < 0.35 else ("fire" if "fire" in d["actions"] else "retreat")
    seen.add(act)
    if act == "fire":
        b = B.find(battle, key)
        assert b is not None
        faces = [r.randint(1, 6) for _ in range(int(b["strength"]))]
        B.fire(battle, key, faces, None)                      # physical dice; ties wait for a hit
    elif act == "retreat":
        blocked = r.random() < 0.15 and "fire" not in d["actions"]     # only a retreat it must make (7.6)
        seen.add("blocked" if blocked else "retreat")
        B.retreat(battle, key, blocked=blocked)
    else:
        B.pass_turn(battle, key)


def _decisions(r: random.Random, battles: int, seen: set[str], steps: int = 40,
               built: bool = True) -> Iterator[tuple[B.Battle, dict[str, Any]]]:
    """Each decision of ``battles`` random big battles (their table built first if ``built``),
    up to ``steps`` a battle; once the caller is done with one, it is taken as a player might
    (:func:`_move`)."""
    for _ in range(battles):
        battle = table_battle(r)
        O.forget()
        if built:
            O.odds(battle)
        B.start(battle)
        for _step in range(steps):
            if battle["phase"] != "fighting":
                break
            d = B.decision(battle)
            assert d is not None
            yield battle, d
            _move(battle, r, seen)


def _check(battle: B.Battle, got: dict[str, float]) -> None:
    want = REF.odds(battle)
    assert abs(sum(got.values()) - 1.0) < 1e-12
    for k in RESULTS:
        assert abs(got[k] - want[k]) <= TOL, (k, got, want)


def test_every_point_of_a_game_is_a_look_up_or_one_computation_never_a_wrong_answer():
    r = random.Random(2501)
    seen: set[str] = set()
    asked = looked_up = 0
    for _ in range(8):
        battle = table_battle(r)
        O.forget()
        _check(battle, O.odds(battle))                        # the first answer: the forward pass
        assert O.computations() == 1
        for _step in range(40):
            if battle["phase"] != "fighting" and battle["phase"] != "setup":
                break
            if battle["phase"] == "setup":
                B.start(battle)
            else:
                _move(battle, r, seen)
            seen.update(e["event"] for e in battle["events"])
            before = copy.deepcopy(battle)
            n0 = O.computations()
            got = O.odds(battle)
            assert battle == before                           # read-only
            assert O.computations() - n0 <= 1                 # a look-up, or computed once from here
            looked_up += O.computations() == n0
            asked += 1
            _check(battle, got)
            n1 = O.computations()
            assert O.odds(battle) == got and O.computations() == n1     # asked again: looked up
    assert looked_up >= asked // 2                            # most answers are look-ups
    assert {"hit off J-14", "pass", "retreat", "blocked", "arrive", "disrupt", "cleopatra"} <= seen, seen


def test_under_the_round_rule_every_point_and_option_with_cleopatra_equals_the_oracle():
    """J-2 (the Russian edition: Cleopatra fights for the side she joins «в следующий раунд
    боя»): random big battles with her, walked as players might; at every point the odds (a
    look-up or one computation) and, at a sample, every ``advise`` option equal the oracle."""
    r = random.Random(2711)
    seen: set[str] = set()
    games = 0
    while games < 6:
        battle = table_battle(r, "round")
        cleo = B.find(battle, "cleopatra")
        if cleo is None:
            continue
        cleo["strength"], cleo["reserve"], cleo["status"] = 1, False, "fight"   # (she changes side soon)
        games += 1
        O.forget()
        _check(battle, O.odds(battle))
        B.start(battle)
        for _step in range(40):
            if battle["phase"] != "fighting":
                break
            n0 = O.computations()
            _check(battle, O.odds(battle))
            assert O.computations() - n0 <= 1
            if r.random() < 0.3:
                for o in A.advise(battle)["options"]:
                    want = REF.odds(A._after(battle, o))
                    for k in RESULTS:
                        assert abs(o[k] - want[k]) <= TOL, (o, want)
            _move(battle, r, seen)
            seen.update(e["event"] for e in battle["events"])
    assert "cleopatra" in seen, seen


def test_a_table_of_one_cleopatra_rule_does_not_answer_for_the_other():
    """J-2: the same blocks under the other rule are another battle: computed afresh, not looked up."""
    r = random.Random(2712)
    battle = table_battle(r, "round")
    while not any(x["kind"] == "cleopatra" for x in battle["blocks"]):
        battle = table_battle(r, "round")
    O.forget()
    _check(battle, O.odds(battle))
    other = copy.deepcopy(battle)
    other["cleopatra"] = "turn"
    n0 = O.computations()
    _check(other, O.odds(other))
    assert O._TABLE[0].rule == "turn" and O.computations() == 1 and n0 == 1


def test_a_j14_game_is_looked_up_after_its_first_answer():
    """Played by the policy with digital dice, every later point is in the table."""
    r = random.Random(7)
    from engine.rng import Rng
    for seed in range(4):
        battle = table_battle(r)
        O.forget()
        O.odds(battle)
        rng = Rng(seed)
        B.start(battle)
        while battle["phase"] == "fighting":
            policy.auto_step(battle, rng)
            got = O.odds(battle)
            assert O.computations() == 1
            if r.random() < 0.3:
                _check(battle, got)


def test_advice_is_looked_up_or_computed_once_and_equals_the_oracle():
    """``advise``: fire and pass are looked up; the hit options off the table are computed in
    one pass together, a retreat on its own (J-5, J-6, J-7, J-14)."""
    r = random.Random(31)
    kinds: set[str] = set()
    for battle, d in _decisions(r, 6, set(), steps=30, built=False):
        n0 = O.computations()
        adv = A.advise(battle)
        spent = O.computations() - n0
        opts = adv["options"]
        retreats = sum(o["action"] == "retreat" for o in opts)
        assert spent <= (1 if d["kind"] == "hit" else 1 + retreats)
        if r.random() < 0.5:                                  # (the oracle is slow: a sample)
            for o in opts:
                kinds.add(o["action"])
                c = A._after(battle, o)
                want = REF.odds(c)
                for k in RESULTS:
                    assert abs(o[k] - want[k]) <= TOL, (o, want)
    assert {"fire", "pass", "retreat", "hit"} <= kinds


def test_the_table_holds_its_values_to_the_budget():
    """Every state the table holds answers within BUDGET of 1 in all, and a state it does not
    hold, or holds with too much mass unfollowed, is not answered from it."""
    r = random.Random(3)
    battle = table_battle(r)
    O.forget()
    O.odds(battle)
    O.finish()
    table = O._TABLE[0]
    sheet = table.sheets[0]
    import numpy as np
    held = 0
    for (rnd, j), groups in sheet.bounds.items():
        for sw, bd in groups.items():
            f, a, d = G.unkey(bd.keys, bd.orient, bd.bits)
            total = bd.full(np).sum(axis=1)
            assert (total <= 1.0 + 1e-12).all()
            ok = 1.0 - total <= O.BUDGET
            held += int(ok.sum())
            for i in np.flatnonzero(~ok)[:3].tolist():        # too much unfollowed: not answered
                pos = T.Position(rnd, j, frozenset(), sw, int(f[i]), int(a[i]), int(d[i]))
                assert table.value(pos) is None
    assert held > 100


def test_bigger_battles_walked_off_the_policy_equal_the_oracle():
    """Bigger battles (5 to 9 blocks a side): a few points each, off the policy."""
    r = random.Random(11)
    from tests.test_jc_odds_grid import big_battle
    for _ in range(3):
        battle = big_battle(r)
        O.forget()
        O.odds(battle)
        for _step in range(8):
            if battle["phase"] == "setup":
                B.start(battle)
            elif battle["phase"] == "fighting":
                _move(battle, r, set())
            else:
                break
        n0 = O.computations()
        got = O.odds(battle)
        assert O.computations() - n0 <= 1
        _check(battle, got)


def test_a_hit_on_the_other_of_two_alike_legions_is_the_j14_position():
    """Two legions C2 entered one after the other (nothing between them in J-14's order): a hit
    on the later one leaves the same battle as J-14's hit on the earlier (J-7, J-14), so its
    odds are looked up, and they equal the oracle's."""
    battle = B.new_battle("caesar")
    for key in ("c_caesar", "c_leg10", "c_leg8", "c_leg21"):
        B.add_block(battle, roster()[key], "caesar", roster()[key].max_strength, False, key)
    for key in ("p_leg1", "p_leg2", "p_pompeius", "p_leg3"):       # p_leg1, p_leg2: C2, IV
        B.add_block(battle, roster()[key], "pompey", roster()[key].max_strength, False, key)
    O.forget()
    O.odds(battle)
    B.start(battle)
    B.fire(battle, "c_caesar", [1, 6, 6], None)                         # one hit, a tie at IV
    d = B.decision(battle)
    assert d is not None and d["kind"] == "hit" and {"p_leg1", "p_leg2"} <= set(d["choices"])
    n0 = O.computations()
    later = copy.deepcopy(battle)
    B.assign_hit(later, "p_leg2", policy.choose_hit)                  # J-14 would hit p_leg1
    got = O.odds(later)
    assert O.computations() == n0                                     # a look-up
    _check(later, got)
    first = copy.deepcopy(battle)
    B.assign_hit(first, "p_leg1", policy.choose_hit)
    assert all(abs(got[k] - O.odds(first)[k]) <= 1e-12 for k in RESULTS)


def test_after_the_role_swap_the_table_still_answers():
    """J-9: the defender's main force falls in round 1, its reserves arrive disrupted and the
    attacker becomes the defender; the odds from there (the other schedule) are looked up or
    computed once, and equal the oracle."""
    battle = B.new_battle("caesar")
    for key in ("c_caesar", "c_leg10", "c_leg8", "c_leg21", "c_leg17"):
        B.add_block(battle, roster()[key], "caesar", roster()[key].max_strength, False, key)
    B.add_block(battle, roster()["p_aux1"], "pompey", 1, False, "p_aux1")           # main: one step
    for key in ("p_leg1", "p_leg2", "p_leg3"):
        B.add_block(battle, roster()[key], "pompey", roster()[key].max_strength, True, key)
    O.forget()
    _check(battle, O.odds(battle))
    B.start(battle)
    B.fire(battle, "c_caesar", [1, 6, 6], None)                       # the main force is gone
    assert battle["round"] == 2 and battle["swapped"]
    from engine.rng import Rng
    rng = Rng(4)
    for _ in range(12):
        if battle["phase"] != "fighting":
            break
        n0 = O.computations()
        got = O.odds(battle)
        assert O.computations() - n0 <= 1
        _check(battle, got)
        policy.auto_step(battle, rng)


def test_every_option_at_hit_and_retreat_decisions_equals_the_oracle():
    """``advise`` at every decision with a tied hit (J-7, J-14) or a retreat (J-5, J-6) of random
    big battles walked as players might: every option (each target, each block's fire, pass and
    retreat) equals the independent oracle on the battle that option leaves, to 1e-9."""
    r = random.Random(2525)
    seen: set[str] = set()
    checked = 0
    for battle, d in _decisions(r, 8, seen):
        wide = len(d["choices"]) > 1 if d["kind"] == "hit" else "retreat" in d["actions"]
        if wide:
            adv = A.advise(battle)
            for o in adv["options"]:
                seen.add(o["action"])
                want = REF.odds(A._after(battle, o))
                for k in RESULTS:
                    assert abs(o[k] - want[k]) <= TOL, (o, want)
                checked += 1
    assert {"hit", "retreat", "fire", "pass"} <= seen and checked > 100, (seen, checked)


def test_options_worked_out_on_strengths_are_the_positions_the_battle_reaches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At every tied hit and every turn of random big battles walked as players might, the
    position the table works out for each of ``advise``'s options (a target takes the hit and
    J-14 the rest of the volley: J-7, J-14; a block fires, passes or retreats: J-5, J-6) is the
    one the battle reaches by its own moves, or none (left to those moves: J-13, J-8,
    Cleopatra J-2, round 4's end); the round's end is the next round's start as the table's
    passes take it (J-8, J-9); and ``advise`` gives the same figures either way."""
    r = random.Random(2526)
    fast: dict[str, int] = {"hit": 0, "fire": 0, "pass": 0, "retreat": 0}
    left = crossed = 0
    for battle, d in _decisions(r, 10, set()):
        if d["kind"] == "turn" or len(d["choices"]) > 1:
            table = O._TABLE[0]
            chs = A.choices(battle, d)
            got = (table.hit_positions(battle, d["choices"]) if d["kind"] == "hit" else
                   table.turn_positions(battle, [(c["action"], c["block"]) for c in chs]))
            assert got is not None and len(got) == len(chs)
            for ch, pos in zip(chs, got):
                c = A._after(battle, ch)
                if pos is None:
                    left += 1
                    continue
                assert c["phase"] == "fighting" and pos == table.position(c), (ch, pos)
                fast[ch["action"]] += 1
                crossed += pos.rnd > battle["round"]
            quick = A.advise(battle)
            with monkeypatch.context() as m:
                m.setattr(A, "hit_odds", lambda *_a: None)
                m.setattr(A, "turn_odds", lambda *_a: None)
                slow = A.advise(battle)
            for o, p in zip(quick["options"], slow["options"]):
                assert (o["action"], o["block"]) == (p["action"], p["block"])
                assert all(abs(o[k] - p[k]) <= 1e-12 for k in RESULTS), (o, p)
            assert quick["best_index"] == slow["best_index"]
    assert min(fast.values()) > 10 and left > 0 and crossed > 0, (fast, left, crossed)


def _hit_options(battle: B.Battle) -> list[list[float]]:
    return [[o[k] for k in RESULTS] for o in A.advise(battle)["options"]]


def test_odds_and_advise_at_a_hit_cost_one_computation_whichever_is_asked_first():
    """At a hit waiting for its target among equally strong blocks (J-7) of random big battles
    the table does not hold, ``odds`` then ``advise`` cost one computation, as ``advise`` then
    ``odds`` do: whichever comes first values every target (J-14 for the rest, J-15), the other
    looks it up. The figures are the same either way (to 1e-9) and ``odds`` equals the oracle."""
    r = random.Random(2533)
    seen: set[str] = set()
    asked = 0
    for battle, d in _decisions(r, 10, seen, built=False):
        if d["kind"] != "hit" or len(d["choices"]) < 2 or O._dice(D._settled(battle)) < O.GRID_DICE:
            continue                                          # (a small battle: no table)
        O.forget()
        first = O.odds(battle)
        options = _hit_options(battle)
        assert O.computations() == 1, d
        O.forget()
        options_first = _hit_options(battle)
        again = O.odds(battle)
        assert O.computations() == 1, d
        assert all(abs(again[k] - first[k]) <= 1e-9 for k in RESULTS)
        assert all(abs(x - y) <= 1e-9 for a, b in zip(options, options_first) for x, y in zip(a, b))
        _check(battle, first)
        asked += 1
    assert asked >= 5, asked


def test_odds_at_a_hit_the_table_holds_stay_a_look_up():
    """A J-14 game's tied hit (J-7) is in the table of its first answer: ``odds`` there is a
    look-up, not a computation of every target (that waits for ``advise``, once)."""
    r = random.Random(2534)
    looked_up = 0
    for battle, d in _decisions(r, 10, set()):
        if d["kind"] != "hit" or len(d["choices"]) < 2:
            continue
        table = O._TABLE[0]
        pos = table.position(D._settled(battle))
        if pos is None or table.value(pos) is None:
            continue
        n0 = O.computations()
        _check(battle, O.odds(battle))
        assert O.computations() == n0
        A.advise(battle)
        assert O.computations() - n0 <= 1
        looked_up += 1
    assert looked_up >= 3, looked_up


def test_the_odds_screen_at_a_hit_costs_one_computation():
    """The device's odds screen at a tied hit (J-7) of the biggest battle asks for the odds and
    the advice (its figures written as the advice writes them): one computation, not two."""
    from firmware.screens.jc import odds as jc
    from tests.fakectx import FakeCtx
    from tests.test_worker import BIG
    ctx = FakeCtx(*(x for x in BIG if not x.startswith("gain")),      # (its legions here at IV already)
                  "fire p_scipio dice=1,1,1", "hit c_leg18")
    d = ctx.view()["battle"]["decision"]
    assert d["kind"] == "hit" and len(d["choices"]) == 5          # Caesar, two legions, two legions
    O.forget()
    jc._CACHE.clear()
    ctx.lines.clear()
    try:
        ctx.open(jc.odds_screen())
        assert "%" in " ".join(ctx.texts()) and set(ctx.lines) == {"odds", "advise"}
        assert O.computations() == 1
    finally:
        jc._CACHE.clear()
