"""An independent oracle for The Sword of Rome: what the device computes (tactics tests, the 3d6
battle and its loss table, exact odds, the tracks), written here from the digest
(shared/reference/sword_of_rome.md, W-1..W-13) and the Russian fragment (seed 7.4, 8.1), without
reading the engine's code, then compared with the engine exhaustively where the space is small and
on random battles and tracks elsewhere. Nothing here imports ``engine.sword`` beyond its console
entry points and its session game: the oracle's tables are typed again from the digest."""
from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from math import ceil

import pytest

from engine.errors import IllegalMove
from engine.rng import Rng
from engine.sword.console import BATTLE, GAME, ODDS, TACTICS
from tests.test_glory_helpers import new as new_game
from tests.test_glory_helpers import parse
from tests.test_glory_helpers import run as run_game

# -- the oracle ------------------------------------------------------------------------------
# W-4, typed from the digest's table: (result, size column) -> the code of faces 1..6.
_W, _L = "winner", "loser"
LOSS: dict[tuple[str, str], tuple[str, ...]] = {
    (_W, "1"): ("-", "-", "-", "-", "-", "L2"),
    (_W, "2"): ("-", "-", "-", "-", "L2", "L2"),
    (_W, "3+"): ("-", "-", "-", "L1", "L2", "L2"),
    (_L, "1"): ("L1", "-", "-", "-", "-", "W1"),
    (_L, "2"): ("L1", "-", "-", "-", "W1", "W1"),
    (_L, "3+"): ("L1", "-", "-", "W1", "W1", "W1"),
}
# W-11 (rules 4.4): the earlier power wins a tie.
TIE_ORDER = ("gauls", "etruscans", "samnites", "greeks", "carthage", "romans")


def column(units: int) -> str:
    """W-4: the loss table's column by army size: 1 unit, 2 units, 3 or more."""
    return "1" if units == 1 else "2" if units == 2 else "3+"


def oracle_tactics(rating: int, mod: int, die: int) -> tuple[Fraction, bool]:
    """W-1 / seed 8.1: success when the modified roll is at most the Tactics rating; the chance is
    known before the roll."""
    chance = Fraction(sum(1 for d in range(1, 7) if d + mod <= rating), 6)
    return chance, die + mod <= rating


def oracle_battle(att: int, dfn: int, att_dice: tuple[int, ...], def_dice: tuple[int, ...],
                  mod: int = 0, defmod: int = 0, retreat: int = 0) -> dict:
    """W-2..W-5 for two armies of ``att``/``dfn`` units."""
    a_total, d_total = sum(att_dice) + mod, sum(def_dice) + defmod
    winner = "attacker" if a_total > d_total else "defender"          # W-3: a tie to the defender
    loser = "defender" if winner == "attacker" else "attacker"
    units = {"attacker": att, "defender": dfn}
    dice = {"attacker": att_dice, "defender": def_dice}
    table = {"attacker": 0, "defender": 0}
    readings = []
    for side in ("attacker", "defender"):
        result = _W if side == winner else _L
        for die in dice[side]:                                         # the unmodified dice
            code = LOSS[(result, column(units[side]))][die - 1]
            readings.append({"side": side, "die": die, "reads": code})
            if code == "L1":
                table[loser] += 1
            elif code == "L2":
                table[loser] += 2
            elif code == "W1":
                table[winner] += 1
    losses = {side: min(table[side], units[side]) for side in table}
    retreat = min(retreat, units[loser] - losses[loser])              # at most the units it has left
    gone = {side: losses[side] + (retreat if side == loser else 0) for side in table}
    return {
        "winner": winner, "loser": loser, "totals": (a_total, d_total),
        "table_losses": (table["attacker"], table["defender"]),
        "losses": (losses["attacker"], losses["defender"]),
        "eliminated": (gone["attacker"] >= att, gone["defender"] >= dfn),
        "support": ceil((losses[loser] + retreat) / 2),                # W-5
        "retreat": retreat, "readings": readings,
    }


def _sum_counts(n: int) -> dict[int, int]:
    counts = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    return counts


def oracle_odds(mod: int, att_dice: int = 3, def_dice: int = 3) -> Fraction:
    """W-6: the attacker wins when its total plus its net modifier beats the defender's."""
    a, d = _sum_counts(att_dice), _sum_counts(def_dice)
    wins = sum(wa * wd for sa, wa in a.items() for sd, wd in d.items() if sa + mod > sd)
    return Fraction(wins, 6 ** (att_dice + def_dice))


