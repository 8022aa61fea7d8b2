"""Exact battle odds under the J-14 policy (J-15), from set-up or from any point of a battle.

Why it is small: under the policy every block of a step fires, and a step's blocks do not lose
strength while they fire, so only the step's *total* hits matter (a sum of binomials); those hits
go one at a time to the strongest block under a fixed tie rule, so a side's next state is a
function of its state and the hit count (a "ladder"). The programme pushes a probability
distribution over (attacker strengths, defender strengths, flags) through the steps of each
round, with the other schedule once the roles have swapped (J-9).

Representation: each side's strengths are a tuple over its blocks (Cleopatra, if present, in the
last slot of *both* sides, 0 where she is not), interned to an integer id. A joint state is
(attacker id, defender id, flags) with flags CLEO_ACTED (she has had her turn this round; under J-2's
``round`` rule also set when she changes side: she fights for her new side in the next round),
A_RETREATED (an attacking block has retreated) and SWAPPED (J-9); see :class:`_Dist` for how the
states are stored so that one step costs little more than a dict update per outcome.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from math import comb
from typing import Any

from engine.jc import battle as B
from engine.jc.order import LAST_ROUND, ballista_rating, step_order

Sub = tuple[int, ...]
WIN, ELIM, HOLD, DROPPED = 0, 1, 2, 3
EPS = 1e-16           # a contribution smaller than this is not followed (its mass is counted)
BUDGET = 1e-10        # most mass that may go unfollowed; above it the odds are taken again with EPS 0
_NEVER = 1 << 30
_MAX_HITS = 96        # more dice than any battle can roll (15 blocks a side at IV, Cleopatra)
CLEO_ACTED, A_RETREATED, SWAPPED = 1, 2, 4


@dataclass(frozen=True)
class _Slot:
    seq: int
    letter: str
    fp: int
    leader: bool
    ballista: bool
    cleopatra: bool
    reserve: bool
    lower: tuple[tuple[int, int], ...]     # (strength, strength after one hit; 0 = out)

    def after_hit(self, s: int) -> int:
        return dict(self.lower)[s]


@dataclass
class _Side:
    """One side's blocks and its interned strength tuples."""

    slots: list[_Slot]
    subs: list[Sub] = field(default_factory=list)
    ids: dict[Sub, int] = field(default_factory=dict)

    def id(self, sub: Sub) -> int:
        i = self.ids.get(sub)
        if i is None:
            i = self.ids[sub] = len(self.subs)
            self.subs.append(sub)
        return i

    def main_alive(self, sub: Sub) -> bool:
        """Any block of the main force (not a reserve) still in the fight."""
        return any(v and not self.slots[i].reserve for i, v in enumerate(sub))


