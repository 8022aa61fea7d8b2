"""The Sword of Rome: a battle typed on the device and not fought yet — the Battle form's figures and
the dice thrown on the table half entered — kept on the card (``sword.draft``), so that a power cut
loses none of it: Continue brings the form back as it was, and the dice entry over it with its faces
(it was the home: about 19 presses to type it all again).

One write when the player leaves a row whose figure changed (up/down on the form), one a die read
(left/right on the dice: reaching one not read yet, or leaving one whose face was turned), one when
the dice entry opens or closes, one when the battle is fought or the form closed: never a write for
a press that turns a figure (pushed up five times: one write, when the row is left), nor for rows or
dice passed again unchanged.
Reading it never raises: a damaged value is reported in the log once and dropped."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, NamedTuple

from firmware.screens.ctx import Ctx
from firmware.screens.widgets import DiceEntry, Intent, NumberForm, intent

log = logging.getLogger(__name__)

DRAFT_KEY = "sword.draft"
NONE = "-"
FIELDS = ("att", "def", "mod", "defmod", "att_flank", "def_flank", "band", "dice")
_reported: set[str] = set()


class Dice(NamedTuple):
    """The dice entry as kept: the die under the cursor, each row's faces and which are set (read)."""

    cursor: int
    faces: list[list[int]]
    set: list[list[bool]]


class Draft(NamedTuple):
    """The Battle form as kept: its game, the row under the cursor, the figures, the dice entry (None: closed)."""

    game: str
    cursor: int
    values: dict[str, int]
    dice: Dice | None


def game_id(ctx: Ctx) -> str:
    """The running game's id (its fair draw's: a copy reopened from Earlier games keeps it)."""
    fair = ctx.fair_draw()
    return (fair.game or fair.session) if fair is not None else ""


def _said(draft: Draft | None) -> str:
    """``[game, row, [figures in FIELDS' order], [die, faces, read] or null]``: one line, at most ~120
    characters (a setting takes 512)."""
    if draft is None:
        return NONE
    dice = None if draft.dice is None else [draft.dice.cursor, draft.dice.faces,
                                            [[int(s) for s in row] for row in draft.dice.set]]
    out = [draft.game, draft.cursor, _figures(draft.values), dice]
    return json.dumps(out, separators=(",", ":"), ensure_ascii=True)


def _figures(values: dict[str, int] | None) -> list[int]:
    """The form's figures in FIELDS' order (0 for a row it has not: the Sacred Band without Carthage)."""
    return [(values or {}).get(k, 0) for k in FIELDS]


def _int(x: object, lo: int, hi: int) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise ValueError(x)
    return x


def _read(raw: str) -> Draft:
    game, cursor, figures, kept_dice = json.loads(raw)
    if not isinstance(game, str) or len(figures) != len(FIELDS):
        raise ValueError("fields")
    values = {k: _int(v, -99, 99) for k, v in zip(FIELDS, figures)}
    dice = None
    if kept_dice is not None:
        at, faces, seen = kept_dice
        faces = [[_int(f, 1, 6) for f in row] for row in faces]
        seen = [[bool(_int(x, 0, 1)) for x in row] for row in seen]
        if [len(r) for r in faces] != [len(r) for r in seen] or not 1 <= len(faces) <= 2:
            raise ValueError("dice")
        dice = Dice(_int(at, 0, sum(map(len, faces)) - 1), faces, seen)
    return Draft(game, _int(cursor, 0, len(FIELDS)), values, dice)


def kept(ctx: Ctx) -> Draft | None:
    """The battle kept typed in the running game (None: none, another game's, or a damaged value)."""
    raw = ctx.settings.get(DRAFT_KEY)
    if not isinstance(raw, str) or raw in ("", NONE):
        return None
    try:
        draft = _read(raw)
    except (ValueError, TypeError, KeyError, AttributeError):
        if raw[:80] not in _reported:
            _reported.add(raw[:80])
            log.warning("the %s setting is damaged (%r): dropped", DRAFT_KEY, raw[:80])
        return None
    return draft if draft.game == game_id(ctx) else None


def _write(ctx: Ctx, value: str) -> None:
    if ctx.settings.get(DRAFT_KEY, NONE) == value:
        return
    response = ctx.set_setting(DRAFT_KEY, value)
    if not response.get("ok"):
        log.warning("%s was not kept: %s", DRAFT_KEY, response.get("message"))


def drop(ctx: Ctx) -> None:
    """Nothing typed is kept any more (the battle fought, or the form closed): one write, none if so already."""
    _write(ctx, NONE)


class BattleForm(NumberForm):
    """The Battle form, whose figures go on the card when the player leaves a row he changed, and
    when its dice entry opens or closes (:class:`BattleDice`); closed with B, nothing is kept (the
    battle fought: :func:`drop` where it is)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.opened_with: dict[str, int] | None = None      # the figures when first drawn or used
        # the dice entry of these figures, with the faces kept (battle.py's ``battle_form`` sets it)
        self.open_dice: Callable[[dict[str, int], Dice | None], BattleDice] | None = None

    def keep_draft(self, ctx: Ctx, dice: Dice | None = None) -> None:
        _write(ctx, _said(Draft(game_id(ctx), self.cursor, self.values(), dice)))

    def recall(self, ctx: Ctx) -> None:
        super().recall(ctx)
        if self.opened_with is None:
            self.opened_with = self.values()

    def key(self, key: str, ctx: Ctx) -> None:
        self.recall(ctx)
        depth, cursor = ctx.depth(), self.cursor
        super().key(key, ctx)
        if ctx.depth() < depth:                  # closed with B: nothing typed is kept
            drop(ctx)
        elif ctx.depth() == depth and self.cursor != cursor:
            draft = kept(ctx)                    # a row left: the figures kept, when changed
            if _figures(self.values()) != _figures(draft.values if draft is not None else self.opened_with):
                self.keep_draft(ctx)


class BattleDice(DiceEntry):
    """The battle's dice thrown on the table, entered over :class:`BattleForm`: the faces go on the
    card when the player leaves a die whose face he turned or reaches one not read yet; closed (left on the first die, B), the
    form is kept alone; entered (A), the battle fought drops it all."""

    def __init__(self, form: BattleForm, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.form = form

    def keep_draft(self, ctx: Ctx) -> None:
        self.form.keep_draft(ctx, Dice(self.cursor, [list(f) for f in self.faces], [list(s) for s in self.set]))

    def key(self, key: str, ctx: Ctx) -> None:
        depth, cursor = ctx.depth(), self.cursor
        gone = intent("die", key) is Intent.GO
        super().key(key, ctx)
        if ctx.depth() < depth:
            if not gone:                         # back on the form: the entry closed
                self.form.keep_draft(ctx)
        elif self.cursor != cursor:              # a die left: kept when a face was turned or a die
            draft = kept(ctx)                    # newly read since (none going back over dice read)
            if draft is None or draft.dice is None or (draft.dice.faces, draft.dice.set) != (self.faces, self.set):
                self.keep_draft(ctx)
