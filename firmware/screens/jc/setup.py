"""Julius Caesar: setting up a battle — attacker, surprise and dice, then the blocks of each side from
the roster (strength carried over) or by their rating."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from engine.actions import with_people
from engine.jc import actions as act
from engine.jc.battle import CLEOPATRA_RULES, cleopatra_for_language
from engine.jc.order import ballista_rating
from engine.jc.replies import RosterBlock
from engine.jc.roster import roman, roster
from engine.jc.views import JcView
from engine.text import N_
from firmware.i18n import Sentences, language
from firmware.screens.jc.kinds import GroupedBlocks
from firmware.screens.jc.text import Msg, _, ngettext
from firmware.screens import base, play
from firmware.screens.ctx import Ctx, Screen
from firmware.screens.jc.words import (CLEOPATRA_LABEL, CLEOPATRA_WORDS, GAME, ROLE_WORDS, SIDES, BlockNamed, owned_name,
                                       roster_now, run_line, side_name, view_of)
from firmware.screens.widgets import Field, Item, NumberForm, on_off
from firmware.screens.widgets.dice import TABLE_DICE, source_word
from firmware.screens.widgets.people import Seats
from firmware.screens.widgets.share import FairShare


# -- set-up ------------------------------------------------------------------------------------
class SetupForm(NumberForm):
    """Attacker, surprise and dice, and — for a new game — who plays Caesar and who Pompey (the
    known players first, two presses each; nobody named: "Player 1/2" in exports)."""

    def __init__(self, title: str, fields: list[Field], on_go: Callable[[Ctx, dict[str, int]], None],
                 seats: Seats | None, fair: FairShare | None = None, number: int | None = None,
                 setting_up: bool = False) -> None:
        super().__init__(title, fields, on_go, status=self._status, fair=fair)
        self.seats = seats
        self.number = number
        self.setting_up = setting_up      # ``number`` is the battle being set up (its settings), not the next

    @property
    def title(self) -> str:  # type: ignore[override]
        """The form's title; a campaign's next battle by its number ("Battle 2": "Next battle" in
        Russian or Ukrainian does not fit beside the hint)."""
        title = self.form_title() if callable(self.form_title) else _(self.form_title)
        return title.format(self.number) if self.number is not None else title

    def stale(self, ctx: Ctx) -> bool:
        """A next battle's form once its battle is no longer over (an undo, a serial line): its
        start would be refused with the console's words. The settings of the battle being set up
        (``setting_up``) once it is no longer set up empty: a read from the serial link took them
        off while the players chose."""
        view = ctx.view()
        if self.number is None:
            return False
        if view is None or view["game"] != GAME:
            return True
        b = cast(JcView, view)["battle"]
        if self.setting_up:
            return b["phase"] != "setup" or b["number"] != self.number or bool(b["blocks"])
        return b["phase"] != "over" or b["number"] + 1 != self.number

    def _status(self, ctx: Ctx, values: dict[str, int]) -> str:
        return _("A: choose") if self.cursor >= len(self.fields) else _("A: start")

    def items(self, ctx: Ctx) -> list[Item]:
        rows = self.field_items()
        return rows + (self.seats.items(ctx, None, self._picked) if self.seats is not None else []) + self.fair_items(ctx)

    def _picked(self, ctx: Ctx, seat: int) -> None:
        self.cursor = self._mark = min(len(self.fields) + seat + 1, len(self.fields) + 1)
        self.current = ""


def setup_form(next_battle: bool = False, home: Callable[[], Screen] | None = None,
               dice: str | None = None, number: int | None = None, attacker: str = "caesar",
               surprise: bool = False, setting_up: bool = False) -> NumberForm:
    """Attacker, surprise, dice (``dice``: the campaign's setting, kept for its next battles) and,
    for a new game, when Cleopatra fights for the side she joins (J-2: the rule of the language's
    rulebook, the Russian and Ukrainian players' «в следующий раунд боя», unless another is chosen;
    the game keeps it) and the players of the two sides: A starts the session (or the next battle), then
    ``home`` shows it (``number``: the next battle's number, its form's title). A new game over any
    unfinished one (this one too) asks first. ``attacker``, ``surprise``: the values the form opens on."""
    if not next_battle and home is None:
        raise ValueError("a new battle needs the screen that shows it (home=)")
    fields = [Field("attacker", N_("Attacker"), SIDES.index(attacker), 0, 1, lambda v: side_name(SIDES[v])),
              Field("surprise", N_("Mars/Neptune"), int(surprise), 0, 1, on_off),      # J-10: surprise, land or sea
              Field("dice", N_("Dice"), 1 if dice == "physical" else 0, 0, 1,
                    source_word, "" if next_battle else TABLE_DICE)]
    if not next_battle:
        own = cleopatra_for_language(language())
        fields.append(Field("cleopatra", CLEOPATRA_LABEL, CLEOPATRA_RULES.index(own), 0, 1,
                            lambda v: _(CLEOPATRA_WORDS[CLEOPATRA_RULES[v]])))
    seats = None if next_battle else Seats([(s, partial(side_name, s)) for s in SIDES], lambda i: "—")

    fair = None if next_battle else FairShare()     # a new session's form: the players' share

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        attacker, surprise = SIDES[v["attacker"]], bool(v["surprise"])
        dice: act.Dice = "physical" if v["dice"] else "digital"
        if home is not None and not next_battle:
            rule: act.Cleopatra = "round" if CLEOPATRA_RULES[v["cleopatra"]] == "round" else "turn"    # (J-2)
            line = act.new(attacker, surprise, dice, rule)
            play.start_game(ctx, with_people(line, seats.people()) if seats is not None else line, home, fair=fair)
        elif (b := view_of(ctx)["battle"])["phase"] == "setup" and b["blocks"]:
            # blocks placed meanwhile (the serial link) under the open form: the console's refusal
            # names their ids and its remove command (J-4)
            ctx.notify(Msg("A battle is being set up: fight it, or take its blocks out first."))
        elif run_line(ctx, act.next_battle(attacker, surprise, dice)) is not None:
            ctx.pop()

    if next_battle and number is not None:
        return SetupForm(N_("Battle {}"), fields, go, seats, fair, number, setting_up)
    return SetupForm(N_("Next battle") if next_battle else N_("New battle"), fields, go, seats, fair)


def next_battle_form(ctx: Ctx) -> NumberForm:
    """The next battle of the campaign: its dice as the battle before (issue 24 §2)."""
    view = view_of(ctx)
    return setup_form(next_battle=True, dice=view["battle"]["dice"], number=view["battle"]["number"] + 1)


def battle_settings_form(ctx: Ctx) -> NumberForm:
    """The battle being set up, no block placed yet, chosen again: who attacks, Mars/Neptune and the
    dice (J-4, J-10), opening on what it has. The new game's form chose them for the campaign's first
    battle before the year's cards were revealed, and nothing on the device changed them: a first
    battle Pompey fought as the attacker (player 1, J-18) could not be set up. Its number stays (the
    console re-sets an empty set-up)."""
    b = view_of(ctx)["battle"]
    return setup_form(next_battle=True, dice=b["dice"], number=b["number"], attacker=b["attacker"],
                      surprise=b["surprise"], setting_up=True)


def open_add(ctx: Ctx, role: act.Role) -> None:
    ctx.push(AddScreen(role))


# -- adding blocks -----------------------------------------------------------------------------
class AddScreen(GroupedBlocks):
    """The side's blocks that came out of the last battle as one row (their list: "Add all" first,
    the army that fights again in one press, or a press a block), then the side's available roster blocks by kind, the
    likeliest first (the last battle's, then those the campaign has a strength for or the
    historical set-up places, then the levy pool's), and last "By rating…" (other Columbia block
    games). A on a block adds it at the strength it has (the roster's, as its form starts); hold A
    (KEY3) opens its form first (strength, reserve). A kind's list (or the last battle's) whose
    last block is added goes back to the side's list."""

    second_action = True           # hold A (KEY3): the block's form

    def __init__(self, role: act.Role) -> None:
        super().__init__()
        self.role = role

    @property
    def title(self) -> str:  # type: ignore[override]
        if self.kind == "group":
            return _("Last battle")
        return self.kind_title or _(ROLE_WORDS[self.role])

    def status(self, ctx: Ctx) -> str:
        """How many blocks the side has in the battle already, where it fits beside the title."""
        view = view_of(ctx)
        side = view["battle"][self.role]
        n = sum(1 for b in view["battle"]["blocks"] if b["side"] == side)
        said = ngettext("{} in battle", "{} in battle", n).format(n) if n else ""
        return said if len(self.title) + 1 + len(said) <= base.COLS else ""     # (a bare figure: "battle 1"?)

    def leading(self, ctx: Ctx) -> list[Item]:
        last = self.group(ctx)
        ready = sum(1 for b, _item in self.block_rows(ctx) if b["id"] in last)
        again = [Item(_("Last battle"), partial(self.open_kind, kind="group"), str(ready), ident="kind:group")]
        return again if ready else []

    def trailing(self, ctx: Ctx) -> list[Item]:
        return [Item(_("By rating…"), lambda c: c.push(rated_form(self.role)))]

    def group(self, ctx: Ctx) -> set[str]:
        """The roster blocks that came out of the last battle on this side (none before the first
        ends): not one it eliminated or killed, even once the winter gives it back to the levy
        pool (J-3, J-19); not one disbanded since (rules 8.3-8.5: gone to the levy pool, off the
        map); not one gone over since, by Jupiter or Cleopatra at I (J-2)."""
        view = view_of(ctx)
        if not view["history"]:
            return set()
        last, side = view["history"][-1], view["battle"][self.role]
        gone = set(view["campaign"]["pool"])
        # a battle kept before its survivors were (older versions) offers none
        return {b for b, stood in last.get("survivors", {}).items() if stood == side and b not in gone}

    def empty(self, ctx: Ctx) -> list[Item]:
        """A kind's list once its last block is in the battle ("No blocks in play" said otherwise)."""
        if self.kind == "group":
            return [Item(_("Every block of the last battle is in this one."), lambda c: c.pop())]
        return [Item(_("Every block of this kind is in the battle."), lambda c: c.pop())]

    def block_rows(self, ctx: Ctx) -> list[tuple[RosterBlock, Item]]:
        view = view_of(ctx)
        side = view["battle"][self.role]
        present = {b["key"] for b in view["battle"]["blocks"]}
        blocks = [b for b in roster_now(ctx, side) if b["status"] == "available" and b["id"] not in present]
        return [(b, Item(owned_name(b), partial(self.add, block=b),
                         f"{rating_as(b, self.role)} {roman(b['strength'])}", ident=b["id"]))
                for b in blocks]

    def group_head(self, ctx: Ctx, blocks: Sequence[RosterBlock]) -> list[Item]:
        """"Add all" above the last battle's blocks, where there are two or more (the army that
        fights again: its survivors one press, not a press a block and a B)."""
        if len(blocks) < 2:
            return []
        return [Item(_("Add all"), self.add_all, str(len(blocks)), ident="all")]

    def add(self, ctx: Ctx, block: RosterBlock) -> None:
        """A on a block's row: added at once at the strength it has (:func:`add_block`)."""
        self.done(ctx, add_block(ctx, self.role, block))

    def add_all(self, ctx: Ctx) -> None:
        """Every block the list shows, each as A on its row adds it, land blocks before navis (an
        attacking navis beside them comes in as a reserve, J-8); what the device did said in one
        notice. A block refused stops it there, the reason said (those added stay: an undo a block)."""
        blocks = sorted((b for b, _item in self.listed(ctx)), key=lambda b: b["kind"] == "navis")
        said: list[str] = []
        for block in blocks:
            one = add_block(ctx, self.role, block)
            if one is None:
                return
            said += one
        self.done(ctx, said)

    def done(self, ctx: Ctx, said: list[str] | None) -> None:
        """After an add (``said``: what to say; None: refused, the reason said already): a kind's or
        the group's list that has no block left goes back to the side's list (a list with nothing
        to add is a B the player had to press), then the notice."""
        if said is None:
            return
        if self.kind and not self.listed(ctx):
            ctx.pop()
        tell(ctx, said)

    def likeliest(self, ctx: Ctx, rows: Sequence[tuple[RosterBlock, Item]]) -> list[tuple[RosterBlock, Item]]:
        """A kind's blocks, the likeliest first: the last battle's, then those on the map (a
        strength kept, the set-up), then the levy pool's — a disbanded block and one a winter gave
        back too (J-3, J-19) — (the kinds keep the roster's order)."""
        last, known = self.group(ctx), view_of(ctx)["campaign"]["strength"]
        return sorted(rows, key=lambda r: 0 if r[0]["id"] in last else 2 if r[0]["pool"]
                      else 1 if r[0]["id"] in known or r[0]["setup"] else 2)

    def second(self, ctx: Ctx) -> None:
        """Hold A on a block: its form (strength, reserve); elsewhere what A does."""
        items = self.items(ctx)
        ident = items[min(self.cursor, len(items) - 1)].key if items else ""
        block = next((b for b, _item in self.block_rows(ctx) if b["id"] == ident), None)
        if block is None:
            self.select(ctx)
        else:
            ctx.push(block_form(self.role, block, navis_forced(ctx, self.role, block), self.done))


