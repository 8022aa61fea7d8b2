"""An independent Auto-Crassus (S-9..S-19), written from the two rulebooks' solo pages alone
(shared/seeds/caesar-mori-rules-ru.txt «Приоритет размещения жетонов влияния авто-Красса» and
-ua.txt «Вибір розміщення Авто-Красса») over the engine's board constants and position model, and
compared with ``engine.caesar.autocrassus.decide`` on positions reached by real play (both
editions, digital and physical bags and tiles, the expansions) and on hand-made corner cases.

The oracle answers with the *set* of placements the rulebook allows (a step, a row position, a
space and the numbers toward SPACE_A/SPACE_B): several when the rulebook leaves the last choice to
chance («Случайная ячейка», «випадковим чином»). The engine's play must be one of them.

Where the rulebook's words leave a reading open, the oracle takes the digest's default
(shared/reference/caesar.md §5) and says so next to the branch. The open readings both share,
for whoever meets a play they expected otherwise:
- S-9/S-10 with several provinces: the province list (S-16) picks the province, then the lowest
  value there (not the lowest value over all provinces first).
- S-11/S-12: the province is the best one *where a row token fits* (not: the point is skipped
  when the best province overall takes none of his tokens).
- S-12 «наиболее близок к победе»: the fewest empty spaces, then his largest lead; his face-down
  tokens still make him present; only open provinces count.
- S-17 1st: only an open province where he trails (by more than 0) counts.
- The space (S-17) is chosen before the token (S-18), so a wild may go where a non-wild of the
  same value could not (test_the_space_is_chosen_before_the_token).
- A province whose control marker you flipped (C-15) is still his for S-13 and S-16.
Two more, of his turn rather than his placement (tests/test_caesar_crassus.py, quoting both texts):
- S-8 harder game: the bonus's marker removal taking his last unused marker is his win (C-12
  speaks only of placing the last one).
- C-17 with Poison: an empty row when his turn starts is no loss (his tile draws first; S-19 at
  a play that finds it still empty).
"""
from __future__ import annotations

import collections
import random
import re
from typing import Any

import pytest

from engine.caesar import flow
from engine.caesar.autocrassus import _S16_SOME, _S16_TEXT, decide, plays
from engine.caesar.board import (
    ADJ_CENTRAL, BORDER_CONTROL, CENTRAL, ITALY, N_PROVINCES, N_SPACES, NEIGHBOURS, PROVINCE_SPACES, PROVINCES, SLOTS,
    SPACE_A, SPACE_B, SPACE_ICON, SPACES,
)
from engine.caesar.editions import variant_values
from engine.caesar.model import CRASSUS, HUMAN, NONE, OPEN, Game
from engine.caesar.players import human_step, random_policy, greedy_policy
from engine.caesar.position import apply_position
from engine.caesar.terms import province as province_term, space as space_term
from engine.caesar.tokens import TOKENS

C, H = CRASSUS, HUMAN
Play = tuple[str, int, int, int, int]          # step, row index, space, value toward A, toward B
Move = tuple[int, int, int, int]                # row index, space, value toward the target, the other


# -- the oracle --------------------------------------------------------------------------------------
def influence(g: Game) -> list[list[int]]:
    """C-9: each player's face-up numbers facing each province (C-15: face down counts 0/0)."""
    inf = [[0] * N_PROVINCES, [0] * N_PROVINCES]
    for s in range(N_SPACES):
        if g.owner[s] >= 0 and not g.down[s]:
            inf[g.owner[s]][SPACE_A[s]] += g.va[s]
            inf[g.owner[s]][SPACE_B[s]] += g.vb[s]
    return inf


def other(s: int, x: int) -> int:
    return SPACE_B[s] if SPACE_A[s] == x else SPACE_A[s]


def moves_into(g: Game, x: int) -> list[Move]:
    """Every face-up placement of a row token on an empty space of ``x`` with a matching icon
    (C-3; S-7 «Авто-Красс никогда не разыгрывает жетоны влияния лицом вниз»), either way round."""
    out = []
    for i, tid in enumerate(g.hand[C]):
        t = TOKENS[tid]
        for s in PROVINCE_SPACES[x]:
            if g.owner[s] < 0 and t.mask & SPACE_ICON[s]:
                out += [(i, s, t.hi, t.lo), (i, s, t.lo, t.hi)]
    return out


def as_play(step: str, x: int, m: Move) -> Play:
    i, s, v, w = m
    return (step, i, s, v, w) if SPACE_A[s] == x else (step, i, s, w, v)


def controls(g: Game, x: int) -> bool:
    return g.ctrl[x] == C


def s16_key(g: Game, x: int) -> tuple[bool, ...]:
    """S-16 «Приоритет выбора провинции»: next to one he controls; the Senate bonus; the Poison
    bonus (with Poison); central; next to a central one; then «Случайная провинция»."""
    return (any(controls(g, y) for y, _ in NEIGHBOURS[x]), g.bonus[x] == "senate",
            g.poison and g.bonus[x] == "poison", CENTRAL[x], ADJ_CENTRAL[x])


def best(items: list[Any], key: Any) -> list[Any]:
    top = max(key(a) for a in items)
    return [a for a in items if key(a) == top]


def by_list(g: Game, provinces: list[int]) -> list[int]:
    return best(provinces, lambda x: s16_key(g, x))


def place(g: Game, inf: list[list[int]], step: str, x: int, moves: list[Move], lowest: bool) -> set[Play]:
    """In province ``x``: the lowest (S-9, S-10) or highest (S-11..S-15) value facing it; then the
    space (S-17) and the token (S-18)."""
    sign = -1 if lowest else 1
    moves = best(moves, lambda m: sign * m[2])
    # S-17 «Ячейка, граничащая с провинцией, в которой авто-Красс проигрывает по влиянию с
    # наибольшим отрывом»; «Ячейка, граничащая с центральной провинцией»; «Случайная ячейка».
    def trail(s: int) -> int:
        y = other(s, x)
        return max(0, inf[H][y] - inf[C][y]) if g.ctrl[y] == OPEN else 0
    spaces = best(sorted({m[1] for m in moves}), lambda s: (trail(s), CENTRAL[other(s, x)]))
    out: set[Play] = set()
    for s in spaces:
        # S-18 «Не универсальный жетон»; «с наибольшим или наименьшим (в соответствии с условием)
        # суммарным значением»; «Самый левый жетон влияния в ряду».
        here = [m for m in moves if m[1] == s]
        here = best(here, lambda m: (not TOKENS[g.hand[C][m[0]]].wild, sign * TOKENS[g.hand[C][m[0]]].total, -m[0]))
        out |= {as_play(step, x, m) for m in here}
    return out


def human_would_win(g: Game, inf: list[list[int]], s: int, m: Move, x: int) -> bool:
    """S-10 «(и если это не приведёт к победе игрока)»: the closure by ``m`` on ``s`` would make
    you place your last control marker (C-9 on each province it closes, C-10 border markers)."""
    v = {x: m[2], other(s, x): m[3]}
    closed = [y for y in (SPACE_A[s], SPACE_B[s])
              if g.ctrl[y] == OPEN and all(g.owner[t] >= 0 or t == s for t in PROVINCE_SPACES[y])]
    won = [y for y in closed if inf[H][y] > inf[C][y] + v[y]]
    need, borders = 0, set()
    for y in won:
        need += SLOTS[y]
        for nb, sp in NEIGHBOURS[y]:
            if ((g.ctrl[nb] == H and not g.cflip[nb]) or nb in won) and g.bmark[sp] < 0:
                borders.add(sp)
    return need + len(borders) >= g.markers[H]


