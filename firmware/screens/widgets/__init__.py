"""The one widget set of the device UI (issue 22): every game's screens are built from these.

- :mod:`.keys` — the one key table (what each key means where the cursor stands; docs/keys.md);
- :mod:`.listing` — the list (paging, no wrap, the cursor kept on its item, header and footer);
- :mod:`.scroll` — the scroll bar, the scroll state, text and two-column screens;
- :mod:`.figure` — a form of figures (with a visible step) and one big figure (a dial);
- :mod:`.dice` — dice thrown on the table, entered die by die with guesses;
- :mod:`.odds` — probabilities as people read them, and the odds screen;
- :mod:`.track` — the VP track;
- :mod:`.confirm` — a yes/no question, a notice, the fair-draw code box;
- :mod:`.share` — the fair-draw part of every new-game form (the code as it opens, the players' share).
"""
from __future__ import annotations

from firmware.screens.widgets.confirm import ConfirmScreen, draw_code_box, draw_notice
from firmware.screens.widgets.dice import DiceEntry, die_tile
from firmware.screens.widgets.figure import Dial, Field, NumberForm, on_off
from firmware.screens.widgets.keys import GRAMMAR, Intent, intent
from firmware.screens.widgets.listing import Item, ListScreen, WrappedListScreen, draw_list, figure, item_rows, page_top, wrap_label, wrapped_top
from firmware.screens.widgets.odds import OddsScreen, pct, percents, share_of
from firmware.screens.widgets.scroll import Scroll, TableScreen, TextScreen, scroll_bar
from firmware.screens.widgets.share import FairShare, ShareDice, ShareMenu
from firmware.screens.widgets.track import VPTrack

__all__ = ["ConfirmScreen", "DiceEntry", "Dial", "FairShare", "Field", "GRAMMAR", "Intent", "Item", "ListScreen", "NumberForm",
           "OddsScreen", "Scroll", "ShareDice", "ShareMenu", "TableScreen", "TextScreen", "VPTrack", "WrappedListScreen", "die_tile",
           "draw_code_box", "draw_list", "draw_notice", "figure", "intent", "item_rows", "on_off", "page_top", "pct",
           "percents", "scroll_bar", "share_of", "wrap_label", "wrapped_top"]