@dataclass
class _Model:
    """Static facts and caches. Side 0 = the original attacker, side 1 = the original defender."""

    sides: tuple[_Side, _Side]
    cleo: bool
    surprise: bool
    cleo_next_round: bool = False    # J-2 ``round`` rule: a change of side uses up her turn this round
    leaders_last: bool = False       # ``leaders=last``: a leader last among equally strong blocks (B.careful_key)
    ladders: dict[tuple[int, bool], dict[int, list[tuple[int, bool, bool]]]] = field(default_factory=dict)
    joins: dict[int, dict[int, int]] = field(default_factory=dict)
    fasts: dict[tuple[int, bool], dict[int, tuple[int, list[int] | None, bool]]] = field(default_factory=dict)
    plans: dict[Any, Any] = field(default_factory=dict)
    groups: dict[tuple[int, str, str, bool], tuple[int, ...]] = field(default_factory=dict)

    def tie_order(self, side: int, slots: Iterable[int]) -> list[int]:
        """``slots`` of ``side`` in the battle's order among equally strong blocks (the first takes
        the hit): J-14's, or with ``leaders=last`` a leader last (B.careful_key, as B.device_choice)."""
        key = B.careful_key if self.leaders_last else B.tie_key
        sl = self.sides[side].slots
        return sorted(slots, key=lambda i: key(sl[i].fp, sl[i].leader, sl[i].seq))

    def letter(self, side: int, i: int, role: str) -> str:
        s = self.sides[side].slots[i]
        return ballista_rating(role)[0] if s.ballista else s.letter

    def group(self, side: int, role: str, letter: str, round1: bool) -> tuple[int, ...]:
        """Non-Cleopatra slots of ``side`` taking their turn in step (role, letter)."""
        key = (side, role, letter, round1)
        got = self.groups.get(key)
        if got is None:
            got = self.groups[key] = tuple(i for i, s in enumerate(self.sides[side].slots)
                                           if not s.cleopatra and not (round1 and s.reserve)
                                           and self.letter(side, i, role) == letter)
        return got

    def ladder(self, side: int, sid: int, round1: bool) -> list[tuple[int, bool, bool]]:
        """Side ``side`` after 0, 1, 2 ... hits (J-7, the battle's ties) until no target is left:
        ``(strengths id, Cleopatra has left the side, no block left in the space)``."""
        cache = self.ladders.setdefault((side, round1), {})
        lad = cache.get(sid)
        if lad is None:
            sd = self.sides[side]
            slots = sd.slots
            order = self.tie_order(side, (i for i, s in enumerate(slots) if not (round1 and s.reserve)))
            cur = list(sd.subs[sid])
            left = False
            lad = [(sid, False, not any(cur))]
            while True:
                best, top = -1, 0
                for i in order:
                    if cur[i] > top:
                        top, best = cur[i], i
                if best < 0:
                    break
                if slots[best].cleopatra and cur[best] == 1:
                    left = True
                cur[best] = slots[best].after_hit(cur[best])
                lad.append((sd.id(tuple(cur)), left, not any(cur)))
            cache[sid] = lad
        return lad

    def fast(self, side: int, sid: int, round1: bool) -> tuple[int, list[int] | None, bool]:
        """The ladder for the inner loop: ``(first, ids, emptied)``, ``ids[k]`` the strengths id
        after ``k < first`` hits, where nothing else happens (no side emptied, Cleopatra stays);
        ``emptied``: from ``first`` hits on the side is gone (J-13), else :meth:`ladder` tells
        (Cleopatra leaves). ``ids`` is ``None`` in round 1 when the side has no main force to
        shoot at (J-7, J-8)."""
        cache = self.fasts.setdefault((side, round1), {})
        entry = cache.get(sid)
        if entry is None:
            sd = self.sides[side]
            if round1 and not sd.main_alive(sd.subs[sid]):
                entry = (0, None, False)
            else:
                lad = self.ladder(side, sid, round1)
                first = next((i for i, (_, left, empty) in enumerate(lad) if left or empty), _NEVER)
                ids = [x[0] for x in lad]
                ids += [ids[-1]] * (_MAX_HITS - len(ids))      # hits beyond the last target are lost
                emptied = first < len(lad) and lad[first][2] and not lad[first][1]
                entry = (first, ids, emptied)
            cache[sid] = entry
        return entry

    def join(self, side: int, sid: int) -> int:
        """``side`` with Cleopatra joined at strength I (J-2)."""
        cache = self.joins.setdefault(side, {})
        j = cache.get(sid)
        if j is None:
            sub = self.sides[side].subs[sid]
            j = cache[sid] = self.sides[side].id(sub[:-1] + (1,))
        return j


_BINOM: dict[tuple[int, int], list[float]] = {}


def _binom(n: int, fp: int) -> list[float]:
    """P(k hits) for ``n`` dice hitting on 1..fp."""
    key = (n, fp)
    pmf = _BINOM.get(key)
    if pmf is None:
        p = min(fp, 6) / 6.0
        pmf = [comb(n, k) * p ** k * (1.0 - p) ** (n - k) for k in range(n + 1)]
        _BINOM[key] = pmf
    return pmf


