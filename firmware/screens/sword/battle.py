"""The Sword of Rome: a battle's screens — the form (units, bonuses, flanking units, the dice: W-2,
W-6), the result with the winner's support (W-2..W-5), its loss table (W-4) and the retreat losses
form (W-5)."""
from __future__ import annotations

import json
import logging
import zlib
from typing import Any

from PIL import Image

from engine.sword import actions as act
from engine.sword.battle import read_dice, retreat_room, size_column, support_gain
from engine.sword.odds import attacker_wins
from engine.sword.replies import BattleFields, BattleSide, UndoneBattle
from engine.sword.requests import signed
from engine.text import N_
from firmware.screens import base, play
from firmware.screens.ctx import Ctx
from firmware.screens.open_result import OneResult
from firmware.screens.sword.draft import BattleDice, BattleForm, Dice, Draft, drop
from firmware.screens.sword.draft import kept as kept_draft
from firmware.screens.sword.text import Msg, _, ngettext
from firmware.screens.sword.words import BAND, BAND_NAMES, Follows, reading_word, run_line, side_row, view_of
from firmware.screens.widgets import Field, Intent, NumberForm, Scroll, intent, pct, scroll_bar
from firmware.screens.widgets.dice import TABLE_DICE, source_word

log = logging.getLogger(__name__)


def _odds_status(ctx: Ctx, v: dict[str, int]) -> str:
    n_att = 4 if v.get("band") == 1 else 3
    n_def = 4 if v.get("band") == 2 else 3
    p = attacker_wins(v["mod"] - v["defmod"], n_att, n_def)
    return _("attacker {}").format(pct(float(p)))


def undone_battle(ctx: Ctx) -> UndoneBattle | None:
    """The battle an undo took back where the session stands (W-2), as the session's undo record
    keeps it (engine/sword/undone.py): whoever fought or undid it (the device, the serial link),
    across a restart or a power cut too. None when none was, or one was fought in its place: a new
    battle (the most recent still stands) opens on 3 v 3, no bonuses, as always: battles between
    other armies opened on the last one's figures saved half a press a battle where none had a
    flanking force (10.1 presses against 10.6, scripts/presses/sword.py's random armies) and cost
    more once a quarter had one (12.3 against 11.7); and a flanking force or the Sacred Band carried
    into a battle that has none fights a wrong battle unless it is seen."""
    response = ctx.run(act.undone_battle())       # (run, not ask: a worker's copy of the state has no undo record)
    return response["battle"] if response.get("ok") else None


def form_values(battle: UndoneBattle) -> dict[str, int]:
    """The Battle form's values that fight ``battle`` again: each side's units besides its flanking
    force, the bonuses, the flanking units, the Sacred Band and the dice (W-2): the table's when
    both sides' were entered."""
    band = {"attacker": 1, "defender": 2}.get(battle["sacred_band"] or "", 0)
    return {"att": battle["attackers"], "def": battle["defenders"], "mod": battle["mod"], "defmod": battle["defmod"],
            "att_flank": battle["att_flank"], "def_flank": battle["def_flank"], "band": band,
            "dice": int(battle["att_dice"] is not None and battle["def_dice"] is not None)}


