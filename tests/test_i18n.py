"""Languages (issue 8): complete catalogs, glyphs for every text, Msg as data, the language setting."""
from __future__ import annotations

import ast
import json
import pickle
import re
import sys
from pathlib import Path

import pytest

from engine.caesar import text as caesar_text
from engine.glory import text as glory_text
from engine.jc import terms as jc_terms, text as jc_text
from engine.sword import text as sword_text
from engine.text import Msg, from_data, term, to_data
from firmware import history_text, i18n
from firmware.screens import base
from firmware.screens.caesar.text import TEXTS as caesar_screens
from firmware.screens.glory.text import TEXTS as glory_screens
from firmware.screens.jc.text import TEXTS as jc_screens
from firmware.screens.sword.text import TEXTS as sword_screens

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from scripts import i18n as catalogs  # noqa: E402


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


def test_every_text_in_the_code_is_translated_in_ru_and_uk_with_the_same_fields():
    problems = catalogs.problems()
    assert problems == [], "\n".join(problems[:30]) + f"\n… {len(problems)} problems (scripts/i18n.py check)"


def _all_translations() -> list[tuple[str, str, str]]:
    out = []
    for po in sorted(catalogs.LOCALE.glob("*/LC_MESSAGES/*.po")):
        _, entries = catalogs.read_po(po)
        for e in entries.values():
            out += [(po.parent.parent.name + "/" + po.stem, e.msgid, s) for s in e.msgstr if s]
    return out


def test_catalogs_exist_for_every_language_and_domain():
    found = {p.parent.parent.name for p in catalogs.LOCALE.glob("*/LC_MESSAGES/*.mo")}
    assert found == {"ru", "uk"}
    assert len(_all_translations()) > 200


@pytest.mark.parametrize("kind", ["body", "large"])
def test_every_translation_and_msgid_renders_with_the_shipped_font(kind):
    lost: dict[str, set[str]] = {}
    for where, msgid, msgstr in _all_translations():
        for s in (msgid, msgstr):
            miss = base.missing(s.replace("\n", " "), kind)
            if miss:
                lost.setdefault(where, set()).update(miss)
    assert lost == {}


def test_the_font_covers_both_alphabets_and_the_punctuation_the_texts_use():
    alphabet = ("АБВГҐДЕЁЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ" "абвгґдеёєжзиіїйклмнопрстуфхцчшщъыьэюя"
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                "—–…«»→←↑↓×·№°'’\"!?.,:;()/+-%")
    for kind in base.FONTS:
        assert base.missing(alphabet, kind) == set(), kind


def test_a_character_without_a_glyph_is_drawn_as_a_visible_replacement_not_an_exception():
    img, draw = base.frame()
    base.text(draw, 0, 20, "Рим \u4e00 \x00 \ud800")   # CJK, NUL, a lone surrogate
    assert img.getbbox() is not None
    assert base.drawable("Рим \u4e00") == "Рим \ufffd"


def test_a_msg_is_its_english_sentence_and_survives_json_and_pickle():
    m = Msg("Drew {} from the bag.", Msg.join([term("gold"), "Ваня"]))
    assert m == "Drew gold, Ваня from the bag."
    back = from_data(json.loads(json.dumps(to_data(m))))
    assert isinstance(back, Msg) and back == m and back.template == m.template
    assert pickle.loads(pickle.dumps(m)) == m


@pytest.mark.parametrize("args, kwargs", [
    ((), {}),
    ((3, term("Italia")), {}),
    ((Msg.join([term("Italia"), "Ваня", 5]), term("Asia")), {}),
    ((Msg.join([term("a"), Msg.join([term("b"), 2]), [3, term("c")]]),), {}),
    ((), {"point": term("Capture"), "prov": term("Sicilia"), "you": 4, "him": 5, "v": 2}),
    ((term("x"),), {"lst": Msg.join([term("Italia"), term("Asia")]), "n": 1}),
    ((), {"n": 1, "list": [term("Creta")]}),
    ((), {"n": 7, "list": (term("Creta"), term("Syria"))}),
    ((1,), {}),
    ((2, Msg.join([])), {}),
])
@pytest.mark.parametrize("counted", [False, True])
def test_a_msgs_english_is_its_template_said_without_translation(args, kwargs, counted):
    # the English text made at once (engine.text's short way) is what saying it untranslated gives
    fields = ["{}"] * len(args) + ["{%s}" % k for k in kwargs]
    template = "one: " + " | ".join(fields) + " {{braces}}"
    counted = counted and ("n" in kwargs or bool(args) and isinstance(args[0], int))  # n, or the first value
    plural = "many: " + " | ".join(fields) + " {{braces}}!" if counted else None
    m = Msg(template, *args, plural=plural, **kwargs)
    assert m == m.say(lambda s: s, lambda s, p, n: s if n == 1 else p)
    assert from_data(json.loads(json.dumps(to_data(m)))) == m
    spec = Msg("{:>8}|{v:<6}|{:+d}", term("Asia"), 3, v=term("Syria"))
    assert spec == "    Asia|Syria |+3" == spec.say(lambda s: s, lambda s, p, n: s)


def test_plural_forms_follow_the_language():
    m = Msg("{n} token left.", n=5, plural="{n} tokens left.")
    assert m == "5 tokens left."
    cat = {"{n} token left.": ["осталась {n} фишка", "осталось {n} фишки", "осталось {n} фишек"]}
    forms = cat["{n} token left."]

    def ng(s, p, n):  # the Russian rule of the catalogs' header
        return forms[0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2]
    assert m.say(lambda s: s, ng) == "осталось 5 фишек"
    assert Msg("{n} token left.", n=22, plural="{n} tokens left.").say(lambda s: s, ng) == "осталось 22 фишки"


def test_a_translation_whose_fields_do_not_fit_falls_back_to_english():
    m = Msg("Rolled {} and {}.", 3, 4)
    assert m.say(lambda s: "Выпало {0} и {5}.", lambda s, p, n: s) == "Rolled 3 and 4."


def test_malformed_stored_sentence_data_never_raises():
    assert from_data({"t": "Rolled {} and {}.", "a": [1]}) == "Rolled {} and {}."
    assert from_data({"t": 5}) == {"t": 5}


def test_the_console_speaks_the_chosen_language_and_keeps_codes_and_fields_english(console):
    r = console.request("frobnicate")
    assert r["error"] == "unknown_command"
    english = r["message"]
    assert console.request("settings language=ru")["ok"]
    r = console.request("frobnicate")
    assert r["error"] == "unknown_command" and r["message"] != english
    assert any("а" <= ch <= "я" for ch in r["message"].lower()), r["message"]
    assert console.request("settings language=uk")["ok"]
    r_uk = console.request("frobnicate")
    assert r_uk["message"] not in (english, r["message"])


