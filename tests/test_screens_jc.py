"""Julius Caesar screens: golden screens (through the real App) and what the keys do, on a FakeCtx
(an in-memory session, no storage) (J-5, J-7, J-14, J-17, J-18, J-19)."""
from __future__ import annotations

import pytest

from firmware.screens.widgets import ConfirmScreen
from firmware.screens.jc.battle import BattleScreen, DiceResult
from firmware.screens.jc.campaign import HandScreen
from firmware.screens.jc.home import JcHome
from firmware.screens.jc.odds import odds_screen
from firmware.screens.jc.setup import setup_form
from firmware.screens.widgets import OddsScreen
from tests.fakectx import FakeCtx
from tests.screens import app_with, assert_golden

NEW = "new jc-battle seed=3"
ARMIES = [NEW, "add attacker c_caesar", "add attacker c_leg10", "add defender p_pompeius",
          "add defender p_leg1"]
TIE = [NEW, "add attacker rating=A4 strength=2 name=a", "add defender p_leg1 strength=3",
       "add defender p_leg3", "add defender p_scipio", "start", "pass p_scipio", "fire a dice=1,2"]
PHYSICAL = ["new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1", "start",
            "fire p_leg1 dice=6,6,6,6"]
HOME = ["a"]                          # main menu: "Resume Julius Caesar"
DOWN = ["down"]

CASES = {
    "jc_setup": ([], ["a", "down", "a", "b", "right", "down", "right"]),
    "jc_home": ([NEW, "add attacker c_caesar"], HOME),
    "jc_add": ([NEW], HOME + DOWN + ["a", "down", "down"]),
    "jc_turn": (ARMIES + ["start"], HOME + ["a"]),
    "jc_hit": (TIE, HOME + ["a", "down"]),
    "jc_dice": (ARMIES + ["start"], HOME + ["a", "a"]),
    "jc_dice_entry": (PHYSICAL, HOME + ["a", "a", "up", "up", "up", "right", "down"]),
    "jc_turn_ru": (ARMIES + ["start"], HOME + ["a"]),
    "jc_turn_uk": (ARMIES + ["start"], HOME + ["a"]),
    "jc_hit_ru": (TIE, HOME + ["a"]),
    "jc_odds_ru": (ARMIES + ["add attacker c_leg8 reserve=1"], HOME + DOWN * 3 + ["a"]),
    "jc_over_uk": ([NEW, "add attacker c_leg10", "add defender p_leg1", "fight"], HOME + ["a", "a"]),
    "jc_home_ru": ([NEW, "add attacker c_caesar"], HOME),
    "jc_odds": (ARMIES + ["add attacker c_leg8 reserve=1"], HOME + DOWN * 3 + ["a"]),
    "jc_forces": (ARMIES + ["add attacker c_leg8 reserve=1", "start", "fire dice=1,5,6"], HOME + DOWN * 3 + ["a"]),
    "jc_over": ([NEW, "add attacker c_leg10", "add defender p_leg1", "fight"], HOME + ["a", "a"]),
    "jc_vp": ([NEW, "control Roma caesar"], HOME + DOWN * 7 + ["a"]),
    "jc_cards": ([NEW, "deal"], HOME + DOWN * 8 + ["a"]),
    "jc_winter": ([NEW, "control Alexandria caesar"], HOME + DOWN * 9 + ["a", "a"]),
}


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


def test_adding_a_roster_block_as_a_reserve():  # J-8
    ctx = home(NEW).press(*DOWN, "a", "down", "a", "down", "right", "a")
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
    ctx = home(NEW, "deal").press(*DOWN * 8, "a", "down", "a")
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
    ctx.press("a")
    assert isinstance(ctx.top, JcDiceEntry) and ctx.top.auto
    ctx.press("up", "a")
    assert ctx.session.lines[-1].startswith("auto dice=")


