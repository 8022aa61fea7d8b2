"""The Sword of Rome: tactics tests, battles, exact odds, naval and 2d6 rolls, consuls, VP track
(W-1..W-13)."""
