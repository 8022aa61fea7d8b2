"""The typed action builders (engine/actions.py, engine/<game>/actions.py): each gives exactly the
console line the screens used to format by hand, so the journal keeps the same lines; and the
Julius Caesar engine takes typed dice, the console parsing the text."""
from __future__ import annotations

import pytest

from engine import actions as common
from engine.caesar import actions as caesar
from engine.errors import BadArguments, IllegalMove
from engine.glory import actions as glory
from engine.jc import actions as jc
from engine.jc import battle as B
from engine.sword import actions as sword
from firmware.session import Session


def test_the_lines_of_the_session_the_dice_and_the_bags():
    assert common.roll(3, 6, 1) == "roll 3d6+1" and common.roll(2, 20) == "roll 2d20" and common.roll(1, 6, -2) == "roll 1d6-2"
    assert common.reroll([1, 3]) == "reroll 1,3" and common.rolls(50) == "rolls 50" and common.log(200) == "log 200"
    assert common.new_bag("items", [("gold", 3), ("silver", 1), ("lead", 0)]) == "new bag items=gold*3,silver"
    assert common.kit_new("cards", [("legio", 4)]) == "kit new cards=legio*4"
    assert common.bag("put", "gold", side=True) == "kit put gold" and common.bag("draw") == "draw"
    assert common.settings("language", "ru") == "settings language=ru" and common.replayed(" undo ") == "undo"


def test_julius_caesar_lines():  # J-1, J-5..J-8, J-17, J-18
    assert jc.new("pompey", True, "physical") == "new jc-battle attacker=pompey surprise=1 dice=physical"
    assert jc.next_battle("caesar", False, "digital") == "next-battle attacker=caesar surprise=0 dice=digital"
    assert jc.add("attacker", "c_caesar", 3, reserve=True) == "add attacker c_caesar strength=3 reserve=1"
    assert jc.add_rated("defender", "C", 3, 2, leader=True) == "add defender rating=C3 strength=2 leader=1"
    assert jc.remove("c_nav1") == "remove c_nav1"
    assert jc.fire("c_leg10", [1, 2, 3]) == "fire c_leg10 dice=1,2,3" and jc.fire("p_leg1") == "fire p_leg1"
    assert jc.auto([6, 6]) == "auto dice=6,6" and jc.auto() == "auto"
    assert jc.hit("p_leg3") == "hit p_leg3" and jc.hit() == "hit"
    assert jc.retreat("c_leg8", blocked=True) == "retreat c_leg8 blocked=1" and jc.pass_turn("x") == "pass x"
    assert jc.control("Carthago Nova", None) == "control Carthago_Nova vacant"
    assert jc.control("Roma", "caesar") == "control Roma caesar"
    assert jc.lose("p_pompeius") == "lose p_pompeius" and jc.owner("p_leg1", "caesar") == "owner p_leg1 caesar"
    assert jc.discard("pompey", "2/1") == "discard pompey 2/1" and jc.play("caesar", "mars") == "play caesar mars"


def test_glory_and_sword_lines():  # G-4..G-9, W-1..W-13
    assert glory.new(["Ваня", "Маша"], True, False) == "new glory players=Ваня,Маша harsh=1 clockwise=0"
    assert glory.fame("Jack", 4) == "fame Jack +4" and glory.fame("Jack", -3) == "fame Jack -3"
    assert glory.vote("Henry", 2) == "vote Henry n=2" and glory.vote("Henry") == "vote Henry"
    assert glory.tax("Mary", 7, double=True) == "tax Mary pop=7 double=1" and glory.sheet("Ross", "own", 5) == "sheet Ross own 5"
    assert sword.battle(12, 5, 3, 0) == "battle att=12 def=5 mod=3 defmod=0"
    assert sword.battle(4, 3, 0, -1, "att", [5, 2, 2, 1], [4, 5, 5]) == \
        "battle att=4 def=3 mod=0 defmod=-1 sacred-band=att att-dice=5,2,2,1 def-dice=4,5,5"
    assert sword.tactics(3, 1, 2) == "tactics 3 mod=1 die=2" and sword.check("siege", [2, 3]) == "check siege dice=2,3"
    assert sword.naval(-1, True, 2) == "naval mod=-1 friendly-port=1 extra-ops=2"
    assert sword.naval(0, False, die=4) == "naval mod=0 friendly-port=0 die=4"
    assert sword.vp("gauls", 1) == "vp gauls +1" and sword.unrest(6) == "unrest =6"
    assert sword.desperate(["gauls", "greeks"]) == "desperate gauls,greeks"


