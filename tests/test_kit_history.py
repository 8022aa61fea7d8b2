"""The bag screen's History (issue 20 §3): the bag's state keeps only its newest events (``events``
counts them all), so the screen reads the whole history a page at a time through ``actions``."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.bag import HISTORY_KEPT
from firmware.screens.kit.bag import KitHistory, KitScreen
from tests.screens import app_with

DRAWS = 500


@pytest.mark.slow
def test_a_500_draw_bag_pages_its_whole_history_newest_first(state_dir: Path):
    app = app_with(["new bag items=a*250,b*250 seed=1"] + ["draw"] * DRAWS + ["put a"], ["a"], state_dir)
    try:
        assert isinstance(app.stack[-1], KitScreen)
        view = app.console.request("state")["state"]
        assert len(view["bag"]["history"]) == HISTORY_KEPT < DRAWS and view["bag"]["events"] == DRAWS + 1
        row = next(i for i in app.stack[-1].items(app) if i.label == "History")
        assert row.value == str(DRAWS + 1)
        row.run(app)
        screen = app.stack[-1]
        assert isinstance(screen, KitHistory)
        app.render()
        assert screen.entries[0] == "Put a back in the bag." and not screen.done
        asked = [ln for ln in _lines_asked(app, screen)]
        assert len(asked) > 1                                   # more than one page was read
        assert screen.done and len(screen.entries) == DRAWS + 1
        drawn = [r for r in screen.entries if r.startswith("Drew ")]
        assert len(drawn) == DRAWS
        first = app.console.request("actions 1 before=2")["actions"][0]["text"]
        assert screen.entries[-1] == first                         # the oldest draw comes last
    finally:
        app.console.close()


def _lines_asked(app, screen: KitHistory) -> list[int]:
    """Scroll to the end, one key at a time; the page starts read on the way (``before``)."""
    seen = []
    while not (screen.done and screen.scroll.top >= len(screen.rows) - 4):
        before = screen.before
        app.handle("down")
        app.render()
        if screen.before != before:
            seen.append(before)
    return seen


def test_a_side_bag_beside_a_game_shows_only_its_own_actions(state_dir: Path):
    app = app_with(["new sword players=romans,gauls seed=1", "kit new items=x*3,y*2", "roll 2d6", "kit draw",
                    "roll 1d6", "kit draw"], [], state_dir)
    try:
        screen = KitHistory(side=True)
        app.push(screen)
        app.render()
        assert screen.done and len(screen.entries) == 3
        assert screen.entries[-1] == "Beside the game: a bag of 5 items."
        assert all(e.startswith(("Drew", "Beside")) for e in screen.entries)
    finally:
        app.console.close()


@pytest.mark.parametrize("side", [False, True])
def test_the_history_shown_follows_an_undo_and_the_serial_link(state_dir: Path, side: bool):
    """The bag's History open: an undo (hold B on it) takes a draw back and the serial link draws
    two more: the list says what the bag's history is now, never the draw taken back, always the
    new ones (it kept the rows read when it opened)."""
    prefix = "kit " if side else ""
    setup = (["new sword players=romans,gauls seed=1", "kit new items=gold*3,silver*2"] if side
             else ["new bag items=gold*3,silver*2 seed=3"])
    app = app_with([*setup, f"{prefix}draw", f"{prefix}draw"], [], state_dir)
    try:
        screen = KitHistory(side)
        app.push(screen)
        app.render()
        drawn = [e for e in screen.entries if e.startswith("Drew")]
        assert len(drawn) == 2
        for key in ("b:hold", "a"):                          # undo the second draw
            app.render()
            app.handle(key)
        app.message = None
        app.render()
        assert app.stack[-1] is screen and [e for e in screen.entries if e.startswith("Drew")] == drawn[1:]
        assert '"ok":true' in app.serve_line(f"{prefix}draw 2".encode())
        app.render()
        newest = app.console.request("actions 1")["actions"][0]["text"]
        assert screen.entries[0] == newest and len([e for e in screen.entries if e.startswith("Drew")]) == 2
    finally:
        app.console.close()


def test_undoing_the_draws_and_the_bag_closes_the_put_back_list(state_dir: Path):
    """Beside a Caesar! game: Put back… lists what was drawn; hold B takes back the draw, then the
    bag itself. The list goes with what it offered (it stayed: choosing a name was refused in
    console syntax, "start one with kit new items=...")."""
    from firmware.screens.kit.bag import KitScreen, PickScreen
    app = app_with(["new caesar-solo side=caesar difficulty=normal seed=5", "kit new items=gold*3,silver*2",
                    "kit draw 2"], [], state_dir)
    try:
        app.push(KitScreen(True))
        app.render()
        app.handle("down")                                   # Put back…
        app.handle("a")
        assert isinstance(app.stack[-1], PickScreen)
        for _ in range(2):                                   # take back the draw, then the bag
            app.handle("b:hold")
            app.handle("a")
            while app.message is not None or type(app.stack[-1]).__name__ == "TextScreen":
                app.handle("b")
            assert not isinstance(app.stack[-1], PickScreen)
            app.render()
        assert isinstance(app.stack[-1], KitScreen) and app.errors == 0
        assert [str(item.label) for item in app.stack[-1].items(app)] == ["History", "New bag or deck"]
    finally:
        app.console.close()


def test_put_back_shows_long_names_whole_so_two_alike_can_be_told_apart(state_dir: Path):
    """Names of 24 characters that differ only at the end («серебряная-монета-малая» and
    «…-малая2») were both cut to the same «серебряная-монета-ма…» on Put back…: the list wraps a
    long name on two rows (broken after its hyphen) instead of cutting it."""
    from firmware.screens import base
    from firmware.screens.kit.bag import KitScreen, PickScreen
    from tests.screens import drawn
    names = ["серебряная-монета-малая", "серебряная-монета-малая2"]
    app = app_with([f"new bag items={names[0]}*2,{names[1]}*2 seed=5", "draw 4"], [], state_dir, lang="ru")
    try:
        app.push(KitScreen())
        app.render()
        app.handle("down")                                   # Put back…
        app.handle("a")
        assert isinstance(app.stack[-1], PickScreen)
        shown = [t for _x, _y, t, _k in drawn(app)][1:]      # under the title
        assert all(len(t) <= base.COLS - 1 and "…" not in t for t in shown), shown
        assert "".join(shown).count("серебряная-монета-малая") == 2 and "малая2" in "".join(shown)
    finally:
        app.console.close()