def test_the_battle_screen_shows_the_odds_without_a_press():  # J-15, issue 11
    ctx = home(*ARMIES, "start").press("a")
    odds = ctx.run("odds")
    side = ctx.view()["battle"]["decision"]["side"]
    win = odds["attacker_wins"] if side == "caesar" else 1 - odds["attacker_wins"]
    assert f"Caesar: win {100 * win:.0f}%" in ctx.texts()
    assert ctx.session.lines[-1] == "start"     # odds and advice change nothing


def test_what_the_rules_did_is_said_once_and_never_from_another_game():  # J-13
    from firmware.screens.jc.battle import BattleScreen
    first = FakeCtx(NEW, "add attacker c_leg10", "add defender p_leg1").open(BattleScreen())
    first.render()                                     # battle 1 of one game, looked at in its set-up
    assert first.notes == []
    first.run("fight")
    first.render()
    assert len(first.notes) == 1 and "Battle over" in first.notes[0]   # said where it happens, once
    first.render()
    assert len(first.notes) == 1
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
    ctx = home(*ARMIES, "start").press(*DOWN * 7, "a")
    assert ctx.session.lines[-1] == "start"
    assert ctx.notes and "after the battle" in ctx.notes[-1]


def test_winter_is_not_offered_while_a_battle_is_being_set_up():  # J-19
    ctx = home(*ARMIES).press(*DOWN * 9, "a")              # (set-up: two more rows, Add …)
    assert ctx.session.lines[-1] == ARMIES[-1]                 # no winter line was sent
    assert ctx.notes and "being set up" in ctx.notes[-1] and "remove" not in ctx.notes[-1]


def test_the_game_ending_winter_is_titled_game_over():  # J-17
    lines = [NEW] + [f"control {c} caesar" for c in ("Roma", "Alexandria", "Athenae", "Byzantium",
                                                     "Carthago_Nova", "Ephesus", "Antiochia", "Utica")]
    ctx = home(*lines).press(*DOWN * 9, "a", "a")
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
    """The elephant's track is IV, II (the rules' roster): its form steps IV → II, never III (the
    form offered I..IV and A on III was refused); a legion's steps IV..I as before."""
    from firmware.screens.jc.setup import AddScreen
    ctx = FakeCtx(NEW)
    ctx.open(AddScreen("defender"))
    labels = [str(item.label) for item in ctx.top.items(ctx)]
    ctx.press(*["down"] * labels.index("Elephant"), "a")
    assert ctx.top.title == "Elephant"
    shown = []
    for _ in range(3):
        ctx.top.render(ctx)
        shown.append(str(ctx.top.items(ctx)[0].value))
        ctx.press("left")
    assert shown == ["<IV>", "<II>", "<II>"]
    ctx.press("a")
    assert ctx.lines[-1] == "add defender p_elephant strength=2" and not ctx.notes
    legion = FakeCtx(NEW)
    legion.open(AddScreen("defender"))
    labels = [str(item.label) for item in legion.top.items(legion)]
    legion.press(*["down"] * labels.index("Legio 1"), "a", "left", "left", "left", "a")
    assert legion.lines[-1] == "add defender p_leg1 strength=1"


def _undo_on_the_device(app) -> None:
    app.handle("b:hold")
    app.render()
    app.handle("a")                                     # yes, take it back
    app.render()
    while app.message or type(app.stack[-1]).__name__ == "TextScreen" and app.stack[-1].title == "Note":
        app.handle("b")                                 # the note of the undo closes
        app.render()


def test_an_undone_fire_takes_its_dice_off_the_screen(state_dir):  # J-5
    """The dice of a fire are shown; an undo takes the fire back: its dice go (they stayed, with
    hits that no block had taken any more), and the same dice come back when it fires again."""
    app = app_with(ARMIES + ["start"], HOME + ["a", "a"], state_dir)
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
    app = app_with(ARMIES + ["start", "fire c_caesar"], HOME + DOWN * 3 + ["a"], state_dir)
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
    app = app_with(TIE, HOME + ["a"], state_dir)
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
