"""Julius Caesar screens: golden screens (through the real App) and what the keys do, on a FakeCtx
(an in-memory session, no storage) (J-5, J-7, J-14, J-17, J-18, J-19)."""
from __future__ import annotations

from tests.screens import YES, say_yes  # noqa: F401

import pytest

from firmware.screens.widgets import ConfirmScreen
from firmware.screens.jc.battle import BattleScreen
from firmware.screens.jc.roll import DiceResult
from firmware.screens.jc.campaign import HandScreen
from firmware.screens.jc.home import JcHome
from firmware.screens.jc.odds import odds_screen
from firmware.screens.jc.setup import setup_form
from firmware.screens.widgets import OddsScreen
from tests.fakectx import FakeCtx
from tests.screens import app_with, assert_golden, drawn, killed_after_presses

NEW = "new jc-battle seed=3"
WON = "new jc-battle seed=1"         # c_leg10 against p_leg1, fought by the device: Caesar wins on a fire
ARMIES = [NEW, "add attacker c_caesar", "add attacker c_leg10", "add defender p_pompeius",
          "add defender p_leg1"]
TIE = [NEW, "add attacker rating=A4 strength=2 name=a", "add defender p_leg1 strength=3",
       "add defender p_leg3", "add defender p_scipio", "start", "pass p_scipio", "fire a dice=1,2"]
PHYSICAL = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1", "start",
            "fire p_leg1 dice=6,6,6,6"]
HOME = ["a"]                          # main menu: "Resume Julius Caesar"
READ = ["b"]                          # the last roll, said again on resuming (the serial link fired): closed
DOWN = ["down"]

CASES = {
    "jc_setup": ([], ["a", "down", "a", "right", "down", "right"]),
    "jc_home": ([NEW, "add attacker c_caesar"], HOME),
    "jc_add": ([NEW], HOME + DOWN + ["a", "down"]),
    "jc_turn": (ARMIES + ["start"], HOME),                # a battle fought: its screen at once
    "jc_hit": (TIE, HOME + READ + ["down"]),
    "jc_dice": (ARMIES + ["start"], HOME + ["a"]),
    "jc_dice_entry": (PHYSICAL, HOME + READ + ["a", "up", "up", "up", "right", "down"]),
    "jc_turn_ru": (ARMIES + ["start"], HOME),
    "jc_turn_uk": (ARMIES + ["start"], HOME),
    "jc_hit_ru": (TIE, HOME + READ),
    "jc_odds_ru": (ARMIES + ["add attacker c_leg8 reserve=1"], HOME + DOWN * 3 + ["a"]),
    "jc_over_uk": ([WON, "add attacker c_leg10", "add defender p_leg1", "fight"], HOME + READ + ["a", "a"]),
    "jc_home_ru": ([NEW, "add attacker c_caesar"], HOME),
    "jc_odds": (ARMIES + ["add attacker c_leg8 reserve=1"], HOME + DOWN * 3 + ["a"]),
    "jc_forces": (ARMIES + ["add attacker c_leg8 reserve=1", "start", "fire dice=1,5,6"],
                  HOME + READ + ["b"] + DOWN * 3 + ["a"]),        # (the battle screen first: B to the home)
    "jc_over": ([WON, "add attacker c_leg10", "add defender p_leg1", "fight"], HOME + READ + ["a", "a"]),
    "jc_vp": ([NEW, "control Roma caesar"], HOME + DOWN * 7 + ["a"]),
    "jc_cards": ([NEW, "deal"], HOME + DOWN * 8 + ["a"]),
    "jc_winter": ([NEW, "control Alexandria caesar"], HOME + DOWN * 10 + ["a", YES]),
}


def _read_out(app) -> None:
    """A on the text on top (an announcement, a battle's end page) until it is closed: A shows a
    long one's next page first and closes the last (docs/keys.md)."""
    press = app.press if hasattr(app, "press") else app.handle
    top = app.top if hasattr(app, "top") else app.stack[-1]
    for _ in range(20):
        press("a")
        if (app.top if hasattr(app, "top") else app.stack[-1]) is not top:
            return
    raise AssertionError(f"{type(top).__name__} never closed")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screen(name, state_dir):
    lang = name.rsplit("_", 1)[1] if name.endswith(("_ru", "_uk")) else "en"
    lines, keys = CASES[name]
    app = app_with(lines, keys, state_dir, lang=lang)
    try:
        assert_golden(app.render(), name)
    finally:
        app.console.close()


def home(*lines: str) -> FakeCtx:
    """The JC home screen over a session after ``lines`` (no storage)."""
    return FakeCtx(*lines).open(JcHome())


def test_setup_form_starts_the_chosen_battle():  # J-10 surprise option
    ctx = FakeCtx().open(setup_form(home=JcHome)).press("right", "down", "right", "a")
    battle = ctx.view()["battle"]
    assert battle["attacker"] == "pompey" and battle["surprise"] and battle["phase"] == "setup"
    assert isinstance(ctx.top, JcHome)


@pytest.mark.parametrize("lang,mars,neptune", [("en", "Mars", "Neptune"), ("ru", "Марс", "Нептун"), ("uk", "Марс", "Нептун")])
def test_the_surprise_field_names_mars_and_neptune(lang, mars, neptune):  # J-10
    """J-10 (RU summary: «Нептун … Это морской вариант карты «Марс» для кораблей»): the option is
    either card's, Mars for land blocks and Neptune for ships; the form named Mars alone («Внезапно
    (Марс)»), as if a sea battle had no surprise."""
    ctx = FakeCtx(lang=lang).open(setup_form(home=JcHome))
    row = next(t for t in ctx.texts() if mars in t)
    assert neptune in row, ctx.texts()


@pytest.mark.parametrize("lang,rule,other", [("en", "turn", "round"), ("ru", "round", "turn"), ("uk", "round", "turn")])
def test_the_new_battle_form_offers_the_cleopatra_rule_of_the_language_s_rulebook(lang, rule, other):
    # J-2: the Russian summary's «сражается за нее в следующий раунд боя» for Russian and Ukrainian
    # players, rules 7.52's next battle turn in English; the row changes it, the game keeps it
    try:
        ctx = FakeCtx(lang=lang).open(setup_form(home=JcHome)).press("down", "down", "down")
        words = {"en": ("next round", "next turn"), "ru": ("в следующий раунд", "в следующий ход"),
                 "uk": ("у наступний раунд", "у наступний хід")}[lang]
        assert f"<{words[('round', 'turn').index(rule)]}>" in ctx.texts(), ctx.texts()
        ctx.press("a")
        assert ctx.lines[-1].endswith(f"cleopatra={rule}") and ctx.view()["rules"] == {"cleopatra": rule}
        ctx.open(setup_form(home=JcHome)).press("down", "down", "down", "right" if rule == "round" else "left")
        assert f"<{words[('round', 'turn').index(other)]}>" in ctx.texts(), ctx.texts()
        ctx.press("a")
        if isinstance(ctx.top, ConfirmScreen):                 # a new game over the one just begun
            ctx.press("a")
        assert ctx.lines[-1].endswith(f"cleopatra={other}") and ctx.view()["rules"] == {"cleopatra": other}
    finally:
        from firmware.i18n import set_language
        set_language("en")


def test_the_next_battle_form_has_no_cleopatra_row():
    # J-2: the rule is the game's, chosen once
    from firmware.screens.jc.setup import next_battle_form
    ctx = FakeCtx("new jc-battle cleopatra=round seed=1", "add attacker c_leg10", "add defender p_leg1", "fight")
    form = next_battle_form(ctx)
    assert [f.key for f in form.fields] == ["attacker", "surprise", "dice"]


def test_a_new_battle_opens_on_the_dice_of_the_last_one():  # J-1: the table's own dice, said once
    ctx = FakeCtx().open(setup_form(home=JcHome)).press("down", "down", "right", "a")
    assert ctx.view()["battle"]["dice"] == "physical"
    ctx.open(setup_form(home=JcHome))
    assert "table" in ctx.texts()


def test_adding_a_roster_block_as_a_reserve():  # J-8
    # hold A on a block opens its form (A adds it at once, at the strength it has)
    ctx = home(NEW).press(*DOWN, "a", "a", "a:hold", "down", "right", "a")      # Leaders → Caesar
    assert ctx.session.lines[-1] == "add attacker c_caesar strength=3 reserve=1"


def test_firing_shows_the_session_dice_with_hits_marked():  # J-1, J-5
    ctx = home(*ARMIES, "start").press("a", "a")
    assert ctx.session.lines[-1] == "fire c_caesar"
    shown = ctx.top
    turn = ctx.view()["battle"]["log"][-1]
    assert isinstance(shown, DiceResult) and shown.turn["block"] == "c_caesar"
    assert shown.turn["hit_dice"] == [d <= 3 for d in shown.turn["dice"]]
    assert turn.startswith("Round 1 Caesar (A3, III): fires")


def test_owner_places_a_hit_among_equals():  # J-7
    ctx = home(*TIE).press("a", "down", "a")
    assert ctx.session.lines[-1] == "hit p_leg3"
    assert isinstance(ctx.top, BattleScreen)


def test_j14_choice_from_the_hit_screen():  # J-14
    ctx = home(*TIE).press("a", *DOWN * 3, "a")
    assert ctx.session.lines[-1] == "hit"
    blocks = {b["key"]: b["strength"] for b in ctx.view()["battle"]["blocks"]}
    assert blocks["p_leg1"] == 2                      # C2 is the lowest firepower


def test_physical_dice_are_entered_on_the_device():  # J-1
    # up/down turn a die over its faces, right goes to the next die; the three dice start on 2, 3, 5
    # (firmware.dice_guess) and the dice not reached follow the one turned: 1, 2, 4
    ctx = home(*PHYSICAL).press("a", "a", "down", "right", "right", "down", "a")
    assert ctx.session.lines[-1] == "fire c_leg10 dice=1,2,3"
    assert isinstance(ctx.top, DiceResult) and ctx.top.turn["hits"] == 3


def test_a_hand_is_shown_only_after_passing_the_device():  # J-18
    ctx = home(NEW, "deal").press(*DOWN * 8, "a", "a")          # the year dealt: Caesar's hand first
    assert not isinstance(ctx.top, HandScreen)        # a confirmation first
    ctx.press("a")
    assert isinstance(ctx.top, HandScreen)
    hand = ctx.run("hand caesar")["hand"]
    ctx.press("a")
    assert ctx.session.lines[-1] == f"discard caesar {hand[0]}"


def test_vp_track_gives_a_city_to_the_next_holder_with_left_right():  # J-17
    ctx = home(NEW).press(*DOWN * 7, "a", "down", "down", "right")
    assert ctx.session.lines[-1] == "control Athenae caesar"
    assert ctx.view()["vp"]["caesar"] == 2
    ctx.press("left")                                 # back to nobody: Caesar, Pompey, nobody round
    assert ctx.session.lines[-1] == "control Athenae vacant"
    pompey = ctx.view()["vp"]["pompey"]
    ctx.press("left")
    assert ctx.session.lines[-1] == "control Athenae pompey" and ctx.view()["vp"]["pompey"] == pompey + 1
    ctx.press("a")                                    # A closes the track
    assert isinstance(ctx.top, JcHome)


def test_odds_screen_reads_the_exact_odds():  # J-15
    ctx = home(*ARMIES).press(*DOWN * 3, "a")
    assert isinstance(ctx.top, OddsScreen)
    assert "Odds at the start" in ctx.texts()
    assert ctx.session.lines[-1] == "add defender p_leg1"   # odds change nothing
    assert "odds" in ctx.lines


@pytest.mark.parametrize("first, again", [("rating=B2", "rating=D4"), ("rating=C3", "rating=C3 elephant=1")])
def test_the_odds_follow_an_undo_that_changed_a_rated_block(first, again):  # J-15, J-1, undo
    """Blocks given by their rating (another block game) are keyed blk1, blk2… in the battle: an
    undo of the second and the same slot added with another rating (or as an elephant) are other
    odds, never the ones worked out for the block taken back (an elephant: J-2)."""
    from firmware.screens.jc.odds import odds_now
    ctx = FakeCtx("new jc-battle seed=4", "add attacker rating=C3 strength=3", f"add defender {first} strength=2")
    before = odds_now(ctx)
    assert ctx.run("undo")["ok"] and ctx.run(f"add defender {again} strength=2")["ok"]
    now = ctx.run("odds")
    assert now["attacker_wins"] != before["attacker_wins"] or now["attacker_eliminated"] != before["attacker_eliminated"]
    shown = odds_now(ctx)
    assert (shown["attacker_wins"], shown["attacker_eliminated"]) == (now["attacker_wins"], now["attacker_eliminated"])


def test_odds_wait_while_the_worker_computes_them():  # J-15: a slow answer never blocks a key
    ctx = FakeCtx(*ARMIES, "add defender p_leg3")    # a battle asked nowhere else (answers are kept)
    ctx.pending.add("odds")
    ctx.open(odds_screen())
    assert "Computing the exact odds…" in " ".join(ctx.texts())
    ctx.pending.clear()
    assert "Odds at the start" in ctx.texts() and any(t.endswith("%") for t in ctx.texts())


def test_a_die_is_set_with_up_down_and_dice_not_reached_follow_it():  # J-1, issue 9 item 5, issue 24 §2
    from firmware.dice_guess import chain, start_face
    from firmware.screens.jc.battle import JcDiceEntry
    ctx = home(*PHYSICAL).press("a", "a")
    entry = ctx.top
    assert isinstance(entry, JcDiceEntry)
    ctx.render()
    first = start_face(0, 3, None)
    assert entry.faces == [chain(3, 0, [first])]         # each die on the likeliest next face
    assert entry.faces[0] == sorted(entry.faces[0])
    ctx.press("down")                                     # the first die one lower; the rest follow
    low = (first - 2) % 6 + 1
    assert entry.faces == [chain(3, 0, [low])]
    ctx.press("right", "up")
    middle = entry.faces[0][1]
    assert entry.cursor == 1 and entry.faces == [chain(3, 1, [low, middle])]
    ctx.press("right")
    last = entry.faces[0][2]
    ctx.press("left", "up")                               # a die the cursor has been on no longer follows
    assert entry.faces == [[low, middle % 6 + 1, last]]
    ctx.press("left", "up")                               # nor when the first die turns again
    assert entry.faces == [[low % 6 + 1, middle % 6 + 1, last]]
    assert ctx.session.lines[-1] == PHYSICAL[-1]          # nothing is sent before A
    ctx.press("a")
    assert ctx.session.lines[-1] == f"fire c_leg10 dice={low % 6 + 1},{middle % 6 + 1},{last}"


def test_the_dice_entry_says_how_the_guess_works_and_counts_the_hits():  # issue 24 §2
    ctx = home(*PHYSICAL).press("a", "a")
    texts = ctx.texts()
    assert "dashed: guess ≥ left" in texts and "↑↓ face ←→ die A: go" in texts
    faces = ctx.top.faces[0]
    hits = sum(1 for f in faces if f <= 4)                # Legio 10 is C4 (J-5)
    assert (f"{hits} hit" if hits == 1 else f"{hits} hits") in texts


def test_left_on_the_first_die_goes_back_and_sends_nothing():
    from firmware.screens.jc.battle import JcDiceEntry
    ctx = home(*PHYSICAL).press("a", "a")
    assert isinstance(ctx.top, JcDiceEntry)
    ctx.press("left")
    assert isinstance(ctx.top, BattleScreen) and ctx.session.lines[-1] == PHYSICAL[-1]


def test_fight_to_the_end_asks_first_then_asks_for_each_physical_roll():  # J-14
    from firmware.screens.jc.battle import JcDiceEntry
    ctx = home("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1")
    ctx.press(*DOWN * 4, "a")                          # Battle, +attacker, +defender, Odds, Fight
    assert isinstance(ctx.top, ConfirmScreen)
    assert ctx.view()["battle"]["phase"] == "setup"     # nothing happened yet
    say_yes(ctx)
    assert isinstance(ctx.top, JcDiceEntry) and ctx.top.auto
    ctx.press("up", "a")
    assert ctx.session.lines[-1].startswith("auto dice=")


def test_the_battle_screen_shows_the_odds_without_a_press():  # J-15, issue 11
    """The chance now (Caesar wins 40.49 %) is the advised fire's: the line says it as ✓ does,
    with one decimal as the pass's 9.6 % beside it has (so does the odds screen: it said 41 %)."""
    ctx = home(*ARMIES, "start").press("a")
    odds = ctx.run("odds")
    side = ctx.view()["battle"]["decision"]["side"]
    texts = ctx.texts()
    assert side == "caesar" and "Caesar: win 40.5%" in texts, texts
    assert texts[texts.index("Fire") + 1] == "✓40.5%" and texts[texts.index("Pass") + 1] == "9.6%", texts
    assert f"{100 * odds['attacker_wins']:.1f}%" == "40.5%"
    assert ctx.session.lines[-1] == "start"     # odds and advice change nothing


@pytest.mark.parametrize("rule", ["round", "turn"])
def test_the_battle_screen_s_odds_after_cleopatra_changes_side_are_the_oracle_s(rule):  # J-2, J-15
    # the coordinator's repro: Cleopatra falls to Caesar in round 1 before she has acted; under the
    # round rule (the Russian edition) she fights for him from round 2, under turn this round
    from engine.jc import battle as B
    from firmware.screens.widgets import percents
    from tests import odds_reference as REF
    ctx = home(f"new jc-battle dice=physical cleopatra={rule} seed=1", "add attacker c_caesar",
               "add defender cleopatra strength=1", "add defender p_leg5 strength=1", "start",
               "fire c_caesar dice=1,6,6", "hit cleopatra", "pass p_leg5").press("a")
    battle = ctx.session.state["battle"]
    assert B.decision(battle)["blocks"] == (["c_caesar"] if rule == "round" else ["cleopatra"])
    want = REF.odds(battle)
    odds = ctx.run("odds")
    assert all(abs(odds[k] - want[k]) <= 1e-9 for k in B.RESULTS), (odds, want)
    shown = percents([want["attacker_wins"], want["defender_holds"], want["attacker_eliminated"]])
    assert f"Caesar: win {shown[0]}" in ctx.texts(), ctx.texts()


def test_what_the_rules_did_is_said_once_and_never_from_another_game():  # J-13
    from firmware.screens.jc.battle import BattleScreen
    first = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1").open(BattleScreen())
    first.render()                                     # battle 1 of one game, looked at in its set-up
    assert first.notes == []
    first.run("fight")                                 # (the serial link's: its last fire's page says the end)
    first.render()                                     # said where it happens (on the roll's page, J-12), once
    assert isinstance(first.top, DiceResult) and "Battle over: the attacker wins" in " ".join(first.top.paras())
    _read_out(first)
    first.render()
    assert isinstance(first.top, BattleScreen) and first.notes == []
    for lines in ([NEW, "add attacker c_leg10", "add defender p_leg3"], ARMIES):
        FakeCtx(*lines).open(BattleScreen()).render()  # battle 1 of another game, looked at in its set-up
        other = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1", "fight").open(BattleScreen())
        other.render()                                 # battle 1 of this game: the first look
        assert other.notes == []                       # says nothing of what came before it


def test_the_cursor_starts_fresh_at_each_decision():  # issue 9 item 5
    ctx = home(*ARMIES, "start").press("a", "down")
    screen = ctx.top
    assert isinstance(screen, BattleScreen) and screen.cursor == 1
    ctx.press("up", "a")                             # fire; the result screen
    ctx.press("a")                                   # back on the battle screen: a new decision
    ctx.render()
    assert ctx.top is screen and screen.cursor == 0


def test_winter_is_not_offered_in_the_middle_of_a_battle():  # J-19
    ctx = home(*ARMIES, "start").press(*DOWN * 8, "a")
    assert ctx.session.lines[-1] == "start"
    assert ctx.notes and "after the battle" in ctx.notes[-1]


def test_winter_is_not_offered_while_a_battle_is_being_set_up():  # J-19
    ctx = home(*ARMIES).press(*DOWN * 10, "a")              # (set-up: two more rows, Add …)
    assert ctx.session.lines[-1] == ARMIES[-1]                 # no winter line was sent
    assert ctx.notes and "being set up" in ctx.notes[-1] and "remove" not in ctx.notes[-1]


def test_the_winter_is_titled_with_the_year_it_ends():  # J-19
    """The winter closes the year: its checklist is the winter of year 1 (it was titled with the
    year about to begin, "Winter: year 2", over a list whose last step says year 2 begins)."""
    ctx = home(NEW).press(*DOWN * 10, "a", YES)
    assert ctx.view()["campaign"]["year"] == 2
    assert ctx.top.title == "Winter: year 1"
    ctx.press("b", "a", YES)                                    # back home, on the winter row
    assert ctx.top.title == "Winter: year 2"


def test_an_announcement_on_screen_at_a_power_cut_is_said_again_until_it_is_closed(state_dir):  # J-17, J-18, J-19
    """The winter's checklist (the table's tasks: navis to port, supply, disbanding) and the verdict
    of the last winter were said once, on a screen that a power cut took away for good: opening the
    game again showed the home. Now the newest announcement not closed is said again; once closed
    (A or B), it is not."""
    from firmware.screens.jc.campaign import Announcement
    lines = ["new jc-battle year=4 seed=8", "control Roma caesar", "control Athenae caesar"]
    app = app_with(lines, ["a", *DOWN * 10, "a", YES], state_dir)      # Resume, Winter, asked: A
    try:
        assert isinstance(app.stack[-1], Announcement) and app.stack[-1].title == "Winter: year 4"
        rows = list(app.stack[-1].rows)
        assert any("8.4" in r for r in rows), rows
    finally:
        app.console.close()                   # the power is cut with the checklist on the screen
    again = app_with([], ["a"], state_dir)    # main menu → Resume: Julius Caesar
    try:
        top = again.stack[-1]
        assert isinstance(top, Announcement) and top.title == "Winter: year 4" and list(top.rows) == rows
        assert isinstance(again.stack[-2], JcHome)
        again.handle("b")                                            # read: closed
        assert isinstance(again.stack[-1], JcHome)
    finally:
        again.console.close()
    third = app_with([], ["a"], state_dir)
    try:
        assert isinstance(third.stack[-1], JcHome)                   # nothing left unread
        hands = {s: [c for c in third.console.request(f"hand {s}")["hand"] if c != "apollo"]   # (not on turn 1)
                 for s in ("caesar", "pompey")}
        for line in ("discard caesar {}", "discard pompey {}", "play caesar {}", "play pompey {}"):
            side = line.split()[1]
            assert third.console.request(line.format(hands[side].pop()))["ok"]   # a reveal, then the winter
        third.console.request("winter")                             # year 5 ends it: said over the serial link
    finally:
        third.console.close()
    fourth = app_with([], ["a"], state_dir)
    try:
        top = fourth.stack[-1]
        assert isinstance(top, Announcement) and top.title == "Game over"   # the verdict, never seen yet
        said = " ".join(top.rows)
        assert "8.2 Victory: After year 5 Pompey has more VP" in said and "and wins." in said, top.rows   # J-17
        _read_out(fourth)
        assert isinstance(fourth.stack[-1], JcHome)
    finally:
        fourth.console.close()


def test_an_announcement_made_again_after_an_undo_is_said_again_after_a_power_cut(state_dir):  # J-17, J-19
    """The winter closed, undone and asked again over another state (a city's holder corrected:
    another verdict, other tasks) is another announcement: closing the first must not count as
    reading the second. Both were kept as read under the same mark (the year alone), so a power
    cut before the second was closed took it off the table unread."""
    from firmware.screens.jc.campaign import Announcement
    lines = ["new jc-battle year=5 seed=8"]
    app = app_with(lines, ["a", *DOWN * 10, "a", YES], state_dir)      # Resume, Winter, asked: A
    try:
        first = app.stack[-1]
        assert isinstance(first, Announcement) and first.title == "Game over"
        before = list(first.rows)
        app.handle("b")                                             # read: closed
        assert isinstance(app.stack[-1], JcHome)
        for line in ("undo", "control Roma caesar", "control Utica caesar", "control Tarraco caesar",
                     "control Carthago_Nova caesar", "winter"):   # over the serial link
            assert app.console.request(line)["ok"], line
    finally:
        app.console.close()                  # the power is cut before the new verdict is closed
    again = app_with([], ["a"], state_dir)
    try:
        top = again.stack[-1]
        assert isinstance(top, Announcement) and top.title == "Game over", top
        assert list(top.rows) != before and "Caesar has more VP" in " ".join(top.rows), top.rows   # J-17
        _read_out(again)
    finally:
        again.console.close()
    third = app_with([], ["a"], state_dir, lang="ru")
    try:
        assert isinstance(third.stack[-1], JcHome)                   # closed: not said again, in any language
    finally:
        third.console.close()


def test_two_campaigns_that_say_the_same_verdict_are_read_apart_after_a_power_cut(state_dir):  # J-17, J-19
    """The setting kept as read was ``<commitment>:w<year>#<digest>``: two campaigns started with
    ``seed=`` (no commitment) whose last winters say the same thing got the same mark, so closing the
    first campaign's verdict hid the second's after a power cut, unread. The mark is the campaign's
    (its session) now."""
    from firmware.screens.jc.campaign import Announcement
    app = app_with(["new jc-battle year=5 seed=8"], ["a", *DOWN * 10, "a", YES], state_dir)
    try:
        first = app.stack[-1]
        assert isinstance(first, Announcement) and first.title == "Game over"
        app.handle("b")                                             # read: closed
        assert isinstance(app.stack[-1], JcHome)
        for line in ("new jc-battle year=5 seed=8", "winter"):     # another campaign, over the serial link
            assert app.console.request(line)["ok"], line
    finally:
        app.console.close()                  # the power is cut before its verdict is seen
    again = app_with([], ["a"], state_dir)
    try:
        top = again.stack[-1]
        assert isinstance(top, Announcement) and top.title == "Game over", top
        assert list(top.rows) == list(first.rows)                  # the same words: another campaign's
        _read_out(again)
    finally:
        again.console.close()
    third = app_with([], ["a"], state_dir)
    try:
        assert isinstance(third.stack[-1], JcHome)                   # closed: not said again
    finally:
        third.console.close()


def test_an_announcement_read_under_the_old_mark_stays_read(state_dir):  # J-19
    """A ``jc.read`` kept by an older Legatus (``<commitment>:<marker>``) still counts as read for
    the campaign of that commitment (a secret seed: one campaign's), so an update never says an
    announcement closed before again; a mark without a commitment (``seed=``) could be another
    campaign's, so its announcement is said once more rather than hidden."""
    from firmware.screens.jc.campaign import Announcement, READ_KEY, _digest, winter_said
    app = app_with(["new jc-battle year=4", "winter"], [], state_dir)
    try:
        view = app.console.request("state")["state"]
        old = f"{view['commitment']}:w4#{_digest(winter_said(view['winter']))}"
        assert app.console.request(f"settings {READ_KEY}={old}")["ok"]
    finally:
        app.console.close()
    again = app_with([], ["a"], state_dir)
    try:
        assert isinstance(again.stack[-1], JcHome), again.stack[-1]
        assert again.console.request("new jc-battle year=4 seed=3")["ok"] and again.console.request("winter")["ok"]
        view = again.console.request("state")["state"]
        mark = f":w4#{_digest(winter_said(view['winter']))}"
        assert again.console.request(f"settings {READ_KEY}={mark}")["ok"]
    finally:
        again.console.close()
    third = app_with([], ["a"], state_dir)
    try:
        assert isinstance(third.stack[-1], Announcement), third.stack[-1]
    finally:
        third.console.close()


def test_the_winters_announcement_follows_a_language_change(state_dir):  # J-19
    """The checklist of the winter, said again in the new language when it changes over the serial
    link: its title too (it was said once, in the language of the moment it was made)."""
    from firmware.screens.jc.campaign import Announcement
    app = app_with([NEW], ["a", *DOWN * 10, "a", YES], state_dir)
    try:
        assert isinstance(app.stack[-1], Announcement) and app.stack[-1].title == "Winter: year 1"
        app.render()                                                  # on the panel
        assert '"ok":true' in app.serve_line(b"settings language=ru")
        app.render()
        top = app.stack[-1]
        assert isinstance(top, Announcement) and top.title == "Зима: год 1", top.title
        assert "Клеопатра" in " ".join(top.rows)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, numbers, victory", [
    ("en", ["8.1", "8.2", "8.3", "8.4", "8.5", "8.6"], "8.2 Victory"),
    ("ru", ["4.1", "4.2", "4.3", "4.4", "4.5", "4.6"], "4.4 Проверка условий победы"),
    ("uk", ["8.1", "8.2", "8.3", "8.4", "8.5", "8.6"], "8.2 ")])
