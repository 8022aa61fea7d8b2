"""Never out of step with the board (issue 23 §2-3, engine side): the order of your Might, your
draw and his turn (C-6, C-11, C-15); a turn's pages kept in the state until read, across a power
cut; the closure preview (C-7..C-12, C-16); the set-up guide (C-5, C-19..C-21, S-2); no "Crassus
would…" after the end; the log's last line names the winner (C-12)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
from typing import Any

import pytest

from engine.caesar import flow
from engine.caesar.board import PROVINCE_INDEX, SPACES
from engine.caesar.model import HUMAN
from engine.caesar.position import apply_position
from engine.caesar.preview import closure_preview
from tests.conftest import ROOT, console_cmd, run_console


def ok(console: Any, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"], (line, out)
    return dict(out)


def err(console: Any, line: str, code: str) -> dict[str, Any]:
    before = console.request("state")
    out = console.request(line)
    assert out["ok"] is False and out["error"] == code, (line, out)
    assert console.request("state") == before
    return dict(out)


def t(by: str, token: str, **toward: int) -> dict[str, Any]:
    return {"by": by, "token": token, "toward": toward}


# Your turn: ship 6/0 on HU-MT closes Hispania Ulterior (you 4+6 against his 0), whose bonus is
# Might; his sword 4/2 lies on MT-NU for you to flip.
MIGHT = {"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2), "MT-NU": t("crassus", "sword:4/2", MT=4, NU=2)},
         "bonuses": {"HU": "might"}, "human_hand": ["ship:6/0", "ship:5/1"], "turn": "human",
         "crassus_row": ["ship:3/3", "sword:3/3", "shield:3/3"]}


# -- C-6 / C-11 / C-15: your Might and your draw come before his turn ------------------------------
def test_might_then_your_draw_then_his_turn(console):
    """C-11: after a closure the placing player uses the bonuses gained; C-15 Might flips an
    opponent token; C-6: the turn ends with the draw from the bag. His turn cannot start before
    both, and your turn's record keeps the closure, the flip and the token to take, in order."""
    ok(console, "new caesar-solo seed=3 edition=ru")
    ok(console, "position " + json.dumps(MIGHT))
    out = ok(console, "play HU-MT ship:6/0 HU")
    assert out["state"]["step"] == "bonus" and out["state"]["turn"] == "human"
    assert out["state"]["human"]["pending"] == ["might"]
    err(console, "crassus", "not_your_turn")                       # his turn waits for your Might
    err(console, "draw", "illegal_move")                           # C-11 before C-6: Might first
    out = ok(console, "might MT-NU")
    assert out["state"]["step"] == "draw" and out["state"]["turn"] == "human"
    assert out["state"]["human"]["draws_due"] == 1
    err(console, "crassus", "not_your_turn")                       # and for your draw (C-6)
    drawn = ok(console, "draw")
    st = drawn["state"]
    assert st["turn"] == "crassus" and st["human"]["draws_due"] == 0
    mine = st["last_player_turn"]
    assert mine["current"] is True and mine["by"] == "human"
    assert [s["action"] for s in mine["steps"]] == ["play", "close", "bonus", "bonus", "draw"]
    assert [p["kind"] for p in mine["pages"]] == ["close", "bonus", "draw"]
    flip = mine["steps"][mine["pages"][1]["steps"][0]]
    assert flip["space"] == "MT-NU" and "flipped face down" in flip["text"]
    take = mine["steps"][mine["pages"][2]["steps"][0]]
    assert take["tokens"] == [drawn["token"]] and "Take " in take["text"]
    turn = ok(console, "crassus")
    assert turn["state"]["last_player_turn"]["current"] is False     # his turn came after
    assert turn["state"]["last_crassus_turn"]["current"] is True