@pytest.mark.parametrize("lang, quoted", [("en", "'{}'"), ("ru", "«{}»"), ("uk", "«{}»")])
def test_a_mistyped_command_is_answered_with_the_command_meant_in_each_language(console, lang, quoted):
    # a new owner's first typos: letters swapped, missed, a capital; with or without a session
    assert console.request(f"settings language={lang}")["ok"]
    for typo, meant in [("hlep", "help"), ("nwe", "new"), ("drwa", "draw"), ("Roll", "roll"), ("exprot", "export")]:
        r = console.request(f"{typo} 2")
        assert r["error"] == "unknown_command" and quoted.format(meant) in r["message"], (typo, r["message"])
    assert console.request("new bag items=gold*3,silver seed=1")["ok"]
    r = console.request("drwa 2")
    assert r["error"] == "unknown_command" and quoted.format("draw") in r["message"], r["message"]
    assert console.request("state")["state"]["bag"]["drawn"] == []          # nothing was drawn
    r = console.request("frobnicate")                                         # nothing like it: the list
    assert r["error"] == "unknown_command" and quoted.format("help") in r["message"], r["message"]
    # "help" is where the list is, never the list itself ("список команд: help" read as one command)
    assert ": help" not in r["message"] and ": «help»" not in r["message"], r["message"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_help_about_one_command_says_where_the_commands_are_described(console, lang):
    # `help draw` is what a new owner types next; the protocol keeps it bad_arguments (help takes no
    # words), and the refusal points to the page that describes each command instead of ending there
    assert console.request(f"settings language={lang}")["ok"]
    for line in ("help draw", "help new", "help me please"):
        r = console.request(line)
        assert r["error"] == "bad_arguments" and "docs/protocol.md" in r["message"], (line, r["message"])
        assert lang == "en" or re.search("[а-яіїє]{4}", r["message"]), r["message"]       # said in ru/uk
    assert console.request("help")["commands"][0] == "help"


def test_a_bad_language_is_refused_and_changes_nothing(console):
    assert console.request("settings language=ru")["ok"]
    r = console.request("settings language=de")
    assert not r["ok"] and r["error"] == "bad_arguments"
    assert console.request("settings")["settings"]["language"] == "ru"
    assert i18n.language() == "ru"


def test_the_language_is_remembered_across_restarts(state_dir):
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    assert c.request("settings language=uk")["ok"]
    c.close()
    i18n.set_language("en")
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert i18n.language() == "uk"
        assert c.request("settings")["settings"]["language"] == "uk"
    finally:
        c.close()


def test_the_log_and_undo_sentences_follow_the_language_chosen_later(console):
    assert console.request("new bag items=gold*3,silver*2 seed=7")["ok"]
    assert console.request("draw 2")["ok"]
    en_log = console.request("log")["log"][-1]
    assert console.request("settings language=ru")["ok"]
    ru_log = console.request("log")["log"][-1]
    assert ru_log != en_log
    undone = console.request("undo")["undone"]
    assert undone != "Undone: " + en_log and "Undone" not in undone


def test_the_first_start_asks_the_language_once(state_dir, monkeypatch):
    from firmware.i18n import LOCALE_VARIABLES
    for name in LOCALE_VARIABLES:                  # no locale (the systemd unit): the list opens on English
        monkeypatch.delenv(name, raising=False)
    from firmware.app import App
    from firmware.console import Console
    from firmware.screens.language import LanguageScreen
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    app = App(c)
    assert isinstance(app.stack[-1], LanguageScreen)
    app.handle("down")
    app.handle("a")                       # Русский
    assert not isinstance(app.stack[-1], LanguageScreen)
    assert i18n.language() == "ru"
    c.close()
    store = Store(state_dir)
    c = Console(store, store.resume())
    app = App(c)
    assert not isinstance(app.stack[-1], LanguageScreen)
    c.close()


# -- explicit domains (issue 22, item 6): a text is said in the words of the domain it names -------
MSG = {"caesar": caesar_text.Msg, "jc": jc_text.Msg, "sword": sword_text.Msg, "glory": glory_text.Msg,
       "history": history_text.Msg, "legatus": Msg}
GETTEXT = {"caesar": caesar_screens.gettext, "jc": jc_screens.gettext, "sword": sword_screens.gettext,
           "glory": glory_screens.gettext, "history": history_text._, "legatus": i18n._}


def _domain_translations(lang: str) -> dict[str, dict[str, str]]:
    import gettext
    out: dict[str, dict[str, str]] = {}
    for mo in sorted((i18n.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo")):
        with open(mo, "rb") as f:
            cat = gettext.GNUTranslations(f)
        out[mo.stem] = {k: v for k, v in cat._catalog.items() if isinstance(k, str) and k}
    return out


def _said_differently(lang: str) -> list[tuple[str, str, str]]:
    """(domain, msgid, its words there) for every msgid two domains translate differently."""
    domains = _domain_translations(lang)
    return [(domain, msgid, msgstr) for domain, texts in domains.items() for msgid, msgstr in texts.items()
            if any(other.get(msgid, msgstr) != msgstr for d, other in domains.items() if d != domain)]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_word_two_games_say_differently_is_said_in_the_words_of_the_game_that_shows_it(lang):
    """The RU/UA rulebooks of Julius Caesar and The Sword of Rome use different words for the same
    English one ("Battle": «Бой» / «Битва»); each game's screens and engine keep their own, and a
    sentence a game made keeps its words wherever it is said, stored and read back too."""
    i18n.set_language(lang)
    words = _said_differently(lang)
    assert {d for d, _m, _s in words} >= {"caesar", "jc", "sword", "history", "legatus"}
    for domain, msgid, msgstr in words:
        assert GETTEXT[domain](msgid) == msgstr, (domain, msgid)
        assert i18n.domain(domain).say(msgid) == msgstr, (domain, msgid)
        made = MSG[domain](msgid)
        assert i18n.say(made) == msgstr, (domain, msgid)
        assert i18n.say(from_data(json.loads(json.dumps(to_data(made))))) == msgstr, (domain, msgid)
        assert i18n.say(pickle.loads(pickle.dumps(made))) == msgstr, (domain, msgid)
        if domain != "legatus":                   # a sentence of no domain is said in the sayer's words
            for sayer in MSG:
                assert i18n.domain(sayer).say(made) == msgstr, (domain, sayer, msgid)
    assert len(words) >= 12


# The words two catalogs say differently for one English text, each for a reason: anything else
# said in two catalogs is said in one way (a Ukrainian game card was «карта» in Julius Caesar's
# screens and «картка» in The Sword of Rome's: one thing, two words, no rulebook behind either).
SAID_TWO_WAYS = {
    "Battle": "the rulebooks: Julius Caesar «Бой»/«Бій», The Sword of Rome «Битва»",
    "Last battle": "the rulebooks' battle (JC «Прошлый бой», the blocks of the campaign's previous one; the Sword "
                   "«Последняя битва», under «Последний бросок»)",
    "Attacker": "JC's form row names who attacks («Атакует <Цезарь>»); the Sword's names the side",
    "the attacker wins": "each rulebook's side names (JC «атакующий», the Sword «атака»)",
    "wild": "a bag item's name, shortened from Caesar!'s «универсальный жетон» (legatus)",
    "play": "Caesar!'s step («разыграйте») is an order; JC's a noun («розыгрыш»)",
    "over": "Caesar!'s game («конец») and JC's battle («окончен») in their title bars",
    "{} left": "the bag's deck row is «Взять карту  ещё 12» (with «осталось 12» it would take two rows)",
    "Fair draw": "the new-game form's row holds the code («Код жребия»); History's item opens the check",
    "Older games…": "History lists finished plays («партии»); Games → Earlier games lists sessions, as its "
                    "title («Прошлые игры»)",
}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_one_english_text_is_said_one_way_in_every_catalog_but_for_a_reason(lang):
    import gettext
    said: dict[tuple[str, int], set[str]] = {}          # (msgid, plural form) -> its words, every catalog
    for mo in sorted((i18n.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo")):
        with open(mo, "rb") as f:
            for key, text in gettext.GNUTranslations(f)._catalog.items():
                if key:
                    said.setdefault((key, -1) if isinstance(key, str) else key, set()).add(text)
    differ = {msgid for (msgid, _form), texts in said.items() if len(texts) > 1}
    assert differ <= set(SAID_TWO_WAYS), sorted(differ - set(SAID_TWO_WAYS))


def test_a_games_sentence_keeps_its_words_from_whatever_module_makes_or_says_it():
    """Where code sits no longer picks its words: a function moved into a Sword of Rome module that
    makes a Julius Caesar result, or binds Julius Caesar's ``_``, still says Julius Caesar's words;
    said by History, by a shared screen or by The Sword of Rome's screens, they stay his."""
    domains = _domain_translations("ru")
    jc_word, sword_word = domains["jc"]["the attacker wins"], domains["sword"]["the attacker wins"]
    assert jc_word != sword_word
    i18n.set_language("ru")
    moved: dict[str, object] = {"__name__": "firmware.screens.sword.rolls", "result": jc_terms.result,
                                "_": jc_screens.gettext}
    exec("def won():\n    return result('attacker_wins')\n\ndef label():\n    return _('the attacker wins')", moved)
    made = moved["won"]()
    assert isinstance(made, Msg) and made.domain == "jc"
    for say in (i18n.say, history_text.say, sword_screens.say, jc_screens.say):
        assert say(made) == jc_word
    assert moved["label"]() == jc_word
    sword_made = sword_text.term("the attacker wins")
    assert [say(sword_made) for say in (i18n.say, jc_screens.say)] == [sword_word, sword_word]
    assert i18n.say(Msg("{}: {}", "Bibracte", made)) == f"Bibracte: {jc_word}"   # a value: its sentence's words


def test_sentences_stored_before_domains_were_explicit_read_back_in_the_same_words():
    """Stored logs keep saying what they said: ``o`` named the engine package that made a sentence
    (a game's id, or a shared module such as ``bag``: the shared words), and a sentence made by the
    firmware was stored without it (said in the words of the screen showing it)."""
    ru = _domain_translations("ru")
    i18n.set_language("ru")
    assert ru["jc"]["Battle"] != ru["sword"]["Battle"] and ru["caesar"]["wild"] != ru["legatus"]["wild"]
    for data, sayer, words in [({"t": "Battle", "o": "jc"}, sword_screens, ru["jc"]["Battle"]),
                               ({"t": "Battle", "o": "sword"}, jc_screens, ru["sword"]["Battle"]),
                               ({"t": "Battle"}, jc_screens, ru["jc"]["Battle"]),
                               ({"t": "Battle"}, sword_screens, ru["sword"]["Battle"]),
                               ({"t": "wild", "o": "bag"}, caesar_screens, ru["legatus"]["wild"]),
                               ({"t": "wild", "o": "caesar"}, i18n, ru["caesar"]["wild"]),
                               ({"t": "{} left", "a": [3], "o": "dice"}, caesar_screens, ru["legatus"]["{} left"].format(3))]:
        assert sayer.say(from_data(data)) == words, data
    # and a game's sentence is still stored the way the firmware before explicit domains read it
    assert to_data(jc_text.Msg("Battle over: {}; {} holds the field.", jc_terms.result("attacker_wins"), "Rome")) == \
        {"t": "Battle over: {}; {} holds the field.", "a": [{"t": "the attacker wins"}, "Rome"], "o": "jc"}
    assert "o" not in to_data(Msg("Rolled {}.", 3))                # a shared sentence: the sayer's words


def test_a_shared_screen_says_a_game_word_in_the_words_of_the_session_being_played(console):
    """A form's title drawn by the shared form code: "Battle" in a Sword session is the Sword
    rulebook's word, in a Julius Caesar session the Julius Caesar one. (The word was "Attacker",
    until the Sword's loss table named each side's dice in sentences of their own, p17-sword: only
    Julius Caesar's catalog has it now.)"""
    domains = _domain_translations("ru")
    assert domains["jc"]["Battle"] != domains["sword"]["Battle"]
    assert console.request("settings language=ru")["ok"]
    try:
        assert console.request("new sword players=romans,gauls")["ok"]
        assert i18n._("Battle") == domains["sword"]["Battle"]                # the shared screens' ``_``
        assert console.request("new jc-battle")["ok"]
        assert i18n._("Battle") == domains["jc"]["Battle"]
    finally:
        i18n.set_language("en")
        i18n.set_game(None)


def test_the_catalog_domain_of_a_file_is_the_one_it_binds(tmp_path):
    assert [catalogs.domain_of(ROOT / f) for f in (
        "engine/jc/battle.py", "engine/glory/sheet.py", "engine/bag.py", "engine/text.py",
        "firmware/screens/sword/words.py", "firmware/screens/caesar/record.py", "firmware/export.py",
        "firmware/screens/history.py", "firmware/screens/widgets/figure.py", "firmware/console.py")] == \
        ["jc", "glory", "legatus", "legatus", "sword", "caesar", "history", "history", "legatus", "legatus"]
    own = tmp_path / "own.py"
    own.write_text('from firmware.i18n import domain, language\n_ = domain("history").gettext\n')
    assert catalogs.domain_of(own) == "history"
    mixed = tmp_path / "mixed.py"
    mixed.write_text("from firmware.screens.jc.text import _\nfrom engine.sword.text import Msg\n")
    with pytest.raises(ValueError, match="several domains"):
        catalogs.domain_of(mixed)


def test_no_domain_is_taken_from_the_calling_code():
    """No frame inspection anywhere in the device's code: a text's domain is the one it binds."""
    found = [f"{p.relative_to(ROOT)}:{n}" for top in ("engine", "firmware", "hw")
             for p in sorted((ROOT / top).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if any(w in line for w in ("_getframe", "f_globals", "f_back", "import inspect", "from inspect"))]
    assert found == []


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_screen_title_is_said_in_its_own_domain_words(lang):
    """History → Fair draw opens a screen titled as the row that opened it (History's words), not
    with the shared catalog's other sense of "Fair draw" (the new-game form's code row)."""
    from firmware import i18n
    from firmware.history_text import _ as history_word
    from firmware.screens.fair_draw import FairDrawScreen
    before = i18n.language()
    try:
        i18n.set_language(lang)
        assert history_word("Fair draw") != i18n._("Fair draw")      # the two senses differ here
        assert FairDrawScreen().title == history_word("Fair draw")
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize("n, en, ru, uk", [
    (1, "1 byte was kept aside", "1 байт сохранён отдельно", "1 байт збережено окремо"),
    (3, "3 bytes were kept aside", "3 байта сохранены отдельно", "3 байти збережено окремо"),
    (5, "5 bytes were kept aside", "5 байт сохранено отдельно", "5 байтів збережено окремо"),
])
def test_a_torn_journal_line_counts_its_bytes_with_the_plural_forms_of_each_language(tmp_path, n, en, ru, uk):
    """A count is said with the plural form its number takes (ru/uk: 1, 2-4, 5+), never "1 bytes"
    or "отложено байт: 1"."""
    from firmware import journal
    path = tmp_path / "session.journal"
    path.write_bytes(journal.encode({"v": 1, "game": "dice"}) + b"x" * n)
    records, recovery = journal.read(path)
    assert len(records) == 1 and recovery is not None
    assert en in str(recovery.message)
    assert ru in i18n.say(recovery.message, "ru") and uk in i18n.say(recovery.message, "uk")


def test_sessions_imported_from_an_older_legatus_are_counted_with_plural_forms(state_dir):
    from firmware import journal
    from firmware.store import Store
    header = {"v": 1, "game": "dice", "line": "new dice seed=4", "seed": 4, "sid": "old"}
    (state_dir / "session.journal").write_bytes(journal.encode(header) + journal.encode({"line": "roll 2d6"}))
    store = Store(state_dir)
    try:
        store.resume()
        assert store.recovery is not None
        said = {lang: i18n.say(store.recovery.message, lang) for lang in ("en", "ru", "uk")}
    finally:
        store.close()
    assert "1 session from an older Legatus was imported" in said["en"]
    assert "Импортирована 1 сессия" in said["ru"] and "Імпортовано 1 сесію" in said["uk"]


@pytest.mark.parametrize("lang,said", [("ru", "у Legatus нет прав доступа туда"), ("uk", "Legatus не має прав доступу туди")])
def test_old_journal_files_that_cannot_be_read_say_why_in_the_players_language(state_dir, monkeypatch, lang, said):
    """The start's note on old journal files the card refused put the system's English text in
    the sentence («… не удалось прочитать ([Errno 13] Permission denied: '…') …»): the reason is
    said in the player's language, the system's text is in the log."""
    import errno
    from firmware import journal, migrate
    from firmware.store import Store
    header = {"v": 1, "game": "dice", "line": "new dice seed=4", "seed": 4, "sid": "old"}
    (state_dir / "session.journal").write_bytes(journal.encode(header))

    def refused(root):
        raise PermissionError(errno.EACCES, "Permission denied", str(root / "session.journal"))
    monkeypatch.setattr(migrate, "read_old", refused)
    store = Store(state_dir)
    try:
        store.resume()
        assert store.recovery is not None
        text = i18n.say(store.recovery.message, lang)
    finally:
        store.close()
    assert said in text and "Permission" not in text and "Errno" not in text, text


def test_action_records_kept_aside_on_resuming_are_counted_with_plural_forms():
    from firmware.store import resuming
    source = Path(resuming.__file__).read_text(encoding="utf-8")
    assert "{} records were kept aside" not in source
    for n, ru, uk in [(1, "1 запись отложена", "1 запис відкладено"), (2, "2 записи отложены", "2 записи відкладено"),
                      (7, "7 записей отложено", "7 записів відкладено")]:
        note = Msg("A damaged record was found after action {after}; {n} record was kept aside for a bug report and "
                   "the session resumed at the last good action.",
                   plural="A damaged record was found after action {after}; {n} records were kept aside for a bug "
                          "report and the session resumed at the last good action.", n=n, after=40)
        assert ru in i18n.say(note, "ru") and uk in i18n.say(note, "uk")


def _hidden_texts(tree: ast.AST) -> list[str]:
    """Calls of _/Msg/term/say/gettext whose text is a string the catalogs cannot find: a literal
    inside a conditional, an f-string, or strings added together (only a call's own first literal,
    or an N_() one, is extracted)."""
    def literal_inside(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return True
        if isinstance(node, ast.IfExp):
            return literal_inside(node.body) or literal_inside(node.orelse)
        if isinstance(node, ast.BoolOp):
            return any(literal_inside(v) for v in node.values)
        if isinstance(node, ast.BinOp):
            return literal_inside(node.left) or literal_inside(node.right)
        return isinstance(node, ast.JoinedStr)
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in {"_", "Msg", "term", "say", "gettext"} and node.args):
            first = node.args[0]
            if not isinstance(first, ast.Constant) and literal_inside(first):
                out.append(f"line {node.lineno}: {ast.unparse(first)[:80]}")
    return out


def test_no_sentence_is_hidden_from_the_catalogs_inside_an_expression():
    """Msg("a" if x else "b") says "b" in English in every language: the extractor reads only a
    call's literal first argument (engine/kit.py's side-bag refusals were English in ru/uk)."""
    assert _hidden_texts(ast.parse('Msg("No side bag yet" if bag else "No side deck yet")'))   # the check can fail
    assert not _hidden_texts(ast.parse('term(N_("clockwise") if turn > 0 else N_("counter-clockwise"))'))
    found = {}
    for root in catalogs.SOURCES:
        for path in sorted((ROOT / root).rglob("*.py")):
            hidden = _hidden_texts(ast.parse(path.read_text(encoding="utf-8")))
            if hidden:
                found[str(path.relative_to(ROOT))] = hidden
    assert not found, found


def test_every_stored_kind_of_sentence_reads_back_as_itself():
    # engine/text.py KINDS: a sentence that says its text its own way keeps doing so from data
    import importlib
    from engine.text import KINDS
    for kind, ref in KINDS.items():
        module, _sep, attr = ref.partition(":")
        made = getattr(importlib.import_module(module), attr)
        assert issubclass(made, Msg) and made.kind == kind
        back = from_data(to_data(made("B")))
        assert type(back) is made and back.template == "B"


def test_a_caesar_tile_is_said_with_the_rulebook_s_letter_after_a_restart(state_dir):
    # S-3: the Russian rulebook prints the tiles А Б В Г Д (Cyrillic); the log read back after a
    # restart says them so, as before it
    from tests.conftest import run_console
    first = run_console(state_dir, ["settings language=ru", "new caesar-solo seed=4 edition=ru", "crassus", "log 30"])
    again = run_console(state_dir, ["log 30"])
    assert first[-1]["log"] == again[-1]["log"]
    import re
    assert any(re.search("приказ [АБВГД]+ ", line) for line in again[-1]["log"]), again[-1]["log"]


COUNTS = (0, 1, 2, 5, 11, 21, 22, 25, 111)
FORM = {0: 2, 1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1, 25: 2, 111: 2}      # the Russian and Ukrainian rule


def form_of(n: int) -> int:
    """Which of the three forms ``n`` takes in Russian and Ukrainian."""
    return 0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_count_takes_the_form_its_number_asks_for_in_every_catalog(lang):
    """Every plural sentence of every catalog, as the device loads it (.mo, the header's rule):
    1 and 21 the first form, 2 and 22 the second, 0, 5, 11, 25 and 111 the third; three forms,
    none empty."""
    from firmware.i18n import catalog
    from scripts import i18n as catalogs
    checked = 0
    for po in sorted(catalogs.LOCALE.glob(f"{lang}/LC_MESSAGES/*.po")):
        for e in catalogs.read_po(po)[1].values():
            if not e.plural:
                continue
            assert len(e.msgstr) == 3 and all(e.msgstr), (po.name, e.msgid)
            cat = catalog(lang, po.stem)
            for n in COUNTS:
                assert cat.ngettext(e.msgid, e.plural, n) == e.msgstr[FORM[n]] == e.msgstr[form_of(n)], (po.name, e.msgid, n)
            checked += 1
    assert checked > 50


def test_a_glory_result_in_history_counts_its_points_of_fame_with_plural_forms(console):
    """History's result of a Glory of Rome game read «Победа: Jack, 39 очк.» (a cut word for every
    number); now the rulebook's «очки славы» in the form the number asks for."""
    import json

    from tests.test_glory_scoring import EXAMPLE
    console.request("new glory players=Jack,Henry,Mary,Ross seed=5")
    for _i in range(9):
        console.request("event")
        console.request("end-round")
    assert console.request("score " + json.dumps(EXAMPLE))["ok"]
    result = console.request("history 1")["games"][0]["result"]
    best = max(p["score"] for p in console.request("history 1")["games"][0]["players"])
    assert result.endswith(f"won with {best} points.")
    for lang, words in (("ru", ("очко славы", "очка славы", "очков славы")), ("uk", ("очко слави", "очки слави", "очок слави"))):
        console.request(f"settings language={lang}")
        said = console.request("history 1")["games"][0]["result"]
        assert said.endswith(f", {best} {words[form_of(best)]}."), said
    console.request("settings language=en")


@pytest.mark.parametrize(("n", "ru", "uk"), [
    (1, "Анна: 1 очко славы", "Анна: 1 очко слави"), (21, "Анна: 21 очко славы", "Анна: 21 очко слави"),
    (22, "Анна: 22 очка славы", "Анна: 22 очки слави"), (11, "Анна: 11 очков славы", "Анна: 11 очок слави"),
    (111, "Анна: 111 очков славы", "Анна: 111 очок слави"), (25, "Анна: 25 очков славы", "Анна: 25 очок слави")])
def test_a_glory_result_counts_its_points_of_fame_with_plural_forms(n, ru, uk):
    """The same sentence for every kind of number (1, 21; 22; 11, 25, 111)."""
    from engine.glory.text import Msg as GloryMsg
    from firmware.i18n import say
    won = GloryMsg("{} won with {n} point.", "Анна", n=n, plural="{} won with {n} points.")
    assert str(won) == f"Анна won with {n} point{'s' if n != 1 else ''}."
    assert say(won, "ru") == "Победа: " + ru.replace("Анна: ", "Анна, ") + "."
    assert say(won, "uk") == "Перемога: " + uk.replace("Анна: ", "Анна, ") + "."


# Capitalised inside a sentence on purpose: History, a screen's name («гра потрапить до Історії»).
SCREEN_NAMES = {"історії", "історія", "истории", "история"}
SHARED = ("legatus", "history")         # the device's own catalogs: said beside every game's words
_MID_WORD = re.compile(r"(?:(?<=[a-zа-яёіїєґ0-9,;] )|(?<=[a-zа-яёіїєґ] \()|(?<=^[ВКСУЗОІ] ))"   # (after «С» opening it)
                       r"([А-ЯЁІЇЄҐа-яёіїєґ][А-ЯЁІЇЄҐа-яёіїєґʼ’'-]*)")


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_word_is_capitalised_inside_a_sentence_in_one_way_only(lang):
    """A word written with a capital in the middle of one sentence and in small letters in the middle
    of another is a slip: in one game's catalog (Ukrainian «з його стосу Центуріонів» beside
    «закритих центуріонів Красса»), or between the device's own catalogs and a game's (Russian
    History's «С Авто-Крассом» beside Caesar!'s «С авто-Крассом», as the rulebook writes him). Two
    games may differ (their rulebooks do); a name in «» (a token's, as the rulebook writes
    «Центуріон») and an abbreviation in capitals (ПО) do not count."""
    said: dict[tuple[str, bool], dict[str, str]] = {}      # (word, capital?) -> catalog -> a sentence
    for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po")):
        _, entries = catalogs.read_po(po)
        for e in entries.values():
            for s in e.msgstr:
                for w in _MID_WORD.findall(re.sub(r"«[^»]*»", " ", s)):
                    if not w.isupper() and w.lower() not in SCREEN_NAMES:
                        said.setdefault((w.lower(), w[0].isupper()), {}).setdefault(po.stem, s)
    slips = [f"{big}: {said[w, True][big]!r} (small in {small}: {said[w, False][small]!r})"
             for (w, capital) in sorted(said) if capital and (w, False) in said
             for big in said[w, True] for small in said[w, False]
             if big == small or big in SHARED or small in SHARED]
    assert not slips, "\n".join(slips)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_device_has_one_name_in_every_game(lang):
    """The device is the product's, not a game's: every catalog names it with the same word (The
    Sword of Rome's dice choice said «Кубики <прибор>» where every other Russian screen says
    «устройство»: «Передайте устройство», Caesar!'s «Приказы устройство», JC's dice)."""
    names = {domain: texts["device"] for domain, texts in _domain_translations(lang).items() if "device" in texts}
    assert "legatus" in names and len(set(names.values())) == 1, names
    # the games' Dice, Tiles and Bags rows say the shared catalog's word (widgets.dice.source_word:
    # tests/test_widgets.py checks every game's rows), not one of their own
    assert not {d for d in names if d != "legatus"} - {"history"}, names


def test_the_ukrainian_catalogs_say_install_with_one_verb():
    """«Install python3-lgpio» is «встановіть» in every Ukrainian catalog: two of the GPIO and display
    messages said «установіть» beside «Встановіть python3-lgpio» of the key notice (both are
    Ukrainian; one thing, one word)."""
    said = {w for po in sorted((catalogs.LOCALE / "uk" / "LC_MESSAGES").glob("*.po"))
            for e in catalogs.read_po(po)[1].values() for s in e.msgstr
            for w in re.findall(r"\b[ВвУу]станові(?:ть|мо)\b", s)}
    assert said and {w[0].lower() for w in said} == {"в"}, said


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_range_of_numbers_in_a_sentence_takes_an_en_dash(lang):
    """A range said after a word of the sentence is written with the en dash, as the rest of the
    catalogs write it («значения кубиков 1–6», «1–4 игрока»): Sword's dice said «кубика 1-6» and
    Glory's options «мест 1-4», «(1-90)»; a range up to a number filled in too (Glory's pick said
    «<карт в руке 1-{}>» beside Sword's «<рейтинг 0–9>»). A range in a command (after ``=``, a
    Latin word) is typed as it is and not counted."""
    hyphened = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
                for e in catalogs.read_po(po)[1].values() for s in e.msgstr
                if re.search(r"(?:[а-яёіїєґ]+ \(?|\()\d+-(?:\d+|\{\w*\})(?![\w.-])", s, re.IGNORECASE)]
    assert not hyphened, "\n".join(hyphened)


YO_HOMOGRAPHS = {"все"}        # «все» (all, plural) and «всё» (everything) are two words


def test_a_russian_word_written_with_yo_is_written_with_it_everywhere():
    """The Russian catalogs write «ё» (ещё, её, подсчёта): a word written with «ё» in one sentence and
    with «е» in another is a slip (Glory's objectives said «до итогового подсчета очков» beside its
    scoring's «подсчёта»). Two different words spelled alike but for «ё» (все/всё) are listed apart."""
    words: dict[str, str] = {}
    for po in sorted((catalogs.LOCALE / "ru" / "LC_MESSAGES").glob("*.po")):
        for e in catalogs.read_po(po)[1].values():
            for s in e.msgstr:
                for w in re.findall(r"[а-яё]+", s.lower()):
                    words.setdefault(w, f"{po.stem}: {s!r}")
    slips = [f"{w.replace('ё', 'е')} ({words[w.replace('ё', 'е')]}) beside {w} ({words[w]})"
             for w in sorted(words) if "ё" in w and w.replace("ё", "е") in words
             and w.replace("ё", "е") not in YO_HOMOGRAPHS]
    assert not slips, "\n".join(slips)


def test_the_ukrainian_apostrophe_is_one_sign_in_every_catalog():
    """Inside a Ukrainian word the catalogs write the apostrophe as ' («ім'я», «об'єкт», 67 words):
    Glory's «Двоє гравців мають одне імʼя» had the modifier letter ʼ, another sign for the same
    thing (a player's typed name may hold either: that is not a catalog's)."""
    signs = {m.group(1): f"{po.stem}: {s!r}"
             for po in sorted((catalogs.LOCALE / "uk" / "LC_MESSAGES").glob("*.po"))
             for e in catalogs.read_po(po)[1].values() for s in e.msgstr
             for m in re.finditer(r"[а-яіїєґ]([’'ʼ`])[а-яіїєґ]", s, re.IGNORECASE)}
    assert set(signs) == {"'"}, signs


OTHER_ALPHABET = {"ru": "іїєґІЇЄҐ", "uk": "ыэъёЫЭЪЁ"}   # the letters only the other language writes


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_word_of_a_translation_is_written_in_one_alphabet(lang):
    """A Latin letter inside a Cyrillic word (a Latin «c», «o», «p» typed for «с», «о», «р») looks the
    same on screen but is another word to a search and to the wrap's hyphenation; a Ukrainian «і»
    in a Russian sentence (or «ы», «ё» in a Ukrainian one) is the other language's word. Ids and
    console words stay Latin as whole words (GPIO17, cw90)."""
    slips = [f"{po.stem}: {w!r} in {s!r}" for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
             for e in catalogs.read_po(po)[1].values() for s in e.msgstr
             for w in re.findall(r"[A-Za-zА-Яа-яЁёІіЇїЄєҐґ]+", s)
             if (re.search(r"[A-Za-z]", w) and re.search(r"[А-Яа-яЁёІіЇїЄєҐґ]", w))
             or set(w) & set(OTHER_ALPHABET[lang])]
    assert not slips, "\n".join(slips)


def test_no_screen_joins_words_with_an_english_sign():
    """The Sword of Rome's consuls were shown «Валерий & Манлий» on a Russian screen: the names
    joined by ``" & ".join`` in the screen's code, outside any sentence of the catalogs. Words a
    person reads are joined by a translatable sentence («{} and {}»: «{} и {}», «{} і {}»)."""
    glued = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "firmware").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"""["'] (?:&|and|or|\+) ["']\.join""", line)]
    assert not glued, glued


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_glory_s_objectives_deck_has_one_name(lang):  # G-19
    """Where a card goes «to the bottom of the deck» Glory's catalog says one word for the deck
    (Ukrainian said «під низ колоди» on the device and «під низ стосу» in the console's keep usage)."""
    _, entries = catalogs.read_po(catalogs.LOCALE / lang / "LC_MESSAGES" / "glory.po")
    said = {re.search(r"(?:вниз|під низ) (\w+)", s).group(1) for e in entries.values()
            if "bottom of the deck" in e.msgid for s in e.msgstr if s}
    assert len(said) == 1, said


# the informal («ты») imperatives of the verbs the device asks the player with; every sentence says «вы»
INFORMAL = {"ru": r"\b(?:нажми|выбери|введи|удерживай|держи|тяни|вытяни|брось|положи|верни|сбрось|отмени)\b",
            "uk": r"\b(?:натисни|вибери|обери|введи|утримуй|тягни|витягни|кинь|поклади|поверни|скинь|скасуй)\b"}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_device_asks_the_player_in_one_register(lang):
    """Every request of the catalogs says «вы» («Нажмите любую кнопку», «удерживайте B», «Натисніть
    на кубик»); the dice screen's hints alone said «нажми: перебросить», «нажми: выбрать кубик» (uk
    «натисни: перекинути», «натисни: обрати кубик»), the familiar «ты» a stranger at the table is
    not spoken to with. The hints fit the screen's line as they are (no «…»)."""
    slips = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
             for e in catalogs.read_po(po)[1].values() for s in e.msgstr
             if re.search(INFORMAL[lang], s, re.IGNORECASE)]
    assert not slips, "\n".join(slips)
    i18n.set_language(lang)
    for hint in ("press: re-roll some", "press: pick a die"):
        said = i18n._(hint)
        assert said != hint and base.clip(said) == said, said


KEYS_HELP = ("Keys: up and down move; right or A chooses; left or B goes back; press (the joystick pushed in) does the "
             "screen's main action; hold B to take back the last step; hold A for the screen's second action.")


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_joystick_s_directions_are_named_as_the_keys_help_names_them(lang):
    """The Key test («Остання: ліворуч») and the hardware report («джойстик праворуч») named two
    directions with the adverbs of place (ліворуч, праворуч: on the left, on the right) beside «вгору»,
    «вниз» of motion, and beside About's «вправо або A — вибір; вліво або B — назад»: one joystick,
    two ways to name its left. Each direction is the word the Keys help says, and «joystick …» says it
    after «джойстик»."""
    said = _domain_translations(lang)["legatus"]
    helped = said[KEYS_HELP]
    for way in ("up", "down", "left", "right"):
        assert re.search(rf"(?<!\w){said[way]}(?!\w)", helped, re.IGNORECASE), (way, said[way], helped)
        assert said[f"joystick {way}"].endswith(" " + said[way]), (way, said[f"joystick {way}"])


def test_the_ukrainian_catalogs_count_points_with_one_word():
    """Points are «очки» in Ukrainian: «очко слави», «Підрахунок очок», «12+ очок Сенату», «ПО»
    (переможні очки); Glory's statistics in History and its score sheet's title said «Бали «На славу
    Риму»», «Бали гравця», a second word for the same points on the next screen."""
    said = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / "uk" / "LC_MESSAGES").glob("*.po"))
            for e in catalogs.read_po(po)[1].values() for s in e.msgstr
            if re.search(r"\bбал(?:и|ів|ам|ами|ах)?\b", s, re.IGNORECASE)]
    assert not said, "\n".join(said)
    glory = _domain_translations("uk")["glory"]
    assert glory["Glory scores"].startswith("Очки") and glory["Score detail"].startswith("Очки")


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_refusal_followed_by_what_the_game_waits_for_is_two_sentences(console, lang):
    """Caesar!'s second placement in a turn was refused with «Вы уже разместили жетон в этот ход; Ваш
    ход: вытяните 1 жетон (draw).» (uk «…цього ходу; Ваш хід: …»): what the game waits for is a
    sentence of its own, with its capital, so it follows a full stop, not a semicolon."""
    console.request(f"settings language={lang}")
    assert console.request("new caesar-solo side=caesar difficulty=normal seed=5")["ok"]
    assert console.request("crassus")["ok"]
    move = console.request("moves")["moves"][0]
    province = next(iter(move["toward"]))
    assert console.request(f"play {move['space']} {move['token']} {province}")["ok"]
    refused = console.request(f"play {move['space']} {move['token']} {province}")
    assert not refused["ok"] and "(draw)" in refused["message"], refused
    assert not re.search(r"[;,]\s+[А-ЯЁІЇЄҐ]", refused["message"]), refused["message"]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_verdict_after_game_over_is_a_sentence_of_its_own(lang):
    """«The game is over: {}» was made «Игра окончена. {}» (the verdict has its capital: «Вы
    разместили свой последний жетон контроля и побеждаете.»), but its sibling said when a finished
    Caesar! game is sent a move kept the colon: «Игра окончена: Вы разместили… Новая: new
    caesar-solo.» (uk «Гру закінчено: Ви виклали…»). Every "The game is over: {…}" of every catalog
    puts the verdict after a full stop."""
    glued = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
             for english, e in catalogs.read_po(po)[1].items() if english.startswith("The game is over: {")
             for s in e.msgstr if re.search(r":\s*\{", s.split("{")[0] + "{")]
    assert not glued, "\n".join(glued)
    i18n.set_language(lang)
    said = i18n.say(caesar_text.Msg("The game is over: {} Start a new one with new caesar-{}.",
                                    caesar_text.Msg("You placed your last control marker and win."), "solo"))
    assert not re.search(r":\s+[А-ЯЁІЇЄҐ]", said) and said.endswith("new caesar-solo."), said
    # Julius Caesar's winter logs its victory check the same way: «Зима: Победителя пока нет (…).»
    said = i18n.say(jc_text.Msg("Winter: {}", jc_text.Msg("No winner yet (Caesar {} VP, Pompey {} VP).", 1, 8)))
    assert not re.search(r":\s+[А-ЯЁІЇЄҐ]", said) and said.startswith("Зима"), said


