"""The jc-battle console commands: fields fixed by PROTOCOL.md, errors, determinism, sessions."""
from __future__ import annotations

import json

import pytest

from engine.errors import LegatusError

from engine.jc.battle import RESULTS
from tests.conftest import run_console
from tests.test_jc_support import Table


def test_protocol_fields_end_to_end(state_dir):
    # PROTOCOL.md "Julius Caesar battle": add, odds, fight, through the real program
    r = run_console(state_dir, [
        "new jc-battle attacker=caesar seed=11", "add attacker c_leg10", "add attacker c_caesar",
        "add defender p_pompeius", "add defender p_leg1 strength=3", "odds", "fight", "fight",
        "state"])
    new, a1, a2, d1, d2, odds, fight, again, state = r
    assert new["ok"] and new["game"] == "jc-battle"
    assert all(x["ok"] for x in (a1, a2, d1, d2))
    assert set(odds) >= {"attacker_wins", "attacker_eliminated", "defender_holds"}
    assert odds["attacker_wins"] + odds["attacker_eliminated"] + odds["defender_holds"] == pytest.approx(1.0)
    assert fight["ok"] and fight["result"] in RESULTS and "state" in fight
    turns = [t for rnd in fight["rounds"] for t in rnd["turns"]]
    assert turns and all(set(t) >= {"block", "action", "dice", "hit_dice", "hits", "applied"} for t in turns)
    for t in turns:
        if t["action"] == "fire":
            assert len(t["dice"]) == t["strength"] and t["hits"] == sum(t["hit_dice"])
            assert t["hits"] == len(t["applied"]) + t["lost"]
    assert again == {"ok": False, "error": "game_over", "message": again["message"]}
    assert state["state"]["battle"]["result"] == fight["result"]


def test_same_seed_same_battle_and_undo_does_not_reroll():
    lines = ["add attacker c_leg10", "add attacker c_leg8", "add defender p_leg1", "add defender p_leg3"]
    a, b = Table(seed=99), Table(seed=99)
    a.run(*lines)
    b.run(*lines)
    fa, fb = a.do("fight"), b.do("fight")
    assert fa["rounds"] == fb["rounds"] and fa["result"] == fb["result"]
    a.session.undo()
    assert a.do("fight")["rounds"] == fa["rounds"]


def test_new_options_are_checked():
    for opts in ("attacker=gauls", "dice=loaded", "year=9", "surprise=maybe", "colour=red", "cleopatra=never"):
        with pytest.raises(LegatusError) as e:
            Table(opts)
        assert e.value.code == "bad_arguments", opts


def test_add_errors():
    t = Table()
    assert "c_leg" in t.fails("add attacker c_leg99", "bad_arguments")
    t.fails("add attacker", "bad_arguments")
    t.fails("add flank c_leg10", "bad_arguments")
    t.fails("add attacker rating=C3", "bad_arguments")               # strength needed
    t.fails("add attacker rating=Q3 strength=2", "bad_arguments")
    t.fails("add attacker rating=C3 strength=5", "bad_arguments")
    t.fails("add attacker rating=C3 strength=2 name=c_leg10", "bad_arguments")
    said = t.fails("add attacker c_leg10 strength=4", "bad_arguments")   # Legio 10 has III max
    assert "III (3), II (2), I (1)" in said and "4" in said   # the steps as printed and as typed
    t.fails("add defender p_elephant strength=3", "bad_arguments")   # IV or II (J-2)
    t.fails("add attacker c_leg10 name=x", "bad_arguments")
    t.fails("add attacker p_leg1", "illegal_move")                   # Pompey's block
    t.do("add attacker c_leg10")
    t.fails("add attacker c_leg10", "illegal_move")                  # twice
    t.do("add attacker rating=C3 strength=2 name=vet")
    t.fails("add defender rating=C3 strength=2 name=vet", "illegal_move")
    t.do("add defender rating=B2 strength=2")
    assert t.block("blk1")["rating"] == "B2"


def test_remove_and_start_only_when_allowed():
    t = Table()
    t.run("add attacker c_leg10", "add attacker c_leg8", "remove c_leg8")
    t.fails("remove c_leg8", "illegal_move")
    t.fails("start", "illegal_move")                                  # no defender yet
    t.run("add defender p_leg1", "start")
    t.fails("start", "illegal_move")
    t.fails("remove c_leg10", "illegal_move")
    t.fails("add defender p_leg3", "illegal_move")
    t.fails("next-battle", "illegal_move")                            # still being fought


def test_attacking_navis_and_land_blocks_need_a_reserve():
    # J-8 / rules 7.3: different routes, only one main attack
    t = Table()
    t.run("add attacker c_leg10", "add attacker c_nav1", "add defender p_leg39")
    assert "reserve" in t.fails("odds", "illegal_move")
    t.run("remove c_nav1", "add attacker c_nav1 reserve=1")
    assert sum(t.odds()) == pytest.approx(1.0)


