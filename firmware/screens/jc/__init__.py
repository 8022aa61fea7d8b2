"""Julius Caesar screens, by concern (every module imports only those above it in this list):

- ``words`` — sides, blocks, cards and results in the player's language; the session's view;
- ``odds`` — exact odds and advice, asked once per step (J-14, J-15); the odds line and screen;
- ``setup`` — a battle's set-up: attacker, surprise, dice, blocks from the roster or by rating;
- ``battle`` — the decisions, the dice (the device's or the table's), the result, forces, log;
- ``campaign`` — the VP cities and trophies (J-17), the cards (J-18), the winter (J-19);
- ``blocks`` — between battles: a step lost (Vulcan, Jupiter: J-2, J-3), a block changing side;
- ``home`` — the session's home and ``open_game``;
- ``record`` — the game for firmware/: its record (firmware/games.py), its History summary.

Every change goes through the Julius Caesar console commands (docs/protocol/jc.md), so it is
journaled and a long B takes it back without re-rolling. The device only asks what the rules
leave to a player: which block of a step acts and how, and which of equally strong blocks takes
a hit. Physical dice are entered with the one dice entry (firmware/screens/widgets/dice.py).
Texts: ``_()`` at render time; the engine's sentences arrive already said in the current
language (``ctx.view()`` and console replies are localized).

This file imports nothing: the console reads ``record`` without loading any screen.
"""
