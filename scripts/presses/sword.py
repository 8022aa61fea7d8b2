"""The Sword of Rome at the table, device keys only: battles fought with dice thrown on the table.

Each battle starts on the game's home screen: choose Battle, set both armies' units and the
attacker's modifier (left/right in the form), switch Dice to "table" (the first time: the forms
remember it), A, enter the six faces thrown
(each row read from its lowest die: up/down over a die's faces, right to the next die, A submits the
roll as soon as the dice still to come show their faces), read the result and go back home. Armies,
modifiers and faces are random but plausible (2–8 units, modifier −2..+3); "Sword: battle with a
flanking force and 6 physical dice" gives one side 1–4 flanking units besides its army (W-2: the
form's rows after the bonuses).

Tasks: "Sword: battle with 6 physical dice" (no target in the issue: measured), the same battle
rolled by the device ("Sword: battle with the device's dice": the form, A, the result, back home),
"Sword: tactics test with a physical die", "Sword: retreat losses after a battle" (W-5: on the
battle's result, once the loser has retreated: hold A, right once per unit lost, A — N + 2 presses)
"Sword: next round after a battle" (the home's cursor where the battle left it, on Battle;
round 5 asks first, the turn's end: a task of its own) and "Sword: a battle undone and fought
again, one figure corrected" (a battle fought with the table's dice and a unit too many for the
attacker: hold B, A, the notice read, then the form set to the right figures and the same faces
entered; the form opens on the undone battle's values and faces, so the typo's row alone is set).
"""
from __future__ import annotations

import random

from scripts.presses.harness import Driver

BATTLE = "Sword: battle with 6 physical dice"
FLANK = "Sword: battle with a flanking force and 6 physical dice"
DIGITAL = "Sword: battle with the device's dice"
TACTICS = "Sword: tactics test with a physical die"
RETREAT = "Sword: retreat losses after a battle"
NEXT = "Sword: next round after a battle"
TURN = "Sword: round 5 ends the turn (asked: Desperate Times played, attrition and scoring done?)"
AGAIN = "Sword: a battle undone and fought again, one figure corrected (dice thrown on the table)"
# no target in an issue: N + 2 presses for N = 1..4 units lost retreating (hold A, right ×N, A):
# a median of 4.5 for N drawn evenly, 6 at most
# and the round's end: down, down, A from Battle (it was 10, the home's last row but one)
# and round 5's end asks first (W-12, seed 7.4.5): down, down, A, A
# and a battle undone and fought again with one figure corrected: hold B, A, B (the notice), A on
# Battle, the figure (one press), A, A (the faces entered before): 7; it was 25 (median; 30 at most)
# when the form opened on 3 v 3 and every row and die was entered again
TARGETS: dict[str, tuple[int, int]] = {RETREAT: (5, 6), NEXT: (3, 3), TURN: (4, 4), AGAIN: (7, 7)}
BATTLES = 6


def _home(d: Driver) -> None:
    from firmware.screens.sword.home import SwordHome
    for _ in range(10):
        if isinstance(d.top, SwordHome) and d.app.message is None:
            return
        d.press("b")
    raise RuntimeError(d.screen())


def _set(d: Driver, start: int, value: int) -> None:
    """Move the form's current value from ``start`` to ``value`` with left/right."""
    d.press("right" if value > start else "left", abs(value - start))


def _armies(d: Driver, att: int, dfd: int, mod: int) -> None:
    """Open the Battle form and set both armies' units and the attacker's modifier."""
    from firmware.i18n import _
    d.select(_("Battle"))
    _set(d, 3, att)
    d.press("down")
    _set(d, 3, dfd)
    d.press("down")
    _set(d, 0, mod)


def _fill(d: Driver, values: dict[str, int]) -> None:
    """Set the form on screen to ``values`` (by field) from what it shows, top to bottom: down to
    each row up to the last that changes, left/right there."""
    d.app.render()
    fields = d.top.fields
    changed = [i for i, f in enumerate(fields) if f.key in values and f.value != values[f.key]]
    for i, f in enumerate(fields[:max(changed, default=-1) + 1]):
        if i:
            d.press("down")
        if f.key in values:
            _set(d, f.value, values[f.key])


def _table(d: Driver) -> bool:
    """Whether the form on screen opens on the dice thrown on the table (the last roll's choice)."""
    d.app.render()
    return any(f.key == "dice" and f.value == 1 for f in d.top.fields)


def _faces(d: Driver, faces: list[int]) -> None:
    """Enter the faces as they lie on the table, each row read from its lowest die: up/down from
    the face the screen shows (wrapping over 1..6), right to the next die, and A as soon as every
    die still to come already shows its face (a guess that matches: firmware/dice_guess.py), as a
    player does — it pressed right through every die, A on the last only."""
    for i, f in enumerate(faces):
        if _shown(d)[i:] == faces[i:]:
            break
        r, j = d.top.at
        now = d.top.faces[r][j]
        up, down = (f - now) % 6, (now - f) % 6
        d.press("up", up) if up <= down else d.press("down", down)
        if _shown(d)[i + 1:] == faces[i + 1:]:
            break
        d.press("right")
    d.press("a")


def _shown(d: Driver) -> list[int]:
    """The faces the dice entry shows, in the order the cursor goes through them."""
    return [face for row in d.top.faces for face in row]


