"""Julius Caesar: a battle's end — who holds the field, the result, and what the rulebook lets the
winner do now: regroup (J-12; the RU summary 3.6 and 3.10)."""
from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PIL import Image

from engine.jc.battle import result_in_roles
from engine.jc.views import BattleView, JcView, WinterView
from engine.text import N_
from firmware.screens import base
from firmware.screens.ctx import Ctx
from firmware.i18n import again
from firmware.screens.jc.text import Msg, _, ngettext, say
from firmware.screens.jc.words import GAME, RESULT_WORDS, side_name, view_of
from firmware.screens.play import Snapshot
from firmware.screens.widgets import Intent, Scroll, intent, scroll_bar
from firmware.screens.widgets.scroll import beside

# The RU summary 3.6 «Когда бой завершен, победивший игрок может осуществить перегруппировку. Все
# блоки, победившие в бою (включая резерв) могут передвинуться в любой/любые прилегающие
# дружественный или свободный город/города. Лимиты дорог применяются. При перегруппировке
# использовать морские перевозки недопустимо.» and 3.10 «Корабли победившего в бою игрока способны
# перейти в прилегающее дружественное или свободное море или в любой дружественный или свободный
# порт в том же море.» One sentence per side: ru/uk decline the side's name.
REGROUP_LAND = {
    "caesar": N_("Caesar may regroup: all blocks that won the battle, reserves included, may move to any "
                 "adjacent friendly or vacant cities. Road limits apply; no sea moves when regrouping."),
    "pompey": N_("Pompey may regroup: all blocks that won the battle, reserves included, may move to any "
                 "adjacent friendly or vacant cities. Road limits apply; no sea moves when regrouping.")}
REGROUP_NAVIS = {
    "caesar": N_("Caesar's navis that won the battle may move to an adjacent friendly or vacant sea, or to any "
                 "friendly or vacant port on the same sea."),
    "pompey": N_("Pompey's navis that won the battle may move to an adjacent friendly or vacant sea, or to any "
                 "friendly or vacant port on the same sea.")}

IN_SPACE = ("fight", "reserve")            # a block still in the battle's space (not retreated, eliminated, killed)


def regroup(b: BattleView, winter: WinterView | None) -> list[str]:
    """What the winner may do now the battle is over (J-12, RU summary 3.6 and 3.10), as whole
    sentences: land blocks to adjacent friendly or vacant cities, navis to an adjacent friendly or
    vacant sea or a port on it — each said when the winner has such a block left in the space
    (reserves that never arrived too). Nothing before the end or with nobody holding the field,
    nor once a winter (J-19, ``winter``: the last one) has come after the battle: its moment is gone."""
    winner = b["winner"]
    if b["phase"] != "over" or winner is None or winner not in REGROUP_LAND:
        return []
    if winter is not None and winter["battle"] == b["number"]:
        return []
    navis = {x["kind"] == "navis" for x in b["blocks"] if x["side"] == winner and x["status"] in IN_SPACE}
    said: list[str] = [Msg(REGROUP_LAND[winner])] if False in navis else []
    return said + ([Msg(REGROUP_NAVIS[winner])] if True in navis else [])


class EndPage(Snapshot):
    """What the rules did last in a battle and its end (J-13), with what the winner may do now
    (:func:`regroup`), said where it happens: taken off by an undo that takes the end back, not
    by steps played since (the serial link may begin the next battle while it is read)."""

    now_only = False


class OverScreen:
    """The result of the battle: who holds the field in big letters, the result and what the winner
    may do now (regroup, :func:`regroup`). Up/down scroll the text (past its first rows the big name
    makes room for four); A reads on while rows are below and closes on the last page, B and
    left close at once (docs/keys.md). Taken off once the battle it shows is
    no longer over (an undo took its end back) or another battle is set up. ``events``: what the rules
    did on the way to the end that no page said yet (a leader killed, Cleopatra gone over, reserves
    disrupted: J-2, J-9), said after the result — the device fought the battle out with its own dice."""

    SHORT, LONG = 2, base.ROWS          # text rows under the big name; rows once scrolled past them

    def __init__(self, closed: Callable[[Ctx], None] | None = None, events: list[str] | None = None) -> None:
        self.title = ""
        self.number: int | None = None    # the battle shown (set when first drawn)
        self.scroll = Scroll()
        self.closed = closed              # what closing it does beside (the battle's last roll kept as read)
        self.events = list(events or [])

    def stale(self, ctx: Ctx) -> bool:
        view = ctx.view()
        if view is None or view["game"] != GAME:
            return True
        b = cast(JcView, view)["battle"]
        return b["phase"] != "over" or (self.number is not None and b["number"] != self.number)

    def rows(self, view: JcView) -> list[str]:
        b = view["battle"]
        said = result_in_roles(b["result"], b["roles_swapped"], b["winner"], b["attacker_now"],
                               any(x["side"] == b["attacker_now"] and x["status"] in (*IN_SPACE, "retreated")
                                   for x in b["blocks"]))      # (J-9: as the roles stood at the end)
        result = _(RESULT_WORDS[said]) if said in RESULT_WORDS else ""
        events = [again(e) for e in self.events]        # (said again in a language chosen meanwhile)
        paras = [p for p in [result, *events, *map(say, regroup(b, view["winter"]))] if p]
        return self.scroll.follow(paras, beside(paras, self.SHORT))     # scrolled: the mark keeps its column

    def last(self, total: int) -> int:
        """The last first row: 0 when the text fits under the name, else the last screenful."""
        return 0 if total <= self.SHORT else max(1, total - self.LONG)

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        view = view_of(ctx)
        b = view["battle"]
        self.number = b["number"] if self.number is None else self.number
        self.title = _("Battle {}").format(b["number"])
        base.title_bar(draw, self.title, ngettext("{} round", "{} rounds", b["round"]).format(b["round"]))
        rows = self.rows(view)
        self.scroll.top = top = max(0, min(self.scroll.top, self.last(len(rows))))
        if top == 0:
            word = side_name(b["winner"]) if b["winner"] else _("Nobody")
            base.big(img, max(0, (base.W - base.big_width(word, 2)) // 2), base.TITLE_H + 1, word, 2)
            y0, shown = base.row_y(2) + 1, self.SHORT
        else:
            y0, shown = base.row_y(0), self.LONG
        for i, row in enumerate(rows[top:top + shown]):
            base.put(draw, 1, y0 + i * base.LINE, row)
        scroll_bar(draw, top, shown, len(rows), y0, shown * base.LINE)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("text", key)
        total = len(self.rows(view_of(ctx)))
        if what is Intent.PREV:
            self.scroll.top = max(0, self.scroll.top - 1)
        elif what is Intent.NEXT:
            self.scroll.top = min(self.last(total), self.scroll.top + 1)
        elif self.scroll.go_on(what, total, self.SHORT if self.scroll.top == 0 else self.LONG):
            self.scroll.top = min(self.last(total), self.scroll.top)   # A with rows below: the next page (docs/keys.md)
        elif what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
            if self.closed is not None:
                self.closed(ctx)
