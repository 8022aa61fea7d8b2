"""Battle rules J-2..J-14 through the jc-battle console, with physical dice so each case is exact."""
from __future__ import annotations

import pytest

from engine.errors import LegatusError

from tests.test_jc_support import Table


def order_of_turns(t: Table) -> list[str]:
    """Pass every turn of the current round and list who acted."""
    seen = []
    rnd = t.battle["round"]
    while t.decision and t.decision["kind"] == "turn" and t.battle["round"] == rnd:
        key = t.decision["blocks"][0]
        seen.append(key)
        t.do(f"pass {key}")
    return seen


def test_turn_order_follows_the_rulebook_example():
    # J-5, rules v1.1 "Battle Turns": Caesar (A3) and Equitatus (B2) attack Pompey (B3) and Navis (D2)
    t = Table()
    t.run("add attacker c_caesar", "add attacker c_eq1", "add defender p_pompeius",
          "add defender p_nav1", "start")
    assert order_of_turns(t) == ["c_caesar", "p_pompeius", "c_eq1", "p_nav1"]


def test_defender_goes_first_within_a_letter_and_owner_orders_a_group():
    # J-5: defending C before attacking C; within one side and letter the owner chooses
    t = Table()
    t.run("add attacker c_leg8", "add attacker c_leg11", "add defender p_leg4", "start")
    assert t.decision["blocks"] == ["p_leg4"]
    t.do("pass")
    assert t.decision["role"] == "attacker" and sorted(t.decision["blocks"]) == ["c_leg11", "c_leg8"]
    msg = t.fails("fire dice=6,6,6", "illegal_move")
    assert "c_leg11" in msg and "c_leg8" in msg
    t.fails("fire p_leg4 dice=6,6,6", "illegal_move")          # not its turn
    t.do("fire c_leg11 dice=6,6,6")
    assert t.decision["blocks"] == ["c_leg8"]


def test_no_retreat_in_round_1_and_retreat_later():
    # J-5: no block may retreat in round 1; from round 2 any block may
    t = Table()
    t.run("add attacker rating=C2 strength=2 name=a", "add defender rating=C2 strength=2 name=d",
          "start")
    assert t.decision["actions"] == ["fire", "pass"]
    t.fails("retreat", "illegal_move")
    t.run("pass", "pass")
    assert t.battle["round"] == 2
    t.do("retreat d")
    assert t.block("d")["status"] == "retreated"
    assert t.battle["result"] == "attacker_wins"               # J-13: the defender left the field


def test_attackers_must_retreat_on_their_round_4_turn():
    # J-6: attacking blocks retreat on their round-4 turn; the defender may still fire first
    t = Table()
    t.run("add attacker rating=A1 strength=2 name=fast", "add attacker rating=D1 strength=2 name=slow",
          "add defender rating=B1 strength=2 name=d", "start")
    for _ in range(3):
        order_of_turns(t)
    assert t.battle["round"] == 4
    assert t.decision["blocks"] == ["fast"] and t.decision["actions"] == ["retreat"]
    t.fails("fire dice=6,6", "illegal_move")
    t.fails("pass", "illegal_move")
    t.do("retreat")
    t.do("fire dice=1,1")                                        # d (B) fires before slow (D)
    assert t.block("slow")["status"] == "eliminated"
    assert t.battle["result"] == "defender_holds"                # one attacker got away


def test_round_4_retreat_with_no_way_out_eliminates():
    # J-6 / rules 7.6: a block that cannot retreat when it must is eliminated
    t = Table()
    t.run("add attacker c_leg8", "add defender rating=B1 strength=1 name=d", "start")
    for _ in range(3):
        order_of_turns(t)
    t.do("pass d")
    t.do("retreat c_leg8 blocked=1")
    assert t.block("c_leg8")["status"] == "eliminated"
    assert t.battle["result"] == "attacker_eliminated"
    assert "c_leg8" in t.session.view()["campaign"]["eliminated"]   # J-3


def test_no_way_out_only_for_a_block_that_must_retreat():
    # J-6 / rules 3.5 («Блок, который не может отступить, когда это требуется — уничтожается»): only a
    # retreat that is required ends in elimination when there is no way out. A defender, or an
    # attacker before round 4, may fire or pass instead: `retreat blocked=1` for it eliminated it
    t = Table()
    t.run("add attacker c_leg8", "add defender rating=B1 strength=1 name=d", "start")
    order_of_turns(t)                                                    # round 1
    assert t.battle["round"] == 2
    assert "does not have to retreat" in t.fails("retreat d blocked=1", "illegal_move")
    t.do("pass d")
    assert "does not have to retreat" in t.fails("retreat c_leg8 blocked=1", "illegal_move")
    t.do("retreat c_leg8")                                               # a real retreat stays allowed
    assert t.battle["result"] == "defender_holds"


def test_each_hit_goes_to_the_strongest_block_with_the_rulebook_example():
    # J-7, rules v1.1 "Battle Hits": two hits on III, II, II: the first must take the III,
    # then all are II and the owner chooses
    t = Table()
    t.run("add attacker rating=A4 strength=2 name=a", "add defender rating=C2 strength=3 name=x",
          "add defender rating=C2 strength=2 name=y", "add defender rating=C2 strength=2 name=z",
          "start")
    t.do("fire dice=1,1")
    assert t.block("x")["strength"] == 2
    assert t.decision == {"kind": "hit", "side": "pompey", "left": 1,
                          "choices": ["x", "y", "z"], "strength": 2, "default": "x"}
    t.fails("pass", "illegal_move")
    t.fails("hit a", "illegal_move")
    t.do("hit z")
    assert [t.block(k)["strength"] for k in "xyz"] == [2, 2, 1]


def test_hits_beyond_the_last_target_are_lost_and_the_battle_ends():
    # J-7 / J-13
    t = Table()
    t.run("add attacker rating=A4 strength=4 name=a", "add defender rating=C2 strength=1 name=d",
          "start")
    out = t.do("fire dice=1,2,3,4")
    assert out["turn"]["hits"] == 4 and out["turn"]["lost"] == 3
    assert out["result"] == "attacker_wins" and t.decision is None
    t.fails("fire", "game_over")
    t.fails("odds", "game_over")
    t.fails("add attacker c_leg8", "game_over")


@pytest.mark.parametrize("lost, ru, uk", [(1, "1 хит пропал.", "1 хіт пропав."), (2, "2 хита пропали.", "2 хіти пропали."),
                                         (5, "5 хитов пропало.", "5 хітів пропало."),
                                         (21, "21 хит пропал.", "21 хіт пропав.")])
def test_the_log_counts_the_hits_lost_as_a_native_reader_does(lost, ru, uk):  # J-7
    """The battle log's «{n} hits lost» agrees with its number as the battle screen's does: five or
    more take the neuter verb («5 хитов пропало»); the log said «5 хитов пропали»."""
    from engine.jc.battle import describe_turn
    from firmware.i18n import say
    rec = {"round": 1, "block": "a", "name": "a", "rating": "A4", "strength": 4, "action": "fire",
           "dice": [1, 1, 1, 1], "hits": lost, "applied": [], "lost": lost}
    said = describe_turn(rec)
    assert say(said, "ru").endswith(ru) and say(said, "uk").endswith(uk), (say(said, "ru"), say(said, "uk"))