def play(d: Driver, rng: random.Random) -> None:
    from firmware.i18n import _
    from firmware.screens.sword.home import SwordHome
    from firmware.screens.sword.battle import BattleResult
    from firmware.screens.sword.rolls import TacticsResult
    assert d.run("new sword players=romans,gauls,etruscans,greeks")["ok"]
    d.app.stack[:] = d.app.stack[:1]
    d.app.push(SwordHome())
    # the device's dice first: once the table's dice are chosen, the forms open on them
    for _n in range(BATTLES):
        att, dfd, mod = rng.randint(2, 8), rng.randint(2, 8), rng.randint(-2, 3)
        with d.task(DIGITAL):
            _armies(d, att, dfd, mod)
            d.press("a")                             # fights with the device's dice
            assert isinstance(d.top, BattleResult), d.screen()
            assert d.top.result["attacker"]["units"] == att and d.top.result["defender"]["units"] == dfd
            d.press("b")
        _home(d)
    for _n in range(BATTLES):                        # W-5: the loser's retreat losses, after its retreat
        d.select(_("Battle"))
        d.press("right", 3)                          # 6 attackers against 3 defenders, the device's dice
        d.press("a")
        assert isinstance(d.top, BattleResult), d.screen()
        r = d.top.result
        loser = r["attacker"] if r["loser"] == "attacker" else r["defender"]
        left = loser["units"] - loser["losses"]
        if left:
            lost = rng.randint(1, min(left, 4))
            with d.task(RETREAT):
                d.press("a:hold")
                d.press("right", lost)
                d.press("a")
            assert isinstance(d.top, BattleResult) and d.top.result["retreat_losses"] == lost, d.screen()
            assert d.top.result["support"] == -(-(loser["losses"] + lost) // 2)
        d.press("b")
        _home(d)
    for _n in range(BATTLES):
        att, dfd, mod = rng.randint(2, 8), rng.randint(2, 8), rng.randint(-2, 3)
        faces = sorted(rng.randint(1, 6) for _ in range(3)) + sorted(rng.randint(1, 6) for _ in range(3))
        with d.task(BATTLE):
            _armies(d, att, dfd, mod)
            if not _table(d):                        # the form remembers the dice the table throws
                d.press("down", 4)                   # past the defence bonus and both sides' flanking units
                #                                      (W-2) to Dice (no Sacred Band row: Carthage is not in this game)
                d.press("right")                     # Dice: table
            d.press("a")
            _faces(d, faces)
            assert isinstance(d.top, BattleResult), d.screen()
            assert d.top.result["attacker"]["dice"] == faces[:3]
            d.press("b")
        _home(d)
    for _n in range(BATTLES):                        # W-2: one side with a flanking force
        att, dfd, mod, flank = rng.randint(2, 8), rng.randint(2, 8), rng.randint(-2, 3), rng.randint(1, 4)
        side = rng.choice(["att_flank", "def_flank"])
        faces = sorted(rng.randint(1, 6) for _ in range(3)) + sorted(rng.randint(1, 6) for _ in range(3))
        with d.task(FLANK):
            d.select(_("Battle"))
            _fill(d, {"att": att, "def": dfd, "mod": mod, side: flank, "dice": 1})
            d.press("a")
            _faces(d, faces)
            assert isinstance(d.top, BattleResult), d.screen()
            who = d.top.result["attacker" if side == "att_flank" else "defender"]
            assert who.get("flank") == flank and d.top.result["attacker"]["dice"] == faces[:3], d.screen()
            d.press("b")
        _home(d)
    for _n in range(3):
        rating, die = rng.randint(1, 5), rng.randint(1, 6)
        with d.task(TACTICS):
            d.select(_("Tactics test"))
            _set(d, 2, rating)
            if not _table(d):
                d.press("down", 3)                   # past the modifier and the test to Dice
                d.press("right")
            d.press("a")
            _faces(d, [die])
            assert isinstance(d.top, TacticsResult) and d.top.result["roll"] == die
            d.press("b")
        _home(d)
    for _n in range(BATTLES):                        # a round's end: from the home as a battle left it
        d.select(_("Battle"))
        d.press("a")
        d.press("b")
        _home(d)
        before = d.view()["round"], d.view()["turn"]
        with d.task(TURN if before[0] == 5 else NEXT):
            d.select(_("Next round"))
            if before[0] == 5:                       # the turn's end is asked (W-12 order, attrition, scoring)
                d.press("a")
        assert (d.view()["round"], d.view()["turn"]) != before, d.screen()
        _home(d)
    for _n in range(BATTLES):                        # a typo found on the result: undo, fight it again
        att, dfd, mod = rng.randint(2, 8), rng.randint(2, 8), rng.randint(-2, 3)
        faces = sorted(rng.randint(1, 6) for _ in range(3)) + sorted(rng.randint(1, 6) for _ in range(3))
        d.select(_("Battle"))
        _fill(d, {"att": att + 1, "def": dfd, "mod": mod, "dice": 1})   # one unit too many for the attacker
        d.press("a")
        _faces(d, faces)
        assert isinstance(d.top, BattleResult) and d.top.result["attacker"]["units"] == att + 1, d.screen()
        with d.task(AGAIN):
            d.press("b:hold")                        # Undo? A: undo
            d.press("a")
            d.press("b")                             # the notice «Undone: …» read
            assert isinstance(d.top, SwordHome) and d.app.message is None, d.screen()
            d.select(_("Battle"))
            _fill(d, {"att": att, "def": dfd, "mod": mod, "dice": 1})
            d.press("a")
            if d.top.faces != [faces[:3], faces[3:]]:
                _faces(d, faces)
            else:
                d.press("a")                         # the faces thrown, as entered before
            assert isinstance(d.top, BattleResult), d.screen()
            assert d.top.result["attacker"]["units"] == att and d.top.result["attacker"]["dice"] == faces[:3]
        d.press("b")
        _home(d)
