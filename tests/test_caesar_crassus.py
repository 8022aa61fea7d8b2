"""Auto-Crassus (digest §5): every placement step S-9..S-15, the tie-break lists S-16, S-17, S-18,
his bonuses (S-8), tiles (S-2..S-6), S-19 and S-20. Each test builds a position by hand and
states the expected play from the rule, not from the program's output."""
from __future__ import annotations

from typing import Any

import pytest

from engine.caesar import flow
from engine.caesar.autocrassus import Decision, decide
from engine.caesar.board import PROVINCE_INDEX, PROVINCE_SPACES, PROVINCES, SPACE_A, SPACE_B, SPACE_ICON_NAME, SPACES
from engine.caesar.model import CRASSUS, HUMAN, NONE, OPEN, Game
from engine.caesar.position import apply_position
from engine.caesar.rules import can_play_face_down
from engine.caesar.tokens import BASE_IDS, TOKENS


def solo(pos: dict[str, Any] | None = None, seed: int = 1, **kw: Any) -> Game:
    g = flow.new_game("solo", seed, **kw)
    if pos is not None:
        apply_position(g, pos)
    return g


def t(by: str, token: str, **toward: int) -> dict[str, Any]:
    return {"by": by, "token": token, "toward": toward}


def down(by: str, token: str, **toward: int) -> dict[str, Any]:
    return {"by": by, "token": token, "toward": toward, "face_down": True}


def play_of(d: Decision | None) -> tuple[str, str, str, dict[str, int]]:
    assert d is not None
    return d.step, SPACES[d.space], TOKENS[d.tid].name, d.toward()


def decide_at(pos: dict[str, Any], seed: int = 1, **kw: Any) -> Decision | None:
    g = solo(pos, seed, **kw)
    return decide(g, g.rng)


# -- S-9 capture ------------------------------------------------------------------------------
def test_s9_capture_faces_the_province_with_the_lowest_value_that_still_captures():
    # S-9: you have 4 in HU, one empty ship space HU-MT; 5 (of 5/1) is the lowest value >= 4.
    d = decide_at({"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2)},
                   "crassus_row": ["ship:6/0", "ship:5/1"]})
    assert play_of(d) == ("capture", "HU-MT", "ship:5/1", {"HU": 5, "MT": 1})
    assert d.rule == "S-9" and "lowest value" in d.why


def test_s9_a_tie_is_a_capture_and_crassus_takes_the_province():
    # S-8: Auto-Crassus wins ties, so 5 against your 5 captures; the closure gives him HU.
    g = solo({"spaces": {"HU-HC": t("human", "shield:5/1", HU=5, HC=1)},
              "crassus_row": ["ship:6/0", "ship:5/1"]})
    steps: list[dict[str, Any]] = []
    d = flow.crassus_play(g, steps)
    assert play_of(d) == ("capture", "HU-MT", "ship:5/1", {"HU": 5, "MT": 1})
    close = next(s for s in steps if s["action"] == "close")
    assert close["totals"] == {"human": 5, "crassus": 5} and close["winner"] == "crassus"
    assert g.ctrl[PROVINCE_INDEX["HU"]] == CRASSUS and g.markers[CRASSUS] == 11


def test_s9_comes_before_s10_and_double_closure_uses_s16_adjacent_to_central():
    # HU-MT closes HU (you 3) and MT (you 6). 6/0 captures either: facing HU (6 vs 3) or MT
    # (6 vs 6, tie). S-16: MT borders a central province, HU does not -> face MT with 6.
    d = decide_at({"spaces": {"HU-HC": t("human", "shield:3/3", HU=3, HC=3),
                              "MT-SD": t("human", "ship:3/3", MT=3, SD=3),
                              "MT-NU": t("human", "sword:3/3", MT=3, NU=3)},
                   "crassus_row": ["ship:6/0"]})
    assert play_of(d) == ("capture", "HU-MT", "ship:6/0", {"HU": 0, "MT": 6})
    assert "province priority list: of Hispania Ulterior, Mauretania, Mauretania borders a central province" in d.why


def test_s9_no_capture_when_no_value_is_high_enough():
    # You have 6 in HU: 5/1 cannot reach it, so S-9 does not fire (S-10 closes instead).
    d = decide_at({"spaces": {"HU-HC": t("human", "shield:6/0", HU=6, HC=0)},
                   "crassus_row": ["ship:5/1", "ship:4/2"]})
    assert d is not None and d.step == "close"


# -- S-10 close -------------------------------------------------------------------------------
def test_s10_close_faces_the_province_with_the_lowest_value():
    # S-10: no capture (you 6 in HU); closing HU gives you one marker of 12 -> allowed;
    # lowest value 1 (5/1 against 4/2's 2) faces HU.
    d = decide_at({"spaces": {"HU-HC": t("human", "shield:6/0", HU=6, HC=0)},
                   "crassus_row": ["ship:5/1", "ship:4/2"]})
    assert play_of(d) == ("close", "HU-MT", "ship:5/1", {"HU": 1, "MT": 5})
    assert d.rule == "S-10"


def test_s10_skips_a_closure_that_would_make_you_win():
    # With one marker left, your winning HU would end the game (C-12): S-10 does not fire.
    # S-11 then defends Italy, where your lead (6) is larger than in HU (5); ship 4/2 fits
    # IT-AC and IT-DM; S-17: no trailing, AC is central -> IT-AC.
    base = {"spaces": {"HU-HC": t("human", "shield:5/1", HU=5, HC=1),
                       "SC-IT": t("human", "sword:6/0", IT=6, SC=0)},
            "crassus_row": ["ship:4/2"]}
    assert play_of(decide_at(base))[:2] == ("close", "HU-MT")
    d = decide_at({**base, "markers_left": {"human": 1, "crassus": 12}})
    assert play_of(d) == ("defend", "IT-AC", "ship:4/2", {"IT": 4, "AC": 2})


def test_s10_counts_border_markers_you_would_place_and_s11_stays_literal():
    # You control MT; closing HU would give you HU's marker and the HU-MT border marker (C-10):
    # two markers. With three left S-10 closes HU; with two it would make you win, so S-10
    # skips it -- and S-11, read literally, then defends HU (your largest lead, 6) on its last
    # space with his highest value, which closes it all the same (see the report's doubts).
    pos = {"spaces": {"HU-MT": t("human", "ship:6/0", HU=6, MT=0),
                      "MT-SD": t("human", "ship:5/1", MT=5, SD=1),
                      "MT-NU": t("human", "sword:4/2", MT=4, NU=2)},
           "control": {"MT": "human"}, "crassus_row": ["shield:3/3"]}
    d = decide_at({**pos, "markers_left": {"human": 3, "crassus": 12}})
    assert play_of(d) == ("close", "HU-HC", "shield:3/3", {"HU": 3, "HC": 3})
    d = decide_at({**pos, "markers_left": {"human": 2, "crassus": 12}})
    assert play_of(d) == ("defend", "HU-HC", "shield:3/3", {"HU": 3, "HC": 3})


