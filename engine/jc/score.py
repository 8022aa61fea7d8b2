"""Victory points, the victory checks and the winter checklist (J-17, J-19).

The campaign (see :mod:`engine.jc.campaign`) keeps ``control``: VP city -> ``caesar``,
``pompey`` or ``None`` (vacant), and ``trophies``: side -> killed enemy leaders.
"""
from __future__ import annotations

from typing import Any

from engine.jc.text import N_, Msg
from engine.jc import mapdata
from engine.jc.roster import SIDES, roster

WIN_VP = 10
LAST_YEAR = 5
FIRST_YEAR_AUC = 705          # year 1 is 705 AUC (49 BC)
ROME = "Roma"
ALEXANDRIA = "Alexandria"

# one sentence per side: ru/uk decline the side's name (engine/jc/terms.py)
# the verdict says who wins (J-17): "has more VP" alone left the table to conclude it
TEN_VP = {"caesar": N_("Caesar has {} VP (10 or more) and wins."),
          "pompey": N_("Pompey has {} VP (10 or more) and wins.")}
MORE_VP = {"caesar": N_("After year 5 Caesar has more VP ({} to {}) and wins."),
           "pompey": N_("After year 5 Pompey has more VP ({} to {}) and wins.")}
HOLDS_ROME = {"caesar": N_("VP tied at {} after year 5; Caesar holds Rome and wins."),
              "pompey": N_("VP tied at {} after year 5; Pompey holds Rome and wins.")}
JOINS_HOLDER = {"caesar": N_("Cleopatra returns to Alexandria, held by Caesar, and joins Caesar."),
                "pompey": N_("Cleopatra returns to Alexandria, held by Pompey, and joins Pompey.")}
HOLDS_VACANT = {"caesar": N_("Cleopatra returns to Alexandria (vacant; she now holds it) and stays with Caesar."),
                "pompey": N_("Cleopatra returns to Alexandria (vacant; she now holds it) and stays with Pompey.")}
STAYS = {"caesar": N_("Cleopatra returns to Alexandria (friendly) and stays with Caesar."),
         "pompey": N_("Cleopatra returns to Alexandria (friendly) and stays with Pompey.")}


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
        return {"winner": winner, "reason": Msg(TEN_VP[winner], max(c, p)), "totals": totals}
    if year < LAST_YEAR:
        return None
    if c != p:
        winner = "caesar" if c > p else "pompey"
        return {"winner": winner, "reason": Msg(MORE_VP[winner], max(c, p), min(c, p)), "totals": totals}
    rome = control.get(ROME)
    if rome:
        return {"winner": rome, "reason": Msg(HOLDS_ROME[rome], c), "totals": totals}
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
        return held, Msg(JOINS_HOLDER[held])
    if held is None:
        return owner, Msg(HOLDS_VACANT[owner])
    return owner, Msg(STAYS[owner])


def year_name(year: int) -> Msg:
    auc = FIRST_YEAR_AUC + year - 1
    return Msg("year {} ({} AUC, {} BC)", year, auc, 754 - auc)


def year_numbers(year: int) -> tuple[int, int, int]:
    """The campaign's year, its year from the founding of Rome (AUC) and before Christ, for a
    sentence that says them itself (without :func:`year_name`'s brackets inside its own)."""
    auc = FIRST_YEAR_AUC + year - 1
    return year, auc, 754 - auc
