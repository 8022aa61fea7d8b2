"""Placement, closure, control, markers and bonuses (C-3, C-7..C-18, C-21, S-8, S-20).

Every function works on a :class:`~engine.caesar.model.Game` in place and returns *steps*: plain
dicts with ``action`` (``close`` or ``bonus``), the facts, and a ``text`` sentence, in the order
things happen at the table. Input checks live in :mod:`engine.caesar.flow`; these functions
assume a legal request.
"""
from __future__ import annotations

from typing import Any

from engine.caesar.board import (
    BORDER_CONTROL, ITALY, N_SPACES, NEIGHBOURS, PROVINCE_INDEX, PROVINCE_SPACES, PROVINCES, SLOTS,
    SPACE_A, SPACE_B, SPACE_ICON, SPACES,
)
from engine.caesar.board import SPACE_INDEX as SPACE_INDEX_OF
from engine.caesar.model import CRASSUS, NONE, OPEN, POISON, Game
from engine.caesar.terms import REMOVED_HARDER_WORDS, REMOVED_WORDS, player, province, space, token
from engine.caesar.tokens import TOKENS
from engine.caesar.text import N_, Msg
from engine.caesar.views import PositionView

Step = dict[str, Any]


# -- placement -------------------------------------------------------------------------------
def fits(tid: int, s: int) -> bool:
    """C-3: the token's icon matches the space (wild: any; shield+ship: shield or ship)."""
    return bool(TOKENS[tid].mask & SPACE_ICON[s])


def can_play_face_down(g: Game, p: int, s: int) -> bool:
    """C-21: with Border control, a human player may fill an empty double-bordered space face
    down with any token (S-7: never Auto-Crassus)."""
    return g.border_control and BORDER_CONTROL[s] and g.owner[s] < 0 and not g.is_bot(p)


def placements(g: Game, p: int) -> list[tuple[int, int, int, int]]:
    """Every distinct legal face-up placement of player ``p``'s hand (C-3): ``(tid, space,
    value toward A, value toward B)``; identical tokens appear once, symmetric ones once."""
    out: list[tuple[int, int, int, int]] = []
    seen: set[str] = set()
    owner = g.owner
    empties = [s for s in range(N_SPACES) if owner[s] < 0]
    for tid in g.hand[p]:
        spec = TOKENS[tid]
        if spec.name in seen:
            continue
        seen.add(spec.name)
        mask, hi, lo = spec.mask, spec.hi, spec.lo
        for s in empties:
            if mask & SPACE_ICON[s]:
                out.append((tid, s, hi, lo))
                if hi != lo:
                    out.append((tid, s, lo, hi))
    return out


def has_placement(g: Game, p: int) -> bool:
    """True if player ``p`` can place some token now (face up, or face down under C-21)."""
    hand = g.hand[p]
    if not hand:
        return False
    masks = 0
    for tid in hand:
        masks |= TOKENS[tid].mask
    for s in range(N_SPACES):
        if g.owner[s] < 0 and (masks & SPACE_ICON[s] or can_play_face_down(g, p, s)):
            return True
    return False


def board_full(g: Game) -> bool:
    """Every border space holds a token: nobody can place any more (C-12, S-19)."""
    return -1 not in g.owner


def put(g: Game, p: int, s: int, tid: int, va: int, vb: int, down: bool) -> None:
    """Lay token ``tid`` of ``p`` on empty space ``s`` (``va``/``vb`` face SPACE_A/SPACE_B)."""
    g.owner[s], g.tok[s], g.va[s], g.vb[s], g.down[s] = p, tid, va, vb, int(down)
    a, b = SPACE_A[s], SPACE_B[s]
    g.empty[a] -= 1
    g.empty[b] -= 1
    g.touch[p][a] += 1
    g.touch[p][b] += 1
    owner = g.owner
    for x in (a, b):
        m = 0
        for t in PROVINCE_SPACES[x]:
            if owner[t] < 0:
                m |= SPACE_ICON[t]
        g.emask[x] = m
    if not down:
        g.inf[p][a] += va
        g.inf[p][b] += vb


def tie_winner(g: Game, closer: int) -> int:
    """C-9 tie: nobody, except S-8 (Auto-Crassus wins ties on his own plays; option
    ``crassus-ties=all``: on every closure)."""
    if g.solo and (closer == CRASSUS or g.rules["crassus-ties"] == "all"):
        return CRASSUS
    return NONE


# -- markers ---------------------------------------------------------------------------------
def win(g: Game, p: int, reason: Msg) -> None:
    """End the game: ``p`` wins (C-12). ``g.end`` is the reason (a Msg)."""
    g.winner = p
    g.step = "over"
    g.end = reason
    g.pending = []


