"""For the Glory of Rome's typed action builders: the console line of each action
(docs/protocol/glory.md), as the journal keeps it. Screens act through these."""
from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Line, words


def new(players: Sequence[str], harsh: bool, clockwise: bool) -> Line:
    return Line(f"new glory players={','.join(players)} harsh={int(harsh)} clockwise={int(clockwise)}")


def fame(player: str, delta: int) -> Line:
    return Line(f"fame {player} {delta:+d}")


def vote(player: str, votes: int = 1) -> Line:
    """A vote in the Senate (G-7); two for a boosted action."""
    return words("vote", player, f"n={votes}" if votes != 1 else "")


def event() -> Line:
    return Line("event")


def end_round() -> Line:
    return Line("end-round")


def farm(player: str) -> Line:
    return words("farm", player)


def tax(player: str, population: int, double: bool = False) -> Line:
    return words("tax", player, f"pop={population}", "double=1" if double else "")


def medal(player: str, medal: str) -> Line:
    return words("medal", player, medal)


def pick(hand: int) -> Line:
    return words("pick", hand)


def sheet(player: str, entry: str, value: int) -> Line:
    return words("sheet", player, entry, value)


def score_sheet() -> Line:
    return Line("score sheet")
