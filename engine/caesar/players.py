"""Simple opponents for Auto-Crassus (fuzzing, difficulty figures) and a whole-game driver.

A policy chooses the human side's actions: ``random`` picks uniformly among legal moves;
``greedy`` takes the move that gains the most markers now (closing and winning provinces,
bonuses counted lightly), else the largest swing of influence in contested open provinces.
:func:`play_out` runs a game to its end through :mod:`engine.caesar.flow`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.caesar import flow
from engine.caesar.board import BORDER_CONTROL, N_SPACES, NEIGHBOURS, PROVINCES, SLOTS, SPACE_A, SPACE_B, SPACES
from engine.caesar.model import CRASSUS, OPEN, Game
from engine.caesar.rules import can_play_face_down, might_targets, placements
from engine.caesar.tokens import TOKENS
from engine.rng import Rng
from engine.caesar.text import Msg

Move = tuple[int, int, int, int, bool]          # tid, space, value toward A, value toward B, face down
Policy = Callable[[Game, int, Rng], Move]
BONUS_WORTH = {"senate": 1.5, "tactics": 1.0, "wealth": 0.6, "might": 0.6, "poison": 0.6, "centurion": 0.8}


def legal_moves(g: Game, p: int) -> list[Move]:
    """Every distinct legal placement of ``p`` (face up, and face down under C-21)."""
    out: list[Move] = [(tid, s, a, b, False) for tid, s, a, b in placements(g, p)]
    names: dict[str, int] = {}
    for tid in g.hand[p]:
        names.setdefault(TOKENS[tid].name, tid)
    for s in range(N_SPACES):
        if BORDER_CONTROL[s] and can_play_face_down(g, p, s):
            out.extend((tid, s, TOKENS[tid].hi, TOKENS[tid].lo, True) for tid in names.values())
    return out


def random_policy(g: Game, p: int, rng: Rng) -> Move:
    return rng.choice(legal_moves(g, p))


def greedy_policy(g: Game, p: int, rng: Rng) -> Move:
    """Best immediate value; ties at random."""
    best: list[Move] = []
    top = -1e9
    for mv in legal_moves(g, p):
        v = _score(g, p, mv)
        if v > top + 1e-9:
            top, best = v, [mv]
        elif abs(v - top) <= 1e-9:
            best.append(mv)
    return rng.choice(best)


def _score(g: Game, p: int, mv: Move) -> float:
    tid, s, va, vb, down = mv
    o = 1 - p
    score = 0.0
    for x, v in ((SPACE_A[s], va), (SPACE_B[s], vb)):
        mine = g.inf[p][x] + (0 if down else v)
        theirs = g.inf[o][x]
        if g.empty[x] == 1:
            tie_mine = g.solo and p == CRASSUS
            if mine > theirs or (mine == theirs and tie_mine):
                score += 10 * SLOTS[x] + 10 * sum(1 for nb, _ in NEIGHBOURS[x] if g.ctrl[nb] == p)
                score += 3 * BONUS_WORTH.get(g.bonus[x], 0)
            elif theirs > mine:
                score -= 10 * SLOTS[x] + 10 * sum(1 for nb, _ in NEIGHBOURS[x] if g.ctrl[nb] == o)
                score += 3 * BONUS_WORTH.get(g.bonus[x], 0)
        elif not down:
            lead = g.inf[p][x] - theirs
            weight = 1.0 / g.empty[x]
            if -8 <= lead <= 4:          # contested: value counts most
                score += v * weight
            else:
                score += 0.2 * v * weight
    if down:
        score += 2.0
    return score


def decide_bonus(g: Game, p: int, rng: Rng, greedy: bool) -> str:
    """The argument for ``might``/``centurion`` (a target, a token, or ``skip``)."""
    kind = g.pending[0]
    if kind == "might":
        spaces, provs = might_targets(g, p)
        if greedy:
            live = [s for s in spaces if g.ctrl[SPACE_A[s]] == OPEN or g.ctrl[SPACE_B[s]] == OPEN]
            if live:
                s = max(live, key=lambda t: (g.va[t] + g.vb[t], -t))
                return SPACES[s]
            return PROVINCES[provs[0]] if provs else "skip"
        options = [SPACES[s] for s in spaces] + [PROVINCES[x] for x in provs] + ["skip"]
        return rng.choice(options)
    if greedy:
        return TOKENS[max(g.cent[p], key=lambda t: (TOKENS[t].total, TOKENS[t].hi))].name
    return rng.choice([TOKENS[t].name for t in g.cent[p]] + ["skip"])


def human_step(g: Game, p: int, rng: Rng, policy: Policy, greedy: bool) -> list[dict[str, Any]]:
    """One action of a policy-driven player; returns the steps it produced."""
    if g.step == "play" and not g.due[p]:
        tid, s, va, vb, down = policy(g, p, rng)
        token = f"{TOKENS[tid].icon}:{va}/{vb}"
        return flow.play(g, p, s, token, SPACE_A[s], down)
    if g.step == "bonus":
        arg = decide_bonus(g, p, rng, greedy)
        kind = g.pending[0]
        return [flow.might(g, p, arg) if kind == "might" else flow.centurion(g, p, arg)]
    flow.draw(g, p)
    return []


def play_out(g: Game, policy: Policy, rng: Rng, greedy: bool = False,
             check: Callable[[Game, list[dict[str, Any]], int], None] | None = None,
             max_actions: int = 2000) -> Game:
    """Play ``g`` to the end: Auto-Crassus by the rules, the human side by ``policy``
    (both sides by ``policy`` in a duel). ``check(g, steps, actor)`` runs after each action.
    Raises RuntimeError if the game does not end within ``max_actions``."""
    for _ in range(max_actions):
        if g.over:
            return g
        p = g.turn
        if g.is_bot(p):
            _, steps = flow.crassus_turn(g)
        else:
            steps = human_step(g, p, rng, policy, greedy)
        if check is not None:
            check(g, steps, p)
    raise RuntimeError(Msg("game not over after {} actions", max_actions))


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}
