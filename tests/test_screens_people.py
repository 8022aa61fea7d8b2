"""Issue 24 on the screens: players remembered in every player form, History → Players, the
statistics per person, and what the Julius Caesar battle screen says when the rules act."""
from __future__ import annotations

from tests.screens import say_yes

import pytest

from firmware.screens import base
from firmware.screens.widgets.people import PlayerMenu, PlayerPicker, PlayersScreen
from tests.fakectx import FakeCtx

KNOWN = ["Анна", "Борис", "Вера"]


# -- every player form offers the known players first ------------------------------------------------
def test_jc_new_battle_names_the_players_of_the_two_sides():
    from firmware.screens.jc.home import JcHome
    from firmware.screens.jc.setup import setup_form
    ctx = FakeCtx(players=KNOWN).open(setup_form(home=JcHome))
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels[3:] == ["Cleopatra fights for her new side", "Caesar", "Pompey", "Fair draw",
                          "Players' share"]         # the J-2 rule, the sides, then the fair draw
    ctx.press("down", "down", "down", "down", "a")  # Caesar's player: the list
    assert isinstance(ctx.top, PlayerPicker) and str(ctx.top.items(ctx)[ctx.top.cursor].label) == "Анна"
    ctx.press("a")                                  # Анна: two presses; on to Pompey's row
    ctx.press("a", "a")                             # Борис: the first not at the table
    ctx.press("up", "up", "up", "up", "up", "a")    # A on a figure row: start
    assert ctx.lines[-1] == ("new jc-battle attacker=caesar surprise=0 dice=digital cleopatra=turn "
                             "people=caesar:Анна,pompey:Борис")
    assert ctx.view()["people"] == {"caesar": "Анна", "pompey": "Борис"}


def test_jc_next_battle_keeps_the_campaigns_dice():  # issue 24 §2
    from firmware.screens.jc.home import JcHome
    ctx = FakeCtx("new jc-battle dice=physical seed=1", "add attacker c_leg10", "add defender p_leg1",
                  "start", "fight").open(JcHome())
    ctx.press("down", "a")                          # Next battle (the battle is over)
    values = {f.key: f.value for f in ctx.top.fields}
    assert values["dice"] == 1
    ctx.press("a")
    assert ctx.lines[-1].endswith("dice=physical") and ctx.view()["battle"]["dice"] == "physical"


def test_sword_offers_the_two_player_game_and_names_the_people_of_the_powers():
    from firmware.screens.sword.home import PeopleForm, SetupScreen, SwordHome
    ctx = FakeCtx(players=KNOWN).open(SetupScreen())
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "2 players" in labels
    ctx.press(*["down"] * labels.index("2 players"), "a")
    assert isinstance(ctx.top, PeopleForm)
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["▶ Start", "Romans", "Gauls",
                                                          "Fair draw", "Players' share"]   # the fair draw after them
    ctx.press("down", "a", "down", "a")             # the Romans: Борис
    ctx.press("up", "up", "a")                      # Start
    assert ctx.lines[-1] == "new sword players=romans,gauls people=romans:Борис"
    assert isinstance(ctx.top, SwordHome) and ctx.view()["factions"] == ["romans", "gauls"]


def test_the_caesar_duel_names_its_two_players():
    from firmware.screens.caesar.setup import setup_form
    ctx = FakeCtx(players=KNOWN).open(setup_form())
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "Caesar" not in labels                   # solo: one player, no seats
    ctx.press("right")                              # Players: duel
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    seat = labels.index("Caesar")
    assert labels[seat + 1] == "Pompey"
    ctx.press(*["down"] * seat, "a", "a")           # Анна plays Caesar
    ctx.top.go(ctx)
    assert "people=caesar:Анна" in " ".join(ctx.lines)


def test_a_new_player_is_one_press_away_however_many_are_known():
    """The keyboard for a name nobody knows yet sits just above the likeliest known player (the
    cursor's row): with 20 players remembered it took 21 presses down to reach it."""
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.setup import SetupScreen
    from firmware.screens.widgets.keyboard import TypeScreen
    known = [f"P{i}" for i in range(20)]
    ctx = FakeCtx(players=known).open(SetupScreen(GloryHome))
    ctx.render()
    ctx.press("down", "a")                          # player 1: the list, on the likeliest known player
    assert isinstance(ctx.top, PlayerPicker)
    assert str(ctx.top.items(ctx)[ctx.top.cursor].label) == "P4"     # the first not at the table
    ctx.press("up", "a")
    assert isinstance(ctx.top, TypeScreen)
    fresh = FakeCtx().open(SetupScreen(GloryHome))
    fresh.render()
    fresh.press("down", "a", "a")                   # nobody known: the keyboard is the first row
    assert isinstance(fresh.top, TypeScreen)


