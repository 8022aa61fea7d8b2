"""«Во славу Рима» at the table, device keys only: the final score of the rulebook's worked example
(G-16: 4 players, 3 battlefields).

The game up to the end of round 9 is set up with uncounted console lines (fame track, Senate
column and medals come from the game being tracked; the 9 rounds are played). The measured task
starts on the game's home screen after round 9 (the final score is its first row) and ends when
the ranking is on screen: A on "Final score" opens the pad on its first row (nothing is typed
yet; the list of its rows is behind it), then the pad row by row as the paper pad is filled round
the table: each row (legions on a battlefield, a kind of goods set, a Pantheon part, objectives,
denarii) shows every player; up/down to the player (down from the last player goes on to the next
row's first), left/right to change the figure, A for the next row with the cursor on the same
player (after the last: the scores). A short row (legions, sets, Pantheon) is plain ±1 and goes
round, so left from 0 gives the most (5 own-colour Pantheon parts in one press); the wide rows
(objectives, denarii) have steps (±1/±5/±10, press, shown where the figure is, kept from player
to player and row to row). The path is the fewest presses (a dynamic programme over the rows,
:func:`_plan`).

Task: "Glory: final score, 4 players, 3 battlefields" — issue 24 asks ≤ 70. Measured: 89 presses
(90 before the pad opened by itself on its first row; 102 before issue 24 §2). Of the 89: 48 set
the 26 figures (44 of them the figures' own presses, 4 changes of the step), 27 move between
players, 13 go on from row to row (the last one shows the scores), 1 opens the pad
(``python -m scripts.presses.glory`` prints them figure by figure).

The target is NOT met, and no pad of this kind can meet it (:func:`floor`): every figure's own
presses (43 at the best step, each step change free), one press per row (13), one to open, and
within each row at least one move from one player's figure to the next (14: the 26 figures lie in
12 of the 13 rows) already make 71, before the cursor lands on a player without a figure in the
next row. The issue's floor of 56 is the first two terms (43 + 13): it counts no move between
players.
"""
from __future__ import annotations

import itertools
import random
import re
from collections import deque

from scripts.presses.harness import Driver, moves

TASK = "Glory: final score, 4 players, 3 battlefields"
# Issue 24 asks for ≤ 70 presses (issue 9: ≤ 45): the target the bench prints. The device takes 89
# (see the module's note: no pad of this kind goes under 71); BOUNDS is that figure, so the test
# catches a regression while the target is not met (the gap is reported in the README).
TARGETS = {TASK: (70, 70)}
BOUNDS = {TASK: (89, 89)}

SETUP = [
    "new glory players=Jack,Henry,Mary,Ross",
    "fame Jack +28", "fame Henry +25", "fame Mary +26", "fame Ross +22",
    "medal Henry merchant", "medal Mary priest", "medal Ross warrior",
    "vote Mary", "vote Jack", "vote Henry", "vote Mary", "vote Ross",
] + ["event", "end-round"] * 9          # the table plays its 9 rounds; then the final score
SHEETS: dict[str, dict[str, int]] = {   # the G-16 example, as typed on the device
    "Jack": {"denarii": 12, "macedonia": 3, "thrace": 2, "own": 1},
    "Henry": {"denarii": 3, "objectives": 3, "macedonia": 1, "thrace": 3, "own": 5, "gold": 1, "bronze": 1,
              "weapons": 1, "clothing": 1},
    "Mary": {"denarii": 6, "epirus": 1, "macedonia": 3, "own": 2, "gold": 1, "weapons": 1},
    "Ross": {"denarii": 10, "objectives": 6, "epirus": 1, "thrace": 1, "own": 4, "silver": 1, "jewelry": 1},
}
TOTALS = {"Jack": 40, "Henry": 66, "Mary": 47, "Ross": 58}


