"""The Sword of Rome screens, by concern (every module imports only those above it in this list):
``words`` (powers, checks, readings; the session's view), ``rolls`` (battles, tactics, odds, naval
moves, 2d6 checks), ``tracks`` (VP, Desperate Times, unrest), ``home`` (the game's home and
``open_game``), ``record`` (the game for firmware/: its record, its History summary).

Dice come from the session (``battle``, ``tactics``, ``naval``, ``check``, ``consuls``), so every
roll is journaled and a long B takes it back without re-rolling; every roll can also be thrown on
the table and entered with the one dice entry. This file imports nothing.
"""
