"""Who plays: the seats of a new-game form and the player picker (issue 24 §1).

Every player form (Glory's players, Julius Caesar's and the Sword of Rome's sides, the Caesar!
duel) holds a :class:`Seats`: one row per seat, its person shown on the right. A (or right) on a
seat opens the :class:`PlayerPicker`: the players this device has seen, most recent first (the
console's ``players``), the cursor on the seat's own; A on one sits them there (a player already
on another seat changes places with this seat's) and the form's cursor goes on to the next seat,
so a known player costs two presses. Just above the known players (one press up from the cursor):
"Enter a name…" (the keyboard opens on the seat's name: a typo is mended, not typed again); below
them "No name". The players' list itself
(rename, remove) is History → Players (:class:`PlayersScreen`).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from engine import actions as act
from engine.text import N_
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, remade
from firmware.screens.widgets.confirm import ConfirmScreen
from firmware.screens.widgets.keyboard import PERSON, TypeScreen
from firmware.screens.widgets.listing import Item, ListScreen


def known_players(ctx: Ctx) -> list[str]:
    """The players this device has seen, most recent first ([] if the list cannot be read)."""
    return read_players(ctx)[0] or []


def read_players(ctx: Ctx) -> tuple[list[str] | None, str]:
    """The players this device has seen, most recent first, or None and why when the list cannot
    be read now (the console's words: «Check the card»)."""
    response = ctx.run(act.players())
    if not response.get("ok"):
        return None, str(response.get("message", ""))
    return [str(n) for n in response.get("players", [])], ""


def unreadable(ctx: Ctx, said: str) -> None:
    """A on the row of a players' list the card cannot read now: why, and what to do."""
    from firmware.i18n import Msg
    ctx.notify(said or Msg("The players' list cannot be read now. Check the card."))


class Seats:
    """The seats of a form: ``seats`` = [(side id, its label: ``N_`` marked or a callable)], the
    person on each (None: nobody named; ``blank(i)`` says what that shows). ``prefill``: seats
    start with the most recent players (the table that played last), as Glory's players do."""

    def __init__(self, seats: list[tuple[str, str | Callable[[], str]]], blank: Callable[[int], str],
                 prefill: bool = False) -> None:
        self.seats = list(seats)
        self.names: list[str | None] = [None] * len(seats)
        self.blank = blank
        self.prefill = prefill
        self._filled = False

    def label(self, i: int) -> str:
        from firmware.i18n import _
        text = self.seats[i][1]
        return text() if callable(text) else _(text)

    def shown(self, i: int) -> str:
        """What seat ``i`` shows: its person, or what a blank seat shows."""
        name = self.names[i]
        return name if name is not None else self.blank(i)

    def fill(self, ctx: Ctx) -> None:
        """The first time the form is drawn: with ``prefill``, the most recent players sit down."""
        if self._filled:
            return
        self._filled = True
        if self.prefill:
            for i, name in enumerate(known_players(ctx)[:len(self.names)]):
                self.names[i] = name

    def items(self, ctx: Ctx, count: int | None = None, after: Callable[[Ctx, int], None] | None = None) -> list[Item]:
        """One row per seat (the first ``count``); A opens the picker, ``after(ctx, seat)`` runs
        when a player was picked (the form moves its cursor on)."""
        from firmware.screens import base
        self.fill(ctx)
        n = len(self.seats) if count is None else count
        return [Item(self.label(i), partial(self.pick, seat=i, after=after), base.clip_name(self.shown(i), self._room(i)),
                     ident=f"seat:{self.seats[i][0]}") for i in range(n)]

    def _room(self, i: int) -> int:
        """The characters seat ``i``'s name may take beside its label on one row (12 at most, 6 at
        least): a long name is cut, never the seat's label broken over two rows."""
        from firmware.screens import base
        return max(6, min(12, base.COLS - 2 - len(self.label(i))))

    def pick(self, ctx: Ctx, seat: int, after: Callable[[Ctx, int], None] | None = None) -> None:
        ctx.push(PlayerPicker(self, seat, after))

    def sit(self, seat: int, name: str | None) -> None:
        """``name`` on ``seat``; if someone else's seat holds that name, the two change places."""
        if name is not None:
            for j, other in enumerate(self.names):
                if j != seat and other is not None and other.casefold() == name.casefold():
                    self.names[j] = self.names[seat]
        self.names[seat] = name

    def people(self, count: int | None = None) -> dict[str, str | None]:
        """Side id → the person named for it (None: nobody), for ``act.with_people``."""
        n = len(self.seats) if count is None else count
        return {self.seats[i][0]: self.names[i] for i in range(n)}


class PlayerPicker(ListScreen):
    """"Enter a name…" (a player nobody knows yet: one press up from the cursor, however many are
    known), the known players — those not at the table yet first (most recent first: the likeliest
    pick is under the cursor), then this seat's own (✓) and those on other seats (their seat's
    number: picking one changes places) — and "No name"; A sits the one under the cursor on the
    seat and goes back to the form. A list the card cannot read now adds «List cannot be read…»
    under them (A: why; it showed no known player, as if nobody had played here)."""

    def __init__(self, seats: Seats, seat: int, after: Callable[[Ctx, int], None] | None = None) -> None:
        super().__init__()
        self.seats = seats
        self.seat = seat
        self.after = after
        self._known: list[str] | None = None
        self._order: list[str] = []
        self._unread: str | None = None     # why the players' list could not be read (its row says so)

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.seats.label(self.seat)

    def known(self, ctx: Ctx) -> list[str]:
        if self._known is None:
            read, why = read_players(ctx)
            self._known, self._unread = (read or []), (None if read is not None else why)
        return self._known

    def items(self, ctx: Ctx) -> list[Item]:
        from firmware.i18n import _
        if self._known is None:
            where = {name.casefold(): j for j, name in enumerate(self.seats.names) if name is not None}
            known = self.known(ctx)             # the order is fixed when the list opens
            self._order = sorted(known, key=lambda n: (0 if n.casefold() not in where else
                                                        1 if where[n.casefold()] == self.seat else 2))
            if self._order:                     # the cursor on the likeliest known player, a new one just above
                self.cursor = self._mark = 1
        where = {name.casefold(): j for j, name in enumerate(self.seats.names) if name is not None}
        out = [Item(_("Enter a name…"), self._type, ident="type")]
        for name in self._order:
            j = where.get(name.casefold())
            mark = "" if j is None else ("✓" if j == self.seat else str(j + 1))
            out.append(Item(name, partial(self._chosen, name=name), mark, ident=f"player:{name}"))
        out.append(Item(_("No name"), partial(self._chosen, name=None), ident="none"))
        if self._unread is not None:        # (never an empty list said as nobody known: the card did not read)
            out.append(Item(_("List cannot be read…"), partial(unreadable, said=self._unread),
                            ident="unreadable"))
        return out

    def _chosen(self, ctx: Ctx, name: str | None) -> None:
        self.seats.sit(self.seat, name)
        ctx.pop()
        if self.after is not None:
            self.after(ctx, self.seat)

    def _type(self, ctx: Ctx) -> None:
        ctx.replace(TypeScreen(self._typed, self.seats.names[self.seat] or "", PERSON, capital=True))

    def _typed(self, ctx: Ctx, name: str) -> None:
        self.seats.sit(self.seat, name)
        if self.after is not None:
            self.after(ctx, self.seat)


# -- History → Players: the list itself -------------------------------------------------------------------
class PlayersScreen(ListScreen):
    """The players this device has seen, most recent first; A: rename or remove one (History keeps
    their games). With nobody remembered yet, one row whose A says how a name comes here; with a
    list the card cannot read now, one row whose A says so (never "No players yet": that would say
    a loss as a fact) — A on a row never does nothing without a word, as History's rows."""

    title = Said(N_("Players"))
    wrap_rows = True            # (a name is at most 16 characters; the rows of no list take two rows)

    def items(self, ctx: Ctx) -> list[Item]:
        from firmware.i18n import _
        names, why = read_players(ctx)
        if names is None:
            return [Item(_("Players cannot be read…"), partial(unreadable, said=why), ident="unreadable")]
        if not names:
            return [Item(_("No players yet…"), self._none, ident="none")]
        return [Item(n, partial(self._open, name=n), ident=n) for n in names]

    @staticmethod
    def _none(ctx: Ctx) -> None:
        from firmware.i18n import Msg
        ctx.notify(Msg("A name is kept here once a new game is started with it."))


    @staticmethod
    def _open(ctx: Ctx, name: str) -> None:
        ctx.push(PlayerMenu(name))


class PlayerMenu(ListScreen):
    """One remembered player: rename (the keyboard opens on the name), remove from the list."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.name

    def items(self, ctx: Ctx) -> list[Item]:
        from firmware.i18n import _
        return [Item(_("Rename"), self._rename), Item(_("Remove from the list"), self._remove)]

    def _rename(self, ctx: Ctx) -> None:
        ctx.push(TypeScreen(self._renamed, self.name, PERSON, capital=True))

    def _renamed(self, ctx: Ctx, new: str) -> None:
        if new == self.name:
            return
        response = ctx.run(act.rename_player(self.name, new))
        if response["ok"]:
            self.name = response.get("renamed", new)
        else:
            ctx.notify(response.get("message", ""))

    def _remove(self, ctx: Ctx) -> None:
        from firmware.i18n import Msg, _

        def yes(c: Ctx) -> None:
            response = c.run(act.forget_player(self.name))
            if response.get("ok"):
                c.pop()
                c.notify(Msg("{} is off the list; History keeps the games.", self.name))
            else:
                c.notify(response.get("message", ""))
        ctx.push(remade(lambda: ConfirmScreen(
            _("Remove?"), _("Take {} off the list of players? History keeps the games.").format(self.name), yes)))
