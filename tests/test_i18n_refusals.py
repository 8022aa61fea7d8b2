"""Refusals speak the player's language (issue 8): a corpus of bad or illegal requests for every
game, played through a real Console in Russian and in Ukrainian. Each reply must be ok=false with
the same error code as in English, and its message must be a catalog translation: different from
the English reply to the same request, with Cyrillic in it, and no English phrase left (two plain
Latin words in a row that the request itself does not contain; ids, options and console syntax
such as ``fire c_leg10 dice=a,b`` or ``caesar|pompey`` stay English and are allowed).

Refusals change nothing, so each request is sent once in English and once in the language under
test on the same session (``settings language=...`` between them is not a game action).
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from firmware import i18n

JC = "new jc-battle seed=3"
JC_PHYS = "new jc-battle dice=physical seed=3"
JC_READY = [JC_PHYS, "add attacker c_leg10", "add defender p_leg1", "start"]
SWORD = "new sword players=romans,gauls,etruscans,greeks seed=4"
GLORY = "new glory players=Jack,Henry,Mary,Ross"
SOLO = "new caesar-solo side=caesar difficulty=normal seed=5"
DUEL = "new caesar-duel seed=6"

# (game, set-up lines, the refused request)
CORPUS: list[Any] = [
    # Julius Caesar (J-1..J-20): options, unknown blocks, bad strengths and ratings, turn order,
    # dice, hits, cards out of turn, cities, sides.
    ("jc", [], "new jc-battle attacker=crassus"),
    ("jc", [], "new jc-battle dice=loaded"),
    ("jc", [JC], "add attacker c_leg99"),
    ("jc", [JC], "add attacker xyz"),
    ("jc", [JC], "add attacker c_leg10 strength=9"),
    ("jc", [JC], "add attacker p_elephant strength=3"),
    ("jc", [JC], "add attacker rating=Z9 strength=2"),
    ("jc", [JC], "add attacker rating=C3 strength=2 leader=1 elephant=1"),
    ("jc", [JC], "add attacker rating=C3 strength=3 ballista=1"),
    ("jc", [JC], "add attacker rating=C3 strength=3 elephant=1"),
    ("jc", [JC], "add attacker p_leg1"),                                # Pompey's block (J-2)
    ("jc", [JC], "remove c_leg10"),
    ("jc", [JC], "fire"),                                               # not started
    ("jc", [JC], "start"),                                              # no blocks
    ("jc", JC_READY, "fire c_leg10 dice=1,1"),                          # wrong turn: defender C first (J-4)
    ("jc", JC_READY, "pass c_leg10"),
    ("jc", JC_READY, "fire c_leg99 dice=1,1"),
    ("jc", JC_READY, "fire p_leg1 dice=9,x"),
    ("jc", JC_READY, "fire p_leg1 dice=1,1"),                           # too few dice
    ("jc", JC_READY, "fire p_leg1 dice=1,1,1,1,1,1,1"),                 # too many dice
    ("jc", JC_READY, "fire p_leg1"),                                    # physical dice missing
    ("jc", JC_READY, "retreat p_leg1"),                                 # round 1 (J-5)
    ("jc", JC_READY, "add attacker c_leg9"),                            # after the start
    ("jc", JC_READY, "start"),
    ("jc", JC_READY, "hit c_leg10"),
    ("jc", [JC], "play caesar 2/1"),                                    # no discard yet (J-18)
    ("jc", [JC], "discard caesar zz"),                                  # not in the hand
    ("jc", [JC], "discard crassus 2/1"),                                # not a side
    ("jc", [JC], "levy c_leg10 Atlantis"),
    ("jc", [JC, "add attacker c_leg10", "add defender p_leg1", "fight"], "odds"),   # the battle is over (J-13):
                                                                                    # its result was the id's words
    # The Sword of Rome
    ("sword", [], "sword-tactics 12"),
    ("sword", [SWORD], "scoring"),
    ("sword", [SWORD], "desperate"),
    ("sword", [SWORD], "check nothing"),
    ("sword", [], "new sword players=romans seed=x"),
    ("sword", [], "sword-battle att=2 def=3 att-dice=9,9,9"),
    ("sword", [SWORD], "vp romans zz"),
    ("sword", [SWORD], "unrest zz"),
    # For the Glory of Rome
    ("glory", [GLORY], "fame Nobody +3"),
    ("glory", [GLORY], "vote"),
    ("glory", [GLORY], "tax Jack"),
    ("glory", [GLORY], "pick 99"),
    ("glory", [GLORY], "unvote Jack"),
    ("glory", [GLORY], "senate column=Jack"),                           # during the rounds: votes (G-7)
    ("glory", [GLORY], "senate Jack"),
    ("glory", [GLORY], 'score {"a": 1}'),                              # the sheet itself (was "В The score …")
    ("glory", [GLORY], "score [1]"),
    # Caesar!
    ("caesar", [SOLO], "play XX-YY sword:5/1 SC"),
    ("caesar", [SOLO], "play"),
    ("caesar", [DUEL], "crassus"),
    ("caesar", [], "new caesar-solo side=crassus difficulty=normal"),
    ("caesar", [], "new caesar-solo side=caesar difficulty=extreme"),
    ("caesar", [], "new caesar-duel bag-input=maybe"),
    # Dice and bags, sessions
    ("kit", [], "new bag items=gold*x"),
    ("kit", [], "new dice seed=abc"),
    ("kit", ["new dice seed=1"], "roll 3d0"),
    ("kit", [], "undo"),
    ("kit", [], "frobnicate"),
    ("kit", ["new dice seed=1"], "kit draw"),                           # no side bag, no side deck yet
    ("kit", ["new dice seed=1"], "kit card"),
    ("kit", ["new bag cards=a*2 seed=1"], "draw"),                      # a session with no bag, no deck
    ("kit", ["new bag items=a*2 seed=1"], "card"),
]

_LATIN_WORD = re.compile(r"^[A-Za-z]{3,}$")


def english_phrase(message: str, request: str) -> str | None:
    """The first two plain Latin words in a row in ``message`` that ``request`` does not hold."""
    words = message.split()
    asked = request.lower()
    for a, b in zip(words, words[1:]):
        if _LATIN_WORD.match(a.lstrip("(")) and _LATIN_WORD.match(b.strip(".,:;!?()")):   # "(attacker wins)"; ids listed
            a = a.lstrip("(")                                                         # with commas are ids
            pair = f"{a.strip('.,:;!?()')} {b.strip('.,:;!?()')}".lower()
            if pair not in asked:
                return f"{a} {b}"
    return None


def refuse(console, lang: str, setup: list[str], line: str) -> tuple[dict, dict]:
    for s in setup:
        r = console.request(s)
        assert r["ok"], (s, r)
    assert console.request("settings language=en")["ok"]
    english = console.request(line)
    assert console.request(f"settings language={lang}")["ok"]
    said = console.request(line)
    assert console.request("settings language=en")["ok"]
    return english, said


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


CASES = [c if type(c) is not tuple else pytest.param(*c, id=f"{c[0]}:{c[2]}") for c in CORPUS]


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("game,setup,line", CASES)
def test_a_refusal_is_said_in_the_players_language(console, lang, game, setup, line):
    english, said = refuse(console, lang, setup, line)
    assert english["ok"] is False and said["ok"] is False, (english, said)
    assert said["error"] == english["error"]
    msg = said["message"]
    assert msg != english["message"], f"untranslated: {msg!r}"
    assert re.search("[А-Яа-яЁёІіЇїЄєҐґ]", msg), f"no Cyrillic: {msg!r}"
    assert english_phrase(msg, line) is None, f"English left ({english_phrase(msg, line)!r}) in {msg!r}"


def test_the_english_phrase_check_can_fail():
    assert english_phrase("Бой 1 окончен (attacker wins). Начните новый: next-battle.", "odds")
    assert english_phrase("It is not c_leg10's turn: now the defender C step acts (p_leg1).", "fire c_leg10")
    assert english_phrase("Сейчас не ход c_leg10: ходит шаг защищающегося C (p_leg1).", "fire c_leg10") is None
    assert english_phrase("Введите 2 кубика: fire c_leg10 dice=a,b,...", "fire c_leg10") is None


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_julius_caesar_log_is_said_in_the_players_language(console, lang):
    """Every line the JC session logs (blocks joining and leaving, battles begun and fought,
    surprise, cards, control, owners: J-4, J-8, J-10, J-18, J-20) reads in the chosen language."""
    for line in ["new jc-battle seed=3", "add attacker c_leg10", "add defender p_leg1 reserve=1",
                 "add defender p_leg3", "remove p_leg3", "add defender p_leg3", "fight",
                 "next-battle surprise=1", "next-battle", "deal", "control Roma caesar", "control Roma vacant",
                 "owner c_leg8 pompey", "levy c_leg10 Roma"]:   # (Legio 10, eliminated, is in no city: J-3)
        assert console.request(line)["ok"], line
    hand = console.request("hand caesar")["hand"]
    assert console.request(f"discard caesar {hand[0]}")["ok"]
    assert console.request(f"settings language={lang}")["ok"]
    log = console.request("log 50")["log"]
    assert len(log) >= 15
    for row in log:
        assert re.search("[А-Яа-яЁёІіЇїЄєҐґ]", row), row
        assert english_phrase(row, "") is None, row


@pytest.mark.parametrize("lang, words", [("ru", ("<имя>", "<число>", "<карта>")), ("uk", ("<назва>", "<кількість>", "<карта>"))])
@pytest.mark.parametrize("line", ["kit", "kit frob"])
def test_the_side_bags_usage_names_its_fields_in_the_players_language(console, lang, words, line):
    """'kit' alone or with an unknown action answers its usage with <name>, <count>, <card> in the
    player's words (they were left English inside a Russian or Ukrainian sentence)."""
    english, said = refuse(console, lang, ["new dice seed=1"], line)
    assert "<name>" in english["message"] and "<card>" in english["message"]
    assert not re.search(r"<(name|count|card)>", said["message"]), said["message"]
    assert all(w in said["message"] for w in words), said["message"]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_bad_legion_count_on_the_score_sheet_names_its_field_without_english_words(console, lang):
    line = ('score {"players": [{"name": "Jack", "track": 3}], '
            '"battlefields": [{"name": "Epirus", "shield": 2, "legions": {"Jack": "x"}}]}')
    english, said = refuse(console, lang, [GLORY], line)
    assert english["error"] == said["error"] == "bad_arguments"
    assert "Epirus: legions.Jack" in said["message"] and " of " not in said["message"], said["message"]