def take_markers(g: Game, p: int, n: int) -> int:
    """Use up to ``n`` of ``p``'s markers; returns how many. C-12: placing the last one wins at
    once (the caller stops when ``g.over``)."""
    k = min(n, g.markers[p])
    g.markers[p] -= k
    if g.markers[p] == 0 and k:
        win(g, p, said(g, p, N_("You placed your last control marker and win."),
                       N_("{who} placed his last control marker and wins.")))
    return k


def label(g: Game, p: int) -> Msg:
    """'You'/'Crassus' in solo, 'Caesar'/'Pompey' in a duel."""
    return player(g.names[p])


def said(g: Game, p: int, you: str, other: str, *args: Any, **kwargs: Any) -> Msg:
    """The sentence ``you`` when ``p`` is you (solo), else ``other`` with ``{who}`` = the player's
    name: verbs agree in every language (``You place`` / ``Crassus places``)."""
    if g.solo and p == 0:
        return Msg(you, *args, **kwargs)
    return Msg(other, *args, who=label(g, p), **kwargs)


def pname(g: Game, p: int) -> str:
    """The protocol name of player ``p`` (``human``/``crassus`` or ``caesar``/``pompey``)."""
    return g.names[p] if p >= 0 else "none"


# -- closure ---------------------------------------------------------------------------------
def close_after(g: Game, p: int, s: int, extra_bonus: str = "") -> list[Step]:
    """Resolve everything after ``p`` placed on ``s``: C-7 closures, C-8 bonuses taken, C-9
    control (Italy 2 markers), C-10 border markers (active player first), then C-11 bonuses
    (``extra_bonus``: the face-down bonus of C-21, used first). Stops when someone wins."""
    steps: list[Step] = []
    closed = [x for x in (SPACE_A[s], SPACE_B[s]) if g.empty[x] == 0 and g.ctrl[x] == OPEN]
    taken: list[tuple[str, int]] = []
    winners: dict[int, int] = {}
    for x in closed:
        if g.bonus[x]:
            taken.append((g.bonus[x], x))
            g.bonus[x] = ""
        mine, theirs = g.inf[p][x], g.inf[1 - p][x]
        w = p if mine > theirs else (1 - p) if theirs > mine else tie_winner(g, p)
        winners[x] = w
        g.ctrl[x] = w
    order = ([x for x in closed if winners[x] == p] + [x for x in closed if winners[x] == 1 - p]
             + [x for x in closed if winners[x] == NONE])
    for x in order:
        steps.append(_control_step(g, p, x, winners[x], _bonus_of(taken, x)))
        if g.over:
            return steps
    bonuses = ([(extra_bonus, -1)] if extra_bonus else []) + _senate_order(taken, winners, p)
    for bonus, x in bonuses:
        steps.append(use_bonus(g, p, bonus, x))
        if g.over:
            break
    return steps


def _senate_order(taken: list[tuple[str, int]], winners: dict[int, int], p: int) -> list[tuple[str, int]]:
    """C-16 with two Senate tokens taken at once: the one of a province ``p`` did not win goes on
    the track first, so the one that brings markers counts both («равное общему количеству жетонов
    Сената у вас (включая тот, что вы только что получили)»; UA «скільки маєте жетонів Сенату»).
    The other bonuses keep their places."""
    senates = sorted((b for b in taken if b[0] == "senate"), key=lambda b: winners.get(b[1]) == p)
    return [senates.pop(0) if b[0] == "senate" else b for b in taken]


def _bonus_of(taken: list[tuple[str, int]], x: int) -> str:
    for bonus, y in taken:
        if y == x:
            return bonus
    return ""


def _control_step(g: Game, closer: int, x: int, w: int, bonus: str) -> Step:
    """C-9/C-10 for one closed province: the winner's markers on it, then border markers."""
    totals = {pname(g, 0): g.inf[0][x], pname(g, 1): g.inf[1][x]}
    step: Step = {"action": "close", "province": PROVINCES[x], "by": pname(g, closer),
                  "totals": totals, "winner": pname(g, w), "markers": 0, "border_markers": [],
                  "bonus": bonus or None}
    if w == NONE:
        step["text"] = _closed_text(g, x, w, 0)
        return step
    placed = take_markers(g, w, SLOTS[x])
    g.slots[x] = placed
    step["markers"] = placed
    if not g.over:
        for nb, sp in NEIGHBOURS[x]:
            if g.ctrl[nb] == w and not g.cflip[nb] and g.bmark[sp] < 0:
                if take_markers(g, w, 1):
                    g.bmark[sp] = w
                    step["border_markers"].append(SPACES[sp])
                if g.over:
                    break
    text = _closed_text(g, x, w, placed)
    if x == ITALY and placed == 2:
        text = Msg("{} {}", text, Msg("Italy takes one on each of its two slots."))
    if step["border_markers"]:
        where = Msg.join([space(SPACE_INDEX_OF[b]) for b in step["border_markers"]])
        n = len(step["border_markers"])
        text = Msg("{} {}", text, Msg("One more control marker goes on the border {where}.",
                                      plural="One more control marker goes on each of the borders {where}.",
                                      n=n, where=where))
    step["text"] = text
    return step


