"""Exact battle odds (J-15) on arrays: the programme of :mod:`engine.jc.odds`, every step done
for all states at once with numpy (imported here, lazily: only a big battle pays for it).

The states are the same as there: (attacker strengths id, defender strengths id, flags) with
flags CLEO_ACTED | A_RETREATED, one set per ``swapped`` (J-9). Here a set is four arrays
``(flags, attacker id, defender id, p)``. One step of the acting side s:

- its hit distribution is a row of a table ``W`` chosen by the strengths of its blocks that act
  (and Cleopatra's, if she acts), built once per step kind; a tail below TRIM is not followed;
- the target's id after k hits is ``NXT[id, k]``, with the hits from which the target side is
  emptied (J-13) or Cleopatra has left it for the acting side (J-2); all come from
  each id's one-hit successor (the only per-id Python work) by k repeated gathers;
- the products, a chunk of rows at a time (bounded memory), go into a ``bincount`` over the
  (flags, acting id) rows that occur times the target's ids, which adds up the ways into each
  state; states below ``eps`` are dropped and their mass counted, as there.

It agrees with :func:`engine.jc.odds.odds_python` and the oracle to rounding
(tests/test_jc_odds_grid.py).
"""
from __future__ import annotations

from typing import Any

from engine.jc import battle as B
from engine.jc import odds as O
from engine.jc import policy
from engine.jc.order import LAST_ROUND, step_order

WIN, ELIM, HOLD, DROPPED = O.WIN, O.ELIM, O.HOLD, O.DROPPED
CLEO_ACTED, A_RETREATED, SWAPPED = O.CLEO_ACTED, O.A_RETREATED, O.SWAPPED
State = tuple[Any, Any, Any, Any]      # flags, attacker id, defender id, p (numpy arrays)
TRIM = 1e-18                           # a number of hits less likely than this is not followed
CHUNK = 1 << 15                        # products held at once in a step (256 kB of floats: quickest)


