"""For the Glory of Rome's secret objectives on the device (G-19, G-13): dealt by the device, each
player's cards shown to that player alone (a pass screen first, hidden again before the next), on
no other screen, notice or log line before the final scoring; undo and a power cut never re-deal."""
from __future__ import annotations

from tests.screens import YES, say_yes  # noqa: F401

import pytest

from engine import actions as common
from engine.glory import actions as glory
from firmware.screens.glory.home import GloryHome
from firmware.screens.glory.objectives import HandScreen, ObjectivesScreen, objective_name, open_objectives
from firmware.screens.glory.track import FameScreen, SenateScreen
from firmware.screens.menu import log_screen
from tests.fakectx import FakeCtx
from tests.screens import app_with

NEW = "new glory players=Jack,Henry,Mary seed=5"


def hands(ctx: FakeCtx) -> dict[str, list[str]]:
    """Each player's cards as the game holds them (ids)."""
    assert ctx.session is not None
    return {p: list(h) for p, h in ctx.session.state["objectives"]["hands"].items()}


def names(ctx: FakeCtx, ids: list[str]) -> list[str]:
    """The cards' names as the screens say them."""
    from engine.glory.state import objective_label
    return [objective_name(objective_label(i)) for i in ids]  # type: ignore[arg-type]


def leaked(ctx: FakeCtx, ids: list[str]) -> list[str]:
    """The names among ``ids`` that the top screen shows, or a notice says."""
    shown = " | ".join(ctx.texts() + ctx.notes)
    return [n for n in names(ctx, ids) if n in shown]


def home_with_dealt(lang: str = "en") -> FakeCtx:
    ctx = FakeCtx(NEW, lang=lang)
    ctx.open(GloryHome())
    open_objectives(ctx)
    say_yes(ctx)                                   # Deal objectives? A
    return ctx


def all_ids(ctx: FakeCtx) -> list[str]:
    return [c for h in hands(ctx).values() for c in h]


def test_the_deal_asks_first_then_names_whose_turn_it_is_and_shows_nothing_until_he_presses():  # G-19
    ctx = FakeCtx(NEW)
    ctx.open(GloryHome())
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "Deal objectives" in labels and "Objectives" not in labels
    open_objectives(ctx)
    assert ctx.lines == []                            # a question first: nothing dealt yet
    ctx.press("b")
    assert ctx.lines == [] and hands(ctx) == {}
    open_objectives(ctx)
    say_yes(ctx)
    assert ctx.lines == ["deal"]
    dealt = hands(ctx)
    assert sorted(dealt) == ["Henry", "Jack", "Mary"] and all(len(h) == 3 for h in dealt.values())
    assert "Jack" in " ".join(ctx.texts()) and "Pass the device" in ctx.texts()
    assert leaked(ctx, all_ids(ctx)) == []            # the pass screen shows no card
    ctx.press("a")
    assert isinstance(ctx.top, HandScreen)
    shown = " ".join(ctx.texts())
    assert all(n in shown for n in names(ctx, dealt["Jack"]))
    assert [n for n in names(ctx, dealt["Henry"] + dealt["Mary"]) if n in shown] == []


def test_each_player_returns_one_card_and_the_next_pass_screen_hides_the_last_hand():  # G-19
    ctx = home_with_dealt()
    dealt = hands(ctx)
    for player in ("Jack", "Henry", "Mary"):
        assert ctx.texts()[0] == "Pass the device" and player in " ".join(ctx.texts())
        assert leaked(ctx, all_ids(ctx)) == []
        ctx.press("a")                                # A: show
        assert isinstance(ctx.top, HandScreen) and ctx.top.player == player
        ctx.press("down", "a")                        # the second card back to the deck ...
        assert leaked(ctx, [c for p, h in dealt.items() if p != player for c in h]) == []
        say_yes(ctx)                                # ... after a question
        assert not any(isinstance(s, HandScreen) for s in ctx.stack)    # hidden before the next looks
        assert ctx.lines[-1] == f"keep {player} {dealt[player][0]},{dealt[player][2]}"
    assert isinstance(ctx.top, ObjectivesScreen)
    assert ctx.notes == ["Every player keeps 2 objectives: keep them secret until the final scoring."]
    assert hands(ctx) == {p: [h[0], h[2]] for p, h in dealt.items()}
    deck = ctx.session.state["objectives"]["deck"]
    assert deck[-3:] == [dealt["Jack"][1], dealt["Henry"][1], dealt["Mary"][1]]   # to the bottom


