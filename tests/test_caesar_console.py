"""Caesar! through the console protocol (PROTOCOL.md "Caesar! solo", docs/protocol/caesar.md):
field names, options, errors that change nothing, position round trips, physical inputs, the
duel's private draws."""
from __future__ import annotations

import json
from typing import Any

import pytest

from engine.caesar.autocrassus import decide
from engine.caesar.board import SPACES
from engine.caesar.model import Game
from engine.caesar.tokens import TOKENS
from engine.rng import Rng
from firmware.screens import base

ACTIONS = {"draw", "play", "discard", "centurion", "close", "bonus"}
STEPS = {"capture", "close", "defend", "reinforce", "expand", "center", "anywhere"}
PROTOCOL_EXAMPLE = {
    "human_side": "caesar", "bonuses": {"IT": "senate", "HU": "tactics"},
    "spaces": {"SC-SD": {"by": "crassus", "token": "ship:5/1", "toward": {"SC": 5, "SD": 1}, "face_down": False}},
    "control": {"AC": "human", "GA": "none"}, "flipped_control": [], "border_markers": {"AS-SY": "human"},
    "crassus_row": ["sword:6/0", "wild:2/2"], "markers_left": {"human": 12, "crassus": 12},
    "senate": {"human": 0, "crassus": 0}, "modules": {"poison": False, "centurions": False, "border_control": False}}


