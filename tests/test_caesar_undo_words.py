"""Caesar!'s undo in a few words (S-9..S-18, C-7..C-12): the question hold B asks names the step
it takes back — his whole turn by its tile, your placement by its token and province — instead of
listing all the turn did (26 rows in Russian before «A: undo»); the «Undone» notice likewise
begins with that and sends the table to the Log, which keeps the turn's whole sentence."""
from __future__ import annotations

import pytest

from firmware import i18n
from firmware.app_undo import UndoQuestion
from firmware.screens import base
from tests.screens import app_with, say_yes

# A solo game (the Russian box's tiles: tile В) where his 6th turn draws two tokens, places two,
# closes Numidia and Mauretania and takes a Senate token (S-9, C-7..C-11): one long sentence; and
# your next placement, which closes Hispania Ulterior.
GAME = ["new caesar-solo side=caesar difficulty=normal edition=ru seed=6", "crassus", "play AF-AC ship:5/1 AF", "draw",
        "crassus", "play IT-DM ship:3/3 IT", "draw", "crassus", "play IT-MD shield:4/2 IT", "draw", "crassus",
        "play CY-CR wild:2/2 CY", "draw", "crassus", "play HU-MT ship:4/2 HU", "draw", "crassus"]
YOURS = [*GAME, "play HU-HC shield:3/3 HU"]

HIS_TURN = {"en": "Crassus's whole turn with tile В.", "ru": "Весь ход Красса с приказом В.",
            "uk": "Увесь хід Красса з тайлом В."}
# (it named the province too, «Ваш щит 3/3 к провинции Дальняя Испания и всё, что он закрыл.»: four
# rows under a panel of three, so it scrolled; the notice still names it)
YOUR_TURN = {"en": "Your shield 3/3 and all it closed.",
             "ru": "Ваш щит 3/3 и всё, что он закрыл.",
             "uk": "Ваш щит 3/3 і все, що він закрив."}
HIS_UNDONE = {"en": "Undone: Crassus's whole turn with tile В. Take back on the board what it did (the Log lists it).",
              "ru": "Отменено: весь ход Красса с приказом В. Отмените на поле то, что он сделал (ход записан в Журнале).",
              "uk": "Скасовано: увесь хід Красса з тайлом В. Скасуйте на полі те, що він зробив (хід записано в "
                    "Журналі)."}
YOUR_UNDONE = {"en": "Undone: your shield 3/3 toward Hispania Ulterior and all it closed. Take back on the board "
                     "what it did (the Log lists it).",
               "ru": "Отменено: ваш щит 3/3 к провинции Дальняя Испания и всё, что он закрыл. Отмените это на "
                     "поле (см. Журнал).",
               "uk": "Скасовано: ваш щит 3/3 до провінції Далека Іспанія і все, що він закрив. Скасуйте це на "
                     "полі (див. Журнал)."}


def _joined(rows) -> str:
    return " ".join(rows).replace("- ", "-").replace("– ", "–")


def _asked(app) -> UndoQuestion:
    app.render()
    app.ask_undo()
    app.render()
    question = app.stack[-1]
    assert isinstance(question, UndoQuestion)
    return question


