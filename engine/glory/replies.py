"""For the Glory of Rome's console responses (docs/protocol/glory.md), as TypedDicts: what a screen
reads from ``ctx.run(glory_actions.…)``. The envelope (``ok``, ``error``, ``message``, ``state``)
is engine/replies.py :class:`Reply`; the fields below are there when ``ok`` is true."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine.replies import Reply


class Milestone(TypedDict):
    """A fame milestone passed (G-…: +1 supporter)."""

    player: str
    milestone: int
    space: int


class FameReply(Reply):
    """``fame`` (and the fame part of ``vote``): everyone's fame and what the change passed."""

    fame: dict[str, int]
    milestones: dict[str, int]
    """Supporters gained per player (only players who gained)."""
    milestone_events: list[Milestone]
    supporters: dict[str, int]
    markers: dict[str, Any]
    floored: NotRequired[bool]
    """``fame`` only: the track stopped the player at 1."""


class VoteReply(FameReply):
    senate: list[str]
    supremacy: bool
    supremacies: int
    fame_gained: int
    pushed_out: list[str]


class UnvoteReply(Reply):
    senate: list[str]
    removed_at: int


class SenateReply(Reply):
    """``senate column=…``: the column corrected after round 9, bottom to top, and as it was."""

    senate: list[str]
    was: list[str]


class Rotation(TypedDict):
    quarter_turns: int
    direction: str


class EventReply(Reply):
    round: int
    card: dict[str, Any]
    direction: str
    first: str
    order: list[str]
    rotation: Rotation
    solo_denarii: NotRequired[int]


class EndRoundReply(Reply):
    round: int
    finished: bool
    turned: int
    """Degrees the board turns (a multiple of 90)."""
    facing: dict[str, str]


class FarmReply(Reply):
    denarii: int
    round: int
    farmer: str


class TaxReply(Reply):
    denarii: int
    fame_lost: int
    fame: dict[str, int]


class MedalReply(Reply):
    medals: dict[str, str | None]


class PickReply(Reply):
    position: int
    hand: int


class SheetReply(Reply):
    sheet: dict[str, dict[str, int]]


class ObjectiveCard(TypedDict):
    """An objective card (G-19): its ``id`` (``engine/data/glory_objectives.json``) and label."""

    id: str
    label: str


class DealReply(Reply):
    """``deal``: every player's 3 cards (a screen never shows it: each player looks in secret)."""

    hands: dict[str, list[ObjectiveCard]]
    # present (true) in a game of 1 or 2 players while the data does not say which cards carry the
    # 2-player symbol: those the rulebook takes out of such a game may be among the dealt ones
    two_player_cards_unknown: NotRequired[bool]


class KeepReply(Reply):
    kept: list[ObjectiveCard]


class ObjectivesReply(Reply):
    """``objectives <name>`` (read-only): the cards the player holds, and whether 2 are kept."""

    cards: list[ObjectiveCard]
    kept: bool


class SoloGoals(TypedDict):
    goals: dict[str, bool]
    done: int
    rank: str | None
    unknown: list[str]


class Score(TypedDict):
    """``score …`` (engine/glory/scoring.py ``score``): the final score, category by category."""

    scores: dict[str, dict[str, int]]
    """Player → category (track, military, politics, trade, religion, objectives, denarii, total) → points."""
    winners: list[str]
    """Most fame, then denarii (G-15); in the Emperor's solo the player once a title is reached (G-17)."""
    ranking: list[str]
    places: dict[str, int]
    """Player → final place; empty in the Emperor's solo, which has no ranking (G-17)."""
    denarii_left: dict[str, int]
    """Player → denarii still held once those exchanged for fame are back in the supply: G-15's
    tie-break (G-14)."""
    battlefields: list[dict[str, Any]]
    achievements: dict[str, list[str]]
    solo: NotRequired[SoloGoals]


class ScoreReply(Reply, Score):
    pass
