"""The yes/no questions a player meets at every deal or turn fit the question's three rows, so one A
says yes: a question longer than its rows reads on a page an A before yes (docs/keys.md), and each
such page is a press more at the table (scripts/presses: Glory's objectives 26 presses for a target
of 22; the Sword's round 5 end of turn, tests/test_screens_sword.py)."""
from __future__ import annotations

import pytest

from engine.glory.state import objective_cards
from firmware import i18n
from firmware.screens import base
from firmware.screens.glory.home import GloryHome
from firmware.screens.glory.objectives import HandScreen, objective_name, open_objectives
from firmware.screens.widgets import ConfirmScreen
from firmware.screens.widgets.scroll import beside
from tests.fakectx import FakeCtx

ROOM = base.ROWS - 1                       # the question's rows (the footer under them)


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("players", ["Jack,Henry,Mary,Ross", "Jack,Henry,Mary"])
def test_the_deal_of_the_objectives_is_asked_in_one_page(lang, players):   # G-19
    """«3 secret objective cards each: each player keeps 2, the third goes to the bottom of the
    deck.» took five rows in every language (two A); where the third card goes is the next
    question's (Return the card?)."""
    ctx = FakeCtx(f"new glory players={players} seed=5", lang=lang).open(GloryHome())
    open_objectives(ctx)
    question = ctx.top
    assert isinstance(question, ConfirmScreen) and len(question.rows) <= ROOM, question.rows
    ctx.press("a")                                            # one A: dealt
    assert ctx.lines == ["deal"] and question not in ctx.stack