@pytest.mark.parametrize("lang,none,reserve", [("en", "has no blocks", "not a reserve"),
                                               ("ru", "нет блоков", "не в резерве"), ("uk", "немає блоків", "не в резерві")])
def test_a_side_without_blocks_is_told_so_not_that_its_blocks_are_reserves(lang, none, reserve):
    # J-4/J-8: 'start' over an empty side said «The attacker (Caesar) needs at least one block that
    # is not a reserve» (the device's Start row over a set-up with no blocks too): it has none at all
    from firmware.i18n import localize
    t = Table()
    said = localize(t.fails("start", "illegal_move"), lang)
    assert none in said and reserve not in said, said
    t.run("add attacker c_leg10")
    said = localize(t.fails("start", "illegal_move"), lang)
    assert none in said and "Pomp" in localize(t.fails("start", "illegal_move"), "en"), said
    t.run("add defender p_leg1 reserve=1")
    said = localize(t.fails("start", "illegal_move"), lang)
    assert reserve in said and none not in said, said


def test_attacking_navis_beside_land_blocks_are_always_the_reserves():
    # J-8, RU summary 2.2.2 «Если атакующие войска, помимо кораблей, включают и наземные блоки
    # (атака города-порта), в таком случае атакующие корабли всегда объявляются резервом»: the
    # player's edition leaves the attacker no choice of the navis as the main attack (the device
    # took the land blocks as the reserves and let the navis fire and be hit in round 1)
    from firmware.i18n import localize
    t = Table()
    t.run("add attacker c_nav1", "add attacker c_leg10 reserve=1", "add defender p_leg39")
    before = t.session.state_json
    for line in ("start", "fight", "auto", "odds"):                  # asked now (the console, the device)
        with pytest.raises(LegatusError) as err:
            t.session.apply(line, asked=True)
        assert err.value.code == "illegal_move" and t.session.state_json == before, (line, err.value.message)
    assert "always reserves" in localize(err.value.message, "en"), localize(err.value.message, "en")
    assert "(правила 2.2.2)" in localize(err.value.message, "ru"), localize(err.value.message, "ru")
    t.run("remove c_leg10", "add attacker c_leg10")                   # land main, navis main: refused too
    t.fails("start", "illegal_move")
    t.run("remove c_nav1", "add attacker c_nav1 reserve=1")           # the navis in reserve: the battle
    assert sum(t.odds()) == pytest.approx(1.0)
    t.session.apply("start", asked=True)
    assert [b["key"] for b in t.battle["blocks"] if b["status"] == "reserve"] == ["c_nav1"]
    sea = Table()                                                     # navis alone: a sea battle (J-11)
    sea.run("add attacker c_nav1", "add attacker c_nav2 reserve=1", "add defender p_nav1")
    sea.session.apply("start", asked=True)
    # a battle an older Legatus started so (its stored lines, replayed) still replays as it was
    old = Table()
    old.run("add attacker c_nav1", "add attacker c_leg10 reserve=1", "add defender p_leg39", "start", "fight")
    assert old.battle["phase"] == "over"


def test_next_battle_keeps_strengths_and_history():
    # J-2/J-3: blocks keep their strength from battle to battle
    t = Table()
    t.run("add attacker c_leg10", "add defender rating=A4 strength=1 name=d", "start",
          "fire d dice=1")
    assert t.block("c_leg10")["strength"] == 2
    t.do("fire c_leg10 dice=1,1")
    assert t.battle["result"] == "attacker_wins"
    t.do("next-battle attacker=pompey surprise=1")
    view = t.session.view()
    assert view["battle"]["number"] == 2 and view["battle"]["surprise"]
    assert view["history"] == [{"number": 1, "attacker": "caesar", "surprise": False,
                                "result": "attacker_wins", "winner": "caesar", "rounds": 1,
                                "blocks": ["c_leg10"],            # the roster blocks that fought (a rated one has no id)
                                "survivors": {"c_leg10": "caesar"}}]  # and those it left standing, for whom
    out = t.do("add defender c_leg10")
    assert out["block"]["strength"] == 2 and out["block"]["role"] == "defender"


def test_next_battle_does_not_drop_a_battle_being_set_up():
    # J-4: each battle is fought in its turn; next-battle over a set-up holding blocks threw the
    # placed blocks away without a word (acknowledged, then lost). Refused like the winter; an
    # empty set-up may still be replaced
    t = Table()
    t.run("add attacker c_leg10", "add defender p_leg1")
    message = t.fails("next-battle attacker=pompey", "illegal_move", asked=True)
    assert "c_leg10" in message and "p_leg1" in message and "remove" in message
    assert [b["key"] for b in t.battle["blocks"]] == ["c_leg10", "p_leg1"]
    t.run("remove c_leg10", "remove p_leg1", "next-battle attacker=pompey")
    assert t.battle["attacker"] == "pompey"
    # an older Legatus took it (the blocks dropped, a number used up): its stored line replays as it
    # ran; the campaign did not replay and was lost at the update
    old = Table()
    old.run("add attacker c_leg10", "add defender p_leg1", "next-battle attacker=pompey")
    assert old.battle["blocks"] == [] and old.battle["attacker"] == "pompey"
    assert old.session.view()["battle"]["number"] == 2


