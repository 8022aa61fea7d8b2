"""Dice & bags at the table (issue 9 item 8), device keys only: roll dice from the menu, re-roll
chosen dice, a bag beside a running game and draws from it, and your own bag made on the device
(a common name from the list plus a typed one; five names one each, several of one name, a mixed
bag with a typed name, each with a draw)."""
from __future__ import annotations

import random

from firmware.i18n import _, language
from firmware.screens.kit.presets import COMMON_NAMES
from scripts.presses.harness import Driver, moves

TARGETS = {
    "roll dice from the menu": (4, 4),
    "roll again": (1, 1),
    "re-roll chosen dice": (6, 10),
    "bag beside a running game": (7, 8),
    "draw from the bag": (2, 2),
    "make your own bag (2 kinds)": (45, 50),     # 42 / 48 measured (24 games, en ru uk alike): 3 typed letters
                                                 # and ✓ cost about 14 of them (about 20 on 21-key rows: 47 / 65);
                                                 # 41 / 47 with the list of names opened for each item (the
                                                 # form of counts costs the way up to «Type a name…», typed last)
    # your own bag as a form of counts (every common name a row), measured 26 / 27, 25.5 / 34 and
    # 43.5 / 52 (24 games); it was a list of the items added and a second list of names, opened at
    # «Type a name…» for each item: 63 / 78, 28.5 / 37, 53.5 / 71
    "own bag: 5 names, one each, and a draw": (26, 27),
    "own bag: several of one name, and a draw": (28, 34),
    "own bag: mixed, a typed name, and a draw": (44, 52),
}
GAMES = 5          # tests/test_presses.py: the median of five games (the name and count drawn vary the figure)


def _type(d: Driver, word: str) -> None:
    """Type ``word`` on the name keyboard (shortest moves, rows and columns wrap), then ✓."""
    from firmware.screens.widgets.keyboard import DONE, keyboard
    rows = keyboard(language())
    for ch in list(word) + [DONE]:
        screen = d.top
        r, c = next((i, row.index(ch)) for i, row in enumerate(rows) if ch in row)
        down = (r - screen.row) % len(rows)
        d.press("down" if down <= len(rows) - down else "up", min(down, len(rows) - down))
        n = len(rows[r])
        col = min(screen.col, n - 1)
        right = (c - col) % n
        d.press("right" if right <= n - right else "left", min(right, n - right))
        d.press("a")


def play(d: Driver, rng: random.Random) -> None:
    # dice: 2d6 is the default; roll from the main menu, then again a few times
    with d.task("roll dice from the menu"):
        d.select(_("Dice & bags"))
        d.select(_("Dice"))
        d.press("a")
    for _i in range(3):
        with d.task("roll again"):
            d.press("a")
    d.press("up")                                 # 3d6
    d.press("a")
    for _i in range(3):
        with d.task("re-roll chosen dice"):
            d.press("press")                      # pick mode: the cursor is on die 1
            picks = sorted(rng.sample(range(3), rng.randint(1, 2)))
            at = 0
            for p in picks:
                d.press("right", p - at)
                at = p
                d.press("press")
            d.press("a")
    d.press("b")
    d.press("b")
    # a game is running (set up at the table: not counted); a bag beside it, then draws
    d.run("new jc-battle seed=5")
    with d.task("bag beside a running game"):
        d.select(_("Dice & bags"))
        d.select(_("Bags & decks"))
        d.select(_("5 white, 5 black"))
    for _i in range(4):
        with d.task("draw from the bag"):
            d.select(_("Draw"))
            d.press("a")                          # the drawn item seen, back to the list
    assert d.console.session is not None and d.console.session.game.name == "jc-battle"
    d.press("b")
    d.press("b")
    d.press("b")
    # your own bag: 3 of a common colour and 2 of a typed name
    from firmware.screens.widgets.keyboard import ALPHABETS
    word = "".join(rng.choice(ALPHABETS[language()][:10]) for _i in range(3))
    with d.task("make your own bag (2 kinds)"):
        d.select(_("Dice & bags"))
        d.select(_("Bags & decks"))
        d.select(_("New bag or deck"))
        d.select(_("Your own bag…"))
        d.press("down", 6)                         # red (under «Type a name…» and five names)
        d.press("right", 3)                        # 3 red
        d.press("up", 6)                           # Type a name…
        d.press("a")
        _type(d, word)
        d.press("right")                           # 2 of it
        d.press("a")                               # A on a count: Start
    kit = d.console.request("kit-state")["kit"]
    assert kit["bag"]["left"] == {_("red"): 3, word: 2}, kit
    # the three common bags, each made anew beside the game and drawn from once
    names = sorted(rng.sample(COMMON_NAMES, 5), key=COMMON_NAMES.index)
    with d.task("own bag: 5 names, one each, and a draw"):
        _own_bag(d, [(_(w), 1) for w in names])
    kit = d.console.request("kit-state")["kit"]
    assert kit["bag"]["size"] == 4 and set(kit["bag"]["drawn"]) <= {_(w) for w in names}, kit
    several = rng.choice(COMMON_NAMES), rng.randint(3, 8)
    with d.task("own bag: several of one name, and a draw"):
        _own_bag(d, [(_(several[0]), several[1])])
    assert d.console.request("kit-state")["kit"]["bag"]["size"] == several[1] - 1
    a, b = sorted(rng.sample(COMMON_NAMES, 2), key=COMMON_NAMES.index)
    word = "".join(rng.choice(ALPHABETS[language()][:10]) for _i in range(3))
    mixed = [(word, rng.randint(1, 3)), (_(a), rng.randint(2, 5)), (_(b), rng.randint(1, 4))]
    with d.task("own bag: mixed, a typed name, and a draw"):
        _own_bag(d, mixed)
    kit = d.console.request("kit-state")["kit"]
    assert sum(kit["bag"]["left"].values()) == sum(n for _w, n in mixed) - 1, kit


def _own_bag(d: Driver, counts: list[tuple[str, int]]) -> None:
    """From the bag's screen: New bag or deck → Your own bag…, each name counted in the order
    given (a name not in the list is typed on «Type a name…»), A on the last count starts the bag,
    then a draw."""
    d.select(_("New bag or deck"))
    d.select(_("Your own bag…"))
    for name, n in counts:
        labels = [str(i.label) for i in d.items()]
        if name in labels:
            d.press(*moves(d.top.cursor, labels.index(name)))
            d.press("right", n)
        else:
            d.select(_("Type a name…"))
            _type(d, name)
            d.press("right", n - 1)
    d.press("a")                                   # A on a count: Start
    d.select(_("Draw"))
    d.press("a")                                   # the drawn item seen, back to the list