def _quoted_rows(lang: str, name: str) -> int:
    """The rows the card's name alone takes in the question's quotes."""
    said = f"«{name}»" if lang != "en" else f"“{name}”"
    return len(base.wrap(said, beside(said, ROOM)))


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_returning_any_objective_card_is_asked_in_one_page(lang):   # G-19
    """«“Objective 17” goes to the bottom of the deck; Henry keeps the other two.» took four rows
    in every language (two A, four times a deal): the question names the card A chose and where
    it goes (the hand's title names the player). Every card of the deck fits the three rows, but a
    name that alone takes three (en «First on battlefields (3 per 1st place)») leaves its sentence
    a fourth."""
    ctx = FakeCtx("new glory players=Jack,Henry,Mary,Ross seed=5", lang=lang).open(GloryHome())
    open_objectives(ctx)
    ctx.press("a")                                            # dealt: Jack's pass screen
    cards = [{"id": c["id"], "label": c["label"]} for c in objective_cards()]
    assert len(cards) > 20
    long: list[str] = []
    for card in cards:
        hand = HandScreen("Jack")
        hand.cards, hand.kept = [card, *[c for c in cards if c["id"] != card["id"]][:2]], False
        ctx.open(hand).press("a")                             # A on the card: the question
        question = ctx.top
        assert isinstance(question, ConfirmScreen) and objective_name(card) in " ".join(question.rows)
        if len(question.rows) > max(ROOM, _quoted_rows(lang, objective_name(card)) + 1):
            long.append(" / ".join(question.rows))
        ctx.press("b")                                        # no: nothing returned
    assert not long, long
    assert ctx.lines == ["deal"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("dice", ["physical", "digital"])
@pytest.mark.parametrize("leaders, pages", [("", 1), ("p_scipio", 2), ("p_scipio leaders=last", 2)],
                         ids=["no leader", "a leader", "a leader, started now"])
def test_fight_to_the_end_is_asked_in_one_page_and_a_leader_s_risk_in_a_second(lang, dice, leaders, pages):  # J-14
    """Asked at every battle fought out: «The device plays the rest of the battle: every block
    fires, attackers retreat in round 4. You roll for each fire and enter the dice.» took 7-8 rows
    (three A), 9-10 with a leader's warning (four A). What yes gives up (J-14: no retreat but the
    attackers' in round 4) fits one page; a leader's risk (J-14's lowest firepower first, J-2) or
    his being spared (leaders=last) is a page of its own."""
    from firmware.screens.jc.home import JcHome
    leader, _sep, rule = leaders.partition(" ")
    lines = ["add attacker c_leg10", "add defender p_leg34 strength=1"] + (
        [f"add defender {leader} strength=1"] if leader else [])
    ctx = FakeCtx(f"new jc-battle dice={dice} seed=1 {rule}".strip(), *lines, lang=lang).open(JcHome())
    ctx.press(*["down"] * 4, "a")                            # Fight to the end: asked first
    question = ctx.top
    assert isinstance(question, ConfirmScreen), type(question).__name__
    assert len(question.rows) <= pages * ROOM, question.rows
    for _page in range(pages):
        ctx.press("a")
    said = ctx.lines[-1] if ctx.lines else ""                 # yes: fought (digital), or the dice asked
    assert question not in ctx.stack and said == ("fight" if dice == "digital" else "start"), said


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_block_s_last_step_outside_battle_is_asked_in_one_page(lang):   # J-2, J-3, J-17
    """Blocks → a block at its last step → Lose a step (Vulcan, Jupiter, attrition: J-2, J-3): «Блок
    «Легион 7» на II: будет уничтожен; в этом году его нанимать нельзя.» and «Цезарь на I: погибнет
    навсегда, трофей (1 ПО) получит Помпей.» took four rows for every block of the roster in ru and
    uk (two A). Every block's question, either side's leader's, fits three rows now; the real
    question for Pompeius at I is answered with one A."""
    from engine.jc.roster import roster
    from firmware.screens.jc.blocks import LAST_STEP, BlockMenu
    from firmware.screens.jc.text import _
    from firmware.screens.jc.words import name_of
    i18n.set_language(lang)
    long = []
    for spec in roster().values():
        block = {"name": spec.name}
        for side in ("caesar", "pompey"):
            said = (_(LAST_STEP["leader", side]).format(name_of(block)) if spec.kind == "leader"
                    else _(LAST_STEP["block"]).format(name_of(block), "II"))
            if len(base.wrap(said, beside(said, ROOM))) > ROOM:
                long.append(said)
    assert not long, long
    ctx = FakeCtx("new jc-battle seed=3", "lose p_pompeius", "lose p_pompeius", lang=lang)
    ctx.open(BlockMenu("pompey", "p_pompeius")).press("a")       # Lose a step: his last, asked first
    question = ctx.top
    assert isinstance(question, ConfirmScreen) and len(question.rows) <= ROOM, question.rows
    ctx.press("a")
    assert ctx.lines[-1] == "lose p_pompeius" and question not in ctx.stack


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("year", [1, 4, 5])
def test_the_winter_is_asked_in_one_page_and_its_checklist_says_the_rest(lang, year):   # J-17, J-19
    """Winter, asked at every year's end: «End the year: Cleopatra goes home, victory check,
    eliminated blocks return, new cards. Alexandria: Pompey. VP 1:7.» took 7 rows in en, 9 in ru,
    8 in uk (three A), the last year's «End the campaign: … (the higher VP total wins; if tied,
    whoever holds Rome; else a draw)» 10-13 (four or five A). The question names the year it ends
    (the campaign, after year 5) and keeps the figures the device decides from (Alexandria's
    holder: 8.1, the VP: 8.2); what the winter does is its checklist, said after the one A."""
    from firmware.screens.jc.campaign import Announcement
    from firmware.screens.jc.home import JcHome
    ctx = FakeCtx(f"new jc-battle seed=3 year={year}", lang=lang).open(JcHome()).press(*["down"] * 10, "a")
    question = ctx.top
    assert isinstance(question, ConfirmScreen) and len(question.rows) <= ROOM, question.rows
    said = " ".join(question.rows)
    alexandria = {"en": "Alexandria", "ru": "Александрия", "uk": "Александрія"}[lang]
    assert {"en": "VP 1:7", "ru": "ПО 1:7", "uk": "ПО 1:7"}[lang] in said and alexandria in said, said
    ctx.press("a")                                            # one A: the winter, its checklist
    assert ctx.session.lines[-1] == "winter" and isinstance(ctx.top, Announcement), ctx.session.lines
    checklist = " ".join(ctx.top.rows)
    assert {"en": "Cleopatra", "ru": "Клеопатра", "uk": "Клеопатра"}[lang] in checklist, checklist
    if year < 5:           # the year reset: eliminated blocks back, the new cards dealt
        assert {"en": "deal 6", "ru": "раздайте по", "uk": "роздайте по"}[lang] in checklist, checklist


@pytest.mark.parametrize("lang, vacant, caesar", [("en", "Rome: vacant.", "Rome: Caesar."),
                                                     ("ru", "Рим свободен.", "Рим: Цезарь."),
                                                     ("uk", "Рим: вільний.", "Рим: Цезар.")])
def test_the_last_winter_at_a_tie_shows_rome_s_holder(lang, vacant, caesar):   # J-17
    """After year 5 a tie in VP goes to the side holding Rome (J-17), else a draw: the question at
    a tie shows who holds it, as it shows Alexandria's holder and the VP, in its three rows; no tie,
    no Rome."""
    from firmware.screens.jc.home import JcHome
    tied = {"vacant": ["control Alexandria caesar", "control Athenae caesar", "control Byzantium caesar"],
            "caesar": ["control Alexandria caesar", "control Roma caesar"]}
    for holder, shown in (("vacant", vacant), ("caesar", caesar)):
        ctx = FakeCtx("new jc-battle seed=3 year=5", *tied[holder], lang=lang)
        assert ctx.view()["vp"]["caesar"] == ctx.view()["vp"]["pompey"] == 5
        ctx.open(JcHome()).press(*["down"] * 10, "a")
        assert ctx.top.question.endswith(shown) and len(ctx.top.rows) <= ROOM, ctx.top.rows
    ctx = FakeCtx("new jc-battle seed=3 year=5", "control Alexandria caesar", lang=lang)     # 3:5
    ctx.open(JcHome()).press(*["down"] * 10, "a")
    assert vacant.split(":")[0] not in ctx.top.question, ctx.top.question


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("players", ["romans,gauls,etruscans,greeks,carthage", "romans,samnites,gauls"])
def test_an_automatic_victory_is_asked_in_one_page_for_every_power(lang, players):   # W-11
    """Automatic victory → a power: «Галлы: автоматическая победа (ПО достигли числа на карте для
    хода 1)? Это завершит игру.» took 6 rows in ru, 5 in uk, 4 in en (two A) under a title that
    already says it («Завершить игру?»). The question names the power and the turn whose figure on
    the map its VP reached, three rows for every power; one A ends the game."""
    from firmware.screens.sword.tracks import VictoryScreen
    for row in range(len(players.split(","))):
        ctx = FakeCtx(f"new sword players={players} seed=4", lang=lang).open(VictoryScreen())
        ctx.press(*["down"] * row, "a")
        question = ctx.top
        assert isinstance(question, ConfirmScreen) and len(question.rows) <= ROOM, question.rows
        assert "1" in question.rows[-1] or "1" in question.rows[-2], question.rows     # turn 1's figure
        ctx.press("a")                                        # one A: the game is over
        assert ctx.lines[-1].startswith("victory ") and question not in ctx.stack, ctx.lines


@pytest.mark.parametrize("lang, asked", [("en", "Take back: Анна's 2 votes in the Senate, +4 fame."),
                                         ("ru", "Отменить: Анна — 2 голоса в Сенате, +4 славы."),
                                         ("uk", "Скасувати: Анна — 2 голоси в Сенаті, +4 слави.")])
def test_hold_b_after_a_vote_asks_in_one_page(state_dir, lang, asked):   # G-7, G-6
    """Votes are placed every round: hold B after «vote Анна n=2» with a supremacy asked the step's
    sentence, «Take back: Анна places 2 votes in the Senate: supremacy x2, +4 fame (19 -> 23); the
    bottom votes of Анна, Богдан go back.», 7-8 rows (three A). It asks whose votes and the fame
    the supremacy gave, three rows; the notice after yes says the rest (the votes back at the
    bottom, the fame that stands again)."""
    from firmware.app_undo import UndoQuestion
    from tests.screens import app_with
    lines = ["new glory players=Анна,Богдан seed=5", "vote Богдан n=2", "vote Анна n=2", "vote Анна n=2"]
    app = app_with(lines, [], state_dir, lang)
    try:
        app.render()
        app.handle("b:hold")
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion) and question.question == asked, question.question
        assert len(question.rows) <= ROOM, question.rows
        app.render()
        app.handle("a")                                        # one A: undone
        assert app.console.session.lines == lines[1:-1], app.console.session.lines
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, asked", [("en", "Take back: the end of round 1."),
                                         ("ru", "Отменить: конец раунда 1."),
                                         ("uk", "Скасувати: кінець раунду 1.")])
