"""History → "Send the draw record" on the device: the record (``export format=draws``, which
replays the whole game: a Julius Caesar campaign with 300 undos takes 0.05 s here, most of a second
on a Pi Zero 2 W) is made off the main loop by the worker (firmware/worker.py) from what the main
loop read of the card; a page says so meanwhile and keys still answer there; once made it is sent,
byte for byte what the console answers; a refusal is said in a whole sentence and nothing is sent.

The record's maker is made slow (or failing) here: a gate it waits at, opened by the test."""
from __future__ import annotations

import json
import queue
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware import fairness
from firmware.app import App
from firmware.console import reply_json
from firmware.screens.history import HistoryScreen
from firmware.screens.history_draws import DrawsBeingMade
from firmware.screens.widgets import TextScreen
from firmware.worker import Worker
from tests.screens import app_with
from tests.test_storage_damage import _Unreadable

GAME = ["new dice", "roll 2d6", "undo", "roll 2d6", "roll 3d6", "end"]     # (a secret seed: "new" commits)


class Slow:
    """``fairness.draw_record`` held at a gate until the test opens it (or failing with ``fails``),
    noting whether it ran on the main thread."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fails: Exception | None = None) -> None:
        self.real, self.fails = fairness.draw_record, fails
        self.gate, self.started = threading.Event(), threading.Event()
        self.on_main: list[bool] = []
        monkeypatch.setattr(fairness, "draw_record", self)

    def __call__(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.on_main.append(threading.current_thread() is threading.main_thread())
        self.started.set()
        self.gate.wait(5)                 # (on the main loop the key waits here: the test sees it)
        if self.fails is not None:
            raise self.fails
        record: dict[str, Any] = self.real(*args, **kwargs)
        return record


class Flaky(_Unreadable):
    """The store's connection as a failing card gives it (tests/test_storage_damage.py), failing
    only while ``failing`` is set: every read of the fair-draw records fails with EIO."""

    failing = False

    def execute(self, sql: str, *args: Any) -> Any:
        return super().execute(sql, *args) if self.failing else self._db.execute(sql, *args)


def device(state_dir: Path, lang: str = "en") -> tuple[App, queue.Queue[tuple[str]], list[bytes]]:
    """The App as the device runs it: with its worker (waking the loop's queue) and a serial link
    whose lines are kept, its card's reads of the fair-draw records made to fail at will
    (``Flaky``); History open, the cursor on "Send the draw record"."""
    app = app_with(GAME, [], state_dir, lang)
    app.console.store.db = Flaky(app.console.store.db, "fair")
    events: queue.Queue[tuple[str]] = queue.Queue()
    app.worker = Worker(lambda: events.put(("wake",)))
    sent: list[bytes] = []
    app.console.serial_out = sent.append
    screen = HistoryScreen()
    app.push(screen)
    app.render()
    screen.cursor = [i.label for i in screen.items(app)].index(
        {"en": "Send the draw record", "ru": "Запись жребия в порт", "uk": "Запис жеребу в порт"}[lang])
    return app, events, sent


def notice(app: App) -> str:
    """What the device says over History now: the notice, or the page a long one gets."""
    if app.message is not None:
        return " ".join(app.message)
    assert isinstance(app.stack[-2], HistoryScreen) and isinstance(app.stack[-1], TextScreen), app.stack
    return " ".join(app.stack[-1].rows)


def woken(app: App, events: queue.Queue[tuple[str]]) -> None:
    """The loop woken by the worker, and the frame drawn (as firmware/device.py does)."""
    assert events.get(timeout=30) == ("wake",)
    app.render()


def test_a_key_is_answered_while_the_record_is_made_and_the_record_sent_is_the_consoles(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    app, events, sent = device(state_dir)
    try:
        console_line = (reply_json(app.console.request("export format=draws")) + "\n").encode("utf-8")
        slow = Slow(monkeypatch)
        app.handle("a")                                   # Send the draw record
        app.render()
        assert not slow.gate.is_set() and isinstance(app.stack[-1], DrawsBeingMade), \
            "the key waited for the record on the main loop"
        assert slow.started.wait(10) and slow.on_main == [False]
        page = " ".join(app.stack[-1].rows)
        assert "Making the draw record of Dice" in page and "nothing is sent" in page and sent == []
        app.handle("down")                                # a key while it is made: answered at once
        app.render()
        assert isinstance(app.stack[-1], DrawsBeingMade) and app.stack[-1].scroll.top == 1
        slow.gate.set()
        woken(app, events)
        assert isinstance(app.stack[-1], HistoryScreen)
        assert " ".join(app.message or []) == "Sent the draws of: Dice."
        assert sent == [console_line]                     # byte for byte what the console answers
    finally:
        app.console.close()


def test_back_leaves_while_the_record_is_made_nothing_is_sent_and_a_later_press_sends_it_at_once(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    app, events, sent = device(state_dir)
    try:
        slow = Slow(monkeypatch)
        app.handle("a")
        app.render()
        assert slow.started.wait(10)
        app.handle("b")                                   # back: History, nothing waits on the page
        app.render()
        assert isinstance(app.stack[-1], HistoryScreen) and app.message is None
        slow.gate.set()
        woken(app, events)
        assert sent == [] and app.message is None and isinstance(app.stack[-1], HistoryScreen)
        app.handle("a")                                   # again: made already, sent at once
        app.render()
        assert len(sent) == 1 and b'"format":"legatus-draw-record"' in sent[0]
        assert isinstance(app.stack[-1], HistoryScreen) and "Sent the draws of" in " ".join(app.message or [])
        assert slow.on_main == [False]                    # (made once)
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, said", [
    ("en", "Game 1: its draw record could not be made: its stored moves no longer replay."),
    ("ru", "Игра 1: не удалось составить запись жребия: её сохранённые ходы больше не воспроизводятся."),
    ("uk", "Гра 1: не вдалося скласти запис жеребу: її збережені ходи більше не відтворюються."),
])
def test_a_record_that_cannot_be_made_is_said_and_nothing_is_sent(state_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   lang: str, said: str, caplog):
    """A record whose stored moves no longer replay is said in the reader's language, in a sentence
    of its own: the error's English text was put inside the Russian one («…запись жребия (a stored
    line no longer replays).»); the detail goes to the log."""
    app, events, sent = device(state_dir, lang)
    try:
        state = app.console.request("state")
        slow = Slow(monkeypatch, ValueError("a stored line no longer replays"))
        app.handle("a")
        app.render()
        assert isinstance(app.stack[-1], DrawsBeingMade)
        slow.gate.set()
        woken(app, events)
        assert notice(app) == said
        assert any("a stored line no longer replays" in r.getMessage() for r in caplog.records)
        assert sent == [] and not any(isinstance(s, DrawsBeingMade) for s in app.stack) and app.errors == 0
        assert app.console.request("state") == state
    finally:
        app.console.close()


@pytest.mark.parametrize("worker", [True, False])
def test_a_card_that_cannot_read_the_record_is_said_so_never_as_a_game_not_ended(state_dir: Path, worker: bool):
    """QA (faults): a read error of the card on the game's fair-draw record was taken for "no
    record filed": the device and ``export format=draws`` said «Game 1: its draws are shown once
    its session has ended», of a game that had ended. It is the card's failure, said as one, and
    nothing is sent; once the card reads again the record is sent."""
    app, events, sent = device(state_dir)
    if not worker:
        app.worker = None
    card = app.console.store.db
    try:
        card.failing = True
        refused = app.console.request("export format=draws")
        assert refused["error"] == "storage_error", refused
        app.handle("a")
        app.render()
        note = notice(app)
        assert note.startswith("History cannot be read now") and note.endswith("Check the card."), note
        assert "has ended" not in note and sent == [] and not any(isinstance(s, DrawsBeingMade) for s in app.stack)
        card.failing = False
        app.handle("b")                                   # (the notice closes)
        app.render()
        assert isinstance(app.stack[-1], HistoryScreen) and app.message is None
        app.handle("a")
        app.render()
        if worker:
            woken(app, events)
        assert len(sent) == 1 and "Sent the draws of" in " ".join(app.message or [])
    finally:
        app.console.close()


def test_the_serial_links_export_of_the_draw_record_is_made_off_the_loop_and_answered_in_order(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """``export format=draws`` from the laptop on the device's serial link: the record is made by
    the worker too (a key pressed on the device meanwhile is answered at once); the lines sent
    after it are answered after it, each as the console answers it."""
    from firmware.device import Loop
    app, events, sent = device(state_dir)
    try:
        first = (app.console.handle_bytes(b"export format=draws") or "").encode() + b"\n"
        second = (app.console.handle_bytes(b"history 1") or "").encode() + b"\n"
        loop, replies = Loop(app, None), []
        slow = Slow(monkeypatch)
        loop.handle(("line", b"export format=draws", False, replies.append))
        assert slow.started.wait(10) and slow.on_main == [False], "the record was made on the main loop"
        loop.handle(("line", b"history 1", False, replies.append))
        loop.handle(("key", "a"))                             # History → Send the draw record, meanwhile
        assert isinstance(app.stack[-1], DrawsBeingMade) and replies == []
        slow.gate.set()
        while len(replies) < 2:
            assert events.get(timeout=30) == ("wake",)
            loop.handle(("wake",))
        assert replies == [first, second] and b'"format":"draws"' in first
    finally:
        app.console.close()


def test_an_older_ended_games_page_sends_its_own_draw_record(state_dir: Path):
    """History's "Send the draw record" sends the newest ended game's record only, and the seed
    page (Fair draw → Show the seed) sends the players there to check every draw: an earlier game
    of the evening could not be checked from the device. An ended game's page sends its own
    (made off the main loop as History's); a game not ended has no such row."""
    app, events, sent = device(state_dir)
    try:
        for line in ("new caesar-duel seed=5", "new dice", "end"):       # (the duel abandoned: not ended)
            assert app.console.request(line)["ok"], line
        games = app.history(5)
        assert [(g["game"], g["seed"] is not None) for g in games] == [("dice", True), ("caesar-duel", False),
                                                                       ("dice", True)]
        older = games[2]
        app.stack[-1] = screen = HistoryScreen()
        app.render()
        screen.cursor = screen._span[0] + 2                         # the oldest game's row
        app.handle("a")
        app.render()
        assert [i.ident for i in app.stack[-1].items(app)][:1] == ["draws"]    # (a dice session: no play to send)
        app.stack[-1].cursor = 0
        app.handle("a")                                   # Send the draw record
        assert isinstance(app.stack[-1], DrawsBeingMade) and sent == []
        woken(app, events)
        record = json.loads(sent[0])["record"]
        assert record["history_id"] == older["id"] and record["seed"] == older["seed"]
        assert record["actions"] == ["roll 2d6", "roll 3d6", "end"] and record["undone"] == 1
        app.handle("b")
        app.handle("b")
        app.render()
        screen.cursor = screen._span[0] + 1                         # the duel's row
        app.handle("a")
        app.render()
        assert "draws" not in [i.ident for i in app.stack[-1].items(app)]
    finally:
        app.console.close()


def test_an_ended_game_is_never_read_without_its_seed_when_the_card_cannot_read_the_fair_draws(state_dir: Path):
    """QA (faults): a read error of the card on the fair-draw records was taken for "none filed":
    History, ``history``, and every export gave the ended game without its seed, share and
    commitment (the BG Stats play and the CSV said nothing of its fair draw, for good), and History's
    list dropped «Send the draw record», that read kept until the next change on the card. The
    card's failure is said instead, nothing read is kept, and once the card reads again all is there."""
    made, events, sent = device(state_dir)
    card = made.console.store.db
    app = App(made.console)                               # (History not read yet)
    try:
        seed = app.console.session.header["seed"]
        newest = app.console.request("history 1")["games"][0]["id"]
        app.push(HistoryScreen())
        card.failing = True
        for line in ("history 1", f"export format=bgstats id={newest}", "export format=csv"):
            refused = app.console.request(line)
            assert refused["error"] == "storage_error" and refused["message"].endswith("Check the card."), (line, refused)
        app.render()
        assert notice(app).startswith("History cannot be read now")
        app.handle("b")                                   # (the notice closes)
        app.render()
        labels = [i.label for i in app.stack[-1].items(app)]
        assert "History cannot be read…" in labels and "Send the draw record" not in labels and "Dice" not in labels
        card.failing = False
        app.render()
        labels = [i.label for i in app.stack[-1].items(app)]
        assert "Send the draw record" in labels and "Dice" in labels
        assert app.console.request("history 1")["games"][0]["seed"] == seed
        assert str(seed) in app.console.request("export format=csv")["text"]
    finally:
        app.console.close()


def test_a_read_only_card_whose_database_has_no_fair_draws_still_reads_history(state_dir: Path):
    """A database an older Legatus wrote has no fair-draw table, and on a read-only card it cannot
    be made: History reads as it did (its games without a fair draw), never as a card's failure."""
    app, events, sent = device(state_dir)
    card = app.console.store.db
    real = card._db

    class ReadOnly(Flaky):
        def execute(self, sql: str, *args: Any) -> Any:
            if sql.lstrip().upper().startswith("CREATE"):
                raise sqlite3.OperationalError("attempt to write a readonly database")
            return real.execute(sql, *args)
    try:
        real.execute("DROP TABLE fair")
        app.console.store.db = ReadOnly(real, "fair")
        games = app.console.request("history 1")["games"]
        assert games[0]["game"] == "dice" and games[0]["seed"] is None
        refused = app.console.request("export format=draws")
        assert refused["error"] == "bad_arguments" and "once its session has ended" in refused["message"], refused
    finally:
        app.console.store.db = card
        app.console.close()


@pytest.mark.parametrize("key", ["b", "a", "down"])
def test_a_key_pressed_as_the_record_is_done_acts_on_the_page_it_was_pressed_on(state_dir: Path,
                                                                               monkeypatch: pytest.MonkeyPatch, key: str):
    """The record made, before the loop drew the frame that sends it, a key on the page: the App
    tells the page it is on top first (it sends the record and goes), and the key went to the page
    gone: B took History off too (the main menu came, History's place lost)."""
    app, events, sent = device(state_dir)
    try:
        slow = Slow(monkeypatch)
        app.handle("a")
        app.render()
        slow.gate.set()
        assert events.get(timeout=30) == ("wake",)        # (not drawn yet)
        app.handle(key)
        app.render()
        assert isinstance(app.stack[-1], HistoryScreen) and len(app.stack) == 2
        assert len(sent) == 1 and notice(app) == "Sent the draws of: Dice."
    finally:
        app.console.close()


def test_the_page_is_said_again_in_a_new_language_and_still_sends_the_record_once(state_dir: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch):
    """A ``settings language=uk`` from the serial link while the record is made: the page is made
    again in Ukrainian (not left in English, nor taken off), and the record is made once and sent."""
    app, events, sent = device(state_dir)
    try:
        slow = Slow(monkeypatch)
        app.handle("a")
        app.render()
        assert app.serve_line(b"settings language=uk") is not None
        app.render()
        page = app.stack[-1]
        assert isinstance(page, DrawsBeingMade) and page.title == "Запис жеребу"
        assert " ".join(page.rows).startswith("Складається запис жеребу: Кубики…")
        slow.gate.set()
        woken(app, events)
        assert len(sent) == 1 and slow.on_main == [False] and notice(app) == "Надіслано жереб гри: Кубики."
    finally:
        app.console.close()


def test_a_record_made_while_the_panel_is_asleep_is_sent_without_a_key(state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """The record finished while the panel was asleep (screen off after idle) waited for a key to
    wake it before it was sent: the loop drew no frame, so the page never asked. The serial line
    needs no screen: it is sent when it is made; the notice waits for the waking key."""
    from firmware.device import Loop

    class Panel:
        def __init__(self) -> None:
            self.frames: list[Any] = []

        def show(self, img: Any) -> None:
            self.frames.append(img)

        def blank(self, blanked: bool, img: Any) -> None:
            pass

        def contrast(self, level: int) -> None:
            pass
    app, events, sent = device(state_dir)
    try:
        console_line = (reply_json(app.console.request("export format=draws")) + "\n").encode("utf-8")
        panel = Panel()
        loop = Loop(app, panel, None)
        slow = Slow(monkeypatch)
        loop.handle(("key", "a"))                          # Send the draw record
        assert isinstance(app.stack[-1], DrawsBeingMade) and slow.started.wait(10)
        loop.blanked = True                                 # the panel asleep meanwhile
        shown = len(panel.frames)
        slow.gate.set()
        loop.handle(events.get(timeout=30))                 # the worker's wake
        assert sent == [console_line] and len(panel.frames) == shown      # sent; nothing drawn
        assert isinstance(app.stack[-1], HistoryScreen) and " ".join(app.message or []) == "Sent the draws of: Dice."
        loop.handle(("key", "down"))                        # wakes the panel: the notice is shown
        assert not loop.blanked and sent == [console_line]
    finally:
        app.console.close()
