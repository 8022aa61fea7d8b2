"""Turns: setup (C-5, S-2), a player's turn (C-6, C-11, C-13..C-18, C-21), Auto-Crassus's turn
(S-5..S-8, S-19) and the end of the game (C-12).

Every public function checks its request first and raises a typed error (``NotYourTurn``,
``IllegalMove``, ``GameOver``, ``BadArguments``) before changing anything; then it changes the
:class:`~engine.caesar.model.Game` in place and returns the steps that happened.
"""
from __future__ import annotations

from typing import Any

from engine.caesar import rules as R
from engine.caesar.autocrassus import Decision, decide
from engine.caesar.board import (
    BORDER_CONTROL, ITALY, N_PROVINCES, PROVINCE_INDEX, PROVINCES, SPACE_A, SPACE_B,
    SPACE_ICON_NAME, SPACE_INDEX, SPACES,
)
from engine.caesar.model import (BONUS_POOL, BONUSES, CENTURION_POOL, CRASSUS, HUMAN, TIES, TILES, Game,
                                 tokens_stream)
from engine.caesar.terms import bonus as bonus_term
from engine.caesar.terms import icon as icon_term
from engine.caesar.terms import player, point, province, space, tile_letter, tile_said, token, token_named
from engine.caesar.tiles import DEFAULT_TILES, deck_for, draw_count
from engine.caesar.tokens import BASE_IDS, CENTURION_IDS, TOKENS, ids_of, parse_token
from engine.errors import BadArguments, GameOver, IllegalMove, NotYourTurn
from engine.rng import Draws
from engine.caesar.text import N_, Msg
from engine.text import to_data

Step = dict[str, Any]
BONUS_SUPPLY: dict[str, int] = {"senate": 6, "wealth": 4, "tactics": 4, "might": 4}
EXPANSION_BONUS = {"poison": 3, "centurion": 3}
ROW_SIZE = 3
# A duel's side in a phrase, one whole phrase per side (the name takes its case in ru/uk).
_DUEL_BAG = {"caesar": N_("Caesar's bag"), "pompey": N_("Pompey's bag")}
_DUEL_TURN = {"caesar": N_("Caesar's turn"), "pompey": N_("Pompey's turn")}
_DUEL_NOT_YOURS = {"caesar": N_("It is Caesar's turn."), "pompey": N_("It is Pompey's turn.")}


def hand_size(g: Game) -> int:
    """C-5/C-19: tokens behind the screen at the start: 2, or 3 with Poison."""
    return 3 if g.poison else 2


# -- setup -----------------------------------------------------------------------------------
def new_game(mode: str, seed: Draws | int, *, side: str = "caesar", difficulty: str = "normal",
             poison: bool = False, centurions: bool = False, border_control: bool = False,
             rules: dict[str, str] | None = None, inputs: dict[str, str] | None = None,
             tiles: dict[str, list[str]] | None = None, row: list[str] | None = None) -> Game:
    """A set-up game (C-5; solo S-1, S-2). ``mode`` is ``solo`` or ``duel``; ``row`` names
    Auto-Crassus's first three tokens when his bag is physical. Raises BadArguments on a bad
    combination (C-21 without Poison or Centurions, a bad row)."""
    if border_control and not (poison or centurions):
        raise BadArguments(Msg("border-control=1 needs poison=1 and/or centurions=1 (C-21)."))
    g = Game()
    g.rng = Draws.coerce(seed)
    g.mode = mode
    g.names = ["human", "crassus"] if mode == "solo" else ["caesar", "pompey"]
    g.human_side = side
    g.difficulty = difficulty if mode == "solo" else ""
    g.poison, g.centurions, g.border_control = poison, centurions, border_control
    if rules:
        g.rules.update(rules)
    if inputs:
        g.inputs.update(inputs)
    _lay_bonuses(g)
    for p in (0, 1):
        g.bag[p] = list(BASE_IDS)
        g.cent[p] = list(CENTURION_IDS) if centurions else []
    g.recompute()
    if mode == "solo":
        g.tile_defs = {k: list(v) for k, v in DEFAULT_TILES.items()}
        g.tile_user = sorted(tiles) if tiles else []
        if tiles:
            g.tile_defs.update({k: list(v) for k, v in tiles.items()})
        _new_stack(g)
        if g.inputs["crassus_bag"] == "physical":
            if row is None or len(row) != ROW_SIZE:
                raise BadArguments(Msg("With crassus-bag=physical, name the three tokens you drew for Crassus's "
                                       "row: row=icon:a/b,icon:a/b,icon:a/b (S-2)."))
            for name in row:
                g.hand[CRASSUS].append(_take_named(g, CRASSUS, name))
        else:
            if row is not None:
                raise BadArguments(Msg("row= is only for crassus-bag=physical."))
            for _ in range(ROW_SIZE):
                g.hand[CRASSUS].append(_draw_random(g, CRASSUS))
        _deal(g, HUMAN, "human_bag")
        g.turn = CRASSUS                              # S-2: Auto-Crassus takes the first turn
    else:
        _deal(g, 0, "human_bag")
        _deal(g, 1, "human_bag")
        g.turn = 0                                    # C-5: Caesar starts
    g.step = "play"
    return g


