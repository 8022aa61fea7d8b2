"""An independent brute-force solver for small Julius Caesar battles, and the exact DP checked
against it to 1e-9.

The solver below shares no code with engine/jc/odds.py: it walks the battle one block turn at a
time (not one step at a time), enumerates every face of every die (no binomial formula), lets
blocks fire at an empty enemy line in round 1 instead of skipping the rest of the round, and
memoises on the full explicit state. Rules as in reference J-5..J-14 (see docs/protocol/jc.md).
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product

import pytest

from engine.jc import battle as B
from engine.jc import odds as O
from engine.jc import roster as R

OUT, RESERVE, FIGHT = 0, 1, 2
LETTERS = "ABCD"


def spec(side: str, rating: str, s: int, **kw) -> dict:
    """A block for both solvers: side 'A' (attacker) or 'D', rating like 'C3', strength ``s``;
    kw: leader, elephant, ballista, cleo, reserve."""
    return {"side": side, "rating": rating, "s": s, **kw}


@lru_cache(maxsize=None)
def _hit_counts(n: int, fp: int) -> tuple[tuple[int, int], ...]:
    """How many of the 6**n face tuples give each number of hits."""
    c = Counter(sum(1 for f in faces if f <= fp) for faces in product(range(1, 7), repeat=n))
    return tuple(sorted(c.items()))


def brute_odds(blocks: list[dict], surprise: bool = False, cleopatra: str = "turn") -> tuple[float, float, float]:
    """(attacker wins, attacker eliminated, defender holds) by exhaustive enumeration; ``cleopatra``:
    J-2's rule, ``round`` (she fights for the side she joins from the next round: her change of side
    counts as her turn in this one) or ``turn`` (on her next battle turn, this round if still to come)."""
    n = len(blocks)
    static = []
    for i, b in enumerate(blocks):
        letter, fp = b["rating"][0], int(b["rating"][1])
        if b.get("elephant"):
            track = (4, 2)
        elif b.get("cleo"):
            track = (4, 3, 2, 1)
        else:
            track = tuple(range(b.get("max", b["s"]), 0, -1))
        static.append({"letter": letter, "fp": fp, "track": track, "seq": i,
                       "leader": bool(b.get("leader")), "ballista": bool(b.get("ballista")),
                       "cleo": bool(b.get("cleo")), "reserve": bool(b.get("reserve"))})

    def attacking(swapped: bool) -> str:
        return "D" if swapped else "A"

    def letter_now(i: int, owner: tuple, swapped: bool) -> str:
        if static[i]["ballista"]:
            return "D" if owner[i] == attacking(swapped) else "B"
        return static[i]["letter"]

    def fp_now(i: int) -> int:
        return 4 if static[i]["ballista"] else static[i]["fp"]

    def order(rnd: int, swapped: bool) -> list[tuple[str, str]]:
        att = attacking(swapped)
        dfn = "A" if att == "D" else "D"
        if surprise and rnd == 1:
            return [(att, x) for x in LETTERS] + [(dfn, x) for x in LETTERS]
        out = []
        for x in LETTERS:
            out += [(dfn, x), (att, x)]
        return out

    def one_step_down(i: int, s: int) -> int:
        track = static[i]["track"]
        k = track.index(s)
        return track[k + 1] if k + 1 < len(track) else 0

    def wipe(i: int, st: list, owner: list, where: list, to_side: str) -> int:
        """Block ``i`` is eliminated; Cleopatra instead joins ``to_side`` at strength I. Returns the
        acted bits it sets (her turn of this round, under the ``round`` rule)."""
        if static[i]["cleo"]:
            owner[i] = to_side
            st[i] = 1
            where[i] = FIGHT
            return 1 << i if cleopatra == "round" else 0
        st[i] = 0
        where[i] = OUT
        return 0

    def outcome(holder: str, aret: bool) -> tuple[float, float, float]:
        if holder == "A":
            return (1.0, 0.0, 0.0)
        return (0.0, 0.0, 1.0) if aret else (0.0, 1.0, 0.0)

    @lru_cache(maxsize=None)
    def value(rnd: int, acted: int, st: tuple, owner: tuple, where: tuple, swapped: bool,
              aret: bool) -> tuple[float, float, float]:
        present = {x: any(where[i] != OUT and owner[i] == x for i in range(n)) for x in "AD"}
        if not present["D"]:
            return outcome("A", aret)
        if not present["A"]:
            return outcome("D", aret)
        actor = None
        for side, letter in order(rnd, swapped):
            for i in range(n):
                if (owner[i] == side and where[i] == FIGHT and not acted >> i & 1
                        and letter_now(i, owner, swapped) == letter):
                    actor = i
                    break
            if actor is not None:
                break
        if actor is None:
            if rnd == 4:
                return outcome("A" if swapped else "D", aret)   # attackers left after round 4
            return new_round(rnd + 1, st, owner, where, swapped, aret)
        i = actor
        acted2 = acted | (1 << i)
        me = owner[i]
        if rnd == 4 and me == attacking(swapped):               # J-6: must retreat
            w = list(where)
            w[i] = OUT
            return value(rnd, acted2, st, owner, tuple(w), swapped, aret or me == "A")
        total = [0.0, 0.0, 0.0]
        for hits, count in _hit_counts(st[i], fp_now(i)):
            p = count / 6 ** st[i]
            s2, o2, w2 = list(st), list(owner), list(where)
            acted3 = acted2
            for _ in range(hits):
                targets = [j for j in range(n) if o2[j] != me and w2[j] == FIGHT]
                if not targets:
                    break
                top = max(s2[j] for j in targets)
                tied = [j for j in targets if s2[j] == top]
                j = min(tied, key=lambda j: (fp_now(j), static[j]["leader"], static[j]["seq"]))
                down = one_step_down(j, s2[j])
                if down:
                    s2[j] = down
                else:
                    acted3 |= wipe(j, s2, o2, w2, me)
            r = value(rnd, acted3, tuple(s2), tuple(o2), tuple(w2), swapped, aret)
            for k in range(3):
                total[k] += p * r[k]
        return tuple(total)

    def new_round(rnd: int, st: tuple, owner: tuple, where: tuple, swapped: bool,
                  aret: bool) -> tuple[float, float, float]:
        s2, o2, w2 = list(st), list(owner), list(where)
        acted = 0
        if rnd == 2:
            for side in "AD":
                reserves = [j for j in range(n) if o2[j] == side and w2[j] == RESERVE]
                if not reserves:
                    continue
                main_gone = not any(o2[j] == side and w2[j] == FIGHT for j in range(n))
                for j in reserves:
                    w2[j] = FIGHT
                if main_gone:
                    for j in reserves:
                        down = one_step_down(j, s2[j])
                        if down:
                            s2[j] = down
                        else:
                            acted |= wipe(j, s2, o2, w2, "D" if side == "A" else "A")
                    if side == "D":
                        swapped = True
        return value(rnd, acted, tuple(s2), tuple(o2), tuple(w2), swapped, aret)

    st0 = tuple(b["s"] for b in blocks)
    owner0 = tuple(b["side"] for b in blocks)
    where0 = tuple(RESERVE if b.get("reserve") else FIGHT for b in blocks)
    return value(1, 0, st0, owner0, where0, False, False)


def engine_battle(blocks: list[dict], surprise: bool = False, cleopatra: str = "turn") -> B.Battle:
    """The same battle built with the engine (attacker Caesar, defender Pompey)."""
    battle = B.new_battle("caesar", surprise, cleopatra=cleopatra)
    for i, b in enumerate(blocks):
        side = "caesar" if b["side"] == "A" else "pompey"
        if b.get("cleo"):
            spec_ = R.roster()["cleopatra"]
        else:
            spec_ = R.rated_block(b["rating"], b.get("max", b["s"]), side, name=f"b{i}",
                                  leader=bool(b.get("leader")), elephant=bool(b.get("elephant")),
                                  ballista=bool(b.get("ballista")))
        B.add_block(battle, spec_, side, b["s"], bool(b.get("reserve")), f"b{i}")
    return battle


def dp_odds(blocks: list[dict], surprise: bool = False, cleopatra: str = "turn") -> tuple[float, float, float]:
    r = O.odds(engine_battle(blocks, surprise, cleopatra))
    return (r["attacker_wins"], r["attacker_eliminated"], r["defender_holds"])


CASES = {
    # J-16 first line, as a sanity anchor for the solver itself
    "single_c3_c2": ([spec("A", "C3", 3), spec("D", "C2", 3)], False),
    # J-5: letters and the defender-first tie; J-7: hits to the strongest, J-14 ties
    "letters_and_ties": ([spec("A", "A2", 2, leader=True), spec("A", "C3", 2),
                          spec("D", "B2", 2), spec("D", "C2", 2), spec("D", "A1", 1)], False),
    # J-10: surprise
    "surprise_two_each": ([spec("A", "B3", 2), spec("A", "D2", 2),
                           spec("D", "B2", 2), spec("D", "C3", 2)], True),
    # J-8: reserves on both sides (not hit in round 1)
    "reserves_both": ([spec("A", "C3", 2), spec("A", "B2", 2, reserve=True),
                       spec("D", "C2", 2), spec("D", "C3", 2, reserve=True)], False),
    # J-9: a weak defender main force, a reserve ballista: disruption, role swap, ballista D4
    "disruption_swap_ballista": ([spec("A", "A3", 3, leader=True), spec("A", "C2", 2),
                                  spec("D", "C1", 1), spec("D", "B4", 2, ballista=True, reserve=True),
                                  spec("D", "B1", 1, reserve=True)], False),
    # J-9 on the attacker side: main force dies, reserves disrupted, no swap
    "attacker_disrupted": ([spec("A", "C1", 1), spec("A", "C2", 2, reserve=True),
                            spec("D", "A4", 3)], False),
    # J-2: elephant IV -> II -> out, counted 4/2 as the strongest
    "elephant": ([spec("A", "C3", 3), spec("A", "C2", 2),
                  spec("D", "B3", 4, elephant=True), spec("D", "C2", 3)], False),
    # J-2: the attacking ballista fires as D4, the defending one as B4
    "ballistae": ([spec("A", "B4", 2, ballista=True), spec("A", "C2", 2),
                   spec("D", "B4", 2, ballista=True), spec("D", "C3", 2)], False),
    # J-2: Cleopatra switches sides when eliminated and fights for the other side
    "cleopatra_defending": ([spec("A", "A2", 3), spec("A", "C2", 2),
                             spec("D", "C1", 2, cleo=True), spec("D", "B2", 2)], False),
    "cleopatra_attacking_surprise": ([spec("A", "C1", 1, cleo=True), spec("A", "D4", 2),
                                      spec("D", "B4", 2, ballista=True), spec("D", "C2", 1)], True),
    "cleopatra_reserve_disrupted": ([spec("A", "A3", 3), spec("D", "C1", 1),
                                     spec("D", "C1", 1, cleo=True, reserve=True),
                                     spec("D", "B2", 1, reserve=True)], False),
    # surprise round 1: she falls to an attacking D block after the attacking C step, joins the
    # attacker without having acted, and takes her turn for it at once (rules 7.52)
    "cleopatra_catch_up": ([spec("A", "B4", 2, ballista=True), spec("A", "C2", 1),
                            spec("D", "C1", 2, cleo=True), spec("D", "B1", 1)], True),
    # a bigger mix: reserves on both sides, leaders, ties, round-4 retreats at several letters
    "three_each_reserves": ([spec("A", "A2", 2, leader=True), spec("A", "C3", 2),
                             spec("A", "B1", 2, reserve=True),
                             spec("D", "B2", 2), spec("D", "C2", 2, max=3),
                             spec("D", "D3", 2, reserve=True)], False),
    # J-14 tie rule: equal strength, lower firepower first, then non-leader, then entry order
    "tie_rule": ([spec("A", "A3", 3), spec("D", "B3", 2, leader=True), spec("D", "C2", 2),
                  spec("D", "C2", 2)], False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_dp_matches_brute_force(name):
    # J-15: the DP is exact; checked against independent enumeration to 1e-9
    blocks, surprise = CASES[name]
    want = brute_odds(blocks, surprise)
    got = dp_odds(blocks, surprise)
    assert sum(got) == pytest.approx(1.0, abs=1e-12)
    for g, w in zip(got, want):
        assert g == pytest.approx(w, abs=1e-9), (name, got, want)


def test_brute_force_reproduces_j16_reference():
    # J-16: the solver itself agrees with the printed reference values
    w, e, h = brute_odds([spec("A", "C3", 3), spec("D", "C2", 3)])
    assert (round(w, 4), round(e, 4), round(h, 4)) == (0.4128, 0.4448, 0.1425)
    w, e, h = brute_odds([spec("A", "A3", 3, leader=True), spec("D", "B3", 3, leader=True)])
    assert (round(w, 4), round(e, 4), round(h, 4)) == (0.6935, 0.2053, 0.1011)


def _random_battle(rng) -> tuple[list[dict], bool]:
    """A small random battle: 1-3 blocks a side, any letters, reserves, special blocks."""
    blocks: list[dict] = []
    cleo_used = False
    for side in "AD":
        for k in range(1 + rng.below(3)):
            kind = rng.below(10)
            reserve = k > 0 and rng.below(3) == 0
            if kind == 0:
                blocks.append(spec(side, "B4", 1 + rng.below(2), ballista=True, reserve=reserve))
            elif kind == 1:
                blocks.append(spec(side, "B3", 2 * (1 + rng.below(2)), elephant=True, reserve=reserve))
            elif kind == 2 and not cleo_used:
                cleo_used = True
                blocks.append(spec(side, "C1", 1 + rng.below(2), cleo=True, reserve=reserve))
            else:
                rating = "ABCD"[rng.below(4)] + str(1 + rng.below(4))
                blocks.append(spec(side, rating, 1 + rng.below(3), leader=kind == 3, reserve=reserve))
    return blocks, rng.below(4) == 0


def test_dp_matches_brute_force_on_random_small_battles():
    # J-15 over many shapes: 40 random small battles, exact to 1e-9
    from engine.rng import Rng
    rng = Rng(1234)
    seen: Counter[str] = Counter()
    for _ in range(40):
        blocks, surprise = _random_battle(rng)
        seen.update(k for b in blocks for k in ("reserve", "cleo", "elephant", "ballista", "leader") if b.get(k))
        seen["surprise"] += surprise
        want = brute_odds(blocks, surprise)
        got = dp_odds(blocks, surprise)
        for g, w in zip(got, want):
            assert g == pytest.approx(w, abs=1e-9), (blocks, surprise, got, want)
    assert min(seen.values()) >= 3 and len(seen) == 6          # every feature was exercised


CLEOPATRA_CASES = sorted(name for name in CASES if name.startswith("cleopatra"))


@pytest.mark.parametrize("name", CLEOPATRA_CASES)
def test_dp_matches_brute_force_under_the_round_rule_for_cleopatra(name):
    # J-2 (the Russian edition's wording: she fights for her new side «в следующий раунд боя»):
    # exact to 1e-9 against the enumeration, and not the turn rule's odds where she can change side
    # before her turn for the side she joins
    blocks, surprise = CASES[name]
    want = brute_odds(blocks, surprise, "round")
    got = dp_odds(blocks, surprise, "round")
    assert sum(got) == pytest.approx(1.0, abs=1e-12)
    for g, w in zip(got, want):
        assert g == pytest.approx(w, abs=1e-9), (name, got, want)


def test_the_two_cleopatra_rules_give_other_odds():
    # J-2: the cases where she falls before her turn for the side she joins play otherwise
    differ = [name for name in CLEOPATRA_CASES
              if max(abs(a - b) for a, b in zip(brute_odds(*CASES[name], "round"), brute_odds(*CASES[name]))) > 1e-6]
    assert {"cleopatra_catch_up", "cleopatra_defending", "cleopatra_reserve_disrupted"} <= set(differ), differ


def test_dp_matches_brute_force_on_random_small_battles_with_cleopatra_under_both_rules():
    # J-2 both ways, J-15: 30 random small battles with Cleopatra, exact to 1e-9
    from engine.rng import Rng
    rng = Rng(4321)
    done = 0
    while done < 30:
        blocks, surprise = _random_battle(rng)
        if not any(b.get("cleo") for b in blocks):
            continue
        rule = ("round", "turn")[done % 2]
        want = brute_odds(blocks, surprise, rule)
        got = dp_odds(blocks, surprise, rule)
        for g, w in zip(got, want):
            assert g == pytest.approx(w, abs=1e-9), (blocks, surprise, rule, got, want)
        done += 1