def battle_form(ctx: Ctx, draft: Draft | None = None) -> BattleForm:
    """Units, modifiers and each side's flanking units (W-2: half of them, rounded up, count in its
    army size, the loss table's column, W-4); the title bar shows the attacker's exact chance (W-6). A fights:
    with the device's dice, or asks for the dice thrown on the table (3d6 a side, W-2). The Sacred
    Band row (Carthage's 4d6, W-2) only where Carthage is in the game. After an undo of a battle
    (:func:`undone_battle`) the form holds its values and the dice entry its faces; with the
    device's dice it is fought again on the same dice (undo never re-rolls: firmware/shown.py,
    docs/fairness.md). ``draft``: the battle typed and not fought when the power went
    (:mod:`.draft`): the form holds its figures, on its row, and its dice entry, if it was open,
    the faces entered (:func:`resume_draft`)."""
    carthage = "carthage" in view_of(ctx)["factions"]
    undone = undone_battle(ctx) if draft is None else None
    was = form_values(undone) if undone is not None else dict(draft.values) if draft is not None else {}
    if not carthage:
        was.pop("band", None)

    def go(c: Ctx, v: dict[str, int]) -> None:
        band = BAND[v["band"]] if v.get("band") else None
        if not v["dice"]:
            response = run_line(c, act.battle(v["att"], v["def"], v["mod"], v["defmod"], band,
                                              att_flank=v["att_flank"], def_flank=v["def_flank"]))
            if response is not None:
                drop(c)
                c.replace(BattleResult(response, fought=c))
            return
        entry = dice_entry(v)
        c.push(entry)
        entry.keep_draft(c)                        # a page turned: the figures and the dice kept

    def dice_entry(v: dict[str, int], kept: Dice | None = None) -> BattleDice:
        band = BAND[v["band"]] if v.get("band") else None

        def fight(c2: Ctx, faces: list[list[int]]) -> None:
            response = run_line(c2, act.battle(v["att"], v["def"], v["mod"], v["defmod"], band, faces[0], faces[1],
                                               att_flank=v["att_flank"], def_flank=v["def_flank"]))
            if response is not None:
                drop(c2)
                c2.pop()
                c2.replace(BattleResult(response, fought=c2))

        rows = [(N_("Attack"), 4 if v.get("band") == 1 else 3), (N_("Defence"), 4 if v.get("band") == 2 else 3)]
        entry = BattleDice(form, lambda: _("Battle dice"), rows, fight, words=_)
        thrown = [undone["att_dice"] or [], undone["def_dice"] or []] if undone is not None else None
        if kept is not None and [len(f) for f in kept.faces] == [n for _label, n in rows]:
            entry.faces, entry.set = [list(f) for f in kept.faces], [list(s) for s in kept.set]
            entry.cursor = kept.cursor              # the faces entered before the power went, the die it was on
        elif thrown is not None and was["dice"] and [len(f) for f in thrown] == [n for _label, n in rows]:
            entry.faces = [list(f) for f in thrown]       # the faces entered for the undone battle, read
            entry.set = [[True] * len(f) for f in thrown]
        return entry

    def field(key: str, label: str, value: int, lo: int, hi: int, *rest: Any) -> Field:
        # an undone battle sent over the serial link may go past a row's range (99 units, ±20): the
        # row reaches its figure, so that A fights that battle, not one clamped to the range
        held = was.get(key, value)
        return Field(key, label, held, min(lo, held), max(hi, held), *rest)

    band = [field("band", N_("Sacred Band"), 0, 0, 2, lambda b: _(BAND_NAMES[b]))] if carthage else []
    form = BattleForm(N_("Battle"), [
        field("att", N_("Attacker units"), 3, 1, 30),
        field("def", N_("Defender units"), 3, 1, 30),
        field("mod", N_("Attack bonus"), 0, -9, 9, signed),
        field("defmod", N_("Defence bonus"), 0, -9, 9, signed),
        # W-2: a flanking force's units, besides the army's; half of them (rounded up) count in the
        # army size, whose column the side reads on the loss table (W-4). After the bonuses: a battle
        # without one is entered with the presses it always took.
        field("att_flank", N_("Attacker flanking units"), 0, 0, 20),
        field("def_flank", N_("Defender flanking units"), 0, 0, 20),
        *band,
        Field("dice", N_("Dice"), min(1, max(0, was.get("dice", 0))), 0, 1, source_word, TABLE_DICE),
    ], go, status=_odds_status)
    form.open_dice = dice_entry
    if undone is not None or draft is not None:   # the undone battle's dice (or those typed), not those the
        form.recalled = True                       # device remembers from a roll since
    return form


def resume_draft(ctx: Ctx) -> bool:
    """On opening the game (after a power cut): the battle typed on the device and not fought —
    the Battle form's figures, and the dice thrown on the table half entered — over the home as it
    was (:mod:`.draft`); True if so. Never another game's."""
    draft = kept_draft(ctx)
    if draft is None:
        return False
    form = battle_form(ctx, draft)
    form.recall(ctx)
    form.cursor = min(draft.cursor, len(form.fields) - 1)
    ctx.push(form)
    if draft.dice is not None and form.values()["dice"] and form.open_dice is not None:
        ctx.push(form.open_dice(form.values(), draft.dice))
    return True