class _Tables:
    """Per-battle lookup tables over strengths ids, grown as new ids appear."""

    def __init__(self, np: Any, model: O._Model) -> None:
        self.np = np
        self.model = model
        self.k = 2 + max(sum(s.lower[0][0] for s in side.slots) for side in model.sides)
        self.succ: dict[tuple[int, bool], dict[int, tuple[int, bool]]] = {}
        self.succ_lists: dict[tuple[int, bool], tuple[list[int], list[bool]]] = {}
        self.arrays: dict[int, Any] = {}
        self.nxt: dict[tuple[int, bool], tuple[Any, Any, Any, int]] = {}
        self.plans: dict[Any, tuple[Any, Any, int, Any]] = {}
        self.joins: dict[int, Any] = {}
        self.orders: dict[tuple[int, bool], list[int]] = {}
        self.hits: dict[tuple[tuple[int, int], ...], list[float]] = {}

    # -- the target side ------------------------------------------------------------------------
    def _order(self, side: int, round1: bool) -> list[int]:
        """Slots that can be hit, in J-14's order among equally strong blocks."""
        key = (side, round1)
        order = self.orders.get(key)
        if order is None:
            slots = self.model.sides[side].slots
            order = self.orders[key] = sorted(
                (i for i, s in enumerate(slots) if not (round1 and s.reserve)),
                key=lambda i: policy.tie_key(slots[i].fp, slots[i].leader, slots[i].seq))
        return order

    def _successor(self, side: int, sid: int, round1: bool) -> tuple[int, bool]:
        """The id after one hit (J-7, J-14 ties) and whether that hit took Cleopatra's last
        step; ``(sid, False)`` when nothing can be hit (hits beyond the last target are lost)."""
        cache = self.succ.setdefault((side, round1), {})
        got = cache.get(sid)
        if got is None:
            sd = self.model.sides[side]
            slots = sd.slots
            cur = list(sd.subs[sid])
            if round1 and not sd.main_alive(sd.subs[sid]):
                got = (sid, False)                       # J-8: nothing of the main force to hit
            else:
                best, top = -1, 0
                for i in self._order(side, round1):      # the strongest; ties by J-14
                    if cur[i] > top:
                        top, best = cur[i], i
                if best < 0:
                    got = (sid, False)
                else:
                    left = slots[best].cleopatra and cur[best] == 1
                    cur[best] = slots[best].after_hit(cur[best])
                    got = (sd.id(tuple(cur)), left)
            cache[sid] = got
        return got

    def subs(self, side: int) -> Any:
        """``side``'s strengths as an (ids x slots) array."""
        np = self.np
        subs = self.model.sides[side].subs
        arr = self.arrays.get(side)
        if arr is None or len(arr) < len(subs):
            arr = self.arrays[side] = np.array(subs, dtype=np.int64).reshape(len(subs), -1)
        return arr

    def target(self, side: int, round1: bool) -> tuple[Any, Any, Any]:
        """``(NXT, FIRST_LEFT, FIRST_EMPTY)`` covering every id of ``side`` known now (and those
        they lead to): ``NXT[id, k]`` the id after k hits; from FIRST_LEFT hits on Cleopatra has
        left the side (J-2), from FIRST_EMPTY hits on the side is gone (J-13); FIRST_LEFT <=
        FIRST_EMPTY, both ``self.k`` when it does not happen."""
        np = self.np
        key = (side, round1)
        subs = self.model.sides[side].subs
        got = self.nxt.get(key)
        if got is not None and got[-1] == len(subs):
            return got[0], got[1], got[2]
        succ, left1 = self.succ_lists.setdefault(key, ([], []))
        i = len(succ)
        while i < len(subs):                             # successors may intern more ids
            n1, left = self._successor(side, i, round1)
            succ.append(n1)
            left1.append(left)
            i += 1
        n = len(subs)
        nxt_1, left_1 = np.array(succ, dtype=np.int64), np.array(left1, dtype=bool)
        empty = ~self.subs(side).any(axis=1)
        nxt = np.empty((n, self.k), dtype=np.int64)
        gone = np.zeros((n, self.k), dtype=bool)
        nxt[:, 0] = np.arange(n)
        for k in range(1, self.k):
            gone[:, k] = gone[:, k - 1] | left_1[nxt[:, k - 1]]
            nxt[:, k] = nxt_1[nxt[:, k - 1]]
        emptied = empty[nxt]
        fe = np.where(emptied.any(axis=1), emptied.argmax(axis=1), self.k)
        fl = np.minimum(np.where(gone.any(axis=1), gone.argmax(axis=1), self.k), fe)
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
        for i in np.flatnonzero(todo).tolist():
            table[i] = self.model.join(side, i)
        return table[ids]

    # -- the acting side ------------------------------------------------------------------------
    def _hits(self, dice: tuple[tuple[int, int], ...]) -> list[float]:
        """P(k hits), k = 0, 1, ..., for blocks of (strength, firepower) ``dice`` (J-1: one d6
        per step, a hit on 1..firepower), from the distribution of all but the last block."""
        got = self.hits.get(dice)
        if got is None:
            last = O._binom(*dice[-1])
            got = self.hits[dice] = O._convolve(self._hits(dice[:-1]), last) if len(dice) > 1 else last
        return got

    def plan(self, s: int, idx: tuple[int, ...], cleo_step: bool, retreat: bool,
             keys: Any) -> tuple[Any, Any, Any]:
        """For ``keys`` = id * 2 + Cleopatra acts: ``(row, W, lost)`` where ``W[row]`` is the hit
        distribution (row 0: nobody acts, 0 hits) without its tail below TRIM, whose mass is
        ``lost``; for a retreat ``(new id or -1, None, None)``."""
        if retreat:
            return self._retreats(s, idx, keys), None, None
        np = self.np
        arr = self.subs(s)
        got = self.plans.get((s, idx, cleo_step))
        if got is None or got[2] < len(arr):
            slots = self.model.sides[s].slots
            code = arr[:, list(idx)] @ (5 ** np.arange(len(idx), dtype=np.int64))   # strengths <= 4
            acts = code + (arr[:, -1] * 5 ** len(idx) if cleo_step else 0)
            uniq, inv = np.unique(np.stack((code, acts), axis=1).ravel(), return_inverse=True)
            rows: list[list[float]] = []
            for c in uniq.tolist():     # the hits depend on the acting blocks' strengths only
                dice = []
                for i in (*idx, len(slots) - 1):
                    c, v = divmod(c, 5)
                    if v:
                        dice.append((v, slots[i].fp))
                rows.append(self._hits(tuple(dice)) if dice else [1.0])
            cut = []                        # the most hits worth following, per row
            for r in rows:
                n = len(r)
                while n > 1 and r[n - 1] < TRIM:
                    n -= 1
                cut.append(n)
            w = np.zeros((len(rows), max(cut)))
            lost = np.zeros(len(rows))
            for i, r in enumerate(rows):
                w[i, :cut[i]] = r[:cut[i]]
                lost[i] = sum(r[cut[i]:])
            got = self.plans[(s, idx, cleo_step)] = (inv.reshape(-1), w, len(arr), lost)
        return got[0][keys], got[1], got[3][got[0][keys]]

    def _retreats(self, s: int, idx: tuple[int, ...], keys: Any) -> Any:
        """Round 4 (J-6): the id after the step's blocks retreat, -1 where none is left to."""
        np = self.np
        out = np.empty(len(keys), dtype=np.int64)
        uniq, inv = np.unique(keys, return_inverse=True)
        news = []
        for key in uniq.tolist():
            plan = O._plan(self.model, s, key >> 1, idx, bool(key & 1), True)
            news.append(-1 if plan is False else plan)
        out[:] = np.array(news, dtype=np.int64)[inv.reshape(-1)]
        return out