def ok(console, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"], (line, out)
    return out


def err(console, line: str, code: str) -> str:
    before = console.request("state")
    out = console.request(line)
    assert out["ok"] is False and out["error"] == code, (line, out)
    assert console.request("state") == before                      # nothing changed
    return out["message"]


def human_turn(console, rng: Rng) -> None:
    """A random legal placement, then the bonus decisions and draws it owes."""
    moves = ok(console, "moves")
    pick = rng.choice(moves["moves"] + moves["face_down"])
    if pick.get("face_down"):
        ok(console, f"play {pick['space']} {pick['token']} down")
    else:
        prov, first = next(iter(pick["toward"].items()))
        icon = pick["token"].split(":")[0]
        other = pick["toward"][next(k for k in pick["toward"] if k != prov)]
        ok(console, f"play {pick['space']} {icon}:{first}/{other} {prov}")
    while True:
        st = ok(console, "state")["state"]
        if st["winner"] or st["turn"] != "human" or st["step"] == "play":
            return
        if st["human"]["pending"]:
            kind = st["human"]["pending"][0]
            ok(console, f"{kind} skip")
        else:
            ok(console, "draw")


def test_new_solo_state_and_first_crassus_turn(console):
    out = ok(console, "new caesar-solo side=pompey difficulty=hard seed=5")
    st = out["state"]
    assert out["game"] == "caesar-solo" and st["side"] == "pompey" and st["crassus_side"] == "caesar"
    assert st["turn"] == "crassus" and len(st["position"]["crassus_row"]) == 3        # S-2
    assert st["tiles"]["deck"] == "AAAACC" and st["tiles"]["unverified"] is True      # S-3, S-4
    assert set(st["position"]) == {"human_side", "bonuses", "spaces", "control", "flipped_control",
                                   "border_markers", "crassus_row", "markers_left", "senate", "modules"}
    err(console, "play SD-SC ship:5/1 SC", "not_your_turn")
    d1, d2 = ok(console, "decide"), ok(console, "decide")
    assert d1 == d2 and d1["step"] in STEPS and set(d1) >= {"step", "space", "token", "toward", "why"}
    turn = ok(console, "crassus")
    assert turn["tile"] in "AC" and all(s["action"] in ACTIONS for s in turn["steps"])
    play = next(s for s in turn["steps"] if s["action"] == "play")
    assert {"step", "space", "token", "toward", "why"} <= set(play)
    assert turn["state"]["turn"] == "human"
    err(console, "crassus", "not_your_turn")
    log = ok(console, "log 1")["log"][0]
    from engine.caesar.board import PROVINCE_INDEX, PROVINCE_NAMES
    a, b = (PROVINCE_NAMES[PROVINCE_INDEX[c]] for c in play["space"].split("-"))
    assert log.startswith(f"Crassus: Tile {turn['tile']} — ") and f"{a}–{b}" in log   # the space by its names


def test_decide_reports_the_rule_and_changes_nothing(console):
    ok(console, "new caesar-solo seed=2")
    ok(console, "position " + json.dumps({"spaces": {"HU-HC": {"by": "human", "token": "shield:4/2",
                                                                "toward": {"HU": 4, "HC": 2}}},
                                           "crassus_row": ["ship:6/0", "ship:5/1"]}))
    before = ok(console, "state")
    d = ok(console, "decide")
    assert (d["step"], d["rule"], d["space"], d["token"], d["toward"]) == \
        ("capture", "S-9", "HU-MT", "ship:5/1", {"HU": 5, "MT": 1})            # S-9
    # the why names the rulebook's point in words; the digest's ID is only the rule field
    assert d["why"].startswith("1st point of the priority list (capture): ") and "S-9" not in d["why"]
    assert ok(console, "state") == before


@pytest.mark.parametrize("edition,pos,played", [
    # S-12 then S-17: sword 6/0 reinforces Numidia on MT-NU or NU-AF, both level, neither central
    ("ru", {"spaces": {"NU-SC": {"by": "crassus", "token": "ship:3/3", "toward": {"NU": 3, "SC": 3}}},
            "crassus_row": ["sword:6/0"]}, {"MT-NU", "NU-AF"}),
    # S-14, UA: Italy first among central provinces, then its three free spaces at random (S-17)
    ("uk", {"crassus_row": ["wild:4/0"]}, {"SD-IT", "SC-IT", "IT-AC"}),
])
def test_decide_never_predicts_a_random_tie(console, edition, pos, played):   # S-14, S-16, S-17; issue 20
    """A list that ends "at random": decide answers every equally good play and draws nothing,
    whatever the seed; the play he makes from that row (drawing) is one of them, and over the
    seeds each of them."""
    made = set()
    for seed in range(8):
        ok(console, f"new caesar-solo seed={seed} edition={edition}")
        ok(console, "position " + json.dumps(pos))
        before = ok(console, "state")["state"]
        d = ok(console, "decide")
        assert d["random"] is True and d["space"] is None and d["token"] is None
        assert {p["space"] for p in d["plays"]} == played                    # the same set for every seed
        spaces = [p["space"] for p in d["plays"]]
        assert spaces == sorted(spaces, key=SPACES.index)                   # in the board's order
        assert "at random" in d["why"] and f"{len(played)} equally good plays" in d["why"]
        assert ok(console, "state")["state"] == before                       # nothing drawn
        g = Game.from_json(console.session.state)
        made.add(SPACES[decide(g, g.rng).space])          # what he plays from this row draws one of them
    assert made == played


def test_moves_refuses_a_stray_argument_like_decide(console):
    # bad input gets a clear message: «moves HU» read as the moves of Hispania Ulterior answered
    # every move on the board without a word
    ok(console, "new caesar-solo seed=3")
    ok(console, "crassus")
    assert "Usage: moves" in err(console, "moves HU", "bad_arguments")
    assert ok(console, "moves side=human")["side"] == "human"


def test_decide_with_no_legal_placement(console):
    ok(console, "new caesar-solo seed=2")
    ok(console, 'position {"crassus_row": []}')
    d = ok(console, "decide")
    assert d["step"] is None and d["space"] is None and d["rule"] == "S-19"
    assert d["why"] == "His row is empty: he cannot place a token and loses."


def test_bad_new_options_are_refused(console):
    for line in ("new caesar-solo difficulty=extreme", "new caesar-solo border-control=1",
                 "new caesar-solo colour=red", "new caesar-solo tiles=Z:play", "new caesar-solo tiles=A:draw2",
                 "new caesar-solo side=crassus", "new caesar-solo harder-when=control",
                 "new caesar-solo crassus-bag=physical", "new caesar-solo row=ship:5/1"):
        out = console.request(line)
        assert out["ok"] is False and out["error"] == "bad_arguments", line


def test_custom_tiles_are_used_and_reported(console):
    st = ok(console, "new caesar-solo difficulty=easy tiles=A:draw1+play;B:draw1+play+play seed=4")["state"]
    tiles = st["tiles"]
    assert tiles["definitions"]["A"] == "draw1+play" and tiles["definitions"]["B"] == "draw1+play+play"
    assert tiles["unverified"] is False and tiles["user_defined"] == ["A", "B"]
    turn = ok(console, "crassus")
    actions = [s["action"] for s in turn["steps"] if s["action"] in ("draw", "play", "discard")]
    assert actions == (["draw", "play"] if turn["tile"] == "A" else ["draw", "play", "play"])
    st = ok(console, "new caesar-solo difficulty=easy tiles=A:draw1+play seed=4")["state"]
    assert st["tiles"]["unverified"] is True and st["tiles"]["unverified_letters"] == ["B"]


def test_custom_tiles_take_the_russian_rulebooks_letters(console):   # S-3, S-4
    """S-3: the Russian box prints its tiles А Б В Г Д («Обычный: 3×А, 2×Б, 1×В»), and ``crassus
    tile=В`` takes them; ``tiles=В:draw2+play`` was refused with «"В:draw2+play" should look like
    B:draw1+play (letters A/B/C/D/E …)» — for А, a letter that looks the same as the A it lists."""
    st = ok(console, "new caesar-solo tiles=А:draw1+play;в:draw1+play+play;Г:centurion+play+play seed=4")["state"]
    tiles = st["tiles"]
    assert tiles["definitions"]["A"] == "draw1+play" and tiles["definitions"]["C"] == "draw1+play+play"
    assert tiles["definitions"]["D"] == "centurion+play+play" and tiles["user_defined"] == ["A", "C", "D"]
    assert "given twice" in err(console, "new caesar-solo tiles=А:draw1+play;A:draw2+play", "bad_arguments")
    err(console, "new caesar-solo tiles=Ж:play", "bad_arguments")


def test_illegal_plays_change_nothing_and_say_why(console):
    ok(console, "new caesar-solo seed=8")
    ok(console, "crassus")
    hand = ok(console, "state")["state"]["human"]["hand"]
    assert "no token" in err(console, "play SD-SC ship:9/9 SC", "bad_arguments")
    missing = next(TOKENS[i].name for i in range(16) if TOKENS[i].name not in hand)
    assert "not behind" in err(console, f"play SD-SC {missing} SC", "illegal_move")
    err(console, "play XX-YY ship:5/1 SC", "bad_arguments")
    err(console, "play SD-SC", "bad_arguments")
    sword = next((h for h in hand if h.startswith("sword")), None)
    if sword:
        assert "ship space" in err(console, f"play SD-SC {sword} SC", "illegal_move")
    err(console, f"play SD-SC {hand[0]} IT", "illegal_move")
    err(console, "might skip", "illegal_move")
    err(console, "draw", "illegal_move")


def test_position_round_trips_midgame(console):
    ok(console, "new caesar-solo poison=1 centurions=1 border-control=1 seed=12")
    rng = Rng(3)
    for _ in range(6):
        if ok(console, "state")["state"]["winner"]:
            break
        ok(console, "crassus")
        human_turn(console, rng)
    pos = ok(console, "state")["state"]["position"]
    assert pos["spaces"]
    back = ok(console, "position " + json.dumps(pos))
    assert back["position"] == pos and ok(console, "state")["state"]["position"] == pos


def test_the_protocol_example_position_is_accepted_and_round_trips(console):
    ok(console, "new caesar-solo seed=1")
    out = ok(console, "position " + json.dumps(PROTOCOL_EXAMPLE))
    pos = out["position"]
    assert pos["spaces"] == {"SD-SC": {"by": "crassus", "token": "ship:5/1", "toward": {"SD": 1, "SC": 5},
                                       "face_down": False}}
    assert pos["control"] == {"AC": "human", "GA": "none"} and pos["crassus_row"] == ["sword:6/0", "wild:2/2"]
    assert ok(console, "position " + json.dumps(pos))["position"] == pos
    defaults = ok(console, "position {}")["position"]
    assert defaults["markers_left"] == {"human": 12, "crassus": 12} and defaults["spaces"] == {}
    assert defaults["crassus_row"] == [] and defaults["modules"]["poison"] is False


@pytest.mark.parametrize("body,code,words", [
    ("[1, 2]", "bad_json", "object"),
    ("{nope", "bad_json", "parse"),
    ('{"spacez": {}}', "bad_json", "unknown key"),
    ('{"spaces": {"SC-IT": {"by": "human", "token": "ship:5/1", "toward": {"SC": 5, "IT": 1}}}}',
     "illegal_move", "sword space"),
    ('{"spaces": {"SC-IT": {"by": "human", "token": "sword:5/1", "toward": {"SC": 4, "IT": 2}}}}',
     "illegal_move", "numbers"),
    ('{"spaces": {"SC-XX": {"by": "human", "token": "sword:5/1", "toward": {"SC": 5, "IT": 1}}}}',
     "bad_arguments", "not a border space"),
    ('{"crassus_row": ["sword:6/0", "sword:6/0"]}', "illegal_move", "only 1"),
    ('{"crassus_row": ["sword:7/0"]}', "illegal_move", "centurion"),
    ('{"bonuses": {"HU": "poison"}}', "illegal_move", "poison"),
    ('{"markers_left": {"human": 0}}', "bad_json", "from 1 to 12"),
    ('{"modules": {"border_control": true}}', "illegal_move", "C-21"),
])
def test_bad_positions_are_refused_with_the_reason(console, body, code, words):
    ok(console, "new caesar-solo seed=1")
    assert words in err(console, "position " + body, code)


def test_a_whole_game_to_the_end_then_game_over(console):
    ok(console, "new caesar-solo difficulty=easy seed=21")
    rng = Rng(21)
    for _ in range(80):
        st = ok(console, "state")["state"]
        if st["winner"]:
            break
        if st["turn"] == "crassus":
            ok(console, "crassus")
        else:
            human_turn(console, rng)
    st = ok(console, "state")["state"]
    assert st["winner"] in ("human", "crassus") and st["step"] == "over" and st["end"]
    err(console, "crassus", "game_over")
    err(console, "play SD-SC ship:5/1 SC", "game_over")
    # PROTOCOL third round: a game whose rules ended it is already ended; 'position' reopened it
    # (the board emptied, the winner gone, 'crassus' played on in a game History had filed)
    err(console, "position {}", "game_over")
    assert ok(console, "state")["state"] == st
    console.session.run("position {}")       # one an older Legatus stored still replays (not asked)
    undone = ok(console, "undo")
    assert undone["state"]["winner"] is None


def test_physical_tiles_and_bags(console):
    st = ok(console, "new caesar-solo tiles-input=physical bag-input=physical "
                     "row=sword:6/0,ship:5/1,wild:2/2 seed=3")["state"]
    assert st["position"]["crassus_row"] == ["sword:6/0", "ship:5/1", "wild:2/2"]
    assert st["human"]["hand"] == [] and st["human"]["draws_due"] == 2
    err(console, "crassus", "bad_arguments")                         # which tile?
    err(console, "crassus tile=B", "bad_arguments")                   # B draws one: name it
    err(console, "crassus tile=B draw=sword:6/0", "illegal_move")     # that one is in his row
    turn = ok(console, "crassus tile=B draw=shield:4/2")
    assert turn["steps"][0]["tokens"] == ["shield:4/2"]
    assert ok(console, "state")["state"]["tiles"]["stack_left"] == "AAABC"
    err(console, "play SD-SC ship:5/1 SC", "illegal_move")            # draw your hand first
    err(console, "draw", "bad_arguments")                             # physical: say what
    assert ok(console, "draw ship:5/1")["token"] == "ship:5/1"
    err(console, "draw ship:5/1", "illegal_move")                     # not in the bag any more
    ok(console, "draw wild:4/0")
    st = ok(console, "state")["state"]
    assert st["human"]["hand"] == ["ship:5/1", "wild:4/0"] and st["step"] == "play"


def test_his_physical_draws_named_for_a_tile_whose_play_ends_the_game_first(console):   # C-12, S-4, S-5
    """A tile of the player's own (S-4: contents editable) that draws after its play: the table
    draws and names his tokens before the turn. His play places his last control marker (C-12)
    and the game ends before the draw: the turn is taken, the names left over change nothing (the
    tokens stay in his bag). It was refused ("Tile A did not draw ..."): his winning turn could not
    be entered, and the device, which asks for the draws first, was stuck."""
    ok(console, "new caesar-solo tiles-input=physical bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 "
                "tiles=A:play+draw1 seed=3")
    ok(console, "position " + json.dumps({
        "spaces": {"HU-HC": {"by": "human", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
        "crassus_row": ["ship:6/0"], "markers_left": {"human": 12, "crassus": 1}, "turn": "crassus"}))
    bag = ok(console, "state")["state"]["crassus"]["bag_contents"]
    turn = ok(console, "crassus tile=A draw=sword:5/1")
    assert turn["winner"] == "crassus" and [s["action"] for s in turn["steps"]] == ["play", "close"]
    st = ok(console, "state")["state"]
    assert st["crassus"]["bag_contents"] == bag and st["winner"] == "crassus"      # nothing drawn
    err(console, "crassus tile=A draw=sword:4/2,sword:3/3", "game_over")
    ok(console, "undo")                                                          # and it is one step
    assert ok(console, "state")["state"]["turn"] == "crassus"
    ok(console, "position " + json.dumps({"crassus_row": ["ship:6/0"], "turn": "crassus"}))
    err(console, "crassus tile=A draw=sword:5/1,sword:4/2", "bad_arguments")    # the game goes on: one draw


@pytest.mark.parametrize("lang, wins, goes_on", [
    ("en", "Crassus placed his last control marker and wins.", "The game goes on: its end is taken back too."),
    ("ru", "Красс размещает свой последний жетон контроля и побеждает.", "Игра продолжается: её конец тоже отменён.")])
def test_undoing_his_turn_that_ended_the_game_says_its_end_is_taken_back(console, lang, wins, goes_on):  # C-12, S-5
    """His turn with the box's tiles places his last control marker: the game ends (C-12). Its
    undo says how to lay his tile back and what the turn did — and said nothing of the end it
    takes back; then it ended with the end's whole sentence again (3–4 rows of a note read at
    the table, 11–12 screens in all). Now it ends saying that the game goes on, its end taken
    back too, as the undo question names it ("… with tile A and the game's end."); how it ended
    stays in the Log, once."""
    ok(console, f"settings language={lang}")
    ok(console, "new caesar-solo tiles-input=physical bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 "
                "tiles=A:play+draw1 seed=3")
    ok(console, "position " + json.dumps({
        "spaces": {"HU-HC": {"by": "human", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
        "crassus_row": ["ship:6/0"], "markers_left": {"human": 12, "crassus": 1}, "turn": "crassus"}))
    assert ok(console, "crassus tile=A")["winner"] == "crassus"
    step = ok(console, "log")["log"][-1]
    assert step.endswith(wins), step                                 # what the undo question names
    undone = ok(console, "undo")["undone"]
    assert undone.endswith(" " + goes_on) and wins not in undone, undone
    assert ("Put tile A face down on top of his stack" if lang == "en" else "Верните приказ А лицом вниз") in undone, undone
    assert ok(console, "state")["state"]["winner"] is None
    assert sum(wins in line for line in ok(console, "log")["log"]) == 1          # the Log keeps how it ended


def test_digital_tiles_with_his_physical_bag_reveal_first(console):
    ok(console, "new caesar-solo difficulty=easy crassus-bag=physical row=sword:6/0,ship:5/1,wild:2/2 seed=3")
    assert "reveal-tile" in err(console, "crassus", "bad_arguments")      # the tile draws: reveal it first
    shown = ok(console, "reveal-tile")
    assert shown["tile"] in "AB" and shown["draws"] == (2 if shown["tile"] == "A" else 1)
    assert ok(console, "state")["state"]["tiles"]["revealed"] == shown["tile"]
    err(console, "reveal-tile", "illegal_move")
    bag = ok(console, "state")["state"]["crassus"]["bag_contents"]
    turn = ok(console, "crassus draw=" + ",".join(bag[:shown["draws"]]))
    assert turn["tile"] == shown["tile"] and turn["steps"][0]["tokens"] == bag[:shown["draws"]]
    assert ok(console, "state")["state"]["tiles"]["revealed"] is None


def test_physical_tile_c_is_refused_when_not_in_the_stack(console):
    ok(console, "new caesar-solo difficulty=easy tiles-input=physical seed=3")
    assert "not in the stack" in err(console, "crassus tile=C", "illegal_move")
    err(console, "crassus tile=A draw=ship:5/1", "bad_arguments")     # digital bag: no draw=


def test_duel_private_draws_and_turns(console):
    st = ok(console, "new caesar-duel seed=6")["state"]
    assert st["turn"] == "caesar" and st["players"]["caesar"]["hand"] == 2
    assert "human" not in st
    hand = ok(console, "hand caesar")
    assert hand["private"] is True and len(hand["hand"]) == 2
    moves = ok(console, "moves")["moves"]
    m = moves[0]
    prov = next(iter(m["toward"]))
    other = next(k for k in m["toward"] if k != prov)
    ok(console, f"play {m['space']} {m['token'].split(':')[0]}:{m['toward'][prov]}/{m['toward'][other]} {prov}")
    drawn = ok(console, "draw")
    assert drawn["private"] is True and drawn["side"] == "caesar" and drawn["token"]
    log = ok(console, "log 1")["log"][0]
    assert drawn["token"] not in log                                   # private: not in the log
    st = ok(console, "state")["state"]
    assert st["turn"] == "pompey"
    assert st["last_player_turn"]["steps"][-1] == {"action": "draw", "by": "caesar", "tokens": [], "private": True}
    # C-6: the token the device drew for him, to take from his bag, is his hand's last (private)
    assert ok(console, "hand caesar")["drawn"] == [drawn["token"]] and ok(console, "hand pompey")["drawn"] == []
    m = ok(console, "moves")["moves"][0]
    prov = next(iter(m["toward"]))
    other = next(k for k in m["toward"] if k != prov)
    ok(console, f"play {m['space']} {m['token'].split(':')[0]}:{m['toward'][prov]}/{m['toward'][other]} {prov}")
    assert ok(console, "hand caesar")["drawn"] == []                    # Pompey has played since
    err(console, "crassus", "unknown_command")


def test_a_duel_hand_names_the_draws_not_the_centurion_taken(console):   # C-6, C-14, C-18
    """Caesar's shield 3/3 on HU-HC closes both Hispanias: Wealth (draw one now, C-14) and a
    Centurion (taken instead of the turn's draw, C-18, decided first). His hand ends with the
    centurion, then the Wealth draw; `hand` names the token to take from the bag: the draw only."""
    ok(console, "new caesar-duel seed=5 centurions=1")
    ok(console, "position " + json.dumps({
        "spaces": {"HU-MT": {"by": "caesar", "token": "ship:6/0", "toward": {"HU": 6, "MT": 0}},
                   "HC-GA": {"by": "caesar", "token": "sword:6/0", "toward": {"HC": 6, "GA": 0}}},
        "bonuses": {"HU": "wealth", "HC": "centurion"}, "modules": {"centurions": True}, "turn": "caesar",
        "hands": {"caesar": ["shield:3/3", "wild:2/2"], "pompey": ["ship:5/1", "sword:5/1"]}}))
    ok(console, "play HU-HC shield:3/3 HU")
    assert ok(console, "state")["state"]["pending"] == ["centurion"]
    ok(console, "centurion sword:7/0")                                 # instead of the turn's draw
    assert ok(console, "state")["state"]["players"]["caesar"]["draws_due"] == 1      # Wealth's
    drawn = [ok(console, "draw")["token"]]
    hand = ok(console, "hand caesar")
    assert hand["hand"][-2:] == ["sword:7/0", drawn[0]] and hand["drawn"] == drawn


def test_a_duel_token_placed_face_down_is_not_named_in_the_log(console):
    """C-21: a token placed face down shows its back, so the opponent does not learn which one left
    the hand. The log (main menu → Log shows it to whoever holds the device) and the undo sentence
    named it: "Caesar: placed wild 2/2 on Numidia–Africa face down"."""
    ok(console, "new caesar-duel poison=1 border-control=1 seed=5")
    token = ok(console, "hand caesar")["hand"][0]
    out = ok(console, f"play NU-AF {token} down")
    assert out["play"]["face_down"] is True
    name = token.split(":")[1]                                         # "2/2", as the log writes it
    log = ok(console, "log 1")["log"][0]
    assert "face down" in log and name not in log, log
    assert name not in ok(console, "undo")["undone"]


@pytest.mark.parametrize("lang,said,undone", [
    ("en", "Undone: You: placed ship 3/3 on Sardinia–Gallia face down and drew the face-down bonus Poison; ",
     "Undone: take ship 3/3 back from Sardinia–Gallia behind your screen, lay the bonus Poison face down beside the "
     "board and take back what it did (the Log lists it)."),
    ("ru", "Отменено: Вы: кладёте корабль 3/3 в ячейку Сардиния–Галлия лицом вниз и тянете закрытый бонус Яд; ",
     "Отменено: заберите корабль 3/3 из ячейки Сардиния–Галлия за свою ширму, бонус Яд положите лицом вниз рядом "
     "с полем и отмените то, что он сделал (см. Журнал)."),
    ("uk", "Скасовано: Ви: кладете корабель 3/3 на зону Сардинія–Галлія долілиць і берете закритий бонус Отрута; ",
     "Скасовано: заберіть корабель 3/3 із зони Сардинія–Галлія за свою ширму, бонус Отрута покладіть долілиць біля "
     "поля й скасуйте те, що він зробив (див. Журнал).")])
@pytest.mark.parametrize("bag", ["digital", "physical"])
def test_undoing_a_face_down_play_names_the_bonus_it_drew(console, lang, said, undone, bag):   # C-21
    """A face-down play on a double border draws one of the bonuses set aside face down (C-21).
    Its log and the undo said only "You: placed ship 3/3 on Sardinia–Gallia face down; poison: …":
    after the undo the table did not learn which bonus goes back face down beside the board. Now
    the play step has the ``bonus`` drawn and the log says it; in a duel it names the bonus, never
    the token."""
    from scripts.shots_caesar import FACE_DOWN
    ok(console, f"settings language={lang}")
    ok(console, f"new caesar-solo seed=3 poison=1 border-control=1 human-bag={bag}")
    ok(console, FACE_DOWN)
    pool = ok(console, "state")["state"]["bonus_pool_left"]
    out = ok(console, "play SD-GA ship:3/3 down" + (" bonus=poison" if bag == "physical" else ""))
    assert out["play"]["bonus"] == "poison" and pool.count("poison") - 1 == \
        ok(console, "state")["state"]["bonus_pool_left"].count("poison")
    assert ok(console, "log 1")["log"][0].startswith(said.split(": ", 1)[1])
    said = ok(console, "undo")["undone"]
    assert said == undone                                   # where the token and the bonus go back
    assert len(base.wrap(said)) <= 8                        # two panels at most
    ok(console, "new caesar-duel poison=1 border-control=1 seed=5")
    token = ok(console, "hand caesar")["hand"][0]
    left = ok(console, "state")["state"]["bonus_pool_left"]
    drawn = ok(console, f"play NU-AF {token} down")["play"]["bonus"]
    log = ok(console, "log 1")["log"][0]
    assert token.split(":")[1] not in log, log
    assert sorted(left) == sorted(ok(console, "state")["state"]["bonus_pool_left"] + [drawn])
    said = ok(console, "undo")["undone"]                                # the bonus named, the token not
    assert token.split(":")[1] not in said and (ok(console, "log 1")["log"][0] == said), said
    assert f" {log.split('; ')[0].split(' ')[-1]} " in said                 # the bonus drawn, as the log names it
    assert len(base.wrap(said)) <= 10                       # (it was 13 rows in Russian)


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: Crassus: Tile A revealed. If you drew tokens from his bag for it, put them back into his bag."),
    ("ru", "Отменено: Красс: приказ А открыт. Если вы уже вытянули для него жетоны из мешочка Красса, верните их в "
           "мешочек."),
    ("uk", "Скасовано: Красс: тайл A відкрито. Якщо ви вже витягли для нього жетони з торбинки Красса, поверніть їх "
           "у торбинку.")])
def test_undoing_his_tile_turned_up_for_a_physical_bag_says_where_its_tokens_go(console, lang, said):   # S-5
    """His bag physical, the device turns up his tile (``reveal-tile``) and the table draws what it
    takes. Its undo said only "Undone: Crassus: Tile A revealed.": tokens already drawn for it
    stayed in his row at the table while the device's row had none of them. Now the undo says
    to put them back; with his bag digital there is nothing to draw at the table and it says
    nothing of it."""
    ok(console, f"settings language={lang}")
    edition = {"en": "mixed", "ru": "ru", "uk": "uk"}[lang]
    ok(console, f"new caesar-solo difficulty=easy bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 seed=2 "
                f"edition={edition}")
    ok(console, "draw wild:2/2")
    ok(console, "draw sword:5/1")
    assert ok(console, "reveal-tile")["draws"] == 2
    assert ok(console, "undo")["undone"] == said
    ok(console, f"new caesar-solo difficulty=easy crassus-bag=digital human-bag=physical seed=2 edition={edition}")
    ok(console, "reveal-tile")
    assert ok(console, "undo")["undone"] == said.split(".")[0] + "."          # nothing drawn at the table


def test_console_subprocess_end_to_end(state_dir):
    from tests.conftest import run_console
    out = run_console(state_dir, ["new caesar-solo side=caesar difficulty=normal seed=9", "decide", "crassus",
                                  "state", "play SD-SC wild:9/9 SC"])
    assert [o["ok"] for o in out] == [True, True, True, True, False]
    assert out[2]["tile"] and out[3]["state"]["turn"] == "human"
    assert out[4]["error"] == "bad_arguments"


def test_the_documented_crassus_turn_is_what_the_console_answers(console):
    """docs/protocol/caesar.md shows one whole ``crassus`` turn under the Russian rulebook (S-14,
    then S-12 because S-11 needs him to trail everywhere) and its log line in English and Russian:
    replaying its request lines must give that answer (the example was left behind when the
    draws changed)."""
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol" / "caesar.md").read_text("utf-8")
    block = re.search(r"```\n(> new caesar-solo [^\n]*)\n> crassus\n(\{.*?)\n```", doc, re.S)
    assert block, "the crassus example is gone from docs/protocol/caesar.md"
    shown = json.loads(block.group(2).replace('"state":{...}', '"state":null'))
    ok(console, block.group(1)[2:])
    out = ok(console, "crassus")
    assert (out["tile"], out["tile_actions"], out["winner"], out["next"]) == \
        (shown["tile"], shown["tile_actions"], shown["winner"], shown["next"])
    assert out["steps"] == shown["steps"]
    assert [s["rule"] for s in out["steps"] if s["action"] == "play"] == ["S-14", "S-12"]
    log_en = re.search(r"^Log: `(Crassus: Tile [^`]*)`", doc, re.M)
    log_ru = re.search(r"^In Russian: `([^`]*?)…`", doc, re.M)
    assert log_en and log_ru
    assert ok(console, "log 1")["log"] == [log_en.group(1)]
    ok(console, "settings language=ru")
    assert ok(console, "log 1")["log"][0].startswith(log_ru.group(1))


def test_history_counts_the_markers_he_placed_not_those_the_harder_game_removed(console):
    """S-8 harder game: a bonus removed from Auto-Crassus takes one of his control markers out of
    the game. History's "control markers placed" (and the players' scores) count the markers on
    the board and under Senate tokens (C-12), not the one removed."""
    ok(console, "new caesar-solo seed=4 harder=1 tiles-input=physical")
    ok(console, "position " + json.dumps({
        "spaces": {"HU-HC": {"by": "human", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
        "bonuses": {"HU": "might", "HC": "might"}, "crassus_row": ["ship:6/0", "ship:5/1"],
        "markers_left": {"human": 12, "crassus": 2}}))
    out = ok(console, "crassus tile=B")          # draw 1, play: he captures one of the two Hispanias
    close = next(s for s in out["steps"] if s["action"] == "close")
    bonus = next(s for s in out["steps"] if s["action"] == "bonus")
    assert close["province"] in ("HU", "HC") and close["winner"] == "crassus" and close["markers"] == 1  # S-9
    assert bonus["bonus"] == "might" and bonus["removed"] is True and bonus["marker_removed"] is True  # S-8
    markers = out["state"]["markers"]["crassus"]
    assert out["winner"] == "crassus" and markers["left"] == 0 and markers["removed"] == 1
    placed = markers["on_board"] + markers["under_senate"]
    assert placed == 11
    entry = ok(console, "history 1")["games"][0]
    assert {p["name"]: p["score"] for p in entry["players"]} == {"Caesar": 0, "Auto-Crassus": placed}
    assert entry["result"].endswith(f"control markers placed: Caesar 0, Auto-Crassus {placed}.")


def test_physical_tiles_by_the_russian_rulebook_s_letters(console):
    """S-3: the Russian rulebook prints the command tiles А Б В Г Д (В is tile C, the strongest),
    the Ukrainian one A B C D E. A Russian player names the tile on the table as printed, and
    the stack is listed in those letters (not the Latin AAABBC, where B reads as В)."""
    ok(console, "settings language=ru")
    ok(console, "new caesar-solo seed=4 tiles-input=physical")
    message = err(console, "crassus tile=Z", "illegal_move")
    assert "АААББВ" in message and "AAABBC" not in message
    assert "crassus tile=А" in err(console, "crassus", "bad_arguments")   # the example names the tile as printed
    out = ok(console, "crassus tile=В")                                    # Cyrillic В: tile C
    assert out["tile"] == "C" and out["tile_actions"] == "draw2+play+play"
    assert ok(console, "log 1")["log"][0].startswith("Красс: приказ В —")
    ok(console, "settings language=uk")
    ok(console, "new caesar-solo seed=4 tiles-input=physical")
    assert "AAABBC" in err(console, "crassus tile=Z", "illegal_move")    # the Ukrainian rulebook: Latin
    assert ok(console, "crassus tile=C")["tile"] == "C"


@pytest.mark.parametrize("lang,edition,stack,said", [("ru", "uk", "AAABBC", "Красс: приказ C —"),
                                                     ("uk", "ru", "АААББВ", "Красс: тайл В —"),
                                                     ("en", "ru", "АААББВ", "Crassus: Tile В —")])
def test_the_tiles_are_named_as_the_chosen_edition_prints_them(console, lang, edition, stack, said):
    """S-3: the tiles on the table are the chosen edition's: the Russian box's А Б В Г Д
    (caesar-mori-rules-ru.txt, «Лёгкий: 4×А, 2×Б»), the Ukrainian box's A B C D E
    (caesar-mori-rules-ua.txt, «легкий: 4xA, 2xB»), whatever the language. A Russian reader with
    the Ukrainian box was told «приказ В» for his tile C, and his tile B reads as В."""
    ok(console, f"settings language={lang}")
    ok(console, f"new caesar-solo seed=4 tiles-input=physical edition={edition}")
    message = err(console, "crassus tile=Z", "illegal_move")
    assert stack in message, message
    ok(console, "crassus tile=C")
    assert ok(console, "log 1")["log"][0].startswith(said)


@pytest.mark.parametrize("lang,turn,bag", [("ru", "Ход Цезаря", "мешочек Цезаря"),
                                           ("uk", "Хід Цезаря", "торбинка Цезаря")])
def test_duel_sentences_name_the_side_in_its_case(console, lang, turn, bag):
    """A duel's 'whose turn' and 'whose bag' are whole phrases per side (the name declined), not
    «Ход: Цезарь: …» or «мешочек: Цезарь: …» glued from a label and the name."""
    ok(console, f"settings language={lang}")
    out = ok(console, "new caesar-duel seed=4 bag-input=physical")
    assert out["state"]["next"].startswith(turn + ": ")
    ok(console, "draw ship:5/1")                                  # his starting draws (C-5)
    message = err(console, "draw ship:5/1", "illegal_move")       # only one ship 5/1 in a bag (C-3)
    assert f"({bag}: " in message, message


@pytest.mark.parametrize("lang,listed", [
    ("ru", "выбирает наугад из 3 равноценных ходов: универсальный 4/0 в ячейку Сардиния–Италия, 4 к провинции "
           "Италия; универсальный 4/0 в ячейку Сицилия–Италия, 4 к провинции Италия; "),
    ("uk", "обирає навмання з 3 рівноцінних ходів: універсальний 4/0 на зону Сардинія–Італія, 4 до провінції "
           "Італія; універсальний 4/0 на зону Сицилія–Італія, 4 до провінції Італія; ")])
def test_decide_lists_the_equally_good_plays_inside_one_sentence(console, lang, listed):   # S-14, S-17
    """The plays a random tie chooses among are items of the why sentence, not whole sentences
    glued after its colon («…ходов: Положите …; Положите …»); each play keeps its own sentence."""
    ok(console, f"settings language={lang}")
    ok(console, f"new caesar-solo seed=1 edition={lang}")
    ok(console, 'position {"crassus_row": ["wild:4/0"]}')
    d = ok(console, "decide")
    assert listed in d["why"]
    assert d["plays"][0]["text"].startswith("Положите " if lang == "ru" else "Покладіть ")


@pytest.mark.parametrize("lang,said", [("ru", "Сначала решите, что делать с бонусом. Ваш ход: примените Могущество"),
                                       ("uk", "Спершу вирішіть щодо бонуса. Ваш хід: застосуйте Міць")])
def test_a_draw_before_the_might_decision_says_so_in_whole_words(console, lang, said):   # C-11, C-15
    """A `draw` sent from the laptop while your Might waits (C-11: use the bonus or discard it; C-15)
    is refused and changes nothing; the Russian refusal read «Сначала решите с бонусом» (no such
    phrase: one decides *what to do* with it), then «…с бонусом: Ваш ход: …» (a sentence after a
    colon, its «Ваш» capital mid-sentence): two sentences, as «Игра окончена. …» is."""
    from scripts.shots_caesar import HU_MIGHT, NEW
    ok(console, f"settings language={lang}")
    ok(console, NEW)
    ok(console, HU_MIGHT)
    ok(console, "play HU-MT ship:3/3 HU")                          # closes Hispania Ulterior: its Might
    assert err(console, "draw", "illegal_move").startswith(said)


@pytest.mark.parametrize("lang, goes_on", [("en", "The game goes on: its end is taken back too."),
                                           ("ru", "Игра продолжается: её конец тоже отменён."),
                                           ("uk", "Гра триває: її кінець теж скасовано.")])
@pytest.mark.parametrize("new, side", [("new caesar-solo seed=3", "human"), ("new caesar-duel seed=3", "caesar")])
def test_undoing_your_winning_placement_says_the_game_goes_on_once(console, lang, goes_on, new, side):   # C-12
    """Your placement that places your last control marker (C-12) taken back: the notice said the
    end again after a colon, «…её конец тоже отменён: Вы разместили свой последний жетон контроля и
    побеждаете.» — «Вы» capital mid-sentence, and «you win» in the note that takes the win back. It
    ends as the undo of his winning turn does: the game goes on, its end taken back too (the Log
    keeps how it ended, just above)."""
    ok(console, f"settings language={lang}")
    ok(console, new)
    foe = "crassus" if side == "human" else "pompey"
    ok(console, "position " + json.dumps({
        "spaces": {"HU-MT": {"by": side, "token": "ship:6/0", "toward": {"HU": 6, "MT": 0}}},
        "markers_left": {side: 1, foe: 12}, "turn": side,
        **({"human_hand": ["shield:3/3", "wild:2/2"]} if side == "human"
           else {"hands": {"caesar": ["shield:3/3", "wild:2/2"], "pompey": ["ship:5/1", "sword:5/1"]}})}))
    assert ok(console, "play HU-HC shield:3/3 HU")["winner"] == side
    won = ok(console, "log 1")["log"][0]
    undone = ok(console, "undo")["undone"]
    assert undone.endswith(" " + goes_on), undone
    end = ok(console, "log 2")["log"]
    assert end[0] == won and won.split(". ")[-1] not in undone     # how it ended: in the Log, once
    assert ok(console, "state")["state"]["winner"] is None


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: you drew shield 4/2. Put that token back into the bag."),
    ("ru", "Отменено: вы вытянули щит 4/2. Верните этот жетон в мешочек."),
    ("uk", "Скасовано: ви витягли щит 4/2. Поверніть цей жетон у торбинку.")])
def test_an_undone_draw_says_the_token_goes_back_into_the_bag(console, lang, said):   # C-6
    """Every other undo says what to take back on the table; a draw's said only «Undone: You drew
    shield 4/2.», and the token stayed behind the screen while the device had it in the bag again
    (one token short there: a later undo further back, or a Poison, then went by another hand).
    One sentence of its own: the Log's «Вы вытянули…» after «Отменено:» kept its capital
    mid-sentence («Отменено: Вы вытянули щит 4/2.»)."""
    from scripts.shots_caesar import HU_MIGHT, NEW
    ok(console, f"settings language={lang}")
    ok(console, NEW)
    ok(console, HU_MIGHT)
    ok(console, "play HU-MT ship:3/3 HU")
    ok(console, "might SC-IT")
    assert ok(console, "draw")["token"] == "shield:4/2"
    out = ok(console, "undo")
    assert out["undone"] == said, out["undone"]
    assert "shield:4/2" in out["state"]["human"]["bag_contents"]
    assert ok(console, "draw")["token"] == "shield:4/2"                # and never drawn anew


def test_an_undone_private_draw_names_no_token(console):   # C-6 (duel: hands are private)
    ok(console, "new caesar-duel seed=4")
    moves = ok(console, "moves")["moves"]
    ok(console, moves[0]["line"] if "line" in moves[0] else f"play {moves[0]['space']} {moves[0]['token']} "
       f"{next(iter(moves[0]['toward']))}")
    drawn = ok(console, "draw")
    out = ok(console, "undo")
    assert out["undone"] == "Undone: Caesar drew a token (private). Put the token drawn back into the bag.", out
    assert drawn["token"] not in out["undone"]


@pytest.mark.parametrize("lang, said", [
    ("ru", "Отменено: Цезарь вытянул жетон (тайно). Верните вытянутый жетон в мешочек."),
    ("uk", "Скасовано: Цезар витягнув жетон (таємно). Поверніть витягнутий жетон у торбинку.")])
def test_an_undone_private_draw_is_said_in_the_past(console, lang, said):   # C-6 (duel)
    """The undo of the device's private draw is a sentence of its own in the past: it put the
    Log's present-tense sentence after «Отменено:», «Отменено: Цезарь тянет жетон (тайно). …»
    (uk «Скасовано: Цезар тягне жетон (таємно). …»)."""
    ok(console, f"settings language={lang}")
    ok(console, "new caesar-duel seed=4")
    m = ok(console, "moves")["moves"][0]
    ok(console, f"play {m['space']} {m['token']} {next(iter(m['toward']))}")
    ok(console, "draw")
    assert ok(console, "undo")["undone"] == said


_MARKER_MIGHT = "position " + json.dumps({     # your ship closes Hispania Ulterior (Might); he controls Achaea
    "spaces": {"HU-HC": {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}}},
    "control": {"AC": "crassus"}, "bonuses": {"HU": "might"}, "turn": "human",
    "human_hand": ["ship:3/3", "wild:2/2"]})
_CENTURION = "position " + json.dumps({        # your ship closes Hispania Ulterior: a Centurion bonus
    "spaces": {"HU-HC": {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}}},
    "bonuses": {"HU": "centurion"}, "modules": {"centurions": True}, "turn": "human",
    "human_hand": ["ship:3/3", "wild:2/2"]})


@pytest.mark.parametrize("lang,said", [
    ("en", ["Undone: Might: sword 5/1 on Sicilia–Italia. Turn that token face up again.",
            "Undone: Might: the control marker in Achaea. Turn it face up again.",
            "Undone: Might discarded. Nothing to change on the table: use the Might or discard it again."]),
    ("ru", ["Отменено: Могущество: меч 5/1 в ячейке Сицилия–Италия. Переверните этот жетон обратно лицом вверх.",
            "Отменено: Могущество: жетон контроля в провинции Ахея. Переверните его обратно лицом вверх.",
            "Отменено: Могущество сброшено. На столе ничего менять не нужно: снова решите, использовать "
            "Могущество или сбросить его."]),
    ("uk", ["Скасовано: Міць: меч 5/1 на зоні Сицилія–Італія. Переверніть цей жетон знову лицем догори.",
            "Скасовано: Міць: маркер контролю в провінції Ахея. Переверніть його знову лицем догори.",
            "Скасовано: Міць скинуто. На столі нічого змінювати не треба: знову вирішіть, використати Міць "
            "чи скинути її."])])
def test_an_undone_might_says_what_to_turn_back_on_the_table(console, lang, said):   # C-15
    """Every other undo says what to take back on the table; a Might's said only «Undone: Might:
    sword 5/1 on Sicilia–Italia is flipped face down…», the token staying face down on the board
    while the device had it face up again. It names what the Might flipped as the undo question
    does, in few words (the whole sentence again took eleven or twelve rows: five or six pages)."""
    from scripts.shots_caesar import HU_MIGHT, NEW
    ok(console, f"settings language={lang}")
    ok(console, NEW)
    ok(console, HU_MIGHT)
    ok(console, "play HU-MT ship:3/3 HU")
    ok(console, "might SC-IT")
    out = ok(console, "undo")
    assert out["undone"] == said[0], out["undone"]
    assert out["state"]["position"]["spaces"]["SC-IT"]["face_down"] is False and out["state"]["step"] == "bonus"
    ok(console, NEW)
    ok(console, _MARKER_MIGHT)
    ok(console, "play HU-MT ship:3/3 HU")
    ok(console, "might AC")
    out = ok(console, "undo")
    assert out["undone"] == said[1], out["undone"]
    assert out["state"]["position"]["flipped_control"] == []
    ok(console, "might skip")
    assert ok(console, "undo")["undone"] == said[2]


@pytest.mark.parametrize("lang,said", [
    ("en", ["Undone: Centurion: sword 7/0 behind the screen. Take it back out and lay it in front of the "
            "screen again.",
            "Undone: Centurion discarded; you draw as usual. Nothing to change on the table: use the "
            "Centurion or discard it again."]),
    ("ru", ["Отменено: Центурион: меч 7/0 за ширму. Достаньте его из-за ширмы и снова положите перед "
            "ширмой.",
            "Отменено: Центурион сброшен; вы тянете жетон как обычно. На столе ничего менять не нужно: "
            "снова решите, взять центуриона или сбросить бонус."]),
    ("uk", ["Скасовано: Центуріон: меч 7/0 за ширму. Дістаньте його з-за ширми й знову покладіть перед "
            "ширмою.",
            "Скасовано: Центуріона скинуто; ви тягнете жетон як зазвичай. На столі нічого змінювати не "
            "треба: знову вирішіть, взяти центуріона чи скинути бонус."])])
def test_an_undone_centurion_says_what_to_take_back_on_the_table(console, lang, said):   # C-18, C-20
    """The centurion taken went behind the real screen; its undo said only «Undone: Centurion: sword
    7/0 goes behind the screen…», and the token stayed there while the device had it in front of
    the screen again (C-20: the centurions lie in front of it)."""
    ok(console, f"settings language={lang}")
    ok(console, "new caesar-solo seed=3 centurions=1")
    ok(console, _CENTURION)
    ok(console, "play HU-MT ship:3/3 HU")
    ok(console, "centurion sword:7/0")
    out = ok(console, "undo")
    assert out["undone"] == said[0], out["undone"]
    assert out["state"]["human"]["hand"] == ["wild:2/2"] and out["state"]["step"] == "bonus"
    ok(console, "centurion skip")
    assert ok(console, "undo")["undone"] == said[1]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_an_undone_placement_says_the_token_goes_back_behind_the_screen(console, lang):   # C-6
    """A placement that closed nothing, undone, said only «Undone: You: placed ship 5/1 on …»: the
    token stayed on the board while the device had it behind your screen again."""
    ok(console, f"settings language={lang}")
    ok(console, "new caesar-solo side=caesar difficulty=normal edition=ru seed=6")
    ok(console, "crassus")
    placed = ok(console, "play AF-AC ship:5/1 AF")
    assert not placed["closed"]
    out = ok(console, "undo")
    said = {"en": "Undone: take ship 5/1 back from Africa–Achaea behind your screen.",
            "ru": "Отменено: заберите корабль 5/1 из ячейки Африка–Ахея за ширму.",
            "uk": "Скасовано: заберіть корабель 5/1 із зони Африка–Ахея за ширму."}[lang]
    assert out["undone"] == said, out["undone"]
    assert "ship:5/1" in out["state"]["human"]["hand"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_an_undone_duel_placement_says_whose_screen_the_token_goes_behind(console, lang):   # C-6
    """A duel placement undone said only «Undone: Caesar: placed wild 4/0 on …»: nothing of the
    token on the board, which the device had behind Caesar's screen again."""
    ok(console, f"settings language={lang}")
    ok(console, "new caesar-duel seed=4")
    ok(console, "play HU-HC wild:4/0 HU")
    out = ok(console, "undo")
    said = {"en": "Undone: Caesar takes wild 4/0 back from Hispania Ulterior–Hispania Citerior behind their screen.",
            "ru": "Отменено: Цезарь забирает универсальный 4/0 из ячейки Дальняя Испания–Ближняя Испания обратно за "
                  "свою ширму.",
            "uk": "Скасовано: Цезар забирає універсальний 4/0 із зони Далека Іспанія–Ближня Іспанія назад за свою "
                  "ширму."}[lang]
    assert out["undone"] == said, out["undone"]
    assert "wild:4/0" in ok(console, "hand caesar")["hand"]