def same_battle(a: BattleFields, b: BattleFields) -> bool:
    """Whether two battle records are one battle (its retreat losses, the support and whether the
    loser is left with no units aside: W-5, seed 8.4)."""
    rolled = ("winner", "readings", "sacred_band", "dice_source")

    def side(s: BattleSide) -> dict[str, object]:
        return {k: v for k, v in s.items() if k != "eliminated"}
    return (all(a.get(k) == b.get(k) for k in rolled) and side(a["attacker"]) == side(b["attacker"])
            and side(a["defender"]) == side(b["defender"]))


def army_size_said(name: str, side: BattleSide) -> str:
    """How a side with a flanking force reads the loss table (W-2, W-4): its army size, the army's
    units plus half the flanking units rounded up, and the column that size reads — under the loss
    table's heading, in four rows in every language («Attacker's army size 10 = 7 + 3 (half of 5
    flanking units): column 3+.»): it took six (en) and eight (ru/uk), «(half, rounded up)» and
    «Loss table column» in words the figures and the heading above say, one or two presses more
    on every battle with a flanking force."""
    flank = side.get("flank", 0)
    size = side.get("size", side["units"])
    army = side["units"] - flank
    col = size_column(size)
    if name == "attacker":
        return ngettext("Attacker's army size {size} = {army} + {half} (half of {flank} flanking unit): column {col}.",
                        "Attacker's army size {size} = {army} + {half} (half of {flank} flanking units): column {col}.",
                        flank).format(size=size, army=army, half=size - army, flank=flank, col=col)
    return ngettext("Defender's army size {size} = {army} + {half} (half of {flank} flanking unit): column {col}.",
                    "Defender's army size {size} = {army} + {half} (half of {flank} flanking units): column {col}.",
                    flank).format(size=size, army=army, half=size - army, flank=flank, col=col)


def loss_rows(result: BattleFields) -> list[str]:
    """The loss table's rows, the battle result's last ones: for a side with a flanking force, the
    army size whose column it reads (W-2, W-4), then each side's dice under its name, each with what
    it reads on the loss table, and the Sacred Band's die left out (W-4: three dice are read, its
    three highest: the result's page 1 says that this is Legatus's reading)."""
    said = [army_size_said(name, result[name]) for name in ("attacker", "defender")
            if result[name].get("flank")]
    out: list[str] = []
    for name in ("attacker", "defender"):
        dice = [f"  {x['die']}: {reading_word(x['reads'])}" for x in result["readings"] if x["side"] == name]
        unread = ["  " + _("{}: in the total only, not read (W-4).").format(die) for die in result[name].get("unread", [])]
        if dice or unread:
            out += [_("Attacker's dice:") if name == "attacker" else _("Defender's dice:"), *dice, *unread]
    return said + (out or [_("No losses.")])


def band_rows(result: BattleFields) -> list[str]:
    """For a Sacred Band side (4d6 in its total, W-2): the three dice its losses were read from (W-4),
    said to be Legatus's reading: the rules it holds do not say which three."""
    out = []
    for name in ("attacker", "defender"):
        side = result[name]
        if side.get("unread"):
            read = " ".join(map(str, read_dice(side["dice"])[0]))
            out.append(_("Attack dice on the loss table: {} (the Sacred Band's 3 highest: Legatus's reading).").format(read)
                       if name == "attacker" else
                       _("Defence dice on the loss table: {} (the Sacred Band's 3 highest: Legatus's reading).").format(read))
    return out


