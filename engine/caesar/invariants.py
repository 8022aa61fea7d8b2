"""Checks that hold in every reachable game (used by the fuzzer and the tests).

:func:`problems` lists broken invariants as sentences (empty when all hold); :func:`closure_problems`
checks the ``close`` steps of one placement against C-7..C-10.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engine.caesar.board import (
    N_PROVINCES, N_SPACES, NEIGHBOURS, PROVINCE_INDEX, PROVINCE_SPACES, SLOTS, SPACE_A, SPACE_B, SPACE_INDEX,
)
from engine.caesar.model import CRASSUS, MARKERS, NONE, OPEN, Game
from engine.caesar.tokens import BASE_IDS, CENTURION_IDS


def problems(g: Game) -> list[str]:
    """Token and marker conservation, board consistency, derived totals, JSON round trip."""
    out: list[str] = []
    for p in (0, 1):
        ids = list(g.bag[p]) + list(g.hand[p]) + list(g.cent[p])
        ids += [g.tok[s] for s in range(N_SPACES) if g.owner[s] == p]
        want = list(BASE_IDS) + (list(CENTURION_IDS) if g.centurions else [])
        if Counter(ids) != Counter(want):
            out.append(f"tokens of {g.names[p]}: {sorted(ids)} != {sorted(want)}")
        board = sum(g.slots[x] for x in range(N_PROVINCES) if g.ctrl[x] == p)
        board += sum(1 for m in g.bmark if m == p)
        total = g.markers[p] + board + g.senate_markers[p] + g.removed[p]
        if total != MARKERS or g.markers[p] < 0:
            out.append(f"markers of {g.names[p]}: left {g.markers[p]} + board {board} + senate "
                       f"{g.senate_markers[p]} + removed {g.removed[p]} != 12")
        if g.markers[p] == 0 and g.winner != p:
            out.append(f"{g.names[p]} has no markers left but did not win")
    if g.over != (g.winner >= 0):
        out.append(f"step {g.step} but winner {g.winner}")
    for x in range(N_PROVINCES):
        full = all(g.owner[s] >= 0 for s in PROVINCE_SPACES[x])
        if full != (g.ctrl[x] != OPEN):
            out.append(f"province {x}: full={full} but ctrl={g.ctrl[x]}")
        if g.ctrl[x] != OPEN and g.bonus[x]:
            out.append(f"province {x} is closed but still holds {g.bonus[x]}")
        if g.ctrl[x] >= 0 and g.slots[x] != SLOTS[x] and not g.over:
            out.append(f"province {x} controlled with {g.slots[x]} markers")
        if g.ctrl[x] < 0 and (g.slots[x] or g.cflip[x]):
            out.append(f"province {x} uncontrolled but has markers/flip")
    for s in range(N_SPACES):
        m = g.bmark[s]
        if m >= 0 and not (g.ctrl[SPACE_A[s]] == m and g.ctrl[SPACE_B[s]] == m):
            out.append(f"border marker on space {s} without control of both provinces")
    derived = ([list(g.inf[0]), list(g.inf[1])], list(g.empty), list(g.emask),
               [list(g.touch[0]), list(g.touch[1])])
    g.recompute()
    if derived != (g.inf, g.empty, g.emask, g.touch):
        out.append("derived influence/empty/icon/touch counts drifted")
    if g.solo and len(g.stack) + len(g.played) + bool(g.revealed) != len(g.deck):
        out.append(f"tiles: stack {g.stack} + played {g.played} != deck {g.deck}")
    if g.solo and g.turn == CRASSUS and not g.over and g.step != "play":
        out.append(f"Crassus's turn in step {g.step}")
    data = json.loads(json.dumps(g.to_json()))
    if Game.from_json(data).to_json() != data:
        out.append("JSON round trip changed the game")
    return out


def closure_problems(g: Game, steps: list[dict[str, Any]], closer: int) -> list[str]:
    """Check every ``close`` step against C-9 (totals, ties: S-8) and C-10 (border markers)."""
    out: list[str] = []
    for st in steps:
        if st["action"] != "close":
            continue
        x = PROVINCE_INDEX[st["province"]]
        t0, t1 = st["totals"][g.names[0]], st["totals"][g.names[1]]
        want = 0 if t0 > t1 else 1 if t1 > t0 else (
            CRASSUS if g.solo and (closer == CRASSUS or g.rules["crassus-ties"] == "all") else NONE)
        got = g.names.index(st["winner"]) if st["winner"] != "none" else NONE
        if got != want:
            out.append(f"{st['province']}: totals {t0}-{t1}, closer {closer}, winner {st['winner']}")
        if g.ctrl[x] != want:
            out.append(f"{st['province']}: ctrl {g.ctrl[x]} != {want}")
        if want >= 0 and not g.over:
            if st["markers"] != SLOTS[x]:
                out.append(f"{st['province']}: {st['markers']} markers, want {SLOTS[x]}")
            for nb, sp in NEIGHBOURS[x]:
                if g.ctrl[nb] == want and g.bmark[sp] != want and not g.cflip[nb]:
                    out.append(f"{st['province']}: missing border marker on space {sp}")
            for sid in st["border_markers"]:
                if g.bmark[SPACE_INDEX[sid]] != want:
                    out.append(f"{st['province']}: border marker {sid} not on the board")
    return out
