"""Victory points, the victory checks and the winter checklist (J-17, J-19).

The campaign (see :mod:`engine.jc.campaign`) keeps ``control``: VP city -> ``caesar``,
``pompey`` or ``None`` (vacant), and ``trophies``: side -> killed enemy leaders.
"""
from __future__ import annotations

from typing import Any

from engine.jc.terms import side as side_word
from engine.jc.text import Msg
from engine.jc import mapdata
from engine.jc.roster import SIDES, roster

WIN_VP = 10
LAST_YEAR = 5
FIRST_YEAR_AUC = 705          # year 1 is 705 AUC (49 BC)
ROME = "Roma"
ALEXANDRIA = "Alexandria"


def starting_control() -> dict[str, str | None]:
    """VP cities held at the historical set-up: the side with blocks there (J-17: Pompey 7,
    Caesar 1; Rome, Athens, Byzantium and Ephesus vacant)."""
    held: dict[str, str | None] = {c: None for c in mapdata.vp_cities()}
    for spec in roster().values():
        if spec.setup in held:
            held[spec.setup] = spec.side
    return held


def vp(control: dict[str, str | None], trophies: dict[str, list[Any]]) -> dict[str, dict[str, Any]]:
    """Per side: the VP cities held, their value, the trophies and the total (J-17)."""
    values = mapdata.vp_cities()
    out: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        held = sorted(c for c, s in control.items() if s == side and c in values)
        city_vp = sum(values[c] for c in held)
        out[side] = {"cities": held, "city_vp": city_vp, "trophies": len(trophies[side]),
                     "total": city_vp + len(trophies[side])}
    return out


def verdict(control: dict[str, str | None], trophies: dict[str, list[Any]], year: int
            ) -> dict[str, Any] | None:
    """The winter victory check (J-17): 10+ VP wins at once; after year 5 the higher total
    wins, then whoever holds Rome, else a draw. ``None`` if the game goes on."""
    totals = {s: v["total"] for s, v in vp(control, trophies).items()}
    c, p = totals["caesar"], totals["pompey"]
    if max(c, p) >= WIN_VP and c != p:
        winner = "caesar" if c > p else "pompey"
        return {"winner": winner, "reason": Msg("{} has {} VP (10 or more).", side_word(winner), max(c, p)),
                "totals": totals}
    if year < LAST_YEAR:
        return None
    if c != p:
        winner = "caesar" if c > p else "pompey"
        return {"winner": winner, "reason": Msg("After year 5 {} has more VP ({} to {}).",
                                                side_word(winner), max(c, p), min(c, p)), "totals": totals}
    rome = control.get(ROME)
    if rome:
        return {"winner": rome, "reason": Msg("VP tied at {} after year 5; {} holds Rome.", c, side_word(rome)),
                "totals": totals}
    return {"winner": None, "reason": Msg("VP tied at {} after year 5 and Rome is vacant: a draw.", c),
            "totals": totals}


def supply_limits() -> dict[str, int]:
    """Blocks each city supports in winter (J-19): 3 + its VP value."""
    return {c.name: c.supply for c in mapdata.cities().values()}


def cleopatra_goes_home(owner: str, control: dict[str, str | None]) -> tuple[str, str]:
    """J-19 / rules 8.1: Cleopatra returns to Alexandria; if the enemy occupies it she joins
    them at her current strength. Returns her owner after it and a sentence. A vacant
    Alexandria becomes hers (the caller updates control)."""
    held = control.get(ALEXANDRIA)
    if held and held != owner:
        return held, Msg("Cleopatra returns to Alexandria, held by {0}, and joins {0}.", side_word(held))
    if held is None:
        return owner, Msg("Cleopatra returns to Alexandria (vacant; she now holds it) and stays with {}.",
                          side_word(owner))
    return owner, Msg("Cleopatra returns to Alexandria (friendly) and stays with {}.", side_word(owner))


def year_name(year: int) -> Msg:
    auc = FIRST_YEAR_AUC + year - 1
    return Msg("year {} ({} AUC, {} BC)", year, auc, 754 - auc)
