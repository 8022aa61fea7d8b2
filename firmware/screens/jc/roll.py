"""The battle's last roll on its page (the dice, where the hits went, what the rules did after it),
said again after a power cut until the player closes it: one write when closed (``jc.roll``), none
for reading it."""
from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from engine.jc.replies import TurnRecord
from engine.jc.views import BlockView
from firmware.i18n import again, sentence
from firmware.screens.jc.text import _, ngettext, say
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.play import Follows
from firmware.screens.jc.over import regroup
from firmware.screens.jc.words import GAME, campaign_mark, digest, fitted_name, kept_for, name_of, view_of
from firmware.screens.widgets import Intent, Scroll, die_tile, intent, scroll_bar
from firmware.screens.widgets.dice import DIE
from firmware.screens.widgets.scroll import beside
from firmware.settings import MAX_VALUE

log = logging.getLogger(__name__)


ROLL_KEY = "jc.roll"      # the newest rolls the player closed: ``<game>/<commitment>:f<battle>.<turn>#<digest>,…``
# (the campaign's, :func:`~firmware.screens.jc.words.campaign_mark`; an older Legatus named its session), the
# campaign closed in last first, then ``;`` and the newest closed of each of the campaigns before it that fit
ROLLS_KEPT = 8            # (an undo of more fires says the older ones again: read twice, never lost)
# Rolls closed when the card refused to keep it, per running program (the home shows a roll not closed when it
# comes on top: without this it showed it again and again, no way out).
_UNSAVED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def roll_mark(ctx: Ctx) -> str | None:
    """The mark of the battle's newest turn if it was a fire (``state.battle.roll``): the campaign,
    the battle's number, the turn's place and a digest of the roll itself (the block, the round, the
    dice: undo never re-rolls, so the same fire made again is the same roll; where its hits went
    may change after it is shown, when the owner picks); None without one."""
    b = view_of(ctx)["battle"]
    roll = b["roll"]
    if roll is None:
        return None
    t = roll["turn"]
    said: list[object] = [t["block"], t["round"], t["dice"]]
    if roll["events"]:        # what the rules did by it (the owner's picks, J-7, may add some): another page
        said.append([str(sentence(e)) for e in roll["events"]])        # (their English: any language)
    return f"{campaign_mark(ctx)}:f{b['number']}.{roll['index']}#{digest(said)}"


def _rolls(kept: str) -> tuple[str, list[str]]:
    """One campaign's part of the ``jc.roll`` setting as its campaign and its rolls
    (``f<battle>.<turn>#<digest>``, oldest first)."""
    who, _sep, rolls = kept.rpartition(":")
    return who, [r for r in rolls.split(",") if r]


def kept_rolls(ctx: Ctx) -> str:
    """The ``jc.roll`` setting, each campaign named as the running one's when it is that one's
    under an older name (:func:`~firmware.screens.jc.words.kept_for`); first the rolls closed while
    the card refused to keep them."""
    return ";".join([*sorted(_UNSAVED.get(ctx, ())),
                     *(kept_for(ctx, part) for part in str(ctx.settings.get(ROLL_KEY) or "").split(";") if part)])


def roll_read(kept: str, mark: str) -> bool:
    """Whether the ``jc.roll`` setting ``kept`` (:func:`kept_rolls`) says the roll ``mark`` was
    read: one of the newest rolls closed in the campaign (an undo of the last fire leaves the one
    before it the newest, read before it; a fire made after an undo with other dice, or by another
    block, is another roll), and the one of its place in the battle closed last: A read, undone, B
    read, undone, A again says other than the page the table followed last (B's)."""
    who, rolls = _rolls(mark)
    place = rolls[0].rpartition("#")[0] or rolls[0] if rolls else ""
    for kept_who, kept_rolls in map(_rolls, kept.split(";")):
        if who and kept_who == who:
            same = [r for r in kept_rolls if (r.rpartition("#")[0] or r) == place]     # oldest first
            if same and same[-1] == rolls[0]:
                return True
    return False


def read_rolls(kept: str, mark: str) -> str:
    """The ``jc.roll`` setting once ``mark`` is read too: the campaign's newest :data:`ROLLS_KEPT`,
    then the newest of each other campaign ``kept`` names, the one closed in last first, as many
    as fit in a setting's value (an older campaign's dropped: its last roll is said once more)."""
    who, rolls = _rolls(mark)
    parts = [_rolls(part) for part in kept.split(";") if part]
    newest = [r for kept_who, kept_rolls in parts if kept_who == who for r in kept_rolls if r not in rolls]
    value = f"{who}:{','.join([*newest, *rolls][-ROLLS_KEPT:])}"
    for kept_who, kept_rolls in parts:
        if kept_who != who and kept_rolls:
            if len(longer := f"{value};{kept_who}:{kept_rolls[-1]}") > MAX_VALUE:
                break
            value = longer
    return value


def resume_roll(ctx: Ctx) -> bool:
    """On opening the game: the result of the battle's last roll not closed yet (its dice, where
    the hits went, what the rules did after it: reserves arriving, a leader killed, the end) is
    said again — after a power cut the table has not lost which blocks to reduce; True if so.
    Not once a winter has come after the battle (the winter's checklist is said instead: the
    result was closed before it, on the device)."""
    view = view_of(ctx)
    b, winter = view["battle"], view["winter"]
    roll, mark = b["roll"], roll_mark(ctx)
    if roll is None or mark is None or roll_read(kept_rolls(ctx), mark):
        return False
    if b["phase"] == "over" and winter is not None and winter["battle"] == b["number"]:
        return False
    roll_page(ctx)
    return True


