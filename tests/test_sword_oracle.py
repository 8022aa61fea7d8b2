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
                  mod: int = 0, defmod: int = 0, retreat: int = 0, flank: tuple[int, int] = (0, 0)) -> dict:
    """W-2..W-5 for two armies of ``att``/``dfn`` units, each with ``flank`` flanking units besides:
    every unit can be lost, the column is the army size (army + half the flankers, rounded up)."""
    size = {"attacker": att + ceil(flank[0] / 2), "defender": dfn + ceil(flank[1] / 2)}
    att, dfn = att + flank[0], dfn + flank[1]
    a_total, d_total = sum(att_dice) + mod, sum(def_dice) + defmod
    winner = "attacker" if a_total > d_total else "defender"          # W-3: a tie to the defender
    loser = "defender" if winner == "attacker" else "attacker"
    units = {"attacker": att, "defender": dfn}
    dice = {"attacker": att_dice, "defender": def_dice}
    table = {"attacker": 0, "defender": 0}
    readings = []
    unread: dict[str, list[int]] = {"attacker": [], "defender": []}
    for side in ("attacker", "defender"):
        result = _W if side == winner else _L
        kept = sorted(dice[side], reverse=True)[:3]                    # W-4: three dice (the Sacred Band's highest)
        for die in dice[side]:                                         # the unmodified dice, as thrown
            if die not in kept:
                unread[side].append(die)
                continue
            kept.remove(die)
            code = LOSS[(result, column(size[side]))][die - 1]
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
        "retreat": retreat, "readings": readings, "unread": unread, "size": (size["attacker"], size["defender"]),
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
    assert (a.get("unread", []), d.get("unread", [])) == (want["unread"]["attacker"], want["unread"]["defender"])


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


@pytest.mark.parametrize("att, dfn", [((1, 2), (1, 1)), ((1, 3), (2, 1)), ((7, 5), (1, 2))])
def test_every_pair_of_rolls_with_flanking_forces_agrees(att: tuple[int, int], dfn: tuple[int, int]):  # W-2, W-4
    """(army, flanking units) a side: every flanker fights and can be lost; the column is the army
    size, army + half the flankers rounded up (1 + 2 flanking: the "2" column, 3 units to lose)."""
    for att_dice, def_dice in product(list(_rolls(3)), repeat=2):
        out = _battle(f"att={att[0]} att-flank={att[1]} def={dfn[0]} def-flank={dfn[1]} "
                      f"att-dice={_faces(att_dice)} def-dice={_faces(def_dice)}")
        want = oracle_battle(att[0], dfn[0], att_dice, def_dice, flank=(att[1], dfn[1]))
        _agree(out, want, sum(att), sum(dfn))
        assert (out["attacker"]["size"], out["defender"]["size"]) == want["size"]


def test_every_3d6_total_against_every_total_and_modifier_agrees():  # W-2, W-3
    """Who wins depends on the totals only: every attacker total 3..18 against every defender total,
    every net modifier −20..+20 and defender's modifier −1..+1 (a failed avoid, a successful
    interception); a tie goes to the defender."""
    one = {sum(r): r for r in _rolls(3)}          # one roll for each total
    for ra, rd, mod, defmod in product(one.values(), one.values(), range(-20, 21), (-1, 0, 1)):
        out = _battle(f"att=4 def=4 mod={mod} defmod={defmod} att-dice={_faces(ra)} def-dice={_faces(rd)}")
        _agree(out, oracle_battle(4, 4, ra, rd, mod, defmod), 4, 4)


@pytest.mark.parametrize("band", ["att", "def"])
def test_every_sacred_band_roll_reads_its_three_highest_dice(band: str):  # W-2 (Carthage's 4d6), W-4
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
    from firmware.screens.sword.battle import _odds_status
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


# -- the device: what the screens and the log say, against the oracle --------------------------------
def _set(ctx, start: int, want: int) -> None:
    ctx.press(*["right" if want > start else "left"] * abs(want - start))


