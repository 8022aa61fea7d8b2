"""The whole game as one mutable object of small integers, and its JSON form.

Players are 0 and 1: in solo 0 is the human and 1 Auto-Crassus; in a duel 0 is Caesar and 1
Pompey. Per space: ``owner`` (-1 empty), ``tok`` (token id), ``va``/``vb`` (numbers facing
``SPACE_A``/``SPACE_B``), ``down`` (face down: flipped by Might or played face down, counts 0/0),
``bmark`` (border control marker owner, -1 none). Per province: ``ctrl`` (OPEN, NONE after a tie,
or the player), ``cflip`` (its control marker flipped by Might), ``bonus`` ('' when none), ``slots`` (control
markers lying on it: 0..2, Italy 2, C-9).
``inf[p][prov]`` (face-up influence), ``empty[prov]`` (empty spaces), ``emask[prov]`` (icons of
its empty spaces) and ``touch[p][prov]`` (p's tokens on its spaces, face down included) are
derived on load and kept up to date by :func:`engine.caesar.rules.put`.
"""
from __future__ import annotations

from typing import Any

from engine.caesar.board import N_PROVINCES, N_SPACES, SPACE_A, SPACE_B, SPACE_ICON
from engine.caesar.editions import EDITIONS, LEGACY, VARIANTS, rules_with_defaults, variant_values
from engine.rng import Draws
from engine.text import Msg, from_data, to_data

OPEN = -2
NONE = -1
HUMAN, CRASSUS = 0, 1
MARKERS = 12

# Rule options and their choices. The rules editions' variants (engine/data/caesar_editions.json:
# defend S-11, reshuffle S-5, ties S-14/S-15, harder-when S-8) take their default from the
# edition; the others default to their first choice. See docs/protocol/caesar.md.
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "edition": EDITIONS,
    **{name: v.choices for name, v in VARIANTS.items()},
    "stuck": ("lose", "skip"),                # S-19: no legal placement loses / skips the play
    "harder": ("off", "always", "control"),   # S-8 harder game: off, or on with harder-when's value
    "crassus-ties": ("own", "all"),           # S-8: he wins ties on his plays / on every closure
}
OTHER_RULES: dict[str, str] = {"stuck": "lose", "harder": "off", "crassus-ties": "own"}
INPUT_CHOICES = ("digital", "physical")

_LISTS30 = ("owner", "tok", "va", "vb", "down", "bmark")
_LISTS18 = ("ctrl", "cflip", "bonus", "slots")
_PAIRS = ("hand", "bag", "cent", "markers", "senate", "senate_markers", "removed", "due")
_SCALARS = ("mode", "names", "human_side", "difficulty", "poison", "centurions", "border_control",
            "rules", "inputs", "pool", "turn", "step", "pending", "extra", "cent_taken",
            "tile_defs", "tile_user", "deck", "stack", "played", "last_tile", "revealed", "winner", "end",
            "last", "turns", "mine", "latest", "drawn")
# Keys added after sessions were first stored: a state without them gets these values.
_LATER: dict[str, Any] = {"mine": {}, "latest": "", "drawn": [0, 0]}

# The streams of the game's draws (``g.rng.stream(name)``, docs/fairness.md): the bonus tokens laid
# at set-up (C-5) and the C-21 face-down ones set aside, the tile stack (S-3, S-5), a face-down C-21
# bonus drawn, a face-down centurion turned up (S-4), a token lost to Poison (C-17), Auto-Crassus's
# choice between equally good plays (S-8..S-18), and each player's token bag (``tokens_stream``).
BONUSES, TILES, BONUS_POOL, CENTURION_POOL, POISON, TIES = (
    "bonuses", "tiles", "bonus-pool", "centurions", "poison", "crassus-ties")


def tokens_stream(names: list[str], p: int) -> str:
    """The stream of player ``p``'s token bag: ``tokens-human``/``tokens-crassus`` in solo,
    ``tokens-caesar``/``tokens-pompey`` in a duel."""
    return f"tokens-{names[p]}"