def _lay_bonuses(g: Game) -> None:
    """C-5/C-19/C-20: mix in 3 per expansion, set 3 per expansion aside face down (kept for C-21),
    Senate on Italy, one random bonus on every other province."""
    supply = [b for b, n in BONUS_SUPPLY.items() for _ in range(n)]
    k = 0
    for name, flag in (("poison", g.poison), ("centurion", g.centurions)):
        if flag:
            supply += [name] * EXPANSION_BONUS[name]
            k += 3
    g.rng.stream(BONUSES).shuffle(supply)
    aside, supply = supply[:k], supply[k:]
    g.pool = sorted(aside) if g.border_control else []
    supply.remove("senate")
    g.rng.stream(BONUSES).shuffle(supply)
    g.bonus = [""] * N_PROVINCES
    g.bonus[ITALY] = "senate"
    others = [x for x in range(N_PROVINCES) if x != ITALY]
    for x, b in zip(others, supply, strict=True):
        g.bonus[x] = b


def _new_stack(g: Game) -> None:
    """S-3: the six tiles of the difficulty, shuffled (sorted when tiles are physical)."""
    g.deck = deck_for(g.difficulty, g.centurions)
    g.stack = list(g.deck)
    g.played = []
    g.revealed = ""
    if g.inputs["tiles"] == "digital":
        rng = g.rng.stream(TILES)
        rng.note("deck")
        rng.shuffle(g.stack)
    else:
        g.stack.sort()


def _deal(g: Game, p: int, key: str) -> None:
    """The starting hand: drawn now (digital) or owed as draws (physical)."""
    if g.inputs[key] == "physical":
        g.due[p] = hand_size(g)
    else:
        for _ in range(hand_size(g)):
            g.hand[p].append(_draw_random(g, p))


def _draw_random(g: Game, p: int) -> int:
    return g.rng.stream(tokens_stream(g.names, p)).pop(g.bag[p], _token_name)


def _token_name(tid: int) -> str:
    return TOKENS[tid].name


def _take_named(g: Game, p: int, name: str) -> int:
    """Take the token ``name`` out of ``p``'s bag (physical draws); raises IllegalMove/BadArguments."""
    canon, _, _ = parse_token(name)
    for tid in ids_of(canon):
        if tid in g.bag[p]:
            g.bag[p].remove(tid)
            return tid
    inside = Msg.join([token_named(n) for n in sorted({TOKENS[t].name for t in g.bag[p]})]) or Msg("nothing")
    raise IllegalMove(Msg("{} is not in {} (it holds: {}).", token_named(canon), _whose(g, p), inside))


def _whose(g: Game, p: int) -> Msg:
    """``your bag`` / ``Crassus's bag`` / ``Pompey's bag``."""
    if g.solo:
        return Msg("your bag") if p == HUMAN else Msg("Crassus's bag")
    return Msg(_DUEL_BAG[g.names[p]])


# -- turn boundaries -------------------------------------------------------------------------
def begin_turn(g: Game, p: int) -> None:
    """``p``'s turn starts: a human player who cannot place loses (C-12)."""
    g.turn, g.step, g.pending, g.cent_taken = p, "play", [], False
    if not g.is_bot(p) and g.due[p] == 0:
        check_can_play(g, p)


