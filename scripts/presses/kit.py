"""Dice & bags at the table (issue 9 item 8), device keys only: roll dice from the menu, re-roll
chosen dice, a bag beside a running game and draws from it, and your own bag made on the device
(a common name from the list plus a typed one)."""
from __future__ import annotations

import random

from firmware.i18n import _, language
from scripts.presses.harness import Driver

TARGETS = {
    "roll dice from the menu": (4, 4),
    "roll again": (1, 1),
    "re-roll chosen dice": (6, 10),
    "bag beside a running game": (7, 8),
    "draw from the bag": (2, 2),
    "make your own bag (2 kinds)": (45, 50),     # 41 / 47 measured (24 games, en ru uk alike): 3 typed letters
}                                                # and ✓ cost about 14 of them (about 20 on 21-key rows: 47 / 65)


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
        d.select(_("Add an item…"))
        d.select(_("red"))
        d.press("right", 2)                        # 3 red
        d.press("down")                            # Add an item…
        d.press("a")
        d.select(_("Type a name…"))
        _type(d, word)
        d.press("right")                           # 2 of it
        d.press("down", 2)                         # Start
        d.press("a")
    kit = d.console.request("kit-state")["kit"]
    assert kit["bag"]["left"] == {_("red"): 3, word: 2}, kit