@pytest.mark.parametrize("lang, said", [("ru", "Клеопатра сразу присоединяется к Цезарю с боевой силой I"),
                                        ("uk", "Клеопатра одразу приєднується до Цезаря з бойовою силою I")])
def test_cleopatra_changing_sides_is_logged_without_a_side_name_in_the_wrong_case(console, lang, said):
    """J-2: the log names the side she joins in the case the sentence needs, one sentence per
    side (was «переходит к Цезарь», «переходить до Цезар»), once (it said «Клеопатра I→I:
    переходит к Цезарю», and the battle's event again)."""
    for line in ["new jc-battle seed=3", "add attacker rating=A4 strength=1 name=a",
                 "add attacker rating=C2 strength=2 name=c", "add defender cleopatra strength=1",
                 "add defender rating=B1 strength=1 name=b", "start", "fire a dice=1", "hit cleopatra"]:
        assert console.request(line)["ok"], line
    assert console.request(f"settings language={lang}")["ok"]
    logged = console.request("log 1")["log"][0]
    assert logged.count(said) == 1 and "I→I" not in logged, logged


@pytest.mark.parametrize("jokers, ru, uk", [
    (1, "1 джокер-украшение не помещается", "1 джокер-прикраса не вміщується"),
    (4, "4 джокера-украшения не помещаются", "4 джокери-прикраси не вміщуються"),
    (5, "5 джокеров-украшений не помещаются", "5 джокерів-прикрас не вміщуються"),
])
def test_jewelry_jokers_that_do_not_fit_are_counted_with_plural_forms(console, jokers, ru, uk):
    """G-11: the merchant's jewelry jokers beyond his goods sets' cards are refused, their number
    said with its plural form (was "1 джокеров-украшений … в 0 наборов")."""
    line = ('score {"players": [{"name": "Jack", "track": 3, "medals": ["merchant"], '
            f'"merchant_jewelry_jokers": {jokers}}}]}}')
    for lang, said in (("ru", ru), ("uk", uk)):
        english, answer = refuse(console, lang, [GLORY], line)
        assert "jewelry joker" in english["message"], english
        assert said in answer["message"], answer["message"]