def test_next_battle_over_an_empty_set_up_keeps_its_number():
    # J-4: next-battle over a set-up that holds no block re-sets that battle (its attacker,
    # surprise, dice): no battle was fought, so no number is used up (it went 1 -> 2 -> 3 with
    # History empty, and the first battle fought was "Battle 3")
    t = Table()
    assert t.do("next-battle attacker=pompey")["number"] == 1
    t.run("add attacker p_leg1", "remove p_leg1")
    assert t.do("next-battle surprise=1")["number"] == 1
    assert t.battle["number"] == 1 and t.battle["surprise"] and t.battle["attacker"] == "caesar"
    t.run("add attacker c_leg10", "add defender p_leg1", "fight")
    assert t.do("next-battle")["number"] == 2
    assert [h["number"] for h in t.session.view()["history"]] == [1]
    assert t.do("next-battle attacker=pompey")["number"] == 2        # battle 2 re-set, still empty
    t.session.undo()
    assert t.battle["number"] == 2 and t.battle["attacker"] == "caesar"
    t.session.undo()
    assert t.battle["number"] == 1 and t.battle["phase"] == "over"


def test_auto_step_and_fight_finish_a_started_battle():
    # J-14 quick mode from any point (a seed whose first fire leaves the battle running)
    t = Table(seed=2)
    t.run("add attacker c_caesar", "add defender p_pompeius", "start", "pass c_caesar")
    rec = t.do("auto")["turn"]
    assert rec["block"] == "p_pompeius" and rec["action"] == "fire"
    out = t.do("fight")
    first = out["rounds"][0]["turns"]
    assert [x["action"] for x in first[:2]] == ["pass", "fire"]
    assert out["result"] in RESULTS


def test_state_is_plain_json_and_log_lists_the_turns():
    t = Table(seed=8)
    t.run("add attacker c_leg10", "add defender p_leg1", "fight")
    view = t.session.view()
    assert json.loads(json.dumps(view)) == view
    log = view["battle"]["log"]
    assert log and all(line.startswith("R") for line in log[:-1])      # the turns, then the end in its place
    assert view["battle"]["events"][-1].startswith("Battle over") and log[-1] == view["battle"]["events"][-1]


def test_owner_command():
    # Jupiter/Cleopatra side changes; leaders and navis never defect
    t = Table()
    t.fails("owner c_caesar pompey", "illegal_move")
    t.fails("owner c_nav1 pompey", "illegal_move")
    t.do("owner c_leg13 pompey")
    t.fails("add attacker c_leg13", "illegal_move")
    t.do("next-battle attacker=pompey")
    t.do("add attacker c_leg13")


def test_ukrainian_advice_names_the_attacker_as_the_battle_does():
    # J-15: the advice's figure is the attacker's chance; in Ukrainian the attacker is «нападник»
    # in every jc sentence (the result «нападник переміг», the turn messages), not «атакуючий»
    from firmware.i18n import localize
    t = Table("dice=physical")
    t.run("add attacker c_leg8", "add defender p_leg5", "start")
    text = localize(t.do("advise")["text"], "uk")
    assert "перемога нападника:" in text and "атакуюч" not in text, text


def test_every_jc_usage_line_is_said_in_the_readers_language():
    # every sentence a person reads is translated: the jc catalogs hold no English copies
    # ('advise x' answered «Usage: advise.» in ru and uk)
    from firmware.i18n import localize
    t = Table("dice=physical")
    t.run("add attacker c_leg8", "add defender p_leg5", "start")
    for lang in ("ru", "uk"):
        for line in ("advise x", "odds x", "fight x", "auto x"):
            said = localize(t.fails(line, "bad_arguments"), lang)
            assert said.startswith("Формат:") and "Usage" not in said, (lang, line, said)


@pytest.mark.parametrize("lang,said", [("en", "Block 1 (B2, II) joins the defender"),
                                       ("ru", "Блок 1 (B2, II)"), ("uk", "Блок 1 (B2, II)")])
def test_a_block_known_by_its_rating_is_named_a_block_not_by_its_key(state_dir, lang, said):
    """A block added by its rating without a name (the device's «Block by rating») is the summary's
    «блок» with its number; its key ``blk1`` stays in the ``block`` field, never in a sentence
    (the battle's rows, its log and the undo said «blk1 (B2, II) вступает в бой»)."""
    out = run_console(state_dir, [f"settings language={lang}", "new jc-battle seed=1",
                                  "add defender rating=B2 strength=2", "log 5"])
    assert out[2]["block"]["key"] == "blk1"                       # the protocol's key, as it was
    assert said in out[3]["log"][-1] and not any("blk" in line for line in out[3]["log"]), out[3]["log"]