def test_the_ukrainian_fair_draw_is_declined_one_way():
    """«Чесний жереб» takes «жеребу» in the genitive everywhere in Ukrainian («Код жеребу», «Запис жеребу в
    порт», «за записом чесного жеребу»: 18 sentences); Glory's final score said «Зерно жереба»,
    the other ending, beside History's «Зерно» of the same draw."""
    forms = {m for po in sorted((catalogs.LOCALE / "uk" / "LC_MESSAGES").glob("*.po"))
             for e in catalogs.read_po(po)[1].values() for s in e.msgstr for m in re.findall(r"\bжереб(?:а|у)\b", s)}
    assert forms == {"жеребу"}, forms


@pytest.mark.parametrize("lang, said", [("ru", "карточ[а-яё]+ Отчаянных Времён"), ("uk", "карт[а-яіїєґ]* Відчайдушних часів")],
                         ids=["ru", "uk"])
def test_a_desperate_times_card_is_named_one_way(lang, said):  # W-12, rule 7.4
    """The Sword of Rome's Desperate Times card is named as 7.4 names it («карточки Отчаянных Времен»),
    the card of the Desperate Times, in every sentence; the Ukrainian usage of desperate-order said
    «карту «Відчайдушні часи»», the card's title quoted, beside «карту Відчайдушних часів» of the
    other five."""
    _, entries = catalogs.read_po(catalogs.LOCALE / lang / "LC_MESSAGES" / "sword.po")
    cards = {english: e.msgstr[0] for english, e in entries.items() if "Desperate Times card" in english}
    assert len(cards) >= 5
    slips = [f"{english!r}: {s!r}" for english, s in cards.items() if not re.search(said, s, re.IGNORECASE)]
    assert not slips, "\n".join(slips)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_campaign_s_end_is_titled_as_its_sentences_say_it(lang):
    """Julius Caesar's home row and snapshot «Campaign over» said «Кампанію завершено» above the
    verdicts «Кампанію закінчено: переміг Цезар…» (завершено is what the players do to a game,
    «Гравці завершили гру»; закінчено what its rules do): each "Campaign over: …" opens with the title."""
    _, entries = catalogs.read_po(catalogs.LOCALE / lang / "LC_MESSAGES" / "jc.po")
    title = entries["Campaign over"].msgstr[0]
    verdicts = [e.msgstr[0] for english, e in entries.items() if english.startswith("Campaign over: ")]
    assert len(verdicts) >= 5 and all(v.startswith(title + ":") for v in verdicts), (title, verdicts)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_session_is_called_one_word(lang):
    """A session is «сессия» / «сесія» in 31 sentences (the console's «В этой сессии…», Earlier games'
    «Импортирована 1 сессия…»); the command line's --state-dir help said «где хранятся сеансы» (uk
    «сеанси»), another word for the same files."""
    said = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
            for e in catalogs.read_po(po)[1].values() for s in e.msgstr if re.search(r"\bсеанс", s, re.IGNORECASE)]
    assert not said, "\n".join(said)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_device_s_keys_are_called_as_its_settings_call_them(lang):
    """Settings names the device's keys «Кнопки» (its Buttons row, About's «Кнопки: вверх и вниз…», the
    notices «Эта кнопка не работает»), but the Key test under it said «Проверка клавиш», «Нажмите
    любую клавишу», and a --script file's key names were «названия кнопок» in --help and «названия
    клавиш», «— не клавиша» in its prompts and refusals (uk the same with «клавіш»): one key, two
    words on one path. (The hardware report's «Клавиши»/«Клавіші» row, the pins, stays apart from its
    «Кнопки» row, their state.)"""
    said = _domain_translations(lang)["legatus"]
    button = said["Buttons"][:4].lower()                        # «кноп»
    for msgid in ("Key test", "Press any key.", "type the key names, one a line, then Ctrl-D",
                  "--script -: there is no standard input to read the keys from",
                  "--script {}, line {}: '{}' is not a key; one per line: {}, or wait SECONDS",
                  "the simulator needs a terminal for its keys; use --script FILE to drive it from a file of key "
                  "names ('--script -' reads them from this input), or 'legatus console' for the line protocol."):
        assert button in said[msgid].lower() and not re.search("клавиш|клавіш", said[msgid], re.IGNORECASE), said[msgid]