def check_can_play(g: Game, p: int) -> None:
    """C-12: a player with no token behind the screen, or none that fits, loses at once."""
    if not g.hand[p]:
        R.win(g, 1 - p, R.said(g, p, N_("You start a turn with no token behind the screen and lose: Crassus wins."),
                               N_("{who} starts a turn with no token behind the screen and loses: {winner} wins."),
                               winner=R.label(g, 1 - p)))
    elif R.board_full(g):               # the last border space filled: nowhere to place at all
        R.win(g, 1 - p, R.said(g, p, N_("Every border space is taken: you cannot place a token and lose; Crassus "
                                        "wins."),
                               N_("Every border space is taken: {who} cannot place a token and loses; {winner} "
                                  "wins."), winner=R.label(g, 1 - p)))
    elif not R.has_placement(g, p):
        R.win(g, 1 - p, R.said(g, p, N_("You cannot place any token and lose: Crassus wins."),
                               N_("{who} cannot place any token and loses: {winner} wins."),
                               winner=R.label(g, 1 - p)))


def end_turn(g: Game) -> None:
    """After the draws: the same player again after Tactics (C-13), else the other player."""
    p = g.turn
    g.turns += 1
    if g.extra:
        g.extra = False
        begin_turn(g, p)
    else:
        begin_turn(g, 1 - p)


def _settle(g: Game, p: int) -> None:
    """After a decision or a draw: move to the draw step, and end the turn when nothing is owed."""
    if g.over or g.turn != p:
        return
    if g.step == "bonus" and not g.pending:
        g.step = "draw"
    if not g.bag[p]:
        g.due[p] = 0
    if g.step == "draw" and g.due[p] == 0:
        end_turn(g)
    elif g.step == "play" and g.due[p] == 0:
        check_can_play(g, p)


def _check_turn(g: Game, p: int) -> None:
    if g.over:
        raise GameOver(Msg("The game is over: {} Start a new one with new caesar-{}.", end_text(g), g.mode))
    if g.turn != p:
        if g.solo:
            raise NotYourTurn(Msg("It is Crassus's turn: send crassus.") if g.turn == CRASSUS
                              else Msg("It is your turn, not Crassus's."))
        raise NotYourTurn(Msg(_DUEL_NOT_YOURS[g.names[g.turn]]))


def end_text(g: Game) -> Msg | str:
    """Why the game ended (a Msg, or a plain sentence from an older session)."""
    return g.end


def expecting(g: Game) -> Msg | str:
    """A sentence saying what the game waits for (with the console command to send)."""
    if g.over:
        return end_text(g)
    p = g.turn
    if g.is_bot(p):
        return Msg("Crassus's turn: send crassus.")
    who = Msg("Your turn") if g.solo else Msg(_DUEL_TURN[g.names[p]])
    if g.step == "play" and g.due[p]:
        return Msg("{}: draw {n} starting token first (draw <token>).",
                   who, plural="{}: draw {n} starting tokens first (draw <token>).", n=g.due[p])
    if g.step == "play":
        return Msg("{}: play <space> <token> <province>.", who)
    if g.step == "bonus":
        nxt = g.pending[0]
        return (Msg("{}: use Might (might <space|province> or might skip).", who) if nxt == "might"
                else Msg("{}: take a centurion (centurion <token> or centurion skip).", who))
    return Msg("{}: draw {n} token (draw).", who, plural="{}: draw {n} tokens (draw).", n=g.due[p])


