"""Caesar! at the table, device keys only: full solo games against Auto-Crassus and a duel.

The person's choices (which placement to make) follow a simple, sensible way of playing: take a
province you would win by closing it; never close one for the opponent; otherwise put your
highest number toward the open province closest to closing, the other number as high as it goes,
keeping wild tokens for later. Deciding is not pressing: the script
reads the legal moves from the console (read-only, not counted) to decide, then reaches that
move with the device keys and counts every press.

Five games on one device: a solo game (normal, the rulebook of the language), a solo game (hard,
the other rulebook: en and uk play the Russian one, ru the Ukrainian one), a solo game (easy, that
rulebook still: the form remembers it), a duel, and a solo game with the box's own bags (every
token drawn, his and yours, is one the bag could hold, picked at random as the table draws it, and
named on the device's token grid the shortest way). In each solo
game the power goes once in the middle of his turn (the device starts again on the same state
directory) and his turn is taken back once (hold B) and played again.

Tasks:
- "Caesar!: your placement" — from the home screen (or your move opening by itself) until your
  token is placed (province on the map, token, space and orientation chosen): target median 3,
  never more than 8 (issue 23 §4).
- "Caesar!: Auto-Crassus turn" — a whole turn in which nothing closes, from the home screen back
  to it: target 3. A turn whose tile's notes take a screen of their own (his bag ran short: "Take
  … (his bag's last) into his row; no discard this turn", four rows on a four-row page: it was five
  or six, one A more to read its end) is "Caesar!: Auto-Crassus turn, his notes": target 3 too
  (the tile, its notes, his play, when his turn opens by itself).
- "Caesar!: Auto-Crassus turn, closures" and "Caesar!: your turn, all" (with reading the results,
  bonuses and the draw) and "Caesar!: duel placement" (with the pass-the-device screen) are
  measured too, without a target; so are "Caesar!: resume after a power cut" (Resume on the main
  menu until his turn shows again at the page not read) and "Caesar!: undo of his turn" (hold B,
  A, the notice, until the home says it is his turn).
- The same tasks with the box's bags end in " (box's bag)": "Caesar!: your turn, all (box's bag)"
  names the token you drew (C-6), "Caesar!: Auto-Crassus turn (box's bag)" the tokens his tile
  draws (S-5), each on the token grid.
"""
from __future__ import annotations

import random
from typing import Any

from scripts.presses.harness import Driver, moves

BOX = " (box's bag)"                   # the tasks of the game played with the box's own bags
# Per run (one device, the first four games: about 25 placements of yours) the median moves between 2.5 and
# 3.5 with the games drawn; over the three runs of scripts/bench_presses.py it is 3 (issue 23 §4).
TARGETS = {"Caesar!: your placement": (3.5, 8), "Caesar!: Auto-Crassus turn": (3, 3),
           "Caesar!: Auto-Crassus turn, his notes": (3, 3),
           # with the box's bags a token drawn is named on the grid, three presses on average (it
           # was a list of up to 16 rows, the cursor on the first each time: your turn, all took a
           # median of 13-14): the digital figure and three more (the page saying which token to
           # take, one press, is not shown then)
           "Caesar!: your turn, all" + BOX: (9, 14), "Caesar!: Auto-Crassus turn" + BOX: (7, 9)}
# What the device takes today (seed 1 in en, ru and uk, their worst), tighter than the targets or
# where there is none, so that tests/test_presses.py catches a regression: his turn read in two
# presses when it opens by itself (three from the home); your draw's page read in one press in
# every language (it took two in Ukrainian), a closure's page without its province named twice.
# A placement whose preview is longer than the options' three rows (a closure and its Senate's
# markers, C-16, or the game's end, C-12): «A: all it does» opens at the sentence the options did
# not show, one A places (it took two with every question read to its end: duel placement 4→5 in
# ru, your placement with the box's bag 3→4 in en).
BOUNDS = {"Caesar!: Auto-Crassus turn": (2, 3), "Caesar!: your turn, all": (6, 10),
          "Caesar!: Auto-Crassus turn, closures": (5, 10), "Caesar!: duel placement": (4, 8),
          "Caesar!: your placement" + BOX: (3.5, 7)}
