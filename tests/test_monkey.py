"""Keys at random in every game and tool, each language, with the language switched and console
lines from the serial link between keys and the power cut at random points (scripts/monkey.py):
nothing raises, no screen fails, no frame is blank or overflows the panel, no word of another
language is shown (but typed names), a power cut loses nothing acknowledged. And the defects those
walks found, each replayed by keys."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware import i18n
from scripts import monkey
from tests.screens import app_with, drawn

SETUPS = list(monkey.setups())


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _walk(setup: str, lang: str, seed: int, steps: int) -> monkey.Walk:
    try:
        return monkey.walk(setup, lang, seed, steps)
    except monkey.Failure as f:
        pytest.fail(str(f), pytrace=False)


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("setup", ["jc-next-battle", "bag", "glory", "history"])
def test_random_keys_with_power_cuts_and_serial_lines(setup: str, lang: str) -> None:
    walk = _walk(setup, lang, 1, 150)
    assert len(walk.screens) >= 3, walk.screens        # (the walk went somewhere)


@pytest.mark.parametrize("setup", ["jc-physical", "sword-kit"])
def test_random_keys_onto_a_panel_that_comes_and_goes(setup: str) -> None:
    """The same through the device loop onto an I2C panel unplugged and plugged back at random."""
    try:
        walk = monkey.walk(setup, "uk", 2, 200, panel=True)
    except monkey.Failure as f:
        pytest.fail(str(f), pytrace=False)
    assert any(d.startswith("panel off") for d in walk.done), walk.done


@pytest.mark.parametrize("setup, lang, seed", [("jc-next-battle", "uk", 1), ("dice", "en", 5), ("history", "en", 1)])
def test_a_seed_is_the_same_walk_however_slow_the_worker(setup: str, lang: str, seed: int) -> None:
    """A walk's slow answers (Julius Caesar's chances and advice, History's draw record) come from
    the device's worker on its own thread: a frame drawn before the answer came showed «…» or the
    page «Making the draw record…», one drawn after it the figures, and the next key met one or the
    other as the machine's speed had it; and the games the keys started drew their fair-draw
    secrets from the system's randomness (other dice, another code). So a seed was not one path:
    CI could meet a screen no one had run. Now the walk's driver waits for the worker after each
    frame that asked it and draws again (the keys it presses before the worker answers: the
    worker waits for them), and the secrets come from the seed: the same seed gives the same
    frames, the worker's jobs begun at once or 20 ms late."""
    quick, slow = (_walk_late(setup, lang, seed, delay) for delay in (0.0, 0.02))
    assert quick.worker is not None and quick._asked, "the worker was asked nothing"    # (the walk met it)
    first = next((n for n, (a, b) in enumerate(zip(quick.trace, slow.trace)) if a != b), None)
    assert first is None and len(quick.trace) == len(slow.trace) > 200, \
        (first, quick.done[max(0, (first or 0) - 6):first], first and (quick.trace[first], slow.trace[first]))


def _walk_late(setup: str, lang: str, seed: int, delay: float) -> monkey.Walk:
    try:
        return monkey.walk(setup, lang, seed, 200, delay=delay)
    except monkey.Failure as f:
        pytest.fail(str(f), pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 1 + int(os.environ.get("MONKEY_SEEDS", "1"))))
@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
@pytest.mark.parametrize("setup", SETUPS)
def test_random_keys_with_power_cuts_and_serial_lines_long(setup: str, lang: str, seed: int) -> None:
    walk = _walk(setup, lang, seed, int(os.environ.get("MONKEY_KEYS", "1500")))
    assert walk.restarts, "no power cut"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
