"""Dice and bags for firmware/: tools, not games — their records (firmware/games.py) give the main
menu's Resume rows; History never records them. Imports no screen."""
from __future__ import annotations

from engine.text import N_
from firmware.games import GameRecord

DICE = GameRecord(ident="dice", label=N_("Dice"), sessions=("dice",), screens="firmware.screens.kit.dice:open_dice",
                  in_games_menu=False, box_name="Dice")
BAG = GameRecord(ident="bag", label=N_("Bag & deck"), sessions=("bag",), screens="firmware.screens.kit.bag:open_kit",
                 in_games_menu=False,
                 box_name="Dice & bags")