# -- a turn's pages survive a power cut ------------------------------------------------------------
def test_his_turn_pages_stay_until_read_across_a_kill(state_dir):
    """The device journals the whole turn with `crassus`; a power cut before a page was read
    leaves the turn in the state as `current` with its pages, and the read count the device
    stored (setting caesar.read) says which page comes next."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run_console(state_dir, ["new caesar-solo seed=11 difficulty=hard edition=uk"])
    proc = subprocess.Popen(console_cmd(state_dir), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"crassus\n")
    proc.stdin.flush()
    turn = json.loads(proc.stdout.readline())
    assert turn["ok"]
    last = turn["state"]["last_crassus_turn"]
    pages = last["pages"]
    assert pages[0]["kind"] == "tile" and sum(p["kind"] == "play" for p in pages) >= 1
    proc.stdin.write(f"settings caesar.read={last['read_id']}:1\n".encode())      # the tile page was read
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["ok"]
    proc.send_signal(signal.SIGKILL)                                         # power cut on page 2
    proc.wait()
    proc.stdout.close()
    proc.stdin.close()
    after = run_console(state_dir, ["state", "settings"])
    again = after[0]["state"]["last_crassus_turn"]
    assert again["current"] is True and again["id"] == last["id"] and again["pages"] == pages
    read_id, read = after[1]["settings"]["caesar.read"].split(":")
    assert read_id == again["read_id"] and int(read) == 1                         # resume on page 2: his play
    assert again["steps"][again["pages"][int(read)]["steps"][0]]["action"] == "play"
    # your move afterwards: the turn is no longer current, and undo takes his whole turn back
    replies = run_console(state_dir, ["moves"])
    move = replies[0]["moves"][0]
    prov, first = next(iter(move["toward"].items()))
    second = next(v for k, v in move["toward"].items() if k != prov)
    icon = move["token"].split(":")[0]
    out = run_console(state_dir, [f"play {move['space']} {icon}:{first}/{second} {prov}", "undo", "undo"])
    assert out[0]["state"]["last_crassus_turn"]["current"] is False
    assert out[2]["state"]["turn"] == "crassus" and out[2]["state"]["last_crassus_turn"] is None


def test_a_stored_game_from_before_shows_no_stale_turn_as_current():
    from engine.caesar.model import Game
    from engine.caesar.view import view
    g = flow.new_game("solo", 5)
    flow.crassus_turn(g)
    data = g.to_json()
    for key in ("mine", "latest"):
        data.pop(key)                                     # as a state stored by the older program
    data["rules"] = {"reshuffle": "all", "defend": "any", "ties": "list", "stuck": "lose", "harder": "control",
                     "crassus-ties": "own"}               # its rules then: no edition, no harder-when
    v = view(Game.from_json(data))
    assert v["last_crassus_turn"]["current"] is False and v["last_crassus_turn"]["pages"]
    assert v["last_player_turn"] is None
    assert v["rules"] == {**data["rules"], "edition": "mixed", "harder-when": "control"}


# -- the closure preview -----------------------------------------------------------------------------
def test_preview_a_double_closure_its_markers_and_the_end():
    """C-7: one placement closes two provinces; C-9 each to the larger total (C-8: the placing
    player takes both bonuses); C-10 border markers; C-12 the game ends at the last marker."""
    g = flow.new_game("solo", 4, rules={"edition": "ru"})
    # HU-MT is the last empty space of both Hispania Ulterior and Mauretania.
    pos = {"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2), "MT-SD": t("crassus", "ship:5/1", MT=5, SD=1),
                      "MT-NU": t("human", "sword:3/3", MT=3, NU=3)},
           "bonuses": {"HU": "wealth", "MT": "senate"}, "turn": "human",
           "human_hand": ["ship:6/0", "ship:4/2"], "crassus_row": ["sword:6/0"]}
    apply_position(g, pos)
    before = g.to_json()
    s = SPACES.index("HU-MT")
    pv = closure_preview(g, HUMAN, s, "ship:4/2", PROVINCE_INDEX["MT"])     # 4 toward MT, 2 toward HU
    assert g.to_json() == before                                            # nothing changed
    assert [(c.province, c.totals, c.winner, c.markers) for c in pv.closes] == [
        ("HU", {"human": 6, "crassus": 0}, "human", 1), ("MT", {"human": 7, "crassus": 5}, "human", 1)]
    assert pv.closes[0].border_markers == ["HU-MT"] and pv.closes[1].border_markers == []   # C-10: once
    assert [c.bonus for c in pv.closes] == ["wealth", "senate"]
    assert pv.senate_markers == 1 and not pv.ends_game and pv.winner is None   # C-16: 1st Senate
    assert pv.markers_left == {"human": 12 - 3 - 1, "crassus": 12}
    apply_position(g, {**pos, "markers_left": {"human": 4, "crassus": 12}})
    pv = closure_preview(g, HUMAN, s, "ship:4/2", PROVINCE_INDEX["MT"])
    assert pv.ends_game and pv.winner == "human" and pv.markers_left["human"] == 0
    assert pv.text == "This placement ends the game: you win."
    # with 6/0 toward HU Mauretania is his, 5 against your 3: one closure each way
    pv = closure_preview(g, HUMAN, s, "ship:6/0", PROVINCE_INDEX["HU"])
    assert [(c.province, c.winner) for c in pv.closes] == [("HU", "human"), ("MT", "crassus")]
    assert pv.closes[1].text.startswith("Mauretania is closed, you 3, Crassus 5: Crassus wins it")


def test_preview_through_the_console_is_read_only_and_predicts_no_draw(console):
    ok(console, "new caesar-solo seed=6 edition=uk poison=1")
    pos = {"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2)}, "bonuses": {"HU": "poison"},
           "modules": {"poison": True}, "turn": "human", "human_hand": ["ship:6/0", "ship:4/2", "ship:3/3"],
           "crassus_row": ["sword:6/0", "wild:2/2", "ship:5/1"]}
    ok(console, "position " + json.dumps(pos))
    before = ok(console, "state")
    pv = ok(console, "preview HU-MT ship:6/0 HU")
    assert ok(console, "state") == before
    assert pv["closes"][0]["province"] == "HU" and pv["closes"][0]["bonus"] == "poison"
    assert "token" not in json.dumps(pv["closes"])                  # which token Poison takes: not said
    err(console, "preview HU-MT sword:6/0 HU", "illegal_move")        # not in your hand
    err(console, "preview SC-IT ship:6/0 SC", "illegal_move")         # a sword space (C-3)


# -- the set-up guide ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_guide_with_every_expansion_says_what_to_do_with_everything(console, lang):
    """C-19/C-20: 3 bonus tokens per expansion mixed in, 3 per expansion left over; C-21 (Border
    control): those 6 lie face down beside the board; C-20 and the solo Centurions set-up: your 3
    centurions face up, his face down in a stack; C-4: 12 control markers each; S-2: his row."""
    ok(console, f"settings language={lang}")
    ok(console, "new caesar-solo seed=8 poison=1 centurions=1 border-control=1")
    steps = {s["key"]: s for s in ok(console, "guide")["steps"]}
    assert list(steps) == ["senate", "bonuses", "left_over", "markers", "centurions", "his_centurions", "row",
                           "tiles", "hand", "first"]
    words = {"ru": ("6 оставшихся жетонов бонусов", "лицом вниз рядом с полем", "12 жетонов контроля",
                    "лицом вниз стопкой", "Г и Д"),
             "uk": ("6 зайвих жетонів бонусів", "долілиць біля поля", "12 маркерів контролю",
                    "долілиць у стос", "D і E")}[lang]
    text = " ".join(s["text"] for s in steps.values())
    for w in words:
        assert w in text, (w, text)
    assert steps["centurions"]["tokens"] == ["wild:3/3", "sword:7/0", "shield+ship:4/4"]
    assert len(steps["bonuses"]["bonuses"]) == 17 and len(steps["row"]["tokens"]) == 3


# -- no prediction after the end; the log ends with the winner ---------------------------------------
def test_decide_refused_after_the_end_and_the_log_ends_with_the_winner(console):
    ok(console, "new caesar-solo seed=2 edition=ru")
    pos = {"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2)}, "turn": "human",
           "human_hand": ["ship:6/0"], "markers_left": {"human": 1, "crassus": 12}}
    ok(console, "position " + json.dumps(pos))
    out = ok(console, "play HU-MT ship:6/0 HU")
    assert out["winner"] == "human"
    last = ok(console, "log 1")["log"][-1]
    assert last.startswith("You: placed ship 6/0 on Hispania Ulterior–Mauretania, 6 toward Hispania Ulterior")
    assert last.endswith("You placed your last control marker and win.")
    err(console, "decide", "game_over")
    ok(console, "settings language=ru")
    last = ok(console, "log 1")["log"][-1]
    assert last.startswith("Вы: кладёте ") and last.endswith("и побеждаете.")


def test_crassus_log_in_russian_declines_and_orders_the_score(console):
    ok(console, "settings language=ru")
    ok(console, "new caesar-solo seed=2 tiles=A:play;B:play;C:play")       # tiles that only play
    pos = {"spaces": {"HU-HC": t("human", "shield:5/1", HU=5, HC=1)}, "crassus_row": ["ship:6/0", "ship:5/1"],
           "bonuses": {"HU": "might"}}
    ok(console, "position " + json.dumps(pos))
    turn = ok(console, "crassus")                 # his 1st point captures HU with 5 against your 5
    close = next(s for s in turn["steps"] if s["action"] == "close" and s["province"] == "HU")
    assert close["text"] == ("Провинция Дальняя Испания закрыта: у вас 5, у Красса 5. Она достаётся Крассу "
                             "(ничью он всегда выигрывает): он кладёт туда 1 жетон контроля.")
    bonus = next(s for s in turn["steps"] if s["action"] == "bonus")
    assert bonus["text"] == "Могущество убирается из игры."
    log = ok(console, "log 1")["log"][-1]
    assert "Дальняя Испания: закрыто, вы 5–5 Красс, контроль у Красса" in log and "Могущество убрано" in log