def test_the_winter_checklist_is_numbered_as_the_readers_rulebook(lang, numbers, victory):  # J-19
    """The English rules v1.1 number the winter 8.1-8.6 and check victory second; the Russian
    summary (seeds) numbers it 4.1-4.6 and checks victory fourth, after the ships and the supply
    («4.4. ПРОВЕРКА УСЛОВИЙ ПОБЕДЫ»), and names the last step «Восстановление исходного состояния
    года». The Russian checklist said 8.1-8.6 in the English order. (No Ukrainian edition in the
    seeds: the English numbering.)"""
    from firmware.screens.jc.campaign import Announcement
    ctx = FakeCtx(NEW, lang=lang).open(JcHome()).press(*DOWN * 10, "a", YES)
    assert isinstance(ctx.top, Announcement), type(ctx.top).__name__
    said = " ".join(ctx.top.rows)
    shown = [word for word in said.split() if word.count(".") == 1 and word.replace(".", "").isdigit()]
    assert shown == numbers, said
    assert victory in said, said
    if lang == "ru":
        assert "4.6 Восстановление исходного состояния года." in said and "Новый год" not in said, said


@pytest.mark.parametrize("lang, heading", [("en", "Disbanding: Either"), ("ru", "Расформирование. Любой"),
                                           ("uk", "Розпуск. Будь-який")])
def test_the_winter_checklist_keeps_each_steps_mark_with_its_number_and_runs_its_heading_in_as_the_language_does(lang, heading):
    # J-19: the checklist of a winter that gives Cleopatra's Alexandria to Caesar wrapped the
    # Russian step 4.5 as «Помпей 5 ПО).» / «·» / «4.5 Расформирование:» — its mark alone on a row,
    # read as a stray dot; and a Russian or Ukrainian heading run in before a sentence ends with a
    # full stop («Зимнее снабжение. Город снабжает…»), where it said «Зимнее снабжение: Город…»,
    # a capital after a colon.
    from firmware.screens import base
    from firmware.screens.jc.campaign import Announcement
    ctx = FakeCtx(NEW, "control Alexandria caesar", lang=lang).open(JcHome()).press(*DOWN * 10, "a", YES)
    assert isinstance(ctx.top, Announcement), type(ctx.top).__name__
    shown = [row for text in ctx.top.rows for row in base.wrap(text)]
    assert not [row for row in shown if row.strip() in ("·", "✓")], shown
    said = " ".join(ctx.top.rows).replace(base.TIE, " ")
    assert heading in said, said
    if lang != "en":
        assert not [w for w in said.split() if w.endswith(":") and w[:-1].isalpha()
                    and said.split()[said.split().index(w) + 1][:1].isupper()], said


def test_the_winter_asked_before_the_years_cards_are_played_says_so():  # J-18, J-19
    """The year ends when the five cards are played (rules 4.0); the winter deals new hands. Asked
    with the device's deal still in play, the question says which turn it is and that the hands
    are lost (it asked as at the year's end: the hands went without a word); after the fifth turn
    it asks as before."""
    ctx = home(NEW, "deal").press(*DOWN * 10, "a")
    assert isinstance(ctx.top, ConfirmScreen)
    assert "turn 1 of 5" in ctx.top.question and "lost" in ctx.top.question
    hands = {s: ctx.run(f"hand {s}")["hand"] for s in ("caesar", "pompey")}
    lines = [NEW, "deal"] + [f"discard {s} {hands[s][0]}" for s in hands]
    for turn in range(1, 6):
        lines += [f"play {s} {hands[s][turn]}" for s in hands]
    ctx = home(*lines).press(*DOWN * 10, "a")
    assert ctx.view()["cards"]["year_done"]
    assert "of 5" not in ctx.top.question and "lost" not in ctx.top.question
    for lang in ("ru", "uk"):
        said = FakeCtx(NEW, "deal", lang=lang)
        said.open(JcHome()).press(*DOWN * 10, "a")
        assert "1 " in said.top.question and " 5)" in said.top.question and "of 5" not in said.top.question


@pytest.mark.parametrize("lang, vacant, caesar", [("en", "Alexandria: vacant. VP 1:5.", "Alexandria: Caesar. VP 3:5."),
                                                     ("ru", "Александрия: свободна. ПО 1:5.", "Александрия: Цезарь. ПО 3:5."),
                                                     ("uk", "Александрія: вільна. ПО 1:5.", "Александрія: Цезар. ПО 3:5.")])
def test_the_winter_question_shows_the_figures_the_device_decides_from(lang, vacant, caesar):  # J-17, J-19
    """The winter decides by itself whose side Cleopatra takes (rules 8.1: the holder of Alexandria,
    from the VP track) and whether the campaign ends (8.2: the VP). It asked without showing them, so
    a VP track the table forgot to update (Alexandria taken, a city lost) ended the year unseen."""
    ctx = FakeCtx(NEW, "control Alexandria vacant", lang=lang).open(JcHome()).press(*DOWN * 10, "a")
    assert isinstance(ctx.top, ConfirmScreen) and ctx.top.question.endswith(vacant), ctx.top.question
    ctx = FakeCtx(NEW, "control Alexandria caesar", lang=lang).open(JcHome()).press(*DOWN * 10, "a")
    assert ctx.top.question.endswith(caesar), ctx.top.question


@pytest.mark.parametrize("lang, ends, said_before", [
    ("en", "End the campaign", "End of year 4"),
    ("ru", "Конец кампании", "Конец 4-го года"),
    ("uk", "Кінець кампанії", "Кінець 4-го року")])
def test_the_winter_of_the_last_year_is_asked_as_the_campaigns_end(lang, ends, said_before):  # J-17, J-19
    """After year 5 the winter always ends the campaign (J-17: the higher total, then Rome's holder,
    else a draw), but its question promised what a year 6 would bring: eliminated blocks back and
    new cards. It says the campaign ends. (The question of the years before said the winter's steps
    too, «…, new cards»; it names the year it ends now, the steps are its checklist's:
    test_the_winter_is_asked_in_one_page_and_its_checklist_says_the_rest.)"""
    ctx = FakeCtx("new jc-battle seed=3 year=5", lang=lang).open(JcHome()).press(*DOWN * 10, "a")
    assert isinstance(ctx.top, ConfirmScreen)
    assert ctx.top.question.startswith(ends) and said_before[:-2] not in ctx.top.question, ctx.top.question
    ctx = FakeCtx("new jc-battle seed=3 year=4", lang=lang).open(JcHome()).press(*DOWN * 10, "a")
    assert ctx.top.question.startswith(said_before) and ends not in ctx.top.question, ctx.top.question


def test_no_way_out_is_offered_only_where_the_block_must_retreat():  # J-6, rules 3.5/7.6
    """A defender (or an attacker before round 4) may fire or pass: "No way out" (eliminated) was
    offered to it beside Retreat; it is the round-4 attacker's choice only."""
    lines = [NEW, "add attacker c_leg8", "add defender rating=B1 strength=1 name=d", "start",
             "pass d", "pass c_leg8"]
    ctx = home(*lines).press("a")
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "Retreat" in labels and "No way out" not in labels, labels          # d, round 2
    for _ in range(2):
        lines += ["pass d", "pass c_leg8"]
    lines.append("pass d")                                                       # round 4: c_leg8
    ctx = home(*lines).press("a")
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels[:2] == ["Retreat", "No way out"], labels


def test_odds_refused_for_a_set_up_with_blocks_say_why():  # J-8, rules 7.3
    """Attacking navis and land blocks both in the main attack: the odds are refused (one group must
    be reserves). The odds line said "no blocks yet" and the odds screen "add at least one block to
    each side" over a set-up with blocks on both sides; now the line asks to fix the set-up and the
    screen gives the reason."""
    from firmware.screens.jc.odds import odds_line
    ctx = home(NEW, "add attacker c_leg10", "add attacker c_nav1", "add defender p_leg39")
    assert odds_line(ctx) == "Odds: fix the set-up"
    ctx.press(*DOWN * 3, "a")
    assert isinstance(ctx.top, OddsScreen)
    said = " ".join(ctx.texts())
    assert "reserve" in said and "each side" not in said, said
    assert odds_line(home(NEW)) == "Odds: no blocks yet"
    # one side placed: the line says whose blocks are missing (it said "no blocks yet"), whole
    assert odds_line(home(NEW, "add attacker c_leg10")) == "Pompey has no blocks"
    assert odds_line(home(NEW, "add defender p_leg39")) == "Caesar has no blocks"
    for lang, missing in (("ru", "У Помпея нет блоков"), ("uk", "У Помпея немає блоків")):
        assert odds_line(FakeCtx(NEW, "add attacker c_leg10", lang=lang)) == missing
        assert len(odds_line(FakeCtx(NEW, "add defender p_leg39", lang=lang))) <= 21     # the footer row
    for lang in ("ru", "uk"):                          # the whole sentence on the panel, never cut
        said = FakeCtx(NEW, "add attacker c_leg10", "add attacker c_nav1", "add defender p_leg39", lang=lang)
        from firmware.screens import base
        assert len(odds_line(said)) <= base.COLS, odds_line(said)       # the footer row, never cut
        said.open(JcHome()).press(*DOWN * 3, "a")
        assert " ".join(said.texts()).endswith("резерв."), said.texts()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_cards_menu_is_never_cut_and_an_empty_hand_says_so(lang):  # J-18
    """After a reveal the cards menu showed «Последнее вск…» (cut beside «ход 5»); the hand of a
    year whose five cards are played was a blank list under «розыгрыш»."""
    from firmware.screens.jc.campaign import CardsMenu
    ctx = FakeCtx(NEW, "deal")
    hands = {s: ctx.run(f"hand {s}")["hand"] for s in ("caesar", "pompey")}
    lines = [NEW, "deal"] + [f"discard {s} {hands[s][0]}" for s in hands]
    for turn in range(1, 6):
        lines += [f"play {s} {hands[s][turn]}" for s in hands]
    ctx = FakeCtx(*lines, lang=lang).open(CardsMenu())
    texts = ctx.texts()
    assert not any("…" in t for t in texts), texts
    ctx.press("down", "a", "a")                                   # Caesar's hand, after passing the device
    assert isinstance(ctx.top, HandScreen)
    rows = [str(i.label) for i in ctx.top.items(ctx)]
    assert len(rows) == 1 and ctx.top.items(ctx)[0].run is None, rows      # said, and A does nothing
    assert ctx.top.status(ctx) == "" and not any("…" in t for t in ctx.texts())


@pytest.mark.parametrize("lang, said", [("en", "winter next"), ("ru", "далее зима"), ("uk", "далі зима")])
def test_the_cards_menu_says_the_winter_comes_once_the_five_turns_are_played(lang, said):  # J-18, J-19
    """The cards menu's status said «ход 5» after the fifth turn was played, as if it were still to
    be played; the year ends with its fifth card (rules 8.0): the winter comes next."""
    from firmware.screens.jc.campaign import CardsMenu
    ctx = FakeCtx(NEW, "deal")
    hands = {s: ctx.run(f"hand {s}")["hand"] for s in ("caesar", "pompey")}
    lines = [NEW, "deal"] + [f"discard {s} {hands[s][0]}" for s in hands]
    for turn in range(1, 5):
        lines += [f"play {s} {hands[s][turn]}" for s in hands]
    ctx = FakeCtx(*lines, lang=lang).open(CardsMenu())
    assert ctx.top.status(ctx) == {"en": "turn 5", "ru": "ход 5", "uk": "хід 5"}[lang]
    for side in hands:
        ctx.run(f"play {side} {hands[side][5]}")
    assert ctx.top.status(ctx) == said and not any("…" in t for t in ctx.texts())


def test_the_game_ending_winter_is_titled_game_over():  # J-17
    lines = [NEW] + [f"control {c} caesar" for c in ("Roma", "Alexandria", "Athenae", "Byzantium",
                                                     "Carthago_Nova", "Ephesus", "Antiochia", "Utica")]
    ctx = home(*lines).press(*DOWN * 10, "a", YES)
    assert ctx.view()["campaign"]["over"]
    assert ctx.top.title == "Game over"


def test_the_odds_line_of_a_surprise_battle_is_its_own(tmp_path):
    """J-10: Mars/Neptune's surprise (all attacking blocks first in round 1) changes the odds; the
    odds line of a surprise battle set up like one seen before (same blocks, same first step) is
    computed for it, not read from the battle seen before (the cache's key lacked the surprise)."""
    from firmware.screens.jc.odds import odds_line
    armies = ["add attacker c_caesar", "add attacker c_leg10", "add defender p_pompeius",
              "add defender p_leg1", "add defender p_leg3", "start"]
    shown = []
    for surprise in ("", " surprise=1"):
        ctx = FakeCtx(f"new jc-battle seed=9{surprise}", *armies)
        exact = ctx.run("odds")["attacker_wins"]
        shown.append((odds_line(ctx), f"Caesar: win {exact:.1%}"))
    assert shown[0][1] != shown[1][1]                    # the surprise changes the chance (J-10)
    assert [line for line, _exact in shown] == [exact for _line, exact in shown]


def test_the_elephant_is_offered_only_the_strengths_on_its_track():
    """The elephant's track is IV, II (the rules' roster): its form steps II → IV, never III (the
    form offered I..IV and A on III was refused); a legion's steps IV..I as before. It starts in
    the levy pool: the form starts at II, the strength it is levied at (J-20)."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(NEW)
    ctx.open(AddScreen("defender"))
    pick_block(ctx, "Elephant", "a:hold")                  # hold A: the form (A adds it as it stands)
    assert ctx.top.title == "Elephant"
    shown = []
    for _ in range(3):
        ctx.top.render(ctx)
        shown.append(str(ctx.top.items(ctx)[0].value))
        ctx.press("right")
    assert shown == ["<II>", "<IV>", "<IV>"]
    ctx.press("left", "a")
    assert ctx.lines[-1] == "add defender p_elephant strength=2" and not ctx.notes
    legion = FakeCtx(NEW)
    legion.open(AddScreen("defender"))
    pick_block(legion, "Legio 1", "a:hold").press("left", "left", "left", "a")
    assert [line for line in legion.lines if line.startswith("add")] == ["add defender p_leg1 strength=1"]




@pytest.mark.parametrize("block,label,levied", [("c_leg17", "Legio 17", "<I>"), ("p_elephant", "Elephant", "<II>")])
def test_a_block_in_the_levy_pool_is_offered_only_its_levy_strength(block, label, levied):  # J-20
    """J-20: a block levied from the pool comes in at its weakest strength (I; the elephant II). The
    form (hold A on its row) offered every strength on its track, and A on III or IV was then
    refused by the console: the form offers that one strength, and A adds it there."""
    from firmware.screens.jc.setup import AddScreen
    side = "attacker" if block.startswith("c_") else "defender"
    ctx = FakeCtx("new jc-battle seed=3 pool=setup rolls=apart remove=restore")
    assert next(b for b in ctx.run("roster")["blocks"] if b["id"] == block)["pool"]
    ctx.open(AddScreen(side))
    pick_block(ctx, label, "a:hold")
    shown = []
    for key in ("right", "right", "left"):
        ctx.top.render(ctx)
        shown.append(str(ctx.top.items(ctx)[0].value))
        ctx.press(key)
    assert shown == [levied] * 3
    ctx.press("a")
    strength = {"<I>": 1, "<II>": 2}[levied]
    assert ctx.lines[-1] == f"add {side} {block} strength={strength}" and not ctx.notes

# -- attacking navis beside land blocks are the reserves (J-8; the RU summary 2.2.2) ----------------
def _attack(ctx: FakeCtx) -> list[tuple[str, bool]]:
    b = ctx.view()["battle"]
    return [(x["key"], x["reserve"]) for x in b["blocks"] if x["side"] == b["attacker"]]


@pytest.mark.parametrize("lang,said", [("en", "Navis 1 joins the attack as a reserve: attacking navis"),
                                       ("ru", "Судно 1 добавлено в резерв атакующего: атакующие суда вместе с "
                                              "сухопутными блоками всегда в резерве (правила 2.2.2)."),
                                       ("uk", "Судно 1 додано до резерву нападника")])
def test_an_attacking_navis_beside_land_blocks_is_added_as_a_reserve(lang, said):  # J-8
    """J-8 (RU summary 2.2.2 «…атакующие корабли всегда объявляются резервом»): the Add list added an
    attacking navis beside an attacking legion as the main force, and only the Start refused it.
    Now A on its row adds it as a reserve and says so in a whole sentence; its form (hold A) offers
    the reserve only; the battle starts. A defending navis, or one attacking alone, is untouched."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1", lang=lang)
    ctx.open(AddScreen("attacker"))
    navis = {"en": "Navis 1", "ru": "Судно 1", "uk": "Судно 1"}[lang]
    ctx.press(*DOWN * [i.key for i in ctx.top.items(ctx)].index("kind:navis"), "a")
    ctx.press(*DOWN * [str(i.label) for i in ctx.top.items(ctx)].index(navis), "a")
    assert _attack(ctx) == [("c_leg10", False), ("c_nav1", True)]
    assert len(ctx.notes) == 1 and said in ctx.notes[0], ctx.notes
    assert ctx.run("start")["ok"]
    form = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1")
    form.open(AddScreen("attacker"))
    pick_block(form, "Navis 2", "a:hold")                 # its form: Reserve on, and nothing else
    assert form.top.title == "Navis 2"
    form.press("down", "left")
    assert str(form.top.items(form)[1].value) == "<on>", form.texts()
    form.press("a")
    assert _attack(form) == [("c_leg10", False), ("c_nav2", True)] and "as a reserve" in form.notes[-1]
    alone = FakeCtx(NEW, "add defender p_leg1").open(AddScreen("attacker"))
    pick_block(alone, "Navis 1")                          # a navis attacking alone: the main force
    defending = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1").open(AddScreen("defender"))
    pick_block(defending, "Navis 1")                      # a navis defending its port beside a legion
    assert _attack(alone) == [("c_nav1", False)] and alone.notes == []
    assert ("p_nav1", False) in [(x["key"], x["reserve"]) for x in defending.view()["battle"]["blocks"]]
    assert defending.notes == []


@pytest.mark.parametrize("lang,one,two", [
    ("en", "Navis 1 moves to the reserve: attacking navis beside land blocks are always reserves (rules 7.3).",
     "Navis 1, Navis 4 move to the reserve: attacking navis beside land blocks are always reserves (rules 7.3)."),
    ("ru", "Судно 1 переведено в резерв: атакующие суда вместе с сухопутными блоками всегда в резерве (правила 2.2.2).",
     "Судно 1, Судно 4 переведены в резерв"),
    ("uk", "Судно 1 переведено до резерву: судна нападника разом із сухопутними блоками завжди в резерві",
     "Судно 1, Судно 4 переведено до резерву")])
def test_a_land_block_joining_a_navis_attack_puts_the_navis_into_the_reserve(lang, one, two):  # J-8
    """J-8, 2.2.2, the other way round: navis attacking a port (the main force), then a legion added
    to the attack. The Start refused the set-up the Add list built. Now the navis go into the
    reserve at their strength (out and in again: the console has no other way) and a whole
    sentence says so; the battle starts. The same for a block added by its rating or by its form."""
    from firmware.screens.jc.setup import AddScreen
    lines = (NEW, "add attacker c_nav1 strength=1", "add attacker c_nav3 reserve=1", "add attacker c_nav4",
             "add defender p_leg1")
    ctx = FakeCtx(*lines, "remove c_nav4", lang=lang)
    ctx.open(AddScreen("attacker"))
    legio = {"en": "Legio 7", "ru": "Легион 7", "uk": "Легіон 7"}[lang]
    ctx.press(*DOWN * [i.key for i in ctx.top.items(ctx)].index("kind:legion"), "a")
    ctx.press(*DOWN * [str(i.label) for i in ctx.top.items(ctx)].index(legio), "a")
    assert sorted(_attack(ctx)) == [("c_leg7", False), ("c_nav1", True), ("c_nav3", True)]
    assert {x["key"]: x["strength"] for x in ctx.view()["battle"]["blocks"]}["c_nav1"] == 1   # its strength kept
    assert len(ctx.notes) == 1 and one in ctx.notes[0], ctx.notes
    assert ctx.run("start")["ok"]
    both = FakeCtx(*lines, lang=lang).open(AddScreen("attacker"))
    both.press(*DOWN * [i.key for i in both.top.items(both)].index("kind:legion"), "a", "a")
    assert sorted(_attack(both))[1:] == [("c_nav1", True), ("c_nav3", True), ("c_nav4", True)]
    assert len(both.notes) == 1 and two in both.notes[0], both.notes
    assert both.run("start")["ok"]
    rated = FakeCtx(*lines).open(AddScreen("attacker"))
    labels = [str(i.label) for i in rated.top.items(rated)]
    rated.press(*DOWN * labels.index("By rating…"), "a", "a")         # a C3 III block by its rating
    assert [r for k, r in _attack(rated) if k.startswith("c_nav")] == [True, True, True]
    assert "Navis 1, Navis 4 move to the reserve" in rated.notes[-1], rated.notes
    assert rated.run("start")["ok"]
    form = FakeCtx(*lines).open(AddScreen("attacker"))
    pick_block(form, "Legio 7", "a:hold").press("a")                   # its form, as it stands
    assert [r for k, r in _attack(form) if k.startswith("c_nav")] == [True, True, True]
    assert form.run("start")["ok"]

def test_one_undo_takes_back_a_legion_and_the_navis_it_put_into_the_reserve():  # J-8, undo
    """J-8 (RU summary 2.2.2): a legion joining a navis attack puts the navis into the reserve. The
    Add list did it in three console actions (the legion added, each navis taken out and added
    again as a reserve), so hold B's one undo took back only the last: Navis 1 was left out of the
    battle, a set-up the player never made, under a notice saying it had gone into the reserve.
    One step on the device is one action: one undo gives the attack as it stood; a second, the step
    before it."""
    from firmware.screens.jc.setup import AddScreen
    lines = (NEW, "add attacker c_nav1 strength=1", "add attacker c_nav3 reserve=1", "add defender p_leg1")
    for how in ("list", "rating"):
        ctx = FakeCtx(*lines).open(AddScreen("attacker"))
        before, actions = sorted(_attack(ctx)), len(ctx.session.lines)
        if how == "list":
            ctx.press(*DOWN * [i.key for i in ctx.top.items(ctx)].index("kind:legion"), "a")
            ctx.press(*DOWN * [str(i.label) for i in ctx.top.items(ctx)].index("Legio 7"), "a")
        else:
            labels = [str(i.label) for i in ctx.top.items(ctx)]
            ctx.press(*DOWN * labels.index("By rating…"), "a", "a")         # a C3 III block by its rating
        after = sorted(_attack(ctx))
        assert [r for k, r in after if k.startswith("c_nav")] == [True, True], after
        assert len(ctx.session.lines) == actions + 1, ctx.session.lines[actions:]    # one step, one action
        assert "Navis 1 moves to the reserve" in ctx.notes[-1], ctx.notes
        assert ctx.run("undo")["ok"]
        assert sorted(_attack(ctx)) == before                       # the attack as it stood
        assert "joins the defender" in ctx.run("undo")["undone"]    # a second: the step before it
        assert sorted(_attack(ctx)) == before


# -- between battles: a step lost (Vulcan, Jupiter), a defection (Jupiter); the campaign's end ------
KINDS = {"Legio": "Legions", "Equitatus": "Equitatus", "Auxilia": "Auxilia", "Navis": "Navis"}


def pick_block(ctx: FakeCtx, name: str, key: str = "a") -> FakeCtx:
    """On a list of blocks by kind: the block called ``name``, through its kind's row when it has
    one (every move pressed), then ``key`` on it (hold A: a block's form on the Add list)."""
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    if name not in labels:
        kind = KINDS.get(name.split()[0], "Leaders")
        ctx.press(*DOWN * labels.index(kind), "a")
        labels = [str(i.label) for i in ctx.top.items(ctx)]
    return ctx.press(*DOWN * labels.index(name), key)


def block_menu(ctx: FakeCtx, side: str, name: str) -> FakeCtx:
    """From the home: Blocks → ``side`` → the block called ``name`` (every move pressed)."""
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press(*DOWN * labels.index("Blocks"), "a", *DOWN * ("caesar", "pompey").index(side), "a")
    return pick_block(ctx, name)