# -- a human player's turn -------------------------------------------------------------------
def play(g: Game, p: int, s: int, text_token: str, face: int, down: bool = False,
         bonus: str | None = None) -> list[Step]:
    """``p`` places ``text_token`` (``icon:a/b``, first number facing province ``face``) on
    space ``s``; ``down``: face down on a double-bordered space (C-21, ``bonus`` names the
    face-down bonus drawn when they are physical). Returns the play, close and bonus steps.
    Raises GameOver, NotYourTurn, IllegalMove (token not in hand, space taken, wrong icon,
    province not on the space) or BadArguments."""
    _check_turn(g, p)
    if g.step != "play":
        raise IllegalMove(Msg("You have placed this turn already; {}", expecting(g)))
    if g.due[p]:
        raise IllegalMove(expecting(g))
    canon, first, second = parse_token(text_token)
    tid = next((t for t in g.hand[p] if TOKENS[t].name == canon), -1)
    if tid < 0:
        hand = Msg.join([token(t) for t in g.hand[p]]) or Msg("nothing")
        raise IllegalMove(Msg("{} is not behind the screen (hand: {}).", token_named(canon), hand))
    if g.owner[s] >= 0:
        raise IllegalMove(Msg("{} is taken ({}: {}); place on an empty space.", space(s),
                              player(g.names[g.owner[s]]), token(g.tok[s])))
    a, b = SPACE_A[s], SPACE_B[s]
    if down:
        if not g.border_control:
            raise IllegalMove(Msg("Face-down plays need the Border control module (border-control=1, C-21)."))
        if not BORDER_CONTROL[s]:
            bc = Msg.join([space(x) for x in range(len(SPACES)) if BORDER_CONTROL[x]])
            raise IllegalMove(Msg("{} is not a double-bordered space; face down only on {} (C-21).", space(s), bc))
        va, vb = first, second
    else:
        if not R.fits(tid, s):
            raise IllegalMove(Msg("{} is a {} space; {} does not fit there (C-3).", space(s),
                                  icon_term(SPACE_ICON_NAME[s]), token(tid)))
        if face not in (a, b):
            raise IllegalMove(Msg("{} is not on {}; face {} or {}.", province(face), space(s), province(a),
                                  province(b)))
        va, vb = (first, second) if face == a else (second, first)
    extra = ""
    if down and g.pool:
        extra = _pool_draw(g, p, bonus)
    elif bonus is not None:
        raise BadArguments(Msg("bonus= is only for a face-down play with Border control bonuses left "
                               "and a physical bag (human-bag=physical)."))
    g.hand[p].remove(tid)
    R.put(g, p, s, tid, va, vb, down)
    g.due[p] += 1                                   # C-6: draw one token at the end of the turn
    g.drawn[p] = 0                                  # (the draws owed counted afresh, C-14's too)
    step: Step = {"action": "play", "by": R.pname(g, p), "space": SPACES[s], "token": canon,
                  "toward": {PROVINCES[a]: va, PROVINCES[b]: vb}, "face_down": down}
    if down and extra:
        step["bonus"] = extra                       # C-21: the set-aside bonus drawn (the log says it)
        step["text"] = R.said(g, p, N_("You place {t} face down on {s} (no influence) and draw the bonus {b}."),
                              N_("{who} places {t} face down on {s} (no influence) and draws the bonus {b}."),
                              t=token(tid), s=space(s), b=bonus_term(extra))
    elif down:
        step["text"] = R.said(g, p, N_("You place {t} face down on {s} (no influence)."),
                              N_("{who} places {t} face down on {s} (no influence)."),
                              t=token(tid), s=space(s))
    else:
        fv = va if face == a else vb
        step["text"] = R.said(g, p, N_("You place {t} on {s}, {v} toward {to}."),
                              N_("{who} places {t} on {s}, {v} toward {to}."),
                              t=token(tid), s=space(s), v=fv, to=province(face))
    steps = [step] + R.close_after(g, p, s, extra)
    if not g.over:
        g.step = "bonus" if g.pending else "draw"
        _settle(g, p)
    return steps


def _pool_draw(g: Game, p: int, bonus: str | None) -> str:
    """C-21: a random face-down bonus from the ones set aside (named when the bag is physical)."""
    key = "human_bag"
    if g.inputs[key] == "physical":
        if bonus is None:
            raise BadArguments(Msg("Name the face-down bonus you drew: bonus=<name> (left: {}).", ", ".join(g.pool)))
        name = bonus.lower()
        if name not in g.pool:
            raise IllegalMove(Msg("No face-down '{}' is left beside the board (left: {}).", bonus, ", ".join(g.pool)))
        g.pool.remove(name)
        return name
    if bonus is not None:
        raise BadArguments(Msg("Face-down bonuses are drawn by the device here; drop bonus=."))
    return g.rng.stream(BONUS_POOL).pop(g.pool)


def draw(g: Game, p: int, name: str | None = None) -> int:
    """``p`` draws one token from their bag (digital: at random; physical: ``name`` is what was
    drawn). Raises IllegalMove when no draw is owed or the token is not in the bag."""
    if g.over:
        raise GameOver(Msg("The game is over: {}", end_text(g)))
    if g.due[p] == 0:
        if g.turn != p:
            _check_turn(g, p)
        raise IllegalMove(Msg("No draw is owed now. {}", expecting(g)))
    if g.turn == p and g.step == "bonus":
        raise IllegalMove(Msg("Decide your bonus first: {}", expecting(g)))
    physical = g.inputs["human_bag"] == "physical"
    if physical and name is None:
        raise BadArguments(Msg("Your bag is physical here: say what you drew, e.g. draw ship:5/1."))
    if not physical and name is not None:
        raise BadArguments(Msg("Draws are digital here (human-bag=digital): send draw without a token."))
    if not g.bag[p]:
        raise IllegalMove(Msg("{} is empty.", _whose(g, p)))
    tid = _take_named(g, p, name) if name is not None else _draw_random(g, p)
    g.hand[p].append(tid)
    g.due[p] -= 1
    g.drawn[p] += 1
    _settle(g, p)
    return tid


