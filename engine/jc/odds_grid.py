"""Exact battle odds (J-15) for every state of a battle at once: a forward pass over arrays finds
the states the J-14 chain reaches, then one backward pass gives the outcome probabilities from
each of them (numpy, imported lazily: only a big battle pays for it).

The states are those of :mod:`engine.jc.odds_dp`: (attacker strengths id, defender strengths id,
flags CLEO_ACTED | A_RETREATED) per ``swapped`` (J-9), held as four arrays ``(flags, attacker
id, defender id, p)``. A *boundary* ``(round, step)`` is the point before that step; the sheet of
a computation keeps, for every boundary, the states reached there and their three outcome
probabilities ``(attacker wins, attacker eliminated, defender holds)``. Their sum is 1 less the
mass the forward pass did not follow below that state (states under ``eps``, hit counts under
TRIM): a look-up is answered only if that is at most BUDGET, else it is computed afresh.

One step of the acting side s (forward and backward share its transition):

- its hit distribution is a row of a table ``W`` chosen by the dice per firepower of its blocks
  that act (and Cleopatra's, if she acts: one binomial per firepower, convolved); a tail below
  TRIM is not followed. Where Cleopatra leaves the target side after some hits and fires at once
  for the acting side (J-2, the ``turn`` rule), her die is folded into a row of its own per (row,
  hits she leaves at), so those states take the same path as the others (under the ``round`` rule
  she joins with CLEO_ACTED set and never fires at once);
- the target's id after k hits is ``NXT[k, id]``, with the hits from which the target side is
  emptied (J-13) or Cleopatra has left it for the acting side (J-2);
- forward, the products are added (``ufunc.at``) into a dense layout of the (flags, acting id)
  rows that occur times the target's ids; backward, the values of the next boundary are laid out
  the same way and gathered. States are taken in order of the number of hit counts that matter
  to them (from the count that empties the target on, one tail sum), cut into chunks of at most
  CHUNK products, each as wide as its widest state (a hit row cut at a state's counts pads the
  others with zeros), k-major (the broadcasts over states run along the long axis); backward, a
  slice of states at a time (bounded memory). The keys of a step's states are made with them.

The tables of a step kind (``W`` with each row's counts and tails, ``NXT``, the strengths as an
array) are kept for the battle and grown with the ids interned since, never rebuilt. What the
first answer costs (issue 25, measured with cProfile and timers on 6+3 and 10+5): a step's
products themselves (gathering their rows and targets, one multiply, ``ufunc.at``: about 2 ns
each, numpy's floor here) about a third to a half of the steps, the per-state passes (a few
dozen: the step's lookups, the sort by width, the layout read back) most of the rest, numpy's
per-call overhead about 40 us a step; building the tables (hit rows, NXT and its ladder, the
retreats) about a third of a 6+3 battle and a fifth of the biggest.
Measured and not done: cutting each state's hit counts where its mass times the chance of
more hits is below 1e-17 leaves 2 to 7 % fewer products (a step rolls the dice of one letter's
blocks: its hit counts are few, 9 a state on average in 10+5, and seldom that unlikely).
Measured and not done (2026-11-27, a prototype kept out of the tree): a dense grid of each
side's (hits in round 1, hits after) — from round 2 on P[h2a, h2d, h1a, h1d], each firing block a
shift of the target's axis by k with the firer's binomial row, slices only, no index arrays —
agreed with this module to 1e-13 but took 2.9-5x the yardstick on 6+3 and 25-35x on 10+5 (this
module 0.5-0.85x and 1.4-2.2x in the same runs): a shift costs about 1 ns a cell (0.5 at best),
not less than a product here, and 10+5 needs 486 million cell-shifts against 2.7 million products,
since the (h1, h2) cells repeat strength sets about 3-4x a side and the box is 22-27 % filled.
Cleopatra (she changes sides) would add axes of her own.
Measured again and not done (2026-11-28, with 4 to 9 programs running on the 2 cores, so only
what valgrind counts is firm; figures x the yardstick are medians of 5-6 runs, old and new
taking turns):
- the tables' share: one Table asked twice (its tables kept the second time) took 0.68 then
  0.60 and 0.66 then 0.60 (6+3), 1.69 then 1.55 and 1.55 then 1.44 (10+5), 3.01 then 2.74
  and 2.48 then 2.48 (with Cleopatra): building the tables is a tenth of the first answer at
  most now, not a third, so a quicker ``plan`` cannot reach the targets; looking each dice
  code up once (np.unique over the ids' codes, not a dict per id) made it no quicker;
- the keys of ``_Sum.state`` added int64 into int32 (a buffered cast: 11 us for 30,000
  states against 4.5 cast first): about 1 % of 10+5, not worth a change alone;
- what the instructions go to (callgrind; per first answer 114 million for 6+3, 372 for
  10+5): ``take`` 30 and 34 %, memcpy 8 and 11, ``ufunc.at`` with its index check 12 and 15,
  the interpreter only 6 and 3. ``take`` is numpy's floor: about 0.4 ns an element, against
  0.5 for ``mode="clip"``, 0.6 for 1-d fancy indexing and 0.6-1.8 for ``w[:, row]``;
- a chunk taken n-major (whole rows of W and NXT gathered at once) gathers in 4.5-7 us
  against 10.6-17.6 k-major, but the products and index sums then broadcast across the few
  hit counts: the whole chunk 28-39 us against 31-40 (widths 4 to 23), not worth the change;
- scratch buffers kept for the battle (the chunk's products and indices with ``take(out=)``,
  the layout) cut the page faults of 6+3's first answer from about 1,000 to 170 and were not
  quicker: 6+3 0.63-0.67 against 0.68-0.74, 10+5 1.79-1.85 against 1.56-1.75 (a reused
  layout must be filled with zeros, all of it, where calloc's untouched pages read as one
  zero page); glibc keeping freed memory does it better (:func:`engine.jc.odds.keep_freed_memory`).

Positions and look-ups are :mod:`engine.jc.odds_table`. It agrees with
:func:`engine.jc.odds_dp.odds_python` and the oracle to rounding (tests/test_jc_odds_grid.py,
tests/test_jc_table.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.jc import odds_dp as D
from engine.jc.order import LAST_ROUND, step_order

WIN, ELIM, HOLD, DROPPED = D.WIN, D.ELIM, D.HOLD, D.DROPPED
CLEO_ACTED, A_RETREATED, SWAPPED = D.CLEO_ACTED, D.A_RETREATED, D.SWAPPED
State = tuple[Any, Any, Any, Any]      # flags, attacker id, defender id, p (numpy arrays)
TRIM = 1e-18                           # a number of hits less likely than this is not followed
SMALL = 16                             # successors of fewer ids than this: plain Python
CHUNK = 1 << 15                        # products held at once in a step (256 kB of floats: quickest)
SLICE = 1 << 13                        # states taken back at once (bounded memory)
BITS = (13, 21)                        # a state's key: flags << 2 bits | x << bits | y: int32 while
                                       # every id fits 13 bits (the roster's biggest battles), else int64
Bound = tuple[int, int]                # (round, step index): the point before that step
Dist = tuple[State, int, Any]          # a group's states, the side whose key order they are in,
                                       # their keys (None: to be made)
Skip = frozenset[tuple[int, int]]      # (side, slot) of blocks that have acted this round


@dataclass
class _Plan:
    """A step kind's hit distributions: ``w[row[key]]`` for key = id * 2 + Cleopatra acts, over
    the first ``n`` ids; ``of`` the row of each code of dice per firepower, ``rows`` (trimmed row,
    its tail)."""

    row: Any
    w: Any
    n: int
    lost: Any
    of: dict[int, int]
    rows: list[tuple[Any, float]]
    row0: Any = None                 # row[0::2]: the rows of the ids where Cleopatra does not act
    cut: Any = None                  # per row of w: the hit counts it can give, and P(at least
    tail: Any = None                 # k hits) (made when w is, see _cut_tail)


class _Tables:
    """Per-battle lookup tables over strengths ids, grown as new ids appear."""

    def __init__(self, np: Any, model: D._Model) -> None:
        self.np = np
        self.model = model
        self.k = 2 + max(sum(s.lower[0][0] for s in side.slots) for side in model.sides)
        self.succ_lists: dict[tuple[int, bool], tuple[list[int], list[bool]]] = {}
        self.arrays: dict[int, Any] = {}
        self.nxt: dict[tuple[int, bool], tuple[Any, Any, Any, int]] = {}
        self.cleos: dict[int, Any] = {}
        self.plans: dict[Any, _Plan] = {}
        self.joins: dict[int, Any] = {}
        self.orders: dict[tuple[int, bool], list[int]] = {}
        self.hits: dict[tuple[tuple[int, int], ...], Any] = {}   # by ((firepower, dice), ...)
        self.needs: dict[int, Any] = {}
        self.rules: dict[tuple[int, bool], tuple[Any, Any, list[int], Any]] = {}

    # -- the target side ------------------------------------------------------------------------
    def _order(self, side: int, round1: bool) -> list[int]:
        """Slots that can be hit, in the battle's order among equally strong blocks (J-14's, or a
        leader last: D._Model.tie_order)."""
        key = (side, round1)
        order = self.orders.get(key)
        if order is None:
            slots = self.model.sides[side].slots
            order = self.orders[key] = self.model.tie_order(
                side, (i for i, s in enumerate(slots) if not (round1 and s.reserve)))
        return order

    def _successors(self, side: int, round1: bool, lo: int) -> tuple[list[int], list[bool]]:
        """For ids ``lo``.. of ``side``: the id after one hit (J-7 to the strongest, J-14 among
        equals or a leader last; in round 1 only the main force is hit, J-8) and whether that hit took
        Cleopatra's last step; the id itself when nothing can be hit (the hit is lost)."""
        np = self.np
        sd = self.model.sides[side]
        slots = sd.slots
        if len(sd.subs) - lo <= SMALL:                              # (a few: numpy's calls cost more)
            return self._successors_py(side, round1, lo)
        arr = self.subs(side)[lo:]
        got = self.rules.get((side, round1))
        if got is None:                                             # the side's constants, once
            after = np.zeros((len(slots), 5), dtype=np.int64)      # strength after one hit
            for i, sl in enumerate(slots):
                for v, down in sl.lower:
                    after[i, v] = down
            got = self.rules[(side, round1)] = (
                np.array(self._order(side, round1), dtype=np.int64), after,
                [i for i, sl in enumerate(slots) if not sl.reserve],
                np.array([sl.cleopatra for sl in slots], dtype=bool))
        order, after, main, cleo = got
        sub = arr[:, order]
        at = sub.argmax(axis=1)                                     # the first strongest in order
        top = sub[np.arange(len(arr)), at]
        best = order[at]
        ok = top > 0
        if round1:
            ok &= arr[:, main].any(axis=1)
        left = (ok & cleo[best] & (top == 1)).tolist()
        new = arr.copy()
        rows = np.arange(len(arr))
        new[rows, best] = np.where(ok, after[best, top], top)
        ids = [sd.id(tuple(r)) if o else lo + n for n, (r, o) in enumerate(zip(new.tolist(), ok.tolist()))]
        return ids, left

    def cleo(self, side: int) -> Any:
        """Cleopatra's strength (the last slot) in each of ``side``'s ids, kept."""
        arr = self.subs(side)
        got = self.cleos.get(side)
        if got is None or len(got) != len(arr):
            got = self.cleos[side] = self.np.ascontiguousarray(arr[:, -1])
        return got

    def _successors_py(self, side: int, round1: bool, lo: int) -> tuple[list[int], list[bool]]:
        """:meth:`_successors` in plain Python, for ids ``lo``.. and those their successors
        intern (the rest of a ladder: a few ids at a time)."""
        sd = self.model.sides[side]
        slots = sd.slots
        order = self._order(side, round1)
        main = [i for i, sl in enumerate(slots) if not sl.reserve]
        ids: list[int] = []
        left: list[bool] = []
        n = lo
        while n < len(sd.subs):
            cur = list(sd.subs[n])
            best, top = -1, 0
            for i in order:                                         # the first strongest in order
                if cur[i] > top:
                    best, top = i, cur[i]
            if best < 0 or (round1 and not any(cur[i] for i in main)):
                ids.append(n)                                       # nothing can be hit
                left.append(False)
            else:
                left.append(slots[best].cleopatra and top == 1)
                cur[best] = slots[best].after_hit(top)
                ids.append(sd.id(tuple(cur)))
            n += 1
        return ids, left

    def subs(self, side: int) -> Any:
        """``side``'s strengths as an (ids x slots) array."""
        np = self.np
        subs = self.model.sides[side].subs
        arr = self.arrays.get(side)
        if arr is None or len(arr) < len(subs):          # only the ids interned since: appended
            n = 0 if arr is None else len(arr)
            more = np.array(subs[n:], dtype=np.int64).reshape(len(subs) - n, -1)
            arr = self.arrays[side] = more if arr is None else np.concatenate((arr, more))
        return arr

    def target(self, side: int, round1: bool) -> tuple[Any, Any, Any]:
        """``(NXT, FIRST_LEFT, FIRST_EMPTY)`` covering every id of ``side`` known now (and those
        they lead to): ``NXT[k, id]`` the id after k hits (k-major, as the chunks take it); from
        FIRST_LEFT hits on Cleopatra has left the side (J-2), from FIRST_EMPTY hits on the side
        is gone (J-13); FIRST_LEFT <= FIRST_EMPTY, both ``self.k`` when it does not happen."""
        np = self.np
        key = (side, round1)
        subs = self.model.sides[side].subs
        got = self.nxt.get(key)
        if got is not None and got[-1] == len(subs):
            return got[0], got[1], got[2]
        succ, left1 = self.succ_lists.setdefault(key, ([], []))
        while len(succ) < len(subs):                     # successors may intern more ids
            ids, left = self._successors(side, round1, len(succ))
            succ.extend(ids)
            left1.extend(left)
        n = len(subs)
        n0 = 0 if got is None else got[-1]                # the columns before stay as they were
        nxt_1, left_1 = np.array(succ, dtype=np.int64), np.array(left1, dtype=bool)
        arr = self.subs(side)
        empty = ~arr.any(axis=1)
        nxt = np.empty((self.k, n - n0), dtype=np.int64)
        gone = np.zeros((self.k, n - n0), dtype=bool)
        nxt[0] = np.arange(n0, n)
        last = min(self.k - 1, int(arr[n0:].sum(axis=1).max()) + 1)   # every hit takes a step:
        cleo = bool(left_1.any())                                    # (else nothing is gone)
        for k in range(1, last + 1):                                 # no id moves after as many
            if cleo:                                                 # hits as its steps
                gone[k] = gone[k - 1] | left_1.take(nxt[k - 1])
            nxt[k] = nxt_1.take(nxt[k - 1])
        nxt[last + 1:] = nxt[last]
        gone[last + 1:] = gone[last]
        emptied = empty.take(nxt)
        fe = np.where(emptied.any(axis=0), emptied.argmax(axis=0), self.k)
        fl = np.minimum(np.where(gone.any(axis=0), gone.argmax(axis=0), self.k), fe)
        if got is not None:
            nxt = np.concatenate((got[0], nxt), axis=1)
            fl, fe = np.concatenate((got[1], fl)), np.concatenate((got[2], fe))
        self.nxt[key] = (nxt, fl, fe, n)
        return nxt, fl, fe

    def join(self, side: int, ids: Any) -> Any:
        """``side``'s ids with Cleopatra joined at strength I (J-2)."""
        np = self.np
        table = self.joins.get(side)
        n = len(self.model.sides[side].subs)
        if table is None or len(table) < n:
            grown = np.full(n, -1, dtype=np.int64)
            if table is not None:
                grown[:len(table)] = table
            table = self.joins[side] = grown
        todo = np.zeros(len(table), dtype=bool)
        todo[ids] = True
        todo &= table < 0
        for i in todo.nonzero()[0].tolist():
            table[i] = self.model.join(side, i)
        return table[ids]

    def disrupted(self, side: int, ids: Any) -> Any:
        """Which of ``side``'s ids arrive disrupted at round 2 (J-9: reserves left, no main force)."""
        np = self.np
        sd = self.model.sides[side]
        needs = self.needs.get(side)
        if needs is None or len(needs) < len(sd.subs):
            needs = self.needs[side] = np.array(
                [not sd.main_alive(sub) and any(v and sd.slots[i].reserve for i, v in enumerate(sub))
                 for sub in sd.subs], dtype=bool)
        return needs[ids]

    # -- the acting side ------------------------------------------------------------------------
    def _by_fp(self, key: tuple[tuple[int, int], ...]) -> Any:
        """P(k hits), k = 0, 1, ..., for ``key`` = ((firepower, dice), ...) (J-1: one d6 per
        strength step, a hit on 1..firepower; the dice of one firepower are one binomial), from
        the distribution of all but the last."""
        got = self.hits.get(key)
        if got is None:
            if len(key) > 1:
                got = self.np.convolve(self._by_fp(key[:-1]), self._by_fp(key[-1:]))
            else:
                got = self.np.array(D._binom(key[0][1], key[0][0]))
            self.hits[key] = got
        return got

    def plan(self, s: int, idx: tuple[int, ...], cleo_step: bool, sid: Any, keys: Any
             ) -> tuple[Any, Any, Any, Any, Any]:
        """For ids ``sid`` and ``keys`` = id * 2 + Cleopatra acts (None: she does not act):
        ``(row, W, lost, cut, tail)`` where ``W[row]``
        is the hit distribution without its tail below TRIM, whose mass is ``lost`` (None
        when no row has such a tail; ``cut`` and ``tail`` as :func:`_cut_tail` makes them for
        W). Kept per step kind
        and grown with the ids interned since (the hits depend on the acting blocks' dice per
        firepower only: one row per such code)."""
        np = self.np
        arr = self.subs(s)
        got = self.plans.get((s, idx, cleo_step))
        if got is None:
            got = self.plans[(s, idx, cleo_step)] = _Plan(np.zeros(0, dtype=np.int64), np.zeros((0, 1)), 0,
                                                          np.zeros(0), {}, [])
        if got.n < len(arr):                         # the dice per firepower of the ids since
            slots = self.model.sides[s].slots
            new = arr[got.n:]
            fps = sorted({slots[i].fp for i in (*idx, len(slots) - 1)})
            per = np.zeros((len(new), len(fps)), dtype=np.int64)
            for i in idx:
                per[:, fps.index(slots[i].fp)] += new[:, i]
            code = per @ (256 ** np.arange(len(fps), dtype=np.int64))      # (dice < 256 each)
            acts = code + (new[:, -1] * 256 ** fps.index(slots[-1].fp) if cleo_step else 0)
            rows = got.rows
            krow = []
            for c in np.stack((code, acts), axis=1).ravel().tolist():    # (a dict: np.unique
                r = got.of.get(c)                                        # costs more here)
                if r is None:
                    r = got.of[c] = len(rows)
                    key = []
                    for fp in fps:
                        c, n = divmod(c, 256)
                        if n:
                            key.append((fp, n))
                    dist = self._by_fp(tuple(key)) if key else np.ones(1)
                    n = len(dist)                            # the most hits worth following
                    while n > 1 and dist[n - 1] < TRIM:
                        n -= 1
                    rows.append((dist[:n], float(dist[n:].sum()) if n < len(dist) else 0.0))
                krow.append(r)
            had = len(got.lost)
            if len(rows) > had:                      # the rows before copied, the new ones set
                w = np.zeros((len(rows), max(got.w.shape[1], max(len(x) for x, _ in rows[had:]))))
                w[:had, :got.w.shape[1]] = got.w
                for i in range(had, len(rows)):
                    w[i, :len(rows[i][0])] = rows[i][0]
                got.w, got.lost = w, np.array([x for _r, x in rows])
                got.cut = got.tail = None
            got.row = np.concatenate((got.row, np.array(krow, dtype=np.int64)))
            got.row0 = got.row[0::2].copy()          # (the rows where she does not act)
            got.n = len(arr)
        if got.cut is None:
            got.cut, got.tail = _cut_tail(np, got.w)
        if keys is not None:
            row = got.row.take(keys)
        else:
            row = (got.row[0::2] if got.row0 is None else got.row0).take(sid)
        lost = got.lost.take(row) if got.lost.any() else None        # (None: no row trimmed)
        return row, got.w, lost, got.cut, got.tail

    def retreats(self, s: int, idx: tuple[int, ...], keys: Any) -> Any:
        """Round 4 (J-6): the id after the step's blocks retreat, -1 where none is left to."""
        np = self.np
        out = np.empty(len(keys), dtype=np.int64)
        uniq, inv = np.unique(keys, return_inverse=True)
        news = []
        for key in uniq.tolist():
            plan = D._plan(self.model, s, key >> 1, idx, bool(key & 1), True)
            news.append(-1 if plan is False else plan)
        out[:] = np.array(news, dtype=np.int64)[inv.reshape(-1)]
        return out