def add_block(ctx: Ctx, role: act.Role, block: RosterBlock) -> list[str] | None:
    """A block added at once, at the strength its form starts at (the roster's, on its track).
    Returns what to say (:func:`add_keeping_navis_reserves`), None if refused (the reason said)."""
    track = strengths(block)
    strength = block["strength"] if block["strength"] in track else track[-1]
    return add_keeping_navis_reserves(ctx, role, block, strength, False)


# -- attacking navis beside land blocks are the reserves (J-8; the RU summary 2.2.2) ------------------
NAVIS_ADDED = N_("{} joins the attack as a reserve: attacking navis beside land blocks are always reserves "
                 "(rules 7.3).")


def navis_forced(ctx: Ctx, role: str, block: RosterBlock) -> bool:
    """True when ``block`` is a navis joining the attack beside attacking land blocks: it can only
    be a reserve (J-8; the RU summary 2.2.2 «Если атакующие войска, помимо кораблей, включают и
    наземные блоки (атака города-порта), в таком случае атакующие корабли всегда объявляются
    резервом»)."""
    b = view_of(ctx)["battle"]
    return (role == "attacker" and block["kind"] == "navis"
            and any(x["kind"] != "navis" for x in b["blocks"] if x["side"] == b["attacker"]))


def add_keeping_navis_reserves(ctx: Ctx, role: act.Role, block: RosterBlock, strength: int,
                               reserve: bool) -> list[str] | None:
    """Add ``block``; the start never refuses what the Add list built (J-8, 2.2.2): an attacking
    navis beside attacking land blocks comes in as a reserve, and a land block joining an attack
    whose navis are its main force puts them into the reserve in the same action
    (``navis-reserve=1``: one step, which one undo takes back whole). Returns what to say (the
    device's doing in a whole sentence, the roster's notes), None if the block was refused (the
    reason said)."""
    if any(x.get("id") == block["id"] for x in view_of(ctx)["battle"]["blocks"]):
        # added meanwhile (the serial link) under the open form: the console's refusal names its id
        ctx.notify(Msg("{} is already in this battle.", BlockNamed(block)))
        return None
    forced = navis_forced(ctx, role, block) and not reserve
    response = run_line(ctx, act.add(role, block["id"], strength, reserve or forced,
                                     navis_main(ctx, role) and block["kind"] != "navis"))
    if response is None:
        return None
    said: list[str] = [Msg(NAVIS_ADDED, BlockNamed(block))] if forced else []
    return said + moved_to_reserve(ctx, response.get("to_reserve", [])) + response.get("notes", [])


