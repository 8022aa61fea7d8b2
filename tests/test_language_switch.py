"""The language changed over the serial link (``settings language=…``) while screens are open: every
screen on the panel says its texts in the new language at once — titles, menus, questions, texts
said when a screen was made, the notice up, the Settings → Language list itself — as a program
started in that language would (issue 24's languages; docs/protocol.md ``settings``).

Two checks: walks of random keys through every game, History and the tools, the language switched
en → ru → uk → en over the serial link every few keys, where no frame may show a word of another
language (a word that only the other languages' catalogs hold); and, key for key beside it, the same
keys pressed on programs started in each language: whenever a program and the walk stand on the same
screens over the same game, they must draw the very same texts."""
from __future__ import annotations

import random
import re
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from firmware import i18n
from tests.screens import SECRET, app_with, drawn
from tests.test_no_clipped_text import DEEP, KEYS, SETUPS, START

NEXT = {"en": "ru", "ru": "uk", "uk": "en"}
WORD = re.compile(r"[^\W\d_]{3,}")
NOT_WORDS = {"adafruit", "waveshare", "english", "legatus", "auto", "bgstats"}     # names, in every language


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, frozenset[str]]:
    """The words each language's catalogs use (English: the msgids), lower case."""
    from scripts import i18n as catalogs
    words: dict[str, set[str]] = {"en": set(), "ru": set(), "uk": set()}
    for po in catalogs.LOCALE.glob("*/LC_MESSAGES/*.po"):
        for e in catalogs.read_po(po)[1].values():
            words["en"] |= {w.lower() for w in WORD.findall(e.msgid)}
            for s in e.msgstr:
                words[po.parts[-3]] |= {w.lower() for w in WORD.findall(s)}
    return {lang: frozenset(ws) for lang, ws in words.items()}


def foreign_words(texts: list[str], lang: str, allowed: set[str]) -> list[str]:
    """The words of ``texts`` that only another language's catalogs hold (a name the players typed,
    a bag's item, anything the game's state holds is ``allowed``)."""
    v = vocabulary()
    out = []
    for text in texts:
        for word in WORD.findall(text):
            w = word.lower()
            if w in v[lang] or w in allowed or w in NOT_WORDS or re.fullmatch("[0-9a-f]+", w):
                continue
            if lang == "en" and not re.search("[а-яёіїєґ]", w):
                continue                              # an English word not in the catalogs: a name
            if any(w in v[other] for other in v if other != lang):
                out.append(f"{word!r} in {text!r}")
    return out


def switch(app: Any, lang: str) -> None:
    """``settings language=<lang>`` from the serial link, as the device loop serves it."""
    reply = app.serve_line(f"settings language={lang}\n".encode())
    assert '"ok":true' in reply and app.settings["language"] == lang


def texts(app: Any, lang: str) -> list[str]:
    i18n.set_language(lang)              # (one process holds several programs here)
    return [t for _x, _y, t, _k in drawn(app)]


def where(app: Any, lang: str) -> tuple[Any, ...] | None:
    """What the screens of ``app`` draw from: its screens, the game, the log, History and the
    players it knows, and what the program remembers between screens (Caesar!'s province of your
    last move, where your move's cursor starts) (None: the top screen is scrolled; a scroll kept
    from a text in another language stands elsewhere in this one). A page that takes one more press
    in one language than in another sends the same keys elsewhere (Caesar!'s closure page: one
    press in English, two in Ukrainian): two programs may come back to the same screens over the
    same game having chosen other provinces on the way, or stand on another row or province of the
    same screen (its ``cursor``: the box's bag pages differ in length from language to language; a
    dial's or pad's ``step``: Glory's refusal of a fame penalty, read on with A, takes one press more in
    English than in Russian, so the next press changes the penalty dial's step in one program only; a
    form's figures, ``values()``: Glory's event card takes three presses in English, two in Russian, so
    the next A opened the tax form in one program and the next right turned its population in the
    other — both on the tax form's population row over the same game, «<1>» against «<2>»). That a
    change of language itself keeps every open screen's figures is checked where it is made
    (:func:`figures`)."""
    from firmware.screens.caesar.words import MEMORY
    top = app.stack[-1]
    scroll = getattr(top, "scroll", None)
    if getattr(top, "top", 0) or (scroll is not None and scroll.top):
        return None
    i18n.set_language(lang)
    session = app.console.session
    asked = [app.console.request(line) for line in ("log 200", "history 100", "players")]
    return (tuple(type(s).__name__ for s in app.stack), sorted(MEMORY.get(app, {}).items()), getattr(top, "cursor", None),
            getattr(top, "step", None), figures_of(top), app.message is not None,
            app.commitment is not None, None if session is None else (session.state_json, len(session.lines)), asked)


def figures_of(screen: Any) -> Any:
    """A form's or dial's figures as set by the keys (None: the screen has none)."""
    values = getattr(screen, "values", None)
    return values() if callable(values) else getattr(screen, "value", None)


def figures(app: Any) -> list[tuple[str, Any, Any, Any]]:
    """Each open screen's kind, figures, cursor and step: what a change of language must leave as it
    stands (a form made again with its first figures, a key taken by a notice said again would
    change them, and :func:`where` tells such a program from a fresh one instead of comparing)."""
    return [(type(s).__name__, figures_of(s), getattr(s, "cursor", None), getattr(s, "step", None)) for s in app.stack]