def test_the_name_editor_opens_on_the_current_text():
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.setup import SetupScreen
    from firmware.screens.widgets.keyboard import TypeScreen
    ctx = FakeCtx(players=["Ана"]).open(SetupScreen(GloryHome))
    ctx.press("down", "a", "up", "a")               # Player 1 (Ана): the list (on Ана ✓), Enter a name… above
    assert isinstance(ctx.top, TypeScreen) and ctx.top.name == "Ана"


def test_b_on_the_keyboard_asks_before_a_typed_name_is_lost():
    """B beside A on the board: a name typed letter by letter (40 presses) is not lost to one slip
    of B without a question; B with nothing new typed goes straight back."""
    from firmware.screens.widgets import ConfirmScreen
    from firmware.screens.widgets.keyboard import TypeScreen
    got: list[str] = []
    ctx = FakeCtx().open(PlayersScreen())
    ctx.open(TypeScreen(lambda c, name: got.append(name), "", capital=True))
    ctx.press("b")                                  # nothing typed: back at once
    assert isinstance(ctx.top, PlayersScreen)
    ctx.open(TypeScreen(lambda c, name: got.append(name), "", capital=True))
    ctx.press("a", "right", "a")                    # "Ab"
    ctx.press("b")
    assert isinstance(ctx.top, ConfirmScreen) and "Ab" in " ".join(ctx.top.rows)
    ctx.press("b")                                  # no: back on the keyboard, the name kept
    assert isinstance(ctx.top, TypeScreen) and ctx.top.name == "Ab"
    ctx.press("b", "a")                             # yes: leave without it
    assert isinstance(ctx.top, PlayersScreen) and got == []
    ctx.open(TypeScreen(lambda c, name: got.append(name), "Ана", capital=True))
    ctx.press("b")                                  # opened on a name, nothing changed: back at once
    assert isinstance(ctx.top, PlayersScreen)


def test_a_name_typed_again_from_nothing_starts_with_a_capital():
    """The keyboard opened on a name (to rename a player) and emptied with ←: the new name starts
    with a capital, as a name typed on an empty keyboard does (it came out «борис»)."""
    from firmware.i18n import language
    from firmware.screens.widgets.keyboard import DELETE, TypeScreen, keyboard
    got: list[str] = []
    ctx = FakeCtx(lang="ru").open(TypeScreen(lambda c, name: got.append(name), "Ана", capital=True))
    delete = keyboard(language())[0].index(DELETE)
    ctx.press(*["right"] * delete, "a", "a", "a")             # ← three times: nothing left
    ctx.press(*["left"] * delete, "right", "a", "a:hold")      # б (the second letter), done
    assert got == ["Б"]


# -- History → Players: rename, remove; statistics per person ----------------------------------------
def test_history_players_rename_and_remove():
    ctx = FakeCtx(players=list(KNOWN)).open(PlayersScreen())
    assert [str(i.label) for i in ctx.top.items(ctx)] == KNOWN
    ctx.press("a")
    assert isinstance(ctx.top, PlayerMenu) and ctx.top.title == "Анна"
    ctx.press("down", "a")                          # Remove from the list: asks first
    say_yes(ctx)
    assert ctx.players == ["Борис", "Вера"] and "History keeps the games" in ctx.notes[-1]


def test_statistics_key_on_the_same_person_across_games_and_names():
    from firmware.screens.history_stats import people_rows
    glory = {"id": 2, "game": "glory", "status": "finished", "mode": {}, "result": "",
             "players": [{"name": "Ана", "score": 40, "winner": True}, {"name": "Борис", "score": 30, "winner": False}]}
    jc = {"id": 1, "game": "jc-battle", "status": "finished", "mode": {"kind": "battle"}, "result": "",
          "players": [{"name": "Анна", "role": "caesar", "score": 3, "winner": False},
                      {"name": "Борис", "role": "pompey", "score": 2, "winner": True}]}
    ctx = FakeCtx(players=["Анна", "Борис"], history=[glory, jc])
    original = ctx._players

    def with_alias(args: tuple[str, ...]) -> dict:
        out = original(args)
        if not args:
            out["was"] = {"Анна": ["Ана"]}          # Ана was renamed Анна: the same person
        return out
    ctx._players = with_alias                       # type: ignore[method-assign]
    rows = people_rows(ctx)
    at = rows.index("Анна")
    assert rows[at + 1].strip() == "2 games, 1 won"
    assert rows[rows.index("Борис") + 1].strip() == "2 games, 1 won"


