"""For the Glory of Rome: the score pad's refusal of a table's common Pantheon parts (G-12: the
first to finish a level takes its gold part, the second its silver — with 1-3 players a
foundation's bronze —, the others bronze) was about 12 rows of figures on the panel and named
nobody. Its first page (4 rows) now says what is wrong and for whom: the kind typed too often and
the players holding it; how the levels share the parts follows."""
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
        said = " ".join(note.rows)
        rule = {"en": "the first to finish a level takes its gold part", "ru": "первый закончивший уровень берёт "
                "золотую часть", "uk": "перший, хто завершив рівень, бере золоту частину"}[lang]
        assert rule in said, said                          # how the levels share them follows
        assert app.console.session.view()["sheet"]["Анна"][kind] == 1      # nothing changed
    finally:
        i18n.set_language("en")
        app.console.close()
