"""Auto-Crassus's placement priority (S-9..S-15) and tie-break lists (S-16, S-17, S-18).

:func:`decide` reads the game and returns one :class:`Decision` (or None when no token of the
row fits any empty space, S-19); it never changes the game except by drawing from ``rng`` when
a list ends in "random". One pass over the empty spaces gathers what every step needs.
"""
from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import NamedTuple, Protocol

from engine.caesar.board import (
    ADJ_CENTRAL, CENTRAL, ITALY, N_PROVINCES, N_SPACES, NEIGHBOURS, PROVINCE_SPACES,
    PROVINCES, SHIELD, SHIP, SLOTS, SPACE_A, SPACE_B, SPACE_ICON, SWORD,
)
from engine.caesar.model import CRASSUS, HUMAN, OPEN, TIES, Game
from engine.caesar.terms import point, province, space, token
from engine.caesar.tokens import TOKENS, TokenSpec
from engine.rng import Draws
from engine.caesar.text import N_, Msg

_ICONS = (SWORD, SHIELD, SHIP)
# Per token id: the token, its high value, the icons it fits, and whether the set has another one
# identical to it (the two wild 2/2).
_ROW = tuple((t, t.hi, tuple(icon for icon in _ICONS if t.mask & icon), sum(u.key == t.key for u in TOKENS) > 1)
             for t in TOKENS)
_A, _B, _ICON = SPACE_A, SPACE_B, SPACE_ICON
# Per province, its neighbours' entries of a per-province list (``ctrl``): S-13 and S-16's "next to a
# province he controls" is ``CRASSUS in _NEXT_OF[x](g.ctrl)``.
_NEXT_OF: tuple[Callable[[list[int]], tuple[int, ...]], ...] = tuple(
    itemgetter(*(nb for nb, _ in NEIGHBOURS[x])) for x in range(N_PROVINCES))
assert all(len(NEIGHBOURS[x]) > 1 for x in range(N_PROVINCES)), "a province with one neighbour: not a tuple"
# S-16, the rulebooks' province priority list (RU «Приоритет выбора провинции», UA «Вибір між
# доступними провінціями»), named by its words: the digest's IDs stay out of the sentences.
_S16_TEXT = (N_("province priority list: of {}, {} borders a province he controls"),
             N_("province priority list: of {}, {} holds the Senate bonus"),
             N_("province priority list: of {}, {} holds a Poison bonus"),
             N_("province priority list: of {}, {} is central"),
             N_("province priority list: of {}, {} borders a central province"))
# A level of S-16 that keeps several of the provinces that reached it: which it kept and which it
# dropped, so that the level that decides next is read among the ones that reached it.
_S16_SOME = (N_("province priority list: {kept} border a province he controls, not {dropped}"),
             N_("province priority list: {kept} hold a Senate bonus, not {dropped}"),
             N_("province priority list: {kept} hold a Poison bonus, not {dropped}"),
             N_("province priority list: {kept} are central, not {dropped}"),
             N_("province priority list: {kept} border a central province, not {dropped}"))
STEP_NAMES = {"S-9": "capture", "S-10": "close", "S-11": "defend", "S-12": "reinforce",
              "S-13": "expand", "S-14": "center", "S-15": "anywhere"}
Candidate = tuple[int, TokenSpec]   # (row index, token)
MAX_PLAYS = 64       # equally good plays listed at most (a list ending at random has a handful)


class Chooser(Protocol):
    """What the lists that end "at random" draw from: the game's ``crassus-ties`` stream when he
    plays, a given sequence of choices when the plays are only listed (:func:`plays`)."""

    def below(self, n: int) -> int: ...