_CACHE: dict[Any, _Tables] = {}


def _tables(np: Any, model: O._Model, a: int, d: int) -> tuple[_Tables, int, int]:
    """The tables of the last battle with these blocks (the same fight, later or after another
    choice: ``advise`` and the live odds ask many times), the start ids in its model."""
    key = (tuple(model.sides[0].slots), tuple(model.sides[1].slots), model.cleo, model.surprise)
    tab = _CACHE.get(key)
    if tab is None:
        _CACHE.clear()                               # one battle at a time: bounded memory
        tab = _CACHE[key] = _Tables(np, model)
        return tab, a, d
    sides = tab.model.sides
    return tab, sides[0].id(model.sides[0].subs[a]), sides[1].id(model.sides[1].subs[d])


def odds(battle: B.Battle, eps: float = O.EPS) -> dict[str, float]:
    """As :func:`engine.jc.odds.odds_python` (the same figures), computed on arrays.

    Raises IllegalMove if the battle cannot start (see :func:`battle.check_ready`).
    """
    import numpy as np

    b = O._settled(battle)
    if b["phase"] == "over":
        return {r: float(r == b["result"]) for r in B.RESULTS}
    model, (a, d, flags), j0, acted = O._build(b)
    tab, a, d = _tables(np, model, a, d)
    model = tab.model
    res = [0.0, 0.0, 0.0, 0.0]
    one = np.ones(1)
    dists: dict[int, State] = {int(bool(flags & SWAPPED)): (
        np.array([flags & 3], dtype=np.int64), np.array([a], dtype=np.int64),
        np.array([d], dtype=np.int64), one)}
    for rnd in range(b["round"], LAST_ROUND + 1):
        if rnd > b["round"]:
            dists = _new_round(np, tab, dists, rnd, res)
        steps = step_order(rnd, model.surprise)
        first = j0 if rnd == b["round"] else 0
        for j in range(first, len(steps)):
            if rnd == LAST_ROUND:
                dists = _settle_last_round(np, dists, res)
            skip = acted if rnd == b["round"] else set()
            dists = {sw: _step(np, tab, st, sw, rnd, steps, j, res, skip, eps)
                     for sw, st in dists.items() if len(st[3])}
    for sw, st in dists.items():                     # J-6: attackers left after round 4
        res[WIN if sw else HOLD] += float(st[3].sum())
    if res[DROPPED] > O.BUDGET and eps > 0.0:
        return odds(battle, 0.0)
    total = sum(res)
    return {r: res[i] / total for i, r in enumerate(B.RESULTS)}


class _Sum:
    """Adds probabilities into states (flags, side-``s`` id, other side's id): the bins are the
    (flags, side-s id) rows named up front, times the other side's ids."""

    def __init__(self, np: Any, tab: _Tables, s: int, rks: list[Any]) -> None:
        self.np, self.s = np, s
        self.n_s, self.n_t = len(tab.model.sides[s].subs), len(tab.model.sides[1 - s].subs)
        mark = np.zeros(4 * self.n_s, dtype=bool)
        for rk in rks:
            mark[rk] = True
        self.rows = np.flatnonzero(mark)
        self.ridx = np.zeros(4 * self.n_s, dtype=np.int64)
        self.ridx[self.rows] = np.arange(len(self.rows))
        self.acc = np.zeros(len(self.rows) * self.n_t)

    def add(self, rk: Any, ti: Any, q: Any) -> None:
        """Add ``q`` at rows ``rk`` (flags * n + id; a column against a matrix ``ti``/``q``)."""
        if q.size:
            self.acc += self.np.bincount((self.ridx[rk] * self.n_t + ti).ravel(), weights=q.ravel(),
                                         minlength=len(self.acc))

    def add_rows(self, ridx: Any, ti: Any, q: Any) -> None:
        """Add ``q`` at compact rows ``ridx`` (from :attr:`ridx`) and the other side's ``ti``."""
        self.acc += self.np.bincount((ridx * self.n_t + ti).ravel(), weights=q.ravel(),
                                     minlength=len(self.acc))

    def state(self, res: list[float], eps: float) -> State:
        """The states, dropping (and counting) those below ``eps``."""
        np = self.np
        nz = np.flatnonzero(self.acc)
        p = self.acc[nz]
        if eps > 0.0:
            small = p < eps
            if small.any():
                res[DROPPED] += float(p[small].sum())
                keep = ~small
                nz, p = nz[keep], p[keep]
        r, ti = np.divmod(nz, self.n_t)
        f, si = np.divmod(self.rows[r], self.n_s)
        return (f, si, ti, p) if self.s == 0 else (f, ti, si, p)


