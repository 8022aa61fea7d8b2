"""Auto-Crassus's strength per difficulty: win rate against a simple greedy player.

    python scripts/caesar_difficulty.py [--games 1000] [--seed 0] [--markdown] [--tiles 'B:draw2+play;C:draw1+play+play']
                                        [--edition ru|uk|mixed]

The greedy player (engine/caesar/players.py) takes the placement that gains the most markers
now (closing and winning provinces, border markers, bonuses counted lightly), else the largest
value in contested open provinces; Might flips the opponent's strongest live token, Centurion
takes the biggest centurion. Each difficulty plays ``--games`` games with the rules of
``--edition`` (default ``mixed``, the rules before editions) and the default (unverified) tile
contents, alternating the human's side; then the same with all three expansions. A random player
is shown for reference. 95% intervals are Wilson's.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.caesar import flow  # noqa: E402
from engine.caesar.editions import EDITIONS, variant_values  # noqa: E402
from engine.caesar.players import greedy_policy, play_out, random_policy  # noqa: E402
from engine.caesar.tiles import DIFFICULTIES, parse_tiles  # noqa: E402
from engine.errors import BadArguments  # noqa: E402
from engine.rng import Rng  # noqa: E402
from firmware.i18n import say  # noqa: E402
from scripts.args import at_least  # noqa: E402


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def run(difficulty: str, games: int, seed: int, greedy: bool, expansions: bool,
        tiles: dict[str, list[str]] | None = None, edition: str = "mixed") -> dict[str, object]:
    wins = 0
    turns = 0
    ends: Counter[str] = Counter()
    for i in range(games):
        g = flow.new_game("solo", seed + i, difficulty=difficulty, side=("caesar", "pompey")[i % 2],
                          poison=expansions, centurions=expansions, border_control=expansions, tiles=tiles,
                          rules={"edition": edition, **variant_values(edition)})
        play_out(g, greedy_policy if greedy else random_policy, Rng(seed + i, 17), greedy=greedy)
        wins += g.winner == 1
        turns += g.turns
        ends[end_kind(g.end)] += 1
    lo, hi = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games, "lo": lo, "hi": hi,
            "turns": turns / games, "ends": ends}


def end_kind(text: str) -> str:
    """A short name for how a game ended (from its end sentence)."""
    for words, kind in (("last control marker", "last marker placed (C-12)"),
                        ("no control markers left", "markers removed (S-8 harder)"),
                        ("Crassus cannot place", "Crassus stuck (S-19)"), ("cannot place", "human stuck (C-12)"),
                        ("no token", "empty hand (C-12)")):
        if words in text:
            return kind
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=at_least(1), default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--tiles", help="tile contents in the tiles= syntax (default: the unverified defaults)")
    ap.add_argument("--edition", choices=EDITIONS, default="mixed", help="the rules edition (default: mixed)")
    args = ap.parse_args(argv)
    try:
        tiles = parse_tiles(args.tiles) if args.tiles else None
    except BadArguments as e:
        ap.error(f"--tiles: {say(e.message)} (e.g. --tiles 'B:draw2+play;C:draw1+play+play'; "
                 "docs/protocol/caesar.md, Command tiles)")
    t0 = time.perf_counter()
    rows = []
    for expansions in (False, True):
        for player in ("greedy", "random"):
            for diff in DIFFICULTIES:
                r = run(diff, args.games, args.seed, player == "greedy", expansions, tiles, args.edition)
                rows.append((("all three expansions" if expansions else "base game"), player, diff, r))
    dt = time.perf_counter() - t0
    if args.markdown:
        print("| game | opponent | difficulty | games | Auto-Crassus wins | win rate | 95% interval | turns/game |")
        print("|---|---|---|---|---|---|---|---|")
        for game, player, diff, r in rows:
            print(f"| {game} | {player} | {diff} | {r['games']} | {r['wins']} | {r['rate']:.1%} | "
                  f"{r['lo']:.1%}–{r['hi']:.1%} | {r['turns']:.1f} |")
    else:
        for game, player, diff, r in rows:
            ends = ", ".join(f"{k} {v}" for k, v in r["ends"].most_common())  # type: ignore[attr-defined]
            print(f"{game:21} {player:6} {diff:6}: Auto-Crassus wins {r['wins']}/{r['games']} = {r['rate']:.1%} "
                  f"(95% {r['lo']:.1%}-{r['hi']:.1%}), {r['turns']:.1f} turns/game; ended by {ends}")
    print(f"\n{len(rows) * args.games} games in {dt:.0f} s (seed {args.seed}, edition {args.edition}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
