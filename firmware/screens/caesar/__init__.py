"""Caesar! screens, by concern (every module imports only those above it in this list):

- ``words`` — names in the player's language, reading the view, the why page;
- ``icons`` — the board's icons and tokens as bitmaps;
- ``maplabels`` — where the map's labels go (a pure layout search, tested on its own);
- ``mapface`` — the map's province marks and 5-pixel letters;
- ``pickers`` — one choice, tokens drawn;
- ``board`` — the provinces, one province, the schematic map;
- ``turn`` — Auto-Crassus's turn a page at a time, the tile picker;
- ``move`` — your move (province, then token, the closure previewed);
- ``flow`` — how a turn leads on (his turn, your move, bonuses, draws, private hands);
- ``setup`` — the new-game form and the guide to the physical set-up;
- ``tiles`` — the command tiles and their editor;
- ``home`` — the game's home and ``open_game``;
- ``record`` — the game for firmware/: its record (firmware/games.py), its History summary.

Every change is a ``caesar-solo``/``caesar-duel`` console line (docs/protocol/caesar.md), so it is
journaled and a long B takes it back; digital draws come from the session, so undo never
re-draws. Physical inputs (real tiles, real bags) are asked for as lists of what can be drawn.
The tile contents you enter are remembered in the ``caesar.tiles`` setting and passed to every
new game. Texts: ``_()`` at render time; the engine's sentences arrive already said in the
current language (``ctx.view()`` and console replies are localized).

This file imports nothing: the console reads ``record`` without loading any screen.
"""
