"""«Во славу Рима» at the table, device keys only: the final score of the rulebook's worked example
(G-16: 4 players, 3 battlefields).

The game up to the end of round 9 is set up with uncounted console lines (fame track, Senate
column and medals come from the game being tracked; the 9 rounds are played). The measured task
starts on the game's home screen after round 9 (the final score is its first row) and ends when
the ranking is on screen: A on "Final score" opens the pad on its first row (nothing is typed
yet; the list of its rows is behind it), then the pad row by row as the paper pad is filled round
the table: each row (legions on a battlefield, a kind of goods set, a Pantheon part, objectives,
denarii) puts every player on a seat round the device — player 1 up, 2 right, 3 down, 4 left —
and a push towards a player adds the step to that player's figure; press changes the step (+1 →
+5 → +10, kept from row to row; a push past the row's most stops at the most), A goes on to the
next row (after the last: the scores). The path is the fewest presses (a dynamic programme over
the rows and the steps, :func:`_plan`).

Task: "Glory: final score, 4 players, 3 battlefields" — issue 24 asks ≤ 70. Measured: 64 presses
(89 with the cursor pad before it, which could not go under 71; 102 before issue 24 §2): 45 pushes
for the 26 figures, 5 step changes, 13 A from row to row (the last shows the scores), 1 to open
(``python -m scripts.presses.glory`` prints them row by row). The floor for this pad is
:func:`floor`: every figure's fewest pushes with any step free, one A per row, one to open.
"""
from __future__ import annotations

import random
import re
from collections import deque

from scripts.presses.harness import Driver, moves

TASK = "Glory: final score, 4 players, 3 battlefields"
# Issue 24 asks for ≤ 70 presses (issue 9: ≤ 45): the target the bench prints; BOUNDS is the
# figure the device takes (the module's note), so the test catches a regression.
TARGETS = {TASK: (70, 70)}
BOUNDS = {TASK: (64, 64)}

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


def _most(key: str, player: str) -> int:
    """The most the pad lets ``player`` enter on row ``key`` when the rows before it hold their
    figures and the rows after it none yet (the pad is filled in its order): the Pantheon's common
    parts and the goods sets share a limit (SheetPad.most)."""
    from engine.glory.console import GOODS, PANTHEON_COMMON
    from engine.glory.sheet import own_parts_most
    from firmware.screens.glory.score import SHEET_MAX, SHEET_ROWS
    order = [k for k, _label in SHEET_ROWS]
    limit = SHEET_MAX[key]
    for group in (PANTHEON_COMMON, GOODS):
        if key in group:
            before = [k for k in group if order.index(k) < order.index(key)]
            limit = min(limit, SHEET_MAX[group[0]] - sum(SHEETS[player].get(k, 0) for k in before))
    if key == "own":          # G-12: the temple's own parts only on a finished foundation (padlimits.own_most)
        limit = min(limit, own_parts_most(sum(SHEETS[player].get(k, 0) for k in PANTHEON_COMMON)))
    return max(0, limit)


def _pushes(target: int, most: int, visits: list[int]) -> list[int] | None:
    """The fewest pushes to take a figure from 0 to ``target`` when the step is ``visits[i]`` in
    turn (each push adds it, stopping at ``most``): how many pushes at each visit, or None."""
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for step in visits:
        new: dict[int, tuple[int, list[int]]] = {}
        for value, (cost, counts) in best.items():
            n, v = 0, value
            while v <= target:
                if v not in new or new[v][0] > cost + n:
                    new[v] = (cost + n, [*counts, n])
                if v == target or v == most:
                    break
                n, v = n + 1, min(most, v + step)
        best = new
    return best[target][1] if target in best else None