def tell(ctx: Ctx, said: list[str] | None) -> None:
    """What adding a block did, as one notice (nothing for nothing)."""
    if said:
        ctx.notify(Sentences(*said) if len(said) > 1 else said[0])


def navis_main(ctx: Ctx, role: str) -> bool:
    """True when navis are among the attack's main force: a land block joining it as the attacker
    puts them into the reserve (J-8, 2.2.2)."""
    b = view_of(ctx)["battle"]
    return role == "attacker" and any(x["kind"] == "navis" and not x["reserve"]
                                      for x in b["blocks"] if x["side"] == b["attacker"])


def moved_to_reserve(ctx: Ctx, keys: Sequence[str]) -> list[str]:
    """The sentence saying which attacking navis an add put into the reserve (its ``to_reserve``)."""
    moved = [BlockNamed(x) for x in view_of(ctx)["battle"]["blocks"] if x["key"] in keys]
    if not moved:
        return []
    return [Msg("{names} moves to the reserve: attacking navis beside land blocks are always reserves (rules 7.3).",
                names=Msg.join(moved), n=len(moved),
                plural="{names} move to the reserve: attacking navis beside land blocks are always reserves (rules 7.3).")]


def rating_as(block: RosterBlock, role: str) -> str:
    """A roster block's rating as it fights in ``role``: the ballista is D4 where its side attacks
    and B4 where it defends (J-2); any other block its printed rating."""
    if block.get("kind") == "ballista":
        letter, fp = ballista_rating(role)
        return f"{letter}{fp}"
    return str(block["rating"]).split("/")[0]


