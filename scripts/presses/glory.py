"""«Во славу Рима» at the table, device keys only: the final score of the rulebook's worked example
(G-16: 4 players, 3 battlefields).

The game up to the end of round 9 is set up with uncounted console lines (fame track, Senate
column and medals come from the game being tracked). The measured task starts on the game's home
screen and ends when the ranking is on screen: open "Final score" (the list of the pad's rows),
A on its first row, then fill the score pad row by row as the paper pad is filled round the
table: each row (legions on a battlefield, a kind of goods set, a Pantheon part, objectives,
denarii) shows every player; up/down to the player (straight: lists do not wrap, issue 24 §4),
left/right to change the figure, press to change the step (±1/±5/±10, kept from player to
player), A for the next row with the cursor on the same player (after the last: the scores). On a
short row (legions, sets, Pantheon) ±1 goes round, so left from 0 gives the most (5 own-colour
Pantheon parts in one press).

Task: "Glory: final score, 4 players, 3 battlefields" — target 45 (issue 9 item 6). Measured with
the score pad by rows: 102 presses (89 while lists wrapped from the last row to the first: "Final
score", the home's last row, was one press up, now seven down, and the players round the table
cost 7 more; was 104 with a sheet per player, 114 before it was journaled).
The target is NOT met: the example has 26 non-zero figures summing to 75 (denarii alone 31), and
13 rows to walk; see the README.
"""
from __future__ import annotations

import itertools
import random
import re
from collections import deque

from scripts.presses.harness import Driver, moves

TASK = "Glory: final score, 4 players, 3 battlefields"
# Issue 9 asks for ≤ 45 presses; the device takes 102 today (the example has 26 non-zero figures to
# enter; 89 while lists wrapped round, before issue 24 §4 stopped that). The bound below is today's
# figure, so the test catches a regression; the gap is reported in the README and the closing note.
ISSUE_TARGET = 45
TARGETS = {TASK: (102, 102)}

SETUP = [
    "new glory players=Jack,Henry,Mary,Ross",
    "fame Jack +28", "fame Henry +25", "fame Mary +26", "fame Ross +22",
    "medal Henry merchant", "medal Mary priest", "medal Ross warrior",
    "vote Mary", "vote Jack", "vote Henry", "vote Mary", "vote Ross",
]
SHEETS: dict[str, dict[str, int]] = {   # the G-16 example, as typed on the device
    "Jack": {"denarii": 12, "macedonia": 3, "thrace": 2, "own": 1},
    "Henry": {"denarii": 3, "objectives": 3, "macedonia": 1, "thrace": 3, "own": 5, "gold": 1, "bronze": 1,
              "weapons": 1, "clothing": 1},
    "Mary": {"denarii": 6, "epirus": 1, "macedonia": 3, "own": 2, "gold": 1, "weapons": 1},
    "Ross": {"denarii": 10, "objectives": 6, "epirus": 1, "thrace": 1, "own": 4, "silver": 1, "jewelry": 1},
}
TOTALS = {"Jack": 40, "Henry": 66, "Mary": 47, "Ross": 58}


def _value_keys(target: int, step: int, limit: int, short: bool) -> tuple[list[str], int]:
    """The fewest keys (right/left/press) from 0 with step index ``step`` to ``target``."""
    from firmware.screens.widgets.listing import STEPS
    start = (0, step)
    seen = {start: []}
    queue = deque([start])
    while queue:
        v, s = queue.popleft()
        if v == target:
            return seen[(v, s)], s
        for key in ("right", "left", "press"):
            if key == "press":
                nxt = (v, (s + 1) % len(STEPS))
            elif short and s == 0:                   # a short row goes round at ±1
                nxt = ((v + (1 if key == "right" else -1)) % (limit + 1), s)
            else:
                nxt = (max(0, min(limit, v + (STEPS[s] if key == "right" else -STEPS[s]))), s)
            if nxt not in seen:
                seen[nxt] = seen[(v, s)] + [key]
                queue.append(nxt)
    raise ValueError(target)


def _type_pad(d: Driver) -> None:
    """Every row of the pad, every player's figure on it, in the order a person takes round the
    table (straight up or down: the list does not wrap), the fewest keys to each figure (the step
    is kept from player to player); A: the next row."""
    from firmware.screens.glory.score import DIAL_MAX, SHEET_MAX, SHEET_ROWS, SheetPad
    players = list(SHEETS)
    n = len(players)

    assert n == len(players)

    for key, _label in SHEET_ROWS:
        pad = d.top
        assert isinstance(pad, SheetPad) and pad.entry == key, type(pad).__name__
        todo = [i for i, name in enumerate(players) if SHEETS[name].get(key, 0)]
        short = SHEET_MAX[key] <= DIAL_MAX

        def cost(order: tuple[int, ...], pad: SheetPad = pad, key: str = key, short: bool = short) -> int:
            at, step, total = pad.cursor, pad.step, 0
            for i in order:
                figure = SHEETS[players[i]][key]
                keys, step = _value_keys(figure, step, pad.most(d.app, players[i]), short)
                total += moves(at, i)[1] + len(keys)
                at = i
            return total

        for i in min(itertools.permutations(todo), key=cost):
            d.press(*moves(pad.cursor, i))
            keys, _ = _value_keys(SHEETS[players[i]][key], pad.step, pad.most(d.app, players[i]), short)
            for k in keys:
                d.press(k)
        d.press("a")


def play(d: Driver, rng: random.Random) -> None:
    from firmware.i18n import _
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.score import ScoreResult
    for line in SETUP:
        assert d.run(line)["ok"], line
    d.app.stack[:] = d.app.stack[:1]
    d.app.push(GloryHome())
    with d.task(TASK):
        d.select(re.compile("^" + re.escape(_("Final score")) + "$"))
        d.press("a")                                   # the pad's first row, every player on it
        _type_pad(d)
        assert isinstance(d.top, ScoreResult), d.screen()
    scores = d.top.result["scores"]
    assert {n: scores[n]["total"] for n in TOTALS} == TOTALS, scores