def test_reserves_are_not_hit_in_round_1_even_when_strongest():
    # J-7/J-8: in round 1 the strongest block is chosen among the blocks in the fight only
    t = Table()
    t.run("add attacker rating=A4 strength=3 name=a", "add defender rating=C2 strength=2 name=main",
          "add defender rating=C2 strength=1 name=main2",
          "add defender rating=C2 strength=4 reserve=1 name=res", "start")
    t.do("fire dice=1,1,6")
    assert t.block("main")["strength"] == 1 and t.block("main2")["strength"] == 1
    assert t.block("res")["strength"] == 4 and t.block("res")["status"] == "reserve"


def test_disrupted_defender_reserves_lose_a_step_and_the_roles_swap():
    # J-9: the defender's main force dies in round 1; its reserves arrive one step down
    # (a reserve at I is eliminated) and the attacker becomes the defender
    t = Table()
    t.run("add attacker rating=A4 strength=2 name=a", "add attacker rating=C2 strength=2 name=c",
          "add defender rating=C2 strength=1 name=main",
          "add defender rating=C3 strength=3 reserve=1 name=r3",
          "add defender rating=B1 strength=1 reserve=1 name=r1", "start")
    out = t.do("fire dice=1,1")          # 1 hit kills the main force, the 2nd is lost
    assert out["turn"]["lost"] == 1
    assert t.battle["round"] == 2        # nobody left to shoot at: round 1 ends at once
    assert t.block("r3")["strength"] == 2 and t.block("r1")["status"] == "eliminated"
    assert t.battle["roles_swapped"] and t.battle["attacker_now"] == "pompey"
    assert t.block("a")["role"] == "defender" and t.block("r3")["role"] == "attacker"
    # the new defender now goes first within a letter: c (C) before r3 (C)
    assert order_of_turns(t) == ["a", "c", "r3"]


def test_swapped_roles_change_the_round_4_retreat_and_the_result():
    # J-9 + J-6: after the swap the original defender must retreat in round 4; the original
    # attacker keeps the field, which is reported as attacker_wins
    t = Table()
    t.run("add attacker rating=B1 strength=1 name=a", "add defender rating=C1 strength=1 name=main",
          "add defender rating=D1 strength=2 reserve=1 name=r", "start")
    t.do("pass a")
    t.do("pass main")
    # nobody hit: no disruption, no swap
    assert not t.battle["roles_swapped"]
    t2 = Table()
    t2.run("add attacker rating=B1 strength=1 name=a", "add defender rating=C1 strength=1 name=main",
           "add defender rating=D1 strength=2 reserve=1 name=r", "start", "fire dice=1")
    assert t2.battle["roles_swapped"] and t2.block("r")["strength"] == 1
    for _ in range(2):
        order_of_turns(t2)
    assert t2.battle["round"] == 4
    t2.do("pass a")
    assert t2.decision["blocks"] == ["r"] and t2.decision["actions"] == ["retreat"]
    t2.do("retreat")
    assert t2.battle["result"] == "attacker_wins" and t2.battle["winner"] == "caesar"


def test_ballista_rating_depends_on_role_and_is_reread_after_the_swap():
    # J-2: D4 attacking, B4 defending, re-read on the role swap (J-9)
    t = Table()
    t.run("add attacker c_ballista strength=2", "add attacker rating=A4 strength=1 name=a",
          "add defender p_ballista strength=2", "add defender rating=C1 strength=1 name=main",
          "add defender rating=C2 strength=2 reserve=1 name=r")        # (a ballista levied at I, J-20: its step given)
    assert t.block("c_ballista")["rating"] == "D4" and t.block("p_ballista")["rating"] == "B4"
    t.do("start")
    t.do("fire a dice=1")                       # the strongest defender is the ballista (II)
    assert t.block("p_ballista")["strength"] == 1
    t.do("fire p_ballista dice=4")              # B4 defending: a 4 hits
    assert t.block("c_ballista")["strength"] == 1


def test_attacking_ballista_becomes_b4_after_the_swap():
    # J-2 + J-9
    t = Table()
    t.run("add attacker rating=A4 strength=1 name=a", "add attacker c_ballista",
          "add defender rating=C1 strength=1 name=main",
          "add defender rating=C2 strength=2 reserve=1 name=r", "start")
    t.do("fire a dice=4")                       # main force gone; swap at round 2
    assert t.battle["roles_swapped"]
    assert t.block("c_ballista")["rating"] == "B4" and t.block("c_ballista")["role"] == "defender"
    # round 2: the ballista now acts in the B step, before the C reserve
    assert order_of_turns(t) == ["a", "c_ballista", "r"]


def test_surprise_lets_all_attackers_act_first_in_round_1_only():
    # J-10: Mars/Neptune
    t = Table("surprise=1")
    t.run("add attacker rating=D2 strength=1 name=slow", "add attacker rating=B2 strength=1 name=mid",
          "add defender rating=A1 strength=1 name=fast", "start")
    assert order_of_turns(t) == ["mid", "slow", "fast"]
    assert order_of_turns(t) == ["fast", "mid", "slow"]          # round 2: normal order


def test_elephant_counts_four_and_drops_iv_ii_out():
    # J-2: the elephant has strengths IV and II only; at IV it is the strongest block, at II it
    # ties with a II legion (J-14 puts the hit on the lower firepower: the C2 legion)
    t = Table()
    t.run("add attacker rating=A4 strength=3 name=a", "add defender p_elephant strength=4",   # (levied at II, J-20)
          "add defender rating=C2 strength=3 name=leg", "start")
    assert t.block("p_elephant")["strength"] == 4
    t.do("fire dice=1,6,6")
    assert t.block("p_elephant")["strength"] == 2 and t.block("leg")["strength"] == 3
    out = t.do("fire p_elephant dice=6,6")     # it rolls 2 dice at II
    assert out["turn"]["dice"] == [6, 6]
    t.do("pass leg")
    t.do("fire a dice=1,1,6")                  # round 2: leg III -> II, then a tie at II
    assert t.block("leg")["strength"] == 2
    assert t.decision["kind"] == "hit" and sorted(t.decision["choices"]) == ["leg", "p_elephant"]
    t.do("hit p_elephant")
    assert t.block("p_elephant")["status"] == "eliminated"


def test_elephant_is_eliminated_by_its_second_hit():
    # J-2: IV -> II -> gone (two hits, not four)
    t = Table()
    t.run("add attacker rating=A4 strength=2 name=a", "add defender p_elephant strength=4", "start")  # (levied at II, J-20)
    t.do("fire dice=1,1")
    assert t.block("p_elephant")["status"] == "eliminated"
    assert t.battle["result"] == "attacker_wins"


