"""Dice & bags, tools for any game: ``dice`` (the roller) and ``bag`` (bags and decks, beside a
running game or as a session of their own); ``record`` registers them for firmware/ (the main
menu's Resume rows). This file imports nothing."""