@pytest.mark.parametrize("lang, said", [
    ("en", "2nd point of the priority list (close) passed over: if he closes the province Hispania Ulterior, you win"),
    ("ru", "2-й пункт списка «Приоритет размещения» (закрытие) пропущен: если он закроет провинцию Дальняя Испания, "
           "вы победите"),
    ("uk", "2-га дія списку «Вибір розміщення» (закриття) пропущено: якщо він закриє провінцію Далека Іспанія, "
           "ви переможете")])
def test_s10_passed_over_for_your_win_is_said_where_a_later_point_closes_it_all_the_same(lang, said):
    """S-10 («…и если это не приведёт к победе игрока»; UA «і якщо це не призведе до вашої перемоги»)
    skips closing Hispania Ulterior (your last two markers); S-11, read as printed, then defends it
    on its last space and closes it: you win on his turn. Its why said only «you lead in Hispania
    Ulterior by 6…», the 2nd point's skip unsaid, so the table read his play as a slip of the rule
    (12 of 101 wins of a greedy player over 299 seeds and both S-11 readings came so). Said now, and only when S-10 was
    passed over for your win."""
    from firmware.i18n import localize
    pos = {"spaces": {"HU-MT": t("human", "ship:6/0", HU=6, MT=0),
                      "MT-SD": t("human", "ship:5/1", MT=5, SD=1),
                      "MT-NU": t("human", "sword:4/2", MT=4, NU=2)},
           "control": {"MT": "human"}, "crassus_row": ["shield:3/3"]}
    d = decide_at({**pos, "markers_left": {"human": 2, "crassus": 12}})
    assert d.step == "defend" and said in localize(d.why, lang), localize(d.why, lang)
    d = decide_at({**pos, "markers_left": {"human": 3, "crassus": 12}})       # S-10 closes it: nothing passed over
    assert d.step == "close" and "passed over" not in d.why


# -- S-11 defend ------------------------------------------------------------------------------
def test_s11_defends_your_largest_lead_with_the_highest_value_and_s17_trailing_space():
    # Leads: IT 6, GC 4, DM 2. Italy; ship 6/0 fits IT-AC (AC level) and IT-DM (he trails 2
    # in DM) -> S-17 picks IT-DM even though AC is central.
    d = decide_at({"spaces": {"SC-IT": t("human", "sword:6/0", IT=6, SC=0),
                              "GC-DM": t("human", "shield:4/2", GC=4, DM=2)},
                   "crassus_row": ["ship:6/0"]})
    assert play_of(d) == ("defend", "IT-DM", "ship:6/0", {"IT": 6, "DM": 0})
    assert "space priority list: Italia–Dalmatia, next to Dalmatia, where he trails most (by 2)" in d.why


def test_s11_only_provinces_where_he_can_place():
    # Your lead is larger in HC (6) but no token of his fits HC's empty sword space; SD (3) then.
    d = decide_at({"spaces": {"HU-HC": t("human", "shield:6/0", HC=6, HU=0),
                              "MT-SD": t("human", "ship:3/3", MT=3, SD=3)},
                   "crassus_row": ["ship:6/0"]})
    # HU has one empty ship space and you have 0 there: S-9 captures it first.
    assert d.step == "capture"
    d = decide_at({"spaces": {"HU-HC": t("human", "shield:6/0", HC=6, HU=0),
                              "MT-SD": t("human", "ship:3/3", MT=3, SD=3)},
                   "crassus_row": ["shield:6/0"]})
    # shield 6/0: HU-MT is a ship space (no capture); HC-GA is sword: HC is out, and MT has no
    # free shield space. Leads where he can place: SD 3 -> SD; shield spaces SD-GA, SD-IT;
    # S-17: nobody trails, IT is central -> SD-IT.
    assert play_of(d) == ("defend", "SD-IT", "shield:6/0", {"SD": 6, "IT": 0})



@pytest.mark.parametrize("lang, said", [
    ("ru", "в провинции Италия вы впереди на 6, это ваш наибольший отрыв там, где он может разместить жетон"),
    ("uk", "у провінції Італія ви попереду на 6, це ваш найбільший відрив там, де він може викласти жетон")])
def test_s11_why_says_where_he_can_place_a_token_in_the_rulebooks_words(lang, said):
    """S-11's «why» in Russian said «там, где он может ходить» (where he can move): nothing moves
    in Caesar!; RU «Разместите жетон влияния авто-Красса», UA «викласти жетон»."""
    from firmware.i18n import localize
    d = decide_at({"spaces": {"SC-IT": t("human", "sword:6/0", IT=6, SC=0),
                              "GC-DM": t("human", "shield:4/2", GC=4, DM=2)},
                   "crassus_row": ["ship:6/0"]})
    assert said in localize(d.why, lang)

@pytest.mark.parametrize("lang, said", [
    ("en", "he faces it with his highest value; 3 is the highest value of his that fits there"),
    ("ru", "туда он кладёт жетон с максимальным значением; 3 — наибольшее из его значений, какое туда помещается"),
    ("uk", "туди він кладе найбільше число; 3 — найбільше з його чисел, яке туди вміщається")])
def test_s11_s12_why_says_the_value_when_a_higher_one_of_his_row_does_not_fit(lang, said):
    """S-11 («...поместите туда жетон авто-Красса с максимальным значением») and S-12 say «he faces it
    with his highest value» without the number (S-13..S-15 give it). You lead in Macedonia by 6; its
    empty spaces are a shield and a sword, his row a ship 6/0 and a wild 3/1: he defends it with the
    3, and the reason read «his highest value» beside the 6 in his row. It now says the 3, and only
    when a higher value of his row does not fit."""
    from firmware.i18n import localize
    row = {"spaces": {"MD-DM": t("human", "sword:6/0", MD=6, DM=0)}, "crassus_row": ["ship:6/0", "wild:3/1"]}
    d = decide_at(row)
    assert d.step == "defend" and PROVINCES[d.province] == "MD" and TOKENS[d.tid].name == "wild:3/1"
    assert said in localize(d.why, lang), localize(d.why, lang)
    d = decide_at({**row, "crassus_row": ["shield:6/0", "wild:3/1"]})     # his 6 fits: nothing more said
    assert d.step == "defend" and TOKENS[d.tid].name == "shield:6/0"
    assert said.split("; ")[1] not in localize(d.why, lang), localize(d.why, lang)


def test_s11_defend_all_option_needs_him_trailing_everywhere():
    # RU reading (defend=all): with most provinces level, S-11 does not fire; S-14 centre does.
    pos = {"spaces": {"SC-IT": t("human", "sword:6/0", IT=6, SC=0)}, "crassus_row": ["ship:4/2"]}
    assert decide_at(pos).step == "defend"
    assert decide_at(pos, rules={"defend": "all"}).step == "center"