def _undone(app) -> str:
    say_yes(app)                                    # A: undo
    app.render()
    assert app.errors == 0
    return _joined(app.message) if app.message else _joined(app.stack[-1].rows)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_undo_question_of_his_long_turn_names_it_by_its_tile(tmp_path, lang):   # S-9..S-18
    app = app_with(GAME, [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        whole = app.console.request("log 1")["log"][0]
        assert len(base.wrap(whole)) > 12                  # the turn's own sentence: a long one
        question = _asked(app)
        assert _joined(question.rows) == HIS_TURN[lang]
        assert len(question.rows) <= base.ROWS - 1         # whole on the first page, over «A: undo»
        said = _undone(app)
        assert said == HIS_UNDONE[lang], said
        assert len(base.wrap(said)) <= 2 * base.ROWS        # two pages at most (it was 28 rows)
        log = app.console.request("log 2")["log"]
        assert log[0] == whole and log[1] == said           # the Log keeps what the turn did
        assert app.console.session.view()["turn"] == "crassus"
    finally:
        i18n.set_language("en")
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_undo_question_of_your_placement_that_closed_a_province_names_it(tmp_path, lang):   # C-7..C-11
    app = app_with(YOURS, [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        assert ";" in app.console.request("log 1")["log"][0]        # it closed a province: a longer sentence
        question = _asked(app)
        assert _joined(question.rows) == YOUR_TURN[lang]
        assert len(question.rows) <= base.ROWS - 1         # one panel over «A: undo» (it took 5, then 4: it scrolled)
        said = _undone(app)
        assert said == YOUR_UNDONE[lang], said
        assert len(base.wrap(said)) <= 2 * base.ROWS        # two pages (three in Russian and Ukrainian before)
        assert app.console.session.view()["step"] == "play"
    finally:
        i18n.set_language("en")
        app.console.close()


PLAIN = {"en": ("Your ship 5/1 toward Africa.", "Undone: take ship 5/1 back from Africa–Achaea behind your screen."),
         "ru": ("Ваш корабль 5/1 к провинции Африка.",
                "Отменено: заберите корабль 5/1 из ячейки Африка–Ахея за ширму."),
         "uk": ("Ваш корабель 5/1 до провінції Африка.",
                "Скасовано: заберіть корабель 5/1 із зони Африка–Ахея за ширму.")}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_undo_question_of_a_plain_placement_fits_one_panel(tmp_path, lang):   # C-6
    """A placement that closes nothing was asked as «Take back: You: placed ship 5/1 on
    Africa–Achaea, 5 toward Africa.» — four rows in Russian, five in Ukrainian, under a panel of
    three: it scrolled. It names the token and the province its higher number faces, as a
    closing placement's question does; the notice then says which space to take it back from."""
    app = app_with(GAME[:3], [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        question = _asked(app)
        assert _joined(question.rows) == PLAIN[lang][0]
        assert len(question.rows) <= base.ROWS - 1
        said = _undone(app)
        assert said == PLAIN[lang][1]                       # what to do on the board: kept
        assert len(base.wrap(said)) <= base.ROWS            # the notice on one page (five rows in Russian:
        #                                                     «обратно за свою ширму» — in solo one screen only)
        assert app.console.session.view()["step"] == "play"
    finally:
        i18n.set_language("en")
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_every_plain_placement_question_fits_one_panel(lang):   # C-3, C-6
    """Every token on every space it may take, facing either province: the question of its undo
    stays on one panel (it was up to seven rows, with «Take back:» and the whole sentence)."""
    from engine.caesar.board import SPACE_A, SPACE_B, SPACE_ICON, SPACES
    from engine.caesar.console import SOLO
    from engine.caesar.terms import province, space, token
    from engine.caesar.text import Msg
    from engine.caesar.tokens import TOKENS
    from firmware.i18n import _, say
    try:
        i18n.set_language(lang)
        worst = []
        for s in range(len(SPACES)):
            for t, tok in enumerate(TOKENS):
                if not tok.mask & SPACE_ICON[s]:
                    continue
                for p in (SPACE_A[s], SPACE_B[s]):
                    step = Msg("{}.", Msg("You: placed {} on {}, {} toward {}", token(t), space(s), tok.hi, province(p)))
                    asked = SOLO.undo_asked(step)       # as the App asks it (None: «Take back: <sentence>»)
                    rows = base.wrap(say(asked) if asked is not None else _("Take back: {}").format(say(step)))
                    if len(rows) > base.ROWS - 1:
                        worst.append(rows)
        assert not worst, worst[:3]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_every_closing_placement_question_fits_one_panel(lang):   # C-7..C-12, C-21
    """A placement that closed provinces or ended the game, solo or a duel's, face up (every token
    on every space it may take, facing either province, by either player) or face down (C-21, the
    three double borders): the question of its undo stays on one panel over «A: undo». With the
    province it faced it took four rows in Russian and Ukrainian («Цезарь: универсальный 4/0 к
    провинции Дальняя Испания и конец игры.»), and scrolled."""
    from engine.caesar.board import BORDER_CONTROL, SPACE_A, SPACE_B, SPACE_ICON, SPACES
    from engine.caesar.console import DUEL, SOLO
    from engine.caesar.terms import player, province, space, token
    from engine.caesar.text import Msg
    from engine.caesar.tokens import TOKENS
    from firmware.i18n import _, say

    steps = []
    for s in range(len(SPACES)):
        for t, tok in enumerate(TOKENS):
            if not tok.mask & SPACE_ICON[s]:
                continue
            for p in (SPACE_A[s], SPACE_B[s]):
                mine = Msg("You: placed {} on {}, {} toward {}", token(t), space(s), tok.hi, province(p))
                theirs = Msg("placed {} on {}, {} toward {}", token(t), space(s), tok.hi, province(p))
                steps += [(SOLO, Msg("{}.", Msg("{}; {}", mine, "closed X"))),
                          (SOLO, Msg("{} {}", Msg("{}.", mine), "Crassus loses.")),
                          *[(DUEL, Msg("{}: {}.", player(who), Msg("{}; {}", theirs, "closed X"))) for who in ("caesar", "pompey")],
                          *[(DUEL, Msg("{} {}", Msg("{}: {}.", player(who), theirs), "Pompey wins."))
                            for who in ("caesar", "pompey")]]
            if BORDER_CONTROL[s]:
                steps += [(SOLO, Msg("{}.", Msg("{}; {}", Msg("You: placed {} on {} face down", token(t), space(s)), "X")))]
        if BORDER_CONTROL[s]:
            steps += [(DUEL, Msg("{}: {}.", player(who), Msg("{}; {}", Msg("placed a token on {} face down", space(s)), "X")))
                      for who in ("caesar", "pompey")]
    try:
        i18n.set_language(lang)
        worst = []
        for rules, step in steps:
            asked = rules.undo_asked(step)       # as the App asks it (None: «Take back: <sentence>»)
            rows = base.wrap(say(asked) if asked is not None else _("Take back: {}").format(say(step)))
            if len(rows) > base.ROWS - 1:
                worst.append(rows)
        assert not worst, (len(worst), worst[:3])
    finally:
        i18n.set_language("en")


BONUS_ASKED = {"en": ("Might: sword 5/1 on Sicilia–Italia.", "Might: the control marker in Achaea.",
                      "Centurion: sword 7/0 behind the screen."),
               "ru": ("Могущество: меч 5/1 в ячейке Сицилия–Италия.", "Могущество: жетон контроля в провинции Ахея.",
                      "Центурион: меч 7/0 за ширму."),
               "uk": ("Міць: меч 5/1 на зоні Сицилія–Італія.", "Міць: маркер контролю в провінції Ахея.",
                      "Центуріон: меч 7/0 за ширму.")}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("rules", ["SOLO", "DUEL"])
def test_the_undo_question_of_a_might_or_a_centurion_names_what_it_took(lang, rules):   # C-15, C-18
    """«Take back: Might: sword 5/1 on Sicilia–Italia is flipped face down, now 0/0.» took two or
    three pages; the question names what the Might flipped or the Centurion took, on one panel."""
    from engine.caesar import console, flow
    from engine.caesar.board import PROVINCE_INDEX, SPACE_INDEX
    from engine.caesar.terms import province, space, token_named
    from engine.caesar.text import Msg
    from firmware.i18n import say
    asked = getattr(console, rules).undo_asked
    steps = (Msg(flow.MIGHT_TOKEN, token_named("sword:5/1"), space(SPACE_INDEX["SC-IT"])),
             Msg(flow.MIGHT_MARKER, province(PROVINCE_INDEX["AC"])), Msg(flow.CENTURION_TAKEN, token_named("sword:7/0")))
    try:
        i18n.set_language(lang)
        for step, want in zip(steps, BONUS_ASKED[lang]):
            rows = base.wrap(say(asked(step)))
            assert _joined(rows) == want
            assert len(rows) <= base.ROWS - 1
        assert asked(Msg(flow.MIGHT_DISCARDED)) is None                # short already: «Take back: …»
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang,asked", [
    ("en", "Caesar: wild 4/0 toward Hispania Ulterior."),
    ("ru", "Цезарь: универсальный 4/0 к провинции Дальняя Испания."),
    ("uk", "Цезар: універсальний 4/0 до провінції Далека Іспанія.")])
def test_the_undo_question_of_a_duel_placement_names_its_token_and_province(tmp_path, lang, asked):   # C-6
    """A duel placement's question was «Take back: Caesar: placed wild 4/0 on …, 4 toward …» over
    five pages in Ukrainian; it names the player, the token and its province, on one panel."""
    app = app_with(["new caesar-duel seed=4", "play HU-HC wild:4/0 HU"], [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        question = _asked(app)
        assert _joined(question.rows) == asked
        assert len(question.rows) <= base.ROWS - 1
        _undone(app)
        assert app.console.session.view()["step"] == "play"
    finally:
        i18n.set_language("en")
        app.console.close()


def test_the_undo_question_of_a_duel_placement_that_closed_says_so(tmp_path):   # C-7..C-11
    app = app_with(["new caesar-duel seed=4"], [], tmp_path)
    try:
        from engine.caesar.console import _duel_undo_asked
        from engine.caesar.text import Msg
        placed = Msg("placed {} on {}, {} toward {}", "wild 4/0", "Sicilia–Italia", 4, "Sicilia")
        closed = Msg("{}: {}.", "Caesar", Msg("{}; {}", placed, Msg("closed Sicilia")))
        assert str(_duel_undo_asked(closed)) == "Caesar: wild 4/0 and all it closed."
        down = Msg("placed a token on {} face down", "Sardinia–Gallia")          # C-21: the token is not named
        assert str(_duel_undo_asked(Msg("{}: {}.", "Caesar", down))) == "Caesar: a token face down on Sardinia–Gallia."
        assert str(_duel_undo_asked(Msg("{}: {}.", "Caesar", Msg("{}; {}", down, Msg("closed Sardinia"))))) == \
            "Caesar: a token face down and all it closed."
        with_bonus = Msg("placed a token on {} face down and drew the face-down bonus {}", "Sardinia–Gallia", "Might")
        assert str(_duel_undo_asked(Msg("{}: {}.", "Caesar", Msg("{}; {}", with_bonus, Msg("used it"))))) == \
            "Caesar: a token face down and the bonus Might."
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_undone_notice_of_a_might_or_a_centurion_is_short(lang):   # C-15, C-18
    """Its «Undone» notice repeated the whole bonus sentence and then the table's step (eleven or
    twelve rows in Russian and Ukrainian: six pages of «Message»); it names what was flipped or
    taken as the question does, then what to do on the table — two pages at most."""
    from engine.caesar import console, flow
    from engine.caesar.board import PROVINCE_INDEX, SPACE_INDEX
    from engine.caesar.terms import province, space, token_named
    from engine.caesar.text import Msg
    from firmware.i18n import say
    from firmware.log_sentences import undone_sentence
    steps = (Msg(flow.MIGHT_TOKEN, token_named("sword:5/1"), space(SPACE_INDEX["SC-IT"])),
             Msg(flow.MIGHT_MARKER, province(PROVINCE_INDEX["HU"])), Msg(flow.CENTURION_TAKEN, token_named("sword:7/0")))
    try:
        i18n.set_language(lang)
        for step in steps:
            rows = base.wrap(say(undone_sentence(step, console.SOLO)))
            assert len(rows) <= 2 * base.ROWS, rows
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang,asked", [
    ("en", "Pompey: a token face down on Numidia–Africa."),
    ("ru", "Помпей: жетон лицом вниз в ячейке Нумидия–Африка."),
    ("uk", "Помпей: жетон долілиць на зоні Нумідія–Африка.")])
def test_the_undo_question_of_a_duel_placement_face_down_fits_one_panel(lang, asked):   # C-21
    """«Take back: Pompey: placed a token on Numidia–Africa face down.» took four rows (two pages);
    it names the player and the space, the token unnamed as its sentence keeps it."""
    from engine.caesar.console import DUEL
    from engine.caesar.text import Msg
    from firmware.i18n import say
    step = Msg("{}: {}.", Msg("Pompey"), Msg("placed a token on {} face down", Msg("{}–{}", Msg("Numidia"),
                                                                                    Msg("Africa"))))
    try:
        i18n.set_language(lang)
        rows = base.wrap(say(DUEL.undo_asked(step)))
        assert _joined(rows) == asked
        assert len(rows) <= base.ROWS - 1
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang,solo,duel", [
    ("en", "Your draw: shield 4/2.", "Caesar: a token drawn (private)."),
    ("ru", "Ваш жетон из мешочка: щит 4/2.", "Цезарь: жетон из мешочка (тайно)."),
    ("uk", "Ваш жетон із торбинки: щит 4/2.", "Цезар: жетон із торбинки (таємно).")])
def test_the_undo_question_of_a_draw_names_the_token_without_saying_undo_twice(tmp_path, lang, solo, duel):   # C-6
    """A draw asked on its own (a physical bag's, or any after a restart) was «Отменить? / Отменить:
    Вы вытянули щит 4/2.» — the title's verb again over the Log's sentence. It names the token (a
    duel's none: hands are private); the notice still says to put it back into the bag."""
    app = app_with(["new caesar-solo seed=3 human-bag=physical", "crassus", "draw shield:4/2"], [], tmp_path,
                   lang=lang)
    try:
        i18n.set_language(lang)
        question = _asked(app)
        assert _joined(question.rows) == solo
        said = _undone(app)
        assert solo.split(": ")[-1].rstrip(".") in said                    # the notice: that token, back into the bag
        assert app.console.session.lines[-1] == "crassus" and app.console.session.view()["human"]["draws_due"] == 2
    finally:
        i18n.set_language("en")
        app.console.close()
    app = app_with(["new caesar-duel seed=4 bag-input=physical", "draw shield:4/2"], [], tmp_path / "duel", lang=lang)
    try:
        i18n.set_language(lang)
        question = _asked(app)
        assert _joined(question.rows) == duel
        _undone(app)
        assert app.console.session.lines == []
    finally:
        i18n.set_language("en")
        app.console.close()