def _value_keys(target: int, step: int, limit: int, steps: bool) -> tuple[list[str], int]:
    """The fewest keys from 0 to ``target`` with step index ``step``: on a row with steps
    right/left/press (the step kept), on a short row right/left at ±1, going round 0 ↔ ``limit``."""
    from firmware.screens.widgets.listing import STEPS
    start = (0, step)
    seen: dict[tuple[int, int], list[str]] = {start: []}
    queue = deque([start])
    while queue:
        v, s = queue.popleft()
        if v == target:
            return seen[(v, s)], s
        for key in ("right", "left", "press") if steps else ("right", "left"):
            if key == "press":
                nxt = (v, (s + 1) % len(STEPS))
            elif not steps:                          # a short row goes round at ±1
                nxt = ((v + (1 if key == "right" else -1)) % (limit + 1), s)
            else:
                nxt = (max(0, min(limit, v + (STEPS[s] if key == "right" else -STEPS[s]))), s)
            if nxt not in seen:
                seen[nxt] = seen[(v, s)] + [key]
                queue.append(nxt)
    raise ValueError(target)


def _most(key: str, player: str) -> int:
    """The most the pad lets ``player`` enter on row ``key`` when the rows before it hold their
    figures and the rows after it none yet (the pad is filled in its order): the Pantheon's common
    parts and the goods sets share a limit (SheetPad.most)."""
    from engine.glory.console import GOODS, PANTHEON_COMMON
    from firmware.screens.glory.score import SHEET_MAX, SHEET_ROWS
    order = [k for k, _label in SHEET_ROWS]
    limit = SHEET_MAX[key]
    for group in (PANTHEON_COMMON, GOODS):
        if key in group:
            before = [k for k in group if order.index(k) < order.index(key)]
            limit = min(limit, SHEET_MAX[group[0]] - sum(SHEETS[player].get(k, 0) for k in before))
    return max(0, limit)


def _plan() -> list[tuple[tuple[int, ...], str]]:
    """The fewest presses through the pad (a dynamic programme over its rows): for each row, the
    players' order and how the cursor goes on to the next row — ``a`` (the same player) or ``down``
    from the last player (the next row's first player)."""
    from firmware.screens.glory.score import SHEET_ROWS, stepped
    players = list(SHEETS)
    n = len(players)
    # state (cursor, step) -> (presses, plan so far)
    states: dict[tuple[int, int], tuple[int, list[tuple[tuple[int, ...], str]]]] = {(0, 0): (0, [])}
    for r, (key, _label) in enumerate(SHEET_ROWS):
        todo = [i for i, name in enumerate(players) if SHEETS[name].get(key, 0)]
        steps = stepped(key)
        new: dict[tuple[int, int], tuple[int, list[tuple[tuple[int, ...], str]]]] = {}
        for (at0, step0), (cost0, plan) in states.items():
            for order in itertools.permutations(todo):
                at, step, cost = at0, step0, cost0
                for i in order:
                    keys, step = _value_keys(SHEETS[players[i]][key], step, _most(key, players[i]), steps)
                    cost += moves(at, i)[1] + len(keys)
                    at = i
                last = r == len(SHEET_ROWS) - 1
                for how, land, extra in (("a", at, 1), ("down", 0, n - at)):
                    if last and how == "down" and at != n - 1:
                        continue
                    state = (land, step)
                    if state not in new or new[state][0] > cost + extra:
                        new[state] = (cost + extra, [*plan, (order, how)])
        states = new
    return min(states.values(), key=lambda v: v[0])[1]


def _own_presses(target: int, limit: int, steps: bool) -> int:
    """The fewest right/left presses from 0 to ``target`` when every press may take any step (no
    press spent on changing the step): a figure's own presses."""
    from firmware.screens.widgets.listing import STEPS
    seen = {0: 0}
    queue = deque([0])
    while queue:
        v = queue.popleft()
        if v == target:
            return seen[v]
        nexts = ([max(0, min(limit, v + d)) for s in STEPS for d in (s, -s)] if steps
                 else [(v + 1) % (limit + 1), (v - 1) % (limit + 1)])
        for nxt in nexts:
            if nxt not in seen:
                seen[nxt] = seen[v] + 1
                queue.append(nxt)
    raise ValueError(target)


def floor() -> int:
    """A lower bound on the presses of the task for any pad that puts the cursor on a player's
    figure to change it (one press per move, one press from row to row): every figure's own presses
    with no press to change the step, one press per row (the last shows the scores), one to open
    the pad, and in each row one move from a figure to the next."""
    from firmware.screens.glory.score import SHEET_ROWS, stepped
    own = sum(_own_presses(sheet[key], _most(key, name), stepped(key))
              for key, _label in SHEET_ROWS for name, sheet in SHEETS.items() if sheet.get(key))
    within = sum(max(0, sum(1 for sheet in SHEETS.values() if sheet.get(key)) - 1) for key, _label in SHEET_ROWS)
    return own + len(SHEET_ROWS) + 1 + within


