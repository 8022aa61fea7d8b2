"""Keys at random with faults injected at the same time, as the product will be tried: the in-step
checker's walks (tests/test_in_step.py: keys, undo, serial lines, restarts, a power cut in the
middle of a key) in every game and tool and in each language, driven through the device loop onto
a panel (tests/test_hw_hotplug.py's I2C board), while

- the card refuses writes (ENOSPC, EROFS, EIO: at any write, at the commit, or an error reported by
  a commit that landed) and comes back;
- the panel stops answering (OSError from the bus), at once or in the middle of a frame, and comes
  back;
- the serial link sends garbage, half lines, over-long lines, a ``new`` or an ``undo`` while a
  screen is open;
- the wall clock jumps back or forward.

After every step: no screen error; the screen shows what a fresh program on the stored session
shows; the session in memory is the stored one (nothing acknowledged lost, nothing refused kept);
a write refused by the card is said (a notice or an error reply); the panel holds the frame once it
answers. The keys come as key events, or (``test_random_edges_with_faults``) as the raw edges of
the joystick and buttons through the key filter: bounce, glitches, diagonals, holds and repeats, the
panel blanked when idle. Seeds make a failure reproducible: ``RANDOM_FAULTS_SEEDS=N`` plays seeds
1..N-1 (``RANDOM_FAULTS_FROM=M``: M..N-1), ``RANDOM_FAULTS_STEPS`` sets the steps of each run.
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware import i18n
from firmware.device import Loop
from firmware.hardware import PanelOutput
from hw.config import DisplayConfig
from hw.display import open_display
from hw.keys import KeyFilter
from tests import test_hw_hotplug, test_in_step
from tests.test_hw_hotplug import Board, Clock
from tests.test_hw_panel import same
from tests.test_in_step import GAMES, KEYS, Checker
from tests.test_no_clipped_text import caller, frame_faults

board = test_hw_hotplug.board                      # the fixtures this file uses from those
built_with, same_results = test_in_step.built_with, test_in_step.same_results

ERRORS = {"ENOSPC": "database or disk is full", "EROFS": "attempt to write a readonly database",
          "EIO": "disk I/O error"}
WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE|COMMIT|CREATE|DROP|ALTER)\b", re.I)
GARBAGE = [b"\xff\xfe\x00garbage", b"roll 2d", b"fame", b"\x1b[A\x1b[B", b"new caesar-solo seed=",
           b"undo undo", b"state extra", b"settings language=xx", b"x" * 5000, b"\r", b"roll 2d6\x00",
           "fame Ваня +1".encode("cp1251"), b"new", b"kit draw 99", b"end-round 3",
           # a terminal's editing keys (the console applies them: Backspace as DEL or BS, Ctrl-U, Ctrl-C)
           b"roll 2d6\x7f\x7f\x7f", b"\x15", b"undo\x03", b"stat\x08\x08ate", "fame Ваня\x7f\x7f +1".encode(),
           b"\x1b[D\x7f", b"rolk\x7fl 2d6\r"]


class Card:
    """The SD card under the live program's state directory: writes refused while ``fault`` is set."""

    def __init__(self) -> None:
        self.root: Path | None = None
        self.fault: str | None = None
        self.where = "any"               # any write, the COMMIT only, or "landed" (COMMIT done, then EIO)
        self.refused = 0
        self.last = ""                   # the last write refused
        self.landed = 0                  # commits reported failed that landed (never refusals)


class FaultyDb:
    """A sqlite3 connection whose writes fail as the card says."""

    def __init__(self, db: sqlite3.Connection, card: Card) -> None:
        self._db, self._card = db, card

    def _fault(self, sql: str) -> bool:
        c = self._card
        if sql.strip().upper().startswith("BEGIN"):
            self._begun, self._first = self._db.total_changes, ""
        if not WRITE.match(sql) or "IF NOT EXISTS" in sql.upper():
            return False                 # (a table made if missing: no write when it is there)
        commit = sql.strip().upper().startswith("COMMIT")
        if not commit and not getattr(self, "_first", "x"):
            self._first = sql.strip()[:60]   # the transaction's first write: what a refused COMMIT refuses
        if c.fault is None:
            return False
        if commit and self._db.total_changes == getattr(self, "_begun", -1):
            return False                 # a transaction that changed nothing writes nothing at its COMMIT
        if c.where == "landed":
            return commit
        if c.where == "commit" and not commit:
            return False
        c.last = f"{self._first} (at its COMMIT)" if commit and getattr(self, "_first", "") else sql.strip()[:60]
        raise sqlite3.OperationalError(ERRORS[c.fault])

    def execute(self, sql: str, *args: Any) -> Any:
        if self._fault(sql):                 # "landed": the commit is made, then reported failed
            self._db.execute(sql, *args)
            self._card.landed += 1
            raise sqlite3.OperationalError(ERRORS["EIO"])
        return self._db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> Any:
        self._fault(sql)
        return self._db.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


