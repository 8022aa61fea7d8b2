"""The rulebooks' words: every game term the device says in Russian or Ukrainian is the word the
player's rulebook prints (shared/seeds, the final word), in the case the sentence needs.

Each row of :data:`TERMS` is one term: the catalog (domain) and English text, the language, the
word the device must say, and the rulebook's own sentence holding that word (file, section).
The test checks both halves: the quote is found in the seed (so the table cannot drift from the
rulebook; skipped if shared/seeds is not beside the checkout) and the catalog says the word
(``exact``: the whole translation is the word; else the translation contains it). A term
regressing to another word (a translator's synonym, the other edition's word) fails here.
"""
from __future__ import annotations

import gettext
import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = [ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"]
LOCALE = ROOT / "firmware" / "locale"

CAESAR_RU = "caesar-mori-rules-ru.txt"       # GaGa Games, 2022
CAESAR_UK = "caesar-mori-rules-ua.txt"       # Igromag
JC_RU = "julius-caesar-columbia-rules-summary-ru.txt"
SWORD_RU = "sword-of-rome-rules-fragment-ru.txt"
GLORY_RU = "glory-of-rome-teetotum-rules-ru.txt"


class Term(NamedTuple):
    domain: str
    msgid: str
    lang: str
    word: str          # what the device says (the whole translation if ``exact``)
    seed: str          # the rulebook file
    where: str         # its section
    quote: str         # the rulebook's words holding the term
    exact: bool = True


def _t(domain: str, msgid: str, lang: str, word: str, seed: str, where: str, quote: str = "",
       exact: bool = True) -> Term:
    return Term(domain, msgid, lang, word, seed, where, quote or word, exact)


# Auto-Crassus's why sentences (engine/caesar/autocrassus.py), S-11 (both editions), S-12..S-15
S11_ALL = ("{point}: he has less influence in every open province; your largest lead where he can place is in "
           "{prov}, by {lead}; he faces it with his highest value")
S11_ANY = ("{point}: you lead in {prov} by {lead}, your largest lead where he can place; he faces it with his "
           "highest value")
S12_PART = "{point}: his tokens touch {touched} open provinces"
S12 = (S12_PART + "; {where} is closest to winning: {n} empty space left, more in {others}; he places his highest value "
                  "there",
       S12_PART + "; {where} is closest to winning: {n} empty spaces left, more in {others}; he places his highest value "
                  "there")
# the S-12 whys with no count said of a noun (the only one where he can place; his standing decided, or neither)
S12_OTHERS = tuple((m, m) for m in (
    S12_PART + ", and he can place only in {where}; he places his highest value there",
    S12_PART + "; {tied} have the fewest empty spaces ({n} each), and {where} is closest to winning: he stands best "
               "there ({lead}); he places his highest value there",
    S12_PART + "; {tied} have the fewest empty spaces ({n} each) and he stands the same in each ({lead}); he places "
               "his highest value in {where}",
    S12_PART + "; {tied} have the fewest empty spaces ({n} each); he stands best in {kept} ({lead}), not {dropped}; "
               "he places his highest value in {where}"))
S13 = ("{point}: {prov} borders {his}, which he controls, and takes his highest value there ({v})",) * 2
S14 = "{point}: {prov} is central and takes his highest value there ({v})"
S15 = "{point}: {prov} takes his highest value ({v})"

TERMS: list[Term] = [
    # -- Caesar!, the Russian rulebook ------------------------------------------------------------
    _t("caesar", "Senate", "ru", "Сенат", CAESAR_RU, "ЖЕТОНЫ БОНУСОВ ПРОВИНЦИЙ", "Сенат [6]"),
    _t("caesar", "Wealth", "ru", "Богатство", CAESAR_RU, "ЖЕТОНЫ БОНУСОВ ПРОВИНЦИЙ", "Богатство [4]"),
    _t("caesar", "Tactics", "ru", "Тактика", CAESAR_RU, "ЖЕТОНЫ БОНУСОВ ПРОВИНЦИЙ", "Тактика [4]"),
    _t("caesar", "Might", "ru", "Могущество", CAESAR_RU, "ЖЕТОНЫ БОНУСОВ ПРОВИНЦИЙ", "Могущество [4]"),
    _t("caesar", "Poison", "ru", "Яд", CAESAR_RU, "ЖЕТОНЫ БОНУСОВ ПРОВИНЦИЙ", "Яд [3]"),
    _t("caesar", "Centurion", "ru", "Центурион", CAESAR_RU, "ЖЕТОНЫ БОНУСОВ ПРОВИНЦИЙ", "Центурион [3]"),
    _t("caesar", "Centurions", "ru", "Центурионы", CAESAR_RU, "Центурион [3]",
       "Используется с дополнением «Центурионы»"),
    _t("caesar", "Poison expansion", "ru", "Яды", CAESAR_RU, "Яд [3]", "Используется с дополнением «Яды»"),
    _t("caesar", "Caesar beat Auto-Crassus ({level}); control markers placed: Caesar {a}, Auto-Crassus {b}.", "ru",
       "победил авто-Красса", CAESAR_RU, "ПРАВИЛА ОДИНОЧНОЙ ИГРЫ",
       "Если вам необходимо взять больше жетонов влияния авто-Красса, чем есть в его мешочке", exact=False),
    _t("caesar", "Border control", "ru", "Контроль границ", CAESAR_RU, "КОНТРОЛЬ ГРАНИЦ",
       "КОНТРОЛЬ ГРАНИЦ Необходимо наличие дополнений «Яды» и/или «Центурионы» в игре"),
    _t("caesar", "Control markers", "ru", "Жетоны контроля", CAESAR_RU, "ИГРОВОЙ ПРОЦЕСС",
       "оба игрока должны положить свои жетоны контроля в пограничные ячейки"),
    _t("caesar", "Bonus tokens", "ru", "Жетоны бонусов", CAESAR_RU, "КОНТРОЛЬ ГРАНИЦ",
       "оставшиеся после подготовки к игре жетоны бонусов провинций"),
    _t("caesar", "Command tiles", "ru", "Жетоны приказов", CAESAR_RU, "ПРАВИЛА ОДИНОЧНОЙ ИГРЫ, ПОДГОТОВКА К ИГРЕ",
       "перемешайте указанные ниже жетоны приказов"),
    _t("caesar", "easy", "ru", "лёгкий", CAESAR_RU, "ПОДГОТОВКА К ИГРЕ (соло)", "Лёгкий: 4×А, 2×Б"),
    _t("caesar", "normal", "ru", "обычный", CAESAR_RU, "ПОДГОТОВКА К ИГРЕ (соло)", "Обычный: 3×А, 2×Б, 1×В"),
    _t("caesar", "hard", "ru", "сложный", CAESAR_RU, "ПОДГОТОВКА К ИГРЕ (соло)", "Сложный: 4×А, 2×В"),
    _t("caesar", "ABCDE", "ru", "АБВГД", CAESAR_RU, "ПОДГОТОВКА К ИГРЕ (соло)",
       "Лёгкий: 4×А, 2×Б | Сложный: 4×А, 1×В, 1×Д | Обычный: 2×А, 2×Б, 1×В, 1×Г"),
    _t("caesar", "draw 1", "ru", "возьмите 1", CAESAR_RU, "Взятие жетона приказов", "Возьмите 1 / Возьмите 2"),
    _t("caesar", "draw 2", "ru", "возьмите 2", CAESAR_RU, "Взятие жетона приказов", "Возьмите 1 / Возьмите 2"),
    _t("caesar", "play", "ru", "разыграйте", CAESAR_RU, "Взятие жетона приказов", "Разыграйте — выполните"),
    _t("caesar", "discard 1", "ru", "сбросьте 1", CAESAR_RU, "Взятие жетона приказов", "Сбросьте 1 — уберите"),
    _t("caesar", "wild", "ru", "универсальный", CAESAR_RU, "Жетоны влияния", "Универсальный жетон влияния"),
    _t("caesar", "Auto-Crassus", "ru", "Авто-Красс", CAESAR_RU, "ПРАВИЛА ОДИНОЧНОЙ ИГРЫ",
       "Авто-Красс получает 3 жетона влияния"),
    _t("caesar", "Set-up guide", "ru", "Подготовка к игре", CAESAR_RU, "ПОДГОТОВКА К ИГРЕ"),
    _t("history", "Caesar! Seize Rome in 20 Minutes", "ru", "Цезарь! Завоюйте Рим за 20 минут", CAESAR_RU,
       "the title page", "ЦЕЗАРЬ! Завоюйте Рим за 20 минут!"),
    *[_t("caesar", en, "ru", ru, CAESAR_RU, "Приоритет выбора провинции", "(Сардиния, Сицилия, Италия, Ахея, Крит)")
      for en, ru in (("Sardinia", "Сардиния"), ("Sicilia", "Сицилия"), ("Italia", "Италия"), ("Achaea", "Ахея"),
                     ("Creta", "Крит"))],
    # Auto-Crassus's why (S-11, S-14, S-15): the value his placement faces the province with, in the
    # word the priority list prints in bold for that point («с **максимальным** значением» in the
    # 3rd and 4th points, «с **наивысшим** значением» in the 5th to 7th), not a synonym
    *[_t("caesar", en, "ru", ru, CAESAR_RU, "Приоритет размещения жетонов влияния авто-Красса", quote, exact=False)
      for en, ru, quote in (
          (S11_ALL, "с максимальным значением", "поместите туда жетон авто-Красса с максимальным значением"),
          (S11_ANY, "с максимальным значением", "поместите туда жетон авто-Красса с максимальным значением"),
          (S14, "с наивысшим значением", "в которой можно разместить жетон с **наивысшим** значением. Если "
                                          "необходимо выбрать одну провинцию из нескольких возможных, выберите Италию"),
          (S15, "с наивысшим значением", "Разместите жетон влияния авто-Красса в провинции, в которой можно "
                                          "разместить жетон с **наивысшим** значением"))],
    # -- Caesar!, the Ukrainian rulebook ---------------------------------------------------------
    _t("caesar", "Senate", "uk", "Сенат", CAESAR_UK, "Ефекти жетонів бонусів провінцій", "Сенат [6]"),
    _t("caesar", "Wealth", "uk", "Багатство", CAESAR_UK, "Ефекти жетонів бонусів провінцій", "Багатство [4]"),
    _t("caesar", "Tactics", "uk", "Тактика", CAESAR_UK, "Ефекти жетонів бонусів провінцій", "Тактика [4]"),
    _t("caesar", "Might", "uk", "Міць", CAESAR_UK, "Ефекти жетонів бонусів провінцій", "Міць [4]"),
    _t("caesar", "Might: choose an opponent token or control marker to flip, or skip.", "uk", "опонента", CAESAR_UK,
       "Ефекти жетонів бонусів провінцій", "маркер контролю опонента", exact=False),     # (was «суперника»)
    _t("caesar", "Poison", "uk", "Отрута", CAESAR_UK, "Ефекти жетонів бонусів провінцій", "Отрута [3]"),
    _t("caesar", "Centurion", "uk", "Центуріон", CAESAR_UK, "Ефекти жетонів бонусів провінцій", "Центуріон [3]"),
    _t("caesar", "Centurions", "uk", "Центуріони", CAESAR_UK, "Центуріон [3]", "з розширенням «Центуріони»"),
    _t("caesar", "Poison expansion", "uk", "Отрута", CAESAR_UK, "Отрута [3]", "з розширенням «Отрута»"),
    _t("caesar", "Border control", "uk", "Контроль кордонів", CAESAR_UK, "КОНТРОЛЬ КОРДОНІВ",
       "КОНТРОЛЬ КОРДОНІВ Потребує Отрути та/або Центуріонів для гри."),
    _t("caesar", "Control markers", "uk", "Маркери контролю", CAESAR_UK, "Компоненти",
       "24 маркери контролю (по 12 на кожного гравця)"),
    _t("caesar", "Bonus tokens", "uk", "Жетони бонусів", CAESAR_UK, "ОТРУТА", "3 жетони бонусів провінцій"),
    _t("caesar", "Command tiles", "uk", "Тайли командування", CAESAR_UK, "СОЛО ПРАВИЛА, Підготовка",
       "замішайте потрібні тайли командування в стос"),
    _t("caesar", "easy", "uk", "легкий", CAESAR_UK, "СОЛО ПРАВИЛА, Підготовка", "легкий: 4xA, 2xB;"),
    _t("caesar", "normal", "uk", "середній", CAESAR_UK, "СОЛО ПРАВИЛА, Підготовка", "середній: 3xA, 2xB, 1xC;"),
    _t("caesar", "hard", "uk", "складний", CAESAR_UK, "СОЛО ПРАВИЛА, Підготовка", "складний: 4xA, 2xC."),
    _t("caesar", "ABCDE", "uk", "ABCDE", CAESAR_UK, "СОЛО ПРАВИЛА, Підготовка",
       "легкий: 4xA, 2xB; | складний: 4xA, 1xC, 1xE. | середній: 2xA, 2xB, 1xC, 1xD;"),
    _t("caesar", "draw 1", "uk", "візьміть 1", CAESAR_UK, "Витягніть тайл командування", "Візьміть 1 / Візьміть 2"),
    _t("caesar", "draw 2", "uk", "візьміть 2", CAESAR_UK, "Витягніть тайл командування", "Візьміть 1 / Візьміть 2"),
    _t("caesar", "play", "uk", "розіграйте", CAESAR_UK, "Витягніть тайл командування", "Розіграйте – розіграйте"),
    _t("caesar", "discard 1", "uk", "скиньте 1", CAESAR_UK, "Витягніть тайл командування", "Скиньте 1 – візьміть"),
    _t("caesar", "wild", "uk", "універсальний", CAESAR_UK, "Жетони впливу", "Універсальний жетон впливу"),
    _t("caesar", "Auto-Crassus", "uk", "Авто-Красс", CAESAR_UK, "СОЛО ПРАВИЛА", "Авто-Красс ходить першим"),
    _t("caesar", "Set-up guide", "uk", "Підготовка до гри", CAESAR_UK, "Підготовка до гри"),
    # C-21: the three spaces a token may be played face down on are the ones «окреслених подвійною
    # лінією» (the refusals said «зона з подвійним кордоном», «на подвійному кордоні»: the Russian
    # rulebook's «с двойной границей» word for word, a border the Ukrainian board does not print)
    *[_t("caesar", en, "uk", word, CAESAR_UK, "КОНТРОЛЬ КОРДОНІВ, Хід гри",
         "Гравець може покласти на одну з трьох зон, окреслених подвійною лінією, жетон впливу долілиць",
         exact=False)
      for en, word in (("{} is not a double-bordered space; face down only on {} (C-21).", "окреслена подвійною лінією"),
                       ("position: {}: a face-down {} on a {} space is only possible on a double-bordered space "
                        "with border_control (C-21).", "окресленій подвійною лінією"))],
    _t("caesar", "Caesar", "uk", "Цезар", CAESAR_UK, "Ігровий процес", "Цезар викладає свій жетон"),
    _t("caesar", "Pompey", "uk", "Помпей", CAESAR_UK, "Ігровий процес", "Помпей викладає свій жетон"),
    _t("caesar", "Asia", "uk", "Азія", CAESAR_UK, "Ігровий процес", "закриває провінцію Азія"),
    *[_t("caesar", en, "uk", uk, CAESAR_UK, "Вибір між доступними провінціями", "(Сардинія, Сицилія, Італія, Ахея або Крит)")
      for en, uk in (("Sardinia", "Сардинія"), ("Sicilia", "Сицилія"), ("Italia", "Італія"), ("Achaea", "Ахея"),
                     ("Creta", "Крит"))],
    # -- The Sword of Rome, the Russian fragment --------------------------------------------------
    _t("sword", "Desperate Times", "ru", "Отчаянные Времена", SWORD_RU, "7.4 Отчаянные Времена"),
    _t("sword", "VP", "ru", "ПО", SWORD_RU, "7.4.2", "наименьшим количеством ПО"),
    _t("sword", "Tactics rating", "ru", "Тактический рейтинг", SWORD_RU, "8.1 Свойства",
       "ТАКТИЧЕСКИЙ РЕЙТИНГ. Чтобы совершить перехват, уклонение или преследование"),
    _t("sword", "Attacker loses {}", "ru", "БЕ", SWORD_RU, "Пример добавления и удаления поддержки",
       "урон в 4 БЕ", exact=False),
    _t("sword", "support +{}", "ru", "поддержк", SWORD_RU, "Пример добавления и удаления поддержки",
       "очко поддержки", exact=False),
    # 8.2.2: the consuls go back into the pool («пул»), two are drawn
    _t("sword", "Consuls drawn from the cup: {} and {} (W-10).", "ru", "пул", SWORD_RU, "8.2.2 Римские консулы",
       "возвращает всех консулов в пул, после чего тянет двух случайным образом", exact=False),
    _t("sword", "Usage: consuls [pool=Name,Name,...]  (all consuls back in the cup, draw 2).", "ru", "в пул",
       SWORD_RU, "8.2.2 Римские консулы", "возвращает всех консулов в пул", exact=False),
    _t("sword", "The consuls' cup needs at least {n} different name, e.g. consuls=Valerius,Camillus,Fabius.", "ru",
       "пул", SWORD_RU, "8.2.2 Римские консулы", "возвращает всех консулов в пул", exact=False),
    # 7.3's example names the Roman leaders in Cyrillic: the consuls drawn are said so (W-10)
    _t("sword", "Valerius", "ru", "Валери", SWORD_RU, "Пример добавления и удаления поддержки",
       "атаковал Валерия в Roma", exact=False),
    _t("sword", "Camillus", "ru", "Каммил", SWORD_RU, "Пример добавления и удаления поддержки",
       "присоединяясь к Каммилу", exact=False),
    # the units of a battle's usage are the rulebook's «БЕ», as every other sentence of the game says them
    _t("sword", "Usage: {} att=<units> def=<units> [att-flank=N] [def-flank=N] [mod=<attacker net>] "
       "[defmod=N] [att-dice=a,b,c] [def-dice=a,b,c] [sacred-band=att|def] [retreat=N].", "ru", "att=<БЕ> def=<БЕ>", SWORD_RU,
       "Пример добавления и удаления поддержки", "урон в 4 БЕ", exact=False),
    # 8.4: only historically significant leaders are displaced (placed again in the next
    # reinforcement phase); secondary ones are set aside (placed again once their player is active)
    *[_t("sword", f"{side} eliminated: historical leaders displaced until reinforcements, secondary set aside "
         "until active (8.4).", "ru", word, SWORD_RU, where, quote, exact=False)
      for side in ("Attacker", "Defender")
      for word, where, quote in (("исторически-значимые лидеры смещены", "8.4 Смещенные лидеры",
                                  "Исторически-значимый лидер также смещается в случае, если все БЕ"),
                                 ("до Фазы Подкреплений", "8.4 Смещенные лидеры",
                                  "В течение следующей Фазы Подкреплений игроки помещают своих смещенных"),
                                 ("второстепенные отложены", "8.4 Смещенные лидеры",
                                  "Второстепенные лидеры в подобных ситуациях не смещаются, вместо этого они "
                                  "откладываются в сторону"),
                                 ("станет активным", "8.4 Смещенные лидеры",
                                  "могут быть помещены на карту в момент, когда игрок станет активным"))],
    # -- Julius Caesar, the Russian summary ------------------------------------------------------
    _t("jc", "Ballista", "ru", "Баллиста", JC_RU, "Баллиста", "Баллиста: (переменный рейтинг B4 или D4)"),
    _t("jc", "Elephant", "ru", "Слон", JC_RU, "Слон", "Слон: (рейтинг B3)"),
    _t("jc", "Cleopatra", "ru", "Клеопатра", JC_RU, "Клеопатра", "Клеопатра: (рейтинг C1)"),
    _t("jc", "Equitatus", "ru", "Эквиты", JC_RU, "Эквиты", "Эквиты Цезаря: атакуют с В2"),
    _t("jc", "Navis", "ru", "Суда", JC_RU, "Корабли", "Суда используются для трех целей"),
    _t("jc", "Battle", "ru", "Бой", JC_RU, "ФАЗА СРАЖЕНИЙ", "Игрок 1 выбирает следующий бой"),
    _t("jc", "Winter", "ru", "Зима", JC_RU, "ФАЗА «ЗИМЫ»", "Зима"),
    # J-1: the letter of a block's rating gives its turn in the battle, «очередь атаки»; «шаг» is its
    # strength («изменение шага»), which the refusal of a block out of turn said instead («ходит шаг
    # защищающегося B»)
    *[_t("jc", f"It is not {{}}'s turn: now the {side} {{}} step acts ({{}}).", "ru", "очередь блоков", JC_RU,
         "БОЕВОЙ РЕЙТИНГ", "Буква определяет очередь атаки в бою", exact=False) for side in ("attacker", "defender")],
    # the regroup after a battle (J-12): the summary's own words, 3.6 for land blocks, 3.10 for ships
    *[_t("jc", f"{side} may regroup: all blocks that won the battle, reserves included, may move to any adjacent "
         "friendly or vacant cities. Road limits apply; no sea moves when regrouping.", "ru",
         "осуществить перегруппировку: все блоки, победившие в бою (включая резерв), могут передвинуться",
         JC_RU, "3.6. ПЕРЕГРУППИРОВКА", "победивший игрок может осуществить перегруппировку. Все блоки, победившие "
         "в бою (включая резерв) могут передвинуться", exact=False) for side in ("Caesar", "Pompey")],
    *[_t("jc", f"{side}'s navis that won the battle may move to an adjacent friendly or vacant sea, or to any "
         "friendly or vacant port on the same sea.", "ru", "в прилегающее дружественное или свободное море или "
         "в любой дружественный или свободный порт в том же море", JC_RU, "3.10 ПЕРЕГРУППИРОВКА КОРАБЛЕЙ",
         "в прилегающее дружественное или свободное море или в любой дружественный или свободный порт в том же "
         "море", exact=False) for side in ("Caesar", "Pompey")],
    # the session's title (its log opens «New game: …»): the summary's «бой», as the game's screens say it
    *[_t(domain, en, "ru", word, JC_RU, "ФАЗА СРАЖЕНИЙ", "Игрок 1 выбирает следующий бой | поддержка сухопутных боев с моря",
         exact=False)          # History's statistics of Julius Caesar battles: «бои», not «битвы»
      for domain, en, word in (("history", "JC battles", "Бои ЮЦ"), ("jc", "JC battles", "Бои ЮЦ"),
                               ("history", "No battle fought yet.", "Боёв ещё не было"))],
    _t("jc", "Julius Caesar battle", "ru", "Цезарь: бой", JC_RU, "ФАЗА СРАЖЕНИЙ", "Игрок 1 выбирает следующий бой",
       exact=False),
    *[_t("jc", en, "ru", ru, JC_RU, "Карты событий",
         "Аполлон - солнечные лучи, Юпитер - молнии, Нептун - трезубец, Меркурий - крылья, Вулкан - огонь, "
         "Плутон - череп, Марс - воинский шлем")
      for en, ru in (("Apollo", "Аполлон"), ("Jupiter", "Юпитер"), ("Neptune", "Нептун"), ("Mercury", "Меркурий"),
                     ("Vulcan", "Вулкан"), ("Pluto", "Плутон"), ("Mars", "Марс"))],
    # -- For the Glory of Rome, the Russian rulebook --------------------------------------------
    *[_t("glory", en, "ru", ru, GLORY_RU, "СОДЕРЖАНИЕ", ru)
      for en, ru in (("Glory of Rome", "Во славу Рима"), ("Fame track", "Шкала славы"), ("Milestones", "Вехи"),
                     ("Medals", "Медали"), ("Military", "Военное дело"), ("Politics", "Политика"),
                     ("Trade", "Торговля"), ("Religion", "Религия"), ("Objectives", "Задания"),
                     ("Denarii", "Денарии"), ("Harsh Times", "Суровые времена"), ("Clockwise", "По ходу часов"),
                     ("Truce", "Перемирие"), ("Heroes", "Герои"), ("Double tax", "Двойной налог"),
                     ("Population", "Население"))],
    # no Ukrainian edition: the Russian rulebook's «Земледелие» translated, in the title and the menu
    # (the menu said «Дохід землі», land's income, beside «Земледелие, раунд 1» in Russian)
    _t("glory", "Farming, round {}", "ru", "Земледелие", GLORY_RU, "Земледелие", "Религия 22 Земледелие 22",
       exact=False),
    _t("glory", "Farming, round {}", "uk", "Землеробство", GLORY_RU, "Земледелие", "Религия 22 Земледелие 22",
       exact=False),
    _t("glory", "Farming income", "uk", "Дохід землеробства", GLORY_RU, "Земледелие", "Религия 22 Земледелие 22",
       exact=False),
    # G-4: the double tax's fame penalty is printed on the «счетчик населения» (the console's refusal
    # said «на диске», a word the rulebook has only for the cardboard the dial is pressed out of);
    # no Ukrainian edition: its word translated, «лічильник населення»
    *[_t("glory", "The dial's fame penalty for population {} is not in the table; add penalty=K as printed.", lang,
         word, GLORY_RU, "Налог", "в количестве, указанном на счетчике населения", exact=False)
      for lang, word in (("ru", "со счётчика населения"), ("uk", "з лічильника населення"))],
    # G-14: the priest's medal is named by its holder, «Медаль священнослужителя» (the medal list said
    # «Священник», a word the rulebook has nowhere): the holder in the nominative, which the rulebook
    # prints only in that genitive (so the word is not looked for in the quote); no Ukrainian
    # edition: the same word in Ukrainian
    *[_t("glory", "Priest", lang, "Священнослужитель", GLORY_RU, "Медали", "Медаль священнослужителя", exact=False)
      for lang in ("ru", "uk")],
    # G-12: the Pantheon parts of the player's colour (the score pad's row said «Пантеон: свой»,
    # a word the rulebook has nowhere for them)
    _t("glory", "Pantheon: own", "ru", "Пантеон: цвет игрока", GLORY_RU, "Подсчет очков за религию",
       "Цвета игрока Взятая из запаса игрока и окрашенная в цвет игрока 1", exact=False),
    _t("glory", "Pantheon: own", "uk", "Пантеон: колір гравця", GLORY_RU, "Подсчет очков за религию",
       "Цвета игрока Взятая из запаса игрока и окрашенная в цвет игрока 1", exact=False),
]


def _norm(text: str) -> str:
    """The words alone: markdown bold, line breaks and repeated spaces dropped, lower case."""
    return re.sub(r"\s+", " ", text.replace("**", "")).strip().casefold().replace("ё", "е")


def _seed_dir() -> Path | None:
    return next((d for d in SEEDS if (d / CAESAR_RU).exists()), None)


def _catalog(domain: str, lang: str) -> gettext.GNUTranslations:
    with open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo", "rb") as f:
        return gettext.GNUTranslations(f)


def _id(term: Term) -> str:
    return f"{term.domain}-{term.lang}-{term.msgid[:30]}"


@pytest.mark.parametrize("term", TERMS, ids=_id)
def test_the_device_says_the_rulebook_s_word(term: Term) -> None:
    said = _catalog(term.domain, term.lang).gettext(term.msgid)
    assert said != term.msgid or term.msgid == term.word, f"untranslated: {term.msgid!r}"
    if term.exact:
        assert said == term.word, (term.seed, term.where, said, term.word)
    else:
        assert term.word in said, (term.seed, term.where, said, term.word)


@pytest.mark.parametrize("term", TERMS, ids=_id)
def test_the_word_is_the_rulebook_s(term: Term) -> None:
    seeds = _seed_dir()
    if seeds is None:
        pytest.skip("shared/seeds is not beside this checkout")
    text = _norm((seeds / term.seed).read_text("utf-8"))
    quotes = term.quote.split(" | ")            # several places of the rulebook
    for quote in quotes:
        assert _norm(quote) in text, (term.seed, term.where, quote)
    if not term.exact:                          # a word inside a sentence takes the case the sentence needs:
        return                                  # the quote shows the rulebook's word
    if term.msgid == "ABCDE":                 # the tile letters, each printed in a deck list (S-3)
        assert all(f"×{c}" in term.quote or f"x{c}" in term.quote for c in term.word), (term.word, term.quote)
    else:
        assert _norm(term.word) in _norm(term.quote), (term.word, term.quote)


class Counted(NamedTuple):
    domain: str
    singular: str
    plural: str
    lang: str
    said: dict[int, str]      # n -> what the device says
    seed: str
    where: str
    quote: str


COUNTED = [
    # 7.4.2 says «карты Отчаянных времён» too (elsewhere «карточки», too long for the list's value
    # column beside «Карфаген»): the short word, in the form the number asks for
    Counted("sword", "{} card", "{} cards", "ru", {1: "1 карта", 2: "2 карты", 5: "5 карт"}, SWORD_RU,
            "7.4.2", "Если более одного игрока пытаются разыграть карты Отчаянных времён"),
]


@pytest.mark.parametrize("counted", COUNTED, ids=lambda c: f"{c.domain}-{c.lang}-{c.singular}")
def test_a_counted_term_is_the_rulebook_s_word_in_every_form(counted: Counted) -> None:
    catalog = _catalog(counted.domain, counted.lang)
    for n, said in counted.said.items():
        assert catalog.ngettext(counted.singular, counted.plural, n).format(n) == said, (counted.seed, counted.where)
    seeds = _seed_dir()
    if seeds is not None:
        assert _norm(counted.quote) in _norm((seeds / counted.seed).read_text("utf-8"))


@pytest.mark.parametrize("msgids, word, quote", [
    *[(msgids, "с максимальным значением", "разместите жетон с **максимальным** значением в той провинции, где "
                                           "авто-Красс наиболее близок к победе") for msgids in (S12, *S12_OTHERS)],
    (S13, "с наивысшим значением", "предпочтение отдается той, в которой можно разместить жетон с **наивысшим** "
                                   "значением"),
], ids=["S-12", *[f"S-12-{k}" for k in range(len(S12_OTHERS))], "S-13"])
def test_crassus_why_says_the_priority_list_s_value_word_in_every_form(msgids: tuple[str, str], word: str,
                                                                      quote: str) -> None:
    """S-12, S-13: the why of the 4th and 5th points of «Приоритет размещения жетонов влияния
    авто-Красса» says the value he places as that point prints it, in each plural form of the
    sentence (it said «наибольшее значение», a word of neither point)."""
    catalog = _catalog("caesar", "ru")
    for n in (1, 2, 5):
        said = catalog.ngettext(*msgids, n) if msgids[0] != msgids[1] else catalog.gettext(msgids[0])
        assert said != msgids[0] and word in said, (n, said)
    seeds = _seed_dir()
    if seeds is not None:
        assert _norm(quote) in _norm((seeds / CAESAR_RU).read_text("utf-8"))
