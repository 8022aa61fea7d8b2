"""The odds table of one big battle (issue 25): every later question a look-up.

A battle is mapped onto the model of :mod:`engine.jc.odds_grid` (a :class:`Position`: the
strengths of every block of the battle, 0 for those gone, the flags, the step, the blocks that
have acted this round). The :class:`Table` holds the sheet of its last computation (a forward
pass from one or more starts, then the backward pass) and answers a position from it: a boundary
state is read off; a position in the middle of a step is taken through the rest of the step in
plain Python (:func:`engine.jc.odds_dp._step`) and its successors read off, also through the
later steps whose blocks have acted (Cleopatra's turn come again once she joined a side, J-2). A
position the sheet does not hold to BUDGET is computed once from there (:meth:`Table.compute`),
and that sheet is the table from then on. ``advise``'s options (:meth:`Table.hit_positions`,
:meth:`Table.turn_positions`) are worked out on the strengths and looked up together.

Why a choice off the J-14 policy is not in the table beforehand (measured on the roster's
biggest battle, 10+5 a side with Cleopatra): the sheet holds 352,481 states in about 8.5 MB of
the 30 MB allowed (numpy itself about 9, building the sheet about 13 more at its peak). Each
side's strengths follow one ladder under J-14 (about 50 vectors); any choice among equally
strong blocks makes 26,749 to 41,541; the futures of one such choice meet the policy's states
again only once that strength level is gone (an 8-way choice in round 1: 35,000 states of their
own at the widest step, as many as the table), and a retreat's future never does (a block is
gone for good: one such universe per block, 30 in all). So those are computed when asked.
Nor does it pay to stop such a computation where its states meet the sheet's (measured on the
walks of scripts/bench_jc.py, the sheet kept and looked up at every boundary): only 10 to 40 % of
a boundary's states are met, the look-ups cost about as much as the step, and a hit choice off
the table took 2.7x as long (median), a retreat 5.8x; the 8-way choice only 10 % less.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.jc import battle as B
from engine.jc import odds_dp as D
from engine.jc.odds_grid import (A_RETREATED, CLEO_ACTED, DROPPED, HOLD, WIN, Bound, Run, Sheet, Skip, State,
                                 _Tables, backward, forward)
from engine.jc.order import LAST_ROUND, step_order

@dataclass(frozen=True)
class Position:
    """A settled battle (fighting, no hit waiting) in a model's terms: before step ``j`` of round
    ``rnd``, ``skip`` the blocks that have acted this round, the state ``(f, a, d)`` in group
    ``sw`` (J-9 swapped)."""

    rnd: int
    j: int
    skip: Skip
    sw: int
    f: int
    a: int
    d: int


def _statics(x: B.Block) -> tuple[Any, ...]:
    """What a block's slot in a model depends on (and its key, to tell battles apart)."""
    track = x["track"]
    return (x["key"], x["letter"], x["fp"], x["kind"], bool(x["reserve"]), track[0], len(track))


def _runs(model: D._Model, side: int) -> list[list[int]]:
    """Slots of blocks alike in everything but their entry order and next to each other in
    the battle's order among equally strong blocks (J-14's, or a leader last: two legions C2
    entered one after the other). Which of them has which strength (and has acted) does not
    change the odds: the battle with their strengths swapped is the same battle with their names
    swapped, since that order puts a hit on either of them exactly where it would put it on the
    other. So a position keeps their strengths rising along that order, as the policy's own hits
    leave them, and a hit put on the other of two such blocks is the policy's position (a
    look-up, not a computation)."""
    slots = model.sides[side].slots
    order = model.tie_order(side, range(len(slots)))

    def kind(i: int) -> tuple[Any, ...]:
        sl = slots[i]
        return (sl.letter, sl.fp, sl.leader, sl.ballista, sl.cleopatra, sl.reserve, sl.lower)

    runs: list[list[int]] = []
    for i in order:
        if runs and not slots[i].cleopatra and kind(runs[-1][-1]) == kind(i):
            runs[-1].append(i)
        else:
            runs.append([i])
    return [r for r in runs if len(r) > 1]