def test_a_sides_blocks_are_grouped_by_the_rulebooks_kinds():  # J-1, J-2
    """A side has about 31 blocks: as one list, Cleopatra was 31 presses down and Navis 5 of
    Caesar 30. The blocks come by kind (leaders, legions, equitatus, auxilia, navis: a row each
    with its count); a kind of one block (the ballista, the elephant, Cleopatra) is its own row."""
    from firmware.screens.jc.blocks import SideBlocks
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(NEW)
    ctx.open(SideBlocks("pompey"))
    rows = [(str(i.label), i.value) for i in ctx.top.items(ctx)]
    # the elephant and the ballista start in the levy pool: at the strength a levy brings (J-20)
    assert rows == [("Leaders", "3"), ("Legions", "14"), ("Equitatus", "3"), ("Elephant", "B3 II"),
                    ("Auxilia", "4"), ("Ballista", "B4 I"), ("Navis", "5"), ("Cleopatra", "C1 IV")]
    ctx.press("down", "a")
    assert ctx.top.title == "Legions" and len(ctx.top.items(ctx)) == 14
    ctx.press(*DOWN * 13, "a")                                   # the last legion: its menu
    ctx.top.items(ctx)
    assert ctx.top.title == "Legio 39"
    for _ in range(3):
        ctx.run("lose p_leg39")                                  # eliminated (J-3): out of the kind
    ctx.press("b")
    assert ctx.top.title == "Legions" and "Legio 39" not in [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press("b")
    assert ("Legions", "13") in [(str(i.label), i.value) for i in ctx.top.items(ctx)]
    for leader in ("p_pompeius", "p_brutus"):                    # one leader left: his own row
        for _ in range(3):
            ctx.run(f"lose {leader}")
    assert [str(i.label) for i in ctx.top.items(ctx)][:2] == ["Scipio", "Legions"]
    add = FakeCtx(NEW, "add attacker c_leg10")
    add.open(AddScreen("attacker"))
    labels = [str(i.label) for i in add.top.items(add)]
    assert labels[:2] == ["Leaders", "Legions"] and labels[-1] == "By rating…" and "Legio 10" not in labels
    add.run("add attacker c_antonius")
    add.press("a", "a", "a")                                     # Leaders: A adds Caesar, then Octavian
    assert [line for line in add.lines if line.startswith("add")][-2:] == ["add attacker c_caesar strength=3",
                                                                           "add attacker c_octavian strength=1"]
    # (Caesar set up at his maximum; Octavian from the levy pool at I, J-20); the kind's last block
    # added, its list goes back to the side's (it had nothing left to add: a B pressed for nothing)
    assert isinstance(add.top, AddScreen) and add.top.kind == "" and "rules 7.51" in add.notes[-1]
    assert "Leaders" not in [str(i.label) for i in add.top.items(add)]
    assert add.top.items(add)[add.top.cursor].key == "kind:legion"
    add.press("a")                                               # the legions not yet in the battle
    assert add.top.title == "Legions" and len(add.top.items(add)) == 13                 # 14 less Legio 10


@pytest.mark.parametrize("lang,mark", [("en", "."), ("ru", ","), ("uk", ",")])
def test_the_other_choices_are_written_to_be_read_beside_the_advised_one(lang, mark):  # J-7, J-14, J-15
    """Pompey's hit (J-7) among three blocks at III: Legio 1 is advised at 90.4 %, the others 88.8 %.
    They read "89%" (a whole percent from 10 to 90 %) beside "✓90.4%", under "Next choice: −1.6%"
    and in Why ✓? "89% (1.6% less)": 90.4 − 89 is 1.4. Beside an advised figure with a decimal the
    others have one too; beside a whole one (the fire at 89 % after the hit) they stay whole."""
    from firmware.screens.jc.battle import BattleScreen
    ctx = FakeCtx("new jc-battle seed=5", "add attacker c_caesar", "add attacker c_leg10", "add attacker c_leg8 reserve=1",
                  "add defender p_pompeius", "add defender p_leg1", "add defender p_leg3", "start", "fire c_caesar",
                  lang=lang).open(BattleScreen())
    ctx.texts()
    values = [i.value for i in ctx.top.items(ctx)][:3]
    assert values == [f"88{mark}8%", f"✓90{mark}4%", f"88{mark}8%"], values
    assert ctx.texts()[-1].endswith(f"1{mark}6%")                 # the next choice's cost: 90.4 − 88.8
    ctx.press(*DOWN * 4, "a")                                     # Why ✓?
    said = " ".join(ctx.top.rows)
    assert f"88{mark}8%" in said and f"1{mark}6%" in said and "89%" not in said, said
    ctx.press("b", *["up"] * 4, "a")                              # the hit on Pompeius: his fire is next
    values = [i.value for i in ctx.top.items(ctx)][:2]
    assert values == ["✓89%", "76%"], values


@pytest.mark.parametrize("first", ["round", "turn"])
def test_the_odds_are_those_of_the_games_cleopatra_rule(first):  # J-2, J-14, J-15
    """The odds of Cleopatra at I beside Legio 1 against Legio 10 depend on when she fights for the
    side she joins (J-2: ``round`` 58 % Caesar crushed, ``turn`` 61 %). The odds screen kept the
    odds asked for the same battle in a game played under the other rule (a new game set up alike:
    the same number, blocks and step) and showed them."""
    lines = ["add attacker c_leg10 strength=1", "add defender cleopatra strength=1", "add defender p_leg1 strength=1"]
    crushed = {"round": "58%", "turn": "61%"}
    for rule in (first, *(r for r in crushed if r != first)):
        texts = FakeCtx(f"new jc-battle seed=1 cleopatra={rule}", *lines).open(odds_screen()).texts()
        assert texts[texts.index("Caesar crushed") + 1] == crushed[rule], (rule, texts)


def test_a_sides_lists_ask_the_roster_once_while_the_campaign_stays_as_it_is():  # J-2, J-3, J-20
    """The Add list and a side's blocks asked the console's ``roster`` 2-3 times a key (each row,
    the Last battle row's count, the draw and the key), localizing its 31 blocks each time: about
    2 ms a key here, 30 ms on a Pi Zero 2 W. It is asked again only when what it answers from
    changes (a step gained, a block gone over, an undo), and the rows follow at once."""
    from firmware.screens.jc.blocks import SideBlocks
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(NEW, "add attacker c_leg10", "lose p_leg3")
    ctx.open(AddScreen("defender"))
    ctx.press("down", "a", *DOWN * 6, *["up"] * 6, "b", *DOWN * 4)
    ctx.texts()
    assert sum(line.startswith("roster") for line in ctx.lines) <= 1, ctx.lines
    ctx.open(SideBlocks("pompey"))
    ctx.press("down", "a")                                       # Legions
    keys = [i.key for i in ctx.top.items(ctx)]
    ctx.press(*DOWN * keys.index("p_leg3"))
    ctx.texts()
    assert sum(line.startswith("roster") for line in ctx.lines) <= 2, ctx.lines
    rows = {i.key: i.value for i in ctx.top.items(ctx)}
    assert rows["p_leg3"] == "C3 II"
    ctx.press("a:hold")                                          # Legio 3 gains a step (J-20)
    assert ctx.lines[-1] == "gain p_leg3" and {i.key: i.value for i in ctx.top.items(ctx)}["p_leg3"] == "C3 III"
    ctx.run("lose p_leg3")                                       # (as an undo would: the row follows)
    assert {i.key: i.value for i in ctx.top.items(ctx)}["p_leg3"] == "C3 II"


@pytest.mark.parametrize("lang, last", [("en", "Last battle"), ("ru", "Прошлый бой"), ("uk", "Попередній бій")])
def test_the_armies_of_the_last_battle_are_added_again_a_press_a_block(lang, last):  # J-2, J-3
    """A set-up on the device took about 9 presses a block (a kind's row, the 14 legions scrolled,
    A on the block's form). The side's blocks that fought in the last battle come first, as one
    row: in it A adds each block at once at the strength it kept (J-2), with no move (the next
    comes under the cursor); a block the battle eliminated (J-3) or killed is not offered. Once
    the last is added the list goes back to the side's (a B for a list with nothing left)."""
    from firmware.screens.jc.setup import AddScreen
    fought = [*ARMIES, "add attacker c_leg8", "start", "fight"]
    ctx = FakeCtx(*fought, "next-battle", lang=lang)
    gone = {b["id"] for b in ctx.view()["battle"]["blocks"] if b["status"] in ("eliminated", "killed")}
    survivors = [b for b in ("c_caesar", "c_leg10", "c_leg8") if b not in gone]
    assert survivors, gone
    ctx.open(AddScreen("attacker"))
    row = ctx.top.items(ctx)[0]
    assert (str(row.label), row.value) == (last, str(len(survivors)))
    ctx.press("a")
    assert ctx.top.title == last
    shown = [i.key for i in ctx.top.items(ctx)]
    blocks = [key for key in shown if key != "all"]                     # ("Add all" above two or more)
    assert sorted(blocks) == sorted(survivors)                          # only those that can fight again
    ctx.press(*DOWN * (len(shown) - len(blocks)), *["a"] * len(blocks))
    strength = {b["id"]: b["strength"] for b in ctx.run("roster caesar")["blocks"]}
    assert [line for line in ctx.lines if line.startswith("add")] == [
        f"add attacker {b} strength={strength[b]}" for b in blocks]     # at the strength each kept
    assert isinstance(ctx.top, AddScreen) and ctx.top.kind == "" and ctx.top.items(ctx)[0].key != "kind:group"
    first = FakeCtx(NEW).open(AddScreen("attacker"))                      # no battle fought yet: no such row
    assert "kind:group" not in [i.key for i in first.top.items(first)]


def test_a_kinds_list_emptied_through_a_blocks_form_goes_back_too():  # J-1, J-2
    """A kind's list whose last block A adds goes back to the side's list; the same block added
    through its form (hold A: strength, reserve) left the list open on "Every block of this kind is
    in the battle.", a B for nothing — one key grammar for one job."""
    from firmware.screens.jc.setup import AddScreen
    add = FakeCtx(NEW, "add attacker c_antonius")
    add.open(AddScreen("attacker"))
    add.press("a", "a")                                          # Leaders: A adds Caesar
    assert add.top.kind == "leader" and [i.key for i in add.top.items(add)] == ["c_octavian"]
    add.press("a:hold")                                          # Octavian's form
    assert add.top.title == "Octavian"
    add.press("a")                                               # added from the form
    assert [line for line in add.lines if line.startswith("add")][-1] == "add attacker c_octavian strength=1"
    assert isinstance(add.top, AddScreen) and add.top.kind == "" and "rules 7.51" in add.notes[-1]
    assert "kind:leader" not in [i.key for i in add.top.items(add)]


@pytest.mark.parametrize("lang, label, navis", [("en", "Add all", "Navis 1 joins the attack as a reserve"),
                                                ("ru", "Добавить все", "Судно 1 добавлено в резерв атакующего"),
                                                ("uk", "Додати всі", "Судно 1 додано до резерву нападника")])
def test_the_last_battles_army_is_added_again_in_one_press(lang, label, navis):  # J-2, J-8
    """The army that fights again was a press a block in the Last battle list, and a B out of it
    once empty: 6 presses for Caesar's four survivors. "Add all" is its first row, the cursor on
    it: one A adds every block at the strength it kept (J-2), the land blocks before the navis —
    an attacking navis beside them comes in as a reserve (J-8, rules 7.3), said in one notice —
    and the list, with nothing left, goes back to the side's."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx("new jc-battle seed=5", "add attacker c_caesar", "add attacker c_leg10", "add attacker c_leg8",
                  "add attacker c_nav1 reserve=1", "add defender p_pompeius", "add defender p_leg1",
                  "add defender p_leg3", "start", "fight", "next-battle", lang=lang)
    survivors = {b for b, side in ctx.view()["history"][-1]["survivors"].items() if side == "caesar"}
    assert survivors == {"c_caesar", "c_leg10", "c_leg8", "c_nav1"}, survivors       # (this battle: all four)
    strength = {b["id"]: b["strength"] for b in ctx.run("roster caesar")["blocks"]}
    ctx.open(AddScreen("attacker"))
    ctx.press("a")                                                        # Last battle
    row = ctx.top.items(ctx)[ctx.top.cursor]
    assert (str(row.label), row.value) == (label, "4")
    lines, notes = len(ctx.lines), len(ctx.notes)
    ctx.press("a")
    adds = [line for line in ctx.lines[lines:] if line.startswith("add")]
    assert adds == [f"add attacker {b} strength={strength[b]}" for b in ("c_caesar", "c_leg8", "c_leg10")] + [
        f"add attacker c_nav1 strength={strength['c_nav1']} reserve=1"]
    assert {b["id"]: b["reserve"] for b in ctx.view()["battle"]["blocks"]} == {
        "c_caesar": False, "c_leg8": False, "c_leg10": False, "c_nav1": True}
    assert len(ctx.notes) == notes + 1 and ctx.notes[-1].startswith(navis), ctx.notes[notes:]
    assert isinstance(ctx.top, AddScreen) and ctx.top.kind == ""
    assert "kind:group" not in [i.key for i in ctx.top.items(ctx)]
    ctx.open(AddScreen("defender"))                   # one survivor or none: no "Add all" beside it
    if any(i.key == "kind:group" for i in ctx.top.items(ctx)):
        ctx.press("a")
        keys = [i.key for i in ctx.top.items(ctx)]
        assert "all" not in keys or len(keys) > 2, keys


def test_a_block_the_last_battle_eliminated_is_not_in_its_row_after_the_winter():  # J-3, J-19
    """The Last battle row offers the side's blocks that came out of it: one it eliminated was left
    out only while the year held it back (J-3); after the winter it came back in the row, at I from
    the levy pool, as if it had fought on (Legio 8 and Legio 10 under Caesar's Last battle)."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx("new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add attacker c_leg10",
                  "add attacker c_leg8", "add defender p_pompeius", "add defender p_leg1", "add defender cleopatra",
                  "add defender p_leg3", "add defender p_eq1", "start", "fight")
    gone = {b["id"] for b in ctx.view()["battle"]["blocks"] if b["status"] in ("eliminated", "killed")}
    assert {"c_leg10", "c_leg8"} <= gone, gone              # (this battle: both eliminated, Caesar killed)
    assert ctx.run("next-battle")["ok"]
    assert ctx.run("winter")["ok"]
    assert ctx.view()["campaign"]["eliminated"] == []        # back in the levy pool (J-19)
    for role in ("attacker", "defender"):
        ctx.open(AddScreen(role))
        group = [i for i in ctx.top.items(ctx) if i.key == "kind:group"]
        if group:
            ctx.press("a")
            assert not gone & {i.key for i in ctx.top.items(ctx)}, (role, ctx.texts())


def test_the_add_list_s_kinds_keep_the_rulebook_s_order_after_a_battle():  # J-1, J-2
    """The likeliest blocks first inside a kind's list (the last battle's, then those on the map)
    moved the kinds themselves: after a battle of equitatus and auxilia Caesar's Add list read
    Equitatus, Auxilia, Leaders, Legions; Pompey's put Navis and Cleopatra before Equitatus. The
    kinds stay in the rulebook's (the roster's) order, battle after battle."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx("new jc-battle attacker=caesar seed=9", "add attacker c_eq1", "add attacker c_aux1",
                  "add defender p_eq1", "start", "fight", "next-battle")
    for role, side in (("attacker", "caesar"), ("defender", "pompey")):
        roster_kinds = {b["id"]: b["kind"] for b in ctx.run(f"roster {side}")["blocks"]}
        in_order = list(dict.fromkeys(roster_kinds.values()))
        ctx.open(AddScreen(role))
        kinds = [key[5:] if key.startswith("kind:") else roster_kinds[key]
                 for key in (i.key for i in ctx.top.items(ctx)) if key in roster_kinds or key.startswith("kind:")]
        kinds = [k for k in kinds if k != "group"]
        assert kinds == [k for k in in_order if k in kinds], (role, kinds)
        if role == "attacker":                          # inside a kind, the last battle's first
            ctx.press(*DOWN * [i.key for i in ctx.top.items(ctx)].index("kind:equitatus"), "a")
            assert ctx.top.items(ctx)[0].key == "c_eq1"


def test_a_block_that_fought_for_the_other_side_is_not_in_the_last_battles_row():  # J-2
    """A block gone over since the last battle (a Jupiter defection, Cleopatra at I) fought against
    the side it now serves: the side's «Last battle» row (the army that fights again) leaves it out;
    its kind's row still offers it."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(*ARMIES, "add defender p_leg3", "start", "fight", "next-battle", "owner p_leg1 caesar")
    mine = {b for b in ("c_caesar", "c_leg10") if b in {r["id"] for r in ctx.run("roster caesar")["blocks"]
                                                            if r["status"] == "available"}}
    ctx.open(AddScreen("attacker"))
    group = [i for i in ctx.top.items(ctx) if i.key == "kind:group"]
    assert [i.value for i in group] == ([str(len(mine))] if mine else [])
    if group:
        ctx.press("a")
        assert "p_leg1" not in [i.key for i in ctx.top.items(ctx)]
        ctx.press("b")
    assert "p_leg1" in [key for b, item in ctx.top.block_rows(ctx) for key in [item.key]]
    ctx.open(AddScreen("defender"))                    # Pompey's row: Pompeius and Legio 3, not Legio 1
    ctx.press("a")
    assert sorted(i.key for i in ctx.top.items(ctx)) == ["all", "p_leg3", "p_pompeius"]     # ("Add all": the two)


def test_a_levy_step_is_one_press_on_the_blocks_row():  # J-20
    """A levy point adds a step: Blocks → a side → the block → Gain a step → the notice took 5
    presses past the block's row. Hold A on the row gains the step at once, said as Gain a step
    says it; a block at its most is refused in the console's words, nothing changed; a block in
    the battle being set up says to fight it first (no step of it is lost there yet)."""
    from firmware.screens.jc.blocks import SideBlocks
    ctx = FakeCtx(NEW, "lose c_leg10")
    most = roster_strength(ctx, "c_leg10") + 1
    ctx.open(SideBlocks("caesar"))
    pick_block(ctx, "Legio 10", "a:hold")
    assert ctx.lines[-1] == "gain c_leg10" and roster_strength(ctx, "c_leg10") == most
    assert isinstance(ctx.top, SideBlocks) and "gains a step" in ctx.notes[-1] and "Undo: hold B." in ctx.notes[-1]
    before = len(ctx.notes)
    ctx.press("a:hold")                                                  # at its most now: refused
    assert roster_strength(ctx, "c_leg10") == most and len(ctx.notes) == before + 1
    busy = FakeCtx(NEW, "add attacker c_leg10", "lose c_leg8")
    busy.open(SideBlocks("caesar"))
    pick_block(busy, "Legio 10", "a:hold")
    assert not any(line.startswith("gain") for line in busy.lines) and "being set up" in busy.notes[-1]
    busy.press("b", "a:hold")                                            # on a kind's row: it opens, as A
    assert busy.top.kind == "leader" or busy.top.kind == "legion"


def roster_strength(ctx: FakeCtx, block: str) -> int | None:
    side = "caesar" if block.startswith("c_") else "pompey"
    return next((b["strength"] for b in ctx.run(f"roster {side}")["blocks"]
                 if b["id"] == block and b["status"] == "available"), None)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_outside_battle_stands_beside_the_side_in_every_language_and_beside_no_kind(lang):  # J-2
    """«outside battle» came and went by its length beside the title: shown beside «Navis» but not
    «Legions» in English, beside «Легионы» in Russian. It stands beside the side's name only."""
    from firmware import i18n
    from firmware.screens.jc.blocks import SideBlocks
    from firmware.screens.jc.text import _
    ctx = FakeCtx(NEW, lang=lang)
    try:
        i18n.set_language(lang)
        side = SideBlocks("pompey")
        ctx.open(side)
        assert _("outside battle") in ctx.texts()
        for k in range(len(side.items(ctx))):
            ctx.top.cursor = k
            ctx.press("a")
            if isinstance(ctx.top, SideBlocks) and ctx.top is not side:       # a kind's list
                assert _("outside battle") not in ctx.texts(), ctx.top.title
            while ctx.top is not side:
                ctx.press("b")
    finally:
        i18n.set_language("en")


def test_a_step_lost_outside_battle_is_one_row_of_the_block(tmp_path):  # J-2, J-3 (Vulcan)
    """Vulcan: every block in the city loses a step. On the device: Blocks → Caesar → Legio 10 →
    Lose a step (III→II), sent at once as ``lose`` (journaled: the notice says hold B takes it back);
    the side's list shows the new strength and keeps the cursor on the block."""
    from firmware.screens.jc.blocks import BlockMenu, SideBlocks
    ctx = block_menu(home(NEW), "caesar", "Legio 10")
    assert isinstance(ctx.top, BlockMenu) and ctx.top.status(ctx) == "C4 III"
    rows = {str(i.label): i.value for i in ctx.top.items(ctx)}
    assert rows == {"Lose a step": "III→II", "Go over to Pompey": "", "Disband": ""}
    ctx.press("a")
    assert ctx.session.lines[-1] == "lose c_leg10" and roster_strength(ctx, "c_leg10") == 2
    assert ctx.notes == ["Legio 10 loses a step outside battle (III→II). Undo: hold B."]
    assert isinstance(ctx.top, SideBlocks)
    item = ctx.top.items(ctx)[ctx.top.cursor]
    assert (item.label, item.value) == ("Legio 10", "C4 II")


def test_a_block_disbanded_in_winter_is_one_row_of_the_block():  # J-19 (rules 8.3-8.5), J-20
    """Winter: a navis with no friendly port, the supply's surplus or any block the player chooses
    is disbanded to the levy pool, its steps forfeit. On the device: Blocks → Caesar → Legio 10 →
    Disband, sent at once as ``disband`` (journaled: hold B takes it back); the block is then
    shown at I, the strength it is levied at again (it stayed at III: the device had no way to be
    told); in the levy pool, it is not offered Disband again (it was, saying it was disbanded anew)."""
    from firmware.screens.jc.blocks import SideBlocks
    ctx = block_menu(home(NEW, "lose c_leg10"), "caesar", "Legio 10")
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press(*DOWN * labels.index("Disband"), "a")
    assert ctx.session.lines[-1] == "disband c_leg10" and roster_strength(ctx, "c_leg10") == 1
    assert ctx.notes == ["Legio 10 is disbanded to Caesar's levy pool: its steps are forfeit; levied again, "
                         "it comes in at I. Undo: hold B."]
    assert isinstance(ctx.top, SideBlocks)
    item = ctx.top.items(ctx)[ctx.top.cursor]
    assert (item.label, item.value) == ("Legio 10", "levy pool")          # off the map (see below)
    ctx.press("a")                                      # in the levy pool now: not disbanded again
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Levy"]


@pytest.mark.parametrize("lang, row, levy, said", [
    ("en", "levy pool", "Levy", "Legio 10 is levied from the levy pool: it comes in at I. Undo: hold B."),
    ("ru", "для найма", "Нанять", "Блок «Легион 10» нанят из блоков, свободных для найма: он выставляется с силой I. "
                                  "Отмена: удерживайте B."),
    ("uk", "для найму", "Найняти", "Блок «Легіон 10» найнято із запасу найму: він виходить із силою I. "
                                   "Скасувати: утримуйте B.")])
def test_a_block_in_the_levy_pool_offers_only_its_levy(lang, row, levy, said):  # J-3, J-19, J-20
    """A block disbanded (or eliminated, given back by a winter) is in the levy pool, off the map
    (RU «Найм»: a levy point «выставить 1 новый блок из свободных для найма … с боевой силой 1»).
    Blocks listed it as «C4 I» and offered Lose a step and Gain a step (I→II, a step for a block
    that stands nowhere) and Go over (Jupiter takes a block from a city). Its row now says it is in
    the levy pool, and its menu offers the levy alone: a levy point places it at I, on the map, and
    only then can it gain or lose a step."""
    from firmware.screens.jc.blocks import BlockMenu, SideBlocks
    ctx = FakeCtx(NEW, "winter", "disband c_leg10", lang=lang)
    try:
        ctx.open(SideBlocks("caesar"))
        ctx.press(*DOWN * [i.key for i in ctx.top.items(ctx)].index("kind:legion"), "a")
        ctx.top.cursor = [i.key for i in ctx.top.items(ctx)].index("c_leg10")
        item = ctx.top.items(ctx)[ctx.top.cursor]
        assert item.value == row and not any("…" in t for t in ctx.texts()), ctx.texts()
        ctx.press("a")
        assert isinstance(ctx.top, BlockMenu)
        assert [(str(i.label), i.value) for i in ctx.top.items(ctx)] == [(levy, "→I")]
        assert ctx.top.status(ctx) == "C4" and not any("…" in t for t in ctx.texts()), ctx.texts()
        ctx.press("a")                                             # levied: on the map at I
        assert ctx.session.lines[-1] == "gain c_leg10" and ctx.notes == [said]
        assert ctx.view()["campaign"]["pool"] == [] and roster_strength(ctx, "c_leg10") == 1
        assert isinstance(ctx.top, SideBlocks) and ctx.top.items(ctx)[ctx.top.cursor].value == "C4 I"
        ctx.press("a")                                             # on the map: its steps now
        assert [i.key for i in ctx.top.items(ctx)] == ["lose", "gain", "owner", "disband"]
    finally:
        from firmware import i18n
        i18n.set_language("en")


def test_a_step_levied_back_is_one_row_of_a_reduced_block():  # J-20 (a levy point adds a step)
    """A block below its maximum offers Gain a step (a levy point, rules 2.2), sent at once as
    ``gain``; a block at its maximum does not offer it."""
    from firmware.screens.jc.blocks import SideBlocks
    ctx = block_menu(home(NEW, "lose c_leg10", "lose c_leg10"), "caesar", "Legio 10")
    rows = {str(i.label): i.value for i in ctx.top.items(ctx)}
    assert rows["Gain a step"] == "I→II"
    labels = list(rows)
    ctx.press(*DOWN * labels.index("Gain a step"), "a")
    assert ctx.session.lines[-1] == "gain c_leg10" and roster_strength(ctx, "c_leg10") == 2
    assert ctx.notes == ["Legio 10 gains a step from a levy (I→II). Undo: hold B."]
    assert isinstance(ctx.top, SideBlocks)
    full = block_menu(home(NEW), "caesar", "Legio 8")
    assert "Gain a step" not in [str(i.label) for i in full.top.items(full)]


def test_a_leader_killed_outside_battle_asks_first_and_is_a_trophy():  # J-2, J-17
    """Jupiter on a leader: he loses a step instead of changing side, "even if eliminated". At I the
    row says he is killed; A asks first (a leader is gone for good), then the enemy scores his trophy."""
    ctx = block_menu(home(NEW, "lose p_pompeius", "lose p_pompeius"), "pompey", "Pompeius")
    rows = {str(i.label): i.value for i in ctx.top.items(ctx)}
    assert rows == {"Lose a step": "killed", "Gain a step": "I→II", "Disband": ""}  # never changes side (Jupiter)
    vp, sent = ctx.view()["vp"]["caesar"], len(ctx.session.lines)
    ctx.press("a")
    assert isinstance(ctx.top, ConfirmScreen) and "1 VP for Caesar" in ctx.top.question
    assert len(ctx.session.lines) == sent                     # nothing sent yet
    ctx.press("a")
    assert ctx.session.lines[-1] == "lose p_pompeius"
    assert ctx.view()["vp"]["caesar"] == vp + 1 and "p_pompeius" in ctx.view()["campaign"]["killed"]
    assert ctx.notes[-1] == "Pompeius is killed outside battle: a trophy for Caesar. Undo: hold B."
    assert "Pompeius" not in [str(i.label) for i in ctx.top.items(ctx)]      # out of the game


def test_the_last_step_of_a_legion_eliminates_it_for_the_year_after_a_question():  # J-3
    ctx = block_menu(home(NEW, "lose p_leg3", "lose p_leg3"), "pompey", "Legio 3")
    assert {str(i.label): i.value for i in ctx.top.items(ctx)}["Lose a step"] == "I→-"          # as the log says it; the question says eliminated
    sent = len(ctx.session.lines)
    ctx.press("a")
    assert isinstance(ctx.top, ConfirmScreen) and "no levy again this year" in ctx.top.question
    ctx.press("b")                                            # no: nothing sent, the block as it was
    assert len(ctx.session.lines) == sent and roster_strength(ctx, "p_leg3") == 1
    ctx.press("a", "a")
    assert ctx.session.lines[-1] == "lose p_leg3" and "p_leg3" in ctx.view()["campaign"]["eliminated"]


def test_the_question_before_the_elephant_s_last_step_says_its_strength():  # J-2, J-3
    """The elephant has only IV and II (J-2): at II its next step eliminates it, and the question
    said "Elephant is at I" (the strength every other block's last step has)."""
    ctx = block_menu(home(NEW), "pompey", "Elephant")
    assert roster_strength(ctx, "p_elephant") == 2                 # levied at its lowest step (J-20)
    assert {str(i.label): i.value for i in ctx.top.items(ctx)}["Lose a step"] == "II→-"
    ctx.press("a")
    assert isinstance(ctx.top, ConfirmScreen), type(ctx.top).__name__
    assert ctx.top.question.startswith("Elephant is at II: eliminated"), ctx.top.question
    legion = block_menu(home(NEW, "lose p_leg3", "lose p_leg3"), "pompey", "Legio 3")
    legion.press("a")
    assert legion.top.question.startswith("Legio 3 is at I: eliminated"), legion.top.question


@pytest.mark.parametrize("meanwhile", ["lose p_pompeius", "undo"])
def test_the_question_before_a_last_step_goes_once_the_block_changed_meanwhile(meanwhile, state_dir):  # J-2, undo
    """The question "Pompeius is at I: killed for good?" is open when the serial link kills him (or
    an undo gives him his step back): the question goes with what it asked about (A on it answered
    that he was killed in battle, or took a step the question never named)."""
    from firmware.screens.jc.blocks import BlockMenu
    app = app_with([NEW, "lose p_pompeius", "lose p_pompeius"], [], state_dir)
    try:
        app.push(BlockMenu("pompey", "p_pompeius"))
        app.render()
        app.handle("a")                                        # Lose a step: the question
        assert isinstance(app.stack[-1], ConfirmScreen) and "killed" in app.stack[-1].question
        sent = list(app.console.session.lines)
        assert '"ok":true' in app.serve_line(meanwhile.encode())
        assert not isinstance(app.stack[-1], ConfirmScreen), [type(s).__name__ for s in app.stack]
        assert len(app.console.session.lines) == len(sent) + (1 if meanwhile != "undo" else -1)
    finally:
        app.console.close()


def test_cleopatra_at_one_step_is_offered_only_a_change_of_side():  # J-2
    """Cleopatra is never eliminated (at I she changes side: the console refuses ``lose``): her
    menu offers no step then; navis, like leaders, never change side (Jupiter)."""
    ctx = block_menu(home(NEW), "pompey", "Cleopatra")
    strength = roster_strength(ctx, "cleopatra")
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert ("Lose a step" in labels) == (strength > 1) and "Go over to Caesar" in labels
    for _ in range(strength - 1):
        ctx.run("lose cleopatra")
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Gain a step", "Go over to Caesar"]   # never disbanded (8.5)
    navis = block_menu(home(NEW), "caesar", "Navis 1")
    assert [str(i.label) for i in navis.top.items(navis)] == ["Lose a step", "Disband"]   # 8.3: no port


def test_a_jupiter_defection_moves_the_block_to_the_other_side():  # J-2 (Jupiter)
    from firmware.screens.jc.blocks import SideBlocks
    ctx = block_menu(home(NEW), "pompey", "Legio 1")
    ctx.press("down", "a")
    assert ctx.session.lines[-1] == "owner p_leg1 caesar"
    assert ctx.notes == ["Legio 1 now fights for Caesar. Undo: hold B."]
    assert isinstance(ctx.top, SideBlocks) and "Legio 1" not in [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press("b", "b", "up", "a", "down", "a")                # Caesar's legions: it fights for him now
    assert [b for b in ctx.run("roster caesar")["blocks"] if b["id"] == "p_leg1"]
    assert "Legio 1 (P)" in [str(i.label) for i in ctx.top.items(ctx)]       # Pompey's block, for Caesar


def test_a_block_gone_over_is_told_from_the_like_named_block_of_its_new_side():  # J-2 (Jupiter)
    """Both sides have Auxilia 1-4, Equitatus 1-3 and a Ballista: after a defection Caesar's lists
    showed two rows "Auxilia 1  B1 IV", the same in the battle and in the forces: nothing said which
    block was which (the one picked gets the steps, the elimination, J-3). The block that went over
    carries its first owner's initial wherever its new side's blocks are listed."""
    from firmware.screens.jc.hit_words import why_hit
    from firmware.screens.jc.blocks import SideBlocks
    from firmware.screens.jc.forces import forces_screen
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(NEW, "owner p_aux1 caesar")
    ctx.open(SideBlocks("caesar"))
    ctx.top.kind = "auxilia"
    rows = [(str(i.label), i.value, i.ident) for i in ctx.top.items(ctx)]
    assert ("Auxilia 1", "B1 I", "c_aux1") in rows and ("Auxilia 1 (P)", "B1 I", "p_aux1") in rows  # pool: I (J-20)
    ctx.open(AddScreen("attacker"))
    ctx.top.kind = "auxilia"
    assert [str(i.label) for i in ctx.top.items(ctx)].count("Auxilia 1 (P)") == 1
    ctx.run("add attacker c_aux1 strength=4")                   # built up by levies to IV
    ctx.run("add attacker p_aux1 strength=4")
    ctx.run("add defender p_aux2 strength=4")
    assert [r for r in forces_screen(ctx).rows if r[0].startswith("Auxilia 1")] == [("Auxilia 1", "B1 IV"),
                                                                                  ("Auxilia 1 (P)", "B1 IV")]
    ctx.run("start")                                             # the defender fires: two Auxilia 1 at I to hit
    ctx.run("fire p_aux2 dice=1,1,1,1")
    ctx.open(BattleScreen())
    rows = [str(i.label) for i in ctx.top.items(ctx)]
    marked = [r for r in rows if r.startswith("Auxil")]            # the name shortened, never the initial
    assert all(" 1 " in r for r in marked), rows                    # nor its number
    assert len(marked) == 2 and "(P)" in marked[1] and "(P)" not in marked[0], rows
    assert "Auxilia 1 (P)" in " ".join(why_hit(ctx))
    ru = FakeCtx(NEW, "owner p_eq1 caesar", lang="ru")
    ru.open(SideBlocks("caesar"))
    ru.top.kind = "equitatus"
    assert "Эквиты 1 (П)" in [str(i.label) for i in ru.top.items(ru)]


@pytest.mark.parametrize("lang, gone_over, said_as, own, picks", [
    ("en", "Auxilia 1 (P)", "Pompey's Auxilia 1", "Auxilia 1", "Caesar puts the hit on Pompey's Auxilia 1. "),
    ("ru", "Ауксилия 1 (П)", "Ауксилия 1 Помпея", "Ауксилия 1", "Цезарь отдаёт хит блоку «Ауксилия 1 Помпея». ")])
def test_the_battle_log_tells_a_block_gone_over_from_its_like_named_fellow(lang, gone_over, said_as, own, picks):  # J-2 (Jupiter), J-7
    """The lists marked Pompey's Auxilia 1 fighting for Caesar with its first owner's initial, but
    the battle log (the screen, the console's log and its replies) and the fire's result named both
    "Auxilia 1": which of the two took the hit could not be read there. The lists keep the initial;
    the log's sentences say the first owner in words (the initial's brackets sat inside theirs).
    (A game stored before ``ties=partial``: its four hits on two blocks at IV are asked one by one.)
    The pick's own sentence names the pick before the fire it belongs to: it was the fire's sentence
    alone, so an undo of the pick read «Отменено: Раунд 1 …: атакует …», as if the fire was undone."""
    from firmware.i18n import say
    from firmware.screens.jc.forces import log_screen
    ctx = FakeCtx(NEW, "owner p_aux1 caesar", "add attacker c_aux1 strength=4", "add attacker p_aux1 strength=4",
                  "add defender p_aux2 strength=4", "start", "fire p_aux2 dice=1,1,1,1", lang=lang)
    said = say(ctx.session.apply("hit p_aux1").log)              # the owner picks the one gone over first
    assert f"({said_as} IV→III, {own} IV→III" in said, said         # the console's reply
    hit = ctx.run("state")["state"]["battle"]
    log = " ".join(log_screen(ctx).rows)
    assert f"{said_as} IV→III, {own} IV→III" in log.replace("\n", " "), log
    assert said == picks + hit["log"][-1], said                   # the pick, then its fire as the battle log has it
    turn = ctx.session.state["battle"]["turns"][-1]
    ctx.open(DiceResult(turn))
    ctx.top.render(ctx)
    assert [r.split(" IV")[0] for r in ctx.top.paras(ctx.view()["battle"]["blocks"])[:2]] == [gone_over, own]
    ctx.run("hit c_aux1")
    ctx.run("hit p_aux1")
    fired = ctx.run("fire p_aux1 dice=1,6")
    said = ctx.view()["battle"]["log"][-1]
    assert said.startswith(f"{'Round' if lang == 'en' else 'Раунд'} 1 {said_as} (B1, II)"), said
    ctx.open(DiceResult(fired["turn"]))
    ctx.top.render(ctx)
    assert ctx.top.title.endswith(gone_over[-4:] + " B1"), ctx.top.title      # the initial is never cut


def test_a_block_of_the_battle_says_why_and_sends_nothing():  # J-4, J-20
    """A block placed in the battle being set up: a levy (hold A on its row) or Vulcan's step now
    would not reach the strength it was added with, which it fights at; the device said «its
    steps are lost there» (for a levy too, and no step is lost in a set-up). Once the battle is
    fought, its steps are lost there."""
    ctx = block_menu(home(NEW, "add attacker c_leg10"), "caesar", "Legio 10")
    assert ctx.session.lines[-1] == "add attacker c_leg10"     # no line changed anything
    assert ctx.notes and ctx.notes[-1] == "Legio 10 is in the battle being set up: fight it first."
    item = next(i for i in ctx.top.items(ctx) if str(i.label) == "Legio 10")
    assert item.value == "in battle"
    ctx.top.second(ctx)                                         # hold A: a levy point (J-20)
    assert ctx.session.lines[-1] == "add attacker c_leg10" and "being set up" in ctx.notes[-1]
    ctx.run("add defender p_leg1")
    ctx.run("start")
    ctx.press("a")
    assert ctx.notes[-1] == "Legio 10 is in the current battle: its steps are lost there."


def vp_rows(ctx: FakeCtx) -> dict[str, str]:
    from firmware.screens.jc.campaign import vp_screen
    ctx.open(vp_screen())
    return {i.key: str(i.value).strip("<>") for i in ctx.top.items(ctx)}


def test_the_vp_screen_rows_add_up_to_the_total_with_the_trophies():  # J-17
    """The title said 3:7 over cities worth 2 for Caesar: the trophy (a killed enemy leader, 1 VP)
    had no row. Each side's trophies are a row now, and the rows add up to the score."""
    from engine.jc.mapdata import vp_cities
    ctx = FakeCtx(NEW, "control Roma caesar", "lose p_pompeius", "lose p_pompeius", "lose p_pompeius")
    rows = vp_rows(ctx)
    assert rows["trophies:caesar"] == "1" and rows["trophies:pompey"] == "0"
    worth = vp_cities()
    for side, name in (("caesar", "Caesar"), ("pompey", "Pompey")):
        cities = sum(worth[c] for c, holder in rows.items() if holder == name and c in worth)
        assert cities + int(rows[f"trophies:{side}"]) == ctx.view()["vp"][side], (side, rows)
    ctx.press(*DOWN * 11)                                      # the trophy row: read, never changed
    ctx.press("right")
    assert not any(line.startswith("control") for line in ctx.lines)
    ctx.press("b")
    vp_rows(ctx)
    ctx.press(*DOWN * 11, "a")
    assert "Pompeius (outside battle)" in " ".join(ctx.texts())


GAME_OVER = [NEW, "deal"] + [f"control {c} caesar" for c in ("Roma", "Alexandria", "Athenae", "Byzantium",
                                                             "Carthago_Nova", "Ephesus", "Antiochia", "Utica")] + ["winter"]


def test_the_year_is_dealt_from_the_cards_menu_once():  # J-18, J-19
    """'Deal the year' is offered until the year's cards are dealt; then only the hands (a second
    deal in the year is refused: a hand seen would be dealt again), until the winter deals."""
    from firmware.screens.jc.campaign import CardsMenu
    ctx = home(NEW)
    ctx.open(CardsMenu())
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Deal the year"]
    ctx.press("a")
    assert ctx.session.lines[-1] == "deal"
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Caesar", "Pompey"]
    assert ctx.notes == []


def test_after_the_campaigns_end_nothing_refused_is_offered():  # J-17, J-19
    """After the game-ending winter the cards menu offered Deal the year and the hands, the battle's
    set-up Start round 1 and the adding of blocks, the VP track its cities: each refused ("This game
    is over"). They are gone; each place shows the campaign's result instead."""
    from firmware.screens.jc.campaign import CardsMenu
    ctx = home(*GAME_OVER)
    assert ctx.view()["campaign"]["over"]["winner"] == "caesar"
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "Blocks" not in labels and "Add attacker" not in labels and "Campaign over" in labels
    ctx.open(CardsMenu())
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Campaign over"] and ctx.top.status(ctx) == ""
    ctx.press("a")
    assert "Caesar has 11 VP" in " ".join(ctx.texts())
    ctx.open(BattleScreen())
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Campaign over"]
    assert "Odds" not in " ".join(ctx.texts())
    rows = vp_rows(ctx)
    assert rows["Roma"] == "Caesar" and all(i.adjust is None for i in ctx.top.items(ctx))
    ctx.press("right", "left")
    for key in ("a", "right"):
        ctx.open(BattleScreen()).press(key)
    assert not [line for line in ctx.lines if not line.startswith(("roster", "hand", "odds", "advise"))], ctx.lines
    assert ctx.notes == []                                     # nothing refused: nothing to say


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_blocks_screens_are_translated_and_never_cut(lang):  # J-2, J-3
    from firmware.screens import base
    from firmware.screens.jc.blocks import BlockMenu, BlocksMenu, SideBlocks
    # Legio 10 at I: its "Lose a step" row said "eliminated", a row one letter too long (en, ru)
    ctx = FakeCtx(NEW, "lose p_pompeius", "lose p_pompeius", "owner p_aux1 caesar", "owner p_eq2 caesar",
                  "lose c_leg10", "lose c_leg10", lang=lang)
    shown = []
    legions = SideBlocks("caesar")
    legions.kind = "legion"
    for screen in (BlocksMenu(), SideBlocks("pompey"), SideBlocks("caesar"), legions, BlockMenu("pompey", "p_pompeius"),
                   BlockMenu("pompey", "p_leg1"), BlockMenu("caesar", "c_leg10")):
        ctx.open(screen)
        texts = ctx.texts()
        assert not any("…" in t for t in texts) and all(len(t) <= base.COLS for t in texts), texts
        shown += texts
    from firmware.screens.widgets import item_rows
    for side in ("caesar", "pompey"):                            # every row, also those below the first page
        for _b, block in SideBlocks(side).block_rows(ctx):
            menu = BlockMenu(side, block.ident)
            for item in [block] + menu.items(ctx):       # (the blocks' list wraps a long row: BlockMenu does not)
                assert not any("…" in row for row in item_rows(item, base.ROWS, item is block)), (item.label, item.value)
            assert len(menu.title) + 1 + len(menu.status(ctx)) <= base.COLS, menu.title
    ctx.press("a", "a")                                         # Pompeius killed: asked, then said
    shown += ctx.notes
    if lang != "en":
        english = {"Blocks", "outside battle", "Lose a step", "Go over to Caesar", "killed", "hold B", "Leaders",
                   "Legions", "Navis"}
        assert not [t for t in shown if any(w in t for w in english)], shown


def test_a_step_lost_on_the_device_is_taken_back_by_hold_b(state_dir):  # J-2, J-3
    """The notice says hold B undoes it: the App's undo names the step and gives the step back."""
    from scripts.presses.harness import Driver
    d = Driver("en", state_dir=state_dir, seed=1)
    try:
        d.run(NEW)
        d.press("a")
        for label in ("Blocks", "Pompey", "Legions", "Legio 1", "Lose a step"):
            d.select(label)
        assert d.app.message and "Undo: hold B." in " ".join(d.app.message)
        assert roster_strength_of(d, "p_leg1") == 3
        d.press("a", 1)                                       # the notice closed
        d.press("b:hold")
        assert "Take back: Legio 1 loses a step outside battle (IV→III)." in " ".join(d.screen().split("\n"))
        d.press("a")
        assert roster_strength_of(d, "p_leg1") == 4 and not d.problems
    finally:
        d.close()


def roster_strength_of(d, block: str) -> int:
    return next(b["strength"] for b in d.console.request("roster pompey")["blocks"] if b["id"] == block)


def test_a_block_menu_changed_from_elsewhere_says_so():
    """A line from the serial link (or the console) moved the block while its menu was open: the
    menu offers nothing for it (no line sent for a block of the other side) and A goes back."""
    from firmware.screens.jc.blocks import BlockMenu
    ctx = block_menu(home(NEW), "pompey", "Legio 1")
    ctx.run("owner p_leg1 caesar")
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Not in play now."] and ctx.top.stale(ctx)
    ctx.press("a")
    assert not isinstance(ctx.top, BlockMenu)


def _undo_on_the_device(app) -> None:
    app.handle("b:hold")
    app.render()
    say_yes(app)                                     # yes, take it back
    app.render()
    while app.message or type(app.stack[-1]).__name__ == "TextScreen" and app.stack[-1].title == "Note":
        app.handle("b")                                 # the note of the undo closes
        app.render()


def test_an_undone_fire_takes_its_dice_off_the_screen(state_dir):  # J-5
    """The dice of a fire are shown; an undo takes the fire back: its dice go (they stayed, with
    hits that no block had taken any more), and the same dice come back when it fires again."""
    app = app_with(ARMIES + ["start"], HOME + ["a"], state_dir)
    try:
        app.render()
        assert isinstance(app.stack[-1], DiceResult)
        dice = app.stack[-1].turn["dice"]
        _undo_on_the_device(app)
        assert list(app.console.session.lines) == ARMIES[1:] + ["start"]
        assert isinstance(app.stack[-1], BattleScreen) and app.errors == 0
        app.handle("a")                                 # Fire again
        app.render()
        assert isinstance(app.stack[-1], DiceResult) and app.stack[-1].turn["dice"] == dice
    finally:
        app.console.close()


def test_the_forces_shown_follow_an_undo_and_the_serial_link(state_dir):  # J-5, J-7
    """Forces lists every block's strength as it is now: after an undo of a fire, or a fire over the
    serial link, the strengths shown are not the ones of before (they stayed)."""
    app = app_with(ARMIES + ["start", "fire c_caesar"], HOME + READ + ["b"] + DOWN * 3 + ["a"], state_dir)
    try:
        app.render()
        assert app.stack[-1].title == "Forces"
        _undo_on_the_device(app)
        assert app.stack[-1].title != "Forces" or "Legio 1" not in str(app.stack[-1].rows) \
            or ("Legio 1", "C2 IV") in app.stack[-1].rows
        while app.stack[-1].title == "Forces":
            app.handle("b")
        app.handle("a")                                 # Forces again: Legio 1 at full strength
        app.render()
        assert ("Legio 1", "C2 IV") in app.stack[-1].rows
        assert '"ok":true' in app.serve_line(b"fire c_caesar")
        app.render()
        assert app.stack[-1].title != "Forces" or ("Legio 1", "C2 IV") not in app.stack[-1].rows
    finally:
        app.console.close()


def _year_played(app) -> None:
    """Both hands discard, Caesar plays, then Pompey plays on the device: the reveal (J-18)."""
    from firmware.screens.jc.campaign import HandScreen
    for side in ("caesar", "pompey"):
        hand = app.console.request(f"hand {side}")["hand"]
        assert app.console.request(f"discard {side} {hand[0]}")["ok"]
    hand = app.console.request("hand caesar")["hand"]
    assert app.console.request(f"play caesar {next(c for c in hand if c != 'apollo')}")["ok"]
    app._view_stale = True
    screen = HandScreen("pompey")
    app.push(screen)
    app.render()
    screen._use(app, next(c for c in app.console.request("hand pompey")["hand"] if c != "apollo"))
    app.render()


def test_an_undone_card_play_takes_its_reveal_off_the_screen(state_dir):  # J-18
    app = app_with([NEW, "deal"], HOME, state_dir)
    try:
        _year_played(app)
        assert app.stack[-1].title == "Reveal"
        _undo_on_the_device(app)
        assert app.console.session.view()["cards"]["reveals"] == []
        assert app.stack[-1].title != "Reveal" and app.errors == 0
    finally:
        app.console.close()


def test_an_undone_winter_takes_its_checklist_off_the_screen(state_dir):  # J-19
    from firmware.screens.jc.campaign import ask_winter
    app = app_with([NEW, "control Alexandria caesar"], HOME, state_dir)
    try:
        ask_winter(app)
        app.render()
        app.handle("a")                                 # yes, the winter
        app.render()
        assert app.stack[-1].title.startswith("Winter")
        _undo_on_the_device(app)
        assert not app.stack[-1].title.startswith("Winter") and app.errors == 0
    finally:
        app.console.close()


def test_the_advice_on_a_hit_goes_once_the_hit_is_placed_over_the_serial_link(state_dir):  # J-7, J-14
    """The advice on where a hit goes is for that hit: once the serial link places it, the advice
    goes (it stayed, advising a hit already placed)."""
    app = app_with(TIE, HOME + READ, state_dir)                       # (on the battle: the hit to place)
    try:
        battle = app.stack[-1]
        assert isinstance(battle, BattleScreen)
        while battle.items(app)[battle.cursor].ident != "why":
            app.handle("down")
        app.handle("a")
        app.render()
        assert app.stack[-1].title == "Advice"
        assert '"ok":true' in app.serve_line(b"hit")
        app.render()
        assert app.stack[-1].title != "Advice" and app.errors == 0
    finally:
        app.console.close()


@pytest.mark.parametrize("asked", ["winter", "fight"])
def test_a_question_goes_when_the_serial_link_does_what_it_asks(asked, state_dir):  # J-14, J-19
    """"Winter?" or "Fight to the end?" is open when the serial link plays that step (or another):
    the question goes (A on it played a second winter, or fought the next battle unasked)."""
    from firmware.screens.jc.battle import ask_fight
    from firmware.screens.jc.campaign import ask_winter
    app = app_with(ARMIES + ["start"] if asked == "fight" else [NEW], HOME, state_dir)
    try:
        (ask_fight if asked == "fight" else ask_winter)(app)
        app.render()
        title = app.stack[-1].title
        assert isinstance(app.stack[-1], ConfirmScreen)
        assert '"ok":true' in app.serve_line(b"fight" if asked == "fight" else b"winter")
        app.render()
        assert app.stack[-1].title != title and app.errors == 0
    finally:
        app.console.close()


def test_the_battle_line_and_the_odds_screen_give_the_same_figure():  # J-15; issue 24: odds sum to 100
    """Caesar and Legio 10 against Pompey and Legio 1: the attacker wins 40.49 %. The odds screen
    writes its three figures to sum to 100 (40.5 %, with a decimal: whole, 40 + 16 + 43 is 99); the
    battle's line said 40 %, two figures for one chance. The line now says what the odds screen shows."""
    from firmware.screens.jc.odds import odds_line
    from firmware.screens.widgets import pct
    ctx = home(NEW, "add attacker c_caesar", "add attacker c_leg10", "add defender p_pompeius",
               "add defender p_leg1")
    p = ctx.ask("odds")["attacker_wins"]
    line = odds_line(ctx)
    ctx.press(*DOWN * 3, "a")
    assert isinstance(ctx.top, OddsScreen)
    shown = ctx.texts()
    figure = line.rsplit(" ", 1)[1]
    assert figure != pct(p), (p, figure)               # the case where rounding on its own differs
    assert shown[shown.index("Caesar wins") + 1] == figure, (line, shown)


@pytest.mark.parametrize("lang,wins,line", [("en", "Caesar wins", "Caesar: win {}"), ("ru", "Цезарь победит", "Цезарь: победа {}")])
@pytest.mark.parametrize("armies,figure", [
    # 40.49 / 16.11 / 43.40: whole, 40 + 16 + 43 = 99; the odds screen moved a percent to the largest
    # remainder and said 41 %, the battle's line (beside the pass's 9.6 %) 40.5 %
    (ARMIES, "40.5%"),
    # 32.2 / 26 / 42 sum to 100 whole; the line writes it 32.2 % beside a choice under 10 %: the odds
    # screen said 32 %
    ([NEW, "add attacker c_caesar", "add attacker c_leg10", "add defender p_leg1", "add defender p_leg2"], "32.2%")])
def test_the_odds_screen_says_the_chance_now_as_the_battle_line_does(armies, figure, lang, wins, line):  # J-15
    """One chance, one figure: each figure rounded on its own by one rule (never 41 % for 40.49 %),
    and the odds screen with the precision of the battle's line that writes the same chance."""
    from firmware.screens.jc.home import JcHome
    mark = figure.replace(".", ",") if lang == "ru" else figure
    ctx = FakeCtx(*armies, "start", lang=lang).open(JcHome())
    ctx.press("a")                                                   # the battle: its line
    assert line.format(mark) in ctx.texts(), ctx.texts()
    ctx.open(odds_screen())
    shown = ctx.texts()
    assert shown[shown.index(wins) + 1] == mark, shown
    total = sum(float(t.replace(",", ".")[:-1]) for t in shown if t.endswith("%"))
    assert abs(total - 100) < 1e-9, shown                            # still summing to 100


# -- regrouping after the battle (J-12; the RU summary 3.6 and 3.10) -------------------------------
LAND_REGROUP = {"en": "may regroup: all blocks that won the battle, reserves included",
                "ru": "может осуществить перегруппировку: все блоки, победившие в бою (включая резерв)",
                "uk": "може здійснити перегрупування"}
NAVIS_REGROUP = {"en": "navis that won the battle may move to an adjacent friendly or vacant sea",
                 "ru": "победившие в бою, могут перейти в прилегающее дружественное или свободное море",
                 "uk": "що перемогли в бою, можуть перейти до прилеглого дружнього або вільного моря"}


def _over_text(ctx: FakeCtx) -> str:
    """Every row of the result screen, scrolled through with the keys (down) from its first."""
    from firmware.screens.jc.over import OverScreen
    screen = OverScreen()
    ctx.open(screen)
    ctx.render()
    seen = [r for r in ctx.texts() if r.strip()]              # the title bar and the big name first
    rows = screen.rows(ctx.view())                            # type: ignore[arg-type]
    reached: set[int] = set()                                 # (by place: two rows may read alike)
    for _i in range(30):
        ctx.render()
        shown = screen.SHORT if screen.scroll.top == 0 else screen.LONG
        reached |= set(range(screen.scroll.top, min(len(rows), screen.scroll.top + shown)))
        ctx.press("down")
    assert ctx.top is screen and reached == set(range(len(rows)))     # the keys scroll it, never close it
    return " ".join(seen[:3] + rows)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_result_says_what_the_winner_may_do_now(lang):  # J-12, J-13
    """J-12 (RU summary 3.6 «Когда бой завершен, победивший игрок может осуществить перегруппировку.
    Все блоки, победившие в бою (включая резерв) могут передвинуться в любой/любые прилегающие
    дружественный или свободный город/города» and 3.10 for ships): the result screen said who held the
    field and never that the winner may regroup now. Now it says so, in whole sentences, for the
    winner's land blocks and for its navis (each only where the winner has such blocks left)."""
    land = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1", "fight", lang=lang)
    said = _over_text(land)
    winner = land.view()["battle"]["winner"]
    names = {"en": {"caesar": "Caesar may", "pompey": "Pompey may"}, "ru": {"caesar": "Цезарь может", "pompey": "Помпей может"},
             "uk": {"caesar": "Цезар може", "pompey": "Помпей може"}}[lang]
    assert LAND_REGROUP[lang] in said and names[winner] in said, said
    assert NAVIS_REGROUP[lang] not in said
    sea = FakeCtx(NEW, "add attacker c_nav4", "add defender p_nav1", "fight", lang=lang)   # a sea battle (J-11)
    said = _over_text(sea)
    assert NAVIS_REGROUP[lang] in said and LAND_REGROUP[lang] not in said, said
    port = FakeCtx(NEW, "add attacker c_leg10 strength=3", "add attacker c_nav4 strength=1 reserve=1",
                   "add defender p_aux1 strength=1", "fight", lang=lang)      # a port attacked by land and sea
    assert port.view()["battle"]["winner"] == "caesar"
    said = _over_text(port)
    assert LAND_REGROUP[lang] in said and NAVIS_REGROUP[lang] in said, said


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_result_no_longer_offers_the_regroup_once_a_winter_has_passed(lang):  # J-12, J-19
    """The regroup (J-12) is the winner's move right after the battle: the result screen still said
    «may regroup» after the winter (J-19) came, when the blocks had gone to winter quarters, been
    disbanded or released. The winter now keeps which ended battle it followed (state.winter.battle),
    so the screen can tell; a winter before the battle (then fought in the new year) keeps it."""
    after = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1", "fight", "winter", lang=lang)
    said = _over_text(after)
    assert after.view()["battle"]["phase"] == "over" and LAND_REGROUP[lang] not in said, said
    assert after.view()["winter"]["battle"] == after.view()["battle"]["number"]
    before = FakeCtx(NEW, "winter", "add attacker c_leg10", "add defender p_leg1", "fight", lang=lang)
    assert before.view()["winter"]["battle"] is None
    assert LAND_REGROUP[lang] in _over_text(before)
    undone = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1", "fight", "winter", "undo", lang=lang)
    assert LAND_REGROUP[lang] in _over_text(undone)           # the winter taken back: the moment is back


def test_the_end_of_a_battle_says_the_regroup_where_it_says_the_end():  # J-12, J-13
    """Said where the end is said (the notice of the battle screen, the fire's result), with no
    press more: the result screen is not the only place the player learns it."""
    from firmware.screens.jc.battle import BattleScreen
    ctx = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1").open(BattleScreen())
    ctx.render()
    ctx.run("fight")                               # (the serial link's: said on its last fire's page)
    ctx.render()
    said = " ".join(ctx.top.paras())
    assert "Battle over" in said and "Caesar may regroup: all blocks" in said, said
    ctx = home(NEW, "add attacker c_leg10 strength=3", "add defender p_leg1 strength=1", "start").press("a")
    for _i in range(20):                           # fire until the battle ends on a fire's result
        if ctx.view()["battle"]["phase"] == "over":
            break
        if isinstance(ctx.top, DiceResult):
            ctx.press("a")
            continue
        ctx.press("a")
    assert isinstance(ctx.top, DiceResult), type(ctx.top).__name__
    said = " ".join(ctx.top.paras(ctx.view()["battle"]["blocks"]))
    assert "Battle over" in said and "Caesar may regroup" in said, said


def test_the_result_goes_with_an_undo_and_comes_back_after_a_power_cut(state_dir):  # J-12, J-13
    """An undo that takes the end back took the result screen off no more: it stayed, saying
    "Nobody" won a battle of 0 rounds. Now it goes; after a power cut the result (regroup too)
    reads as before."""
    from firmware.screens.jc.over import OverScreen
    lines = [WON, "add attacker c_leg10", "add defender p_leg1", "fight"]
    app = app_with(lines, HOME + READ + ["a", "a"], state_dir)   # Battle → Result
    try:
        assert isinstance(app.stack[-1], OverScreen)
        app.handle("b:hold")
        app.render()
        app.handle("a")                                          # undo: the end taken back
        app.render()
        assert app.view()["battle"]["phase"] != "over"
        assert not any(isinstance(s, OverScreen) for s in app.stack), app.stack
        assert app.console.request("fight")["ok"]
    finally:
        app.console.close()
    from firmware.screens.jc.battle import _ANNOUNCED
    _ANNOUNCED.clear()                                           # a power cut: a new process has said nothing yet
    ended = app_with(lines[:-1], HOME + ["a"], state_dir / "ended")      # the battle screen, in the set-up
    try:
        ended.render()
        assert ended.run("fight")["ok"]                           # the end, said on its last fire's page
        ended.render()
        assert isinstance(ended.stack[-1], DiceResult) and any("may regroup" in r for r in ended.stack[-1].paras())
        ended.handle("b:hold")
        ended.render()
        ended.handle("a")                                        # undo: the end and its page taken back
        ended.render()
        assert isinstance(ended.stack[-1], BattleScreen) and ended.view()["battle"]["phase"] == "setup"
    finally:
        ended.console.close()
        _ANNOUNCED.clear()
    again = app_with([], HOME + ["a", "a"], state_dir)           # Battle → Result (the same roll: read)
    try:
        assert isinstance(again.stack[-1], OverScreen)
        said = " ".join(again.stack[-1].rows(again.view()))
        assert said.startswith("The attacker wins. Caesar may regroup: all blocks"), said
    finally:
        again.console.close()


# -- the last roll, said again after a power cut until it is closed ------------------------------------
LEADER_FALLS = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_pompeius strength=1",
                "start"]


def _writes(app) -> list[str]:
    """Every setting the App writes from now on (its one way to the settings: ``set_setting``)."""
    written: list[str] = []
    keep = app.set_setting

    def counted(key: str, value: str):
        written.append(key)
        return keep(key, value)
    app.set_setting = counted
    return written


@pytest.mark.parametrize("lines, on_battle", [
    ([*ARMIES, "start"], True),                                   # round 1: which block acts (J-5)
    (TIE, True),                                                  # a tied hit for its owner to place (J-7)
    ([*ARMIES], False),                                           # the set-up: the home (Add attacker…)
    ([WON, "add attacker c_leg10", "add defender p_leg1", "fight"], False)])      # over (J-13): the home
def test_a_battle_being_fought_reopens_on_its_decision(state_dir, lines, on_battle):  # J-5, J-7, J-14
    """The power goes in the middle of a battle: the game reopened on its home, the decision the
    table was making (which block acts, where a hit goes) one more press away (Battle), and closing
    the roll said again led to the home too. It reopens on the battle screen, the roll not closed
    said over it; B from it is the home. Before round 1, or with the battle over, on the home."""
    app = app_with(lines, [], state_dir)
    app.console.close()                                           # (the table's link played it: the power goes)
    back = app_with([], HOME, state_dir)
    try:
        back.render()
        if isinstance(back.stack[-1], DiceResult):                # the last roll, not closed: said again
            back.handle("b")
            back.render()
        top = back.stack[-1]
        if on_battle:
            assert isinstance(top, BattleScreen), type(top).__name__
            assert back.view()["battle"]["decision"] is not None and top.items(back)
            back.handle("b")
            back.render()
        assert isinstance(back.stack[-1], JcHome), type(back.stack[-1]).__name__
    finally:
        back.console.close()


def test_a_roll_shown_when_the_power_went_is_shown_again_until_it_is_closed(state_dir):  # J-1, J-7
    """Fire on the device: the dice and where the hits went are on the panel when the power goes.
    Started again, the game opened on its home, the roll gone unseen (the battle log has it, but
    nobody at the table read it, nor which block to reduce). It is said again — and again, until
    closed: closing it is its one write; opening, scrolling and reading it write nothing."""
    app = app_with([*ARMIES, "start"], HOME + ["a"], state_dir)           # (on the battle) Fire: the dice
    try:
        shown = app.stack[-1]
        assert isinstance(shown, DiceResult)
        dice, rows = list(shown.turn["dice"]), shown.paras()
        assert shown.turn["applied"], rows                              # a hit went somewhere
    finally:
        app.console.close()                                             # the power goes
    for _again in range(2):                                             # not closed: said again
        back = app_with([], [], state_dir)
        try:
            written = _writes(back)
            back.render()
            back.handle("a")                                            # Resume
            back.render()
            top = back.stack[-1]
            assert isinstance(top, DiceResult), type(top).__name__
            assert list(top.turn["dice"]) == dice and top.paras() == rows
            for key in ("down", "up", "down"):                          # read: nothing written
                back.handle(key)
                back.render()
            assert written == [] and isinstance(back.stack[-1], DiceResult)
        finally:
            back.console.close()
    closing = app_with([], ["a"], state_dir)
    try:
        written = _writes(closing)
        closing.handle("a")                                             # closed
        closing.render()
        assert isinstance(closing.stack[-1], BattleScreen) and written == ["jc.roll"]     # on to the next decision
        assert isinstance(closing.stack[-2], JcHome)
    finally:
        closing.console.close()
    read = app_with([], ["a"], state_dir, lang="ru")
    try:
        assert isinstance(read.stack[-1], BattleScreen), type(read.stack[-1]).__name__    # read: not again, any language
    finally:
        read.console.close()


TIED_LEADER = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_pompeius strength=1",
               "add defender p_leg1 strength=1", "start", "pass p_pompeius", "pass p_leg1", "fire c_leg10 dice=1,6,6"]