@pytest.fixture
def card(monkeypatch: pytest.MonkeyPatch) -> Card:
    from firmware.store.connection import Connection
    c = Card()
    original = Connection._open_file

    def open_file(self: Connection, path: Path) -> Any:
        db = original(self, path)
        if c.root is not None and Path(path).parent == c.root:
            return FaultyDb(db, c)
        return db
    monkeypatch.setattr(Connection, "_open_file", open_file)
    failure = Connection._failure

    def refused(e: sqlite3.Error) -> Any:     # a StorageError follows: the change was refused
        c.refused += 1
        return failure(e)
    monkeypatch.setattr(Connection, "_failure", staticmethod(refused))
    return c


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The wall clock, shifted by ``wall[0]`` seconds (time.time and History's dates)."""
    import datetime as dt

    import firmware.history as history
    shift = [0.0]
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + shift[0])

    class Shifted(dt.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:  # type: ignore[override]
            return dt.datetime.fromtimestamp(real() + shift[0], tz)

    class Module:
        datetime = Shifted
        timezone = dt.timezone
        timedelta = dt.timedelta
        date = dt.date
    monkeypatch.setattr(history, "_dt", Module)
    return shift


class FaultChecker(Checker):
    def __init__(self, game: str, seed: int, root: Path, lang: str, card: Card, board: Board,
                 wall: list[float]) -> None:
        super().__init__(game, seed, root, lang)
        self.rng.seed(f"{game}-{lang}-{seed}")
        self.card, self.board, self.wall = card, board, wall
        card.root = self.state_dir.resolve()
        self.clock = Clock()
        self.faults: dict[str, int] = {}
        self._loop()
        # (the App already open keeps its unwrapped connection: the first restart wraps it)

    def _loop(self) -> None:
        cfg = DisplayConfig()
        self.out = PanelOutput(lambda: open_display(cfg), device=None, error="not yet", clock=self.clock)
        self.loop = Loop(self.app, self.out, clock=self.clock, parts=self.out)
        self.loop.poll_parts()
        self.loop.redraw()

    def count(self, what: str) -> None:
        self.faults[what] = self.faults.get(what, 0) + 1

    # steps through the loop (its redraw goes to the panel)
    def key(self) -> None:
        k = self.rng.choice(KEYS + ["key3", "press"])
        self.done.append(k)
        before, shown = self.card.refused, type(self.app.stack[-1]).__name__
        self.loop.handle(("key", k))
        if self.card.refused > before:
            self.check_said(shown)

    def check_said(self, shown: str) -> None:
        """A write the card refused during a key on the screen ``shown`` is said on the screen."""
        app = self.app
        top = app.stack[-1]
        if self.card.last.startswith("DELETE FROM settings") and shown in ("TurnScreen", "SetupForm", "NumberForm",
                                                                          "Announcement", "BattleResult"):
            return          # how far a Caesar! turn was read (caesar.read), a form's choices remembered
            #                 (figure.remember), a Julius Caesar announcement closed (jc.read), a Sword
            #                 battle result closed (sword.battle): said again at the next start; kept when
            #                 they can be, else logged (the action is said)
        notes = {i18n.catalog(lang).gettext("Note") for lang in i18n.LANGUAGES}     # a long notice's page
        said = (app.message is not None or type(top).__name__ == "ErrorScreen"
                or (type(top).__name__ == "TextScreen" and getattr(top, "title", "") in notes))
        assert said, (f"the card refused a write ({self.card.fault}) after {self.done[-12:]} and nothing said so "
                      f"({self.card.last!r}; on {shown}, now {type(top).__name__})")
        self.count("refusals said")

    def restart(self) -> None:
        super().restart()
        self._loop()

    def crash(self) -> None:
        app = self.app
        super().crash()
        if self.app is not app:
            self._loop()

    def line(self) -> None:
        view = self.app.console.session.view() if self.app.console.session else {}
        text = "undo" if self.rng.random() < 0.2 else self.serial(self.rng, view, self.app.console)
        self.done.append(f"serial {text}")
        replies: list[bytes] = []
        self.loop.handle(("line", text.encode(), False, replies.append))
        reply = json.loads(replies[0]) if replies else None
        if reply is not None and not reply.get("ok"):
            assert reply.get("error") != "internal_error", (text, reply)

    # the faults
    def storage(self) -> None:
        if self.card.fault is None:
            self.card.fault = self.rng.choice(list(ERRORS))
            self.card.where = self.rng.choice(["any", "any", "commit", "landed"])
            self.done.append(f"card {self.card.fault} at {self.card.where}")
            self.count(f"card {self.card.fault}")
        else:
            self.card.fault = None
            self.done.append("card back")

    def panel(self) -> None:
        if self.board.plugged:
            after = self.rng.choice([0, 0, 1, 3, 8])          # at once, or in the middle of a frame drawn later
            self.board.unplug(after)
            self.done.append(f"panel off after {after} transfers")
            self.count("panel off" if not after else "panel off mid-frame")
        else:
            self.board.plug()
            self.done.append("panel back")
            self.clock.t += max(PanelOutput.RETRY, PanelOutput.PROBE)    # a panel that lost power while idle:
            self.loop.poll_parts()                                        # its check sets it up again

    def garbage(self) -> None:
        raw = self.rng.choice(GARBAGE)
        cut = self.rng.choice([None, None, max(1, len(raw) // 2)])
        if cut is not None:
            raw = raw[:cut]
        too_long = len(raw) > 4096
        self.done.append(f"serial garbage {raw[:20]!r}")
        self.count("garbage")
        replies: list[bytes] = []
        state = self.app.console.session.state_json if self.app.console.session else None
        self.loop.handle(("line", raw, too_long, replies.append))
        if replies:
            reply = json.loads(replies[0])
            assert reply.get("error") != "internal_error", (raw, reply)
            if not reply.get("ok"):
                now = self.app.console.session.state_json if self.app.console.session else None
                assert now == state, f"refused garbage {raw[:40]!r} changed the game"

    def other_session(self) -> None:
        """A ``new`` game or an ``undo`` over the serial link while a screen is open."""
        text = self.rng.choice(["new dice seed=4", "new glory players=Ana,Bo seed=2", "undo", "undo",
                                "new bag items=gold*2,silver cards=ace*2 seed=5", "new sword players=romans,gauls seed=1",
                                "new caesar-duel seed=6", "new jc-battle seed=3", "end"])
        self.done.append(f"serial {text}")
        self.count("serial new/undo")
        replies: list[bytes] = []
        self.loop.handle(("line", text.encode(), False, replies.append))
        assert json.loads(replies[0]).get("error") != "internal_error", (text, replies)

    def choose(self, label: str) -> bool:
        """Down to the row ``label`` (its translation) of the list shown, then A."""
        top = self.app.stack[-1]
        if not hasattr(top, "items"):
            return False
        for _ in range(15):
            items = top.items(self.app)
            from firmware import history_text
            if items[min(top.cursor, len(items) - 1)].label in (i18n._(label), history_text._(label)):
                self.loop.handle(("key", "a"))
                return True
            self.loop.handle(("key", "down"))
        return False

    def tool(self) -> None:
        """Open History, Statistics, Settings or Earlier games from the main menu by keys."""
        path = self.rng.choice([["History"], ["History", "Statistics"], ["Settings"], ["Games", "Earlier games…"],
                                ["History", "Players"], ["History", "Fair draw"]])
        self.done.append(f"tool {'/'.join(path)}")
        self.count("tools")
        for _ in range(10):
            if type(self.app.stack[-1]).__name__ == "MainMenu" or self.app.message is not None:
                break
            self.loop.handle(("key", "b"))
        if self.app.message is None:
            for label in path:
                if not self.choose(label):
                    break

    def clock_jump(self) -> None:
        jump = self.rng.choice([-86400 * 400, -3600, -60, 60, 3600 * 5, 86400 * 30])
        self.wall[0] += jump
        self.clock.t += abs(jump) if self.rng.random() < 0.5 else 0.5
        self.done.append(f"clock {jump:+d}")
        self.count("clock jump")
        self.loop.tick()
        self.loop.poll_parts()

    def step(self) -> None:
        r = self.rng.random()
        if r < 0.05:
            self.storage()
        elif r < 0.08:
            self.panel()
        elif r < 0.12:
            self.garbage()
        elif r < 0.14:
            self.clock_jump()
        elif r < 0.15:
            self.other_session()
        elif r < 0.18:
            self.tool()
        else:
            super().step()
            return
        self.app.render()
        self.check()

    def check(self) -> None:
        super().check()
        faults = frame_faults(self.app)
        assert not faults, f"{sorted(faults)} after {self.done[-12:]}"
        self.loop.redraw()
        if self.board.plugged and self.out.connected and not self.loop.blanked:
            assert same(self.board.ctl.panel(), self.app.render()), f"the panel is not the frame after {self.done[-12:]}"


DIAGONALS = [("up", "right"), ("right", "down"), ("down", "left"), ("left", "up")]
BUTTONS = ["a", "b", "press", "key3"]


class EdgeChecker(FaultChecker):
    """The keys as the hardware gives them: raw edges (contact bounce, a glitch, a diagonal's two
    contacts a few ms apart, a direction held while a button is clicked, holds and repeats)
    through hw.keys.KeyFilter into the device loop, with the idle blanking on at times."""

    def _loop(self) -> None:
        super()._loop()
        self.loop.keyfilter = KeyFilter()

    def key(self) -> None:
        rng, dirs = self.rng, ["up", "down", "left", "right"]
        r = rng.random()
        if r < 0.45:
            k, held = rng.choice(dirs + BUTTONS), rng.choice([0.05, 0.1, 0.3, 0.6, 0.9, 1.5])
            edges, label = self._press(k, 0.0, held), f"{k} {held}s"
        elif r < 0.6:
            (k, k2), held, gap = rng.choice(DIAGONALS), rng.choice([0.1, 0.6, 1.2]), rng.choice([0, 0.004, 0.008, 0.015])
            edges, label = self._press(k, 0.0, held) + self._press(k2, gap, held - rng.choice([0, 0.05])), f"{k}+{k2} {held}s"
        elif r < 0.7:
            k, k2 = rng.choice(dirs), rng.choice(BUTTONS)
            edges, label = self._press(k, 0.0, rng.choice([0.5, 1.0, 2.0])) + self._press(k2, 0.2, 0.1), f"{k} held, {k2}"
        elif r < 0.8:
            k = rng.choice(dirs + BUTTONS)
            edges, label = [(0.0, k, True), (0.005, k, False)], f"{k} glitch"      # shorter than the debounce
        elif r < 0.85:
            off = rng.choice(["30", "off"])
            self.done.append(f"serial settings screen_off={off}")
            self.loop.handle(("line", f"settings screen_off={off}".encode(), False, lambda _: None))
            return
        else:                                         # idle: blanked when screen_off is set (any key wakes it)
            self.clock.t += rng.choice([5, 31, 120])
            self.done.append("idle")
            self.loop.tick()
            return
        self.done.append(label)
        t0, t, i = self.clock.t, 0.0, 0
        edges.sort()
        while i < len(edges) or t <= edges[-1][0] + 0.1:          # the loop ticks as the device's does
            while i < len(edges) and edges[i][0] <= t:
                self.clock.t = t0 + edges[i][0]
                self._said(("edge", edges[i][1], edges[i][2], t0 + edges[i][0]))
                i += 1
            self.clock.t = t0 + t
            self._said(None)
            t += rng.choice([0.01, 0.03, 0.05, 0.2])

    def _press(self, k: str, at: float, held: float) -> list[tuple[float, str, bool]]:
        edges = [(at, k, True), (at + held, k, False)]
        if self.rng.random() < 0.3:                   # contact bounce at the press and the release
            for x in (at + self.rng.uniform(0, 0.015) for _ in range(self.rng.randint(1, 4))):
                edges += [(x, k, False), (x + 0.001, k, True)]
            for x in (at + held + self.rng.uniform(0, 0.015) for _ in range(self.rng.randint(0, 3))):
                edges += [(x, k, True), (x + 0.001, k, False)]
        return edges

    def _said(self, edge: tuple[Any, ...] | None) -> None:
        """An edge (or a tick), then: a write the card refused is said at once (a notice the
        next key closes was said)."""
        before, shown = self.card.refused, type(self.app.stack[-1]).__name__
        self.loop.handle(edge) if edge else self.loop.tick()
        if self.card.refused > before:
            self.check_said(shown)

    def check(self) -> None:
        if self.loop.blanked:                         # a key wakes it (and does nothing else)
            self.loop.key("b")
            self.done.append("woken")
        super().check()


@pytest.fixture
def cut(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, str, int], str]:
    """Every text the screens cut with '…' (``base.clip``; a typed name's ``clip_name`` is not counted)."""
    from firmware.screens import base
    cuts: dict[tuple[str, str, int], str] = {}
    clip = base.clip

    def recording(text: str, width: int = base.COLS) -> str:
        out = clip(text, width)
        if out != text:
            cuts.setdefault((i18n.language(), text, width), caller())
        return out
    monkeypatch.setattr(base, "clip", recording)
    return cuts


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _play(game: str, seed: int, lang: str, steps: int, tmp_path: Path, card: Card, board: Board,
          wall: list[float], kind: type[FaultChecker] = FaultChecker) -> FaultChecker:
    checker = kind(game, seed, tmp_path, lang, card, board, wall)
    try:
        checker.restart()                     # the live program's connection on the faulty card
        checker.check()
        for _ in range(steps):
            try:
                checker.step()
            except AssertionError:
                print("steps:", checker.done, "card:", card.fault, card.where)
                raise
        if os.environ.get("RANDOM_FAULTS_REPORT"):
            print(game, lang, seed, sorted(checker.faults.items()), len(checker.done), sorted(checker.visited.items()))
    finally:
        card.fault = None
        checker.app.console.close()
    return checker


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(int(os.environ.get("RANDOM_FAULTS_FROM", "1")),
                                       int(os.environ.get("RANDOM_FAULTS_SEEDS", "3"))))
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_keys_with_faults(game: str, lang: str, seed: int, tmp_path: Path, built_with: None,
                                 same_results: dict, card: Card, board: Board, wall: list[float],
                                 cut: dict[tuple[str, str, int], str]) -> None:
    checker = _play(game, seed, lang, int(os.environ.get("RANDOM_FAULTS_STEPS", "150")), tmp_path, card, board, wall)
    assert checker.faults, "no fault was injected"
    assert not cut, "texts cut with '…':\n" + "\n".join(f"  {lg} w={w} {text!r} ({where})"
                                                         for (lg, text, w), where in sorted(cut.items()))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(int(os.environ.get("RANDOM_FAULTS_FROM", "1")),
                                       int(os.environ.get("RANDOM_FAULTS_SEEDS", "2"))))
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_edges_with_faults(game: str, lang: str, seed: int, tmp_path: Path, built_with: None,
                                  same_results: dict, card: Card, board: Board, wall: list[float],
                                  cut: dict[tuple[str, str, int], str]) -> None:
    """The same with the keys as raw edges of the joystick and buttons (:class:`EdgeChecker`)."""
    checker = _play(game, seed, lang, int(os.environ.get("RANDOM_FAULTS_STEPS", "100")), tmp_path, card, board,
                    wall, EdgeChecker)
    assert checker.faults, "no fault was injected"
    assert not cut, "texts cut with '…':\n" + "\n".join(f"  {lg} w={w} {text!r} ({where})"
                                                         for (lg, text, w), where in sorted(cut.items()))


def test_a_history_commit_that_landed_and_reported_an_error_counts_as_done(tmp_path: Path, card: Card) -> None:
    """``end`` of a game with a fair-draw commitment while the card's commits land and report an
    error (``landed``: the directory's fsync failing after the commit point). The action counted as
    saved (its row was asked for), but History's row and the fair-draw record (transactions with
    no ``landed`` query) did not: History on the device showed the game without its seed until the
    next start or ``state``. Now the file's change counter says the commit landed."""
    import shutil

    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    from tests.screens import app_with
    d = tmp_path / "state"
    app_with(["new dice", "roll 2d6"], [], d).console.close()
    card.root = d.resolve()
    store = Store(d)
    app = App(Console(store, store.resume()))
    try:
        card.fault, card.where = "EIO", "landed"
        reply = json.loads(app.serve_line(b"end") or "{}")
        card.fault = None
        assert reply["ok"] and reply["ended"] == "ended"
        fresh_dir = tmp_path / "fresh"
        shutil.copytree(d, fresh_dir, ignore=shutil.ignore_patterns("lock"))
        fresh_store = Store(fresh_dir)
        fresh = App(Console(fresh_store, fresh_store.resume()))
        try:
            want = [e.get("seed") for e in fresh.history() or []]
        finally:
            fresh.console.close()
        assert want and want[0] is not None
        assert [e.get("seed") for e in app.history() or []] == want
    finally:
        app.console.close()
