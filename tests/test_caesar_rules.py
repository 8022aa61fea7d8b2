"""Caesar! base rules and expansions (digest C-1..C-21) and the rulebook's worked examples (§6),
played from hand-built positions through the engine's turn functions."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.caesar import flow
from engine.caesar import rules as R
from engine.caesar.board import (
    BORDER_CONTROL, CENTRAL, ITALY, N_PROVINCES, NEIGHBOURS, N_SPACES, PROVINCE_INDEX, PROVINCES, SLOTS, SPACE_A, SPACE_B,
    SPACE_ICON_NAME, SPACES,
)
from engine.caesar.invariants import problems
from engine.caesar.model import CRASSUS, HUMAN, NONE, OPEN, Game
from engine.caesar.position import apply_position
from engine.caesar.tokens import TOKENS, parse_token
from engine.errors import BadArguments, IllegalMove, NotYourTurn

P = PROVINCE_INDEX


def sp(sid: str) -> int:
    return SPACES.index(sid) if sid in SPACES else SPACES.index("-".join(reversed(sid.split("-"))))


def t(by: str, token: str, **toward: int) -> dict[str, Any]:
    return {"by": by, "token": token, "toward": toward}


def solo(pos: dict[str, Any], seed: int = 1, **kw: Any) -> Game:
    g = flow.new_game("solo", seed, **kw)
    apply_position(g, {"turn": "human", **pos})
    return g


def duel(pos: dict[str, Any], seed: int = 1, **kw: Any) -> Game:
    g = flow.new_game("duel", seed, **kw)
    apply_position(g, pos)
    return g


def finish_turn(g: Game, p: int = HUMAN) -> None:
    """Draw what is owed (skipping pending bonuses)."""
    while not g.over and g.turn == p and g.step != "play":
        if g.pending:
            (flow.might if g.pending[0] == "might" else flow.centurion)(g, p, "skip")
        else:
            flow.draw(g, p)


# -- C-1..C-4 components ----------------------------------------------------------------------
def test_c1_c2_board_topology():
    assert N_PROVINCES == 18 and N_SPACES == 30
    assert Counter(SPACE_ICON_NAME) == {"sword": 10, "shield": 10, "ship": 10}
    pairs = {frozenset((SPACE_A[s], SPACE_B[s])) for s in range(N_SPACES)}
    assert len(pairs) == 30                               # neighbours share exactly one space
    assert {SPACES[s] for s in range(N_SPACES) if BORDER_CONTROL[s]} == {"SD-GA", "NU-AF", "AG-AS"}
    assert {PROVINCES[x] for x in range(18) if CENTRAL[x]} == {"SD", "SC", "IT", "AC", "CR"}
    assert SLOTS[ITALY] == 2 and sum(SLOTS) == 19


def test_c3_c20_token_sets():
    base = [t for t in TOKENS if not t.centurion]
    assert len(base) == 16 and len(TOKENS) == 19
    assert Counter(t.icon for t in base) == {"sword": 4, "shield": 4, "ship": 4, "wild": 4}
    assert sorted(t.name for t in base if t.icon == "wild") == ["wild:2/2", "wild:2/2", "wild:3/1", "wild:4/0"]
    assert sorted(t.name for t in TOKENS if t.centurion) == ["shield+ship:4/4", "sword:7/0", "wild:3/3"]
    assert parse_token("ship:1/5") == ("ship:5/1", 1, 5)     # either order names the same token
    with pytest.raises(BadArguments):
        parse_token("ship:7/0")
    with pytest.raises(BadArguments):                          # int() cannot read «²»: it crashed
        parse_token("ship:²/1")


def test_engine_reads_its_own_data_copy_with_provenance():
    import json
    from importlib import resources
    data = json.loads(resources.files("engine").joinpath("data/caesar_board.json").read_text("utf-8"))
    assert "shared/data/caesar_board.json" in data["provenance"]["copied_from"]
    assert data["solo"]["tiles_verified"] is False


# -- C-5 setup --------------------------------------------------------------------------------
@pytest.mark.parametrize("poison,cents,bctl", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 1), (1, 1, 1)])
def test_c5_setup_bonuses_hands_and_set_aside_pool(poison, cents, bctl):
    for seed in range(5):
        g = flow.new_game("solo", seed, poison=bool(poison), centurions=bool(cents), border_control=bool(bctl))
        assert g.bonus[ITALY] == "senate" and all(g.bonus)          # one bonus on every province
        counts = Counter(g.bonus) + Counter(g.pool)
        supply = {"senate": 6, "wealth": 4, "tactics": 4, "might": 4, "poison": 3 * poison, "centurion": 3 * cents}
        assert all(counts[k] <= v for k, v in supply.items())
        assert len(g.pool) == (3 * (poison + cents) if bctl else 0)   # C-21 keeps them face down
        assert len(g.hand[HUMAN]) == (3 if poison else 2)             # C-19: three with Poison
        assert len(g.cent[HUMAN]) == (3 if cents else 0)              # C-20


def test_c5_border_control_needs_an_expansion():
    with pytest.raises(BadArguments):
        flow.new_game("solo", 1, border_control=True)


# -- C-3 placement ----------------------------------------------------------------------------
HAND = ["sword:6/0", "ship:5/1", "wild:2/2"]


def test_c3_a_token_goes_only_on_its_icon_and_nothing_changes_on_refusal():
    g = solo({"human_hand": HAND})
    before = g.to_json()
    with pytest.raises(IllegalMove, match="ship space"):
        flow.play(g, HUMAN, sp("SD-SC"), "sword:6/0", P["SC"])
    with pytest.raises(IllegalMove, match="not behind"):
        flow.play(g, HUMAN, sp("SD-SC"), "ship:6/0", P["SC"])
    with pytest.raises(IllegalMove, match="not on"):
        flow.play(g, HUMAN, sp("SD-SC"), "ship:5/1", P["IT"])
    assert g.to_json() == before
    flow.play(g, HUMAN, sp("SD-IT"), "wild:2/2", P["IT"])        # a wild goes anywhere
    with pytest.raises(IllegalMove, match="taken"):
        g2 = solo({"human_hand": HAND, "spaces": {"SD-IT": t("crassus", "shield:3/3", SD=3, IT=3)}})
        flow.play(g2, HUMAN, sp("SD-IT"), "wild:2/2", P["IT"])


def test_c20_shield_ship_centurion_fits_shield_and_ship_not_sword():
    tid = next(x.tid for x in TOKENS if x.name == "shield+ship:4/4")
    assert R.fits(tid, sp("SD-IT")) and R.fits(tid, sp("SD-SC")) and not R.fits(tid, sp("SC-IT"))


def test_c3_orientation_first_number_faces_the_named_province():
    # §6: Caesar's token gives Sicily +5 and Sardinia +1 on the SD-SC ship space.
    g = solo({"human_hand": HAND})
    steps = flow.play(g, HUMAN, sp("SC-SD"), "ship:5/1", P["SC"])
    assert steps[0]["toward"] == {"SD": 1, "SC": 5}
    assert g.inf[HUMAN][P["SC"]] == 5 and g.inf[HUMAN][P["SD"]] == 1
    g = solo({"human_hand": HAND})
    flow.play(g, HUMAN, sp("SD-SC"), "ship:1/5", P["SC"])       # written 1/5: 1 faces Sicily
    assert g.inf[HUMAN][P["SC"]] == 1 and g.inf[HUMAN][P["SD"]] == 5


def test_turn_order_is_enforced():
    g = flow.new_game("solo", 3)
    with pytest.raises(NotYourTurn):
        flow.play(g, HUMAN, sp("SD-SC"), TOKENS[g.hand[HUMAN][0]].name, P["SC"])
    flow.crassus_turn(g)
    with pytest.raises(NotYourTurn):
        flow.crassus_turn(g)


# -- C-7..C-10 closure ------------------------------------------------------------------------
DOUBLE = {"HU-HC": t("crassus", "shield:3/3", HU=3, HC=3),
          "MT-SD": t("crassus", "ship:5/1", MT=5, SD=1),
          "MT-NU": t("human", "sword:3/3", MT=3, NU=3)}


def test_c7_c8_one_placement_closes_two_provinces_and_the_placer_takes_both_bonuses():
    g = solo({"spaces": DOUBLE, "bonuses": {"HU": "wealth", "MT": "might"}, "human_hand": ["ship:6/0", "wild:2/2"]})
    steps = flow.play(g, HUMAN, sp("HU-MT"), "ship:6/0", P["HU"])
    closes = [s for s in steps if s["action"] == "close"]
    assert {c["province"] for c in closes} == {"HU", "MT"}
    assert {c["province"]: c["winner"] for c in closes} == {"HU": "human", "MT": "crassus"}   # 6>3, 3<5
    assert {c["province"]: c["bonus"] for c in closes} == {"HU": "wealth", "MT": "might"}
    assert [s["bonus"] for s in steps if s["action"] == "bonus"] == ["wealth", "might"]  # both the placer's
    assert g.bonus[P["HU"]] == "" and g.bonus[P["MT"]] == ""
    assert g.markers == [11, 11] and problems(g) == []


def test_c9_face_down_tokens_count_zero():
    # Your 6/0 on HU-HC is face down (0/0): HU closes 3-0 on your 3/3, not 9-0.
    down = {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}, "face_down": True}
    g = solo({"spaces": {"HU-HC": down}, "human_hand": ["ship:3/3", "wild:2/2"]})
    steps = flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    assert steps[1]["totals"] == {"human": 3, "crassus": 0} and steps[1]["winner"] == "human"
    # A full province left out of a position's control is closed by C-9 with the same count:
    # HC holds your face-down 6 (0) and his 3 -> his.
    g = solo({"spaces": {"HC-GA": t("crassus", "sword:3/3", HC=3, GA=3),
                         "HU-HC": {**down, "toward": {"HU": 0, "HC": 6}}},
              "human_hand": ["wild:3/1", "ship:3/3"]})
    assert g.ctrl[P["HC"]] == CRASSUS


def test_c9_tie_on_your_closure_gives_nobody_control():
    g = solo({"spaces": {"HU-HC": t("crassus", "shield:3/3", HU=3, HC=3)}, "human_hand": ["ship:3/3", "wild:2/2"]})
    steps = flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    assert steps[1]["winner"] == "none" and steps[1]["markers"] == 0
    assert g.ctrl[P["HU"]] == NONE and g.markers == [12, 12] and problems(g) == []


def test_c9_italy_takes_two_markers():
    spaces = {"SD-IT": t("human", "shield:6/0", IT=6, SD=0), "SC-IT": t("human", "sword:6/0", IT=6, SC=0),
              "IT-GC": t("crassus", "sword:5/1", IT=5, GC=1), "IT-AC": t("crassus", "ship:4/2", IT=4, AC=2),
              "IT-MD": t("human", "shield:3/3", IT=3, MD=3)}
    g = solo({"spaces": spaces, "bonuses": {"IT": "senate"}, "human_hand": ["ship:5/1", "wild:2/2"]})
    steps = flow.play(g, HUMAN, sp("IT-DM"), "ship:5/1", P["IT"])
    close = steps[1]
    assert close["province"] == "IT" and close["winner"] == "human" and close["markers"] == 2
    # C-16: first Senate with control -> one more marker under it.
    assert steps[2]["bonus"] == "senate" and steps[2]["markers"] == 1
    assert g.markers[HUMAN] == 12 - 2 - 1 and g.slots[ITALY] == 2 and problems(g) == []


def test_c10_border_marker_on_the_shared_space_example_asia_syria():
    # §6: Pompey closes Asia with 5/1, wins it and, holding Syria, puts a marker on the AS-SY
    # space on top of Caesar's token there.
    g = duel({"spaces": {"AG-SY": t("pompey", "sword:6/0", SY=6, AG=0),
                         "AS-SY": t("caesar", "shield:3/3", AS=3, SY=3),
                         "CR-AS": t("pompey", "shield:4/2", AS=2, CR=4)},
              "control": {"SY": "pompey"}, "markers_left": {"caesar": 12, "pompey": 11},
              "turn": "pompey", "hands": {"pompey": ["ship:5/1", "wild:2/2"]}})
    steps = flow.play(g, 1, sp("AG-AS"), "ship:5/1", P["AS"])
    close = steps[1]
    assert close["province"] == "AS" and close["totals"] == {"caesar": 3, "pompey": 7}
    assert close["winner"] == "pompey" and close["border_markers"] == ["AS-SY"]
    assert g.bmark[sp("AS-SY")] == 1 and g.owner[sp("AS-SY")] == 0      # on top of Caesar's token
    assert g.markers[1] == 11 - 2


def test_c10_a_flipped_control_marker_gives_no_border_marker():
    pos = {"spaces": {"AG-SY": t("crassus", "sword:6/0", SY=6, AG=0), "AS-SY": t("crassus", "shield:6/0", SY=6, AS=0),
                      "CR-AS": t("human", "shield:3/3", CR=3, AS=3)},
           "control": {"SY": "crassus"}, "crassus_row": ["ship:5/1"]}
    for flipped, border in (([], ["AS-SY"]), (["SY"], [])):
        g = solo({**pos, "flipped_control": flipped})
        steps: list[dict[str, Any]] = []
        flow.crassus_play(g, steps)
        close = next(s for s in steps if s["action"] == "close")
        assert close["province"] == "AS" and close["winner"] == "crassus"
        assert close["border_markers"] == border


def test_c10_c12_active_player_places_first_when_both_would_finish():
    # One placement on HU-MT: HU goes to the placer's side, MT to the other; both have one marker
    # left. The active player places first and wins at once (C-12, mid-closure).
    pos = {"spaces": DOUBLE, "markers_left": {"human": 1, "crassus": 1}, "human_hand": ["ship:6/0", "wild:2/2"]}
    g = solo(pos)
    flow.play(g, HUMAN, sp("HU-MT"), "ship:6/0", P["HU"])
    assert g.over and g.winner == HUMAN and g.markers == [0, 1] and problems(g) == []
    # Crassus active: his 3/3 on HU-MT wins MT (8-3) for him and HU (you 5) for you.
    g = solo({"spaces": {"HU-HC": t("human", "shield:5/1", HU=5, HC=1), "MT-SD": t("crassus", "ship:5/1", MT=5, SD=1),
                         "MT-NU": t("human", "sword:3/3", MT=3, NU=3)},
              "markers_left": {"human": 1, "crassus": 1}, "turn": "crassus", "crassus_row": ["ship:3/3"]})
    tid = g.hand[CRASSUS].pop()
    R.put(g, CRASSUS, sp("HU-MT"), tid, 3, 3, False)
    steps = R.close_after(g, CRASSUS, sp("HU-MT"))
    assert g.winner == CRASSUS and g.markers == [1, 0]
    assert [s["province"] for s in steps] == ["MT"]                 # the game ended before HU's marker


def test_c12_the_last_marker_under_the_senate_wins():
    # Two markers left: HU's marker, then the first Senate token's marker ends the game.
    g = solo({"spaces": {"HU-HC": t("human", "shield:6/0", HU=6, HC=0)}, "bonuses": {"HU": "senate"},
              "markers_left": {"human": 2, "crassus": 12}, "human_hand": ["ship:3/3", "wild:2/2"]})
    steps = flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    assert steps[-1]["bonus"] == "senate" and g.over and g.winner == HUMAN and "last control marker" in g.end


SWORDS_FULL = {"HC-GA": t("crassus", "sword:6/0", HC=0, GA=6), "MT-NU": t("crassus", "sword:5/1", MT=1, NU=5),
               "GA-GC": t("crassus", "sword:4/2", GA=2, GC=4), "NU-AF": t("crassus", "sword:3/3", NU=3, AF=3),
               "SC-IT": t("crassus", "wild:4/0", SC=0, IT=4), "IT-GC": t("crassus", "wild:3/1", IT=1, GC=3),
               "AC-MD": t("crassus", "wild:2/2", AC=2, MD=2), "MD-DM": t("crassus", "wild:2/2", MD=2, DM=2),
               "CY-AG": t("human", "sword:5/1", CY=1, AG=5), "AG-SY": t("human", "sword:4/2", AG=2, SY=4)}


def test_c12_a_player_who_cannot_place_loses():
    g = solo({"spaces": SWORDS_FULL, "human_hand": ["sword:6/0"]})
    assert g.over and g.winner == CRASSUS and "cannot place" in g.end


def test_c12_poison_no_token_behind_the_screen_loses():
    g = solo({"human_hand": [], "modules": {"poison": True}}, poison=True)
    assert g.over and g.winner == CRASSUS and "no token" in g.end


# -- C-11, C-13..C-18 bonuses -----------------------------------------------------------------
def close_hu(bonus: str, **kw: Any) -> Game:
    """Your turn; ship 3/3 on HU-MT closes HU, which you win (6 against 0), taking ``bonus``."""
    extra = kw.pop("extra", {})
    return solo({"spaces": {"HU-HC": t("human", "shield:6/0", HU=6, HC=0), **extra.pop("spaces", {})},
                 "bonuses": {"HU": bonus}, "human_hand": ["ship:3/3", "wild:2/2"], **extra}, **kw)


def test_c13_tactics_gives_one_more_turn():
    g = close_hu("tactics")
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    assert g.extra is True
    flow.draw(g, HUMAN)
    assert g.turn == HUMAN and g.step == "play" and not g.extra
    tid = g.hand[HUMAN][0]
    move = next(m for m in R.placements(g, HUMAN) if m[0] == tid)
    flow.play(g, HUMAN, move[1], TOKENS[tid].name.split(":")[0] + f":{move[2]}/{move[3]}", SPACE_A[move[1]])
    finish_turn(g)
    assert g.turn == CRASSUS


def test_c13_two_tactics_at_once_still_give_one_extra_turn():
    g = solo({"spaces": DOUBLE, "bonuses": {"HU": "tactics", "MT": "tactics"}, "human_hand": ["ship:6/0", "wild:2/2"]})
    flow.play(g, HUMAN, sp("HU-MT"), "ship:6/0", P["HU"])
    flow.draw(g, HUMAN)
    assert g.turn == HUMAN
    tid = g.hand[HUMAN][0]
    m = next(m for m in R.placements(g, HUMAN) if m[0] == tid)
    flow.play(g, HUMAN, m[1], f"{TOKENS[tid].icon}:{m[2]}/{m[3]}", SPACE_A[m[1]])
    finish_turn(g)
    assert g.turn == CRASSUS


def test_c14_wealth_draws_one_now_and_one_at_the_end():
    g = close_hu("wealth")
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    assert g.due[HUMAN] == 2 and g.step == "draw"
    flow.draw(g, HUMAN)
    assert g.turn == HUMAN
    flow.draw(g, HUMAN)
    assert g.turn == CRASSUS and len(g.hand[HUMAN]) == 3          # the hand limit grew by one


def test_c14_wealth_with_your_bag_empty_says_there_is_nothing_to_draw():
    """C-14 at the end of the tokens: Wealth's draw «now» and the turn's draw find the bag empty.
    The page said «Wealth: you draw one more token now» (the table then looked into an empty bag);
    it says the bag is empty, and the turn ends with nothing drawn."""
    from engine.caesar.tokens import BASE_IDS
    rest = [TOKENS[i].name for i in BASE_IDS if TOKENS[i].name != "shield:6/0"]      # all 15 behind your screen
    for g, you in ((close_hu("wealth", extra={"human_hand": rest}), True),
                   (duel({"spaces": {"HU-HC": t("caesar", "shield:6/0", HU=6, HC=0)}, "bonuses": {"HU": "wealth"},
                          "hands": {"caesar": rest, "pompey": ["sword:6/0", "ship:5/1"]}}), False)):
        assert g.bag[0] == []
        steps = flow.play(g, 0, sp("HU-MT"), "ship:3/3", P["HU"])
        said = next(s["text"] for s in steps if s.get("bonus") == "wealth" and s["action"] == "bonus")
        assert said == ("Wealth: your bag is empty; there is nothing more to draw." if you
                        else "Wealth: the bag is empty; Caesar draws nothing more.")
        assert g.turn == 1 and len(g.hand[0]) == 14                 # nothing drawn; his turn


def test_c15_might_flips_a_token_to_zero():
    g = close_hu("might", extra={"spaces": {"SC-IT": t("crassus", "sword:5/1", SC=5, IT=1)}})
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    assert g.pending == ["might"] and g.step == "bonus"
    with pytest.raises(IllegalMove):
        flow.draw(g, HUMAN)                                        # decide the Might first
    with pytest.raises(IllegalMove, match="no face-up token"):
        flow.might(g, HUMAN, "HU-HC")                              # your own token
    step = flow.might(g, HUMAN, "SC-IT")
    assert step["space"] == "SC-IT" and g.down[sp("SC-IT")] == 1
    assert g.inf[CRASSUS][P["SC"]] == 0 and g.inf[CRASSUS][P["IT"]] == 0
    assert g.step == "draw"


def test_c15_flipping_next_to_a_closed_province_changes_nothing_there():
    g = close_hu("might", extra={"spaces": {"HC-GA": t("crassus", "sword:6/0", HC=6, GA=0)}})
    # HC is full (your 0 + his 6): his.
    assert g.ctrl[P["HC"]] == CRASSUS
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    flow.might(g, HUMAN, "HC-GA")
    assert g.ctrl[P["HC"]] == CRASSUS and g.slots[P["HC"]] == 1


def test_c15_might_flips_a_control_marker():
    g = close_hu("might", extra={"spaces": {"HC-GA": t("crassus", "sword:6/0", HC=6, GA=0)}})
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    flow.might(g, HUMAN, "HC")
    assert g.cflip[P["HC"]] == 1 and g.ctrl[P["HC"]] == CRASSUS
    with pytest.raises(IllegalMove):
        flow.might(g, HUMAN, "HC")                                  # no Might left


# GA-GC: 0 toward Gallia (open), 6 toward Cisalpina (closed); AG-SY, AS-SY between closed
# provinces; SC-IT between open ones. Markers: Syria's neighbours all closed, Asia has Creta open.
MIXED_MIGHT = {"spaces": {"GA-GC": t("crassus", "sword:6/0", GA=0, GC=6), "SC-IT": t("crassus", "sword:5/1", SC=5, IT=1),
                          "AG-SY": t("crassus", "wild:2/2", AG=2, SY=2), "AS-SY": t("crassus", "wild:3/1", AS=3, SY=1)},
               "control": {"GC": "crassus", "SY": "crassus", "AS": "crassus", "AG": "human"}}


def test_c15_a_flip_changes_something_only_toward_an_open_province_or_beside_one():
    """C-15: a flipped token counts 0/0, which changes nothing in a province already closed (the
    rulebook's note), nor where it faces an open one with 0; a flipped control marker gives no
    border markers (C-10), which only an open neighbour could still give. ``flip_changes`` says
    so for each target, checked against what the flip does to the open provinces' influence."""
    from engine.caesar.position import position_of
    g = close_hu("might", extra=MIXED_MIGHT)
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    spaces, provs = R.might_targets(g, HUMAN)
    targets = [SPACES[s] for s in spaces] + [PROVINCES[x] for x in provs]
    said = {x: R.flip_changes(position_of(g), x) for x in targets}
    assert said == {"GA-GC": False, "SC-IT": True, "AG-SY": False, "AS-SY": False,
                    "GC": True, "SY": False, "AS": True}
    open_ = [x for x in range(len(PROVINCES)) if g.ctrl[x] == OPEN]
    for s in spaces:                                                  # the influence it changes
        before = [g.inf[CRASSUS][x] for x in open_]
        R.flip_token(g, s)
        assert ([g.inf[CRASSUS][x] for x in open_] != before) == said[SPACES[s]], SPACES[s]
    for x in provs:                                                   # a neighbour that may close
        assert any(g.ctrl[nb] == OPEN for nb, _s in NEIGHBOURS[x]) == said[PROVINCES[x]]


def test_c16_senate_example_one_then_none_then_three():
    # The rulebook's example: 1st Senate with control -> 1 marker under it; 2nd without
    # control -> 0; 3rd with control -> 3.
    g = solo({"spaces": {"HU-HC": t("human", "shield:6/0", HU=6, HC=0), "AG-SY": t("crassus", "sword:6/0", SY=6, AG=0)},
              "bonuses": {"HU": "senate", "SY": "senate", "HC": "senate"},
              "human_hand": ["ship:3/3", "shield:3/3", "sword:5/1"]})
    got = []
    plays = (("HU-MT", "ship:3/3", "HU"), ("AS-SY", "shield:3/3", "SY"), ("HC-GA", "sword:5/1", "HC"))
    for space, token, face in plays:
        steps = flow.play(g, HUMAN, sp(space), token, P[face])
        got.append(next(s["markers"] for s in steps if s["action"] == "bonus"))
        finish_turn(g)
        flow.begin_turn(g, HUMAN)                                   # skip Crassus's turns
    assert got == [1, 0, 3] and g.senate[HUMAN] == 3 and g.senate_markers[HUMAN] == 4
    assert g.ctrl[P["SY"]] == CRASSUS


def test_c17_poison_in_a_duel_sends_an_opponent_token_back():
    g = duel({"spaces": {"HU-HC": t("caesar", "shield:6/0", HU=6, HC=0)}, "bonuses": {"HU": "poison"},
              "modules": {"poison": True}, "hands": {"caesar": ["ship:3/3", "wild:2/2"],
                                                      "pompey": ["sword:6/0", "ship:5/1", "wild:3/1"]}},
             poison=True)
    steps = flow.play(g, 0, sp("HU-MT"), "ship:3/3", P["HU"])
    poison = steps[-1]
    assert poison["bonus"] == "poison" and len(g.hand[1]) == 2
    assert poison["token"] in ("sword:6/0", "ship:5/1", "wild:3/1") and problems(g) == []


def test_c18_centurion_instead_of_the_draw():
    g = close_hu("centurion", extra={"modules": {"centurions": True}}, centurions=True)
    bag = list(g.bag[HUMAN])
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    assert g.pending == ["centurion"]
    with pytest.raises(IllegalMove):
        flow.centurion(g, HUMAN, "sword:6/0")                      # not a centurion
    flow.centurion(g, HUMAN, "sword:7/0")
    assert g.turn == CRASSUS and g.bag[HUMAN] == bag                # no draw this turn
    assert [TOKENS[x].name for x in g.hand[HUMAN]] == ["wild:2/2", "sword:7/0"]
    assert len(g.cent[HUMAN]) == 2


def test_c18_centurion_skipped_draws_as_usual():
    g = close_hu("centurion", extra={"modules": {"centurions": True}}, centurions=True)
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    flow.centurion(g, HUMAN, "skip")
    assert g.step == "draw" and g.due[HUMAN] == 1
    flow.draw(g, HUMAN)
    assert g.turn == CRASSUS and len(g.cent[HUMAN]) == 3


def test_c18_centurion_skipped_with_your_bag_empty_does_not_say_you_draw():
    """C-18 at the end of the tokens: skipping the Centurion said «you draw as usual» with nothing
    left in your bag to draw; it says the bag is empty, and the turn ends with nothing drawn."""
    from engine.caesar.tokens import BASE_IDS
    rest = [TOKENS[i].name for i in BASE_IDS if TOKENS[i].name != "shield:6/0"]      # all 15 behind your screen
    g = close_hu("centurion", extra={"modules": {"centurions": True}, "human_hand": rest}, centurions=True)
    assert g.bag[HUMAN] == []
    flow.play(g, HUMAN, sp("HU-MT"), "ship:3/3", P["HU"])
    step = flow.centurion(g, HUMAN, "skip")
    assert step["text"] == "Centurion discarded; your bag is empty, so you draw nothing."
    assert g.turn == CRASSUS and len(g.hand[HUMAN]) == 14 and len(g.cent[HUMAN]) == 3


# -- C-21 border control ----------------------------------------------------------------------
BC = {"modules": {"poison": True, "border_control": True}, "bonus_pool": ["tactics"],
      "human_hand": ["sword:6/0", "ship:5/1", "wild:2/2"]}


def test_c21_face_down_play_on_a_double_border_draws_a_bonus_and_exerts_no_influence():
    g = solo(BC, poison=True, border_control=True)
    steps = flow.play(g, HUMAN, sp("SD-GA"), "sword:6/0", -1, down=True)   # a sword on a shield space
    assert steps[0]["face_down"] is True and g.down[sp("SD-GA")] == 1
    assert g.inf[HUMAN][P["SD"]] == 0 and g.inf[HUMAN][P["GA"]] == 0
    assert steps[1]["bonus"] == "tactics" and g.pool == [] and g.extra is True


def test_c21_face_down_only_on_double_borders_and_only_with_the_module():
    g = solo(BC, poison=True, border_control=True)
    with pytest.raises(IllegalMove, match="double-bordered"):
        flow.play(g, HUMAN, sp("SD-SC"), "ship:5/1", -1, down=True)
    g = solo({"human_hand": HAND})
    with pytest.raises(IllegalMove, match="Border control"):
        flow.play(g, HUMAN, sp("SD-GA"), "wild:2/2", -1, down=True)


def test_c21_physical_bag_names_the_face_down_bonus():
    g = solo({**BC, "bonus_pool": ["might", "tactics"]}, poison=True, border_control=True,
             inputs={"human_bag": "physical"})
    with pytest.raises(BadArguments):
        flow.play(g, HUMAN, sp("NU-AF"), "ship:5/1", -1, down=True)
    with pytest.raises(IllegalMove):
        flow.play(g, HUMAN, sp("NU-AF"), "ship:5/1", -1, down=True, bonus="senate")
    steps = flow.play(g, HUMAN, sp("NU-AF"), "ship:5/1", -1, down=True, bonus="tactics")
    assert steps[1]["bonus"] == "tactics" and g.pool == ["might"]


# -- §6 worked example: Achaea ----------------------------------------------------------------
def test_example_achaea_pompey_closes_takes_tactics_caesar_controls():
    g = duel({"spaces": {"IT-AC": t("caesar", "ship:6/0", AC=6, IT=0), "AC-MD": t("caesar", "sword:4/2", AC=2, MD=4),
                         "AF-AC": t("pompey", "ship:5/1", AC=1, AF=5)},
              "bonuses": {"AC": "tactics"}, "turn": "pompey",
              "hands": {"pompey": ["shield:3/3", "wild:2/2"]}})
    steps = flow.play(g, 1, sp("AC-CR"), "shield:3/3", P["AC"])
    close = steps[1]
    assert close["totals"] == {"caesar": 8, "pompey": 4} and close["winner"] == "caesar"
    assert close["bonus"] == "tactics" and steps[2]["bonus"] == "tactics" and steps[2]["by"] == "pompey"
    assert g.ctrl[P["AC"]] == 0 and g.markers == [11, 12]
    flow.draw(g, 1)
    assert g.turn == 1                                              # Tactics: Pompey again


def test_open_provinces_and_invariants_after_a_turn():
    g = flow.new_game("solo", 9)
    flow.crassus_turn(g)
    assert problems(g) == [] and sum(1 for x in range(18) if g.ctrl[x] == OPEN) == 18