@pytest.mark.parametrize("setup", SETUPS)
def test_random_keys_onto_a_panel_that_comes_and_goes_long(setup: str, lang: str) -> None:
    try:
        walk = monkey.walk(setup, lang, 1, int(os.environ.get("MONKEY_KEYS", "1500")) // 2, panel=True)
    except monkey.Failure as f:
        pytest.fail(str(f), pytrace=False)
    assert any(d.startswith("panel off") for d in walk.done), "the panel never went"


def test_the_checks_see_a_foreign_word() -> None:
    """The language check itself: an English word on a Russian frame, a Russian letter on a
    Ukrainian one, Cyrillic on an English one are seen; a typed name (or its start, cut) is not."""
    texts = [(0, 0, "Слава: Ґалина-…", "body"), (0, 12, "Ход Crassus", "body")]
    names = {"Ґалина-Їжакевич"}
    assert monkey.foreign_words(texts, "ru", lambda: names) == ["'Crassus' in 'Ход Crassus'"]
    assert monkey.foreign_words([(0, 0, "Вперёд", "body")], "uk", lambda: set()) == ["'Вперёд' in 'Вперёд'"]
    assert monkey.foreign_words([(0, 0, "Turn: Ґалина-…", "body")], "en", lambda: names) == []
    assert monkey.foreign_words([(0, 0, "Turn: Ваня", "body")], "en", lambda: set()) == ["'Ваня' in 'Turn: Ваня'"]


def test_a_name_typed_into_a_bag_is_a_typed_name_before_it_is_counted(tmp_path: Path) -> None:
    """A name typed on Your own bag has its row at once, counted 0 (BagEditor.add); the walk read
    the bag's typed names from its ``entries`` (those counted) only, so that row in Latin letters
    on a Ukrainian screen was a foreign word (sword-round5 en seed=9101, the language switched to
    uk over the serial link: «'cbb' in 'cbb'»)."""
    from firmware.screens.kit.bag import BagEditor
    app = app_with([], [], tmp_path, lang="uk")
    try:
        editor = BagEditor()
        app.push(editor)
        editor.add("cbb")
        texts = drawn(app)
        assert "cbb" in [t for _x, _y, t, _k in texts]
        assert monkey.foreign_words(texts, "uk", lambda: monkey.typed_names(app)) == []
    finally:
        app.console.close()


def test_the_next_battle_form_goes_when_an_undo_takes_the_battle_back(tmp_path: Path) -> None:  # J-14
    """Julius Caesar's Next battle form opened once a battle is over; hold B there and undo its last
    hit: the battle is being fought again, but the form stayed, and its start was refused with the
    console's words on a Russian screen («…завершите его (fight доиграет его по правилу J-14)»:
    monkey seed 1, jc-battle, keys «b:hold a» on the form). Now the form goes with the battle it
    followed, as the battle's other screens do; the battle screen shows the step to play."""
    app = app_with(["new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add attacker c_leg10",
                    "add defender p_pompeius", "add defender p_leg1", "start", "fight"], ["a"], tmp_path, lang="ru")
    try:
        assert app.console.session.view()["battle"]["phase"] == "over"
        from firmware.screens.jc.text import _
        while type(app.stack[-1]).__name__ != "JcHome":     # (the battle's last roll, shown once)
            app.render()
            app.handle("b")
        home = app.stack[-1]
        labels = [item.label for item in home.items(app)]
        for _i in range(labels.index(_("Next battle"))):     # the home's Next battle row
            app.handle("down")
            app.render()
        app.handle("a")
        assert type(app.stack[-1]).__name__ == "SetupForm", [type(s).__name__ for s in app.stack]
        for key in ["b:hold", "a"]:                        # undo the battle's last step from the form
            app.render()
            app.handle(key)
        assert app.console.session.view()["battle"]["phase"] == "fighting"
        app.handle("b")                                    # the note of what was undone closes
        assert "SetupForm" not in [type(s).__name__ for s in app.stack]
        app.handle("key3")                                 # hold A where the form was: nothing refused
        texts = " ".join(t for _x, _y, t, _k in drawn(app))
        assert "fight" not in texts and app.errors == 0, texts
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_hardware_rows_mark_a_check_that_passed_in_no_language(lang: str, tmp_path: Path) -> None:
    """Settings ▸ Hardware marked a check that passed «ok» beside «Профиль» on a Russian and
    Ukrainian screen (the English word; monkey seed 5, jc-battle, ru), where the others are signs
    (! to look at, × failed). Now ✓: a sign, the same in every language."""
    from firmware import doctor
    from firmware.screens.menu import SettingsScreen
    doctor.clear_live()
    app = app_with([], [], tmp_path, lang=lang)
    try:
        app.stack.append(SettingsScreen())
        settings = app.stack[-1]
        settings.cursor = [i.label for i in settings.items(app)].index(i18n._("Hardware"))
        app.handle("a")
        assert type(app.stack[-1]).__name__ == "HardwareScreen"
        texts = drawn(app)
        assert monkey.foreign_words(texts, lang, lambda: set()) == []
        assert "✓" in [t.strip() for _x, _y, t, _k in texts]            # the profile's row (a check passed)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_border_control_alone_is_refused_in_the_player_s_words(lang: str, tmp_path: Path) -> None:  # C-21
    """Caesar!'s new-game form with Border control on and neither Poison nor Centurions: its start
    was refused with the console's words («border-control=1 требует poison=1 и/или centurions=1
    (C-21).»: monkey seed 5, archive, ru). Now the form says it with its own rows' names, and
    nothing starts."""
    from firmware.screens.caesar.setup import setup_form
    from scripts.presses.harness import CONSOLE_SYNTAX
    app = app_with([], [], tmp_path, lang=lang)
    try:
        form = setup_form(lambda c, lead: None, app)
        app.push(form)
        app.render()
        rows = [i.ident for i in form.items(app)]
        for _i in range(rows.index("field:bctl") - form.cursor):
            app.handle("down")
        app.handle("right")                       # Border control: on
        app.handle("a")                           # start
        assert app.console.session is None
        said = " ".join(t for _x, _y, t, _k in drawn(app))
        assert not CONSOLE_SYNTAX.search(said) and "C-21" in said, said
        from firmware.screens.caesar.text import _
        assert _("Border control") in said.replace("«Контролю границ»", "«Контроль границ»")\
            .replace("«Контролю кордонів»", "«Контроль кордонів»"), said
    finally:
        app.console.close()


@pytest.mark.parametrize("side", [True, False])
def test_an_empty_deck_s_row_is_not_read_as_one_phrase_in_ukrainian(side: bool, tmp_path: Path) -> None:
    """The bag and deck screen in Ukrainian once the deck was drawn to its end: «Взяти карту
    порожньо» on one row, the value a column from the label, read as one phrase (monkey seed 7,
    dice, the language switched ru → uk). Now «порожня» (the deck, колода, and the bag, торбинка,
    are both feminine), two columns apart from the label, on the one row."""
    from firmware.screens.kit.bag import KitScreen
    from tests.test_no_clipped_text import frame_faults
    lines = (["new dice seed=1", "kit new cards=легіон*1", "kit card"] if side
             else ["new bag cards=легіон*1 seed=1", "card"])
    app = app_with(lines, [], tmp_path, lang="uk")
    try:
        app.push(KitScreen(side=side))
        texts = [t for _x, _y, t, _k in drawn(app)]
        assert i18n._("empty") in texts, texts                  # the deck's row: nothing left to draw
        assert not frame_faults(app), frame_faults(app)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_an_undo_asked_before_the_serial_link_ended_the_game_is_refused_in_the_device_s_words(
        lang: str, tmp_path: Path) -> None:
    """Hold B (Undo?), then ``end`` from the serial link, then A: the console's refusal of a game
    over was shown, its list of the commands it still answers («только state, log, actions,
    reveal…»: monkey seed 8, dice, ru). Now the device's own sentence, as hold B on an ended game
    says it; nothing is undone."""
    from firmware.i18n import say
    from engine.text import Msg
    app = app_with(["new dice seed=1", "roll 2d6", "roll 3d6"], ["a"], tmp_path, lang=lang)
    try:
        app.render()
        app.handle("b:hold")
        assert type(app.stack[-1]).__name__ == "UndoQuestion"
        app.serve_line(b"end")
        app.render()
        app.handle("a")
        assert app.console.session.lines[-1] == "end" and app.console.session.view()["ended"]
        said = " ".join(t for _x, _y, t, _k in drawn(app))
        assert "state" not in said and "reveal" not in said, said
        ended = say(Msg("This game has ended: its moves can no longer be taken back."))
        assert " ".join(ended.split()[:3]) in said, said
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_new_bag_s_share_row_is_not_read_as_one_phrase(lang: str, tmp_path: Path) -> None:
    """Dice & bags ▸ a new bag or deck, scrolled down to the players' share: in Ukrainian
    «Внесок гравців» and «немає» stood a column apart, read as one phrase (monkey seed 8, bag, uk),
    where the games' new-game forms give the label two rows. Now this list does too."""
    from firmware.screens.kit.bag import PresetScreen
    from tests.test_no_clipped_text import frame_faults
    app = app_with([], [], tmp_path, lang=lang)
    try:
        app.push(PresetScreen())
        app.render()
        screen = app.stack[-1]
        assert isinstance(screen, PresetScreen)
        idents = [i.ident for i in screen.items(app)]
        for _i in range(idents.index("fair:share") - screen.cursor):
            app.handle("down")
        texts = [t for _x, _y, t, _k in drawn(app)]
        assert not frame_faults(app), (frame_faults(app), texts)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_show_scores_of_a_game_ended_with_a_half_filled_pad_says_why(lang: str, tmp_path: Path) -> None:  # G-12
    """Glory's score pad with a common Pantheon part typed before its 2 parts of the player's
    colour, then ``end`` from the serial link, then Show scores: the device computed the ended
    game's score itself and the sheet's refusal escaped as a screen error (monkey seed 41,
    archive, uk). Now the refusal is said, as ``score`` says it, and nothing else happens."""
    from firmware.screens.glory.score import show_scores
    app = app_with(["new glory players=Jack,Mary seed=3", "sheet Jack gold 1", "end"], [], tmp_path, lang=lang)
    try:
        app.render()
        show_scores(app)
        app.render()
        assert app.errors == 0
        said = " ".join(t for _x, _y, t, _k in drawn(app))
        assert "Jack" in said, said                         # the sheet's own sentence: whose pad, why
        assert type(app.stack[-1]).__name__ != "ScoreResult"
    finally:
        app.console.close()


@pytest.mark.parametrize("sight", list(monkey.RARE))
def test_the_rarer_screens_are_reached_from_a_set_up_near_them(sight: str) -> None:
    """The walks reach the screens few keys lead to (the Sword's round 5 Desperate Times W-12,
    Glory's final score G-15, a Julius Caesar winter J-19, a deck's discards back in, History's
    detail with a play time): from the set-up that starts near each, in a few hundred steps."""
    seen: list[str] = []
    for seed in range(1, 7):
        walk = _walk(monkey.RARE[sight][1], "uk", seed, 200)
        seen += sorted(walk.screens)
        if sight in walk.sights:
            return
    pytest.fail(f"not reached in 6 walks: {sight} (screens: {sorted(set(seen))})")