def prepared(setup: str, root: Path) -> Path:
    """A state folder after ``setup`` (console lines), made once and copied for each program."""
    folder = root / "setup"
    app = app_with([], [], folder)

    def run(line: str) -> dict:
        response = app.run(line)
        assert response["ok"], (line, response)
        return response
    how = SETUPS[setup]
    if callable(how):
        how(run)
    else:
        for line in how:
            run(line)
    app.console.close()
    return folder


def program(folder: Path, root: Path, name: str, lang: str, setup: str) -> Any:
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    copy = root / name
    shutil.copytree(folder, copy)
    store = Store(copy)
    console = Console(store, store.resume())
    assert console.request(f"settings language={lang}")["ok"]
    console._pending = SECRET
    app = App(console)
    if setup in START:
        START[setup](app)
    return app


def unmade(screen: Any) -> bool:
    """Whether ``screen`` said its texts when it was made and cannot be made again: a language
    change takes it off (firmware/relanguage.py) instead of showing it in the new language."""
    from firmware.relanguage import SAID_WHEN_MADE
    return isinstance(screen, SAID_WHEN_MADE) and not callable(getattr(screen, "remake", None))


STEPS = 160
EVERY = 16                                   # keys between two language changes


# Caesar! with the box's bag and tiles: its pages (the token grid's, his new stack's) take other
# numbers of presses in other languages, so the walker and a fresh program come back to the map and
# its province pages standing on other provinces with the same game (nothing here tells them apart):
# walked for cut text, faults and keeping step in tests/test_no_clipped_text.py and test_in_step.py.
WALKED = [s for s in SETUPS if s != "caesar-box"]


@pytest.mark.slow
@pytest.mark.parametrize("setup", WALKED)
def test_every_screen_follows_the_language_set_over_the_serial_link(setup: str, tmp_path: Path, caplog: Any) -> None:
    caplog.set_level("INFO", logger="firmware.app")
    folder = prepared(setup, tmp_path)
    walker = program(folder, tmp_path, "walker", "en", setup)
    fresh = {lang: program(folder, tmp_path, lang, lang, setup) for lang in ("en", "ru", "uk")}
    in_step = dict.fromkeys(fresh, True)        # a fresh program keeps step with the walk until its game differs
    old: list[str] = []
    same: list[str] = []
    closed: set[str] = set()                    # screens that a language change would take off
    compared: set[str] = set()
    kept: list[str] = []                        # a screen's figures a change of language changed
    try:
        for seed, keys in ((1, KEYS), (2, DEEP)):
            rng = random.Random(f"{setup}-{seed}")
            for step in range(STEPS):
                if step % EVERY == EVERY // 2:
                    before = figures(walker)
                    switch(walker, NEXT[walker.settings["language"]])
                    after = figures(walker)
                    if [kind for kind, *_rest in before] == [kind for kind, *_rest in after]:
                        kept += [f"{b} -> {a}" for b, a in zip(before, after) if b != a]
                lang = walker.settings["language"]
                shown = texts(walker, lang)
                session = walker.console.session
                allowed = {w.lower() for w in WORD.findall(session.state_json)} if session is not None else set()
                old += [f"{type(walker.stack[-1]).__name__} ({lang}): {w}" for w in foreign_words(shown, lang, allowed)]
                if in_step[lang] and (here := where(walker, lang)) is not None and here == where(fresh[lang], lang):
                    compared.add(type(walker.stack[-1]).__name__)
                    if shown != texts(fresh[lang], lang):
                        same.append(f"{type(walker.stack[-1]).__name__} ({lang}): {shown} != {texts(fresh[lang], lang)}")
                key = rng.choice(keys)
                for other, app in [("walker", walker), *fresh.items()]:
                    i18n.set_language(lang if other == "walker" else other)
                    app.render()
                    app.handle(key)
                closed |= {f"{type(s).__name__}: {s.title}: {s.rows[:1]}" for s in walker.stack if unmade(s)}
                typing = any(type(s).__name__ == "TypeScreen" for s in walker.stack)   # its letters: the language's
                for other, app in fresh.items():
                    session, mine = app.console.session, walker.console.session
                    if (session is None) != (mine is None) or (session is not None and session.state_json != mine.state_json) \
                            or app.settings["language"] != other or typing:
                        in_step[other] = False      # its language chose otherwise (a bag's preset items), or its keys another language
        assert walker.errors == 0
    finally:
        for app in (walker, *fresh.values()):
            app.console.close()
    closed |= {r.getMessage() for r in caplog.records if "in the language left is closed" in r.getMessage()
               or "could not be made again" in r.getMessage()}
    assert not closed, "screens and notices a language change takes off, not said again:\n" + "\n".join(sorted(closed))
    assert not old, "texts left in another language:\n" + "\n".join(sorted(set(old)))
    assert not kept, "figures a change of language changed:\n" + "\n".join(kept)
    assert not same, "a screen drew otherwise than in a program started in its language:\n" + "\n".join(same[:10])
    assert len(compared) >= 2, compared


