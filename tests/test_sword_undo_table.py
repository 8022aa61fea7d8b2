"""An undo at The Sword of Rome's table says what to change on the table (W-2..W-5, W-11, W-13):
the device keeps the tracks, the map and the markers are the players'. An undo of a VP change said
only «Undone: Romans VP 5 -> 7.», and the marker stayed at 7 on the VP track while the device had 5
again; of a battle, nothing of the units lost or the support gained for the win."""
from __future__ import annotations

from typing import Any

import pytest

from firmware import i18n
from firmware.console import Console
from firmware.screens import base
from firmware.store import Store

FIVE = "new sword players=romans,gauls,etruscans,greeks,carthage seed=4"
THREE = "battle att=6 def=6 mod=10 att-dice=5,4,2 def-dice=2,2,3"     # the attacker wins; the defender loses 3


@pytest.fixture
def console(tmp_path) -> Any:
    store = Store(tmp_path)
    c = Console(store, store.resume())
    try:
        yield c
    finally:
        c.request("settings language=en")
        i18n.set_language("en")
        c.close()


def ok(console: Console, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def _undone(console: Console, *lines: str, lang: str = "en") -> str:
    ok(console, f"settings language={lang}")
    ok(console, FIVE)
    for line in lines:
        ok(console, line)
    out = ok(console, "undo")
    said = str(out["undone"])
    assert len(base.wrap(said)) <= 2 * base.ROWS, said            # two pages at most on the panel
    return said


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: Romans VP 5 -> 7. Move the marker on the VP track back to 5."),
    ("ru", "Отменено: Римляне: ПО 5 → 7. Верните маркер на треке ПО на 5."),
    ("uk", "Скасовано: Римляни: ПО 5 → 7. Поверніть маркер на треку ПО на 5.")])
def test_an_undone_vp_change_says_to_move_the_marker_back(console, lang, said):   # W-11
    got = _undone(console, "vp romans =5", "vp romans +2", lang=lang)
    assert got == said
    assert ok(console, "state")["state"]["vp"]["romans"] == 5


def test_an_undone_scoring_says_to_move_the_marker_back(console):   # W-11
    got = _undone(console, "vp gauls =4", "scoring gauls outside=3 missing=0")
    assert got.endswith(" Move the marker on the VP track back to 4."), got
    assert ok(console, "state")["state"]["vp"]["gauls"] == 4


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: Carthaginian unrest 2 -> 5. Move the unrest marker back to 2."),
    ("ru", "Отменено: волнения в Карфагене 2 → 5. Верните маркер волнений на 2."),
    ("uk", "Скасовано: заворушення в Карфагені 2 → 5. Поверніть маркер заворушень на 2.")])
def test_an_undone_unrest_says_to_move_the_marker_back(console, lang, said):   # W-13
    """It said the level's effects again (hand size, VP: they follow the marker), four pages in
    Ukrainian: the level before and after, as a VP change says them, in two."""
    got = _undone(console, "unrest =2", "unrest +3", lang=lang)
    assert got == said
    assert ok(console, "state")["state"]["unrest"]["level"] == 2


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: the battle (losses 0 / 3). Put the units lost back on the map and take back the support +2."),
    ("ru", "Отменено: битва (потери 0 / 3 БЕ). Верните эти БЕ на карту и отмените поддержку +2."),
    ("uk", "Скасовано: битва (втрати 0 / 3 БО). Поверніть ці БО на мапу й скасуйте підтримку +2.")])
def test_an_undone_battle_says_to_put_the_losses_back(console, lang, said):   # W-2..W-5
    """«Верните потерянные БЕ на карту» (uk «втрачені БО») made it three pages: «эти БЕ», the
    losses it has just named."""
    assert _undone(console, THREE, lang=lang) == said


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: retreat losses 2. Put 2 units back on the map. Take back 1 support point."),
    ("ru", "Отменено: потери отступления 2 БЕ. Верните 2 БЕ на карту. Отмените 1 очко поддержки."),
    ("uk", "Скасовано: втрати відступу 2 БО. Поверніть 2 БО на мапу. Скасуйте 1 очко підтримки.")])