class Decision(NamedTuple):
    """One Auto-Crassus placement: ``rule`` S-9..S-15 and its protocol ``step`` name; token
    ``tid`` (row position ``row_index``) on ``space`` with ``va``/``vb`` facing SPACE_A/SPACE_B;
    ``province`` the one the step aimed at; ``why`` one sentence naming the rulebook's point of
    the priority list in words, with the tie-break lists used (kept as ``reason``, format
    strings and their values, and written out when read)."""

    rule: str
    space: int
    tid: int
    row_index: int
    va: int
    vb: int
    province: int
    reason: tuple[Msg, ...]

    @property
    def why(self) -> Msg:
        """The step's sentence and the tie-break notes, one Msg (said in any language)."""
        main, *notes = self.reason
        out = main
        for note in notes:
            out = Msg("{}; {}", out, note)
        return Msg("{}.", out)

    @property
    def step(self) -> str:
        return STEP_NAMES[self.rule]

    def toward(self) -> dict[str, int]:
        return {PROVINCES[SPACE_A[self.space]]: self.va, PROVINCES[SPACE_B[self.space]]: self.vb}

    def text(self) -> Msg:
        """``Place sword 5/1 on Sicilia–Italia, 5 toward Sicilia``."""
        a = SPACE_A[self.space]
        facing = self.va if self.province == a else self.vb
        return Msg("Place {} on {}, {} toward {}", token(self.tid), space(self.space), facing,
                   province(self.province))

    def item(self) -> Msg:
        """The play as an item of a list inside a sentence: ``sword 5/1 on Sicilia–Italia, 5 toward
        Sicilia`` (no verb, no capital)."""
        a = SPACE_A[self.space]
        facing = self.va if self.province == a else self.vb
        return Msg("{} on {}, {} toward {}", token(self.tid), space(self.space), facing, province(self.province))


def decide(g: Game, rng: Chooser | Draws) -> Decision | None:
    """Auto-Crassus's next placement from his row (S-8..S-18); None if he has none (S-19).
    Ties between equally good plays are drawn from ``rng`` (the game's draws: their
    ``crassus-ties`` stream).

    A token fits a space by its icon alone, so the row is sorted by icon once; the game keeps,
    per province, the icons of its empty spaces and how many of his tokens touch it, so the
    highest value he can place facing each open province (``best``), the spaces that would
    close one, and the provinces his tokens touch take one look at each province."""
    if isinstance(rng, Draws):
        rng = rng.stream(TIES)
    row = g.hand[CRASSUS]
    if not row:
        return None
    by_icon: list[list[Candidate]] = [[], [], [], [], []]     # indexed by icon bit 1, 2, 4
    top = [-1, -1, -1, -1, -1]
    seen: set[int] = set()
    for i, tid in enumerate(row):
        spec, hi, fits, twinned = _ROW[tid]
        if twinned:                  # identical tokens: the leftmost stands for both (S-18)
            if spec.key in seen:
                continue
            seen.add(spec.key)
        t = (i, spec)
        for icon in fits:
            by_icon[icon].append(t)
            if hi > top[icon]:
                top[icon] = hi
    t1, t2, t4 = top[SWORD], top[SHIELD], top[SHIP]
    t12 = t1 if t1 > t2 else t2
    by_mask = (-1, t1, t2, t12, t4, t1 if t1 > t4 else t4, t2 if t2 > t4 else t4, t12 if t12 > t4 else t4)
    owner, empty, emask, ctrl = g.owner, g.empty, g.emask, g.ctrl
    closing: list[tuple[int, int]] = []      # (space, open province it closes), by province
    x = -1
    for _ in range(empty.count(1)):          # the provinces with one empty space, found in C
        x = empty.index(1, x + 1)
        if ctrl[x] == OPEN and by_mask[emask[x]] >= 0:
            for s in PROVINCE_SPACES[x]:
                if owner[s] < 0:
                    closing.append((s, x))
    d = _Decider(g, rng, by_icon, top)
    if closing:
        found = d.capture(closing) or d.close(closing)
        if found:
            return found
        if d.barred:       # S-10 passed over, said: a later point, read as printed, may close it all the same
            d.notes.append(Msg("{point} passed over: if he closes the province {provs}, you win",
                               plural="{point} passed over: if he closes the provinces {provs}, you win",
                               n=len(d.barred), point=point("close"), provs=_names(d.barred)))
    d.best = best = [by_mask[m] if c == OPEN else -1 for m, c in zip(emask, ctrl)]  # noqa: B905 (both 18 long)
    if not closing and max(best) < 0 and not any(owner[s] < 0 and top[_ICON[s]] >= 0 for s in range(N_SPACES)):
        return None         # (a closing space is an open province's: best >= 0 there)
    return (d.defend() or d.reinforce() or d.expand()
            or d.centre() or d.anywhere())


