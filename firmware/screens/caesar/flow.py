"""Caesar!: how a turn leads on — Auto-Crassus's turn (asking for physical tiles and tokens), your
move, bonuses, draws, the private hands of a duel — so a turn needs no trip through the home screen."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from engine.actions import Line
from engine.caesar import actions as act
from engine.caesar.rules import flip_changes
from engine.caesar.tiles import draw_count, tile_takes
from engine.caesar.tokens import BASE_IDS, CENTURION_IDS, TOKENS
from engine.caesar.views import CaesarView
from engine.replies import Reply
from firmware.screens.caesar.text import _, ngettext
from firmware.screens.caesar.move import PlayMap, auto_draw
from firmware.screens.caesar.pickers import ChoiceScreen, TokenPicker
from firmware.screens.caesar.pickers import TilePicker
from firmware.screens.caesar.reading import taken_back
from firmware.screens.caesar.turn import resume, show_crassus, show_mine
from firmware.screens.caesar.words import (Follows, edition_of, facing, snapshot, opponent, pn, pn_short, run_line,
                                            space_name, tile_letter, tile_words, tok, two_rows, view_of,
                                            useless, view_if_any, who, why_screen)
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import ConfirmScreen, TextScreen


def private(ctx: Ctx, then: Callable[[Ctx], None]) -> None:
    """In a duel, hands are private: ask for the device to be passed first (a screen that shows
    nothing private); in solo, go straight on."""
    view = view_of(ctx)
    if view["mode"] == "solo":
        then(ctx)
        return
    turn = view["turn"]

    def make() -> PassScreen:
        name = who(view, turn)
        return PassScreen(_("Pass the device"), _("Pass the device to {0}; only {0} looks now.").format(name),
                          then, _("A: {}").format(name), _("B: back"))
    ctx.push(remade(make))


class PassScreen(Follows, ConfirmScreen):
    """The pass-the-device screen of a duel (shows nothing private); taken off by an undo."""


def open_decide(ctx: Ctx) -> None:
    """"Crassus would…": the play he would make now (token, space, the value toward the province
    it aims at), then why; several equally good plays are listed in the why itself. On his turn
    his tile acts first (S-5): its draws may change his row, so the play is said to be from his
    row as it is now; once his tile is turned up and takes tokens before his first play (a
    physical bag: the table names them next), no play from the row without them is said."""
    view = view_of(ctx)
    first = _taken_before_play(view)
    if first is not None:
        letter, n = first
        edition = edition_of(view)

        def waiting() -> TextScreen:
            return snapshot(_("Crassus would…"), ngettext(
                "Tile {tile}: he takes {n} more token into his row before he plays, and his play depends on "
                "it. Name it under “Crassus's turn”.",
                "Tile {tile}: he takes {n} more tokens into his row before he plays, and his play depends on "
                "them. Name them under “Crassus's turn”.", n).format(
                tile=tile_letter(letter, edition), n=n))
        ctx.push(remade(waiting))
        return
    response = run_line(ctx, act.decide())
    if response is None:
        return
    space, token, prov, toward = response["space"], response["token"], response["province"], response["toward"]
    c = view["crassus"]
    # S-5: his tile, not turned up yet, comes first (on his turn; and, when he could place nothing
    # now, before he plays at all, if his bag or face-down centurions can refill his row)
    tile_first = view["turn"] == "crassus" or (response["step"] is None and bool(c["bag"] or c["centurions_face_down"]))
    tile_first = tile_first and not view["tiles"]["revealed"]

    def make() -> TextScreen:                 # the play read once: said again, never asked again
        lead = ""
        if space and token and prov and toward:
            lead = _("He would place {token} on {space}, {v} toward {prov}.").format(
                token=tok(token), space=space_name(space), v=toward[prov], prov=pn(prov))
        if tile_first:
            lead = " ".join([_("His tile comes first and may add tokens to his row; this is from his row as "
                               "it is now."), lead]).strip()
        return why_screen(response, now=True, lead=lead)
    ctx.push(remade(make))


def _taken_before_play(view: CaesarView) -> tuple[str, int] | None:
    """On his turn with his tile turned up (digital tiles, physical bag: ``reveal-tile``): the
    tile and how many tokens (drawn, centurions turned up) it adds to his row before its first
    play, as many as his bag and face-down centurions hold (S-5, S-6); None when it adds none
    or no tile is up."""
    letter = view["tiles"]["revealed"] if view["mode"] == "solo" and view["turn"] == "crassus" else None
    if not letter:
        return None
    bag, cents, n = view["crassus"]["bag"], view["crassus"]["centurions_face_down"], 0
    for action in view["tiles"]["definitions"][letter].split("+"):
        if action == "play":
            break
        if action.startswith("draw"):
            k = min(draw_count(action), bag)
            bag, n = bag - k, n + k
        elif action == "centurion" and cents:
            cents, n = cents - 1, n + 1
    return (letter, n) if n else None


def open_last(ctx: Ctx) -> None:
    show_crassus(ctx)


def open_hand(ctx: Ctx) -> None:
    ctx.push(remade(lambda: hand_screen(ctx)))


def hand_screen(ctx: Ctx) -> TextScreen:
    h = view_of(ctx)["human"]
    rows = [_("Behind your screen:")] + [("  " + tok(t)) for t in h["hand"]]
    rows.append(_("In your bag: {}").format(h["bag"]))
    if h["centurions"]:
        rows.append(_("Centurions:"))
        rows += ["  " + tok(t) for t in h["centurions"]]
    return snapshot(_("Your hand"), rows)


def open_duel_hand(ctx: Ctx) -> None:
    """The hand of the player to move (after the pass-the-device screen): ``hand`` is read-only."""
    view = view_of(ctx)
    response = run_line(ctx, act.hand(view["turn"]))
    if response is not None:
        hand, turn = list(response["hand"]), view["turn"]
        cents, bag = view["players"][turn]["centurions"], view["players"][turn]["bag"]

        def make() -> TextScreen:                # the hand read once: said again, never asked again
            rows = [_("Behind your screen:")] + ["  " + tok(t) for t in hand]
            rows.append(_("In your bag: {}").format(bag))
            if cents:
                rows += [_("Centurions:")] + ["  " + tok(t) for t in cents]
            return snapshot(_("Hand: {}").format(who(view, turn)), rows)
        ctx.push(remade(make))


def open_row(ctx: Ctx) -> None:
    ctx.push(remade(lambda: row_screen(ctx)))


def row_screen(ctx: Ctx) -> TextScreen:
    c = view_of(ctx)["crassus"]
    rows = [_("Left to right:")] + [("  " + tok(t)) for t in c["row"]]
    rows.append(_("In his bag: {}").format(c["bag"]))
    if c["centurions_face_down"]:
        rows.append(_("Face-down centurions: {}").format(c["centurions_face_down"]))
    return snapshot(_("Crassus's row"), rows)


# -- Crassus's turn ------------------------------------------------------------------------------
def crassus_turn(ctx: Ctx) -> None:
    """Digital: run the turn. Physical tiles/bag: ask for the tile, then the tokens drawn."""
    view = view_of(ctx)
    if view["inputs"]["tiles"] == "digital" and view["inputs"]["crassus_bag"] == "digital":
        finish_crassus(ctx, act.crassus())
        return
    if view["inputs"]["tiles"] == "physical":
        letters = sorted(set(view["tiles"]["stack_left"]))
        ctx.push(TilePicker(letters, view["tiles"]["definitions"],
                            lambda c, x: _after_tile(c, x, x)))
        if len(letters) == 1:                # his stack holds that tile only (its last, or all alike, S-5):
            _after_tile(ctx, letters[0], letters[0])     # nothing to ask; his turn's first page names it
        return
    letter = view["tiles"]["revealed"]
    if letter is None:                       # digital tile, physical bag: turn the tile up first
        response = run_line(ctx, act.reveal_tile())
        if response is None:
            return
        letter = response["tile"]
    definition = view["tiles"]["definitions"][letter]
    ctx.push(remade(lambda: TextScreen(_("Tile {}").format(tile_letter(letter, edition_of(view))),
                                       tile_words(definition))))
    _after_tile(ctx, letter, None)


def _after_tile(ctx: Ctx, letter: str, tile: str | None) -> None:
    """The tile is known (top screen: the tile choice; ``tile``: the one turned up on the table):
    ask for the tokens drawn, then play."""
    view = view_of(ctx)
    if view["inputs"]["crassus_bag"] == "digital":
        ctx.pop()
        finish_crassus(ctx, act.crassus(tile))
        return
    actions = view["tiles"]["definitions"][letter].split("+")
    c = view["crassus"]
    n_draw, n_cent, again = tile_takes(actions, c["row"], c["bag"], c["centurions_face_down"])   # S-5, S-6
    # a tile of your own may put tokens back before a later draw: offered from that draw on (S-5)
    hidden = _hidden_centurions(view)

    def with_draws(c: Ctx, drawn: list[str]) -> None:
        if n_cent:
            c.replace(TokenPicker(lambda: _("Centurion up"), hidden, n_cent,
                                  lambda c2, cents: _pop_and_finish(c2, act.crassus(tile, drawn, cents))))
        else:
            _pop_and_finish(c, act.crassus(tile, drawn))

    if n_draw:                   # the title names his tile: with the device's tiles it is seen nowhere else
        shown = tile_letter(letter, edition_of(view))
        ctx.replace(TokenPicker(lambda: _("Tile {}: draws {}").format(shown, n_draw), c["bag_contents"], n_draw,
                                with_draws, back=again, centurions=hidden))
    else:                        # a centurion asked in the tile's place, or none: the tile's screen goes
        with_draws(ctx, [])      # (his bag empty, S-6: not the screen under it too)


def _hidden_centurions(view: CaesarView) -> list[str]:
    if not view["position"]["modules"]["centurions"]:
        return []
    hidden = [TOKENS[t].name for t in CENTURION_IDS]
    seen = [v["token"] for v in view["position"]["spaces"].values() if v["by"] == "crassus"]
    for name in seen + view["crassus"]["row"] + view["crassus"]["bag_contents"]:
        if name in hidden:
            hidden.remove(name)
    return hidden


def _pop_and_finish(ctx: Ctx, line: Line[Reply]) -> None:
    ctx.pop()
    finish_crassus(ctx, line)


def finish_crassus(ctx: Ctx, line: Line[Reply]) -> None:
    if run_line(ctx, line) is not None:
        show_crassus(ctx, then=go_on, played=True)


def go_on(ctx: Ctx, holder: str | None = None) -> None:
    """Lead on to what the table does next, so a turn needs no trip through the home screen:
    Auto-Crassus's turn starts (with physical tiles or bag: the question what was drawn); your move
    opens when you may place, the choice of a bonus when one waits, the question what you drew
    when you draw from a physical bag; in a duel, behind the pass-the-device screen for the player
    to move (``holder``: the duel player known to hold the device, who is not passed it again).
    Otherwise (the game over) the home screen says what is next."""
    if show_unread(ctx):                     # a turn sent over the serial link meanwhile: first its pages
        return
    view = view_of(ctx)
    if view["winner"] or view["ended"]:      # C-12, or the players ended it: nothing more to play
        return
    solo = view["mode"] == "solo"
    if solo and view["turn"] == "crassus":
        if not view["human"]["draws_due"]:
            crassus_turn(ctx)                 # digital: runs; physical: asks for the tile / tokens
        elif view["inputs"]["human_bag"] == "physical":
            draw_owed(ctx)                    # your first tokens, one by one, then his turn
        return
    due = view["human"]["draws_due"] if solo else view["players"][view["turn"]]["draws_due"]
    pending = view["human"]["pending"] if solo else view["pending"]
    then: Callable[[Ctx], None] | None = None
    if view["step"] == "play" and not due:
        then = open_play
    elif view["step"] == "bonus" and pending:
        then = partial(open_bonus, kind=pending[0])
    elif view["step"] in ("play", "draw") and due and view["inputs"]["human_bag"] == "physical":
        then = draw_owed                      # (at "play": a duel's second player's first tokens, C-5)
    if then is not None:
        if solo or still_theirs(view) or holder == view["turn"]:
            then(ctx)
        else:
            private(ctx, then=then)


def show_unread(ctx: Ctx) -> bool:
    """A move the device did not show — sent over the serial link (``crassus``, ``play``), or a
    turn played again after an undo — has its pages shown when the game's home comes on top or a
    turn's pages lead on (:func:`go_on`), from the first not read (never a page read:
    ``caesar.read``), then on as after his turn on the device; True if so. A duel's draw page is
    not (its tokens are the hand of whoever sent it). A turn read, then taken back by an undo the
    device saw, is not read any more: played again the same way it is shown again (the table
    took its tokens back)."""
    if not note_taken_back(ctx):
        return False
    return resume(ctx, go_on, drawn=False)


def note_taken_back(ctx: Ctx) -> bool:
    """The turns read that the game's state no longer holds (an undo took them back) count as not
    read from now on (:func:`~firmware.screens.caesar.reading.unread_taken_back`); False when no
    Caesar! game is in play."""
    if view_if_any(ctx) is None:
        return False
    taken_back(ctx)
    return True


def still_theirs(view: CaesarView) -> bool:
    """In a duel, whether the player to move is the one who acted last and whose turn the device
    has just shown: their Might or centurion to choose (C-15, C-18), their draw from the box's bag
    (C-6), their turn again after Tactics (C-13). The device is in their hands already: it is not
    passed to them."""
    record = view.get("last_player_turn")
    return bool(record and record["current"] and record["by"] == view["turn"])


# -- your move -----------------------------------------------------------------------------------
def open_play(ctx: Ctx) -> None:
    ctx.push(PlayMap(go_on))


# -- bonuses and draws ---------------------------------------------------------------------------
def open_bonus(ctx: Ctx, kind: str) -> None:
    """The Might (C-15) or centurion (S-4) choice, its rows said again in the language set when it
    is made again (a language change): the choices are worded inside the maker."""
    view = view_of(ctx)
    if kind == "might":
        foe = "crassus" if view["mode"] == "solo" else opponent(view, view["turn"])
        pos = view["position"]
        spaces = [(sid, facing(sid, v["toward"])) for sid, v in pos["spaces"].items()
                  if v["by"] == foe and not v["face_down"]]
        markers = [p for p, w in pos["control"].items() if w == foe and p not in pos["flipped_control"]]
        # C-15: the flips that can change something first (board order kept), then those that
        # cannot (a token toward closed provinces only, a marker with no open neighbour), marked
        changes = {x: flip_changes(pos, x) for x in [sid for sid, _n in spaces] + markers}

        def might() -> ChoiceScreen:
            def row(x: str, full: str, short: str, note: str = "") -> str:
                return two_rows(full, short, note) if changes[x] else useless(full, short, note)
            choices = [(row(sid, space_name(sid), space_name(sid, short=True), numbers), sid, numbers)
                       for sid, numbers in spaces]
            choices += [(row(p, _("marker in {}").format(pn(p)), _("marker in {}").format(pn_short(p))), p, "")
                        for p in markers]
            choices.sort(key=lambda choice: not changes[choice[1]])
            choices.append((_("Skip"), "skip", ""))
            return ChoiceScreen(_("Might: flip what?"), choices, lambda c, x: _bonus_done(c, act.might(x)))
        ctx.push(remade(might))
    else:
        cents = view["human"]["centurions"] if view["mode"] == "solo" else view["players"][view["turn"]]["centurions"]

        def centurion() -> ChoiceScreen:
            choices = [(tok(t), t, "") for t in cents] + [(_("Skip (draw as usual)"), "skip", "")]
            return ChoiceScreen(_("Take a centurion"), choices, lambda c, x: _bonus_done(c, act.centurion(x)))
        ctx.push(remade(centurion))


def _before(ctx: Ctx) -> int:
    """How many steps the turn's record holds before an action that adds to it."""
    record = view_of(ctx).get("last_player_turn")
    return len(record["steps"]) if record and record["current"] else 0