def test_a_ukrainian_ordinal_after_a_number_filled_in_is_right_for_every_number():
    """A Ukrainian ordinal written with digits takes the ending of its own numeral: 1-ша, 2-га, 3-тя,
    4-та (перша, друга, третя, четверта), so a fixed ending after a number filled in is right only
    if every numeral shares it (-го: 1-го, 3-го; -му: 1-му, 3-му). Glory's random pick said «Випадкова
    карта: 3-а з 5» (and «1-а», «2-а»), an ending no Ukrainian numeral has."""
    wrong = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / "uk" / "LC_MESSAGES").glob("*.po"))
             for e in catalogs.read_po(po)[1].values() for s in e.msgstr
             for ending in re.findall(r"\{\w*\}-([а-яіїєґ']+)", s) if ending not in ("го", "му")]
    assert not wrong, "\n".join(wrong)
    glory = _domain_translations("uk")["glory"]
    assert "3 з 5" in glory["Random pick: card {} of {}, counting from the left."].format(3, 5)


@pytest.mark.parametrize("lang, strength", [("ru", "шаг"), ("uk", "крок")], ids=["ru", "uk"])
def test_julius_caesar_s_step_of_strength_is_not_its_turn_order(console, lang, strength):  # J-1
    """In Julius Caesar a block's «шаг» / «крок» is a step of its strength (lose a step, gain a step);
    the refusal of a block fired out of its turn said «ходит шаг защищающегося B» (uk «ходить крок
    захисника B»), the rating letter's turn given the strength's word. It names the turn («очередь»,
    «черга») and no step."""
    console.request(f"settings language={lang}")
    for line in ("new jc-battle attacker=caesar seed=4", "add attacker c_leg10", "add defender p_pompeius",
                 "add defender p_leg1", "start"):
        assert console.request(line)["ok"], line
    refused = console.request("fire p_leg1")
    assert not refused["ok"] and " B " in refused["message"], refused
    assert strength not in refused["message"] and re.search("очередь|черга", refused["message"]), refused["message"]