def might(g: Game, p: int, target: str) -> Step:
    """C-15: flip an opponent token (``target`` a space) or control marker (a province), or
    ``skip``. Raises IllegalMove if no Might is pending or the target is not the opponent's."""
    _check_turn(g, p)
    if "might" not in g.pending:
        raise IllegalMove(Msg("You have no Might to use. {}", expecting(g)))
    step: Step = {"action": "bonus", "bonus": "might", "by": R.pname(g, p)}
    t = target.strip()
    spaces, provs = R.might_targets(g, p)
    if t.lower() == "skip":
        step.update(discarded=True, text=Msg(MIGHT_DISCARDED))
    else:
        up = t.upper()
        opts = ", ".join([SPACES[x] for x in spaces] + [PROVINCES[x] for x in provs])
        if up in SPACE_INDEX:
            s = SPACE_INDEX[up]
            if s not in spaces:
                raise IllegalMove(Msg("{} holds no face-up token of your opponent; targets: {}.", space(s), opts))
            R.flip_token(g, s)
            step.update(space=SPACES[s], token=TOKENS[g.tok[s]].name,
                        text=Msg(MIGHT_TOKEN, token(g.tok[s]), space(s)))
        elif up in PROVINCE_INDEX:
            x = PROVINCE_INDEX[up]
            if x not in provs:
                raise IllegalMove(Msg("{} has no face-up control marker of your opponent; targets: {}.",
                                      province(x), opts))
            g.cflip[x] = 1
            step.update(province=PROVINCES[x],
                        text=Msg(MIGHT_MARKER, province(x)))
        else:
            raise BadArguments(Msg("'{}' is neither a space nor a province; targets: {}, or skip.", target, opts))
    g.pending.remove("might")
    _settle(g, p)
    return step


MIGHT_TOKEN = N_("Might: {} on {} is flipped face down, now 0/0.")
MIGHT_MARKER = N_("Might: the control marker in {} is flipped; it gives no border markers.")
MIGHT_DISCARDED = N_("Might discarded.")
CENTURION_TAKEN = N_("Centurion: {} goes behind the screen instead of this turn's draw.")
CENTURION_DISCARDED = (N_("Centurion discarded; you draw as usual."),
                       N_("Centurion discarded; your bag is empty, so you draw nothing."))
"""The sentences of a Might (C-15) and a Centurion (C-18): their undo says what to turn or take back
on the table (engine/caesar/console.py ``_undone``)."""


def centurion(g: Game, p: int, name: str) -> Step:
    """C-18: take centurion ``name`` instead of this turn's draw, or ``skip``. Raises IllegalMove
    if no Centurion bonus is pending or that centurion is gone."""
    _check_turn(g, p)
    if "centurion" not in g.pending:
        raise IllegalMove(Msg("You have no Centurion bonus to use. {}", expecting(g)))
    step: Step = {"action": "bonus", "bonus": "centurion", "by": R.pname(g, p)}
    if name.strip().lower() == "skip":
        step.update(discarded=True, text=Msg(CENTURION_DISCARDED[0] if g.bag[p] else CENTURION_DISCARDED[1]))
    else:
        canon, _, _ = parse_token(name)
        tid = next((t for t in g.cent[p] if TOKENS[t].name == canon), -1)
        if tid < 0:
            left = Msg.join([token(t) for t in g.cent[p]])
            raise IllegalMove(Msg("{} is not one of your centurions left ({}).", token_named(canon), left))
        g.cent[p].remove(tid)
        g.hand[p].append(tid)
        g.due[p] = max(0, g.due[p] - 1)
        g.cent_taken = True
        step.update(token=canon, text=Msg(CENTURION_TAKEN, token(tid)))
    g.pending.remove("centurion")
    _settle(g, p)
    return step


