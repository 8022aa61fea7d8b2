"""«Во славу Рима» / For the Glory of Rome screens, by concern (every module imports only those above
it in this list): ``words`` (medals, events, seats; the session's view), ``track`` (fame and the
Senate), ``round`` (the event, tax, medals, random picks), ``score`` (the score pad, the ranking,
each player's column), ``objectives`` (the secret objective cards: dealt, looked at one player
at a time, revealed at the end), ``setup`` (the new-game form), ``home`` (the game's home and ``open_game``),
``record`` (the game for firmware/: its record, its History summary).

Every change goes through a console line (``fame``, ``vote``, ``event``, ``sheet`` …), so it is
journaled and undoable with a long B like any other step. This file imports nothing.
"""