class _Given:
    """A :class:`Chooser` that draws nothing: the ``k``-th choice is ``path[k]`` (0 past its end);
    ``sizes`` records how many there were to choose from each time."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.sizes: list[int] = []

    def below(self, n: int) -> int:
        k = len(self.sizes)
        self.sizes.append(n)
        return self.path[k] if k < len(self.path) else 0


def plays(g: Game) -> list[Decision]:
    """Every play Auto-Crassus may make now, drawing nothing (issue 20: nothing before the end may
    predict a draw): one play when the lists decide it; when a list ends "at random" (S-16, S-17,
    or the Ukrainian rulebook's S-14/S-15 ties), each of the equally good plays once, in the
    board's order (the draw that picks one happens when he plays). [] when no token of his row
    fits (S-19)."""
    found: dict[tuple[int, int, int, int], Decision] = {}
    todo: list[list[int]] = [[]]
    while todo and len(found) < MAX_PLAYS:
        path = todo.pop()
        given = _Given(path)
        d = decide(g, given)
        if d is None:
            return []
        found.setdefault((d.space, d.tid, d.va, d.vb), d)
        for j in range(len(path), len(given.sizes)):      # the choices past the path were 0: the others
            todo += [path + [0] * (j - len(path)) + [k] for k in range(1, given.sizes[j])]
    return sorted(found.values(), key=lambda d: (d.space, d.province, d.tid, d.va))


def _names(xs: list[int] | tuple[int, ...]) -> tuple[Msg, ...]:
    """Province names as a list value of a Msg (joined with commas)."""
    return Msg.join([province(x) for x in xs])


def _spaces(ss: list[int]) -> tuple[Msg, ...]:
    """Spaces as a list value of a Msg (joined with commas)."""
    return Msg.join([space(s) for s in ss])


def _barred(xs: list[int]) -> Msg | str:
    """S-10: the provinces skipped because closing them would make you win."""
    if not xs:
        return ""
    return Msg(" (closing {} would make you win)", _names(xs))


def _lead(n: int) -> Msg:
    if n > 0:
        return Msg("he leads by {}", n)
    return Msg("level") if n == 0 else Msg("he trails by {}", -n)


class _Decider:
    """One decision: the shared facts and the tie-break notes for ``why``."""

    __slots__ = ("g", "rng", "by_icon", "top", "best", "h", "c", "notes", "barred")

    def __init__(self, g: Game, rng: Chooser, by_icon: list[list[Candidate]], top: list[int]) -> None:
        self.g, self.rng, self.by_icon, self.top = g, rng, by_icon, top
        self.best: list[int] = []       # per province, his highest value that can face it (-1: none),
        #                                 set once no closing placement is chosen (S-11..S-15 read it)
        self.h, self.c = g.inf[HUMAN], g.inf[CRASSUS]
        self.notes: list[Msg] = []
        self.barred: list[int] = []     # S-10: the provinces he could close but for your win (C-12)

    # -- S-9 / S-10: closing placements ------------------------------------------------------
    def capture(self, closing: list[tuple[int, int]]) -> Decision | None:
        """S-9: a placement that closes a province he then controls (ties his, S-8); face it
        with the lowest value that still captures."""
        if not closing:
            return None
        h, c, by_icon = self.h, self.c, self.by_icon
        need_v: dict[int, tuple[int, int]] = {}      # province -> (lowest capturing value, space)
        for s, x in closing:
            need = h[x] - c[x]
            low = 99
            for _, t in by_icon[_ICON[s]]:
                lo = t.lo
                if need <= lo < low:
                    low = lo
                elif need <= t.hi < low:
                    low = t.hi
            if low < 99:
                need_v[x] = (low, s)
        if not need_v:
            return None
        x = self.pick_province(sorted(need_v))
        v, s = need_v[x]
        i, spec = self.pick_token([t for t in by_icon[_ICON[s]] if t[1].lo == v or t[1].hi == v], low_total=True)
        mine = c[x] + v
        if mine == h[x]:
            why = Msg("{point}: this closes {prov}, you {you}, he {him}, and he wins it (he always wins ties); "
                      "{v} is the lowest value that still captures",
                      point=point("capture"), prov=province(x), you=h[x], him=mine, v=v)
        else:
            why = Msg("{point}: this closes {prov}, you {you}, he {him}, and he wins it; {v} is the lowest value "
                      "that still captures", point=point("capture"), prov=province(x), you=h[x], him=mine, v=v)
        return self.make("S-9", s, i, spec, x, v, why)

    def close(self, closing: list[tuple[int, int]]) -> Decision | None:
        """S-10: a placement that closes a province he does not win, unless that closure would
        make you win (C-12); face it with the lowest value."""
        if not closing:
            return None
        g, h, c, by_icon = self.g, self.h, self.c, self.by_icon
        per_space: dict[int, list[int]] = {}
        for s, x in closing:
            if s in per_space:
                per_space[s].append(x)
            else:
                per_space[s] = [x]
        low_v: dict[int, tuple[int, int]] = {}
        barred: list[int] = []
        markers = g.markers[HUMAN]
        for s, provs in per_space.items():
            if self.human_markers(provs, s) >= markers:
                barred.extend(provs)
                continue
            low = min([t.lo for _, t in by_icon[_ICON[s]]])
            for x in provs:
                low_v[x] = (low, s)
        if not low_v:
            self.barred = sorted(set(barred))
            return None
        x = self.pick_province(sorted(low_v))
        v, s = low_v[x]
        i, spec = self.pick_token([t for t in by_icon[_ICON[s]] if t[1].lo == v], low_total=True)
        why = Msg("{point}: he can capture nothing; this closes {prov}, you {you}, he {him}: you win it, and the "
                  "game goes on{barred}; he faces it with his lowest value, {v}", point=point("close"),
                  prov=province(x), you=h[x], him=c[x] + v, barred=_barred(sorted(set(barred))), v=v)
        return self.make("S-10", s, i, spec, x, v, why)

    def human_markers(self, closing: list[int], s: int) -> int:
        """Markers you would place if you won every province in ``closing`` (C-9, C-10)."""
        g = self.g
        bmark, ctrl, cflip = g.bmark, g.ctrl, g.cflip
        n = 0
        border: set[int] = set()
        for x in closing:
            n += SLOTS[x]
            for nb, sp in NEIGHBOURS[x]:
                if bmark[sp] >= 0:
                    continue
                if (ctrl[nb] == HUMAN and not cflip[nb]) or (nb in closing and sp == s):
                    border.add(sp)
        return n + len(border)

    # -- S-11..S-15: the highest value in a chosen province ------------------------------------
    def defend(self) -> Decision | None:
        """S-11: you lead in an open province where he can place (option defend=all: only if
        he trails in every open province); the largest lead, highest value."""
        g, h, c = self.g, self.h, self.c
        if g.rules["defend"] == "all":
            opens = [x for x in range(N_PROVINCES) if g.ctrl[x] == OPEN]
            if not opens or any(h[x] <= c[x] for x in opens):
                return None
        best = self.best
        top, cands = 0, []
        for y in range(N_PROVINCES):
            lead = h[y] - c[y]
            if lead > 0 and best[y] >= 0:
                if lead > top:
                    top, cands = lead, [y]
                elif lead == top:
                    cands.append(y)
        if not cands:
            return None
        x = self.pick_province(cands)
        if g.rules["defend"] == "all":
            why = Msg("{point}: he has less influence in every open province; your largest lead where he can "
                      "place is in {prov}, by {lead}; he faces it with his highest value",
                      point=point("defend"), prov=province(x), lead=top)
        else:
            why = Msg("{point}: you lead in {prov} by {lead}, your largest lead where he can place; he faces it "
                      "with his highest value", point=point("defend"), prov=province(x), lead=top)
        return self.highest("S-11", x, why)

    def reinforce(self) -> Decision | None:
        """S-12: his tokens touch two or more open provinces; the one closest to winning
        (fewest empty spaces, then his largest lead, then S-16); highest value. The reason says
        which of these decided: the only one where he can place, the fewest empty spaces (among
        those where he can), his best standing among those with the fewest, or neither (both
        leave several: the province list's notes follow)."""
        g, h, c = self.g, self.h, self.c
        touch, ctrl = g.touch[CRASSUS], g.ctrl
        touched = [x for x in range(N_PROVINCES) if touch[x] and ctrl[x] == OPEN]
        if len(touched) < 2:
            return None
        cands = [x for x in touched if self.best[x] >= 0]
        if not cands:
            return None
        fewest = min(g.empty[x] for x in cands)
        tied = [x for x in cands if g.empty[x] == fewest]
        lead = max(c[x] - h[x] for x in tied)
        kept = [x for x in tied if c[x] - h[x] == lead]
        x = self.pick_province(kept)
        # the provinces his tokens touch that take none of his row, though as close to closing as
        # the ones the sentence weighs: said, else «closest to winning» reads false beside them
        shut = [y for y in touched if self.best[y] < 0 and g.empty[y] <= fewest]
        if shut and len(cands) > 1:
            self.notes.insert(0, Msg("none of his row's tokens fits an empty space of {provs}",
                                     plural="none of his row's tokens fits an empty space of {provs}",
                                     n=len(shut), provs=_names(shut)))
        pt, n = point("reinforce"), len(touched)
        if len(cands) == 1:
            why = Msg("{point}: his tokens touch {touched} open provinces, and he can place only in {where}; he "
                      "places his highest value there", point=pt, touched=n, where=province(x))
        elif len(tied) == 1:
            why = Msg("{point}: his tokens touch {touched} open provinces; {where} is closest to winning: {n} empty "
                      "space left, more in {others}; he places his highest value there",
                      plural="{point}: his tokens touch {touched} open provinces; {where} is closest to winning: {n} "
                             "empty spaces left, more in {others}; he places his highest value there",
                      n=fewest, point=pt, touched=n, where=province(x), others=_names([y for y in cands if y != x]))
        elif len(kept) == 1:
            why = Msg("{point}: his tokens touch {touched} open provinces; {tied} have the fewest empty spaces ({n} "
                      "each), and {where} is closest to winning: he stands best there ({lead}); he places his "
                      "highest value there", point=pt, touched=n, tied=_names(tied), n=fewest,
                      where=province(x), lead=_lead(lead))
        elif len(kept) == len(tied):
            why = Msg("{point}: his tokens touch {touched} open provinces; {tied} have the fewest empty spaces ({n} "
                      "each) and he stands the same in each ({lead}); he places his highest value in {where}",
                      point=pt, touched=n, tied=_names(tied), n=fewest, lead=_lead(lead), where=province(x))
        else:
            why = Msg("{point}: his tokens touch {touched} open provinces; {tied} have the fewest empty spaces ({n} "
                      "each); he stands best in {kept} ({lead}), not {dropped}; he places his highest value in "
                      "{where}", point=pt, touched=n, tied=_names(tied), n=fewest, kept=_names(kept),
                      lead=_lead(lead), dropped=_names([y for y in tied if y not in kept]), where=province(x))
        return self.highest("S-12", x, why)

    def expand(self) -> Decision | None:
        """S-13: a province next to one he controls, where the highest value can go."""
        g = self.g
        ctrl = g.ctrl
        cands = [x for x in range(N_PROVINCES) if self.best[x] >= 0 and CRASSUS in _NEXT_OF[x](ctrl)]
        if not cands:
            return None
        top = max(self.best[x] for x in cands)
        x = self.pick_province([y for y in cands if self.best[y] == top])
        his = [nb for nb, _ in NEIGHBOURS[x] if g.ctrl[nb] == CRASSUS]
        why = Msg("{point}: {prov} borders {his}, which he controls, and takes his highest value there ({v})",
                  plural="{point}: {prov} borders {his}, which he controls, and takes his highest value there ({v})",
                  n=len(his), point=point("expand"), prov=province(x), his=_names(his), v=top)
        return self.highest("S-13", x, why)

    def centre(self) -> Decision | None:
        """S-14: a central province where the highest value can go; among several Italy, else
        S-16 (option ties=random: at random)."""
        cands = [x for x in range(N_PROVINCES) if CENTRAL[x] and self.best[x] >= 0]
        if not cands:
            return None
        top = max(self.best[x] for x in cands)
        cands = [y for y in cands if self.best[y] == top]
        if ITALY in cands and len(cands) > 1:
            self.notes.append(Msg("among central provinces {} comes first", province(ITALY)))
            x = ITALY
        else:
            x = self.pick_province(cands, random_ok=True)
        why = Msg("{point}: {prov} is central and takes his highest value there ({v})",
                  point=point("center"), prov=province(x), v=top)
        return self.highest("S-14", x, why)

    def anywhere(self) -> Decision | None:
        """S-15: the province where the highest value can go; ties by S-16 (or at random)."""
        cands = [x for x in range(N_PROVINCES) if self.best[x] >= 0]
        if not cands:
            return None
        top = max(self.best[x] for x in cands)
        x = self.pick_province([y for y in cands if self.best[y] == top], random_ok=True)
        why = Msg("{point}: {prov} takes his highest value ({v})", point=point("anywhere"), prov=province(x), v=top)
        return self.highest("S-15", x, why)

    def highest(self, rule: str, x: int, why: Msg) -> Decision:
        """Face ``x`` with the highest value: space by S-17, token by S-18 (highest total)."""
        v = self.best[x]
        owner, top = self.g.owner, self.top
        if rule in ("S-11", "S-12") and v < max(top):
            # «туда он кладёт жетон с максимальным значением» beside a higher number of his row that
            # fits none of the province's empty spaces: the value is said (S-13..S-15 say it already)
            self.notes.insert(0, Msg("{} is the highest value of his that fits there", v))
        spaces = [s for s in PROVINCE_SPACES[x] if owner[s] < 0 and top[_ICON[s]] == v]
        s = self.pick_space(x, spaces)
        i, spec = self.pick_token([t for t in self.by_icon[_ICON[s]] if t[1].hi == v], low_total=False)
        return self.make(rule, s, i, spec, x, v, why)

    # -- tie-break lists -----------------------------------------------------------------------
    def pick_province(self, cands: list[int], random_ok: bool = False) -> int:
        """S-16: next to a province he controls; Senate bonus; Poison bonus (with Poison);
        central; next to a central province; random. ``random_ok`` with ``ties=random``
        (UA reading of S-14/S-15) skips the list. Each level that drops some of the provinces
        that reached it is said: the one that keeps one names those that reached it, one that
        keeps several names the kept and the dropped."""
        if len(cands) == 1:
            return cands[0]
        g = self.g
        if random_ok and g.rules["ties"] == "random":
            x = cands[self.rng.below(len(cands))]
            self.notes.append(Msg("{} at random among {}, as the Ukrainian rulebook says", province(x),
                                  _names(cands)))
            return x
        ctrl, bonus = g.ctrl, g.bonus
        for k in range(5):
            if k == 0:
                keep = [y for y in cands if CRASSUS in _NEXT_OF[y](ctrl)]
            elif k == 1:
                keep = [y for y in cands if bonus[y] == "senate"]
            elif k == 2:
                keep = [y for y in cands if bonus[y] == "poison"] if g.poison else []
            elif k == 3:
                keep = [y for y in cands if CENTRAL[y]]
            else:
                keep = [y for y in cands if ADJ_CENTRAL[y]]
            if keep and len(keep) < len(cands):
                if len(keep) == 1:
                    self.notes.append(Msg(_S16_TEXT[k], _names(cands), province(keep[0])))
                    return keep[0]
                self.notes.append(Msg(_S16_SOME[k], kept=_names(keep),
                                      dropped=_names([y for y in cands if y not in keep])))
                cands = keep
        x = cands[self.rng.below(len(cands))]
        self.notes.append(Msg("province priority list: {} at random among {}", province(x), _names(cands)))
        return x

    def pick_space(self, x: int, spaces: list[int]) -> int:
        """S-17: the space whose other province is where he trails most (open provinces only);
        then one touching a central province; then random."""
        if len(spaces) == 1:
            return spaces[0]
        g, h, c = self.g, self.h, self.c

        def trail(s: int) -> int:
            o = SPACE_B[s] if SPACE_A[s] == x else SPACE_A[s]
            return max(h[o] - c[o], 0) if g.ctrl[o] == OPEN else 0

        top = max(trail(s) for s in spaces)
        keep = [s for s in spaces if trail(s) == top]
        if len(keep) < len(spaces):
            if len(keep) == 1:
                o = SPACE_B[keep[0]] if SPACE_A[keep[0]] == x else SPACE_A[keep[0]]
                self.notes.append(Msg("space priority list: {space}, next to {prov}, where he trails most (by {lead})",
                                      space=space(keep[0]), lead=top, prov=province(o)))
                return keep[0]
            self.notes.append(Msg("space priority list: {kept} are next to provinces where he trails most (by {lead}), "
                                  "not {dropped}", kept=_spaces(keep), lead=top,
                                  dropped=_spaces([s for s in spaces if s not in keep])))
            spaces = keep
        central = [s for s in spaces if CENTRAL[SPACE_B[s] if SPACE_A[s] == x else SPACE_A[s]]]
        if central and len(central) < len(spaces):
            if len(central) == 1:
                self.notes.append(Msg("space priority list: {} touches a central province", space(central[0])))
                return central[0]
            self.notes.append(Msg("space priority list: {kept} touch a central province, not {dropped}",
                                  kept=_spaces(central), dropped=_spaces([s for s in spaces if s not in central])))
            spaces = central
        s = spaces[self.rng.below(len(spaces))]
        self.notes.append(Msg("space priority list: {} at random among {}", space(s), _spaces(spaces)))
        return s

    def pick_token(self, cands: list[Candidate], low_total: bool) -> Candidate:
        """S-18: a non-wild before a wild; then the highest total (lowest in S-9/S-10); then the
        leftmost in the row (said too when the token has an identical twin further right: the
        leftmost stood for both, see :func:`decide`)."""
        pool2 = cands
        if len(cands) > 1:
            plain = [t for t in cands if not t[1].wild]
            pool = plain or cands
            if plain and len(plain) < len(cands):
                self.notes.append(Msg("token priority list: a non-wild token before a wild one"))
            key = (min if low_total else max)(t[1].total for t in pool)
            pool2 = [t for t in pool if t[1].total == key]
            if len(pool2) < len(pool):
                self.notes.append(Msg("token priority list: the lowest total, {}", key) if low_total
                                  else Msg("token priority list: the highest total, {}", key))
        chosen = min(pool2, key=lambda t: t[0])
        spec = chosen[1]
        if len(pool2) > 1 or (_ROW[spec.tid][3]
                              and sum(TOKENS[t].key == spec.key for t in self.g.hand[CRASSUS]) > 1):
            self.notes.append(Msg("token priority list: the leftmost in his row"))
        return chosen

    def make(self, rule: str, s: int, i: int, spec: TokenSpec, x: int, v: int,
             why: Msg) -> Decision:
        """Orient the token with ``v`` facing ``x``; the reason is the step's sentence and the
        tie-break notes."""
        other = spec.lo if v == spec.hi else spec.hi
        va, vb = (v, other) if SPACE_A[s] == x else (other, v)
        return Decision(rule, s, spec.tid, i, va, vb, x, (why, *self.notes))
