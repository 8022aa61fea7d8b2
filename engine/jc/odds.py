"""Exact battle odds under the J-14 policy (J-15), from set-up or from any point of a battle.

A small battle (fewer than :data:`GRID_DICE` dice in the space) is computed in plain Python
(:mod:`engine.jc.odds_dp`) each time it is asked. A big one is computed once on arrays
(:mod:`engine.jc.odds_grid`, numpy; :mod:`engine.jc.odds_table`): a forward pass gives the first answer and finds every state
the battle can reach, a backward pass gives the odds from each of them, and every later question
about the same battle (the live odds after any fire, each option of ``advise``) is a look-up. A
state the table does not hold to :data:`BUDGET` (a choice off the J-14 policy: a retreat, a
hit put on another block; or a very unlikely one) is computed again from there, once: the new
computation is looked up from then on. ``advise``'s hit options off the table are computed
together (their futures meet again: that computation becomes the table); a retreat or a pass
off the table by a forward pass on its own, kept as the table's answer (plain Python instead was
measured slower on the walks of scripts/bench_jc.py).

At a hit waiting for its target among several blocks (J-7) that the table does not hold, the
odds are computed with every target's, as ``advise`` computes them (:func:`_at_hit`): the
device's odds screen and battle screen ask for both there, and ``odds`` then ``advise`` cost two
computations (the odds alone, then every target again), ``advise`` then ``odds`` one. Measured
with scripts/bench_jc.py on the biggest battle at a 6-way and an 8-way choice in round 1 (x the
yardstick, medians of 3 runs): odds then advise 3.9 + 17.6 and 2.5 + 20 before, 9.9 + 0.02 and
12.7 + 0.02 now (the odds wait for the backward pass: the targets' futures are mixed in one
forward pass); advise then odds 10 + 0.02 and 12.3 + 0.01, the same programme. At a turn nothing
is computed twice: its options off the table are retreats, each a forward pass of its own
whichever is asked first (1 + the retreats either way), so ``odds`` there computes the battle as
it is, alone.

The device asks from its worker thread: a lock guards the tables, and :func:`finish` runs a
backward pass still to do (the worker calls it when it has nothing else to do, so the first
answer is shown as soon as the forward pass has it).
"""
from __future__ import annotations

import logging
import threading
from typing import Any

from engine.jc import battle as B
from engine.jc import odds_dp as D
from engine.jc.odds_dp import odds_python as odds_python

EPS = D.EPS
BUDGET = D.BUDGET
GRID_DICE = 22        # from this many dice in the space (both sides) the array programme is quicker
_LOCK = threading.Lock()      # the device may ask from its worker thread too
_RECENT: dict[tuple[str, float], dict[str, float]] = {}     # small battles' last answers
_TABLE: list[Any] = []        # the big battle's table (engine.jc.odds_table.Table), at most one
_NUMPY: list[Any] = []        # numpy once looked for (None: missing)
log = logging.getLogger(__name__)


def rounded(result: dict[str, float], digits: int = 4) -> dict[str, float]:
    """The figures rounded for people."""
    return {k: round(v, digits) for k, v in result.items()}


def odds(battle: B.Battle, eps: float = EPS) -> dict[str, float]:
    """Exact ``attacker_wins``, ``attacker_eliminated``, ``defender_holds`` (summing to 1) from
    the battle's current point, every remaining decision taken by the J-14 policy (a hit among
    equally strong blocks where the device puts it: a leader last with ``leaders=last``).

    At a hit waiting for its target among several blocks, in a big battle the table does not
    hold there, the odds of every target (``advise``'s hit options) are computed with it in one
    pass (:func:`_at_hit`): ``advise`` asked next looks them up.

    Raises IllegalMove if the battle cannot start (see :func:`battle.check_ready`).
    """
    with _LOCK:
        got = _at_hit(battle, eps)
        return got if got is not None else _many([battle], eps, True, None)[0]


def odds_many(battles: list[B.Battle], eps: float = EPS, together: bool = True,
              now: int | None = None) -> list[dict[str, float]]:
    """:func:`odds` for several points of one battle (``advise``'s options). Those the table
    does not hold are computed, with ``together`` in one pass that then holds them all (the
    table from now on: the hit options, whose futures meet again), else each on its own
    leaving the table as it is (retreats: each has a future of its own and is seldom taken).
    ``battles[now]``, if given, is the battle as it is: computed first as the table's start
    when the table does not hold it (then the others are looked up in it)."""
    with _LOCK:
        return _many(battles, eps, together, now)