def test_glory_scores_are_per_person_never_per_seat_colour():
    """Statistics → Glory scores: best and average per person (docs/protocol.md). A game started
    without names keeps the seats' colours (Red, Красный …): they are not people, and two games'
    "Red" are two different players; counting them as one person gave a best and an average of
    nobody's (G-15 totals)."""
    from firmware.screens.history_stats import glory_rows

    def glory(gid: int, players: list[tuple[str, int, bool]]) -> dict:
        return {"id": gid, "game": "glory", "status": "finished", "mode": {"kind": "table"}, "result": "",
                "players": [{"name": n, "score": s, "winner": w} for n, s, w in players]}
    seats = [glory(3, [("Red", 40, True), ("Yellow", 30, False)]),
             glory(2, [("Красный", 12, False), ("Жёлтый", 20, True)])]
    ctx = FakeCtx(players=["Анна"], history=[*seats, glory(1, [("Анна", 44, True), ("Blue", 41, False)])])
    rows = glory_rows(ctx)
    assert rows[0] == "Анна" and [r.strip() for r in rows[1:4]] == ["best 44", "average 44.0", "1 game"]
    assert len(rows) == 4                           # no seat colour listed as a person
    assert glory_rows(FakeCtx(players=[], history=seats)) == ["No game with named players yet."]


@pytest.mark.parametrize("lang, said", [("en", ["best 23", "average 13.5"]), ("ru", ["максимум 23", "в среднем 13,5"]),
                                        ("uk", ["максимум 23", "у середньому 13,5"])])
def test_the_glory_average_is_written_with_the_languages_decimal_mark(lang, said):
    """Statistics → Glory scores after an evening (G-15 totals 23 and 4): a Russian or Ukrainian
    reader writes a decimal comma («13,5»); «13.5» is an English number in a Russian sentence.
    Each figure has its row, under the name: «лучший 40, средний» / «40,0» parted the average
    from its word (uk «найкращий 40,» / «середній 40,0»). The figures are said as a reader says
    them without a noun: «максимум 23», «в среднем 13,5» (uk «у середньому 13,5»), not the
    adjectives «лучший 23», «средний 13,5» missing their word."""
    from firmware.screens.history_stats import glory_rows
    games = [{"id": i, "game": "glory", "status": "finished", "mode": {"kind": "table"}, "result": "",
              "players": [{"name": "Анна", "score": s, "winner": True}]} for i, s in ((1, 23), (2, 4))]
    rows = glory_rows(FakeCtx(players=["Анна"], history=games, lang=lang))
    assert [r.strip() for r in rows[1:3]] == said
    assert all(base.wrap(r) == [r] for r in rows)                    # each figure on one row, indented


# -- the Julius Caesar battle screen says what the rules did when it happens --------------------------
def test_reserves_arriving_are_announced_on_the_battle_screen():  # J-8
    from firmware.screens.jc.battle import BattleScreen
    ctx = FakeCtx("new jc-battle dice=physical seed=1", "add attacker rating=C3 strength=2 name=a",
                  "add defender rating=C2 strength=2 name=d", "add defender rating=B1 strength=1 reserve=1 name=res",
                  "start", "fire d dice=6,6").open(BattleScreen())
    ctx.render()
    assert ctx.notes == []                          # what came before is not said again
    ctx.run("fire a dice=6,6")                      # round 1 ends: the reserve arrives
    ctx.render()                                    # said on the fire's page (p16-jc4: a link's fire, as the home)
    from firmware.screens.jc.roll import DiceResult
    assert isinstance(ctx.top, DiceResult) and "reserves arrive" in " ".join(ctx.top.paras())
    ctx.press("b")
    ctx.render()
    assert isinstance(ctx.top, BattleScreen) and not any("reserves arrive" in n for n in ctx.notes)   # said once