def test_a_leader_killed_by_the_owners_pick_of_a_tied_hit_is_said_until_closed(state_dir):  # J-2, J-7, J-17
    """One hit on two blocks at I, Pompeius and Legio 1: Pompey picks where it goes (J-7). Picked
    on the device, the leader killed (a trophy for Caesar) was a short notice only, and the roll had
    been read before the pick: a power cut then took the kill off the table unseen. Now the pick's
    events come on the roll's page (dice, where the hits went, what the rules did), said again on
    opening the game until it is closed — in any language; closed, its one write."""
    app = app_with(TIED_LEADER, HOME + READ, state_dir)               # the fire's page read: the battle
    try:
        assert isinstance(app.stack[-1], BattleScreen) and app.view()["battle"]["decision"]["kind"] == "hit"
        app.render()                                                    # (the pick starts on Legio 1)
        app.stack[-1].cursor = app.view()["battle"]["decision"]["choices"].index("p_pompeius")
        app.handle("a")                                                 # Pompeius takes it
        app.render()
        top = app.stack[-1]
        assert app.console.session.lines[-1] == "hit p_pompeius"
        assert isinstance(top, DiceResult) and top.turn["dice"] == [1, 6, 6], type(top).__name__
        said = " ".join(top.paras())
        assert "Pompeius is killed: a trophy for Caesar." in said and app.message is None, said
    finally:
        app.console.close()                                             # the power goes on it
    back = app_with([], [], state_dir, lang="ru")
    try:
        written = _writes(back)
        back.render()
        back.handle("a")                                                # Resume
        back.render()
        top = back.stack[-1]
        assert isinstance(top, DiceResult), type(top).__name__
        assert "Помпей убит: трофей получает Цезарь." in " ".join(top.paras()), top.paras()
        back.handle("b")                                                # closed
        back.render()
        assert written == ["jc.roll"]
    finally:
        back.console.close()
    read = app_with([], ["a"], state_dir)
    try:
        assert isinstance(read.stack[-1], BattleScreen), type(read.stack[-1]).__name__    # Legio 1 fights on
    finally:
        read.console.close()