def left_alone(name: str, side: BattleSide, retreat: int) -> str | None:
    """What seed 8.4 does to the leaders of a side that lost ``side["losses"]`` in the battle and
    ``retreat`` retreating: a historically significant leader all of whose units are eliminated
    (battle and retreat losses) is displaced, and placed again in the next reinforcement phase
    (5.10); a secondary leader is not displaced but set aside, placed again when its player becomes
    active (5.4). Every unit lost: the side is eliminated. Its army's units lost and only flanking
    units left (W-2: a flanking force is units besides the army's): whether any stays with the
    leaders is the player's removal, so it is said as a condition. Less: None."""
    lost, units = side["losses"] + retreat, side["units"]
    if lost >= units:                # (the rulebook's terms in as few rows as they go: 6-7, not 8-9)
        return (_("Attacker eliminated: historical leaders displaced until reinforcements, secondary set aside "
                  "until active (8.4).") if name == "attacker" else
                _("Defender eliminated: historical leaders displaced until reinforcements, secondary set aside "
                  "until active (8.4)."))
    if lost >= units - side.get("flank", 0):         # (7 rows, not 11-13)
        return (_("Attacker's army lost, flanking units left: leaders with no unit displaced until "
                  "reinforcements, secondary set aside (8.4).") if name == "attacker" else
                _("Defender's army lost, flanking units left: leaders with no unit displaced until "
                  "reinforcements, secondary set aside (8.4)."))
    return None


