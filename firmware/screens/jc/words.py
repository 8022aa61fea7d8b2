"""Julius Caesar: the words every screen shares (sides, blocks, cards, results) and the session's view."""
from __future__ import annotations

import json
import zlib
from functools import lru_cache
from typing import Any, TypedDict, cast

from engine.jc import actions as act
from engine.jc.replies import Odds, RosterBlock
from engine.jc.roster import roman
from engine.jc.terms import FIRST_OWNER, block_name, first_owner
from engine.jc.views import BattleView, JcView, Verdict
from engine.text import N_
from firmware.i18n import language
from firmware.screens.jc.text import Msg, _, say
from firmware.screens import base, play
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets import Item

GAME = "jc-battle"


SIDES = ("caesar", "pompey")


SIDE_WORDS = {"caesar": N_("Caesar"), "pompey": N_("Pompey")}


ROLE_WORDS = {"attacker": N_("Add attacker"), "defender": N_("Add defender")}


# J-2, when Cleopatra fights for the side she joins: the new-game form's row and its two values (the
# Russian summary's «сражается за нее в следующий раунд боя»; rules 7.52's "next battle turn").
CLEOPATRA_LABEL = N_("Cleopatra fights for her new side")
CLEOPATRA_WORDS = {"round": N_("next round"), "turn": N_("next turn")}


RESULT_WORDS = {"attacker_wins": N_("The attacker wins."),
                "attacker_eliminated": N_("The attacker is destroyed."),
                "defender_holds": N_("The defender holds.")}


STATUS_WORDS = {"reserve": N_("reserve"), "retreated": N_("retreated"), "eliminated": N_("eliminated"),
                "killed": N_("killed")}


# The 11 VP cities (J-17) as the Russian summary names them.
CITY_WORDS = (N_("Alexandria"), N_("Antiochia"), N_("Athenae"), N_("Byzantium"), N_("Carthago Nova"),
              N_("Ephesus"), N_("Massilia"), N_("Roma"), N_("Syracusae"), N_("Tarraco"), N_("Utica"))


EVENT_WORDS = {"apollo": N_("Apollo"), "jupiter": N_("Jupiter"), "mars": N_("Mars"),
               "mercury": N_("Mercury"), "neptune": N_("Neptune"), "pluto": N_("Pluto"),
               "vulcan": N_("Vulcan")}


def view_of(ctx: Ctx) -> JcView:
    """The session's ``state``, read through its TypedDicts (engine/jc/views.py)."""
    return cast(JcView, play.game_view(ctx, (GAME,), "Julius Caesar"))


run_line = play.run_or_notify


_ROSTERS: dict[tuple[str, str], list[RosterBlock]] = {}


def roster_now(ctx: Ctx, side: str) -> list[RosterBlock]:
    """``side``'s roster blocks (the console's ``roster``: each block's owner, status and likely
    strength) for the campaign as it is now, asked once per change of what ``roster`` answers from —
    the campaign's strengths, eliminated and killed blocks, owners, levy cities and the levy pool (engine/jc/console.py
    ``_roster``), all in the view —, not at every row and key (the set-up lists asked it 2-3 times a
    key). Shared by the screens: never change the list or its blocks."""
    camp = view_of(ctx)["campaign"]
    key = (side, repr((camp["strength"], camp["eliminated"], camp["killed"], camp["cleopatra"], camp["owners"],
                       camp["levy"], camp["pool"])))
    if key not in _ROSTERS:
        response = ctx.run(act.roster(side))
        if not response["ok"]:              # (no session: said by the screen's view_of first)
            return []
        if len(_ROSTERS) > 8:
            _ROSTERS.clear()
        _ROSTERS[key] = response["blocks"]
    return _ROSTERS[key]


def campaign_mark(ctx: Ctx) -> str:
    """Whose campaign a read mark (``jc.read``, ``jc.roll``) is of: ``<game>/<commitment>`` — the
    game's own id (``FairDraw.game``: the session it was first played in, which a copy reopened from
    Earlier games keeps, a copy of a copy too) and its fair draw's commitment, its first
    :data:`COMMITMENT_SAID` digits (none for a campaign started with ``seed=``): a campaign and its
    copies share it, two campaigns started with one ``seed=`` never do."""
    return "/".join(_campaign(ctx)[::2])


COMMITMENT_SAID = 16      # digits of the commitment a mark names (a setting keeps the marks of several campaigns)


def _campaign(ctx: Ctx) -> tuple[str, str, str]:
    """The running campaign's game id, its session's and its commitment's first digits ("" for none)."""
    fair = ctx.fair_draw()
    game, session = ((fair.game or fair.session), fair.session) if fair is not None else ("", "")
    return game, session, (view_of(ctx)["commitment"] or "")[:COMMITMENT_SAID]


def kept_for(ctx: Ctx, kept: str) -> str:
    """A read mark as a setting keeps it (``<campaign>:<what>``), its campaign named as
    :func:`campaign_mark` names the running one when it is that campaign's under an older name: the
    same commitment, whatever the session before it (a secret seed is one campaign's: its copies
    reopened from Earlier games go on with it), as ``<session>/<commitment>`` (all its digits) or,
    older, ``<commitment>`` alone; or, without a commitment (``seed=``), the running session's own id (an
    older Legatus named the campaign by the session). Any other mark is left as it is: another
    campaign's, or a ``seed=`` mark naming no session, which may be any campaign's — never taken
    for this one's."""
    who, colon, what = kept.partition(":")
    if not colon:
        return kept
    game, session, commitment = _campaign(ctx)
    named, slash, kept_commitment = who.rpartition("/")
    ours = (kept_commitment[:COMMITMENT_SAID] == commitment if commitment else
            bool(slash) and not kept_commitment and bool(named) and named in (game, session))
    return f"{game}/{commitment}:{what}" if ours else kept