def test_a_leader_killed_is_listed_with_the_fire_that_killed_him():  # J-2
    from firmware.screens.jc.battle import BattleScreen
    from firmware.screens.jc.roll import DiceResult
    ctx = FakeCtx("new jc-battle dice=physical seed=1", "add attacker rating=A4 strength=1 name=a",
                  "add defender p_scipio strength=1", "start", "pass p_scipio").open(BattleScreen())
    ctx.render()
    ctx.press("a")                                  # Fire: the dice entry
    ctx.top.faces[0][0] = 1                         # the die thrown: a hit (A4)
    ctx.press("a")
    assert isinstance(ctx.top, DiceResult)
    said = " ".join(ctx.top.rows())
    assert "killed" in said and "trophy for Caesar" in said


def test_the_hit_advice_says_when_the_advised_block_is_a_leader_and_what_the_other_costs():  # J-2, J-17
    from firmware.screens.jc.battle import BattleScreen
    from firmware.screens.jc.hit_words import why_hit
    from firmware.screens.widgets import TextScreen
    # Caesar hits; Pompey chooses between Scipio (A2, a leader) and a B4 block of equal strength:
    # the odds say sacrifice Scipio (the B4 fires better) — the screen says he is a leader.
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical seed=4", "add attacker c_leg10 strength=3",
                  "add defender p_scipio strength=1", "add defender rating=B4 strength=1 name=l", "start",
                  "pass p_scipio", "pass l", "fire c_leg10 dice=1,6,6").open(BattleScreen())
    assert ctx.view()["battle"]["decision"]["kind"] == "hit" and ctx.run("advise")["best"]["target"] == "p_scipio"
    texts = ctx.texts()
    assert "✓ is a leader!" in texts
    assert any(t.startswith("Next choice: −") for t in texts)              # what the other choice costs
    rows = why_hit(ctx)
    assert "Scipio" in rows[0] and any("this hit kills him" in r and "gives Caesar 1 VP" in r for r in rows)
    assert any(r.startswith("l instead:") and "less" in r for r in rows)
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    ctx.press(*["down"] * labels.index("Why ✓?"), "a")
    assert isinstance(ctx.top, TextScreen)


@pytest.mark.parametrize("lang, dative", [("ru", "приносит Цезарю 1 ПО"), ("uk", "приносить Цезареві 1 ПО")])
def test_the_leader_advice_names_the_side_gaining_the_vp_in_its_case(lang: str, dative: str):  # J-2, J-17
    # the trophy's VP go *to* the enemy side: ru/uk need the dative (it said «приносит Цезарь 1 ПО»)
    from firmware.screens.jc.battle import BattleScreen
    from firmware.screens.jc.hit_words import why_hit
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical seed=4", "add attacker c_leg10 strength=3",
                  "add defender p_scipio strength=1", "add defender rating=B4 strength=1 name=l", "start",
                  "pass p_scipio", "pass l", "fire c_leg10 dice=1,6,6", lang=lang).open(BattleScreen())
    said = " ".join(why_hit(ctx))
    assert dative in said, said
    # the rules summary's word for a leader is «лидер» (as the set-up form and the roster say it)
    header = " ".join(ctx.texts())
    assert "лидер" in said.lower() + header.lower() or "лідер" in said.lower() + header.lower()
    assert "полковод" not in said + header, (said, header)
    ctx = FakeCtx("new jc-battle attacker=pompey dice=physical seed=4", "add attacker p_leg2 strength=4",
                  "add defender c_antonius strength=2", "add defender rating=B4 strength=2 name=l", "start",
                  "pass c_antonius", "pass l", "fire p_leg2 dice=1,6,6,6", lang=lang).open(BattleScreen())
    said = " ".join(why_hit(ctx))
    assert "Помпею 1 ПО" in said or "Помпеєві 1 ПО" in said, said


def test_a_hit_on_a_legion_says_no_leader():
    from firmware.screens.jc.battle import BattleScreen
    from firmware.screens.jc.hit_words import why_hit
    ctx = FakeCtx("new jc-battle attacker=caesar dice=physical seed=4", "add attacker c_leg10 strength=3",
                  "add defender p_pompeius strength=1", "add defender p_leg2 strength=1", "start",
                  "pass p_pompeius", "pass p_leg2", "fire c_leg10 dice=1,6,6").open(BattleScreen())
    assert ctx.run("advise")["best"]["target"] == "p_leg2"
    assert "Who takes the hit?" in ctx.texts()
    assert not any("leader" in r for r in why_hit(ctx)[:1])


