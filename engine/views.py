"""What every session's ``state`` holds besides its game's own view (PROTOCOL.md: ``state``):
each game's view (``engine/<game>/views.py``) extends :class:`SessionView`. Texts arrive as
strings in the language chosen (the firmware says every sentence before it answers)."""
from __future__ import annotations

from typing import TypedDict


class SessionView(TypedDict):
    game: str
    """The session's game id (``jc-battle``, ``caesar-solo`` …)."""
    actions: int
    """Effective actions so far (undo takes one back)."""
    commitment: str | None
    """The fair-draw commitment when the seed is secret (SHA-256 hex), else None."""
    share: str | None
    """The players' share of the fair draw (``share=``, ``share``), or None."""
    ended: str | None
    """None while the game runs, then ``finished`` (its rules ended it) or ``ended``."""
    over: bool
    """No more moves: the game's rules ended it (undo reopens it until ``reveal``), or ``end`` did."""
    people: dict[str, str]
    """Side → the person who plays it (``people=`` on the ``new`` line)."""