def test_the_ukrainian_map_is_never_a_card():
    """A game's map is «мапа» in Ukrainian (the Caesar! rulebook's «жетон знаходиться на мапі», the Map
    screen «Мапа», Sword's «числа на мапі», JC's «не місто мапи»); five of Julius Caesar's levy-pool
    refusals said «поза картою», «блок на карті», «виставить його на карту», a «карта» beside the
    cards the same game deals."""
    slips = [f"{po.stem}: {english!r}: {s!r}" for po in sorted((catalogs.LOCALE / "uk" / "LC_MESSAGES").glob("*.po"))
             for english, e in catalogs.read_po(po)[1].items()
             if re.search(r"\bmap\b", english) and "card" not in english
             for s in e.msgstr if re.search(r"\bкарт", s)]
    assert not slips, "\n".join(slips)


# Julius Caesar's Ukrainian side words: the attacker's and the defender's, noun and verb (no uk
# rulebook: the pair the Sword of Rome's Ukrainian screens say too, «нападник»/«захисник»)
JC_UK_SIDES = {"нападник": "захисник", "Нападник": "Захисник", "нападає": "обороняється", "атака": "оборона"}


def test_julius_caesar_s_defender_is_said_as_its_attacker_is():
    """Each Julius Caesar sentence about the defender says in Ukrainian what its attacker's twin says,
    the side's word swapped: four said «сторона, що обороняється» («Стороні, що обороняється (Помпей),
    потрібен…», «{} стає тим, хто обороняється, до кінця бою», «ходить крок сторони, що обороняється,
    Помпей») beside «Нападнику (Цезар) потрібен…», «крок нападника» and the same catalog's «У
    захисника (Помпей) немає блоків»: one side, two names, one of them a clause in the middle of a
    sentence."""
    _, entries = catalogs.read_po(catalogs.LOCALE / "uk" / "LC_MESSAGES" / "jc.po")
    pattern = re.compile("|".join(JC_UK_SIDES))
    pairs = [(english, entries[twin].msgstr[0], pattern.sub(lambda m: JC_UK_SIDES[m.group(0)], e.msgstr[0]))
             for english, e in entries.items() if "ttacker" in english and "efender" not in english
             for twin in [english.replace("attacker", "defender").replace("Attacker", "Defender")] if twin in entries]
    assert len(pairs) >= 10
    slips = [f"{english!r}: {said!r}, not {swapped!r}" for english, said, swapped in pairs if said != swapped]
    assert not slips, "\n".join(slips)
    assert "{} стає захисником до кінця бою." == entries["{} becomes the defender for the rest of the battle."].msgstr[0]


