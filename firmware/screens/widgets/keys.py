"""The one key table: what each key means, by where the cursor stands (docs/keys.md is written from
it, and tests/test_keys.py checks that the two agree).

A widget asks :func:`intent` what a key means where its cursor is and acts on the answer; no screen
reads raw keys for the common jobs (move, back, select, change a figure, enter a roll, close).

The places a cursor can stand:

- ``row``: a list row (a menu entry, a block, a province);
- ``figure``: a list row that holds a figure shown as ``‹n›`` (a form field, a score, a VP figure):
  left/right change it by its step, press changes the step when the figure has steps;
- ``dial``: a screen that is one big figure (a fame change, a modifier): up/down ±1, left/right
  ± the step, press changes the step;
- ``die``: a die in a row of them (dice thrown on the table): up/down turn it, left/right move
  along the row (left on the first one goes back), A or press enters the roll;
- ``roller``/``pick``: the dice roller's NdS±M fields (as dice) and, after a roll, choosing the
  dice to roll again (press);
- ``marks``: a list whose rows are marked (right or press) before one action (A);
- ``seats``: a row of the Glory score pad, the device in the middle of the table: each way of the
  joystick is a player's seat (1 at the top, then clockwise) and adds the step to that player's
  figure, press changes the step (+1 → +5 → +10), the second action (hold A) turns + into −;
- ``grid``: a keyboard, Caesar!'s token grid: the joystick moves over the cells, A or press types
  (takes) one;
- ``text``: text that scrolls (a log, a result, a "why", a long notice): up/down scroll a row, A
  (press, right: "close") shows the next page while rows are below the ones shown and closes the
  last page (:meth:`Scroll.go_on <firmware.screens.widgets.scroll.Scroll.go_on>`), B and left
  close at once;
- ``map``: the Caesar! map: the joystick goes to the nearest province that way, A chooses it,
  press shows the board as a list;
- ``pages``: scrolling text in pages side by side: left/right turn the page;
- ``question``: a yes/no question (only A says yes: a nudge of the joystick never does);
- ``notice``: a message over the screen (or the fair-draw code box): any key closes it and does
  nothing else.

The joystick's press and KEY3 held long (``press:hold``, ``key3:hold``) mean what they mean
pressed. A direction held down repeats (``up:repeat``): a move or a change of a figure again, never
anything else (see :data:`REPEATING`). Hold B (undo, with a question naming the step) is the App's before any screen sees a key, except
where the top screen's ``place`` gives it no meaning (the key test names it instead).
"""
from __future__ import annotations

from enum import Enum

KEYS = ("up", "down", "left", "right", "press", "a", "b", "a:hold", "key3", "b:hold")


class Intent(str, Enum):
    PREV = "move up"
    NEXT = "move down"
    LEFTWARD = "move left"
    RIGHTWARD = "move right"
    BACK = "back"
    SELECT = "select"
    GO = "main action"
    LESS = "− step"
    MORE = "+ step"
    LESS_ONE = "−1"
    MORE_ONE = "+1"
    STEP = "step ±1→±5→±10"
    SECOND = "second action"
    PICK = "choose dice to roll again"
    TOGGLE = "mark"
    YES = "yes"
    CLOSE = "close"
    UNDO = "take back the last step (asks first)"
    SEAT_TOP = "+ step: player 1"
    SEAT_RIGHT = "+ step: player 2"
    SEAT_BOTTOM = "+ step: player 3"
    SEAT_LEFT = "+ step: player 4"
    STEP_UP = "step +1→+5→+10"
    NOTHING = "—"

I = Intent
_SECOND = {"a:hold": I.SECOND, "key3": I.SECOND}
_UNDO = {"b:hold": I.UNDO}

