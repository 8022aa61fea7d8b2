"""A session's log sentences: one kept as it was stored (:class:`Stored`, its ``to_data`` JSON) is
decoded only when it is read (:func:`said`), and an undone action's sentence is said in its own
game's words (:func:`undone_sentence`)."""
from __future__ import annotations

import json
from typing import Any

from engine.game import GameRules
from engine.text import Msg


class Stored(str):
    """A sentence as stored (``to_data`` JSON), turned back into a Msg only when it is read:
    a long session restarts without decoding every sentence."""


def said(sentence: Any) -> Any:
    """The sentence itself (a Msg or text), decoding a :class:`Stored` one."""
    if isinstance(sentence, Stored):
        from engine.text import from_data
        try:
            return from_data(json.loads(sentence))
        except ValueError:
            return str(sentence)
    return sentence


def undone_sentence(sentence: Any, rules: GameRules | None = None) -> Msg:
    """``Undone: <sentence>``, said in the words of the sentence's own domain (a game's sentence
    keeps its game's terms: Caesar!'s "wild" is the rulebook's «универсальный» there, not the
    shared catalog's word; "Undone: {}" itself falls back to the shared catalog), or the game's
    own sentence for that undo (``rules.undone``: Glory's board turned back)."""
    inner = said(sentence)
    if rules is not None and rules.undone is not None:
        own = rules.undone(inner)
        if isinstance(own, Msg):
            return own
    text = Msg("Undone: {}", inner)
    if isinstance(inner, Msg) and inner.domain:
        text.domain = inner.domain
    return text