def test_a_player_looks_again_at_his_own_cards_through_the_pass_screen():  # G-19
    ctx = home_with_dealt()
    for _player in range(3):
        ctx.press("a", "a")
        say_yes(ctx)                      # show, the first card back, yes
    kept = hands(ctx)
    assert isinstance(ctx.top, ObjectivesScreen)
    assert leaked(ctx, all_ids(ctx)) == []            # the list names the players only
    ctx.press("down", "a")                            # Henry
    assert ctx.texts()[0] == "Pass the device" and leaked(ctx, all_ids(ctx)) == []
    ctx.press("a")
    shown = " ".join(ctx.texts())
    assert all(n in shown for n in names(ctx, kept["Henry"]))
    assert [n for n in names(ctx, kept["Jack"] + kept["Mary"]) if n in shown] == []
    lines = len(ctx.lines)
    ctx.press("a")                                    # A (or B) hides: nothing is played
    assert isinstance(ctx.top, ObjectivesScreen) and len(ctx.lines) == lines and hands(ctx) == kept
    ctx.press("a", "a", "b")
    assert isinstance(ctx.top, ObjectivesScreen) and hands(ctx) == kept


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_no_other_screen_notice_or_log_line_names_an_objective_before_the_final_scoring(lang):  # G-19
    ctx = home_with_dealt(lang)
    for _player in range(3):
        ctx.press("a", "a", "a")
    secret = all_ids(ctx)
    ctx.run(common.log(50))
    for make in (GloryHome, ObjectivesScreen, FameScreen, SenateScreen):
        ctx.open(make())
        assert leaked(ctx, secret) == [], make
    ctx.open(log_screen(ctx))
    assert ctx.texts() and leaked(ctx, secret) == []
    log = ctx.run(common.log(50))["log"]
    assert [n for n in names(ctx, secret) if n in " ".join(log)] == []
    state = str(ctx.view())
    assert [c for c in secret if f"'{c}'" in state] == []    # the state holds the counts only


def test_the_cards_are_revealed_at_the_final_scoring():  # G-13: «Игроки раскрывают свои карты заданий»
    ctx = home_with_dealt()
    for _player in range(3):
        ctx.press("a", "a", "a")
    kept = hands(ctx)
    for _round in range(9):
        assert ctx.run(glory.event())["ok"] and ctx.run(glory.end_round())["ok"]
    assert ctx.view()["finished"]
    ctx.open(GloryHome())
    labels = [str(i.label) for i in ctx.top.items(ctx)]
    assert "Objectives" in labels
    open_objectives(ctx)                              # the home's Objectives row
    said = ["Jack:", *[f"· {n}" for n in names(ctx, kept["Jack"])], "Henry:", *[f"· {n}" for n in names(ctx, kept["Henry"])],
            "Mary:", *[f"· {n}" for n in names(ctx, kept["Mary"])]]
    assert " ".join(ctx.top.rows) == " ".join(said), ctx.top.rows    # (its rows wrapped to the panel)
    ctx.open(ObjectivesScreen())                      # a list left up as round 9 ended: the same text
    ctx.press("a")
    assert ctx.top.rows[0] == "Jack:" and names(ctx, kept["Mary"])[-1] in ctx.top.rows[-1]