MAX_TURNS = 120
POWER_CUT_AT, UNDO_AT = 3, 5         # his turns of a solo game: the power goes, his turn is taken back
EDITIONS = ("ru", "uk", "mixed")      # the form's rulebook row, in its order
_turns: dict[int, int] = {}            # his turns so far in the game each driver plays


def _lines(d: Driver) -> list[str]:
    """The session's action lines (what the device sent)."""
    session = d.console.session
    assert session is not None
    return list(session.lines)


def _view(d: Driver) -> dict[str, Any]:
    session = d.console.session
    assert session is not None
    return session.view()


def _home(d: Driver) -> Any:
    from firmware.screens.caesar.home import CaesarHome
    return isinstance(d.top, CaesarHome)


def _goto_ident(d: Driver, ident: str) -> None:
    """Move the home cursor to the entry ``ident`` (straight up or down: lists do not wrap) and press A."""
    items = d.items()
    idents = [getattr(i, "ident", "") for i in items]
    d.press(*moves(d.top.cursor, idents.index(ident)))
    d.press("a")


def _goto_index(d: Driver, i: int, n: int) -> None:
    d.press(*moves(d.top.cursor, i))


def _back_home(d: Driver, limit: int = 40) -> None:
    """Acknowledge pages and notices (A) until the home screen is back."""
    for _ in range(limit):
        if d.app.message is None and _home(d):
            return
        d.press("a")
    raise RuntimeError(f"stuck on {type(d.top).__name__}: {d.screen()}")


def _choose(view: dict[str, Any], moves: list[dict[str, Any]], me: str, rng: random.Random) -> dict[str, Any]:
    """The sensible player's placement (see the module doc): (move, province it aims at)."""
    names = list(view["position"]["markers_left"])
    mine = names.index(me)
    from typing import cast

    from engine.caesar.views import CaesarView
    from firmware.screens.caesar.words import influence
    totals, empty = influence(cast(CaesarView, view))
    best, best_score = None, None
    for m in moves:
        (pa, va), (pb, vb) = m["toward"].items()
        score = 0.0
        for p, v in ((pa, va), (pb, vb)):
            if empty[p] == 1:
                a, b = totals[p][mine] + v, totals[p][1 - mine]
                score += 1000 if a > b else -1000
        target, v = (pa, va) if va > vb or (va == vb and empty[pa] <= empty[pb]) else (pb, vb)
        other_v = vb if target == pa else va
        keep_wild = 0.5 if m["token"].startswith("wild") else 0.0      # a wild token is kept for later
        score += 10 * v + other_v - 2 * empty[target] - keep_wild + 0.1 * rng.random()
        if best_score is None or score > best_score:
            best, best_score = dict(m, target=target), score
    assert best is not None
    return best


def _is(d: Driver, name: str) -> bool:
    return type(d.top).__name__ == name


def _passing(d: Driver) -> bool:
    """The pass-the-device screen of a duel (a question: A for the player named)."""
    from firmware.screens.caesar.flow import PassScreen
    return isinstance(d.top, PassScreen)


def _place(d: Driver, rng: random.Random) -> None:
    """One placement through the device: (Your move →) province → option. The move is reached
    the shortest way: from either of its space's provinces (the option lists both numbers: ``5
    here 1→Gallia`` in one, ``1 here 5→Sicilia`` in the other), whichever takes fewer presses."""
    from firmware.screens.caesar.move import OptionScreen, PlayMap, ProvincePicker
    view = _view(d)
    me = "human" if view["mode"] == "solo" else view["turn"]
    moves = d.console.request("moves")["moves"]
    if not moves:
        raise RuntimeError("no face-up move")
    m = _choose(view, moves, me, rng)
    before = len(_lines(d))
    if _home(d):
        _goto_ident(d, "now")
    if _passing(d):
        d.press("a")                                   # the pass-the-device screen: "I am ..."

    def option(code: str) -> int:
        opts = OptionScreen(code).options(d.app)
        return next(i for i, o in enumerate(opts) if o.space == m["space"] and o.token == m["token"]
                    and o.here == m["toward"][code] and not o.face_down)
    if isinstance(d.top, PlayMap):
        paths = {code: _map_path(d, code) for code in m["toward"]}
        code = min(m["toward"], key=lambda c: (len(paths[c]) + option(c), c != m["target"]))
        for way in paths[code]:
            d.press(way)
    else:
        assert isinstance(d.top, ProvincePicker), d.screen()
        code = m["target"]
        codes = d.top.codes(d.app)
        _goto_index(d, codes.index(code), len(d.items()))      # the list ends with "On the map…"
    d.press("a")
    assert isinstance(d.top, OptionScreen) and d.top.code == code, d.screen()
    opts = d.top.options(d.app)
    _goto_index(d, option(code), len(opts))
    d.press("a")
    if len(_lines(d)) == before and _is(d, "AllItDoes"):
        d.press("a")                                   # all the placement does, read first: place it
    assert len(_lines(d)) > before, "the play was not sent: " + d.screen()


