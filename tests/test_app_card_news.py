"""The card's news raised mid-run is said on the panel, not only to a console player: the device
showed the store's notes at start only and ``App.run`` ignored ``recovered``, so saved games
deleted from the card under a running device and written back were said nowhere on the panel
(found deleting the state directory mid-game and pressing an action)."""
import shutil

from firmware.app_card import CardNote
from firmware.device import Loop
from tests.screens import app_with
from tests.test_device_loop import Recorder, _serial

WRITTEN_BACK_RU = ("Сохранённые игры удалили с карты во время работы Legatus; они записаны обратно — "
                   "все игры и История, как были.")


def _text(screen) -> str:
    return " ".join(" ".join(row.split()) for row in screen.rows)


def test_games_written_back_by_a_key_are_said_once_in_the_players_language(state_dir):
    app = app_with(["new dice seed=1"], ["a", "a"], state_dir, lang="ru")     # the dice, rolled once
    try:
        lines = len(app.console.session.lines)
        shutil.rmtree(state_dir)
        app.render()
        app.handle("a")                                  # roll again: the change writes the games back
        assert len(app.console.session.lines) == lines + 1
        top = app.stack[-1]
        assert isinstance(top, CardNote) and top.title == "Сообщение"
        assert _text(top) == WRITTEN_BACK_RU                      # the whole sentence, in Russian
        assert app.console.request("settings language=uk")["ok"]     # (the serial link): said again in it
        app.render()
        top = app.stack[-1]
        assert isinstance(top, CardNote) and _text(top).startswith("Збережені ігри") and top.title != "Сообщение"
        assert app.console.request("settings language=ru")["ok"]
        app.render()
        for _ in range(10):                              # A reads the note to its end and closes it
            if not isinstance(app.stack[-1], CardNote):   # (docs/keys.md), and does nothing else
                break
            app.handle("a")
            app.render()
        assert not isinstance(app.stack[-1], CardNote) and len(app.console.session.lines) == lines + 1
        app.render()
        app.handle("a")                                  # the next change: never said twice
        assert len(app.console.session.lines) == lines + 2 and not isinstance(app.stack[-1], CardNote)
        assert app.errors == 0
    finally:
        app.console.close()


def test_games_written_back_by_the_serial_link_while_the_panel_sleeps_wait_for_it(state_dir):
    """The panel asleep, a line from the serial link writes the games back (then puts another game
    in play, which takes the game's screens off): the waking key shows the note, said once."""
    clock = [0.0]
    app = app_with(["settings screen_off=30", "new dice seed=1"], ["a"], state_dir)
    out = Recorder()
    loop = Loop(app, out, None, clock=lambda: clock[0])
    try:
        loop.redraw()
        clock[0] = 31
        loop.tick()
        assert out.blanks == [True]
        shutil.rmtree(state_dir)
        assert b'"ok":true' in _serial(loop, "roll 2d6")
        assert b'"ok":true' in _serial(loop, "new dice seed=2")
        loop.handle(("key", "b"))                    # wakes only: the note is what it shows
        assert out.blanks == [True, False]
        notes = [s for s in app.stack if isinstance(s, CardNote)]
        assert len(notes) == 1 and app.stack[-1] is notes[0]
        assert "were written back" in _text(notes[0])
        assert app.message is not None and "serial link" in " ".join(app.message)   # (its own box over it)
        loop.handle(("key", "b"))
        assert app.message is None and app.stack[-1] is notes[0]
        loop.handle(("key", "b"))
        assert not any(isinstance(s, CardNote) for s in app.stack)
        assert b'"ok":true' in _serial(loop, "roll 2d6")
        assert not any(isinstance(s, CardNote) for s in app.stack) and app.errors == 0
    finally:
        app.console.close()


def test_a_note_the_refusal_on_screen_says_is_not_said_again():
    """An older action's record found damaged when an undo needed it: the refusal on screen says it
    and the store keeps it as its note (``recovered``); a page of its own would say it twice. A
    note that goes (a ``new``) and comes back is news again."""
    from engine.text import Msg
    from firmware.app_card import CardNews
    from firmware.i18n import say
    from firmware.storage import Recovery
    damaged = Msg("The record of an older action (row {}) is damaged: undo cannot go back past it and the "
                  "actions before it cannot be shown. It is kept for a bug report.", 3)
    back = Msg("The saved games were deleted from the card while Legatus ran; they were written back, "
               "every game and History as they were.")
    news = CardNews(None)
    news.heard(Recovery.of([damaged]), say(damaged))
    assert news.take() == []
    news.heard(Recovery.of([damaged, back]))
    assert news.take() == [back]
    news.heard(Recovery.of([damaged, back]))
    assert news.take() == []
    news.heard(None)
    news.heard(Recovery.of([back]))
    assert news.take() == [back]