# -- the defects one by one (fast) -----------------------------------------------------------------
def test_the_language_list_moves_to_the_language_set_over_the_serial_link(state_dir: Path) -> None:
    """Settings → Language open in English, ``settings language=uk`` from the serial link: the ✓ and
    the cursor stand on Українська (the cursor stayed on English, and A put English back)."""
    from firmware.screens.language import LanguageScreen
    app = app_with([], ["down"] * 3 + ["a", "a"], state_dir)            # Settings → Language
    try:
        screen = app.stack[-1]
        assert isinstance(screen, LanguageScreen) and texts(app, "en")[0] == "Language"
        switch(app, "uk")
        shown = texts(app, "uk")
        assert shown[0] == "Мова" and shown[shown.index("Українська") + 1] == "✓"
        assert screen.items(app)[screen.cursor].label == "Українська"
        app.handle("a")
        assert app.settings["language"] == "uk" and i18n.language() == "uk"
    finally:
        app.console.close()


def test_a_text_a_question_and_a_notice_open_are_said_again_in_the_new_language(state_dir: Path) -> None:
    """About (scrolled), the undo question (hold B) and a notice were said once, when made: after
    ``settings language=ru`` from the serial link they stayed English until the player left them.
    Now each is said in Russian where it stood, as a program started in Russian draws it."""
    keys = ["down"] * 6 + ["a", "down"]                                # (▶ Dice,) …, About; a row down
    app = app_with(["new dice seed=3", "roll 2d6"], keys, state_dir)
    try:
        switch(app, "ru")
        assert app.stack[-1].top == 1
        fresh = app_with(["new dice seed=3", "roll 2d6"], keys, state_dir / "ru", lang="ru")
        assert texts(app, "ru") == texts(fresh, "ru") and texts(app, "ru")[0] == "О программе"
        fresh.console.close()
        app.handle("b")
        app.handle("b:hold")                                           # the undo question
        switch(app, "uk")
        shown = " ".join(texts(app, "uk"))
        assert "Скасувати?" in shown and "Кидок 2d6" in shown and "Undo" not in shown, shown
        app.handle("b")
        app.run("undo")
        app.run("undo")
        app.handle("b:hold")                                           # nothing left: a notice
        assert app.message is not None
        switch(app, "en")
        app.render()                                                   # (the device draws after each line)
        assert app.message == ["Nothing to undo."]
    finally:
        app.console.close()


def test_a_notice_said_from_no_sentence_is_closed_when_the_language_changes(state_dir: Path) -> None:
    """A notice made of plain text (no sentence to say again) would stay in the old language: it is
    closed, as the next key would close it; one with a sentence behind it is said again."""
    app = app_with([], [], state_dir)
    try:
        app.notify("Перемешано.")
        switch(app, "uk")
        app.render()
        assert app.message is None
        app.notify(app.run("roll 2d6 3d6")["message"])                  # a reply's message: a sentence
        said = list(app.message or [])
        switch(app, "ru")
        app.render()
        assert app.message and app.message != said and not foreign_words(app.message, "ru", set())
    finally:
        app.console.close()


def test_a_screen_made_again_is_made_again_at_every_change_of_language(state_dir: Path) -> None:
    """About made again in Russian was made without its ``remake``: the next change (ru → uk) took
    it off and showed the main menu. It stays, in each language in turn, where the reader was."""
    app = app_with(["new dice seed=3"], ["down"] * 6 + ["a", "down"], state_dir)   # (▶ Dice,) …, About
    try:
        for lang, title in (("ru", "О программе"), ("uk", "Про програму"), ("en", "About")):
            switch(app, lang)
            shown = texts(app, lang)
            assert shown[0] == title and type(app.stack[-1]).__name__ == "TextScreen", shown
    finally:
        app.console.close()


def test_a_text_made_again_opens_at_the_paragraph_the_reader_was_at(state_dir: Path) -> None:
    """About scrolled to its paragraph on the dice (row 12 in English), then ``settings language=ru``:
    the Russian text opened at row 12 as well — two rows above, in the middle of the paragraph on
    the keys (Russian wraps longer). It opens where that paragraph begins in each language; a row
    inside a paragraph keeps the reader inside it."""
    from firmware.screens.menu import about_screen
    from firmware.screens.widgets.scroll import wrapped
    first = {}
    dice = set()
    for lang in ("en", "ru", "uk"):
        i18n.set_language(lang)
        about = about_screen()                   # (wrapped beside the scroll mark: its width)
        paras = about.paras
        first[lang] = [len(wrapped(paras[:i], about.width)) for i in range(len(paras) + 1)]   # each paragraph's first row
        dice |= {i for i, p in enumerate(paras) if p.startswith(("Dice:", "Кубики:"))}
    assert len(dice) == 1, dice                  # the same paragraph in every language
    d = dice.pop()
    i18n.set_language("en")
    app = app_with(["new dice seed=3"], ["down"] * 6 + ["a"] + ["down"] * first["en"][d], state_dir)
    try:
        assert app.stack[-1].top == first["en"][d] and texts(app, "en")[2].startswith("Dice:")
        for lang in ("ru", "uk", "en"):
            switch(app, lang)
            app.render()
            assert app.stack[-1].top == first[lang][d], (lang, app.stack[-1].top, first[lang])
        app.handle("down")                                      # inside the paragraph on the dice
        for lang in ("uk", "ru"):
            switch(app, lang)
            app.render()
            assert first[lang][d] <= app.stack[-1].top < first[lang][d + 1], (lang, app.stack[-1].top, first[lang])
            assert app.stack[-1].top > first[lang][d], lang           # its second row: not back at its start
    finally:
        app.console.close()


