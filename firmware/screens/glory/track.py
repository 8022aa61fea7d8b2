"""For the Glory of Rome: the fame track with its milestones (G-5, G-6) and the Senate column (G-7)."""
from __future__ import annotations

from functools import partial

from PIL import Image

from engine.glory import actions as act
from engine.glory.tables import fame_floor
from firmware.i18n import Sentences
from engine.glory.views import GloryView
from firmware.screens.glory.text import Msg, _
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.screens.glory.words import SENATE_VALUES, FollowsIntrigues, lap_note, milestone_note, run_line, view_of
from firmware.screens.glory.dials import BoundDial
from firmware.screens.widgets import Dial, Intent, Item, ListScreen, intent

FAME_FLOOR = fame_floor()                     # G-5: the track's lowest space
MOST_CHANGE = 99                             # the dial's figure: two digits each way


# -- fame ----------------------------------------------------------------------------------------
class FameScreen(ListScreen):
    """Everybody's fame and supporters (one * each); the shared milestone markers in the footer;
    A adjusts the selected player."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Fame (* = supporter)")

    def items(self, ctx: Ctx) -> list[Item]:
        view = view_of(ctx)
        ended = bool(view.get("ended"))          # the game has ended: fame is read, no more changed
        return [self._row(p, "*" * view["supporters"][p], str(view["fame"][p]), ended) for p in view["players"]]

    def _row(self, player: str, stars: str, fame: str, ended: bool = False) -> Item:
        """A player's row: the name (cut to the room left), every supporter's star, the fame."""
        room = base.COLS - 1 - len(fame) - 1 - len(stars) - 1
        return Item(f"{base.clip_name(player, min(11, room))} {stars}",
                    None if ended else partial(self._adjust, player=player), fame, ident=player)

    def footer(self, ctx: Ctx) -> str:
        m = view_of(ctx)["markers"]
        label = _("Milestones")
        figures = f"{m['12']} {m['21']} {m['30']}"
        return f"{base.clip(label, base.COLS - len(figures) - 2)} {figures}"

    @staticmethod
    def _adjust(ctx: Ctx, player: str) -> None:
        ctx.push(fame_adjust(player))


def fame_adjust(player: str) -> Dial:
    """A change of ``player``'s fame: up/down ±1, left/right ±5 (press: ±10, ±1), as the bottom row
    says; A applies it at once (G-5, G-6); B goes back without a change."""
    def go(ctx: Ctx, delta: int) -> None:
        if delta == 0:
            ctx.notify(Msg("Set a change first."))
            return
        before = view_of(ctx)["track"][player]
        response = run_line(ctx, act.fame(player, delta))
        if response is not None:
            ctx.pop()
            note = Sentences(lap_note(player, before, view_of(ctx)["track"][player]), milestone_note(response))
            if note:
                ctx.notify(note)

    def note(ctx: Ctx, delta: int) -> str:
        now = view_of(ctx)["fame"][player]
        return f"{now} → {now + delta}"

    def title() -> str:                       # the name the players typed cut to the room left (Dial: 15)
        return _("Fame: {}").format(base.clip_name(player, 15 - len(_("Fame: {}").format(""))))

    def bounds(ctx: Ctx) -> tuple[int, int]:
        """G-5: «маркер славы ни при каких обстоятельствах не может опуститься ниже» space 1: a
        loss of at most the spaces above it (the dial went to −99 on space 4, «4 → 1»)."""
        return min(0, FAME_FLOOR - view_of(ctx)["fame"][player]), MOST_CHANGE

    def limit(ctx: Ctx, more: bool) -> str | None:
        now = view_of(ctx)["fame"][player]
        if more:
            return None
        if now <= FAME_FLOOR:
            return Msg("{} is on space 1: fame never drops below it (G-5).", player)
        return Msg("{}: fame {}, a loss of at most {} (the track stops at 1, G-5).", player, now, now - FAME_FLOOR)

    return BoundDial(title, 1, -MOST_CHANGE, MOST_CHANGE, go, show=lambda d: f"{d:+d}", note=note,
                     status=lambda c, d: _("A: ok"), step=1, bounds=bounds, limit=limit)


# -- Senate ----------------------------------------------------------------------------------------
def closed(view: GloryView) -> bool:
    """Whether the Senate column takes no more votes: the 9 rounds are over (G-1), or the game ended."""
    return bool(view["finished"] or view.get("ended"))


def correcting(view: GloryView) -> bool:
    """Whether the column is corrected rather than voted on: after round 9 (G-1: no vote is placed
    then), until the score is final (the game ended), as fame, medals and the score pad are."""
    return bool(view["finished"] and not view.get("ended"))


class SenateScreen:
    """The column on the left (top row = top of the column, with each position's score) and the
    players on the right under the heading: A (or right, or press) places a vote for the selected
    player, hold A (KEY3) places the two votes of a boosted action. No title bar: the column needs
    all five rows.

    After round 9, until the score is final, the cursor is on the column instead (G-10 scores it as
    it stands): left/right change whose vote a position holds (the players in order, then no vote:
    the votes above move down), at once, as the score pad's figures; the row above the top vote
    takes a new one. Each change is one journaled correction (``senate column=…``), taken back by
    hold B; the score and History follow it. A says how. Once the score is final the column is read."""

    second_action = True           # hold A (KEY3): the two votes of a boosted action

    def __init__(self) -> None:
        self.cursor = 0
        self.at: int | None = None   # after round 9: the position under the cursor (0 = bottom)

    @property
    def title(self) -> str:
        return _("Senate")

    def _at(self, view: GloryView) -> int:
        """The position under the correcting cursor: at first the top vote; never above the row
        over the top vote (the column has no gaps)."""
        column = view["senate"]
        if self.at is None:
            self.at = max(0, len(column) - 1)
        self.at = max(0, min(self.at, len(column), 4))
        return self.at

    def render(self, ctx: Ctx) -> Image.Image:
        view = view_of(ctx)
        img, draw = base.frame()
        column = view["senate"]
        at = self._at(view) if correcting(view) else None
        for i in range(5):                       # row 0 = position 5 (top)
            pos = 4 - i
            y = 1 + i * base.LINE
            owner = column[pos] if pos < len(column) else "·"
            base.text(draw, 1, y, f"{SENATE_VALUES[pos]} {base.clip_name(owner, 8)}", invert=pos == at)
        draw.line((62, 0, 62, base.H - 1), fill=1)
        heading = base.clip(f"{self.title} {len(column)}/5", 10)
        base.text(draw, 66, 1, heading, invert=True)
        players = view["players"]
        self.cursor = min(self.cursor, len(players) - 1)
        placing = not closed(view)                 # after round 9 the column is read: no cursor to place with
        for i, p in enumerate(players):
            base.text(draw, 66, 1 + (i + 1) * base.LINE, base.clip_name(p, 10), invert=placing and i == self.cursor)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        view = view_of(ctx)
        if correcting(view):
            self._correct(key, ctx, view)
            return
        players = view["players"]
        what = intent("row", key)
        if what in (Intent.PREV, Intent.NEXT):
            self.cursor = max(0, min(len(players) - 1, self.cursor + (1 if what is Intent.NEXT else -1)))
        elif what in (Intent.SELECT, Intent.SECOND) and view.get("ended"):
            # the score is final (the players ended the game): the column is read, as fame is
            ctx.notify(Msg("The score is final: the Senate column is no longer corrected."))
        elif what in (Intent.SELECT, Intent.SECOND):
            n = 2 if what is Intent.SECOND else 1
            name = players[self.cursor]
            before = view_of(ctx)["track"][name]
            response = run_line(ctx, act.vote(name, n))
            if response is None:
                return
            notes: list[str] = []
            if response["supremacy"]:
                notes.append(Msg("Supremacy! {} +{} fame.", name, response["fame_gained"]))
                notes.append(lap_note(name, before, view_of(ctx)["track"][name]))
            if response["pushed_out"]:
                notes.append(back_votes(response["pushed_out"]))
            note = milestone_note(response)
            if note:
                notes.append(note)
            if notes:
                ctx.notify(Sentences(*notes))
        elif what is Intent.BACK:
            ctx.pop()

    def _correct(self, key: str, ctx: Ctx, view: GloryView) -> None:
        """After round 9 (G-1: «В конце 9-го (IX) раунда игра переходит к итоговому подсчету очков»)
        no vote is placed: the column is set as the table shows it (G-10). A placed a vote the game
        refused, and the only way to put a wrong column right was to undo back through round 9's
        end, while fame, medals and the pad were corrected there."""
        column = list(view["senate"])
        at = self._at(view)
        what = intent("choice", key)
        if what in (Intent.PREV, Intent.NEXT):           # top row first, as the column stands
            self.at = at + (1 if what is Intent.PREV else -1)
            self._at(view)
        elif what in (Intent.LESS, Intent.MORE):
            owners: list[str | None] = [*view["players"], None]   # then no vote: it leaves the column
            now = column[at] if at < len(column) else None
            owner = owners[(owners.index(now) + (1 if what is Intent.MORE else -1)) % len(owners)]
            if owner is None:
                del column[at]
            elif at < len(column):
                column[at] = owner
            else:
                column.append(owner)
            run_line(ctx, act.senate(column))
        elif what in (Intent.GO, Intent.SECOND):
            ctx.notify(Msg("Correct the column as on the table: left/right change whose vote this is."))
        elif what is Intent.BACK:
            ctx.pop()


def back_votes(owners: list[str]) -> Msg:
    """The votes a placing pushed out of the bottom of the column, back to their owners' boards
    (G-7: «самая нижняя фишка голоса удаляется из колонны и возвращается на планшет ее
    владельца»), in one sentence: the two votes of a boosted action on a full column said
    «Jack: the bottom vote goes back.» twice, a «Note» of three pages over the column."""
    if len(owners) == 1:
        return Msg("{}: the bottom vote goes back.", owners[0])
    if len(set(owners)) == 1:
        n = len(owners)
        return Msg("{}: {} bottom vote goes back.", owners[0], n, plural="{}: {} bottom votes go back.", n=n)
    return Msg("The bottom votes go back to {} and {}.", *owners[:2])


class UnvoteScreen(FollowsIntrigues, ListScreen):
    """An intrigue takes a vote out of the Senate column (G-7: «Повторное голосование», whose own
    vote is then placed on the Senate screen, and «Недействительное голосование», whose +1 fame
    goes on the Fame screen): the column top first, as the Senate screen shows it; A takes the
    vote out. Removing never makes a supremacy. It goes with the round's event (:class:`FollowsIntrigues`)."""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Remove a vote")

    def items(self, ctx: Ctx) -> list[Item]:
        column = view_of(ctx)["senate"]
        return [Item(f"{SENATE_VALUES[pos]} {base.clip_name(column[pos], 16)}",
                     partial(self._remove, owner=column[pos], at=pos + 1))
                for pos in reversed(range(len(column)))]

    @staticmethod
    def _remove(ctx: Ctx, owner: str, at: int) -> None:
        if run_line(ctx, act.unvote(owner, at)) is not None:
            ctx.notify(Msg("{}'s vote is out of the Senate column.", owner))
            ctx.pop()