def _full_board(fixed: dict[str, dict[str, Any]], empty: set[str], row: list[str]) -> dict[str, Any]:
    """Every space but ``empty`` filled (``fixed`` first, then alternating owners with tokens
    that fit); control of each full province from its totals, ties to nobody."""
    avail = {"human": [TOKENS[i].name for i in BASE_IDS], "crassus": [TOKENS[i].name for i in BASE_IDS]}
    for name in row:
        avail["crassus"].remove(name)
    spaces = dict(fixed)
    for entry in fixed.values():
        avail[entry["by"]].remove(entry["token"])
    turn = 0
    for s, sid in enumerate(SPACES):
        if sid in spaces or sid in empty:
            continue
        icon = SPACE_ICON_NAME[s]
        for k in range(2):
            who = ("crassus", "human")[(turn + k) % 2]
            pick = next((n for n in avail[who] if n.startswith(icon + ":")), None) or \
                next((n for n in avail[who] if n.startswith("wild:")), None)
            if pick:
                break
        assert pick, sid
        avail[who].remove(pick)
        hi, lo = (int(x) for x in pick.split(":")[1].split("/"))
        spaces[sid] = t(who, pick, **{PROVINCES[SPACE_A[s]]: lo, PROVINCES[SPACE_B[s]]: hi})
        turn += 1
    totals: dict[str, list[int]] = {p: [0, 0] for p in PROVINCES}
    for e in spaces.values():
        for prov, v in e["toward"].items():
            totals[prov][e["by"] == "crassus"] += v
    control = {}
    for x, prov in enumerate(PROVINCES):
        if all(SPACES[s] in spaces for s in PROVINCE_SPACES[x]):
            h, c = totals[prov]
            control[prov] = "human" if h > c else "crassus" if c > h else "none"
    return {"spaces": spaces, "control": control, "crassus_row": row}


def test_s11_defend_all_fires_when_he_trails_in_every_open_province():
    # Only HU-MT is empty, so HU and MT are the open provinces; you lead in both (HU 6, MT 8).
    # ship 3/3 captures neither; closing both would make you win (two markers left), so no
    # S-10. defend=all: he trails in every open province -> S-11 faces MT (lead 8) with 3.
    pos = _full_board({"HU-HC": t("human", "shield:6/0", HU=6, HC=0),
                       "MT-SD": t("human", "ship:4/2", MT=4, SD=2),
                       "MT-NU": t("human", "sword:4/2", MT=4, NU=2)}, {"HU-MT"}, ["ship:3/3"])
    on_board = sum(2 if p == "IT" else 1 for p, w in pos["control"].items() if w == "human")
    assert on_board <= 10
    pos["markers_left"] = {"human": 2, "crassus": 12 - sum(2 if p == "IT" else 1
                                                             for p, w in pos["control"].items() if w == "crassus")}
    g = solo(pos, rules={"defend": "all"})
    assert [x for x in range(18) if g.ctrl[x] == OPEN] == [PROVINCE_INDEX["HU"], PROVINCE_INDEX["MT"]]
    assert play_of(decide(g, g.rng)) == ("defend", "HU-MT", "ship:3/3", {"HU": 3, "MT": 3})


# -- S-12 reinforce ---------------------------------------------------------------------------
def test_s12_reinforces_the_province_with_fewest_empty_spaces():
    # His 3/3 on NU-SC touches NU (2 empty) and SC (3 empty). NU would come first, but its free
    # spaces are swords and his row holds a shield and a ship: SC it is (ship 5/1); S-17: SD
    # is central -> SD-SC.
    d = decide_at({"spaces": {"NU-SC": t("crassus", "ship:3/3", NU=3, SC=3)},
                   "crassus_row": ["shield:5/1", "ship:5/1"]})
    assert play_of(d) == ("reinforce", "SD-SC", "ship:5/1", {"SC": 5, "SD": 1})


def test_s12_reason_names_a_touched_province_none_of_his_tokens_fits():
    # S-12 «...разместите жетон с максимальным значением в той провинции, где авто-Красс наиболее
    # близок к победе»: his tokens touch MT, NU, SC and AF. NU has 1 empty space (NU-AF, a sword)
    # and his row holds a shield and a ship, so it takes none; of the others MT and SC have the
    # fewest (2 each) and he leads most in SC. The reason said «Mauretania, Sicilia have the fewest
    # empty spaces (2 each), and Sicilia is closest to winning» and nothing of Numidia, 1 empty
    # space from closing: a player checking him at the table read a wrong choice.
    from firmware.i18n import say
    pos = {"spaces": {"NU-SC": t("crassus", "ship:3/3", NU=3, SC=3), "SC-AF": t("crassus", "ship:4/2", SC=4, AF=2),
                      "MT-NU": t("crassus", "sword:4/2", MT=2, NU=4)},
           "crassus_row": ["shield:5/1", "ship:5/1"]}
    g = solo(pos)
    assert g.empty[PROVINCE_INDEX["NU"]] == 1 and g.empty[PROVINCE_INDEX["SC"]] == 2
    d = decide_at(pos)
    assert play_of(d) == ("reinforce", "SD-SC", "ship:5/1", {"SC": 5, "SD": 1})
    assert "none of his row's tokens fits an empty space of Numidia" in say(d.why, "en"), say(d.why, "en")
    assert "ни один жетон из его ряда не подходит к свободным ячейкам провинции Нумидия" in say(d.why, "ru")
    assert "жоден жетон з його ряду не підходить до вільних зон провінції Нумідія" in say(d.why, "uk")
    # where every province his tokens touch takes a token (AF instead of NU), nothing more is said
    d = decide_at({**pos, "spaces": {"SC-AF": pos["spaces"]["SC-AF"], "MT-NU": pos["spaces"]["MT-NU"],
                                     "SD-SC": t("crassus", "ship:3/3", SD=3, SC=3)}})
    assert d is not None and d.step == "reinforce" and "fits" not in say(d.why, "en"), say(d.why, "en")


def test_s12_equal_empty_spaces_then_his_largest_lead():
    # 5/1 on AF-AC: AC and AF both have 3 empty spaces; his lead is 5 in AC, 1 in AF -> AC.
    d = decide_at({"spaces": {"AF-AC": t("crassus", "ship:5/1", AC=5, AF=1)},
                   "crassus_row": ["shield:6/0"]})
    assert play_of(d) == ("reinforce", "AC-CR", "shield:6/0", {"AC": 6, "CR": 0})


def test_s12_full_tie_goes_to_the_province_list_s16():
    # 3/3 on AF-AC: same empties, same lead. S-16: a Senate bonus on AF beats AC being central.
    pos = {"spaces": {"AF-AC": t("crassus", "ship:3/3", AC=3, AF=3)}, "crassus_row": ["shield:6/0"]}
    assert play_of(decide_at(pos)) == ("reinforce", "AC-CR", "shield:6/0", {"AC": 6, "CR": 0})
    d = decide_at({**pos, "bonuses": {"AF": "senate", "AC": "wealth"}})
    assert play_of(d) == ("reinforce", "AF-CY", "shield:6/0", {"AF": 6, "CY": 0})


def test_s12_needs_two_open_provinces_touched():
    # His only token (AS-SY) touches AS and the closed SY: one open province, so no S-12;
    # you lead in AG but no shield fits AG -> S-14 centre: Italy.
    d = decide_at({"spaces": {"AS-SY": t("crassus", "shield:3/3", AS=3, SY=3),
                              "AG-SY": t("human", "sword:3/3", AG=3, SY=3)},
                   "control": {"SY": "none"}, "crassus_row": ["shield:6/0"]})
    assert d.step == "center" and PROVINCES[d.province] == "IT"


