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

HU_CENTURION = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}}},
    "bonuses": {"HU": "centurion"}, "modules": {"centurions": True}, "crassus_row": ["sword:6/0"],
    "turn": "human", "human_hand": ["ship:3/3", "wild:2/2"]})
CRASSUS_WINS = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "human", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}}},
    "crassus_row": ["ship:6/0", "ship:5/1"], "markers_left": {"human": 12, "crassus": 1}})
LONG = "position " + json.dumps({        # long names everywhere: Might on Cisalpina, both Hispanias
    "spaces": {"HU-HC": {"by": "crassus", "token": "shield:4/2", "toward": {"HU": 4, "HC": 2}},
               "MT-NU": {"by": "crassus", "token": "sword:3/3", "toward": {"MT": 3, "NU": 3}},
               "GA-GC": {"by": "crassus", "token": "sword:5/1", "toward": {"GA": 5, "GC": 1}},
               "CY-AG": {"by": "crassus", "token": "sword:4/2", "toward": {"CY": 2, "AG": 4}},
               "HU-MT": {"by": "human", "token": "ship:6/0", "toward": {"HU": 6, "MT": 0}}},
    "control": {"GC": "crassus", "HC": "crassus", "MD": "crassus"}, "bonuses": {"SD": "might"},
    "crassus_row": ["sword:6/0", "ship:4/2", "wild:2/2"], "turn": "human",
    "human_hand": ["ship:3/3", "sword:5/1"]})
_long = json.loads(LONG.split(" ", 1)[1])
_long["spaces"].update({"SD-GA": {"by": "human", "token": "shield:4/2", "toward": {"SD": 4, "GA": 2}},
                        "SD-SC": {"by": "crassus", "token": "ship:5/1", "toward": {"SD": 1, "SC": 5}},
                        "SD-IT": {"by": "crassus", "token": "shield:3/3", "toward": {"SD": 3, "IT": 3}}})
LONG_MIGHT = "position " + json.dumps(_long)
# Might with flips that change nothing (C-15): GA-GC 0 toward open Gallia, 6 toward closed
# Cisalpina; AG-SY, AS-SY between closed provinces; Syria's marker without an open neighbour
MIXED_MIGHT = "position " + json.dumps({
    "spaces": {"HU-HC": {"by": "human", "token": "shield:6/0", "toward": {"HU": 6, "HC": 0}},
               "GA-GC": {"by": "crassus", "token": "sword:6/0", "toward": {"GA": 0, "GC": 6}},
               "SC-IT": {"by": "crassus", "token": "sword:5/1", "toward": {"SC": 5, "IT": 1}},
               "AG-SY": {"by": "crassus", "token": "wild:2/2", "toward": {"AG": 2, "SY": 2}},
               "AS-SY": {"by": "crassus", "token": "wild:3/1", "toward": {"AS": 3, "SY": 1}}},
    "control": {"GC": "crassus", "SY": "crassus", "AS": "crassus", "AG": "human"},
    "bonuses": {"HU": "might"}, "crassus_row": ["sword:4/2", "ship:4/2", "wild:2/2"],
    "turn": "human", "human_hand": ["ship:3/3", "wild:4/0"]})
PHYSICAL = "new caesar-solo difficulty=easy bag-input=physical row=sword:6/0,ship:5/1,wild:2/2 seed=2"
TILE_E = "new caesar-solo seed=3 centurions=1 difficulty=hard tiles-input=physical"
# the box's tiles (seed 3, normal: 3A 2B 1C): his first five tiles and your turns after them
SIX_TILES = ["crassus tile=A", "play HU-MT ship:6/0 HU", "draw", "crassus tile=A", "play HC-GA wild:3/1 HC", "draw",
             "play SD-GA shield:3/3 SD", "draw", "crassus tile=A", "play MT-SD ship:4/2 MT", "draw", "crassus tile=B",
             "play SD-SC wild:2/2 SD", "draw", "crassus tile=B", "play NU-SC ship:3/3 NU", "draw"]