def _closed_text(g: Game, x: int, w: int, placed: int) -> Msg:
    """C-9 for one closed province, as whole sentences: both totals in one order everywhere (you
    first in solo, Caesar first in a duel), who wins it and how many control markers go there."""
    a, b, name = g.inf[0][x], g.inf[1][x], province(x)
    if g.solo:
        if w == NONE:
            return Msg("{name} is closed in a tie, you {a}, Crassus {b}: nobody controls it.", name=name, a=a, b=b)
        if w == 0:
            return Msg("{name} is closed, you {a}, Crassus {b}: you win it and place {n} control marker there.",
                       plural="{name} is closed, you {a}, Crassus {b}: you win it and place {n} control markers "
                              "there.", name=name, a=a, b=b, n=placed)
        if a == b:
            return Msg("{name} is closed, you {a}, Crassus {b}: Crassus wins it (he always wins ties) and places "
                       "{n} control marker there.",
                       plural="{name} is closed, you {a}, Crassus {b}: Crassus wins it (he always wins ties) and "
                              "places {n} control markers there.", name=name, a=a, b=b, n=placed)
        return Msg("{name} is closed, you {a}, Crassus {b}: Crassus wins it and places {n} control marker there.",
                   plural="{name} is closed, you {a}, Crassus {b}: Crassus wins it and places {n} control markers "
                          "there.", name=name, a=a, b=b, n=placed)
    if w == NONE:
        return Msg("{name} is closed in a tie, Caesar {a}, Pompey {b}: nobody controls it.", name=name, a=a, b=b)
    return Msg("{name} is closed, Caesar {a}, Pompey {b}: {who} wins it and places {n} control marker there.",
               plural="{name} is closed, Caesar {a}, Pompey {b}: {who} wins it and places {n} control markers "
                      "there.", name=name, a=a, b=b, n=placed, who=label(g, w))


# -- bonuses ---------------------------------------------------------------------------------
def might_targets(g: Game, p: int) -> tuple[list[int], list[int]]:
    """C-15 targets for ``p``: the opponent's face-up influence tokens (spaces) and unflipped
    control markers (provinces)."""
    o = 1 - p
    spaces = [s for s in range(N_SPACES) if g.owner[s] == o and not g.down[s]]
    provs = [x for x in range(len(g.ctrl)) if g.ctrl[x] == o and not g.cflip[x]]
    return spaces, provs


def flip_changes(pos: PositionView, target: str) -> bool:
    """C-15: whether flipping ``target`` (a space's token or a province's control marker, as
    ``might`` names them) can change anything. A flipped token counts 0/0 from then on: that
    changes the influence of a province still open it faces with more than 0 (a province already
    closed keeps its control, the rulebook's own note; the provinces a token touches stay touched,
    S-12). A flipped control marker gives no border markers (C-10): only a neighbour still open can
    close and give one."""
    closed = pos["control"]
    if target in SPACE_INDEX_OF:
        toward = pos["spaces"][SPACES[SPACE_INDEX_OF[target]]]["toward"]
        return any(v > 0 and prov not in closed for prov, v in toward.items())
    return any(PROVINCES[nb] not in closed for nb, _s in NEIGHBOURS[PROVINCE_INDEX[target]])


def flip_token(g: Game, s: int) -> None:
    """C-15: the token on ``s`` goes face down and counts 0/0 from now on."""
    o = g.owner[s]
    if not g.down[s]:
        g.down[s] = 1
        g.inf[o][SPACE_A[s]] -= g.va[s]
        g.inf[o][SPACE_B[s]] -= g.vb[s]


def poison(g: Game, victim: int) -> int:
    """C-17/S-20: a random token of ``victim``'s hand (row) goes back to their bag; -1 if none."""
    hand = g.hand[victim]
    if not hand:
        return -1
    tid = g.rng.stream(POISON).pop(hand, lambda t: TOKENS[t].name)
    g.bag[victim].append(tid)
    g.bag[victim].sort()
    return tid