def test_s12_random_space_when_s17_cannot_choose():
    # Reinforce NU (2 empty); sword 6/0 fits MT-NU and NU-AF, both non-central and level:
    # S-17 ends in random; different seeds give both spaces, the same seed the same one.
    pos = {"spaces": {"NU-SC": t("crassus", "ship:3/3", NU=3, SC=3)}, "crassus_row": ["sword:6/0"]}
    picks = {SPACES[decide_at(pos, seed=s).space] for s in range(12)}
    assert picks == {"MT-NU", "NU-AF"}
    assert decide_at(pos, seed=3) == decide_at(pos, seed=3)
    assert "random" in decide_at(pos, seed=3).why


# -- S-13 expand ------------------------------------------------------------------------------
EXPAND = {"spaces": {"AG-SY": t("crassus", "sword:6/0", SY=6, AG=0),
                     "AS-SY": t("human", "shield:6/0", SY=6, AS=0)},
          "control": {"SY": "crassus"}}


def test_s13_expands_next_to_his_province_where_the_highest_value_goes():
    # He controls SY; AG takes sword 5 (CY-AG), AS only shield 3 -> AG.
    d = decide_at({**EXPAND, "crassus_row": ["sword:5/1", "shield:3/3"]})
    assert play_of(d) == ("expand", "CY-AG", "sword:5/1", {"CY": 1, "AG": 5})


def test_s13_tie_uses_s16_senate_then_s17_central_space():
    # wild 4/0 gives 4 in AG and AS; both border SY -> S-16 Senate on AS; spaces CR-AS (CR
    # central) and AG-AS -> CR-AS.
    d = decide_at({**EXPAND, "bonuses": {"AS": "senate"}, "crassus_row": ["wild:4/0"]})
    assert play_of(d) == ("expand", "CR-AS", "wild:4/0", {"CR": 0, "AS": 4})


# -- S-14 centre, S-15 anywhere ---------------------------------------------------------------
def test_s14_first_move_goes_to_italy():
    # Empty board: no capture, lead, tokens or control; Italy among the central provinces.
    d = decide_at({"crassus_row": ["sword:5/1", "ship:4/2"]})
    assert d.step == "center" and PROVINCES[d.province] == "IT" and d.toward()["IT"] == 5
    assert SPACES[d.space] == "SC-IT"  # S-17: SC-IT touches central SC, IT-GC does not


ITALY_SHIPS_DOWN = {"IT-AC": down("human", "ship:3/3", IT=3, AC=3),
                    "IT-DM": down("human", "ship:4/2", IT=4, DM=2)}


def test_s14_without_italy_uses_the_province_list():
    # Italy's ship spaces hold face-down tokens (no influence): SD, SC, AC, CR tie at 6.
    # S-16: CR holds the Senate bonus.
    d = decide_at({"spaces": ITALY_SHIPS_DOWN, "bonuses": {"CR": "senate"}, "crassus_row": ["ship:6/0"]})
    assert play_of(d) == ("center", "CR-AG", "ship:6/0", {"CR": 6, "AG": 0})


def test_s14_ties_random_option_skips_the_list():
    pos = {"spaces": ITALY_SHIPS_DOWN, "bonuses": {"CR": "senate"}, "crassus_row": ["ship:6/0"]}
    listed = {PROVINCES[decide_at(pos, seed=s).province] for s in range(10)}
    drawn = {PROVINCES[decide_at(pos, seed=s, rules={"ties": "random"}).province] for s in range(10)}
    assert listed == {"CR"} and len(drawn) > 1 and drawn <= {"SD", "SC", "AC", "CR"}


SWORD_CENTRE_DOWN = {"SC-IT": down("human", "sword:6/0", SC=0, IT=6),
                     "IT-GC": down("human", "sword:5/1", IT=5, GC=1),
                     "AC-MD": down("human", "sword:4/2", AC=4, MD=2)}


def test_s15_anywhere_with_s16_senate_then_poison():
    # No central sword space is free: S-15. Senate bonus on HC beats the Poison on SY.
    pos = {"spaces": SWORD_CENTRE_DOWN, "crassus_row": ["sword:6/0"],
           "modules": {"poison": True}, "bonuses": {"SY": "poison", "HC": "senate"}}
    d = decide_at(pos, poison=True)
    assert play_of(d) == ("anywhere", "HC-GA", "sword:6/0", {"HC": 6, "GA": 0})
    d = decide_at({**pos, "bonuses": {"SY": "poison", "AG": "wealth"}}, poison=True)
    assert play_of(d) == ("anywhere", "AG-SY", "sword:6/0", {"AG": 0, "SY": 6})


def test_s15_poison_counts_only_with_the_poison_module():
    # Without Poison, the poison criterion is skipped; next: borders a central province,
    # which SY and HC do not -> a random adjacent-to-central province, never SY.
    pos = {"spaces": SWORD_CENTRE_DOWN, "crassus_row": ["sword:6/0"], "bonuses": {"SY": "wealth"}}
    provs = {PROVINCES[decide_at(pos, seed=s).province] for s in range(8)}
    assert provs and not provs & {"SY", "HC"}


# -- S-16 first criterion, S-18 ---------------------------------------------------------------
S16_CONTROL = {"spaces": {"AG-SY": t("crassus", "sword:6/0", SY=6, AG=0),
                          "AS-SY": t("crassus", "shield:6/0", SY=6, AS=0),
                          "CR-AS": t("human", "shield:3/3", CR=3, AS=3),
                          "HU-HC": t("human", "wild:3/1", HU=3, HC=1)},
               "bonuses": {"HU": "senate"}, "crassus_row": ["ship:5/1"]}


def test_s16_adjacent_to_his_control_comes_before_senate():
    # Two captures (AS and HU, you 3 in each, 5 captures). AS borders SY, his -> AS first.
    d = decide_at({**S16_CONTROL, "control": {"SY": "crassus"}})
    assert play_of(d) == ("capture", "AG-AS", "ship:5/1", {"AG": 1, "AS": 5})
    # If you hold SY instead, the Senate bonus on HU decides.
    d = decide_at({**S16_CONTROL, "control": {"SY": "human"}})
    assert play_of(d) == ("capture", "HU-MT", "ship:5/1", {"HU": 5, "MT": 1})


def test_s18_non_wild_before_wild():
    # Capture HU (you 4): wild 4/0 and ship 4/2 both face 4 -> the non-wild. (HC is closed so
    # that the wild cannot capture it too.)
    d = decide_at({"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2),
                              "HC-GA": t("human", "sword:3/3", HC=3, GA=3)},
                   "control": {"HC": "human"}, "crassus_row": ["wild:4/0", "ship:4/2"]})
    assert play_of(d) == ("capture", "HU-MT", "ship:4/2", {"HU": 4, "MT": 2})
    assert "non-wild" in d.why


