"""The physical set-up of the game just started, as sentences in the rulebooks' words.

Both rulebooks set up alike (C-5, C-19..C-21, S-2, S-3 and the solo Centurions set-up); the
device has drawn what is random (the bonus tokens, his row, your tokens), so each step says what
to put where. :func:`guide_steps` is read by the set-up guide screen (console ``guide``).
"""
from __future__ import annotations

from typing import NamedTuple

from engine.caesar.board import ITALY, N_PROVINCES, PROVINCES
from engine.caesar.model import CRASSUS, HUMAN, Game
from engine.caesar.terms import tile_said
from engine.caesar.tokens import CENTURION_IDS, TOKENS
from engine.caesar.text import Msg


class GuideStep(NamedTuple):
    """One thing to do at the table: ``key`` (stable: ``senate``, ``bonuses``, ``left_over``,
    ``markers``, ``centurions``, ``his_centurions``, ``row``, ``tiles``, ``hand``, ``first``),
    ``text`` (a sentence), ``tokens`` (influence tokens it names, ``icon:a/b``, in order) and
    ``bonuses`` (province code -> bonus, for ``bonuses``)."""

    key: str
    text: Msg
    tokens: list[str]
    bonuses: dict[str, str]


def _step(key: str, text: Msg, tokens: list[str] | None = None,
          bonuses: dict[str, str] | None = None) -> GuideStep:
    return GuideStep(key, text, list(tokens or []), dict(bonuses or {}))


def guide_steps(g: Game) -> list[GuideStep]:
    """The set-up steps for ``g`` as it stands at the start (C-5, C-19..C-21, S-2, S-3)."""
    out = [_step("senate", Msg("Put the Senate bonus token on the slot of Italy with the solid border; the "
                               "dashed slot stays empty."))]
    laid = {PROVINCES[x]: g.bonus[x] for x in range(N_PROVINCES) if x != ITALY and g.bonus[x]}
    out.append(_step("bonuses", Msg("Put one bonus token face up on each other province, as the device drew "
                                    "them:"), bonuses=laid))
    extra = 3 * (int(g.poison) + int(g.centurions))
    if extra:
        if g.border_control:
            text = Msg("The {n} bonus token left over goes face down beside the board: a face-down play on a "
                       "double-bordered space draws one of them (Border control).",
                       plural="The {n} bonus tokens left over go face down beside the board: a face-down play "
                              "on a double-bordered space draws one of them (Border control).", n=extra)
        else:
            text = Msg("The {n} bonus token left over goes back into the box unseen.",
                       plural="The {n} bonus tokens left over go back into the box unseen.", n=extra)
        out.append(_step("left_over", text))
    if g.solo:
        out.append(_step("markers", Msg("Put your 12 control markers on your side of the board, and Crassus's 12 "
                                        "on his side.")))
    else:
        out.append(_step("markers", Msg("Each player puts their 12 control markers on their side of the board.")))
    if g.centurions:
        cents = [TOKENS[t].name for t in CENTURION_IDS[:3]]
        if g.solo:
            out.append(_step("centurions", Msg("Put your 3 centurion tokens face up in front of your screen."),
                             cents))
            out.append(_step("his_centurions", Msg("Shuffle Crassus's 3 centurion tokens and put them face down in "
                                                   "a stack beside his row: his tiles {} and {} take from it.",
                                                   tile_said("D", g.rules["edition"]),
                                                   tile_said("E", g.rules["edition"]))))
        else:
            out.append(_step("centurions", Msg("Each player puts their 3 centurion tokens face up in front of "
                                               "their screen."), cents))
    if g.solo:
        row = [TOKENS[t].name for t in g.hand[CRASSUS]]
        out.append(_step("row", Msg("Take these 3 tokens from Crassus's bag and lay them face up in a row, left "
                                    "to right:"), row))
        deck = g.deck
        counts = Msg.join([Msg("{}×{}", deck.count(x), tile_said(x, g.rules["edition"]))
                           for x in sorted(set(deck))])
        if g.inputs["tiles"] == "digital":
            text = Msg("His command tiles: {}. The device shuffles and turns them up; the real ones can stay in "
                       "the box.", counts)
        else:
            text = Msg("His command tiles: {}. Shuffle them face down in a stack beside the board.", counts)
        out.append(_step("tiles", text))
        hand = [TOKENS[t].name for t in g.hand[HUMAN]]
        if hand:
            out.append(_step("hand", Msg("Take these tokens from your bag and put them behind your screen:"), hand))
        else:
            out.append(_step("hand", Msg("Draw {n} token from your bag, put it behind your screen and enter it.",
                                         plural="Draw {n} tokens from your bag, put them behind your screen and "
                                                "enter them.", n=g.due[HUMAN])))
        out.append(_step("first", Msg("Crassus takes the first turn.")))
    else:
        n = len(g.hand[0]) or g.due[0]
        out.append(_step("hand", Msg("Each player draws {n} token from their bag behind their screen; the device "
                                     "shows each hand privately.",
                                     plural="Each player draws {n} tokens from their bag behind their screen; the "
                                            "device shows each hand privately.", n=n)))
        out.append(_step("first", Msg("Caesar takes the first turn.")))
    return out
