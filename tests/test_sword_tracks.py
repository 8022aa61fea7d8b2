"""The ``sword`` session: VP track (W-11), Desperate Times (W-12), unrest (W-13), naval moves
(W-8), 2d6 checks (W-9), the consuls' cup (W-10) and the session's own dice commands."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from engine.errors import BadArguments, GameOver, IllegalMove
from engine.sword.console import GAME
from tests.test_glory_helpers import new as new_game
from tests.test_glory_helpers import run as run_game

FOUR = "players=romans,gauls,etruscans,greeks"
FIVE = FOUR + ",carthage"


def new(options: str = FOUR, seed: int = 1) -> dict:
    return new_game(options, seed, game=GAME)


def run(state: dict, line: str, asked: bool = False) -> dict:
    return run_game(state, line, game=GAME, asked=asked)


# -- W-11 VP track ---------------------------------------------------------------------------
def test_vp_stay_within_0_and_12():  # W-11
    s = new()
    assert run(s, "vp romans +15")["vp"]["romans"] == 12
    assert run(s, "vp romans -20")["vp"]["romans"] == 0
    assert run(s, "vp gauls =7")["vp"]["gauls"] == 7


def test_scoring_phase_is_cumulative():  # W-11
    s = new()
    out = run(s, "scoring greeks outside=3 missing=1")
    assert out["change"] == 2 and out["vp"]["greeks"] == 2
    out = run(s, "scoring greeks outside=1 missing=4")
    assert out["change"] == -3 and out["vp"]["greeks"] == 0
    out = run(s, "scoring greeks outside=14 missing=0 auto=10")
    assert out["vp"]["greeks"] == 12 and out["automatic_victory"] is True


def test_standings_break_ties_gauls_etruscans_samnites_greeks_carthage_romans():  # W-11
    s = new(FIVE)
    for f in ("romans", "gauls", "etruscans", "greeks", "carthage"):
        run(s, f"vp {f} =5")
    assert run(s, "standings")["standings"] == ["gauls", "etruscans", "greeks", "carthage", "romans"]
    run(s, "vp romans +1")
    assert run(s, "standings")["leader"] == "romans"


def test_starting_vp_option():  # W-11
    s = new(FOUR + " vp=romans:3,greeks:2")
    assert GAME.view(s)["vp"] == {"romans": 3, "gauls": 0, "etruscans": 0, "greeks": 2}


# -- W-12 Desperate Times --------------------------------------------------------------------
def test_fewest_vp_plays_the_desperate_times_card():  # W-12
    s = new()
    run(s, "vp romans =9")
    run(s, "vp greeks =4")
    out = run(s, "desperate romans,greeks")
    assert out["plays"] == "greeks" and out["kept"] == ["romans"]
    assert out["desperate"]["greeks"] == 1 and out["desperate"]["romans"] == 2


def test_rulebook_example_gauls_win_the_tie_with_the_greeks():  # W-12 (7.4.2 example)
    s = new()
    run(s, "vp greeks =7")
    run(s, "vp gauls =7")
    out = run(s, "desperate greeks,gauls")
    assert out["plays"] == "gauls" and out["kept"] == ["greeks"]


def test_two_cards_each_then_none():  # W-12
    s = new()
    run(s, "desperate etruscans")
    run(s, "desperate etruscans")
    with pytest.raises(IllegalMove):
        run(s, "desperate etruscans")


def test_end_of_round_5_order_is_descending_vp_among_holders():  # W-12
    s = new()
    for f, v in (("romans", 8), ("gauls", 3), ("etruscans", 8), ("greeks", 5)):
        run(s, f"vp {f} ={v}")
    run(s, "desperate greeks")
    run(s, "desperate greeks")
    assert run(s, "desperate-order")["order"] == ["etruscans", "romans", "gauls"]


def _round_5(s: dict) -> dict:
    for _ in range(4):
        run(s, "advance")
    assert GAME.view(s)["round"] == 5
    return s


def test_at_the_end_of_round_5_each_power_marked_plays_one_card_most_vp_first():  # W-12, rules 7.4.5 / 7.4.2
    """Rule 7.4.5: «В конце пятого раунда каждый игрок в порядке убывания ПО может сыграть одну
    карточку»: at the end of round 5 nobody keeps a card because another plays (7.4.2 is the conflict
    of an interruption): every power listed plays one, in descending VP order (ties: W-11)."""
    s = _round_5(new())
    for f, v in (("romans", 8), ("gauls", 3), ("etruscans", 8), ("greeks", 5)):
        run(s, f"vp {f} ={v}")
    out = run(s, "desperate gauls,romans,etruscans end=1", asked=True)
    assert out["played"] == ["etruscans", "romans", "gauls"] and out["kept"] == [] and out["end"] is True
    assert out["plays"] == "etruscans"
    assert out["desperate"] == {"romans": 1, "gauls": 1, "etruscans": 1, "greeks": 2}


def test_an_interruption_in_round_5_is_still_the_fewest_vp_rule():  # W-12, rule 7.4.2
    s = _round_5(new())
    run(s, "vp romans =9")
    out = run(s, "desperate romans,greeks end=0", asked=True)
    assert (out["plays"], out["played"], out["kept"], out["end"]) == ("greeks", ["greeks"], ["romans"], False)
    assert out["desperate"]["romans"] == 2


def test_several_powers_in_round_5_must_say_which_moment_when_asked_now():  # W-12, rules 7.4.2 / 7.4.5
    """Only the table knows whether several powers in round 5 interrupt a player (the fewest VP
    plays) or play at the end of the round (each plays one): a line asked now says it; one stored
    by an older Legatus (it took it as an interruption) replays as it ran; one power, or another
    round, needs nothing more (the outcome is the same / it is an interruption)."""
    s = _round_5(new())
    before = copy.deepcopy(s)
    with pytest.raises(BadArguments, match="end=1"):
        run(s, "desperate romans,greeks", asked=True)
    assert s == before
    out = run(s, "desperate romans,greeks")                         # a stored line, replayed
    assert out["plays"] == "greeks" and out["kept"] == ["romans"]   # 0 VP each: the Greeks win the tie
    run(s, "desperate gauls", asked=True)
    run(s, "desperate romans,romans", asked=True)                   # one power named twice
    t = new()
    assert run(t, "desperate romans,greeks", asked=True)["plays"] == "greeks"


def test_at_the_end_of_round_5_each_power_plays_one_card_only():  # W-12, rule 7.4.5 «может сыграть одну»
    s = _round_5(new())
    run(s, "desperate romans,gauls end=1", asked=True)
    before = copy.deepcopy(s)
    with pytest.raises(IllegalMove, match="already played there: Gauls"):
        run(s, "desperate greeks,gauls end=1", asked=True)
    assert s == before
    assert run(s, "desperate greeks end=1", asked=True)["played"] == ["greeks"]
    assert run(s, "desperate gauls", asked=True)["played"] == ["gauls"]          # an interruption: 7.4.1
    for _ in range(5):
        run(s, "advance")                                                         # turn 2, round 5
    assert run(s, "desperate romans end=1", asked=True)["desperate"]["romans"] == 0


def test_the_end_of_round_5_order_leaves_out_who_has_played_there_this_turn():  # W-12, rule 7.4.5
    """Rule 7.4.5: each power «может сыграть одну» card at the end of round 5. ``desperate-order``
    and ``advance``'s ``desperate_order_before`` still listed the Gauls after their card there (a
    second one is refused), unlike the device's Next round question; a card played interrupting a
    player (rule 7.4.1) is not that one."""
    s = _round_5(new())
    run(s, "vp gauls =7")
    run(s, "vp greeks =5")
    run(s, "desperate gauls end=1", asked=True)
    run(s, "desperate romans end=0", asked=True)                             # an interruption
    assert run(s, "desperate-order")["order"] == ["greeks", "etruscans", "romans"]
    assert run(s, "advance")["desperate_order_before"] == ["greeks", "etruscans", "romans"]
    assert run(s, "desperate-order")["order"] == ["gauls", "greeks", "etruscans", "romans"]   # turn 2


@pytest.mark.parametrize("rnd", [1, 4])
def test_end_of_round_5_cards_are_refused_in_another_round(rnd):  # W-12, rule 7.4.5
    s = new()
    for _ in range(rnd - 1):
        run(s, "advance")
    before = copy.deepcopy(s)
    with pytest.raises(IllegalMove, match=f"this is round {rnd}"):
        run(s, "desperate romans,greeks end=1", asked=True)
    assert s == before


def test_end_of_round_5_refuses_a_power_without_a_card_and_changes_nothing():  # W-12
    s = _round_5(new())
    run(s, "desperate greeks")
    run(s, "desperate greeks")
    before = copy.deepcopy(s)
    with pytest.raises(IllegalMove, match="No Desperate Times card left"):
        run(s, "desperate romans,greeks end=1", asked=True)
    assert s == before


# -- W-13 unrest -----------------------------------------------------------------------------
@pytest.mark.parametrize("level, hand, vp", [(0, 0, 0), (1, 0, 0), (2, -1, 0), (3, -1, -1), (5, -2, -1),
                                             (6, -3, -2), (7, -3, -2), (12, -6, -4)])
def test_unrest_effects(level: int, hand: int, vp: int):  # W-13
    s = new(FIVE)
    out = run(s, f"unrest ={level}")
    assert out["hand_size_modifier"] == hand and out["vp_modifier"] == vp


def test_unrest_lowers_carthage_in_standings_and_priority():  # W-13, W-12
    s = new(FIVE)
    run(s, "vp carthage =6")
    run(s, "vp greeks =5")
    run(s, "unrest =3")                       # Carthage counts as 5: the tie goes to the Greeks
    assert run(s, "standings")["standings"][:2] == ["greeks", "carthage"]
    assert run(s, "desperate greeks,carthage")["plays"] == "greeks"  # equal VP: Greeks first in W-11 order


def test_unrest_needs_carthage():  # W-13
    s = new()
    with pytest.raises(IllegalMove):
        run(s, "unrest +1")


# -- W-8 naval, W-9 2d6, W-10 consuls --------------------------------------------------------
@pytest.mark.parametrize("die, extra, port, result", [(1, 0, 0, "success"), (2, 0, 0, "success"),
                                                     (3, 0, 0, "return"), (4, 0, 0, "return"),
                                                     (5, 0, 0, "attrition"), (6, 0, 0, "attrition"),
                                                     (4, 0, 1, "success"), (6, 0, 1, "return"),
                                                     (2, 1, 0, "return"), (4, 2, 0, "attrition"),
                                                     (1, 0, 1, "success"), (6, 3, 0, "attrition")])  # off the table
def test_naval_table(die: int, extra: int, port: int, result: str):  # W-8
    s = new(FIVE)
    out = run(s, f"naval die={die} extra-ops={extra} friendly-port={port}")
    assert out["result"] == result and out["modified"] == die + extra - 2 * port


def test_extra_ops_is_a_carthaginian_rule():  # W-8
    with pytest.raises(IllegalMove):
        run(new(), "naval extra-ops=1")


def test_two_d6_checks_show_the_sum_and_gauls_siege_penalty():  # W-9
    s = new()
    out = run(s, "check siege dice=4,5 gauls=1")
    assert out["sum"] == 9 and out["total"] == 8 and out["result"] is None
    out = run(s, "check attrition")
    assert len(out["dice"]) == 2 and out["total"] == sum(out["dice"])
    with pytest.raises(BadArguments):
        run(s, "check attrition gauls=1")
    with pytest.raises(BadArguments):
        run(s, "check plunder")


def test_a_2d6_roll_s_log_sentence_shows_two_dice_and_a_modifier_only_when_there_is_one():  # W-9
    """«Siege roll: 5+3+0 = 8.» read as three dice summed; «5+3-1» had a hyphen where the Sword's
    screens and sentences show the minus sign (−1)."""
    from tests.test_glory_helpers import parse
    s = new()

    def said(line: str) -> str:
        return str(GAME.commands["check"].handler(s, parse(line)).log)
    assert said("check siege dice=5,3") == "Siege roll: 5+3 = 8."
    assert said("check siege dice=5,3 mod=-1") == "Siege roll: 5+3−1 = 7."      # the minus sign, not «-1»
    assert said("check siege dice=4,5 gauls=1") == "Siege roll: 4+5−1 = 8."
    assert said("check attrition dice=2,2 mod=2") == "Attrition roll: 2+2+2 = 6."
    assert said("check gallic dice=3,4") == "Gallic events roll: 3+4 = 7."      # the Gallic Events Table


def test_every_figure_taken_away_in_a_sword_log_line_has_the_minus_sign():  # W-8, W-11, W-13, W-1, W-2
    """«Морской переход: 3-1 = 2» had a hyphen where the siege line (above) and the screens show
    «−»: the naval move, a scoring phase that loses VP, unrest's hand size and VP, a tactics test and
    a battle with a negative modifier all write the minus sign (a gain keeps «+»)."""
    from tests.test_glory_helpers import parse
    s = new(FIVE)

    def said(line: str) -> str:
        return str(GAME.commands[line.split()[0]].handler(s, parse(line)).log)
    assert said("naval die=3 mod=-1") == "Naval move: 3−1 = 2: " + said("naval die=3 mod=-1").split(": ")[-1]
    assert said("naval die=3 mod=1").startswith("Naval move: 3+1 = 4")
    run(s, "vp greeks =5")
    assert said("scoring greeks outside=0 missing=2").startswith("Scoring: Greeks −2 VP (5 -> 3)")
    assert said("unrest =4") == "Carthaginian unrest 4: hand size −2, VP −1."
    assert "rolled 4−1 = 3" in said("tactics 3 die=4 mod=-1")
    battle = said("battle att=2 def=2 mod=-1 defmod=1 att-dice=6,5,4 def-dice=2,1,1")
    assert "attacker 6,5,4−1 = " in battle and "defender 2,1,1+1 = " in battle, battle
    assert "-" not in said("naval die=2 mod=-2").split(":")[1]


def test_consuls_two_different_drawn_from_the_whole_cup_each_time():  # W-10
    s = new(FOUR + " consuls=A,B,C,D", seed=4)
    seen = Counter()
    for _ in range(300):
        drawn = run(s, "consuls")["drawn"]
        assert len(drawn) == 2 and len(set(drawn)) == 2 and set(drawn) <= {"A", "B", "C", "D"}
        seen[tuple(sorted(drawn))] += 1
    assert len(seen) == 6                      # every pair can come out: all consuls go back each time
    assert run(s, "consuls pool=X,Y")["drawn"] in (["X", "Y"], ["Y", "X"])


@pytest.mark.parametrize("names", ["Ab😀,Fabius", "漢字,Fabius", "A" * 25 + ",Fabius"])
def test_a_consul_the_screen_cannot_show_is_refused(names: str):  # W-10; README: names it cannot draw
    # the device shows the consuls drawn; like a bag's items and Glory's players, a name with a
    # character the font lacks, or longer than a name may be, is refused and nothing changes
    with pytest.raises(BadArguments):
        new(FOUR + f" consuls={names}")
    s = new()
    before = copy.deepcopy(s)
    with pytest.raises(BadArguments):
        run(s, f"consuls pool={names}")
    assert s == before
    assert run(s, "consuls pool=Валерий,Каммил,M.Furius")["drawn"]        # Cyrillic and Latin names


# -- the session's dice and turns ------------------------------------------------------------
def test_session_battle_uses_the_session_generator():  # W-2
    a, b = new(seed=3), new(seed=3)
    assert run(a, "battle att=4 def=3 mod=1") == run(b, "battle att=4 def=3 mod=1")
    assert a["rng"] == b["rng"] and a["rng"] != new(seed=3)["rng"]
    assert GAME.view(a)["last"]["kind"] == "battle"
    with pytest.raises(BadArguments):
        run(a, "battle att=4 def=3 seed=2")


def test_a_sacred_band_battle_without_carthage_still_replays():  # W-2: Carthage's 4d6
    # the device offered the Sacred Band row in every game until it showed it only with Carthage;
    # journals hold such battles, and a session is rebuilt by replaying its lines through today's
    # rules (firmware/session.py): refusing the line now would archive those sessions
    s = new()                                                     # four powers, no Carthage
    out = run(s, "battle att=4 def=3 sacred-band=att")
    assert len(out["attacker"]["dice"]) == 4 and len(out["defender"]["dice"]) == 3
    s = new(FIVE)
    out = run(s, "battle att=4 def=3 sacred-band=def")
    assert len(out["defender"]["dice"]) == 4 and len(out["attacker"]["dice"]) == 3


@pytest.mark.parametrize("line", ["check siege dice=1,²", "tactics ²", "battle att=3 def=3 att-dice=²,1,1"])
def test_a_die_or_rating_int_cannot_read_is_refused_in_a_session(line: str):  # W-1, W-2, W-9
    s = new()
    before = copy.deepcopy(s)
    with pytest.raises(BadArguments):
        run(s, line)
    assert s == before


def test_session_tactics_and_odds():  # W-1, W-6
    s = new()
    assert run(s, "tactics 2 die=3")["success"] is False
    assert run(s, "odds mod=0")["attacker_wins_fraction"] == "3527/7776"


def test_an_automatic_victory_ends_the_game():  # W-11: the VP printed on the map for the turn
    s = new()
    run(s, "vp gauls =6")
    for _ in range(12):
        run(s, "advance")
    with pytest.raises(BadArguments):
        run(s, "victory carthage")                           # not in this game: nothing changes
    assert s["finished"] is False
    out = run(s, "victory greeks")
    assert out["winner"] == "greeks" and out["automatic"] is True and out["turn"] == 3 and s["finished"] is True
    view = GAME.view(s)
    assert view["finished"] is True and view["automatic"] == "greeks"
    # the winner leads now, though the Gauls have more VP: 'standings' said leader=gauls
    standings = run(s, "standings")
    assert standings["leader"] == "greeks" and standings["standings"][0] == "gauls"   # the VP order kept
    for line in ("vp greeks +1", "advance", "desperate gauls", "victory gauls"):
        with pytest.raises(GameOver):
            run(s, line)


def test_turns_of_five_rounds_and_the_end():  # W-11
    s = new()
    run(s, "vp greeks =4")
    for _ in range(4):
        out = run(s, "advance")
    assert (out["turn"], out["round"]) == (1, 5)
    out = run(s, "advance")
    assert (out["turn"], out["round"]) == (2, 1) and "desperate_order_before" in out
    for _ in range(7 * 5 + 4):              # to turn 9, round 5
        out = run(s, "advance")
    assert (out["turn"], out["round"], out["finished"]) == (9, 5, False)
    out = run(s, "advance")
    assert out["finished"] is True and out["winner"] == "greeks"
    with pytest.raises(GameOver):
        run(s, "vp romans +1")
    # a roll a stored game made after turn 9 still replays (docs/protocol/sword.md): a session is
    # rebuilt by replaying its lines through today's rules (firmware/session.py), so the refusal of a
    # roll after the end is a rule of requests asked now (admit), or that session would be archived
    for line in ("battle att=3 def=3", "tactics 2", "naval", "check siege"):
        run(s, line)
    assert GAME.view(s)["last"]["kind"] == "check" and GAME.view(s)["finished"] is True


@pytest.mark.parametrize("options", ["", "players=romans", "players=romans,huns", "players=romans,romans",
                                     FOUR + " vp=huns:2", FOUR + " consuls=A", FOUR + " colour=red",
                                     FOUR + " vp=romans:²"])           # (it crashed: int() cannot read «²»)
def test_bad_new_options(options: str):
    with pytest.raises(BadArguments):
        new(options)


def test_an_automatic_victory_is_checked_against_a_figure_the_map_prints(console):  # W-11
    """``scoring … auto=0`` was taken: every power has 0 VP or more, so a slip ended the game by an
    automatic victory of whoever was scored. Asked now it is refused, in the player's language,
    and nothing changes; a session stored with it still replays as it was (the handler takes it)."""
    console.request("settings language=ru")
    console.request("new sword players=romans,gauls seed=1")
    before = console.request("state")["state"]
    out = console.request("scoring romans outside=1 missing=0 auto=0")
    assert out["ok"] is False and out["error"] == "bad_arguments"
    assert out["message"] == "auto= должно быть от 1 до 12, не 0."
    assert console.request("state")["state"] == before
    assert console.request("scoring romans outside=1 missing=0 auto=1")["automatic_victory"] is True
    s = new()
    assert run(s, "scoring romans outside=0 missing=0 auto=0")["automatic_victory"] is True   # replayed


@pytest.mark.parametrize("line", ["standings x", "desperate-order now"])
def test_the_read_only_tracks_refuse_words_they_do_not_take(line: str):  # W-11, W-12
    """``standings x`` and ``desperate-order now`` answered as if the word were not there, where
    ``advance x`` says how to ask; now they say it too."""
    with pytest.raises(BadArguments, match="Usage"):
        run(new(), line)


@pytest.mark.parametrize("line", ["consuls pool=Valerius,Camillus,Fabius,valerius",
                                  "new sword players=romans,gauls consuls=Fabius,Decius,Fabius"])
def test_a_consul_named_twice_is_said_so(console, line: str):  # W-10
    """A cup of six names, one of them twice, was refused as «needs at least 2 different names»:
    the player, who gave six, could not see what was wrong."""
    console.request("new sword players=romans,gauls seed=1")
    console.request("settings language=uk")
    before = console.request("state")["state"]
    out = console.request(line)
    name = line.rsplit(",", 1)[1]
    assert out["ok"] is False and out["error"] == "bad_arguments"
    assert f"«{name}»" in out["message"] and "двічі" in out["message"], out["message"]
    assert console.request("state")["state"] == before


def test_a_scoring_phase_says_what_the_power_holds(console):  # W-11
    """``scoring romans`` alone was taken as a scoring of +0: a step to undo that scored nothing
    (the player forgot ``outside=``/``missing=``). Asked now it says the usage; either option alone
    is enough (the other is 0); a stored session replays it as it was."""
    console.request("settings language=uk")
    console.request("new sword players=romans,gauls seed=1")
    before = console.request("state")["state"]
    out = console.request("scoring romans")
    assert out["ok"] is False and out["error"] == "bad_arguments" and out["message"].startswith("Формат: scoring")
    assert console.request("state")["state"] == before
    assert console.request("scoring romans missing=1")["ok"] is True
    assert console.request("scoring romans outside=2")["vp"]["romans"] == 2
    assert run(new(), "scoring romans")["change"] == 0                          # replayed as stored


@pytest.mark.parametrize("lang, said", [("uk", "«Меч Риму» — гра для 2–5 гравців, а не 1."),
                                        ("ru", "«Меч Рима» — игра для 2–5 игроков, а не 1.")])
def test_a_game_of_one_power_is_refused_in_a_whole_sentence(console, lang: str, said: str):  # W-11 (2-5 players)
    """«У «Меч Риму» грають…» (ru «В «Меч Рима» играют…») put the title after «у»/«в» in the
    nominative, where the sentence needs the locative («у «Мечі Риму»»): the title stands alone now."""
    console.request(f"settings language={lang}")
    out = console.request("new sword players=romans")
    assert out["ok"] is False and out["message"] == said, out


@pytest.mark.parametrize("lang, usage", [("en", "Usage: {}"), ("uk", "Формат: {}")])
def test_a_roll_s_usage_names_the_command_typed(console, lang: str, usage: str):  # W-1, W-2, W-6
    """In a session `tactics 11` answered «Usage: sword-tactics …»: the sessionless command, whose
    roll is not the session's (not journaled, not in its log, no undo). The usage names the command
    the player typed, in the session and out of it."""
    console.request(f"settings language={lang}")
    console.request("new sword players=romans,gauls seed=1")
    for line, command in (("tactics 11", "tactics"), ("battle att=3", "battle"), ("odds 2", "odds"),
                          ("sword-tactics 11", "sword-tactics"), ("sword-battle att=3", "sword-battle"),
                          ("sword-odds 2", "sword-odds")):
        out = console.request(line)
        assert out["ok"] is False and out["error"] == "bad_arguments", out
        assert out["message"].startswith(usage.format(command) + " "), (line, out["message"])