def test_s18_lowest_total_in_s9_highest_total_in_s11():
    # Centurions: shield+ship 4/4 (total 8) and ship 4/2 (total 6) both face 4.
    cap = decide_at({"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2)},
                     "crassus_row": ["shield+ship:4/4", "ship:4/2"], "modules": {"centurions": True}},
                    centurions=True)
    assert play_of(cap) == ("capture", "HU-MT", "ship:4/2", {"HU": 4, "MT": 2})
    # S-11: leads IT 6, CR 5, AC 1 -> Italy; S-17: he trails in AC -> IT-AC; highest total.
    dfd = decide_at({"spaces": {"SC-IT": t("human", "sword:6/0", IT=6, SC=0),
                                "AC-CR": t("human", "shield:5/1", CR=5, AC=1)},
                     "crassus_row": ["ship:4/2", "shield+ship:4/4"], "modules": {"centurions": True}},
                    centurions=True)
    assert play_of(dfd) == ("defend", "IT-AC", "shield+ship:4/4", {"IT": 4, "AC": 4})


def test_s18_leftmost_of_identical_tokens():
    g = solo({"spaces": {"HU-HC": t("human", "shield:4/2", HU=2, HC=4)},
              "crassus_row": ["wild:2/2", "ship:6/0", "wild:2/2"]})
    d = decide(g, g.rng)
    assert play_of(d) == ("capture", "HU-MT", "wild:2/2", {"HU": 2, "MT": 2}) and d.row_index == 0
    flow.crassus_play(g, [])
    assert [TOKENS[x].name for x in g.hand[CRASSUS]] == ["ship:6/0", "wild:2/2"]


def test_s10_non_wild_before_wild_for_the_lowest_value():
    # You have 12 in MT, whose last space is HU-MT: no capture; 6/0 and wild 4/0 both face MT
    # with 0 -> ship 6/0 (S-18 non-wild).
    d = decide_at({"spaces": {"MT-SD": t("human", "ship:6/0", MT=6, SD=0),
                              "MT-NU": t("human", "sword:6/0", MT=6, NU=0)},
                   "crassus_row": ["wild:4/0", "ship:6/0"]})
    assert play_of(d) == ("close", "HU-MT", "ship:6/0", {"HU": 6, "MT": 0})


# -- S-19, S-7 --------------------------------------------------------------------------------
SWORDS_FULL = {"HC-GA": t("human", "sword:6/0", HC=0, GA=6), "MT-NU": t("human", "sword:5/1", MT=1, NU=5),
               "GA-GC": t("human", "sword:4/2", GA=2, GC=4), "NU-AF": t("human", "sword:3/3", NU=3, AF=3),
               "SC-IT": t("human", "wild:4/0", SC=0, IT=4), "IT-GC": t("human", "wild:3/1", IT=1, GC=3),
               "AC-MD": t("human", "wild:2/2", AC=2, MD=2), "MD-DM": t("human", "wild:2/2", MD=2, DM=2),
               "CY-AG": t("crassus", "sword:5/1", CY=1, AG=5), "AG-SY": t("crassus", "sword:4/2", AG=2, SY=4)}


def test_s19_no_legal_placement_loses_or_skips():
    pos = {"spaces": SWORDS_FULL, "crassus_row": ["sword:6/0"]}
    assert decide_at(pos) is None
    g = solo(pos)
    steps: list[dict[str, Any]] = []
    flow.crassus_play(g, steps)
    assert g.over and g.winner == HUMAN and steps[-1]["rule"] == "S-19"
    assert g.end == "No token of his row fits an empty space: Crassus cannot place a token and loses; you win."
    g = solo(pos, rules={"stuck": "skip"})
    steps = []
    flow.crassus_play(g, steps)
    assert not g.over and steps[-1]["skipped"] is True


def test_s19_empty_row_loses():
    g = solo({"crassus_row": []})
    flow.crassus_play(g, [])
    assert g.winner == HUMAN and "row is empty" in g.end


def test_s7_crassus_never_plays_face_down():
    # The only free spaces that fit nothing of his are double-bordered: a human could play face
    # down there (C-21) but Auto-Crassus has no legal placement.
    pos = {"spaces": SWORDS_FULL, "crassus_row": ["sword:6/0"], "modules": {"poison": True, "border_control": True}}
    g = solo(pos, poison=True, border_control=True)
    assert can_play_face_down(g, HUMAN, SPACES.index("SD-GA"))
    assert decide(g, g.rng) is None


# -- S-8 his bonuses, S-20 --------------------------------------------------------------------
CAPTURE_HU = {"spaces": {"HU-HC": t("human", "shield:4/2", HU=4, HC=2)}, "crassus_row": ["ship:6/0"]}


@pytest.mark.parametrize("bonus", ["might", "wealth", "tactics", "centurion"])
def test_s8_might_wealth_tactics_centurion_are_removed(bonus):
    g = solo({**CAPTURE_HU, "bonuses": {"HU": bonus}, "modules": {"centurions": True}}, centurions=True)
    steps: list[dict[str, Any]] = []
    flow.crassus_play(g, steps)
    b = steps[-1]
    assert b["action"] == "bonus" and b["bonus"] == bonus and b["removed"] is True
    assert g.markers[CRASSUS] == 11 and g.removed[CRASSUS] == 0 and not g.extra and not g.pending


def test_s8_harder_removes_a_marker_always_or_only_with_control():
    pos = {**CAPTURE_HU, "bonuses": {"HU": "wealth"}}
    g = solo(pos, rules={"harder": "always"})
    flow.crassus_play(g, [])
    assert g.markers[CRASSUS] == 10 and g.removed[CRASSUS] == 1   # 1 on HU + 1 removed (RU)
    # UA reading: only if he also took control. Closing HU without winning it (you 6):
    lose = {"spaces": {"HU-HC": t("human", "shield:6/0", HU=6, HC=0)}, "crassus_row": ["ship:5/1"],
            "bonuses": {"HU": "wealth"}}
    for when, left in (("always", 11), ("control", 12)):
        g = solo(lose, rules={"harder": when})
        flow.crassus_play(g, [])
        assert g.ctrl[PROVINCE_INDEX["HU"]] == HUMAN and g.markers[CRASSUS] == left
    g = solo(pos, rules={"harder": "control"})
    flow.crassus_play(g, [])
    assert g.markers[CRASSUS] == 10


def test_s8_his_senate_works_as_normal():
    # C-16: his second Senate token with control -> 2 markers under it (+1 on HU).
    g = solo({**CAPTURE_HU, "bonuses": {"HU": "senate"}, "senate": {"human": 0, "crassus": 1}})
    steps: list[dict[str, Any]] = []
    flow.crassus_play(g, steps)
    assert g.senate[CRASSUS] == 2 and g.senate_markers[CRASSUS] == 2 and g.markers[CRASSUS] == 9
    assert steps[-1]["markers"] == 2