def test_every_notice_of_the_screens_is_a_sentence_said_again() -> None:
    """A notice made of text said once (``_("…").format(…)``, texts glued with ``+`` or ``join``)
    cannot be said in another language: a language change closed it (a long one, on its own
    screen, was taken off). Every ``notify`` of the screens is given a sentence (a Msg, a reply's
    message, a refusal) that the App says again."""
    import ast
    root = Path(__file__).resolve().parents[1] / "firmware"
    said_once = []
    for path in [*sorted((root / "screens").rglob("*.py")), root / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "notify":
                for part in ast.walk(node.args[0]) if node.args else ():
                    name = part.func.id if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) else \
                        part.func.attr if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) else ""
                    if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) and name == "join" \
                            and ast.unparse(part.func.value) == "Msg":
                        continue                                  # a list of terms, each said again
                    if name in ("_", "ngettext", "format", "join", "upper", "str") or isinstance(part, (ast.BinOp, ast.JoinedStr)):
                        said_once.append(f"{path.relative_to(root.parent)}:{node.lineno}: {ast.unparse(node)[:90]}")
                        break
    assert not said_once, "notices said once, closed by a language change:\n" + "\n".join(said_once)


def test_what_the_rules_did_after_a_fire_is_said_after_a_change_of_language() -> None:
    """A battle's events are said once, where they happen (J-2, J-8, J-9): the ones said before
    were compared as text, so after ``settings language=ru`` every earlier event read as new text
    and the next fire's event (a leader killed, reserves arriving) was never said. They are compared
    as sentences, and shown in the language of the moment."""
    from engine.jc.text import Msg as JcMsg
    from firmware.screens.jc import battle, roll
    first, then = (JcMsg("Two events cancel each other."),
                   JcMsg("Winter comes after the battle: finish it first (or Fight to the end)."))

    class Ctx:
        events: list[Any] = []

        def view(self) -> dict:
            return {"game": "jc-battle", "battle": {"number": 77, "phase": "fighting", "blocks": [{"key": "c_caesar"}],
                                                    "events": [i18n.say(e) for e in self.events]}}
    ctx = Ctx()
    ctx.events = [first]
    assert battle.news(ctx) == []                          # the first look: nothing said of the past
    i18n.set_language("ru")
    ctx.events = [first, then]
    fresh = battle.news(ctx)
    assert fresh == [i18n.say(then)] and fresh[0] != str(then), fresh
    result = roll.DiceResult({"applied": [], "lost": 0, "hits": 0}, events=fresh)   # type: ignore[typeddict-item]
    i18n.set_language("uk")
    assert i18n.say(then) in " ".join(result.rows()) and fresh[0] not in " ".join(result.rows())


def _opened(name: str) -> tuple[list[str], Any]:
    """A game set up by console lines, and how to open one of its screens said when made."""
    from firmware.screens.caesar import flow
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.objectives import open_objectives, pass_to
    from firmware.screens.glory.round import pick_form
    from firmware.screens.jc import battle, campaign
    from firmware.screens.sword.home import SwordHome
    from firmware.screens.sword.rolls import CheckMenu, naval_form
    from firmware.screens.sword.tracks import VictoryScreen
    jc = ["new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add defender p_pompeius"]
    CITIES = ("Roma", "Alexandria", "Athenae", "Byzantium", "Carthago_Nova", "Ephesus", "Antiochia", "Utica")
    sword = ["new sword players=romans,gauls,etruscans,greeks seed=2"]

    return {
        "pass the device": (["new caesar-duel seed=3"], lambda app: flow.private(app, flow.open_duel_hand)),
        "duel hand": (["new caesar-duel seed=3"], flow.open_duel_hand),
        "trophies": (jc, lambda app: campaign._trophies(app, "caesar")),
        "private": (jc + ["deal"], lambda app: campaign.CardsMenu._hand(app, "caesar")),
        "winter": (jc, campaign.ask_winter),
        "farming": (["new glory players=Анна,Богдан seed=2"], GloryHome._farming),
        "consuls": (sword, SwordHome._consuls),
        "2d6 roll": (sword, lambda app: CheckMenu()._roll(app, "siege")),
        "naval roll": (sword, lambda app: (app.push(naval_form(app)), app.handle("a"))),
        "card pick": (["new glory players=Анна,Богдан seed=2"], lambda app: (app.push(pick_form()), app.handle("a"))),
        "deal objectives": (["new glory players=Анна,Богдан seed=2"], open_objectives),
        "objectives pass": (["new glory players=Анна,Богдан seed=2", "deal"], lambda app: pass_to(app, "Богдан")),
        "fight to the end": (jc + ["start"], battle.ask_fight),                               # J-14
        "campaign over": (["new jc-battle seed=3", "deal"] + [f"control {c} caesar" for c in CITIES] + ["winter"],  # J-17
                          lambda app: (app.push(campaign.CardsMenu()), app.render(), app.handle("a"))),
        "end the turn": (sword + ["advance"] * 4, lambda app: SwordHome()._advance(app)),    # W-12
        "end the game": (sword + ["advance"] * 44, lambda app: SwordHome()._advance(app)),   # W-11
        "automatic victory": (sword, lambda app: VictoryScreen._ask(app, "gauls")),           # W-11
    }[name]


@pytest.mark.parametrize("name", ["pass the device", "duel hand", "trophies", "private", "winter", "farming",
                                  "consuls", "2d6 roll", "naval roll", "card pick",
                                  "deal objectives", "objectives pass", "fight to the end", "campaign over", "end the turn",
                                  "end the game", "automatic victory"])
