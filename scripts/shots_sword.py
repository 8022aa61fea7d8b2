"""Every Sword of Rome screen, for ``scripts/screenshots.py --game sword OUTDIR`` (en, ru and uk, ×1
and ×4): (name, console lines to set up, keys pressed on a device that opens on the main menu)."""
from __future__ import annotations

NEW = "new sword players=romans,gauls,etruscans,greeks seed=2"
NEW5 = "new sword players=romans,gauls,etruscans,greeks,carthage seed=2"
RULEBOOK = "battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5"       # W-7
# the widest battle: four dice and two-digit totals on both sides
WIDE = "battle att=30 def=30 mod=-9 defmod=-9 sacred-band=def att-dice=6,6,6 def-dice=6,6,6,6"
WIDE2 = "battle att=30 def=30 mod=9 defmod=9 sacred-band=att att-dice=6,6,6,6 def-dice=6,6,6"

HOME = ["a"]
LAST = ["a"] + ["down"] * 8 + ["a"]      # Last roll: the row after Draw consuls (four powers)
LAST5 = ["a"] + ["down"] * 9 + ["a"]     # with Carthage: past Carthage unrest

SHOTS: list[tuple[str, list[str], list[str]]] = [
    ("setup", [], ["a", "down", "down", "down", "a"]),
    ("setup-people", [], ["a", "down", "down", "down", "a", "a"]),
    ("home", [NEW], HOME),
    ("home-end", [NEW] + ["advance"] * 45, HOME),
    ("home5", [NEW5, "unrest =7"], HOME),
    ("home5-bottom", [NEW5, "unrest =7", "naval"], HOME + ["down"] * 11),
    ("battle-form", [NEW], HOME + ["a"]),
    ("battle-form-bottom", [NEW], HOME + ["a"] + ["down"] * 5),
    ("battle-result", [NEW, RULEBOOK], LAST),
    ("battle-result-down", [NEW, RULEBOOK], LAST + ["down"] * 4),
    # A reads on: the support and the retreat hint, then the loss table, last, under the row naming it
    ("battle-result-page2", [NEW, RULEBOOK], LAST + ["a"]),
    ("battle-losses", [NEW, RULEBOOK], LAST + ["a", "a"]),
    ("battle-losses-down", [NEW, RULEBOOK], LAST + ["a", "a", "a"]),
    ("battle-result-end", [NEW, RULEBOOK], LAST + ["down"] * 6),
    ("battle-retreat-form", [NEW, RULEBOOK], LAST + ["a:hold", "right", "right"]),
    ("battle-retreat", [NEW, RULEBOOK], LAST + ["a:hold", "right", "right", "a"]),
    ("battle-retreat-support", [NEW, RULEBOOK], LAST + ["a:hold", "right", "right", "a"] + ["down"] * 3),
    ("battle-retreat-end", [NEW, RULEBOOK], LAST + ["a:hold", "right", "right", "a"] + ["down"] * 9),
    ("battle-retreat-wide", [NEW5, WIDE2, "retreat losses=14"], LAST5 + ["a:hold"] + ["down"] * 6),
    ("battle-wide", [NEW5, WIDE], LAST5),
    ("battle-wide2", [NEW5, WIDE2], LAST5),
    ("battle-wide2-losses", [NEW5, WIDE2], LAST5 + ["a"] * 3),
    ("battle-wide2-losses-end", [NEW5, WIDE2], LAST5 + ["a"] * 3 + ["down"] * 12),
    # the Sacred Band: the dice read (page 1), the die left out under its side's dice (W-4)
    ("battle-band", [NEW5, "battle att=4 def=3 sacred-band=att att-dice=6,1,5,2 def-dice=3,3,4"], LAST5),
    ("battle-band-losses", [NEW5, "battle att=4 def=3 sacred-band=att att-dice=6,1,5,2 def-dice=3,3,4"],
     LAST5 + ["a"] * 4 + ["down"]),
    # (the Dice row is the form's last: after the flanking units' rows, and with Carthage the Sacred Band's)
    ("battle-dice", [NEW], HOME + ["a"] + ["down"] * 6 + ["right", "a"]),
    ("battle-dice-band", [NEW5], HOME + ["a"] + ["down"] * 6 + ["right", "right", "down", "right", "a"]),
    ("battle-form5", [NEW5], HOME + ["a"] + ["down"] * 6 + ["right"]),
    # seed 8.4: a side with no units left; an army lost with flanking units left
    ("battle-eliminated", [NEW, "battle att=5 def=2 att-dice=6,6,6 def-dice=1,1,1"], LAST + ["down"] * 4),
    ("battle-eliminated-end", [NEW, "battle att=5 def=2 att-dice=6,6,6 def-dice=1,1,1"], LAST + ["down"] * 7),
    ("battle-army-lost", [NEW, "battle att=2 att-flank=3 def=5 att-dice=1,2,2 def-dice=6,3,3"], LAST + ["down"] * 4),
    ("battle-army-lost-end", [NEW, "battle att=2 att-flank=3 def=5 att-dice=1,2,2 def-dice=6,3,3"],
     LAST + ["down"] * 8),
    # the Battle form after an undo of a battle holds it (W-2; the session's undo record)
    ("battle-form-undone", [NEW, "battle att=7 def=4 att-flank=2 mod=1 defmod=-1", "undo"], HOME + ["a"]),
    ("tactics-form", [NEW], HOME + ["down", "a"]),
    ("tactics-test", [NEW], HOME + ["down", "a", "down", "down", "right"]),
    ("tactics-effect", [NEW], HOME + ["down", "a", "down", "down", "right", "a"]),
    ("tactics-result", [NEW, "tactics 3 mod=-1 die=4"], LAST),
    ("tactics-fail", [NEW, "tactics 0 mod=3 die=6 kind=avoid"], LAST),
    ("odds", [NEW], HOME + ["down"] * 9 + ["a", "right", "right"]),
    ("odds-low", [NEW], HOME + ["down"] * 9 + ["a"] + ["left"] * 15),
    ("victory", [NEW5, "vp carthage =9", "unrest =6", "vp greeks =8"], HOME + ["down"] * 9 + ["a"]),
    ("victory-asked", [NEW5, "vp carthage =9", "unrest =6", "vp greeks =8"], HOME + ["down"] * 9 + ["a", "a"]),
    ("victory-over", [NEW5, "vp carthage =9", "unrest =6", "vp greeks =8"], HOME + ["down"] * 9 + ["a", "a", "a"]),
    ("vp", [NEW, "vp greeks =12", "vp etruscans =11"], HOME + ["down"] * 3 + ["a"]),
    ("vp-limit", [NEW], HOME + ["down"] * 3 + ["a", "left"]),
    ("desperate", [NEW], HOME + ["down"] * 4 + ["a", "press", "down", "down", "press"]),
    ("desperate5", [NEW5, "desperate carthage"], HOME + ["down"] * 4 + ["a"] + ["down"] * 4 + ["press"]),
    ("desperate-played", [NEW], HOME + ["down"] * 4 + ["a", "press", "down", "down", "press", "a"]),
    ("naval-form", [NEW5], HOME + ["down"] * 5 + ["a"]),
    ("naval-result", [NEW, "naval mod=2 die=4"], LAST),
    # a roll after the battle (a naval retreat's): Last battle, under Last roll, still shows the battle
    ("home-last-battle", [NEW, RULEBOOK, "naval mod=2 die=4"], HOME + ["down"] * 9),
    ("check-menu", [NEW], HOME + ["down"] * 6 + ["a"]),
    ("check-result", [NEW, "check subjugation mod=-1 dice=6,5"], LAST),
    ("consuls", [NEW], HOME + ["down"] * 7 + ["a"]),
    ("unrest", [NEW5, "unrest =7"], HOME + ["down"] * 8 + ["a"]),
    ("next-round", [NEW] + ["advance"] * 4, HOME + ["down"] * 2 + ["a"]),
    ("undo-battle", [NEW, RULEBOOK], HOME + ["b:hold"]),
    ("undo-desperate", [NEW, "desperate romans,gauls"], HOME + ["b:hold"]),
    ("log", [NEW, "vp greeks =3", "desperate romans,gauls", "check siege gauls=1", RULEBOOK], ["down"] * 4 + ["a"]),
    # History: the list and the game's detail (after turn 9; an automatic victory in turn 2)
    ("history", [NEW, "vp gauls +7"] + ["advance"] * 45, ["down"] * 3 + ["a"] + ["down"] * 4 + ["a"]),
    ("history-auto", [NEW] + ["advance"] * 5 + ["scoring etruscans outside=6 auto=5"],
     ["down"] * 3 + ["a"] + ["down"] * 4 + ["a"]),
    ("history-list", [NEW, "vp gauls +7"] + ["advance"] * 45, ["down"] * 3 + ["a"] + ["down"] * 4),
    ("end-asked", [NEW] + ["advance"] * 44, HOME + ["down"] * 2 + ["a"]),
    ("game-over", [NEW] + ["advance"] * 44, HOME + ["down"] * 2 + ["a", "a"]),
]