def digest(said: object) -> str:
    """A short mark of what the device said, the same in every language (its ids and its
    sentences' English): one made again after an undo over another state is another one."""
    text = json.dumps(said, ensure_ascii=False, sort_keys=True, default=str)
    return f"{zlib.crc32(text.encode('utf-8')):08x}"


def side_name(side: str | None) -> str:
    return _(SIDE_WORDS[side]) if side in SIDE_WORDS else _("nobody")


def over_item(over: Verdict) -> Item:
    """The campaign's result (J-17), where a row would offer what the game's end refuses: the
    winner (or a draw) and, on A, the verdict."""
    winner = over.get("winner")

    def verdict(c: Ctx) -> None:
        def said() -> play.Snapshot:      # said again in a language chosen while it is read
            now = view_of(c)["campaign"]["over"] or over
            return play.Snapshot((GAME,), _("Campaign over"), say(now.get("reason", "")))
        c.push(remade(said))
    return Item(_("Campaign over"), verdict, side_name(winner) if winner else _("draw"), ident="campaign")


class Named(TypedDict):
    """What :func:`name_of` reads of a block (a view's, a roster's or a turn record's)."""

    name: str


class Owned(Named):
    """What :func:`owned_name` reads of a block (a roster's or a battle's)."""

    id: str                   # (None for a block known by its rating)
    side: str


class Rated(Owned):
    """What :func:`block_row` reads of a block."""

    rating: str
    strength: int


def name_of(b: Named) -> str:
    """A block's printed name in the current language (Legio 10 -> Легион 10), without the words
    the roster adds to explain it (``Pompeius (Pompey)`` -> ``Pompeius``, as the block reads)."""
    return _printed_name(b["name"], language())


@lru_cache(maxsize=256)
def _printed_name(name: str, lang: str) -> str:
    """:func:`name_of` said once per name and language (``lang``, the current one, keys it): a
    side's lists name its 31 blocks at every key."""
    return say(block_name(name)).split(" (", 1)[0]


class BlockNamed(Msg):
    """:func:`name_of` as a value of a sentence (a notice said again in a new language)."""

    def __new__(cls, b: Named) -> BlockNamed:
        self = super().__new__(cls, "{}", block_name(b["name"]))
        assert isinstance(self, BlockNamed)
        return self

    def say(self, gettext: Any, ngettext: Any) -> str:
        return super().say(gettext, ngettext).split(" (", 1)[0]


def owned_name(b: Owned) -> str:
    """:func:`name_of`, marked with its first owner's initial when the block fights for the other
    side (``Auxilia 1 (P)`` among Caesar's blocks)."""
    first = first_owner(b["id"])
    return _(FIRST_OWNER[first]).format(name_of(b)) if first and first != b["side"] else name_of(b)


def fitted_name(b: Owned, width: int) -> str:
    """:func:`owned_name` in ``width`` characters: the printed name is shortened, never the first
    owner's initial (``Auxil… (P)``) nor its number (``Equitat… 1``: two blocks of a kind stay
    apart, as a tied hit's pick needs, J-7)."""
    full = owned_name(b)
    if len(full) <= width:
        return full
    if full == name_of(b):
        return _shortened(full, width)
    mark = len(full) - len(name_of(b))
    if width <= mark + 1:
        return base.clip_name(full, width)
    return full.replace(name_of(b), _shortened(name_of(b), width - mark), 1)


def _shortened(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters, its number kept when it has one (``Equitatus 1`` in
    10: ``Equitat… 1``) and the word keeps at least 3 letters, else cut at the end."""
    word, gap, number = name.rpartition(" ")      # (a block's name, the roster's or typed with add … name=:
    if gap and number.isdigit() and width - len(number) - 1 >= 4:      # cut on purpose, as a typed name is,
        return base.clip_name(word, width - len(number) - 1) + gap + number      # whole on Forces)
    return base.clip_name(name, width)


def block_row(b: Rated, width: int = base.COLS) -> str:
    """``Legio 10      C4 III`` fitted to ``width`` characters (the name shortened on purpose)."""
    tail = f" {b['rating']} {roman(b['strength'])}"
    return fitted_name(b, width - len(tail)).ljust(width - len(tail)) + tail


def card_name(card: str, said: bool = False) -> str:
    """``2/1`` -> "Move 2, Levy 1"; ``mars`` -> "Mars" (J-18). ``said``: after a colon, where Russian
    and Ukrainian write a command card in lower case («Цезарь: движение 3, найм 2», not «Цезарь:
    Движение 3, найм 2»); an event card is a god's name, written with its capital everywhere."""
    if card in EVENT_WORDS:
        return _(EVENT_WORDS[card])
    move, _sep, levy = card.partition("/")
    return (_("move {}, levy {}") if said else _("Move {}, Levy {}")).format(move, levy)


def win_chance(battle: BattleView, side: str, odds: Odds) -> float:
    """The chance ``side`` ends up holding the field (results are the original attacker's)."""
    p = float(odds["attacker_wins"])
    return p if side == battle["attacker"] else 1.0 - p