def test_caesar_lines():  # C-5, S-2, S-8
    assert caesar.new_solo("pompey", "hard", ["border-control", "poison"], "control", "physical", "digital",
                           "B:draw1+play", ["sword:6/0", "ship:4/2", "wild:2/2"]) == (
        "new caesar-solo side=pompey difficulty=hard poison=1 border-control=1 harder=1 harder-when=control "
        "tiles-input=physical bag-input=digital tiles=B:draw1+play row=sword:6/0,ship:4/2,wild:2/2")
    assert caesar.new_solo("caesar", "normal") == \
        "new caesar-solo side=caesar difficulty=normal tiles-input=digital bag-input=digital"
    assert caesar.new_duel(["centurions"], "physical") == "new caesar-duel centurions=1 bag-input=physical"
    assert caesar.new_solo("caesar", "easy", harder=True, edition="uk") == \
        "new caesar-solo side=caesar difficulty=easy harder=1 edition=uk tiles-input=digital bag-input=digital"
    assert caesar.new_duel(edition="ru") == "new caesar-duel edition=ru bag-input=digital"
    assert caesar.preview("SC-IT", "sword:5/1", "SC") == "preview SC-IT sword:5/1 SC"
    assert caesar.guide() == "guide"
    assert caesar.crassus("C", ["a", "b"], ["c"]) == "crassus tile=C draw=a,b centurion=c"
    assert caesar.crassus(None, ["a"]) == "crassus draw=a" and caesar.crassus() == "crassus"
    assert caesar.play("HU-MT", "ship", 3, 3, "HU") == "play HU-MT ship:3/3 HU"
    assert caesar.play_down("IT-GC", "sword:6/0", "senate") == "play IT-GC sword:6/0 down bonus=senate"
    assert caesar.draw() == "draw" and caesar.draw("ship:4/2") == "draw ship:4/2"


def _battle(*lines: str) -> Session:
    s = Session.start("new jc-battle dice=physical seed=1", 1, "t")
    for line in lines:
        s.apply(line)
    return s


def test_the_jc_engine_takes_typed_dice_and_the_console_parses_them():  # J-1
    battle = _battle("add attacker c_leg10 strength=3", "add defender p_leg1", "start").state["battle"]
    rec = B.fire(battle, None, [1, 2, 6, 6], None)                        # the defender's C2 block first (J-4)
    assert rec["block"] == "p_leg1" and rec["dice"] == [1, 2, 6, 6] and rec["hits"] == 2   # hits on 1-2 (J-5)
    with pytest.raises(BadArguments) as e:
        B.fire(_battle("add attacker c_leg10 strength=3", "add defender p_leg1", "start").state["battle"], None, [1, 2], None)
    assert e.value.code == "bad_arguments" and "rolls 4 dice" in str(e.value.message)
    s = _battle("add attacker c_leg10 strength=3", "add defender p_leg1", "start")
    with pytest.raises(BadArguments, match="must be die faces"):
        s.apply("fire dice=1,x,3")
    with pytest.raises(IllegalMove) as bad_turn:                          # the turn is said before the dice
        s.apply("fire c_leg10 dice=1,x,3")
    assert bad_turn.value.code == "illegal_move"
    assert s.apply("fire dice=1,2,6,6").fields["turn"]["dice"] == [1, 2, 6, 6]


def test_the_fair_draw_lines_and_pages():  # issue 20: screens never format these themselves
    assert common.commit() == "commit" and common.end() == "end" and common.reveal() == "reveal"
    assert common.share(" 3-1-6 ") == "share 3-1-6"
    new = common.new_bag("items", [("gold", 2)])
    assert common.with_share(new, "3-1-6") == "new bag items=gold*2 share=3-1-6"
    assert common.with_share(new, None) == new and common.with_share(new, "") == new
    assert common.actions(50) == "actions 50" and common.actions(100, before=401) == "actions 100 before=401"
    assert common.export("draws") == "export format=draws" and common.export("csv", 7) == "export format=csv id=7"
    s = Session.start(str(common.with_share(new, "3-1-6")), 5, "x", committed=True)
    assert s.view()["share"] == "3-1-6"                             # the console reads the line back
