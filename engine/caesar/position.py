"""The console's ``position`` schema (PROTOCOL.md, Caesar! solo): write it from a game, and
check and adopt one.

``position_of(g)`` always writes every key of the schema, so ``position`` round-trips. On input
omitted keys take the protocol's defaults. What the rules fix about tokens is checked strictly
(icons, how many of each token a player owns, the numbers in ``toward``); the bookkeeping the
table keeps is taken as given (``control`` closes the provinces it names even if spaces are
still empty; a full province left out of ``control`` gets its controller by C-9, ties to nobody;
border markers and ``markers_left`` are not cross-checked). Besides the schema, input may carry ``turn``
(``human``/``crassus``; default: whoever's turn it was), ``human_hand`` (tokens behind your screen;
default: your hand kept where it does not clash, topped up to the starting size) and
``bonus_pool`` (the face-down C-21 bonuses). Errors: BadJson for a wrong shape, BadArguments for an
unknown name, IllegalMove for tokens the rules cannot place so (a token on a space of another
icon, more tokens than a player owns, ``toward`` numbers not the token's, a bonus the modules do
not have). Nothing changes on error.
"""
from __future__ import annotations

from collections import Counter
from engine.caesar.views import PositionView, SpaceView
from typing import Any

from engine.caesar import flow
from engine.caesar.board import (
    BORDER_CONTROL, ITALY, N_PROVINCES, N_SPACES, PROVINCE_INDEX, PROVINCE_SPACES, PROVINCES,
    SLOTS, SPACE_A, SPACE_B, SPACE_ICON, SPACE_ICON_NAME, SPACE_INDEX, SPACES,
)
from engine.caesar.model import BONUSES, CRASSUS, HUMAN, MARKERS, NONE, OPEN, Game
from engine.caesar.terms import either
from engine.caesar.tokens import BASE_IDS, CENTURION_IDS, TOKENS, ids_of, parse_token
from engine.errors import BadArguments, BadJson, IllegalMove
from engine.caesar.text import Msg

SCHEMA_KEYS = ("human_side", "bonuses", "spaces", "control", "flipped_control", "border_markers",
               "crassus_row", "markers_left", "senate", "modules")
EXTRA_KEYS = ("turn", "human_hand", "bonus_pool", "hands")
BONUS_COUNTS = {"senate": 6, "wealth": 4, "tactics": 4, "might": 4, "poison": 3, "centurion": 3}


def position_of(g: Game) -> PositionView:
    """The position in the protocol schema (duel: player names ``caesar``/``pompey``, no
    ``human_side``/``crassus_row``)."""
    n = g.names
    spaces: dict[str, SpaceView] = {}
    for s in range(N_SPACES):
        o = g.owner[s]
        if o >= 0:
            spaces[SPACES[s]] = {"by": n[o], "token": TOKENS[g.tok[s]].name,
                                 "toward": {PROVINCES[SPACE_A[s]]: g.va[s], PROVINCES[SPACE_B[s]]: g.vb[s]},
                                 "face_down": bool(g.down[s])}
    out: PositionView = {
        "bonuses": {PROVINCES[x]: g.bonus[x] for x in range(N_PROVINCES) if g.bonus[x]},
        "spaces": spaces,
        "control": {PROVINCES[x]: (n[g.ctrl[x]] if g.ctrl[x] >= 0 else "none")
                    for x in range(N_PROVINCES) if g.ctrl[x] != OPEN},
        "flipped_control": [PROVINCES[x] for x in range(N_PROVINCES) if g.cflip[x]],
        "border_markers": {SPACES[s]: n[g.bmark[s]] for s in range(N_SPACES) if g.bmark[s] >= 0},
        "markers_left": {n[0]: g.markers[0], n[1]: g.markers[1]},
        "senate": {n[0]: g.senate[0], n[1]: g.senate[1]},
        "modules": {"poison": g.poison, "centurions": g.centurions, "border_control": g.border_control},
    }
    if g.solo:
        out["human_side"] = g.human_side
        out["crassus_row"] = [TOKENS[t].name for t in g.hand[CRASSUS]]
    return out