JC_DEFENDER_HOLDS = ("the defender holds", "The defender holds.", "Battle {}: {} attacked; the defender held.",
                     "Caesar holds", "Pompey holds")
"""The one outcome said on the battle's end, in the advice, in History's result and on the odds screen."""


@pytest.mark.parametrize("lang, verb", [("ru", "усто"), ("uk", "всто")])
def test_julius_caesar_s_defender_holding_is_one_verb_on_every_screen(lang, verb):  # J-6, J-15
    """«If attackers remain after round 4, the defender holds» (J-6) was «Защищающийся удержался.» at
    the battle's end and «защищающийся устоял» in History's result, «Оборона втрималась.» beside «оборона
    вистояла»; the odds screen (J-15) says «Цезарь устоит», «Цезар встоїть» (the verb that fits its
    14 columns): one outcome, one verb."""
    _, entries = catalogs.read_po(catalogs.LOCALE / lang / "LC_MESSAGES" / "jc.po")
    said = {english: entries[english].msgstr[0] for english in JC_DEFENDER_HOLDS}
    verbs = {english: re.sub(r"\W", "", text.split()[-1])[:4] for english, text in said.items()}
    assert set(verbs.values()) == {verb}, said


def _uk_msgstrs() -> list[str]:
    return [s for po in sorted((catalogs.LOCALE / "uk" / "LC_MESSAGES").glob("*.po"))
            for e in catalogs.read_po(po)[1].values() for s in e.msgstr]