def test_cleopatra_switches_sides_and_fights_on_her_next_turn():
    # J-2 / rules 7.52: eliminated, she joins the other side at I and fights for it on her next
    # battle turn (here the same round: she had not acted yet); she is not a leader
    t = Table()
    t.run("add attacker rating=A4 strength=1 name=a", "add attacker rating=C2 strength=2 name=c",
          "add defender cleopatra strength=1", "add defender rating=B1 strength=1 name=b",
          "start")
    t.do("fire a dice=1")
    assert t.decision["kind"] == "hit"           # Cleopatra I and b I: the owner chooses
    t.do("hit cleopatra")
    assert t.block("cleopatra")["side"] == "caesar" and t.block("cleopatra")["strength"] == 1
    assert t.session.view()["campaign"]["cleopatra"] == "caesar"
    assert t.session.view()["campaign"]["trophies"]["caesar"] == []
    assert order_of_turns(t) == ["b", "c", "cleopatra"]          # she takes the attacking C turn


def test_cleopatra_who_already_acted_waits_for_the_next_round():
    # rules 7.52: one battle turn per round
    t = Table()
    t.run("add attacker rating=D4 strength=1 name=d", "add defender cleopatra strength=1",
          "add defender rating=C1 strength=1 name=c", "start")
    t.do("pass cleopatra")
    t.do("pass c")
    t.do("fire d dice=1")
    t.do("hit")                                  # J-14: both C1 at I, Cleopatra was added first
    assert t.block("cleopatra")["side"] == "caesar"
    assert t.battle["round"] == 2
    assert order_of_turns(t) == ["c", "cleopatra", "d"]


def _cleopatra_falls_in_round_1(options: str) -> Table:
    """The coordinator's repro: Caesar's hit puts Cleopatra (I) out in round 1 before she has acted;
    Pompey's Legio 5 then passes."""
    t = Table(f"dice=physical {options}".strip())
    t.run("add attacker c_caesar", "add defender cleopatra strength=1", "add defender p_leg5 strength=1",
          "start", "fire c_caesar dice=1,6,6", "hit cleopatra")
    assert t.block("cleopatra")["side"] == "caesar" and t.block("cleopatra")["strength"] == 1
    t.do("pass p_leg5")
    return t


def test_cleopatra_under_the_round_rule_fights_for_her_new_side_in_the_next_round():
    # J-2, the Russian edition's wording: eliminated, she «присоединяется к другой стороне и
    # сражается за нее в следующий раунд боя» — not again in this round, though she had not acted
    t = _cleopatra_falls_in_round_1("cleopatra=round")
    assert t.session.view()["rules"] == {"cleopatra": "round"}
    d = t.decision
    assert (d["round"], d["side"], d["blocks"]) == (2, "caesar", ["c_caesar"]), d
    assert order_of_turns(t) == ["c_caesar", "p_leg5", "cleopatra"]     # round 2: her turn for Caesar


def test_cleopatra_under_the_turn_rule_and_on_an_old_line_fights_for_her_new_side_this_round():
    # J-2 as rules 7.52 reads ("on her next battle turn"), and every line stored before the choice
    for options in ("cleopatra=turn", ""):
        t = _cleopatra_falls_in_round_1(options)
        assert t.session.view()["rules"] == {"cleopatra": "turn"}
        d = t.decision
        assert (d["round"], d["side"], d["blocks"]) == (1, "caesar", ["cleopatra"]), (options, d)


def test_cleopatra_under_the_round_rule_does_not_fire_at_once_in_a_surprise_round_1():
    # J-2 (ru) with J-10: she falls to an attacking D block after the attacking C step; under the
    # turn rule she catches up at once, under the round rule she waits for round 2
    for rule, first in (("turn", "cleopatra"), ("round", "b")):
        t = Table(f"surprise=1 cleopatra={rule}")
        t.run("add attacker rating=D4 strength=1 name=d", "add attacker rating=C1 strength=1 name=c",
              "add defender cleopatra strength=1", "add defender rating=B1 strength=1 name=b", "start")
        t.do("pass c")
        t.do("fire d dice=1")
        t.do("hit cleopatra")
        assert t.block("cleopatra")["side"] == "caesar"
        assert t.decision["blocks"] == [first], (rule, t.decision)


def test_cleopatra_disrupted_under_the_round_rule_fights_for_her_new_side_from_round_3():
    # J-9 with J-2 (ru): a reserve at I on a side whose main force fell in round 1 is lost on
    # arrival: Cleopatra joins the other side at round 2's start and fights for it next round
    for rule, round2 in (("turn", ["a", "r", "cleopatra"]), ("round", ["a", "r"])):
        t = Table(f"cleopatra={rule}")
        t.run("add attacker rating=A3 strength=3 name=a", "add defender rating=C1 strength=1 name=main",
              "add defender cleopatra strength=1 reserve=1", "add defender rating=B2 strength=2 reserve=1 name=r",
              "start", "fire a dice=1,6,6")
        assert t.battle["round"] == 2 and t.block("cleopatra")["side"] == "caesar"
        assert t.battle["roles_swapped"]                  # (J-9: Caesar defends now, A B C)
        assert order_of_turns(t) == round2, rule
        if rule == "round":
            assert t.battle["round"] == 3 and "cleopatra" in order_of_turns(t)


def test_the_cleopatra_rule_holds_for_the_campaign_s_next_battles():
    # J-2: the rule is the game's, chosen at new; next-battle keeps it
    t = Table("cleopatra=round")
    t.run("add attacker rating=A3 strength=3 name=a", "add defender rating=C1 strength=1 name=b", "fight",
          "next-battle attacker=pompey")
    assert t.session.state["battle"]["cleopatra"] == "round"
    assert t.session.view()["rules"] == {"cleopatra": "round"}


def test_killed_leader_gives_a_trophy_and_cannot_return():
    # J-2: leaders die for good; the enemy scores 1 VP; the third leader becomes available
    t = Table()
    t.run("add attacker rating=A4 strength=1 name=a", "add defender p_scipio strength=1", "start",
          "pass p_scipio", "fire dice=1")           # Scipio is A2: the defender's A goes first
    view = t.session.view()
    assert view["battle"]["result"] == "attacker_wins"
    assert view["campaign"]["killed"] == ["p_scipio"]
    assert [x["id"] for x in view["campaign"]["trophies"]["caesar"]] == ["p_scipio"]
    assert view["vp"]["caesar"] == 2                            # Massilia + the trophy (J-17)
    t.do("next-battle attacker=pompey")
    t.fails("add attacker p_scipio", "illegal_move")
    assert "notes" not in t.do("add attacker p_brutus")          # Brutus is available now


def test_third_leader_before_any_death_gets_a_reminder():
    # J-2: Octavian comes into play only after a Caesar leader is killed (a note, not an error)
    t = Table()
    out = t.do("add attacker c_octavian")
    assert out["notes"] and "7.51" in out["notes"][0]