def _obj(data: Any, key: str) -> dict[str, Any]:
    val = data.get(key, {})
    if not isinstance(val, dict):
        raise BadJson(Msg("position: '{}' must be a JSON object.", key))
    return val


def _list(data: Any, key: str) -> list[Any]:
    val = data.get(key, [])
    if not isinstance(val, list):
        raise BadJson(Msg("position: '{}' must be a JSON list.", key))
    return val


def _player(g: Game, value: Any, where: str, none_ok: bool = False) -> int:
    if value == "none" and none_ok:
        return NONE
    if isinstance(value, str) and value.lower() in g.names:
        return g.names.index(value.lower())
    allowed = either(g.names + (["none"] if none_ok else []))
    raise BadArguments(Msg("position: {} must be {}, not {}.", where, allowed, repr(value)))


def _province(text: Any, where: str) -> int:
    if not isinstance(text, str) or text.upper() not in PROVINCE_INDEX:
        raise BadArguments(Msg("position: {}: '{}' is not a province code ({}).", where, text, ', '.join(PROVINCES)))
    return PROVINCE_INDEX[text.upper()]


def _space(text: Any, where: str) -> int:
    if not isinstance(text, str) or text.upper() not in SPACE_INDEX:
        raise BadArguments(Msg("position: {}: '{}' is not a border space (e.g. SC-IT).", where, text))
    return SPACE_INDEX[text.upper()]


def _token(text: Any, where: str, centurions: bool) -> str:
    if not isinstance(text, str):
        raise BadJson(Msg("position: {}: a token is a string like 'ship:5/1'.", where))
    canon, _, _ = parse_token(text)
    if TOKENS[ids_of(canon)[0]].centurion and not centurions:
        raise IllegalMove(Msg("position: {}: {} is a centurion; set modules.centurions (C-20).", where, canon))
    return canon


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadJson(Msg("position: {} must be a whole number from {} to {}, not {}.", where, lo, hi, repr(value)))
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise BadJson(Msg("position: {} must be true or false, not {}.", where, repr(value)))
    return value


class _Usage:
    """Counts each player's tokens by name to catch more copies than a player owns."""

    def __init__(self) -> None:
        self.used: list[Counter[str]] = [Counter(), Counter()]

    def add(self, p: int, canon: str, who: str, where: str) -> None:
        self.used[p][canon] += 1
        if self.used[p][canon] > len(ids_of(canon)):
            raise IllegalMove(Msg("position: {}: {} has only {n} {} token (C-3).", where, who, canon,
                                  plural="position: {}: {} has only {n} {} tokens (C-3).", n=len(ids_of(canon))))