def oracle_standings(vp: dict[str, int], unrest: int = 0) -> list[str]:
    """W-11: most VP first, ties by the fixed order; W-13: Carthage's VP less ⌊unrest/3⌋ (not below 0)."""
    eff = {p: (max(0, v - unrest // 3) if p == "carthage" else v) for p, v in vp.items()}
    return sorted(vp, key=lambda p: (-eff[p], TIE_ORDER.index(p)))


# -- the engine through its console entry points ----------------------------------------------
def _tactics(line: str) -> dict:
    return TACTICS.handler(parse("sword-tactics " + line), Rng(1))


def _battle(line: str, seed: int = 1) -> dict:
    return BATTLE.handler(parse("sword-battle " + line), Rng(seed))


def _odds(line: str) -> dict:
    return ODDS.handler(parse("sword-odds " + line), Rng(1))


def _faces(dice: tuple[int, ...]) -> str:
    return ",".join(map(str, dice))


def _agree(out: dict, want: dict, att: int, dfn: int) -> None:
    a, d = out["attacker"], out["defender"]
    assert (a["units"], d["units"]) == (att, dfn)
    assert (a["total"], d["total"]) == want["totals"]
    assert (out["winner"], out["loser"]) == (want["winner"], want["loser"])
    assert (a["table_losses"], d["table_losses"]) == want["table_losses"]
    assert (a["losses"], d["losses"]) == want["losses"]
    assert (a["eliminated"], d["eliminated"]) == want["eliminated"]
    assert out["support"] == want["support"] and out["retreat_losses"] == want["retreat"]
    assert out["readings"] == want["readings"]


# -- W-1 tactics: every rating × modifier × die -----------------------------------------------
def test_every_tactics_test_agrees_with_the_oracle():  # W-1, seed 8.1
    for rating, mod, die in product(range(10), range(-20, 21), range(1, 7)):
        out = _tactics(f"{rating} mod={mod} die={die}")
        chance, ok = oracle_tactics(rating, mod, die)
        assert (out["roll"], out["modified"], out["success"]) == (die, die + mod, ok), (rating, mod, die)
        assert Fraction(out["chance_fraction"]) == chance and out["chance"] == float(chance)


@pytest.mark.parametrize("kind, die, says", [("intercept", 1, "+1"), ("avoid", 6, "−1")])
def test_a_tests_effect_names_the_defenders_battle_modifier(kind: str, die: int, says: str):  # W-1
    """A successful interception gives the defender +1; a failed avoid gives it −1; the other
    outcomes of those two tests change nothing in the battle."""
    assert says in _tactics(f"3 die={die} kind={kind}")["effect"].replace("-", "−")
    other = _tactics(f"3 die={7 - die} kind={kind}")["effect"]
    assert "+1" not in other and "−1" not in other and "-1" not in other


# -- W-2..W-5 battles: every pair of rolls in every column ------------------------------------
def _rolls(n: int) -> Iterator[tuple[int, ...]]:
    return product(range(1, 7), repeat=n)


@pytest.mark.parametrize("att, dfn", [(1, 1), (1, 2), (2, 1), (2, 2), (1, 5), (5, 1), (2, 7), (3, 3), (12, 5)])
def test_every_pair_of_3d6_rolls_in_every_column_agrees(att: int, dfn: int):  # W-2, W-3, W-4, W-5
    """Every ordered roll of each side (216 × 216) with both armies in each loss-table column, so
    every face is read as winner and loser in columns 1, 2 and 3+, with losses stopping at the units
    present (a 1-unit army reading L2)."""
    for att_dice, def_dice in product(list(_rolls(3)), repeat=2):
        out = _battle(f"att={att} def={dfn} att-dice={_faces(att_dice)} def-dice={_faces(def_dice)}")
        _agree(out, oracle_battle(att, dfn, att_dice, def_dice), att, dfn)


def test_every_3d6_total_against_every_total_and_modifier_agrees():  # W-2, W-3
    """Who wins depends on the totals only: every attacker total 3..18 against every defender total,
    every net modifier −20..+20 and defender's modifier −1..+1 (a failed avoid, a successful
    interception); a tie goes to the defender."""
    one = {sum(r): r for r in _rolls(3)}          # one roll for each total
    for ra, rd, mod, defmod in product(one.values(), one.values(), range(-20, 21), (-1, 0, 1)):
        out = _battle(f"att=4 def=4 mod={mod} defmod={defmod} att-dice={_faces(ra)} def-dice={_faces(rd)}")
        _agree(out, oracle_battle(4, 4, ra, rd, mod, defmod), 4, 4)


@pytest.mark.parametrize("band", ["att", "def"])
def test_every_sacred_band_roll_reads_all_four_dice(band: str):  # W-2 (Carthage's 4d6), W-4
    n_att, n_def = (4, 3) if band == "att" else (3, 4)
    for i, (att_dice, def_dice) in enumerate(product(list(_rolls(n_att)), list(_rolls(n_def)))):
        if i % 5:                                      # every fifth of the 279,936 rolls, in two columns each
            continue
        for att, dfn in ((2, 3), (3, 1)):
            out = _battle(f"att={att} def={dfn} sacred-band={band} att-dice={_faces(att_dice)} "
                          f"def-dice={_faces(def_dice)}")
            _agree(out, oracle_battle(att, dfn, att_dice, def_dice), att, dfn)


def test_random_battles_with_digital_dice_agree():  # W-2..W-5
    rnd = random.Random(20261127)
    for i in range(4000):
        att, dfn = rnd.randint(1, 99) if rnd.random() < 0.3 else rnd.randint(1, 5), rnd.randint(1, 6)
        mod, defmod, retreat = rnd.randint(-8, 8), rnd.randint(-3, 3), rnd.randint(0, 8)
        band = rnd.choice(["", " sacred-band=att", " sacred-band=def"])
        out = _battle(f"att={att} def={dfn} mod={mod} defmod={defmod} retreat={retreat}{band}", seed=i)
        att_dice, def_dice = tuple(out["attacker"]["dice"]), tuple(out["defender"]["dice"])
        assert len(att_dice) == (4 if band.endswith("att") else 3)
        assert len(def_dice) == (4 if band.endswith("def") else 3)
        assert (out["attacker"]["modifier"], out["defender"]["modifier"]) == (mod, defmod)
        _agree(out, oracle_battle(att, dfn, att_dice, def_dice, mod, defmod, retreat), att, dfn)


def test_the_rulebook_example_by_the_oracle():  # W-7
    want = oracle_battle(12, 5, (5, 2, 2), (4, 5, 5), mod=3)
    assert want["winner"] == "defender" and want["losses"] == (5, 1) and want["support"] == 3


# -- W-6 exact odds ---------------------------------------------------------------------------
@pytest.mark.parametrize("band, dice", [("", (3, 3)), (" sacred-band=att", (4, 3)), (" sacred-band=def", (3, 4))])
def test_the_odds_are_exact_for_every_modifier(band: str, dice: tuple[int, int]):  # W-6
    for mod in range(-20, 21):
        out = _odds(f"mod={mod}{band}")
        p = oracle_odds(mod, *dice)
        assert Fraction(out["attacker_wins_fraction"]) == p and out["attacker_wins"] == float(p), mod
        assert Fraction(out["defender_wins"]).limit_denominator(6 ** 7) == 1 - p
        assert (out["attacker_dice"], out["defender_dice"]) == dice


def test_the_oracles_odds_are_the_digests_reference_figures():  # W-6
    figures = {-3: 20.6, -2: 27.9, -1: 36.3, 0: 45.4, 1: 54.6, 2: 63.7, 3: 72.1, 4: 79.4, 5: 85.5, 6: 90.4}
    for mod, percent in figures.items():
        assert round(float(oracle_odds(mod)) * 100, 1) == percent


# -- W-11..W-13 tracks: random sessions against the oracle ------------------------------------
def test_random_tracks_agree_with_the_oracle():  # W-11, W-12, W-13
    rnd = random.Random(7)
    powers = ["romans", "gauls", "etruscans", "greeks", "carthage"]
    for game in range(60):
        players = rnd.sample(powers, rnd.randint(2, 5))
        state = new_game("players=" + ",".join(players), game, game=GAME)
        vp = dict.fromkeys(players, 0)
        cards = dict.fromkeys(players, 2)
        unrest = 0
        for _ in range(40):
            p = rnd.choice(players)
            what = rnd.random()
            if what < 0.3:
                n = rnd.randint(-14, 14)
                run_game(state, f"vp {p} {n:+d}", game=GAME)
                vp[p] = min(12, max(0, vp[p] + n))
            elif what < 0.5:
                outside, missing = rnd.randint(0, 6), rnd.randint(0, 6)
                out = run_game(state, f"scoring {p} outside={outside} missing={missing}", game=GAME)
                assert out["change"] == outside - missing
                vp[p] = min(12, max(0, vp[p] + outside - missing))
            elif what < 0.6 and "carthage" in players:
                n = rnd.randint(0, 20)
                out = run_game(state, f"unrest ={n}", game=GAME)
                unrest = n
                assert (out["hand_size_modifier"], out["vp_modifier"]) == (-(n // 2), -(n // 3))
            elif what < 0.8:
                wanting = rnd.sample(players, rnd.randint(1, len(players)))
                eff = {q: (max(0, vp[q] - unrest // 3) if q == "carthage" else vp[q]) for q in players}
                if any(cards[q] == 0 for q in wanting):
                    with pytest.raises(IllegalMove):
                        run_game(state, "desperate " + ",".join(wanting), game=GAME)
                    continue
                out = run_game(state, "desperate " + ",".join(wanting), game=GAME)
                plays = min(wanting, key=lambda q: (eff[q], TIE_ORDER.index(q)))   # W-12: fewest VP
                assert out["plays"] == plays and sorted(out["kept"]) == sorted(set(wanting) - {plays})
                cards[plays] -= 1
            else:
                out = run_game(state, "desperate-order", game=GAME)
                eff = {q: (max(0, vp[q] - unrest // 3) if q == "carthage" else vp[q]) for q in players}
                order = sorted((q for q in players if cards[q]), key=lambda q: (-eff[q], TIE_ORDER.index(q)))
                assert out["order"] == order
            shown = run_game(state, "standings", game=GAME)
            assert shown["vp"] == vp and shown["standings"] == oracle_standings(vp, unrest)
            assert GAME.view(state)["desperate"] == cards


def test_the_battle_forms_title_shows_the_oracles_odds():  # W-6, W-2 (Sacred Band)
    """The Battle form's title bar shows the attacker's chance before the roll for its attack and
    defence bonuses (each −9..+9) and Sacred Band row: the oracle's exact odds as the device writes them."""
    from firmware.screens.sword.rolls import _odds_status
    from firmware.screens.widgets.odds import pct
    for mod, defmod, band in product(range(-9, 10), range(-9, 10), range(3)):
        dice = (4 if band == 1 else 3, 4 if band == 2 else 3)
        shown = _odds_status(None, {"mod": mod, "defmod": defmod, "band": band})  # type: ignore[arg-type]
        assert shown == f"attacker {pct(float(oracle_odds(mod - defmod, *dice)))}", (mod, defmod, band)


def test_the_tactics_forms_title_shows_the_oracles_chance():  # W-1
    """The Tactics test form's title bar shows the chance before the roll for every rating and
    modifier it offers; the Odds screen shows the attacker's and defender's chances for every net
    modifier it offers (W-6)."""
    from firmware.screens.sword.rolls import odds_screen, tactics_form
    from firmware.screens.widgets.odds import pct
    form = tactics_form()
    assert form.form_status is not None
    for rating, mod in product(range(0, 7), range(-3, 4)):
        assert form.form_status(None, {"rating": rating, "mod": mod}) == pct(float(oracle_tactics(rating, mod, 1)[0]))  # type: ignore[arg-type]
    odds = odds_screen()
    assert odds.adjust is not None
    odds.adjust(None, -99)                                                    # type: ignore[arg-type]
    for mod in range(-15, 16):
        p = oracle_odds(mod)
        shown = [q for _, q in odds.outcomes(None) or []]                     # type: ignore[arg-type]
        assert shown == [float(p), pytest.approx(float(1 - p), abs=1e-15)], mod
        odds.adjust(None, 1)                                                  # type: ignore[arg-type]


def oracle_naval(die: int, mod: int, extra_ops: int, friendly_port: bool) -> tuple[int, str]:
    """W-8: 1d6 plus the modifiers (+1 per extra Carthaginian operations point, −2 into a friendly
    port): 1–2 success, 3–4 return, 5–6 attrition (beyond the table: its first or last row)."""
    m = die + mod + extra_ops - (2 if friendly_port else 0)
    return m, "success" if m <= 2 else "return" if m <= 4 else "attrition"


def test_every_naval_move_and_2d6_check_agrees_with_the_oracle():  # W-8, W-9
    s = new_game("players=romans,gauls,carthage", 1, game=GAME)
    for die, mod, extra, port in product(range(1, 7), range(-3, 4), range(0, 4), (False, True)):
        out = run_game(s, f"naval die={die} mod={mod} extra-ops={extra}" + (" friendly-port=1" if port else ""), game=GAME)
        assert (out["roll"], out["modified"], out["result"]) == (die, *oracle_naval(die, mod, extra, port))
    for a, b, mod in product(range(1, 7), range(1, 7), range(-3, 4)):
        out = run_game(s, f"check siege dice={a},{b} mod={mod} gauls=1", game=GAME)      # the Gauls' −1 (W-9)
        assert (out["dice"], out["sum"], out["total"]) == ([a, b], a + b, a + b + mod - 1)
        out = run_game(s, f"check attrition dice={a},{b} mod={mod}", game=GAME)
        assert (out["sum"], out["total"]) == (a + b, a + b + mod)