def test_a_screen_of_the_game_said_when_made_is_made_again_in_the_new_language(name: str, state_dir: Path) -> None:
    """Screens that said their texts when they were made and had no ``remake`` (a duel's pass the
    device and hand, JC's trophies, Private and Winter questions, Glory's farming, the Sword's
    consuls and 2d6 roll; JC's Fight to the end? and Campaign over, the Sword's End the turn?, End the
    game? and Automatic victory?) were taken off by ``settings language=…`` from the serial
    link. Each stays, said in the new language, and shows the same roll or draw (never another)."""
    from firmware.relanguage import SAID_WHEN_MADE
    lines, open_ = _opened(name)
    app = app_with(lines, [], state_dir)
    try:
        open_(app)
        app.render()
        screen, actions = app.stack[-1], app.console.session.state_json
        assert isinstance(screen, SAID_WHEN_MADE), screen
        english = texts(app, "en")
        for lang in ("ru", "uk"):
            switch(app, lang)
            app.render()
            shown = texts(app, lang)
            assert type(app.stack[-1]) is type(screen) and app.stack[-1] is not screen, (lang, shown)
            assert shown != english and not foreign_words(shown, lang, {"анна", "богдан"}), shown
        assert app.console.session.state_json == actions           # nothing rolled or drawn again
        switch(app, "en")
        assert texts(app, "en") == english
    finally:
        app.console.close()


def test_the_bag_s_history_is_read_again_in_the_new_language(state_dir: Path) -> None:
    """Bags & decks → History kept the sentences it had read ("Drew silver, gold from the bag.")
    after ``settings language=ru``, under a Russian title. It is read again in the new language."""
    from firmware.screens.kit.bag import KitScreen
    app = app_with(["new bag items=gold*3,silver*2 seed=7", "draw 2"], [], state_dir)
    try:
        app.push(KitScreen(False))
        history = next(i for i, item in enumerate(app.stack[-1].items(app)) if item.label == "History")
        app.stack[-1].cursor = history
        app.handle("a")
        english = texts(app, "en")
        assert type(app.stack[-1]).__name__ == "KitHistory" and "Drew silver, gold" in english, english
        switch(app, "ru")
        shown = texts(app, "ru")
        assert type(app.stack[-1]).__name__ == "KitHistory" and not foreign_words(shown, "ru", set()), shown
        assert shown != english and shown[0] == "История"
    finally:
        app.console.close()


def test_the_bag_s_history_made_again_opens_at_the_entry_the_reader_was_at(state_dir: Path) -> None:
    """Bags & decks → History scrolled to its fourth entry (row 3: each "Drew a from the bag." is
    one row in English), then ``settings language=ru``: the history was read again and opened at
    row 3 — in the middle of the second entry (each «Из мешочка вытянуто: a.» takes two rows). It
    opens at the entry and sentence the reader was at, in each language."""
    from firmware.screens.kit.bag import KitScreen
    from firmware.screens.widgets.scroll import row_of
    app = app_with(["new bag items=a*30,b*20 seed=7"] + ["draw 1"] * 12, [], state_dir)
    try:
        app.push(KitScreen(False))
        history = next(i for i, item in enumerate(app.stack[-1].items(app)) if item.label == "History")
        app.stack[-1].cursor = history
        app.handle("a")
        for _i in range(3):
            app.handle("down")
        reading = app.stack[-1].entries[3]
        assert app.stack[-1].scroll.top == 3 and texts(app, "en")[2] == reading, texts(app, "en")
        for lang in ("ru", "uk", "en"):
            switch(app, lang)
            app.render()
            shown = app.stack[-1]
            assert shown.scroll.top == row_of(shown.entries, (3, 0)), (lang, shown.scroll.top)
            assert shown.rows[shown.scroll.top] == base_wrap(shown.entries[3])[0], lang
            assert (lang == "en") == (shown.entries[3] == reading)
    finally:
        app.console.close()


def base_wrap(text: str) -> list[str]:
    from firmware.screens import base
    return base.wrap(text)


def test_the_jc_dice_result_keeps_the_sentence_the_reader_was_at(state_dir: Path) -> None:
    """A fire's result scrolled to "Battle over: …" (row 10 in English then), then ``settings
    language=ru``: it stayed at that row, on «силой I.», the end of the sentence on Cleopatra (the
    Russian sentences before it wrap to one row more). It shows the sentence the reader was at in
    each language (J-2 Cleopatra, J-13)."""
    from firmware.screens.jc.roll import DiceResult
    app = app_with(["new jc-battle dice=physical seed=3", "add attacker c_leg10", "add defender cleopatra strength=1",
                    "add defender p_leg1 strength=1", "start", "fire p_leg1 dice=6", "pass cleopatra",
                    "fire c_leg10 dice=1,1,6"], [], state_dir)      # (both at I, two hits: no pick to make, J-7)
    try:
        turn = app.console.session.state["battle"]["turns"][-1]
        app.push(DiceResult(turn, events=list(app.view()["battle"]["events"])))
        app.render()
        for _i in range(20):            # (down to "Battle over" on the top row, after the sentence on Cleopatra)
            if texts(app, "en")[2].startswith("Battle over"):
                break
            app.handle("down")
        result = app.stack[-1]
        assert result.scroll.top >= 10 and texts(app, "en")[2].startswith("Battle over"), texts(app, "en")
        for lang, first in (("ru", "Бой окончен"), ("uk", "Бій закінчено"), ("en", "Battle over")):
            switch(app, lang)
            shown = texts(app, lang)
            assert app.stack[-1] is result and shown[2].startswith(first), (lang, shown)
    finally:
        app.console.close()


