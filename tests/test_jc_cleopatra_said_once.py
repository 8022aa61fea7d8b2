"""J-2: Cleopatra's change of side is said once, in a whole sentence, as the rulebook says it (RU
summary: «Если Клеопатра уничтожается в бою, она незамедлительно, с боевой силой 1, присоединяется
к другой стороне и сражается за нее в следующий раунд боя»). A roll's page and the battle log said
it twice, «Клеопатра I→I: переходит к Цезарю» (reading as no change) and «Клеопатра переходит на
сторону Цезаря с силой I.»; the hit now says she was eliminated (I→-), the battle's event that she
joins the other side at I and when she fights for it (the game's ``cleopatra=`` rule)."""
from __future__ import annotations

import pytest

from firmware import i18n
from firmware.i18n import localize
from tests.screens import app_with

LINES = ["add attacker c_caesar", "add attacker c_leg10", "add defender cleopatra strength=1",
         "add defender p_leg1 strength=1", "start", "fire c_caesar dice=1,6,6", "hit cleopatra"]

SAID = {   # (the hit, her change of side) by language and rule
    ("en", "round"): ("Cleopatra I→-: eliminated", "Cleopatra at once joins Caesar at strength I and fights "
                      "for him in the next round of the battle."),
    ("ru", "round"): ("Клеопатра I→-: блок уничтожен", "Клеопатра сразу присоединяется к Цезарю с боевой силой I "
                      "и сражается за него в следующий раунд боя."),
    ("uk", "round"): ("Клеопатра I→-: знищено", "Клеопатра одразу приєднується до Цезаря з бойовою силою I "
                      "і б'ється за нього в наступний раунд бою."),
    ("en", "turn"): ("Cleopatra I→-: eliminated", "Cleopatra at once joins Caesar at strength I and fights "
                     "for him on her next battle turn."),
    ("ru", "turn"): ("Клеопатра I→-: блок уничтожен", "Клеопатра сразу присоединяется к Цезарю с боевой силой I "
                     "и сражается за него в свой следующий ход боя."),
    ("uk", "turn"): ("Клеопатра I→-: знищено", "Клеопатра одразу приєднується до Цезаря з бойовою силою I "
                     "і б'ється за нього у свій наступний хід бою."),
}


def _joins(text: str) -> int:
    """How many times ``text`` says she goes over (the old words too)."""
    return sum(text.count(w) for w in ("joins", "присоединяется", "приєднується", "переходит", "переходить"))


@pytest.mark.parametrize("lang, rule", sorted(SAID))
def test_the_roll_page_and_the_logs_say_cleopatras_change_of_side_once(tmp_path, lang, rule):
    from firmware.screens.jc.roll import DiceResult, roll_page
    hit, joins = SAID[lang, rule]
    app = app_with([f"new jc-battle attacker=caesar dice=physical cleopatra={rule} seed=9", *LINES], [],
                   tmp_path, lang)
    try:
        i18n.set_language(lang)
        blocks = app.console.session.view()["battle"]["blocks"]
        assert next(b["side"] for b in blocks if b["key"] == "cleopatra") == "caesar"     # (she went over)
        roll_page(app)
        page = app.stack[-1]
        assert isinstance(page, DiceResult)
        paras = page.paras(app.view()["battle"]["blocks"])
        assert paras == [hit, joins], paras                                   # the roll's page
        battle_log = [localize(s, lang) for s in app.view()["battle"]["log"]]
        assert hit in battle_log[-2] and battle_log[-1] == joins, battle_log  # the battle log
        assert sum(map(_joins, battle_log)) == 1 and "I→I" not in " ".join(battle_log), battle_log
        game_log = localize(app.console.session.log[-1], lang)                # the game's log (History)
        assert hit in game_log and game_log.endswith(joins) and _joins(game_log) == 1, game_log
        app.render()
    finally:
        i18n.set_language("en")
        app.console.close()