def test_s8_his_poison_sends_one_of_your_tokens_back():
    g = solo({**CAPTURE_HU, "bonuses": {"HU": "poison"}, "modules": {"poison": True},
              "human_hand": ["sword:6/0", "ship:3/3", "wild:2/2"]}, poison=True)
    bag = len(g.bag[HUMAN])
    steps: list[dict[str, Any]] = []
    flow.crassus_play(g, steps)
    assert len(g.hand[HUMAN]) == 2 and len(g.bag[HUMAN]) == bag + 1
    assert steps[-1]["token"] in ("sword:6/0", "ship:3/3", "wild:2/2")
    assert steps[-1]["token"] in [TOKENS[x].name for x in g.bag[HUMAN]]


def test_s20_your_poison_sends_a_random_row_token_back():
    g = solo({"spaces": {"HU-HC": t("crassus", "shield:4/2", HU=2, HC=4)}, "bonuses": {"HU": "poison"},
              "modules": {"poison": True}, "crassus_row": ["sword:6/0", "wild:2/2"],
              "human_hand": ["ship:6/0", "sword:3/3", "shield:3/3"], "turn": "human"}, poison=True)
    bag = len(g.bag[CRASSUS])
    steps = flow.play(g, HUMAN, SPACES.index("HU-MT"), "ship:6/0", PROVINCE_INDEX["HU"])
    poison = next(s for s in steps if s["action"] == "bonus")
    assert poison["bonus"] == "poison" and poison["token"] in ("sword:6/0", "wild:2/2")
    assert len(g.hand[CRASSUS]) == 1 and len(g.bag[CRASSUS]) == bag + 1
    assert poison["text"].endswith("goes from Crassus's row back to his bag.")         # S-20


# -- S-2..S-6 tiles ---------------------------------------------------------------------------
@pytest.mark.parametrize("difficulty,cents,deck", [
    ("easy", False, "AAAABB"), ("normal", False, "AAABBC"), ("hard", False, "AAAACC"),
    ("easy", True, "AAAABD"), ("normal", True, "AABBCD"), ("hard", True, "AAAACE")])
def test_s2_s3_setup_row_and_decks(difficulty, cents, deck):
    g = flow.new_game("solo", 5, difficulty=difficulty, centurions=cents)
    assert len(g.hand[CRASSUS]) == 3 and g.turn == CRASSUS            # S-2
    assert "".join(sorted(g.stack)) == deck and g.deck == deck           # S-3
    assert len(g.hand[HUMAN]) == 2 and len(g.cent[CRASSUS]) == (3 if cents else 0)


def _human_turn(g: Game, k: int) -> None:
    from engine.caesar.players import random_policy
    from engine.rng import Rng
    tid, s, va, vb, _ = random_policy(g, HUMAN, Rng(k))
    flow.play(g, HUMAN, s, f"{TOKENS[tid].icon}:{va}/{vb}", SPACE_A[s])
    while not g.over and g.turn == HUMAN:
        if g.pending:
            (flow.might if g.pending[0] == "might" else flow.centurion)(g, HUMAN, "skip")
        else:
            flow.draw(g, HUMAN)


@pytest.mark.parametrize("mode,stack,played", [("all", 6, 0), ("keep-last", 5, 1)])
def test_s5_reshuffle_when_the_stack_is_empty(mode, stack, played):
    g = flow.new_game("solo", 11, difficulty="normal", rules={"reshuffle": mode})
    letters = []
    for k in range(6):
        assert len(g.stack) == 6 - k
        letters.append(g.stack[0])
        flow.crassus_turn(g)
        if k < 5:
            assert g.played == letters
            _human_turn(g, k)
    assert not g.over
    assert len(g.stack) == stack and len(g.played) == played
    if played:
        assert g.played == [letters[-1]] and "".join(sorted(g.stack + g.played)) == "AAABBC"


def test_s6_short_draw_skips_the_discard():
    # His bag holds one token: tile A (draw 2, play, discard 1) draws it and does not discard.
    row = [TOKENS[i].name for i in BASE_IDS if TOKENS[i].name != "shield:3/3"]
    g = solo({"crassus_row": row}, inputs={"tiles": "physical"})
    assert len(g.bag[CRASSUS]) == 1
    _, steps = flow.crassus_turn(g, tile="A")
    draw, play, disc = steps[0], steps[1], steps[-1]
    assert draw["action"] == "draw" and draw["short"] is True and len(draw["tokens"]) == 1
    assert play["action"] == "play"
    assert disc["action"] == "discard" and disc["skipped"] is True
    assert len(g.hand[CRASSUS]) == 15 and g.bag[CRASSUS] == []


@pytest.mark.parametrize("tile, bag, said", [
    ("B", 0, "His bag is empty."),                                            # draw 1, play
    ("C", 1, "Take shield 3/3 (his bag's last) into his row."),                 # draw 2, play, play
    ("A", 1, "Take shield 3/3 (his bag's last) into his row; no discard this turn."),
])
def test_s6_a_short_draw_promises_no_skipped_discard_on_a_tile_without_one(tile, bag, said):  # S-4, S-6
    """S-6: a draw his bag cannot fill takes what there is and skips the turn's discard. Tiles B
    (draw 1, play) and C (draw 2, play, play) have no discard, yet their short draw said «he skips
    this turn's discard», a step the player then looked for in vain; tile A (draw 2, play,
    discard 1) does skip it, and still says so."""
    row = [TOKENS[i].name for i in BASE_IDS if not bag or TOKENS[i].name != "shield:3/3"]
    g = solo({"crassus_row": row}, inputs={"tiles": "physical"})
    assert len(g.bag[CRASSUS]) == bag
    _, steps = flow.crassus_turn(g, tile=tile)
    draw = steps[0]
    assert draw["action"] == "draw" and draw["short"] is True and len(draw["tokens"]) == bag
    assert str(draw["text"]) == said
    assert ("discard" in [s["action"] for s in steps]) == (tile == "A")



@pytest.mark.parametrize("tile", ["A", "C"])
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_s6_his_short_draw_is_said_whole_on_one_notes_page(tile, lang):  # S-4, S-6
    """S-6 (RU «возьмите столько, сколько возможно, и не сбрасывайте их в конце его хода»): his
    tile draws 2, his bag holds 1. The sentence saying so goes on a notes page of its own (it does
    not fit under the tile's tokens), four rows beside the scroll bar; it took five or six in every
    language («Take … from his bag into his row; he draws what there is and skips this turn's
    discard»), one press more on each such turn to read its end. Any token may be the bag's last
    (a discard puts a centurion back in it)."""
    from firmware.i18n import localize
    from firmware.screens import base
    from firmware.screens.caesar.turnpages import record_pages
    from engine.caesar.terms import token
    from engine.caesar.view import view
    for tid, tk in enumerate(TOKENS):
        g = solo({"crassus_row": ["sword:6/0", "ship:5/1"]}, inputs={"tiles": "physical"})
        g.bag[CRASSUS] = [tid]
        flow.crassus_turn(g, tile=tile)
        record = localize(view(g)["last_crassus_turn"], lang)
        pages = record_pages(record, tile)
        notes = [p for p in pages if p["kind"] == "notes"]
        assert [p["kind"] for p in pages][:2] == ["tile", "notes"] and len(notes) == 1, (tk.name, pages)
        rows = [r for n in notes[0]["notes"] for r in base.wrap(n, base.COLS - 1)]
        assert len(rows) <= base.ROWS, (tk.name, rows)
        assert localize(token(tid), lang) in " ".join(rows), (tk.name, rows)          # it names the token