def _battle_on_the_device(rnd: random.Random, trial: int):
    """A battle through the Battle form (units, both bonuses, the Sacred Band, the device's dice or
    dice typed in on the dice entry), as a player enters it: the context and what was entered."""
    from firmware.screens.sword.home import SwordHome
    from firmware.screens.widgets.dice import DiceEntry
    from tests.fakectx import FakeCtx
    carthage, table = rnd.random() < 0.4, rnd.random() < 0.5
    players = "romans,gauls,etruscans,greeks" + (",carthage" if carthage else "")
    ctx = FakeCtx(f"new sword players={players} seed={trial}", f"settings rules.table_dice={int(table)}")
    ctx.open(SwordHome()).press("a")                                          # Battle
    att, dfn, mod, defmod = rnd.randint(1, 30), rnd.randint(1, 30), rnd.randint(-9, 9), rnd.randint(-9, 9)
    flank = (rnd.choice((0, 0, 1, 2, 3)), rnd.choice((0, 0, 1, 2, 5)))          # W-2: a flanking force or none
    band = rnd.randint(0, 2) if carthage else 0
    for start, want in ((3, att), (3, dfn), (0, mod), (0, defmod), (0, flank[0]), (0, flank[1]),
                        *([(0, band)] if carthage else [])):
        _set(ctx, start, want)
        ctx.press("down")
    ctx.press("a")
    typed = None
    if table:
        entry = ctx.top
        assert isinstance(entry, DiceEntry)
        typed = [[rnd.randint(1, 6) for _ in range(4 if band == 1 else 3)],
                 [rnd.randint(1, 6) for _ in range(4 if band == 2 else 3)]]
        cells = [(r, i) for r, row in enumerate(typed) for i in range(len(row))]
        for k, (r, i) in enumerate(cells):
            ctx.press(*["up"] * ((typed[r][i] - entry.faces[r][i]) % 6))
            if k + 1 < len(cells):
                ctx.press("right")
        ctx.press("a")
    return ctx, att, dfn, mod, defmod, typed, flank


def _shown_rows(ctx, shown) -> str:
    """The battle result's rows as drawn now (drawing, it follows the session: retreat losses, undo)."""
    ctx.texts()
    return " ".join(shown.rows())