def test_the_ukrainian_block_piece_takes_the_genitive_in_a():
    """A block is a game piece (a thing): its genitive is «блока» («хід блока», «id-блока»); «блоку» is its
    dative («віддає хіт блоку», «Блоку без id потрібен…»). The advice said «хід блоку»."""
    genitive = re.compile(r"(?:\bх[іо]д\w*\s+|id-)блоку\b")          # the turn of a block, a block's id
    slips = [s for s in _uk_msgstrs() if genitive.search(s)]
    assert not slips, slips
    _, entries = catalogs.read_po(catalogs.LOCALE / "uk" / "LC_MESSAGES" / "jc.po")
    assert "на хід блока чи хіт" in entries["The battle has not started: advise helps at a turn or a hit (start first)."].msgstr[0]


def test_ukrainian_says_the_rest_of_your_pieces_in_its_own_order():
    """«з решти ваших центуріонів» («решти» the head word, the possessive with what it owns): the Caesar!
    refusal said «не з ваших решти центуріонів»."""
    slips = [s for s in _uk_msgstrs() if re.search(r"\b(?:ваш|наш|сво|їхн)\w*\s+решт", s)]
    assert not slips, slips


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_caesar_s_two_player_game_has_one_name(lang):
    """History listed a Caesar! two-player game as «Цезарь! дуэль» (uk «Цезар! дуель») while its own
    session is «Цезарь! вдвоём» («Цезар! удвох»), its set-up offers «Игроки <вдвоём>» and the console
    says «для игры вдвоём»: one game, two names on two screens."""
    said = _domain_translations(lang)
    assert said["caesar"]["Caesar! duel"] == said["caesar"]["Caesar! two players"]      # (the title: engine/caesar/console.py)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_domains_chain_says_the_same_whichever_chains_were_made_before_it(lang):
    """The catalogs are read once and each (domain first, game) chain links its own copies: a
    text is said in the same words whether its chain was the first made or the last (a chain
    made later never relinks an earlier one's)."""
    domains = [*i18n.SHARED_DOMAINS, *i18n.game_domains()]
    texts = sorted({m for d in domains for m in i18n._mo_files(lang)[d]._catalog if isinstance(m, str) and m})
    pairs = [(first, game) for first in domains for game in domains]

    def said() -> dict[tuple[str, str], list[str]]:
        return {(first, game): [i18n._chain(lang, first, game).gettext(m) for m in texts] for first, game in pairs}
    try:
        i18n._chain.cache_clear()
        ahead = said()
        i18n._chain.cache_clear()
        for first, game in reversed(pairs):
            i18n._chain(lang, first, game)
        assert said() == ahead
        assert ahead[("history", "legatus")] != ahead[("legatus", "legatus")]     # the domains' own senses
    finally:
        i18n._chain.cache_clear()