def _map_path(d: Driver, code: str) -> list[str]:
    """The fewest joystick pushes that take the map's cursor to province ``code``."""
    from collections import deque

    from engine.caesar.board import PROVINCE_INDEX
    d.top.start(d.app)                                 # where it starts (as its first frame does)
    start, goal = d.top.cursor, PROVINCE_INDEX[code]
    how: dict[int, list[str]] = {start: []}
    todo = deque([start])
    while todo and goal not in how:
        x = todo.popleft()
        for way in ("up", "down", "left", "right"):
            y = d.top.step(x, way)
            if y not in how:
                how[y] = how[x] + [way]
                todo.append(y)
    return how[goal]


def token_path(picker: Any, name: str) -> list[str]:
    """The fewest joystick pushes that take the token grid's cursor (a ``TokenPicker``, drawn once)
    to token ``name``, which must be one it offers now."""
    from collections import deque

    from firmware.screens.widgets import intent
    counts = picker.left()
    start = picker.cell(counts)
    goal = next((r, c) for r, row in enumerate(picker.grid) for c, n in enumerate(row) if n == name and n in counts)
    how: dict[tuple[int, int], list[str]] = {start: []}
    todo = deque([start])
    while todo and goal not in how:
        x = todo.popleft()
        for way in ("up", "down", "left", "right"):
            y = picker.next_cell(x, intent("grid", way), counts)
            if y not in how:
                how[y] = how[x] + [way]
                todo.append(y)
    return how[goal]


def _picking(d: Driver) -> bool:
    """The top screen asks which token came out of a bag of the box."""
    from firmware.screens.caesar.pickers import TokenPicker
    return isinstance(d.top, TokenPicker) and not d.top.confirming()


def _his_draws(d: Driver, view: dict[str, Any]) -> bool:
    """His turn has begun with the box's bag: his tile is turned up (its page, then what he drew)."""
    return view["mode"] == "solo" and view["turn"] == "crassus" and not view["human"]["draws_due"] and \
        (bool(view["tiles"]["revealed"]) or _picking(d))


def _draw(d: Driver, rng: random.Random) -> None:
    """A token out of the bag (any of those it may hold, as the table draws it), named on the grid:
    the joystick the shortest way, then A."""
    left = d.top.left()
    name = rng.choice(sorted(n for n, k in left.items() for _ in range(k)))
    for way in token_path(d.top, name):
        d.press(way)
    d.press("a")


def _crassus_pages(d: Driver) -> bool:
    """True while the top screen is one of Auto-Crassus's turn pages."""
    from firmware.screens.caesar.turn import TurnScreen
    return isinstance(d.top, TurnScreen) and bool(d.top.pages) and d.top.pages[0]["kind"] == "tile"


def _results(d: Driver, rng: random.Random) -> None:
    """After your placement: read the closures, decide bonuses (the first choice), take the
    notices, until Auto-Crassus's turn, your next move or the home screen."""
    from firmware.screens.caesar.move import PlayMap, ProvincePicker
    from firmware.screens.caesar.pickers import ChoiceScreen
    for _ in range(40):
        view = _view(d)
        if d.app.message is not None:
            d.press("a")
        elif _his_draws(d, view):
            return                                     # his turn begins: the tile turned up, his draws
        elif _picking(d):
            _draw(d, rng)                              # your draw from the box's bag
        elif _crassus_pages(d) or isinstance(d.top, (ProvincePicker, PlayMap)) or _passing(d) or view["winner"] \
                and _home(d):
            return
        elif _home(d):
            if view["step"] == "bonus" or (view["mode"] == "solo" and view["turn"] == "human"
                                           and view["human"]["draws_due"] and view["step"] == "draw"):
                _goto_ident(d, "now")
                if _passing(d):
                    d.press("a")
            else:
                return
        elif isinstance(d.top, ChoiceScreen):
            d.press("a")
        else:
            d.press("a")
    raise RuntimeError(f"stuck on {type(d.top).__name__}: {d.screen()}")