# -- Auto-Crassus's turn ---------------------------------------------------------------------
def crassus_turn(g: Game, tile: str | None = None, draws: list[str] | None = None,
                 cents: list[str] | None = None) -> tuple[str, list[Step]]:
    """One whole Auto-Crassus turn (S-5..S-8): reveal a tile (``tile`` when tiles are physical)
    and carry out its actions; ``draws``/``cents`` name the tokens taken when his bag is
    physical. Returns the tile letter and the steps. Raises before changing anything."""
    if not g.solo:
        raise IllegalMove(Msg("There is no Auto-Crassus in a duel."))
    _check_turn(g, CRASSUS)
    physical_tiles = g.inputs["tiles"] == "physical"
    physical_bag = g.inputs["crassus_bag"] == "physical"
    if g.revealed and tile is not None:
        raise BadArguments(Msg("Tile {} is already revealed; drop tile=.", tile_said(g.revealed, g.rules["edition"])))
    if physical_bag and not physical_tiles and not g.revealed and _tile_draws(g, g.stack[0]):
        raise BadArguments(Msg("His bag is physical: send reveal-tile first to see the tile, then crassus draw=...."))
    if physical_tiles and tile is None:
        raise BadArguments(Msg("Tiles are physical here: say which tile you revealed, e.g. crassus tile=A "
                               "(stack: {}).", tile_said("".join(sorted(g.stack)), g.rules["edition"])))
    if not physical_tiles and tile is not None and not g.revealed:
        raise BadArguments(Msg("Tiles are drawn by the device here (tiles-input=digital); drop tile=."))
    if not physical_bag and (draws or cents):
        raise BadArguments(Msg("Crassus's bag is digital here (crassus-bag=digital); drop draw= and centurion=."))
    if not (physical_tiles or physical_bag):
        return _crassus_turn(g, None, None, None)
    work = g.copy()
    out = _crassus_turn(work, tile, list(draws or []) if physical_bag else None,
                        list(cents or []) if physical_bag else None)
    for key in Game.__slots__:
        setattr(g, key, getattr(work, key))
    return out


def _crassus_turn(g: Game, tile: str | None, draws: list[str] | None,
                  cents: list[str] | None) -> tuple[str, list[Step]]:
    if g.revealed:
        letter, g.revealed = g.revealed, ""
    elif tile is not None:
        letter = tile_letter(tile)
        if letter not in g.stack:
            raise IllegalMove(Msg("Tile {} is not in the stack (stack: {}).", tile_said(letter, g.rules["edition"]),
                                  tile_said("".join(sorted(g.stack)), g.rules["edition"])))
        g.stack.remove(letter)
    else:
        letter = g.stack.pop(0)
        g.rng.stream(TILES).note("card", [letter])       # the top of the shuffled stack
    g.last_tile = letter
    steps: list[Step] = []
    short = False
    row = g.hand[CRASSUS]
    actions = g.tile_defs[letter]
    for k, action in enumerate(actions):
        # S-6: a draw that runs short skips the discard still to come (a tile of your own may
        # discard before it: that one is made, and the draw's sentence says no skip)
        discards = any(a.startswith("discard") for a in actions[k + 1:])
        if action.startswith("draw"):
            short |= _crassus_draw(g, draw_count(action), draws, steps, discards)
        elif action == "centurion":
            short |= _crassus_centurion(g, cents, steps, discards)
        elif action == "play":
            crassus_play(g, steps)
        else:
            n = draw_count(action)
            if short:
                steps.append({"action": "discard", "tokens": [], "skipped": True,
                              "text": Msg("No discard this turn: his bag ran short.")
                              if any(st["action"] == "draw" and st.get("short") for st in steps) else
                              Msg("No discard this turn: his face-down centurions ran out.")})
            else:
                gone = [row.pop(0) for _ in range(min(n, len(row)))]
                g.bag[CRASSUS].extend(gone)
                g.bag[CRASSUS].sort()
                names = Msg.join([token(t) for t in gone])
                steps.append({"action": "discard", "tokens": [TOKENS[t].name for t in gone],
                              "text": (Msg("Return {} (leftmost) from his row to his bag.", names)
                                       if gone else Msg("His row is empty: nothing to discard."))})
        if g.over:
            break
    # C-12: names left over when a play ended the game first are no error (the table drew them
    # before the turn; they stay in his bag)
    if draws and not g.over:
        raise BadArguments(Msg("Tile {} did not draw {}; give only the tokens it takes.",
                               tile_said(letter, g.rules["edition"]), ", ".join(draws)))
    if cents and not g.over:
        raise BadArguments(Msg("Tile {} did not take centurion {}.", tile_said(letter, g.rules["edition"]), ", ".join(cents)))
    g.played.append(letter)
    anew = _reshuffle(g, letter)
    g.last = {"tile": letter, "steps": to_data(steps)}      # sentences kept as data (any language)
    if anew and g.inputs["tiles"] == "physical" and not g.over:
        g.last["new_stack"] = to_data(new_stack(g, letter))  # the table makes it: say which (S-5)
    if not g.over:
        g.turns += 1
        begin_turn(g, HUMAN)
    return letter, steps