def test_an_undone_retreat_says_how_many_units_and_support_points(console, lang, said):   # W-5
    """Support +2 for the 3 units lost in battle, +3 with 2 retreat losses (⌈5/2⌉): the undo said
    «take back the support they added» and left the players to work out how much."""
    assert _undone(console, THREE, "retreat losses=2", lang=lang) == said


def test_an_undone_retreat_that_added_no_support_says_it_stays(console):   # W-5
    """3 units lost in battle and 1 retreating: ⌈4/2⌉ = 2, the support +2 of the battle alone. The
    undo said «take back the support they added»: a point the winner never got taken off the map."""
    assert ok(console, "settings language=en")
    ok(console, FIVE)
    ok(console, THREE)
    assert ok(console, "retreat losses=1")["support"] == 2
    assert ok(console, "undo")["undone"] == "Undone: retreat losses 1. Put 1 unit back on the map. The support stays +2."


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: the retreat losses are 3 again. Take 2 units off the map again. Add 1 support point again."),
    ("ru", "Отменено: потери отступления снова 3 БЕ. Снова снимите 2 БЕ с карты. Снова добавьте 1 очко поддержки."),
    ("uk", "Скасовано: втрати відступу знову 3 БО. Знову зніміть 2 БО з мапи. Знову додайте 1 очко підтримки.")])
def test_an_undone_retreat_given_again_sets_back_the_ones_it_replaced(console, lang, said):   # W-5
    """Retreat losses 3 (support +3), then 1 in their place (support +2): undone, the 3 stand again,
    so 2 units come off the map again and the winner has its third support point again."""
    assert _undone(console, THREE, "retreat losses=3", "retreat losses=1", lang=lang) == said
    assert ok(console, "state")["state"]["last_battle"]["support"] == 3


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: Naval move: 3+1 = 4: return. Take back on the map anything done for it."),
    ("ru", "Отменено: Морской переход: 3+1 = 4: возврат. Отмените на карте всё, что сделано по нему."),
    ("uk", "Скасовано: Морський перехід: 3+1 = 4: повернення. Скасуйте на мапі все, що зроблено за ним.")])
def test_an_undone_naval_move_says_what_to_take_back_of_it(console, lang, said):   # W-8
    """«Если вы уже что-то сделали по его результату, отмените это на карте.» took it to four
    pages in Russian (three in English and Ukrainian)."""
    assert _undone(console, "naval mod=1 die=3", lang=lang) == said


def test_an_undone_roll_says_to_take_back_what_its_result_did(console):   # W-9
    got = _undone(console, "check siege dice=3,4")
    assert got == "Undone: Siege roll: 3+4 = 7. Take back on the map anything done for it.", got


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: the tactics 2 test (3+1 = 4, fails). Take back on the map anything done for it."),
    ("ru", "Отменено: проверка тактики 2 (3+1 = 4, провал). Отмените на карте всё, что сделано по ней."),
    ("uk", "Скасовано: перевірка тактики 2 (3+1 = 4, провал). Скасуйте на мапі все, що зроблено за нею.")])
def test_an_undone_tactics_test_says_what_to_take_back_of_it(console, lang, said):   # W-1
    """It said the whole test again (its chance, what it does: six pages in Russian) and «по его
    результату» / «за його результатом» of «проверка» / «перевірка», a feminine noun."""
    got = _undone(console, "tactics 2 mod=1 die=3 kind=intercept", lang=lang)
    assert got == said
    assert len(base.wrap(got, base.COLS - 1)) <= base.ROWS + 1          # two pages of the Note at most