def _gather(np: Any, tab: _Tables, s: int, parts: list[tuple[Any, Any, Any, Any]],
            res: list[float], eps: float) -> State:
    """Add up ``parts`` (flags, side-``s`` ids, other side's ids, p) into one state set."""
    n_s = len(tab.model.sides[s].subs)
    rks = [f * n_s + si for f, si, _, _ in parts]
    acc = _Sum(np, tab, s, rks)
    for rk, (_, _, ti, q) in zip(rks, parts):
        acc.add(rk, ti, q)
    return acc.state(res, eps)


def _terminal(res: list[float], emptied: int, f: Any, q: Any) -> None:
    """Side ``emptied`` has no block left in the space (J-13); ``q`` by flags ``f``."""
    if emptied == 1:
        res[WIN] += float(q.sum())
    else:
        retreated = (f & A_RETREATED) != 0
        res[HOLD] += float(q[retreated].sum())
        res[ELIM] += float(q[~retreated].sum())


def _settle_last_round(np: Any, dists: dict[int, State], res: list[float]) -> dict[int, State]:
    """As :func:`engine.jc.odds._settle_last_round` (J-6)."""
    out: dict[int, State] = {}
    for sw, (f, a, d, p) in dists.items():
        if sw:
            res[WIN] += float(p.sum())
            continue
        done = (f & A_RETREATED) != 0
        if done.any():
            res[HOLD] += float(p[done].sum())
            keep = ~done
            f, a, d, p = f[keep], a[keep], d[keep], p[keep]
        if len(p):
            out[sw] = (f, a, d, p)
    return out


def _new_round(np: Any, tab: _Tables, dists: dict[int, State], rnd: int, res: list[float]
               ) -> dict[int, State]:
    """Round start: Cleopatra's turn comes again; at round 2 reserves arrive (J-8), disrupted if
    their main force fell in round 1, and a disrupted defender swaps roles (J-9). The few
    disrupted states go through :func:`engine.jc.odds._new_round` one by one."""
    model = tab.model
    out: dict[int, list[tuple[Any, Any, Any, Any]]] = {0: [], 1: []}
    for sw, (f, a, d, p) in dists.items():
        f = f & ~CLEO_ACTED
        if rnd == 2:
            hit = np.zeros(len(p), dtype=bool)
            for s, ids in ((0, a), (1, d)):
                side = model.sides[s]
                needs = np.array([not side.main_alive(sub) and any(v and side.slots[i].reserve
                                                                    for i, v in enumerate(sub))
                                  for sub in side.subs], dtype=bool)
                hit |= needs[ids]
            if hit.any():
                rows: dict[int, dict[int, float]] = {(int(x) << 2) | int(y): {} for x, y in zip(a[hit], f[hit])}
                for x, y, z, q in zip(a[hit].tolist(), f[hit].tolist(), d[hit].tolist(), p[hit].tolist()):
                    row = rows[(x << 2) | y]
                    row[z] = row.get(z, 0.0) + q
                for sw2, dist in O._new_round(model, {sw: O._Dist(0, rows)}, rnd, res).items():
                    st = dist.states()
                    out[sw2].append((np.array([x[2] for x in st], dtype=np.int64),
                                     np.array([x[0] for x in st], dtype=np.int64),
                                     np.array([x[1] for x in st], dtype=np.int64),
                                     np.array([x[3] for x in st])))
                keep = ~hit
                f, a, d, p = f[keep], a[keep], d[keep], p[keep]
        out[sw].append((f, a, d, p))
    return {sw: _gather(np, tab, 0, parts, res, 0.0) for sw, parts in out.items()
            if sum(len(x[3]) for x in parts)}