def apply_position(g: Game, data: Any) -> None:
    """Check ``data`` against the rules and make it the game's position (see module doc)."""
    if not isinstance(data, dict):
        raise BadJson(Msg("position needs a JSON object, e.g. {\"spaces\": {...}, \"control\": {...}}."))
    allowed = SCHEMA_KEYS + EXTRA_KEYS
    for key in data:
        if key not in allowed:
            raise BadJson(Msg("position: unknown key '{}' (keys: {}).", key, ', '.join(allowed)))
    solo = g.solo
    side = data.get("human_side", "caesar")
    if side not in ("caesar", "pompey"):
        raise BadArguments(Msg("position: human_side must be caesar or pompey, not {}.", repr(side)))
    mods = _obj(data, "modules")
    for key in mods:
        if key not in ("poison", "centurions", "border_control"):
            raise BadJson(Msg("position: unknown module '{}' (poison, centurions, border_control).", key))
    poison = _bool(mods.get("poison", False), "modules.poison")
    cents = _bool(mods.get("centurions", False), "modules.centurions")
    bctl = _bool(mods.get("border_control", False), "modules.border_control")
    if bctl and not (poison or cents):
        raise IllegalMove(Msg("position: border_control needs poison and/or centurions (C-21)."))

    usage = _Usage()
    owner, tok = [-1] * N_SPACES, [-1] * N_SPACES
    va, vb, down = [0] * N_SPACES, [0] * N_SPACES, [0] * N_SPACES
    taken: list[list[int]] = [[], []]
    for key, entry in _obj(data, "spaces").items():
        s = _space(key, "spaces")
        where = f"spaces.{key}"
        if owner[s] >= 0:
            raise IllegalMove(Msg("position: {} is given twice.", SPACES[s]))
        if not isinstance(entry, dict):
            raise BadJson(Msg("position: {} must be an object with by, token, toward, face_down.", where))
        for k in entry:
            if k not in ("by", "token", "toward", "face_down"):
                raise BadJson(Msg("position: {}: unknown key '{}' (by, token, toward, face_down).", where, k))
        p = _player(g, entry.get("by"), f"{where}.by")
        canon = _token(entry.get("token"), where, cents)
        usage.add(p, canon, g.names[p], where)
        tid = next(t for t in ids_of(canon) if t not in taken[p])
        spec = TOKENS[tid]
        fd = _bool(entry.get("face_down", False), f"{where}.face_down")
        if not spec.mask & SPACE_ICON[s]:
            if not fd:
                raise IllegalMove(Msg("position: {}: {} cannot lie on a {} space (C-3).",
                              where, canon, SPACE_ICON_NAME[s]))
            if not (bctl and BORDER_CONTROL[s]):
                raise IllegalMove(Msg("position: {}: a face-down {} on a {} space is only possible on a "
                                      "double-bordered space with border_control (C-21).",
                                      where, canon, SPACE_ICON_NAME[s]))
        a, b = _toward(entry.get("toward"), s, spec.hi, spec.lo, where, fd)
        owner[s], tok[s], va[s], vb[s], down[s] = p, tid, a, b, int(fd)
        taken[p].append(tid)

    ctrl = [OPEN] * N_PROVINCES
    for key, who in _obj(data, "control").items():
        ctrl[_province(key, "control")] = _player(g, who, f"control.{key}", none_ok=True)
    for x in range(N_PROVINCES):
        if ctrl[x] == OPEN and all(owner[s] >= 0 for s in PROVINCE_SPACES[x]):
            ctrl[x] = _c9_winner(owner, va, vb, down, x)
    cflip = [0] * N_PROVINCES
    for key in _list(data, "flipped_control"):
        x = _province(key, "flipped_control")
        if ctrl[x] < 0:
            raise IllegalMove(Msg("position: flipped_control: {} has no control marker to flip (C-15).",
                          PROVINCES[x]))
        cflip[x] = 1
    bmark = [-1] * N_SPACES
    for key, who in _obj(data, "border_markers").items():
        bmark[_space(key, "border_markers")] = _player(g, who, f"border_markers.{key}")

    bonus = [""] * N_PROVINCES
    counts: Counter[str] = Counter()
    for key, name in _obj(data, "bonuses").items():
        x = _province(key, "bonuses")
        if not isinstance(name, str) or name.lower() not in BONUS_COUNTS:
            raise BadArguments(Msg("position: bonuses.{}: '{}' is not a bonus ({}).",
                          key, name, ', '.join(BONUS_COUNTS)))
        name = name.lower()
        if (name == "poison" and not poison) or (name == "centurion" and not cents):
            module = "poison" if name == "poison" else "centurions"
            raise IllegalMove(Msg("position: bonuses.{}: {} needs modules.{}.", key, name, module))
        if x == ITALY and name != "senate":
            raise IllegalMove(Msg("position: Italy's bonus is always the Senate (C-5)."))
        counts[name] += 1
        if counts[name] > BONUS_COUNTS[name]:
            raise IllegalMove(Msg("position: there are only {} {} bonuses (C-4).", BONUS_COUNTS[name], name))
        bonus[x] = name

    markers = _pair(g, data, "markers_left", MARKERS, 1, MARKERS)
    senate = _pair(g, data, "senate", 0, 0, BONUS_COUNTS["senate"])
    if sum(senate) + counts["senate"] > BONUS_COUNTS["senate"]:
        raise IllegalMove(Msg("position: Senate tokens held plus Senate bonuses on the board exceed 6 (C-4)."))
    slots = [SLOTS[x] if ctrl[x] >= 0 else 0 for x in range(N_PROVINCES)]
    on_board = [0, 0]
    for x in range(N_PROVINCES):
        if ctrl[x] >= 0:
            on_board[ctrl[x]] += slots[x]
    for s in range(N_SPACES):
        if bmark[s] >= 0:
            on_board[bmark[s]] += 1

    hands, topup = _hands(g, data, usage, cents)
    turn = g.turn if "turn" not in data else _player(g, data["turn"], "turn")
    pool = _pool(g, data, bctl, poison, cents, counts, senate)

    # -- adopt ----------------------------------------------------------------------------
    old_cents = g.centurions
    g.human_side = side if solo else g.human_side
    g.poison, g.centurions, g.border_control = poison, cents, bctl
    g.owner, g.tok, g.va, g.vb, g.down, g.bmark = owner, tok, va, vb, down, bmark
    g.ctrl, g.cflip, g.bonus, g.slots = ctrl, cflip, bonus, slots
    g.markers = markers
    g.senate = senate
    g.senate_markers = [max(0, MARKERS - markers[p] - on_board[p]) for p in (0, 1)]
    g.removed = [0, 0]
    g.pool = pool
    g.due = [0, 0]
    g.winner, g.end, g.extra, g.pending, g.cent_taken, g.last = -1, "", False, [], False, {}
    g.mine, g.latest = {}, ""
    for p in (0, 1):
        g.hand[p] = _ids_for(hands[p], taken[p])
        used = set(taken[p]) | set(g.hand[p])
        g.bag[p] = [t for t in BASE_IDS if t not in used]
        g.cent[p] = [t for t in CENTURION_IDS if t not in used] if cents else []
    g.recompute()
    if solo and cents != old_cents:
        flow._new_stack(g)
    for p in (0, 1):
        if topup[p]:
            _top_up(g, p)
    flow.begin_turn(g, turn)


