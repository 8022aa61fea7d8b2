"""What every session's ``state`` holds besides its game's own view (PROTOCOL.md: ``state``):
each game's view (``engine/<game>/views.py``) extends :class:`SessionView`. Texts arrive as
strings in the language chosen (the firmware says every sentence before it answers)."""
from __future__ import annotations

from typing import NotRequired, TypedDict


class SessionView(TypedDict):
    game: str
    """The session's game id (``jc-battle``, ``caesar-solo`` …)."""
    actions: int
    """Effective actions so far (undo takes one back)."""
    commitment: NotRequired[str]
    """The fair-draw commitment, when the seed is secret (SHA-256 hex)."""
