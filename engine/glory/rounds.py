"""Rounds, the event deck and the rotating province board (G-1..G-3).

Seats are numbered 0..3 clockwise around the table; players are listed in clockwise seating
order (4 players: seats 0-3; 3 players: 0-2; 2 players: opposite seats 0 and 2, as the rulebook
asks for non-adjacent provinces; solo: seat 0). The province board holds four provinces in
clockwise order; at the start province ``i`` faces seat ``i``. After ``r`` quarter turns clockwise,
seat ``s`` faces province ``(s - r) mod 4``.

The first-player token lies on a province and turns with the board: whoever faces that province
plays first (G-2). If nobody sits there (3 players), the first player is the next occupied seat
in the direction of play (our reading; the rulebook does not say).
"""
from __future__ import annotations

from typing import Any

from engine.glory.tables import event_cards, tables
from engine.rng import Rng

CLOCKWISE = "clockwise"
COUNTERCLOCKWISE = "counterclockwise"

# arrow code -> (direction of play and of rotation, quarter turns)
ARROWS: dict[str, tuple[str, int]] = {
    "cw90": (CLOCKWISE, 1),
    "cw180": (CLOCKWISE, 2),
    "ccw90": (COUNTERCLOCKWISE, 1),
    "ccw180": (COUNTERCLOCKWISE, 2),
}

SEAT_LAYOUTS: dict[int, list[int]] = {1: [0], 2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3]}


def seat_layout(n_players: int) -> list[int]:
    """Seats taken by ``n_players`` players (1..4), in seating order."""
    return list(SEAT_LAYOUTS[n_players])


def event_deck(rng: Rng, harsh: bool) -> list[str]:
    """The shuffled event deck: 12 base cards, plus the 6 negative ones with Harsh Times (G-2)."""
    ids = [c["id"] for c in event_cards() if harsh or not c["harsh"]]
    rng.note("deck")
    rng.shuffle(ids)
    return ids


def card(card_id: str) -> dict[str, Any]:
    """The event card ``card_id`` from the data; raises KeyError if there is none."""
    for c in event_cards():
        if c["id"] == card_id:
            return dict(c)
    raise KeyError(card_id)


def rotation_of(arrow: str, clockwise_variant: bool) -> int:
    """Signed quarter turns (positive = clockwise) for the end of the round: the card's arrow, or
    always one turn clockwise in the Clockwise variant (G-2)."""
    if clockwise_variant:
        return 1
    direction, turns = ARROWS[arrow]
    return turns if direction == CLOCKWISE else -turns


def facing(state: dict[str, Any]) -> dict[str, str]:
    """Player -> the province in front of them now."""
    provinces: list[str] = state["provinces"]
    return {p: provinces[(state["seats"][p] - state["rotation"]) % 4] for p in state["players"]}


def token_seat(state: dict[str, Any]) -> int:
    """The seat facing the province that carries the first-player token."""
    return int((state["token_province"] + state["rotation"]) % 4)


def turn_order(state: dict[str, Any], direction: str) -> list[str]:
    """Players in playing order this round: from the token's seat, going ``direction`` (G-2)."""
    by_seat = {seat: p for p, seat in state["seats"].items()}
    step = 1 if direction == CLOCKWISE else -1
    start = token_seat(state)
    return [by_seat[(start + step * i) % 4] for i in range(4) if (start + step * i) % 4 in by_seat]


def round_income(round_no: int) -> int:
    """Farming income of round ``round_no`` without the medal (G-3)."""
    return int(tables()["farming_income"][round_no - 1])