def _at_hit(battle: B.Battle, eps: float) -> dict[str, float] | None:
    """:func:`odds` of ``battle`` at a hit waiting for its target among several blocks, computed
    with every target's (the battle once it takes the hit and the device puts the rest, as
    ``advise`` plays it out) in one pass, when the battle is big and the table does not hold it
    to BUDGET; None otherwise (a look-up, a small battle: :func:`_many`). ``odds`` and then
    ``advise`` at a hit (the device's odds screen asks both) cost one computation, as ``advise``
    alone does, not two: the first answer waits for the backward pass (the options' futures
    are mixed in the forward pass), measured in scripts/bench_jc.py."""
    pending = battle["pending"]
    if battle["phase"] != "fighting" or not pending:
        return None
    np = _numpy()
    cands = B.hit_candidates(battle, pending["side"])
    if np is None or len(cands) < 2:
        return None
    now = D._settled(battle)
    table = _TABLE[0] if _TABLE else None
    if now["phase"] != "fighting" or (_dice(now) < GRID_DICE and not (table and table.fits(now))):
        return None
    if table is not None and table.fits(now):
        pos = table.position(now)
        if pos is not None and table.value(pos) is not None:
            return None                      # held: a look-up
    options = [now]
    for x in cands:
        c = D.battle_copy(battle)
        B.assign_hit(c, x["key"], B.device_choice)
        if c["phase"] == "fighting" and c["pending"]:      # (as advise's _after)
            B.apply_pending(c, B.device_choice)
            B.advance(c)
        if c["phase"] == "fighting":
            options.append(c)
    return _many(options, eps, True, None)[0]


def _many(battles: list[B.Battle], eps: float, together: bool, now: int | None) -> list[dict[str, float]]:
    """:func:`odds_many`, the lock held."""
    settled = [D._settled(b) for b in battles]
    out: list[dict[str, float] | None] = [None] * len(settled)
    big = []
    np = _numpy()
    table = _TABLE[0] if _TABLE else None
    for n, b in enumerate(settled):
        if b["phase"] == "over":
            out[n] = {r: float(r == b["result"]) for r in B.RESULTS}
        elif np is None or (_dice(b) < GRID_DICE and not (table and table.fits(b))):
            out[n] = _small(b, eps)     # a small battle (not the rest of a big one)
        else:
            big.append(n)
    if big:
        base = big.index(now) if now in big else None
        for n, got in zip(big, _big(np, [settled[n] for n in big], eps, together, base)):
            out[n] = got
    return [dict(x) for x in out if x is not None]


def hit_odds(battle: B.Battle, targets: list[str]) -> list[dict[str, float]] | None:
    """:func:`odds` once each of ``targets`` takes the hit waiting and the device puts the rest of the
    volley (``advise``'s hit options), when the big battle's table holds every one of them:
    looked up without playing the hits out on copies. None otherwise (ask :func:`odds_many`)."""
    return _quick(battle, targets, True)


def turn_odds(battle: B.Battle, options: list[tuple[str, str]]) -> list[dict[str, float]] | None:
    """:func:`odds` once each ``(action, block key)`` of the turn in hand is taken (``advise``'s
    turn options: fire, pass, retreat), when the big battle's table holds every one of them:
    looked up without playing the moves out on copies. None otherwise (ask :func:`odds_many`)."""
    return _quick(battle, options, False)


def _quick(battle: B.Battle, options: Any, hit: bool) -> list[dict[str, float]] | None:
    with _LOCK:
        if not _TABLE:
            return None
        table = _TABLE[0]
        positions = table.hit_positions(battle, options) if hit else table.turn_positions(battle, options)
        if positions is None or any(p is None for p in positions):
            return None
        got = table.values([p for p in positions if p is not None])
        if any(v is None for v in got):
            return None
        return [_result(v) for v in got if v is not None]


def finish() -> bool:
    """Run the backward pass of the last big battle if it is still to do; True if it was."""
    with _LOCK:
        return bool(_TABLE) and bool(_TABLE[0].complete())


def forget() -> None:
    """Drop every table and kept answer (the next question computes afresh)."""
    with _LOCK:
        _TABLE.clear()
        _RECENT.clear()


def computations() -> int:
    """Forward passes run for the current big battle's table (0 without one)."""
    return int(_TABLE[0].computations) if _TABLE else 0


def _dice(b: B.Battle) -> int:
    return sum(int(x["strength"]) for x in b["blocks"] if B.in_space(x))