def _crassus_turn(d: Driver, rng: random.Random, box: str = "") -> None:
    """His turn's pages, from the first shown (or from the home entry) until they are read; at his
    POWER_CUT_AT-th turn the power goes after the first page, at his UNDO_AT-th his turn is taken
    back once it is read (and the game loop plays it again)."""
    from firmware.screens.caesar.home import CaesarHome
    from firmware.screens.caesar.turn import TurnScreen
    from firmware.screens.widgets import TextScreen
    before = len(_lines(d))
    start = d.presses
    if _home(d):
        _goto_ident(d, "now")
    for _ in range(12):                                # physical tiles or bag: what was turned up, drawn
        if _crassus_pages(d):
            break
        if _picking(d):
            _draw(d, rng)
        else:
            d.press("a")
    assert _crassus_pages(d), d.screen()
    closes = any(p["kind"] == "close" for p in d.top.pages)
    notes = any(p["kind"] == "notes" for p in d.top.pages)          # his tile's notes on a screen of their own
    assert len(_lines(d)) > before or closes is not None
    n = _turns[id(d)] = _turns.get(id(d), 0) + 1
    if n == POWER_CUT_AT and len(d.top.pages) > 1 and d.app.message is None:
        d.press("a")                                   # the first page read, then the power goes
        page = d.top.page
        d.restart()
        with d.task("Caesar!: resume after a power cut"):
            d.press("a")                               # Resume: Caesar!
        assert isinstance(d.top, TurnScreen) and d.top.page == page, d.screen()   # the page not read
        start += 1                                     # the Resume press is the task's, not the turn's
    while _crassus_pages(d) and d.app.message is None:
        d.press("a")
    task = "Caesar!: Auto-Crassus turn" + (", closures" if closes else ", his notes" if notes else "")
    d.results[task + box].append(d.presses - start)
    view = _view(d)
    if n == UNDO_AT and not view["winner"] and view["turn"] == "human":
        with d.task("Caesar!: undo of his turn"):
            if d.app.message is not None:
                d.press("a")
            d.press("b:hold")
            d.press("a")                               # "Take back: Crassus: Tile …" — yes
            while d.app.message is not None or isinstance(d.top, TextScreen):
                d.press("a")                           # the notice of what was taken back
        assert isinstance(d.top, CaesarHome) and d.items()[0].label == d.items()[0].label and \
            _view(d)["turn"] == "crassus", d.screen()


def _game(d: Driver, rng: random.Random, task: str, everything: str, box: str = "") -> None:
    from firmware.screens.caesar.move import PlayMap, ProvincePicker
    for _ in range(MAX_TURNS * 6):
        view = _view(d)
        if view["winner"]:
            _back_home(d)
            return
        mine = "human" if view["mode"] == "solo" else view["turn"]
        due = view["human"]["draws_due"] if view["mode"] == "solo" else view["players"][mine]["draws_due"]
        if d.app.message is not None:
            d.press("a")
        elif _crassus_pages(d) or (_home(d) and view["mode"] == "solo" and view["turn"] == "crassus") \
                or _his_draws(d, view):
            _crassus_turn(d, rng, box)
        elif _picking(d):
            _draw(d, rng)                              # your first tokens from the box's bag
        elif view["step"] == "play" and not due and (isinstance(d.top, (ProvincePicker, PlayMap)) or _home(d)
                                                     or _passing(d)):
            with d.task(everything):
                with d.task(task):
                    _place(d, rng)
                _results(d, rng)
        elif _home(d):
            _goto_ident(d, "now")
        else:
            d.press("a")                               # a bonus (the first choice), pages, the question
    raise RuntimeError("the game did not end")