def _cut_tail(np: Any, w: Any) -> tuple[Any, Any]:
    """Per row of ``w``: the hit counts it can give, and P(at least k hits) for k = 0 .. width."""
    width = w.shape[1]
    cut = width - np.argmax(w[:, ::-1] > 0.0, axis=1)
    tail = np.zeros((len(w), width + 1))
    tail[:, :width] = np.cumsum(w[:, ::-1], axis=1)[:, ::-1]
    return cut, tail


# -- keys and layouts --------------------------------------------------------------------------
def keys_of(f: Any, a: Any, d: Any, orient: int, bits: int) -> Any:
    """The states' keys, sorted the way the arrays come out of a step of side ``orient``."""
    x, y = (a, d) if orient == 0 else (d, a)
    keys = f.astype("int32" if bits == BITS[0] else "int64")     # (in place: quicker than
    keys *= 1 << bits                                            # shifts on int64 arrays)
    keys += x
    keys *= 1 << bits
    keys += y
    return keys


def unkey(keys: Any, orient: int, bits: int) -> tuple[Any, Any, Any]:
    """``(flags, attacker id, defender id)`` back from :func:`keys_of`."""
    keys = keys.astype("int64")                                  # (the arithmetic on ids is int64)
    y = keys & ((1 << bits) - 1)                                 # (shifts: divmod is 3x slower)
    hi = keys >> bits
    f, x = hi >> bits, hi & ((1 << bits) - 1)
    return (f, x, y) if orient == 0 else (f, y, x)