# a verb right before «, у кого/кто» (ru) or «, у кого/хто» (uk) with nobody to be its subject; a
# direction of the joystick (an adverb) made the subject of a verb in the plural
SUBJECTLESS = {"ru": (r"\b(?:играет|ходит|бросает|получает|тянет), (?:у кого|кто)\b",
                      r"\b(?:влево|вправо) и (?:влево|вправо) [а-яё]+(?:ют|ят)\b"),
               "uk": (r"\b(?:грає|ходить|кидає|отримує|тягне), (?:у кого|хто)\b",
                      r"\b(?:вліво|вправо) (?:і|й|та) (?:вліво|вправо) [а-яіїєґ']+(?:ють|ять)\b")}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_clause_of_a_translation_has_its_subject(lang):  # W-12
    """Sword's round-5 question offered «Ход прерван: играет, у кого меньше ПО» (uk «Хід перервано:
    грає, у кого менше ПО»): «играет» had no «тот» for «у кого» to tell, a clause a reader stumbles
    on; the new-game forms' help said «влево и вправо меняют его» (uk «вліво і вправо змінюють»),
    directions made the subject. A reader expects «играет тот, у кого…» (or «играет отстающий по ПО»),
    and «влево и вправо — смена значения», as the Keys sentence above it says «вверх и вниз —
    перемещение»."""
    slips = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
             for e in catalogs.read_po(po)[1].values() for s in e.msgstr
             if any(re.search(p, s, re.IGNORECASE) for p in SUBJECTLESS[lang])]
    assert not slips, "\n".join(slips)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_russian_or_ukrainian_sentence_quotes_with_guillemets(lang):
    """The catalogs quote a word to type, a command or a name with «» («end» вносит её в Историю,
    отправьте «commit»); today's command-line refusals said «нельзя вместе с 'doctor'», «('legatus
    doctor --config FILE' проверяет файл)», «('-' — стандартный ввод)» with the English straight
    quotes, as did a few console usages ('keep', 'ship:5/1'). Ukrainian apostrophes inside a word
    (ім'я) are no quotes, nor the shell's around what ``echo`` gives (echo '{}' | legatus console)."""
    straight = [f"{po.stem}: {s!r}" for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
                for e in catalogs.read_po(po)[1].values() for s in e.msgstr
                if re.search(r"(?:^|[\s(])(?<!echo )'[^'\s][^']*'(?![\w'])", s)]     # (JSON keys keep theirs "";
    # a shell line to type, echo '…' | legatus console, its quotes)
    assert not straight, "\n".join(straight)


# a sentence also written in the device's Log, where no command is typed: its translation leaves the
# command out (the log of a Russian device reads «Раунд 9 окончен: игра окончена, итоговый подсчёт очков.»)
LOGGED = {"Round {} ends: the game is over, final scoring ('score <json>')."}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_console_command_the_english_names_is_named_in_the_translation(lang):  # G-1
    """Glory's refusals of a random pick or a vote's removal before the round's event (added today)
    said «reveal it with 'event' first» in English and only «сначала откройте событие» / «спершу
    відкрийте подію» in Russian and Ukrainian: a player at the console learnt what to do but not the
    command that does it; so did Glory's tax and end-of-game refusals and Sword's («'standings' gives
    the result, 'undo' reopens the last step» was «итог — в таблице ПО, отмена вернёт…»). The
    command a console sentence names (its first word, typed as it is) is named in the translation."""
    missing = [f"{po.stem}: {w!r} not in {s!r}"
               for po in sorted((catalogs.LOCALE / lang / "LC_MESSAGES").glob("*.po"))
               for english, e in catalogs.read_po(po)[1].items() if english not in LOGGED
               for w in re.findall(r"(?:^|[\s(])'([a-z][a-z0-9_-]*)[^']*'", english) for s in e.msgstr
               if not re.search(rf"«{re.escape(w)}\b", s)]
    assert not missing, "\n".join(missing)