def _log_after_a_restart(state_dir, lang):
    """The log's last entry (``log 1``) as a new program on ``state_dir`` says it, read back from storage."""
    back = app_with([], [], state_dir, lang=lang)
    try:
        return back.console.request("log 1")["log"]
    finally:
        back.console.close()


@pytest.mark.parametrize("lang, undone", [
    ("en", "Undone: Pompey put the hit on Pompeius. Pompey chooses again which block takes the hit."),
    ("ru", "Отменено: Помпей отдал хит блоку «Помпей». Помпей снова выбирает, какой блок получит хит."),
    ("uk", "Скасовано: Помпей віддав хіт блоку «Помпей». Помпей знову обирає, який блок отримає хіт.")])
def test_an_undone_pick_of_a_tied_hit_says_the_pick_was_undone_not_the_fire(state_dir, lang, undone):  # J-7, undo
    """One hit on Pompeius and Legio 1, both at I: Pompey picks Pompeius (J-7), then holds B. The undo
    said «Отменено: Раунд 1 Легион 10 (C4, III): атакует 1 6 6, 1 хит (Помпей I→-: убит).», which
    reads as if the fire was undone; the fire stands (its dice, J-1) and only the pick goes back.
    The notice names the pick and the block, and says the owner chooses again, as the question
    comes back; after a restart the log says it the same way."""
    app = app_with(TIED_LEADER, HOME + READ, state_dir, lang=lang)
    try:
        app.render()                                                    # (the pick starts on Legio 1)
        app.stack[-1].cursor = app.view()["battle"]["decision"]["choices"].index("p_pompeius")
        app.handle("a")                                                 # Pompeius takes it
        app.render()
        app.handle("b")                                                 # the roll's page closed
        app.render()
        app.handle("b:hold")
        app.render()
        app.handle("a")                                                 # yes, take it back
        app.render()
        top = app.stack[-1]
        assert type(top).__name__ == "TextScreen" and top.paras == [undone], vars(top)
        b = app.view()["battle"]
        assert b["decision"]["kind"] == "hit" and b["decision"]["choices"] == ["p_pompeius", "p_leg1"]
        assert app.console.session.lines[-1] == "fire c_leg10 dice=1,6,6"       # the fire stands
    finally:
        app.console.close()
    assert _log_after_a_restart(state_dir, lang) == [undone]


def test_the_pick_of_a_tied_hit_starts_on_the_careful_block_not_the_leader_listed_first(state_dir):  # J-7, J-14, J-2, J-17
    """One hit on Pompeius and Legio 1, both at I (J-7: the owner's pick). The cursor started on the
    first block listed, Pompeius: one careless A killed him, gone for good and a trophy for Caesar
    (J-2, J-17). It starts on the decision's careful pick (J-14's choice among the blocks that are
    not leaders): A puts the hit on Legio 1; the leader is a deliberate move away."""
    app = app_with(TIED_LEADER, HOME + READ, state_dir)
    try:
        app.render()
        d = app.view()["battle"]["decision"]
        assert d["choices"] == ["p_pompeius", "p_leg1"] and d["default"] == "p_leg1"
        assert app.stack[-1].cursor == 1
        app.handle("a")
        assert app.console.session.lines[-1] == "hit p_leg1"
    finally:
        app.console.close()


def test_one_hold_of_b_takes_back_a_fire_of_the_fight_with_the_hit_j14_placed(state_dir):  # J-7, J-14, undo
    """Fight to the end with the table's dice: Legio 10's one hit falls on Pompeius or Legio 1, both
    at I (J-7), and J-14 places it (on the legion: the leader last). The player entered the dice; the
    device's placing of the hit is part of that fire, made at the same press (``auto dice=``: the fire
    and J-14's hits, one step), not at the press that closes the roll's page: one hold of B after
    that page takes back the fire and the hit together (the dice were mistyped: the legion stands
    again, Legio 10 is to fire), never the hit alone with the fire left on the table."""
    lines = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_pompeius strength=1",
             "add defender p_leg1 strength=1"]
    app = app_with(lines, HOME + DOWN * 4 + ["a", YES], state_dir)    # Fight to the end? yes: the dice asked
    try:
        for _fire in range(3):                                            # Pompeius, Legio 1, Legio 10 fire a 1
            app.render()
            assert type(app.stack[-1]).__name__ == "JcDiceEntry", app.stack[-1]
            app.handle("a")                                               # the dice entered
            app.render()
            assert isinstance(app.stack[-1], DiceResult), app.stack[-1]
            app.handle("b")                                               # its page closed: the next fire
        app.render()
        fired = list(app.console.session.lines)
        assert fired[-1].startswith("auto dice=") and fired.count(fired[-1]) == 3, fired
        leg1 = next(x for x in app.view()["battle"]["blocks"] if x["key"] == "p_leg1")
        assert leg1["status"] == "eliminated"                             # J-14: the legion, not the leader
        app.handle("b:hold")
        app.render()
        say_yes(app)                                                   # yes, take it back
        app.render()
        assert list(app.console.session.lines) == fired[:-1]              # the fire and its hit: one step
        b = app.view()["battle"]
        assert [(x["key"], x["status"]) for x in b["blocks"] if x["side"] == "pompey"] == \
            [("p_pompeius", "fight"), ("p_leg1", "fight")]
        assert b["decision"]["kind"] == "turn" and b["decision"]["blocks"] == ["c_leg10"], b["decision"]
    finally:
        app.console.close()


def test_an_undo_in_the_middle_of_the_fight_lands_on_the_battle_being_fought(state_dir):  # J-5, J-7, J-14, undo
    """Fight to the end with the table's dice, from the home: Pompeius's fire entered (its hit
    placed by J-14), Legio 1's dice asked. The dice were mistyped: one hold of B takes the fire
    back — the device landed on the home, one press (Battle) from the decision the battle waits
    for. It lands on the battle screen while the battle is fought; the fight's end still closes to
    the home (a battle over opens on it)."""
    from firmware.screens.jc.over import OverScreen
    lines = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_pompeius strength=1",
             "add defender p_leg1 strength=1"]
    app = app_with(lines, HOME + DOWN * 4 + ["a", YES, "a"], state_dir)   # Fight to the end? yes: Pompeius's dice
    try:
        app.render()
        assert isinstance(app.stack[-1], DiceResult), app.stack[-1]
        app.handle("b")                                                   # its page closed: Legio 1's dice asked
        app.render()
        assert type(app.stack[-1]).__name__ == "JcDiceEntry", app.stack[-1]
        _undo_on_the_device(app)                                          # Pompeius's fire taken back
        assert app.view()["battle"]["phase"] == "fighting"
        assert isinstance(app.stack[-1], BattleScreen), app.stack
        assert app.stack[-1].title.startswith("Round 1"), app.stack[-1].title
        app.handle("b")
        app.render()
        assert isinstance(app.stack[-1], JcHome), app.stack                # (one battle screen, not two)
    finally:
        app.console.close()
    ended = app_with(lines, HOME + DOWN * 4 + ["a", YES], state_dir / "ended")   # fought to its end
    try:
        for _press in range(60):
            ended.render()
            top = type(ended.stack[-1]).__name__
            if top not in ("JcDiceEntry", "DiceResult"):
                break
            ended.handle("a" if top == "JcDiceEntry" else "b")            # the dice entered; their page closed
        assert isinstance(ended.stack[-1], OverScreen), ended.stack
        ended.handle("b")
        ended.render()
        assert isinstance(ended.stack[-1], JcHome), ended.stack            # not the battle screen of a battle over
    finally:
        ended.console.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_block_named_after_the_word_block_is_quoted_everywhere(lang):  # J-7
    """A block's name after the word «блок» is quoted, as in «Блок «Легион 8» уничтожен…» (some 36
    sentences): the pick of a hit (J-7), its undo and its question, and the advice said «отдаёт хит
    блоку Легион 8» (7 sentences), the name run into the sentence. One form in every sentence."""
    import re
    from scripts import i18n as catalogs
    _, entries = catalogs.read_po(catalogs.LOCALE / lang / "LC_MESSAGES" / "jc.po")
    one = r"(?i)\bблок(?:у|а|ом|е|і)?\s+"                # one block (not «блоков {}»: a side's, «блоков Цезаря»)
    bare = [m for e in entries.values() for m in e.msgstr if re.search(one + r"\{", m) and m != "Блок {}"]
    assert not bare, bare                                  # («Блок {}»: a nameless block's own name, J-7)
    quoted = [m for e in entries.values() for m in e.msgstr if re.search(one + r"«\{", m)]
    assert len(quoted) > 40, len(quoted)


@pytest.mark.parametrize("lang, asked", [
    ("en", ["Pompey put the hit on", "Pompeius; the dice", "stay."]),
    ("ru", ["Помпей отдал хит", "блоку «Помпей»;", "кубики остаются."]),
    ("uk", ["Помпей віддав хіт", "блоку «Помпей»;", "кубики лишаються."])])
def test_the_undo_question_of_a_pick_names_the_pick_on_one_page(state_dir, lang, asked):  # J-7, undo
    """Hold B after Pompey put a tied hit on Pompeius (J-7): the question said «Take back: Pompey puts
    the hit on Pompeius. Round 1 Legio 10 (C4, III): fires 1 6 6, 1 hit (Pompeius I→-: killed).», six
    rows, four pages of a three-row question, the fire repeated after the pick. It names the pick,
    its block and that the dice stay (undo takes back the pick, not the fire): one page."""
    app = app_with(TIED_LEADER, HOME + READ, state_dir, lang=lang)
    try:
        app.render()
        app.stack[-1].cursor = app.view()["battle"]["decision"]["choices"].index("p_pompeius")
        app.handle("a")                                                 # Pompeius takes it
        app.render()
        app.handle("b")                                                 # the roll's page closed
        app.render()
        app.handle("b:hold")
        app.render()
        top = app.stack[-1]
        assert type(top).__name__ == "UndoQuestion" and top.rows == asked, top.rows
    finally:
        app.console.close()


# A turn's two plays (J-18): Caesar's card face down, then Pompey's, which reveals both.
PLAYED = ["new jc-battle seed=3", "deal", "discard caesar 2/1", "discard pompey 1/2", "play caesar 3/2",
          "play pompey mars"]


def _undo_the_reveal(state_dir, lang):
    """Reopen the game stored in ``state_dir`` (its sentences read back from storage), close the
    reveal said again, hold B: (the question's rows, the notice after A, the app) — the caller closes it."""
    app = app_with([], HOME + READ + ["b:hold"], state_dir, lang=lang)
    app.render()
    question = app.stack[-1]
    assert type(question).__name__ == "UndoQuestion", type(question).__name__
    rows = list(question.rows)
    say_yes(app)                                                     # yes, take it back
    app.render()
    notice = app.stack[-1]
    assert type(notice).__name__ == "TextScreen", type(notice).__name__
    return rows, notice.paras, app


@pytest.mark.parametrize("lang, asked, undone", [
    ("en", "Pompey played Mars: the card goes back to his hand, Caesar's stays face down.",
     "Undone: Pompey played Mars (turn 1). The card goes back to his hand; Caesar's card stays played face "
     "down until Pompey plays again."),
    ("ru", "Помпей сыграл «Марс»: карта вернётся в руку, карта Цезаря останется рубашкой вверх.",
     "Отменено: Помпей сыграл «Марс» (ход 1). Карта возвращается ему в руку; карта Цезаря остаётся сыгранной "
     "рубашкой вверх, пока Помпей не сыграет снова."),
    ("uk", "Помпей зіграв «Марс»: карта повернеться до руки, карта Цезаря лишиться сорочкою догори.",
     "Скасовано: Помпей зіграв «Марс» (хід 1). Карта повертається йому в руку; карта Цезаря лишається зіграною "
     "сорочкою догори, доки Помпей не зіграє знову.")], ids=["en", "ru", "uk"])
def test_undoing_a_reveal_names_the_play_it_takes_back(state_dir, lang, asked, undone):  # J-18, undo
    """Caesar plays 3/2 face down, then Pompey Mars: both are revealed (J-18). Undo takes back
    Pompey's play alone: Mars goes back to his hand, Caesar's card stays played. The question said
    «Take back: Turn 1: Caesar plays Move 3, Levy 2, Pompey Mars. Player 1: Pompey.» and the notice
    «Скасовано: Хід 1: Цезар грає …, Помпей — …», the whole reveal, as if both cards went back; they
    name Pompey's play of Mars and that Caesar's stays, in the game's words; after a restart the log
    says it the same way."""
    app_with(PLAYED, [], state_dir, lang=lang).console.close()
    rows, paras, app = _undo_the_reveal(state_dir, lang)
    try:
        assert " ".join(rows) == asked, rows
        assert paras == [undone], paras
        caesar, pompey = (app.console.request(f"hand {s}") for s in ("caesar", "pompey"))
        assert caesar["played"] == "3/2" and "3/2" not in caesar["hand"]       # Caesar's card stays played
        assert pompey["played"] is None and "mars" in pompey["hand"]           # Mars is back in Pompey's hand
        assert app.console.session.lines[-1] == "play caesar 3/2"
    finally:
        app.console.close()
    assert _log_after_a_restart(state_dir, lang) == [undone]


def test_undoing_a_reveal_names_who_played_last_whichever_side_it_was(state_dir):  # J-18, undo
    """Pompey plays first, Caesar last (Apollo is no first card of a year: Caesar's Mercury): the
    undo names Caesar's play, the card that goes back, whoever is player 1."""
    lines = [*PLAYED[:4], "play pompey mars", "play caesar mercury"]
    app = app_with(lines, HOME + READ + ["b:hold"], state_dir)
    try:
        app.render()
        assert " ".join(app.stack[-1].rows) == "Caesar played Mercury: the card goes back to his hand, Pompey's stays face down."
        say_yes(app)
        app.render()
        assert app.stack[-1].paras == ["Undone: Caesar played Mercury (turn 1). The card goes back to his hand; "
                                       "Pompey's card stays played face down until Caesar plays again."]
        assert app.console.request("hand pompey")["played"] == "mars"
    finally:
        app.console.close()


def test_a_reveal_stored_by_an_older_legatus_is_undone_as_the_card_played_last(state_dir, monkeypatch):  # J-18
    """A reveal stored before it kept who played last: its undo cannot name the player, so it says
    that the card played last goes back and the other stays (not the whole reveal again); the
    session replays as it was stored."""
    from engine.jc import cards
    said = cards.reveal_sentence
    monkeypatch.setattr(cards, "reveal_sentence", lambda rec, last=None: said(rec))     # as an older Legatus said it
    app_with(PLAYED, [], state_dir).console.close()
    monkeypatch.undo()
    rows, paras, app = _undo_the_reveal(state_dir, "en")
    try:
        assert " ".join(rows) == ("The reveal of turn 1: the card played last goes back to its player's hand, "
                                  "the other stays face down.")
        assert paras == ["Undone: the reveal of turn 1. The card played last goes back to its player's hand; "
                         "the other stays played face down."]
        assert app.console.request("hand pompey")["played"] is None
    finally:
        app.console.close()


def _stored_before_ties(monkeypatch) -> None:
    """New games stored as an older Legatus stored them: without ``ties=partial`` (every tie asked)."""
    from firmware import console_session, session
    monkeypatch.setattr(console_session, "with_language_options",
                        lambda line, lang: session.with_language_options(line, lang).replace(" ties=partial", ""))


def test_a_pick_that_ends_the_battle_is_said_with_its_roll_until_closed(state_dir, monkeypatch):  # J-7, J-12, J-13
    """Two hits on Pompeius and Legio 1, both at I: Pompey picks the first (J-7), the second takes
    the other: his side is eliminated, the battle over. That end was a page of its own, never said
    again after a power cut; now it is on the roll's page with the winner's regroup, said again
    until closed. (A game stored before ``ties=partial``: a game started now is not asked this pick,
    :func:`test_a_tie_that_cannot_change_the_end_is_not_asked_and_its_roll_says_why`.)"""
    _stored_before_ties(monkeypatch)
    lines = [*TIED_LEADER[:-1], "fire c_leg10 dice=1,1,6"]
    app = app_with(lines, HOME + READ, state_dir)
    try:
        app.render()
        app.stack[-1].cursor = app.view()["battle"]["decision"]["choices"].index("p_leg1")
        app.handle("a")
        app.render()
        assert app.view()["battle"]["phase"] == "over"
        top = app.stack[-1]
        assert isinstance(top, DiceResult) and top.turn["dice"] == [1, 1, 6], type(top).__name__
        assert not any(type(s).__name__ == "EndPage" for s in app.stack), app.stack
    finally:
        app.console.close()
    back = app_with([], ["a"], state_dir)
    try:
        top = back.stack[-1]
        assert isinstance(top, DiceResult), type(top).__name__
        said = " ".join(top.paras())
        assert "Pompeius is killed: a trophy for Caesar." in said and "Caesar may regroup" in said, said
    finally:
        back.console.close()


@pytest.mark.parametrize("lang, settled, killed", [
    ("en", "Pompeius, Legio 1: the 2 hits end the same in any order; no choice to make.",
     "Pompeius is killed: a trophy for Caesar."),
    ("ru", "Помпей, Легион 1: 2 хита в любом порядке дают один итог — выбирать нечего.",
     "Помпей убит: трофей получает Цезарь."),
    ("uk", "Помпей, Легіон 1: 2 хіти в будь-якому порядку дають той самий підсумок — обирати нічого.",
     "Помпей загинув: трофей отримує Цезар.")])
def test_a_tie_that_cannot_change_the_end_is_not_asked_and_its_roll_says_why(state_dir, lang, settled, killed):  # J-7, J-13
    """Two hits on Pompeius and Legio 1, both at I: whichever Pompey picked first, both go (J-7) and
    the battle is over (J-13), yet the device asked "Who takes the hit?" — a press that changed
    nothing. Now the fire places both hits itself, and its page says why before the leader killed
    and the end; the battle screen never asks."""
    app = app_with([*TIED_LEADER[:-1], "fire c_leg10 dice=1,1,6"], HOME, state_dir, lang=lang)
    try:                                                                # (the table's link fired)
        b = app.view()["battle"]
        assert b["phase"] == "over" and b["decision"] is None
        assert [x["status"] for x in b["blocks"] if x["side"] == "pompey"] == ["killed", "eliminated"]
        top = app.stack[-1]
        assert isinstance(top, DiceResult) and top.turn["dice"] == [1, 1, 6], type(top).__name__
        said = top.paras()
        assert settled in said and said.index(settled) < said.index(killed), said
        assert b["log"][-3:-1] == [settled, killed], b["log"]          # the battle log says it in its place
    finally:
        app.console.close()


LEVEL_AT_III = ["new jc-battle dice=physical seed=1", "add attacker c_caesar", "add attacker c_leg10 strength=3",
                "add defender p_leg3", "start", "pass c_caesar", "fire p_leg3 dice=1,1,6"]


@pytest.mark.parametrize("lang, said", [
    ("en", ["Caesar, Legio 10: III→II in any order."]),
    ("ru", ["Цезарь, Легион 10: III→II, выбора нет."]),
    ("uk", ["Цезар, Легіон 10: III→II, без вибору."])])
def test_a_tie_of_one_hit_each_is_one_row_and_its_fire_one_page(state_dir, lang, said):  # J-7
    """Caesar and Legio 10 at III take Legio 3's 2 hits: each goes to II whichever is first (J-7,
    ``ties=partial``). Its page said «Цезар III→II», «Легіон 10 III→II» and then the log's «Цезар,
    Легіон 10: 2 хіти в будь-якому порядку дають той самий підсумок — обирати нічого.»: 3 pages,
    the fire 4 presses. Now one sentence on one page: A closes it (the fire: 2 presses); the battle
    log keeps the console's long sentence (docs/protocol/jc.md)."""
    app = app_with(LEVEL_AT_III, HOME, state_dir, lang=lang)
    try:
        top = app.stack[-1]
        assert isinstance(top, DiceResult) and top.turn["dice"] == [1, 1, 6], type(top).__name__
        assert top.paras(app.view()["battle"]["blocks"]) == said
        assert len(top.rows()) <= DiceResult.ROOM, top.rows()
        app.handle("a")
        app.render()
        assert isinstance(app.stack[-1], BattleScreen), type(app.stack[-1]).__name__
        log = app.view()["battle"]["log"]
        assert any("any order" in line or "порядк" in line for line in log), log
    finally:
        app.console.close()


PARTIAL_AT_III = ["new jc-battle dice=physical seed=1", "add attacker c_caesar", "add defender p_leg1 strength=3",
                  "add defender p_leg3 strength=3", "add defender p_pompeius strength=2", "start",
                  "fire c_caesar dice=1,1,1"]


@pytest.mark.parametrize("lang, said, picked", [
    ("en", "Legio 1, Legio 3: III→II; 1 more: Pompey picks.", "Legio 1, Legio 3: III→II in any order."),
    ("ru", "Легион 1, Легион 3: III→II; ещё 1: выбор Помпея.", "Легион 1, Легион 3: III→II, выбора нет."),
    ("uk", "Легіон 1, Легіон 3: III→II; ще 1: обирає Помпей.", "Легіон 1, Легіон 3: III→II, без вибору.")])
def test_a_partial_tie_is_one_notice_and_its_fire_two_pages(state_dir, lang, said, picked):  # J-7
    """Caesar's 3 hits on Legio 1 and Legio 3 at III and Pompeius at II: both legions go to II
    whichever is first, then one of the three at II is Pompey's pick (J-7, ``ties=partial``). Its
    page said «Легион 1 III→II», «Легион 3 III→II», «ещё 1: выбор Помпея» and the log's «Легион 1,
    Легион 3: первые 2 хита в любом порядке дают один итог.» after the pick it announced: 7 rows,
    4 pages, 4 presses (en, uk too). Now one sentence, 3 rows: 2 pages, 2 presses; the roll (``state.battle.roll``)
    names the tied blocks and the hits left to the owner. Once picked, the page said again names the
    level's hits as settled and the pick on its own row."""
    app = app_with(PARTIAL_AT_III, HOME, state_dir, lang=lang)
    try:
        roll = app.view()["battle"]["roll"]
        assert roll["settled"] == {"side": "pompey", "blocks": ["p_leg1", "p_leg3"], "first": 0, "hits": 2,
                                   "asked": 1}, roll
        top = app.stack[-1]
        assert isinstance(top, DiceResult) and top.turn["dice"] == [1, 1, 1], type(top).__name__
        blocks = app.view()["battle"]["blocks"]
        assert top.paras(blocks) == [said]
        assert len(top.rows(blocks)) <= 2 * DiceResult.ROOM - 1, top.rows(blocks)
        presses = 0
        while isinstance(app.stack[-1], DiceResult):
            app.render()
            app.handle("a")
            presses += 1
            assert presses < 9
        app.render()
        assert presses == 2 and isinstance(app.stack[-1], BattleScreen), (presses, type(app.stack[-1]).__name__)
        d = app.view()["battle"]["decision"]
        assert d["kind"] == "hit" and d["left"] == 1 and sorted(d["choices"]) == ["p_leg1", "p_leg3", "p_pompeius"]
        assert app.console.request("hit p_leg1")["ok"]
        roll = app.view()["battle"]["roll"]
        rows = DiceResult(roll["turn"], events=list(roll["events"]), settled=roll["settled"]).paras(
            app.view()["battle"]["blocks"])
        assert len(rows) == 2 and rows[0] == picked and rows[1].endswith("II→I"), rows
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_fire_that_ends_a_battle_reads_its_end_four_rows_a_page(state_dir, lang):  # J-12, J-13
    """Caesar's last fire eliminates Legio 1 (J-13): its page says the hit, the end and the winner's
    regroup (J-12, RU summary 3.6) — 22 rows in Russian, read two rows a page under the dice: 11
    pages, 11 presses to close that one fire, on every battle's last fire (uk, en alike). Past its
    first page the dice, seen already, make room for four rows, as the end's own page does: every
    row still shown, at most 6 presses; up (row by row) brings the dice back."""
    app = app_with(["new jc-battle dice=physical seed=5", "add attacker c_caesar", "add defender p_leg1 strength=1",
                    "start", "fire c_caesar dice=1,6,6"], HOME, state_dir, lang=lang)
    try:
        top = app.stack[-1]
        assert isinstance(top, DiceResult) and app.view()["battle"]["phase"] == "over", type(top).__name__
        rows = top.rows(app.view()["battle"]["blocks"])
        assert len(rows) > 2 * DiceResult.ROOM, rows
        seen: set[str] = set()
        presses = 0
        while isinstance(app.stack[-1], DiceResult):
            seen.update(text for _x, _y, text, _font in drawn(app))
            if presses == 1:                              # up, row by row: the first page, with its dice, again
                back = app.stack[-1].scroll.top
                for _ in range(back):
                    app.handle("up")
                    app.render()
                assert app.stack[-1].scroll.top == 0 and back <= 2, back
                for _ in range(back):
                    app.handle("down")
                    app.render()
                assert app.stack[-1].scroll.top == back
            app.handle("a")
            presses += 1
            assert presses < 20
        assert set(rows) <= seen, sorted(set(rows) - seen)
        assert presses <= 6, presses
    finally:
        app.console.close()