class _Sum:
    """The states (flags, side-``s`` id, other side's id) of a step's output, laid out densely:
    the (flags, side-s id) rows named up front, times the other side's ids."""

    def __init__(self, np: Any, tab: _Tables, s: int, rks: list[Any]) -> None:
        self.np, self.s = np, s
        self.n_s, self.n_t = len(tab.model.sides[s].subs), len(tab.model.sides[1 - s].subs)
        mark = np.zeros(4 * self.n_s, dtype=bool)
        for rk in rks:
            mark[rk] = True
        self.mark = mark
        self.rows = mark.nonzero()[0]
        self.ridx = np.zeros(4 * self.n_s, dtype=np.int64)
        self.ridx[self.rows] = np.arange(len(self.rows))
        self.size = len(self.rows) * self.n_t
        self.acc: Any = None

    def index(self, f: Any, si: Any, ti: Any) -> Any:
        """Where states (flags, side-s id, other id) are in the layout (their row must be named)."""
        return self.ridx[f * self.n_s + si] * self.n_t + ti

    def add(self, idx: Any, q: Any) -> None:
        """Add ``q`` at layout indices ``idx`` (``ufunc.at``: no pass over the whole layout)."""
        if not q.size:
            return
        if self.acc is None:
            self.acc = self.np.zeros(self.size)
        self.np.add.at(self.acc, idx.ravel(), q.ravel())

    def state(self, res: list[float], eps: float) -> tuple[State, Any]:
        """The states, dropping (and counting) those below ``eps``, in key order of side s, and
        their keys (:func:`keys_of` with orient s)."""
        np = self.np
        if self.acc is None:
            empty = np.zeros(0, dtype=np.int64)
            return (empty, empty, empty, np.zeros(0)), np.zeros(0, dtype=np.int32)
        nz = (self.acc != 0.0).nonzero()[0]             # (on booleans: 10x quicker)
        p = self.acc.take(nz)
        if eps > 0.0:
            small = p < eps
            if small.any():
                res[DROPPED] += float(p[small].sum())
                keep = ~small
                nz, p = nz[keep], p[keep]
        r = nz // self.n_t                               # (// and -: divmod is 2.5x slower)
        ti = r * self.n_t
        np.subtract(nz, ti, out=ti)
        rf = self.rows // self.n_s                       # (per row, then gathered: quicker)
        rs = self.rows - rf * self.n_s
        f, si = rf.take(r), rs.take(r)
        bits = BITS[0] if max(self.n_s, self.n_t) <= 1 << BITS[0] else BITS[1]
        dt = np.int32 if bits == BITS[0] else np.int64
        rowkey = ((rf << bits | rs) << bits).astype(dt)
        keys = np.add(rowkey.take(r), ti, out=np.empty(len(r), dtype=dt), casting="unsafe")
        return ((f, si, ti, p) if self.s == 0 else (f, ti, si, p)), keys