def test_undo_never_deals_again_and_the_hand_goes_with_the_step():  # PROTOCOL.md: undo restores the generator
    ctx = home_with_dealt()
    dealt = hands(ctx)
    ctx.press("a", "a", YES)                          # Jack keeps 2
    assert ctx.run(common.undo())["ok"]               # his keep taken back: the same 3 cards
    assert hands(ctx)["Jack"] == dealt["Jack"]
    assert ctx.run(common.undo())["ok"] and hands(ctx) == {}
    ctx.stack[1:] = []
    open_objectives(ctx)
    say_yes(ctx)
    assert hands(ctx) == dealt                        # dealt again: the same cards


def test_a_power_cut_shows_the_same_cards_and_no_hand_on_resume(state_dir):  # G-19, PROTOCOL.md
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    app = app_with([NEW, "deal"], ["a"], state_dir)
    try:
        dealt = {p: list(h) for p, h in app.console.session.state["objectives"]["hands"].items()}
        app.push(ObjectivesScreen())
        for key in ("a", "a", "a", YES):              # Jack: pass screen, show, the first card back, yes
            app.render()
            say_yes(app) if key == YES else app.handle(key)
        app.render()
        assert app.console.session.state["objectives"]["hands"]["Jack"] == dealt["Jack"][1:]
        app.handle("a")                               # Henry looks: his hand is up at the power cut
        app.render()
        assert isinstance(app.stack[-1], HandScreen)
    finally:
        app.console.close()
    store = Store(state_dir)
    app = App(Console(store, store.resume()))
    try:
        app.render()
        assert not any(isinstance(s, HandScreen) for s in app.stack)      # nobody's hand is up
        assert app.console.session.state["objectives"]["hands"] == {**dealt, "Jack": dealt["Jack"][1:]}
        app.push(ObjectivesScreen())
        app.render()
        assert app.stack[-1].current == "Henry"       # the list opens on the player still to choose
        for key in ("up", "a", "a"):                  # Jack looks again: the pass screen, his cards
            app.handle(key)
            app.render()
        shown = [str(i.label) for i in app.stack[-1].items(app)]
        from engine.glory.state import objective_label
        assert shown == [objective_name(objective_label(c)) for c in dealt["Jack"][1:]]   # type: ignore[arg-type]
    finally:
        app.console.close()


def test_in_the_emperors_solo_the_cards_show_at_once():  # G-17, G-19: nobody else is at the table
    ctx = FakeCtx("new glory players=Jack seed=5")
    ctx.open(GloryHome())
    open_objectives(ctx)
    say_yes(ctx)                                    # Deal objectives? A: Jack's 3 cards, no pass screen
    assert isinstance(ctx.top, HandScreen) and len(hands(ctx)["Jack"]) == 3
    ctx.press("a", YES)                               # the first card back, yes
    assert ctx.notes == ["Jack keeps 2 objectives."] and len(hands(ctx)["Jack"]) == 2
    assert isinstance(ctx.top, ObjectivesScreen)
    ctx.press("a")                                    # looking again: the cards at once
    assert isinstance(ctx.top, HandScreen)
    assert [str(i.label) for i in ctx.top.items(ctx)] == names(ctx, hands(ctx)["Jack"])


def test_the_list_opens_on_the_first_player_still_to_choose():  # G-19
    ctx = home_with_dealt()
    ctx.press("a", "a", YES)                          # Jack has chosen; Henry's pass screen ...
    ctx.press("b", "b")                               # ... left: back home
    assert isinstance(ctx.top, GloryHome)
    assert "1/3" in ctx.texts() or any(str(i.value) == "1/3" for i in ctx.top.items(ctx))
    open_objectives(ctx)
    ctx.press("a")                                    # A on the row the list opened on: Henry's turn
    assert ctx.texts()[0] == "Pass the device" and "Henry" in " ".join(ctx.texts())