def _tile_draws(g: Game, letter: str) -> int:
    """Tokens and centurions a tile takes (before the bag or the face-down pile runs short)."""
    return sum(draw_count(a) for a in g.tile_defs[letter] if a.startswith("draw")) + \
        g.tile_defs[letter].count("centurion")


def reveal(g: Game) -> str:
    """Turn up Auto-Crassus's next tile now (digital tiles), so that a physical bag can be drawn
    from before ``crassus``. Raises NotYourTurn, GameOver, IllegalMove (tiles physical or a tile
    already revealed)."""
    if not g.solo:
        raise IllegalMove(Msg("There is no Auto-Crassus in a duel."))
    _check_turn(g, CRASSUS)
    if g.inputs["tiles"] == "physical":
        raise IllegalMove(Msg("Tiles are physical here: turn one up and send crassus tile=<letter>."))
    if g.revealed:
        raise IllegalMove(Msg("Tile {} is already revealed; now send crassus.",
                              tile_said(g.revealed, g.rules["edition"])))
    g.revealed = g.stack.pop(0)
    g.rng.stream(TILES).note("card", [g.revealed])
    return g.revealed


def _crassus_draw(g: Game, n: int, named: list[str] | None, steps: list[Step], discards: bool) -> bool:
    """``drawN``: up to n tokens to the right end of his row; True if the bag ran short (S-6: then
    a tile that ``discards`` skips its discard, and says so; one without a discard does not)."""
    bag = g.bag[CRASSUS]
    k = min(n, len(bag))
    got: list[int] = []
    for _ in range(k):
        if named is not None:
            if not named:
                raise BadArguments(Msg("Crassus draws {n} token now: name it with draw=icon:a/b.",
                                       plural="Crassus draws {n} tokens now: name them with draw=icon:a/b,... "
                                              "in the order drawn.", n=k))
            got.append(_take_named(g, CRASSUS, named.pop(0)))
        else:
            got.append(_draw_random(g, CRASSUS))
    g.hand[CRASSUS].extend(got)
    labels = Msg.join([token(t) for t in got])
    step: Step = {"action": "draw", "tokens": [TOKENS[t].name for t in got]}
    # S-6 in four rows of the notes page whatever the token (RU «возьмите столько, сколько
    # возможно, и не сбрасывайте»): the tokens drawn are his bag's last
    if k < n and discards:
        step["short"] = True
        step["text"] = (Msg("Take {} (his bag's last) into his row; no discard this turn.", labels,
                            plural="Take {} (his bag's last) into his row; no discard this turn.", n=k) if got else
                        Msg("His bag is empty; he skips this turn's discard."))
    elif k < n:
        step["short"] = True
        step["text"] = (Msg("Take {} (his bag's last) into his row.", labels,
                            plural="Take {} (his bag's last) into his row.", n=k) if got else
                        Msg("His bag is empty."))
    else:
        step["text"] = Msg("Take {} from his bag into his row (right end).", labels)
    steps.append(step)
    return k < n


def _crassus_centurion(g: Game, named: list[str] | None, steps: list[Step], discards: bool) -> bool:
    """Tile ``centurion``: a random face-down centurion to the right end of his row; True if none
    was left (then a tile that ``discards`` skips its discard, as a short draw does, S-6)."""
    pool = g.cent[CRASSUS]
    if not pool:
        steps.append({"action": "centurion", "token": None, "short": True,
                      "text": Msg("No face-down centurion left; no discard this turn.") if discards else
                      Msg("No face-down centurion left.")})
        return True
    if named is not None:
        if not named:
            raise BadArguments(Msg("Crassus takes a face-down centurion now: name it with centurion=icon:a/b."))
        canon, _, _ = parse_token(named.pop(0))
        tid = next((t for t in pool if TOKENS[t].name == canon), -1)
        if tid < 0:
            raise IllegalMove(Msg("{} is not among Crassus's face-down centurions.", token_named(canon)))
        pool.remove(tid)
    else:
        tid = g.rng.stream(CENTURION_POOL).pop(pool, _token_name)
    g.hand[CRASSUS].append(tid)
    steps.append({"action": "centurion", "token": TOKENS[tid].name,
                  "text": Msg("Take {} from his face-down centurions into his row.", token(tid))})   # 4 rows
    return False