DUEL = "new caesar-duel seed=4"
FACE_DOWN = "position " + json.dumps({"modules": {"poison": True, "border_control": True}, "turn": "human",
                                      "human_hand": ["ship:3/3", "sword:5/1", "wild:2/2"],
                                      "crassus_row": ["sword:6/0"]})

SHOTS: list[tuple[str, list[str], list[str]]] = [
    # the new-game form and the set-up guide (the fair-draw code box over the form goes with its first key)
    ("setup", [], ["a", "a"]),                         # the fair-draw code over the form as it opens
    ("setup-diff", [], ["a", "a", "down", "down"]),
    ("setup-edition", [], ["a", "a", "down", "down", "down", "right"]),
    ("setup-harder", [], ["a", "a"] + ["down"] * 7 + ["right"]),
    ("setup-harder-2", [], ["a", "a"] + ["down"] * 7 + ["right", "right"]),
    ("setup-down", [], ["a", "a"] + ["down"] * 11),
    ("setup-duel", [], ["a", "a", "right"]),
    ("setup-duel-down", [], ["a", "a", "right"] + ["down"] * 6),
    ("setup-his-tokens", [], ["a", "a"] + ["down"] * 9 + ["right", "a"]),
    ("setup-his-row", [], ["a", "a"] + ["down"] * 9 + ["right", "a", "a", "a", "a"]),   # S-2: shown before Start
    *[(f"guide-{i}", [NEW_ALL], ["a"] + ["down"] * 6 + ["a"] + ["a"] * (i - 1)) for i in range(1, 10)],
    ("guide-1-down", [NEW_ALL], ["a"] + ["down"] * 6 + ["a"] + ["down"] * 9),
    ("guide-2-down", [NEW_ALL], ["a"] + ["down"] * 6 + ["a", "a"] + ["down"] * 9),
    ("guide-duel", [DUEL], ["a"] + ["down"] * 4 + ["a", "a"]),
    # home, his turn, the why
    ("home", [NEW], ["a"]),
    ("home-move", [NEW, DOUBLE], ["a"]),
    ("home-duel", [DUEL], ["a"]),
    ("home-over", [NEW, CRASSUS_WINS, "crassus"], ["a", "b"]),
    ("turn-tile", [NEW], ["a", "a"]),
    ("turn-play", [NEW], ["a", "a", "a"]),
    ("why", [NEW], ["a", "a", "a", "right"]),
    ("why-down", [NEW], ["a", "a", "a", "right"] + ["down"] * 9),
    ("crassus-would", ["new caesar-solo seed=3 edition=uk", 'position {"crassus_row": ["wild:4/0"]}'],
     ["a", "down", "down", "down", "a"]),
    ("crassus-would-down", ["new caesar-solo seed=3 edition=uk", 'position {"crassus_row": ["wild:4/0"]}'],
     ["a", "down", "down", "down", "a"] + ["down"] * 9),
    ("crassus-closure", [NEW, CRASSUS_CLOSES], ["a", "a", "a", "a"]),
    ("crassus-closure-down", [NEW, CRASSUS_CLOSES], ["a", "a", "a", "a", "down", "down", "down"]),
    ("crassus-wins", [NEW, CRASSUS_WINS, "crassus"], ["a", "a"]),
    ("crassus-wins-end", [NEW, CRASSUS_WINS, "crassus"], ["a", "a", "a"]),
    ("tile-e", [TILE_E, "crassus tile=E"], ["a"]),
    ("tile-e-notes", [TILE_E, "crassus tile=E"], ["a", "a"]),
    ("tile-picker", [TILE_E], ["a", "a"]),
    # your move
    ("where", [NEW, DOUBLE], ["a", "a"]),
    ("where-list", [NEW, DOUBLE], ["a", "a", "press"]),
    ("where-long", [NEW, LONG], ["a", "a", "press"] + ["down"] * 3),
    ("option", [NEW, LONG], ["a", "a", "a"]),
    ("option-preview", [NEW, HU_MIGHT], ["a", "a", "press", "a"]),
    ("double-preview", [NEW, DOUBLE], ["a", "a", "a"]),
    ("double-preview-2", [NEW, DOUBLE], ["a", "a", "a", "down"]),
    ("double-confirm", [NEW, DOUBLE], ["a", "a", "a", "a"]),
    ("double-confirm-down", [NEW, DOUBLE], ["a", "a", "a", "a", "down", "down", "down"]),
    ("face-down", ["new caesar-solo seed=3 poison=1 border-control=1", FACE_DOWN], ["a", "a", "press", "a"]
     + ["down"] * 5),
    ("face-down-list", ["new caesar-solo seed=3 poison=1 border-control=1", FACE_DOWN], ["a", "a", "press", "a"]
     + ["down"] * 9),
    ("closure", [NEW, HU_MIGHT], ["a", "a", "press", "a", "a"]),
    ("might", [NEW, HU_MIGHT], ["a", "a", "press", "a", "a", "a"]),
    ("might-flip", [NEW, HU_MIGHT], ["a", "a", "press", "a", "a", "a", "a"]),
    ("might-draw", [NEW, HU_MIGHT], ["a", "a", "press", "a", "a", "a", "a", "a"]),
    ("might-long", [NEW, LONG_MIGHT, "play MT-SD ship:3/3 SD"], ["a", "a"]),
    ("might-useless", [NEW, MIXED_MIGHT, "play HU-MT ship:3/3 HU"], ["a", "a", "a", "a"] + ["down"] * 4),
    ("might-long-down", [NEW, LONG_MIGHT, "play MT-SD ship:3/3 SD"], ["a", "a"] + ["down"] * 9),
    ("centurion", [NEW, HU_CENTURION], ["a", "a", "press", "a", "a", "a"]),
    # the tokens to take one of, and «Skip (draw as usual)» begun on the last row (more follows);
    # the turn's text read to its end first (longer in Ukrainian)
    ("centurion-take", [NEW, HU_CENTURION], ["a", "a", "press", "a", "a", "a"] + ["down"] * 4 + ["a"]),
    ("draw-page", [NEW, DOUBLE], ["a", "a", "a", "a", "a", "a", "a", "a"]),
    # the views
    ("score", [NEW, DOUBLE], ["a", "down", "a"]),
    ("map", [NEW, DOUBLE], ["a", "down", "down", "a"]),
    ("board", [NEW, DOUBLE], ["a", "down", "down", "a", "press"]),
    ("province", [NEW, DOUBLE], ["a", "down", "down", "a", "a"]),
    ("hand", [NEW, DOUBLE], ["a"] + ["down"] * 4 + ["a"]),
    ("row", [NEW, DOUBLE], ["a"] + ["down"] * 5 + ["a"]),
    ("tiles", [NEW, DOUBLE], ["a"] + ["down"] * 7 + ["a"]),
    ("tile-editor", [NEW, DOUBLE], ["a"] + ["down"] * 7 + ["a", "down", "a"]),
    # physical bags, the duel
    ("you-drew", [PHYSICAL], ["a", "down", "a"]),
    ("he-draws", [PHYSICAL], ["a", "down", "a", "a", "a", "a"]),          # your two tokens, his tile read
    # his sixth tile, the last of his stack: which tiles make the new one (S-5, the rulebook's rule):
    # Resume, his turn (tile C, the last: not asked), his turn's pages read to the last (en, uk: its rest shown)
    ("new-stack", ["new caesar-solo tiles-input=physical seed=3", *SIX_TILES], ["a"] * 10),
    ("duel-pass", [DUEL], ["a", "a"]),
    ("duel-map", [DUEL], ["a", "a", "a"]),
    ("duel-draw", [DUEL], ["a", "a", "a", "a", "a"]),
    ("duel-next", [DUEL], ["a", "a", "a", "a", "a", "a"]),
    ("duel-hand", [DUEL], ["a", "down", "down", "down", "a", "a"]),
]