def test_a_roll_said_again_brings_what_the_rules_did_with_it(state_dir):  # J-2, J-12, J-13, J-17
    """The fire that kills Pompeius (a trophy for Caesar) and ends the battle: after a power cut
    the roll is said with the leader killed, the end and the winner's regroup, as when it was made."""
    app = app_with([*LEADER_FALLS, "pass p_pompeius", "fire c_leg10 dice=1,1,1"], [], state_dir)
    app.console.close()                                                 # (the serial link fired: never read)
    back = app_with([], ["a"], state_dir)
    try:
        top = back.stack[-1]
        assert isinstance(top, DiceResult) and top.turn["dice"] == [1, 1, 1]
        said = " ".join(top.paras())
        assert "Pompeius is killed: a trophy for Caesar." in said, said
        assert "Caesar holds the field" in said and "Caesar may regroup" in said, said
    finally:
        back.console.close()


def test_an_earlier_roll_an_undo_leaves_newest_was_read_already(state_dir):  # J-7
    """Two fires read one after the other; the second undone: the first is the battle's newest roll
    again, and it was read (before the second): a power cut does not say it again. Undo never
    re-rolls: the resumed roll's undo takes it off the panel, and fired again it is the same roll,
    read already."""
    app = app_with([*ARMIES, "start"], HOME + ["a", "b"], state_dir)          # first fire, read
    try:
        assert isinstance(app.stack[-1], BattleScreen)
        first = app.view()["battle"]["roll"]
        assert first is not None
        app.handle("a")                                                 # the next block fires
        app.render()
        assert isinstance(app.stack[-1], DiceResult)
        app.handle("b")                                                 # read
        app.render()
        assert app.view()["battle"]["roll"]["index"] == first["index"] + 1
        _undo_on_the_device(app)
        assert app.view()["battle"]["roll"] == first
    finally:
        app.console.close()
    back = app_with([], ["a"], state_dir)
    try:
        assert isinstance(back.stack[-1], BattleScreen), type(back.stack[-1]).__name__    # not the roll
    finally:
        back.console.close()


def test_a_resumed_roll_is_taken_off_by_its_undo_and_comes_back_the_same(state_dir):  # J-7
    app = app_with([*ARMIES, "start"], HOME + ["a"], state_dir)
    try:
        dice = list(app.stack[-1].turn["dice"])
    finally:
        app.console.close()
    back = app_with([], ["a"], state_dir)
    try:
        assert isinstance(back.stack[-1], DiceResult)
        _undo_on_the_device(back)
        assert not isinstance(back.stack[-1], DiceResult) and back.view()["battle"]["roll"] is None
        assert back.errors == 0
        fired = back.console.request(f"fire {back.view()['battle']['decision']['blocks'][0]}")
        assert fired["ok"] and fired["turn"]["dice"] == dice                  # undo never re-rolls
    finally:
        back.console.close()


def test_a_battle_fought_to_the_end_and_read_says_no_roll_again(state_dir):  # J-13, J-14, J-19
    """Fight to the end: its result read (closed), the power cut says nothing again; with the result
    still on the panel, its last roll and the end come back. Once a winter has followed the battle,
    the winter's checklist is said, not the battle's last roll (closed before it, on the device)."""
    fought = [WON, "add attacker c_leg10", "add defender p_leg1"]
    app = app_with(fought, HOME + DOWN * 4 + ["a", YES], state_dir)        # Fight to the end? yes
    try:
        assert type(app.stack[-1]).__name__ == "OverScreen" and app.view()["battle"]["roll"] is not None
    finally:
        app.console.close()                                             # the power goes on the result
    back = app_with([], ["a"], state_dir)
    try:
        top = back.stack[-1]
        assert isinstance(top, DiceResult) and "Battle over" in " ".join(top.paras()), top.paras()
        back.handle("b")
    finally:
        back.console.close()
    again = app_with([], HOME, state_dir)                   # (read: home) — a new battle fought, read
    try:
        assert isinstance(again.stack[-1], JcHome)
        assert again.console.request("next-battle")["ok"]
        for line in ("add attacker c_leg8", "add defender p_leg3"):
            assert again.console.request(line)["ok"]
        again.render()
        again.handle("a")                                               # Battle
        again.render()
        again.handle("b")
        again.render()
        assert isinstance(again.stack[-1], JcHome)
        again.stack[-1].cursor = [str(i.label) for i in again.stack[-1].items(again)].index("Fight to the end")
        again.handle("a")
        again.render()
        say_yes(again)                                               # yes
        again.render()
        assert type(again.stack[-1]).__name__ == "OverScreen"
        _read_out(again)                                                # read to its end
    finally:
        again.console.close()
    read = app_with([], ["a"], state_dir)
    try:
        assert isinstance(read.stack[-1], JcHome), type(read.stack[-1]).__name__
        assert read.console.request("winter")["ok"]                    # (the serial link: never closed)
    finally:
        read.console.close()
    winter = app_with([], ["a"], state_dir)
    try:
        assert type(winter.stack[-1]).__name__ == "Announcement"
        _read_out(winter)
        assert isinstance(winter.stack[-1], JcHome), type(winter.stack[-1]).__name__
    finally:
        winter.console.close()


@pytest.mark.slow
def test_a_kill_on_a_roll_resumes_on_it(state_dir):  # J-1, J-7
    """The device program itself (legatus --sim --script) killed with SIGKILL while the dice of a
    fire are on the panel; started again, its first frame after Resume is that roll."""
    import subprocess
    import sys
    killed_after_presses(state_dir, [*ARMIES, "start"], 2)        # Resume (on the battle being fought), Fire: the
                                                                  # power goes on the dice
    keys = state_dir / "keys.txt"
    keys.write_text("a\n")
    out = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--script", str(keys),
                          "--state-dir", str(state_dir)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.split("--- frame after: a")[-1].split("\n", 1)[1].strip("\n")
    from firmware.terminal import to_braille
    app = app_with([], ["a"], state_dir)                           # the same screen, drawn here
    try:
        top = app.stack[-1]
        assert isinstance(top, DiceResult) and app.console.session.view()["battle"]["roll"]["index"] == 0
        assert to_braille(app.render()).strip("\n") == last
    finally:
        app.console.close()


def test_a_block_disbanded_after_the_last_battle_is_not_in_its_row():  # J-19 (rules 8.3-8.5), J-20
    """A survivor of the last battle disbanded in the winter is gone to the levy pool, off the map
    (the RU summary 4.5 «Можно расформировать любой блок и переместить его к блокам, свободным для
    найма»). The Last battle row offered it still, at I, as if it stood with the army that fights
    again; now the row leaves it out and its kind's list puts it with the levy pool's blocks, after
    those on the map. Levied and fighting again, it is on the map."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(NEW, "add attacker c_caesar", "add attacker c_leg10", "add attacker c_leg8", "add defender p_leg1",
                  "start", "fight", "next-battle", "winter")
    fought = ctx.view()["history"][-1]["survivors"]
    assert {"c_leg10", "c_leg8"} <= set(fought), fought               # both came out of it
    assert ctx.view()["campaign"]["pool"] == ["p_leg1"]               # eliminated, given back by the winter
    ctx.run("disband c_leg10")
    assert ctx.view()["campaign"]["pool"] == ["p_leg1", "c_leg10"]
    ctx.open(AddScreen("attacker"))
    group = next(i for i in ctx.top.items(ctx) if i.key == "kind:group")
    ctx.press(*DOWN * [i.key for i in ctx.top.items(ctx)].index("kind:group"), "a")
    shown = [i.key for i in ctx.top.items(ctx) if i.key != "all"]      # (the blocks, not "Add all")
    assert "c_leg10" not in shown and "c_leg8" in shown and group.value == str(len(shown)), shown
    ctx.press("b")
    ctx.press(*DOWN * [i.key for i in ctx.top.items(ctx)].index("kind:legion"), "a")
    legions = [i.key for i in ctx.top.items(ctx)]
    on_map = [b["id"] for b in ctx.run("roster caesar")["blocks"]
              if b["kind"] == "legion" and (b["setup"] or b["id"] in ctx.view()["campaign"]["strength"]) and not b["pool"]]
    assert legions.index("c_leg10") > max(legions.index(b) for b in on_map if b in legions), legions
    ctx.run("add attacker c_leg10")
    ctx.run("add defender p_leg3")
    assert ctx.view()["campaign"]["pool"] == ["p_leg1", "c_leg10"]     # placed only: still in the pool
    ctx.run("start")
    assert ctx.view()["campaign"]["pool"] == ["p_leg1"]                # fighting: on the map again


def test_a_roll_made_anew_after_an_undo_is_not_taken_for_one_read(state_dir):  # J-1, J-7
    """The table's dice entered again after an undo, other faces at the same point of the battle:
    another roll, said again after a power cut until closed — the rolls read before it (the one the
    undo took back too) are no excuse; the earlier roll an undo leaves the newest was read."""
    def resumed(lines: list[str]) -> DiceResult | None:
        app = app_with(lines, ["a"], state_dir)
        try:
            top = app.stack[-1]
            if not isinstance(top, DiceResult):
                return None
            app.handle("b")                                             # read
            return top
        finally:
            app.console.close()
    first = resumed(PHYSICAL)                                           # Pompey's Legio 1 fires: read
    assert first is not None and first.turn["block"] == "p_leg1"
    second = resumed(["fire c_leg10 dice=6,6,6"])                        # Legio 10 answers: read
    assert second is not None and second.turn["dice"] == [6, 6, 6]
    third = resumed(["fire p_leg1 dice=6,6,6,6"])                       # round 2: Legio 1 again, read
    assert third is not None and third.turn["round"] == 2
    again = resumed(["undo", "undo", "fire c_leg10 dice=1,6,6"])        # made anew: another roll
    assert again is not None and again.turn["dice"] == [1, 6, 6]
    assert resumed([]) is None                                          # read
    assert resumed(["undo"]) is None                                    # Legio 1's, newest again: read
    assert resumed(["fire c_leg10 dice=6,6,6", "fire p_leg1 dice=6,6,6,6"]) is None   # both as before: read


def test_a_roll_made_again_as_before_another_one_read_is_said_again(state_dir):  # J-1, J-7
    """The table's dice for one fire entered over the serial link (A), read; undone, entered with
    other faces (B: a typo corrected), read — the table turned its blocks by B; undone again, A
    entered again: it says other than the page the table followed last, but was taken for read
    because A had been closed once. The same roll as the one read last is not said again."""
    def resumed(lines: list[str]) -> DiceResult | None:
        app = app_with(lines, ["a"], state_dir)
        try:
            top = app.stack[-1]
            if not isinstance(top, DiceResult):
                return None
            app.handle("b")                                             # read
            return top
        finally:
            app.console.close()
    assert resumed(PHYSICAL) is not None                                # Pompey's Legio 1 fires: read
    first = resumed(["fire c_leg10 dice=1,6,6"])                         # A: read
    assert first is not None and first.turn["dice"] == [1, 6, 6]
    other = resumed(["undo", "fire c_leg10 dice=1,2,6"])                 # B: read
    assert other is not None and other.turn["dice"] == [1, 2, 6]
    again = resumed(["undo", "fire c_leg10 dice=1,6,6"])                 # A again: not what was read last
    assert again is not None and again.turn["dice"] == [1, 6, 6]
    assert resumed([]) is None                                          # read
    assert resumed(["undo", "fire c_leg10 dice=1,6,6"]) is None         # the same as read last: not again


@pytest.mark.parametrize("lang, said", [("en", "Advised: Scipio takes the hit; Pompey then holds the field with"),
                                        ("ru", "Совет: отдайте хит блоку «Сципион»; тогда Помпей удержит поле с шансом"),
                                        ("uk", "Порада: віддайте хіт блоку «Сципіон»; тоді Помпей утримає поле з шансом")])
def test_why_the_hit_advice_names_the_block_in_a_whole_sentence(lang, said):  # J-7
    """Why ✓? on a hit read «Совет: Сципион — получить хит» (uk «Сципіон — отримати хіт»: a name
    and an infinitive, no sentence): the block advised takes the hit, said as a sentence (an
    imperative to the player: no verb agrees with the name, «Эквиты 1» being plural, J-1)."""
    from firmware.screens.jc.hit_words import why_hit
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical seed=4", "add attacker c_leg10 strength=3",
                  "add defender p_scipio strength=1", "add defender rating=B4 strength=1 name=l", "start",
                  "pass p_scipio", "pass l", "fire c_leg10 dice=1,6,6", lang=lang)
    assert why_hit(ctx)[0].startswith(said), why_hit(ctx)


@pytest.mark.parametrize("lang, rows", [
    ("en", ["Advised: x1 takes the hit", "Scipio instead: 9.2% (0.8% more).", "this hit kills him",
            "✓ spares a leader when another block's chance is less than 1% lower."]),
    ("ru", ["Совет: отдайте хит блоку «x1»", "Вместо него Сципион: 9,2% (на 0,8% больше).", "этот хит его убьёт",
            "✓ бережёт лидера, если с другим блоком шанс ниже менее чем на 1%."])])
def test_the_tick_spares_a_leader_whose_odds_are_better_by_less_than_a_point(lang, rows):  # J-2, J-17, J-7
    # Pompey holds with 9.2 % if Scipio (at I) takes the hit and dies, 8.4 % if the B3 does: ✓ was on
    # Scipio («✓ is a leader!»), giving a leader for good and a VP for 0.8 points; now it is on the
    # B3, the footer says a leader is spared, and Why ✓? says what that costs and why
    from firmware.screens.jc.hit_words import why_hit
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical leaders=last seed=4",
                  "add attacker rating=A1 strength=4 name=o1", "add defender p_scipio strength=1",
                  "add defender rating=B3 strength=1 name=x1", "add attacker rating=B2 strength=1 name=o2", "start",
                  "pass p_scipio", "fire o1 dice=1,6,6,6", lang=lang).open(BattleScreen())
    texts = ctx.texts()
    assert texts[-1] == ("✓ spares a leader" if lang == "en" else "✓ бережёт лидера"), texts
    assert not any("✓ is a leader" in t or "это лидер" in t for t in texts)
    assert [t for t in texts if t.startswith("✓")][0] in ("✓8.4%", "✓8,4%")          # beside x1, not Scipio
    said = why_hit(ctx)
    assert said[0].startswith(rows[0]) and said[1] == rows[1] and rows[2] in said[2] and said[3] == rows[3], said
    ctx.press("a")                                  # the cursor starts on x1 (the careful pick): A gives it the hit
    assert ctx.lines[-1] == "hit x1"


@pytest.mark.parametrize("lang, same", [("en", "Legio 3 instead: 97.2% (the same)."),
                                        ("ru", "Вместо него Легион 3: 97,2% (столько же)."),
                                        ("uk", "Замість нього Легіон 3: 97,2% (стільки ж).")])
def test_why_a_hit_says_a_block_at_the_same_odds_is_the_same_not_0_less(lang, same):  # J-7
    # two hits on Scipio, Legio 1 and Legio 3, all at II (a partial level, J-7): Legio 3 is as good as
    # the advised Legio 1, and Why ✓? priced it «(0% less)» («на 0% меньше»)
    from firmware.screens.jc.hit_words import why_hit
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical leaders=last ties=partial seed=4",
                  "add attacker rating=A3 strength=4 name=o1", "add defender p_scipio strength=2",
                  "add defender p_leg1 strength=2", "add defender p_leg3 strength=2",
                  "add defender rating=B3 strength=1 name=x2", "start", "pass p_scipio", "fire o1 dice=1,1,6,6",
                  lang=lang).open(BattleScreen())
    said = why_hit(ctx)
    assert said[-1] == same, said
    assert not any("0%" in r.split("(")[-1] for r in said), said

def test_why_a_hit_spares_two_leaders_says_its_rule_once():  # J-2, J-17, J-7
    # Scipio and Pompeius at I beside a D4 at I: each would give Pompey a hair more (2.5 %, 1.7 % +),
    # each is priced, and the rule that spares them is said once, not once a leader
    from firmware.screens.jc.hit_words import why_hit
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical leaders=last seed=4",
                  "add attacker rating=D4 strength=4 name=o1", "add defender p_scipio strength=1",
                  "add defender p_pompeius strength=1", "add defender rating=D4 strength=1 name=x1",
                  "add attacker rating=B3 strength=1 name=o2", "start")
    while (d := ctx.view()["battle"]["decision"])["kind"] != "hit":
        assert ctx.run("fire o1 dice=1,6,6,6" if d["blocks"][0] == "o1" else f"pass {d['blocks'][0]}")["ok"]
    assert set(d["choices"]) == {"p_scipio", "p_pompeius", "x1"}
    said = why_hit(ctx.open(BattleScreen()))
    assert said[0].startswith("Advised: x1 takes the hit")
    assert sum("more)." in r for r in said) == 2 and sum("this hit kills him" in r for r in said) == 2, said
    assert sum(r.startswith("✓ spares a leader") for r in said) == 1, said

def _shown_text(ctx: FakeCtx) -> str:
    """Every row of the top screen, scrolled through with the keys (down) from its first."""
    screen, seen = ctx.top, []
    for _i in range(30):
        ctx.render()
        seen.extend(r for r in ctx.texts() if r not in seen)
        ctx.press("down")
    assert ctx.top is screen
    return " ".join(seen)


@pytest.mark.parametrize("lang, killed, joins", [
    ("en", "Pompeius is killed: a trophy for Caesar.", "Cleopatra at once joins Caesar at strength I."),
    ("uk", "Помпей загинув: трофей отримує Цезар.", "Клеопатра одразу приєднується до Цезаря з бойовою силою I.")])
def test_fight_to_the_end_with_the_devices_dice_says_what_the_rules_did_on_its_result(lang, killed, joins):  # J-2, J-14, J-17
    """«Fight to the end» with the device's dice shows only the result: «The attacker wins.» and
    the regroup. Pompeius killed (gone for good, a 1-VP trophy for Caesar, J-2, J-17) and Cleopatra
    gone over to Caesar (J-2) were said nowhere unless the player opened Battle afterwards — the
    table had a leader to take off and a block to hand over. The result says them now, once: the
    battle screen does not say them again. (The fire that takes Cleopatra goes on to kill Pompeius,
    Pompey's last block: the battle is over, and she is no more promised a turn of it, J-13.)"""
    from firmware.screens.jc.over import OverScreen
    ctx = FakeCtx("new jc-battle seed=1", "add attacker c_leg10", "add defender p_pompeius strength=1",
                  "add defender cleopatra strength=1", lang=lang).open(JcHome())
    ctx.press(*DOWN * 4, "a")
    say_yes(ctx)                 # Fight to the end, asked first: A
    assert ctx.session.lines[-1] == "fight" and isinstance(ctx.top, OverScreen)
    said = _shown_text(ctx)
    assert killed in said and joins in said, said
    ctx.press("a")                                  # closed; the battle screen says nothing again
    ctx.press(*["up"] * 6, "a")                     # (lists stop at their ends) Battle
    ctx.render()
    assert ctx.notes == [] and isinstance(ctx.top, BattleScreen), type(ctx.top).__name__


@pytest.mark.parametrize("lang, said", [("en", "The attacker wins."), ("ru", "Атакующий победил."),
                                        ("uk", "Нападник переміг.")])
def test_the_result_of_a_battle_whose_roles_swapped_names_the_roles_at_its_end(lang, said):  # J-9, J-13
    """Pompey's main force fell in round 1, his reserve came disrupted and Caesar became the
    defender (J-9); Caesar's Legio 8 then retreated and Pompey took the field. The result page said
    «Помпей / Оборона устояла.» — the defence, Caesar's, had just left the field."""
    from firmware.screens.jc.over import OverScreen
    ctx = FakeCtx("new jc-battle dice=physical seed=1", "add attacker c_leg8", "add defender p_leg3 strength=1",
                  "add defender p_leg4 reserve=1", "start", "fire p_leg3 dice=6", "fire c_leg8 dice=1,5,6",
                  "fire c_leg8 dice=6,6,6", "fire p_leg4 dice=1,1", "retreat c_leg8", lang=lang).open(JcHome())
    ctx.press("a", "a")                                  # Battle (over) → its result
    assert isinstance(ctx.top, OverScreen), type(ctx.top).__name__
    ctx.render()
    assert said in ctx.texts(), ctx.texts()


@pytest.mark.parametrize("lang, said", [("en", "Mars: in round 1 all Caesar's blocks act before Pompey's."),
                                        ("ru", "Марс: в 1 раунде все блоки Цезаря ходят раньше блоков Помпея."),
                                        ("uk", "Марс: у 1 раунді всі блоки Цезаря ходять раніше за блоки Помпея.")])
def test_a_surprise_battle_started_on_the_device_says_its_order_of_round_1(lang, said):  # J-5, J-10
    """Start round 1 of a battle set up with Mars/Neptune: Legio 10 (C4) acted first, before
    Pompeius (B3), and nothing on the device said why (the settings are gone once a block is
    placed): it read as a mistake. The battle screen now says the order over the first decision;
    Fight to the end's result, once the battle is over, does not."""
    from firmware.screens.jc.over import OverScreen
    lines = ("new jc-battle seed=1 surprise=1", "add attacker c_leg10", "add defender p_pompeius", "add defender p_leg1")
    ctx = FakeCtx(*lines, lang=lang).open(JcHome())
    ctx.press("a")                                       # Battle: its set-up, drawn
    ctx.render()
    ctx.press("a")                                       # Start round 1
    ctx.render()
    assert ctx.session.lines[-1] == "start" and isinstance(ctx.top, BattleScreen)
    assert [str(note) for note in ctx.notes] == [said], ctx.notes
    assert ctx.view()["battle"]["decision"]["blocks"] == ["c_leg10"]
    ctx = FakeCtx(*lines, lang=lang).open(JcHome())
    ctx.press(*DOWN * 4, "a")
    say_yes(ctx)                       # Fight to the end, asked first: A
    assert ctx.session.lines[-1] == "fight" and isinstance(ctx.top, OverScreen)
    assert said.split(":")[0] not in _shown_text(ctx)


@pytest.mark.parametrize("lang, rows", [
    ("ru", ["Цезарь: движение 4,", "найм 1", "Помпей: Марс", "Игрок 1: Помпей"]),
    ("uk", ["Цезар: рух 4, найм 1", "Помпей: Марс", "Гравець 1: Помпей"])])
def test_the_reveal_writes_a_command_card_after_the_colon_in_lower_case(lang, rows):  # J-18
    """The reveal's rows said «Цезарь: Движение 4, найм 1» — a capital after a colon, the card's
    own «найм» in lower case beside it; a command card is named by its values, an event card by its
    god (Марс keeps its capital)."""
    from firmware.screens.jc.campaign import Announcement
    ctx = FakeCtx("new jc-battle seed=11", "deal", "discard caesar 2/1", "discard pompey 2/2", "play caesar 4/1",
                  "play pompey mars", lang=lang).open(JcHome())
    ctx.render()
    assert isinstance(ctx.top, Announcement) and ctx.top.rows == rows, ctx.top.rows


@pytest.mark.parametrize("lang, label", [("en", "Battle settings"), ("ru", "Настройки боя"), ("uk", "Налаштування бою")])
def test_the_first_battle_set_up_empty_can_be_fought_by_another_attacker(lang, label):  # J-4, J-10, J-18
    """The new game's form chooses who attacks in the campaign's first battle before any card is
    revealed; the year's first reveal then made Pompey player 1 (J-18), his the attack — and
    nothing on the device changed the battle's attacker, Mars/Neptune or dice (Next battle is
    offered only once a battle is over; undoing back to the new game loses the dealt hands). The
    battle's set-up, no block placed yet, now offers its settings again, opening on what it has;
    the cards dealt and played stay, the battle keeps its number."""
    ctx = FakeCtx("new jc-battle seed=1", "deal", "discard caesar pluto", "discard pompey vulcan", lang=lang).open(JcHome())
    ctx.press("a")                                       # Battle: its set-up
    assert label in [item.label for item in ctx.top.items(ctx)]
    ctx.press(*DOWN * 3, "a")                            # Start, attacks, defends, settings
    assert ctx.texts()[:2] == [{"en": "Battle 1", "ru": "Бой 1", "uk": "Бій 1"}[lang], ctx.texts()[1]]
    ctx.press("right", "down", "right", "up", "a")       # Pompey attacks by surprise (Mars, J-10)
    assert ctx.session.lines[-1] == "next-battle attacker=pompey surprise=1 dice=digital"
    b = ctx.view()["battle"]
    assert (b["number"], b["attacker"], b["surprise"], b["phase"]) == (1, "pompey", True, "setup")
    assert ctx.view()["cards"]["discarded"] == {"caesar": True, "pompey": True}
    assert isinstance(ctx.top, BattleScreen)
    ctx.press(*DOWN * 3, "a")                            # opened again: on what the battle has now
    assert "<" + {"en": "Pompey", "ru": "Помпей", "uk": "Помпей"}[lang] + ">" in ctx.texts()
    ctx.press("b")
    ctx.run("add attacker p_leg1")
    ctx.render()
    assert label not in [item.label for item in ctx.top.items(ctx)]     # a block placed: the attacker is settled


def _enter_dice(ctx: FakeCtx, faces: list[int]) -> None:
    """On the dice entry: each die turned up to its face, right to the next, then A."""
    from firmware.screens.jc.battle import JcDiceEntry
    screen = ctx.top
    assert isinstance(screen, JcDiceEntry), type(screen).__name__
    ctx.render()                                     # (it sizes itself to the block's strength)
    assert len(screen.faces[0]) == len(faces)
    for i, face in enumerate(faces):
        if i:
            ctx.press("right")
        while screen.faces[0][i] != face:
            ctx.press("up")
    ctx.press("a")


def test_a_physical_fire_whose_page_would_say_nothing_new_goes_on_without_it():  # J-1, J-7
    """With the table's dice the entry shows the faces and counts the hits as they are set; its roll
    page then said «No hit.» (or «1 more: the owner picks» before the pick that asks it anyway), a
    press that told nothing. Such a fire goes straight on to the next decision, its roll kept as
    read (not said again after a power cut); a fire whose hits the device placed still shows them."""
    from firmware.screens.jc.roll import resume_roll
    ctx = home("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1",
               "start", "fire p_leg1 dice=6,6,6,6").press("a", "a")       # Battle, Fire: Legio 10 (C4, III)
    _enter_dice(ctx, [5, 6, 6])
    assert ctx.session.lines[-1] == "fire c_leg10 dice=5,6,6"
    assert isinstance(ctx.top, BattleScreen) and ctx.view()["battle"]["round"] == 2
    assert resume_roll(ctx) is False and isinstance(ctx.top, BattleScreen)
    # one hit on two legions at III: every hit the owner's pick (J-7), asked at once
    ctx = home("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1 strength=3",
               "add defender p_leg3", "start", "fire p_leg1 dice=6,6,6", "fire p_leg3 dice=6,6,6").press("a", "a")
    _enter_dice(ctx, [1, 6, 6])
    d = ctx.view()["battle"]["decision"]
    assert isinstance(ctx.top, BattleScreen) and d["kind"] == "hit" and d["left"] == 1
    # two hits: one placed on Legio 1 at IV, the other the pick: the page says where the first went
    ctx = home("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1 strength=4",
               "add defender p_leg3", "start", "fire p_leg1 dice=6,6,6,6", "fire p_leg3 dice=6,6,6").press("a", "a")
    _enter_dice(ctx, [1, 2, 6])
    assert isinstance(ctx.top, DiceResult) and "Legio 1 IV→III" in ctx.texts(), ctx.texts()


@pytest.mark.parametrize("lang,first,more", [("en", "1 hit: Pompey picks", "1 more: Pompey picks"),
                                              ("ru", "1 хит: выбор Помпея", "ещё 1: выбор Помпея"),
                                              ("uk", "1 хіт: обирає Помпей", "ще 1: обирає Помпей")])
def test_a_roll_whose_hits_all_wait_for_the_owner_does_not_say_more(lang, first, more):  # J-7
    """A fire of one hit between two legions alike (the owner picks, J-7): its page said «1 more:
    the owner picks» («ещё 1») under «1 hit», where no hit had gone anywhere yet. «More» is said
    after hits the device placed."""
    ctx = FakeCtx("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1 strength=3",
                  "add defender p_leg3", "start", "fire p_leg1 dice=6,6,6", "fire p_leg3 dice=6,6,6", lang=lang)
    fired = ctx.run("fire c_leg10 dice=1,6,6")
    ctx.open(DiceResult(fired["turn"]))
    ctx.top.render(ctx)
    assert ctx.top.paras(ctx.view()["battle"]["blocks"]) == [first], ctx.top.paras(ctx.view()["battle"]["blocks"])
    ctx = FakeCtx("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1 strength=4",
                  "add defender p_leg3", "start", "fire p_leg1 dice=6,6,6,6", "fire p_leg3 dice=6,6,6", lang=lang)
    fired = ctx.run("fire c_leg10 dice=1,2,6")                  # one placed on Legio 1 at IV, one the pick
    ctx.open(DiceResult(fired["turn"]))
    ctx.top.render(ctx)
    assert ctx.top.paras(ctx.view()["battle"]["blocks"])[-1] == more, ctx.top.paras(ctx.view()["battle"]["blocks"])


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("fires, lines, dice", [
    ("c_leg10", ["add attacker c_leg10", "add defender p_leg1 strength=4", "add defender p_leg3", "start",
                 "fire p_leg1 dice=6,6,6,6", "fire p_leg3 dice=6,6,6"], "1,2,6"),
    ("p_leg1", ["add attacker rating=C4 strength=4 name=big", "add attacker c_leg8", "add attacker c_leg9",
                "add defender p_leg1 strength=4", "start"], "1,1,1,6")])
def test_the_hits_the_owner_picks_are_one_row_and_the_fire_one_page(lang, fires, lines, dice):  # J-7
    """A fire whose first hit the device placed (a block at IV) and the rest the owner picks among
    blocks alike (J-7): «Легион 1 IV→III» then «ещё 1: выбирает владелец» (24 characters, en «1 more:
    the owner picks» 23, uk «ще 2: …» too) wrapped onto a second page: a press to read the one word
    left before the pick, which asks it anyway. Now the owner is named and the row fits: «ещё 1:
    выбор Помпея» / «ще 2: обирає Цезар»; the page holds it all (A closes it at once)."""
    ctx = FakeCtx("new jc-battle dice=physical seed=1", *lines, lang=lang)
    fired = ctx.run(f"fire {fires} dice={dice}")
    ctx.open(DiceResult(fired["turn"]))
    ctx.top.render(ctx)
    blocks = ctx.view()["battle"]["blocks"]
    paras = ctx.top.paras(blocks)
    assert len(paras) == 2 and len(ctx.top.rows(blocks)) == len(paras) <= DiceResult.ROOM, ctx.top.rows(blocks)
    assert ("Pompey" in paras[-1] or "Помпе" in paras[-1]) == (fires == "c_leg10"), paras


ALIKE = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg4", "add defender p_leg5",
         "start", "fire p_leg4 dice=6,6,6", "fire p_leg5 dice=6,6,6", "fire c_leg10 dice=1,6,6"]


