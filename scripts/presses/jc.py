"""Julius Caesar at the table, device keys only: a battle with physical dice.

The armies are set up with uncounted console lines (the set-up is not what is measured). Then the
person fights the battle on the device: on each decision the cursor starts on Fire (or on the
first block that can take a hit); every fire asks for the dice thrown at the table, which the
person enters reading them from lowest to highest (each die starts on the likeliest face after the
previous die's, firmware/dice_guess.py: up/down turn it, right goes to the next die, A enters the
roll as soon as the dice still to come show their faces), then acknowledges the result.

Tasks:
- "JC: battle with physical dice (3 rounds)" — from the session's home until round 4 begins or
  the battle ends (issue 9's table: 136 before).
- "JC: a physical die" — the presses spent on one die in the dice entry (its face moves, the
  right to the next die, and the A for the last die): target ≤ 2 on average.
- "JC: Vulcan, 1-3 blocks lose a step" — after the battle, from the session's home: Blocks → the
  side → each block of the city (random blocks in play; through its kind's row, B first out of
  another kind's list) → Lose a step (A again where the step ends the block) → the notice closed.
  24 games: with the side's 31 blocks in one list median 40.5, max 81; by kind 25, max 45.
- "JC: a battle set up on the device (2-4 roster blocks a side)" — from the home: Add attacker →
  each block (through its kind's row) → A on its form; B back to the home; the same for the
  defender. 24 games: one list median 90.5, max 128; by kind 66, max 88.
- "JC: a Jupiter defection" — from the home: Blocks → the side → a random block that may change
  side (through its kind's row) → Go over → the notice closed. 24 games: one list median 19.5, max
  32; by kind 12, max 21.
- "JC: a levy, 1-3 steps added" — from the home: Blocks → the side → each of 1-3 random blocks
  below their maximum (through its kind's row) → Gain a step → the notice closed (J-20: a block
  levied from the pool comes in at I with no key; each further levy point is such a step).
- "JC: the winter" — from the home: Winter → A on the question → the checklist closed (J-19).
"""
from __future__ import annotations

import random
from typing import Any

from scripts.presses.harness import Driver, moves

TARGETS = {"JC: a physical die": (2, 5)}   # max: 3 face moves + right + A

ARMIES = ["add attacker c_caesar", "add attacker c_leg10", "add attacker c_leg8",
          "add defender p_pompeius", "add defender p_leg1", "add defender p_leg3"]


def _battle(d: Driver) -> dict[str, Any]:
    return d.view()["battle"]


def _enter_dice(d: Driver, rng: random.Random) -> None:
    """On the dice entry screen: roll, read low to high, enter each die, A."""
    from firmware.screens.jc.battle import JcDiceEntry
    screen = d.top
    assert isinstance(screen, JcDiceEntry), type(screen).__name__
    d.app.render()                       # the screen sizes itself to the block's strength
    faces = sorted(rng.randint(1, 6) for _ in range(len(screen.faces[0])))
    for i, face in enumerate(faces):
        start = d.presses
        if i > 0:
            d.press("right")
        now = screen.faces[0][screen.cursor]
        up, down = (face - now) % 6, (now - face) % 6
        d.press("up", up) if up <= down else d.press("down", down)
        rest = faces[i + 1:]
        if screen.faces[0][i + 1:] == rest:          # the dice still to come already show theirs
            d.press("a")
            d.results["JC: a physical die"].append(d.presses - start)
            d.results["JC: a physical die"].extend([0] * len(rest))
            return
        d.results["JC: a physical die"].append(d.presses - start)


def play(d: Driver, rng: random.Random) -> None:
    from firmware.screens.jc.battle import BattleScreen, DiceResult, OverScreen
    d.run(f"new jc-battle dice=physical seed={rng.randrange(10 ** 6)}")
    for line in ARMIES:
        d.run(line)
    d.press("a")                                   # main menu: resume Julius Caesar
    with d.task("JC: battle with physical dice (3 rounds)"):
        d.press("a")                               # Battle (the first item)
        d.press("a")                               # Start round 1
        for _ in range(200):
            b = _battle(d)
            if b["phase"] == "over" or b["round"] > 3:
                break
            top = d.top
            if isinstance(top, (DiceResult, OverScreen)) or d.app.message is not None:
                d.press("a")
                continue
            assert isinstance(top, BattleScreen), type(top).__name__
            dec = b["decision"]
            d.press("a")                           # Fire (or the first block for a hit)
            if dec and dec["kind"] == "turn" and len(dec["blocks"]) > 1:
                d.press("a")                       # that block's Fire
            if dec and dec["kind"] == "turn" and "fire" in dec["actions"] and b["dice"] == "physical":
                _enter_dice(d, rng)
    bookkeeping(d, rng)