def test_the_list_left_up_when_the_deal_is_taken_back_offers_the_deal_again():  # PROTOCOL.md undo
    ctx = home_with_dealt()
    dealt = hands(ctx)
    ctx.press("b")                                    # from Jack's pass screen to the list
    assert isinstance(ctx.top, ObjectivesScreen)
    assert ctx.run(common.undo())["ok"] and hands(ctx) == {}
    assert [str(i.label) for i in ctx.top.items(ctx)] == ["Deal objectives"]     # (was an empty list)
    ctx.press("a", YES)                               # the question, yes
    assert hands(ctx) == dealt and ctx.texts()[0] == "Pass the device"
    assert sum(isinstance(s, ObjectivesScreen) for s in ctx.stack) == 1


def _allowed_owner(app) -> str | None:
    """The player whose cards may show now: the one whose hand is up (under its own question)."""
    top = app.stack[-1]
    if isinstance(top, HandScreen):
        return top.player
    if len(app.stack) > 1 and isinstance(app.stack[-2], HandScreen) and type(top).__name__ == "Asked":
        return app.stack[-2].player
    return None


PLAYERS = {1: "Jack", 2: "Jack,Олекса", 3: "Jack,Henry,Mary", 4: "Ваня,Маша,Олекса,Їжак"}
KEYS = ["up", "down", "left", "right", "press", "a", "a", "a", "b", "a:hold", "key3", "b:hold"]
SERIAL = ["undo", "event", "deal", "fame {} +1", "objectives {}", "settings language={}"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_random_keys_and_serial_lines_never_show_a_card_to_the_wrong_player(count, lang, tmp_path):  # G-19
    """Random keys and, between them, lines from the serial link (an undo, a step, the deal, a
    language switch): on every frame, the only objective names drawn are those of the player whose
    hand is up (his own question over it), before the final scoring."""
    import random

    from engine.glory.state import objective_label
    from firmware import i18n
    from firmware.screens import base
    from tests.screens import app_with
    rng = random.Random(f"objectives-{count}-{lang}")
    players = PLAYERS[count].split(",")
    app = app_with([f"new glory players={PLAYERS[count]} seed={count}"], [], tmp_path, lang=lang)
    try:
        app.push(GloryHome())
        open_objectives(app)
        seen: list[str] = []
        hands_up = 0
        for _i in range(400):
            if rng.random() < 0.06:
                line = rng.choice(SERIAL)
                line = line.format(rng.choice(["en", "ru", "uk"]) if line.startswith("settings") else rng.choice(players))
                seen.append(f"serial {line}")
                app.serve_line(line.encode() + b"\n")
            elif not isinstance(app.stack[-1], (HandScreen, ObjectivesScreen)) and \
                    type(app.stack[-1]).__name__ not in ("Asked", "UndoQuestion") and rng.random() < 0.3:
                seen.append("objectives row")               # (the home's row, from wherever the keys went)
                app.stack[1:] = [GloryHome()]
                open_objectives(app)
            else:
                key = rng.choice(KEYS)
                seen.append(key)
                app.handle(key)
            base.TRACE = []
            try:
                app.render()
                drawn = " | ".join(t for _x, _y, t, _k in base.TRACE)
            finally:
                base.TRACE = None
            assert app.errors == 0, seen[-12:]
            hands_up += _allowed_owner(app) is not None
            session = app.console.session
            if session is None or session.game.name != "glory" or session.view()["finished"]:
                break
            owner = _allowed_owner(app)
            hands = session.state.get("objectives", {}).get("hands", {})
            for p, held in hands.items():
                if p == owner:
                    continue
                shown = [objective_name(objective_label(c)) for c in held]
                # (a name of a card another player holds may be the holder's own too: the deck has one of each)
                own = {objective_name(objective_label(c)) for c in hands.get(owner, [])} if owner else set()
                assert [n for n in shown if n in drawn and n not in own] == [], (p, owner, drawn, seen[-12:])
        assert hands_up > 40                                # (the keys did reach the hands)
    finally:
        app.console.close()
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_hand_s_title_names_its_player_whole(lang):  # G-19: the hand is his alone
    """The title of a hand of 3 is the player's name and what A does («{}: return one»); beside the
    Ukrainian «поверніть одну» a name was cut to 3 letters («Богд…», «Оле…» for Олександр and
    Олексій alike): the name is whole, the hint left out where both do not fit (the question after
    A says it)."""
    for names in ("Богдан,Олександр,Анна", "Jack,Maximilian,Mary"):
        ctx = FakeCtx(f"new glory players={names} seed=5", "deal", lang=lang)
        for player in names.split(","):
            ctx.open(HandScreen(player))
            title = ctx.texts()[0]
            assert title.startswith(player), title
            assert len(title) <= 21


def _deal_question(new_line: str, lang: str = "en") -> str:
    """The whole text of the question the home's Deal objectives row asks (all its pages)."""
    ctx = FakeCtx(new_line, lang=lang)
    ctx.open(GloryHome())
    open_objectives(ctx)
    return " ".join(ctx.top.question.split())          # type: ignore[attr-defined]


@pytest.mark.parametrize("lang, symbol", [("en", "2-player symbol"), ("ru", "символом партии на 2-х игроков"),
                                          ("uk", "символом партії на 2-х гравців")])
def test_a_game_of_two_or_the_solo_is_told_the_device_cannot_take_out_the_2_player_cards(lang, symbol):
    # G-19: «В партии на 2-х игроков уберите в коробку карты заданий с символом» (the solo is set up
    # as for 2); the rulebook lists no such card, so the data cannot say which: the device deals
    # them too, and says so before it deals instead of dealing as if the deck were right
    for players in ("Jack", "Jack,Henry", "Jack,Henry truce=1 heroes=1"):
        assert symbol in _deal_question(f"new glory players={players} seed=5", lang), players
    assert symbol not in _deal_question("new glory players=Jack,Henry,Mary seed=5", lang)
    ctx = FakeCtx("new glory players=Jack,Henry seed=5")
    assert ctx.run("deal")["two_player_cards_unknown"] is True
    ctx = FakeCtx("new glory players=Jack,Henry,Mary seed=5")
    assert "two_player_cards_unknown" not in ctx.run("deal")


def test_once_the_data_marks_every_card_nothing_is_said_of_the_2_player_cards(monkeypatch):  # G-19
    import engine.glory.state as st
    marked = [{**c, "two_player": c["id"] != "O11"} for c in st.objective_cards()]
    monkeypatch.setattr(st, "objective_cards", lambda: marked)
    assert "2-player symbol" not in _deal_question("new glory players=Jack,Henry seed=5")
    ctx = FakeCtx("new glory players=Jack,Henry seed=5")
    assert "O11" not in ctx.session.state["objectives"]["deck"]          # taken out of a 2-player deck
    assert "two_player_cards_unknown" not in ctx.run("deal")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_hand_of_a_seat_nobody_named_says_what_a_does(lang):  # G-19
    """The device names the seats nobody named by their colours (Червоний, Жовтий, Синій, Зелений):
    each of their hands has the hint beside the name. In Ukrainian «{}: поверніть одну» fitted only
    «Синій» (21 columns): Червоний, Жовтий and Зелений read their name alone, and a new player had
    nothing to say what A on a card does."""
    from firmware import i18n
    from firmware.screens.glory.record import SEAT_NAMES
    i18n.set_language(lang)
    try:
        names = [i18n._(n) for n in SEAT_NAMES]
    finally:
        i18n.set_language("en")
    ctx = FakeCtx(f"new glory players={','.join(names)} seed=5", "deal", lang=lang)
    for player in names:
        ctx.open(HandScreen(player))
        title = ctx.texts()[0]
        assert title.startswith(player + ": ") and len(title) <= 21, title