def _row(key: str, start: int) -> dict[int, list[str]]:
    """The fewest keys for row ``key`` of the pad from step index ``start``, by the step index the
    row ends on: pushes towards each player with a figure, press to change the step (the steps go
    round: +1 → +5 → +10 → +1), A to go on."""
    from engine.glory.rounds import seat_layout
    from firmware.screens.glory.score import SEATS
    from firmware.screens.widgets.keys import GRAMMAR
    from firmware.screens.widgets.listing import STEPS
    key_of = {meaning: k for k, meaning in GRAMMAR["seats"].items()}     # the way to each seat
    figures = [(key_of[SEATS[seat]], SHEETS[name][key], _most(key, name))
               for seat, name in zip(seat_layout(len(SHEETS)), SHEETS) if SHEETS[name].get(key)]
    out: dict[int, list[str]] = {}
    for changes in range(2 * len(STEPS)):
        visits = [(start + i) % len(STEPS) for i in range(changes + 1)]
        plans = [(way, _pushes(target, most, [STEPS[v] for v in visits])) for way, target, most in figures]
        if any(p is None for _w, p in plans):
            continue
        keys: list[str] = []
        for i in range(len(visits)):
            for way, counts in plans:
                assert counts is not None
                keys += [way] * counts[i]
            if i < len(visits) - 1:
                keys.append("press")
        keys.append("a")
        end = visits[-1]
        if end not in out or len(out[end]) > len(keys):
            out[end] = keys
    return out


def _plan() -> list[list[str]]:
    """The fewest keys through the pad, row by row (a dynamic programme over the step each row
    ends on)."""
    from firmware.screens.glory.score import SHEET_ROWS
    states: dict[int, list[list[str]]] = {0: []}
    for key, _label in SHEET_ROWS:
        new: dict[int, list[list[str]]] = {}
        for start, plan in states.items():
            for end, keys in _row(key, start).items():
                if end not in new or sum(map(len, new[end])) > sum(map(len, plan)) + len(keys):
                    new[end] = [*plan, keys]
        states = new
    return min(states.values(), key=lambda plan: sum(map(len, plan)))


def _fewest(target: int, most: int) -> int:
    """The fewest pushes from 0 to ``target`` when every push may take any step (stopping at
    ``most``): a figure's own pushes, no press spent on the step."""
    from firmware.screens.widgets.listing import STEPS
    seen, frontier = {0: 0}, [0]
    while target not in seen:
        nxt = []
        for value in frontier:
            for step in STEPS:
                v = min(most, value + step)
                if v <= target and v not in seen:
                    seen[v] = seen[value] + 1
                    nxt.append(v)
        frontier = nxt
    return seen[target]


def floor() -> int:
    """A lower bound on the presses of the task for this pad: every figure's fewest pushes when any
    step is there for free, one A per row (the last shows the scores), one to open the pad."""
    from firmware.screens.glory.score import SHEET_ROWS
    own = sum(_fewest(sheet[key], _most(key, name))
              for key, _label in SHEET_ROWS for name, sheet in SHEETS.items() if sheet.get(key))
    return own + len(SHEET_ROWS) + 1


def _type_pad(d: Driver) -> None:
    """Every row of the pad with the fewest keys (:func:`_plan`), checking that each row's figures
    are the sheet's when A leaves it."""
    from firmware.screens.glory.score import SHEET_ROWS, SheetPad
    for (key, _label), keys in zip(SHEET_ROWS, _plan()):
        pad = d.top
        assert isinstance(pad, SheetPad) and pad.entry == key, type(pad).__name__
        for k in keys[:-1]:
            d.press(k)
        typed = {p: f.get(key, 0) for p, f in d.view().get("sheet", {}).items()}
        assert all(typed.get(p, 0) == SHEETS[p].get(key, 0) for p in SHEETS), (key, typed)
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
        d.select(re.compile("^" + re.escape(_("Final score")) + "$"))   # nothing typed yet: the pad's first row
        _type_pad(d)
        assert isinstance(d.top, ScoreResult), d.screen()
    scores = d.top.result["scores"]
    assert {n: scores[n]["total"] for n in TOTALS} == TOTALS, scores
    play_players(d, rng)
    play_starting_fame(d)
    play_objectives(d)
    play_round(d)