def oracle(g: Game) -> set[Play]:
    """Every placement the rulebook allows Auto-Crassus now; empty when he has none (S-19)."""
    inf = influence(g)
    opened = [x for x in range(N_PROVINCES) if g.ctrl[x] == OPEN]
    into = {x: moves_into(g, x) for x in opened}
    live = [x for x in opened if into[x]]
    if not live:
        return set()          # S-19: no token of his row fits an empty space (or the row is empty)

    def last(x: int) -> list[Move]:
        return [m for m in into[x] if all(g.owner[t] >= 0 or t == m[1] for t in PROVINCE_SPACES[x])]

    # S-9 «Если авто-Красс может взять под контроль провинцию, разместив один из своих жетонов
    # влияния, поместите ... так, чтобы с провинцией граничила часть жетона с наименьшим значением,
    # необходимым для её захвата» (S-8 «авто-Красс всегда выигрывает ничьи»).
    caps = {x: [m for m in last(x) if inf[C][x] + m[2] >= inf[H][x]] for x in live}
    caps = {x: ms for x, ms in caps.items() if ms}
    if caps:
        return set().union(*(place(g, inf, "capture", x, caps[x], True) for x in by_list(g, list(caps))))
    # S-10 «Если авто-Красс может закрыть провинцию, не установив при этом над ней контроль (и если
    # это не приведёт к победе игрока)... с наименьшим значением»; UA «жетон із найменшим числом».
    shut = {x: [m for m in last(x) if not human_would_win(g, inf, m[1], m, x)] for x in live}
    shut = {x: ms for x, ms in shut.items() if ms}
    if shut:
        return set().union(*(place(g, inf, "close", x, shut[x], True) for x in by_list(g, list(shut))))
    # S-11 RU «Если авто-Красс обладает меньшим влиянием во всех незакрытых провинциях, выберите
    # провинцию, в которой отрыв игрока по влиянию больше всего ... с максимальным значением»;
    # UA «Якщо є ризик втратити будь-які незакриті провінції (тобто, у вас там більша сила...)».
    lead = {x: inf[H][x] - inf[C][x] for x in opened}
    behind = [x for x in live if lead[x] > 0]
    if behind and (g.rules["defend"] == "any" or all(lead[x] > 0 for x in opened)):
        return set().union(*(place(g, inf, "defend", x, into[x], False)
                             for x in by_list(g, best(behind, lambda x: lead[x]))))
    # S-12 «Если у авто-Красса есть жетоны влияния в нескольких провинциях, разместите жетон с
    # максимальным значением в той провинции, где авто-Красс наиболее близок к победе» — the
    # digest's reading: fewest empty spaces, then his largest lead, then the list S-16.
    present = [x for x in opened if any(g.owner[s] == C for s in PROVINCE_SPACES[x])]
    near = [x for x in present if into[x]]
    if len(present) >= 2 and near:
        empties = {x: sum(g.owner[s] < 0 for s in PROVINCE_SPACES[x]) for x in near}
        near = best(near, lambda x: (-empties[x], -lead[x]))
        return set().union(*(place(g, inf, "reinforce", x, into[x], False) for x in by_list(g, near)))

    def top(x: int) -> int:
        return max(m[2] for m in into[x])

    # S-13 «...с максимальным значением в провинции, соседней с той, которую он контролирует. Если
    # необходимо выбрать одну провинцию из нескольких возможных, ... с наивысшим значением.»
    beside = [x for x in live if any(controls(g, y) for y, _ in NEIGHBOURS[x])]
    if beside:
        return set().union(*(place(g, inf, "expand", x, into[x], False)
                             for x in by_list(g, best(beside, top))))
    # S-14 «...в одной из центральных провинций ..., в которой можно разместить жетон с наивысшим
    # значением. ... выберите Италию, а если она занята — ... «Приоритет выбора провинции»»;
    # UA «(якщо варіантів декілька – Італія або випадковим чином)».
    centre = [x for x in live if CENTRAL[x]]
    if centre:
        tied = best(centre, top)
        tied = [ITALY] if ITALY in tied else by_list(g, tied) if g.rules["ties"] == "list" else tied
        return set().union(*(place(g, inf, "center", x, into[x], False) for x in tied))
    # S-15 «...в провинции, в которой можно разместить жетон с наивысшим значением. ...
    # «Приоритет выбора провинции»»; UA «(якщо таких декілька – випадковим чином)».
    tied = best(live, top)
    tied = by_list(g, tied) if g.rules["ties"] == "list" else tied
    return set().union(*(place(g, inf, "anywhere", x, into[x], False) for x in tied))


# -- comparing -----------------------------------------------------------------------------------------
def engine_play(g: Game, rng: Any) -> Play | None:
    d = decide(g, rng)
    return None if d is None else (d.step, d.row_index, d.space, d.va, d.vb)


def said(p: Play | None) -> str:
    if p is None:
        return "none"
    step, i, s, va, vb = p
    return f"{step} row[{i}] on {SPACES[s]} {PROVINCES[SPACE_A[s]]}={va} {PROVINCES[SPACE_B[s]]}={vb}"


def check(g: Game, rng: Any) -> tuple[set[Play], Play | None]:
    """The engine's play is one the rulebook allows, and the plays it lists as equally good (the
    ``decide`` reply's ``plays``, one drawn at random when he plays) are exactly those."""
    want, got = oracle(g), engine_play(g.copy(), rng)
    listed = {(d.step, d.row_index, d.space, d.va, d.vb) for d in plays(g)}
    ok = (got in want if want else got is None) and listed == want
    if not ok:
        raise AssertionError(f"engine {said(got)} of {sorted(map(said, listed))}; the rulebook allows "
                             f"{sorted(map(said, want))}\nrow {[TOKENS[t].name for t in g.hand[C]]} rules {g.rules}")
    return want, got


# -- real play -------------------------------------------------------------------------------------------
def _names(rng: random.Random, pool: list[int], k: int) -> list[str]:
    return [TOKENS[t].name for t in rng.sample(pool, min(k, len(pool)))]


def crassus_turn(g: Game, rng: random.Random) -> None:
    """His whole turn, with the table's tile and draws named when tiles or his bag are physical;
    then the turn is played again on the model below and the two boards compared."""
    before = g.copy()
    tile = None
    if g.inputs["tiles"] == "physical":
        tile = rng.choice(g.stack)
    if g.inputs["crassus_bag"] == "physical":
        letter = tile if tile is not None else flow.reveal(g)
        acts = g.tile_defs[letter]
        n = sum(int(a[-1]) for a in acts if a.startswith("draw"))
        letter, steps = flow.crassus_turn(g, tile, _names(rng, g.bag[C], n),
                                          _names(rng, g.cent[C], acts.count("centurion")))
    else:
        letter, steps = flow.crassus_turn(g, tile)
    want = his_turn(before, letter, steps)
    assert summary(g) == want, (letter, steps)