def test_hit_without_a_choice_uses_the_j14_tie_rule():
    # J-14: lowest firepower first, then a non-leader before a leader, then the block added first
    t = Table()
    t.run("add attacker rating=A4 strength=3 name=a", "add defender rating=B2 strength=2 leader=1 name=ldr",
          "add defender rating=C3 strength=2 name=c3", "add defender rating=C2 strength=2 name=c2a",
          "add defender rating=C2 strength=2 name=c2b", "start", "fire dice=1,1,1")
    # three hits, each a tie at II: c2a (fp 2, first added), then c2b? no: c2a is now I, so the
    # II blocks are ldr, c3, c2b: c2b (fp 2); then ldr (fp 2, leader) vs c3 (fp 3): ldr
    took = []
    for _ in range(3):
        applied = t.do("hit")["turn"]["applied"]
        took.append(applied[-1]["block"])                     # the block this hit went to
    assert took == ["c2a", "c2b", "ldr"]                      # the non-leader first, the leader last
    assert [t.block(k)["strength"] for k in ("c2a", "c2b", "ldr", "c3")] == [1, 1, 1, 2]


def test_physical_dice_are_checked():
    # J-1: one die per strength point, faces 1-6
    t = Table("dice=physical")
    t.run("add attacker rating=C3 strength=3 name=a", "add defender rating=D1 strength=2 name=d",
          "start")
    t.fails("fire", "bad_arguments")
    t.fails("fire dice=1,2", "bad_arguments")
    t.fails("fire dice=1,2,7", "bad_arguments")
    t.fails("auto", "bad_arguments")
    out = t.do("fire dice=3,4,2")
    assert out["turn"]["hit_dice"] == [True, False, True]  # C3 hits on 1-3 (J-1)
    assert t.block("d")["strength"] == 0


def test_auto_before_the_start_keeps_the_table_dice():
    # J-1/J-4: `auto` in set-up starts the battle and takes its first decision; a battle with
    # physical dice still asks for the table's roll, and faces given are the ones used (they were
    # dropped and the device rolled its own dice); bad faces are refused and nothing starts.
    t = Table("dice=physical")
    t.run("add attacker rating=C3 strength=3 name=a", "add defender rating=C2 strength=2 name=d")
    t.fails("auto", "bad_arguments")
    t.fails("auto dice=9,9", "bad_arguments")
    t.fails("auto dice=1,2,3", "bad_arguments")             # d rolls 2 dice (J-1)
    assert t.battle["phase"] == "setup"
    out = t.do("auto dice=2,5")                              # d fires first: defender C (J-5)
    assert out["turn"]["block"] == "d" and out["turn"]["dice"] == [2, 5]
    assert t.block("a")["strength"] == 2
    digital = Table()
    digital.run("add attacker rating=C3 strength=3 name=a", "add defender rating=C2 strength=2 name=d")
    digital.fails("auto dice=7,1", "bad_arguments")
    assert digital.do("auto dice=6,6")["turn"]["dice"] == [6, 6]


def test_auto_refuses_dice_when_the_next_decision_rolls_none():
    # J-7: a hit waiting for its target rolls no dice: `auto dice=...` is refused, not the
    # faces dropped and the hit placed
    t = Table()
    t.run("add attacker rating=A4 strength=2 name=a", "add defender p_leg1 strength=3",
          "add defender p_leg3", "start", "fire a dice=1,2")
    assert t.decision["kind"] == "hit"
    t.fails("auto dice=1,2,3", "bad_arguments")
    t.do("auto")


def test_physical_dice_asked_for_say_how_many_for_the_block_that_fires():
    # J-1/J-5: with physical dice, `fire` without dice= says how many dice the firing block rolls
    # (one per strength point); with several blocks in the step it first asks which block, and a
    # block out of turn is told so, never asked for dice. Every language says it in its own words.
    from firmware.i18n import localize
    t = Table("dice=physical")
    t.run("add attacker rating=C3 strength=3 name=a", "add attacker rating=C2 strength=1 name=b",
          "add defender rating=B1 strength=1 name=d", "start", "pass d")
    assert "which" in t.fails("fire", "illegal_move")               # two C blocks: say which
    assert "not d's turn" in t.fails("fire d", "illegal_move").replace("It is not", "not")
    three, one = t.fails("fire a", "bad_arguments"), t.fails("fire b", "bad_arguments")
    assert "3 dice" in three and "fire a dice=" in three
    assert "1 dice" not in one and "die" in one and "fire b dice=" in one
    wrong = t.fails("fire b dice=1,2", "bad_arguments")             # J-1: one die per strength point
    assert "rolls 1 die: give 1 face of" in wrong and "has 2" in wrong, wrong
    assert "rolls 3 dice: give 3 faces" in t.fails("fire a dice=1", "bad_arguments")
    for lang, word3 in (("ru", "3 кубика"), ("uk", "3 кубики")):
        said = [localize(t.fails(line, "bad_arguments"), lang) for line in ("fire a", "fire b")]
        assert word3 in said[0] and "its" not in said[0] and "1 кубик," in said[1], said


# -- the battle log: what the rules did, where it happened (issue 24 §3) --------------------------
def _log(t: Table) -> list[str]:
    return [str(x) for x in t.battle["log"]]


def test_reserves_arriving_stand_between_round_1_and_round_2_in_the_log():
    # J-8: reserves arrive at the start of round 2; the log says so after round 1's turns and
    # before round 2's first turn (not after the last round)
    t = Table()
    t.run("add attacker rating=C3 strength=2 name=a", "add defender rating=C2 strength=2 name=d",
          "add defender rating=B1 strength=1 reserve=1 name=res", "start",
          "fire d dice=6,6", "fire a dice=6,6", "fire res dice=6", "fire d dice=6,6")
    log = _log(t)
    arrive = next(i for i, s in enumerate(log) if "reserves arrive" in s)
    assert log[arrive - 1].startswith("Round 1 ") and log[arrive + 1].startswith("Round 2 "), log
    assert [s.split()[1] for s in log if s.startswith("Round ")] == ["1", "1", "2", "2"]


def test_disruption_and_the_role_swap_stand_where_round_2_begins():
    # J-9: the defender's main force falls in round 1: disruption and the swap are logged after the
    # fire that destroyed it, before the first turn of round 2, in that order
    t = Table()
    t.run("add attacker rating=A4 strength=2 name=a", "add attacker rating=C2 strength=2 name=c",
          "add defender rating=C2 strength=1 name=main",
          "add defender rating=C3 strength=3 reserve=1 name=r3", "start", "fire dice=1,1")
    t.do("fire a dice=6,6")
    log = _log(t)
    kinds = ["disrupted" in s and "disrupt" or "defender for the rest" in s and "swap" or s.split(":")[0][:7]
             for s in log]
    assert kinds[0] == "Round 1" and kinds[1:3] == ["disrupt", "swap"] and kinds[3] == "Round 2", log


