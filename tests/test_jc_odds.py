"""Exact odds (J-14, J-15, J-16) through the console: reference values, roster blocks against the
independent brute force, and consistency of mid-battle odds with the step-by-step resolver."""
from __future__ import annotations

from itertools import product

import pytest

from tests.test_jc_bruteforce import brute_odds, spec
from tests.test_jc_support import Table

J16 = [  # J-16 reference table: (attacker, defender, surprise) -> printed values
    ("c_leg8", "p_leg5", "", (0.4128, 0.4448, 0.1425)),          # legion C3 III vs legion C2 III
    ("c_leg8", "p_leg5", "surprise=1", (0.6546, 0.2212, 0.1242)),  # the same with Mars
    ("c_caesar", "p_pompeius", "", (0.6935, 0.2053, 0.1011)),    # Caesar A3 III vs Pompey B3 III
]


@pytest.mark.parametrize("att,dfn,opts,want", J16)
def test_reference_values_j16(att, dfn, opts, want):
    # J-16: the reference values to the 4 printed digits
    t = Table(opts)
    t.run(f"add attacker {att}", f"add defender {dfn}")
    got = t.odds()
    assert sum(got) == pytest.approx(1.0, abs=1e-12)            # J-15: they sum to 1
    for g, w in zip(got, want):
        assert abs(g - w) <= 0.00005


def test_roster_special_blocks_match_the_brute_force():
    # J-2 ballista/elephant/Cleopatra from the roster data, J-8/J-9 reserves; exact to 1e-9
    t = Table()
    t.run("owner cleopatra caesar", "add attacker c_caesar strength=2", "add attacker cleopatra strength=2",
          "add attacker c_ballista strength=2 reserve=1", "add defender p_elephant strength=2",
          "add defender p_aux3 strength=1", "add defender p_leg37 strength=2 reserve=1")
    want = brute_odds([spec("A", "A3", 2, leader=True, max=3), spec("A", "C1", 2, cleo=True),
                       spec("A", "B4", 2, ballista=True, reserve=True),
                       spec("D", "B3", 2, elephant=True), spec("D", "A1", 1, max=3),
                       spec("D", "C2", 2, reserve=True, max=3)])
    for g, w in zip(t.odds(), want):
        assert g == pytest.approx(w, abs=1e-9)


def _table_after(lines: list[str]) -> Table:
    t = Table()
    t.run(*lines)
    return t


def _expected_after_fire(lines: list[str], n_dice: int) -> tuple[float, float, float]:
    """Average the exact odds after every face combination of the next fire (J-14 for ties)."""
    acc = [0.0, 0.0, 0.0]
    for faces in product(range(1, 7), repeat=n_dice):
        t = _table_after(lines)
        t.do("fire dice=" + ",".join(map(str, faces)))
        while t.decision and t.decision["kind"] == "hit":
            t.do("hit")
        if t.battle["phase"] == "over":
            r = t.battle["result"]
            o = tuple(float(r == k) for k in ("attacker_wins", "attacker_eliminated", "defender_holds"))
        else:
            o = t.odds()
        for i in range(3):
            acc[i] += o[i] / 6 ** n_dice
    return (acc[0], acc[1], acc[2])


SETUP = ["add attacker rating=A3 strength=2 name=a", "add attacker rating=C2 strength=2 name=c",
         "add attacker rating=C3 strength=2 reserve=1 name=r",
         "add defender rating=B2 strength=2 name=b", "add defender rating=C1 strength=1 name=d",
         "add defender rating=B4 strength=2 ballista=1 reserve=1 name=bal", "start"]


def test_odds_before_a_fire_average_the_odds_after_it():
    # J-15: odds from any point agree with the resolver: P(now) = sum over dice of P(after)
    before = _table_after(SETUP).odds()
    after = _expected_after_fire(SETUP, 2)
    for x, y in zip(before, after):
        assert x == pytest.approx(y, abs=1e-9)


def test_odds_across_a_disruption_and_role_swap():
    # J-9: the same identity when the next fire may end the defender's main force (and swap roles)
    lines = SETUP + ["fire a dice=1,6", "pass b", "pass d"]
    t = _table_after(lines)
    assert t.decision["blocks"] == ["c"]
    assert t.block("b")["strength"] == 1 and t.block("d")["strength"] == 1
    before = t.odds()
    after = _expected_after_fire(lines, 2)
    for x, y in zip(before, after):
        assert x == pytest.approx(y, abs=1e-9)