@pytest.mark.parametrize("lang, asked, why", [
    ("en", "Same odds: which one?", "Legio 4, Legio 5: alike (C2 III); the odds are the same whichever takes the hit. "
                                    "Give it to the block you turn on the table: the device keeps each block's "
                                    "strength for the battles to come."),
    ("ru", "Шансы те же: какой?", "Легион 4, Легион 5: одинаковы (C2 III); шансы те же, какой бы из них ни получил "
                                  "хит. Отдайте хит блоку, который повернёте на столе: устройство помнит силу "
                                  "каждого блока для следующих боёв."),
    ("uk", "Шанси ті самі: який?", "Легіон 4, Легіон 5: однакові (C2 III); шанси ті самі, хоч би який із них отримав "
                                   "хіт. Віддайте хіт блоку, який повернете на столі: пристрій пам'ятає силу "
                                   "кожного блока для наступних боїв.")])
def test_a_hit_between_blocks_alike_but_for_their_name_says_why_it_is_asked(lang, asked, why):  # J-7
    """Two C2 legions at III and one hit (a partial level, J-7): «Who takes the hit?», both rows at
    the same chance, and Why ✓? advised one and priced the other «(0% less)» — the player could not
    tell why the device asked at all. It asks which block the table turns: the device keeps each
    block's strength for the battles to come. Blocks that differ (a C3 beside a C2) are asked as before."""
    ctx = FakeCtx(*ALIKE, lang=lang).open(JcHome()).press("a")
    assert ctx.texts()[1] == asked, ctx.texts()
    ctx.press(*DOWN * 3, "a")                                   # Legio 4, Legio 5, Device picks, Why ✓?
    assert " ".join(ctx.top.rows) == why
    ctx.press("b", "up", "up", "up", "a")                       # Legio 4 takes it: the table turns it
    assert ctx.session.lines[-1] == "hit p_leg4"
    other = FakeCtx(*[line.replace("p_leg5", "p_leg34") for line in ALIKE], lang=lang).open(JcHome()).press("a")
    assert other.texts()[1] == {"en": "Who takes the hit?", "ru": "Кто получает хит?", "uk": "Хто отримує хіт?"}[lang]


def test_a_physical_fire_fought_out_from_the_home_says_the_reserves_it_brought_in():  # J-8, J-14
    """Fight to the end from the home with the table's dice: the first fire is the battle screen's
    first look at the battle, which says nothing of what came before — so the reserves that arrived
    when it ended round 1 were not said on its page («No hit.»), and a page with nothing else to say
    would now go. The fire's own events are said: its page stays, with them."""
    ctx = home("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add attacker c_leg8 reserve=1",
               "add defender p_leg1 strength=1", "start", "fire p_leg1 dice=6")
    ctx.press(*DOWN * 2, "a")
    say_yes(ctx)                       # Fight to the end, asked first: A
    _enter_dice(ctx, [6, 6, 6])
    assert ctx.session.lines[-1] == "auto dice=6,6,6"
    assert isinstance(ctx.top, DiceResult), type(ctx.top).__name__
    assert "Caesar's reserves arrive: Legio 8." in " ".join(ctx.top.paras(ctx.view()["battle"]["blocks"]))


@pytest.mark.parametrize("lang, warned", [
    ("en", "A hit among equally strong blocks may kill a leader at I."),
    ("uk", "Хіт серед рівних за силою блоків може вбити лідера на I.")])
def test_fight_to_the_end_warns_that_it_may_kill_a_leader_a_careful_owner_would_keep(lang, warned):  # J-2, J-14, J-17
    """Fight to the end places a tied hit by J-14, the lowest firepower first: Brutus and Scipio (A2)
    at I beside Legio 34 (C3) at I took the hits and were killed — two 1-VP trophies for Caesar, gone
    for good (J-2, J-17) — where the owner, asked, would have turned the legion (the pick's cursor
    starts there). The question now says so when a leader fights; without one it says nothing more.
    (Shorter since the question is read to its end before yes: 6 rows with it, 3 without.)"""
    def question(*lines: str) -> str:
        ctx = FakeCtx("new jc-battle dice=physical seed=1", *lines, lang=lang).open(JcHome())
        ctx.press(*DOWN * 4, "a")                       # Fight to the end: asked first
        return " ".join(ctx.top.rows)
    assert warned in question("add attacker c_leg10", "add defender p_scipio strength=1", "add defender p_leg34 strength=1")
    assert warned not in question("add attacker c_leg10", "add defender p_leg34 strength=1")


def test_two_blocks_of_a_kind_shortened_keep_their_numbers_apart():  # J-7: a tied hit's pick names the block to turn
    """«Who takes the hit?» in English with a chance beside it left 10 characters for the name:
    Equitatus 1 and Equitatus 2 were both «Equitatus…», so the pick between them could not be read.
    A shortened name keeps its number (and a first owner's initial), cutting the word."""
    from firmware.i18n import set_language
    from firmware.screens.jc.words import fitted_name
    set_language("en")
    for width in (8, 9, 10):
        rows = [fitted_name({"id": f"c_eq{n}", "name": f"Equitatus {n}", "side": "caesar"}, width) for n in (1, 2)]
        assert all(len(r) <= width for r in rows) and rows[0] != rows[1], rows
        assert [r.rsplit(" ", 1)[1] for r in rows] == ["1", "2"], rows
    owned = fitted_name({"id": "p_aux1", "name": "Auxilia 1", "side": "caesar"}, 11)     # Pompey's, for Caesar
    assert owned.endswith(" 1 (P)") and len(owned) <= 11, owned


@pytest.mark.parametrize("lang, said", [
    ("en", "Among equally strong blocks a leader takes a hit last."),
    ("ru", "Лидер получает хит последним среди равных по силе."),
    ("uk", "Лідер отримує хіт останнім серед рівних за силою.")], ids=["en", "ru", "uk"])
def test_fight_to_the_end_in_a_game_started_now_says_a_leader_takes_a_hit_last(lang, said):  # J-7, J-14, J-2
    """A game started now (``leaders=last``) has the device put a tied hit on a leader last (J-7: the
    owner's choice, made on the owner's behalf; tests/test_jc_console.py): Fight to the end no longer
    kills Scipio (A2) at I where Legio 34 (C3) at I could take the hit, and its question says so in
    place of the warning that a game stored before it still gets."""
    lines = ("add attacker c_leg10", "add defender p_scipio strength=1", "add defender p_leg34 strength=1")

    def question(new: str) -> str:
        ctx = FakeCtx(new, *lines, lang=lang).open(JcHome())
        ctx.press(*DOWN * 4, "a")                       # Fight to the end: asked first
        assert type(ctx.top).__name__ == "Asked", type(ctx.top).__name__
        return " ".join(ctx.top.rows)
    now, before = question("new jc-battle dice=physical seed=1 leaders=last"), question("new jc-battle dice=physical seed=1")
    assert said in now and "I" not in now.split()     # (no «leader at I may be killed»)
    assert said not in before and "I" in before.rstrip(".").split()     # («… a leader at I.»)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_forces_table_keeps_each_eliminated_block_s_number(lang):  # J-7, J-3
    """Forces in English showed Caesar's Equitatus 1 and Equitatus 2, both eliminated, as two rows
    «Equitatus…  eliminated»: the word beside the name left it 10 characters and the cut took the
    number, so the table did not say which block was gone (found by scripts/monkey.py). The name is
    shortened as the battle's rows shorten it: «Equitat… 1», «Equitat… 2»."""
    from firmware.screens import base
    from firmware.screens.jc.forces import forces_screen
    ctx = FakeCtx(NEW, "add attacker c_eq1 strength=1", "add attacker c_eq2 strength=1",
                  "add defender p_leg1 strength=4", "start", "fire c_eq1 dice=6", "fire c_eq2 dice=6",
                  "fire p_leg1 dice=1,1,1,1", "hit c_eq1", lang=lang)
    ctx.open(forces_screen(ctx))
    base.TRACE = []
    try:
        ctx.render()
        shown = [t for _x, _y, t, _k in base.TRACE]
    finally:
        base.TRACE = None
    gone = [t for t in shown if t.rstrip().endswith((" 1", " 2")) and t[:4] in ("Equi", "Экви", "Еквi", "Екві")]
    assert [t.rsplit(" ", 1)[1] for t in gone] == ["1", "2"], shown
    rows = [r for r in ctx.top.rows if r[0] in gone]
    assert len(rows) == 2 and all(len(left) + 1 + len(right) <= base.COLS for left, right in rows), rows


@pytest.mark.parametrize("lang, said", [("en", "Legio 9 is already in this battle."),
                                        ("ru", "Легион 9 уже в этом бою."), ("uk", "Легіон 9 уже в цьому бою.")])
def test_a_block_added_over_the_serial_link_under_its_open_form_is_said_without_its_id(lang, said):  # J-5
    """Legio 9's form open (strength, reserve) while the serial link adds Legio 9: A on the form
    showed the console's refusal «Legio 9 (c_leg9) is already in this battle.», its internal id on
    the panel (found by scripts/monkey.py, jc-next-battle seed 11). The device says it in its words
    and adds nothing."""
    from firmware.screens.jc.setup import block_form
    from firmware.screens.jc.words import roster_now
    ctx = FakeCtx(NEW, lang=lang)
    legio = next(b for b in roster_now(ctx, "caesar") if b["id"] == "c_leg9")
    ctx.open(block_form("attacker", legio))
    ctx.run("add attacker c_leg9")
    lines = list(ctx.session.lines)
    ctx.press("a")
    assert ctx.notes[-1] == said and "c_leg9" not in ctx.notes[-1]
    assert ctx.session.lines == lines


@pytest.mark.parametrize("lang, said", [
    ("en", "A battle is being set up: fight it, or take its blocks out first."),
    ("ru", "Готовится бой: разыграйте его или сначала уберите его блоки."),
    ("uk", "Готується бій: розіграйте його або спершу приберіть його блоки.")])
def test_the_next_battle_s_form_over_blocks_placed_meanwhile_says_it_without_ids(lang, said):  # J-4
    """The next battle's form (and the battle settings' form) open while the serial link starts the
    next battle and places a block: A showed the console's refusal «A battle is being set up
    (c_leg9): … (remove <block>) before the next one.», an id and a console command on the panel.
    The device says it in its words and starts nothing."""
    from firmware.screens.jc.setup import battle_settings_form, next_battle_form
    over = FakeCtx(NEW, "add attacker c_leg10", "add defender p_pompeius", "fight", lang=lang)
    over.open(next_battle_form(over))
    empty = FakeCtx(NEW, lang=lang)
    empty.open(battle_settings_form(empty))
    for ctx, lines in ((over, ["next-battle", "add attacker c_leg9"]), (empty, ["add attacker c_leg9"])):
        for line in lines:
            assert ctx.run(line)["ok"]
        before = list(ctx.session.lines)
        ctx.press("a")
        assert ctx.notes[-1] == said
        assert ctx.session.lines == before


def test_a_block_s_menu_title_keeps_its_number_and_first_owner_beside_its_rating():  # J-7, J-2 (Jupiter)
    """Blocks → a block gone over to the other side: its menu's title «Equitatus 1 (C)» beside its
    rating and strength (B2 III) was cut to «Equitatus 1…», the initial saying whose it was lost
    (found by scripts/monkey.py, jc-next-battle en seed 41). The name is shortened, never its number
    nor the initial."""
    from firmware.screens import base
    from firmware.screens.jc.blocks import BlockMenu
    ctx = FakeCtx(NEW, "owner c_eq1 pompey", lang="en")
    ctx.open(BlockMenu("pompey", "c_eq1"))
    shown = ctx.texts()
    title, status = ctx.top.title, ctx.top.status(ctx)
    assert title.endswith(" 1 (C)") and title in shown, (shown, status)
    assert len(title) + 1 + len(status) <= base.COLS, (title, status)


@pytest.mark.parametrize("shot, screen", [("over-cards", "CardsMenu"), ("over-vp", "JcVPTrack"),
                                          ("over-battle", "BattleScreen")])
def test_the_tours_game_over_shots_show_the_screens_they_are_named_for(state_dir, shot, screen):
    """J-17: scripts/shots_jc.py's shots of a campaign a winter ended (Caesar at 11 VP) open the
    Cards, the Victory points and the Battle; the winter's checklist is said first until it is
    closed, so their keys had closed it and the shots showed the home instead."""
    from scripts.shots_jc import SHOTS
    lines, keys = next((s, k) for name, s, k in SHOTS if name == shot)
    app = app_with(lines, keys, state_dir)
    try:
        app.render()
        assert type(app.stack[-1]).__name__ == screen
    finally:
        app.console.close()


# A B3 and a C3 of Pompey at III, one hit from Caesar's A3 (J-7: Pompey picks): J-14 (the decision's
# ``default``, the device's pick) puts it on the B3 entered first, the odds on the C3 (Caesar wins
# 7.9 % then, 10.8 % with the B3 hit: the B3 fires before the C3's turn, J-4)
B3_C3 = ("new jc-battle attacker=caesar dice=physical seed=4", "add attacker rating=A3 strength=2 name=o0",
         "add attacker rating=B1 strength=4 name=o1", "add defender rating=B3 strength=3 name=x0",
         "add defender rating=C3 strength=3 name=x1", "start", "fire o0 dice=2,6")
# three of Pompey's at III (a D2, a B2, a C3), two hits: J-14 puts the first on the D2, the odds on the C3
THREE_AT_III = ("new jc-battle attacker=caesar dice=physical seed=4", "add attacker rating=A3 strength=3 name=o0",
                "add attacker rating=B1 strength=2 name=o1", "add defender rating=D2 strength=3 name=x0",
                "add defender rating=B2 strength=3 name=x1", "add defender rating=C3 strength=3 name=x2",
                "start", "fire o0 dice=1,6,2")


def test_the_pick_of_a_tied_hit_starts_on_the_tick_not_on_j14s_block():  # J-7, J-14, J-15
    """✓ (the advice, J-15) is on the C3; the cursor started on the decision's default, the B3
    (J-14's order), so A put the hit where ✓ was not. It starts on ✓: A gives the C3 the hit."""
    ctx = FakeCtx(*B3_C3).open(BattleScreen())
    d = ctx.view()["battle"]["decision"]
    assert d["choices"] == ["x0", "x1"] and d["default"] == "x0"
    advice = ctx.run("advise")
    assert advice["advised"]["target"] == "x1" and advice["best"]["target"] == "x1"
    ctx.render()
    rows = ctx.top.items(ctx)
    assert rows[ctx.top.cursor].value.startswith("✓"), [(r.label, r.value) for r in rows]
    ctx.press("a")
    assert ctx.lines[-1] == "hit x1"


def test_the_pick_moves_to_the_tick_when_the_advice_comes_unless_a_key_moved_it():  # J-7, J-15
    """On the device the advice is computed off the main loop: the pick opens on the careful block
    (J-14's, x0) and goes to ✓ (x2) when the advice comes — not once the player has moved the cursor."""
    from firmware.screens.jc import odds
    odds._CACHE.clear()                             # (no advice kept from another test of this battle)
    ctx = FakeCtx(*THREE_AT_III)
    assert ctx.run("advise")["advised"]["target"] == "x2"
    ctx.pending.add("advise")
    ctx.open(BattleScreen())
    ctx.render()
    assert ctx.top.cursor == 0                      # x0, the careful pick, while the advice is computed
    ctx.pending.clear()
    ctx.render()
    assert ctx.top.cursor == 2                      # the advice came: ✓, x2
    ctx.press("a")
    assert ctx.lines[-1] == "hit x2"
    odds._CACHE.clear()
    moved = FakeCtx(*THREE_AT_III)
    moved.pending.add("advise")
    moved.open(BattleScreen())
    moved.render()
    moved.press("down")                             # the player's own pick, x1, before the advice
    moved.pending.clear()
    moved.render()
    assert moved.top.cursor == 1
    moved.press("a")
    assert moved.lines[-1] == "hit x1"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_after_fight_to_the_end_the_home_cursor_is_on_next_battle(lang):  # J-13, J-14
    """Fight to the end from the home, its result closed: the home's Odds and Fight to the end rows
    are gone (the battle is over) and the cursor stayed at its place, on «Победные очки» (Victory
    points) from a set-up, on Forces from a battle under way — a row nobody went for. It lands on
    Next battle, the row that took Fight to the end's place."""
    from firmware.screens.jc.home import JcHome
    from firmware.screens.jc.text import _
    ctx = FakeCtx("new jc-battle attacker=caesar seed=4", "add attacker c_leg10", "add defender p_leg1",
                  lang=lang).open(JcHome())
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press(*["down"] * labels.index(_("Fight to the end")))
    ctx.press("a")
    say_yes(ctx)                                   # Fight to the end? yes
    assert type(ctx.top).__name__ == "OverScreen" and ctx.view()["battle"]["phase"] == "over"
    ctx.press("b")
    ctx.render()
    assert isinstance(ctx.top, JcHome)
    assert str(ctx.top.items(ctx)[ctx.top.cursor].label) == _("Next battle")


# -- the figures of one decision read side by side (J-14, J-15) -----------------------------------
SIDE_BY_SIDE = {   # a hit (J-7) between two blocks, the fires before it at the table (physical dice)
    "whole beside tenths": ["new jc-battle attacker=caesar dice=physical leaders=last seed=4",
                            "add attacker rating=A3 strength=2 name=a0", "add attacker rating=B2 strength=1 name=a1",
                            "add attacker rating=C4 strength=3 name=a2", "add defender rating=B2 strength=1 name=d0",
                            "add defender rating=C2 strength=2 name=d1", "add defender rating=B3 strength=3 name=d2",
                            "start", "fire a0 dice=5,6", "fire d0 dice=3", "fire d2 dice=6,1,2"],
    "tenths": ["new jc-battle attacker=caesar dice=physical leaders=last seed=4",
               "add attacker rating=C4 strength=4 name=a0", "add defender rating=D3 strength=3 name=d0",
               "add defender rating=D2 strength=4 name=d1", "start", "fire a0 dice=2,3,6,5"],
    "whole": ["new jc-battle attacker=caesar dice=physical leaders=last seed=4",
              "add attacker rating=D2 strength=4 name=a0", "add attacker rating=B1 strength=1 name=a1",
              "add attacker rating=D4 strength=3 name=a2", "add defender rating=A4 strength=2 name=d0",
              "add defender rating=A4 strength=4 name=d1", "start", "fire d0 dice=5,6", "fire d1 dice=6,2,1,5"],
}


def _figure(text: str) -> float:
    return float(text.lstrip("✓").rstrip("%").replace(",", "."))


@pytest.mark.parametrize("lang, mark", [("en", "."), ("ru", ","), ("uk", ",")])
@pytest.mark.parametrize("case, said", [("whole beside tenths", ("✓12.2%", "9.9%", "2.3%")),
                                        ("tenths", ("✓93.4%", "91.7%", "1.7%")),
                                        ("whole", ("✓53%", "43%", "10%"))])
def test_the_hit_lists_figures_and_what_the_next_choice_costs_add_up(case, said, lang, mark):  # J-7, J-14, J-15
    """The hit list wrote ✓ «12%» (a whole percent, from 10 to 90 %) beside «9.9%» under «Next
    choice: −2.2%» (the exact gap, 12.18 − 9.95): a reader works out 2.1. Both figures of tenths
    (93.4 %, 91.7 %) the footer said 1.6, rounding the gap again; two whole ones (53 %, 43 %) it said
    9.8. Figures side by side now have one precision (tenths where one needs them) and the cost is
    worked out from the figures shown, here and in Why ✓?, in every language's decimal mark."""
    from firmware.screens.jc.hit_words import why_hit
    ctx = FakeCtx(*SIDE_BY_SIDE[case], lang=lang).open(BattleScreen())
    best, other, cost = (x.replace(".", mark) for x in said)
    d = ctx.view()["battle"]["decision"]
    values = [i.value for i in ctx.top.items(ctx)][:len(d["choices"])]
    assert sorted(values) == sorted([best, other]), values
    assert ctx.texts()[-1].endswith(f"−{cost}"), ctx.texts()
    assert round(_figure(best) - _figure(other), 1) == _figure(cost)           # as a reader works it out
    why = " ".join(why_hit(ctx))
    assert f"{other} (" in why and f"{cost} " in why and best.lstrip("✓") in why, why


def test_the_same_chance_twice_is_one_figure_twice():  # J-7, J-15
    """Two blocks whose chances are equal but for a hair (62.4 %) were written «62%» and «✓63%»
    (the advised one as the odds screen rounds its three figures to sum to 100): one chance, two
    figures a point apart, with no cost in the footer. Both read 62.4 %, and so does the line."""
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical leaders=last seed=4",
                  "add attacker rating=B4 strength=4 name=a0", "add attacker rating=A1 strength=1 name=a1",
                  "add defender rating=D3 strength=3 name=d0", "add defender rating=B2 strength=3 name=d1", "start",
                  "fire a1 dice=6", "fire d1 dice=3,6,5", "fire a0 dice=6,4,3,6").open(BattleScreen())
    values = [i.value for i in ctx.top.items(ctx)][:2]
    assert sorted(values) == ["62.4%", "✓62.4%"], values
    assert ctx.texts()[-1] == "Pompey: win 62.4%", ctx.texts()


@pytest.mark.parametrize("lang, mark", [("en", "."), ("uk", ",")])
def test_bounds_and_certainties_are_said_honestly_beside_tenths(lang, mark):  # J-15
    """A chance above 99.95 % is «>99.9%», below 0.05 % «<0.1%» (never 100 % or 0 % it does not
    have), beside figures of tenths; a difference reads a bound at its end; two chances one
    decimal writes alike differ by «<0.1%», not «0%»."""
    from firmware.i18n import set_language
    from firmware.screens.jc.odds import difference, side_by_side
    set_language(lang)
    try:
        high = side_by_side([0.99962, 0.9951], 0, ">99.9%".replace(".", mark))
        assert high == [f">99{mark}9%", f"99{mark}5%"]
        assert difference(*high) == f"0{mark}5%"
        low = side_by_side([0.0031, 0.0002, 0.0], 0, f"0{mark}3%")
        assert low == [f"0{mark}3%", f"<0{mark}1%", "0%"]
        assert difference(low[0], low[1]) == f"0{mark}3%" and difference(low[1], low[2]) == f"<0{mark}1%"
        near = side_by_side([0.3041, 0.3038], 0, "30%")            # whole would write 30 % twice
        assert near == [f"30{mark}4%", f"30{mark}4%"] and difference(*near) == f"<0{mark}1%"
    finally:
        set_language("en")


@pytest.mark.parametrize("lang, fired", [("en", "Round 1 Legio 1 (C2, III): fires, rolls 1 1 6, 2 hits"),
                                         ("ru", "Раунд 1 Легион 1 (C2, III): атакует, бросок 1 1 6, 2 хита"),
                                         ("uk", "Раунд 1 Легіон 1 (C2, III): атакує, кидок 1 1 6, 2 хіти")])
def test_the_battle_log_says_a_fires_dice_as_a_roll(lang, fired):  # J-1, J-5
    """The Log read «Легион 1 (C2, III): атакует 1 1 6, 2 хита» — "attacks 1 1 6", as if the
    figures were whom it attacked. It says the dice as a roll, each row within the screen; a fire
    a journal stored before keeps its old sentence, still said in the reader's language."""
    from firmware.i18n import localize
    from firmware.screens.jc.forces import log_screen
    from engine.jc.text import Msg
    ctx = FakeCtx("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1 strength=3",
                  "start", "fire p_leg1 dice=1,1,6", lang=lang)
    assert ctx.view()["battle"]["log"][-1].startswith(fired), ctx.view()["battle"]["log"]
    screen = log_screen(ctx)
    rows = [r for r in screen.rows if r]
    assert all(len(r) <= 21 for r in rows), rows
    assert fired.split(": ")[1].split(",")[0] in " ".join(rows), rows
    stored = Msg("{}: fires {}, {n} hit", "Legio 10", "1 1 6", n=1, plural="{}: fires {}, {n} hits")
    assert localize(stored, lang) == {"en": "Legio 10: fires 1 1 6, 1 hit", "ru": "Legio 10: атакует 1 1 6, 1 хит",
                                      "uk": "Legio 10: атакує 1 1 6, 1 хіт"}[lang]


def test_a_leaders_tick_above_the_careful_block_stays_in_sight():  # J-2, J-7, J-17
    """Pompeius, Scipio, Legio 3 and Brutus at I take a hit: ✓ is Scipio (7 points better, J-2: a
    leader killed is gone for good), so the cursor starts on Legio 3, the careful block. The list
    has two rows and turned its page from the cursor: Legio 3 and Brutus (69 %, ✓'s odds) under
    «✓ is a leader!», no ✓ in sight. The page now shows Scipio's ✓ and the cursor together."""
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical seed=4", "add attacker rating=A4 strength=2 name=a",
                  "add defender p_pompeius strength=1", "add defender p_scipio strength=1",
                  "add defender p_leg3 strength=1", "add defender p_brutus strength=1", "start",
                  "pass p_scipio", "pass p_brutus", "fire a dice=1,1").open(BattleScreen())
    texts = ctx.texts()
    assert ctx.view()["battle"]["decision"]["choices"] == ["p_pompeius", "p_scipio", "p_leg3", "p_brutus"]
    assert texts[1] == "✓ is a leader!" and ctx.top.cursor == 2, texts
    assert texts[2].startswith("Scipio") and texts[3].startswith("✓") and texts[4].startswith("Legio 3"), texts
    ctx.press("a")                                    # A on the cursor: the careful block, not the leader
    assert ctx.lines[-1] == "hit p_leg3"