def test_s4_tile_a_discards_the_leftmost():
    g = solo({"crassus_row": ["sword:6/0", "ship:5/1", "wild:2/2"]}, inputs={"tiles": "physical"})
    _, steps = flow.crassus_turn(g, tile="A")
    assert steps[0]["action"] == "draw" and len(steps[0]["tokens"]) == 2
    played = steps[1]["token"]
    row_after_play = [x for x in ["sword:6/0", "ship:5/1", "wild:2/2"] + steps[0]["tokens"]]
    row_after_play.remove(played)
    assert steps[-1]["tokens"] == [row_after_play[0]]
    assert [TOKENS[x].name for x in g.hand[CRASSUS]] == row_after_play[1:]


def test_d_and_e_tiles_turn_up_a_centurion():
    g = solo({"crassus_row": ["sword:6/0"], "modules": {"centurions": True}}, centurions=True,
             difficulty="hard", inputs={"tiles": "physical"})
    _, steps = flow.crassus_turn(g, tile="E")
    assert [s["action"] for s in steps][:3] == ["centurion", "draw", "play"]
    assert steps[0]["token"] in ("wild:3/3", "sword:7/0", "shield+ship:4/4")
    assert len(g.cent[CRASSUS]) == 2



@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_his_centurion_turned_up_is_said_whole_on_one_notes_page(lang):  # S-3 centurions: tile D
    """Tile D (centurion, play): RU «возьмите 1 случайный жетон из стопки жетонов центурионов,
    лежащих лицом вниз, и положите справа от открытых жетонов авто-Красса». The sentence naming
    it goes on a notes page of its own, four rows beside the scroll bar; «Take … from his stack of
    face-down centurions and put it face up at the right end of his row» took six or seven, two or
    three presses more on each tile D or E to read it."""
    from firmware.i18n import localize
    from firmware.screens import base
    from firmware.screens.caesar.turnpages import record_pages
    from engine.caesar.terms import token
    from engine.caesar.tokens import CENTURION_IDS
    from engine.caesar.view import view
    for tid in CENTURION_IDS:
        g = solo({"crassus_row": ["sword:6/0"], "modules": {"centurions": True}}, centurions=True,
                 difficulty="normal", inputs={"tiles": "physical"})      # normal: 2A 2B 1C 1D (S-3)
        g.cent[CRASSUS] = [tid]
        flow.crassus_turn(g, tile="D")
        pages = record_pages(localize(view(g)["last_crassus_turn"], lang), "D")
        notes = [p for p in pages if p["kind"] == "notes"]
        assert len(notes) == 1, (TOKENS[tid].name, pages)
        rows = [r for n in notes[0]["notes"] for r in base.wrap(n, base.COLS - 1)]
        assert len(rows) <= base.ROWS, rows
        assert localize(token(tid), lang) in " ".join(rows), rows           # it names the centurion

def test_no_centurion_left_promises_no_skipped_discard_on_a_tile_without_one():  # S-4, S-6
    """With his face-down centurions gone, tile E (centurion, draw 1, play, play: no discard) said
    «no discard this turn», as if a discard were skipped; a tile that does discard skips it, and
    says that the centurions, not the bag, ran out."""
    g = solo({"crassus_row": ["sword:6/0"], "modules": {"centurions": True}}, centurions=True,
             difficulty="hard", inputs={"tiles": "physical"})
    g.cent[CRASSUS].clear()
    _, steps = flow.crassus_turn(g, tile="E")
    assert steps[0]["action"] == "centurion" and steps[0]["token"] is None
    assert str(steps[0]["text"]) == "No face-down centurion left."
    assert "discard" not in [s["action"] for s in steps]
    g = solo({"crassus_row": ["sword:6/0", "ship:5/1"], "modules": {"centurions": True}}, centurions=True,
             difficulty="hard", inputs={"tiles": "physical"})
    g.cent[CRASSUS].clear()
    g.tile_defs["A"] = ["centurion", "play", "discard1"]            # a tile the player edited (S-4)
    _, steps = flow.crassus_turn(g, tile="A")
    assert str(steps[0]["text"]) == "No face-down centurion left; no discard this turn."
    assert steps[-1]["skipped"] is True and str(steps[-1]["text"]) == "No discard this turn: his face-down centurions ran out."


def test_a_short_draw_after_the_discard_promises_no_skipped_discard():  # S-4, S-6
    """A tile of the player's own that discards before it draws (S-4: the order is the tile's):
    the discard is made, then the draw runs short. S-6 skips a discard still to come, so the draw
    may not say «…and skips this turn's discard» — it said so, though the discard was made."""
    g = solo({"crassus_row": [TOKENS[i].name for i in BASE_IDS]}, inputs={"tiles": "physical"})
    assert g.bag[CRASSUS] == []
    g.tile_defs["A"] = ["discard1", "draw2", "play"]                  # a tile the player edited (S-4)
    _, steps = flow.crassus_turn(g, tile="A")
    assert [s["action"] for s in steps[:3]] == ["discard", "draw", "play"]
    assert not steps[0].get("skipped") and len(steps[0]["tokens"]) == 1
    assert steps[1]["short"] is True and steps[1]["tokens"] == steps[0]["tokens"]
    assert str(steps[1]["text"]) == f"Take {steps[0]['tokens'][0].replace(':', ' ')} (his bag's last) into his row."


def test_closure_never_gives_a_tie_to_nobody_on_his_play_but_does_on_yours():
    # Yours: HU-MT by you with 3 facing HU against his 3 -> nobody (C-9; crassus-ties=own).
    pos = {"spaces": {"HU-HC": t("crassus", "shield:3/3", HU=3, HC=3)}, "turn": "human",
           "human_hand": ["ship:3/3", "sword:6/0"]}
    g = solo(pos)
    steps = flow.play(g, HUMAN, SPACES.index("HU-MT"), "ship:3/3", PROVINCE_INDEX["HU"])
    assert steps[1]["winner"] == "none" and g.ctrl[PROVINCE_INDEX["HU"]] == NONE
    g = solo(pos, rules={"crassus-ties": "all"})
    flow.play(g, HUMAN, SPACES.index("HU-MT"), "ship:3/3", PROVINCE_INDEX["HU"])
    assert g.ctrl[PROVINCE_INDEX["HU"]] == CRASSUS


@pytest.mark.parametrize("lang,listed,spaces", [
    ("ru", "из провинций Дальняя Испания, Азия выбрана провинция Азия", "из ячеек Мавретания–Нумидия, Нумидия–Африка"),
    ("uk", "з провінцій Далека Іспанія, Азія обрано провінцію Азія", "із зон Мавретанія–Нумідія, Нумідія–Африка")])