def _convolve(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


# -- building the start ----------------------------------------------------------------------
def battle_copy(battle: B.Battle) -> B.Battle:
    """A copy that :mod:`engine.jc.battle`'s moves (start, hits, turns, advance) may change
    without touching ``battle``: the dicts they change are copied, what they only append to or
    read (earlier turn records, events, tracks) is shared. Much quicker than a deep copy of a
    long battle."""
    b = dict(battle)
    b["blocks"] = [dict(x) for x in battle["blocks"]]
    b["retreated"] = dict(battle["retreated"])
    b["turns"] = list(battle["turns"])
    b["events"] = list(battle["events"])
    pending = battle["pending"]
    if pending:
        b["pending"] = dict(pending)
        i = pending["turn"]
        rec = b["turns"][i]
        b["turns"][i] = {**rec, "applied": list(rec["applied"])}
    return b


def _settled(battle: B.Battle) -> B.Battle:
    """At a decision point: started if in set-up, pending hits placed as the device places them
    (J-14, or a leader last: B.device_choice; on a copy; the battle itself when there is nothing to do)."""
    if battle["phase"] == "setup":
        b = battle_copy(battle)
        B.start(b)
    elif battle["phase"] == "fighting" and battle["pending"]:
        b = battle_copy(battle)
    else:
        return battle
    if b["phase"] == "fighting" and b["pending"]:
        B.apply_pending(b, B.device_choice)
        B.advance(b)
    return b


def _slot(x: B.Block) -> _Slot:
    track = [int(s) for s in x["track"]]
    lower = tuple((s, track[i + 1] if i + 1 < len(track) else 0) for i, s in enumerate(track))
    return _Slot(seq=int(x["seq"]), letter=str(x["letter"]), fp=int(x["fp"]),
                 leader=x["kind"] == "leader", ballista=x["kind"] == "ballista",
                 cleopatra=x["kind"] == "cleopatra", reserve=bool(x["reserve"]), lower=lower)


def _build(b: B.Battle) -> tuple[_Model, tuple[int, int, int], int, set[tuple[int, int]]]:
    """The model, the start state (attacker id, defender id, flags), the index of the current
    step and the slots that have already acted in it."""
    names = (b["attacker"], b["defender"])
    blocks = sorted((x for x in b["blocks"] if B.in_space(x)), key=lambda x: x["seq"])
    cleo = next((x for x in blocks if x["kind"] == "cleopatra"), None)
    slots: tuple[list[_Slot], list[_Slot]] = ([], [])
    values: tuple[list[int], list[int]] = ([], [])
    acted: set[tuple[int, int]] = set()
    for x in blocks:
        if x is cleo:
            continue
        s = names.index(x["side"])
        slots[s].append(_slot(x))
        values[s].append(int(x["strength"]))
        if x["acted"]:
            acted.add((s, len(slots[s]) - 1))
    if cleo is not None:
        for s in (0, 1):
            slots[s].append(_slot(cleo))
            values[s].append(int(cleo["strength"]) if names[s] == cleo["side"] else 0)
    model = _Model(sides=(_Side(slots[0]), _Side(slots[1])), cleo=cleo is not None,
                   surprise=bool(b["surprise"]), cleo_next_round=B.cleopatra_rule(b) == "round",
                   leaders_last=b.get("leaders") == B.LEADERS_LAST)
    flags = ((CLEO_ACTED if cleo is not None and cleo["acted"] else 0)
             | (A_RETREATED if b["retreated"][names[0]] > 0 else 0)
             | (SWAPPED if b["swapped"] else 0))
    start = (model.sides[0].id(tuple(values[0])), model.sides[1].id(tuple(values[1])), flags)
    step = B.current_step(b)
    steps = step_order(b["round"], b["surprise"])
    j0 = steps.index((step[0], step[1])) if step else len(steps)
    return model, start, j0, acted


# -- the programme ---------------------------------------------------------------------------
@dataclass
class _Dist:
    """Probabilities of the states sharing one ``swapped`` flag, as rows: ``rows[(outer id << 2)
    | flags] = {inner id: p}`` where ``outer`` says which side's id keys the rows (the side that
    acts, so a row shares one hit distribution); flags: CLEO_ACTED | A_RETREATED."""

    outer: int
    rows: dict[int, dict[int, float]]

    def transposed(self) -> _Dist:
        rows: dict[int, dict[int, float]] = {}
        for ok, row in self.rows.items():
            oid, flags = ok >> 2, ok & 3
            for iid, p in row.items():
                r = rows.setdefault((iid << 2) | flags, {})
                r[oid] = r.get(oid, 0.0) + p
        return _Dist(1 - self.outer, rows)

    def states(self) -> list[tuple[int, int, int, float]]:
        """``(attacker id, defender id, flags, p)`` for every state."""
        out = []
        for ok, row in self.rows.items():
            for iid, p in row.items():
                a, d = (ok >> 2, iid) if self.outer == 0 else (iid, ok >> 2)
                out.append((a, d, ok & 3, p))
        return out


def _merge(rows: dict[int, dict[int, float]], key: int, row: dict[int, float]) -> None:
    """Add ``row`` into ``rows[key]`` (taking the dict over when the key is new)."""
    mine = rows.get(key)
    if mine is None:
        rows[key] = row
        return
    for k, p in row.items():
        mine[k] = mine.get(k, 0.0) + p


def odds_python(battle: B.Battle, eps: float = EPS) -> dict[str, float]:
    """The exact odds in plain Python (dicts), for small battles and as a second implementation
    of :mod:`engine.jc.odds_grid`.

    Raises IllegalMove if the battle cannot start (see :func:`battle.check_ready`).
    """
    b = _settled(battle)
    if b["phase"] == "over":
        return {r: float(r == b["result"]) for r in B.RESULTS}
    model, (a, d, flags), j0, acted = _build(b)
    res = [0.0, 0.0, 0.0, 0.0]
    dists = {int(bool(flags & SWAPPED)): _Dist(0, {(a << 2) | (flags & 3): {d: 1.0}})}
    for rnd in range(b["round"], LAST_ROUND + 1):
        if rnd > b["round"]:
            dists = _new_round(model, dists, rnd, res)
        steps = step_order(rnd, model.surprise)
        first = j0 if rnd == b["round"] else 0
        for j in range(first, len(steps)):
            if rnd == LAST_ROUND:
                dists = _settle_last_round(dists, res)
            skip = acted if rnd == b["round"] else set()     # no second turn this round
            dists = {sw: _step(model, dist, sw, rnd, steps, j, res, skip, eps)
                     for sw, dist in dists.items() if dist.rows}
    for sw, dist in dists.items():                  # J-6: attackers left after round 4
        res[WIN if sw else HOLD] += sum(p for row in dist.rows.values() for p in row.values())
    if res[DROPPED] > BUDGET and eps > 0.0:
        return odds_python(battle, 0.0)
    total = sum(res)
    return {r: res[i] / total for i, r in enumerate(B.RESULTS)}


def _settle_last_round(dists: dict[int, _Dist], res: list[float]) -> dict[int, _Dist]:
    """Round 4 (J-6): the side attacking now only retreats, so the side defending now can no
    longer lose a block (Cleopatra only changes side when hit). After the J-9 swap the original
    attacker defends: it wins whatever happens. Without the swap, once an attacking block has
    retreated the defender holds whatever happens. Only the rest needs the steps."""
    out: dict[int, _Dist] = {}
    for sw, dist in dists.items():
        if sw:
            res[WIN] += sum(p for row in dist.rows.values() for p in row.values())
            continue
        rows = {}
        for ok, row in dist.rows.items():
            if ok & A_RETREATED:
                res[HOLD] += sum(row.values())
            else:
                rows[ok] = row
        if rows:
            out[sw] = _Dist(dist.outer, rows)
    return out


def _terminal(res: list[float], emptied: int, flags: int, p: float) -> None:
    """Side ``emptied`` has no block left in the space (J-13)."""
    if emptied == 1:
        res[WIN] += p
    else:
        res[HOLD if flags & A_RETREATED else ELIM] += p


def _new_round(model: _Model, dists: dict[int, _Dist], rnd: int, res: list[float]
               ) -> dict[int, _Dist]:
    """Round start: Cleopatra's turn comes again; at round 2 reserves arrive (J-8), disrupted
    if their main force fell in round 1, and a disrupted defender swaps roles (J-9)."""
    out: dict[int, _Dist] = {0: _Dist(0, {}), 1: _Dist(0, {})}
    for sw, dist in dists.items():
        for a, d, flags, p in dist.states():
            flags &= ~CLEO_ACTED
            swapped = sw
            ids = [a, d]
            if rnd == 2:
                for s in (0, 1):
                    side, other = model.sides[s], model.sides[1 - s]
                    sub = side.subs[ids[s]]
                    if side.main_alive(sub) or not any(v and side.slots[i].reserve
                                                       for i, v in enumerate(sub)):
                        continue
                    cur, oth = list(sub), list(other.subs[ids[1 - s]])
                    for i, sl in enumerate(side.slots):
                        if cur[i] and sl.reserve:
                            if sl.cleopatra and cur[i] == 1:
                                oth[-1] = 1                # J-2: she joins the other side at I
                                if model.cleo_next_round:  # (and fights for it from round 3)
                                    flags |= CLEO_ACTED
                            cur[i] = sl.after_hit(cur[i])
                    ids[s], ids[1 - s] = side.id(tuple(cur)), other.id(tuple(oth))
                    if s == 1:
                        swapped = 1
                empty = [not any(model.sides[s].subs[ids[s]]) for s in (0, 1)]
                if empty[0] or empty[1]:
                    _terminal(res, 0 if empty[0] else 1, flags, p)
                    continue
            row = out[swapped].rows.setdefault((ids[0] << 2) | flags, {})
            row[ids[1]] = row.get(ids[1], 0.0) + p
    return {sw: d for sw, d in out.items() if d.rows}


def _step(model: _Model, dist: _Dist, swapped: int, rnd: int, steps: list[tuple[str, str]],
          j: int, res: list[float], skip: set[tuple[int, int]], eps: float) -> _Dist:
    """Every block of step ``j`` acts by the policy: fires, or retreats in round 4 (J-6)."""
    role, letter = steps[j]
    round1 = rnd == 1
    s = 0 if (role == "attacker") != bool(swapped) else 1            # the side acting now
    t = 1 - s
    idx = tuple(i for i in model.group(s, role, letter, round1) if (s, i) not in skip)
    cleo_step = model.cleo and letter == "C" and not (round1 and model.sides[0].slots[-1].reserve)
    if not idx and not cleo_step:
        return dist
    if dist.outer != s:
        dist = dist.transposed()
    retreat = role == "attacker" and rnd == LAST_ROUND
    catch_up = model.cleo and steps.index((role, "C")) <= j
    me = model.sides[s]
    fast = model.fasts.setdefault((t, round1), {})
    drop = 0.0
    out: dict[int, dict[int, float]] = {}
    for ok, row in dist.rows.items():
        sid, flags = ok >> 2, ok & 3
        cleo_acts = bool(cleo_step and not flags & CLEO_ACTED and me.subs[sid][-1] > 0)
        plan = _plan(model, s, sid, idx, cleo_acts, retreat)
        if plan is False:
            _merge(out, ok, row)
            continue
        f2 = flags | CLEO_ACTED if cleo_acts else flags
        if retreat:                                                    # plan = the new id
            if s == 0:
                f2 |= A_RETREATED
            if not any(me.subs[plan]):
                res[HOLD if s == 0 else WIN] += sum(row.values())
            else:
                _merge(out, (plan << 2) | f2, row)
            continue
        orow = out.setdefault((sid << 2) | f2, {})
        get = orow.get
        gone = 0.0                                                     # mass emptying side t
        fires = catch_up and not f2 & CLEO_ACTED and not model.cleo_next_round   # Cleopatra, if she joins
        crow: dict[int, float] | None = None                           # the row she joins into
        for tid, p in row.items():
            first, ids, emptied = fast.get(tid) or model.fast(t, tid, round1)
            ladder = None
            if ids is None:                                            # nobody to shoot at
                orow[tid] = get(tid, 0.0) + p
                continue
            for k, pk, tail in plan:                                   # most likely first
                q = p * pk
                if q < eps:
                    drop += p * tail
                    break
                if k < first:
                    nt = ids[k]
                    orow[nt] = get(nt, 0.0) + q
                    continue
                if emptied:
                    gone += q
                    continue
                if ladder is None:
                    ladder = model.ladder(t, tid, round1)
                last = len(ladder) - 1
                nt, left, empty = ladder[k if k < last else last]
                if empty:
                    _terminal(res, t, f2, q)
                elif left and not fires:                               # Cleopatra changes side
                    if crow is None:
                        okey2 = (model.join(s, sid) << 2) | f2 | (CLEO_ACTED if model.cleo_next_round else 0)
                        crow = out.get(okey2)
                        if crow is None:
                            crow = out[okey2] = {}
                    crow[nt] = crow.get(nt, 0.0) + q
                elif left:                                             # ... and fires at once
                    _cleo_joins(model, out, res, s, sid, nt, f2, q, round1, True)
                else:
                    orow[nt] = get(nt, 0.0) + q
        if gone:
            _terminal(res, t, f2, gone)
    res[DROPPED] += drop
    return _Dist(s, out)


def _cleo_joins(model: _Model, out: dict[int, dict[int, float]], res: list[float], s: int,
                sid: int, tid: int, flags: int, q: float, round1: bool, fires_now: bool) -> None:
    """Cleopatra left side ``1 - s`` for side ``s`` (J-2); if her turn for ``s`` is now or
    already passed this round, she fires at once (1 die, hits on 1)."""
    ns = model.join(s, sid)
    if not fires_now:
        row = out.setdefault((ns << 2) | flags, {})
        row[tid] = row.get(tid, 0.0) + q
        return
    flags |= CLEO_ACTED
    lad = model.ladder(1 - s, tid, round1)
    n2, _, e2 = lad[1] if len(lad) > 1 else lad[0]          # no target: her hit is lost
    row = out.setdefault((ns << 2) | flags, {})
    row[tid] = row.get(tid, 0.0) + q * 5.0 / 6.0
    if e2:
        _terminal(res, 1 - s, flags, q / 6.0)
    else:
        row[n2] = row.get(n2, 0.0) + q / 6.0


def _plan(model: _Model, s: int, sid: int, idx: tuple[int, ...], cleo_acts: bool,
          retreat: bool) -> Any:
    """What side ``s`` in state ``sid`` does in this step: ``False`` (nobody acts), the new id
    after a round-4 retreat, or the distribution of total hits as ``[(k, p), ...]``."""
    key = (s, sid, idx, cleo_acts, retreat)
    plan = model.plans.get(key)
    if plan is None:
        plan = model.plans[key] = _make_plan(model, s, sid, idx, cleo_acts, retreat)
    return plan


def _make_plan(model: _Model, s: int, sid: int, idx: tuple[int, ...], cleo_acts: bool,
               retreat: bool) -> Any:
    side = model.sides[s]
    sub = side.subs[sid]
    live = [i for i in idx if sub[i]]
    if not live and not cleo_acts:
        return False
    if retreat:
        cur = list(sub)
        for i in live:
            cur[i] = 0
        if cleo_acts:
            cur[-1] = 0
        return side.id(tuple(cur))
    dist = [1.0]
    for i in live:
        dist = _convolve(dist, _binom(sub[i], side.slots[i].fp))
    if cleo_acts:
        dist = _convolve(dist, _binom(sub[-1], side.slots[-1].fp))
    ranked = sorted(((pk, k) for k, pk in enumerate(dist) if pk > 0.0), reverse=True)
    plan = []
    tail = 0.0
    for pk, k in reversed(ranked):                  # tail: this and every less likely count
        tail += pk
        plan.append((k, pk, tail))
    plan.reverse()
    return plan


def rounded(result: dict[str, float], digits: int = 4) -> dict[str, float]:
    """The figures rounded for people."""
    return {k: round(v, digits) for k, v in result.items()}