def strengths(block: RosterBlock) -> list[int]:
    """The strengths a roster block can have, weakest first: its track (the elephant: II and IV
    only, J-2), else I up to its maximum; a block in the levy pool only the one a levy brings it in
    at, its weakest (J-20: the console refuses it at any other)."""
    spec = roster().get(block["id"])
    track = sorted(spec.track) if spec is not None else list(range(1, block["max"] + 1))
    return track[:1] if block["pool"] else track


class BlockForm(NumberForm):
    """A roster block's form (:func:`block_form`): taken off once the block is no longer as the
    form offered it — gone (added meanwhile, eliminated, gone over) or its strengths changed: a
    serial line or an undo put it in the levy pool, where a levy brings it in at its weakest only
    (J-20), or took it out. Its strength chosen before would be refused with the console's words."""

    def __init__(self, role: act.Role, block: RosterBlock, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.role = role
        self.block = block

    def stale(self, ctx: Ctx) -> bool:
        view = ctx.view()
        if view is None or view["game"] != GAME:
            return True
        b = cast(JcView, view)["battle"]
        if b["phase"] != "setup" or any(x["key"] == self.block["id"] for x in b["blocks"]):
            return True
        now = next((x for x in roster_now(ctx, b[self.role]) if x["id"] == self.block["id"]), None)
        return now is None or now["status"] != "available" or strengths(now) != strengths(self.block)


def block_form(role: act.Role, block: RosterBlock, reserve_only: bool = False,
               then: Callable[[Ctx, list[str]], None] = lambda ctx, said: tell(ctx, said)) -> NumberForm:
    """Strength (only those on the block's track) and reserve for a roster block; A adds it.
    ``reserve_only``: an attacking navis beside land blocks (:func:`navis_forced`), on only.
    ``then``: once added and the form closed, what the list under it does with what to say (the
    Add list: :meth:`AddScreen.done`, a list emptied goes back too)."""
    track = strengths(block)
    now = track.index(block["strength"]) if block["strength"] in track else len(track) - 1
    fields = [Field("strength", N_("Strength"), now, 0, len(track) - 1, lambda i: roman(track[i])),
              Field("reserve", N_("Reserve"), int(reserve_only), int(reserve_only), 1, on_off)]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        chosen = bool(v["reserve"]) and not navis_forced(ctx, role, block)    # not chosen where it is the only one
        said = add_keeping_navis_reserves(ctx, role, block, track[v["strength"]], chosen)
        if said is not None:
            ctx.pop()
            then(ctx, said)

    return BlockForm(role, block, lambda: owned_name(block), fields, go)


def rated_form(role: act.Role) -> NumberForm:
    """A block known only by its rating (other Columbia block games)."""
    fields = [Field("letter", N_("Initiative"), 2, 0, 3, lambda v: "ABCD"[v]),
              Field("fp", N_("Firepower"), 2, 1, 4, str),
              Field("strength", N_("Strength"), 3, 1, 4, roman),
              Field("leader", N_("Leader"), 0, 0, 1, on_off),
              Field("reserve", N_("Reserve"), 0, 0, 1, on_off)]

    def go(ctx: Ctx, v: dict[str, int]) -> None:
        line = act.add_rated(role, "ABCD"[v["letter"]], v["fp"], v["strength"], bool(v["leader"]), bool(v["reserve"]),
                             navis_main(ctx, role))                           # a land block (J-8)
        if (response := run_line(ctx, line)) is not None:
            ctx.pop()
            tell(ctx, moved_to_reserve(ctx, response.get("to_reserve", [])))

    return NumberForm(N_("Block by rating"), fields, go)