def _open_caesar(d: Driver) -> None:
    """Main menu → Games → Caesar! (the set-up form, its fair-draw code over it: one press closes it)."""
    d.press("a")                                       # Games (first item on a fresh device)
    d.press("a")                                       # Caesar! (first game)
    d.close_code_box()


def _start(d: Driver) -> None:
    """A on the form starts the game; over a won game "New game?" asks first (it files the won game
    as finished, C-12): yes."""
    d.press("a")
    if _is(d, "ReplaceQuestion"):
        d.press("a")


def solo_game(d: Driver, rng: random.Random, difficulty_steps: int = 0) -> None:
    _turns[id(d)] = 0
    _open_caesar(d)
    if difficulty_steps:
        d.press("down", 2)
        d.press("right", difficulty_steps)
    d.press("a")                                       # A on any row starts
    while _is(d, "SetupGuide"):                        # the set-up guide's pages
        d.press("a")
    _game(d, rng, "Caesar!: your placement", "Caesar!: your turn, all")


def duel_game(d: Driver, rng: random.Random) -> None:
    """From the finished solo game's home: New game (its code box closed) → Players: duel → Start."""
    _goto_ident(d, "new")
    d.close_code_box()
    d.press("right")                                   # Players: duel
    _start(d)                                          # A on any row starts
    while _is(d, "SetupGuide"):
        d.press("a")
    _game(d, rng, "Caesar!: duel placement", "Caesar!: duel turn, all")


def box_game(d: Driver, rng: random.Random) -> None:
    """From the finished duel's home: New game (its code box closed) → Players: solo → Bags:
    physical → Start; his first three tokens drawn from the box's bag and named (S-2), Start; then
    a solo game in which every token drawn, his and yours, is named on the device."""
    _turns[id(d)] = 0
    _goto_ident(d, "new")
    d.close_code_box()
    d.press("left")                                    # Players: solo
    d.press(*moves(d.top.cursor, [f.key for f in d.top.fields].index("bags")))
    d.press("right")                                   # Bags: physical
    d.press("a")
    for _ in range(3):                                 # his row (S-2), listed above Start once named
        _draw(d, rng)
    _start(d)                                          # Start
    while _is(d, "SetupGuide"):
        d.press("a")
    _game(d, rng, "Caesar!: your placement" + BOX, "Caesar!: your turn, all" + BOX, BOX)


def play(d: Driver, rng: random.Random) -> None:
    """Three solo games (normal with the language's rulebook, hard with the other one, easy with
    the other one still: the form remembers it), a duel, and a solo game with the box's bags, all
    on one device."""
    solo_game(d, rng)
    new_solo_game(d, rng, difficulty_steps=1, other_edition=True)
    new_solo_game(d, rng, difficulty_steps=-2)
    duel_game(d, rng)
    box_game(d, rng)


def new_solo_game(d: Driver, rng: random.Random, difficulty_steps: int = 0, other_edition: bool = False) -> None:
    """From the finished game's home: New game (its code box closed) → (difficulty, the other
    rulebook) → Start → yes to "New game?" (the won game is filed as finished, C-12)."""
    _turns[id(d)] = 0
    _goto_ident(d, "new")
    d.close_code_box()
    if difficulty_steps:
        d.press("down", 2)
        d.press("right" if difficulty_steps > 0 else "left", abs(difficulty_steps))
    if other_edition:                                  # the Rulebook row, under Difficulty
        d.press(*moves(d.top.cursor, 3))
        now = d.top.values()["edition"]
        want = EDITIONS.index("uk" if EDITIONS[now] == "ru" else "ru")
        d.press("right" if want > now else "left", abs(want - now))
    _start(d)
    while _is(d, "SetupGuide"):
        d.press("a")
    _game(d, rng, "Caesar!: your placement", "Caesar!: your turn, all")


if __name__ == "__main__":
    import statistics
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lang", nargs="?", default="en", choices=("en", "ru", "uk"))
    parser.add_argument("seed", nargs="?", type=int, default=1)
    args = parser.parse_args()
    drv = Driver(args.lang)
    play(drv, random.Random(args.seed))
    for task, counts in drv.results.items():
        print(task, "median", statistics.median(counts), "max", max(counts), "n", len(counts))
    print("\n".join(sorted(set(drv.problems))[:30]))
    drv.close()
