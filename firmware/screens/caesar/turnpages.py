"""Caesar!: a turn's record (``last_crassus_turn``, ``last_player_turn``) as the screens it is
shown on (:class:`Page`), and where its reading starts: the first screen not read, the first
holding an action's new steps. Pure: no screen, no context; :mod:`firmware.screens.caesar.turn`
shows them."""
from __future__ import annotations

from typing import Required, TypedDict, cast

from engine.caesar.replies import Step
from engine.caesar.views import LastTurn, TurnRecord
from firmware.screens import base
from firmware.screens.caesar.icons import tokens_width
from firmware.screens.caesar.text import _
from firmware.screens.caesar.words import tok


class Page(TypedDict, total=False):
    """One screen of a turn (:func:`record_pages`): ``kind`` (tile, notes, draw, close, play,
    bonus, stack, end) and ``at`` (the engine page's index); a tile page has ``tile``, ``into``,
    ``back``, ``notes``; notes ``tile``, ``notes``; draw ``tokens``, ``texts``; close ``step``,
    ``bonuses``; play and bonus ``step``; stack (his new stack, S-5) ``notes``; end ``winner``."""

    kind: Required[str]
    at: int
    tile: str
    into: list[str]
    back: list[str]
    notes: list[str]
    tokens: list[str]
    texts: list[str]
    step: Step
    bonuses: list[Step]
    winner: str | None


def record_pages(record: TurnRecord, tile: str | None = None, winner: str | None = None) -> list[Page]:
    """A turn's record (``last_crassus_turn``, ``last_player_turn``) as screens, one per engine
    page (engine/caesar/turns.py; ``at`` is its index): the tile with the row changes (draws,
    centurions, discards), a play, a closure with the bonus it gave, another bonus, the tokens
    to take from your bag (none when you drew them yourself), the end."""
    steps = record["steps"]
    out: list[Page] = []
    for at, page in enumerate(record["pages"]):
        kind, idx = page["kind"], page["steps"]
        mine = [steps[i] for i in idx if i < len(steps)]
        if kind == "tile":
            into = [t for s in mine if s["action"] == "draw" for t in s["tokens"]]
            into += [t for s in mine if s["action"] == "centurion" and (t := s.get("token"))]
            back = [t for s in mine if s["action"] == "discard" for t in s["tokens"]]
            noted = [s for s in mine                           # the centurion from his stack (tile E) too
                     if (s.get("short") or s.get("skipped") or s["action"] == "centurion"
                         or (token_size(into if s["action"] == "draw" else back) == "" and s.get("tokens")))
                     and not _said_before(s, mine)]
            below, apart = _split_notes(noted, tile_free_rows(bool(into), bool(back)))
            out.append({"kind": "tile", "tile": tile or "", "into": into, "back": back, "notes": below, "at": at})
            if apart:                                # the notes on a page of their own, never cut
                out.append({"kind": "notes", "tile": tile or "", "notes": apart, "at": at})
        elif kind == "draw":
            texts = [str(s["text"]) for s in mine if s.get("text")]
            if texts:                               # the device drew: which tokens to take from the bag
                out.append({"kind": "draw", "tokens": [t for s in mine for t in s["tokens"]], "texts": texts,
                            "at": at})
        elif kind == "close" and mine:
            out.append({"kind": "close", "step": mine[0], "bonuses": mine[1:], "at": at})
        elif kind in ("play", "bonus") and mine:
            out.append({"kind": kind, "step": mine[0], "at": at})
        elif kind == "stack" and (new := cast(LastTurn, record).get("new_stack")):   # S-5: the box's tiles
            out.append({"kind": "stack", "notes": [str(new["text"])], "at": at})
        elif kind == "end":
            out.append({"kind": "end", "winner": winner, "at": at})
    return out


def _split_notes(noted: list[Step], free: int) -> tuple[list[str], list[str]]:
    """A tile's notes as (under the tile, on a page of their own): all under the tile when they
    fit its ``free`` rows; else those of an empty or short bag (S-6: «His bag is empty.») stay
    under the tile when they fit there and the others fit one page of their own (tile E's
    centurion, then its draw from an empty bag: a page each way was a screen and a half, one press
    more); else all on a page of their own."""
    def rows(notes: list[str]) -> int:
        return sum(len(base.wrap(str(n))) for n in notes)
    notes = [s["text"] for s in noted]
    if rows(notes) <= free:
        return notes, []
    short = [s["text"] for s in noted if s["action"] == "draw" and s.get("short")]
    others = [s["text"] for s in noted if not (s["action"] == "draw" and s.get("short"))]
    if short and others and rows(short) <= free and rows(others) <= base.ROWS < rows(notes):
        return short, others
    return [], notes


def _said_before(step: Step, steps: list[Step]) -> bool:
    """A discard his tile skipped (S-6) whose reason a draw or centurion before it on the page
    already gave: that step's sentence ends "…and skips this turn's discard" (engine/caesar/flow.py
    words it so whenever his tile has a discard), so the skip is not said a second time."""
    if step["action"] != "discard" or not step.get("skipped"):
        return False
    at = next(i for i, s in enumerate(steps) if s is step)
    return any(s.get("short") and s["action"] in ("draw", "centurion") for s in steps[:at])


def token_size(names: list[str]) -> str:
    """The size tokens fit in on one row of the tile page: ``large``, ``body``, or ``""`` (they do
    not: the sentence naming them is added to the page's notes, S-4 tiles of your own)."""
    return next((kind for kind in ("large", "body") if tokens_width(names, kind) <= base.W - 2), "")


def tile_free_rows(into: bool, back: bool) -> int:
    """Text rows left on the tile page under the tokens into his row and back to his bag."""
    y = base.row_y(0) + (29 if into else 0) + (25 if back else 0)
    return max(0, (base.H - y) // base.LINE)


def first_page(pages: list[Page], read: int, screens: int = 0) -> int:
    """The first screen of ``pages`` not read when ``read`` of the record's pages were, and
    ``screens`` of the screens the next page is said on (his tile's notes on their own): never a
    screen read, and never past one not read (said in another language than when read, the notes
    may fit under the tile now: that screen, which says them, is shown)."""
    first = next((i for i, p in enumerate(pages) if p["at"] >= read), len(pages))
    same = sum(1 for p in pages[first:] if p["at"] == read)
    return first + min(screens, max(0, same - 1))


def new_pages(record: TurnRecord, before: int) -> int:
    """The first of a record's engine pages holding a step from index ``before`` on (the steps an
    action just added), or the number of pages when there is none."""
    for i, page in enumerate(record["pages"]):
        if any(k >= before for k in page["steps"]):
            return i
    return len(record["pages"])


def drawn_page(drawn: list[str], at: int) -> Page:
    """A duel's last page after your move: the tokens the device drew for you, to take from your
    bag, a sentence for each (two with Wealth, C-14), as a solo turn's draw page says them."""
    said = [_("Take {} from your bag and put it behind your screen.").format(tok(t)) for t in drawn]
    return {"kind": "draw", "tokens": drawn, "texts": said, "at": at}
