"""The VP track (W-11), Desperate Times priority (W-12) and Carthaginian unrest (W-13).

Ties everywhere follow the order Gauls > Etruscans > Samnites > Greeks > Carthage > Romans: the
faction earlier in that order wins the tie.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.sword.tables import tables
from engine.sword.text import Msg


def vp_range() -> tuple[int, int]:
    """The VP track's lowest and highest figures (W-11: 0 and 12, from the game's tables)."""
    t = tables()
    return int(t["vp_min"]), int(t["vp_max"])


def game_length() -> tuple[int, int]:
    """The game's last turn and the rounds of a turn (9 turns of 5 rounds), from its tables."""
    t = tables()
    return int(t["turns"]), int(t["rounds_per_turn"])


def clamp_vp(vp: int) -> int:
    """VP stay within 0..12 (W-11)."""
    low, high = vp_range()
    return max(low, min(high, vp))


def scoring_change(outside: int, home_missing: int) -> int:
    """A scoring phase's change: +1 per victory space held outside the home area, -1 per home
    victory space not held (W-11)."""
    return outside - home_missing


def tie_rank(faction: str) -> int:
    """Position in the tie order (0 = wins every tie)."""
    return list(tables()["tie_order"]).index(faction)


def unrest_effects(unrest: int) -> dict[str, int]:
    """Carthaginian unrest: hand size -floor(unrest/2), VP -floor(unrest/3) (W-13)."""
    return {"hand_size": -(unrest // 2), "vp": -(unrest // 3)}


def effective_vp(vp: Mapping[str, int], unrest: int | None) -> dict[str, int]:
    """VP after the Carthaginian unrest penalty (never below 0)."""
    out = dict(vp)
    if unrest is not None and "carthage" in out:
        out["carthage"] = max(0, out["carthage"] + unrest_effects(unrest)["vp"])
    return out


def standings(vp: Mapping[str, int]) -> list[str]:
    """Factions from most to fewest VP, ties by the tie order (W-11)."""
    return sorted(vp, key=lambda f: (-vp[f], tie_rank(f)))


def desperate_priority(wanting: Iterable[str], vp: Mapping[str, int]) -> str:
    """Of the factions that want to play a Desperate Times card at the same moment, the one
    that plays: fewest VP, ties by the tie order (W-12). Raises ValueError if none."""
    candidates = list(wanting)
    if not candidates:
        raise ValueError(Msg("nobody wants to play"))
    return min(candidates, key=lambda f: (vp[f], tie_rank(f)))


def end_of_round5_order(vp: Mapping[str, int], cards: Mapping[str, int]) -> list[str]:
    """Who may play a Desperate Times card at the end of round 5, in descending VP order (ties
    by the tie order), among factions with a card left (W-12)."""
    return [f for f in standings(vp) if cards.get(f, 0) > 0]
