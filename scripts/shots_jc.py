"""Julius Caesar's bookkeeping screens between battles, for ``scripts/screenshots.py --game jc OUTDIR``
(en, ru and uk, ×1 and ×4): (name, console lines to set up, keys pressed on a device that opens on
the main menu). The home's rows in a set-up without blocks: Battle, Add attacker, Add defender,
Odds, Fight to the end, Forces, Battle log, Victory points, Cards, Blocks, Winter, New game."""
from __future__ import annotations

NEW = "new jc-battle seed=3"
HOME = ["a"]
BLOCKS = HOME + ["down"] * 9 + ["a"]                  # Home → Blocks
POMPEY = BLOCKS + ["down", "a"]                       # → Pompey's blocks, by kind
LEADERS = POMPEY + ["a"]                              # → his leaders
LEGIONS = POMPEY + ["down", "a"]                      # → his legions (Legio 1 first)
LEADER_AT_I = [NEW, "lose p_pompeius", "lose p_pompeius"]
OVER = [NEW, "deal"] + [f"control {c} caesar" for c in ("Roma", "Alexandria", "Athenae", "Byzantium",
                                                       "Carthago_Nova", "Ephesus", "Antiochia", "Utica")] + ["winter"]
# the winter's checklist that ended the campaign is said first, until it is closed (B): the home after it
OVER_HOME = HOME + ["b"]

SHOTS: list[tuple[str, list[str], list[str]]] = [
    ("home", [NEW], HOME + ["down"] * 9),
    ("blocks", [NEW], BLOCKS),
    ("blocks-side", [NEW], POMPEY),
    ("blocks-side-in-battle", [NEW, "add defender p_leg1"], LEGIONS),
    ("blocks-legion", [NEW], LEGIONS + ["a"]),
    ("blocks-legion-lost", [NEW], LEGIONS + ["a", "a"]),
    ("blocks-leader-at-1", LEADER_AT_I, LEADERS + ["a"]),
    ("blocks-leader-ask", LEADER_AT_I, LEADERS + ["a", "a"]),
    ("blocks-leader-killed", LEADER_AT_I, LEADERS + ["a", "a", "a"]),
    ("blocks-defect", [NEW], LEGIONS + ["a", "down", "a"]),
    ("blocks-in-battle", [NEW, "add defender p_leg1"], LEGIONS + ["a"]),
    ("vp-trophies", [NEW, "lose p_pompeius", "lose p_pompeius", "lose p_pompeius"], HOME + ["down"] * 7 + ["a"] + ["down"] * 12),
    ("vp-trophy-list", [NEW, "lose p_pompeius", "lose p_pompeius", "lose p_pompeius"],
     HOME + ["down"] * 7 + ["a"] + ["down"] * 11 + ["a"]),
    ("over-home", OVER, OVER_HOME + ["down"] * 6),
    ("over-cards", OVER, OVER_HOME + ["down"] * 4 + ["a"]),
    ("over-battle", OVER, OVER_HOME + ["a"]),
    ("over-vp", OVER, OVER_HOME + ["down"] * 3 + ["a"]),
]