@pytest.mark.parametrize("lang, name", [("en", "Pompeius"), ("ru", "Помпей"), ("uk", "Помпей")])
def test_pompeius_is_named_as_his_block_reads_without_brackets_glued_to_brackets(console, lang, name):  # J-1
    """The roster's "Pompeius (Pompey)" (its explanation in brackets) went into the log as it is:
    "Pompeius (Pompey) (B3, III) joins the defender (Pompey).", "Round 1 Pompeius (Pompey) (B3,
    III): fires …" — two brackets glued. He is named as his block reads (the screens already did)."""
    assert console.request(f"settings language={lang}")["ok"]
    for line in ("new jc-battle seed=4", "add attacker c_caesar", "add defender p_pompeius", "fight"):
        assert console.request(line)["ok"], line
    said = console.request("log 3")["log"] + console.request("state")["state"]["battle"]["log"]
    mine = [s for s in said if s.startswith(name) or f" {name} " in s]
    assert mine and all(") (" not in s for s in said), said
    assert console.request("settings language=en")["ok"]


@pytest.mark.parametrize("lang, said", [("en", "Pompey's Auxilia 1"), ("ru", "Ауксилия 1 Помпея"), ("uk", "Ауксилія 1 Помпея")])
def test_a_block_that_changed_sides_is_said_without_brackets_glued_or_nested(console, lang, said):  # J-2
    """A Jupiter defector was named with its first owner's initial in brackets, also inside
    sentences: "Auxilia 1 (P) (B1, IV) joins the attacker (Caesar).", "… 1 hit (Auxilia 1 (P)
    IV→III)." Sentences say whose block it was in words; the lists keep the initial."""
    assert console.request(f"settings language={lang}")["ok"]
    # (Jupiter takes a block on the map: Auxilia 1, off it at the start, is levied first, J-20)
    # at IV, as they fought before they started off the map (the strength the table has them at);
    # Auxilia 2 too is levied first: from the pool, a block joins a battle only at I (J-20)
    for line in ("new jc-battle seed=5", "gain p_aux1", "owner p_aux1 caesar", "add attacker p_aux1 strength=4",
                 "add attacker c_leg8", "gain p_aux2", "add defender p_aux2 strength=4", "fight"):
        assert console.request(line)["ok"], line
    texts = console.request("log 3")["log"] + console.request("state")["state"]["battle"]["log"]
    for t in texts:
        depth = 0
        for ch in t:
            depth += {"(": 1, ")": -1}.get(ch, 0)
            assert depth <= 1, t
        assert ") (" not in t, t
    assert sum(said in t for t in texts) >= 2, texts
    assert console.request("settings language=en")["ok"]


# -- J-2: the Cleopatra rule of a new game follows the language's rulebook ----------------------------
@pytest.mark.parametrize("lang,rule", [("ru", "round"), ("uk", "round"), ("en", "turn")])
def test_new_takes_the_languages_cleopatra_rule_and_stores_it_in_the_line(console, lang, rule):
    # J-2: the Russian edition's «сражается за нее в следующий раунд боя» for ru/uk, rules 7.52's
    # "next battle turn" in English (PROTOCOL, third round: the edition of the language)
    assert console.request(f"settings language={lang}")["ok"]
    out = console.request("new jc-battle seed=3")
    assert out["ok"], out
    assert out["state"]["rules"] == {"cleopatra": rule, "leaders": "last"}
    assert console.session.header["line"] == (f"new jc-battle seed=3 cleopatra={rule} rolls=apart pool=setup remove=restore "
                                              "ties=partial leaders=last")
    assert console.request("new jc-battle cleopatra=turn seed=3")["ok"]          # an explicit choice wins
    assert console.session.header["line"] == ("new jc-battle cleopatra=turn seed=3 rolls=apart pool=setup remove=restore "
                                              "ties=partial leaders=last")


def test_the_stored_cleopatra_rule_survives_a_change_of_language_and_a_restart(state_dir):
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    assert c.request("settings language=uk")["ok"]
    assert c.request("new jc-battle seed=5")["ok"]
    assert c.request("settings language=en")["ok"]
    c.close()
    store2 = Store(state_dir)
    c2 = Console(store2, store2.resume())
    assert c2.request("state")["state"]["rules"] == {"cleopatra": "round", "leaders": "last"}
    c2.close()


# -- J-7: where the device places a tied hit on the owner's behalf, a game started now spares a leader --
SCIPIO_TIED = ["add attacker c_leg10", "add defender p_scipio strength=1", "add defender p_leg34 strength=1", "start",
               "pass p_scipio", "pass p_leg34", "fire c_leg10 dice=1,6,6"]     # one hit: Scipio (A2) or Legio 34 (C3), both I


@pytest.mark.parametrize("how", ["auto", "fight", "hit"])
@pytest.mark.parametrize("options, takes, result", [
    ("seed=1 ties=partial leaders=last", "p_leg34", "eliminated"),      # a game started now: the leader last
    ("seed=1 ties=partial", "p_scipio", "killed")])                     # stored before leaders=last: J-14, as played