def _gather(np: Any, tab: _Tables, s: int, parts: list[State], res: list[float], eps: float
            ) -> tuple[State, Any]:
    """Add up ``parts`` (flags, attacker ids, defender ids, p) into one state set (key order of
    s) and its keys."""
    n_s = len(tab.model.sides[s].subs)
    rks = [f * n_s + (a if s == 0 else d) for f, a, d, _ in parts]
    acc = _Sum(np, tab, s, rks)
    for f, a, d, q in parts:
        if len(q):
            acc.add(acc.index(f, a, d) if s == 0 else acc.index(f, d, a), q)
    return acc.state(res, eps)


# -- one step, forward and backward ------------------------------------------------------------
@dataclass
class _Fire:
    """Step ``j`` for the states ``(f, a, d)`` of one ``swapped`` group when the acting side s
    fires (J-1, J-7, J-2 Cleopatra): the layout of its output and, per chunk of states, the
    probabilities of reaching layout cells (``Q``, ``idx``) and of emptying the target side
    (``E``, into the outcome of :func:`_emptied_code`), from probability 1 in each state."""

    np: Any
    tab: _Tables
    s: int
    f: Any
    sid: Any
    tid: Any
    f2: Any
    row: Any
    w: Any
    lost: Any
    cut: Any
    tail: Any
    rk: Any
    rkl: Any
    fires: Any
    lmask: Any
    fl: Any
    fe: Any
    nxt: Any
    acc: _Sum = field(init=False)
    base: Any = field(init=False, default=None)
    joins: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        np = self.np
        if self.lmask is None:                               # (Cleopatra stays where she is)
            self.acc = _Sum(np, self.tab, self.s, [self.rk])
            fr = np.zeros(0, dtype=np.int64)
        else:
            self.acc = _Sum(np, self.tab, self.s, [self.rk, self.rkl[self.lmask.nonzero()[0]]])
            fr = self.fires.nonzero()[0]
        if len(fr):                  # Cleopatra joins s and fires at once (J-2): from fl hits
            w = self.w               # on, one more die, a hit on 1: a hit row per (row, fl)
            width = w.shape[1]
            pair = self.row[fr] * (width + 1) + self.fl[fr]
            seen = np.zeros(len(w) * (width + 1), dtype=bool)   # (a mark, not a sort: O(n))
            seen[pair] = True
            uniq = seen.nonzero()[0]
            rank = np.zeros(len(seen), dtype=np.int64)
            rank[uniq] = np.arange(len(uniq))
            inv = rank[pair]
            r0, f0 = np.divmod(uniq, width + 1)
            extra = np.zeros((len(uniq), width + 1))
            extra[:, :width] = w[r0]
            moved = np.where(np.arange(width + 1)[None, :] >= f0[:, None], extra, 0.0) / 6.0
            extra -= moved
            extra[:, 1:] += moved[:, :-1]
            wide = np.zeros((len(w) + len(uniq), width + 1))
            wide[:len(w), :width] = w
            wide[len(w):] = extra
            self.row = self.row.copy()
            self.row[fr] = len(w) + inv
            self.w = wide
            self.cut, self.tail = _cut_tail(np, wide)
        w, cut, tail = self.w, self.cut, self.tail
        width = w.shape[1]
        self.ew = np.minimum(cut.take(self.row), self.fe)     # the hit counts that matter
        pair = self.row * (width + 1)                        # a row cut at the counts that matter:
        pair += self.ew
        seen = np.zeros(len(w) * (width + 1), dtype=bool)    # one per (row, counts), zero after
        seen[pair] = True                                    # them (states of several widths
        uniq = seen.nonzero()[0]                          # share a chunk, padded with zeros)
        rank = np.zeros(len(seen), dtype=np.int64)
        rank[uniq] = np.arange(len(uniq))
        self.cut = rank.take(pair)
        r0, e0 = np.divmod(uniq, width + 1)
        wide = int(self.ew.max(initial=0))                   # (k-major, as the chunks are)
        self.wc = np.where(np.arange(wide)[:, None] < e0[None, :], w[r0, :wide].T, 0.0)
        self.tail = tail[r0, e0]                             # the rest: the target side is gone

    def chunks(self, budget: int = CHUNK) -> list[tuple[Any, int]]:
        """``(states, width)``: the states in order of the number of hit counts that matter to
        them (those from which the target side is gone are one sum), cut into chunks of at most
        ``budget`` products, each as wide as its widest state (the others padded with zero
        products: fewer, larger chunks), and those where Cleopatra may change side after the
        others (only their chunks pay for her joined row)."""
        np = self.np
        out: list[tuple[Any, int]] = []
        ew = self.ew.astype(np.int16)
        split = self.lmask is not None                       # (where Cleopatra may change side:
        if split:                                            # those states in chunks of their own)
            ew = ew + (self.lmask.astype(np.int16) << 10)
        order = np.argsort(ew, kind="stable")                # (a radix sort: small integers)
        counts = np.diff(np.searchsorted(ew.take(order), np.arange(int(ew.max(initial=0)) + 2)))
        pos = end = 0                                        # the open chunk: order[pos:end]
        width = side = 0
        for key, n_w in enumerate(counts.tolist()):
            if not n_w:
                continue
            if key >> 10 != side and end > pos:              # (Cleopatra's states: a new chunk)
                out.append((order[pos:end], width))
                pos = end
            side, width = key >> 10, key & 1023
            end += n_w
            n = max(1, budget // max(width, 1))              # (0 wide: the target is gone)
            while end - pos > n:
                out.append((order[pos:pos + n], width))
                pos += n
        if end > pos:
            out.append((order[pos:end], width))
        return out

    def chunk(self, c: Any, width: int) -> tuple[Any, Any, Any]:
        """``(Q, idx, E)`` for the states ``c`` (an index array) taken ``width`` hit counts
        wide, k-major (``Q[k, n]``: P(k hits) in state n; E's outcome: :func:`_emptied_code`).
        (k-major: the broadcasts over the states run along their long inner axis, 2-3x
        quicker than over a few hit counts.)"""
        np = self.np
        row = self.cut.take(c)
        q = self.wc[:width].take(row, axis=1)
        e = self.tail.take(row)                              # the rest: the target side is gone
        acc = self.acc
        if self.base is None:
            self.base = (acc.ridx * acc.n_t).take(self.rk)
            self.joins = self.lmask is not None
        idx = self.nxt[:width].take(self.tid.take(c), axis=1)
        if self.joins and self.lmask.take(c).any():          # from fl hits on, the row s joined
            ks = np.arange(width)[:, None]
            joined = acc.ridx[self.rkl[c]] * acc.n_t
            idx += np.where(ks >= self.fl[c], joined, self.base.take(c))
        else:
            idx += self.base.take(c)
        return q, idx, e

def _emptied_code(np: Any, t: int, f: Any) -> Any:
    """The outcome when side ``t`` has no block left (J-13), by flags."""
    if t == 1:
        return np.full(len(f), WIN, dtype=np.int64)
    return np.where((f & A_RETREATED) != 0, HOLD, ELIM)


@dataclass
class _Move:
    """Step ``j`` for one ``swapped`` group: ``kind`` "idle" (nobody acts), "retreat" (J-6:
    ``new`` the acting side's id after it, ``f3`` the flags, ``out`` the outcome where it leaves
    no block, else -1), or "fire" (:class:`_Fire`)."""

    kind: str
    s: int
    fire: _Fire | None = None
    new: Any = None
    f3: Any = None
    out: Any = None
    go: Any = None


def _move(np: Any, tab: _Tables, f: Any, a: Any, d: Any, swapped: int, rnd: int,
          steps: list[tuple[str, str]], j: int) -> _Move:
    model = tab.model
    role, letter = steps[j]
    round1 = rnd == 1
    s = 0 if (role == "attacker") != bool(swapped) else 1
    t = 1 - s
    idx = model.group(s, role, letter, round1)
    cleo_step = bool(model.cleo and letter == "C" and not (round1 and model.sides[0].slots[-1].reserve))
    if not idx and not cleo_step:
        return _Move("idle", s)
    retreat = role == "attacker" and rnd == LAST_ROUND
    catch_up = bool(model.cleo and steps.index((role, "C")) <= j)
    sid, tid = (a, d) if s == 0 else (d, a)
    if cleo_step:
        ca = (tab.cleo(s).take(sid) > 0) & ((f & CLEO_ACTED) == 0)
        keys = sid * 2 + ca
        f2 = f | np.where(ca, CLEO_ACTED, 0)
    else:                                                    # (most steps: nothing to mark)
        keys = None
        f2 = f
    if retreat:
        new = tab.retreats(s, idx, sid * 2 if keys is None else keys)
        go = new >= 0
        f3 = np.where(go, f2 | (A_RETREATED if s == 0 else 0), f)
        new = np.where(go, new, sid)
        empty = ~tab.subs(s)[new].any(axis=1) & go
        out = np.where(empty, HOLD if s == 0 else WIN, -1)
        return _Move("retreat", s, new=new, f3=f3, out=out, go=go)
    row, w, lost, cut, tail = tab.plan(s, idx, cleo_step, sid, keys)
    nxt, first_left, first_empty = tab.target(t, round1)
    width = w.shape[1]
    fe = first_empty.take(tid)
    lmask = rkl = fires = None                               # (None: Cleopatra stays where she is)
    fl = fe
    if model.cleo:
        fl = first_left.take(tid)
        lmask = fl < np.minimum(fe, width)                   # rows where Cleopatra may leave t
        lf = lmask.nonzero()[0]
        if not len(lf):
            lmask = None
    n_s = len(model.sides[s].subs)
    rk = f2 * n_s                                            # (in place: a temporary of this
    rk += sid                                                # size costs more than the sum)
    if lmask is not None:                                    # she joins s (J-2) and, if her turn
        joined = tab.join(s, sid[lf])                        # for s has come, fires at once
        n_s = len(model.sides[s].subs)                       # (joining may add ids to side s)
        rk = f2 * n_s + sid
        rkl = np.zeros(len(f), dtype=np.int64)
        fires = np.zeros(len(f), dtype=bool)
        if model.cleo_next_round:                            # J-2 ``round``: she fights for s
            rkl[lf] = (f2[lf] | CLEO_ACTED) * n_s + joined   # next round (no row of her die)
        else:
            fires[lf] = catch_up & ((f2[lf] & CLEO_ACTED) == 0)
            rkl[lf] = np.where(fires[lf], f2[lf] | CLEO_ACTED, f2[lf]) * n_s + joined
    fire = _Fire(np, tab, s, f, sid, tid, f2, row, w, lost, cut, tail, rk, rkl, fires, lmask, fl, fe, nxt)
    return _Move("fire", s, fire=fire)


def _step(np: Any, tab: _Tables, st: State, swapped: int, rnd: int, steps: list[tuple[str, str]],
          j: int, res: list[float], eps: float) -> tuple[State, int | None, Any]:
    """Forward: every block of step ``j`` acts by the policy (fires, or retreats in round 4:
    J-6). Returns the states after it, the side whose key order they are in and their keys
    (None, None: as before)."""
    f, a, d, p = st
    mv = _move(np, tab, f, a, d, swapped, rnd, steps, j)
    if mv.kind == "idle":
        return st, None, None
    if mv.kind == "retreat":
        out = mv.out
        for code in (WIN, HOLD):
            res[code] += float(p[out == code].sum())
        stay = out < 0
        sid, tid = (a, d) if mv.s == 0 else (d, a)
        new = mv.new
        parts = ((mv.f3[stay], new[stay], tid[stay], p[stay]) if mv.s == 0 else
                 (mv.f3[stay], tid[stay], new[stay], p[stay]))
        got, keys = _gather(np, tab, mv.s, [parts], res, eps)
        return got, mv.s, keys
    fire = mv.fire
    assert fire is not None
    if fire.lost is not None:
        res[DROPPED] += float((p * fire.lost).sum())        # (no BLAS: its threads would spin)
    gone = np.zeros(len(p))                                  # mass emptying the target, a state
    empties = bool(fire.tail.any())
    for c, width in fire.chunks():
        q, idx, e = fire.chunk(c, width)
        pc = p.take(c)
        q *= pc                                              # (q is the chunk's own: in place)
        fire.acc.add(idx, q)
        if empties:
            gone[c] = pc * e
    if fire.s == 0:                                          # J-13, see _emptied_code
        res[WIN] += float(gone.sum())
    else:
        held = (fire.f2 & A_RETREATED) != 0
        res[HOLD] += float(gone[held].sum())
        res[ELIM] += float(gone[~held].sum())
    got, keys = fire.acc.state(res, eps)
    return got, mv.s, keys


def _step_back(np: Any, tab: _Tables, f: Any, a: Any, d: Any, swapped: int, rnd: int,
               steps: list[tuple[str, str]], j: int, after: _Bound) -> Any:
    """Backward: the outcome probabilities (n x 3) of the states before step ``j`` from those
    after it."""
    mv = _move(np, tab, f, a, d, swapped, rnd, steps, j)
    if mv.kind == "idle":
        return after.values(np, f, a, d)
    if mv.kind == "retreat":
        sid, tid = (a, d) if mv.s == 0 else (d, a)
        na, nd = (mv.new, tid) if mv.s == 0 else (tid, mv.new)
        v = after.values(np, mv.f3, na, nd)
        done = mv.out >= 0
        v[done] = 0.0
        v[done.nonzero()[0], mv.out[done]] = 1.0
        return v
    fire = mv.fire
    assert fire is not None
    acc = fire.acc
    na = len(after.keys)
    vt = after.columns(np)                                  # the values after; column na: none
    pmap = np.full(acc.size, na, dtype=np.int32)            # layout cell -> column of vt
    if na:
        af, aa, ad = after.f, after.a, after.d
        si, ti = (aa, ad) if fire.s == 0 else (ad, aa)
        ok = acc.mark[af * acc.n_s + si]                     # (states injected there have other rows)
        pmap[acc.index(af[ok], si[ok], ti[ok])] = ok.nonzero()[0]
    out = np.empty((len(f), 3))
    codes = _emptied_code(np, 1 - fire.s, fire.f2)
    for c, width in fire.chunks():
        q, idx, e = fire.chunk(c, width)
        v = np.einsum("ckn,kn->nc", vt.take(pmap.take(idx), axis=1), q)
        if e.any():
            v[np.arange(len(e)), codes.take(c)] += e
        out[c] = v
    return out


@dataclass
class _Bound:
    """The states of one ``swapped`` group at a boundary, with their outcome probabilities."""

    orient: int
    bits: int
    keys: Any
    v: Any = None                    # (attacker wins, attacker eliminated) per state, float64
    lost: Any = None                 # 1 less the three outcomes, float32 (only compared to BUDGET,
    f: Any = None                    # and what it adds back is below that where it is used)
    a: Any = None
    d: Any = None
    vt: Any = None

    def store(self, np: Any, v: Any) -> None:
        """Keep the outcome probabilities ``v`` (n x 3) in 20 bytes a state."""
        self.v = np.ascontiguousarray(v[:, :2])
        self.lost = (1.0 - v.sum(axis=1)).astype(np.float32)

    def full(self, np: Any, at: Any = None) -> Any:
        """The outcome probabilities (n x 3) of the states held (at positions ``at``)."""
        v = self.v if at is None else self.v[at]
        lost = self.lost if at is None else self.lost[at]
        out = np.empty((len(v), 3))
        out[:, :2] = v
        out[:, 2] = 1.0 - v[:, 0] - v[:, 1] - lost.astype(np.float64)
        return out

    def columns(self, np: Any) -> Any:
        """The values as a (3 x n+1) array, the last column 0 (for a state not held), kept
        while this boundary is the one after the step being taken back."""
        if self.vt is None:
            n = len(self.keys)
            self.vt = np.zeros((3, n + 1))
            if n:
                self.vt[:, :n] = self.full(np).T
        return self.vt

    def decode(self) -> None:
        self.f, self.a, self.d = unkey(self.keys, self.orient, self.bits)

    def values(self, np: Any, f: Any, a: Any, d: Any) -> Any:
        """Outcome probabilities of states ``(f, a, d)``; 0 for a state not held."""
        out = np.zeros((len(f), 3))
        if not len(self.keys) or not len(f):
            return out
        if self.bits == BITS[0] and max(int(a.max()), int(d.max())) >= 1 << BITS[0]:
            return out                                       # (ids this boundary never held)
        want = keys_of(f, a, d, self.orient, self.bits)
        pos = np.searchsorted(self.keys, want)
        pos = np.minimum(pos, len(self.keys) - 1)
        hit = self.keys[pos] == want
        out[hit] = self.full(np, pos[hit])
        return out


# -- the passes --------------------------------------------------------------------------------
@dataclass
class Sheet:
    """The states and outcome probabilities at every boundary of one computation."""

    bounds: dict[Bound, dict[int, _Bound]] = field(default_factory=dict)

    def size(self) -> int:
        return sum(len(x.keys) for g in self.bounds.values() for x in g.values())


@dataclass
class Run:
    """A forward pass: its answer (the injected mass's outcomes) and what the backward pass needs."""

    res: list[float]
    stages: list[tuple[str, int, int, dict[int, _Bound]]]


def _snap(np: Any, dists: dict[int, Dist], last: dict[int, tuple[Any, _Bound]]) -> dict[int, _Bound]:
    """The states of each group as keys; a group no step has changed since ``last`` shares its
    keys (and later its values)."""
    out = {}
    for sw, (st, o, keys) in dists.items():
        prev = last.get(sw)
        if prev is not None and prev[0] is st:
            out[sw] = prev[1]
        else:
            if keys is not None:                             # (made with the states: cheaper)
                bits = BITS[0] if keys.dtype == np.int32 else BITS[1]
            else:
                bits = BITS[0] if max(int(st[1].max(initial=0)), int(st[2].max(initial=0))) < 1 << BITS[0] else BITS[1]
                keys = keys_of(st[0], st[1], st[2], o, bits)
            out[sw] = _Bound(o, bits, keys)
            last[sw] = (st, out[sw])
    return out


def _join(np: Any, tab: _Tables, dists: dict[int, Dist], more: list[tuple[int, State]],
          res: list[float]) -> dict[int, Dist]:
    out = dict(dists)
    for sw in (0, 1):
        parts = [st for w, st in more if w == sw]
        if not parts:
            continue
        if sw in out:
            parts.append(out[sw][0])
        got, keys = _gather(np, tab, 0, parts, res, 0.0)
        out[sw] = (got, 0, keys)
    return out


def forward(np: Any, tab: _Tables, inject: dict[Bound, list[tuple[int, State]]], eps: float) -> Run:
    """Push the injected states (``swapped``, states with their probability mass) through the
    rest of the battle, recording the states at every boundary. The injected mass need not sum
    to 1 (several starts at once); ``res`` is its outcomes."""
    model = tab.model
    res = [0.0, 0.0, 0.0, 0.0]
    r0, j0 = min(inject)
    dists: dict[int, Dist] = {}
    stages: list[tuple[str, int, int, dict[int, _Bound]]] = []
    last: dict[int, tuple[Any, _Bound]] = {}
    for rnd in range(r0, LAST_ROUND + 1):
        steps = step_order(rnd, model.surprise)
        if rnd > r0:
            stages.append(("round", rnd, 0, _snap(np, dists, last)))
            dists = _new_round(np, tab, dists, rnd, res)
        for j in range(j0 if rnd == r0 else 0, len(steps)):
            if (rnd, j) in inject:
                dists = _join(np, tab, dists, inject[(rnd, j)], res)
            stages.append(("step", rnd, j, _snap(np, dists, last)))
            if rnd == LAST_ROUND:
                dists = _settle_last_round(np, dists, res)
            nxt: dict[int, Dist] = {}
            for sw, (st, o, keys) in dists.items():
                if len(st[3]):
                    got, o2, keys2 = _step(np, tab, st, sw, rnd, steps, j, res, eps)
                    nxt[sw] = (got, o, keys) if o2 is None else (got, o2, keys2)
            dists = nxt
    stages.append(("end", LAST_ROUND + 1, 0, _snap(np, dists, last)))
    for sw, (st, _o, _k) in dists.items():                   # J-6: attackers left after round 4
        res[WIN if sw else HOLD] += float(st[3].sum())
    return Run(res, stages)


def backward(np: Any, tab: _Tables, run: Run) -> Sheet:
    """Outcome probabilities at every recorded boundary, from the end back."""
    model = tab.model
    sheet = Sheet()
    after = run.stages[-1][3]
    after_kind = "end"
    for sw, bd in after.items():
        bd.decode()
        v = np.zeros((len(bd.keys), 3))
        v[:, WIN if sw else HOLD] = 1.0
        bd.store(np, v)
    for kind, rnd, j, now in reversed(run.stages[:-1]):
        for sw, bd in now.items():
            if bd is after.get(sw):                          # nothing acted: the same values
                sheet.bounds.setdefault((rnd, j), {})[sw] = bd
                continue
            bd.decode()
            empty = _Bound(0, BITS[1], np.zeros(0, dtype=np.int64), np.zeros((0, 2)), np.zeros(0, dtype=np.float32),
                           *([np.zeros(0, dtype=np.int64)] * 3))
            if kind == "round":
                bd.store(np, _round_back(np, tab, bd, sw, rnd, after))
                continue
            v = np.zeros((len(bd.keys), 3))
            f, a, d = bd.f, bd.a, bd.d
            live = np.ones(len(f), dtype=bool)
            if rnd == LAST_ROUND:                            # J-6, see _settle_last_round
                if sw:
                    v[:, WIN] = 1.0
                    live[:] = False
                else:
                    held = (f & A_RETREATED) != 0
                    v[held, HOLD] = 1.0
                    live &= ~held
            li = live.nonzero()[0]
            for c0 in range(0, len(li), SLICE):              # a slice at a time: bounded memory
                sl = li[c0:c0 + SLICE]
                v[sl] = _step_back(np, tab, f[sl], a[sl], d[sl], sw, rnd, step_order(rnd, model.surprise), j,
                                   after.get(sw, empty))
            bd.store(np, v)
            sheet.bounds.setdefault((rnd, j), {})[sw] = bd
        mine = [id(x) for x in now.values()]
        kept = {id(x) for g in sheet.bounds.values() for x in g.values()}
        for bd in after.values():                            # what the next stage back needs: now
            if id(bd) not in mine:
                bd.f = bd.a = bd.d = bd.vt = None
                if after_kind != "step" and id(bd) not in kept:      # (a round's end is not
                    bd.v = bd.lost = bd.keys = None                  # kept, unless it is the
        after, after_kind = now, kind                                # next round's start too)
    for g in sheet.bounds.values():
        for bd in g.values():
            bd.f = bd.a = bd.d = bd.vt = None                # keys and values are what is kept
    return sheet


def _round_back(np: Any, tab: _Tables, bd: _Bound, sw: int, rnd: int, after: dict[int, _Bound]) -> Any:
    """Backward over a round start (see :func:`_new_round`)."""
    f, a, d = bd.f, bd.a, bd.d
    v = np.zeros((len(f), 3))
    sw2, f2, a2, d2, out = _round_map(np, tab, sw, f, a, d, rnd)
    for target in (0, 1):
        sel = (sw2 == target) & (out < 0)
        if sel.any() and target in after:
            v[sel] = after[target].values(np, f2[sel], a2[sel], d2[sel])
    done = out >= 0
    v[done.nonzero()[0], out[done]] = 1.0
    return v


def _round_map(np: Any, tab: _Tables, sw: int, f: Any, a: Any, d: Any, rnd: int
               ) -> tuple[Any, Any, Any, Any, Any]:
    """Round start for each state: ``(swapped, flags, attacker id, defender id, outcome or -1)``.
    Cleopatra's turn comes again; at round 2 reserves arrive (J-8), disrupted if their main
    force fell in round 1, and a disrupted defender swaps roles (J-9)."""
    n = len(f)
    sw2 = np.full(n, sw, dtype=np.int64)
    f2 = f & ~CLEO_ACTED
    a2, d2 = a.copy(), d.copy()
    out = np.full(n, -1, dtype=np.int64)
    if rnd == 2 and n:
        hit = tab.disrupted(0, a) | tab.disrupted(1, d)
        for i in hit.nonzero()[0].tolist():
            res = [0.0, 0.0, 0.0, 0.0]
            dist = D._Dist(0, {(int(a[i]) << 2) | int(f2[i]): {int(d[i]): 1.0}})
            got = D._new_round(tab.model, {sw: dist}, rnd, res)
            if not got:
                out[i] = max(range(3), key=lambda r: res[r])
                continue
            (s3, dist3), = got.items()
            (a3, d3, fl3, _p), = dist3.states()
            sw2[i], f2[i], a2[i], d2[i] = s3, fl3, a3, d3
    return sw2, f2, a2, d2, out


def _settle_last_round(np: Any, dists: dict[int, Dist], res: list[float]
                       ) -> dict[int, Dist]:
    """As :func:`engine.jc.odds_dp._settle_last_round` (J-6)."""
    out: dict[int, Dist] = {}
    for sw, ((f, a, d, p), o, keys) in dists.items():
        if sw:
            res[WIN] += float(p.sum())
            continue
        done = (f & A_RETREATED) != 0
        if done.any():
            res[HOLD] += float(p[done].sum())
            keep = ~done
            f, a, d, p = f[keep], a[keep], d[keep], p[keep]
            keys = None                                      # (made again by _snap)
        if len(p):
            out[sw] = ((f, a, d, p), o, keys)
    return out


def _new_round(np: Any, tab: _Tables, dists: dict[int, Dist], rnd: int, res: list[float]
               ) -> dict[int, Dist]:
    """Forward over a round start (:func:`_round_map`)."""
    if rnd != 2 and not any(((st[0] & CLEO_ACTED) != 0).any() for st, _o, _k in dists.values()):
        return dists                                         # (nothing to change: the same states)
    parts: dict[int, list[State]] = {0: [], 1: []}
    for sw, ((f, a, d, p), _o, _k) in dists.items():
        sw2, f2, a2, d2, out = _round_map(np, tab, sw, f, a, d, rnd)
        done = out >= 0
        for r in (WIN, ELIM, HOLD):
            res[r] += float(p[done & (out == r)].sum())
        for target in (0, 1):
            sel = (sw2 == target) & ~done
            if sel.any():
                parts[target].append((f2[sel], a2[sel], d2[sel], p[sel]))
    made: dict[int, Dist] = {}
    for sw, ps in parts.items():
        if ps:
            got, keys = _gather(np, tab, 0, ps, res, 0.0)
            made[sw] = (got, 0, keys)
    return made
