"""Console commands for ``caesar-solo`` (``SOLO``) and ``caesar-duel`` (``DUEL``).

See docs/protocol/caesar.md for every command, field, option and error. Handlers rebuild the
game from the session state, call :mod:`engine.caesar.flow`, and write the game back; a request
that raises changes nothing.
"""
from __future__ import annotations

from engine.caesar.views import CaesarGameView
from typing import Any

from engine.caesar import flow
from engine.caesar.autocrassus import plays
from engine.caesar.board import BORDER_CONTROL, SPACE_A, SPACE_B, SPACES, PROVINCES, province_index, space_index
from engine.caesar.editions import EDITIONS, LEGACY, VARIANTS, language_options, variant_values
from engine.caesar.model import CRASSUS, HUMAN, INPUT_CHOICES, OTHER_RULES, RULE_CHOICES, Game
from engine.caesar.position import apply_position, position_of
from engine.caesar.rules import can_play_face_down, placements
from engine.caesar.tiles import DIFFICULTIES, parse_tiles, tile_takes
from engine.caesar.tokens import TOKENS, check_written
from engine.caesar.guide import guide_steps
from engine.caesar.preview import closure_preview, preview_fields
from engine.caesar.turns import draw_step, note_crassus, note_player
from engine.caesar.view import log_fragment, view
from engine.caesar.terms import either, player, point, tile_said, token_named
from engine.common import SESSION_KEYS
from engine.errors import BadArguments, GameOver
from engine.game import Command, GameRules, Outcome, Request, State, commands
from engine.rng import Draws
from engine.caesar.text import N_, Msg
from engine.text import Msg as AnyMsg, from_data

SOLO_OPTIONS = frozenset({"side", "difficulty", "poison", "centurions", "border-control", "harder",
                          "harder-when", "reshuffle", "defend", "ties", "stuck", "crassus-ties", "edition",
                          "tiles", "tiles-input", "bag-input", "crassus-bag", "human-bag", "row", "seed"})
DUEL_OPTIONS = frozenset({"poison", "centurions", "border-control", "bag-input", "edition", "seed"})


def _choice(req: Request, key: str, choices: tuple[str, ...], default: str) -> str:
    raw = req.opts.get(key, default).lower()
    if raw not in choices:
        raise BadArguments(Msg("{}= must be {}, not '{}'.", key, either(list(choices)), req.opts[key]))
    return raw


def _load(state: State) -> Game:
    return Game.from_json(state)


def _store(state: State, g: Game) -> None:
    """Write the game back, keeping the session-level keys (rolls, the side bag)."""
    keep = {k: state[k] for k in SESSION_KEYS if k in state}
    state.clear()
    state.update(g.to_json())
    state.update(keep)


# -- new -------------------------------------------------------------------------------------
def _new_solo(req: Request, seed: Draws | int) -> State:
    req.check_opts(SOLO_OPTIONS)
    if req.args:
        raise BadArguments(Msg("Unexpected '{}'; options are key=value, e.g. side=pompey.", req.args[0]))
    side = _choice(req, "side", ("caesar", "pompey"), "caesar")
    difficulty = _choice(req, "difficulty", DIFFICULTIES, "normal")
    rules = _rules(req, solo=True)
    bag = _choice(req, "bag-input", INPUT_CHOICES, "digital")
    inputs = {"tiles": _choice(req, "tiles-input", INPUT_CHOICES, "digital"),
              "crassus_bag": _choice(req, "crassus-bag", INPUT_CHOICES, bag),
              "human_bag": _choice(req, "human-bag", INPUT_CHOICES, bag)}
    tiles = parse_tiles(req.opts["tiles"]) if "tiles" in req.opts else None
    row = [t for t in req.opts["row"].split(",") if t] if "row" in req.opts else None
    check_written([req.opts.get("row", "")], req.asked)
    g = flow.new_game("solo", seed, side=side, difficulty=difficulty, poison=req.opt_flag("poison"),
                      centurions=req.opt_flag("centurions"), border_control=req.opt_flag("border-control"),
                      rules=rules, inputs=inputs, tiles=tiles, row=row)
    return g.to_json()


def _rules(req: Request, solo: bool) -> dict[str, str]:
    """The rules of a new game: ``edition=`` (none given: ``mixed``, the rules sessions stored
    before editions played; the firmware passes the language's edition) sets every variant, and
    an explicit ``defend=``/``reshuffle=``/``ties=``/``harder-when=`` overrides one (solo)."""
    edition = _choice(req, "edition", EDITIONS, LEGACY)
    rules = {"edition": edition, **variant_values(edition), **OTHER_RULES}
    if not solo:
        return rules
    for key in VARIANTS:
        rules[key] = _choice(req, key, RULE_CHOICES[key], rules[key])
    for key in ("stuck", "crassus-ties"):
        rules[key] = _choice(req, key, RULE_CHOICES[key], rules[key])
    if "harder-when" in req.opts and not req.opt_flag("harder"):
        raise BadArguments(Msg("harder-when= needs harder=1."))
    rules["harder"] = rules["harder-when"] if req.opt_flag("harder") else "off"
    return rules