# where the cursor stands -> key -> what the key means there
GRAMMAR: dict[str, dict[str, Intent]] = {
    "row": {"up": I.PREV, "down": I.NEXT, "left": I.BACK, "b": I.BACK, "right": I.SELECT, "a": I.SELECT,
            "press": I.SELECT, **_SECOND, **_UNDO},
    "figure": {"up": I.PREV, "down": I.NEXT, "left": I.LESS, "right": I.MORE, "b": I.BACK, "a": I.GO,
               "press": I.STEP, **_SECOND, **_UNDO},
    "dial": {"up": I.MORE_ONE, "down": I.LESS_ONE, "left": I.LESS, "right": I.MORE, "b": I.BACK, "a": I.GO,
             "press": I.STEP, **_SECOND, **_UNDO},
    "die": {"up": I.MORE_ONE, "down": I.LESS_ONE, "left": I.LEFTWARD, "right": I.RIGHTWARD, "b": I.BACK, "a": I.GO,
            "press": I.GO, **_SECOND, **_UNDO},
    "roller": {"up": I.MORE_ONE, "down": I.LESS_ONE, "left": I.LEFTWARD, "right": I.RIGHTWARD, "b": I.BACK,
               "a": I.GO, "press": I.PICK, **_SECOND, **_UNDO},
    "pick": {"up": I.TOGGLE, "down": I.TOGGLE, "left": I.LEFTWARD, "right": I.RIGHTWARD, "b": I.BACK, "a": I.GO,
             "press": I.TOGGLE, **_SECOND, **_UNDO},
    "marks": {"up": I.PREV, "down": I.NEXT, "left": I.BACK, "b": I.BACK, "right": I.TOGGLE, "press": I.TOGGLE,
              "a": I.GO, **_SECOND, **_UNDO},
    "grid": {"up": I.PREV, "down": I.NEXT, "left": I.LEFTWARD, "right": I.RIGHTWARD, "b": I.BACK, "a": I.SELECT,
             "press": I.SELECT, **_SECOND, **_UNDO},
    "text": {"up": I.PREV, "down": I.NEXT, "left": I.BACK, "b": I.BACK, "right": I.CLOSE, "a": I.CLOSE,
             "press": I.CLOSE, **_SECOND, **_UNDO},
    "map": {"up": I.PREV, "down": I.NEXT, "left": I.LEFTWARD, "right": I.RIGHTWARD, "b": I.BACK, "a": I.SELECT,
            "press": I.GO, **_SECOND, **_UNDO},
    "pages": {"up": I.PREV, "down": I.NEXT, "left": I.LEFTWARD, "right": I.RIGHTWARD, "b": I.BACK, "a": I.CLOSE,
              "press": I.CLOSE, **_SECOND, **_UNDO},
    "question": {"up": I.PREV, "down": I.NEXT, "left": I.BACK, "b": I.BACK, "right": I.NOTHING, "a": I.YES,
                 "press": I.NOTHING, "a:hold": I.YES, "key3": I.YES, **_UNDO},   # a slow A is A, and KEY3 hold A
    # the score pad: the device in the middle of the table, a seat round it each way (player 1 at
    # the top, then clockwise); a push towards a player adds the step to their figure
    "seats": {"up": I.SEAT_TOP, "right": I.SEAT_RIGHT, "down": I.SEAT_BOTTOM, "left": I.SEAT_LEFT, "b": I.BACK,
              "a": I.GO, "press": I.STEP_UP, **_SECOND, **_UNDO},
    "notice": {k: I.CLOSE for k in KEYS},
    # Settings → Hardware → Key test: every key is only named; hold A or hold B leaves (no undo there): a
    # player testing a dead or broken A, the very key a key test is opened for, still gets out
    "keytest": {**{k: I.NOTHING for k in KEYS}, "a:hold": I.CLOSE, "b:hold": I.CLOSE},
}

# A figure without steps (a choice, an on/off, a small count): press does what A does.
GRAMMAR["choice"] = {**GRAMMAR["figure"], "press": I.GO}