# -- issue 24 §1: players remembered ---------------------------------------------------------------------
LAST_TABLE = "Glory: new game, the last game's four players"
FOUR_OF_SIX = "Glory: new game, four of six known players"
TYPING = "name: typing a 4-letter name (Cyrillic in ru/uk)"
# the last table: Resume, New game, A on the count row the form opens on (its code box goes with
# that A): 3 presses (5 while the box took a press of its own and the form opened on player 1).
# Four of six after a game of two: the form opens on that table's count (2: a table of 3 or 2
# starts again with one A, where the count stayed 4 and A added a fourth player), so two presses
# right seat four: 14 (12 while every form opened on 4)
TARGETS.update({LAST_TABLE: (3, 3), FOUR_OF_SIX: (14, 14)})
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
        d.close_code_box()                             # its fair-draw code, seen (the next key acts too)
        assert d.top.cursor == 0                       # on the count (a figure row): the players show under it
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
        assert form.cursor == 0 and form.values()["players"] == 2     # the last table (Анна, Борис) sits down
        d.press("right", len(wanted) - 2)                              # four players: two more seats
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


# -- the new-game form: each player's starting fame (G-5: the character boards start at 1-3) ----------
STARTING_FAME = "Glory: new game, starting fame 2,3,1,2 from the character boards"
FAME_AT_START = [2, 3, 1, 2]
# Measured: 13 presses from the form's first frame to the game started with that fame: down from the
# count row to the first player's fame row (the first down also takes the code box away), right per
# point above 1 and down between the rows, A on a figure row. (12 until the form opened on its first
# player; the code box then took a press of its own, not counted here: 13 in all, as now.)
# Before the form had fame rows: 13 (up, A to start; A on the home's Fame; then per player the
# moves to the row, A, up per point above 2 (the change opens on +1), A), and nothing on the form
# said that the boards' fame could be set at all.
TARGETS.update({STARTING_FAME: (13, 13)})


def play_starting_fame(d: Driver) -> None:
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.setup import SetupScreen
    from firmware.screens.menu import MainMenu
    assert d.run("end")["ok"]                           # the last game is over: no question before the new one
    d.app.stack[:] = [MainMenu()]
    form = SetupScreen(GloryHome)
    d.app.push(form)
    d.app.render()
    d.close_code_box()
    names = [form.name(i) for i in range(len(FAME_AT_START))]
    with d.task(STARTING_FAME):
        for seat, fame in enumerate(FAME_AT_START):
            if fame > 1:
                row = [i.key for i in form.items(d.app)].index(f"field:fame{seat}")
                d.press(*moves(form.cursor, row))
                d.press("right", fame - 1)
        d.press("a")                                    # A on a figure row: start
        assert isinstance(d.top, GloryHome), type(d.top).__name__
    assert d.view()["fame"] == dict(zip(names, FAME_AT_START)), d.view()["fame"]



# -- a whole round at the table (G-1): the event, each player's income, the board's turn --------------
ROUND = "Glory: a whole round, 4 players (event card, 4 plain taxes, end of round)"
# Measured: 13 presses, with the home opening on what the round has due: A on Reveal event, B back
# from the card (the cursor is then on Tax), A on Tax (the form on the player due, on the
# population: a province grown since its last tax is a push right, no press down to it), per player
# A (plain tax) and a key to close the notice of the denarii to take (the next player's form is
# under it: G-1's income goes round the table; after the last, the home on End round), then A on
# End round (everyone's income taken: no question) and a key to close the notice of the board's
# turn (the cursor is then on the next round's event). Before: 14 («Income done?» asked), 17 (A on
# Tax for each player), 19, and 21 in round 1.
TARGETS.update({ROUND: (13, 13)})


