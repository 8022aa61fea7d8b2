"""Fuzz Caesar! solo: play many complete games with random legal human moves against
Auto-Crassus and check the invariants after every action.

    python scripts/caesar_fuzz.py [--games 2000] [--seed 0] [--console 20]

Every game cycles through the 7 module combinations (Border control only with Poison and/or
Centurions), the 3 difficulties, both sides and every rule option. After each action it checks
token conservation (bag + hand/row + board + unused centurions = 16, 19 with Centurions), marker
conservation (left + board + under Senate + removed = 12), that every closure was resolved as
C-7..C-10 say, the derived totals and the JSON round trip; every game must end with a winner
within 2,000 actions. ``--console`` also plays that many games through the console session
(request lines, JSON state between commands), and as many with every input physical (tiles, both
bags, face-down centurions and bonuses named on the command line). Prints a summary; exits 1 on the first failure.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.caesar import flow  # noqa: E402
from engine.caesar.invariants import closure_problems, problems  # noqa: E402
from engine.caesar.model import Game  # noqa: E402
from engine.caesar.players import greedy_policy, play_out, random_policy  # noqa: E402
from engine.rng import Rng  # noqa: E402
from scripts.args import at_least  # noqa: E402

MODULES = [(p, c, b) for p in (False, True) for c in (False, True) for b in (False, True) if not b or p or c]
DIFFICULTIES = ("easy", "normal", "hard")
RULES = {"reshuffle": ("all", "keep-last"), "defend": ("any", "all"), "ties": ("list", "random"),
         "stuck": ("lose", "skip"), "harder": ("off", "always", "control"), "crassus-ties": ("own", "all")}


def config(i: int) -> dict[str, Any]:
    """The i-th configuration: modules, difficulty and side cycle fastest, rule options slower."""
    poison, cents, bctl = MODULES[i % len(MODULES)]
    rules = {}
    k = i // len(MODULES)
    for key, values in RULES.items():
        rules[key] = values[k % len(values)]
        k = k // len(values) + i % 5
    return {"difficulty": DIFFICULTIES[i % 3], "side": ("caesar", "pompey")[(i // 3) % 2],
            "poison": poison, "centurions": cents, "border_control": bctl, "rules": rules}


class FuzzFailure(AssertionError):
    pass


def run_game(i: int, seed: int = 0, greedy_every: int = 4) -> Game:
    """Play configuration ``i`` with game seed ``seed + i`` to the end, checking every action.
    Every ``greedy_every``-th game the human side plays greedily (still legal moves, random
    ties), so that games the human wins are exercised too."""
    cfg = config(i)
    g = flow.new_game("solo", seed + i, **cfg)

    def check(g: Game, steps: list[dict[str, Any]], actor: int) -> None:
        bad = problems(g) + closure_problems(g, steps, actor)
        if bad:
            raise FuzzFailure(f"game {i} (seed {seed + i}, {cfg}): {bad}")

    check(g, [], 0)
    greedy = greedy_every > 0 and i % greedy_every == greedy_every - 1
    return play_out(g, greedy_policy if greedy else random_policy, Rng(seed + i, 7), greedy=greedy, check=check)


def run_console_game(i: int, seed: int = 0) -> dict[str, Any]:
    """The same kind of game through the console session: request lines and JSON state."""
    from firmware.session import Session
    cfg = config(i)
    opts = [f"side={cfg['side']}", f"difficulty={cfg['difficulty']}", f"seed={seed + i}"]
    opts += [f"{k}=1" for k, key in (("poison", "poison"), ("centurions", "centurions"),
                                      ("border-control", "border_control")) if cfg[key]]
    opts += [f"{k}={v}" for k, v in cfg["rules"].items() if k != "harder"]
    if cfg["rules"]["harder"] != "off":
        opts += ["harder=1", f"harder-when={cfg['rules']['harder']}"]
    session = Session.start("new caesar-solo " + " ".join(opts), seed + i, "fuzz")
    rng = Rng(seed + i, 11)
    for _ in range(2000):
        st = session.view()
        if st["winner"]:
            g = Game.from_json(session.state)
            bad = problems(g)
            if bad:
                raise FuzzFailure(f"console game {i}: {bad}")
            return st
        if st["turn"] == "crassus":
            session.apply("crassus")
        elif st["step"] == "bonus":
            session.apply(f"{st['human']['pending'][0]} skip")
        elif st["step"] == "draw":
            session.apply("draw")
        else:
            moves = session.apply("moves").fields
            pick = rng.choice(moves["moves"] + moves["face_down"])
            if pick.get("face_down"):
                session.apply(f"play {pick['space']} {pick['token']} down")
            else:
                (prov, first), (_, second) = list(pick["toward"].items())
                session.apply(f"play {pick['space']} {pick['token'].split(':')[0]}:{first}/{second} {prov}")
    raise FuzzFailure(f"console game {i} did not end")


def end_kind(text: str) -> str:
    """A short name for how a game ended (from its end sentence)."""
    for words, kind in (("last control marker", "last marker placed (C-12)"),
                        ("no control markers left", "markers removed (S-8 harder)"),
                        ("cannot play", "Crassus stuck (S-19)"), ("cannot place", "human stuck (C-12)"),
                        ("no token", "empty hand (C-12)")):
        if words in text:
            return kind
    return text


def run_physical_game(i: int, seed: int = 0) -> dict[str, Any]:
    """A console game with every input physical: the driver draws the tiles, both bags, the
    face-down centurions and the C-21 bonuses itself (from what ``state`` shows) and names them."""
    from engine.caesar.tokens import CENTURION_IDS, TOKENS
    from firmware.session import Session
    cfg = config(i)
    rng = Rng(seed + i, 13)
    names = [TOKENS[t].name for t in range(16)]
    row = [names.pop(rng.below(len(names))) for _ in range(3)]
    mods = [f"{k}=1" for k, key in (("poison", "poison"), ("centurions", "centurions"),
                                    ("border-control", "border_control")) if cfg[key]]
    line = (f"new caesar-solo difficulty={cfg['difficulty']} tiles-input=physical bag-input=physical "
            f"row={','.join(row)} {' '.join(mods)}")
    session = Session.start(line, seed + i, "fuzz")
    for _ in range(3000):
        st = session.view()
        if st["winner"]:
            bad = problems(Game.from_json(session.state))
            if bad:
                raise FuzzFailure(f"physical game {i}: {bad}")
            return st
        human = st["human"]
        if human["draws_due"] and not human["pending"] and (st["turn"] == "crassus" or st["step"] != "bonus"):
            session.apply("draw " + rng.choice(human["bag_contents"]))
        elif st["turn"] == "crassus":
            tile = rng.choice(list(st["tiles"]["stack_left"]))
            actions = st["tiles"]["definitions"][tile].split("+")
            bag = list(st["crassus"]["bag_contents"])
            on_board = [v["token"] for v in st["position"]["spaces"].values() if v["by"] == "crassus"]
            hidden = [TOKENS[t].name for t in CENTURION_IDS] if st["position"]["modules"]["centurions"] else []
            for name in on_board + st["position"]["crassus_row"] + bag:
                if name in hidden:
                    hidden.remove(name)
            draws, cents = [], []
            for act in actions:                      # default-style tiles: draws before discards
                if act.startswith("draw"):
                    for _ in range(min(int(act[-1]), len(bag))):
                        draws.append(bag.pop(rng.below(len(bag))))
                elif act == "centurion" and hidden:
                    cents.append(hidden.pop(rng.below(len(hidden))))
            opts = f"tile={tile}" + (f" draw={','.join(draws)}" if draws else "")
            opts += f" centurion={','.join(cents)}" if cents else ""
            session.apply("crassus " + opts)
        elif st["step"] == "bonus":
            session.apply(f"{human['pending'][0]} skip")
        else:
            moves = session.apply("moves").fields
            pick = rng.choice(moves["moves"] + moves["face_down"])
            if pick.get("face_down"):
                extra = f" bonus={rng.choice(st['bonus_pool_left'])}" if st.get("bonus_pool_left") else ""
                session.apply(f"play {pick['space']} {pick['token']} down{extra}")
            else:
                (prov, first), (_, second) = list(pick["toward"].items())
                session.apply(f"play {pick['space']} {pick['token'].split(':')[0]}:{first}/{second} {prov}")
    raise FuzzFailure(f"physical game {i} did not end")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=at_least(0), default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--console", type=at_least(0), default=20, help="games also played through the console")
    ap.add_argument("--greedy-every", type=at_least(0), default=4, help="every N-th game the human plays greedily (0: never)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    wins: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    actions = 0
    try:
        for i in range(args.games):
            g = run_game(i, args.seed, args.greedy_every)
            wins[g.names[g.winner]] += 1
            ends[end_kind(g.end)] += 1
            actions += g.turns
        for i in range(args.console):
            run_console_game(i, args.seed)
            run_physical_game(i, args.seed)
    except FuzzFailure as e:
        print(f"FAILED: {e}")
        return 1
    dt = time.perf_counter() - t0
    print(f"{args.games} solo games (random human moves; every {args.greedy_every}th greedy) "
          f"+{args.console} through the console (+{args.console} with physical inputs), in {dt:.1f} s: "
          f"no invariant broken, every game ended with a winner.")
    print(f"configurations: {len(MODULES)} module sets x {len(DIFFICULTIES)} difficulties x 2 sides x rule options")
    print(f"winners: {dict(wins)}; turns per game: {actions / max(args.games, 1):.1f}")
    print("how games ended (rule): " + ", ".join(f"{k} {v}" for k, v in ends.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