def crassus_play(g: Game, steps: list[Step]) -> Decision | None:
    """One ``play`` (S-8): decide, place, resolve closures and bonuses; S-19 if he cannot."""
    d = decide(g, g.rng.stream(TIES))
    if d is None:
        why = stuck_reason(g)
        if g.rules["stuck"] == "skip":
            steps.append({"action": "play", "step": None, "rule": "S-19", "skipped": True,
                          "why": Msg("{}: he skips this play (a house rule chosen for this game).", why),
                          "text": Msg("{}: he skips this play.", why)})
        else:
            steps.append({"action": "play", "step": None, "rule": "S-19", "skipped": False,
                          "why": Msg("{}: he cannot place a token and loses.", why),
                          "text": Msg("{}: Crassus loses.", why)})
            R.win(g, HUMAN, Msg("{}: Crassus cannot place a token and loses; you win.", why))
        return None
    g.hand[CRASSUS].pop(d.row_index)
    R.put(g, CRASSUS, d.space, d.tid, d.va, d.vb, False)
    steps.append(play_step(d))
    steps.extend(R.close_after(g, CRASSUS, d.space))
    return d


def stuck_reason(g: Game) -> Msg:
    """S-19 / C-12: why Auto-Crassus has no legal placement — every border space is taken (the
    board is full: no token could go anywhere), his row is empty, or no token of it fits."""
    if R.board_full(g):
        return Msg("Every border space is taken")
    return Msg("His row is empty") if not g.hand[CRASSUS] else Msg("No token of his row fits an empty space")


def play_step(d: Decision) -> Step:
    """The protocol fields of a decision (``decide`` and ``crassus`` steps)."""
    return {"action": "play", "step": d.step, "rule": d.rule, "space": SPACES[d.space],
            "token": TOKENS[d.tid].name, "row_index": d.row_index, "toward": d.toward(),
            "province": PROVINCES[d.province],
            "why": d.why, "text": Msg("{}. {}.", d.text(), point(d.step))}


def new_stack(g: Game, letter: str) -> dict[str, Any]:
    """S-5 with the box's tiles, once the stack has run out and was made anew (:func:`_reshuffle`):
    the tiles the table shuffles into his new stack, as the edition's rule says (``reshuffle``:
    RU all the played tiles, the one just played too; UA all but the one just drawn, which is set
    aside), the letters as its tiles print them: ``tiles`` (the new stack), ``aside`` (the tile
    kept out, or None) and the sentence ``text``."""
    edition = g.rules["edition"]
    tiles = Msg.join([Msg("{}×{}", g.stack.count(x), tile_said(x, edition)) for x in sorted(set(g.stack))])
    # four rows under the page's title ("His new stack"), which says that the old one ran out
    if g.rules["reshuffle"] == "keep-last":
        text = Msg("Shuffle all his tiles but tile {} into a new stack: {}.", tile_said(letter, edition), tiles)
    else:
        text = Msg("Shuffle all his tiles, tile {} too, into a new stack: {}.", tile_said(letter, edition), tiles)
    return {"tiles": "".join(sorted(g.stack)), "aside": letter if g.rules["reshuffle"] == "keep-last" else None,
            "text": text}


def _reshuffle(g: Game, letter: str) -> bool:
    """S-5: when the stack is empty, the played tiles become the new stack (RU: all of them;
    option reshuffle=keep-last, UA: all but the one just drawn). True if it was made anew."""
    if g.stack:
        return False
    if g.rules["reshuffle"] == "keep-last":
        g.played.remove(letter)
        g.stack, g.played = g.played, [letter]
    else:
        g.stack, g.played = g.played, []
    if g.inputs["tiles"] == "digital":
        rng = g.rng.stream(TILES)
        rng.note("deck")
        rng.shuffle(g.stack)
    else:
        g.stack.sort()
    return True
