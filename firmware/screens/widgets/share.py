"""The players' share in every new-game form (issue 20, docs/fairness.md section 2).

One part that each game's form holds (:class:`FairShare`): as the form opens it asks the console
for the commitment of the secret the new game will use (``commit``) and shows its code large over
the form's first frame (the first key hides it and acts on the form: the cursor row shows above the
box, firmware/app.py ``closes_only``); then two rows of the form — the code (select: shown large again) and
"Players' share", optional: skipping it costs no press (the game starts with the secret alone,
and History → Fair draw says the share was skipped). Selecting the share row offers a few dice
thrown on the table (:class:`ShareDice`: up/down turn the die, right one more die, A enters
them; three dice in a handful of presses) or a word typed with the name keyboard. The form's
start line gets ``share=<text>`` through the typed builder (:func:`engine.actions.with_share`);
a share the console refuses is said with the console's own message and nothing starts.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from PIL import Image

from engine import actions as act
from engine.actions import Line
from engine.replies import NewReply
from engine.rng import check_share
from engine.text import N_
from firmware.i18n import _, say
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.widgets.dice import DIE_SMALL, die_tile
from firmware.screens.widgets.keys import Intent, intent, repeated
from firmware.screens.widgets.listing import Item, ListScreen, apart

log = logging.getLogger(__name__)

MAX_DICE = 6          # dice in a share (six tiles fit the panel's width)
DICE_GAP = 3          # pixels between two dice


class FairShare:
    """The fair-draw part of a new-game form: the code of the committed secret and the players'
    share (``text``; None: skipped). ``items(ctx)`` gives the form's two rows (the first call
    asks for the commitment and shows its code over the form); ``line(new_line)`` is the start
    line with the share."""

    def __init__(self) -> None:
        self.code: str | None = None       # the whole commitment, once the console gave it
        self.text: str | None = None
        self._asked = False

    def open(self, ctx: Ctx) -> None:
        """Ask once for the commitment the next ``new`` will use and show its code (large) over the
        form's first frame; without an answer (a console that refuses) the form has no share rows."""
        if self._asked:
            return
        self._asked = True
        response = ctx.run(act.commit())
        if response.get("ok") and response.get("commitment"):
            self.code = str(response["commitment"])
            ctx.show_commitment(self.code, form=True)     # its first key acts on the form too
        else:
            log.warning("no commitment for the new game's form: %s", response.get("message"))

    def items(self, ctx: Ctx) -> list[Item]:
        """The code row and the share row (none when the console gave no commitment)."""
        self.open(ctx)
        if self.code is None:
            return []
        code = self.code
        if self.text:              # the word typed or the dice, as much as the row holds beside its label
            label = _("Share")
            share = base.clip_name(self.text, ROOM - len(label) - (apart(self.text, label) - len(self.text)))
        else:
            label = _("Players' share")
            share = no_share(label)
        return [Item(_("Fair draw"), lambda c: c.show_commitment(code), code[:8], ident="fair:code"),
                Item(label, self.choose, share, ident="fair:share")]

    @staticmethod
    def hint(ident: str) -> str | None:
        """The title bar's hint for the form's row ``ident`` when it is one of these rows (A on the
        code shows it large; A on the share opens the ways to give one), else None."""
        if ident == "fair:code":
            return _("A: enlarge")
        if ident == "fair:share":
            return _("A: choose")
        return None

    def line(self, line: Line[NewReply]) -> Line[NewReply]:
        """``line`` (a ``new …`` line) with the share, if the players gave one."""
        return act.with_share(line, self.text)

    def shown(self, commitment: object) -> bool:
        """Whether the started game's ``commitment`` is the code this form showed (a ``new`` from the
        serial link in between would have used the secret: the game then shows its own code)."""
        return self.code is not None and commitment == self.code

    # -- taking the share ---------------------------------------------------------------------------
    def choose(self, ctx: Ctx) -> None:
        ctx.push(ShareMenu(self.take, given=bool(self.text)))

    def take(self, ctx: Ctx, text: str | None) -> bool:
        """Keep ``text`` as the share (None: no share) if the console would take it; else say the
        console's own message (engine/rng.py ``check_share``) and keep what was there."""
        if text is not None:
            problem = check_share(text)
            if problem is not None:
                ctx.notify(say(problem))
                return False
        self.text = text
        return True


