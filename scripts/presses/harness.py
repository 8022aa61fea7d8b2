"""Drive the real App with keys, count the presses of each task, and read every screen shown.

A task script (scripts/presses/<game>.py) plays a game as a person at the table would: only device
keys count as presses; what happens on the physical board (the other player's pieces, dice thrown
by hand) is entered through the device too when the device asks for it. ``Driver.run`` is only for
setting up a position the task does not measure (it is not counted, and is reported as such).

Every frame drawn during a task is checked (see :meth:`Driver.check`): a text row wider than the
panel, console syntax or an internal id on screen, or a glyph the font lacks is a *problem*,
collected in ``Driver.problems`` (tests/test_presses.py fails on any).
"""
from __future__ import annotations

import re
import tempfile
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from firmware.screens import base

# Console syntax or internal ids a person must never see on a screen.
# (``new <game>`` counts with an argument after it, ``new bag items=…``, ``new dice [seed=N]``: «starts a
# new bag or deck» is English, not a console line)
CONSOLE_SYNTAX = re.compile(
    r"(\b[a-z]+=[^\s]*|\bjc-battle\b|\bcaesar-solo\b|\bcaesar-duel\b|\bsword-[a-z]+\b|"
    r"[a-z]+:\d+/\d+|\bnew [a-z-]+ (?=[a-z]+=|\[)|[{}\[\]]|\b[a-z]+_[a-z0-9_]+\b)")


def moves(cursor: int, to: int) -> tuple[str, int]:
    """The key and the number of presses that take a list's cursor from row ``cursor`` to row
    ``to`` (lists stop at their ends: no way round)."""
    return ("down", to - cursor) if to >= cursor else ("up", cursor - to)