def test_a_leader_killed_by_disruption_is_logged_after_the_disruption():
    # J-9/J-2: a disrupted reserve at I is lost — a leader killed (a trophy), Cleopatra changing
    # side. The log said the death first and only then that the reserves arrived disrupted
    t = Table()
    t.run("add attacker rating=C4 strength=3 name=a", "add defender rating=C2 strength=1 name=main",
          "add defender p_scipio strength=1 reserve=1", "add defender cleopatra strength=1 reserve=1",
          "add defender p_leg3 reserve=1", "start", "pass main", "fire a dice=1,6,6")
    log = _log(t)
    disrupt = next(i for i, s in enumerate(log) if "disrupted" in s)
    killed = next(i for i, s in enumerate(log) if "Scipio is killed" in s)
    joins = next(i for i, s in enumerate(log) if "Cleopatra at once joins Caesar" in s)
    assert log[disrupt - 1].startswith("Round 1 "), log                 # right after round 1
    assert disrupt < killed and disrupt < joins, log
    assert t.session.view()["campaign"]["trophies"]["caesar"][0]["id"] == "p_scipio"
    event = next(e for e in t.session.state["battle"]["events"] if e["event"] == "disrupt")
    assert [(a["block"], a["result"]) for a in event["applied"]] == [
        ("p_scipio", "killed"), ("cleopatra", "joins caesar"), ("p_leg3", "reduced")]


def test_no_role_swap_when_disruption_leaves_the_defender_nobody():
    # J-9/J-13: the defender's only reserve, Cleopatra at I, arrives disrupted and changes side: the
    # defender has nobody left and the battle is over. It was still logged that "Caesar becomes the
    # defender for the rest of the battle" and the finished battle showed Caesar as the defender
    t = Table()
    t.run("add attacker c_leg10", "add defender p_leg5 strength=1",
          "add defender cleopatra strength=1 reserve=1", "start", "pass", "fire dice=1,6,6")
    battle = t.battle
    assert battle["result"] == "attacker_wins" and battle["winner"] == "caesar"
    assert not battle["roles_swapped"] and battle["attacker_now"] == "caesar"
    assert not any("for the rest of the battle" in s for s in _log(t)), _log(t)


def test_a_killed_leader_is_logged_right_after_the_fire_that_killed_him():
    # J-2: a killed leader is permanent and a trophy for the enemy; the log says it after the fire,
    # and the end of the battle (J-13) comes last
    t = Table()
    t.run("add attacker rating=A4 strength=1 name=a", "add defender p_scipio strength=1", "start",
          "pass p_scipio", "fire dice=1")
    log = _log(t)
    fire = next(i for i, s in enumerate(log) if "fires" in s)
    assert "killed" in log[fire + 1] and "trophy" in log[fire + 1], log
    assert log[-1].startswith("Battle over"), log


def test_cleopatra_changing_side_is_logged_after_the_fire_that_took_her():
    # J-2: Cleopatra eliminated joins the other side at strength I: logged after the hit
    t = Table()
    t.run("add attacker rating=A4 strength=1 name=a", "add attacker rating=C2 strength=2 name=c",
          "add defender cleopatra strength=1", "add defender rating=B1 strength=1 name=b", "start",
          "fire a dice=1", "hit cleopatra")
    log = _log(t)
    assert "fires" in log[0] and "Cleopatra at once joins" in log[1], log


def test_a_battle_stored_before_events_had_their_place_still_reads_in_order():
    # states journaled before 'after' existed: round-start events before the round's first turn
    from engine.jc import battle as B
    t = Table()
    t.run("add attacker rating=C3 strength=2 name=a", "add defender rating=C2 strength=2 name=d",
          "add defender rating=B1 strength=1 reserve=1 name=res", "start",
          "fire d dice=6,6", "fire a dice=6,6", "fire res dice=6")
    state = t.session.state
    for e in state["battle"]["events"]:
        del e["after"]
    entries = B.log_entries(state["battle"])
    kinds = [k if k == "turn" else rec["event"] for k, rec in entries]
    assert kinds == ["turn", "turn", "arrive", "turn"]


def test_cleopatra_changing_side_in_the_log_is_said_once_with_the_side_in_its_case():
    # J-2 (RU summary: «Если Клеопатра уничтожается в бою, она незамедлительно, с боевой силой 1,
    # присоединяется к другой стороне и сражается за нее в следующий раунд боя»): the turn says
    # the hit eliminated her (it said «Клеопатра I→I: переходит к Цезарю», reading as no change),
    # the event after it that she joins the other side at I, once, the side in the case the
    # sentence needs (not «переходит к Цезарь»), in en, ru and uk, under the game's rule
    from firmware.i18n import localize
    t = Table("dice=physical cleopatra=round")
    t.run("add attacker c_caesar", "add defender cleopatra strength=1", "add defender p_leg1 strength=1",
          "start", "fire c_caesar dice=1,6,6", "hit cleopatra")                    # (a tie: Pompey picks, J-7)
    assert t.block("cleopatra")["side"] == "caesar" and t.battle["phase"] == "fighting"
    for lang, hit, joins in (
            ("en", "Cleopatra I→-: eliminated",
             "Cleopatra at once joins Caesar at strength I and fights for him in the next round of the battle."),
            ("ru", "Клеопатра I→-: блок уничтожен",
             "Клеопатра сразу присоединяется к Цезарю с боевой силой I и сражается за него в следующий раунд боя."),
            ("uk", "Клеопатра I→-: знищено",
             "Клеопатра одразу приєднується до Цезаря з бойовою силою I і б'ється за нього в наступний раунд бою.")):
        said = [localize(s, lang) for s in t.battle["log"]]
        assert hit in said[0] and said[1] == joins, said
        assert sum(s.count(joins.split(" I ")[0]) + s.count("→I:") for s in said) == 1, said   # once
    u = Table("attacker=pompey dice=physical cleopatra=turn")
    u.run("add attacker p_pompeius", "owner cleopatra caesar", "add defender cleopatra strength=1",
          "add defender c_leg10 strength=1", "start", "fire p_pompeius dice=1,6,6", "hit cleopatra")
    said = {lang: localize(u.battle["log"][1], lang) for lang in ("en", "ru", "uk")}
    assert said == {
        "en": "Cleopatra at once joins Pompey at strength I and fights for him on her next battle turn.",
        "ru": "Клеопатра сразу присоединяется к Помпею с боевой силой I и сражается за него в свой следующий ход боя.",
        "uk": "Клеопатра одразу приєднується до Помпея з бойовою силою I і б'ється за нього у свій наступний хід бою."}


@pytest.mark.parametrize("attacker, side, said", [
    ("c_caesar", "caesar", {"en": "Cleopatra at once joins Caesar at strength I.",
                            "ru": "Клеопатра сразу присоединяется к Цезарю с боевой силой I.",
                            "uk": "Клеопатра одразу приєднується до Цезаря з бойовою силою I."}),
    ("p_pompeius", "pompey", {"en": "Cleopatra at once joins Pompey at strength I.",
                              "ru": "Клеопатра сразу присоединяется к Помпею с боевой силой I.",
                              "uk": "Клеопатра одразу приєднується до Помпея з бойовою силою I."})])