@pytest.mark.parametrize("lang, said", [("ru", "Для команды «share» нужна сессия: начните её командой «new <игра>»."),
                                        ("uk", "Для команди «share» потрібна сесія: почніть її командою «new <гра>».")])
def test_a_command_before_any_session_is_named_in_a_whole_sentence(console, lang, said):
    """A command word in quotes cannot take the dative: «share» нужна сессия read as a fragment
    (the English: 'share' needs a session)."""
    english, answer = refuse(console, lang, [], "share")
    assert english["error"] == answer["error"] == "no_session"
    assert answer["message"] == said, answer["message"]


@pytest.mark.parametrize(("lang", "line", "said"), [
    ("ru", "version x", "Команда «version» не принимает аргументов."),
    ("uk", "version x", "Команда «version» не приймає аргументів."),
    ("ru", "end", "Для команды «end» нужна сессия: начните её командой «new <игра>»."),
    ("uk", "end", "Для команди «end» потрібна сесія: почніть її командою «new <гра>»."),
    ("ru", "sword-odds mod=x", "Для mod= нужно целое число, а не «x»."),
    ("uk", "sword-odds mod=x", "Для mod= потрібне ціле число, а не «x»."),
    ("ru", "new dice seed=abc", "Для seed= нужно целое число, а не «abc»."),
    ("uk", "new dice seed=abc", "Для seed= потрібне ціле число, а не «abc»."),
    # a setting out of its values read «contrast принимает 1, 2, 3, 4, 5; не «9»»: a bare «не» after a ';'
    ("ru", "settings contrast=9", "Для contrast допустимы значения 1, 2, 3, 4, 5, а не «9»."),
    ("uk", "settings contrast=9", "Для contrast допустимі значення 1, 2, 3, 4, 5, а не «9»."),
    ("ru", "settings language=de", "Для language допустимы значения en, ru, uk, а не «de»."),
    # a bare «не «x»» after the usage or the choices: the value named in a clause of its own
    ("ru", "new caesar-solo poison=2", "poison= принимает 1 или 0, а не «2»."),
    ("uk", "new caesar-solo poison=2", "poison= приймає 1 або 0, а не «2»."),
    ("ru", "settings x", "Формат: settings [ключ=значение ...], например settings language=ru; «x» не подходит."),
    ("uk", "settings x", "Формат: settings [ключ=значення ...], наприклад settings language=ru; «x» не підходить."),
    ("ru", "new caesar-duel people=foo", "people= задаёт пары сторона:имя для сторон в игре (caesar, pompey), "
                                         "например people=caesar:Anna; «foo» не подходит."),
    ("uk", "new caesar-duel people=foo", "people= задає пари сторона:ім'я для сторін у грі (caesar, pompey), "
                                         "наприклад people=caesar:Anna; «foo» не підходить."),
    # three choices read "easy or normal or hard" ("easy или normal или hard"): a list, then its "or"
    ("en", "new caesar-solo difficulty=insane", "difficulty= must be easy, normal or hard, not 'insane'."),
    ("ru", "new caesar-solo difficulty=insane", "difficulty= должно быть easy, normal или hard, а не «insane»."),
    ("uk", "new caesar-solo difficulty=insane", "difficulty= має бути easy, normal або hard, а не «insane»."),
])
def test_the_shared_refusals_are_whole_sentences(console, lang, line, said):
    """The console's own refusals read «"version" без аргументов», «"end" нужна сессия», «seed= нужно
    целое число, не …»: a fragment, or a subject with no case to need anything. Whole sentences now;
    the command and the option stay as typed (PROTOCOL.md: commands stay English)."""
    console.request(f"settings language={lang}")
    response = console.request(line)
    assert not response["ok"] and response["message"] == said
    i18n.set_language("en")