def test_the_device_puts_a_tied_hit_on_a_leader_last_in_a_game_started_now(options, takes, result, how):  # J-7, J-14, J-2, J-17
    """One hit on Scipio (A2) and Legio 34 (C3), both at I: J-7 leaves the pick to the owner (RU summary
    «владелец блоков определяет, какой из блоков понесет снижение»); J-14's order (the lowest
    firepower first) is the odds' policy. Fight to the end, Device decides and Device picks used it
    and killed Scipio — gone for good, a 1-VP trophy for Caesar (J-2, J-17) — where the legion
    could take the hit. A game started now (``leaders=last``) puts the leader last; a game stored
    before it keeps J-14's order, so its stored lines replay as they were played. The odds describe
    each game's own fight (J-15; tests/test_jc_odds_leaders.py), so they differ."""
    t = Table(options)
    t.run(*SCIPIO_TIED)
    assert t.session.view()["battle"]["decision"]["choices"] == ["p_scipio", "p_leg34"]
    odds = t.do("odds")
    t.do(how)
    applied = t.session.state["battle"]["turns"][-1 if how != "fight" else 2]["applied"]
    assert [(a["block"], a["result"]) for a in applied] == [(takes, result)]
    other = Table("seed=1 ties=partial" if "leaders" in options else "seed=1 ties=partial leaders=last")
    other.run(*SCIPIO_TIED)
    assert abs(other.do("odds")["attacker_wins"] - odds["attacker_wins"]) > 1e-3      # each its own order


def test_new_refuses_another_leaders_rule():
    with pytest.raises(LegatusError) as e:
        Table("leaders=first")
    assert e.value.code == "bad_arguments" and "leaders= takes only 'last'" in e.value.message


def test_the_next_battle_keeps_the_leaders_rule():  # J-7
    t = Table("seed=1 ties=partial leaders=last")
    t.run("add attacker c_leg8", "add defender p_leg1", "fight", "next-battle", *SCIPIO_TIED, "auto")
    assert t.session.state["battle"]["leaders"] == "last"
    assert [a["block"] for a in t.session.state["battle"]["turns"][-1]["applied"]] == ["p_leg34"]


def test_a_stored_session_without_the_cleopatra_rule_resumes_with_her_next_turn_in_any_language(state_dir):
    # a line stored before the choice (no cleopatra=) played rules 7.52: it keeps them in Russian
    from firmware.console import Console
    from firmware.session import Session
    from firmware.store import Store
    store = Store(state_dir)
    session = Session.start("new jc-battle dice=physical", 1, sid="old")
    store.begin(session)
    for cmd in ("add attacker c_caesar", "add defender cleopatra strength=1", "add defender p_leg5 strength=1",
                "start", "fire c_caesar dice=1,6,6", "hit cleopatra", "pass p_leg5"):
        outcome, new_json = session.run(cmd)
        assert new_json is not None
        store.commit(session, cmd, outcome, new_json)
    store.close()
    store2 = Store(state_dir)
    c = Console(store2, store2.resume())
    assert c.request("settings language=ru")["ok"]
    st = c.request("state")["state"]
    assert st["rules"] == {"cleopatra": "turn"} and c.session.header["line"] == "new jc-battle dice=physical"
    assert st["battle"]["decision"]["blocks"] == ["cleopatra"]       # her turn for Caesar, round 1
    c.close()


@pytest.mark.parametrize("lang, said", [
    ("en", "name=Легион_А must start with a Latin letter (a-z) and use Latin letters, digits, - or _ (up to 24 characters)."),
    ("ru", "name=Легион_А должно начинаться с латинской буквы (a-z) и состоять из латинских букв, цифр, - или _ "
           "(до 24 знаков)."),
    ("uk", "name=Легион_А має починатися з латинської літери (a-z) й містити латинські літери, цифри, - або _ "
           "(до 24 знаків).")])
def test_a_cyrillic_block_name_is_refused_saying_the_letters_must_be_latin(lang, said):
    # a Russian player naming a block by its rating «Легион_А» was told the name must start with a
    # letter («должно начинаться с буквы») — it does: the refusal now says Latin letters, and
    # nothing is added
    from firmware.i18n import localize
    t = Table("attacker=caesar")
    assert localize(t.fails("add defender rating=C2 strength=3 name=Легион_А", "bad_arguments"), lang) == said
    assert t.session.state["battle"]["blocks"] == []