class Table:
    """Every answer of one battle (one set of blocks): the sheets of its computations (newest
    first) over one model, and a forward pass whose backward pass is still to do."""

    SHEETS = 1                       # computations kept: the newest covers every point asked since

    def __init__(self, np: Any, b: B.Battle) -> None:
        model, _start, _j0, _acted = D._build(b)
        self.np = np
        self.tab = _Tables(np, model)
        self.model = model
        self.names = (b["attacker"], b["defender"])
        self.rule = B.cleopatra_rule(b)      # J-2: the model's Cleopatra rule (another: another battle)
        self.leaders = b.get("leaders")      # its order among equally strong blocks (another: another battle)
        self.slot_of: dict[int, tuple[int, int, tuple[Any, ...]]] = {}
        blocks = {x["seq"]: x for x in b["blocks"]}
        for s, side in enumerate(model.sides):
            for i, sl in enumerate(side.slots):
                if not sl.cleopatra:
                    self.slot_of[sl.seq] = (s, i, _statics(blocks[sl.seq]))
        self.cleo = next((_statics(x) for x in b["blocks"] if x["kind"] == "cleopatra" and B.in_space(x)), None)
        self.runs = (_runs(model, 0), _runs(model, 1))
        self.groups: dict[tuple[int, str, str, bool], tuple[int, ...]] = {}
        self.sheets: list[Sheet] = []
        self.pending: Run | None = None
        self.computations = 0        # forward passes run (for tests and the benchmark)
        self.answers: dict[Position, list[float]] = {}

    # -- where a battle is ---------------------------------------------------------------------
    def fits(self, b: B.Battle) -> bool:
        """Whether ``b`` is a point of this battle: the same sides, Mars, Cleopatra rule (J-2) and
        order among equally strong blocks (``leaders``), and every block in its space one of the model's."""
        if ((b["attacker"], b["defender"]) != self.names or bool(b["surprise"]) != self.model.surprise
                or B.cleopatra_rule(b) != self.rule or b.get("leaders") != self.leaders):
            return False
        for x in b["blocks"]:
            if not B.in_space(x):
                continue
            if x["kind"] == "cleopatra":
                if self.cleo is None or _statics(x) != self.cleo:
                    return False
                continue
            loc = self.slot_of.get(x["seq"])
            if loc is None or self.names[loc[0]] != x["side"] or _statics(x) != loc[2]:
                return False
        return True

    def position(self, b: B.Battle, intern: bool = False) -> Position | None:
        """``b`` (settled, fighting) in this table's terms; None if it is not this battle (a
        block in the space that the model does not have) or, unless ``intern``, its strengths
        were never seen."""
        scan = self._scan(b)
        if scan is None:
            return None
        values, acted, flags = scan
        return self._place(b, values, acted, flags, intern)

    def _scan(self, b: B.Battle) -> tuple[list[list[int]], set[tuple[int, int]], int] | None:
        """The strengths of ``b``'s blocks by slot, the slots that have acted and the
        CLEO_ACTED flag; None if ``b`` is not this battle."""
        model = self.model
        sides = model.sides
        values = [[0] * len(sides[0].slots), [0] * len(sides[1].slots)]
        acted: set[tuple[int, int]] = set()
        flags = 0
        names = self.names
        if ((b["attacker"], b["defender"]) != names or bool(b["surprise"]) != model.surprise
                or B.cleopatra_rule(b) != self.rule or b.get("leaders") != self.leaders):
            return None
        for x in b["blocks"]:
            if not B.in_space(x):
                continue
            if x["kind"] == "cleopatra":
                if self.cleo is None or _statics(x) != self.cleo:
                    return None
                values[names.index(x["side"])][-1] = int(x["strength"])
                if x["acted"]:
                    flags |= CLEO_ACTED
                continue
            loc = self.slot_of.get(x["seq"])
            if loc is None or names[loc[0]] != x["side"] or _statics(x) != loc[2]:
                return None
            s, i = loc[0], loc[1]
            values[s][i] = int(x["strength"])
            if x["acted"]:
                acted.add((s, i))
        return values, acted, flags

    def _place(self, b: B.Battle, values: list[list[int]], acted: set[tuple[int, int]], flags: int,
               intern: bool) -> Position | None:
        """The position of strengths ``values`` (changed in place) in ``b``'s round."""
        sides = self.model.sides
        names = self.names
        for s in (0, 1):                     # alike blocks in a row: one state (see _runs)
            for run in self.runs[s]:
                pairs = sorted((values[s][i], (s, i) in acted) for i in run)
                for i, (v, done) in zip(run, pairs):
                    values[s][i] = v
                    if done:
                        acted.add((s, i))
                    else:
                        acted.discard((s, i))
        if intern:
            a: int | None = sides[0].id(tuple(values[0]))
            d: int | None = sides[1].id(tuple(values[1]))
        else:
            a = sides[0].ids.get(tuple(values[0]))
            d = sides[1].ids.get(tuple(values[1]))
        if a is None or d is None:
            return None
        if b["retreated"][names[0]] > 0:
            flags |= A_RETREATED
        rnd, sw = int(b["round"]), int(bool(b["swapped"]))
        j = self._current(rnd, sw, values, acted, flags)
        return Position(rnd, j, frozenset(acted), sw, flags, a, d)

    def hit_positions(self, b: B.Battle, targets: list[str]) -> list[Position | None] | None:
        """The positions once each of ``targets`` takes the hit waiting in ``b`` and the battle's
        order puts the rest of the volley (J-7, J-14 or a leader last; as ``advise`` plays them out on copies), worked out
        on the strengths alone (a hit that closes the round: the next round's start as the
        passes take it): None for all when ``b`` is not this battle at a hit; None for one
        whose hits reach Cleopatra, leave a side without blocks (J-13) or round 1 without a
        main force (J-8), end round 4, or give strengths the table never saw (all these are
        left to the battle's own moves)."""
        pending = b["pending"]
        if b["phase"] != "fighting" or not pending:
            return None
        scan = self._scan(b)
        if scan is None:
            return None
        values, acted, flags = scan
        t = self.names.index(pending["side"])
        rnd = int(b["round"])
        slots = self.model.sides[t].slots
        order = self.tab._order(t, rnd == 1)
        main = [i for i in order if not slots[i].cleopatra]
        steps = len(step_order(rnd, self.model.surprise))
        where = {x["key"]: self.slot_of.get(x["seq"]) for x in b["blocks"]
                 if x["side"] == pending["side"] and x["kind"] != "cleopatra"}
        out: list[Position | None] = []
        for key in targets:
            loc = where.get(key)
            if loc is None or not values[t][loc[1]]:
                out.append(None)
                continue
            mine = [values[0][:], values[1][:]]
            v = mine[t]
            v[loc[1]] = slots[loc[1]].after_hit(v[loc[1]])
            ok = True
            for _ in range(int(pending["left"]) - 1):   # the rest of the volley in the battle's order
                top, best = 0, -1
                for i in order:
                    if v[i] > top:
                        top, best = v[i], i
                if best < 0:                 # nobody left to hit: the rest is lost
                    break
                if slots[best].cleopatra:
                    ok = False
                    break
                v[best] = slots[best].after_hit(v[best])
            if not ok or not any(v) or not any(v[i] for i in main):
                out.append(None)
                continue
            still = {(s, i) for s, i in acted if mine[s][i]}      # (a block gone has not acted)
            pos = self._place(b, mine, still, flags, False)
            out.append(pos if pos is None or pos.j < steps else self._next_round(pos))
        return out

    def turn_positions(self, b: B.Battle, options: list[tuple[str, str]]) -> list[Position | None] | None:
        """The positions once each ``(action, block key)`` of a turn is taken (J-5, J-6): fire,
        the battle as it is (J-14 fires the step, see ``advise``); pass, the block has acted;
        retreat, it has left the space (an attacker's: A_RETREATED). Worked out on the
        strengths alone (the round's end as in :meth:`hit_positions`): None for all when ``b``
        is not this battle at a turn; None for Cleopatra's, for a retreat that leaves its side
        without blocks (J-13) and for strengths the table never saw."""
        if b["phase"] != "fighting" or b["pending"]:
            return None
        scan = self._scan(b)
        if scan is None:
            return None
        values, acted, flags = scan
        steps = len(step_order(int(b["round"]), self.model.surprise))
        where = {x["key"]: self.slot_of.get(x["seq"]) for x in b["blocks"] if x["kind"] != "cleopatra"}
        out: list[Position | None] = []
        for action, key in options:
            mine = [values[0][:], values[1][:]]
            still = set(acted)
            f = flags
            loc = where.get(key)
            if action != "fire":
                if loc is None:
                    out.append(None)
                    continue
                s, i = loc[0], loc[1]
                if action == "pass":
                    still.add((s, i))
                else:
                    mine[s][i] = 0
                    still.discard((s, i))
                    f |= A_RETREATED if s == 0 else 0
                    if not any(mine[s]):
                        out.append(None)
                        continue
            pos = self._place(b, mine, still, f, False)
            out.append(pos if pos is None or pos.j < steps else self._next_round(pos))
        return out

    def _next_round(self, pos: Position) -> Position | None:
        """``pos`` at the end of its round as the next round starts (J-8 reserves arrive, J-9
        disrupted, the roles swapped), as the table's passes take it; None after round 4 or
        when the battle ends there."""
        if pos.rnd >= LAST_ROUND:
            return None
        res = [0.0, 0.0, 0.0, 0.0]
        dist = D._Dist(0, {(pos.a << 2) | (pos.f & 3): {pos.d: 1.0}})
        got = D._new_round(self.model, {pos.sw: dist}, pos.rnd + 1, res)
        if len(got) != 1 or any(res):
            return None
        (sw, nxt), = got.items()
        states = nxt.states()
        if len(states) != 1:
            return None
        (a, d, f, _p), = states
        sides = self.model.sides
        values = [list(sides[0].subs[a]), list(sides[1].subs[d])]
        j = self._current(pos.rnd + 1, sw, values, set(), f)
        if j >= len(step_order(pos.rnd + 1, self.model.surprise)):
            return None
        return Position(pos.rnd + 1, j, frozenset(), sw, f, a, d)

    def _current(self, rnd: int, sw: int, values: list[list[int]], acted: set[tuple[int, int]], flags: int) -> int:
        """The first step of the round with a block still to act (as battle.current_step:
        Cleopatra has her own turn in the C step of the side she is with)."""
        steps = step_order(rnd, self.model.surprise)
        for j, (role, letter) in enumerate(steps):
            s = 0 if (role == "attacker") != bool(sw) else 1
            key = (s, role, letter, rnd == 1)
            group = self.groups.get(key)
            if group is None:
                group = self.groups[key] = self.model.group(s, role, letter, rnd == 1)
            if any(values[s][i] and (s, i) not in acted for i in group):
                return j
            if (letter == "C" and self.model.cleo and values[s][-1] and not flags & CLEO_ACTED
                    and not (rnd == 1 and self.model.sides[0].slots[-1].reserve)):
                return j
        return len(steps)

    # -- answers --------------------------------------------------------------------------------
    def _lookup(self, rnd: int, j: int, sw: int, f: Any, a: Any, d: Any) -> Any:
        """Outcome probabilities (n x 3) of states at a boundary, the best any sheet holds."""
        np = self.np
        best = np.zeros((len(f), 3))
        for sheet in self.sheets:
            bd = sheet.bounds.get((rnd, j), {}).get(sw)
            if bd is None:
                continue
            v = bd.values(np, f, a, d)
            better = v.sum(axis=1) > best.sum(axis=1)
            best[better] = v[better]
        return best

    def value(self, pos: Position) -> list[float] | None:
        """``[wins, eliminated, holds]`` from ``pos`` by look-ups, or None when the sheets do
        not hold it to BUDGET."""
        got = self.answers.get(pos)
        if got is not None:
            return got
        self.complete()
        got = self._value(pos)
        if got is None or 1.0 - sum(got) > D.BUDGET:
            return None
        self._keep(pos, got)
        return got

    def values(self, positions: list[Position]) -> list[list[float] | None]:
        """:meth:`value` of several positions (``advise``'s options), the look-ups at each
        boundary made together."""
        np = self.np
        self.complete()
        out: list[list[float] | None] = [None] * len(positions)
        acc: list[Any] = [None] * len(positions)
        batch: dict[tuple[int, int, int], list[tuple[int, Any, Any, Any, Any]]] = {}
        for n, pos in enumerate(positions):
            got = self.answers.get(pos)
            if got is not None:
                out[n] = got
                continue
            if pos.rnd == LAST_ROUND and (pos.sw or pos.f & A_RETREATED):     # J-6
                acc[n] = np.array([float(pos.sw), 0.0, float(not pos.sw)])
                continue
            res = [0.0, 0.0, 0.0, 0.0]
            spread = self._expand(pos, res)
            acc[n] = np.array(res[:3])
            if spread is None:                                # a boundary state itself
                one = np.ones(1, dtype=np.int64)
                batch.setdefault((pos.rnd, pos.j, pos.sw), []).append(
                    (n, one * pos.f, one * pos.a, one * pos.d, np.ones(1)))
                continue
            (rnd, j), groups = spread
            if rnd <= LAST_ROUND:
                for sw, (f, a, d, p) in groups:
                    batch.setdefault((rnd, j, sw), []).append((n, f, a, d, p))
        for (rnd, j, sw), parts in batch.items():
            v = self._lookup(rnd, j, sw, *(np.concatenate([x[k] for x in parts]) for k in (1, 2, 3)))
            start = 0
            for n, f, _a, _d, p in parts:
                acc[n] += p @ v[start:start + len(f)]
                start += len(f)
        for n, pos in enumerate(positions):
            if out[n] is not None:
                continue
            got = [float(x) for x in acc[n]]
            if 1.0 - sum(got) > D.BUDGET:                     # as :meth:`value` (a boundary state
                got = self._value(pos) or got                 # J-14 does not reach: its step)
            if 1.0 - sum(got) <= D.BUDGET:
                self._keep(pos, got)
                out[n] = got
        return out

    def holds(self, pos: Position) -> bool:
        """Whether the table (not only the answers kept) holds ``pos`` to BUDGET."""
        self.complete()
        got = self._value(pos)
        return got is not None and 1.0 - sum(got) <= D.BUDGET

    def _keep(self, pos: Position, got: list[float]) -> None:
        """Remember an answer given (the same question is answered with the same figures)."""
        if pos in self.answers:
            return
        if len(self.answers) >= 64:
            self.answers.pop(next(iter(self.answers)))
        self.answers[pos] = got

    def _value(self, pos: Position) -> list[float] | None:
        np = self.np
        if pos.rnd == LAST_ROUND and (pos.sw or pos.f & A_RETREATED):     # J-6
            return [float(pos.sw), 0.0, float(not pos.sw)]
        res = [0.0, 0.0, 0.0, 0.0]
        spread = self._expand(pos, res)
        if spread is None:
            v = self._lookup(pos.rnd, pos.j, pos.sw, np.array([pos.f]), np.array([pos.a]), np.array([pos.d]))
            if 1.0 - float(v[0].sum()) <= D.BUDGET:
                return [float(x) for x in v[0]]
            spread = self._expand(pos, res, True)            # (a state J-14 does not reach there,
            assert spread is not None                        # e.g. Cleopatra passed: its step)
        (rnd, j), groups = spread
        out = np.array(res[:3])
        if rnd <= LAST_ROUND:
            for sw, (f, a, d, p) in groups:
                out += p @ self._lookup(rnd, j, sw, f, a, d)
        return [float(x) for x in out]

    def _expand(self, pos: Position, res: list[float], force: bool = False
                ) -> tuple[Bound, list[tuple[int, State]]] | None:
        """The rest of ``pos``'s round up to the last step with a block that has acted this round
        already (J-14 for the others), in plain Python: the states at the next boundary with their
        probabilities (outcomes reached on the way added to ``res``); None when no block of this
        or a later step has acted (``pos`` is a boundary state itself) unless ``force`` (then its
        step). A later step's block has acted when Cleopatra joined a side after her step for it
        had passed and has her turn now (J-2 ``turn``: a surprise round's attacking D block hit
        her, J-10): the boundary's states would have that block fire again (J-5)."""
        np = self.np
        model = self.model
        steps = step_order(pos.rnd, model.surprise)
        if pos.j >= len(steps) or not (pos.skip or force):
            return None
        last = pos.j if force else -1
        for k in range(pos.j, len(steps)):
            role, letter = steps[k]
            s = 0 if (role == "attacker") != bool(pos.sw) else 1
            if any((s, i) in pos.skip for i in model.group(s, role, letter, pos.rnd == 1)):
                last = k
        if last < 0:
            return None
        dists2 = {pos.sw: D._Dist(0, {(pos.a << 2) | pos.f: {pos.d: 1.0}})}
        for k in range(pos.j, last + 1):
            if pos.rnd == LAST_ROUND:
                dists2 = D._settle_last_round(dists2, res)
            dists2 = {sw: D._step(model, dd, sw, pos.rnd, steps, k, res, set(pos.skip), 0.0)
                      for sw, dd in dists2.items() if dd.rows}
            dists2 = {sw: dd for sw, dd in dists2.items() if dd.rows}
        rnd, j = pos.rnd, last + 1
        if j == len(steps):
            if rnd == LAST_ROUND:
                for sw, dd in dists2.items():
                    res[WIN if sw else HOLD] += sum(p for row in dd.rows.values() for p in row.values())
                return (LAST_ROUND + 1, 0), []
            dists2 = D._new_round(model, dists2, rnd + 1, res)
            rnd, j = rnd + 1, 0
        groups = []
        for sw, dd in dists2.items():
            st = dd.states()
            groups.append((sw, (np.array([x[2] for x in st], dtype=np.int64), np.array([x[0] for x in st], dtype=np.int64),
                                np.array([x[1] for x in st], dtype=np.int64), np.array([x[3] for x in st]))))
        return (rnd, j), groups

    def _run(self, roots: list[Position], eps: float) -> tuple[Run, list[float]]:
        """A forward pass from ``roots`` (mass 1 each), with eps 0 if ``eps`` dropped too much;
        also the outcomes the first root reaches before its first boundary."""
        np = self.np
        inject: dict[Bound, list[tuple[int, State]]] = {}
        first = [0.0, 0.0, 0.0, 0.0]
        for n, pos in enumerate(roots):
            res = [0.0, 0.0, 0.0, 0.0]
            if pos.rnd == LAST_ROUND and (pos.sw or pos.f & A_RETREATED):
                res[WIN if pos.sw else HOLD] = 1.0
                spread: tuple[Bound, list[tuple[int, State]]] | None = ((LAST_ROUND + 1, 0), [])
            else:
                spread = self._expand(pos, res)
            if spread is None:
                one = (np.array([pos.f], dtype=np.int64), np.array([pos.a], dtype=np.int64),
                       np.array([pos.d], dtype=np.int64), np.ones(1))
                spread = ((pos.rnd, pos.j), [(pos.sw, one)])
            bound, groups = spread
            if bound[0] <= LAST_ROUND:
                inject.setdefault(bound, []).extend(groups)
            if n == 0:
                first = res
        self.computations += 1
        run = forward(np, self.tab, inject, eps) if inject else Run([0.0, 0.0, 0.0, 0.0], [])
        if run.res[DROPPED] > D.BUDGET and eps > 0.0:
            return self._run(roots, 0.0)
        return run, first

    def compute(self, roots: list[Position], eps: float, backward_now: bool) -> list[float]:
        """The table from ``roots`` on, in place of the one held; returns the outcomes of the
        first root when it is the only one. The backward pass runs now or at the next
        :meth:`complete`."""
        self.pending = None
        self.sheets.clear()                          # (bounded memory: the new one takes over)
        run, first = self._run(roots, eps)
        self.pending = run if run.stages else None
        if backward_now:
            self.complete()
        if len(roots) == 1:
            got = [first[i] + run.res[i] for i in range(4)]
            self._keep(roots[0], got[:3])
            return got
        return [0.0, 0.0, 0.0, 0.0]

    def answer(self, pos: Position, eps: float) -> list[float]:
        """The outcomes from ``pos`` by a forward pass alone; the table held stays as it is (an
        option that is seldom taken: a retreat)."""
        run, first = self._run([pos], eps)
        got = [first[i] + run.res[i] for i in range(3)]
        self._keep(pos, got)
        return got

    def complete(self) -> bool:
        """Run the backward pass still to do (True if there was one)."""
        run, self.pending = self.pending, None
        if run is None:
            return False
        sheet = backward(self.np, self.tab, run)
        self.sheets.insert(0, sheet)
        del self.sheets[self.SHEETS:]
        return True

    def size(self) -> int:
        """States held in all sheets."""
        return sum(s.size() for s in self.sheets)


def odds(battle: B.Battle, eps: float = D.EPS, backward: bool = False) -> dict[str, float]:
    """The array programme on its own, a fresh table (for tests and the benchmark): the forward
    pass's answer, or with ``backward`` the backward pass's value at the start.

    Raises IllegalMove if the battle cannot start (see :func:`battle.check_ready`).
    """
    import numpy as np

    b = D._settled(battle)
    if b["phase"] == "over":
        return {r: float(r == b["result"]) for r in B.RESULTS}
    table = Table(np, b)
    pos = table.position(b, intern=True)
    assert pos is not None
    got = table.compute([pos], eps, backward_now=backward)
    if backward:
        looked = table.value(pos)
        assert looked is not None, (pos, got, table._value(pos))
        got = looked
    total = got[0] + got[1] + got[2]
    return {r: got[i] / total for i, r in enumerate(B.RESULTS)}
