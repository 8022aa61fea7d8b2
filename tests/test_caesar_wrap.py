"""Caesar!'s rows wrapped by firmware/screens/base.py ``wrap``: a border's name («Галлия–
Цизальпинская Галлия») breaks after its own dash when that saves a row of the 4-row body (a
closure's «+1 marker on the border …» row took four rows in ru and uk, one a press), never inside a
number, a score, a rule ID or a code, and never where breaking saves nothing."""
from __future__ import annotations

import pytest

from engine.caesar.board import SPACES
from firmware import i18n
from firmware.screens import base


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang, space, rows", [
    ("ru", "GA-GC", ["+1 жетон контроля на", "границу Галлия–", "Цизальпинская Галлия"]),
    ("ru", "IT-GC", ["+1 жетон контроля на", "границу Италия–", "Цизальпинская Галлия"]),
    ("uk", "GA-GC", ["+1 маркер контролю на", "кордон Галлія–", "Цизальпійська Галлія"]),
    ("uk", "IT-GC", ["+1 маркер контролю на", "кордон Італія–", "Цизальпійська Галлія"]),
])
def test_a_border_marker_row_breaks_after_the_border_s_dash_to_save_a_row(lang, space, rows):  # C-10
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.words import space_name
    i18n.set_language(lang)
    assert space in SPACES, space
    assert base.wrap(_("+1 marker on the border {}").format(space_name(space))) == rows


def test_every_border_marker_row_takes_at_most_three_rows():  # C-10
    """Every border of the board, in every language, on a closure's page: at most three rows of
    the body's four (the closure's markers row stays on the same screen)."""
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.words import space_name
    long = []
    for lang in ("en", "ru", "uk"):
        i18n.set_language(lang)
        for sp in SPACES:
            rows = base.wrap(_("+1 marker on the border {}").format(space_name(sp)))
            if len(rows) > 3 and sp != "HU-HC":      # (two names of two words each: four rows)
                long.append((lang, rows))
    assert not long, long