@pytest.mark.parametrize("rule", ["round", "turn"])
def test_cleopatra_whose_hit_ends_the_battle_is_not_promised_a_round_or_turn_of_it(attacker, side, said, rule):
    # J-2, J-13: the hit that takes Cleopatra from the last side she fought for leaves that side with
    # no block in the space: the battle is over. The log said she «сражается за него в следующий
    # раунд боя» / «в свой следующий ход боя» — a round and a turn that never come. She joins the
    # other side at I (the campaign keeps her there till the winter, J-19) and that is all it says.
    from firmware.i18n import localize
    t = Table(f"attacker={side} dice=physical cleopatra={rule}")
    if side == "pompey":
        t.run("owner cleopatra caesar")
    t.run(f"add attacker {attacker}", "add defender cleopatra strength=1", "start", "fire dice=1,6,6")
    assert t.block("cleopatra")["side"] == side and t.battle["phase"] == "over"
    log = t.battle["log"]
    assert {lang: localize(log[1], lang) for lang in ("en", "ru", "uk")} == said, log
    assert "Battle over" in localize(log[2], "en")


JOINS_ONLY = {"en": "Cleopatra at once joins Pompey at strength I.",
              "ru": "Клеопатра сразу присоединяется к Помпею с боевой силой I.",
              "uk": "Клеопатра одразу приєднується до Помпея з бойовою силою I."}


def _cleopatra_said(t: Table) -> dict[str, str]:
    from firmware.i18n import localize
    said = [s for s in t.battle["log"] if "Cleopatra at once" in localize(s, "en")]
    assert len(said) == 1, t.battle["log"]
    return {lang: localize(said[0], lang) for lang in ("en", "ru", "uk")}


@pytest.mark.parametrize("rule", ["round", "turn"])
def test_cleopatra_disrupted_with_the_last_reserve_of_her_side_is_not_promised_a_round(rule):
    # J-2, J-9, J-13: Caesar's main force falls in round 1; his reserves, Cleopatra and Antonius
    # at I, arrive disrupted: she joins Pompey, then Antonius is killed and Caesar has no block
    # left — the battle is over. The log said she «сражается за него в следующий раунд боя»: she
    # was the first of the two to lose her step, while Antonius still stood.
    t = Table(f"dice=physical cleopatra={rule}")
    t.run("owner cleopatra caesar", *["lose cleopatra"] * 3, "add attacker c_leg8 strength=1",
          "add attacker cleopatra reserve=1", "add attacker c_antonius reserve=1 strength=1",
          "add defender p_leg3", "start", "fire p_leg3 dice=1,5,6")
    assert t.battle["phase"] == "over" and t.block("cleopatra")["side"] == "pompey"
    assert _cleopatra_said(t) == JOINS_ONLY


@pytest.mark.parametrize("rule", ["round", "turn"])
def test_cleopatra_hit_before_the_last_block_of_her_side_in_one_fire_is_not_promised_a_round(rule):
    # J-2, J-7, J-13: one fire's two hits take Cleopatra at I (the lower firepower first, J-14)
    # and then Legio 3 at I, Pompey's last block: the battle is over, with no round or turn of it
    # left for her on Caesar's side. The log promised one.
    t = Table(f"dice=physical cleopatra={rule} ties=partial")
    t.run(*["lose cleopatra"] * 3, "add attacker c_leg8", "add defender cleopatra",
          "add defender p_leg3 strength=1", "start", "fire p_leg3 dice=6", "fire cleopatra dice=6",
          "fire c_leg8 dice=1,1,6")
    assert t.battle["phase"] == "over" and t.block("cleopatra")["side"] == "caesar"
    assert _cleopatra_said(t) == {"en": "Cleopatra at once joins Caesar at strength I.",
                                  "ru": "Клеопатра сразу присоединяется к Цезарю с боевой силой I.",
                                  "uk": "Клеопатра одразу приєднується до Цезаря з бойовою силою I."}


def test_cleopatra_joining_in_round_4_by_the_round_rule_is_not_promised_a_round_5():
    # J-2 (the Russian summary: she fights for the side she joins «в следующий раунд боя»), J-5
    # (at most 4 rounds): joining in round 4 she fights no more in this battle, and the log said
    # she would in the next round.
    t = Table("attacker=pompey dice=physical cleopatra=round")
    t.run(*["lose cleopatra"] * 3, "add attacker cleopatra", "add attacker p_leg1 strength=1",
          "add defender c_caesar", "start")
    while t.decision["round"] < 4:                                # rounds 1-3: nobody fires
        t.do(f"pass {t.decision['blocks'][0]}")
    t.run("fire c_caesar dice=1,6,6", "hit cleopatra")          # round 4: Pompey puts the hit on her
    assert t.block("cleopatra")["side"] == "caesar" and t.battle["phase"] == "fighting"
    assert _cleopatra_said(t) == {"en": "Cleopatra at once joins Caesar at strength I.",
                                  "ru": "Клеопатра сразу присоединяется к Цезарю с боевой силой I.",
                                  "uk": "Клеопатра одразу приєднується до Цезаря з бойовою силою I."}


SWAPPED = ["add attacker c_leg8", "add defender p_leg3 strength=1", "add defender p_leg4 reserve=1", "start",
           "fire p_leg3 dice=6", "fire c_leg8 dice=1,5,6"]       # Pompey's main force falls in round 1


@pytest.mark.parametrize("after, result, said", [
    (["fire c_leg8 dice=6,6,6", "fire p_leg4 dice=1,1", "retreat c_leg8"], "defender_holds",
     {"en": "Battle over: the attacker wins; Pompey holds the field.",
      "ru": "Бой окончен: атакующий победил; поле боя осталось за Помпеем.",
      "uk": "Бій закінчено: нападник переміг; поле бою лишилося за Помпеєм."}),
    (["pass c_leg8", "pass p_leg4", "pass c_leg8", "pass p_leg4", "pass c_leg8", "retreat p_leg4"], "attacker_wins",
     {"en": "Battle over: the defender holds; Caesar holds the field.",
      "ru": "Бой окончен: защищающийся устоял; поле боя осталось за Цезарем.",
      "uk": "Бій закінчено: оборона встояла; поле бою лишилося за Цезарем."})])
def test_the_end_of_a_battle_whose_roles_swapped_is_said_in_the_roles_at_its_end(after, result, said):
    # J-9: Pompey's main force falls in round 1, his reserve arrives disrupted and «Caesar becomes
    # the defender for the rest of the battle». Caesar retreating then gave «the defender holds;
    # Pompey holds the field» (the defender had just left it), Pompey's reserve retreating in
    # round 4 (J-6, as the attacker now) «the attacker wins; Caesar holds the field». The protocol's
    # result keeps the first roles' names (docs/protocol/jc.md).
    from firmware.i18n import localize
    t = Table("dice=physical")
    t.run(*SWAPPED)
    assert t.battle["roles_swapped"] and t.battle["attacker_now"] == "pompey"
    t.run(*after)
    assert t.battle["phase"] == "over" and t.battle["result"] == result
    assert {lang: localize(t.battle["log"][-1], lang) for lang in ("en", "ru", "uk")} == said