def test_the_odds_line_of_a_list_without_figures_keeps_its_own_rounding():  # J-15
    """The chance now is written as ✓ writes it only under the advice's figures (a block's actions,
    a hit): «Which block acts?» lists none, and its line says the odds screen's figure (54 %)
    whether or not the advice was asked for this step; under a block's actions, beside a figure
    below 10 %, it says ✓'s 53.6 %."""
    from firmware.screens.jc.odds import odds_line
    ctx = home("new jc-battle attacker=caesar seed=4", "add attacker rating=A4 strength=3 name=a0",
               "add attacker rating=A2 strength=2 name=a1", "add defender rating=C3 strength=4 name=d0",
               "add defender rating=B3 strength=2 name=d1", "start")
    assert ctx.view()["battle"]["decision"]["blocks"] == ["a0", "a1"]
    ctx.press("a")                                     # the battle: which block acts?
    assert ctx.texts()[-1] == "Caesar: win 54%", ctx.texts()
    ctx.press("a")                                     # a0's actions, with the advice's figures
    texts = ctx.texts()
    assert "✓53.6%" in texts and texts[-1] == "Caesar: win 53.6%", texts
    ctx.press("b")
    assert ctx.texts()[-1] == "Caesar: win 54%" == odds_line(ctx), ctx.texts()


def _resumed(app):
    """Main menu → Resume: the campaign's home, or the announcement not closed over it."""
    from firmware.screens.widgets import TextScreen
    app.to_root()
    app.message = None
    app.render()
    app.handle("a")
    app.render()
    while type(app.stack[-1]) is TextScreen:              # (a notice of its own closes; not an announcement)
        app.handle("b")
        app.render()
    return app.stack[-1]


def _reopened(app, sid: str) -> None:
    """Earlier games → the campaign of session ``sid``, reopened (a copy of it goes on)."""
    from firmware.screens.archive import archived, reopen
    found = [a for a in archived(app.archives() or []) if a.header.get("sid") == sid]
    assert found and reopen(app, found[0])
    assert app.fair_draw().session != sid                         # (a new session: the copy)


@pytest.mark.parametrize("new", ["new jc-battle year=4", "new jc-battle year=4 seed=8"])
def test_an_announcement_closed_stays_closed_in_the_campaign_reopened(state_dir, new):  # J-19
    """The winter's checklist closed, another game played, the campaign reopened from Earlier games
    (a copy of it goes on, in a session of its own): its checklist was said again, closed already —
    the mark read named the session, not the campaign. Now a campaign is named by its fair draw's
    commitment (which a copy keeps), or, started with ``seed=``, by the session it was first played
    in (which its copies keep): closed, it is not said again, in a copy of a copy after a restart
    either."""
    from firmware.screens.jc.campaign import Announcement
    app = app_with([], [], state_dir)
    try:
        assert '"ok":true' in app.serve_line(f"{new}".encode()) and '"ok":true' in app.serve_line(b"winter")
        top = _resumed(app)
        assert isinstance(top, Announcement) and top.title == "Winter: year 4", top
        app.handle("b")                                              # read: closed
        assert isinstance(app.stack[-1], JcHome)
        sid = app.fair_draw().session
        for _copy in range(2):                                       # a copy, then a copy of that copy
            assert '"ok":true' in app.serve_line(b"new caesar-solo seed=1")    # another game meanwhile
            _reopened(app, sid)
            assert isinstance(_resumed(app), JcHome), app.stack[-1]
            sid = app.fair_draw().session
        app.console.close()
        app = app_with([], [], state_dir)                            # the program started again
        assert app.fair_draw().session == sid
        assert isinstance(_resumed(app), JcHome), app.stack[-1]
    finally:
        app.console.close()


def test_a_roll_closed_stays_closed_in_the_battle_reopened(state_dir):  # J-7
    """The battle's last roll closed (the table reduced its blocks), another game played, the
    campaign reopened from Earlier games: the roll was said again as if never read (the mark
    named the session, and the copy is a session of its own). Now it names the campaign."""
    app = app_with(PHYSICAL, HOME, state_dir)
    try:
        assert isinstance(app.stack[-1], DiceResult), app.stack[-1]      # the roll, said on resuming
        app.handle("b")                                                  # read: closed
        assert isinstance(app.stack[-1], BattleScreen)                   # (the battle fought on)
        sid = app.fair_draw().session
        assert '"ok":true' in app.serve_line(b"new caesar-solo seed=1")
        _reopened(app, sid)
        assert isinstance(_resumed(app), BattleScreen), app.stack[-1]
    finally:
        app.console.close()


@pytest.mark.parametrize("kept_by, said", [("the copy", False), ("another campaign", True), ("no session", True)])
def test_an_announcement_closed_under_the_copys_session_stays_closed(state_dir, kept_by, said):  # J-19
    """A campaign started with ``seed=`` reopened from Earlier games, its winter closed in the copy
    by an older Legatus, which named the copy's own session (``<session>/:<marker>``): after the
    update it stays closed. A mark of another campaign's session, or of none (an older Legatus's
    ``:<marker>``, any campaign's), never closes this one's announcement: it is said again."""
    from firmware.screens.jc.campaign import READ_KEY, Announcement, _digest, winter_said
    app = app_with([], [], state_dir)
    try:
        assert '"ok":true' in app.serve_line(b"new jc-battle year=4 seed=8")
        other = app.fair_draw().session                                   # another campaign, the same words
        assert '"ok":true' in app.serve_line(b"new jc-battle year=4 seed=8") and '"ok":true' in app.serve_line(b"winter")
        sid = app.fair_draw().session
        assert '"ok":true' in app.serve_line(b"new caesar-solo seed=1")
        _reopened(app, sid)
        view = app.view()
        session = {"the copy": app.fair_draw().session, "another campaign": other, "no session": None}[kept_by]
        marker = f":w4#{_digest(winter_said(view['winter']))}"
        kept = marker if session is None else f"{session}/{marker}"
        assert app.set_setting(READ_KEY, kept)["ok"]
        top = _resumed(app)
        assert isinstance(top, Announcement) if said else isinstance(top, JcHome), top
    finally:
        app.console.close()


def test_an_announcement_closed_stays_closed_after_other_campaigns(state_dir):  # J-18, J-19
    """Campaign A's winter closed; other campaigns played on, each announcement closed there too;
    A reopened from Earlier games said its winter again, closed long ago: the setting kept the one
    campaign's mark closed last. Now it keeps the newest closed of each of the last campaigns (four
    at the least in its 512 characters); one not closed in A is still said."""
    from firmware.screens.jc.campaign import READ_KEY, Announcement
    app = app_with([], [], state_dir)
    try:
        sids = []
        for new in ("new jc-battle year=4 seed=8", "new jc-battle year=4", "new jc-battle year=3 seed=8",
                    "new jc-battle year=2"):
            assert '"ok":true' in app.serve_line(new.encode()) and '"ok":true' in app.serve_line(b"winter")
            top = _resumed(app)
            assert isinstance(top, Announcement) and top.title.startswith("Winter"), top
            app.handle("b")                                          # read: closed
            sids.append(app.fair_draw().session)
        assert len(str(app.settings[READ_KEY])) <= 512
        for sid in sids:
            _reopened(app, sid)
            assert isinstance(_resumed(app), JcHome), (sids.index(sid), app.stack[-1])
        assert '"ok":true' in app.serve_line(b"undo") and '"ok":true' in app.serve_line(b"control Roma caesar")
        assert '"ok":true' in app.serve_line(b"winter")              # another winter in the last: not closed
        assert isinstance(_resumed(app), Announcement), app.stack[-1]
    finally:
        app.console.close()


def test_a_roll_closed_stays_closed_after_other_campaigns_rolls(state_dir):  # J-7
    """Battle A's last roll closed; other campaigns fought, their rolls closed too; A reopened from
    Earlier games said its roll again, closed long ago: the setting kept the rolls of the campaign
    closed last only. Now it keeps the newest roll closed of each of the last campaigns too."""
    from firmware.screens.jc.roll import ROLL_KEY
    app = app_with([], [], state_dir)
    try:
        sids = []
        for seed in ("seed=1", "", "seed=1", ""):
            for line in (f"new jc-battle dice=physical {seed}".strip(), *PHYSICAL[1:]):
                assert '"ok":true' in app.serve_line(line.encode()), line
            assert isinstance(_resumed(app), DiceResult), app.stack[-1]
            app.handle("b")                                              # read: closed
            sids.append(app.fair_draw().session)
        assert len(str(app.settings[ROLL_KEY])) <= 512
        for i, sid in enumerate(sids):
            _reopened(app, sid)
            assert isinstance(_resumed(app), BattleScreen), (i, app.stack[-1])       # not the roll: the battle
    finally:
        app.console.close()


def _cards_played(app) -> None:
    """This year's cards dealt and the first played over the serial link: a reveal (J-18)."""
    assert '"ok":true' in app.serve_line(b"deal")
    hands = {s: [c for c in app.console.request(f"hand {s}")["hand"] if c != "apollo"] for s in ("caesar", "pompey")}
    for line in ("discard caesar {}", "discard pompey {}", "play caesar {}", "play pompey {}"):
        side = line.split()[1]
        assert '"ok":true' in app.serve_line(line.format(hands[side].pop()).encode()), line


def test_what_the_serial_link_announces_is_said_on_the_home(state_dir):  # J-7, J-18, J-19
    """The device on the campaign's home, the year's cards revealed, then the winter, over the serial
    link: nothing was said on the device (the table looks at it, not at the laptop) until the game
    was left and opened again. Now the home says each when it comes on top, once: closed, it is not
    said again, and an undo of the winter does not say the reveal closed before it again."""
    from firmware.screens.jc.campaign import Announcement
    app = app_with(["new jc-battle year=4 seed=8"], ["a"], state_dir)
    try:
        app.render()
        assert isinstance(app.stack[-1], JcHome)
        _cards_played(app)
        app.render()
        top = app.stack[-1]
        assert isinstance(top, Announcement) and top.title == "Reveal", top
        app.handle("b")                                                  # closed
        app.render()
        assert isinstance(app.stack[-1], JcHome)
        assert '"ok":true' in app.serve_line(b"winter")
        app.render()
        top = app.stack[-1]
        assert isinstance(top, Announcement) and top.title == "Winter: year 4", top
        _read_out(app)                                                   # read and closed
        app.render()
        assert isinstance(app.stack[-1], JcHome)
        assert '"ok":true' in app.serve_line(b"undo")
        app.message = None
        app.render()
        assert isinstance(app.stack[-1], JcHome), app.stack[-1]          # the reveal, closed: not again
    finally:
        app.console.close()


def test_a_winter_made_again_is_said_again_only_if_it_says_other_than_the_one_read_last(state_dir):  # J-19
    """A winter undone and made again over the serial link: the same checklist as the one read need
    not be said again (the table did those tasks); another must be (a city's holder corrected: other
    tasks). And one made again as it was before the winter read last (A, undone, B read, undone, A
    again) says other than what the table did last: it was taken for read, as A had been read once."""
    from firmware.app import App
    from firmware.screens.jc.campaign import Announcement

    def said(app: App) -> list[str] | None:
        app.message = None
        app.render()
        top = app.stack[-1]
        if not isinstance(top, Announcement):
            return None
        rows = list(top.rows)
        _read_out(app)                                                   # read: closed
        app.render()
        assert isinstance(app.stack[-1], JcHome), app.stack[-1]
        return rows

    app = app_with(["new jc-battle year=4 seed=8"], ["a"], state_dir)
    try:
        app.render()
        assert '"ok":true' in app.serve_line(b"winter")
        first = said(app)
        assert first is not None
        assert '"ok":true' in app.serve_line(b"undo") and '"ok":true' in app.serve_line(b"winter")
        assert said(app) is None                                         # the same winter: read already
        for line in (b"undo", b"control Alexandria caesar", b"winter"):
            assert '"ok":true' in app.serve_line(line), line
        other = said(app)
        assert other is not None and other != first, other              # another winter: said
        for line in (b"undo", b"undo", b"winter"):                       # the winter, then the holder undone
            assert '"ok":true' in app.serve_line(line), line
        assert said(app) == first                                        # not what was read last: said again
        assert '"ok":true' in app.serve_line(b"undo") and '"ok":true' in app.serve_line(b"winter")
        assert said(app) is None                                         # and now read
    finally:
        app.console.close()


def test_a_roll_sent_over_the_serial_link_is_shown_on_the_home(state_dir):  # J-1, J-7
    """A fire sent over the serial link while the device shows the home: its dice and where the hits
    went were shown only once the game was left and opened again. Now the home shows the roll when
    it comes on top; closed, it is not shown again."""
    app = app_with(PHYSICAL[:-1], HOME + ["b"], state_dir)            # (the battle screen first: B to the home)
    try:
        app.render()
        assert isinstance(app.stack[-1], JcHome)
        assert '"ok":true' in app.serve_line(PHYSICAL[-1].encode())
        app.render()
        assert isinstance(app.stack[-1], DiceResult), app.stack[-1]
        app.handle("b")                                                  # closed
        app.render()
        assert isinstance(app.stack[-1], JcHome)
        app.render()
        assert isinstance(app.stack[-1], JcHome)
    finally:
        app.console.close()


def test_a_roll_sent_over_the_serial_link_is_shown_on_the_battle_screen(state_dir):  # J-1, J-5, J-7
    """The game opens on the battle screen while a battle is fought; a fire sent over the serial
    link (the table's laptop) was shown only on the home: one press (B) to see the dice. The battle
    screen shows it as the home does — closed, not again; a roll there before it was first drawn is
    the home's or the opening's to say, not said twice."""
    app = app_with(PHYSICAL[:-1], HOME, state_dir)                     # the battle screen at once
    try:
        app.render()
        assert isinstance(app.stack[-1], BattleScreen), app.stack
        assert '"ok":true' in app.serve_line(PHYSICAL[-1].encode())
        app.render()
        assert isinstance(app.stack[-1], DiceResult), app.stack[-1]
        assert app.stack[-1].turn["dice"] == [6, 6, 6, 6]
        app.handle("b")                                                  # closed
        for _ in range(2):
            app.render()
            assert isinstance(app.stack[-1], BattleScreen), app.stack[-1]
    finally:
        app.console.close()


def test_what_the_link_did_before_its_roll_is_said_with_the_roll(state_dir):  # J-8, J-1
    """The serial link plays round 1 to its end (Caesar's reserves arrive, J-8) and Caesar's first
    fire of round 2 while the battle screen is shown: the fire's page shows its dice, and the
    arrival, which is not that roll's, is said too (as a notice over it), not lost under the page."""
    ctx = FakeCtx(NEW, "add attacker c_caesar", "add attacker c_leg10", "add attacker c_leg8 reserve=1",
                  "add defender p_pompeius", "add defender p_leg1", "start").open(BattleScreen())
    ctx.render()
    for _turn in range(4):
        ctx.run("auto")                                              # round 1, over the link
    assert ctx.view()["battle"]["events"] == ["Caesar's reserves arrive: Legio 8."]
    ctx.run("fire c_caesar")
    ctx.render()
    assert isinstance(ctx.top, DiceResult) and ctx.top.turn["block"] == "c_caesar", ctx.top
    assert "Caesar's reserves arrive: Legio 8." in " ".join(map(str, ctx.notes)), ctx.notes


@pytest.mark.parametrize("start", [HOME + ["b"], HOME])
def test_a_fight_sent_over_the_serial_link_says_the_same_page_on_the_home_and_the_battle(start, state_dir):  # J-12, J-13
    """``fight`` over the serial link: the home said it on the last fire's page (its dice, the end,
    the regroup), the battle screen on a «Battle over» page without the dice. One page for what a
    line from the link did, wherever the device is: the roll's, with what the rules did by it."""
    app = app_with([WON, "add attacker c_leg10", "add defender p_leg1", "start"], start, state_dir)
    try:
        app.render()
        assert isinstance(app.stack[-1], JcHome if start[-1] == "b" else BattleScreen), app.stack
        assert '"ok":true' in app.serve_line(b"fight")
        app.render()
        assert isinstance(app.stack[-1], DiceResult), app.stack[-1]
        said = " ".join(app.stack[-1].paras())
        assert "Battle over: the attacker wins" in said and "may regroup" in said, said
        app.handle("b")
        app.render()
        assert type(app.stack[-1]).__name__ in ("JcHome", "BattleScreen") and app.message is None, app.stack
    finally:
        app.console.close()


def test_an_announcement_closed_while_the_card_refuses_writes_is_not_said_again(state_dir):  # J-19
    """The card refuses to keep the winter closed (``jc.read`` not written): the home says what is
    not closed when it comes on top, so the checklist came back at once, again and again, with no
    way to the home. What was closed is kept while the program runs."""
    from firmware.screens.jc.campaign import Announcement
    app = app_with(["new jc-battle year=4 seed=8"], ["a"], state_dir)
    try:
        app.render()
        assert '"ok":true' in app.serve_line(b"winter")
        app.render()
        assert isinstance(app.stack[-1], Announcement)
        app.set_setting = lambda key, value: {"ok": False, "error": "storage", "message": "the card refused"}
        app.handle("b")                                                  # closed: not kept
        for _ in range(3):
            app.render()
            assert isinstance(app.stack[-1], JcHome), app.stack[-1]
    finally:
        app.console.close()


def test_a_roll_closed_while_the_card_refuses_writes_is_not_shown_again(state_dir):  # J-7
    """The card refuses to keep the roll closed (``jc.roll`` not written): the home, which shows a
    roll not closed when it comes on top, showed it again at once, with no way to the home. What
    was closed is kept while the program runs."""
    app = app_with(PHYSICAL[:-1], HOME + ["b"], state_dir)            # (the battle screen first: B to the home)
    try:
        app.render()
        assert '"ok":true' in app.serve_line(PHYSICAL[-1].encode())
        app.render()
        assert isinstance(app.stack[-1], DiceResult), app.stack[-1]
        app.set_setting = lambda key, value: {"ok": False, "error": "storage", "message": "the card refused"}
        app.handle("b")                                                  # closed: not kept
        for _ in range(3):
            app.render()
            assert isinstance(app.stack[-1], JcHome), app.stack[-1]
    finally:
        app.console.close()


@pytest.mark.parametrize("lines, role", [([NEW], "attacker"),
                                         ([NEW, "add attacker c_leg10"], "defender"),
                                         ([NEW, "add defender p_leg1"], "attacker")])
def test_a_set_up_with_a_side_empty_opens_on_adding_to_it(lines, role):  # rules 7.3: both sides need a block
    """The battle's set-up opened on Start round 1 with a side still empty: A there only said «the
    attacker has no blocks: add a block first». It opens on the empty side's Add row: A adds."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(*lines).open(JcHome()).press("a")
    assert isinstance(ctx.top, BattleScreen)
    ctx.render()
    ctx.press("a")
    assert isinstance(ctx.top, AddScreen) and ctx.top.role == role, type(ctx.top).__name__


def test_a_set_up_with_both_sides_opens_on_start():  # rules 7.3
    ctx = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1").open(JcHome()).press("a")
    ctx.render()
    ctx.press("a")
    assert ctx.view()["battle"]["phase"] != "setup"


@pytest.mark.parametrize("lang, said", [
    ("en", "Year 2 has had no battle and no card played since the last winter: this winter skips it."),
    ("ru", "С прошлой зимы 2-й год идёт без боёв и без сыгранных карт: эта зима пропустит его целиком."),
    ("uk", "У 2-му році від минулої зими не було ні бою, ні зіграної карти: ця зима пропустить його цілком.")])
def test_a_second_winter_at_once_is_asked_as_the_year_it_skips(lang, said):  # J-19
    """Winter, then Winter again at once: the question asked as for any winter («End the year …»)
    and a second A skipped year 2 unplayed. It says so now, and A sends the winter that says the
    year passed without a battle (the console refuses a bare second one, docs/protocol/jc.md)."""
    ctx = FakeCtx(NEW, "winter", lang=lang)
    ctx.open(JcHome()).press(*DOWN * 10, "a")
    assert isinstance(ctx.top, ConfirmScreen)
    assert ctx.top.question.startswith(said), ctx.top.question
    say_yes(ctx)
    assert ctx.session.lines[-1] == "winter quiet=1" and ctx.view()["campaign"]["year"] == 3
    played = FakeCtx(NEW, "winter", "add attacker c_leg10", "add defender p_leg1", "fight", "next-battle", lang=lang)
    played.open(JcHome()).press(*DOWN * 10, "a")
    assert said not in played.top.question
    say_yes(played)
    assert played.session.lines[-1] == "winter"


BIG = ["new jc-battle seed=21", *(f"add attacker {b}" for b in ("c_caesar", "c_leg7", "c_leg8", "c_leg9", "c_leg10",
                                                                "c_leg11", "c_antonius")),
       *(f"add defender {b}" for b in ("p_pompeius", "p_leg1", "p_leg2", "p_leg3", "p_leg4", "p_leg5", "p_scipio")),
       "start", "fire p_scipio", "hit c_leg7", "hit c_leg9", "fire c_caesar", "fire c_antonius", "hit p_leg1",
       "fire p_pompeius"]


@pytest.mark.slow
def test_a_kill_on_a_big_battles_hit_pick_resumes_on_the_board_with_its_odds_computed_once(state_dir):  # J-7, J-15
    """Seven blocks a side, Pompeius's fire leaves Caesar a tied hit to place (J-7). The device
    program (legatus --sim --script) is killed with SIGKILL on that pick — the roll read, the odds
    of 14 blocks on the panel. Started again: Resume, Battle shows the same pick (the blocks the
    board offers, ✓ on one of them) and the same chance as the console's odds of the stored board
    (J-15), computed once for all the frames drawn."""
    from engine.jc import odds as O
    killed_after_presses(state_dir, BIG, 2)                   # Resume (on the battle), the roll closed: the pick
    O.forget()                                                # a new process: no table kept
    app = app_with([], ["a"], state_dir)                      # Resume: the roll was read before the kill, the
    try:                                                      # battle being fought opens on its decision
        d = app.view()["battle"]["decision"]
        assert d["kind"] == "hit" and d["side"] == "caesar" and len(d["choices"]) == 4, d
        app.render()
        top = app.stack[-1]
        assert isinstance(top, BattleScreen)
        names = {b["key"]: b["name"] for b in app.view()["battle"]["blocks"]}
        labels = [str(i.label).split("  ")[0] for i in top.items(app)]
        assert labels[:len(d["choices"])] == [names[k] for k in d["choices"]], (labels, d["choices"])
        for _frame in range(5):
            drawn(app)
        odds = app.console.request("odds")                    # the stored board's, asked by the link
        advised = [(str(i.label).split("  ")[0], str(i.value)) for i in top.items(app) if str(i.value).startswith("✓")]
        assert advised == [(names[d["default"]], f"✓{round(100 * odds['attacker_wins'], 1)}%")], (advised, odds)
        assert O.computations() == 1
    finally:
        app.console.close()


def _pages_by_a(ctx: FakeCtx, screen, total: int, shown_at) -> tuple[set[int], int]:
    """A pressed on ``screen`` (``total`` rows) until it closes: the rows each page showed, and the
    A's it took."""
    reached: set[int] = set()
    for presses in range(1, 20):
        ctx.render()
        top = screen.scroll.top
        reached |= set(range(top, min(total, top + shown_at(top))))
        ctx.press("a")
        if ctx.top is not screen:
            assert top + shown_at(top) >= total, (top, total)    # closed only on its last page
            return reached, presses
    raise AssertionError("A never closed it")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_on_the_battle_s_result_reads_on_before_it_closes(lang):  # J-12, J-13
    """docs/keys.md (Scroll.go_on): A on a text with rows below shows the next page and closes only
    on the last one. The result page (who holds the field, then the winner's regroup, J-12/J-13)
    closed on the first A with the regroup unread below the big name; B still closes at once."""
    from firmware.screens.jc.over import OverScreen
    lines = ("new jc-battle attacker=caesar seed=4", "add attacker c_leg10", "add defender p_leg1", "fight")
    ctx = FakeCtx(*lines, lang=lang)
    closed: list[int] = []
    screen = OverScreen(closed=lambda c: closed.append(1))
    ctx.open(screen)
    ctx.render()
    total = len(screen.rows(ctx.view()))                          # type: ignore[arg-type]
    assert total > screen.SHORT                                   # the regroup goes on below the name
    reached, presses = _pages_by_a(ctx, screen, total, lambda top: screen.SHORT if top == 0 else screen.LONG)
    assert reached == set(range(total)) and presses > 1 and closed == [1]
    at_once = FakeCtx(*lines, lang=lang)
    other = OverScreen()
    at_once.open(other)
    at_once.render()
    at_once.press("b")
    assert at_once.top is not other                               # B closes at once


def test_a_on_a_roll_page_reads_on_before_it_closes():  # J-2, J-12
    """The roll page (DiceResult) shows two rows under the dice; what the rules did after the fire
    (J-2 a leader killed, J-12 the winner's regroup) goes on below. A closed it on the first page
    (the rest unread) and went on to what follows it; now A shows the next rows first (docs/keys.md)."""
    ctx = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1", "start")
    turn = {"dice": [6, 5], "hit_dice": [True, False], "hits": 1, "applied": [], "lost": 0,
            "block": "c_leg10", "rating": "B2", "turn": 1}
    events = ["Pompey may regroup: every block that won the battle may move to adjacent friendly or vacant cities.",
              "Cleopatra goes over to Caesar."]
    went_on: list[int] = []
    page = DiceResult(turn, then=lambda c: went_on.append(1), events=events)   # type: ignore[arg-type]
    ctx.open(page)
    ctx.render()
    total = len(page.rows(ctx.view()["battle"]["blocks"]))
    assert total > page.ROOM
    long = total > 2 * page.ROOM             # past its first page a long text has four rows (the dice seen)
    reached, presses = _pages_by_a(ctx, page, total, lambda top: page.LONG if top and long else page.ROOM)
    assert reached == set(range(total)) and presses > 1 and went_on == [1]


def _navis_4(ctx: FakeCtx) -> dict:
    from firmware.screens.jc.blocks import roster_of
    return next(b for b in roster_of(ctx, "caesar") if b["id"] == "c_nav4")


def test_the_last_step_question_goes_when_the_block_is_disbanded_meanwhile():  # J-3, J-20
    """Blocks → Caesar → Navis 4 at I → Lose a step: the question «Lose a step?» stayed when a serial
    line disbanded the navis to the levy pool meanwhile (it is at I there too, J-20), and its yes
    sent «lose c_nav4»: the refusal said the console's words on the device («…очко найму виставить
    його на мапу: gain c_nav4)», monkey jc-next-battle). Now the question goes with the block as it
    asked about; the block's menu under it offers the levy, and nothing is refused."""
    from firmware.screens.jc.blocks import BlockMenu, LastStepQuestion
    ctx = FakeCtx(NEW, lang="uk")
    assert _navis_4(ctx)["strength"] == 1 and not _navis_4(ctx)["pool"]
    menu = BlockMenu("caesar", "c_nav4")
    ctx.open(menu)
    ctx.press("a")                                               # Lose a step: the last one, asked first
    assert isinstance(ctx.top, LastStepQuestion)
    assert ctx.link("disband c_nav4")["ok"] and _navis_4(ctx)["pool"]
    assert ctx.top is menu and [i.key for i in menu.items(ctx)] == ["levy"]
    ctx.press("a")                                               # what the menu shows now: the levy
    ctx.render()
    assert "lose c_nav4" not in ctx.lines and not any("gain c_" in n for n in ctx.notes), ctx.notes
    assert not _navis_4(ctx)["pool"] and _navis_4(ctx)["strength"] == 1


def test_a_block_s_form_goes_when_the_block_goes_to_the_levy_pool_meanwhile():  # J-20
    """Set-up → hold A on Navis 4 (at II): its form offered II; a serial line disbanded it to the
    levy pool meanwhile (a levy brings it in at I only, J-20), and the form's A sent «add attacker
    c_nav4 strength=2», refused with the console's words on the device («…(gain c_nav4)»). Now the
    form goes once the block's strengths are no longer those it offered, and nothing is sent."""
    from firmware.screens.jc.setup import block_form
    ctx = FakeCtx(NEW, "gain c_nav4", lang="uk")
    form = block_form("attacker", _navis_4(ctx))
    ctx.open(form)
    assert "II" in " ".join(ctx.texts())
    assert ctx.link("disband c_nav4")["ok"] and _navis_4(ctx)["pool"]
    assert form not in ctx.stack
    ctx.press("a")
    ctx.render()
    assert not any(line.startswith("add ") for line in ctx.lines) and not any("gain c_" in n for n in ctx.notes)
    kept = FakeCtx(NEW, "gain c_nav4")                             # another block's change: the form stays
    other = block_form("attacker", _navis_4(kept))
    kept.open(other)
    kept.link("lose c_leg10")
    assert other in kept.stack