ROOM = base.COLS - 1      # a list row's characters beside the cursor's mark (listing.item_rows)


def no_share(label: str) -> str:
    """The value of a share row labelled ``label`` when no share is given: «none» in the reader's
    words where it fits beside the label on one row, else a dash (uk «Внесок гравців» and «немає»
    wrapped the row onto two, «Внесок» / «гравців  немає», and pushed the form's next row down)."""
    word = _("none")
    return word if len(label) + apart(word, label) <= ROOM else "—"


Take = Callable[[Ctx, "str | None"], bool]
"""What becomes of a share entered (None: no share): True if it was taken."""


class ShareMenu(ListScreen):
    """Dice…, A word…, and No share once one is given (``given``); ``take`` keeps the share (a
    form's part) or sends it (``share`` in a running game, History → Fair draw)."""

    title = Said(N_("Players' share"))

    def __init__(self, take: Take, given: bool = False) -> None:
        super().__init__()
        self.take = take
        self.given = given

    def items(self, ctx: Ctx) -> list[Item]:
        out = [Item(_("Dice from the table…"), self._dice), Item(_("A word…"), self._word)]
        if self.given:
            out.append(Item(_("No share"), self._none))
        return out

    def _dice(self, ctx: Ctx) -> None:
        ctx.replace(ShareDice(self._taken))

    def _word(self, ctx: Ctx) -> None:
        from firmware.screens.widgets.keyboard import TypeScreen
        ctx.replace(TypeScreen(self._typed))

    def _none(self, ctx: Ctx) -> None:
        self.take(ctx, None)
        ctx.pop()

    def _taken(self, ctx: Ctx, text: str) -> None:
        if self.take(ctx, text):
            ctx.pop()

    def _typed(self, ctx: Ctx, text: str) -> None:     # the keyboard has closed itself
        self.take(ctx, text)


def dice_share(faces: list[int]) -> str:
    """The share of dice read on the table: ``3-1-6``."""
    return "-".join(str(f) for f in faces)


class ShareDice:
    """A few dice thrown on the table, read one by one: up/down turn the die under the cursor
    (1…6, round), right goes to the next die (one more die after the last, up to six: a press of
    its own, never a repeat of right held down), left back
    (left from a last die not yet turned takes it away; left on the first goes back), A or press
    enters them (``3-1-6``), B goes back."""

    def __init__(self, on_done: Callable[[Ctx, str], None]) -> None:
        self.on_done = on_done
        self.faces = [1]
        self.turned = [False]
        self.cursor = 0

    title = Said(N_("Dice for a share"))

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, self.title, f"{len(self.faces)}/{MAX_DICE}")
        y = base.TITLE_H + 3
        for i, face in enumerate(self.faces):
            x = 2 + i * (DIE_SMALL + DICE_GAP)
            img.paste(die_tile(face, False, DIE_SMALL), (x, y))
            if i == self.cursor:                       # the cursor: a bar under the die
                draw.rectangle((x, y + DIE_SMALL + 1, x + DIE_SMALL - 1, y + DIE_SMALL + 2), fill=1)
        base.put(draw, 1, base.row_y(2) + 2, base.clip(_("↑↓ face  →: one more")))
        base.put(draw, 1, base.row_y(3) + 1, base.clip(_("A: {}").format(dice_share(self.faces))))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("die", key)
        if what in (Intent.MORE_ONE, Intent.LESS_ONE):
            by = 1 if what is Intent.MORE_ONE else -1
            self.faces[self.cursor] = (self.faces[self.cursor] - 1 + by) % 6 + 1
            self.turned[self.cursor] = True
        elif what is Intent.RIGHTWARD:
            if self.cursor + 1 == len(self.faces) and len(self.faces) < MAX_DICE and not repeated(key):
                # one more die: a press of its own (held right stops at the last die)
                self.faces.append(1)
                self.turned.append(False)
            self.cursor = min(self.cursor + 1, len(self.faces) - 1)
        elif what is Intent.LEFTWARD:
            if self.cursor == 0:
                if not repeated(key):                  # held left stops at the first die
                    ctx.pop()
                return
            if self.cursor == len(self.faces) - 1 and not self.turned[-1]:
                self.faces.pop()
                self.turned.pop()
            self.cursor -= 1
        elif what is Intent.GO:
            self.on_done(ctx, dice_share(self.faces))
        elif what is Intent.BACK:
            ctx.pop()
