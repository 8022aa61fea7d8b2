"""Record Auto-Crassus's every answer over many games, to check that a change to ``decide``
(engine/caesar/autocrassus.py) changes no decision and no reason.

``python scripts/crassus_record.py --games 300 --out /tmp/new.jsonl`` plays that many solo games
(every edition, difficulty, module set, ``defend=``/``ties=`` reading, harder game; the human side
random or greedy) and writes a record for every position asked: before every action of either
side, and on the same board with three random rows of his, on three random boards, and on one
with forged facts (for the rarer points of his list). A record holds every equally good play
(``plays``) with its fields, its reason as stored data and said in en/ru/uk, the choices each tie
offered (how many, in order: what the ``crassus-ties`` stream is asked), the play of a few seeded
draws, ``decide``'s console answer in en/ru/uk; after each action, its steps and the game state
(so the games themselves stay the same). ``--root DIR`` imports the engine from another
checkout (an older commit's worktree): run it on both and compare the files (the last line
printed is the file's SHA-256). The file holds a digest per record (a game's number first); ``--full
--first N --games 1`` writes one game's records whole, to see what differs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from typing import Any


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--out", required=True)
    ap.add_argument("--full", action="store_true", help="whole records (about 5 MB a game), not their digests")
    ap.add_argument("--first", type=int, default=0, help="the first game's number (to look closer at one)")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    return ap.parse_args()


def main() -> None:
    a = _args()
    sys.path.insert(0, os.path.abspath(a.root))
    from engine.caesar import autocrassus, flow
    from engine.caesar.console import decision_fields
    from engine.caesar.editions import EDITIONS, variant_values
    from engine.caesar.board import CENTRAL, N_PROVINCES, N_SPACES, SPACE_ICON
    from engine.caesar.model import CRASSUS, HUMAN, NONE, OPEN, OTHER_RULES, Game
    from engine.caesar.players import greedy_policy, human_step, random_policy
    from engine.caesar.tokens import TOKENS
    from engine.rng import Rng
    from engine.text import to_data
    from firmware.i18n import domain

    caesar = domain("caesar")

    def said(x: Any) -> Any:
        """Every Msg in ``x`` as data and in each language."""
        if isinstance(x, str) and hasattr(x, "template"):
            return {"data": to_data(x), **{lang: str(caesar.say(x, lang)) for lang in ("en", "ru", "uk")}}
        if isinstance(x, dict):
            return {k: said(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [said(v) for v in x]
        return x

    def decision(d: Any) -> Any:
        if d is None:
            return None
        return {"rule": d.rule, "step": d.step, "space": d.space, "tid": d.tid, "row_index": d.row_index,
                "va": d.va, "vb": d.vb, "province": d.province, "reason": said(d.reason), "why": said(d.why),
                "text": said(d.text()), "item": said(d.item()), "toward": d.toward()}

    def shuffle_board(g: Game, r: random.Random) -> None:
        """Another board (tokens anywhere, each closed province won by the higher total)."""
        full, human = r.random(), r.choice((0.0, 0.1, 0.5))
        for s in range(N_SPACES):
            g.owner[s] = -1 if r.random() > full else HUMAN if r.random() < human else CRASSUS
            fit = [t.tid for t in TOKENS if t.mask & SPACE_ICON[s]]
            g.tok[s] = r.choice(fit)
            hi, lo = TOKENS[g.tok[s]].hi, TOKENS[g.tok[s]].lo
            g.va[s], g.vb[s] = (hi, lo) if r.random() < 0.5 else (lo, hi)
            g.down[s] = int(g.owner[s] == HUMAN and r.random() < 0.1)
            g.bmark[s] = r.choice((-1, -1, -1, HUMAN, CRASSUS))
            if g.owner[s] < 0:
                g.tok[s] = g.va[s] = g.vb[s] = g.down[s] = 0
        g.recompute()
        for x in range(N_PROVINCES):
            h, c = g.inf[HUMAN][x], g.inf[CRASSUS][x]
            g.ctrl[x] = OPEN if g.empty[x] else (CRASSUS if c >= h else HUMAN)
            g.cflip[x] = int(g.ctrl[x] == HUMAN and r.random() < 0.2)
        g.markers[HUMAN] = r.randint(1, 12)

    def forge(g: Game, r: random.Random) -> None:
        """Facts no game reaches often (not even consistent): the last points of his list."""
        g.inf[HUMAN] = [0] * N_PROVINCES
        g.touch[CRASSUS] = [int(r.random() < 0.05) for _ in range(N_PROVINCES)]
        for x in range(N_PROVINCES):
            if CENTRAL[x] and r.random() < 0.7:
                g.ctrl[x] = NONE
            elif g.ctrl[x] != OPEN and r.random() < 0.5:
                g.ctrl[x] = CRASSUS
            if g.ctrl[x] == OPEN and g.empty[x] == 1 and r.random() < 0.8:
                g.empty[x] = 2

    def paths(g: Game) -> list[Any]:
        """decide along every path of tie choices (as ``plays`` walks them), with the sizes asked."""
        out: list[Any] = []
        todo: list[list[int]] = [[]]
        while todo and len(out) < 64:
            path = todo.pop()
            given = autocrassus._Given(path)
            d = autocrassus.decide(g, given)
            out.append({"path": path, "sizes": given.sizes, "d": decision(d)})
            for j in range(len(path), len(given.sizes)):
                todo += [path + [0] * (j - len(path)) + [k] for k in range(1, given.sizes[j])]
        return out

    n_pos = 0
    with open(a.out, "w", encoding="utf-8") as f:
        def write(rec: Any) -> None:
            line = json.dumps(rec, ensure_ascii=False, sort_keys=True)
            if not a.full:
                line = f"{rec.get('game', '')} {hashlib.sha256(line.encode()).hexdigest()}"
            f.write(line + "\n")

        for i in range(a.first, a.first + a.games):
            r = random.Random(i)
            edition = EDITIONS[i % 3]
            rules = {"edition": edition, **variant_values(edition), **OTHER_RULES}
            if r.random() < 0.3:
                rules["defend"] = r.choice(("any", "all"))
            if r.random() < 0.3:
                rules["ties"] = r.choice(("list", "random"))
            if r.random() < 0.3:
                rules["harder"] = rules["harder-when"] = r.choice(("always", "control"))
            if r.random() < 0.2:
                rules["stuck"] = "skip"
            poison, cents = r.random() < 0.5, r.random() < 0.5
            g = flow.new_game("solo", i, difficulty=("easy", "normal", "hard")[(i // 3) % 3], poison=poison,
                              centurions=cents, border_control=(poison or cents) and r.random() < 0.5,
                              rules=rules)
            policy = greedy_policy if i % 2 else random_policy
            rng = Rng(i, 7)
            for _ in range(2000):
                if g.over:
                    break
                for k, w in enumerate([g] + [g.copy() for _ in range(7)]):
                    if k:           # the same board, another row: the rarer points (S-13, S-15, S-19)
                        w.hand[CRASSUS] = r.sample(range(len(TOKENS)), r.randint(0, 4) if k == 1 else 1)
                    if k >= 3:
                        shuffle_board(w, r)
                    if k == 6:
                        forge(w, r)
                    rec = {"game": i, "row": w.hand[CRASSUS], "plays": [decision(d) for d in autocrassus.plays(w)],
                           "paths": paths(w),
                           "drawn": [decision(autocrassus.decide(w, Rng(j, 11))) for j in range(3)],
                           "console": said(decision_fields(w))}
                    write(rec)
                    n_pos += 1
                if g.is_bot(g.turn):
                    _, steps = flow.crassus_turn(g)      # his turn: a tile, its draws, then his play
                else:
                    steps = human_step(g, g.turn, rng, policy, policy is greedy_policy)
                after = {"game": i, "after": hashlib.sha256(json.dumps(g.to_json(), sort_keys=True).encode()).hexdigest(),
                         "steps": said(steps)}
                write(after)
    digest = hashlib.sha256(open(a.out, "rb").read()).hexdigest()
    print(f"{a.games} games, {n_pos} positions asked")
    print(digest)


if __name__ == "__main__":
    main()
