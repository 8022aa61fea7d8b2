"""scripts/i18n.py check sees a text said through a name (scripts/i18n_reach.py): a constant, a
table, a record's field — marked ``N_`` where it is written, or reported (it would be English in
every language, and absent from every catalog)."""
from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from scripts import i18n as catalogs  # noqa: E402
from scripts.i18n_reach import unmarked  # noqa: E402


def _tree(root: Path, files: dict[str, str]) -> list[Path]:
    out = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        out.append(path)
    return out


def _said(root: Path, files: dict[str, str]) -> list[str]:
    """The texts reported (each line ends with the text's repr; a built one's is its source)."""
    return sorted({ast.literal_eval(line.split("): ", 1)[1]) for line in unmarked(root, _tree(root, files))})


@pytest.fixture
def planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A source tree of one module and its catalogs, that scripts/i18n.py works on instead of ours."""
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path / "firmware" / "locale")
    monkeypatch.setattr(catalogs, "SOURCES", ("engine",))
    return tmp_path


def test_the_check_reports_a_sentence_kept_in_an_unmarked_constant_until_it_is_marked_and_translated(planted):
    # a sentence in a constant, said by Msg(CONST): the extractor never saw it, so no catalog had
    # it, every language said it in English and the check said "0 problems"
    source = planted / "engine" / "bag.py"
    _tree(planted, {"engine/bag.py": '''
        from engine.text import Msg, N_
        EMPTY = "The bag is empty."
        def drawn(bag):
            return Msg(EMPTY) if not bag else Msg("Drew {}.", bag[0])
        '''})
    catalogs.update([])
    found = catalogs.problems()
    assert [p for p in found if "not marked N_()" in p and "'The bag is empty.'" in p], found
    assert "engine/bag.py:5" in found[0] and "engine/bag.py:3" in found[0], found     # said where, written where

    source.write_text(source.read_text().replace('EMPTY = "The bag is empty."', 'EMPTY = N_("The bag is empty.")'))
    catalogs.update([])
    found = catalogs.problems()
    assert sorted(p.split(": ")[1] for p in found if "'The bag is empty.'" in p) == ["untranslated"] * 2, found

    for lang, said in (("ru", "Мешок пуст."), ("uk", "Мішок порожній.")):
        po = catalogs.LOCALE / lang / "LC_MESSAGES" / "legatus.po"
        po.write_text(po.read_text().replace('msgid "The bag is empty."\nmsgstr ""',
                                             f'msgid "The bag is empty."\nmsgstr "{said}"'))
    catalogs.compile_all([])
    assert [p for p in catalogs.problems() if "bag is empty" in p] == []


def test_a_text_is_followed_through_tables_imports_locals_and_conditionals(tmp_path):
    said = _said(tmp_path, {"pkg/__init__.py": "", "pkg/words.py": '''
        from engine.text import N_
        FAR = "far away"
        SIDES = {"caesar": N_("Caesar's turn"), "pompey": "Pompey's turn"}
        ''', "pkg/use.py": '''
        from engine.text import Msg, N_
        from pkg import words as W
        from pkg.words import SIDES
        PAIR = (N_("marked"), "unmarked second")
        ROWS = (("id-one", N_("One")), ("id-two", "Two"))
        def f(side, word, flag):
            said = "local one" if flag else N_("local two")
            Msg(said)
            Msg(PAIR[1])
            Msg(PAIR[0])
            Msg(W.FAR)
            Msg(SIDES[side])
            Msg(SIDES.get(side, "fallback"))
            Msg(word)                               # a parameter: the wrapper's, not followed
            for key, label in ROWS:
                Msg(label)
            Msg(f"built {side}")
        '''})
    assert said == ["Pompey's turn", "Two", "f'built {side}'", "fallback", "far away", "local one", "unmarked second"]


def test_a_record_s_field_said_later_is_followed_to_where_the_record_is_made(tmp_path):
    # firmware/session.py said Msg(game.title) ("New game: {}."), the titles written as plain
    # strings in engine/<game>: a copy of them, N_-marked, kept them in the catalogs
    said = _said(tmp_path, {"pkg/__init__.py": "", "pkg/game.py": '''
        from typing import NamedTuple
        from engine.text import Msg, N_
        class Rules(NamedTuple):
            name: str
            title: str
        class Screen:
            title = N_("Marked title")
            def show(self):
                return Msg(self.title)
        class Settings(Screen):
            title = "Settings"
        GAME = Rules("dice", title="Dice")
        BAG = Rules("bag", "Bags")
        MARKED = Rules("x", N_("Marked game"))
        def games() -> tuple[Rules, ...]:
            return (GAME, BAG, MARKED)
        def opened(game: Rules):
            return Msg("New game: {}.", Msg(game.title)), [Msg(g.title) for g in games()]
        '''})
    assert said == ["Bags", "Dice", "Settings"]


def test_the_games_titles_are_marked_where_the_games_define_them():
    # the check over our own code: nothing said through a name is unmarked (the session's log
    # opens «New game: Юлий Цезарь: бой.» from the title engine/jc/console.py gives)
    assert unmarked(catalogs.ROOT, catalogs.source_files()) == []
    from engine.registry import game
    from firmware import i18n
    try:
        for lang, name, said in (("ru", "jc-battle", "Юлий Цезарь: бой"), ("uk", "sword", "Меч Риму"),
                                 ("ru", "caesar-duel", "Цезарь! вдвоём"), ("uk", "glory", "На славу Риму")):
            i18n.set_language(lang)
            from engine.text import Msg
            assert i18n.say(Msg("New game: {}.", Msg(game(name).title))).endswith(said + "."), (lang, name)
    finally:
        i18n.set_language("en")