def test_odds_with_a_hit_waiting_use_the_j14_choice():
    # J-14: a pending owner's choice is valued as the policy would make it
    t = _table_after(SETUP + ["fire a dice=1,1"])      # b II->I, then b I or d I
    assert t.decision["kind"] == "hit" and sorted(t.decision["choices"]) == ["b", "d"]
    waiting = t.odds()
    t.do("hit")
    assert t.odds() == pytest.approx(waiting, abs=1e-12)


def test_after_an_attacker_retreats_it_can_no_longer_be_eliminated():
    # J-15 / J-6: a retreated attacking block means the attacker cannot be wiped out any more
    t = Table()
    t.run("add attacker rating=A1 strength=1 name=a", "add attacker rating=C1 strength=1 name=c",
          "add defender rating=B4 strength=4 name=d", "start", "pass a", "pass d", "pass c")
    assert t.battle["round"] == 2 and t.odds()[1] > 0.5
    t.do("retreat a")
    w, e, h = t.odds()
    assert e == 0.0 and h > 0.5 and w + e + h == pytest.approx(1.0)


def test_odds_command_changes_nothing_and_needs_both_sides():
    t = Table()
    t.do("add attacker c_leg10")
    msg = t.fails("odds", "illegal_move")
    assert "defender" in msg
    t.do("add defender p_leg1 reserve=1")
    t.fails("odds", "illegal_move")            # a side needs a main force (J-8)


@pytest.mark.parametrize("rule", ["", "cleopatra=round"])
def test_odds_when_cleopatra_takes_a_passed_turn(rule):
    # J-10 + J-2: in a surprise round 1 an attacking D block kills Cleopatra after the attacking
    # C step; she joins the attacker and acts at once (rules 7.52, a line without the option) or,
    # under the round rule (the Russian edition: «в следующий раунд боя»), from round 2. The odds
    # before that fire must average the odds after it (resolver and DP agree on her turn, and
    # the D block does not act twice).
    t = Table(f"surprise=1 {rule}")
    setup = ["add attacker rating=A1 strength=1 name=a", "add attacker c_ballista strength=2",
             "add defender cleopatra strength=2", "add defender rating=B1 strength=1 name=b",
             "start", "pass a"]
    t.run(*setup)
    assert t.decision["blocks"] == ["c_ballista"] and t.block("c_ballista")["rating"] == "D4"
    before = t.odds()
    acc = [0.0, 0.0, 0.0]
    turned = 0
    for faces in product(range(1, 7), repeat=2):
        u = Table(f"surprise=1 {rule}")
        u.run(*setup)
        u.do("fire dice=" + ",".join(map(str, faces)))
        while u.decision and u.decision["kind"] == "hit":
            u.do("hit")
        if u.block("cleopatra")["side"] == "caesar":
            turned += 1
            if rule:
                assert u.decision["blocks"] == ["b"] and u.battle["round"] == 1
            else:
                assert u.decision["blocks"] == ["cleopatra"] and u.decision["role"] == "attacker"
        o = u.odds()
        for i in range(3):
            acc[i] += o[i] / 36
    assert turned > 0
    for x, y in zip(before, acc):
        assert x == pytest.approx(y, abs=1e-9)


@pytest.mark.parametrize("rule", ["round", "turn"])
def test_odds_before_caesar_s_fire_average_the_odds_after_it_under_either_cleopatra_rule(rule):
    # J-2 both ways, J-15: the coordinator's repro one fire earlier — Caesar's 3 dice may put
    # Cleopatra (I, hit first by J-14: the lower firepower) over to him before she has acted
    lines = ["add attacker c_caesar", "add defender cleopatra strength=1", "add defender p_leg5 strength=1",
             "start"]
    t = Table(f"cleopatra={rule}")
    t.run(*lines)
    before = t.odds()
    acc = [0.0, 0.0, 0.0]
    for faces in product(range(1, 7), repeat=3):
        u = Table(f"cleopatra={rule}")
        u.run(*lines, "fire c_caesar dice=" + ",".join(map(str, faces)))
        while u.decision and u.decision["kind"] == "hit":
            u.do("hit")
        if u.battle["phase"] == "over":
            r = u.battle["result"]
            o = tuple(float(r == k) for k in ("attacker_wins", "attacker_eliminated", "defender_holds"))
        else:
            o = u.odds()
        for i in range(3):
            acc[i] += o[i] / 216
    for x, y in zip(before, acc):
        assert x == pytest.approx(y, abs=1e-9)