def test_hold_b_after_a_round_s_end_asks_in_one_page(state_dir, lang, asked):   # G-1, G-3
    """Every round ends with «end-round»: hold B after it asked «Take back: Round 1 ends: the board
    turns 180° clockwise; round 2.», 4 rows in en, 5 in ru/uk (two A). It asks which round's end
    (as round 9's), one page; the notice after yes says which way to turn the board back."""
    from firmware.app_undo import UndoQuestion
    from tests.screens import app_with
    app = app_with(["new glory players=Анна,Богдан seed=5", "event", "end-round"], [], state_dir, lang)
    try:
        app.render()
        app.handle("b:hold")
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion) and question.question == asked, question.question
        assert len(question.rows) <= ROOM, question.rows
        app.render()
        app.handle("a")                                        # one A: undone, the notice says the turn back
        assert app.console.session.lines[-1] == "event"
        notice = app.message if app.message is not None else getattr(app.stack[-1], "rows", [])
        assert "180°" in " ".join(map(str, notice if isinstance(notice, list) else [notice])), notice
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, asked", [("en", "Take back: the roll 30d6 (total 109)."),
                                         ("ru", "Отменить: бросок 30d6 (сумма 109)."),
                                         ("uk", "Скасувати: кидок 30d6 (сума 109).")])