class BattleResult(Follows):
    """Both sides' dice and totals, the winner, losses and the winner's support (W-2..W-5).
    up/down scroll; A reads on, page by page, to the last: every die's loss-table reading (W-4),
    and closes it (docs/keys.md: one grammar for every text); hold A (KEY3) enters the loser's
    retreat losses once it has retreated (``retreat losses=N``), and the support counts them (W-5).
    The battle is shown as the session keeps it now: an undo of its retreat losses shows them gone."""

    second_action = True           # hold A (KEY3): the retreat losses

    def __init__(self, result: BattleFields, fought: Ctx | None = None, top: int = 0) -> None:
        """``fought``: the battle was just fought on the device (its form): kept as open
        (``sword.battle``, one write) until closed, with the row the player reads from (a write
        a page turned) and the retreat losses typed and not sent (a write a figure), and reopened
        after a power cut as it was until then (:func:`resume_battle`). ``top``: the first row shown."""
        self.result = result
        self.scroll = Scroll(top=top)
        self.over = False              # the game is over (after turn 9): no retreat losses (W-11)
        if fought is not None:
            OPEN.open(fought, battle_mark(fought, result))

    @property
    def title(self) -> str:
        return _("Battle")

    def follow(self, ctx: Ctx) -> None:
        """Take the session's record of this battle while it is its most recent one, whatever was
        rolled since (its retreat losses may have changed since: entered, taken back by an undo, or sent over the serial link)."""
        try:
            view = view_of(ctx)
        except LookupError:
            return
        self.over = bool(view["finished"] or view.get("ended"))
        last = view["last_battle"]                   # (a naval retreat's or a check's roll may follow it)
        if last is not None and same_battle(last, self.result):
            self.result = last

    def stale(self, ctx: Ctx) -> bool:
        """Taken off when an undo takes back the battle itself, not a step after it: opened from
        Last battle after a naval retreat's roll (W-5), an undo of that roll or of the retreat
        losses leaves the battle standing, and the screen shows it as the session keeps it now.
        The battle taken back, its result is closed (:data:`OPEN`): the same battle fought again
        over the serial link (undo never re-rolls: the same dice) is the laptop's, never reopened
        on the device at the next start as if it had fought it."""
        if not super().stale(ctx):
            return False
        try:
            view = view_of(ctx)
        except LookupError:
            return True
        last = view["last_battle"]
        gone = last is None or not same_battle(last, self.result)
        if gone:
            OPEN.close(ctx, battle_mark(ctx, self.result))
        return gone or self.shown_at is None

    def latest(self, ctx: Ctx) -> bool:
        """Whether this is still the session's most recent battle, the one ``retreat`` amends (a
        battle fought since, over the serial link, is said and nothing is sent)."""
        try:
            last = view_of(ctx)["last_battle"]
        except LookupError:
            return False
        if last is not None and not same_battle(last, self.result):
            ctx.notify(Msg("Another battle has been fought since this one: retreat losses go with the latest battle."))
            return False
        return True

    def room(self) -> int:
        """How many units the loser has left to lose retreating (W-5)."""
        return retreat_room(self.result)

    def rows(self) -> list[str]:
        r = self.result
        att, dfd = r["attacker"], r["defender"]
        rows = [
            side_row(_("Attack"), att),
            side_row(_("Defence"), dfd),
            *band_rows(r),
            _("Attacker loses {}").format(att["losses"]),
            _("Defender loses {}").format(dfd["losses"]),
        ]
        if r.get("retreat_losses"):
            rows.append(_("Retreat losses {}").format(r["retreat_losses"]))
        # the winner's support with the figures, on the second page: what the leaders of an army
        # that lost its units do (8.4), six or seven rows, after it
        # one sentence a side: «Поддержка +3 (защитник)», a word put in brackets, took two rows
        rows.append((_("Support +{} (attacker)") if r["winner"] == "attacker" else
                     _("Support +{} (defender)")).format(r["support"]))
        for name, side in (("attacker", att), ("defender", dfd)):
            said = left_alone(name, side, r.get("retreat_losses", 0) if r["loser"] == name else 0)
            if said is not None:
                rows.append(said)
        if self.room() and not self.over:           # (one row in en: «Hold A: retreat losses», 22
            rows.append(_("Hold A: retreat loss"))     # characters, left «losses» alone on a second)
        # the loss table (W-4) last, under a row that names it: A reads on to it and closes it, as
        # every text (it was another screen A opened from any page, the result's second page unread).
        # Not on a page of its own: blank rows to the page's end cost a press in one random battle of three
        # in ru/uk and in nearly every one in en (A to read one and close: 4.5 / 5.4 / 5.4, not 5.5 / 5.8 / 5.7)
        rows += [_("Loss table (W-4):"), *loss_rows(r)]
        return [part for row in rows for part in base.wrap(row)]          # never cut

    def render(self, ctx: Ctx) -> Image.Image:
        self.follow(ctx)
        r = self.result
        img, draw = base.frame()
        status = _("attacker wins") if r["winner"] == "attacker" else _("defender wins")
        base.title_bar(draw, self.title, status)
        rows = self.rows()
        top = self.scroll.fit(len(rows), base.ROWS)
        base.lines(draw, rows[top:])
        scroll_bar(draw, top, base.ROWS, len(rows))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        self.follow(ctx)
        what = intent("text", key)
        total = len(self.rows())
        if self.scroll.move(what, total, base.ROWS):
            self.keep(ctx, near=True)    # (row by row: kept once a screenful away from the row kept)
            return
        if self.scroll.go_on(what, total, base.ROWS):
            self.keep(ctx)               # A reads on, page by page, to the loss table (docs/keys.md)
            return
        if what is Intent.SECOND:
            self.ask_retreat(ctx)
        elif what in (Intent.BACK, Intent.CLOSE):
            ctx.pop()                    # A on the last page closes, as on every text
            OPEN.close(ctx, battle_mark(ctx, self.result))   # read: a restart opens the game on its home

    def keep(self, ctx: Ctx, draft: int | None = None, near: bool = False) -> None:
        """While this is the result kept open (:data:`OPEN`), the row the player reads from and the
        retreat losses typed and not sent (``draft``) go with it: a power cut reopens it so. ``near``
        (a row scrolled with up/down): kept only once it is a screenful or more from the row kept —
        a write a page read, not a write a press (the rows read stay on the panel reopened)."""
        mark = battle_mark(ctx, self.result)
        shown = OPEN.pending(ctx, mark)
        if shown is None or (near and abs(self.scroll.top - shown.top) < base.ROWS):
            return
        OPEN.open(ctx, mark, self.scroll.top, draft)

    def ask_retreat(self, ctx: Ctx, draft: int | None = None) -> None:
        """The retreat losses form: 0..the loser's units left, the support it gives in the title
        bar; A sends them (nothing when the number is the one already kept: no step that changes
        nothing) and the battle shows the support again (W-5). ``draft``: the figure typed before
        a power cut (:func:`resume_battle`)."""
        if self.over:
            ctx.notify(play.game_over())
            return
        room = self.room()
        if not room:
            ctx.notify(Msg("The loser has no units left to lose retreating."))
            return
        if not self.latest(ctx):
            return
        r = self.result
        losses = (r["attacker"] if r["loser"] == "attacker" else r["defender"])["losses"]
        kept = min(self.result["retreat_losses"] if draft is None else max(0, draft), room)

        def go(c: Ctx, v: dict[str, int]) -> None:
            self.follow(c)                                # the number kept now: the serial link or an undo
            changed = v["losses"] != self.result["retreat_losses"]      # may have moved it since the form opened
            if changed and not self.latest(c):
                c.pop()
                return
            if changed:
                response = run_line(c, act.retreat(v["losses"]))
                if response is None:
                    return                                # refused (said): the form stays
                self.result = response
            c.pop()

        def status(c: Ctx, v: dict[str, int]) -> str:
            return _("support +{}").format(support_gain(losses, v["losses"]))

        ctx.push(RetreatForm(self, N_("Retreat losses"), [Field("losses", N_("Units lost"), kept, 0, room)],
                             go, status=status))