# A Cyrillic letter drawn like a Latin one (the key C gives «с» in the Ukrainian and Russian
# layouts): the word reads right on the laptop's screen, so a bare "not a block id" left the player
# staring at it. Each refusal now names the Cyrillic letters and the word meant; nothing changes.
CYRILLIC_LOOKALIKES = [
    ("add attacker с_leg10", "с_leg10", "c_leg10"),                    # a roster id (J-1)
    ("add аttacker c_leg10", "аttacker", "attacker"),                  # the battle side
    ("add attacker rating=С3 strength=2", "С3", "C3"),                 # a rating (J-1)
    ("owner cleopatra сaesar", "сaesar", "caesar"),                    # a side (J-2)
    ("hand сaesar", "сaesar", "caesar"),
    ("control Rоma caesar", "Rоma", "Roma"),                           # a VP city (J-17)
    ("control Roma сaesar", "сaesar", "caesar"),
    ("supply Аntioch", "Аntioch", "Antioch"),                          # winter supply (J-19)
    ("levy c_leg8 Rоma", "Rоma", "Roma"),                              # a levy city (J-20)
    ("next-battle attacker=pompeу", "pompeу", "pompey"),               # the attacking side (J-4)
    ("next-battle dice=physiсal", "physiсal", "physical"),
]


@pytest.mark.parametrize("line, typed, meant", CYRILLIC_LOOKALIKES, ids=[c[0] for c in CYRILLIC_LOOKALIKES])
def test_a_word_typed_with_cyrillic_lookalikes_is_refused_naming_the_latin_word(line, typed, meant):
    t = Table()
    message = t.fails(line, "bad_arguments", asked=True)
    assert "Cyrillic" in message and typed in message and f"did you mean {meant}?" in message


def test_cyrillic_lookalikes_in_battle_keys_and_cards_are_named():
    t = Table(seed=5)
    t.run("add attacker c_leg10", "add defender p_leg1")
    # a word with no Latin reading in the game is refused as before, with no guess
    assert "Cyrillic" not in t.fails("add attacker с_leg99", "bad_arguments")
    assert "did you mean c_leg10?" in t.fails("remove с_leg10", "bad_arguments")
    t.run("deal")
    card = next(c for c in t.do("hand caesar")["hand"] if set(c) & set("aeop"))   # an event card (J-18)
    typed = card.replace("e", "е").replace("a", "а").replace("o", "о").replace("p", "р")
    assert f"did you mean {card}?" in t.fails(f"discard caesar {typed}", "bad_arguments")
    acting = t.do("start")["decision"]["blocks"][0]
    assert f"did you mean {acting}?" in t.fails(f"pass {acting.replace('c', 'с').replace('p', 'р')}",
                                                "bad_arguments")


def test_cyrillic_lookalike_refusal_in_ukrainian(state_dir):
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    assert c.request("settings language=uk")["ok"]
    assert c.request("new jc-battle seed=5")["ok"]
    before = c.request("state")["state"]
    r = c.request("add attacker с_leg10")
    assert r == {"ok": False, "error": "bad_arguments", "message":
                 "«с_leg10» набрано частково кирилицею (с); консоль приймає латинські літери: можливо, c_leg10?"}
    assert c.request("state")["state"] == before
    c.close()


def test_a_hit_placed_on_a_block_typed_with_cyrillic_lookalikes_names_the_block():
    # J-7: the owner picks among equally strong blocks; «р_leg1» (a Cyrillic р) is that block
    t = Table("dice=physical", seed=5)
    t.run("add attacker c_leg10", "add defender p_leg1 strength=2", "add defender p_leg3 strength=2", "start",
          "pass p_leg1", "pass p_leg3", "fire c_leg10 dice=1,6,6")
    assert "did you mean p_leg1?" in t.fails("hit р_leg1", "bad_arguments")
    assert t.do("hit p_leg1")["turn"]["applied"][0]["block"] == "p_leg1"


def test_a_change_of_side_to_the_side_the_block_fights_for_is_refused():
    # J-2 (Cleopatra's side), the Jupiter card: `owner` to the side it already fights for changed
    # nothing, yet was said as done and journaled, and its undo then took back nothing
    t = Table(seed=5)
    t.do("owner p_leg1 caesar")
    assert "already fights for Caesar" in t.fails("owner p_leg1 caesar", "illegal_move", asked=True)
    assert "already fights for Pompey" in t.fails("owner cleopatra pompey", "illegal_move", asked=True)
    assert "already fights for Pompey" in t.fails("owner p_leg3 pompey", "illegal_move", asked=True)
    t.do("owner p_leg1 pompey")                        # back to his own side: a change, taken
    assert t.session.state["campaign"]["owner"].get("p_leg1", "pompey") == "pompey"


def test_a_city_given_to_the_side_that_holds_it_is_refused(state_dir):
    # J-17: `control` to the holder it has (or vacant when it is) changed nothing, yet was said as
    # done and journaled; its undo then took back nothing
    t = Table(seed=5)
    assert "already held by Caesar" in t.fails("control Massilia caesar", "illegal_move", asked=True)
    assert "already held by Pompey" in t.fails("control Alexandria pompey", "illegal_move", asked=True)
    assert "already vacant" in t.fails("control Roma vacant", "illegal_move", asked=True)
    t.do("control Roma caesar")                        # a change, taken
    assert "already held by Caesar" in t.fails("control rome caesar", "illegal_move", asked=True)
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    assert c.request("settings language=uk")["ok"] and c.request("new jc-battle seed=5")["ok"]
    assert c.request("control Massilia caesar") == {"ok": False, "error": "illegal_move",
                                                    "message": "Массилія уже під контролем Цезаря."}
    c.close()