def test_a_placements_preview_is_said_again_when_its_answer_is_no_longer_kept(state_dir: Path) -> None:
    """Caesar! (Auto-Crassus): all a placement does, open before it is made, then ``settings
    language=ru``: the preview was asked again and, its answer no longer kept by the worker (the
    device computes it apart: ``ask`` answers None until then), the screen was taken off. It is said
    again from the answer read when it opened (C-7, C-9)."""
    from firmware.screens.caesar.move import AllItDoes
    from scripts.shots_caesar import DOUBLE, NEW
    app = app_with([NEW, DOUBLE], ["a", "a", "a", "a"], state_dir)
    try:
        app.render()
        screen = app.stack[-1]
        assert isinstance(screen, AllItDoes), app.stack
        english = texts(app, "en")
        asked = app.ask
        app.ask = lambda line: None if line.startswith("preview") else asked(line)   # being worked out again
        for lang in ("ru", "uk"):
            switch(app, lang)
            shown = texts(app, lang)
            assert isinstance(app.stack[-1], AllItDoes) and app.stack[-1] is not screen, (lang, app.stack)
            assert shown != english and not foreign_words(shown, lang, set()), shown
        switch(app, "en")
        assert texts(app, "en") == english
    finally:
        app.console.close()


def _his_closure_titled_in_english_only() -> tuple[Any, Any, int]:
    """A FakeCtx of a Caesar! game just after a turn of Crassus with a closure page the reader
    scrolls, whose province fits the title bar in English but not in Russian (there its name is
    the first row), and the index of that page."""
    from engine.rng import Rng
    from firmware.screens.caesar.turn import TurnScreen, record_pages
    from tests.fakectx import FakeCtx
    from tests.test_caesar_console import human_turn

    class Asked:
        def __init__(self, ctx: Any) -> None:
            self.ctx = ctx

        def request(self, line: str) -> Any:
            return self.ctx.run(line)
    ctx = FakeCtx("new caesar-solo difficulty=hard seed=2")
    rng = Rng(2)
    for _turn in range(60):
        st = ctx.run("state")["state"]
        assert not st["winner"], "no closure of the kind in this game"
        if st["turn"] != "crassus":
            human_turn(Asked(ctx), rng)
            continue
        ctx.run("crassus")
        rec = ctx.view()["last_crassus_turn"]
        screen = TurnScreen(record_pages(rec, rec["tile"], ctx.view()["winner"]), record=rec["read_id"])
        for k, page in enumerate(screen.pages):
            if page["kind"] != "close" or not page["step"]["border_markers"] or page["step"]["markers"] == 0 \
                    or len(screen._rows(page, ctx.view())) <= 3 + 2:
                continue                  # (its sentences: the markers, then a border marker)
            english = screen._titled(page)
            i18n.set_language("ru")
            russian = screen._titled(page)
            i18n.set_language("en")
            if english and not russian:
                return ctx, screen, k
    raise AssertionError("no closure of the kind in this game")


def test_his_turns_long_closure_keeps_the_sentence_the_reader_was_at() -> None:
    """Caesar! (Auto-Crassus): his turn's closure page scrolled to its second sentence (row 1 in
    English, row 2 before the markers' row stopped naming the province again: "+1 marker on the
    border …"), then the language changed to Russian: the page was said
    again at row 2 — «контроля →», inside the sentence on the markers (the province's name, in
    the title bar in English, is the page's first row in Russian, and the sentences wrap
    otherwise). It shows the sentence the reader was at, in each language (C-7, C-9)."""
    from firmware.screens import base
    from firmware.screens.caesar.words import space_name
    from firmware.screens.caesar.text import _
    ctx, screen, k = _his_closure_titled_in_english_only()
    ctx.open(screen)
    screen.page = k
    screen.render(ctx)
    border = screen.pages[k]["step"]["border_markers"][0]
    start = base.wrap(_("+1 marker on the border {}").format(space_name(border)), base.COLS - 1)[0]
    for _i in range(5):                   # down to the sentence (row 1 in English: the markers' row above)
        if screen._rows(screen.pages[k], ctx.view())[screen.scroll.top] == start:
            break
        ctx.press("down")
    assert screen.scroll.top > 0
    for lang in ("en", "ru", "uk", "en"):
        i18n.set_language(lang)
        screen.render(ctx)
        rows = screen._rows(screen.pages[screen.page], ctx.view())
        sentence = _("+1 marker on the border {}").format(space_name(border))
        assert rows[screen.scroll.top] == base.wrap(sentence, base.COLS - 1)[0], (lang, screen.scroll.top, rows)