def _new_duel(req: Request, seed: Draws | int) -> State:
    req.check_opts(DUEL_OPTIONS)
    if req.args:
        raise BadArguments(Msg("Unexpected '{}'; options are key=value, e.g. poison=1.", req.args[0]))
    bag = _choice(req, "bag-input", INPUT_CHOICES, "digital")
    g = flow.new_game("duel", seed, poison=req.opt_flag("poison"), centurions=req.opt_flag("centurions"),
                      border_control=req.opt_flag("border-control"), rules=_rules(req, solo=False),
                      inputs={"tiles": "digital", "crassus_bag": bag, "human_bag": bag})
    return g.to_json()


def _view(state: State) -> CaesarGameView:
    return view(_load(state))


# -- commands --------------------------------------------------------------------------------
def _parts(steps: list[dict[str, Any]], you: bool = False, private: bool = False) -> Msg:
    """The steps' log fragments joined with semicolons (``you``: the first is the solo player's
    own placement, said with its subject; ``private``: a duel's, whose face-down token is not named)."""
    which = sum(1 for step in steps if step["action"] == "bonus" and step["bonus"] == "senate") > 1
    out = log_fragment(steps[0], you, private) if steps else Msg("nothing")
    for step in steps[1:]:
        out = Msg("{}; {}", out, log_fragment(step, which=which))
    return out


def _logged(g: Game, line: Msg) -> Msg:
    """An action's log sentence; the one that ends the game ends with the winner (C-12)."""
    if g.over and g.end:
        return Msg("{} {}", line, g.end)
    return line


def _player_of(g: Game) -> int:
    """Who sends a player's command: the human in solo, the player to move in a duel."""
    return HUMAN if g.solo else g.turn


def _play(state: State, req: Request) -> Outcome:
    usage = Msg("Usage: play <space> <token> <province|down> [bonus=<name>], e.g. play SC-IT sword:5/1 SC.")
    req.check_opts(frozenset({"bonus"}))
    if len(req.args) != 3:
        raise BadArguments(usage)
    check_written(req.args[1:2], req.asked)
    g = _load(state)
    s = space_index(req.args[0])
    down = req.args[2].lower() in ("down", "face-down")
    face = -1 if down else province_index(req.args[2])
    p = _player_of(g)
    steps = flow.play(g, p, s, req.args[1], face, down, req.opts.get("bonus"))
    note_player(g, p, steps, starts=True)
    _store(state, g)
    fields = {"play": steps[0], "closed": [x for x in steps if x["action"] == "close"],
              "bonuses": [x for x in steps if x["action"] == "bonus"], "steps": steps,
                              "winner": g.names[g.winner] if g.winner >= 0 else None, "next": flow.expecting(g)}
    if g.solo:
        return Outcome(fields, _logged(g, Msg("{}.", _parts(steps, you=True))))
    return Outcome(fields, _logged(g, Msg("{}: {}.", player(g.names[p]), _parts(steps, private=True))))


def _draw(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset({"side"}))
    if len(req.args) > 1:
        raise BadArguments(Msg("Usage: draw [token]  (the token only when your bag is physical)."))
    check_written(req.args, req.asked)
    g = _load(state)
    if g.solo:
        if "side" in req.opts:
            raise BadArguments(Msg("side= is for duels."))
        p = HUMAN
    elif "side" in req.opts:
        p = g.names.index(_choice(req, "side", tuple(g.names), g.names[g.turn]))
    else:
        p = g.turn if g.due[g.turn] or not g.due[1 - g.turn] else 1 - g.turn
    tid = flow.draw(g, p, req.args[0] if req.args else None)
    if g.solo or g.inputs["human_bag"] == "digital":     # the token to take from the real bag stays
        note_player(g, p, [draw_step(g, p, tid)])        # until it is seen (a duel's: on its page, `hand`)
    _store(state, g)
    name = TOKENS[tid].name
    fields = {"token": name, "side": g.names[p], "draws_due": g.due[p], "next": flow.expecting(g)}
    if not g.solo:
        fields["private"] = True
        return Outcome(fields, Msg(DREW_PRIVATE, player(g.names[p])))
    return Outcome(fields, Msg(YOU_DREW, token_named(name)))


YOU_DREW, DREW_PRIVATE = N_("You drew {}."), N_("{} drew a token (private).")
"""A draw's log sentences: its undo says where the token goes (:func:`_undone`)."""