def test_an_unrest_stored_without_its_start_still_reads():
    """A sentence an older Legatus stored (no ``before=``) keeps ``Undone: <sentence>``."""
    from engine.sword.table import UNREST_SET, undone
    from engine.sword.text import Msg
    assert undone(Msg(UNREST_SET, 3, "-1", "-1")) is None
    assert undone(Msg(UNREST_SET, 3, "-1", "-1", before=1)) is not None


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: Desperate Times (Gauls). Return the card and take back its action on the map."),
    ("ru", "Отменено: Отчаянные Времена (Галлы). Верните карточку и отмените её действие на карте."),
    ("uk", "Скасовано: Відчайдушні часи (Галли). Поверніть карту й скасуйте її дію на мапі.")])
def test_an_undone_desperate_times_card_goes_back_to_its_power(console, lang, said):   # W-12
    """The card played is out of the game for good (rule 7.4): its undo must say it is back, in two
    pages, not the whole play again over four (five in Russian)."""
    assert _undone(console, "desperate gauls", lang=lang) == said
    assert ok(console, "state")["state"]["desperate"]["gauls"] == 2


def test_an_undone_desperate_times_card_leaves_out_who_kept_theirs(console):   # W-12
    """Gauls and Greeks wanting at once at 0 VP: the Gauls play (W-11 order), the Greeks keep theirs
    and still have it after the undo; the undo said «…; свои карточки оставляют: Греки.» too."""
    said = _undone(console, "desperate gauls,greeks", lang="ru")
    assert said == "Отменено: Отчаянные Времена (Галлы). Верните карточку и отмените её действие на карте."
    assert ok(console, "state")["state"]["desperate"]["greeks"] == 2


def test_an_undone_end_of_round_5_names_the_cards_without_their_order(console):   # W-12
    said = _undone(console, *["advance"] * 4, "desperate romans,gauls end=1", lang="uk")
    assert said == "Скасовано: Відчайдушні часи (Галли, Римляни). Поверніть карти й скасуйте їхні дії на мапі."


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: consuls Manlius and Decius. Put them back in the cup, the ones before back in place."),
    ("ru", "Отменено: консулы Манлий и Деций. Верните их в пул, а прежних — на их места."),
    ("uk", "Скасовано: консули Манлій і Децій. Поверніть їх до пулу, а попередніх — на їхні місця.")])
def test_an_undone_consuls_draw_says_where_the_consuls_go(console, lang, said):   # W-10
    """«Undone: Consuls drawn from the cup: Manlius and Decius (W-10). Put those consuls back into
    the cup and the consuls before them back where they stood.» took six pages in English."""
    assert _undone(console, "consuls", lang=lang) == said


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("lines, pages", [
    (["consuls"], 2), (["consuls", *["advance"] * 5, "consuls"], 2), (["desperate gauls,greeks,etruscans"], 2),
    (["advance"] * 4 + ["desperate romans,gauls end=1"], 3), (["naval mod=1 die=3 extra-ops=1"], 2),
    (["naval mod=1 die=6"], 2), (["naval mod=1 die=3"], 2), ([THREE], 2), (["battle att=12 def=10 att-flank=3 mod=-3 defmod=2 att-dice=6,5,4 "
                                                "def-dice=6,6,1"], 2),
    (["check siege dice=3,4 gauls=1"], 2), (["tactics 2 mod=1 die=3 kind=intercept"], 2),
    ([THREE, "retreat losses=2"], 2), (["vp gauls =4", "scoring gauls outside=3 missing=1"], 2),
    (["unrest =2", "unrest +3"], 2), (["unrest =12", "unrest =20"], 2), (["advance"] * 45, 3)],
    ids=lambda v: v[-1].split()[0] if isinstance(v, list) else str(v))
