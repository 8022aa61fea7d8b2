"""Auto-Crassus's command tiles (S-3, S-4, S-5) as data.

A tile is a list of actions: ``draw1``..``draw3`` (tokens from his bag to the right end of the
row), ``play`` (one placement, S-8), ``discard1``/``discard2`` (leftmost row tokens back to the
bag), ``centurion`` (a random face-down centurion to the right end of the row). The default
contents come from ``engine/data/caesar_board.json`` and are **unverified** (S-4); the ``tiles=``
option of ``new caesar-solo`` redefines any letters::

    tiles=A:draw2+play+discard1;B:draw1+play;C:draw2+play+play
"""
from __future__ import annotations

import re

from engine.caesar.board import DATA
from engine.caesar.terms import RUSSIAN_TILE_LETTERS, tile_letter
from engine.errors import BadArguments
from engine.caesar.text import Msg

LETTERS = ("A", "B", "C", "D", "E")
ACTIONS = ("draw1", "draw2", "draw3", "play", "discard1", "discard2", "centurion")
MAX_ACTIONS = 6
DEFAULT_TILES: dict[str, list[str]] = {k: list(v) for k, v in DATA["solo"]["tiles"].items()}
DECKS: dict[str, dict[str, str]] = DATA["solo"]["decks"]
DIFFICULTIES = ("easy", "normal", "hard")
# a tile's letter: A-E, or as the Russian rulebook prints it (А Б В Г Д, as ``crassus tile=`` takes it)
_ITEM = re.compile(r"^([A-Ea-e%s%s])\s*:\s*(.+)$" % (RUSSIAN_TILE_LETTERS, RUSSIAN_TILE_LETTERS.lower()))


def parse_tiles(text: str) -> dict[str, list[str]]:
    """Parse ``A:draw2+play+discard1;B:draw1+play`` into ``{letter: actions}`` (a letter may be the
    Russian rulebook's: ``В:draw2+play+play`` is tile C, S-3).

    Raises BadArguments naming the bad part: unknown letter or action, a tile without ``play``,
    more than six actions, or a letter given twice.
    """
    out: dict[str, list[str]] = {}
    for part in text.replace(",", ";").split(";"):
        part = part.strip()
        if not part:
            continue
        m = _ITEM.match(part)
        if not m:
            raise BadArguments(Msg("tiles=: '{}' should look like B:draw1+play (letters {}; actions {}).",
                                   part, "/".join(LETTERS), ", ".join(ACTIONS)))
        letter = tile_letter(m.group(1))
        if letter in out:
            raise BadArguments(Msg("tiles=: tile {} is given twice.", letter))
        actions = [a.strip().lower() for a in m.group(2).split("+")]
        for a in actions:
            if a not in ACTIONS:
                raise BadArguments(Msg("tiles=: '{}' on tile {} is not an action ({}).", a, letter,
                                       ", ".join(ACTIONS)))
        if "play" not in actions:
            raise BadArguments(Msg("tiles=: tile {} needs at least one play.", letter))
        if len(actions) > MAX_ACTIONS:
            raise BadArguments(Msg("tiles=: tile {} has {} actions; at most {}.", letter, len(actions), MAX_ACTIONS))
        out[letter] = actions
    if not out:
        raise BadArguments(Msg("tiles= is empty; write e.g. tiles=A:draw2+play+discard1;B:draw1+play."))
    return out


def tile_text(actions: list[str]) -> str:
    """``['draw2', 'play']`` -> ``'draw2+play'`` (the ``tiles=`` syntax)."""
    return "+".join(actions)


def deck_for(difficulty: str, centurions: bool) -> str:
    """The six tile letters of a difficulty (S-3), e.g. ``'AAABBC'``."""
    return DECKS["centurions" if centurions else "base"][difficulty]


def draw_count(action: str) -> int:
    """1..3 for ``drawN``/``discardN``; 0 otherwise."""
    return int(action[-1]) if action[:-1] in ("draw", "discard") else 0


Back = tuple[int, "str | int | None"]
"""A token back in his bag from the table's pick ``i`` (0-based) of a tile's draws on: a token of
his row (its name), the token the table drew at an earlier pick (that pick's index), or ``None``
a centurion the tile turned up (one of his face-down centurions: which, the table says after the
draws)."""


def tile_takes(actions: list[str], row: list[str], bag: int, centurions: int) -> tuple[int, int, list[Back]]:
    """What a tile takes when his bag is physical and the table draws for him before his turn,
    walked in the tile's order as his turn does (S-5, S-6): the tokens drawn (as many as the bag
    holds then), the face-down centurions turned up, and the tokens a discard puts back in his bag
    before a later draw, so that the table may draw them again from that draw on, not before
    (S-5: the bag holds them only then): ``(i, name)`` a token of his ``row`` (left to right),
    ``(i, j)`` the token drawn at pick ``j``, put back before pick ``i``, ``(i, None)`` a centurion
    turned up and put back (S-4: a discard takes the leftmost token, whatever it is). A play takes one token
    from his row (which one is his choice, S-8: after ``p`` plays, a discard of ``k`` puts back
    ``k`` of the row's first ``k + p`` tokens); a draw or centurion that ran short skips the
    discards."""
    drawn = turned = 0
    short = False
    unsure = 0                               # plays whose token is not known: still in ``here``
    # his row: -1 - i the row's i-th token (two alike are two tokens), j >= 0 the token of pick j,
    # -1 - len(row) - c the tile's c-th centurion
    here: list[int] = [-1 - i for i in range(len(row))]
    left = len(row)                          # tokens in his row now
    back: list[int] = []                     # back in his bag, not yet offered to a draw
    again: list[tuple[int, int]] = []
    for action in actions:
        n = draw_count(action)
        if action.startswith("draw"):
            k = min(n, bag)
            short |= k < n
            if k:
                again += [(drawn, t) for t in back]
                back = []
            here += list(range(drawn, drawn + k))
            drawn, bag, left = drawn + k, bag - k, left + k
        elif action == "centurion":
            if centurions:
                here.append(-1 - len(row) - turned)      # its name is asked after the draws
                centurions, turned, left = centurions - 1, turned + 1, left + 1
            else:
                short = True
        elif action == "play":
            unsure, left = unsure + (left > 0), max(0, left - 1)
        elif not short:                      # discardN: the leftmost tokens back to his bag
            k = min(n, left)
            gone = here[:k + unsure]         # the leftmost k of the row once the plays took theirs
            offered = back + [t for _, t in again]
            back += [t for t in gone if t not in offered]
            del here[:k]                     # the rest keep their order: what stays is among here[k:]
            bag, left = bag + k, left - k
    return drawn, turned, [(i, t if t >= 0 else row[-1 - t] if -1 - t < len(row) else None) for i, t in again]