def _might(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: might <space|province|skip>, e.g. might SC-IT or might AC."))
    g = _load(state)
    p = _player_of(g)
    step = flow.might(g, p, req.args[0])
    note_player(g, p, [step])
    _store(state, g)
    return Outcome({"bonus": step, "next": flow.expecting(g)}, step["text"])


def _centurion(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if len(req.args) != 1:
        raise BadArguments(Msg("Usage: centurion <token|skip>, e.g. centurion sword:7/0."))
    check_written(req.args, req.asked)
    g = _load(state)
    p = _player_of(g)
    step = flow.centurion(g, p, req.args[0])
    note_player(g, p, [step])
    _store(state, g)
    return Outcome({"bonus": step, "next": flow.expecting(g)}, step["text"])


def _crassus(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset({"tile", "draw", "centurion"}))
    if req.args:
        raise BadArguments(Msg("Usage: crassus [tile=<letter>] [draw=<token>,...] [centurion=<token>]."))
    check_written([req.opts.get("draw", ""), req.opts.get("centurion", "")], req.asked)
    g = _load(state)
    draws = [t for t in req.opts["draw"].split(",") if t] if "draw" in req.opts else None
    cents = [t for t in req.opts["centurion"].split(",") if t] if "centurion" in req.opts else None
    letter, steps = flow.crassus_turn(g, req.opts.get("tile"), draws, cents)
    note_crassus(g)
    _store(state, g)
    fields: dict[str, Any] = {"tile": letter, "tile_actions": "+".join(g.tile_defs[letter]), "steps": steps,
                              "winner": g.names[g.winner] if g.winner >= 0 else None, "next": flow.expecting(g)}
    table: dict[str, str] = {}
    if "new_stack" in g.last:                   # S-5: the box's stack ran out; which tiles make the new one
        fields["new_stack"] = {**g.last["new_stack"], "text": from_data(g.last["new_stack"]["text"])}
        table = {"table": "new-stack"}
    elif g.inputs["tiles"] == "physical":
        table = {"table": "tile"}
    return Outcome(fields, _logged(g, Msg(CRASSUS_TURN, tile_said(letter, g.rules["edition"]), _parts(steps),
                                          **table)))


CRASSUS_TURN = N_("Crassus: Tile {} — {}.")
"""The log sentence of his turn. With the box's tiles it carries ``table`` (not said), what the
table did with them — ``tile`` (the tile turned up went on his played tiles) or ``new-stack`` (his
stack ran out and was made anew, S-5) — so that an undo of the turn says how to lay them back
(:func:`_undone`)."""


def _undone(sentence: Any) -> Msg | None:
    """An undo of his turn is short: his whole turn named by its tile, then what the table does —
    with the box's tiles (``CRASSUS_TURN`` with ``table``) first how to lay his tiles back as the
    device has them again: the tile just played back face down on top of his stack; or, when that
    turn made his stack anew (S-5), that tile alone as his stack again and every other tile face up
    as played — then take back on the board what the turn did, which the Log lists (its sentence
    stays there, just above the undo's). Your placement that closed provinces likewise. An undo of
    ``reveal-tile`` with his bag physical says that tokens drawn for the tile go back into his
    bag, and one of a draw that the token drawn goes back into the bag (else the bag on the table
    keeps one token less than the device's) — your draw in a sentence of its own, «Отменено: вы
    вытянули…» (the Log's «Вы вытянули…» put after «Отменено:» kept its capital mid-sentence). None
    for every other step (``Undone: <sentence>``)."""
    if isinstance(sentence, AnyMsg) and sentence.template == TILE_REVEALED and sentence.kwargs.get("table") == "bag":
        return Msg("Undone: {} If you drew tokens from his bag for it, put them back into his bag.", sentence)
    if isinstance(sentence, AnyMsg) and sentence.template == YOU_DREW and len(sentence.args) == 1:   # C-6, C-14: the
        return Msg("Undone: you drew {}. Put that token back into the bag.", sentence.args[0])    # table follows
    if isinstance(sentence, AnyMsg) and sentence.template == DREW_PRIVATE and len(sentence.args) == 1:
        # the device drew (a duel): a sentence of its own in the past, as your draw's — the Log's
        # «Цезарь тянет жетон (тайно).» after «Отменено:» read as an undo in the present tense
        return Msg("Undone: {} drew a token (private). Put the token drawn back into the bag.", sentence.args[0])
    bonus = _bonus_undone(sentence)
    if bonus is not None:
        return bonus
    turn, end = _his_turn(sentence)
    if turn is None:
        yours = _your_placement(sentence)
        if yours is None:
            return _placement_undone(sentence)
        token, toward, end = yours
        undone = Msg("Undone: your {} toward {} and all it closed. Take back on the board what it did (the Log "
                     "lists it).", token, toward)
        return undone if end is None else Msg("{} {}", undone, GOES_ON)
    table, letter = turn.kwargs.get("table"), turn.args[0]
    # Short: the first sentence names the turn (the Log keeps its whole sentence, just above).
    if table == "tile":
        undone = Msg("Undone: Crassus's turn with tile {tile}. Put tile {tile} face down on top of his stack; take "
                     "back on the board what the turn did (see the Log).", tile=letter)
    elif table == "new-stack":           # his stack as before that turn: this tile alone, whatever the edition
        undone = Msg("Undone: Crassus's turn with tile {tile}, which remade his stack. His stack is tile {tile} "
                     "alone, face down; his other tiles lie face up beside it as played (from the new stack, if "
                     "made). Then take back on the board what the turn did (see the Log).", tile=letter)
    else:
        undone = Msg("Undone: Crassus's whole turn with tile {tile}. Take back on the board what it did (the Log "
                     "lists it).", tile=letter)
    if end is None:
        return undone
    return Msg("{} {}", undone, GOES_ON)      # then that the game goes on (how it ended: the Log)


GOES_ON = Msg("The game goes on: its end is taken back too.")
"""The last sentence of the undo of a step that ended the game (C-12): how it ended stays in the
Log, just above (it was said again here, «…её конец тоже отменён: Вы разместили свой последний
жетон контроля и побеждаете.» — a whole sentence after a colon, its «Вы» capital mid-sentence, and
«побеждаете» in a note saying the win is taken back)."""

_PLACED = {"You: placed {} on {}, {} toward {}": "up", "You: placed {} on {} face down": "down",
           "You: placed {} on {} face down and drew the face-down bonus {}": "bonus",
           "placed {} on {}, {} toward {}": "up", "placed a token on {} face down": "down",
           "placed a token on {} face down and drew the face-down bonus {}": "bonus"}
"""A placement's first fragment (:func:`engine.caesar.view.log_fragment`, yours in solo, a
player's in a duel): ``up`` face up, ``down`` face down (C-21), ``bonus`` face down with the
face-down bonus drawn (C-21)."""


def _placement_undone(sentence: Any) -> Msg | None:
    """An undo of a placement says where its token goes on the table (C-6: it came from behind the
    placer's screen, and goes back there); one placed face down with a bonus drawn (C-21) also that
    the bonus lies face down beside the board again; one a duel player's placement went on past
    (closures, C-7..C-11, and bonuses) also to take back what else it did (the Log lists it); one
    that ended the game (C-12), that its end is taken back. None for any other sentence."""
    mine, end = sentence, None
    if isinstance(mine, AnyMsg) and mine.template == "{} {}" and len(mine.args) == 2:    # it ended the game (C-12)
        mine, end = mine.args
    if not isinstance(mine, AnyMsg):
        return None
    if mine.template == "{}." and len(mine.args) == 1:
        who, parts = None, mine.args[0]                  # solo: your own placement (its subject in it)
    elif mine.template == "{}: {}." and len(mine.args) == 2:
        who, parts = mine.args                           # a duel: «Caesar: placed …»
    else:
        return None
    first = parts
    while isinstance(first, AnyMsg) and first.template == "{}; {}" and len(first.args) == 2:
        first = first.args[0]
    kind = _PLACED.get(first.template) if isinstance(first, AnyMsg) else None
    if kind is None or (who is None) != first.template.startswith("You: "):
        return None
    a = first.args                         # (token, space, …) yours; a duel's face down: (space, …)
    if kind == "bonus" and first is not parts:       # C-21: the bonus drawn is used at once (one sentence)
        undone = (Msg("Undone: take {} back from {} behind your screen, lay the bonus {} face down beside the board "
                      "and take back what it did (the Log lists it).", a[0], a[1], a[2]) if who is None
                  else Msg("Undone: {} takes the face-down token back from {} behind their screen, lays the bonus {} "
                           "face down beside the board and takes back what it did (the Log lists it).", who, a[0], a[1]))
        return undone if end is None else Msg("{} {}", undone, GOES_ON)
    if who is None:
        undone = (Msg("Undone: take {} back from {} behind your screen and lay the bonus {} face down beside the "
                      "board again.", a[0], a[1], a[2]) if kind == "bonus"
                  else Msg("Undone: take {} back from {} behind your screen.", a[0], a[1]))
    elif kind == "up":
        undone = Msg("Undone: {} takes {} back from {} behind their screen.", who, a[0], a[1])
    elif kind == "bonus":                  # C-21: the token face down is not named in a duel
        undone = Msg("Undone: {} takes the face-down token back from {} behind their screen and lays the bonus {} "
                     "face down beside the board again.", who, a[0], a[1])
    else:
        undone = Msg("Undone: {} takes the face-down token back from {} behind their screen.", who, a[0])
    if first is not parts:                               # it went on past the placement
        undone = Msg("{} {}", undone, Msg("Take back on the board what else it did (the Log lists it)."))
    return undone if end is None else Msg("{} {}", undone, GOES_ON)


def _bonus_undone(sentence: Any) -> Msg | None:
    """An undo of a Might (C-15) or a Centurion (C-18) says what to turn or take back on the table,
    named in the undo question's few words (:func:`_bonus_asked`; the whole sentence again took five
    or six pages): the token or control marker flipped face up again; the centurion taken back out
    from behind the screen to lie in front of it (C-20); after a discard, that nothing there changes
    and the bonus is to use or discard again. None for any other sentence."""
    if not isinstance(sentence, AnyMsg):
        return None
    if sentence.template == flow.MIGHT_TOKEN and len(sentence.args) == 2:
        return Msg("Undone: Might: {} on {}. Turn that token face up again.", *sentence.args)
    if sentence.template == flow.MIGHT_MARKER and len(sentence.args) == 1:
        return Msg("Undone: Might: the control marker in {}. Turn it face up again.", sentence.args[0])
    if sentence.template == flow.MIGHT_DISCARDED:
        return Msg("Undone: {} Nothing to change on the table: use the Might or discard it again.",
                   sentence)
    if sentence.template == flow.CENTURION_TAKEN and len(sentence.args) == 1:
        return Msg("Undone: Centurion: {} behind the screen. Take it back out and lay it in front of the screen "
                   "again.", sentence.args[0])
    if sentence.template in flow.CENTURION_DISCARDED:
        return Msg("Undone: {} Nothing to change on the table: use the Centurion or discard it again.",
                   sentence)
    return None


def _his_turn(sentence: Any) -> tuple[AnyMsg | None, Any]:
    """The sentence of his turn (``CRASSUS_TURN``) and the end of the game it said after it (C-12,
    or None); (None, None) for any other sentence."""
    turn, end = sentence, None
    if isinstance(turn, AnyMsg) and turn.template == "{} {}" and len(turn.args) == 2:   # a turn that ended the game
        turn, end = turn.args                # (C-12: its end, the winner, is taken back with it)
    if not isinstance(turn, AnyMsg) or turn.template != CRASSUS_TURN or len(turn.args) != 2:
        return None, None
    return turn, end


def _your_placement(sentence: Any) -> tuple[Any, Any, Any] | None:
    """The token and the province of your placement (solo) whose sentence goes on past it (the
    provinces it closed, C-7..C-11, and their bonuses), with the end of the game it said after it
    (C-12, or None); None for any other sentence (a placement alone says it in a few words)."""
    placed = _solo_placement(sentence)
    if placed is None:
        return None
    first, went_on, end = placed
    if not went_on or first.template != "You: placed {} on {}, {} toward {}":
        return None
    token, _space, _value, toward = first.args
    return token, toward, end


def _undo_asked(sentence: Any) -> Msg | None:
    """The undo question's sentence, short enough for one panel over «A: undo» (three rows) where
    the step's own sentence is long: his whole turn (S-9..S-18: everything one tile made him do,
    however many placements, closures and bonuses) named by its tile; your placement (C-6) by its
    token and the province its higher number faces — one that closed provinces (C-7..C-11) by its
    token «and all it closed», one that ended the game (C-12) «and the game's end» (with the
    province too it took four rows in Russian and Ukrainian: it scrolled); one face down (C-21) by its token and its space, or by the bonus
    it drew; a Might (C-15) or a Centurion taken (C-18) by what it flipped or took
    (:func:`_bonus_asked`); a draw (C-6) by the token (:func:`_draw_asked`). None for every other
    step (``Take back: <sentence>``: a bonus discarded, a tile revealed, all short). The «Undone»
    notice then says what to do on the board (:func:`_undone`)."""
    drawn = _draw_asked(sentence)
    if drawn is not None:
        return drawn
    turn, end = _his_turn(sentence)
    if turn is not None:
        letter = turn.args[0]
        if end is not None:
            return Msg("Crassus's whole turn with tile {} and the game's end.", letter)
        return Msg("Crassus's whole turn with tile {}.", letter)
    bonus = _bonus_asked(sentence)
    if bonus is not None:
        return bonus
    placed = _solo_placement(sentence)
    if placed is None:
        return None
    first, went_on, end = placed
    a = first.args
    if first.template == "You: placed {} on {}, {} toward {}":     # one that closed: by its token alone
        if end is not None:                                          # (with the province it faces, four rows
            return Msg("Your {} and the game's end.", a[0])          # in Russian under a panel of three)
        if went_on:
            return Msg("Your {} and all it closed.", a[0])
        return Msg("Your {} toward {}.", a[0], a[3])
    if end is not None:                    # C-21 and C-12 at once: rare, asked in its own words
        return None
    if first.template == "You: placed {} on {} face down and drew the face-down bonus {}":
        return Msg("Your {} face down and the bonus {}.", a[0], a[2])
    if went_on:
        return Msg("Your {} face down and all it closed.", a[0])          # (its space too: four rows)
    return Msg("Your {} face down on {}.", a[0], a[1])


def _draw_asked(sentence: Any) -> Msg | None:
    """The undo question of a draw (C-6, C-14), asked on its own with a physical bag or after a
    restart: «Your draw: shield 3/3.» (a duel's names no token: hands are private). Its own sentence
    under «Take back:» read «Отменить? / Отменить: Вы вытянули щит 3/3.», the title's verb again;
    None for any other sentence."""
    if isinstance(sentence, AnyMsg) and sentence.template == YOU_DREW and len(sentence.args) == 1:
        return Msg("Your draw: {}.", sentence.args[0])
    if isinstance(sentence, AnyMsg) and sentence.template == DREW_PRIVATE and len(sentence.args) == 1:
        return Msg("{}: a token drawn (private).", sentence.args[0])
    return None


def _solo_placement(sentence: Any) -> tuple[AnyMsg, bool, Any] | None:
    """Your placement's first fragment in solo (face up or down, :data:`_PLACED`), whether its
    sentence goes on past it (closures C-7..C-11, a bonus drawn face down C-21), and the end of
    the game said after it (C-12, or None); None for any other sentence."""
    mine, end = sentence, None
    if isinstance(mine, AnyMsg) and mine.template == "{} {}" and len(mine.args) == 2:    # it ended the game (C-12)
        mine, end = mine.args
    if not (isinstance(mine, AnyMsg) and mine.template == "{}." and len(mine.args) == 1):
        return None
    parts = first = mine.args[0]
    while isinstance(first, AnyMsg) and first.template == "{}; {}" and len(first.args) == 2:
        first = first.args[0]
    if not isinstance(first, AnyMsg) or not first.template.startswith("You: ") or first.template not in _PLACED:
        return None
    return first, first is not parts, end


def _bonus_asked(sentence: Any) -> Msg | None:
    """The undo question of a Might that flipped something (C-15) or a Centurion taken (C-18), in a
    solo game or a duel: what it flipped or took, in a few words (its own sentence took two or three
    pages); None for any other sentence (a bonus discarded says it in a few words already)."""
    if not isinstance(sentence, AnyMsg):
        return None
    if sentence.template == flow.MIGHT_TOKEN and len(sentence.args) == 2:
        return Msg("Might: {} on {}.", *sentence.args)
    if sentence.template == flow.MIGHT_MARKER and len(sentence.args) == 1:
        return Msg("Might: the control marker in {}.", sentence.args[0])
    if sentence.template == flow.CENTURION_TAKEN and len(sentence.args) == 1:
        return Msg("Centurion: {} behind the screen.", sentence.args[0])
    return None


def _duel_undo_asked(sentence: Any) -> Msg | None:
    """The undo question's sentence of a duel player's placement face up, whose own sentence gives
    every value (four or five pages with «Take back:» in Ukrainian): the player, the token and the
    province it faces, as your own placement's question says it; one that closed provinces
    (C-7..C-11) or ended the game (C-12) says so in a few words, as yours does (the Log keeps the
    rest); one face down by its space, or by the bonus it drew (C-21: the token is not named); a
    Might or a Centurion taken as in solo (:func:`_bonus_asked`), a draw as in solo
    (:func:`_draw_asked`). None for every other step (``Take back: <sentence>``)."""
    drawn = _draw_asked(sentence)
    if drawn is not None:
        return drawn
    bonus = _bonus_asked(sentence)
    if bonus is not None:
        return bonus
    mine, end = sentence, None
    if isinstance(mine, AnyMsg) and mine.template == "{} {}" and len(mine.args) == 2:    # it ended the game (C-12)
        mine, end = mine.args
    if not (isinstance(mine, AnyMsg) and mine.template == "{}: {}." and len(mine.args) == 2):
        return None
    who, parts = mine.args
    first = parts
    while isinstance(first, AnyMsg) and first.template == "{}; {}" and len(first.args) == 2:
        first = first.args[0]
    if not isinstance(first, AnyMsg):
        return None
    if first.template in ("placed a token on {} face down", "placed a token on {} face down and drew the "
                          "face-down bonus {}") and end is None:         # C-21: the token itself is not named
        if len(first.args) == 2:
            return Msg("{}: a token face down and the bonus {}.", who, first.args[1])
        if first is not parts:
            return Msg("{}: a token face down and all it closed.", who)     # (its space too: four rows)
        return Msg("{}: a token face down on {}.", who, first.args[0])
    if first.template != "placed {} on {}, {} toward {}":
        return None
    token, toward = first.args[0], first.args[3]
    if end is not None:                      # one that closed: by its token alone (with the province it
        return Msg("{}: {} and the game's end.", who, token)            # faces, four rows in Russian and
    if first is not parts:                                               # Ukrainian: it scrolled)
        return Msg("{}: {} and all it closed.", who, token)
    return Msg("{}: {} toward {}.", who, token, toward)


def _reveal(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if req.args:
        raise BadArguments(Msg("Usage: reveal-tile  (no arguments)."))
    g = _load(state)
    letter = flow.reveal(g)
    _store(state, g)
    actions = g.tile_defs[letter]
    draws, centurions, _again = tile_takes(actions, [TOKENS[t].name for t in g.hand[CRASSUS]], len(g.bag[CRASSUS]),
                                           len(g.cent[CRASSUS]))
    table = {"table": "bag"} if (draws or centurions) and g.inputs["crassus_bag"] == "physical" else {}
    return Outcome({"tile": letter, "tile_actions": "+".join(actions), "draws": draws,
                    "centurions": centurions},
                   Msg(TILE_REVEALED, tile_said(letter, g.rules["edition"]), **table))


TILE_REVEALED = N_("Crassus: Tile {} revealed.")
"""The log sentence of ``reveal-tile``; ``table="bag"`` (not said) when the table draws what the
tile takes from his bag, so that its undo says where those tokens go (:func:`_undone`)."""


def _decide(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    if req.args:
        raise BadArguments(Msg("Usage: decide  (no arguments)."))
    g = _load(state)
    if g.over:              # nothing to predict once the game has ended (issue 23)
        raise GameOver(Msg("The game is over: {}", flow.end_text(g)))
    return Outcome(decision_fields(g))


def decision_fields(g: Game) -> dict[str, Any]:
    """``decide``'s answer: the play Auto-Crassus would make now (state unchanged). It draws
    nothing and predicts no draw (issue 20): when a list ends "at random", the answer is every
    equally good play (``plays``), the draw that picks one being made when he plays."""
    found = plays(g)
    d = found[0] if found else None
    if d is None:
        why = flow.stuck_reason(g)
        end = (Msg("he skips the play (a house rule chosen for this game)") if g.rules["stuck"] == "skip"
               else Msg("he cannot place a token and loses"))
        return {"step": None, "rule": "S-19", "space": None, "token": None, "toward": None,
                "province": None, "why": Msg("{}: {}.", why, end), "text": None}
    if len(found) == 1:
        out = flow.play_step(d)
        out.pop("action")
        return out
    listed = []
    for one in found:
        step = flow.play_step(one)
        listed.append({**{k: step[k] for k in ("space", "token", "row_index", "toward", "province")},
                       "text": one.text()})
    texts: Msg | str = found[0].item()
    for one in found[1:]:
        texts = Msg("{}; {}", texts, one.item())
    shared = [r for r in d.reason if all(r in one.reason for one in found)]   # what no draw decides
    said: Msg = Msg("{}", shared[0]) if shared and shared[0] == d.reason[0] else point(d.step)
    for note in shared[1:]:
        said = Msg("{}; {}", said, note)
    why = Msg("{said}; he chooses at random among {n} equally good play when he plays: {plays}.",
              plural="{said}; he chooses at random among {n} equally good plays when he plays: {plays}.",
              n=len(found), said=said, plays=texts)
    return {"step": d.step, "rule": d.rule, "space": None, "token": None, "row_index": None, "toward": None,
            "province": None, "why": why, "random": True, "plays": listed,
            "text": Msg("One of {n} equally good play, chosen at random when he plays.",
                        plural="One of {n} equally good plays, chosen at random when he plays.", n=len(found))}


def _preview(state: State, req: Request) -> Outcome:
    """What a placement would close (read-only): the same words as ``play``."""
    req.check_opts(frozenset())
    if len(req.args) != 3:
        raise BadArguments(Msg("Usage: preview <space> <token> <province|down>, e.g. preview SC-IT sword:5/1 SC."))
    g = _load(state)
    s = space_index(req.args[0])
    down = req.args[2].lower() in ("down", "face-down")
    face = -1 if down else province_index(req.args[2])
    return Outcome(preview_fields(closure_preview(g, _player_of(g), s, req.args[1], face, down)))


def _guide(state: State, req: Request) -> Outcome:
    """The physical set-up in sentences (read-only), for the set-up guide screen."""
    req.check_opts(frozenset())
    if req.args:
        raise BadArguments(Msg("Usage: guide  (no arguments)."))
    return Outcome({"steps": [step._asdict() for step in guide_steps(_load(state))]})


def _position_admitted(state: State, req: Request) -> None:
    """A ``position`` asked now (``Command.admit``; ``state`` before it): a game its rules ended is
    already ended (PROTOCOL third round; undo reopens it). A stored one replays as it was."""
    g = _load(state)
    if g.over:
        raise GameOver(Msg("The game is over: {}", flow.end_text(g)))


def _position(state: State, req: Request) -> Outcome:
    data = req.json()
    g = _load(state)
    apply_position(g, data)                   # (it checked the shapes: the spaces' tokens and the row are text)
    check_written([x["token"] for x in (data.get("spaces") or {}).values() if "token" in x]
                  + list(data.get("crassus_row") or []), req.asked)
    _store(state, g)
    tokens = sum(1 for o in g.owner if o >= 0)
    return Outcome({"position": position_of(g), "next": flow.expecting(g)},
                   Msg("Position set: {n} token on the board.", plural="Position set: {n} tokens on the board.",
                       n=tokens))


def _moves(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset({"side"}))
    if req.args:
        raise BadArguments(Msg("Usage: moves [side=<side>]  (no other arguments)."))
    g = _load(state)
    p = _player_of(g)
    if "side" in req.opts:
        p = list(g.names).index(_choice(req, "side", tuple(g.names), g.names[p]))
    out = []
    for tid, s, va, vb in placements(g, p):
        out.append({"space": SPACES[s], "token": TOKENS[tid].name,
                    "toward": {PROVINCES[SPACE_A[s]]: va, PROVINCES[SPACE_B[s]]: vb}})
    downs: list[dict[str, Any]] = []
    names = sorted({TOKENS[t].name for t in g.hand[p]})
    for s in range(len(SPACES)):
        if BORDER_CONTROL[s] and can_play_face_down(g, p, s):
            downs.extend({"space": SPACES[s], "token": name, "face_down": True} for name in names)
    return Outcome({"side": g.names[p], "moves": out, "face_down": downs, "count": len(out) + len(downs)})


def _hand(state: State, req: Request) -> Outcome:
    req.check_opts(frozenset())
    g = _load(state)
    if len(req.args) != 1 or req.args[0].lower() not in g.names:
        raise BadArguments(Msg("Usage: hand <{}>  (shows one player's hand, privately).", "|".join(g.names)))
    p = g.names.index(req.args[0].lower())
    hand = [TOKENS[t].name for t in g.hand[p]]
    return Outcome({"side": g.names[p], "hand": hand, "drawn": _drawn(g, p, hand), "private": True})


def _drawn(g: Game, p: int, hand: list[str]) -> list[str]:
    """The tokens the device drew for duel player ``p`` in their turn, the last one played (none
    once another player has acted), to take from their bag: a draw adds its token to the end of
    the hand, after a centurion taken (C-18: a bonus is decided before the turn's draws)."""
    if g.latest != g.names[p] or g.mine.get("by") != g.names[p]:
        return []
    n = sum(1 for s in g.mine["steps"] if s.get("action") == "draw")
    return hand[len(hand) - n:] if 0 < n <= len(hand) else []


_COMMON = (
    Command("play", _play, True, "play <space> <token> <province|down> [bonus=<name>]"),
    Command("draw", _draw, True, "draw [token]  (your end-of-turn or Wealth draw)"),
    Command("might", _might, True, "might <space|province|skip>  (C-15)"),
    Command("centurion", _centurion, True, "centurion <token|skip>  (C-18)"),
    Command("position", _position, True, "position <json>", admit=_position_admitted),
    Command("moves", _moves, False, "moves [side=...]  (legal placements)"),
    Command("preview", _preview, False, "preview <space> <token> <province|down>  (what it would close)"),
    Command("guide", _guide, False, "guide  (the physical set-up, step by step)"),
)

SOLO = GameRules(
    name="caesar-solo",
    title=N_("Caesar! solo (Auto-Crassus)"),
    new=_new_solo,
    view=_view,
    usage=("new caesar-solo side=caesar|pompey difficulty=easy|normal|hard [poison=1] [centurions=1] "
           "[border-control=1] [harder=1] [edition=ru|uk] [seed=N] ..."),
    commands=commands(
        Command("crassus", _crassus, True, "crassus [tile=X] [draw=...] [centurion=...]  (one Auto-Crassus turn)"),
        Command("decide", _decide, False, "decide  (the play Auto-Crassus would make now)"),
        Command("reveal-tile", _reveal, True, "reveal-tile  (turn up his next tile before crassus)"),
        *_COMMON,
    ),
    language_options=language_options,
    undone=_undone,
    undo_asked=_undo_asked,
)

DUEL = GameRules(
    name="caesar-duel",
    title=N_("Caesar! two players"),
    new=_new_duel,
    view=_view,
    usage="new caesar-duel [poison=1] [centurions=1] [border-control=1] [bag-input=digital|physical] "
          "[edition=ru|uk] [seed=N]",
    commands=commands(*_COMMON, Command("hand", _hand, False, "hand <caesar|pompey>  (private)")),
    language_options=language_options,
    undone=_undone,              # (where the token goes: a draw's, a placement's)
    undo_asked=_duel_undo_asked,
)