def test_s16_s17_why_names_the_lists_choices_in_the_right_case(lang, listed, spaces):
    # S-16/S-17 in the player's language: the provinces or spaces chosen among follow «из»/«з»
    # in the genitive of the common noun (a bare «из Дальняя Испания, Азия» is not Russian).
    from firmware.i18n import localize
    d = decide_at({**S16_CONTROL, "control": {"SY": "crassus"}})
    assert listed in localize(d.why, lang)
    pos = {"spaces": {"NU-SC": t("crassus", "ship:3/3", NU=3, SC=3)}, "crassus_row": ["sword:6/0"]}
    assert spaces in localize(decide_at(pos, seed=3).why, lang)


# -- two readings the rulebooks leave open, kept as the engine plays them (each with why) -------------
def test_s8_harder_game_his_last_marker_removed_is_his_win():
    """C-12 RU «Игра немедленно заканчивается, когда кто-то из игроков размещает свой последний
    жетон контроля на поле или под жетон Сената. Этот игрок становится победителем»; UA «Гра
    негайно закінчується, щойно гравець викладає свій останній маркер контролю на мапу або під
    жетон Сенату. Цей гравець перемагає». S-8 RU «Если вы захотите усложнить игру, то, убирая из
    игры жетон бонуса, полученный авто-Крассом, вместе с ним убирайте также один из его жетонов
    контроля»; UA «Для ще важчої гри: якщо Авто-Красс також захопив провінцію, приберіть один із
    його не використаних маркерів контролю з гри, коли прибираєте жетон бонуса».

    Neither says what happens when the removal takes his last unused marker. Read literally he
    would then never place a last marker and could not win by markers at all, the opposite of a
    rule made to make him stronger; the engine counts an empty supply as his win, as if he had
    placed it (a reading, not the text: kept, and said in the game's end)."""
    g = solo({**CAPTURE_HU, "bonuses": {"HU": "wealth"}, "markers_left": {"crassus": 2}},
             rules={"harder": "always"})
    steps: list[dict[str, Any]] = []
    flow.crassus_play(g, steps)
    assert g.ctrl[PROVINCE_INDEX["HU"]] == CRASSUS and g.markers[CRASSUS] == 0 and g.removed[CRASSUS] == 1
    assert steps[-1]["marker_removed"] is True
    assert g.winner == CRASSUS and g.end == "Crassus has no control markers left and wins (harder game)."
    # one marker left: placing it on Hispania Ulterior wins by C-12 itself, before the bonus
    g = solo({**CAPTURE_HU, "bonuses": {"HU": "wealth"}, "markers_left": {"crassus": 1}},
             rules={"harder": "always"})
    flow.crassus_play(g, [])
    assert g.winner == CRASSUS and g.removed[CRASSUS] == 0


def test_poison_his_empty_row_at_his_turns_start_is_no_loss_he_draws_first():
    """C-17 RU «Если игрок начинает свой ход без жетонов влияния за ширмой, то тут же
    проигрывает»; UA «Якщо гравець починає свій хід без жетонів за ширмою, він негайно програє».
    The solo pages apply Poison unchanged (RU «Для этого дополнения действуют те же правила, что и
    в базовой игре»; UA «Грайте як зазвичай, додаткових змін для соло-гри немає»), but he has no
    screen (his row lies face up) and his turn begins with his tile (RU «В начале хода авто-Красса
    возьмите жетон приказов и выполните инструкции на нём в указанном порядке»), whose first
    action is always a draw. So an empty row loses only when a play finds it still empty (S-19);
    a reading, kept."""
    g = solo({"crassus_row": [], "modules": {"poison": True}, "turn": "crassus"}, poison=True,
             inputs={"tiles": "physical"})
    letter, steps = flow.crassus_turn(g, "B")                   # draw 1, play
    assert g.winner < 0 and [s["action"] for s in steps][:2] == ["draw", "play"]
    assert steps[1]["rule"] not in ("S-19", None)


def _every_space_taken(keep: dict[str, list[str]], sides: tuple[str, str] = ("human", "crassus")) -> dict[str, Any]:
    """A ``position`` spaces map with a token on every border space (the sides in turn, a token of
    the space's icon, else a wild one), leaving each side the tokens of ``keep``."""
    pools = {who: [TOKENS[i].name for i in BASE_IDS] for who in sides}
    for who, names in keep.items():
        for name in names:
            pools[who].remove(name)
    spaces: dict[str, Any] = {}
    for k, s in enumerate(sorted(range(len(SPACES)), key=lambda s: (SPACE_ICON_NAME[s], s))):
        for who in (sides if k % 2 == 0 else sides[::-1]):
            name = next((n for n in pools[who] if n.startswith(SPACE_ICON_NAME[s] + ":")), None) or \
                next((n for n in pools[who] if n.startswith("wild:")), None)
            if name:
                break
        assert name, SPACES[s]
        pools[who].remove(name)
        hi, lo = (int(v) for v in name.split(":")[1].split("/"))
        spaces[SPACES[s]] = t(who, name, **{PROVINCES[SPACE_A[s]]: hi, PROVINCES[SPACE_B[s]]: lo})
    return spaces


@pytest.mark.parametrize("row", [["ship:3/3"], []])
def test_s19_a_full_board_says_every_border_space_is_taken(row):
    """S-19 / C-12 at the end of the tokens: the last border space filled, he cannot place and
    loses (RU «Если в свой ход один из игроков не может разместить свой жетон влияния, он
    проигрывает»). The reason said that no token of his row fits an empty space (or that his row
    is empty) when there was no empty space left at all: the board is full, whatever he holds."""
    pos = {"spaces": _every_space_taken({"crassus": row}), "crassus_row": row, "turn": "crassus",
           "markers_left": {"human": 6, "crassus": 6}}
    g = solo(pos)
    assert all(o >= 0 for o in g.owner)
    steps: list[dict[str, Any]] = []
    flow.crassus_play(g, steps)
    assert g.winner == HUMAN and steps[-1]["rule"] == "S-19"
    assert g.end == "Every border space is taken: Crassus cannot place a token and loses; you win."
    assert steps[-1]["text"] == "Every border space is taken: Crassus loses."
    g = solo(pos)
    from engine.caesar.console import decision_fields
    assert decision_fields(g)["why"] == "Every border space is taken: he cannot place a token and loses."


def test_c12_a_full_board_at_your_turn_says_every_border_space_is_taken():
    """C-12: your turn starts with every border space taken — you cannot place and lose; the
    sentence says why (the board is full), not only that none of your tokens fits."""
    hand = ["ship:3/3", "wild:2/2"]
    g = solo({"spaces": _every_space_taken({"human": hand}), "human_hand": hand, "turn": "human",
              "markers_left": {"human": 6, "crassus": 6}})
    assert g.over and g.winner == CRASSUS
    assert g.end == "Every border space is taken: you cannot place a token and lose; Crassus wins."
    duel = flow.new_game("duel", 1)
    apply_position(duel, {"spaces": _every_space_taken({"pompey": hand}, ("caesar", "pompey")), "turn": "pompey",
                          "hands": {"caesar": [], "pompey": hand}, "markers_left": {"caesar": 6, "pompey": 6}})
    assert duel.over and duel.winner == 0
    assert duel.end == "Every border space is taken: Pompey cannot place a token and loses; Caesar wins."