@pytest.mark.parametrize("options, blocks, said", [
    ("surprise=1", ["add attacker c_leg10", "add defender p_leg1"],
     {"en": "Mars: in round 1 all Caesar's blocks act before Pompey's.",
      "ru": "Марс: в 1 раунде все блоки Цезаря ходят раньше блоков Помпея.",
      "uk": "Марс: у 1 раунді всі блоки Цезаря ходять раніше за блоки Помпея."}),
    ("attacker=pompey surprise=1", ["add attacker p_nav1", "add defender c_nav1"],
     {"en": "Neptune: in round 1 all Pompey's blocks act before Caesar's.",
      "ru": "Нептун: в 1 раунде все блоки Помпея ходят раньше блоков Цезаря.",
      "uk": "Нептун: у 1 раунді всі блоки Помпея ходять раніше за блоки Цезаря."}),
    ("", ["add attacker c_leg10", "add defender p_leg1"], None)])
def test_a_surprise_battle_says_its_order_of_round_1_where_it_begins(options, blocks, said):
    # J-10: with Mars (Neptune for navis) all attacking blocks take their round-1 turns before the
    # defender's — not the usual order (the defender's A blocks first, J-5). Nothing said so: the
    # table saw Legio 10 (C4) act before Pompey's blocks and could only take it for a mistake, and
    # once a block was placed nothing showed the battle was a surprise at all.
    from firmware.i18n import localize
    t = Table(f"dice=physical {options}".strip())
    t.run(*blocks, "start")
    first = {lang: localize(t.battle["log"][0], lang) for lang in ("en", "ru", "uk")} if t.battle["log"] else None
    if said is None:
        assert t.battle["log"] == [] and t.battle["events"] == []
    else:
        assert first == said and t.battle["decision"]["side"] == t.battle["attacker"]


def test_russian_log_of_an_eliminated_feminine_block_agrees():
    # J-3: an eliminated block is said so; in Russian the participle agrees with «блок», not with
    # the block's name (was «Ауксилия 1 I→-: уничтожен»), and adding it again this year is refused
    from firmware.i18n import localize
    t = Table("dice=physical")
    t.run("add attacker c_leg8", "add defender p_aux1 strength=1", "add defender p_ballista strength=2",
          "start", "fire p_aux1 dice=6", "fire p_ballista dice=6,6", "fire dice=1,1,6", "hit p_aux1")
    said = localize(t.battle["log"][-1], "ru")
    assert "Ауксилия 1 I→-: блок уничтожен" in said and "Баллиста II→I" in said, said
    t.run("fight", "next-battle")
    refused = localize(t.fails("add defender p_aux1", "illegal_move"), "ru")
    assert refused.startswith("Блок «Ауксилия 1» уничтожен в этом году"), refused


def test_the_end_of_a_battle_names_the_side_holding_the_field_in_its_case():
    # J-13: the battle ends when one side has no block left; the sentence says who holds the
    # field, declined in ru/uk (was «поле за: Цезарь»)
    from firmware.i18n import localize
    t = Table("dice=physical attacker=pompey")
    t.run("add attacker p_aux1 strength=1", "add defender c_leg8", "start", "pass p_aux1",
          "fire c_leg8 dice=1,6,6")
    assert t.battle["result"] == "attacker_eliminated"
    end = t.battle["log"][-1]
    assert str(end) == "Battle over: the attacker is destroyed; Caesar holds the field."
    assert localize(end, "ru") == "Бой окончен: атакующий уничтожен; поле боя осталось за Цезарем."
    assert localize(end, "uk") == "Бій закінчено: нападника знищено; поле бою лишилося за Цезарем."


# -- J-7: only a partial level is asked (ties=partial, every game started now) ---------------------
SETTLES = [
    # two blocks at III, two hits: both lose a step whichever is picked first
    (["add defender rating=C2 strength=3 name=x", "add defender rating=C2 strength=3 name=y"], "1,1,6,6",
     {"x": (2, "fight"), "y": (2, "fight")}),
    # two blocks at IV, four hits: IV, IV -> III, III -> II, II in any order
    (["add defender rating=C2 strength=4 name=x", "add defender rating=C3 strength=4 name=y"], "1,1,1,1",
     {"x": (2, "fight"), "y": (2, "fight")}),
    # a leader and a legion at I, two hits: both go (a trophy), the battle is over (J-2, J-13)
    (["add defender p_pompeius strength=1", "add defender p_leg1 strength=1"], "1,1,6,6",
     {"p_pompeius": (0, "killed"), "p_leg1": (0, "eliminated")}),
    # the tie comes after a forced hit: IV and III, three hits: the IV first, then both at III to II
    (["add defender rating=C2 strength=4 name=x", "add defender rating=C2 strength=3 name=y"], "1,1,1,6",
     {"x": (2, "fight"), "y": (2, "fight")}),
]


def _fired(options: str, blocks: list[str], dice: str) -> Table:
    """A D4 attacker at IV against ``blocks``; the defenders pass round 1, then it fires ``dice``."""
    t = Table(options)
    t.run("add attacker rating=D4 strength=4 name=a", *blocks, "start")
    while t.decision["side"] == "pompey":
        t.do(f"pass {t.decision['blocks'][0]}")
    t.do(f"fire a dice={dice}")
    return t


def _settled_events(t: Table) -> list[dict]:
    return [e for e in t.session.state["battle"]["events"] if e["event"] == "settled"]


@pytest.mark.parametrize("blocks, dice, after", SETTLES)
def test_a_tie_whose_every_order_ends_the_same_is_not_asked(blocks, dice, after):  # J-7, J-14
    """J-7: each hit goes to the strongest block, the owner choosing among equally strong ones. Where
    the fire's hits reach every tied block, every order leaves every block the same and asking
    changes nothing: in a game started now (``ties=partial``) the hits are placed at once and the
    log says why; a game stored before asks, so that its stored ``hit`` answers replay as they were
    played."""
    t = _fired("dice=physical ties=partial", blocks, dice)
    for key, (now, status) in after.items():
        assert (t.block(key)["strength"], t.block(key)["status"]) == (now, status), key
    assert t.decision is None or t.decision["kind"] == "turn", t.decision
    settled = _settled_events(t)
    assert len(settled) == 1 and settled[0]["hits"] >= 2 and settled[0]["side"] == "pompey", settled
    assert settled[0]["asked"] == 0, settled
    assert any("hits end the same in any order; no choice to make." in str(x) for x in t.battle["log"])
    old = _fired("dice=physical", blocks, dice)      # stored before the option: the owner is asked
    assert old.decision["kind"] == "hit"
    while old.decision and old.decision["kind"] == "hit":
        old.do(f"hit {old.decision['choices'][-1]}")        # (the other order than J-14's)
    assert [(b["key"], b["strength"], b["status"]) for b in old.battle["blocks"]] == \
        [(b["key"], b["strength"], b["status"]) for b in t.battle["blocks"]]