def breakdown() -> list[tuple[str, str, int, int, list[str]]]:
    """Where the presses of the pad go on the fewest path (:func:`_plan`): (row, player, figure,
    moves to the player, the keys that set the figure) per figure, and ("→", how, 0, presses, [])
    per step to the next row. ``python -m scripts.presses.glory`` prints it."""
    from firmware.screens.glory.score import SHEET_ROWS, stepped
    players = list(SHEETS)
    out: list[tuple[str, str, int, int, list[str]]] = []
    at = step = 0
    for (key, _label), (order, how) in zip(SHEET_ROWS, _plan()):
        for i in order:
            keys, step = _value_keys(SHEETS[players[i]][key], step, _most(key, players[i]), stepped(key))
            out.append((key, players[i], SHEETS[players[i]][key], moves(at, i)[1], keys))
            at = i
        out.append(("→", how, 0, 1 if how == "a" else len(players) - at, []))
        at = at if how == "a" else 0
    return out


def _type_pad(d: Driver) -> None:
    """Every row of the pad, every player's figure on it, round the table (straight up or down:
    the list does not wrap; down from the last player goes on to the next row), the fewest keys to
    each figure (the step is kept from player to player and row to row), found beforehand
    (:func:`_plan`); A: the next row with the cursor on the same player."""
    from firmware.screens.glory.score import SHEET_ROWS, SheetPad, stepped
    players = list(SHEETS)
    for (key, _label), (order, how) in zip(SHEET_ROWS, _plan()):
        pad = d.top
        assert isinstance(pad, SheetPad) and pad.entry == key, type(pad).__name__
        steps = stepped(key)
        for i in order:
            d.press(*moves(pad.cursor, i))
            assert pad.most(d.app, players[i]) == _most(key, players[i])
            keys, _ = _value_keys(SHEETS[players[i]][key], pad.step, pad.most(d.app, players[i]), steps)
            for k in keys:
                d.press(k)
        if how == "a":
            d.press("a")
        else:
            d.press("down", len(players) - pad.cursor)


def play(d: Driver, rng: random.Random) -> None:
    from firmware.i18n import _
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.score import ScoreResult
    for line in SETUP:
        assert d.run(line)["ok"], line
    d.app.stack[:] = d.app.stack[:1]
    d.app.push(GloryHome())
    with d.task(TASK):
        d.select(re.compile("^" + re.escape(_("Final score")) + "$"))   # nothing typed yet: the pad's first row
        _type_pad(d)
        assert isinstance(d.top, ScoreResult), d.screen()
    scores = d.top.result["scores"]
    assert {n: scores[n]["total"] for n in TOTALS} == TOTALS, scores
    play_players(d, rng)


# -- issue 24 §1: players remembered ---------------------------------------------------------------------
LAST_TABLE = "Glory: new game, the last game's four players"
FOUR_OF_SIX = "Glory: new game, four of six known players"
TYPING = "name: typing a 4-letter name (Cyrillic in ru/uk)"
TARGETS.update({LAST_TABLE: (12, 12), FOUR_OF_SIX: (12, 12)})
NAMES = {"en": "Jack", "ru": "Маша", "uk": "Леся"}