def roll_page(ctx: Ctx) -> None:
    """The battle's last roll on its page: its dice, where the hits went, what the rules did since
    (and, the battle over, what the winner may do now: regroup, J-12); closed, it is kept as read."""
    view = view_of(ctx)
    b, roll = view["battle"], view["battle"]["roll"]
    if roll is None:
        return
    events = list(roll["events"]) + (regroup(b, view["winter"]) if b["phase"] == "over" else [])
    ctx.push(DiceResult(roll["turn"], events=events, mark=roll_mark(ctx)))


class DiceResult(Follows):
    """The faces of one fire, hits filled, and where every hit went (scrolls, never cut); taken
    off by an undo of the fire. Closed, it is kept as read (``mark``: the ``jc.roll`` setting,
    one write), and until then opening the game says it again (:func:`resume_roll`)."""

    games = (GAME,)

    ROOM = 2                       # text rows under the dice

    def __init__(self, turn: TurnRecord, then: Callable[[Ctx], None] | None = None,
                 events: list[str] | None = None, mark: str | None = None) -> None:
        self.turn = turn
        self.then = then
        self.events = list(events or [])          # what the rules did after this fire (J-2, J-8, J-9)
        self.mark = mark
        self.scroll = Scroll()
        self.title = ""

    def rows(self, blocks: Sequence[BlockView] = ()) -> list[str]:
        """:meth:`paras` wrapped; said in another language than when last drawn, the scroll moves
        to the sentence the reader was at (the rows wrap otherwise)."""
        paras = self.paras(blocks)
        return self.scroll.follow(paras, beside(paras, self.ROOM))     # scrolled: the mark keeps its column

    def paras(self, blocks: Sequence[BlockView] = ()) -> list[str]:
        """Where the hits went (a block that went over marked as ``blocks``, the battle's, say)."""
        from engine.jc.battle import roll_rows
        t = self.turn
        hits, kept = roll_rows(t, [sentence(e) for e in self.events], blocks)  # a tie with no choice: one row (J-7)
        events = [e for e in self.events if any(sentence(e) is k for k in kept)]
        rows = [say(h) for h in hits]
        if t["lost"]:
            rows.append(ngettext("{} hit lost", "{} hits lost", t["lost"]).format(t["lost"]))
        waiting = t["hits"] - len(t["applied"]) - t["lost"]
        if waiting > 0:                   # the owner (the side fired at, J-7) named: one row, not two
            fired = t.get("side") or next((b["side"] for b in blocks if b["key"] == t["block"]), "")
            rows.append(_waiting(waiting, fired != "caesar", bool(rows)))   # («the owner picks» wrapped)
        if not rows:
            rows = [_("No hit.")]
        return rows + [again(e) for e in events]

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        t = self.turn
        status = ngettext("{} hit", "{} hits", t["hits"]).format(t["hits"])
        room = base.COLS - len(status) - 1                 # the dice show the strength: name and rating
        tail = f" {t['rating']}"
        blocks = view_of(ctx)["battle"]["blocks"]
        fired = next((x for x in blocks if x["key"] == t["block"]), None)
        self.title = (fitted_name(fired, room - len(tail)) if fired else base.clip(name_of(t), room - len(tail))) + tail
        base.title_bar(draw, self.title, status)
        x = 2
        for face, hit in zip(t["dice"], t["hit_dice"]):
            img.paste(die_tile(face, hit), (x, base.TITLE_H + 2))
            x += DIE + 4
        rows = self.rows(blocks)
        top = self.scroll.fit(len(rows), self.ROOM)
        y0 = base.row_y(2) + 1
        for i, row in enumerate(rows[top:top + self.ROOM]):
            base.put(draw, 1, y0 + i * base.LINE, row)
        scroll_bar(draw, top, self.ROOM, len(rows), y0, self.ROOM * base.LINE)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        total = len(self.rows(view_of(ctx)["battle"]["blocks"]))
        if self.scroll.move(what, total, self.ROOM) or self.scroll.go_on(what, total, self.ROOM):
            return                                # A with rows below: the next page (docs/keys.md)
        if what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
            self.read(ctx)
            if self.then is not None:
                self.then(ctx)

    def read(self, ctx: Ctx) -> None:
        keep_read(ctx, self.mark)


def _waiting(n: int, caesar: bool, more: bool) -> str:
    """The row of ``n`` hits the owner (Caesar's side if ``caesar``) picks where they go (J-7):
    «1 more: Caesar picks» under hits placed (or lost) above, else «2 hits: Pompey picks» (not «1
    more» under a title of «1 hit»); one row in every language (ru «ещё 1: выбор Помпея»)."""
    if more and caesar:
        return ngettext("{} more: Caesar picks", "{} more: Caesar picks", n).format(n)
    if more:
        return ngettext("{} more: Pompey picks", "{} more: Pompey picks", n).format(n)
    if caesar:
        return ngettext("{} hit: Caesar picks", "{} hits: Caesar picks", n).format(n)
    return ngettext("{} hit: Pompey picks", "{} hits: Pompey picks", n).format(n)


def keep_read(ctx: Ctx, mark: str | None) -> None:
    """Keep the roll ``mark`` as read (one write; none if it is kept already)."""
    kept = kept_rolls(ctx)
    if mark is None or roll_read(kept, mark):
        return
    response = ctx.set_setting(ROLL_KEY, read_rolls(kept, mark))
    if not response.get("ok"):
        _UNSAVED.setdefault(ctx, set()).add(mark)
        log.warning("the roll read was not kept: %s", response.get("message"))