def test_lose_and_disband_of_a_block_eliminated_this_year_say_it_is_in_the_pool():
    # J-3: a block eliminated this year is in its owner's levy pool until the winter; `lose` and
    # `disband` of it said "it cannot be levied again until the winter", a levy nobody asked for
    t = Table(seed=5)
    t.run("add attacker c_leg9 strength=1", "add defender p_leg6", "start", "fire p_leg6 dice=1,1,1")
    assert "c_leg9" in t.session.state["campaign"]["eliminated"]
    for line in ("lose c_leg9", "disband c_leg9"):
        said = t.fails(line, "illegal_move", asked=True)
        assert "levy pool" in said and "levied" not in said, (line, said)
    assert "no step to lose" in t.fails("lose c_leg9", "illegal_move")
    assert "levied again" in t.fails("gain c_leg9", "illegal_move")      # a levy asked: said as before


@pytest.mark.parametrize("card", ["zeus", "5/5", "4-1"])
def test_a_word_that_is_no_card_of_the_game_is_refused_naming_the_cards(card):
    # J-18: the 27 cards are 8 move/levy values and 7 events; a word that is none of them was
    # refused as "not in this hand", as if a card the other player held (the code stays illegal_move)
    t = Table(seed=5)
    t.run("deal")
    said = t.fails(f"discard caesar {card}", "illegal_move", asked=True)
    assert "not a Julius Caesar card" in said and "4/1" in said and "apollo" in said
    missing = next(c for c in ("mars", "neptune", "pluto", "apollo", "mercury") if c not in t.do("hand caesar")["hand"])
    assert "not in this hand" in t.fails(f"discard caesar {missing}", "illegal_move", asked=True)   # a card: as before


@pytest.mark.parametrize("card", ["zeus", "5/5"])
def test_a_play_of_no_card_of_the_game_says_so_before_the_discard_or_the_turns_card(card):
    # J-18: `play caesar zeus` before Caesar's discard was answered "Caesar must first discard one
    # card face down", after his play this turn "has already played a card", after his discard
    # `discard caesar zeus` "has already discarded": none said there is no such card
    t = Table(seed=5)
    t.run("deal")
    said = t.fails(f"play caesar {card}", "illegal_move", asked=True)
    assert "not a Julius Caesar card" in said and "discard" not in said
    hand = t.do("hand caesar")["hand"]
    t.run(f"discard caesar {hand[0]}")
    assert "not a Julius Caesar card" in t.fails(f"discard caesar {card}", "illegal_move", asked=True)
    t.run(f"play caesar {next(c for c in hand[1:] if c != 'apollo')}")
    assert "not a Julius Caesar card" in t.fails(f"play caesar {card}", "illegal_move", asked=True)
    assert "must first discard" in t.fails("play pompey mars", "illegal_move", asked=True)   # a card: as before


@pytest.mark.parametrize("name", ["Cleopatra", "C_LEG10", "P_Pompeius"])
def test_a_block_by_rating_may_not_be_named_as_a_roster_block_in_other_letters(name):
    # J-1: a block by its rating is named by `name=`; "Cleopatra" (a plain C3 block) read in every
    # sentence as Cleopatra herself, whose rules (J-2) it does not follow, beside the real one
    t = Table()
    assert "roster block id" in t.fails(f"add attacker rating=C3 strength=3 name={name}", "bad_arguments")
    t.do("add attacker rating=C3 strength=3 name=cleo2")                  # another name: taken


def test_a_roster_block_not_in_the_battle_is_named_by_its_name_and_id(state_dir):
    # `remove p_leg1`, `fire c_leg8` for a block not in the battle said the bare id («p_leg1 не бере
    # участі в цьому бою»), where "already in this battle" names it: Legio 1 (p_leg1)
    t = Table(seed=5)
    t.run("add attacker c_leg10", "add defender p_leg5")
    assert t.fails("remove p_leg1", "illegal_move") == "Legio 1 (p_leg1) is not in this battle."
    assert t.fails("remove blk7", "illegal_move") == "blk7 is not in this battle."     # no roster block: as typed
    t.run("start")
    assert t.fails("pass p_leg1", "illegal_move") == "Legio 1 (p_leg1) is not in this battle."
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    assert c.request("settings language=uk")["ok"] and c.request("new jc-battle seed=5")["ok"]
    assert c.request("remove p_leg1")["message"] == "Легіон 1 (p_leg1) не бере участі в цьому бою."
    c.close()