PLACES = {
    "row": "a list row",
    "figure": "a row with a wide figure ‹n› that has steps (fame, units)",
    "choice": "a row with a choice or small figure ‹n› (forms, settings, VP)",
    "dial": "one big figure (fame change)",
    "die": "a die of a roll thrown on the table",
    "roller": "a field of the roller's NdS±M",
    "pick": "a die of the last roll (roll again)",
    "marks": "a row marked for one action (Desperate Times)",
    "seats": "a row of Glory's score pad: a seat round the device each way",
    "grid": "a keyboard cell, a token of Caesar!'s token grid",
    "text": "scrolling text (log, result, why, long notice; A: the next page, closes the last)",
    "map": "a province on the Caesar! map",
    "pages": "text in pages (guide, turn, score detail)",
    "question": "a yes/no question",
    "notice": "a notice, the fair-draw code box",
    "keytest": "the key test (Settings → Hardware): each key is named",
}


# A direction held down repeats (hw/keys.py): the device gives each repeat as ``<key>:repeat``. A
# repeat moves and changes a figure again; it never chooses, goes back, closes, marks or turns a
# page (held right on a menu opened Games, then Caesar!, then its form; held right on the Senate
# voted six times; held left in a dice entry left it).
REPEAT = ":repeat"
REPEATING = frozenset({I.PREV, I.NEXT, I.LEFTWARD, I.RIGHTWARD, I.LESS, I.MORE, I.LESS_ONE, I.MORE_ONE,
                       I.SEAT_TOP, I.SEAT_RIGHT, I.SEAT_BOTTOM, I.SEAT_LEFT})
NO_REPEAT = frozenset({("pages", I.LEFTWARD), ("pages", I.RIGHTWARD)})   # a page turned past the last closes


def repeated(key: str) -> bool:
    """Whether ``key`` is the repeat of a direction held down (not a press of its own)."""
    return key.endswith(REPEAT)


# Keys that mean nothing of their own when held long (hw/keys.py sends ``press:hold``, ``key3:hold``
# after 0.8 s): held, they do what they do pressed — a slow press is never a dead key.
HELD_AS_PRESSED = ("press", "key3")


# KEY3 (the Waveshare HAT's third key), pressed or held, is hold A on every screen: one key for the
# second action (only the key test, which names every key, is given it as it is).
SECOND_KEYS = ("key3", "key3:hold")
HOLD_A = "a:hold"


def given(key: str, place: str, second_action: bool) -> str:
    """The key a screen is given for the key event ``key`` (the App's, before the screen sees it):
    KEY3, pressed or held, is hold A; hold A where the screen has no second action of its own
    (``second_action``) is A — a slow A. The key test (``place`` ``keytest``) names every key: it is
    given each as it comes."""
    if place == "keytest":
        return key
    if key in SECOND_KEYS:
        key = HOLD_A
    if key == HOLD_A and not second_action:
        key = "a"
    return key


def intent(place: str, key: str) -> Intent:
    """What ``key`` means where the cursor stands (``place``: see :data:`GRAMMAR`)."""
    table = GRAMMAR[place]
    if repeated(key):
        meaning = table.get(key[:-len(REPEAT)], I.NOTHING)
        return meaning if meaning in REPEATING and (place, meaning) not in NO_REPEAT else I.NOTHING
    name, _sep, held = key.partition(":")
    if held == "hold" and key not in table and name in HELD_AS_PRESSED:
        key = name
    return table.get(key, I.NOTHING)


def table_markdown() -> str:
    """The key table as docs/keys.md shows it (tests/test_keys.py checks that they agree)."""
    keys = ("up", "down", "left", "right", "a", "press", "b", "a:hold", "key3")
    head = "| where the cursor is | " + " | ".join(f"`{k}`" for k in keys) + " |"
    rule = "|---|" + "---|" * len(keys)
    rows = [head, rule]
    for place, meaning in PLACES.items():
        cells = [GRAMMAR[place].get(k, Intent.NOTHING).value for k in keys]
        rows.append(f"| **{place}**: {meaning} | " + " | ".join(cells) + " |")
    return "\n".join(rows)