KEPT = [
    # three blocks at III, two hits: which one keeps III is the owner's (a partial level)
    (["add defender rating=C2 strength=3 name=x", "add defender rating=C2 strength=3 name=y",
      "add defender rating=C2 strength=3 name=z"], "1,1,6,6"),
    # a leader and a legion at I, one hit: which one survives
    (["add defender p_pompeius strength=1", "add defender p_leg1 strength=1"], "1,6,6,6"),
]


@pytest.mark.parametrize("blocks, dice", KEPT)
def test_a_partial_level_is_asked_at_once_with_the_same_advice(blocks, dice):  # J-7, J-14, J-15
    """Where the fire's hits fall short of the tied blocks from the first, a game started now asks
    the question a game stored before asks (J-7), and ``advise`` on it says the same (every choice,
    the same odds)."""
    boards = []
    for options in ("dice=physical ties=partial", "dice=physical"):
        t = _fired(options, blocks, dice)
        assert t.decision["kind"] == "hit", t.decision
        assert not _settled_events(t)
        boards.append((t.decision, t.do("advise")))
    (new_d, new_a), (old_d, old_a) = boards
    assert new_d == old_d
    assert new_a["options"] == old_a["options"] and new_a["best"] == old_a["best"]


def test_next_battle_keeps_the_tie_rule():  # J-7
    t = _fired("dice=physical ties=partial", ["add defender rating=C2 strength=1 name=x"], "1,6,6,6")
    assert t.battle["phase"] == "over"
    t.run("next-battle dice=physical", "add attacker rating=D4 strength=2 name=a",
          "add defender rating=C2 strength=2 name=x", "add defender rating=C2 strength=2 name=y", "start",
          "pass x", "pass y", "fire a dice=1,1")
    assert t.decision["kind"] == "turn" and [t.block(k)["strength"] for k in "xy"] == [1, 1]


PARTIAL = [
    # III, III, II and three hits: both III lose a step in any order; one of the three at II is the pick
    (["add defender rating=C2 strength=3 name=x", "add defender rating=C2 strength=3 name=y",
      "add defender rating=C2 strength=2 name=z"], "1,1,1,6",
     {"x": 2, "y": 2, "z": 2}, ["x", "y", "z"], 1, "x, y: the first 2 hits end the same in any order."),
    # Cleopatra and a legion at II, a legion at I, three hits: both at II to I, then one of three at I
    # (J-2: Cleopatra there joins Caesar, the legion goes: the pick is the owner's)
    (["add defender cleopatra strength=2", "add defender rating=C2 strength=2 name=x",
      "add defender rating=C2 strength=1 name=z"], "1,1,1,6",
     {"cleopatra": 1, "x": 1, "z": 1}, ["cleopatra", "x", "z"], 1, "Cleopatra, x: the first 2 hits end the "
     "same in any order."),
    # IV, IV, III and four hits: both IV to III, then two of three at III: two picks
    (["add defender rating=C2 strength=4 name=x", "add defender rating=C3 strength=4 name=y",
      "add defender rating=C2 strength=3 name=z"], "1,1,1,1",
     {"x": 3, "y": 3, "z": 3}, ["x", "y", "z"], 2, "x, y: the first 2 hits end the same in any order."),
]


@pytest.mark.parametrize("blocks, dice, strengths, choices, left, said", PARTIAL)
def test_only_the_partial_level_of_a_tie_is_asked(blocks, dice, strengths, choices, left, said):  # J-7, J-14
    """J-7: each hit to the strongest block, the owner choosing among equally strong ones. Where a
    fire's hits reach every block of a tied level, each loses a step whatever the order: asking the
    first of them (a game stored before the option still does) is a press that changes nothing. A
    game started now places them (J-14 order) and asks only where the hits left fall short of the
    tied blocks, and the log says so before the question."""
    t = _fired("dice=physical ties=partial", blocks, dice)
    assert t.decision["kind"] == "hit" and t.decision["choices"] == choices and t.decision["left"] == left
    assert {k: t.block(k)["strength"] for k in strengths} == strengths
    assert t.battle["log"][-1] == said
    [event] = _settled_events(t)
    assert event["asked"] == left and event["hits"] == 4 - left - dice.count("6")
    old = _fired("dice=physical", blocks, dice)                        # a game stored before: as it was
    assert old.decision["kind"] == "hit" and len(old.decision["choices"]) == 2 and not _settled_events(old)
    t.do(f"hit {choices[-1]}")                                          # the owner's pick: where it said
    assert t.block(choices[-1])["strength"] == strengths[choices[-1]] - 1 or t.block(choices[-1])["side"] == "caesar"


def test_hits_that_empty_a_side_mid_fire_are_placed_and_the_rest_lost():  # J-7, J-13
    """Two blocks at I and three hits: both go whatever the order, the battle is over (J-13) and
    the third hit is lost; nothing is asked."""
    t = _fired("dice=physical ties=partial", ["add defender p_pompeius strength=1",
                                              "add defender rating=C2 strength=1 name=x"], "1,1,1,6")
    assert t.battle["phase"] == "over" and t.decision is None
    assert t.session.state["battle"]["turns"][-1]["lost"] == 1
    kinds = [e["event"] for e in t.session.state["battle"]["events"]]
    assert kinds[-3:] == ["settled", "killed", "end"], kinds               # said before what the hits did


@pytest.mark.parametrize("value", ["matter", "level", "all"])
def test_ties_takes_only_partial(value):  # J-7
    """Two rules only: none (a game stored before, every tie asked) and ``partial``; ``ties=matter``,
    an unreleased rule no stored game carries, is refused as any other word is."""
    assert Table("ties=partial").session.state["ties"] == "partial"
    with pytest.raises(LegatusError) as err:
        Table(f"ties={value}")
    assert err.value.code == "bad_arguments" and "'partial'" in err.value.message and f"'{value}'" in err.value.message


# -- J-7, J-14: where the owner's pick starts -----------------------------------------------------------
@pytest.mark.parametrize("blocks, dice, default", [
    # J-14 puts the hit on the lowest firepower: Scipio (A2) before Legio 1 (C3)... a leader killed is
    # gone for good and a trophy (J-2, J-17): the careful pick is the legion
    (["add defender p_scipio strength=3", "add defender rating=C3 strength=3 name=x"], "1,6,6,6", "x"),
    # no leader among them: J-14's own (the lowest firepower, then the one entered first)
    (["add defender rating=C3 strength=3 name=x", "add defender rating=C2 strength=3 name=y"], "1,6,6,6", "y"),
    # only leaders: J-14's own
    (["add defender p_pompeius strength=3", "add defender p_scipio strength=3"], "1,6,6,6", "p_scipio"),
])
def test_a_hit_decision_names_the_careful_pick(blocks, dice, default):  # J-7, J-14, J-2, J-17
    t = _fired("dice=physical ties=partial", blocks, dice)
    assert t.decision["kind"] == "hit" and t.decision["default"] == default