def _numpy() -> Any:
    """numpy, or None when it is missing (looked for once)."""
    if not _NUMPY:
        try:
            import numpy
        except ImportError:                  # pragma: no cover - numpy missing
            log.warning("numpy is missing: big battles' odds in plain Python, without a table")
            _NUMPY.append(None)
        else:
            keep_freed_memory()
            _NUMPY.append(numpy)
    return _NUMPY[0]


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3     # glibc's mallopt parameters (malloc.h)


def keep_freed_memory() -> bool:
    """Ask glibc to keep the memory a big battle's arrays free (up to 8 MB) and to take arrays up
    to 4 MB (512 kB: the most a 32-bit glibc takes) from it, not map them afresh: by default
    an array of 128 kB or more (a step's layout, a chunk of products) may be given back to the
    system when freed, and the next step's is faulted in again page by page, zeroed (issue 25:
    500 to 1,000 minor faults in the first odds of 6+3, 10 to 40 now). Measured with
    scripts/bench_jc.py's battles (x the yardstick, medians of 7 and 9 runs taking turns with
    the default, 4 to 9 programs sharing the 2 cores): 6+3 0.63 and 0.61 against 0.71 and
    0.74, 10+5 1.71 and 1.61 against 1.75 and 1.71, with Cleopatra no change (2.91 and 2.99
    against 2.83 and 2.89: its big layouts had raised glibc's own threshold already); the
    biggest battle's whole table 26.2 to 27.4 MB above idle against 26.0 to 26.7 (the limit:
    30). The first big battle sets it (numpy is imported then); True if glibc took it, False
    elsewhere (nothing changes)."""
    try:
        import ctypes
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):     # pragma: no cover - not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mapped = any(mallopt(M_MMAP_THRESHOLD, size) for size in (4 << 20, 512 << 10))
    return bool(mallopt(M_TRIM_THRESHOLD, 8 << 20)) and mapped


def _small(b: B.Battle, eps: float) -> dict[str, float]:
    key = (repr(b), eps)
    got = _RECENT.get(key)
    if got is None:
        got = D.odds_python(b, eps)
        if len(_RECENT) >= 8:
            _RECENT.pop(next(iter(_RECENT)))
        _RECENT[key] = got
    return got


def _result(v: list[float]) -> dict[str, float]:
    total = v[0] + v[1] + v[2]
    return {r: v[i] / total for i, r in enumerate(B.RESULTS)}


def _big(np: Any, battles: list[B.Battle], eps: float, together: bool, base: int | None
         ) -> list[dict[str, float]]:
    from engine.jc import odds_table as G

    table: G.Table | None = _TABLE[0] if _TABLE else None
    positions = [table.position(b, intern=True) for b in battles] if table is not None else [None]
    if table is None or any(p is None for p in positions):
        widest = max(battles, key=lambda b: sum(1 for x in b["blocks"] if B.in_space(x)))
        table = G.Table(np, widest)          # (the others are later points of it)
        _TABLE[:] = [table]
        positions = [table.position(b, intern=True) for b in battles]
    out: list[list[float] | None] = [None] * len(battles)
    for n, pos in enumerate(positions):
        if pos is None:                      # not a point of this battle: on its own
            alone = D.odds_python(battles[n], eps)
            out[n] = [alone[r] for r in B.RESULTS]
            continue
        out[n] = table.value(pos)
    todo = [n for n, v in enumerate(out) if v is None]
    now = positions[base] if base is not None else None
    if base is not None and now is not None and todo and not together and not table.holds(now):
        first = table.compute([now], eps, backward_now=True)     # the table from now on, then
        out[base] = out[base] or first       # look the rest up (an answer given stays as it was)
        for n in todo:
            pos = positions[n]
            if n != base and pos is not None:
                out[n] = table.value(pos)
        todo = [n for n, v in enumerate(out) if v is None]
    if len(battles) == 1 and todo:           # one computation; its backward pass may wait
        pos = positions[0]
        assert pos is not None
        out[0] = table.compute([pos], eps, backward_now=False)
    elif todo and not together:
        for n in todo:
            pos = positions[n]
            assert pos is not None
            out[n] = table.answer(pos, eps)
    elif todo:                               # every point again, in one computation that
        roots = [p for p in positions if p is not None]     # holds them all from now on
        table.compute(roots, eps, backward_now=True)
        for n, pos in enumerate(positions):
            if pos is None:
                continue
            val = table.value(pos)                                  # (held to BUDGET, unless
            out[n] = val if val is not None else table.answer(pos, 0.0)     # eps dropped too much)
    return [_result(v) for v in out if v is not None]