def _c9_winner(owner: list[int], va: list[int], vb: list[int], down: list[int], x: int) -> int:
    """C-9 for a full province whose controller the position does not give (ties: nobody)."""
    tot = [0, 0]
    for s in PROVINCE_SPACES[x]:
        if not down[s]:
            tot[owner[s]] += va[s] if SPACE_A[s] == x else vb[s]
    return 0 if tot[0] > tot[1] else 1 if tot[1] > tot[0] else NONE


def _toward(value: Any, s: int, hi: int, lo: int, where: str, face_down: bool) -> tuple[int, int]:
    a, b = SPACE_A[s], SPACE_B[s]
    if value is None:
        if face_down:
            return hi, lo
        raise BadJson(Msg("position: {}: give toward, e.g. {{\"{}\": {}, \"{}\": {}}}.",
                          where, PROVINCES[a], hi, PROVINCES[b], lo))
    if not isinstance(value, dict) or len(value) != 2:
        raise BadJson(Msg("position: {}.toward must name both provinces of {} with a number each.", where, SPACES[s]))
    got: dict[int, int] = {}
    for key, num in value.items():
        x = _province(key, f"{where}.toward")
        if x not in (a, b):
            raise IllegalMove(Msg("position: {}.toward: {} is not on {}.", where, PROVINCES[x], SPACES[s]))
        got[x] = _int(num, f"{where}.toward.{key}", 0, 9)
    if len(got) != 2 or sorted(got.values()) != sorted((hi, lo)):
        raise IllegalMove(Msg("position: {}.toward must give {} to one of {}, {} and {} to the other (the token's "
                              "numbers).", where, hi, PROVINCES[a], PROVINCES[b], lo))
    return got[a], got[b]