class Driver:
    """One App over a fresh state directory, speaking ``lang``."""

    def __init__(self, lang: str = "en", state_dir: Path | None = None, seed: int | None = None) -> None:
        """``seed``: games the device starts (with secret seeds) draw them from a generator with
        this seed, so a scripted run is repeatable; None keeps the operating system's."""
        import firmware.console_session as console_module      # where the console's fresh seeds come from
        from firmware.app import App
        from firmware.console import Console
        from firmware.store import Store
        self._fresh_seed = console_module._fresh_seed
        if seed is not None:
            import random
            secret = random.Random(seed)
            console_module._fresh_seed = lambda: secret.getrandbits(64)
        self._tmp = None
        if state_dir is None:
            self._tmp = tempfile.TemporaryDirectory()
            state_dir = Path(self._tmp.name)
        self.store = Store(state_dir)
        self.console = Console(self.store, self.store.resume())
        assert self.console.request(f"settings language={lang}")["ok"]
        self.app = App(self.console)
        self.lang = lang
        self.presses = 0
        self.results: dict[str, list[int]] = defaultdict(list)
        self.problems: list[str] = []
        self.frames = 0
        self.check()

    def restart(self) -> None:
        """The power goes and comes back: the console is dropped without a word and the device
        program starts again on the same state directory (a new App: the main menu)."""
        from firmware.app import App
        from firmware.console import Console
        from firmware.store import Store
        self.console.close()
        self.store = Store(self.store.root)
        self.console = Console(self.store, self.store.resume())
        self.app = App(self.console)
        self.check()

    # -- input -----------------------------------------------------------------------------------
    def press(self, key: str, n: int = 1) -> None:
        """Press ``key`` ``n`` times (each counts), checking the screen after each. A on a yes/no
        question is the task's yes: a question longer than its rows takes one A a page until its
        last rows show (docs/keys.md), each counted, so the script says yes as a player does."""
        from firmware.screens.widgets import ConfirmScreen
        for _ in range(n):
            question = self.top if key == "a" and isinstance(self.top, ConfirmScreen) else None
            for _page in range(40):
                self.app.handle(key)
                self.presses += 1
                self.check()
                if question is None or self.top is not question:
                    break

    def read_notice(self) -> None:
        """A on a notice until it is closed, each press counted: a box of up to four rows closes
        with it, a longer one (a «Note» text) shows its next page with each A and closes on the last
        (docs/keys.md: nothing is closed unread). Fails if no notice is up."""
        from firmware.screens.widgets import TextScreen
        assert self.app.message is not None or isinstance(self.top, TextScreen), type(self.top).__name__
        if self.app.message is not None:
            self.press("a")
            return
        note = self.top
        for _ in range(40):
            self.press("a")
            if self.top is not note:
                return
        raise RuntimeError(f"the notice never closed: {self.screen()}")

    def close_code_box(self) -> None:
        """A new-game form shows the fair-draw code (large, to photograph) over its first frame; the
        form's first key closes it and acts on the form too (its cursor row shows above the box:
        docs/keys.md), so nothing is pressed here. Fails if no box is shown, or if the first key
        would only close it (it would cost a press the task does not count)."""
        assert self.app.commitment is not None, f"no fair-draw code box over {type(self.top).__name__}"
        self.app.render()
        assert not self.app.closes_only(), f"the code box over {type(self.top).__name__} takes a key of its own"

    def run(self, line: str) -> dict[str, Any]:
        """A console line, NOT counted (set-up that is not part of the measured task)."""
        response = self.console.request(line)
        self.app._view_stale = True
        return response

    def view(self) -> dict[str, Any]:
        """The running session's view (what ``state`` answers); there must be a session."""
        session = self.console.session
        assert session is not None, "no session"
        return session.view()

    @property
    def top(self) -> Any:
        return self.app.stack[-1]

    def items(self) -> list[Any]:
        """The items of the top screen if it is a list (label/value strings)."""
        items = getattr(self.top, "items", None)
        return items(self.app) if callable(items) else []

    def select(self, label: str | re.Pattern[str], key: str = "a") -> None:
        """Move the cursor of the top list to the first item whose label matches ``label`` (lists
        do not wrap: straight up or down) and press ``key``; every move counts. Raises LookupError
        if absent."""
        items = self.items()
        pat = label if isinstance(label, re.Pattern) else re.compile(re.escape(label), re.I)
        for i, item in enumerate(items):  # noqa: B007 - i is the match, used below
            if pat.search(str(item.label)):
                break
        else:
            raise LookupError(f"no item {label!r} on {type(self.top).__name__}: "
                              f"{[str(x.label) for x in items]}")
        self.press(*moves(getattr(self.top, "cursor", 0), i))
        self.press(key)

    # -- measuring ---------------------------------------------------------------------------------
    @contextmanager
    def task(self, name: str) -> Iterator[None]:
        """Count the presses made inside the block as one occurrence of task ``name``."""
        start = self.presses
        yield
        self.results[name].append(self.presses - start)

    # -- reading the screen ------------------------------------------------------------------------
    def texts(self) -> list[tuple[int, int, str, str]]:
        """Every text the current frame draws: (x, y, text, font kind)."""
        base.TRACE = []
        try:
            self.app.render()
            return list(base.TRACE)
        finally:
            base.TRACE = None

    def screen(self) -> str:
        """The current frame's texts, top to bottom, one per line."""
        return "\n".join(t for _, _, t, _ in sorted(self.texts(), key=lambda r: (r[1], r[0])))

    def check(self) -> None:
        """Record a problem for every row wider than the panel, console syntax or missing glyph."""
        self.frames += 1
        where = type(self.top).__name__
        for x, _y, t, kind in self.texts():
            if not t.strip():
                continue
            right = x + len(t) * base.advance(kind)
            if right > base.W + 1:
                self.problems.append(f"{self.lang} {where}: row cut at {right}px > {base.W}: {t!r}")
            m = CONSOLE_SYNTAX.search(t)
            if m:
                self.problems.append(f"{self.lang} {where}: console syntax {m.group(0)!r} in {t!r}")
            lost = base.missing(t, kind)
            if lost:
                self.problems.append(f"{self.lang} {where}: no glyph for {sorted(lost)} in {t!r}")

    def close(self) -> None:
        import firmware.console_session as console_module
        console_module._fresh_seed = self._fresh_seed
        self.console.close()
        if self._tmp is not None:
            self._tmp.cleanup()