def use_bonus(g: Game, p: int, bonus: str, x: int) -> Step:
    """C-11: ``p`` uses a gained bonus (``x``: its province, -1 for a C-21 face-down bonus).

    Senate (C-16) and Poison (C-17) act at once for everyone. Auto-Crassus's Might, Wealth,
    Tactics and Centurion are removed (S-8; with ``harder`` one of his markers goes too). A human
    player's Wealth adds a draw (C-14), Tactics an extra turn (C-13); Might and Centurion wait for
    the player's choice (``pending``) unless there is nothing to choose.
    """
    step: Step = {"action": "bonus", "bonus": bonus, "by": pname(g, p)}
    if x >= 0:
        step["from"] = PROVINCES[x]                  # the province it came from (its closure's page)
    if bonus == "senate":
        g.senate[p] += 1
        n = g.senate[p] if x >= 0 and g.ctrl[x] == p else 0
        placed = take_markers(g, p, n)
        g.senate_markers[p] += placed
        step["markers"] = placed
        step["senate"] = g.senate[p]
        step["text"] = _senate_text(g, p, x, placed)
        return step
    if bonus == "poison":
        tid = poison(g, 1 - p)
        step["token"] = TOKENS[tid].name if tid >= 0 else None
        step["text"] = _poison_text(g, p, tid)
        return step
    if g.is_bot(p):
        step["removed"] = True
        text = Msg(REMOVED_WORDS[bonus])
        harder = g.rules["harder"]
        if harder == "always" or (harder == "control" and x >= 0 and g.ctrl[x] == p):
            if g.markers[p] > 0:
                g.markers[p] -= 1
                g.removed[p] += 1
                step["marker_removed"] = True
                text = Msg(REMOVED_HARDER_WORDS[bonus])
                if g.markers[p] == 0:
                    win(g, p, Msg("Crassus has no control markers left and wins (harder game)."))
        step["text"] = text
        return step
    if bonus == "wealth":
        g.due[p] += 1
        if not g.bag[p]:                              # the end of the tokens: nothing left to draw
            step["text"] = said(g, p, N_("Wealth: your bag is empty; there is nothing more to draw."),
                                N_("Wealth: the bag is empty; {who} draws nothing more."))
        else:
            step["text"] = said(g, p, N_("Wealth: you draw one more token now."),
                                N_("Wealth: {who} draws one more token now."))
    elif bonus == "tactics":
        g.extra = True
        step["text"] = said(g, p, N_("Tactics: you take another turn after this one."),
                            N_("Tactics: {who} takes another turn after this one."))
    elif bonus == "might":
        spaces, provs = might_targets(g, p)
        if spaces or provs:
            g.pending.append("might")
            step["pending"] = True
            step["text"] = Msg("Might: choose an opponent token or control marker to flip, or skip.")
        else:
            step["discarded"] = True
            step["text"] = Msg("Might: nothing of the opponent's to flip; discarded.")
    elif bonus == "centurion":
        if g.cent[p] and not g.cent_taken and "centurion" not in g.pending:
            g.pending.append("centurion")
            step["pending"] = True
            step["text"] = Msg("Centurion: choose a centurion instead of this turn's draw, or skip.")
        else:
            step["discarded"] = True
            step["text"] = Msg("Centurion: no centurion left to take this turn; discarded.")
    return step


def _senate_text(g: Game, p: int, x: int, placed: int) -> Msg:
    """C-16 in whole sentences: the Senate token's number and the markers under it, or why none."""
    you, k = g.solo and p == 0, g.senate[p]
    if placed:
        if you:
            return Msg("Senate token no. {k} is yours: {n} of your control markers goes under it.",
                       plural="Senate token no. {k} is yours: {n} of your control markers go under it.", k=k, n=placed)
        return Msg("Senate token no. {k} for {who}: {n} of his control markers goes under it.",
                   plural="Senate token no. {k} for {who}: {n} of his control markers go under it.",
                   k=k, n=placed, who=label(g, p))
    if x < 0:                                        # C-21: a face-down bonus, no province with it
        return (Msg("Senate token no. {k} is yours; it came with no province, so no control marker goes under it.",
                    k=k) if you else
                Msg("Senate token no. {k} for {who}; it came with no province, so no control marker goes under it.",
                    k=k, who=label(g, p)))
    if you:
        return Msg("Senate token no. {k} is yours; you did not take control of its province, so no control marker "
                   "goes under it.", k=k)
    return Msg("Senate token no. {k} for {who}; he did not take control of its province, so no control marker goes "
               "under it.", k=k, who=label(g, p))


def _poison_text(g: Game, p: int, tid: int) -> Msg:
    """C-17 / S-20: which token goes back to whose bag, one whole sentence per case."""
    if g.solo and p == 0:
        return (Msg("Poison: {} goes from Crassus's row back to his bag.", token(tid)) if tid >= 0
                else Msg("Poison: Crassus's row is empty; nothing goes back."))
    if g.solo:
        return (Msg("Poison: {} goes from behind your screen back to your bag.", token(tid)) if tid >= 0
                else Msg("Poison: you have no token behind your screen; nothing goes back."))
    victim = label(g, 1 - p)
    return (Msg("Poison: {who} returns {t} from behind the screen to the bag.", who=victim, t=token(tid)) if tid >= 0
            else Msg("Poison: {who} has no token behind the screen; nothing goes back.", who=victim))