def _pick(d: Driver, ident: str) -> None:
    """Move the top list's cursor to the item ``ident`` (each move counts) and press A."""
    d.app.render()                       # as the device does after a console line: the cursor follows its row
    keys = [item.key for item in d.items()]
    assert ident in keys, (ident, keys)
    d.press(*moves(getattr(d.top, "cursor", 0), keys.index(ident)))
    d.press("a")


def _pick_block(d: Driver, block: dict[str, Any]) -> None:
    """On a side's blocks by kind (firmware/screens/jc/kinds.py): the block ``block``, back out of
    another kind's list first and through its kind's row when it has one (every press counts)."""
    kind = getattr(d.top, "kind", "")
    if kind and kind != block["kind"]:
        d.press("b")
    keys = [item.key for item in d.items()]
    if block["id"] not in keys:
        _pick(d, f"kind:{block['kind']}")
    _pick(d, block["id"])


def _home(d: Driver) -> None:
    """Back to the session's home (B presses not counted: between tasks)."""
    from firmware.screens.jc.home import JcHome
    for _ in range(10):
        if isinstance(d.top, JcHome) and d.app.message is None:
            return
        d.app.handle("b")
        d.check()
    raise AssertionError(type(d.top).__name__)


def bookkeeping(d: Driver, rng: random.Random) -> None:
    """Between battles: a Vulcan (1-3 blocks of one side lose a step) and a Jupiter defection."""
    from firmware.screens.widgets import ConfirmScreen
    from firmware.screens.jc.text import _
    d.run("fight")                                 # the battle ends (not measured)
    _home(d)
    side = rng.choice(("caesar", "pompey"))
    pool = [b for b in d.console.request(f"roster {side}")["blocks"] if b["status"] == "available"
            and not (b["kind"] == "cleopatra" and b["strength"] == 1)]
    with d.task("JC: Vulcan, 1-3 blocks lose a step"):
        _pick(d, _("Blocks"))
        _pick(d, side)
        for b in rng.sample(pool, rng.randint(1, 3)):
            _pick_block(d, b)
            _pick(d, "lose")
            if isinstance(d.top, ConfirmScreen):             # the last step: asked first
                d.press("a")
            assert d.app.message is not None or type(d.top).__name__ == "TextScreen", type(d.top).__name__
            d.press("a")                                     # the notice closed
    _home(d)
    side = rng.choice(("caesar", "pompey"))
    pool = [b for b in d.console.request(f"roster {side}")["blocks"] if b["status"] == "available"
            and b["kind"] not in ("leader", "navis")]
    with d.task("JC: a Jupiter defection"):
        _pick(d, _("Blocks"))
        _pick(d, side)
        _pick_block(d, rng.choice(pool))
        _pick(d, "owner")
        d.press("a")                                         # the notice closed
    _home(d)
    side = rng.choice(("caesar", "pompey"))
    pool = [b for b in d.console.request(f"roster {side}")["blocks"] if b["status"] == "available"
            and b["strength"] < b["max"]]
    with d.task("JC: a levy, 1-3 steps added"):
        _pick(d, _("Blocks"))
        _pick(d, side)
        for b in rng.sample(pool, rng.randint(1, 3)):
            _pick_block(d, b)
            _pick(d, "gain")
            d.press("a")                                     # the notice closed
    _home(d)
    with d.task("JC: the winter"):
        _pick(d, "campaign")
        d.press("a")                                         # asked first: A
        assert type(d.top).__name__ == "Announcement", type(d.top).__name__
        d.press("a")                                         # its checklist read and closed
    _home(d)
    setup_battle(d, rng)


def setup_battle(d: Driver, rng: random.Random) -> None:
    """The next battle set up on the device: Add attacker, then 2-4 random roster blocks of the side
    (through their kinds' rows), each at the strength it has (A on its form); back to the home; the
    same for the defender."""
    from firmware.screens.jc.home import JcHome
    from firmware.screens.jc.text import _
    d.run("next-battle")                           # (not measured)
    _home(d)
    with d.task("JC: a battle set up on the device (2-4 roster blocks a side)"):
        for label, side in ((_("Add attacker"), "caesar"), (_("Add defender"), "pompey")):
            pool = [b for b in d.console.request(f"roster {side}")["blocks"] if b["status"] == "available"]
            _pick(d, label)
            for b in rng.sample(pool, rng.randint(2, 4)):
                _pick_block(d, b)
                d.press("a")                                 # the form: added at its strength
                if d.app.message is not None or type(d.top).__name__ == "TextScreen":
                    d.press("a")                             # a reminder (Octavian, Brutus: rules 7.51)
            while not isinstance(d.top, JcHome):
                d.press("b")
    _home(d)