@pytest.mark.parametrize("game", ["new dice seed=1", "new glory players=Анна,Богдан seed=1"])
def test_hold_b_after_a_roll_of_many_dice_asks_in_one_page(state_dir, game, lang, asked):
    """Hold B after «roll 30d6» asked the roll's sentence with every face, «Take back: Rolled 30d6:
    1, 2, 4, 2, 3, … = 109.», 6 rows (two A; 100 dice: 28 rows, ten A), in the Dice tool and in
    any game (``roll`` is every session's). It asks the roll and its total, one page."""
    from firmware.app_undo import UndoQuestion
    from tests.screens import app_with
    app = app_with([game, "roll 30d6"], [], state_dir, lang)
    try:
        app.render()
        app.handle("b:hold")
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion) and len(question.rows) <= ROOM, question.rows
        if game.startswith("new dice"):
            assert question.question == asked, question.question
        assert asked.rpartition(" (")[0] + " (" in question.question, question.question   # (the total: its draws)
        app.render()
        app.handle("a")                                        # one A: undone
        assert app.console.session.lines == [], app.console.session.lines
    finally:
        app.console.close()


def test_hold_b_after_a_roll_of_a_few_dice_still_asks_its_faces(state_dir):
    """A roll of up to 8 dice is asked as it was, with its faces (three rows at most: 8d20)."""
    from tests.screens import app_with
    for roll in ("roll 2d6", "roll 8d20"):
        app = app_with(["new dice seed=1", roll], [], state_dir / roll[-4:])
        try:
            app.render()
            app.handle("b:hold")
            question = app.stack[-1]
            assert question.question.startswith(f"Take back: Rolled {roll[5:]}: ") and len(question.rows) <= ROOM, question.rows
        finally:
            app.console.close()
