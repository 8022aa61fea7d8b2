"""What a placement would close, before it is made (issue 23 §2: the closure preview).

:func:`closure_preview` plays the placement on a copy of the game, with the rules of a real
placement (C-3, C-7..C-12, C-16, S-8 ties), and reports every province it closes (a placement can
close two), who would take each, the control markers and whether the game would end and who
would win. It draws nothing: the copy's generator is a fresh one and its face-down bonuses are
set aside, so the answer predicts no draw (a face-down play's bonus is not known until it is
drawn; ``bonus_unknown`` says so).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from engine.caesar import flow
from engine.caesar.model import Game
from engine.caesar.terms import player
from engine.rng import Draws
from engine.caesar.text import Msg


class Closing(NamedTuple):
    """One province the placement closes: ``province`` (code), ``totals`` (player -> influence,
    you or Caesar first), ``winner`` (a player name or ``none``), ``markers`` (control markers
    placed on it: 1, Italy 2), ``border_markers`` (space ids, C-10), ``bonus`` (taken by the
    placing player, C-8) and ``text`` (the closure's sentence)."""

    province: str
    totals: dict[str, int]
    winner: str
    markers: int
    border_markers: list[str]
    bonus: str | None
    text: Msg


class Preview(NamedTuple):
    """The placement's consequences: ``closes`` (empty when it closes nothing), ``senate_markers``
    (control markers it puts under the placing player's Senate tokens, C-16), ``ends_game``,
    ``winner`` (who would win then, else None), ``markers_left`` (player -> markers left after
    it), ``bonus_unknown`` (a face-down play whose bonus is still to be drawn, C-21) and
    ``text`` (one sentence when it ends the game, else None)."""

    closes: list[Closing]
    senate_markers: int
    ends_game: bool
    winner: str | None
    markers_left: dict[str, int]
    bonus_unknown: bool
    text: Msg | None


def closure_preview(g: Game, p: int, s: int, text_token: str, face: int, down: bool = False) -> Preview:
    """The consequences of player ``p`` placing ``text_token`` on space ``s`` with its first
    number toward province ``face`` (``down``: face down, C-21). ``g`` is not changed. Raises
    what :func:`engine.caesar.flow.play` raises for the same request (not your turn, illegal)."""
    work = g.copy()
    work.rng = Draws.legacy(0)        # draws on the copy (Poison) must not mirror the real ones
    unknown = down and bool(work.pool)
    work.pool = []                    # a face-down play's bonus: not drawn here
    steps = flow.play(work, p, s, text_token, face, down, None)
    closes = [Closing(x["province"], {work.names[0]: x["totals"][work.names[0]],
                                      work.names[1]: x["totals"][work.names[1]]},
                      x["winner"], int(x["markers"]), list(x["border_markers"]), x["bonus"], x["text"])
              for x in steps if x["action"] == "close"]
    senate = sum(int(x.get("markers", 0)) for x in steps if x["action"] == "bonus" and x["bonus"] == "senate")
    winner = work.names[work.winner] if work.winner >= 0 else None
    text: Msg | None = None
    if work.over and winner is not None:
        if work.solo:
            text = (Msg("This placement ends the game: you win.") if work.winner == 0
                    else Msg("This placement ends the game: Crassus wins."))
        else:
            text = Msg("This placement ends the game: {} wins.", player(winner))
    return Preview(closes, senate, work.over, winner,
                   {work.names[q]: work.markers[q] for q in (0, 1)}, unknown, text)


def preview_fields(pv: Preview) -> dict[str, Any]:
    """The console's ``preview`` answer."""
    return {"closes": [c._asdict() for c in pv.closes], "senate_markers": pv.senate_markers,
            "ends_game": pv.ends_game, "winner": pv.winner, "markers_left": pv.markers_left,
            "bonus_unknown": pv.bonus_unknown, "text": pv.text}