def _grid_path(rows: list[list[str]], start: tuple[int, int], cell: str) -> tuple[list[str], tuple[int, int]]:
    """The fewest joystick moves over the keyboard (TypeScreen: up/down go round the rows, keeping
    the column where the row is long enough; left/right go round within a row) to ``cell``."""
    goal = next((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == cell)
    seen: dict[tuple[int, int], list[str]] = {start: []}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            return seen[(r, c)], goal
        for key in ("up", "down", "left", "right"):
            if key in ("up", "down"):
                nr = (r + (1 if key == "down" else -1)) % len(rows)
                nxt = (nr, min(c, len(rows[nr]) - 1))
            else:
                nxt = (r, (c + (1 if key == "right" else -1)) % len(rows[r]))
            if nxt not in seen:
                seen[nxt] = seen[(r, c)] + [key]
                queue.append(nxt)
    raise LookupError(cell)


def type_name(d: Driver, name: str) -> None:
    """On the keyboard: the fewest moves to each letter and A (a person's name begins with a capital
    by itself), then hold A to finish."""
    from firmware.i18n import language
    from firmware.screens.widgets.keyboard import TypeScreen, keyboard
    screen = d.top
    assert isinstance(screen, TypeScreen), type(screen).__name__
    rows = keyboard(language())
    for ch in name:
        assert ch.isupper() == screen.upper, (ch, screen.upper)
        keys, _ = _grid_path(rows, (screen.row, screen.col), ch.lower())
        for k in keys:
            d.press(k)
        d.press("a")
    d.press("a:hold")


def _to_seat(d: Driver, seat: int) -> None:
    d.press(*moves(d.top.cursor, seat + 1))           # the form: Players, then the seats


def play_players(d: Driver, rng: random.Random) -> None:
    """A new game with the players of the last one (they sit down by themselves), one with four of
    six known players in another order (the list of known players, two presses each when the one
    wanted comes first), and typing a name nobody knows yet."""
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.setup import SetupScreen
    from firmware.screens.menu import MainMenu
    from firmware.screens.widgets.people import PlayerPicker
    d.run("end")                                       # the last game's score is final
    d.app.stack[:] = [MainMenu()]
    with d.task(LAST_TABLE):
        d.select(re.compile("Glory|славу", re.I))      # Resume: the game's home, New game first
        d.press("a")                                   # the form: the last table sits already
        assert isinstance(d.top, SetupScreen), type(d.top).__name__
        d.close_code_box()                             # its fair-draw code, seen
        d.press(*moves(d.top.cursor, 0))               # from the first player up to the count (a figure row)
        d.press("a")                                   # A on a figure row: start
        assert isinstance(d.top, GloryHome) and d.view()["round"] == 1
        assert d.app.commitment is None                # the form showed the code: not again
    assert d.view()["players"] == list(SHEETS)
    for line in ("new glory players=Анна,Борис seed=2", "end"):
        assert d.run(line)["ok"], line
    wanted = ["Mary", "Анна", "Ross", "Henry"]
    d.app.stack[:] = [MainMenu()]
    with d.task(FOUR_OF_SIX):
        d.select(re.compile("Glory|славу", re.I))
        d.press("a")
        form = d.top
        assert isinstance(form, SetupScreen), type(form).__name__
        d.close_code_box()
        for seat, name in enumerate(wanted):
            if form.name(seat) == name:
                continue
            _to_seat(d, seat)
            d.press("a")
            picker = d.top
            assert isinstance(picker, PlayerPicker)
            d.select(re.compile("^" + re.escape(name) + "$"))
        figures = [0, len(wanted) + 1, len(wanted) + 2]            # Players, Harsh Times, Clockwise
        d.press(*moves(form.cursor, min(figures, key=lambda r: abs(r - form.cursor))))
        d.press("a")                                               # A on a figure row: start
        assert isinstance(d.top, GloryHome) and d.app.commitment is None
    assert d.view()["players"] == wanted
    d.app.stack[:] = [MainMenu()]
    fresh = SetupScreen(GloryHome)
    d.app.push(fresh)
    d.app.render()
    d.close_code_box()                                  # (before the task: typing a name is measured)
    fresh.seats.names[3] = None                          # the 4th seat: someone nobody knows yet
    name = NAMES.get(d.lang, "Jack")
    with d.task(TYPING):
        _to_seat(d, 3)
        d.press("a")
        d.select(re.compile(r"…$"))                    # Type a name…
        type_name(d, name)
    assert d.top.name(3) == name


if __name__ == "__main__":
    rows = breakdown()
    for key, who, n, steps, keys in rows:
        print(f"{key:<11} {who:<6} {n:>3}  moves {steps}  keys {' '.join(keys)}" if key != "→" else
              f"  next row by {who}: {steps}")
    own = sum(len(k) - k.count("press") for *_r, k in rows)
    step_changes = sum(k.count("press") for *_r, k in rows)
    between = sum(r[3] for r in rows if r[0] != "→")
    on = sum(r[3] for r in rows if r[0] == "→")
    print(f"figures' own presses {own}, step changes {step_changes}, moves between players {between}, "
          f"row to row {on}, opening 1: {own + step_changes + between + on + 1} (floor of this pad: {floor()})")
