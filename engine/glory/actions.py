"""For the Glory of Rome's typed action builders: the console line of each action
(docs/protocol/glory.md), as the journal keeps it. Screens act through these."""
from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Line, words
from engine.glory.replies import (
    DealReply,
    EndRoundReply,
    EventReply,
    FameReply,
    FarmReply,
    KeepReply,
    MedalReply,
    ObjectivesReply,
    PickReply,
    ScoreReply,
    SenateReply,
    SheetReply,
    TaxReply,
    UnvoteReply,
    VoteReply,
)
from engine.replies import NewReply


def new(players: Sequence[str], harsh: bool, clockwise: bool, fame: Sequence[int] = (),
        truce: bool = False, heroes: bool = False, first: str | None = None) -> Line[NewReply]:
    """A new game; ``fame``: each player's starting fame from their character board (G-5), in
    order (left out when every one is 1, the default); ``truce``, ``heroes``: the rulebook's
    variants «Перемирие» and «Герои» (said only when on); ``first``: who holds the first-player
    token (G-2; left out when it is the first listed, the default)."""
    start = f" fame={','.join(str(f) for f in fame)}" if any(f != 1 for f in fame) else ""
    variants = (" truce=1" if truce else "") + (" heroes=1" if heroes else "")
    token = f" first={first}" if first is not None and list(players)[:1] != [first] else ""
    return Line(f"new glory players={','.join(players)}{start} harsh={int(harsh)} clockwise={int(clockwise)}"
                f"{variants}{token}")


def fame(player: str, delta: int) -> Line[FameReply]:
    return Line(f"fame {player} {delta:+d}")


def vote(player: str, votes: int = 1) -> Line[VoteReply]:
    """A vote in the Senate (G-7); two for a boosted action."""
    return words("vote", player, f"n={votes}" if votes != 1 else "")


def unvote(player: str, at: int) -> Line[UnvoteReply]:
    """Take ``player``'s vote at position ``at`` (1 = bottom) out of the Senate column: the
    intrigues «Повторное голосование» and «Недействительное голосование» (G-7)."""
    return words("unvote", player, f"at={at}")


def senate(column: Sequence[str]) -> Line[SenateReply]:
    """The Senate column as it stands on the table, bottom to top: a correction after round 9,
    until the score is final (G-10 scores the column as it stands)."""
    return Line(f"senate column={','.join(column)}")


def event() -> Line[EventReply]:
    return Line("event")


def arrow(code: str) -> Line[EventReply]:
    """The arrows printed on this round's event card (``cw90`` …), in place of the data's (G-2)."""
    return words("arrow", code)


def end_round() -> Line[EndRoundReply]:
    return Line("end-round")


def farm(player: str) -> Line[FarmReply]:
    return words("farm", player)


def tax(player: str, population: int, double: bool = False, penalty: int | None = None) -> Line[TaxReply]:
    """``penalty``: the fame penalty printed on the population dial (double tax only; None: the
    table's, known for some populations only)."""
    return words("tax", player, f"pop={population}", "double=1" if double else "",
                 f"penalty={penalty}" if penalty is not None else "")


def medal(player: str, medal: str) -> Line[MedalReply]:
    return words("medal", player, medal)


def pick(hand: int) -> Line[PickReply]:
    return words("pick", hand)


def sheet(player: str, entry: str, value: int) -> Line[SheetReply]:
    return words("sheet", player, entry, value)


def score_sheet() -> Line[ScoreReply]:
    return Line("score sheet")


def deal() -> Line[DealReply]:
    """3 objective cards to each player (G-19); each keeps 2 with :func:`keep`."""
    return Line("deal")


def keep(player: str, cards: Sequence[str]) -> Line[KeepReply]:
    """``player`` keeps the two objective cards ``cards`` (ids); the third goes to the bottom."""
    return words("keep", player, ",".join(cards))


def objectives(player: str) -> Line[ObjectivesReply]:
    """The objective cards ``player`` holds (read-only)."""
    return words("objectives", player)
