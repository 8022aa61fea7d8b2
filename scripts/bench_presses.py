"""Presses per task at the table, counted through the real App (issue 9's table).

    .venv/bin/python scripts/bench_presses.py [--lang en ru uk] [--games N] [--only caesar ...]

Each scripts/presses/<game>.py has ``play(driver, rng) -> None`` that plays one scripted game or task
with device keys only (see scripts/presses/harness.py) and ``TARGETS`` {task: (median target, max
target)} (the issues' figures; ``BOUNDS``, where a target is not met yet, holds today's figure for
tests/test_presses.py). This prints, per task, the median and max presses against the targets
("not met" where over), and every screen problem found (rows wider than the panel, console syntax,
missing glyphs).
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.presses.harness import Driver  # noqa: E402
from scripts.args import at_least  # noqa: E402

MODULES = ("caesar", "jc", "glory", "sword", "kit")


Figures = tuple[dict[str, list[int]], dict[str, tuple[float, float]], list[str]]


def measure(lang: str, games: int, seed: int = 1, only: tuple[str, ...] = MODULES) -> Figures:
    results: dict[str, list[int]] = {}
    targets: dict[str, tuple[float, float]] = {}
    problems: list[str] = []
    for name in only:
        try:
            mod = importlib.import_module(f"scripts.presses.{name}")
        except ImportError:
            continue
        targets.update(getattr(mod, "TARGETS", {}))
        for g in range(games):
            d = Driver(lang, seed=seed * 1000 + g)
            try:
                mod.play(d, random.Random(seed * 1000 + g))
            finally:
                d.close()
            for task, counts in d.results.items():
                results.setdefault(task, []).extend(counts)
            problems += d.problems
    return results, targets, problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lang", nargs="+", choices=("en", "ru", "uk"), default=["en"], help="one table per language (en ru uk: all three)")
    ap.add_argument("--games", type=at_least(1), default=3)
    ap.add_argument("--only", nargs="*", choices=MODULES, default=list(MODULES), help="these games only")
    args = ap.parse_args()
    for lang in args.lang:
        results, targets, problems = measure(lang, args.games, only=tuple(args.only))
        if len(args.lang) > 1:
            print(f"\n## {lang}\n")
        print("| task | median | mean | max | target (median / max) | occurrences |")
        print("|---|---|---|---|---|---|")
        for task, counts in results.items():
            t = targets.get(task)
            tgt = f"{t[0]:g} / {t[1]:g}" if t else "—"
            if t and (statistics.median(counts) > t[0] or max(counts) > t[1]):
                tgt += " (not met)"
            print(f"| {task} | {statistics.median(counts):g} | {statistics.mean(counts):.2f} | {max(counts)} | {tgt} | "
                  f"{len(counts)} |")
        uniq = sorted(set(problems))
        print(f"\nscreen problems: {len(uniq)}")
        for p in uniq[:40]:
            print("  " + p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