def test_random_battles_on_the_device_show_and_log_the_oracles_numbers():  # W-2..W-5, seed 8.4
    """Battles entered on the Battle form, with the device's dice and with dice typed in: the result
    screen's totals, losses, eliminated sides, winner and support, every die's loss-table reading, the
    log's sentence, then the loser's retreat losses entered with hold A (the form's support, the
    screen's and the log's) and their undo, each equal to the oracle's count."""
    from firmware.screens import base
    from firmware.screens.sword.battle import BattleResult
    rnd = random.Random(20261127)
    for trial in range(40):
        ctx, att, dfn, mod, defmod, typed, flank = _battle_on_the_device(rnd, trial)
        shown = ctx.top
        assert isinstance(shown, BattleResult), (trial, ctx.texts(), ctx.notes)
        ad, dd = tuple(shown.result["attacker"]["dice"]), tuple(shown.result["defender"]["dice"])
        if typed is not None:
            assert sorted(ad) == sorted(typed[0]) and sorted(dd) == sorted(typed[1])
        want = oracle_battle(att, dfn, ad, dd, mod, defmod, flank=flank)
        won, lost = want["winner"], want["loser"]

        said = _shown_rows(ctx, shown)
        assert ctx.texts()[1] == f"{won} wins"
        signs = [f"{m:+d}".replace("-", "−") for m in (mod, defmod)]          # the minus sign, as the log's
        for part in (f"Attack {' '.join(map(str, ad))} {signs[0]}={want['totals'][0]}",
                     f"Defence {' '.join(map(str, dd))} {signs[1]}={want['totals'][1]}",
                     f"Attacker loses {want['losses'][0]}", f"Defender loses {want['losses'][1]}",
                     f"Support +{want['support']} ({won})"):
            assert part in said, (trial, part, said)
        for k, name in enumerate(("Attacker", "Defender")):
            assert (f"{name} eliminated" in said) == want["eliminated"][k], (trial, said)
        assert ctx.run("log 1")["log"] == [
            f"Battle: attacker {','.join(map(str, ad))}{signs[0]} = {want['totals'][0]} vs defender "
            f"{','.join(map(str, dd))}{signs[1]} = {want['totals'][1]}: the {won} wins; losses "
            f"{want['losses'][0]} / {want['losses'][1]}; support +{want['support']}."]
        rows = shown.rows()                                       # the loss table, die by die: the last page(s),
        heading = rows.index("Loss table (W-4):")                 # A reads on to it (docs/keys.md)
        while shown.scroll.top + base.ROWS <= heading:
            ctx.press("a")
        assert ctx.top is shown and shown.scroll.top > 0, (trial, shown.scroll.top, heading)
        words = {"-": "no loss", "L1": "loser −1", "L2": "loser −2", "W1": "winner −1"}
        sizes = [f"{name}'s army size {want['size'][k]} = {army} + {want['size'][k] - army} (half of "
                 f"{flank[k]} flanking unit{'s' if flank[k] > 1 else ''}): column "
                 f"{column(want['size'][k])}." for k, (name, army) in enumerate((("Attacker", att), ("Defender", dfn)))
                 if flank[k]]                                     # W-2, W-4: the size a flanked side reads
        dice = [[f"{side.capitalize()}'s dice:"] + [f"  {x['die']}: {words[x['reads']]}" for x in want["readings"]
                                                      if x["side"] == side] +
                [f"  {die}: in the total only, not read (W-4)." for die in want["unread"][side]]
                for side in ("attacker", "defender")]
        assert rows[heading + 1:] == [r for p in sizes + dice[0] + dice[1] for r in base.wrap(p)], (trial, rows)
        k = 0 if lost == "attacker" else 1
        room = (att, dfn)[k] + flank[k] - want["losses"][k]
        if not room:
            continue
        retreat = rnd.randint(1, room)
        then = oracle_battle(att, dfn, ad, dd, mod, defmod, retreat, flank=flank)
        ctx.press("key3")                                         # hold A: the retreat losses
        _set(ctx, 0, retreat)
        assert ctx.texts()[-1] == f"support +{then['support']}"                 # the form's status
        ctx.press("a")
        said = _shown_rows(ctx, shown)
        assert f"Retreat losses {retreat}" in said and f"Support +{then['support']} ({won})" in said, said
        for k2, name in enumerate(("Attacker", "Defender")):
            assert (f"{name} eliminated" in said) == then["eliminated"][k2], (trial, said)
        assert ctx.run("log 1")["log"] == [
            f"Retreat losses of the {lost}: {retreat} ({want['losses'][k] + retreat} lost in all); the {won}'s "
            f"support +{then['support']} (W-5)."]
        ctx.run("undo")                                           # the retreat losses taken back
        said = _shown_rows(ctx, shown)
        assert "Retreat losses" not in said and f"Support +{want['support']} ({won})" in said


def test_random_tactics_tests_on_the_device_show_and_log_the_oracles_numbers():  # W-1, seed 8.1
    from firmware.screens.sword.home import SwordHome
    from firmware.screens.sword.rolls import TacticsResult
    from firmware.screens.widgets.odds import pct
    from tests.fakectx import FakeCtx
    rnd = random.Random(81)
    for trial in range(40):
        table = rnd.random() < 0.5
        ctx = FakeCtx(f"new sword players=romans,gauls seed={trial}", f"settings rules.table_dice={int(table)}")
        ctx.open(SwordHome()).press("down", "a")                              # Tactics test
        rating, mod = rnd.randint(0, 6), rnd.randint(-3, 3)
        _set(ctx, 2, rating)
        ctx.press("down")
        _set(ctx, 0, mod)
        chance = oracle_tactics(rating, mod, 1)[0]
        assert ctx.texts()[1] == pct(float(chance))                          # the chance before the roll
        ctx.press("a")
        typed = rnd.randint(1, 6)
        if table:
            ctx.press(*["up"] * ((typed - ctx.top.faces[0][0]) % 6), "a")   # type: ignore[attr-defined]
        shown = ctx.top
        assert isinstance(shown, TacticsResult)
        die = shown.result["roll"]
        assert die == typed or not table
        ok = oracle_tactics(rating, mod, die)[1]
        sign = f"{mod:+d}".replace("-", "−")                  # the minus sign, on the screen as in the log
        assert ctx.texts() == [f"Tactics {rating}", pct(float(chance)), str(die), "SUCCESS" if ok else "FAILURE",
                               f"{die}{sign} = {die + mod}", f"need ≤ {rating}"]
        assert ctx.run("log 1")["log"] == [f"Tactics {rating} test ({chance} chance): rolled {die}{sign} = "
                                           f"{die + mod}, {'succeeds' if ok else 'fails'}."]


