"""Languages (issue 8): complete catalogs, glyphs for every text, Msg as data, the language setting."""
from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

import pytest

from engine.text import Msg, from_data, term, to_data
from firmware import i18n
from firmware.screens import base

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


def test_the_first_start_asks_the_language_once(state_dir):
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


def _said_in(module: str, code: str) -> object:
    """Evaluate ``code`` as if written in ``module`` (the domain follows the calling module)."""
    return eval(code, {"__name__": module, "_": i18n._, "Msg": Msg, "term": term})


def _domain_translations(lang: str) -> dict[str, dict[str, str]]:
    import gettext
    out: dict[str, dict[str, str]] = {}
    for mo in sorted((i18n.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo")):
        with open(mo, "rb") as f:
            cat = gettext.GNUTranslations(f)
        out[mo.stem] = {k: v for k, v in cat._catalog.items() if isinstance(k, str) and k}
    return out


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_word_two_games_say_differently_is_said_in_the_words_of_the_game_that_shows_it(lang):
    """The RU/UA rulebooks of Julius Caesar and The Sword of Rome use different words for the same
    English one ("Battle": «Бой» / «Битва»); each game's screens and engine keep their own."""
    domains = _domain_translations(lang)
    module = {"caesar": "firmware.screens.caesar.words", "jc": "engine.jc.battle", "glory": "firmware.screens.glory",
              "sword": "engine.sword.battle", "history": "firmware.history", "legatus": "firmware.screens.menu"}
    i18n.set_language(lang)
    try:
        checked = 0
        for domain, texts in domains.items():
            for msgid, msgstr in texts.items():
                if not any(other.get(msgid, msgstr) != msgstr for d, other in domains.items() if d != domain):
                    continue                                       # only the words said differently
                assert _said_in(module[domain], f"_({msgid!r})") == msgstr, (domain, msgid)
                made = _said_in(module[domain], f"Msg({msgid!r})")
                assert i18n.say(made) == msgstr, (domain, msgid)
                if module[domain].startswith("engine."):           # stored and read back: the same words
                    assert i18n.say(from_data(json.loads(json.dumps(to_data(made))))) == msgstr
                checked += 1
        assert checked >= 6
    finally:
        i18n.set_language("en")


def test_a_shared_screen_says_a_game_word_in_the_words_of_the_session_being_played(console):
    """A form field label drawn by the shared form code: "Attacker" in a Sword session is the
    Sword rulebook's word, in a Julius Caesar session the Julius Caesar one."""
    domains = _domain_translations("ru")
    assert domains["jc"]["Attacker"] != domains["sword"]["Attacker"]
    assert console.request("settings language=ru")["ok"]
    try:
        assert console.request("new sword players=romans,gauls")["ok"]
        assert _said_in("firmware.screens.widgets.figure", "_('Attacker')") == domains["sword"]["Attacker"]
        assert console.request("new jc-battle")["ok"]
        assert _said_in("firmware.screens.widgets.figure", "_('Attacker')") == domains["jc"]["Attacker"]
    finally:
        i18n.set_language("en")
        i18n.set_game(None)


def test_the_catalog_domain_of_a_module_is_the_one_its_texts_are_extracted_to():
    assert [i18n.domain_of_module(m) for m in ("engine.jc.battle", "engine.jc", "firmware.screens.sword",
                                               "firmware.screens.caesar_map", "firmware.export",
                                               "firmware.screens.widgets.figure", "engine.text", "")] == \
        ["jc", "jc", "sword", "caesar", "history", "legatus", "legatus", "legatus"]
    assert catalogs.domain_of(ROOT / "firmware" / "screens" / "history.py") == "history"
    assert catalogs.domain_of(ROOT / "engine" / "glory" / "sheet.py") == "glory"
