"""Caesar!: a placement's preview read in as few presses as before every question was read to its
end (C-7..C-12, C-16): the options show its first sentences whole, «A: all it does» opens at the
first one they did not show, and a closure of this province is said in two rows in every language."""
from __future__ import annotations

import json

import pytest

from firmware.screens import base
from firmware.screens.caesar.move import AllItDoes, OptionScreen
from scripts.shots_caesar import HU_MIGHT, NEW
from tests.screens import app_with

SENATE = json.loads(HU_MIGHT.split(" ", 1)[1])
SENATE["bonuses"] = {"HU": "senate"}          # your ship closes Hispania Ulterior and takes its Senate
SENATE_LINE = "position " + json.dumps(SENATE)

CLOSURE = {"en": ["You take it 9–0,", "1 marker"], "ru": ["Берёте вы, 9–0,", "1 жетон контроля"],
           "uk": ["Берете ви, 9–0,", "1 маркер контролю"]}
SENATE_ROWS = {"en": ["Under the Senate", "token: 1 marker"], "ru": ["Под жетон Сената:", "1 жетон контроля"],
               "uk": ["Під жетон Сенату:", "1 маркер контролю"]}


def _shown(screen: AllItDoes) -> list[str]:
    rows = screen.rows
    top = screen.scroll.fit(len(rows), base.ROWS - 1)
    return [r for r in rows[top:top + base.ROWS - 1] if r]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_closure_and_its_senate_markers_are_placed_with_one_a_past_the_options(state_dir, lang):   # C-9, C-16
    """Your ship closes Hispania Ulterior and takes its Senate (1 control marker under it): the
    preview was 5 rows (ru «Здесь: берёте вы,» / «9–0,» / «1 жетон контроля» / «1 жетон контроля
    под» / «ваши жетоны Сената»), 3 a page: «A: all it does» opened at its top and took two A to
    place (the options showed the closure or «Закрывает 1 провинцию.»). Now the options show the
    closure whole (two rows), all it does opens at the Senate's sentence (two rows, the page
    starts with it), and one A places; up shows the closure again."""
    app = app_with([NEW, SENATE_LINE], ["a", "a", "press", "a"], state_dir, lang=lang)
    try:
        options = app.stack[-1]
        assert isinstance(options, OptionScreen) and options.code == "HU"
        said = options.preview(app, options.options(app)[0]) or []
        assert [r.replace(base.TIE, " ") for r in options.rows(said)] == CLOSURE[lang] + SENATE_ROWS[lang]
        assert options.seen(said) == 1                           # the closure shown whole on the options
        app.handle("a")
        screen = app.stack[-1]
        assert isinstance(screen, AllItDoes)
        assert [r.replace(base.TIE, " ") for r in _shown(screen)] == SENATE_ROWS[lang]
        app.handle("up")
        app.handle("up")
        assert [r.replace(base.TIE, " ") for r in _shown(screen)][:2] == CLOSURE[lang]    # read before: a key up
        app.handle("down")
        app.handle("down")
        before = list(app.console.session.lines)
        app.handle("a")                                          # one A places
        assert app.console.session.lines[len(before)] == "play HU-MT ship:3/3 HU", app.console.session.lines
        assert not any(isinstance(s, (AllItDoes, OptionScreen)) for s in app.stack) and app.errors == 0
    finally:
        app.console.close()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_closure_of_the_titles_province_takes_two_rows(lang):   # C-9, C-10
    """The province in the title closed, every winner, totals up to 12–10, 1 to 6 control markers:
    two rows beside the scroll mark, the count with its whole term on the second («Здесь: берёте
    вы,» / «12–3,» / «3 жетона контроля» was three: the preview's 4-5 rows cost an A more)."""
    from firmware import i18n
    from firmware.screens.caesar.text import _, ngettext
    from firmware.screens.caesar.words import count_tied
    i18n.set_language(lang)
    try:
        for n in range(1, 7):
            for text in (ngettext("You take it {a}–{b}, {n} marker", "You take it {a}–{b}, {n} markers", n),
                         ngettext("Crassus takes it {a}–{b}, {n} marker", "Crassus takes it {a}–{b}, {n} markers", n),
                         *[ngettext("{who} takes it {a}–{b}, {n} marker", "{who} takes it {a}–{b}, {n} markers",
                                    n).replace("{who}", w) for w in (_("Caesar"), _("Pompey"))]):
                said = text.format(a=12, b=10, n=n)
                rows = base.wrap(count_tied(said, n), base.COLS - 1)
                assert len(rows) == 2 and rows[1].replace(base.TIE, " ").startswith(f"{n} "), rows
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_closure_page_read_on_keeps_the_player_with_the_markers(lang):   # C-9, C-11
    """A duel's closure page: «Цезарь:» / «1 жетон контроля» (the term whole, its own row) and a
    bonus's sentence of two rows, 4 rows under the score, 3 a screen. A went on one row: «1 жетон
    контроля» at the top, «Цезарь:» scrolled off. A now shows the bonus from its first row (a
    blank under it), the player and his markers scrolled off together; up brings them back."""
    from firmware import i18n
    from firmware.screens.caesar.turn import TurnScreen
    from tests.fakectx import FakeCtx
    i18n.set_language(lang)
    try:
        ctx = FakeCtx("new caesar-duel seed=1", lang=lang)
        step = {"action": "close", "province": "SC", "by": "caesar", "winner": "caesar", "markers": 1,
                "totals": {"caesar": 7, "pompey": 2}, "border_markers": [], "bonus": "wealth"}
        bonus = {"ru": "Богатство: Цезарь тянет ещё 2 жетона.", "uk": "Багатство: Цезар тягне ще 2 жетони."}[lang]
        page = {"kind": "close", "step": step, "bonuses": [{"action": "bonus", "text": bonus}], "at": 0}
        screen = TurnScreen([page])   # type: ignore[list-item]
        ctx.open(screen)
        screen.render(ctx)
        rows = [r for r in screen._rows(screen.pages[0], ctx.view())]
        assert len(rows) == 4 and rows[0].endswith(":"), rows          # the player, his markers, the bonus
        ctx.press("a")
        assert ctx.top is screen
        screen.render(ctx)
        top = screen.scroll.top
        shown = screen._rows(screen.pages[0], ctx.view())[top:top + 3]
        assert shown[0] == rows[2] and shown[1] == rows[3], shown       # the bonus from its start
        ctx.press("up")
        screen.render(ctx)
        assert screen._rows(screen.pages[0], ctx.view())[screen.scroll.top] == rows[1]
        ctx.press("up")
        screen.render(ctx)
        assert screen.scroll.top == 0
        ctx.press("a")
        ctx.press("a")
        assert ctx.top is not screen                                      # read: the page goes
    finally:
        i18n.set_language("en")