def test_random_games_end_in_history_and_the_export_as_the_oracle_ranks_them(console):  # W-11, W-12, W-13
    """Random games to the end of turn 9 over the console (VP changes, scoring phases, unrest,
    Desperate Times cards, undos): the state after each step, then History's scores (Carthage's less
    ⌊unrest/3⌋), winner, ranks and result and the CSV export's rows, as the oracle counts them."""
    import copy
    import csv
    import io
    rnd = random.Random(911)
    for game in range(4):
        players = rnd.sample(["romans", "gauls", "etruscans", "samnites", "greeks", "carthage"], rnd.randint(2, 5))
        assert console.request(f"new sword players={','.join(players)} seed={game}")["ok"]
        st = {"vp": dict.fromkeys(players, 0), "unrest": 0, "cards": dict.fromkeys(players, 2), "at": [1, 1],
              "end": []}
        steps = [copy.deepcopy(st)]
        while True:
            p, x = rnd.choice(players), rnd.random()
            if x < 0.15:
                n = rnd.randint(-3, 3)
                out = console.request(f"vp {p} {n:+d}")
                if n == 0 or not 0 <= st["vp"][p] + n <= 12:       # off the track, or no change (W-11):
                    assert out["ok"] is False and out["error"] == "illegal_move", out     # refused, no step
                    continue
                assert out["ok"]
                st["vp"][p] += n
            elif x < 0.25:
                a, m = rnd.randint(0, 4), rnd.randint(0, 3)
                assert console.request(f"scoring {p} outside={a} missing={m}")["ok"]
                st["vp"][p] = min(12, max(0, st["vp"][p] + a - m))
            elif x < 0.3 and "carthage" in players:
                level = rnd.randint(0, 12)
                out = console.request(f"unrest ={level}")
                assert out["ok"] is (level != st["unrest"]), out       # its own level: no step (W-13)
                st["unrest"] = level
            elif x < 0.35 and st["cards"][p] and p not in st["end"]:
                end = st["at"][1] == 5 and rnd.random() < 0.5
                assert console.request(f"desperate {p}" + (" end=1" if end else ""))["ok"]
                st["cards"][p] -= 1
                st["end"] += [p] if end else []
            elif x < 0.42 and len(steps) > 1:
                assert console.request("undo")["ok"]
                steps.pop()
                st = copy.deepcopy(steps[-1])
                continue
            else:
                assert console.request("advance")["ok"]
                if st["at"] == [9, 5]:
                    break
                st["at"], st["end"] = ([st["at"][0] + 1, 1], []) if st["at"][1] == 5 else ([st["at"][0], st["at"][1] + 1], st["end"])
            steps.append(copy.deepcopy(st))
            view = console.request("state")["state"]
            assert (view["vp"], view["desperate"], [view["turn"], view["round"]]) == (st["vp"], st["cards"], st["at"])
        counted = {q: max(0, v - st["unrest"] // 3) if q == "carthage" else v for q, v in st["vp"].items()}
        order = oracle_standings(st["vp"], st["unrest"])
        [entry, *_] = console.request("history")["games"]
        assert {q["role"]: (q["score"], q["winner"], q["rank"]) for q in entry["players"]} == {
            q: (counted[q], q == order[0], order.index(q) + 1) for q in players}
        assert entry["result"] == f"{order[0].capitalize()} won on VP after turn 9."
        text = console.request(f"export format=csv id={entry['id']}")["text"]
        rows = [r for r in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))]
        assert {r["role"].lower(): (int(r["score"]), r["winner"], int(r["rank"])) for r in rows} == {
            q: (counted[q], "1" if q == order[0] else "0", order.index(q) + 1) for q in players}