def summary(g: Game) -> dict[str, Any]:
    return {"spaces": [(g.owner[s], TOKENS[g.tok[s]].name if g.owner[s] >= 0 else "", g.va[s], g.vb[s])
                       for s in range(N_SPACES)],
            "ctrl": list(g.ctrl), "bmark": list(g.bmark), "markers": list(g.markers), "senate": list(g.senate),
            "row": [TOKENS[x].name for x in g.hand[C]], "bag": sorted(TOKENS[x].name for x in g.bag[C]),
            "cent": sorted(TOKENS[x].name for x in g.cent[C]), "hand": len(g.hand[H]), "winner": g.winner,
            "turn": g.turn if g.winner < 0 else None}


def his_turn(g: Game, letter: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Auto-Crassus's turn played from the rulebook on a copy of the game before it: the tile's
    actions in order (S-5), his draws short (S-6: no discard then), each placement (the engine's,
    already held to the oracle), closures with ties his (S-8), markers (C-9, C-10, C-12) and the
    bonuses he gains (S-8: Senate and Poison as usual, the rest removed; harder game). Which
    tokens a draw or a Poison takes is chance: those are read from the engine's steps."""
    todo = list(steps)
    row, bag = g.hand[C], g.bag[C]

    def take(pool: list[int], name: str) -> int:
        x = next(x for x in pool if TOKENS[x].name == name)
        pool.remove(x)
        return x

    def put_markers(w: int, n: int) -> None:       # C-12: placing the last one wins at once
        k = min(n, g.markers[w])
        g.markers[w] -= k
        if k and g.markers[w] == 0:
            g.winner = w

    short = False
    for act in g.tile_defs[letter]:
        if g.winner >= 0:
            break
        st = todo.pop(0)
        if act.startswith("draw"):
            n = int(act[-1])
            assert len(st["tokens"]) == min(n, len(bag)), st
            row += [take(bag, name) for name in st["tokens"]]
            short |= len(st["tokens"]) < n
        elif act == "centurion":
            short |= not g.cent[C]
            row += [take(g.cent[C], st["token"])] if g.cent[C] else []
        elif act.startswith("discard"):
            if not short:                           # S-6 «...и не сбрасывайте их в конце его хода»
                bag += [row.pop(0) for _ in range(min(int(act[-1]), len(row)))]
        elif st.get("step") is None:                # S-19
            if g.rules["stuck"] == "lose":
                g.winner = H
        else:
            s = SPACES.index(st["space"])
            x = row.pop(st["row_index"])
            assert TOKENS[x].name == st["token"]
            g.owner[s], g.tok[s], g.down[s] = C, x, 0
            g.va[s], g.vb[s] = st["toward"][PROVINCES[SPACE_A[s]]], st["toward"][PROVINCES[SPACE_B[s]]]
            inf = influence(g)
            closed = [y for y in (SPACE_A[s], SPACE_B[s])
                      if g.ctrl[y] == OPEN and all(g.owner[t] >= 0 for t in PROVINCE_SPACES[y])]
            gained = [(g.bonus[y], y) for y in closed if g.bonus[y]]
            said_ = [st for st in todo[:2 + len(gained)] if st["action"] == "bonus"]
            while todo and todo[0]["action"] in ("close", "bonus"):
                todo.pop(0)
            for y in closed:
                g.bonus[y] = ""
                g.ctrl[y] = C if inf[C][y] >= inf[H][y] else H      # S-8: he always wins ties
            for y in sorted(closed, key=lambda y: g.ctrl[y] != C):  # C-10: the active player first
                if g.winner < 0:
                    put_markers(g.ctrl[y], SLOTS[y])
                for nb, sp in NEIGHBOURS[y]:
                    if g.winner < 0 and g.ctrl[nb] == g.ctrl[y] and not g.cflip[nb] and g.bmark[sp] < 0:
                        g.bmark[sp] = g.ctrl[y]
                        put_markers(g.ctrl[y], 1)
            # C-16 with two Senate tokens at once: the one of a province he did not win goes on the
            # track first, so the one that brings markers counts both («равное общему количеству
            # жетонов Сената у вас»); the other bonuses keep their places.
            senates = sorted((b for b in gained if b[0] == "senate"), key=lambda b: g.ctrl[b[1]] == C)
            gained = [senates.pop(0) if b[0] == "senate" else b for b in gained]
            for bonus, y in gained:
                if g.winner >= 0:
                    break
                st = said_.pop(0)
                assert st["bonus"] == bonus, (st, gained)
                if bonus == "senate":               # C-16
                    g.senate[C] += 1
                    put_markers(C, g.senate[C] if g.ctrl[y] == C else 0)
                elif bonus == "poison":             # C-17: a random token from behind your screen
                    if g.hand[H]:
                        take(g.hand[H], st["token"])
                elif g.rules["harder"] == "always" or (g.rules["harder"] == "control" and g.ctrl[y] == C):
                    if g.markers[C]:                # S-8 harder game: one of his markers leaves the game
                        g.markers[C] -= 1
                        g.winner = C if g.markers[C] == 0 else -1
    if g.winner < 0:
        g.turn = H
        # C-12 «Если в свой ход один из игроков не может разместить свой жетон влияния, он
        # проигрывает» (with Poison: «Если игрок начинает свой ход без жетонов влияния за ширмой»)
        empty = [s for s in range(N_SPACES) if g.owner[s] < 0]
        if not any(TOKENS[x].mask & SPACE_ICON[s] or (g.border_control and BORDER_CONTROL[s])
                   for x in g.hand[H] for s in empty):
            g.winner = C
    return summary(g)


SETUPS = [  # edition, options for new_game, inputs, rules beyond the edition
    ("ru", {}, {}, {}),
    ("uk", {}, {}, {}),
    ("mixed", {}, {}, {}),
    ("ru", {"difficulty": "hard", "side": "pompey"}, {"crassus_bag": "physical"}, {}),
    ("uk", {"difficulty": "easy"}, {"crassus_bag": "physical", "tiles": "physical"}, {"stuck": "skip"}),
    ("ru", {"poison": True, "centurions": True, "border_control": True}, {}, {"crassus-ties": "all"}),
    ("uk", {"poison": True, "difficulty": "hard"}, {"tiles": "physical"}, {"harder": "control"}),
    ("ru", {"centurions": True, "difficulty": "hard"}, {"crassus_bag": "physical"}, {"harder": "always"}),
    ("uk", {"centurions": True, "border_control": True}, {}, {}),
]


def play_game(seed: int, setup: tuple[str, dict[str, Any], dict[str, str], dict[str, str]],
              stats: dict[str, int]) -> None:
    edition, opts, inputs, extra = setup
    rng = random.Random(seed)
    row = _names(rng, list(range(16)), 3) if inputs.get("crassus_bag") == "physical" else None
    g = flow.new_game("solo", seed, rules={"edition": edition, **variant_values(edition), **extra},
                      inputs=inputs, row=row, **opts)
    policy = greedy_policy if seed % 2 else random_policy
    for _ in range(400):
        if g.over:
            return
        if g.is_bot(g.turn):
            crassus_turn(g, rng)
        else:
            opened = [x for x in range(N_PROVINCES) if g.ctrl[x] == OPEN]
            human_step(g, g.turn, rng, policy, policy is greedy_policy)
            # S-8 «Исключение: авто-Красс всегда выигрывает ничьи» — on his closures; on yours too
            # with the house rule crassus-ties=all; else C-9 «В случае ничьей ... не помещается».
            inf = influence(g)
            for x in opened:
                if g.ctrl[x] != OPEN:
                    tie = C if g.rules["crassus-ties"] == "all" else NONE
                    assert g.ctrl[x] == (H if inf[H][x] > inf[C][x] else C if inf[C][x] > inf[H][x] else tie)
    raise AssertionError("the game did not end")


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Every Auto-Crassus play of the games played goes through the oracle first."""
    stats: dict[str, int] = {}
    real = flow.decide

    def both(g: Game, rng: Any) -> Any:
        want = oracle(g)
        d = real(g, rng)
        got = None if d is None else (d.step, d.row_index, d.space, d.va, d.vb)
        listed = {(p.step, p.row_index, p.space, p.va, p.vb) for p in plays(g)}
        assert ((got in want) if want else got is None) and listed == want, (
            f"engine {said(got)}; the rulebook allows {sorted(map(said, want))}\n"
            f"row {[TOKENS[t].name for t in g.hand[C]]} rules {g.rules}\nposition {g.to_json()}")
        stats[got[0] if got else "none"] = stats.get(got[0] if got else "none", 0) + 1
        return d

    monkeypatch.setattr(flow, "decide", both)
    return stats


@pytest.mark.parametrize("k", range(len(SETUPS)))
def test_real_play_agrees_with_the_rulebook(compared: dict[str, int], k: int) -> None:
    for seed in range(4):
        play_game(1000 * k + seed, SETUPS[k], compared)
    assert sum(compared.values()) > 20


@pytest.mark.slow
@pytest.mark.parametrize("k", range(len(SETUPS)))
def test_real_play_agrees_with_the_rulebook_long(compared: dict[str, int], k: int) -> None:
    for seed in range(60):
        play_game(7919 * (k + 1) + seed, SETUPS[k], compared)


# -- hand-made corners: the rulebook's answer written out, and both implementations held to it ------
def t(by: str, token: str, **toward: int) -> dict[str, Any]:
    return {"by": by, "token": token, "toward": toward}


def solo(pos: dict[str, Any], edition: str = "uk", seed: int = 1, **rules: str) -> Game:
    g = flow.new_game("solo", seed, rules={"edition": edition, **variant_values(edition), **rules})
    apply_position(g, pos)
    return g


def ways(g: Game, *plays: tuple[str, int, str, dict[str, int]]) -> set[Play]:
    """``(step, row index, space, {province: value})`` written as the oracle's plays."""
    out = set()
    for step, i, sp, toward in plays:
        s = SPACES.index(sp)
        out.add((step, i, s, toward[PROVINCES[SPACE_A[s]]], toward[PROVINCES[SPACE_B[s]]]))
    return out


def agree(g: Game, expected: set[Play], seeds: int = 8) -> None:
    """The oracle gives exactly ``expected``; the engine picks one of them whatever its draws."""
    assert oracle(g) == expected, sorted(map(said, oracle(g)))
    for k in range(seeds):
        g.rng = flow.new_game("solo", 100 + k).rng
        check(g, g.rng)


HU_RACE = {"spaces": {"HU-HC": t("human", "shield:3/3", HU=3, HC=3)},
           "crassus_row": ["ship:6/0", "ship:4/2", "wild:4/0", "ship:3/3"]}


def test_capture_faces_the_lowest_number_that_still_wins_a_tie_counting_as_his():
    # S-9 «с наименьшим значением, необходимым для её захвата»; S-8 «авто-Красс всегда выигрывает
    # ничьи»: you have 3 in Hispania Ulterior, its last space HU-MT takes a ship; 3 ties, so the 3/3.
    # The Senate bonus there puts it before Hispania Citerior (S-16, 2nd), which the wild 4/0
    # could also take on HC-GA.
    g = solo({**HU_RACE, "bonuses": {"HU": "senate"}})
    agree(g, ways(g, ("capture", 3, "HU-MT", {"HU": 3, "MT": 3})))
    # without the bonus nothing in the province list tells them apart: either, at random
    g = solo(HU_RACE)
    agree(g, ways(g, ("capture", 3, "HU-MT", {"HU": 3, "MT": 3}), ("capture", 2, "HC-GA", {"HC": 4, "GA": 0})),
          seeds=16)


def test_the_token_list_non_wild_then_total_then_leftmost():
    # RU (6th point, Italy first): you lead Achaea 2-0, so of Italy's spaces IT-AC goes first
    # (S-17, 1st); there S-18 picks among the tokens that put the highest value on Italy.
    pos = {"spaces": {"AC-CR": t("human", "shield:4/2", AC=2, CR=4)}}
    g = solo({**pos, "crassus_row": ["wild:4/0", "ship:4/2"]}, "ru")            # 1st: not the wild
    agree(g, ways(g, ("center", 1, "IT-AC", {"IT": 4, "AC": 2})))
    g = solo({**pos, "crassus_row": ["ship:4/2", "shield+ship:4/4"], "modules": {"centurions": True}}, "ru")
    agree(g, ways(g, ("center", 1, "IT-AC", {"IT": 4, "AC": 4})))               # 2nd: the larger total
    g = solo({**pos, "crassus_row": ["wild:2/2", "wild:2/2"]}, "ru")            # 3rd: the leftmost
    agree(g, ways(g, ("center", 0, "IT-AC", {"IT": 2, "AC": 2})))
    # ...and his reason says so, the level that decided between the two (it said no token level)
    d = decide(g.copy(), g.rng)
    assert d is not None and d.reason[-1] == "token priority list: the leftmost in his row", d.reason
    g = solo({**pos, "crassus_row": ["wild:2/2", "ship:3/3", "wild:2/2"]}, "ru")
    d = decide(g.copy(), g.rng)        # the 3/3 puts 3 on Italy: no tie, no token level to say
    assert d is not None and d.row_index == 1 and "token priority list" not in d.why


def test_the_space_is_chosen_before_the_token():
    """The rulebook gives the space list before the token list and neither says which comes
    first; both implementations take the space first, so a wild can go where a non-wild of the
    same value could not (here the sword space SC-IT or the ship space IT-AC, both beside a
    central province, as much as the shield 4/2's SD-IT). Kept as an open reading."""
    g = solo({"crassus_row": ["wild:4/0", "shield:4/2"]})
    agree(g, ways(g, ("center", 1, "SD-IT", {"IT": 4, "SD": 2}), ("center", 0, "SC-IT", {"IT": 4, "SC": 0}),
                  ("center", 0, "IT-AC", {"IT": 4, "AC": 0})), seeds=16)


def test_the_space_list_first_where_he_trails_most():
    # S-11 (UA): you lead most in Sardinia (5); its ship spaces are MT-SD and SD-SC. You lead
    # Mauretania by 3 (S-17 1st) before Sicily being central (2nd): MT-SD.
    pos = {"spaces": {"SD-GA": t("human", "shield:5/1", SD=5, GA=1), "HU-MT": t("human", "ship:3/3", HU=3, MT=3)},
           "crassus_row": ["ship:6/0"]}
    g = solo(pos)
    agree(g, ways(g, ("defend", 0, "MT-SD", {"SD": 6, "MT": 0})))


def test_no_closing_that_makes_you_win_and_the_next_point_instead():
    # S-10 «(и если это не приведёт к победе игрока)»: closing Hispania Ulterior (you 6, he at most
    # 3) gives you its control marker. With 2 markers left he closes it (2nd point)...
    pos = {"spaces": {"HU-HC": t("human", "shield:6/0", HU=6, HC=0)}, "crassus_row": ["ship:3/3"],
           "markers_left": {"human": 2}}
    g = solo(pos, "ru")
    agree(g, ways(g, ("close", 0, "HU-MT", {"HU": 3, "MT": 3})))
    # ...with your last one left it would be your win: RU goes on to the 6th point (he trails in
    # Hispania Ulterior but not everywhere), Italy's central ship spaces.
    g = solo({**pos, "markers_left": {"human": 1}}, "ru")
    agree(g, ways(g, ("center", 0, "IT-AC", {"IT": 3, "AC": 3})))


def _board_but(last: str, row: list[str]) -> Game:
    """Every space filled (alternately, with tokens that fit, wilds last) but ``last``; provinces that are
    full are closed by C-9."""
    pools = {p: list(range(16)) for p in ("human", "crassus")}
    spaces = {}
    for k, sp in enumerate(SPACES):
        if sp == last:
            continue
        order = ("human", "crassus") if k % 2 == 0 else ("crassus", "human")
        who, tid = min(((w, x) for w in order for x in pools[w] if TOKENS[x].mask & SPACE_ICON[k]
                        and not (w == "crassus" and TOKENS[x].name in row)),
                       key=lambda wx: (TOKENS[wx[1]].wild, order.index(wx[0])))
        pools[who].remove(tid)
        spaces[sp] = t(who, TOKENS[tid].name, **{PROVINCES[SPACE_A[k]]: TOKENS[tid].hi,
                                                 PROVINCES[SPACE_B[k]]: TOKENS[tid].lo})
    return solo({"spaces": spaces, "crassus_row": row})


def test_the_last_space_on_the_board_and_a_row_that_fits_nowhere():
    # AS-SY (a shield space) is the only one left: the sword cannot go there (C-3), the wild can.
    g = _board_but("AS-SY", ["sword:6/0", "wild:4/0"])
    want = oracle(g)
    assert want and {p[1] for p in want} == {1} and {p[2] for p in want} == {SPACES.index("AS-SY")}
    agree(g, want)
    # S-19: a row that fits no empty space: no placement; he loses, or skips (house rule).
    g = _board_but("AS-SY", ["sword:6/0"])
    agree(g, set())
    steps: list[dict[str, Any]] = []
    assert flow.crassus_play(g, steps) is None and g.winner == HUMAN and steps[0]["rule"] == "S-19"
    g = solo({"crassus_row": []})
    agree(g, set())


# -- random positions: every point of the list, every tie-break, the odd cases real play seldom reaches --
def random_position(r: random.Random) -> dict[str, Any]:
    """Tokens on a random share of the spaces (some face down, C-15), full provinces closed by C-9
    or given an owner, sometimes open ones closed by hand (the table's bookkeeping) and control
    markers flipped; random bonuses (Poison with its module), a row of 0..5 and few markers left."""
    cents, poison = r.random() < 0.3, r.random() < 0.4
    pools = [list(range(19 if cents else 16)) for _ in range(2)]
    for pool in pools:
        r.shuffle(pool)
    spaces, fill = {}, r.random() * r.choice([0.3, 0.6, 1.0])
    for s, sp in enumerate(SPACES):
        p = r.randrange(2)
        fit = [x for x in pools[p] if TOKENS[x].mask & SPACE_ICON[s]]
        if r.random() < fill and fit:
            pools[p].remove(fit[0])
            hi, lo = TOKENS[fit[0]].hi, TOKENS[fit[0]].lo
            hi, lo = (hi, lo) if r.random() < 0.5 else (lo, hi)
            spaces[sp] = {"by": ("human", "crassus")[p], "token": TOKENS[fit[0]].name,
                          "toward": {PROVINCES[SPACE_A[s]]: hi, PROVINCES[SPACE_B[s]]: lo},
                          "face_down": r.random() < 0.08}
    full = {x for x in range(N_PROVINCES) if all(SPACES[s] in spaces for s in PROVINCE_SPACES[x])}
    by_hand = r.random() < 0.5
    control = {PROVINCES[x]: r.choice(["human", "crassus", "crassus", "none"]) for x in range(N_PROVINCES)
               if (x in full and r.random() < 0.5) or (by_hand and x not in full and r.random() < 0.35)}
    kinds = ["senate"] * 5 + ["wealth", "tactics", "might"] * 4 + ["poison"] * 3 * poison
    r.shuffle(kinds)
    bonuses = {PROVINCES[x]: ("senate" if x == ITALY else kinds.pop()) for x in range(N_PROVINCES)
               if PROVINCES[x] not in control and x not in full and r.random() < 0.6}
    return {"spaces": spaces, "control": control, "bonuses": bonuses,
            "flipped_control": [x for x, w in control.items() if w != "none" and r.random() < 0.3],
            "crassus_row": [TOKENS[x].name for x in pools[1][:r.choice([0, 1, 2, 3, 3, 3, 4, 5])]],
            "modules": {"poison": poison, "centurions": cents},
            "markers_left": {"human": r.choice([1, 2, 3, 12, r.randint(1, 12)]), "crassus": r.randint(1, 12)}}


def random_positions(n: int, seed0: int) -> dict[str, int]:
    steps: dict[str, int] = {}
    for k in range(n):
        r = random.Random(seed0 + k)
        pos = random_position(r)
        edition = r.choice(["ru", "uk", "mixed"])
        g = solo(pos, edition, seed=k)
        _, got = check(g, g.rng)
        steps[got[0] if got else "none"] = steps.get(got[0] if got else "none", 0) + 1
    return steps


def test_random_positions_agree_with_the_rulebook():
    steps = random_positions(1500, 0)
    assert set(steps) >= {"capture", "close", "defend", "reinforce", "expand", "center", "none"}, steps


@pytest.mark.slow
def test_random_positions_agree_with_the_rulebook_long():
    steps = random_positions(40000, 10**6)
    assert set(steps) >= {"capture", "close", "defend", "reinforce", "expand", "center", "anywhere", "none"}, steps


def test_closing_italy_gives_you_two_markers_so_with_two_left_it_is_not_the_2nd_point():
    # C-9 «Если захваченная провинция — это Италия, игрок с большим влиянием дополнительно помещает
    # свой жетон контроля во вторую ячейку»: you hold five of Italy's six spaces; his 3/3 on the
    # last (IT-DM) closes it for you. With 3 markers left that is the 2nd point; with 2 it would be
    # your win, so not the 2nd point; RU's 6th point then puts it on Italy all the same (every
    # central province takes his 3, «выберите Италию») — the list has no exception there.
    spaces = {"SD-IT": t("human", "shield:4/2", SD=2, IT=4), "SC-IT": t("human", "sword:4/2", SC=2, IT=4),
              "IT-GC": t("human", "sword:5/1", IT=5, GC=1), "IT-AC": t("human", "ship:5/1", IT=5, AC=1),
              "IT-MD": t("human", "shield:5/1", IT=5, MD=1)}
    for left, step in ((3, "close"), (2, "center")):
        g = solo({"spaces": spaces, "crassus_row": ["ship:3/3"], "markers_left": {"human": left}}, "ru")
        agree(g, ways(g, (step, 0, "IT-DM", {"IT": 3, "DM": 3})))


@pytest.mark.parametrize("letter,bag,kept", [("A", 1, 3), ("A", 2, 3), ("C", 1, 2)])
def test_a_short_draw_skips_the_discard(letter: str, bag: int, kept: int):
    # S-6 «возьмите столько, сколько возможно, и не сбрасывайте их в конце его хода»: his row of 3
    # and 13 - bag tokens on the board; tile A (draw 2, play, discard 1) with one token left in
    # the bag draws it and keeps all: 3 + 1 - 1 = 3; with two it discards: 3 + 2 - 1 - 1 = 3;
    # tile C (draw 2, play, play) has no discard: 3 + 1 - 2 = 2.
    names = [TOKENS[x].name for x in range(16)]
    row, board = names[:3], names[3:16 - bag]
    spaces, free = {}, list(range(N_SPACES))
    for name in board:
        x = names.index(name)
        s = next(s for s in free if TOKENS[x].mask & SPACE_ICON[s])
        free.remove(s)
        spaces[SPACES[s]] = t("crassus", name, **{PROVINCES[SPACE_A[s]]: TOKENS[x].hi,
                                                  PROVINCES[SPACE_B[s]]: TOKENS[x].lo})
    g = flow.new_game("solo", 1, rules={"edition": "ru", **variant_values("ru")}, inputs={"tiles": "physical"})
    apply_position(g, {"spaces": spaces, "crassus_row": row})
    assert len(g.bag[C]) == bag
    before = g.copy()
    _, steps = flow.crassus_turn(g, letter)
    assert summary(g) == his_turn(before, letter, steps) and len(g.hand[C]) == kept


def test_a_token_that_fits_no_empty_space_is_passed_over():
    # C-3: every sword space is taken, so his sword 6/0 cannot be placed; the highest value he can
    # place is his ship 3/3's 3, and every play allowed uses it (row position 1).
    pools = {"human": list(range(16)), "crassus": [x for x in range(16) if TOKENS[x].name != "sword:6/0"]}
    spaces, k = {}, 0
    for s, sp in enumerate(SPACES):
        if SPACE_ICON[s] != SPACE_ICON[SPACES.index("HC-GA")]:
            continue
        who = ("human", "crassus")[k % 2]
        k += 1
        x = next(x for x in pools[who] if TOKENS[x].mask & SPACE_ICON[s] and TOKENS[x].name != "ship:3/3")
        pools[who].remove(x)
        spaces[sp] = t(who, TOKENS[x].name, **{PROVINCES[SPACE_A[s]]: TOKENS[x].lo, PROVINCES[SPACE_B[s]]: TOKENS[x].hi})
    g = solo({"spaces": spaces, "crassus_row": ["sword:6/0", "ship:3/3"]})
    want = oracle(g)
    assert want and {p[1] for p in want} == {1} and {max(p[3], p[4]) for p in want} == {3}
    agree(g, want)


def _around(last: str, provinces: tuple[str, ...], **extra: Any) -> Game:
    """His tokens on every other space of ``provinces`` (you have nothing there), ``last`` empty:
    his wild 4/0 on ``last`` closes and captures both of its provinces, and the number he turns
    to each shows which one the province list made his target (S-9: the lowest value, 0, faces it)."""
    pool = list(range(12))
    spaces = {}
    for sp in sorted({SPACES[s] for x in provinces for s in PROVINCE_SPACES[PROVINCES.index(x)]} - {last}):
        s = SPACES.index(sp)
        x = next(x for x in pool if TOKENS[x].mask & SPACE_ICON[s])
        pool.remove(x)
        spaces[sp] = t("crassus", TOKENS[x].name, **{PROVINCES[SPACE_A[s]]: TOKENS[x].hi,
                                                     PROVINCES[SPACE_B[s]]: TOKENS[x].lo})
    return solo({"spaces": spaces, "crassus_row": ["wild:4/0"], **extra})


@pytest.mark.parametrize("last,around,extra,target", [
    # S-16 «Провинция, граничащая с той, в которой авто-Красс уже установил свой контроль» before
    # «Провинция с жетоном бонуса Сената»: Crete is his; Asia borders it, Syria holds the Senate.
    ("AS-SY", ("AS", "SY"), {"control": {"CR": "crassus"}, "bonuses": {"SY": "senate"}}, "AS"),
    # «...Сената» before «...яда (если вы играете с дополнением «Яды»)»
    ("AS-SY", ("AS", "SY"), {"bonuses": {"SY": "senate", "AS": "poison"}, "modules": {"poison": True}}, "SY"),
    # «...яда» before «Центральная провинция»
    ("CR-AS", ("CR", "AS"), {"bonuses": {"AS": "poison"}, "modules": {"poison": True}}, "AS"),
    # «Центральная провинция» before «Провинция, граничащая с центральной провинцией»
    ("CR-AS", ("CR", "AS"), {}, "CR"),
    # «...граничащая с центральной провинцией» before «Случайная провинция»
    ("AS-SY", ("AS", "SY"), {}, "AS"),
    # nothing tells Hispania Ulterior and Citerior apart: at random
    ("HU-HC", ("HU", "HC"), {}, None),
])
def test_the_province_list_level_by_level(last: str, around: tuple[str, ...], extra: dict[str, Any],
                                          target: str | None):
    g = _around(last, around, **extra)
    a, b = last.split("-")
    plays = [("capture", 0, last, {a: 0, b: 4}), ("capture", 0, last, {a: 4, b: 0})]
    agree(g, ways(g, *[p for p in plays if target is None or p[3][target] == 0]), seeds=16)


# -- the reasons he gives: every number in them is the position's --------------------------------------
NAMES = {str(province_term(x)): x for x in range(N_PROVINCES)}
MAIN = {  # the sentence of each point and what its numbers must be
    "capture": r"this closes (?P<prov>.+?), you (?P<you>\d+), he (?P<him>\d+), and he wins it.*; (?P<v>\d+) is the lowest",
    "close": r"this closes (?P<prov>.+?), you (?P<you>\d+), he (?P<him>\d+): you win it.*his lowest value, (?P<v>\d+)$",
    "defend": r"(?:you lead in (?P<prov>.+?) by (?P<lead>\d+),|lead where he can place is in (?P<prov2>.+?), by (?P<lead2>\d+);)",
    "reinforce": r"his tokens touch (?P<touched>\d+) open provinces(?:, and he can place only in (?P<prov>[^;]+);"
                 r"|; (?P<prov2>[^;]+?) is closest to winning: (?P<n>\d+) empty spaces? left"
                 r"|; [^;]+ have the fewest empty spaces \((?P<n2>\d+) each\), and (?P<prov3>[^;]+?) is closest to "
                 r"winning: he stands best there \((?P<how>[^)]+)\)"
                 r"|; [^;]+ have the fewest empty spaces \((?P<n3>\d+) each\).*? he places his highest value in "
                 r"(?P<prov4>[^;]+)$)",
    "expand": r": (?P<prov>.+?) borders (?P<his>.+?), which he controls, and takes his highest value there \((?P<v>\d+)\)",
    "center": r": (?P<prov>.+?) is central and takes his highest value there \((?P<v>\d+)\)",
    "anywhere": r": (?P<prov>.+?) takes his highest value \((?P<v>\d+)\)",
}


def reason_numbers(g: Game) -> None:
    d = decide(g.copy(), g.rng)
    if d is None:
        return
    inf, x, s = influence(g), d.province, d.space
    v = d.va if SPACE_A[s] == x else d.vb
    m = re.search(MAIN[d.step], str(d.reason[0]))
    assert m, d.reason[0]
    f = {k: val for k, val in m.groupdict().items() if val is not None}
    assert NAMES[next(f[k] for k in ("prov", "prov2", "prov3", "prov4") if k in f)] == x
    lead = inf[H][x] - inf[C][x]
    facts = {"you": inf[H][x], "him": inf[C][x] + v, "v": v, "lead": lead, "lead2": lead,
             "n": sum(g.owner[t] < 0 for t in PROVINCE_SPACES[x]),
             "n2": sum(g.owner[t] < 0 for t in PROVINCE_SPACES[x]), "n3": sum(g.owner[t] < 0 for t in PROVINCE_SPACES[x]),
             "touched": sum(g.ctrl[y] == OPEN and any(g.owner[t] == C for t in PROVINCE_SPACES[y])
                            for y in range(N_PROVINCES))}
    assert {k: int(f[k]) for k in f if k in facts} == {k: facts[k] for k in f if k in facts}, d.reason[0]
    if "how" in f:
        assert f["how"] == (f"he leads by {-lead}" if lead < 0 else f"he trails by {lead}" if lead > 0 else "level")
    if "his" in f:
        assert sorted(NAMES[n] for n in f["his"].split(", ")) == [y for y, _ in NEIGHBOURS[x] if controls(g, y)]
    for part in map(str, d.reason[1:]):
        if m := re.search(r"next to (.+?), where he trails most \(by (\d+)\)", part):
            y = other(s, x)
            assert (NAMES[m[1]], int(m[2])) == (y, inf[H][y] - inf[C][y]), part
        if m := re.search(r"the (?:highest|lowest) total, (\d+)", part):
            assert int(m[1]) == TOKENS[d.tid].total, part
        if "a non-wild token before a wild one" in part:
            assert not TOKENS[d.tid].wild, part


def test_the_numbers_in_his_reasons_are_the_positions():
    for k in range(600):
        r = random.Random(5 * 10**5 + k)
        pos = random_position(r)
        reason_numbers(solo(pos, r.choice(["ru", "uk", "mixed"]), seed=k))


# -- the tie-break lists in his reasons: each level said is the one that decided, among those that reached it --
SPACE_NAMES = {str(space_term(s)): s for s in range(N_SPACES)}
RANDOM_PROVINCE = "province priority list: {} at random among {}"
SPACE_NOTES = {  # template -> the level of S-17 it says (2: at random), and whether it keeps one
    "space priority list: {space}, next to {prov}, where he trails most (by {lead})": 0,
    "space priority list: {kept} are next to provinces where he trails most (by {lead}), not {dropped}": 0,
    "space priority list: {} touches a central province": 1,
    "space priority list: {kept} touch a central province, not {dropped}": 1,
    "space priority list: {} at random among {}": 2,
}


def list_notes_true(g: Game) -> list[str]:
    """His reason's notes of the province list (S-16) and the space list (S-17), checked against the
    oracle's levels: a note saying level k names provinces (spaces) that reached it together (they
    agree on every level above k, and are the ones the note before kept), keeps those that meet
    level k and drops those that do not; a draw is among ones the whole list leaves equal; the one
    kept last is his target province (space). Returns the templates met."""
    d = decide(g.copy(), g.rng)
    if d is None:
        return []
    inf, x = influence(g), d.province
    met = []

    def space_key(s: int) -> tuple[int, bool]:
        y = other(s, x)
        return (max(0, inf[H][y] - inf[C][y]) if g.ctrl[y] == OPEN else 0, CENTRAL[y])

    v = d.va if SPACE_A[d.space] == x else d.vb           # the spaces where his value for x can go
    reached: dict[str, list[int] | None] = {"province": None,
                                            "space": sorted({m[1] for m in moves_into(g, x) if m[2] == v})}
    for note in d.reason[1:]:
        tpl = note.template
        if tpl in _S16_SOME or tpl in _S16_TEXT or tpl == RANDOM_PROVINCE:
            kind, key, levels = "province", (lambda y: s16_key(g, y)), 5
            if tpl in _S16_SOME:
                k = _S16_SOME.index(tpl)
                kept, dropped = [[NAMES[str(p)] for p in note.kwargs[f]] for f in ("kept", "dropped")]
            elif tpl in _S16_TEXT:
                k = _S16_TEXT.index(tpl)
                kept = [NAMES[str(note.args[1])]]
                dropped = [NAMES[str(p)] for p in note.args[0] if NAMES[str(p)] != kept[0]]
            else:
                k, kept = levels, [NAMES[str(note.args[0])]]
                dropped = [NAMES[str(p)] for p in note.args[1] if NAMES[str(p)] != kept[0]]
        elif tpl in SPACE_NOTES:
            kind, key, levels = "space", space_key, 2
            k = SPACE_NOTES[tpl]
            if "kept" in note.kwargs:
                kept, dropped = [[SPACE_NAMES[str(p)] for p in note.kwargs[f]] for f in ("kept", "dropped")]
            else:
                kept = [SPACE_NAMES[str(note.kwargs.get("space", note.args[0] if note.args else None))]]
                rest = (reached["space"] or []) if k < levels else [SPACE_NAMES[str(p)] for p in note.args[1]]
                dropped = [s for s in rest if s != kept[0]]
            if k == 0 and "lead" in note.kwargs:
                assert {key(s)[0] for s in kept} == {note.kwargs["lead"]}, note
        else:
            continue
        met.append(tpl)
        here = kept + dropped
        assert dropped or k == levels, note                                 # a level said drops someone
        if reached[kind] is not None:
            assert sorted(here) == sorted(reached[kind] or []), (note, [str(n) for n in d.reason])
        assert len({key(y)[:k] for y in here}) == 1, (note, {y: key(y) for y in here})
        if k < levels:
            assert all(key(y)[k] == key(kept[0])[k] for y in kept), note
            assert all(key(y)[k] < key(kept[0])[k] for y in dropped), (note, [key(y) for y in here])
        else:
            assert len({key(y) for y in here}) == 1, note
        reached[kind] = kept
    if reached["province"] is not None and len(reached["province"]) == 1:
        assert reached["province"] == [x], d.reason
    if reached["space"] is not None and len(reached["space"]) == 1:
        assert reached["space"] == [d.space], d.reason
    return met


def test_the_lists_in_his_reasons_name_the_level_that_decided():
    met: set[str] = set()
    for k in range(1500):
        r = random.Random(7 * 10**5 + k)
        met |= set(list_notes_true(solo(random_position(r), r.choice(["ru", "uk", "mixed"]), seed=k)))
    assert len(met & set(_S16_SOME)) >= 2 and len(met & set(_S16_TEXT)) >= 4 and len(met & set(SPACE_NOTES)) >= 4, met


def reinforce_said_true(g: Game) -> str | None:
    """His S-12 reason says what decided among the open provinces his tokens touch, as the oracle
    reads «наиболее близок к победе» (the fewest empty spaces, then his largest lead, among those
    where a row token fits): ``only`` (one takes a token), ``fewest`` (one has the fewest empty
    spaces; the others named), ``lead`` (several have the fewest, his standing is best in one),
    ``same`` (his standing is the same in all of those), ``some`` (best in several of them, the
    others named as dropped). Each province and number it names is the oracle's; the variant."""
    d = decide(g.copy(), g.rng)
    if d is None or d.step != "reinforce":
        return None
    inf, main = influence(g), d.reason[0]
    opened = [x for x in range(N_PROVINCES) if g.ctrl[x] == OPEN]
    present = [x for x in opened if any(g.owner[s] == C for s in PROVINCE_SPACES[x])]
    near = [x for x in present if moves_into(g, x)]
    empties = {x: sum(g.owner[s] < 0 for s in PROVINCE_SPACES[x]) for x in near}
    tied = best(near, lambda x: -empties[x])
    kept = best(tied, lambda x: inf[C][x] - inf[H][x])
    if len(near) == 1:
        want = "only"
    elif len(tied) == 1:
        want = "fewest"
    elif len(kept) == 1:
        want = "lead"
    else:
        want = "same" if len(kept) == len(tied) else "some"
    said = {"only": "he can place only in", "fewest": "more in {others}", "lead": "he stands best there",
            "same": "he stands the same in each", "some": "he stands best in {kept}"}
    got = [k for k, words in said.items() if words in main.template]
    assert got == [want], (got, want, str(d.why))
    names = {k: sorted(NAMES[str(p)] for p in v) if isinstance(v, tuple) else v for k, v in main.kwargs.items()}
    assert NAMES[str(main.kwargs["where"])] == d.province and main.kwargs["touched"] == len(present), str(d.why)
    if want == "fewest":
        assert names["others"] == sorted(y for y in near if y != d.province) and main.kwargs["n"] == empties[d.province]
    if want in ("lead", "same", "some"):
        assert names["tied"] == sorted(tied) and main.kwargs["n"] == empties[d.province], str(d.why)
    if want == "some":
        assert names["kept"] == sorted(kept) and names["dropped"] == sorted(set(tied) - set(kept)), str(d.why)
    if want != "only":
        assert d.province in (kept if want != "fewest" else tied), str(d.why)
    return want


@pytest.mark.parametrize("pos, want", [
    # NU takes none of his row (its free spaces are swords): of NU and SC only SC takes a token
    ({"spaces": {"NU-SC": t("crassus", "ship:3/3", NU=3, SC=3)},
      "crassus_row": ["shield:5/1", "ship:5/1"]}, "only"),
    # AC and AF have 3 empty spaces each; he leads by 5 in AC, by 1 in AF: his lead decides
    ({"spaces": {"AF-AC": t("crassus", "ship:5/1", AC=5, AF=1)},
      "crassus_row": ["shield:6/0"]}, "lead"),
    # the same empty spaces and lead in AC and AF: neither decides, the province list (S-16) does
    ({"spaces": {"AF-AC": t("crassus", "ship:3/3", AC=3, AF=3)},
      "crassus_row": ["shield:6/0"]}, "same"),
])
def test_his_reinforce_reason_says_what_decided(pos: dict[str, Any], want: str):  # S-12
    """S-12 «...в той провинции, где авто-Красс наиболее близок к победе»: his reason said both the
    empty spaces and his lead («closest to winning (3 empty spaces, he leads by 5)») whether the
    spaces, the lead or neither decided; it says the one that did."""
    assert reinforce_said_true(solo(pos)) == want


def test_his_reinforce_reasons_say_what_decided_in_random_positions():  # S-12
    met = collections.Counter(
        reinforce_said_true(solo(random_position(r), r.choice(["ru", "uk", "mixed"]), seed=k))
        for k in range(2500) for r in [random.Random(9 * 10**5 + k)])
    assert all(met[k] for k in ("only", "fewest", "lead", "same", "some")), met


def test_his_reinforce_reason_says_where_he_stands_worse_in_russian():  # S-12
    """When his standing is best in some of the provinces with the fewest empty spaces, the others
    are where it is worse: «его положение лучше всего в провинциях Нумидия, Италия (…), а в
    остальных (Сицилия) — хуже» (it said «а у остальных», the other provinces' standing, not his
    in them); the Ukrainian «а в інших» already did."""
    from firmware.i18n import say
    for k in range(2500):
        r = random.Random(9 * 10**5 + k)
        g = solo(random_position(r), r.choice(["ru", "uk", "mixed"]), seed=k)
        if reinforce_said_true(g) == "some":
            break
    else:
        pytest.fail("no position where his standing is best in some of the tied provinces")
    d = decide(g.copy(), g.rng)
    assert d is not None
    ru, uk = say(d.reason[0], "ru"), say(d.reason[0], "uk")
    assert re.search(r"\), а в остальных \([^()]+\) — хуже;", ru) and "а у остальных" not in ru, ru
    assert "), а в інших (" in uk, uk


def test_the_province_list_reason_names_only_provinces_still_in_the_running():
    # His tokens fill all but one space of Hispania Ulterior, Numidia and Italia (you have none
    # there), and Mauretania is his: his wild 4/0 can capture any of the three (S-9). S-16's 1st
    # level («Провинция, граничащая с той, в которой авто-Красс уже установил свой контроль»; UA
    # «Провінції, сусідні до підконтрольних») keeps Hispania Ulterior and Numidia, beside
    # Mauretania; its 5th («...граничащая с центральной провинцией»; «Провінції, сусідні з
    # центральними») picks Numidia, beside central Sicilia, among those two. It read «of Hispania
    # Ulterior, Numidia, Italia, Numidia borders a central province», Italia being central itself
    # (the 4th level), so a player checking him at the table read a wrong rule.
    pool, spaces = list(range(12)), {}
    for sp in ("HU-MT", "MT-NU", "NU-SC", "SD-IT", "SC-IT", "IT-GC", "IT-AC", "IT-MD"):
        k = SPACES.index(sp)
        x = next(x for x in pool if TOKENS[x].mask & SPACE_ICON[k])
        pool.remove(x)
        spaces[sp] = t("crassus", TOKENS[x].name, **{PROVINCES[SPACE_A[k]]: TOKENS[x].hi,
                                                     PROVINCES[SPACE_B[k]]: TOKENS[x].lo})
    g = solo({"spaces": spaces, "control": {"MT": "crassus"}, "crassus_row": ["wild:4/0"]})
    agree(g, ways(g, ("capture", 0, "NU-AF", {"NU": 0, "AF": 4})))
    d = decide(g.copy(), g.rng)
    assert d is not None and [str(n) for n in d.reason[1:]] == [
        "province priority list: Hispania Ulterior, Numidia border a province he controls, not Italia",
        "province priority list: of Hispania Ulterior, Numidia, Numidia borders a central province"]
    assert list_notes_true(g) == [_S16_SOME[0], _S16_TEXT[4]]