def test_the_campaign_over_replaces_the_winter_row():  # J-19
    from firmware.screens.jc.home import JcHome
    ctx = FakeCtx("new jc-battle year=5 seed=1", "control Roma caesar", "control Athenae caesar",
                  "control Byzantium caesar", "control Ephesus caesar", "control Alexandria caesar",
                  "control Antiochia caesar", "winter").open(JcHome())
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "Winter" not in labels and "Campaign over" in labels
    # J-17: nothing more is played once the campaign is over: no row offers a battle to set up,
    # fight or start (each was refused with "This game is over"); what was played can be read
    assert not {"Add attacker", "Add defender", "Odds", "Fight to the end", "Next battle"} & set(labels), labels
    assert {"Battle", "Forces", "Battle log", "Victory points", "New game"} <= set(labels), labels


def test_a_seat_with_a_long_name_keeps_its_label_whole_on_one_row():
    """Glory's new game, uk, a known player of 16 letters on seat 1: the row read «Гравець» /
    «1 Вікторіяаоо…» (the seat's number broken off its word and put before the name). Each seat
    is one row, its label whole; the name is cut to the room beside it (a typed name: clip_name)."""
    from firmware.screens import base
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.setup import SetupScreen
    from firmware.screens.widgets import item_rows
    ctx = FakeCtx(players=["Вікторіяаоооііі", "Д'Артаньян-Ґонта", "Анна"], lang="uk").open(SetupScreen(GloryHome))
    seats = [i for i in ctx.top.items(ctx) if i.key.startswith("seat:")]
    assert [str(s.label) for s in seats] == [f"Гравець {n}" for n in range(1, 5)]
    for seat in seats:
        assert item_rows(seat) == [str(seat.label)], (seat.label, seat.value)
        assert len(seat.label) + 1 + len(seat.value) <= base.COLS - 1
    assert seats[0].value.startswith("Вікторія") and seats[2].value == "Анна"


def test_history_players_with_nobody_yet_says_how_a_name_comes_there():
    """History → Players on a new device: «No players yet…», and A on it says how a player gets on
    the list (it did nothing, silently: A on a row never does nothing without a word)."""
    for lang in ("en", "ru", "uk"):
        ctx = FakeCtx(lang=lang).open(PlayersScreen())
        ctx.press("a")
        assert isinstance(ctx.top, PlayersScreen) and len(ctx.notes) == 1, lang
        assert ("new game" if lang == "en" else "нов") in ctx.notes[-1], (lang, ctx.notes)


def test_history_players_that_cannot_be_read_are_not_said_to_be_none():
    """A players' list the card cannot read now is never «No players yet» (a loss said as a fact):
    its row says it cannot be read, and A on it says why and what to do."""
    from firmware.storage import StorageError

    class Unreadable(FakeCtx):
        def _players(self, args: tuple[str, ...]) -> dict:
            raise StorageError(Msg("The players' list cannot be read now ({}); nothing was changed. "
                                   "Check the card.", "I/O error"))
    from engine.text import Msg
    ctx = Unreadable(players=list(KNOWN)).open(PlayersScreen())
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels == ["Players cannot be read…"]
    ctx.press("a")
    assert isinstance(ctx.top, PlayersScreen) and "Check the card" in ctx.notes[-1]


def test_the_player_picker_says_when_the_players_cannot_be_read():
    """A seat's picker over a players' list the card cannot read now showed «Enter a name…» and «No
    name» alone, as if nobody had ever played here; it says the list cannot be read, A says why,
    and a name can still be typed."""
    from engine.text import Msg
    from firmware.screens.widgets.people import Seats
    from firmware.storage import StorageError

    class Unreadable(FakeCtx):
        def _players(self, args: tuple[str, ...]) -> dict:
            raise StorageError(Msg("The players' list cannot be read now ({}); nothing was changed. "
                                   "Check the card.", "I/O error"))
    seats = Seats([("caesar", "Caesar"), ("pompey", "Pompey")], lambda i: "—")
    ctx = Unreadable(players=list(KNOWN)).open(PlayerPicker(seats, 0))
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert labels == ["Enter a name…", "No name", "List cannot be read…"]
    ctx.press("down", "down", "a")
    assert isinstance(ctx.top, PlayerPicker) and "Check the card" in ctx.notes[-1]
    readable = FakeCtx(players=list(KNOWN)).open(PlayerPicker(Seats([("caesar", "Caesar")], lambda i: "—"), 0))
    assert "List cannot be read…" not in [str(i.label) for i in readable.top.items(readable)]