def test_the_set_up_guide_keeps_the_part_the_reader_was_at() -> None:
    """Caesar!'s set-up guide, its page of bonus tokens scrolled to the list of Senate bonuses (row
    5 in English), then the language changed: it stayed at row 5 — in Russian the end of the
    sentence above the lists («устройство:»). It shows the same list, and in a long sentence the
    same part of it, in each language (C-5)."""
    from engine.caesar.terms import BONUS_WORDS
    from firmware.screens.caesar.setup import SetupGuide
    from firmware.screens.caesar.text import _
    from tests.fakectx import FakeCtx
    ctx = FakeCtx("new caesar-solo difficulty=hard seed=2")
    guide = SetupGuide()
    ctx.open(guide)
    guide.page = next(i for i, p in enumerate(guide.pages(ctx)) if p[0] == "bonuses")
    heading = next(i for i, r in enumerate(guide.pages(ctx)[guide.page][2]) if r.endswith(":") and "×" in r)
    guide.render(ctx)
    for _i in range(heading):
        ctx.press("down")
    shown = guide.pages(ctx)[guide.page][2]
    assert guide.scroll.top == heading and shown[heading].startswith(_(BONUS_WORDS["senate"])), shown
    count = shown[heading].rsplit("×", 1)[1]
    for lang in ("ru", "uk", "en"):
        i18n.set_language(lang)
        guide.render(ctx)
        shown = guide.pages(ctx)[guide.page][2]
        assert shown[guide.scroll.top] == f"{_(BONUS_WORDS['senate'])} ×{count}", (lang, guide.scroll.top, shown)


def test_a_long_sentence_is_read_on_at_the_same_part_in_another_language() -> None:
    """A page of one long sentence (the guide's Senate step: 5 rows in English, 7 in Russian)
    scrolled to its second row: made again at the sentence's start it went back to row 0; kept
    at the same row number it showed another part. Each row maps to the row of the other language
    that begins nearest the same share of the sentence, and back to itself."""
    from firmware.screens.caesar.setup import WIDTH, SetupGuide
    from firmware.screens.widgets.scroll import row_at, spot_of
    from tests.fakectx import FakeCtx
    ctx = FakeCtx("new caesar-solo difficulty=hard seed=2")
    said = {}
    for lang in ("en", "ru", "uk"):
        i18n.set_language(lang)
        guide = SetupGuide()
        guide.pages(ctx)
        said[lang] = [guide._paras[0][0][0]]                     # the Senate step: one sentence
    i18n.set_language("en")
    rows = len(base_wrap_to(said["en"][0], WIDTH))
    assert rows >= 4 and said["en"][0].count(". ") == 0, said
    for lang in ("ru", "uk"):
        there = [row_at(said[lang], spot_of(said["en"], r, WIDTH), WIDTH) for r in range(rows)]
        assert there[0] == 0 and there[1] > 0 and there == sorted(there), (lang, there)
        back = [row_at(said["en"], spot_of(said[lang], t, WIDTH), WIDTH) for t in there]
        assert back == list(range(rows)), (lang, there, back)


def base_wrap_to(text: str, width: int) -> list[str]:
    from firmware.screens import base
    return base.wrap(text, width)


@pytest.mark.parametrize("kind, lang, word", [("might", "ru", "Сицилия"), ("might", "uk", "Сицилія"),
                                             ("centurion", "ru", "тянуть"), ("centurion", "uk", "тягнути")])
def test_the_might_and_centurion_choices_are_worded_again_in_the_new_language(state_dir: Path, kind: str, lang: str,
                                                                             word: str) -> None:
    """Caesar!'s Might choice (C-15: his tokens by their provinces, his markers) and the centurion
    choice (S-4) were worded once, when opened: after ``settings language=…`` from the serial link
    the remade screen kept the English rows («Sicilia–Italia», «Skip (draw as usual)»)."""
    from firmware.screens.caesar.flow import open_bonus
    from firmware.screens.caesar.pickers import ChoiceScreen
    from tests.test_screens_caesar import HU_MIGHT, NEW
    app = app_with([NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], [], state_dir)
    try:
        open_bonus(app, kind)
        english = texts(app, "en")
        switch(app, lang)
        app.render()
        assert isinstance(app.stack[-1], ChoiceScreen)
        shown = texts(app, lang)
        assert shown != english and any(word in t for t in shown), shown
        assert not foreign_words(shown, lang, set()), shown
    finally:
        app.console.close()


def test_the_keyboard_follows_a_language_set_while_a_name_is_typed(state_dir: Path) -> None:
    """QA (random keys): the cursor on the Russian keyboard's last row, the language set to English
    over the serial link (a keyboard of two rows): A raised IndexError (a screen error) and the
    cursor was drawn nowhere. It stands on the new keyboard's last row, and A types its cell."""
    from firmware.screens.widgets.keyboard import TypeScreen, keyboard
    typed: list[str] = []
    app = app_with([], [], state_dir, lang="ru")
    try:
        screen = TypeScreen(lambda _c, name: typed.append(name))
        app.push(screen)
        app.render()
        app.handle("up")                                      # (up from the first row: the last)
        assert screen.row == len(keyboard("ru")) - 1 > len(keyboard("en")) - 1
        app.serve_line(b"settings language=en")
        app.render()
        app.handle("a")
        app.render()
        assert app.errors == 0 and app.stack[-1] is screen
        rows = keyboard("en")
        assert screen.row == len(rows) - 1 and screen.name == rows[-1][screen.col]
    finally:
        app.console.close()


