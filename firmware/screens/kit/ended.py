"""What Dice & bags say and offer over a session that rolls and draws no more: the players ended
it (``end``, the seed shown), or its rules did (C-12, W-11, Glory after round 9 …): a roll, a draw
or a side bag's change answers ``game_over`` (PROTOCOL.md, third round). The game's own screens say
"Start another from Games"; here the way on is Dice & bags' own (a dice session, a bag of its own),
and a session of Dice & bags is never in Games or History."""
from __future__ import annotations

from typing import Literal, TypeVar

from engine.actions import Line
from engine.replies import Reply
from engine.views import SessionView
from firmware.i18n import Msg
from firmware.screens import play
from firmware.screens.ctx import Ctx

R = TypeVar("R", bound=Reply)
Tool = Literal["dice", "bag"]


def draws_no_more(view: SessionView | None) -> bool:
    """Whether the running session takes no roll, draw or side bag's change any more."""
    return view is not None and bool(view["ended"] or view["over"])


def over_note(view: SessionView | None, tool: Tool) -> str:
    """Why ``tool`` (the dice, a bag or deck) does nothing over ``view``, and what to do instead."""
    if view is None or view["game"] in play.tools():       # a dice or bag session the players ended
        if tool == "dice":
            return Msg("This session has ended and is kept in History: no more dice can be rolled in it. Dice & bags → Dice "
                       "starts a new one.")
        return Msg("This session has ended and is kept in History: nothing more can be drawn in it. Dice & bags → Bags & decks "
                   "starts a new bag or deck.")
    if tool == "dice":
        return Msg("This game is over and is kept in History: no more dice can be rolled beside it. Dice & bags → Dice starts "
                   "a dice session of its own.")
    return Msg("This game is over and is kept in History: nothing more can be drawn beside it. Dice & bags → Bags & decks "
               "starts a bag or deck of its own.")


def run(ctx: Ctx, line: Line[R], tool: Tool) -> R | None:
    """:func:`play.run_or_notify` for a roll or a draw: a session that is over is said as Dice &
    bags sees it (:func:`over_note`), not as a game's screens do."""
    response = ctx.run(line)
    reply: Reply = response
    if reply["ok"]:
        return response
    ctx.notify(over_note(ctx.view(), tool) if reply.get("error") == "game_over" else play.refusal(reply))
    return None