def _step(np: Any, tab: _Tables, st: State, swapped: int, rnd: int, steps: list[tuple[str, str]],
          j: int, res: list[float], skip: set[tuple[int, int]], eps: float) -> State:
    """Every block of step ``j`` acts by the policy: fires, or retreats in round 4 (J-6)."""
    model = tab.model
    role, letter = steps[j]
    round1 = rnd == 1
    s = 0 if (role == "attacker") != bool(swapped) else 1
    t = 1 - s
    idx = tuple(i for i in model.group(s, role, letter, round1) if (s, i) not in skip)
    cleo_step = bool(model.cleo and letter == "C" and not (round1 and model.sides[0].slots[-1].reserve))
    if not idx and not cleo_step:
        return st
    retreat = role == "attacker" and rnd == LAST_ROUND
    catch_up = bool(model.cleo and steps.index((role, "C")) <= j)
    f, a, d, p = st
    sid, tid = (a, d) if s == 0 else (d, a)
    if cleo_step:
        ca = (tab.subs(s)[sid, -1] > 0) & ((f & CLEO_ACTED) == 0)
    else:
        ca = np.zeros(len(p), dtype=bool)
    keys = sid * 2 + ca
    f2 = f | np.where(ca, CLEO_ACTED, 0)
    row, w, lost = tab.plan(s, idx, cleo_step, retreat, keys)
    if lost is not None:
        res[DROPPED] += float((p * lost).sum())      # (no BLAS: its threads would spin)
    if retreat:                                              # row: the id after, -1: none acts
        idle = row < 0
        go = ~idle
        new, f3 = row[go], f2[go] | (A_RETREATED if s == 0 else 0)
        empty = ~tab.subs(s)[new].any(axis=1)
        res[HOLD if s == 0 else WIN] += float(p[go][empty].sum())
        stay = ~empty
        return _gather(np, tab, s, [(f[idle], sid[idle], tid[idle], p[idle]),
                                    (f3[stay], new[stay], tid[go][stay], p[go][stay])], res, eps)
    nxt, first_left, first_empty = tab.target(t, round1)
    width = w.shape[1]
    fe, fl = first_empty[tid], first_left[tid]
    lmask = fl < np.minimum(fe, width)                       # rows where Cleopatra may leave t
    lf = np.flatnonzero(lmask)
    rkl = np.zeros(len(p), dtype=np.int64)
    fires = np.zeros(len(p), dtype=bool)
    joined = tab.join(s, sid[lf]) if len(lf) else None      # (may add ids to side s)
    n_s = len(model.sides[s].subs)
    rk = f2 * n_s + sid
    if len(lf):                                              # she joins s (J-2) and, if her turn
        fires[lf] = catch_up & ((f2[lf] & CLEO_ACTED) == 0)  # for s has come, fires at once
        rkl[lf] = np.where(fires[lf], f2[lf] | CLEO_ACTED, f2[lf]) * n_s + joined
    acc = _Sum(np, tab, s, [rk, rkl[lf]])
    chunk = max(1, CHUNK // width)                           # bounded temporaries (issue 11: memory)
    for c0 in range(0, len(p), chunk):
        c = slice(c0, c0 + chunk)
        fr = np.flatnonzero(fires[c])
        wide = width + (1 if len(fr) else 0)
        ks = np.arange(wide)[None, :]
        if len(fr):
            q = np.zeros((len(p[c]), wide))
            q[:, :width] = p[c, None] * w[row[c]]
        else:
            q = p[c, None] * w[row[c]]                       # rows x k: p times P(k hits)
        fl_c, fe_c = fl[c], fe[c]
        if len(fr):                                          # Cleopatra fires for s at once:
            qf = q[fr]                                       # 1 die, a hit on 1 (J-2)
            moved = np.where((ks >= fl_c[fr, None]) & (ks < fe_c[fr, None]), qf, 0.0) / 6.0
            qf -= moved
            qf[:, 1:] += moved[:, :-1]
            q[fr] = qf
        em = np.flatnonzero(fe_c < wide)                     # rows where t may be emptied (J-13)
        if len(em):
            qe = q[em]
            gone = ks >= fe_c[em, None]
            _terminal(res, t, f2[c][em], (qe * gone).sum(axis=1))
            qe[gone] = 0.0
            q[em] = qe
        base_rows = acc.ridx[rk[c]][:, None]
        if lmask[c].any():                                   # from fl hits on, the row s joined
            rows = np.where(ks >= fl_c[:, None], acc.ridx[rkl[c]][:, None], base_rows)
        else:
            rows = base_rows
        acc.add_rows(rows, nxt[tid[c], :wide], q)
    return acc.state(res, eps)
