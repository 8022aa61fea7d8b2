"""Dice and draws the players can trust across undo (PROTOCOL.md, "Commands for every session":
undo restores the random generator, "no re-rolling by undo"). Once the device has shown a roll or a
draw, no path — undo, undo twice and redo, a restart, a game reopened from Earlier games — lets the
table type other values for it (``dice=``, ``att-dice=``/``def-dice=``, ``die=``, ``card=``):
firmware/shown.py. Values typed first (the table's own dice) may be typed again after an undo."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.screens import app_with
from tests.test_fairness import VERIFY
from tests.test_sword_console import _ok, _open, _refused

JC_BATTLE = ["new jc-battle seed=3", "add attacker c_leg10", "add defender p_leg1", "start"]


def test_a_julius_caesar_fire_shown_and_undone_cannot_be_typed_instead(state_dir: Path):  # J-6, J-14
    c = _open(state_dir)
    try:
        for line in JC_BATTLE:
            _ok(c, line)
        shown = _ok(c, "fire")["turn"]["dice"]
        _ok(c, "undo")
        said = _refused(c, "fire dice=6,6,6,6")              # the dice he prefers: refused, nothing changed
        assert "already shown" in said and " ".join(map(str, shown)) in said, said
        _refused(c, "fire p_leg1 dice=6,6,6,6")
        _refused(c, "auto dice=6,6,6,6")                     # the J-14 decision is the same fire
        assert _ok(c, "fire")["turn"]["dice"] == shown       # the device's roll stands
        _ok(c, "undo")
        _ok(c, "fight")                                        # the whole battle by the device
        _ok(c, "undo")
        _refused(c, "fire dice=6,6,6,6")                       # its first fire is the one shown
    finally:
        c.close()


def test_the_table_s_own_dice_typed_and_undone_may_be_typed_again(state_dir: Path):  # J-6
    c = _open(state_dir)
    try:
        _ok(c, "new jc-battle dice=physical seed=3")
        for line in JC_BATTLE[1:]:
            _ok(c, line)
        assert _ok(c, "fire dice=1,1,1,1")["turn"]["dice"] == [1, 1, 1, 1]
        _ok(c, "undo")
        assert _ok(c, "fire dice=2,2,2,2")["turn"]["dice"] == [2, 2, 2, 2]    # a typing slip corrected
        _ok(c, "undo")
        _ok(c, "fight")               # the device's dice (PROTOCOL: fight is digital), a whole battle of its own
        _ok(c, "undo")
        # the table throws every fire of this battle (fire without dice= is refused): held to the fight's
        # dice, it could not go on at all
        assert _ok(c, "fire dice=2,2,2,2")["turn"]["dice"] == [2, 2, 2, 2]
    finally:
        c.close()


def test_a_battle_set_up_again_with_physical_dice_cannot_replace_the_device_s_roll(state_dir: Path):  # J-6
    """The device rolled a fire in a battle with digital dice; undo back to before the battle and
    the same battle set up with physical dice: its first fire is still the one shown."""
    c = _open(state_dir)
    try:
        _ok(c, "new jc-battle seed=3")
        again = ["add attacker rating=C3 strength=3", "add defender rating=C2 strength=4", "start"]
        for line in [*JC_BATTLE[1:], "fight", "next-battle", *again]:
            _ok(c, line)
        shown = _ok(c, "fire")["turn"]["dice"]
        for _ in range(5):
            _ok(c, "undo")                                       # the fire, start, the blocks, next-battle
        for line in ["next-battle dice=physical", *again]:
            _ok(c, line)
        said = _refused(c, "fire dice=6,6,6,6")
        assert " ".join(map(str, shown)) in said, said
        assert _ok(c, "fight")["rounds"][0]["turns"][0]["dice"] == shown    # the device's dice stand
    finally:
        c.close()


def test_a_sword_roll_shown_stands_through_undo_twice_redo_and_a_restart(state_dir: Path):  # W-1, W-2, W-8, W-9
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls seed=2")
        shown = _ok(c, "tactics 3")["roll"]
        _ok(c, "vp romans +1")
        _ok(c, "undo")
        _ok(c, "undo")
        _ok(c, "vp romans +1")                                 # another step in between: the same dice are next
        said = _refused(c, "tactics 3 die=6")
        assert f"rolled {shown}" in said, said
        for line in ("naval die=1", "check siege dice=6,6", "battle att=12 def=5 mod=3 att-dice=6,6,6 def-dice=1,1,1",
                     "battle att=12 def=5 mod=3 att-dice=6,6,6"):
            _ok(c, line)                                       # the other kinds' dice are their own: no die
            _ok(c, "undo")                                     # shown for them is replaced
    finally:
        c.close()
    c = _open(state_dir)                                       # a restart (or a power cut) forgets nothing
    try:
        _refused(c, "tactics 3 die=6")
        assert _ok(c, "tactics 3")["roll"] == shown
        _ok(c, "settings language=ru")
        _ok(c, "undo")
        assert "уже показало" in _refused(c, "tactics 3 die=6")
        _ok(c, "settings language=uk")
        assert "уже показав" in _refused(c, "tactics 3 die=6")
        _ok(c, "settings language=en")
    finally:
        c.close()


def test_a_sword_battle_with_one_side_typed_may_be_typed_again_that_way(state_dir: Path):  # W-2
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls seed=2")
        defence = _ok(c, "battle att=12 def=5 mod=3 att-dice=5,2,2")["defender"]["dice"]
        _ok(c, "undo")
        again = _ok(c, "battle att=12 def=5 mod=3 att-dice=1,1,1")      # the attacker's slip corrected
        assert again["attacker"]["dice"] == [1, 1, 1] and again["defender"]["dice"] == defence
        _ok(c, "undo")
        _refused(c, "battle att=12 def=5 mod=3 def-dice=6,6,6")         # the shown defence dice stand
    finally:
        c.close()


def test_a_glory_event_card_shown_and_undone_cannot_be_taken_at_the_table(state_dir: Path):  # G-19
    c = _open(state_dir)
    try:
        _ok(c, "new glory players=Ann,Bob seed=5")
        shown = _ok(c, "event")["card"]["id"]
        _ok(c, "undo")
        other = next(f"E{n}" for n in range(1, 13) if f"E{n}" != shown)       # a card still in the deck
        said = _refused(c, f"event card={other}")
        assert "already shown" in said, said
        assert _ok(c, "event")["card"]["id"] == shown          # the device's card stands
        _ok(c, "undo")
        assert _ok(c, f"event card={shown.lower()}")["card"]["id"] == shown     # or named: the same card
        _ok(c, "end-round")
        assert _ok(c, f"event card={other}")["card"]["id"] == other  # the next round: a card from the table

    finally:
        c.close()


def test_a_game_reopened_from_earlier_games_keeps_its_shown_rolls(state_dir: Path):  # PROTOCOL.md reopen
    from firmware.screens.archive import archived
    from tests.screens import app_with
    app = app_with(["new sword players=romans,gauls", "tactics 3", "undo", "vp romans +1", "naval"], [], state_dir)
    try:
        assert app.run("new dice seed=4")["ok"]                 # the game goes to Earlier games
        a = next(a for a in archived(app.archives()) if a.game == "sword")
        for _ in range(2):
            assert app.reopen(a.header["line"], int(a.header["seed"]), True, int(a.header.get("v", 1)),
                              lines=a.lines)["ok"]
            out = app.run("tactics 3 die=6")                    # its die was shown, then undone
            assert (out["ok"], out["error"]) == (False, "illegal_move") and "already shown" in out["message"], out
            assert app.run("vp romans +1")["ok"]                # its line, given again
            out = app.run("naval die=1")                        # its naval die stands in the archived game
            assert (out["ok"], out["error"]) == (False, "illegal_move") and "already shown" in out["message"], out
            assert app.run("naval")["ok"]                       # the device's die, as in the archived game
    finally:
        app.console.close()


@pytest.mark.parametrize("line", ["tactics 3 die=6", "naval die=2"])
def test_typed_values_never_shown_by_the_device_are_taken(state_dir: Path, line: str):  # W-1, W-8
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls seed=2")
        _ok(c, line)
        _ok(c, "undo")
        _ok(c, line)
    finally:
        c.close()


def test_a_game_started_anew_with_a_seed_used_before_is_a_game_of_its_own(state_dir: Path):  # W-1
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls seed=2")
        _ok(c, "tactics 3")
        _ok(c, "new sword players=romans,gauls seed=2")        # not a reopened copy: its table's dice are its own
        assert _ok(c, "tactics 3 die=6")["roll"] == 6
    finally:
        c.close()



@pytest.mark.parametrize("between", ["tactics 3", "tactics 3 kind=intercept", "naval", "check siege"])
def test_a_sword_battle_undone_and_fought_again_gets_its_dice_whatever_is_rolled_between(
        state_dir: Path, between: str):  # W-1, W-2, W-8, W-9: undo never re-rolls
    """The exploit: a bad battle undone, a digital roll of another kind in between (it took the
    battle's dice from the one stream all rolls shared), the battle fought again with fresh dice.
    Each kind of roll has dice of its own: the battle again rolls what it showed, whatever is
    rolled between."""
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls seed=2")
        fight = "battle att=12 def=5 mod=3"
        shown = _ok(c, fight)
        _ok(c, "undo")
        _ok(c, between)
        again = _ok(c, fight)
        assert [again[s]["dice"] for s in ("attacker", "defender")] == [shown[s]["dice"] for s in ("attacker", "defender")]
    finally:
        c.close()


def test_a_sword_roll_of_one_kind_never_takes_the_dice_shown_for_another(state_dir: Path):  # W-1, W-8, W-9
    """A tactics test undone, then a naval move and a siege: the tactics test again rolls the die
    it showed; and what the naval move and the siege rolled is what they roll in a game where no
    tactics test was shown at all (the rolls of one kind tell nothing of another's)."""
    rolls = {}
    for name, lines in (("undone", ["tactics 3", "undo"]), ("none", [])):
        c = _open(state_dir / name)
        try:
            _ok(c, "new sword players=romans,gauls seed=5")
            first = [_ok(c, line) for line in lines]
            naval, siege = _ok(c, "naval")["roll"], _ok(c, "check siege")["dice"]
            rolls[name] = (naval, siege)
            if first:
                assert _ok(c, "tactics 3")["roll"] == first[0]["roll"]
        finally:
            c.close()
    assert rolls["undone"] == rolls["none"]


def test_a_sword_game_stored_before_its_rolls_were_apart_replays_from_its_one_stream(state_dir: Path):  # W-1, W-2
    """A game started now is stored with ``rolls=tests`` (in any language), so it replays with its
    rolls apart; a line stored by an older Legatus (no ``rolls=``) keeps every die in ``sword-dice``,
    in the order rolled, so it replays exactly as it was acknowledged."""
    import json

    from engine.rng import Draws
    from firmware.session import Session
    c = _open(state_dir)
    try:
        _ok(c, "settings language=uk")
        _ok(c, "new sword players=romans,gauls seed=2")
        assert c.session.header["line"] == "new sword players=romans,gauls seed=2 rolls=tests"
        _ok(c, "settings language=en")
    finally:
        c.close()
    old = Session.start("new sword players=romans,gauls seed=2", 2, "old")
    battle = old.apply("battle att=12 def=5 mod=3").fields
    rolled = [*battle["attacker"]["dice"], *battle["defender"]["dice"], old.apply("tactics 3").fields["roll"],
              old.apply("naval").fields["roll"]]
    one = Draws.keyed(2).stream("sword-dice")
    assert rolled == [one.die(6) for _ in range(len(rolled))]
    assert set(json.loads(old.state_json)["rng"]["s"]) == {"sword-dice"}
    with pytest.raises(Exception, match="rolls= takes only"):
        Session.start("new sword players=romans,gauls rolls=one", 2, "x")


def test_a_julius_caesar_block_s_fire_undone_keeps_its_dice_whichever_block_fires_first(state_dir: Path):  # J-6, J-7
    """Two attacking C blocks act in the order their owner chooses: the first one's fire undone and
    the other fired first took its dice from the one stream all fires shared, and the first fired
    again with fresh dice (a re-roll by undo). Each block's fire has dice of its own now: the same
    fire rolls what it showed, whatever fired in between; so does the whole battle by the device."""
    c = _open(state_dir)
    try:
        for line in ["new jc-battle seed=3", "add attacker rating=C3 strength=3", "add attacker rating=C3 strength=3",
                     "add defender rating=D2 strength=4", "start"]:
            _ok(c, line)
        assert c.session.header["line"] == ("new jc-battle seed=3 cleopatra=turn rolls=apart pool=setup remove=restore "
                                            "ties=partial leaders=last")
        started = _ok(c, "state")["state"]["actions"]
        shown = _ok(c, "fire blk1")["turn"]["dice"]
        _ok(c, "undo")
        _refused(c, "fire blk1 dice=1,1,1")                   # the table cannot type them either
        other = _ok(c, "fire blk2")["turn"]["dice"]
        while _ok(c, "state")["state"]["battle"]["decision"]["kind"] == "hit":
            _ok(c, "hit")
        assert _ok(c, "fire blk1")["turn"]["dice"] == shown
        while _ok(c, "state")["state"]["actions"] > started:
            _ok(c, "undo")
        fought = _ok(c, "fight")["rounds"][0]["turns"]        # J-14: blk1 (entered first), then blk2
        assert [t["dice"] for t in fought if t["block"] in ("blk1", "blk2")][:2] == [shown, other]
    finally:
        c.close()


def test_a_julius_caesar_game_stored_before_its_fires_were_apart_replays_from_its_one_stream():  # J-6, J-14
    """A line stored by an older Legatus (no ``rolls=``) fires every block from ``battle-dice``, in
    the order fired, so it replays as it was acknowledged; one started now has a stream per block."""
    import json

    from engine.rng import Draws
    from firmware.session import Session
    lines = ["add attacker c_leg10", "add defender p_leg1", "fight"]
    for line, streams in (("new jc-battle seed=3 cleopatra=turn", {"battle-dice"}),
                          ("new jc-battle seed=3 cleopatra=turn rolls=apart", {"battle-dice-c_leg10", "battle-dice-p_leg1"})):
        s = Session.start(line, 3, "old")
        fought = [s.apply(x).fields for x in lines][-1]
        assert set(json.loads(s.state_json)["rng"]["s"]) == streams
        dice = [d for r in fought["rounds"] for t in r["turns"] for d in t.get("dice", [])]
        if streams == {"battle-dice"}:
            one = Draws.keyed(3).stream("battle-dice")
            assert dice == [one.die(6) for _ in dice]
    with pytest.raises(Exception, match="rolls= takes only"):
        Session.start("new jc-battle rolls=one", 2, "x")


@pytest.mark.parametrize("game", ["new dice seed=1", "new bag items=gold*3,silver*2 seed=1",
                                  "new sword players=romans,gauls seed=1"])
def test_a_roll_undone_and_rolled_again_gets_its_dice_after_a_re_roll_of_the_roll_before(state_dir: Path, game: str):
    """The exploit (undo never re-rolls): 'roll 3d6' shown, undone, a re-roll of the roll before it
    (it took the dice shown from the one stream both shared), 'roll 3d6' again with fresh dice. Each
    re-roll has dice of its own: the roll done again rolls what it showed, in any session."""
    c = _open(state_dir)
    try:
        _ok(c, game)
        _ok(c, "roll 2d6")
        shown = _ok(c, "roll 3d6")["dice"]
        _ok(c, "undo")
        _ok(c, "reroll 1,2")
        assert _ok(c, "roll 3d6")["dice"] == shown
    finally:
        c.close()


def test_a_re_roll_undone_gets_its_die_again_after_another_die_is_re_rolled(state_dir: Path):
    """A die's re-roll shown and undone, another die of the roll re-rolled first: the first die's
    re-roll again shows the face it showed (it stays with that die of that roll), and a roll made
    after it is the roll a session without the undone re-roll makes."""
    faces = {}
    for name, undone in (("undone", True), ("none", False)):
        c = _open(state_dir / name)
        try:
            _ok(c, "new dice seed=9")
            _ok(c, "roll 4d20")
            shown = _ok(c, "reroll 1")["dice"][0] if undone else None
            if undone:
                _ok(c, "undo")
            _ok(c, "reroll 2,3")
            if undone:
                assert _ok(c, "reroll 1")["dice"][0] == shown
            faces[name] = _ok(c, "roll 2d20")["dice"]
        finally:
            c.close()
    assert faces["undone"] == faces["none"]


def test_a_re_roll_stored_before_its_dice_were_apart_replays_from_the_one_stream(state_dir: Path):
    """A re-roll asked now is stored as 'reroll … rolls=apart'; a 'reroll' line stored by an older
    Legatus (without it) draws from 'dice' as it did, so that session replays exactly; and the state
    keeps the re-roll streams of the last roll only (it does not grow with the rolls)."""
    import json

    from engine.rng import Draws
    from firmware.session import Session
    c = _open(state_dir)
    try:
        _ok(c, "new dice seed=2")
        _ok(c, "roll 3d6")
        _ok(c, "reroll 1,3")
        assert c.session.lines[-1] == "reroll 1,3 rolls=apart"
    finally:
        c.close()
    old = Session.start("new dice seed=2", 2, "old")
    rolled = [*old.apply("roll 3d6").fields["dice"]]
    again = old.apply("reroll 1,3").fields["dice"]
    rolled += [again[0], again[2]]
    one = Draws.keyed(2).stream("dice")
    assert rolled == [one.die(6) for _ in range(len(rolled))]
    new = Session.start("new dice seed=2", 2, "new")
    for _ in range(30):
        new.apply("roll 4d6")
        new.apply("reroll 1,2,3,4 rolls=apart")
    streams = json.loads(new.state_json)["rng"]["s"]
    assert sorted(streams)[:1] == ["dice"] and len(streams) == 1 + 4, sorted(streams)
    undone = Session.start("new dice seed=2", 2, "undone")     # a roll of other dice, at the same place in
    undone.apply("roll 3d6")                                     # 'dice', is another roll: its re-rolls are
    undone.apply("reroll 1 rolls=apart")                         # its own, not those the 3d6 showed
    shown = {n for n in json.loads(undone.state_json)["rng"]["s"] if n.startswith("reroll-")}
    undone.undo()
    undone.undo()
    undone.apply("roll 3d8")
    undone.apply("reroll 1 rolls=apart")
    assert shown and not shown & set(json.loads(undone.state_json)["rng"]["s"])
    with pytest.raises(Exception, match="rolls= takes only"):
        old.apply("reroll 1 rolls=one")


GLORY = "new glory players=Jack,Henry,Mary,Ross seed=3"
ROUND_2 = ("event", "end-round")    # G-1: round 1 skips the activation of intrigues («Продано!», «Таможенные сборы»)


@pytest.mark.parametrize("between", [["pick 3"], ["pick 2", "pick 4"], ["pick 3", "undo", "pick 1"]])
def test_a_glory_pick_undone_gets_its_card_after_a_pick_from_another_hand(state_dir: Path, between: list[str]):
    """G-19 ("Sold!", "Customs"): the exploit, a pick from a hand of 5 shown and undone, a pick from
    a hand of another size (it took the one stream's next draw), and the hand of 5 picked from again
    with a fresh draw. Each hand size picks from draws of its own: the hand of 5 gets the card it
    showed, whatever is picked in between."""
    c = _open(state_dir)
    try:
        for line in (GLORY, *ROUND_2, "event"):
            _ok(c, line)
        shown = [_ok(c, "pick 5")["position"] for _ in range(3)]       # three picks, undone, picked again
        for _ in shown:
            _ok(c, "undo")
        for line in between:
            _ok(c, line)
        assert [_ok(c, "pick 5")["position"] for _ in shown] == shown
    finally:
        c.close()


def test_a_glory_pick_stored_before_its_draws_were_apart_replays_from_the_one_stream(state_dir: Path):
    """A pick asked now is stored as 'pick N picks=apart'; a 'pick' line stored by an older Legatus
    (without it) draws from 'picks', whatever the hand, so that game replays exactly."""
    from engine.rng import Draws
    from firmware.session import Session
    c = _open(state_dir)
    try:
        for line in (GLORY, *ROUND_2, "event"):
            _ok(c, line)
        _ok(c, "pick 4")
        assert c.session.lines[-1] == "pick 4 picks=apart"
    finally:
        c.close()
    old = Session.start(GLORY, 3, "old")
    picked = [old.apply(f"pick {n}").fields["position"] for n in (5, 3, 5, 2)]
    one = Draws.keyed(3).stream("picks")
    assert picked == [one.die(n) for n in (5, 3, 5, 2)]
    with pytest.raises(Exception, match="picks= takes only"):
        old.apply("pick 5 picks=one")


def _caesar_play(c, move: dict) -> None:
    prov, first = next(iter(move["toward"].items()))
    other = move["toward"][next(k for k in move["toward"] if k != prov)]
    _ok(c, f"play {move['space']} {move['token'].split(':')[0]}:{first}/{other} {prov}")


def test_a_caesar_token_drawn_and_undone_comes_again_after_another_placement(state_dir: Path):  # C-6, S-5
    """Caesar!: the token the device drew for the player's bag, undone with the placement before it,
    comes again after another placement (with another token, in another province): his bag and its
    stream are his alone, and nothing he places changes them; Auto-Crassus's turn after it draws the
    same tile and tokens too (his own bag and stack, untouched by the human's placement)."""
    c = _open(state_dir)
    try:
        _ok(c, "new caesar-solo seed=7")
        _ok(c, "crassus")
        moves = _ok(c, "moves")["moves"]
        first, second = moves[0], next(m for m in moves if m["token"] != moves[0]["token"])
        _caesar_play(c, first)
        shown = _ok(c, "draw")["state"]["human"]["hand"]
        him = _ok(c, "crassus")
        _ok(c, "undo")
        _ok(c, "undo")
        _ok(c, "undo")
        _caesar_play(c, second)
        again = _ok(c, "draw")["state"]["human"]["hand"]
        assert sorted(again + [second["token"]]) == sorted(shown + [first["token"]])   # the same token drawn
        then = _ok(c, "crassus")
        assert then["tile"] == him["tile"]
        drawn = [s for s in then["steps"] if s["action"] == "draw"]
        assert drawn == [s for s in him["steps"] if s["action"] == "draw"]
    finally:
        c.close()


@pytest.mark.parametrize("game, draw, key, between", [
    ((GLORY, *ROUND_2), "event", "card", ["deal", "fame Jack +2", "roll 2d6"]),    # G-2, G-19 (no pick before the
                                                                                   # event: G-1)
    ((GLORY, *ROUND_2, "event"), "deal", "hands", ["pick 4", "roll 1d6"]),
    ("new bag items=gold*3,silver*2 cards=a,b,c,d,e,f seed=1", "card", "cards",
     ["draw 2", "roll 3d6", "reroll 1", "kit new cards=x,y,z", "kit card"]),
    ("new bag items=gold*3,silver*2,lead*4 seed=1", "draw 2", "drawn", ["roll 2d6", "kit new items=p,q", "kit draw"]),
])
def test_a_draw_undone_draws_the_same_after_other_draws_in_between(state_dir: Path, game: str | tuple[str, ...],
                                                                  draw: str, key: str, between: list[str]):
    """The same draw asked again after an undo draws what it showed, whatever other draws (rolls,
    picks, the other holder's draws) come in between: each has its own stream (docs/fairness.md)."""
    c = _open(state_dir)
    try:
        for line in (game,) if isinstance(game, str) else game:
            _ok(c, line)
        shown = _ok(c, draw)[key]
        _ok(c, "undo")
        for line in between:
            _ok(c, line)
        assert _ok(c, draw)[key] == shown
    finally:
        c.close()


# -- a bag or deck made again after an undo (PROTOCOL.md: undo never re-rolls; docs/fairness.md §5) --
# (the bag first drawn from, the bag made again: each item of the first and the one that is it in the
# second: the same names in another order, one renamed, the same preset in Russian, two presets' items)
REMADE = [
    ("gold*3,lead*3", "lead*3,gold*3", {"gold": "gold", "lead": "lead"}),
    ("gold*3,lead*3", "zgold*3,lead*3", {"gold": "zgold", "lead": "lead"}),
    ("gold*3,lead*2,tin*2", "gold*3,lead*2,aaa*2", {"gold": "gold", "lead": "lead", "tin": "aaa"}),
    ("white*5,black*5", "белый*5,чёрный*5", {"white": "белый", "black": "чёрный"}),
    ("gold*3,silver*3,bronze*3", "золото*3,серебро*3,бронза*3",
     {"gold": "золото", "silver": "серебро", "bronze": "бронза"}),
]


@pytest.mark.parametrize("first, again, same", REMADE)
@pytest.mark.parametrize("draw", ["kit draw", "kit draw 3"])
def test_a_side_bag_made_again_after_its_draw_was_undone_draws_the_same_items(
        state_dir: Path, first: str, again: str, same: dict[str, str], draw: str):
    """A draw seen, undone, its bag undone and made again holding the same things (another order,
    an item renamed, the preset in another language) draws the items that are the ones shown: the
    same random numbers land on the same things, whatever they are called (docs/fairness.md §5)."""
    c = _open(state_dir)
    try:
        for seed in range(1, 9):                             # (each seed: its own game, its own draws)
            _ok(c, f"new dice seed={seed}")
            _ok(c, f"kit new items={first}")
            shown = _ok(c, draw)["drawn"]
            _ok(c, "undo")
            _ok(c, "undo")
            _ok(c, f"kit new items={again}")
            assert _ok(c, draw)["drawn"] == [same[x] for x in shown], seed
    finally:
        c.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("kind, ask, got, seeds", [("items", "kit draw 3", "drawn", 5), ("cards", "kit card 5", "cards", 6)])
def test_a_preset_chosen_again_in_another_language_gives_what_was_shown(state_dir: Path, lang: str, kind: str,
                                                                       ask: str, got: str, seeds: int):
    """Each bag and deck preset of the device (Dice & bags → a preset; Playing cards: its ace, jack,
    queen and king are «Т», «В», «Д», «К» in Russian), drawn from or dealt in English, undone with
    its bag or deck, and chosen again after the language was switched: the items or cards are the
    ones shown, in the words of the language now (a preset lists them in the same order in every
    language); the deck's record checks."""
    from engine import actions as act
    from firmware import i18n
    from firmware.screens.kit.presets import PRESETS
    c = _open(state_dir)
    try:
        for _label, of, pairs in PRESETS:
            if of != kind:
                continue
            i18n.set_language("en")
            english = pairs()
            i18n.set_language(lang)
            there = pairs()
            same = {a: b for (a, _), (b, _) in zip(english, there, strict=True)}
            for seed in range(1, seeds + 1):
                _ok(c, f"new dice seed={seed}")
                _ok(c, act.kit_new(kind, english))
                shown = _ok(c, ask)[got]
                _ok(c, "undo")
                _ok(c, "undo")
                _ok(c, act.kit_new(kind, there))
                assert _ok(c, ask)[got] == [same[x] for x in shown], (_label, seed)
                if kind == "cards":
                    _ok(c, "end")
                    assert VERIFY.verify(_ok(c, "export format=draws")["record"])
    finally:
        i18n.set_language("en")
        c.close()


def test_a_side_deck_made_again_with_a_card_renamed_deals_it_and_listed_is_the_device_s(state_dir: Path):
    """A side deck seen, undone and made again with one card renamed deals the renamed card where the
    old one was; ``listed=`` (the order the cards were listed in) is stored by the device, refused
    typed; a deck with other counts is another deck (dealt as always)."""
    c = _open(state_dir)
    try:
        for seed in range(1, 9):
            _ok(c, f"new dice seed={seed}")
            _ok(c, "kit new cards=a,b,c,d")
            shown = _ok(c, "kit card 4")["cards"]
            _ok(c, "undo")
            _ok(c, "undo")
            _ok(c, "kit new cards=a,b,zc,d")
            assert _ok(c, "kit card 4")["cards"] == [{"c": "zc"}.get(x, x) for x in shown], seed
        out = c.request("kit new cards=a,b listed=b,a")
        assert out["error"] == "bad_arguments" and "listed" in out["message"], out
        _ok(c, "new dice seed=1")
        _ok(c, "kit new cards=a,b,c,d")
        _ok(c, "undo")
        _ok(c, "kit new cards=a*2,b,c")
        assert _ok(c, "actions 1")["actions"][0]["line"] == "kit new cards=a*2,b,c"
    finally:
        c.close()


def test_a_card_shown_and_undone_stays_shown_through_a_restart(state_dir: Path):
    """What the deck showed is read back after a restart (the session's undone rows): a shuffle after
    it leaves the card on top, and the deck made again in Russian deals the cards that are the ones
    shown."""
    c = _open(state_dir)
    try:
        _ok(c, "new dice seed=5")
        _ok(c, "kit new cards=A♠,J♠,Q♠,K♠")
        top = _ok(c, "kit card")["cards"]
        assert top != ["K♠"]                                  # (a card named otherwise in Russian)
        _ok(c, "undo")
    finally:
        c.close()
    c = _open(state_dir)
    try:
        assert _ok(c, "kit shuffle")["kept"] == 1
        assert _ok(c, "kit card")["cards"] == top
        for _ in range(3):
            _ok(c, "undo")                                   # the card, the shuffle, the deck
        assert _ok(c, "kit-state")["kit"] == {}
    finally:
        c.close()
    c = _open(state_dir)
    try:
        _ok(c, "kit new cards=Т♠,В♠,Д♠,К♠")
        assert _ok(c, "kit card")["cards"] == [dict(zip("A♠ J♠ Q♠ K♠".split(), "Т♠ В♠ Д♠ К♠".split())).get(x, x)
                                               for x in top]
    finally:
        c.close()


def test_the_record_of_a_bag_walked_in_another_order_or_a_card_kept_on_top_checks(state_dir: Path):
    """The record says how each such draw was made (the order walked, the cards kept on top), and
    scripts/verify_draws.py checks it from the seed; an order that is not the bag's items, another
    order, or a shuffle whose kept cards were left out of the record are mismatches."""
    c = _open(state_dir)
    try:
        _ok(c, "new dice seed=6")
        _ok(c, "kit new items=gold*3,lead*3 cards=a,b,c,d,e")
        _ok(c, "kit draw 2")
        _ok(c, "kit card")
        _ok(c, "undo")
        _ok(c, "kit shuffle")
        _ok(c, "undo")
        _ok(c, "undo")
        _ok(c, "undo")
        _ok(c, "kit new items=zgold*3,lead*3 cards=a,b,c,d,e")
        _ok(c, "kit draw 2")
        _ok(c, "kit card")
        _ok(c, "undo")
        _ok(c, "kit shuffle")
        _ok(c, "end")
        record = _ok(c, "export format=draws")["record"]
    finally:
        c.close()
    held = [e for e in record["draws"] if e[1] == "draw"]
    assert held and all(e[3] == ["zgold", "lead"] for e in held)          # zgold is gold: walked where gold was
    assert ["kit-deck", "keep", 1] in record["draws"]
    assert VERIFY.verify(record)

    def tampered(change: Callable[[list], None]) -> bool:
        copy = json.loads(json.dumps(record))
        change(copy["draws"])
        return VERIFY.verify({**record, "draws": copy["draws"]})
    first = record["draws"].index(held[0])
    assert not tampered(lambda d: d[first].__setitem__(3, ["lead", "zgold"]))   # another order: another item
    assert not tampered(lambda d: d[first].__setitem__(3, ["lead", "tin"]))     # not the bag's items
    assert not tampered(lambda d: d.remove(["kit-deck", "keep", 1]))            # the card kept, unsaid


def test_a_bag_made_again_with_other_counts_is_another_bag(state_dir: Path):
    """A bag made again that does not hold the same things (other counts) is another bag: its draw is
    its own (the random number walks its names in name order, as always)."""
    c = _open(state_dir)
    try:
        _ok(c, "new dice seed=3")
        _ok(c, "kit new items=gold*3,lead*3")
        _ok(c, "kit draw")
        _ok(c, "undo")
        _ok(c, "undo")
        _ok(c, "kit new items=zgold*4,lead*2")
        _ok(c, "kit draw")
        assert _ok(c, "actions")["actions"][0]["line"] == "kit draw"      # walked in name order, as always
    finally:
        c.close()


def test_what_a_side_bag_showed_stays_through_a_kill_and_a_language_switch(state_dir: Path):
    """The draw shown and undone is kept on the card: a power cut (kill -9) after the undo, the
    language switched and the preset chosen again in Russian: the same item (the order it walked is
    stored with the draw, so the game replays and verifies as it was played)."""
    import signal
    import subprocess

    from tests.conftest import ROOT, console_cmd, run_console
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(console_cmd(state_dir), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    replies = []
    for line in ("commit", "new dice", "kit new items=white*5,black*5", "kit draw 4", "undo", "undo"):
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
        replies.append(json.loads(proc.stdout.readline()))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    proc.stdin.close()
    assert all(r["ok"] for r in replies), replies
    shown = replies[3]["drawn"]
    out = run_console(state_dir, ["settings language=ru", "kit new items=белый*5,чёрный*5", "kit draw 4",
                                  "settings language=en", "end", "export format=draws"])
    assert all(r["ok"] for r in out), out
    assert out[2]["drawn"] == [{"white": "белый", "black": "чёрный"}[x] for x in shown]
    record = out[-1]["record"]
    assert VERIFY.verify(record)                             # the record checks from the seed alone
    assert [e[2] for e in record["draws"] if e[1] == "draw"] == out[2]["drawn"]


@pytest.mark.parametrize("game, card, shuffle", [
    ("new dice seed={}", "kit card", "kit shuffle"),
    ("new dice seed={}", "kit card 2", "kit reshuffle"),
    ("new bag cards=a,b,c,d,e,f seed={}", "card", "shuffle"),
    ("new bag cards=a,b,c,d,e,f seed={}", "card", "reshuffle"),
])
def test_a_shuffle_after_a_card_shown_and_undone_leaves_it_on_top(state_dir: Path, game: str, card: str,
                                                                  shuffle: str):
    """The card seen, undone, then the deck shuffled (or the discards shuffled back in): the card shown
    stays on top (undo put it back; the shuffle mixes the cards under it), and the log says so; the
    next card is the one shown: a shuffle is no re-roll of a card seen. The record checks from the seed."""
    c = _open(state_dir)
    try:
        for seed in range(1, 9):
            _ok(c, game.format(seed))
            side = "kit " if card.startswith("kit") else ""
            if side:
                _ok(c, "kit new cards=a,b,c,d,e,f")
            first = _ok(c, f"{side}card")["cards"]
            _ok(c, f"{side}discard {first[0]}")                # a discard pile (reshuffle puts it back in)
            shown = _ok(c, card)["cards"]
            _ok(c, "undo")
            assert _ok(c, shuffle)["kept"] == len(shown), seed
            assert "shown and undone" in _ok(c, "log 1")["log"][0], seed
            assert _ok(c, card)["cards"] == shown, seed
            _ok(c, "end")
            assert VERIFY.verify(_ok(c, "export format=draws")["record"]), seed
    finally:
        c.close()


def test_only_the_device_keeps_a_card_on_top_or_walks_a_bag_in_its_order(state_dir: Path):
    """``keep=`` and ``order=`` are what the device stores with a shuffle or a draw that keeps what it
    showed; typed, they are refused and change nothing (a table could otherwise pick its draw)."""
    c = _open(state_dir)
    try:
        _ok(c, "new bag items=gold*3,lead*3 cards=a,b,c seed=4")
        for line in ("draw order=lead,gold", "shuffle keep=1", "reshuffle keep=2", "kit new items=x,y",
                     "kit draw order=y,x", "kit new cards=p,q", "kit shuffle keep=1"):
            before = _ok(c, "state")["state"]
            out = c.request(line)
            if line.startswith("kit new"):
                assert out["ok"], out
                continue
            assert out["ok"] is False and out["error"] == "bad_arguments", (line, out)
            assert "takes no options" in out["message"], out
            assert _ok(c, "state")["state"] == before
    finally:
        c.close()


@pytest.mark.parametrize("lang, words", [("en", "stays on top"), ("ru", "Сверху остаётся"), ("uk", "Згори лишається")])
def test_the_device_says_the_card_shown_stays_on_top_when_it_shuffles(state_dir: Path, lang: str, words: str):
    """Bags & decks → Shuffle the deck after a card seen and undone: the notice says the card shown
    stays on top, whole, in the language set (the next card is that card: it does not look like a
    shuffle that failed); shuffled again, it says only "Shuffled."."""
    from firmware.screens import base
    from firmware.screens.kit.bag import KitScreen
    app = app_with(["new dice seed=2", "kit new cards=a,b,c,d,e,f", "kit card", "undo"], [], state_dir, lang=lang)
    try:
        app.push(KitScreen(True))
        for kept in (True, False):
            screen = app.stack[-1]
            assert isinstance(screen, KitScreen)
            labels = [str(item.label) for item in screen.items(app)]
            screen.cursor = labels.index({"en": "Shuffle the deck", "ru": "Перемешать колоду",
                                          "uk": "Перетасувати колоду"}[lang])
            app.render()
            app.handle("a")
            rows = list(app.message or [])
            if os.environ.get("LEGATUS_SHOTS"):
                app.render().resize((512, 256)).save(f"{os.environ['LEGATUS_SHOTS']}/shuffle-{lang}-{kept}.png")
            assert (words in " ".join(rows)) is kept and rows, rows
            assert all(len(row) <= base.COLS - 2 for row in rows), rows
            app.handle("b")
    finally:
        app.console.close()


# -- the first request after a restart, however long the evening (scripts/bench_kit_resume.py) ------
def _evening(tmp: Path, kind: str) -> tuple[Path, list[str]]:
    """An evening of ``kind`` (300 draws and rolls, undos spread through them, ending with a side bag
    drawn from and undone with its bag) played by ``legatus console`` and killed (kill -9)."""
    from scripts.bench_kit_resume import build
    where = tmp / kind
    played = build(where, kind, 300)
    assert played["lines"].count("undo") > 20
    return where, played["shown"]


def _as_stored_before(state_dir: Path, first: int | None = None) -> None:
    """Make the session's undo rows (the ``first`` of them, else all) as a Legatus that did not keep
    what they took back stored them (line and sentence empty): its restart replays the session."""
    import sqlite3

    from firmware.storage import crc
    db = sqlite3.connect(state_dir / "legatus.db")
    rows = db.execute("SELECT session, seq FROM actions WHERE kind='undo' ORDER BY session, seq").fetchall()
    for sid, seq in rows[:first]:
        db.execute("UPDATE actions SET line='', sentence='', crc=? WHERE session=? AND seq=?",
                   (crc(sid, seq, "undo", "", ""), sid, seq))
    db.commit()
    db.close()


def _first(state_dir: Path, lines: list[str], draws: list[int] | None = None) -> list[dict]:
    """The replies to ``lines``, the first requests after a restart on a copy of ``state_dir``, with
    the lines they were stored as; ``draws``: gets a 1 for each draw from a bag they make (the start
    itself not counted: it replays the actions after the newest checkpoint)."""
    import shutil

    from engine import bag as B
    copy = state_dir.parent / f"{state_dir.name}-copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(state_dir, copy)
    c = _open(copy)
    real = B.draw_from_bag
    if draws is not None:
        B.draw_from_bag = lambda *a, **k: draws.append(1) or real(*a, **k)  # type: ignore[assignment]
    try:
        out = [{k: v for k, v in _ok(c, line).items() if k in ("drawn", "cards", "kept")} for line in lines]
        return out + [_ok(c, f"actions {len(lines)}")["actions"]]
    finally:
        B.draw_from_bag = real
        c.close()


@pytest.mark.parametrize("kind", ["bag", "side"])
def test_the_first_draw_after_a_kill_reads_the_undone_draws_without_a_replay(tmp_path: Path, kind: str):
    """An evening of draws with undos, the device killed and started again: its first draw, card,
    shuffle or bag made again lands where an undone one showed, reading what the undo rows keep
    (firmware/shown.py ``record``): it draws once, it does not replay the evening's hundreds of draws
    (a pause of seconds on a Pi Zero 2 W: scripts/bench_kit_resume.py)."""
    from scripts.bench_kit_resume import AGAIN_BAG
    where, _shown = _evening(tmp_path, kind)
    pre = "kit " if kind == "side" else ""
    for lines in ([f"{pre}draw"], [f"{pre}card"], [f"{pre}shuffle"], [AGAIN_BAG, "kit draw 2"]):
        draws: list[int] = []
        _first(where, lines, draws)
        assert len(draws) == sum("draw" in line.split() for line in lines), (lines, len(draws))   # its own


@pytest.mark.parametrize("kind", ["bag", "side"])
def test_an_evening_s_first_requests_after_a_kill_draw_what_its_replay_draws(tmp_path: Path, kind: str):
    """The same evening's first requests after a kill -9 draw the same items, cards and kept cards,
    stored as the same lines, whether its undo rows keep what they took back, keep nothing (stored
    by an older Legatus: the session is replayed, as before they kept it), or only the later ones do
    (a session begun before an update): and the bag made again in Russian draws the items shown
    before the kill (PROTOCOL.md: undo never re-rolls; docs/fairness.md §5)."""
    import shutil

    from scripts.bench_kit_resume import AGAIN_BAG, SAME
    where, shown = _evening(tmp_path, kind)
    older, mixed = tmp_path / "older", tmp_path / "mixed"
    shutil.copytree(where, older)
    shutil.copytree(where, mixed)
    _as_stored_before(older)
    _as_stored_before(mixed, first=12)
    pre = "kit " if kind == "side" else ""
    for lines in ([f"{pre}draw"], [f"{pre}card", "undo", f"{pre}shuffle", f"{pre}card"], [AGAIN_BAG, "kit draw 2"],
                  ["undo", f"{pre}draw 2"]):
        kept = _first(where, lines)
        assert kept == _first(older, lines) == _first(mixed, lines), lines
    again = _first(where, [AGAIN_BAG, "kit draw 2"])
    assert again[1]["drawn"] == [SAME[x] for x in shown]


@pytest.mark.parametrize("kept", [True, False])
def test_a_fire_shown_and_undone_is_named_the_same_after_a_restart_from_its_undo_row(state_dir: Path, kept: bool):
    """The refusal of dice typed where the device showed a fire names that fire after a restart
    as it did before: read from the undo row that keeps it, or (``kept`` False: rows stored by an
    older Legatus) from the session replayed (J-6, J-14)."""
    c = _open(state_dir)
    try:
        for line in ("settings language=ru", *JC_BATTLE):
            _ok(c, line)
        shown = " ".join(map(str, _ok(c, "fire")["turn"]["dice"]))
        _ok(c, "undo")
        _ok(c, "fire p_leg1")
        _ok(c, "undo")
        before = [_refused(c, line) for line in ("fire dice=6,6,6,6", "fire p_leg1 dice=6,6,6,6")]
        assert all(said.startswith("Устройство уже показало") and shown in said for said in before), before
    finally:
        c.close()
    if not kept:
        _as_stored_before(state_dir)
    c = _open(state_dir)
    try:
        assert [_refused(c, line) for line in ("fire dice=6,6,6,6", "fire p_leg1 dice=6,6,6,6")] == before
    finally:
        c.close()


def _panel_rows(app) -> list[str]:
    """The body rows the panel shows now (under the title bar), top to bottom."""
    from tests.screens import drawn
    rows: dict[int, list[tuple[int, str]]] = {}
    for x, y, text, _kind in drawn(app):
        rows.setdefault(y, []).append((x, text))
    return [" ".join(t for _x, t in sorted(rows[y])) for y in sorted(rows)[1:]]


@pytest.mark.parametrize("lang, undo_word", [("en", "undo"), ("ru", "отмена"), ("uk", "скасування")])
def test_table_dice_refused_after_the_device_s_roll_say_what_and_why_on_the_first_page(
        state_dir: Path, lang: str, undo_word: str):  # W-1
    """Dice thrown on the table entered after the device had shown its own roll (a tactics test
    rolled, undone): the refusal filled ten rows of the 128×64 panel, and its first page stopped
    mid-sentence («…and undo never draws again, so it»). Its first page (4 rows) now says what and
    why in whole sentences; the roll that stands follows on the next rows."""
    from firmware.screens import base
    from firmware.screens.widgets.scroll import beside
    app = app_with(["new sword players=romans,gauls seed=2", "tactics 3", "undo"],
                   # Tactics test; rating 3; the Dice row: the table's; the die entered (A) is refused
                   ["a", "down", "a", "right", "down", "down", "down", "right", "a", "a"], state_dir, lang)
    try:
        message = app.console.request("tactics 3 die=6")["message"]
        first, rest = message.split("\n")
        page = _panel_rows(app)
        assert len(page) == base.ROWS and " ".join(page) == first, (page, first)
        assert first.endswith(".") and undo_word in first.lower(), first
        assert "3" in rest and "5" in rest, rest            # the roll that stands: rating 3, rolled 5 (seed 2)
        read = list(page)                                   # scrolled down to the end: every row, none cut
        for _ in range(12):
            app.handle("down")
            read.append(_panel_rows(app)[-1])
        width = beside(message.split("\n"), base.ROWS)     # (it scrolls: its rows leave the mark its column)
        assert base.wrap(first, width) == page
        assert read[:len(base.wrap(message, width))] == base.wrap(message, width)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("setup, typed, names", [
    (["new jc-battle seed=3", "add attacker c_leg10", "add defender p_leg1", "start", "fire", "undo"],
     "fire dice=6,6,6,6", "3 6 6 3"),                                                                # J-6
    (["new sword players=romans,gauls seed=2", "battle att=12 def=5 mod=3", "undo"],
     "battle att=12 def=5 mod=3 att-dice=6,6,6 def-dice=1,1,1", "4,3,6+3"),                          # W-2
    (["new glory players=Ann,Bob seed=5", "event", "undo"], "event card=E5", "7"),                   # G-19
])
def test_every_game_s_refusal_of_values_typed_for_a_shown_draw_opens_with_what_and_why(
        state_dir: Path, lang: str, setup: list[str], typed: str, names: str):
    """The same refusal in Julius Caesar (a fire), the Sword of Rome (a battle) and Glory (an event
    card): its first paragraph is whole sentences that fit the panel's first page (4 rows), the draw
    that stands follows. (The kit has none: nothing typed replaces its rolls and draws; Caesar!'s
    bags and tiles are the device's or the table's for the whole game.)"""
    from firmware.screens import base
    c = _open(state_dir)
    try:
        _ok(c, f"settings language={lang}")
        for line in setup:
            _ok(c, line)
        first, rest = _refused(c, typed).split("\n")
        assert len(base.wrap(first, base.COLS)) <= base.ROWS and first.endswith("."), first
        assert names in rest and rest.endswith("."), rest
    finally:
        c.close()
