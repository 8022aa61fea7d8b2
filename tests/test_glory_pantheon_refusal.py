"""For the Glory of Rome: the score pad's refusal of a table's common Pantheon parts (G-12: the
first to finish a level takes its gold part, the second its silver — with 1-3 players a
foundation's bronze —, the others bronze) was about 12 rows of figures on the panel and named
nobody. Its first page (4 rows) now says what is wrong and for whom: the kind typed too often and
the players holding it. What follows is one short paragraph (a page at most): who takes the kind
typed too seldom, the part one of them has (it was 9-17 rows of figures and the whole rule)."""
from __future__ import annotations

import pytest

from firmware import i18n
from firmware.screens import base
from firmware.screens.glory.score import show_scores
from firmware.screens.widgets import TextScreen
from tests.screens import app_with

TWO_GOLD = ["new glory players=Анна,Борис seed=1", "sheet Анна own 2", "sheet Анна gold 1", "sheet Борис own 2",
            "sheet Борис gold 1"]            # two foundations, both gold: one of them is bronze with 2 players
TWO_BRONZE = ["new glory players=Анна,Борис,Вера,Глеб seed=1", "sheet Анна own 2", "sheet Анна bronze 1",
              "sheet Борис own 2", "sheet Борис bronze 1", "sheet Вера own 1"]   # 4 players: gold, then silver

FIRST = {
    ("gold", "en"): "Анна, Борис: 2 gold Pantheon parts, where there should be 1 (G-12).",
    ("gold", "ru"): "Анна, Борис: 2 золотые части Пантеона, а должно быть 1 (G-12).",
    ("gold", "uk"): "Анна, Борис: 2 золоті частини Пантеону, а має бути 1 (G-12).",
    ("bronze", "en"): "Анна, Борис: 2 bronze Pantheon parts, where there should be 0 (G-12).",
    ("bronze", "ru"): "Анна, Борис: 2 бронзовые части Пантеона, а должно быть 0 (G-12).",
    ("bronze", "uk"): "Анна, Борис: 2 бронзові частини Пантеону, а має бути 0 (G-12).",
}
FOLLOW = {             # who takes the kind typed too seldom (G-12), one short paragraph
    ("gold", "en"): "With 1-3 players, foundations after the gold one are bronze.",
    ("gold", "ru"): "В игре на 1–3 игроков фундаменты после золотого — бронзовые.",
    ("gold", "uk"): "У грі на 1–3 гравців фундаменти після золотого — бронзові.",
    ("bronze", "en"): "The first to finish a level takes its gold part.",
    ("bronze", "ru"): "Первый закончивший уровень берёт его золотую часть.",
    ("bronze", "uk"): "Перший, хто завершив рівень, бере його золоту частину.",
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("kind", ["gold", "bronze"])
def test_the_pantheon_refusal_says_on_its_first_page_what_is_wrong_and_for_whom(tmp_path, kind, lang):   # G-12
    app = app_with(TWO_GOLD if kind == "gold" else TWO_BRONZE, [], tmp_path, lang=lang)
    try:
        i18n.set_language(lang)
        app.render()
        show_scores(app)                                   # the pad's last row done: the scores
        app.render()
        note = app.stack[-1]
        assert isinstance(note, TextScreen) and app.errors == 0
        first = FIRST[kind, lang]
        page = " ".join(note.rows[:base.ROWS])
        assert page.startswith(first), page              # whole, on the first page
        ends = [i for i in range(1, len(note.rows) + 1) if " ".join(note.rows[:i]) == first]
        assert ends, note.rows                          # the follow-up starts on a row of its own (the
        rest = note.rows[ends[0]:]                      # rows as the screen wraps them: beside its scroll mark)
        assert " ".join(rest) == FOLLOW[kind, lang] and len(rest) <= base.ROWS, note.rows
        assert app.console.session.view()["sheet"]["Анна"][kind] == 1      # nothing changed
    finally:
        i18n.set_language("en")
        app.console.close()


def _tables(*pantheons: dict[str, int]) -> list[dict]:
    return [{"name": n, "track": 10, "pantheon": x} for n, x in zip("ABCD", pantheons)]


F, T = {"own": 2}, {"own": 5}                          # a finished foundation, a finished temple (own parts)


@pytest.mark.parametrize("table, said", [
    # 4 players: the second to finish a level takes silver, the third and fourth bronze
    (_tables({**F, "gold": 1}, {**F, "gold": 1}, {}, {}),
     "A, B: 2 gold Pantheon parts, where there should be 1 (G-12).\nThe second to finish a level takes its "
     "silver part."),
    (_tables({**F, "gold": 1}, {**F, "silver": 1}, {**F, "silver": 1}, {}),
     "B, C: 2 silver Pantheon parts, where there should be 1 (G-12).\nThe third and fourth to finish a level take "
     "bronze parts."),
    (_tables({**F, "silver": 1}, {**F, "bronze": 1}, {}, {}),
     "B: 1 bronze Pantheon part, where there should be 0 (G-12).\nThe first to finish a level takes its gold part."),
    # 1-3 players: no silver foundation; the temples gold, silver, bronze
    (_tables({**T, "gold": 2}, {**T, "gold": 1, "bronze": 1}, {}),
     "A, B: 3 gold Pantheon parts, where there should be 2 (G-12).\nThe second to finish the temple takes its "
     "silver part."),
    (_tables({**F, "gold": 1}, {**F, "silver": 1}, {}),
     "B: 1 silver Pantheon part, where there should be 0 (G-12).\nWith 1-3 players, foundations after the gold one "
     "are bronze."),
    (_tables({**T, "gold": 2}, {**T, "silver": 1, "bronze": 1}, {**T, "silver": 1, "bronze": 1}),
     "B, C: 2 silver Pantheon parts, where there should be 1 (G-12).\nWith 1-3 players, foundations after the gold "
     "one are bronze, the third temple too."),
])
def test_the_pantheon_refusal_then_says_who_takes_the_part_typed_too_seldom(table, said):   # G-12
    """After the kind typed too often, one sentence: who takes the kind the sheet is short of —
    the part one of the players named has (the levels finished fix how many of each there are)."""
    from engine.errors import BadArguments
    from tests.test_glory_scoring import score, sheet
    with pytest.raises(BadArguments) as refused:
        score(sheet(table))
    assert str(refused.value.message) == said