def test_every_undo_says_what_to_change_on_the_map_in_two_or_three_pages(console, lang, lines, pages):   # W-1..W-13
    """The note after an undo, wrapped as the panel shows it beside its scroll bar: a draw of the
    consuls took six pages (en), a Desperate Times card four or five, a naval move three or four,
    a battle three (ru/uk); the end of round 5's cards name their powers, three pages at most."""
    said = _undone(console, *lines, lang=lang)
    assert said.startswith(("Undone: ", "Отменено: ", "Скасовано: ")), said
    assert len(base.wrap(said, base.COLS - 1)) - base.ROWS + 1 <= pages, (said, base.wrap(said, base.COLS - 1))


@pytest.mark.parametrize("lang,asked", [
    ("en", "The battle with losses 0 / 3 and support +2."),
    ("ru", "Битва с потерями 0 / 3 БЕ и поддержкой +2."),
    ("uk", "Битва з втратами 0 / 3 БО і підтримкою +2.")])
def test_the_undo_question_of_a_battle_fits_one_panel(tmp_path, lang, asked):   # W-2..W-5
    """Hold B after a battle asked «Take back: Battle: attacker 5,4,2+10 = 21 vs defender …» over four
    pages; it names the battle by its losses and support, whole over «A: undo»."""
    from firmware.app import UndoQuestion
    from tests.screens import app_with
    app = app_with([FIVE, THREE], [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        app.render()
        app.ask_undo()
        app.render()
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion)
        assert " ".join(question.rows) == asked
        assert len(question.rows) <= base.ROWS - 1
        app.handle("a")
        app.render()
        assert app.errors == 0 and app.console.session.view()["last"] is None
    finally:
        i18n.set_language("en")
        app.console.close()


@pytest.mark.parametrize("lang,said", [
    ("en", "Undone: Turn 2, round 1. It is turn 1, round 5 again."),
    ("ru", "Отменено: Ход 2, раунд 1. Снова ход 1, раунд 5."),
    ("uk", "Скасовано: Хід 2, раунд 1. Знову хід 1, раунд 5.")])
def test_an_undone_advance_says_which_round_it_is_again(console, lang, said):   # 9 turns of 5 rounds
    """«Undone: Turn 2, round 1.» named the round undone, read as the round it now is."""
    assert _undone(console, *["advance"] * 5, lang=lang) == said
    state = ok(console, "state")["state"]
    assert (state["turn"], state["round"]) == (1, 5)
    assert _undone(console, "advance", "advance") == "Undone: Turn 1, round 3. It is turn 1, round 2 again."



def test_an_undone_end_of_turn_9_says_the_game_goes_on(console):   # 9 turns of 5 rounds
    got = _undone(console, *["advance"] * 45)
    assert got.startswith("Undone: Turn 9 is over: won on VP by "), got
    assert got.endswith(" The game goes on: it is turn 9, round 5 again."), got
    state = ok(console, "state")["state"]
    assert (state["turn"], state["round"]) == (9, 5)


@pytest.mark.parametrize("lang,asked,said", [
    ("en", "The defender's retreat losses 2 and support +3.",
     "Undone: retreat losses 2. Put 2 units back on the map. Take back 1 support point."),
    ("ru", "Потери отступления защиты 2 БЕ и поддержка +3.",
     "Отменено: потери отступления 2 БЕ. Верните 2 БЕ на карту. Отмените 1 очко поддержки."),
    ("uk", "Втрати відступу захисту 2 БО і підтримка +3.",
     "Скасовано: втрати відступу 2 БО. Поверніть 2 БО на мапу. Скасуйте 1 очко підтримки.")])
def test_the_undo_of_a_retreat_asks_in_one_page_and_says_it_in_two(tmp_path, lang, asked, said):   # W-5
    """Hold B after retreat losses asked «Take back: Retreat losses of the defender: 2 (5 lost in
    all); the attacker's support +3 (W-5).» over three pages (four in English): it names them by
    the side that lost them and the support, whole over «A: undo»; what to do on the map follows
    the undo in two pages at most."""
    from firmware.app import UndoQuestion
    from firmware.screens.widgets import TextScreen
    from tests.screens import app_with
    app = app_with([FIVE, THREE, "retreat losses=2"], [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        app.render()
        app.ask_undo()
        app.render()
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion)
        assert " ".join(question.rows) == asked
        assert len(question.rows) <= base.ROWS - 1                      # one page: no scrolling
        app.handle("a")
        app.render()
        note = app.stack[-1]
        rows = note.rows if isinstance(note, TextScreen) else app.message
        assert " ".join(rows) == said
        assert len(rows) <= base.ROWS + 1                               # two pages at most
        assert app.errors == 0 and app.console.session.view()["last_battle"]["retreat_losses"] == 0
    finally:
        i18n.set_language("en")
        app.console.close()


def _asked(tmp_path, lang: str, lines: list[str]) -> list[str]:
    """The rows of hold B's question after ``lines`` (a five-player game), as the panel wraps them."""
    from firmware.app import UndoQuestion
    from tests.screens import app_with
    app = app_with([FIVE, *lines], [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        app.render()
        app.ask_undo()
        app.render()
        question = app.stack[-1]
        assert isinstance(question, UndoQuestion)
        return list(question.rows)
    finally:
        i18n.set_language("en")
        app.console.close()


@pytest.mark.parametrize("lang,asked", [
    ("en", "The tactics 2 test: rolled 3+1 = 4, fails."),
    ("ru", "Проверка тактики 2: выпало 3+1 = 4, провал."),
    ("uk", "Перевірка тактики 2: випало 3+1 = 4, провал.")])
def test_the_undo_question_of_a_tactics_test_fits_one_panel(tmp_path, lang, asked):   # W-1
    """«Take back: Tactics 2 test (1/6 chance): rolled 3+1 = 4, fails: no interception.» took
    three pages in every language."""
    rows = _asked(tmp_path, lang, ["tactics 2 mod=1 die=3 kind=intercept"])
    assert " ".join(rows) == asked and len(rows) <= base.ROWS - 1


@pytest.mark.parametrize("lang,asked", [
    ("en", "Plays a Desperate Times card: Gauls (W-12)."),
    ("ru", "Карточку Отчаянных Времён играет: Галлы."),
    ("uk", "Карту Відчайдушних часів грає: Галли.")])
def test_the_undo_question_of_a_desperate_times_card_names_who_plays_it(tmp_path, lang, asked):   # W-12
    """Gauls, Greeks and Etruscans wanting at once, the Gauls play (the tie order, W-11): the
    question went on with who keeps theirs, three pages in Russian."""
    rows = _asked(tmp_path, lang, ["desperate gauls,greeks,etruscans"])
    assert " ".join(rows) == asked and len(rows) <= base.ROWS - 1


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("lines", [
    ["vp gauls =4", "scoring gauls outside=3 missing=1"], ["unrest =2", "unrest +3"],
    ["battle att=12 def=10 att-flank=3 mod=-3 defmod=2 att-dice=6,5,4 def-dice=6,6,1"],
    [THREE, "retreat losses=2"], [THREE, "retreat losses=1", "retreat losses=2"],
    ["tactics 2 mod=1 die=3 kind=intercept"], ["desperate gauls,greeks,etruscans"],
    ["advance"] * 4 + ["desperate romans,gauls end=1"], ["consuls"], ["naval mod=1 die=3 extra-ops=1"],
    ["check siege dice=3,4 gauls=1"], ["victory romans"]], ids=lambda lines: lines[-1].split()[0])
def test_every_undo_question_takes_two_pages_at_most(tmp_path, lang, lines):   # W-1..W-13
    """Each step's undo question, in each language: two pages of the question's three rows at most
    (retreat losses took three or four, a tactics test and the end of round 5's cards three)."""
    assert len(_asked(tmp_path, lang, lines)) <= base.ROWS