def _pair(g: Game, data: dict[str, Any], key: str, default: int, lo: int, hi: int) -> list[int]:
    val = _obj(data, key)
    for k in val:
        if k not in g.names:
            raise BadJson(Msg("position: {}: unknown player '{}' ({}).", key, k, ', '.join(g.names)))
    return [_int(val.get(n, default), f"{key}.{n}", lo, hi) for n in g.names]


def _hands(g: Game, data: dict[str, Any], usage: _Usage,
           cents: bool) -> tuple[list[list[str]], list[bool]]:
    """Each player's hand (Crassus's row) as canonical names, and whether to top it up: a hand
    not given keeps the tokens that do not clash with the new board."""
    given: list[list[str] | None] = [None, None]
    if g.solo:
        if "hands" in data:
            raise BadJson(Msg("position: 'hands' is for duels; use crassus_row and human_hand."))
        given[CRASSUS] = [_token(t, "crassus_row", cents) for t in _list(data, "crassus_row")]
        if "human_hand" in data:
            given[HUMAN] = [_token(t, "human_hand", cents) for t in _list(data, "human_hand")]
    else:
        for key in ("crassus_row", "human_hand", "human_side"):
            if key in data:
                raise BadJson(Msg("position: '{}' is for solo games; use hands for a duel.", key))
        for k, lst in _obj(data, "hands").items():
            p = _player(g, k, "hands")
            if not isinstance(lst, list):
                raise BadJson(Msg("position: hands.<side> must be a list of tokens."))
            given[p] = [_token(t, f"hands.{k}", cents) for t in lst]
    for p in (0, 1):
        where = "crassus_row" if g.is_bot(p) else "hand"
        for canon in given[p] or []:
            usage.add(p, canon, g.names[p], where)
    hands: list[list[str]] = []
    topup: list[bool] = []
    for p in (0, 1):
        lst = given[p]
        if lst is not None:
            hands.append(lst)
            topup.append(False)
            continue
        keep: list[str] = []
        for tid in g.hand[p]:
            canon = TOKENS[tid].name
            if TOKENS[tid].centurion and not cents:
                continue
            if usage.used[p][canon] < len(ids_of(canon)):
                usage.used[p][canon] += 1
                keep.append(canon)
        hands.append(keep)
        topup.append(True)
    return hands, topup


def _ids_for(names: list[str], taken: list[int]) -> list[int]:
    out: list[int] = []
    for canon in names:
        out.append(next(t for t in ids_of(canon) if t not in taken and t not in out))
    return out


def _top_up(g: Game, p: int) -> None:
    """A hand not given keeps its tokens and is topped up to the starting size (digital draws,
    or draws owed when the bag is physical)."""
    if g.is_bot(p):
        return
    missing = max(0, flow.hand_size(g) - len(g.hand[p]))
    missing = min(missing, len(g.bag[p]))
    if g.inputs["human_bag"] == "physical":
        g.due[p], g.drawn[p] = missing, 0
    else:
        for _ in range(missing):
            g.hand[p].append(flow._draw_random(g, p))


def _pool(g: Game, data: dict[str, Any], bctl: bool, poison: bool, cents: bool,
          counts: Counter[str], senate: list[int]) -> list[str]:
    """C-21 face-down bonuses: given, or kept, or drawn from the bonuses not on the board."""
    if not bctl:
        return []
    if "bonus_pool" in data:
        out = []
        for name in _list(data, "bonus_pool"):
            if not isinstance(name, str) or name.lower() not in BONUS_COUNTS:
                raise BadArguments(Msg("position: bonus_pool: '{}' is not a bonus.", name))
            out.append(name.lower())
        return sorted(out)
    if g.pool:
        return list(g.pool)
    supply = Counter({k: v for k, v in BONUS_COUNTS.items()
                      if k in ("senate", "wealth", "tactics", "might")
                      or (k == "poison" and poison) or (k == "centurion" and cents)})
    supply.subtract(counts)
    supply["senate"] -= sum(senate)
    left = sorted(k for k, v in supply.items() for _ in range(max(v, 0)))
    g.rng.stream(BONUSES).shuffle(left)
    k = 3 * (int(poison) + int(cents))
    return sorted(left[:k])