class RetreatForm(NumberForm):
    """The retreat losses form of ``battle`` (:meth:`BattleResult.ask_retreat`): it goes with the
    battle's result when an undo takes the battle back. Its figure, typed and not sent, is kept
    with the open result (:meth:`BattleResult.keep`): a power cut brings the form back as it was."""

    def __init__(self, battle: BattleResult, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.battle = battle

    def stale(self, ctx: Ctx) -> bool:
        return self.battle.stale(ctx)

    def _change(self, ctx: Ctx, by: int, field: Field) -> None:
        before = field.value
        super()._change(ctx, by, field)
        if field.value != before:
            self.battle.keep(ctx, field.value)

    def key(self, key: str, ctx: Ctx) -> None:
        depth = ctx.depth()
        super().key(key, ctx)
        if ctx.depth() < depth:          # closed (sent, or B): no figure left typed
            self.battle.keep(ctx)


OPEN_KEY = "sword.battle"     # the battle result fought on the device and not closed yet: ``<game>:<digest>``,
OPEN = OneResult(OPEN_KEY, r"[^@~\s]*:[0-9a-f]{8}")    # the row read from and the retreat losses typed and not sent


def battle_mark(ctx: Ctx, battle: BattleFields) -> str:
    """The mark of ``battle`` in the running game: the game's id (its fair draw's: a copy reopened
    from Earlier games keeps it) and a digest of what was rolled and who fought (not its retreat
    losses: entered later, W-5, the same battle)."""
    fair = ctx.fair_draw()
    who = (fair.game or fair.session) if fair is not None else ""
    sides = [{k: v for k, v in battle[name].items() if k != "eliminated"} for name in ("attacker", "defender")]
    said = json.dumps([sides, *(battle.get(k) for k in ("winner", "readings", "sacred_band", "dice_source"))],
                      sort_keys=True, default=str)
    return f"{who}:{zlib.crc32(said.encode('utf-8')):08x}"


def resume_battle(ctx: Ctx) -> bool:
    """On opening the game (after a power cut): the battle result fought on the device and not
    closed yet is said again where the table left it — its losses, the winner's support and the
    loss table (W-2..W-5) —, over the home, on the rows the player was reading, and the retreat
    losses form over it with the figure typed if it was open (W-5); True if so. Never one closed,
    one an undo took back or another game's (the mark is the game's most recent battle's,
    :func:`battle_mark`)."""
    shown = OPEN.kept(ctx)
    if shown is None:
        return False
    try:
        last = view_of(ctx)["last_battle"]
    except LookupError:
        return False
    if last is None or battle_mark(ctx, last) != shown.mark:
        return False
    screen = BattleResult(last, top=shown.top)
    screen.follow(ctx)
    if shown.top > max(0, len(screen.rows()) - base.ROWS):      # (a row it never reaches: a damaged value)
        log.warning("the battle result kept open from row %s has %s rows: shown from its first", shown.top,
                    len(screen.rows()))
        screen.scroll.top = 0
    ctx.push(screen)
    if shown.draft is not None:
        screen.ask_retreat(ctx, shown.draft)
    return True