@pytest.mark.parametrize("lang, said", [
    ("ru", "Введите 3 кубика, брошенных за блок «Помпей»: fire p_pompeius dice=a,b,..."),
    ("uk", "Введіть 3 кубики, кинуті за блок «Помпей»: fire p_pompeius dice=a,b,...")])
def test_the_dice_asked_for_a_block_name_it_in_its_case(lang, said):  # J-1 (one die a step), physical dice
    """`fire` without the table's dice asked «Введите 3 кубика, брошенных за Помпей» — the name put in
    as the roster says it (nominative), where «за» wants «Помпея»; the block is named as a block now."""
    from firmware.i18n import localize
    t = Table("dice=physical")
    t.run("add attacker c_leg10", "add defender p_pompeius", "start")
    assert localize(t.fails("fire", "bad_arguments"), lang) == said


@pytest.mark.parametrize("lang, line, said", [
    ("ru", "discard caesar Юпитер", "«Юпитер»: консоль пишет карты латиницей (4/1, "),
    ("uk", "discard caesar Марс", "«Марс»: консоль пише карти латиницею (4/1, "),
    ("ru", "control Рим caesar", "«Рим»: консоль называет города латиницей, как они напечатаны на поле (пробелы "
                                 "пишите как _, напр. Roma, Carthago_Nova)."),
    ("uk", "levy p_leg1 Брундизій", "«Брундизій»: консоль називає міста латиницею, як їх надруковано на полі")])
def test_a_card_or_city_typed_in_the_readers_own_words_is_not_said_to_be_no_card_or_city(state_dir, lang, line, said):
    # J-18, J-20: a Russian player typing the card the screen calls «Юпитер», or the city «Рим», was
    # told «Юпитер» is no card of Julius Caesar, «Рим» no city of its map — both false; now the
    # console says it takes the cards and cities in Latin letters (and lists the cards)
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        for asked in (f"settings language={lang}", "new jc-battle seed=1", "deal"):
            assert c.request(asked)["ok"], asked
        r = c.request(line)
        assert not r["ok"] and r["message"].startswith(said), r
        assert "jupiter" in r["message"] or "Roma" in r["message"], r
    finally:
        c.close()


@pytest.mark.parametrize("lang, said", [
    ("en", "Battle 1 is over, but the campaign goes on: its next battles' dice and its cards are drawn from this seed."),
    ("ru", "Бой 1 окончен, но кампания продолжается: кубики её следующих боёв и карты берутся из этого зерна."),
    ("uk", "Бій 1 закінчено, але кампанія триває: кубики її наступних боїв і карти беруться з цього зерна.")])
def test_the_seed_of_a_campaign_waits_for_its_end_not_a_battles(state_dir, lang, said):  # J-13, J-17, J-19
    """PROTOCOL.md third round: «`reveal`: while the game runs → `illegal_move` (message: the seed
    is shown when the game ends); after the end → `seed`», and «Before the end no reply field [...]
    carries the seed or anything that predicts a draw». A jc-battle session is a campaign: once
    `fight` ends battle 1 (J-13) History has the battle `finished` (second round: «a single
    battle's end»), but the next battles' dice and the cards are still to be drawn from the seed,
    so the game runs: `reveal` is refused and `next-battle` goes on. The refusal said «The seed is
    shown when the game ends: finish the game, or end it with 'end'» about a battle History calls
    finished; it now says why in the campaign's words. `end` then files the session `ended` (the
    players stopped the campaign; its battle stays `finished`, with the seed once shown)."""
    replies = run_console(state_dir, [f"settings language={lang}", "new jc-battle", "add attacker c_caesar",
                                      "add defender p_leg1", "fight", "reveal", "history", "next-battle", "reveal",
                                      "end", "reveal", "history"])
    assert all(r["ok"] for i, r in enumerate(replies) if i not in (5, 8)), replies
    fought, refused, history, _next, again, ended, shown, filed = replies[4:]
    assert fought["state"]["battle"]["phase"] == "over" and fought["state"]["ended"] is None
    assert not fought["state"]["over"]                                    # the campaign runs
    for r in (refused, again):
        assert r["error"] == "illegal_move" and r["message"].startswith(said), r
        assert "seed" not in r
    [battle] = history["games"]
    assert (battle["status"], battle["mode"]["kind"], battle["seed"]) == ("finished", "battle", None)
    assert ended["ended"] == "ended" and shown["ended"] == "ended" and shown["seed"]
    assert [(g["status"], g["mode"]["kind"]) for g in filed["games"]] == [("ended", "ended"), ("finished", "battle")]
    assert filed["games"][1]["seed"] == shown["seed"]


def test_a_battle_being_fought_keeps_the_common_refusal(state_dir):
    """Mid-battle the seed waits as in every game: the common sentence (PROTOCOL.md third round)."""
    replies = run_console(state_dir, ["new jc-battle", "add attacker c_caesar", "add defender p_leg1", "start",
                                      "reveal"])
    assert replies[-1]["error"] == "illegal_move" and replies[-1]["message"].startswith("The seed is shown when the game ends")