@pytest.mark.parametrize("form", ["battle", "tactics", "naval", "check"])
def test_the_sword_s_dice_entry_follows_a_language_chosen_while_dice_are_entered(form: str, state_dir: Path) -> None:
    """The Sword's dice thrown at the table (W-1, W-2, W-8, W-9), entered on the dice screen: its
    title and row labels were said when it was made («Кубики битвы», «Атака»), so a language chosen
    while the dice were entered left them in the old one; they follow now, the faces entered kept."""
    from firmware.screens.sword import battle, rolls
    from firmware.screens.widgets import DiceEntry
    app = app_with(["new sword players=romans,gauls,etruscans,greeks seed=2"], [], state_dir, lang="ru")
    try:
        if form == "check":
            menu = rolls.CheckMenu()
            menu.table = True                                         # the dice thrown at the table
            menu._roll(app, "siege")
            entry = app.stack[-1]
        else:
            made = {"battle": battle.battle_form, "tactics": rolls.tactics_form, "naval": rolls.naval_form}[form]
            app.push(made(app) if form in ("naval", "battle") else made())
            app.render()
            screen = app.stack[-1]
            while screen.items(app)[screen.cursor].ident != "field:dice":
                app.handle("down")
            for key in ("right", "a"):
                app.render()
                app.handle(key)
            entry = app.stack[-1]
        assert isinstance(entry, DiceEntry), entry
        app.render()
        app.handle("up")                                              # a face entered
        faces = [list(f) for f in entry.faces]
        russian = texts(app, "ru")
        switch(app, "en")
        shown = texts(app, "en")
        assert app.stack[-1] is entry and entry.faces == faces
        assert shown != russian and not foreign_words(shown, "en", set()), shown
    finally:
        app.console.close()


def test_a_list_made_again_in_another_language_keeps_its_cursor_on_its_row_when_rows_come() -> None:
    """A list made again in a new language (a language set over the serial link) kept the cursor's
    place but not which row it stood on (``current``, the row's ident: the same in every language),
    so a row that came above it (Julius Caesar's Add list: "Last battle" once a battle is fought)
    left the cursor on another row, where a list never made again follows its row."""
    from firmware.screens.ctx import carry_place
    from firmware.screens.widgets import Item, ListScreen
    from tests.fakectx import FakeCtx

    class Blocks(ListScreen):
        def __init__(self, words: dict[str, str], above: list[str]) -> None:
            super().__init__()
            self.words, self.above = words, above

        def items(self, ctx: Any) -> list[Item]:
            return [Item(self.words[k], lambda c: None, ident=k) for k in [*self.above, "legion", "navis", "ballista"]]

    above: list[str] = []
    en = Blocks({"last": "Last battle", "legion": "Legions", "navis": "Navis", "ballista": "Ballista"}, above)
    ctx = FakeCtx()
    en.render(ctx)
    en.key("down", ctx)                                       # the cursor on Navis
    assert en.items(ctx)[en.cursor].ident == "navis"
    ru = Blocks({"last": "Последний бой", "legion": "Легионы", "navis": "Флот", "ballista": "Баллиста"}, above)
    carry_place(en, ru)                                       # made again in Russian
    above.append("last")                                      # a row comes above it
    ru.render(ctx)
    assert ru.items(ctx)[ru.cursor].ident == "navis"


def test_the_walk_tells_a_form_turned_from_the_same_form_just_opened(tmp_path: Path) -> None:
    """Two programs on Glory's tax form over the same game, its cursor on the population (G-4): one
    turned it to 2, the other just opened it on 1 — keys, not the language (in the walk of
    glory-variants, round 3's event card took three presses in English and two in Russian, and the
    next A and right landed on other screens). They stand in other places (:func:`where`), not
    the same place drawn otherwise: the walk compared them and failed, «<1>» against «<2>»."""
    from firmware.screens.glory.round import tax_form
    folder = prepared("glory-variants", tmp_path)
    turned, opened = (program(folder, tmp_path, name, "ru", "glory-variants") for name in ("turned", "opened"))
    try:
        for app in (turned, opened):
            assert app.run("event")["ok"]
            app.push(tax_form(app))
            app.render()
        turned.handle("right")
        assert texts(turned, "ru") != texts(opened, "ru")
        assert where(turned, "ru") != where(opened, "ru")
        opened.handle("right")
        assert where(turned, "ru") == where(opened, "ru") and texts(turned, "ru") == texts(opened, "ru")
    finally:
        for app in (turned, opened):
            app.console.close()


def test_a_change_of_language_keeps_the_tax_form_s_figures(tmp_path: Path) -> None:
    """What :func:`where` leaves to the change of language itself: Glory's tax form turned to
    population 2 with double tax on (G-4), ``settings language=uk`` from the serial link — the
    same figures and row, drawn as a program started in Ukrainian draws them after the same keys."""
    from firmware.screens.glory.round import tax_form
    folder = prepared("glory-variants", tmp_path)
    walker, fresh = program(folder, tmp_path, "walker", "en", "glory-variants"), program(folder, tmp_path, "uk", "uk", "glory-variants")
    try:
        for app, lang in ((walker, "en"), (fresh, "uk")):
            assert app.run("event")["ok"]
            app.push(tax_form(app))
            for key in ("right", "down", "right"):
                i18n.set_language(lang)
                app.render()
                app.handle(key)
        before = figures(walker)
        assert before[-1][1:3] == ({"who": 0, "pop": 2, "double": 1}, 2)
        switch(walker, "uk")
        assert figures(walker) == before == figures(fresh)
        assert texts(walker, "uk") == texts(fresh, "uk")
    finally:
        for app in (walker, fresh):
            app.console.close()
