"""Every Caesar! screen, for ``scripts/screenshots.py --game caesar OUTDIR`` (en, ru and uk, ×1 and ×4):
(name, console lines to set up, keys pressed on a device that opens on the main menu)."""
from __future__ import annotations

import json

NEW = "new caesar-solo seed=3"
NEW_ALL = "new caesar-solo seed=3 poison=1 centurions=1 border-control=1"
# Might: your 3/3 ship closes Hispania Ulterior and takes its Might bonus
HU_MIGHT = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}},
               "SC-IT": {"by": "crassus", "token": "sword:5/1", "toward": {"SC": 5, "IT": 1}}},
    "bonuses": {"HU": "might"}, "crassus_row": ["sword:6/0", "ship:4/2", "wild:2/2"],
    "turn": "human", "human_hand": ["ship:3/3", "wild:2/2"]})
# a sword on IT-GC closes Gallia Cisalpina and Italia at once
DOUBLE = "position " + json.dumps({
    "spaces": {"GA-GC": {"by": "human", "token": "sword:4/2", "toward": {"GC": 4, "GA": 2}},
               "GC-DM": {"by": "crassus", "token": "shield:3/3", "toward": {"GC": 3, "DM": 3}},
               "SD-IT": {"by": "human", "token": "shield:4/2", "toward": {"IT": 4, "SD": 2}},
               "SC-IT": {"by": "crassus", "token": "sword:5/1", "toward": {"IT": 1, "SC": 5}},
               "IT-AC": {"by": "human", "token": "ship:3/3", "toward": {"IT": 3, "AC": 3}},
               "IT-MD": {"by": "crassus", "token": "shield:6/0", "toward": {"IT": 0, "MD": 6}},
               "IT-DM": {"by": "crassus", "token": "ship:4/2", "toward": {"IT": 2, "DM": 4}}},
    "crassus_row": ["sword:6/0", "ship:5/1", "wild:2/2"], "turn": "human",
    "human_hand": ["sword:5/1", "wild:2/2"]})
CRASSUS_CLOSES = "position " + json.dumps({
    "spaces": {"AG-SY": {"by": "human", "token": "sword:3/3", "toward": {"AG": 3, "SY": 3}}},
    "control": {"AS": "crassus"}, "bonuses": {"SY": "senate"},
    "crassus_row": ["shield:6/0"], "turn": "crassus"})

SHOTS: list[tuple[str, list[str], list[str]]] = [
    ("setup", [], ["a", "a"]),
    ("setup-down", [], ["a", "a"] + ["down"] * 9),
    ("setup-duel", [], ["a", "a", "right"]),
    ("setup-diff", [], ["a", "a", "down", "down"]),
    *[(f"guide-{i}", [NEW_ALL], ["a"] + ["down"] * 6 + ["a"] + ["a"] * (i - 1)) for i in range(1, 9)],
    ("guide-1-down", [NEW_ALL], ["a"] + ["down"] * 6 + ["a"] + ["down"] * 9),
    ("home", [NEW], ["a"]),
    ("turn-tile", [NEW], ["a", "a"]),
    ("turn-play", [NEW], ["a", "a", "a"]),
    ("why", [NEW], ["a", "a", "a", "right"]),
    ("draw-page", [NEW, "crassus"], ["a", "a", "a", "a", "a"]),
    ("where", [NEW, "crassus"], ["a", "a", "a"]),
    ("where-list", [NEW, "crassus"], ["a", "a", "a", "press"]),
    ("option", [NEW, "crassus"], ["a", "a", "a", "a"]),
    ("option-preview", [NEW, HU_MIGHT], ["a", "a", "press", "a"]),
    ("double-preview", [NEW, DOUBLE], ["a", "a", "a"]),
    ("double-preview-2", [NEW, DOUBLE], ["a", "a", "a", "down"]),
    ("double-confirm", [NEW, DOUBLE], ["a", "a", "a", "a"]),
    ("closure", [NEW, HU_MIGHT], ["a", "a", "a", "a"]),
    ("crassus-closure", [NEW, CRASSUS_CLOSES], ["a", "a", "a", "a"]),
    ("might", [NEW, HU_MIGHT, "play HU-MT ship:3/3 HU"], ["a", "a"]),
    ("duel-pass", ["new caesar-duel seed=4"], ["a", "a"]),
]
