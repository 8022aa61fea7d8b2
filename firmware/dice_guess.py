"""Where the face cursor of a physical die starts, so that entering a roll costs few presses.

The player reads the dice of one roll from the lowest face to the highest. Given the face of the die
before (``prev``, ``None`` for the first die), the next die of a sorted roll of ``n`` d6 is more
likely to show some faces than others; the entry screen starts each die on the face that is the
fewest up/down presses (faces wrap 6 → 1) away on average. Dice not reached yet show the chain of
these guesses, so A can enter a roll whose remaining dice already match.

For 1–4 dice the mean cost per die, including the press that moves on or submits, is 2.5, 1.9, 1.6
and 1.5 presses (with every new die starting on the previous face: 2.5, 2.3, 2.1 and 1.9).
"""
from __future__ import annotations

import itertools
from collections import defaultdict
from functools import lru_cache

FACES = range(1, 7)
EXACT_UP_TO = 5          # dice per roll enumerated exactly (6**5 = 7,776 sorted rolls at most)


def presses_between(a: int, b: int) -> int:
    """Up/down presses from face ``a`` to face ``b`` on a die whose faces wrap (6 → 1)."""
    d = abs(a - b)
    return min(d, 6 - d)


@lru_cache(maxsize=None)
def _table(n: int) -> dict[tuple[int, int | None], int]:
    counts: dict[tuple[int, int | None], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for roll in itertools.product(FACES, repeat=n):
        r = sorted(roll)
        for i, face in enumerate(r):
            counts[(i, r[i - 1] if i else None)][face] += 1
    return {k: min(FACES, key=lambda s: (sum(presses_between(s, f) * c for f, c in dist.items()), s))
            for k, dist in counts.items()}


def start_face(i: int, n: int, prev: int | None) -> int:
    """The face die ``i`` (0-based) of a sorted roll of ``n`` dice starts on, after ``prev``.

    Raises ValueError for ``i`` outside ``0 .. n-1`` or ``prev`` not a face."""
    if not 0 <= i < n or (prev is not None and prev not in FACES):
        raise ValueError(f"die {i} of {n} after {prev}")
    if n > EXACT_UP_TO:                    # not in Julius Caesar or Sword (at most 4 dice a roll)
        return 1 if prev is None else prev
    return _table(n)[(i, prev)]


def chain(n: int, at: int, faces: list[int]) -> list[int]:
    """``faces`` with the dice after ``at`` replaced by the chain of guesses from die ``at``."""
    out = list(faces[:at + 1])
    for j in range(at + 1, n):
        out.append(start_face(j, n, out[-1]))
    return out