def _bonus_done(ctx: Ctx, line: Line[Reply]) -> None:
    before = _before(ctx)
    if run_line(ctx, line) is not None:
        ctx.pop()
        after_mine(ctx, before)


def after_mine(ctx: Ctx, before: int) -> None:
    """After your placement or bonus: draw what is owed (digital bag), show what it added to your
    turn (closures, the Might flip, the tokens to take from the bag), then lead on."""
    drawn = auto_draw(ctx)
    show_mine(ctx, before, go_on, drawn if view_of(ctx)["mode"] == "duel" else None)


def draw_owed(ctx: Ctx) -> None:
    """The tokens owed to the player to move (C-5's first ones, C-6, C-14's Wealth): with a physical
    bag, asked one at a time, the picker counting them all from the game's state (``draws_done``
    of ``draws_done + draws_due``: «1/2» for the second of two, where «0/1» twice read as one token
    owed — and after a restart too, where a count kept on the screen began again at «0/1»)."""
    view = view_of(ctx)
    if view["inputs"]["human_bag"] == "physical":
        solo = view["mode"] == "solo"
        pool = view["human"]["bag_contents"] if solo else _duel_bag(ctx, view)
        owed = view["human"] if solo else view["players"][view["turn"]]
        done, due = owed["draws_done"], owed["draws_due"]
        ctx.push(TokenPicker(lambda: _("You drew?"), pool, 1, lambda c, picked: _drawn(c, act.draw(picked[0])),
                             series=(done, done + max(due, 1))))
        return
    after_mine(ctx, _before(ctx))


def _duel_bag(ctx: Ctx, view: CaesarView) -> list[str]:
    """What the player to move may draw in a duel (the device is theirs now): their 16 tokens but
    those on the board and behind their screen (the ``hand`` answer: read-only, private)."""
    side = view["turn"]
    pool = [TOKENS[t].name for t in BASE_IDS]
    on_board = [s["token"] for s in view["position"]["spaces"].values() if s["by"] == side]
    response = run_line(ctx, act.hand(side))
    for name in on_board + (response["hand"] if response is not None else []):
        if name in pool:
            pool.remove(name)
    return pool


def _drawn(ctx: Ctx, line: Line[Reply]) -> None:
    """A token drawn from a physical bag: the same player's next one is asked at once (no pass of
    the device, no trip home); then on to what the table does next."""
    before = view_of(ctx)
    ctx.pop()
    if run_line(ctx, line) is None:
        return
    view = view_of(ctx)
    solo = view["mode"] == "solo"
    due = view["human"]["draws_due"] if solo else view["players"][view["turn"]]["draws_due"]
    if due and view["turn"] == before["turn"] and not view["winner"] and view["step"] in ("play", "draw"):
        draw_owed(ctx)
        return
    go_on(ctx, holder=before["turn"])        # the player who drew has the device