class Game:
    """A game of Caesar! (solo or duel). Build with :func:`engine.caesar.flow.new_game`."""

    __slots__ = _LISTS30 + _LISTS18 + _PAIRS + _SCALARS + ("inf", "empty", "emask", "touch", "rng")

    def __init__(self) -> None:
        self.mode = "solo"
        self.names: list[str] = ["human", "crassus"]
        self.human_side = "caesar"
        self.difficulty = "normal"
        self.poison = False
        self.centurions = False
        self.border_control = False
        self.rules: dict[str, str] = {"edition": LEGACY, **variant_values(LEGACY), **OTHER_RULES}
        self.inputs: dict[str, str] = {"tiles": "digital", "crassus_bag": "digital", "human_bag": "digital"}
        self.owner: list[int] = [-1] * N_SPACES
        self.tok: list[int] = [-1] * N_SPACES
        self.va: list[int] = [0] * N_SPACES
        self.vb: list[int] = [0] * N_SPACES
        self.down: list[int] = [0] * N_SPACES
        self.bmark: list[int] = [-1] * N_SPACES
        self.ctrl: list[int] = [OPEN] * N_PROVINCES
        self.cflip: list[int] = [0] * N_PROVINCES
        self.bonus: list[str] = [""] * N_PROVINCES
        self.slots: list[int] = [0] * N_PROVINCES
        self.hand: list[list[int]] = [[], []]
        self.bag: list[list[int]] = [[], []]
        self.cent: list[list[int]] = [[], []]
        self.markers: list[int] = [MARKERS, MARKERS]
        self.senate: list[int] = [0, 0]
        self.senate_markers: list[int] = [0, 0]
        self.removed: list[int] = [0, 0]
        self.due: list[int] = [0, 0]
        self.drawn: list[int] = [0, 0]     # draws made since the ones owed (``due``) were last set: C-5, C-6, C-14
        self.pool: list[str] = []
        self.turn = CRASSUS
        self.step = "play"
        self.pending: list[str] = []
        self.extra = False
        self.cent_taken = False
        self.tile_defs: dict[str, list[str]] = {}
        self.tile_user: list[str] = []
        self.deck = ""
        self.stack: list[str] = []
        self.played: list[str] = []
        self.last_tile = ""
        self.revealed = ""          # a digital tile turned up by ``reveal`` before its turn
        self.winner = -1
        self.end = ""
        self.last: dict[str, Any] = {}
        self.turns = 0
        self.mine: dict[str, Any] = {}     # the human side's turn in progress or last (engine/caesar/turns.py)
        self.latest = ""                   # who acted last: "crassus" (his turn), a player name, or ""
        self.inf: list[list[int]] = [[0] * N_PROVINCES, [0] * N_PROVINCES]
        self.empty: list[int] = [0] * N_PROVINCES
        self.emask: list[int] = [0] * N_PROVINCES
        self.touch: list[list[int]] = [[0] * N_PROVINCES, [0] * N_PROVINCES]
        self.rng: Draws = Draws.legacy(0)     # the game's draws, one stream per source of chance

    # -- derived ---------------------------------------------------------------------------
    def recompute(self) -> None:
        """Rebuild ``inf``, ``empty``, ``emask`` and ``touch`` from the spaces."""
        inf0 = [0] * N_PROVINCES
        inf1 = [0] * N_PROVINCES
        empty = [0] * N_PROVINCES
        emask = [0] * N_PROVINCES
        touch = [[0] * N_PROVINCES, [0] * N_PROVINCES]
        owner, down, va, vb = self.owner, self.down, self.va, self.vb
        for s in range(N_SPACES):
            o = owner[s]
            a, b = SPACE_A[s], SPACE_B[s]
            if o < 0:
                empty[a] += 1
                empty[b] += 1
                emask[a] |= SPACE_ICON[s]
                emask[b] |= SPACE_ICON[s]
                continue
            touch[o][a] += 1
            touch[o][b] += 1
            if not down[s]:
                row = inf0 if o == 0 else inf1
                row[a] += va[s]
                row[b] += vb[s]
        self.inf = [inf0, inf1]
        self.empty = empty
        self.emask = emask
        self.touch = touch

    @property
    def over(self) -> bool:
        return self.step == "over"

    @property
    def solo(self) -> bool:
        return self.mode == "solo"

    def is_bot(self, p: int) -> bool:
        """True for Auto-Crassus (solo player 1)."""
        return self.mode == "solo" and p == CRASSUS

    def copy(self) -> Game:
        """An independent copy (for look-ahead)."""
        return Game.from_json(self.to_json())

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain JSON data; ``Game.from_json(g.to_json())`` behaves exactly like ``g``."""
        out: dict[str, Any] = {}
        for key in _LISTS30 + _LISTS18:
            out[key] = list(getattr(self, key))
        for key in _PAIRS:
            val = getattr(self, key)
            out[key] = [list(v) if isinstance(v, list) else v for v in val]
        for key in _SCALARS:
            val = getattr(self, key)
            if isinstance(val, list):
                val = [list(v) if isinstance(v, list) else v for v in val]
            elif isinstance(val, dict):
                val = {k: (list(v) if isinstance(v, list) else v) for k, v in val.items()}
            out[key] = val
        out["rng"] = self.rng.to_json()
        out["end"] = str(self.end)
        if isinstance(self.end, Msg):                  # why it ended, sayable in any language
            out["end_data"] = to_data(self.end)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild from :meth:`to_json` output; raises KeyError/ValueError if malformed."""
        g = cls.__new__(cls)
        for key in _LISTS30 + _LISTS18:
            setattr(g, key, list(data[key]))
        for key in _PAIRS:
            setattr(g, key, [list(v) if isinstance(v, list) else v for v in data[key]])
        for key in _SCALARS:
            val = data[key] if key in data or key not in _LATER else _LATER[key]
            if isinstance(val, list):
                val = [list(v) if isinstance(v, list) else v for v in val]
            elif isinstance(val, dict):
                val = {k: (list(v) if isinstance(v, list) else v) for k, v in val.items()}
            setattr(g, key, val)
        g.rng = Draws.from_json(data["rng"])
        g.rules = rules_with_defaults(g.rules)     # a game stored before rules editions: mixed
        if data.get("end_data"):
            g.end = from_data(data["end_data"])
        g.recompute()
        return g