def play_round(d: Driver) -> None:
    from firmware.screens.glory.home import GloryHome
    home = d.top
    assert isinstance(home, GloryHome), type(home).__name__
    players = len(d.view()["players"])

    def back_home() -> None:
        while d.app.message is not None or d.top is not home:
            d.press("b")
    with d.task(ROUND):
        round_ = d.view()["round"]
        d.select(re.compile(re.escape(_said("Reveal event")) + "$"))
        back_home()
        d.select(re.compile("^" + re.escape(_said("Tax")) + "$"))    # the form on the player due
        for _ in range(players):
            d.press("a")                                # plain tax: the population the form opens on
            while d.app.message is not None:            # the notice closed: the next player's form
                d.press("a")                            # is under it, the last back home on End round
        assert d.top is home, type(d.top).__name__
        d.select(re.compile("^" + re.escape(_said("End round {}").format(round_)) + "$"))
        d.press("a")
        back_home()
    assert d.view()["round"] == round_ + 1 and len(d.view()["taxed"]) == 0
    with d.task(INTRIGUE_ROUND):
        round_ = d.view()["round"]
        d.select(re.compile(re.escape(_said("Reveal event")) + "$"))
        back_home()
        session = d.console.session
        assert session is not None
        lines = len(session.lines)
        d.select(re.compile("^" + re.escape(_said("Random card pick")) + "$"))
        d.press("a")                                    # a hand of 5 (the most, where the form opens)
        back_home()
        d.select(re.compile("^" + re.escape(_said("Tax")) + "$"))
        for _ in range(players):
            d.press("a")
            while d.app.message is not None:            # the next player's form under the notice
                d.press("a")
        assert d.top is home, type(d.top).__name__
        d.select(re.compile("^" + re.escape(_said("End round {}").format(round_)) + "$"))
        d.press("a")
        back_home()
    assert d.view()["round"] == round_ + 1
    assert [line.split()[0] for line in session.lines[lines:]][:1] == ["pick"]


INTRIGUE_ROUND = "Glory: round 2, 4 players (event card, a Sold! pick, 4 plain taxes, end of round)"
# Measured: 22 presses (23 with «Income done?», 26 before the tax forms followed one another): the round above and, after
# the card, 3 up from Tax (the home lists the round
# as G-1 plays it: the event, the intrigues, Medals, Farming income, Tax, End round) and A to Random
# card pick, A to pick from a hand of 5, B back from the card's place (the cursor then stays on the
# pick, for another intrigue), 3 down to Tax. The same before the rows were put in the round's order
# (Random card pick was 3 below Tax).
TARGETS.update({INTRIGUE_ROUND: (22, 22)})


# -- the secret objectives (G-19): dealt by the device, each player looks alone ----------------------
OBJECTIVES = "Glory: deal the objectives, 4 players, each returns a card in secret"
# Measured: 22 presses from the home of round 1 (its cursor on Reveal event): 6 down and A to the
# Deal objectives row, A to its question; per player A on the pass screen, A on the card to return
# (the first), A to the question; a key to close the notice that everyone has chosen, B home.
TARGETS.update({OBJECTIVES: (22, 22)})


def play_objectives(d: Driver) -> None:
    from firmware.screens.glory.home import GloryHome
    from firmware.screens.glory.objectives import HandScreen
    home = d.top
    assert isinstance(home, GloryHome), type(home).__name__
    players = d.view()["players"]
    with d.task(OBJECTIVES):
        d.select(re.compile("^" + re.escape(_said("Deal objectives")) + "$"))
        d.press("a")                                   # yes: dealt, Jack's pass screen
        for name in players:
            assert name in d.screen() and not isinstance(d.top, HandScreen), d.screen()
            d.press("a")                               # the player alone: his 3 cards
            assert isinstance(d.top, HandScreen) and d.top.player == name, d.screen()
            d.press("a")                               # the first back to the deck ...
            d.press("a")                               # ... yes: the next player's pass screen
        while d.app.message is not None or d.top is not home:
            d.press("b")
    assert all(n == 2 for n in d.view()["objectives"].values()) and len(d.view()["objectives"]) == len(players)
    d.app.stack[-1] = GloryHome()                      # the home as it opens (on what the round has due)
    d.app.render()


def _said(text: str) -> str:
    from firmware.screens.glory.text import _
    return _(text)


if __name__ == "__main__":
    import argparse
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()     # --help, not a run
    from firmware.screens.glory.score import SHEET_ROWS
    plan = _plan()
    for (key, _label), keys in zip(SHEET_ROWS, plan):
        print(f"{key:<11} {len(keys):>2}  {' '.join(keys)}")
    flat = [k for keys in plan for k in keys]
    print(f"pushes {sum(k not in ('press', 'a') for k in flat)}, step changes {flat.count('press')}, "
          f"row to row {flat.count('a')}, opening 1: {len(flat) + 1} (floor of this pad: {floor()})")