def test_a_dash_breaks_only_between_words_and_only_to_save_a_row():
    w = 21
    # a word that fits the next row whole is not broken: breaking saves nothing
    assert base.wrap("на границу Сардиния–Сицилия", w) == ["на границу", "Сардиния–Сицилия"]
    # never inside a score, a number, a rule ID, a province code, or before a particle
    for word in ("11–12", "S-11,", "C-21)", "SC-IT", "кто-то", "по-русски", "2026-11-27"):
        assert base.dash_breaks(word) == [], word
        text = "ааааааааааааааа " + word + " бббббббб"
        assert all(not r.endswith(("-", "–")) for r in base.wrap(text, w)), base.wrap(text, w)
    assert base.dash_breaks("«Галлия—Испания»") == [len("«Галлия—")]
    assert base.dash_breaks("Д'Артаньян-Ґонта") == [len("Д'Артаньян-")]
    # a row saved: «Галлия–» ends the row, the rest goes on; a one-letter tie is kept
    assert base.wrap("провинцией, а Галлия–Цизальпинская — нет", w) == [
        "провинцией, а Галлия–", "Цизальпинская — нет"]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_his_closure_with_two_border_markers_names_both_in_one_sentence(lang):  # C-10, C-7
    """His turn's closure page (three rows under the score) at a closure giving two border markers
    (C-10: Cyrenaica closed by Crassus, Africa and Aegyptus his): one sentence names both borders
    («+1 маркер контролю на кожен кордон: Африка–Киренаїка, Киренаїка–Аегіпт»), not a sentence
    each (the second «+1 marker on the border» cost a row or two, and a press to read at the
    table). Every border is still named, in fewer rows, and the page never takes more A presses
    to read than the two sentences did."""
    from firmware.screens.caesar.text import _
    from firmware.screens.caesar.turn import TurnScreen
    from firmware.screens.caesar.words import space_name
    from tests.fakectx import FakeCtx
    i18n.set_language(lang)
    ctx = FakeCtx("new caesar-solo side=caesar seed=1", lang=lang)
    borders = ["AF-CY", "CY-AG"]
    step = {"action": "close", "province": "CY", "by": "crassus", "winner": "crassus", "markers": 1,
            "totals": {"human": 1, "crassus": 5}, "border_markers": borders, "bonus": "senate"}
    screen = TurnScreen([{"kind": "close", "step": step, "bonuses": [], "at": 0}])   # type: ignore[typeddict-item]
    ctx.open(screen)
    screen.render(ctx)
    rows = screen._rows(screen.pages[0], ctx.view())
    said = " ".join(rows)
    assert said.count("+1") == 1, rows
    for b in borders:
        assert space_name(b).replace("–", "") in said.replace("– ", "").replace("–", ""), (b, rows)
    each = sum(len(base.wrap(_("+1 marker on the border {}").format(space_name(b)), base.COLS - 1)) for b in borders)
    one = len(base.wrap(_("+1 marker on each border: {}").format(", ".join(space_name(b) for b in borders)),
                        base.COLS - 1))
    assert one < each, (one, each)
    presses = 0
    while ctx.top is screen and presses < 10:
        ctx.press("a")
        presses += 1
    before = -(-(len(rows) - one + each) // 3)      # three rows a screen: the two sentences' screens
    assert presses <= before, (presses, before, rows)


TERMS = {"ru": ("жетон контроля", "жетона контроля"), "uk": ("маркер контролю", "маркери контролю"),
         "en": ("marker", "markers")}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("new, who", [("new caesar-solo side=caesar seed=1", "crassus"),
                                      ("new caesar-solo side=caesar seed=1", "human"),
                                      ("new caesar-duel seed=1", "caesar"), ("new caesar-duel seed=1", "pompey")])
def test_a_closure_s_control_markers_row_keeps_the_rulebook_term_whole(lang, new, who):  # C-9
    """A closure's page says who places how many control markers (C-9: one, Italy two). The
    rulebooks' terms («жетон контроля», «маркер контролю») with the player and the number are
    21–25 characters, over the 20 of a row beside the scroll bar: the row broke inside the term,
    «Цезарь: 1 жетон» / «контроля». The number and the whole term now share a row
    («Цезарь:» / «1 жетон контроля»); in English the row fits whole."""
    from firmware.screens.caesar.turn import TurnScreen
    from firmware.screens.caesar.words import who as who_said
    from tests.fakectx import FakeCtx
    i18n.set_language(lang)
    ctx = FakeCtx(new, lang=lang)
    other = {"crassus": "human", "human": "crassus", "caesar": "pompey", "pompey": "caesar"}[who]
    for code, n in (("SC", 1), ("IT", 2)):
        step = {"action": "close", "province": code, "by": who, "winner": who, "markers": n,
                "totals": {who: 7, other: 2}, "border_markers": [], "bonus": None}
        screen = TurnScreen([{"kind": "close", "step": step, "bonuses": [], "at": 0}])   # type: ignore[typeddict-item]
        ctx.open(screen)
        screen.render(ctx)
        rows = screen._rows(screen.pages[0], ctx.view())
        term = TERMS[lang][n - 1]
        said = who_said(ctx.view(), who)
        if len(f"{said}: {n} {term}") <= base.COLS - 1:
            assert f"{said}: {n} {term}" in rows, rows
        else:
            at = rows.index(f"{said}:")
            assert rows[at + 1] == f"{n} {term}", rows
        ctx.pop()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_closure_preview_keeps_the_control_marker_term_whole(lang):  # C-9, C-10
    """Your move's preview of a closure («Здесь: берёте вы, 7–0, 1 жетон контроля»: the markers of
    the province and its borders) broke inside the rulebook's term, «7–0, 1 жетон» / «контроля»;
    every province (or the title's, not named), every winner, 1 to 6 markers: the number and its
    whole term share a row, in no more rows than before."""
    from firmware.screens.caesar.text import _, ngettext
    from firmware.screens.caesar.words import count_tied, pn
    from engine.caesar.board import PROVINCES
    i18n.set_language(lang)
    forms = {"ru": ("жетон контроля", "жетона контроля", "жетонов контроля"),
             "uk": ("маркер контролю", "маркери контролю", "маркерів контролю")}[lang]
    broken = []
    for p in [pn(code) for code in PROVINCES]:
        for n in range(1, 7):
            form = forms[0 if n % 10 == 1 and n != 11 else 1 if 2 <= n <= 4 else 2]
            for text in (ngettext("You take it {a}–{b}, {n} marker", "You take it {a}–{b}, {n} markers", n),   # the title's
                         ngettext("Crassus takes it {a}–{b}, {n} marker", "Crassus takes it {a}–{b}, {n} markers", n),
                         *[ngettext("{who} takes it {a}–{b}, {n} marker", "{who} takes it {a}–{b}, {n} markers",
                                    n).replace("{who}", w) for w in (_("Caesar"), _("Pompey"))],
                         ngettext("{p}: you take it {a}–{b}, {n} marker", "{p}: you take it {a}–{b}, {n} markers", n),
                         ngettext("{p}: Crassus takes it {a}–{b}, {n} marker",
                                  "{p}: Crassus takes it {a}–{b}, {n} markers", n),
                         *[ngettext("{p}: {who} takes it {a}–{b}, {n} marker", "{p}: {who} takes it {a}–{b}, {n} markers",
                                    n).replace("{who}", w) for w in (_("Caesar"), _("Pompey"))]):
                said = text.format(p=p, a=12, b=10, n=n)
                rows = base.wrap(count_tied(said, n), base.COLS - 1)      # as the preview says it
                if not any(f"{n} {form}" in row for row in rows):
                    broken.append(rows)
                plain = base.wrap(said, base.COLS - 1)
                assert len(rows) <= len(plain), (rows, plain)
    assert not broken, (len(broken), broken[:3])


@pytest.mark.parametrize("lang, rows", [("ru", ["Берёте вы, 12–3,", "3 жетона контроля", "Цизальпинская"]),
                                        ("uk", ["Берете ви, 12–3,", "3 маркери контролю", "Цизальпійська"])])
def test_the_preview_of_a_double_closure_shows_the_term_whole(state_dir, lang, rows):  # C-7, C-9
    """On the device: your placement closing Italy (its two slots and a border marker: 3) previewed
    before it is made; it read «Здесь: берёте вы,» / «12–3, 3 жетона» / «контроля», then «Здесь:
    берёте вы,» / «12–3,» / «3 жетона контроля»; the title's province is not named again now, two
    rows (Gallia Cisalpina, named, follows)."""
    from firmware.screens.caesar.move import AllItDoes
    from scripts.shots_caesar import DOUBLE, NEW
    from tests.screens import app_with
    app = app_with([NEW, DOUBLE], ["a", "a", "a", "a"], state_dir, lang=lang)
    try:
        assert isinstance(app.stack[-1], AllItDoes)
        assert app.stack[-1].rows[:3] == rows, app.stack[-1].rows
    finally:
        app.console.close()
